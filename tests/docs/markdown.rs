//! The README, the guide and the other Markdown files of the repository as the docs tests read
//! them: fenced code blocks with their info string, the shell commands of a block, and links.
//! Shared by the fast tier (`tests/docs`: marks and links) and the end-to-end tier
//! (`tests/integration/docs_commands.rs`: runs the commands).

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The repository's root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every Markdown file a user reads: the README, CONTRIBUTING, CHANGELOG, ARCHITECTURE and
/// the guide (`docs/`, with its subfolders), in a stable order.
pub fn doc_files() -> Vec<PathBuf> {
    let r = root();
    let mut v: Vec<PathBuf> = [
        "README.md",
        "CONTRIBUTING.md",
        "CHANGELOG.md",
        "ARCHITECTURE.md",
    ]
    .iter()
    .map(|f| r.join(f))
    .filter(|p| p.exists())
    .collect();
    let mut guide = Vec::new();
    walk(&r.join("docs"), &mut guide);
    guide.sort();
    v.extend(guide);
    v
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "md") {
            out.push(p);
        }
    }
}

/// A fenced code block: where it starts (1-based line of the fence), its info string and its
/// text.
#[derive(Debug, Clone)]
pub struct Block {
    pub line: usize,
    pub info: String,
    pub body: String,
}

/// The fenced code blocks of a Markdown text (fences of backticks or tildes, three or more).
pub fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<(String, Block)> = None;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        match &mut open {
            Some((fence, b)) => {
                let t = t.trim_end();
                let fc = fence.chars().next().unwrap_or('`');
                if t.len() >= fence.len() && t.chars().all(|c| c == fc) {
                    out.push(open.take().unwrap().1);
                } else {
                    b.body.push_str(line);
                    b.body.push('\n');
                }
            }
            None => {
                let ch = t.chars().next().unwrap_or(' ');
                if ch == '`' || ch == '~' {
                    let n = t.chars().take_while(|&c| c == ch).count();
                    if n >= 3 {
                        let fence: String = std::iter::repeat_n(ch, n).collect();
                        let info = t[n..].trim().to_string();
                        open = Some((
                            fence,
                            Block {
                                line: i + 1,
                                info,
                                body: String::new(),
                            },
                        ));
                    }
                }
            }
        }
    }
    out
}

/// What a shell block's info string says about running it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mark {
    /// Runs on any machine (the plain test run).
    Run,
    /// Needs root and a block device (a loop device stands in).
    NeedsRoot,
    /// Needs a Ceph cluster (the tests' throw-away one).
    NeedsCeph,
    /// Needs the MPI build and a launcher.
    NeedsMpi,
    /// Never run, for the reason given.
    NotRun(String),
}

/// The mark of a block: None when it is no shell block, Err when the info string is not one
/// the tests know (a typo would otherwise skip a block in silence).
pub fn mark(info: &str) -> Option<Result<Mark, String>> {
    let (lang, rest) = match info.split_once(char::is_whitespace) {
        Some((l, r)) => (l, r.trim()),
        None => (info, ""),
    };
    if lang != "sh" {
        return None;
    }
    Some(match rest {
        "" => Ok(Mark::Run),
        "needs-root" => Ok(Mark::NeedsRoot),
        "needs-ceph" => Ok(Mark::NeedsCeph),
        "needs-mpi" => Ok(Mark::NeedsMpi),
        r => match r.strip_prefix("not-run:") {
            Some(why) if !why.trim().is_empty() => Ok(Mark::NotRun(why.trim().to_string())),
            _ => Err(format!(
                "unknown mark {r:?} (known: needs-root, needs-ceph, needs-mpi, not-run: REASON)"
            )),
        },
    })
}

/// The commands of a shell block: lines joined where they end in `\`, blank lines and lines
/// that are only a comment left out. Each with the 0-based line in the block where it starts.
pub fn commands(body: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut start = 0;
    for (i, line) in body.lines().enumerate() {
        if cur.is_empty() {
            start = i;
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
        }
        match line.trim_end().strip_suffix('\\') {
            Some(head) => {
                cur.push_str(head);
                cur.push(' ');
            }
            None => {
                cur.push_str(line);
                out.push((start, std::mem::take(&mut cur)));
            }
        }
    }
    if !cur.trim().is_empty() {
        out.push((start, cur));
    }
    out
}

