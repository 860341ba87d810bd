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

pub(crate) use access::{MixOffsets, MixPicker};
pub(crate) use bs::BsPicker;
pub(crate) use mix::DirMix;
pub(crate) use offset::OffsetGen;
pub(crate) use taus::Stream;
pub(crate) use taus::{stream_seed, Taus88};
