//! Ceph for real: the rbd and rados engines and `rbd-bench` on images, against the throw-away
//! cluster scripts/test starts (scripts/ceph-cluster), beside fio's engines and Ceph's own tools
//! on the same pools and images. Images are small (memstore keeps them in memory).

use crate::util::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// The cluster's directory and configuration; fails (never skips) when it is not running.
pub(crate) fn cluster() -> (PathBuf, PathBuf) {
    let dir = std::env::var_os("IOMARK_TEST_CEPH").map(PathBuf::from);
    let conf = dir.as_ref().map(|d| d.join("ceph.conf"));
    match (dir, conf) {
        (Some(d), Some(c)) if c.is_file() => (d, c),
        _ => panic!(
            "the Ceph tests need the test cluster: run them through scripts/test, which starts it, \
             or start one with `scripts/ceph-cluster start DIR` and export IOMARK_TEST_CEPH=DIR \
             CEPH_CONF=DIR/ceph.conf (stop it with `scripts/ceph-cluster stop DIR`)"
        ),
    }
}

/// A Ceph command (rbd, rados, ceph) on the test cluster, bounded in time.
pub(crate) fn ceph_tool(tool: &str, args: &[&str]) -> Output {
    let (_, conf) = cluster();
    let o = output_within(
        Command::new("timeout")
            .arg("120")
            .arg(tool)
            .args(args)
            .env("CEPH_CONF", &conf),
        Duration::from_secs(130),
    )
    .expect("run a Ceph tool (scripts/test installs ceph-common)")
    .unwrap_or_else(|| panic!("{tool} {args:?} did not end"));
    o
}

/// iomark with the cluster's configuration (and `env`), in a scratch directory.
pub(crate) fn iomark_ceph(args: &[&str], env: &[(&str, &str)]) -> Output {
    let (_, conf) = cluster();
    let cwd = Scratch::new("ceph");
    let mut cmd = Command::new(bin());
    cmd.args(args)
        .current_dir(&cwd.path)
        .env("CEPH_CONF", &conf);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.bounded_output().expect("run iomark")
}

/// An image of the test pool `rbd`, removed on drop.
pub(crate) struct TestImage {
    pub(crate) name: String,
}

static IMAGES: AtomicU32 = AtomicU32::new(0);

impl TestImage {
    pub(crate) fn new(tag: &str, mib: u64) -> TestImage {
        TestImage::named(&unique(tag), mib)
    }
    /// An image of `mib` MiB named `name`.
    pub(crate) fn named(name: &str, mib: u64) -> TestImage {
        ok(&ceph_tool(
            "rbd",
            &["create", "-s", &format!("{mib}M"), &format!("rbd/{name}")],
        ));
        TestImage { name: name.into() }
    }
    /// The image's bytes (`rbd export`).
    pub(crate) fn export(&self) -> Vec<u8> {
        let d = Scratch::new("ceph-export");
        let back = d.file("back.img");
        ok(&ceph_tool(
            "rbd",
            &[
                "export",
                "--no-progress",
                &self.spec(),
                back.to_str().unwrap(),
            ],
        ));
        std::fs::read(&back).unwrap()
    }
    /// An image imported from the file `path`.
    pub(crate) fn import(tag: &str, path: &Path) -> TestImage {
        let name = unique(tag);
        ok(&ceph_tool(
            "rbd",
            &["import", path.to_str().unwrap(), &format!("rbd/{name}")],
        ));
        TestImage { name }
    }
    pub(crate) fn spec(&self) -> String {
        format!("rbd/{}", self.name)
    }
}

pub(crate) fn unique(tag: &str) -> String {
    let n = IMAGES.fetch_add(1, Ordering::SeqCst);
    format!("it-{}-{tag}-{n}", std::process::id())
}

impl Drop for TestImage {
    fn drop(&mut self) {
        let _ = ceph_tool("rbd", &["rm", "--no-progress", &self.spec()]);
    }
}

