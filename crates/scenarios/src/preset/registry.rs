//! Every preset, as data. Each says where its recipe comes from.

use super::{Dirs, Expect, Figure, Metric, Preset, PresetJob};
use crate::repeat::Agg;

const fn job(name: &'static str, options: &'static [(&'static str, &'static str)]) -> PresetJob {
    PresetJob {
        name,
        options,
        warmup: false,
    }
}

const fn warmup(name: &'static str, options: &'static [(&'static str, &'static str)]) -> PresetJob {
    PresetJob {
        name,
        options,
        warmup: true,
    }
}

use Dirs::{Read as R, Write as W};
use Metric::{Bw, Iops, LatMean, LatP99};

const MIB: u64 = 1 << 20;

/// A backup repository: the operations a backup server performs, each as one job.
pub const BACKUP_REPO: Preset = Preset {
    name: "backup-repo",
    title: "backup repository: full, incremental, merge and restore speeds",
    source: "the backup repository simulation published for Veeam Backup & Replication (fio, 512 KiB blocks)",
    globals: &[
        ("ioengine", "libaio"),
        ("direct", "1"),
        ("bs", "512k"),
        ("size", "{size}"),
        ("time_based", "1"),
        ("runtime", "{runtime}"),
        ("stonewall", "1"),
    ],
    jobs: &[
        job("active-full", &[("rw", "write")]),
        job(
            "synthetic-full",
            &[("rw", "randrw"), ("rwmixwrite", "50"), ("iodepth", "4")],
        ),
        job(
            "reverse-incremental",
            &[("rw", "randrw"), ("rwmixwrite", "67"), ("iodepth", "4")],
        ),
        job("restore-sequential", &[("rw", "read")]),
        job("restore-fragmented", &[("rw", "randread")]),
    ],
    figures: &[
        Figure::new("active full / forward incremental", &["active-full"], Bw),
        Figure::new("synthetic full (merge)", &["synthetic-full"], Bw).divided(
            2.0,
            "synthetic full: each block is read once and written once, so effective = (read + write) / 2",
        ),
        Figure::new("reverse incremental", &["reverse-incremental"], Bw).divided(
            3.0,
            "reverse incremental: each block costs one read and two writes (new data in, old data out to the rollback), so effective = (read + write) / 3",
        ),
        Figure::new("restore from sequential reads (upper bound)", &["restore-sequential"], Bw).dirs(R),
        Figure::new("restore from random reads (lower bound)", &["restore-fragmented"], Bw).dirs(R),
    ],
    ranges: &[(
        "restore",
        "restore from random reads (lower bound)",
        "restore from sequential reads (upper bound)",
    )],
    reading: &[
        "Each figure is the speed of one backup operation as the repository sees it.",
        "A restore runs somewhere between the random-read and the sequential-read figure, depending on how fragmented the backup files are.",
    ],
    size: 1 << 30,
    runtime_s: 20,
    warmup_s: 0,
    loops: 1,
    agg: Agg::Mean,
};

