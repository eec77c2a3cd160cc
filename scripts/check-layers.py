#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The layers of docs/architecture.md, checked against the code.

Reads the layer table from docs/architecture.md ("## Layers", the one place the layers are
written), every #include of the sources of lib/, mpi/ and tools/, and every non-static
function they define, and reports:
  - folders of those trees that the table gives no layer;
  - edges that run back up: a file that includes a header of a higher layer, or that names a
    function defined in a higher layer (a public function is declared in include/pmc/, layer
    1, but defined in its module: calling it is an edge to that module);
  - circles between the files of one folder: file A uses file B when A names a non-static
    function B defines (a name defined in more than one file is left out); each strongly
    connected component of more than one file is a circle, printed with the names that
    tie it.
scripts/layers-allow.txt lists what is allowed for now (one entry a line: "circle FOLDER" or
"edge FILE -> FILE"). --summary prints the counts only. Exit 1 when a folder has no layer, or
an edge runs up or a circle is found that the allow-list does not name, else 0.
"""
import argparse
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # --root
TREES = ("lib", "mpi", "tools")
SOURCE_EXT = (".c", ".h")
# Where a quoted include is looked for after the including file's own folder (CMake's
# include directories: lib/ for the library's own headers, include/ for the public ones).
INCLUDE_DIRS = ("lib", "include")
APART = "apart"

INCLUDE_RE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]', re.M)
# Comments, string and character literals: blanked before names are read.
NOISE_RE = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
PREPROC_RE = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)
# A function definition as clang-format writes it here (BreakBeforeBraces: Linux): the
# return type and name from column 0, the parameters (possibly over several lines), and the
# opening brace alone at the start of the next line.
DEF_RE = re.compile(
    r"^(?!typedef\b|extern\b|(?:struct|enum|union)\s+\w+\s*\{)"
    r"(?:__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)[ \t]+|[A-Z][A-Z0-9_]*\([^()]*\)[ \t]+)*"
    r"(?:(?!static\b|inline\b)[A-Za-z_]\w*[ \t\*]+)+?([A-Za-z_]\w*)\(([^;{}()]|\([^;{}()]*\))*\)"
    r"[ \t]*\n\{",
    re.M,
)
# Names that do not name a function: a struct, enum or union tag, a member after . or ->.
NOT_CALLED_RE = re.compile(r"(?:->|\.|\b(?:struct|enum|union)\b)\s*[A-Za-z_]\w*")
NAME_RE = re.compile(r"\b[A-Za-z_]\w*")


def rel(path):
    return os.path.relpath(path, ROOT)


def read_layers():
    """{folder: layer} from docs/architecture.md; layer is an int or APART."""
    doc = os.path.join(ROOT, "docs", "architecture.md")
    text = open(doc, encoding="utf-8").read()
    section = re.split(r"^## Layers[ \t]*$", text, maxsplit=1, flags=re.M)
    if len(section) != 2:
        sys.exit("check-layers: docs/architecture.md has no '## Layers' section")
    body = re.split(r"^## ", section[1], maxsplit=1, flags=re.M)[0]
    layers = {}
    for row in body.splitlines():
        if not row.startswith("|"):
            continue
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) < 2 or not (cells[0].isdigit() or cells[0] == APART):
            continue  # the header and its rule
        layer = int(cells[0]) if cells[0].isdigit() else APART
        for folder in re.findall(r"`([^`]+/)`", cells[1]):
            layers[folder.rstrip("/")] = layer
    if not layers:
        sys.exit("check-layers: docs/architecture.md's layer table has no rows")
    return layers


def folder_of(relpath):
    return os.path.dirname(relpath)


def layer_of(relpath, layers):
    """The layer of the longest table folder holding relpath, or None."""
    d = folder_of(relpath)
    while d:
        if d in layers:
            return layers[d], d
        d = os.path.dirname(d)
    return None, None


def sources():
    out = []
    for tree in TREES:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, tree)):
            dirnames.sort()
            for f in sorted(filenames):
                if f.endswith(SOURCE_EXT):
                    out.append(rel(os.path.join(dirpath, f)))
    return out


def resolve(src, quote, name):
    """The tree's file an include names, or None (system and generated headers)."""
    cands = [os.path.join(folder_of(src), name)] if quote == '"' else []
    cands += [os.path.join(d, name) for d in INCLUDE_DIRS]
    for c in cands:
        c = os.path.normpath(c)
        if os.path.isfile(os.path.join(ROOT, c)):
            return c
    return None


def runs_up(from_layer, to_layer):
    if from_layer is None or to_layer is None:
        return False
    if from_layer == APART or to_layer == APART:
        # A part apart reaches only layer 1 (its protocol and tables), and nothing reaches it.
        return from_layer != to_layer and to_layer != 1
    return to_layer > from_layer


def scan(files):
    texts, includes, defs, names = {}, {}, {}, {}
    for f in files:
        raw = open(os.path.join(ROOT, f), encoding="utf-8", errors="replace").read()
        includes[f] = [(q, n, raw.count("\n", 0, m.start()) + 1) for m in INCLUDE_RE.finditer(raw)
                       for q, n in [(m.group(1), m.group(2))]]
        code = NOISE_RE.sub(lambda m: " " if m.group(0)[0] in "\"'" else
                            "\n" * m.group(0).count("\n") or " ", raw)
        code = PREPROC_RE.sub(lambda m: "\n" * m.group(0).count("\n"), code)
        texts[f] = code
        if f.endswith(".c"):
            for m in DEF_RE.finditer(code):
                defs.setdefault(m.group(1), []).append(f)
        names[f] = set(NAME_RE.findall(NOT_CALLED_RE.sub(" ", code)))
    definer = {n: fs[0] for n, fs in defs.items() if len(set(fs)) == 1}
    return includes, definer, names


