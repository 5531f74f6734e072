#!/bin/sh
# Builds and runs the whole test suite (README.md, "Tests"):
#   every C file formatted as .clang-format says;
#   float and double (both with -Werror), then both under ASan + UBSan;
#   the Python package (float and double) and the README's Python block;
#   the Blender add-on in a headless Blender, where Blender is installed;
#   the core layers compiled for wasm32-wasi; the browser playground.
# Every configuration builds everything and runs the library's tests. The
# end-to-end tests of ikc (ctest label ikc) run in float, double and float
# under ASan; their long sweeps (label slow) in float only.
#   scripts/test-all.sh [BUILD [JOBS [check]]]
# With `check` (make check): the float configuration alone.
set -eu
build=${1:-build}
jobs=${2:-2}
only=${3:-}

# One configuration: configured (with Ninja where it is installed, unless the
# folder was configured before, whose generator stays), built with FLAGS,
# then ctest with the label filter given (empty: every test).
# Line tables (-g1) are all a failure's stack trace needs; full debug
# information took a third of a build's compile time. Under the sanitizers
# -O1 (as their manuals advise): their checks at -O2 took over twice as long
# to compile.
PLAIN_FLAGS="-O2 -g1 -DNDEBUG"
SANITIZED_FLAGS="-O1 -g1 -DNDEBUG"
run() {
    name=$1 labels=$2 flags=$3
    shift 3
    echo "==> $name${labels:+ (ctest $labels)}"
    generator=""
    if [ ! -f "$build/$name/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then
        generator="-G Ninja"
    fi
    # shellcheck disable=SC2086
    cmake -S . -B "$build/$name" $generator -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIKIT_WERROR=ON \
        "-DCMAKE_C_FLAGS_RELWITHDEBINFO=$flags" "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$flags" "$@" >/dev/null
    built_from=$(date +%s)
    cmake --build "$build/$name" -j "$jobs"
    tested_from=$(date +%s)
    # shellcheck disable=SC2086
    (cd "$build/$name" && ctest --output-on-failure -j "$jobs" $labels)
    echo "$name: built in $((tested_from - built_from)) s, tested in $(($(date +%s) - tested_from)) s"
}

started=$(date +%s)
# Every C file as .clang-format says, before anything is built.
./scripts/check-format.sh

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
# Leaks in system libraries (fontconfig's caches) only; ikit's own still fail.
export LSAN_OPTIONS="suppressions=$(pwd)/scripts/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# Benchmarks are built (not run) once, so their code stays warning-free too.
# The shared libraries too, so that the install test (tests/install/) links
# the example against both kinds, in float and in double.
run test-float "" "$PLAIN_FLAGS" -DIKIT_SHARED=ON
if [ "$only" = check ]; then
    echo "float configuration passed (make test runs the rest)"
    exit 0
fi
# Stages that run beside the configurations: each in a process group of its
# own (setsid) that ends if this script stops first; a stage's output goes to
# BUILD/NAME.log and is shown when the stage is collected.
beside_groups=""
stop_beside() {
    for group in $beside_groups; do kill -- "-$group" 2>/dev/null || true; done
}
trap stop_beside EXIT
trap 'exit 130' INT TERM
beside() {
    log=$build/$1.log
    shift
    setsid "$@" >"$log" 2>&1 &
    beside_groups="$beside_groups $!"
    beside_pid=$!
}
# Wait for the stage with process PID and log NAME, show its output under
# TITLE, stop on its failure.
collect() {
    echo "==> $3"
    status=0
    wait "$1" || status=$?
    cat "$build/$2.log"
    [ "$status" -eq 0 ] || exit "$status"
}

# The Python package (python/), float then double, each with the ikc of its
# configuration (scripts/test-python.sh: pip builds it offline, Debian's
# pytest runs python/tests); one pip build at a time, as both write python/.
beside python-float ./scripts/test-python.sh float "$build"
python_pid=$beside_pid
# The README's Python block, run as written in a fresh copy of the project,
# offline, then the package it installed imported and used in that shell.
beside readme-python /usr/bin/python3 tests/install/readme_python.py
readme_pid=$beside_pid
# The browser playground's ikit.wasm and page (scripts/build-web.sh), built
# here; tested at the end.
web_pid=""
if ! command -v node >/dev/null 2>&1; then
    web_skipped="playground: skipped: node not found"
elif ! ./scripts/web-deps.sh >/dev/null; then
    web_skipped="playground: skipped: three and playwright-core could not be installed from npm"
else
    beside web-build ./scripts/build-web.sh "$build/web"
    web_pid=$beside_pid
fi

# The long sweeps of ikc (thousands of runs of paths the other groups run
# too) in the float configuration only.
run test-double "-LE slow" "$PLAIN_FLAGS" -DIKIT_DOUBLE=ON -DIKIT_BENCH=OFF -DIKIT_SHARED=ON
collect "$python_pid" python-float python-float
beside python-double ./scripts/test-python.sh double "$build"
python_pid=$beside_pid
# The Blender add-on in a real headless Blender (scripts/test-blender.sh, which
# says it skipped where Blender is not installed), with the float package
# just built and the float ikc, beside the sanitized configurations.
beside blender ./scripts/test-blender.sh "$build"
blender_pid=$beside_pid
# Under the sanitizers: float without the sweeps, double the library's tests.
run test-float-asan "-LE slow" "$SANITIZED_FLAGS" -DIKIT_SANITIZE=ON -DIKIT_BENCH=OFF
run test-double-asan "-LE ikc" "$SANITIZED_FLAGS" -DIKIT_DOUBLE=ON -DIKIT_SANITIZE=ON -DIKIT_BENCH=OFF
collect "$python_pid" python-double python-double
collect "$readme_pid" readme-python "the README's Python block"
# The Blender add-on's stage ends before the playground starts (it keeps both cores busy).
collect "$blender_pid" blender "the Blender add-on (blender/, tests/blender)"
# The playground driven in headless Chromium (tests/js/playground.mjs says
# "skipped" without it), last and with the machine nearly to itself: some of
# its checks sample frames of a running animation, which a busy machine
# spaces further apart. Only the one-core wasm compile below runs beside it.
if [ -n "$web_pid" ]; then
    collect "$web_pid" web-build "the playground's build (web/)"
    beside playground node tests/js/playground.mjs "$build/web"
    web_pid=$beside_pid
fi
# The core layers (math to motion) must build unchanged for WebAssembly.
echo "==> core layers for wasm32-wasi"
for f in src/math/*.c src/skeleton/*.c src/anim/*.c src/solve/*.c src/rig/*.c src/robot/*.c src/motion/*.c; do
    [ -e "$f" ] || continue
    clang --target=wasm32-wasi -std=c99 -O2 -Wall -Wextra -Wpedantic -Werror -Iinclude -c "$f" -o /dev/null
done
echo "wasm32-wasi: core layers compile"
if [ -n "$web_pid" ]; then
    collect "$web_pid" playground "browser playground (web/)"
else
    echo "==> browser playground (web/)"
    echo "$web_skipped"
fi
trap - EXIT INT TERM
echo "all configurations passed in $(($(date +%s) - started)) s"
