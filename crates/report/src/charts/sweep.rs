//! A sweep's charts: with two swept options first a heatmap of IOPS (colour bar, values in
//! the cells; a 3-D surface after it when the report asks for surfaces); then IOPS bars with the mean latency as lines on a second axis, and each other
//! figure as bars, against the last swept option, one series per value of the others. The
//! swept options are categories (1, 4, 16, 64 equally spaced), titled with what they are.

use super::{matrix, suite_tables, Chart, Kind, Trace};
use crate::model::Source;
use iomark_engine::result::TableKind;

/// The figure columns a sweep table ends with.
const FIGURES: [&str; 4] = ["IOPS", "MB/s", "mean lat (us)", "p99 lat (us)"];

/// An axis title for a swept option: its name and what its values count.
pub fn option_title(option: &str) -> String {
    let what = match option {
        "bs" | "blocksize" => "block size",
        "iodepth" => "queue depth, I/Os",
        "numjobs" => "jobs",
        "rwmixread" => "reads, %",
        "rwmixwrite" => "writes, %",
        "rate_iops" => "IOPS cap",
        "size" => "bytes",
        _ => return option.to_string(),
    };
    format!("{option} ({what})")
}

pub fn charts(sources: &[Source]) -> Vec<Chart> {
    let mut out = Vec::new();
    for (s, t) in suite_tables(sources, &[TableKind::Sweep]) {
        let naxes = t
            .columns
            .iter()
            .position(|c| FIGURES.contains(&c.as_str()))
            .unwrap_or(0);
        if naxes == 0 || t.rows.is_empty() {
            continue;
        }
        let x_axis = &t.columns[naxes - 1];
        let x_title = option_title(x_axis);
        let sec = format!("{} / sweep", s.label);
        if naxes == 2 {
            if let Some(fi) = t.col("IOPS") {
                out.extend(matrix::charts(
                    &format!("sweep-{}-iops", s.label),
                    &sec,
                    &format!("IOPS over {} and {}", t.columns[0], t.columns[1]),
                    &option_title(&t.columns[1]),
                    &option_title(&t.columns[0]),
                    matrix::trace(t, 0, 1, fi, "IOPS"),
                ));
            }
        }
        let text = |r: &[iomark_engine::result::TableCell], i: usize| {
            r.get(i).map(|c| c.text()).unwrap_or_default()
        };
        for fig in FIGURES {
            let Some(fi) = t.col(fig) else { continue };
            let mut c = Chart::new(
                format!("sweep-{}-{fig}", s.label),
                &sec,
                &format!("{fig} by {x_axis}"),
                Kind::Bars,
            )
            .axes(&x_title, fig);
            for row in &t.rows {
                let group = (0..naxes - 1)
                    .map(|i| format!("{}={}", t.columns[i], text(row, i)))
                    .collect::<Vec<_>>()
                    .join(",");
                let group = if group.is_empty() {
                    fig.to_string()
                } else {
                    group
                };
                let y = row.get(fi).and_then(|c| c.num()).unwrap_or(f64::NAN);
                let tr = match c.traces.iter_mut().position(|t| t.name == group) {
                    Some(i) => &mut c.traces[i],
                    None => {
                        c.traces.push(Trace {
                            name: group,
                            ..Default::default()
                        });
                        c.traces.last_mut().expect("pushed")
                    }
                };
                tr.cats.push(text(row, naxes - 1));
                tr.y.push(y);
            }
            out.push(c);
        }
        with_latency_lines(&mut out, &format!("sweep-{}-", s.label));
    }
    out
}

