//! End-to-end tests of the iomark binary (one test binary, as ripgrep does).

mod bench;
mod blockdev;
mod cache;
mod cli;
mod cluster;
mod data_loss;
mod edges;
mod engines;
mod faultfs;
mod fio_compat;
mod fio_errors;
mod fio_exit;
mod fio_iolog;
mod fio_offsets;
mod fio_placement;
mod fio_silent;
mod fio_steady;
mod fio_verify;
mod hangs;
mod hardening;
mod iometer;
mod jobfiles;
mod live;
#[cfg(feature = "mpi")]
mod mpi;
#[cfg(feature = "mpi")]
mod mpi_iozone;
mod presets;
mod quick;
mod rbd_bench;
mod repeat;
mod report;
mod report_suites;
mod safety;
mod seeds;
mod suites_bench;
mod suites_blogbench;
mod suites_bonnie;
mod suites_dd;
mod suites_hdparm;
mod suites_iozone;
mod suites_iozone_modes;
mod sweep;
mod util;
