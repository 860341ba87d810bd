//! The net engine: each read receives and each write sends one block over a TCP, UDP or unix
//! socket, to or from a peer job (iomark's or fio's: the socket set-up and the link messages
//! are fio's). A stream read waits for the whole block; a sender that closes ends the
//! receiving job. With `pingpong` every block is answered: a reader sends back what it
//! received, a writer waits for the block to come back. UDP blocks carry fio's sequence
//! stamp, and a receiver counts the datagrams that never came as dropped I/Os; they also
//! begin with the open message, so that a receiver that missed it (bound, or joined the
//! multicast group, after the sender started) opens the link at the first datagram it gets.

mod link;
mod seq;
pub(crate) mod splice;

use super::{
    Engine, EngineDecl, EngineError, EngineFlags, EngineKind, EngineOption, EngineSetup, IoUnit,
    Op, Queued, END_OF_STREAM,
};
use iomark_model::job::NetLink;
use link::Linked;
use socket2::SockAddr;
use std::io;
use std::mem::MaybeUninit;
use std::os::fd::AsRawFd;

/// The options the network engines read.
pub(crate) const OPTIONS: &[EngineOption] = &[
    EngineOption::Hostname,
    EngineOption::Port,
    EngineOption::Protocol,
    EngineOption::Listen,
    EngineOption::Pingpong,
    EngineOption::Nodelay,
    EngineOption::WindowSize,
    EngineOption::Mss,
    EngineOption::Interface,
    EngineOption::Ttl,
];

/// Moves its blocks over a socket: no file, nothing laid out.
pub(crate) const FLAGS: EngineFlags = EngineFlags {
    sync: true,
    opens_file: false,
    diskless: true,
    metadata: false,
    direct: false,
    noio: false,
};

/// Blocks over a socket with send and recv.
pub(crate) const DECL: EngineDecl = EngineDecl {
    kind: EngineKind::Net,
    flags: FLAGS,
    options: OPTIONS,
    create: |_, setup| Ok(Box::new(NetEngine::new(setup, false)?)),
};

pub(crate) struct NetEngine {
    link: Linked,
    udp: bool,
    pingpong: bool,
    /// Stream blocks go through a pipe with splice(2) (netsplice, TCP).
    pipe: Option<splice::Pipe>,
    /// Whether this side sent anything (it then ends with the close message).
    sent: bool,
    /// UDP with stamps: the sender's numbering, the receiver's count of gaps.
    stamper: Option<seq::Stamper>,
    checker: Option<seq::Checker>,
}

impl NetEngine {
    pub(crate) fn new(setup: &EngineSetup, use_splice: bool) -> Result<NetEngine, EngineError> {
        let net: &NetLink = &setup.options.net;
        if net.port == 0 && net.host.is_none() {
            return Err(EngineError::Unavailable(
                "needs a port (tcp, udp) or a socket path (unix)".into(),
            ));
        }
        let link = if net.listen {
            link::listen(net)?
        } else {
            link::connect(net)?
        };
        let stamps = net.stamps && net.protocol.is_udp();
        let pipe = if use_splice && net.protocol.is_tcp() {
            Some(splice::Pipe::new()?)
        } else {
            None
        };
        Ok(NetEngine {
            link,
            udp: net.protocol.is_udp(),
            pingpong: net.pingpong,
            pipe,
            sent: false,
            stamper: stamps.then(seq::Stamper::default),
            checker: stamps.then(seq::Checker::default),
        })
    }

    /// Receive one block into `buf`: a whole block from a stream (less only at its end), one
    /// datagram from UDP. `Ok(None)`: the peer ended the stream.
    fn recv(&mut self, buf: &mut [u8]) -> io::Result<Option<usize>> {
        if self.udp {
            let (n, from) = retry(|| self.link.socket.recv_from(uninit(buf)))?;
            if link::is_close(&buf[..n]) {
                return Ok(None);
            }
            self.link.peer = Some(from);
            return Ok(Some(n));
        }
        if let Some(p) = &self.pipe {
            let n = p.splice_in(self.link.socket.as_raw_fd(), buf)?;
            let closed = n == 0 || (n == 8 && link::is_close(&buf[..8]));
            return Ok((!closed).then_some(n));
        }
        let mut got = 0;
        while got < buf.len() {
            let n = retry(|| self.link.socket.recv(uninit(&mut buf[got..])))?;
            if n == 0 {
                break;
            }
            got += n;
            // The sender's close message alone, at a block's start: the stream's end.
            if got == 8 && link::is_close(&buf[..8]) {
                return Ok(None);
            }
        }
        Ok((got > 0).then_some(got))
    }

