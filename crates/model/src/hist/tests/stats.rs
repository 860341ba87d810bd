//! Tests of the running statistics (`LatStat`, `SampleStat`) and the latency buckets.

use super::*;

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
