//! The results CSV of an Iometer-style run: one row for all workers of each step (one step,
//! or one per value of cycled outstanding I/Os or workers, as Iometer writes a row per test of
//! a cycle) with Iometer's main columns (I/Os per second, MB per second binary and decimal, response times in ms, errors,
//! bytes and I/Os per direction, CPU use), then Iometer's latency buckets: how many I/Os
//! completed in each response-time range.

use iomark_engine::result::{DirResult, JobResult, RunResult};

/// The header, in Iometer's words.
pub const HEADER: &str = "Target Type,Access Specification Name,# Workers,Outstanding I/Os,IOps,Read IOps,Write IOps,MBps (Binary),Read MBps (Binary),Write MBps (Binary),MBps (Decimal),Read MBps (Decimal),Write MBps (Decimal),Average Response Time,Average Read Response Time,Average Write Response Time,Maximum Response Time,Maximum Read Response Time,Maximum Write Response Time,Errors,Read Errors,Write Errors,Bytes Read,Bytes Written,Read I/Os,Write I/Os,% CPU Utilization,0 to 50 uS,50 to 100 uS,100 to 200 uS,200 to 500 uS,0.5 to 1 mS,1 to 2 mS,2 to 5 mS,5 to 10 mS,10 to 15 mS,15 to 20 mS,20 to 30 mS,30 to 50 mS,50 to 100 mS,100 to 200 mS,200 to 500 mS,0.5 to 1 S,1 to 2 s,2 to 4.7 s,4.7 to 5 s,5 to 10 s, >= 10 s";

/// The upper bounds of Iometer's latency buckets in µs (the last bucket has none).
pub const BUCKET_UPPER_US: [u64; 20] = [
    50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 20_000, 30_000, 50_000, 100_000,
    200_000, 500_000, 1_000_000, 2_000_000, 4_700_000, 5_000_000, 10_000_000,
];

/// The I/Os per latency bucket of `d`, from its total-latency histogram (each histogram bin
/// counted in the bucket of its middle value).
pub fn buckets(d: &DirResult) -> [u64; 21] {
    let mut out = [0u64; 21];
    for (ns, n) in d.lat.hist.bins() {
        let us = ns / 1000;
        let i = BUCKET_UPPER_US.iter().position(|&up| us < up).unwrap_or(20);
        out[i] += n;
    }
    out
}

/// The CSV of `res`: the header, then an ALL row per step (per job of the plan, in order),
/// whose clones are the step's workers and whose queue depth is its outstanding I/Os. Rates are
/// over the longest worker's measured time; % CPU is the workers' CPU time over that time on
/// `cpus` CPUs.
pub fn csv(res: &RunResult, spec: &str, cpus: usize) -> String {
    let mut out = format!("{HEADER}\n");
    let mut steps: Vec<usize> = res.jobs.iter().map(|j| j.job_index).collect();
    steps.sort_unstable();
    steps.dedup();
    for i in steps {
        let workers: Vec<&JobResult> = res.jobs.iter().filter(|j| j.job_index == i).collect();
        let outstanding = res.plan.jobs.get(i).map_or(1, |j| j.iodepth);
        out.push_str(&row(&workers, spec, outstanding, cpus));
        out.push('\n');
    }
    out
}

/// The ALL row of one step's `workers`.
fn row(workers: &[&JobResult], spec: &str, outstanding: u32, cpus: usize) -> String {
    let (mut r, mut w) = (DirResult::default(), DirResult::default());
    let mut cpu_us = 0u64;
    let mut ms = 0u64;
    for j in workers {
        r.merge(&j.dirs.read);
        w.merge(&j.dirs.write);
        cpu_us += j.cpu.usr_us + j.cpu.sys_us;
        ms = ms.max(j.runtime_ms);
    }
    let s = ms as f64 / 1000.0;
    let per_s = |x: u64| if s > 0.0 { x as f64 / s } else { 0.0 };
    let mut all = r.clone();
    all.merge(&w);
    let ms_of = |d: &DirResult| d.lat.stat.mean() / 1e6;
    let max_of = |d: &DirResult| d.lat.stat.max_or_zero() as f64 / 1e6;
    let cpu = if s > 0.0 {
        cpu_us as f64 / 1e6 / (s * cpus.max(1) as f64) * 100.0
    } else {
        0.0
    };
    let mut v: Vec<String> = vec![
        "ALL".into(),
        spec.into(),
        workers.len().to_string(),
        outstanding.to_string(),
        format!("{:.2}", per_s(all.total_ios)),
        format!("{:.2}", per_s(r.total_ios)),
        format!("{:.2}", per_s(w.total_ios)),
        format!("{:.2}", per_s(all.io_bytes) / 1048576.0),
        format!("{:.2}", per_s(r.io_bytes) / 1048576.0),
        format!("{:.2}", per_s(w.io_bytes) / 1048576.0),
        format!("{:.2}", per_s(all.io_bytes) / 1e6),
        format!("{:.2}", per_s(r.io_bytes) / 1e6),
        format!("{:.2}", per_s(w.io_bytes) / 1e6),
        format!("{:.4}", ms_of(&all)),
        format!("{:.4}", ms_of(&r)),
        format!("{:.4}", ms_of(&w)),
        format!("{:.4}", max_of(&all)),
        format!("{:.4}", max_of(&r)),
        format!("{:.4}", max_of(&w)),
        (r.errors + w.errors).to_string(),
        r.errors.to_string(),
        w.errors.to_string(),
        r.io_bytes.to_string(),
        w.io_bytes.to_string(),
        r.total_ios.to_string(),
        w.total_ios.to_string(),
        format!("{cpu:.2}"),
    ];
    v.extend(buckets(&all).iter().map(u64::to_string));
    v.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latencies_fall_in_iometers_buckets() {
        let mut d = DirResult::default();
        for (us, n) in [(10, 3), (75, 2), (700, 1), (4_800_000, 1), (20_000_000, 4)] {
            for _ in 0..n {
                d.lat.add(us * 1000);
            }
        }
        let b = buckets(&d);
        assert_eq!(b.iter().sum::<u64>(), 11);
        assert_eq!((b[0], b[1], b[4], b[18], b[20]), (3, 2, 1, 1, 4));
        assert_eq!(HEADER.split(',').count(), 27 + 21);
        assert!(HEADER.ends_with(",5 to 10 s, >= 10 s"));
    }
}
