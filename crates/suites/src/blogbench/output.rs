//! blogbench's output: its header, one line per iteration, the two final scores (stdout, as
//! blogbench prints them); and iomark's latency per operation type (stderr).

use super::plan::BlogPlan;
use crate::common::latency::percentiles;
use iomark_engine::fileops::blogtree::{Counts, OPS};
use iomark_engine::fileops::OpStats;

/// The lines blogbench prints before its table.
pub fn header(p: &BlogPlan, a: &super::BlogArgs) -> String {
    let mut s = format!(
        "\nFrequency = {} secs\nScratch dir = [{}]\n",
        p.sleep.as_secs(),
        p.dir.display()
    );
    s.push_str(&format!("Spawning {} writers...\n", a.writers));
    s.push_str(&format!("Spawning {} rewriters...\n", a.rewriters));
    s.push_str(&format!("Spawning {} commenters...\n", a.commenters));
    s.push_str(&format!("Spawning {} readers...\n", a.readers));
    s.push_str(&format!(
        "Benchmarking for {} iterations.\nThe test will run during {} minutes.\n",
        p.iterations,
        u64::from(p.iterations) * p.sleep.as_secs() / 60
    ));
    s.push_str("\n  Nb blogs   R articles    W articles    R pictures    W pictures    R comments    W comments\n");
    s
}

/// One iteration's line: blogs written so far, then the interval's counts.
pub fn line(total_blogs: u64, c: &Counts) -> String {
    format!(
        "{:10} {:12} {:13} {:13} {:13} {:13} {:13}\n",
        total_blogs,
        c.articles_read,
        c.articles_written,
        c.pictures_read,
        c.pictures_written,
        c.comments_read,
        c.comments_written
    )
}

/// The final scores: blogs written and blogs read over the run.
pub fn scores(written: u64, read: u64) -> String {
    format!("\nFinal score for writes:{written:14}\nFinal score for reads :{read:14}\n\n")
}

/// iomark's addition: latency percentiles per operation type.
pub fn latencies(s: &OpStats) -> String {
    let mut out = String::from("Latency per operation (iomark):\n");
    for op in OPS {
        if let Some(st) = s.get(op) {
            out.push_str(&format!(
                "  {op:<20} {:>10} ops  {}\n",
                st.ops,
                percentiles(&st.lat)
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blogbench::args::parse;
    use crate::blogbench::plan::{plan, DirState};

    #[test]
    fn blogbench_layout() {
        let a = parse(
            &"-d /scratch -c 10 -i 10 -r 10 -w 10 -W 10 -s 10"
                .split_whitespace()
                .map(String::from)
                .collect::<Vec<_>>(),
        )
        .unwrap();
        let p = plan(&a, DirState::Empty, 1).unwrap();
        let h = header(&p, &a);
        assert!(h.starts_with("\nFrequency = 10 secs\nScratch dir = [/scratch]\n"));
        assert!(h.contains("Spawning 10 rewriters...\n"));
        assert!(
            h.contains("Benchmarking for 10 iterations.\nThe test will run during 1 minutes.\n")
        );
        assert!(h.ends_with("    R comments    W comments\n"));
        let c = Counts {
            articles_read: 1234,
            articles_written: 56,
            pictures_read: 789,
            pictures_written: 10,
            comments_read: 11,
            comments_written: 12,
            ..Default::default()
        };
        assert_eq!(
            line(42, &c),
            "        42         1234            56           789            10            11            12\n"
        );
        assert_eq!(
            scores(420, 99),
            "\nFinal score for writes:           420\nFinal score for reads :            99\n\n"
        );
        let mut s = OpStats::default();
        s.record("read", 5000, 65536);
        let l = latencies(&s);
        assert!(l.contains("read") && l.contains("p99"), "{l}");
        assert!(!l.contains("mkdir"));
    }

    /// blogbench 1.2's own stdout (tests/fixtures/blogbench-1.2): iomark's header, lines and
    /// scores for the same command line and counts are the same bytes.
    #[test]
    fn blogbench_stdout_is_upstream_bytes() {
        let theirs = std::fs::read_to_string(format!(
            "{}/../../tests/fixtures/blogbench-1.2/d-i2-s1.txt",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        let argv: Vec<String> = ["-d", "/tmp/blogs", "-i", "2", "-s", "1"]
            .map(String::from)
            .to_vec();
        let a = parse(&argv).unwrap();
        let p = plan(&a, DirState::Empty, 1).unwrap();
        let mut ours = header(&p, &a);
        let rows: Vec<Vec<u64>> = theirs
            .lines()
            .skip_while(|l| !l.starts_with("  Nb blogs"))
            .skip(1)
            .take_while(|l| !l.is_empty())
            .map(|l| l.split_whitespace().map(|v| v.parse().unwrap()).collect())
            .collect();
        assert_eq!(rows.len(), 2, "{theirs}");
        for r in &rows {
            let c = Counts {
                articles_read: r[1],
                articles_written: r[2],
                pictures_read: r[3],
                pictures_written: r[4],
                comments_read: r[5],
                comments_written: r[6],
                ..Default::default()
            };
            ours.push_str(&line(r[0], &c));
        }
        let score = |k: &str| -> u64 {
            let l = theirs.lines().find(|l| l.starts_with(k)).expect(k);
            l[k.len()..].trim().parse().unwrap()
        };
        ours.push_str(&scores(
            score("Final score for writes:"),
            score("Final score for reads :"),
        ));
        assert_eq!(ours, theirs);
    }
}
