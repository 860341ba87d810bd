//! Disk statistics: the disks under a target and their utilisation over a run.

use super::{
    dev_split, existing_ancestor, sys_block_by_devnum, sys_block_by_name, sys_block_for_fs,
    SysBlock,
};
use crate::result::DiskUtil;
use crate::sys::now_ns;
use std::collections::HashMap;
use std::fs;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------------------------------------
// Disk statistics
// ---------------------------------------------------------------------------------------------

/// Block devices whose statistics describe I/O to `path`: the whole disk under a file's
/// filesystem or the device itself, plus (recursively) the slaves of device-mapper and md
/// devices, as whole disks. Empty for filesystems without a block device (tmpfs, ...).
#[cfg(test)]
pub(crate) fn disks_for(path: &Path) -> Vec<String> {
    DiskLookup::default().disks_for(path)
}

/// [`disks_for`] over many paths (a job's thousands of files): the walk through sysfs is done
/// once per filesystem, and a file still to be created is looked up once per directory, so the
/// work per file is one stat, whatever the number of files.
#[derive(Debug, Default)]
pub(crate) struct DiskLookup {
    by_fs: HashMap<u64, Vec<String>>,
    /// The disks of files still to be created, by the directory they are to be created in.
    by_dir: HashMap<PathBuf, Vec<String>>,
    /// How many walks through sysfs were made (one per filesystem and device).
    pub(crate) walks: usize,
}

impl DiskLookup {
    pub(crate) fn disks_for(&mut self, path: &Path) -> Vec<String> {
        if let Ok(meta) = fs::metadata(path) {
            return self.of_existing(path, &meta);
        }
        // Not there yet: on the filesystem of the directory it is to be created in, looked up
        // once per directory.
        let dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        if let Some(known) = self.by_dir.get(dir) {
            return known.clone();
        }
        let disks = match existing_ancestor(path) {
            Some(anc) => match fs::metadata(&anc) {
                Ok(meta) => self.of_existing(&anc, &meta),
                Err(_) => Vec::new(),
            },
            None => Vec::new(),
        };
        self.by_dir.insert(dir.to_path_buf(), disks.clone());
        disks
    }

    fn of_existing(&mut self, path: &Path, meta: &fs::Metadata) -> Vec<String> {
        if meta.file_type().is_block_device() {
            self.walks += 1;
            let (ma, mi) = dev_split(meta.rdev());
            return with_slaves(sys_block_by_devnum(ma, mi));
        }
        if meta.file_type().is_char_device() {
            return Vec::new();
        }
        if let Some(known) = self.by_fs.get(&meta.dev()) {
            return known.clone();
        }
        self.walks += 1;
        let disks = with_slaves(sys_block_for_fs(path, meta.dev()));
        self.by_fs.insert(meta.dev(), disks.clone());
        disks
    }
}

/// The whole disk of `sb` and, recursively, the slaves of device-mapper and md devices.
fn with_slaves(sb: Option<SysBlock>) -> Vec<String> {
    let Some(sb) = sb else {
        return Vec::new();
    };
    let mut out = vec![sb.disk];
    let mut i = 0;
    while i < out.len() && out.len() < 256 {
        let name = out[i].clone();
        if name.starts_with("dm-") || name.starts_with("md") {
            if let Ok(rd) = fs::read_dir(format!("/sys/block/{name}/slaves")) {
                let mut slaves: Vec<String> = rd
                    .flatten()
                    .filter_map(|e| sys_block_by_name(&e.file_name().to_string_lossy()))
                    .map(|s| s.disk)
                    .collect();
                slaves.sort();
                for s in slaves {
                    if !out.contains(&s) {
                        out.push(s);
                    }
                }
            }
        }
        i += 1;
    }
    out
}

const STAT_FIELDS: usize = 11;

fn read_disk_stat(name: &str) -> Option<[u64; STAT_FIELDS]> {
    let text = fs::read_to_string(format!("/sys/block/{}/stat", name.replace('/', "!"))).ok()?;
    parse_disk_stat(&text)
}

fn parse_disk_stat(text: &str) -> Option<[u64; STAT_FIELDS]> {
    let mut v = [0u64; STAT_FIELDS];
    let mut it = text.split_whitespace();
    for slot in v.iter_mut() {
        *slot = it.next()?.parse().ok()?;
    }
    Some(v)
}

