//! Signatures: filesystems and partition tables found in the first blocks of a device.

use super::open_raw;
use crate::sys::with_context;
use std::io;
use std::os::unix::io::AsRawFd;
use std::path::Path;

// ---------------------------------------------------------------------------------------------
// Signatures
// ---------------------------------------------------------------------------------------------

const SIG_READ: usize = 128 * 1024;

fn le16(b: &[u8], off: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(off..off + 2)?.try_into().ok()?))
}

fn le32(b: &[u8], off: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(off..off + 4)?.try_into().ok()?))
}

fn at(b: &[u8], off: usize, magic: &[u8]) -> bool {
    b.get(off..off + magic.len()) == Some(magic)
}

/// Names what the first bytes of a device hold (partition table, volume manager label,
/// filesystem or swap), or `None` when nothing is recognised.
pub fn detect_signature(b: &[u8], page_size: usize) -> Option<String> {
    for s in 0..4 {
        if at(b, s * 512, b"LABELONE") && at(b, s * 512 + 24, b"LVM2 001") {
            return Some("LVM2 physical volume".into());
        }
    }
    // Linux md RAID superblocks of format 1.1 (at 0) and 1.2 (at 4 KiB).
    for off in [0, 4096] {
        if le32(b, off) == Some(0xa92b_4efc) && le32(b, off + 4) == Some(1) {
            return Some("Linux md RAID member (superblock 1.x)".into());
        }
    }
    if at(b, 512, b"EFI PART") {
        return Some("GPT partition table".into());
    }
    if at(b, 510, &[0x55, 0xAA]) {
        let entries: Vec<&[u8]> = (0..4)
            .filter_map(|i| b.get(446 + 16 * i..462 + 16 * i))
            .collect();
        let flags_ok = entries.iter().all(|e| e[0] == 0 || e[0] == 0x80);
        let any_used = entries.iter().any(|e| e[4] != 0);
        if entries.len() == 4 && flags_ok && any_used {
            return Some("MBR partition table".into());
        }
    }
    if le16(b, 1024 + 56) == Some(0xEF53) {
        let compat = le32(b, 1024 + 92).unwrap_or(0);
        let incompat = le32(b, 1024 + 96).unwrap_or(0);
        let ro_compat = le32(b, 1024 + 100).unwrap_or(0);
        let name = if incompat & !0x1F != 0 || ro_compat & (0x8 | 0x10 | 0x20 | 0x40 | 0x400) != 0 {
            "ext4"
        } else if compat & 0x4 != 0 {
            "ext3"
        } else {
            "ext2"
        };
        return Some(format!("{name} filesystem"));
    }
    if at(b, 0, b"XFSB") {
        return Some("XFS filesystem".into());
    }
    if at(b, 65536 + 64, b"_BHRfS_M") {
        return Some("Btrfs filesystem".into());
    }
    let mut sizes = vec![page_size, 4096, 8192, 16384, 65536];
    sizes.dedup();
    for ps in sizes {
        if ps >= 10 && (at(b, ps - 10, b"SWAPSPACE2") || at(b, ps - 10, b"SWAP-SPACE")) {
            return Some("swap space".into());
        }
    }
    None
}

