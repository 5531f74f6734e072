"""The humanoid map, rig and solve from Python, on the procedural humanoid
and on the real rigs."""
import numpy as np
import pytest

import ikit
from conftest import asset_path, bone_lengths, positions


def test_procedural_humanoid_reaches_hand_and_foot_goals():
    skeleton = ikit.Skeleton.humanoid(1.8)
    body = ikit.Humanoid(skeleton)
    assert body.roles["left_hand"] == skeleton.index("LeftHand")
    pose = skeleton.rest_pose()
    rest = positions(skeleton.fk(pose))
    lengths = bone_lengths(skeleton, skeleton.fk(pose))
    hand, foot = skeleton.index("LeftHand"), skeleton.index("RightFoot")
    goals = {"left_arm": rest[hand] + [0.1, 0.25, 0.2], "right_leg": rest[foot] + [0, 0.15, 0.1]}
    model, report = body.solve(pose, goals=goals)
    p = positions(model)
    assert report["reached"]["left_arm"] and report["reached"]["right_leg"]
    assert np.linalg.norm(p[hand] - goals["left_arm"]) < 2e-3
    assert np.linalg.norm(p[foot] - goals["right_leg"]) < 2e-3
    assert np.allclose(positions(skeleton.fk(pose)), p, atol=1e-5)   # model is the new pose's FK
    assert np.allclose(bone_lengths(skeleton, model), lengths, atol=1e-4)


def test_look_at_turns_the_head():
    skeleton = ikit.Skeleton.humanoid(1.8)
    body = ikit.Humanoid(skeleton)
    pose = skeleton.rest_pose()
    _, report = body.solve(pose, look_at=[0.6, 1.9, 1.0])
    assert report["look_reached"] and report["look_error"] < np.radians(1)


def test_feet_stand_on_a_raised_ground():
    skeleton = ikit.Skeleton.humanoid(1.8)
    body = ikit.Humanoid(skeleton)
    pose = skeleton.rest_pose()
    feet = [skeleton.index("LeftFoot"), skeleton.index("RightFoot")]
    rest = positions(skeleton.fk(pose))[feet]
    model, report = body.solve(pose, ground=([0, 0.1, 0], [0, 1, 0]))
    assert np.allclose(positions(model)[feet][:, 1], rest[:, 1] + 0.1, atol=1e-3)
    assert report["pelvis_offset"] > 0.05


def test_feet_stand_on_stairs():
    skeleton = ikit.Skeleton.humanoid(1.8)
    body = ikit.Humanoid(skeleton)
    pose = skeleton.rest_pose()
    feet = [skeleton.index("LeftFoot"), skeleton.index("RightFoot")]
    rest = positions(skeleton.fk(pose))[feet]
    # one step of 8 cm whose riser runs between the feet: the foot on +x stands on it
    step = ikit.Ground.stairs([0, 0, 0], [1, 0, 0], 0.08, 1.0, 1)
    model, _ = body.solve(pose, ground=step)
    raised = (rest[:, 0] > 0).astype(float) * 0.08
    assert np.allclose(positions(model)[feet][:, 1], rest[:, 1] + raised, atol=1e-3)
    assert raised.max() > 0 and raised.min() == 0 and np.isfinite(pose).all()


@pytest.mark.parametrize("name", ["girl.glb", "male_base_mesh.glb", "rigged_figure.glb"])
def test_real_rigs_map_and_hold_a_hand_goal(data, name):
    asset = ikit.load(asset_path(data, "gltf/" + name))
    body = ikit.Humanoid(asset.skeleton)
    assert "left_thigh = " in body.describe()
    pose = asset.skeleton.rest_pose()
    model = asset.skeleton.fk(pose, asset.root)
    hand = positions(model)[body.limb("left_arm")["end"]]
    model, report = body.solve(pose, root=asset.root, goals={"left_arm": hand})
    assert np.isfinite(pose).all() and np.isfinite(model).all() and report["reached"]["left_arm"]


def test_missing_roles_raise_with_the_report():
    skeleton = ikit.Skeleton.from_arrays([-1, 0], ikit.new_pose(2), ["a", "b"])
    with pytest.raises(ikit.IkitError, match="left_thigh") as caught:
        ikit.Humanoid(skeleton)
    assert caught.value.code == "IK_ERR_NOT_FOUND"
    with pytest.raises(ikit.IkitError, match="mapping line 1"):
        ikit.Humanoid(ikit.Skeleton.humanoid(), "no_such_role = Hips")
    body = ikit.Humanoid(ikit.Skeleton.humanoid())
    with pytest.raises(ikit.IkitError, match="NaN"):
        body.solve(body.skeleton.rest_pose(), goals={"left_arm": [np.nan, 0, 0]})
    with pytest.raises(ikit.IkitError, match="no limb"):
        body.solve(body.skeleton.rest_pose(), goals={"tail": [0, 0, 0]})
