//! fio's JSON and JSON+ output: the same keys, order and units as fio 3.x (`bw` KiB/s, `bw_bytes`
//! B/s, `iops` float, `runtime` ms, latencies in ns, percentile keys as `%f`). iomark's own
//! additions sit under one extra `"iomark"` key per object, which fio tools ignore.

use super::fmt::{depth_dist, f6, json_str, lat_floor, pct_key};
use super::group::{self, Report, ReportUnit};
use iomark_engine::hist::{Histogram, LatencyBuckets};
use iomark_engine::job::{Dir, StatsSpec};
use iomark_engine::result::{DirResult, DiskUtil, LatRecord};
use iomark_engine::steady::{SteadyMetric, SteadyResult, SteadySpec};
use iomark_engine::RunResult;

/// A small pretty-printing JSON writer in fio's layout (`"key" : value`, 2-space indent).
pub(crate) struct J {
    out: String,
    depth: usize,
    first: Vec<bool>,
}

impl J {
    pub(crate) fn new() -> J {
        J {
            out: String::new(),
            depth: 0,
            first: vec![true],
        }
    }
    pub(crate) fn sep(&mut self) {
        let f = self.first.last_mut().unwrap();
        if !*f {
            self.out.push(',');
        }
        *f = false;
        self.out.push('\n');
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
    }
    pub(crate) fn key(&mut self, k: &str) {
        self.sep();
        self.out.push_str(&json_str(k));
        self.out.push_str(" : ");
    }
    pub(crate) fn open_root(&mut self) {
        self.out.push('{');
        self.depth = 1;
        self.first = vec![true];
    }
    pub(crate) fn close_root(&mut self) -> String {
        self.out.push_str("\n}\n");
        std::mem::take(&mut self.out)
    }
    pub(crate) fn obj(&mut self, k: &str) {
        self.key(k);
        self.out.push('{');
        self.depth += 1;
        self.first.push(true);
    }
    pub(crate) fn obj_in_array(&mut self) {
        self.sep();
        self.out.push('{');
        self.depth += 1;
        self.first.push(true);
    }
    pub(crate) fn end_obj(&mut self) {
        let empty = self.first.pop().unwrap();
        self.depth -= 1;
        if !empty {
            self.out.push('\n');
            for _ in 0..self.depth {
                self.out.push_str("  ");
            }
        }
        self.out.push('}');
    }
    pub(crate) fn arr(&mut self, k: &str) {
        self.key(k);
        self.out.push('[');
        self.depth += 1;
        self.first.push(true);
    }
    pub(crate) fn end_arr(&mut self) {
        let empty = self.first.pop().unwrap();
        self.depth -= 1;
        if !empty {
            self.out.push('\n');
            for _ in 0..self.depth {
                self.out.push_str("  ");
            }
        }
        self.out.push(']');
    }
    pub(crate) fn u(&mut self, k: &str, v: u64) {
        self.key(k);
        self.out.push_str(&v.to_string());
    }
    pub(crate) fn i(&mut self, k: &str, v: i64) {
        self.key(k);
        self.out.push_str(&v.to_string());
    }
    pub(crate) fn f(&mut self, k: &str, v: f64) {
        self.key(k);
        self.out.push_str(&f6(v));
    }
    pub(crate) fn s(&mut self, k: &str, v: &str) {
        self.key(k);
        self.out.push_str(&json_str(v));
    }
    pub(crate) fn b(&mut self, k: &str, v: bool) {
        self.key(k);
        self.out.push_str(if v { "true" } else { "false" });
    }
    /// A value already serialised (e.g. by serde_json).
    pub(crate) fn raw(&mut self, k: &str, v: &str) {
        self.key(k);
        self.out.push_str(v);
    }
}

fn lat_obj(j: &mut J, key: &str, rec: &LatRecord, pcts: Option<&[f64]>, plus: bool) {
    let st = &rec.stat;
    j.obj(key);
    j.u("min", st.min_or_zero());
    j.u("max", st.max);
    j.f("mean", st.mean());
    j.f("stddev", st.stddev());
    j.u("N", st.n);
    if let Some(list) = pcts {
        if st.n > 0 && !list.is_empty() {
            j.obj("percentile");
            for (p, v) in rec.hist.percentiles(list) {
                j.u(&pct_key(p), v);
            }
            j.end_obj();
            if plus {
                j.obj("bins");
                for (mid, c) in rec.hist.bins() {
                    j.u(&mid.to_string(), c);
                }
                j.end_obj();
            }
        }
    }
    j.end_obj();
}

