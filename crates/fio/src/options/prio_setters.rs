//! The setters of the per-command priority options of the libaio and io_uring engines
//! (`cmdprio_percentage`, `cmdprio_class`, `cmdprio`, `cmdprio_bssplit`): values for reads and
//! writes (a trim value is accepted and unused, as fio does), within fio's bounds.

use super::{Ctx, OptionError};
use crate::values;
use iomark_engine::job::Dir;

/// Reads and writes of a per-direction integer within `lo..=hi`.
fn read_write(c: &Ctx<'_>, v: &str, lo: u64, hi: u64) -> Result<[Option<u8>; 2], OptionError> {
    let kb = c.kb();
    let l = c.per_dir(v, |s| -> Result<u8, String> {
        let n = values::parse_uint(s, kb).map_err(|e| e.to_string())?;
        if n < lo {
            Err(format!("min value out of range: {n} ({lo} min)"))
        } else if n > hi {
            Err(format!("max value out of range: {n} ({hi} max)"))
        } else {
            Ok(n as u8)
        }
    })?;
    Ok([*l.get(Dir::Read), *l.get(Dir::Write)])
}

fn store(dst: &mut [u8; 2], src: [Option<u8>; 2]) {
    for (d, s) in dst.iter_mut().zip(src) {
        if let Some(s) = s {
            *d = s;
        }
    }
}

/// `cmdprio_percentage=r[,w]`: 0 to 100.
pub fn percentage(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    let l = read_write(c, v, 0, 100)?;
    store(&mut c.spec.engine_options.prio_mix.percent, l);
    Ok(())
}

/// `cmdprio_class=r[,w]`: 1 (real-time) to 3 (idle).
pub fn class(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    let l = read_write(c, v, 1, 3)?;
    store(&mut c.spec.engine_options.prio_mix.class, l);
    Ok(())
}

/// `cmdprio=r[,w]`: 0 (highest) to 7.
pub fn level(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    let l = read_write(c, v, 0, 7)?;
    store(&mut c.spec.engine_options.prio_mix.level, l);
    Ok(())
}

/// `cmdprio_bssplit=...`: shares per block size (see `values::parse_prio_split`).
pub fn bssplit(c: &mut Ctx<'_>, v: &str) -> Result<(), OptionError> {
    let l = values::parse_prio_split(v, c.kb()).map_err(|e| c.invalid(v, e))?;
    let mix = &mut c.spec.engine_options.prio_mix;
    mix.by_size = Default::default();
    for (i, d) in [Dir::Read, Dir::Write].into_iter().enumerate() {
        if let Some(list) = l.get(d) {
            mix.by_size[i] = list.clone();
        }
    }
    for (i, list) in mix.by_size.clone().iter().enumerate() {
        if list.is_empty() {
            continue;
        }
        if let Some(bs) = mix.oversubscribed(i) {
            return Err(c.invalid(
                v,
                format!("the shares of block size {bs} add up to more than 100%"),
            ));
        }
    }
    Ok(())
}
