//! rbd-bench's plans are built from typed values; each is the job fio's options for the same
//! workload would give (the fio front end reads the options here only as the reference).

use super::args::RbdOpts;
use super::image::CephImage;
use super::image_plan;
use iomark_engine::job::JobSpec;
use iomark_fio::job_builder::{build_plan, RawJob, RawPlan};

/// The job fio's front end builds from `opts` (its display-only record of the text cleared).
fn from_fio(opts: &[(&str, String)]) -> JobSpec {
    let raw = RawPlan {
        jobs: vec![RawJob {
            name: "rbd-bench".into(),
            options: opts
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
            ..Default::default()
        }],
        ..Default::default()
    };
    let mut plan = build_plan(&raw).unwrap().plan;
    assert_eq!(plan.jobs.len(), 1);
    let mut j = plan.jobs.remove(0);
    j.shown_options = Default::default();
    j
}

fn opts(pattern: &str, io_type: &str, threads: u32, total: u64, byte: Option<u8>) -> RbdOpts {
    RbdOpts {
        io_type: io_type.into(),
        pattern: pattern.into(),
        io_threads: threads,
        io_total: total,
        io_size: 8192,
        rw_mix_read: 70,
        pattern_byte: byte,
        ..Default::default()
    }
}

/// The options of every rbd-bench job, as fio words them.
fn shared(o: &RbdOpts, rw: &str) -> Vec<(&'static str, String)> {
    let mut v = vec![
        ("rw", rw.to_string()),
        ("bs", o.io_size.to_string()),
        ("rwmixread", o.rw_mix_read.to_string()),
        ("bwavgtime", "100".into()),
        ("iopsavgtime", "100".into()),
        ("norandommap", "1".into()),
    ];
    if let Some(b) = o.pattern_byte {
        v.push(("buffer_pattern", format!("0x{b:02x}")));
    }
    v
}

#[test]
fn a_file_or_device_plan_is_fios_job_for_the_same_workload() {
    let size = 64 << 20;
    let cases = [
        (opts("seq", "write", 4, 1 << 20, None), "write", Some(size)),
        (opts("seq", "read", 4, 1 << 20, Some(0xa5)), "read", None),
        (opts("seq", "readwrite", 3, 1 << 20, None), "rw", Some(size)),
        (
            opts("rand", "read", 16, 4 << 20, None),
            "randread",
            Some(size),
        ),
        (
            opts("rand", "write", 8, 4 << 20, Some(7)),
            "randwrite",
            None,
        ),
        (
            opts("rand", "readwrite", 2, 4 << 20, None),
            "randrw",
            Some(size),
        ),
        (
            opts("full-seq", "write", 5, 1 << 20, None),
            "write",
            Some(size),
        ),
    ];
    for (o, rw, size) in cases {
        let mut fio = vec![("filename", "/dev/rbd0".to_string())];
        fio.push(("ioengine", "libaio".into()));
        fio.extend(shared(&o, rw));
        let ops = o.ops();
        if o.pattern == "seq" {
            let t = o.slots();
            fio.push(("numjobs", t.to_string()));
            fio.push(("iodepth", "1".into()));
            fio.push(("io_size", (ops / t * o.io_size).to_string()));
            let region = size.map(|s| s / t / o.io_size * o.io_size);
            if let Some(r) = region.filter(|r| *r >= o.io_size) {
                fio.push(("size", r.to_string()));
                fio.push(("offset_increment", r.to_string()));
            }
        } else {
            fio.push(("iodepth", o.io_threads.to_string()));
            fio.push(("io_size", (ops * o.io_size).to_string()));
            if let Some(s) = size {
                fio.push(("size", s.to_string()));
            }
        }
        let plan = o.plan("/dev/rbd0", size);
        assert_eq!(plan.jobs.len(), 1);
        assert_eq!(plan.jobs[0], from_fio(&fio), "{} {rw} {size:?}", o.pattern);
    }
}

#[test]
fn an_image_plan_is_fios_rbd_job_for_the_same_workload() {
    for (pattern, io_type, rw, client) in [
        ("seq", "write", "write", None),
        ("rand", "readwrite", "randrw", Some("bench")),
        ("full-seq", "read", "read", Some("client.x")),
    ] {
        let o = opts(pattern, io_type, 16, 8 << 20, Some(1));
        let mut c = CephImage::default();
        assert!(c.set("pool", "p"));
        assert!(c.set("image", "img"));
        let mut fio = vec![
            ("ioengine", "rbd".to_string()),
            ("pool", "p".into()),
            ("rbdname", "img".into()),
        ];
        fio.extend(shared(&o, rw));
        fio.push(("iodepth", "16".into()));
        fio.push(("io_size", (o.ops() * o.io_size).to_string()));
        if let Some(id) = client {
            c.client = Some(id.into());
            c.cluster = Some("ceph2".into());
            fio.push(("clientname", id.into()));
            fio.push(("clustername", "ceph2".into()));
        }
        if io_type != "read" {
            fio.push(("end_fsync", "1".into()));
        }
        let plan = image_plan::plan(&o, &c);
        assert_eq!(plan.jobs.len(), 1);
        // What fio's options cannot say: rbd bench's cache as the configuration sets it.
        let mut want = from_fio(&fio);
        want.engine_options.ceph.cache_as_configured = true;
        assert_eq!(plan.jobs[0], want, "{pattern} {io_type}");
    }
}
