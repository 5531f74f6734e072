#!/bin/sh
# `make blender-addon`: BUILD/ikit_blender.zip, the Blender add-on
# (blender/ikit_blender) with the ikit Python package built into its lib/
# folder, for Blender's Python: Debian's Blender 3.4 runs the system
# /usr/bin/python3 (3.11) with Debian's numpy and cffi, so pip builds the
# package offline with that interpreter, exactly as `make python` does.
# Install it with Blender's Preferences > Add-ons > Install, or from a script:
#   bpy.ops.preferences.addon_install(filepath="BUILD/ikit_blender.zip")
#   bpy.ops.preferences.addon_enable(module="ikit_blender")
#   build-blender-addon.sh [BUILD]
set -eu
build=${1:-build}
python=/usr/bin/python3
if ! "$python" -c "import numpy, cffi, setuptools, pip" 2>/dev/null; then
    echo "ikit: the add-on needs python3-numpy python3-cffi python3-setuptools python3-pip (make deps)" >&2
    exit 1
fi
stage=$build/blender-addon
rm -rf "$stage" "$build/ikit_blender.zip"
mkdir -p "$stage/ikit_blender"
cp blender/ikit_blender/*.py "$stage/ikit_blender/"
# The package as pip builds it, or (IKIT_PYTHON_BUILT=DIR, as make test
# gives it) copied from a float build of it that pip made for the same
# interpreter, which saves compiling the library once more.
if [ -n "${IKIT_PYTHON_BUILT:-}" ] && [ -d "$IKIT_PYTHON_BUILT/ikit" ]; then
    mkdir -p "$stage/ikit_blender/lib"
    cp -R "$IKIT_PYTHON_BUILT"/. "$stage/ikit_blender/lib/"
else
    "$python" -m pip install -q --no-build-isolation --no-deps --no-index --disable-pip-version-check \
        --root-user-action=ignore --target "$stage/ikit_blender/lib" ./python
fi
# the folder itself at the top of the zip, as Blender's installer expects
(cd "$stage" && "$python" -m zipfile -c ../ikit_blender.zip ikit_blender)
version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
echo "ikit: $build/ikit_blender.zip (the ikit package built for Python $version)"
