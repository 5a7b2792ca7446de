#!/usr/bin/env bash
# `mantra suggest --apply-top 5` on a real repository: JFreeChart (LGPL) at 98d9c90 (2026-08), its
# five best suggestions made one after the other, each verified with the project's own tests
# (javac-build.sh with --release 17; CrosshairTest is left out, since it needs EqualsVerifier,
# which Debian does not ship). Measured 2026-12-02: 5 of 5 accepted and written, every test
# passing after each (2,278, 15 skipped); 2 min 11 s to 2 min 52 s on 2 cores (the original's
# build and test run once, 20-25 s; each step's change 22-28 s, most of it compiling; each
# accepted step's run is the next one's baseline).
#
# With PICK=10-20 the eleven listed 10th to 20th are made instead (`--pick`); on 2026-12-04 those
# were all extractions of code written twice (`src/plan/clones.rs`), five with copies replaced;
# 11 of 11 accepted, 2,278 tests passing after each.
#
#   REPO=/path/to/jfreechart-clone MANTRA=target/release/mantra [PICK=10-20] eval/real/suggest-smoke.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=${REPO:?set REPO to a clone of https://github.com/jfree/jfreechart}
mantra=$(realpath "${MANTRA:-target/release/mantra}")
config=$(mktemp --suffix=.toml)
cat > "$config" <<TOML
[build]
compile = "env JAVAC_BUILD_RELEASE=17 bash $here/javac-build.sh compile"
test = "env JAVAC_BUILD_RELEASE=17 bash $here/javac-build.sh test {tests}"
TOML
cd "$repo"
git checkout -q 98d9c90b6
git checkout -q . && git clean -qfd
rm src/test/java/org/jfree/chart/plot/CrosshairTest.java
git -c user.name=smoke -c user.email=smoke@localhost commit -qam "smoke: without the test that needs EqualsVerifier"
if [ -n "${PICK:-}" ]; then
  echo "$PICK" | "$mantra" suggest --config "$config" --pick || echo "suggest exited $?"
else
  "$mantra" suggest --config "$config" --apply-top 5 </dev/null || echo "suggest exited $?"
fi
git diff --stat HEAD
git reset -q --hard HEAD~1 && git clean -qfd
rm -f "$config"
