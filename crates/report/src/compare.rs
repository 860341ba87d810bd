//! `iomark compare`: jobs of several sources matched (by name, else by workload signature),
//! each headline figure side by side with its absolute and relative change from the first
//! source (the baseline), whether the change is larger than the repetitions' spread (Welch's
//! t-test), and `--fail-if` rules for CI.

use crate::model::{DirFigures, Figure, Job, LatKind, Source};
use crate::stats::{self, Welch};
use crate::ReportError;

/// Significance level of the spread test.
pub const ALPHA: f64 = 0.05;

/// One job of the baseline and its counterpart in each source (None when unmatched).
#[derive(Clone, Debug)]
pub struct Matched<'a> {
    pub name: String,
    pub jobs: Vec<Option<&'a Job>>,
}

/// One figure of one direction of one job across the sources.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub job: String,
    pub dir: &'static str,
    pub figure: Figure,
    /// For a latency percentile: which latency every source's value is of.
    pub lat: Option<LatKind>,
    /// Per source: the value (mean over repetitions).
    pub values: Vec<Option<f64>>,
    /// Per source: its repetitions.
    pub samples: Vec<Vec<f64>>,
}

impl Row {
    /// The figure's name with its unit, naming the latency a percentile is of.
    pub fn label(&self) -> String {
        self.figure.label_of(self.lat)
    }

    /// Change of source `i` from the baseline: (absolute, relative in percent).
    pub fn delta(&self, i: usize) -> Option<(f64, Option<f64>)> {
        let (b, v) = (self.values[0]?, self.values[i]?);
        let abs = v - b;
        Some((abs, (b != 0.0).then(|| abs / b * 100.0)))
    }

    /// Welch's test of source `i` against the baseline, when both have repetitions.
    pub fn test(&self, i: usize) -> Option<Welch> {
        stats::welch(&self.samples[0], &self.samples[i])
    }

    /// How the change of source `i` stands against the spread, in words.
    pub fn verdict(&self, i: usize) -> String {
        match self.test(i) {
            None => "single run: difference not tested".into(),
            Some(w) if w.p < ALPHA => format!("beyond spread (Welch p={:.3})", w.p),
            Some(w) => format!("within spread (Welch p={:.3})", w.p),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Comparison<'a> {
    pub labels: Vec<String>,
    pub matched: Vec<Matched<'a>>,
    pub rows: Vec<Row>,
    pub notes: Vec<String>,
}

/// Match jobs and build the rows. The first source is the baseline.
pub fn compare(sources: &[Source]) -> Comparison<'_> {
    let mut notes = Vec::new();
    let matched = match_jobs(sources, &mut notes);
    note_unmatched(sources, &matched, &mut notes);
    let rows = rows(sources, &matched, &mut notes);
    Comparison {
        labels: sources.iter().map(|s| s.label.clone()).collect(),
        matched,
        rows,
        notes,
    }
}

/// Each job of the baseline with its counterpart in every other source: the job of the same
/// name, else the one job of the same workload that the baseline does not name (said in a
/// note), else none (said too).
fn match_jobs<'a>(sources: &'a [Source], notes: &mut Vec<String>) -> Vec<Matched<'a>> {
    let mut matched = Vec::new();
    for bj in sources.first().map(|s| s.jobs.as_slice()).unwrap_or(&[]) {
        let mut jobs = vec![Some(bj)];
        for s in &sources[1..] {
            let by_name = s.job(&bj.name);
            let found = by_name.or_else(|| {
                let same: Vec<&Job> = s
                    .jobs
                    .iter()
                    .filter(|j| j.signature == bj.signature && sources[0].job(&j.name).is_none())
                    .collect();
                if same.len() == 1 {
                    notes.push(format!(
                        "{}: job '{}' matched to '{}' by workload ({})",
                        s.label, same[0].name, bj.name, bj.signature
                    ));
                    Some(same[0])
                } else {
                    None
                }
            });
            if found.is_none() {
                notes.push(format!("{}: no job matches '{}'", s.label, bj.name));
            }
            jobs.push(found);
        }
        matched.push(Matched {
            name: bj.name.clone(),
            jobs,
        });
    }
    matched
}

