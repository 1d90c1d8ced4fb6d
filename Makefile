# The README's commands. Everything installs what is missing first (Debian packages).
.PHONY: build run test sanitize differential bench fuzz format format-check clean

# Build dynamod (Release) into build/.
build:
	scripts/install-deps.sh build
	scripts/build.sh

# Build, then serve on 127.0.0.1:8000 with data in ./data.
run: build
	build/dynamod --host 127.0.0.1 --port 8000 --data-dir ./data

# Install, build and run every test (what CI runs).
test:
	scripts/test.sh

# Unit and integration tests against an AddressSanitizer + UBSan build (build-asan/); not in CI.
sanitize:
	scripts/sanitize.sh

# Seeded random requests to dynamod and DynamoDB Local, every answer compared; not in CI.
differential:
	scripts/differential.sh

# Build Release (dynamod and its load generator), then compare with DynamoDB Local: bench/README.md.
# RECORD=1 make bench appends the run's summary to bench/RESULTS.md.
bench:
	scripts/install-deps.sh build
	cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DDYNAMOD_BUILD_BENCH=ON >/dev/null
	cmake --build build -j$${JOBS:-2} --target dynamod dynamod-loadgen
	bench/run.sh

# Fuzz the expression parser and the request decoders with libFuzzer, FUZZ_SECONDS (default 60) each.
fuzz:
	scripts/fuzz.sh

# clang-format every tracked C++ file in place (.clang-format; the tree is kept formatted).
format:
	scripts/format.sh

# Fail, showing the diff, when a C++ file is not formatted (make test runs this).
format-check:
	scripts/format.sh --check

clean:
	rm -rf build build-* .venv
