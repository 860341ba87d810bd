//! hdparm's lines from the result model (for stdout, in hdparm's places), and iomark's own
//! lines about them (for stderr, after them), so that a script reading hdparm's output reads
//! iomark's unchanged (`hdparm -tT DEV | tail -1`).

use super::plan::{HdparmPlan, Kind, CACHED, DISK};
use super::TIMING_BUF;
use crate::common::latency;
use iomark_engine::result::JobResult;
use iomark_engine::RunResult;
use std::path::Path;

/// hdparm's `%3u MB in %5.2f seconds = %6.2f MB/sec` (kB/sec below 1 MB/sec).
pub fn timing(total_mb: u64, secs: f64) -> String {
    let rate = if secs > 0.0 {
        total_mb as f64 / secs
    } else {
        0.0
    };
    if rate >= 1.0 || secs <= 0.0 {
        format!("{total_mb:3} MB in {secs:5.2} seconds = {rate:6.2} MB/sec")
    } else {
        format!(
            "{total_mb:3} MB in {secs:5.2} seconds = {:6.2} kB/sec",
            rate * 1024.0
        )
    }
}

fn job<'a>(r: &'a RunResult, name: &str) -> Option<&'a JobResult> {
    r.jobs.iter().find(|j| j.name == name && j.ran)
}

fn lat_line(path: &Path, what: &str, j: &JobResult) -> String {
    let d = &j.dirs.read;
    format!(
        "iomark: {}: {what}: {} reads of 2 MiB, latency {}\n",
        path.display(),
        d.total_ios,
        latency::percentiles(&d.lat)
    )
}

/// The cached-read timing: the job, MiB read and seconds. Only the time inside the reads:
/// hdparm subtracts its seek and timer overhead.
pub fn cached(r: &RunResult) -> Option<(&JobResult, u64, f64)> {
    let j = job(r, CACHED)?;
    let d = &j.dirs.read;
    Some((j, d.io_bytes / (1 << 20), d.lat.stat.sum as f64 / 1e9))
}

/// The disk-read timing: the job, MiB read and seconds.
pub fn disk(r: &RunResult) -> Option<(&JobResult, u64, f64)> {
    let j = job(r, DISK)?;
    let mb = j.dirs.read.total_ios * (TIMING_BUF >> 20);
    Some((j, mb, j.runtime_us as f64 / 1e6))
}

/// hdparm's block for one target: an empty line, `PATH:`, the timings.
pub fn render(path: &Path, p: &HdparmPlan, r: &RunResult) -> String {
    let mut s = format!("\n{}:\n", path.display());
    let direct = if p.direct { "O_DIRECT " } else { "" };
    if let Some((_, mb, secs)) = cached(r) {
        s.push_str(&format!(
            " Timing {direct}cached reads:   {}\n",
            timing(mb, secs)
        ));
    }
    if let Some((_, mb, secs)) = disk(r) {
        let kind = if p.direct { "O_DIRECT" } else { "buffered" };
        let offset = if p.offset_gib > 0 {
            format!(" (offset {} GB)", p.offset_gib)
        } else {
            String::new()
        };
        s.push_str(&format!(
            " Timing {kind} disk reads{offset}: {}\n",
            timing(mb, secs)
        ));
    }
    s
}

/// iomark's lines about the block of [`render`]: each timing's latency, what the target is
/// and the unit.
pub fn notes(path: &Path, p: &HdparmPlan, r: &RunResult) -> String {
    let mut s = String::new();
    if let Some((j, _, _)) = cached(r) {
        s.push_str(&lat_line(path, "cached reads", j));
    }
    if let Some((j, _, _)) = disk(r) {
        s.push_str(&lat_line(path, "disk reads", j));
    }
    let what = match p.kind {
        Kind::Block => "a block device",
        Kind::File => "a regular file (hdparm itself times block devices only)",
    };
    s.push_str(&format!(
        "iomark: {} is {what}; \"MB\" on stdout are MiB, as in hdparm\n",
        path.display()
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hdparm::args::parse;
    use crate::hdparm::plan::plan;

    #[test]
    fn timing_as_hdparm_prints_it() {
        assert_eq!(
            timing(256, 1.1175),
            "256 MB in  1.12 seconds = 229.08 MB/sec"
        );
        assert_eq!(
            timing(4, 0.00847),
            "  4 MB in  0.01 seconds = 472.26 MB/sec"
        );
        assert_eq!(
            timing(11196, 1.9967),
            "11196 MB in  2.00 seconds = 5607.25 MB/sec"
        );
        assert_eq!(timing(2, 4.0), "  2 MB in  4.00 seconds = 512.00 kB/sec");
    }

    #[test]
    fn lines_from_the_result_model() {
        let a = parse(&["-tT".into(), "/dev/x".into()]).unwrap();
        let p = plan(&a, Path::new("/dev/x"), Kind::Block, 1 << 30).unwrap();
        let mut c = JobResult {
            name: CACHED.into(),
            ran: true,
            ..Default::default()
        };
        for _ in 0..1000 {
            c.dirs.read.lat.add(400_000);
        }
        c.dirs.read.total_ios = 1000;
        c.dirs.read.io_bytes = 1000 * (2 << 20);
        let mut d = JobResult {
            name: DISK.into(),
            ran: true,
            runtime_us: 3_010_000,
            ..Default::default()
        };
        d.dirs.read.total_ios = 300;
        d.dirs.read.io_bytes = 300 * (2 << 20);
        for _ in 0..300 {
            d.dirs.read.lat.add(10_000_000);
        }
        let r = RunResult {
            jobs: vec![c, d],
            ..Default::default()
        };
        let out = render(Path::new("/dev/x"), &p, &r);
        let l: Vec<&str> = out.lines().collect();
        // hdparm's lines alone, as hdparm prints them.
        assert_eq!(
            l,
            vec![
                "",
                "/dev/x:",
                " Timing cached reads:   2000 MB in  0.40 seconds = 5000.00 MB/sec",
                " Timing buffered disk reads: 600 MB in  3.01 seconds = 199.34 MB/sec",
            ]
        );
        let notes = notes(Path::new("/dev/x"), &p, &r);
        let n: Vec<&str> = notes.lines().collect();
        assert!(
            n[0].starts_with("iomark: /dev/x: cached reads: 1000 reads of 2 MiB, latency p50 "),
            "{}",
            n[0]
        );
        assert!(n[1].starts_with("iomark: /dev/x: disk reads: 300 reads of 2 MiB, latency "));
        assert!(n[2].contains("is a block device"), "{}", n[2]);
    }
}
