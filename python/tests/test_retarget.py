"""Retargeting from Python: a CMU walk (inches-scale BVH) played on girl.glb
(a metre-scale glTF rig with other names and proportions), checked by
forward kinematics: bones keep the girl's lengths, the feet held on the
source's contacts neither slide nor sink, and the poses are `ikc
retarget`'s."""
import subprocess

import numpy as np
import pytest

import ikit
from conftest import asset_path, bone_lengths, positions

# The contact points' joints, by CONTACT_POINTS order.
POINT_ROLES = {"left heel": "left_foot", "left toe": "left_toe", "right heel": "right_foot", "right toe": "right_toe"}


@pytest.fixture
def walk_onto_girl(data):
    source = ikit.load(asset_path(data, "bvh/131_01.bvh"))
    target = ikit.load(asset_path(data, "gltf/girl.glb"))
    poses, frame_time = ikit.bake(source)
    return source, target, poses, frame_time


def _paths(skeleton, poses, joints):
    """Positions (frames, len(joints), 3) in the root space (no root transform)."""
    model = ikit.new_matrices(skeleton.joint_count)
    return np.array([positions(skeleton.fk(poses[f], None, model))[joints] for f in range(poses.shape[0])])


def _held(body, skeleton, poses, contacts):
    """Per held contact: the largest distance its point moves from where it
    stands at the contact's first frame, how far it goes below the
    contact's planted height (the rig's up), and, for a heel (whose ankle
    the clean-up holds at the reported spot), how far it stands from it.
    Contacts of a toe-less foot's ball (no joint: the C tests measure those)
    are left out."""
    joints = [body.roles[POINT_ROLES[name]] for name in ikit.CONTACT_POINTS]
    path = _paths(skeleton, poses, [j if j is not None else 0 for j in joints])
    up = np.array([0.0, 1.0, 0.0])      # girl.glb is Y-up in its root space
    slide, sink, off = [], [], []
    for name, start, end, planted in contacts:
        if joints[ikit.CONTACT_POINTS.index(name)] is None:
            continue
        span = path[start:end + 1, ikit.CONTACT_POINTS.index(name)]
        slide.append(np.linalg.norm(span - span[0], axis=1).max())
        sink.append(max(0.0, (planted @ up - span @ up).max()))
        if name.endswith("heel"):
            off.append(np.linalg.norm(span - planted, axis=1).max())
    return np.array(slide), np.array(sink), np.array(off)


def test_retargeted_walk_keeps_the_girls_bones_and_holds_its_feet(walk_onto_girl):
    source, target, poses, frame_time = walk_onto_girl
    girl = target.skeleton
    body = ikit.Humanoid(girl)
    out, report = ikit.retarget(source, poses, frame_time, target, report=True)
    assert out.shape == (poses.shape[0], girl.joint_count, 10) and out.dtype == ikit.real_dtype
    assert np.isfinite(out).all()
    # CMU units onto metres: the scale is the ratio of leg lengths (about 1/24)
    assert 0.03 < report["scale"] < 0.06 and report["paired_joints"] >= 15
    leg = report["target_leg"]
    assert abs(leg - (body.limb("left_leg")["upper_length"] + body.limb("left_leg")["lower_length"])) < 1e-3 * leg
    # bones keep the girl's own lengths in every frame
    rest = bone_lengths(girl, girl.fk(girl.rest_pose()))
    for f in range(0, out.shape[0], 20):
        assert np.allclose(bone_lengths(girl, girl.fk(out[f])), rest, atol=1e-4 * leg), f
    # the contacts held: several steps per foot, in order, on the take (the result's own, found on it
    # once its stances are held, may outnumber the source's)
    contacts = report["contacts"]
    assert len(contacts) >= 8 and report["source_contacts"] >= 8
    assert {name for name, *_ in contacts} >= {"left heel", "right heel"}
    for name, start, end, planted in contacts:
        assert 0 <= start <= end < out.shape[0] and np.isfinite(planted).all()
    # held feet stay put and do not sink: well under a millimetre on a 0.6 m leg
    slide, sink, off = _held(body, girl, out, contacts)
    assert slide.max() < 1e-3 * leg and sink.max() < 1e-3 * leg, (slide.max(), sink.max())
    # each held heel stands where the report says it was planted
    assert off.max() < 1e-3 * leg, off
    # without the IK pass the same contacts slide by centimetres
    plain = ikit.retarget(source, poses, frame_time, target, hold_feet=False)
    slide_plain, _, _ = _held(body, girl, plain, contacts)
    assert slide_plain.max() > 20 * max(slide.max(), 1e-4 * leg), (slide_plain.max(), slide.max())
    # and the girl walks: her hips go forward by metres, as the capture's by the scale
    hips = _paths(girl, out, [body.roles["hips"]])[:, 0]
    source_hips = _paths(source.skeleton, poses, [ikit.Humanoid(source.skeleton).roles["hips"]])[:, 0]
    travel, source_travel = np.linalg.norm(hips[-1] - hips[0]), np.linalg.norm(source_hips[-1] - source_hips[0])
    assert abs(travel - report["scale"] * source_travel) < 0.05 * travel and travel > 1.0


