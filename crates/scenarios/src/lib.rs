//! iomark's presets: ready-made benchmarks. Each preset turns its few options into a job plan
//! (the engine's job model) and formats its own table and JSON from the result model; it never
//! does the benchmark's I/O itself (the engine runs the plan).

pub mod ceph_text;
pub mod iometer;
pub mod preset;
pub mod quick;
pub mod rados_bench;
pub mod rbd_bench;
pub mod repeat;
pub mod sweep;
