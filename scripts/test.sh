#!/usr/bin/env bash
# Sets up the machine, then runs every test: unit tests, the integration test binary, doc tests.
# Exits non-zero when anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh --no-build
cargo test --locked "$@"
