use super::*;

const CHECKED: [VerifyKind; 5] = [
    VerifyKind::Crc32c,
    VerifyKind::Xxhash,
    VerifyKind::Md5,
    VerifyKind::Sha256,
    VerifyKind::Pattern,
];
const PAT: &[u8] = b"\xde\xad\xbe\xef\x5a";

fn id(offset: u64, len: usize, generation: u64) -> BlockId {
    BlockId {
        offset,
        len: len as u32,
        job: 0x1234_5678,
        seed: 0xfeed_beef_cafe_f00d,
        generation,
    }
}

fn block(kind: VerifyKind, b: &BlockId, pattern: Option<&[u8]>) -> Vec<u8> {
    let mut v = vec![0u8; b.len as usize];
    fill_block(&mut v, kind, b, pattern);
    v
}

fn err(r: Result<(), VerifyFailure>) -> VerifyFailure {
    r.expect_err("block should fail verification")
}

#[test]
fn names_and_codes_round_trip() {
    for k in VerifyKind::ALL {
        let json = serde_json::to_string(&k).unwrap();
        assert_eq!(json, format!("\"{}\"", k.name()));
        assert_eq!(serde_json::from_str::<VerifyKind>(&json).unwrap(), k);
        if k != VerifyKind::Null {
            assert_eq!(VerifyKind::from_code(k.code()), Some(k));
        }
    }
    assert_eq!(VerifyKind::from_code(0), None);
    let lens: Vec<usize> = VerifyKind::ALL.iter().map(|&k| header_len(k)).collect();
    assert_eq!(lens, [56, 56, 64, 80, 48, 0, 48]);
}

#[test]
fn header_layout_is_little_endian_at_fixed_offsets() {
    let b = BlockId {
        offset: 0x0102_0304_0506_0708,
        len: 4096,
        job: 0xa1b2_c3d4,
        seed: 0x1122_3344_5566_7788,
        generation: 0x99,
    };
    let v = block(VerifyKind::Crc32c, &b, None);
    assert_eq!(&v[0..4], b"IOMK");
    assert_eq!(&v[4..6], &[1, 0]);
    assert_eq!(&v[6..8], &[1, 0]);
    assert_eq!(&v[8..12], &4096u32.to_le_bytes());
    assert_eq!(&v[12..16], &0xa1b2_c3d4u32.to_le_bytes());
    assert_eq!(&v[16..24], &0x0102_0304_0506_0708u64.to_le_bytes());
    assert_eq!(&v[24..32], &0x1122_3344_5566_7788u64.to_le_bytes());
    assert_eq!(&v[32..40], &0x99u64.to_le_bytes());
    assert_eq!(&v[44..48], &[0; 4]);
    assert_eq!(&v[48..52], &crc32c::crc32c(&v[56..]).to_le_bytes());
    assert_eq!(&v[52..56], &[0; 4]);
    let mut h = v[..56].to_vec();
    h[40..44].fill(0);
    let crc = crc32c::crc32c_append(crc32c::crc32c(&h[..40]), &h[44..]);
    assert_eq!(&v[40..44], &crc.to_le_bytes());
    let d = describe(&v).unwrap();
    assert_eq!(
        (
            d.magic,
            d.version,
            d.kind,
            d.len,
            d.job,
            d.offset,
            d.seed,
            d.generation
        ),
        (MAGIC, 1, 1, 4096, b.job, b.offset, b.seed, 0x99)
    );
    assert_eq!(d.header_crc, crc);
    assert_eq!(describe(&v[..47]), None);
}

#[test]
fn round_trip_every_kind_size_and_interval() {
    for kind in VerifyKind::ALL {
        for size in [512usize, 4096, 65536, 1 << 20] {
            for interval in [512usize, 4096, 65536, 0] {
                if interval > size {
                    continue;
                }
                for pattern in [None, Some(PAT)] {
                    let first = id(size as u64 * 7, 0, 3);
                    let mut buf = vec![0u8; size];
                    fill_blocks(&mut buf, kind, interval, &first, pattern);
                    let mut n = 0;
                    check_blocks(&buf, kind, interval, first.offset, pattern, |o, l| {
                        n += 1;
                        Expect::exact(&BlockId {
                            offset: o,
                            len: l,
                            ..first
                        })
                    })
                    .unwrap_or_else(|e| panic!("{kind} {size}/{interval}: {e}"));
                    if kind != VerifyKind::Null {
                        let per = if interval == 0 { size } else { interval };
                        assert_eq!(n, size / per);
                        let last = size - per;
                        let h = describe(&buf[last..]).unwrap();
                        assert_eq!(h.offset, first.offset + last as u64);
                        assert_eq!(h.len as usize, per);
                    }
                }
            }
        }
    }
}

