//! fio's verify state files (`verify_state_save`, `verify_state_load`): what a writing job with
//! verification had done when it ended, saved as `local-<job name>-<job index>-verify.state`
//! (a `/` in the name becomes `.`) in the working directory, and read by a later job that checks
//! the data back so that it checks only the blocks that were really written.
//!
//! The file, all little-endian (fio 3.33's format, version 3):
//!
//! | offset | size | field |
//! |---:|---:|---|
//! | 0 | 8 | version (3) |
//! | 8 | 8 | size of the record that follows |
//! | 16 | 8 | CRC32C of the record (fio's: without the final inversion) |
//! | 24 | 8 | completions listed |
//! | 32 | 4 | queue depth |
//! | 36 | 4 | files |
//! | 40 | 8 | writes issued |
//! | 48 | 8 | job index (0 for the first job, counting every `numjobs` clone) |
//! | 56 | 56 | random generator state (64-bit flag, then 48 bytes; iomark writes zeroes) |
//! | 112 | 64 | job name, NUL terminated |
//! | 176 | 16 each | (file number, offset) of the last completed writes, depth per file |

use iomark_engine::job::RunPlan;
use iomark_engine::verify::WriteProgress;
use iomark_engine::RunResult;
use std::path::{Path, PathBuf};

const VERSION: u64 = 3;
const HEADER: usize = 24;
/// The record without its completions.
const RECORD: usize = 152;
const NAME_AT: usize = 88;
const NAME_LEN: usize = 64;

/// A verify state file that cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum StateFileError {
    #[error("verify_state_load: cannot read the verify state file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("verify_state_load: {path} is not a verify state file (it is {len} bytes long)")]
    Short { path: PathBuf, len: usize },
    #[error("verify_state_load: {path} has version {version} of the verify state format; version 3 is read")]
    Version { path: PathBuf, version: u64 },
    #[error("verify_state_load: the verify state file {path} is corrupt ({what})")]
    Corrupt { path: PathBuf, what: &'static str },
    #[error("verify_state_save: cannot write the verify state file {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The file name of job `name`'s clone with job index `index`.
pub fn file_name(name: &str, index: u32) -> String {
    format!("local-{}-{index}-verify.state", name.replace('/', "."))
}

/// The bytes of a state file for job `name` (index `index`) that ended with `p`.
pub fn encode(name: &str, index: u32, p: &WriteProgress) -> Vec<u8> {
    let comps: Vec<(u64, u64)> = p
        .recent
        .iter()
        .enumerate()
        .flat_map(|(f, offs)| offs.iter().map(move |&o| (f as u64, o)))
        .collect();
    let slots = p.depth as usize * p.recent.len();
    let mut rec = vec![0u8; RECORD + 16 * slots.max(comps.len())];
    rec[0..8].copy_from_slice(&(comps.len() as u64).to_le_bytes());
    rec[8..12].copy_from_slice(&p.depth.to_le_bytes());
    rec[12..16].copy_from_slice(&(p.recent.len() as u32).to_le_bytes());
    rec[16..24].copy_from_slice(&p.issued.to_le_bytes());
    rec[24..32].copy_from_slice(&u64::from(index).to_le_bytes());
    let n = name.len().min(NAME_LEN - 1);
    rec[NAME_AT..NAME_AT + n].copy_from_slice(&name.as_bytes()[..n]);
    for (i, (f, o)) in comps.iter().enumerate() {
        let at = RECORD + 16 * i;
        rec[at..at + 8].copy_from_slice(&f.to_le_bytes());
        rec[at + 8..at + 16].copy_from_slice(&o.to_le_bytes());
    }
    let mut out = Vec::with_capacity(HEADER + rec.len());
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(rec.len() as u64).to_le_bytes());
    out.extend_from_slice(&fio_crc(&rec).to_le_bytes());
    out.extend_from_slice(&rec);
    out
}