/// Counter difference that tolerates a 32-bit wrap.
fn counter_delta(after: u64, before: u64) -> u64 {
    if after >= before {
        after - before
    } else if before <= u32::MAX as u64 {
        after + (1u64 << 32) - before
    } else {
        0
    }
}

/// Samples /sys/block/<name>/stat at the start and end of a run.
#[derive(Clone, Debug)]
pub(crate) struct DiskStatsSampler {
    start_ns: u64,
    start: Vec<(String, [u64; STAT_FIELDS])>,
}

impl DiskStatsSampler {
    /// Takes the first sample. Devices without statistics are ignored.
    pub(crate) fn start(names: &[String]) -> Self {
        let mut start = Vec::new();
        for n in names {
            if start.iter().any(|(s, _): &(String, _)| s == n) {
                continue;
            }
            if let Some(st) = read_disk_stat(n) {
                start.push((n.clone(), st));
            }
        }
        DiskStatsSampler {
            start_ns: now_ns(),
            start,
        }
    }

    /// The devices being sampled.
    #[cfg(test)]
    pub(crate) fn names(&self) -> Vec<String> {
        self.start.iter().map(|(n, _)| n.clone()).collect()
    }

    /// Takes the second sample and reports the differences; devices that vanished are skipped.
    pub(crate) fn finish(&self) -> Vec<DiskUtil> {
        let elapsed_ms = now_ns().saturating_sub(self.start_ns) / 1_000_000;
        let mut out = Vec::new();
        for (name, a) in &self.start {
            let Some(b) = read_disk_stat(name) else {
                continue;
            };
            let d = |i: usize| counter_delta(b[i], a[i]);
            let io_ticks = d(9);
            let util = if elapsed_ms == 0 {
                0.0
            } else {
                (100.0 * io_ticks as f64 / elapsed_ms as f64).min(100.0)
            };
            out.push(DiskUtil {
                name: name.clone(),
                read_ios: d(0),
                read_merges: d(1),
                read_sectors: d(2),
                read_ticks: d(3),
                write_ios: d(4),
                write_merges: d(5),
                write_sectors: d(6),
                write_ticks: d(7),
                io_ticks,
                in_queue: d(10),
                elapsed_ms,
                util,
            });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::targets::testutil::*;
    use std::fs::File;
    use std::io::Write;

    /// The disks of many files in one directory (a job's nrfiles, existing or still to be
    /// created) are found by one walk through sysfs, at 1,000 files as at 4,000, and are the
    /// disks of the directory itself.
    #[test]
    fn many_files_of_one_filesystem_cost_one_walk_through_sysfs() {
        let d = TempDir::new("dlookup");
        let want = disks_for(d.path());
        std::fs::write(d.path().join("f.0"), b"x").unwrap();
        for n in [1_000, 4_000] {
            let mut lookup = DiskLookup::default();
            for i in 0..n {
                assert_eq!(lookup.disks_for(&d.path().join(format!("f.{i}"))), want);
            }
            assert_eq!(lookup.walks, 1, "{n} files");
        }
    }

    #[test]
    fn disk_stats_sampler() {
        let d = TempDir::new("dstat");
        let names = disks_for(d.path());
        let gone = DiskStatsSampler::start(&["iomark-no-such-disk".to_string()]);
        assert!(gone.names().is_empty());
        assert!(gone.finish().is_empty());
        if names.is_empty() {
            assert_ne!(statfs_magic(d.path()), EXT_MAGIC);
            return;
        }
        let s = DiskStatsSampler::start(&names);
        assert_eq!(s.names(), names);
        let f = d.path().join("w.dat");
        let mut fh = File::create(&f).unwrap();
        fh.write_all(&vec![3u8; 1 << 20]).unwrap();
        fh.sync_all().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        let u = s.finish();
        assert_eq!(u.len(), names.len());
        assert_eq!(u[0].name, names[0]);
        assert!(u[0].write_ios > 0 && u[0].write_sectors >= 8, "{:?}", u[0]);
        for x in &u {
            assert!(x.elapsed_ms >= 20);
            assert!((0.0..=100.0).contains(&x.util), "{x:?}");
        }
        assert_eq!(counter_delta(5, 10), (1u64 << 32) - 5);
        assert_eq!(counter_delta(10, 5), 5);
        assert_eq!(
            parse_disk_stat("1 2 3 4 5 6 7 8 9 10 11 12 13"),
            Some([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
        );
        assert_eq!(parse_disk_stat("1 2 3"), None);
    }
}
