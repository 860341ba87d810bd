//! The bash completion script.

use super::Words;
use std::fmt::Write;

/// `case` arms of a shell function that prints the words of each key.
fn arms<'a>(pairs: impl Iterator<Item = (&'a str, String)>) -> String {
    let mut s = String::new();
    for (k, words) in pairs {
        let _ = writeln!(s, "        '{k}') echo '{words}' ;;");
    }
    s
}

/// The lookup functions every script carries (bash and zsh read them alike): options per
/// command, values per option, words after a command, what a command's operands are, and the
/// store's references (`@last`, `@last~N` and the ids `iomark history` lists).
pub fn lookups(w: &Words) -> String {
    let flags = arms(w.flags.iter().map(|(c, f)| (*c, f.join(" "))));
    let values = arms(w.values.iter().map(|(o, v)| (*o, v.join(" "))));
    let presets = w.presets.join(" ");
    let next = arms(
        w.next
            .iter()
            .map(|(c, v)| (*c, v.join(" ")))
            .chain([("preset run", presets.clone()), ("preset show", presets)]),
    );
    let mut s = String::new();
    for (name, arms) in [("flags", flags), ("values", values), ("next", next)] {
        let _ = write!(
            s,
            "_iomark_{name}() {{\n    case \"$1\" in\n{arms}    esac\n}}\n"
        );
    }
    let operands = arms(
        w.results
            .iter()
            .map(|c| (*c, "results".to_string()))
            .chain(w.refs_only.iter().map(|c| (*c, "refs".to_string()))),
    );
    let _ = write!(
        s,
        "_iomark_operands() {{\n    case \"$1\" in\n{operands}    esac\n}}\n\
         _iomark_refs() {{\n    echo '{refs}'\n    \
         iomark history 2>/dev/null | awk '$1 ~ /^@[0-9]+$/ {{ print $1 }}'\n}}\n",
        refs = super::words::REFERENCES.join(" "),
    );
    s
}

pub fn script(w: &Words) -> String {
    let lookups = lookups(w);
    format!(
        r#"# bash completion for iomark (iomark completions bash)
{lookups}_iomark() {{
    local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="" cmd="${{COMP_WORDS[1]}}"
    [ "$COMP_CWORD" -gt 0 ] && prev="${{COMP_WORDS[COMP_CWORD-1]}}"
    if [ "$COMP_CWORD" -eq 1 ] && [[ "$cur" != -* ]]; then
        COMPREPLY=( $(compgen -W "{cmds}" -- "$cur") )
        return
    fi
    # A fio command line without a command word is iomark run's.
    [[ "$cmd" == -* ]] && cmd=run
    # The value of --opt=VALUE, with `=` a word of its own (COMP_WORDBREAKS) or not.
    local opt="" val="" pre=""
    if [[ "$cur" == -*=* ]]; then
        opt="${{cur%%=*}}"; val="${{cur#*=}}"; pre="$opt="
    elif [ "$cur" = "=" ]; then
        opt="$prev"
    elif [ "$prev" = "=" ] && [ "$COMP_CWORD" -ge 2 ]; then
        opt="${{COMP_WORDS[COMP_CWORD-2]}}"; val="$cur"
    fi
    if [ -n "$opt" ]; then
        local vals
        vals="$(_iomark_values "${{opt##*-}}")"
        if [ -n "$vals" ]; then
            COMPREPLY=( $(compgen -P "$pre" -W "$vals" -- "$val") )
        else
            COMPREPLY=( $(compgen -P "$pre" -f -- "$val") )
        fi
        return
    fi
    local after=""
    if [ "$COMP_CWORD" -eq 2 ]; then
        after="$(_iomark_next "$cmd")"
    elif [ "$COMP_CWORD" -eq 3 ]; then
        after="$(_iomark_next "$cmd $prev")"
    fi
    if [ -n "$after" ] && [[ "$cur" != -* ]]; then
        COMPREPLY=( $(compgen -W "$after" -- "$cur") )
        return
    fi
    if [[ "$cur" == -* ]] || {{ [ "$cmd" = dd ] && [[ "$cur" != */* ]]; }}; then
        compopt -o nospace 2>/dev/null
        COMPREPLY=( $(compgen -W "$(_iomark_flags "$cmd")" -- "$cur") )
        return
    fi
    # Result files and store references: the word as typed (`@` breaks words in bash),
    # the part before the current word taken off each match.
    local kind word m
    kind="$(_iomark_operands "$cmd")"
    word="${{COMP_LINE:0:COMP_POINT}}"; word="${{word##*[[:space:]]}}"
    if [ -n "$kind" ] && {{ [[ "$word" == @* ]] || [ "$kind" = refs ]; }}; then
        COMPREPLY=()
        for m in $(compgen -W "$(_iomark_refs)" -- "$word"); do
            COMPREPLY+=( "${{m#"${{word%"$cur"}}"}}" )
        done
        return
    fi
    if [ "$kind" = results ]; then
        COMPREPLY=( $(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur") )
        return
    fi
    COMPREPLY=( $(compgen -f -- "$cur") )
}}
complete -F _iomark iomark
"#,
        cmds = w.commands.join(" "),
    )
}
