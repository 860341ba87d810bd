//! One comparable model for results from any reader: a [`Source`] (one result file, or a
//! directory of repetitions of the same run) holds [`Job`]s, each with its directions' figures
//! in fixed units (IOPS, bytes/s, ns, seconds since the job's start).

/// What the workload of a job was, enough to match jobs whose names differ.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Signature {
    /// fio's rw name: read, write, randread, randwrite, rw, randrw, trim, ...
    pub rw: String,
    /// Block size in bytes (the read one when they differ; 0 when unknown).
    pub bs: u64,
    pub iodepth: u32,
    pub numjobs: u32,
    /// Percentage of reads in a mixed workload (100 or 0 for pure ones).
    pub rwmixread: u32,
}

impl std::fmt::Display for Signature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "rw={} bs={} iodepth={} numjobs={}",
            self.rw,
            human_bytes(self.bs),
            self.iodepth,
            self.numjobs
        )?;
        if self.rw.contains("rw") {
            write!(f, " rwmixread={}", self.rwmixread)?;
        }
        Ok(())
    }
}

/// `4096` -> `4k`, `1048576` -> `1m` (fio's way of writing sizes).
pub fn human_bytes(b: u64) -> String {
    for (s, unit) in [("g", 1u64 << 30), ("m", 1 << 20), ("k", 1 << 10)] {
        if b >= unit && b % unit == 0 {
            return format!("{}{s}", b / unit);
        }
    }
    b.to_string()
}

/// Summary and shape of one latency (slat, clat, lat or sync) in ns.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lat {
    pub n: u64,
    pub min_ns: f64,
    pub max_ns: f64,
    pub mean_ns: f64,
    pub stddev_ns: f64,
    /// (percent, ns), ascending by percent.
    pub percentiles: Vec<(f64, f64)>,
    /// Histogram bins (bucket midpoint ns, count), ascending; empty when the source has none
    /// (plain fio JSON without `+`).
    pub bins: Vec<(f64, u64)>,
}

impl Lat {
    /// Percentile `p`: from the bins when there are some (exact as the histogram), else the
    /// nearest listed percentile at or above `p`; None when neither has it.
    pub fn pct(&self, p: f64) -> Option<f64> {
        if self.n == 0 {
            return None;
        }
        if !self.bins.is_empty() {
            let total: u64 = self.bins.iter().map(|b| b.1).sum();
            // Rounding of p/100 is not an I/O more (99.9 % of 10,000 is the 9,990th).
            let want = (p / 100.0 * total as f64 - 1e-6).ceil().max(1.0) as u64;
            let mut cum = 0;
            for &(v, c) in &self.bins {
                cum += c;
                if cum >= want {
                    return Some(v);
                }
            }
            return self.bins.last().map(|b| b.0);
        }
        self.percentiles
            .iter()
            .find(|(q, _)| *q + 1e-9 >= p)
            .map(|x| x.1)
            .filter(|_| self.percentiles.iter().any(|(q, _)| (*q - p).abs() < 1e-6))
    }

    /// Add the I/Os of `o` (another repetition of the same job): exact when both carry their
    /// histograms (bins of the same buckets add; the listed percentiles are read again from the
    /// sum). False, with `self` unchanged, when either has no histogram: percentiles cannot be
    /// merged from percentiles.
    pub fn merge(&mut self, o: &Lat) -> bool {
        if o.n == 0 {
            return true;
        }
        if self.bins.is_empty() || o.bins.is_empty() {
            return false;
        }
        let mut bins: std::collections::BTreeMap<u64, (f64, u64)> = self
            .bins
            .iter()
            .map(|&(v, c)| (v.to_bits(), (v, c)))
            .collect();
        for &(v, c) in &o.bins {
            bins.entry(v.to_bits()).or_insert((v, 0)).1 += c;
        }
        let mut bins: Vec<(f64, u64)> = bins.into_values().collect();
        bins.sort_by(|a, b| a.0.total_cmp(&b.0));
        self.merge_summary(o);
        self.bins = bins;
        let ps: Vec<f64> = self.percentiles.iter().map(|p| p.0).collect();
        self.percentiles = ps
            .into_iter()
            .filter_map(|p| self.pct(p).map(|v| (p, v)))
            .collect();
        true
    }

