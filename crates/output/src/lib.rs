//! What every front end and back end shares when it speaks to the user or writes for them,
//! below all of them and above the engine: the user's text echoed in a message ([`echo`]) and
//! output files checked before any I/O and written whole ([`outfile`]), and the result-file
//! option every command spells the same way ([`result_option`]).

pub mod echo;
pub mod outfile;
pub mod result_option;
