#!/usr/bin/env bash
# Replays the move-family refactorings of real repositories with their real tests (see README.md).
#
#   eval/real/run.sh [--only NAME] [oracle|planner]...   replay (both modes when none is named)
#   eval/real/run.sh --mine NAME                          list NAME's commits with pure move-family
#                                                         refactorings (NAME: a *.commits file here)
#
# MANTRA (default: target/release/mantra), OUT (default: target/real-eval), JOBS (default: 2),
# REPOS (a folder of existing clones named as the *.commits files; default: OUT/repos, where
# missing ones are cloned from the URL in the commits file's `# repository:` line).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mantra=${MANTRA:-$root/target/release/mantra}
out=${OUT:-$root/target/real-eval}
jobs=${JOBS:-2}
repos=${REPOS:-$out/repos}
types=move-method,extract-and-move-method,move-and-rename-method,move-and-inline-method
[ -x "$mantra" ] || { echo "error: $mantra is missing; run \`cargo build --release\` first" >&2; exit 2; }
mkdir -p "$out" "$repos"
# The jars javac-build.sh compiles against (idempotent; quiet when they are there).
"$root/scripts/setup.sh" --no-build --real-eval

# The clone of NAME, cloned first if missing.
clone() {
    local name=$1 url
    if [ ! -d "$repos/$name/.git" ]; then
        url=$(sed -n 's/^# repository: *//p' "$here/$name.commits")
        git clone --quiet "$url" "$repos/$name" || {
            echo "error: cannot clone $url; put a clone at $repos/$name (or set REPOS)" >&2
            exit 2
        }
    fi
    echo "$repos/$name"
}

if [ "${1:-}" = "--mine" ]; then
    [ -n "${2:-}" ] || { echo "usage: $0 --mine NAME" >&2; exit 2; }
    repo=$(clone "$2")
    # Every non-merge commit, compared with its parent by the detector.
    for c in $(git -C "$repo" rev-list --no-merges HEAD); do
        "$mantra" --repo "$repo" detect --commit "$c" --json 2>/dev/null | python3 -c '
import json, sys
kinds = ("Move Method", "Extract And Move Method", "Move And Rename Method", "Move And Inline Method")
for line in sys.stdin:
    event = json.loads(line)
    if event.get("kind") != "refactorings":
        continue
    for commit in event["data"]["commits"]:
        n = sum(1 for r in commit["refactorings"] if r["type"] in kinds and r.get("pure"))
        if n:
            print(commit["sha1"], n)
'
    done
    exit 0
fi

only=
if [ "${1:-}" = "--only" ]; then
    only=${2:?usage: $0 --only NAME}
    shift 2
fi
modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(oracle planner)
config=$out/javac-build.toml
cat > "$config" <<TOML
[build]
compile = "bash $here/javac-build.sh compile"
test = "bash $here/javac-build.sh test {tests}"
TOML
for commits in "$here"/*.commits; do
    name=$(basename "$commits" .commits)
    [ -z "$only" ] || [ "$only" = "$name" ] || continue
    repo=$(clone "$name")
    for mode in "${modes[@]}"; do
        "$mantra" --repo "$repo" batch --commits "$commits" --config "$config" --type "$types" \
            --spec "$mode" --jobs "$jobs" --out "$out/$name-$mode" --resume
    done
done
python3 "$here/score.py" "$out"/*-oracle/results.jsonl "$out"/*-planner/results.jsonl 2>/dev/null || true
