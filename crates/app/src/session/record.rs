//! Every run lands in the result store (`iomark-store`): where it is (`--store PATH|URL`,
//! `IOMARK_STORE`, else `$XDG_DATA_HOME/iomark/results.db`, else
//! `~/.local/share/iomark/results.db`; a `postgres://` URL names a team's PostgreSQL
//! database), whether to record (`--no-store`), the run's tags
//! (`--tag NAME`, repeatable), and [`record`], which a command's session calls once the
//! command's own outputs are written (`Session::keep`, `Session::record`). A store that cannot take the run (corrupt, read-only, a full disk,
//! a server that cannot be reached or refuses the credentials) costs one warning line on
//! stderr, never the run's outputs or its exit status. The repetitions of `--repeat` are
//! recorded once, as one run ([`hold`]).
//!
//! The switches are taken from anywhere on the command line before the command sees it, as
//! the launcher's are; the commands that read the store (`history`, `report`, ...) keep
//! `--tag` as their own filter.

use anyhow::{anyhow, bail, Result};
use iomark_engine::RunResult;
use iomark_report::model::Figure as Fig;
use iomark_report::{read, Source};
use iomark_store::{Figure, Location, NewRun, Store};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// The store switches of the command line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StoreOpts {
    /// `--store PATH|URL`.
    pub store: Option<String>,
    /// `--no-store`.
    pub off: bool,
    /// `--tag NAME`, in order.
    pub tags: Vec<String>,
}

/// The switches with their help line, for the usage.
pub const SWITCHES: [(&str, &str); 3] = [
    (
        "--store",
        "=PATH|URL: the result store, a file or postgres://USER@HOST/DB (default $IOMARK_STORE, else $XDG_DATA_HOME/iomark/results.db)",
    ),
    ("--no-store", "do not record this run in the result store"),
    ("--tag", "=NAME: tag this run in the store (repeatable)"),
];

/// Commands whose own `--tag` filters what they read.
const READERS: [&str; 6] = ["history", "show", "store", "report", "compare", "export"];

struct Session {
    opts: StoreOpts,
    front_end: String,
}

static SESSION: OnceLock<Session> = OnceLock::new();

/// Takes the store switches out of `args` (the command word first).
pub fn take(args: Vec<String>) -> Result<(Vec<String>, StoreOpts)> {
    let reader = args.first().is_some_and(|w| READERS.contains(&w.as_str()));
    let mut o = StoreOpts::default();
    let mut rest = Vec::with_capacity(args.len());
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        let (k, inline) = match a.split_once('=') {
            Some((k, v)) if k.starts_with("--") => (k.to_string(), Some(v.to_string())),
            _ => (a.clone(), None),
        };
        match k.as_str() {
            "--no-store" if inline.is_none() => o.off = true,
            "--store" | "--tag" if !(reader && k == "--tag") => {
                let v = match inline.or_else(|| it.next()) {
                    Some(v) if !v.is_empty() => v,
                    _ => bail!("{k} needs a value"),
                };
                if k == "--store" {
                    o.store = Some(v);
                } else {
                    o.tags.push(v);
                }
            }
            _ => rest.push(a),
        }
    }
    Ok((rest, o))
}

/// Remembers the switches and the command (`run`, `quick`, ...) for [`record`].
pub fn set(opts: StoreOpts, front_end: &str) {
    let _ = SESSION.set(Session {
        opts,
        front_end: front_end.to_string(),
    });
}

fn session() -> Option<&'static Session> {
    SESSION.get()
}

/// Where the store is, from the switches and the environment; None when there is no home to
/// put it in.
pub fn location() -> Option<Location> {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let named = session().and_then(|s| s.opts.store.clone()).or_else(|| {
        std::env::var_os("IOMARK_STORE")
            .filter(|v| !v.is_empty())
            .map(|v| v.to_string_lossy().into_owned())
    });
    if let Some(n) = named {
        return Some(Location::parse(&n));
    }
    env("XDG_DATA_HOME")
        .map(|d| d.join("iomark/results.db"))
        .or_else(|| env("HOME").map(|h| h.join(".local/share/iomark/results.db")))
        .map(Location::File)
}

/// Opens the store for a command that reads or writes it.
pub fn open() -> Result<Box<dyn Store>> {
    let loc = location().ok_or_else(|| {
        anyhow!("no result store: set IOMARK_STORE or HOME, or give --store PATH")
    })?;
    Ok(iomark_store::open(&loc)?)
}

/// Set while a command's repetitions run: each repetition's own recording is held back, and
/// the repetitions are recorded together once they are over.
static HELD: AtomicBool = AtomicBool::new(false);

/// Holds back (`true`) or lets through (`false`) the recording of the runs that follow.
pub fn hold(on: bool) {
    HELD.store(on, Ordering::SeqCst);
}

