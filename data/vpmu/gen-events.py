#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks data/vpmu/events.tsv and generates what the vpmu tool and libpmc build from it.

The table's columns are specified in docs/vpmu.md ("Events").  Usage:

  gen-events.py check TSV         validate the rows only (the vpmu.events-data test)
  gen-events.py def TSV OUT       the rows as X-macro calls, one per event:
      VPMU_EVENT_<MODEL>(name, event, umask, cmask, inv, edge, KIND, signals, errata, desc)
    KIND is EXACT, MODELLED or UNSUPPORTED; a signal X is written VPMU_SIG(X), a group g
    VPMU_SIGS(G) and no signal 0, so that each includer (tools/vpmu/vpmu-events.c,
    lib/backend/vpmu/events.c) defines these macros and takes the fields it needs
  gen-events.py tsv TSV OUT       the nine-column table installed as share/pmc/vpmu/events.tsv

Every mode validates first and fails, naming the file and line, on a malformed row.
"""
import re
import sys

COLUMNS = ["model", "name", "event", "umask", "cmask", "inv", "edge", "kind", "signals",
           "errata", "description_or_reason"]
MODELS = ("corei7", "pentium")
KINDS = ("exact", "modelled", "unsupported")
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.]*$")
BYTE = re.compile(r"0x[0-9a-f]{2}$")
SIGNAL = re.compile(r"[A-Z][A-Z0-9_]*$")  # enum vp_sig without its VP_SIG_ prefix
GROUP = re.compile(r"[a-z][a-z_]*$")  # a VP_<GROUP>_MASK of tools/vpmu/vpmu-events.h


class Row:
    def __init__(self, lineno, fields):
        self.lineno = lineno
        (self.model, self.name, self.event, self.umask, self.cmask, self.inv, self.edge,
         self.kind, self.signals, self.errata, self.desc) = fields

    def encoding(self):
        return (self.model, self.event, self.umask, self.cmask, self.inv, self.edge)


def signals_ok(value):
    if value == "-":
        return True
    toks = value.split("|")
    return len(set(toks)) == len(toks) and all(SIGNAL.match(t) or GROUP.match(t) for t in toks)


def row_errors(r):
    if r.model not in MODELS:
        yield "model '%s' is not one of %s" % (r.model, ", ".join(MODELS))
    if not NAME.match(r.name):
        yield "name '%s' is not letters, digits, '_' and '.'" % r.name
    for col in ("event", "umask"):
        if not BYTE.match(getattr(r, col)):
            yield "%s '%s' is not a byte written 0xNN" % (col, getattr(r, col))
    if not re.fullmatch(r"0|[1-9][0-9]{0,2}", r.cmask) or int(r.cmask) > 255:
        yield "cmask '%s' is not a decimal 0..255" % r.cmask
    for col in ("inv", "edge"):
        if getattr(r, col) not in ("0", "1"):
            yield "%s '%s' is not 0 or 1" % (col, getattr(r, col))
    if r.kind not in KINDS:
        yield "kind '%s' is not one of %s" % (r.kind, ", ".join(KINDS))
    for col in ("signals", "errata"):
        if not signals_ok(getattr(r, col)):
            yield "%s '%s' is not '-' or distinct signals joined by '|'" % (col,
                                                                            getattr(r, col))
    if r.kind == "unsupported" and (r.signals != "-" or r.errata != "-"):
        yield "an unsupported event sums no signals: its signals and errata are -"
    if r.model == "pentium" and (r.umask, r.cmask, r.inv, r.edge) != ("0x00", "0", "0", "0"):
        yield "a Pentium event has no umask, cmask, inv or edge"
    if not r.desc or '"' in r.desc or "\\" in r.desc:
        yield "the description is empty or holds '\"' or '\\'"


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
    for lineno, msg in sorted(errors):
        print("%s:%d: %s" % (path, lineno, msg), file=sys.stderr)
    if errors:
        sys.exit(1)
    return rows


def table_errors(rows):
    """Encodings are unique per model; a name listed twice in a model is a second encoding
    of the same event (the architectural codes of BR_*_RETIRED.ALL_BRANCHES) and counts the
    same: same kind and signals."""
    seen, named = {}, {}
    for r in rows:
        if r.encoding() in seen:
            yield r.lineno, "%s has the encoding of %s (line %d)" % (
                r.name, seen[r.encoding()].name, seen[r.encoding()].lineno)
        seen.setdefault(r.encoding(), r)
        first = named.setdefault((r.model, r.name), r)
        if first is not r and (first.kind, first.signals, first.errata) != (
                r.kind, r.signals, r.errata):
            yield r.lineno, "%s is listed on line %d with another kind or other signals" % (
                r.name, first.lineno)
    for model in MODELS:
        if not any(r.model == model for r in rows):
            yield 0, "no event of model %s" % model


def c_signals(value):
    if value == "-":
        return "0"
    return " | ".join("VPMU_SIG(%s)" % t if SIGNAL.match(t) else "VPMU_SIGS(%s)" % t.upper()
                      for t in value.split("|"))


def write_def(rows, src, out):
    out.write("/* Generated by data/vpmu/gen-events.py from %s: do not edit. */\n" % src)
    for r in rows:
        out.write('VPMU_EVENT_%s("%s", %s, %s, %s, %s, %s, %s, %s, %s, "%s")\n' % (
            r.model.upper(), r.name, r.event, r.umask, r.cmask, r.inv, r.edge, r.kind.upper(),
            c_signals(r.signals), c_signals(r.errata), r.desc))


def write_tsv(rows, src, out):
    cols = COLUMNS[:8] + COLUMNS[10:]
    out.write("# " + "\t".join(cols) + "\n")
    for r in rows:
        out.write("\t".join((r.model, r.name, r.event, r.umask, r.cmask, r.inv, r.edge, r.kind,
                             r.desc)) + "\n")


def main(argv):
    if len(argv) == 3 and argv[1] == "check":
        load(argv[2])
        return 0
    if len(argv) != 4 or argv[1] not in ("def", "tsv"):
        print(__doc__, file=sys.stderr)
        return 2
    rows = load(argv[2])
    with open(argv[3], "w", encoding="utf-8") as out:
        (write_def if argv[1] == "def" else write_tsv)(rows, "data/vpmu/events.tsv", out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
