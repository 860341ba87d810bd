//! fio's log files (`write_bw_log`, `write_iops_log`, `write_lat_log`): one line per entry,
//! `time_ms, value, ddir, bs[, offset], prio` (`time_ms, avg, max, ...` with
//! `log_max_value=2`), in files named `<prefix>_<kind>.<N>.log`; `write_hist_log` gives
//! `<prefix>_clat_hist.<N>.log` with `time_ms, ddir, bs, bin0, ..., bin1855` per period, the
//! completion-latency counts of that period in fio's 1856 bins (`tools/hist/` reads them).

use super::group::spec_of;
use iomark_engine::job::LogSpec;
use iomark_engine::result::{HistLogEntry, LogEntry};
use iomark_engine::{RunPlan, RunResult};
use iomark_output::outfile;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Writes a log whole through a temporary file beside it (`iomark_output::outfile`).
fn write_whole(path: &Path, body: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    outfile::write_with(path, |tmp| {
        let f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(tmp)?;
        let mut w = io::BufWriter::new(f);
        body(&mut w).and_then(|()| w.flush())
    })
    .map_err(|e| io::Error::other(format!("{}: {e}", path.display())))
}

fn write_log(path: &Path, entries: &[LogEntry], logs: &LogSpec) -> io::Result<()> {
    match logs.compressed_chunk {
        Some(chunk) => {
            let z = super::compressed_log::deflate_log(entries, logs.log_offset, chunk);
            write_whole(path, |w| w.write_all(&z))
        }
        None => write_whole(path, |w| write_log_to(w, entries, logs)),
    }
}

/// The file a log is written to: `<name>.fz` when stored compressed, as fio names it.
fn stored_path(p: PathBuf, logs: &LogSpec) -> PathBuf {
    if logs.compressed_chunk.is_some() {
        let mut s = p.into_os_string();
        s.push(".fz");
        PathBuf::from(s)
    } else {
        p
    }
}

/// The last column of an entry: the priority value in hex (`log_prio`), else 1 for a
/// real-time request and 0 for any other.
fn prio_column(w: &mut dyn Write, prio: u16, log_prio: bool) -> io::Result<()> {
    if log_prio {
        writeln!(w, "0x{prio:04x}")
    } else {
        writeln!(w, "{}", u8::from(prio >> 13 == 1))
    }
}

fn write_log_to(w: &mut dyn Write, entries: &[LogEntry], logs: &LogSpec) -> io::Result<()> {
    let with_offset = logs.log_offset;
    for e in entries {
        write!(w, "{}, {}, ", e.t_ms, e.value)?;
        if let Some(m) = e.max {
            write!(w, "{m}, ")?;
        }
        write!(w, "{}, {}, ", e.ddir, e.bs)?;
        if with_offset {
            write!(w, "{}, ", e.offset)?;
        }
        prio_column(w, e.prio, logs.log_prio)?;
    }
    Ok(())
}

fn write_hist_log(path: &Path, entries: &[HistLogEntry]) -> io::Result<()> {
    write_whole(path, |w| write_hist_log_to(w, entries))
}

fn write_hist_log_to(w: &mut dyn Write, entries: &[HistLogEntry]) -> io::Result<()> {
    for e in entries {
        write!(w, "{}, {}, {}", e.t_ms, e.ddir, e.bs)?;
        for c in e.hist.fio_bins() {
            write!(w, ", {c}")?;
        }
        writeln!(w)?;
    }
    Ok(())
}

/// The name of a log: `<prefix>_<kind>[.<N>].log`, relative names placed in `dir`.
fn log_path(prefix: &str, kind: &str, per_job: bool, thread_number: u32, dir: &Path) -> PathBuf {
    let file = if per_job {
        format!("{prefix}_{kind}.{}.log", thread_number + 1)
    } else {
        format!("{prefix}_{kind}.log")
    };
    let p = PathBuf::from(file);
    if p.is_absolute() {
        p
    } else {
        dir.join(p)
    }
}

/// The kinds of log a job asks for, each with its prefix.
fn log_kinds(logs: &LogSpec) -> Vec<(&str, &'static str)> {
    let mut out = Vec::new();
    for (prefix, kinds) in [
        (&logs.bw_log, &["bw"][..]),
        (&logs.iops_log, &["iops"][..]),
        (&logs.lat_log, &["slat", "clat", "lat"][..]),
        (&logs.hist_log, &["clat_hist"][..]),
    ] {
        if let Some(p) = prefix {
            out.extend(kinds.iter().map(|k| (p.as_str(), *k)));
        }
    }
    out
}

/// Every log file a plan's jobs would write (for the checks before a run).
pub fn log_paths(plan: &RunPlan, dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut thread_number = 0u32;
    for job in &plan.jobs {
        for _ in 0..job.numjobs.max(1) {
            for (prefix, kind) in log_kinds(&job.logs) {
                let p = log_path(prefix, kind, job.logs.per_job_logs, thread_number, dir);
                let p = if kind == "clat_hist" {
                    p
                } else {
                    stored_path(p, &job.logs)
                };
                if !out.contains(&p) {
                    out.push(p);
                }
            }
            thread_number += 1;
        }
    }
    out
}

/// Write every log the jobs asked for; relative names are placed in `dir`. Returns the files.
pub fn write_logs(result: &RunResult, dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for job in &result.jobs {
        let spec = spec_of(result, job);
        let logs = &spec.logs;
        if !logs.any() || !job.ran {
            continue;
        }
        let name = |prefix: &str, kind: &str| -> PathBuf {
            log_path(prefix, kind, logs.per_job_logs, job.thread_number, dir)
        };
        let mut emit =
            |prefix: &Option<String>, kind: &str, entries: &[LogEntry]| -> io::Result<()> {
                if let Some(prefix) = prefix {
                    let p = stored_path(name(prefix, kind), logs);
                    write_log(&p, entries, logs)?;
                    written.push(p);
                }
                Ok(())
            };
        emit(&logs.bw_log, "bw", &job.series.bw)?;
        emit(&logs.iops_log, "iops", &job.series.iops)?;
        emit(&logs.lat_log, "slat", &job.series.slat)?;
        emit(&logs.lat_log, "clat", &job.series.clat)?;
        emit(&logs.lat_log, "lat", &job.series.lat)?;
        if let Some(prefix) = &logs.hist_log {
            let p = name(prefix, "clat_hist");
            write_hist_log(&p, &job.series.hist)?;
            written.push(p);
        }
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::group::tests as fx;

    #[test]
    fn writes_fio_named_logs() {
        let mut r = fx::psync_write();
        r.plan.jobs[0].logs.bw_log = Some("t".into());
        r.plan.jobs[0].logs.lat_log = Some("t".into());
        r.plan.jobs[0].logs.per_job_logs = true;
        let dir = std::env::temp_dir().join(format!("iomark-logs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let files = write_logs(&r, &dir).unwrap();
        let names: Vec<String> = files
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        let n = r.jobs[0].thread_number + 1;
        assert!(names.contains(&format!("t_bw.{n}.log")), "{names:?}");
        assert!(names.contains(&format!("t_clat.{n}.log")));
        let bw = std::fs::read_to_string(dir.join(format!("t_bw.{n}.log"))).unwrap();
        assert_eq!(bw.lines().next().unwrap(), "500, 1000, 0, 0, 0");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
