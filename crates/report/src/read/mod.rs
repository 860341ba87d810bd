//! Readers: a path (an iomark result file, fio JSON/json+ output, or a directory of them)
//! becomes a [`Source`]. The kind of a file is recognised from its content, not its name.

pub mod cluster;
mod fio_json;
pub mod fio_log;
mod iomark;
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
    let bytes = std::fs::read(path).map_err(|source| ReportError::Read {
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
    } else {
        return Err(ReportError::UnknownFormat {
            path: path.to_path_buf(),
            detail: "no \"format\" (iomark) or \"fio version\"/\"jobs\" (fio) key".into(),
        });
    };
    src.paths = vec![path.display().to_string()];
    src.repetitions = src.repetitions.max(1);
    Ok(src)
}

/// JSON, tolerating text ahead of it (fio prints its banner before the JSON when
/// `--output-format` follows a `--name`).
fn parse_json(bytes: &[u8]) -> Result<serde_json::Value, serde_json::Error> {
    match serde_json::from_slice::<serde_json::Value>(bytes) {
        Ok(v) => Ok(v),
        Err(e) => {
            let text = String::from_utf8_lossy(bytes);
            if let Some(at) = text.find("\n{") {
                if let Ok(v) = serde_json::from_str(&text[at + 1..]) {
                    return Ok(v);
                }
            }
            Err(e)
        }
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
/// are appended; jobs only in `s` are noted.
fn add_repetition(acc: &mut Source, s: Source) {
    acc.repetitions += 1;
    acc.paths.extend(s.paths);
    acc.tables.extend(s.tables);
    for j in s.jobs {
        match acc.jobs.iter_mut().find(|a| a.name == j.name) {
            Some(a) => {
                for d in j.dirs {
                    match a.dirs.iter_mut().find(|x| x.dir == d.dir) {
                        Some(x) => x.reps.extend(d.reps),
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
        if !acc.notes.contains(&n) {
            acc.notes.push(n);
        }
    }
}
