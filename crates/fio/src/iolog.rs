//! fio's I/O logs (`write_iolog`, `read_iolog`): the header that marks a recorded log, and
//! reading a version 2 or 3 log into the replay the job model runs, with the `replay_*`
//! options applied.
//!
//! Version 2: `path action` (`add`, `open`, `close`) and `path action offset length`
//! (`read`, `write`, `trim`, `sync`, `datasync`, `wait`: pause until `offset` ms after the
//! job started, as fio 3.33 does). Version 3: the same lines, each after a timestamp in µs; the
//! gap between two timestamps (scaled by `replay_time_scale`) is the delay before an entry, and
//! `wait` is ignored.

use iomark_engine::job::{Replay, TraceAct, TraceEntry};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The first line of a log iomark records (fio's version 3).
pub const HEADER_V3: &str = "fio version 3 iolog";
const HEADER_V2: &str = "fio version 2 iolog";

/// The `replay_*` options of a job.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayOpts {
    pub no_stall: bool,
    pub redirect: Option<PathBuf>,
    /// Offsets are divided by this (1 = as recorded).
    pub scale: u64,
    /// Offsets are rounded down to a multiple of this power of two (0 = as recorded).
    pub align: u64,
    /// Percent of the recorded pace (200 = twice as fast).
    pub time_scale: u32,
    /// Actions left out (`read`, `write`, `trim`, `sync`; `sync` covers `datasync`).
    pub skip: Vec<TraceAct>,
}

impl Default for ReplayOpts {
    fn default() -> Self {
        ReplayOpts {
            no_stall: false,
            redirect: None,
            scale: 1,
            align: 0,
            time_scale: 100,
            skip: Vec::new(),
        }
    }
}

/// A log read for replay: its files (in the order they were added) and its entries.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadLog {
    pub files: Vec<PathBuf>,
    pub replay: Replay,
}

#[derive(Clone, Debug, Error, PartialEq)]
pub enum IologError {
    #[error("cannot read the I/O log {path}: {why}")]
    Read { path: String, why: String },
    #[error("{path} is not an fio I/O log of version 2 or 3 (its first line is {first:?}; version 1 logs and blktrace files are not supported)")]
    Version { path: String, first: String },
    #[error("{path}, line {line}: {why}: {text:?}")]
    Line {
        path: String,
        line: usize,
        why: String,
        text: String,
    },
    #[error("{path} holds no I/O to replay")]
    Empty { path: String },
}

/// The words `replay_skip` takes, comma separated.
pub fn parse_skip(v: &str) -> Result<Vec<TraceAct>, crate::values::ValueError> {
    let mut out = Vec::new();
    for w in v.trim().split(',') {
        out.push(match w.trim() {
            "read" => TraceAct::Read,
            "write" => TraceAct::Write,
            "trim" => TraceAct::Trim,
            "sync" => TraceAct::Sync,
            other => return Err(crate::values::ValueError::SkipType(other.to_string())),
        });
    }
    Ok(out)
}

/// Read the log at `path` (`-` is standard input) for replay.
pub fn read(path: &str, opts: &ReplayOpts) -> Result<ReadLog, IologError> {
    let text = if path == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).map(|_| s)
    } else {
        std::fs::read_to_string(Path::new(path))
    }
    .map_err(|e| IologError::Read {
        path: path.to_string(),
        why: e.to_string(),
    })?;
    parse(path, &text, opts)
}

/// Parse a log's text.
pub fn parse(path: &str, text: &str, opts: &ReplayOpts) -> Result<ReadLog, IologError> {
    let mut lines = text.lines().enumerate();
    let first = lines.next().map(|(_, l)| l).unwrap_or("");
    let v3 = if first.starts_with(HEADER_V3) {
        true
    } else if first.starts_with(HEADER_V2) {
        false
    } else {
        return Err(IologError::Version {
            path: path.to_string(),
            first: first.chars().take(60).collect(),
        });
    };
    let mut log = LogReader {
        opts,
        v3,
        files: Vec::new(),
        names: Vec::new(),
        entries: Vec::new(),
        last_t: 0,
        carried: 0,
    };
    for (i, line) in lines {
        log.line(line).map_err(|why| IologError::Line {
            path: path.to_string(),
            line: i + 1,
            why: why.to_string(),
            text: line.to_string(),
        })?;
    }
    if !log.entries.iter().any(|e| e.act.dir().is_some()) {
        return Err(IologError::Empty {
            path: path.to_string(),
        });
    }
    Ok(ReadLog {
        files: log.files,
        replay: Replay {
            entries: log.entries,
            stall: !opts.no_stall,
        },
    })
}