    /// Add the count, mean, spread and extremes of `o` (exact: the standard deviation is
    /// pooled around the common mean). Percentiles and bins are left as they are.
    pub fn merge_summary(&mut self, o: &Lat) {
        let (n1, n2) = (self.n as f64, o.n as f64);
        let n = n1 + n2;
        if n == 0.0 {
            return;
        }
        let mean = (self.mean_ns * n1 + o.mean_ns * n2) / n;
        let ss = |l: &Lat, k: f64| {
            l.stddev_ns.powi(2) * (k - 1.0).max(0.0) + k * (l.mean_ns - mean).powi(2)
        };
        let var = if n > 1.0 {
            (ss(self, n1) + ss(o, n2)) / (n - 1.0)
        } else {
            0.0
        };
        self.n += o.n;
        self.min_ns = self.min_ns.min(o.min_ns);
        self.max_ns = self.max_ns.max(o.max_ns);
        self.mean_ns = mean;
        self.stddev_ns = var.sqrt();
    }

    /// The cumulative distribution (ns, fraction at or below), from the bins.
    pub fn cdf(&self) -> Vec<(f64, f64)> {
        let total: u64 = self.bins.iter().map(|b| b.1).sum();
        if total == 0 {
            return Vec::new();
        }
        let mut cum = 0;
        self.bins
            .iter()
            .map(|&(v, c)| {
                cum += c;
                (v, cum as f64 / total as f64)
            })
            .collect()
    }
}

/// A time series: (seconds since the job's start, value).
pub type Series = Vec<(f64, f64)>;

/// Interval series of one direction.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DirSeries {
    /// Bandwidth in KiB/s.
    pub bw_kib: Series,
    pub iops: Series,
    /// Mean completion latency per interval (ns).
    pub lat_ns: Series,
    /// Latency percentiles per interval: (s, p50 ns, p99 ns, p99.9 ns).
    pub pct_ns: Vec<(f64, f64, f64, f64)>,
}

impl DirSeries {
    pub fn is_empty(&self) -> bool {
        self.bw_kib.is_empty()
            && self.iops.is_empty()
            && self.lat_ns.is_empty()
            && self.pct_ns.is_empty()
    }
}

/// The headline figures of one direction in one repetition.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Headline {
    pub iops: f64,
    /// Bytes per second.
    pub bw: f64,
    /// Total-latency percentiles (clat when total latency has none), ns.
    pub p50_ns: Option<f64>,
    pub p99_ns: Option<f64>,
    pub p999_ns: Option<f64>,
    /// Which latency the percentiles above are of.
    pub pct_of: Option<LatKind>,
    /// p50, p99, p99.9 of completion latency and of total latency, ns, when recorded.
    pub clat_pct: [Option<f64>; 3],
    pub lat_pct: [Option<f64>; 3],
}

/// Completion latency (from submission to completion) or total latency (from the I/O's
/// creation to completion).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LatKind {
    Clat,
    Lat,
}

impl LatKind {
    pub fn name(self) -> &'static str {
        match self {
            LatKind::Clat => "clat",
            LatKind::Lat => "lat",
        }
    }
}

/// One figure of a direction, for tables, comparisons and exports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Figure {
    Iops,
    MBps,
    P50,
    P99,
    P999,
}

