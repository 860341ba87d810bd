use super::*;
use iomark_engine::job::{BlockSize, EngineKind, RwMode, SizeSpec};
use std::time::Duration;

fn args(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

fn run(s: &str) -> Result<CliRun, CliError> {
    parse_run_args(&args(s))
}

const SEED_LINES: &str = "\
fio --name=full-write-test --filename=/backups/testfile.dat --size=25G --bs=512k --rw=write --ioengine=libaio --direct=1 --time_based --runtime=600s
fio --name=merge-test --filename=/backups/testfile.dat --size=100G --bs=512k --rw=randrw --rwmixwrite=50 --direct=1 --ioengine=libaio --iodepth=4 --runtime=600 --time_based
fio --name=reverse-inc-test --filename=/tmp/testfile.dat --size=100G --bs=512k --rw=randrw --rwmixwrite=67 --direct=1 --ioengine=libaio --iodepth=4 --runtime=600 --time_based
fio --name=seq-read-test --filename=/backups/JobName/VMname.vbk --bs=512k --rw=read --ioengine=libaio --direct=1 --time_based --runtime=600
fio --name=frag-read-test --filename=/backups/JobName/VMname.vbk --bs=512k --rw=randread --ioengine=libaio --direct=1 --time_based --runtime=600s
fio --name=write_bandwidth_test --filename=/dev/rbd0 --filesize=16Gi --offset_increment=1Gi --time_based --ramp_time=2s --runtime=1m --ioengine=libaio --direct=1 --verify=0 --randrepeat=0 --bs=1M --iodepth=64 --rw=write --numjobs=16 --group_reporting
fio --name=read_bandwidth_test --filename=/dev/rbd0 --filesize=16Gi --offset_increment=1Gi --time_based --ramp_time=2s --runtime=1m --ioengine=libaio --direct=1 --verify=0 --randrepeat=0 --bs=1M --iodepth=64 --rw=read --numjobs=16 --group_reporting
fio --name=write_iops_test --filename=/dev/rbd0 --filesize=16Gi --time_based --ramp_time=2s --runtime=1m --ioengine=libaio --direct=1 --verify=0 --randrepeat=0 --bs=4K --iodepth=256 --rw=randwrite
fio --name=read_iops_test --filename=/dev/rbd0 --filesize=16Gi --time_based --ramp_time=2s --runtime=1m --ioengine=libaio --direct=1 --verify=0 --randrepeat=0 --bs=4K --iodepth=256 --rw=randread
fio --name=write_latency_test --filename=/dev/rbd0 --filesize=16Gi --time_based --ramp_time=2s --runtime=1m --ioengine=libaio --direct=1 --verify=0 --randrepeat=0 --bs=4K --iodepth=4 --rw=randwrite
fio --name=read_latency_test --filename=/dev/rbd0 --filesize=16Gi --time_based --ramp_time=2s --runtime=1m --ioengine=libaio --direct=1 --verify=0 --randrepeat=0 --bs=4K --iodepth=4 --rw=randread
fio --runtime 30 azure-fiowrite.ini
fio --runtime 30 azure-fioread.ini
fio --runtime 30 azure-fioreadwrite.ini
fio -filename=/dev/rhel/perf-test-lvm -rw=read -direct=1 -ioengine=sync -size=2g -numjobs=1 -bs=8k -name=robert_read
fio -filename=/dev/rhel/perf-test-lvm -rw=write -direct=1 -ioengine=sync -size=2g -numjobs=1 -bs=8k -name=robert_write
fio -filename=/dev/rhel/perf-test-lvm -rw=randread -direct=1 -ioengine=sync -size=128m -numjobs=1 -bs=8k -name=robert_randread
fio -filename=/dev/rhel/perf-test-lvm -rw=randwrite -direct=1 -ioengine=sync -size=128m -numjobs=1 -bs=8k -name=robert_randwrite
";

const AZURE_WRITE: &str = "[global]\nsize=30g\ndirect=1\niodepth=256\nioengine=libaio\nbs=8k\n\n[writer1]\nrw=randwrite\ndirectory=/mnt/nocache\n[writer2]\nrw=randwrite\ndirectory=/mnt/nocache\n[writer3]\nrw=randwrite\ndirectory=/mnt/nocache\n[writer4]\nrw=randwrite\ndirectory=/mnt/nocache\n";
const AZURE_READ: &str = "[global]\nsize=30g\ndirect=1\niodepth=256\nioengine=libaio\nbs=8k\n\n[reader1]\nrw=randread\ndirectory=/mnt/readcache\n[reader2]\nrw=randread\ndirectory=/mnt/readcache\n[reader3]\nrw=randread\ndirectory=/mnt/readcache\n[reader4]\nrw=randread\ndirectory=/mnt/readcache\n";

fn azure_rw() -> String {
    let mut s =
        String::from("[global]\nsize=30g\ndirect=1\niodepth=128\nioengine=libaio\nbs=4k\n\n");
    for i in 1..=4 {
        s += &format!("[reader{i}]\nrw=randread\ndirectory=/mnt/readcache\n");
    }
    s += "\n";
    for i in 1..=4 {
        s += &format!("[writer{i}]\nrw=randwrite\ndirectory=/mnt/nocache\nrate_iops=12500\n");
    }
    s
}

use iomark_engine::test_support::TempDir;

/// Check a few fields of a parsed seed line: (rw, bs, iodepth, numjobs, engine, direct,
/// runtime s, time_based, ramp s, rwmixread).
type Expect = (
    RwMode,
    u64,
    u32,
    u32,
    EngineKind,
    bool,
    Option<u64>,
    bool,
    u64,
    u32,
);

fn check(line: &str, j: &iomark_engine::job::JobSpec, e: Expect) {
    assert_eq!(j.rw, e.0, "{line}");
    assert_eq!(j.bs.read, BlockSize::Fixed(e.1), "{line}");
    assert_eq!(j.iodepth, e.2, "{line}");
    assert_eq!(j.numjobs, e.3, "{line}");
    assert_eq!(j.ioengine, e.4, "{line}");
    assert_eq!(j.direct, e.5, "{line}");
    assert_eq!(j.runtime.map(|d| d.as_secs()), e.6, "{line}");
    assert_eq!(j.time_based, e.7, "{line}");
    assert_eq!(j.ramp_time.as_secs(), e.8, "{line}");
    assert_eq!(j.rwmixread, e.9, "{line}");
}

#[test]
fn every_seed_fio_line_parses() {
    use EngineKind::*;
    use RwMode::*;
    let dir = TempDir::new("seed");
    std::fs::write(dir.join("azure-fiowrite.ini"), AZURE_WRITE).unwrap();
    std::fs::write(dir.join("azure-fioread.ini"), AZURE_READ).unwrap();
    std::fs::write(dir.join("azure-fioreadwrite.ini"), azure_rw()).unwrap();
    let k = 1024u64;
    let expect: Vec<Expect> = vec![
        (Write, 512 * k, 1, 1, Libaio, true, Some(600), true, 0, 50),
        (RandRw, 512 * k, 4, 1, Libaio, true, Some(600), true, 0, 50),
        (RandRw, 512 * k, 4, 1, Libaio, true, Some(600), true, 0, 33),
        (Read, 512 * k, 1, 1, Libaio, true, Some(600), true, 0, 50),
        (
            RandRead,
            512 * k,
            1,
            1,
            Libaio,
            true,
            Some(600),
            true,
            0,
            50,
        ),
        (Write, k * k, 64, 16, Libaio, true, Some(60), true, 2, 50),
        (Read, k * k, 64, 16, Libaio, true, Some(60), true, 2, 50),
        (
            RandWrite,
            4 * k,
            256,
            1,
            Libaio,
            true,
            Some(60),
            true,
            2,
            50,
        ),
        (RandRead, 4 * k, 256, 1, Libaio, true, Some(60), true, 2, 50),
        (RandWrite, 4 * k, 4, 1, Libaio, true, Some(60), true, 2, 50),
        (RandRead, 4 * k, 4, 1, Libaio, true, Some(60), true, 2, 50),
        (
            RandWrite,
            8 * k,
            256,
            1,
            Libaio,
            true,
            Some(30),
            false,
            0,
            50,
        ),
        (
            RandRead,
            8 * k,
            256,
            1,
            Libaio,
            true,
            Some(30),
            false,
            0,
            50,
        ),
        (
            RandRead,
            4 * k,
            128,
            1,
            Libaio,
            true,
            Some(30),
            false,
            0,
            50,
        ),
        (Read, 8 * k, 1, 1, Sync, true, None, false, 0, 50),
        (Write, 8 * k, 1, 1, Sync, true, None, false, 0, 50),
        (RandRead, 8 * k, 1, 1, Sync, true, None, false, 0, 50),
        (RandWrite, 8 * k, 1, 1, Sync, true, None, false, 0, 50),
    ];
    let lines: Vec<&str> = SEED_LINES.lines().collect();
    assert_eq!(lines.len(), expect.len());
    for (line, e) in lines.iter().zip(expect) {
        let mut a = args(line.strip_prefix("fio ").unwrap());
        for x in a.iter_mut() {
            if x.ends_with(".ini") {
                *x = dir.join(&*x).display().to_string();
            }
        }
        let r = parse_run_args(&a).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert!(r.warnings.is_empty(), "{line}: {:?}", r.warnings);
        assert!(!r.plan.jobs.is_empty());
        for j in r
            .plan
            .jobs
            .iter()
            .filter(|j| !j.name.starts_with("writer") || !line.contains("readwrite"))
        {
            check(line, j, e);
        }
        let j = &r.plan.jobs[0];
        if line.contains("bandwidth") {
            assert_eq!(j.filesize, Some((16 << 30, 16 << 30)));
            assert_eq!(j.offset_increment, SizeSpec::Bytes(1 << 30));
            assert!(j.group_reporting);
            assert!(!j.randrepeat);
        }
        if line.contains("azure") {
            assert_eq!(r.job_files.len(), 1);
            assert_eq!(
                r.plan.shown_global_options[0],
                ("runtime".into(), "30".into())
            );
            assert_eq!(j.size, Some(SizeSpec::Bytes(30 << 30)));
            assert_eq!(j.shown_options[0], ("name".into(), j.name.clone()));
        }
        if line.contains("readwrite.ini") {
            assert_eq!(r.plan.jobs.len(), 8);
            assert_eq!(r.plan.jobs[7].rw, RandWrite);
            assert_eq!(r.plan.jobs[7].bs.write, BlockSize::Fixed(4096));
            assert_eq!(r.plan.jobs[7].rate.iops.write, 12500);
            assert_eq!(
                r.plan.jobs[7].directories,
                vec![PathBuf::from("/mnt/nocache")]
            );
        }
        if line.contains("robert") {
            assert_eq!(r.plan.jobs.len(), 1);
            assert!(j.name.starts_with("robert_"));
            assert_eq!(j.filenames, vec![PathBuf::from("/dev/rhel/perf-test-lvm")]);
        }
    }
}

#[test]
fn globals_and_job_scoping() {
    let r =
        run("--bs=8k --ioengine=null --name=a --rw=write --iodepth=4 --name=b --bs=16k").unwrap();
    assert_eq!(r.plan.jobs.len(), 2);
    let (a, b) = (&r.plan.jobs[0], &r.plan.jobs[1]);
    assert_eq!(a.bs.read, BlockSize::Fixed(8192));
    assert_eq!(a.rw, RwMode::Write);
    assert_eq!(a.iodepth, 4);
    assert_eq!(b.bs.read, BlockSize::Fixed(16384));
    assert_eq!(b.rw, RwMode::Read);
    assert_eq!(b.iodepth, 1);
    assert_eq!(b.ioengine, EngineKind::Null);
    assert_eq!(
        r.plan.shown_global_options.pairs(),
        vec![
            ("bs".into(), "8k".into()),
            ("ioengine".into(), "null".into())
        ]
    );
    assert_eq!(
        a.shown_options.pairs(),
        vec![
            ("name".into(), "a".into()),
            ("rw".into(), "write".into()),
            ("iodepth".into(), "4".into())
        ]
    );
}

#[test]
fn value_forms() {
    let r =
        run("--name x --runtime 30 -iodepth 8 -rw=randread --time_based --blocksize=4k --size 1g")
            .unwrap();
    let j = &r.plan.jobs[0];
    assert_eq!(j.name, "x");
    assert_eq!(j.runtime, Some(Duration::from_secs(30)));
    assert_eq!(j.iodepth, 8);
    assert_eq!(j.rw, RwMode::RandRead);
    assert!(j.time_based);
    assert_eq!(j.shown_options[5], ("bs".into(), "4k".into()));
    let r = run("--name=x --direct 1 --norandommap --offset -0").unwrap();
    assert!(r.plan.jobs[0].direct);
    assert!(r.plan.jobs[0].norandommap);
}

#[test]
fn errors() {
    let e = run("--name=x --blocksiz=4k").unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown option 'blocksiz' (did you mean 'blocksize'?)"
    );
    let e = run("--name=x --iodepht=4").unwrap_err();
    assert!(e.to_string().contains("did you mean 'iodepth'"), "{e}");
    let e = run("--output-fromat=json --name=x").unwrap_err();
    assert!(
        e.to_string().contains("did you mean 'output-format'"),
        "{e}"
    );
    let e = run("--name=x --bs").unwrap_err();
    assert!(matches!(e, CliError::MissingValue { .. }), "{e}");
    assert!(e.to_string().contains("4k"), "{e}");
    let e = run("--name=x --direct --size=1m").unwrap_err();
    assert!(e.to_string().contains("'direct' needs a value"), "{e}");
    let e = run("--name=x --bs=4z").unwrap_err();
    let m = e.to_string();
    assert!(
        m.contains("job 'x'") && m.contains("'4z'") && m.contains("'bs'"),
        "{m}"
    );
    let e = run("--name=x --rw=write --verify=sha512").unwrap_err();
    assert!(
        e.to_string()
            .contains("verify=sha512' is not supported yet"),
        "{e}"
    );
    let e = run("--name=x --zonemode=zbd").unwrap_err();
    assert!(
        e.to_string()
            .contains("zonemode=zbd: specifying the zone size (zonesize) is mandatory"),
        "{e}"
    );
    let e = run("--rw=read").unwrap_err();
    assert!(e.to_string().contains("no jobs"), "{e}");
    let e = run("--server --name=x").unwrap_err();
    assert!(matches!(e, CliError::Unsupported(_)));
    let e = run("--output-format=xml --name=x").unwrap_err();
    assert!(e.to_string().contains("json+"), "{e}");
}

