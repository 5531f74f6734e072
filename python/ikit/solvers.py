"""The solvers, each one job of the C API filled from Python arguments and
run on a pose array in place: two-bone, aim, CCD, FABRIK, the Jacobian
family, and a batch two-bone call over arrays of limbs. Options left as
None keep the job's documented default (its _def())."""
import numpy as np

from . import arrays
from ._ikit import ffi, lib
from .errors import IkitError, check, check_job
from .limits import constraints_pointer


def _set_options(job, options):
    """Set each option given (not None) on `job`; vectors accept 3 numbers."""
    for name, value in options.items():
        if value is None:
            continue
        if isinstance(getattr(job, name), (int, float)) and not hasattr(value, "__len__"):
            setattr(job, name, value)
        else:
            setattr(job, name, arrays.vec3(value, name))


def _two_bone_job(pole, hinge_axis, min_bend, max_bend, soften, twist, weight, reach_tolerance):
    job = ffi.new("ik_two_bone *", lib.ik_two_bone_def())
    if pole is not None:
        job.use_pole = 1
        job.pole_ms = arrays.vec3(pole, "pole")
    if hinge_axis is not None:
        job.use_hinge = 1
        job.hinge_axis_ls = arrays.vec3(hinge_axis, "hinge_axis")
    _set_options(job, dict(min_bend=min_bend, max_bend=max_bend, soften=soften, twist=twist, weight=weight,
                           reach_tolerance=reach_tolerance))
    return job


def two_bone(skeleton, pose, start, mid, end, target, *, root=None, pole=None, hinge_axis=None, min_bend=None,
             max_bend=None, soften=None, twist=None, weight=None, keep_end_rotation=False, reach_tolerance=None):
    """Closed-form two-bone IK (ik_two_bone_run) on joints start, mid, end
    (names or indices) of `pose`, in place: the end goes to `target` (model
    space, under `root`). `pole`: where the knee points; `hinge_axis`: the
    mid joint's local hinge with bend limits [min_bend, max_bend] radians.
    Returns (reached, residual)."""
    indices = [skeleton.index(j) for j in (start, mid, end)]
    model = skeleton.fk(pose, root)
    job = _two_bone_job(pole, hinge_axis, min_bend, max_bend, soften, twist, weight, reach_tolerance)
    model_ptr = arrays.matrices_pointer(model, skeleton.joint_count, "model", writable=False)
    pose_ptr = arrays.pose_pointer(pose, skeleton.joint_count)
    lib.ik_two_bone_bind(job, model_ptr, pose_ptr, *indices)
    job.target_ms = arrays.vec3(target, "target")
    if keep_end_rotation:
        job.keep_end_rotation = 1
        job.end_rotation_ls = ffi.addressof(pose_ptr[indices[2]], "rotation")
    reached = ffi.new("ik_bool *")
    residual = ffi.new("ik_real *")
    job.reached = reached
    job.residual = residual
    check(lib.ik_two_bone_run(job), "two_bone")
    return bool(reached[0]), float(residual[0])


