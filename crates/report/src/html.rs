//! The HTML report: one self-contained file (Plotly.js inlined, no request leaves the page),
//! with the header facts and honesty notes first, then every chart with a table of its data
//! beside it. Each chart's data is in the page once: the tables are built from the plots' own
//! data by a few lines of script.

use crate::charts::{Chart, Kind, Scale};
use crate::compare::{fmt_num, Comparison};
use crate::model::{Figure, Source};
use crate::ReportError;
use plotly::Plot;

mod grid;
mod matrix_first;
mod plot;
#[cfg(test)]
mod system_table;
pub use plot::plot;
use std::fmt::Write as _;
use std::path::Path;

/// What a page shows.
pub struct Page<'a> {
    pub title: String,
    /// The command line that made the results (or the report), shown in the header.
    pub command: Option<String>,
    pub sources: &'a [Source],
    pub comparison: Option<&'a Comparison<'a>>,
    pub charts: Vec<Chart>,
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Where a page's Plotly.js is: inside it (one file to mail), or in [`PLOTLY_FILE`] beside it,
/// written once and shared by every report in that directory. Either way nothing is fetched
/// from the network.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Js {
    #[default]
    Inline,
    External,
}

impl Js {
    /// `--js=inline|external`.
    pub fn parse(s: &str) -> Option<Js> {
        match s {
            "inline" => Some(Js::Inline),
            "external" => Some(Js::External),
            _ => None,
        }
    }
}

/// The file a page with [`Js::External`] loads, beside it.
pub const PLOTLY_FILE: &str = "plotly.min.js";

/// Plotly.js alone, as script text (the embedded sources also carry MathJax, which no chart
/// here needs).
fn plotly_source() -> String {
    let all = Plot::offline_js_sources();
    let body = all
        .find('>')
        .and_then(|start| Some(&all[start + 1..start + 1 + all[start + 1..].find("</script>")?]));
    body.unwrap_or(&all).to_string()
}

/// The script element that brings Plotly.js into the page.
fn plotly_js(js: Js) -> String {
    match js {
        Js::Inline => format!(
            "<script type=\"text/javascript\">{}</script>",
            plotly_source()
        ),
        Js::External => format!("<script src=\"{PLOTLY_FILE}\"></script>"),
    }
}

