//! A worker's data verification: stamps every written verify block with a header (offset, job,
//! seed, generation, checksums), remembers the generation last written to each block, and reads
//! the blocks back to check them, after the write phase or inline every `verify_backlog` writes.
//!
//! No false positives at any queue depth: when two writes to the same block were in flight
//! together either may land last, so that block accepts any generation from the oldest of them.

use crate::job::VerifySpec;
use crate::result::{BlockHeader, DirResult, VerifyReport, VerifyResult};
use crate::sys;
use crate::verify::{self, BlockId, Expect, RecentWrites, VerifyKind, WriteProgress, WrittenMap};
use crate::worker_file::WorkerFile;
use std::os::fd::RawFd;
use std::path::PathBuf;

const MAX_REPORTS: usize = 100;

/// Verification settings that cannot work.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum VerifierError {
    /// The verify block cannot hold the header of its kind.
    #[error(
        "{kind}: the verify block ({block} bytes) is smaller than its header ({header} bytes)"
    )]
    BlockSmallerThanHeader {
        kind: VerifyKind,
        block: u64,
        header: u64,
    },
    /// The verify block does not divide the block size.
    #[error("the verify block ({block} bytes) must divide the block size ({block_size})")]
    BlockNotDividing { block: u64, block_size: u64 },
    /// The header moved `offset` bytes into the block does not fit in it, or overlaps where it
    /// was.
    #[error("the header offset ({offset}) must be at least the header length ({header} bytes), and with it fit in the verify block ({block} bytes)")]
    HeaderOffsetTooLarge {
        offset: u64,
        header: u64,
        block: u64,
    },
}

/// Swaps a block's header (its first `hlen` bytes) with the `hlen` bytes `at` into the block;
/// doing it twice restores the block. `at == 0` leaves it as it is; `at` is never below `hlen`
/// (refused when the verifier is made).
fn swap_header(blk: &mut [u8], hlen: usize, at: usize) {
    if at == 0 || hlen == 0 || at < hlen {
        return;
    }
    let (head, rest) = blk.split_at_mut(at);
    head[..hlen].swap_with_slice(&mut rest[..hlen]);
}

struct FileMap {
    start: u64,
    /// Last generation written to each block.
    high: WrittenMap,
    /// Oldest generation that may have landed last (differs from `high` after overlapping writes).
    low: Vec<u32>,
    /// Writes in flight per block.
    inflight: Vec<u16>,
    /// With verify_backlog: the block was checked inline since its last write, so the final
    /// read-back skips it (as fio drops checked blocks from its list). Empty without backlog.
    checked: Vec<bool>,
}

/// Where the verifier reads back from: the job's descriptors (by file), or the engine itself
/// for files without a descriptor (Ceph images).
pub(crate) enum ReadBack<'a> {
    Fds(&'a [RawFd]),
    Engine(&'a mut dyn crate::engines::Engine),
}

impl ReadBack<'_> {
    /// Reads into `buf` at `offset` of file `fi`: the bytes read (0 at the end).
    fn read(&mut self, fi: usize, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
        match self {
            ReadBack::Fds(fds) => {
                // SAFETY: buf is valid for its length; pread writes at most that many bytes.
                let r = unsafe {
                    libc::pread(
                        fds[fi],
                        buf.as_mut_ptr() as *mut libc::c_void,
                        buf.len(),
                        offset as libc::off_t,
                    )
                };
                if r < 0 {
                    Err(std::io::Error::last_os_error())
                } else {
                    Ok(r as usize)
                }
            }
            ReadBack::Engine(e) => e
                .read_at(fi as u32, buf, offset)
                .unwrap_or_else(|| Err(std::io::Error::from_raw_os_error(libc::EBADF))),
        }
    }
}

