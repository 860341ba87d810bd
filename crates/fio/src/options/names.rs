//! The words some options accept that are not enumerations of their own: I/O patterns and
//! engine names.

/// fio's I/O patterns for `rw=`.
pub const RW_MODES: &[&str] = &[
    "read",
    "write",
    "trim",
    "randread",
    "randwrite",
    "randtrim",
    "rw",
    "readwrite",
    "randrw",
    "trimwrite",
    "randtrimwrite",
];

/// I/O engines iomark implements (the engine's own list).
pub const SUPPORTED_ENGINES: &[&str] = iomark_engine::engines::NAMES;

/// Real fio engines that iomark does not implement (an error names them as such).
pub const NOT_YET_ENGINES: &[&str] = &[
    "io_uring_cmd",
    "splice",
    "gfapi",
    "gfapi_async",
    "mtd",
    "sg",
    "rdma",
    "pmemblk",
    "dev-dax",
    "libpmem",
    "http",
    "libblkio",
    "xnvme",
    "libcufile",
    "libhipfile",
    "dfs",
    "nfs",
    "libiscsi",
    "libzbc",
    "windowsaio",
    "solarisaio",
    "dircreate",
    "dirstat",
    "dirdelete",
    "page_fault",
    "guasi",
    "binject",
    "syslet-rw",
    "cpp_null",
    "ime_psync",
    "ime_psyncv",
    "ime_aio",
    "libhdfs",
    "librpma_apm_client",
    "librpma_apm_server",
    "librpma_gpspm_client",
    "librpma_gpspm_server",
];

/// Why each engine of `NOT_YET_ENGINES` is refused: what running it would need. An engine not
/// listed here is refused with the general reason.
pub const NOT_YET_REASONS: &[(&str, &str)] = &[
    ("io_uring_cmd", "NVMe passthrough needs an NVMe character device (/dev/ngXnY) and its command set, not implemented"),
    ("splice", "I/O through splice and vmsplice is not implemented"),
    ("gfapi", "it needs GlusterFS's libgfapi and a Gluster volume"),
    ("gfapi_async", "it needs GlusterFS's libgfapi and a Gluster volume"),
    ("mtd", "it needs an MTD flash device and libmtd"),
    ("sg", "SCSI generic passthrough needs an sg device and its command set, not implemented"),
    ("rdma", "it needs RDMA hardware and librdmacm"),
    ("rados", "it needs Ceph's librados and a cluster"),
    ("rbd", "it needs Ceph's librbd and a cluster"),
    ("pmemblk", "it needs PMDK's libpmemblk (removed from later fios)"),
    ("dev-dax", "it needs a device-DAX character device (/dev/daxX.Y) and libpmem"),
    ("libpmem", "it needs PMDK's libpmem and persistent memory"),
    ("http", "HTTP and S3 object I/O (libcurl) is not implemented"),
    ("libblkio", "it needs libblkio"),
    ("xnvme", "it needs the xNVMe library"),
    ("libcufile", "it needs NVIDIA's cuFile and a GPU"),
    ("libhipfile", "it needs AMD's hipFile and a GPU"),
    ("dfs", "it needs DAOS's libdfs and a DAOS pool"),
    ("nfs", "it needs libnfs and an NFS server"),
    ("libiscsi", "it needs libiscsi and an iSCSI target"),
    ("libzbc", "it needs libzbc and a zoned SCSI or ATA device"),
    ("windowsaio", "it is Windows's engine"),
    ("solarisaio", "it is Solaris's engine"),
    ("dircreate", "fio 3.33 has no such engine (later fios make one directory per I/O)"),
    ("dirstat", "fio 3.33 has no such engine (later fios stat one directory per I/O)"),
    ("dirdelete", "fio 3.33 has no such engine (later fios remove one directory per I/O)"),
    ("page_fault", "fio 3.33 has no such engine (later fios fault in mmap pages)"),
    ("guasi", "fio 3.33 no longer has this engine"),
    ("binject", "fio 3.33 no longer has this engine"),
    ("syslet-rw", "fio 3.33 no longer has this engine"),
    ("cpp_null", "it is fio's example of an engine written in C++, built apart from fio and loaded at run time"),
    ("ime_psync", "it needs DDN's IME native client and an IME file system"),
    ("ime_psyncv", "it needs DDN's IME native client and an IME file system"),
    ("ime_aio", "it needs DDN's IME native client and an IME file system"),
    ("libhdfs", "it needs Hadoop's libhdfs and an HDFS cluster"),
    ("librpma_apm_client", "it needs librpma and RDMA hardware with persistent memory"),
    ("librpma_apm_server", "it needs librpma and RDMA hardware with persistent memory"),
    ("librpma_gpspm_client", "it needs librpma and RDMA hardware with persistent memory"),
    ("librpma_gpspm_server", "it needs librpma and RDMA hardware with persistent memory"),
];

/// Why `name` (an engine of `NOT_YET_ENGINES`) is refused.
pub fn not_yet_reason(name: &str) -> &'static str {
    NOT_YET_REASONS
        .iter()
        .find(|(n, _)| *n == name)
        .map_or("it is not implemented in iomark yet", |(_, why)| why)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_engine_not_yet_has_its_reason() {
        for e in NOT_YET_ENGINES {
            assert!(
                NOT_YET_REASONS.iter().any(|(n, _)| n == e),
                "{e} has no reason"
            );
        }
    }
}
