//! The classic storage tools on iomark's engine. Each tool has its own folder: its flags become
//! a typed plan of engine jobs (the front end), and its own output is written from the result
//! model (the back end). A tool never does the benchmark's I/O itself; the engine runs the plan.
//! What more than one tool needs (latency summaries, size parsing) lives in [`common`].

pub mod blogbench;
pub mod bonnie;
pub mod common;
pub mod dd;
pub mod hdparm;
pub mod iozone;
