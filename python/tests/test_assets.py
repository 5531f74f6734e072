"""Real files through the library's readers and writers: load, sample, FK,
save and load again; bad files raise with the reader's place."""
import numpy as np
import pytest

import ikit
from conftest import asset_path, bone_lengths, positions

GLTF_JOINTS = {"robot.glb": 43, "girl.glb": 23, "rigged_figure.glb": 19, "male_base_mesh.glb": 56,
               "SimpleSkin.gltf": 2}


@pytest.mark.parametrize("name,joints", sorted(GLTF_JOINTS.items()))
def test_gltf_rigs_load_and_pose(data, name, joints):
    asset = ikit.load(asset_path(data, "gltf/" + name))
    assert asset.format == "gltf" and asset.skeleton.joint_count == joints
    assert all(asset.skeleton.parents[j] < j for j in range(joints))
    pose = asset.sample(0, asset.clip_duration(0) / 2) if asset.clip_count else asset.skeleton.rest_pose()
    model = asset.skeleton.fk(pose, asset.root)
    assert np.isfinite(model).all()
    # a clip turns joints, it does not stretch bones: lengths as at rest (robot's clips do scale a few joints)
    rest_lengths = bone_lengths(asset.skeleton, asset.skeleton.fk(asset.skeleton.rest_pose(), asset.root))
    if name != "robot.glb":
        assert np.allclose(bone_lengths(asset.skeleton, model), rest_lengths, rtol=1e-3, atol=1e-4)


def test_bvh_loads_with_end_sites_and_samples_every_frame(data):
    asset = ikit.load(asset_path(data, "bvh/131_01.bvh"))
    assert asset.format == "bvh" and asset.skeleton.joint_count == 38 and asset.frame_count == 994
    assert abs(asset.frame_time - 1 / 120) < 1e-6 and asset.limits is None
    skeleton = asset.skeleton
    lengths = bone_lengths(skeleton, skeleton.fk(skeleton.rest_pose()))
    for frame in (0, 500, 993):
        model = skeleton.fk(asset.sample(0, frame * asset.frame_time))
        assert np.allclose(bone_lengths(skeleton, model), lengths, atol=1e-4)
    assert skeleton.index("LeftAnkle") > skeleton.index("LeftKnee") > skeleton.index("LeftHip")


def test_bvh_solved_pose_saved_and_read_back(data, tmp_path):
    asset = ikit.load(asset_path(data, "bvh/131_01.bvh"))
    skeleton = asset.skeleton
    poses = np.stack([asset.sample(0, f * asset.frame_time) for f in range(3)])
    hip, knee, ankle = (skeleton.index(n) for n in ("LeftHip", "LeftKnee", "LeftAnkle"))
    target = positions(skeleton.fk(poses[1]))[ankle] + [0.05, 0.1, 0.05]
    reached, _ = ikit.two_bone(skeleton, poses[1], hip, knee, ankle, target)
    assert reached
    out = tmp_path / "solved.bvh"
    asset.save_bvh(out, poses)
    again = ikit.load(out)
    assert again.frame_count == 3 and again.skeleton.names == skeleton.names
    for f in range(3):
        got = positions(again.skeleton.fk(again.sample(0, f * again.frame_time)))
        assert np.allclose(got, positions(skeleton.fk(poses[f])), atol=1e-4), f
    assert np.linalg.norm(positions(again.skeleton.fk(again.sample(0, again.frame_time)))[ankle] - target) < 1e-3


def test_gltf_solved_pose_saved_and_read_back(data, tmp_path):
    asset = ikit.load(asset_path(data, "gltf/girl.glb"))
    skeleton = asset.skeleton
    pose = asset.sample(0, 0.2)
    chain = [skeleton.index(n) for n in ("UpperLeg.L", "LowerLeg.L", "Foot.L")]
    target = positions(skeleton.fk(pose, asset.root))[chain[2]] + np.array([0.0, 0.1, 0.05]) * \
        bone_lengths(skeleton, skeleton.fk(pose))[chain[1]]
    ikit.two_bone(skeleton, pose, *chain, target, root=asset.root)
    for suffix in (".glb", ".gltf"):
        out = tmp_path / ("solved" + suffix)
        asset.save_gltf(out, pose)
        again = ikit.load(out)
        assert again.skeleton.names == skeleton.names and again.clip_count == asset.clip_count
        landed = positions(again.skeleton.fk(again.skeleton.rest_pose(), again.root))[chain[2]]
        assert np.linalg.norm(landed - target) < 1e-3
    assert np.isfinite(asset.skeleton.rest).all()      # the loaded document is untouched by the save


