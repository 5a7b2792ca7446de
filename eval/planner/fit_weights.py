#!/usr/bin/env python3
"""Would other weights of the Extract Method planner's score components pick the human's fragment
more often on code they were not fitted on?

    rm -f target/planner-candidates.jsonl
    PLANNER_DUMP=target/planner-candidates.jsonl cargo run --release --example eval_planner_extract
    python3 eval/planner/fit_weights.py target/planner-candidates.jsonl

The dump holds, per PureRefactor Extract Method record, every candidate the planner ranks with its
score components. This script re-ranks them with the weights of `src/plan/extract.rs` (`WEIGHTS`
and the shape values of `score`), then fits weights on two projects by coordinate ascent on
top-1 + top-3 / 2 and scores them on the third, for each project in turn (leave one project out).
A hit is a candidate covering the human's lines by at least 80 % (as the example counts).
"""
import json
import random
import sys

NUM = ["size", "cohesion", "params", "outputs", "nesting"]
BASE = {"size": 0.25, "cohesion": 0.10, "params": 0.25, "outputs": 0.10, "nesting": 0.10}
SHAPE = {"comment run": 1.0, "window": 0.5, "window across paragraphs": 0.2, "paragraph": 0.8}


def overlap(a, b):
    shared = max(0, min(a[1], b[1]) + 1 - max(a[0], b[0]))
    return shared / max(a[1] + 1 - a[0], b[1] + 1 - b[0])


def evaluate(rows, w, shape):
    top1 = top3 = 0
    for r in rows:
        cs = r["candidates"]
        order = sorted(range(len(cs)), key=lambda i: (-round(sum(w[k] * cs[i]["components"][k] for k in NUM) + shape[cs[i]["shape"]], 9), i))
        top1 += bool(order) and cs[order[0]]["hit"]
        top3 += any(cs[i]["hit"] for i in order[:3])
    return top1 / max(len(rows), 1), top3 / max(len(rows), 1)


def fit(rows, shapes, seed=0):
    rnd = random.Random(seed)
    w = dict(BASE)
    shape = {s: 0.20 * SHAPE.get(s, 0.9) for s in shapes}
    objective = lambda: (lambda t: t[0] + 0.5 * t[1])(evaluate(rows, w, shape))
    best = objective()
    for _ in range(6):
        improved = False
        keys = [(w, k, 0.0) for k in NUM] + [(shape, s, -1.0) for s in shapes]
        rnd.shuffle(keys)
        for table, k, floor in keys:
            for step in (-0.2, -0.1, -0.05, 0.05, 0.1, 0.2):
                old = table[k]
                table[k] = max(floor, old + step)
                value = objective()
                if value > best + 1e-9:
                    best, improved = value, True
                else:
                    table[k] = old
        if not improved:
            break
    return w, shape


def main():
    rows = [json.loads(line) for line in open(sys.argv[1])]
    for r in rows:
        for c in r["candidates"]:
            c["hit"] = overlap(c["lines"], r["human"]) >= 0.8
    shapes = sorted({c["shape"] for r in rows for c in r["candidates"]})
    current = {s: 0.20 * SHAPE.get(s, 0.9) for s in shapes}
    fmt = lambda t: f"top-1 {t[0]:.3f} top-3 {t[1]:.3f}"
    print(f"every candidate the planner ranks holds the human's lines in {sum(any(c['hit'] for c in r['candidates']) for r in rows)} of {len(rows)} records")
    for p in sorted({r["project"] for r in rows}):
        train = [r for r in rows if r["project"] != p]
        test = [r for r in rows if r["project"] == p]
        w, shape = fit(train, shapes)
        print(f"{p}: current weights {fmt(evaluate(test, BASE, current))}; fitted on the others {fmt(evaluate(test, w, shape))} (on their own data {fmt(evaluate(train, w, shape))})")


if __name__ == "__main__":
    main()
