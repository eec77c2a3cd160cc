#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# --help, the manual pages and bash completion come from the same option tables and cannot
# drift: every command has a page, every option of its table (as completion lists them) is
# in its page and its --help, every choice an option completes to is in its help, the pages
# render without warnings, and completion completes commands, options, their values and
# event names of the backend named on the line.
. "$(dirname "$0")/lib.sh"
: "${BUILD:?BUILD must point at the build tree}" "${SRC:?SRC must point at the source tree}"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
MAN=$BUILD/man

render() { LC_ALL=C.UTF-8 MANWIDTH=200 man --warnings -E UTF-8 -l "$1" 2>"$T/warn" | col -b; }

expect_eq "pmc --version" "$("$PMC" --version | grep -cE '^pmc [0-9]+\.[0-9]+\.[0-9]+$')" 1
expect_eq "pmc version" "$("$PMC" version)" "$("$PMC" --version)"

# The commands, as completion lists them (the command table), each with a page.
mapfile -t cmds < <("$PMC" __complete "pmc " | tail -n +3 | grep -vx help)
expect_eq "commands listed" "$([ "${#cmds[@]}" -ge 7 ] && echo yes)" yes
for page in pmc "${cmds[@]/#/pmc-}"; do
	if [ ! -f "$MAN/$page.1" ]; then
		fail "no manual page $page.1 in $MAN"
		continue
	fi
	render "$MAN/$page.1" >"$T/$page.txt"
	expect_eq "$page.1 renders without warnings" "$(cat "$T/warn")" ""
	expect_grep "$page.1 has its NAME" "^NAME" "$T/$page.txt"
	expect_grep "$page.1 has its prose (SEE ALSO)" "^SEE ALSO" "$T/$page.txt"
done
for c in "${cmds[@]}"; do
	expect_grep "pmc(1) lists $c" "pmc-$c\(1\)" "$T/pmc.txt"
	expect_grep "pmc --help lists $c" "^  $c " <("$PMC" --help)
done

# Every option of every command, from its table, in its page and its --help; a value's
# choices in its help.
for c in "${cmds[@]}"; do
	"$PMC" "$c" --help >"$T/help-$c" || fail "pmc $c --help exits 0"
	mapfile -t opts < <("$PMC" __complete "pmc $c -" | tail -n +3)
	missing_page="" missing_help=""
	for o in "${opts[@]}"; do
		o=${o%=}
		grep -qE -- "(^|[ ,\[])$o([ =,]|$)" "$T/pmc-$c.txt" || missing_page+=" $o"
		grep -qE -- "(^|[ ,\[])$o([ =,[]|$)" "$T/help-$c" || missing_help+=" $o"
		case $o in --*) ;; *) continue ;; esac
		kind=$("$PMC" __complete "pmc $c $o=" | head -1)
		[ "$kind" = choices ] || continue
		while read -r v; do
			v=${v#"$o="}
			grep -qw -- "$v" "$T/help-$c" || fail "pmc $c $o completes to '$v', which its help does not name"
		done < <("$PMC" __complete "pmc $c $o=" | tail -n +3)
	done
	expect_eq "pmc $c: ${#opts[@]} options, all in pmc-$c(1)" "$missing_page" ""
	expect_eq "pmc $c: all options in --help" "$missing_help" ""
done
# And the reverse: an option in --help that completion does not know is not in the table.
for c in "${cmds[@]}"; do
	extra=$(grep -oE -- '^  (-[a-zA-Z], )?--[a-z-]+' "$T/help-$c" | grep -oE -- '--[a-z-]+' |
		while read -r o; do
			"$PMC" __complete "pmc $c $o" | tail -n +3 | grep -qE -- "^$o=?$" || echo "$o"
		done)
	expect_eq "pmc $c: every option in --help completes" "$extra" ""
done

# Completion through the bash script, as bash calls it.
complete_line() { # LINE: COMPREPLY, one per line
	bash -c '
		pmc=$1 line=$2
		. "$3"
		COMP_LINE="$pmc ${line#pmc }" COMP_POINT=${#COMP_LINE}
		read -ra COMP_WORDS <<<"$COMP_LINE"
		[[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_pmc
		printf "%s\n" "${COMPREPLY[@]}"' _ "$PMC" "$1" "$SRC/data/completion/pmc.bash"
}
cd "$T" && touch results.json results.csv
expect_eq "commands" "$(complete_line 'pmc st')" stat
expect_eq "pmc's options" "$(complete_line 'pmc --v')" --version
expect_eq "a long option" "$(complete_line 'pmc stat --for')" --format=
expect_eq "a value after =" "$(complete_line 'pmc stat --format=' | sort | tr '\n' ' ')" "csv html json text "
expect_eq "a value as the next word" "$(complete_line 'pmc report -F f')" folded
expect_eq "an event" "$(complete_line 'pmc stat -e task-cl')" task-clock
expect_eq "an event after a comma" "$(complete_line 'pmc stat -e task-clock,page-fa')" task-clock,page-faults
expect_eq "a file for -o" "$(complete_line 'pmc stat -o results.c')" results.csv
expect_eq "a file for --output=" "$(complete_line 'pmc stat --output=results.j')" results.json
expect_eq "the measured command" "$(complete_line 'pmc stat -r 3 ech' | sort -u | grep -cx echo)" 1
expect_eq "the measured command's arguments are files, not pmc's options" \
	"$(complete_line 'pmc stat -- ls results.' | sort | tr '\n' ' ')" "results.csv results.json "
expect_eq "no pmc option after the command" "$(complete_line 'pmc stat ls --for')" ""
expect_eq "a vpmu event with --backend=vpmu" \
	"$(complete_line 'pmc stat --backend=vpmu -e MEM_INST_RETIRED.LOA')" MEM_INST_RETIRED.LOADS
expect_eq "vpmu's events are not perf's" "$(complete_line 'pmc stat -e MEM_INST_RETIRED.LOA')" ""
expect_eq "a process id" "$(complete_line "pmc stat -p $$" | grep -cx "$$")" 1
if [ -d /sys/kernel/tracing/events/syscalls ] || [ -d /sys/kernel/debug/tracing/events/syscalls ]; then
	# readline replaces what follows ':', so the reply starts there
	expect_eq "a tracepoint after its ':'" \
		"$(complete_line 'pmc stat -e syscalls:sys_enter_writ' | sort | tr '\n' ' ')" \
		"sys_enter_write sys_enter_writev "
else
	skip_part no-tracefs "tracefs is not mounted: no tracepoint to complete"
fi
finish
