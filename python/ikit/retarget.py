"""Retargeting (ik_retarget_run): a take of one humanoid played on another
skeleton, with other proportions, rest pose, names and units; the source's
foot contacts held on the new legs. Both bodies are mapped by humanoid
roles (Humanoid), so CMU, Mixamo and Rigify names work, or a mapping
names the joints."""
import numpy as np

from . import arrays
from ._ikit import ffi, lib
from .errors import IkitError
from .humanoid import Humanoid
from .motion import CONTACT_OPTIONS, CONTACT_POINTS, take_over

_REPORT_FIELDS = ("scale", "source_leg", "target_leg", "paired_joints", "source_contacts")


def _skeleton_of(asset_or_skeleton):
    return getattr(asset_or_skeleton, "skeleton", asset_or_skeleton)


def _joint(skeleton, joint):
    return skeleton.index(joint) if isinstance(joint, str) else int(joint)


def retarget(source, source_poses, frame_time, target, *, source_humanoid=None, target_humanoid=None,
             source_mapping=None, target_mapping=None, extra_pairs=None, pair_same_names=True, hold_feet=True,
             hold_hands=False, blend_time=None, plant_rounds=None, metre=None, report=False, **thresholds):
    """Play `source_poses` (frames, source joints, 10), a take at
    `frame_time` seconds a frame of `source` (an Asset or a Skeleton), on
    `target` (an Asset or a Skeleton). Returns the target's poses (frames,
    target joints, 10), in each skeleton's root space as the C job works.
    `source_humanoid` / `target_humanoid`: Humanoids on those skeletons
    (default: found by name, with the optional `*_mapping`).
    `extra_pairs`: (source joint, target joint) pairs by name or index
    (fingers, tails). `pair_same_names`: pair unmapped joints with one name
    in both. `hold_feet`: the IK pass that holds the source's foot contacts
    (IkitError IK_ERR_NOT_FOUND when the source's feet never touch the
    floor). `hold_hands`: hands to the source's hand positions, mapped.
    `blend_time`: the footskate easing (seconds). `plant_rounds`: rounds of
    whole stances (the result's own sliding contacts held too; default 3,
    0 holds only the source's), in the target file's metres where it has
    them (a glTF Asset; ikc retarget does the same). `metre`: the target's
    root units per metre for those thresholds where the target is a bare
    Skeleton (the Blender add-on passes its armature's; default: the glTF
    Asset's own, else estimated from the legs). `thresholds`: the source
    contacts' floor_percentile, height_enter/exit, speed_enter/exit,
    max_gap, min_duration (as foot_contacts). With report=True returns
    (poses, dict): the job's report (scale, leg lengths, paired joints,
    source contacts) and "contacts", the contacts held on the target: a
    list of (point name, start, end, position in the target's root space)."""
    source_skeleton, target_skeleton = _skeleton_of(source), _skeleton_of(target)
    source_body = source_humanoid if source_humanoid is not None else Humanoid(source_skeleton, source_mapping)
    target_body = target_humanoid if target_humanoid is not None else Humanoid(target_skeleton, target_mapping)
    source_take, source_poses = take_over(source_poses, source_skeleton.joint_count, frame_time)
    frames = source_poses.shape[0]
    poses = np.zeros((frames, target_skeleton.joint_count, arrays.REALS_PER_TRANSFORM), dtype=arrays.real_dtype)
    target_take, poses = take_over(poses, target_skeleton.joint_count, frame_time, writable=True)

    job = ffi.new("ik_retarget *", lib.ik_retarget_def())
    job.source_rig, job.source, job.target_rig, job.target = source_body._rig, source_take, target_body._rig, target_take
    pairs = [(_joint(source_skeleton, a), _joint(target_skeleton, b)) for a, b in (extra_pairs or [])]
    pair_cells = ffi.new("ik_retarget_pair[]", max(len(pairs), 1))
    for cell, (a, b) in zip(pair_cells, pairs):
        cell.source_joint, cell.target_joint = a, b
    job.extra_pairs, job.extra_pair_count = pair_cells, len(pairs)
    job.pair_same_names, job.hold_feet, job.hold_hands = bool(pair_same_names), bool(hold_feet), bool(hold_hands)
    for name, value in thresholds.items():
        if name not in CONTACT_OPTIONS:
            raise TypeError("retarget() got an unexpected option %r" % name)
        setattr(job.contacts, name, value)
    if blend_time is not None:
        job.blend_time = blend_time
    if plant_rounds is not None:
        job.plant_rounds = int(plant_rounds)
    if metre is not None:
        job.ground_metre = metre
    elif getattr(target, "_asset", None) is not None:
        job.ground_metre = lib.ik_asset_metre(target._asset)
    capacity = 2 * (frames + 1)
    contacts = ffi.new("ik_foot_contact[]", capacity)
    count = ffi.new("int *")
    job.target_contacts, job.contact_capacity, job.contact_count = contacts, capacity, count
    size = lib.ik_retarget_scratch_size(frames, source_skeleton.joint_count, target_skeleton.joint_count)
    scratch = ffi.new("char[]", max(size, 1))
    job.scratch, job.scratch_bytes = scratch, size
    out = ffi.new("ik_retarget_report *")
    job.report = out
    r = lib.ik_retarget_run(job)
    if r == lib.IK_ERR_NOT_FOUND and hold_feet:
        raise IkitError("retarget", r, "the source's feet are never on the floor (no contacts found): nothing to "
                        "hold on the target (hold_feet=False retargets without the IK pass)")
    if r != lib.IK_OK:
        raise IkitError("retarget", r)
    if not report:
        return poses
    found = {name: (float if isinstance(getattr(out, name), float) else int)(getattr(out, name))
             for name in _REPORT_FIELDS}
    found["contacts"] = [(CONTACT_POINTS[c.point], int(c.start), int(c.end),
                          np.array([c.planted_ms.x, c.planted_ms.y, c.planted_ms.z]))
                         for c in (contacts[i] for i in range(count[0]))]
    return poses, found
