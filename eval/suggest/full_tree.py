#!/usr/bin/env python3
"""`mantra suggest` on full trees: the suggest bench sees only the files a commit changed (the
oracle's `before/`), so a rule that needs the rest of the project (a superclass, to rule out an
override before a rename) cannot show there. This runs `mantra suggest --limit 10` at each
labelled commit's parent, on the full tree of the project's git history, over the files the
commit changed, and reports recall@10 (`LIMIT=N`: recall@N) per type for Extract Method and Rename Method.

    python3 eval/suggest/full_tree.py MIRROR ORACLE_PROJECT_DIR [MANTRA]

MIRROR is a git directory of the project (e.g. `fetch github:owner/name`), ORACLE_PROJECT_DIR
one project of `../shared/data/refactoring-oracle/`, MANTRA the binary (default
`target/release/mantra`). Needs only git; `.java` files under `*/java/` are exported (test
inputs under `resources/` are not code), absent blobs are skipped.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

TYPES = ("Extract Method", "Rename Method")


def subject(description):
    """(type, class simple name, method name) of a label, or None for other types."""
    kind, _, rest = description.partition("\t")
    if kind not in TYPES:
        return None
    cls = rest.rsplit(" in class ", 1)[-1].rsplit(".", 1)[-1]
    if kind == "Extract Method":
        rest = rest.split(" extracted from ", 1)[1]
    m = re.search(r"(\w+)\(", rest)
    return (kind, cls, m.group(1)) if m else None


def export(mirror, commit, dest):
    names = subprocess.run(["git", "-C", mirror, "ls-tree", "-r", "--name-only", commit],
                           capture_output=True, text=True, check=True).stdout.split("\n")
    for name in names:
        if not name.endswith(".java") or "/java/" not in name:
            continue
        blob = subprocess.run(["git", "-C", mirror, "show", f"{commit}:{name}"], capture_output=True)
        if blob.returncode == 0:
            os.makedirs(os.path.join(dest, os.path.dirname(name)), exist_ok=True)
            with open(os.path.join(dest, name), "wb") as f:
                f.write(blob.stdout)


def main():
    mirror, oracle = sys.argv[1], sys.argv[2]
    limit = os.environ.get("LIMIT", "10")
    mantra = os.path.abspath(sys.argv[3] if len(sys.argv) > 3 else "target/release/mantra")
    totals = {t: [0, 0] for t in TYPES}
    for sha in sorted(os.listdir(oracle)):
        labels = [s for s in (subject(e["description"]) for e in json.load(open(os.path.join(oracle, sha, "expected.json")))) if s]
        if not labels:
            continue
        before = os.path.join(oracle, sha, "before")
        changed = sorted(os.path.relpath(os.path.join(d, f), before) for d, _, fs in os.walk(before)
                         for f in fs if f.endswith(".java") and "/java/" in os.path.join(d, f))
        with tempfile.TemporaryDirectory() as tree:
            export(mirror, sha + "^", tree)
            present = [f for f in changed if os.path.exists(os.path.join(tree, f))]
            out = subprocess.run([mantra, "suggest", "--json", "--limit", limit, *present], cwd=tree,
                                 capture_output=True, text=True).stdout
        top = []
        for line in out.splitlines():
            event = json.loads(line)
            if event.get("kind") == "suggestions":
                top = event["data"]["suggestions"]
        listed = set()
        for s in top:
            path, _, member = s["target"].rpartition(":")
            cls, _, method = member.partition("#")
            listed.add((s["type"], cls.rsplit(".", 1)[-1], method.split("(")[0]))
        for kind, cls, method in labels:
            totals[kind][0] += 1
            hit = (kind.lower().replace(" ", "-"), cls, method) in listed
            totals[kind][1] += hit
        print(f"{sha[:10]}: {len(labels)} label(s), {sum((k.lower().replace(' ', '-'), c, m) in listed for k, c, m in labels)} in the top {limit}", flush=True)
    for t, (n, hits) in totals.items():
        print(f"{t}: {hits}/{n} recall@{limit} {hits / max(n, 1):.3f}")


if __name__ == "__main__":
    main()
