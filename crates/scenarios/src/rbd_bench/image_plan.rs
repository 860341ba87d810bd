//! rbd-bench's plan on a Ceph image: one job of fio's `ioengine=rbd` at depth `--io-threads`
//! (see `image` for why one client).

use super::args::RbdOpts;
use super::image::CephImage;
use iomark_engine::job::RunPlan;
use iomark_fio::job_builder::{self, RawJob, RawPlan};

/// The plan of `o` on image `c`: one job at depth io-threads, through librbd.
pub fn plan(o: &RbdOpts, c: &CephImage) -> Result<RunPlan, job_builder::PlanError> {
    let rw = match (o.pattern.as_str(), o.io_type.as_str()) {
        ("rand", "read") => "randread",
        ("rand", "write") => "randwrite",
        ("rand", _) => "randrw",
        (_, "read") => "read",
        (_, "write") => "write",
        _ => "rw",
    };
    let mut opts: Vec<(String, String)> = vec![
        ("ioengine".into(), "rbd".into()),
        (
            "pool".into(),
            c.pool.clone().unwrap_or_else(|| "rbd".into()),
        ),
        ("rbdname".into(), c.image.clone().unwrap_or_default()),
        ("rw".into(), rw.into()),
        ("bs".into(), o.io_size.to_string()),
        ("rwmixread".into(), o.rw_mix_read.to_string()),
        ("bwavgtime".into(), "100".into()),
        ("iopsavgtime".into(), "100".into()),
        ("norandommap".into(), "1".into()),
        ("iodepth".into(), o.io_threads.to_string()),
        // rbd bench does io-total's operations whatever the image's size, wrapping around
        // its end: an io_size past the image's size goes round it again, as in fio.
        ("io_size".into(), (o.ops() * o.io_size).to_string()),
    ];
    if let Some(id) = &c.client {
        opts.push(("clientname".into(), id.clone()));
    }
    if let Some(cl) = &c.cluster {
        opts.push(("clustername".into(), cl.clone()));
    }
    if let Some(b) = o.pattern_byte {
        opts.push(("buffer_pattern".into(), format!("0x{b:02x}")));
    }
    let raw = RawPlan {
        jobs: vec![RawJob {
            name: "rbd-bench".into(),
            options: opts,
            ..Default::default()
        }],
        ..Default::default()
    };
    job_builder::build_plan(&raw).map(|b| b.plan)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_client_at_depth() {
        let mut c = CephImage::default();
        assert!(c.set("image", "i"));
        let o = RbdOpts {
            io_type: "write".into(),
            ..Default::default()
        };
        let p = plan(&o, &c).unwrap();
        let j = &p.jobs[0];
        assert_eq!((j.numjobs, j.iodepth), (1, 16));
        // io-total's count of operations, past the image's end if need be.
        assert_eq!(
            j.io_size,
            Some(iomark_engine::job::SizeSpec::Bytes(o.ops() * o.io_size))
        );
        assert!(!j.time_based);
        assert_eq!(j.engine_options.ceph.image.as_deref(), Some("i"));
    }
}
