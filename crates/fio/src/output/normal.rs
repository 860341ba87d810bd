//! fio's normal (human) output: the same blocks, lines and unit scaling as fio 3.x, so a fio
//! user reads it without a legend.

use super::fmt::{
    ctime, depth_dist, lat_floor, lat_scale, num2str, pct_scale, percentile_precision, Unit,
};
use super::fmt::{LAT_MS_LABELS, LAT_NS_LABELS, LAT_US_LABELS};
use super::group::{self, GroupStats, Report, ReportUnit};
use iomark_engine::engines::Capabilities;
use iomark_engine::hist::{Histogram, LatencyBuckets};
use iomark_engine::job::{BlockSize, CpuMode, Dir, EngineKind, JobSpec, RunPlan};
use iomark_engine::result::LatRecord;
use iomark_engine::steady::{SteadyResult, SteadySpec};
use iomark_engine::RunResult;
use std::fmt::Write as _;

fn bs_range(b: &BlockSize) -> String {
    format!(
        "{}-{}",
        num2str(b.min(), 4, true, Unit::Byte),
        num2str(b.max(), 4, true, Unit::Byte)
    )
}

/// The job header line fio prints when a job is set up.
pub fn job_header(spec: &JobSpec) -> String {
    format!(
        "{}: (g={}): rw={}, bs=(R) {}, (W) {}, (T) {}, ioengine={}, iodepth={}",
        spec.name,
        spec.group_id,
        spec.rw.fio_name(),
        bs_range(&spec.bs.read),
        bs_range(&spec.bs.write),
        bs_range(&spec.bs.trim),
        spec.ioengine.name(),
        spec.iodepth
    )
}

/// The lines printed before the run starts: a header per job, the version, the thread count.
pub fn preamble(plan: &RunPlan) -> String {
    let mut out = String::new();
    let mut threads = 0u32;
    for j in plan.jobs.iter().filter(|j| !j.ioengine.is_noio()) {
        out.push_str(&job_header(j));
        out.push('\n');
        if j.numjobs > 1 {
            out.push_str("...\n");
        }
    }
    for j in &plan.jobs {
        threads += j.numjobs.max(1);
    }
    let _ = writeln!(out, "iomark-{}", iomark_engine::VERSION);
    let _ = writeln!(
        out,
        "Starting {threads} thread{}",
        if threads == 1 { "" } else { "s" }
    );
    // An engine that moves nothing says how it is set up instead, once per clone (as fio).
    for j in plan.jobs.iter().filter(|j| j.ioengine.is_noio()) {
        for _ in 0..j.numjobs.max(1) {
            noio_setup(&mut out, j);
        }
    }
    out
}

/// The lines fio's cpuio and exec engines print when they are set up.
fn noio_setup(out: &mut String, j: &JobSpec) {
    if j.ioengine == EngineKind::Cpuio {
        let c = &j.engine_options.cpu;
        let mode = match c.mode {
            CpuMode::Noop => "noop",
            CpuMode::Qsort => "qsort",
        };
        let _ = writeln!(
            out,
            "{} ({mode}): ioengine=cpuio, cpuload={}, cpucycle={}",
            j.name,
            c.load,
            c.chunk_us()
        );
        return;
    }
    let e = &j.engine_options.exec;
    let program = e.program.as_deref().unwrap_or("(null)");
    let _ = writeln!(
        out,
        "{} : program={program}, arguments={}",
        j.name,
        e.arguments.as_deref().unwrap_or("(null)")
    );
    let args = e.expanded_arguments(&j.name, j.runtime);
    let args = args.as_deref().unwrap_or("(null)");
    if e.redirects() {
        let _ = writeln!(
            out,
            "{0} : Saving output of {program} {args} : stdout={0}.stdout stderr={0}.stderr",
            j.name
        );
    } else {
        let _ = writeln!(out, "{} : Running {program} {args}", j.name);
    }
}

