#!/bin/bash
# SPDX-License-Identifier: MIT
# pmc validate's interrupts counted alongside where the irq tracepoints cannot be opened (a
# user without access to tracefs): /proc/interrupts around each repetition, one run each, and
# the source said in the results.
. "$(dirname "$0")/lib.sh"
use_unprivileged
chmod 711 "$T"
mkdir -p "$T/u" && chmod 755 "$T/u"
# one kernel predicting the page faults it makes at user level, which this user may count
cat >"$T/u/kernels" <<'EOS'
#!/bin/sh
[ "$1" = --list ] && { printf 'pf\tpage-faults:u\t0\t-\t1,2\t1,2\tany\n'; exit 0; }
exec true
EOS
chmod 755 "$T/u/kernels"
as_user env PMC_KERNELS="$T/u/kernels" "$PMC" validate --trust=none -r 3 --format json >"$T/v.json" 2>"$T/err"
expect_eq "validate as the user exits 0" "$?" 0
expect_eq "the tracepoints refused: /proc/interrupts" "$(json "$T/v.json" 'j["interrupts"]')" "/proc/interrupts (every CPU)"
expect_eq "one run a repetition: 2 sizes x 3 points" "$(json "$T/v.json" 'len(j["results"][0]["points"])')" 6
expect_eq "each with the interrupts of every CPU meanwhile" \
	"$(json "$T/v.json" 'all(p["interrupts"] >= 0 and p["interrupts"] == int(p["interrupts"]) for p in j["results"][0]["points"])')" True
expect_eq "the row counted" "$(json "$T/v.json" 'j["results"][0]["class"] in ("exact", "random")')" True
finish