/// A provisioned cloud disk: does it reach its IOPS and throughput limits after a warm-up?
pub const CLOUD_DISK: Preset = Preset {
    name: "cloud-disk",
    title: "cloud disk: provisioned IOPS and throughput after a cache warm-up",
    source: "the Azure premium disk benchmarking guide (fio job files fiowrite.ini, fioread.ini, fioreadwrite.ini: 8 KiB QD 256 x 4 jobs, 4 KiB mixed with rate-capped writers)",
    globals: &[
        ("ioengine", "libaio"),
        ("direct", "1"),
        ("size", "{size}"),
        ("time_based", "1"),
        ("runtime", "{runtime}"),
    ],
    jobs: &[
        warmup(
            "warmup-write",
            &[
                ("rw", "randwrite"),
                ("bs", "1m"),
                ("iodepth", "32"),
                ("runtime", "{warmup}"),
                ("stonewall", "1"),
            ],
        ),
        warmup(
            "warmup-read",
            &[
                ("rw", "randread"),
                ("bs", "1m"),
                ("iodepth", "32"),
                ("runtime", "{warmup}"),
                ("stonewall", "1"),
            ],
        ),
        job(
            "max-write-iops",
            &[
                ("rw", "randwrite"),
                ("bs", "8k"),
                ("iodepth", "256"),
                ("numjobs", "4"),
                ("stonewall", "1"),
            ],
        ),
        job(
            "max-read-iops",
            &[
                ("rw", "randread"),
                ("bs", "8k"),
                ("iodepth", "256"),
                ("numjobs", "4"),
                ("stonewall", "1"),
            ],
        ),
        job(
            "mixed-read",
            &[
                ("rw", "randread"),
                ("bs", "4k"),
                ("iodepth", "128"),
                ("numjobs", "4"),
                ("stonewall", "1"),
            ],
        ),
        job(
            "mixed-write",
            &[
                ("rw", "randwrite"),
                ("bs", "4k"),
                ("iodepth", "128"),
                ("numjobs", "4"),
                ("rate_iops", "12500"),
            ],
        ),
        job(
            "max-write-throughput",
            &[
                ("rw", "randwrite"),
                ("bs", "64k"),
                ("iodepth", "64"),
                ("numjobs", "4"),
                ("stonewall", "1"),
            ],
        ),
        job(
            "max-read-throughput",
            &[
                ("rw", "randread"),
                ("bs", "64k"),
                ("iodepth", "64"),
                ("numjobs", "4"),
                ("stonewall", "1"),
            ],
        ),
        job(
            "max-combined-throughput",
            &[
                ("rw", "randrw"),
                ("rwmixread", "50"),
                ("bs", "64k"),
                ("iodepth", "64"),
                ("numjobs", "4"),
                ("stonewall", "1"),
            ],
        ),
    ],
    figures: &[
        Figure::new("max write IOPS (8 KiB)", &["max-write-iops"], Iops)
            .dirs(W)
            .expect(Expect::Iops, "write.iops"),
        Figure::new("max read IOPS (8 KiB)", &["max-read-iops"], Iops)
            .dirs(R)
            .expect(Expect::Iops, "read.iops"),
        Figure::new(
            "mixed IOPS (4 KiB, writers capped)",
            &["mixed-read", "mixed-write"],
            Iops,
        )
        .expect(Expect::Iops, "combined.iops"),
        Figure::new("max write throughput (64 KiB)", &["max-write-throughput"], Bw)
            .dirs(W)
            .expect(Expect::Mbps, "write.mbps"),
        Figure::new("max read throughput (64 KiB)", &["max-read-throughput"], Bw)
            .dirs(R)
            .expect(Expect::Mbps, "read.mbps"),
        Figure::new(
            "max combined throughput (64 KiB, 50 % reads)",
            &["max-combined-throughput"],
            Bw,
        )
        .expect(Expect::Mbps, "combined.mbps"),
    ],
    ranges: &[],
    reading: &[
        "The warm-up (1 MiB random writes, then reads) fills the host cache and is not part of any figure.",
        "Compare each figure with the disk's own limit: --disk TYPE (iomark preset disks lists them), --expect KEY=N per figure (read.iops, write.iops, combined.iops, read.mbps, write.mbps, combined.mbps), or --expect-iops/--expect-mbps for every IOPS or MB/s figure.",
        "A cloud disk's IOPS and MB/s limits count reads and writes together: the combined figures are the ones its limits name; the read and write figures show each direction alone.",
        "The mixed figure runs the reads flat out beside writers capped at 12,500 IOPS each.",
    ],
    size: 1 << 30,
    runtime_s: 30,
    warmup_s: 30,
    loops: 1,
    agg: Agg::Mean,
};

