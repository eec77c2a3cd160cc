#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The size limits of docs/architecture.md, checked against the C sources of lib/, mpi/, tools/.

Reports every file (.c, .h) over 500 lines and every function over 60 lines. A function's
length is the number of lines between its opening and closing braces (clang-format's Linux
braces: "{" and "}" alone at column 0), its signature and braces not counted.

Exempt, and only these: the VEX IR switches of the Valgrind tool (EXEMPT below), whose one
case per IR tag is the shape of the VEX API and reads worse when split. Each exempt function
carries, in the comment just above it, "check-size: exempt" and the reason; an exemption
whose comment is missing, or whose function is gone or back under the limit, fails.

scripts/size-allow.txt lists what is allowed for now (one entry a line: "file FILE" or
"function FILE NAME"), for the CLI only (tools/pmc/): the rest of the tree keeps the limits.
--summary prints the counts only. Exit 1 when something is over a limit that neither the
exemptions nor the allow-list name, or the allow-list names a file outside tools/pmc/.
"""
import argparse
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # --root
TREES = ("lib", "mpi", "tools")
SOURCE_EXT = (".c", ".h")
MAX_FILE = 500
MAX_FUNCTION = 60
# Where the allow-list may reach: what another change is shrinking.
ALLOW_UNDER = "tools/pmc/"
# (file, function): the VEX switches, one case per IR tag.
EXEMPT = {
    ("tools/vpmu/vpmu-classify.c", "classify_op"),
}
MARK = "check-size: exempt"
NAME_RE = re.compile(r"([A-Za-z_]\w*)\s*\(")


def rel(path):
    return os.path.relpath(path, ROOT)


def sources():
    out = []
    for tree in TREES:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, tree)):
            dirnames.sort()
            for f in sorted(filenames):
                if f.endswith(SOURCE_EXT):
                    out.append(rel(os.path.join(dirpath, f)))
    return out


def functions(lines):
    """[(name, body_lines, first_line, comment_above)] for each function of a file."""
    out = []
    i = 0
    while i < len(lines):
        if lines[i].rstrip() != "{":
            i += 1
            continue
        # The signature: the lines above the brace back to one that starts at column 0
        # with a name (the return type) and is not a continuation of parameters.
        j = i - 1
        while j > 0 and (lines[j][:1] in (" ", "\t") or "(" not in "".join(lines[j:i])):
            j -= 1
        sig = " ".join(s.strip() for s in lines[j:i])
        m = NAME_RE.search(sig.split("(")[0] + "(") if "(" in sig else None
        end = i + 1
        while end < len(lines) and lines[end].rstrip() != "}":
            end += 1
        k = j - 1
        while k >= 0 and lines[k].strip() and not lines[k].startswith("}"):
            k -= 1
        above = "\n".join(lines[k + 1:j])
        if m:
            out.append((m.group(1), end - i - 1, j + 1, above))
        i = end + 1
    return out


def read_allow(path):
    files, funcs, bad = set(), set(), []
    if not os.path.isfile(path):
        return files, funcs, bad
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) == 2 and parts[0] == "file":
            files.add(parts[1])
        elif len(parts) == 3 and parts[0] == "function":
            funcs.add((parts[1], parts[2]))
        else:
            sys.exit(f"check-size: {rel(path)}:{n}: expected 'file FILE' or "
                     f"'function FILE NAME', not '{line}'")
        if not parts[1].startswith(ALLOW_UNDER):
            bad.append(f"{rel(path)}:{n}: {parts[1]} is not under {ALLOW_UNDER}: "
                       f"only the CLI may be allowed over the limits")
    return files, funcs, bad


def main():
    global ROOT
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--summary", action="store_true", help="print the counts only")
    ap.add_argument("--allow", default=None,
                    help="the allow-list (default scripts/size-allow.txt; '' for none)")
    ap.add_argument("--root", default=None, help="the tree to check (default: this script's)")
    args = ap.parse_args()
    if args.root:
        ROOT = os.path.abspath(args.root)
    if args.allow is None:
        args.allow = os.path.join(ROOT, "scripts", "size-allow.txt")
    allow_files, allow_funcs, problems = read_allow(args.allow) if args.allow else (set(), set(),
                                                                                    [])
    big_files, big_funcs, seen_exempt = [], [], set()
    for f in sources():
        lines = open(os.path.join(ROOT, f), encoding="utf-8", errors="replace").read().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if len(lines) > MAX_FILE:
            big_files.append((f, len(lines)))
        for name, n, first, above in functions(lines):
            if (f, name) in EXEMPT:
                seen_exempt.add((f, name))
                if MARK not in above:
                    problems.append(f"{f}:{first}: {name} is exempt but the comment above it "
                                    f"does not say '{MARK}' and why")
                if n <= MAX_FUNCTION:
                    problems.append(f"{f}:{first}: {name} is exempt but {n} lines long: "
                                    f"drop its exemption")
                continue
            if n > MAX_FUNCTION:
                big_funcs.append((f, name, n, first))
    for f, name in sorted(EXEMPT - seen_exempt):
        if os.path.isfile(os.path.join(ROOT, f)):
            problems.append(f"{f}: exempt function {name} not found: drop its exemption")

    new_files = [x for x in big_files if x[0] not in allow_files]
    new_funcs = [x for x in big_funcs if (x[0], x[1]) not in allow_funcs]
    allowed = len(big_files) - len(new_files) + len(big_funcs) - len(new_funcs)
    if not args.summary:
        for f, n in big_files:
            mark = " (allowed)" if f in allow_files else ""
            print(f"  file over {MAX_FILE} lines: {f}: {n}{mark}")
        for f, name, n, first in big_funcs:
            mark = " (allowed)" if (f, name) in allow_funcs else ""
            print(f"  function over {MAX_FUNCTION} lines: {f}:{first}: {name}: {n}{mark}")
    for p in problems:
        print(f"check-size: {p}")
    print(f"check-size: {len(big_files)} files over {MAX_FILE} lines, {len(big_funcs)} functions "
          f"over {MAX_FUNCTION} ({allowed} allowed by "
          f"{rel(args.allow) if args.allow else '-'}), {len(seen_exempt)} exempt")
    stale = sorted(f"file {f}" for f in allow_files - {x[0] for x in big_files}) + sorted(
        f"function {f} {n}" for f, n in allow_funcs - {(x[0], x[1]) for x in big_funcs})
    for entry in stale:
        print(f"check-size: {rel(args.allow)} has '{entry}', which the tree no longer needs: "
              f"delete the line")
    return 1 if new_files or new_funcs or problems else 0


if __name__ == "__main__":
    sys.exit(main())
