//! The live status line on a terminal (like fio's `Jobs: 1 (f=1): [r(1)][45.0%][r=368MiB/s]...`),
//! drawn a few times a second from the workers' counters. Nothing is drawn when not a TTY.

use iomark_engine::job::RwMode;
use iomark_engine::runner::{RunCtl, WorkerState};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub fn stderr_is_tty() -> bool {
    unsafe { libc::isatty(2) == 1 }
}

fn rate(bytes_per_s: f64) -> String {
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

fn count(v: f64) -> String {
    if v >= 1e6 {
        format!("{:.1}M", v / 1e6)
    } else if v >= 1e3 {
        format!("{:.1}k", v / 1e3)
    } else {
        format!("{v:.0}")
    }
}

/// fio's letter for a worker in the status line: `P` setting up, the job's direction while
/// running (`R`/`r` sequential/random read, `W`/`w` write, `M`/`m` mixed, `D`/`d` trim, `T`
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
        },
    }
}

/// Draw the status line until `done` is set; clears the line at the end.
pub fn spawn(ctl: Arc<RunCtl>, done: Arc<AtomicBool>) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let mut last = Instant::now();
        let mut last_bytes = [0u64; 3];
        let mut last_ios = [0u64; 3];
        let mut drawn = false;
        while !done.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(250));
            let workers = ctl.workers.lock().unwrap().clone();
            if workers.is_empty() {
                continue;
            }
            let now = Instant::now();
            let dt = now.duration_since(last).as_secs_f64().max(1e-3);
            let mut bytes = [0u64; 3];
            let mut ios = [0u64; 3];
            let mut letters = String::new();
            let mut running = 0;
            let mut pct: f64 = 0.0;
            let mut eta_s: f64 = 0.0;
            for w in &workers {
                let st = w.state();
                if !st.finished() {
                    running += 1;
                }
                letters.push(state_letter(st, w.rw));
                let mut done_b = 0;
                for i in 0..3 {
                    bytes[i] += w.bytes[i].load(Ordering::Relaxed);
                    ios[i] += w.ios[i].load(Ordering::Relaxed);
                    done_b += w.bytes[i].load(Ordering::Relaxed);
                }
                let rt = w.runtime_ms.load(Ordering::Relaxed);
                let el = w.elapsed_ms.load(Ordering::Relaxed);
                let total = w.total_bytes.load(Ordering::Relaxed);
                let p = if rt > 0 {
                    el as f64 / rt as f64
                } else if total > 0 {
                    done_b as f64 / total as f64
                } else {
                    0.0
                };
                pct = pct.max(p.min(1.0));
                if rt > 0 {
                    eta_s = eta_s.max((rt.saturating_sub(el)) as f64 / 1000.0);
                }
            }
            let mut line = format!(
                "Jobs: {running} (f={running}): [{letters}][{:.1}%]",
                pct * 100.0
            );
            let names = ["r", "w", "t"];
            let mut bw = Vec::new();
            let mut io = Vec::new();
            for i in 0..3 {
                let db = bytes[i].saturating_sub(last_bytes[i]) as f64 / dt;
                let di = ios[i].saturating_sub(last_ios[i]) as f64 / dt;
                if db > 0.0 || di > 0.0 {
                    bw.push(format!("{}={}", names[i], rate(db)));
                    io.push(format!("{}={} IOPS", names[i], count(di)));
                }
            }
            if !bw.is_empty() {
                line.push_str(&format!("[{}][{}]", bw.join(","), io.join(",")));
            }
            let eta = eta_s as u64;
            line.push_str(&format!("[eta {:02}m:{:02}s]", eta / 60, eta % 60));
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r{line}\x1b[K");
            let _ = err.flush();
            drawn = true;
            last = now;
            last_bytes = bytes;
            last_ios = ios;
        }
        if drawn {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
        }
    })
}