/// Records a run that just ended (its own outputs already written).
pub fn record(result: &RunResult) {
    let doc = match serde_json::to_vec(result) {
        Ok(d) => d,
        Err(e) => return warn(&e.to_string()),
    };
    record_document(&doc, result, &read::from_result(result));
}

/// Records a document holding several runs (a preset's, a repetition's): `first`'s facts,
/// `src`'s figures.
pub fn record_document(doc: &[u8], first: &RunResult, src: &Source) {
    let Some(s) = session() else { return };
    if s.opts.off || HELD.load(Ordering::SeqCst) {
        return;
    }
    let Some(loc) = location() else { return };
    let format = doc_format(doc);
    let targets = targets(first);
    let figures = figures(src);
    let line = read::shell_words(&first.command_line);
    let run = NewRun {
        time_ms: first.start_unix_ms as i64,
        host: &first.host.hostname,
        front_end: &s.front_end,
        command_line: &line,
        tags: &s.opts.tags,
        targets: &targets,
        interrupted: first.interrupted,
        iomark_version: &first.iomark_version,
        format: &format,
        document: doc,
        figures: &figures,
    };
    if let Err(e) = iomark_store::open(&loc).and_then(|mut st| st.record(&run)) {
        warn(&e.to_string());
    }
}

/// The `format` a document names first (`iomark-result/1`, `iomark-preset/1`, ...).
pub fn doc_format(doc: &[u8]) -> String {
    let head = String::from_utf8_lossy(&doc[..doc.len().min(200)]);
    head.split("\"format\":")
        .nth(1)
        .and_then(|s| s.trim_start().strip_prefix('"'))
        .and_then(|s| s.split('"').next())
        .unwrap_or("iomark-result/1")
        .to_string()
}

/// One line on stderr, whatever the error's text.
pub fn warn(e: &str) {
    let e = e.split_whitespace().collect::<Vec<_>>().join(" ");
    eprintln!("iomark: warning: the run was not recorded in the result store: {e}");
}

/// The run's targets, each once, in the order of its jobs, as the store knows them (see
/// `identity`).
pub fn targets(r: &RunResult) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for t in r.jobs.iter().flat_map(|j| &j.targets) {
        let id = identity(&t.path);
        if !out.contains(&id) {
            out.push(id);
        }
    }
    out
}

/// The places a suite's run made its files in (iozone's test files, blogbench's directory)
/// as the targets of its jobs that have none of their own: probed as the job runner probes
/// its targets, under their absolute paths, so the store knows their device and file system
/// and, by [`identity`], a file the run removed by its directory.
pub fn place_targets(r: &mut RunResult, places: &[PathBuf]) {
    let probed: Vec<_> = places
        .iter()
        .filter_map(|p| iomark_engine::targets::probe_place(p))
        .collect();
    for j in r.jobs.iter_mut().filter(|j| j.targets.is_empty()) {
        j.targets = probed.clone();
    }
}

/// What a target is called in the store: its path, or for a file the run made and removed
/// again (quick's `iomark-quick.PID.tmp`, bonnie's `Bonnie.PID/file`, a job's `unlink=1` file),
/// the directory it was made in, so that runs on the same place are the same target in the
/// history and its trends. Names that are not absolute paths (`rbd:POOL/IMAGE`, NBD URIs) are
/// kept as they are.
pub fn identity(path: &str) -> String {
    let p = std::path::Path::new(path);
    if !p.is_absolute() || p.symlink_metadata().is_ok() {
        return path.to_string();
    }
    p.ancestors()
        .skip(1)
        .find(|a| a.is_dir())
        .map_or_else(|| path.to_string(), |a| a.display().to_string())
}

/// The figures a store query reads: every job's directions' headline figures (one per
/// repetition, in their order, so a trend shows their spread), and the numbers of the suites'
/// tables.
pub fn figures(src: &Source) -> Vec<Figure> {
    let mut out = Vec::new();
    for j in &src.jobs {
        for d in &j.dirs {
            for f in Fig::ALL {
                for value in d.samples(f) {
                    out.push(Figure {
                        job: j.name.clone(),
                        direction: d.dir.to_string(),
                        figure: f.key().to_string(),
                        value,
                        unit: unit(f).to_string(),
                    });
                }
            }
        }
    }
    for t in &src.tables {
        let keys = t.kind.key_columns();
        for row in &t.rows {
            // A row's name is its naming cells (a cluster's job, direction and rank or host),
            // so that no two rows of a table give the same figure the same key.
            let name = row
                .iter()
                .take(keys)
                .map(|c| c.text())
                .collect::<Vec<_>>()
                .join(" / ");
            for (c, cell) in t.columns.iter().zip(row).skip(keys) {
                if let Some(value) = cell.num() {
                    out.push(Figure {
                        job: format!("{}: {}", t.kind.suite(), t.title),
                        direction: name.clone(),
                        figure: c.clone(),
                        value,
                        unit: String::new(),
                    });
                }
            }
        }
    }
    out
}

