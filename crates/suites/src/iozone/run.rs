//! Running the matrix on the engine: for each cell, the passes of each test in iozone's order
//! (each test on the file the write test made), then the file is removed (unless `-w`). Rows
//! are handed out as they finish, so the text output grows as iozone's does, and a stop
//! (Ctrl-C) leaves the rows done so far.

use super::catalog::{passes, COLUMNS};
use super::plan::{Cell, Plan};
use iomark_engine::pass::{in_pass_thread, run_pass, CallCounts, PassResult};
use iomark_engine::result::{CpuUsage, JobResult, LatRecord, RunResult};
use iomark_engine::runner::steps::{self, Step, StepOutcome, StepRun};
use iomark_engine::runner::{RunCtl, RunError};
use iomark_engine::Dir;
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};

/// One measured figure: what one pass did.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Measure {
    pub bytes: u64,
    pub ops: u64,
    pub timed_ns: u64,
    pub start_unix_us: u64,
    pub lat: LatRecord,
    pub calls: CallCounts,
    /// CPU time of the pass's thread (ns, and getrusage's split) and the wall time it was
    /// measured over (ns).
    pub cpu_ns: u64,
    pub cpu: CpuUsage,
    pub cpu_wall_ns: u64,
    /// The CPU the pass ended on.
    pub last_cpu: i32,
    /// The clock resolution (ns) iozone's arithmetic subtracts from the pass's time (0: none).
    #[serde(default)]
    pub time_res_ns: u64,
}

/// The unit of the tables (`-O`, `-N`, or iozone's kB/s).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Unit {
    #[default]
    KiBps,
    OpsPerSec,
    MicrosPerOp,
}

impl Unit {
    /// iozone's "Output is in ..." wording.
    pub fn words(self) -> &'static str {
        match self {
            Unit::KiBps => "kBytes/sec",
            Unit::OpsPerSec => "operations per second",
            Unit::MicrosPerOp => "microseconds per operation",
        }
    }
}

impl From<PassResult> for Measure {
    fn from(r: PassResult) -> Measure {
        Measure {
            bytes: r.bytes,
            ops: r.ops,
            timed_ns: r.timed_ns,
            start_unix_us: r.start_unix_us,
            lat: r.lat,
            calls: r.calls,
            cpu_ns: r.cpu_ns,
            cpu: r.cpu,
            cpu_wall_ns: r.cpu_wall_ns,
            last_cpu: r.last_cpu,
            time_res_ns: super::clock::resolution_ns(),
        }
    }
}

impl Measure {
    /// The measured pass as a job of the result (`index`: its place among the run's jobs).
    pub fn job(&self, name: String, write: bool, index: usize) -> JobResult {
        let m = self;
        let mut j = JobResult {
            name,
            job_index: index,
            thread_number: index as u32 + 1,
            start_unix_ms: m.start_unix_us / 1000,
            elapsed_ms: m.timed_ns / 1_000_000,
            runtime_ms: m.timed_ns / 1_000_000,
            runtime_us: m.timed_ns / 1000,
            ran: true,
            ..Default::default()
        };
        let d = if write { Dir::Write } else { Dir::Read };
        j.set_measured(d, m.bytes, m.ops, &m.lat);
        j.cpu = m.cpu.clone();
        j
    }

    /// The pass's time as iozone's arithmetic makes it (see [`super::clock`]).
    pub fn secs(&self) -> f64 {
        super::clock::iozone_secs(self.timed_ns, self.time_res_ns)
    }
    /// kB/s (kB = 1024 bytes) as a real number.
    pub fn kbps(&self) -> f64 {
        self.bytes as f64 / 1024.0 / self.secs()
    }
    /// User + system CPU seconds of the pass.
    pub fn cpu_secs(&self) -> f64 {
        self.cpu_ns as f64 / 1e9
    }
    /// Wall seconds the CPU time was measured over.
    pub fn wall_secs(&self) -> f64 {
        self.cpu_wall_ns.max(self.timed_ns) as f64 / 1e9
    }
    /// iozone's CPU utilization: CPU time over wall time, in percent (above 100 when more than
    /// one CPU worked).
    pub fn cpu_util(&self) -> f64 {
        let w = self.wall_secs();
        if w <= 0.0 {
            0.0
        } else {
            100.0 * self.cpu_secs() / w
        }
    }
    /// The figure iozone prints: a whole number in `unit`.
    pub fn value(&self, unit: Unit) -> u64 {
        match unit {
            Unit::KiBps => (self.bytes as f64 / self.secs()) as u64 >> 10,
            Unit::OpsPerSec => (self.ops as f64 / self.secs()) as u64,
            Unit::MicrosPerOp => (self.secs() * 1e6 / self.ops.max(1) as f64) as u64,
        }
    }
}

impl Matrix {
    /// The largest record size of a cell whose pass's time iozone's guard replaced by the
    /// clock's resolution (iozone's warning after its table), if any.
    pub fn poor_resolution(&self) -> Option<u64> {
        self.rows
            .iter()
            .filter(|r| {
                r.values
                    .iter()
                    .flatten()
                    .any(|m| super::clock::floored(m.timed_ns, m.time_res_ns))
            })
            .map(|r| r.cell.record)
            .max()
    }
}

