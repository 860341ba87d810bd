//! After a run of `iomark run`: the report, the notes (into the output; on stderr when asked or
//! when the run did not succeed), failed jobs and bad blocks on stderr, then every output
//! (fio's report, aggregate bandwidth logs, verify state, logs, the result file) and the exit
//! status.

use super::{bad_blocks, datafiles, Head, Ready};
use crate::progress::periodic::{self, Sink};
use crate::report_cmd;
use crate::session::{exit, outputs, signals, Session};
use iomark_engine::note::Note;
use iomark_engine::RunResult;
use iomark_fio::explain;
use iomark_fio::output::{self, agg_bw::AggBw};
use std::path::Path;

/// What a run left for the outputs.
pub struct Ran {
    pub result: RunResult,
    pub agg_bw: Option<AggBw>,
    pub head: Head,
    pub sink: Sink,
}

/// Writes every output of the run; the exit status.
pub fn finish(r: &Ready, mut ran: Ran, session: &Session) -> i32 {
    let result = &mut ran.result;
    if signals::interrupted() {
        result.interrupted = true;
    }
    let mut code = 0;
    if let Some(path) = &r.report {
        code = i32::from(!report_cmd::report_run(result, path, "iomark run"));
    }
    add_notes(r, result);
    for j in result.jobs.iter().filter(|j| j.error != 0) {
        eprintln!(
            "{}: job {} failed: {}",
            super::lead(r.tool),
            j.name,
            j.failure
                .as_ref()
                .map_or_else(|| format!("error {}", j.error), explain::failure)
        );
    }
    bad_blocks::report(result);
    if !write_outputs(r, &ran) {
        code = 1;
    }
    let result = &ran.result;
    session.record(result);
    if result.interrupted {
        eprintln!(
            "{}: interrupted; the results above cover the time before the interruption",
            super::lead(r.tool)
        );
        return exit::INTERRUPTED;
    }
    if result.jobs.iter().any(|j| j.error != 0) {
        return exit::FAILED;
    }
    code
}

/// Notes fio does not print go into the output; on stderr too when asked or when the run did
/// not succeed. The command line's warnings come first.
fn add_notes(r: &Ready, result: &mut RunResult) {
    let failed = result.interrupted || result.jobs.iter().any(|j| j.error != 0);
    let notes_loud = r.loud() || failed;
    for n in &result.notes {
        match n {
            // Every error of a job that asked for them (error_dump), as fio prints them.
            Note::IoError { .. } => eprintln!("{}", explain::note(n)),
            // Errors tolerated are counted in the output, as fio does; on stderr when loud.
            Note::Tolerated { .. } if !notes_loud => {}
            // What happened in a job (a device found full) stays on stderr too.
            _ if notes_loud || result.jobs.iter().any(|j| j.notes.contains(n)) => {
                eprintln!("note: {}", explain::note(n))
            }
            _ => {}
        }
    }
    for n in datafiles::notes(result) {
        if notes_loud {
            eprintln!("{n}");
        }
        result.notes.push(Note::Text(
            n.strip_prefix("iomark: ").unwrap_or(&n).to_string(),
        ));
    }
    let cli_notes = r
        .cli_notes
        .iter()
        .map(|n| Note::Text(n.strip_prefix("iomark: ").unwrap_or(n).to_string()));
    result.notes.splice(0..0, cli_notes);
}

/// fio's report (to its file or the stream), the aggregate bandwidth logs, the verify state,
/// the logs and the result file; false when one of them could not be written (said on stderr).
fn write_outputs(r: &Ready, ran: &Ran) -> bool {
    let out = &r.cli.output;
    let result = &ran.result;
    let ndjson = out.status_interval.is_some();
    let mut text = String::new();
    if out.file.is_some() && !ndjson {
        text.push_str(&ran.head.debug);
        text.push_str(&ran.head.preamble);
    }
    text.push_str(&periodic::render_all(
        result,
        &out.formats,
        out.terse_version,
        ndjson,
    ));
    let mut ok = true;
    let mut fail = |what: String| {
        eprintln!("iomark: {what}");
        ok = false;
    };
    match &out.file {
        Some(path) if !ndjson => {
            if let Err(e) = outputs::write(path, text.as_bytes()) {
                fail(e.to_string());
            }
        }
        _ => {
            if let Err(e) = ran.sink.write(&text) {
                fail(format!("cannot write the report: {e}"));
            }
            if let (Sink::File(staged), Some(p)) = (&ran.sink, &out.file) {
                if let Err(e) = iomark_output::outfile::commit(staged, p) {
                    fail(format!("cannot write {}: {e}", p.display()));
                }
            }
        }
    }
    if let Some(a) = &ran.agg_bw {
        if let Err(e) = a.write(Path::new(".")) {
            fail(format!("writing the aggregate bandwidth logs failed: {e}"));
        }
    }
    if let Err(e) = iomark_fio::verify_state::save(result, Path::new(".")) {
        fail(e.to_string());
    }
    if let Err(e) = output::logs::write_logs(result, Path::new(".")) {
        fail(format!("writing logs failed: {e}"));
    }
    if let Some(rf) = &out.result_file {
        match serde_json::to_vec_pretty(result) {
            Ok(bytes) => {
                if let Err(e) = outputs::write(rf, &bytes) {
                    fail(e.to_string());
                }
            }
            Err(e) => fail(format!("cannot encode the result: {e}")),
        }
    }
    ok
}
