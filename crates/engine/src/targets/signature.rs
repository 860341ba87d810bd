//! Signatures: what a device (or image file) holds, found by util-linux's libblkid through
//! `blkid -p` (low-level probing: every filesystem, RAID, volume-manager, encryption and
//! partition-table format libblkid knows, at the start and at the end of the device).
//! What cannot be probed is not assumed empty: a missing prober or an unexpected answer is
//! an error, and the caller refuses the write.

use super::open_raw;
use crate::sys::with_context;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where `blkid` is found: `PATH`, then the system directories that hold it when `PATH` lacks
/// them (non-root shells).
fn blkid_path() -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/sbin", "/usr/sbin", "/bin", "/usr/bin"].map(PathBuf::from))
        .map(|d| d.join("blkid"))
        .find(|p| p.is_file())
}

/// Undo the shell escaping of `blkid -o export` values (a backslash before special bytes).
fn unescape(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    let mut esc = false;
    for c in v.chars() {
        if esc || c != '\\' {
            out.push(c);
            esc = false;
        } else {
            esc = true;
        }
    }
    out
}

/// Names what `blkid -p -o export` found, e.g. `crypto_LUKS (crypto, UUID 5d0f...)` or
/// `a dos partition table`; `None` when it lists no content.
pub(crate) fn describe_blkid(export: &str) -> Option<String> {
    let get = |key: &str| {
        export.lines().find_map(|l| {
            l.strip_prefix(key)
                .and_then(|r| r.strip_prefix('='))
                .map(unescape)
        })
    };
    let mut found = Vec::new();
    if let Some(t) = get("TYPE") {
        let mut facts = Vec::new();
        if let Some(u) = get("USAGE").filter(|u| u != "other") {
            facts.push(u);
        }
        if let Some(v) = get("VERSION") {
            facts.push(format!("version {v}"));
        }
        if let Some(u) = get("UUID").or_else(|| get("UUID_SUB")) {
            facts.push(format!("UUID {u}"));
        }
        if let Some(l) = get("LABEL") {
            facts.push(format!("LABEL {l:?}"));
        }
        found.push(if facts.is_empty() {
            t
        } else {
            format!("{t} ({})", facts.join(", "))
        });
    }
    if let Some(pt) = get("PTTYPE") {
        let mut s = format!("a {pt} partition table");
        if let Some(u) = get("PTUUID") {
            s.push_str(&format!(" (PTUUID {u})"));
        }
        found.push(s);
    }
    if found.is_empty() {
        // Some other content libblkid reports without a type: still not empty.
        let other: Vec<&str> = export
            .lines()
            .filter(|l| !l.starts_with("DEVNAME=") && l.contains('='))
            .collect();
        if other.is_empty() {
            return None;
        }
        return Some(format!("unidentified content ({})", other.join(", ")));
    }
    Some(found.join(" and "))
}