/// The state of reading a log's lines after the header.
struct LogReader<'a> {
    opts: &'a ReplayOpts,
    v3: bool,
    /// The files added, in order, and their names as written (or redirected).
    files: Vec<PathBuf>,
    names: Vec<String>,
    entries: Vec<TraceEntry>,
    /// Version 3: the previous timestamp, and the delay carried from skipped lines.
    last_t: u64,
    carried: u64,
}

impl LogReader<'_> {
    /// Take one line (blank lines are skipped); the reason when it is wrong.
    fn line(&mut self, line: &str) -> Result<(), &'static str> {
        let mut w: Vec<&str> = line.split_whitespace().collect();
        if w.is_empty() {
            return Ok(());
        }
        let mut delay = 0u64;
        if self.v3 {
            delay = self.timestamp(w[0])?;
            w.remove(0);
            if w.is_empty() {
                return Err("expected 'path action' after the timestamp");
            }
        }
        let name = match &self.opts.redirect {
            Some(r) => r.display().to_string(),
            None => w[0].to_string(),
        };
        match w.len() {
            2 => {
                self.file_action(w[1], name)?;
                self.carried += delay;
            }
            4 => self.io_action(&w, &name, delay)?,
            _ => return Err("expected 'path action' or 'path action offset length'"),
        }
        Ok(())
    }

    /// Version 3: the delay before an entry stamped `word` (µs, scaled by `replay_time_scale`).
    fn timestamp(&mut self, word: &str) -> Result<u64, &'static str> {
        let t: u64 = word.parse().map_err(|_| "expected a timestamp first")?;
        let mut delay = 0u64;
        if self.last_t != 0 && !self.opts.no_stall && t >= self.last_t {
            delay = (t - self.last_t) * 100 / self.opts.time_scale.max(1) as u64;
        }
        self.last_t = t;
        Ok(delay)
    }

    /// `path add|open|close`: add the file once; open and close only name an added file.
    fn file_action(&mut self, action: &str, name: String) -> Result<(), &'static str> {
        match action {
            "add" => {
                if !self.names.contains(&name) {
                    self.names.push(name.clone());
                    self.files.push(PathBuf::from(&name));
                }
            }
            "open" | "close" => {
                if !self.names.contains(&name) {
                    return Err("the file was not added before");
                }
            }
            _ => return Err("unknown file action (add, open, close)"),
        }
        Ok(())
    }

    /// `path action offset length`: an entry to replay, unless its action is skipped (then its
    /// delay carries to the next entry).
    fn io_action(&mut self, w: &[&str], name: &str, delay: u64) -> Result<(), &'static str> {
        let act = io_act(w[1])?;
        let offset: u64 = w[2].parse().map_err(|_| "expected an offset")?;
        let len: u64 = w[3].parse().map_err(|_| "expected a length")?;
        let opts = self.opts;
        let skipped = opts
            .skip
            .iter()
            .any(|&s| s == act || (s == TraceAct::Sync && act == TraceAct::Datasync));
        if (act == TraceAct::Wait && (self.v3 || opts.no_stall)) || skipped {
            self.carried += delay;
            return Ok(());
        }
        let Some(file) = self.names.iter().position(|n| *n == name) else {
            return Err("the file was not added before");
        };
        let (delay_us, offset, len) = if act == TraceAct::Wait {
            (offset * 1000, 0, 0)
        } else {
            let mut off = offset / opts.scale.max(1);
            if opts.align > 0 {
                off &= !(opts.align - 1);
            }
            (delay + self.carried, off, len)
        };
        self.carried = 0;
        self.entries.push(TraceEntry {
            delay_us,
            file: file as u32,
            act,
            offset,
            len,
        });
        Ok(())
    }
}

