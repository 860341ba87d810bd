//! Charts of jobs: per source a summary, then per job and direction the interval series (IOPS,
//! bandwidth, latency percentiles over time), the latency histogram, CDF and percentiles
//! (slat/clat/lat), sync latency, CPU use, per-clone breakdown, and disk utilisation.

use super::{bars, line, Chart, Kind, Trace};
use crate::model::{DirFigures, Figure, Job, Lat, Source};

/// The charts of every source's jobs, source by source.
pub fn charts(sources: &[Source]) -> Vec<Chart> {
    let mut out = Vec::new();
    for s in sources {
        // A bonnie++ run's summary is its own charts, one per kind of figure.
        if !s.is_bonnie() {
            summary_charts(s, &mut out);
        }
        // Many jobs, or jobs that are the points of a suite's matrix: each job's charts are
        // detail behind the summary and the suite's own charts.
        let detail = s.jobs.len() > 4 || !s.tables.is_empty();
        for j in &s.jobs {
            let from = out.len();
            job_charts(s, j, &mut out);
            for c in &mut out[from..] {
                c.detail = detail;
            }
        }
        if !s.disk_util.is_empty() {
            let mut c = Chart::new(
                format!("{}-disk-util", s.label),
                &s.label,
                "Disk utilisation",
                Kind::Bars,
            )
            .axes("device", "% busy");
            c.traces.push(bars("util", s.disk_util.iter().cloned()));
            out.push(c);
        }
    }
    out
}

/// A source's summary: IOPS and MB/s of every job and direction.
fn summary_charts(s: &Source, out: &mut Vec<Chart>) {
    let sec = s.label.clone();
    let id = |x: &str| format!("{}-{x}", s.label);
    let all: Vec<(String, &DirFigures, u64)> = s
        .jobs
        .iter()
        .flat_map(|j| {
            j.dirs
                .iter()
                .map(move |d| (super::job_dir_label(&j.name, d.dir), d, j.signature.bs))
        })
        .collect();
    let mean = if s.repetitions > 1 {
        format!(" (mean of {} runs, bars lowest to highest)", s.repetitions)
    } else {
        String::new()
    };
    // IOPS of different block sizes are not one scale: one IOPS chart per block size when the
    // jobs' differ (MB/s is one scale whatever the block size).
    let mut sizes: Vec<u64> = all.iter().map(|(_, _, bs)| *bs).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let mut groups: Vec<(String, String, Figure, Option<u64>)> = Vec::new();
    if sizes.len() > 1 {
        for bs in &sizes {
            let label = match bs {
                0 => "block size not recorded".to_string(),
                b => format!("bs={}", crate::model::human_bytes(*b)),
            };
            groups.push((
                format!("summary-iops-{bs}"),
                format!("IOPS per job, {label}"),
                Figure::Iops,
                Some(*bs),
            ));
        }
    } else {
        let title = "IOPS per job".to_string();
        groups.push(("summary-iops".into(), title, Figure::Iops, None));
    }
    let title = "Bandwidth per job".to_string();
    groups.push(("summary-bw".into(), title, Figure::MBps, None));
    for (x, title, f, only) in groups {
        let cats: Vec<(&String, &DirFigures)> = all
            .iter()
            .filter(|(_, _, bs)| only.is_none_or(|o| o == *bs))
            .map(|(n, d, _)| (n, *d))
            .collect();
        // A figure not measured (bytes of file creates and deletes) is left out, never a zero.
        let shown: Vec<(&String, &DirFigures, f64)> = cats
            .iter()
            .filter_map(|(n, d)| Some((*n, *d, d.figure(f)?)))
            .collect();
        let left_out = if shown.len() < cats.len() {
            format!(" ({} not measured, left out)", cats.len() - shown.len())
        } else {
            String::new()
        };
        let mut c = Chart::new(
            id(&x),
            &sec,
            &format!("{title}{mean}{left_out}"),
            Kind::Bars,
        )
        .axes("job and direction", f.label());
        let mut t = bars(f.label(), shown.iter().map(|(n, _, v)| ((*n).clone(), *v)));
        if s.repetitions > 1 {
            t.spread = shown
                .iter()
                .map(|(_, d, v)| d.spread(f).unwrap_or((*v, *v)))
                .collect();
        }
        c.traces.push(t);
        out.push(c);
    }
}

