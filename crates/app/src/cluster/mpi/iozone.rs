//! `iomark iozone -t N` as one rank of many, as iozone's cluster mode (`-+m`) spreads its
//! children over client hosts: every rank runs its N children through the same passes; before
//! each pass every rank prepares its children and rank 0 releases all ranks together; with
//! stonewalling (iozone's default, `-x` off) the first child to finish on any rank stops every
//! child on every rank; rank 0 gathers each rank's figures of the pass and prints iozone's
//! throughput block over all ranks × N children, then the `-R` report, the workbook and the
//! result (with each rank's share). Each rank's files carry its rank: `$rank`, `$nranks` and
//! `$hostname` in `-F`/`-f` names, else the suffix `.RANK`.

use super::Session;
use crate::cluster::follow::Follower;
use crate::cluster::session::{decode_u32, name, Session as ClusterSession};
use crate::cluster::transport::{Kind, Received, Transport};
use crate::cluster::Refusal;
use crate::session::ResultFile;
use crate::session::{exit, signals};
use crate::suites::iozone::{self as front, Early, End};
use iomark_fio::cluster_words::{self, Place};
use iomark_suites::iozone::cluster::{self, merge, Peers, TpPart};
use iomark_suites::iozone::throughput::{self, TpFigure};
use iomark_suites::iozone::{text, IozoneArgs, Plan};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
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