/// A Ceph RBD image mapped as a block device: bandwidth, IOPS and latency, read and write.
pub const RBD_MATRIX: Preset = Preset {
    name: "rbd-matrix",
    title: "Ceph RBD image: bandwidth, IOPS and latency, read and write",
    source: "the fio runs published for a mapped Ceph RBD image (/dev/rbd0): 1 MiB QD 64 x 16 jobs with offset_increment, 4 KiB QD 256, 4 KiB QD 4",
    globals: &[
        ("ioengine", "libaio"),
        ("direct", "1"),
        ("verify", "0"),
        ("randrepeat", "0"),
        ("filesize", "{size}"),
        ("time_based", "1"),
        ("ramp_time", "{ramp}"),
        ("runtime", "{runtime}"),
        ("stonewall", "1"),
    ],
    jobs: &[
        job(
            "write-bandwidth",
            &[
                ("rw", "write"),
                ("bs", "1m"),
                ("iodepth", "64"),
                ("numjobs", "16"),
                ("size", "{size/16}"),
                ("offset_increment", "{size/16}"),
                ("group_reporting", "1"),
            ],
        ),
        job(
            "read-bandwidth",
            &[
                ("rw", "read"),
                ("bs", "1m"),
                ("iodepth", "64"),
                ("numjobs", "16"),
                ("size", "{size/16}"),
                ("offset_increment", "{size/16}"),
                ("group_reporting", "1"),
            ],
        ),
        job(
            "write-iops",
            &[("rw", "randwrite"), ("bs", "4k"), ("iodepth", "256")],
        ),
        job(
            "read-iops",
            &[("rw", "randread"), ("bs", "4k"), ("iodepth", "256")],
        ),
        job(
            "write-latency",
            &[("rw", "randwrite"), ("bs", "4k"), ("iodepth", "4")],
        ),
        job(
            "read-latency",
            &[("rw", "randread"), ("bs", "4k"), ("iodepth", "4")],
        ),
    ],
    figures: &[
        Figure::new("write bandwidth (1 MiB)", &["write-bandwidth"], Bw).dirs(W),
        Figure::new("read bandwidth (1 MiB)", &["read-bandwidth"], Bw).dirs(R),
        Figure::new("write IOPS (4 KiB QD 256)", &["write-iops"], Iops).dirs(W),
        Figure::new("read IOPS (4 KiB QD 256)", &["read-iops"], Iops).dirs(R),
        Figure::new("write latency mean (4 KiB QD 4)", &["write-latency"], LatMean).dirs(W),
        Figure::new("write latency p99 (4 KiB QD 4)", &["write-latency"], LatP99).dirs(W),
        Figure::new("read latency mean (4 KiB QD 4)", &["read-latency"], LatMean).dirs(R),
        Figure::new("read latency p99 (4 KiB QD 4)", &["read-latency"], LatP99).dirs(R),
    ],
    ranges: &[],
    reading: &[
        "Run it on the image through librbd (iomark preset run rbd-matrix rbd:POOL/IMAGE --allow-write) or on the mapped image (/dev/rbd0); a file elsewhere gives the same jobs for comparison.",
        "Bandwidth shows the cluster's network and OSD throughput, IOPS its small-block capacity, latency the round trip at a light load.",
    ],
    size: 1 << 30,
    runtime_s: 60,
    warmup_s: 2,
    loops: 1,
    agg: Agg::Mean,
};

