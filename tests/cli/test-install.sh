#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cmake --install into a prefix of the test's own, then moved elsewhere: the installed tree holds
# no path of the build tree, its pmc counts under vpmu with its own tool, and a program built
# with its libpmc.pc counts regions under its pmc. DESTDIR stages the same tree.
. "$(dirname "$0")/lib.sh"
: "${BUILD:?BUILD must point at the build tree}" "${SRC:?SRC must point at the source tree}"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}

cmake --install "$BUILD" --prefix "$T/prefix" >"$T/install.log" 2>&1 ||
	{ cat "$T/install.log"; fail "cmake --install --prefix"; finish; exit; }
ok "cmake --install --prefix"
# A move breaks every absolute path into the prefix: what works after it is relative.
cp -a "$T/prefix" "$T/moved"
rm -rf "$T/prefix"
P=$T/moved
B=$(cd "$BUILD" && pwd -P)

for f in bin/pmc lib/libpmc.so lib/pkgconfig/libpmc.pc include/pmc/region.h \
	libexec/pmc/vglib/vpmu-amd64-linux share/doc/pmc/README.md share/man/man1/pmc.1 \
	share/man/man1/pmc-stat.1 share/bash-completion/completions/pmc \
	share/pmc/metrics/index.tsv share/pmc/metrics/generic.json include/pmc/metric.h; do
	[ -e "$P/$f" ] && ok "installed $f" || fail "$f not installed"
done

# No file of the tree names the build tree: text files, link targets, RUNPATHs.
expect_eq "no text file names the build tree" "$(grep -rIl -- "$B" "$P" | tr '\n' ' ')" ""
expect_eq "no link leads into the build tree" \
	"$(find "$P" -type l -lname "$B*" | tr '\n' ' ')" ""
expect_eq "no RUNPATH names the build tree" \
	"$(readelf -d "$P/bin/pmc" "$P/lib/libpmc.so" | grep -E 'RPATH|RUNPATH' | grep -F -- "$B")" ""
expect_eq "no link is dangling" "$(find -L "$P" -type l | tr '\n' ' ')" ""
# Valgrind's own files sit beside the tool: without vgpreload_core, every run says
# "ld.so: object ... cannot be preloaded".
[ -e "$P/libexec/pmc/vglib/vgpreload_core-amd64-linux.so" ] && ok "Valgrind's preload installed" ||
	fail "no vgpreload_core-amd64-linux.so in $P/libexec/pmc/vglib"

# ---- the installed pmc under vpmu: its own tool, found relative to its libpmc ----
"$P/bin/pmc" doctor >"$T/doctor" 2>&1
if grep -qE '^ *\[ok\] vpmu' "$T/doctor"; then
	expect_grep "doctor: the installed tool" "^ *\[ok\] vpmu +$P/libexec/pmc/vglib$" "$T/doctor"
	value() { awk -F, -v e="\"$1\"" '$1 == e { split($13, v, ";"); print v[1] }' "$2"; }
	for k in 100000 200000; do
		"$P/bin/pmc" stat --backend=vpmu --format csv -o "$T/k$k.csv" -e instructions \
			"$PROGS/vpmu-loop" loop $k 2>>"$T/vpmu.err"
	done
	expect_eq "vpmu: instructions of K iterations" \
		$(($(value instructions "$T/k200000.csv") - $(value instructions "$T/k100000.csv"))) 400000
	expect_no_grep "vpmu: no preload noise" "cannot be preloaded|ERROR: ld.so" "$T/vpmu.err"
else
	fail "the installed pmc finds no vpmu tool: $(grep vpmu "$T/doctor")"
fi

# The installed pages and completion: man finds the page through the prefix's man folder,
# and completion asks the installed pmc.
expect_grep "man pmc-stat from the prefix" "--event=EVENTS" \
	<(MANPATH=$P/share/man MANWIDTH=200 man pmc-stat 2>&1 | col -b)
expect_eq "completion through the installed pmc" \
	"$(bash -c '. "$1"; COMP_LINE="$2 stat --form" COMP_POINT=${#COMP_LINE}
		COMP_WORDS=("$2" stat --form) COMP_CWORD=2; _pmc; echo "${COMPREPLY[*]}"' \
		_ "$P/share/bash-completion/completions/pmc" "$P/bin/pmc")" --format=

