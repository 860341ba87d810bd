//! Reports, exports and comparisons end to end: HTML reports loaded by headless Chromium with
//! the network off (every chart rendered, no request left the page, the screenshot not blank),
//! PNG/SVG images, CSV/XLSX/Markdown exports read back (XLSX also by LibreOffice), `compare` on
//! iomark results, fio 3.33 JSON/json+ made here and a checked-in fio 3.1 JSON fixture, and bad
//! input refused with the file named and no partial output left.

use crate::util::*;
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(name: &str) -> String {
    format!(
        "{}/tests/fixtures/fio-3.1-output/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// A short iomark run with two clones, its result file and its report.
fn small_run(d: &Scratch, name: &str, extra: &[&str]) -> (PathBuf, PathBuf) {
    let result = d.file(&format!("{name}.json"));
    let report = d.file(&format!("{name}.html"));
    let mut args = vec![
        "run".to_string(),
        format!("--name={name}"),
        format!("--filename={}", d.s(&format!("{name}.dat"))),
        "--size=16m".into(),
        "--rw=randrw".into(),
        "--bs=4k".into(),
        "--ioengine=psync".into(),
        "--runtime=1".into(),
        "--time_based".into(),
        "--numjobs=2".into(),
        "--fsync=64".into(),
        format!("--result={}", result.display()),
        format!("--report={}", report.display()),
        "--output-format=json".into(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = iomark_in(&a, &d.path);
    ok(&o);
    // A run that went well writes its report and says nothing more.
    assert!(report.is_file());
    assert!(!stderr(&o).contains("report"), "{}", stderr(&o));
    (result, report)
}

/// fio 3.33's json+ of a short run, in the scratch directory.
fn fio_jsonplus(d: &Scratch) -> PathBuf {
    let out = d.file("fio.json");
    let o = fio_in(
        &[
            "--output-format=json+",
            &format!("--output={}", out.display()),
            "--name=randread-4k",
            &format!("--filename={}", d.s("fio.dat")),
            "--size=16m",
            "--rw=randread",
            "--bs=4k",
            "--iodepth=32",
            "--ioengine=psync",
            "--runtime=1",
            "--time_based",
        ],
        &d.path,
    );
    ok(&o);
    out
}

/// What headless Chromium made of a page loaded from disk with every network request refused.
pub(crate) struct Rendered {
    pub(crate) dom: String,
    pub(crate) console: String,
}

pub(crate) fn chromium(args: &[&str], page: &Path) -> (String, String) {
    chromium_url(args, &format!("file://{}", page.display()))
}

/// [`chromium`] on an address (a page with a fragment, say).
pub(crate) fn chromium_url(args: &[&str], url: &str) -> (String, String) {
    let profile = Scratch::new("chromium");
    let o = Command::new("chromium")
        .args([
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--hide-scrollbars",
            "--enable-logging=stderr",
            "--v=0",
            // Network off: no proxy answers and no name resolves.
            "--proxy-server=127.0.0.1:9",
            "--host-resolver-rules=MAP * ~NOTFOUND",
            "--virtual-time-budget=15000",
            &format!("--user-data-dir={}", profile.path.display()),
        ])
        .args(args)
        .arg(url)
        .bounded_output()
        .expect("chromium must be installed (scripts/test installs it)");
    assert!(o.status.success(), "chromium failed: {}", stderr(&o));
    (stdout(&o), stderr(&o))
}

/// The page with every folded section opened (`#all`), so that each chart is drawn.
pub(crate) fn render(page: &Path) -> Rendered {
    let (dom, console) = chromium_url(&["--dump-dom"], &format!("file://{}#all", page.display()));
    Rendered { dom, console }
}

/// Every chart container holds a rendered Plotly plot with drawn data and a table; no load
/// failed and the page refers to nothing outside itself.
#[track_caller]
pub(crate) fn check_page(html: &Path, r: &Rendered, min_charts: usize) {
    // The markup outside the inlined scripts refers to nothing outside the page (Plotly.js
    // itself holds URLs of features no chart here uses; the network-off load checks those).
    let src = std::fs::read_to_string(html).unwrap();
    let markup: String = src
        .split("<script")
        .map(|part| part.split_once("</script>").map_or(part, |(_, rest)| rest))
        .collect();
    for bad in ["src=\"http", "href=\"http", "<link ", "@import", "url(http"] {
        assert!(
            !markup.contains(bad),
            "{}: refers outside itself ({bad})",
            html.display()
        );
    }
    assert!(!src.contains("<script src"), "{}", html.display());
    for bad in ["Failed to load resource", "net::ERR", "Uncaught"] {
        assert!(
            !r.console.contains(bad),
            "{}: {bad} in the console:\n{}",
            html.display(),
            r.console
        );
    }
    let charts: Vec<&str> = r.dom.split("<div class=\"chart\"").skip(1).collect();
    assert!(
        charts.len() >= min_charts,
        "{}: {} charts, expected at least {min_charts}",
        html.display(),
        charts.len()
    );
    for (i, c) in charts.iter().enumerate() {
        let c = c.split("<div class=\"chart\"").next().unwrap();
        assert!(
            c.contains("class=\"main-svg\""),
            "chart {i} of {} not rendered",
            html.display()
        );
        let drawn = [
            "class=\"trace",
            "class=\"point\"",
            "class=\"js-line\"",
            "class=\"surface",
        ]
        .iter()
        .any(|m| c.contains(m))
            // A heatmap is drawn as an image; a 3-D surface on a WebGL canvas, with the
            // colour bar Plotly only draws from the data's z range.
            || c.contains("class=\"hm\"")
            || (c.contains("<canvas") && c.contains("colorbar"));
        assert!(drawn, "chart {i} of {} has no data drawn", html.display());
        assert!(
            c.contains("<table>"),
            "chart {i} of {} has no table",
            html.display()
        );
    }
}

/// LibreOffice's conversion of `xlsx` to CSV with the filter `to` (`csv`: the first sheet),
/// in a scratch directory it returns.
pub(crate) fn soffice_csv(xlsx: &Path, to: &str) -> Scratch {
    let lo = Scratch::new("soffice");
    let o = crate::util::soffice_convert(xlsx, &lo.path, to);
    assert!(o.status.success(), "{}", stderr(&o));
    lo
}

/// A PNG that decodes and is not a single colour.
#[track_caller]
pub(crate) fn check_png(p: &Path) {
    let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(p).unwrap()));
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).unwrap();
    let px = info.color_type.samples();
    let data = &buf[..info.buffer_size()];
    let first = &data[..px];
    assert!(
        data.chunks(px).any(|c| c != first),
        "{} is a single colour",
        p.display()
    );
}

#[test]
fn html_reports_render_offline_in_chromium() {
    let d = Scratch::new("report-html");
    let (result, run_html) = small_run(&d, "mixed", &[]);
    // Only the logs asked for are written: --report keeps its series in memory.
    let stray: Vec<_> = std::fs::read_dir(&d.path)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".log"))
        .collect();
    assert!(stray.is_empty(), "log files written: {stray:?}");
    let fio = fio_jsonplus(&d);
    let fio_html = d.file("fio.html");
    let imgs = d.file("png");
    let svgs = d.file("svg");
    ok(&iomark_in(
        &[
            "report",
            &fio.display().to_string(),
            "-o",
            &fio_html.display().to_string(),
            "--png",
            &imgs.display().to_string(),
            "--svg",
            &svgs.display().to_string(),
        ],
        &d.path,
    ));
    let cmp_html = d.file("cmp.html");
    ok(&iomark_in(
        &[
            "compare",
            &result.display().to_string(),
            &fixture("fio-3.1-json.json"),
            &fio.display().to_string(),
            "--report",
            &cmp_html.display().to_string(),
        ],
        &d.path,
    ));
    // The three pages load in parallel (each Chromium run takes seconds).
    let pages = [
        (run_html.clone(), 10),
        (fio_html.clone(), 6),
        (cmp_html.clone(), 5),
    ];
    let rendered: Vec<Rendered> = std::thread::scope(|s| {
        let hs: Vec<_> = pages.iter().map(|(p, _)| s.spawn(|| render(p))).collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for ((p, n), r) in pages.iter().zip(&rendered) {
        check_page(p, r, *n);
    }
    let run_dom = &rendered[0].dom;
    // The run's own command line is in its header once.
    let page = std::fs::read_to_string(&run_html).unwrap();
    assert_eq!(
        page.matches("--fsync=64").count(),
        1,
        "command line not shown once"
    );
    for want in [
        "IOPS over time",
        "latency CDF",
        "IOPS per clone",
        "fsync/fdatasync",
        "CPU use",
        "Read these figures with care",
    ] {
        assert!(run_dom.contains(want), "the run's report lacks '{want}'");
    }
    assert!(rendered[2].dom.contains("Comparison") && rendered[2].dom.contains("fio-3.1"));
    // The screenshot of the run's report is not blank.
    let shot = d.file("shot.png");
    chromium(
        &[
            "--window-size=1280,1600",
            &format!("--screenshot={}", shot.display()),
        ],
        &run_html,
    );
    check_png(&shot);
    // Images: every chart as PNG and SVG, decodable and not blank.
    let pngs: Vec<PathBuf> = std::fs::read_dir(&imgs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(pngs.len() >= 6, "{pngs:?}");
    for p in &pngs {
        check_png(p);
    }
    let svg_files: Vec<PathBuf> = std::fs::read_dir(&svgs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(svg_files.len(), pngs.len());
    for p in &svg_files {
        let s = std::fs::read_to_string(p).unwrap();
        assert!(
            s.starts_with("<svg") && s.contains("<text") && s.contains("</svg>"),
            "{}",
            p.display()
        );
        assert!(
            s.contains("<rect") || s.contains("<polyline") || s.contains("<path"),
            "{}",
            p.display()
        );
    }
}

#[test]
fn compare_matches_jobs_computes_deltas_and_fails_on_rules() {
    let d = Scratch::new("report-compare");
    let base: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("fio-3.1-json.json")).unwrap())
            .unwrap();
    // A slower copy under other job names: matched by workload, -20% IOPS.
    let mut slow = base.clone();
    for j in slow["jobs"].as_array_mut().unwrap() {
        let n = j["jobname"].as_str().unwrap().to_string();
        j["jobname"] = format!("{n}-b").into();
        for dir in ["read", "write"] {
            let iops = j[dir]["iops"].as_f64().unwrap();
            j[dir]["iops"] = (iops * 0.8).into();
            let bw = j[dir]["bw"].as_u64().unwrap();
            j[dir]["bw"] = (bw * 8 / 10).into();
        }
    }
    let slow_p = d.file("slow.json");
    std::fs::write(&slow_p, serde_json::to_vec(&slow).unwrap()).unwrap();
    let o = iomark_in(
        &[
            "compare",
            &fixture("fio-3.1-json.json"),
            &slow_p.display().to_string(),
            "--label",
            "old",
            "--label",
            "new",
        ],
        &d.path,
    );
    ok(&o);
    let t = stdout(&o);
    assert!(
        t.contains("randread-4k") && t.contains("old") && t.contains("new"),
        "{t}"
    );
    assert!(
        t.contains("50000") && t.contains("40000") && t.contains("(-20.0%)"),
        "{t}"
    );
    assert!(t.contains("single run: difference not tested"), "{t}");
    assert!(
        t.contains("'randread-4k-b' matched to 'randread-4k' by workload"),
        "{t}"
    );
    let rule = |r: &str| {
        iomark_in(
            &[
                "compare",
                &fixture("fio-3.1-json.json"),
                &slow_p.display().to_string(),
                "--fail-if",
                r,
            ],
            &d.path,
        )
    };
    let o = rule("iops<-10%");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("breaks --fail-if 'iops<-10%'"),
        "{}",
        stderr(&o)
    );
    assert_eq!(rule("iops<-30%").status.code(), Some(0));
    assert_eq!(rule("write.mbps<-25%").status.code(), Some(0));
    assert_eq!(rule("write.mbps<-15%").status.code(), Some(1));
    assert_eq!(rule("bogus").status.code(), Some(2));
    // A rule with its sign forgotten, or matching no figure, is an error.
    let o = rule("iops<10%");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("sign"), "{}", stderr(&o));
    let o = rule("trim.iops<-1%");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot be checked"), "{}", stderr(&o));
    // Directories of repetitions: the spread decides.
    for (dir, factors) in [
        ("a", [1.0, 1.01, 0.99]),
        ("b", [0.8, 0.81, 0.79]),
        ("c", [1.005, 0.995, 1.0]),
    ] {
        std::fs::create_dir_all(d.file(dir)).unwrap();
        for (i, f) in factors.iter().enumerate() {
            let mut v = base.clone();
            for j in v["jobs"].as_array_mut().unwrap() {
                for dd in ["read", "write"] {
                    let iops = j[dd]["iops"].as_f64().unwrap();
                    j[dd]["iops"] = (iops * f).into();
                }
            }
            std::fs::write(
                d.file(&format!("{dir}/rep{i}.json")),
                serde_json::to_vec(&v).unwrap(),
            )
            .unwrap();
        }
    }
    let o = iomark_in(&["compare", &d.s("a"), &d.s("b"), &d.s("c")], &d.path);
    ok(&o);
    let t = stdout(&o);
    let line = t
        .lines()
        .find(|l| l.starts_with("randread-4k") && l.contains("IOPS"))
        .unwrap();
    assert!(line.contains("beyond spread (Welch p="), "{line}");
    assert!(line.contains("within spread (Welch p="), "{line}");
}

