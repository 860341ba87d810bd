//! `iomark sweep`: the cross product's size and order in one result file, the matrix table, the
//! refusals, and the latency-target search end to end.

use crate::util::*;
use serde_json::Value;

#[test]
fn sweep_runs_the_cross_product_in_order_with_one_result_file() {
    let d = Scratch::new_in("/dev/shm", "sweep");
    let rf = d.s("r.json");
    let o = iomark_in(
        &[
            "sweep",
            "--bs=4k,64k",
            "--iodepth",
            "1..4x4",
            "--rw=randread,randwrite",
            "--ioengine=null",
            "--size=8m",
            "--runtime=50ms",
            "--time_based",
            "--rows=rw",
            "--cols=bs",
            "--show=bw",
            &format!("--result={rf}"),
        ],
        &d.path,
    );
    ok(&o);
    let s = stdout(&o);
    assert!(s.contains("MB/s by bs"), "{s}");
    let table: Vec<&str> = s.lines().skip_while(|l| *l != "MB/s by bs").collect();
    assert!(table[1].trim_end().ends_with("bs=4k     bs=64k"), "{s}");
    assert!(table[2].starts_with("rw=randread iodepth=1"), "{s}");
    assert!(table[5].starts_with("rw=randwrite iodepth=4"), "{s}");
    assert_eq!(table.len(), 6);
    let doc: Value = serde_json::from_slice(&std::fs::read(&rf).unwrap()).unwrap();
    let names: Vec<&str> = doc["plan"]["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 8);
    assert_eq!(names[0], "bs=4k,iodepth=1,rw=randread");
    assert_eq!(names[1], "bs=4k,iodepth=1,rw=randwrite");
    assert_eq!(names[2], "bs=4k,iodepth=4,rw=randread");
    assert_eq!(names[7], "bs=64k,iodepth=4,rw=randwrite");
    assert!(stderr(&o).contains("8 points, in this order: bs, iodepth, rw"));
    // Only the result file is left.
    assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 1);
}

#[test]
fn sweep_refusals_name_the_problem() {
    let o = iomark(&[
        "sweep",
        "--iodepth=1..10000+1",
        "--bs=4k,8k",
        "--ioengine=null",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("20000 points (10000 iodepth x 2 bs) is more than 10000"),
        "{}",
        stderr(&o)
    );
    let o = iomark(&["sweep", "--iodepth=1,,4"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--iodepth: empty item in '1,,4'"));
    let o = iomark(&["sweep", "--numjobs=0,1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--numjobs: 0 is not a useful value"));
}

/// A latency-target search over `swept` on the null engine, short points, in `d`; checked ok.
fn search_null(d: &Scratch, target: &str, swept: &str) -> std::process::Output {
    let o = iomark_in(
        &[
            "sweep",
            target,
            swept,
            "--rw=randread",
            "--ioengine=null",
            "--size=8m",
            "--runtime=50ms",
            "--time_based",
        ],
        &d.path,
    );
    ok(&o);
    o
}

#[test]
fn latency_target_search_reports_the_curve_and_the_answer() {
    let d = Scratch::new_in("/dev/shm", "sweep-lat");
    // A target no run can miss: the answer is the deepest queue, after two measurements.
    let o = search_null(&d, "--latency-target=p99=10s", "--iodepth=1..16x2");
    let s = stdout(&o);
    assert!(
        s.contains("highest iodepth with p99 latency under 10000000 µs: 16"),
        "{s}"
    );
    assert_eq!(
        s.lines()
            .filter(|l| l.starts_with("      1 ") || l.starts_with("     16 "))
            .count(),
        2,
        "{s}"
    );
    assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 0);
}

/// The search climbs a rate as well as a depth.
#[test]
fn latency_target_search_over_rate_iops() {
    let d = Scratch::new_in("/dev/shm", "sweep-rate");
    let o = search_null(&d, "--latency-target=mean=10s", "--rate_iops=500..4000x2");
    let s = stdout(&o);
    assert!(s.starts_with("rate_iops  mean latency (µs)"), "{s}");
    assert!(
        s.contains("highest rate_iops with mean latency under 10000000 µs: 4000"),
        "{s}"
    );
    let o = iomark_in(
        &[
            "sweep",
            "--latency-target=p99=1ms",
            "--bs=4k,8k",
            "--ioengine=null",
        ],
        &d.path,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("one of --iodepth, --rate_iops or --numjobs"));
}

/// On a modelled device (the null engine serving one I/O per 2 ms, so latency = depth x 2 ms)
/// the search finds the deepest queue under the target, and every point it measured follows
/// the model.
#[test]
fn latency_target_search_finds_the_point_of_a_modelled_device() {
    let d = Scratch::new_in("/dev/shm", "sweep-model");
    let o = iomark_in(
        &[
            "sweep",
            "--latency-target=p50=20ms",
            "--iodepth=1..32x2",
            "--null-service-time=2ms",
            "--rw=randread",
            "--ioengine=null",
            "--size=8m",
            "--runtime=300ms",
            "--time_based",
        ],
        &d.path,
    );
    ok(&o);
    let s = stdout(&o);
    // 2, 4, 8, 16, 32 and 64 ms: depth 8 (16 ms) is the deepest under 20 ms.
    assert!(
        s.contains("highest iodepth with p50 latency under 20000 µs: 8"),
        "{s}"
    );
    let points: Vec<(f64, f64)> = s
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("highest"))
        .map(|l| {
            let w: Vec<f64> = l
                .split_whitespace()
                .take(2)
                .map(|x| x.parse().unwrap())
                .collect();
            (w[0], w[1])
        })
        .collect();
    assert!(points.len() >= 4 && points.len() <= 6, "{s}");
    for (depth, lat) in points {
        let model = depth * 2000.0;
        assert!(
            lat >= model * 0.8 && lat <= model * 1.6,
            "depth {depth}: {lat} µs against the model's {model} µs\n{s}"
        );
    }
    let o = iomark_in(
        &["sweep", "--iodepth=1,2", "--null-service-time=1ms"],
        &d.path,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("give --ioengine=null too"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_dir(&d.path).unwrap().count(), 0);
}
