//! bonnie++'s text tables: the bulk table (per-char, block, rewrite, seeks) and the file-test
//! table (sequential and random create / read / delete), each with its latency line, from the
//! same figures as the CSV line.

use super::output::{file_size, latency, per_sec, Bulk, Figure, FileLabel, Files};
use super::plan::BonniePlan;
use iomark_engine::fileops::fileset::Links;

/// bonnie++'s text rate: `763k`, `78.5m`, `454m`, `1.2g` (KiB/s in).
pub fn text_kib(kib: f64) -> String {
    if kib < 10000.0 {
        return format!("{}k", kib as u64);
    }
    let m = kib / 1024.0;
    if m < 100.0 {
        format!("{m:.1}m")
    } else if m < 1000.0 {
        format!("{}m", (m + 0.5) as u64)
    } else {
        format!("{:.1}g", m / 1024.0)
    }
}

/// The version in bonnie++'s 11 columns (`Version 2.00a       ` is 20 wide, the table's
/// header at column 20): `iomark-0.1`, without the dash or the version when it is longer.
fn version_word(version: &str) -> String {
    [format!("iomark-{version}"), format!("iomark{version}")]
        .into_iter()
        .find(|w| w.len() <= 11)
        .unwrap_or_else(|| "iomark".into())
}

fn version_line(tail: &str) -> String {
    let version = version_word(iomark_engine::VERSION);
    format!("Version {version:<11} {tail}\n")
}

/// The figures of one row, with the rate written by `rate`.
fn cells(figs: &[Option<Figure>], rate: impl Fn(usize, f64) -> String) -> String {
    let mut row = String::new();
    for (i, f) in figs.iter().enumerate() {
        match f {
            None => row.push_str("          "),
            Some(f) if f.quick => row.push_str(" +++++ +++"),
            Some(f) => row.push_str(&format!(" {:>5} {:>3}", rate(i, f.rate), f.cpu)),
        }
    }
    row
}

fn latency_line(figs: &[Option<Figure>]) -> String {
    let mut l = String::from("Latency          ");
    for f in figs {
        let v = f.map(|f| latency(f.max_lat_us)).unwrap_or_default();
        l.push_str(&format!(" {v:>9}"));
    }
    l.push('\n');
    l
}

/// The bulk table (three header lines, the figures, the latency line).
pub fn bulk(name: &str, p: &BonniePlan, b: &Bulk) -> String {
    let mut s = version_line("------Sequential Output------ --Sequential Input- --Random-");
    s.push_str("                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n");
    s.push_str("Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n");
    // The machine name in 19 columns, the size right-aligned at its end after a space.
    let size = file_size(p);
    let keep = 19usize.saturating_sub(size.len() + 1);
    let head: String = name.chars().take(keep).collect();
    s.push_str(&format!("{head:<keep$} {size}"));
    s.push_str(&cells(
        b,
        |i, r| {
            if i == 5 {
                per_sec(r)
            } else {
                text_kib(r)
            }
        },
    ));
    s.push('\n');
    s.push_str(&latency_line(b));
    s
}