/// The same job file through fio's rbd engine and iomark's: the same I/O counts.
#[test]
fn ceph_rbd_job_counts_match_fio() {
    let img = TestImage::new("fio", 32);
    let d = Scratch::new("ceph-job");
    let job = d.file("rbd.fio");
    std::fs::write(
        &job,
        format!(
            "[global]\nioengine=rbd\nclientname=admin\npool=rbd\nrbdname={}\niodepth=8\n\n\
             [w]\nrw=randwrite\nbs=4k\nsize=8m\n\n[r]\nstonewall\nrw=read\nbs=64k\n\n\
             [t]\nstonewall\nrw=trim\nbs=1m\nsize=4m\n",
            img.name
        ),
    )
    .unwrap();
    let (_, conf) = cluster();
    let fio = fio_json(
        &Command::new("fio")
            .args([job.to_str().unwrap(), "--output-format=json"])
            .current_dir(&d.path)
            .env("CEPH_CONF", &conf)
            .bounded_output()
            .unwrap(),
    );
    let ours = json(&iomark_ceph(
        &["run", job.to_str().unwrap(), "--output-format=json"],
        &[],
    ));
    // The read job has no size: both read the whole image (32 MiB in 64 KiB blocks).
    assert_eq!(job_ios(&ours), job_ios(&fio));
    assert_eq!(job_ios(&ours)[1], (512, 0));
    assert_eq!(u(&ours["jobs"][2]["trim"]["total_ios"]), 4);
}

/// A verified write read back through the engine passes; a block damaged through
/// `rbd export`/`rbd import` is found.
#[test]
fn ceph_rbd_verify_finds_damage() {
    let img = TestImage::new("verify", 16);
    let common = [
        "run",
        "--name=v",
        "--ioengine=rbd",
        "--pool=rbd",
        "--bs=64k",
        "--iodepth=8",
        "--verify=crc32c",
    ];
    let rbdname = format!("--rbdname={}", img.name);
    let mut w = common.to_vec();
    w.extend([rbdname.as_str(), "--rw=write"]);
    ok(&iomark_ceph(&w, &[]));
    let d = Scratch::new("ceph-verify");
    let raw = d.file("img.raw");
    ok(&ceph_tool(
        "rbd",
        &[
            "export",
            "--no-progress",
            &img.spec(),
            raw.to_str().unwrap(),
        ],
    ));
    // Damage 4 KiB inside the eleventh block.
    {
        use std::io::{Seek, SeekFrom, Write};
        let mut f = std::fs::OpenOptions::new().write(true).open(&raw).unwrap();
        f.seek(SeekFrom::Start(10 * 65536 + 8192)).unwrap();
        f.write_all(&[0xA5; 4096]).unwrap();
    }
    let damaged = TestImage::import("damaged", &raw);
    let mut r = common.to_vec();
    let rbdname2 = format!("--rbdname={}", damaged.name);
    r.extend([rbdname2.as_str(), "--rw=read"]);
    let o = iomark_ceph(&r, &[]);
    assert!(!o.status.success(), "{}", stdout(&o));
    let e = stderr(&o);
    assert!(
        e.contains("1 bad block(s) of 256") && e.contains("offset 655360"),
        "{e}"
    );
    // The undamaged image reads back clean.
    let mut r = common.to_vec();
    r.extend([rbdname.as_str(), "--rw=read"]);
    ok(&iomark_ceph(&r, &[]));
}

/// The first line and the op count of the last line of rbd bench's output.
fn bench_counts(out: &str) -> (String, String) {
    let first = out.lines().next().unwrap_or_default().to_string();
    let last = out
        .lines()
        .rfind(|l| l.starts_with("elapsed:"))
        .unwrap_or_else(|| panic!("no summary in\n{out}"));
    let ops = last
        .split_whitespace()
        .nth(3)
        .unwrap_or_default()
        .to_string();
    (first, ops)
}

/// The shape of a line of rbd bench: each number as `N`, each unit of bytes as `U`, runs of
/// spaces as one (the table's columns are padded to fixed widths).
fn shape(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            while chars
                .peek()
                .is_some_and(|c| c.is_ascii_digit() || ".e+-".contains(*c))
            {
                chars.next();
            }
            out.push('N');
        } else if !(c == ' ' && out.ends_with(' ')) {
            out.push(c);
        }
    }
    for unit in ["KiB", "MiB", "GiB", "TiB", "B"] {
        out = out.replace(&format!(" {unit}/s"), " U/s");
    }
    out.trim_start().to_string()
}

