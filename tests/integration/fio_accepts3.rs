//! Options fio 3.33 accepts that iomark refused (issue 25), each run beside fio on the same job:
//! `cpumask` with `cpus_allowed_policy`, `threads`, the `z` (zones) suffix, `cmdprio_bssplit`
//! entries of five fields, and `max_open_zones` on a regular file.

use crate::util::*;

fn ios(v: &serde_json::Value) -> Vec<(u64, u64)> {
    job_ios(v)
}

/// Both tools run `args`; both succeed with the same I/O counts.
#[track_caller]
fn same_counts(tag: &str, args: &[&str]) {
    let (fv, iv) = both_json(tag, args);
    assert_eq!(ios(&iv), ios(&fv), "{args:?}");
}

#[test]
fn cpumask_and_its_policy() {
    let d = Scratch::new("cpumask");
    let fname = format!("--filename={}", d.s("c.dat"));
    let args = [
        "--name=c",
        &fname,
        "--size=1m",
        "--cpumask=1",
        "--cpus_allowed_policy=split",
        "--numjobs=1",
    ];
    same_counts("cpumask", &args);
    // A mask naming no CPU is refused.
    let o = iomark(&[
        "run",
        "--name=c",
        "--ioengine=null",
        "--size=1m",
        "--cpumask=0",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn threads_is_accepted_as_fio_does() {
    same_counts(
        "threads",
        &["--name=t", "--ioengine=null", "--size=1m", "--threads=4"],
    );
}

/// `size=4z` with strided zones of 256 KiB is 1 MiB; the same reads as fio.
#[test]
fn zone_suffix_counts_zones() {
    let d = Scratch::new("zsuffix");
    let fname = format!("--filename={}", d.s("z.dat"));
    let args = [
        "--name=z",
        &fname,
        "--zonemode=strided",
        "--zonesize=256k",
        "--size=4z",
        "--rw=read",
    ];
    let (fv, iv) = both_json("zsuffix", &args);
    assert_eq!(u(&job(&fv, 0)["read"]["io_bytes"]), 1 << 20);
    assert_eq!(ios(&iv), ios(&fv));
}

#[test]
fn cmdprio_bssplit_with_five_fields() {
    let d = Scratch::new("prio5");
    let fname = format!("--filename={}", d.s("p.dat"));
    let args = [
        "--name=p",
        &fname,
        "--size=4m",
        "--ioengine=libaio",
        "--rw=randread",
        "--bssplit=4k/50:64k/50",
        "--cmdprio_bssplit=64k/10/2/0/1:4k/50/1/0/0",
        "--randseed=3",
    ];
    let (fv, iv) = both_json("prio5", &args);
    let bytes = |v: &serde_json::Value| u(&job(v, 0)["read"]["io_bytes"]);
    assert_eq!(bytes(&iv), bytes(&fv));
}

#[test]
fn max_open_zones_on_a_regular_file() {
    let d = Scratch::new("maxzones");
    let fname = format!("--filename={}", d.s("m.dat"));
    same_counts(
        "maxzones",
        &["--name=m", &fname, "--size=1m", "--max_open_zones=4"],
    );
}