const STYLE: &str = "
body{font-family:sans-serif;margin:1.5em;color:#222;background:#fff}
h1{font-size:1.5em}h2{font-size:1.25em;margin-top:1.5em;border-bottom:1px solid #ccc}
h3{font-size:1.05em}
table{border-collapse:collapse;font-size:.85em}
td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}
th{background:#f2f2f2}td.l,th.l{text-align:left}
.facts td{text-align:left}
.notes{background:#fff4d6;border:2px solid #e0a800;padding:.6em 1em;margin:1em 0}
.notes li{margin:.2em 0}
.facts td{overflow-wrap:anywhere}
.chart{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,360px);gap:1em;
  align-items:start;margin:1em 0;border-top:1px dashed #ddd;padding-top:.5em}
.chart[data-matrix]{grid-template-columns:minmax(0,1fr)}
@media (max-width:860px){.chart{grid-template-columns:minmax(0,1fr)}}
.data{max-height:420px;overflow:auto}
.scroll{overflow-x:auto}
code{background:#f4f4f4;padding:1px 4px}
details.more{margin:1em 0;border-top:1px solid #ccc;padding-top:.4em}
details.more summary{font-weight:bold;cursor:pointer}
details.cells summary{cursor:pointer}
";

/// Builds each chart's table from its plot's data (x, then one column per trace; for heatmaps
/// and surfaces, the matrix).
const TABLE_JS: &str = r#"
(function(){
  function plain(s){return typeof s!=='string'?s:s.replace(/&lt;/g,'<').replace(/&gt;/g,'>').replace(/&amp;/g,'&');}
  function cell(tag, text, left){var c=document.createElement(tag);c.textContent=plain(text);if(left)c.className='l';return c;}
  function fmt(v){if(v===null||v===undefined)return '';if(typeof v!=='number')return String(v);if(!isFinite(v))return '';
    var a=Math.abs(v);return a>=1000?v.toFixed(0):a>=10?v.toFixed(2):v.toPrecision(4);}
  function table(box){
    var gd=box.querySelector('.plot > div');var host=box.querySelector('.data');
    if(!gd||!gd.data||!host||host.firstChild)return;
    var t=document.createElement('table');var tr=document.createElement('tr');
    var d=gd.data;
    if(d.length&&d[0].z){
      var tz=d[0];tr.appendChild(cell('th',box.dataset.y+' \\ '+box.dataset.x,true));
      var ax=function(a,v){var l=(gd.layout.scene&&gd.layout.scene[a])||gd.layout[a];return (l&&l.ticktext)||v||[];};
      ax('xaxis',tz.x).forEach(function(x){tr.appendChild(cell('th',x));});t.appendChild(tr);
      tz.z.forEach(function(row,i){var r=document.createElement('tr');
        r.appendChild(cell('th',ax('yaxis',tz.y)[i],true));row.forEach(function(v){r.appendChild(cell('td',fmt(v)));});t.appendChild(r);});
    } else {
      tr.appendChild(cell('th',box.dataset.x||'x',true));
      d.forEach(function(tr0){tr.appendChild(cell('th',tr0.name||'y'));});t.appendChild(tr);
      var xs=[];d.forEach(function(tr0){(tr0.x||[]).forEach(function(x){if(xs.indexOf(x)<0)xs.push(x);});});
      var nines=box.dataset.nines;
      function xl(x){if(typeof x!=='number')return x;if(!nines)return fmt(x);
        var p=100*(1-Math.pow(10,-x));for(var k=0;k<7;k++){var s=p.toFixed(k);if(Math.abs(parseFloat(s)-p)<1e-7)return s;}return String(p);}
      xs.forEach(function(x){var r=document.createElement('tr');r.appendChild(cell('td',xl(x),true));
        d.forEach(function(tr0){var i=(tr0.x||[]).indexOf(x);r.appendChild(cell('td',i<0?'':fmt(tr0.y[i])));});t.appendChild(r);});
    }
    host.appendChild(t);
  }
  function draw(box){
    var s=box.querySelector('script.fig');if(!s||box.dataset.drawn)return;box.dataset.drawn='1';
    var f=JSON.parse(s.textContent);var gd=box.querySelector('.plot > div');
    Plotly.newPlot(gd,f.data,f.layout,f.config).then(function(){table(box);});
  }
  document.querySelectorAll('div.chart').forEach(table);
  document.querySelectorAll('details.more').forEach(function(d){
    d.addEventListener('toggle',function(){if(d.open)d.querySelectorAll('div.chart').forEach(draw);});
    if(location.hash==='#all')d.open=true;
  });
})();
"#;

/// A chart drawn when its section is opened: its figure as data (`</` written so that it
/// cannot end the script element).
fn lazy_chart(c: &Chart) -> String {
    format!(
        "<div class=plot><div id=\"{}\"></div></div><script type=\"application/json\" class=fig>{}</script>",
        esc(&c.id),
        plot(c).to_json().replace("</", "<\\/")
    )
}

fn headline_table(s: &Source) -> String {
    let mut h = String::from("<table><tr><th class=l>job</th><th class=l>direction</th>");
    for f in Figure::ALL {
        let _ = write!(h, "<th>{}</th>", esc(&f.label_of(s.pct_kind())));
    }
    h.push_str("<th class=l>workload</th></tr>");
    for j in &s.jobs {
        for d in &j.dirs {
            let _ = write!(
                h,
                "<tr><td class=l>{}</td><td class=l>{}</td>",
                esc(&j.name),
                d.dir
            );
            for f in Figure::ALL {
                let _ = write!(h, "<td>{}</td>", s.cell_text(d, f));
            }
            let _ = write!(h, "<td class=l>{}</td></tr>", esc(&j.signature.to_string()));
        }
        if let Some(e) = &j.error {
            let _ = write!(
                h,
                "<tr><td class=l>{}</td><td class=l colspan=7>failed: {}</td></tr>",
                esc(&j.name),
                esc(e)
            );
        }
    }
    h.push_str("</table>");
    h
}

fn comparison_table(c: &Comparison) -> String {
    let mut h =
        String::from("<table><tr><th class=l>job</th><th class=l>dir</th><th class=l>figure</th>");
    let _ = write!(h, "<th>{}</th>", esc(&c.labels[0]));
    for l in &c.labels[1..] {
        let _ = write!(
            h,
            "<th>{}</th><th>change</th><th class=l>vs spread</th>",
            esc(l)
        );
    }
    h.push_str("</tr>");
    for r in &c.rows {
        let _ = write!(
            h,
            "<tr><td class=l>{}</td><td class=l>{}</td><td class=l>{}</td><td>{}</td>",
            esc(&r.job),
            r.dir,
            esc(&r.label()),
            r.values[0].map(fmt_num).unwrap_or("-".into())
        );
        for i in 1..c.labels.len() {
            let delta = match r.delta(i) {
                Some((a, Some(p))) => format!("{:+.2} ({p:+.1}%)", a),
                Some((a, None)) => format!("{a:+.2}"),
                None => "-".into(),
            };
            let _ = write!(
                h,
                "<td>{}</td><td>{delta}</td><td class=l>{}</td>",
                r.values[i].map(fmt_num).unwrap_or("-".into()),
                esc(&r.verdict(i))
            );
        }
        h.push_str("</tr>");
    }
    h.push_str("</table>");
    h
}

/// The whole page, Plotly.js inlined.
pub fn render(page: &Page) -> String {
    render_with(page, Js::Inline)
}

/// The whole page, Plotly.js as `js` says.
pub fn render_with(page: &Page, js: Js) -> String {
    let mut h = String::new();
    let _ = writeln!(
        h,
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style>\n{}\n</head><body>\n<h1>{}</h1>",
        esc(&page.title),
        plotly_js(js),
        esc(&page.title)
    );
    let _ = writeln!(
        h,
        "<p>Made by iomark-{} (<code>iomark report</code>). Hover a chart for exact values; drag to zoom, double-click to reset, click a legend entry to hide or show its series. Each chart's data is in the table beside it (below it on a narrow page and for a matrix).</p>",
        iomark_engine::VERSION
    );
    // A run's own report: its source already lists the command line first; show it once.
    let listed = |cmd: &str| {
        page.sources
            .iter()
            .any(|s| s.facts.iter().any(|(k, v)| k == "command line" && v == cmd))
    };
    if let Some(cmd) = page.command.as_deref().filter(|c| !listed(c)) {
        let _ = writeln!(h, "<p>Command: <code>{}</code></p>", esc(cmd));
    }
    let notes = page_notes(page);
    if !notes.is_empty() {
        h.push_str("<div class=notes><b>Read these figures with care:</b><ul>");
        for n in &notes {
            let _ = write!(h, "<li>{}</li>", esc(n));
        }
        h.push_str("</ul></div>\n");
    }
    // An iozone page opens with its matrices; its cells follow, folded.
    let matrix_first = page.sources.iter().any(matrix_first::is_matrix_source);
    if matrix_first {
        chart_sections(&mut h, page, false);
    }
    source_sections(&mut h, page);
    if let Some(c) = page.comparison {
        h.push_str("<h2>Comparison</h2>\n");
        let _ = writeln!(h, "<p>Baseline: <b>{}</b>. Changes are relative to it; with repetitions on both sides, Welch's t-test (two-sided, p &lt; 0.05) says whether a change is larger than the spread.</p>", esc(&c.labels[0]));
        h.push_str(&comparison_table(c));
    }
    if matrix_first {
        chart_sections(&mut h, page, true);
    } else {
        chart_sections(&mut h, page, false);
        chart_sections(&mut h, page, true);
    }
    let _ = writeln!(h, "<script>{TABLE_JS}</script>\n</body></html>");
    h
}

/// The notes to read the figures with: every source's (named by its source when there are
/// several), each once, then the comparison's.
fn page_notes(page: &Page) -> Vec<String> {
    let mut notes: Vec<String> = Vec::new();
    for s in page.sources {
        for n in &s.notes {
            let n = if page.sources.len() > 1 {
                format!("{}: {n}", s.label)
            } else {
                n.clone()
            };
            if !notes.contains(&n) {
                notes.push(n);
            }
        }
    }
    if let Some(c) = page.comparison {
        notes.extend(c.notes.iter().cloned());
        if c.rows
            .iter()
            .all(|r| (1..c.labels.len()).all(|i| r.test(i).is_none()))
        {
            notes.push("single runs: differences are not tested against a spread (give a directory of repetitions per input to test them)".into());
        }
    }
    notes
}

/// Each source's section: its facts, its quick grid, its headline figures.
fn source_sections(h: &mut String, page: &Page) {
    for s in page.sources {
        let _ = write!(h, "<h2>{}</h2>\n<table class=facts>", esc(&s.label));
        let _ = write!(
            h,
            "<tr><th class=l>file</th><td>{}</td></tr>",
            esc(&s.paths.join(", "))
        );
        for (k, v) in &s.facts {
            let _ = write!(h, "<tr><th class=l>{}</th><td>{}</td></tr>", esc(k), esc(v));
        }
        h.push_str("</table>\n");
        if let Some(g) = grid::quick_grid(s) {
            if !h.contains(grid::SCRIPT_AND_STYLE) {
                h.push_str(grid::SCRIPT_AND_STYLE);
            }
            h.push_str("<h3>Quick grid</h3>\n");
            h.push_str(&g);
        }
        if !s.jobs.is_empty() {
            if matrix_first::is_matrix_source(s) {
                h.push_str("<h3>Summary</h3>\n");
            } else {
                h.push_str("<h3>Headline figures</h3>\n");
            }
            if s.repetitions > 1 {
                let _ = writeln!(h, "<p>Each figure is the mean of {} runs, with the lowest and highest run in brackets; <b>noisy</b>: {}.</p>", s.repetitions, iomark_engine::noisy::rule());
            }
            if matrix_first::is_matrix_source(s) {
                h.push_str(&matrix_first::summary(s));
                let rows = s.jobs.iter().map(|j| j.dirs.len()).sum();
                h.push_str(&matrix_first::folded_cells(&headline_table(s), rows));
            } else {
                h.push_str(&headline_table(s));
                h.push('\n');
            }
        }
    }
}

/// The headline charts (`detail` false) or the detail charts, section by section; a section
/// of details is folded and drawn when opened.
fn chart_sections(h: &mut String, page: &Page, detail: bool) {
    let mut section = String::new();
    let mut open = false;
    // The page shows a quick run's grid as its own table, with the unit buttons.
    for c in page
        .charts
        .iter()
        .filter(|c| c.kind != Kind::Grid && c.detail == detail)
    {
        if c.section != section {
            section = c.section.clone();
            if open {
                h.push_str("</details>\n");
            }
            open = c.detail;
            if c.detail {
                let n = page.charts.iter().filter(|x| x.section == section).count();
                let _ = writeln!(
                    h,
                    "<details class=more><summary>Charts: {} ({n} charts, drawn when opened)</summary>",
                    esc(&section)
                );
            } else {
                let _ = writeln!(h, "<h2>Charts: {}</h2>", esc(&section));
            }
        }
        let inner = if c.detail {
            lazy_chart(c)
        } else {
            format!(
                "<div class=plot>{}</div>",
                plot(c).to_inline_html(Some(&c.id))
            )
        };
        let _ = writeln!(
            h,
            "<div class=chart data-x=\"{}\" data-y=\"{}\"{}{}>{inner}<div class=data></div></div>",
            esc(&c.x_title),
            esc(&c.y_title),
            if c.x_scale == Scale::Nines {
                " data-nines=1"
            } else {
                ""
            },
            // A matrix's table is as wide as the chart, and so is the table of more than
            // WIDE_TABLE series (a sweep's bars per block size): it goes below it, not beside.
            if matches!(c.kind, Kind::Heatmap | Kind::Surface) || c.traces.len() > WIDE_TABLE {
                " data-matrix=1"
            } else {
                ""
            },
        );
    }
    if open {
        h.push_str("</details>\n");
    }
}

/// Series beyond which a chart's data table no longer fits beside it (one column each, after
/// the x column, in a box of 360 px).
const WIDE_TABLE: usize = 3;

/// Render `page` into `path` (through a temporary file).
pub fn write(path: &Path, page: &Page) -> Result<(), ReportError> {
    write_with(path, page, Js::Inline)
}

/// Render `page` into `path`; with [`Js::External`], [`PLOTLY_FILE`] is written beside it
/// unless that directory already holds this very file.
pub fn write_with(path: &Path, page: &Page, js: Js) -> Result<(), ReportError> {
    if js == Js::External {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let lib = dir.join(PLOTLY_FILE);
        let src = plotly_source();
        if std::fs::read(&lib).ok().as_deref() != Some(src.as_bytes()) {
            crate::output::write_atomic(&lib, src.as_bytes())?;
        }
    }
    crate::output::write_atomic(path, render_with(page, js).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::Trace;

    /// A percentile column names the latency it holds: fio's clat is never headed "lat".
    #[test]
    fn headline_columns_name_the_latency() {
        use crate::model::{DirFigures, Headline, Job, LatKind};
        let h = |k| Headline {
            p50_ns: Some(1000.0),
            pct_of: Some(k),
            ..Default::default()
        };
        let dir = |k| DirFigures {
            dir: "read",
            reps: vec![h(k)],
            ..Default::default()
        };
        let job = |n: &str, k| Job {
            name: n.into(),
            dirs: vec![dir(k)],
            ..Default::default()
        };
        let mut s = Source {
            jobs: vec![job("a", LatKind::Clat)],
            ..Default::default()
        };
        let t = headline_table(&s);
        assert!(t.contains("p50 clat (us)") && !t.contains("p50 lat"), "{t}");
        let md = crate::export::markdown::render(std::slice::from_ref(&s));
        assert!(md.contains("p50 clat (us)"), "{md}");
        s.jobs.push(job("b", LatKind::Lat));
        let t = headline_table(&s);
        assert!(t.contains("1.00 (clat)") && t.contains("1.00 (lat)"), "{t}");
    }

    /// Detail charts are collapsed and carry their figure as data, drawn only when opened.
    #[test]
    fn detail_charts_are_collapsed_and_drawn_on_demand() {
        let mut head = Chart::new("h".into(), "s", "summary", Kind::Bars);
        head.traces
            .push(crate::charts::bars("a", [("x".to_string(), 1.0)]));
        let mut det = Chart::new("d".into(), "s / job", "</script> job", Kind::Lines);
        det.traces.push(crate::charts::line("a", [(1.0, 2.0)]));
        det.detail = true;
        let page = Page {
            title: "t".into(),
            command: None,
            sources: &[],
            comparison: None,
            charts: vec![head, det],
        };
        let h = render(&page);
        let at = h.find("<details class=more>").expect("collapsed section");
        assert!(h[at..].contains("(1 charts, drawn when opened)"));
        let fig = &h[h.find("class=fig>").unwrap()..];
        let fig = &fig[..fig.find("</script>").unwrap()];
        assert!(
            fig.contains("\"title\":{\"text\":\"&lt;/script&gt; job\"}"),
            "{fig}"
        );
        assert!(h.contains("<div class=plot><div id=\"d\"></div></div><script type=\"application/json\" class=fig>"));
    }

    #[test]
    fn names_and_labels_are_never_markup() {
        let mut c = Chart::new("x".into(), "<b>s</b>", "<i>title</i>", Kind::Bars).axes("a&b", "y");
        c.traces.push(Trace {
            name: r#"<a href="https://x.example/">click</a>"#.into(),
            cats: vec!["<a href=y>c</a>".into()],
            y: vec![1.0],
            ..Default::default()
        });
        let json = plot(&c).to_json();
        assert!(!json.contains("<a") && !json.contains("\\u003ca"), "{json}");
        assert!(
            json.contains("&lt;a href=\\\"https://x.example/\\\"&gt;click&lt;/a&gt;"),
            "{json}"
        );
        assert!(
            json.contains("&lt;i&gt;title&lt;/i&gt;") && json.contains("a&amp;b"),
            "{json}"
        );
    }

    /// A percentile chart: x on the nines scale with ticks named 50, 90, 99, 99.9, hover
    /// naming the percentile; latency on a log axis; the page's table reads x back as
    /// percentiles.
    #[test]
    fn percentiles_use_a_nines_axis_and_log_latency() {
        let mut c = Chart::new("p".into(), "s", "percentiles", Kind::Lines)
            .axes("percentile (%)", "latency (us)")
            .nines_x()
            .log_y();
        c.traces.push(crate::charts::line(
            "clat",
            [(50.0, 10.0), (90.0, 20.0), (99.0, 40.0), (99.9, 900.0)],
        ));
        let json: serde_json::Value = serde_json::from_str(&plot(&c).to_json()).unwrap();
        let x = &json["layout"]["xaxis"];
        assert_eq!(
            x["ticktext"],
            serde_json::json!(["0", "50", "90", "99", "99.9"])
        );
        assert_eq!(x["tickvals"][3], serde_json::json!(2.0));
        assert_eq!(json["layout"]["yaxis"]["type"], "log");
        let xs = json["data"][0]["x"].as_array().unwrap();
        assert!((xs[3].as_f64().unwrap() - 3.0).abs() < 1e-9, "{xs:?}");
        assert_eq!(json["data"][0]["text"][3], "p99.9");
        let page = Page {
            title: "t".into(),
            command: None,
            sources: &[],
            comparison: None,
            charts: vec![c],
        };
        assert!(render(&page).contains("data-nines=1"));
    }

    /// Long category labels: the axes make room for their labels (the title below them) and
    /// the figure grows by as much.
    #[test]
    fn long_category_labels_get_room() {
        let mut c = Chart::new("b".into(), "s", "bars", Kind::Bars).axes("job", "IOPS");
        c.traces.push(crate::charts::bars(
            "IOPS",
            [(
                "backup-repository-active-full-sequential-write".to_string(),
                1.0,
            )],
        ));
        let json: serde_json::Value = serde_json::from_str(&plot(&c).to_json()).unwrap();
        assert_eq!(json["layout"]["xaxis"]["automargin"], true);
        assert!(json["layout"]["height"].as_u64().unwrap() > 420);
    }

    /// Nothing is wider than the page: no column has a fixed least width; a matrix's table
    /// goes below its chart, every chart's below it on a narrow page; a wide table scrolls in
    /// its own box.
    #[test]
    fn the_layout_fits_the_page() {
        let chart = |id: &str, kind| {
            let mut c = Chart::new(id.into(), "s", id, kind).axes("record", "file");
            c.traces.push(Trace {
                name: "kB/s".into(),
                cats: vec!["4".into()],
                rows: vec!["64".into()],
                y: vec![1.0],
                z: vec![vec![1.0]],
                ..Default::default()
            });
            c
        };
        let page = Page {
            title: "t".into(),
            command: None,
            sources: &[],
            comparison: None,
            charts: vec![chart("hm", Kind::Heatmap), chart("b", Kind::Bars), {
                let mut w = chart("w", Kind::Bars);
                let t = w.traces[0].clone();
                w.traces.extend(std::iter::repeat_n(t, WIDE_TABLE));
                w
            }],
        };
        let h = render(&page);
        let div = |id: &str| {
            let at = h.find(&format!("id=\"{id}\"")).unwrap();
            h[..at]
                .rsplit("<div class=chart")
                .next()
                .unwrap()
                .to_string()
        };
        assert!(div("hm").contains("data-matrix=1"), "{}", div("hm"));
        assert!(!div("b").contains("data-matrix"), "{}", div("b"));
        assert!(div("w").contains("data-matrix=1"), "{}", div("w"));
        assert!(STYLE.contains(".chart[data-matrix]{grid-template-columns:minmax(0,1fr)}"));
        assert!(
            STYLE.contains("@media (max-width:860px){.chart{grid-template-columns:minmax(0,1fr)}}")
        );
        assert!(STYLE.contains(".data{max-height:420px;overflow:auto}"));
        let chart_rule = STYLE
            .split(".chart{")
            .nth(1)
            .unwrap()
            .split('}')
            .next()
            .unwrap();
        assert!(
            chart_rule.contains("minmax(0,1fr) minmax(0,360px)"),
            "{chart_rule}"
        );
        // A cell not measured (NaN in the figure, null in its JSON) stays empty in the table.
        assert!(TABLE_JS.contains("if(v===null||v===undefined)return '';"));
        let folded = matrix_first::folded_cells("<table></table>", 1);
        assert!(folded.contains("<div class=scroll><table>"), "{folded}");
        assert!(STYLE.contains(".scroll{overflow-x:auto}"));
    }

    /// `--js=external`: the page loads Plotly.js from the file beside it, written once; the
    /// inline page carries the same script itself.
    #[test]
    fn external_js_is_one_shared_file_beside_the_pages() {
        let page = Page {
            title: "t".into(),
            command: None,
            sources: &[],
            comparison: None,
            charts: Vec::new(),
        };
        let inline = render(&page);
        let external = render_with(&page, Js::External);
        assert!(external.contains("<script src=\"plotly.min.js\"></script>"));
        let lib = plotly_source();
        assert!(
            lib.len() > 1_000_000 && !lib.contains("<script"),
            "{}",
            lib.len()
        );
        assert!(inline.contains(&lib) && !external.contains(&lib[..200]));
        assert!(external.len() + lib.len() < inline.len() + 200);
        let dir = std::env::temp_dir().join(format!("iomark-js-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        write_with(&dir.join("a.html"), &page, Js::External).unwrap();
        let at = |f: &str| std::fs::metadata(dir.join(f)).unwrap().modified().unwrap();
        let first = at(PLOTLY_FILE);
        write_with(&dir.join("b.html"), &page, Js::External).unwrap();
        assert_eq!(at(PLOTLY_FILE), first, "written again");
        assert_eq!(
            std::fs::read(dir.join(PLOTLY_FILE)).unwrap(),
            lib.as_bytes()
        );
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(Js::parse("external"), Some(Js::External));
        assert_eq!(Js::parse("cdn"), None);
    }
}
