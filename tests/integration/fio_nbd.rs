//! The nbd engine for real: exports served by nbdkit on a unix socket in a scratch directory
//! (the memory plugin, or the file plugin over a small file), beside fio's own nbd engine on
//! the same job file and on fio's examples/nbd.fio; verification through the export; the
//! refusals of a formatted and of a read-only export; a missing socket.

use crate::util::*;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// An nbdkit server on a unix socket of its own, stopped (and its socket removed) on drop,
/// also when its test fails.
struct Server {
    child: Child,
    _dir: Scratch,
    socket: PathBuf,
}

impl Server {
    /// nbdkit serving `plugin` with `args` (e.g. "memory", ["size=16M"]); arguments that start
    /// with `-` are nbdkit's own options (e.g. "-r", read-only) and go before the plugin.
    fn start(plugin: &str, args: &[&str]) -> Server {
        let dir = Scratch::new("nbd-server");
        let socket = dir.file("nbd.sock");
        let child = Command::new("nbdkit")
            .args(["--foreground", "--exit-with-parent", "-U"])
            .arg(&socket)
            .args(args.iter().filter(|a| a.starts_with('-')))
            .arg(plugin)
            .args(args.iter().filter(|a| !a.starts_with('-')))
            .stdin(Stdio::null())
            .spawn()
            .expect("nbdkit must be installed (scripts/test installs Debian's nbdkit)");
        let mut server = Server {
            child,
            _dir: dir,
            socket,
        };
        // Serving once the socket exists; a server that ended or never listens fails the test.
        let deadline = Instant::now() + Duration::from_secs(60);
        while !server.socket.exists() {
            if let Some(st) = server.child.try_wait().unwrap() {
                panic!("nbdkit {plugin} {args:?} ended: {st}");
            }
            assert!(Instant::now() < deadline, "nbdkit never listened");
            std::thread::sleep(Duration::from_millis(20));
        }
        server
    }
    /// The file `path` served by the file plugin.
    fn file(path: &Path) -> Server {
        Server::start("file", &[&format!("file={}", path.display())])
    }
    fn uri(&self) -> String {
        format!("nbd+unix:///?socket={}", self.socket.display())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A file of `mib` MiB of zeros.
fn zeros(d: &Scratch, name: &str, mib: u64) -> PathBuf {
    let p = d.file(name);
    std::fs::File::create(&p)
        .unwrap()
        .set_len(mib << 20)
        .unwrap();
    p
}

/// The same size-bound job file through fio's nbd engine and iomark's, each against a fresh
/// 16 MiB memory export: the same I/O counts (a read job without a size reads the export).
#[test]
fn nbd_job_counts_match_fio() {
    let d = Scratch::new("nbd-job");
    let job = |uri: &str| {
        format!(
            "[global]\nioengine=nbd\nuri={uri}\niodepth=8\n\n\
             [w]\nrw=randwrite\nbs=4k\nsize=8m\nfsync=64\n\n\
             [r]\nstonewall\nrw=read\nbs=64k\n\n\
             [t]\nstonewall\nrw=trim\nbs=1m\nsize=4m\n\n\
             [m]\nstonewall\nrw=randrw\nbs=16k\nsize=4m\nend_fsync=1\n"
        )
    };
    let run = |tool: &str| {
        let server = Server::start("memory", &["size=16M"]);
        let file = d.file(&format!("{tool}.fio"));
        std::fs::write(&file, job(&server.uri())).unwrap();
        let o = run_tool(
            tool,
            &[file.to_str().unwrap(), "--output-format=json"],
            &d.path,
        );
        tool_json(tool, &o)
    };
    let fio = run("fio");
    let ours = run("iomark");
    assert_eq!(job_ios(&ours), job_ios(&fio));
    assert_eq!(job_ios(&ours)[0], (0, 2048));
    assert_eq!(job_ios(&ours)[1], (256, 0));
    let (r, w) = job_ios(&ours)[3];
    assert_eq!(r + w, 256);
    for j in [&ours, &fio] {
        assert_eq!(u(&j["jobs"][2]["trim"]["total_ios"]), 4);
        assert_eq!(u(&j["jobs"][0]["error"]), 0);
    }
}

/// A verified write read back through the export passes; a block changed in the served file
/// behind the export's back is found.
#[test]
fn nbd_verify_finds_a_block_changed_behind_its_back() {
    let d = Scratch::new("nbd-verify");
    let img = zeros(&d, "export.img", 16);
    let server = Server::file(&img);
    let uri = format!("--uri={}", server.uri());
    let common = [
        "run",
        "--name=v",
        "--ioengine=nbd",
        &uri,
        "--bs=64k",
        "--iodepth=8",
        "--verify=crc32c",
    ];
    let mut w = common.to_vec();
    w.push("--rw=write");
    ok(&iomark_in(&w, &d.path));
    let mut r = common.to_vec();
    r.push("--rw=read");
    ok(&iomark_in(&r, &d.path));
    // Change 4 KiB inside the eleventh block, in the file the server serves.
    {
        use std::io::{Seek, SeekFrom, Write};
        let mut f = std::fs::OpenOptions::new().write(true).open(&img).unwrap();
        f.seek(SeekFrom::Start(10 * 65536 + 8192)).unwrap();
        f.write_all(&[0xA5; 4096]).unwrap();
        f.sync_all().unwrap();
    }
    let o = iomark_in(&r, &d.path);
    assert!(!o.status.success(), "{}", stdout(&o));
    let e = stderr(&o);
    assert!(
        e.contains("1 bad block(s) of 256") && e.contains("offset 655360"),
        "{e}"
    );
}

/// A write to an export that holds a filesystem signature is refused before any I/O (the
/// served file unchanged); reading it is fine, and --force-device-write overwrites it.
#[test]
fn nbd_formatted_export_is_refused() {
    let d = Scratch::new("nbd-formatted");
    let img = zeros(&d, "swap.img", 16);
    let mk = Command::new("mkswap")
        .arg(&img)
        .output()
        .expect("mkswap must be installed (scripts/test installs util-linux)");
    assert!(mk.status.success(), "{mk:?}");
    let before = std::fs::read(&img).unwrap();
    let server = Server::file(&img);
    let uri = format!("--uri={}", server.uri());
    let args = |rw: &'static str| {
        vec![
            "run".to_string(),
            "--name=f".into(),
            "--ioengine=nbd".into(),
            uri.clone(),
            "--bs=64k".into(),
            "--size=1m".into(),
            format!("--rw={rw}"),
        ]
    };
    let run = |a: &[String]| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        iomark_in(&a, &d.path)
    };
    let o = run(&args("write"));
    assert!(!o.status.success(), "{}", stdout(&o));
    let e = stderr(&o);
    assert!(
        e.contains("refusing to write to NBD export nbd+unix:")
            && e.contains("swap")
            && e.contains("--force-device-write"),
        "{e}"
    );
    assert!(std::fs::read(&img).unwrap() == before, "the export changed");
    ok(&run(&args("read")));
    let mut forced = args("write");
    forced.push("--force-device-write".into());
    ok(&run(&forced));
    assert!(
        std::fs::read(&img).unwrap() != before,
        "nothing was written"
    );
}

