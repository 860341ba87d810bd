//! rbd-bench's plan on a Ceph image: one job of fio's `ioengine=rbd` at depth `--io-threads`
//! (see `image` for why one client).

use super::args::RbdOpts;
use super::image::CephImage;
use iomark_engine::job::{EngineKind, JobSpec, RunPlan, SizeSpec};

/// The plan of `o` on image `c`: one job at depth io-threads, through librbd.
pub fn plan(o: &RbdOpts, c: &CephImage) -> RunPlan {
    let mut j = JobSpec {
        ioengine: EngineKind::Rbd,
        iodepth: o.io_threads,
        iodepth_low: o.io_threads,
        // rbd bench does io-total's operations whatever the image's size, wrapping around
        // its end: an io_size past the image's size goes round it again, as in fio.
        io_size: Some(SizeSpec::Bytes(o.ops() * o.io_size)),
        // rbd bench flushes the image after its last write, inside its elapsed time.
        end_fsync: o.io_type != "read",
        ..o.job()
    };
    let ceph = &mut j.engine_options.ceph;
    // rbd bench opens the image with the cache as configured (write-through until the first
    // flush, by Ceph's default).
    ceph.cache_as_configured = true;
    ceph.pool = Some(c.pool.clone().unwrap_or_else(|| "rbd".into()));
    ceph.image = Some(c.image.clone().unwrap_or_default());
    ceph.client = c.client.clone();
    ceph.cluster = c.cluster.clone();
    RunPlan {
        jobs: vec![j],
        ..Default::default()
    }
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
        let p = plan(&o, &c);
        let j = &p.jobs[0];
        assert_eq!((j.numjobs, j.iodepth), (1, 16));
        // io-total's count of operations, past the image's end if need be.
        assert_eq!(
            j.io_size,
            Some(iomark_engine::job::SizeSpec::Bytes(o.ops() * o.io_size))
        );
        assert!(!j.time_based);
        assert_eq!(j.engine_options.ceph.image.as_deref(), Some("i"));
        // As rbd bench: the cache as configured, and a flush after the last write.
        assert!(j.engine_options.ceph.cache_as_configured);
        assert!(j.end_fsync);
        let read = RbdOpts {
            io_type: "read".into(),
            ..Default::default()
        };
        assert!(!plan(&read, &c).jobs[0].end_fsync);
    }
}
