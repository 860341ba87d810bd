//! The system a run measured, as far as the kernel tells it without a network call: the
//! distribution, CPU model and virtualization of the host (from `/etc/os-release`,
//! `/proc/cpuinfo` and the DMI strings, decided as `systemd-detect-virt` does), and for a
//! target's disk its firmware, driver stack (nvme; sd over ahci, ata_piix or virtio_scsi;
//! virtio_blk; rbd; loop and its backing file; dm and md down to their disks), queue settings
//! and write cache. Every reader takes the root of the tree it reads (`/` on a live system, a
//! copy in the tests).

use crate::result::{HostInfo, TargetInfo};
use std::path::Path;

fn read(root: &Path, rel: &str) -> Option<String> {
    let s = std::fs::read_to_string(root.join(rel.trim_start_matches('/'))).ok()?;
    let s = s.trim();
    (!s.is_empty()).then(|| s.to_string())
}

/// The name of the file a link points to (a driver, a device).
fn link_name(p: &Path) -> Option<String> {
    let t = std::fs::read_link(p).ok()?;
    Some(t.file_name()?.to_string_lossy().into_owned())
}

/// Fills the host's distribution, CPU model and virtualization.
pub fn host_facts(root: &Path, h: &mut HostInfo) {
    h.os = os_release(root).unwrap_or_default();
    h.cpu_model = cpu_model(root).unwrap_or_default();
    let vendor = read(root, "sys/class/dmi/id/sys_vendor").unwrap_or_default();
    let product = read(root, "sys/class/dmi/id/product_name").unwrap_or_default();
    let board = read(root, "sys/class/dmi/id/board_vendor").unwrap_or_default();
    let bios = read(root, "sys/class/dmi/id/bios_vendor").unwrap_or_default();
    let asset = read(root, "sys/class/dmi/id/chassis_asset_tag").unwrap_or_default();
    h.virtualization = container(root)
        .or_else(|| virt_from_dmi(&[&vendor, &product, &board, &bios]))
        .unwrap_or_default();
    h.cloud = cloud(&vendor, &product, &bios, &asset).unwrap_or_default();
    h.machine = [vendor, product]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
}

fn os_release(root: &Path) -> Option<String> {
    let text = read(root, "etc/os-release").or_else(|| read(root, "usr/lib/os-release"))?;
    let field = |k: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(k)?.strip_prefix('='))
            .map(|v| v.trim_matches('"').to_string())
    };
    field("PRETTY_NAME").or_else(|| field("NAME"))
}

fn cpu_model(root: &Path) -> Option<String> {
    let text = read(root, "proc/cpuinfo")?;
    text.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        matches!(k.trim(), "model name" | "Model" | "cpu model" | "uarch")
            .then(|| v.trim().to_string())
    })
}

/// A container, from the marks container engines leave.
fn container(root: &Path) -> Option<String> {
    if root.join("run/.containerenv").exists() {
        return Some("container (podman)".into());
    }
    if root.join(".dockerenv").exists() {
        return Some("container (docker)".into());
    }
    let cg = read(root, "proc/1/cgroup").unwrap_or_default();
    ["docker", "lxc", "kubepods"]
        .into_iter()
        .find(|k| cg.contains(k))
        .map(|k| format!("container ({k})"))
}

/// The hypervisor named by the DMI strings (systemd-detect-virt's table).
fn virt_from_dmi(strings: &[&str]) -> Option<String> {
    const TABLE: &[(&str, &str)] = &[
        ("KVM", "kvm"),
        ("OpenStack", "kvm"),
        ("KubeVirt", "kvm"),
        ("Amazon EC2", "amazon"),
        ("QEMU", "qemu"),
        ("VMware", "vmware"),
        ("VMW", "vmware"),
        ("innotek GmbH", "oracle"),
        ("VirtualBox", "oracle"),
        ("Oracle Corporation", "oracle"),
        ("Xen", "xen"),
        ("Bochs", "bochs"),
        ("Parallels", "parallels"),
        ("BHYVE", "bhyve"),
        ("Hyper-V", "microsoft"),
        ("Apple Virtualization", "apple"),
        ("Google Compute Engine", "google"),
    ];
    for s in strings {
        if let Some((_, v)) = TABLE.iter().find(|(k, _)| s.starts_with(k)) {
            return Some((*v).to_string());
        }
    }
    // Hyper-V: "Microsoft Corporation" "Virtual Machine".
    (strings.first() == Some(&"Microsoft Corporation")
        && strings.get(1) == Some(&"Virtual Machine"))
    .then(|| "microsoft".to_string())
}

/// The cloud vendor the DMI strings name.
fn cloud(vendor: &str, product: &str, bios: &str, asset: &str) -> Option<String> {
    let any = |k: &str| [vendor, product, bios].iter().any(|s| s.contains(k));
    let name = if any("Amazon EC2") || bios == "Amazon EC2" {
        "aws"
    } else if any("Google") {
        "gcp"
    } else if asset == "7783-7084-3265-9085-8269-3286-77" {
        "azure"
    } else if any("Alibaba Cloud") {
        "alibaba"
    } else if any("DigitalOcean") {
        "digitalocean"
    } else if any("Hetzner") {
        "hetzner"
    } else if any("OpenStack") {
        "openstack"
    } else if vendor == "Oracle Corporation" && asset == "OracleCloud.com" {
        "oracle"
    } else {
        return None;
    };
    Some(name.into())
}