pub(crate) struct Verifier {
    kind: VerifyKind,
    interval: u64,
    pattern: Option<Vec<u8>>,
    job: u32,
    seed: u64,
    files: Vec<FileMap>,
    pub(crate) result: VerifyResult,
    pub(crate) fatal: bool,
    dump: bool,
    /// `--dump-dir`, and where dumps of non-regular targets go.
    dump_dir: Option<PathBuf>,
    dump_fallback_dir: Option<PathBuf>,
    pub(crate) only: bool,
    backlog: u64,
    /// Completed writes not yet checked inline: (file, offset, len).
    pending: Vec<(u32, u64, u64)>,
    /// A job that only reads: every block it reads is checked as it completes, against a
    /// header written by any job (fio's read-side verification of data written earlier).
    pub(crate) read_side: bool,
    /// Where in each block the header is stored (`verify_offset`), and a block with it moved
    /// back to the start, for checking.
    header_offset: usize,
    unswapped: Vec<u8>,
    /// Where each block's offset goes in the pattern (`%o`), and the pattern with it pasted.
    pattern_offsets: Vec<usize>,
    patched: Vec<u8>,
    /// `keep_progress`: the last completed writes, and the writes issued.
    recent: Option<RecentWrites>,
    writes_issued: u64,
    /// A read-back limited by what an earlier writing job did, and the reads completed.
    written_before: Option<WriteProgress>,
    reads_done: u64,
}

impl Verifier {
    pub(crate) fn new(
        spec: &VerifySpec,
        job_name: &str,
        thread_number: u32,
        seed: u64,
        min_bs: u64,
        files: &[WorkerFile],
    ) -> Result<Verifier, VerifierError> {
        let kind = spec.method;
        let interval = if spec.interval == 0 {
            min_bs
        } else {
            spec.interval
        };
        if kind != VerifyKind::Null && (interval as usize) < verify::header_len(kind) {
            return Err(VerifierError::BlockSmallerThanHeader {
                kind,
                block: interval,
                header: verify::header_len(kind) as u64,
            });
        }
        let hlen = verify::header_len(kind) as u64;
        if kind != VerifyKind::Null
            && spec.header_offset > 0
            && (spec.header_offset < hlen || spec.header_offset + hlen > interval)
        {
            return Err(VerifierError::HeaderOffsetTooLarge {
                offset: spec.header_offset,
                header: hlen,
                block: interval,
            });
        }
        if min_bs % interval != 0 {
            return Err(VerifierError::BlockNotDividing {
                block: interval,
                block_size: min_bs,
            });
        }
        let mut h: u32 = 0x811c_9dc5;
        for b in job_name.bytes() {
            h = (h ^ b as u32).wrapping_mul(0x0100_0193);
        }
        let job = h ^ thread_number.wrapping_mul(0x9e37_79b9);
        let files = files
            .iter()
            .map(|f| {
                let n = f.region_len.div_ceil(interval) as usize;
                FileMap {
                    start: f.region_start,
                    high: WrittenMap::new(n),
                    low: vec![0; n],
                    inflight: vec![0; n],
                    checked: if spec.backlog > 0 {
                        vec![false; n]
                    } else {
                        Vec::new()
                    },
                }
            })
            .collect();
        Ok(Verifier {
            kind,
            interval,
            pattern: spec.pattern.clone(),
            job,
            seed,
            files,
            result: VerifyResult {
                method: kind.name().to_string(),
                ..Default::default()
            },
            fatal: spec.fatal,
            dump: spec.dump,
            dump_dir: spec.dump_dir.clone(),
            dump_fallback_dir: spec.dump_fallback_dir.clone(),
            only: spec.only,
            backlog: spec.backlog,
            pending: Vec::new(),
            read_side: false,
            header_offset: spec.header_offset as usize,
            unswapped: Vec::new(),
            pattern_offsets: spec.pattern_offsets.clone(),
            patched: Vec::new(),
            recent: None,
            writes_issued: 0,
            written_before: spec
                .written_before
                .iter()
                .flatten()
                .find(|(t, _)| *t == thread_number)
                .map(|(_, p)| p.clone()),
            reads_done: 0,
        })
    }

    /// Keep the last `depth` completed writes of each file (`keep_progress`).
    pub(crate) fn keep_progress(&mut self, depth: u32) {
        self.recent = Some(RecentWrites::new(depth, self.files.len()));
    }

    /// The writes issued and the last completed ones, when they were kept.
    pub(crate) fn progress(&self) -> Option<WriteProgress> {
        self.recent.as_ref().map(|r| r.snapshot(self.writes_issued))
    }

    /// Whether a read-back limited by an earlier job's record must end before reading
    /// `offset` of `file`.
    #[inline]
    pub(crate) fn read_back_ends(&self, file: u32, offset: u64) -> bool {
        self.written_before
            .as_ref()
            .is_some_and(|p| p.read_back_ends(self.reads_done, file, offset))
    }

