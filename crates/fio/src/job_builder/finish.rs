//! What a job's options settle together, once all of them are in: `bssplit` over `bs`, log
//! prefixes, queue-depth defaults, verification, and the checks that involve several options.

use super::BuildError;
use crate::options::Pending;
use iomark_engine::job::{BlockSize, DedupeMode, Dir, EngineKind, JobSpec, SizeSpec, SubmitMode};

/// Settle what depends on several options, and check the job as a whole.
pub(super) fn finish(
    spec: &mut JobSpec,
    st: &mut Pending,
    implicit_stonewall: bool,
    readonly: bool,
) -> Result<(), BuildError> {
    for d in Dir::ALL {
        if let Some(split) = st.bssplit[d].take() {
            spec.bs[d] = BlockSize::Split(split);
        }
    }
    super::replay::finish_replay(spec, st)?;
    finish_steady(spec, st)?;
    super::zones::finish_zones(spec, &st.zones)?;
    finish_compressed_logs(spec, st)?;
    if spec.engine_options.prio_mix.is_ambiguous() {
        return Err(BuildError::CmdprioBoth);
    }
    default_log_prefixes(spec);
    finish_depths(spec, st)?;
    finish_dedupe(spec)?;
    if spec.buffers.compress_percentage > 0 || spec.buffers.dedupe_percentage > 0 {
        spec.buffers.refill_buffers = true;
    }
    finish_seeds(spec, st);
    spec.stonewall |= implicit_stonewall;
    spec.readonly = readonly;
    finish_verify(spec, st)?;
    check_engine_options(spec, st)?;
    super::net::finish_net(spec)?;
    check_whole_job(spec, readonly)
}

/// `log_store_compressed`: no histogram log, and the chunk the logs are compressed by.
fn finish_compressed_logs(spec: &mut JobSpec, st: &Pending) -> Result<(), BuildError> {
    if st.log_store_compressed {
        if spec.logs.hist_log.is_some() {
            return Err(BuildError::CompressedHistLog);
        }
        // fio's chunk when only log_store_compressed is given: its log buffer.
        spec.logs.compressed_chunk = Some(match st.log_compression {
            0 => 1 << 20,
            n => n,
        });
    }
    Ok(())
}

/// A log asked for without a prefix is named after the job.
fn default_log_prefixes(spec: &mut JobSpec) {
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
}

/// The batch and low-water queue depths, defaulted and bounded by `iodepth`.
fn finish_depths(spec: &mut JobSpec, st: &Pending) -> Result<(), BuildError> {
    let depth = spec.iodepth;
    if spec.iodepth_batch_submit == 0 || spec.iodepth_batch_submit > depth {
        spec.iodepth_batch_submit = depth;
    }
    if !st.batch_complete_max_set {
        spec.iodepth_batch_complete_max = spec.iodepth_batch_complete_min;
    } else if spec.iodepth_batch_complete_max < spec.iodepth_batch_complete_min {
        return Err(BuildError::BatchCompleteMax {
            max: spec.iodepth_batch_complete_max,
            min: spec.iodepth_batch_complete_min,
        });
    }
    if !st.iodepth_low_set || spec.iodepth_low == 0 || spec.iodepth_low > depth {
        spec.iodepth_low = depth;
    }
    Ok(())
}

/// Settle `randrepeat` and draw the seed of streams that are not repeatable.
fn finish_seeds(spec: &mut JobSpec, st: &Pending) {
    // As fio: a given randseed overrides randrepeat (no new seeding at each loop).
    if st.randseed_set {
        spec.randrepeat = false;
    }
    // Streams that are not repeatable derive from a seed drawn now, so `--debug=random`
    // prints the seeds the run uses.
    if !spec.repeatable_seeds() {
        spec.randseed = crate::debug_random::fresh_randseed();
        spec.seeds_from_randseed = true;
    }
}

/// Every engine option given belongs to the job's final `ioengine`.
fn check_engine_options(spec: &JobSpec, st: &Pending) -> Result<(), BuildError> {
    let engine = spec.ioengine.name();
    if spec.ioengine == EngineKind::Cpuio && spec.engine_options.cpu.load == 0 {
        return Err(BuildError::EngineNeeds {
            engine,
            option: "cpuload",
            why: "the share of a CPU each job burns, 1 to 100",
        });
    }
    if spec.ioengine == EngineKind::Exec && spec.engine_options.exec.program.is_none() {
        return Err(BuildError::EngineNeeds {
            engine,
            option: "program",
            why: "the program to run for the job's time",
        });
    }
    if spec.ioengine == EngineKind::Nbd && spec.engine_options.nbd_uri.is_none() {
        return Err(BuildError::EngineNeeds {
            engine,
            option: "uri",
            why: "the NBD export, e.g. nbd+unix:///?socket=/run/nbd.sock or nbd://host/export",
        });
    }
    if spec.ioengine == EngineKind::E4defrag {
        let d = &spec.engine_options.defrag;
        if d.name.as_deref().is_none_or(str::is_empty) {
            return Err(BuildError::EngineNeeds {
                engine,
                option: "donorname",
                why: "the donor file the blocks are moved to",
            });
        }
        if !d.inplace && spec.filesize.is_none() {
            return Err(BuildError::EngineNeeds {
                engine,
                option: "filesize",
                why: "the donor is allocated from offset= to filesize= when the job starts (or give inplace=1)",
            });
        }
    }
    for d in &st.engine_opts {
        if !d.engines.contains(&engine) {
            return Err(BuildError::EngineChanged {
                option: d.name,
                owners: d.engines,
                engine,
            });
        }
    }
    Ok(())
}

