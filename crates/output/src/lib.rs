//! What every front end and back end shares when it speaks to the user or writes for them,
//! below all of them and above the engine: the user's text echoed in a message ([`echo`]) and
//! output files checked before any I/O and written whole ([`outfile`]).

pub mod echo;
pub mod outfile;