/// fio's `prios` array: one object per priority with I/Os (class, level, and the latency
/// the per-priority statistics keep), when at least two priorities had I/Os.
fn prios_arr(j: &mut J, r: &DirResult, st: &StatsSpec, plus: bool) {
    let used = || r.prios.iter().filter(|p| p.lat.stat.n > 0);
    if used().count() < 2 {
        return;
    }
    let key = super::prio_lat_key(st);
    let pcts = (st.clat_percentiles || st.lat_percentiles).then_some(st.percentile_list.as_slice());
    j.arr("prios");
    for p in used() {
        j.obj_in_array();
        j.u("prioclass", u64::from(p.ioprio >> 13));
        j.u("prio", u64::from(p.ioprio & 7));
        lat_obj(j, &format!("{key}_ns"), &p.lat, pcts, plus);
        j.end_obj();
    }
    j.end_arr();
}

fn dir_obj(j: &mut J, report: &Report, u: &ReportUnit, d: Dir, plus: bool) {
    let r = &u.job.dirs[d];
    let st = &u.spec.stats;
    let list = st.percentile_list.as_slice();
    j.obj(u.dir_label(d));
    j.u("io_bytes", r.io_bytes);
    j.u("io_kbytes", r.io_bytes / 1024);
    let bw_bytes = u.bw_bytes(d);
    j.u("bw_bytes", bw_bytes);
    j.u("bw", bw_bytes / 1024);
    j.f("iops", u.iops(d));
    j.u("runtime", r.runtime_ms);
    j.u("total_ios", r.total_ios);
    j.u("short_ios", r.short_ios);
    j.u("drop_ios", r.drop_ios);
    lat_obj(
        j,
        "slat_ns",
        &r.slat,
        st.slat_percentiles.then_some(list),
        plus,
    );
    lat_obj(
        j,
        "clat_ns",
        &r.clat,
        st.clat_percentiles.then_some(list),
        plus,
    );
    lat_obj(
        j,
        "lat_ns",
        &r.lat,
        st.lat_percentiles.then_some(list),
        plus,
    );
    prios_arr(j, r, st, plus);
    let bw = &r.bw_samples;
    j.u("bw_min", if bw.n > 0 { bw.min as u64 } else { 0 });
    j.u("bw_max", if bw.n > 0 { bw.max as u64 } else { 0 });
    j.f("bw_agg", report.bw_agg_pct(u, d));
    j.f("bw_mean", if bw.n > 0 { bw.mean } else { 0.0 });
    j.f("bw_dev", bw.stddev());
    j.u("bw_samples", bw.n);
    let io = &r.iops_samples;
    j.u("iops_min", if io.n > 0 { io.min as u64 } else { 0 });
    j.u("iops_max", if io.n > 0 { io.max as u64 } else { 0 });
    j.f("iops_mean", if io.n > 0 { io.mean } else { 0.0 });
    j.f("iops_stddev", io.stddev());
    j.u("iops_samples", io.n);
    j.end_obj();
}

const LEVEL_KEYS: [&str; 7] = ["1", "2", "4", "8", "16", "32", ">=64"];
const BATCH_KEYS: [&str; 7] = ["0", "4", "8", "16", "32", "64", ">=64"];

fn dist_obj(j: &mut J, key: &str, keys: &[&str; 7], counts: &[u64; 7]) {
    let total: u64 = counts.iter().sum();
    let d = depth_dist(counts, total);
    j.obj(key);
    for (k, v) in keys.iter().zip(d.iter()) {
        j.f(k, *v);
    }
    j.end_obj();
}

/// Where a job's entry came from in a run of many ranks: fio's `hostname` and `port` keys of a
/// client's entry (the port holds the rank: no network port is involved).
pub(crate) struct Client<'a> {
    pub hostname: &'a str,
    pub port: u64,
}