def two_bone_batch(start, mid, end, targets, start_rotations, mid_rotations, *, poles=None, hinge_axis=None,
                   min_bend=None, max_bend=None, soften=None, twist=None, weight=None, reach_tolerance=None,
                   reached=None, residual=None):
    """Two-bone IK over n limbs in one call (ik_two_bone_in_place_run: the
    batch job's lanes, new rotation = old * correction, ik_two_bone_run's
    answer to rounding, when no hinge, no twist and full weight are asked
    for, else ik_two_bone_run limb by limb):
    `start`, `mid`, `end` (n, 4, 4) model-space matrices of each limb's
    joints, `targets` (n, 3), optional `poles` (n, 3); `start_rotations`
    and `mid_rotations` (n, 4) are the joints' local rotations, solved in
    place (real_dtype, C-contiguous: no copy). The options apply to every
    limb. Returns (reached, residual): (n,) int32, 1 where the end landed
    within reach_tolerance, and (n,) real_dtype, written into the arrays
    given as `reached` and `residual` when given. A limb that fails
    raises IkitError naming it; the limbs before it are solved, it and the
    ones after are left as they were."""
    count = start_rotations.shape[0] if isinstance(start_rotations, np.ndarray) else len(start_rotations)
    # cffi keeps an array alive while a variable holds its pointer, not while
    # a struct field does: each pointer stays in a variable until the call.
    start_ptr = arrays.matrices_pointer(start, count, "start", writable=False)
    mid_ptr = arrays.matrices_pointer(mid, count, "mid", writable=False)
    end_ptr = arrays.matrices_pointer(end, count, "end", writable=False)
    targets_ptr = arrays.real_pointer("ik_vec3", targets, (count, 3), "targets", writable=False)
    poles_ptr = ffi.NULL if poles is None else arrays.real_pointer("ik_vec3", poles, (count, 3), "poles", False)
    start_rot_ptr = arrays.real_pointer("ik_quat", start_rotations, (count, 4), "start_rotations", writable=True)
    mid_rot_ptr = arrays.real_pointer("ik_quat", mid_rotations, (count, 4), "mid_rotations", writable=True)
    if reached is None:
        reached = np.zeros(count, dtype=np.intc)
    if residual is None:
        residual = np.zeros(count, dtype=arrays.real_dtype)
    if reached.dtype != np.intc or reached.shape != (count,) or not reached.flags.c_contiguous:
        raise ValueError("reached must be a C-contiguous int32 array of shape (%d,)" % count)
    residual_ptr = arrays.real_pointer("ik_real", residual, (count,), "residual", writable=True)
    reached_ptr = ffi.from_buffer("ik_bool[]", reached, require_writable=True)
    failed = ffi.new("int *", -1)
    job = ffi.new("ik_two_bone_in_place *", lib.ik_two_bone_in_place_def())
    job.limb = _two_bone_job(None, hinge_axis, min_bend, max_bend, soften, twist, weight, reach_tolerance)[0]
    job.count, job.start_ms, job.mid_ms, job.end_ms = count, start_ptr, mid_ptr, end_ptr
    job.target_ms, job.pole_ms = targets_ptr, poles_ptr
    job.start_rotation_ls, job.mid_rotation_ls = start_rot_ptr, mid_rot_ptr
    job.reached, job.residual, job.failed_limb = reached_ptr, residual_ptr, failed
    r = lib.ik_two_bone_in_place_run(job)
    check(r, "two_bone_batch" if failed[0] < 0 else "two_bone_batch, limb %d" % failed[0])
    return reached, residual


def aim(skeleton, pose, joint, target, *, root=None, forward=None, up=None, pole=None, offset=None, twist=None,
        weight=None):
    """Turn `joint` of `pose` in place so the ray from `offset` along
    `forward` (its local frame) passes through `target` (ik_aim_run), its
    `up` leaning to `pole`. Returns whether the ray can reach the target."""
    index = skeleton.index(joint)
    model = skeleton.fk(pose, root)
    model_ptr = arrays.matrices_pointer(model, skeleton.joint_count, "model", writable=False)
    pose_ptr = arrays.pose_pointer(pose, skeleton.joint_count)
    job = ffi.new("ik_aim *", lib.ik_aim_def())
    job.joint_ms = model_ptr + index
    job.target_ms = arrays.vec3(target, "target")
    _set_options(job, dict(forward_ls=forward, up_ls=up, pole_ms=pole, offset_ls=offset, twist=twist,
                           weight=weight))
    job.rotation_ls = ffi.addressof(pose_ptr[index], "rotation")
    reached = ffi.new("ik_bool *")
    job.reached = reached
    check(lib.ik_aim_run(job), "aim")
    return bool(reached[0])


def look_at_chain(skeleton, pose, joints, target, *, weights=None, root=None, forward=None, up=None, pole=None,
                  offset=None, twist=None):
    """Spread an aim over `joints` (root-first, each an ancestor of the
    next: spine, neck, head) of `pose`, in place (ik_look_at_chain_run);
    the ray (`forward`, `up`, `offset`) is in the last joint's frame;
    `weights` per joint (None: an even split). Returns whether it reached."""
    joints = _joint_list(joints)
    model = skeleton.fk(pose, root)
    job = ffi.new("ik_look_at_chain *", lib.ik_look_at_chain_def())
    keep = [ffi.new("int[]", [skeleton.index(j) for j in joints]), arrays.root_pointer(root)]
    job.skeleton = skeleton._ptr
    job.pose_ls = arrays.pose_pointer(pose, skeleton.joint_count)
    job.model_ms = arrays.matrices_pointer(model, skeleton.joint_count, "model")
    job.root_ms = keep[1]
    job.joints, job.count = keep[0], len(joints)
    if weights is not None:
        keep.append(arrays.real_pointer("ik_real", weights, (len(joints),), "weights", writable=False))
        job.weights = keep[-1]
    job.target_ms = arrays.vec3(target, "target")
    _set_options(job, dict(forward_ls=forward, up_ls=up, pole_ms=pole, offset_ls=offset, twist=twist))
    reached = ffi.new("ik_bool *")
    job.reached = reached
    check(lib.ik_look_at_chain_run(job), "look_at_chain")
    return bool(reached[0])


