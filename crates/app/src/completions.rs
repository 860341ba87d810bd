//! `iomark completions bash|zsh|fish`: shell completion scripts generated from the same tables
//! the command-line parser reads (the job options with their aliases, and the switches), so a
//! new option completes as soon as it parses.

use iomark_fio::switches::{SwitchValue, SWITCHES};

/// Every word `iomark run` takes: `--switch`, `--switch=` and `--option=`.
fn run_words() -> Vec<String> {
    let mut w: Vec<String> = SWITCHES
        .iter()
        .filter(|s| s.supported)
        .map(|s| match s.value {
            SwitchValue::None => format!("--{}", s.name),
            _ => format!("--{}=", s.name),
        })
        .collect();
    w.extend(iomark_fio::options::all_spellings().map(|o| format!("--{o}=")));
    let cluster = crate::cluster::args::SWITCHES.iter();
    w.extend(
        cluster
            .chain(&crate::session::record::SWITCHES)
            .map(|(s, help)| {
                if help.starts_with('=') {
                    format!("{s}=")
                } else {
                    s.to_string()
                }
            }),
    );
    w.sort();
    w.dedup();
    w
}

/// The script for `shell` completing `commands` (every command word), or None for a shell
/// iomark does not know.
pub fn script(shell: &str, commands: &[&str]) -> Option<String> {
    let words = run_words().join(" ");
    let cmds = commands.join(" ");
    Some(match shell {
        "bash" => format!(
            "# bash completion for iomark (iomark completions bash)\n\
_iomark() {{\n\
    local cur=\"${{COMP_WORDS[COMP_CWORD]}}\"\n\
    if [ \"$COMP_CWORD\" -eq 1 ] && [[ \"$cur\" != -* ]]; then\n\
        COMPREPLY=( $(compgen -W \"{cmds}\" -- \"$cur\") )\n\
        return\n\
    fi\n\
    if [[ \"$cur\" == -* ]]; then\n\
        compopt -o nospace 2>/dev/null\n\
        COMPREPLY=( $(compgen -W \"{words}\" -- \"$cur\") )\n\
        return\n\
    fi\n\
    COMPREPLY=( $(compgen -f -- \"$cur\") )\n\
}}\n\
complete -F _iomark iomark\n"
        ),
        "zsh" => format!(
            "#compdef iomark\n# zsh completion for iomark (iomark completions zsh)\n\
_iomark() {{\n\
    if (( CURRENT == 2 )) && [[ $PREFIX != -* ]]; then\n\
        compadd -- {cmds}\n\
    elif [[ $PREFIX == -* ]]; then\n\
        compadd -S '' -- {words}\n\
    else\n\
        _files\n\
    fi\n\
}}\n\
compdef _iomark iomark\n"
        ),
        "fish" => {
            let mut s = String::from("# fish completion for iomark (iomark completions fish)\n");
            s.push_str(&format!(
                "complete -c iomark -n '__fish_use_subcommand' -f -a '{cmds}'\n"
            ));
            for w in run_words() {
                let name = w.trim_start_matches("--").trim_end_matches('=');
                let takes = if w.ends_with('=') { " -r" } else { "" };
                s.push_str(&format!(
                    "complete -c iomark -l {q_name}{takes}\n",
                    q_name = iomark_engine::echo::quote(name)
                ));
            }
            s
        }
        _ => return None,
    })
}

const USAGE: &str = "Usage: iomark completions bash|zsh|fish

Prints the completion script for the shell, generated from iomark's option tables. Install:
  bash: iomark completions bash >> ~/.bashrc
  zsh:  iomark completions zsh > ~/.zfunc/_iomark      (a directory in $fpath)
  fish: iomark completions fish > ~/.config/fish/completions/iomark.fish";

/// `iomark completions SHELL`: prints the script completing `commands`; returns the exit code.
pub fn main(args: &[String], commands: &[&str]) -> i32 {
    if matches!(args.first().map(String::as_str), Some("-h" | "--help")) {
        return crate::session::pipe::print_text(USAGE);
    }
    match args.first().and_then(|shell| script(shell, commands)) {
        Some(s) => crate::session::pipe::print_text(&s),
        None => {
            eprintln!("iomark completions: give a shell: bash, zsh or fish");
            2
        }
    }
}
