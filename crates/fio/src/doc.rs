//! Help, `--cmdhelp` and the man page, all generated from the option and switch tables.

use crate::options::{OptDef, OptKind, Support, NOT_YET_ENGINES, OPTIONS, SUPPORTED_ENGINES};
use crate::switches::{SwitchDef, SwitchValue, SWITCHES};
use std::fmt::Write;

fn categories() -> Vec<&'static str> {
    let mut c: Vec<&'static str> = Vec::new();
    for d in OPTIONS {
        if !c.contains(&d.category) {
            c.push(d.category);
        }
    }
    c
}

fn switch_usage(s: &SwitchDef) -> String {
    let mut u = format!("--{}", s.name);
    match s.value {
        SwitchValue::None => {}
        SwitchValue::Required => u += &format!("={}", s.arg),
        SwitchValue::Optional => u += &format!("[={}]", s.arg),
    }
    if let Some(sh) = s.short {
        u = format!("-{sh}, {u}");
    }
    u
}

fn option_usage(d: &OptDef) -> String {
    let ph = d.kind.placeholder();
    match d.kind {
        OptKind::Flag => format!("--{}", d.name),
        OptKind::LogPrefix => format!("--{}[={ph}]", d.name),
        _ => format!("--{}={ph}", d.name),
    }
}

fn support_note(d: &OptDef) -> &'static str {
    match d.support {
        Support::Supported => "",
        Support::Ignored(_) => " [ignored]",
        Support::NotYet(_) => " [not yet supported]",
    }
}

/// The guide's fio option compatibility lists (docs/reference/fio-compatibility.md), from the option table: implemented, accepted
/// with no effect (and why), refused by name (grouped by the reason given).
pub fn compat_markdown() -> String {
    let mut implemented = Vec::new();
    let mut ignored = Vec::new();
    let mut refused: Vec<(&str, Vec<&str>)> = Vec::new();
    for d in OPTIONS {
        match d.support {
            Support::Supported => implemented.push(format!("`{}`", d.name)),
            Support::Ignored(why) => ignored.push((d.name, why)),
            Support::NotYet(why) => match refused.iter_mut().find(|(w, _)| *w == why) {
                Some((_, names)) => names.push(d.name),
                None => refused.push((why, vec![d.name])),
            },
        }
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "**Implemented** ({} options, with fio's meaning and defaults): {}.\n",
        implemented.len(),
        implemented.join(", ")
    );
    let _ = writeln!(
        s,
        "**Accepted with no effect** ({}; a note in the output says why, `--strict` refuses them):\n",
        ignored.len()
    );
    s.push_str("| option | why it has no effect |\n|---|---|\n");
    for (name, why) in &ignored {
        let _ = writeln!(s, "| `{name}` | {why} |");
    }
    let n: usize = refused.iter().map(|(_, v)| v.len()).sum();
    let _ = writeln!(
        s,
        "\n**Refused by name** ({n}; \"option 'X' is not supported yet\", before any I/O, unless given its default value):\n"
    );
    s.push_str("| options | reason given |\n|---|---|\n");
    for (why, names) in &refused {
        let list: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        let _ = writeln!(s, "| {} | {why} |", list.join(", "));
    }
    s
}

/// `iomark run --help`: usage, switches and every supported option by category.
pub fn help_text() -> String {
    let mut s = String::new();
    s.push_str("Usage: iomark run [SWITCHES] [--OPTION=VALUE ...] [--name=JOB --OPTION=VALUE ...] [JOBFILE ...]\n\n");
    s.push_str(
        "Runs fio-style jobs. Options before the first --name apply to every job; --name=JOB\n",
    );
    s.push_str("starts a job and the options after it apply to that job. Options are written\n");
    s.push_str(
        "--opt=value, -opt=value, --opt value, or --opt alone for flags. Job files are INI\n",
    );
    s.push_str("files with [global] and [job] sections.\n\n");
    s.push_str("Switches:\n");
    for sw in SWITCHES.iter().filter(|s| s.supported && !s.ignored) {
        let _ = writeln!(s, "  {:<30} {}", switch_usage(sw), sw.help);
    }
    for cat in categories() {
        let opts: Vec<&OptDef> = OPTIONS
            .iter()
            .filter(|d| d.category == cat && d.is_supported())
            .collect();
        if opts.is_empty() {
            continue;
        }
        let _ = writeln!(s, "\n{cat}:");
        for d in opts {
            let mut help = d.help.to_string();
            if !d.aliases.is_empty() {
                help += &format!(" (alias: {})", d.aliases.join(", "));
            }
            let _ = writeln!(s, "  {:<30} {}", option_usage(d), help);
        }
    }
    s.push_str(
        "\nMore fio options are recognised; `iomark run --cmdhelp` lists all of them with their\n",
    );
    s.push_str("status, `iomark run --cmdhelp=OPTION` describes one.\n");
    s
}

