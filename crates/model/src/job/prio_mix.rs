//! Per-request priorities (libaio's `aio_reqprio`, io_uring's `sqe->ioprio`): which reads and
//! writes carry a priority of their own instead of the job's. Either a share of each direction
//! carries one priority, or shares are given per block size, each with its own priority.
//! Trims never carry one.

use serde::{Deserialize, Serialize};

/// An I/O priority as the kernel takes it: a scheduling class (0 none, which the kernel and
/// iomark treat as best-effort; 1 real-time; 2 best-effort; 3 idle) and a level within it
/// (0 highest to 7 lowest).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IoPriority {
    pub class: u8,
    pub level: u8,
}

impl IoPriority {
    /// Class 0 taken as best-effort, as the kernel's default for a thread.
    pub const CLASS_BEST_EFFORT: u8 = 2;

    /// The 16-bit value of ioprio_set and of a request's priority: class in the top 3 bits.
    pub fn value(self) -> u16 {
        let class = if self.class == 0 {
            Self::CLASS_BEST_EFFORT
        } else {
            self.class
        };
        (u16::from(class) << 13) | u16::from(self.level & 7)
    }
}

/// The priority class a share takes when none is given: real-time.
pub const CLASS_REAL_TIME: u8 = 1;

/// One share of a direction's I/Os of one block size that carries a priority.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrioSplit {
    /// Block size in bytes the share applies to.
    pub bs: u64,
    /// Percentage (1..=100) of that size's I/Os.
    pub percent: u8,
    /// Its priority; None: the direction's `class`/`level`.
    pub prio: Option<IoPriority>,
}

/// The per-request priority settings of a job (all zero and empty: off).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IoPrioMix {
    /// Percentage of reads and of writes that carry a priority (0: none).
    pub percent: [u8; 2],
    /// Their class per direction (0: real-time).
    pub class: [u8; 2],
    /// Their level per direction (0 highest to 7 lowest).
    pub level: [u8; 2],
    /// Shares per block size for reads and writes, in block size order (same sizes in the
    /// order given); exclusive with `percent`.
    pub by_size: [Vec<PrioSplit>; 2],
}

/// One rule of a direction's draw: I/Os of `bs` (any size when None) whose draw falls in the
/// next `percent` points carry `value`; `slot` is its index in the direction's per-priority
/// records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrioRule {
    pub bs: Option<u64>,
    pub percent: u8,
    pub value: u16,
    pub slot: u8,
}

impl IoPrioMix {
    /// No I/O carries a priority of its own.
    pub fn is_off(&self) -> bool {
        self.percent == [0, 0] && self.by_size.iter().all(|v| v.is_empty())
    }

    /// Whether shares are given both as one percentage and per block size.
    pub fn is_ambiguous(&self) -> bool {
        self.percent != [0, 0] && self.by_size.iter().any(|v| !v.is_empty())
    }

    /// The priority value of direction `d` (0 read, 1 write) when a share gives none.
    pub fn implied(&self, d: usize) -> u16 {
        let class = match self.class[d] {
            0 => CLASS_REAL_TIME,
            c => c,
        };
        IoPriority {
            class,
            level: self.level[d],
        }
        .value()
    }

    /// The rules of direction `d` (0 read, 1 write) and the priority values of its records:
    /// `default` (the job's own) first, then each value in order of first use. Empty when no
    /// I/O of the direction carries a priority of its own.
    pub fn rules(&self, d: usize, default: u16) -> (Vec<PrioRule>, Vec<u16>) {
        let mut values = vec![default];
        let mut slot_of = |v: u16| -> u8 {
            match values.iter().position(|&x| x == v) {
                Some(i) => i as u8,
                None => {
                    values.push(v);
                    (values.len() - 1) as u8
                }
            }
        };
        let mut rules = Vec::new();
        if self.percent[d] > 0 {
            let value = self.implied(d);
            rules.push(PrioRule {
                bs: None,
                percent: self.percent[d],
                value,
                slot: slot_of(value),
            });
        } else {
            for s in &self.by_size[d] {
                let value = s.prio.map_or(self.implied(d), |p| p.value());
                rules.push(PrioRule {
                    bs: Some(s.bs),
                    percent: s.percent,
                    value,
                    slot: slot_of(value),
                });
            }
        }
        if rules.is_empty() {
            return (rules, Vec::new());
        }
        (rules, values)
    }

