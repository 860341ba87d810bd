//! The documentation's own checks in the fast tier: every relative link of the README and the
//! guide leads to a file (and heading) that exists, and every shell block is either run by the
//! end-to-end docs test or says why not (`tests/integration/docs_commands.rs` runs them).

mod markdown;

use markdown::{anchors, blocks, doc_files, links, mark, root, Mark};
use std::path::Path;

fn rel(p: &Path) -> String {
    p.strip_prefix(root()).unwrap_or(p).display().to_string()
}

#[test]
fn every_relative_link_resolves() {
    let mut bad = Vec::new();
    let mut checked = 0;
    for f in doc_files() {
        let text = std::fs::read_to_string(&f).unwrap();
        for (line, target) in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let dest = if path.is_empty() {
                f.clone()
            } else {
                f.parent().unwrap().join(path)
            };
            let where_ = format!("{}:{line}: {target}", rel(&f));
            if !dest.exists() {
                bad.push(format!("{where_}: no such file"));
                continue;
            }
            if let Some(a) = anchor {
                let t = std::fs::read_to_string(&dest).unwrap_or_default();
                if !anchors(&t).iter().any(|x| x == a) {
                    bad.push(format!("{where_}: no heading with this anchor"));
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} links found");
    assert!(bad.is_empty(), "broken links:\n{}", bad.join("\n"));
}

#[test]
fn every_shell_block_runs_or_says_why_not() {
    let mut bad = Vec::new();
    let mut runs = 0;
    for f in doc_files() {
        let text = std::fs::read_to_string(&f).unwrap();
        for b in blocks(&text) {
            match mark(&b.info) {
                Some(Err(e)) => bad.push(format!("{}:{}: {e}", rel(&f), b.line)),
                Some(Ok(Mark::Run)) => runs += 1,
                Some(Ok(_)) | None => {}
            }
            // A block of commands must say it is shell (or text, for output).
            if b.info.is_empty()
                && b.body
                    .lines()
                    .any(|l| l.trim_start().starts_with("iomark "))
            {
                bad.push(format!(
                    "{}:{}: a block of iomark commands without `sh` (the docs test would not run it)",
                    rel(&f),
                    b.line
                ));
            }
        }
    }
    assert!(runs > 20, "only {runs} blocks to run");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The README stays an introduction: the details belong in the guide.
#[test]
fn the_readme_stays_short() {
    let n = std::fs::read_to_string(root().join("README.md"))
        .unwrap()
        .lines()
        .count();
    assert!(n <= 300, "README.md has {n} lines: move details into docs/");
}

#[test]
fn the_markdown_reader_finds_blocks_commands_and_anchors() {
    let text = "# A `b` c!\n\n```sh not-run: why\niomark a \\\n  --b\n# only a comment\n\niomark c\n```\n\n````text\n```\n````\n[x](y.md#a-b-c) `[no](link)`\n## A b c\n";
    let bs = blocks(text);
    assert_eq!(bs.len(), 2);
    assert_eq!(mark(&bs[0].info), Some(Ok(Mark::NotRun("why".into()))));
    assert_eq!(mark("sh needs-rot").map(|m| m.is_err()), Some(true));
    assert_eq!(mark("text"), None);
    let cmds: Vec<String> = markdown::commands(&bs[0].body)
        .into_iter()
        .map(|(_, c)| c)
        .collect();
    assert_eq!(cmds, vec!["iomark a    --b", "iomark c"]);
    assert_eq!(bs[1].body, "```\n");
    assert_eq!(links(text), vec![(14, "y.md#a-b-c".to_string())]);
    assert_eq!(anchors(text), vec!["a-b-c", "a-b-c-1"]);
    let table = "| task | command |\n|---|---|\n| x | `iomark a` then `iomark b` |\n\n| o | why |\n|---|---|\n| `iomark c` | `iomark d` |\n";
    let cmds: Vec<String> = markdown::table_commands(table)
        .into_iter()
        .map(|(_, c)| c)
        .collect();
    assert_eq!(cmds, vec!["iomark a", "iomark b"]);
}