/// One job's charts: those of each direction, then sync latency, CPU use and clones.
fn job_charts(s: &Source, j: &Job, out: &mut Vec<Chart>) {
    let jsec = format!("{} / {}", s.label, j.name);
    let jid = |x: &str| format!("{}-{}-{x}", s.label, j.name);
    for d in &j.dirs {
        let dir = DirCharts {
            sec: &jsec,
            id_prefix: jid(d.dir),
            job: &j.name,
            d,
        };
        dir.time_charts(out);
        dir.latency_charts(out);
    }
    if let Some(l) = &j.sync {
        let mut c = Chart::new(
            jid("sync-cdf"),
            &jsec,
            &format!("{}: fsync/fdatasync latency CDF", j.name),
            Kind::Lines,
        )
        .axes("latency (us)", "fraction of syncs at or below")
        .log_x();
        c.traces.push(cdf("sync", l));
        out.push(c);
    }
    if let (Some(u), Some(sy)) = (j.usr_cpu_pct, j.sys_cpu_pct) {
        let mut c = Chart::new(
            jid("cpu"),
            &jsec,
            &format!("{}: CPU use", j.name),
            Kind::Bars,
        )
        .axes("", "% of one CPU over the runtime");
        c.traces.push(bars("user", [("user".to_string(), u)]));
        c.traces.push(bars("system", [("system".to_string(), sy)]));
        out.push(c);
    }
    if j.clones.len() > 1 {
        let mut c = Chart::new(
            jid("clones"),
            &jsec,
            &format!("{}: IOPS per clone (stragglers)", j.name),
            Kind::Bars,
        )
        .axes("clone", "IOPS");
        for (i, d) in j.dirs.iter().enumerate() {
            c.traces.push(bars(
                d.dir,
                j.clones
                    .iter()
                    .map(|cl| (cl.label.clone(), cl.iops.get(i).copied().unwrap_or(0.0))),
            ));
        }
        out.push(c);
    }
}

/// What the charts of one direction of a job share: their section, id and title prefixes.
struct DirCharts<'a> {
    sec: &'a str,
    /// `source-job-dir`, which every chart id of the direction starts with.
    id_prefix: String,
    job: &'a str,
    d: &'a DirFigures,
}