/// A per-second line of rbd bench, shaped.
const PER_SECOND: &str = "N N N N U/s";

/// `iomark rbd-bench POOL/IMAGE` and `rbd bench` on the same image: same header, same op count.
#[test]
fn ceph_rbd_bench_matches_rbd_bench() {
    let img = TestImage::new("bench", 64);
    for args in [
        "--io-type write --io-size 4K --io-threads 16 --io-total 8M --io-pattern rand",
        "--io-type read --io-size 64K --io-threads 4 --io-total 16M --io-pattern seq",
        "--io-type readwrite --io-size 16K --io-threads 8 --io-total 8M --io-pattern rand --rw-mix-read 70",
        // More than the image holds: rbd bench goes on from its start.
        "--io-type write --io-size 64K --io-threads 4 --io-total 96M --io-pattern seq",
    ] {
        let words: Vec<&str> = args.split_whitespace().collect();
        let spec = img.spec();
        let real = ceph_tool("rbd", &[&["bench"][..], &words, &[spec.as_str()]].concat());
        ok(&real);
        let ours = iomark_ceph(
            &[&["rbd-bench", spec.as_str(), "--allow-write"][..], &words].concat(),
            &[],
        );
        ok(&ours);
        assert_eq!(bench_counts(&stdout(&ours)), bench_counts(&stdout(&real)), "{args}");
        // Line for line the shapes rbd bench prints: the per-second table's fixed widths, the
        // summary's spacing and units; nothing else on stdout.
        let (ours, real) = (stdout(&ours), stdout(&real));
        let shapes = |s: &str| -> Vec<String> {
            s.lines()
                .map(shape)
                .filter(|l| l != PER_SECOND)
                .collect()
        };
        assert_eq!(shapes(&ours), shapes(&real), "{args}\n{ours}\n{real}");
        for l in ours.lines().filter(|l| shape(l) == PER_SECOND) {
            assert_eq!(l.len(), 37, "{l:?}");
        }
    }
    // Writing needs --allow-write.
    let o = iomark_ceph(&["rbd-bench", &img.spec(), "--io-type", "write"], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--allow-write"), "{}", stderr(&o));
}

/// A write job on `image` with `extra` options; its output.
fn write_job(image: &str, extra: &[&str], env: &[(&str, &str)]) -> Output {
    let rbdname = format!("--rbdname={image}");
    let args = [
        &[
            "run",
            "--name=w",
            "--ioengine=rbd",
            "--pool=rbd",
            rbdname.as_str(),
            "--rw=write",
            "--bs=64k",
            "--size=1m",
        ][..],
        extra,
    ]
    .concat();
    iomark_ceph(&args, env)
}

/// A second client watching `img` (`rbd watch`), once the cluster lists it; kill it when done.
pub(crate) fn watch(img: &TestImage) -> std::process::Child {
    let (_, conf) = cluster();
    let watch = Command::new("rbd")
        .args(["watch", &img.spec()])
        .env("CEPH_CONF", &conf)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("rbd watch");
    let t0 = Instant::now();
    while !stdout(&ceph_tool("rbd", &["status", &img.spec()])).contains("watcher=") {
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "rbd watch did not register"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    watch
}

/// An ext4 filesystem image of 32 MiB made in `d` (to import as an image holding data).
pub(crate) fn ext4_file(d: &Scratch) -> PathBuf {
    let fs = d.file("fs.img");
    std::fs::File::create(&fs)
        .unwrap()
        .set_len(32 << 20)
        .unwrap();
    ok(&Command::new("mkfs.ext4")
        .args(["-q", "-F", fs.to_str().unwrap()])
        .bounded_output()
        .unwrap());
    fs
}

/// An image another client has open (a watcher) is refused as a mounted device is.
#[test]
fn ceph_refuses_watched_image() {
    let img = TestImage::new("watched", 16);
    let mut watch = watch(&img);
    let o = write_job(&img.name, &[], &[]);
    let allowed = write_job(&img.name, &["--allow_mounted_write=1"], &[]);
    let _ = watch.kill();
    let _ = watch.wait();
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("it is open by another client") && e.contains("allow_mounted_write=1"),
        "{e}"
    );
    ok(&allowed);
    // Reading is never refused.
    ok(&write_job(&img.name, &["--rw=read"], &[]));
}

/// An image holding ext4 (made by `rbd import` of an ext4 image) is refused as a formatted
/// device is, and is left as it was.
#[test]
fn ceph_refuses_image_holding_ext4() {
    let d = Scratch::new("ceph-ext4");
    let fs = ext4_file(&d);
    let img = TestImage::import("ext4", &fs);
    let o = write_job(&img.name, &[], &[]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("holds ext4") && e.contains("writing would destroy it"),
        "{e}"
    );
    let o = iomark_ceph(
        &[
            "rbd-bench",
            &img.spec(),
            "--io-type",
            "write",
            "--io-total",
            "1M",
            "--allow-write",
        ],
        &[],
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("holds ext4"), "{}", stderr(&o));
    // Still ext4.
    let back = d.file("back.img");
    ok(&ceph_tool(
        "rbd",
        &[
            "export",
            "--no-progress",
            &img.spec(),
            back.to_str().unwrap(),
        ],
    ));
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&fs).unwrap());
}

