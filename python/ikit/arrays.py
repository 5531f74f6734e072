"""numpy views of the library's types, and their passage to C without copies.

ik_real is float32 in the default build and float64 in the double build
(`real_dtype`). Layouts, as the C structs are:
  pose        (joints, 10): translation xyz, rotation quaternion xyzw, scale xyz
              (ik_transform[joints]); the POSE_* slices name the columns
  matrices    (n, 4, 4) indexed [row, col] as in maths (p' = M p): a transposed
              view of ik_mat4's column-major storage, so the array handed out
              is the library's memory and a matrix array passed in must be one
              (or, for inputs only, is copied into that layout)
  vectors     (n, 3) ik_vec3, quaternions (n, 4) ik_quat xyzw
"""
import numpy as np

from ._ikit import ffi, lib

built_double = bool(lib.IK_BUILT_DOUBLE)
real_dtype = np.dtype(np.float64 if built_double else np.float32)
REALS_PER_TRANSFORM = 10
POSE_TRANSLATION = slice(0, 3)
POSE_ROTATION = slice(3, 7)
POSE_SCALE = slice(7, 10)
assert ffi.sizeof("ik_transform") == REALS_PER_TRANSFORM * real_dtype.itemsize
assert ffi.sizeof("ik_mat4") == 16 * real_dtype.itemsize


def new_pose(joint_count):
    """An identity pose of `joint_count` joints (zero translation, unit rotation and scale)."""
    pose = np.zeros((joint_count, REALS_PER_TRANSFORM), dtype=real_dtype)
    pose[:, 6] = 1
    pose[:, POSE_SCALE] = 1
    return pose


def new_matrices(count):
    """Storage for `count` ik_mat4, as the [row, col] view (identity matrices)."""
    storage = np.zeros((count, 4, 4), dtype=real_dtype)
    storage[:] = np.eye(4, dtype=real_dtype)
    return storage.swapaxes(-1, -2)


def view(ctype, pointer, count, shape, owner, writable=True, dtype=None):
    """A numpy array over `count` C objects of `ctype` at `pointer` (the
    library's memory, not a copy), which keeps `owner` alive."""
    dtype = np.dtype(dtype or real_dtype)
    if count == 0:
        return np.zeros(shape, dtype=dtype)
    return np.asarray(_Memory(pointer, shape, dtype, owner, writable))


class _Memory:
    """numpy's array interface over C memory; the array made from it keeps
    this object, and so `owner`, as its base."""

    def __init__(self, pointer, shape, dtype, owner, writable):
        address = int(ffi.cast("uintptr_t", pointer))
        self.__array_interface__ = {
            "data": (address, not writable),
            "shape": tuple(shape),
            "typestr": dtype.str,
            "version": 3,
        }
        self.owner = owner


def check_array(array, name, shape, writable):
    if not isinstance(array, np.ndarray):
        raise TypeError("%s must be a numpy array of %s, not %s" % (name, real_dtype, type(array).__name__))
    if array.dtype != real_dtype:
        raise TypeError("%s must have dtype %s (ikit.real_dtype), not %s" % (name, real_dtype, array.dtype))
    if not array.flags.c_contiguous:
        raise ValueError("%s must be C-contiguous (the library reads it in place)" % name)
    if writable and not array.flags.writeable:
        raise ValueError("%s is read-only; the library writes into it" % name)
    for axis, (got, want) in enumerate(zip(array.shape, shape)):
        if want is not None and got != want:
            raise ValueError("%s must have shape %s, not %s" % (name, _shape_text(shape), array.shape))
    if len(array.shape) != len(shape):
        raise ValueError("%s must have shape %s, not %s" % (name, _shape_text(shape), array.shape))


def _shape_text(shape):
    return "(" + ", ".join("n" if s is None else str(s) for s in shape) + ")"


def pose_pointer(pose, joint_count, name="pose", writable=True):
    """ik_transform * over `pose` itself (joint_count, 10); no copy."""
    check_array(pose, name, (joint_count, REALS_PER_TRANSFORM), writable)
    return ffi.from_buffer("ik_transform[]", pose, require_writable=writable)


def matrices_pointer(matrices, count, name="matrices", writable=True):
    """ik_mat4 * over a (count, 4, 4) [row, col] array. An output must be the
    library's layout (as new_matrices and fk give); an input in another
    layout or type is copied into it."""
    storage = np.swapaxes(matrices, -1, -2) if isinstance(matrices, np.ndarray) else None
    if not writable and (storage is None or storage.dtype != real_dtype or not storage.flags.c_contiguous):
        storage = np.ascontiguousarray(np.swapaxes(np.asarray(matrices, dtype=real_dtype), -1, -2))
    if storage is None:
        raise TypeError("%s must be a numpy array from ikit.new_matrices or fk" % name)
    check_array(storage, name + " (as stored: transposed)", (count, 4, 4), writable)
    return ffi.from_buffer("ik_mat4[]", storage, require_writable=writable)


def real_pointer(ctype, array, shape, name, writable):
    """`ctype` * over a real array of `shape`; no copy when writable, else a
    converted copy where the type or layout differs."""
    if not writable:
        array = np.ascontiguousarray(array, dtype=real_dtype)
    check_array(array, name, shape, writable)
    return ffi.from_buffer(ctype + "[]", array, require_writable=writable)


def vec3(value, name):
    """An ik_vec3 from three finite or not numbers (the library judges them)."""
    values = np.asarray(value, dtype=np.float64).reshape(-1)
    if values.shape != (3,):
        raise ValueError("%s must be 3 numbers, not %r" % (name, value))
    return ffi.new("ik_vec3 *", {"x": values[0], "y": values[1], "z": values[2]})[0]


def quat(value, name):
    values = np.asarray(value, dtype=np.float64).reshape(-1)
    if values.shape != (4,):
        raise ValueError("%s must be 4 numbers (x, y, z, w), not %r" % (name, value))
    return ffi.new("ik_quat *", {"x": values[0], "y": values[1], "z": values[2], "w": values[3]})[0]


def root_pointer(root):
    """ik_mat4 * for an optional 4x4 [row, col] root transform (None: identity)."""
    if root is None:
        return ffi.NULL
    matrix = np.asarray(root, dtype=real_dtype)
    if matrix.shape != (4, 4):
        raise ValueError("root must be a 4x4 matrix, not shape %s" % (matrix.shape,))
    cell = ffi.new("ik_mat4 *")
    ffi.buffer(cell)[:] = np.ascontiguousarray(matrix.T).tobytes()
    return cell
