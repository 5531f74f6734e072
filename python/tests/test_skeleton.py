"""Skeletons: construction checks, names, forward kinematics by the library,
and poses shared with C without copies."""
import numpy as np
import pytest

import ikit
from conftest import chain_skeleton, positions, random_rotation


def quat_rotate(q, v):
    x, y, z, w = q
    u = np.array([x, y, z])
    return v + 2 * np.cross(u, np.cross(u, v) + w * v)


def test_fk_places_each_joint_at_its_parent_plus_rotated_offset(rng):
    skeleton = chain_skeleton(6, rng)
    pose = skeleton.rest_pose()
    pose[:, ikit.POSE_ROTATION] = random_rotation(rng, 6)
    model = skeleton.fk(pose)
    p = positions(model)
    rotation_ms = [None] * 6
    for j in range(6):
        q = np.asarray(pose[j, ikit.POSE_ROTATION], dtype=np.float64)
        if j == 0:
            rotation_ms[j] = q
            expected = np.asarray(pose[j, ikit.POSE_TRANSLATION], dtype=np.float64)
        else:
            parent = rotation_ms[j - 1]
            expected = p[j - 1] + quat_rotate(parent, np.asarray(pose[j, ikit.POSE_TRANSLATION], dtype=np.float64))
            x1, y1, z1, w1 = parent
            x2, y2, z2, w2 = q
            rotation_ms[j] = np.array([w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2, w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
                                       w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2, w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2])
        assert np.allclose(p[j], expected, atol=1e-5), j
    assert np.allclose(model[:, 3], [0, 0, 0, 1])


def test_root_transform_applies_above_the_roots(rng):
    skeleton = chain_skeleton(3, rng)
    pose = skeleton.rest_pose()
    root = np.eye(4)
    root[:3, 3] = [1, 2, 3]
    assert np.allclose(positions(skeleton.fk(pose, root)), positions(skeleton.fk(pose)) + [1, 2, 3], atol=1e-6)


def test_pose_is_shared_with_c_not_copied(rng):
    skeleton = chain_skeleton(4, rng)
    pose = skeleton.rest_pose()
    model = ikit.new_matrices(4)
    assert skeleton.fk(pose, out=model) is model
    before = positions(model).copy()
    pose[0, 0] += 5                         # a write from Python ...
    skeleton.fk(pose, out=model)            # ... is what C reads,
    assert np.allclose(positions(model)[:, 0], before[:, 0] + 5, atol=1e-5)
    ikit.two_bone(skeleton, pose, 1, 2, 3, positions(model)[3] + [0.1, 0, 0])
    assert pose.dtype == ikit.real_dtype    # and C's writes land in the same array
    assert np.allclose(np.linalg.norm(pose[:, ikit.POSE_ROTATION], axis=1), 1, atol=1e-5)
    assert skeleton.rest.flags.writeable is False
    assert np.shares_memory(skeleton.to_local(model, out=pose), pose)


def test_to_local_inverts_fk(rng):
    skeleton = chain_skeleton(5, rng)
    pose = skeleton.rest_pose()
    pose[:, ikit.POSE_ROTATION] = random_rotation(rng, 5)
    back = skeleton.to_local(skeleton.fk(pose))
    assert np.allclose(positions(skeleton.fk(back)), positions(skeleton.fk(pose)), atol=1e-5)


def test_names_find_and_chain():
    skeleton = ikit.Skeleton.humanoid(1.8)
    assert skeleton.joint_count == 23
    assert skeleton.names[skeleton.index("LeftUpLeg")] == "LeftUpLeg"
    foot = skeleton.index("LeftFoot")
    chain = skeleton.chain("LeftFoot", 3)
    assert chain[-1] == foot and skeleton.parents[chain[2]] == chain[1] and skeleton.parents[chain[1]] == chain[0]
    feet = positions(skeleton.fk(skeleton.rest_pose()))[[foot, skeleton.index("RightFoot")]]
    assert np.all(feet[:, 1] < 0.2) and abs(feet[0, 0] + feet[1, 0]) < 1e-5   # ankles low, mirrored


def test_unknown_name_raises_with_suggestions():
    skeleton = ikit.Skeleton.humanoid()
    with pytest.raises(ikit.IkitError, match="LeftUpLeg") as caught:
        skeleton.index("LeftUpLg")
    assert caught.value.code == "IK_ERR_NOT_FOUND"
    with pytest.raises(ikit.IkitError, match="out of range"):
        skeleton.index(99)


@pytest.mark.parametrize("parents,code", [([0, -1], "IK_ERR_HIERARCHY"), ([-1, 5], "IK_ERR_RANGE")])
def test_bad_hierarchy_raises(parents, code):
    with pytest.raises(ikit.IkitError, match="skeleton: joint [01]: parent") as caught:
        ikit.Skeleton.from_arrays(parents, ikit.new_pose(2))
    assert caught.value.code == code


def test_bad_rest_and_names_raise():
    rest = ikit.new_pose(2)
    rest[1, 0] = np.nan
    with pytest.raises(ikit.IkitError) as caught:
        ikit.Skeleton.from_arrays([-1, 0], rest)
    assert caught.value.code == "IK_ERR_NONFINITE"
    with pytest.raises(ikit.IkitError, match="a"):
        ikit.Skeleton.from_arrays([-1, 0], ikit.new_pose(2), ["a", "a"])
    with pytest.raises(ikit.IkitError):
        ikit.Skeleton.humanoid(-1)


def test_fk_refuses_nan_and_wrong_arrays(rng):
    skeleton = chain_skeleton(3, rng)
    pose = skeleton.rest_pose()
    pose[2, 4] = np.inf
    with pytest.raises(ikit.IkitError, match="joint 2"):
        skeleton.fk(pose)
    with pytest.raises(TypeError, match="dtype"):
        skeleton.fk(skeleton.rest_pose().astype(np.float16))
    with pytest.raises(ValueError, match="shape"):
        skeleton.fk(ikit.new_pose(2))
    with pytest.raises(ValueError, match="C-contiguous"):
        skeleton.fk(np.asfortranarray(skeleton.rest_pose()))