/// A missing pool or image, a wrong key and a stopped monitor end quickly with a clear message.
#[test]
fn ceph_refusals_are_clear_and_bounded() {
    let img = TestImage::new("errors", 16);
    let o = iomark_ceph(
        &[
            "run",
            "--name=x",
            "--ioengine=rbd",
            "--pool=nopool",
            "--rbdname=x",
            "--rw=read",
        ],
        &[],
    );
    assert!(
        stderr(&o).contains("cannot open pool 'nopool': No such file or directory"),
        "{}",
        stderr(&o)
    );
    let o = write_job("no-such-image", &["--rw=read"], &[]);
    assert!(
        stderr(&o).contains("cannot open image rbd/no-such-image"),
        "{}",
        stderr(&o)
    );
    // A keyring with another secret for client.admin.
    let d = Scratch::new("ceph-key");
    let key = d.file("wrong.keyring");
    std::fs::write(
        &key,
        "[client.admin]\n\tkey = AQBpbmlvbWFya3dyb25na2V5AAAAAAAAAAAAAA==\n",
    )
    .unwrap();
    let args = format!("--keyring {}", key.display());
    let o = write_job(&img.name, &["--rw=read"], &[("CEPH_ARGS", &args)]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("cannot connect to Ceph cluster 'ceph' as client.admin"),
        "{}",
        stderr(&o)
    );
    // A monitor that does not answer: the configuration names ports nothing listens on.
    let (_, conf) = cluster();
    let text = std::fs::read_to_string(&conf).unwrap();
    let dead = d.file("dead.conf");
    let mon = text
        .lines()
        .find(|l| l.starts_with("mon_host"))
        .expect("mon_host");
    std::fs::write(
        &dead,
        text.replace(mon, "mon_host = [v2:127.0.0.1:9,v1:127.0.0.1:7]"),
    )
    .unwrap();
    let t0 = Instant::now();
    let o = write_job(
        &img.name,
        &["--rw=read"],
        &[("CEPH_CONF", dead.to_str().unwrap())],
    );
    let took = t0.elapsed();
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("waited 15 s") && e.contains("is a monitor running"),
        "{e}"
    );
    assert!(took < Duration::from_secs(25), "{took:?}");
}

