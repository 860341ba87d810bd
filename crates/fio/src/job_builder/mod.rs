//! Options (name, raw value) → the typed job model. Each job starts from `JobSpec::default()`,
//! takes the options it inherits (globals) and then its own, in order; the last value wins. Each
//! option reaches the model through the setter of its row in the option table.
//! Everything that can be checked without touching a target is checked here, naming the job.

mod error;
mod finish;
mod job;
mod net;
mod replay;
#[cfg(test)]
mod tests;
mod zbd;
mod zones;

pub use crate::options::{name_template, verify_kind, ZoneOpts};
pub use error::{BuildError, JobError, PlanError};
pub use job::{build_job, check_option};

use crate::options::{self, OptDef, Support};
use iomark_engine::job::{JobSpec, RunPlan};
use std::collections::BTreeSet;

/// One job as written: its name, the global options in force where it was defined, and its own
/// options, each as (name as written, raw value).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawJob {
    pub name: String,
    pub inherited: Vec<(String, String)>,
    pub options: Vec<(String, String)>,
    /// Wait for earlier jobs even without `stonewall` (first job of a second job file).
    pub implicit_stonewall: bool,
    /// How many of the last `options` come from `--override` (they replace, where fio's own
    /// options add up, as `filename` does).
    pub overrides: usize,
}

/// Everything the front end read, before typing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawPlan {
    pub global_options: Vec<(String, String)>,
    pub jobs: Vec<RawJob>,
    pub readonly: bool,
    pub allow_fill: bool,
    pub force_device_write: bool,
    pub allow_unlink_existing: bool,
    /// `--override KEY=VALUE`, already appended to every job's options; recorded in the plan.
    pub overrides: Vec<(String, String)>,
}

/// A typed plan plus the warnings met on the way (ignored options).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Built {
    pub plan: RunPlan,
    pub warnings: Vec<String>,
}

/// An option name that is in no row of the table, with the nearest valid name when there is
/// one.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{}", unknown_option_words(name, *suggestion))]
pub struct UnknownOption {
    pub name: String,
    pub suggestion: Option<&'static str>,
}

impl UnknownOption {
    pub fn new(name: &str) -> Self {
        UnknownOption {
            name: name.to_string(),
            suggestion: options::suggest(name),
        }
    }
}

/// Look an option up, with fio-style "did you mean" on failure.
pub fn find_option(name: &str) -> Result<&'static OptDef, UnknownOption> {
    options::lookup(name).ok_or_else(|| UnknownOption::new(name))
}

pub fn unknown_option_message(name: &str) -> String {
    unknown_option_words(name, options::suggest(name))
}

/// "unknown option 'NAME'" with the nearest valid name when there is one; NAME quoted and cut.
pub fn unknown_option_words(name: &str, suggestion: Option<&str>) -> String {
    match suggestion {
        Some(s) => format!(
            "unknown option {q_name} (did you mean {q_s}?)",
            q_name = iomark_output::echo::quote(name),
            q_s = iomark_output::echo::quote(s)
        ),
        None => format!(
            "unknown option {q_name}",
            q_name = iomark_output::echo::quote(name)
        ),
    }
}

/// The warning printed for an option that iomark accepts but ignores.
pub fn ignored_warning(def: &OptDef) -> Option<String> {
    match def.support {
        Support::Ignored(why) => Some(format!("option '{}' is ignored: {why}", def.name)),
        _ => None,
    }
}

/// Normalise the raw options into canonical names (as fio records them).
fn canonical(opts: &[(String, String)]) -> Result<Vec<(String, String)>, UnknownOption> {
    opts.iter()
        .map(|(k, v)| Ok((find_option(k)?.name.to_string(), v.clone())))
        .collect()
}

/// Build the whole plan: type every job, assign reporting groups, check cross-job references.
/// The first problem only; see [`build_plan_all`].
pub fn build_plan(raw: &RawPlan) -> Result<Built, PlanError> {
    build_plan_all(raw).map_err(|mut e| e.swap_remove(0))
}

/// A reporting group judges steady state over all its jobs with one criterion: the name of an
/// earlier job of `spec`'s group whose steady-state options differ, when both report as a group.
fn steady_mismatch(jobs: &[JobSpec], spec: &JobSpec) -> Option<String> {
    if !spec.group_reporting {
        return None;
    }
    jobs.iter()
        .find(|j| j.group_id == spec.group_id && j.group_reporting && j.steady != spec.steady)
        .map(|j| j.name.clone())
}

/// Build the whole plan, reporting the problems of every job.
pub fn build_plan_all(raw: &RawPlan) -> Result<Built, Vec<PlanError>> {
    let mut warnings = Vec::new();
    let mut warned = BTreeSet::new();
    let mut jobs: Vec<JobSpec> = Vec::with_capacity(raw.jobs.len());
    let mut errors = Vec::new();
    let mut group = 0u32;
    let mut jobs_in_group = 0u32;
    for (ji, rj) in raw.jobs.iter().enumerate() {
        let mut w = Vec::new();
        let (mut spec, pending) = match job::build_job_pending(rj, raw.readonly, &mut w) {
            Ok(s) => s,
            Err(error) => {
                errors.push(PlanError::Job { index: ji, error });
                // Keep the name for wait_for checks of later jobs.
                jobs.push(JobSpec {
                    name: rj.name.clone(),
                    ..JobSpec::default()
                });
                continue;
            }
        };
        for x in w {
            if warned.insert(x.clone()) {
                warnings.push(x);
            }
        }
        if let Some(target) = &spec.wait_for {
            if !jobs.iter().any(|j| &j.name == target) {
                errors.push(PlanError::Job {
                    index: ji,
                    error: JobError {
                        job: spec.name.clone(),
                        option: pending.wait_for_at,
                        cause: Box::new(BuildError::WaitFor(target.clone())),
                    },
                });
                continue;
            }
        }
        if (spec.stonewall || pending.new_group) && jobs_in_group > 0 {
            group += 1;
            jobs_in_group = 0;
        }
        spec.group_id = group;
        jobs_in_group += 1;
        if let Some(other) = steady_mismatch(&jobs, &spec) {
            errors.push(PlanError::Job {
                index: ji,
                error: JobError {
                    job: spec.name.clone(),
                    option: None,
                    cause: Box::new(BuildError::SteadyGroupMismatch(other)),
                },
            });
            continue;
        }
        jobs.push(spec);
    }
    // fio's exitall holds for the whole run: once one job sets it, every job that finishes
    // stops the jobs its exit_what names.
    if jobs.iter().any(|j| j.exitall) {
        for j in &mut jobs {
            j.exitall = true;
        }
    }
    let global_options = canonical(&raw.global_options).map_err(|e| vec![PlanError::Global(e)]);
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Built {
        plan: RunPlan {
            jobs,
            shown_global_options: global_options?.into(),
            readonly: raw.readonly,
            allow_fill: raw.allow_fill,
            force_device_write: raw.force_device_write,
            allow_unlink_existing: raw.allow_unlink_existing,
            shown_overrides: raw.overrides.clone().into(),
            series_ms: None,
        },
        warnings,
    })
}
