# Short commands over the CMake build. See README.md.
BUILD      ?= build
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_GEN  = cmake -S . -DCMAKE_BUILD_TYPE=Release

.PHONY: all deps demo python blender-addon test check format gltf-validator bench fuzz fuzz-long clean web web-build

all: deps
	$(CMAKE_GEN) -B $(BUILD)/release >/dev/null
	cmake --build $(BUILD)/release -j $(JOBS)

deps:
	@./scripts/install-deps.sh

# The same build as `all` with one progress line (the compiler's output goes
# to $(BUILD)/release/build.log), then the showcase into out/ (scripts/demo.sh).
demo: deps
	@./scripts/demo.sh $(BUILD) $(JOBS)

# The Python package, built from the library's sources into a virtual
# environment that sees Debian's numpy and cffi (scripts/python-venv.sh);
# `. $(VENV)/bin/activate` then makes it the shell's python3.
VENV ?= $(BUILD)/venv
python: deps
	@./scripts/python-venv.sh $(VENV)

# The Blender add-on (blender/ikit_blender) with the Python package built
# into it: $(BUILD)/ikit_blender.zip (docs/blender.md).
blender-addon: deps
	@./scripts/build-blender-addon.sh $(BUILD)

# Every test four ways: float and double with warnings as errors, then both
# again under AddressSanitizer + UndefinedBehaviorSanitizer; then the Python
# package, the core layers compiled for WebAssembly and the playground
# (scripts/test-all.sh says which checks run where).
test: gltf-validator
	@./scripts/test-all.sh $(BUILD) $(JOBS)

# The edit-test loop: the float configuration of `make test` alone (the same
# build folder, warnings as errors, every ctest), no sanitizers, Python or browser.
check: gltf-validator
	@./scripts/test-all.sh $(BUILD) $(JOBS) check

# Every C file reformatted as .clang-format says (make test and make check
# fail on a file that is not: scripts/check-format.sh).
format: deps
	@./scripts/check-format.sh fix

# The Khronos glTF validator (npm), installed once where npm is present;
# without it the tests that use it say they skipped.
gltf-validator: deps
	@[ -f node_modules/gltf-validator/package.json ] || ! command -v npm >/dev/null 2>&1 || \
	  ./scripts/validate-gltf.sh --install >/dev/null 2>&1 || echo "note: gltf-validator not installed"

IKIT_DATA ?= $(CURDIR)/../shared/data
bench: all
	@mkdir -p $(BUILD)/bench-results
	@for b in $(BUILD)/release/bench_*; do \
	  echo "== $$b"; (cd $(BUILD)/bench-results && IKIT_DATA=$(IKIT_DATA) ../../$$b) || exit 1; done
	@echo "CSV files are in $(BUILD)/bench-results/"

# Each libFuzzer entry point for FUZZ_SECONDS, from the generated seeds
# (plus examples and the small real assets) with its dictionary.
FUZZ_SECONDS ?= 30
fuzz: deps
	@./scripts/fuzz.sh $(BUILD) $(FUZZ_SECONDS)

# Each entry point for FUZZ_RUNS executions (10 million: hours per parser on
# two cores; see README.md for the rates). Counts are in build/fuzz/summary.txt.
FUZZ_RUNS ?= 10000000
fuzz-long: deps
	@FUZZ_RUNS=$(FUZZ_RUNS) ./scripts/fuzz.sh $(BUILD)

# The browser playground: the core layers and the page's C API (web/*.c) compiled to
# WebAssembly with Debian's clang, the page and three.js (npm) in
# $(BUILD)/web, served on http://localhost:$(WEB_PORT)/ (Ctrl-C stops it).
WEB_PORT ?= 8077
web-build: deps
	@./scripts/build-web.sh $(BUILD)/web

web: web-build
	@node web/serve.mjs $(BUILD)/web $(WEB_PORT)

clean:
	rm -rf $(BUILD)
