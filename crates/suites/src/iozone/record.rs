//! iomark's result file for an iozone run (`--result FILE`, `--json`): the run result the
//! report and `compare` read (one job per measured pass, with its bytes, operations, timed
//! runtime and full latency histogram), and next to it the suite's own table under "iozone":
//! every cell's figure, latency summary (mean, p50, p99, max) and system-call counts, and the
//! throughput-mode figures; the run result's `tables` hold the matrix per column (`table`).

use super::catalog::COLUMNS;
use super::latency::summary;
pub use super::latency::LatSummary;
use super::run::{Matrix, Measure, Unit};
use super::throughput::TpFigure;
use iomark_engine::pass::CallCounts;
use iomark_engine::result::{HostInfo, JobResult, RunResult};
use iomark_engine::RunPlan;
use serde::Serialize;

#[derive(Serialize)]
pub struct Figure {
    pub value: u64,
    pub kib_per_s: f64,
    pub bytes: u64,
    pub ops: u64,
    pub timed_ns: u64,
    /// Absent when the run kept no per-record latency.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency: Option<LatSummary>,
    pub calls: CallCounts,
    /// CPU time (user + system) of the pass's thread, the wall time it was measured over and
    /// their ratio in percent (iozone's -+u figure), and the CPU the pass ended on.
    pub cpu_s: f64,
    pub cpu_wall_s: f64,
    pub cpu_util: f64,
    pub last_cpu: i32,
}

#[derive(Serialize)]
pub struct CellOut {
    pub file_kb: u64,
    pub record_kb: u64,
    /// Column key → figure; columns not measured are absent.
    pub figures: std::collections::BTreeMap<&'static str, Figure>,
}

#[derive(Serialize)]
pub struct TpOut {
    pub test: &'static str,
    pub children: u32,
    pub children_see: f64,
    pub parent_sees: f64,
    pub min_xfer: f64,
    pub start_spread_ns: u64,
    pub cut: Vec<bool>,
    /// Which children wrote (the mix has readers and writers).
    pub writer: Vec<bool>,
    /// The longest child's wall time, the children's CPU time summed, and their ratio (%).
    pub cpu_wall_s: f64,
    pub cpu_s: f64,
    pub cpu_util: f64,
    pub per_child: Vec<Figure>,
    /// Over many processes (ranks): each one's children (`per_child[first_child..]`) and
    /// figures; absent for a run of one process.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ranks: Vec<TpRankOut>,
}

/// One process's share of a pass run over many.
#[derive(Serialize)]
pub struct TpRankOut {
    pub rank: usize,
    pub host: String,
    pub first_child: usize,
    pub children: u32,
    pub children_see: f64,
    pub parent_sees: f64,
    pub min_xfer: f64,
}

#[derive(Serialize)]
pub struct IozoneTable {
    pub command_line: String,
    pub unit: &'static str,
    pub cells: Vec<CellOut>,
    pub throughput: Vec<TpOut>,
    pub interrupted: bool,
}

/// A result file: iomark's run result with the iozone table beside it.
#[derive(Serialize)]
pub struct IozoneResult {
    #[serde(flatten)]
    pub run: RunResult,
    pub iozone: IozoneTable,
}

fn figure(m: &Measure, unit: Unit) -> Figure {
    Figure {
        value: m.value(unit),
        kib_per_s: m.kbps(),
        bytes: m.bytes,
        ops: m.ops,
        timed_ns: m.timed_ns,
        latency: summary(m),
        calls: m.calls,
        cpu_s: m.cpu_secs(),
        cpu_wall_s: m.wall_secs(),
        cpu_util: m.cpu_util(),
        last_cpu: m.last_cpu,
    }
}

/// Build the result of a run: `jobs` are the run's, as the step runner gave them (a job per
/// measured pass of the matrix, or per child of each throughput pass), numbered here in order;
/// the iozone table beside them comes from the same measures (the matrix's rows, the
/// throughput figures).
pub fn build(
    command_line: &str,
    host: HostInfo,
    start_unix_ms: u64,
    unit: Unit,
    (m, mut jobs): (&Matrix, Vec<JobResult>),
    tp: &[TpFigure],
) -> IozoneResult {
    for (i, j) in jobs.iter_mut().enumerate() {
        j.job_index = i;
        j.thread_number = i as u32 + 1;
    }
    let mut cells = Vec::new();
    for r in &m.rows {
        let mut figures = std::collections::BTreeMap::new();
        for (c, v) in r.values.iter().enumerate() {
            let Some(v) = v else { continue };
            figures.insert(COLUMNS[c].key, figure(v, unit));
        }
        cells.push(CellOut {
            file_kb: r.cell.file >> 10,
            record_kb: r.cell.record >> 10,
            figures,
        });
    }
    let mut throughput = Vec::new();
    for f in tp {
        let (cpu_wall_s, cpu_s, cpu_util) = f.cpu();
        throughput.push(TpOut {
            test: f.label,
            children: f.children,
            children_see: f.children_see(unit),
            parent_sees: f.parent_sees(unit),
            min_xfer: f.min_xfer(unit),
            start_spread_ns: f.start_spread_ns,
            cut: f.cut.clone(),
            writer: f.writer.clone(),
            cpu_wall_s,
            cpu_s,
            cpu_util,
            per_child: f.per_child.iter().map(|c| figure(c, unit)).collect(),
            ranks: f
                .ranks
                .iter()
                .map(|s| {
                    let own = f.share(s);
                    TpRankOut {
                        rank: s.rank,
                        host: s.host.clone(),
                        first_child: s.first_child,
                        children: s.children,
                        children_see: own.children_see(unit),
                        parent_sees: own.parent_sees(unit),
                        min_xfer: own.min_xfer(unit),
                    }
                })
                .collect(),
        });
    }
    let plan = RunPlan {
        shown_global_options: vec![("iozone".into(), command_line.into())].into(),
        ..Default::default()
    };
    let mut run = RunResult::assemble(&plan, start_unix_ms, host, jobs);
    run.interrupted = m.interrupted;
    run.tables = super::table::tables(m);
    IozoneResult {
        run,
        iozone: IozoneTable {
            command_line: command_line.into(),
            unit: unit.words(),
            cells,
            throughput,
            interrupted: m.interrupted,
        },
    }
}
