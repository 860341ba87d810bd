//! Readers: a path (an iomark result file, fio JSON/json+ output, or a directory of them)
//! becomes a [`Source`]. The kind of a file is recognised from its content, not its name.

pub mod cluster;
mod fio_json;
pub mod fio_log;
mod iomark;
mod log_line;
mod quick_json;
pub mod resample;
pub use iomark::{from_result, shell_words};
pub mod units;

use crate::model::Source;
use crate::ReportError;
use std::path::Path;

/// Read one input. A directory's `*.json` files are repetitions of the same run: their jobs
/// are matched by name and every repetition's headline figures are kept, so comparisons can
/// weigh differences against the spread. The label is `label` or the file (directory) name
/// without its extension.
pub fn load(path: &Path, label: Option<&str>) -> Result<Source, ReportError> {
    let default_label = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    let mut src = if path.is_dir() {
        load_dir(path)?
    } else {
        load_file(path)?
    };
    src.label = label.map(str::to_string).unwrap_or(default_label);
    Ok(src)
}

/// Read one file.
pub fn load_file(path: &Path) -> Result<Source, ReportError> {
    let bytes = iomark_output::outfile::read_input(
        path,
        iomark_output::outfile::MAX_RESULT_BYTES,
        "a result file",
    )
    .map_err(|source| ReportError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    parse(path, &bytes)
}

/// Recognise and read the content of one file.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Source, ReportError> {
    let v = parse_json(bytes).map_err(|e| ReportError::NotJson {
        path: path.to_path_buf(),
        detail: e.to_string(),
    })?;
    let mut src = if v.get("format").and_then(|f| f.as_str()).is_some() {
        iomark::read(path, bytes, &v)?
    } else if v.get("fio version").is_some() || v.get("jobs").is_some() {
        fio_json::read(path, &v, path.parent().unwrap_or(Path::new(".")))?
    } else if quick_json::is_quick(&v) {
        quick_json::read(path, &v)?
    } else {
        return Err(ReportError::UnknownFormat {
            path: path.to_path_buf(),
            detail: "no \"format\" (iomark), \"tests\" (iomark quick --json) or \"fio version\"/\"jobs\" (fio) key".into(),
        });
    };
    src.paths = vec![path.display().to_string()];
    src.repetitions = src.repetitions.max(1);
    Ok(src)
}

/// JSON, tolerating text ahead of it (fio's normal output before the JSON with
/// `--output-format=normal,json`, its banner when `--output-format` follows a `--name`) and a
/// stream of reports (`--status-interval` with JSON output: interim reports, then the final
/// one): the last whole document is the result.
fn parse_json(bytes: &[u8]) -> Result<serde_json::Value, serde_json::Error> {
    let first = match last_document(bytes) {
        Ok(v) => return Ok(v),
        Err(e) => e,
    };
    // Text ahead: try from each line that opens an object.
    let mut at = 0;
    while let Some(n) = memchr_nl_brace(&bytes[at..]) {
        let start = at + n + 1;
        if let Ok(v) = last_document(&bytes[start..]) {
            return Ok(v);
        }
        at = start;
    }
    Err(first)
}

/// The position of the next "\n{" in `b`.
fn memchr_nl_brace(b: &[u8]) -> Option<usize> {
    b.windows(2).position(|w| w == b"\n{")
}

/// The last of one or more JSON documents that make up all of `bytes` (white space between).
fn last_document(bytes: &[u8]) -> Result<serde_json::Value, serde_json::Error> {
    let mut last = None;
    for v in serde_json::Deserializer::from_slice(bytes).into_iter::<serde_json::Value>() {
        last = Some(v?);
    }
    match last {
        Some(v) => Ok(v),
        None => serde_json::from_slice(bytes),
    }
}