    /// Paste the offset of the block at `offset` where the pattern asks for it (`%o`).
    fn patch_pattern(&mut self, offset: u64) {
        let Some(p) = &self.pattern else { return };
        if self.pattern_offsets.is_empty() {
            return;
        }
        self.patched.clear();
        self.patched.extend_from_slice(p);
        let bytes = offset.to_le_bytes();
        for &at in &self.pattern_offsets {
            let n = self.patched.len().saturating_sub(at).min(8);
            self.patched[at..at + n].copy_from_slice(&bytes[..n]);
        }
    }

    /// The pattern of the block last given to [`Verifier::patch_pattern`].
    fn pattern(&self) -> Option<&[u8]> {
        if self.pattern_offsets.is_empty() {
            self.pattern.as_deref()
        } else {
            Some(&self.patched)
        }
    }

    /// Stamp a write: assign each verify block its generation and fill the buffer.
    pub(crate) fn on_write_issue(&mut self, file: u32, offset: u64, buf: &mut [u8]) {
        self.writes_issued += 1;
        let iv = self.interval as usize;
        let mut start = 0;
        while start < buf.len() {
            let fm = &mut self.files[file as usize];
            let len = iv.min(buf.len() - start);
            let off = offset + start as u64;
            let b = ((off - fm.start) / self.interval) as usize;
            let gen = fm.high.bump(b as u64);
            if fm.inflight[b] == 0 {
                fm.low[b] = gen;
            }
            fm.inflight[b] = fm.inflight[b].saturating_add(1);
            if let Some(c) = fm.checked.get_mut(b) {
                *c = false;
            }
            let id = BlockId {
                offset: off,
                len: len as u32,
                job: self.job,
                seed: self.seed,
                generation: gen as u64,
            };
            if len >= verify::header_len(self.kind) {
                self.patch_pattern(off);
                let blk = &mut buf[start..start + len];
                verify::fill_block(blk, self.kind, &id, self.pattern());
                swap_header(blk, verify::header_len(self.kind), self.header_offset);
            }
            start += len;
        }
    }

    /// A write completed (`ok`: successfully).
    pub(crate) fn on_write_complete(&mut self, file: u32, offset: u64, len: u64, ok: bool) {
        if let (Some(r), true) = (&mut self.recent, ok) {
            r.record(file, offset);
        }
        let fm = &mut self.files[file as usize];
        let mut off = offset;
        while off < offset + len {
            let b = ((off - fm.start) / self.interval) as usize;
            fm.inflight[b] = fm.inflight[b].saturating_sub(1);
            off += self.interval;
        }
        if self.backlog > 0 {
            self.pending.push((file, offset, len));
        }
    }

    /// Every block written so far counts as checked (a pass's read-back checked them): the next
    /// read-back checks only blocks written after this, as fio's list of written blocks is
    /// emptied by each verify phase.
    pub(crate) fn all_checked(&mut self) {
        for fm in &mut self.files {
            fm.checked = vec![true; fm.low.len()];
        }
    }

    /// Whether enough writes completed for an inline check.
    pub(crate) fn backlog_due(&self) -> bool {
        self.backlog > 0 && self.pending.len() as u64 >= self.backlog
    }

    fn expect(&self, file: usize, off: u64, len: u32) -> Expect {
        if self.read_side {
            return Expect::any(off, len);
        }
        let fm = &self.files[file];
        let b = (off - fm.start) / self.interval;
        let high = fm.high.get(b).unwrap_or(0) as u64;
        let low = fm.low[b as usize] as u64;
        let mut e = Expect::exact(&BlockId {
            offset: off,
            len,
            job: self.job,
            seed: self.seed,
            generation: high,
        });
        if low != high {
            e.exact_generation = None;
            e.min_generation = Some(low);
        }
        e
    }