#[test]
fn ignored_option_warns() {
    let r = run("--clocksource=cpu --name=x --softrandommap=1 --name=y").unwrap();
    assert_eq!(r.warnings.len(), 2, "{:?}", r.warnings);
    assert!(r.warnings[0].to_string().contains("clocksource"));
    assert!(r.warnings[1].to_string().contains("softrandommap"));
}

#[test]
fn random_generator_lfsr_reaches_the_job() {
    let r = run("--name=x --random_generator=lfsr --name=y --random_generator=tausworthe").unwrap();
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    assert!(r.plan.jobs[0].lfsr);
    assert!(!r.plan.jobs[1].lfsr);
}

#[test]
fn engine_option_order() {
    assert!(run("--name=x --ioengine=io_uring --fixedbufs --hipri").is_ok());
    let e = run("--name=x --fixedbufs --ioengine=io_uring").unwrap_err();
    assert!(
        e.to_string().contains("must come after ioengine=io_uring"),
        "{e}"
    );
    let e = run("--name=x --ioengine=libaio --sqthread_poll").unwrap_err();
    assert!(
        e.to_string().contains("belongs to ioengine io_uring"),
        "{e}"
    );
    assert!(run("--ioengine=io_uring --name=x --registerfiles").is_ok());
}

#[test]
fn switches() {
    let r = run("--output-format=json,json+ --output=out.json --eta=never --status-interval=2 --result=r.json --readonly --parse-only --terse-version=3 --name=x").unwrap();
    assert_eq!(
        r.output.formats,
        vec![OutputFormat::Json, OutputFormat::JsonPlus]
    );
    assert_eq!(r.output.file, Some(PathBuf::from("out.json")));
    assert_eq!(r.output.eta, Eta::Never);
    assert_eq!(r.output.status_interval, Some(Duration::from_secs(2)));
    assert_eq!(r.output.result_file, Some(PathBuf::from("r.json")));
    assert!(r.output.parse_only);
    assert!(r.plan.readonly && r.plan.jobs[0].readonly);
    let r = run("--minimal --name=x").unwrap();
    assert_eq!(r.output.formats, vec![OutputFormat::Terse]);
    let e = run("--readonly --name=x --rw=randwrite").unwrap_err();
    assert!(e.to_string().contains("--readonly"), "{e}");
    assert!(matches!(run("--help").unwrap().action, Action::Help(_)));
    assert!(matches!(run("-h").unwrap().action, Action::Help(_)));
    assert_eq!(run("--version").unwrap().action, Action::Version);
    match run("--cmdhelp=bs").unwrap().action {
        Action::CmdHelp(t) => assert!(t.contains("blocksize")),
        a => panic!("{a:?}"),
    }
    assert!(run("--cmdhelp=blocksiz")
        .unwrap_err()
        .to_string()
        .contains("blocksize"));
    let r = run("--debug=io --name=x").unwrap();
    assert!(r.warnings[0].to_string().contains("debug"));
}

