#!/usr/bin/env bash
# Builds the expression parser's libFuzzer target with clang and runs it for a
# bounded time (FUZZ_SECONDS, default 60). Any crash, hang, leak or sanitizer
# report fails the run and leaves the input in build-fuzz/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-60}"
if ! command -v clang++-14 >/dev/null || [ ! -d /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux ]; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends clang-14 libclang-rt-14-dev >/dev/null
fi
mkdir -p build-fuzz/corpus
sources=(tests/fuzz/expression_fuzzer.cpp protocol/expr/*.cpp protocol/attribute_value.cpp protocol/number.cpp
  protocol/api_error.cpp protocol/base64.cpp protocol/attribute_json.cpp protocol/json_reader.cpp
  protocol/json_writer.cpp protocol/table_schema.cpp)
clang++-14 -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I. \
  "${sources[@]}" -lsimdjson -o build-fuzz/expression_fuzzer
cd build-fuzz
./expression_fuzzer -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len=4096 corpus
