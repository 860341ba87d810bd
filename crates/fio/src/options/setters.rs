//! Setters too long for a table row. Each takes the value as written and stores it in the job
//! model (or in [`Pending`](super::Pending) when it is settled once every option is in).

use super::apply::{set_per_dir, Ctx, OptionError, Reason};
use super::choice::did_you_mean;
use super::names::{NOT_YET_ENGINES, RW_MODES, SUPPORTED_ENGINES};
use crate::values;
use iomark_engine::job::{BlockSize, Dir, EngineKind, FileServiceType, RwMode, SizeSpec};
use std::path::PathBuf;

/// fio `verify=` methods iomark implements (canonical names; `crc32c-intel` and `pattern_hdr`
/// are aliases).
pub const VERIFY_METHODS: &[&str] = &[
    "crc32c", "xxhash", "md5", "sha256", "pattern", "null", "meta",
];
/// fio `verify=` methods iomark does not implement yet.
const VERIFY_NOT_YET: &[&str] = &[
    "crc64", "crc32", "crc16", "crc7", "sha1", "sha512", "sha3-224", "sha3-256", "sha3-384",
    "sha3-512",
];

pub fn name(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    if v.trim().is_empty() {
        return Err(OptionError::NeedsValue(c.def.name));
    }
    c.spec.name = v.trim().to_string();
    Ok(())
}

pub fn rw(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    let (mode, modifier) = match v.split_once(':') {
        Some((m, n)) => (m.trim(), Some(n.trim())),
        None => (v.trim(), None),
    };
    let m = match mode.to_ascii_lowercase().as_str() {
        "read" => RwMode::Read,
        "write" => RwMode::Write,
        "trim" => RwMode::Trim,
        "randread" => RwMode::RandRead,
        "randwrite" => RwMode::RandWrite,
        "randtrim" => RwMode::RandTrim,
        "rw" | "readwrite" => RwMode::ReadWrite,
        "randrw" => RwMode::RandRw,
        "trimwrite" => RwMode::TrimWrite,
        "randtrimwrite" => RwMode::RandTrimWrite,
        other => {
            let why = format!(
                "expected {}{}",
                c.def.kind.form(),
                did_you_mean(other, RW_MODES)
            );
            return Err(c.invalid(v, why));
        }
    };
    // As fio reads it: for a random pattern the number of I/Os per random offset (its leading
    // digits), for a sequential one a signed size added after each I/O.
    let n = match modifier {
        None | Some("") => 0,
        Some(n) if m.is_random() => {
            let digits: String = n.chars().take_while(|ch| ch.is_ascii_digit()).collect();
            match digits.parse::<i64>() {
                Ok(0) => {
                    return Err(c.not_yet(
                        v,
                        "':0' (no random I/O at all) is not implemented in iomark yet; use the sequential pattern",
                    ))
                }
                Ok(k) => k,
                Err(_) => {
                    return Err(c.invalid(
                        v,
                        "expected the number of I/Os per random offset, such as randread:8",
                    ))
                }
            }
        }
        Some(n) => values::parse_int(n, c.kb()).map_err(|e| c.invalid(v, e))?,
    };
    c.spec.rw = m;
    c.spec.rw_modifier.value = n;
    Ok(())
}

pub fn rw_sequencer(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    use iomark_engine::job::RwSequencer;
    c.spec.rw_modifier.sequencer = match c.word(v)?.as_str() {
        "identical" => RwSequencer::Identical,
        _ => RwSequencer::Sequential,
    };
    Ok(())
}

pub fn percentage_random(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    let kb = c.kb();
    let l = c.per_dir(v, |s| -> Result<u32, Reason> {
        let n = values::parse_uint(s, kb)?;
        if n > 100 {
            Err("expected a percentage from 0 to 100".into())
        } else {
            Ok(n as u32)
        }
    })?;
    set_per_dir(&mut c.spec.percentage_random, l);
    Ok(())
}