fn lat_line(out: &mut String, name: &str, rec: &LatRecord) {
    let st = &rec.stat;
    if st.n == 0 {
        return;
    }
    let (div, unit) = lat_scale(st.min_or_zero(), st.max, st.stddev());
    let d = div as f64;
    let _ = writeln!(
        out,
        "{name} ({unit}): min={}, max={}, avg={:5.02}, stdev={:5.02}",
        num2str(st.min_or_zero() / div, 6, false, Unit::None),
        num2str(st.max / div, 6, false, Unit::None),
        st.mean() / d,
        st.stddev() / d
    );
}

fn percentiles(out: &mut String, name: &str, hist: &Histogram, list: &[f64]) {
    if hist.count() == 0 || list.is_empty() {
        return;
    }
    let vals = hist.percentiles(list);
    let minv = vals.iter().map(|v| v.1).min().unwrap_or(0);
    let maxv = vals.iter().map(|v| v.1).max().unwrap_or(0);
    let (scale_down, unit) = pct_scale(minv, maxv);
    let prec = percentile_precision(list);
    let _ = write!(out, "    {name} percentiles ({unit}):\n     |");
    let per_line = 4;
    let n = vals.len();
    for (j, (p, v)) in vals.iter().enumerate() {
        if j != 0 && j % per_line == 0 {
            out.push_str("     |");
        }
        let mut v = *v;
        for _ in 0..scale_down {
            v = v.div_ceil(1000);
        }
        let last = j == n - 1;
        let _ = write!(
            out,
            " {:>w$.prec$}th=[{:>5}]{}",
            p,
            v,
            if last { '\n' } else { ',' },
            w = prec + 3,
            prec = prec
        );
        if !last && j % per_line == per_line - 1 {
            out.push('\n');
        }
    }
}

fn lat_buckets(out: &mut String, hists: &[&Histogram]) {
    let lb = LatencyBuckets::from_hists(hists);
    for (unit, labels, vals) in [
        ("nsec", &LAT_NS_LABELS[..], &lb.ns[..]),
        ("usec", &LAT_US_LABELS[..], &lb.us[..]),
        ("msec", &LAT_MS_LABELS[..], &lb.ms[..]),
    ] {
        let mut shown = 0;
        for (l, v) in labels.iter().zip(vals) {
            if *v <= 0.0 {
                continue;
            }
            if shown == 0 {
                let _ = write!(out, "  lat ({unit})   : ");
            } else if shown % 5 == 0 {
                let _ = write!(out, "\n  lat ({unit})   : ");
            } else {
                out.push_str(", ");
            }
            let _ = write!(out, "{l}={:3.2}%", lat_floor(*v));
            shown += 1;
        }
        if shown > 0 {
            out.push('\n');
        }
    }
}

