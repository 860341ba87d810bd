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
    "cpuio",
    "net",
    "netsplice",
    "ftruncate",
    "exec",
    "falloc",
    "e4defrag",
    "splice",
    "gfapi",
    "gfapi_async",
    "mtd",
    "sg",
    "nbd",
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
];
