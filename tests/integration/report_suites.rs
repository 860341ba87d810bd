//! Reports and exports of the suites' own tables: dd results at two block sizes (the ladder),
//! hdparm's timings, bonnie++ with `-x 2`, a sweep over two options, blogbench's iterations
//! and scores; charted in one HTML page
//! loaded by headless Chromium with the network off, written as PNG images, exported as XLSX
//! (one sheet per suite table, read by calamine and by LibreOffice) and Markdown; the command
//! line of each result in the report's header; a result written before the command line was
//! recorded still reads; iozone's matrix per test as a heatmap (and a 3-D surface when asked).

use crate::report::{check_page, check_png, render, soffice_csv};
use crate::util::*;
use serde_json::Value;
use std::path::PathBuf;

/// The suite table of a result file.
fn table(path: &PathBuf, suite: &str) -> Value {
    let doc: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let t = doc["tables"]
        .as_array()
        .unwrap_or_else(|| panic!("{}: no tables", path.display()))
        .iter()
        .find(|t| t["suite"] == suite)
        .unwrap_or_else(|| panic!("{}: no {suite} table", path.display()))
        .clone();
    t
}

fn col(t: &Value, name: &str) -> usize {
    t["columns"]
        .as_array()
        .unwrap()
        .iter()
        .position(|c| c == name)
        .unwrap_or_else(|| panic!("no column {name}: {t}"))
}

/// Run iomark in `d` with `args`; it must succeed.
fn run_in(d: &Scratch, args: &[&str]) {
    ok(&iomark_in(args, &d.path));
}

/// Every suite's result file, made here.
pub(crate) fn suite_results(d: &Scratch) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for (bs, count) in [("4k", "512"), ("64k", "32")] {
        let rf = d.file(&format!("dd{bs}.json"));
        run_in(
            d,
            &[
                "dd",
                "if=/dev/zero",
                &format!("of={}", d.s(&format!("dd{bs}.dat"))),
                &format!("bs={bs}"),
                &format!("count={count}"),
                &format!("--result-file={}", rf.display()),
            ],
        );
        out.push(rf);
    }
    // hdparm on a 4 MiB file (its 2 MiB timing buffer twice).
    let img = d.file("hd.img");
    std::fs::write(&img, vec![7u8; 4 << 20]).unwrap();
    let hd = d.file("hd.json");
    run_in(
        d,
        &[
            "hdparm",
            "-t",
            "-T",
            &format!("--result-file={}", hd.display()),
            &img.display().to_string(),
        ],
    );
    out.push(hd);
    let bon = d.file("bon.json");
    run_in(
        d,
        &[
            "bonnie",
            "-d",
            &d.path.display().to_string(),
            "-s",
            "8",
            "-r",
            "0",
            "-n",
            "0",
            "-x",
            "2",
            "-q",
            &format!("--result-file={}", bon.display()),
        ],
    );
    out.push(bon);
    let sw = d.file("sw.json");
    run_in(
        d,
        &[
            "sweep",
            "--bs=4k,64k",
            "--iodepth=1,4",
            "--ioengine=null",
            "--size=8m",
            "--runtime=50ms",
            "--time_based",
            &format!("--result={}", sw.display()),
        ],
    );
    out.push(sw);
    let bb = d.file("bb.json");
    run_in(
        d,
        &[
            "blogbench",
            "-d",
            &d.s("blogs"),
            "-i",
            "3",
            "-s",
            "1",
            "-w",
            "1",
            "-W",
            "1",
            "-c",
            "1",
            "-r",
            "2",
            &format!("--result-file={}", bb.display()),
        ],
    );
    out.push(bb);
    // A preset, twice, with one limit met and one missed (exit status 1).
    let pr = d.file("p.json");
    let o = iomark_in(
        &[
            "preset",
            "run",
            "cloud-disk",
            &d.path.display().to_string(),
            "--size",
            "16m",
            "--runtime",
            "200ms",
            "--warmup",
            "100ms",
            "--repeat",
            "2",
            "--expect-iops",
            "1",
            "--expect-mbps",
            "1000000",
            "--result",
            &pr.display().to_string(),
        ],
        &d.path,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    out.push(pr);
    out
}

