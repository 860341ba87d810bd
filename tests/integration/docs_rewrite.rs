//! How a documented command is made small and harmless before the docs test runs it (the rules
//! docs/README.md states under "How the examples are tested"): example paths are taken inside
//! the scratch directory, disks become the test's loop device, sizes and times shrink, and each
//! tool gets the few flags that keep it short (appended, since a later flag wins in every
//! command line iomark takes).

use std::path::{Path, PathBuf};

/// A command ready to run: the text for bash, the directories it expects, and the exit
/// statuses that are a documented verdict rather than a failure.
pub struct Rewritten {
    pub command: String,
    pub dirs: Vec<PathBuf>,
    pub verdicts: Vec<i32>,
}

/// Where the examples keep data; taken inside the scratch directory.
const ROOTS: [&str; 6] = ["/mnt", "/data", "/backups", "/scratch", "/home", "/shared"];
/// Disks the examples name; the loop device of a `needs-root` run stands in for them.
const DISKS: [&str; 5] = ["/dev/sd", "/dev/nvme", "/dev/rbd", "/dev/loop", "/dev/vd"];
const SHELL_OPS: [&str; 9] = ["|", ">", ">>", "2>", "<", ";", "&&", "||", "2>&1"];

const MIB: u64 = 1 << 20;

/// A size with a unit (`1g`, `10G`, `16Gi`, `512KiB`): its bytes. Plain numbers are not sizes.
fn size(v: &str) -> Option<u64> {
    let digits = v.find(|c: char| !c.is_ascii_digit() && c != '.')?;
    let n: f64 = v[..digits].parse().ok()?;
    let unit = &v[digits..];
    let mut u = unit.chars();
    let k = match u.next()?.to_ascii_lowercase() {
        'k' => 1u64 << 10,
        'm' => 1 << 20,
        'g' => 1 << 30,
        't' => 1 << 40,
        'p' => 1 << 50,
        _ => return None,
    };
    let rest: String = u.collect();
    if !matches!(rest.as_str(), "" | "i" | "b" | "B" | "ib" | "iB") {
        return None;
    }
    Some((n * k as f64) as u64)
}

/// dd's numbers (`1K`, `100K`, `64`, `1M`): their value.
fn dd_number(v: &str) -> Option<u64> {
    v.parse().ok().or_else(|| size(v))
}

/// Replaces the value part of a token (after its last `=`, or the whole token).
fn set_value(tok: &str, value: &str) -> String {
    match tok.rfind('=') {
        Some(i) => format!("{}={value}", &tok[..i]),
        None => value.to_string(),
    }
}

fn value(tok: &str) -> &str {
    tok.rsplit('=').next().unwrap_or(tok)
}

/// The scratch-directory form of example paths in one token; records the directories to make.
fn map_paths(tok: &str, scratch: &Path, dirs: &mut Vec<PathBuf>) -> String {
    let mut out = String::new();
    let mut rest = tok;
    'outer: while !rest.is_empty() {
        for r in ROOTS {
            let starts_here = out.is_empty() || out.ends_with(['=', ':', '\'', '"']);
            if starts_here && rest.starts_with(r) {
                let after = &rest[r.len()..];
                if after.is_empty() || after.starts_with(['/', '\'', '"', ':']) {
                    let end = after.find(['\'', '"', ':', ')']).unwrap_or(after.len());
                    let path = format!("{}{r}{}", scratch.display(), &after[..end]);
                    let p = PathBuf::from(&path);
                    let depth = after[..end].split('/').filter(|c| !c.is_empty()).count();
                    // /mnt/X and /home/X are directories; under the others, the root is.
                    let keep = if r == "/mnt" || r == "/home" { 1 } else { 0 };
                    let mut d = PathBuf::from(format!("{}{r}", scratch.display()));
                    for c in after[..end].split('/').filter(|c| !c.is_empty()).take(keep) {
                        d.push(c);
                    }
                    if depth > keep {
                        if let Some(parent) = p.parent() {
                            dirs.push(parent.to_path_buf());
                        }
                    }
                    dirs.push(d);
                    out.push_str(&path);
                    rest = &after[end..];
                    continue 'outer;
                }
            }
        }
        let c = rest.chars().next().unwrap();
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// A disk named in a token, replaced by `device`.
fn map_disk(tok: &str, device: Option<&str>) -> Result<String, String> {
    for d in DISKS {
        if let Some(i) = tok.find(d) {
            let tail = &tok[i + d.len()..];
            let end = tail
                .find(|c: char| !c.is_ascii_alphanumeric())
                .unwrap_or(tail.len());
            let Some(dev) = device else {
                return Err(format!(
                    "names the disk {}{}: mark its block `sh needs-root`",
                    d,
                    &tail[..end]
                ));
            };
            return Ok(format!("{}{dev}{}", &tok[..i], &tail[end..]));
        }
    }
    Ok(tok.to_string())
}

/// The time options and the value each gets.
fn time_value(name: &str) -> Option<&'static str> {
    match name.trim_start_matches('-') {
        "runtime" => Some("1s"),
        "ramp" | "ramp_time" | "warmup" | "repeat-pause" => Some("0s"),
        _ => None,
    }
}