/// fio's rados engine and iomark's: the same counts; the objects are gone afterwards.
#[test]
fn ceph_rados_job_counts_match_fio() {
    let (_, conf) = cluster();
    let d = Scratch::new("ceph-rados");
    let name = unique("rados");
    let fio_name = unique("rados-fio");
    // fio's rados engine reads /etc/ceph/ceph.conf unless conf= names another file.
    let conf_opt = format!("--conf={}", conf.display());
    let args = |job: &str| -> Vec<String> {
        vec![
            format!("--name={job}"),
            "--ioengine=rados".into(),
            conf_opt.clone(),
            "--pool=rados".into(),
            "--rw=randwrite".into(),
            "--bs=4k".into(),
            "--size=2m".into(),
            "--iodepth=8".into(),
            "--output-format=json".into(),
        ]
    };
    let fio_args = args(&fio_name);
    let fio = fio_json(
        &Command::new("fio")
            .args(&fio_args)
            .current_dir(&d.path)
            .env("CEPH_CONF", &conf)
            .bounded_output()
            .unwrap(),
    );
    // fio 3.33 leaves its object behind (its cleanup does not reach it): removed here.
    let _ = ceph_tool("rados", &["-p", "rados", "rm", &format!("{fio_name}.0.0")]);
    let ours_args = args(&name);
    let ours_args: Vec<&str> = ours_args.iter().map(String::as_str).collect();
    let ours = json(&iomark_ceph(&[&["run"][..], &ours_args].concat(), &[]));
    assert_eq!(job_ios(&ours), job_ios(&fio));
    assert_eq!(job_ios(&ours), [(0, 512)]);
    // iomark removes the objects it wrote, as fio's engine means to.
    let left = stdout(&ceph_tool("rados", &["-p", "rados", "ls"]));
    assert!(!left.contains(&name), "{left}");
}

/// Trims on objects, as fio's rados engine does them (each zeroes its range): fio and iomark
/// count the same trims, without errors.
#[test]
fn ceph_rados_trims_match_fio() {
    let (_, conf) = cluster();
    let d = Scratch::new("ceph-rados-trim");
    let args = |job: &str| -> Vec<String> {
        [
            format!("--name={job}"),
            "--ioengine=rados".into(),
            format!("--conf={}", conf.display()),
            "--pool=rados".into(),
            "--rw=randtrim".into(),
            "--bs=64k".into(),
            "--size=1m".into(),
            "--iodepth=4".into(),
            "--output-format=json".into(),
        ]
        .to_vec()
    };
    let trims = |v: &serde_json::Value| -> (u64, u64) {
        let j = &v["jobs"][0];
        (
            j["trim"]["total_ios"].as_u64().unwrap(),
            j["error"].as_u64().unwrap(),
        )
    };
    let fio_name = unique("trim-fio");
    let fio = fio_json(
        &Command::new("fio")
            .args(args(&fio_name))
            .current_dir(&d.path)
            .env("CEPH_CONF", &conf)
            .bounded_output()
            .unwrap(),
    );
    let _ = ceph_tool("rados", &["-p", "rados", "rm", &format!("{fio_name}.0.0")]);
    let ours = args(&unique("trim"));
    let ours: Vec<&str> = ours.iter().map(String::as_str).collect();
    let ours = json(&iomark_ceph(&[&["run"][..], &ours].concat(), &[]));
    assert_eq!(trims(&fio), (16, 0));
    assert_eq!(trims(&ours), trims(&fio));
}

/// A write run without `--no-cleanup`: the per-second lines (from the run's live counters)
/// start at second 0 and count up, the summary's count is what the lines' last finished count
/// led to, and the removal after it takes every object it wrote; nothing is left in the pool.
#[test]
fn ceph_rados_bench_write_lines_and_cleanup() {
    let run = unique("lines");
    let w = iomark_ceph(
        &[
            "rados-bench",
            "-p",
            "rados",
            "3",
            "write",
            "-b",
            "4K",
            "-t",
            "4",
            "--run-name",
            &run,
        ],
        &[],
    );
    ok(&w);
    let out = stdout(&w);
    let rows: Vec<Vec<&str>> = out
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|f| f.len() == 8 && f[0].parse::<u64>().is_ok())
        .collect();
    let secs: Vec<u64> = rows.iter().map(|f| f[0].parse().unwrap()).collect();
    assert!(secs.len() >= 3 && secs[..3] == [0, 1, 2], "{out}");
    assert!(secs.windows(2).all(|p| p[1] == p[0] + 1), "{out}");
    let finished: Vec<u64> = rows.iter().map(|f| f[3].parse().unwrap()).collect();
    assert!(finished.windows(2).all(|p| p[1] >= p[0]), "{out}");
    let written: u64 = figure(&out, "Total writes made:").parse().unwrap();
    assert!(written > 0 && written >= *finished.last().unwrap(), "{out}");
    assert!(
        out.contains(&format!(
            "Cleaning up (deleting benchmark objects)\nRemoved {written} objects\n"
        )),
        "{out}"
    );
    assert!(stderr(&w).contains("latency (µs): p50 "), "{}", stderr(&w));
    let objects = format!("{}_object", figure(&out, "Object prefix:"));
    let left = stdout(&ceph_tool("rados", &["-p", "rados", "ls"]));
    assert!(!left.contains(&run) && !left.contains(&objects), "{left}");
}

