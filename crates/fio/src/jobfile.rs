//! fio job files (INI) read with fio's rules, and every problem located as `file:line:column`.
//!
//! - `[name]` starts a section; `[global]` sets defaults for the jobs below it (several allowed).
//! - `;` and `#` start comments, at the start of a line or after a value (outside double quotes).
//! - `key=value`, or a bare `key` for flags; spaces around `=` are allowed.
//! - `include FILE` (relative to the including file, nested up to 16 deep, no cycles) pulls in
//!   option lines; an included file holds no sections.
//! - `${VAR}` is replaced from the environment (unset: empty, with a warning); `$pagesize`,
//!   `$mb_memory` and `$ncpus` are replaced by the host's figures, and a value using them with
//!   arithmetic is evaluated as an expression.
//!
//! Reading never stops at the first problem: every line is checked, and all diagnostics of all
//! files are returned together.

use crate::job_builder;
use crate::jobfile_source::read_job_text;
use crate::options;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Where something was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loc {
    pub file: String,
    pub line: usize,
    pub col: usize,
}

impl Entry {
    /// (key, value) as the job model takes them.
    pub fn pair(&self) -> (String, String) {
        (self.key.clone(), self.value.clone())
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Line 0 is the file as a whole (it cannot be read, or is no job file).
        match self.line {
            0 => write!(f, "{}", self.file),
            _ => write!(f, "{}:{}:{}", self.file, self.line, self.col),
        }
    }
}

/// One `key=value` line (value already expanded).
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: String,
    pub value: String,
    /// The key's position.
    pub loc: Loc,
    /// Column of the value (the key's when there is no value).
    pub value_col: usize,
}

/// One `[section]` with its lines, includes resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    pub name: String,
    pub loc: Loc,
    pub entries: Vec<Entry>,
    /// Errors found in this section's lines (those lines are left out of `entries`).
    pub errors: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// A problem found while reading or typing a job.
#[derive(Clone, Debug, PartialEq)]
pub struct Diag {
    /// None: the command line.
    pub loc: Option<Loc>,
    pub section: Option<String>,
    pub severity: Severity,
    pub message: String,
}

impl Diag {
    pub fn error(loc: Option<Loc>, section: Option<&str>, message: impl Into<String>) -> Diag {
        Diag {
            loc,
            section: section.map(String::from),
            severity: Severity::Error,
            message: message.into(),
        }
    }

    pub fn warning(loc: Option<Loc>, section: Option<&str>, message: impl Into<String>) -> Diag {
        Diag {
            severity: Severity::Warning,
            ..Diag::error(loc, section, message)
        }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.loc {
            Some(l) => write!(f, "{l}: ")?,
            None => f.write_str("command line: ")?,
        }
        f.write_str(match self.severity {
            Severity::Error => "error: ",
            Severity::Warning => "warning: ",
        })?;
        if let Some(s) = &self.section {
            write!(f, "[{}] ", iomark_output::echo::cut(s))?;
        }
        f.write_str(&self.message)
    }
}

/// What `$VAR`, `${VAR}` and the keywords expand to.
pub trait Vars {
    fn env(&self, name: &str) -> Option<String>;
    fn ncpus(&self) -> u64;
    fn mb_memory(&self) -> u64;
    fn pagesize(&self) -> u64;
    /// This process's place among the processes of the run (`$rank`, `$nranks`, `$hostname`
    /// in the jobs' targets).
    fn place(&self) -> crate::cluster_words::Place {
        crate::cluster_words::Place::alone()
    }
}

/// The real environment and host.
pub struct HostVars;

fn sysconf(name: libc::c_int) -> u64 {
    // SAFETY: sysconf has no preconditions.
    let v = unsafe { libc::sysconf(name) };
    u64::try_from(v).unwrap_or(0)
}

