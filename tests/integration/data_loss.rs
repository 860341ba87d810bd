//! Data that iomark must never destroy unasked (root only; CI runs as root): devices holding
//! any format libblkid knows (also at the end of the device), devices held by the kernel,
//! outputs and logs aimed at targets or devices, unlink of files the run did not create,
//! metadata engines on device nodes, verify dumps and missing device paths under /dev.

use crate::blockdev::{root_required, Loop};
use crate::util::*;
use std::hash::Hasher;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::process::Command;

/// A hash of a device's (or file's) whole content.
pub(crate) fn digest(path: &Path) -> u64 {
    let mut f = std::fs::File::open(path).unwrap();
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf).unwrap();
        if n == 0 {
            return h.finish();
        }
        h.write(&buf[..n]);
    }
}

#[track_caller]
fn run_tool(tool: &str, args: &[&str], dev: &str) {
    let o = Command::new(tool)
        .args(args)
        .arg(dev)
        .bounded_output()
        .unwrap_or_else(|e| {
            panic!("{tool} is needed by this test (scripts/test installs it): {e}")
        });
    assert!(o.status.success(), "{tool} {args:?} {dev}: {}", stderr(&o));
}

/// md's checksum: the 32-bit little-endian words summed in 64 bits, folded.
fn md_csum(sb: &[u8]) -> u32 {
    let mut sum: u64 = sb
        .chunks(4)
        .map(|w| {
            let mut b = [0u8; 4];
            b[..w.len()].copy_from_slice(w);
            u32::from_le_bytes(b) as u64
        })
        .sum();
    sum = (sum & 0xffff_ffff) + (sum >> 32);
    sum as u32
}

fn put32(b: &mut [u8], off: usize, v: u32) {
    b[off..off + 4].copy_from_slice(&v.to_le_bytes());
}
fn put64(b: &mut [u8], off: usize, v: u64) {
    b[off..off + 8].copy_from_slice(&v.to_le_bytes());
}

/// Writes a Linux md RAID1 member superblock (one device) in format 0.90 or 1.0, both at the
/// end of the device, laid out as the kernel's `md_p.h` says (mdadm --create needs the md
/// driver, which not every test kernel has; `mdadm --examine` checks the result).
fn write_md_superblock(dev: &str, size: u64, version: &str) {
    let (off, sb) = if version == "0.90" {
        let off = (size & !0xffff) - 0x10000;
        let mut sb = vec![0u8; 4096];
        let w = |sb: &mut Vec<u8>, word: usize, v: u32| put32(sb, word * 4, v);
        w(&mut sb, 0, 0xa92b_4efc); // magic
        w(&mut sb, 2, 90); // minor version
        w(&mut sb, 5, 0x1234_5678); // set_uuid0
        w(&mut sb, 6, 1_700_000_000); // ctime
        w(&mut sb, 7, 1); // level
        w(&mut sb, 8, (off / 1024) as u32); // size in KiB
        w(&mut sb, 9, 1); // nr_disks
        w(&mut sb, 10, 1); // raid_disks
        w(&mut sb, 13, 0x9abc_def0); // set_uuid1..3
        w(&mut sb, 14, 0x1111_2222);
        w(&mut sb, 15, 0x3333_4444);
        w(&mut sb, 32, 1_700_000_000); // utime
        w(&mut sb, 33, 1); // state: clean
        w(&mut sb, 34, 1); // active, working disks
        w(&mut sb, 35, 1);
        w(&mut sb, 40, 1); // events
                           // disks[0] and this_disk: number 0, major/minor, raid_disk 0, state active|sync.
        for base in [128usize, 992] {
            w(&mut sb, base + 4, 6);
        }
        let c = md_csum(&sb);
        w(&mut sb, 38, c);
        (off, sb)
    } else {
        let off = (size - 8192) & !4095;
        let mut sb = vec![0u8; 256 + 2];
        put32(&mut sb, 0, 0xa92b_4efc);
        put32(&mut sb, 4, 1); // major version
        sb[16..32].copy_from_slice(b"iomark-md-test-1");
        sb[32..40].copy_from_slice(b"iomark:0");
        put64(&mut sb, 64, 1_700_000_000); // ctime
        put32(&mut sb, 72, 1); // level
        put64(&mut sb, 80, off / 512); // size (sectors)
        put32(&mut sb, 92, 1); // raid_disks
        put64(&mut sb, 136, off / 512); // data_size
        put64(&mut sb, 144, off / 512); // super_offset
        put64(&mut sb, 152, u64::MAX); // recovery_offset
        sb[168..184].copy_from_slice(b"iomark-md-dev-01");
        put64(&mut sb, 192, 1_700_000_000); // utime
        put64(&mut sb, 200, 1); // events
        put64(&mut sb, 208, u64::MAX); // resync_offset: clean
        put32(&mut sb, 220, 1); // max_dev; dev_roles[0] = 0
        let c = md_csum(&sb);
        put32(&mut sb, 216, c);
        (off, sb)
    };
    let mut f = std::fs::OpenOptions::new().write(true).open(dev).unwrap();
    f.seek(SeekFrom::Start(off)).unwrap();
    f.write_all(&sb).unwrap();
    f.sync_all().unwrap();
    let o = Command::new("mdadm")
        .args(["--examine", dev])
        .bounded_output()
        .expect("mdadm is needed by this test (scripts/test installs it)");
    let text = stdout(&o);
    let want = format!(
        "Version : {}",
        if version == "0.90" { "0.90.00" } else { "1.0" }
    );
    assert!(
        o.status.success() && text.contains(&want),
        "mdadm does not see the {version} superblock:\n{text}{}",
        stderr(&o)
    );
}

