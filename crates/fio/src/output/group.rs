//! Report units (one per job clone, or one per group with `group_reporting`) and the per-group
//! "Run status" aggregates.

use iomark_engine::job::{Dir, JobSpec, PerDir, UnifiedRw};
use iomark_engine::result::JobResult;
use iomark_engine::RunResult;

/// What one block of the report describes: a job clone, or a whole group merged.
#[derive(Clone, Debug)]
pub struct ReportUnit {
    /// The merged results (without time series): the first member's identity (name, group,
    /// start time), the members' measurements merged exactly (see [`JobResult::merge_stats`]).
    pub job: JobResult,
    /// Number of job clones merged into this unit (fio's `jobs=N`).
    pub members: u32,
    /// The first job's spec.
    pub spec: JobSpec,
    /// (thread_number, clone) of every merged clone, in order.
    pub clones: Vec<(u32, u32)>,
    /// Sum of the members' runtimes (fio's `job_runtime`, the CPU percentage base).
    pub cpu_runtime_ms: u64,
    /// Every direction was folded into the read slot, reported as `mixed`
    /// (`unified_rw_reporting=mixed`).
    pub mixed_only: bool,
}

impl ReportUnit {
    /// The error fio reports for the job: the one that stopped it, else, when it went on after
    /// errors, the first of those (the run still succeeds).
    pub fn reported_error(&self) -> i32 {
        if self.job.error == 0 && self.spec.errors.goes_on() {
            self.job.first_error
        } else {
            self.job.error
        }
    }

    fn from_job(job: &JobResult, spec: &JobSpec) -> ReportUnit {
        ReportUnit {
            job: job.stats_only(),
            members: 1,
            spec: spec.clone(),
            clones: vec![(job.thread_number, job.clone)],
            cpu_runtime_ms: job.runtime_ms,
            mixed_only: false,
        }
    }

    /// The unit with every direction summed into the read slot (fio's `mixed` block): bytes,
    /// I/O counts and histograms add up exactly, the runtime is the longest direction's.
    pub fn folded(&self) -> ReportUnit {
        let mut u = self.clone();
        let (w, t) = (u.job.dirs.write.clone(), u.job.dirs.trim.clone());
        u.job.dirs.read.merge(&w);
        u.job.dirs.read.merge(&t);
        u.job.dirs.write = Default::default();
        u.job.dirs.trim = Default::default();
        u.job.issued.read += u.job.issued.write + u.job.issued.trim;
        u.job.issued.write = 0;
        u.job.issued.trim = 0;
        u.mixed_only = true;
        u
    }

