#!/usr/bin/env bash
# Checks the docker files without a Docker engine (none runs on CI machines):
# the compose files are valid, and the image is built by the same scripts as `make build`.
set -euo pipefail
cd "$(dirname "$0")/../.."
docker-compose -f docker/docker-compose.yml config -q
# The README's example of an application service that depends on dynamod.
docker-compose -f docker/docker-compose.yml -f docker/docker-compose.app-example.yml config -q
grep -q '^RUN scripts/install-deps.sh build$' docker/Dockerfile
grep -q 'scripts/build.sh' docker/Dockerfile
grep -q '^HEALTHCHECK' docker/Dockerfile
grep -q '^EXPOSE 8000$' docker/Dockerfile
grep -q '^USER ' docker/Dockerfile
echo "docker files: ok"