pub fn bs(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    let kb = c.kb();
    let range = std::cell::RefCell::new(None);
    let l = c.per_dir(v, |s| -> Result<BlockSize, Reason> {
        // `bs=4k-512k`: fio reads the first size and ignores the rest (a range is bsrange).
        let n = match (values::parse_size(s, kb), s.split_once('-')) {
            (Err(_), Some((lo, hi))) if values::parse_size_range(s, kb).is_ok() => {
                *range.borrow_mut() =
                    Some((s.to_string(), lo.trim().to_string(), hi.trim().to_string()));
                values::parse_size(lo, kb)?
            }
            (n, _) => n?,
        };
        if n == 0 {
            Err("block size 0".into())
        } else {
            Ok(BlockSize::Fixed(n))
        }
    })?;
    set_per_dir(&mut c.spec.bs, l);
    if let Some((s, lo, hi)) = range.into_inner() {
        c.pending.warnings.push(format!(
            "bs={s} is read as bs={lo}: a block size takes no range (bsrange={lo}-{hi} gives one)"
        ));
    }
    Ok(())
}

pub fn bsrange(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    let kb = c.kb();
    let l = c.per_dir(v, |s| -> Result<BlockSize, Reason> {
        let (a, b) = values::parse_size_range(s, kb)?;
        if a == 0 {
            return Err("block size 0".into());
        }
        Ok(if a == b {
            BlockSize::Fixed(a)
        } else {
            BlockSize::Range { min: a, max: b }
        })
    })?;
    set_per_dir(&mut c.spec.bs, l);
    Ok(())
}

pub fn bssplit(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    let l = values::parse_bssplit(v, c.kb()).map_err(|e| c.invalid(v, e))?;
    for d in Dir::ALL {
        if let Some(x) = l.get(d) {
            c.pending.bssplit[d] = Some(x.clone());
        }
    }
    Ok(())
}

pub fn ba(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    let kb = c.kb();
    let l = c.per_dir(v, |s| values::parse_size(s, kb).map(Some))?;
    set_per_dir(&mut c.spec.blockalign, l);
    Ok(())
}

/// A size or percentage; 0 means "not given".
pub fn size_or_none(c: &Ctx<'_>, v: &str) -> Result<Option<SizeSpec>, OptionError> {
    Ok(match c.size_pct(v)? {
        SizeSpec::Bytes(0) => None,
        s => Some(s),
    })
}

/// As in fio, every `filename` adds its files (a global one and the job's own too); one from
/// `--override` replaces them.
pub fn filename(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    if c.overriding {
        c.spec.filenames.clear();
    }
    for p in values::parse_path_list(v).into_iter().map(PathBuf::from) {
        if !c.spec.filenames.contains(&p) {
            c.spec.filenames.push(p);
        }
    }
    Ok(())
}

pub fn file_service_type(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    let (k, n) = match v.split_once(':') {
        Some((k, n)) => (k.trim(), Some(n.trim())),
        None => (v.trim(), None),
    };
    let kind = match k.to_ascii_lowercase().as_str() {
        "random" => FileServiceType::Random,
        "roundrobin" => FileServiceType::RoundRobin,
        "sequential" => FileServiceType::Sequential,
        "zipf" | "pareto" | "normal" | "gauss" => {
            return Err(c.not_yet(
                v,
                "weighted file selection is not implemented in iomark yet",
            ))
        }
        _ => return Err(c.invalid(v, format!("expected {}", c.def.kind.form()))),
    };
    c.spec.file_service.kind = kind;
    c.spec.file_service.batch = match n {
        Some(n) if !n.is_empty() => c.count(n)?,
        _ => 1,
    };
    Ok(())
}

pub fn ioengine(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    let name = v.trim();
    if let Some(e) = EngineKind::from_name(&name.to_ascii_lowercase()) {
        c.spec.ioengine = e;
        c.pending.engine_set = true;
        return Ok(());
    }
    if NOT_YET_ENGINES.contains(&name) || name.starts_with("external:") {
        return Err(OptionError::EngineNotYet {
            name: name.to_string(),
            why: if name.starts_with("external:") {
                "iomark loads no fio engine libraries"
            } else {
                super::names::not_yet_reason(name)
            },
            supported: SUPPORTED_ENGINES.join(", "),
        });
    }
    let why = format!(
        "expected one of {}{}",
        SUPPORTED_ENGINES.join(", "),
        did_you_mean(name, SUPPORTED_ENGINES)
    );
    Err(c.invalid(v, why))
}

