//! The files a worker runs on, as the runner prepared them. Shared by the worker and its
//! verifier, so it lives below both.

/// A file of a worker with its I/O region.
#[derive(Clone, Debug)]
pub(crate) struct WorkerFile {
    pub(crate) path: std::path::PathBuf,
    pub(crate) is_block: bool,
    pub(crate) is_char: bool,
    /// Size of the file or device.
    pub(crate) size: u64,
    /// I/O region inside the file.
    pub(crate) region_start: u64,
    pub(crate) region_len: u64,
    /// Logical block size of the file's device (of its directory's for a regular file; 512 when
    /// unknown); I/O buffers are aligned to it.
    pub(crate) logical_block_size: u64,
}