/// The dd block-size ladder, fio 8 KiB sync jobs and bonnie++'s bulk tests, to be run once per
/// guest and compared.
pub const VIRT_COMPARE: Preset = Preset {
    name: "virt-compare",
    title: "hypervisor disk bus comparison: dd block-size ladder, 8 KiB sync fio and bonnie++'s bulk tests, three runs averaged",
    source: "the KVM guest-versus-host disk comparison (dd with iflag/oflag=direct at 1K, 8K, 1M and 8M; fio -ioengine=sync -bs=8k; bonnie++ -x 3)",
    globals: &[
        ("ioengine", "psync"),
        ("direct", "1"),
        ("size", "{size}"),
        ("stonewall", "1"),
    ],
    jobs: &[
        job("dd-write-1k", &[("rw", "write"), ("bs", "1k"), ("end_fsync", "1"), ("size", "{size/4}")]),
        job("dd-write-8k", &[("rw", "write"), ("bs", "8k"), ("end_fsync", "1")]),
        job("dd-write-1m", &[("rw", "write"), ("bs", "1m"), ("end_fsync", "1")]),
        job("dd-write-8m", &[("rw", "write"), ("bs", "8m"), ("end_fsync", "1")]),
        job("dd-read-1k", &[("rw", "read"), ("bs", "1k"), ("size", "{size/4}")]),
        job("dd-read-8k", &[("rw", "read"), ("bs", "8k")]),
        job("dd-read-1m", &[("rw", "read"), ("bs", "1m")]),
        job("dd-read-8m", &[("rw", "read"), ("bs", "8m")]),
        job("fio-read", &[("rw", "read"), ("bs", "8k"), ("ioengine", "sync")]),
        job("fio-write", &[("rw", "write"), ("bs", "8k"), ("ioengine", "sync")]),
        job("fio-randread", &[("rw", "randread"), ("bs", "8k"), ("ioengine", "sync"), ("size", "{size/4}")]),
        job("fio-randwrite", &[("rw", "randwrite"), ("bs", "8k"), ("ioengine", "sync"), ("size", "{size/4}")]),
        job("bonnie-block-output", &[("rw", "write"), ("bs", "8k"), ("ioengine", "sync"), ("fsync", "1"), ("end_fsync", "1"), ("size", "{size/4}")]),
        job("bonnie-rewrite", &[("rw", "rw"), ("bs", "8k"), ("ioengine", "sync"), ("fsync", "1"), ("size", "{size/4}")]),
        job("bonnie-block-input", &[("rw", "read"), ("bs", "8k"), ("ioengine", "sync")]),
        job("bonnie-random-seeks", &[("rw", "randrw"), ("rwmixread", "90"), ("bs", "8k"), ("ioengine", "sync"), ("numjobs", "3"), ("number_ios", "2667"), ("norandommap", "1")]),
    ],
    figures: &[
        Figure::new("dd write 1K", &["dd-write-1k"], Bw).dirs(W),
        Figure::new("dd write 8K", &["dd-write-8k"], Bw).dirs(W),
        Figure::new("dd write 1M", &["dd-write-1m"], Bw).dirs(W),
        Figure::new("dd write 8M", &["dd-write-8m"], Bw).dirs(W),
        Figure::new("dd read 1K", &["dd-read-1k"], Bw).dirs(R),
        Figure::new("dd read 8K", &["dd-read-8k"], Bw).dirs(R),
        Figure::new("dd read 1M", &["dd-read-1m"], Bw).dirs(R),
        Figure::new("dd read 8M", &["dd-read-8m"], Bw).dirs(R),
        Figure::new("fio seq read 8K", &["fio-read"], Bw).dirs(R),
        Figure::new("fio seq write 8K", &["fio-write"], Bw).dirs(W),
        Figure::new("fio rand read 8K IOPS", &["fio-randread"], Iops).dirs(R),
        Figure::new("fio rand write 8K IOPS", &["fio-randwrite"], Iops).dirs(W),
        Figure::new("bonnie++ block output", &["bonnie-block-output"], Bw).dirs(W),
        Figure::new("bonnie++ rewrite", &["bonnie-rewrite"], Bw).divided(
            2.0,
            "bonnie++ rewrite: each 8 KiB chunk is read and written back, so the rewrite rate = (read + write) / 2",
        ),
        Figure::new("bonnie++ block input", &["bonnie-block-input"], Bw).dirs(R),
        Figure::new("bonnie++ random seeks (/s)", &["bonnie-random-seeks"], Iops),
    ],
    ranges: &[],
    reading: &[
        "Run it once in each guest (and on the host) with --result FILE, then put the files side by side with iomark compare.",
        "Each figure is the mean of three runs; a figure marked noisy varied by more than 10 % between them.",
        "The bonnie++ figures are its bulk tests as `bonnie++ -D -b` runs them (8 KiB chunks, O_DIRECT, fsync after every write; 3 seekers sharing 8000 seeks, 10 % written back); its per-char and file tests need `iomark bonnie -d DIR -D -b -x 3`.",
    ],
    size: 256 * MIB,
    runtime_s: 0,
    warmup_s: 0,
    loops: 3,
    agg: Agg::Mean,
};

/// CrystalDiskMark's tests: each a read job then a write job with the same bs, depth and threads.
macro_rules! cdm_jobs {
    ($($label:literal, $rd:literal, $wr:literal, $opts:expr;)*) => {
        &[$(
            job(concat!($label, "-read"), &[("rw", $rd), $opts[0], $opts[1], $opts[2], $opts[3]]),
            job(concat!($label, "-write"), &[("rw", $wr), $opts[0], $opts[1], $opts[2], $opts[3]]),
        )*]
    };
}