    /// The name of a direction's block: `mixed` for a folded unit's read slot.
    pub fn dir_label(&self, d: Dir) -> &'static str {
        if self.mixed_only && d == Dir::Read {
            "mixed"
        } else {
            d.name()
        }
    }

    /// `unified_rw_reporting=both`: the folded unit to report after the directions.
    pub fn mixed_block(&self) -> Option<ReportUnit> {
        (self.spec.stats.unified_rw == UnifiedRw::Both && !self.mixed_only).then(|| self.folded())
    }

    /// Add a member (fio's `group_reporting`): the measurements merge in the result model; the
    /// member list and the summed runtime (fio's CPU percentage base) are fio's.
    fn merge_job(&mut self, job: &JobResult) {
        self.members += 1;
        self.clones.push((job.thread_number, job.clone));
        self.cpu_runtime_ms += job.runtime_ms;
        self.job.merge_stats(job);
    }

    /// Headline bandwidth of a direction in bytes/s (`io_bytes * 1000 / runtime`).
    pub fn bw_bytes(&self, d: Dir) -> u64 {
        let r = &self.job.dirs[d];
        if r.runtime_ms == 0 {
            0
        } else {
            ((r.io_bytes as u128 * 1000) / r.runtime_ms as u128) as u64
        }
    }

    /// Headline IOPS of a direction (`total_ios * 1000 / runtime`).
    pub fn iops(&self, d: Dir) -> f64 {
        let r = &self.job.dirs[d];
        if r.runtime_ms == 0 {
            0.0
        } else {
            r.total_ios as f64 * 1000.0 / r.runtime_ms as f64
        }
    }

    /// Whether a direction did any I/O (and so gets a block in the normal output).
    pub fn has_io(&self, d: Dir) -> bool {
        let r = &self.job.dirs[d];
        // I/Os that moved nothing (cpuio) ran for no time and have no block, as in fio.
        (r.total_ios > 0 && r.runtime_ms > 0) || r.io_bytes > 0
    }

    /// CPU use in percent of the (summed) runtime: (usr, sys).
    pub fn cpu_pct(&self) -> (f64, f64) {
        if self.cpu_runtime_ms == 0 {
            return (0.0, 0.0);
        }
        let base = self.cpu_runtime_ms as f64 * 1000.0;
        (
            self.job.cpu.usr_us as f64 * 100.0 / base,
            self.job.cpu.sys_us as f64 * 100.0 / base,
        )
    }

    /// Total I/Os over the data directions (the base of the depth and latency percentages).
    pub fn total_rw_ios(&self) -> u64 {
        Dir::ALL.iter().map(|&d| self.job.dirs[d].total_ios).sum()
    }
}

/// Per-direction aggregates of one reporting group.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GroupDir {
    /// Total bytes over the group's units.
    pub io_bytes: u64,
    /// Smallest / largest non-zero runtime of a unit in ms.
    pub min_run_ms: u64,
    pub max_run_ms: u64,
    /// Slowest / fastest unit in bytes/s.
    pub min_bw: u64,
    pub max_bw: u64,
    /// Aggregate bandwidth in bytes/s: total bytes / max runtime.
    pub agg_bw: u64,
}

/// fio's "Run status group N" aggregates.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GroupStats {
    pub group_id: u32,
    pub dirs: PerDir<GroupDir>,
    /// The group's units report `mixed` in their read slot.
    pub mixed_only: bool,
    /// unified_rw_reporting=both: the aggregates of the summed directions.
    pub mixed: Option<GroupDir>,
}

/// The report: units in job order and the groups in id order.
#[derive(Clone, Debug)]
pub struct Report {
    pub units: Vec<ReportUnit>,
    pub groups: Vec<GroupStats>,
}

impl Report {
    /// The aggregates of a group.
    pub fn group(&self, group_id: u32) -> Option<&GroupStats> {
        self.groups.iter().find(|g| g.group_id == group_id)
    }

    /// A unit's share of its group's aggregate bandwidth in percent (fio's `per=` / `bw_agg`),
    /// from its mean interval bandwidth; 0 without bandwidth samples, capped at 100.
    pub fn bw_agg_pct(&self, unit: &ReportUnit, d: Dir) -> f64 {
        let s = &unit.job.dirs[d].bw_samples;
        if s.n == 0 {
            return 0.0;
        }
        let agg_kib = self
            .group(unit.job.group_id)
            .map(|g| g.dirs[d].agg_bw / 1024)
            .unwrap_or(0);
        if agg_kib == 0 {
            return 100.0;
        }
        (s.mean * 100.0 / agg_kib as f64).min(100.0)
    }
}

fn default_spec() -> &'static JobSpec {
    static SPEC: std::sync::OnceLock<JobSpec> = std::sync::OnceLock::new();
    SPEC.get_or_init(JobSpec::default)
}

/// The spec of a job result (a default spec if the plan does not have it).
pub fn spec_of<'a>(result: &'a RunResult, job: &JobResult) -> &'a JobSpec {
    result
        .plan
        .jobs
        .get(job.job_index)
        .unwrap_or_else(|| default_spec())
}