#[test]
fn data_is_distinct_per_offset_and_generation_and_not_trivial() {
    let a = block(VerifyKind::Crc32c, &id(0, 4096, 1), None);
    let b = block(VerifyKind::Crc32c, &id(4096, 4096, 1), None);
    let c = block(VerifyKind::Crc32c, &id(0, 4096, 2), None);
    assert_ne!(a[56..], b[56..]);
    assert_ne!(a[56..], c[56..]);
    // No 32-byte run repeats within a block, and bytes are spread out.
    let mut runs: Vec<&[u8]> = a[64..].chunks(32).collect();
    runs.sort();
    runs.dedup();
    assert_eq!(runs.len(), (4096 - 64) / 32);
    let ones: u32 = a[56..].iter().map(|x| x.count_ones()).sum();
    let bits = (4096 - 56) as f64 * 8.0;
    assert!(
        (ones as f64 / bits - 0.5).abs() < 0.02,
        "bit balance {}",
        ones as f64 / bits
    );
    // The same id gives the same bytes.
    assert_eq!(a, block(VerifyKind::Crc32c, &id(0, 4096, 1), None));
}

#[test]
fn every_single_byte_flip_is_detected_and_located() {
    for kind in CHECKED {
        for size in [512usize, 4096] {
            let b = id(8192, size, 5);
            let good = block(kind, &b, None);
            let e = Expect::exact(&b);
            let hlen = header_len(kind);
            let mut buf = good.clone();
            for i in 0..size {
                for mask in [1u8 << (i % 8), 0xff] {
                    buf[i] ^= mask;
                    let f = err(check_block(&buf, kind, &e, None));
                    buf[i] ^= mask;
                    if i < 4 {
                        assert_eq!(f.kind, FailureKind::BadMagic, "{kind} byte {i}");
                    } else if i < hlen {
                        assert_eq!(f.kind, FailureKind::HeaderChecksum, "{kind} byte {i}");
                    } else {
                        assert_eq!(f.kind, FailureKind::DataChecksum, "{kind} byte {i}");
                        assert_eq!(f.first_bad_byte, Some(i), "{kind} byte {i}");
                    }
                }
            }
            assert_eq!(buf, good);
        }
    }
}

#[test]
fn byte_flips_in_large_blocks_and_with_pattern() {
    for kind in CHECKED {
        let b = id(1 << 30, 1 << 20, 2);
        let mut buf = block(kind, &b, Some(PAT));
        let e = Expect::exact(&b);
        for i in [80usize, 4095, 4096, 500_000, (1 << 20) - 1] {
            buf[i] ^= 0x10;
            let f = err(check_block(&buf, kind, &e, Some(PAT)));
            buf[i] ^= 0x10;
            assert_eq!(
                (f.kind, f.first_bad_byte),
                (FailureKind::DataChecksum, Some(i))
            );
        }
        check_block(&buf, kind, &e, Some(PAT)).unwrap();
    }
}

#[test]
fn misdirected_block_is_reported_as_such() {
    for kind in CHECKED {
        let written = id(4096 * 10, 4096, 1);
        let buf = block(kind, &written, None);
        let e = Expect {
            offset: 4096 * 11,
            ..Expect::exact(&written)
        };
        let f = err(check_block(&buf, kind, &e, None));
        assert_eq!(f.kind, FailureKind::Misdirected);
        assert_eq!(f.found.unwrap().offset, 4096 * 10);
        let msg = f.to_string();
        assert!(
            msg.contains("offset 45056") && msg.contains("offset 40960"),
            "{msg}"
        );
    }
}

#[test]
fn generations_stale_future_and_min() {
    for kind in CHECKED {
        let b = id(0, 4096, 3);
        let buf = block(kind, &b, None);
        let with = |min: Option<u64>, exact: Option<u64>| Expect {
            min_generation: min,
            exact_generation: exact,
            ..Expect::exact(&b)
        };
        let r = |e: Expect| check_block(&buf, kind, &e, None).map_err(|f| f.kind);
        assert_eq!(r(with(None, Some(3))), Ok(()));
        assert_eq!(r(with(None, Some(5))), Err(FailureKind::Stale));
        assert_eq!(r(with(None, Some(2))), Err(FailureKind::FutureGeneration));
        assert_eq!(r(with(Some(2), None)), Ok(()));
        assert_eq!(r(with(Some(3), None)), Ok(()));
        assert_eq!(r(with(Some(4), None)), Err(FailureKind::Stale));
        assert_eq!(r(with(None, None)), Ok(()));
        let msg = err(check_block(&buf, kind, &with(None, Some(5)), None)).to_string();
        assert!(
            msg.contains("generation 3") && msg.contains("expected 5"),
            "{msg}"
        );
    }
}