fn dir_block(out: &mut String, report: &Report, u: &ReportUnit, d: Dir) {
    let r = &u.job.dirs[d];
    let bw = u.bw_bytes(d);
    let _ = writeln!(
        out,
        "  {}: IOPS={}, BW={} ({})({}/{}msec){}",
        u.dir_label(d),
        num2str(u.iops(d).round() as u64, 4, false, Unit::None),
        num2str(bw, 4, true, Unit::BytePerSec),
        num2str(bw, 4, false, Unit::BytePerSec),
        num2str(r.io_bytes, 4, true, Unit::Byte),
        r.runtime_ms,
        if d == Dir::Write {
            format!("; {} zone resets", u.job.zone_resets)
        } else {
            String::new()
        }
    );
    lat_line(out, "    slat", &r.slat);
    lat_line(out, "    clat", &r.clat);
    lat_line(out, "     lat", &r.lat);
    let st = &u.spec.stats;
    let kind = super::prio_lat_key(st);
    let prios: Vec<_> = r.prios.iter().filter(|p| p.lat.stat.n > 0).collect();
    let prios = if prios.len() >= 2 { prios } else { Vec::new() };
    for p in &prios {
        let name = format!("    {kind} prio {}/{}", p.ioprio >> 13, p.ioprio & 7);
        lat_line(out, &name, &p.lat);
    }
    if st.slat_percentiles {
        percentiles(out, "slat", &r.slat.hist, &st.percentile_list);
    }
    if st.clat_percentiles {
        percentiles(out, "clat", &r.clat.hist, &st.percentile_list);
    }
    if st.lat_percentiles {
        percentiles(out, " lat", &r.lat.hist, &st.percentile_list);
    }
    if st.clat_percentiles || st.lat_percentiles {
        let all = if st.lat_percentiles {
            r.lat.stat.n
        } else {
            r.clat.stat.n
        };
        for p in &prios {
            let name = format!(
                "{kind} prio {}/{} ({:.2}% of IOs)",
                p.ioprio >> 13,
                p.ioprio & 7,
                100.0 * p.lat.stat.n as f64 / all as f64
            );
            percentiles(out, &name, &p.lat.hist, &st.percentile_list);
        }
    }
    let b = &r.bw_samples;
    if b.n > 0 {
        let (mut min, mut max, mut mean, mut dev) = (b.min, b.max, b.mean, b.stddev());
        let mut unit = "KiB";
        if mean > 1024.0 * 1024.0 {
            min /= 1024.0;
            max /= 1024.0;
            mean /= 1024.0;
            dev /= 1024.0;
            unit = "MiB";
        }
        let _ = writeln!(
            out,
            "   bw ({unit:>5}/s): min={:5}, max={:5}, per={:3.2}%, avg={:5.02}, stdev={:5.02}, samples={}",
            min as u64,
            max as u64,
            report.bw_agg_pct(u, d),
            mean,
            dev,
            b.n
        );
    }
    let i = &r.iops_samples;
    if i.n > 0 {
        let _ = writeln!(
            out,
            "   iops        : min={:5}, max={:5}, avg={:5.02}, stdev={:5.02}, samples={}",
            i.min as u64,
            i.max as u64,
            i.mean,
            i.stddev(),
            i.n
        );
    }
}

/// One unit's block: its header, directions, latency buckets, CPU, depths and the rest.
fn unit_block(out: &mut String, report: &Report, u: &ReportUnit) {
    unit_header(out, u);
    for d in Dir::ALL {
        if u.has_io(d) {
            dir_block(out, report, u, d);
        }
    }
    if let Some(m) = u.mixed_block() {
        dir_block(out, report, &m, Dir::Read);
    }
    let hists: Vec<&Histogram> = Dir::ALL.iter().map(|&d| &u.job.dirs[d].clat.hist).collect();
    lat_buckets(out, &hists);
    sync_block(out, u);
    let (usr, sys) = u.cpu_pct();
    let _ = writeln!(
        out,
        "  cpu          : usr={usr:3.2}%, sys={sys:3.2}%, ctx={}, majf={}, minf={}",
        u.job.cpu.ctx, u.job.cpu.majf, u.job.cpu.minf
    );
    depths_block(out, u);
    if let (Some(sp), Some(ss)) = (&u.spec.steady, &u.job.steady) {
        steady_line(out, sp, ss);
    }
    if u.spec.errors.goes_on() || u.job.total_err > 0 {
        let _ = writeln!(
            out,
            "     errors    : total={}, first_error={}/<{}>",
            u.job.total_err,
            u.job.first_error,
            crate::explain::strerror(u.job.first_error)
        );
    }
}

/// A unit's first line (name, group, error, pid, start time) and its description.
fn unit_header(out: &mut String, u: &ReportUnit) {
    let secs = (u.job.start_unix_ms / 1000) as i64;
    let _ = writeln!(
        out,
        "{}: (groupid={}, jobs={}): err={:2}: pid={}: {}",
        u.job.name,
        u.job.group_id,
        u.members,
        u.reported_error(),
        std::process::id(),
        ctime(secs)
    );
    if let Some(desc) = &u.spec.description {
        let _ = writeln!(out, "  Description  : [{desc}]");
    }
}

/// The latency of the unit's syncs, when it issued any.
fn sync_block(out: &mut String, u: &ReportUnit) {
    if u.job.sync.hist.count() > 0 {
        out.push_str("  fsync/fdatasync/sync_file_range:\n");
        lat_line(out, "    sync", &u.job.sync);
        if u.spec.stats.clat_percentiles {
            percentiles(out, "sync", &u.job.sync.hist, &u.spec.stats.percentile_list);
        }
    }
}