    /// The block sizes of direction `d` whose shares add up to more than 100%.
    pub fn oversubscribed(&self, d: usize) -> Option<u64> {
        let v = &self.by_size[d];
        v.iter().find_map(|s| {
            let total: u32 = v
                .iter()
                .filter(|x| x.bs == s.bs)
                .map(|x| u32::from(x.percent))
                .sum();
            (total > 100).then_some(s.bs)
        })
    }
}

/// Picks the rule an I/O falls under: `draw` in 0..100, rules of one direction.
#[inline]
pub fn pick(rules: &[PrioRule], bs: u64, draw: u32) -> Option<&PrioRule> {
    let mut sum = 0u32;
    for r in rules {
        if r.bs.is_some_and(|b| b != bs) {
            continue;
        }
        sum += u32::from(r.percent);
        if draw < sum {
            return Some(r);
        }
    }
    None
}

/// The share of I/Os of size `bs` that carries a priority (no draw is made when 0).
#[inline]
pub fn share(rules: &[PrioRule], bs: u64) -> u32 {
    rules
        .iter()
        .filter(|r| r.bs.is_none_or(|b| b == bs))
        .map(|r| u32::from(r.percent))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(bs: u64, percent: u8, prio: Option<(u8, u8)>) -> PrioSplit {
        PrioSplit {
            bs,
            percent,
            prio: prio.map(|(class, level)| IoPriority { class, level }),
        }
    }

    #[test]
    fn percentage_defaults_to_real_time_level_0() {
        let m = IoPrioMix {
            percent: [50, 0],
            ..Default::default()
        };
        assert!(!m.is_off());
        let (rules, values) = m.rules(0, 0);
        assert_eq!(values, [0, 1 << 13]);
        assert_eq!(rules[0].slot, 1);
        assert!(m.rules(1, 0).0.is_empty());
        assert!(m.rules(1, 0).1.is_empty());
        assert_eq!(share(&rules, 4096), 50);
        assert_eq!(pick(&rules, 4096, 49).unwrap().value, 1 << 13);
        assert!(pick(&rules, 4096, 50).is_none());
    }

    #[test]
    fn block_size_shares_in_order() {
        let mut m = IoPrioMix::default();
        m.by_size[1] = vec![
            split(65536, 25, Some((1, 1))),
            split(65536, 75, Some((3, 2))),
        ];
        m.class[1] = 2;
        m.level[1] = 4;
        let (rules, values) = m.rules(1, 0);
        assert_eq!(values, [0, (1 << 13) | 1, (3 << 13) | 2]);
        assert_eq!(share(&rules, 65536), 100);
        assert_eq!(share(&rules, 4096), 0);
        assert_eq!(pick(&rules, 65536, 24).unwrap().slot, 1);
        assert_eq!(pick(&rules, 65536, 25).unwrap().slot, 2);
        assert_eq!(pick(&rules, 65536, 99).unwrap().slot, 2);
        m.by_size[1].push(split(4096, 10, None));
        let (rules, _) = m.rules(1, 0);
        assert_eq!(pick(&rules, 4096, 3).unwrap().value, (2 << 13) | 4);
        m.by_size[1].push(split(4096, 95, None));
        assert_eq!(m.oversubscribed(1), Some(4096));
        assert_eq!(m.oversubscribed(0), None);
    }

    #[test]
    fn the_default_shares_a_record_with_an_equal_value() {
        let m = IoPrioMix {
            percent: [10, 10],
            class: [2, 2],
            level: [4, 4],
            ..Default::default()
        };
        let (rules, values) = m.rules(0, (2 << 13) | 4);
        assert_eq!(values.len(), 1);
        assert_eq!(rules[0].slot, 0);
    }
}
