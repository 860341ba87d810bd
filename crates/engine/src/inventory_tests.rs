//! Fake sysfs trees with the layouts of real machines' (links resolved as the kernel's are).

use super::*;
use crate::test_support::TempDir;
use std::path::PathBuf;

struct Tree(TempDir);

impl Tree {
    fn new(tag: &str) -> Tree {
        Tree(TempDir::new(tag))
    }
    fn root(&self) -> PathBuf {
        self.0.path().to_path_buf()
    }
    fn file(&self, rel: &str, text: &str) -> &Self {
        let p = self.0.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, format!("{text}\n")).unwrap();
        self
    }
    /// `rel` links to `to` (both under the root).
    fn link(&self, rel: &str, to: &str) -> &Self {
        let p = self.0.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::create_dir_all(self.0.join(to)).unwrap();
        std::os::unix::fs::symlink(self.0.join(to), p).unwrap();
        self
    }
    /// A disk `name` whose device directory is `dev` with driver `drv`, and its queue.
    fn disk(&self, name: &str, dev: &str, drv: Option<&str>) -> &Self {
        let node = format!("{dev}/block/{name}");
        self.link(&format!("sys/block/{name}"), &node)
            .link(&format!("{node}/device"), dev)
            .link(&format!("sys/class/block/{name}"), &node)
            .file(&format!("{node}/queue/nr_requests"), "64")
            .file(&format!("{node}/queue/write_cache"), "write back")
            .file(&format!("{node}/queue/rotational"), "0")
            .file(&format!("{node}/queue/scheduler"), "[none] mq-deadline")
            .file(&format!("{node}/queue/logical_block_size"), "512")
            .file(&format!("{node}/queue/physical_block_size"), "512");
        if let Some(d) = drv {
            self.link(&format!("{dev}/driver"), &format!("sys/bus/drivers/{d}"));
        }
        self
    }
    /// Sets queue file `k` of `disk` (a disk made by [`Tree::disk`]).
    fn queue(&self, disk: &str, k: &str, v: &str) -> &Self {
        let node = std::fs::canonicalize(self.0.join(format!("sys/block/{disk}"))).unwrap();
        std::fs::write(node.join("queue").join(k), format!("{v}\n")).unwrap();
        self
    }
    fn facts(&self, disk: &str) -> TargetInfo {
        let mut t = TargetInfo::default();
        disk_facts(&self.root(), disk, &mut t);
        t
    }
}

#[test]
fn nvme() {
    let t = Tree::new("inv-nvme");
    let pci = "sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0";
    t.link(&format!("{pci}/driver"), "sys/bus/drivers/nvme");
    let ctrl = format!("{pci}/nvme/nvme0");
    t.file(&format!("{ctrl}/model"), "Samsung SSD 980 PRO 1TB")
        .file(&format!("{ctrl}/firmware_rev"), "5B2QGXA7")
        .disk("nvme0n1", &ctrl, None)
        .queue("nvme0n1", "logical_block_size", "4096")
        .queue("nvme0n1", "physical_block_size", "4096");
    let f = t.facts("nvme0n1");
    assert_eq!(f.rotational, Some(false));
    assert_eq!(f.scheduler.as_deref(), Some("none"));
    assert_eq!(block_sizes(&t.root(), "nvme0n1"), (Some(4096), Some(4096)));
    assert_eq!(f.driver.as_deref(), Some("nvme"));
    assert_eq!(f.firmware.as_deref(), Some("5B2QGXA7"));
    assert_eq!(f.device_model.as_deref(), Some("Samsung SSD 980 PRO 1TB"));
    assert_eq!(f.nr_requests, Some(64));
    assert_eq!(f.write_cache.as_deref(), Some("write back"));
    assert!(f.layers.is_empty());
}

