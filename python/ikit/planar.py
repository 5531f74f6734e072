"""2D chains (planar_chain.h, seed 003): bone lengths and relative angles,
forward kinematics, and IK by CCD, FABRIK or gradient descent."""
import numpy as np

from . import arrays
from ._ikit import ffi, lib
from .errors import check

METHODS = {"ccd": lib.IK_PLANAR_CHAIN_CCD, "fabrik": lib.IK_PLANAR_CHAIN_FABRIK, "gradient": lib.IK_PLANAR_CHAIN_GRADIENT}


def planar_chain_fk(lengths, angles, base=(0.0, 0.0)):
    """Joint positions (n + 1, 2) of a planar chain: p0 = base,
    p_{i+1} = p_i + l_i (cos b_i, sin b_i), b_i = a_0 + ... + a_i."""
    lengths = np.ascontiguousarray(lengths, dtype=arrays.real_dtype)
    angles = np.ascontiguousarray(angles, dtype=arrays.real_dtype)
    if lengths.ndim != 1 or angles.shape != lengths.shape:
        raise ValueError("lengths and angles must be two (n,) arrays, not %s and %s" % (lengths.shape, angles.shape))
    xy = np.zeros((len(lengths) + 1, 2), dtype=arrays.real_dtype)
    lib.ik_planar_chain_fk(len(lengths), ffi.from_buffer("ik_real[]", lengths), ffi.from_buffer("ik_real[]", angles),
                      base[0], base[1], ffi.from_buffer("ik_real[]", xy, require_writable=True))
    return xy


def planar_chain(lengths, angles, target, *, base=(0.0, 0.0), method="fabrik", min_angles=None, max_angles=None,
            tolerance=None, max_iterations=None, step=None):
    """Solve a planar chain (ik_planar_chain_run): `angles` (n,) real_dtype is
    solved in place. Returns (iterations, error)."""
    if method not in METHODS:
        raise ValueError("method must be one of %s, not %r" % (", ".join(METHODS), method))
    count = len(lengths)
    keep = [arrays.real_pointer("ik_real", lengths, (count,), "lengths", writable=False)]
    job = ffi.new("ik_planar_chain *", lib.ik_planar_chain_def())
    job.bone_count = count
    job.lengths = keep[0]
    job.base_x, job.base_y = base
    job.target_x, job.target_y = target
    job.method = METHODS[method]
    if (min_angles is None) != (max_angles is None):
        raise ValueError("give both min_angles and max_angles, or neither")
    if min_angles is not None:
        keep += [arrays.real_pointer("ik_real", min_angles, (count,), "min_angles", writable=False),
                 arrays.real_pointer("ik_real", max_angles, (count,), "max_angles", writable=False)]
        job.min_angles, job.max_angles = keep[1], keep[2]
    for name, value in (("tolerance", tolerance), ("max_iterations", max_iterations), ("step", step)):
        if value is not None:
            setattr(job, name, value)
    job.angles = arrays.real_pointer("ik_real", angles, (count,), "angles", writable=True)
    scratch = ffi.new("ik_real[]", 3 * count + 2)
    job.scratch = scratch
    iterations, error = ffi.new("int *"), ffi.new("ik_real *")
    job.iterations, job.error = iterations, error
    check(lib.ik_planar_chain_run(job), "planar_chain")
    return int(iterations[0]), float(error[0])