fn load_dir(dir: &Path) -> Result<Source, ReportError> {
    let rd = std::fs::read_dir(dir).map_err(|source| ReportError::Read {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut files: Vec<_> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(ReportError::EmptyDir {
            path: dir.to_path_buf(),
        });
    }
    let mut out: Option<Source> = None;
    for f in &files {
        let s = load_file(f)?;
        match &mut out {
            None => out = Some(s),
            Some(acc) => add_repetition(acc, s),
        }
    }
    let mut out = out.expect("at least one file");
    if out.repetitions > 1 {
        out.notes.push(format!(
            "figures are the mean of {} repetitions ({} files in {})",
            out.repetitions,
            files.len(),
            dir.display()
        ));
    }
    Ok(out)
}

/// Add `s` to `acc` as one more repetition: headlines of jobs and directions matched by name
/// are appended and their latency histograms merged; jobs only in `s` are noted.
fn add_repetition(acc: &mut Source, s: Source) {
    acc.repetitions += 1;
    acc.paths.extend(s.paths);
    acc.tables.extend(s.tables);
    for j in s.jobs {
        match acc.jobs.iter_mut().find(|a| a.name == j.name) {
            Some(a) => {
                for d in j.dirs {
                    match a.dirs.iter_mut().find(|x| x.dir == d.dir) {
                        Some(x) => x.add_repetition(d),
                        None => a.dirs.push(d),
                    }
                }
            }
            None => {
                acc.notes.push(format!(
                    "job '{}' is in only some of the repetitions",
                    j.name
                ));
                acc.jobs.push(j);
            }
        }
    }
    for n in s.notes {
        acc.add_note(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{DirFigures, Figure, Job, Lat};

    fn rep(bins: Vec<(f64, u64)>) -> Source {
        let n = bins.iter().map(|b| b.1).sum();
        let mut d = DirFigures {
            dir: "read",
            io_bytes: n * 4096,
            total_ios: n,
            runtime_ms: 1000,
            clat: Some(Lat {
                n,
                min_ns: bins[0].0,
                max_ns: bins[bins.len() - 1].0,
                mean_ns: bins.iter().map(|b| b.0 * b.1 as f64).sum::<f64>() / n as f64,
                percentiles: vec![(50.0, 0.0), (99.0, 0.0)],
                bins,
                ..Default::default()
            }),
            ..Default::default()
        };
        d.reps.push(d.headline());
        Source {
            repetitions: 1,
            jobs: vec![Job {
                name: "j".into(),
                dirs: vec![d],
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    /// The distribution charts of repeated runs hold every repetition (histograms add), so
    /// the CDF reaches the headline's p99 (a mean over the runs) instead of ending at the
    /// first run's.
    #[test]
    fn repetitions_merge_their_histograms() {
        let mut acc = rep(vec![(1000.0, 99), (3000.0, 1)]);
        add_repetition(&mut acc, rep(vec![(1000.0, 90), (12000.0, 10)]));
        add_repetition(&mut acc, rep(vec![(1000.0, 90), (12000.0, 10)]));
        let d = &acc.jobs[0].dirs[0];
        let l = d.clat.as_ref().unwrap();
        assert_eq!(l.n, 300);
        assert_eq!(l.bins, vec![(1000.0, 279), (3000.0, 1), (12000.0, 20)]);
        let p99_us = d.figure(Figure::P99).unwrap();
        let cdf_end_us = l.cdf().last().unwrap().0 / 1000.0;
        assert!(
            cdf_end_us >= p99_us,
            "CDF ends at {cdf_end_us} us, p99 {p99_us} us"
        );
        assert_eq!(l.percentiles, vec![(50.0, 1000.0), (99.0, 12000.0)]);
        assert_eq!(l.max_ns, 12000.0);
        assert!((l.mean_ns - (279_000.0 + 3000.0 + 240_000.0) / 300.0).abs() < 1e-6);
        assert!(!d.dist_first_only);
        assert_eq!(d.spread(Figure::P99), Some((1.0, 12.0)));
        assert!(d.noisy(Figure::P99) && !d.noisy(Figure::Iops));
        // Without a histogram to merge, the first run's is kept and said to be so.
        let mut acc = rep(vec![(1000.0, 1)]);
        let mut other = rep(vec![(2000.0, 1)]);
        other.jobs[0].dirs[0].clat.as_mut().unwrap().bins.clear();
        add_repetition(&mut acc, other);
        let d = &acc.jobs[0].dirs[0];
        assert!(d.dist_first_only);
        assert_eq!(d.clat.as_ref().unwrap().n, 1);
    }

    #[test]
    fn json_after_text_and_streams_of_reports_are_read() {
        assert_eq!(parse_json(b"{\"a\":1}").unwrap()["a"], 1);
        // normal,json: fio's text, then the JSON.
        let nj = b"a: (g=0): rw=read\n  read: IOPS=1\n{\n \"jobs\": [], \"n\": 2\n}\n";
        assert_eq!(parse_json(nj).unwrap()["n"], 2);
        // --status-interval: interim reports, then the final one.
        let stream = b"{\"n\":1}\n{\"n\":2}\n{\"n\":3}\n";
        assert_eq!(parse_json(stream).unwrap()["n"], 3);
        let both = b"banner\n{\"n\":1}\n{\"n\":4}\n";
        assert_eq!(parse_json(both).unwrap()["n"], 4);
        // A cut document is still an error.
        assert!(parse_json(b"{\"n\":1}\n{\"n\":").is_err());
        assert!(parse_json(b"text only\n").is_err());
    }
}