/// A SATA disk behind AHCI, and an IDE disk of a QEMU guest behind ata_piix.
#[test]
fn sd_over_ahci_and_ide() {
    let t = Tree::new("inv-sd");
    for (pci, drv, disk, model) in [
        ("0000:00:1f.2", "ahci", "sda", "Samsung SSD 860"),
        ("0000:00:01.1", "ata_piix", "sdb", "QEMU HARDDISK"),
    ] {
        let p = format!("sys/devices/pci0000:00/{pci}");
        t.link(&format!("{p}/driver"), &format!("sys/bus/drivers/{drv}"));
        let scsi = format!("{p}/ata1/host0/target0:0:0/0:0:0:0");
        t.file(&format!("{scsi}/model"), model)
            .file(&format!("{scsi}/rev"), "RVT0")
            .disk(disk, &scsi, Some("sd"));
    }
    t.queue("sda", "scheduler", "none [mq-deadline] kyber bfq")
        .queue("sdb", "rotational", "1")
        .queue("sdb", "scheduler", "mq-deadline kyber [bfq] none")
        .queue("sdb", "physical_block_size", "4096");
    let a = t.facts("sda");
    assert_eq!(a.driver.as_deref(), Some("sd, ahci"));
    assert_eq!(a.firmware.as_deref(), Some("RVT0"));
    assert_eq!(a.device_model.as_deref(), Some("Samsung SSD 860"));
    assert_eq!(
        (a.rotational, a.scheduler.as_deref()),
        (Some(false), Some("mq-deadline"))
    );
    let b = t.facts("sdb");
    assert_eq!(b.driver.as_deref(), Some("sd, ata_piix"));
    assert_eq!(b.device_model.as_deref(), Some("QEMU HARDDISK"));
    assert_eq!(
        (b.rotational, b.scheduler.as_deref()),
        (Some(true), Some("bfq"))
    );
    // A 512e disk: 512-byte sectors written 4 KiB at a time.
    assert_eq!(block_sizes(&t.root(), "sdb"), (Some(512), Some(4096)));
}

/// virtio-blk (vda) and virtio-scsi (sdc) in a KVM guest.
#[test]
fn virtio_blk_and_virtio_scsi() {
    let t = Tree::new("inv-virtio");
    let pci = "sys/devices/pci0000:00/0000:00:04.0";
    t.link(&format!("{pci}/driver"), "sys/bus/drivers/virtio-pci")
        .disk("vda", &format!("{pci}/virtio2"), Some("virtio_blk"));
    let pci2 = "sys/devices/pci0000:00/0000:00:05.0";
    let v = format!("{pci2}/virtio3");
    t.link(&format!("{pci2}/driver"), "sys/bus/drivers/virtio-pci")
        .link(&format!("{v}/driver"), "sys/bus/drivers/virtio_scsi")
        .disk("sdc", &format!("{v}/host2/target2:0:0/2:0:0:0"), Some("sd"));
    let vda = t.facts("vda");
    assert_eq!(vda.driver.as_deref(), Some("virtio_blk, virtio-pci"));
    // virtio-blk tells no model nor firmware (the host's disk is not the guest's to know).
    assert_eq!((vda.device_model, vda.firmware), (None, None));
    assert_eq!(vda.scheduler.as_deref(), Some("none"));
    assert_eq!(
        t.facts("sdc").driver.as_deref(),
        Some("sd, virtio_scsi, virtio-pci")
    );
}

#[test]
fn rbd_image() {
    let t = Tree::new("inv-rbd");
    t.disk("rbd0", "sys/devices/rbd/0", None)
        .file("sys/devices/rbd/0/pool", "rbd")
        .file("sys/devices/rbd/0/name", "bench")
        .link("sys/bus/rbd/devices/0", "sys/devices/rbd/0");
    t.queue("rbd0", "scheduler", "none")
        .queue("rbd0", "logical_block_size", "512")
        .queue("rbd0", "physical_block_size", "4194304");
    let f = t.facts("rbd0");
    assert_eq!(f.driver.as_deref(), Some("rbd"));
    assert_eq!(f.scheduler.as_deref(), Some("none"));
    // An rbd image's physical block is its object (4 MiB by default).
    assert_eq!(block_sizes(&t.root(), "rbd0"), (Some(512), Some(4 << 20)));
    assert_eq!(f.layers, ["rbd0: rbd image rbd/bench"]);
}

