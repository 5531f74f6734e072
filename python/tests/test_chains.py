"""CCD, FABRIK, the Jacobian solvers and aim from Python: solve, forward
kinematics by the library, end on target, bone lengths kept."""
import numpy as np
import pytest

import ikit
from conftest import LEN_TOL, bone_lengths, chain_skeleton, positions

LINKS = 6
CASES = 30


def target_in_reach(rng, skeleton, pose, fraction=0.7):
    p = positions(skeleton.fk(pose))
    reach = bone_lengths(skeleton, skeleton.fk(pose)).sum()
    direction = rng.normal(size=3)
    return p[0] + rng.uniform(0.2, fraction) * reach * direction / np.linalg.norm(direction), reach


def check_solved(skeleton, pose, target, lengths, tolerance, error):
    model = skeleton.fk(pose)
    landed = positions(model)[-1]
    assert np.isfinite(pose).all()
    assert np.linalg.norm(landed - target) <= tolerance * 1.01 + 1e-5
    assert abs(np.linalg.norm(landed - target) - error) <= 1e-4
    assert np.allclose(bone_lengths(skeleton, model), lengths, atol=LEN_TOL * lengths.sum() * 10)


@pytest.mark.parametrize("solver", ["ccd", "fabrik", "dls", "sdls"])
def test_chain_solvers_reach_random_targets(rng, solver):
    for case in range(CASES):
        skeleton = chain_skeleton(LINKS, rng)
        pose = skeleton.rest_pose()
        lengths = bone_lengths(skeleton, skeleton.fk(pose))
        target, reach = target_in_reach(rng, skeleton, pose)
        tolerance = 1e-3 * reach
        joints = list(range(LINKS))
        if solver == "ccd":
            iterations, error = ikit.ccd(skeleton, pose, joints, target, tolerance=tolerance)
        elif solver == "fabrik":
            iterations, error = ikit.fabrik(skeleton, pose, joints, [target], tolerance=tolerance)
        else:
            effector = {"joint": LINKS - 1, "target": target}
            iterations, error, _ = ikit.jacobian(skeleton, pose, joints[:-1], [effector], method=solver,
                                                 tolerance=tolerance, max_iterations=500)
        assert iterations >= 1
        check_solved(skeleton, pose, target, lengths, tolerance, error)


def test_jacobian_hinge_axes_and_names(rng):
    rest = ikit.new_pose(3)
    rest[1, ikit.POSE_TRANSLATION] = [1, 0, 0]
    rest[2, ikit.POSE_TRANSLATION] = [1, 0, 0]
    skeleton = ikit.Skeleton.from_arrays([-1, 0, 1], rest, ["shoulder", "elbow", "hand"])
    pose = skeleton.rest_pose()
    target = [np.sqrt(2), np.sqrt(2) * 0.5, 0]   # in the plane the z hinges turn in
    _, error, _ = ikit.jacobian(skeleton, pose, [("shoulder", [[0, 0, 1]]), ("elbow", [[0, 0, 1]])],
                                [{"joint": "hand", "target": target}], tolerance=1e-4)
    model = skeleton.fk(pose)
    assert np.linalg.norm(positions(model)[2] - target) <= 1e-4 + 1e-6
    assert np.allclose(positions(model)[:, 2], 0, atol=1e-6)      # z hinges keep the plane


def test_aim_points_the_forward_axis_at_the_target(rng):
    skeleton = chain_skeleton(3, rng)
    for _ in range(CASES):
        pose = skeleton.rest_pose()
        target = rng.uniform(-3, 3, size=3)
        reached = ikit.aim(skeleton, pose, 1, target, forward=[0, 0, 1])
        model = skeleton.fk(pose)
        forward = np.asarray(model[1][:3, 2], dtype=np.float64)
        to_target = target - positions(model)[1]
        assert reached
        assert np.dot(forward / np.linalg.norm(forward), to_target / np.linalg.norm(to_target)) > 1 - 1e-5


