#!/usr/bin/env bash
# Compares dynamod with AWS's DynamoDB Local on seeded random requests
# (tests/differential/differential.py): builds dynamod, starts DynamoDB Local in memory on a
# free port, runs one pass per seed, stops it. Any mismatch fails the run; see the tool's help
# for what to do with one. Not part of `make test`: it needs Java and DynamoDB Local.
#
# Environment: SEEDS="1 2 3" OPS=1500 SHAPES="composite hash binary" (the tables of
# tests/differential/shapes.py) WORKLOADS="json partiql control" (PartiQL runs on the composite
# table; control, the table-control workload, on tables of its own, once per seed)
# DDB_LOCAL=<shared>/tools/dynamodb-local; arguments go to the tool (e.g. --show 5).
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test || exit 1
scripts/build.sh || exit 1
python=$(scripts/python-env.sh) || exit 1
if [ -z "${DDB_LOCAL:-}" ]; then
  DDB_LOCAL="$(cd .. && pwd)/shared/tools/dynamodb-local"
  [ -x "$DDB_LOCAL" ] || DDB_LOCAL=/work/shared/tools/dynamodb-local
fi
[ -x "$DDB_LOCAL" ] || { echo "differential.sh: DynamoDB Local not found; set DDB_LOCAL=" >&2; exit 1; }

port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
pid=$("$DDB_LOCAL" "$port" | tail -n 1) || exit 1
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null' EXIT

status=0
for workload in ${WORKLOADS:-json partiql control}; do
  shapes=${SHAPES:-composite hash binary}
  [ "$workload" = json ] || shapes=composite
  for shape in $shapes; do
    for seed in ${SEEDS:-1 2 3}; do
      if [ "$workload" = control ]; then echo "== control workload, seed $seed"; else echo "== $workload workload, $shape table, seed $seed"; fi
      "$python" tests/differential/differential.py --reference "http://127.0.0.1:$port" --workload "$workload" \
        --shape "$shape" --seed "$seed" --ops "${OPS:-1500}" "$@" || status=1
    done
  done
done
exit "$status"
