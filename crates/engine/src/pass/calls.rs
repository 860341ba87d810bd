//! The system calls a pass moves its records with: read/write at the file position (with a
//! seek when the record is elsewhere), pread/pwrite, preadv/pwritev, or a user-space buffered
//! stream as stdio's fread/fwrite do (the kernel sees one call per buffer, not per record), or
//! a memory mapping of the file (`mapped`). Every call is counted, so tests and results can
//! show a pass's system-call shape.

use super::mapped::{MapAdvice, MapSync, Mapping};
use crate::nocancel;
use crate::sys::AlignedBuf;
use serde::{Deserialize, Serialize};
use std::io;
use std::os::fd::RawFd;

/// How records reach the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Calls {
    /// read(2)/write(2) at the file position; lseek(2) first when the record is elsewhere.
    Plain,
    /// pread(2)/pwrite(2) at the record's offset.
    Positional,
    /// preadv(2)/pwritev(2): the record split into `pieces` buffers of equal size.
    Vectored { pieces: u32 },
    /// A user-space stream with a buffer of `buffer` bytes: records are copied into or out of
    /// the buffer, and the kernel sees read(2)/write(2) of whole buffers (stdio with setvbuf).
    Stream { buffer: u64 },
    /// Loads from and stores into a mapping of the whole file (mmap), each store followed by
    /// `sync`; `advice` is given to madvise first. Flushing the pass is msync(MS_SYNC).
    Mapped {
        sync: MapSync,
        advice: Option<MapAdvice>,
    },
}

/// System calls issued, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallCounts {
    pub reads: u64,
    pub writes: u64,
    pub seeks: u64,
    pub syncs: u64,
    /// msync(2) calls (mapped passes).
    #[serde(default)]
    pub msyncs: u64,
}

/// One open file and the state of its calls.
pub(super) struct Handle {
    pub(crate) fd: RawFd,
    calls: Calls,
    /// Where the kernel's file position is.
    pos: u64,
    /// The stream's buffer (aligned, so O_DIRECT streams work), its valid bytes and the
    /// stream's position inside it.
    sbuf: AlignedBuf,
    sbuf_len: usize,
    sbuf_at: usize,
    /// File offset of the buffer's first byte.
    sbuf_off: u64,
    /// The buffer holds written bytes not yet handed to the kernel.
    dirty: bool,
    /// The file's mapping (mapped passes, once `map` was called).
    map: Option<Mapping>,
    pub(crate) counts: CallCounts,
}

fn cvt(r: isize) -> io::Result<usize> {
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(r as usize)
    }
}

impl Handle {
    pub(crate) fn new(fd: RawFd, calls: Calls) -> Handle {
        let sbuf = match calls {
            Calls::Stream { buffer } => AlignedBuf::new(buffer.max(1) as usize, 4096),
            _ => AlignedBuf::new(0, 1),
        };
        Handle {
            fd,
            calls,
            pos: 0,
            sbuf,
            sbuf_len: 0,
            sbuf_at: 0,
            sbuf_off: 0,
            dirty: false,
            map: None,
            counts: CallCounts::default(),
        }
    }

    fn seek(&mut self, off: u64) -> io::Result<()> {
        if self.pos != off {
            self.counts.seeks += 1;
            // SAFETY: plain system call on a descriptor.
            let r = unsafe { libc::lseek(self.fd, off as libc::off_t, libc::SEEK_SET) };
            if r < 0 {
                return Err(io::Error::last_os_error());
            }
            self.pos = off;
        }
        Ok(())
    }

    /// read(2) of `len` bytes into `ptr`.
    ///
    /// # Safety
    /// `ptr` must be valid for `len` writable bytes.
    unsafe fn sys_read_raw(&mut self, ptr: *mut u8, len: usize) -> io::Result<usize> {
        self.counts.reads += 1;
        // SAFETY: the caller guarantees ptr is valid for len writable bytes.
        let n = cvt(unsafe { nocancel::read(self.fd, ptr.cast(), len) })?;
        self.pos += n as u64;
        Ok(n)
    }

