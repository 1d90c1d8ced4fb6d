#!/usr/bin/env bash
# Formats, with clang-format and the tree's .clang-format, the C++ lines this branch changed:
# those that differ between the working tree and the merge base with main (FORMAT_BASE, default
# main, else origin/main; HEAD when neither exists). Lines nobody touched are left as they are.
#   scripts/format.sh           format them in place (make format)
#   scripts/format.sh --check   print what it would change and fail if anything (make format-check)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v git-clang-format >/dev/null || scripts/install-deps.sh test
base=""
for ref in ${FORMAT_BASE:-main origin/main}; do
  base=$(git merge-base HEAD "$ref" 2>/dev/null) && break
done
[ -n "$base" ] || base=HEAD
args=(--binary clang-format --extensions cpp,h "$base")
if [ "${1:-}" = --check ]; then
  out=$(git clang-format --diff "${args[@]}")
  case "$out" in
    "" | "no modified files to format" | "clang-format did not modify any files")
      echo "format: the lines changed since $(git rev-parse --short "$base") are formatted"
      ;;
    *)
      printf '%s\n' "$out"
      echo "format: the lines above are not formatted; run: make format" >&2
      exit 1
      ;;
  esac
else
  git clang-format --force "${args[@]}"
fi
