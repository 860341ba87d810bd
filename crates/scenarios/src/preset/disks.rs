//! Published limits of common cloud disk types, for `preset run cloud-disk --disk TYPE`: each
//! type's IOPS and throughput limits, which figures they apply to, and where they were
//! published. A cloud disk's limits count reads and writes together, so one limit applies to
//! the read, the write and the combined figure alike.

/// One disk type's published limits.
#[derive(Debug, PartialEq)]
pub struct DiskType {
    /// The name `--disk` takes.
    pub name: &'static str,
    /// What it is, as its provider names it.
    pub title: &'static str,
    /// The provisioned IOPS (reads and writes together).
    pub iops: f64,
    /// The provisioned throughput in MB/s (10^6 bytes), converted when the provider publishes
    /// MiB/s.
    pub mbps: f64,
    /// Where the figures were published, the unit used there and when they were taken.
    pub source: &'static str,
}

const AZURE: &str = "Azure managed disks, Premium SSD sizes table (learn.microsoft.com/azure/virtual-machines/disks-types), base provisioned IOPS and throughput, published in MB/s; figures as published in 2023 (table dated 2023-03-16), checked 2026-11-27";
const AZURE_BURST: &str = "Azure managed disks, Premium SSD sizes table, credit-based bursting rows (learn.microsoft.com/azure/virtual-machines/disks-bursting), P1 to P20, for at most 30 minutes at a time; figures as published in 2023 (table dated 2023-03-16), checked 2026-11-27";
const AWS_GP3: &str = "Amazon EBS volume types, General Purpose SSD gp3 (docs.aws.amazon.com/ebs/latest/userguide/general-purpose.html), baseline 3,000 IOPS and 125 MiB/s (131.1 MB/s) at any size, before any provisioned extra; figures as published in 2024, checked 2026-11-27";

const fn disk(
    name: &'static str,
    title: &'static str,
    iops: f64,
    mbps: f64,
    source: &'static str,
) -> DiskType {
    DiskType {
        name,
        title,
        iops,
        mbps,
        source,
    }
}

/// Every disk type `--disk` knows.
pub const DISKS: &[DiskType] = &[
    disk(
        "azure-p10",
        "Azure Premium SSD P10 (128 GiB)",
        500.0,
        100.0,
        AZURE,
    ),
    disk(
        "azure-p10-burst",
        "Azure Premium SSD P10 (128 GiB), bursting",
        3500.0,
        170.0,
        AZURE_BURST,
    ),
    disk(
        "azure-p15",
        "Azure Premium SSD P15 (256 GiB)",
        1100.0,
        125.0,
        AZURE,
    ),
    disk(
        "azure-p20",
        "Azure Premium SSD P20 (512 GiB)",
        2300.0,
        150.0,
        AZURE,
    ),
    disk(
        "azure-p20-burst",
        "Azure Premium SSD P20 (512 GiB), bursting",
        3500.0,
        170.0,
        AZURE_BURST,
    ),
    disk(
        "azure-p30",
        "Azure Premium SSD P30 (1 TiB)",
        5000.0,
        200.0,
        AZURE,
    ),
    disk(
        "azure-p40",
        "Azure Premium SSD P40 (2 TiB)",
        7500.0,
        250.0,
        AZURE,
    ),
    disk(
        "azure-p50",
        "Azure Premium SSD P50 (4 TiB)",
        7500.0,
        250.0,
        AZURE,
    ),
    disk(
        "azure-p60",
        "Azure Premium SSD P60 (8 TiB)",
        16000.0,
        500.0,
        AZURE,
    ),
    disk(
        "aws-gp3",
        "Amazon EBS gp3, baseline",
        3000.0,
        125.0 * 1.048576,
        AWS_GP3,
    ),
];

/// The disk type named `name`.
pub fn find(name: &str) -> Option<&'static DiskType> {
    DISKS.iter().find(|d| d.name == name)
}

/// The names `--disk` takes, for messages.
pub fn names() -> Vec<&'static str> {
    DISKS.iter().map(|d| d.name).collect()
}

/// `iomark preset disks`: one line per disk type, then the sources.
pub fn list() -> String {
    let mut out = format!("{:<16} {:>8} {:>8}  {}\n", "disk", "IOPS", "MB/s", "type");
    for d in DISKS {
        out.push_str(&format!(
            "{:<16} {:>8.0} {:>8.1}  {}\n",
            d.name, d.iops, d.mbps, d.title
        ));
    }
    out.push_str("\nsources:\n");
    let mut seen: Vec<&str> = Vec::new();
    for d in DISKS {
        if !seen.contains(&d.source) {
            seen.push(d.source);
            out.push_str(&format!("  {}\n", d.source));
        }
    }
    out.push_str("Limits count reads and writes together. A provider can change them: check its page, or give your own with --expect KEY=N.\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_disk_has_limits_and_a_dated_source() {
        for d in DISKS {
            assert!(d.iops > 0.0 && d.mbps > 0.0, "{d:?}");
            assert!(d.source.contains("as published in 20"), "{d:?}");
            assert_eq!(DISKS.iter().filter(|x| x.name == d.name).count(), 1);
        }
        assert_eq!(find("azure-p30").unwrap().iops, 5000.0);
        assert!((find("aws-gp3").unwrap().mbps - 131.072).abs() < 1e-9);
        let l = list();
        assert!(l.contains("azure-p60") && l.contains("16000"), "{l}");
        assert_eq!(l.matches("learn.microsoft.com").count(), 2, "{l}");
    }
}
