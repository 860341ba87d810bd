//! The worker's I/O buffers (one per queue slot, owned by the worker) and the data written from
//! them: `fill_buffer` for the job's buffer options, `scramble` for cheap per-write changes.

use crate::engines::EngineBuf;
use crate::job::JobSpec;
use crate::rng::Rng;
use crate::sys::AlignedBuf;

/// One aligned buffer per queue slot. The engine is handed their addresses once, at setup
/// (`engine_bufs`); I/O units carry `ptr(slot)`. The worker writes into a slot's buffer only
/// while that slot is free (no I/O in flight on it), through `slot_mut`.
pub(super) struct Buffers {
    bufs: Vec<AlignedBuf>,
    /// `bufs[i].as_mut_ptr()`, cached for the per-I/O path. The heap blocks never move, so the
    /// addresses stay valid as long as `bufs` lives.
    ptrs: Vec<*mut u8>,
    len: usize,
}

impl Buffers {
    /// `count` buffers of `len` bytes aligned to `align`, each filled by `fill`.
    pub(super) fn new(
        count: usize,
        len: usize,
        align: usize,
        mut fill: impl FnMut(&mut [u8]),
    ) -> Buffers {
        let mut bufs = Vec::with_capacity(count);
        for _ in 0..count {
            let mut b = AlignedBuf::new(len, align);
            fill(b.as_mut_slice());
            bufs.push(b);
        }
        let ptrs = bufs.iter_mut().map(|b| b.as_mut_ptr()).collect();
        Buffers { bufs, ptrs, len }
    }

    /// The descriptions the engine is created with (buffer i belongs to slot i).
    pub(super) fn engine_bufs(&self) -> Vec<EngineBuf> {
        self.ptrs
            .iter()
            .map(|&ptr| EngineBuf { ptr, len: self.len })
            .collect()
    }

    /// Length of every buffer (the job's largest block size).
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Address of slot `slot`'s buffer, for an I/O unit.
    #[inline]
    pub(super) fn ptr(&self, slot: u32) -> *mut u8 {
        self.ptrs[slot as usize]
    }

    /// The first `len` bytes of slot `slot`'s buffer. Only for a slot with no I/O in flight:
    /// the kernel does not touch the buffer then.
    #[inline]
    pub(super) fn slot_mut(&mut self, slot: u32, len: usize) -> &mut [u8] {
        &mut self.bufs[slot as usize].as_mut_slice()[..len]
    }
}

/// Fill a write buffer according to the job's buffer options. With a compress percentage, each
/// chunk is random data followed by that share of the pattern (zeroes without one).
pub(crate) fn fill_buffer(spec: &JobSpec, buf: &mut [u8], rng: &mut Rng) {
    let b = &spec.buffers;
    let pattern = b.pattern.as_deref().filter(|p| !p.is_empty());
    if b.compress_percentage > 0 {
        let chunk = (b.compress_chunk.max(1) as usize).min(buf.len().max(1));
        let random_len = chunk * (100 - b.compress_percentage.min(100) as usize) / 100;
        rng.fill(buf);
        for c in buf.chunks_mut(chunk) {
            let n = random_len.min(c.len());
            fill_pattern(&mut c[n..], pattern);
        }
        return;
    }
    if b.zero_buffers {
        buf.fill(0);
    } else if pattern.is_some() {
        fill_pattern(buf, pattern);
    } else {
        rng.fill(buf);
    }
}

/// Repeat `pattern` over `buf` from its first byte (zeroes without one): the pattern once, then
/// doubling copies, so a large buffer costs a few memcpy calls.
fn fill_pattern(buf: &mut [u8], pattern: Option<&[u8]>) {
    let Some(p) = pattern else {
        buf.fill(0);
        return;
    };
    let first = p.len().min(buf.len());
    buf[..first].copy_from_slice(&p[..first]);
    let mut done = first;
    while done < buf.len() {
        let n = done.min(buf.len() - done);
        buf.copy_within(..n, done);
        done += n;
    }
}

