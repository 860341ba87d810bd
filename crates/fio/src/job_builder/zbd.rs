//! `zonemode=zbd` on a regular file or a block device that is not zoned: fio 3.33's rules for
//! the emulated zones (`zonesize` required, `zonecapacity`, the open-zone limits, the reset
//! threshold and frequency, `read_beyond_wp`), and the refusal by name of what iomark does not
//! carry out with zones.

use crate::options::ZoneOpts;
use iomark_engine::job::{Dir, JobSpec, ZbdZones};

/// The emulated zones of `spec`, or the zone rule the job breaks (`skip`: `zoneskip` in
/// bytes).
pub(super) fn emulated(spec: &JobSpec, z: &ZoneOpts, skip: u64) -> Result<ZbdZones, String> {
    let rule = Err;
    if z.size == 0 {
        return rule("specifying the zone size (zonesize) is mandatory for a regular file or a block device that is not zoned".into());
    }
    if z.size < 512 {
        return rule(format!("zone size {} must be at least 512 bytes", z.size));
    }
    let capacity = if z.capacity == 0 { z.size } else { z.capacity };
    if capacity > z.size {
        return rule(format!(
            "zonecapacity {capacity} is larger than zone size {}",
            z.size
        ));
    }
    if z.job_max_open > 0 && z.max_open == 0 {
        return rule(
            "job_max_open_zones cannot be used without a global open zones limit (max_open_zones)"
                .into(),
        );
    }
    if spec.filenames.iter().any(|f| f.as_os_str() == "-") {
        return rule("zonemode=zbd does not support pipes (filename=-)".into());
    }
    not_carried_out(spec, skip, capacity, z.size)?;
    Ok(ZbdZones {
        size: z.size,
        capacity,
        max_open_zones: z.max_open,
        job_max_open_zones: z.job_max_open,
        reset_threshold: z.reset_threshold,
        reset_frequency: z.reset_frequency,
        read_beyond_wp: z.read_beyond_wp,
    })
}

/// fio's zone rules iomark does not carry out, refused by name before any I/O.
fn not_carried_out(spec: &JobSpec, skip: u64, capacity: u64, size: u64) -> Result<(), String> {
    let refuse = |what: &str| {
        Err(format!(
            "{what} is not supported by iomark with zonemode=zbd"
        ))
    };
    if spec.rw.has_dir(Dir::Trim) {
        return refuse("trimming (rw=trim, randtrim or trimwrite: zone resets in fio)");
    }
    if spec.verify.is_some() {
        return refuse("verify (fio reads zones back in their write order)");
    }
    if skip != 0 {
        return refuse("zoneskip (skipping zones between sequential I/O)");
    }
    if spec.rw_modifier.value != 0 {
        return refuse("an rw modifier (rw=...:N)");
    }
    if spec.access_mix.is_some() {
        return refuse("an access mix");
    }
    let writes = spec.rw.has_dir(Dir::Write);
    if writes && !spec.rw.is_random() && capacity < size {
        return refuse(&format!(
            "zonecapacity ({capacity}) below zonesize ({size}) with sequential writes (a jump to the next zone at the capacity)"
        ));
    }
    let bs = spec.bs[Dir::Write].max();
    if writes && bs > size {
        return Err(format!(
            "write block size {bs} exceeds the zone size {size}"
        ));
    }
    Ok(())
}