pub fn nonvectored(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    c.spec.engine_options.nonvectored =
        match values::parse_int(v, c.kb()).map_err(|e| c.invalid(v, e))? {
            0 => false,
            -1 | 1 => true,
            _ => return Err(c.invalid(v, "expected -1, 0 or 1")),
        };
    Ok(())
}

pub fn verify(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    let m = v.trim().to_ascii_lowercase();
    c.pending.verify_method = match m.as_str() {
        "0" | "none" | "off" | "" => Some(String::new()),
        "crc32c" | "crc32c-intel" => Some("crc32c".into()),
        "pattern" | "pattern_hdr" => Some("pattern".into()),
        x if VERIFY_METHODS.contains(&x) => Some(x.to_string()),
        x if VERIFY_NOT_YET.contains(&x) => {
            return Err(c.not_yet(
                v.trim(),
                format!("iomark implements verify={}", VERIFY_METHODS.join(", ")),
            ))
        }
        _ => return Err(c.invalid(v, format!("expected one of {}", VERIFY_METHODS.join(", ")))),
    };
    Ok(())
}

pub fn verify_interval(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    let n = c.size(v)?;
    if n == 0 {
        return Err(c.invalid(v, "the verify block size must be at least 1"));
    }
    c.pending.verify.interval = n;
    Ok(())
}

pub fn verify_pattern(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    let (p, offsets) = values::parse_pattern_fmt(v).map_err(|e| c.invalid(v, e))?;
    c.pending.verify.pattern = if p.is_empty() { None } else { Some(p) };
    c.pending.verify.pattern_offsets = offsets;
    Ok(())
}

/// `gtod_reduce`: turn off every latency and bandwidth measurement.
pub fn gtod_reduce(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    let on = c.boolean(v)?;
    let s = &mut c.spec.stats;
    s.disable_lat = on;
    s.disable_clat = on;
    s.disable_slat = on;
    s.disable_bw = on;
    s.clat_percentiles = !on;
    if on {
        s.lat_percentiles = false;
        s.slat_percentiles = false;
    }
    Ok(())
}

pub fn unified_rw_reporting(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    use iomark_engine::job::UnifiedRw;
    c.spec.stats.unified_rw = match c.word(v)?.as_str() {
        "mixed" | "1" => UnifiedRw::Mixed,
        "both" | "2" => UnifiedRw::Both,
        _ => UnifiedRw::None,
    };
    Ok(())
}

pub fn kb_base(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    c.pending.kb_base = match v.trim() {
        "1000" => 1000,
        "1024" => 1024,
        _ => return Err(c.invalid(v, "expected 1024 or 1000")),
    };
    Ok(())
}

/// `write_iolog=path`: record the job's I/O in fio's version 3 log format.
pub fn write_iolog(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    let p = v.trim();
    c.spec.record = (!p.is_empty()).then(|| iomark_engine::job::TraceRecord {
        path: PathBuf::from(p),
        header: crate::iolog::HEADER_V3.to_string(),
    });
    Ok(())
}

/// `replay_align=N`: a power of two (0 = as recorded).
pub fn replay_align(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    let n = c.uint(v)?;
    if n != 0 && !n.is_power_of_two() {
        return Err(c.invalid(v, "expected a power of two"));
    }
    c.pending.replay.align = n;
    Ok(())
}

/// `steadystate=iops|iops_slope|bw|bw_slope:LIMIT[%]` (the bandwidth limit is a size per second).
pub fn steadystate(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    use iomark_engine::steady::SteadyMetric;
    const FORM: &str =
        "expected iops, iops_slope, bw or bw_slope, ':' and a limit (e.g. iops_slope:0.01%)";
    let (word, limit) = v.trim().split_once(':').ok_or_else(|| c.invalid(v, FORM))?;
    let (metric, slope) = match word.trim() {
        "iops" => (SteadyMetric::Iops, false),
        "iops_slope" => (SteadyMetric::Iops, true),
        "bw" => (SteadyMetric::Bw, false),
        "bw_slope" => (SteadyMetric::Bw, true),
        _ => return Err(c.invalid(v, FORM)),
    };
    let limit = limit.trim();
    let (percent, value) = match limit.strip_suffix('%') {
        Some(p) => (
            true,
            p.trim().parse::<f64>().map_err(|_| c.invalid(v, FORM))?,
        ),
        None if metric == SteadyMetric::Iops => {
            (false, limit.parse::<f64>().map_err(|_| c.invalid(v, FORM))?)
        }
        None => (false, c.size(limit)? as f64),
    };
    if !value.is_finite() || value < 0.0 {
        return Err(c.invalid(v, FORM));
    }
    c.pending.steady_crit = Some((metric, slope, percent, value));
    Ok(())
}