impl Figure {
    pub const ALL: [Figure; 5] = [
        Figure::Iops,
        Figure::MBps,
        Figure::P50,
        Figure::P99,
        Figure::P999,
    ];
    /// The name with its unit.
    pub fn label(self) -> &'static str {
        match self {
            Figure::Iops => "IOPS",
            Figure::MBps => "MB/s",
            Figure::P50 => "p50 lat (us)",
            Figure::P99 => "p99 lat (us)",
            Figure::P999 => "p99.9 lat (us)",
        }
    }
    /// The name with its unit, a percentile naming the latency it is of (`p50 clat (us)`);
    /// `p50 lat (us)` when `kind` is None.
    pub fn label_of(self, kind: Option<LatKind>) -> String {
        match kind {
            Some(k) if !self.higher_is_better() => {
                self.label().replace(" lat ", &format!(" {} ", k.name()))
            }
            _ => self.label().to_string(),
        }
    }
    /// Short name used in `--fail-if` rules.
    pub fn key(self) -> &'static str {
        match self {
            Figure::Iops => "iops",
            Figure::MBps => "mbps",
            Figure::P50 => "p50",
            Figure::P99 => "p99",
            Figure::P999 => "p99.9",
        }
    }
    /// Larger is better (throughput) or smaller is better (latency).
    pub fn higher_is_better(self) -> bool {
        matches!(self, Figure::Iops | Figure::MBps)
    }
    pub fn of(self, h: &Headline) -> Option<f64> {
        match self {
            Figure::Iops => Some(h.iops),
            // Operations that move no bytes (file create, stat, delete): a rate of bytes was
            // not measured, and is not zero.
            Figure::MBps if h.bw == 0.0 && h.iops > 0.0 => None,
            Figure::MBps => Some(h.bw / 1e6),
            Figure::P50 => h.p50_ns.map(|v| v / 1000.0),
            Figure::P99 => h.p99_ns.map(|v| v / 1000.0),
            Figure::P999 => h.p999_ns.map(|v| v / 1000.0),
        }
    }
}

/// Results of one direction (read, write or trim) of a job.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DirFigures {
    /// "read", "write" or "trim".
    pub dir: &'static str,
    pub io_bytes: u64,
    pub total_ios: u64,
    pub runtime_ms: u64,
    /// The runtime in microseconds when the result has it (0 when only milliseconds are
    /// known): rates of runs shorter than a few milliseconds come from it.
    pub runtime_us: u64,
    pub slat: Option<Lat>,
    pub clat: Option<Lat>,
    pub lat: Option<Lat>,
    pub series: DirSeries,
    /// One headline per repetition (one entry for a single run).
    pub reps: Vec<Headline>,
    /// The latency distributions above (histogram, CDF, percentile list) are of the first
    /// repetition only, as some repetition had no histogram to merge; otherwise they hold all
    /// repetitions. The interval series are always the first repetition's.
    pub dist_first_only: bool,
}

impl DirFigures {
    /// The latency percentiles are taken from: total latency, else completion latency.
    pub fn main_lat(&self) -> Option<&Lat> {
        [&self.lat, &self.clat]
            .into_iter()
            .flatten()
            .find(|l| l.n > 0 && (!l.percentiles.is_empty() || !l.bins.is_empty()))
    }

    /// The headline of this run from its totals.
    pub fn headline(&self) -> Headline {
        let (iops, bw) = if self.runtime_us > 0 {
            let us = self.runtime_us as f64;
            (
                self.total_ios as f64 * 1e6 / us,
                self.io_bytes as f64 * 1e6 / us,
            )
        } else if self.runtime_ms > 0 {
            let ms = self.runtime_ms as f64;
            (
                self.total_ios as f64 * 1e3 / ms,
                self.io_bytes as f64 * 1e3 / ms,
            )
        } else {
            (0.0, 0.0)
        };
        let l = self.main_lat();
        let pcts = |l: Option<&Lat>| {
            let l = l.filter(|l| l.n > 0 && (!l.percentiles.is_empty() || !l.bins.is_empty()));
            [50.0, 99.0, 99.9].map(|p| l.and_then(|l| l.pct(p)))
        };
        Headline {
            iops,
            bw,
            p50_ns: l.and_then(|l| l.pct(50.0)),
            p99_ns: l.and_then(|l| l.pct(99.0)),
            p999_ns: l.and_then(|l| l.pct(99.9)),
            pct_of: l.map(|l| {
                if self.lat.as_ref().is_some_and(|x| std::ptr::eq(x, l)) {
                    LatKind::Lat
                } else {
                    LatKind::Clat
                }
            }),
            clat_pct: pcts(self.clat.as_ref()),
            lat_pct: pcts(self.lat.as_ref()),
        }
    }

    /// A latency percentile figure's value in each repetition, of the latency `kind`.
    pub fn samples_of(&self, f: Figure, kind: LatKind) -> Vec<f64> {
        let i = match f {
            Figure::P50 => 0,
            Figure::P99 => 1,
            Figure::P999 => 2,
            _ => return self.samples(f),
        };
        self.reps
            .iter()
            .filter_map(|h| match kind {
                LatKind::Clat => h.clat_pct[i],
                LatKind::Lat => h.lat_pct[i],
            })
            .map(|v| v / 1000.0)
            .collect()
    }