#[test]
fn compare_reads_fio_3_33_json_and_iomark_results() {
    let d = Scratch::new("report-fio");
    let fio = fio_jsonplus(&d);
    let (result, _) = small_run(&d, "randread-4k", &["--rw=randread", "--iodepth=1"]);
    let o = iomark_in(
        &[
            "compare",
            &fio.display().to_string(),
            &result.display().to_string(),
            &fixture("fio-3.1-json.json"),
        ],
        &d.path,
    );
    ok(&o);
    let t = stdout(&o);
    // The same job name in all three; fio's json+ bins give p99.9.
    let rows: Vec<&str> = t.lines().filter(|l| l.starts_with("randread-4k")).collect();
    assert_eq!(rows.len(), 5, "{t}");
    assert!(rows.iter().all(|r| !r.contains(" - ")), "{t}");
}

#[test]
fn exports_read_back() {
    let d = Scratch::new("report-export");
    let (result, _) = small_run(&d, "exp", &[]);
    let r = result.display().to_string();
    let csv = d.file("out.csv");
    let xlsx = d.file("out.xlsx");
    let o = iomark_in(
        &[
            "export",
            &r,
            &fixture("fio-3.1-json.json"),
            "--csv",
            &csv.display().to_string(),
            "--xlsx",
            &xlsx.display().to_string(),
            "--markdown",
        ],
        &d.path,
    );
    ok(&o);
    let md = stdout(&o);
    assert!(md.contains("| job | direction | IOPS | MB/s |"), "{md}");
    assert!(md.contains("| randread-4k | read | 50000 |"), "{md}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "source,job,workload,direction,repetition,iops,bw_MB_per_s,bw_MiB_per_s,lat_p50_us,lat_p99_us,lat_p99.9_us,lat_mean_us,lat_min_us,lat_max_us,usr_cpu_pct,sys_cpu_pct,lat_pct_of"
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    // exp: read + write; fio 3.1: randread-4k read, seqwrite-1m write.
    assert_eq!(rows.len(), 4, "{text}");
    assert!(rows.iter().all(|r| r.len() == 17), "{text}");
    let rr = rows.iter().find(|r| r[1] == "randread-4k").unwrap();
    assert_eq!((rr[3], rr[5]), ("read", "50000"));
    // fio 3.1 lists clat percentiles in ns: p99.9 = 2,520,000 ns.
    assert_eq!(rr[10], "2520");
    assert_eq!(rr[16], "clat", "{text}");
    // XLSX: calamine reads the summary sheet back.
    use calamine::{open_workbook, Reader, Xlsx};
    let mut wb: Xlsx<_> = open_workbook(&xlsx).unwrap();
    let names = wb.sheet_names().to_vec();
    assert!(names.len() >= 3 && names[0] == "summary", "{names:?}");
    let sheet = wb.worksheet_range("summary").unwrap();
    assert_eq!(sheet.height(), 5);
    assert_eq!(sheet.get_value((0, 5)).unwrap().to_string(), "iops");
    assert_eq!(sheet.get_value((3, 5)).unwrap().to_string(), "50000");
    // LibreOffice opens it too.
    let lo = soffice_csv(&xlsx, "csv");
    let converted = std::fs::read_to_string(lo.file("out.csv")).unwrap();
    assert!(converted.starts_with("source,job,workload"), "{converted}");
    assert!(converted.contains("randread-4k"), "{converted}");
}

/// `--png DIR` alone writes the images and no page beside them.
#[test]
fn report_images_alone_write_no_page() {
    let d = Scratch::new("report-png-only");
    let imgs = d.file("imgs");
    let o = iomark_in(
        &[
            "report",
            &fixture("fio-3.1-json.json"),
            "--png",
            &imgs.display().to_string(),
        ],
        &d.path,
    );
    ok(&o);
    assert!(!d.file("report.html").exists(), "a page nobody asked for");
    let n = std::fs::read_dir(&imgs).unwrap().count();
    assert!(n >= 2, "{n} images");
}

#[test]
fn bad_input_is_named_and_leaves_no_output() {
    let d = Scratch::new("report-bad");
    let trunc = d.file("trunc.json");
    let good = std::fs::read_to_string(fixture("fio-3.1-json.json")).unwrap();
    std::fs::write(&trunc, &good[..good.len() / 2]).unwrap();
    let text = d.file("notes.txt");
    std::fs::write(&text, "hello\n").unwrap();
    let newer = d.file("newer.json");
    std::fs::write(
        &newer,
        r#"{"format":"iomark-result/2","iomark_version":"9.0.0","shiny":[1]}"#,
    )
    .unwrap();
    std::fs::create_dir_all(d.file("empty")).unwrap();
    for (input, want) in [
        (trunc.clone(), "not JSON"),
        (text.clone(), "not JSON"),
        (newer.clone(), "written by a newer iomark"),
        (d.file("empty"), "holds no result files"),
        (d.file("missing.json"), "cannot read"),
    ] {
        let out = d.file("out.html");
        let o = iomark_in(
            &[
                "report",
                &input.display().to_string(),
                "-o",
                &out.display().to_string(),
            ],
            &d.path,
        );
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains(&input.display().to_string()) && e.contains(want),
            "{e}"
        );
        let o = iomark_in(
            &[
                "compare",
                &fixture("fio-3.1-json.json"),
                &input.display().to_string(),
                "--report",
                &out.display().to_string(),
            ],
            &d.path,
        );
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(!out.exists());
    }
    // Nothing but the inputs is left (no temporary files).
    let mut left: Vec<String> = std::fs::read_dir(&d.path)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["empty", "newer.json", "notes.txt", "trunc.json"]);
    // An output that cannot be written: an error, and no temporary file.
    let o = iomark_in(
        &[
            "report",
            &fixture("fio-3.1-json.json"),
            "-o",
            &d.s("no/such/dir/x.html"),
        ],
        &d.path,
    );
    // Found before any input is read.
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("x.html") && stderr(&o).contains("no such directory"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn fio_logs_beside_the_json_give_interval_charts() {
    let d = Scratch::new("report-fiologs");
    let out = d.file("fio.json");
    let common = [
        "--size=8m",
        "--bs=4k",
        "--ioengine=psync",
        "--runtime=1",
        "--time_based",
    ];
    let mut args: Vec<String> = vec![
        "--output-format=json".into(),
        format!("--output={}", out.display()),
    ];
    // Windowed logs of two clones, and per-I/O logs.
    for (name, extra) in [
        (
            "win",
            vec!["--numjobs=2", "--log_avg_msec=250", "--rw=randread"],
        ),
        ("perio", vec!["--rw=randwrite"]),
    ] {
        args.push(format!("--name={name}"));
        args.push(format!("--filename={}", d.s(&format!("{name}.dat"))));
        for l in ["bw", "iops", "lat"] {
            args.push(format!("--write_{l}_log={name}"));
        }
        args.extend(common.iter().map(|s| s.to_string()));
        args.extend(extra.iter().map(|s| s.to_string()));
    }
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    ok(&fio_in(&a, &d.path));
    assert!(d.file("win_bw.2.log").exists() && d.file("perio_clat.3.log").exists());
    let html = d.file("f.html");
    ok(&iomark_in(
        &[
            "report",
            &out.display().to_string(),
            "-o",
            &html.display().to_string(),
        ],
        &d.path,
    ));
    let page = std::fs::read_to_string(&html).unwrap();
    for id in [
        "fio-win-read-iops-time",
        "fio-win-read-bw-time",
        "fio-win-read-lat-time",
        "fio-perio-write-iops-time",
        "fio-perio-write-bw-time",
        "fio-perio-write-lat-time",
    ] {
        assert!(page.contains(&format!("id=\"{id}\"")), "no chart {id}");
    }
}

#[test]
fn quick_report_charts_every_test() {
    let d = Scratch::new("report-quick");
    let html = d.file("q.html");
    let o = iomark_in(
        &[
            "quick",
            &d.path.display().to_string(),
            "--size=16m",
            "--runtime=1",
            "--ramp=0",
            "--report",
            &html.display().to_string(),
        ],
        &d.path,
    );
    ok(&o);
    let page = std::fs::read_to_string(&html).unwrap();
    for t in ["SEQ1M-Q8T1", "SEQ1M-Q1T1", "RND4K-Q32T1", "RND4K-Q1T1"] {
        for dir in ["read", "write"] {
            for c in ["iops-time", "lat-cdf"] {
                let id = format!("run-{t}-{dir}-{dir}-{c}");
                assert!(page.contains(&format!("id=\"{id}\"")), "no chart {id}");
            }
        }
    }
    // Only the report is left beside the temporary file's directory.
    let left: Vec<_> = std::fs::read_dir(&d.path)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["q.html"]);
}
