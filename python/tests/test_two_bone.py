"""Two-bone IK from Python, single and batch: solve, forward kinematics by
the library, then check where the end landed and that bones kept their
lengths."""
import numpy as np
import pytest

import ikit
from conftest import LEN_TOL, REACH_TOL, bone_lengths, positions, random_rotation

CASES = 200


def random_limb(rng):
    """root > start > mid > end, random bone directions, lengths and rotations."""
    rest = ikit.new_pose(4)
    rest[0, ikit.POSE_TRANSLATION] = rng.uniform(-2, 2, size=3)
    rest[:, ikit.POSE_ROTATION] = random_rotation(rng, 4)
    for j in (1, 2, 3):
        direction = rng.normal(size=3)
        rest[j, ikit.POSE_TRANSLATION] = rng.uniform(0.3, 1.5) * direction / np.linalg.norm(direction)
    return ikit.Skeleton.from_arrays([-1, 0, 1, 2], rest)


def reachable_target(rng, model):
    p = positions(model)
    l1, l2 = np.linalg.norm(p[2] - p[1]), np.linalg.norm(p[3] - p[2])
    lo, hi = abs(l1 - l2), l1 + l2
    direction = rng.normal(size=3)
    return p[1] + rng.uniform(lo + 0.05 * (hi - lo), hi * 0.95) * direction / np.linalg.norm(direction)


def test_random_limbs_land_on_target_with_lengths_kept(rng):
    for case in range(CASES):
        skeleton = random_limb(rng)
        pose = skeleton.rest_pose()
        before = bone_lengths(skeleton, skeleton.fk(pose))
        target = reachable_target(rng, skeleton.fk(pose))
        reached, residual = ikit.two_bone(skeleton, pose, 1, 2, 3, target)
        model = skeleton.fk(pose)
        landed = positions(model)[3]
        scale = before.sum()
        assert reached, case
        assert np.linalg.norm(landed - target) <= REACH_TOL * scale * 10, case
        assert abs(residual - np.linalg.norm(landed - target)) <= REACH_TOL * scale * 10
        assert np.allclose(bone_lengths(skeleton, model), before, atol=LEN_TOL * scale * 10)
        assert np.isfinite(pose).all()


def test_out_of_reach_straightens_toward_target(rng):
    skeleton = random_limb(rng)
    pose = skeleton.rest_pose()
    p = positions(skeleton.fk(pose))
    target = p[1] + 10 * (p[3] - p[1])
    reached, residual = ikit.two_bone(skeleton, pose, 1, 2, 3, target)
    q = positions(skeleton.fk(pose))
    assert not reached and residual > 0
    towards = (target - q[1]) / np.linalg.norm(target - q[1])
    assert np.dot((q[3] - q[1]) / np.linalg.norm(q[3] - q[1]), towards) > 1 - 1e-4


def test_pole_bends_the_knee_toward_it():
    rest = ikit.new_pose(3)
    rest[1, ikit.POSE_TRANSLATION] = [0, -0.45, 0]
    rest[2, ikit.POSE_TRANSLATION] = [0, -0.42, 0]
    skeleton = ikit.Skeleton.from_arrays([-1, 0, 1], rest, ["hip", "knee", "ankle"])
    for side in (1, -1):
        pose = skeleton.rest_pose()
        reached, _ = ikit.two_bone(skeleton, pose, "hip", "knee", "ankle", [0, -0.6, 0], pole=[0, -0.3, side])
        knee = positions(skeleton.fk(pose))[1]
        assert reached and np.sign(knee[2]) == side


def test_weight_zero_keeps_the_pose(rng):
    skeleton = random_limb(rng)
    pose = skeleton.rest_pose()
    kept = pose.copy()
    ikit.two_bone(skeleton, pose, 1, 2, 3, reachable_target(rng, skeleton.fk(pose)), weight=0)
    assert np.allclose(pose, kept, atol=1e-6)


