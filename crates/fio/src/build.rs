//! Options (name, raw value) → the typed job model. Each job starts from `JobSpec::default()`,
//! takes the options it inherits (globals) and then its own, in order; the last value wins.
//! Everything that can be checked without touching a target is checked here, naming the job.

use crate::options::{self, OptDef, OptKind, Support, NOT_YET_ENGINES, SUPPORTED_ENGINES};
use crate::values::{self, TimeUnit};
use iomark_engine::job::{
    BlockSize, ContinueOnError, CpusAllowedPolicy, Dir, EngineKind, FadviseHint, FallocateMode,
    FileServiceType, JobSpec, NamePart, NameTemplate, PerDir, RateProcess, RunPlan, RwMode,
    SizeSpec, SyncMode, VerifySpec,
};
use iomark_engine::verify::VerifyKind;
use std::collections::BTreeSet;
use std::path::PathBuf;

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
    /// `--override KEY=VALUE`, already appended to every job's options; recorded in the plan.
    pub overrides: Vec<(String, String)>,
}

/// A typed plan plus the warnings met on the way (ignored options).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Built {
    pub plan: RunPlan,
    pub warnings: Vec<String>,
}

/// Look an option up, with fio-style "did you mean" on failure.
pub fn find_option(name: &str) -> Result<&'static OptDef, String> {
    options::lookup(name).ok_or_else(|| unknown_option_message(name))
}

pub fn unknown_option_message(name: &str) -> String {
    match options::suggest(name) {
        Some(s) => format!("unknown option '{name}' (did you mean '{s}'?)"),
        None => format!("unknown option '{name}'"),
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
fn canonical(opts: &[(String, String)]) -> Result<Vec<(String, String)>, String> {
    opts.iter()
        .map(|(k, v)| Ok((find_option(k)?.name.to_string(), v.clone())))
        .collect()
}

/// A job that could not be typed: which job, which of its options (an index into
/// `inherited` followed by `options`) when one option is to blame, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanError {
    pub job: usize,
    pub option: Option<usize>,
    pub message: String,
}

/// Build the whole plan: type every job, assign reporting groups, check cross-job references.
/// The first problem only; see [`build_plan_all`].
pub fn build_plan(raw: &RawPlan) -> Result<Built, String> {
    build_plan_all(raw).map_err(|e| e[0].message.clone())
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
        let mut spec = match build_job_at(rj, raw.readonly, &mut w) {
            Ok(s) => s,
            Err((option, message)) => {
                errors.push(PlanError {
                    job: ji,
                    option,
                    message,
                });
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
                let option = rj
                    .inherited
                    .iter()
                    .chain(rj.options.iter())
                    .enumerate()
                    .filter(|(_, (k, _))| options::lookup(k).map(|d| d.name) == Some("wait_for"))
                    .map(|(i, _)| i)
                    .last();
                errors.push(PlanError {
                    job: ji,
                    option,
                    message: format!(
                        "job '{}': wait_for='{target}' does not name an earlier job",
                        spec.name
                    ),
                });
                continue;
            }
        }
        let new_group = rj
            .inherited
            .iter()
            .chain(rj.options.iter())
            .rfind(|(k, _)| options::lookup(k).map(|d| d.name) == Some("new_group"))
            .map(|(_, v)| v.is_empty() || values::parse_bool(v).unwrap_or(false))
            .unwrap_or(false);
        if (spec.stonewall || new_group) && jobs_in_group > 0 {
            group += 1;
            jobs_in_group = 0;
        }
        spec.group_id = group;
        jobs_in_group += 1;
        jobs.push(spec);
    }
    let global_options = canonical(&raw.global_options).map_err(|message| {
        vec![PlanError {
            job: 0,
            option: None,
            message,
        }]
    });
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Built {
        plan: RunPlan {
            jobs,
            global_options: global_options?,
            readonly: raw.readonly,
            allow_fill: raw.allow_fill,
            force_device_write: raw.force_device_write,
            overrides: raw.overrides.clone(),
        },
        warnings,
    })
}

/// Check one option's value on its own (only `kb_base` in force), so that a job file can point
/// at the line of a bad value. `Ok(Some(warning))` for an option iomark accepts and ignores.
pub fn check_option(
    def: &'static OptDef,
    value: &str,
    kb_base: u32,
) -> Result<Option<String>, String> {
    let mut spec = JobSpec::default();
    let mut st = State {
        kb_base,
        ..Default::default()
    };
    if def.is_engine_option() {
        if let Some(e) = def
            .engines
            .iter()
            .find_map(|n| EngineKind::from_fio_name(n))
        {
            spec.ioengine = e;
            st.engine_set = true;
        }
    }
    let mut w = Vec::new();
    apply(&mut spec, &mut st, def, value, &[], &mut w)?;
    Ok(w.pop())
}

#[derive(Default)]
struct State {
    kb_base: u32,
    engine_set: bool,
    bssplit: PerDir<Option<Vec<(u64, u32)>>>,
    batch_complete_max_set: bool,
    iodepth_low_set: bool,
    engine_opts: Vec<&'static OptDef>,
    /// `verify=` as given (canonical fio name), None = not given.
    verify_method: Option<String>,
    verify: VerifySpec,
}

/// fio `verify=` methods iomark implements (canonical names; `crc32c-intel` and `pattern_hdr`
/// are aliases).
pub const VERIFY_METHODS: &[&str] = &["crc32c", "xxhash", "md5", "sha256", "pattern", "null"];
/// fio `verify=` methods iomark does not implement yet.
const VERIFY_NOT_YET: &[&str] = &[
    "crc64", "crc32", "crc16", "crc7", "sha1", "sha512", "sha3-224", "sha3-256", "sha3-384",
    "sha3-512", "meta",
];

/// Type one job. `warnings` receives one line per ignored option.
pub fn build_job(
    raw: &RawJob,
    readonly: bool,
    warnings: &mut Vec<String>,
) -> Result<JobSpec, String> {
    build_job_at(raw, readonly, warnings).map_err(|(_, m)| m)
}