#[test]
fn job_files() {
    let dir = TempDir::new("files");
    let f1 = dir.join("a.fio");
    let f2 = dir.join("b.fio");
    std::fs::write(dir.join("inc.fio"), "iodepth=7\n").unwrap();
    std::fs::write(
        &f1,
        "; comment\n# another\n[global]\nioengine=null\nbs=8k\n[one]\nrw=randread\ninclude inc.fio\n[two]\nnorandommap ; flag\nbs=${IOMARK_TEST_UNSET_VAR}16k # sixteen\nbuffer_pattern=\"a;b\"\n[global]\nbs=32k\n[three]\n",
    )
    .unwrap();
    std::fs::write(&f2, "[four]\nioengine=null\n[five]\nioengine=null\n").unwrap();
    let a = vec![
        "--runtime=5".to_string(),
        f1.display().to_string(),
        "--bs=4k".to_string(),
        f2.display().to_string(),
        "--name=cli".to_string(),
        "--ioengine=null".to_string(),
    ];
    let r = parse_run_args(&a).unwrap();
    let names: Vec<&str> = r.plan.jobs.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, vec!["cli", "one", "two", "three", "four", "five"]);
    let j = |n: &str| r.plan.jobs.iter().find(|j| j.name == n).unwrap();
    assert_eq!(j("cli").bs.read, BlockSize::Fixed(4096));
    assert_eq!(j("one").bs.read, BlockSize::Fixed(8192));
    assert_eq!(j("one").iodepth, 7);
    assert_eq!(j("one").runtime, Some(Duration::from_secs(5)));
    assert_eq!(j("two").bs.read, BlockSize::Fixed(16384));
    assert!(j("two").norandommap);
    assert_eq!(j("two").buffers.pattern.as_deref(), Some(&b"a;b"[..]));
    assert_eq!(j("three").bs.read, BlockSize::Fixed(32768));
    assert_eq!(j("four").bs.read, BlockSize::Fixed(4096));
    let groups: Vec<u32> = r.plan.jobs.iter().map(|j| j.group_id).collect();
    assert_eq!(groups, vec![0, 0, 0, 0, 1, 1]);
    assert!(j("four").stonewall && !j("five").stonewall);

    let a = vec!["--section=two".to_string(), f1.display().to_string()];
    let r = parse_run_args(&a).unwrap();
    assert_eq!(r.plan.jobs.len(), 1);
    assert_eq!(r.plan.jobs[0].name, "two");

    let bad = dir.join("bad.fio");
    std::fs::write(&bad, "[x]\nioengine=null\nblocksiz=4k\n").unwrap();
    let e = parse_run_args(&[bad.display().to_string()]).unwrap_err();
    assert!(
        e.to_string().contains(
            "bad.fio:3:1: error: [x] unknown option 'blocksiz' (did you mean 'blocksize'?)"
        ),
        "{e}"
    );
    let e = parse_run_args(&[dir.join("missing.fio").display().to_string()]).unwrap_err();
    assert!(e.to_string().contains("cannot read"), "{e}");
}

