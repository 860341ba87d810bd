//! End-to-end tests of the iomark binary (one test binary, as ripgrep does).

mod bench;
mod blockdev;
mod cli;
mod engines;
mod fio_compat;
mod hangs;
mod jobfiles;
mod quick;
mod safety;
mod seeds;
mod util;