/// fio's `IO depths`, `submit`, `complete`, `issued rwts` and `latency` lines.
fn depths_block(out: &mut String, u: &ReportUnit) {
    let lv = depth_dist(&u.job.depth.level, u.job.depth.level.iter().sum());
    let _ = writeln!(
        out,
        "  IO depths    : 1={:3.1}%, 2={:3.1}%, 4={:3.1}%, 8={:3.1}%, 16={:3.1}%, 32={:3.1}%, >=64={:3.1}%",
        lv[0], lv[1], lv[2], lv[3], lv[4], lv[5], lv[6]
    );
    for (name, counts) in [
        ("     submit    ", &u.job.depth.submit),
        ("     complete  ", &u.job.depth.complete),
    ] {
        let v = depth_dist(counts, counts.iter().sum());
        let _ = writeln!(
            out,
            "{name}: 0={:3.1}%, 4={:3.1}%, 8={:3.1}%, 16={:3.1}%, 32={:3.1}%, 64={:3.1}%, >=64={:3.1}%",
            v[0], v[1], v[2], v[3], v[4], v[5], v[6]
        );
    }
    let _ = writeln!(
        out,
        "     issued rwts: total={},{},{},{} short={},{},{},0 dropped={},{},{},0",
        u.job.issued.read,
        u.job.issued.write,
        u.job.issued.trim,
        u.job.sync_ios,
        u.job.dirs.read.short_ios,
        u.job.dirs.write.short_ios,
        u.job.dirs.trim.short_ios,
        u.job.dirs.read.drop_ios,
        u.job.dirs.write.drop_ios,
        u.job.dirs.trim.drop_ios
    );
    let ds = &u.spec.depth_search;
    let _ = writeln!(
        out,
        "     latency   : target={}, window={}, percentile={:.2}%, depth={}",
        ds.target.as_nanos(),
        ds.window.as_micros(),
        ds.percentile,
        u.job.search_depth.unwrap_or(u.spec.iodepth)
    );
}

/// fio's `steadystate` line: whether the criterion was met, the means and the last value.
fn steady_line(out: &mut String, sp: &SteadySpec, ss: &SteadyResult) {
    let bw = ss.bw_mean();
    let _ = writeln!(
        out,
        "  steadystate  : attained={}, bw={} ({}), iops={}, {}{}={:.3}{}",
        if ss.attained { "yes" } else { "no" },
        num2str(bw, 4, true, Unit::BytePerSec),
        num2str(bw, 4, false, Unit::BytePerSec),
        num2str(ss.iops_mean(), 4, false, Unit::None),
        match sp.metric {
            iomark_engine::steady::SteadyMetric::Iops => "iops",
            iomark_engine::steady::SteadyMetric::Bw => "bw",
        },
        if sp.slope { " slope" } else { " mean dev" },
        ss.criterion,
        if sp.percent { "%" } else { "" }
    );
}

fn group_block(out: &mut String, g: &GroupStats) {
    let _ = writeln!(out, "\nRun status group {} (all jobs):", g.group_id);
    let lines = Dir::ALL
        .iter()
        .map(|&d| {
            let name = if g.mixed_only && d == Dir::Read {
                "MIXED".to_string()
            } else {
                d.name().to_uppercase()
            };
            (name, &g.dirs[d])
        })
        .chain(g.mixed.iter().map(|m| ("MIXED".to_string(), m)));
    for (name, gd) in lines {
        if gd.io_bytes == 0 && gd.max_run_ms == 0 {
            continue;
        }
        let _ = writeln!(
            out,
            "{name:>7}: bw={} ({}), {}-{} ({}-{}), io={} ({}), run={}-{}msec",
            num2str(gd.agg_bw, 4, true, Unit::BytePerSec),
            num2str(gd.agg_bw, 4, false, Unit::BytePerSec),
            num2str(gd.min_bw, 4, true, Unit::BytePerSec),
            num2str(gd.max_bw, 4, true, Unit::BytePerSec),
            num2str(gd.min_bw, 4, false, Unit::BytePerSec),
            num2str(gd.max_bw, 4, false, Unit::BytePerSec),
            num2str(gd.io_bytes, 4, true, Unit::Byte),
            num2str(gd.io_bytes, 4, false, Unit::Byte),
            gd.min_run_ms,
            gd.max_run_ms
        );
    }
}

