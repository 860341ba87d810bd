//! The netsplice engine: the net engine whose TCP blocks pass through a pipe with splice(2)
//! (received: socket to pipe, then out of the pipe into the buffer; sent: the buffer into the
//! pipe with vmsplice(2), then pipe to socket), as fio's netsplice does. UDP and unix sockets
//! use send and recv, as there.

use super::{NetEngine, FLAGS, OPTIONS};
use crate::engines::{EngineDecl, EngineKind};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

/// Blocks over a socket through a pipe.
pub(crate) const DECL: EngineDecl = EngineDecl {
    kind: EngineKind::Netsplice,
    flags: FLAGS,
    options: OPTIONS,
    create: |_, setup| Ok(Box::new(NetEngine::new(setup, true)?)),
};

/// A pipe between the socket and the buffers.
pub(crate) struct Pipe {
    read: OwnedFd,
    write: OwnedFd,
    /// How much the pipe holds: the most one splice moves.
    capacity: usize,
}

fn check(r: isize) -> io::Result<usize> {
    if r < 0 {
        let e = io::Error::last_os_error();
        if e.kind() == io::ErrorKind::Interrupted {
            return Ok(0);
        }
        return Err(e);
    }
    Ok(r as usize)
}

impl Pipe {
    pub(crate) fn new() -> io::Result<Pipe> {
        let mut fds = [0 as RawFd; 2];
        // SAFETY: pipe2 fills the two descriptors, which are then owned here.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: both descriptors were just opened and are owned by nothing else.
        let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        // SAFETY: F_GETPIPE_SZ on an open pipe.
        let cap = unsafe { libc::fcntl(write.as_raw_fd(), libc::F_GETPIPE_SZ) };
        Ok(Pipe {
            read,
            write,
            capacity: if cap > 0 { cap as usize } else { 65536 },
        })
    }

    /// Receive `buf.len()` bytes from `sock` (less at the stream's end), a pipe's worth at a
    /// time: socket to pipe, then pipe to buffer. 0: the stream had ended.
    pub(crate) fn splice_in(&self, sock: RawFd, buf: &mut [u8]) -> io::Result<usize> {
        let mut got = 0;
        while got < buf.len() {
            let want = (buf.len() - got).min(self.capacity);
            // SAFETY: splice between two open descriptors; no user memory.
            let n = check(unsafe {
                libc::splice(
                    sock,
                    std::ptr::null_mut(),
                    self.write.as_raw_fd(),
                    std::ptr::null_mut(),
                    want,
                    libc::SPLICE_F_MOVE,
                )
            })?;
            if n == 0 {
                break;
            }
            let mut out = 0;
            while out < n {
                let dst = &mut buf[got + out..got + n];
                // SAFETY: reading into the part of `buf` not yet filled.
                out += check(unsafe {
                    libc::read(self.read.as_raw_fd(), dst.as_mut_ptr().cast(), dst.len())
                })?;
            }
            got += n;
        }
        Ok(got)
    }

    /// Send all of `buf` to `sock`, a pipe's worth at a time: the buffer copied into the pipe
    /// (so the socket never holds pages of a buffer the job refills), then pipe to socket.
    pub(crate) fn splice_out(&self, buf: &[u8], sock: RawFd) -> io::Result<usize> {
        let mut put = 0;
        while put < buf.len() {
            let chunk = &buf[put..buf.len().min(put + self.capacity)];
            // SAFETY: write reads `chunk`, valid for the call.
            let n = check(unsafe {
                libc::write(self.write.as_raw_fd(), chunk.as_ptr().cast(), chunk.len())
            })?;
            let mut out = 0;
            while out < n {
                // SAFETY: splice between two open descriptors; no user memory.
                out += check(unsafe {
                    libc::splice(
                        self.read.as_raw_fd(),
                        std::ptr::null_mut(),
                        sock,
                        std::ptr::null_mut(),
                        n - out,
                        libc::SPLICE_F_MOVE,
                    )
                })?;
            }
            put += n;
        }
        Ok(put)
    }
}
