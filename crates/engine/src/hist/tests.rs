use super::*;

struct SplitMix(u64);
impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
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

fn naive_mean_std(v: &[u64]) -> (f64, f64) {
    let n = v.len() as f64;
    let mean = v.iter().map(|&x| x as f64).sum::<f64>() / n;
    let var = v.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, var.sqrt())
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs()).max(1e-300)
}

#[test]
fn latstat_vs_naive() {
    let mut rng = SplitMix(9);
    // Large offset, tiny spread: naive sum-of-squares in f64 would cancel badly.
    let v: Vec<u64> = (0..100_000)
        .map(|_| 60_000_000_000 + rng.below(1000))
        .collect();
    let mut s = LatStat::default();
    for &x in &v {
        s.add(x);
    }
    let (m, sd) = naive_mean_std(&v);
    assert!(close(s.mean(), m, 1e-12), "{} {m}", s.mean());
    assert!(close(s.stddev(), sd, 1e-6), "{} {sd}", s.stddev());
    assert_eq!(s.min, *v.iter().min().unwrap());
    assert_eq!(s.max, *v.iter().max().unwrap());

    let w: Vec<u64> = (0..50_000)
        .map(|_| rng.next() >> (24 + rng.below(40)))
        .collect();
    let mut a = LatStat::default();
    let mut b = LatStat::default();
    let mut all = LatStat::default();
    for (i, &x) in w.iter().enumerate() {
        let t = if i % 3 == 0 { &mut a } else { &mut b };
        t.add(x);
        all.add(x);
    }
    let mut m2 = a.clone();
    m2.merge(&b);
    assert_eq!(m2, all);
    let (m, sd) = naive_mean_std(&w);
    assert!(close(all.mean(), m, 1e-12));
    assert!(close(all.stddev(), sd, 1e-9));

    let mut e = LatStat::default();
    assert_eq!((e.mean(), e.stddev(), e.min_or_zero()), (0.0, 0.0, 0));
    e.merge(&LatStat::default());
    assert_eq!(e, LatStat::default());
    e.add(7);
    assert_eq!((e.min, e.max, e.stddev(), e.mean()), (7, 7, 0.0, 7.0));
    e.add(9);
    assert_eq!(e.min_or_zero(), 7);
    assert!(close(e.stddev(), 2f64.sqrt(), 1e-15));
}

#[test]
fn latstat_huge_sums_do_not_lose_precision() {
    // n * sumsq exceeds u128 here; the 256-bit path must still be exact.
    let s = LatStat {
        n: 4_000_000_000,
        min: 0,
        max: 0,
        sum: 4_000_000_000u128 * 1_000_000_000_000,
        sumsq: 2_000_000_000u128
            * ((1_000_000_000_000u128 - 5).pow(2) + (1_000_000_000_000u128 + 5).pow(2)),
    };
    assert!((s.n as u128).checked_mul(s.sumsq).is_none());
    let expect = (25.0f64 * 4e9 / (4e9 - 1.0)).sqrt();
    assert!(close(s.stddev(), expect, 1e-12), "{}", s.stddev());
    assert!(close(s.mean(), 1e12, 1e-15));
}

#[test]
fn wide_multiply() {
    let mut rng = SplitMix(10);
    for _ in 0..10_000 {
        let a = rng.next() as u128 * (rng.next() >> rng.below(64)) as u128;
        let b = rng.next() as u128;
        let (hi, lo) = mul_u128_wide(a, b);
        match a.checked_mul(b) {
            Some(p) => assert_eq!((hi, lo), (0, p)),
            None => assert!(hi > 0),
        }
        assert_eq!(lo, a.wrapping_mul(b));
    }
    assert_eq!(mul_u128_wide(u128::MAX, u128::MAX), (u128::MAX - 1, 1));
}