const CDM_GLOBALS: &[(&str, &str)] = &[
    ("direct", "1"),
    ("size", "{size}"),
    ("time_based", "1"),
    ("runtime", "{runtime}"),
    ("ramp_time", "{ramp}"),
    ("norandommap", "1"),
    ("stonewall", "1"),
];

const CDM_READING: &[&str] = &[
    "SEQ rows are large sequential transfers (copying big files), RND4K Q1T1 is what one program waiting on each small read sees, RND4K at depth is the drive's small-block capacity.",
    "CrystalDiskMark runs each test five times and shows the best (Real World: the mean) of the five.",
];

const CDM_SOURCE: &str = "CrystalDiskMark 8 and KDiskMark profiles (tests, queue depths, threads, 5 loops; best of the loops, mean for Real World)";

macro_rules! cdm_figs {
    ($($label:literal, $name:literal;)*) => {
        &[$(
            Figure::new(concat!($label, " read"), &[concat!($name, "-read")], Bw).dirs(R),
            Figure::new(concat!($label, " write"), &[concat!($name, "-write")], Bw).dirs(W),
        )*]
    };
}

const fn o(k: &'static str, v: &'static str) -> (&'static str, &'static str) {
    (k, v)
}

/// CrystalDiskMark's Standard profile; `iomark quick` runs the same tests once.
pub const CDM_STANDARD: Preset = Preset {
    name: "cdm-standard",
    title: "CrystalDiskMark Standard: SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1",
    source: CDM_SOURCE,
    globals: CDM_GLOBALS,
    jobs: cdm_jobs![
        "SEQ1M-Q8T1", "read", "write", [o("bs", "1m"), o("iodepth", "8"), o("ioengine", "libaio"), o("numjobs", "1")];
        "SEQ1M-Q1T1", "read", "write", [o("bs", "1m"), o("iodepth", "1"), o("ioengine", "psync"), o("numjobs", "1")];
        "RND4K-Q32T1", "randread", "randwrite", [o("bs", "4k"), o("iodepth", "32"), o("ioengine", "libaio"), o("numjobs", "1")];
        "RND4K-Q1T1", "randread", "randwrite", [o("bs", "4k"), o("iodepth", "1"), o("ioengine", "psync"), o("numjobs", "1")];
    ],
    figures: cdm_figs![
        "SEQ1M Q8T1", "SEQ1M-Q8T1";
        "SEQ1M Q1T1", "SEQ1M-Q1T1";
        "RND4K Q32T1", "RND4K-Q32T1";
        "RND4K Q1T1", "RND4K-Q1T1";
    ],
    ranges: &[],
    reading: CDM_READING,
    size: 1 << 30,
    runtime_s: 5,
    warmup_s: 1,
    loops: 5,
    agg: Agg::Best,
};

/// CrystalDiskMark's NVMe SSD profile.
pub const CDM_NVME: Preset = Preset {
    name: "cdm-nvme",
    title: "CrystalDiskMark NVMe SSD: SEQ1M Q8T1, SEQ128K Q32T1, RND4K Q32T16, RND4K Q1T1",
    source: CDM_SOURCE,
    globals: CDM_GLOBALS,
    jobs: cdm_jobs![
        "SEQ1M-Q8T1", "read", "write", [o("bs", "1m"), o("iodepth", "8"), o("ioengine", "libaio"), o("numjobs", "1")];
        "SEQ128K-Q32T1", "read", "write", [o("bs", "128k"), o("iodepth", "32"), o("ioengine", "libaio"), o("numjobs", "1")];
        "RND4K-Q32T16", "randread", "randwrite", [o("bs", "4k"), o("iodepth", "32"), o("ioengine", "libaio"), o("numjobs", "16")];
        "RND4K-Q1T1", "randread", "randwrite", [o("bs", "4k"), o("iodepth", "1"), o("ioengine", "psync"), o("numjobs", "1")];
    ],
    figures: cdm_figs![
        "SEQ1M Q8T1", "SEQ1M-Q8T1";
        "SEQ128K Q32T1", "SEQ128K-Q32T1";
        "RND4K Q32T16", "RND4K-Q32T16";
        "RND4K Q1T1", "RND4K-Q1T1";
    ],
    ranges: &[],
    reading: CDM_READING,
    size: 1 << 30,
    runtime_s: 5,
    warmup_s: 1,
    loops: 5,
    agg: Agg::Best,
};

