#!/usr/bin/env bash
# Formats the tracked C++ files with clang-format and the tree's .clang-format. The whole tree is
# formatted (one commit did that alone), so a check of every file is also a check of a branch's
# changes, and a file nobody touched never shows up in it.
#   scripts/format.sh           format every tracked .cpp and .h in place (make format)
#   scripts/format.sh --check   list the files that are not formatted, with the diff, and fail
#                               (make format-check; make test runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || scripts/install-deps.sh test
mapfile -t files < <(git ls-files '*.cpp' '*.h')
if [ "${1:-}" != --check ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
unformatted=()
for f in "${files[@]}"; do
  if ! clang-format "$f" | cmp -s - "$f"; then unformatted+=("$f"); fi
done
if [ ${#unformatted[@]} -eq 0 ]; then
  echo "format: all ${#files[@]} C++ files are formatted"
  exit 0
fi
for f in "${unformatted[@]}"; do clang-format "$f" | diff -u --label "$f" --label "$f (formatted)" "$f" - || true; done
echo "format: ${#unformatted[@]} file(s) above are not formatted; run: make format" >&2
exit 1
