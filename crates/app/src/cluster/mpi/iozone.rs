//! `iomark iozone -t N` as one rank of many, as iozone's cluster mode (`-+m`) spreads its
//! children over client hosts: every rank runs its N children through the same passes; before
//! each pass every rank prepares its children and rank 0 releases all ranks together; with
//! stonewalling (iozone's default, `-x` off) the first child to finish on any rank stops every
//! child on every rank; rank 0 gathers each rank's figures of the pass and prints iozone's
//! throughput block over all ranks × N children, then the `-R` report, the workbook and the
//! result (with each rank's share). Each rank's files carry its rank: `$rank`, `$nranks` and
//! `$hostname` in `-F`/`-f` names, else the suffix `.RANK`.

use super::link::{Kind, Received};
use super::name;
use super::session::decode_u32;
use super::Session;
use crate::session::signals;
use crate::suites::iozone::{self as front, Early, End};
use iomark_engine::pass::group::GroupHooks;
use iomark_fio::cluster_words::{self, Place};
use iomark_suites::iozone::cluster::{merge, TpPart};
use iomark_suites::iozone::throughput::{self, TpFigure};
use iomark_suites::iozone::{text, IozoneArgs, Plan};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the run thread tells the main thread (which alone speaks MPI).
enum Event {
    /// Every child is prepared for pass N.
    Ready(usize),
    /// A child here finished pass N first.
    Wall(usize),
    Figure(usize, Box<TpFigure>),
    Done(anyhow::Result<()>),
}

/// The words a file name holds for this rank, expanded; true when it named one.
fn expand(p: &std::path::Path, place: &Place) -> (PathBuf, bool) {
    let (s, found) = cluster_words::expand("filename", &p.to_string_lossy(), place);
    (PathBuf::from(s), found)
}

/// Gives this rank its own files: `$rank`, `$nranks`, `$hostname` in `-F` and `-f` names are
/// expanded; a file whose name held none gets the suffix `.RANK` (devices under /dev/ are left
/// as named: each host has its own). Returns whether a suffix was added.
fn own_files(a: &mut IozoneArgs, place: &Place) -> Vec<bool> {
    let mut own = Vec::new();
    for f in &mut a.files {
        let (x, found) = expand(f, place);
        *f = x;
        own.push(found);
    }
    let file_own = match &a.file {
        Some(f) => {
            let (x, found) = expand(f, place);
            a.file = Some(x);
            found
        }
        None => false,
    };
    if a.files.is_empty() {
        own = vec![file_own; a.max_children.or(a.children).unwrap_or(0) as usize];
    }
    own
}

fn suffix(p: &mut Plan, own: &[bool], rank: usize) -> bool {
    let mut any = false;
    if let Some(tp) = &mut p.throughput {
        for (i, f) in tp.files.iter_mut().enumerate() {
            if !own.get(i).copied().unwrap_or(false) && !f.starts_with("/dev/") {
                let mut s = f.clone().into_os_string();
                s.push(format!(".{rank}"));
                *f = PathBuf::from(s);
                any = true;
            }
        }
    }
    any
}

/// This rank's plan, or its refusal (the checks of a run of one process).
fn prepare(
    args: &[String],
    place: &Place,
) -> anyhow::Result<(IozoneArgs, Plan, Option<PathBuf>, Vec<String>)> {
    let (mut a, html) = match front::parse_args(args) {
        Ok(x) => x,
        Err(Early::Done(_)) => anyhow::bail!("help and version run on rank 0 alone"),
        Err(Early::Refused(_, e)) => return Err(anyhow::Error::msg(e)),
    };
    let own = own_files(&mut a, place);
    let mut p = front::make_plan(&a)?;
    if p.throughput.is_none() {
        anyhow::bail!("iozone runs on many ranks in throughput mode only (-t N, or -l N -u M); give --no-mpi to run the matrix alone on every rank");
    }
    let mut notes = Vec::new();
    if suffix(&mut p, &own, place.rank) {
        notes.push("each rank's files get the suffix .RANK (name $rank or $hostname in -F or -f to place them)".into());
    }
    notes.extend(front::check(&p, &a, html.as_deref())?);
    Ok((a, p, html, notes))
}