/// Group ids whose jobs report merged: any job of the group has `group_reporting`.
fn merged_groups(result: &RunResult) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    for job in &result.jobs {
        if spec_of(result, job).group_reporting && !out.contains(&job.group_id) {
            out.push(job.group_id);
        }
    }
    out
}

/// Turn a run into report units and group aggregates.
pub fn build(result: &RunResult) -> Report {
    let merged = merged_groups(result);
    let mut units: Vec<ReportUnit> = Vec::new();
    // index of the merged unit of each group
    let mut group_unit: Vec<(u32, usize)> = Vec::new();
    for job in &result.jobs {
        let spec = spec_of(result, job);
        if merged.contains(&job.group_id) {
            if let Some(&(_, i)) = group_unit.iter().find(|(g, _)| *g == job.group_id) {
                units[i].merge_job(job);
                continue;
            }
            group_unit.push((job.group_id, units.len()));
        }
        units.push(ReportUnit::from_job(job, spec));
    }
    for u in &mut units {
        if u.spec.stats.unified_rw == UnifiedRw::Mixed {
            *u = u.folded();
        }
    }

    let mut ids: Vec<u32> = units.iter().map(|u| u.job.group_id).collect();
    ids.sort_unstable();
    ids.dedup();
    let groups = ids
        .into_iter()
        .map(|gid| {
            let members = || units.iter().filter(move |u| u.job.group_id == gid);
            // unified_rw_reporting=both: a MIXED line after the directions, over the folded
            // units.
            let folded: Vec<ReportUnit> = members().filter_map(ReportUnit::mixed_block).collect();
            GroupStats {
                group_id: gid,
                dirs: PerDir {
                    read: group_dir(members(), Dir::Read),
                    write: group_dir(members(), Dir::Write),
                    trim: group_dir(members(), Dir::Trim),
                },
                mixed_only: members().any(|u| u.mixed_only),
                mixed: (!folded.is_empty()).then(|| group_dir(folded.iter(), Dir::Read)),
            }
        })
        .collect();
    Report { units, groups }
}