/// Fills what sysfs (under `root`) tells of `disk` (a name in `/sys/block`): its model,
/// firmware, queue (scheduler, rotational, `nr_requests`, write cache), driver and layers.
pub fn disk_facts(root: &Path, disk: &str, t: &mut TargetInfo) {
    let b = format!("sys/block/{disk}");
    let q = format!("{b}/queue");
    t.scheduler = read(root, &format!("{q}/scheduler")).and_then(|s| parse_scheduler(&s));
    t.rotational = read(root, &format!("{q}/rotational")).map(|s| s == "1");
    t.nr_requests = read(root, &format!("{q}/nr_requests")).and_then(|s| s.parse().ok());
    t.write_cache = read(root, &format!("{q}/write_cache"));
    t.firmware = read(root, &format!("{b}/device/firmware_rev"))
        .or_else(|| read(root, &format!("{b}/device/rev")));
    if t.device_model.is_none() {
        t.device_model = read(root, &format!("{b}/device/model"));
    }
    t.driver = driver(root, disk);
    t.layers = layers(root, disk, 0);
}

/// The logical and physical block sizes of `disk`'s queue (none that reads 0).
pub fn block_sizes(root: &Path, disk: &str) -> (Option<u64>, Option<u64>) {
    let size = |k: &str| {
        read(root, &format!("sys/block/{disk}/queue/{k}"))
            .and_then(|s| s.parse::<u64>().ok())
            .filter(|&v| v > 0)
    };
    (size("logical_block_size"), size("physical_block_size"))
}

/// The scheduler a queue's `scheduler` file names: the one in brackets among several
/// (`none [mq-deadline] kyber`), or the only one.
pub fn parse_scheduler(s: &str) -> Option<String> {
    if let (Some(a), Some(b)) = (s.find('['), s.find(']')) {
        if b > a + 1 {
            return Some(s[a + 1..b].to_string());
        }
    }
    let mut words = s.split_whitespace();
    match (words.next(), words.next()) {
        (Some(w), None) => Some(w.to_string()),
        _ => None,
    }
}

/// The drivers from the disk up to its controller, nearest first (`sd, ahci`), or what a
/// virtual disk is (`loop`, `device-mapper`, `md raid1`, `rbd`).
pub fn driver(root: &Path, disk: &str) -> Option<String> {
    let b = root.join(format!("sys/block/{disk}"));
    if b.join("loop").exists() {
        return Some("loop".into());
    }
    if b.join("dm").exists() {
        return Some("device-mapper".into());
    }
    if let Some(level) = read(root, &format!("sys/block/{disk}/md/level")) {
        return Some(format!("md {level}"));
    }
    if disk.starts_with("rbd") {
        return Some("rbd".into());
    }
    let dev = std::fs::canonicalize(b.join("device")).ok()?;
    let mut names: Vec<String> = Vec::new();
    for d in dev.ancestors().take_while(|d| d.starts_with(root)).take(12) {
        if let Some(n) = link_name(&d.join("driver")) {
            if !names.contains(&n) {
                names.push(n);
            }
        }
    }
    (!names.is_empty()).then(|| names.join(", "))
}

/// What lies under a virtual disk, one line per layer: a loop device's backing file, the
/// devices under dm and md (partitions named with their disk), down to the disks.
fn layers(root: &Path, disk: &str, depth: usize) -> Vec<String> {
    let mut out = Vec::new();
    if depth > 8 {
        return out;
    }
    if let Some(f) = read(root, &format!("sys/block/{disk}/loop/backing_file")) {
        out.push(format!("{disk}: loop over {f}"));
    }
    if let Some(n) = read(root, &format!("sys/block/{disk}/dm/name")) {
        out.push(format!("{disk}: device-mapper {n}"));
    }
    if let Some(l) = read(root, &format!("sys/block/{disk}/md/level")) {
        out.push(format!("{disk}: md {l}"));
    }
    if let Some(n) = disk.strip_prefix("rbd") {
        let pool = read(root, &format!("sys/bus/rbd/devices/{n}/pool"));
        let image = read(root, &format!("sys/bus/rbd/devices/{n}/name"));
        if let (Some(p), Some(i)) = (pool, image) {
            out.push(format!("{disk}: rbd image {p}/{i}"));
        }
    }
    let Ok(rd) = std::fs::read_dir(root.join(format!("sys/block/{disk}/slaves"))) else {
        return out;
    };
    let mut slaves: Vec<String> = rd
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect();
    slaves.sort();
    for s in slaves {
        let whole = whole_disk(root, &s);
        let model = read(root, &format!("sys/block/{whole}/device/model"));
        let drv = driver(root, &whole);
        let what = [model, drv]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(", ");
        let name = if whole == s {
            s.clone()
        } else {
            format!("{s} (partition of {whole})")
        };
        out.push(format!(
            "{disk} over {name}{}",
            if what.is_empty() {
                String::new()
            } else {
                format!(": {what}")
            }
        ));
        out.extend(layers(root, &whole, depth + 1));
    }
    out
}

/// The disk a partition belongs to (the name itself for a whole disk).
fn whole_disk(root: &Path, name: &str) -> String {
    let p = root.join(format!("sys/class/block/{name}"));
    if !p.join("partition").exists() {
        return name.to_string();
    }
    std::fs::canonicalize(&p)
        .ok()
        .and_then(|c| {
            c.parent()
                .and_then(|d| d.file_name())
                .map(|n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| name.to_string())
}

#[cfg(test)]
#[path = "inventory_tests.rs"]
mod tests;
