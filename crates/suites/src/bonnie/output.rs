//! bonnie++'s figures and CSV line (format 1.98, 50 fields, bonnie++'s field order) from the
//! result model. A test that took under 500 ms shows `+++++`/`+++` instead of its rate and CPU.
//! The text table ([`super::text`]) prints the same figures, so text and CSV always agree.

use super::args::BonnieArgs;
use super::plan::{BonniePlan, BLOCK_IN, BLOCK_OUT, FILE_TESTS, GETC, PUTC, REWRITE, SEEKS};
use iomark_engine::fileops::fileset::Links;
use iomark_engine::job::Dir;
use iomark_engine::RunResult;

/// One test's figures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figure {
    /// KiB/s for the I/O tests, operations/s for seeks, files/s for the file tests.
    pub rate: f64,
    /// (user+sys)/elapsed in percent.
    pub cpu: u64,
    /// The test took under 500 ms: no rate is shown.
    pub quick: bool,
    /// The slowest operation, in microseconds.
    pub max_lat_us: u64,
}

/// The six bulk tests in bonnie++'s order: putc, block out, rewrite, getc, block in, seeks.
pub type Bulk = [Option<Figure>; 6];
/// The six file tests in bonnie++'s order: sequential create, stat, delete; random the same.
pub type Files = [Option<Figure>; 6];

/// The `-n` parameters as the outputs show them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileLabel {
    /// Files in units of 1024 (0: no file tests).
    pub num: u64,
    pub max: u64,
    pub min: u64,
    pub dirs: u32,
    pub chunk: u64,
    pub links: Links,
}

impl FileLabel {
    /// `max` as bonnie++ writes it: `link`, `symlink`, the size, or nothing for empty files.
    pub fn max_label(&self) -> Option<String> {
        match (self.links, self.max) {
            (Links::Hard, _) => Some("link".into()),
            (Links::Symbolic, _) => Some("symlink".into()),
            (_, 0) => None,
            (_, m) => Some(m.to_string()),
        }
    }

    pub fn of(a: &BonnieArgs) -> FileLabel {
        FileLabel {
            num: a.files,
            max: a.file_max,
            min: a.file_min,
            dirs: a.file_dirs,
            chunk: a.file_chunk,
            links: a.file_links,
        }
    }
}

/// A test's figure; None (a blank, as bonnie++ leaves a test that did not run) when it did not
/// run, failed, or did nothing (`+++++` means "too fast to time", never "not measured").
fn figure(r: &RunResult, name: &str, dirs: &[Dir], per_kib: bool) -> Option<Figure> {
    let jobs: Vec<_> = r.jobs.iter().filter(|j| j.name == name && j.ran).collect();
    let did = jobs
        .iter()
        .any(|j| dirs.iter().any(|&d| j.dirs[d].total_ios > 0));
    if !did || jobs.iter().any(|j| j.error != 0) {
        return None;
    }
    let us = jobs.iter().map(|j| j.runtime_us).max().unwrap_or(0);
    let secs = us as f64 / 1e6;
    let (mut bytes, mut ios, mut cpu_us, mut max) = (0u64, 0u64, 0u64, 0u64);
    for j in &jobs {
        for &d in dirs {
            bytes += j.dirs[d].io_bytes;
            ios += j.dirs[d].total_ios;
            max = max.max(j.dirs[d].lat.stat.max_or_zero());
        }
        max = max.max(j.sync.stat.max_or_zero());
        cpu_us += j.cpu.usr_us + j.cpu.sys_us;
    }
    let amount = if per_kib {
        bytes as f64 / 1024.0
    } else {
        ios as f64
    };
    Some(Figure {
        rate: if secs > 0.0 { amount / secs } else { 0.0 },
        cpu: (cpu_us * 100).checked_div(us).unwrap_or(0),
        quick: secs < 0.5,
        max_lat_us: max / 1000,
    })
}

/// The bulk figures of one run.
pub fn bulk(r: &RunResult) -> Bulk {
    [
        figure(r, PUTC, &[Dir::Write], true),
        figure(r, BLOCK_OUT, &[Dir::Write], true),
        figure(r, REWRITE, &[Dir::Write], true),
        figure(r, GETC, &[Dir::Read], true),
        figure(r, BLOCK_IN, &[Dir::Read], true),
        figure(r, SEEKS, &[Dir::Read, Dir::Write], false),
    ]
}

