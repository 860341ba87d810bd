//! Markdown tables for issues and wikis: per source its facts, notes and a table of the
//! headline figures per job and direction (means over repetitions), then the tables of suites
//! and sweeps as they show them.

use crate::compare::fmt_num;
use crate::model::{Figure, Source};

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

pub fn render(sources: &[Source]) -> String {
    let mut out = String::new();
    for s in sources {
        out.push_str(&format!("### {}\n\n", cell(&s.label)));
        for (k, v) in &s.facts {
            if k == "command line" {
                out.push_str(&format!("- {}: `{}`\n", cell(k), v.replace('`', "'")));
            } else {
                out.push_str(&format!("- {}: {}\n", cell(k), cell(v)));
            }
        }
        if s.repetitions > 1 {
            out.push_str(&format!(
                "- repetitions: {} (figures are means, lowest-highest run in brackets; noisy: {})\n",
                s.repetitions,
                iomark_engine::noisy::rule()
            ));
        }
        out.push('\n');
        out.push_str("| job | direction |");
        for f in Figure::ALL {
            out.push_str(&format!(" {} |", f.label_of(s.pct_kind())));
        }
        out.push_str(" workload |\n|---|---|");
        for _ in Figure::ALL {
            out.push_str("---:|");
        }
        out.push_str("---|\n");
        for j in &s.jobs {
            for d in &j.dirs {
                out.push_str(&format!("| {} | {} |", cell(&j.name), d.dir));
                for f in Figure::ALL {
                    out.push_str(&format!(" {} |", s.cell_text(d, f)));
                }
                out.push_str(&format!(" {} |\n", cell(&j.signature.to_string())));
            }
        }
        for t in &s.tables {
            out.push_str(&format!(
                "\n**{}** ({})\n\n|",
                cell(&t.title),
                cell(t.kind.suite())
            ));
            for c in &t.columns {
                out.push_str(&format!(" {} |", cell(c)));
            }
            out.push_str("\n|");
            for _ in &t.columns {
                out.push_str("---|");
            }
            out.push('\n');
            for r in &t.rows {
                out.push('|');
                for c in r {
                    let v = match c.num() {
                        Some(x) => fmt_num(x),
                        None => cell(&c.text()),
                    };
                    out.push_str(&format!(" {v} |"));
                }
                out.push('\n');
            }
        }
        if !s.notes.is_empty() {
            out.push('\n');
            for n in &s.notes {
                out.push_str(&format!("> note: {}\n", cell(n)));
            }
        }
        out.push('\n');
    }
    out
}
