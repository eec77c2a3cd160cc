#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every vpmu event counted alone equals the same event counted beside its neighbours.

Usage: neighbours.py PMC WORKLOAD MODEL

For the model (corei7 or pentium) it takes every event `pmc list --backend=vpmu` marks as
countable (generic, cache and CPU names), counts each one alone in a run of WORKLOAD, then
counts the whole list as `pmc stat` plans it (several passes, each a group of events that
share the counters) in the table's order and in the reverse order, so that each event meets
two sets of neighbours.  Every value must be equal, to the count: the model is
deterministic, so a difference means one event's count depends on what else is programmed
(as the stall-cycle events did while the stall sources were evaluated only for events that
asked for them).  The runs go two at a time.
"""
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import time


def pmc(env, *args, out=None):
    """Runs pmc with the workload's stdout on /dev/null; returns pmc's stderr."""
    with open(os.devnull, "wb") as null:
        p = subprocess.run(args, env=env, stdout=null, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.exit(f"neighbours: {' '.join(args[:6])} ... failed ({p.returncode}):\n"
                 + p.stderr.decode(errors="replace"))
    return p.stderr.decode(errors="replace")


def count(env, tool, work, events, where):
    """Counts events in one pmc stat (one or more passes); returns {name: (value, pass)}."""
    pmc(env, tool, "stat", "--backend=vpmu", "--no-warmup", "-e", ",".join(events),
        "--format", "json", "-o", where, work)
    with open(where) as f:
        res = json.load(f)
    return {e["name"]: (int(e["values"][0]), e["pass"]) for e in res["events"]}


def main():
    tool, work, model = sys.argv[1:4]
    env = dict(os.environ, PMC_VPMU_MODEL=model)
    lst = json.loads(subprocess.run([tool, "list", "--backend=vpmu", "--json"], env=env,
                                    check=True, capture_output=True).stdout)
    events = [e["name"] for e in lst["events"]
              if e["supported"] and e["kind"] in ("hardware", "cache", "cpu")]
    if len(events) < 10:
        sys.exit(f"neighbours: only {len(events)} countable events for {model}")
    start = time.monotonic()
    tmp = tempfile.mkdtemp(prefix="pmc-neighbours.")
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        alone_jobs = {ev: pool.submit(count, env, tool, work, [ev], f"{tmp}/a{i}.json")
                      for i, ev in enumerate(events)}
        fwd = pool.submit(count, env, tool, work, events, f"{tmp}/fwd.json")
        rev = pool.submit(count, env, tool, work, events[::-1], f"{tmp}/rev.json")
        alone = {ev: job.result()[ev][0] for ev, job in alone_jobs.items()}
        groups = {"table order": fwd.result(), "reverse order": rev.result()}
    fails = 0
    for order, got in groups.items():
        passes = {}
        for ev, (_, nr) in got.items():
            passes.setdefault(nr, []).append(ev)
        for ev in events:
            value, nr = got[ev]
            if value != alone[ev]:
                fails += 1
                print(f"FAIL: {ev}: {alone[ev]} alone, {value} in pass {nr} ({order}) beside "
                      + ", ".join(n for n in passes[nr] if n != ev))
    for name in os.listdir(tmp):
        os.unlink(os.path.join(tmp, name))
    os.rmdir(tmp)
    npass = max(p for _, p in groups["table order"].values()) + 1
    print(f"neighbours: {model}: {len(events)} events, each alone and in the {npass} passes "
          f"of two plans, in {time.monotonic() - start:.1f} s")
    print(f"{2 * len(events) - fails} passed, {fails} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
