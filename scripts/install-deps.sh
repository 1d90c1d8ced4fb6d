#!/usr/bin/env bash
# Installs the Debian packages dynamod needs that are missing.
#   scripts/install-deps.sh build   compilers and libraries
#   scripts/install-deps.sh test    also what the tests use (pytest, boto3, AWS CLI, Node.js, docker-compose,
#                                   clang and its sanitizer runtime for the fuzzers, clang-format (make format),
#                                   Chromium for the console's browser test)
# Runs apt-get as root (or through sudo); does nothing when all is there.
set -euo pipefail
mode="${1:-build}"

build_packages=(g++ cmake make ccache libboost1.81-dev libboost-program-options1.81-dev libsimdjson-dev
  libspdlog-dev libfmt-dev liblmdb-dev libxxhash-dev doctest-dev libssl-dev zlib1g-dev libzstd-dev libhnswlib-dev)
test_packages=(python3 python3-pytest curl docker-compose clang-14 libclang-rt-14-dev clang-format chromium)

packages=("${build_packages[@]}")
if [ "$mode" = test ]; then
  packages+=("${test_packages[@]}")
  # boto3 and the AWS CLI from Debian only where the machine has none of its own.
  python3 -c 'import boto3' 2>/dev/null || packages+=(python3-boto3)
  command -v aws >/dev/null 2>&1 || packages+=(awscli)
  # Node.js from Debian only where the machine has none (NodeSource's nodejs ships npm itself).
  command -v node >/dev/null 2>&1 || packages+=(nodejs)
  command -v npm >/dev/null 2>&1 || packages+=(npm)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
