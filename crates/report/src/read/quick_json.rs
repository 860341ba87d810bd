//! What `iomark quick --json` prints: one object with the target, the engine and a `tests`
//! list (test, direction and the figures of each test that ran). It holds no histograms, so
//! its directions carry their headline (rates, mean and p99 latency) and nothing more.

use crate::model::{DirFigures, Headline, Job, Lat, LatKind, Signature, Source};
use crate::read::units::utc;
use crate::ReportError;
use serde_json::Value;
use std::path::Path;

/// Whether `v` is quick's JSON: an `iomark_version` and a `tests` list, no `format`.
pub(super) fn is_quick(v: &Value) -> bool {
    v.get("format").is_none()
        && v.get("iomark_version").is_some_and(Value::is_string)
        && v.get("tests").is_some_and(Value::is_array)
}

/// The workload a quick test's label names: `SEQ1M Q8T1` is 1 MiB sequential at depth 8 with
/// one thread; None for a label of another shape.
fn signature(test: &str, write: bool) -> Option<Signature> {
    let (kind, depth) = test.split_once(' ')?;
    let (random, size) = match (kind.strip_prefix("SEQ"), kind.strip_prefix("RND")) {
        (Some(s), _) => (false, s),
        (_, Some(s)) => (true, s),
        _ => return None,
    };
    let (num, unit) = size.split_at(size.len().checked_sub(1)?);
    let bs = num.parse::<u64>().ok()?
        * match unit {
            "K" => 1 << 10,
            "M" => 1 << 20,
            _ => return None,
        };
    let (q, t) = depth.strip_prefix('Q')?.split_once('T')?;
    let rw = match (random, write) {
        (false, false) => "read",
        (false, true) => "write",
        (true, false) => "randread",
        (true, true) => "randwrite",
    };
    Some(Signature {
        rw: rw.into(),
        bs,
        iodepth: q.parse().ok()?,
        numjobs: t.parse().ok()?,
        rwmixread: if write { 0 } else { 100 },
    })
}

/// A [`Source`] from quick's JSON: one job per test and direction, named as a quick run's
/// result file names them (`SEQ1M-Q8T1-read`). A test that did not run has no figures.
pub(super) fn read(path: &Path, v: &Value) -> Result<Source, ReportError> {
    let bad = |detail: String| ReportError::BadResult {
        path: path.to_path_buf(),
        detail: format!("quick's JSON output: {detail}"),
    };
    let text = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let mut s = Source {
        tool: format!("iomark-{}", text("iomark_version")),
        repetitions: 1,
        ..Default::default()
    };
    s.facts.push(("tool".into(), s.tool.clone()));
    if let Some(ms) = v.get("unix_ms").and_then(Value::as_u64) {
        s.facts.push(("date".into(), utc(ms)));
    }
    // The host, when quick recorded it.
    if let Some(h) = v.get("host") {
        let h: iomark_engine::result::HostInfo =
            serde_json::from_value(h.clone()).map_err(|e| bad(format!("its host: {e}")))?;
        super::iomark::host_facts(&h, &mut s.facts);
    }
    s.facts.push(("target".into(), text("target")));
    s.facts.push(("ioengine".into(), text("ioengine")));
    if let Some(d) = v.get("direct").and_then(Value::as_bool) {
        let io = if d { "direct" } else { "buffered" };
        s.facts.push(("I/O".into(), io.into()));
    }
    if let Some(b) = v.get("size_bytes").and_then(Value::as_u64) {
        s.facts
            .push(("test file size".into(), crate::model::human_bytes(b)));
    }
    if let Some(notes) = v.get("notes").and_then(Value::as_array) {
        s.notes
            .extend(notes.iter().filter_map(Value::as_str).map(str::to_string));
    }
    if v.get("interrupted").and_then(Value::as_bool) == Some(true) {
        s.notes
            .push("the run was interrupted: its last test covers only part of its time".into());
    }
    let tests = v["tests"].as_array().map(Vec::as_slice).unwrap_or_default();
    for (i, t) in tests.iter().enumerate() {
        let test = t.get("test").and_then(Value::as_str).unwrap_or("");
        let dir: &'static str = match t.get("direction").and_then(Value::as_str) {
            Some("read") => "read",
            Some("write") => "write",
            _ => {
                return Err(bad(format!(
                    "test {} has no direction read or write",
                    i + 1
                )))
            }
        };
        let sig = signature(test, dir == "write").ok_or_else(|| {
            bad(format!(
                "test {} is {}, not a quick test such as \"SEQ1M Q8T1\"",
                i + 1,
                iomark_output::echo::quote(test)
            ))
        })?;
        let mut job = Job {
            name: format!("{}-{dir}", test.replace(' ', "-")),
            signature: sig,
            ..Default::default()
        };
        if let Some(d) = figures(t, dir) {
            job.dirs.push(d);
        }
        if t.get("partial").and_then(Value::as_bool) == Some(true) {
            s.notes.push(format!(
                "{} was interrupted: its figures cover only part of its time",
                job.name
            ));
        }
        s.jobs.push(job);
    }
    if s.jobs.is_empty() {
        return Err(bad("it lists no tests".into()));
    }
    Ok(s)
}