/// dm (LVM) over md raid1 over a partition and a whole disk; a loop device's backing file.
#[test]
fn dm_over_md_over_disks_and_loop() {
    let t = Tree::new("inv-md");
    let pci = "sys/devices/pci0000:00/0000:00:1f.2";
    t.link(&format!("{pci}/driver"), "sys/bus/drivers/ahci");
    for (i, d) in ["sda", "sdb"].iter().enumerate() {
        let scsi = format!("{pci}/ata{i}/host{i}/target{i}:0:0/{i}:0:0:0");
        t.file(&format!("{scsi}/model"), "WDC WD40EFRX")
            .disk(d, &scsi, Some("sd"));
    }
    // sda2: a partition of sda.
    let sda = std::fs::canonicalize(t.0.join("sys/block/sda")).unwrap();
    let sda = sda.strip_prefix(t.0.path()).unwrap().display().to_string();
    t.file(&format!("{sda}/sda2/partition"), "2")
        .link("sys/class/block/sda2", &format!("{sda}/sda2"));
    let md = "sys/devices/virtual/block/md0";
    t.link("sys/block/md0", md)
        .file(&format!("{md}/md/level"), "raid1")
        .link(&format!("{md}/slaves/sda2"), &format!("{sda}/sda2"))
        .link(&format!("{md}/slaves/sdb"), "sys/block/sdb");
    let dm = "sys/devices/virtual/block/dm-0";
    t.link("sys/block/dm-0", dm)
        .file(&format!("{dm}/dm/name"), "vg-data")
        .link(&format!("{dm}/slaves/md0"), md);
    let lo = "sys/devices/virtual/block/loop0";
    t.link("sys/block/loop0", lo)
        .file(&format!("{lo}/loop/backing_file"), "/var/tmp/disk.img");
    t.file(&format!("{md}/queue/rotational"), "1")
        .file(&format!("{md}/queue/scheduler"), "none")
        .file(&format!("{md}/queue/logical_block_size"), "0");
    let m = t.facts("md0");
    assert_eq!(m.driver.as_deref(), Some("md raid1"));
    assert_eq!(
        (m.rotational, m.scheduler.as_deref()),
        (Some(true), Some("none"))
    );
    assert_eq!(
        block_sizes(&t.root(), "md0"),
        (None, None),
        "0 and missing are unknown"
    );
    let f = t.facts("dm-0");
    assert_eq!(f.driver.as_deref(), Some("device-mapper"));
    assert_eq!((f.rotational, f.scheduler), (None, None));
    assert_eq!(
        f.layers,
        [
            "dm-0: device-mapper vg-data",
            "dm-0 over md0: md raid1",
            "md0: md raid1",
            "md0 over sda2 (partition of sda): WDC WD40EFRX, sd, ahci",
            "md0 over sdb: WDC WD40EFRX, sd, ahci",
        ]
    );
    let l = t.facts("loop0");
    assert_eq!(l.driver.as_deref(), Some("loop"));
    assert_eq!(l.layers, ["loop0: loop over /var/tmp/disk.img"]);
}

#[test]
fn host_distribution_cpu_and_virtualization() {
    let t = Tree::new("inv-host");
    t.file(
        "etc/os-release",
        "NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"",
    )
    .file(
        "proc/cpuinfo",
        "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz",
    )
    .file("sys/class/dmi/id/sys_vendor", "QEMU")
    .file("sys/class/dmi/id/product_name", "Standard PC (Q35 + ICH9, 2009)");
    let mut h = HostInfo::default();
    host_facts(&t.root(), &mut h);
    assert_eq!(h.os, "Debian GNU/Linux 12 (bookworm)");
    assert_eq!(h.cpu_model, "Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz");
    assert_eq!(h.virtualization, "qemu");
    assert_eq!(h.machine, "QEMU Standard PC (Q35 + ICH9, 2009)");
    assert_eq!(h.cloud, "");
    // Azure: Hyper-V with Azure's asset tag; a container's mark wins over the DMI strings.
    t.file("sys/class/dmi/id/sys_vendor", "Microsoft Corporation")
        .file("sys/class/dmi/id/product_name", "Virtual Machine")
        .file(
            "sys/class/dmi/id/chassis_asset_tag",
            "7783-7084-3265-9085-8269-3286-77",
        );
    host_facts(&t.root(), &mut h);
    assert_eq!(
        (h.virtualization.as_str(), h.cloud.as_str()),
        ("microsoft", "azure")
    );
    t.file("sys/class/dmi/id/sys_vendor", "Amazon EC2")
        .file("sys/class/dmi/id/product_name", "m5.large")
        .file("sys/class/dmi/id/chassis_asset_tag", "");
    host_facts(&t.root(), &mut h);
    assert_eq!(
        (h.virtualization.as_str(), h.cloud.as_str()),
        ("amazon", "aws")
    );
    t.file(".dockerenv", "");
    host_facts(&t.root(), &mut h);
    assert_eq!(h.virtualization, "container (docker)");
}
