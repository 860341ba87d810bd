//! Charts as data: what to draw, independent of how ([`crate::html`] draws them with Plotly,
//! [`crate::images`] with plotters). Each kind of result contributes its charts through one
//! file in this folder and one line in [`REGISTRY`]: a suite or preset adds its charts by adding
//! a file, never by touching the page.

pub mod blogbench;
pub mod bonnie;
pub mod cluster;
pub mod compare;
pub mod dd;
pub mod hdparm;
pub mod iozone;
pub mod job;
pub mod matrix;
pub mod preset;
pub mod quick;
#[cfg(test)]
pub mod quick_jobs;
pub mod scale;
pub mod sweep;
pub mod trend;

pub use scale::Scale;

use crate::model::Source;
use iomark_engine::result::{SuiteTable, TableKind};

/// How a chart is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Lines over a numeric x axis (time series, CDFs, percentile curves), or over categories
    /// when the traces have `cats` and no `x` (a figure across runs).
    Lines,
    /// Grouped bars over categories (`Trace::cats`).
    Bars,
    /// Bars over a numeric x axis (histograms).
    Histogram,
    /// A heatmap of `Trace::z` over `cats` (x) and `rows` (y).
    Heatmap,
    /// A 3-D surface of `Trace::z` over `cats` (x) and `rows` (y).
    Surface,
    /// A table of values: `Trace::z` per row (`rows`) and column (`cats`), each cell's
    /// `notes` (row by row) under its value (a quick run's grid).
    Grid,
}

/// One series of a chart.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    pub name: String,
    /// Numeric x values (Lines, Histogram).
    pub x: Vec<f64>,
    /// Category labels on x (Bars, Heatmap, Surface).
    pub cats: Vec<String>,
    /// y values, one per x or category.
    pub y: Vec<f64>,
    /// Row labels on y (Heatmap, Surface).
    pub rows: Vec<String>,
    /// Values per row, then per category (Heatmap, Surface).
    pub z: Vec<Vec<f64>>,
    /// The spread around each y, as (lowest, highest) of the repetitions it is the mean of:
    /// drawn as error bars; empty when the values are single measurements.
    pub spread: Vec<(f64, f64)>,
    /// Drawn as a line against the chart's second y axis (`Chart::y2_title`), over bars.
    pub y2: bool,
    /// A short text written beside each point (a comparison's change and p value); empty
    /// when there is none.
    pub notes: Vec<String>,
}

/// One chart, with its section and axis titles (units included).
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// Unique within a page; also the image file name.
    pub id: String,
    /// The heading it is listed under (a source, a job).
    pub section: String,
    pub title: String,
    pub x_title: String,
    pub y_title: String,
    /// The title of the second y axis, on the right, of the traces marked `y2` (its unit
    /// differs from the first axis's); empty when there is none.
    pub y2_title: String,
    /// How x values are placed (numeric x only: Lines, Histogram).
    pub x_scale: Scale,
    /// How y values are placed (Lines, Histogram).
    pub y_scale: Scale,
    pub kind: Kind,
    pub traces: Vec<Trace>,
    /// Detail behind the headline charts (one job's of many, one point's of a sweep): listed
    /// after them, collapsed, and drawn only when opened.
    pub detail: bool,
}

impl Chart {
    pub fn new(id: String, section: &str, title: &str, kind: Kind) -> Chart {
        Chart {
            id: sanitize(&id),
            section: section.to_string(),
            title: title.to_string(),
            x_title: String::new(),
            y_title: String::new(),
            y2_title: String::new(),
            x_scale: Scale::Linear,
            y_scale: Scale::Linear,
            kind,
            traces: Vec::new(),
            detail: false,
        }
    }
    pub fn axes(mut self, x: &str, y: &str) -> Chart {
        self.x_title = x.to_string();
        self.y_title = y.to_string();
        self
    }
    pub fn log_x(mut self) -> Chart {
        self.x_scale = Scale::Log;
        self
    }
    /// Percentiles on x, on the nines scale (x values in percent, below 100).
    pub fn nines_x(mut self) -> Chart {
        self.x_scale = Scale::Nines;
        self
    }
    pub fn log_y(mut self) -> Chart {
        self.y_scale = Scale::Log;
        self
    }
    /// A chart with no data points is not drawn.
    pub fn is_empty(&self) -> bool {
        self.traces
            .iter()
            .all(|t| t.y.is_empty() && t.z.iter().all(Vec::is_empty))
    }
}

/// A line trace from points.
pub fn line(name: &str, pts: impl IntoIterator<Item = (f64, f64)>) -> Trace {
    let (x, y) = pts.into_iter().unzip();
    Trace {
        name: name.to_string(),
        x,
        y,
        ..Default::default()
    }
}