#[test]
fn zeroed_and_garbage_blocks_are_bad_magic() {
    for kind in CHECKED {
        let e = Expect::exact(&id(0, 4096, 1));
        let f = err(check_block(&[0u8; 4096], kind, &e, None));
        assert_eq!(f.kind, FailureKind::BadMagic);
        let mut junk = vec![0u8; 4096];
        fill_random(&mut junk, 42);
        assert_eq!(
            err(check_block(&junk, kind, &e, None)).kind,
            FailureKind::BadMagic
        );
        // Our magic over garbage is a corrupted header, not a valid block.
        junk[..4].copy_from_slice(&MAGIC.to_le_bytes());
        assert_eq!(
            err(check_block(&junk, kind, &e, None)).kind,
            FailureKind::HeaderChecksum
        );
    }
}

#[test]
fn torn_writes_are_detected() {
    for kind in [
        VerifyKind::Crc32c,
        VerifyKind::Xxhash,
        VerifyKind::Md5,
        VerifyKind::Sha256,
        VerifyKind::Pattern,
    ] {
        let old = block(kind, &id(0, 4096, 1), None);
        let new = block(kind, &id(0, 4096, 2), None);
        let e = Expect::exact(&id(0, 4096, 2));
        for cut in [512usize, 2048, 3584] {
            let mut torn = new[..cut].to_vec();
            torn.extend_from_slice(&old[cut..]);
            let f = err(check_block(&torn, kind, &e, None));
            assert_eq!(f.kind, FailureKind::DataChecksum);
            let first_diff = (cut..4096).find(|&i| old[i] != new[i]).unwrap();
            assert_eq!(f.first_bad_byte, Some(first_diff));
            let mut torn = old[..cut].to_vec();
            torn.extend_from_slice(&new[cut..]);
            let f = err(check_block(&torn, kind, &e, None));
            assert_eq!(f.kind, FailureKind::Stale);
            // Without a generation expectation the mixed data is still caught.
            let any = Expect::any(0, 4096);
            let f = err(check_block(&torn, kind, &any, None));
            assert_eq!(f.kind, FailureKind::DataChecksum);
        }
    }
    // A 1 MiB write with 4 KiB verify intervals torn at 512 KiB: the first old block is found.
    let kind = VerifyKind::Crc32c;
    let mut old = vec![0u8; 1 << 20];
    let mut new = old.clone();
    fill_blocks(&mut old, kind, 4096, &id(0, 0, 1), None);
    fill_blocks(&mut new, kind, 4096, &id(0, 0, 2), None);
    new[512 << 10..].copy_from_slice(&old[512 << 10..]);
    let f = err(check_blocks(&new, kind, 4096, 0, None, |o, l| {
        Expect::exact(&BlockId {
            offset: o,
            len: l,
            ..id(0, 0, 2)
        })
    }));
    assert_eq!(f.kind, FailureKind::Stale);
    assert_eq!(f.expected.offset, 512 << 10);
}

#[test]
fn pattern_kind_checks_the_pattern() {
    let b = id(0, 4096, 1);
    let buf = block(VerifyKind::Pattern, &b, Some(PAT));
    for i in 48..4096 {
        assert_eq!(buf[i], PAT[i % PAT.len()]);
    }
    let e = Expect::exact(&b);
    check_block(&buf, VerifyKind::Pattern, &e, Some(PAT)).unwrap();
    // Checking against another pattern fails at the first byte that differs.
    let other = b"\xde\xad\xbe\xef\x5b";
    let f = err(check_block(&buf, VerifyKind::Pattern, &e, Some(other)));
    assert_eq!(f.kind, FailureKind::DataChecksum);
    assert_eq!(f.first_bad_byte, Some(49)); // 49 % 5 == 4
                                            // A one-byte pattern and a pattern longer than the compare buffer.
    let long: Vec<u8> = (0..700u32).map(|i| (i * 7 + 3) as u8).collect();
    for p in [&b"\xa5"[..], &long[..]] {
        let mut buf = block(VerifyKind::Pattern, &b, Some(p));
        check_block(&buf, VerifyKind::Pattern, &e, Some(p)).unwrap();
        buf[3000] ^= 1;
        let f = err(check_block(&buf, VerifyKind::Pattern, &e, Some(p)));
        assert_eq!(f.first_bad_byte, Some(3000));
    }
}