/// The command word after `iomark` (the first one in the line), and where `iomark` is.
fn command_word(t: &[String]) -> Option<(usize, String)> {
    let i = t.iter().position(|w| w == "iomark")?;
    let w = t.get(i + 1)?.clone();
    let w = if w == "preset" {
        format!("preset {}", t.get(i + 2).cloned().unwrap_or_default())
    } else {
        w
    };
    Some((i, w))
}

fn has(t: &[String], flag: &str) -> bool {
    t.iter()
        .any(|w| w == flag || w.starts_with(&format!("{flag}=")))
}

/// Flags appended to `word`'s command line (before any pipe or redirection).
fn appended(word: &str, t: &[String]) -> Vec<String> {
    let mut add: Vec<&str> = Vec::new();
    let informative = t
        .iter()
        .any(|w| w == "--help" || w == "--list" || w.starts_with("--cmdhelp") || w == "list");
    if informative {
        return Vec::new();
    }
    match word {
        "quick" => {
            if !has(t, "--size") {
                add.push("--size=64m");
            }
            add.extend(["--runtime=1s", "--ramp=0s"]);
        }
        "preset run" => {
            if !has(t, "--size") {
                add.push("--size=64m");
            }
            add.extend(["--runtime=1s", "--warmup=0s", "--repeat=1"]);
        }
        "sweep" => {
            if !has(t, "--size") {
                add.push("--size=64m");
            }
            add.push("--runtime=1s");
        }
        "iometer" => {
            if !has(t, "--size") {
                add.extend(["--size", "64m"]);
            }
            add.extend(["--runtime", "1s", "--ramp", "0s"]);
        }
        "rbd-bench" if !has(t, "--io-total") => add.extend(["--io-total", "16m"]),
        "run" => {
            let job_file = t
                .iter()
                .any(|w| w.ends_with(".fio") || w.ends_with(".ini") || w == "-");
            if job_file && !t.iter().any(|w| w == "--parse-only" || w == "--showcmd") {
                add.extend(["--override", "size=64m", "--override", "runtime=1s"]);
            }
        }
        "bonnie" | "bonnie++" => {
            if !has(t, "-s") {
                add.extend(["-s", "64"]);
            }
            if !has(t, "-n") {
                add.extend(["-n", "1"]);
            }
            add.extend(["-r", "0", "-x", "1", "--char-size=64k"]);
        }
        "blogbench" => add.extend(["-i", "2", "-s", "1"]),
        _ => {}
    }
    add.into_iter().map(String::from).collect()
}

