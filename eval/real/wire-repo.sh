#!/usr/bin/env bash
# Code wiring on a whole real repository (`cargo run --release --example eval_wire_repo`): every
# private method with parameters of jsoup (MIT) at 6e3c98c4 (2020-12-11) pasted at each of its
# calls in its own class with its own names, bound with no model, scored against the arguments
# the calls passed. Measured 2026-11-27: 248 cases; precision 0.702 (40/57), recall 0.315 of 127
# bindable arguments (0.120 of all 332), 4.1 s.
#
#   REPO=/path/to/jsoup-clone eval/real/wire-repo.sh
set -euo pipefail
repo=${REPO:?set REPO to a clone of https://github.com/jhy/jsoup}
git -C "$repo" checkout -q 6e3c98c4a578fb7910241e72a5a33014bb8e85f1
cargo run --release -q --example eval_wire_repo -- "$repo" jsoup
