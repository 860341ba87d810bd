//! Result files and store references where `compare`, `report`, `export` and `show` take
//! them: the scripts run in bash with `iomark history` standing in as a function.

use super::{bash, fish, zsh, Words};
use crate::commands::COMMANDS;
use std::process::Command;

#[test]
fn the_commands_taking_results_are_named() {
    let w = Words::of(COMMANDS);
    assert_eq!(w.results, ["compare", "report", "export"]);
    assert_eq!(w.refs_only, ["show"]);
}

/// What bash completes for the line `line` (cursor at its end), split into `words` as bash
/// splits it (`@`, as `=`, is a word of its own), in directory `dir`, with `iomark history`
/// listing runs 7 and 12.
fn bash_completes(dir: &std::path::Path, line: &str, words: &[&str]) -> Vec<String> {
    let script = bash::script(&Words::of(COMMANDS));
    let history = "iomark() { printf '%s\\n' 'ID  TIME (UTC)  HOST' '@7  2026-11-01 08:00  h' '@12  2026-11-02 08:00  h'; }";
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let run = format!(
        "{script}\n{history}\nCOMP_LINE='{line}'; COMP_POINT=${{#COMP_LINE}}; COMP_WORDS=({}); COMP_CWORD={}; \
         _iomark; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        quoted.join(" "),
        words.len() - 1
    );
    let o = Command::new("bash")
        .arg("-c")
        .arg(&run)
        .current_dir(dir)
        .output()
        .expect("bash runs the completion script");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut out: Vec<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    out.sort();
    out
}

#[test]
fn bash_completes_result_files_and_references() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.json"), "{}").unwrap();
    std::fs::write(dir.path().join("notes.txt"), "").unwrap();
    std::fs::create_dir(dir.path().join("runs")).unwrap();
    let refs = ["@12", "@7", "@last", "@last~1", "@last~2", "@last~3"];
    let d = dir.path();
    let files = ["a.json", "runs"];
    assert_eq!(
        bash_completes(d, "iomark compare ", &["iomark", "compare", ""]),
        files
    );
    let report = ["iomark", "report", "a.json", ""];
    assert_eq!(bash_completes(d, "iomark report a.json ", &report), files);
    assert_eq!(
        bash_completes(d, "iomark export @", &["iomark", "export", "@"]),
        refs
    );
    // After `@`, bash replaces only the part after it.
    let words = ["iomark", "compare", "a.json", "@", "la"];
    assert_eq!(
        bash_completes(d, "iomark compare a.json @la", &words),
        ["last", "last~1", "last~2", "last~3"]
    );
    // `show` takes references only.
    assert_eq!(
        bash_completes(d, "iomark show ", &["iomark", "show", ""]),
        refs
    );
    // Other commands still complete any file; options still complete as options.
    let words = ["iomark", "bonnie", "-d", "no"];
    assert_eq!(
        bash_completes(d, "iomark bonnie -d no", &words),
        ["notes.txt"]
    );
    let words = ["iomark", "compare", "--fail"];
    assert!(bash_completes(d, "iomark compare --fail", &words).contains(&"--fail-if".to_string()));
}

#[test]
fn zsh_and_fish_scripts_complete_results_and_references() {
    let w = Words::of(COMMANDS);
    let z = zsh::script(&w);
    assert!(z.contains("_files -g '*.json'"), "{z}");
    assert!(z.contains("compadd -- ${=$(_iomark_refs)}"), "{z}");
    assert!(z.contains("'show') echo 'refs'") && z.contains("'compare') echo 'results'"));
    let f = fish::script(&w);
    assert!(f.contains("function __iomark_refs"), "{f}");
    assert!(f.contains("@last @last~1 @last~2 @last~3"), "{f}");
    assert!(f.contains(
        "complete -c iomark -n '__fish_seen_subcommand_from compare report export' -k -a '(__fish_complete_suffix .json)'"
    ));
    assert!(f.contains("-n '__fish_seen_subcommand_from show' -f -a '(__iomark_refs)'"));
}