    /// A figure: the mean over the repetitions.
    pub fn figure(&self, f: Figure) -> Option<f64> {
        let v: Vec<f64> = self.reps.iter().filter_map(|h| f.of(h)).collect();
        (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
    }

    /// A figure's value in each repetition.
    pub fn samples(&self, f: Figure) -> Vec<f64> {
        self.reps.iter().filter_map(|h| f.of(h)).collect()
    }

    /// The lowest and highest repetition of a figure, when it is a mean of several.
    pub fn spread(&self, f: Figure) -> Option<(f64, f64)> {
        let v = self.samples(f);
        (v.len() > 1).then(|| {
            v.iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
                    (lo.min(x), hi.max(x))
                })
        })
    }

    /// The repetitions of a figure varied by more than [`iomark_engine::noisy::NOISY_CV`] of their mean (what the
    /// terminal marks "noisy").
    pub fn noisy(&self, f: Figure) -> bool {
        let v = self.samples(f);
        if v.len() < 2 {
            return false;
        }
        let (m, var) = crate::stats::mean_var(&v);
        iomark_engine::noisy::is_noisy(m, var.sqrt())
    }

    /// A figure as a table shows it: the mean, and with repetitions the lowest and highest
    /// and the noisy mark; "n/a" when it was not measured.
    pub fn figure_text(&self, f: Figure) -> String {
        let Some(v) = self.figure(f) else {
            return "n/a".into();
        };
        let mut t = fmt_num(v);
        if let Some((lo, hi)) = self.spread(f) {
            t = format!("{t} ({}-{})", fmt_num(lo), fmt_num(hi));
        }
        if self.noisy(f) {
            t.push_str(" noisy");
        }
        t
    }
}

/// A figure for tables: no decimals from 1000 up, one from 100, two below.
pub fn fmt_num(v: f64) -> String {
    let a = v.abs();
    if a >= 1000.0 {
        format!("{v:.0}")
    } else if a >= 100.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

impl DirFigures {
    /// Add another repetition of this direction: its headline, and its latency distributions
    /// merged exactly (or, when one has no histogram, the first repetition's kept and marked).
    pub fn add_repetition(&mut self, o: DirFigures) {
        self.reps.extend(o.reps);
        for (a, b) in [
            (&mut self.slat, &o.slat),
            (&mut self.clat, &o.clat),
            (&mut self.lat, &o.lat),
        ] {
            let whole = match (a, b) {
                (Some(a), Some(b)) => a.merge(b),
                (None, None) => true,
                _ => false,
            };
            self.dist_first_only |= !whole;
        }
        self.dist_first_only |= o.dist_first_only;
    }
}

/// One clone's (thread's) share of a job: to spot stragglers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CloneFigures {
    pub label: String,
    /// IOPS per direction, in the job's direction order.
    pub iops: Vec<f64>,
    pub bw: Vec<f64>,
}

/// One job (all its clones together).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Job {
    pub name: String,
    pub signature: Signature,
    /// Directions that did I/O, in the order read, write, trim.
    pub dirs: Vec<DirFigures>,
    /// fsync/fdatasync latency, when the job synced.
    pub sync: Option<Lat>,
    pub usr_cpu_pct: Option<f64>,
    pub sys_cpu_pct: Option<f64>,
    pub clones: Vec<CloneFigures>,
    pub error: Option<String>,
}

impl Job {
    pub fn dir(&self, name: &str) -> Option<&DirFigures> {
        self.dirs.iter().find(|d| d.dir == name)
    }
}

/// One input: a result file, or a directory of repetitions of the same run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Source {
    pub label: String,
    /// The file(s) read.
    pub paths: Vec<String>,
    /// The tool that wrote it ("iomark-0.1.0", "fio-3.33").
    pub tool: String,
    /// Header facts: (name, value), e.g. ("host", "box"), ("kernel", "6.1").
    pub facts: Vec<(String, String)>,
    /// Honesty notes (page cache, noisy repetitions, ...).
    pub notes: Vec<String>,
    pub jobs: Vec<Job>,
    /// Disk utilisation over the run: (device, percent busy).
    pub disk_util: Vec<(String, f64)>,
    /// How many runs the figures come from.
    pub repetitions: usize,
    /// The tables of suites, presets and sweeps (dd, hdparm, bonnie, sweep, ...).
    pub tables: Vec<iomark_engine::result::SuiteTable>,
}