/// Probes a device (or image file) with `blkid -p` and names what it holds. Errors when the
/// device cannot be read, `blkid` is missing, or it answers in an unexpected way.
pub(crate) fn fs_signature(dev_path: &Path) -> io::Result<Option<String>> {
    // blkid says "nothing found" (exit 2) also for what it cannot open: open it ourselves first.
    drop(open_raw(dev_path, libc::O_RDONLY, 0).map_err(|e| with_context(e, dev_path.display()))?);
    let blkid = blkid_path().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::NotFound,
            "blkid (util-linux) is not installed, so what the device holds cannot be checked",
        )
    })?;
    let out = Command::new(&blkid)
        .args(["-p", "-o", "export", "--"])
        .arg(dev_path)
        .env("LC_ALL", "C")
        .output()
        .map_err(|e| with_context(e, format!("running {}", blkid.display())))?;
    let text = String::from_utf8_lossy(&out.stdout);
    match out.status.code() {
        Some(0) => Ok(Some(describe_blkid(&text).unwrap_or_else(|| {
            "content blkid recognises but does not name".to_string()
        }))),
        Some(2) if text.trim().is_empty() => Ok(None),
        Some(8) => Ok(Some(
            "more than one signature (an ambivalent result of blkid; wipefs lists them all)"
                .to_string(),
        )),
        _ => Err(io::Error::other(format!(
            "{} -p {} failed ({}){}",
            blkid.display(),
            dev_path.display(),
            out.status,
            match String::from_utf8_lossy(&out.stderr).trim() {
                "" => String::new(),
                e => format!(": {e}"),
            }
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::targets::testutil::*;
    use crate::targets::*;
    use std::io::{Seek, SeekFrom, Write};

    #[test]
    fn blkid_export_is_named() {
        let luks = "DEVNAME=/dev/loop3\nUUID=5d0f\nVERSION=2\nTYPE=crypto_LUKS\nUSAGE=crypto\n";
        assert_eq!(
            describe_blkid(luks).unwrap(),
            "crypto_LUKS (crypto, version 2, UUID 5d0f)"
        );
        let swap = "DEVNAME=x\nUUID=1\nTYPE=swap\nUSAGE=other\n";
        assert_eq!(describe_blkid(swap).unwrap(), "swap (UUID 1)");
        let lab = "DEVNAME=x\nLABEL=my\\ disk\nTYPE=vfat\nUSAGE=filesystem\n";
        assert_eq!(
            describe_blkid(lab).unwrap(),
            "vfat (filesystem, LABEL \"my disk\")"
        );
        assert_eq!(
            describe_blkid("DEVNAME=a\nPTUUID=ab\nPTTYPE=gpt\n").unwrap(),
            "a gpt partition table (PTUUID ab)"
        );
        assert_eq!(describe_blkid("DEVNAME=a\n"), None);
        assert_eq!(
            describe_blkid("DEVNAME=a\nSBMAGIC=x\n").unwrap(),
            "unidentified content (SBMAGIC=x)"
        );
    }

    fn image(d: &TempDir, name: &str) -> PathBuf {
        let img = d.path().join(name);
        File::create(&img).unwrap().set_len(64 << 20).unwrap();
        img
    }

    fn mkfs(tool: &str, args: &[&str], img: &Path) {
        let st = Command::new(tool)
            .args(args)
            .arg(img)
            .output()
            .unwrap_or_else(|e| panic!("{tool} is required for this test: {e}"));
        assert!(st.status.success(), "{tool}: {:?}", st);
    }

    #[test]
    fn signatures_of_real_images() {
        let d = TempDir::new("sig");
        let img = image(&d, "blank");
        assert_eq!(fs_signature(&img).unwrap(), None);
        // A real MBR partition table (one Linux partition).
        let mut f = fs::OpenOptions::new().write(true).open(&img).unwrap();
        let mut entry = [0u8; 16];
        entry[4] = 0x83;
        entry[8..12].copy_from_slice(&2048u32.to_le_bytes());
        entry[12..16].copy_from_slice(&20480u32.to_le_bytes());
        f.seek(SeekFrom::Start(446)).unwrap();
        f.write_all(&entry).unwrap();
        f.seek(SeekFrom::Start(510)).unwrap();
        f.write_all(&[0x55, 0xAA]).unwrap();
        drop(f);
        assert_eq!(
            fs_signature(&img).unwrap().as_deref(),
            Some("a dos partition table")
        );
        for (tool, args, want) in [
            (mkfs_ext4(), &["-q", "-F"][..], "ext4 (filesystem"),
            ("mkswap", &[][..], "swap (version 1, UUID "),
            ("mkfs.vfat", &[][..], "vfat (filesystem"),
            ("mkfs.minix", &[][..], "minix (filesystem"),
        ] {
            let img = image(&d, tool.rsplit('/').next().unwrap());
            mkfs(tool, args, &img);
            let got = fs_signature(&img).unwrap().unwrap();
            assert!(got.starts_with(want), "{tool}: {got}");
        }
        // What cannot be opened is an error, never "empty".
        assert!(fs_signature(&d.path().join("nope")).is_err());
    }
}
