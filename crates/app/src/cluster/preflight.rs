//! Before any I/O: every rank checks the plan on its own host and tells rank 0 its host name
//! and its refusal if any; rank 0 answers every rank with the verdict (empty to go on, else
//! every refusal with its rank and host), so that a refusal anywhere stops every rank before
//! any I/O. Waits are bounded by the session's timeout.

use super::refusal::Refusal;
use super::session::{name, Session};
use super::transport::{Kind, Received, Transport};
use crate::session::exit;
use std::time::{Duration, Instant};

impl<T: Transport> Session<T> {
    /// Rank 0: every rank's host (in rank order), or the verdict that stops the run.
    pub(crate) fn lead_preflight(
        &mut self,
        refusal: Option<Refusal>,
    ) -> Result<Vec<Option<String>>, Refusal> {
        let n = self.link.size();
        let t0 = Instant::now();
        let mut hosts: Vec<Option<String>> = vec![None; n];
        hosts[0] = Some(self.host.clone());
        let mut last_seen = vec![Instant::now(); n];
        let mut refusals: Vec<(usize, Refusal)> = Vec::new();
        if let Some(r) = refusal {
            refusals.push((0, r));
        }
        let mut heard = 1;
        let mut next_beat = Instant::now();
        while heard < n {
            self.beat_others(&mut next_beat, n);
            match self.link.recv() {
                Some(Received { from, kind, body }) => {
                    last_seen[from] = Instant::now();
                    if kind == Kind::Hello {
                        let (h, why) = decode_hello(&body);
                        hosts[from] = Some(h);
                        if let Some(w) = why {
                            refusals.push((from, w));
                        }
                        heard += 1;
                    }
                }
                None => std::thread::sleep(Duration::from_millis(1)),
            }
            if let Some(r) = (1..n).find(|&r| last_seen[r].elapsed() > self.timeout) {
                self.abort(&format!(
                    "{} did not answer within {:?} before the run; no I/O was done",
                    name(&hosts, r),
                    self.timeout
                ));
            }
        }
        self.say(&format!("preflight of {n} ranks in {:?}", t0.elapsed()));
        if refusals.is_empty() {
            for r in 1..n {
                self.link.send(r, Kind::Verdict, Vec::new());
            }
            return Ok(hosts);
        }
        refusals.sort_by_key(|(r, _)| *r);
        let names: Vec<(String, &str)> = refusals
            .iter()
            .map(|(r, w)| (name(&hosts, *r), w.why.as_str()))
            .collect();
        let verdict = Refusal {
            code: refusals
                .iter()
                .map(|(_, w)| w.code)
                .max()
                .unwrap_or(exit::FAILED),
            why: verdict_text(&names, n),
        };
        for r in 1..n {
            self.link.send(r, Kind::Verdict, encode_refusal(&verdict));
        }
        self.drain();
        Err(verdict)
    }

    /// Another rank: Ok to go on, or the verdict that stops the run.
    pub(crate) fn follow_preflight(&mut self, refusal: Option<Refusal>) -> Result<(), Refusal> {
        self.link
            .send(0, Kind::Hello, encode_hello(&self.host, refusal.as_ref()));
        let mut last_seen = Instant::now();
        let mut next_beat = Instant::now() + self.beat_every();
        loop {
            match self.link.recv() {
                Some(m) if m.from == 0 => {
                    last_seen = Instant::now();
                    if m.kind == Kind::Verdict {
                        if m.body.is_empty() {
                            return Ok(());
                        }
                        self.drain();
                        return Err(decode_refusal(&m.body));
                    }
                }
                Some(_) => {}
                None => std::thread::sleep(Duration::from_millis(1)),
            }
            if Instant::now() >= next_beat {
                self.link.send(0, Kind::Beat, Vec::new());
                next_beat = Instant::now() + self.beat_every();
            }
            if last_seen.elapsed() > self.timeout {
                self.lost();
            }
        }
    }

    /// Another rank: rank 0 has been silent too long; ends the launch.
    pub(crate) fn lost(&self) -> ! {
        self.abort(&format!(
            "rank {} on {}: rank 0 stopped answering (nothing from it for {:?}); the run is abandoned",
            self.link.rank(),
            self.host,
            self.timeout
        ))
    }
}

/// The refusals (rank named, reason), the same reason said once for all the ranks that gave
/// it (the first few named).
fn verdict_text(refusals: &[(String, &str)], n: usize) -> String {
    const NAMED: usize = 4;
    let mut reasons: Vec<(&str, Vec<&str>)> = Vec::new();
    for (who, why) in refusals {
        match reasons.iter_mut().find(|(w, _)| w == why) {
            Some((_, list)) => list.push(who),
            None => reasons.push((why, vec![who])),
        }
    }
    let mut out = String::new();
    for (why, who) in reasons {
        let mut names = who[..who.len().min(NAMED)].join(", ");
        if who.len() > NAMED {
            names.push_str(&format!(" and {} more ranks", who.len() - NAMED));
        }
        let verb = if who.len() == 1 { "refuses" } else { "refuse" };
        out.push_str(&format!("{names} {verb} the run: {why}\n"));
    }
    out + &format!("no rank did any I/O ({} of {n} refused)", refusals.len())
}

/// A refusal as sent (in a hello, or as the verdict that stops the run, an empty verdict
/// letting it go on): its exit status in one byte, then its reason.
fn encode_refusal(r: &Refusal) -> Vec<u8> {
    let mut b = vec![r.code.clamp(0, 255) as u8];
    b.extend_from_slice(r.why.as_bytes());
    b
}

fn decode_refusal(b: &[u8]) -> Refusal {
    match b.split_first() {
        Some((&code, why)) => Refusal {
            code: i32::from(code),
            why: String::from_utf8_lossy(why).into_owned(),
        },
        None => Refusal::failed(""),
    }
}

fn encode_hello(host: &str, refusal: Option<&Refusal>) -> Vec<u8> {
    let mut b = host.as_bytes().to_vec();
    if let Some(r) = refusal {
        b.push(0);
        b.extend_from_slice(&encode_refusal(r));
    }
    b
}

fn decode_hello(b: &[u8]) -> (String, Option<Refusal>) {
    match b.iter().position(|&c| c == 0) {
        Some(i) => (
            String::from_utf8_lossy(&b[..i]).into_owned(),
            Some(decode_refusal(&b[i + 1..])),
        ),
        None => (String::from_utf8_lossy(b).into_owned(), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_given_by_many_ranks_is_said_once() {
        let r: Vec<(String, &str)> = (0..6)
            .map(|i| {
                (
                    format!("rank {i} on n"),
                    if i == 2 { "full" } else { "mounted" },
                )
            })
            .collect();
        assert_eq!(
            verdict_text(&r, 8),
            "rank 0 on n, rank 1 on n, rank 3 on n, rank 4 on n and 1 more ranks refuse the run: mounted\n\
             rank 2 on n refuses the run: full\n\
             no rank did any I/O (6 of 8 refused)"
        );
    }

    #[test]
    fn hello_carries_host_and_refusal() {
        assert_eq!(decode_hello(&encode_hello("n1", None)), ("n1".into(), None));
        for r in [
            Refusal::failed("mounted"),
            Refusal::bad_input("a directory"),
        ] {
            assert_eq!(
                decode_hello(&encode_hello("n1", Some(&r))),
                ("n1".into(), Some(r.clone()))
            );
            assert_eq!(decode_refusal(&encode_refusal(&r)), r);
        }
    }
}