/// `note` without the digits inside its round brackets.
fn note_gist(note: &str) -> String {
    let mut depth = 0u32;
    note.chars()
        .filter(|&c| {
            match c {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                _ => {}
            }
            depth == 0 || !c.is_ascii_digit()
        })
        .collect()
}

impl Source {
    /// Whether this is a bonnie++ run (every job one of its tests).
    pub fn is_bonnie(&self) -> bool {
        !self.jobs.is_empty() && self.jobs.iter().all(|j| j.name.starts_with("bonnie-"))
    }

    /// Add note `n` unless one saying the same is there already: notes that differ only in
    /// the numbers in their brackets (each repetition's free memory, say) are one note, the
    /// first kept; names outside brackets (`job 'a1'`) always count.
    pub fn add_note(&mut self, n: String) {
        let g = note_gist(&n);
        if !self.notes.iter().any(|m| note_gist(m) == g) {
            self.notes.push(n);
        }
    }

    pub fn job(&self, name: &str) -> Option<&Job> {
        self.jobs.iter().find(|j| j.name == name)
    }

    /// Which latency the headline percentiles of this source's directions are of, when they
    /// are all of one (None when mixed or none has any).
    pub fn pct_kind(&self) -> Option<LatKind> {
        let mut kinds = self
            .jobs
            .iter()
            .flat_map(|j| &j.dirs)
            .flat_map(|d| &d.reps)
            .filter_map(|h| h.pct_of);
        let first = kinds.next()?;
        kinds.all(|k| k == first).then_some(first)
    }

    /// The headline table's cell of figure `f` of direction `d`: its text, naming the latency
    /// a percentile is of when the column's heading cannot (a mix of clat and lat).
    pub fn cell_text(&self, d: &DirFigures, f: Figure) -> String {
        let t = d.figure_text(f);
        match (self.pct_kind(), d.reps.first().and_then(|h| h.pct_of)) {
            (None, Some(k)) if !f.higher_is_better() && t != "n/a" => {
                format!("{t} ({})", k.name())
            }
            _ => t,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_from_bins_and_lists() {
        let l = Lat {
            n: 100,
            bins: vec![(1000.0, 50), (2000.0, 49), (9000.0, 1)],
            ..Default::default()
        };
        assert_eq!(l.pct(50.0), Some(1000.0));
        assert_eq!(l.pct(99.0), Some(2000.0));
        assert_eq!(l.pct(99.9), Some(9000.0));
        assert_eq!(l.cdf().last(), Some(&(9000.0, 1.0)));
        let l = Lat {
            n: 100,
            percentiles: vec![(50.0, 10.0), (99.0, 20.0)],
            ..Default::default()
        };
        assert_eq!(l.pct(99.0), Some(20.0));
        assert_eq!(l.pct(99.9), None, "not listed: absent, never invented");
    }

    #[test]
    fn signature_reads_like_fio() {
        let s = Signature {
            rw: "randrw".into(),
            bs: 4096,
            iodepth: 32,
            numjobs: 1,
            rwmixread: 70,
        };
        assert_eq!(
            s.to_string(),
            "rw=randrw bs=4k iodepth=32 numjobs=1 rwmixread=70"
        );
    }

    /// A note repeated by each repetition with its own figure in brackets is kept once; notes
    /// naming different jobs stay apart.
    #[test]
    fn notes_differing_only_in_bracketed_numbers_are_one() {
        let mut s = Source::default();
        s.add_note("r: working set of 16 MiB fits in the page cache (20435 MiB available)".into());
        s.add_note("r: working set of 16 MiB fits in the page cache (20608 MiB available)".into());
        s.add_note("job 'a1' is in only some of the repetitions".into());
        s.add_note("job 'a2' is in only some of the repetitions".into());
        assert_eq!(s.notes.len(), 3, "{:?}", s.notes);
        assert!(s.notes[0].contains("20435"));
    }
}