/// Per line, whether it belongs to a fenced code block (fences included).
fn fenced(text: &str) -> Vec<bool> {
    let mut fenced = vec![false; text.lines().count()];
    for b in blocks(text) {
        let n = b.body.lines().count();
        for f in fenced.iter_mut().skip(b.line - 1).take(n + 2) {
            *f = true;
        }
    }
    fenced
}

/// The text outside code blocks and inline code spans, line by line (1-based), so links and
/// headings shown as examples are not taken for real ones.
pub fn prose_lines(text: &str) -> Vec<(usize, String)> {
    let fenced = fenced(text);
    text.lines()
        .enumerate()
        .filter(|(i, _)| !fenced[*i])
        .map(|(i, l)| {
            let mut s = String::new();
            for (k, part) in l.split('`').enumerate() {
                if k % 2 == 0 {
                    s.push_str(part);
                }
            }
            (i + 1, s)
        })
        .collect()
}

/// The links and images of a text (`[x](TARGET)`, `![x](TARGET)`): line and target.
pub fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in prose_lines(text) {
        let mut rest = line.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(end) = after.find(')') else {
                break;
            };
            let target = after[..end].split_whitespace().next().unwrap_or("");
            out.push((n, target.to_string()));
            rest = &after[end..];
        }
    }
    out
}

/// The anchors of a Markdown text's headings, as a forge makes them: lower case, punctuation
/// dropped, spaces as hyphens, a repeated one with `-1`, `-2`, ...
pub fn anchors(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (_, line) in prose_lines_keep_code(text) {
        let t = line.trim_start();
        let hashes = t.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !t[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(&t[hashes..]);
        let mut s = base.clone();
        let mut k = 1;
        while out.contains(&s) {
            s = format!("{base}-{k}");
            k += 1;
        }
        out.push(s);
    }
    out
}

/// Lines outside code blocks, inline code kept (a heading's code words are in its anchor).
fn prose_lines_keep_code(text: &str) -> Vec<(usize, String)> {
    let fenced = fenced(text);
    text.lines()
        .enumerate()
        .filter(|(i, _)| !fenced[*i])
        .map(|(i, l)| (i + 1, l.to_string()))
        .collect()
}

/// A heading's anchor.
pub fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The commands of recipe tables: in a table whose header has a "command" column, the inline
/// code of that column that starts with `iomark ` or `mpirun `, with its line.
pub fn table_commands(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut column: Option<Option<usize>> = None;
    for (n, line) in prose_lines_keep_code(text) {
        let t = line.trim();
        if !t.starts_with('|') {
            column = None;
            continue;
        }
        let cells: Vec<&str> = t.trim_matches('|').split('|').collect();
        let Some(col) = column else {
            column = Some(cells.iter().position(|c| c.contains("command")));
            continue;
        };
        let Some(cell) = col.and_then(|i| cells.get(i)) else {
            continue;
        };
        for (k, part) in cell.split('`').enumerate() {
            if k % 2 == 1 && (part.starts_with("iomark ") || part.starts_with("mpirun ")) {
                out.push((n, part.to_string()));
            }
        }
    }
    out
}

/// What a table's command needs, read from the command itself (a table has no info string):
/// a disk, a Ceph cluster (an image `POOL/IMAGE` or a pool), or an MPI launcher.
pub fn table_mark(cmd: &str) -> Mark {
    let disk = ["/dev/sd", "/dev/nvme", "/dev/rbd", "/dev/loop", "/dev/vd"];
    if cmd.starts_with("mpirun ") {
        Mark::NeedsMpi
    } else if cmd.contains("rados-bench") || cmd.contains("rbd-bench rbd/") {
        Mark::NeedsCeph
    } else if disk.iter().any(|d| cmd.contains(d)) {
        Mark::NeedsRoot
    } else {
        Mark::Run
    }
}
