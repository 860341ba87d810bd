//! fio's JSON and json+ output (`--output-format=json` / `json+`), from fio 3.x and the older
//! layouts: latencies in `*_ns` objects (fio 3.0 on) or in `clat`/`slat`/`lat` objects in µs
//! (fio 2.x), bandwidth as `bw_bytes` (B/s, later 3.x) or only `bw` (KiB/s), `io_bytes` or only
//! `io_kbytes`. Jobs of the same name (numjobs without group_reporting) are one job's clones.

use crate::model::{CloneFigures, DirFigures, Job, Lat, Signature, Source};
use crate::read::units::{parse_size, utc};
use crate::ReportError;
use serde_json::Value;
use std::path::Path;

/// Read fio's JSON; its bw/iops/lat logs are looked for in `dir` (where fio ran, normally).
pub(super) fn read(path: &Path, v: &Value, dir: &Path) -> Result<Source, ReportError> {
    let bad = |detail: &str| ReportError::BadResult {
        path: path.to_path_buf(),
        detail: detail.to_string(),
    };
    let jobs = v
        .get("jobs")
        .or_else(|| v.get("client_stats"))
        .and_then(Value::as_array)
        .ok_or_else(|| bad("fio JSON without a \"jobs\" list"))?;
    let version = v
        .get("fio version")
        .and_then(Value::as_str)
        .unwrap_or("fio (version not stated)")
        .to_string();
    let mut s = Source {
        tool: version.clone(),
        repetitions: 1,
        ..Default::default()
    };
    s.facts.push(("tool".into(), version));
    s.facts.push((
        "system".into(),
        "not recorded: fio's JSON output holds no host or target facts".into(),
    ));
    if let Some(ms) = v.get("timestamp_ms").and_then(Value::as_u64) {
        s.facts.push(("date".into(), utc(ms)));
    } else if let Some(t) = v.get("time").and_then(Value::as_str) {
        s.facts.push(("date".into(), t.to_string()));
    } else if let Some(sec) = v.get("timestamp").and_then(Value::as_u64) {
        s.facts.push(("date".into(), utc(sec * 1000)));
    }
    let globals = v.get("global options").and_then(Value::as_object);
    if let Some(g) = globals {
        s.facts.push(("global options".into(), opts_string(g)));
    }
    for d in v
        .get("disk_util")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let (Some(n), Some(u)) = (
            d.get("name").and_then(Value::as_str),
            d.get("util").and_then(Value::as_f64),
        ) {
            s.disk_util.push((n.to_string(), u));
        }
    }
    // Clones: jobs of the same name, in order of first appearance.
    let mut groups: Vec<(String, Vec<&Value>)> = Vec::new();
    for j in jobs {
        let name = j
            .get("jobname")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("a job without \"jobname\""))?
            .to_string();
        match groups.iter_mut().find(|g| g.0 == name) {
            Some(g) => g.1.push(j),
            None => groups.push((name, vec![j])),
        }
    }
    for (name, clones) in groups {
        let (mut job, notes) = job(&name, &clones, globals);
        attach_logs(&mut job, clones[0], globals, dir);
        for n in notes {
            s.add_note(n);
        }
        s.jobs.push(job);
    }
    Ok(s)
}

/// Interval series from the job's `write_*_log` files, when they are beside the JSON.
fn attach_logs(job: &mut Job, j: &Value, g: Option<&serde_json::Map<String, Value>>, dir: &Path) {
    let bw = opt(j, g, "write_bw_log");
    let iops = opt(j, g, "write_iops_log");
    let lat = opt(j, g, "write_lat_log");
    if bw.is_none() && iops.is_none() && lat.is_none() {
        return;
    }
    // A log option without a value uses the job's name as prefix.
    let pre = |o: Option<&str>| {
        o.map(|p| {
            if p.is_empty() {
                job.name.clone()
            } else {
                p.to_string()
            }
        })
    };
    let (bw, iops, lat) = (pre(bw), pre(iops), pre(lat));
    let series = super::fio_log::job_series(dir, bw.as_deref(), iops.as_deref(), lat.as_deref());
    for d in job.dirs.iter_mut() {
        let i = match d.dir {
            "read" => 0,
            "write" => 1,
            "trim" => 2,
            _ => continue,
        };
        d.series = series[i].clone();
    }
}