/// A summary figure of rados bench's output (`Total writes made:` ...).
fn figure(out: &str, key: &str) -> String {
    out.lines()
        .find_map(|l| l.strip_prefix(key))
        .unwrap_or_else(|| panic!("no {key} in\n{out}"))
        .trim()
        .to_string()
}

/// `iomark rados-bench seq/rand` reads what a real `rados bench write --no-cleanup` left, and
/// `rados bench seq` what iomark's write left (same object names, contents and metadata);
/// cleanup removes each.
#[test]
fn ceph_rados_bench_reads_what_the_other_wrote() {
    let real_run = unique("real");
    let ours_run = unique("ours");
    let w = ceph_tool(
        "rados",
        &[
            "bench",
            "-p",
            "rados",
            "1",
            "write",
            "-b",
            "8K",
            "-t",
            "4",
            "--no-cleanup",
            "--run-name",
            &real_run,
        ],
    );
    ok(&w);
    let written = figure(&stdout(&w), "Total writes made:");
    let r = iomark_ceph(
        &[
            "rados-bench",
            "-p",
            "rados",
            "30",
            "seq",
            "-t",
            "4",
            "--run-name",
            &real_run,
        ],
        &[],
    );
    ok(&r);
    assert_eq!(figure(&stdout(&r), "Total reads made:"), written);
    assert_eq!(figure(&stdout(&r), "Read size:"), "8192");
    ok(&iomark_ceph(
        &[
            "rados-bench",
            "-p",
            "rados",
            "1",
            "rand",
            "-t",
            "4",
            "--run-name",
            &real_run,
        ],
        &[],
    ));
    let o = iomark_ceph(
        &[
            "rados-bench",
            "-p",
            "rados",
            "cleanup",
            "--run-name",
            &real_run,
        ],
        &[],
    );
    ok(&o);
    assert_eq!(stdout(&o).trim(), format!("Removed {written} objects"));

    let w = iomark_ceph(
        &[
            "rados-bench",
            "-p",
            "rados",
            "1",
            "write",
            "-b",
            "4K",
            "-t",
            "4",
            "--no-cleanup",
            "--run-name",
            &ours_run,
        ],
        &[],
    );
    ok(&w);
    let out = stdout(&w);
    assert!(
        out.starts_with("hints = 1\nMaintaining 4 concurrent writes of 4096 bytes"),
        "{out}"
    );
    assert!(out.contains(
        "  sec Cur ops   started  finished  avg MB/s  cur MB/s last lat(s)  avg lat(s)\n"
    ));
    let written = figure(&out, "Total writes made:");
    let r = ceph_tool(
        "rados",
        &[
            "bench",
            "-p",
            "rados",
            "30",
            "seq",
            "-t",
            "4",
            "--run-name",
            &ours_run,
        ],
    );
    ok(&r);
    assert!(!stdout(&r).contains("is not correct"), "{}", stdout(&r));
    assert_eq!(figure(&stdout(&r), "Total reads made:"), written);
    ok(&ceph_tool(
        "rados",
        &["-p", "rados", "cleanup", "--run-name", &ours_run],
    ));
    let left = stdout(&ceph_tool("rados", &["-p", "rados", "ls"]));
    assert!(
        !left.contains(&real_run) && !left.contains(&ours_run),
        "{left}"
    );
}
