//! quick's own outputs from the result model: one table row per test and direction, as text or
//! JSON.

use super::plan::{Prepared, TestLabel};
use iomark_engine::result::RunResult;
use iomark_engine::sys;

/// One row of quick's table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub label: &'static str,
    pub write: bool,
    pub bytes_per_s: f64,
    pub iops: f64,
    pub mean_lat_us: f64,
    pub p99_lat_us: f64,
    /// The test did I/O for a measurable time (else its figures are not shown).
    pub ran: bool,
    /// The run was interrupted during this test: its figures cover only part of its time.
    pub partial: bool,
}

/// The rows of a run of quick's plan (`labels` as [`Prepared::labels`]).
pub fn rows(res: &RunResult, labels: &[TestLabel]) -> Vec<Row> {
    res.jobs
        .iter()
        .zip(labels)
        .enumerate()
        .map(|(i, (j, l))| {
            let d = if l.write { &j.dirs.write } else { &j.dirs.read };
            let secs = d.runtime_ms as f64 / 1000.0;
            let ran = d.total_ios > 0 && secs > 0.0;
            // Cut short by an interruption: it ran for less than its planned time.
            let planned_ms = res
                .plan
                .jobs
                .get(i)
                .and_then(|s| s.runtime)
                .map_or(0, |r| r.as_millis() as u64);
            let partial = res.interrupted && ran && d.runtime_ms + 50 < planned_ms;
            Row {
                label: l.label,
                write: l.write,
                bytes_per_s: if ran { d.io_bytes as f64 / secs } else { 0.0 },
                iops: if ran { d.total_ios as f64 / secs } else { 0.0 },
                mean_lat_us: d.lat.stat.mean() / 1000.0,
                p99_lat_us: d.lat.hist.percentile(99.0) as f64 / 1000.0,
                ran,
                partial,
            }
        })
        .collect()
}

fn lat(us: f64) -> String {
    if us >= 10_000.0 {
        format!("{:.1} ms", us / 1000.0)
    } else if us >= 1000.0 {
        format!("{:.2} ms", us / 1000.0)
    } else {
        format!("{us:.1} µs")
    }
}

/// The text table (a header line and one line per row).
pub fn table(rows: &[Row]) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{:<12} {:<5} {:>10} {:>10} {:>10} {:>11} {:>11}\n",
        "test", "dir", "MB/s", "MiB/s", "IOPS", "mean lat", "p99 lat"
    ));
    for r in rows {
        if !r.ran {
            out.push_str(&format!(
                "{:<12} {:<5} {:>10} {:>10} {:>10} {:>11} {:>11}\n",
                r.label,
                if r.write { "write" } else { "read" },
                "-",
                "-",
                "-",
                "-",
                "-"
            ));
            continue;
        }
        out.push_str(&format!(
            "{:<12} {:<5} {:>10.1} {:>10.1} {:>10.0} {:>11} {:>11}{}\n",
            r.label,
            if r.write { "write" } else { "read" },
            r.bytes_per_s / 1e6,
            r.bytes_per_s / (1024.0 * 1024.0),
            r.iops,
            lat(r.mean_lat_us),
            lat(r.p99_lat_us),
            if r.partial { "  (interrupted)" } else { "" }
        ));
    }
    out
}

/// The JSON document (pretty-printed) of a run: the choices made, then one object per row.
pub fn to_json(rows: &[Row], res: &RunResult, notes: &[String], p: &Prepared) -> String {
    let tests: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| {
            let mut v = serde_json::json!({
                "test": r.label,
                "direction": if r.write { "write" } else { "read" },
            });
            if r.ran {
                v["MB_per_s"] = serde_json::json!(r.bytes_per_s / 1e6);
                v["MiB_per_s"] = serde_json::json!(r.bytes_per_s / (1024.0 * 1024.0));
                v["iops"] = serde_json::json!(r.iops);
                v["mean_lat_us"] = serde_json::json!(r.mean_lat_us);
                v["p99_lat_us"] = serde_json::json!(r.p99_lat_us);
            }
            if r.partial {
                v["partial"] = serde_json::json!(true);
            }
            v
        })
        .collect();
    let v = serde_json::json!({
        "iomark_version": iomark_engine::VERSION,
        "target": p.path.display().to_string(),
        "size_bytes": p.size,
        "direct": p.direct,
        "ioengine": p.engine.name(),
        "host": res.host,
        "interrupted": res.interrupted,
        "notes": notes,
        "tests": tests,
        "unix_ms": sys::unix_ms(),
    });
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use iomark_engine::result::JobResult;

    fn result() -> RunResult {
        let mut read = JobResult::default();
        let d = &mut read.dirs.read;
        for _ in 0..1000 {
            d.lat.add(250_000);
        }
        d.total_ios = 1000;
        d.io_bytes = 1000 << 20;
        d.runtime_ms = 2000;
        RunResult {
            jobs: vec![read, JobResult::default()],
            ..Default::default()
        }
    }

    #[test]
    fn an_interrupted_test_is_partial() {
        let labels = [
            TestLabel {
                label: "SEQ1M Q8T1",
                write: false,
            },
            TestLabel {
                label: "SEQ1M Q8T1",
                write: true,
            },
        ];
        let mut res = result();
        res.plan.jobs = vec![
            iomark_engine::job::JobSpec {
                runtime: Some(std::time::Duration::from_secs(5)),
                ..Default::default()
            };
            2
        ];
        assert!(!rows(&res, &labels)[0].partial, "not interrupted");
        res.interrupted = true;
        let r = rows(&res, &labels);
        assert!(r[0].partial && !r[1].partial);
        assert!(table(&r).lines().nth(1).unwrap().ends_with("(interrupted)"));
    }

    #[test]
    fn table_shows_figures_and_dashes() {
        let labels = [
            TestLabel {
                label: "SEQ1M Q8T1",
                write: false,
            },
            TestLabel {
                label: "SEQ1M Q8T1",
                write: true,
            },
        ];
        let rows = rows(&result(), &labels);
        assert!(rows[0].ran && !rows[1].ran);
        assert_eq!(rows[0].iops, 500.0);
        let t = table(&rows);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(
            lines[0],
            "test         dir         MB/s      MiB/s       IOPS    mean lat     p99 lat"
        );
        assert_eq!(
            lines[1],
            "SEQ1M Q8T1   read       524.3      500.0        500    250.0 µs    250.9 µs"
        );
        assert_eq!(
            lines[2],
            "SEQ1M Q8T1   write          -          -          -           -           -"
        );
    }
}
