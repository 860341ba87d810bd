//! Charts of jobs: per source a summary, then per job and direction the interval series (IOPS,
//! bandwidth, latency percentiles over time), the latency histogram, CDF and percentiles
//! (slat/clat/lat), sync latency, CPU use, per-clone breakdown, and disk utilisation.

use super::{bars, line, Chart, Kind, Trace};
use crate::model::{DirFigures, Job, Lat, Source};

/// The charts of every source's jobs, source by source.
pub fn charts(sources: &[Source]) -> Vec<Chart> {
    let mut out = Vec::new();
    for s in sources {
        summary_charts(s, &mut out);
        for j in &s.jobs {
            job_charts(s, j, &mut out);
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
    let mut c = Chart::new(id("summary-iops"), &sec, "IOPS per job", Kind::Bars)
        .axes("job and direction", "IOPS");
    c.traces.push(bars(
        "IOPS",
        cats.iter().map(|(n, d)| {
            (
                n.clone(),
                d.figure(crate::model::Figure::Iops).unwrap_or(0.0),
            )
        }),
    ));
    out.push(c);
    let mut c = Chart::new(id("summary-bw"), &sec, "Bandwidth per job", Kind::Bars)
        .axes("job and direction", "MB/s");
    c.traces.push(bars(
        "MB/s",
        cats.iter().map(|(n, d)| {
            (
                n.clone(),
                d.figure(crate::model::Figure::MBps).unwrap_or(0.0),
            )
        }),
    ));
    out.push(c);
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

    /// IOPS, bandwidth and latency over time.
    fn time_charts(&self, out: &mut Vec<Chart>) {
        let sr = &self.d.series;
        let mut c = Chart::new(
            self.id("iops-time"),
            self.sec,
            &self.title("IOPS over time"),
            Kind::Lines,
        )
        .axes("time (s)", "IOPS");
        c.traces.push(line("IOPS", sr.iops.iter().copied()));
        out.push(c);
        let mut c = Chart::new(
            self.id("bw-time"),
            self.sec,
            &self.title("bandwidth over time"),
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
            &self.title("latency over time"),
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
                &self.title("latency histogram"),
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
            &self.title("latency CDF"),
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
            &self.title("latency percentiles"),
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