    fn sys_read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // SAFETY: buf is valid for buf.len() writable bytes.
        unsafe { self.sys_read_raw(buf.as_mut_ptr(), buf.len()) }
    }

    /// write(2) of `len` bytes from `ptr`.
    ///
    /// # Safety
    /// `ptr` must be valid for `len` readable bytes.
    unsafe fn sys_write_raw(&mut self, ptr: *const u8, len: usize) -> io::Result<usize> {
        self.counts.writes += 1;
        // SAFETY: the caller guarantees ptr is valid for len readable bytes.
        let n = cvt(unsafe { nocancel::write(self.fd, ptr.cast(), len) })?;
        self.pos += n as u64;
        Ok(n)
    }

    fn sys_write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // SAFETY: buf is valid for buf.len() readable bytes.
        unsafe { self.sys_write_raw(buf.as_ptr(), buf.len()) }
    }

    /// Read one record at `off` into `buf`; the bytes read (short only at the end of the file).
    pub(crate) fn read_at(&mut self, off: u64, buf: &mut [u8]) -> io::Result<usize> {
        match self.calls {
            Calls::Plain => {
                self.seek(off)?;
                self.sys_read(buf)
            }
            Calls::Positional => {
                self.counts.reads += 1;
                // SAFETY: buf is valid for buf.len() writable bytes.
                cvt(unsafe {
                    nocancel::pread(
                        self.fd,
                        buf.as_mut_ptr().cast(),
                        buf.len(),
                        off as libc::off_t,
                    )
                })
            }
            Calls::Vectored { pieces } => {
                let iov = iovecs(buf.as_mut_ptr(), buf.len(), pieces);
                self.counts.reads += 1;
                // SAFETY: every iovec points inside buf, which is valid and writable.
                cvt(unsafe {
                    nocancel::preadv(self.fd, iov.as_ptr(), iov.len() as i32, off as libc::off_t)
                })
            }
            Calls::Stream { .. } => self.stream_read(off, buf),
            Calls::Mapped { .. } => Ok(self.mapping()?.copy_out(off, buf)),
        }
    }

    /// Write one record at `off` from `buf`; the bytes accepted.
    pub(crate) fn write_at(&mut self, off: u64, buf: &[u8]) -> io::Result<usize> {
        match self.calls {
            Calls::Plain => {
                self.seek(off)?;
                self.sys_write(buf)
            }
            Calls::Positional => {
                self.counts.writes += 1;
                // SAFETY: buf is valid for buf.len() readable bytes.
                cvt(unsafe {
                    nocancel::pwrite(self.fd, buf.as_ptr().cast(), buf.len(), off as libc::off_t)
                })
            }
            Calls::Vectored { pieces } => {
                let iov = iovecs(buf.as_ptr() as *mut u8, buf.len(), pieces);
                self.counts.writes += 1;
                // SAFETY: every iovec points inside buf; pwritev only reads through them.
                cvt(unsafe {
                    nocancel::pwritev(self.fd, iov.as_ptr(), iov.len() as i32, off as libc::off_t)
                })
            }
            Calls::Stream { .. } => self.stream_write(off, buf),
            Calls::Mapped { sync, .. } => {
                let n = self.mapping_mut()?.copy_in(off, buf);
                if sync != MapSync::None {
                    self.counts.msyncs += 1;
                    self.mapping()?.msync(off, n, sync == MapSync::Sync)?;
                }
                Ok(n)
            }
        }
    }

    /// Move the stream to `off` (fseek): write out what is buffered, drop what was read ahead.
    fn stream_seek(&mut self, off: u64) -> io::Result<()> {
        let here = self.sbuf_off + self.sbuf_at as u64;
        if here == off {
            return Ok(());
        }
        self.flush()?;
        self.sbuf_len = 0;
        self.sbuf_at = 0;
        self.sbuf_off = off;
        self.seek(off)
    }

    fn stream_read(&mut self, off: u64, buf: &mut [u8]) -> io::Result<usize> {
        self.stream_seek(off)?;
        let mut done = 0;
        while done < buf.len() {
            if self.sbuf_at == self.sbuf_len {
                self.sbuf_off += self.sbuf_len as u64;
                self.sbuf_at = 0;
                self.sbuf_len = 0;
                let (ptr, len) = (self.sbuf.as_mut_ptr(), self.sbuf.len());
                // SAFETY: the stream's buffer is valid for its length and not otherwise
                // borrowed during the call.
                let n = unsafe { self.sys_read_raw(ptr, len) }?;
                if n == 0 {
                    break;
                }
                self.sbuf_len = n;
            }
            let n = (buf.len() - done).min(self.sbuf_len - self.sbuf_at);
            buf[done..done + n]
                .copy_from_slice(&self.sbuf.as_slice()[self.sbuf_at..self.sbuf_at + n]);
            self.sbuf_at += n;
            done += n;
        }
        Ok(done)
    }

    fn stream_write(&mut self, off: u64, buf: &[u8]) -> io::Result<usize> {
        self.stream_seek(off)?;
        let mut done = 0;
        while done < buf.len() {
            let n = (buf.len() - done).min(self.sbuf.len() - self.sbuf_at);
            self.sbuf.as_mut_slice()[self.sbuf_at..self.sbuf_at + n]
                .copy_from_slice(&buf[done..done + n]);
            self.sbuf_at += n;
            self.sbuf_len = self.sbuf_len.max(self.sbuf_at);
            self.dirty = true;
            done += n;
            if self.sbuf_at == self.sbuf.len() {
                self.flush()?;
            }
        }
        Ok(done)
    }

    /// Hand what a stream buffered to the kernel (fflush); nothing for the other calls.
    pub(crate) fn flush(&mut self) -> io::Result<()> {
        if !self.dirty {
            return Ok(());
        }
        let mut at = 0;
        let mut res = Ok(());
        while at < self.sbuf_len {
            // SAFETY: at < sbuf_len <= the buffer's length; the buffer is not otherwise
            // borrowed during the call.
            let ptr = unsafe { self.sbuf.as_ptr().add(at) };
            match unsafe { self.sys_write_raw(ptr, self.sbuf_len - at) } {
                Ok(0) => {
                    res = Err(io::Error::new(io::ErrorKind::WriteZero, "short write"));
                    break;
                }
                Ok(n) => at += n,
                Err(e) => {
                    res = Err(e);
                    break;
                }
            }
        }
        self.sbuf_off += self.sbuf_len as u64;
        self.sbuf_len = 0;
        self.sbuf_at = 0;
        self.dirty = false;
        res
    }

    /// Map the first `len` bytes of the file for a mapped pass (nothing for the other calls).
    /// A writer's file shorter than `len` is first extended by writing its last `record`
    /// bytes with pwrite(2), so every store lands inside the file.
    pub(crate) fn map(&mut self, len: u64, record: u64, write: bool) -> io::Result<()> {
        let Calls::Mapped { advice, .. } = self.calls else {
            return Ok(());
        };
        if write {
            // SAFETY: zeroed stat is a valid out value.
            let mut st: libc::stat = unsafe { std::mem::zeroed() };
            // SAFETY: fd is open and st is a valid out pointer.
            cvt(unsafe { libc::fstat(self.fd, &mut st) } as isize)?;
            if (st.st_size as u64) < len {
                let rec = record.clamp(1, len.max(1));
                let buf = AlignedBuf::new(rec as usize, 4096);
                let off = (len - rec) as libc::off_t;
                // SAFETY: buf is valid for its length.
                cvt(unsafe { libc::pwrite(self.fd, buf.as_ptr().cast(), buf.len(), off) })?;
            }
        }
        let m = Mapping::new(self.fd, len as usize, write)?;
        if let Some(a) = advice {
            m.advise(a)?;
        }
        self.map = Some(m);
        Ok(())
    }

    fn mapping(&self) -> io::Result<&Mapping> {
        self.map
            .as_ref()
            .ok_or_else(|| io::Error::other("mapped pass without a mapping"))
    }

    fn mapping_mut(&mut self) -> io::Result<&mut Mapping> {
        self.map
            .as_mut()
            .ok_or_else(|| io::Error::other("mapped pass without a mapping"))
    }

    /// fsync(2), or msync(MS_SYNC) of the whole mapping once the file is mapped.
    pub(crate) fn sync(&mut self) -> io::Result<()> {
        if let Some(m) = &self.map {
            self.counts.msyncs += 1;
            return m.msync(0, m.size(), true);
        }
        self.counts.syncs += 1;
        // SAFETY: plain system call on a descriptor.
        cvt(unsafe { libc::fsync(self.fd) } as isize).map(|_| ())
    }

    /// munmap(2) of the mapping, then close(2), once.
    pub(crate) fn close(&mut self) -> io::Result<()> {
        self.map = None;
        if self.fd < 0 {
            return Ok(());
        }
        let fd = std::mem::replace(&mut self.fd, -1);
        // SAFETY: fd is open and owned by this handle; it is closed once.
        cvt(unsafe { libc::close(fd) } as isize).map(|_| ())
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        let _ = self.close();
    }
}