/// A URI naming a socket nobody listens on: a clear error naming it, before any I/O, and
/// soon (no wait for a server that is not there).
#[test]
fn nbd_missing_socket_is_a_clear_error() {
    let d = Scratch::new("nbd-missing");
    let uri = format!("nbd+unix:///?socket={}", d.s("nobody.sock"));
    let o = output_within(
        Command::new(bin())
            .args(["run", "--name=m", "--ioengine=nbd", "--rw=read", "--bs=4k"])
            .arg(format!("--uri={uri}"))
            .current_dir(&d.path),
        Duration::from_secs(120),
    )
    .unwrap()
    .expect("iomark gave up on the missing socket");
    assert!(!o.status.success(), "{}", stdout(&o));
    let e = stderr(&o);
    assert!(
        e.contains(&format!("cannot connect to {uri}")) && e.contains("No such file or directory"),
        "{e}"
    );
    // A job without a uri is refused by name.
    let o = iomark_in(&["run", "--name=n", "--ioengine=nbd", "--rw=read"], &d.path);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("ioengine=nbd needs uri="),
        "{}",
        stderr(&o)
    );
}

/// fio's examples/nbd.fio (`uri=nbd+unix:///?socket=${unixsocket}`, four jobs at offsets 64 MiB
/// apart over a 256 MiB export, randrw at iodepth 64, group_reporting) with the socket in the
/// environment as the example says, through fio and iomark: the same I/O counts. The example
/// runs for 60 s; here each job moves 4 MiB, so that the counts can be compared.
#[test]
fn nbd_example_with_the_socket_in_the_environment_runs_as_with_fio() {
    let d = Scratch::new("nbd-example");
    let text = "[global]\nioengine=nbd\nuri=nbd+unix:///?socket=${unixsocket}\nrw=randrw\n\
                size=4m\ngroup_reporting\niodepth=64\n\n[job0]\noffset=0\n\n[job1]\noffset=64m\n\n\
                [job2]\noffset=128m\n\n[job3]\noffset=192m\n";
    let file = d.file("nbd.fio");
    std::fs::write(&file, text).unwrap();
    let run = |tool: &str| {
        let server = Server::start("memory", &["size=256M"]);
        let mut cmd = if tool == "fio" {
            Command::new("fio")
        } else {
            let mut c = Command::new(bin());
            c.arg("run");
            c
        };
        let o = cmd
            .arg(&file)
            .arg("--output-format=json")
            .env("unixsocket", &server.socket)
            .current_dir(&d.path)
            .bounded_output()
            .unwrap();
        assert!(!stderr(&o).contains("is not set"), "{tool}: {}", stderr(&o));
        tool_json(tool, &o)
    };
    let fio = run("fio");
    let ours = run("iomark");
    // group_reporting: one entry for the four jobs, 4 × 4 MiB at 4 KiB.
    let (r, w) = job_ios(&ours)[0];
    assert_eq!(r + w, 4096);
    let (fr, fw) = job_ios(&fio)[0];
    assert_eq!(fr + fw, r + w);
    assert!(r > 0 && w > 0, "randrw did both: {r} {w}");
    assert_eq!(u(&ours["jobs"][0]["error"]), 0);
}