/// Runs every child count of the plan on a thread of its own; each pass waits at the gate
/// for the main thread's word, and shares the stonewall `wall` with the other ranks.
fn start(
    a: &IozoneArgs,
    p: &Plan,
    stop: &Arc<AtomicBool>,
    wall: &Arc<AtomicBool>,
) -> (Receiver<Event>, Sender<bool>) {
    let (tx, rx) = channel::<Event>();
    let (go_tx, go_rx) = channel::<bool>();
    let (a, p, stop, wall) = (a.clone(), p.clone(), stop.clone(), wall.clone());
    std::thread::spawn(move || {
        let tx = Mutex::new(tx);
        let send = |e: Event| {
            let _ = tx.lock().unwrap_or_else(|e| e.into_inner()).send(e);
        };
        let go_rx = Mutex::new(go_rx);
        let step = AtomicUsize::new(0);
        let gate = || {
            send(Event::Ready(step.fetch_add(1, Ordering::SeqCst)));
            let go = go_rx.lock().unwrap_or_else(|e| e.into_inner());
            go.recv().unwrap_or(false)
        };
        let current = || step.load(Ordering::SeqCst).saturating_sub(1);
        let on_wall = || send(Event::Wall(current()));
        let hooks = GroupHooks {
            gate: Some(&gate),
            wall: Some(&wall),
            on_wall: Some(&on_wall),
        };
        let counts = p.throughput.as_ref().map(|t| t.counts.clone());
        let mut result = Ok(());
        for n in counts.unwrap_or_default() {
            let mut on_figure = |f: &TpFigure| send(Event::Figure(current(), Box::new(f.clone())));
            let r = throughput::run_count_with(&p, n, a.keep, &stop, hooks, &mut on_figure);
            if let Err(e) = r {
                result = Err(e.into());
                break;
            }
            if stop.load(Ordering::Relaxed) {
                break;
            }
        }
        send(Event::Done(result));
    });
    (rx, go_tx)
}

fn step_body(g: usize, rest: &[u8]) -> Vec<u8> {
    let mut b = (g as u32).to_le_bytes().to_vec();
    b.extend_from_slice(rest);
    b
}

/// `iomark iozone ARGS` on this rank.
pub fn main(args: &[String], s: &mut Session, place: &Place) -> i32 {
    let stop = Arc::new(AtomicBool::new(false));
    signals::install(stop.clone());
    let prepared = prepare(args, place);
    let refusal = prepared.as_ref().err().map(|e| e.to_string());
    let lead = s.link.rank() == 0;
    let checked = if lead {
        s.lead_preflight(refusal).map(|h| {
            h.into_iter()
                .map(Option::unwrap_or_default)
                .collect::<Vec<_>>()
        })
    } else {
        s.follow_preflight(refusal).map(|_| Vec::new())
    };
    let (hosts, (a, p, html, notes)) = match (checked, prepared) {
        (Ok(h), Ok(x)) => (h, x),
        (Err(verdict), _) => {
            if lead {
                eprintln!("iomark iozone: {verdict}");
            }
            return 1;
        }
        (Ok(_), Err(_)) => return 1,
    };
    let wall = Arc::new(AtomicBool::new(false));
    if !lead {
        return follow(s, &a, &p, &stop, &wall);
    }
    for n in notes {
        eprintln!("iomark iozone: note: {n}");
    }
    let host = iomark_engine::sys::host_info();
    if let Some(n) = text::cache_note(&p, a.direct, host.mem_bytes) {
        eprintln!("iomark iozone: note: {n}");
    }
    let start_ms = iomark_engine::sys::unix_ms();
    let quiet = a.json;
    front::out(&front::header(&a, &p, &host, start_ms), quiet);
    front::out("\n", quiet);
    let unit = text::unit(&a);
    let mut show = |f: &TpFigure| {
        let b = throughput::block_per(f, unit, a.child_bytes, a.cpu_util, "process");
        front::out(&b, quiet);
    };
    let (figs, failure) = lead_run(s, &a, &p, &stop, &wall, &hosts, &mut show);
    let mut code = 0;
    if let Some(f) = failure {
        eprintln!("iomark iozone: {f}");
        code = 1;
    }
    let report = front::throughput_reports(&a, &p, &figs, &host, &mut code);
    let end = End {
        html: html.as_deref(),
        host,
        start_ms,
        report,
    };
    front::finish(&a, true, end, Default::default(), &figs, code)
}