/// The file-test figures of one run (files per second).
pub fn files(r: &RunResult) -> Files {
    FILE_TESTS.map(|n| figure(r, n, &[Dir::Read, Dir::Write], false))
}

/// Operations per second: one decimal below 1000.
pub fn per_sec(v: f64) -> String {
    if v < 1000.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.0}")
    }
}

/// bonnie++'s latency: `43377us`, `123ms`, `12s`.
pub fn latency(us: u64) -> String {
    if us < 100_000 {
        format!("{us}us")
    } else if us < 100_000_000 {
        format!("{}ms", us / 1000)
    } else {
        format!("{}s", us / 1_000_000)
    }
}

/// A size as bonnie++ prints one: the largest unit of `units` (bytes first) that divides it.
pub fn size_label(mut v: u64, units: &[&str]) -> String {
    let mut i = 0;
    while v > 0 && v % 1024 == 0 && i + 1 < units.len() {
        v /= 1024;
        i += 1;
    }
    format!("{v}{}", units[i])
}

/// The file size of the bulk tests: `64M`, `2G`.
pub fn file_size(p: &BonniePlan) -> String {
    size_label(p.size_mib, &["M", "G"])
}

fn push_fig(f: &mut Vec<String>, x: &Option<Figure>, rate: impl Fn(f64) -> String) {
    match x {
        None => f.extend([String::new(), String::new()]),
        Some(x) if x.quick => f.extend(["+++++".into(), "+++".into()]),
        Some(x) => f.extend([rate(x.rate), x.cpu.to_string()]),
    }
}

