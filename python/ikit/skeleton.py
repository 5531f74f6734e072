"""Skeletons: joint names, parents, rest pose, forward kinematics."""
import numpy as np

from . import arrays
from ._ikit import ffi, lib
from .errors import IkitError, check


class Skeleton:
    """An ik_skeleton (joints parents-first). Made by the loaders, by
    Skeleton.from_arrays or by Skeleton.humanoid; its arrays are the
    library's memory, read-only here."""

    def __init__(self, pointer, owner):
        self._ptr = pointer  # const ik_skeleton *
        self._owner = owner  # whatever owns the skeleton's memory
        self.joint_count = int(pointer.joint_count)
        self.names = [
            ffi.string(pointer.names[i]).decode("utf-8", "replace")
            if pointer.names != ffi.NULL and pointer.names[i] != ffi.NULL
            else ""
            for i in range(self.joint_count)
        ]
        # parent index of each joint, -1 for a root (int32, read-only view)
        self.parents = arrays.view("int", pointer.parents, self.joint_count, (self.joint_count,), self,
                                   writable=False, dtype=np.intc)
        # the rest (bind) pose, local space, (joints, 10) read-only view
        self.rest = arrays.view("ik_transform", pointer.rest_ls, self.joint_count,
                                (self.joint_count, arrays.REALS_PER_TRANSFORM), self, writable=False)

    @classmethod
    def from_arrays(cls, parents, rest, names=None):
        """A skeleton over copies of `parents` (ints, -1 for roots, parents
        first), `rest` (joints, 10) and optional `names`, checked by
        ik_skeleton_init (hierarchy, finite unit-rotation rest, unique names)."""
        parents = np.ascontiguousarray(parents, dtype=np.intc)
        count = parents.shape[0]
        rest = np.array(rest, dtype=arrays.real_dtype, order="C", copy=True)
        keep = {"parents": parents, "rest": rest}
        parents_ptr = ffi.from_buffer("int[]", parents)
        rest_ptr = arrays.pose_pointer(rest, count, "rest", writable=False)
        names_ptr = ffi.NULL
        if names is not None:
            if len(names) != count:
                raise ValueError("names has %d entries for %d joints" % (len(names), count))
            keep["name_cells"] = [ffi.new("char[]", str(n).encode()) for n in names]
            names_ptr = ffi.new("const char *[]", keep["name_cells"])
        keep.update(parents_ptr=parents_ptr, rest_ptr=rest_ptr, names_ptr=names_ptr)
        skeleton = ffi.new("ik_skeleton *")
        error = ffi.new("ik_error *")
        scratch = ffi.new("int[]", 2 * max(count, 1))
        r = lib.ik_skeleton_init_scratch(skeleton, count, parents_ptr, names_ptr, rest_ptr, scratch, error)
        if r != lib.IK_OK:
            message = ffi.string(error.message).decode() or None
            raise IkitError("skeleton", r, message)
        keep["skeleton"] = skeleton
        return cls(skeleton, keep)

    @classmethod
    def humanoid(cls, height=1.8):
        """The library's procedural humanoid (ik_humanoid_build_skeleton):
        Mixamo-style names, soles on y = 0, facing +Z."""
        capacity = int(lib.IK_HUMANOID_BUILT_JOINTS)
        parents = ffi.new("int[]", capacity)
        names = ffi.new("const char *[]", capacity)
        rest = ffi.new("ik_transform[]", capacity)
        count = lib.ik_humanoid_build_skeleton(height, capacity, parents, names, rest)
        if count == 0:
            raise IkitError("humanoid skeleton", lib.IK_ERR_RANGE,
                            "height must be positive and finite, not %r" % (height,))
        parents_array = np.frombuffer(ffi.buffer(parents), dtype=np.intc)[:count]
        rest_array = np.frombuffer(ffi.buffer(rest), dtype=arrays.real_dtype).reshape(capacity, -1)[:count]
        return cls.from_arrays(parents_array, rest_array, [ffi.string(names[i]).decode() for i in range(count)])

    def __repr__(self):
        return "<ikit.Skeleton %d joints>" % self.joint_count

    def index(self, joint):
        """The index of `joint` (a name or an index); IkitError IK_ERR_NOT_FOUND
        or IK_ERR_RANGE, with the closest names, otherwise."""
        if isinstance(joint, (int, np.integer)):
            if not 0 <= joint < self.joint_count:
                raise IkitError("joint %d" % joint, lib.IK_ERR_RANGE,
                                "joint %d is out of range (the skeleton has %d)" % (joint, self.joint_count))
            return int(joint)
        found = lib.ik_skeleton_find(self._ptr, str(joint).encode())
        if found < 0:
            raise IkitError("joint %r" % joint, lib.IK_ERR_NOT_FOUND,
                            "no joint named %r%s" % (joint, self._suggestions(str(joint))))
        return found

    def _suggestions(self, wanted):
        if self._ptr.names == ffi.NULL:
            return ""
        best = ffi.new("int[8]")
        count = lib.ik_error_closest_names(self._ptr.names, self.joint_count, wanted.encode(), best, 8)
        if count == 0:
            return ""
        return " (did you mean: %s?)" % ", ".join(self.names[best[i]] for i in range(count))

    def rest_pose(self):
        """A new pose array holding the rest pose."""
        pose = arrays.new_pose(self.joint_count)
        lib.ik_skeleton_rest_pose(self._ptr, arrays.pose_pointer(pose, self.joint_count))
        return pose

    def fk(self, pose, root=None, out=None):
        """Forward kinematics (ik_skeleton_fk): model-space matrices
        (joints, 4, 4) of `pose` under `root` (4x4, None: identity), into
        `out` when given (from new_matrices or an earlier fk)."""
        if out is None:
            out = arrays.new_matrices(self.joint_count)
        pose_ptr = arrays.pose_pointer(pose, self.joint_count, writable=False)
        out_ptr = arrays.matrices_pointer(out, self.joint_count, "out")
        _check_finite_pose(pose)
        lib.ik_skeleton_fk(self._ptr, pose_ptr, arrays.root_pointer(root), out_ptr)
        return out

    def to_local(self, model, root=None, out=None):
        """Model-space matrices back to a local pose (ik_skeleton_model_to_local)."""
        if out is None:
            out = arrays.new_pose(self.joint_count)
        model_ptr = arrays.matrices_pointer(model, self.joint_count, "model", writable=False)
        r = lib.ik_skeleton_model_to_local(self._ptr, model_ptr, arrays.root_pointer(root),
                                           arrays.pose_pointer(out, self.joint_count, "out"))
        check(r, "to_local")
        return out

    def chain(self, end, count):
        """`count` joints from above `end` down to it, root-first (ik_skeleton_chain)."""
        joints = ffi.new("int[]", max(int(count), 1))
        if count < 1:
            raise IkitError("chain", lib.IK_ERR_RANGE, "a chain needs at least one joint, not %d" % count)
        check(lib.ik_skeleton_chain(self._ptr, self.index(end), int(count), joints), "chain")
        return [joints[i] for i in range(count)]

    def named_chains(self):
        """The limbs found by joint names (ik_named_chains_find): a list of
        (kind, joints root-first) with kind "leg", "arm", "spine" or "tail"."""
        capacity = max(self.joint_count, 1)
        chains = ffi.new("ik_named_chain[]", capacity)
        count = lib.ik_named_chains_find(self._ptr, chains, capacity)
        return [(ffi.string(c.kind).decode(), [c.joints[k] for k in range(c.count)])
                for c in (chains[i] for i in range(count))]


def _check_finite_pose(pose):
    """ik_skeleton_fk has no result to report NaN with: refuse it here."""
    if not np.isfinite(pose).all():
        bad = int(np.argwhere(~np.isfinite(pose))[0][0])
        raise IkitError("fk", lib.IK_ERR_NONFINITE, "%s (pose of joint %d)" % (
            ffi.string(lib.ik_result_str(lib.IK_ERR_NONFINITE)).decode(), bad))
