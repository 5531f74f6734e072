"""What feet stand on (ground.h): a plane, a slope, a flight of stairs or
a height field, as the walk and the humanoid solve take them. A height
field reads the caller's numpy array in place (no copy); the Ground keeps
it alive."""
import math

import numpy as np

from . import arrays
from ._ikit import ffi, lib
from .errors import IkitError, check


class Ground:
    """An ik_ground. Make one with Ground.plane, .slope, .stairs or
    .height_field; `height_at(x, z)` gives (height, normal) where the
    ground has a height there (ik_ground_height_at), else None."""

    def __init__(self, cell, keep=None):
        self._cell = cell
        self._keep = keep
        check(lib.ik_ground_validate(cell), "ground")

    @classmethod
    def plane(cls, point, normal):
        """The plane through `point` with `normal` (normalised by the library)."""
        return cls(ffi.new("ik_ground *", lib.ik_ground_plane(arrays.vec3(point, "point"),
                                                               arrays.vec3(normal, "normal"))))

    @classmethod
    def slope(cls, degrees):
        """A plane through the origin rising `degrees` along +Z (negative:
        falling), +Y up: ikc walk's --slope in the walk frame."""
        if not (math.isfinite(degrees) and abs(degrees) < 90):
            raise IkitError("slope", lib.IK_ERR_RANGE, "a slope is under 90 degrees either way, not %r" % (degrees,))
        a = math.radians(degrees)
        return cls.plane((0, 0, 0), (0, math.cos(a), -math.sin(a)))

    @classmethod
    def stairs(cls, first_riser, direction, rise, run, step_count):
        """A flight of `step_count` steps, each `rise` up over a tread of
        `run` along the horizontal `direction`, the first riser at
        `first_riser` (the ground before it at its height); the top tread
        continues beyond the last step (ik_ground_stairs, +Y up)."""
        return cls(ffi.new("ik_ground *", lib.ik_ground_stairs(arrays.vec3(first_riser, "first_riser"),
                                                                arrays.vec3(direction, "direction"), rise, run,
                                                                int(step_count))))

    @classmethod
    def height_field(cls, heights, cell, origin=(0, 0, 0)):
        """Heights (count_z, count_x) of real_dtype, C-contiguous, read in
        place: heights[iz, ix] is the height (y, plus origin's y) at x =
        origin.x + ix cell, z = origin.z + iz cell; bilinear between samples,
        the border continuing flat outside (ik_ground_height_field)."""
        arrays.check_array(heights, "heights", (None, None), writable=False)
        pointer = ffi.from_buffer("ik_real[]", heights)
        count_z, count_x = heights.shape
        ground = lib.ik_ground_height_field(arrays.vec3(origin, "origin"), cell, count_x, count_z, pointer)
        return cls(ffi.new("ik_ground *", ground), keep=(heights, pointer))

    def height_at(self, x, z):
        """(height, normal) of the ground at (x, z), or None where it has none."""
        height = ffi.new("ik_real *")
        normal = ffi.new("ik_vec3 *")
        if not lib.ik_ground_height_at(self._cell, x, z, height, normal):
            return None
        return float(height[0]), np.array([normal.x, normal.y, normal.z])