/// fio's CRC32C: the Castagnoli polynomial from all ones, without the final inversion.
fn fio_crc(b: &[u8]) -> u64 {
    u64::from(!crc32c::crc32c(b))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

/// The job name and the record of a state file's bytes (`path` names it in errors).
pub fn decode(bytes: &[u8], path: &Path) -> Result<(String, WriteProgress), StateFileError> {
    let corrupt = |what| StateFileError::Corrupt {
        path: path.to_path_buf(),
        what,
    };
    if bytes.len() < HEADER + RECORD {
        return Err(StateFileError::Short {
            path: path.to_path_buf(),
            len: bytes.len(),
        });
    }
    let version = u64_at(bytes, 0);
    if version != VERSION {
        return Err(StateFileError::Version {
            path: path.to_path_buf(),
            version,
        });
    }
    let size = u64_at(bytes, 8);
    if size < RECORD as u64 || size > (bytes.len() - HEADER) as u64 {
        return Err(corrupt("its size field does not match the file"));
    }
    let rec = &bytes[HEADER..HEADER + size as usize];
    if fio_crc(rec) != u64_at(bytes, 16) {
        return Err(corrupt("bad checksum"));
    }
    let comps = u64_at(rec, 0);
    let depth = u32_at(rec, 8);
    let files = u32_at(rec, 12);
    if comps > (rec.len() - RECORD) as u64 / 16 || files > 1 << 20 {
        return Err(corrupt("more completions than it holds"));
    }
    let mut recent = vec![Vec::new(); files as usize];
    for i in 0..comps as usize {
        let at = RECORD + 16 * i;
        let f = u64_at(rec, at);
        let slot = recent
            .get_mut(f as usize)
            .ok_or_else(|| corrupt("a completion names a file the job does not have"))?;
        slot.push(u64_at(rec, at + 8));
    }
    let name = &rec[NAME_AT..NAME_AT + NAME_LEN];
    let end = name.iter().position(|&b| b == 0).unwrap_or(NAME_LEN);
    let name = String::from_utf8_lossy(&name[..end]).into_owned();
    Ok((
        name,
        WriteProgress {
            issued: u64_at(rec, 16),
            depth,
            recent,
        },
    ))
}

/// Writes the state file of every job of `result` that kept its progress into `dir`; the
/// paths written.
pub fn save(result: &RunResult, dir: &Path) -> Result<Vec<PathBuf>, StateFileError> {
    let mut written = Vec::new();
    for j in result.jobs.iter().filter(|j| j.ran) {
        let Some(p) = j.verify.as_ref().and_then(|v| v.progress.as_ref()) else {
            continue;
        };
        let name = result
            .plan
            .jobs
            .get(j.job_index)
            .map_or(j.name.as_str(), |s| s.name.as_str());
        let path = dir.join(file_name(name, j.thread_number));
        std::fs::write(&path, encode(name, j.thread_number, p)).map_err(|source| {
            StateFileError::Write {
                path: path.clone(),
                source,
            }
        })?;
        written.push(path);
    }
    Ok(written)
}

/// Reads the state file of every clone of the jobs of `plan` that asked for one, from `dir`,
/// before anything runs.
pub fn load(plan: &mut RunPlan, dir: &Path) -> Result<(), StateFileError> {
    let mut index = 0u32;
    for job in &mut plan.jobs {
        let clones = job.numjobs.max(1);
        let name = job.name.clone();
        if let Some(records) = job.verify.as_mut().and_then(|v| v.written_before.as_mut()) {
            records.clear();
            for t in index..index + clones {
                let path = dir.join(file_name(&name, t));
                let bytes = std::fs::read(&path).map_err(|source| StateFileError::Read {
                    path: path.clone(),
                    source,
                })?;
                let (_, p) = decode(&bytes, &path)?;
                records.push((t, p));
            }
        }
        index += clones;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A state file fio 3.33 wrote for `--name=x --rw=write --bs=4k --size=1m --iodepth=4
    /// --ioengine=libaio --verify=crc32c` (256 writes; the last four completions).
    const FIO_FILE: &[u8] =
        include_bytes!("../../../tests/fixtures/fio-3.33-output/verify-state-x-0.state");

    #[test]
    fn reads_a_state_file_fio_wrote() {
        let (name, p) = decode(FIO_FILE, Path::new("f")).unwrap();
        assert_eq!(name, "x");
        assert_eq!(p.issued, 256);
        assert_eq!(p.depth, 4);
        assert_eq!(p.recent.len(), 1);
        let mut offs = p.recent[0].clone();
        offs.sort_unstable();
        assert_eq!(offs, vec![1032192, 1036288, 1040384, 1044480]);
    }

    #[test]
    fn writes_what_it_reads_with_the_checksum_fio_checks() {
        let (name, p) = decode(FIO_FILE, Path::new("f")).unwrap();
        // fio keeps no random state for a sequential job: the same bytes, checksum included.
        let mine = encode(&name, 0, &p);
        assert_eq!(mine, FIO_FILE);
        assert_eq!(decode(&mine, Path::new("f")).unwrap(), (name, p));
    }

    #[test]
    fn names_escape_slashes_and_count_clones() {
        assert_eq!(file_name("a/b", 3), "local-a.b-3-verify.state");
        let p = WriteProgress {
            issued: 2,
            depth: 1,
            recent: vec![vec![4096], vec![0]],
        };
        let long = "n".repeat(100);
        let (name, back) = decode(&encode(&long, 7, &p), Path::new("f")).unwrap();
        assert_eq!(name.len(), 63);
        assert_eq!(back, p);
    }

    #[test]
    fn refuses_damaged_files_by_name() {
        let p = Path::new("s.state");
        let e = decode(&FIO_FILE[..40], p).unwrap_err().to_string();
        assert!(
            e.contains("verify_state_load") && e.contains("s.state"),
            "{e}"
        );
        let mut v = FIO_FILE.to_vec();
        v[0] = 2;
        assert!(decode(&v, p).unwrap_err().to_string().contains("version 2"));
        let mut v = FIO_FILE.to_vec();
        let last = v.len() - 1;
        v[last] ^= 1;
        assert!(decode(&v, p).unwrap_err().to_string().contains("checksum"));
    }
}
