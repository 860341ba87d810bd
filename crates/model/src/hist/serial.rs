//! The serialized form of a [`Histogram`]: only non-zero buckets, with the layout it was
//! recorded in.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{
    Histogram, HIST_BITS, HIST_BUCKETS, HIST_GROUPS, HIST_GROUP_BUCKETS, MAX_SERIAL_GROUPS,
};

/// Serialized form: `{"bits":6,"groups":36,"counts":[[index,count],...]}` with only non-zero
/// buckets, ascending by index.
#[derive(Serialize, Deserialize)]
struct HistRepr {
    bits: u32,
    groups: u32,
    counts: Vec<(u64, u64)>,
}

impl Serialize for Histogram {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let counts = self
            .counts
            .iter()
            .enumerate()
            .filter(|(_, &c)| c != 0)
            .map(|(i, &c)| (i as u64, c))
            .collect();
        HistRepr {
            bits: HIST_BITS,
            groups: HIST_GROUPS as u32,
            counts,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Histogram {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let r = HistRepr::deserialize(d)?;
        Histogram::from_repr(r).map_err(D::Error::custom)
    }
}

/// A serialized histogram that does not describe one.
#[derive(Debug, thiserror::Error)]
enum ReprError {
    #[error("histogram: unsupported bits {0} (expected {HIST_BITS})")]
    Bits(u32),
    #[error("histogram: groups {0} out of range 1..={MAX_SERIAL_GROUPS}")]
    Groups(u32),
    #[error("histogram: bucket index {index} out of range for {groups} groups")]
    Index { index: u64, groups: u32 },
    #[error("histogram: bucket indices not strictly ascending at {0}")]
    Order(u64),
    #[error("histogram: total count overflows u64")]
    Overflow,
}

impl Histogram {
    fn from_repr(r: HistRepr) -> Result<Histogram, ReprError> {
        if r.bits != HIST_BITS {
            return Err(ReprError::Bits(r.bits));
        }
        if r.groups == 0 || r.groups > MAX_SERIAL_GROUPS {
            return Err(ReprError::Groups(r.groups));
        }
        let nb = r.groups as u64 * HIST_GROUP_BUCKETS as u64;
        let mut h = Histogram::new();
        let mut prev: Option<u64> = None;
        let mut total = 0u64;
        for &(idx, c) in &r.counts {
            if idx >= nb {
                return Err(ReprError::Index {
                    index: idx,
                    groups: r.groups,
                });
            }
            if prev.is_some_and(|p| idx <= p) {
                return Err(ReprError::Order(idx));
            }
            prev = Some(idx);
            total = total.checked_add(c).ok_or(ReprError::Overflow)?;
            // A layout with more groups than ours folds its excess into our last bucket, as a
            // value beyond our range would be.
            let i = (idx as usize).min(HIST_BUCKETS - 1);
            h.slots_mut()[i] += c;
        }
        Ok(h)
    }
}
