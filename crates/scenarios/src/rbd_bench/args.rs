//! rbd bench's options, with its meanings, and the job plan they make.
//!
//! - `--io-threads N`: N I/Os in flight. `rand` and `full-seq` keep them in flight from one
//!   loop (one job at depth N); `seq` gives each slot its own region of the target, written or
//!   read sequentially (N jobs at depth 1, each on its N-th of the target).
//! - `--io-total` is the amount moved in all; `--io-size` each I/O's size.

use super::image::{image_spec, CephImage};
use iomark_engine::job::{BlockSize, EngineKind, JobSpec, PerDir, RunPlan, RwMode, SizeSpec};
use std::path::PathBuf;
use std::time::Duration;

pub const USAGE: &str = "Usage: iomark rbd-bench TARGET --io-type read|write|readwrite [--io-size SIZE] [--io-threads N]
                        [--io-total SIZE] [--io-pattern seq|rand|full-seq] [--rw-mix-read PCT]
                        [--pattern-byte BYTE] [--allow-write]
                        [--pool POOL --image IMAGE] [--id ID | --name NAME] [--conf FILE]
                        [--cluster NAME] [--keyring FILE]

Ceph's rbd bench on any target: TARGET is an RBD image POOL/IMAGE (or rbd:POOL/IMAGE, or
--pool/--image), measured through librbd without mapping it, a file, a directory (a temporary file
in it) or a block device such as a mapped /dev/rbd0. An image, file or device is written only with
--allow-write, and an image that another client has open or that holds a filesystem or partition
table is never written. Defaults as rbd bench's: --io-size 4K, --io-threads 16, --io-total 1G,
--io-pattern seq, --rw-mix-read 50.";

/// rbd bench's options.
#[derive(Clone, Debug, PartialEq)]
pub struct RbdOpts {
    pub target: Option<PathBuf>,
    pub io_type: String,
    pub io_size: u64,
    pub io_threads: u32,
    pub io_total: u64,
    pub pattern: String,
    pub rw_mix_read: u32,
    pub pattern_byte: Option<u8>,
    pub allow_write: bool,
    /// The image and client options when the target is an RBD image.
    pub ceph: CephImage,
}

impl Default for RbdOpts {
    fn default() -> Self {
        RbdOpts {
            target: None,
            io_type: String::new(),
            io_size: 4096,
            io_threads: 16,
            io_total: 1 << 30,
            pattern: "seq".into(),
            rw_mix_read: 50,
            pattern_byte: None,
            allow_write: false,
            ceph: CephImage::default(),
        }
    }
}

/// An rbd-bench argument that cannot be used.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum RbdBenchArgError {
    #[error("rbd-bench: --io-type is required (read, write or readwrite)\n\n{USAGE}")]
    NoType,
    #[error("rbd-bench: --{option} {value}: {reason}")]
    Bad {
        option: String,
        value: String,
        reason: String,
    },
    #[error("rbd-bench: --{0} needs a value")]
    NeedsValue(String),
    #[error("rbd-bench: unknown option '{0}'\n\n{USAGE}")]
    Unknown(String),
    #[error("rbd-bench: only one TARGET may be given")]
    TwoTargets,
}

fn bad(o: &str, v: &str, r: &str) -> RbdBenchArgError {
    RbdBenchArgError::Bad {
        option: o.into(),
        value: v.into(),
        reason: r.into(),
    }
}

