//! Every engine × {read, write, randread, randwrite, randrw} on tmpfs and on ext4 (the
//! machine's real filesystem under /tmp), size-bounded, checking bytes and I/O counts.

use crate::util::*;

const PATTERNS: [&str; 5] = ["read", "write", "randread", "randwrite", "randrw"];

fn run_engine(base: &str, engine: &str, extra: &[&str]) {
    let d = Scratch::new_in(base, engine);
    let f = format!("--filename={}", d.s("f"));
    let e = format!("--ioengine={engine}");
    for rw in PATTERNS {
        let r = format!("--rw={rw}");
        let mut args = vec![
            "run",
            "--output-format=json",
            "--name=e",
            &f,
            &e,
            &r,
            "--size=2m",
            "--bs=4k",
        ];
        args.extend_from_slice(extra);
        let o = iomark(&args);
        let v = json(&o);
        let j = job(&v, 0);
        assert_eq!(u(&j["error"]), 0, "{engine} {rw}: {}", stderr(&o));
        let rd = u(&j["read"]["io_bytes"]);
        let wr = u(&j["write"]["io_bytes"]);
        assert_eq!(rd + wr, 2 << 20, "{engine} {rw} on {base}: bytes moved");
        let ios = u(&j["read"]["total_ios"]) + u(&j["write"]["total_ios"]);
        assert_eq!(ios, 512, "{engine} {rw} on {base}: I/O count");
        match rw {
            "read" | "randread" => assert_eq!(wr, 0),
            "write" | "randwrite" => assert_eq!(rd, 0),
            _ => assert!(rd > 0 && wr > 0, "randrw does both"),
        }
        let clat_n = u(&j["read"]["clat_ns"]["N"]) + u(&j["write"]["clat_ns"]["N"]);
        assert_eq!(clat_n, 512);
    }
}

macro_rules! engine_tests {
    ($($name:ident: $engine:expr, $extra:expr;)*) => {
        $(
            #[test]
            fn $name() {
                run_engine("/dev/shm", $engine, $extra);
                run_engine("/tmp", $engine, $extra);
            }
        )*
    };
}

engine_tests! {
    engine_sync: "sync", &[];
    engine_psync: "psync", &[];
    engine_vsync: "vsync", &[];
    engine_pvsync: "pvsync", &[];
    engine_pvsync2: "pvsync2", &[];
    engine_libaio: "libaio", &["--iodepth=16", "--direct=1"];
    engine_io_uring: "io_uring", &["--iodepth=16", "--direct=1"];
    engine_io_uring_fixed: "io_uring", &["--iodepth=8", "--fixedbufs", "--registerfiles"];
    engine_io_uring_batched: "io_uring", &["--iodepth=32", "--iodepth_batch_submit=8", "--iodepth_batch_complete_min=4"];
    engine_posixaio: "posixaio", &["--iodepth=8"];
    engine_mmap: "mmap", &[];
    engine_null: "null", &["--iodepth=8"];
}

#[test]
fn metadata_engines() {
    let d = Scratch::new("meta");
    let dir = format!("--directory={}", d.path.display());
    for (engine, rw) in [
        ("filecreate", "write"),
        ("filestat", "read"),
        ("filedelete", "write"),
    ] {
        let e = format!("--ioengine={engine}");
        let r = format!("--rw={rw}");
        let o = iomark(&[
            "run",
            "--output-format=json",
            "--name=m",
            &dir,
            &e,
            &r,
            "--nrfiles=50",
            "--filesize=4k",
            "--bs=4k",
        ]);
        let v = json(&o);
        let j = job(&v, 0);
        let ios = u(&j["read"]["total_ios"]) + u(&j["write"]["total_ios"]);
        assert_eq!(ios, 50, "{engine}: {}", stderr(&o));
    }
}

