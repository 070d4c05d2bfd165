# SPDX-License-Identifier: GPL-2.0-only
# bash completion for pcptop(8). The options come from 'pcptop CMD --help'
# itself, so they never drift from the binary; recordings complete as
# files, modes and command names as words.

_pcptop()
{
	local cur prev words cword cmd i
	_init_completion 2>/dev/null || {
		cur=${COMP_WORDS[COMP_CWORD]}
		prev=${COMP_WORDS[COMP_CWORD - 1]}
		words=("${COMP_WORDS[@]}")
		cword=$COMP_CWORD
	}
	local cmds="info stat top record report diff whatif btf-min"

	cmd=
	for ((i = 1; i < cword; i++)); do
		case " $cmds " in *" ${words[i]} "*) cmd=${words[i]}; break ;; esac
		# after record's --, the rest is the command it runs
		[ "${words[i]}" = -- ] && { COMPREPLY=($(compgen -c -- "$cur")); return; }
	done

	case $prev in
	-m | --mode)
		COMPREPLY=($(compgen -W "auto fentry kprobe tracepoint" -- "$cur"))
		return ;;
	-o | --output | --prom | --html | --btf)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	-i | --interval | -c | --count | -d | --delay | --duration | -n | --run-gap | --sync)
		return ;;
	esac

	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--help --version" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$cmds" -- "$cur"))
		fi
		return
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(pcptop "$cmd" --help 2>/dev/null |
			grep -oE '(^|[ ,])--?[a-zA-Z][-a-zA-Z]*' | tr -d ' ,' | sort -u)" -- "$cur"))
		return
	fi
	case $cmd in
	report | diff | whatif)
		COMPREPLY=($(compgen -f -X '!*.data*' -- "$cur") $(compgen -d -- "$cur")) ;;
	btf-min)
		COMPREPLY=($(compgen -f -- "$cur")) ;;
	esac
}
complete -F _pcptop pcptop