/// A bar trace from (category, value) pairs.
pub fn bars(name: &str, pts: impl IntoIterator<Item = (String, f64)>) -> Trace {
    let (cats, y) = pts.into_iter().unzip();
    Trace {
        name: name.to_string(),
        cats,
        y,
        ..Default::default()
    }
}

/// The category label of a job's direction: the job's name alone when it ends by saying the
/// direction (`SEQ1M-Q8T1-read`), else `name direction` (a `sequential-write-check` job's
/// read and write both need the word, or their bars would carry one label).
pub fn job_dir_label(job: &str, dir: &str) -> String {
    let says = job == dir
        || job
            .strip_suffix(dir)
            .is_some_and(|head| head.ends_with(['-', '_', ' ', '.']));
    if says {
        job.to_string()
    } else {
        format!("{job} {dir}")
    }
}

/// Letters, digits, `-` and `_` only (an HTML id and a file name).
pub fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// A contributor of charts for a set of sources. Each returns nothing for sources that hold
/// none of its kind of result.
pub type ChartFn = fn(&[Source]) -> Vec<Chart>;

/// Every contributor, in page order: the suites whose own charts are the headline (iozone's
/// matrix, blogbench's iterations and scores, a sweep's heatmap) ahead of the per-pass job
/// charts.
pub const REGISTRY: &[ChartFn] = &[
    quick::charts,
    iozone::charts,
    blogbench::charts,
    sweep::charts,
    job::charts,
    cluster::charts,
    dd::charts,
    hdparm::charts,
    bonnie::charts,
    preset::charts,
];

/// Every table of one of `kinds` in `sources`, with its source.
pub fn suite_tables<'a>(
    sources: &'a [Source],
    kinds: &'a [TableKind],
) -> impl Iterator<Item = (&'a Source, &'a SuiteTable)> + 'a {
    sources.iter().flat_map(move |s| {
        s.tables
            .iter()
            .filter(move |t| kinds.contains(&t.kind))
            .map(move |t| (s, t))
    })
}

/// The number in column `col` of `row`, when the column exists and holds one.
pub fn cell_num(
    t: &SuiteTable,
    row: &[iomark_engine::result::TableCell],
    col: &str,
) -> Option<f64> {
    t.col(col).and_then(|i| row.get(i)).and_then(|c| c.num())
}

/// The text of column `col` of `row` (numbers written out), empty when absent.
pub fn cell_text(t: &SuiteTable, row: &[iomark_engine::result::TableCell], col: &str) -> String {
    t.col(col)
        .and_then(|i| row.get(i))
        .map(|c| c.text())
        .unwrap_or_default()
}

/// What a report draws beyond its default charts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// A 3-D surface beside each matrix's heatmap (iozone's file size × record size, a sweep
    /// over two options); without it the heatmaps alone, which read better.
    pub surfaces: bool,
}

/// All charts of a report of `sources`, in page order, empty ones left out, ids unique.
pub fn report_charts(sources: &[Source]) -> Vec<Chart> {
    report_charts_with(sources, Options::default())
}

/// [`report_charts`], with what `opts` asks for besides.
pub fn report_charts_with(sources: &[Source], opts: Options) -> Vec<Chart> {
    let mut out: Vec<Chart> = Vec::new();
    for f in REGISTRY {
        for c in f(sources) {
            if !c.is_empty() && (opts.surfaces || c.kind != Kind::Surface) {
                out.push(c);
            }
        }
    }
    // Headline charts first, the detail after them.
    out.sort_by_key(|c| c.detail);
    dedup_ids(&mut out);
    out
}

pub fn dedup_ids(charts: &mut [Chart]) {
    let mut seen = std::collections::HashSet::new();
    for c in charts.iter_mut() {
        let base = c.id.clone();
        let mut n = 1;
        while !seen.insert(c.id.clone()) {
            n += 1;
            c.id = format!("{base}_{n}");
        }
    }
}

#[cfg(test)]
mod label_tests {
    use super::job_dir_label;

    #[test]
    fn a_label_names_the_direction_unless_the_name_ends_with_it() {
        assert_eq!(job_dir_label("SEQ1M-Q8T1-read", "read"), "SEQ1M-Q8T1-read");
        assert_eq!(job_dir_label("read", "read"), "read");
        assert_eq!(job_dir_label("randread", "read"), "randread read");
        assert_eq!(
            job_dir_label("sequential-write-check", "write"),
            "sequential-write-check write"
        );
    }
}
