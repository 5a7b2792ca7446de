#!/usr/bin/env python3
"""Success over the tasks whose parent commit builds here, from `mantra batch` results.

usage: score.py RESULTS.jsonl...   A commit is unbuildable when any of its tasks, in any of the
given files, ended as `broken-baseline`; its tasks are counted apart."""
import collections
import json
import sys

rows = [json.loads(line) for path in sys.argv[1:] for line in open(path)]
broken = {r["commit"] for r in rows if r.get("failure") == "broken-baseline"}
groups = collections.defaultdict(list)
for r in rows:
    groups[(r["mode"], r["project"])].append(r)
    groups[(r["mode"], "all")].append(r)
for (mode, project), tasks in sorted(groups.items()):
    runnable = [t for t in tasks if t["commit"] not in broken]
    ok = sum(1 for t in runnable if t.get("success"))
    failures = collections.Counter(
        (t.get("failure") or "?") + (": " + t["diagnostic"].split(":")[0] if t.get("failure") == "refused" else "")
        for t in runnable
        if not t.get("success")
    )
    share = 100.0 * ok / len(runnable) if runnable else 0.0
    print(f"{mode} {project}: {ok} of {len(runnable)} tasks whose parent builds succeeded ({share:.1f} %); "
          f"{len(tasks) - len(runnable)} more tasks in commits that do not build here")
    named = [t for t in runnable if (t.get("spec_origin") or "").endswith("the class the human created")]
    if named:
        print(f"    of which {sum(1 for t in named if t.get('success'))} of {len(named)} moved to a class the human "
              f"created in the commit, named to the planner ({ok - sum(1 for t in named if t.get('success'))} of "
              f"{len(runnable) - len(named)} others)")
    if project != "all":
        for why, n in failures.most_common():
            print(f"    {n:3}  {why}")