/// Parse the arguments after `rbd-bench` (`--help` gives None).
pub fn parse(args: &[String]) -> Result<Option<RbdOpts>, RbdBenchArgError> {
    let mut o = RbdOpts::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let Some(body) = a.strip_prefix("--") else {
            if o.target.is_some() {
                return Err(RbdBenchArgError::TwoTargets);
            }
            o.target = Some(PathBuf::from(a));
            continue;
        };
        let (k, v) = match body.split_once('=') {
            Some((k, v)) => (k.to_string(), Some(v.to_string())),
            None => (body.to_string(), None),
        };
        if matches!(k.as_str(), "help" | "allow-write") {
            if k == "help" {
                return Ok(None);
            }
            o.allow_write = true;
            continue;
        }
        let v = v
            .or_else(|| it.next().cloned())
            .ok_or_else(|| RbdBenchArgError::NeedsValue(k.clone()))?;
        let size = |v: &str| match iomark_fio::values::parse_size(v, 1024) {
            Ok(b) if b > 0 => Ok(b),
            _ => Err(bad(&k, v, "expected a size such as 4K, 4M or 10G")),
        };
        match k.as_str() {
            "io-type" => {
                o.io_type = match v.as_str() {
                    "read" | "write" => v.clone(),
                    "readwrite" | "rw" => "readwrite".into(),
                    _ => return Err(bad(&k, &v, "read, write or readwrite")),
                }
            }
            "io-size" => o.io_size = size(&v)?,
            "io-total" => o.io_total = size(&v)?,
            "io-threads" => {
                o.io_threads = match v.parse::<u32>() {
                    Ok(n) if (1..=4096).contains(&n) => n,
                    _ => return Err(bad(&k, &v, "a count from 1 to 4096")),
                }
            }
            "io-pattern" => {
                o.pattern = match v.as_str() {
                    "seq" | "sequential" => "seq".into(),
                    "rand" | "random" => "rand".into(),
                    "full-seq" => "full-seq".into(),
                    _ => return Err(bad(&k, &v, "seq, rand or full-seq")),
                }
            }
            "rw-mix-read" => {
                o.rw_mix_read = match v.parse::<u32>() {
                    Ok(n) if n <= 100 => n,
                    _ => return Err(bad(&k, &v, "a percentage from 0 to 100")),
                }
            }
            "pattern-byte" => {
                let t = v.trim_start_matches("0x");
                let radix = if t.len() != v.len() { 16 } else { 10 };
                o.pattern_byte = Some(
                    u8::from_str_radix(t, radix)
                        .map_err(|_| bad(&k, &v, "a byte, 0-255 or 0x00-0xff"))?,
                );
            }
            _ if o.ceph.set(&k, &v) => {}
            _ => return Err(RbdBenchArgError::Unknown(a.clone())),
        }
    }
    if o.io_type.is_empty() {
        return Err(RbdBenchArgError::NoType);
    }
    if let Some((pool, image)) = o.target.as_deref().and_then(image_spec) {
        if o.ceph.image.is_some() {
            return Err(RbdBenchArgError::TwoTargets);
        }
        o.ceph.pool = Some(pool);
        o.ceph.image = Some(image);
        o.target = None;
    } else if o.ceph.image.is_some() && o.target.is_some() {
        return Err(RbdBenchArgError::TwoTargets);
    }
    if o.io_total < o.io_size {
        return Err(bad(
            "io-total",
            &o.io_total.to_string(),
            "smaller than --io-size",
        ));
    }
    Ok(Some(o))
}

impl RbdOpts {
    /// rbd bench's words for the I/O type in its header (a mix names its shares).
    pub fn type_word(&self) -> String {
        if self.io_type == "readwrite" {
            let r = self.rw_mix_read;
            format!("readwrite read:write={r}:{}", 100 - r)
        } else {
            self.io_type.clone()
        }
    }