/// Render a run in fio's normal format.
pub fn render(result: &RunResult) -> String {
    let report = group::build(result);
    let mut out = String::from("\n");
    body(&mut out, &report);
    tail(&mut out, result);
    out
}

/// The blocks of `report`: one per unit, then the groups' run status.
pub(crate) fn body(out: &mut String, report: &Report) {
    for u in &report.units {
        unit_block(out, report, u);
    }
    for g in &report.groups {
        group_block(out, g);
    }
}

/// What follows the blocks: disk stats, the interruption, the notes.
pub(crate) fn tail(out: &mut String, result: &RunResult) {
    if !result.disk_util.is_empty() {
        out.push_str("\nDisk stats (read/write):\n");
        for d in &result.disk_util {
            let _ = writeln!(
                out,
                "  {}: ios={}/{}, merge={}/{}, ticks={}/{}, in_queue={}, util={:3.2}%",
                d.name,
                d.read_ios,
                d.write_ios,
                d.read_merges,
                d.write_merges,
                d.read_ticks,
                d.write_ticks,
                d.in_queue,
                d.util
            );
        }
    }
    if result.interrupted {
        out.push_str("\n(interrupted: the figures cover the time before the interruption)\n");
    }
    notes_block(out, result);
}

/// What fio would not print but a reader should know (page cache, options with no effect,
/// data files kept): iomark's own block after fio's, so fio's parsers read up to it unchanged.
fn notes_block(out: &mut String, result: &RunResult) {
    // The run's notes hold its jobs' notes too.
    if result.notes.is_empty() {
        return;
    }
    out.push_str("\nNotes:\n");
    for n in crate::explain::notes(&result.notes) {
        let _ = writeln!(out, "  {n}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::group::tests as fx;

    #[test]
    fn psync_write_matches_fio_structure() {
        let s = render(&fx::psync_write());
        let sample = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/fio-3.33-output/fio-normal-psync.txt"
        ))
        .expect("the fio reference output in tests/fixtures");
        // The same line prefixes, in the same order, for the lines both have.
        let prefix =
            |l: &str| -> String { l.split([':', '=', '(']).next().unwrap_or("").to_string() };
        let theirs: Vec<String> = sample
            .lines()
            .skip_while(|l| !l.contains("groupid="))
            .filter(|l| {
                !l.contains("percentiles") && !l.starts_with("     | ") && !l.contains("sync")
            })
            .map(prefix)
            .collect();
        let ours: Vec<String> = s
            .lines()
            .skip_while(|l| !l.contains("groupid="))
            .filter(|l| {
                !l.contains("percentiles") && !l.starts_with("     | ") && !l.contains("sync")
            })
            .map(prefix)
            .collect();
        for want in [
            "  write",
            "    clat ",
            "     lat ",
            "  cpu          ",
            "  IO depths    ",
            "     issued rwts",
            "Run status group 0 ",
            "  WRITE",
        ] {
            assert!(theirs.iter().any(|t| t == want), "sample lacks {want:?}");
            assert!(ours.iter().any(|t| t == want), "ours lacks {want:?}:\n{s}");
        }
        assert!(
            s.contains("clat percentiles (usec):\n     |  1.00th=[")
                || s.contains("clat percentiles (nsec):\n     |  1.00th=["),
            "{s}"
        );
    }

    #[test]
    fn header_line() {
        let r = fx::randrw_libaio();
        let h = job_header(&r.plan.jobs[0]);
        assert!(
            h.contains(
                "rw=randrw, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=libaio"
            ),
            "{h}"
        );
        assert!(preamble(&r.plan).contains("Starting 1 thread\n"));
    }
}
