//! iomark's back ends for people: results read into one comparable model ([`model`]) from
//! iomark's result files and from fio's JSON/json+ ([`read`]), compared ([`compare`]), charted
//! ([`charts`] builds the charts, [`html`] draws them with Plotly into one self-contained page,
//! [`images`] into PNG/SVG files with plotters) and exported ([`export`]: CSV, XLSX, Markdown).
//!
//! Back ends read only the result model; nothing here runs I/O.

pub mod charts;
pub mod compare;
pub mod error;
pub mod export;
pub mod html;
pub mod images;
pub mod model;
pub mod output;
pub mod read;
pub mod stats;

pub use error::ReportError;
pub use model::Source;