class _ChainJob:
    """The shared part of the chain jobs (chain_base.h): skeleton, pose,
    root, scratch, the joints list and the field a failure names."""

    def __init__(self, job, skeleton, pose, joints, root, scratch_bytes, limits, count):
        self.constraints = constraints_pointer(limits, count)
        self.joints = ffi.new("int[]", [skeleton.index(j) for j in joints]) if joints is not None else None
        self.pose_ptr = arrays.pose_pointer(pose, skeleton.joint_count)
        self.root_ptr = arrays.root_pointer(root)
        self.scratch = ffi.new("char[]", max(int(scratch_bytes), 1))
        self.field_error = ffi.new("ik_error *")
        self.iterations = ffi.new("int *")
        self.error = ffi.new("ik_real *")
        base = job.base
        base.skeleton = skeleton._ptr
        base.pose_ls = self.pose_ptr
        base.root_ms = self.root_ptr
        base.scratch = self.scratch
        base.scratch_bytes = scratch_bytes
        base.error_field = self.field_error
        base.constraints = self.constraints
        base.listed_joint_count = count
        job.iterations = self.iterations
        job.error = self.error


def _joint_list(joints):
    if joints is None or len(joints) == 0:
        raise IkitError("joints", lib.IK_ERR_RANGE, "a chain needs at least one joint")
    return list(joints)


def ccd(skeleton, pose, joints, target, *, limits=None, target_rotation=None, root=None, max_step_angle=None,
        tolerance=None, max_iterations=None):
    """Cyclic coordinate descent (ik_ccd_run) on `joints` (root-first, the
    last is the effector) of `pose`, in place; `limits`: a Limit (or None)
    per joint. Returns (iterations, error)."""
    joints = _joint_list(joints)
    job = ffi.new("ik_ccd *", lib.ik_ccd_def())
    chain = _ChainJob(job, skeleton, pose, joints, root, lib.ik_ccd_scratch_size(len(joints)), limits, len(joints))
    job.joints = chain.joints
    job.target_ms = arrays.vec3(target, "target")
    rotation = None
    if target_rotation is not None:
        rotation = ffi.new("ik_quat *", arrays.quat(target_rotation, "target_rotation"))
        job.target_rotation_ms = rotation
    _set_options(job, dict(max_step_angle=max_step_angle, tolerance=tolerance, max_iterations=max_iterations))
    check_job(lib.ik_ccd_run(job), "ccd", chain.field_error)
    return int(chain.iterations[0]), float(chain.error[0])


def fabrik(skeleton, pose, joints, targets, *, limits=None, effectors=None, target_rotations=None, importances=None,
           root=None, tolerance=None, max_iterations=None):
    """FABRIK (ik_fabrik_run) on `joints` (ascending, the first is the fixed
    base) of `pose`, in place. `targets` (k, 3) for the effectors, given as
    positions in `joints` (None: the last joint); `limits`: a Limit (or
    None) per joint. Returns (iterations, error)."""
    joints = _joint_list(joints)
    targets = np.asarray(targets, dtype=arrays.real_dtype).reshape(-1, 3)
    job = ffi.new("ik_fabrik *", lib.ik_fabrik_def())
    chain = _ChainJob(job, skeleton, pose, joints, root, lib.ik_fabrik_scratch_size(len(joints)), limits,
                      len(joints))
    job.joints = chain.joints
    count = targets.shape[0]
    keep = [arrays.real_pointer("ik_vec3", targets, (count, 3), "targets", writable=False)]
    job.targets_ms = keep[0]
    job.effector_count = count
    if effectors is not None:
        keep.append(ffi.new("int[]", [int(e) for e in effectors]))
        job.effectors = keep[-1]
        if len(effectors) != count:
            raise ValueError("%d effectors for %d targets" % (len(effectors), count))
    if target_rotations is not None:
        keep.append(arrays.real_pointer("ik_quat", target_rotations, (count, 4), "target_rotations", False))
        job.target_rotations_ms = keep[-1]
    if importances is not None:
        keep.append(arrays.real_pointer("ik_real", importances, (count,), "importances", False))
        job.importances = keep[-1]
    _set_options(job, dict(tolerance=tolerance, max_iterations=max_iterations))
    check_job(lib.ik_fabrik_run(job), "fabrik", chain.field_error)
    return int(chain.iterations[0]), float(chain.error[0])


