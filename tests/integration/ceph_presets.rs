//! Presets on a Ceph RBD image (`rbd:POOL/IMAGE`) through librbd, on the test cluster: written
//! only with --allow-write, refused as the rbd engine refuses (another client's watch, a
//! filesystem), sized by the image when it is smaller than the preset.

use crate::ceph::{ext4_file, iomark_ceph, watch, TestImage};
use crate::util::*;

/// `iomark preset run rbd-matrix rbd:rbd/IMAGE` with short jobs, and `extra`.
fn matrix(img: &TestImage, extra: &[&str]) -> std::process::Output {
    let target = format!("rbd:{}", img.spec());
    let args = [
        &[
            "preset",
            "run",
            "rbd-matrix",
            target.as_str(),
            "--runtime=1s",
            "--warmup=0s",
        ][..],
        extra,
    ]
    .concat();
    iomark_ceph(&args, &[])
}

#[test]
fn ceph_rbd_matrix_runs_on_an_image_through_librbd() {
    let img = TestImage::new("preset", 64);
    // Every preset writes: an image only with --allow-write, before any connection.
    let o = matrix(&img, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("pass --allow-write"), "{}", stderr(&o));
    let o = matrix(&img, &["--allow-write"]);
    ok(&o);
    let (out, err) = (stdout(&o), stderr(&o));
    // The jobs ran through librbd on the whole image (64 MiB, less than the preset's 1 GiB).
    assert_eq!(out.matches("ioengine=rbd").count(), 6, "{out}");
    assert!(err.contains("using the whole image"), "{err}");
    assert!(err.contains("16 jobs write one image"), "{err}");
    for figure in ["write bandwidth (1 MiB)", "read IOPS (4 KiB QD 256)"] {
        assert!(out.contains(figure), "{out}");
    }
    // The image holds what the write jobs wrote.
    let data = img.export();
    assert_eq!(data.len(), 64 << 20);
    assert!(data[..1 << 20].iter().any(|&b| b != 0));
    // A size larger than the image is refused by name.
    let o = matrix(&img, &["--allow-write", "--size=128m"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("holds 64 MiB, less than --size=128 MiB"),
        "{}",
        stderr(&o)
    );
}

/// As for an rbd job: an image another client has open, or one holding a filesystem, is not
/// written by a preset, --allow-write or not.
#[test]
fn ceph_presets_refuse_watched_or_formatted_images() {
    let img = TestImage::new("preset-watched", 16);
    let mut w = watch(&img);
    let o = matrix(&img, &["--allow-write"]);
    let _ = w.kill();
    let _ = w.wait();
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("it is open by another client"),
        "{}",
        stderr(&o)
    );
    let d = Scratch::new("ceph-preset-ext4");
    let fs = ext4_file(&d);
    let img = TestImage::import("preset-ext4", &fs);
    let o = matrix(&img, &["--allow-write"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("holds ext4"), "{}", stderr(&o));
    assert_eq!(img.export(), std::fs::read(&fs).unwrap());
}
