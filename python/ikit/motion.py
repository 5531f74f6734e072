"""The motion layer: takes baked from clips (ik_take_bake), foot contacts
(ik_foot_paths_record_rig + ik_foot_contacts_run), footskate clean-up
(ik_footskate_plan + apply) and procedural walks (ik_walk_run), on flat
ground or an ikit.Ground. Key fitting is in key_fit.py, retargeting in
retarget.py. A take is
a (frames, joints, 10) array of real_dtype: one local pose per frame, the
library's ik_transform layout."""
import numpy as np

from . import arrays
from ._ikit import ffi, lib
from .errors import IkitError, check
from .ground import Ground
from .humanoid import Humanoid

CONTACT_POINTS = [ffi.string(lib.ik_foot_point_name(p)).decode() for p in range(lib.IK_FOOT_CONTACT_POINTS)]
CONTACT_OPTIONS = ("floor_percentile", "height_enter", "height_exit", "speed_enter", "speed_exit", "max_gap",
                    "min_duration")
_WALK_OPTIONS = ("speed", "stride", "cadence", "step_height", "stance_fraction", "bob", "sway", "arm_swing",
                 "toe_off")


def take_over(poses, joint_count, frame_time, writable=False):
    """An ik_take over `poses` itself (no copy), and the array it points at."""
    if not isinstance(poses, np.ndarray) or poses.dtype != arrays.real_dtype or not poses.flags.c_contiguous:
        if writable:
            raise ValueError("poses must be a C-contiguous %s array" % arrays.real_dtype)
        poses = np.ascontiguousarray(poses, dtype=arrays.real_dtype)
    if poses.ndim != 3 or poses.shape[1:] != (joint_count, arrays.REALS_PER_TRANSFORM):
        raise ValueError("poses must have shape (frames, %d, 10), not %s" % (joint_count, poses.shape))
    take = ffi.new("ik_take *")
    take.frame_count, take.joint_count, take.frame_time = poses.shape[0], joint_count, frame_time
    take.poses_ls = ffi.from_buffer("ik_transform[]", poses, require_writable=writable)
    return take, poses


def bake(asset, clip=0, frame_time=None):
    """Clip `clip` of `asset` as a take (ik_take_bake on the rest pose):
    (poses, frame_time). A BVH keeps its own frames and frame time; other
    clips are sampled at `frame_time` (default 1/30 s) over their duration."""
    pointer = asset._clip(clip)
    if frame_time is None:
        frame_time = asset.frame_time if asset.format == "bvh" else 1.0 / 30
    if asset.format == "bvh":
        frames = asset.frame_count
    else:
        frames = lib.ik_take_frame_count(pointer.duration, frame_time, 1 << 20)
        if frames == 0:
            raise IkitError("bake", lib.IK_ERR_RANGE, "frame time %r does not cover the clip" % (frame_time,))
    joints = asset.skeleton.joint_count
    poses = np.zeros((frames, joints, arrays.REALS_PER_TRANSFORM), dtype=arrays.real_dtype)
    take, poses = take_over(poses, joints, frame_time, writable=True)
    check(lib.ik_take_bake(take, pointer, asset.skeleton._ptr.rest_ls), "bake")
    return poses, float(frame_time)