#[test]
fn char_devices() {
    let o = iomark(&[
        "run",
        "--output-format=json",
        "--name=z",
        "--filename=/dev/zero",
        "--size=4m",
        "--rw=read",
        "--bs=64k",
    ]);
    let v = json(&o);
    assert_eq!(u(&job(&v, 0)["read"]["io_bytes"]), 4 << 20);
    let o = iomark(&[
        "run",
        "--output-format=json",
        "--name=n",
        "--filename=/dev/null",
        "--size=4m",
        "--rw=write",
        "--bs=64k",
    ]);
    let v = json(&o);
    assert_eq!(u(&job(&v, 0)["write"]["io_bytes"]), 4 << 20);
}

#[test]
fn multiple_files_and_directories() {
    let d = Scratch::new("multi");
    let a = d.file("a");
    let b = d.file("b");
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    let dirs = format!("--directory={}:{}", a.display(), b.display());
    let o = iomark(&[
        "run",
        "--output-format=json",
        "--name=m",
        &dirs,
        "--nrfiles=4",
        "--size=4m",
        "--rw=randwrite",
        "--numjobs=2",
        "--file_service_type=random",
    ]);
    let v = json(&o);
    for i in 0..2 {
        assert_eq!(u(&job(&v, i)["write"]["io_bytes"]), 4 << 20);
    }
    // Clone 0 in a, clone 1 in b, 4 files of 1 MiB each.
    assert_eq!(std::fs::read_dir(&a).unwrap().count(), 4);
    assert_eq!(std::fs::read_dir(&b).unwrap().count(), 4);
    let m = std::fs::metadata(a.join("m.0.0")).unwrap();
    assert_eq!(m.len(), 1 << 20);
}

#[test]
fn unlink_removes_created_files() {
    let d = Scratch::new("unlink");
    let dir = format!("--directory={}", d.path.display());
    let o = iomark(&[
        "run",
        "--output-format=json",
        "--name=u",
        &dir,
        "--size=1m",
        "--rw=write",
        "--unlink=1",
    ]);
    json(&o);
    assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 0);
}

/// posixaio beside fio 3.33 on the same verified random-write job: the same I/O count and bytes,
/// every block verified, and requests really in flight together (depths above 1 recorded).
#[test]
fn posixaio_matches_fio() {
    let d = Scratch::new("paio");
    let args = |name: &str| {
        vec![
            "--output-format=json".to_string(),
            "--name=p".to_string(),
            format!("--filename={}", d.s(name)),
            "--ioengine=posixaio".to_string(),
            "--iodepth=8".to_string(),
            "--rw=randwrite".to_string(),
            "--bs=4k".to_string(),
            "--size=2m".to_string(),
            "--randseed=7".to_string(),
            "--verify=crc32c".to_string(),
        ]
    };
    let fa = args("fio.dat");
    let fo = fio_in(&fa.iter().map(String::as_str).collect::<Vec<_>>(), &d.path);
    let fv = fio_json(&fo);
    let mut ia = vec!["run".to_string()];
    ia.extend(args("iomark.dat"));
    let io = iomark(&ia.iter().map(String::as_str).collect::<Vec<_>>());
    let iv = json(&io);
    let (fj, ij) = (job(&fv, 0), job(&iv, 0));
    for dir in ["read", "write"] {
        assert_eq!(
            u(&ij[dir]["total_ios"]),
            u(&fj[dir]["total_ios"]),
            "{dir} I/Os"
        );
        assert_eq!(u(&ij[dir]["io_bytes"]), u(&fj[dir]["io_bytes"]), "{dir}");
    }
    assert_eq!(u(&ij["write"]["total_ios"]), 512);
    assert_eq!(u(&ij["error"]), 0);
    let deep: f64 = ["2", "4", "8"]
        .iter()
        .map(|k| f(&ij["iodepth_level"][*k]))
        .sum();
    assert!(
        deep > 0.0,
        "no I/O ran at depth > 1: {}",
        ij["iodepth_level"]
    );
}
