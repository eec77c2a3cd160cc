#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# abi.symbols: libpmc.so's exported symbols, lib/libpmc.map and the PMC_API declarations of
# include/pmc/*.h must be the same set; each difference is named with what to do about it.
#
#   check-symbols.py --nm NM --lib LIBPMC_SO --map lib/libpmc.map --include include/pmc
import argparse
import glob
import os
import re
import subprocess
import sys


def strip_comments(text):
    """Blanks C comments but keeps their newlines, so that line numbers stay right."""
    def blank(m):
        return re.sub(r'[^\n]', ' ', m.group(0))
    return re.sub(r'/\*.*?\*/|//[^\n]*', blank, text, flags=re.S)


def header_symbols(include_dir):
    """{name: 'file:line'} for every declaration that starts with PMC_API."""
    syms, errors = {}, []
    for path in sorted(glob.glob(os.path.join(include_dir, '*.h'))):
        with open(path) as f:
            text = strip_comments(f.read())
        # Preprocessor lines (the #define of PMC_API itself) declare nothing.
        text = re.sub(r'^[ \t]*#(?:[^\n]*\\\n)*[^\n]*', lambda m: '\n' * m.group(0).count('\n'),
                      text, flags=re.M)
        rel = os.path.join('include/pmc', os.path.basename(path))
        for m in re.finditer(r'\bPMC_API\b([^;{]*)', text):
            where = '%s:%d' % (rel, text.count('\n', 0, m.start()) + 1)
            decl = re.sub(r'__attribute__\s*\(\(.*?\)\)', ' ', m.group(1), flags=re.S)
            fn = re.search(r'([A-Za-z_]\w*)\s*\(', decl)
            var = re.search(r'([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*(?:=.*)?$', decl, flags=re.S)
            name = fn.group(1) if fn else var.group(1) if var else None
            if not name:
                errors.append('%s: cannot read the name of a PMC_API declaration' % where)
            else:
                syms.setdefault(name, where)
    return syms, errors


def map_symbols(map_path):
    """{name: node} from the version script, with errors for patterns and unsorted lists."""
    with open(map_path) as f:
        text = strip_comments(f.read())
    syms, errors = {}, []
    for node in re.finditer(r'([A-Za-z_][\w.]*)\s*\{(.*?)\}\s*[\w.]*\s*;', text, flags=re.S):
        name, body = node.group(1), node.group(2)
        scope, listed = None, []
        for tok in re.findall(r'[^\s;:]+:|[^\s;]+(?=\s*;)', body):
            if tok.endswith(':'):
                scope = tok[:-1]
            elif scope == 'global':
                listed.append(tok)
        for sym in listed:
            if re.search(r'[*?\[]', sym):
                errors.append('lib/libpmc.map: node %s exports the pattern "%s"; list the '
                              'symbols by name' % (name, sym))
            elif sym in syms:
                errors.append('lib/libpmc.map: %s is listed twice' % sym)
            else:
                syms[sym] = name
        if listed != sorted(listed):
            first = next(a for a, b in zip(listed, sorted(listed)) if a != b)
            errors.append('lib/libpmc.map: node %s is not sorted (LC_ALL=C order), first at %s'
                          % (name, first))
    return syms, errors


def lib_symbols(nm, lib, nodes):
    """{name: version} of the defined dynamic symbols, without the version nodes themselves."""
    out = subprocess.run([nm, '-D', '--defined-only', lib], check=True, capture_output=True,
                         text=True).stdout
    syms = {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) < 3:
            continue
        name, _, version = fields[2].partition('@')
        if fields[1] == 'A' and name in nodes:
            continue
        syms[name] = version.lstrip('@')
    return syms


def hint(in_hdr, in_map, in_lib):
    if in_hdr and not in_map:
        return 'add it to lib/libpmc.map (in sorted order), or drop PMC_API'
    if in_hdr and in_map:
        return 'libpmc.so defines no such function: define it in lib/ (not static)'
    if in_map and in_lib:
        return 'declare it with PMC_API in include/pmc/, or remove it from lib/libpmc.map'
    if in_map:
        return 'remove it from lib/libpmc.map, or declare it with PMC_API and define it'
    return 'it is neither declared PMC_API nor listed: find what exports it'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--nm', default='nm')
    ap.add_argument('--lib', required=True)
    ap.add_argument('--map', required=True)
    ap.add_argument('--include', required=True)
    args = ap.parse_args()

    hdr, errors = header_symbols(args.include)
    mapped, map_errors = map_symbols(args.map)
    errors += map_errors
    lib = lib_symbols(args.nm, args.lib, set(mapped.values()))
    yes_no = {True: 'yes', False: 'no'}
    for sym in sorted(set(hdr) | set(mapped) | set(lib)):
        h, m, e = sym in hdr, sym in mapped, sym in lib
        if h and m and e:
            if lib[sym] != mapped[sym]:
                errors.append('%s: exported as version %s but listed in node %s of '
                              'lib/libpmc.map' % (sym, lib[sym] or '(none)', mapped[sym]))
            continue
        errors.append('%s: declared PMC_API: %s; in lib/libpmc.map: %s; exported by %s: %s. '
                      'To fix: %s' % (sym, hdr.get(sym, 'no'), yes_no[m],
                                      os.path.basename(args.lib), yes_no[e], hint(h, m, e)))
    for err in errors:
        print('abi.symbols: ' + err)
    if errors:
        print('abi.symbols: %d difference(s) between the headers, the map and the library'
              % len(errors))
        return 1
    print('abi.symbols: %d symbols agree (headers, lib/libpmc.map, %s)'
          % (len(lib), os.path.basename(args.lib)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