def test_urdf_chain_as_a_skeleton(data):
    chain = ikit.load_urdf_chain(asset_path(data, "urdf/panda.urdf"), "panda_link0", "panda_link8")
    skeleton = chain.skeleton
    assert skeleton.names[0] == "panda_link0" and skeleton.names[-1] == "panda_link8"
    model = skeleton.fk(skeleton.rest_pose())
    # the Panda's zero configuration: flange 0.333 + 0.316 + 0.384 - 0.107 ... above the base, 0.088 out
    assert np.isfinite(model).all() and 0.8 < positions(model)[-1][2] < 1.1
    with pytest.raises(ikit.IkitIoError, match="panda_link0"):
        ikit.load_urdf_chain(asset_path(data, "urdf/panda.urdf"), "panda_link_0", "panda_link8")


def test_bad_files_raise_with_the_place(tmp_path):
    bad = tmp_path / "bad.bvh"
    bad.write_text("HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 x\n}\n")
    with pytest.raises(ikit.IkitIoError, match="line 4") as caught:
        ikit.load(bad)
    assert caught.value.line == 4 and caught.value.code == "IK_ERR_PARSE"
    bad_json = tmp_path / "bad.gltf"
    bad_json.write_text('{"asset": {"version": "2.0"}, "nodes": [{"children": [7]}]}')
    with pytest.raises(ikit.IkitIoError, match="/nodes/0/children"):
        ikit.load(bad_json)
    with pytest.raises(ikit.IkitIoError, match="cannot open") as caught:
        ikit.load(tmp_path / "missing.glb")
    assert caught.value.code == "IK_ERR_IO"
    bad_urdf = tmp_path / "bad.urdf"
    bad_urdf.write_text('<robot name="r"><link name="a"/><joint name="j" type="revolute"><parent link="a"/>'
                        '<child link="b"/></joint></robot>')
    with pytest.raises(ikit.IkitIoError, match="line 1"):
        ikit.load_urdf_chain(bad_urdf, "a", "b")


def test_views_outlive_the_asset_and_are_read_only(data):
    import gc
    skeleton = ikit.load(asset_path(data, "bvh/131_01.bvh")).skeleton
    parents, rest = skeleton.parents, skeleton.rest
    del skeleton
    gc.collect()
    assert parents[0] == -1 and all(parents[j] < j for j in range(len(parents)))
    assert np.isfinite(rest).all() and np.allclose(np.linalg.norm(rest[:, ikit.POSE_ROTATION], axis=1), 1)
    with pytest.raises(ValueError, match="read-only"):
        rest[0, 0] = 1


def test_gltf_solved_animation_saved_as_a_new_clip(data, tmp_path):
    asset = ikit.load(asset_path(data, "gltf/girl.glb"))
    skeleton = asset.skeleton
    times = np.linspace(0, asset.clip_duration(0), 9)
    poses = np.stack([asset.sample(0, t) for t in times])
    chain = [skeleton.index(n) for n in ("UpperLeg.L", "LowerLeg.L", "Foot.L")]
    for pose in poses:                       # lift the left foot a little in every frame
        foot = positions(skeleton.fk(pose, asset.root))[chain[2]]
        ikit.two_bone(skeleton, pose, *chain, foot + [0, 0.05, 0], root=asset.root)
    out = tmp_path / "lifted.glb"
    asset.save_gltf(out, poses=poses, times=times, clip_name="lifted")
    again = ikit.load(out)
    assert again.clip_count == asset.clip_count + 1 and again.clip_names[-1] == "lifted"
    for k in (0, 4, 8):
        got = positions(again.skeleton.fk(again.sample(again.clip_count - 1, times[k]), again.root))
        assert np.allclose(got, positions(skeleton.fk(poses[k], asset.root)), atol=1e-4), k
    with pytest.raises(ValueError, match="times"):
        asset.save_gltf(out, poses=poses, times=times[:3])
    with pytest.raises(ikit.IkitError, match="clip channel"):
        asset.save_gltf(out, poses=poses, times=times[::-1])