    /// Send one block: all of it on a stream, one datagram on UDP.
    fn send(&mut self, buf: &[u8], peer: Option<&SockAddr>) -> io::Result<usize> {
        self.sent = true;
        if self.udp {
            let to = peer.ok_or_else(|| io::Error::from_raw_os_error(libc::EDESTADDRREQ))?;
            return retry(|| self.link.socket.send_to(buf, to));
        }
        if let Some(p) = &self.pipe {
            return p.splice_out(buf, self.link.socket.as_raw_fd());
        }
        let mut put = 0;
        while put < buf.len() {
            put += retry(|| {
                self.link
                    .socket
                    .send_with_flags(&buf[put..], libc::MSG_NOSIGNAL)
            })?;
        }
        Ok(put)
    }

    fn transfer(&mut self, op: Op, buf: &mut [u8]) -> i64 {
        let peer = self.link.peer.clone();
        let r = match op {
            Op::Read => self.recv(buf).inspect(|got| {
                if let (Some(c), Some(_)) = (&mut self.checker, got) {
                    c.check(buf);
                }
            }),
            Op::Write => {
                if let Some(s) = &mut self.stamper {
                    s.stamp(buf);
                    link::mark_open(buf);
                }
                self.send(buf, peer.as_ref()).map(Some)
            }
            // Syncs have nothing to flush; trims are not network operations.
            Op::Fsync | Op::Fdatasync => return 0,
            Op::Trim => return -(libc::EINVAL as i64),
        };
        let n = match r {
            Ok(Some(n)) => n,
            Ok(None) => return END_OF_STREAM,
            Err(e) => return -(e.raw_os_error().unwrap_or(libc::EIO) as i64),
        };
        if !self.pingpong {
            return n as i64;
        }
        // The answer: a reader returns the block to its sender, a writer waits for it back.
        let answer = match op {
            Op::Read => {
                let peer = self.link.peer.clone();
                self.send(&buf[..n], peer.as_ref()).map(Some)
            }
            _ => self.recv(&mut buf[..n]),
        };
        match answer {
            Ok(Some(m)) => m as i64,
            Ok(None) => END_OF_STREAM,
            Err(e) => -(e.raw_os_error().unwrap_or(libc::EIO) as i64),
        }
    }
}

/// A network job's clone `clone` has its own connection: the job's port plus the clone's
/// number (TCP, UDP), as fio gives each of `numjobs` its port. The front end has checked that
/// the last clone's port exists.
pub(crate) fn for_clone(spec: &mut crate::job::JobSpec, clone: u32) {
    if matches!(spec.ioengine, EngineKind::Net | EngineKind::Netsplice) {
        if let Some(l) = spec.engine_options.net.for_clone(clone) {
            spec.engine_options.net = l;
        }
        // A job that verifies its data carries no stamp in it (as in fio).
        spec.engine_options.net.stamps = spec.verify.is_none();
    }
}

/// The socket path a unix-socket listener binds (and replaces a stale socket at), if `spec`
/// is one: the run's checks of written files look at it before any I/O.
pub(crate) fn listen_path(spec: &crate::job::JobSpec) -> Option<&std::path::Path> {
    let net = &spec.engine_options.net;
    let kind = matches!(spec.ioengine, EngineKind::Net | EngineKind::Netsplice);
    let listens =
        net.protocol == iomark_model::job::NetProtocol::Unix && net.waits(spec.rw.has_read());
    if !(kind && listens) {
        return None;
    }
    net.host.as_deref().map(std::path::Path::new)
}

/// `buf` as the receiving calls take it.
fn uninit(buf: &mut [u8]) -> &mut [MaybeUninit<u8>] {
    // SAFETY: same layout; the receiving calls only write initialised bytes into it.
    unsafe { &mut *(buf as *mut [u8] as *mut [MaybeUninit<u8>]) }
}

/// Retry a socket call interrupted by a signal.
fn retry<T>(mut f: impl FnMut() -> io::Result<T>) -> io::Result<T> {
    loop {
        match f() {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            r => return r,
        }
    }
}

impl Engine for NetEngine {
    #[cfg(test)]
    fn name(&self) -> &'static str {
        if self.pipe.is_some() {
            "netsplice"
        } else {
            "net"
        }
    }
    fn is_sync(&self) -> bool {
        true
    }
    fn dropped(&self) -> [u64; 3] {
        [self.checker.as_ref().map_or(0, |c| c.lost), 0, 0]
    }
    fn queue(&mut self, io: &IoUnit) -> Queued {
        // SAFETY: the worker's buffer for this slot holds `len` bytes and is not touched by
        // the worker until the I/O completes, which it does inside this call.
        let buf = unsafe { std::slice::from_raw_parts_mut(io.buf, io.len) };
        Queued::Done(self.transfer(io.op, buf))
    }
}

impl Drop for NetEngine {
    fn drop(&mut self) {
        // The sender's last word, which ends a UDP receiver (fio's close message).
        if self.sent {
            let m = link::close_message();
            let _ = match &self.link.peer {
                Some(p) if self.udp => self.link.socket.send_to(&m, p),
                _ => self.link.socket.send_with_flags(&m, libc::MSG_NOSIGNAL),
            };
        }
    }
}

#[cfg(test)]
mod tests;
