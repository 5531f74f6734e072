#!/bin/sh
# Builds and runs the whole test suite in four configurations:
#   float, double (both with -Werror), and both under ASan + UBSan;
# then compiles the core layers for wasm32-wasi and tests the browser playground.
set -eu
build=${1:-build}
jobs=${2:-2}

run() {
    name=$1; shift
    echo "==> $name"
    cmake -S . -B "$build/$name" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIKIT_WERROR=ON "$@" >/dev/null
    cmake --build "$build/$name" -j "$jobs"
    (cd "$build/$name" && ctest --output-on-failure -j "$jobs")
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
# Leaks in system libraries (fontconfig's caches) only; ikit's own still fail.
export LSAN_OPTIONS="suppressions=$(pwd)/scripts/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# Benchmarks are built (not run) once, so their code stays warning-free too.
# The shared libraries too, so that the install test (tests/install/) links
# the example against both kinds, in float and in double.
run test-float -DIKIT_SHARED=ON
run test-double -DIKIT_DOUBLE=ON -DIKIT_BENCH=OFF -DIKIT_SHARED=ON
run test-float-asan -DIKIT_SANITIZE=ON -DIKIT_BENCH=OFF
run test-double-asan -DIKIT_DOUBLE=ON -DIKIT_SANITIZE=ON -DIKIT_BENCH=OFF
# The Python package (python/), float and double: pip builds it offline into
# a throwaway folder under the build directory, where Debian's pytest runs
# python/tests against it.
python_tests() {
    kind=$1; shift
    echo "==> python-$kind"
    if ! /usr/bin/python3 -c "import numpy, cffi, pytest, setuptools, pip" 2>/dev/null; then
        echo "skipped: python package tests (needs python3-numpy python3-cffi python3-pytest python3-setuptools python3-pip)"
        return 0
    fi
    rm -rf "$build/python-$kind"
    env "$@" /usr/bin/python3 -m pip install -q --no-build-isolation --no-deps --no-index \
        --disable-pip-version-check --root-user-action=ignore --target "$build/python-$kind" ./python
    PYTHONPATH="$(pwd)/$build/python-$kind" IKIT_DATA="${IKIT_DATA:-$(pwd)/../shared/data}" \
        IKC="$(pwd)/$build/test-$kind/ikc" \
        /usr/bin/python3 -m pytest -q -p no:cacheprovider python/tests
}
python_tests float IKIT_DOUBLE=0
python_tests double IKIT_DOUBLE=1
# The README's Python block, run as written in a fresh copy of the project,
# offline, then the package it installed imported and used in that shell.
echo "==> the README's Python block"
/usr/bin/python3 tests/install/readme_python.py
# The core layers (math to motion) must build unchanged for WebAssembly.
echo "==> core layers for wasm32-wasi"
for f in src/math/*.c src/skeleton/*.c src/anim/*.c src/solve/*.c src/rig/*.c src/robot/*.c src/motion/*.c; do
    [ -e "$f" ] || continue
    clang --target=wasm32-wasi -std=c99 -O2 -Wall -Wextra -Wpedantic -Werror -Iinclude -c "$f" -o /dev/null
done
echo "wasm32-wasi: core layers compile"
# The browser playground: ikit.wasm and the page built, then driven in
# headless Chromium (tests/js/playground.mjs says "skipped" without it).
echo "==> browser playground (web/)"
if ! command -v node >/dev/null 2>&1; then
    echo "playground: skipped: node not found"
elif ! ./scripts/web-deps.sh >/dev/null; then
    echo "playground: skipped: three and playwright-core could not be installed from npm"
else
    ./scripts/build-web.sh "$build/web"
    node tests/js/playground.mjs "$build/web"
fi
echo "all configurations passed"