    /// Check the writes completed since the last inline check. Returns false to stop the job.
    pub(crate) fn check_pending(
        &mut self,
        fds: &mut ReadBack,
        files: &[WorkerFile],
        buf: &mut [u8],
        stats: &mut DirResult,
    ) -> bool {
        let pending = std::mem::take(&mut self.pending);
        for &(f, off, len) in &pending {
            if !self.check_range(fds, files, f as usize, off, len, buf, stats) {
                return false;
            }
            // Nothing is in flight here: these blocks hold what was checked.
            let fm = &mut self.files[f as usize];
            let first = (off - fm.start) / self.interval;
            let last = (off + len - fm.start).div_ceil(self.interval);
            for b in first..last.min(fm.checked.len() as u64) {
                fm.checked[b as usize] = true;
            }
        }
        true
    }

    /// Read back and check every block written in this run. Returns false if stopped early.
    pub(crate) fn check_all(
        &mut self,
        fds: &mut ReadBack,
        files: &[WorkerFile],
        buf: &mut [u8],
        stats: &mut DirResult,
        stop: &std::sync::atomic::AtomicBool,
    ) -> bool {
        self.pending.clear();
        for fi in 0..self.files.len() {
            let nblocks = self.files[fi].low.len() as u64;
            let per_read = (buf.len() as u64 / self.interval).max(1);
            let mut b = 0u64;
            while b < nblocks {
                if stop.load(std::sync::atomic::Ordering::Relaxed) {
                    return false;
                }
                let fm = &self.files[fi];
                if fm.high.get(b).is_none() || fm.checked.get(b as usize) == Some(&true) {
                    b += 1;
                    continue;
                }
                // A run of written blocks, read in one go.
                let mut e = b + 1;
                while e < nblocks
                    && e - b < per_read
                    && fm.high.get(e).is_some()
                    && fm.checked.get(e as usize) != Some(&true)
                {
                    e += 1;
                }
                let start = self.files[fi].start;
                let region_end = start + files[fi].region_len;
                let off = start + b * self.interval;
                let len = ((e - b) * self.interval).min(region_end - off);
                if !self.check_range(fds, files, fi, off, len, buf, stats) {
                    return false;
                }
                b = e;
            }
        }
        true
    }

    /// Read `len` bytes at `off` of file `fi` into `buf` and check the blocks there; a range that
    /// cannot be read is narrowed down block by block. Returns false to stop the job.
    #[allow(clippy::too_many_arguments)]
    fn check_range(
        &mut self,
        fds: &mut ReadBack,
        files: &[WorkerFile],
        fi: usize,
        off: u64,
        len: u64,
        buf: &mut [u8],
        stats: &mut DirResult,
    ) -> bool {
        let len = len as usize;
        let t0 = sys::now_ns();
        let mut done = 0usize;
        while done < len {
            let r = fds.read(fi, &mut buf[done..len], off + done as u64);
            if let Err(e) = r {
                if e.kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                if len as u64 > self.interval {
                    // Narrow the failure down to the blocks that cannot be read.
                    let mut o = off;
                    while o < off + len as u64 {
                        let l = self.interval.min(off + len as u64 - o);
                        if !self.check_range(fds, files, fi, o, l, buf, stats) {
                            return false;
                        }
                        o += l;
                    }
                    return true;
                }
                self.result.blocks_checked += 1;
                self.report(
                    files,
                    fi,
                    off,
                    len as u64,
                    "ReadError",
                    &format!("reading for verification failed: {e}"),
                );
                return !self.fatal;
            }
            let r = r.unwrap_or(0);
            if r == 0 {
                break;
            }
            done += r;
        }
        let t1 = sys::now_ns();
        if done < len {
            // The file ends before data this job wrote: every block not read whole is bad.
            let iv = self.interval as usize;
            let whole = done - done % iv;
            let mut s = whole;
            while s < len {
                let blen = iv.min(len - s);
                self.result.blocks_checked += 1;
                self.report(
                    files,
                    fi,
                    off + s as u64,
                    blen as u64,
                    "ShortRead",
                    &format!(
                        "reading for verification returned only {} of {} bytes from offset {off}: the file or device ends before the written data",
                        done, len
                    ),
                );
                if self.fatal {
                    return false;
                }
                s += blen;
            }
            return self.check_read(files, fi, off, whole, buf, stats, t0, t1);
        }
        self.check_read(files, fi, off, len, buf, stats, t0, t1)
    }