fn opts_string(o: &serde_json::Map<String, Value>) -> String {
    o.iter()
        .map(|(k, v)| match v.as_str() {
            Some("") | None => k.clone(),
            Some(s) => format!("{k}={s}"),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn opt<'a>(
    job: &'a Value,
    globals: Option<&'a serde_json::Map<String, Value>>,
    key: &str,
) -> Option<&'a str> {
    job.get("job options")
        .and_then(|o| o.get(key))
        .or_else(|| globals.and_then(|g| g.get(key)))
        .and_then(Value::as_str)
}

fn signature(j: &Value, g: Option<&serde_json::Map<String, Value>>) -> Signature {
    let rw = opt(j, g, "rw")
        .or_else(|| opt(j, g, "readwrite"))
        .unwrap_or("read")
        .split(':')
        .next()
        .unwrap_or("read")
        .to_string();
    let bs = opt(j, g, "bs")
        .or_else(|| opt(j, g, "blocksize"))
        .map(|b| b.split(',').next().unwrap_or(b))
        .and_then(parse_size)
        .unwrap_or(4096);
    let num = |k: &str, dflt: u32| {
        opt(j, g, k)
            .and_then(|v| v.trim().parse::<u32>().ok())
            .unwrap_or(dflt)
    };
    let pure_read = matches!(rw.as_str(), "read" | "randread");
    let pure_write = matches!(rw.as_str(), "write" | "randwrite" | "trim" | "randtrim");
    Signature {
        rwmixread: if pure_read {
            100
        } else if pure_write {
            0
        } else {
            num("rwmixread", 50)
        },
        rw,
        bs,
        iodepth: num("iodepth", 1),
        numjobs: num("numjobs", 1),
    }
}

/// A latency object: `<name>_ns` in ns, else `<name>` in µs (fio 2.x).
fn lat(d: &Value, name: &str) -> Option<Lat> {
    let (o, scale) = match d.get(format!("{name}_ns")) {
        Some(o) => (o, 1.0),
        None => (d.get(name)?, 1000.0),
    };
    let f = |k: &str| o.get(k).and_then(Value::as_f64).unwrap_or(0.0);
    let n = o.get("N").and_then(Value::as_u64).unwrap_or(0);
    let mut percentiles: Vec<(f64, f64)> = o
        .get("percentile")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| Some((k.parse::<f64>().ok()?, v.as_f64()? * scale)))
        .collect();
    percentiles.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut bins: Vec<(f64, u64)> = o
        .get("bins")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| Some((k.parse::<f64>().ok()? * scale, v.as_u64()?)))
        .collect();
    bins.sort_by(|a, b| a.0.total_cmp(&b.0));
    // fio 2.x has no "N"; its percentiles or samples say whether there was any.
    let n = if n == 0 && (f("max") > 0.0) {
        bins.iter().map(|b| b.1).sum::<u64>().max(1)
    } else {
        n
    };
    (n > 0).then(|| Lat {
        n,
        min_ns: f("min") * scale,
        max_ns: f("max") * scale,
        mean_ns: f("mean") * scale,
        stddev_ns: f("stddev") * scale,
        percentiles,
        bins,
    })
}

/// Latencies of several clones together: counts, extremes and means combine; bins add; the
/// listed percentiles of one clone stand only for a single clone (they cannot be merged).
fn merge_lat(parts: Vec<Lat>) -> Option<Lat> {
    let mut it = parts.into_iter();
    let mut m = it.next()?;
    for p in it {
        if !m.merge(&p) {
            // Percentiles of a part do not merge: the merged latency has none.
            m.merge_summary(&p);
            m.percentiles.clear();
            m.bins.clear();
        }
    }
    Some(m)
}

