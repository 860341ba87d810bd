//! `iomark report --trend JOB.DIRECTION.FIGURE [filters]`: one figure across the runs of the
//! result store, a chart per target (the same workload on the same target), the spread of
//! repetitions as error bars, and the runs whose system changed (kernel, distribution, iomark,
//! the target's device, firmware, driver, scheduler, write cache, file system, mount options)
//! marked and listed.

use super::args;
use crate::session::record;
use iomark_report::charts::trend::{self, TrendPoint};
use iomark_report::charts::Chart;
use iomark_report::html::{self, Page};
use iomark_report::model::Source;
use iomark_store::{FigureKey, Point, Store};
use serde_json::Value;
use std::path::PathBuf;

pub const USAGE: &str =
    "Usage: iomark report --trend JOB.DIRECTION.FIGURE [--tag T] [--host H] [--command CMD]
                     [--target PATH] [--since DATE] [-o FILE.html] [--png DIR] [--svg DIR]

One figure (iops, mbps, p50, p99, p99.9 of a job's read, write or trim) across the runs of the
result store that the filters select, oldest first: a chart per target, the spread of a run's
repetitions as error bars, and every run whose system changed since the run before (kernel,
distribution, iomark, the target's device model, firmware, driver, scheduler, write cache, file
system, mount options) marked on the chart and listed above it. Example:
  iomark report --trend rr4k.read.iops --tag nightly -o trend.html
";

/// The facts whose change is marked, read from a result document. A target's facts are named by
/// its path, or by the store's name of the run's one target when it has one (a scratch file
/// quick or bonnie made and removed is named by its directory there, and is the same target from
/// one run to the next).
fn facts(doc: &Value, stored_targets: &[String]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let host = &doc["host"];
    for (k, v) in [
        ("kernel", &host["kernel"]),
        ("distribution", &host["os"]),
        ("iomark", &doc["iomark_version"]),
    ] {
        if let Some(s) = v.as_str().filter(|s| !s.is_empty()) {
            out.push((k.to_string(), s.to_string()));
        }
    }
    let targets = doc["jobs"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|j| j["targets"].as_array().into_iter().flatten());
    for t in targets {
        let path = match stored_targets {
            [one] => one.as_str(),
            _ => t["path"].as_str().unwrap_or_default(),
        };
        for k in [
            "device_model",
            "firmware",
            "driver",
            "scheduler",
            "write_cache",
            "fs_type",
            "mount_options",
        ] {
            let v = match &t[k] {
                Value::String(s) if !s.is_empty() => s.clone(),
                Value::Bool(b) => b.to_string(),
                _ => continue,
            };
            let name = format!("{path} {}", k.replace('_', " "));
            if !out.iter().any(|(n, _)| *n == name) {
                out.push((name, v));
            }
        }
    }
    out
}

/// What differs from `before` to `now`, worded (`kernel 6.1.0 -> 6.1.5`).
fn changes(before: &[(String, String)], now: &[(String, String)]) -> Option<String> {
    let mut said = Vec::new();
    for (k, v) in now {
        match before.iter().find(|(b, _)| b == k) {
            Some((_, old)) if old != v => said.push(format!("{k} {old} -> {v}")),
            None if !before.is_empty() => said.push(format!("{k} now {v}")),
            _ => {}
        }
    }
    (!said.is_empty()).then(|| said.join(", "))
}

/// A run's label on the chart: its reference and its start (UTC).
fn label(p: &Point) -> String {
    let t = p.run.time_ms / 1000;
    let (days, secs) = (t.div_euclid(86_400), t.rem_euclid(86_400));
    let (_, m, d) = civil(days);
    format!(
        "@{} {m:02}-{d:02} {:02}:{:02}",
        p.run.id,
        secs / 3600,
        secs / 60 % 60
    )
}

/// The civil date of a day number since 1970-01-01 (the proleptic Gregorian calendar).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// `iomark report --trend ...`.
pub fn main(argv: &[String]) -> i32 {
    let fail = |e: &str| {
        eprintln!("iomark report: {e}\n\n{USAGE}");
        2
    };
    // `-o FILE` as the report command takes it.
    let argv: Vec<String> = argv
        .iter()
        .map(|a| {
            if a == "-o" {
                "--output".into()
            } else {
                a.clone()
            }
        })
        .collect();
    let a = match args::parse(
        &argv,
        &["--trend", "--output", "--png", "--svg"],
        args::now_ms(),
    ) {
        Ok(a) if a.help => return crate::session::pipe::print_text(USAGE),
        Ok(a) => a,
        Err(e) => return fail(&e.to_string()),
    };
    if let Some(w) = a.words.first() {
        return fail(&format!(
            "--trend reads the result store; '{w}' is not one of its options"
        ));
    }
    let get = |k: &[&str]| {
        a.other
            .iter()
            .rev()
            .find(|(f, _)| k.contains(&f.as_str()))
            .map(|(_, v)| v.clone())
    };
    let Some(spec) = get(&["--trend"]) else {
        return fail("--trend needs a figure: JOB.DIRECTION.FIGURE (rr4k.read.iops)");
    };
    let Some(key) = FigureKey::parse(&spec) else {
        return fail(&format!(
            "--trend {spec}: expected JOB.DIRECTION.FIGURE, e.g. rr4k.read.iops or db.write.p99"
        ));
    };
    let out = PathBuf::from(get(&["--output"]).unwrap_or_else(|| "trend.html".into()));
    let (png, svg) = (
        get(&["--png"]).map(PathBuf::from),
        get(&["--svg"]).map(PathBuf::from),
    );
    let files: Vec<&std::path::Path> = vec![out.as_path()];
    let dirs: Vec<&std::path::Path> = [png.as_deref(), svg.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    if let Err(e) = crate::session::outputs::check_tool(&[], &files, &dirs) {
        eprintln!("iomark report: {e}");
        return 2;
    }
    let mut store = match record::open() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("iomark report: {e}");
            return 1;
        }
    };
    let points = match store.series(&a.filter, &key) {
        Ok(p) if p.is_empty() => {
            eprintln!("iomark report: no run of the store (of these filters) has {spec}; `iomark history` lists the runs, `iomark show @ID` their figures");
            return 1;
        }
        Ok(p) => p,
        Err(e) => {
            eprintln!("iomark report: {e}");
            return 1;
        }
    };
    write_trend(&mut *store, &a, (&spec, &points), &out, [&png, &svg])
}