/// The action word of an I/O line.
fn io_act(word: &str) -> Result<TraceAct, &'static str> {
    Ok(match word {
        "read" => TraceAct::Read,
        "write" => TraceAct::Write,
        "trim" => TraceAct::Trim,
        "sync" => TraceAct::Sync,
        "datasync" => TraceAct::Datasync,
        "wait" => TraceAct::Wait,
        _ => return Err("unknown action (read, write, trim, sync, datasync, wait)"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const V3: &str = "fio version 3 iolog\n\
        27 /d/a add\n\
        163 /d/a open\n\
        168 /d/a write 0 16384\n\
        208 /d/a write 32768 16384\n\
        216 /d/a sync 32768 0\n\
        15791 /d/a read 49152 4096\n\
        15857 /d/a close\n";

    fn entry(delay_us: u64, act: TraceAct, offset: u64, len: u64) -> TraceEntry {
        TraceEntry {
            delay_us,
            file: 0,
            act,
            offset,
            len,
        }
    }

    #[test]
    fn version_3_delays_are_timestamp_gaps() {
        let l = parse("x", V3, &ReplayOpts::default()).unwrap();
        assert_eq!(l.files, [PathBuf::from("/d/a")]);
        assert_eq!(
            l.replay.entries,
            [
                entry(141, TraceAct::Write, 0, 16384),
                entry(40, TraceAct::Write, 32768, 16384),
                entry(8, TraceAct::Sync, 32768, 0),
                entry(15575, TraceAct::Read, 49152, 4096),
            ]
        );
        assert!(l.replay.stall);
        let fast = ReplayOpts {
            time_scale: 200,
            ..ReplayOpts::default()
        };
        let l = parse("x", V3, &fast).unwrap();
        assert_eq!(l.replay.entries[3].delay_us, 15575 / 2);
        let none = ReplayOpts {
            no_stall: true,
            ..ReplayOpts::default()
        };
        let l = parse("x", V3, &none).unwrap();
        assert!(l.replay.entries.iter().all(|e| e.delay_us == 0));
        assert!(!l.replay.stall);
        // A timestamp alone on a line is refused with the line, not a crash.
        let e = parse("x", &format!("{HEADER_V3}\n5\n"), &none).unwrap_err();
        assert!(e.to_string().contains("after the timestamp"), "{e}");
    }

    #[test]
    fn redirect_scale_align_and_skip() {
        let opts = ReplayOpts {
            redirect: Some(PathBuf::from("/dev/other")),
            scale: 4,
            align: 4096,
            skip: parse_skip("read,sync").unwrap(),
            ..ReplayOpts::default()
        };
        let l = parse("x", V3, &opts).unwrap();
        assert_eq!(l.files, [PathBuf::from("/dev/other")]);
        let offs: Vec<_> = l.replay.entries.iter().map(|e| e.offset).collect();
        assert_eq!(offs, [0, 8192]);
        assert!(parse_skip("reads")
            .unwrap_err()
            .to_string()
            .contains("reads"));
    }

    #[test]
    fn version_2_with_waits_and_two_files() {
        let v2 = "fio version 2 iolog\n/a add\n/b add\n/a open\n/b open\n\
                  /a write 0 4096\n/b wait 250 0\n/b read 8192 512\n/b datasync 0 0\n";
        let l = parse("x", v2, &ReplayOpts::default()).unwrap();
        assert_eq!(l.files.len(), 2);
        let e = &l.replay.entries;
        assert_eq!((e[1].act, e[1].delay_us), (TraceAct::Wait, 250_000));
        assert_eq!((e[2].file, e[2].offset, e[2].len), (1, 8192, 512));
        assert_eq!(e[3].act, TraceAct::Datasync);
        let l = parse(
            "x",
            v2,
            &ReplayOpts {
                no_stall: true,
                ..ReplayOpts::default()
            },
        )
        .unwrap();
        assert!(l.replay.entries.iter().all(|e| e.act != TraceAct::Wait));
    }

    #[test]
    fn bad_logs_are_named() {
        let e = parse("l", "fio version 1 iolog\n", &ReplayOpts::default()).unwrap_err();
        assert!(e.to_string().contains("version 2 or 3"), "{e}");
        let e = parse(
            "l",
            "fio version 2 iolog\n/a add\n/a jump 0 1\n",
            &ReplayOpts::default(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("line 3"), "{e}");
        let e = parse(
            "l",
            "fio version 2 iolog\n/a read 0 1\n",
            &ReplayOpts::default(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("not added"), "{e}");
        let e = parse("l", "fio version 2 iolog\n/a add\n", &ReplayOpts::default()).unwrap_err();
        assert_eq!(e, IologError::Empty { path: "l".into() });
    }
}
