//! End-to-end tests of the iomark binary (one test binary, as ripgrep does).

mod bench;
mod blockdev;
mod cache;
mod cli;
mod edges;
mod engines;
mod fio_compat;
mod hangs;
mod iometer;
mod jobfiles;
mod live;
mod presets;
mod quick;
mod rbd_bench;
mod repeat;
mod report;
mod safety;
mod seeds;
mod suites_bench;
mod suites_bonnie;
mod suites_dd;
mod suites_hdparm;
mod suites_iozone;
mod sweep;
mod util;