/// [`build_job`], with the index of the option to blame (into `inherited` then `options`).
pub fn build_job_at(
    raw: &RawJob,
    readonly: bool,
    warnings: &mut Vec<String>,
) -> Result<JobSpec, (Option<usize>, String)> {
    let jname = raw.name.clone();
    let ctx = |e: String| format!("job '{jname}': {e}");
    let mut all: Vec<(&'static OptDef, &str)> = Vec::new();
    for (i, (k, v)) in raw.inherited.iter().chain(raw.options.iter()).enumerate() {
        all.push((find_option(k).map_err(|e| (Some(i), ctx(e)))?, v.as_str()));
    }

    let mut st = State {
        kb_base: 1024,
        ..Default::default()
    };
    for (i, (d, v)) in all.iter().enumerate() {
        if d.name == "kb_base" {
            st.kb_base = match v.trim() {
                "1000" => 1000,
                "1024" => 1024,
                _ => return Err((Some(i), ctx(invalid(d, v, "expected 1024 or 1000")))),
            };
        }
    }

    let mut spec = JobSpec {
        name: raw.name.clone(),
        ..JobSpec::default()
    };
    // fio's default is per_job_logs=1; `LogSpec::default()` has it false.
    spec.logs.per_job_logs = true;
    let mut own = vec![("name".to_string(), raw.name.clone())];
    own.extend(canonical(&raw.options).map_err(|e| (None, ctx(e)))?);
    spec.options = own;

    let first_override = all.len() - raw.overrides.min(all.len());
    for (i, (def, value)) in all.iter().enumerate() {
        if i >= first_override && def.name == "filename" {
            spec.filenames.clear();
        }
        if let Err(e) = apply(&mut spec, &mut st, def, value, &all[i + 1..], warnings) {
            return Err((Some(i), ctx(e)));
        }
    }
    finish(&mut spec, &mut st, raw.implicit_stonewall, readonly).map_err(|e| (None, ctx(e)))?;
    if spec.logs.hist_log.is_some() && spec.logs.hist_msec == 0 {
        warnings.push(
            "write_hist_log without log_hist_msec logs nothing (as in fio); set log_hist_msec=MS"
                .into(),
        );
    }
    Ok(spec)
}

fn invalid(def: &OptDef, value: &str, why: &str) -> String {
    format!("invalid value '{value}' for option '{}': {why}", def.name)
}

fn set_per_dir<T: Clone>(dst: &mut PerDir<T>, src: PerDir<Option<T>>) {
    for d in Dir::ALL {
        if let Some(v) = src.get(d) {
            dst[d] = v.clone();
        }
    }
}

fn flag(def: &OptDef, v: &str) -> Result<bool, String> {
    if v.trim().is_empty() {
        return Ok(true);
    }
    values::parse_bool(v).map_err(|e| invalid(def, v, &e))
}

fn enum_value(def: &OptDef, v: &str) -> Result<String, String> {
    let lv = v.trim().to_ascii_lowercase();
    if let OptKind::Enum(allowed) = def.kind {
        if allowed.contains(&lv.as_str()) {
            return Ok(lv);
        }
        return Err(invalid(
            def,
            v,
            &format!(
                "expected one of {}{}",
                allowed.join(", "),
                did_you_mean(&lv, allowed)
            ),
        ));
    }
    Ok(lv)
}

fn did_you_mean(v: &str, candidates: &[&str]) -> String {
    options::nearest(v, candidates.iter().copied())
        .map(|s| format!(" (did you mean '{s}'?)"))
        .unwrap_or_default()
}

fn parse_rw(def: &OptDef, v: &str, kb: u32) -> Result<(RwMode, u64), String> {
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
        "randtrimwrite" => {
            return Err(format!(
            "option 'rw={v}' is not supported yet: randtrimwrite is not implemented in iomark yet"
        ))
        }
        other => {
            return Err(invalid(
                def,
                v,
                &format!(
                    "expected {}{}",
                    def.kind.form(),
                    did_you_mean(other, options::RW_MODES)
                ),
            ))
        }
    };
    let n = match modifier {
        None | Some("") => 0,
        Some(n) => values::parse_size(n, kb).map_err(|e| invalid(def, v, &e))?,
    };
    Ok((m, n))
}

fn parse_engine(def: &OptDef, v: &str) -> Result<EngineKind, String> {
    let name = v.trim();
    if let Some(e) = EngineKind::from_fio_name(&name.to_ascii_lowercase()) {
        return Ok(e);
    }
    if NOT_YET_ENGINES.contains(&name) || name.starts_with("external:") {
        return Err(format!(
            "ioengine={name} is not supported by iomark yet (supported: {})",
            SUPPORTED_ENGINES.join(", ")
        ));
    }
    let hint = did_you_mean(name, SUPPORTED_ENGINES);
    Err(format!(
        "{}{hint}",
        invalid(
            def,
            v,
            &format!("expected one of {}", SUPPORTED_ENGINES.join(", "))
        )
    ))
}