/// The rewritten command, or why it cannot run here.
pub fn rewrite(cmd: &str, scratch: &Path, device: Option<&str>) -> Result<Rewritten, String> {
    let cmd = cmd.replace("cargo run --release -- ", "iomark ");
    // A comment ends the command (appended flags go before it).
    let mut t: Vec<String> = cmd
        .split_whitespace()
        .take_while(|w| !w.starts_with('#'))
        .map(String::from)
        .collect();
    let mut dirs = Vec::new();
    let word = command_word(&t).map(|(_, w)| w).unwrap_or_default();
    let cap = if word == "iozone" { 16 * MIB } else { 64 * MIB };
    let cap_s = format!("{}m", cap / MIB);
    let dd_bs = t
        .iter()
        .find_map(|w| w.strip_prefix("bs=").and_then(dd_number))
        .unwrap_or(512);
    let mut i = 0;
    while i < t.len() {
        let tok = map_disk(&map_paths(&t[i], scratch, &mut dirs), device)?;
        let mut tok = tok;
        let name = tok.split('=').next().unwrap_or("").to_string();
        if let Some(v) = time_value(&name) {
            if tok.contains('=') {
                tok = set_value(&tok, v);
            } else if name.starts_with('-') && i + 1 < t.len() {
                t[i + 1] = v.to_string();
            }
        } else if word == "dd" && name == "count" {
            let n = dd_number(value(&tok)).ok_or("a count dd does not read")?;
            let most = (cap / dd_bs).max(1);
            tok = format!("count={}", n.min(most));
        } else if (word == "bonnie" || word == "bonnie++") && (tok == "-s" || tok == "-n") {
            if let Some(v) = t.get(i + 1).cloned() {
                let (n, rest) = v.split_once(':').unwrap_or((&v, ""));
                let most = if tok == "-s" { 64 } else { 1 };
                let n = n.parse::<u64>().unwrap_or(most).min(most);
                t[i + 1] = if rest.is_empty() {
                    n.to_string()
                } else {
                    format!("{n}:{rest}")
                };
            }
        } else if word == "blogbench" && (tok == "-i" || tok == "-s") {
            // appended values win
        } else if word == "rados-bench" && tok.parse::<u64>().is_ok_and(|n| n > 1) {
            tok = "1".to_string();
        } else if size(value(&tok)).is_some_and(|b| b > cap) {
            tok = set_value(&tok, &cap_s);
        }
        t[i] = tok;
        i += 1;
    }
    if t.first().map(String::as_str) == Some("mpirun") {
        mpi_flags(&mut t);
    }
    if let Some((at, w)) = command_word(&t) {
        let add = appended(&w, &t);
        let end = t[at..]
            .iter()
            .position(|x| SHELL_OPS.contains(&x.as_str()))
            .map_or(t.len(), |p| at + p);
        t.splice(end..end, add);
    }
    let mut verdicts = Vec::new();
    if has(&t, "--fail-if") {
        verdicts.push(1);
    }
    let limits = |w: &String| w.starts_with("--expect") || w.starts_with("--disk");
    if word == "preset run" && t.iter().any(limits) {
        verdicts.push(1);
    }
    // A latency target no depth meets (the test machine is slow and busy) is an answer too.
    if word == "sweep" && has(&t, "--latency-target") {
        verdicts.push(1);
    }
    Ok(Rewritten {
        command: t.join(" "),
        dirs,
        verdicts,
    })
}

/// mpirun on this host: as root, at most 4 ranks, no host file.
fn mpi_flags(t: &mut Vec<String>) {
    let mut i = 1;
    while i < t.len() {
        match t[i].as_str() {
            "-np" | "-n" => {
                if let Some(n) = t.get(i + 1).and_then(|v| v.parse::<u32>().ok()) {
                    t[i + 1] = n.min(4).to_string();
                }
                i += 2;
            }
            "--hostfile" => {
                t.drain(i..i + 2);
            }
            _ => i += 1,
        }
    }
    t.splice(
        1..1,
        ["--allow-run-as-root", "--oversubscribe"].map(String::from),
    );
}

#[test]
fn docs_rewrite_shrinks_and_redirects() {
    let s = Path::new("/S");
    let r = rewrite(
        "iomark run --name=rr --filename=/data/t --size=1g --runtime=30 --time_based > r.json",
        s,
        None,
    )
    .unwrap();
    assert_eq!(
        r.command,
        "iomark run --name=rr --filename=/S/data/t --size=64m --runtime=1s --time_based > r.json"
    );
    assert!(r.dirs.contains(&PathBuf::from("/S/data")));
    let r = rewrite("iomark quick /mnt/data    # a comment", s, None).unwrap();
    assert_eq!(
        r.command,
        "iomark quick /S/mnt/data --size=64m --runtime=1s --ramp=0s"
    );
    assert!(r.dirs.contains(&PathBuf::from("/S/mnt/data")));
    assert!(rewrite("iomark quick /dev/nvme0n1", s, None).is_err());
    let r = rewrite("iomark hdparm -tT /dev/sdb", s, Some("/dev/loop7")).unwrap();
    assert_eq!(r.command, "iomark hdparm -tT /dev/loop7");
    let r = rewrite("iomark dd if=/dev/zero of=d bs=1M count=1K", s, None).unwrap();
    assert_eq!(r.command, "iomark dd if=/dev/zero of=d bs=1M count=64");
    let r = rewrite("iomark iozone -a -g 4g -n 1M -f /mnt/test/f", s, None).unwrap();
    assert_eq!(r.command, "iomark iozone -a -g 16m -n 1M -f /S/mnt/test/f");
    let r = rewrite(
        "mpirun -np 64 --hostfile hosts iomark run jobs.fio",
        s,
        None,
    )
    .unwrap();
    assert_eq!(
        r.command,
        "mpirun --allow-run-as-root --oversubscribe -np 4 iomark run jobs.fio \
         --override size=64m --override runtime=1s"
    );
    let r = rewrite("iomark compare a b --fail-if 'iops<-10%'", s, None).unwrap();
    assert_eq!(r.verdicts, vec![1]);
}
