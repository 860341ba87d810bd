//! Helpers for the end-to-end tests: the binary, scratch directories that clean up after
//! themselves, and JSON helpers.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub use crate::deadline::{output_within, BoundedOutput};

pub fn bin() -> PathBuf {
    isolate_store();
    PathBuf::from(env!("CARGO_BIN_EXE_iomark"))
}

/// Every run of the tests records into a throw-away result store of this test process (in a
/// directory of the system's temporary directory, removed when the process ends, whether its
/// tests passed or not), never into the home's; a test of the store gives its own.
fn isolate_store() {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    extern "C" fn remove_store() {
        if let Some(d) = DIR.get() {
            let _ = std::fs::remove_dir_all(d);
        }
    }
    DIR.get_or_init(|| {
        let dir = tempfile::Builder::new()
            .prefix(&format!("iomark-it-{}-store-", std::process::id()))
            .tempdir()
            .expect("a temporary directory for the tests' store")
            .keep();
        std::env::set_var("IOMARK_STORE", dir.join("store.db"));
        // The test harness ends with exit(), which runs this (statics are never dropped).
        // SAFETY: registers a plain function with no captured state.
        unsafe { libc::atexit(remove_store) };
        dir
    });
}

/// A scratch directory removed on drop (also when its test fails).
pub struct Scratch {
    pub path: PathBuf,
    _dir: tempfile::TempDir,
}

impl Scratch {
    /// Under `base` (e.g. "/tmp" for ext4 on this machine, "/dev/shm" for tmpfs).
    pub fn new_in(base: &str, tag: &str) -> Scratch {
        let dir = tempfile::Builder::new()
            .prefix(&format!("iomark-it-{}-{tag}-", std::process::id()))
            .tempdir_in(base)
            .unwrap();
        // Open to all as a directory made with mkdir is (tempfile makes it the owner's alone).
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        Scratch {
            path: dir.path().to_path_buf(),
            _dir: dir,
        }
    }
    pub fn new(tag: &str) -> Scratch {
        Scratch::new_in("/tmp", tag)
    }
    pub fn file(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }
    pub fn s(&self, name: &str) -> String {
        self.file(name).display().to_string()
    }
}

/// Runs iomark in a scratch directory of its own (removed afterwards), so a run that creates
/// files where it is started never writes into the source tree.
/// The first seed command line of `tool` (tests/fixtures/seed-workloads/commands.txt), the
/// words after the tool's name.
pub fn seed_line(tool: &str) -> String {
    let seeds = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/seed-workloads/commands.txt"
    ))
    .unwrap();
    let prefix = format!("{tool} ");
    seeds
        .lines()
        .find_map(|l| l.trim().strip_prefix(prefix.as_str()))
        .unwrap_or_else(|| panic!("the {tool} seed line"))
        .to_string()
}

pub fn iomark(args: &[&str]) -> Output {
    let cwd = Scratch::new("cwd");
    iomark_in(args, &cwd.path)
}

pub fn iomark_in(args: &[&str], cwd: &Path) -> Output {
    Command::new(bin())
        .args(args)
        .current_dir(cwd)
        .bounded_output()
        .expect("run iomark")
}

pub fn fio_in(args: &[&str], cwd: &Path) -> Output {
    Command::new("fio")
        .args(args)
        .current_dir(cwd)
        .bounded_output()
        .expect("fio must be installed (scripts/test installs it)")
}

/// Runs `fio ARGS` or `iomark run ARGS` (`tool` is "fio" or "iomark") in `cwd`.
pub fn run_tool(tool: &str, args: &[&str], cwd: &Path) -> Output {
    if tool == "fio" {
        fio_in(args, cwd)
    } else {
        iomark_in(&[&["run"][..], args].concat(), cwd)
    }
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[track_caller]
pub fn ok(o: &Output) {
    assert!(
        o.status.success(),
        "command failed ({:?})\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        stdout(o),
        stderr(o)
    );
}

#[track_caller]
pub fn json(o: &Output) -> Value {
    ok(o);
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}):\n{}\nstderr:\n{}",
            stdout(o),
            stderr(o)
        )
    })
}

/// All key paths of a JSON value (object keys joined by '.', arrays as '[]'); numeric-like keys
/// of histogram maps (percentile, bins) are collapsed so key sets compare across runs.
pub fn key_paths(v: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    walk(v, String::new(), &mut out);
    out
}

fn walk(v: &Value, prefix: String, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            for (k, v) in m {
                if k == "iomark" {
                    continue;
                }
                let collapse = prefix.ends_with("bins") || prefix.ends_with("percentile");
                let key = if collapse { "*".to_string() } else { k.clone() };
                let p = if prefix.is_empty() {
                    key
                } else {
                    format!("{prefix}.{key}")
                };
                out.insert(p.clone());
                walk(v, p, out);
            }
        }
        Value::Array(a) => {
            for x in a {
                walk(x, format!("{prefix}[]"), out);
            }
        }
        _ => {}
    }
}

pub fn job(v: &Value, i: usize) -> &Value {
    &v["jobs"][i]
}

pub fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not an integer: {v}"))
}