fn job(
    name: &str,
    clones: &[&Value],
    g: Option<&serde_json::Map<String, Value>>,
) -> (Job, Vec<String>) {
    let mut notes = Vec::new();
    let mut job = Job {
        name: name.to_string(),
        signature: signature(clones[0], g),
        ..Default::default()
    };
    let u = |v: &Value, k: &str| v.get(k).and_then(Value::as_u64).unwrap_or(0);
    let f = |v: &Value, k: &str| v.get(k).and_then(Value::as_f64);
    for dir in ["read", "write", "trim", "mixed"] {
        let ds: Vec<&Value> = clones.iter().filter_map(|c| c.get(dir)).collect();
        let ios: u64 = ds.iter().map(|d| u(d, "total_ios")).sum();
        let bytes: u64 = ds
            .iter()
            .map(|d| match d.get("io_bytes").and_then(Value::as_u64) {
                Some(b) => b,
                None => u(d, "io_kbytes") * 1024,
            })
            .sum();
        if ios == 0 && bytes == 0 {
            continue;
        }
        let iops: f64 = ds.iter().filter_map(|d| f(d, "iops")).sum();
        let bw: f64 = ds
            .iter()
            .map(|d| f(d, "bw_bytes").unwrap_or(f(d, "bw").unwrap_or(0.0) * 1024.0))
            .sum();
        let mut fig = DirFigures {
            dir: match dir {
                "read" => "read",
                "write" => "write",
                "trim" => "trim",
                _ => "mixed",
            },
            io_bytes: bytes,
            total_ios: ios,
            runtime_ms: ds.iter().map(|d| u(d, "runtime")).max().unwrap_or(0),
            slat: merge_lat(ds.iter().filter_map(|d| lat(d, "slat")).collect()),
            clat: merge_lat(ds.iter().filter_map(|d| lat(d, "clat")).collect()),
            lat: merge_lat(ds.iter().filter_map(|d| lat(d, "lat")).collect()),
            ..Default::default()
        };
        if clones.len() > 1 && fig.main_lat().is_none() {
            notes.push(format!(
                "{name}: {} jobs of this name without json+ bins: their latency percentiles \
                 cannot be merged and are not shown",
                clones.len()
            ));
        }
        let mut h = fig.headline();
        h.iops = iops;
        h.bw = bw;
        fig.reps.push(h);
        job.dirs.push(fig);
    }
    job.sync = merge_lat(
        clones
            .iter()
            .filter_map(|c| c.get("sync").and_then(|s| lat(s, "lat")))
            .collect(),
    );
    let n = clones.len() as f64;
    job.usr_cpu_pct = Some(clones.iter().filter_map(|c| f(c, "usr_cpu")).sum::<f64>() / n);
    job.sys_cpu_pct = Some(clones.iter().filter_map(|c| f(c, "sys_cpu")).sum::<f64>() / n);
    let err = clones.iter().map(|c| u(c, "error")).find(|&e| e != 0);
    job.error = err.map(|e| format!("error {e}"));
    if clones.len() > 1 {
        for (i, c) in clones.iter().enumerate() {
            let mut cf = CloneFigures {
                label: format!("{name} #{i}"),
                ..Default::default()
            };
            for d in &job.dirs {
                let x = c.get(d.dir);
                cf.iops.push(x.and_then(|x| f(x, "iops")).unwrap_or(0.0));
                cf.bw.push(
                    x.map(|x| f(x, "bw_bytes").unwrap_or(f(x, "bw").unwrap_or(0.0) * 1024.0))
                        .unwrap_or(0.0),
                );
            }
            job.clones.push(cf);
        }
    }
    (job, notes)
}