fn apply(
    spec: &mut JobSpec,
    st: &mut State,
    def: &'static OptDef,
    v: &str,
    later: &[(&'static OptDef, &str)],
    warnings: &mut Vec<String>,
) -> Result<(), String> {
    match def.support {
        Support::Supported => {}
        Support::Ignored(_) => {
            if let Some(w) = ignored_warning(def) {
                warnings.push(w);
            }
            return Ok(());
        }
        Support::NotYet(why) => {
            if options::is_default_value(def, v) {
                return Ok(());
            }
            let shown = if v.is_empty() {
                def.name.to_string()
            } else {
                format!("{}={v}", def.name)
            };
            return Err(format!("option '{shown}' is not supported yet: {why}"));
        }
    }

    let kb = st.kb_base;
    let inv = |e: String| invalid(def, v, &e);
    let size = |s: &str| values::parse_size(s, kb).map_err(inv);
    let uint = |s: &str| values::parse_uint(s, kb).map_err(inv);
    let u32v = |s: &str| -> Result<u32, String> {
        let n = values::parse_uint(s, kb).map_err(inv)?;
        u32::try_from(n).map_err(|_| invalid(def, s, "number too large"))
    };
    let pct = |s: &str| -> Result<u32, String> {
        let n = u32v(s)?;
        if n > 100 {
            return Err(invalid(def, s, "expected a percentage from 0 to 100"));
        }
        Ok(n)
    };
    let boolv = |s: &str| values::parse_bool(s).map_err(inv);
    let time = |s: &str, u: TimeUnit| values::parse_time(s, u).map_err(inv);
    let size_pct = |s: &str| values::parse_size_or_percent(s, kb).map_err(inv);
    let nonzero = |n: u32| -> Result<u32, String> {
        if n == 0 {
            Err(format!("{} must be at least 1", def.name))
        } else {
            Ok(n)
        }
    };

    if def.is_engine_option() {
        let cur = spec.ioengine.fio_name();
        if !def.engines.contains(&cur) {
            let later_engine = later
                .iter()
                .find(|(d, val)| d.name == "ioengine" && def.engines.contains(&val.trim()));
            let owners = def.engines.join(" or ");
            return Err(match later_engine {
                Some((_, e)) => format!(
                    "option '{}' must come after ioengine={} (engine options are defined by their engine)",
                    def.name,
                    e.trim()
                ),
                None if !st.engine_set => format!(
                    "option '{}' belongs to ioengine {owners}; give ioengine= before it",
                    def.name
                ),
                None => format!(
                    "option '{}' belongs to ioengine {owners}, not ioengine={cur}",
                    def.name
                ),
            });
        }
        if !st.engine_opts.iter().any(|d| d.name == def.name) {
            st.engine_opts.push(def);
        }
    }

    match def.name {
        "name" => {
            if v.trim().is_empty() {
                return Err("option 'name' needs a value".into());
            }
            spec.name = v.trim().to_string();
        }
        "description" => spec.description = Some(v.to_string()),
        "rw" => {
            let (m, n) = parse_rw(def, v, kb)?;
            spec.rw = m;
            spec.rw_modifier.value = n;
        }
        "rwmixread" => spec.rwmixread = pct(v)?,
        "rwmixwrite" => spec.rwmixread = 100 - pct(v)?,
        "percentage_random" => {
            let l = values::parse_per_dir(v, |s| {
                let n = values::parse_uint(s, kb)?;
                if n > 100 {
                    Err("expected a percentage from 0 to 100".to_string())
                } else {
                    Ok(n as u32)
                }
            })
            .map_err(inv)?;
            set_per_dir(&mut spec.percentage_random, l);
        }
        "random_distribution" => {
            spec.distribution = values::parse_distribution(v, kb).map_err(inv)?
        }
        "number_ios" => spec.number_ios = uint(v)?,
        "bs" => {
            let l = values::parse_per_dir(v, |s| {
                let n = values::parse_size(s, kb)?;
                if n == 0 {
                    Err("block size 0".to_string())
                } else {
                    Ok(BlockSize::Fixed(n))
                }
            })
            .map_err(inv)?;
            set_per_dir(&mut spec.bs, l);
        }
        "bsrange" => {
            let l = values::parse_per_dir(v, |s| {
                let (a, b) = values::parse_size_range(s, kb)?;
                if a == 0 {
                    return Err("block size 0".to_string());
                }
                Ok(if a == b {
                    BlockSize::Fixed(a)
                } else {
                    BlockSize::Range { min: a, max: b }
                })
            })
            .map_err(inv)?;
            set_per_dir(&mut spec.bs, l);
        }
        "bssplit" => {
            let l = values::parse_bssplit(v, kb).map_err(inv)?;
            for d in Dir::ALL {
                if let Some(x) = l.get(d) {
                    st.bssplit[d] = Some(x.clone());
                }
            }
        }
        "ba" => {
            let l =
                values::parse_per_dir(v, |s| values::parse_size(s, kb).map(Some)).map_err(inv)?;
            set_per_dir(&mut spec.blockalign, l);
        }
        "size" => {
            spec.size = match size_pct(v)? {
                SizeSpec::Bytes(0) => None,
                s => Some(s),
            }
        }
        "io_size" => {
            spec.io_size = match size_pct(v)? {
                SizeSpec::Bytes(0) => None,
                s => Some(s),
            }
        }
        "filesize" => {
            let r = values::parse_size_range(v, kb).map_err(inv)?;
            spec.filesize = if r == (0, 0) { None } else { Some(r) };
        }
        "offset" => spec.offset = size_pct(v)?,
        "offset_increment" => spec.offset_increment = size_pct(v)?,
        // As in fio, every `filename` adds its files (a global one and the job's own too).
        "filename" => {
            for p in values::parse_path_list(v).into_iter().map(PathBuf::from) {
                if !spec.filenames.contains(&p) {
                    spec.filenames.push(p);
                }
            }
        }
        "directory" => {
            spec.directories = values::parse_path_list(v)
                .into_iter()
                .map(PathBuf::from)
                .collect()
        }
        "filename_format" => {
            if v.trim().is_empty() {
                return Err(invalid(def, v, "expected a file name template"));
            }
            spec.file_names = name_template(v.trim())
        }
        "nrfiles" => spec.nrfiles = nonzero(u32v(v)?)?,
        "file_service_type" => {
            let (k, n) = match v.split_once(':') {
                Some((k, n)) => (k.trim(), Some(n.trim())),
                None => (v.trim(), None),
            };
            let kind = match k.to_ascii_lowercase().as_str() {
                "random" => FileServiceType::Random,
                "roundrobin" => FileServiceType::RoundRobin,
                "sequential" => FileServiceType::Sequential,
                "zipf" | "pareto" | "normal" | "gauss" => {
                    return Err(format!(
                        "option 'file_service_type={v}' is not supported yet: weighted file selection is not implemented in iomark yet"
                    ))
                }
                _ => return Err(invalid(def, v, &format!("expected {}", def.kind.form()))),
            };
            spec.file_service.kind = kind;
            spec.file_service.batch = match n {
                Some(n) if !n.is_empty() => nonzero(u32v(n)?)?,
                _ => 1,
            };
        }
        "create_on_open" => spec.create_on_open = boolv(v)?,
        "unlink" => spec.unlink = boolv(v)?,
        "overwrite" => spec.overwrite = boolv(v)?,
        "fill_device" => spec.fill_device = boolv(v)?,
        "allow_mounted_write" => spec.allow_mounted_write = boolv(v)?,
        "fallocate" => {
            spec.fallocate = match enum_value(def, v)?.as_str() {
                "none" | "0" => FallocateMode::None,
                "native" => FallocateMode::Native,
                "posix" | "1" => FallocateMode::Posix,
                "keep" => FallocateMode::Keep,
                _ => FallocateMode::Truncate,
            }
        }
        "runtime" => {
            let t = time(v, TimeUnit::S)?;
            spec.runtime = if t.is_zero() { None } else { Some(t) };
        }
        "time_based" => spec.time_based = flag(def, v)?,
        "ramp_time" => spec.ramp_time = time(v, TimeUnit::S)?,
        "startdelay" => spec.startdelay = values::parse_time_range(v, TimeUnit::S).map_err(inv)?,
        "loops" => spec.loops = nonzero(u32v(v)?)?,
        "numjobs" => spec.numjobs = nonzero(u32v(v)?)?,
        "thread" => {
            flag(def, v)?;
        }
        "ioengine" => {
            spec.ioengine = parse_engine(def, v)?;
            st.engine_set = true;
        }
        "iodepth" => spec.iodepth = nonzero(u32v(v)?)?,
        "iodepth_batch" => spec.iodepth_batch_submit = u32v(v)?,
        "iodepth_batch_complete_min" => spec.iodepth_batch_complete_min = u32v(v)?,
        "iodepth_batch_complete_max" => {
            spec.iodepth_batch_complete_max = u32v(v)?;
            st.batch_complete_max_set = true;
        }
        "iodepth_low" => {
            spec.iodepth_low = u32v(v)?;
            st.iodepth_low_set = true;
        }
        "hipri" => spec.engine_options.hipri = flag(def, v)?,
        "nowait" => spec.engine_options.nowait = flag(def, v)?,
        "fixedbufs" => spec.engine_options.fixedbufs = flag(def, v)?,
        "registerfiles" => spec.engine_options.registerfiles = flag(def, v)?,
        "sqthread_poll" => spec.engine_options.sqthread_poll = flag(def, v)?,
        "sqthread_poll_cpu" => spec.engine_options.sqthread_poll_cpu = Some(u32v(v)?),
        "nonvectored" => {
            spec.engine_options.nonvectored = match values::parse_int(v, kb).map_err(inv)? {
                0 => false,
                -1 | 1 => true,
                _ => return Err(invalid(def, v, "expected -1, 0 or 1")),
            }
        }
        "userspace_reap" => spec.engine_options.userspace_reap = flag(def, v)?,
        "direct" => spec.direct = boolv(v)?,
        "buffered" => spec.direct = !boolv(v)?,
        "sync" => {
            spec.sync = match enum_value(def, v)?.as_str() {
                "none" | "0" => SyncMode::None,
                "sync" | "1" => SyncMode::Sync,
                _ => SyncMode::Dsync,
            }
        }
        "fsync" => spec.fsync = uint(v)?,
        "fdatasync" => spec.fdatasync = uint(v)?,
        "end_fsync" => spec.end_fsync = boolv(v)?,
        "fsync_on_close" => spec.fsync_on_close = boolv(v)?,
        "invalidate" => spec.invalidate = boolv(v)?,
        "fadvise_hint" => {
            spec.fadvise_hint = match enum_value(def, v)?.as_str() {
                "0" => FadviseHint::Off,
                "1" => FadviseHint::Auto,
                "sequential" => FadviseHint::Sequential,
                "random" => FadviseHint::Random,
                _ => FadviseHint::NoReuse,
            }
        }
        "randrepeat" => spec.randrepeat = boolv(v)?,
        "randseed" => spec.randseed = uint(v)?,
        "norandommap" => spec.norandommap = flag(def, v)?,
        "zero_buffers" => spec.buffers.zero_buffers = flag(def, v)?,
        "refill_buffers" => spec.buffers.refill_buffers = flag(def, v)?,
        "scramble_buffers" => spec.buffers.scramble_buffers = boolv(v)?,
        "buffer_compress_percentage" => spec.buffers.compress_percentage = pct(v)?,
        "buffer_compress_chunk" => spec.buffers.compress_chunk = size(v)?,
        "buffer_pattern" => spec.buffers.pattern = Some(values::parse_pattern(v).map_err(inv)?),
        "dedupe_percentage" => spec.buffers.dedupe_percentage = pct(v)?,
        "rate" | "rate_min" => {
            let l = values::parse_per_dir(v, |s| values::parse_size(s, kb)).map_err(inv)?;
            let dst = if def.name == "rate" {
                &mut spec.rate.bps
            } else {
                &mut spec.rate.min_bps
            };
            set_per_dir(dst, l);
        }
        "rate_iops" | "rate_iops_min" => {
            let l = values::parse_per_dir(v, |s| values::parse_uint(s, kb)).map_err(inv)?;
            let dst = if def.name == "rate_iops" {
                &mut spec.rate.iops
            } else {
                &mut spec.rate.min_iops
            };
            set_per_dir(dst, l);
        }
        "rate_process" => {
            spec.rate.process = match enum_value(def, v)?.as_str() {
                "poisson" => RateProcess::Poisson,
                _ => RateProcess::Linear,
            }
        }
        "rate_cycle" => spec.rate.cycle = time(v, TimeUnit::Ms)?,
        "thinktime" => spec.thinktime = time(v, TimeUnit::Us)?,
        "thinktime_spin" => spec.thinktime_spin = time(v, TimeUnit::Us)?,
        "thinktime_blocks" => spec.thinktime_blocks = nonzero(u32v(v)?)?,
        "cpus_allowed" => spec.cpus_allowed = Some(values::parse_cpu_list(v).map_err(inv)?),
        "cpus_allowed_policy" => {
            spec.cpus_allowed_policy = match enum_value(def, v)?.as_str() {
                "split" => CpusAllowedPolicy::Split,
                _ => CpusAllowedPolicy::Shared,
            }
        }
        "stonewall" => spec.stonewall = flag(def, v)?,
        "new_group" => {
            flag(def, v)?;
        }
        "wait_for" => {
            spec.wait_for = if v.trim().is_empty() {
                None
            } else {
                Some(v.trim().to_string())
            }
        }
        "group_reporting" => spec.group_reporting = flag(def, v)?,
        "exitall" => spec.exitall = flag(def, v)?,
        "continue_on_error" => {
            spec.continue_on_error = match enum_value(def, v)?.as_str() {
                "none" | "0" => ContinueOnError::None,
                "read" => ContinueOnError::Read,
                "write" => ContinueOnError::Write,
                "io" => ContinueOnError::Io,
                "verify" => ContinueOnError::Verify,
                _ => ContinueOnError::All,
            }
        }
        "verify" => {
            let m = v.trim().to_ascii_lowercase();
            st.verify_method = match m.as_str() {
                "0" | "none" | "off" | "" => Some(String::new()),
                "crc32c" | "crc32c-intel" => Some("crc32c".into()),
                "pattern" | "pattern_hdr" => Some("pattern".into()),
                x if VERIFY_METHODS.contains(&x) => Some(x.to_string()),
                x if VERIFY_NOT_YET.contains(&x) => {
                    return Err(format!(
                        "option 'verify={}' is not supported yet: iomark implements verify={}",
                        v.trim(),
                        VERIFY_METHODS.join(", ")
                    ))
                }
                _ => {
                    return Err(invalid(
                        def,
                        v,
                        &format!("expected one of {}", VERIFY_METHODS.join(", ")),
                    ))
                }
            };
        }
        "do_verify" => st.verify.do_verify = boolv(v)?,
        "verify_only" => st.verify.only = flag(def, v)?,
        "verify_fatal" => st.verify.fatal = boolv(v)?,
        "verify_dump" => st.verify.dump = boolv(v)?,
        "verify_backlog" => st.verify.backlog = uint(v)?,
        "verify_interval" => {
            let n = size(v)?;
            if n == 0 {
                return Err(invalid(def, v, "the verify block size must be at least 1"));
            }
            st.verify.interval = n;
        }
        "verify_pattern" => {
            let p = values::parse_pattern(v).map_err(inv)?;
            st.verify.pattern = if p.is_empty() { None } else { Some(p) };
        }
        "clat_percentiles" => spec.stats.clat_percentiles = boolv(v)?,
        "lat_percentiles" => spec.stats.lat_percentiles = boolv(v)?,
        "slat_percentiles" => spec.stats.slat_percentiles = boolv(v)?,
        "percentile_list" => {
            spec.stats.percentile_list = values::parse_float_list(v, 20, true).map_err(inv)?
        }
        "disable_lat" => spec.stats.disable_lat = boolv(v)?,
        "disable_clat" => spec.stats.disable_clat = boolv(v)?,
        "disable_slat" => spec.stats.disable_slat = boolv(v)?,
        "disable_bw_measurement" => spec.stats.disable_bw = boolv(v)?,
        "gtod_reduce" => {
            let on = boolv(v)?;
            let s = &mut spec.stats;
            s.disable_lat = on;
            s.disable_clat = on;
            s.disable_slat = on;
            s.disable_bw = on;
            s.clat_percentiles = !on;
            if on {
                s.lat_percentiles = false;
                s.slat_percentiles = false;
            }
        }
        "bwavgtime" => spec.stats.bwavgtime = time(v, TimeUnit::Ms)?,
        "iopsavgtime" => spec.stats.iopsavgtime = time(v, TimeUnit::Ms)?,
        "write_bw_log" => spec.logs.bw_log = Some(v.trim().to_string()),
        "write_iops_log" => spec.logs.iops_log = Some(v.trim().to_string()),
        "write_lat_log" => spec.logs.lat_log = Some(v.trim().to_string()),
        "write_hist_log" => spec.logs.hist_log = Some(v.trim().to_string()),
        "log_avg_msec" => spec.logs.avg_msec = uint(v)?,
        "log_hist_msec" => spec.logs.hist_msec = uint(v)?,
        "log_max_value" => {
            spec.logs.max_value = match enum_value(def, v)?.as_str() {
                "0" | "avg" => 0,
                "1" | "max" => 1,
                _ => 2,
            }
        }
        "log_offset" => spec.logs.log_offset = boolv(v)?,
        "per_job_logs" => spec.logs.per_job_logs = boolv(v)?,
        "unified_rw_reporting" => {
            let e = enum_value(def, v)?;
            if e != "none" && e != "0" {
                return Err(format!(
                    "option 'unified_rw_reporting={v}' is not supported yet: only 'none' (separate directions) is implemented"
                ));
            }
        }
        "kb_base" => {}
        "unit_base" => {
            enum_value(def, v)?;
        }
        other => {
            return Err(format!(
                "option '{other}' is listed as supported but has no handler (internal error)"
            ))
        }
    }
    Ok(())
}

fn finish(
    spec: &mut JobSpec,
    st: &mut State,
    implicit_stonewall: bool,
    readonly: bool,
) -> Result<(), String> {
    for d in Dir::ALL {
        if let Some(split) = st.bssplit[d].take() {
            spec.bs[d] = BlockSize::Split(split);
        }
    }
    let name = spec.name.clone();
    for p in [
        &mut spec.logs.bw_log,
        &mut spec.logs.iops_log,
        &mut spec.logs.lat_log,
        &mut spec.logs.hist_log,
    ]
    .into_iter()
    .flatten()
    {
        if p.is_empty() {
            *p = name.clone();
        }
    }

    let depth = spec.iodepth;
    if spec.iodepth_batch_submit == 0 || spec.iodepth_batch_submit > depth {
        spec.iodepth_batch_submit = depth;
    }
    if !st.batch_complete_max_set {
        spec.iodepth_batch_complete_max = spec.iodepth_batch_complete_min;
    } else if spec.iodepth_batch_complete_max < spec.iodepth_batch_complete_min {
        return Err(format!(
            "iodepth_batch_complete_max ({}) is below iodepth_batch_complete_min ({})",
            spec.iodepth_batch_complete_max, spec.iodepth_batch_complete_min
        ));
    }
    if !st.iodepth_low_set || spec.iodepth_low == 0 || spec.iodepth_low > depth {
        spec.iodepth_low = depth;
    }
    if spec.buffers.compress_percentage > 0 || spec.buffers.dedupe_percentage > 0 {
        spec.buffers.refill_buffers = true;
    }
    spec.stonewall |= implicit_stonewall;
    spec.readonly = readonly;
    finish_verify(spec, st)?;

    let engine = spec.ioengine.fio_name();
    for d in &st.engine_opts {
        if !d.engines.contains(&engine) {
            return Err(format!(
                "option '{}' belongs to ioengine {}, but the job uses ioengine={engine}",
                d.name,
                d.engines.join(" or ")
            ));
        }
    }

    if let Some(SizeSpec::Bytes(size)) = spec.size {
        let bs = spec.min_bs();
        if bs > size {
            return Err(format!(
                "block size {bs} is larger than size={size}; the job could not do a single I/O"
            ));
        }
    }
    if spec.fill_device && (spec.rw.has_read() || spec.rw.has_trim()) {
        return Err(format!(
            "fill_device with rw={} is not supported yet: only write jobs can fill a device",
            spec.rw.fio_name()
        ));
    }
    if readonly && spec.writes() {
        return Err(format!(
            "--readonly was given but the job writes (rw={}, ioengine={engine})",
            spec.rw.fio_name()
        ));
    }
    Ok(())
}

/// A `filename_format` template: `$jobname`, `$jobnum` and `$filenum` are filled in per clone
/// and file; `$clientuid` is 0 (there are no clients).
pub fn name_template(s: &str) -> NameTemplate {
    const VARS: [(&str, Option<NamePart>); 4] = [
        ("$jobname", Some(NamePart::JobName)),
        ("$jobnum", Some(NamePart::Clone)),
        ("$filenum", Some(NamePart::File)),
        ("$clientuid", None),
    ];
    let mut parts = Vec::new();
    let mut text = String::new();
    let mut rest = s;
    'outer: while !rest.is_empty() {
        for (var, part) in &VARS {
            if let Some(after) = rest.strip_prefix(var) {
                match part {
                    Some(p) => {
                        if !text.is_empty() {
                            parts.push(NamePart::Text(std::mem::take(&mut text)));
                        }
                        parts.push(p.clone());
                    }
                    None => text.push('0'),
                }
                rest = after;
                continue 'outer;
            }
        }
        let c = rest.chars().next().expect("not empty");
        text.push(c);
        rest = &rest[c.len_utf8()..];
    }
    if !text.is_empty() {
        parts.push(NamePart::Text(text));
    }
    NameTemplate(parts)
}

/// The check for a fio `verify=` value. `crc32c-intel` is CRC32C; `pattern_hdr` is the pattern
/// check (whose blocks always carry a header). Other fio names (crc64, crc32, crc16, crc7, sha1,
/// sha512, sha3-*, meta) give `None`.
pub fn verify_kind(name: &str) -> Option<VerifyKind> {
    Some(match name.trim().to_ascii_lowercase().as_str() {
        "crc32c" | "crc32c-intel" => VerifyKind::Crc32c,
        "xxhash" => VerifyKind::Xxhash,
        "md5" => VerifyKind::Md5,
        "sha256" => VerifyKind::Sha256,
        "pattern" | "pattern_hdr" => VerifyKind::Pattern,
        "null" => VerifyKind::Null,
        _ => return None,
    })
}

/// Turn the verify options into `spec.verify`: on when `verify=` names a method (or, as fio does,
/// when only `verify_pattern` is given), off for `verify=0`.
fn finish_verify(spec: &mut JobSpec, st: &mut State) -> Result<(), String> {
    let method = match st.verify_method.take() {
        Some(m) => m,
        None if st.verify.pattern.is_some() => "pattern".to_string(),
        None => String::new(),
    };
    if method.is_empty() {
        if st.verify.only {
            return Err(
                "verify_only needs verify= naming the method the data was written with (e.g. verify=crc32c)"
                    .into(),
            );
        }
        spec.verify = None;
        return Ok(());
    }
    if !spec.rw.has_write() {
        return Err(format!(
            "verify={method} on a job that does not write (rw={}) would check nothing: iomark checks blocks it wrote; to check data left by an earlier run, give the writing job's options with verify_only=1",
            spec.rw.fio_name()
        ));
    }
    if spec.rw.has_trim() {
        return Err(format!(
            "option 'verify={method}' with rw={} is not supported yet: verification of trimmed blocks is not implemented in iomark yet",
            spec.rw.fio_name()
        ));
    }
    let min_bs = spec.min_bs();
    let iv = if st.verify.interval == 0 {
        min_bs
    } else {
        st.verify.interval
    };
    if min_bs % iv != 0 {
        return Err(format!(
            "verify_interval ({iv}) must divide the smallest block size ({min_bs})"
        ));
    }
    let kind = verify_kind(&method).ok_or_else(|| {
        format!("verify={method}: not supported (use crc32c, xxhash, md5, sha256, pattern or null)")
    })?;
    let hl = iomark_engine::verify::header_len(kind) as u64;
    if iv < hl {
        return Err(format!(
            "verify={method}: the verify block ({iv} bytes) is smaller than its header ({hl} bytes); raise bs or verify_interval"
        ));
    }
    let mut v = std::mem::take(&mut st.verify);
    v.method = kind;
    spec.verify = Some(v);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn opts(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn job(list: &[(&str, &str)]) -> Result<JobSpec, String> {
        let raw = RawJob {
            name: "j".into(),
            options: opts(list),
            ..Default::default()
        };
        build_job(&raw, false, &mut Vec::new())
    }

    #[test]
    fn defaults_and_basic_fields() {
        let j = job(&[
            ("rw", "randrw"),
            ("bs", "8k,64k"),
            ("iodepth", "16"),
            ("ioengine", "io_uring"),
            ("direct", "1"),
            ("runtime", "1m"),
            ("time_based", ""),
        ])
        .unwrap();
        assert_eq!(j.rw, RwMode::RandRw);
        assert_eq!(j.bs.read, BlockSize::Fixed(8192));
        assert_eq!(j.bs.write, BlockSize::Fixed(65536));
        assert_eq!(j.bs.trim, BlockSize::Fixed(65536));
        assert_eq!(j.iodepth, 16);
        assert_eq!(j.iodepth_low, 16);
        assert_eq!(j.iodepth_batch_submit, 1);
        assert_eq!(j.iodepth_batch_complete_max, 1);
        assert_eq!(j.ioengine, EngineKind::IoUring);
        assert!(j.direct);
        assert_eq!(j.runtime, Some(Duration::from_secs(60)));
        assert!(j.time_based);
        assert!(j.logs.per_job_logs);
        assert!(!job(&[("per_job_logs", "0")]).unwrap().logs.per_job_logs);
        assert_eq!(j.options[0], ("name".into(), "j".into()));
        assert_eq!(j.options[1], ("rw".into(), "randrw".into()));
    }

    #[test]
    fn rwmix_last_wins() {
        assert_eq!(job(&[("rwmixwrite", "67")]).unwrap().rwmixread, 33);
        assert_eq!(
            job(&[("rwmixwrite", "67"), ("rwmixread", "80")])
                .unwrap()
                .rwmixread,
            80
        );
        assert_eq!(
            job(&[("rwmixread", "80"), ("rwmixwrite", "10")])
                .unwrap()
                .rwmixread,
            90
        );
        assert!(job(&[("rwmixread", "101")])
            .unwrap_err()
            .contains("rwmixread"));
    }

    #[test]
    fn buffered_and_direct() {
        assert!(job(&[("buffered", "0")]).unwrap().direct);
        assert!(!job(&[("direct", "1"), ("buffered", "1")]).unwrap().direct);
    }

    #[test]
    fn gtod_reduce_turns_off_timing() {
        let j = job(&[("gtod_reduce", "1")]).unwrap();
        assert!(j.stats.disable_lat && j.stats.disable_clat && j.stats.disable_slat);
        assert!(!j.stats.clat_percentiles);
    }

    #[test]
    fn depth_defaults() {
        let j = job(&[("iodepth", "32"), ("iodepth_batch_submit", "0")]).unwrap();
        assert_eq!(j.iodepth_batch_submit, 32);
        let j = job(&[("iodepth", "32"), ("iodepth_batch_complete_min", "4")]).unwrap();
        assert_eq!(j.iodepth_batch_complete_max, 4);
        let j = job(&[("iodepth", "32"), ("iodepth_low", "8")]).unwrap();
        assert_eq!(j.iodepth_low, 8);
        assert!(job(&[
            ("iodepth_batch_complete_min", "8"),
            ("iodepth_batch_complete_max", "2")
        ])
        .is_err());
        let e = job(&[("iodepth", "0")]).unwrap_err();
        assert!(e.contains("job 'j'") && e.contains("iodepth"), "{e}");
    }

    #[test]
    fn validation_errors_name_the_job() {
        let e = job(&[("bs", "1m"), ("size", "4k")]).unwrap_err();
        assert!(
            e.starts_with("job 'j'") && e.contains("larger than size"),
            "{e}"
        );
        assert!(job(&[("numjobs", "0")]).unwrap_err().contains("numjobs"));
        assert!(job(&[("bssplit", "4k/10:8k/10")])
            .unwrap_err()
            .contains("100%"));
        let e = job(&[("bs", "4q")]).unwrap_err();
        assert!(
            e.contains("'4q'") && e.contains("'bs'") && e.contains("4k"),
            "{e}"
        );
    }

    #[test]
    fn file_name_templates() {
        assert_eq!(
            name_template("$jobname.$jobnum.$filenum"),
            NameTemplate::default()
        );
        let t = name_template("data-$filenum-$clientuid/$jobname$jobnum");
        assert_eq!(t.expand("j", 3, 7), "data-7-0/j3");
        assert_eq!(name_template("plain").expand("j", 0, 0), "plain");
    }

    #[test]
    fn verify_names() {
        for k in VerifyKind::ALL {
            assert_eq!(verify_kind(k.name()), Some(k));
        }
        assert_eq!(verify_kind("crc32c-intel"), Some(VerifyKind::Crc32c));
        assert_eq!(verify_kind("pattern_hdr"), Some(VerifyKind::Pattern));
        assert_eq!(verify_kind("MD5"), Some(VerifyKind::Md5));
        assert_eq!(verify_kind("crc64"), None);
        assert_eq!(verify_kind("1"), None);
    }

    #[test]
    fn verify_options_map_to_the_job_model() {
        let j = job(&[("rw", "randwrite"), ("verify", "crc32c-intel")]).unwrap();
        assert_eq!(j.verify, Some(VerifySpec::default()));
        for m in ["crc32c", "xxhash", "md5", "sha256", "pattern", "null"] {
            let j = job(&[("rw", "write"), ("verify", m)]).unwrap();
            assert_eq!(j.verify.unwrap().method.name(), m);
        }
        let j = job(&[
            ("rw", "randwrite"),
            ("bs", "8k"),
            ("verify_fatal", "1"),
            ("verify_dump", "1"),
            ("verify_backlog", "16"),
            ("verify_interval", "4k"),
            ("do_verify", "0"),
            ("verify", "md5"),
            ("verify_pattern", "0xdeadbeef"),
        ])
        .unwrap();
        let v = j.verify.unwrap();
        assert_eq!(
            (
                v.method.name(),
                v.fatal,
                v.dump,
                v.backlog,
                v.interval,
                v.do_verify
            ),
            ("md5", true, true, 16, 4096, false)
        );
        assert_eq!(v.pattern, Some(vec![0xde, 0xad, 0xbe, 0xef]));
        // verify_pattern alone turns on verify=pattern, as in fio.
        let j = job(&[("rw", "write"), ("verify_pattern", "0x55")]).unwrap();
        assert_eq!(j.verify.unwrap().method, VerifyKind::Pattern);
        // The last verify= wins; verify=0 turns it off.
        let j = job(&[("rw", "write"), ("verify", "md5"), ("verify", "0")]).unwrap();
        assert_eq!(j.verify, None);
        let j = job(&[("rw", "write"), ("verify", "md5"), ("verify_only", "")]).unwrap();
        assert!(j.verify.as_ref().unwrap().only);
        assert!(!j.writes());
        // Refusals.
        let e = job(&[("rw", "write"), ("verify", "bogus")]).unwrap_err();
        assert!(e.contains("'bogus'") && e.contains("crc32c"), "{e}");
        let e = job(&[("rw", "write"), ("verify_only", "1")]).unwrap_err();
        assert!(e.contains("verify_only needs verify="), "{e}");
        let e = job(&[("rw", "read"), ("verify", "md5")]).unwrap_err();
        assert!(e.contains("does not write"), "{e}");
        let e = job(&[
            ("rw", "write"),
            ("bs", "8k"),
            ("verify", "md5"),
            ("verify_interval", "3k"),
        ])
        .unwrap_err();
        assert!(e.contains("must divide"), "{e}");
        let e = job(&[("rw", "write"), ("bs", "32"), ("verify", "sha256")]).unwrap_err();
        assert!(e.contains("smaller than its header"), "{e}");
    }

    #[test]
    fn readonly_refuses_writers() {
        let raw = RawJob {
            name: "w".into(),
            options: opts(&[("rw", "write")]),
            ..Default::default()
        };
        let e = build_job(&raw, true, &mut Vec::new()).unwrap_err();
        assert!(e.contains("--readonly"), "{e}");
        let raw = RawJob {
            name: "r".into(),
            options: opts(&[("rw", "randread")]),
            ..Default::default()
        };
        assert!(build_job(&raw, true, &mut Vec::new()).unwrap().readonly);
    }

    #[test]
    fn engine_options_need_their_engine() {
        let e = job(&[("fixedbufs", ""), ("ioengine", "io_uring")]).unwrap_err();
        assert!(e.contains("must come after ioengine=io_uring"), "{e}");
        let e = job(&[("ioengine", "libaio"), ("fixedbufs", "")]).unwrap_err();
        assert!(e.contains("belongs to ioengine io_uring"), "{e}");
        let e = job(&[
            ("ioengine", "io_uring"),
            ("hipri", ""),
            ("ioengine", "libaio"),
        ])
        .unwrap_err();
        assert!(e.contains("hipri") && e.contains("libaio"), "{e}");
        let j = job(&[
            ("ioengine", "io_uring"),
            ("fixedbufs", ""),
            ("sqthread_poll_cpu", "1"),
        ])
        .unwrap();
        assert!(j.engine_options.fixedbufs);
        assert_eq!(j.engine_options.sqthread_poll_cpu, Some(1));
        assert!(
            job(&[("ioengine", "pvsync2"), ("nowait", "1")])
                .unwrap()
                .engine_options
                .nowait
        );
    }

    #[test]
    fn engines() {
        let e = job(&[("ioengine", "rbd")]).unwrap_err();
        assert!(e.contains("not supported by iomark yet"), "{e}");
        let e = job(&[("ioengine", "libaoi")]).unwrap_err();
        assert!(e.contains("did you mean 'libaio'"), "{e}");
    }

    #[test]
    fn not_yet_and_ignored() {
        assert!(job(&[("verify", "0")]).is_ok());
        assert!(job(&[("verify", "none")]).is_ok());
        let e = job(&[("rw", "write"), ("verify", "sha512")]).unwrap_err();
        assert!(e.contains("'verify=sha512' is not supported yet"), "{e}");
        assert!(
            e.contains("crc32c, xxhash, md5, sha256, pattern, null"),
            "{e}"
        );
        let e = job(&[("verify_offset", "8")]).unwrap_err();
        assert!(e.contains("not supported yet"), "{e}");
        let e = job(&[("unified_rw_reporting", "mixed")]).unwrap_err();
        assert!(e.contains("not supported yet"), "{e}");
        let mut w = Vec::new();
        let raw = RawJob {
            name: "x".into(),
            options: opts(&[("clocksource", "cpu")]),
            ..Default::default()
        };
        build_job(&raw, false, &mut w).unwrap();
        assert_eq!(w.len(), 1);
        assert!(w[0].contains("clocksource") && w[0].contains("ignored"));
    }

    #[test]
    fn value_suggestions() {
        let e = job(&[("rw", "randwrit")]).unwrap_err();
        assert!(e.contains("did you mean 'randwrite'"), "{e}");
        let e = job(&[("fadvise_hint", "sequentail")]).unwrap_err();
        assert!(e.contains("did you mean 'sequential'"), "{e}");
    }

    #[test]
    fn kb_base_applies_to_sizes() {
        let j = job(&[("size", "1m"), ("kb_base", "1000")]).unwrap();
        assert_eq!(j.size, Some(SizeSpec::Bytes(1_000_000)));
    }

    #[test]
    fn bssplit_bsrange_and_more() {
        let j = job(&[("bssplit", "4k/50:1k/:32k/"), ("bs", "8k")]).unwrap();
        assert_eq!(
            j.bs.read,
            BlockSize::Split(vec![(4096, 50), (1024, 25), (32768, 25)])
        );
        let j = job(&[("bsrange", "64k-4k")]).unwrap();
        assert_eq!(
            j.bs.write,
            BlockSize::Range {
                min: 4096,
                max: 65536
            }
        );
        let j = job(&[
            ("rw", "randread:8"),
            ("filename", r"a\:b:c"),
            ("size", "50%"),
        ])
        .unwrap();
        assert_eq!(j.rw_modifier.value, 8);
        assert_eq!(j.filenames, vec![PathBuf::from("a:b"), PathBuf::from("c")]);
        assert_eq!(j.size, Some(SizeSpec::Percent(50.0)));
        let j = job(&[
            ("thinktime", "50"),
            ("rate_iops", "100,200"),
            ("write_bw_log", ""),
        ])
        .unwrap();
        assert_eq!(j.thinktime, Duration::from_micros(50));
        assert_eq!(j.rate.iops.write, 200);
        assert_eq!(j.logs.bw_log.as_deref(), Some("j"));
        let j = job(&[
            ("file_service_type", "random:8"),
            ("buffer_compress_percentage", "50"),
        ])
        .unwrap();
        assert_eq!(j.file_service.batch, 8);
        assert!(j.buffers.refill_buffers);
    }

    #[test]
    fn groups_follow_stonewall_and_new_group() {
        let mk = |name: &str, o: &[(&str, &str)]| RawJob {
            name: name.into(),
            options: opts(o),
            ..Default::default()
        };
        let raw = RawPlan {
            jobs: vec![
                mk("a", &[("stonewall", "")]),
                mk("b", &[]),
                mk("c", &[("new_group", "")]),
                mk("d", &[("wait_for_previous", "")]),
                mk("e", &[("wait_for", "a")]),
            ],
            ..Default::default()
        };
        let b = build_plan(&raw).unwrap();
        let g: Vec<u32> = b.plan.jobs.iter().map(|j| j.group_id).collect();
        assert_eq!(g, vec![0, 0, 1, 2, 2]);
        assert!(b.plan.jobs[3].stonewall);
        let raw = RawPlan {
            jobs: vec![mk("a", &[("wait_for", "b")]), mk("b", &[])],
            ..Default::default()
        };
        assert!(build_plan(&raw).unwrap_err().contains("earlier job"));
    }

    #[test]
    fn every_supported_option_has_a_handler() {
        for d in options::OPTIONS.iter().filter(|d| d.is_supported()) {
            let v = match d.kind {
                OptKind::Enum(v) => v[0],
                OptKind::Rw => "read",
                OptKind::Engine => "psync",
                OptKind::ServiceType => "random",
                OptKind::Distribution => "random",
                OptKind::Pattern => "0x01",
                OptKind::CpuList => "0",
                OptKind::FloatList => "50",
                OptKind::BsSplit => "4k/100",
                OptKind::PathList | OptKind::Str => "x",
                OptKind::LogPrefix => "",
                OptKind::Size | OptKind::SizePct | OptKind::SizeRange => "1m",
                _ => "1",
            };
            let mut list = vec![];
            if !d.engines.is_empty() {
                list.push(("ioengine", d.engines[0]));
            }
            list.push((d.name, v));
            if d.name == "wait_for" {
                continue;
            }
            if d.name.starts_with("verify") || d.name == "fill_device" {
                list.insert(0, ("rw", "write"));
            }
            let v = if d.name == "verify" { "md5" } else { v };
            if d.name == "verify_only" {
                list.insert(0, ("verify", "md5"));
            }
            let list: Vec<(&str, &str)> = list
                .into_iter()
                .map(|(k, x)| (k, if k == d.name { v } else { x }))
                .collect();
            let r = job(&list);
            assert!(
                r.as_ref()
                    .map(|_| true)
                    .unwrap_or_else(|e| !e.contains("no handler")),
                "{}: {:?}",
                d.name,
                r.err()
            );
            assert!(r.is_ok(), "{}={v}: {:?}", d.name, r.err());
        }
    }
}