/// An export nbdkit serves read-only (`-r`): a write job is refused before any I/O, naming
/// the export (the served file unchanged, no result printed); a read job reads it.
#[test]
fn nbd_read_only_export_refuses_a_write_and_reads() {
    let d = Scratch::new("nbd-readonly");
    let img = d.file("ro.img");
    std::fs::write(&img, vec![0x5a; 4 << 20]).unwrap();
    let before = std::fs::read(&img).unwrap();
    let server = Server::start("file", &["-r", &format!("file={}", img.display())]);
    let uri = format!("--uri={}", server.uri());
    let args = |rw: &str| {
        let rw = format!("--rw={rw}");
        let a = [
            "run",
            "--name=ro",
            "--ioengine=nbd",
            uri.as_str(),
            "--bs=64k",
        ];
        let mut a: Vec<String> = a.iter().map(|s| s.to_string()).collect();
        a.extend([rw, "--output-format=json".into()]);
        a
    };
    let run = |a: Vec<String>| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        iomark_in(&a, &d.path)
    };
    let o = run(args("write"));
    assert!(!o.status.success(), "{}", stdout(&o));
    let e = stderr(&o);
    assert!(
        e.contains(&format!(
            "ro: refusing to write to NBD export {}: the server offers it read-only",
            server.uri()
        )),
        "{e}"
    );
    assert!(!stdout(&o).contains("\"jobs\""), "{}", stdout(&o));
    assert!(std::fs::read(&img).unwrap() == before, "the export changed");
    let o = run(args("read"));
    ok(&o);
    assert_eq!(job_ios(&json(&o)), vec![(64, 0)]);
}
