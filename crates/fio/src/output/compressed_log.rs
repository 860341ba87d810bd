//! Compressed logs as fio stores them (`log_store_compressed`): the log's samples in fio's
//! binary layout, cut into chunks of `log_compression` bytes, each chunk one zlib stream, the
//! streams one after another in `<log>.fz`. `--inflate-log` turns such a file back into the
//! text log (also fio's own files).
//!
//! A sample is, in native byte order: time in ms (u64), value (u64), direction (u32, with the
//! top bit set when an offset follows), priority (u16) and 2 bytes of padding, block size
//! (u64), and with the top bit the offset (u64): 32 or 40 bytes.

use flate2::write::ZlibEncoder;
use flate2::{Compression, Decompress, FlushDecompress, Status};
use iomark_engine::result::LogEntry;
use std::io::Write;
use thiserror::Error;

const OFFSET_BIT: u32 = 0x8000_0000;
const PRIO_BIT: u32 = 0x4000_0000;
/// Class 1 (real-time) in a priority value's top 3 bits.
const CLASS_RT: u16 = 1;

/// Why a compressed log could not be read.
#[derive(Debug, Error)]
pub enum InflateError {
    #[error("{path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: not a compressed log: {reason} at byte {at}")]
    Corrupt {
        path: String,
        reason: String,
        at: usize,
    },
}

fn sample_len(with_offset: bool) -> usize {
    if with_offset {
        40
    } else {
        32
    }
}

/// The samples of `entries` in fio's binary layout.
fn samples(entries: &[LogEntry], with_offset: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(entries.len() * sample_len(with_offset));
    for e in entries {
        out.extend_from_slice(&e.t_ms.to_ne_bytes());
        out.extend_from_slice(&e.value.to_ne_bytes());
        let ddir = u32::from(e.ddir) | if with_offset { OFFSET_BIT } else { 0 };
        out.extend_from_slice(&ddir.to_ne_bytes());
        out.extend_from_slice(&e.prio.to_ne_bytes());
        out.extend_from_slice(&[0, 0]);
        out.extend_from_slice(&e.bs.to_ne_bytes());
        if with_offset {
            out.extend_from_slice(&e.offset.to_ne_bytes());
        }
    }
    out
}

/// The `.fz` contents for `entries`: chunks of at most `chunk` bytes of samples (at least one
/// sample each), each compressed as one zlib stream.
pub fn deflate_log(entries: &[LogEntry], with_offset: bool, chunk: u64) -> Vec<u8> {
    let raw = samples(entries, with_offset);
    let per = sample_len(with_offset);
    let chunk = ((chunk as usize) / per).max(1) * per;
    let mut out = Vec::new();
    for part in raw.chunks(chunk) {
        let mut z = ZlibEncoder::new(Vec::new(), Compression::default());
        // Writing into memory cannot fail.
        let _ = z.write_all(part);
        if let Ok(v) = z.finish() {
            out.extend_from_slice(&v);
        }
    }
    out
}

/// Every zlib stream of `data`, one after another, inflated and joined.
fn inflate_streams(data: &[u8], path: &str) -> Result<Vec<u8>, InflateError> {
    let mut raw = Vec::new();
    let mut pos = 0;
    while pos < data.len() {
        let mut z = Decompress::new(true);
        loop {
            raw.reserve(256 * 1024);
            let in_before = z.total_in() as usize;
            let out_before = z.total_out();
            let status = z
                .decompress_vec(&data[pos + in_before..], &mut raw, FlushDecompress::None)
                .map_err(|e| InflateError::Corrupt {
                    path: path.to_string(),
                    reason: e.to_string(),
                    at: pos + in_before,
                })?;
            if status == Status::StreamEnd {
                break;
            }
            if z.total_in() as usize == in_before && z.total_out() == out_before {
                // No progress: the input ended inside a stream.
                return Err(InflateError::Corrupt {
                    path: path.to_string(),
                    reason: "the last stream is cut short".into(),
                    at: data.len(),
                });
            }
        }
        pos += z.total_in() as usize;
    }
    Ok(raw)
}

/// The text log held by a compressed log file's contents, as fio prints it.
pub fn inflate_log(data: &[u8], path: &str) -> Result<String, InflateError> {
    use std::fmt::Write as _;
    let raw = inflate_streams(data, path)?;
    let mut text = String::new();
    let Some(first) = raw.get(16..20) else {
        return Ok(text);
    };
    let ddir0 = u32::from_ne_bytes(first.try_into().unwrap_or_default());
    let with_offset = ddir0 & OFFSET_BIT != 0;
    let with_prio = ddir0 & PRIO_BIT != 0;
    let u64_at =
        |s: &[u8], i: usize| u64::from_ne_bytes(s[i..i + 8].try_into().unwrap_or_default());
    for s in raw.chunks_exact(sample_len(with_offset)) {
        let ddir = u32::from_ne_bytes(s[16..20].try_into().unwrap_or_default());
        let prio = u16::from_ne_bytes([s[20], s[21]]);
        let _ = write!(
            text,
            "{}, {}, {}, {}, ",
            u64_at(s, 0),
            u64_at(s, 8) as i64,
            ddir & !(OFFSET_BIT | PRIO_BIT),
            u64_at(s, 24)
        );
        if with_offset {
            let _ = write!(text, "{}, ", u64_at(s, 32));
        }
        let _ = if with_prio {
            writeln!(text, "0x{prio:04x}")
        } else {
            writeln!(text, "{}", u8::from(prio >> 13 == CLASS_RT))
        };
    }
    Ok(text)
}

/// `--inflate-log=FILE`: the text log of a compressed log file.
pub fn inflate_file(path: &str) -> Result<String, InflateError> {
    let data = std::fs::read(path).map_err(|source| InflateError::Read {
        path: path.to_string(),
        source,
    })?;
    inflate_log(&data, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(n: u64) -> Vec<LogEntry> {
        (0..n)
            .map(|i| LogEntry {
                t_ms: i * 3,
                value: 1000 + i,
                ddir: (i % 2) as u8,
                bs: 4096,
                offset: i * 4096,
                max: None,
                prio: 0,
            })
            .collect()
    }

    #[test]
    fn round_trip_in_chunks() {
        for with_offset in [false, true] {
            let e = entries(1000);
            // 1 KiB chunks: many zlib streams one after another.
            let z = deflate_log(&e, with_offset, 1024);
            assert_eq!(&z[..2], &[0x78, 0x9c], "a zlib header");
            let text = inflate_log(&z, "x").unwrap();
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines.len(), 1000);
            let want = if with_offset {
                "9, 1003, 1, 4096, 12288, 0"
            } else {
                "9, 1003, 1, 4096, 0"
            };
            assert_eq!(lines[3], want);
        }
    }

    #[test]
    fn fios_own_file_inflates() {
        // A bw log fio 3.33 stored with log_store_compressed=1 (8 samples with offsets).
        let z = include_bytes!("../../../../tests/fixtures/fio-3.33-output/bw-log-compressed.fz");
        let text = inflate_log(z, "fixture").unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 8);
        assert!(lines[1].ends_with(", 1, 131072, 131072, 0"), "{}", lines[1]);
    }

    #[test]
    fn corrupt_data_is_named() {
        let e = inflate_log(b"not zlib at all", "bad.fz").unwrap_err();
        assert!(
            e.to_string().starts_with("bad.fz: not a compressed log"),
            "{e}"
        );
        let z = deflate_log(&entries(10), true, 1 << 20);
        let e = inflate_log(&z[..z.len() - 6], "cut.fz").unwrap_err();
        assert!(e.to_string().contains("cut short"), "{e}");
    }
}
