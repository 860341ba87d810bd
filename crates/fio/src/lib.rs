//! iomark's fio front end (options, command lines, job files) and back ends (normal, JSON, terse
//! output and logs).

pub mod cluster_words;
pub mod cmdline;
#[cfg(test)]
mod corpus;
pub mod debug_random;
pub mod doc;
pub mod explain;
pub mod iolog;
pub mod job_builder;
pub mod jobfile;
pub mod jobfile_source;
pub mod options;
pub mod output;
pub mod switches;
pub mod values;
pub mod verify_state;

#[cfg(test)]
mod fuzz_tests;
