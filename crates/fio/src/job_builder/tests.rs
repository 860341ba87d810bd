use super::*;
use crate::options::{self, OptKind};
use iomark_engine::job::{BlockSize, EngineKind, JobSpec, RwMode, SizeSpec, VerifySpec};
use std::path::PathBuf;
use std::time::Duration;

fn opts(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn job(list: &[(&str, &str)]) -> Result<JobSpec, JobError> {
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
    assert_eq!(j.shown_options[0], ("name".into(), "j".into()));
    assert_eq!(j.shown_options[1], ("rw".into(), "randrw".into()));
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
        .to_string()
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
    let e = job(&[("iodepth", "0")]).unwrap_err().to_string();
    assert!(e.contains("job 'j'") && e.contains("iodepth"), "{e}");
}

#[test]
fn validation_errors_name_the_job() {
    let e = job(&[("bs", "1m"), ("size", "4k")]).unwrap_err();
    assert_eq!(
        (e.option, &*e.cause),
        (
            None,
            &BuildError::BlockOverSize {
                bs: 1 << 20,
                size: 4096
            }
        )
    );
    let e = e.to_string();
    assert!(
        e.starts_with("job 'j'") && e.contains("larger than size"),
        "{e}"
    );
    assert!(job(&[("numjobs", "0")])
        .unwrap_err()
        .to_string()
        .contains("numjobs"));
    assert!(job(&[("bssplit", "4k/10:8k/10")])
        .unwrap_err()
        .to_string()
        .contains("100%"));
    let e = job(&[("bs", "4q")]).unwrap_err().to_string();
    assert!(
        e.contains("'4q'") && e.contains("'bs'") && e.contains("4k"),
        "{e}"
    );
}

#[test]
fn verify_options_map_to_the_job_model() {
    let j = job(&[("rw", "randwrite"), ("verify", "crc32c-intel")]).unwrap();
    let keep = VerifySpec {
        keep_progress: true,
        ..Default::default()
    };
    assert_eq!(j.verify, Some(keep));
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
    assert_eq!(
        j.verify.unwrap().method,
        iomark_engine::verify::VerifyKind::Pattern
    );
    // The last verify= wins; verify=0 turns it off.
    let j = job(&[("rw", "write"), ("verify", "md5"), ("verify", "0")]).unwrap();
    assert_eq!(j.verify, None);
    let j = job(&[("rw", "write"), ("verify", "md5"), ("verify_only", "")]).unwrap();
    assert!(j.verify.as_ref().unwrap().only);
    assert!(!j.writes());
    // Refusals.
    let e = job(&[("rw", "write"), ("verify", "bogus")])
        .unwrap_err()
        .to_string();
    assert!(e.contains("'bogus'") && e.contains("crc32c"), "{e}");
    let e = job(&[("rw", "write"), ("verify_only", "1")])
        .unwrap_err()
        .to_string();
    assert!(e.contains("verify_only needs verify="), "{e}");
    // A read job checks what an earlier run wrote (fio's read-side verification).
    let j = job(&[("rw", "read"), ("verify", "md5")]).unwrap();
    assert!(j.verify.is_some());
    // verify_interval as fio fixes it: at most the block size, dividing it.
    let iv = |list: &[(&str, &str)]| job(list).unwrap().verify.unwrap().interval;
    let w = [("rw", "write"), ("bs", "8k"), ("verify", "md5")];
    assert_eq!(iv(&[&w[..], &[("verify_interval", "3k")]].concat()), 8192);
    assert_eq!(iv(&[&w[..], &[("verify_interval", "64k")]].concat()), 8192);
    assert_eq!(iv(&[&w[..], &[("verify_interval", "2k")]].concat()), 2048);
    let r = [("rw", "write"), ("bsrange", "8k-12k"), ("verify", "md5")];
    assert_eq!(iv(&r), 4096);
    let e = job(&[("rw", "write"), ("bs", "32"), ("verify", "sha256")])
        .unwrap_err()
        .to_string();
    assert!(e.contains("smaller than its header"), "{e}");
}

#[test]
fn readonly_refuses_writers() {
    let raw = RawJob {
        name: "w".into(),
        options: opts(&[("rw", "write")]),
        ..Default::default()
    };
    let e = build_job(&raw, true, &mut Vec::new())
        .unwrap_err()
        .to_string();
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
    let e = job(&[("fixedbufs", ""), ("ioengine", "io_uring")])
        .unwrap_err()
        .to_string();
    assert!(e.contains("must come after ioengine=io_uring"), "{e}");
    let e = job(&[("ioengine", "libaio"), ("fixedbufs", "")])
        .unwrap_err()
        .to_string();
    assert!(e.contains("belongs to ioengine io_uring"), "{e}");
    let e = job(&[
        ("ioengine", "io_uring"),
        ("hipri", ""),
        ("ioengine", "libaio"),
    ])
    .unwrap_err()
    .to_string();
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

/// The owners of an engine option come from the engines' declarations: every option an
/// engine declares has exactly one row, and that row names exactly the engines that read it.
#[test]
fn engine_option_rows_come_from_the_engine_declarations() {
    use iomark_engine::engines::{reader_list, EngineOption};
    for opt in EngineOption::ALL {
        let rows: Vec<&options::OptDef> = options::OPTIONS
            .iter()
            .filter(|d| d.engine_option == Some(opt))
            .collect();
        assert_eq!(rows.len(), 1, "{opt:?}: {} rows", rows.len());
        assert_eq!(rows[0].engines, reader_list(opt), "{opt:?}");
        assert!(rows[0].is_supported(), "{opt:?}");
        // An engine that accepts the option without effect does not also own it.
        for e in rows[0].inert_with {
            assert!(!rows[0].engines.contains(e), "{opt:?}: {e}");
        }
    }
    // A supported engine option without a declaration would be set and never read.
    for d in options::OPTIONS.iter().filter(|d| d.is_engine_option()) {
        assert_eq!(
            d.is_supported(),
            d.engine_option.is_some(),
            "{}: supported engine options are declared by an engine",
            d.name
        );
    }
}

/// fio takes `nowait` with io_uring and libaio too; iomark's engines there do not apply it: the
/// job runs, with a warning, and the model does not claim RWF_NOWAIT.
#[test]
fn nowait_with_an_engine_that_does_not_apply_it_warns() {
    for engine in ["io_uring", "libaio"] {
        let raw = RawJob {
            name: "j".into(),
            options: opts(&[("ioengine", engine), ("nowait", "1")]),
            ..Default::default()
        };
        let mut w = Vec::new();
        let j = build_job(&raw, false, &mut w).unwrap();
        assert!(!j.engine_options.nowait, "{engine}");
        assert_eq!(
            w,
            [format!(
                "nowait=1 has no effect with ioengine={engine} in iomark (only pvsync2 applies it); ignored"
            )]
        );
        // Its default value says nothing.
        let raw = RawJob {
            options: opts(&[("ioengine", engine), ("nowait", "0")]),
            ..raw
        };
        let mut w = Vec::new();
        build_job(&raw, false, &mut w).unwrap();
        assert!(w.is_empty(), "{w:?}");
    }
    let e = job(&[("ioengine", "psync"), ("nowait", "1")])
        .unwrap_err()
        .to_string();
    assert!(e.contains("belongs to ioengine pvsync2"), "{e}");
}

#[test]
fn engines() {
    let e = job(&[("ioengine", "rdma")]).unwrap_err().to_string();
    assert!(e.contains("not supported by iomark yet"), "{e}");
    let e = job(&[("ioengine", "libaoi")]).unwrap_err().to_string();
    assert!(e.contains("did you mean 'libaio'"), "{e}");
}

#[test]
fn net_jobs_settle_and_check_as_fio() {
    use iomark_engine::job::NetProtocol;
    let j = job(&[
        ("ioengine", "net"),
        ("filename", "/tmp/s"),
        ("protocol", "unix"),
    ])
    .unwrap();
    assert_eq!(j.engine_options.net.host.as_deref(), Some("/tmp/s"));
    assert_eq!(j.engine_options.net.protocol, NetProtocol::Unix);
    assert!(j.filenames.is_empty());
    let j = job(&[("ioengine", "netsplice"), ("port", "8888"), ("listen", "")]).unwrap();
    assert!(j.engine_options.net.listen);
    for (extra, want) in [
        (
            &[("rw", "randread"), ("port", "1"), ("listen", "")][..],
            "cannot be random",
        ),
        (&[("protocol", "udp")][..], "needs port="),
        (
            &[("port", "1"), ("proto", "udp"), ("listen", "")][..],
            "listen is only valid",
        ),
        (&[("rw", "write"), ("port", "1")][..], "needs hostname="),
        (
            &[("protocol", "unix"), ("port", "1")][..],
            "port= is not valid",
        ),
        (
            &[("protocol", "unix"), ("rw", "rw"), ("hostname", "p")][..],
            "read or write",
        ),
        (
            &[("port", "65535"), ("listen", ""), ("numjobs", "2")][..],
            "65535",
        ),
        (
            &[("protocol", "unix"), ("hostname", "p"), ("numjobs", "2")][..],
            "socket path",
        ),
    ] {
        let mut list = vec![("ioengine", "net")];
        list.extend_from_slice(extra);
        let e = job(&list).unwrap_err().to_string();
        assert!(e.contains(want), "{extra:?}: {e}");
    }
    assert!(job(&[("ioengine", "net"), ("port", "0")]).is_err());
    assert!(job(&[("ioengine", "net"), ("port", "65536")]).is_err());
}

#[test]
fn not_yet_and_ignored() {
    assert!(job(&[("verify", "0")]).is_ok());
    assert!(job(&[("verify", "none")]).is_ok());
    let e = job(&[("rw", "write"), ("verify", "sha512")])
        .unwrap_err()
        .to_string();
    assert!(e.contains("'verify=sha512' is not supported yet"), "{e}");
    assert!(
        e.contains("crc32c, xxhash, md5, sha256, pattern, null, meta"),
        "{e}"
    );
    let e = job(&[("verify_backlog_batch", "1")])
        .unwrap_err()
        .to_string();
    assert!(e.contains("not supported yet"), "{e}");
    // A writing job keeps its progress for the state file unless told not to; a reading job
    // with verify_state_load asks for the records.
    let v = job(&[("rw", "write"), ("verify", "crc32c")])
        .unwrap()
        .verify
        .unwrap();
    assert!(v.keep_progress && v.written_before.is_none());
    let v = job(&[
        ("rw", "write"),
        ("verify", "crc32c"),
        ("verify_state_save", "0"),
    ]);
    assert!(!v.unwrap().verify.unwrap().keep_progress);
    let v = job(&[
        ("rw", "read"),
        ("verify", "crc32c"),
        ("verify_state_load", "1"),
    ]);
    let v = v.unwrap().verify.unwrap();
    assert!(!v.keep_progress && v.written_before == Some(Vec::new()));
    let e = job(&[("verify_state_load", "maybe")])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("verify_state_load") && e.contains("maybe"),
        "{e}"
    );
    let j = job(&[("rw", "write"), ("verify", "meta"), ("verify_offset", "1k")]).unwrap();
    let v = j.verify.unwrap();
    assert_eq!(v.method, iomark_engine::verify::VerifyKind::Meta);
    assert_eq!(v.header_offset, 1024);
    let j = job(&[("rw", "read:-8k")]).unwrap();
    assert_eq!(j.rw_modifier.value, -8192);
    let j = job(&[("rw", "randread:8k"), ("rw_sequencer", "identical")]).unwrap();
    assert_eq!(j.rw_modifier.value, 8);
    assert_eq!(
        j.rw_modifier.sequencer,
        iomark_engine::job::RwSequencer::Identical
    );
    let e = job(&[("rw", "randread:0")]).unwrap_err().to_string();
    assert!(e.contains("not supported yet"), "{e}");
    let j = job(&[("unified_rw_reporting", "mixed")]).unwrap();
    assert_eq!(j.stats.unified_rw, iomark_engine::job::UnifiedRw::Mixed);
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
    let e = job(&[("rw", "randwrit")]).unwrap_err().to_string();
    assert!(e.contains("did you mean 'randwrite'"), "{e}");
    let e = job(&[("fadvise_hint", "sequentail")])
        .unwrap_err()
        .to_string();
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
    let e = build_plan(&raw).unwrap_err();
    assert_eq!(
        e,
        PlanError::Job {
            index: 0,
            error: JobError {
                job: "a".into(),
                option: Some(0),
                cause: Box::new(BuildError::WaitFor("b".into())),
            }
        }
    );
    assert_eq!(
        e.to_string(),
        "job 'a': wait_for='b' does not name an earlier job"
    );
}

#[test]
fn an_nbd_job_needs_an_nbd_uri() {
    let e = job(&[("ioengine", "nbd"), ("rw", "read")]).unwrap_err();
    assert!(e.to_string().contains("ioengine=nbd needs uri="), "{e}");
    let e = job(&[("ioengine", "nbd"), ("uri", "/tmp/sock")]).unwrap_err();
    assert!(e.to_string().contains("expected an NBD URI"), "{e}");
    for uri in ["nbd://h:10809/e", "nbd+unix:///?socket=/s", "nbds://h/e"] {
        let j = job(&[("ioengine", "nbd"), ("uri", uri)]).unwrap();
        assert_eq!(j.engine_options.nbd_uri.as_deref(), Some(uri));
    }
}

/// The options an engine cannot run without (cpuio burns a share of a CPU, exec runs a
/// program, e4defrag moves blocks to a donor allocated to the file size), with a value each.
fn engine_needs(engine: &str) -> Vec<(&'static str, &'static str)> {
    match engine {
        "cpuio" => vec![("cpuload", "50")],
        "exec" => vec![("program", "true")],
        "e4defrag" => vec![("donorname", "d"), ("filesize", "1m")],
        "net" | "netsplice" => vec![("port", "8888"), ("hostname", "localhost")],
        "nbd" => vec![("uri", "nbd://localhost/")],
        _ => vec![],
    }
}

#[test]
fn every_supported_option_has_a_handler() {
    for d in options::OPTIONS.iter().filter(|d| d.is_supported()) {
        let v = match d.kind {
            OptKind::Enum(v) => v.words()[0],
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
            list.extend(engine_needs(d.engines[0]));
        }
        list.push((d.name, v));
        if d.name == "wait_for" {
            continue;
        }
        if d.name.starts_with("verify") || d.name == "fill_device" {
            list.insert(0, ("rw", "write"));
        }
        let v = match d.name {
            "verify" => "md5",
            "replay_skip" => "read",
            "steadystate" => "iops:1%",
            "numa_cpu_nodes" => "0",
            "ignore_error" => "EIO",
            "numa_mem_policy" => "local",
            "cmdprio_bssplit" => "4k/10",
            "uri" => "nbd+unix:///?socket=/run/nbd.sock",
            _ => v,
        };
        if d.name == "verify_only" {
            list.insert(0, ("verify", "md5"));
        }
        if d.name == "zonesize" {
            list.insert(0, ("zonemode", "strided"));
        }
        let list: Vec<(&str, &str)> = list
            .into_iter()
            .map(|(k, x)| (k, if k == d.name { v } else { x }))
            .collect();
        let r = job(&list);
        if d.name == "read_iolog" {
            // Handled: the log named is read (and is not there).
            let e = r.unwrap_err().to_string();
            assert!(e.contains("cannot read the I/O log x"), "{e}");
            continue;
        }
        assert!(
            r.as_ref()
                .map(|_| true)
                .unwrap_or_else(|e| !e.to_string().contains("no handler")),
            "{}: {:?}",
            d.name,
            r.err()
        );
        assert!(r.is_ok(), "{}={v}: {:?}", d.name, r.err());
    }
}

/// The option table's defaults and the job model's (`JobSpec::default()`, where every job
/// starts) cannot drift: giving any option its default value changes nothing.
#[test]
fn table_defaults_match_the_job_model() {
    let base = |extra: &[(&str, &str)]| {
        let mut j = job(extra).unwrap();
        j.shown_options = Default::default();
        j
    };
    for d in options::OPTIONS.iter().filter(|d| d.is_supported()) {
        if d.default.is_empty() {
            continue;
        }
        let mut pre: Vec<(&str, &str)> = Vec::new();
        if let Some(e) = d.engines.first() {
            pre.push(("ioengine", e));
            pre.extend(engine_needs(e));
        }
        let mut before = base(&pre);
        pre.push((d.name, d.default));
        if d.name == "randseed" {
            // As in fio, a given randseed counts although it is the default: it makes the
            // streams repeatable even with randrepeat=0, and turns off their new seeding
            // at each loop (randrepeat).
            let given = base(&pre);
            assert!(!before.seeds_from_randseed && given.seeds_from_randseed);
            assert!(before.randrepeat && !given.randrepeat);
            before.seeds_from_randseed = true;
            before.randrepeat = false;
        }
        assert_eq!(
            base(&pre),
            before,
            "{}={} is not the model's default",
            d.name,
            d.default
        );
    }
    // The one default the job builder sets over `JobSpec::default()`.
    assert!(!JobSpec::default().logs.per_job_logs);
}

#[test]
fn every_supported_option_has_a_setter() {
    for d in options::OPTIONS.iter().filter(|d| d.is_supported()) {
        assert!(
            !matches!(d.set, options::Setter::Check),
            "{} is supported but its row has no setter",
            d.name
        );
    }
}
