//! `zonemode` with `zonesize`, `zonerange` and `zoneskip`: fio's rules for strided zones, and
//! the refusal of zoned-block-device mode with the reason read from the target.

use crate::options::{ZoneField, ZoneOpts};
use iomark_engine::job::{JobSpec, SizeSpec, StridedZones};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why the zone options do not make a job.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ZoneError {
    #[error("--zonemode=none and --zonesize are not compatible (give zonemode=strided)")]
    SizeWithoutMode,
    #[error("--zonesize must be specified when using --zonemode=strided")]
    StridedWithoutSize,
    #[error("zonerange ({range}) is smaller than the block size ({bs}): no I/O fits in a zone")]
    RangeUnderBlock { range: u64, bs: u64 },
    /// `zonemode=zbd`: the target and, for a block device, its sysfs directory and zoned model.
    #[error("option 'zonemode=zbd' is not supported yet: {}", zbd_reason(.target.as_deref(), .zoned.as_ref()))]
    Zbd {
        target: Option<PathBuf>,
        zoned: Option<(String, String)>,
    },
}

/// Settle the zone options into `spec.zones`, with fio 3.33's rules: `zonesize` needs
/// `zonemode=strided` (and strided needs it), `zonerange` defaults to `zonesize`, and strided
/// zones apply only to a job of one file.
pub(super) fn finish_zones(spec: &mut JobSpec, z: &ZoneOpts) -> Result<(), ZoneError> {
    let mode = z.mode.as_deref().unwrap_or("none");
    // Counts of zones (`4z`) become bytes of strided zones; without a zone size they stay
    // unset, as in fio.
    let mut skip = z.skip;
    if mode == "strided" {
        for &(field, n) in &z.counts {
            let b = n.saturating_mul(z.size);
            match field {
                ZoneField::Size => spec.size = Some(SizeSpec::Bytes(b)).filter(|_| b > 0),
                ZoneField::IoSize => spec.io_size = Some(SizeSpec::Bytes(b)).filter(|_| b > 0),
                ZoneField::Offset => spec.offset = SizeSpec::Bytes(b),
                ZoneField::OffsetIncrement => spec.offset_increment = SizeSpec::Bytes(b),
                ZoneField::Skip => skip = b,
            }
        }
    }
    match mode {
        "none" => {
            if z.size != 0 {
                return Err(ZoneError::SizeWithoutMode);
            }
            Ok(())
        }
        "strided" => {
            if z.size == 0 {
                return Err(ZoneError::StridedWithoutSize);
            }
            let files = if spec.filenames.is_empty() {
                spec.nrfiles as usize
            } else {
                spec.filenames.len()
            };
            // As fio: strided zones work with one file only; with more they are off.
            if files > 1 {
                return Ok(());
            }
            let range = if z.range == 0 { z.size } else { z.range };
            if range < spec.max_bs() {
                return Err(ZoneError::RangeUnderBlock {
                    range,
                    bs: spec.max_bs(),
                });
            }
            spec.zones = Some(StridedZones {
                size: z.size,
                range,
                skip,
            });
            Ok(())
        }
        _ => {
            let target = spec.filenames.first().cloned();
            let zoned = target.as_deref().and_then(zoned_model);
            Err(ZoneError::Zbd { target, zoned })
        }
    }
}

/// Why `zonemode=zbd` is refused, naming the target: iomark does not emulate zones on a file or
/// a conventional device, as fio does, nor drive a zoned device's write pointers yet.
fn zbd_reason(target: Option<&Path>, zoned: Option<&(String, String)>) -> String {
    let Some(f) = target else {
        return "iomark does not emulate zones on regular files (fio does)".into();
    };
    match zoned {
        Some((dev, model)) if model != "none" => format!(
            "{} is a zoned block device ({dev}/queue/zoned: {model}), but iomark does not drive zone write pointers yet",
            f.display()
        ),
        Some((dev, model)) => format!(
            "{} is not a zoned block device ({dev}/queue/zoned: {model}) and iomark does not emulate zones on it (fio does)",
            f.display()
        ),
        None => format!(
            "{} is not a zoned block device and iomark does not emulate zones on regular files (fio does)",
            f.display()
        ),
    }
}

/// The sysfs directory of the block device `path` and its zoned model (`none`, `host-aware`,
/// `host-managed`); None when `path` is not a block device.
fn zoned_model(path: &Path) -> Option<(String, String)> {
    use std::os::unix::fs::FileTypeExt;
    use std::os::unix::fs::MetadataExt;
    let md = std::fs::metadata(path).ok()?;
    if !md.file_type().is_block_device() {
        return None;
    }
    let rdev = md.rdev();
    let (major, minor) = (libc::major(rdev), libc::minor(rdev));
    let dev = std::fs::canonicalize(format!("/sys/dev/block/{major}:{minor}")).ok()?;
    // A partition's queue is its disk's.
    let disk = if dev.join("partition").exists() {
        dev.parent()?.to_path_buf()
    } else {
        dev
    };
    let model = std::fs::read_to_string(disk.join("queue/zoned")).ok()?;
    Some((
        format!("/sys/block/{}", disk.file_name()?.to_string_lossy()),
        model.trim().to_string(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(mode: Option<&str>, size: u64, range: u64) -> ZoneOpts {
        ZoneOpts {
            mode: mode.map(str::to_string),
            size,
            range,
            skip: 0,
            counts: Vec::new(),
        }
    }

    #[test]
    fn fio_rules() {
        let mut j = JobSpec::default();
        assert!(finish_zones(&mut j, &opts(None, 0, 0)).is_ok());
        assert_eq!(j.zones, None);
        let e = finish_zones(&mut j, &opts(None, 65536, 0))
            .unwrap_err()
            .to_string();
        assert!(e.contains("zonemode=none and --zonesize"), "{e}");
        let e = finish_zones(&mut j, &opts(Some("strided"), 0, 0))
            .unwrap_err()
            .to_string();
        assert!(e.contains("zonesize must be specified"), "{e}");
        finish_zones(&mut j, &opts(Some("strided"), 65536, 0)).unwrap();
        assert_eq!(
            j.zones,
            Some(StridedZones {
                size: 65536,
                range: 65536,
                skip: 0
            })
        );
        let mut j = JobSpec {
            nrfiles: 2,
            ..Default::default()
        };
        finish_zones(&mut j, &opts(Some("strided"), 65536, 8192)).unwrap();
        assert_eq!(j.zones, None);
    }

    #[test]
    fn zbd_names_the_reason() {
        let mut j = JobSpec::default();
        let e = finish_zones(&mut j, &opts(Some("zbd"), 0, 0))
            .unwrap_err()
            .to_string();
        assert!(e.contains("zonemode=zbd' is not supported yet"), "{e}");
        j.filenames = vec!["/dev/loop0".into()];
        let e = finish_zones(&mut j, &opts(Some("zbd"), 0, 0))
            .unwrap_err()
            .to_string();
        if Path::new("/sys/block/loop0/queue/zoned").exists()
            && std::fs::metadata("/dev/loop0").is_ok()
        {
            assert!(e.contains("/sys/block/loop0/queue/zoned: none"), "{e}");
        }
        j.filenames = vec!["/nonexistent/file".into()];
        let e = finish_zones(&mut j, &opts(Some("zbd"), 0, 0))
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a zoned block device"), "{e}");
    }
}
