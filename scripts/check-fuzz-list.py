#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every reader of untrusted bytes in docs/security.md names a libFuzzer harness that exists,
and every harness under fuzz/ has its row. Exit 1, saying what is missing, otherwise 0."""
import glob
import os
import re
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
doc = os.path.join(root, "docs", "security.md")
text = open(doc, encoding="utf-8").read()
section = text.split("## Readers of untrusted bytes", 1)
if len(section) != 2:
    sys.exit("check-fuzz-list: docs/security.md has no '## Readers of untrusted bytes' section")
rows = [l for l in section[1].splitlines() if l.startswith("|")][2:]  # past header and rule
problems, listed = [], set()
for row in rows:
    cells = [c.strip() for c in row.strip("|").split("|")]
    if len(cells) != 3:
        problems.append(f"malformed row: {row}")
        continue
    reader, harness = cells[0], cells[2]
    m = re.fullmatch(r"`(fuzz/[^`]+\.c)`", harness)
    if not m:
        problems.append(f"'{reader}' names no harness (its third column is '{harness}')")
        continue
    listed.add(m.group(1))
    if not os.path.isfile(os.path.join(root, m.group(1))):
        problems.append(f"'{reader}' names {m.group(1)}, which does not exist")
for path in sorted(glob.glob(os.path.join(root, "fuzz", "*", "fuzz-*.c"))):
    rel = os.path.relpath(path, root)
    if rel not in listed:
        problems.append(f"{rel} has no row in docs/security.md's list of readers")
for p in problems:
    print(f"check-fuzz-list: {p}")
if problems:
    print("check-fuzz-list: a reader of untrusted bytes comes with its harness under fuzz/ "
          "and its row in docs/security.md (docs/fuzzing.md)")
    sys.exit(1)
print(f"check-fuzz-list: {len(listed)} readers, each with its harness")
