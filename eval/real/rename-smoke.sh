#!/usr/bin/env bash
# `mantra rename` on a real repository: renames a class (20 files), fields, a nested class, a
# top-level class with its file and an overloaded method across jsoup (MIT) at 6e3c98c4
# (2020-12-11, the newest commit of eval/real/jsoup.commits whose baseline builds offline here),
# then compiles and runs the tests with javac-build.sh. Measured 2026-11-26: every rename
# applied, the project compiled, 789 of 790 runnable tests passed; the one failure
# (ConnectTest.handlesUnknownEscapesAcrossBuffer) needs the network and fails without the renames too.
#
#   REPO=/path/to/jsoup-clone MANTRA=target/release/mantra eval/real/rename-smoke.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=${REPO:?set REPO to a clone of https://github.com/jhy/jsoup}
mantra=$(realpath "${MANTRA:-target/release/mantra}")
cd "$repo"
git checkout -q 6e3c98c4a578fb7910241e72a5a33014bb8e85f1
git checkout -q . && git clean -qfd
r() { "$mantra" rename "$@" --apply --no-verify | tail -1; }
r src/main/java/org/jsoup/nodes/TextNode.java --old TextNode --name PlainTextNode
r src/main/java/org/jsoup/nodes/Attribute.java --old key --kind field --name attrKey
r src/main/java/org/jsoup/nodes/Element.java --old tag --kind field --name elementTag
r src/main/java/org/jsoup/parser/Tokeniser.java --old reader --kind field --name input
r src/main/java/org/jsoup/parser/HtmlTreeBuilderState.java --old HtmlTreeBuilderState --name TreeBuilderState
r src/main/java/org/jsoup/select/Evaluator.java --old Tag --kind class --name TagIs
r src/main/java/org/jsoup/helper/Validate.java --old notNull --method 'notNull(Object)' --name requireNonNull
bash "$here/javac-build.sh" compile
bash "$here/javac-build.sh" test || true   # one test needs the network
git checkout -q . && git clean -qfd
