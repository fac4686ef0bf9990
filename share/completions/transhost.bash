# bash completion for transhost
_transhost() {
    local cur prev words cword
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    local commands="list run route inspect validate new help version"
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        return
    fi
    case "$prev" in
        --scenario|--registry|--expect|--record) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --plugins|--out|--dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --lang) COMPREPLY=($(compgen -W "c swift" -- "$cur")); return ;;
        --isolation) COMPREPLY=($(compgen -W "worker none" -- "$cur")); return ;;
        --format) COMPREPLY=($(compgen -W "gif webp" -- "$cur")); return ;;
        --record-mode) COMPREPLY=($(compgen -W "missing all never failed" -- "$cur")); return ;;
        --device) COMPREPLY=($(compgen -W "iphone-4 iphone-5 iphone-8 iphone-12" -- "$cur")); return ;;
    esac
    local common="--plugins --registry --rescan --no-fork --quiet --help"
    local opts=""
    case "${COMP_WORDS[1]}" in
        list) opts="--json --failed" ;;
        run) opts="--scenario --out --fps --device --param --trace-only --expect --record --record-mode --isolation --no-fork --fail-fast --format --json --watch" ;;
        route) opts="--container --op --from --to --explain --json" ;;
        validate) opts="--list-tests --test-filter --only-failed --json --in-process --timeout" ;;
        new) opts="--lang --dir" ;;
        help) COMPREPLY=($(compgen -W "$commands" -- "$cur")); return ;;
    esac
    COMPREPLY=($(compgen -W "$opts $common" -- "$cur"))
}
complete -o default -F _transhost transhost
