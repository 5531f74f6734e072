"""Builds the ikit Python package: the library's own C sources (from the
repository around this folder) compiled into one cffi extension, ikit._ikit,
so nothing else needs installing. Offline with Debian's python3-setuptools,
python3-cffi and python3-dev, in a virtual environment that sees them
(`make python` makes one: scripts/python-venv.sh):

    pip install --no-build-isolation --no-index ./python

IKIT_DOUBLE=1 in the environment builds the double-precision library."""
import hashlib
import os
import re
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent.parent


def project_version():
    """The one version number, from project(ikit VERSION x.y.z) in CMakeLists.txt."""
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(ikit VERSION ([0-9.]+)", text).group(1)


# Float and double builds, and builds with other compiler flags, keep their
# objects apart: build_ext sees changed files, not a changed define or flag.
KIND = "double" if os.environ.get("IKIT_DOUBLE", "0") not in ("", "0", "OFF", "off") else "float"
FLAGS = [os.environ.get(name, "") for name in ("CC", "CFLAGS", "LDFLAGS")]
if any(FLAGS):
    KIND += "-" + hashlib.sha1("\0".join(FLAGS).encode()).hexdigest()[:8]

setup(
    name="ikit",
    version=project_version(),
    description="Python bindings of ikit, a C99 inverse-kinematics library",
    packages=["ikit"],
    python_requires=">=3.9",
    install_requires=["numpy", "cffi"],
    cffi_modules=["build_ikit.py:ffibuilder"],
    zip_safe=False,
    options={"build": {"build_base": "build/" + KIND}},
)
