# The README's commands. Everything installs what is missing first (Debian packages).
.PHONY: build run test bench clean

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

clean:
	rm -rf build build-* .venv