/// A note for each job of another source that no job of the baseline matched.
fn note_unmatched(sources: &[Source], matched: &[Matched<'_>], notes: &mut Vec<String>) {
    for (i, s) in sources.iter().enumerate().skip(1) {
        for j in &s.jobs {
            if !matched
                .iter()
                .any(|m| m.jobs[i].is_some_and(|x| x.name == j.name))
            {
                notes.push(format!(
                    "{}: job '{}' has no counterpart in {}",
                    s.label, j.name, sources[0].label
                ));
            }
        }
    }
}

/// The rows: every figure of every direction of the baseline's matched jobs, with each
/// source's samples and their mean; latency percentiles on the latency all sources show
/// (else a note and no row).
fn rows(sources: &[Source], matched: &[Matched<'_>], notes: &mut Vec<String>) -> Vec<Row> {
    let mut rows = Vec::new();
    for m in matched {
        let base = m.jobs[0].expect("baseline job");
        for d in &base.dirs {
            for f in Figure::ALL {
                let dirs: Vec<_> = m
                    .jobs
                    .iter()
                    .map(|j| j.and_then(|j| j.dir(d.dir)))
                    .collect();
                let lat = if f.higher_is_better() {
                    None
                } else {
                    match lat_kind(&dirs, sources, &m.name, d.dir) {
                        Ok(k) => k,
                        Err(note) => {
                            if !notes.contains(&note) {
                                notes.push(note);
                            }
                            continue;
                        }
                    }
                };
                let samples: Vec<Vec<f64>> = dirs
                    .iter()
                    .map(|x| {
                        x.map(|x| lat.map_or(x.samples(f), |k| x.samples_of(f, k)))
                            .unwrap_or_default()
                    })
                    .collect();
                let values: Vec<Option<f64>> = samples
                    .iter()
                    .map(|v| (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64))
                    .collect();
                if values[0].is_none() {
                    continue;
                }
                rows.push(Row {
                    job: m.name.clone(),
                    dir: d.dir,
                    figure: f,
                    lat,
                    values,
                    samples,
                });
            }
        }
    }
    rows
}

/// The latency whose percentiles job `job`'s direction `dir` is compared on: the one every
/// source shows; completion latency when the sources show different ones and all record it;
/// else an error saying the percentiles are not compared.
fn lat_kind(
    dirs: &[Option<&DirFigures>],
    sources: &[Source],
    job: &str,
    dir: &str,
) -> Result<Option<LatKind>, String> {
    let present: Vec<(usize, &DirFigures)> = dirs
        .iter()
        .enumerate()
        .filter_map(|(i, d)| d.map(|d| (i, d)))
        .collect();
    let shown = |d: &DirFigures| d.reps.first().and_then(|h| h.pct_of);
    let first = present.iter().find_map(|(_, d)| shown(d));
    if present
        .iter()
        .all(|(_, d)| shown(d).is_none() || shown(d) == first)
    {
        return Ok(first);
    }
    let has_clat = |d: &DirFigures| d.reps.iter().all(|h| h.clat_pct[1].is_some());
    let names = |k: LatKind| {
        present
            .iter()
            .filter(|(_, d)| shown(d) == Some(k))
            .map(|(i, _)| sources[*i].label.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if present.iter().all(|(_, d)| has_clat(d)) {
        Ok(Some(LatKind::Clat))
    } else {
        Err(format!(
            "{job} {dir}: latency percentiles not compared: {} record completion latency (clat), \
             {} total latency (lat)",
            names(LatKind::Clat),
            names(LatKind::Lat)
        ))
    }
}

/// A number with sensible precision for a table.
pub use crate::model::fmt_num;

/// The terminal table: one line per job, direction and figure; per other source its value,
/// the change and the spread verdict.
pub fn table(c: &Comparison) -> String {
    let mut head = vec!["job".to_string(), "dir".into(), "figure".into()];
    head.push(c.labels[0].clone());
    for l in &c.labels[1..] {
        head.push(l.clone());
        head.push("change".into());
        head.push("vs spread".into());
    }
    let mut lines = vec![head];
    for r in &c.rows {
        let mut l = vec![
            r.job.clone(),
            r.dir.to_string(),
            r.label(),
            r.values[0].map(fmt_num).unwrap_or("-".into()),
        ];
        for i in 1..c.labels.len() {
            l.push(r.values[i].map(fmt_num).unwrap_or("-".into()));
            l.push(match r.delta(i) {
                Some((a, Some(p))) => format!(
                    "{}{} ({p:+.1}%)",
                    if a >= 0.0 { "+" } else { "" },
                    fmt_num(a)
                ),
                Some((a, None)) => format!("{}{}", if a >= 0.0 { "+" } else { "" }, fmt_num(a)),
                None => "-".into(),
            });
            l.push(if r.values[i].is_some() {
                r.verdict(i)
            } else {
                "-".into()
            });
        }
        lines.push(l);
    }
    let mut out = render_columns(&lines);
    for n in &c.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    out
}

/// Left-aligned text columns separated by two spaces (numbers right-aligned).
pub fn render_columns(lines: &[Vec<String>]) -> String {
    let cols = lines.iter().map(Vec::len).max().unwrap_or(0);
    let w: Vec<usize> = (0..cols)
        .map(|i| {
            lines
                .iter()
                .filter_map(|l| l.get(i))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for l in lines {
        let mut s = String::new();
        for (i, cell) in l.iter().enumerate() {
            let numeric = cell.parse::<f64>().is_ok();
            if numeric {
                s.push_str(&format!("{cell:>w$}  ", w = w[i]));
            } else {
                s.push_str(&format!("{cell:<w$}  ", w = w[i]));
            }
        }
        out.push_str(s.trim_end());
        out.push('\n');
    }
    out
}

/// A `--fail-if` rule: `[DIR.]FIGURE<-N%` (fails when the figure fell by more than N percent)
/// or `[DIR.]FIGURE>+N%` (rose by more than N percent); FIGURE is iops, mbps, p50, p99 or p99.9.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    pub text: String,
    pub dir: Option<String>,
    pub figure: Figure,
    /// true: fail when the change is below `pct`; false: above.
    pub below: bool,
    pub pct: f64,
}

impl Rule {
    pub fn parse(s: &str) -> Result<Rule, ReportError> {
        let bad = |d: &str| ReportError::BadRule {
            rule: s.to_string(),
            detail: d.to_string(),
        };
        let t: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        let at = t
            .find(['<', '>'])
            .ok_or_else(|| bad("expected FIGURE<-N% or FIGURE>+N%"))?;
        let (lhs, rhs) = (&t[..at], &t[at + 1..]);
        let below = t.as_bytes()[at] == b'<';
        let (dir, fig) = match lhs.split_once('.') {
            Some((d, f)) if ["read", "write", "trim"].contains(&d) => (Some(d.to_string()), f),
            _ => (None, lhs),
        };
        let figure = Figure::ALL
            .into_iter()
            .find(|f| f.key().eq_ignore_ascii_case(fig))
            .ok_or_else(|| bad("the figure must be one of iops, mbps, p50, p99, p99.9"))?;
        let num = rhs
            .strip_suffix('%')
            .ok_or_else(|| bad("the threshold is a percentage, e.g. -10%"))?;
        if !num.starts_with(['+', '-']) {
            return Err(bad(
                "the threshold needs its sign: -N% (fell by more than N percent) or +N% (rose by more than N percent)",
            ));
        }
        let pct: f64 = num
            .parse()
            .map_err(|_| bad("the threshold is not a number"))?;
        Ok(Rule {
            text: s.to_string(),
            dir,
            figure,
            below,
            pct,
        })
    }

    /// The rows this rule applies to.
    fn rows<'r>(&self, c: &'r Comparison) -> Vec<&'r Row> {
        c.rows
            .iter()
            .filter(|r| r.figure == self.figure && self.dir.as_deref().is_none_or(|d| d == r.dir))
            .collect()
    }

    /// The rows (and source index) breaking this rule, with their relative change. When both
    /// sides have repetitions, a change breaks the rule only if it is significant: Welch's
    /// p below `alpha`.
    pub fn violations<'r>(&self, c: &'r Comparison, alpha: f64) -> Vec<(&'r Row, usize, f64)> {
        let mut out = Vec::new();
        for r in self.rows(c) {
            for i in 1..c.labels.len() {
                if let Some((_, Some(p))) = r.delta(i) {
                    let beyond = (self.below && p < self.pct) || (!self.below && p > self.pct);
                    let significant = r.test(i).is_none_or(|w| w.p < alpha);
                    if beyond && significant {
                        out.push((r, i, p));
                    }
                }
            }
        }
        out
    }

    /// Why this rule cannot be checked: it matches no figure of the baseline, or a source lacks
    /// a job or figure it applies to (or has no baseline value to compare with).
    pub fn unchecked(&self, c: &Comparison) -> Vec<String> {
        let mut out = Vec::new();
        let mut any = false;
        for r in self.rows(c) {
            any = true;
            for i in 1..c.labels.len() {
                if r.delta(i).and_then(|d| d.1).is_none() {
                    out.push(format!(
                        "{}: {} {} {}: no value to compare",
                        c.labels[i],
                        r.job,
                        r.dir,
                        r.label()
                    ));
                }
            }
        }
        if !any {
            out.push(format!("matches no figure of {}", c.labels[0]));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{DirFigures, Headline, LatKind, Signature};

    fn src(label: &str, jobs: &[(&str, &str, &[f64])]) -> Source {
        Source {
            label: label.into(),
            jobs: jobs
                .iter()
                .map(|(name, rw, iops)| Job {
                    name: name.to_string(),
                    signature: Signature {
                        rw: rw.to_string(),
                        bs: 4096,
                        iodepth: 1,
                        numjobs: 1,
                        rwmixread: 100,
                    },
                    dirs: vec![DirFigures {
                        dir: "read",
                        reps: iops
                            .iter()
                            .map(|&i| Headline {
                                iops: i,
                                bw: i * 4096.0,
                                p99_ns: Some(1e9 / i),
                                ..Default::default()
                            })
                            .collect(),
                        ..Default::default()
                    }],
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn matches_by_name_then_signature_and_computes_deltas() {
        let a = src(
            "A",
            &[("rr", "randread", &[1000.0]), ("sr", "read", &[5000.0])],
        );
        let b = src(
            "B",
            &[("seq", "read", &[4000.0]), ("rr", "randread", &[1100.0])],
        );
        let srcs = [a, b];
        let c = compare(&srcs);
        assert_eq!(c.matched[0].jobs[1].unwrap().name, "rr");
        assert_eq!(c.matched[1].jobs[1].unwrap().name, "seq");
        assert!(c
            .notes
            .iter()
            .any(|n| n.contains("'seq' matched to 'sr' by workload")));
        let r = c
            .rows
            .iter()
            .find(|r| r.job == "rr" && r.figure == Figure::Iops)
            .unwrap();
        let (abs, rel) = r.delta(1).unwrap();
        assert!((abs - 100.0).abs() < 1e-9 && (rel.unwrap() - 10.0).abs() < 1e-9);
        assert_eq!(r.verdict(1), "single run: difference not tested");
        let r = c
            .rows
            .iter()
            .find(|r| r.job == "sr" && r.figure == Figure::MBps)
            .unwrap();
        assert!((r.delta(1).unwrap().1.unwrap() + 20.0).abs() < 1e-9);
        let t = table(&c);
        assert!(t.contains("+10.0%") && t.contains("-20.0%"), "{t}");
        // --fail-if
        let rule = Rule::parse("iops<-10%").unwrap();
        let v = rule.violations(&c, ALPHA);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].0.job, "sr");
        assert!(Rule::parse("read.p99>+30%")
            .unwrap()
            .violations(&c, ALPHA)
            .is_empty());
        assert_eq!(
            Rule::parse("p99<+5%").unwrap().violations(&c, ALPHA).len(),
            1
        );
        assert!(Rule::parse("iops<10").is_err());
        assert!(Rule::parse("speed<-1%").is_err());
    }

    #[test]
    fn repetitions_are_tested_against_their_spread() {
        let a = src("A", &[("j", "read", &[1000.0, 1010.0, 990.0])]);
        let b = src("B", &[("j", "read", &[1200.0, 1195.0, 1205.0])]);
        let c0 = src("C", &[("j", "read", &[1005.0, 985.0, 1012.0])]);
        let srcs = [a, b, c0];
        let c = compare(&srcs);
        let r = c.rows.iter().find(|r| r.figure == Figure::Iops).unwrap();
        assert!(
            r.verdict(1).starts_with("beyond spread"),
            "{}",
            r.verdict(1)
        );
        assert!(
            r.verdict(2).starts_with("within spread"),
            "{}",
            r.verdict(2)
        );
    }

    /// fio shows completion-latency percentiles, iomark total-latency ones: compared as clat
    /// (labelled so) when both record clat, else not compared and said so.
    #[test]
    fn latency_percentiles_are_compared_like_with_like() {
        let h = |clat: f64, lat: Option<f64>| Headline {
            iops: 1000.0,
            bw: 4096e3,
            p99_ns: Some(lat.unwrap_or(clat)),
            pct_of: Some(if lat.is_some() {
                LatKind::Lat
            } else {
                LatKind::Clat
            }),
            clat_pct: [None, Some(clat), None],
            lat_pct: [None, lat, None],
            ..Default::default()
        };
        let with = |hd: Headline| {
            let mut s = src("x", &[("j", "read", &[1000.0])]);
            s.jobs[0].dirs[0].reps = vec![hd];
            s
        };
        let fio = with(h(100_000.0, None));
        let iom = with(h(100_000.0, Some(147_900.0)));
        let srcs = [fio.clone(), iom];
        let c = compare(&srcs);
        let r = c.rows.iter().find(|r| r.figure == Figure::P99).unwrap();
        assert_eq!(r.label(), "p99 clat (us)");
        assert_eq!(r.delta(1).unwrap().1, Some(0.0));
        assert!(table(&c).contains("p99 clat (us)"));
        // iomark without clat percentiles: refused, with a note.
        let mut lat_only = h(0.0, Some(147_900.0));
        lat_only.clat_pct = [None; 3];
        let srcs = [fio, with(lat_only)];
        let c = compare(&srcs);
        assert!(c.rows.iter().all(|r| r.figure != Figure::P99));
        assert!(
            c.notes.iter().any(|n| n.contains("not compared")),
            "{:?}",
            c.notes
        );
    }

    /// A rule with its sign forgotten is refused; a rule matching nothing and jobs missing from
    /// a source are reported; a change within the repetitions' spread breaks no rule.
    #[test]
    fn fail_if_rules_check_everything_they_name() {
        let e = Rule::parse("iops<10%").unwrap_err().to_string();
        assert!(e.contains("sign"), "{e}");
        let a = src(
            "A",
            &[
                ("j1", "read", &[1000.0]),
                ("j2", "read", &[1000.0]),
                ("j3", "read", &[1000.0]),
                ("j4", "read", &[1000.0]),
            ],
        );
        let b = src("B", &[("j1", "read", &[1000.0])]);
        let srcs = [a, b];
        let c = compare(&srcs);
        let r = Rule::parse("iops<-95%").unwrap();
        assert!(r.violations(&c, ALPHA).is_empty());
        let u = r.unchecked(&c);
        assert_eq!(u.len(), 3, "{u:?}");
        assert!(u[0].contains("j2"), "{u:?}");
        let t = Rule::parse("trim.iops<-1%").unwrap().unchecked(&c);
        assert_eq!(t, vec!["matches no figure of A".to_string()]);
        // p99 up 1.5 % with a spread that makes it insignificant.
        let a = src("A", &[("j", "read", &[1000.0, 1100.0, 900.0])]);
        let b = src("B", &[("j", "read", &[950.0, 1200.0, 800.0])]);
        let srcs = [a, b];
        let c = compare(&srcs);
        let r = Rule::parse("p99>+1%").unwrap();
        let row = c.rows.iter().find(|r| r.figure == Figure::P99).unwrap();
        assert!(row.test(1).unwrap().p > 0.5);
        assert!(row.delta(1).unwrap().1.unwrap() > 1.0);
        assert!(r.violations(&c, ALPHA).is_empty());
        assert_eq!(r.violations(&c, 1.0).len(), 1);
    }
}