JACOBIAN_METHODS = {"transpose": lib.IK_JACOBIAN_TRANSPOSE, "gradient": lib.IK_JACOBIAN_GRADIENT,
                    "dls": lib.IK_JACOBIAN_DLS, "sdls": lib.IK_JACOBIAN_SDLS}


def jacobian(skeleton, pose, joints, effectors, *, method="dls", limits=None, root=None, tolerance=None,
             angle_tolerance=None, max_iterations=None, damping=None, max_step=None, error_clamp=None,
             gradient_rate=None, min_step=None, gravity=None, down=None):
    """The Jacobian solvers (ik_jacobian_run) on `pose`, in place.
    `joints`: joint names/indices (ball joints: local x, y, z axes) or
    (joint, [axis, ...]) pairs with 1 to 3 local axes. `effectors`: dicts
    with "joint", "target" and optionally "offset", "importance", "rotation"
    (a unit quaternion xyzw goal), "orientation_importance". `limits`: a
    Limit (or None) per entry of `joints`. `method`: "dls"
    (default), "sdls", "transpose" or "gradient". Returns
    (iterations, error, angle_error)."""
    if method not in JACOBIAN_METHODS:
        raise ValueError("method must be one of %s, not %r" % (", ".join(JACOBIAN_METHODS), method))
    joints = _joint_list(joints)
    solver_joints = ffi.new("ik_jacobian_joint[]", len(joints))
    axis_total = 0
    for cell, entry in zip(solver_joints, joints):
        joint, axes = (entry, np.eye(3)) if not isinstance(entry, tuple) else entry
        axes = np.asarray(axes, dtype=np.float64).reshape(-1, 3)
        if not 1 <= len(axes) <= lib.IK_JACOBIAN_MAX_AXES:
            raise IkitError("jacobian joint %r" % (joint,), lib.IK_ERR_RANGE,
                            "a joint turns about 1 to %d axes, not %d" % (lib.IK_JACOBIAN_MAX_AXES, len(axes)))
        cell.joint = skeleton.index(joint)
        cell.axis_count = len(axes)
        for k, axis in enumerate(axes):
            cell.axes_ls[k] = arrays.vec3(axis, "axis")
        axis_total += len(axes)
    solver_effectors = ffi.new("ik_jacobian_effector[]", len(effectors))
    for i, goal in enumerate(effectors):
        solver_effectors[i] = lib.ik_jacobian_effector_make(skeleton.index(goal["joint"]),
                                                            arrays.vec3(goal["target"], "target"))
        cell = solver_effectors[i]
        if goal.get("offset") is not None:
            cell.offset_ls = arrays.vec3(goal["offset"], "offset")
        if goal.get("importance") is not None:
            cell.importance = goal["importance"]
        if goal.get("rotation") is not None:
            cell.use_orientation = 1
            cell.target_rotation_ms = arrays.quat(goal["rotation"], "rotation")
            cell.orientation_importance = goal.get("orientation_importance", 1.0)
    job = ffi.new("ik_jacobian *", lib.ik_jacobian_def())
    scratch = lib.ik_jacobian_scratch_size(skeleton.joint_count, axis_total, len(effectors))
    chain = _ChainJob(job, skeleton, pose, None, root, scratch, limits, len(joints))
    job.joints = solver_joints
    job.effectors = solver_effectors
    job.effector_count = len(effectors)
    job.method = JACOBIAN_METHODS[method]
    angle_error = ffi.new("ik_real *")
    job.angle_error = angle_error
    _set_options(job, dict(tolerance=tolerance, angle_tolerance=angle_tolerance, max_iterations=max_iterations,
                           damping=damping, max_step=max_step, error_clamp=error_clamp, gradient_rate=gradient_rate,
                           min_step=min_step, gravity=gravity, down_ms=down))
    check_job(lib.ik_jacobian_run(job), "jacobian", chain.field_error)
    return int(chain.iterations[0]), float(chain.error[0]), float(angle_error[0])
