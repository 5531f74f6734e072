"""How the extension ikit._ikit is compiled, and its cffi declarations.

Why cffi (API mode) rather than the CPython C API: the extension is still
compiled C that includes ikit's real headers, so every struct is laid out
by the C compiler, while the Python side stays a thin layer of plain Python
calls with no hand-written argument parsing per function. cffi releases the
GIL around each call. numpy arrays reach C through ffi.from_buffer without
copies.

The declarations are not written here: cdef_from_headers.py makes them from
the public headers at build time (the C preprocessor over csrc/ikit_python.h
with this build's IKIT_DOUBLE), so every struct, enum, function and constant
Python sees is the header's own. python/tests/test_cdef.py checks a built
package against the headers beside it.

The extension compiles the library's own sources (src/ of the repository
around this folder), so no installed libikit is needed; the io layer links
Debian's libcjson as the CMake build does.
"""
import os
import subprocess
import sys
from pathlib import Path

from cffi import FFI

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cdef_from_headers  # noqa: E402 (beside this file, which setuptools runs by path)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DOUBLE = os.environ.get("IKIT_DOUBLE", "0") not in ("", "0", "OFF", "off")

# The layers the CMake build puts in libikit and libikit_io (src/CMakeLists.txt).
LAYERS = ["math", "skeleton", "solve", "anim", "rig", "robot", "motion", "io"]


def pkg_config(flag, package):
    """Flags from pkg-config, as the CMake build takes them (pkg_check_modules)."""
    out = subprocess.run(["pkg-config", flag, package], check=True, capture_output=True, text=True).stdout
    return out.split()


def library_sources():
    sources = [str(ROOT / "src" / "version.c")]
    for layer in LAYERS:
        sources += sorted(str(p) for p in (ROOT / "src" / layer).glob("*.c"))
    return sources + sorted(str(p) for p in (HERE / "csrc").glob("*.c"))


def library_headers():
    """Every header the sources include, so a changed one rebuilds the extension."""
    headers = list((ROOT / "include" / "ikit").glob("*.h")) + list((ROOT / "src").glob("*/*.h"))
    return sorted(str(p) for p in headers + list((HERE / "csrc").glob("*.h")))


generated = HERE / "build" / ("double" if DOUBLE else "float") / "generated"
cdef, include_dirs, defines = cdef_from_headers.package_cdef(ROOT, generated, DOUBLE)
cflags = pkg_config("--cflags", "libcjson")
libs = pkg_config("--libs", "libcjson")

ffibuilder = FFI()
ffibuilder.cdef(cdef)
ffibuilder.set_source(
    "ikit._ikit",
    '#include "ikit_python.h"\n',
    sources=library_sources(),
    depends=library_headers(),
    include_dirs=[str(d) for d in include_dirs],
    define_macros=defines,
    # -fno-math-errno as the CMake build compiles the core (src/CMakeLists.txt).
    extra_compile_args=["-O2", "-fno-math-errno"] + [f for f in cflags if f.startswith("-I")],
    extra_link_args=libs + ["-lm"],
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
