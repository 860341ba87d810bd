//! MPI ranks on the test cluster's images: each rank its own image (`rbdname=IMAGE$rank`), or
//! each rank its own region of one image (`offset_increment`), as for files.

use crate::ceph::{cluster, unique, TestImage};
use crate::util::*;

const MIB: usize = 1 << 20;

/// `mpirun -np 2 iomark run` of a 1 MiB write of 0x5a bytes through librbd, with `extra`.
fn two_ranks_write(extra: &[&str]) {
    let (_, conf) = cluster();
    let d = Scratch::new("ceph-mpi");
    let args = [
        &[
            "run",
            "--name=w",
            "--ioengine=rbd",
            "--pool=rbd",
            "--rw=write",
            "--bs=64k",
            "--size=1m",
            "--buffer_pattern=0x5a",
            "--output-format=json",
        ][..],
        extra,
    ]
    .concat();
    // The ranks on this host inherit mpirun's environment, CEPH_CONF with it.
    let o = crate::mpi::mpirun(2, &args, &d.path)
        .env("CEPH_CONF", &conf)
        .bounded_output()
        .unwrap();
    ok(&o);
}

/// Whether `data[range]` is all `byte`.
fn all(data: &[u8], range: std::ops::Range<usize>, byte: u8) -> bool {
    data[range].iter().all(|&b| b == byte)
}

#[test]
fn ceph_mpi_ranks_take_their_own_image_or_a_region_of_one() {
    let base = unique("mpi");
    let own = [0, 1].map(|r| TestImage::named(&format!("{base}{r}"), 4));
    two_ranks_write(&[&format!("--rbdname={base}$rank")]);
    for img in &own {
        let data = img.export();
        assert!(all(&data, 0..MIB, 0x5a), "{}", img.name);
        assert!(all(&data, MIB..4 * MIB, 0), "{}", img.name);
    }
    // One image for both: rank 1's region starts 2 MiB after rank 0's.
    let shared = TestImage::new("mpi-shared", 8);
    two_ranks_write(&[
        &format!("--rbdname={}", shared.name),
        "--offset_increment=2m",
    ]);
    let data = shared.export();
    assert!(all(&data, 0..MIB, 0x5a));
    assert!(all(&data, MIB..2 * MIB, 0));
    assert!(all(&data, 2 * MIB..3 * MIB, 0x5a));
    assert!(all(&data, 3 * MIB..8 * MIB, 0));
}