impl DirCharts<'_> {
    /// A chart id of this direction.
    fn id(&self, x: &str) -> String {
        format!("{}-{x}", self.id_prefix)
    }

    /// A chart title of this direction.
    fn title(&self, x: &str) -> String {
        format!("{} {}: {x}", self.job, self.d.dir)
    }

    /// The title of a chart of the first repetition's interval series (all of a single run).
    fn series_title(&self, x: &str) -> String {
        match self.d.reps.len() {
            0 | 1 => self.title(x),
            n => self.title(&format!("{x} (run 1 of {n})")),
        }
    }

    /// The title of a latency distribution chart: which runs it holds.
    fn dist_title(&self, x: &str) -> String {
        match self.d.reps.len() {
            0 | 1 => self.title(x),
            n if self.d.dist_first_only => self.title(&format!("{x} (run 1 of {n})")),
            n => self.title(&format!("{x} (all {n} runs)")),
        }
    }

    /// IOPS, bandwidth and latency over time.
    fn time_charts(&self, out: &mut Vec<Chart>) {
        let sr = &self.d.series;
        let mut c = Chart::new(
            self.id("iops-time"),
            self.sec,
            &self.series_title("IOPS over time"),
            Kind::Lines,
        )
        .axes("time (s)", "IOPS");
        c.traces.push(line("IOPS", sr.iops.iter().copied()));
        out.push(c);
        let mut c = Chart::new(
            self.id("bw-time"),
            self.sec,
            &self.series_title("bandwidth over time"),
            Kind::Lines,
        )
        .axes("time (s)", "MiB/s");
        c.traces.push(line(
            "MiB/s",
            sr.bw_kib.iter().map(|&(t, v)| (t, v / 1024.0)),
        ));
        out.push(c);
        let mut c = Chart::new(
            self.id("lat-time"),
            self.sec,
            &self.series_title("latency over time"),
            Kind::Lines,
        )
        .axes("time (s)", "latency (us)");
        c.traces
            .push(line("p50", sr.pct_ns.iter().map(|p| (p.0, p.1 / 1000.0))));
        c.traces
            .push(line("p99", sr.pct_ns.iter().map(|p| (p.0, p.2 / 1000.0))));
        c.traces
            .push(line("p99.9", sr.pct_ns.iter().map(|p| (p.0, p.3 / 1000.0))));
        c.traces.push(line(
            "mean clat",
            sr.lat_ns.iter().map(|&(t, v)| (t, v / 1000.0)),
        ));
        c.traces.retain(|t| !t.y.is_empty());
        out.push(c);
    }

    /// The latency histogram, CDF and percentiles (slat, clat, lat).
    fn latency_charts(&self, out: &mut Vec<Chart>) {
        let d = self.d;
        let lats = [("slat", &d.slat), ("clat", &d.clat), ("lat", &d.lat)];
        if let Some(l) = d.main_lat() {
            let mut c = Chart::new(
                self.id("lat-hist"),
                self.sec,
                &self.dist_title("latency histogram"),
                Kind::Histogram,
            )
            .axes("latency (us)", "I/Os")
            .log_x();
            c.traces.push(line(
                "I/Os",
                l.bins.iter().map(|&(v, n)| (v / 1000.0, n as f64)),
            ));
            out.push(c);
        }
        let mut c = Chart::new(
            self.id("lat-cdf"),
            self.sec,
            &self.dist_title("latency CDF"),
            Kind::Lines,
        )
        .axes("latency (us)", "fraction of I/Os at or below")
        .log_x();
        for (n, l) in lats {
            if let Some(l) = l {
                c.traces.push(cdf(n, l));
            }
        }
        c.traces.retain(|t| !t.y.is_empty());
        out.push(c);
        let mut c = Chart::new(
            self.id("lat-pct"),
            self.sec,
            &self.dist_title("latency percentiles"),
            Kind::Lines,
        )
        .axes("percentile (%)", "latency (us)")
        .nines_x()
        .log_y();
        for (n, l) in lats {
            if let Some(l) = l {
                c.traces.push(percentiles(n, l));
            }
        }
        c.traces.retain(|t| !t.y.is_empty());
        out.push(c);
    }
}

/// The percentile curve of a latency (percent on x, us on y) for a nines axis: from the
/// histogram at round percentiles (0, 10 ... 80, then 90, 95, 98, 99, 99.5, 99.8, 99.9 ... as
/// far as the I/Os reach) and the slowest I/O last, at 1 - 1/n as the last of n I/Os; else
/// the listed percentiles below 100.
pub fn percentiles(name: &str, l: &Lat) -> Trace {
    let total: u64 = l.bins.iter().map(|b| b.1).sum();
    let Some(&(slowest, _)) = l.bins.last().filter(|_| total > 0) else {
        return line(
            name,
            l.percentiles
                .iter()
                .filter(|p| p.0 < 100.0)
                .map(|&(p, v)| (p, v / 1000.0)),
        );
    };
    // The share of I/Os above each percentile, down to more than one I/O's share.
    let one = 1.0 / total as f64;
    let mut tails: Vec<f64> = (1..=10).rev().map(|i| f64::from(i) / 10.0).collect();
    tails.extend(
        (1..)
            .flat_map(|k| [0.5, 0.2, 0.1].map(|m| m * 10f64.powi(-k)))
            .take_while(|q| *q > one * (1.0 + 1e-9)),
    );
    let mut pts: Vec<(f64, f64)> = tails
        .iter()
        .filter(|q| **q > one * (1.0 + 1e-9))
        .filter_map(|q| {
            // Rounded so that p90 is 90, not 89.99999999999999 (one I/O off).
            let p = (100.0 * (1.0 - q) * 1e9).round() / 1e9;
            l.pct(p).map(|v| (p, v / 1000.0))
        })
        .collect();
    pts.push((100.0 * (1.0 - one), slowest / 1000.0));
    line(name, pts)
}