#[test]
fn devices_holding_any_known_format_are_refused_and_unchanged() {
    root_required();
    let d = Scratch::new("fmtkey");
    let key = d.file("key");
    std::fs::write(&key, [7u8; 32]).unwrap();
    let key = key.display().to_string();
    let luks = [
        "luksFormat",
        "--batch-mode",
        "--pbkdf",
        "pbkdf2",
        "--pbkdf-force-iterations",
        "1000",
        "--key-file",
        &key,
    ];
    type Make<'a> = Box<dyn Fn(&str, u64) + 'a>;
    let cases: Vec<(&str, u64, Make, &str)> = vec![
        (
            "vfat",
            64,
            Box::new(|dev, _| run_tool("mkfs.vfat", &[], dev)),
            "vfat (filesystem",
        ),
        (
            "luks",
            64,
            Box::new(|dev, _| run_tool("cryptsetup", &luks, dev)),
            "crypto_LUKS (crypto, version 2, UUID ",
        ),
        (
            "md090",
            64,
            Box::new(|dev, size| write_md_superblock(dev, size, "0.90")),
            "linux_raid_member (raid, version 0.90.0",
        ),
        (
            "md10",
            64,
            Box::new(|dev, size| write_md_superblock(dev, size, "1.0")),
            "linux_raid_member (raid, version 1.0",
        ),
        (
            "xfs",
            304,
            Box::new(|dev, _| run_tool("mkfs.xfs", &["-q", "-f"], dev)),
            "xfs (filesystem",
        ),
        (
            "btrfs",
            128,
            Box::new(|dev, _| run_tool("mkfs.btrfs", &["-q", "-f"], dev)),
            "btrfs (filesystem",
        ),
        (
            "minix",
            64,
            Box::new(|dev, _| run_tool("mkfs.minix", &[], dev)),
            "minix (filesystem",
        ),
    ];
    for (tag, mib, make, want) in cases {
        let lp = Loop::new(tag, mib << 20, false);
        make(&lp.dev, mib << 20);
        let before = digest(Path::new(&lp.dev));
        // A write at the start and one at the very end (where md 0.90/1.0 keep their superblock).
        let end = format!("--offset={}m", mib - 1);
        for extra in [&["--size=2m"][..], &[end.as_str()][..]] {
            let f = format!("--filename={}", lp.dev);
            let mut args = vec!["run", "--name=w", "--rw=write", "--direct=1", &f];
            args.extend_from_slice(extra);
            let o = iomark(&args);
            assert!(!o.status.success(), "{tag}: write not refused");
            let e = stderr(&o);
            assert!(
                e.contains(&format!("it holds {want}")) && e.contains("--force-device-write"),
                "{tag}: {e}"
            );
        }
        assert_eq!(digest(Path::new(&lp.dev)), before, "{tag}: device modified");
    }
    // The switch still overrides.
    let lp = Loop::new("vfatforce", 64 << 20, false);
    run_tool("mkfs.vfat", &[], &lp.dev);
    let before = digest(Path::new(&lp.dev));
    let o = iomark(&[
        "run",
        "--force-device-write",
        "--name=w",
        "--rw=write",
        "--size=1m",
        &format!("--filename={}", lp.dev),
    ]);
    ok(&o);
    assert_ne!(digest(Path::new(&lp.dev)), before);
}

