//! iomark's text against iozone 3.508's own (captured in tests/fixtures/iozone-3.508, the
//! command line in each file's "Command line used" line): the option lines in argv order,
//! and the matrix's header and lines byte for byte once the figures are masked (a figure is
//! right-aligned in its field, so only where it ends is compared); `auto.xls` is iozone's BIFF
//! workbook, against which the cells of iomark's are laid out.

use super::args::parse;
use super::biff::read_cells;
use super::excel::{self, Block};
use super::plan::plan;
use super::run::{Measure, Row};
use super::text::{self, Layout};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/../../tests/fixtures/iozone-3.508/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("iozone's output {path}: {e}"))
}

/// Each figure blanked but its last digit, which becomes `#`.
fn mask(line: &str) -> String {
    let c: Vec<char> = line.chars().collect();
    (0..c.len())
        .map(|i| match c[i].is_ascii_digit() {
            false => c[i],
            true if c.get(i + 1).is_some_and(|n| n.is_ascii_digit()) => ' ',
            true => '#',
        })
        .collect()
}

/// iomark's output for the fixture `name`'s command line: the option lines, and the matrix
/// (its two header lines and a line per cell, every figure measured but `-+n`'s retests),
/// beside iozone's, masked.
fn both(name: &str) -> ((String, String), (Vec<String>, Vec<String>)) {
    let theirs = String::from_utf8(fixture(&format!("{name}.txt"))).unwrap();
    let line = theirs
        .lines()
        .find_map(|l| l.strip_prefix("\tCommand line used: iozone "))
        .expect("the command line");
    let a = parse(
        &line
            .split_whitespace()
            .map(String::from)
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let p = plan(&a, &|_| Some(1 << 40)).unwrap();
    // The option lines: after "Run began" and its blank line, up to the command line.
    let options = |t: &str| {
        let from = t.find("\tRun began:").unwrap();
        let from = from + t[from..].find("\n\n").unwrap() + 2;
        t[from..t.find("\tCommand line used:").unwrap()].to_string()
    };
    let ours_head = text::header(&a, &p, "now", None);
    let l = Layout::of(&a, &p);
    let mut ours = text::matrix_head(&l);
    for c in &p.cells {
        let values = (0..super::catalog::COLUMNS.len())
            .map(|i| {
                let retest = [1, 3, 10, 12, 14, 16, 18, 20].contains(&i);
                (p.columns.contains(&i) && !(a.no_retest && retest)).then(|| Measure {
                    bytes: 123_456 << 10,
                    ops: 4_321,
                    timed_ns: 1_000_000_000,
                    ..Default::default()
                })
            })
            .collect();
        ours.push_str(&text::row_line(
            &l,
            &Row { cell: *c, values },
            text::unit(&a),
        ));
    }
    // The header's two lines and the matrix's, up to the blank line after it.
    let matrix = |t: &str| -> Vec<String> {
        let lines: Vec<&str> = t.lines().collect();
        let head = lines
            .iter()
            .position(|l| l.starts_with("              kB  reclen"))
            .expect("the matrix header");
        lines[head - 1..]
            .iter()
            .take_while(|l| !l.is_empty())
            .map(|l| mask(l))
            .collect()
    };
    (
        (options(&ours_head), options(&theirs)),
        (matrix(&ours), matrix(&theirs)),
    )
}

#[test]
fn option_lines_follow_the_command_line_as_iozones() {
    for name in ["three-tests", "argv-order", "auto", "extension"] {
        let ((ours, theirs), _) = both(name);
        assert_eq!(ours, theirs, "{name}");
    }
}

#[test]
fn matrix_layout_matches_iozones_byte_for_byte() {
    for name in ["three-tests", "argv-order", "auto", "extension"] {
        let (_, (ours, theirs)) = both(name);
        assert_eq!(ours.len(), theirs.len(), "{name}:\n{}", ours.join("\n"));
        for (o, t) in ours.iter().zip(&theirs) {
            assert_eq!(o, t, "{name}");
        }
    }
}

#[test]
fn xls_workbook_has_iozones_cells_in_iozones_places() {
    let theirs = read_cells(&fixture("auto.xls"));
    let text = String::from_utf8(fixture("auto.txt")).unwrap();
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("\tCommand line used: "))
        .unwrap();
    let a = parse(
        &line
            .split_whitespace()
            .skip(1)
            .map(String::from)
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let p = plan(&a, &|_| Some(1 << 40)).unwrap();
    // iozone's own figures, read from its -R report.
    let blocks: Vec<Block> = excel::parse(&text);
    assert_eq!(blocks.len(), p.columns.len());
    let ours = read_cells(&super::xls::matrix(line, &p, &blocks, &[]).unwrap());
    // Cell (0, 0) is the command line (iozone's as it ran it, with its path).
    assert_eq!(ours[0], (0, 0, line.to_string()));
    assert!(theirs[0].2.contains("iozone -a -n 64k -g 128k -q 16k"));
    assert_eq!(ours[1..], theirs[1..]);
}
