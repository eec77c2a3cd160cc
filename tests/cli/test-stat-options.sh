#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc stat's options that cannot be, from the table tests/data/stat-options.tsv: each row's
# arguments give its exit status at once, with its message, and the command never starts.
. "$(dirname "$0")/lib.sh"

TP=syscalls:sys_enter_getppid
PROG="$PROGS/phases mark $T/ran"
while IFS=$'\t' read -r args status says; do
	case $args in '#'* | '') continue ;; esac
	args=${args//TP/$TP}
	args=${args//PROG/$PROG}
	eval "set -- $args"
	rm -f "$T/ran"
	timeout -k 5 30 "$PMC" stat "$@" >"$T/out" 2>"$T/err"
	expect_eq "$args: exit status" $? "$status"
	expect_grep "$args: says why" "$says" "$T/err"
	[ ! -e "$T/ran" ] && ok "$args: the command did not start" ||
		fail "$args: the command started"
done <"$SRC/tests/data/stat-options.tsv"
finish
