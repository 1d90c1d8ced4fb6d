#!/usr/bin/env bash
# Prints the path of a Python that has both boto3 and pytest, creating .venv if needed.
#
# The machine's own python3 may have a recent boto3 but no pytest (pyenv images), while
# Debian's python3-pytest lives in /usr/lib/python3/dist-packages. The venv's .pth file
# lists the python3's own site-packages first and Debian's dist-packages after them, so
# it gets both, and a newer boto3 of its own wins over Debian's 1.26 when both exist.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv
if [ ! -x "$venv/bin/python" ]; then
  own_sites=$(python3 -c 'import site; print("\n".join(site.getsitepackages()))')
  python3 -m venv --without-pip "$venv"
  site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  printf '%s\n/usr/lib/python3/dist-packages\n' "$own_sites" > "$site/base-and-debian.pth"
fi
"$venv/bin/python" -c 'import boto3, pytest' >&2
echo "$PWD/$venv/bin/python"