/// Expands `$rank`, `$nranks`, `$hostname` in `-F` and `-f` names; per child, whether its
/// file's name held one (the others get the suffix `.RANK`: `cluster::own_files`).
fn named_files(a: &mut IozoneArgs, place: &Place) -> Vec<bool> {
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

/// This rank's plan, or its refusal (the checks of a run of one process, with its exit
/// status: 2 for a result file refused).
fn prepare(args: &[String], place: &Place) -> Result<Prepared, Refusal> {
    let failed = |e: anyhow::Error| Refusal::failed(e.to_string());
    let (mut a, html) = match front::parse_args(args) {
        Ok(x) => x,
        Err(Early::Done(_)) => return Err(Refusal::failed("help and version run on rank 0 alone")),
        Err(Early::Refused(_, e)) => return Err(Refusal::failed(e)),
    };
    let own = named_files(&mut a, place);
    let mut p = front::make_plan(&a).map_err(failed)?;
    if p.throughput.is_none() {
        return Err(Refusal::failed("iozone runs on many ranks in throughput mode only (-t N, or -l N -u M); give --no-mpi to run the matrix alone on every rank"));
    }
    let mut notes = Vec::new();
    if cluster::own_files(&mut p, &own, place.rank) {
        notes.push("each rank's files get the suffix .RANK (name $rank or $hostname in -F or -f to place them)".into());
    }
    let kept = ResultFile::check("iozone", a.result.as_deref(), &front::test_files(&p))
        .map_err(|e| Refusal::bad_input(e.to_string()))?;
    notes.extend(front::check(&p, &a, html.as_deref()).map_err(failed)?);
    Ok((a, p, html, notes, kept))
}

/// This rank's arguments, plan, `--report` page, notes and result file.
type Prepared = (IozoneArgs, Plan, Option<PathBuf>, Vec<String>, ResultFile);

/// The run thread's side of the passes: its word to the main thread, and the main thread's
/// word at each gate.
struct ToMain {
    tx: Sender<Event>,
    go: Mutex<Receiver<bool>>,
}

impl ToMain {
    fn send(&self, e: Event) {
        let _ = self.tx.send(e);
    }
}

impl Peers for ToMain {
    fn ready(&self, pass: usize) -> bool {
        self.send(Event::Ready(pass));
        let go = self.go.lock().unwrap_or_else(|e| e.into_inner());
        go.recv().unwrap_or(false)
    }
    fn walled(&self, pass: usize) {
        self.send(Event::Wall(pass));
    }
    fn figure(&self, pass: usize, f: &TpFigure) {
        self.send(Event::Figure(pass, Box::new(f.clone())));
    }
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
    let (keep, p, stop, wall) = (a.keep, p.clone(), stop.clone(), wall.clone());
    std::thread::spawn(move || {
        let peers = ToMain {
            tx,
            go: Mutex::new(go_rx),
        };
        let r = cluster::run_process(&p, keep, &stop, &wall, &peers);
        peers.send(Event::Done(r.map(drop).map_err(Into::into)));
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
    let refusal = prepared.as_ref().err().cloned();
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
    let (hosts, (a, p, html, notes, kept)) = match (checked, prepared) {
        (Ok(h), Ok(x)) => (h, x),
        (Err(verdict), _) => {
            if lead {
                eprintln!("iomark iozone: {verdict}");
            }
            return verdict.code;
        }
        (Ok(_), Err(r)) => return r.code,
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
    let mut code = exit::OK;
    if let Some(f) = failure {
        eprintln!("iomark iozone: {f}");
        code = exit::FAILED;
    }
    let report = front::throughput_reports(&a, &p, &figs, &host, &mut code);
    let end = End {
        html: html.as_deref(),
        host,
        start_ms,
        report,
        places: front::test_files(&p),
    };
    // Every rank's children as jobs, from the merged figures' measures (as each rank's steps
    // make them from their own).
    let jobs = figs.iter().flat_map(throughput::child_jobs).collect();
    let ran = (Default::default(), jobs);
    front::finish(&a, true, end, ran, &figs, (code, &kept))
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
    let mut lead = Lead::start(s, a, p, stop, wall, hosts);
    loop {
        let mut heard = Heard::default();
        lead.own_events(&mut heard);
        let got = lead.messages(&mut heard);
        if let Some(f) = heard.failed {
            lead.fail(f);
        }
        lead.spread_walls(heard.walls);
        lead.release_next_pass();
        lead.merge_figures(show);
        if lead.over() {
            break;
        }
        lead.beat();
        lead.check_silence();
        if !got {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    lead.end()
}

/// Rank 0's side of the passes under way: what every rank said, and the figures so far.
struct Lead<'a> {
    s: &'a mut Session,
    /// The ranks of the launch.
    n: usize,
    /// Every rank's host, and the same as [`name`] takes them.
    hosts: &'a [String],
    names: Vec<Option<String>>,
    /// This rank's children's stop and stonewall.
    stop: &'a Arc<AtomicBool>,
    wall: &'a Arc<AtomicBool>,
    /// The run thread's word, and the word to it at each gate.
    events: Receiver<Event>,
    go: Sender<bool>,
    /// The pass each rank is ready for.
    ready: Vec<Option<usize>>,
    /// The ranks done with every pass (or failed).
    finished: Vec<bool>,
    /// When each rank was last heard from.
    last_seen: Vec<Instant>,
    /// This rank's own figure of each pass, the model of the merged one.
    own: Vec<Option<TpFigure>>,
    /// Per pass, each rank's share of the figure.
    parts: Vec<Vec<Option<TpPart>>>,
    /// The merged figures, in pass order.
    merged: Vec<TpFigure>,
    /// The last pass released, and the last one stonewalled.
    released: Option<usize>,
    walled: Option<usize>,
    /// The first failure of any rank.
    failure: Option<String>,
    next_beat: Instant,
}

/// What one turn of rank 0's loop heard: the stonewalls to spread and the last failure.
#[derive(Default)]
struct Heard {
    walls: Vec<usize>,
    failed: Option<String>,
}

/// Makes room for pass `g`'s parts from `n` ranks.
fn slot(parts: &mut Vec<Vec<Option<TpPart>>>, g: usize, n: usize) {
    while parts.len() <= g {
        parts.push(vec![None; n]);
    }
}

impl<'a> Lead<'a> {
    /// Starts rank 0's children on their thread, with nothing heard yet from the other ranks.
    fn start(
        s: &'a mut Session,
        a: &IozoneArgs,
        p: &Plan,
        stop: &'a Arc<AtomicBool>,
        wall: &'a Arc<AtomicBool>,
        hosts: &'a [String],
    ) -> Self {
        let n = s.link.size();
        let names: Vec<Option<String>> = hosts.iter().cloned().map(Some).collect();
        let (events, go) = start(a, p, stop, wall);
        Lead {
            s,
            n,
            hosts,
            names,
            stop,
            wall,
            events,
            go,
            ready: vec![None; n],
            finished: vec![false; n],
            last_seen: vec![Instant::now(); n],
            own: Vec::new(),
            parts: Vec::new(),
            merged: Vec::new(),
            released: None,
            walled: None,
            failure: None,
            next_beat: Instant::now(),
        }
    }

    /// Takes the run thread's word: ready for a pass, a stonewall, a figure, or the end.
    fn own_events(&mut self, heard: &mut Heard) {
        while let Ok(e) = self.events.try_recv() {
            match e {
                Event::Ready(g) => self.ready[0] = Some(g),
                Event::Wall(g) => heard.walls.push(g),
                Event::Figure(g, f) => {
                    slot(&mut self.parts, g, self.n);
                    self.parts[g][0] = Some(TpPart::of(&f));
                    while self.own.len() <= g {
                        self.own.push(None);
                    }
                    self.own[g] = Some(*f);
                }
                Event::Done(r) => {
                    self.finished[0] = true;
                    if let Err(m) = r {
                        heard.failed = Some(format!("{}: {m}", name(&self.names, 0)));
                    }
                }
            }
        }
    }

    /// Takes the other ranks' words that have arrived; true when there was any.
    fn messages(&mut self, heard: &mut Heard) -> bool {
        let mut got = false;
        while let Some(Received { from, kind, body }) = self.s.link.recv() {
            got = true;
            self.last_seen[from] = Instant::now();
            let step = decode_u32(&body) as usize;
            match kind {
                Kind::Ready => self.ready[from] = Some(step),
                Kind::Wall => heard.walls.push(step),
                Kind::Figure => {
                    match serde_json::from_slice::<TpPart>(&body[4.min(body.len())..]) {
                        Ok(part) => {
                            slot(&mut self.parts, step, self.n);
                            self.parts[step][from] = Some(part);
                        }
                        Err(e) => {
                            heard.failed = Some(format!(
                                "{}: its figures are unreadable: {e}",
                                name(&self.names, from)
                            ))
                        }
                    }
                }
                Kind::Finished => self.finished[from] = true,
                Kind::Failed => {
                    self.finished[from] = true;
                    heard.failed = Some(format!(
                        "{}: {}",
                        name(&self.names, from),
                        String::from_utf8_lossy(&body)
                    ));
                }
                _ => {}
            }
        }
        got
    }

    /// A rank failed: the first failure is kept and stops every rank.
    fn fail(&mut self, f: String) {
        if self.failure.is_none() {
            self.failure = Some(f.clone());
            self.stop.store(true, Ordering::Relaxed);
            for r in 1..self.n {
                self.s.link.send(r, Kind::Stop, f.clone().into_bytes());
            }
        }
    }

    /// The stonewall of the pass running, once, to every rank.
    fn spread_walls(&mut self, walls: Vec<usize>) {
        for g in walls {
            if self.released == Some(g) && self.walled != Some(g) {
                self.walled = Some(g);
                self.wall.store(true, Ordering::Relaxed);
                for r in 1..self.n {
                    self.s.link.send(r, Kind::Wall, step_body(g, &[]));
                }
            }
        }
    }

    /// Starts the next pass when every rank still running has its children prepared for it
    /// (the gates open only while no rank failed and no stop was asked).
    fn release_next_pass(&mut self) {
        let n = self.n;
        let next = self.released.map_or(0, |g| g + 1);
        let waiting = (0..n).all(|r| self.finished[r] || self.ready[r] == Some(next));
        if !(waiting && (0..n).any(|r| self.ready[r] == Some(next))) {
            return;
        }
        let open = self.failure.is_none() && !self.stop.load(Ordering::Relaxed);
        self.wall.store(false, Ordering::Relaxed);
        self.released = Some(next);
        self.s.say(&format!("pass {next} starts"));
        for r in (1..n).filter(|&r| self.ready[r] == Some(next)) {
            self.s
                .link
                .send(r, Kind::Go, u32::from(open).to_le_bytes().to_vec());
        }
        if self.ready[0] == Some(next) {
            let _ = self.go.send(open);
        }
    }

    /// Merges and shows each pass's figures, in order, once every rank's are in.
    fn merge_figures(&mut self, show: &mut dyn FnMut(&TpFigure)) {
        let n = self.n;
        while let Some(Some(like)) = self.own.get(self.merged.len()) {
            let g = self.merged.len();
            slot(&mut self.parts, g, n);
            if !(0..n).all(|r| self.parts[g][r].is_some() || self.finished[r]) {
                break;
            }
            let all: Vec<(usize, String, TpPart)> = (0..n)
                .filter_map(|r| Some((r, self.hosts[r].clone(), self.parts[g][r].clone()?)))
                .collect();
            let f = merge(like, &all);
            show(&f);
            self.merged.push(f);
        }
    }

    /// Every rank finished and every figure of this rank is merged.
    fn over(&self) -> bool {
        if self.finished.iter().all(|&f| f) {
            let more = self.own.get(self.merged.len()).is_some_and(Option::is_some);
            if !more {
                return true;
            }
        }
        false
    }

    /// Beats to every rank when one is due.
    fn beat(&mut self) {
        self.s.beat_others(&mut self.next_beat, self.n);
    }

    /// Ends the launch when a rank still running is silent past the timeout.
    fn check_silence(&self) {
        let timeout = self.s.timeout;
        if let Some(r) =
            (1..self.n).find(|&r| !self.finished[r] && self.last_seen[r].elapsed() > timeout)
        {
            self.s.abort(&format!(
                "{} stopped answering (nothing from it for {timeout:?}); the run is abandoned",
                name(&self.names, r),
            ));
        }
    }

    /// The end: Done to every rank, the sends completed; the merged figures and the failure.
    fn end(self) -> (Vec<TpFigure>, Option<String>) {
        for r in 1..self.n {
            self.s.link.send(r, Kind::Done, Vec::new());
        }
        self.s.drain();
        (self.merged, self.failure)
    }
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
    s.follow_with(Member {
        events,
        go,
        stop,
        wall,
        ready_for: None,
        running: None,
        done: None,
        stopped: false,
    })
}

/// A rank other than 0 running its children: its run thread's word, and what rank 0 said.
struct Member<'a> {
    events: Receiver<Event>,
    go: Sender<bool>,
    stop: &'a AtomicBool,
    wall: &'a AtomicBool,
    /// The pass this rank's children are prepared for, and the pass they run.
    ready_for: Option<usize>,
    running: Option<usize>,
    /// Whether every pass ran, once the run thread ended.
    done: Option<bool>,
    /// Rank 0 stopped the run.
    stopped: bool,
}

impl<T: Transport> Follower<T> for Member<'_> {
    type Outcome = i32;

    fn own(&mut self, s: &mut ClusterSession<T>) -> bool {
        while let Ok(e) = self.events.try_recv() {
            match e {
                Event::Ready(g) => {
                    self.ready_for = Some(g);
                    s.link.send(0, Kind::Ready, step_body(g, &[]));
                }
                Event::Wall(g) => s.link.send(0, Kind::Wall, step_body(g, &[])),
                Event::Figure(g, f) => {
                    self.running = None;
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
                    self.done = Some(r.is_ok());
                    match r {
                        Ok(()) => s.link.send(0, Kind::Finished, Vec::new()),
                        Err(m) => s.link.send(0, Kind::Failed, m.to_string().into_bytes()),
                    }
                }
            }
        }
        self.done.is_some()
    }

    fn heard(&mut self, _: &mut ClusterSession<T>, m: Received) {
        match m.kind {
            Kind::Go => {
                self.wall.store(false, Ordering::Relaxed);
                self.running = self.ready_for.take();
                let _ = self.go.send(decode_u32(&m.body) != 0);
            }
            Kind::Wall if self.running == Some(decode_u32(&m.body) as usize) => {
                self.wall.store(true, Ordering::Relaxed);
            }
            Kind::Stop => {
                self.stopped = true;
                self.stop.store(true, Ordering::Relaxed);
            }
            _ => {}
        }
    }

    fn done(self, _: &mut ClusterSession<T>) -> i32 {
        exit::of_run(self.stopped || self.done != Some(true))
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
        let own = named_files(&mut a, &place(3));
        assert_eq!(own, vec![true, false]);
        let mut p = front::make_plan(&a).unwrap();
        assert!(cluster::own_files(&mut p, &own, 3));
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
        let own = named_files(&mut a, &place(1));
        let mut p = front::make_plan(&a).unwrap();
        assert!(!cluster::own_files(&mut p, &own, 1));
    }
}
