//! The honesty note of buffered runs: when a job's working set fits in the page cache, its
//! reads may be served from memory and its writes complete once copied there, so the figures
//! may describe memory rather than the device.

use crate::job::{JobSpec, SyncMode};

/// The note for `job` (buffered, touching `working_set` bytes of files) on a machine with
/// `available` bytes of memory free for the cache; None when the figures are the device's.
pub fn cache_note(job: &JobSpec, working_set: u64, available: u64) -> Option<String> {
    if job.direct || working_set == 0 || available == 0 || working_set > available {
        return None;
    }
    let reads = job.rw.has_read();
    // Writes reach the device before they complete with O_SYNC/O_DSYNC, and are counted with
    // their flushes when fsync/fdatasync run during the job.
    let synced = job.sync != SyncMode::None || job.fsync > 0 || job.fdatasync > 0;
    let writes = job.rw.has_write() && !synced;
    let what = match (reads, writes) {
        (true, true) => {
            "read figures may come from memory, and writes complete once copied into memory \
             and reach the device later"
        }
        (true, false) => "read figures may come from memory rather than the device",
        (false, true) => {
            "writes complete once copied into memory and reach the device later, so write \
             figures may describe memory rather than the device (fsync=N, end_fsync=1 or \
             direct=1 count the device)"
        }
        (false, false) => return None,
    };
    let kept = if reads && !job.invalidate {
        " (invalidate=0 keeps cached data)"
    } else {
        ""
    };
    Some(format!(
        "{}: buffered I/O (direct=0) over a working set of {} MiB that fits in the page cache \
         ({} MiB available): {what}{kept}",
        job.name,
        working_set >> 20,
        available >> 20
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::RwMode;

    fn job(rw: RwMode) -> JobSpec {
        JobSpec {
            name: "j".into(),
            rw,
            ..JobSpec::default()
        }
    }

    const MIB: u64 = 1 << 20;

    #[test]
    fn reads_and_writes_that_fit_get_a_note() {
        let r = cache_note(&job(RwMode::RandRead), 64 * MIB, 1024 * MIB).unwrap();
        assert!(r.contains("read figures may come from memory"), "{r}");
        assert!(r.contains("64 MiB") && r.contains("1024 MiB"), "{r}");
        let w = cache_note(&job(RwMode::Write), 64 * MIB, 1024 * MIB).unwrap();
        assert!(w.contains("writes complete once copied into memory"), "{w}");
        assert!(w.contains("end_fsync=1"), "{w}");
        let m = cache_note(&job(RwMode::RandRw), 64 * MIB, 1024 * MIB).unwrap();
        assert!(
            m.contains("read figures") && m.contains("writes complete"),
            "{m}"
        );
    }

    #[test]
    fn no_note_when_direct_synced_or_too_big() {
        let mut d = job(RwMode::Read);
        d.direct = true;
        assert_eq!(cache_note(&d, 64 * MIB, 1024 * MIB), None);
        assert_eq!(cache_note(&job(RwMode::Read), 2048 * MIB, 1024 * MIB), None);
        let mut s = job(RwMode::Write);
        s.fsync = 1;
        assert_eq!(cache_note(&s, 64 * MIB, 1024 * MIB), None);
        let mut o = job(RwMode::Write);
        o.sync = SyncMode::Sync;
        assert_eq!(cache_note(&o, 64 * MIB, 1024 * MIB), None);
    }

    #[test]
    fn invalidate_0_is_named_for_reads() {
        let mut r = job(RwMode::Read);
        r.invalidate = false;
        assert!(cache_note(&r, MIB, 1024 * MIB)
            .unwrap()
            .contains("invalidate=0 keeps cached data"));
    }
}