/// One job entry of fio's `jobs` array, with iomark's block and, in a run of many, its client.
pub(crate) fn job_obj(
    j: &mut J,
    result: &RunResult,
    report: &Report,
    u: &ReportUnit,
    plus: bool,
    client: Option<Client>,
) {
    j.obj_in_array();
    job_head(j, u);
    job_dirs(j, report, u, plus);
    job_cpu(j, u);
    dist_obj(j, "iodepth_level", &LEVEL_KEYS, &u.job.depth.level);
    dist_obj(j, "iodepth_submit", &BATCH_KEYS, &u.job.depth.submit);
    dist_obj(j, "iodepth_complete", &BATCH_KEYS, &u.job.depth.complete);
    latency_buckets(j, u);
    latency_target(j, u);
    if u.spec.errors.goes_on() {
        j.u("total_err", u.job.total_err);
        j.i("first_error", u.job.first_error as i64);
    }
    if let Some(desc) = &u.spec.description {
        j.s("desc", desc);
    }
    if let (Some(sp), Some(ss)) = (&u.spec.steady, &u.job.steady) {
        steady_json(j, sp, ss);
    }
    job_iomark_obj(j, result, u);
    if let Some(c) = client {
        j.s("hostname", c.hostname);
        j.u("port", c.port);
    }
    j.end_obj();
}

/// A job entry's first keys: its name, group, error, times and the options as written.
fn job_head(j: &mut J, u: &ReportUnit) {
    j.s("jobname", &u.job.name);
    j.u("groupid", u.job.group_id as u64);
    j.i("error", u.reported_error() as i64);
    j.u("eta", 0);
    j.u("elapsed", u.job.elapsed_ms.div_ceil(1000));
    j.obj("job options");
    for (k, v) in u.spec.shown_options.iter() {
        if !v.is_empty() {
            j.s(k, v);
        }
    }
    j.end_obj();
}

/// A job entry's blocks per direction, `sync` and `mixed`, as `unified_rw_reporting` asks.
fn job_dirs(j: &mut J, report: &Report, u: &ReportUnit, plus: bool) {
    // unified_rw_reporting=mixed: one `mixed` block and no `sync`; =both: the directions and
    // `sync`, then `mixed` (fio's order).
    if u.mixed_only {
        dir_obj(j, report, u, Dir::Read, plus);
    } else {
        for d in Dir::ALL {
            dir_obj(j, report, u, d, plus);
        }
        j.obj("sync");
        j.u("total_ios", u.job.sync_ios);
        let st = &u.spec.stats;
        lat_obj(
            j,
            "lat_ns",
            &u.job.sync,
            st.clat_percentiles.then_some(st.percentile_list.as_slice()),
            plus,
        );
        j.end_obj();
    }
    if let Some(m) = u.mixed_block() {
        dir_obj(j, report, &m, Dir::Read, plus);
    }
}

/// A job entry's CPU keys: runtime, user and system shares, context switches and faults.
fn job_cpu(j: &mut J, u: &ReportUnit) {
    j.u("job_runtime", u.cpu_runtime_ms);
    let (usr, sys) = u.cpu_pct();
    j.f("usr_cpu", usr);
    j.f("sys_cpu", sys);
    j.u("ctx", u.job.cpu.ctx);
    j.u("majf", u.job.cpu.majf);
    j.u("minf", u.job.cpu.minf);
}

/// fio's `latency_ns`, `latency_us` and `latency_ms` blocks: the completion latency
/// distribution over all directions.
fn latency_buckets(j: &mut J, u: &ReportUnit) {
    let hists: Vec<&Histogram> = Dir::ALL.iter().map(|&d| &u.job.dirs[d].clat.hist).collect();
    let lb = LatencyBuckets::from_hists(&hists);
    for (key, labels, vals) in [
        ("latency_ns", &super::fmt::LAT_NS_LABELS[..], &lb.ns[..]),
        ("latency_us", &super::fmt::LAT_US_LABELS[..], &lb.us[..]),
        ("latency_ms", &super::fmt::LAT_MS_LABELS[..], &lb.ms[..]),
    ] {
        j.obj(key);
        for (l, v) in labels.iter().zip(vals) {
            j.f(l, lat_floor(*v));
        }
        j.end_obj();
    }
}