/// `prio=N`: the level of the job thread's I/O priority (0 to 7, as fio).
pub fn prio(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    let n = c.uint(v)?;
    if n > 7 {
        return Err(c.invalid(v, format!("max value out of range: {n} (7 max)")));
    }
    c.spec.io_priority.get_or_insert_default().level = n as u8;
    Ok(())
}

/// `prioclass=N`: the class of the job thread's I/O priority (0 to 3, as fio).
pub fn prioclass(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    let n = c.uint(v)?;
    if n > 3 {
        return Err(c.invalid(v, format!("max value out of range: {n} (3 max)")));
    }
    c.spec.io_priority.get_or_insert_default().class = n as u8;
    Ok(())
}

/// `latency_percentile`: one decimal number from 0 to 100, as fio's range for it.
pub fn latency_percentile(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    let p = values::parse_float(v).map_err(|e| c.invalid(v, e))?;
    if !(0.0..=100.0).contains(&p) {
        return Err(c.invalid(v, "expected a percentage from 0 to 100"));
    }
    c.spec.depth_search.percentile = p;
    Ok(())
}

/// `cpumask=N`: bit N set lets the job run on CPU N (the low 32 bits, as fio reads them).
pub fn cpumask(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    let mask = c.uint(v)?;
    if mask >> 32 != 0 {
        return Err(c.invalid(v, "a mask of CPUs 0 to 31 (use cpus_allowed for more)"));
    }
    let cpus: Vec<usize> = (0..32).filter(|i| mask >> i & 1 == 1).collect();
    if cpus.is_empty() {
        return Err(c.invalid(v, "the mask names no CPU"));
    }
    c.spec.cpus_allowed = Some(cpus);
    Ok(())
}

/// A value of `field` that may be a count of zones (`4z`): kept until the zone size is known,
/// the field itself reset as fio resets it; any other value goes to `set`.
pub fn with_zones(
    c: &mut Ctx<'_>,
    v: &str,
    field: super::ZoneField,
    set: super::apply::SetFn,
) -> Result<(), OptionError> {
    c.pending.zones.counts.retain(|(f, _)| *f != field);
    let Some(n) = v.trim().strip_suffix('z') else {
        return set(c, v);
    };
    let n: u64 = n
        .trim()
        .parse()
        .map_err(|_| c.invalid(v, "expected a whole number of zones before 'z', e.g. 4z"))?;
    c.pending.zones.counts.push((field, n));
    use super::ZoneField as F;
    match field {
        F::Size => c.spec.size = None,
        F::IoSize => c.spec.io_size = None,
        F::Offset => c.spec.offset = SizeSpec::Bytes(0),
        F::OffsetIncrement => c.spec.offset_increment = SizeSpec::Bytes(0),
        F::Skip => c.pending.zones.skip = 0,
    }
    Ok(())
}

/// An open-zone limit: a whole number from 0 to 4096 (fio's largest).
pub fn open_zones(c: &Ctx<'_>, v: &str) -> Result<u32, OptionError> {
    let n = c.uint(v)?;
    if n > 4096 {
        return Err(c.invalid(v, "at most 4096 zones can be open"));
    }
    Ok(n as u32)
}

/// A share from 0 to 1 (`zone_reset_threshold`, `zone_reset_frequency`).
pub fn unit_share(c: &Ctx<'_>, v: &str) -> Result<f64, OptionError> {
    match v.trim().parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(c.invalid(v, "expected a number from 0 to 1")),
    }
}