/// One row of the matrix: a cell and a figure per column (None = not measured).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub cell: Cell,
    pub values: Vec<Option<Measure>>,
}

/// Every row measured, in plan order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Matrix {
    pub rows: Vec<Row>,
    /// Stopped (Ctrl-C) before the last cell.
    pub interrupted: bool,
}

/// What [`run_matrix`] ends with: the rows, the I/O error that ended it (if one did), and the
/// run's result (a job per measured pass).
pub struct MatrixRun {
    pub matrix: Matrix,
    pub error: Option<String>,
    pub result: RunResult,
}

/// Run the plan's cells, each a step of one run (so the test file passes the gate of files a
/// run writes before any I/O, and is removed through it: never when it was there before the
/// run). `on_row` sees each finished row. An I/O error ends the run: the matrix so far and the
/// error come back.
pub fn run_matrix(
    plan: &Plan,
    keep: bool,
    test_delay_s: u64,
    ctl: &RunCtl,
    on_row: &mut dyn FnMut(&Row),
) -> Result<MatrixRun, RunError> {
    let on_row = RefCell::new(on_row);
    // Before any I/O: a file already there is not the run's to remove.
    let existed = std::fs::symlink_metadata(&plan.file).is_ok();
    let mut cells: Vec<CellStep<'_, '_>> = plan
        .cells
        .iter()
        .map(|&cell| CellStep {
            plan,
            cell,
            keep,
            existed,
            test_delay_s,
            on_row: &on_row,
            row: None,
            error: None,
        })
        .collect();
    let setup = StepRun {
        scratch_files: vec![plan.file.clone()],
        keep,
        ..Default::default()
    };
    let out = steps::run_all(&setup, &mut cells, ctl)?;
    let mut m = Matrix::default();
    let mut error = None;
    for c in cells {
        error = error.or(c.error);
        m.rows.extend(c.row);
    }
    let mut result = out.result;
    for (i, j) in result.jobs.iter_mut().enumerate() {
        j.job_index = i;
        j.thread_number = i as u32 + 1;
    }
    m.interrupted = error.is_none() && ctl.stop.load(Ordering::Relaxed);
    Ok(MatrixRun {
        matrix: m,
        error,
        result,
    })
}

/// One cell of the matrix as a step: its tests in iozone's order on the plan's file, then the
/// file removed through the gate (unless `-w`, or it was there before the run); a row with a
/// figure per measured column.
struct CellStep<'a, 'r> {
    plan: &'a Plan,
    cell: Cell,
    keep: bool,
    /// The file was there before the run: it is never removed.
    existed: bool,
    test_delay_s: u64,
    on_row: &'a RefCell<&'r mut dyn FnMut(&Row)>,
    row: Option<Row>,
    error: Option<String>,
}

impl Step for CellStep<'_, '_> {
    fn run(&mut self, ctl: &RunCtl) -> StepOutcome {
        let (plan, cell, stop) = (self.plan, self.cell, &*ctl.stop);
        let delay = self.test_delay_s;
        // Every pass of the cell in one thread, one after another, as in iozone's one process.
        let (row, error) = in_pass_thread(|| cell_passes(plan, cell, delay, stop));
        self.error = error;
        if !self.keep {
            steps::remove_scratch(&plan.file, self.existed);
        }
        let mut jobs = Vec::new();
        if row.values.iter().any(Option::is_some) {
            (self.on_row.borrow_mut())(&row);
            jobs = row_jobs(&row);
            self.row = Some(row);
        }
        StepOutcome {
            jobs,
            failed: self.error.is_some(),
            ..Default::default()
        }
    }
}

/// The passes of one cell's tests in iozone's order: the row of figures, and the I/O error
/// that ended it early, if one did.
fn cell_passes(plan: &Plan, cell: Cell, delay_s: u64, stop: &AtomicBool) -> (Row, Option<String>) {
    let mut row = Row {
        cell,
        values: vec![None; COLUMNS.len()],
    };
    for (k, &test) in plan.tests.iter().enumerate() {
        if k > 0 && delay_s > 0 {
            std::thread::sleep(std::time::Duration::from_secs(delay_s));
        }
        for (col, spec) in passes(test, &plan.file, cell.file, cell.record, plan.timing) {
            if stop.load(Ordering::Relaxed) {
                return (row, None);
            }
            match run_pass(&spec, stop) {
                Ok(r) if r.cut => return (row, None),
                Ok(r) => row.values[col] = Some(Measure::from(r)),
                Err(e) => return (row, Some(e.to_string())),
            }
        }
    }
    (row, None)
}

/// The jobs of a row: one per measured pass, named `iozone KEY FILEk/RECORDk`.
fn row_jobs(r: &Row) -> Vec<JobResult> {
    r.values
        .iter()
        .enumerate()
        .filter_map(|(c, v)| {
            let key = COLUMNS[c].key;
            let name = format!(
                "iozone {key} {}k/{}k",
                r.cell.file >> 10,
                r.cell.record >> 10
            );
            Some(v.as_ref()?.job(name, key.contains("write"), 0))
        })
        .collect()
}