/// The CDF of a latency as a trace (us on x).
pub fn cdf(name: &str, l: &Lat) -> Trace {
    line(name, l.cdf().into_iter().map(|(v, f)| (v / 1000.0, f)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::Scale;
    use crate::model::Headline;

    /// Repeated runs: the summary bars carry the lowest-highest spread, the distribution charts
    /// say they hold all runs, the interval series say which run they are.
    #[test]
    fn repeated_runs_show_their_spread_and_which_run_is_drawn() {
        let h = |iops| Headline {
            iops,
            ..Default::default()
        };
        let d = DirFigures {
            dir: "read",
            clat: Some(Lat {
                n: 1,
                bins: vec![(1000.0, 1)],
                ..Default::default()
            }),
            series: crate::model::DirSeries {
                iops: vec![(1.0, 100.0)],
                ..Default::default()
            },
            reps: vec![h(90.0), h(100.0), h(110.0)],
            ..Default::default()
        };
        let s = Source {
            label: "s".into(),
            repetitions: 3,
            jobs: vec![Job {
                name: "j".into(),
                dirs: vec![d],
                ..Default::default()
            }],
            ..Default::default()
        };
        let charts = charts(std::slice::from_ref(&s));
        let find = |id: &str| charts.iter().find(|c| c.id.ends_with(id)).unwrap();
        let iops = find("summary-iops");
        assert_eq!(iops.traces[0].y, vec![100.0]);
        assert_eq!(iops.traces[0].spread, vec![(90.0, 110.0)]);
        assert!(iops.title.contains("mean of 3 runs"), "{}", iops.title);
        assert!(find("lat-cdf").title.ends_with("(all 3 runs)"));
        assert!(find("iops-time").title.ends_with("(run 1 of 3)"));
        assert_eq!(
            s.jobs[0].dirs[0].figure_text(Figure::Iops),
            "100.0 (90.00-110.0)"
        );
    }

    /// Jobs of different block sizes (quick's 1 MiB and 4 KiB tests) get one IOPS chart per
    /// block size, never one IOPS axis; MB/s stays one chart of every job.
    #[test]
    fn iops_of_different_block_sizes_are_never_on_one_axis() {
        use crate::charts::quick_jobs::job;
        let sized = |name: &str, bs: u64, iops: f64| {
            let mut j = job(name, "read", iops, iops * bs as f64);
            j.signature.bs = bs;
            j
        };
        let s = Source {
            label: "q".into(),
            jobs: vec![
                sized("SEQ1M-Q8T1", 1 << 20, 1_600.0),
                sized("RND4K-Q32T1", 4096, 350_000.0),
                sized("RND4K-Q1T1", 4096, 9_000.0),
            ],
            ..Default::default()
        };
        let charts = charts(std::slice::from_ref(&s));
        let iops: Vec<&Chart> = charts
            .iter()
            .filter(|c| c.title.starts_with("IOPS per job"))
            .collect();
        let titles: Vec<&str> = iops.iter().map(|c| c.title.as_str()).collect();
        assert_eq!(
            titles,
            ["IOPS per job, bs=4k", "IOPS per job, bs=1m"],
            "{titles:?}"
        );
        assert_eq!(iops[0].traces[0].cats.len(), 2);
        assert_eq!(iops[1].traces[0].y, vec![1_600.0]);
        let bw: Vec<&Chart> = charts
            .iter()
            .filter(|c| c.title.starts_with("Bandwidth per job"))
            .collect();
        assert_eq!(bw.len(), 1);
        assert_eq!(bw[0].traces[0].y.len(), 3);
        // One block size: one IOPS chart, titled as before.
        let one = Source {
            jobs: vec![sized("a", 4096, 1.0), sized("b", 4096, 2.0)],
            ..s.clone()
        };
        let charts = super::charts(std::slice::from_ref(&one));
        let t: Vec<&str> = charts
            .iter()
            .filter(|c| c.title.starts_with("IOPS per job"))
            .map(|c| c.title.as_str())
            .collect();
        assert_eq!(t, ["IOPS per job"]);
    }

    /// The percentile chart spreads the tail on a nines axis with latency on a log axis: from
    /// the histogram, points every tenth of a nine, the slowest I/O last at 1 - 1/n.
    #[test]
    fn percentiles_are_drawn_on_nines_and_log_latency() {
        let bins: Vec<(f64, u64)> = (1..=1000).map(|i| (i as f64 * 1000.0, 10)).collect();
        let l = Lat {
            n: 10_000,
            bins,
            ..Default::default()
        };
        let d = DirFigures {
            dir: "read",
            clat: Some(l),
            ..Default::default()
        };
        let dc = DirCharts {
            sec: "s",
            id_prefix: "s-j-read".into(),
            job: "j",
            d: &d,
        };
        let mut out = Vec::new();
        dc.latency_charts(&mut out);
        let c = out.iter().find(|c| c.id.ends_with("lat-pct")).unwrap();
        assert_eq!((c.x_scale, c.y_scale), (Scale::Nines, Scale::Log));
        let t = &c.traces[0];
        // 10,000 I/Os: 0 to 80 by tens, 90 95 98, 99 99.5 99.8, 99.9 99.95 99.98, then the
        // slowest at p99.99.
        let labels: Vec<String> =
            t.x.iter()
                .map(|&p| crate::charts::scale::pct_label(p))
                .collect();
        assert_eq!(labels.len(), 19, "{labels:?}");
        assert_eq!(
            labels[8..],
            ["80", "90", "95", "98", "99", "99.5", "99.8", "99.9", "99.95", "99.98", "99.99"]
        );
        assert!(t.x.iter().all(|&p| p < 100.0));
        let at = |p: f64| t.x.iter().position(|&x| (x - p).abs() < 1e-6).unwrap();
        assert_eq!(t.y[at(90.0)], 900.0);
        assert_eq!(t.y[at(99.9)], 999.0);
        assert_eq!(t.y[18], 1000.0);
    }

    /// File creates, stats and deletes move no bytes: their MB/s is "n/a" and left out of the
    /// bandwidth chart (with the title saying so), never a zero bar.
    #[test]
    fn figures_not_measured_are_left_out_not_zero() {
        let dir = |bw: f64| DirFigures {
            dir: "write",
            reps: vec![Headline {
                iops: 5000.0,
                bw,
                ..Default::default()
            }],
            ..Default::default()
        };
        let job = |n: &str, bw| Job {
            name: n.into(),
            dirs: vec![dir(bw)],
            ..Default::default()
        };
        let s = Source {
            label: "b".into(),
            jobs: vec![job("block-output", 2e8), job("sequential-create", 0.0)],
            ..Default::default()
        };
        assert_eq!(s.jobs[1].dirs[0].figure_text(Figure::MBps), "n/a");
        assert_eq!(s.jobs[1].dirs[0].figure(Figure::Iops), Some(5000.0));
        let charts = charts(std::slice::from_ref(&s));
        let bw = charts
            .iter()
            .find(|c| c.id.ends_with("summary-bw"))
            .unwrap();
        assert_eq!(bw.traces[0].cats, ["block-output write"]);
        assert_eq!(bw.traces[0].y, [200.0]);
        assert!(
            bw.title.contains("1 not measured, left out"),
            "{}",
            bw.title
        );
        let iops = charts
            .iter()
            .find(|c| c.id.ends_with("summary-iops"))
            .unwrap();
        assert_eq!(iops.traces[0].y, [5000.0, 5000.0]);
    }
}
