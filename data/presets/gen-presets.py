#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks data/presets/papi.tsv and generates libpmc's preset table from it.

The columns are specified in docs/events.md ("PAPI presets").  Usage:

  gen-presets.py check TSV [CSV]  validate the rows (the data.presets test); with CSV, PAPI's
      papi_events.csv, also that every papi_nhm cell is the definition PAPI uses for
      libpfm4's PMU "nhm" at the line cited, and that no such definition is missing
  gen-presets.py def TSV OUT      the rows as X-macro calls, one per preset:
      PMC_PRESET(name, generic, corei7, papi_nhm, line, description)
    with NULL for "-" and 0 for no line (lib/event/tables.c includes it)

Every mode validates first and fails, naming the file and line, on a malformed row.
"""
import re
import sys

COLUMNS = ["preset", "generic", "corei7", "papi_nhm", "line", "description"]
PRESET = re.compile(r"PAPI_[A-Z0-9_]+$")
GENERIC = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]*$")
COREI7 = re.compile(r"[A-Z][A-Z0-9_]*(\.[A-Z0-9_]+)?$")
KINDS = ("NOT_DERIVED", "DERIVED_ADD", "DERIVED_SUB", "DERIVED_POSTFIX")
NATIVE = re.compile(r"[A-Z][A-Z0-9_]*(:[A-Z0-9_]+)*$")
# The section of papi_events.csv whose definitions the corei7 column takes: libpfm4's name
# of the Nehalem PMU, which PAPI matches against its "CPU,<name>" lines.
PAPI_PMU = "nhm"


class Row:
    def __init__(self, lineno, fields):
        self.lineno = lineno
        self.preset, self.generic, self.corei7, self.papi, self.line, self.desc = fields


def papi_errors(r):
    if r.papi == "-":
        if r.line != "-":
            yield "a line without a papi_nhm definition"
        return
    if not re.fullmatch(r"[1-9][0-9]*", r.line):
        yield "line '%s' is not a line number" % r.line
    kind, _, rest = r.papi.partition(",")
    natives = rest.split(",")
    if kind not in KINDS:
        yield "papi_nhm '%s' does not start with one of %s" % (r.papi, ", ".join(KINDS))
    elif kind == "NOT_DERIVED" and (len(natives) != 1 or not NATIVE.match(natives[0])):
        yield "a NOT_DERIVED definition names one native event, not '%s'" % rest
    elif kind != "NOT_DERIVED" and r.corei7 != "-":
        yield "a derived preset maps to no single event: its corei7 is -"


def row_errors(r):
    if not PRESET.match(r.preset):
        yield "preset '%s' is not PAPI_ and upper-case letters, digits, '_'" % r.preset
    if r.generic != "-" and not GENERIC.match(r.generic):
        yield "generic '%s' is not a perf event name" % r.generic
    if r.corei7 != "-" and not COREI7.match(r.corei7):
        yield "corei7 '%s' is not an event name of the vpmu Core i7 model" % r.corei7
    if r.corei7 != "-" and r.papi == "-":
        yield "a corei7 event needs PAPI's definition it comes from (papi_nhm)"
    yield from papi_errors(r)
    if r.generic == "-" and r.corei7 == "-" and r.papi == "-":
        yield "the preset maps to nothing and PAPI does not define it for %s" % PAPI_PMU
    if not r.desc or '"' in r.desc or "\\" in r.desc:
        yield "the description is empty or holds '\"' or '\\'"


def table_errors(rows):
    """Each preset once, sorted by name."""
    seen = {}
    for prev, r in zip([None] + rows, rows):
        if r.preset in seen:
            yield r.lineno, "%s is listed on line %d too" % (r.preset, seen[r.preset])
        seen.setdefault(r.preset, r.lineno)
        if prev and prev.preset > r.preset:
            yield r.lineno, "%s is out of order (after %s)" % (r.preset, prev.preset)


def load(path):
    """The rows of path, or exits naming every malformed one."""
    rows, errors = [], []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != len(COLUMNS):
                errors.append((lineno, "%d tab-separated columns, not %d" %
                               (len(fields), len(COLUMNS))))
                continue
            r = Row(lineno, fields)
            errors.extend((lineno, e) for e in row_errors(r))
            rows.append(r)
    errors.extend(table_errors(rows))
    report(path, errors)
    return rows


def report(path, errors):
    for lineno, msg in sorted(errors):
        print("%s:%d: %s" % (path, lineno, msg), file=sys.stderr)
    if errors:
        sys.exit(1)


def papi_definitions(csv):
    """PAPI's definitions for PAPI_PMU as PAPI 7.0 reads its file: the PRESET lines of every
    "CPU,<name>" block that names the PMU, a later definition replacing an earlier one.
    Returns {preset: (line, "KIND,EVENT,...")}."""
    defs, taking, found = {}, False, False
    with open(csv, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            fields = [t.strip() for t in line.rstrip("\n").split(",")]
            if not fields[0] or fields[0].startswith("#"):
                continue
            if fields[0] == "CPU":
                if taking and found:
                    taking = found = False
                taking = taking or (len(fields) > 1 and fields[1] == PAPI_PMU)
                continue
            if fields[0] == "PRESET" and taking and len(fields) > 2:
                found = True
                defs[fields[1]] = (lineno, ",".join(t for t in fields[2:] if t))
    return defs


def csv_errors(rows, csv):
    defs = papi_definitions(csv)
    listed = {r.preset for r in rows}
    for r in rows:
        want = defs.get(r.preset)
        have = None if r.papi == "-" else (int(r.line), r.papi)
        if want != have:
            yield r.lineno, "%s: %s defines it for %s as %s, the table says %s" % (
                r.preset, csv, PAPI_PMU, "%s (line %d)" % want[::-1] if want else "nothing",
                "%s (line %d)" % have[::-1] if have else "nothing")
    for name in sorted(set(defs) - listed):
        yield 0, "%s defines %s for %s (line %d): add its row" % (csv, name, PAPI_PMU,
                                                                   defs[name][0])


def c_str(value):
    return "NULL" if value == "-" else '"%s"' % value


def write_def(rows, out):
    out.write("/* Generated by data/presets/gen-presets.py from data/presets/papi.tsv: "
              "do not edit. */\n")
    for r in rows:
        out.write("PMC_PRESET(%s, %s, %s, %s, %s, %s)\n" % (
            c_str(r.preset), c_str(r.generic), c_str(r.corei7), c_str(r.papi),
            "0" if r.line == "-" else r.line, c_str(r.desc)))


def main(argv):
    if len(argv) in (3, 4) and argv[1] == "check":
        rows = load(argv[2])
        if len(argv) == 4:
            report(argv[2], list(csv_errors(rows, argv[3])))
        return 0
    if len(argv) != 4 or argv[1] != "def":
        print(__doc__, file=sys.stderr)
        return 2
    rows = load(argv[2])
    with open(argv[3], "w", encoding="utf-8") as out:
        write_def(rows, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