# ---- a program built with the installed libpmc.pc, counted by the installed pmc ----
# A sanitized libpmc needs its runtime first in the program too.
SAN=
readelf -d "$P/lib/libpmc.so" | grep -q 'NEEDED.*libasan' && SAN=-fsanitize=address,undefined
export PKG_CONFIG_PATH=$P/lib/pkgconfig
expect_eq "pkg-config: prefix" "$(pkg-config --variable=prefix libpmc | xargs realpath)" "$P"
# shellcheck disable=SC2046 # the flags are words
cc $SAN -o "$T/region-loop" "$SRC/examples/region-loop.c" $(pkg-config --cflags --libs libpmc) \
	-Wl,-rpath,"$P/lib" 2>"$T/cc.err" && ok "built against the installed libpmc.pc" ||
	{ fail "cc with pkg-config --cflags --libs libpmc"; cat "$T/cc.err"; }
expect_eq "the program loads the installed libpmc" \
	"$(ldd "$T/region-loop" | awk '$1 ~ /^libpmc/ { print $3 }' | xargs realpath)" \
	"$(realpath "$P/lib/libpmc.so.0")"
# The installed libpmc holds the shipped metric files (compiled in: nothing to find after the
# move, even with the installed copies gone); PMC_METRICS_DIR names a folder to read instead.
cat >"$T/metric-dir.c" <<'EOF'
#include <stdio.h>
#include <pmc/pmc.h>
int main(void)
{
	struct pmc_metrics *m;
	if (pmc_metrics__new(NULL, NULL, &m))
		return 1;
	puts(pmc_metric__info(pmc_metrics__find(m, "insn_per_cycle"))->file);
	pmc_metrics__delete(m);
	return 0;
}
EOF
# shellcheck disable=SC2046 # the flags are words
cc $SAN -o "$T/metric-dir" "$T/metric-dir.c" $(pkg-config --cflags --libs libpmc) \
	-Wl,-rpath,"$P/lib" 2>"$T/cc.err" || { fail "cc metric-dir.c"; cat "$T/cc.err"; }
mv "$P/share/pmc/metrics" "$T/installed-metrics"
expect_eq "the built-in metric files, no folder installed" \
	"$(env -u PMC_METRICS_DIR "$T/metric-dir")" generic.json
mv "$T/installed-metrics" "$P/share/pmc/metrics"
expect_eq "the installed folder, named by PMC_METRICS_DIR" \
	"$(PMC_METRICS_DIR=$P/share/pmc/metrics "$T/metric-dir")" "$P/share/pmc/metrics/generic.json"
TP=syscalls:sys_enter_getppid
if [ -r /sys/kernel/tracing/events/syscalls/sys_enter_getppid/id ] ||
	[ -r /sys/kernel/debug/tracing/events/syscalls/sys_enter_getppid/id ]; then
	"$P/bin/pmc" stat -e $TP --format json -o "$T/region.json" "$T/region-loop" \
		>/dev/null 2>"$T/region.err"
	expect_eq "regions under the installed pmc" \
		"$(json "$T/region.json" '[(r["name"], r["entered"], r["events"][0]["per_entry"]) for r in j["regions"]]')" \
		"[('loop', 7, 1.0)]"
else
	fail "no syscalls tracepoints (scripts/setup.sh mounts tracefs; CONFIG_FTRACE_SYSCALLS)"
fi

# ---- DESTDIR: a staged install, nothing written under the prefix itself ----
DESTDIR=$T/stage cmake --install "$BUILD" --prefix "$T/final" >"$T/stage.log" 2>&1 &&
	ok "DESTDIR install" || { fail "DESTDIR install"; cat "$T/stage.log"; }
expect_eq "DESTDIR: nothing outside the stage" "$([ -e "$T/final" ] && echo exists)" ""
S=$T/stage$T/final
for f in bin/pmc lib/pkgconfig/libpmc.pc libexec/pmc/vglib/vpmu-amd64-linux \
	libexec/pmc/vglib/vgpreload_core-amd64-linux.so; do
	[ -e "$S/$f" ] && ok "staged $f" || fail "$f not staged under $S"
done
finish
