"""Humanoids: the body map found by name (ik_humanoid_map_find), the rig
(ik_humanoid_init) and the whole-body solve (ik_humanoid_solve_run)."""

import numpy as np

from . import arrays
from ._ikit import ffi, lib
from .errors import IkitError, check
from .ground import Ground

LIMBS = ("left_arm", "right_arm", "left_leg", "right_leg")  # IK_LIMB_ARM_L .. IK_LIMB_LEG_R
ROLES = [ffi.string(lib.ik_humanoid_role_name(r)).decode() for r in range(lib.IK_ROLE_COUNT)]


class Humanoid:
    """A humanoid rig on `skeleton`. `mapping` (optional) is the text of a
    mapping file ("left_thigh = UpLeg_L" lines) or a dict role -> joint
    name, for the joints the name conventions do not find. IkitError
    IK_ERR_NOT_FOUND, with the library's per-role report, when a required
    role is missing."""

    def __init__(self, skeleton, mapping=None):
        self.skeleton = skeleton
        if isinstance(mapping, dict):
            mapping = "\n".join("%s = %s" % item for item in mapping.items())
        text = ffi.new("char[]", (mapping or "").encode())
        capacity = int(lib.IK_ROLE_COUNT)
        pairs = ffi.new("ik_humanoid_pair[]", capacity)
        count = ffi.new("int *")
        line = ffi.new("int *")
        r = lib.ik_humanoid_parse_mapping(text, len(ffi.string(text)), pairs, capacity, count, line)
        if r != lib.IK_OK:
            raise IkitError("mapping line %d" % line[0], r)
        self._map = ffi.new("ik_humanoid_map *")
        r = lib.ik_humanoid_map_find(skeleton._ptr, pairs, count[0], self._map)
        if r != lib.IK_OK:
            raise IkitError("humanoid map", r, "%s\n%s" % (
                ffi.string(lib.ik_result_str(r)).decode(), self.describe()))
        self._rig = ffi.new("ik_humanoid *")
        check(lib.ik_humanoid_init(self._rig, skeleton._ptr, self._map), "humanoid rig")

    def describe(self):
        """The library's map report, one line per role."""
        size = lib.ik_humanoid_map_describe(self._map, self.skeleton._ptr, ffi.NULL, 0) + 1
        out = ffi.new("char[]", size)
        lib.ik_humanoid_map_describe(self._map, self.skeleton._ptr, out, size)
        return ffi.string(out).decode("utf-8", "replace")

    @property
    def roles(self):
        """role name -> joint index (-1 where missing)."""
        return {name: int(self._map.joint[r]) for r, name in enumerate(ROLES)}

    def _limb(self, name):
        if name not in LIMBS:
            raise IkitError("limb %r" % (name,), lib.IK_ERR_NOT_FOUND, "no limb %r (limbs: %s)" % (name, ", ".join(LIMBS)))
        return self._rig.limb[LIMBS.index(name)]

    def limb(self, name):
        """A limb's joints (start, mid, end; end -1 for a virtual ankle),
        bone lengths, and hinge_axis: the axis in the mid joint's frame a
        knee or elbow bends positively about (ik_limb_hinge at rest: a knee
        forward, an elbow back), for two_bone's hinge_axis."""
        limb = self._limb(name)
        axis = limb.hinge_axis_ls
        return {"start": limb.start, "mid": limb.mid, "end": limb.end,
                "upper_length": float(limb.upper_length), "lower_length": float(limb.lower_length),
                "hinge_axis": (float(axis.x), float(axis.y), float(axis.z))}

    def limb_pole(self, name, pose, target, *, root=None):
        """The pole the rig's own solve gives limb `name` for `target` (model
        space, under `root`) in `pose` (ik_humanoid_limb_pole): with
        limb()["hinge_axis"] it keeps a knee forward and an elbow back,
        however straight the limb is now. A 3-vector in model space."""
        limb = self._limb(name)
        model = self.skeleton.fk(pose, root)
        model_ptr = arrays.matrices_pointer(model, self.skeleton.joint_count, "model", writable=False)
        # the pole's distance from the limb only places the point; the
        # limb's length under the root's scale keeps it the solve's
        scale = 1.0 if root is None else abs(np.linalg.det(np.asarray(root, dtype=np.float64)[:3, :3])) ** (1.0 / 3.0)
        pole = lib.ik_humanoid_limb_pole(ffi.addressof(limb), model_ptr, arrays.vec3(target, "target"),
                                         (limb.upper_length + limb.lower_length) * scale)
        return np.array([pole.x, pole.y, pole.z])

    def solve(self, pose, *, root=None, goals=None, look_at=None, ground=None, adjust_shoulders=None,
              adjust_pelvis=None, passes=None, model=None):
        """Solve the body on `pose` in place (seed 001's order). `goals`:
        limb name (LIMBS) -> target position, or a dict with "position" and
        optionally "rotation" (xyzw), "pole", "weight", "twist".
        `look_at`: a point the head turns to. `ground`: an ikit.Ground
        (stairs, a height field, ...) or (point, normal) of a plane the feet
        stand on. Returns (model, report): the forward
        kinematics of the new pose (into `model` when given) and a dict of
        the solve's report."""
        joints = self.skeleton.joint_count
        if model is None:
            model = arrays.new_matrices(joints)
        job = ffi.new("ik_humanoid_solve *", lib.ik_humanoid_solve_def())
        job.rig = self._rig
        pose_ptr = arrays.pose_pointer(pose, joints)
        model_ptr = arrays.matrices_pointer(model, joints, "model")
        root_ptr = arrays.root_pointer(root)
        job.pose_ls, job.model_ms, job.root_ms = pose_ptr, model_ptr, root_ptr
        for name, goal in (goals or {}).items():
            if name not in LIMBS:
                raise IkitError("goal %r" % (name,), lib.IK_ERR_NOT_FOUND,
                                "no limb %r (limbs: %s)" % (name, ", ".join(LIMBS)))
            _set_goal(job.goal[LIMBS.index(name)], goal if isinstance(goal, dict) else {"position": goal})
        if look_at is not None:
            job.look_at = 1
            job.look_target_ms = arrays.vec3(look_at, "look_at")
        if isinstance(ground, Ground):
            job.ground = ground._cell
        elif ground is not None:
            point, normal = ground
            ground = Ground.plane(point, normal)
            job.ground = ground._cell
        for name, value in (("adjust_shoulders", adjust_shoulders), ("adjust_pelvis", adjust_pelvis),
                            ("passes", passes)):
            if value is not None:
                setattr(job, name, int(value))
        report = ffi.new("ik_humanoid_report *")
        job.report = report
        check(lib.ik_humanoid_solve_run(job), "humanoid solve")
        return model, {
            "reached": {name: bool(report.reached[i]) for i, name in enumerate(LIMBS)},
            "residual": {name: float(report.residual[i]) for i, name in enumerate(LIMBS)},
            "pelvis_offset": float(report.pelvis_offset),
            "look_error": float(report.look_error),
            "look_reached": bool(report.look_reached),
        }


def _set_goal(cell, goal):
    cell.enabled = 1
    cell.position_ms = arrays.vec3(goal["position"], "position")
    if goal.get("rotation") is not None:
        cell.use_rotation = 1
        cell.rotation_ms = arrays.quat(goal["rotation"], "rotation")
    if goal.get("pole") is not None:
        cell.use_pole = 1
        cell.pole_ms = arrays.vec3(goal["pole"], "pole")
    if goal.get("weight") is not None:
        cell.weight = goal["weight"]
    if goal.get("twist") is not None:
        cell.twist = goal["twist"]
