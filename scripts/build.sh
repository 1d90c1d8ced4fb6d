#!/usr/bin/env bash
# Configures and builds dynamod (Release, ccache when present) into build/.
#   BUILD_TYPE=Debug scripts/build.sh   for a debug build
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${JOBS:-2}"
# ccache keys on paths relative to the checkout, so a fresh clone elsewhere (CI's) reuses
# what an earlier build compiled.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
cmake -S . -B build -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" >/dev/null
cmake --build build -j"$jobs"
