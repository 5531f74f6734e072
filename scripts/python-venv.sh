#!/bin/sh
# `make python`: the Python package built and installed into a virtual
# environment (default build/venv) that also sees Debian's own python3-numpy
# and python3-cffi (--system-site-packages), so nothing comes from PyPI and
# Debian 12's rule against pip in the system's Python (PEP 668,
# "externally-managed-environment") does not apply. Offline: pip is told
# not to look for an index, and every build requirement is Debian's.
# IKIT_DOUBLE=1 in the environment gives the double build.
#   python-venv.sh [VENV]
set -eu
venv=${1:-build/venv}

# Debian's interpreter, whatever python3 comes first on PATH (pyenv, conda):
# only it sees the python3-* packages install-deps.sh installed.
python=/usr/bin/python3
if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
    echo "ikit: $python has no venv module; install python3-venv (make deps does)" >&2
    exit 1
fi
if [ ! -x "$venv/bin/python3" ]; then
    "$python" -m venv --system-site-packages "$venv"
fi

kind=float
case "${IKIT_DOUBLE:-0}" in '' | 0 | OFF | off) ;; *) kind=double ;; esac
echo "ikit: building the Python package ($kind) into $venv (about a minute the first time)..."
"$venv/bin/python3" -m pip install -q --no-build-isolation --no-index --disable-pip-version-check ./python

version=$("$venv/bin/python3" -c 'import ikit; print(ikit.__version__)')
echo "ikit $version ($kind) is installed in $venv. In each shell that uses it:"
echo "  . $venv/bin/activate"
