#!/bin/sh
# The Blender add-on's tests (tests/blender), as `make test` runs them
# (scripts/test-all.sh): the add-on zip built (scripts/build-blender-addon.sh),
# then each test file in its own headless Blender, installing the zip as a
# user's script does, with the ikc of BUILD/test-float for the comparisons.
# Blender is optional: scripts/install-deps.sh blender installs Debian's
# (tried here first); where it cannot, the tests say they skipped.
#   test-blender.sh [BUILD]
set -eu
build=${1:-build}
# Debian's Blender, installed here where it can be (as root, or with sudo)
command -v blender >/dev/null 2>&1 || ./scripts/install-deps.sh blender >&2 || true
if ! command -v blender >/dev/null 2>&1; then
    echo "skipped: Blender add-on tests (no blender on PATH; scripts/install-deps.sh blender installs Debian's)"
    exit 0
fi
# the float package test-python.sh built, where it did
[ -d "$build/python-float/ikit" ] && export IKIT_PYTHON_BUILT="$(pwd)/$build/python-float"
./scripts/build-blender-addon.sh "$build"
export IKIT_BLENDER_ZIP="$(pwd)/$build/ikit_blender.zip"
export IKIT_DATA="${IKIT_DATA:-$(pwd)/../shared/data}"
[ -x "$build/test-float/ikc" ] && export IKC="$(pwd)/$build/test-float/ikc"
# Blender's own user folder for the add-on it installs, not the user's
export BLENDER_USER_CONFIG="$(pwd)/$build/blender-user/config"
export BLENDER_USER_SCRIPTS="$(pwd)/$build/blender-user/scripts"
mkdir -p "$BLENDER_USER_CONFIG" "$BLENDER_USER_SCRIPTS"
for test in tests/blender/test_*.py; do
    echo "== $test"
    started=$(date +%s)
    log=$build/blender-$(basename "$test" .py).log
    if ! blender -b --factory-startup --python-exit-code 1 --python "$test" >"$log" 2>&1; then
        cat "$log"
        echo "FAILED: $test (log: $log)"
        exit 1
    fi
    # the checks and figures, without Blender's own chatter
    grep -E '^(ok|FAIL|skipped|all checks|      )' "$log" | grep -v 'CANCELLED, scene unchanged' || true
    echo "$test: passed in $(($(date +%s) - started)) s"
done