/// The sweep's IOPS chart gets its mean latency series as lines on a second axis (IOPS bars
/// with latency over them, per queue depth), and the separate mean latency chart goes.
fn with_latency_lines(out: &mut Vec<Chart>, prefix: &str) {
    let id = |fig: &str| super::sanitize(&format!("{prefix}{fig}"));
    let (iops_id, lat_id) = (id("IOPS"), id("mean lat (us)"));
    let Some(li) = out.iter().position(|c| c.id == lat_id) else {
        return;
    };
    let Some(ii) = out.iter().position(|c| c.id == iops_id) else {
        return;
    };
    let lat = out.remove(li);
    let ii = if li < ii { ii - 1 } else { ii };
    let c = &mut out[ii];
    c.title = format!("{} (bars) and mean latency (lines)", c.title);
    c.y2_title = "mean latency (us)".into();
    for mut t in lat.traces {
        t.name = if t.name == "mean lat (us)" {
            "mean latency".into()
        } else {
            format!("{} mean lat", t.name)
        };
        t.y2 = true;
        c.traces.push(t);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use iomark_engine::result::{SuiteTable, TableCell};

    /// A sweep of bs 4k, 64k × iodepth 1, 8 (IOPS 10, 80, 5, 20; MB/s a tenth of them).
    pub fn sample_table() -> SuiteTable {
        let mut t = SuiteTable::new(
            TableKind::Sweep,
            "sweep points",
            &[
                "bs",
                "iodepth",
                "IOPS",
                "MB/s",
                "mean lat (us)",
                "p99 lat (us)",
            ],
        );
        for (bs, qd, iops) in [
            ("4k", "1", 10.0),
            ("4k", "8", 80.0),
            ("64k", "1", 5.0),
            ("64k", "8", 20.0),
        ] {
            let mut row = vec![TableCell::Text(bs.into()), TableCell::Text(qd.into())];
            row.extend([iops, iops / 10.0, 1.0, 2.0].map(TableCell::Num));
            t.rows.push(row);
        }
        t
    }

    #[test]
    fn two_axes_give_a_heatmap_then_iops_with_latency_and_the_other_figures() {
        let t = sample_table();
        let s = Source {
            label: "s".into(),
            tables: vec![t],
            ..Default::default()
        };
        let opts = super::super::Options { surfaces: true };
        let kinds: Vec<Kind> = super::super::report_charts_with(std::slice::from_ref(&s), opts)
            .iter()
            .map(|c| c.kind)
            .collect();
        assert_eq!(
            kinds[..3],
            [Kind::Heatmap, Kind::Surface, Kind::Bars],
            "asked for"
        );
        let c = super::super::report_charts(&[s]);
        let titles: Vec<&str> = c.iter().map(|c| c.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "IOPS over bs and iodepth",
                "IOPS by iodepth (bars) and mean latency (lines)",
                "MB/s by iodepth",
                "p99 lat (us) by iodepth",
            ],
            "the heatmap first, no surface unasked, mean latency over the IOPS bars"
        );
        let hm = &c[0];
        assert_eq!(hm.kind, Kind::Heatmap);
        assert_eq!(
            (hm.x_title.as_str(), hm.y_title.as_str()),
            ("iodepth (queue depth, I/Os)", "bs (block size)")
        );
        assert_eq!(hm.traces[0].rows, ["4k", "64k"]);
        assert_eq!(hm.traces[0].z, [vec![10.0, 80.0], vec![5.0, 20.0]]);
        let iops = &c[1];
        assert_eq!(iops.x_title, "iodepth (queue depth, I/Os)");
        assert_eq!(iops.y2_title, "mean latency (us)");
        let names: Vec<(&str, bool)> = iops
            .traces
            .iter()
            .map(|t| (t.name.as_str(), t.y2))
            .collect();
        assert_eq!(
            names,
            [
                ("bs=4k", false),
                ("bs=64k", false),
                ("bs=4k mean lat", true),
                ("bs=64k mean lat", true)
            ]
        );
        assert_eq!(iops.traces[1].cats, ["1", "8"]);
        assert_eq!(iops.traces[1].y, [5.0, 20.0]);
    }

    /// The whole report: a sweep's charts come ahead of its per-point job charts.
    #[test]
    fn the_sweep_charts_lead_the_report() {
        let pos = |f: super::super::ChartFn| {
            super::super::REGISTRY
                .iter()
                .position(|g| *g as usize == f as usize)
                .unwrap()
        };
        assert!(pos(charts) < pos(super::super::job::charts));
    }
}