/// The file-test table (three header lines, the figures, the latency line).
pub fn files(name: &str, n: &FileLabel, f: &Files) -> String {
    let mut s = version_line("------Sequential Create------ --------Random Create--------");
    let short: String = name.chars().take(19).collect();
    s.push_str(&format!(
        "{short:<19} -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
    ));
    let max = n.max_label();
    s.push_str(if n.min > 0 && n.links == Links::Files {
        "files:max:min       "
    } else if max.is_some() {
        "files:max           "
    } else {
        "              files "
    });
    s.push_str(" /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n");
    let mut label = n.num.to_string();
    match max {
        Some(m) if n.links != Links::Files => label.push_str(&format!(":{m}")),
        Some(m) => label.push_str(&format!(":{m}:{}", n.min)),
        None => {}
    }
    if n.dirs > 1 {
        label.push_str(&format!("/{}", n.dirs));
    }
    s.push_str(&format!("{label:>19}"));
    s.push_str(&cells(f, |_, r| format!("{}", r as u64)));
    s.push('\n');
    s.push_str(&latency_line(f));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bonnie::output::tests::{bplan, fig};

    #[test]
    fn the_version_fits_bonnies_column() {
        assert_eq!(version_word("0.1.0"), "iomark0.1.0");
        assert_eq!(version_word("0.1"), "iomark-0.1");
        assert_eq!(version_word("10.20.30"), "iomark");
    }

    #[test]
    fn units_as_bonnie_prints_them() {
        assert_eq!(text_kib(763.0), "763k");
        assert_eq!(text_kib(1567.9), "1567k");
        assert_eq!(text_kib(80350.0), "78.5m");
        assert_eq!(text_kib(464822.0), "454m");
        assert_eq!(text_kib(2_000_000.0), "1.9g");
    }

    #[test]
    fn bulk_table_has_bonnies_columns() {
        let b: Bulk = [
            fig(1120.0, 48, false, 24208),
            fig(80350.0, 8, false, 64054),
            None,
            None,
            fig(1e6, 7, true, 36026),
            fig(412.34, 2, false, 8038),
        ];
        let t = bulk("host", &bplan("64"), &b);
        let l: Vec<&str> = t.lines().collect();
        assert_eq!(
            l[3],
            "host            64M 1120k  48 78.5m   8                     +++++ +++ 412.3   2"
        );
        assert_eq!(
            l[4],
            "Latency             24208us   64054us                       36026us    8038us"
        );
        assert!(l[0].starts_with("Version iomark"));
        // bonnie++ 2.00a's first line: the header starts at column 20.
        let theirs =
            "Version 2.00a       ------Sequential Output------ --Sequential Input- --Random-";
        assert_eq!(l[0].find(" ------"), theirs.find(" ------"), "{}", l[0]);
        assert_eq!(l[0].len(), theirs.len());
        let t = bulk("a-very-long-machine-name", &bplan("2048"), &b);
        assert!(t
            .lines()
            .nth(3)
            .unwrap()
            .starts_with("a-very-long-mach 2G 1120k"));
    }

    #[test]
    fn file_table_has_bonnies_columns() {
        let f: Files = [
            fig(16384.0, 90, false, 57),
            fig(1e5, 80, true, 71),
            fig(3000.0, 50, false, 4067),
            None,
            None,
            None,
        ];
        let n = FileLabel {
            num: 1,
            max: 100,
            min: 10,
            dirs: 2,
            chunk: 8192,
            links: Links::Files,
        };
        let t = files("host", &n, &f);
        let l: Vec<&str> = t.lines().collect();
        assert_eq!(
            l[1],
            "host                -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--"
        );
        assert_eq!(
            l[2],
            "files:max:min        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP"
        );
        assert_eq!(
            l[3].trim_end(),
            "         1:100:10/2 16384  90 +++++ +++  3000  50"
        );
        assert_eq!(
            l[4].trim_end(),
            "Latency                57us      71us    4067us"
        );
        let plain = FileLabel {
            num: 16,
            dirs: 1,
            chunk: 8192,
            ..Default::default()
        };
        let t = files("host", &plain, &f);
        let l: Vec<&str> = t.lines().collect();
        assert!(l[2].starts_with("              files  /sec %CP"));
        assert!(l[3].starts_with("                 16 16384  90"));
        // Links as bonnie++ 2.00a prints them: `files:max`, `1:link/3`, `1:symlink`.
        for (links, dirs, want) in [
            (Links::Hard, 3, "           1:link/3 16384"),
            (Links::Symbolic, 1, "          1:symlink 16384"),
        ] {
            let n = FileLabel {
                num: 1,
                dirs,
                chunk: 8192,
                links,
                ..Default::default()
            };
            let t = files("host", &n, &f);
            let l: Vec<&str> = t.lines().collect();
            assert!(l[2].starts_with("files:max            /sec"), "{}", l[2]);
            assert!(l[3].starts_with(want), "{}", l[3]);
        }
    }
}