    /// Account the read of `len` bytes that took `t0..t1` and check each verify block in
    /// `buf[..len]`. Returns false to stop the job.
    #[allow(clippy::too_many_arguments)]
    fn check_read(
        &mut self,
        files: &[WorkerFile],
        fi: usize,
        off: u64,
        len: usize,
        buf: &mut [u8],
        stats: &mut DirResult,
        t0: u64,
        t1: u64,
    ) -> bool {
        let done = len;
        stats.io_bytes += done as u64;
        stats.total_ios += 1;
        stats.clat.add(t1 - t0);
        stats.lat.add(t1 - t0);
        self.check_data(files, fi, off, &buf[..len])
    }

    /// Read-side verification: check the verify blocks of a completed read of the job (its
    /// accounting is the job's own). Returns false to stop the job.
    pub(crate) fn on_read_complete(
        &mut self,
        files: &[WorkerFile],
        file: u32,
        offset: u64,
        data: &[u8],
    ) -> bool {
        self.reads_done += 1;
        self.check_data(files, file as usize, offset, data)
    }

    /// Check each verify block of `data`, read from `off` of file `fi`. Returns false to stop
    /// the job.
    fn check_data(&mut self, files: &[WorkerFile], fi: usize, off: u64, data: &[u8]) -> bool {
        let len = data.len();
        let iv = self.interval as usize;
        let mut s = 0;
        while s < len {
            let blen = iv.min(len - s);
            let boff = off + s as u64;
            self.result.blocks_checked += 1;
            if blen >= verify::header_len(self.kind) {
                let e = self.expect(fi, boff, blen as u32);
                self.patch_pattern(boff);
                let mut block = &data[s..s + blen];
                if self.header_offset > 0 {
                    self.unswapped.clear();
                    self.unswapped.extend_from_slice(block);
                    let hlen = verify::header_len(self.kind);
                    swap_header(&mut self.unswapped, hlen, self.header_offset);
                    block = &self.unswapped;
                }
                if let Err(fail) = verify::check_block(block, self.kind, &e, self.pattern()) {
                    let check = format!("{:?}", fail.kind);
                    let msg = fail.to_string();
                    if self.dump {
                        let mut expected = vec![0u8; blen];
                        verify::fill_block(
                            &mut expected,
                            self.kind,
                            &fail.expected_id(),
                            self.pattern(),
                        );
                        let path = &files[fi].path;
                        let dir = match &self.dump_dir {
                            Some(d) => d.clone(),
                            None => crate::targets::dump_dir_beside(
                                path,
                                self.dump_fallback_dir.as_deref(),
                            ),
                        };
                        let stem = path
                            .file_name()
                            .map(|s| s.to_string_lossy().into_owned())
                            .unwrap_or_default();
                        // verify_dump is a debugging aid: a dump that cannot be written
                        // does not change the verdict, which is reported below.
                        let _ =
                            verify::dump_blocks(&dir, &stem, boff, &expected, &data[s..s + blen]);
                    }
                    let e = &fail.expected;
                    let expected = BlockHeader {
                        magic: Some(verify::MAGIC),
                        offset: e.offset,
                        len: e.len as u64,
                        job: e.job,
                        seed: e.seed,
                        generation: e.exact_generation,
                        min_generation: e.min_generation,
                    };
                    let found = fail.found.map(|h| BlockHeader {
                        magic: Some(h.magic),
                        offset: h.offset,
                        len: h.len as u64,
                        job: Some(h.job),
                        seed: Some(h.seed),
                        generation: Some(h.generation),
                        min_generation: None,
                    });
                    self.report(files, fi, boff, blen as u64, &check, &msg);
                    if let Some(r) = self.result.failures.last_mut() {
                        if r.offset == boff && r.expected.is_none() {
                            r.expected = Some(expected);
                            r.found = found;
                        }
                    }
                    if self.fatal {
                        return false;
                    }
                }
            }
            s += blen;
        }
        true
    }

    fn report(
        &mut self,
        files: &[WorkerFile],
        fi: usize,
        off: u64,
        len: u64,
        check: &str,
        msg: &str,
    ) {
        self.result.bad_blocks += 1;
        if self.result.failures.len() < MAX_REPORTS {
            self.result.failures.push(VerifyReport {
                file: files[fi].path.display().to_string(),
                offset: off,
                len,
                check: check.to_string(),
                message: msg.to_string(),
                expected: None,
                found: None,
            });
        }
    }
}
