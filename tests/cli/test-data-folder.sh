#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc's data folder, ${XDG_DATA_HOME:-~/.local/share}/pmc (docs/security.md, "pmc's data
# folder"): on a fresh account pmc calibrate and pmc validate make it (0700, with its parents)
# and write their files there; a folder that cannot take a file, or that someone else could
# have planted, is refused with exit 1 before anything is measured. Then the verdicts written
# there are found by pmc stat at the levels it counts, however they were asked for.
. "$(dirname "$0")/lib.sh"

unset PMC_TRUST PMC_CALIBRATION # the default files are the point here
KERNELS=$(dirname "$PMC")/libexec/pmc/pmc-kernels
DATA=$HOME/.local/share/pmc
mode() { stat -c %a "$1"; }
# a program that leaves a mark when it measures: the empty program and the kernels of the refusals
cat >"$T/marker" <<EOS
#!/bin/sh
[ "\$1" = --list ] || touch "$T/ran" # validate reads the kernels' list before it measures
[ \$# -gt 0 ] && exec "$KERNELS" "\$@"
exit 0
EOS
chmod +x "$T/marker"

# --- a fresh account: the folders are made 0700 and the files written ---
"$PMC" calibrate -e task-clock -r 1 -n 10 >"$T/cal.txt" 2>"$T/cal.err"
expect_eq "fresh HOME: calibrate exits 0" "$?" 0
expect_eq "the calibration file is in the data folder" "$(ls "$DATA" | grep -c '^calibration-.*\.json$')" 1
expect_eq "pmc/, share/, .local/ made 0700" "$(mode "$DATA") $(mode "$HOME/.local/share") $(mode "$HOME/.local")" "700 700 700"
expect_grep "calibrate says where" "calibration written to $DATA/calibration-" "$T/cal.err"
expect_eq "no temporary file left" "$(ls -a "$DATA" | grep -c pmc-tmp)" 0
rm -rf "$HOME/.local"
"$PMC" validate --quick --kernel syscall -e syscalls:sys_enter_getppid >"$T/v.txt" 2>"$T/v.err"
expect_eq "fresh HOME: validate exits 0" "$?" 0
expect_eq "the trust file is in the data folder" "$(ls "$DATA" | grep -c '^trust-.*\.json$')" 1
expect_eq "made 0700" "$(mode "$DATA") $(mode "$HOME/.local/share") $(mode "$HOME/.local")" "700 700 700"
# XDG_DATA_HOME: its missing folders are made too; an existing folder keeps its mode
mkdir -p "$T/xdg" && chmod 755 "$T/xdg"
XDG_DATA_HOME=$T/xdg/a/b "$PMC" calibrate -e task-clock -r 1 -n 10 >/dev/null 2>&1
expect_eq "XDG_DATA_HOME: its folders made 0700" "$(mode "$T/xdg/a") $(mode "$T/xdg/a/b") $(mode "$T/xdg/a/b/pmc")" "700 700 700"
expect_eq "an existing parent keeps its mode" "$(mode "$T/xdg")" 755
expect_eq "the file is there" "$(ls "$T/xdg/a/b/pmc" | grep -c '^calibration-')" 1
# a relative XDG_DATA_HOME is ignored, as the spec says: the default folder is used
(cd "$T" && XDG_DATA_HOME=rel "$PMC" calibrate -e task-clock -r 1 -n 10 >/dev/null 2>&1)
expect_eq "relative XDG_DATA_HOME ignored" "$([ -e "$T/rel" ] && echo made || echo not)" not

# --- refusals: exit 1, said, and nothing measured (the empty program never ran) ---
refused() { # WHAT PATTERN: calibrate and validate both refuse the data folder as it is now
	rm -f "$T/ran"
	"$PMC" calibrate -e task-clock -r 1 -n 10 --empty="$T/marker" >/dev/null 2>"$T/r.err"
	expect_eq "$1: calibrate exits 1" "$?" 1
	expect_grep "$1: calibrate says why" "$2" "$T/r.err"
	expect_grep "$1: and that nothing was measured" "nothing was measured" "$T/r.err"
	PMC_KERNELS=$T/marker "$PMC" validate --quick --kernel syscall -e syscalls:sys_enter_getppid \
		>/dev/null 2>"$T/r.err"
	expect_eq "$1: validate exits 1" "$?" 1
	expect_grep "$1: validate says why" "$2" "$T/r.err"
	expect_eq "$1: nothing ran" "$([ -e "$T/ran" ] && echo ran || echo 'not run')" "not run"
}
rm -rf "$DATA"
mkdir -p "$T/elsewhere"
ln -s "$T/elsewhere" "$DATA"
if [ "$(id -u)" = 0 ]; then
	chown -h 65534:65534 "$DATA"
	refused "a link owned by another user" "data folder $DATA is a symbolic link owned by uid 65534, not by you"
	rm "$DATA" && mkdir -m 700 "$DATA" && chown 65534:65534 "$DATA"
	refused "another user's folder" "data folder $DATA is another user's \(mode 0700, uid 65534\)"
	rm -rf "$DATA" && ln -s "$T/elsewhere" "$DATA"
else
	skip_part no-root "giving a link or a folder to another user needs root"
fi
# a link of one's own to a folder of one's own is followed (data kept on another disk)
chmod 700 "$T/elsewhere"
"$PMC" calibrate -e task-clock -r 1 -n 10 >/dev/null 2>&1
expect_eq "one's own link is followed" "$(ls "$T/elsewhere" | grep -c '^calibration-')" 1
rm "$DATA" && mkdir -m 700 "$DATA" && chmod 777 "$DATA"
refused "a folder others can write" "data folder $DATA is writable by others than you \(mode 0777"
chmod 700 "$DATA"
rm -rf "$DATA" && touch "$DATA"
refused "a file where the folder goes" "cannot make pmc's data folder $DATA: File exists|data folder $DATA is not a folder"
rm -f "$DATA"
# a folder that takes no file: read-only to an unprivileged user (root writes anywhere)
if [ "$(id -u)" != 0 ]; then
	mkdir -p "$DATA" && chmod 500 "$DATA"
	refused "a read-only data folder" "cannot write $DATA/.*: Permission denied"
	chmod 700 "$DATA"
elif command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups -- "$PMC" --version >/dev/null 2>&1; then
	chmod 711 "$T"
	mkdir -p "$T/uhome/.local/share/pmc" "$T/uwork"
	chown -R 65534:65534 "$T/uhome" "$T/uwork"
	chmod 500 "$T/uhome/.local/share/pmc"
	cp "$T/marker" "$T/uwork/marker" && sed -i "s|$T/ran|$T/uwork/ran|" "$T/uwork/marker" && chmod 755 "$T/uwork/marker"
	setpriv --reuid=65534 --regid=65534 --clear-groups -- env HOME="$T/uhome" "$PMC" calibrate \
		-e task-clock -r 1 -n 10 --empty="$T/uwork/marker" >/dev/null 2>"$T/ro.err"
	expect_eq "read-only data folder: calibrate exits 1" "$?" 1
	expect_grep "read-only: says why" "cannot write $T/uhome/.local/share/pmc/calibration-.*: Permission denied; nothing was measured" "$T/ro.err"
	setpriv --reuid=65534 --regid=65534 --clear-groups -- env HOME="$T/uhome" PMC_KERNELS="$T/uwork/marker" \
		"$PMC" validate --quick --kernel syscall -e syscalls:sys_enter_getppid >/dev/null 2>"$T/ro.err"
	expect_eq "read-only data folder: validate exits 1" "$?" 1
	expect_grep "read-only: validate says why" "cannot write $T/uhome/.local/share/pmc/trust-.*: Permission denied" "$T/ro.err"
	expect_eq "read-only: nothing ran" "$([ -e "$T/uwork/ran" ] && echo ran || echo 'not run')" "not run"
else
	skip_part no-unprivileged-user "root, and the build tree's pmc cannot be run as nobody"
fi
# the same check for a file named with -o / --trust: a missing folder is said before the run
rm -f "$T/ran"
"$PMC" calibrate -e task-clock -r 1 -n 10 --empty="$T/marker" -o "$T/no/such/cal.json" >/dev/null 2>"$T/o.err"
expect_eq "-o in a missing folder: exit 1" "$?" 1
expect_eq "-o: nothing ran" "$([ -e "$T/ran" ] && echo ran || echo 'not run')" "not run"
expect_eq "-o: no folder made" "$([ -e "$T/no" ] && echo made || echo not)" not

# --- the default file is read only from a folder no one else can write ---
"$PMC" validate --quick --kernel syscall -e syscalls:sys_enter_getppid >/dev/null 2>&1
chmod 777 "$DATA"
"$PMC" stat -e syscalls:sys_enter_getppid "$KERNELS" syscall 10 >/dev/null 2>"$T/s0"
expect_grep "stat: a folder others can write is not read" "trust file .* is not used: pmc's data folder $DATA is writable by others" "$T/s0"
chmod 700 "$DATA"

# --- the verdict of the levels counted, however they were written ---
"$PMC" stat -e syscalls:sys_enter_getppid "$KERNELS" syscall 10 >/dev/null 2>"$T/s1"
expect_grep "perf: default levels after validate at the default" 'syscalls:sys_enter_getppid +\[exact\]$' "$T/s1"
"$PMC" stat -e syscalls:sys_enter_getppid:u "$KERNELS" syscall 10 >/dev/null 2>"$T/s2"
expect_grep "perf: :u is another level, not validated" 'sys_enter_getppid:u +\[not validated here\]$' "$T/s2"
require_vpmu
"$PMC" validate --backend=vpmu --quick --kernel loop -e instructions,branches >/dev/null 2>"$T/vv.err"
expect_eq "vpmu validate at the default level exits 0" "$?" 0
expect_eq "stored at the level counted (user)" \
	"$(json "$(ls "$DATA"/trust-*.json)" "sorted(set((e['event'], e['priv']) for e in j['entries'] if e['backend'] == 'vpmu'))")" \
	"[('branches', 1), ('instructions', 1)]"
for how in "-e instructions" "-e instructions:u" "--user -e instructions"; do
	"$PMC" stat --backend=vpmu $how "$KERNELS" loop 1000 >/dev/null 2>"$T/vs"
	expect_grep "vpmu stat $how: the verdict" 'instructions(:u)? +\[exact\]$' "$T/vs"
done
"$PMC" stat --backend=vpmu -e branches -o "$T/vs.json" --format json "$KERNELS" loop 1000 2>/dev/null
expect_eq "and in the JSON" "$(json "$T/vs.json" '[e.get("trust") for e in j["events"]]')" "['exact']"

finish