fn describe(d: &OptDef) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{:>12}: {}", d.name, d.help);
    if !d.aliases.is_empty() {
        let _ = writeln!(s, "{:>12}: {}", "alias", d.aliases.join(", "));
    }
    let _ = writeln!(s, "{:>12}: {}", "type", d.kind.type_name());
    let _ = writeln!(s, "{:>12}: {}", "usage", option_usage(d));
    let _ = writeln!(
        s,
        "{:>12}: {}",
        "default",
        if d.default.is_empty() {
            "no default"
        } else {
            d.default
        }
    );
    let _ = writeln!(s, "{:>12}: {}", "category", d.category);
    if !d.engines.is_empty() {
        let _ = writeln!(s, "{:>12}: {}", "engines", d.engines.join(", "));
    }
    let status = match d.support {
        Support::Supported => "supported".to_string(),
        Support::Ignored(w) => format!("accepted and ignored ({w})"),
        Support::NotYet(w) => format!("not supported yet ({w}); its default value is accepted"),
    };
    let _ = writeln!(s, "{:>12}: {}", "status", status);
    s
}

/// An engine name `--enghelp` does not know.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("unknown ioengine {} (supported: {})", iomark_output::echo::quote(.0), SUPPORTED_ENGINES.join(", "))]
pub struct UnknownEngine(pub String);

/// fio's `--cmdhelp`: one option in detail, or (None) every option on one line each.
pub fn cmdhelp(name: Option<&str>) -> Result<String, crate::job_builder::UnknownOption> {
    match name {
        Some(n) => Ok(describe(crate::job_builder::find_option(n)?)),
        None => {
            let mut s = String::new();
            for cat in categories() {
                let _ = writeln!(s, "{cat}:");
                for d in OPTIONS.iter().filter(|d| d.category == cat) {
                    let _ = writeln!(s, "  {:<28}: {}{}", d.name, d.help, support_note(d));
                }
            }
            Ok(s)
        }
    }
}

/// `--enghelp`: the engines, or the options of one engine.
pub fn enghelp(engine: Option<&str>) -> Result<String, UnknownEngine> {
    let mut s = String::new();
    match engine {
        None => {
            s.push_str("Supported I/O engines:\n");
            for e in SUPPORTED_ENGINES {
                let _ = writeln!(s, "  {e}");
            }
            let _ = writeln!(s, "Not supported yet: {}", NOT_YET_ENGINES.join(" "));
        }
        Some(e) => {
            let e = e.split(',').next().unwrap_or(e).trim();
            if !SUPPORTED_ENGINES.contains(&e) && !NOT_YET_ENGINES.contains(&e) {
                return Err(UnknownEngine(e.to_string()));
            }
            let opts: Vec<&OptDef> = OPTIONS.iter().filter(|d| d.engines.contains(&e)).collect();
            if opts.is_empty() {
                let _ = writeln!(s, "ioengine {e} has no options");
            }
            for d in opts {
                let _ = writeln!(s, "  {:<20}: {}{}", d.name, d.help, support_note(d));
            }
        }
    }
    Ok(s)
}

/// Text for roff: backslashes and hyphens escaped, a leading `.` or `'` made literal.
pub fn roff_escape(s: &str) -> String {
    let t = s.replace('\\', "\\\\").replace('-', "\\-");
    if t.starts_with('.') || t.starts_with('\'') {
        format!("\\&{t}")
    } else {
        t
    }
}