/// The trend of `spec` over `points` written: the page at `out` (the filters as its facts),
/// then the charts as PNG and SVG images into the directories given; the exit status.
fn write_trend(
    store: &mut dyn Store,
    a: &args::Args,
    (spec, points): (&str, &[Point]),
    out: &std::path::Path,
    [png, svg]: [&Option<PathBuf>; 2],
) -> i32 {
    let (charts, notes) = build(store, spec, points);
    let source = Source {
        label: format!("{spec} across {} runs", points.len()),
        paths: vec![store.location()],
        tool: format!("iomark-{}", iomark_engine::VERSION),
        facts: filter_facts(a),
        notes,
        ..Source::default()
    };
    let page = Page {
        title: format!("iomark trend: {spec}"),
        command: Some(iomark_report::read::shell_words(
            &crate::session::command_line(),
        )),
        sources: std::slice::from_ref(&source),
        comparison: None,
        charts,
    };
    let mut code = 0;
    if let Err(e) = html::write(out, &page) {
        eprintln!("iomark report: {e}");
        code = 1;
    } else {
        eprintln!(
            "iomark report: the trend of {spec} over {} runs written to {}",
            points.len(),
            out.display()
        );
    }
    for (dir, f) in [
        (png, iomark_report::images::Format::Png),
        (svg, iomark_report::images::Format::Svg),
    ] {
        if let Some(d) = dir {
            if let Err(e) = iomark_report::images::write_all(d, &page.charts, f) {
                eprintln!("iomark report: {e}");
                code = 1;
            }
        }
    }
    code
}