/// Rank 0: releases each pass when every rank still running is ready for it, spreads the
/// stonewall, merges each pass's figures as they are all in; returns the merged figures and
/// the failure, if a rank failed.
fn lead_run(
    s: &mut Session,
    a: &IozoneArgs,
    p: &Plan,
    stop: &Arc<AtomicBool>,
    wall: &Arc<AtomicBool>,
    hosts: &[String],
    show: &mut dyn FnMut(&TpFigure),
) -> (Vec<TpFigure>, Option<String>) {
    let n = s.link.size();
    let names: Vec<Option<String>> = hosts.iter().cloned().map(Some).collect();
    let (events, go) = start(a, p, stop, wall);
    let mut ready: Vec<Option<usize>> = vec![None; n];
    let mut finished = vec![false; n];
    let mut last_seen = vec![Instant::now(); n];
    let mut own: Vec<Option<TpFigure>> = Vec::new();
    let mut parts: Vec<Vec<Option<TpPart>>> = Vec::new();
    let mut merged = Vec::new();
    let mut released: Option<usize> = None;
    let mut walled: Option<usize> = None;
    let mut failure: Option<String> = None;
    let mut next_beat = Instant::now();
    let slot = |parts: &mut Vec<Vec<Option<TpPart>>>, g: usize| {
        while parts.len() <= g {
            parts.push(vec![None; n]);
        }
    };
    loop {
        let mut walls = Vec::new();
        let mut failed: Option<String> = None;
        while let Ok(e) = events.try_recv() {
            match e {
                Event::Ready(g) => ready[0] = Some(g),
                Event::Wall(g) => walls.push(g),
                Event::Figure(g, f) => {
                    slot(&mut parts, g);
                    parts[g][0] = Some(TpPart::of(&f));
                    while own.len() <= g {
                        own.push(None);
                    }
                    own[g] = Some(*f);
                }
                Event::Done(r) => {
                    finished[0] = true;
                    if let Err(m) = r {
                        failed = Some(format!("{}: {m}", name(&names, 0)));
                    }
                }
            }
        }
        let mut got = false;
        while let Some(Received { from, kind, body }) = s.link.recv() {
            got = true;
            last_seen[from] = Instant::now();
            let step = decode_u32(&body) as usize;
            match kind {
                Kind::Ready => ready[from] = Some(step),
                Kind::Wall => walls.push(step),
                Kind::Figure => {
                    match serde_json::from_slice::<TpPart>(&body[4.min(body.len())..]) {
                        Ok(part) => {
                            slot(&mut parts, step);
                            parts[step][from] = Some(part);
                        }
                        Err(e) => {
                            failed = Some(format!(
                                "{}: its figures are unreadable: {e}",
                                name(&names, from)
                            ))
                        }
                    }
                }
                Kind::Finished => finished[from] = true,
                Kind::Failed => {
                    finished[from] = true;
                    failed = Some(format!(
                        "{}: {}",
                        name(&names, from),
                        String::from_utf8_lossy(&body)
                    ));
                }
                _ => {}
            }
        }
        if let Some(f) = failed {
            if failure.is_none() {
                failure = Some(f.clone());
                stop.store(true, Ordering::Relaxed);
                for r in 1..n {
                    s.link.send(r, Kind::Stop, f.clone().into_bytes());
                }
            }
        }
        // The stonewall of the pass running, once, to every rank.
        for g in walls {
            if released == Some(g) && walled != Some(g) {
                walled = Some(g);
                wall.store(true, Ordering::Relaxed);
                for r in 1..n {
                    s.link.send(r, Kind::Wall, step_body(g, &[]));
                }
            }
        }
        // A pass starts when every rank still running has its children prepared for it.
        let next = released.map_or(0, |g| g + 1);
        let waiting = (0..n).all(|r| finished[r] || ready[r] == Some(next));
        if waiting && (0..n).any(|r| ready[r] == Some(next)) {
            let open = failure.is_none() && !stop.load(Ordering::Relaxed);
            wall.store(false, Ordering::Relaxed);
            released = Some(next);
            s.say(&format!("pass {next} starts"));
            for r in (1..n).filter(|&r| ready[r] == Some(next)) {
                s.link
                    .send(r, Kind::Go, u32::from(open).to_le_bytes().to_vec());
            }
            if ready[0] == Some(next) {
                let _ = go.send(open);
            }
        }
        // Each pass's figures, in order, once every rank's are in.
        while let Some(Some(like)) = own.get(merged.len()) {
            let g = merged.len();
            slot(&mut parts, g);
            if !(0..n).all(|r| parts[g][r].is_some() || finished[r]) {
                break;
            }
            let all: Vec<(usize, String, TpPart)> = (0..n)
                .filter_map(|r| Some((r, hosts[r].clone(), parts[g][r].clone()?)))
                .collect();
            let f = merge(like, &all);
            show(&f);
            merged.push(f);
        }
        if finished.iter().all(|&f| f) {
            let more = own.get(merged.len()).is_some_and(Option::is_some);
            if !more {
                break;
            }
        }
        if Instant::now() >= next_beat {
            for r in 1..n {
                s.link.send(r, Kind::Beat, Vec::new());
            }
            next_beat = Instant::now() + s.beat_every();
        }
        if let Some(r) = (1..n).find(|&r| !finished[r] && last_seen[r].elapsed() > s.timeout) {
            s.abort(&format!(
                "{} stopped answering (nothing from it for {:?}); the run is abandoned",
                name(&names, r),
                s.timeout
            ));
        }
        if !got {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    for r in 1..n {
        s.link.send(r, Kind::Done, Vec::new());
    }
    s.drain();
    (merged, failure)
}

/// Another rank: runs its children as rank 0 says, sends each pass's figures.
fn follow(
    s: &mut Session,
    a: &IozoneArgs,
    p: &Plan,
    stop: &Arc<AtomicBool>,
    wall: &Arc<AtomicBool>,
) -> i32 {
    let (events, go) = start(a, p, stop, wall);
    let mut last_seen = Instant::now();
    let mut next_beat = Instant::now() + s.beat_every();
    let mut ready_for: Option<usize> = None;
    let mut running: Option<usize> = None;
    let mut done: Option<bool> = None;
    let mut stopped = false;
    loop {
        while let Ok(e) = events.try_recv() {
            match e {
                Event::Ready(g) => {
                    ready_for = Some(g);
                    s.link.send(0, Kind::Ready, step_body(g, &[]));
                }
                Event::Wall(g) => s.link.send(0, Kind::Wall, step_body(g, &[])),
                Event::Figure(g, f) => {
                    running = None;
                    match serde_json::to_vec(&TpPart::of(&f)) {
                        Ok(b) => s.link.send(0, Kind::Figure, step_body(g, &b)),
                        Err(e) => s.link.send(
                            0,
                            Kind::Failed,
                            format!("cannot encode its figures: {e}").into_bytes(),
                        ),
                    }
                }
                Event::Done(r) => {
                    done = Some(r.is_ok());
                    match r {
                        Ok(()) => s.link.send(0, Kind::Finished, Vec::new()),
                        Err(m) => s.link.send(0, Kind::Failed, m.to_string().into_bytes()),
                    }
                }
            }
        }
        let mut got = false;
        while let Some(m) = s.link.recv() {
            got = true;
            if m.from != 0 {
                continue;
            }
            last_seen = Instant::now();
            match m.kind {
                Kind::Go => {
                    wall.store(false, Ordering::Relaxed);
                    running = ready_for.take();
                    let _ = go.send(decode_u32(&m.body) != 0);
                }
                Kind::Wall if running == Some(decode_u32(&m.body) as usize) => {
                    wall.store(true, Ordering::Relaxed);
                }
                Kind::Stop => {
                    stopped = true;
                    stop.store(true, Ordering::Relaxed);
                }
                Kind::Done => {
                    s.drain();
                    return match done {
                        _ if signals::interrupted() => 130,
                        Some(true) if !stopped => 0,
                        _ => 1,
                    };
                }
                _ => {}
            }
        }
        if done.is_none() && Instant::now() >= next_beat {
            s.link.send(0, Kind::Beat, Vec::new());
            next_beat = Instant::now() + s.beat_every();
        }
        if last_seen.elapsed() > s.timeout {
            s.lost();
        }
        if !got {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(rank: usize) -> Place {
        Place {
            rank,
            nranks: 4,
            host: "n1".into(),
        }
    }

    #[test]
    fn each_rank_gets_its_own_files() {
        let args: Vec<String> = [
            "-t",
            "2",
            "-s",
            "64k",
            "-r",
            "4k",
            "-F",
            "/tmp/a.$rank",
            "/tmp/b",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let mut a = iomark_suites::iozone::parse(&args).unwrap();
        let own = own_files(&mut a, &place(3));
        assert_eq!(own, vec![true, false]);
        let mut p = front::make_plan(&a).unwrap();
        assert!(suffix(&mut p, &own, 3));
        let files = &p.throughput.unwrap().files;
        assert_eq!(
            files,
            &[PathBuf::from("/tmp/a.3"), PathBuf::from("/tmp/b.3")]
        );
    }

    #[test]
    fn devices_keep_their_names() {
        let args: Vec<String> = ["-t", "1", "-s", "64k", "-F", "/dev/sdz"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let mut a = iomark_suites::iozone::parse(&args).unwrap();
        let own = own_files(&mut a, &place(1));
        let mut p = front::make_plan(&a).unwrap();
        assert!(!suffix(&mut p, &own, 1));
    }
}
