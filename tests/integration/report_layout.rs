//! The report page fits the widths people look at it in: an iozone `-a` report (heatmaps
//! with a table of each matrix, the per-cell table opened) shot by headless Chromium 700 and
//! 1280 px wide shows nothing past the page's right margin, which stays background.

use crate::report::{check_png, chromium};
use crate::util::*;

/// The width, height and RGBA pixels of a PNG screenshot.
fn pixels(p: &std::path::Path) -> (usize, usize, Vec<[u8; 4]>) {
    let mut dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(p).unwrap()));
    dec.set_transformations(png::Transformations::EXPAND | png::Transformations::ALPHA);
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).unwrap();
    assert_eq!(info.bit_depth, png::BitDepth::Eight, "{}", p.display());
    let px: Vec<[u8; 4]> = buf[..info.buffer_size()]
        .chunks(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect();
    (info.width as usize, info.height as usize, px)
}

/// The rows of the screenshot `p` whose rightmost `cols` pixels are not the page's white
/// background: something drawn past the right margin, cut off by the window's edge.
fn rows_past_the_margin(p: &std::path::Path, cols: usize) -> Vec<usize> {
    let (w, h, px) = pixels(p);
    (0..h)
        .filter(|y| (w - cols..w).any(|x| px[y * w + x] != [255, 255, 255, 255]))
        .collect()
}

#[test]
fn iozone_report_fits_700_and_1280_px() {
    let d = Scratch::new_in("/dev/shm", "report-layout");
    let (r, f) = (d.s("iz.json"), d.s("iz.dat"));
    ok(&iomark_in(
        &[
            "iozone", "-a", "-n", "64k", "-g", "1m", "-i", "0", "-i", "1", "-f", &f, "--result", &r,
        ],
        &d.path,
    ));
    let html = d.file("iz.html");
    ok(&iomark_in(
        &["report", &r, "-o", &html.display().to_string()],
        &d.path,
    ));
    // The per-cell table (many columns) open, as a reader who unfolds it sees it.
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<details class=cells>"));
    std::fs::write(
        &html,
        page.replace("<details class=cells>", "<details class=cells open>"),
    )
    .unwrap();
    // Each matrix's table is built (a cell not measured left empty, never "null").
    let (dom, _) = chromium(&["--dump-dom"], &html);
    assert!(dom.matches("<table>").count() >= 4, "tables not built");
    assert!(
        !dom.contains("<td>null</td>"),
        "a missing cell shown as null"
    );
    for w in [700, 1280] {
        let shot = d.file(&format!("shot-{w}.png"));
        chromium(
            &[
                &format!("--window-size={w},4000"),
                &format!("--screenshot={}", shot.display()),
            ],
            &html,
        );
        check_png(&shot);
        let (sw, _, _) = pixels(&shot);
        assert_eq!(sw, w, "{}", shot.display());
        // The page's margin is 1.5em (24 px): its right half is background on every row.
        let cut = rows_past_the_margin(&shot, 12);
        assert!(
            cut.is_empty(),
            "{w} px: {} rows drawn past the right margin, from y={} ({})",
            cut.len(),
            cut[0],
            shot.display()
        );
    }
}
