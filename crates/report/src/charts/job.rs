//! Charts of jobs: per source a summary, then per job and direction the interval series (IOPS,
//! bandwidth, latency percentiles over time), the latency histogram, CDF and percentiles
//! (slat/clat/lat), sync latency, CPU use, per-clone breakdown, and disk utilisation.

use super::{bars, line, Chart, Kind, Trace};
use crate::model::{DirFigures, Figure, Job, Lat, Source};

/// The charts of every source's jobs, source by source.
pub fn charts(sources: &[Source]) -> Vec<Chart> {
    let mut out = Vec::new();
    for s in sources {
        summary_charts(s, &mut out);
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
    let cats: Vec<(String, &DirFigures)> = s
        .jobs
        .iter()
        .flat_map(|j| {
            j.dirs
                .iter()
                .map(move |d| (super::job_dir_label(&j.name, d.dir), d))
        })
        .collect();
    let mean = if s.repetitions > 1 {
        format!(" (mean of {} runs, bars lowest to highest)", s.repetitions)
    } else {
        String::new()
    };
    for (x, title, f) in [
        ("summary-iops", "IOPS per job", Figure::Iops),
        ("summary-bw", "Bandwidth per job", Figure::MBps),
    ] {
        let mut c = Chart::new(id(x), &sec, &format!("{title}{mean}"), Kind::Bars)
            .axes("job and direction", f.label());
        let mut t = bars(
            f.label(),
            cats.iter()
                .map(|(n, d)| (n.clone(), d.figure(f).unwrap_or(0.0))),
        );
        if s.repetitions > 1 {
            t.spread = cats
                .iter()
                .map(|(_, d)| {
                    let v = d.figure(f).unwrap_or(0.0);
                    d.spread(f).unwrap_or((v, v))
                })
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
        .axes("percentile", "latency (us)");
        for (n, l) in lats {
            if let Some(l) = l {
                c.traces
                    .push(line(n, l.percentiles.iter().map(|&(p, v)| (p, v / 1000.0))));
            }
        }
        c.traces.retain(|t| !t.y.is_empty());
        out.push(c);
    }
}

/// The CDF of a latency as a trace (us on x).
pub fn cdf(name: &str, l: &Lat) -> Trace {
    line(name, l.cdf().into_iter().map(|(v, f)| (v / 1000.0, f)))
}

#[cfg(test)]
mod tests {
    use super::*;
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
}