def uses(files, definer, names):
    """{A: {B: [names]}}: the functions defined in B that A names."""
    out = {}
    for f in files:
        for n in sorted(names[f]):
            b = definer.get(n)
            if b and b != f:
                out.setdefault(f, {}).setdefault(b, []).append(n)
    return out


def tarjan(nodes, edges):
    index, low, stack, on, comps = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        # Iterative, so a long chain cannot exhaust Python's recursion.
        work = [(v, iter(sorted(edges.get(v, ()))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == node:
                            break
                    comps.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return comps


def read_allow(path):
    circles, edges = set(), set()
    if not os.path.isfile(path):
        return circles, edges
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        kind, _, what = line.partition(" ")
        what = what.strip()
        if kind == "circle" and what:
            circles.add(what.rstrip("/"))
        elif kind == "edge" and "->" in what:
            a, b = (s.strip() for s in what.split("->", 1))
            edges.add((a, b))
        else:
            sys.exit(f"check-layers: {rel(path)}:{n}: expected 'circle FOLDER' or "
                     f"'edge FILE -> FILE', not '{line}'")
    return circles, edges


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--summary", action="store_true", help="print the counts only")
    ap.add_argument("--allow", default=None,
                    help="the allow-list (default scripts/layers-allow.txt; '' for none)")
    ap.add_argument("--root", default=None, help="the tree to check (default: this script's)")
    args = ap.parse_args()
    global ROOT
    if args.root:
        ROOT = os.path.abspath(args.root)
    if args.allow is None:
        args.allow = os.path.join(ROOT, "scripts", "layers-allow.txt")

    layers = read_layers()
    files = sources()
    includes, definer, names = scan(files)
    allow_circles, allow_edges = read_allow(args.allow) if args.allow else (set(), set())

    unmapped = sorted({folder_of(f) for f in files if layer_of(f, layers)[0] is None})

    up = {}  # (A, B) -> reasons
    for f in files:
        fl = layer_of(f, layers)[0]
        for quote, name, line in includes[f]:
            target = resolve(f, quote, name)
            if target and runs_up(fl, layer_of(target, layers)[0]):
                up.setdefault((f, target), []).append(f"line {line}: #include {quote}{name}")
    use = uses(files, definer, names)
    for a, bs in use.items():
        al = layer_of(a, layers)[0]
        for b, ns in bs.items():
            if runs_up(al, layer_of(b, layers)[0]):
                up.setdefault((a, b), []).append("calls " + ", ".join(ns))

    circles = []
    for folder in sorted({folder_of(f) for f in files}):
        members = [f for f in files if folder_of(f) == folder and f.endswith(".c")]
        edges = {a: {b for b in use.get(a, {}) if folder_of(b) == folder} for a in members}
        for comp in tarjan(members, edges):
            if len(comp) > 1:
                ties = [(a, b, use[a][b]) for a in comp for b in comp if b in edges[a]]
                circles.append((folder, comp, ties))

    new_up = {k: v for k, v in up.items() if k not in allow_edges}
    new_circles = [c for c in circles if c[0] not in allow_circles]
    allowed = (len(up) - len(new_up)) + (len(circles) - len(new_circles))

    if not args.summary:
        print("layers:")
        by_layer = {}
        for folder, layer in layers.items():
            by_layer.setdefault(layer, []).append(folder + "/")
        order = sorted((k for k in by_layer if k != APART), reverse=True)
        for layer in order + ([APART] if APART in by_layer else []):
            print(f"  {layer:>5}  {' '.join(sorted(by_layer[layer]))}")
        for folder in unmapped:
            print(f"  folder without a layer: {folder}/")
        print(f"edges back up: {len(up)}")
        for (a, b), why in sorted(up.items()):
            mark = " (allowed)" if (a, b) not in new_up else ""
            la, lb = layer_of(a, layers)[0], layer_of(b, layers)[0]
            print(f"  {a} (layer {la}) -> {b} (layer {lb}){mark}: {'; '.join(why)}")
        print(f"circles: {len(circles)}")
        for folder, comp, ties in circles:
            mark = " (allowed)" if folder in allow_circles else ""
            print(f"  {folder}/: {' '.join(os.path.basename(c) for c in comp)}{mark}")
            for a, b, ns in ties:
                print(f"    {os.path.basename(a)} -> {os.path.basename(b)}: {', '.join(ns)}")
    nr_layers = len({v for v in layers.values() if v != APART})
    print(f"check-layers: {nr_layers} layers of {len(layers)} folders, "
          f"{len(unmapped)} folders without a layer, {len(up)} edges back up, "
          f"{len(circles)} circles ({allowed} allowed by {rel(args.allow) if args.allow else '-'})")
    stale = sorted(f"circle {c}" for c in allow_circles - {c[0] for c in circles}) + sorted(
        f"edge {a} -> {b}" for a, b in allow_edges - set(up))
    for entry in stale:
        print(f"check-layers: {rel(args.allow)} has '{entry}', which the tree no longer needs: "
              "delete the line")
    if unmapped or new_up or new_circles:
        if args.summary:
            print("check-layers: run scripts/check-layers.py without --summary for the list")
        print("check-layers: a module includes and calls only its own layer or those below it, "
              "and the files of a folder call each other without a circle "
              "(docs/architecture.md, \"Layers\")")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
