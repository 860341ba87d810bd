//! bonnie++'s text table and CSV line (format 1.98, 50 fields) from the result model. A test
//! that took under 500 ms shows `+++++`/`+++` instead of its rate and CPU (text and CSV agree:
//! both come from the same figures).

use super::plan::{BonniePlan, BLOCK_IN, BLOCK_OUT, SEEKS};
use iomark_engine::job::Dir;
use iomark_engine::RunResult;

/// One test's figures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figure {
    /// KiB/s for the I/O tests, operations/s for seeks.
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

fn figure(r: &RunResult, name: &str, dirs: &[Dir], per_kib: bool) -> Option<Figure> {
    let jobs: Vec<_> = r.jobs.iter().filter(|j| j.name == name && j.ran).collect();
    if jobs.is_empty() {
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
        None,
        figure(r, BLOCK_OUT, &[Dir::Write], true),
        None,
        None,
        figure(r, BLOCK_IN, &[Dir::Read], true),
        figure(r, SEEKS, &[Dir::Read, Dir::Write], false),
    ]
}

/// bonnie++'s text rate: `763k`, `1567k`, `78.5m`, `454m`, `1.2g` (KiB/s in).
pub fn text_kib(kib: f64) -> String {
    if kib < 10000.0 {
        return format!("{kib:.0}k");
    }
    let m = kib / 1024.0;
    if m < 100.0 {
        return format!("{m:.1}m");
    }
    if m < 10000.0 {
        return format!("{m:.0}m");
    }
    let g = m / 1024.0;
    if g < 100.0 {
        format!("{g:.1}g")
    } else {
        format!("{g:.0}g")
    }
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

/// The text table (header, the bulk line, the latency line).
pub fn text(name: &str, p: &BonniePlan, b: &Bulk) -> String {
    let version = format!("iomark-{}", iomark_engine::VERSION);
    let mut s = format!(
        "{:<19} ------Sequential Output------ --Sequential Input- --Random-\n",
        format!("Version {version}")
    );
    s.push_str("                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n");
    s.push_str("Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n");
    let size = format!("{}M", p.size_mib);
    let width = 19usize.saturating_sub(name.len()).max(size.len() + 1);
    let mut row = format!("{name}{size:>width$}");
    for (i, f) in b.iter().enumerate() {
        match f {
            None => row.push_str("          "),
            Some(f) if f.quick => row.push_str(" +++++ +++"),
            Some(f) => {
                let v = if i == 5 {
                    per_sec(f.rate)
                } else {
                    text_kib(f.rate)
                };
                row.push_str(&format!(" {v:>5} {:>3}", f.cpu));
            }
        }
    }
    s.push_str(row.trim_end());
    s.push('\n');
    let mut l = format!("{:<18}", "Latency");
    for (i, f) in b.iter().enumerate() {
        let v = f.map(|f| latency(f.max_lat_us)).unwrap_or_default();
        if i == 0 {
            l.push_str(&format!("{v:>9}"));
        } else {
            l.push_str(&format!(" {v:>9}"));
        }
    }
    s.push_str(l.trim_end());
    s.push('\n');
    s
}

/// The CSV line, format 1.98 (50 fields, bonnie++'s order).
pub fn csv(name: &str, seed: u64, p: &BonniePlan, files: &str, b: &Bulk) -> String {
    let mut f: Vec<String> = vec![
        "1.98".into(),
        format!("iomark-{}", iomark_engine::VERSION),
        name.into(),
        "1".into(),
        seed.to_string(),
        format!("{}M", p.size_mib),
        if p.chunk == 8192 {
            String::new()
        } else {
            p.chunk.to_string()
        },
        p.seeks.to_string(),
        p.seekers.to_string(),
    ];
    for (i, x) in b.iter().enumerate() {
        match x {
            None => f.extend([String::new(), String::new()]),
            Some(x) if x.quick => f.extend(["+++++".into(), "+++".into()]),
            Some(x) => {
                let v = if i == 5 {
                    per_sec(x.rate)
                } else {
                    format!("{:.0}", x.rate)
                };
                f.extend([v, x.cpu.to_string()]);
            }
        }
    }
    // 22-26: num_files, max_size, min_size, file_chunk_size, num_dirs (the -n spec).
    let mut n: Vec<String> = files.split(':').map(String::from).collect();
    if n.first().is_some_and(|v| v == "0") {
        n.clear();
    }
    n.resize(5, String::new());
    // bonnie++ writes num_dirs after file_chunk_size: spec order num:max:min:dirs:chunk.
    f.extend([
        n[0].clone(),
        n[1].clone(),
        n[2].clone(),
        n[4].clone(),
        n[3].clone(),
    ]);
    // 27-38: the file tests (not measured yet).
    f.extend(std::iter::repeat_n(String::new(), 12));
    // 39-50: latencies, bulk then files.
    for x in b {
        f.push(x.map(|x| latency(x.max_lat_us)).unwrap_or_default());
    }
    f.extend(std::iter::repeat_n(String::new(), 6));
    debug_assert_eq!(f.len(), 50);
    f.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bonnie::args::parse;
    use crate::bonnie::plan::{plan, Facts};

    fn bplan() -> BonniePlan {
        let a = parse(&["-s".into(), "64".into(), "-r".into(), "0".into()]).unwrap();
        plan(
            &a,
            Facts {
                ram_bytes: 1 << 30,
                free_bytes: Some(1 << 40),
                pid: 1,
            },
        )
        .unwrap()
    }

    fn fig(rate: f64, cpu: u64, quick: bool, lat: u64) -> Option<Figure> {
        Some(Figure {
            rate,
            cpu,
            quick,
            max_lat_us: lat,
        })
    }

    #[test]
    fn units_as_bonnie_prints_them() {
        assert_eq!(text_kib(763.0), "763k");
        assert_eq!(text_kib(1567.0), "1567k");
        assert_eq!(text_kib(80350.0), "78.5m");
        assert_eq!(text_kib(464822.0), "454m");
        assert_eq!(latency(43377), "43377us");
        assert_eq!(latency(123_456), "123ms");
        assert_eq!(latency(123_456_789), "123s");
    }

    #[test]
    fn text_table_has_bonnies_columns() {
        let b: Bulk = [
            None,
            fig(80350.0, 8, false, 64054),
            None,
            None,
            fig(1e6, 7, true, 36026),
            None,
        ];
        let t = text("host", &bplan(), &b);
        let l: Vec<&str> = t.lines().collect();
        assert_eq!(
            l[3],
            "host            64M           78.5m   8                     +++++ +++"
        );
        assert_eq!(
            l[4],
            "Latency                       64054us                       36026us"
        );
        assert!(l[0].starts_with("Version iomark-"));
        assert!(l[0].ends_with(" ------Sequential Output------ --Sequential Input- --Random-"));
    }

    #[test]
    fn csv_has_50_fields_in_bonnies_order_and_agrees_with_text() {
        let b: Bulk = [
            None,
            fig(80350.4, 8, false, 64054),
            None,
            None,
            fig(1e6, 7, true, 36026),
            fig(412.34, 2, false, 8038),
        ];
        let c = csv("host", 7, &bplan(), "0", &b);
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
        assert_eq!(&f[11..13], ["80350", "8"]);
        assert_eq!(&f[17..21], ["+++++", "+++", "412.3", "2"]);
        assert_eq!(f[39], "64054us");
        assert_eq!(f[42], "36026us");
        assert_eq!(f[43], "8038us");
        let t = text("host", &bplan(), &b);
        assert!(t.contains("+++++ +++ 412.3   2"), "{t}");
        let c = csv("host", 7, &bplan(), "4:65536:1024:2", &b);
        let f: Vec<&str> = c.split(',').collect();
        assert_eq!(&f[21..26], ["4", "65536", "1024", "", "2"]);
    }
}