def test_chain_errors_name_the_field(rng):
    skeleton = chain_skeleton(4, rng)
    pose = skeleton.rest_pose()
    with pytest.raises(ikit.IkitError, match="NaN") as caught:
        ikit.fabrik(skeleton, pose, [0, 1, 2, 3], [[np.nan, 0, 0]])
    assert caught.value.code == "IK_ERR_NONFINITE"
    with pytest.raises(ikit.IkitError, match="field"):
        ikit.ccd(skeleton, pose, [0, 2, 1, 3], [1, 0, 0])
    with pytest.raises(ikit.IkitError, match="at least one joint"):
        ikit.ccd(skeleton, pose, [], [1, 0, 0])
    with pytest.raises(ikit.IkitError, match="1 to 3 axes"):
        ikit.jacobian(skeleton, pose, [(0, np.eye(4)[:, :3])], [{"joint": 3, "target": [1, 0, 0]}])
    with pytest.raises(ValueError, match="method"):
        ikit.jacobian(skeleton, pose, [0], [{"joint": 3, "target": [1, 0, 0]}], method="newton")
    with pytest.raises(ikit.IkitError) as caught:
        ikit.aim(skeleton, pose, 1, [1, 0, 0], forward=[0, 0, 0])
    assert caught.value.code == "IK_ERR_DEGENERATE"


def hinge_chain(links):
    """A planar-ish arm: bones along +x, every joint a hinge about its local z within +-100 degrees."""
    rest = ikit.new_pose(links)
    rest[1:, 0] = 1.0
    skeleton = ikit.Skeleton.from_arrays(np.arange(links) - 1, rest)
    limits = [ikit.Limit.hinge([0, 0, 1], -np.radians(100), np.radians(100)) for _ in range(links)]
    return skeleton, limits


@pytest.mark.parametrize("solver", ["ccd", "fabrik", "dls"])
def test_limited_chains_stay_inside_their_limits(rng, solver):
    links = 5
    skeleton, limits = hinge_chain(links)
    reached = 0
    for case in range(CASES):
        # a target made by a pose inside the limits, so it is reachable
        pose = skeleton.rest_pose()
        angles = rng.uniform(-np.radians(100), np.radians(100), size=links)
        pose[:, 5] = np.sin(angles / 2)
        pose[:, 6] = np.cos(angles / 2)
        target = positions(skeleton.fk(pose))[-1]
        pose = skeleton.rest_pose()
        lengths = bone_lengths(skeleton, skeleton.fk(pose))
        joints = list(range(links))
        if solver == "ccd":
            _, error = ikit.ccd(skeleton, pose, joints, target, limits=limits, tolerance=1e-3)
        elif solver == "fabrik":
            _, error = ikit.fabrik(skeleton, pose, joints, [target], limits=limits, tolerance=1e-3)
        else:
            _, error, _ = ikit.jacobian(skeleton, pose, joints[:-1], [{"joint": links - 1, "target": target}],
                                        limits=limits[:-1], tolerance=1e-3, max_iterations=300)
        model = skeleton.fk(pose)
        for j in range(links - (solver == "dls")):
            assert limits[j].check(pose[j, ikit.POSE_ROTATION], 1e-3), (case, j)
        assert np.allclose(bone_lengths(skeleton, model), lengths, atol=1e-4)
        assert abs(np.linalg.norm(positions(model)[-1] - target) - error) < 1e-4
        reached += error <= 1e-3 * 1.01
    assert reached >= CASES - 1, reached       # the C suite allows 5 in 1000 misses (test_limited_chains.c)


def test_limit_checks_apply_and_bad_limits():
    hinge = ikit.Limit.hinge([0, 0, 1], -0.5, 0.5)
    outside = [0, 0, np.sin(0.5), np.cos(0.5)]           # 1 radian about z
    assert not hinge.check(outside) and hinge.check(hinge.apply(outside))
    assert np.allclose(hinge.apply(outside), [0, 0, np.sin(0.25), np.cos(0.25)], atol=1e-6)
    with pytest.raises(ikit.IkitError) as caught:
        ikit.Limit.hinge([0, 0, 0], -0.5, 0.5)
    assert caught.value.code == "IK_ERR_DEGENERATE"
    with pytest.raises(ikit.IkitError) as caught:
        ikit.Limit.cone_twist([1, 0, 0], 0.5, 1.0, -1.0)
    assert caught.value.code == "IK_ERR_RANGE"
    skeleton, limits = hinge_chain(3)
    with pytest.raises(ValueError, match="2 limits for 3"):
        ikit.ccd(skeleton, skeleton.rest_pose(), [0, 1, 2], [1, 1, 0], limits=limits[:2])


