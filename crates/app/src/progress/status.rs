//! The live status line on a terminal (like fio's `Jobs: 1 (f=1): [r(1)][45.0%][r=368MiB/s]...`),
//! drawn a few times a second from the workers' counters. Nothing is drawn when not a TTY.

use super::source::{Observer, Sample};
use iomark_engine::job::RwMode;
use iomark_engine::runner::{WorkerProgress, WorkerState};
use std::io::Write;
use std::sync::atomic::Ordering;
use std::time::Duration;

pub fn stderr_is_tty() -> bool {
    // SAFETY: isatty takes no memory; any descriptor number is allowed.
    unsafe { libc::isatty(2) == 1 }
}

pub fn rate(bytes_per_s: f64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = bytes_per_s;
    let mut i = 0;
    while v >= 1024.0 && i < units.len() - 1 {
        v /= 1024.0;
        i += 1;
    }
    if v >= 100.0 || i == 0 {
        format!("{v:.0}{}/s", units[i])
    } else {
        format!("{v:.1}{}/s", units[i])
    }
}

/// An IOPS figure as fio shows it: whole numbers below 10k, then k and M.
fn count(v: f64) -> String {
    if v >= 1e6 {
        format!("{:.1}M", v / 1e6)
    } else if v >= 1e4 {
        format!("{:.1}k", v / 1e3)
    } else {
        format!("{v:.0}")
    }
}

/// A counter that goes quiet for this long (and at least three publication periods) reads as
/// a rate of zero rather than holding its last figure.
const STALE_NS: u64 = 1_500_000_000;

/// The rates of one worker, computed between two of the worker's own publications of its
/// counters (with the worker's timestamps), so the figure does not depend on when the status
/// thread happens to read them. Between publications the last rate is held: the line does not
/// flicker between a figure and nothing.
#[derive(Debug, Default, Clone)]
pub struct Meter {
    ns: u64,
    period_ns: u64,
    bytes: [u64; 3],
    ios: [u64; 3],
    bw: [f64; 3],
    iops: [f64; 3],
}

impl Meter {
    /// Take a reading: `ns` is when the worker published `bytes`/`ios`, `now` the reader's
    /// clock, `running` false once the worker is done.
    /// Reads `w`'s published counters at `now`; returns its bytes per direction.
    pub fn read(&mut self, w: &WorkerProgress, now: u64, running: bool) -> [u64; 3] {
        let ns = w.published_ns.load(Ordering::Acquire);
        let bytes: [u64; 3] = std::array::from_fn(|i| w.bytes[i].load(Ordering::Relaxed));
        let ios: [u64; 3] = std::array::from_fn(|i| w.ios[i].load(Ordering::Relaxed));
        self.update(ns, bytes, ios, now, running);
        bytes
    }

    pub fn update(&mut self, ns: u64, bytes: [u64; 3], ios: [u64; 3], now: u64, running: bool) {
        if ns > self.ns {
            if self.ns > 0 {
                let dt = (ns - self.ns) as f64 / 1e9;
                for i in 0..3 {
                    self.bw[i] = bytes[i].saturating_sub(self.bytes[i]) as f64 / dt;
                    self.iops[i] = ios[i].saturating_sub(self.ios[i]) as f64 / dt;
                }
                self.period_ns = ns - self.ns;
            }
            self.ns = ns;
            self.bytes = bytes;
            self.ios = ios;
        }
        let stale = now.saturating_sub(self.ns) > STALE_NS.max(3 * self.period_ns);
        if !running || stale {
            self.bw = [0.0; 3];
            self.iops = [0.0; 3];
        }
    }

    /// `[r=10.0MiB/s][r=2560 IOPS]` of this meter (empty while nothing moves).
    pub fn fields(&self) -> String {
        rate_fields(&self.bw, &self.iops)
    }
}

/// fio's letter for a worker in the status line: `P` setting up, the job's direction while
/// running (`R`/`r` sequential/random read, `W`/`w` write, `M`/`m` mixed, `D`/`d` trim, `T`/`t`
/// trim then write), `_` done, `E` failed.
pub fn state_letter(state: WorkerState, rw: RwMode) -> char {
    match state {
        WorkerState::Setup => 'P',
        WorkerState::Done => '_',
        WorkerState::Failed => 'E',
        WorkerState::Running => match rw {
            RwMode::Read => 'R',
            RwMode::RandRead => 'r',
            RwMode::Write => 'W',
            RwMode::RandWrite => 'w',
            RwMode::ReadWrite => 'M',
            RwMode::RandRw => 'm',
            RwMode::Trim => 'D',
            RwMode::RandTrim => 'd',
            RwMode::TrimWrite => 'T',
            RwMode::RandTrimWrite => 't',
        },
    }
}

/// fio's status line on stderr, redrawn four times a second; cleared at the end.
#[derive(Default)]
pub struct StatusLine {
    meters: Vec<Meter>,
    line: TermLine,
}

impl Observer for StatusLine {
    fn every(&self) -> Duration {
        Duration::from_millis(250)
    }