/// CrystalDiskMark's Peak Performance profile.
pub const CDM_PEAK: Preset = Preset {
    name: "cdm-peak",
    title: "CrystalDiskMark Peak Performance: SEQ1M Q8T1, RND4K Q32T16",
    source: CDM_SOURCE,
    globals: CDM_GLOBALS,
    jobs: cdm_jobs![
        "SEQ1M-Q8T1", "read", "write", [o("bs", "1m"), o("iodepth", "8"), o("ioengine", "libaio"), o("numjobs", "1")];
        "RND4K-Q32T16", "randread", "randwrite", [o("bs", "4k"), o("iodepth", "32"), o("ioengine", "libaio"), o("numjobs", "16")];
    ],
    figures: cdm_figs![
        "SEQ1M Q8T1", "SEQ1M-Q8T1";
        "RND4K Q32T16", "RND4K-Q32T16";
    ],
    ranges: &[],
    reading: CDM_READING,
    size: 1 << 30,
    runtime_s: 5,
    warmup_s: 1,
    loops: 5,
    agg: Agg::Best,
};

/// CrystalDiskMark's Real World Performance profile (the mean of the loops).
pub const CDM_REAL_WORLD: Preset = Preset {
    name: "cdm-real-world",
    title: "CrystalDiskMark Real World Performance: SEQ1M Q1T1, RND4K Q1T1, mean of the loops",
    source: CDM_SOURCE,
    globals: CDM_GLOBALS,
    jobs: cdm_jobs![
        "SEQ1M-Q1T1", "read", "write", [o("bs", "1m"), o("iodepth", "1"), o("ioengine", "psync"), o("numjobs", "1")];
        "RND4K-Q1T1", "randread", "randwrite", [o("bs", "4k"), o("iodepth", "1"), o("ioengine", "psync"), o("numjobs", "1")];
    ],
    figures: cdm_figs![
        "SEQ1M Q1T1", "SEQ1M-Q1T1";
        "RND4K Q1T1", "RND4K-Q1T1";
    ],
    ranges: &[],
    reading: CDM_READING,
    size: 1 << 30,
    runtime_s: 5,
    warmup_s: 1,
    loops: 5,
    agg: Agg::Mean,
};

/// An OLTP database: 8 KiB random data pages 70/30 beside a synchronous log writer.
pub const OLTP: Preset = Preset {
    name: "oltp",
    title: "OLTP database: 8 KiB random 70 % read data pages beside a synchronous log writer",
    source: "the OLTP mix storage vendors and database sizing guides publish (8 KiB random, 70 % read / 30 % write; the log as small sequential writes each made durable)",
    globals: &[
        ("direct", "1"),
        ("size", "{size}"),
        ("time_based", "1"),
        ("runtime", "{runtime}"),
        ("ramp_time", "{ramp}"),
    ],
    jobs: &[
        job(
            "data",
            &[
                ("rw", "randrw"),
                ("rwmixread", "70"),
                ("bs", "8k"),
                ("ioengine", "libaio"),
                ("iodepth", "16"),
                ("numjobs", "4"),
            ],
        ),
        job(
            "log",
            &[
                ("rw", "write"),
                ("bs", "4k"),
                ("ioengine", "psync"),
                ("fdatasync", "1"),
                ("size", "{size/16}"),
            ],
        ),
    ],
    figures: &[
        Figure::new("data IOPS (8 KiB, 70 % read)", &["data"], Iops),
        Figure::new("data read latency p99", &["data"], LatP99).dirs(R),
        Figure::new("log commits per second", &["log"], Iops).dirs(W),
        Figure::new("log write latency p99", &["log"], LatP99).dirs(W),
    ],
    ranges: &[],
    reading: &[
        "Data IOPS is the transaction capacity; the log latency is what every commit waits for.",
    ],
    size: 1 << 30,
    runtime_s: 30,
    warmup_s: 2,
    loops: 1,
    agg: Agg::Mean,
};

