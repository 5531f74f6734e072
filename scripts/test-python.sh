#!/bin/sh
# The Python package's tests (python/tests) for one scalar type, as `make test`
# runs them (scripts/test-all.sh): pip builds the package offline into
# BUILD/python-KIND, where Debian's pytest runs the tests against it, with
# the ikc of BUILD/test-KIND for the tests that compare with the tool.
#   test-python.sh float|double [BUILD]
set -eu
kind=$1
build=${2:-build}
case $kind in
float) double=0 ;;
double) double=1 ;;
*) echo "usage: $0 float|double [BUILD]" >&2; exit 2 ;;
esac
if ! /usr/bin/python3 -c "import numpy, cffi, pytest, setuptools, pip" 2>/dev/null; then
    echo "skipped: python package tests (needs python3-numpy python3-cffi python3-pytest python3-setuptools python3-pip)"
    exit 0
fi
rm -rf "$build/python-$kind"
IKIT_DOUBLE=$double /usr/bin/python3 -m pip install -q --no-build-isolation --no-deps --no-index \
    --disable-pip-version-check --root-user-action=ignore --target "$build/python-$kind" ./python
PYTHONPATH="$(pwd)/$build/python-$kind" IKIT_DATA="${IKIT_DATA:-$(pwd)/../shared/data}" \
    IKC="$(pwd)/$build/test-$kind/ikc" \
    /usr/bin/python3 -m pytest -q -p no:cacheprovider python/tests