#[test]
fn null_kind_always_passes_and_writes_nothing() {
    let mut buf = vec![7u8; 4096];
    fill_block(&mut buf, VerifyKind::Null, &id(0, 4096, 1), None);
    assert!(buf.iter().all(|&x| x == 7));
    let e = Expect::exact(&id(123, 4096, 9));
    check_block(&buf, VerifyKind::Null, &e, None).unwrap();
    check_block(&[], VerifyKind::Null, &e, None).unwrap();
}

#[test]
fn wrong_job_seed_kind_and_length() {
    let b = id(0, 4096, 1);
    let buf = block(VerifyKind::Md5, &b, None);
    let e = Expect::exact(&b);
    let k = |e: Expect, kind: VerifyKind| err(check_block(&buf, kind, &e, None)).kind;
    let job = Expect { job: Some(1), ..e };
    assert_eq!(k(job, VerifyKind::Md5), FailureKind::WrongJob);
    let seed = Expect { seed: Some(1), ..e };
    assert_eq!(k(seed, VerifyKind::Md5), FailureKind::WrongJob);
    check_block(&buf, VerifyKind::Md5, &Expect::any(0, 4096), None).unwrap();
    assert_eq!(k(e, VerifyKind::Sha256), FailureKind::KindMismatch);
    let short = Expect { len: 2048, ..e };
    assert_eq!(k(short, VerifyKind::Md5), FailureKind::Length);
    let too_long = Expect { len: 8192, ..e };
    assert_eq!(k(too_long, VerifyKind::Md5), FailureKind::Length);
    let tiny = Expect { len: 32, ..e };
    assert_eq!(k(tiny, VerifyKind::Md5), FailureKind::Length);
    let f = err(check_block(&buf, VerifyKind::Md5, &job, None));
    assert!(f.to_string().contains("wrong job"), "{f}");
}

#[test]
fn expected_id_regenerates_the_expected_block() {
    let b = id(4096, 4096, 4);
    let mut buf = block(VerifyKind::Xxhash, &b, None);
    buf[1000] ^= 0x80;
    let f = err(check_block(
        &buf,
        VerifyKind::Xxhash,
        &Expect::exact(&b),
        None,
    ));
    assert_eq!(f.expected_id(), b);
    let good = block(VerifyKind::Xxhash, &f.expected_id(), None);
    let diff: Vec<usize> = (0..4096).filter(|&i| good[i] != buf[i]).collect();
    assert_eq!(diff, [1000]);
    let msg = f.to_string();
    assert!(
        msg.contains("byte 1000") && msg.contains("file offset 5096"),
        "{msg}"
    );
}

#[test]
fn block_splitting() {
    let v: Vec<_> = blocks(10_000, 4096).collect();
    assert_eq!(v, [(0, 4096), (4096, 5904)]);
    assert_eq!(blocks(4096, 0).collect::<Vec<_>>(), [(0, 4096)]);
    assert_eq!(blocks(512, 4096).collect::<Vec<_>>(), [(0, 512)]);
    assert_eq!(blocks(0, 4096).count(), 0);
    assert_eq!(blocks(1 << 20, 4096).count(), 256);
}

#[test]
fn written_map() {
    let mut m = WrittenMap::new(1000);
    assert_eq!(m.len(), 1000);
    assert_eq!(WrittenMap::memory_bytes(1000), 4000);
    assert_eq!(m.get(5), None);
    assert_eq!(m.bump(5), 1);
    assert_eq!(m.bump(5), 2);
    assert_eq!(m.get(5), Some(2));
    m.record(999, 7);
    assert_eq!(m.get(999), Some(7));
    assert_eq!(m.get(1000), None);
    assert_eq!(m.get(u64::MAX), None);
    assert_eq!(m.written().collect::<Vec<_>>(), [(5, 2), (999, 7)]);
    m.record(5, u32::MAX);
    assert_eq!(m.bump(5), u32::MAX);
    m.clear();
    assert_eq!(m.written().count(), 0);
    assert!(WrittenMap::new(0).is_empty());
}

