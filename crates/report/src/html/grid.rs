//! The grid of a `quick` run, as disk benchmarks with a window show theirs: one row per test
//! (SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1), a read and a write column, and one unit
//! for the whole grid chosen by buttons (MB/s, GB/s, IOPS, mean latency in µs).

use crate::charts::quick::{grouped as fmt, GridRow};
use crate::model::Source;
use std::fmt::Write as _;

/// The units the grid can show, with the cell attribute holding each.
const UNITS: [(&str, &str); 4] = [
    ("MB/s", "mbps"),
    ("GB/s", "gbps"),
    ("IOPS", "iops"),
    ("µs", "us"),
];

/// The grid of `s` when its jobs are a quick run's (all of them named as quick names its
/// tests), else None.
pub fn quick_grid(s: &Source) -> Option<String> {
    let rows = crate::charts::quick::grid(s)?;
    let mut h = String::from("<div class=qgrid><p class=qunits>Unit: ");
    for (i, (name, key)) in UNITS.iter().enumerate() {
        let on = if i == 0 { " class=on" } else { "" };
        let _ = write!(
            h,
            "<button type=button{on} data-unit={key} onclick=\"qunit(this)\">{name}</button> "
        );
    }
    h.push_str("</p><table class=qgrid><tr><th></th><th>Read</th><th>Write</th></tr>");
    for GridRow { test, cells: pair } in &rows {
        let _ = write!(h, "<tr><th class=l>{test}</th>");
        for c in pair {
            match c {
                Some(c) => {
                    let _ = write!(
                        h,
                        "<td data-mbps=\"{}\" data-gbps=\"{}\" data-iops=\"{}\" data-us=\"{}\">{}</td>",
                        fmt(c.mbps, 2),
                        fmt(c.mbps / 1000.0, 3),
                        fmt(c.iops, 2),
                        c.mean_us.map_or("n/a".into(), |v| fmt(v, 2)),
                        fmt(c.mbps, 2)
                    );
                }
                None => h.push_str("<td>not run</td>"),
            }
        }
        h.push_str("</tr>");
    }
    h.push_str("</table></div>\n");
    Some(h)
}

/// The script of the unit buttons and the grid's style (once per page with a grid).
pub const SCRIPT_AND_STYLE: &str = "<style>table.qgrid td{font-size:1.6em;min-width:9em;text-align:right;padding:.3em .6em}table.qgrid th{font-size:1.2em;padding:.3em .6em}.qunits button{margin-right:.3em}.qunits button.on{font-weight:bold}</style><script>function qunit(b){var g=b.closest('.qgrid');g.querySelectorAll('button').forEach(function(x){x.classList.toggle('on',x===b)});g.querySelectorAll('td[data-mbps]').forEach(function(td){td.textContent=td.getAttribute('data-'+b.getAttribute('data-unit'))})}</script>\n";

#[cfg(test)]
mod tests {
    use super::*;

    /// A quick run's jobs make a grid of tests by read and write, each cell holding every
    /// unit; a run with any other job has none.
    #[test]
    fn a_quick_run_makes_a_grid() {
        use crate::charts::quick_jobs::job;
        let mut s = Source {
            jobs: vec![
                job("SEQ1M-Q8T1-read", "read", 3010.0, 3_157_000_000.0),
                job("RND4K-Q1T1-write", "write", 243_472.0, 997_260_000.0),
            ],
            ..Default::default()
        };
        let g = quick_grid(&s).expect("a grid");
        assert!(g.contains("<th class=l>SEQ1M Q8T1</th>"), "{g}");
        assert!(
            g.contains("data-mbps=\"3,157.00\" data-gbps=\"3.157\""),
            "{g}"
        );
        assert!(
            g.contains("data-iops=\"243,472.00\" data-us=\"2.50\""),
            "{g}"
        );
        // The read of RND4K Q1T1 and the write of SEQ1M Q8T1 did not run.
        assert_eq!(g.matches("<td>not run</td>").count(), 2, "{g}");
        s.jobs.push(job("randread", "read", 1.0, 1.0));
        assert!(quick_grid(&s).is_none());
    }
}