/// The filters, as facts of the page.
fn filter_facts(a: &args::Args) -> Vec<(String, String)> {
    let f = &a.filter;
    [
        ("tag", f.tag.clone()),
        ("host", f.host.clone()),
        ("front end", f.front_end.clone()),
        ("target", f.target.clone()),
    ]
    .into_iter()
    .filter_map(|(k, v)| Some((k.to_string(), v?)))
    .collect()
}

/// A chart per target (in the order the targets first appear), and the notes naming every
/// change of the system between two runs of one chart.
fn build(store: &mut dyn Store, spec: &str, points: &[Point]) -> (Vec<Chart>, Vec<String>) {
    let mut series: Vec<(String, Vec<&Point>)> = Vec::new();
    for p in points {
        let target = if p.run.targets.is_empty() {
            "(no target)".to_string()
        } else {
            p.run.targets.join(", ")
        };
        match series.iter_mut().find(|(t, _)| *t == target) {
            Some((_, v)) => v.push(p),
            None => series.push((target, vec![p])),
        }
    }
    let mut charts = Vec::new();
    let mut notes = Vec::new();
    for (target, pts) in &series {
        let mut before: Vec<(String, String)> = Vec::new();
        let mut tp = Vec::new();
        for p in pts {
            let now = store
                .document(p.run.id)
                .ok()
                .and_then(|d| serde_json::from_slice::<Value>(&d).ok())
                .map(|d| facts(&d, &p.run.targets))
                .unwrap_or_default();
            let change = changes(&before, &now);
            let l = label(p);
            if let Some(c) = &change {
                notes.push(format!("{l} on {target}: {c}"));
            }
            if !now.is_empty() {
                before = now;
            }
            tp.push(TrendPoint {
                label: l,
                values: p.values.clone(),
                change,
            });
        }
        let unit = pts.first().map_or("", |p| p.unit.as_str());
        charts.push(trend::chart(spec, unit, target, &tp));
    }
    (charts, notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_facts_are_worded() {
        let a = vec![("kernel".to_string(), "6.1".to_string())];
        let b = vec![
            ("kernel".to_string(), "6.2".to_string()),
            ("iomark".to_string(), "0.2".to_string()),
        ];
        assert_eq!(
            changes(&a, &b).unwrap(),
            "kernel 6.1 -> 6.2, iomark now 0.2"
        );
        assert_eq!(changes(&b, &b), None);
        assert_eq!(changes(&[], &b), None, "the first run changes nothing");
    }

    #[test]
    fn facts_of_a_document() {
        let d: Value = serde_json::json!({
            "iomark_version": "0.1.0",
            "host": {"kernel": "6.1", "os": "Debian"},
            "jobs": [{"targets": [{"path": "/dev/sdb", "device_model": "X1", "mount_options": null}]}]
        });
        let f = facts(&d, &["/dev/sdb".to_string(), "/dev/sdc".to_string()]);
        assert!(f.contains(&("kernel".into(), "6.1".into())));
        assert!(f.contains(&("/dev/sdb device model".into(), "X1".into())));
        assert!(!f.iter().any(|(k, _)| k.contains("mount")));
    }

    #[test]
    fn a_removed_scratch_file_is_not_a_change() {
        let d = tempfile::tempdir().unwrap();
        let doc = |pid: u32| {
            let path = d.path().join(format!("iomark-quick.{pid}.tmp"));
            serde_json::json!({"jobs": [{"targets": [
                {"path": path.display().to_string(), "fs_type": "ext4"}
            ]}]})
        };
        let stored = [record::identity(
            &d.path().join("iomark-quick.1.tmp").display().to_string(),
        )];
        assert_eq!(stored[0], d.path().display().to_string());
        let (a, b) = (facts(&doc(1), &stored), facts(&doc(2), &stored));
        assert_eq!(changes(&a, &b), None, "{a:?} {b:?}");
    }

    #[test]
    fn dates() {
        assert_eq!(civil(0), (1970, 1, 1));
        assert_eq!(civil(20_419), (2025, 11, 27));
    }
}