/// Reads the start of a device (or image file) and names the signature found there.
pub fn fs_signature(dev_path: &Path) -> io::Result<Option<String>> {
    let f =
        open_raw(dev_path, libc::O_RDONLY, 0).map_err(|e| with_context(e, dev_path.display()))?;
    let mut buf = vec![0u8; SIG_READ];
    let mut got = 0usize;
    while got < buf.len() {
        // SAFETY: the destination range lies within buf.
        let n = unsafe {
            libc::pread(
                f.as_raw_fd(),
                buf[got..].as_mut_ptr() as *mut libc::c_void,
                buf.len() - got,
                got as libc::off_t,
            )
        };
        if n < 0 {
            let e = io::Error::last_os_error();
            if e.raw_os_error() == Some(libc::EINTR) {
                continue;
            }
            return Err(with_context(e, dev_path.display()));
        }
        if n == 0 {
            break;
        }
        got += n as usize;
    }
    buf.truncate(got);
    Ok(detect_signature(&buf, crate::sys::page_size()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::testutil::*;
    use crate::target::*;
    use std::io::{Seek, SeekFrom, Write};
    use std::process::Command;

    fn write_image(path: &Path, size: u64, patches: &[(usize, &[u8])]) {
        let mut f = File::create(path).unwrap();
        f.set_len(size).unwrap();
        for (off, bytes) in patches {
            f.seek(SeekFrom::Start(*off as u64)).unwrap();
            f.write_all(bytes).unwrap();
        }
    }

    #[test]
    fn signatures_handcrafted() {
        let d = TempDir::new("sig");
        let img = d.path().join("img");
        let ps = crate::sys::page_size();
        let mbr_entry: [u8; 16] = [0x80, 0, 0, 0, 0x83, 0, 0, 0, 0, 8, 0, 0, 0, 0, 1, 0];
        let mut ext_sb = vec![0u8; 1024];
        ext_sb[56..58].copy_from_slice(&0xEF53u16.to_le_bytes());
        let mut ext3_sb = ext_sb.clone();
        ext3_sb[92..96].copy_from_slice(&4u32.to_le_bytes());
        let mut ext4_sb = ext3_sb.clone();
        ext4_sb[96..100].copy_from_slice(&(0x2u32 | 0x40).to_le_bytes());
        let mut lvm = vec![0u8; 32];
        lvm[..8].copy_from_slice(b"LABELONE");
        lvm[24..32].copy_from_slice(b"LVM2 001");
        type Case<'a> = (Vec<(usize, &'a [u8])>, Option<&'a str>);
        let cases: Vec<Case> = vec![
            (vec![], None),
            (
                vec![(512, b"EFI PART"), (510, &[0x55, 0xAA])],
                Some("GPT partition table"),
            ),
            (
                vec![(446, &mbr_entry), (510, &[0x55, 0xAA])],
                Some("MBR partition table"),
            ),
            (vec![(510, &[0x55, 0xAA])], None),
            (vec![(ps - 10, b"SWAPSPACE2")], Some("swap space")),
            (vec![(1024, &ext_sb)], Some("ext2 filesystem")),
            (vec![(1024, &ext3_sb)], Some("ext3 filesystem")),
            (vec![(1024, &ext4_sb)], Some("ext4 filesystem")),
            (vec![(0, b"XFSB")], Some("XFS filesystem")),
            (vec![(65536 + 64, b"_BHRfS_M")], Some("Btrfs filesystem")),
            (vec![(512, &lvm)], Some("LVM2 physical volume")),
            (
                vec![(4096, &[0xfc, 0x4e, 0x2b, 0xa9, 1, 0, 0, 0])],
                Some("Linux md RAID member (superblock 1.x)"),
            ),
        ];
        for (patches, want) in cases {
            write_image(&img, 1 << 20, &patches);
            assert_eq!(fs_signature(&img).unwrap().as_deref(), want, "{patches:?}");
            fs::remove_file(&img).unwrap();
        }
        // A short file is read without error.
        fs::write(&img, b"XFSB").unwrap();
        assert_eq!(
            fs_signature(&img).unwrap().as_deref(),
            Some("XFS filesystem")
        );
        assert!(fs_signature(&d.path().join("nope")).is_err());
    }

    #[test]
    fn signature_of_real_ext4_image() {
        let mkfs = mkfs_ext4();
        let d = TempDir::new("ext4img");
        let img = d.path().join("ext4.img");
        File::create(&img).unwrap().set_len(64 << 20).unwrap();
        assert_eq!(fs_signature(&img).unwrap(), None);
        let st = Command::new(mkfs)
            .arg("-q")
            .arg("-F")
            .arg(&img)
            .status()
            .unwrap();
        assert!(st.success());
        assert_eq!(
            fs_signature(&img).unwrap().as_deref(),
            Some("ext4 filesystem")
        );
    }
}