def test_look_at_chain_turns_the_head_onto_the_target():
    skeleton = ikit.Skeleton.humanoid(1.8)
    pose = skeleton.rest_pose()
    lengths = bone_lengths(skeleton, skeleton.fk(pose))
    joints = ["Spine", "Neck", "Head"]
    target = np.array([1.0, 1.2, 2.0])
    assert ikit.look_at_chain(skeleton, pose, joints, target, forward=[0, 0, 1])
    model = skeleton.fk(pose)
    head = skeleton.index("Head")
    forward = np.asarray(model[head][:3, 2], dtype=np.float64)
    to_target = target - positions(model)[head]
    assert np.dot(forward / np.linalg.norm(forward), to_target / np.linalg.norm(to_target)) > 1 - 1e-5
    assert np.allclose(bone_lengths(skeleton, model), lengths, atol=1e-5)
    with pytest.raises(ikit.IkitError) as caught:
        ikit.look_at_chain(skeleton, pose, ["Head", "Spine"], target)
    assert caught.value.code == "IK_ERR_HIERARCHY"


@pytest.mark.parametrize("method", ["ccd", "fabrik", "gradient"])
def test_planar_chains_reach_with_bones_kept(rng, method):
    for _ in range(CASES):
        lengths = rng.uniform(0.5, 1.5, size=4).astype(ikit.real_dtype)
        angles = np.zeros(4, dtype=ikit.real_dtype)
        radius = rng.uniform(0.3, 0.9) * lengths.sum()
        heading = rng.uniform(0, 2 * np.pi)
        target = (radius * np.cos(heading), radius * np.sin(heading))
        _, error = ikit.planar_chain(lengths, angles, target, method=method, tolerance=1e-3,
                                max_iterations=2000 if method == "gradient" else 200)
        xy = ikit.planar_chain_fk(lengths, angles)
        assert np.allclose(np.linalg.norm(np.diff(xy, axis=0), axis=1), lengths, atol=1e-5)
        assert np.linalg.norm(xy[-1] - target) <= 1e-3 * 1.01
        assert abs(np.linalg.norm(xy[-1] - target) - error) < 1e-5


def test_named_chains_find_the_limbs():
    skeleton = ikit.Skeleton.humanoid()
    chains = dict()
    for kind, joints in skeleton.named_chains():
        chains.setdefault(kind, []).append([skeleton.names[j] for j in joints])
    assert ["LeftUpLeg", "LeftLeg", "LeftFoot"] in chains["leg"]
    assert ["LeftArm", "LeftForeArm", "LeftHand"] in chains["arm"]


def test_chain_file_limits_hold_on_the_robot_arm():
    from pathlib import Path
    asset = ikit.load(Path(__file__).resolve().parents[2] / "examples" / "robot_arm.chain")
    skeleton, limits = asset.skeleton, asset.limits
    assert asset.format == "chain" and len(limits) == skeleton.joint_count
    pose = skeleton.rest_pose()
    lengths = bone_lengths(skeleton, skeleton.fk(pose))
    joints = list(range(skeleton.joint_count))
    target = [0.4, 0.2, 0.3]                       # the file's grasp target
    _, error = ikit.ccd(skeleton, pose, joints, target, limits=limits, tolerance=1e-3)
    model = skeleton.fk(pose)
    assert error <= 1e-3 and np.linalg.norm(positions(model)[-1] - target) <= 1e-3 * 1.01
    assert all(limits[j].check(pose[j, ikit.POSE_ROTATION], 1e-3) for j in joints)
    assert np.allclose(bone_lengths(skeleton, model), lengths, atol=1e-5)


def test_keep_end_rotation_holds_the_foot():
    rest = ikit.new_pose(4)
    rest[1, ikit.POSE_TRANSLATION] = [0, -0.45, 0]
    rest[2, ikit.POSE_TRANSLATION] = [0, -0.42, 0]
    rest[3, ikit.POSE_TRANSLATION] = [0, -0.05, 0.12]
    skeleton = ikit.Skeleton.from_arrays([-1, 0, 1, 2], rest, ["hip", "knee", "ankle", "toe"])
    pose = skeleton.rest_pose()
    before = np.asarray(skeleton.fk(pose)[2][:3, :3], dtype=np.float64)
    reached, _ = ikit.two_bone(skeleton, pose, "hip", "knee", "ankle", [0.1, -0.6, 0.3], keep_end_rotation=True)
    after = np.asarray(skeleton.fk(pose)[2][:3, :3], dtype=np.float64)
    assert reached and np.allclose(after, before, atol=1e-5)
    assert not np.allclose(pose[1, ikit.POSE_ROTATION], [0, 0, 0, 1])     # the leg did move
