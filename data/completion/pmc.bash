# SPDX-License-Identifier: MIT
# bash completion for pmc: pmc itself says what completes the word under the cursor
# ('pmc __complete LINE', from its option tables: docs/man/README.md), so this file never
# needs to know pmc's commands, options or events.
_pmc() {
	local pmc=${COMP_WORDS[0]} kind cur pre i
	local -a out
	mapfile -t out < <("$pmc" __complete "${COMP_LINE:0:COMP_POINT}" 2>/dev/null)
	kind=${out[0]-none} cur=${out[1]-}
	COMPREPLY=()
	case $kind in
	words | choices) COMPREPLY=("${out[@]:2}") ;;
	files) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
	commands) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -c -- "$cur") ;;
	*) return 0 ;;
	esac
	# readline replaces only what follows the last word-break character (':' in
	# syscalls:sys_enter_write, '=' in --format=csv): drop what precedes it.
	pre=${cur%"${cur##*[=:]}"}
	if [[ -n $pre && $COMP_WORDBREAKS == *"${pre: -1}"* ]]; then
		for i in "${!COMPREPLY[@]}"; do
			COMPREPLY[i]=${COMPREPLY[i]#"$pre"}
		done
	fi
	[[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
	return 0
}
complete -F _pmc pmc