/// (reads, writes) issued by each job of a fio or iomark JSON document.
pub fn job_ios(v: &Value) -> Vec<(u64, u64)> {
    v["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| (u(&j["read"]["total_ios"]), u(&j["write"]["total_ios"])))
        .collect()
}

pub fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// Make the directory `mnt` and mount a tmpfs there with `options` (`size=2m`, ...); needs root.
pub fn mount_tmpfs(mnt: &Path, options: &str) {
    std::fs::create_dir(mnt).unwrap();
    let m = Command::new("mount")
        .args(["-t", "tmpfs", "-o", options, "tmpfs"])
        .arg(mnt)
        .status()
        .unwrap();
    assert!(m.success(), "mount tmpfs -o {options} on {}", mnt.display());
}

pub fn is_root() -> bool {
    // SAFETY: geteuid takes no arguments and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// fio's JSON from stdout; fio prints some warnings ("fio: cache invalidation ... failed") on
/// stdout before the document, so everything before the first line opening an object is skipped.
#[track_caller]
pub fn fio_json(o: &Output) -> Value {
    ok(o);
    let s = stdout(o);
    let start = s
        .find("\n{")
        .map(|i| i + 1)
        .filter(|_| !s.starts_with('{'))
        .unwrap_or(0);
    serde_json::from_str(&s[start..]).unwrap_or_else(|e| {
        panic!(
            "fio's stdout is not JSON ({e}):\n{s}\nstderr:\n{}",
            stderr(o)
        )
    })
}

/// The strace of `fio ARGS` or `iomark run ARGS` (`tool`), following threads, for the system
/// calls `calls` (strace's `-e trace=` list), run in `cwd` with the report sent to /dev/null;
/// the run must succeed.
pub fn strace_tool(tool: &str, calls: &str, cwd: &Path, args: &[&str]) -> String {
    let trace = cwd.join(format!("{tool}.trace"));
    let mut cmd = Command::new("strace");
    cmd.args(["-f", "-qq", "-e", &format!("trace={calls}"), "-o"])
        .arg(&trace);
    if tool == "fio" {
        cmd.arg("fio");
    } else {
        cmd.arg(bin()).arg("run");
    }
    let o = cmd
        .args(args)
        .arg("--output=/dev/null")
        .current_dir(cwd)
        .bounded_output()
        .expect("strace must be installed (scripts/test installs it)");
    ok(&o);
    std::fs::read_to_string(&trace).unwrap()
}

/// The JSON document of a successful run of `tool` ("fio" or "iomark").
#[track_caller]
pub fn tool_json(tool: &str, o: &Output) -> Value {
    if tool == "fio" {
        fio_json(o)
    } else {
        json(o)
    }
}

/// LibreOffice (headless, with a throw-away profile in `outdir`) converts `input` to `to`
/// (e.g. "csv") in `outdir`.
pub fn soffice_convert(input: &Path, outdir: &Path, to: &str) -> Output {
    Command::new("soffice")
        .args([
            "--headless",
            "--norestore",
            &format!("-env:UserInstallation=file://{}/profile", outdir.display()),
            "--convert-to",
            to,
            "--outdir",
            &outdir.display().to_string(),
            &input.display().to_string(),
        ])
        .bounded_output()
        .expect("soffice must be installed (scripts/test installs libreoffice-calc-nogui)")
}

/// The same arguments under fio and under `iomark run`, each in its own scratch directory;
/// both JSON documents.
pub fn both_json(tag: &str, args: &[&str]) -> (Value, Value) {
    let d = Scratch::new(tag);
    let (fd, id) = (d.file("fio"), d.file("iomark"));
    std::fs::create_dir_all(&fd).unwrap();
    std::fs::create_dir_all(&id).unwrap();
    let mut fa = vec!["--output-format=json"];
    fa.extend_from_slice(args);
    let fv = fio_json(&fio_in(&fa, &fd));
    let mut ia = vec!["run", "--output-format=json"];
    ia.extend_from_slice(args);
    let iv = json(&iomark_in(&ia, &id));
    (fv, iv)
}

/// A directory where no file can be created, in a scratch directory removed on drop: a
/// read-only tmpfs mounted there as root (root ignores permission bits), mode 0555 otherwise.
pub struct ReadOnlyDir {
    pub path: PathBuf,
    mounted: bool,
    _scratch: Scratch,
}

impl ReadOnlyDir {
    pub fn new(tag: &str) -> ReadOnlyDir {
        use std::os::unix::fs::PermissionsExt;
        let scratch = Scratch::new(tag);
        let path = scratch.file("ro");
        std::fs::create_dir(&path).unwrap();
        let mounted = is_root();
        if mounted {
            let st = Command::new("mount")
                .args(["-t", "tmpfs", "-o", "ro,size=64m", "tmpfs"])
                .arg(&path)
                .status()
                .unwrap();
            assert!(
                st.success(),
                "mounting a read-only tmpfs on {}",
                path.display()
            );
        } else {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o555)).unwrap();
        }
        ReadOnlyDir {
            path,
            mounted,
            _scratch: scratch,
        }
    }

    pub fn s(&self) -> String {
        self.path.display().to_string()
    }

    /// The entries in the directory (none, if nothing was written).
    pub fn entries(&self) -> usize {
        std::fs::read_dir(&self.path).unwrap().count()
    }
}

impl Drop for ReadOnlyDir {
    fn drop(&mut self) {
        use std::os::unix::fs::PermissionsExt;
        if self.mounted {
            let _ = Command::new("umount").arg(&self.path).status();
        } else {
            let _ = std::fs::set_permissions(&self.path, std::fs::Permissions::from_mode(0o755));
        }
    }
}

/// The message of a caught panic (`assert!` gives a `String`, `panic!("literal")` a `&str`).
pub fn panic_text(e: &(dyn std::any::Any + Send)) -> String {
    e.downcast_ref::<String>()
        .cloned()
        .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic without a message".into())
}