/// Many virtual machines booting at once.
pub const VM_BOOT_STORM: Preset = Preset {
    name: "vm-boot-storm",
    title: "VM boot storm: many guests reading small random blocks at once, 90 % read",
    source: "the boot-storm profile of VDI sizing guides (read-heavy 90/10, mostly 4-16 KiB random, many guests at a shallow depth each)",
    globals: &[
        ("ioengine", "libaio"),
        ("direct", "1"),
        ("size", "{size}"),
        ("time_based", "1"),
        ("runtime", "{runtime}"),
        ("ramp_time", "{ramp}"),
    ],
    jobs: &[job(
        "guests",
        &[
            ("rw", "randrw"),
            ("rwmixread", "90"),
            ("bssplit", "4k/60:8k/20:16k/10:64k/10"),
            ("iodepth", "4"),
            ("numjobs", "16"),
        ],
    )],
    figures: &[
        Figure::new("IOPS (all guests)", &["guests"], Iops),
        Figure::new("throughput", &["guests"], Bw),
        Figure::new("read latency p99", &["guests"], LatP99).dirs(R),
    ],
    ranges: &[],
    reading: &[
        "Divide the IOPS by what one guest needs to boot in time to see how many can boot at once; the p99 read latency is what the slowest boots wait.",
    ],
    size: 1 << 30,
    runtime_s: 30,
    warmup_s: 2,
    loops: 1,
    agg: Agg::Mean,
};

/// A file server: Iometer's file-server access specification.
pub const FILE_SERVER: Preset = Preset {
    name: "file-server",
    title: "file server: Iometer's file-server mix, 512 B to 64 KiB random, 80 % read",
    source: "Iometer's File Server access specification (512 B 10 %, 1 KiB 5 %, 2 KiB 5 %, 4 KiB 60 %, 8 KiB 2 %, 16 KiB 4 %, 32 KiB 4 %, 64 KiB 10 %; 80 % read, 100 % random)",
    globals: &[
        ("ioengine", "libaio"),
        ("direct", "1"),
        ("size", "{size}"),
        ("time_based", "1"),
        ("runtime", "{runtime}"),
        ("ramp_time", "{ramp}"),
    ],
    jobs: &[job(
        "file-server",
        &[
            ("rw", "randrw"),
            ("rwmixread", "80"),
            ("bssplit", "512/10:1k/5:2k/5:4k/60:8k/2:16k/4:32k/4:64k/10"),
            ("iodepth", "16"),
            ("numjobs", "4"),
        ],
    )],
    figures: &[
        Figure::new("IOPS", &["file-server"], Iops),
        Figure::new("throughput", &["file-server"], Bw),
        Figure::new("mean latency", &["file-server"], LatMean),
    ],
    ranges: &[],
    reading: &["The IOPS figure is the one published for this mix; compare it across servers and disks."],
    size: 1 << 30,
    runtime_s: 30,
    warmup_s: 2,
    loops: 1,
    agg: Agg::Mean,
};

/// Every preset, in `preset list` order.
pub const PRESETS: &[&Preset] = &[
    &BACKUP_REPO,
    &CLOUD_DISK,
    &RBD_MATRIX,
    &VIRT_COMPARE,
    &CDM_STANDARD,
    &CDM_NVME,
    &CDM_PEAK,
    &CDM_REAL_WORLD,
    &OLTP,
    &VM_BOOT_STORM,
    &FILE_SERVER,
];

/// A preset by name (`quick` is the Standard profile).
pub fn find(name: &str) -> Option<&'static Preset> {
    let name = if name == "quick" || name == "cdm" {
        "cdm-standard"
    } else {
        name
    };
    PRESETS.iter().copied().find(|p| p.name == name)
}

/// The names, for messages.
pub fn names() -> Vec<&'static str> {
    PRESETS.iter().map(|p| p.name).collect()
}