class _Contacts:
    """The C contacts of a take and what found them (skeleton, rig, root)."""

    def __init__(self, asset_or_skeleton, take_poses, frame_time, root, humanoid, mapping, thresholds):
        skeleton = getattr(asset_or_skeleton, "skeleton", asset_or_skeleton)
        if root is None and skeleton is not asset_or_skeleton:
            root = asset_or_skeleton.root
        self.skeleton, self.root_ptr = skeleton, arrays.root_pointer(root)
        self.body = humanoid if humanoid is not None else Humanoid(skeleton, mapping)
        joints = ffi.new("int[]", int(lib.IK_FOOT_PATH_POINTS))
        lib.ik_foot_point_joints(self.body._rig, joints)
        if joints[0] < 0 or joints[2] < 0:
            raise IkitError("foot contacts", lib.IK_ERR_NOT_FOUND, "a leg ends without a foot joint: contacts "
                            "need ankle joints (a mapping can name them)")
        self.take, self.poses = take_over(take_poses, skeleton.joint_count, frame_time)
        frames = self.poses.shape[0]
        self.model = ffi.new("ik_mat4[]", max(skeleton.joint_count, 1))
        paths = ffi.new("ik_vec3[]", max(frames, 1) * int(lib.IK_FOOT_PATH_POINTS))
        bad = ffi.new("int *", -1)
        present = ffi.new("ik_bool[]", int(lib.IK_FOOT_CONTACT_POINTS))
        # each heel, each toe or a toe-less foot's ball, the hips, as ikc records them
        r = lib.ik_foot_paths_record_rig(self.body._rig, self.take, self.root_ptr, self.model, paths, present, bad)
        if r != lib.IK_OK:
            raise IkitError("foot paths" + (" (frame %d)" % bad[0] if bad[0] >= 0 else ""), r)
        # Up and leg length in model space, as ikc finds them (ik_body_frame_compute).
        self.frame, error = ffi.new("ik_body_frame *"), ffi.new("ik_error *")
        r = lib.ik_body_frame_compute(self.body._rig, self.root_ptr, self.frame, error)
        if r != lib.IK_OK:
            raise IkitError("body frame", r, ffi.string(error.message).decode() or None)
        self.up, self.leg_length = self.frame.up_ms, float(self.frame.leg_length)
        job = ffi.new("ik_foot_contacts *", lib.ik_foot_contacts_def())
        job.paths_ms, job.frame_count, job.frame_time = paths, frames, frame_time
        for p in range(lib.IK_FOOT_CONTACT_POINTS):
            job.present[p] = present[p]
        job.up_ms, job.leg_length = self.up, self.leg_length
        for name, value in thresholds.items():
            if name not in CONTACT_OPTIONS:
                raise TypeError("unexpected foot contact option %r" % name)
            setattr(job, name, value)
        scratch = ffi.new("ik_real[]", 2 * max(frames, 1))
        self.contacts = ffi.new("ik_foot_contact[]", max(frames, 1))
        count = ffi.new("int *")
        job.scratch, job.contacts, job.capacity, job.count = scratch, self.contacts, max(frames, 1), count
        self.levels = ffi.new("ik_real[]", int(lib.IK_FOOT_CONTACT_POINTS))  # each point's floor level
        job.levels = self.levels
        check(lib.ik_foot_contacts_run(job), "foot contacts")
        self.count = int(count[0])

    def by_point(self):
        out = {name: [] for name in CONTACT_POINTS}
        for i in range(self.count):
            c = self.contacts[i]
            out[CONTACT_POINTS[c.point]].append(
                (int(c.start), int(c.end), np.array([c.planted_ms.x, c.planted_ms.y, c.planted_ms.z])))
        return out


def foot_contacts(asset_or_skeleton, take_poses, frame_time, *, root=None, humanoid=None, mapping=None,
                  **thresholds):
    """The intervals each foot point stands planted in the take (seconds per
    frame `frame_time`): a dict point name ("left heel", "left toe", "right
    heel", "right toe") -> list of (start, end, position), frames inclusive,
    position the point's mean model-space position over the interval.
    `asset_or_skeleton`: an Asset (its skeleton and root) or a Skeleton
    (with `root`, None: identity). `humanoid`: a Humanoid on that skeleton
    (default: found by name, with optional `mapping`). `thresholds`: the
    job's floor_percentile, height_enter/exit, speed_enter/exit (leg
    lengths, leg lengths per second), max_gap, min_duration (seconds)."""
    return _Contacts(asset_or_skeleton, take_poses, frame_time, root, humanoid, mapping, thresholds).by_point()


def clean(asset_or_skeleton, take_poses, frame_time, *, root=None, humanoid=None, mapping=None, blend_time=None,
          reach=None, follow_heel_lift=True, **thresholds):
    """Footskate clean-up (ik_footskate_plan + ik_footskate_apply): the
    take's foot contacts found as foot_contacts does (same arguments and
    thresholds), then every planted foot held at its contact's position.
    Returns the cleaned poses, a new (frames, joints, 10) array; the input
    is not changed. `blend_time` (seconds), `reach` (fraction of a
    straight leg) and `follow_heel_lift` (a held heel rises where the take
    lifts it, as ikc clean does) are the job's options."""
    found = _Contacts(asset_or_skeleton, np.array(take_poses, dtype=arrays.real_dtype, order="C", copy=True),
                      frame_time, root, humanoid, mapping, thresholds)
    job = ffi.new("ik_footskate *", lib.ik_footskate_def())
    job.rig, job.root_ms, job.take = found.body._rig, found.root_ptr, found.take
    job.contacts, job.contact_count, job.model_ms = found.contacts, found.count, found.model
    if blend_time is not None:
        job.blend_time = blend_time
    if reach is not None:
        job.reach = reach
    job.follow_heel_lift = bool(follow_heel_lift)
    size = lib.ik_footskate_scratch_size(found.take, found.count)
    scratch = ffi.new("char[]", max(size, 1))
    job.scratch, job.scratch_bytes = scratch, size
    check(lib.ik_footskate_run(job), "footskate")
    return found.poses


