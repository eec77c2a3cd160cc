#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes RANKS pmc-stat/1 results files (DIR/r.json.rank-NNNN) of EVENTS events and REGIONS
regions, as pmc stat writes them in each rank of an Open MPI job (one run, no warm-up)."""
import json
import os
import sys

d, ranks, nev, nreg = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
width = len(str(ranks - 1))
names = [f"event{i}" for i in range(nev)]


def summary(v):
    return {"mean": v, "stddev": 0.0, "median": v, "min": v, "max": v, "ci": 0.0, "ci_pct": 0.0}


for r in range(ranks):
    events = []
    for i, n in enumerate(names):
        v = float(1000 * (i + 1) + r)
        events.append(dict(name=n, kind="software", encoding="software/config=0x%x/" % i,
                           supported=True, values=[v], running_ratio=[1.0], scaled=False,
                           **summary(v), overhead_subtracted=0.0))
    regions = []
    for g in range(nreg):
        evs = [dict(name=n, values=[float(g + i + r)], entered=[10.0], per_entry=0.1,
                    overhead_per_entry=0.0, **summary(float(g + i + r)))
               for i, n in enumerate(names)]
        regions.append(dict(name=f"region{g}", entered=10, exited=10, entries_vary=False,
                            open_at_exit=0, unmatched_end=0, events=evs, threads=[]))
    doc = {"schema": "pmc-stat/1",
           "provenance": {"pmc_version": "0.1.0", "backend": "perf", "command": ["./app"],
                          "repetitions": 1, "passes": 1, "warmup": False, "interrupted": False,
                          "mpi": {"launcher": "openmpi", "rank": r, "size": ranks,
                                  "local_rank": r % 64, "host": f"node{r // 64}",
                                  "cpus": str(r % 64)}},
           "events": events, "exit_code": 0, "regions": regions}
    with open(os.path.join(d, "r.json.rank-%0*d" % (width, r)), "w") as f:
        json.dump(doc, f, indent=2)