def test_target_on_the_start_joint_is_finite(rng):
    skeleton = random_limb(rng)
    pose = skeleton.rest_pose()
    ikit.two_bone(skeleton, pose, 1, 2, 3, positions(skeleton.fk(pose))[1])
    assert np.isfinite(pose).all()


def test_bad_input_raises_and_leaves_the_pose(rng):
    skeleton = random_limb(rng)
    pose = skeleton.rest_pose()
    kept = pose.copy()
    for target in ([np.nan, 0, 0], [np.inf, 0, 0]):
        with pytest.raises(ikit.IkitError, match="NaN or an infinite") as caught:
            ikit.two_bone(skeleton, pose, 1, 2, 3, target)
        assert caught.value.code == "IK_ERR_NONFINITE"
    with pytest.raises(ikit.IkitError, match="out of range"):
        ikit.two_bone(skeleton, pose, 1, 2, 3, [0, 0, 0], soften=1.5)
    with pytest.raises(ikit.IkitError):
        ikit.two_bone(skeleton, pose, 1, 2, 7, [0, 0, 0])
    with pytest.raises(ValueError):
        ikit.two_bone(skeleton, pose, 1, 2, 3, [0, 0])
    assert np.array_equal(pose, kept)


def batch_of_limbs(rng, count):
    """`count` random limbs as the batch call takes them, and their skeletons."""
    skeletons = [random_limb(rng) for _ in range(count)]
    start, mid, end = (ikit.new_matrices(count) for _ in range(3))
    start_rot = np.zeros((count, 4), dtype=ikit.real_dtype)
    mid_rot = np.zeros((count, 4), dtype=ikit.real_dtype)
    targets = np.zeros((count, 3), dtype=ikit.real_dtype)
    for i, skeleton in enumerate(skeletons):
        pose = skeleton.rest_pose()
        model = skeleton.fk(pose)
        start[i], mid[i], end[i] = model[1], model[2], model[3]
        start_rot[i], mid_rot[i] = pose[1, ikit.POSE_ROTATION], pose[2, ikit.POSE_ROTATION]
        targets[i] = reachable_target(rng, model)
    return skeletons, start, mid, end, targets, start_rot, mid_rot


def test_batch_solves_every_limb_in_place(rng):
    skeletons, start, mid, end, targets, start_rot, mid_rot = batch_of_limbs(rng, CASES)
    start_view, mid_view = start_rot[:], mid_rot[:]
    reached, residual = ikit.two_bone_batch(start, mid, end, targets, start_rot, mid_rot)
    assert np.shares_memory(start_view, start_rot) and np.shares_memory(mid_view, mid_rot)
    for i, skeleton in enumerate(skeletons):
        pose = skeleton.rest_pose()
        lengths = bone_lengths(skeleton, skeleton.fk(pose))
        pose[1, ikit.POSE_ROTATION] = start_rot[i]      # the rotations the batch wrote
        pose[2, ikit.POSE_ROTATION] = mid_rot[i]
        model = skeleton.fk(pose)
        assert reached[i] == 1
        assert np.linalg.norm(positions(model)[3] - targets[i]) <= REACH_TOL * lengths.sum() * 10, i
        assert np.allclose(bone_lengths(skeleton, model), lengths, atol=LEN_TOL * lengths.sum() * 10)
    assert np.isfinite(residual).all()


# The batch job's rounding: without a hinge or twist the batch call runs
# ik_two_bone_batch_run (new rotation = old * correction, normalised), which
# agrees with ik_two_bone_run per quaternion component to the tolerance
# tests/test_two_bone_batch.c holds the batch job to (SAME_TOL: 2e-5 in
# float, about 170 ulps of 1; seen up to 16 ulps over 2,000 random limbs).
# It was bit for bit when the batch call looped over ik_two_bone_run, as it
# still does with a hinge (tested exactly below).
BATCH_ROUNDING = 1e-9 if ikit.built_double else 2e-5


