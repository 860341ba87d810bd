//! Tests of the histogram: fio's bucket layout, percentiles, merges, the serial form.
//! The running statistics and latency buckets are tested in `stats.rs`.

use super::*;

mod stats;

/// A seeded source of test values (splitmix64).
struct SplitMix(u64);
impl SplitMix {
    fn next(&mut self) -> u64 {
        // splitmix64: the golden-ratio step, then its bijective mixer.
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// fio's index formula, written out step by step with its 29-group clamp.
fn fio_index(v: u64) -> usize {
    let msb = if v == 0 {
        0
    } else {
        63 - v.leading_zeros() as u64
    };
    if msb <= 6 {
        return v as usize;
    }
    let error_bits = msb - 6;
    let idx = (error_bits + 1) * 64 + ((v >> error_bits) & 63);
    (idx as usize).min(1855)
}

fn fio_value(idx: usize) -> u64 {
    if idx < 128 {
        return idx as u64;
    }
    let error_bits = (idx >> 6) as i32 - 1;
    let base = 1u64 << (error_bits + 6);
    let k = (idx % 64) as f64;
    (base as f64 + (k + 0.5) * 2f64.powi(error_bits)) as u64
}

fn interesting_values(rng: &mut SplitMix) -> Vec<u64> {
    let mut vals: Vec<u64> = (0..5000).collect();
    for shift in 0..64 {
        let p = 1u64 << shift;
        vals.extend([p - 1, p, p + 1, p.wrapping_mul(3) / 2]);
    }
    for _ in 0..200_000 {
        let bits = rng.below(64) as u32;
        vals.push(rng.next() >> (63 - bits));
    }
    vals.push(u64::MAX);
    vals
}

#[test]
fn index_matches_fio_inside_fio_range() {
    let mut rng = SplitMix(1);
    let fio_top = 1u64 << 34;
    for v in interesting_values(&mut rng) {
        if v < fio_top {
            assert_eq!(Histogram::bucket_index(v), fio_index(v), "v={v}");
        } else {
            assert!(Histogram::bucket_index(v) >= fio_index(v), "v={v}");
        }
    }
    for idx in 0..FIO_HIST_BUCKETS {
        assert_eq!(Histogram::bucket_value(idx), fio_value(idx), "idx={idx}");
    }
    // Spot checks of known keys seen in fio's json+ output.
    assert_eq!(Histogram::bucket_value(Histogram::bucket_index(4769)), 4768);
    assert_eq!(
        Histogram::bucket_value(Histogram::bucket_index(15936)),
        15936
    );
    assert_eq!(
        Histogram::bucket_value(Histogram::bucket_index(20100)),
        20096
    );
}

#[test]
fn index_value_round_trip() {
    let mut rng = SplitMix(2);
    let top = 1u64 << 41;
    for v in interesting_values(&mut rng) {
        let idx = Histogram::bucket_index(v);
        assert!(idx < HIST_BUCKETS);
        if v >= top {
            assert_eq!(idx, HIST_BUCKETS - 1, "v={v}");
            continue;
        }
        let (lo, hi) = Histogram::bucket_range(idx);
        assert!(lo <= v && v < hi, "v={v} idx={idx} range=({lo},{hi})");
        let mid = Histogram::bucket_value(idx);
        assert!(lo <= mid && mid < hi);
        if v < 128 {
            assert_eq!(mid, v);
        } else {
            let rel = (mid as f64 - v as f64).abs() / v as f64;
            assert!(rel <= 1.0 / 128.0, "v={v} mid={mid} rel={rel}");
        }
    }
    // Buckets tile the value range without gaps.
    for idx in 0..HIST_BUCKETS - 1 {
        assert_eq!(
            Histogram::bucket_range(idx).1,
            Histogram::bucket_range(idx + 1).0
        );
        assert_eq!(Histogram::bucket_index(Histogram::bucket_range(idx).0), idx);
    }
    assert_eq!(Histogram::bucket_range(HIST_BUCKETS - 1).1, top);
}

/// Exact fio rank for percentiles whose double value is a dyadic rational p_num/p_den.
fn exact_rank(p_num: u64, p_den: u64, n: u64) -> usize {
    let num = p_num as u128 * n as u128;
    let den = 100u128 * p_den as u128;
    (num.div_ceil(den).max(1)) as usize
}

const PCTS: [(u64, u64); 13] = [
    (1, 1),
    (5, 1),
    (10, 1),
    (25, 1),
    (50, 1),
    (75, 1),
    (90, 1),
    (95, 1),
    (99, 1),
    (199, 2),
    (399, 4),
    (1599, 16),
    (100, 1),
];

fn check_percentiles(samples: &[u64], name: &str) {
    let mut h = Histogram::new();
    for &v in samples {
        h.record(v);
    }
    assert_eq!(h.count(), samples.len() as u64);
    let mut sorted = samples.to_vec();
    sorted.sort_unstable();
    let ps: Vec<f64> = PCTS.iter().map(|&(a, b)| a as f64 / b as f64).collect();
    let got = h.percentiles(&ps);
    for (k, &(a, b)) in PCTS.iter().enumerate() {
        let exact = sorted[exact_rank(a, b, sorted.len() as u64) - 1];
        let (p, v) = got[k];
        assert_eq!(p, ps[k]);
        assert_eq!(v, h.percentile(p), "{name} p={p}");
        assert_eq!(
            v,
            Histogram::bucket_value(Histogram::bucket_index(exact)),
            "{name} p={p} exact={exact}"
        );
        let rel = (v as f64 - exact as f64).abs() / (exact as f64).max(1.0);
        assert!(rel <= 0.01, "{name} p={p} exact={exact} got={v}");
    }
}

#[test]
fn percentiles_uniform() {
    let mut rng = SplitMix(3);
    let s: Vec<u64> = (0..100_000).map(|_| rng.below(2_000_000)).collect();
    check_percentiles(&s, "uniform");
}

#[test]
fn percentiles_exponential_like() {
    let mut rng = SplitMix(4);
    // Mean 100 µs, capped at 30 minutes; a few values up to and beyond 60 s.
    let mut s: Vec<u64> = (0..100_000)
        .map(|_| (-(1.0 - rng.unit()).ln() * 100_000.0) as u64)
        .collect();
    for i in 0..200 {
        s[i * 37] = 60_000_000_000 + i as u64 * 7_000_000_000;
    }
    check_percentiles(&s, "exponential");
}

#[test]
fn percentiles_bimodal() {
    let mut rng = SplitMix(5);
    let s: Vec<u64> = (0..100_000)
        .map(|_| {
            if rng.below(10) < 7 {
                50_000 + rng.below(20_000)
            } else {
                55_000_000_000 + rng.below(10_000_000_000)
            }
        })
        .collect();
    check_percentiles(&s, "bimodal");
}

#[test]
fn percentile_edge_rules() {
    let h = Histogram::new();
    assert_eq!(h.percentile(50.0), 0);
    assert_eq!(h.percentiles(&[1.0, 99.0]), vec![(1.0, 0), (99.0, 0)]);

    // 99.9 as a double is slightly above 99.9, so with N=1000 the threshold is just above
    // 999 and the 1000th value is reported (fio's extended-precision comparison agrees).
    let mut h = Histogram::new();
    for _ in 0..999 {
        h.record(1);
    }
    h.record(100);
    assert_eq!(h.percentile(99.9), 100);
    // Cases where a plain f64 computation of p/100*N rounds onto the integer and would
    // stop one value early: 99.95 and 0.1 as doubles are slightly above their decimals.
    let mut h = Histogram::new();
    h.record_n(1, 1999);
    h.record(100);
    assert_eq!(h.percentile(99.95), 100);
    let mut h = Histogram::new();
    h.record(1);
    h.record_n(100, 999);
    assert_eq!(h.percentile(0.1), 100);
    assert_eq!(h.percentile(0.05), 1);
    // 99.99 as a double is slightly below 99.99: N=10000 needs only 9999 values.
    let mut h = Histogram::new();
    for _ in 0..9999 {
        h.record(1);
    }
    h.record(100);
    assert_eq!(h.percentile(99.99), 1);
    assert_eq!(h.percentile(100.0), 100);
    assert_eq!(h.percentile(250.0), 100);
    assert_eq!(h.percentile(0.0), 0);
    assert_eq!(h.percentile(f64::NAN), 0);
    // Unsorted requests come back in request order.
    let got = h.percentiles(&[100.0, 50.0, 99.999]);
    assert_eq!(got, vec![(100.0, 100), (50.0, 1), (99.999, 100)]);
}

#[test]
fn clamp_beyond_range() {
    let mut h = Histogram::new();
    h.record(u64::MAX);
    h.record(1u64 << 50);
    assert_eq!(h.counts()[HIST_BUCKETS - 1], 2);
    assert_eq!(
        h.percentile(50.0),
        Histogram::bucket_value(HIST_BUCKETS - 1)
    );
    let fb = h.fio_bins();
    assert_eq!(fb.len(), FIO_HIST_BUCKETS);
    assert_eq!(fb[FIO_HIST_BUCKETS - 1], 2);
}

#[test]
fn fio_bins_layout() {
    let mut rng = SplitMix(6);
    let mut h = Histogram::new();
    let mut expect = vec![0u64; FIO_HIST_BUCKETS];
    for _ in 0..50_000 {
        let v = rng.next() >> (20 + rng.below(44));
        h.record(v);
        expect[fio_index(v)] += 1;
    }
    assert_eq!(h.fio_bins(), expect);
    assert_eq!(expect.iter().sum::<u64>(), 50_000);
}

#[test]
fn merge_equals_concatenation() {
    let mut rng = SplitMix(7);
    let a: Vec<u64> = (0..60_000)
        .map(|_| rng.next() >> (22 + rng.below(42)))
        .collect();
    let b: Vec<u64> = (0..40_000).map(|_| rng.below(5_000_000)).collect();
    let (mut ha, mut hb, mut hall) = (Histogram::new(), Histogram::new(), Histogram::new());
    for &v in &a {
        ha.record(v);
        hall.record(v);
    }
    for &v in &b {
        hb.record(v);
        hall.record(v);
    }
    let mut m = ha.clone();
    m.merge(&hb);
    assert_eq!(m, hall);
    assert_eq!(m.count(), 100_000);
    let ps = [1.0, 50.0, 90.0, 99.0, 99.9, 99.99, 100.0];
    assert_eq!(m.percentiles(&ps), hall.percentiles(&ps));
    assert_eq!(m.bins(), hall.bins());
    // Merging into an empty (default) histogram copies.
    let mut d = Histogram::default();
    assert!(d.is_empty());
    d.merge(&hall);
    assert_eq!(d, hall);
    // delta_since undoes a merge.
    assert_eq!(m.delta_since(&ha), hb);
}

#[test]
fn merges_are_commutative_and_associative() {
    let mut rng = SplitMix(11);
    let sets: Vec<Vec<u64>> = (0..3)
        .map(|k| {
            (0..10_000 + 5_000 * k)
                .map(|_| rng.next() >> (20 + rng.below(44)))
                .collect()
        })
        .collect();
    let hists: Vec<Histogram> = sets
        .iter()
        .map(|s| {
            let mut h = Histogram::new();
            s.iter().for_each(|&v| h.record(v));
            h
        })
        .collect();
    let stats: Vec<LatStat> = sets
        .iter()
        .map(|s| {
            let mut st = LatStat::default();
            s.iter().for_each(|&v| st.add(v));
            st
        })
        .collect();
    let (h, st) = (&hists, &stats);
    // (a + b) + c == a + (b + c) == (c + a) + b
    let mut left = h[0].clone();
    left.merge(&h[1]);
    left.merge(&h[2]);
    let mut bc = h[1].clone();
    bc.merge(&h[2]);
    let mut right = h[0].clone();
    right.merge(&bc);
    let mut other = h[2].clone();
    other.merge(&h[0]);
    other.merge(&h[1]);
    assert_eq!(left, right);
    assert_eq!(left, other);
    let mut sl = st[0].clone();
    sl.merge(&st[1]);
    sl.merge(&st[2]);
    let mut sbc = st[1].clone();
    sbc.merge(&st[2]);
    let mut sr = st[0].clone();
    sr.merge(&sbc);
    let mut so = st[2].clone();
    so.merge(&st[0]);
    so.merge(&st[1]);
    assert_eq!(sl, sr);
    assert_eq!(sl, so);
    // The merged stat is the stat of all samples together.
    let mut all = LatStat::default();
    sets.iter().flatten().for_each(|&v| all.add(v));
    assert_eq!(sl, all);
    // Merging an empty stat changes nothing, either way round.
    let mut e = LatStat::default();
    e.merge(&all);
    assert_eq!(e, all);
    e.merge(&LatStat::default());
    assert_eq!(e, all);
}

#[test]
fn percentiles_of_a_merge_are_those_of_all_samples_not_an_average() {
    // Two very different sets: averaging their p99s would be far from the p99 of both.
    let fast: Vec<u64> = (0..9_000).map(|i| 10_000 + i % 1000).collect();
    let slow: Vec<u64> = (0..1_000).map(|i| 5_000_000 + i * 1000).collect();
    let (mut hf, mut hs, mut hall) = (Histogram::new(), Histogram::new(), Histogram::new());
    fast.iter().for_each(|&v| {
        hf.record(v);
        hall.record(v);
    });
    slow.iter().for_each(|&v| {
        hs.record(v);
        hall.record(v);
    });
    let mut m = hs.clone();
    m.merge(&hf);
    let ps = [50.0, 89.0, 90.0, 95.0, 99.0, 99.9];
    assert_eq!(m.percentiles(&ps), hall.percentiles(&ps));
    // The merged p99 lies in the slow set; the average of the two p99s does not equal it.
    let avg = (hf.percentile(99.0) + hs.percentile(99.0)) / 2;
    assert!(m.percentile(99.0) >= 5_000_000);
    assert_ne!(m.percentile(99.0), avg);
    assert!(m.percentile(50.0) < 12_000);
}

#[test]
fn bins_sparse_ascending() {
    let mut h = Histogram::new();
    for v in [4769u64, 20100, 15936, 4769, 0, 5] {
        h.record(v);
    }
    assert_eq!(
        h.bins(),
        vec![(0, 1), (5, 1), (4768, 2), (15936, 1), (20096, 1)]
    );
    h.clear();
    assert!(h.is_empty());
    assert!(h.bins().is_empty());
}

#[test]
fn serde_round_trip() {
    let mut rng = SplitMix(8);
    let mut h = Histogram::new();
    for _ in 0..20_000 {
        h.record(rng.next() >> rng.below(64));
    }
    h.record(u64::MAX);
    let s = serde_json::to_string(&h).unwrap();
    assert!(s.starts_with("{\"bits\":6,\"groups\":36,\"counts\":[["));
    let back: Histogram = serde_json::from_str(&s).unwrap();
    assert_eq!(back, h);
    let empty = serde_json::to_string(&Histogram::new()).unwrap();
    assert_eq!(empty, "{\"bits\":6,\"groups\":36,\"counts\":[]}");
    assert!(serde_json::from_str::<Histogram>(&empty)
        .unwrap()
        .is_empty());
    // A smaller (fio-sized) layout is accepted as is.
    let small: Histogram =
        serde_json::from_str("{\"bits\":6,\"groups\":29,\"counts\":[[3,2],[1855,4]]}").unwrap();
    assert_eq!(small.count(), 6);
    assert_eq!(small.counts()[1855], 4);
    // Result structs holding histograms round-trip too.
    let mut rec = crate::result::LatRecord::default();
    rec.add(12345);
    rec.add(67_000_000_000);
    let s = serde_json::to_string(&rec).unwrap();
    let back: crate::result::LatRecord = serde_json::from_str(&s).unwrap();
    assert_eq!(back, rec);
}

#[test]
fn serde_rejects_malformed() {
    let bad = [
        "",
        "null",
        "[]",
        "{}",
        "{\"bits\":6,\"groups\":36}",
        "{\"bits\":5,\"groups\":36,\"counts\":[]}",
        "{\"bits\":6,\"groups\":0,\"counts\":[]}",
        "{\"bits\":6,\"groups\":1000,\"counts\":[]}",
        "{\"bits\":6,\"groups\":36,\"counts\":[[2304,1]]}",
        "{\"bits\":6,\"groups\":29,\"counts\":[[1856,1]]}",
        "{\"bits\":6,\"groups\":36,\"counts\":[[5,1],[5,1]]}",
        "{\"bits\":6,\"groups\":36,\"counts\":[[6,1],[5,1]]}",
        "{\"bits\":6,\"groups\":36,\"counts\":[[5,-1]]}",
        "{\"bits\":6,\"groups\":36,\"counts\":[[5,1.5]]}",
        "{\"bits\":6,\"groups\":36,\"counts\":[[5]]}",
        "{\"bits\":6,\"groups\":36,\"counts\":[[5,1,2]]}",
        "{\"bits\":6,\"groups\":36,\"counts\":[\"x\"]}",
        "{\"bits\":6,\"groups\":36,\"counts\":{\"5\":1}}",
        "{\"bits\":6,\"groups\":36,\"counts\":[[1,18446744073709551615],[2,1]]}",
        "{\"bits\":6,\"groups\":36,\"counts\":[[-1,1]]}",
        "{\"bits\":6,\"groups\":36,\"counts\":[[1,1]]",
    ];
    for b in bad {
        assert!(
            serde_json::from_str::<Histogram>(b).is_err(),
            "accepted {b}"
        );
    }
}

#[test]
fn record_ten_million() {
    let mut h = Histogram::new();
    let mut x = 0x1234_5678u64;
    for _ in 0..10_000_000u64 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        h.record(x >> 30);
    }
    assert_eq!(h.count(), 10_000_000);
    assert_eq!(h.fio_bins().iter().sum::<u64>(), 10_000_000);
}
