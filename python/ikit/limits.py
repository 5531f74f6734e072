"""Joint limits (constraint.h): a limit bounds a joint's local rotation,
measured from a reference rotation (normally the joint's rest rotation).
CCD, FABRIK and the Jacobian solvers take one per listed joint."""
import numpy as np

from . import arrays
from ._ikit import ffi, lib
from .errors import check

IDENTITY = (0.0, 0.0, 0.0, 1.0)


class Limit:
    """One ik_constraint. Make it with Limit.hinge, Limit.cone_twist,
    Limit.euler or Limit.none; the library checks it (IkitError) here."""

    def __init__(self, constraint):
        self._cell = ffi.new("ik_constraint *", constraint)
        check(lib.ik_constraint_validate(self._cell), "limit")

    @classmethod
    def none(cls):
        return cls(lib.ik_constraint_none())

    @classmethod
    def hinge(cls, axis, min_angle, max_angle, reference=IDENTITY):
        """Turns about `axis` (joint frame) only, by an angle in [min, max] radians."""
        return cls(lib.ik_constraint_hinge(arrays.quat(reference, "reference"), arrays.vec3(axis, "axis"),
                                           min_angle, max_angle))

    @classmethod
    def cone_twist(cls, axis, cone_angle, twist_min, twist_max, reference=IDENTITY):
        """The bone `axis` stays inside a cone of `cone_angle`; its twist in [min, max]."""
        return cls(lib.ik_constraint_cone_twist(arrays.quat(reference, "reference"), arrays.vec3(axis, "axis"),
                                                cone_angle, twist_min, twist_max))

    @classmethod
    def euler(cls, euler_min, euler_max, reference=IDENTITY):
        """delta = Rz Ry Rx with each angle inside its range."""
        return cls(lib.ik_constraint_euler(arrays.quat(reference, "reference"), arrays.vec3(euler_min, "euler_min"),
                                           arrays.vec3(euler_max, "euler_max")))

    def check(self, rotation, tolerance=1e-4):
        """Whether the local rotation (x, y, z, w) is inside, within `tolerance` radians."""
        return bool(lib.ik_constraint_check(self._cell, arrays.quat(rotation, "rotation"), tolerance))

    def apply(self, rotation):
        """The nearest allowed local rotation."""
        q = lib.ik_constraint_apply(self._cell, arrays.quat(rotation, "rotation"))
        return np.array([q.x, q.y, q.z, q.w], dtype=arrays.real_dtype)


def constraints_pointer(limits, count):
    """An ik_constraint[count] for the solvers from Limits (None: no limit),
    or NULL for no limits at all."""
    if limits is None:
        return ffi.NULL
    limits = list(limits)
    if len(limits) != count:
        raise ValueError("%d limits for %d listed joints" % (len(limits), count))
    cells = ffi.new("ik_constraint[]", count)
    for i, limit in enumerate(limits):
        cells[i] = (limit or Limit.none())._cell[0]
    return cells
