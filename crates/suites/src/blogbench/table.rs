//! blogbench's figures as result tables (`SuiteTable`, suite `blogbench`): one row per
//! iteration (its end time, the blogs written so far and the interval's counts, as blogbench's
//! lines show them) and the two final scores, so reports chart them.

use iomark_engine::fileops::blogtree::Counts;
use iomark_engine::result::{SuiteTable, TableCell, TableKind};

pub const INTERVALS: &str = "blogbench iterations";
pub const SCORES: &str = iomark_engine::result::table::BLOGBENCH_SCORES;

/// The per-iteration columns after the iteration number and time.
pub const COUNTS: [&str; 7] = [
    "blogs written (total)",
    "articles read",
    "articles written",
    "pictures read",
    "pictures written",
    "comments read",
    "comments written",
];

/// The iterations table from (end of the interval in ms since the start, its counts).
pub fn intervals(rows: &[(u64, Counts)]) -> SuiteTable {
    let mut cols = vec!["iteration", "time (s)"];
    cols.extend(COUNTS);
    let mut t = SuiteTable::new(TableKind::BlogbenchIterations, INTERVALS, &cols);
    let mut blogs = 0;
    for (i, (t_ms, c)) in rows.iter().enumerate() {
        blogs += c.blogs_written;
        let v = [
            (i + 1) as f64,
            *t_ms as f64 / 1000.0,
            blogs as f64,
            c.articles_read as f64,
            c.articles_written as f64,
            c.pictures_read as f64,
            c.pictures_written as f64,
            c.comments_read as f64,
            c.comments_written as f64,
        ];
        t.rows.push(v.map(TableCell::Num).to_vec());
    }
    t
}

/// The final scores: blogs written and blogs read over the run, and the mode that ran
/// (upstream 1.2's workload or the fixed one: their scores do not compare).
pub fn scores(written: u64, read: u64, mode: &str) -> SuiteTable {
    let mut t = SuiteTable::new(
        TableKind::BlogbenchScores,
        SCORES,
        &["score", "blogs", "mode"],
    );
    for (name, v) in [("writes", written), ("reads", read)] {
        t.rows.push(vec![
            TableCell::Text(name.into()),
            TableCell::Num(v as f64),
            TableCell::Text(mode.into()),
        ]);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t_col(t: &SuiteTable, c: &str) -> usize {
        t.col(c).unwrap()
    }

    #[test]
    fn iterations_accumulate_the_blogs_written() {
        let c = |b, ar| Counts {
            blogs_written: b,
            articles_read: ar,
            ..Default::default()
        };
        let t = intervals(&[(1000, c(2, 10)), (2000, c(3, 20))]);
        assert_eq!(t.rows.len(), 2);
        assert_eq!(
            t.rows[1][t.col("blogs written (total)").unwrap()].num(),
            Some(5.0)
        );
        assert_eq!(t.rows[1][t.col("articles read").unwrap()].num(), Some(20.0));
        assert_eq!(t.rows[1][t.col("time (s)").unwrap()].num(), Some(2.0));
        let s = scores(5, 7, "fixed");
        assert_eq!(s.rows[1][1].num(), Some(7.0));
        assert_eq!(s.rows[1][t_col(&s, "mode")].text(), "fixed");
        assert_eq!(s.rows[0][0].text(), "writes");
    }
}