impl Vars for HostVars {
    fn env(&self, name: &str) -> Option<String> {
        std::env::var(name).ok()
    }
    fn ncpus(&self) -> u64 {
        sysconf(libc::_SC_NPROCESSORS_ONLN)
    }
    fn mb_memory(&self) -> u64 {
        sysconf(libc::_SC_PHYS_PAGES).saturating_mul(sysconf(libc::_SC_PAGESIZE)) >> 20
    }
    fn pagesize(&self) -> u64 {
        sysconf(libc::_SC_PAGESIZE)
    }
}

/// Expand `${VAR}` and the keywords in a value. Unset variables are reported through `unset`.
pub fn expand(v: &str, vars: &dyn Vars, unset: &mut Vec<String>) -> String {
    let mut out = String::with_capacity(v.len());
    let mut rest = v;
    while let Some(p) = rest.find("${") {
        out.push_str(&rest[..p]);
        match rest[p + 2..].find('}') {
            Some(e) => {
                let var = &rest[p + 2..p + 2 + e];
                match vars.env(var) {
                    Some(x) => out.push_str(&x),
                    None => unset.push(var.to_string()),
                }
                rest = &rest[p + 3 + e..];
            }
            None => {
                out.push_str(&rest[p..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    if !out.contains('$') {
        return out;
    }
    let replaced = out
        .replace("$pagesize", &vars.pagesize().to_string())
        .replace("$mb_memory", &vars.mb_memory().to_string())
        .replace("$ncpus", &vars.ncpus().to_string());
    if replaced != out
        && replaced.contains(['*', '+', '/', '%', '^', '-'])
        && !replaced.starts_with('(')
    {
        format!("({replaced})")
    } else {
        replaced
    }
}

/// Drop a trailing `;` or `#` comment (outside double quotes).
fn strip_comment(line: &str) -> &str {
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ';' | '#' if !quoted => return &line[..i],
            _ => {}
        }
    }
    line
}

/// Whether `text` holds job-file lines: true when it has no content at all, or when at least
/// one of its lines is a `[section]`, an `include`, an option name alone or `name=value`.
fn looks_like_job_text(text: &str) -> bool {
    let mut content = false;
    for raw in text.lines() {
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        content = true;
        if line.starts_with('[') || line.starts_with("include") {
            return true;
        }
        let name = line.split_once('=').map_or(line, |(k, _)| k).trim();
        if !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return true;
        }
    }
    !content
}

/// 1-based column (in characters) of byte offset `at` of `line`.
fn col_of(line: &str, at: usize) -> usize {
    line.get(..at).map_or(1, |p| p.chars().count() + 1)
}

/// Reads job files into sections, collecting diagnostics.
pub struct Reader<'a> {
    vars: &'a dyn Vars,
    pub sections: Vec<Section>,
    pub diags: Vec<Diag>,
    /// Files being read (include cycle detection).
    stack: Vec<PathBuf>,
    /// Raised (SIGINT) to give up reading.
    stop: Option<Arc<AtomicBool>>,
    /// `kb_base` as set in the current section, and in the last [global] before it: kept as
    /// lines are read, so a value's base costs nothing however long the file.
    kb_here: Option<u32>,
    kb_global: Option<u32>,
}

const MAX_INCLUDE_DEPTH: usize = 16;

impl<'a> Reader<'a> {
    pub fn new(vars: &'a dyn Vars) -> Reader<'a> {
        Reader {
            vars,
            sections: Vec::new(),
            diags: Vec::new(),
            stack: Vec::new(),
            stop: None,
            kb_here: None,
            kb_global: None,
        }
    }

    /// Give up reading (a FIFO waiting for its writer, a long file) when `stop` is raised.
    pub fn with_stop(mut self, stop: Option<Arc<AtomicBool>>) -> Self {
        self.stop = stop;
        self
    }

    fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(|s| s.load(Ordering::SeqCst))
    }

    /// Read a file from disk (`-`: standard input).
    pub fn read_file(&mut self, path: &Path) {
        let name = path.display().to_string();
        match read_job_text(path, self.stop.as_deref()) {
            Ok(t) => {
                self.stack
                    .push(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()));
                self.read_text(&t, &name, path.parent(), false);
                self.stack.pop();
            }
            Err(e) => self.push_error(Diag::error(
                Some(Loc {
                    file: name,
                    line: 0,
                    col: 0,
                }),
                None,
                format!("cannot read the job file: {e}"),
            )),
        }
    }

    /// Read job-file text; `base` is the directory includes are relative to.
    pub fn read_text(&mut self, text: &str, file: &str, base: Option<&Path>, included: bool) {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        if !looks_like_job_text(text) {
            // Another kind of file (a password file, a binary): said once, its lines never
            // quoted, so an error message shows nothing of a file the user may not read.
            let lines = text
                .lines()
                .filter(|l| !strip_comment(l).trim().is_empty())
                .count();
            self.push_error(Diag::error(
                Some(Loc {
                    file: file.to_string(),
                    line: 0,
                    col: 0,
                }),
                None,
                format!("not a job file: none of its {lines} lines is a [section] or an option"),
            ));
            return;
        }
        for (n, raw) in text.lines().enumerate() {
            if n % 4096 == 0 && self.stopped() {
                let l = Loc {
                    file: file.to_string(),
                    line: n + 1,
                    col: 0,
                };
                self.push_error(Diag::error(Some(l), None, "interrupted while reading"));
                return;
            }
            let loc = |col: usize| Loc {
                file: file.to_string(),
                line: n + 1,
                col,
            };
            let body = strip_comment(raw);
            let lead = body.len() - body.trim_start().len();
            let line = body.trim();
            if line.is_empty() {
                continue;
            }
            let at = col_of(raw, lead);
            if line.starts_with('[') {
                self.section_header(raw, line, loc(at), included);
                continue;
            }
            if let Some(inc) = line
                .strip_prefix("include")
                .filter(|r| r.starts_with([' ', '\t']))
            {
                self.include(inc.trim(), loc(at), base);
                continue;
            }
            self.option_line(raw, lead, line, file, n + 1);
        }
    }

    fn section_header(&mut self, raw: &str, line: &str, loc: Loc, included: bool) {
        if included {
            self.push_error(Diag::error(
                Some(loc),
                None,
                "an included file cannot start sections; it may only hold option lines",
            ));
            return;
        }
        // A bad header still opens a section (left out of the run), so that the lines below
        // it are not taken for the previous section's.
        let bad = |r: &mut Self, name: &str, d: Diag| {
            r.open_section(Section {
                name: name.to_string(),
                loc: loc.clone(),
                entries: Vec::new(),
                errors: 0,
            });
            r.push_error(d);
        };
        let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) else {
            let col = loc.col + line.chars().count();
            let d = Diag::error(
                Some(Loc { col, ..loc.clone() }),
                None,
                format!(
                    "expected ']' to close the section header {q_line}",
                    q_line = iomark_output::echo::quote(line)
                ),
            );
            bad(self, line.trim_start_matches('['), d);
            return;
        };
        // As fio, the name is everything between the first '[' and the last ']': `[job1]]` is
        // the job "job1]".
        let name = name.trim();
        if name.is_empty() {
            let d = Diag::error(
                Some(loc.clone()),
                None,
                format!(
                    "bad section name in {}: expected [name]",
                    iomark_output::echo::quote(raw.trim())
                ),
            );
            bad(self, name, d);
            return;
        }
        self.open_section(Section {
            name: name.to_string(),
            loc,
            entries: Vec::new(),
            errors: 0,
        });
    }

    /// Start a section: the one it closes passes on its `kb_base` if it is a [global].
    fn open_section(&mut self, s: Section) {
        if self.sections.last().is_some_and(|l| l.name == "global") && self.kb_here.is_some() {
            self.kb_global = self.kb_here;
        }
        self.kb_here = None;
        self.sections.push(s);
    }

    fn include(&mut self, target: &str, loc: Loc, base: Option<&Path>) {
        let section = self.sections.last().map(|s| s.name.clone());
        let err = |m: String| Diag::error(Some(loc.clone()), section.as_deref(), m);
        if target.is_empty() {
            self.push_error(err("include needs a file name".into()));
            return;
        }
        if self.stack.len() > MAX_INCLUDE_DEPTH {
            self.push_error(err(format!(
                "includes nested more than {MAX_INCLUDE_DEPTH} deep"
            )));
            return;
        }
        let mut unset = Vec::new();
        let p = PathBuf::from(expand(target, self.vars, &mut unset));
        let p = match base {
            Some(b) if p.is_relative() => b.join(p),
            _ => p,
        };
        let canon = std::fs::canonicalize(&p).unwrap_or_else(|_| p.clone());
        if self.stack.contains(&canon) {
            self.push_error(err(format!(
                "include {} includes itself (directly or through other files)",
                iomark_output::echo::quote(&p.display().to_string())
            )));
            return;
        }
        match read_job_text(&p, self.stop.as_deref()) {
            Ok(t) => {
                self.stack.push(canon);
                self.read_text(&t, &p.display().to_string(), p.parent(), true);
                self.stack.pop();
            }
            Err(e) => self.push_error(err(format!(
                "cannot read include {}: {e}",
                iomark_output::echo::quote(&p.display().to_string())
            ))),
        }
    }

    fn option_line(&mut self, raw: &str, lead: usize, line: &str, file: &str, ln: usize) {
        let loc = |col: usize| Loc {
            file: file.to_string(),
            line: ln,
            col,
        };
        let (key, value, vcol) = match line.split_once('=') {
            Some((k, v)) => {
                let eq = lead + line.find('=').unwrap_or(0);
                let after = &raw[eq + 1..];
                let vstart = eq + 1 + (after.len() - after.trim_start().len());
                (k.trim(), v.trim(), col_of(raw, vstart))
            }
            None => (line, "", col_of(raw, lead)),
        };
        let kloc = loc(col_of(raw, lead));
        let section = self.sections.last().map(|s| s.name.clone());
        let sec = section.as_deref();
        let Some(def) = options::lookup(key) else {
            let m = if key.contains(char::is_whitespace) {
                format!(
                    "{q_line} is not an option line: expected key=value, a bare flag or [section]",
                    q_line = iomark_output::echo::quote(line)
                )
            } else {
                job_builder::unknown_option_message(key)
            };
            self.push_error(Diag::error(Some(kloc), sec, m));
            return;
        };
        if self.sections.is_empty() {
            self.push_error(Diag::error(
                Some(kloc),
                None,
                format!(
                    "option {q_key} comes before any [section]; put it under [global] or a job",
                    q_key = iomark_output::echo::quote(key)
                ),
            ));
            return;
        }
        let mut unset = Vec::new();
        let value = expand(value, self.vars, &mut unset);
        if value.is_empty() && !unset.is_empty() && !def.kind.value_optional() {
            // As fio, an unset variable expands to nothing; a value left empty says which.
            let names: Vec<String> = unset.iter().map(|v| format!("${{{v}}}")).collect();
            self.push_error(Diag::error(
                Some(loc(vcol)),
                sec,
                format!(
                    "option '{}' has no value: environment variable {} is not set",
                    def.name,
                    iomark_output::echo::quote(&names.join(", "))
                ),
            ));
            return;
        }
        for var in unset {
            self.diags.push(Diag::warning(
                Some(loc(vcol)),
                sec,
                format!(
                    "environment variable {q_var} is not set; it expands to nothing",
                    q_var = iomark_output::echo::quote(&var)
                ),
            ));
        }
        if value.is_empty() && !def.kind.value_optional() {
            self.push_error(Diag::error(
                Some(loc(vcol)),
                sec,
                format!("option '{}' needs a value: {}", def.name, def.kind.form()),
            ));
            return;
        }
        // A value checked on its own: context-free mistakes point at their line.
        let kb = self.kb_base();
        match job_builder::check_option(def, &value, kb) {
            Ok(Some(w)) => self.diags.push(Diag::warning(Some(kloc.clone()), sec, w)),
            Ok(None) => {}
            Err(e) => {
                self.push_error(Diag::error(Some(loc(vcol)), sec, e.to_string()));
                return;
            }
        }
        if def.name == "kb_base" {
            self.kb_here = Some(if value.trim() == "1000" { 1000 } else { 1024 });
        }
        let s = self.sections.last_mut().expect("checked above");
        // In [global], name= only sets the default name: the section stays [global].
        if def.name == "name" && s.name != "global" {
            s.name = value.clone();
        }
        s.entries.push(Entry {
            key: key.to_string(),
            value,
            loc: kloc,
            value_col: vcol,
        });
    }

    fn push_error(&mut self, d: Diag) {
        if let Some(s) = self.sections.last_mut() {
            s.errors += 1;
        }
        self.diags.push(d);
    }

    /// The kb_base in force for the current section: its own, else the last [global]'s.
    fn kb_base(&self) -> u32 {
        self.kb_here.or(self.kb_global).unwrap_or(1024)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub struct FixedVars;
    impl Vars for FixedVars {
        fn env(&self, name: &str) -> Option<String> {
            match name {
                "BS" => Some("16k".into()),
                "DIR" => Some("/scratch".into()),
                _ => None,
            }
        }
        fn ncpus(&self) -> u64 {
            4
        }
        fn mb_memory(&self) -> u64 {
            8192
        }
        fn pagesize(&self) -> u64 {
            4096
        }
    }

    fn read(text: &str) -> Reader<'static> {
        let mut r = Reader::new(&FixedVars);
        r.read_text(text, "t.fio", None, false);
        r
    }

    #[test]
    fn sections_comments_flags_and_spaces() {
        let r = read(
            "; comment\n# another\n[global]\nbs = 8k ; trailing\n\n[a]\ntime_based\nsize=1m # c\n[b]\nrw=randread\n",
        );
        assert!(r.diags.is_empty(), "{:?}", r.diags);
        let names: Vec<_> = r.sections.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["global", "a", "b"]);
        assert_eq!(r.sections[0].entries[0].value, "8k");
        assert_eq!(r.sections[0].entries[0].value_col, 6);
        assert_eq!(r.sections[1].entries[0].key, "time_based");
        assert_eq!(r.sections[1].entries[0].value, "");
        assert_eq!(r.sections[1].entries[1].value, "1m");
        assert_eq!(r.sections[2].loc.line, 9);
    }

    #[test]
    fn other_files_are_not_quoted() {
        let r = read("root:*:20228:0:99999:7:::\nbin:x:2:2:bin:/bin:/usr/sbin/nologin\n");
        assert_eq!(r.diags.len(), 1);
        let m = &r.diags[0].message;
        assert_eq!(
            m,
            "not a job file: none of its 2 lines is a [section] or an option"
        );
        assert!(r.sections.is_empty());
        // A job file with one bad line is read as one, its bad line shown.
        let r = read("[a]\nsize=1m\nroot:*:1\n");
        assert!(r.diags[0].message.contains("root:*:1"), "{:?}", r.diags);
    }

    #[test]
    fn variables_and_keywords() {
        let r = read("[a]\nbs=${BS}\ndirectory=${DIR}/x\nsize=$mb_memory/1024\nnrfiles=$ncpus\nfilename=${NOPE}f\n");
        let e = &r.sections[0].entries;
        assert_eq!(e[0].value, "16k");
        assert_eq!(e[1].value, "/scratch/x");
        assert_eq!(e[2].value, "(8192/1024)");
        assert_eq!(e[3].value, "4");
        assert_eq!(e[4].value, "f");
        assert_eq!(r.diags.len(), 1);
        assert!(r.diags[0].message.contains("'NOPE' is not set"));
        assert_eq!(r.diags[0].severity, Severity::Warning);
        let r = read("[a]\nsize=${NOPE}\n");
        assert_eq!(r.diags.len(), 1);
        assert!(r.diags[0]
            .message
            .contains("option 'size' has no value: environment variable '${NOPE}' is not set"));
    }

    #[test]
    fn a_section_name_may_hold_brackets() {
        let r = read("[job1]]\nsize=1m\n[a[b]\n");
        assert!(r.diags.is_empty(), "{:?}", r.diags);
        assert_eq!(r.sections[0].name, "job1]");
        assert_eq!(r.sections[1].name, "a[b");
    }

    #[test]
    fn every_problem_is_reported_with_its_column() {
        let r = read("size=1m\n[a]\nsizee=1m\n  bs=xyz\nrw=bogus\nrandom line here\n[b\n[]\n");
        let shown: Vec<String> = r.diags.iter().map(|d| d.to_string()).collect();
        assert_eq!(shown.len(), 7, "{shown:#?}");
        assert!(shown[0].starts_with("t.fio:1:1: error: option 'size' comes before"));
        assert!(shown[1]
            .starts_with("t.fio:3:1: error: [a] unknown option 'sizee' (did you mean 'size'?)"));
        assert!(shown[2].starts_with("t.fio:4:6: error: [a] invalid value 'xyz' for option 'bs'"));
        assert!(shown[3].starts_with("t.fio:5:4: error: [a] invalid value 'bogus' for option 'rw'"));
        assert!(shown[4].contains("t.fio:6:1: error: [a] 'random line here' is not an option line"));
        assert!(shown[5].starts_with("t.fio:7:3: error: expected ']'"));
        assert!(shown[6].starts_with("t.fio:8:1: error: bad section name"));
        let r = read("[a]\nbs\n");
        assert!(r.diags[0]
            .to_string()
            .starts_with("t.fio:2:1: error: [a] option 'bs' needs a value"));
    }

    #[test]
    fn includes_nest_and_cycles_are_caught() {
        let dir = std::env::temp_dir().join(format!("iomark-jobfile-inc-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("main.fio"), "[a]\ninclude sub/one.inc\nrw=write\n").unwrap();
        std::fs::write(dir.join("sub/one.inc"), "bs=8k\ninclude two.inc\n").unwrap();
        std::fs::write(dir.join("sub/two.inc"), "size=2m\n").unwrap();
        std::fs::write(dir.join("loop.fio"), "[a]\ninclude loop.fio\n").unwrap();
        std::fs::write(dir.join("sect.inc"), "[x]\n").unwrap();
        std::fs::write(
            dir.join("sect.fio"),
            "[a]\ninclude sect.inc\ninclude missing.inc\n",
        )
        .unwrap();
        let mut r = Reader::new(&FixedVars);
        r.read_file(&dir.join("main.fio"));
        assert!(r.diags.is_empty(), "{:?}", r.diags);
        let e: Vec<_> = r.sections[0]
            .entries
            .iter()
            .map(|e| (e.key.as_str(), e.value.as_str()))
            .collect();
        assert_eq!(e, [("bs", "8k"), ("size", "2m"), ("rw", "write")]);
        assert!(r.sections[0].entries[1].loc.file.ends_with("two.inc"));
        let mut r = Reader::new(&FixedVars);
        r.read_file(&dir.join("loop.fio"));
        assert!(
            r.diags[0].message.contains("includes itself"),
            "{:?}",
            r.diags
        );
        let mut r = Reader::new(&FixedVars);
        r.read_file(&dir.join("sect.fio"));
        assert_eq!(r.diags.len(), 2, "{:?}", r.diags);
        assert!(r.diags[0].message.contains("cannot start sections"));
        assert!(r.diags[1].message.contains("cannot read include"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn kb_base_of_the_section_applies() {
        let r = read("[global]\nkb_base=1000\n[a]\nbs=4ki\n");
        assert!(r.diags.is_empty(), "{:?}", r.diags);
    }
}