def test_batch_equals_single_calls_to_rounding(rng):
    skeletons, start, mid, end, targets, start_rot, mid_rot = batch_of_limbs(rng, 200)
    poles = rng.normal(size=(200, 3)).astype(ikit.real_dtype)
    ikit.two_bone_batch(start, mid, end, targets, start_rot, mid_rot, poles=poles, soften=0.1)
    for i, skeleton in enumerate(skeletons):
        pose = skeleton.rest_pose()
        ikit.two_bone(skeleton, pose, 1, 2, 3, targets[i], pole=poles[i], soften=0.1)
        assert np.abs(pose[1, ikit.POSE_ROTATION] - start_rot[i]).max() <= BATCH_ROUNDING, i
        assert np.abs(pose[2, ikit.POSE_ROTATION] - mid_rot[i]).max() <= BATCH_ROUNDING, i


def test_batch_with_hinge_equals_single_calls_exactly(rng):
    skeletons, start, mid, end, targets, start_rot, mid_rot = batch_of_limbs(rng, 20)
    poles = rng.normal(size=(20, 3)).astype(ikit.real_dtype)
    options = dict(hinge_axis=(1, 0, 0), min_bend=0.1, max_bend=2.5, soften=0.1)
    ikit.two_bone_batch(start, mid, end, targets, start_rot, mid_rot, poles=poles, **options)
    for i, skeleton in enumerate(skeletons):
        pose = skeleton.rest_pose()
        ikit.two_bone(skeleton, pose, 1, 2, 3, targets[i], pole=poles[i], **options)
        assert np.array_equal(pose[1, ikit.POSE_ROTATION], start_rot[i])
        assert np.array_equal(pose[2, ikit.POSE_ROTATION], mid_rot[i])


def test_batch_refuses_bad_rotations_as_the_single_call(rng):
    _, start, mid, end, targets, start_rot, mid_rot = batch_of_limbs(rng, 12)
    start_rot[9] = np.nan
    kept = start_rot.copy()
    with pytest.raises(ikit.IkitError, match="limb 9: an input holds NaN"):
        ikit.two_bone_batch(start, mid, end, targets, start_rot, mid_rot)
    assert np.array_equal(start_rot[9:], kept[9:], equal_nan=True)
    start_rot[9] = kept[8]
    mid_rot[10] = 0
    with pytest.raises(ikit.IkitError, match="limb 10"):
        ikit.two_bone_batch(start, mid, end, targets, start_rot, mid_rot)
    assert not np.any(mid_rot[10])


def test_batch_names_the_bad_limb(rng):
    _, start, mid, end, targets, start_rot, mid_rot = batch_of_limbs(rng, 5)
    targets[3, 1] = np.nan
    kept = mid_rot.copy()
    with pytest.raises(ikit.IkitError, match="limb 3: an input holds NaN"):
        ikit.two_bone_batch(start, mid, end, targets, start_rot, mid_rot)
    assert np.array_equal(mid_rot[3:], kept[3:])
    with pytest.raises(TypeError, match="dtype"):
        ikit.two_bone_batch(start, mid, end, targets, start_rot.astype(np.float16), mid_rot)
    with pytest.raises(ValueError, match="shape"):
        ikit.two_bone_batch(start, mid, end, targets[:4], start_rot, mid_rot)


def test_batch_accepts_row_major_matrices_as_input(rng):
    skeletons, start, mid, end, targets, start_rot, mid_rot = batch_of_limbs(rng, 10)
    copies = [np.ascontiguousarray(m, dtype=np.float64) for m in (start, mid, end)]   # plain [row, col] arrays
    a_start, a_mid = start_rot.copy(), mid_rot.copy()
    ikit.two_bone_batch(start, mid, end, targets, a_start, a_mid)
    ikit.two_bone_batch(*copies, targets, start_rot, mid_rot)
    assert np.allclose(a_start, start_rot, atol=1e-6) and np.allclose(a_mid, mid_rot, atol=1e-6)