/// fio's `latency_depth`, `latency_target`, `latency_percentile` and `latency_window` keys.
fn latency_target(j: &mut J, u: &ReportUnit) {
    // The search's final depth (the job's iodepth without a search), target in ns, window
    // in µs, as fio.
    let ds = &u.spec.depth_search;
    j.u(
        "latency_depth",
        u.job.search_depth.unwrap_or(u.spec.iodepth) as u64,
    );
    j.u("latency_target", ds.target.as_nanos() as u64);
    j.f("latency_percentile", ds.percentile);
    j.u("latency_window", ds.window.as_micros() as u64);
}

/// The `iomark` block of a job entry: iomark's additions, which fio tools ignore.
fn job_iomark_obj(j: &mut J, result: &RunResult, u: &ReportUnit) {
    j.obj("iomark");
    j.u("jobs", u.members as u64);
    j.raw(
        "threads",
        &serde_json::to_string(&u.clones.iter().map(|c| c.0).collect::<Vec<_>>())
            .unwrap_or_default(),
    );
    j.u("runtime_ms", u.job.runtime_ms);
    // Failed I/Os per direction (tolerated ones under continue_on_error, plus the fatal one).
    j.obj("errors");
    j.u("read", u.job.dirs.read.errors);
    j.u("write", u.job.dirs.write.errors);
    j.u("trim", u.job.dirs.trim.errors);
    j.end_obj();
    if let Some(f) = &u.job.failure {
        j.s("error_msg", &crate::explain::failure(f));
    }
    j.raw(
        "targets",
        &serde_json::to_string(&u.job.targets).unwrap_or_else(|_| "[]".into()),
    );
    j.raw(
        "notes",
        &serde_json::to_string(&crate::explain::notes(&u.job.notes))
            .unwrap_or_else(|_| "[]".into()),
    );
    let verify: Vec<_> = result
        .jobs
        .iter()
        .filter(|r| u.clones.iter().any(|c| c.0 == r.thread_number))
        .filter_map(|r| r.verify.as_ref())
        .collect();
    if !verify.is_empty() {
        j.raw(
            "verify",
            &serde_json::to_string(&verify).unwrap_or_else(|_| "[]".into()),
        );
    }
    j.end_obj();
}

/// fio's `steadystate` block: the criterion, whether it was met, the last judged value and the
/// window of samples.
fn steady_json(j: &mut J, sp: &SteadySpec, ss: &SteadyResult) {
    let pct = if sp.percent { "%" } else { "" };
    j.obj("steadystate");
    j.s(
        "ss",
        &format!(
            "{}{}:{:.6}{pct}",
            match sp.metric {
                SteadyMetric::Iops => "iops",
                SteadyMetric::Bw => "bw",
            },
            if sp.slope { "_slope" } else { "" },
            sp.limit as f32
        ),
    );
    j.u("duration", sp.duration_s as u64);
    j.u("attained", ss.attained as u64);
    j.s("criterion", &format!("{:.6}{pct}", ss.criterion as f32));
    j.f("max_deviation", ss.max_deviation);
    j.f("slope", ss.slope);
    j.obj("data");
    j.u("bw_mean", ss.bw_mean());
    j.u("iops_mean", ss.iops_mean());
    j.raw("iops", &serde_json::to_string(&ss.iops).unwrap_or_default());
    j.raw("bw", &serde_json::to_string(&ss.bw).unwrap_or_default());
    j.end_obj();
    j.end_obj();
}

/// Render a run as fio's JSON (`plus` = json+ with histogram bins).
pub fn render(result: &RunResult, plus: bool) -> String {
    let report = group::build(result);
    let mut j = J::new();
    head(&mut j, result);
    j.arr("jobs");
    for u in &report.units {
        job_obj(&mut j, result, &report, u, plus, None);
    }
    j.end_arr();
    j.arr("disk_util");
    for d in &result.disk_util {
        disk_obj(&mut j, d, None);
    }
    j.end_arr();
    iomark_obj(&mut j, result, |_| {});
    j.close_root()
}