/// A process holding a mount of `dev` in a mount namespace of its own (invisible in ours);
/// killed (which releases the mount) on drop.
struct ForeignMount(std::process::Child);

impl ForeignMount {
    fn new(dev: &str, mnt: &Path) -> ForeignMount {
        std::fs::create_dir_all(mnt).unwrap();
        let script = format!(
            "mount -o ro {dev} {} && echo ready && exec sleep 60",
            mnt.display()
        );
        let mut c = Command::new("unshare")
            .args(["--mount", "--propagation", "private", "sh", "-c", &script])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("unshare (util-linux) is needed by this test");
        let mut line = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(c.stdout.as_mut().unwrap()),
            &mut line,
        )
        .unwrap();
        assert_eq!(
            line.trim(),
            "ready",
            "mounting {dev} in a new mount namespace"
        );
        ForeignMount(c)
    }
}

impl Drop for ForeignMount {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn devices_held_by_the_kernel_and_their_backing_files_are_refused() {
    root_required();
    // Mounted in another mount namespace: this process's mount table does not show it, the
    // kernel's exclusive open does.
    let lp = Loop::new("heldns", 32 << 20, true);
    let before = digest(Path::new(&lp.dev));
    let held = ForeignMount::new(&lp.dev, &lp._dir.file("mnt"));
    let f = format!("--filename={}", lp.dev);
    let o = iomark(&[
        "run",
        "--force-device-write",
        "--name=w",
        &f,
        "--rw=write",
        "--size=1m",
    ]);
    assert!(!o.status.success(), "write to a held device not refused");
    let e = stderr(&o);
    assert!(
        e.contains("busy") && e.contains("another mount namespace"),
        "{e}"
    );
    assert!(e.contains("allow_mounted_write=1"), "{e}");
    drop(held);
    assert_eq!(digest(Path::new(&lp.dev)), before, "held device modified");

