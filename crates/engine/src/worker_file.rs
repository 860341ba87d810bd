//! The files a worker runs on, as the runner prepared them. Shared by the worker and its
//! verifier, so it lives below both.

/// A file of a worker with its I/O region.
#[derive(Clone, Debug)]
pub(crate) struct WorkerFile {
    pub path: std::path::PathBuf,
    pub is_block: bool,
    pub is_char: bool,
    /// Size of the file or device.
    pub size: u64,
    /// I/O region inside the file.
    pub region_start: u64,
    pub region_len: u64,
    /// Logical block size of the file's device (of its directory's for a regular file; 512 when
    /// unknown); I/O buffers are aligned to it.
    pub logical_block_size: u64,
}