#[test]
fn samplestat_welford_vs_naive() {
    let mut rng = SplitMix(11);
    let v: Vec<f64> = (0..10_000).map(|_| 1e6 + rng.unit() * 5000.0).collect();
    let mut s = SampleStat::default();
    for &x in &v {
        s.add(x);
    }
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let sd = (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    assert_eq!(s.n, 10_000);
    assert!(close(s.mean, mean, 1e-12));
    assert!(close(s.stddev(), sd, 1e-9));
    assert_eq!(s.min, v.iter().cloned().fold(f64::INFINITY, f64::min));
    assert_eq!(s.max, v.iter().cloned().fold(f64::NEG_INFINITY, f64::max));

    // Parallel merge equals adding everything to one stat.
    let mut a = SampleStat::default();
    let mut b = SampleStat::default();
    for (i, &x) in v.iter().enumerate() {
        let t = if i < 3000 { &mut a } else { &mut b };
        t.add(x);
    }
    let mut m = a.clone();
    m.merge_welford(&b);
    assert_eq!(m.n, s.n);
    assert!(close(m.mean, s.mean, 1e-12));
    assert!(close(m.stddev(), s.stddev(), 1e-9));
    assert_eq!((m.min, m.max), (s.min, s.max));

    let mut one = SampleStat::default();
    one.add(3.0);
    assert_eq!(
        (one.min, one.max, one.mean, one.stddev()),
        (3.0, 3.0, 3.0, 0.0)
    );
}

#[test]
fn samplestat_pure_sum() {
    let mut a = SampleStat::default();
    for x in [10.0, 20.0, 30.0] {
        a.add(x);
    }
    let mut b = SampleStat::default();
    for x in [100.0, 300.0] {
        b.add(x);
    }
    let mut g = SampleStat::default();
    g.sum_merge(&a);
    assert_eq!(g, a);
    g.sum_merge(&b);
    assert_eq!(g.n, 5);
    assert_eq!(g.min, 110.0);
    assert_eq!(g.max, 330.0);
    assert_eq!(g.mean, 220.0);
    assert_eq!(g.m2, a.m2 + b.m2);
    g.sum_merge(&SampleStat::default());
    assert_eq!(g.n, 5);
    assert_eq!(g.min, 110.0);
}

#[test]
fn latency_buckets() {
    // Exact (below 128) and bucket-aligned boundary values.
    let cases: [(u64, usize); 16] = [
        (0, 0),
        (1, 0),
        (2, 1),
        (3, 1),
        (4, 2),
        (99, 5),
        (100, 6),
        (249, 6),
        (250, 7),
        (999, 9),
        (1999, 10),
        (2000, 11),
        (499_000, 17),
        (500_000, 18),
        (1_990_000_000, 30),
        (2_000_000_000, 31),
    ];
    for &(v, slot) in &cases {
        let mut h = Histogram::new();
        h.record(v);
        let b = LatencyBuckets::from_hists(&[&h]);
        let flat: Vec<f64> = b.ns.iter().chain(&b.us).chain(&b.ms).cloned().collect();
        for (i, &p) in flat.iter().enumerate() {
            let want = if i == slot { 100.0 } else { 0.0 };
            assert_eq!(p, want, "v={v} slot {i}");
        }
    }
    assert_eq!(LAT_MS_THRESHOLDS[10], 2000);
    assert_eq!(LAT_THRESHOLDS[7], 500);

    let mut rng = SplitMix(12);
    let mut r = Histogram::new();
    let mut w = Histogram::new();
    for _ in 0..30_000 {
        r.record(rng.next() >> (20 + rng.below(44)));
        w.record(rng.below(3_000_000));
    }
    let b = LatencyBuckets::from_hists(&[&r, &w]);
    let total: f64 = b.ns.iter().chain(&b.us).chain(&b.ms).sum();
    assert!((total - 100.0).abs() < 1e-9, "{total}");
    // Combined histogram gives the same answer as two separate ones.
    let mut rw = r.clone();
    rw.merge(&w);
    assert_eq!(LatencyBuckets::from_hists(&[&rw]), b);
    assert_eq!(
        LatencyBuckets::from_hists(&[&Histogram::new()]),
        LatencyBuckets::default()
    );
}

#[test]
fn counters_are_allocated_at_the_first_value() {
    let empty = Histogram::new();
    assert!(empty.counts().is_empty());
    let mut merged = Histogram::new();
    merged.merge(&empty);
    assert!(
        merged.counts().is_empty(),
        "merging nothing allocates nothing"
    );
    assert_eq!(empty.fio_bins(), vec![0; FIO_HIST_BUCKETS]);
    assert_eq!(empty.percentile(99.0), 0);
    let mut h = Histogram::new();
    h.record(1000);
    assert_eq!(h.counts().len(), HIST_BUCKETS);
    assert_eq!(h.delta_since(&empty).count(), 1);
    assert!(empty.delta_since(&h).counts().is_empty());
    merged.merge(&h);
    assert_eq!(merged, h);
    h.clear();
    assert_eq!(h, empty, "a cleared histogram equals one never used");
}
