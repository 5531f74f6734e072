"""Humanoids: the body map found by name (ik_humanoid_map_find), the rig
(ik_humanoid_init), the per-limb solve (ik_humanoid_solve_run) and the
full-body solve with balance (ik_full_body_run, full_body.h)."""

import numpy as np

from . import arrays
from ._ikit import ffi, lib
from .errors import IkitError, check
from .ground import Ground

LIMBS = ("left_arm", "right_arm", "left_leg", "right_leg")  # IK_LIMB_ARM_L .. IK_LIMB_LEG_R
ROLES = [ffi.string(lib.ik_humanoid_role_name(r)).decode() for r in range(lib.IK_ROLE_COUNT)]
# the full body's effectors, by role name (IK_FB_HAND_L .. IK_FB_CHEST)
EFFECTORS = [ffi.string(lib.ik_full_body_effector_name(e)).decode() for e in range(lib.IK_FB_EFFECTOR_COUNT)]
# the body joints' stiffness and limit slots (IK_FB_JOINT_PELVIS_SHIFT .. IK_FB_JOINT_CLAVICLE_R)
BODY_JOINTS = ("pelvis_shift", "pelvis", "spine", "chest", "neck", "left_clavicle", "right_clavicle")
_BALANCE = {lib.IK_BALANCE_OFF: "off", lib.IK_BALANCE_KEPT: "kept", lib.IK_BALANCE_NO_SUPPORT: "no support",
            lib.IK_BALANCE_LOST: "lost"}


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

    def solve_full_body(self, pose, *, reach=None, pin=(), tiptoe=(), balance=False, look_at=None, reference=None,
                        root=None,
                        stiffness=None, limits=None, iterations=None, balance_margin=None, total_mass=75.0,
                        model=None):
        """The whole body on `pose` in place (ik_full_body_run): `pose` is
        the warm start (last frame's result, or the animated pose),
        `reference` the pose the body is pulled toward (default: `pose` as
        given). `reach`: effector role (EFFECTORS: "left_hand", "head",
        "hips", ...) -> target position, or a dict with "position" and
        optionally "rotation" (xyzw), "position_weight", "rotation_weight",
        "pull", "pole". `pin`: roles held where `pose` has them (feet, hips,
        chest, head); pinned feet are the balance's support. `tiptoe`: feet
        pinned on tiptoe (allow_heel_lift: held at the ball, the heel may
        rise when the body needs the leg longer). `balance`:
        keep the centre of mass (de Leva's masses for `total_mass` kg) over
        them. `stiffness`, `limits`: dicts over BODY_JOINTS. Returns (model,
        report): the new pose's forward kinematics and a dict: reached,
        residual (per effector asked for), balance ("off", "kept", "no
        support", "lost"), centre_of_mass, support_distance, support (the
        polygon's corners), heel_lift (per tiptoe foot, radians), iterations,
        summary (the library's words)."""
        joints = self.skeleton.joint_count
        if model is None:
            model = arrays.new_matrices(joints)
        if getattr(self, "_mass_kg", None) != float(total_mass):
            self._mass = ffi.new("ik_body_mass *")
            check(lib.ik_body_mass_init(self._mass, self._rig, lib.IK_BODY_MASS_MALE, float(total_mass)), "mass model")
            self._mass_kg = float(total_mass)
        bytes_ = lib.ik_full_body_scratch_size(self._rig)
        if getattr(self, "_fb_scratch_bytes", 0) < bytes_:
            self._fb_scratch = ffi.new("char[]", bytes_)
            self._fb_scratch_bytes = bytes_
        job = ffi.new("ik_full_body *", lib.ik_full_body_def())
        job.rig = self._rig
        job.mass = self._mass
        pose_ptr = arrays.pose_pointer(pose, joints)
        reference_ptr = arrays.pose_pointer(np.array(pose if reference is None else reference, copy=True), joints,
                                            "reference")
        model_ptr = arrays.matrices_pointer(model, joints, "model")
        job.pose_ls, job.reference_ls, job.model_ms, job.root_ms = pose_ptr, reference_ptr, model_ptr, \
            arrays.root_pointer(root)
        job.scratch, job.scratch_bytes = self._fb_scratch, self._fb_scratch_bytes
        asked = []
        for name, goal in (reach or {}).items():
            e = _effector(name)
            _set_effector(job.effector[e], goal if isinstance(goal, dict) else {"position": goal})
            asked.append(name)
        for name in tuple(pin) + tuple(tiptoe):
            e = _effector(name)
            job.effector[e].pinned = 1
            if name not in asked:
                asked.append(name)
        for name in tiptoe:
            e = _effector(name)
            if e not in (lib.IK_FB_FOOT_L, lib.IK_FB_FOOT_R):
                raise IkitError("tiptoe %r" % name, lib.IK_ERR_RANGE, "only feet stand on tiptoe: left_foot, right_foot")
            job.effector[e].allow_heel_lift = 1
        if look_at is not None:
            job.look_at = 1
            job.look_target_ms = arrays.vec3(look_at, "look_at")
        for table, field in ((stiffness, "stiffness"), (limits, "limit")):
            for name, value in (table or {}).items():
                if name not in BODY_JOINTS:
                    raise IkitError("%s %r" % (field, name), lib.IK_ERR_NOT_FOUND,
                                    "no body joint %r (joints: %s)" % (name, ", ".join(BODY_JOINTS)))
                getattr(job, field)[BODY_JOINTS.index(name)] = value
        if iterations is not None:
            job.iterations = int(iterations)
        if balance_margin is not None:
            job.balance_margin = balance_margin
        job.balance = 1 if balance else 0
        report = ffi.new("ik_full_body_report *")
        job.report = report
        check(lib.ik_full_body_run(job), "full-body solve")
        size = lib.ik_full_body_report_describe(job, report, ffi.NULL, 0) + 1
        text = ffi.new("char[]", size)
        lib.ik_full_body_report_describe(job, report, text, size)
        com = report.centre_of_mass_ms
        return model, {
            "reached": {name: bool(report.reached[EFFECTORS.index(name)]) for name in asked},
            "residual": {name: float(report.residual[EFFECTORS.index(name)]) for name in asked},
            "balance": _BALANCE[report.balance],
            "centre_of_mass": np.array([com.x, com.y, com.z]),
            "support_distance": float(report.support_distance),
            "support": np.array([[p.x, p.y, p.z] for p in report.support_ms[0:report.support_count]]),
            "heel_lift": {name: float(report.heel_lift[EFFECTORS.index(name) - lib.IK_FB_FOOT_L]) for name in tiptoe},
            "iterations": int(report.iterations),
            "summary": ffi.string(text).decode("utf-8", "replace"),
        }


def _effector(name):
    e = lib.ik_full_body_effector_find(str(name).encode(), -1)
    if e < 0:
        raise IkitError("effector %r" % (name,), lib.IK_ERR_NOT_FOUND,
                        "no effector %r (effectors: %s)" % (name, ", ".join(EFFECTORS)))
    return e


def _set_effector(cell, goal):
    cell.enabled = 1
    cell.position_ms = arrays.vec3(goal["position"], "position")
    if goal.get("rotation") is not None:
        cell.use_rotation = 1
        cell.rotation_ms = arrays.quat(goal["rotation"], "rotation")
    if goal.get("pole") is not None:
        cell.use_pole = 1
        cell.pole_ms = arrays.vec3(goal["pole"], "pole")
    for key in ("position_weight", "rotation_weight", "pull"):
        if goal.get(key) is not None:
            setattr(cell, key, goal[key])


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