/// The figures of one test that ran (None when it did not: quick prints none for it).
fn figures(t: &Value, dir: &'static str) -> Option<DirFigures> {
    let num = |k: &str| t.get(k).and_then(Value::as_f64);
    let iops = num("iops")?;
    let bw = num("MB_per_s")? * 1e6;
    let p99_ns = num("p99_lat_us").map(|v| v * 1000.0);
    let mean_ns = num("mean_lat_us").map(|v| v * 1000.0);
    let headline = Headline {
        iops,
        bw,
        p99_ns,
        pct_of: p99_ns.map(|_| LatKind::Lat),
        lat_pct: [None, p99_ns, None],
        ..Default::default()
    };
    Some(DirFigures {
        dir,
        // Only the mean: no histogram, so no distribution is drawn from it.
        lat: mean_ns.map(|m| Lat {
            n: 1,
            mean_ns: m,
            min_ns: m,
            max_ns: m,
            ..Default::default()
        }),
        reps: vec![headline],
        ..Default::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Figure;

    #[test]
    fn labels_name_their_workload() {
        let s = signature("RND4K Q32T1", true).unwrap();
        assert_eq!(
            (s.rw.as_str(), s.bs, s.iodepth, s.numjobs),
            ("randwrite", 4096, 32, 1)
        );
        let s = signature("SEQ1M Q8T1", false).unwrap();
        assert_eq!((s.rw.as_str(), s.bs, s.iodepth), ("read", 1 << 20, 8));
        assert!(signature("RAND 4K", false).is_none());
        assert!(signature("SEQ1X Q8T1", false).is_none());
    }

    #[test]
    fn quick_json_reads_into_jobs_named_as_the_result_file_names_them() {
        let v: Value = serde_json::from_str(
            r#"{"iomark_version":"0.1.0","target":"/tmp/x","size_bytes":1073741824,
            "direct":true,"ioengine":"io_uring","interrupted":false,"notes":["n1"],
            "unix_ms":0,"host":{"hostname":"box","kernel":"6.1.0","cpus":4,
            "mem_bytes":8589934592,"virtualization":"kvm"},"tests":[
            {"test":"SEQ1M Q8T1","direction":"read","MB_per_s":1500.0,"MiB_per_s":1430.5,
             "iops":1430.5,"mean_lat_us":5500.0,"p99_lat_us":9000.0},
            {"test":"SEQ1M Q8T1","direction":"write"}]}"#,
        )
        .unwrap();
        assert!(is_quick(&v));
        let s = read(Path::new("q.json"), &v).unwrap();
        assert_eq!(s.jobs.len(), 2);
        assert_eq!(s.jobs[0].name, "SEQ1M-Q8T1-read");
        let d = s.jobs[0].dir("read").unwrap();
        assert_eq!(d.figure(Figure::MBps), Some(1500.0));
        assert_eq!(d.figure(Figure::Iops), Some(1430.5));
        assert_eq!(d.figure(Figure::P99), Some(9000.0));
        assert_eq!(d.figure(Figure::P50), None);
        assert!(
            s.jobs[1].dirs.is_empty(),
            "a test that did not run has no figures"
        );
        assert!(s.notes.contains(&"n1".to_string()));
        for fact in [
            ("host", "box"),
            ("kernel", "6.1.0"),
            ("virtualization", "kvm"),
        ] {
            assert!(
                s.facts.contains(&(fact.0.to_string(), fact.1.to_string())),
                "{fact:?} in {:?}",
                s.facts
            );
        }
        let mut bad = v.clone();
        bad["tests"][0]["test"] = "fio job".into();
        let e = read(Path::new("q.json"), &bad).unwrap_err().to_string();
        assert!(e.contains("not a quick test"), "{e}");
        let mut other = v;
        other["format"] = "x".into();
        assert!(!is_quick(&other));
    }
}