/// `len` bytes at `base` as `pieces` iovecs of (nearly) equal size.
fn iovecs(base: *mut u8, len: usize, pieces: u32) -> Vec<libc::iovec> {
    let k = (pieces.max(1) as usize).min(len.max(1));
    let each = len / k;
    (0..k)
        .map(|i| {
            let start = i * each;
            let end = if i + 1 == k { len } else { start + each };
            libc::iovec {
                // SAFETY: start <= len, so the pointer stays inside the buffer.
                iov_base: unsafe { base.add(start) }.cast(),
                iov_len: end - start,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TempDir;
    use std::os::fd::IntoRawFd;

    fn open(path: &std::path::Path) -> RawFd {
        std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .unwrap()
            .into_raw_fd()
    }

    fn data(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i * 7 + 3) as u8).collect()
    }

    #[test]
    fn every_kind_writes_and_reads_the_same_bytes() {
        let d = TempDir::new("pass-calls");
        for (i, calls) in [
            Calls::Plain,
            Calls::Positional,
            Calls::Vectored { pieces: 3 },
            Calls::Stream { buffer: 8192 },
        ]
        .into_iter()
        .enumerate()
        {
            let p = d.join(format!("f{i}"));
            let src = data(4 * 4096);
            let mut h = Handle::new(open(&p), calls);
            for r in 0..4 {
                let off = r * 4096;
                let n = h.write_at(off as u64, &src[off..off + 4096]).unwrap();
                assert_eq!(n, 4096, "{calls:?}");
            }
            h.flush().unwrap();
            h.close().unwrap();
            assert_eq!(std::fs::read(&p).unwrap(), src, "{calls:?}");
            // Backwards, record by record.
            let mut h = Handle::new(open(&p), calls);
            let mut buf = vec![0u8; 4096];
            for r in (0..4u64).rev() {
                assert_eq!(h.read_at(r * 4096, &mut buf).unwrap(), 4096);
                let off = r as usize * 4096;
                assert_eq!(&buf[..], &src[off..off + 4096], "{calls:?} record {r}");
            }
        }
    }

    #[test]
    fn call_shapes() {
        let d = TempDir::new("pass-shapes");
        let p = d.join("f");
        std::fs::write(&p, data(16 * 4096)).unwrap();
        let mut buf = vec![0u8; 4096];
        // Forward plain reads: no seek; backwards: a seek before every read but none first.
        let mut h = Handle::new(open(&p), Calls::Plain);
        for r in 0..16 {
            h.read_at(r * 4096, &mut buf).unwrap();
        }
        assert_eq!((h.counts.reads, h.counts.seeks), (16, 0));
        let mut h = Handle::new(open(&p), Calls::Plain);
        for r in (0..16).rev() {
            h.read_at(r * 4096, &mut buf).unwrap();
        }
        assert_eq!((h.counts.reads, h.counts.seeks), (16, 16));
        // A 16 KiB stream buffer reads 4 KiB records with a quarter of the calls.
        let mut h = Handle::new(open(&p), Calls::Stream { buffer: 16384 });
        for r in 0..16 {
            h.read_at(r * 4096, &mut buf).unwrap();
        }
        assert_eq!(h.counts.reads, 4);
        let mut h = Handle::new(open(&p), Calls::Stream { buffer: 16384 });
        for r in 0..16 {
            h.write_at(r * 4096, &buf).unwrap();
        }
        h.flush().unwrap();
        assert_eq!(h.counts.writes, 4);
        assert_eq!(iovecs(buf.as_mut_ptr(), 4096, 4).len(), 4);
        assert_eq!(
            iovecs(buf.as_mut_ptr(), 10, 4)
                .iter()
                .map(|v| v.iov_len)
                .sum::<usize>(),
            10
        );
    }
}
