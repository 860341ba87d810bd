//! Presets: named, inspectable benchmarks built into the binary as data.
//!
//! A preset is a description, where it comes from, its jobs (fio options, turned into iomark's
//! job model by the fio front end, so `preset show` prints exactly what `preset run` runs), the
//! figures its summary derives from the jobs' results and what the user should read from them.
//!
//! - [`registry`]: every preset, as data.
//! - [`jobfile`]: a preset as an fio job file, for a target, size and runtime.
//! - [`plan`]: the same job file typed into a [`iomark_engine::job::RunPlan`].
//! - [`target`]: where a preset runs (a temporary file by default) and the refusals that keep it
//!   safe.
//! - [`summary`]: the headline figures from a [`iomark_engine::result::RunResult`].
//! - [`limits`]: the limits a figure is checked against (`--expect`, `--disk`) and the checks.
//! - [`disks`]: published limits of common cloud disk types, as data.
//! - [`io_line`]: the line saying how the jobs ran (direct or buffered, engine, queue depth).
//! - [`args`]: `iomark preset list | show NAME | run NAME [TARGET] [options]`.

pub mod args;
pub mod disks;
pub mod io_line;
pub mod jobfile;
pub mod limits;
pub mod plan;
pub mod registry;
pub mod summary;
pub mod table;
pub mod target;

use crate::repeat::Agg;

/// A built-in benchmark.
#[derive(Debug)]
pub struct Preset {
    pub name: &'static str,
    /// One line for `preset list`.
    pub title: &'static str,
    /// Where the recipe comes from (the published procedure it follows).
    pub source: &'static str,
    /// Options every job shares (`[global]`). Values may use the placeholders of
    /// [`jobfile::Settings`]: `{size}`, `{runtime}`, `{ramp}`, `{warmup}` and `{size/N}`.
    pub globals: &'static [(&'static str, &'static str)],
    pub jobs: &'static [PresetJob],
    /// The headline figures, in table order.
    pub figures: &'static [Figure],
    /// Ranges shown after the figures: (label, low figure, high figure).
    pub ranges: &'static [(&'static str, &'static str, &'static str)],
    /// What the figures mean and how to read them (one line each).
    pub reading: &'static [&'static str],
    /// Defaults of this preset: file size, measured time per job, warm-up time.
    pub size: u64,
    pub runtime_s: u64,
    pub warmup_s: u64,
    /// Repetitions and the rule that picks the headline number (CrystalDiskMark's profiles).
    pub loops: u32,
    pub agg: Agg,
}

/// One job section of a preset.
#[derive(Debug)]
pub struct PresetJob {
    pub name: &'static str,
    pub options: &'static [(&'static str, &'static str)],
    /// A warm-up job: reported separately, never part of a figure.
    pub warmup: bool,
}

/// What a figure measures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Metric {
    /// Bytes per second.
    Bw,
    Iops,
    /// Mean total latency in µs.
    LatMean,
    /// 99th percentile of the total latency in µs.
    LatP99,
}

/// Which directions a figure adds up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Dirs {
    Read,
    Write,
    Both,
}

/// The kind of provisioned limit a figure is checked against (`--expect-iops`, `--expect-mbps`
/// set every figure of the kind; `--expect KEY=N` and `--disk` one figure each, by its key).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Expect {
    None,
    Iops,
    Mbps,
}

/// A headline figure: the sum of `metric` over every clone of the named jobs in `dirs`, divided
/// by `divisor` (latencies: the latency of all their I/Os together).
#[derive(Debug)]
pub struct Figure {
    pub label: &'static str,
    pub jobs: &'static [&'static str],
    pub metric: Metric,
    pub dirs: Dirs,
    pub divisor: f64,
    /// Why this divisor (shown under the table when it is not 1).
    pub explain: &'static str,
    pub expect: Expect,
    /// The figure's name in `--expect KEY=N` and in a disk's limits (`read.iops`).
    pub key: &'static str,
}

impl Figure {
    pub const fn new(label: &'static str, jobs: &'static [&'static str], metric: Metric) -> Self {
        Figure {
            label,
            jobs,
            metric,
            dirs: Dirs::Both,
            divisor: 1.0,
            explain: "",
            expect: Expect::None,
            key: "",
        }
    }
    pub const fn dirs(mut self, d: Dirs) -> Self {
        self.dirs = d;
        self
    }
    pub const fn divided(mut self, by: f64, explain: &'static str) -> Self {
        self.divisor = by;
        self.explain = explain;
        self
    }
    /// Checked against limits of kind `e`, named `key` (`read.iops`, `combined.mbps`).
    pub const fn expect(mut self, e: Expect, key: &'static str) -> Self {
        self.expect = e;
        self.key = key;
        self
    }
}

pub use registry::{find, PRESETS};