    // The backing file of a mounted loop device is a mounted filesystem too.
    let mut lp = Loop::new("heldback", 32 << 20, true);
    let img = lp._dir.file("img");
    let mnt = lp.mount(Some("ro"));
    let before = digest(&img);
    let fi = format!("--filename={}", img.display());
    for rw in ["write", "randrw"] {
        let o = iomark(&["run", "--name=w", &fi, &format!("--rw={rw}"), "--size=1m"]);
        assert!(
            !o.status.success(),
            "{rw}: write to a backing file not refused"
        );
        let e = stderr(&o);
        assert!(
            e.contains(&format!("backing file of {}", lp.dev))
                && e.contains(&mnt.display().to_string()),
            "{e}"
        );
    }
    assert_eq!(digest(&img), before, "backing file modified");
    // Reading it is fine.
    let o = iomark(&[
        "run",
        "--output-format=json",
        "--name=r",
        &fi,
        "--rw=read",
        "--size=1m",
    ]);
    assert_eq!(u(&job(&json(&o), 0)["read"]["io_bytes"]), 1 << 20);
}

#[test]
fn missing_paths_under_dev_are_refused_not_created() {
    let name = format!("/dev/iomark-rbd{}", std::process::id());
    for args in [
        vec![format!("--filename={name}")],
        vec!["--directory=/dev".to_string()],
    ] {
        let mut a = vec!["run", "--name=w", "--rw=write", "--size=1m"];
        a.extend(args.iter().map(String::as_str));
        let o = iomark(&a);
        assert!(!o.status.success(), "{args:?}: not refused");
        let e = stderr(&o);
        assert!(e.contains("no such device /dev/"), "{e}");
        assert!(e.contains("not mapped"), "{e}");
        assert!(!Path::new(&name).exists(), "{name} created");
        assert!(!Path::new("/dev/w.0.0").exists(), "/dev/w.0.0 created");
    }
}

#[test]
fn unlink_deletes_only_files_the_run_created() {
    let d = Scratch::new("unlink");
    let f = d.file("users-file");
    let data = vec![0x5au8; 1 << 20];
    std::fs::write(&f, &data).unwrap();
    let ff = format!("--filename={}", f.display());
    // --readonly refuses unlink before any I/O.
    let o = iomark(&[
        "run",
        "--readonly",
        "--name=r",
        &ff,
        "--rw=read",
        "--unlink=1",
    ]);
    assert!(!o.status.success(), "readonly unlink not refused");
    assert!(stderr(&o).contains("unlink=1"), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(&f).unwrap(),
        data,
        "readonly run changed the file"
    );
    // A file that existed before is kept, and the note says so and how to delete it.
    let o = iomark(&["run", "--name=r", &ff, "--rw=read", "--unlink=1"]);
    ok(&o);
    assert_eq!(std::fs::read(&f).unwrap(), data, "existing file deleted");
    // fio prints no such note: it is in the output's "Notes:" block.
    let e = stdout(&o);
    assert!(
        e.contains("kept") && e.contains("--allow-unlink-existing"),
        "{e}"
    );
    // A file the run lays out is removed.
    let g = d.file("made-by-run");
    let fg = format!("--filename={}", g.display());
    ok(&iomark(&[
        "run",
        "--name=w",
        &fg,
        "--rw=write",
        "--size=1m",
        "--unlink=1",
    ]));
    assert!(!g.exists(), "created file kept");
    // With the switch, as fio does.
    ok(&iomark(&[
        "run",
        "--allow-unlink-existing",
        "--name=r",
        &ff,
        "--rw=read",
        "--unlink=1",
    ]));
    assert!(!f.exists(), "--allow-unlink-existing kept the file");
}

#[test]
fn metadata_engines_never_touch_device_nodes() {
    root_required();
    let lp = Loop::new("metanode", 8 << 20, false);
    let rdev = {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(&lp.dev).unwrap().rdev()
    };
    let d = Scratch::new("metanode");
    let alias = d.file("alias");
    let (ma, mi) = (libc::major(rdev), libc::minor(rdev));
    let st = Command::new("mknod")
        .arg(&alias)
        .args(["b", &ma.to_string(), &mi.to_string()])
        .status()
        .unwrap();
    assert!(st.success(), "mknod");
    let fa = format!("--filename={}", alias.display());
    for engine in ["filedelete", "filecreate", "filestat"] {
        let o = iomark(&["run", "--name=m", &fa, &format!("--ioengine={engine}")]);
        assert!(!o.status.success(), "{engine} on a device node not refused");
        let e = stderr(&o);
        assert!(
            e.contains("acts only on regular files") && e.contains("a block device node"),
            "{engine}: {e}"
        );
        assert!(
            std::fs::symlink_metadata(&alias).is_ok(),
            "{engine} removed the device node"
        );
    }
}

#[test]
fn verify_dumps_of_a_device_never_go_into_dev() {
    root_required();
    let lp = Loop::new("dumpdev", 8 << 20, false);
    let name = lp.dev.trim_start_matches("/dev/").to_string();
    let fd = format!("--filename={}", lp.dev);
    let job_args = [
        "run",
        "--name=v",
        fd.as_str(),
        "--rw=write",
        "--bs=4k",
        "--size=1m",
        "--direct=1",
        "--verify=crc32c",
    ];
    let mut w = job_args.to_vec();
    w.push("--do_verify=0");
    ok(&iomark(&w));
    // Damage one block behind iomark's back.
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .open(&lp.dev)
        .unwrap();
    f.seek(SeekFrom::Start(8192 + 100)).unwrap();
    f.write_all(b"damage").unwrap();
    f.sync_all().unwrap();
    drop(f);
    let dumps_in = |dir: &Path| -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(&format!("{name}.")))
            .collect()
    };
    let d = Scratch::new("dumpdev");
    let cwd = d.file("cwd");
    let out = d.file("out");
    let chosen = d.file("chosen");
    for dir in [&cwd, &out, &chosen] {
        std::fs::create_dir_all(dir).unwrap();
    }
    let report = format!("--output={}", out.join("report.txt").display());
    let dump_dir = format!("--dump-dir={}", chosen.display());
    for (extra, want) in [
        (None, &cwd),
        (Some(&report), &out),
        (Some(&dump_dir), &chosen),
    ] {
        let mut a = job_args.to_vec();
        a.extend(["--verify_only", "--verify_dump=1"]);
        a.extend(extra.map(String::as_str));
        let o = iomark_in(&a, &cwd);
        assert!(!o.status.success(), "the damage was not found");
        let mut got = dumps_in(want);
        got.sort();
        assert_eq!(
            got,
            [
                format!("{name}.8192.expected"),
                format!("{name}.8192.received")
            ],
            "{extra:?}"
        );
        for dir in [&cwd, &out, &chosen] {
            for n in dumps_in(dir) {
                std::fs::remove_file(dir.join(n)).unwrap();
            }
        }
        assert!(
            dumps_in(Path::new("/dev")).is_empty(),
            "dump written into /dev"
        );
    }
}