/// The SWITCHES and OPTIONS sections of `iomark-run(1)` (roff), from the switch and option
/// tables.
pub fn man_sections() -> String {
    let mut s = String::new();
    s.push_str(".SH SWITCHES\n");
    for sw in SWITCHES.iter().filter(|s| s.supported && !s.ignored) {
        let _ = writeln!(
            s,
            ".TP\n.B {}\n{}",
            roff_escape(&switch_usage(sw)),
            roff_escape(sw.help)
        );
    }
    s.push_str(".SH OPTIONS\n");
    for cat in categories() {
        let _ = writeln!(s, ".SS {}", roff_escape(cat));
        for d in OPTIONS.iter().filter(|d| d.category == cat) {
            let mut head = format!("\\fB{}\\fR", roff_escape(&option_usage(d)));
            for a in d.aliases {
                head += &format!(", \\fB{}\\fR", roff_escape(a));
            }
            head += &format!(" (\\fI{}\\fR", roff_escape(&d.kind.type_name()));
            if !d.default.is_empty() {
                head += &format!(", default {}", roff_escape(d.default));
            }
            head.push(')');
            let mut body = roff_escape(d.help);
            match d.support {
                Support::Supported => {}
                Support::Ignored(w) => body += &format!(" Ignored: {}.", roff_escape(w)),
                Support::NotYet(w) => body += &format!(" Not supported yet: {}.", roff_escape(w)),
            }
            let _ = writeln!(s, ".TP\n{head}\n{body}");
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_mentions_every_supported_option_and_switch() {
        let h = help_text();
        for d in OPTIONS.iter().filter(|d| d.is_supported()) {
            assert!(
                h.contains(&format!("--{}", d.name)),
                "help lacks {}",
                d.name
            );
        }
        for s in SWITCHES.iter().filter(|s| s.supported && !s.ignored) {
            assert!(
                h.contains(&format!("--{}", s.name)),
                "help lacks --{}",
                s.name
            );
        }
        assert!(!h.contains("--verify_header_seed"));
    }

    /// The guide's option lists (docs/reference/fio-compatibility.md) are the table's
    /// (`IOMARK_BLESS=1` rewrites them).
    #[test]
    fn guide_lists_every_option_by_support() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/reference/fio-compatibility.md"
        );
        let readme = std::fs::read_to_string(path).unwrap();
        let (begin, end) = ("<!-- fio-options:begin -->\n", "<!-- fio-options:end -->");
        let a = readme.find(begin).expect("the fio-options markers") + begin.len();
        let b = readme.find(end).expect("the end marker");
        let want = compat_markdown();
        if std::env::var_os("IOMARK_BLESS").is_some() {
            let new = format!("{}{want}{}", &readme[..a], &readme[b..]);
            std::fs::write(path, new).unwrap();
            return;
        }
        assert_eq!(
            &readme[a..b],
            want,
            "IOMARK_BLESS=1 cargo test --release -p iomark-fio guide_lists"
        );
    }

    #[test]
    fn cmdhelp_one_and_all() {
        let t = cmdhelp(Some("blocksize")).unwrap();
        assert!(
            t.contains("bs:") && t.contains("alias") && t.contains("4096"),
            "{t}"
        );
        assert!(t.contains("status: supported"), "{t}");
        let t = cmdhelp(Some("verify_backlog_batch")).unwrap();
        assert!(t.contains("not supported yet"), "{t}");
        let t = cmdhelp(Some("clocksource")).unwrap();
        assert!(t.contains("ignored"), "{t}");
        let e = cmdhelp(Some("iodepht")).unwrap_err();
        assert_eq!(e.suggestion, Some("iodepth"));
        assert!(e.to_string().contains("'iodepth'"), "{e}");
        let all = cmdhelp(None).unwrap();
        for d in OPTIONS {
            assert!(all.contains(d.name), "{}", d.name);
        }
    }

    #[test]
    fn enghelp_lists_engine_options() {
        let t = enghelp(Some("io_uring")).unwrap();
        assert!(t.contains("fixedbufs") && t.contains("sqthread_poll"));
        assert!(!t.contains("userspace_reap"));
        assert!(enghelp(None).unwrap().contains("libaio"));
        assert!(enghelp(Some("nope")).is_err());
    }

    #[test]
    fn man_sections_shape() {
        let m = man_sections();
        for sec in [".SH SWITCHES", ".SH OPTIONS"] {
            assert!(m.contains(sec), "{sec}");
        }
        assert!(m.contains("\\fB\\-\\-rwmixread=N\\fR"), "{m}");
        assert!(m.contains("\\fB\\-\\-bs=SIZE[,SIZE[,SIZE]]\\fR, \\fBblocksize\\fR"));
        assert!(m.contains("\\fB\\-\\-time_based\\fR"));
        for line in m.lines() {
            assert!(!line.starts_with('\''), "{line}");
        }
    }
}
