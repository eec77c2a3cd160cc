#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc report's kernel symbols (docs/report.md, "Kernel symbols"): /proc/kallsyms is read on
# the first kernel address only, then cached for this boot in the user's cache folder, the
# cache read instead of /proc/kallsyms while the boot id holds; another user's cache file is
# not trusted; caches of other boots are removed.
. "$(dirname "$0")/lib.sh"
export XDG_CACHE_HOME="$T/cache"
C="$XDG_CACHE_HOME/pmc"
BOOT=$(cat /proc/sys/kernel/random/boot_id)
awk '$1 != "0000000000000000" { found = 1 } END { exit !found }' /proc/kallsyms ||
	skip_cap kallsyms "/proc/kallsyms shows no addresses to this user (kptr_restrict)"

# top FILE [ARGS]: the first kernel entry of pmc report.
top() { local f=$1; shift; "$PMC" report -i "$f" --no-callers "$@" | awk '/^ / { for (i = 1; i < NF; i++) if ($i == "[k]") { print $(i + 1); exit } }'; }

"$PMC" record -q -e task-clock:u -c 100000 -o "$T/u.data" -- "$PROGS/getppid-loop" 20000 >/dev/null 2>&1 ||
	fail "pmc record of user samples"
"$PMC" report -i "$T/u.data" >/dev/null
# (pmc record keeps the vDSO image in the same folder: only kallsyms-* files count here)
expect_eq "no kernel address, no kernel symbols read (no cache made)" \
	"$(ls "$C" 2>/dev/null | grep -c '^kallsyms-')" 0

"$PMC" record -q -e task-clock:k -c 100000 -o "$T/k.data" -- "$PROGS/getppid-loop" 100000 >/dev/null 2>&1 ||
	fail "pmc record of kernel samples"
want=$(top "$T/k.data" --kallsyms=/proc/kallsyms)
[ -n "$want" ] || fail "no kernel entry in the report"
expect_eq "--kallsyms FILE makes no cache" "$(ls "$C" | grep -c "$BOOT")" 0
expect_eq "the first report names the kernel entry" "$(top "$T/k.data")" "$want"
cache=$(ls "$C"/kallsyms-"$BOOT"-* 2>/dev/null)
[ -f "$cache" ] && ok "the cache is made, keyed by the boot id" || fail "no cache file in $C: $(ls "$C")"
expect_eq "the folder is the user's alone" "$(stat -c %a "$C")" 700
OLD="$C/kallsyms-00000000-0000-0000-0000-000000000000-0000000000000000"
touch "$OLD" && rm "$cache"
expect_eq "without this boot's cache, /proc/kallsyms again" "$(top "$T/k.data")" "$want"
[ -f "$cache" ] && ok "the cache is made again" || fail "no cache file in $C: $(ls "$C")"
[ -e "$OLD" ] && fail "a cache of another boot is left" || ok "caches of other boots are removed"
expect_eq "the cache holds the text symbols of /proc/kallsyms" "$(wc -l <"$cache")" \
	"$(awk '$2 ~ /^[tTwW]$/ && $1 != "0000000000000000"' /proc/kallsyms | wc -l)"

# The cache is what the next report reads: a name changed in it shows.
sed -i "s/ $want\$/ cached_$want/" "$cache"
expect_eq "the next report reads the cache" "$(top "$T/k.data")" "cached_$want"
if [ "$(id -u)" = 0 ]; then
	chown 65534 "$cache"
	expect_eq "another user's cache is not read" "$(top "$T/k.data")" "$want"
fi
finish
