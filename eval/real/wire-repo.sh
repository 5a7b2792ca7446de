#!/usr/bin/env bash
# Code wiring on a whole real repository (`cargo run --release --example eval_wire_repo`): every
# private method with parameters of jsoup (MIT) at 6e3c98c4 (2020-12-11) pasted at each of its
# calls in its own class with its own names, bound with no model, scored against the arguments
# the calls passed. Measured 2026-12-02: 205 cases; precision 0.718 (28/39), recall 0.275 of 102
# bindable arguments (0.102 of all 274), 1.7 s.
#
#   REPO=/path/to/jsoup-clone eval/real/wire-repo.sh
set -euo pipefail
repo=${REPO:?set REPO to a clone of https://github.com/jhy/jsoup}
git -C "$repo" checkout -q 6e3c98c4a578fb7910241e72a5a33014bb8e85f1
cargo run --release -q --example eval_wire_repo -- "$repo" jsoup