    /// rbd bench's name for the pattern in its header.
    pub fn pattern_word(&self) -> &'static str {
        match self.pattern.as_str() {
            "rand" => "random",
            "full-seq" => "full-seq",
            _ => "sequential",
        }
    }

    /// Regions of a `seq` run: io-threads, or fewer when there are fewer I/Os than that.
    pub fn slots(&self) -> u64 {
        (self.io_threads as u64)
            .min(self.io_total / self.io_size)
            .max(1)
    }

    /// Operations the run does: io-total over io-size, rounded down to a whole number per slot.
    pub fn ops(&self) -> u64 {
        let per = self.io_total / self.io_size;
        if self.pattern == "seq" {
            let t = self.slots();
            per / t * t
        } else {
            per
        }
    }

    /// The direction mix: rbd bench's I/O type over its pattern.
    fn rw(&self) -> RwMode {
        match (self.pattern.as_str(), self.io_type.as_str()) {
            ("rand", "read") => RwMode::RandRead,
            ("rand", "write") => RwMode::RandWrite,
            ("rand", _) => RwMode::RandRw,
            (_, "read") => RwMode::Read,
            (_, "write") => RwMode::Write,
            _ => RwMode::ReadWrite,
        }
    }

    /// What every rbd-bench job shares: its name, directions, I/O size and mix, the data
    /// pattern, no random map, and samples every 100 ms (the live per-second lines read the
    /// counters the workers publish at each sample).
    pub(super) fn job(&self) -> JobSpec {
        let mut j = JobSpec {
            name: "rbd-bench".into(),
            rw: self.rw(),
            bs: PerDir::all(BlockSize::Fixed(self.io_size)),
            rwmixread: self.rw_mix_read,
            norandommap: true,
            ..Default::default()
        };
        j.stats.bwavgtime = Duration::from_millis(100);
        j.stats.iopsavgtime = Duration::from_millis(100);
        j.buffers.pattern = self.pattern_byte.map(|b| vec![b]);
        j.logs.per_job_logs = true;
        j
    }

    /// The plan on `path` (a file of `size` bytes, or a device): one job per slot for `seq`,
    /// one job at depth io-threads otherwise; per-second IOPS samples for the output.
    pub fn plan(&self, path: &str, size: Option<u64>) -> RunPlan {
        let mut j = JobSpec {
            filenames: vec![PathBuf::from(path)],
            ioengine: EngineKind::Libaio,
            ..self.job()
        };
        let bytes = |n: u64| (n > 0).then_some(SizeSpec::Bytes(n));
        let ops = self.ops();
        if self.pattern == "seq" {
            let t = self.slots();
            j.numjobs = t as u32;
            j.io_size = bytes(ops / t * self.io_size);
            let region = size.map(|s| s / t / self.io_size * self.io_size);
            if let Some(r) = region.filter(|r| *r >= self.io_size) {
                j.size = bytes(r);
                j.offset_increment = SizeSpec::Bytes(r);
            }
        } else {
            j.iodepth = self.io_threads;
            j.io_size = bytes(ops * self.io_size);
            j.size = size.and_then(bytes);
        }
        j.iodepth_low = j.iodepth;
        RunPlan {
            jobs: vec![j],
            ..Default::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    /// The four seed lines, `--pool/--image` replaced by a target path.
    pub const SEEDS: [&str; 4] = [
        "/dev/rbd0 --io-size 4M --io-threads 32 --io-total 10G --io-pattern seq --io-type write",
        "/dev/rbd0 --io-size 128K --io-threads 32 --io-total 10G --io-pattern seq --io-type read",
        "/dev/rbd0 --io-size 4K --io-threads 32 --io-total 10M --io-pattern rand --io-type write",
        "/dev/rbd0 --io-size 4K --io-threads 32 --io-total 10G --io-pattern rand --io-type read",
    ];

    #[test]
    fn seed_lines_parse_and_plan() {
        for (i, line) in SEEDS.iter().enumerate() {
            let o = parse(&s(line)).unwrap().unwrap();
            assert_eq!(o.io_threads, 32);
            let p = o.plan("/dev/rbd0", None);
            let j = &p.jobs[0];
            if i < 2 {
                assert_eq!((j.numjobs, j.iodepth), (32, 1));
            } else {
                assert_eq!((j.numjobs, j.iodepth), (1, 32));
            }
        }
        let o = parse(&s(SEEDS[2])).unwrap().unwrap();
        assert_eq!((o.io_size, o.io_total, o.ops()), (4096, 10 << 20, 2560));
        let o = parse(&s("--pool p --image i --io-type write"))
            .unwrap()
            .unwrap();
        assert_eq!(o.ceph.spec(), "p/i");
        assert!(parse(&s("x --io-size 4K"))
            .unwrap_err()
            .to_string()
            .contains("--io-type is required"));
        assert!(parse(&s("x --io-type write --io-pattern zig")).is_err());
    }
}
