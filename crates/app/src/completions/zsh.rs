//! The zsh completion script.

use super::bash::lookups;
use super::Words;

pub fn script(w: &Words) -> String {
    let lookups = lookups(w);
    format!(
        r#"#compdef iomark
# zsh completion for iomark (iomark completions zsh)
{lookups}_iomark() {{
    local cmd="${{words[2]}}" after="" kind=""
    if (( CURRENT == 2 )) && [[ $PREFIX != -* ]]; then
        compadd -- {cmds}
        return
    fi
    [[ -z $cmd || $cmd == -* ]] && cmd=run
    kind="$(_iomark_operands "$cmd")"
    if [[ $PREFIX == -*=* ]]; then
        local opt="${{PREFIX%%=*}}"
        local vals="$(_iomark_values "${{opt##*-}}")"
        compset -P '*='
        if [[ -n $vals ]]; then
            compadd -- ${{=vals}}
        else
            _files
        fi
        return
    fi
    if (( CURRENT == 3 )); then
        after="$(_iomark_next "$cmd")"
    elif (( CURRENT == 4 )); then
        after="$(_iomark_next "$cmd ${{words[3]}}")"
    fi
    if [[ -n $after && $PREFIX != -* ]]; then
        compadd -- ${{=after}}
    elif [[ $PREFIX == -* || ( $cmd == dd && $PREFIX != */* ) ]]; then
        compadd -S '' -- ${{=$(_iomark_flags "$cmd")}}
    elif [[ -n $kind && ( $PREFIX == @* || $kind == refs ) ]]; then
        compadd -- ${{=$(_iomark_refs)}}
    elif [[ $kind == results ]]; then
        _files -g '*.json'
    else
        _files
    fi
}}
compdef _iomark iomark
"#,
        cmds = w.commands.join(" "),
    )
}
