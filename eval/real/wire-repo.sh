#!/usr/bin/env bash
# Code wiring on a whole real repository (`cargo run --release --example eval_wire_repo`): every
# private method with parameters pasted at each of its calls in its own class with its own
# names, bound with no model, scored against the arguments the calls passed.
#
#   REPO=/path/to/jsoup-clone eval/real/wire-repo.sh                       # jsoup (MIT) at 6e3c98c4
#   REPO=/path/to/jfreechart-clone PROJECT=jfreechart eval/real/wire-repo.sh  # JFreeChart (LGPL) at 98d9c90b
#
# Measured 2026-12-03 (figures in eval/real/README.md): jsoup 205 cases, precision 0.757 (28/37),
# recall 0.275 of 102 bindable; JFreeChart 489 cases, precision 0.867 (52/60), recall 0.208 of
# 250 bindable.
set -euo pipefail
repo=${REPO:?set REPO to a clone of https://github.com/jhy/jsoup or https://github.com/jfree/jfreechart}
project=${PROJECT:-jsoup}
case "$project" in
  jsoup) commit=6e3c98c4a578fb7910241e72a5a33014bb8e85f1 ;;
  jfreechart) commit=98d9c90b6e0a1e553a506497daaf64a5704a4413 ;;
  *) echo "PROJECT is jsoup or jfreechart, not '$project'" >&2; exit 2 ;;
esac
git -C "$repo" checkout -q "$commit"
cargo run --release -q --example eval_wire_repo -- "$repo" "$project"
