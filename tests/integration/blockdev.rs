//! Block devices: loop devices over image files (root only; CI runs as root).

use crate::util::*;
use std::process::Command;

/// A loop device over an image file, detached on drop.
pub(crate) struct Loop {
    pub(crate) dev: String,
    pub(crate) _dir: Scratch,
    pub(crate) mount: Option<std::path::PathBuf>,
}

impl Loop {
    pub(crate) fn new(tag: &str, size: u64, mkfs: bool) -> Loop {
        let dir = Scratch::new(tag);
        let img = dir.file("img");
        let f = std::fs::File::create(&img).unwrap();
        f.set_len(size).unwrap();
        drop(f);
        if mkfs {
            let st = Command::new("mkfs.ext4")
                .args(["-q", "-F"])
                .arg(&img)
                .status()
                .unwrap();
            assert!(st.success());
        }
        let out = Command::new("losetup")
            .args(["-f", "--show"])
            .arg(&img)
            .bounded_output()
            .unwrap();
        assert!(
            out.status.success(),
            "losetup: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let dev = String::from_utf8(out.stdout).unwrap().trim().to_string();
        Loop {
            dev,
            _dir: dir,
            mount: None,
        }
    }
    /// Mount the device's filesystem (with `-o opts` when given) in its scratch directory;
    /// unmounted on drop.
    pub(crate) fn mount(&mut self, opts: Option<&str>) -> std::path::PathBuf {
        let mnt = self._dir.file("mnt");
        std::fs::create_dir_all(&mnt).unwrap();
        let mut c = Command::new("mount");
        if let Some(o) = opts {
            c.args(["-o", o]);
        }
        let st = c.arg(&self.dev).arg(&mnt).status().unwrap();
        assert!(st.success(), "mounting {} on {}", self.dev, mnt.display());
        self.mount = Some(mnt.clone());
        mnt
    }

    pub(crate) fn checksum(&self) -> Vec<u8> {
        std::fs::read(&self.dev).unwrap()
    }
}

impl Drop for Loop {
    fn drop(&mut self) {
        if let Some(m) = &self.mount {
            let _ = Command::new("umount").arg(m).status();
        }
        let _ = Command::new("losetup").args(["-d", &self.dev]).status();
    }
}

pub(crate) fn root_required() -> bool {
    if !is_root() {
        panic!("block-device tests need root (they use losetup); run the test suite as root");
    }
    true
}

#[test]
fn loop_device_engines() {
    root_required();
    let lp = Loop::new("loopeng", 64 << 20, false);
    let f = format!("--filename={}", lp.dev);
    for engine in ["psync", "libaio", "io_uring"] {
        for rw in ["randwrite", "randread", "write", "read"] {
            let e = format!("--ioengine={engine}");
            let r = format!("--rw={rw}");
            let o = iomark(&[
                "run",
                "--output-format=json",
                "--name=b",
                &f,
                &e,
                &r,
                "--size=8m",
                "--bs=4k",
                "--direct=1",
                "--iodepth=8",
            ]);
            let v = json(&o);
            let j = job(&v, 0);
            let moved = u(&j["read"]["io_bytes"]) + u(&j["write"]["io_bytes"]);
            assert_eq!(moved, 8 << 20, "{engine} {rw}");
        }
    }
    // The whole device is the default size.
    let o = iomark(&[
        "run",
        "--output-format=json",
        "--name=b",
        &f,
        "--rw=read",
        "--bs=1m",
    ]);
    let v = json(&o);
    assert_eq!(u(&job(&v, 0)["read"]["io_bytes"]), 64 << 20);
    // Disk stats name the loop device.
    let name = lp.dev.trim_start_matches("/dev/");
    assert!(
        v["disk_util"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["name"] == name),
        "{}",
        v["disk_util"]
    );
}

#[test]
fn writes_to_a_device_with_a_filesystem_are_refused() {
    root_required();
    let lp = Loop::new("loopfs", 32 << 20, true);
    let before = lp.checksum();
    let f = format!("--filename={}", lp.dev);
    let o = iomark(&["run", "--name=w", &f, "--rw=write", "--size=1m"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("ext4"), "{}", stderr(&o));
    assert_eq!(lp.checksum(), before, "device modified");
    // Reads are fine.
    let o = iomark(&[
        "run",
        "--output-format=json",
        "--name=r",
        &f,
        "--rw=read",
        "--size=1m",
    ]);
    json(&o);
    // Explicitly allowed.
    let o = iomark(&[
        "run",
        "--force-device-write",
        "--name=w",
        &f,
        "--rw=write",
        "--size=1m",
    ]);
    ok(&o);
    assert_ne!(lp.checksum(), before);
}

#[test]
fn writes_to_a_mounted_device_are_refused() {
    root_required();
    let mut lp = Loop::new("loopmnt", 32 << 20, true);
    let mnt = lp.mount(None);
    let f = format!("--filename={}", lp.dev);
    let o = iomark(&[
        "run",
        "--force-device-write",
        "--name=w",
        &f,
        "--rw=write",
        "--size=1m",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("mounted"), "{}", stderr(&o));
    // A file on the mounted ext4 works, and the filesystem type is reported.
    let ff = format!("--filename={}", mnt.join("f").display());
    let o = iomark(&[
        "run",
        "--output-format=json",
        "--name=w",
        &ff,
        "--rw=randwrite",
        "--size=4m",
        "--direct=1",
    ]);
    let v = json(&o);
    assert_eq!(u(&job(&v, 0)["write"]["io_bytes"]), 4 << 20);
}