#[test]
fn suite_tables_are_charted_and_exported() {
    let d = Scratch::new_in("/dev/shm", "report-suites");
    let files = suite_results(&d);
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    // The tables hold what the suites measured.
    for (f, bs, count) in [(&files[0], 4096.0, 512.0), (&files[1], 65536.0, 32.0)] {
        let t = table(f, "dd");
        let row = &t["rows"][0];
        assert_eq!(row[col(&t, "block size (bytes)")].as_f64(), Some(bs));
        assert_eq!(row[col(&t, "bytes")].as_f64(), Some(bs * count));
        let secs = row[col(&t, "seconds")].as_f64().unwrap();
        let mbs = row[col(&t, "MB/s")].as_f64().unwrap();
        assert!(secs > 0.0 && (mbs - bs * count / secs / 1e6).abs() < 1e-6 * mbs);
        let doc: Value = serde_json::from_slice(&std::fs::read(f).unwrap()).unwrap();
        let cl: Vec<&str> = doc["command_line"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(cl[1..3], ["dd", "if=/dev/zero"], "{cl:?}");
    }
    let hd = table(&files[2], "hdparm");
    let timings: Vec<&str> = hd["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r[1].as_str().unwrap())
        .collect();
    assert_eq!(timings, ["cached", "buffered disk"]);
    let bon = table(&files[3], "bonnie");
    assert_eq!(bon["rows"].as_array().unwrap().len(), 2, "-x 2: two rows");
    for r in bon["rows"].as_array().unwrap() {
        assert!(
            r[col(&bon, "block out (KiB/s)")].as_f64().unwrap() > 0.0,
            "{r}"
        );
    }
    let sw = table(&files[4], "sweep");
    assert_eq!(sw["rows"].as_array().unwrap().len(), 4);
    assert_eq!(sw["columns"][0], "bs");
    let bb = table(&files[5], "blogbench");
    assert_eq!(bb["title"], "blogbench iterations");
    let bb_rows = bb["rows"].as_array().unwrap();
    assert_eq!(bb_rows.len(), 3, "-i 3: three rows");
    let total = col(&bb, "blogs written (total)");
    assert!(
        bb_rows
            .windows(2)
            .all(|w| w[0][total].as_f64() <= w[1][total].as_f64()),
        "{bb}"
    );
    let doc: Value = serde_json::from_slice(&std::fs::read(&files[5]).unwrap()).unwrap();
    let scores = &doc["tables"][1];
    assert_eq!(scores["title"], "blogbench final scores");
    assert_eq!(
        scores["rows"][0][1].as_f64(),
        bb_rows.last().unwrap()[total].as_f64(),
        "the write score is the blogs written"
    );
    let doc: Value = serde_json::from_slice(&std::fs::read(&files[6]).unwrap()).unwrap();
    let pt: Vec<&Value> = doc["runs"][0]["tables"]
        .as_array()
        .unwrap()
        .iter()
        .collect();
    assert_eq!(pt.len(), 2, "figures and checks");
    let results: Vec<&str> = pt[1]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r[3].as_str().unwrap())
        .collect();
    assert!(
        results.contains(&"pass") && results.contains(&"fail"),
        "{results:?}"
    );
    // One page of all of them, and every chart as a PNG.
    let html = d.file("suites.html");
    let png = d.file("png");
    let mut args: Vec<&str> = vec!["report"];
    args.extend(names.iter().map(String::as_str));
    let (h, p) = (html.display().to_string(), png.display().to_string());
    args.extend(["-o", &h, "--png", &p]);
    run_in(&d, &args);
    let r = render(&html);
    check_page(&html, &r, 19);
    for want in [
        "dd: rate by block size",
        "hdparm: cached and disk reads",
        "bonnie++: block I/O",
        "bonnie++: random seeks",
        "bonnie++: latency of each test",
        "IOPS by iodepth",
        "IOPS over bs and iodepth",
        "command line",
        "if=/dev/zero",
        "--iodepth=1,4",
        "blogbench: reads per iteration",
        "blogbench: writes per iteration",
        "blogbench: final scores",
        "cloud-disk summary (IOPS)",
        "cloud-disk against the expected limits",
        ": fail",
        "figures are the mean of the 2 runs in the file",
    ] {
        assert!(r.dom.contains(want), "the report lacks '{want}'");
    }
    // bonnie ran with -n 0: no file tests, so no empty chart of them.
    assert!(!r.dom.contains("bonnie++: file creates"));
    let pngs: Vec<PathBuf> = std::fs::read_dir(&png)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    for want in [
        "dd-ladder-mbs",
        "hdparm-timings",
        "bonnie-bon-block",
        "bonnie-bon-latency",
        "iops-Heatmap",
        "blogbench-bb-reads",
        "blogbench-bb-scores",
    ] {
        assert!(
            pngs.iter().any(|p| p.display().to_string().contains(want)),
            "no image {want}: {pngs:?}"
        );
    }
    for p in &pngs {
        check_png(p);
    }
    // XLSX: one sheet per suite table, read back by calamine and converted by LibreOffice.
    let xlsx = d.file("suites.xlsx");
    let mut args: Vec<&str> = vec!["export"];
    args.extend(names.iter().map(String::as_str));
    let x = xlsx.display().to_string();
    args.extend(["--xlsx", &x, "--markdown"]);
    let o = iomark_in(&args, &d.path);
    ok(&o);
    let md = stdout(&o);
    assert!(
        md.contains("**bonnie++ bulk tests per run** (bonnie)"),
        "{md}"
    );
    assert!(md.contains("- command line: `"), "{md}");
    use calamine::{open_workbook, Reader, Xlsx};
    let mut wb: Xlsx<_> = open_workbook(&xlsx).unwrap();
    let sheets = wb.sheet_names().to_vec();
    for want in [
        "dd4k dd",
        "dd64k dd",
        "hd hdparm",
        "bon bonnie",
        "sw sweep",
        "p preset",
        "p preset~2",
        "bb blogbench",
    ] {
        assert!(
            sheets.iter().any(|s| s == want),
            "no sheet {want}: {sheets:?}"
        );
    }
    let s = wb.worksheet_range("bon bonnie").unwrap();
    assert_eq!(s.height(), 3, "header and two runs");
    assert_eq!(
        s.get_value((0, 1)).unwrap().to_string(),
        "block out (KiB/s)"
    );
    let first = bon["rows"][0][1].as_f64().unwrap();
    let cell: f64 = s.get_value((1, 1)).unwrap().to_string().parse().unwrap();
    assert!((cell - first).abs() < 1e-6 * first, "{cell} vs {first}");
    // LibreOffice writes every sheet as its own CSV (sheet token -1).
    let lo = soffice_csv(
        &xlsx,
        "csv:Text - txt - csv (StarCalc):44,34,UTF8,1,,0,false,true,false,false,false,-1",
    );
    let bon_csv = std::fs::read_to_string(lo.file("suites-bon bonnie.csv")).unwrap_or_else(|e| {
        panic!(
            "{e}: {:?}",
            std::fs::read_dir(&lo.path).unwrap().collect::<Vec<_>>()
        )
    });
    assert!(
        bon_csv.starts_with("run,block out (KiB/s),block in (KiB/s),seeks (/s)"),
        "{bon_csv}"
    );
    assert_eq!(bon_csv.lines().count(), 3, "{bon_csv}");
    let sw_csv = std::fs::read_to_string(lo.file("suites-sw sweep.csv")).unwrap();
    assert!(sw_csv.starts_with("bs,iodepth,IOPS,MB/s"), "{sw_csv}");
}

/// iozone's matrix: per test a table of its cells in the result file, drawn as a heatmap of
/// kB/s over file size and record size in the page and as images; a 3-D surface beside each
/// with `--surface` only.
#[test]
fn iozone_matrix_is_charted_per_test() {
    let d = Scratch::new_in("/dev/shm", "report-iozone");
    let rf = d.file("iz.json");
    let f = d.s("iz.dat");
    let r = rf.display().to_string();
    run_in(
        &d,
        &[
            "iozone", "-a", "-n", "64k", "-g", "256k", "-i", "0", "-i", "1", "-f", &f, "--result",
            &r,
        ],
    );
    for test in ["write", "rewrite", "read", "reread"] {
        let doc: Value = serde_json::from_slice(&std::fs::read(&rf).unwrap()).unwrap();
        let t = doc["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["suite"] == "iozone" && t["title"] == test)
            .unwrap_or_else(|| panic!("no iozone table {test}"))
            .clone();
        // Files 64k, 128k, 256k; records 4k up to the file: 5 + 6 + 7 cells.
        let rows = t["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 18, "{test}: {t}");
        let (fc, rc, kc) = (
            col(&t, "file size (kB)"),
            col(&t, "record size (kB)"),
            col(&t, "kB/s"),
        );
        let cell = doc["iozone"]["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["file_kb"] == 256 && c["record_kb"] == 4)
            .unwrap()
            .clone();
        let row = rows
            .iter()
            .find(|r| r[fc].as_f64() == Some(256.0) && r[rc].as_f64() == Some(4.0))
            .unwrap();
        let want = cell["figures"][test]["kib_per_s"].as_f64().unwrap();
        assert!(
            want > 0.0 && row[kc].as_f64() == Some(want),
            "{test}: {row}"
        );
    }
    let html = d.file("iz.html");
    let png = d.file("png");
    let (h, p) = (html.display().to_string(), png.display().to_string());
    run_in(&d, &["report", &r, "-o", &h, "--png", &p]);
    let rd = render(&html);
    check_page(&html, &rd, 4);
    // The matrix charts come first, the per-pass charts after them.
    let page = std::fs::read_to_string(&html).unwrap();
    let ids: Vec<&str> = page
        .split("<div class=chart")
        .skip(1)
        .filter_map(|c| c.split("id=\"").nth(1)?.split('"').next())
        .collect();
    let matrix = ids.iter().filter(|i| i.starts_with("iozone-")).count();
    assert!(matrix == 4 && ids.len() > matrix, "{ids:?}");
    assert!(
        ids.iter().all(|i| !i.ends_with("-Surface")),
        "a surface unasked: {ids:?}"
    );
    assert!(
        ids[..matrix].iter().all(|i| i.starts_with("iozone-")),
        "{ids:?}"
    );
    // Then the facts and a short summary per test, the per-cell table folded (closed).
    let at = |what: &str| {
        page.find(what)
            .unwrap_or_else(|| panic!("the page lacks {what}"))
    };
    let first_chart = at("<div class=chart");
    let summary = at("<h3>Summary</h3>");
    let folded = at("<details class=cells>");
    let cells = at("<th class=l>job</th>");
    let folded_end = folded + page[folded..].find("</details>").unwrap();
    assert!(
        first_chart < at("<table class=facts>") && first_chart < summary,
        "the matrix charts come first"
    );
    assert!(
        summary < folded && folded < cells && cells < folded_end,
        "the per-cell table is inside the folded section after the summary"
    );
    assert!(page[summary..folded].contains("<td class=l>write</td><td>18</td>"));
    assert!(
        rd.dom.contains("<details class=\"cells\"><summary>"),
        "the per-cell table is closed when the page opens"
    );
    for test in ["write", "rewrite", "read", "reread"] {
        let want = format!("{test} kB/s over file size and record size");
        assert!(rd.dom.contains(&want), "the report lacks '{want}'");
        let img = png.join(format!("iozone-iz-{test}-Heatmap.png"));
        assert!(img.exists(), "no image {}", img.display());
        check_png(&img);
        let img = png.join(format!("iozone-iz-{test}-Surface.png"));
        assert!(!img.exists(), "a surface unasked: {}", img.display());
    }
    // Asked for: a surface after each heatmap, on the page and as an image.
    let html = d.file("iz3d.html");
    let png = d.file("png3d");
    let (h, p) = (html.display().to_string(), png.display().to_string());
    run_in(&d, &["report", &r, "--surface", "-o", &h, "--png", &p]);
    let rd = render(&html);
    check_page(&html, &rd, 8);
    for test in ["write", "rewrite", "read", "reread"] {
        let at = |kind: &str| {
            rd.dom
                .find(&format!("id=\"iozone-iz-{test}-{kind}\""))
                .unwrap_or_else(|| panic!("no {kind} of {test}"))
        };
        assert!(at("Heatmap") < at("Surface"));
        for kind in ["Heatmap", "Surface"] {
            let img = png.join(format!("iozone-iz-{test}-{kind}.png"));
            assert!(img.exists(), "no image {}", img.display());
            check_png(&img);
        }
    }
    let o = iomark_in(&["report", &r, "--surface=yes"], &d.path);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--surface takes no value"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn results_without_a_command_line_still_read() {
    let d = Scratch::new_in("/dev/shm", "report-old");
    let rf = d.file("old.json");
    ok(&iomark_in(
        &[
            "run",
            "--name=old",
            &format!("--filename={}", d.s("old.dat")),
            "--size=1m",
            "--rw=read",
            "--ioengine=null",
            &format!("--result={}", rf.display()),
            "--output-format=json",
        ],
        &d.path,
    ));
    let mut doc: Value = serde_json::from_slice(&std::fs::read(&rf).unwrap()).unwrap();
    // The program by its name, then the arguments as given.
    assert!(
        doc["command_line"][0] == "iomark" && doc["command_line"][1] == "run",
        "{}",
        doc["command_line"]
    );
    doc.as_object_mut().unwrap().remove("command_line");
    std::fs::write(&rf, serde_json::to_vec(&doc).unwrap()).unwrap();
    let o = iomark_in(
        &["export", &rf.display().to_string(), "--markdown"],
        &d.path,
    );
    ok(&o);
    let md = stdout(&o);
    assert!(
        md.contains("| old | read |") && !md.contains("command line"),
        "{md}"
    );
}