/// fio's group aggregates of one direction over `units`.
fn group_dir<'a>(units: impl Iterator<Item = &'a ReportUnit>, d: Dir) -> GroupDir {
    let mut gd = GroupDir {
        min_bw: u64::MAX,
        ..GroupDir::default()
    };
    for u in units {
        let r = &u.job.dirs[d];
        if r.runtime_ms == 0 {
            continue;
        }
        if gd.min_run_ms == 0 || r.runtime_ms < gd.min_run_ms {
            gd.min_run_ms = r.runtime_ms;
        }
        gd.max_run_ms = gd.max_run_ms.max(r.runtime_ms);
        let bw = u.bw_bytes(d);
        gd.min_bw = gd.min_bw.min(bw);
        gd.max_bw = gd.max_bw.max(bw);
        gd.io_bytes += r.io_bytes;
    }
    if gd.min_bw == u64::MAX {
        gd.min_bw = 0;
    }
    if gd.max_run_ms > 0 {
        gd.agg_bw = ((gd.io_bytes as u128 * 1000) / gd.max_run_ms as u128) as u64;
    }
    gd
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use iomark_engine::hist::{Histogram, LatStat, SampleStat};
    use iomark_engine::job::{EngineKind, RunPlan, RwMode};
    use iomark_engine::result::{
        CpuUsage, DepthStats, DirResult, DiskUtil, HostInfo, LatRecord, LogEntry, TargetInfo,
        RESULT_FORMAT,
    };

    /// A deterministic pseudo-random latency around `base` ns.
    fn lat_value(i: u64, base: u64) -> u64 {
        let x = i.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17);
        base + x % (base / 2 + 1) + if i % 97 == 0 { base * 20 } else { 0 }
    }

    fn lat_record(n: u64, base: u64, seed: u64) -> LatRecord {
        let mut r = LatRecord::default();
        for i in 0..n {
            r.add(lat_value(i + seed, base));
        }
        r
    }

    fn samples(vals: &[f64]) -> SampleStat {
        let mut s = SampleStat::default();
        for &v in vals {
            s.add(v);
        }
        s
    }

    /// A direction that did `ios` I/Os of `bs` bytes in `runtime_ms`.
    pub fn dir(
        ios: u64,
        bs: u64,
        runtime_ms: u64,
        clat_base: u64,
        async_: bool,
        seed: u64,
    ) -> DirResult {
        if ios == 0 {
            return DirResult::default();
        }
        let clat = lat_record(ios, clat_base, seed);
        let slat = if async_ {
            lat_record(ios, 3000, seed + 7)
        } else {
            LatRecord::default()
        };
        let mut lat = LatRecord::default();
        for i in 0..ios {
            let s = if async_ {
                lat_value(i + seed + 7, 3000)
            } else {
                0
            };
            lat.add(lat_value(i + seed, clat_base) + s + 30);
        }
        let kib = (ios * bs / 1024) as f64 * 1000.0 / runtime_ms as f64;
        let iops = ios as f64 * 1000.0 / runtime_ms as f64;
        DirResult {
            io_bytes: ios * bs,
            total_ios: ios,
            runtime_ms,
            slat,
            clat,
            lat,
            bw_samples: samples(&[kib * 0.95, kib * 1.05, kib]),
            iops_samples: samples(&[iops * 0.95, iops * 1.05, iops]),
            ..Default::default()
        }
    }

    pub fn job(
        name: &str,
        job_index: usize,
        thread_number: u32,
        group_id: u32,
        dirs: PerDir<DirResult>,
    ) -> JobResult {
        let runtime_ms = Dir::ALL
            .iter()
            .map(|&d| dirs[d].runtime_ms)
            .max()
            .unwrap_or(0);
        let total: u64 = Dir::ALL.iter().map(|&d| dirs[d].total_ios).sum();
        let mut depth = DepthStats::default();
        depth.level[0] = total;
        depth.submit[1] = total;
        depth.complete[1] = total;
        let mut series = iomark_engine::result::TimeSeries::default();
        for (k, t) in [500u64, 1000, 1500].iter().enumerate() {
            series.bw.push(LogEntry {
                t_ms: *t,
                value: 1000 + k as u64,
                ddir: 0,
                bs: 0,
                offset: 0,
                max: None,
                prio: 0,
            });
            series.clat.push(LogEntry {
                t_ms: *t,
                value: 50_000 + k as u64,
                ddir: 1,
                bs: 4096,
                offset: 8192 * k as u64,
                max: None,
                prio: 0,
            });
        }
        JobResult {
            name: name.to_string(),
            job_index,
            clone: thread_number,
            thread_number,
            group_id,
            error: 0,
            failure: None,
            start_unix_ms: 1_795_329_786_288,
            elapsed_ms: runtime_ms + 40,
            runtime_ms,
            runtime_us: runtime_ms * 1000,
            issued: dirs.map(|d| d.total_ios),
            dirs,
            sync: LatRecord::default(),
            sync_ios: 0,
            cpu: CpuUsage {
                usr_us: runtime_ms * 100,
                sys_us: runtime_ms * 300,
                ctx: 1000,
                majf: 0,
                minf: 12,
            },
            depth,
            total_err: 0,
            first_error: 0,
            series,
            verify: None,
            steady: None,
            search_depth: None,
            zone_resets: 0,
            targets: vec![TargetInfo {
                path: "/tmp/t".into(),
                kind: "file".into(),
                size_bytes: 1 << 26,
                logical_block_size: 512,
                physical_block_size: 4096,
                fs_type: Some("ext4".into()),
                ..Default::default()
            }],
            notes: vec![],
            ran: true,
        }
    }

    pub fn spec(name: &str, rw: RwMode, engine: EngineKind, iodepth: u32) -> JobSpec {
        JobSpec {
            name: name.into(),
            rw,
            ioengine: engine,
            iodepth,
            shown_options: vec![
                ("name".into(), name.into()),
                ("rw".into(), rw.fio_name().into()),
                ("ioengine".into(), engine.name().into()),
                ("iodepth".into(), iodepth.to_string()),
            ]
            .into(),
            ..Default::default()
        }
    }

    pub fn run(plan: RunPlan, jobs: Vec<JobResult>) -> RunResult {
        RunResult {
            format: RESULT_FORMAT.into(),
            iomark_version: iomark_engine::VERSION.into(),
            start_unix_ms: 1_795_329_786_000,
            host: HostInfo {
                hostname: "h".into(),
                kernel: "6.1".into(),
                cpus: 2,
                mem_bytes: 1 << 32,
                ..Default::default()
            },
            plan,
            jobs,
            disk_util: vec![DiskUtil {
                name: "vda".into(),
                read_ios: 114_097,
                write_ios: 48_776,
                read_ticks: 4837,
                write_ticks: 2197,
                in_queue: 7034,
                io_ticks: 1777,
                elapsed_ms: 2000,
                util: 88.867654,
                ..Default::default()
            }],
            interrupted: false,
            notes: vec![],
            command_line: Vec::new(),
            tables: Vec::new(),
            ranks: Vec::new(),
        }
    }

    /// libaio randrw QD8 like the reference json+ sample: read, write and an empty trim.
    pub fn randrw_libaio() -> RunResult {
        let mut sp = spec("mix", RwMode::RandRw, EngineKind::Libaio, 8);
        sp.rwmixread = 70;
        let dirs = PerDir {
            read: dir(11_481, 4096, 2001, 60_000, true, 1),
            write: dir(4_907, 4096, 2001, 80_000, true, 99),
            trim: DirResult::default(),
        };
        let mut j = job("mix", 0, 0, 0, dirs);
        j.depth.level = [1, 1, 1, 16_385, 0, 0, 0];
        run(
            RunPlan {
                jobs: vec![sp],
                ..Default::default()
            },
            vec![j],
        )
    }

    /// psync sequential 1 MiB writes with fsync, like the reference normal sample.
    pub fn psync_write() -> RunResult {
        let mut sp = spec("seqw", RwMode::Write, EngineKind::Psync, 1);
        sp.bs = PerDir::all(iomark_engine::job::BlockSize::Fixed(1 << 20));
        sp.fsync = 4;
        let dirs = PerDir {
            read: DirResult::default(),
            write: dir(64, 1 << 20, 165, 900_000, false, 3),
            trim: DirResult::default(),
        };
        let mut j = job("seqw", 0, 0, 0, dirs);
        j.sync = lat_record(15, 4_500_000, 5);
        j.sync_ios = 15;
        run(
            RunPlan {
                jobs: vec![sp],
                ..Default::default()
            },
            vec![j],
        )
    }

    /// Two clones of one job with group_reporting, plus a second group without it.
    pub fn grouped() -> RunResult {
        let mut a = spec("g", RwMode::RandRead, EngineKind::Psync, 1);
        a.numjobs = 2;
        a.group_reporting = true;
        let mut b = spec("h", RwMode::Write, EngineKind::Psync, 1);
        b.group_id = 1;
        b.stonewall = true;
        let j0 = job(
            "g",
            0,
            0,
            0,
            PerDir {
                read: dir(1000, 4096, 1000, 50_000, false, 1),
                ..Default::default()
            },
        );
        let mut j1 = job(
            "g",
            0,
            1,
            0,
            PerDir {
                read: dir(3000, 4096, 1200, 40_000, false, 2),
                ..Default::default()
            },
        );
        j1.clone = 1;
        let j2 = job(
            "h",
            1,
            2,
            1,
            PerDir {
                write: dir(500, 4096, 900, 20_000, false, 3),
                ..Default::default()
            },
        );
        run(
            RunPlan {
                jobs: vec![a, b],
                ..Default::default()
            },
            vec![j0, j1, j2],
        )
    }

    #[test]
    fn group_reporting_merges_exactly() {
        let r = grouped();
        let rep = build(&r);
        assert_eq!(rep.units.len(), 2);
        let u = &rep.units[0];
        assert_eq!(u.job.name, "g");
        assert_eq!(u.members, 2);
        assert_eq!(u.clones, vec![(0, 0), (1, 1)]);
        let (a, b) = (&r.jobs[0].dirs.read, &r.jobs[1].dirs.read);
        assert_eq!(u.job.dirs.read.total_ios, a.total_ios + b.total_ios);
        assert_eq!(u.job.dirs.read.io_bytes, a.io_bytes + b.io_bytes);
        assert_eq!(u.job.dirs.read.runtime_ms, 1200);
        assert_eq!(u.job.runtime_ms, 1200);
        assert_eq!(u.cpu_runtime_ms, 2200);
        assert_eq!(
            u.job.cpu.usr_us,
            r.jobs[0].cpu.usr_us + r.jobs[1].cpu.usr_us
        );
        assert_eq!(u.job.depth.level[0], 4000);
        assert_eq!(u.job.issued.read, 4000);
        // histograms merge bucket by bucket
        let mut h: Histogram = a.clat.hist.clone();
        h.merge(&b.clat.hist);
        assert_eq!(u.job.dirs.read.clat.hist, h);
        assert_eq!(u.job.dirs.read.clat.hist.count(), 4000);
        let mut s: LatStat = a.clat.stat.clone();
        s.merge(&b.clat.stat);
        assert_eq!(u.job.dirs.read.clat.stat, s);
        // bw samples are a "pure sum"
        assert_eq!(u.job.dirs.read.bw_samples.n, 6);
        assert!(
            (u.job.dirs.read.bw_samples.min - (a.bw_samples.min + b.bw_samples.min)).abs() < 1e-6
        );

        let g0 = rep.group(0).unwrap();
        assert_eq!(g0.dirs.read.io_bytes, 4000 * 4096);
        assert_eq!(g0.dirs.read.max_run_ms, 1200);
        assert_eq!(g0.dirs.read.min_run_ms, 1200);
        assert_eq!(g0.dirs.read.agg_bw, 4000 * 4096 * 1000 / 1200);
        assert_eq!(g0.dirs.write, GroupDir::default());
        let g1 = rep.group(1).unwrap();
        assert_eq!(g1.dirs.write.agg_bw, 500 * 4096 * 1000 / 900);
        assert_eq!(rep.units[1].members, 1);
    }

    #[test]
    fn without_group_reporting_one_unit_per_clone() {
        let mut r = grouped();
        r.plan.jobs[0].group_reporting = false;
        let rep = build(&r);
        assert_eq!(rep.units.len(), 3);
        let g0 = rep.group(0).unwrap();
        assert_eq!(g0.dirs.read.min_run_ms, 1000);
        assert_eq!(g0.dirs.read.max_run_ms, 1200);
        assert_eq!(g0.dirs.read.min_bw, 1000 * 4096 * 1000 / 1000);
        assert_eq!(g0.dirs.read.max_bw, 3000 * 4096 * 1000 / 1200);
        // per= shares: each clone's mean over the group aggregate
        let p0 = rep.bw_agg_pct(&rep.units[0], Dir::Read);
        let p1 = rep.bw_agg_pct(&rep.units[1], Dir::Read);
        assert!(p0 > 0.0 && p0 < 50.0, "{p0}");
        assert!(p1 > 50.0 && p1 <= 100.0, "{p1}");
        assert_eq!(rep.bw_agg_pct(&rep.units[0], Dir::Write), 0.0);
    }
}
