//! What every command runs in: the signal handlers and the stop flag, output into pipes that may
//! close early, the gate every output file passes (checked before the run, written whole), and
//! the result store every run is recorded in.

pub mod outputs;
pub mod pipe;
pub mod record;
pub mod signals;