def stance_clean(asset_or_skeleton, take_poses, frame_time, *, root=None, humanoid=None, mapping=None, metre=None,
                 rounds=None, blend_time=None, follow_heel_lift=True, report=False, **thresholds):
    """The clean-up `ikc clean` runs (ik_stance_clean_run): the take's
    contacts found as foot_contacts does (same arguments and thresholds),
    held by a footskate pass, then for a few `rounds` the result's own
    sliding contacts held too, a round kept only where it does better
    without new knee flips, speed or depth. `metre`: model units per metre
    under the root (default as ikc: 1 for a glTF Asset, else estimated from
    the legs). Returns the cleaned poses (a new array; the input is not
    changed), and with report=True (poses, dict of ik_stance_clean_report)."""
    found = _Contacts(asset_or_skeleton, np.array(take_poses, dtype=arrays.real_dtype, order="C", copy=True),
                      frame_time, root, humanoid, mapping, thresholds)
    capacity = 2 * max(found.poses.shape[0], 1)
    contacts = ffi.new("ik_foot_contact[]", capacity)
    for i in range(found.count):
        contacts[i] = found.contacts[i]
    count = ffi.new("int *", found.count)
    job = ffi.new("ik_stance_clean *", lib.ik_stance_clean_def())
    job.rig, job.root_ms, job.take = found.body._rig, found.root_ptr, found.take
    job.contacts, job.count, job.capacity = contacts, count, capacity
    if metre is None:
        gltf = getattr(asset_or_skeleton, "format", None) == "gltf"
        metre = 1.0 if gltf else lib.ik_foot_metre(found.leg_length)
    job.metre, job.leg_length, job.levels = metre, found.leg_length, found.levels
    if rounds is not None:
        job.rounds = int(rounds)
    if blend_time is not None:
        job.blend_time = blend_time
    job.follow_heel_lift = bool(follow_heel_lift)
    size = lib.ik_stance_clean_scratch_size(found.take, capacity)
    scratch = ffi.new("char[]", max(size, 1))
    job.scratch, job.scratch_bytes = scratch, size
    out = ffi.new("ik_stance_clean_report *")
    job.report = out
    check(lib.ik_stance_clean_run(job), "stance clean")
    if not report:
        return found.poses
    return found.poses, {name: (float if isinstance(getattr(out, name), float) else int)(getattr(out, name))
                         for name in ("rounds", "kept_round", "worst_slide", "added_speed", "knee_flips",
                                      "deepest_sole", "beyond_limits")}


def skating(asset_or_skeleton, take_poses, frame_time, *, reference=None, root=None, humanoid=None,
            mapping=None, slide_speed=None, **thresholds):
    """How much the take's planted feet slide (ik_skating_measure_run) over
    the contacts found on `reference` (the take before a clean-up; default
    the take itself) as foot_contacts finds them. `slide_speed` (model
    units per second; default 2 cm/s by the leg length, as ikc). With a
    reference also what changed: the largest move of a joint outside the
    legs, knee straightening, the speed a change added. Returns a dict of
    the ik_skating fields."""
    skeleton = getattr(asset_or_skeleton, "skeleton", asset_or_skeleton)
    found = _Contacts(asset_or_skeleton, take_poses if reference is None else reference, frame_time, root,
                      humanoid, mapping, thresholds)
    take, poses = take_over(take_poses, skeleton.joint_count, frame_time)
    joints = max(skeleton.joint_count, 1)
    out = ffi.new("ik_skating *")
    job = ffi.new("ik_skating_measure *", lib.ik_skating_measure_def())
    job.rig, job.root_ms, job.take = found.body._rig, found.root_ptr, take
    job.contacts, job.contact_count, job.up_ms = found.contacts, found.count, found.up
    job.slide_speed = 0.02 * lib.ik_foot_metre(found.leg_length) if slide_speed is None else slide_speed
    job.model_ms, job.out = found.model, out
    reference_model = ffi.new("ik_mat4[]", joints)
    previous = ffi.new("ik_vec3[]", 2 * joints)
    if reference is not None:
        job.reference, job.reference_ms, job.previous_ms = found.take, reference_model, previous
    check(lib.ik_skating_measure_run(job), "skating")
    return {name: (float if isinstance(getattr(out, name), float) else int)(getattr(out, name))
            for name in ("travel", "worst_travel", "contact_frames", "sliding_frames", "upper_change",
                         "upper_change_joint", "knee_straightening", "knee_snaps", "added_speed",
                         "added_speed_joint", "added_speed_frame")}