/// The document's opening keys: version, time, global options.
pub(crate) fn head(j: &mut J, result: &RunResult) {
    j.open_root();
    j.s("fio version", &format!("iomark-{}", iomark_engine::VERSION));
    j.u("timestamp", result.start_unix_ms / 1000);
    j.u("timestamp_ms", result.start_unix_ms);
    j.s(
        "time",
        &super::fmt::ctime((result.start_unix_ms / 1000) as i64),
    );
    if !result.plan.shown_global_options.is_empty() {
        j.obj("global options");
        for (k, v) in result.plan.shown_global_options.iter() {
            if !v.is_empty() {
                j.s(k, v);
            }
        }
        j.end_obj();
    }
}

/// One `disk_util` entry (with the client's keys in a run of many ranks).
pub(crate) fn disk_obj(j: &mut J, d: &DiskUtil, client: Option<Client>) {
    j.obj_in_array();
    j.s("name", &d.name);
    j.u("read_ios", d.read_ios);
    j.u("write_ios", d.write_ios);
    j.u("read_sectors", d.read_sectors);
    j.u("write_sectors", d.write_sectors);
    j.u("read_merges", d.read_merges);
    j.u("write_merges", d.write_merges);
    j.u("read_ticks", d.read_ticks);
    j.u("write_ticks", d.write_ticks);
    j.u("in_queue", d.in_queue);
    j.f("util", d.util);
    if let Some(c) = client {
        j.s("hostname", c.hostname);
        j.u("port", c.port);
    }
    j.end_obj();
}

/// iomark's own root block; `more` adds keys to it.
pub(crate) fn iomark_obj(j: &mut J, result: &RunResult, more: impl FnOnce(&mut J)) {
    j.obj("iomark");
    j.s("version", iomark_engine::VERSION);
    j.b("interrupted", result.interrupted);
    j.raw(
        "host",
        &serde_json::to_string(&result.host).unwrap_or_else(|_| "{}".into()),
    );
    j.raw(
        "notes",
        &serde_json::to_string(&crate::explain::notes(&result.notes))
            .unwrap_or_else(|_| "[]".into()),
    );
    more(j);
    j.end_obj();
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::output::group::tests as fx;

    /// Every key path of a JSON document (`.jobs[].read.iops`), iomark's own keys and the
    /// contents of percentile and bins objects left out.
    pub(crate) fn keys(
        v: &serde_json::Value,
        out: &mut std::collections::BTreeSet<String>,
        p: &str,
    ) {
        if let serde_json::Value::Object(m) = v {
            for (k, x) in m {
                if k == "iomark" || p.ends_with("percentile") || p.ends_with("bins") {
                    continue;
                }
                let q = format!("{p}.{k}");
                out.insert(q.clone());
                keys(x, out, &q);
            }
        } else if let serde_json::Value::Array(a) = v {
            for x in a {
                keys(x, out, &format!("{p}[]"));
            }
        }
    }

    #[test]
    fn json_parses_and_has_fio_keys() {
        let r = fx::randrw_libaio();
        let s = render(&r, true);
        let v: serde_json::Value = serde_json::from_str(&s).expect(&s);
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/fio-3.33-output/fio-json-plus.json"
        ))
        .expect("the fio reference output in tests/fixtures");
        let sample: serde_json::Value = serde_json::from_str(&text).unwrap();
        let mut ours = Default::default();
        let mut theirs = Default::default();
        keys(&v, &mut ours, "");
        keys(&sample, &mut theirs, "");
        // "job options" holds whatever each run was given; the sample's options are its own.
        let missing: Vec<_> = theirs
            .difference(&ours)
            .filter(|k| !k.starts_with(".jobs[].job options."))
            .collect();
        assert!(missing.is_empty(), "missing keys: {missing:?}");
        let rd = &v["jobs"][0]["read"];
        assert!(rd["clat_ns"]["percentile"]["99.990000"].as_u64().is_some());
        assert!(rd["clat_ns"]["bins"].as_object().unwrap().len() > 1);
        // json (not plus) has no bins
        let v: serde_json::Value = serde_json::from_str(&render(&r, false)).unwrap();
        assert!(v["jobs"][0]["read"]["clat_ns"].get("bins").is_none());
        assert!(v["jobs"][0]["trim"]["clat_ns"].get("percentile").is_none());
    }

    #[test]
    fn floats_use_six_decimals() {
        let s = render(&fx::psync_write(), false);
        assert!(s.contains("\"latency_percentile\" : 100.000000"), "{s}");
        assert!(s.contains("\"fio version\" : \"iomark-"));
    }
}
