"""Finds the ikit Python package: the copy bundled in the add-on's zip
(lib/, built by `make blender-addon` for the system Python 3.11 that
Debian's Blender runs), else one installed where Blender's Python looks.
Imported lazily, so the add-on registers (and its operators say why) even
where the package cannot load."""
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
BUNDLED = os.path.join(_HERE, "lib")


def modules():
    """(ikit, armature): the package and the add-on's module over it."""
    if os.path.isdir(os.path.join(BUNDLED, "ikit")) and BUNDLED not in sys.path:
        sys.path.insert(0, BUNDLED)
    import ikit  # noqa: F401 (ImportError reaches the operator, which reports it)

    from . import armature
    return ikit, armature
