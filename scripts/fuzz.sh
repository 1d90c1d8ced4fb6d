#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for a bounded time
# (FUZZ_SECONDS, default 60, per target; `make test` runs 20 s each): the expression parser
# (tests/fuzz/expression_fuzzer.cpp), every operation's request decoder
# (tests/fuzz/request_fuzzer.cpp) and PartiQL's parser, checks and translation
# (tests/fuzz/partiql_fuzzer.cpp). Any crash, hang, leak or sanitizer report
# fails the run and leaves the input in build-fuzz/. FUZZ_TARGETS picks some.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-60}"
targets="${FUZZ_TARGETS:-expression_fuzzer request_fuzzer partiql_fuzzer}"
if ! command -v clang++-14 >/dev/null || [ ! -d /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux ]; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends clang-14 libclang-rt-14-dev >/dev/null
fi
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1  # as scripts/build.sh: clones share the cache
compiler=(clang++-14)
command -v ccache >/dev/null && compiler=(ccache clang++-14)
flags=(-std=c++20 -g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -I.)

# The protocol library (no I/O, so the targets link all of it, with what it links: simdjson,
# xxHash for PartiQL's NextToken, zlib and zstd for import objects), compiled once,
# in parallel, ccache keeping what did not change.
objects=build-fuzz/obj
mkdir -p "$objects"
sources=(protocol/*.cpp protocol/expr/*.cpp protocol/partiql/*.cpp)
printf '%s\n' "${sources[@]}" | xargs -P "${JOBS:-2}" -I{} sh -c \
  'out="$0/$(echo "{}" | tr / _).o"; exec "$@" -c "{}" -o "$out"' "$objects" "${compiler[@]}" "${flags[@]}"

for target in $targets; do
  echo "== $target: building"
  "${compiler[@]}" "${flags[@]}" -fsanitize=fuzzer "tests/fuzz/$target.cpp" "$objects"/*.o -lsimdjson -lxxhash -lz -lzstd \
    -o "build-fuzz/$target"
  # New inputs go to build-fuzz/corpus-<target>; checked-in seeds and a dictionary
  # (tests/fuzz/<name>_seeds/, tests/fuzz/<name>.dict) start it on valid requests.
  name="${target%_fuzzer}"
  corpora=("build-fuzz/corpus-$target")
  options=()
  [ -d "tests/fuzz/${name}_seeds" ] && corpora+=("tests/fuzz/${name}_seeds")
  [ -f "tests/fuzz/$name.dict" ] && options+=("-dict=tests/fuzz/$name.dict")
  mkdir -p "build-fuzz/corpus-$target"
  echo "== $target: fuzzing for ${seconds}s"
  "build-fuzz/$target" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len=4096 \
    -artifact_prefix=build-fuzz/ "${options[@]}" "${corpora[@]}"
done