#[test]
fn written_map_drives_random_overwrites_without_false_positives() {
    // Random overwrites of 64 blocks (no random map): every block checks with the generation
    // the map holds, and an older copy of any block is caught as stale.
    let kind = VerifyKind::Crc32c;
    let bs = 512usize;
    let mut disk = vec![0u8; 64 * bs];
    let mut m = WrittenMap::new(64);
    let mut rng = crate::rng::Rng::new(9);
    let mut snapshot = None;
    for n in 0..500 {
        let blk = rng.below(64);
        let g = m.bump(blk) as u64;
        let b = id(blk * bs as u64, bs, g);
        let at = blk as usize * bs;
        fill_block(&mut disk[at..at + bs], kind, &b, None);
        if n == 250 {
            snapshot = Some((blk, disk[at..at + bs].to_vec()));
        }
    }
    for (blk, g) in m.written() {
        let at = blk as usize * bs;
        let e = Expect::exact(&id(blk * bs as u64, bs, g as u64));
        check_block(&disk[at..at + bs], kind, &e, None).unwrap();
    }
    // Overwrite the snapshotted block once more, then put the old copy back: a lost write.
    let (blk, old) = snapshot.unwrap();
    let g = m.bump(blk) as u64;
    let at = blk as usize * bs;
    fill_block(
        &mut disk[at..at + bs],
        kind,
        &id(blk * bs as u64, bs, g),
        None,
    );
    let e = Expect::exact(&id(blk * bs as u64, bs, g));
    check_block(&disk[at..at + bs], kind, &e, None).unwrap();
    disk[at..at + bs].copy_from_slice(&old);
    let f = err(check_block(&disk[at..at + bs], kind, &e, None));
    assert_eq!(f.kind, FailureKind::Stale);
    assert!(f.found.unwrap().generation < g);
}

#[test]
fn dump_blocks_writes_both_files() {
    let dir = std::env::temp_dir().join(format!("iomark-verify-dump-{}", std::process::id()));
    let (e, r) = dump_blocks(&dir, "job.0.0", 8192, b"expected", b"received").unwrap();
    assert_eq!(e, dir.join("job.0.0.8192.expected"));
    assert_eq!(r, dir.join("job.0.0.8192.received"));
    assert_eq!(std::fs::read(&e).unwrap(), b"expected");
    assert_eq!(std::fs::read(&r).unwrap(), b"received");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Rough cost of fill + check per 4 KiB block (prints, asserts nothing). Run with
/// `cargo test --release -p iomark-engine verify::tests::speed -- --ignored --nocapture`.
#[test]
#[ignore]
fn speed() {
    let mut buf = vec![0u8; 4096];
    let n = 20_000u64;
    for kind in VerifyKind::ALL {
        let t = std::time::Instant::now();
        for i in 0..n {
            let b = id(i * 4096, 4096, 1);
            fill_block(&mut buf, kind, &b, None);
            std::hint::black_box(&mut buf);
        }
        let fill = t.elapsed().as_nanos() as f64 / n as f64;
        let t = std::time::Instant::now();
        for _ in 0..n {
            let e = Expect::exact(&id((n - 1) * 4096, 4096, 1));
            std::hint::black_box(check_block(std::hint::black_box(&buf), kind, &e, None)).unwrap();
        }
        let check = t.elapsed().as_nanos() as f64 / n as f64;
        println!("{kind:>8}: fill {fill:7.0} ns  check {check:7.0} ns per 4 KiB");
    }
}

#[test]
fn meta_checks_the_header_and_only_a_given_pattern() {
    let b = id(8192, 4096, 2);
    let e = Expect::exact(&b);
    let mut buf = block(VerifyKind::Meta, &b, None);
    buf[100] ^= 0xff;
    check_block(&buf, VerifyKind::Meta, &e, None).unwrap();
    buf[20] ^= 0xff;
    assert_eq!(
        err(check_block(&buf, VerifyKind::Meta, &e, None)).kind,
        FailureKind::HeaderChecksum
    );
    let mut buf = block(VerifyKind::Meta, &b, Some(PAT));
    check_block(&buf, VerifyKind::Meta, &e, Some(PAT)).unwrap();
    buf[100] ^= 0xff;
    assert_eq!(
        err(check_block(&buf, VerifyKind::Meta, &e, Some(PAT))).kind,
        FailureKind::DataChecksum
    );
    // Blocks written with another check pass on their header.
    for k in CHECKED {
        let buf = block(k, &b, None);
        check_block(&buf, VerifyKind::Meta, &e, None).unwrap();
    }
}