#[test]
fn global_sections_on_the_command_line() {
    let r =
        run("--bs=8k --name=a --name=global --iodepth=4 --name=b --name=c --iodepth=2").unwrap();
    let d: Vec<(u64, u32)> = r
        .plan
        .jobs
        .iter()
        .map(|j| (j.bs.read.max(), j.iodepth))
        .collect();
    assert_eq!(d, vec![(8192, 1), (8192, 4), (8192, 2)]);
    assert_eq!(r.plan.shown_global_options.len(), 2);
    let r = run("--enghelp=io_uring").unwrap();
    assert!(matches!(r.action, Action::CmdHelp(t) if t.contains("fixedbufs")));
    let r = run("--cmdhelp").unwrap();
    assert!(matches!(r.action, Action::CmdHelp(t) if t.contains("zonemode")));
}

#[test]
fn showcmd_round_trips() {
    let r = run("--bs=8k --name=a --rw=write --time_based --runtime=1 --name=b --filename=x:y")
        .unwrap();
    let cmd = showcmd(&r.raw);
    assert_eq!(
        cmd,
        "iomark run --bs=8k --name=a --rw=write --time_based --runtime=1 --name=b --filename=x:y"
    );
    let again: Vec<String> = cmd.split_whitespace().skip(2).map(String::from).collect();
    assert_eq!(parse_run_args(&again).unwrap().plan, r.plan);
}