/// Cheap per-write change so that identical buffers do not dedupe (fio's scramble_buffers):
/// the first 8 bytes of every 512-byte sector get a value made of the offset and a sequence
/// number.
#[inline]
pub(super) fn scramble(buf: &mut [u8], offset: u64, seq: u64) {
    let v = (offset ^ seq.rotate_left(32)).to_le_bytes();
    let mut i = 0;
    while i + 8 <= buf.len() {
        buf[i..i + 8].copy_from_slice(&v);
        i += 512;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> JobSpec {
        JobSpec::default()
    }

    #[test]
    fn zero_buffers_are_zero() {
        let mut s = spec();
        s.buffers.zero_buffers = true;
        let mut buf = vec![0xAAu8; 4096];
        fill_buffer(&s, &mut buf, &mut Rng::new(1));
        assert!(buf.iter().all(|&b| b == 0));
    }

    #[test]
    fn pattern_repeats() {
        let mut s = spec();
        s.buffers.pattern = Some(vec![1, 2, 3]);
        let mut buf = vec![0u8; 10];
        fill_buffer(&s, &mut buf, &mut Rng::new(1));
        assert_eq!(buf, [1, 2, 3, 1, 2, 3, 1, 2, 3, 1]);
    }

    #[test]
    fn random_fill_follows_the_seed() {
        let s = spec();
        let (mut a, mut b, mut c) = (vec![0u8; 4096], vec![0u8; 4096], vec![0u8; 4096]);
        fill_buffer(&s, &mut a, &mut Rng::new(7));
        fill_buffer(&s, &mut b, &mut Rng::new(7));
        fill_buffer(&s, &mut c, &mut Rng::new(8));
        assert_eq!(a, b);
        assert_ne!(a, c);
        // Random data: no byte value dominates.
        let zeros = a.iter().filter(|&&x| x == 0).count();
        assert!(zeros < 100, "{zeros}");
    }

    #[test]
    fn compress_percentage_ends_each_chunk_with_zeroes_or_the_pattern() {
        let mut s = spec();
        s.buffers.compress_percentage = 25;
        s.buffers.compress_chunk = 1024;
        let mut buf = vec![0xAAu8; 4096];
        fill_buffer(&s, &mut buf, &mut Rng::new(3));
        for c in buf.chunks(1024) {
            assert!(c[768..].iter().all(|&b| b == 0));
            assert!(c[..768].iter().filter(|&&b| b == 0).count() < 64);
        }
        s.buffers.pattern = Some(vec![1, 2, 3]);
        fill_buffer(&s, &mut buf, &mut Rng::new(3));
        for c in buf.chunks(1024) {
            let tail: Vec<u8> = (0..256).map(|i| [1, 2, 3][i % 3]).collect();
            assert_eq!(&c[768..], &tail[..]);
        }
    }

    #[test]
    fn long_patterns_and_short_buffers() {
        let mut s = spec();
        s.buffers.pattern = Some((0..=255u8).collect());
        let mut buf = vec![0u8; 100];
        fill_buffer(&s, &mut buf, &mut Rng::new(1));
        assert!(buf.iter().enumerate().all(|(i, &b)| b == i as u8));
        let mut big = vec![0u8; 5000];
        fill_buffer(&s, &mut big, &mut Rng::new(1));
        assert!(big.iter().enumerate().all(|(i, &b)| b == (i % 256) as u8));
    }

    #[test]
    fn scramble_stamps_every_sector() {
        let mut buf = vec![0u8; 2048];
        scramble(&mut buf, 4096, 3);
        let v = (4096u64 ^ 3u64.rotate_left(32)).to_le_bytes();
        for s in buf.chunks(512) {
            assert_eq!(&s[..8], &v);
            assert!(s[8..].iter().all(|&b| b == 0));
        }
        // A different sequence number changes the stamp.
        let mut other = vec![0u8; 2048];
        scramble(&mut other, 4096, 4);
        assert_ne!(buf, other);
        // A buffer shorter than one stamp is left alone.
        let mut tiny = [0u8; 7];
        scramble(&mut tiny, 1, 1);
        assert_eq!(tiny, [0; 7]);
    }

    #[test]
    fn buffers_are_aligned_and_owned() {
        let mut n = 0u8;
        let mut b = Buffers::new(3, 8192, 4096, |s| {
            n += 1;
            s.fill(n);
        });
        assert_eq!(b.len(), 8192);
        let eb = b.engine_bufs();
        assert_eq!(eb.len(), 3);
        for (i, e) in eb.iter().enumerate() {
            assert_eq!(e.ptr as usize % 4096, 0);
            assert_eq!(e.len, 8192);
            assert_eq!(e.ptr, b.ptr(i as u32));
        }
        assert!(b.slot_mut(1, 100).iter().all(|&x| x == 2));
        b.slot_mut(2, 8192).fill(9);
        assert!(b.slot_mut(2, 8192).iter().all(|&x| x == 9));
        assert!(b.slot_mut(0, 8192).iter().all(|&x| x == 1));
    }
}