#[test]
fn outputs_never_land_on_devices_targets_or_special_files() {
    root_required();
    let lp = Loop::new("outdev", 8 << 20, false);
    let before = digest(Path::new(&lp.dev));
    let d = Scratch::new("outputs");
    let data = d.file("data");
    let bytes = vec![0xa5u8; 1 << 20];
    std::fs::write(&data, &bytes).unwrap();
    let fd = format!("--filename={}", data.display());
    let read = ["run", "--readonly", "--name=r", fd.as_str(), "--rw=read"];
    let refused = |extra: &str, want: &str| {
        let mut a = read.to_vec();
        a.push(extra);
        let o = iomark(&a);
        assert_eq!(o.status.code(), Some(2), "{extra}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains(want), "{extra}: {e}");
    };
    refused(&format!("--output={}", lp.dev), "is a block device");
    refused(&format!("--result={}", lp.dev), "is a block device");
    refused(&format!("--output={}", data.display()), "target of a job");
    refused(&format!("--result={}", data.display()), "target of a job");
    refused(&format!("--output={}", d.path.display()), "a directory");
    refused("--write_bw_log=/dev/iomark-nolog", "no such device");
    refused(&format!("--report={}", lp.dev), "is a block device");
    assert_eq!(digest(Path::new(&lp.dev)), before, "device written");
    assert_eq!(std::fs::read(&data).unwrap(), bytes, "data file replaced");
    // --readonly writes nothing but the outputs it was asked for, each whole.
    let out = d.file("report.json");
    std::fs::write(&out, b"old report").unwrap();
    let mut a = read.to_vec();
    let fo = format!("--output={}", out.display());
    let lat = format!("--write_lat_log={}", d.file("r").display());
    a.extend([
        "--output-format=json",
        fo.as_str(),
        lat.as_str(),
        "--size=1m",
    ]);
    ok(&iomark(&a));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(u(&job(&v, 0)["read"]["io_bytes"]), 1 << 20);
    let mut names: Vec<String> = std::fs::read_dir(&d.path)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "data",
            "r_clat.1.log",
            "r_lat.1.log",
            "r_slat.1.log",
            "report.json"
        ],
        "temporary files left or unasked files made"
    );
    assert_eq!(std::fs::read(&data).unwrap(), bytes);
    // The null device takes a report as a stream (and stays the null device).
    let mut a = read.to_vec();
    a.extend(["--output=/dev/null", "--size=1m"]);
    ok(&iomark(&a));
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
}
