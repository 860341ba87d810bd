//! `zonemode` with `zonesize`, `zonerange` and `zoneskip`: fio's rules for strided zones, the
//! emulated zones of `zonemode=zbd` (see `zbd`), and its refusal on a zoned block device.

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
    /// `zonemode=zbd` on a zoned block device: the target, its sysfs directory and zoned model.
    #[error("option 'zonemode=zbd' is not supported yet: {}", zbd_reason(.target.as_deref(), .zoned.as_ref()))]
    Zbd {
        target: Option<PathBuf>,
        zoned: Option<(String, String)>,
    },
    /// `zonemode=zbd` with a setting fio rejects, or one of fio's zone rules iomark does not
    /// carry out (refused by name rather than run otherwise).
    #[error("zonemode=zbd: {0}")]
    ZbdRule(String),
}

/// Settle the zone options into `spec.zones`, with fio 3.33's rules: `zonesize` needs
/// `zonemode=strided` (and strided needs it), `zonerange` defaults to `zonesize`, and strided
/// zones apply only to a job of one file.
pub(super) fn finish_zones(spec: &mut JobSpec, z: &ZoneOpts) -> Result<(), ZoneError> {
    let mode = z.mode.as_deref().unwrap_or("none");
    // Counts of zones (`4z`) become bytes of strided zones; without a zone size they stay
    // unset, as in fio.
    let mut skip = z.skip;
    if mode == "strided" || mode == "zbd" {
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
            // A zoned block device's own zones (host-managed, host-aware) are not driven.
            for target in &spec.filenames {
                if let Some(zoned) = zoned_model(target).filter(|(_, m)| m != "none") {
                    let target = Some(target.clone());
                    return Err(ZoneError::Zbd {
                        target,
                        zoned: Some(zoned),
                    });
                }
            }
            spec.zbd = Some(super::zbd::emulated(spec, z, skip).map_err(ZoneError::ZbdRule)?);
            Ok(())
        }
    }
}

/// Why `zonemode=zbd` is refused on a zoned block device, naming it: iomark emulates zones
/// on regular files and devices that are not zoned, but does not drive a zoned device's own
/// write pointers.
fn zbd_reason(target: Option<&Path>, zoned: Option<&(String, String)>) -> String {
    let name = target.map_or_else(|| "the target".into(), |f| f.display().to_string());
    match zoned {
        Some((dev, model)) => format!(
            "{name} is a zoned block device ({dev}/queue/zoned: {model}), but iomark does not drive zone write pointers yet"
        ),
        None => format!("{name} is a zoned block device, but iomark does not drive zone write pointers yet"),
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
            ..Default::default()
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
    fn zbd_emulates_zones_by_fios_rules() {
        let zbd = |size, f: fn(&mut ZoneOpts)| {
            let mut o = opts(Some("zbd"), size, 0);
            f(&mut o);
            let mut j = JobSpec {
                rw: iomark_engine::job::RwMode::Write,
                ..Default::default()
            };
            finish_zones(&mut j, &o).map(|_| j.zbd.unwrap())
        };
        let z = zbd(1 << 20, |_| {}).unwrap();
        assert_eq!(
            (z.size, z.capacity, z.read_beyond_wp),
            (1 << 20, 1 << 20, false)
        );
        let z = zbd(1 << 20, |o| {
            o.capacity = 1 << 19;
            o.max_open = 4;
            o.job_max_open = 2;
            o.read_beyond_wp = true;
        });
        // Sequential writes with a smaller capacity are refused by name; reads take it.
        let e = z.unwrap_err().to_string();
        assert!(e.contains("zonecapacity (524288) below zonesize"), "{e}");
        for (size, f, words) in [
            (
                0,
                (|_| {}) as fn(&mut ZoneOpts),
                "zone size (zonesize) is mandatory",
            ),
            (256, |_| {}, "at least 512 bytes"),
            (4096, |o| o.capacity = 8192, "larger than zone size"),
            (
                4096,
                |o| o.job_max_open = 1,
                "without a global open zones limit",
            ),
            (4096, |o| o.skip = 4096, "zoneskip"),
        ] {
            let e = zbd(size, f).unwrap_err().to_string();
            assert!(e.contains(words), "{e}");
        }
        // Zone counts (`4z`) are in zones of zonesize.
        let mut o = opts(Some("zbd"), 1 << 20, 0);
        o.counts = vec![(ZoneField::Size, 4), (ZoneField::Offset, 2)];
        let mut j = JobSpec::default();
        finish_zones(&mut j, &o).unwrap();
        assert_eq!(j.size, Some(SizeSpec::Bytes(4 << 20)));
        assert_eq!(j.offset, SizeSpec::Bytes(2 << 20));
    }

    #[test]
    fn zbd_refuses_what_it_does_not_carry_out() {
        let mut j = JobSpec {
            rw: iomark_engine::job::RwMode::RandTrim,
            ..Default::default()
        };
        let e = finish_zones(&mut j, &opts(Some("zbd"), 65536, 0))
            .unwrap_err()
            .to_string();
        assert!(e.contains("trimming") && e.contains("not supported"), "{e}");
    }
}
