//! iomark's fio front end (options, command lines, job files) and back ends (normal, JSON, terse
//! output and logs).

pub mod build;
pub mod cmdline;
pub mod doc;
pub mod options;
pub mod output;
pub mod values;

#[cfg(test)]
mod fuzz_tests;