/// The checks across options of the finished job: submit mode, sizes, fill and readonly.
fn check_whole_job(spec: &JobSpec, readonly: bool) -> Result<(), BuildError> {
    let engine = spec.ioengine.name();
    // As fio 3.33, which marks io_uring as unusable from submit threads.
    if spec.submit_mode == SubmitMode::Offload && spec.ioengine == EngineKind::IoUring {
        return Err(BuildError::OffloadEngine { engine });
    }
    if spec.submit_mode == SubmitMode::Offload
        && spec.open_files > 0
        && spec.open_files < file_count(spec)
    {
        return Err(BuildError::OpenFilesOffload {
            open: spec.open_files,
        });
    }
    if let Some(SizeSpec::Bytes(size)) = spec.size {
        let bs = spec.min_bs();
        if bs > size {
            return Err(BuildError::BlockOverSize { bs, size });
        }
    }
    if spec.fill_device && (spec.rw.has_read() || spec.rw.has_trim()) {
        return Err(BuildError::FillDeviceReads {
            rw: spec.rw.fio_name(),
        });
    }
    if readonly && spec.unlink {
        return Err(BuildError::ReadonlyUnlink);
    }
    if readonly && spec.writes() {
        return Err(BuildError::ReadonlyWrites {
            rw: spec.rw.fio_name(),
            engine,
        });
    }
    Ok(())
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The job's number of files: named files count as given (fio takes them over nrfiles).
fn file_count(spec: &JobSpec) -> u32 {
    match spec.filenames.len() {
        0 => spec.nrfiles,
        n => n as u32,
    }
}

/// fio's checks of a dedupe working set: an explicit size, one file, and room to repeat.
fn finish_dedupe(spec: &JobSpec) -> Result<(), BuildError> {
    let b = &spec.buffers;
    if b.dedupe_percentage == 0 || b.dedupe_mode != DedupeMode::WorkingSet {
        return Ok(());
    }
    if spec.size.is_none() {
        return Err(BuildError::DedupeWorkingSetSize);
    }
    let files = file_count(spec);
    if files != 1 {
        return Err(BuildError::DedupeWorkingSetFiles { files });
    }
    if b.dedupe_percentage + b.dedupe_working_set_percentage > 100 {
        return Err(BuildError::DedupeWorkingSetTooLarge {
            dedupe: b.dedupe_percentage,
            ws: b.dedupe_working_set_percentage,
        });
    }
    Ok(())
}

/// Turn the verify options into `spec.verify`: on when `verify=` names a method (or, as fio does,
/// when only `verify_pattern` is given), off for `verify=0`.
fn finish_verify(spec: &mut JobSpec, st: &mut Pending) -> Result<(), BuildError> {
    let method = match st.verify_method.take() {
        Some(m) => m,
        None if st.verify.pattern.is_some() => "pattern".to_string(),
        None => String::new(),
    };
    if method.is_empty() {
        if st.verify.only {
            return Err(BuildError::VerifyOnlyWithoutMethod);
        }
        spec.verify = None;
        return Ok(());
    }
    if spec.rw.has_trim() {
        return Err(BuildError::VerifyTrim {
            method,
            rw: spec.rw.fio_name(),
        });
    }
    // fio's rules: the verify block is at most the smallest block size and divides the
    // smallest and largest ones (else their greatest common divisor).
    let dir = if spec.rw.has_write() {
        Dir::Write
    } else {
        Dir::Read
    };
    let (min_bs, max_bs) = (spec.bs[dir].min(), spec.bs[dir].max());
    let mut iv = match st.verify.interval {
        0 => min_bs,
        i => i.min(min_bs),
    };
    if iv == 0 || min_bs % iv != 0 || max_bs % iv != 0 {
        iv = gcd(min_bs, max_bs);
    }
    // Unset and equal to the smallest block size stays unset (0) in the model.
    if st.verify.interval != 0 || iv != min_bs {
        st.verify.interval = iv;
    }
    let kind =
        super::verify_kind(&method).ok_or_else(|| BuildError::VerifyMethod(method.clone()))?;
    let hl = iomark_engine::verify::header_len(kind) as u64;
    if iv < hl {
        return Err(BuildError::VerifyBlockUnderHeader {
            method,
            block: iv,
            header: hl,
        });
    }
    let mut v = std::mem::take(&mut st.verify);
    v.method = kind;
    v.keep_progress = !st.verify_state_no_save && spec.rw.has_write();
    if st.verify_state_load {
        v.written_before = Some(Vec::new());
    }
    spec.verify = Some(v);
    Ok(())
}

/// `steadystate_duration` above 0 turns detection on, with `steadystate` (default
/// `iops_slope:0.01%`) as the criterion.
fn finish_steady(spec: &mut JobSpec, st: &Pending) -> Result<(), BuildError> {
    let secs = st.steady_dur.as_secs();
    if secs == 0 {
        return Ok(());
    }
    let (metric, slope, percent, limit) =
        st.steady_crit
            .unwrap_or((iomark_engine::steady::SteadyMetric::Iops, true, true, 0.01));
    spec.steady = Some(iomark_engine::steady::SteadySpec {
        metric,
        slope,
        percent,
        limit,
        duration_s: secs.min(u32::MAX as u64) as u32,
        ramp: st.steady_ramp,
    });
    Ok(())
}
