//! Records moved through a memory mapping of the file instead of read(2)/write(2): a reader's
//! record is copied out of a private read-only mapping, a writer's copied into a shared
//! writable one (so the page cache takes the stores and the kernel writes them back), with an
//! optional msync of each record after it is stored. Before a writer maps its file, a file
//! shorter than the pass is extended by writing its last record, so every store lands inside
//! the file. Page faults, not system calls, carry the I/O; the pass counts msync calls.

use serde::{Deserialize, Serialize};
use std::io;
use std::os::fd::RawFd;

/// What follows each record stored into a writable mapping.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MapSync {
    /// Nothing: the kernel writes the pages back when it likes (or at the pass's msync).
    #[default]
    None,
    /// msync(MS_ASYNC) of the record's pages: schedule the write-back, do not wait.
    Async,
    /// msync(MS_SYNC) of the record's pages: wait until they are on the device.
    Sync,
}

/// madvise(2) advice given for the whole mapping before the pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MapAdvice {
    Normal,
    Random,
    Sequential,
    DontNeed,
    WillNeed,
}

impl MapAdvice {
    fn raw(self) -> libc::c_int {
        match self {
            MapAdvice::Normal => libc::MADV_NORMAL,
            MapAdvice::Random => libc::MADV_RANDOM,
            MapAdvice::Sequential => libc::MADV_SEQUENTIAL,
            MapAdvice::DontNeed => libc::MADV_DONTNEED,
            MapAdvice::WillNeed => libc::MADV_WILLNEED,
        }
    }
}

/// One mapping of a whole file; unmapped on drop.
pub(super) struct Mapping {
    ptr: *mut u8,
    len: usize,
    page: usize,
}

// SAFETY: the mapping is owned by one handle and only touched through &self/&mut self.
unsafe impl Send for Mapping {}

fn cvt(r: libc::c_int) -> io::Result<()> {
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

impl Mapping {
    /// Map `len` bytes of `fd`: shared and writable for a writer, private and read-only for a
    /// reader.
    pub(crate) fn new(fd: RawFd, len: usize, write: bool) -> io::Result<Mapping> {
        let (prot, flags) = if write {
            (libc::PROT_READ | libc::PROT_WRITE, libc::MAP_SHARED)
        } else {
            (libc::PROT_READ, libc::MAP_PRIVATE)
        };
        // SAFETY: a fresh mapping chosen by the kernel; fd is an open descriptor.
        let p = unsafe { libc::mmap(std::ptr::null_mut(), len.max(1), prot, flags, fd, 0) };
        if p == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        Ok(Mapping {
            ptr: p.cast(),
            len: len.max(1),
            page: crate::sys::page_size().max(1),
        })
    }

    pub(crate) fn advise(&self, a: MapAdvice) -> io::Result<()> {
        // SAFETY: the range is this mapping.
        cvt(unsafe { libc::madvise(self.ptr.cast(), self.len, a.raw()) })
    }

    /// Copy out up to `buf.len()` bytes at `off`; the bytes copied (short at the end).
    pub(crate) fn copy_out(&self, off: u64, buf: &mut [u8]) -> usize {
        let off = (off as usize).min(self.len);
        let n = buf.len().min(self.len - off);
        // SAFETY: off + n <= len, inside the mapping; buf is a distinct allocation.
        unsafe { std::ptr::copy_nonoverlapping(self.ptr.add(off), buf.as_mut_ptr(), n) };
        n
    }

    /// Copy `buf` in at `off`; the bytes copied (short at the end).
    pub(crate) fn copy_in(&mut self, off: u64, buf: &[u8]) -> usize {
        let off = (off as usize).min(self.len);
        let n = buf.len().min(self.len - off);
        // SAFETY: off + n <= len, inside a writable mapping; buf is a distinct allocation.
        unsafe { std::ptr::copy_nonoverlapping(buf.as_ptr(), self.ptr.add(off), n) };
        n
    }

    /// msync of the pages holding `off .. off + len` (the start rounded down to a page).
    pub(crate) fn msync(&self, off: u64, len: usize, sync: bool) -> io::Result<()> {
        let off = (off as usize).min(self.len);
        let start = off - off % self.page;
        let end = (off + len).min(self.len);
        let flags = if sync { libc::MS_SYNC } else { libc::MS_ASYNC };
        // SAFETY: start is page-aligned and the range lies inside the mapping.
        cvt(unsafe { libc::msync(self.ptr.add(start).cast(), end - start, flags) })
    }

    pub(crate) fn size(&self) -> usize {
        self.len
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: ptr/len are the mapping made in new(), unmapped once.
        unsafe { libc::munmap(self.ptr.cast(), self.len) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TempDir;
    use std::os::fd::AsRawFd;

    #[test]
    fn stores_reach_the_file_and_loads_see_it() {
        let d = TempDir::new("pass-map");
        let p = d.join("f");
        std::fs::write(&p, vec![0u8; 3 * 4096]).unwrap();
        let f = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&p)
            .unwrap();
        let mut m = Mapping::new(f.as_raw_fd(), 3 * 4096, true).unwrap();
        m.advise(MapAdvice::Sequential).unwrap();
        assert_eq!(m.copy_in(4096 + 100, &[7u8; 50]), 50);
        m.msync(4096 + 100, 50, true).unwrap();
        m.msync(4096 + 100, 50, false).unwrap();
        // The end clips.
        assert_eq!(m.copy_in(3 * 4096 - 10, &[1u8; 50]), 10);
        drop(m);
        let data = std::fs::read(&p).unwrap();
        assert_eq!(&data[4196..4246], &[7u8; 50]);
        assert_eq!(&data[3 * 4096 - 10..], &[1u8; 10]);
        let m = Mapping::new(f.as_raw_fd(), 3 * 4096, false).unwrap();
        let mut buf = [0u8; 60];
        assert_eq!(m.copy_out(4096 + 95, &mut buf), 60);
        assert_eq!(&buf[5..55], &[7u8; 50]);
        assert_eq!(m.size(), 3 * 4096);
    }
}
