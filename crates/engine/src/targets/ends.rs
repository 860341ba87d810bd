//! What a device seen only through reads holds (an RBD image, an NBD export): its first and
//! last MiB, copied into a small private file (the last MiB at its end, where end-of-device
//! signatures are looked for), checked as a device's are.

use std::io::{self, Write};
use std::path::PathBuf;

const MIB: u64 = 1 << 20;

/// What libblkid finds in the ends of a device of `size` bytes that `read(buf, offset)` reads
/// from (it returns the bytes read; 0 at the end).
pub(crate) fn ends_signature(
    size: u64,
    mut read: impl FnMut(&mut [u8], u64) -> io::Result<usize>,
) -> io::Result<Option<String>> {
    let head = MIB.min(size);
    let tail_start = size.saturating_sub(MIB).max(head);
    let mut buf = vec![0u8; head as usize];
    read_full(&mut read, &mut buf, 0)?;
    let mut tail = vec![0u8; (size - tail_start) as usize];
    read_full(&mut read, &mut tail, tail_start)?;
    let path = copy_path();
    let result = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)?;
        f.write_all(&buf)?;
        f.write_all(&tail)?;
        f.sync_all()?;
        super::fs_signature(&path)
    })();
    let _ = std::fs::remove_file(&path);
    result
}

fn read_full(
    read: &mut impl FnMut(&mut [u8], u64) -> io::Result<usize>,
    buf: &mut [u8],
    offset: u64,
) -> io::Result<()> {
    let mut done = 0;
    while done < buf.len() {
        let n = read(&mut buf[done..], offset + done as u64)?;
        if n == 0 {
            break;
        }
        done += n;
    }
    Ok(())
}

/// A private file in the temporary directory for the copy.
fn copy_path() -> PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    std::env::temp_dir().join(format!(
        "iomark-ends-probe-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A device of `size` bytes held in memory; the ranges read are recorded.
    fn reader<'a>(
        dev: &'a [u8],
        seen: &'a mut Vec<(u64, usize)>,
    ) -> impl FnMut(&mut [u8], u64) -> io::Result<usize> + 'a {
        move |buf, off| {
            seen.push((off, buf.len()));
            let start = off as usize;
            let n = buf.len().min(dev.len() - start);
            buf[..n].copy_from_slice(&dev[start..start + n]);
            Ok(n)
        }
    }

    #[test]
    fn only_the_ends_are_read_and_checked() {
        let size = 8 * MIB as usize;
        let mut dev = vec![0u8; size];
        let mut seen = Vec::new();
        assert_eq!(
            ends_signature(size as u64, reader(&dev, &mut seen)).unwrap(),
            None
        );
        assert_eq!(seen, [(0, MIB as usize), (7 * MIB, MIB as usize)]);
        // An MBR partition table at the start (one Linux partition).
        dev[446 + 4] = 0x83;
        dev[446 + 8..446 + 12].copy_from_slice(&2048u32.to_le_bytes());
        dev[446 + 12..446 + 16].copy_from_slice(&4096u32.to_le_bytes());
        dev[510] = 0x55;
        dev[511] = 0xAA;
        let mut seen = Vec::new();
        assert_eq!(
            ends_signature(size as u64, reader(&dev, &mut seen))
                .unwrap()
                .as_deref(),
            Some("a dos partition table")
        );
        // A device smaller than a MiB is read once, whole.
        let mut seen = Vec::new();
        ends_signature(4096, reader(&dev[..4096], &mut seen)).unwrap();
        assert_eq!(seen, [(0, 4096)]);
        // A read that fails is an error, never "empty".
        let fail = |_: &mut [u8], _: u64| Err(io::Error::other("gone"));
        assert!(ends_signature(size as u64, fail).is_err());
    }
}