fn unit(f: Fig) -> &'static str {
    match f {
        Fig::Iops => "IOPS",
        Fig::MBps => "MB/s",
        _ => "us",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_removed_file_is_known_by_its_directory() {
        let d = tempfile::tempdir().unwrap();
        let kept = d.path().join("kept.dat");
        std::fs::write(&kept, b"x").unwrap();
        let kept = kept.display().to_string();
        assert_eq!(identity(&kept), kept);
        let gone = d.path().join("Bonnie.123").join("file");
        assert_eq!(
            identity(&gone.display().to_string()),
            d.path().display().to_string()
        );
        for name in [
            "rbd:pool/image",
            "nbd+unix:///?socket=/x/y",
            "relative/gone.dat",
        ] {
            assert_eq!(identity(name), name);
        }
    }

    #[test]
    fn a_suites_jobs_get_the_places_it_made_its_files_in() {
        use iomark_engine::result::JobResult;
        let d = tempfile::tempdir().unwrap();
        let (file, blogs) = (d.path().join("iozone.tmp"), d.path().join("blogs"));
        std::fs::create_dir(&blogs).unwrap();
        let mut r = RunResult {
            jobs: vec![JobResult::default(), JobResult::default()],
            ..RunResult::default()
        };
        r.jobs[1].targets = vec![iomark_engine::targets::probe(d.path()).unwrap()];
        r.jobs[1].targets[0].path = "own".into();
        place_targets(&mut r, &[file.clone(), blogs.clone()]);
        let paths: Vec<&str> = r.jobs[0].targets.iter().map(|t| t.path.as_str()).collect();
        assert_eq!(paths, [file.to_str().unwrap(), blogs.to_str().unwrap()]);
        assert_eq!(r.jobs[1].targets[0].path, "own");
        // The file the run removed is its directory in the store, the directory itself.
        let dir = d.path().display().to_string();
        assert_eq!(
            targets(&r),
            [dir.clone(), blogs.display().to_string(), "own".into()]
        );
    }

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn switches_are_taken_from_anywhere() {
        let (rest, o) = take(v(&[
            "run",
            "--name=a",
            "--store",
            "/x.db",
            "--tag=n",
            "--no-store",
            "--tag",
            "m",
        ]))
        .unwrap();
        assert_eq!(rest, v(&["run", "--name=a"]));
        assert_eq!(o.store.as_deref(), Some("/x.db"));
        assert_eq!(o.tags, v(&["n", "m"]));
        assert!(o.off);
        // The readers keep --tag as their filter.
        let (rest, o) = take(v(&["history", "--tag", "n", "--store=/y"])).unwrap();
        assert_eq!(rest, v(&["history", "--tag", "n"]));
        assert!(o.tags.is_empty());
        assert!(take(v(&["run", "--store"])).is_err());
        assert!(take(v(&["run", "--tag="])).is_err());
    }

    #[test]
    fn each_rank_of_a_cluster_table_keeps_its_own_figures() {
        use iomark_engine::result::{SuiteTable, TableCell, TableKind};
        let mut t = SuiteTable::new(
            TableKind::ClusterPerRank,
            "per rank",
            &["job", "direction", "rank", "host", "iops"],
        );
        for (rank, iops) in [(0.0, 10.0), (1.0, 20.0)] {
            t.rows.push(vec![
                TableCell::Text("j".into()),
                TableCell::Text("read".into()),
                TableCell::Num(rank),
                TableCell::Text("h".into()),
                TableCell::Num(iops),
            ]);
        }
        let src = Source {
            tables: vec![t],
            ..Source::default()
        };
        let f = figures(&src);
        // Two figures, one per rank, with different keys; the rank is a name, not a figure.
        assert_eq!(f.len(), 2);
        assert_eq!(f[0].direction, "j / read / 0 / h");
        assert_eq!(f[1].direction, "j / read / 1 / h");
        assert_eq!((f[0].figure.as_str(), f[1].value), ("iops", 20.0));
    }

    #[test]
    fn the_usage_names_every_switch() {
        for (s, _) in SWITCHES {
            assert!(crate::commands::usage().contains(s), "{s}");
        }
    }

    #[test]
    fn the_format_is_read_from_the_document() {
        assert_eq!(
            doc_format(b"{\"format\": \"iomark-preset/1\", \"x\":1}"),
            "iomark-preset/1"
        );
        assert_eq!(doc_format(b"{\"x\":1}"), "iomark-result/1");
    }
}
