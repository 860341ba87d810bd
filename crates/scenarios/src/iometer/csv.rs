//! The results CSV of an Iometer-style run: one row for all workers with Iometer's main
//! columns (I/Os per second, MB per second binary and decimal, response times in ms, errors,
//! bytes and I/Os per direction, CPU use).

use iomark_engine::result::{DirResult, RunResult};

/// The header, in Iometer's words.
pub const HEADER: &str = "Target Type,Access Specification Name,# Workers,Outstanding I/Os,IOps,Read IOps,Write IOps,MBps (Binary),Read MBps (Binary),Write MBps (Binary),MBps (Decimal),Read MBps (Decimal),Write MBps (Decimal),Average Response Time,Average Read Response Time,Average Write Response Time,Maximum Response Time,Maximum Read Response Time,Maximum Write Response Time,Errors,Read Errors,Write Errors,Bytes Read,Bytes Written,Read I/Os,Write I/Os,% CPU Utilization";

/// The CSV (header and the ALL row) of `res`: every job's clones are workers; rates are over
/// the longest worker's measured time; % CPU is the workers' CPU time over that time on
/// `cpus` CPUs.
pub fn csv(res: &RunResult, spec: &str, outstanding: u32, cpus: usize) -> String {
    let (mut r, mut w) = (DirResult::default(), DirResult::default());
    let mut cpu_us = 0u64;
    let mut ms = 0u64;
    for j in &res.jobs {
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
    let v: Vec<String> = vec![
        "ALL".into(),
        spec.into(),
        res.jobs.len().to_string(),
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
    format!("{HEADER}\n{}\n", v.join(","))
}
