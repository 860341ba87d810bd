//! A spec's I/O in the job model's own fields (direction, read share, transfer sizes per
//! direction, alignment per direction): the job a spec becomes when these say it exactly, or the
//! outline of a job that follows an access mix. Its fio words are kept only to be shown again.

use iomark_engine::job::{BlockSize, JobSpec, PerDir, RwMode};

/// Transfer sizes, for reads and for writes.
#[derive(Clone, Debug, PartialEq)]
pub enum Sizes {
    /// One size for every I/O.
    One(u64),
    /// (size, whole percent) splits adding up to 100, for reads and for writes.
    Split([Vec<(u64, u32)>; 2]),
}

/// A job's shape (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct Shape {
    pub rw: RwMode,
    /// Percent of reads; None leaves the job's default (one direction only).
    pub rwmixread: Option<u32>,
    pub sizes: Sizes,
    /// Offsets are multiples of these, for reads and for writes (None: of the smallest size).
    pub align: Option<[u64; 2]>,
    /// Random offsets may repeat (no map of the blocks done).
    pub norandommap: bool,
}

impl Shape {
    /// Sets the shape's fields of `j`.
    pub fn apply(&self, j: &mut JobSpec) {
        j.rw = self.rw;
        if let Some(p) = self.rwmixread {
            j.rwmixread = p;
        }
        j.bs = match &self.sizes {
            Sizes::One(s) => PerDir::all(BlockSize::Fixed(*s)),
            Sizes::Split(s) => per_dir(s.clone().map(BlockSize::Split)),
        };
        if let Some(a) = self.align {
            j.blockalign = per_dir(a.map(Some));
        }
        j.norandommap |= self.norandommap;
    }

    /// The shape in fio's option words, in the order they are shown.
    pub fn shown(&self) -> Vec<(String, String)> {
        let mut o: Vec<(String, String)> = vec![("rw".into(), self.rw.fio_name().into())];
        if let Some(p) = self.rwmixread {
            o.push(("rwmixread".into(), p.to_string()));
        }
        match &self.sizes {
            Sizes::One(s) => o.push(("bs".into(), s.to_string())),
            Sizes::Split(s) => o.push(("bssplit".into(), both(s, |v| split_words(v)))),
        }
        if let Some(a) = &self.align {
            o.push(("ba".into(), both(a, u64::to_string)));
        }
        if self.norandommap {
            o.push(("norandommap".into(), "1".into()));
        }
        o
    }
}

/// Reads and writes as given, trims as writes.
fn per_dir<T: Clone>([read, write]: [T; 2]) -> PerDir<T> {
    PerDir {
        read,
        trim: write.clone(),
        write,
    }
}

/// One value when both directions share it, else `READ,WRITE`.
fn both<T: PartialEq>(v: &[T; 2], word: impl Fn(&T) -> String) -> String {
    if v[0] == v[1] {
        word(&v[0])
    } else {
        format!("{},{}", word(&v[0]), word(&v[1]))
    }
}

/// `size/share` joined by `:`, as fio's `bssplit` writes a split.
fn split_words(v: &[(u64, u32)]) -> String {
    v.iter()
        .map(|(size, share)| format!("{size}/{share}"))
        .collect::<Vec<_>>()
        .join(":")
}

/// Integer shares of `parts` (size, weight) adding up to 100 (the largest remainder takes the
/// rounding, as a split needs whole percentages); sizes whose share rounds to 0 are left out.
pub(super) fn split(parts: &[(u64, f64)]) -> Vec<(u64, u32)> {
    let total: f64 = parts.iter().map(|p| p.1).sum();
    let mut shares: Vec<(u64, u32, f64)> = parts
        .iter()
        .map(|&(size, w)| {
            let exact = w * 100.0 / total;
            (size, exact.floor() as u32, exact - exact.floor())
        })
        .collect();
    let mut left = 100 - shares.iter().map(|s| s.1).sum::<u32>();
    let mut order: Vec<usize> = (0..shares.len()).collect();
    order.sort_by(|&a, &b| shares[b].2.total_cmp(&shares[a].2));
    for i in order {
        if left == 0 {
            break;
        }
        shares[i].1 += 1;
        left -= 1;
    }
    shares
        .iter()
        .filter(|s| s.1 > 0)
        .map(|&(size, share, _)| (size, share))
        .collect()
}
