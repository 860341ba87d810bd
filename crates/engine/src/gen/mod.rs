//! Workload generators: offsets (sequential, random, distributions), block sizes and data
//! directions. All state is per worker; `next`/`pick`/`choose` neither allocate nor lock.
//!
//! - `permutation`: the seeded block permutation behind the random map;
//! - `blockmap`: the block map of random passes with mixed block sizes;
//! - `seq`: sequential offsets;
//! - `dist`: access distributions (the modes of random offsets);
//! - `random`: random offsets;
//! - `strided`: the walk over strided zones;
//! - `offset`: the per-file generator the worker uses, combining the above;
//! - `bs`: block sizes;
//! - `mix`: the read/write choice of mixed workloads;
//! - `taus`: the Tausworthe generator and seeds of the draws that follow fio's;
//! - `access`: the line, direction, size and offset choices of an access mix.

mod access;
mod blockmap;
mod bs;
mod dist;
mod mix;
mod offset;
mod permutation;
mod random;
mod seq;
mod strided;
mod taus;

pub use access::{MixOffsets, MixPicker};
pub use bs::BsPicker;
pub use mix::DirMix;
pub use offset::OffsetGen;
pub use taus::{stream_seed, Stream, Taus88};
