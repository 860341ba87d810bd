//! What every command runs in: the signal handlers and the stop flag, output into pipes that may
//! close early, and the gate every output file passes (checked before the run, written whole).

pub mod outputs;
pub mod pipe;
pub mod signals;
