use super::*;
use crate::job::{BlockSize, PerDir, RwMode};

const K64: u64 = 64 << 10;

fn file(size: u64, start: u64, len: u64) -> WorkerFile {
    WorkerFile {
        path: PathBuf::from(format!("/nonexistent/zbd-test-{size}-{start}-{len}")),
        is_block: false,
        is_char: false,
        size,
        region_start: start,
        region_len: len,
        logical_block_size: 512,
    }
}

fn job(rw: RwMode, zone: u64, max_open: u32) -> JobSpec {
    JobSpec {
        rw,
        bs: PerDir::all(BlockSize::Fixed(K64)),
        zbd: Some(ZbdZones {
            size: zone,
            capacity: zone,
            max_open_zones: max_open,
            job_max_open_zones: 0,
            reset_threshold: 0.0,
            reset_frequency: 0.0,
            read_beyond_wp: false,
        }),
        ..Default::default()
    }
}

fn zones_for(spec: &JobSpec, files: &mut [WorkerFile], r: &Registry) -> WorkerZones {
    WorkerZones::new(spec, files, r).unwrap().unwrap()
}

fn written(p: Placed) -> u64 {
    match p {
        Placed::Io { offset, len } => {
            assert_eq!(len, K64);
            offset / K64
        }
        Placed::End => panic!("the job ended"),
    }
}

/// fio 3.33, `--rw=randwrite --bs=64k --size=1m --zonemode=zbd --zonesize=256k
/// --max_open_zones=2` on a 1 MiB file: the blocks its random map draws (as its run without
/// zones writes them) and the blocks its I/O log shows written.
#[test]
fn random_writes_land_where_fios_do() {
    let drawn = [0, 11, 13, 7, 6, 14, 8, 5, 15, 1, 2, 10, 3, 4, 9, 12];
    let fio = [0, 8, 9, 1, 2, 10, 11, 4, 5, 3, 0, 1, 2, 6, 3, 12];
    let r = Registry::default();
    let spec = job(RwMode::RandWrite, 256 << 10, 2);
    let mut files = [file(1 << 20, 0, 1 << 20)];
    let mut w = zones_for(&spec, &mut files, &r);
    w.new_pass(true);
    let got: Vec<u64> = drawn
        .iter()
        .map(|&b| written(w.place(0, Dir::Write, b * K64, K64)))
        .collect();
    assert_eq!(got, fio);
    assert_eq!(w.resets, 1);
}

#[test]
fn reads_stay_below_the_write_pointer() {
    let r = Registry::default();
    let zone = 256 << 10;
    let mut files = [file(1 << 20, 0, 1 << 20)];
    // Nothing written: a read job ends at once.
    let mut rd = zones_for(&job(RwMode::Read, zone, 0), &mut files, &r);
    assert_eq!(rd.place(0, Dir::Read, 0, K64), Placed::End);
    // Two blocks written in zone 1.
    let mut wr = zones_for(&job(RwMode::Write, zone, 0), &mut files, &r);
    assert_eq!(written(wr.place(0, Dir::Write, zone, K64)), 4);
    assert_eq!(written(wr.place(0, Dir::Write, zone + K64, K64)), 5);
    // A sequential read from zone 0 moves to zone 1's start and ends at its write pointer.
    assert_eq!(written(rd.place(0, Dir::Read, 0, K64)), 4);
    assert_eq!(written(rd.place(0, Dir::Read, zone + K64, K64)), 5);
    assert_eq!(rd.place(0, Dir::Read, zone + 2 * K64, K64), Placed::End);
    // A random read in zone 3 finds zone 1 below it; reads beyond the write pointer stay.
    let mut rr = zones_for(&job(RwMode::RandRead, zone, 0), &mut files, &r);
    assert!(
        matches!(rr.place(0, Dir::Read, 3 * zone, K64), Placed::Io { offset, .. } if (zone..zone + 2 * K64).contains(&offset))
    );
    let mut beyond = job(RwMode::Read, zone, 0);
    beyond.zbd.as_mut().unwrap().read_beyond_wp = true;
    let mut rb = zones_for(&beyond, &mut files, &r);
    assert_eq!(written(rb.place(0, Dir::Read, 3 * zone, K64)), 12);
}

#[test]
fn sequential_writes_reset_full_zones_and_regions_are_whole_zones() {
    let r = Registry::default();
    let zone = 128 << 10;
    // A region from 100k to 600k of a 640k file: zones 1 to 3 (128k..512k).
    let mut files = [file(640 << 10, 100 << 10, 500 << 10)];
    let mut w = zones_for(&job(RwMode::Write, zone, 1), &mut files, &r);
    assert_eq!(
        (files[0].region_start, files[0].region_len),
        (zone, 3 * zone)
    );
    let pass: Vec<u64> = (0..6)
        .map(|i| written(w.place(0, Dir::Write, zone + i * K64, K64)))
        .collect();
    assert_eq!(pass, [2, 3, 4, 5, 6, 7]);
    assert_eq!(w.resets, 0);
    // The next pass writes the first zone again from its start, after a reset.
    assert_eq!(written(w.place(0, Dir::Write, zone, K64)), 2);
    assert_eq!(w.resets, 1);
    // Too small a region for one zone.
    let mut small = [file(640 << 10, 10 << 10, 100 << 10)];
    let e = WorkerZones::new(&job(RwMode::Write, zone, 0), &mut small, &r).unwrap_err();
    assert!(e.1.contains("at least one zone"), "{}", e.1);
}

#[test]
fn clones_share_a_targets_zones() {
    let r = Registry::default();
    let zone = 128 << 10;
    let mut a = [file(512 << 10, 0, 512 << 10)];
    let mut b = [file(512 << 10, 0, 512 << 10)];
    let mut wa = zones_for(&job(RwMode::Write, zone, 0), &mut a, &r);
    let mut wb = zones_for(&job(RwMode::Write, zone, 0), &mut b, &r);
    assert_eq!(written(wa.place(0, Dir::Write, 0, K64)), 0);
    assert_eq!(written(wb.place(0, Dir::Write, 0, K64)), 1);
    let other = WorkerZones::new(&job(RwMode::Write, 2 * zone, 0), &mut b, &r).unwrap_err();
    assert!(other.1.contains("does not match"), "{}", other.1);
}

#[test]
fn mixed_jobs_write_first_while_nothing_is_written() {
    let r = Registry::default();
    let mut files = [file(512 << 10, 0, 512 << 10)];
    let mut w = zones_for(&job(RwMode::RandRw, 128 << 10, 0), &mut files, &r);
    assert_eq!(w.direction(Dir::Read), Dir::Write);
    written(w.place(0, Dir::Write, 0, K64));
    assert_eq!(w.direction(Dir::Read), Dir::Read);
}