    fn sample(&mut self, s: &Sample) {
        let workers = s.workers;
        if workers.is_empty() {
            return;
        }
        self.meters.resize(workers.len(), Meter::default());
        let mut bw = [0f64; 3];
        let mut iops = [0f64; 3];
        let mut letters = String::new();
        let mut running = 0;
        let mut pct: f64 = 0.0;
        let mut eta_s: f64 = 0.0;
        for (w, m) in workers.iter().zip(self.meters.iter_mut()) {
            let st = w.state();
            let live = !st.finished();
            if live {
                running += 1;
            }
            letters.push(state_letter(st, w.rw));
            let bytes = m.read(w, s.now_ns, live);
            for i in 0..3 {
                bw[i] += m.bw[i];
                iops[i] += m.iops[i];
            }
            let (p, left) = done_and_left(w, bytes.iter().sum());
            pct = pct.max(p);
            eta_s = eta_s.max(left);
        }
        let line = format!(
            "Jobs: {running} (f={running}): [{letters}][{:.1}%]{}[eta {}]",
            pct * 100.0,
            rate_fields(&bw, &iops),
            eta(eta_s as u64)
        );
        self.line.draw(&line);
    }

    fn end(&mut self, _: &Sample) {
        self.line.clear();
    }
}

/// A line of stderr redrawn in place, cleared at the end only when it was drawn.
#[derive(Debug, Default)]
pub struct TermLine {
    drawn: bool,
}

impl TermLine {
    pub fn draw(&mut self, line: &str) {
        draw_line(line);
        self.drawn = true;
    }

    pub fn clear(&mut self) {
        if std::mem::take(&mut self.drawn) {
            clear_line();
        }
    }
}

/// Draws `line` over the current terminal line on stderr.
pub fn draw_line(line: &str) {
    let mut err = std::io::stderr().lock();
    let _ = write!(err, "\r{line}\x1b[K");
    let _ = err.flush();
}

/// Clears the current terminal line on stderr.
pub fn clear_line() {
    let mut err = std::io::stderr().lock();
    let _ = write!(err, "\r\x1b[K");
    let _ = err.flush();
}

/// A worker's share done (0 to 1: of its runtime when time-based, else of its bytes) and the
/// seconds it has left (0 when not time-based).
pub fn done_and_left(w: &WorkerProgress, done_bytes: u64) -> (f64, f64) {
    let rt = w.runtime_ms.load(Ordering::Relaxed);
    let el = w.elapsed_ms.load(Ordering::Relaxed);
    let total = w.total_bytes.load(Ordering::Relaxed);
    let p = if rt > 0 {
        el as f64 / rt as f64
    } else if total > 0 {
        done_bytes as f64 / total as f64
    } else {
        0.0
    };
    let left = if rt > 0 {
        rt.saturating_sub(el).div_ceil(1000) as f64
    } else {
        0.0
    };
    (p.min(1.0), left)
}

/// `[r=10.0MiB/s][r=2560 IOPS]` for the directions that move data (empty when none does).
fn rate_fields(bw: &[f64; 3], iops: &[f64; 3]) -> String {
    let names = ["r", "w", "t"];
    let mut b = Vec::new();
    let mut io = Vec::new();
    for i in 0..3 {
        if bw[i] > 0.0 || iops[i] > 0.0 {
            b.push(format!("{}={}", names[i], rate(bw[i])));
            io.push(format!("{}={} IOPS", names[i], count(iops[i])));
        }
    }
    if b.is_empty() {
        String::new()
    } else {
        format!("[{}][{}]", b.join(","), io.join(","))
    }
}

/// fio's `00m:04s` (hours when needed).
pub fn eta(s: u64) -> String {
    if s >= 3600 {
        format!("{:02}h:{:02}m:{:02}s", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{:02}m:{:02}s", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: u64 = 1_000_000_000;

    #[test]
    fn rate_is_measured_between_publications_not_reads() {
        // The worker publishes every 500 ms at 10 MiB/s; the reader looks every 250 ms.
        let mut m = Meter::default();
        let per = 10u64 << 20;
        let mut shown = Vec::new();
        for k in 1..=16u64 {
            let now = k * S / 4;
            let published = now / (S / 2) * (S / 2);
            let b = per * published / S;
            m.update(published, [b, 0, 0], [b / 4096, 0, 0], now, true);
            if k >= 4 {
                shown.push(m.bw[0]);
            }
        }
        for v in shown {
            assert!((v - per as f64).abs() < per as f64 * 0.01, "{v} vs {per}");
        }
    }

    #[test]
    fn rate_holds_between_publications_and_drops_when_stale_or_done() {
        let mut m = Meter::default();
        m.update(S, [0; 3], [0; 3], S, true);
        m.update(2 * S, [1 << 20, 0, 0], [256, 0, 0], 2 * S, true);
        assert_eq!(m.iops[0], 256.0);
        m.update(2 * S, [1 << 20, 0, 0], [256, 0, 0], 2 * S + S / 4, true);
        assert_eq!(m.iops[0], 256.0, "held between publications");
        m.update(2 * S, [1 << 20, 0, 0], [256, 0, 0], 6 * S, true);
        assert_eq!(m.iops[0], 0.0, "a silent worker reads as zero");
        m.update(3 * S, [2 << 20, 0, 0], [512, 0, 0], 3 * S, false);
        assert_eq!(m.bw[0], 0.0, "a finished worker adds nothing");
    }

    #[test]
    fn fields_and_eta() {
        assert_eq!(rate_fields(&[0.0; 3], &[0.0; 3]), "");
        assert_eq!(
            rate_fields(&[10.0 * 1048576.0, 0.0, 0.0], &[2560.0, 0.0, 0.0]),
            "[r=10.0MiB/s][r=2560 IOPS]"
        );
        assert_eq!(eta(4), "00m:04s");
        assert_eq!(eta(3725), "01h:02m:05s");
    }
}
