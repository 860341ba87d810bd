//! GNU dd's lines from the result model: `N+M records in`, `N+M records out`, the summary line,
//! then iomark's line of IOPS and latency percentiles.

use super::args::Status;
use super::human;
use super::plan::DdPlan;
use crate::common::latency;
use iomark_engine::job::Dir;
use iomark_engine::result::LatRecord;
use iomark_engine::RunResult;

/// dd's record counts: whole and partial blocks read and written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Records {
    pub full_in: u64,
    pub part_in: u64,
    pub full_out: u64,
    pub part_out: u64,
}

/// The records dd counts for `bytes` copied: input in `ibs` blocks; output as read (`bs=`) or
/// re-blocked to `obs`.
pub fn records(p: &DdPlan, bytes: u64) -> Records {
    let full_in = bytes / p.ibs;
    let part_in = u64::from(bytes % p.ibs != 0);
    let (full_out, part_out) = if p.bs_given {
        (full_in, part_in)
    } else {
        (bytes / p.obs, u64::from(bytes % p.obs != 0))
    };
    Records {
        full_in,
        part_in,
        full_out,
        part_out,
    }
}

/// What the jobs moved and how long it took.
pub struct Totals {
    pub bytes: u64,
    pub ios: u64,
    pub secs: f64,
    pub lat: LatRecord,
    pub sync: LatRecord,
}

pub fn totals(p: &DdPlan, r: &RunResult) -> Totals {
    let mut t = Totals {
        bytes: 0,
        ios: 0,
        secs: 0.0,
        lat: LatRecord::default(),
        sync: LatRecord::default(),
    };
    for j in &r.jobs {
        let d = &j.dirs[p.dir];
        t.bytes += d.io_bytes;
        t.ios += d.total_ios;
        t.secs += j.runtime_us as f64 / 1e6;
        t.lat.merge(&d.lat);
        t.sync.merge(&j.sync);
    }
    t
}

/// The sizes of the I/Os that ran, in words: `1048576-byte writes`, or with a last partial
/// block `1048576-byte writes and one of 1000 bytes` (each job of the plan issues one size).
fn io_sizes(p: &DdPlan, r: &RunResult, what: &str) -> String {
    let mut sizes: Vec<(u64, u64)> = Vec::new();
    for j in &r.jobs {
        let d = &j.dirs[p.dir];
        if let Some(size) = d.io_bytes.checked_div(d.total_ios) {
            sizes.push((size, d.total_ios));
        }
    }
    match sizes.as_slice() {
        [] => {
            let block = match p.dir {
                Dir::Read => p.ibs,
                _ => p.obs,
            };
            format!("{block}-byte {what}")
        }
        [(b, _)] => format!("{b}-byte {what}"),
        [(b, _), rest @ ..] => {
            let tail: Vec<String> = rest
                .iter()
                .map(|(b, n)| {
                    if *n == 1 {
                        format!("one of {b} bytes")
                    } else {
                        format!("{n} of {b} bytes")
                    }
                })
                .collect();
            format!("{b}-byte {what} and {}", tail.join(" and "))
        }
    }
}

/// Whether a job stopped on an error writing its output.
fn write_failed(r: &RunResult) -> bool {
    r.jobs.iter().any(|j| {
        matches!(
            &j.failure,
            Some(iomark_engine::failure::JobFailure::Io {
                dir: Dir::Write,
                ..
            })
        )
    })
}

/// The lines for stderr, as GNU dd prints them for `status`, plus iomark's line.
pub fn render(p: &DdPlan, r: &RunResult, status: Status) -> String {
    if status == Status::None {
        return String::new();
    }
    let t = totals(p, r);
    let mut rec = records(p, t.bytes);
    if p.bs_given && write_failed(r) {
        // As GNU dd with `bs=`: the block whose write failed was read in full, so it counts as
        // a record in (`5+0 records in` over `4+0 records out` on a file system that took
        // four), and a part of it written counts in the bytes copied but not as a record out.
        rec.full_in = t.bytes / p.ibs + 1;
        rec.part_in = 0;
        rec.part_out = 0;
    }
    let mut s = format!(
        "{}+{} records in\n{}+{} records out\n",
        rec.full_in, rec.part_in, rec.full_out, rec.part_out
    );
    if status == Status::NoXfer {
        return s;
    }
    s.push_str(&human::summary(t.bytes, t.secs));
    s.push('\n');
    let what = match p.dir {
        Dir::Read => "reads",
        _ => "writes",
    };
    let block = io_sizes(p, r, what);
    s.push_str(&format!(
        "iomark: {:.0} IOPS ({block}), latency {}\n",
        // From the exact time: a copy under a millisecond still has its rate.
        if t.secs > 0.0 {
            t.ios as f64 / t.secs
        } else {
            0.0
        },
        latency::percentiles(&t.lat)
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dd::args::parse;
    use crate::dd::plan::{plan, Probe};
    use iomark_engine::result::JobResult;
    use std::path::Path;

    fn dd_plan(s: &str) -> DdPlan {
        let a = parse(&s.split_whitespace().map(String::from).collect::<Vec<_>>()).unwrap();
        plan(&a, &|_: &Path| Probe::File { size: 1 << 30 }).unwrap()
    }

    #[test]
    fn records_as_gnu_dd_counts_them() {
        let p = dd_plan("if=x of=/dev/null ibs=1000 obs=512 count=3");
        let r = records(&p, 3000);
        assert_eq!((r.full_in, r.part_in, r.full_out, r.part_out), (3, 0, 5, 1));
        let p = dd_plan("if=x of=/dev/null bs=4096");
        let r = records(&p, 10_000);
        assert_eq!((r.full_in, r.part_in, r.full_out, r.part_out), (2, 1, 2, 1));
    }

    #[test]
    fn lines_from_the_result_model() {
        let p = dd_plan("if=x of=/dev/null bs=1M count=100");
        let mut j = JobResult {
            runtime_ms: 250,
            runtime_us: 250_000,
            ..Default::default()
        };
        j.dirs.read.io_bytes = 100 << 20;
        j.dirs.read.total_ios = 100;
        for _ in 0..100 {
            j.dirs.read.lat.add(2_500_000);
        }
        let r = RunResult {
            jobs: vec![j],
            ..Default::default()
        };
        let out = render(&p, &r, Status::Default);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "100+0 records in");
        assert_eq!(lines[1], "100+0 records out");
        assert_eq!(
            lines[2],
            "104857600 bytes (105 MB, 100 MiB) copied, 0.25 s, 419 MB/s"
        );
        assert!(lines[3].starts_with("iomark: 400 IOPS (1048576-byte reads), latency p50 "));
        assert_eq!(lines.len(), 4);
        assert_eq!(render(&p, &r, Status::NoXfer).lines().count(), 2);
        assert_eq!(render(&p, &r, Status::None), "");
    }

    #[test]
    fn a_copy_under_a_millisecond_has_its_iops() {
        let p = dd_plan("if=x of=/dev/null bs=1M count=1");
        let mut j = JobResult {
            runtime_ms: 0,
            runtime_us: 400,
            ..Default::default()
        };
        j.dirs.read.io_bytes = 1 << 20;
        j.dirs.read.total_ios = 1;
        j.dirs.read.lat.add(400_000);
        let r = RunResult {
            jobs: vec![j],
            ..Default::default()
        };
        let out = render(&p, &r, Status::Default);
        let last = out.lines().last().unwrap();
        assert!(
            last.starts_with("iomark: 2500 IOPS (1048576-byte reads)"),
            "{out}"
        );
    }
}