/// The CSV line, format 1.98 (50 fields, bonnie++'s order).
pub fn csv(name: &str, seed: u64, p: &BonniePlan, n: &FileLabel, b: &Bulk, fl: &Files) -> String {
    let mut f: Vec<String> = vec![
        "1.98".into(),
        format!("iomark-{}", iomark_engine::VERSION),
        name.into(),
        p.concurrency.to_string(),
        seed.to_string(),
    ];
    // 6-9: file_size, io_chunk_size, seeks, seekers (empty without bulk tests).
    if p.size_mib > 0 {
        f.extend([
            file_size(p),
            if p.chunk == 8192 {
                String::new()
            } else {
                p.chunk.to_string()
            },
            p.seeks.to_string(),
            p.seekers.to_string(),
        ]);
    } else {
        f.extend(std::iter::repeat_n(String::new(), 4));
    }
    for (i, x) in b.iter().enumerate() {
        push_fig(&mut f, x, |r| {
            if i == 5 {
                per_sec(r)
            } else {
                format!("{}", r as u64)
            }
        });
    }
    // 22-26: num_files, max_size, min_size, file_chunk_size, num_dirs.
    if n.num > 0 {
        let max = n.max_label().unwrap_or_default();
        let min = if n.min > 0 && n.max > 0 && n.links == Links::Files {
            n.min.to_string()
        } else {
            String::new()
        };
        f.extend([
            n.num.to_string(),
            max,
            min,
            if n.chunk == 8192 {
                String::new()
            } else {
                size_label(n.chunk, &["", "k", "m"])
            },
            if n.dirs > 1 {
                n.dirs.to_string()
            } else {
                String::new()
            },
        ]);
    } else {
        f.extend(std::iter::repeat_n(String::new(), 5));
    }
    // 27-38: the file tests.
    for x in fl {
        push_fig(&mut f, x, |r| format!("{}", r as u64));
    }
    // 39-50: latencies, bulk then files.
    for x in b.iter().chain(fl) {
        f.push(x.map(|x| latency(x.max_lat_us)).unwrap_or_default());
    }
    debug_assert_eq!(f.len(), 50);
    f.join(",")
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::bonnie::args::parse;
    use crate::bonnie::plan::{plan, Facts};

    pub(crate) fn bplan(size: &str) -> BonniePlan {
        let a = parse(&["-s".into(), size.into(), "-r".into(), "0".into()]).unwrap();
        plan(
            &a,
            Facts {
                ram_bytes: 1 << 30,
                free_bytes: Some(1 << 40),
                free_files: None,
                pid: 1,
                unwritable: None,
            },
        )
        .unwrap()
    }

    pub(crate) fn fig(rate: f64, cpu: u64, quick: bool, lat: u64) -> Option<Figure> {
        Some(Figure {
            rate,
            cpu,
            quick,
            max_lat_us: lat,
        })
    }

    #[test]
    fn units_as_bonnie_prints_them() {
        assert_eq!(latency(43377), "43377us");
        assert_eq!(latency(123_456), "123ms");
        assert_eq!(latency(123_456_789), "123s");
        assert_eq!(size_label(2048, &["M", "G"]), "2G");
        assert_eq!(size_label(64, &["M", "G"]), "64M");
        assert_eq!(size_label(4096, &["", "k", "m"]), "4k");
        assert_eq!(size_label(100, &["", "k", "m"]), "100");
        assert_eq!(per_sec(412.34), "412.3");
        assert_eq!(per_sec(4123.4), "4123");
    }

    #[test]
    fn csv_has_50_fields_in_bonnies_order() {
        let b: Bulk = [
            fig(1120.7, 48, false, 24208),
            fig(80350.4, 8, false, 64054),
            fig(50000.0, 20, false, 4055),
            None,
            fig(1e6, 7, true, 36026),
            fig(412.34, 2, false, 8038),
        ];
        let fl: Files = [
            fig(16384.9, 90, false, 57),
            fig(1e5, 80, true, 71),
            None,
            None,
            None,
            fig(2000.0, 50, false, 60),
        ];
        let n = FileLabel {
            num: 4,
            max: 65536,
            min: 1024,
            dirs: 2,
            chunk: 4096,
            links: Links::Files,
        };
        let c = csv("host", 7, &bplan("64"), &n, &b, &fl);
        let f: Vec<&str> = c.split(',').collect();
        assert_eq!(f.len(), 50);
        assert_eq!(
            &f[..9],
            [
                "1.98",
                &format!("iomark-{}", iomark_engine::VERSION),
                "host",
                "1",
                "7",
                "64M",
                "",
                "8192",
                "5"
            ]
        );
        assert_eq!(&f[9..15], ["1120", "48", "80350", "8", "50000", "20"]);
        assert_eq!(&f[15..21], ["", "", "+++++", "+++", "412.3", "2"]);
        assert_eq!(&f[21..26], ["4", "65536", "1024", "4k", "2"]);
        assert_eq!(&f[26..30], ["16384", "90", "+++++", "+++"]);
        assert_eq!(&f[36..38], ["2000", "50"]);
        assert_eq!(
            &f[38..44],
            ["24208us", "64054us", "4055us", "", "36026us", "8038us"]
        );
        assert_eq!(&f[44..50], ["57us", "71us", "", "", "", "60us"]);
        // Without bulk tests and with plain -n: empty size fields, bonnie++'s -n fields.
        let none: Bulk = [None; 6];
        let n = FileLabel {
            num: 1,
            max: 100,
            dirs: 1,
            chunk: 8192,
            ..Default::default()
        };
        let c = csv("host", 7, &bplan("0"), &n, &none, &fl);
        let f: Vec<&str> = c.split(',').collect();
        assert_eq!(f.len(), 50);
        assert!(f[5..21].iter().all(|v| v.is_empty()));
        assert_eq!(&f[21..26], ["1", "100", "", "", ""]);
        // Links: `link`/`symlink` for max, min empty (bonnie++ 2.00a's `1,link,,,3`); -c N in
        // field 4.
        let n = FileLabel {
            links: Links::Hard,
            min: 5,
            dirs: 3,
            ..n
        };
        let mut p = bplan("0");
        p.concurrency = 3;
        let c = csv("host", 7, &p, &n, &none, &fl);
        let f: Vec<&str> = c.split(',').collect();
        assert_eq!((f.len(), f[3]), (50, "3"));
        assert_eq!(&f[21..26], ["1", "link", "", "", "3"]);
        let n = FileLabel {
            links: Links::Symbolic,
            ..n
        };
        let c = csv("host", 7, &bplan("0"), &n, &none, &fl);
        assert_eq!(c.split(',').nth(22), Some("symlink"));
    }
}