def test_retarget_equals_ikc_retarget(walk_onto_girl, data, ikc, tmp_path):
    source, target, poses, frame_time = walk_onto_girl
    written = tmp_path / "girl_walk.glb"
    subprocess.run([ikc, "retarget", str(asset_path(data, "bvh/131_01.bvh")), str(asset_path(data, "gltf/girl.glb")),
                    "-o", str(written), "--quiet"], check=True, capture_output=True)
    ours = ikit.retarget(source, poses, frame_time, target)
    result = ikit.load(written)
    theirs, _ = ikit.bake(result, clip=result.clip_names.index("retarget"), frame_time=frame_time)
    assert theirs.shape == ours.shape
    # ikc's file holds one LINEAR key per frame in float: sampled at the
    # frames, the keys themselves (to float and the rounding of the frame's
    # time); a rotation may come back as -q, the same rotation
    tol = 2e-6 * max(1.0, np.abs(ours).max())
    rotation = ikit.POSE_ROTATION
    assert np.abs(np.delete(theirs - ours, np.r_[rotation], axis=2)).max() <= tol
    same = np.abs(theirs[..., rotation] - ours[..., rotation]).max(axis=-1)
    flipped = np.abs(theirs[..., rotation] + ours[..., rotation]).max(axis=-1)
    # a key time in float is off by up to t 2^-24, which moves a joint
    # turning w rad/s by w t 2^-24 rad: a quaternion component by half that
    # (a forearm rolling onto its hinge turns up to 190 rad/s for a frame)
    q = ours[..., rotation]
    turn = 2 * np.arccos(np.clip(np.abs(np.sum(q[1:] * q[:-1], axis=-1)), 0, 1)) / frame_time
    speed = np.maximum(np.vstack([turn[:1], turn]), np.vstack([turn, turn[-1:]]))
    seconds = (np.arange(ours.shape[0]) * frame_time)[:, None]
    assert (np.minimum(same, flipped) <= tol + speed * seconds * 2.0 ** -24).all()


def test_retarget_refuses_bad_input(walk_onto_girl):
    source, target, poses, frame_time = walk_onto_girl
    bad = poses[:100].copy()
    bad[5, 0, 1] = np.inf
    with pytest.raises(ikit.IkitError) as error:
        ikit.retarget(source, bad, frame_time, target)
    assert error.value.code == "IK_ERR_NONFINITE"
    with pytest.raises(ikit.IkitError):
        ikit.retarget(source, poses[:1], frame_time, target)
    with pytest.raises(ikit.IkitError):
        ikit.retarget(source, poses[:100], 0.0, target)
    with pytest.raises(ikit.IkitError):
        ikit.retarget(source, poses[:100], frame_time, target, extra_pairs=[(0, 999)])
    with pytest.raises(ikit.IkitError):
        ikit.retarget(source, poses[:100], frame_time, target, extra_pairs=[("NoSuchJoint", 0)])
    # feet lifted far off the floor in every frame: no contacts to hold
    flying = poses[:100].copy()
    flying[:, 0, 1] += np.linspace(0, 2000, 100, dtype=ikit.real_dtype)
    with pytest.raises(ikit.IkitError) as error:
        ikit.retarget(source, flying, frame_time, target)
    assert error.value.code == "IK_ERR_NOT_FOUND"
    assert np.isfinite(ikit.retarget(source, flying, frame_time, target, hold_feet=False)).all()
    with pytest.raises(TypeError):
        ikit.retarget(source, poses[:100], frame_time, target, heigth_enter=0.1)


def test_retarget_onto_a_bare_skeleton_with_its_metre(walk_onto_girl):
    """A skeleton without its file (the Blender add-on's armatures) given the
    file's metres retargets as the Asset does."""
    source, target, poses, frame_time = walk_onto_girl
    short = poses[:240]
    on_asset = ikit.retarget(source, short, frame_time, target)
    on_skeleton = ikit.retarget(source.skeleton, short, frame_time, target.skeleton, metre=1.0)
    assert np.array_equal(on_asset, on_skeleton)
    with pytest.raises(ikit.IkitError):
        ikit.retarget(source.skeleton, short, frame_time, target.skeleton, metre=-1.0)


def test_stance_clean_equals_ikc_clean(data, ikc, tmp_path):
    """ikit.stance_clean is what `ikc clean` runs: the same take (ikc's
    retarget of 131_01 onto the girl) cleaned by both, the same poses."""
    retargeted, cleaned = tmp_path / "walk.glb", tmp_path / "walk_clean.glb"
    subprocess.run([ikc, "retarget", str(asset_path(data, "bvh/131_01.bvh")), str(asset_path(data, "gltf/girl.glb")),
                    "-o", str(retargeted), "--quiet"], check=True, capture_output=True)
    subprocess.run([ikc, "clean", str(retargeted), "--clip", "retarget", "-o", str(cleaned), "--quiet"],
                   capture_output=True)
    asset = ikit.load(retargeted)
    frame_time = 1.0 / 60   # ikc's glTF frame time (IKC_MOTION_GLTF_FRAME_TIME)
    poses, _ = ikit.bake(asset, clip=asset.clip_names.index("retarget"), frame_time=frame_time)
    ours, found = ikit.stance_clean(asset, poses, frame_time, report=True)
    assert found["kept_round"] <= found["rounds"] and np.isfinite(ours).all()
    result = ikit.load(cleaned)
    theirs, _ = ikit.bake(result, clip=result.clip_names.index("retarget"), frame_time=frame_time)
    skeleton = asset.skeleton
    gap = max(np.abs(positions(skeleton.fk(ours[f], asset.root)) - positions(skeleton.fk(theirs[f], asset.root))).max()
              for f in range(0, poses.shape[0], 7))
    assert gap < 1e-4, gap   # metres: float keys and key times, nothing more
    assert not np.allclose(ours, poses)