def walk(humanoid, seconds, fps=30, *, root=None, ground=None, report=False, **options):
    """A procedural walk (ik_walk_run) of `seconds` at `fps` frames per
    second for `humanoid` (a Humanoid) under `root` (4x4, None: identity):
    the poses (frames, joints, 10). `ground`: an ikit.Ground (a plane, a
    slope, stairs or a height field) in the walk frame (walk_frame: origin
    on the rest floor under the hips, +Y the rig's up, +Z forward, model
    units); None: flat ground through the rest floor. `options`: the job's
    speed, stride, cadence, step_height (model units), stance_fraction,
    bob, sway, arm_swing, toe_off, as walk.h describes; unset ones keep the
    defaults the job derives from the leg length. With report=True returns
    (poses, dict of the job's report)."""
    if not (np.isfinite(fps) and fps > 0):
        raise IkitError("walk", lib.IK_ERR_RANGE, "fps must be positive and finite, not %r" % (fps,))
    frame_time = 1.0 / fps
    frames = lib.ik_take_frame_count(seconds, frame_time, 1 << 20)
    if frames == 0:
        raise IkitError("walk", lib.IK_ERR_RANGE, "cannot make frames of %r s at %r fps" % (seconds, fps))
    skeleton = humanoid.skeleton
    root_ptr = arrays.root_pointer(root)
    job = ffi.new("ik_walk *", lib.ik_walk_def(humanoid._rig, root_ptr))
    if ground is not None:
        if not isinstance(ground, Ground):
            raise TypeError("ground must be an ikit.Ground (Ground.plane, .slope, .stairs, .height_field)")
        job.ground = ground._cell
    for name, value in options.items():
        if name not in _WALK_OPTIONS:
            raise TypeError("walk() got an unexpected option %r" % name)
        setattr(job, name, value)
    poses = np.zeros((frames, skeleton.joint_count, arrays.REALS_PER_TRANSFORM), dtype=arrays.real_dtype)
    take, poses = take_over(poses, skeleton.joint_count, frame_time, writable=True)
    model = ffi.new("ik_mat4[]", max(skeleton.joint_count, 1))
    walk_report = ffi.new("ik_walk_report *")
    job.take, job.model_ms, job.report = take, model, walk_report
    problem = ffi.new("char **")
    r = lib.ik_walk_validate(job, ffi.cast("const char **", problem))
    if r != lib.IK_OK:
        raise IkitError("walk", r, ffi.string(problem[0]).decode() if problem[0] != ffi.NULL else None)
    check(lib.ik_walk_run(job), "walk")
    if not report:
        return poses
    return poses, {"distance": float(walk_report.distance), "steps": int(walk_report.steps),
                   "worst_residual": float(walk_report.worst_residual),
                   "lowest_pelvis": float(walk_report.lowest_pelvis)}


def walk_frame(humanoid, root=None):
    """The walk frame in model space (ik_walk_frame), 4x4 [row, col]: its
    columns are X, Y (the rig's up), Z (forward) and the origin (the rest
    floor under the hips), so a walk-frame point p is at frame @ (p, 1)."""
    frame = ffi.new("ik_mat4 *")
    check(lib.ik_walk_frame(humanoid._rig, arrays.root_pointer(root), frame), "walk frame")
    return np.array(list(frame.m), dtype=np.float64).reshape(4, 4).T
