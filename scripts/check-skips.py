#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fails when a test skipped for a reason other than a capability the machine lacks.

Usage: check-skips.py BUILD-DIR CTEST-OUTPUT

Reads the log of the last ctest run (BUILD-DIR/Testing/Temporary/LastTest.log) and what that
run printed (CTEST-OUTPUT: the log says "Test Passed." of a skipped test too).  A skip is a
whole test that ctest reports as skipped (exit 77), a Criterion test reported as [SKIP], or a
part of a test that printed a SKIP line.  Each must name, as [cap:NAME], one of the
capabilities below, which a machine may lack through no fault of the project; any other reason
(tracefs not mounted, the vpmu tool not built, a fixture made elsewhere) means the set-up or
the test is wrong, and CI fails.  Every skip is listed, with its reason, either way.
"""
import re
import sys

CAPABILITIES = {
    "no-pmu": "no hardware PMU (a virtual machine)",
    "has-pmu": "a hardware PMU is present (a test of the no-PMU path)",
    "no-hw-breakpoints": "debug registers missing, or their exceptions never delivered",
    "no-device": "no accelerator device lent to this machine",
    "no-chromium": "no chromium to open the HTML pages in (scripts/setup.sh --test installs it)",
    "no-cgroup-v2": "no cgroup2 hierarchy this user can make a cgroup in (not root, or a "
    "container that mounts it read-only)",
    "no-real-cpu-recording": "no perf stat -j capture from a real CPU in tests/data/perf-stat/ "
    "(recording one needs a machine with a hardware PMU)",
    "no-pid-namespace": "cannot make a pid namespace (unshare -pf --mount-proc: not root, or a "
    "container that forbids it)",
    "no-mount-namespace": "cannot mount in a private mount namespace (unshare -m: not root, or "
    "a container that forbids it)",
    "no-root": "not run as root: giving a file or folder to another user needs CAP_CHOWN",
    "no-unprivileged-user": "no way to run as a user without CAP_PERFMON (root without setpriv "
    "or runuser, a build tree others cannot read, or a privileged non-root user)",
}
SKIP_LINE = re.compile(r"^SKIP\b|\[SKIP\]")
CAP = re.compile(r"\[cap:([a-z0-9-]+)\]")


def blocks(text):
    """Yields (test name, output lines, ctest's verdict line) for each test in the log."""
    for part in re.split(r"^\d+/\d+ Testing: ", text, flags=re.M)[1:]:
        name = part.split("\n", 1)[0].strip()
        m = re.search(r"^Output:\n-+\n(.*?)^<end of output>", part, re.M | re.S)
        out = m.group(1).splitlines() if m else []
        v = re.search(r"^Test (Passed|Failed|Skipped|Not Run)[^\n]*", part, re.M)
        yield name, out, v.group(0) if v else ""


def main():
    path = sys.argv[1] + "/Testing/Temporary/LastTest.log"
    try:
        with open(path, errors="replace") as f:
            log = f.read()
    except OSError as e:
        sys.exit(f"check-skips: cannot read {path}: {e.strerror}")
    with open(sys.argv[2], errors="replace") as f:
        skipped = set(re.findall(r"^\s*\d+ - (\S+) \(Skipped\)", f.read(), re.M))
    bad = 0
    for name, out, verdict in blocks(log):
        lines = [l for l in out if SKIP_LINE.search(l)]
        if (name in skipped or "Skipped" in verdict) and not lines:
            lines = [out[-1] if out else "(no output)"]
        for line in lines:
            caps = CAP.findall(line)
            ok = caps and all(c in CAPABILITIES for c in caps)
            print(f"check-skips: {'capability' if ok else 'NOT A CAPABILITY'}: {name}: "
                  f"{line.strip()}")
            bad += not ok
    if bad:
        print(f"check-skips: {bad} skip(s) for a reason other than a missing capability "
              f"({', '.join(sorted(CAPABILITIES))}): fix the set-up or the test")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
