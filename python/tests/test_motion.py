"""The motion layer from Python: foot contacts on real capture, checked
against the forward kinematics of the take, and the procedural walk."""
import json
import subprocess

import numpy as np
import pytest

import ikit
from conftest import asset_path, bone_lengths, positions



def _take_positions(skeleton, poses, root, joints):
    """Model-space positions (frames, len(joints), 3) by ikit's FK."""
    out = np.empty((poses.shape[0], len(joints), 3))
    model = ikit.new_matrices(skeleton.joint_count)
    for f in range(poses.shape[0]):
        out[f] = positions(skeleton.fk(poses[f], root, model))[joints]
    return out


@pytest.fixture
def walk_capture(data):
    asset = ikit.load(asset_path(data, "bvh/131_01.bvh"))
    poses, frame_time = ikit.bake(asset)
    return asset, poses, frame_time


def test_contacts_lie_low_and_slow_on_real_capture(walk_capture):
    asset, poses, frame_time = walk_capture
    skeleton = asset.skeleton
    body = ikit.Humanoid(skeleton)
    contacts = ikit.foot_contacts(asset, poses, frame_time)
    assert set(contacts) == set(ikit.CONTACT_POINTS)
    feet = [body.roles["left_foot"], body.roles["left_toe"], body.roles["right_foot"], body.roles["right_toe"]]
    path = _take_positions(skeleton, poses, asset.root, feet)
    hips = _take_positions(skeleton, poses, asset.root, [body.roles["hips"]])[:, 0]
    up = np.array([0.0, 1.0, 0.0])   # the CMU capture stands Y-up under its root
    leg = np.median(hips @ up - path[:, 0] @ up)   # hips above the heel: about a leg
    floor = np.percentile(path[:, :, 1], 5)
    for k, name in enumerate(ikit.CONTACT_POINTS):
        assert len(contacts[name]) >= 3, name      # a walk: several steps per foot
        previous_end = -1
        for start, end, planted in contacts[name]:
            assert previous_end < start <= end < poses.shape[0]
            previous_end = end
            span = path[start:end + 1, k]
            # planted is the mean position of the point over the contact (its FK)
            assert np.allclose(planted, span.mean(axis=0), atol=1e-3 * leg)
            # low: near the floor the whole time
            assert np.all(span @ up - floor < 0.15 * leg), (name, start, end)
            # slow: the point drifts far less than a swing (which moves ~a leg per step)
            assert np.linalg.norm(span - planted, axis=1).max() < 0.15 * leg, (name, start, end)
        # between contacts the foot moves: a swing covers far more ground than a contact
        gaps = [(a[1], b[0]) for a, b in zip(contacts[name], contacts[name][1:])]
        assert any(np.linalg.norm(path[b, k] - path[a, k]) > 0.3 * leg for a, b in gaps), name


def test_contacts_match_ikc(walk_capture, data, ikc):
    asset, poses, frame_time = walk_capture
    out = subprocess.run([ikc, "contacts", str(asset_path(data, "bvh/131_01.bvh")), "--json"], check=True,
                         capture_output=True, text=True).stdout
    report = json.loads(out)
    contacts = ikit.foot_contacts(asset, poses, frame_time)
    assert report["frames"] == poses.shape[0]
    assert set(report["points"]) == {name.replace(" ", "_") for name in ikit.CONTACT_POINTS}
    for name in ikit.CONTACT_POINTS:
        theirs = report["points"][name.replace(" ", "_")]["contacts"]
        assert len(contacts[name]) == len(theirs) > 0, name
        for (start, end, planted), other in zip(contacts[name], theirs):
            assert (start, end) == (other["start"], other["end"]), name
            assert np.allclose(planted, other["planted"], rtol=1e-5, atol=1e-4), name


def test_contacts_refuse_bad_input(walk_capture):
    asset, poses, frame_time = walk_capture
    bad = poses.copy()
    bad[10, 0, 0] = np.nan
    with pytest.raises(ikit.IkitError) as error:
        ikit.foot_contacts(asset, bad, frame_time)
    assert error.value.code == "IK_ERR_NONFINITE"
    with pytest.raises(ikit.IkitError):
        ikit.foot_contacts(asset, poses, 0.0)
    with pytest.raises(ikit.IkitError):
        ikit.foot_contacts(asset, poses[:1], frame_time)
    with pytest.raises(ikit.IkitError):
        ikit.foot_contacts(asset, poses, frame_time, height_enter=0.5, height_exit=0.1)
    with pytest.raises(ValueError):
        ikit.foot_contacts(asset, poses[:, :5], frame_time)


def test_walk_advances_the_hips_at_speed():
    skeleton = ikit.Skeleton.humanoid(1.8)
    body = ikit.Humanoid(skeleton)
    seconds, fps, speed = 4.0, 30, 1.1
    poses, report = ikit.walk(body, seconds, fps, speed=speed, report=True)
    assert poses.shape == (int(seconds * fps) + 1, skeleton.joint_count, 10)
    assert poses.dtype == ikit.real_dtype and np.isfinite(poses).all()
    hips = body.roles["hips"]
    first, last = skeleton.fk(poses[0]), skeleton.fk(poses[-1])
    advance = positions(last)[hips] - positions(first)[hips]
    # +Z is the humanoid's forward: the hips go speed x time along it, little sideways
    assert abs(advance[2] - speed * seconds) < 0.02 * speed * seconds
    assert abs(advance[0]) < 0.05 and abs(advance[2] - report["distance"]) < 1e-3
    assert report["steps"] >= 6
    rest_lengths = bone_lengths(skeleton, skeleton.fk(skeleton.rest_pose()))
    for f in range(0, poses.shape[0], 10):
        assert np.allclose(bone_lengths(skeleton, skeleton.fk(poses[f])), rest_lengths, atol=1e-4)
    # the feet stay on or above the ground (y = 0 at rest) and touch it
    feet = [body.roles["left_foot"], body.roles["right_foot"]]
    rest_feet = positions(skeleton.fk(skeleton.rest_pose()))[feet, 1]
    heights = _take_positions(skeleton, poses, None, feet)[:, :, 1]
    assert heights.min() > rest_feet.min() - 0.01
    assert np.abs(heights - rest_feet).min() < 0.01


def test_walk_refuses_bad_options():
    body = ikit.Humanoid(ikit.Skeleton.humanoid(1.8))
    for options in ({"speed": -1.0}, {"speed": float("nan")}, {"stance_fraction": 0.99}, {"stride": 50.0}):
        with pytest.raises(ikit.IkitError):
            ikit.walk(body, 1.0, 30, **options)
    with pytest.raises(ikit.IkitError):
        ikit.walk(body, -1.0, 30)
    with pytest.raises(ikit.IkitError):
        ikit.walk(body, 1.0, 0)
    with pytest.raises(TypeError):
        ikit.walk(body, 1.0, 30, sped=1.0)


def _planted_travel(skeleton, poses, root, contacts, feet, up=(0.0, 1.0, 0.0)):
    """Per contact, the largest distance across `up` its point moves from
    where it stands at the contact's first frame, by FK (a heel may rise
    with the take as it comes off the floor)."""
    path = _take_positions(skeleton, poses, root, feet)
    up = np.asarray(up, dtype=float)
    def across(d):
        return d - np.outer(d @ up, up)
    return np.array([np.linalg.norm(across(path[start:end + 1, k] - path[start, k]), axis=1).max()
                     for k, name in enumerate(ikit.CONTACT_POINTS) for start, end, _ in contacts[name]])


def test_clean_holds_planted_feet_still(walk_capture):
    asset, poses, frame_time = walk_capture
    skeleton = asset.skeleton
    body = ikit.Humanoid(skeleton)
    before = poses.copy()
    cleaned = ikit.clean(asset, poses, frame_time)
    assert np.array_equal(poses, before)                  # the input is left alone
    assert cleaned.shape == poses.shape and cleaned.dtype == ikit.real_dtype
    assert np.isfinite(cleaned).all()
    assert not np.allclose(cleaned, poses)                # something was corrected
    contacts = ikit.foot_contacts(asset, poses, frame_time)
    feet = [body.roles["left_foot"], body.roles["left_toe"], body.roles["right_foot"], body.roles["right_toe"]]
    travel_before = _planted_travel(skeleton, poses, asset.root, contacts, feet)
    travel_after = _planted_travel(skeleton, cleaned, asset.root, contacts, feet)
    assert travel_after.sum() < 0.5 * travel_before.sum(), (travel_before.sum(), travel_after.sum())
    assert travel_after.max() < 0.1 * np.median(travel_before)   # held: next to no drift left
    rest = bone_lengths(skeleton, skeleton.fk(poses[0], asset.root))
    for f in range(0, poses.shape[0], 25):
        lengths = bone_lengths(skeleton, skeleton.fk(cleaned[f], asset.root))
        assert np.allclose(lengths, rest, rtol=1e-3, atol=1e-3 * rest.max()), f


def test_clean_refuses_bad_input(walk_capture):
    asset, poses, frame_time = walk_capture
    bad = poses.copy()
    bad[3, 2, 4] = np.inf
    with pytest.raises(ikit.IkitError):
        ikit.clean(asset, bad, frame_time)
    with pytest.raises(ikit.IkitError) as error:
        ikit.clean(asset, poses, frame_time, reach=1.5)
    assert error.value.code == "IK_ERR_DEGENERATE"
    with pytest.raises(ikit.IkitError):
        ikit.clean(asset, poses, frame_time, blend_time=-1.0)


def test_skating_measures_less_slide_after_clean(walk_capture):
    asset, poses, frame_time = walk_capture
    body = ikit.Humanoid(asset.skeleton)
    cleaned = ikit.clean(asset, poses, frame_time)
    before = ikit.skating(asset, poses, frame_time)
    after = ikit.skating(asset, cleaned, frame_time, reference=poses)
    # the travel is the horizontal path length of the planted points (FK):
    # the raw capture's is at least its largest single drift from the start
    contacts = ikit.foot_contacts(asset, poses, frame_time)
    feet = [body.roles["left_foot"], body.roles["left_toe"], body.roles["right_foot"], body.roles["right_toe"]]
    drift = _planted_travel(asset.skeleton, poses, asset.root, contacts, feet)
    assert before["worst_travel"] >= 0.5 * drift.max()
    assert before["contact_frames"] == after["contact_frames"] > 0
    assert after["travel"] < 0.1 * before["travel"] and after["sliding_frames"] < before["sliding_frames"]
    assert before["upper_change_joint"] == -1 and np.isfinite(after["upper_change"])
    with pytest.raises(ikit.IkitError):
        ikit.skating(asset, poses, frame_time, slide_speed=0.0)



def _walk_on(make_ground, options=lambda leg: {}, seconds=4.0, fps=60):
    """A walk of the procedural humanoid on make_ground(leg length), with
    the gait options(leg length): (skeleton, body, poses, report, the walk
    frame's inverse, the ground, the leg length)."""
    skeleton = ikit.Skeleton.humanoid(1.8)
    body = ikit.Humanoid(skeleton)
    leg = max(body.limb(side)["upper_length"] + body.limb(side)["lower_length"] for side in ("left_leg", "right_leg"))
    ground = make_ground(leg)
    poses, report = ikit.walk(body, seconds, fps, ground=ground, report=True, **options(leg))
    return skeleton, body, poses, report, np.linalg.inv(ikit.walk_frame(body)), ground, leg


def _in_walk(frame_inverse, points):
    return points @ frame_inverse[:3, :3].T + frame_inverse[:3, 3]


def _ankles(skeleton, body, poses, inverse):
    """The ankles' paths (frames, 2, 3) and rest heights in the walk frame."""
    feet = [body.roles["left_foot"], body.roles["right_foot"]]
    rest = _in_walk(inverse, positions(skeleton.fk(skeleton.rest_pose()))[feet])[:, 1]
    return _in_walk(inverse, _take_positions(skeleton, poses, None, feet)), rest


def _standing(ankles, leg):
    """Frames x feet where the ankle stands still (moves under 1e-5 legs
    from the frame before and to the frame after)."""
    still = np.zeros(ankles.shape[:2], dtype=bool)
    still[1:-1] = (np.linalg.norm(ankles[1:-1] - ankles[:-2], axis=-1) < 1e-5 * leg) & \
                  (np.linalg.norm(ankles[2:] - ankles[1:-1], axis=-1) < 1e-5 * leg)
    return still


def test_walk_climbs_stairs_with_feet_on_the_treads():
    rise_of, run_of = 0.14, 0.6
    # six steps starting half a leg ahead; one tread a step (a stride is two treads)
    skeleton, body, poses, report, inverse, stairs, leg = _walk_on(
        lambda leg: ikit.Ground.stairs([0, 0, 0.5 * leg], [0, 0, 1], rise_of * leg, run_of * leg, 6),
        lambda leg: {"stride": 2 * run_of * leg})
    assert np.isfinite(poses).all() and report["steps"] >= 6
    ankles, rest = _ankles(skeleton, body, poses, inverse)
    still = _standing(ankles, leg)
    assert still.sum() > 0.2 * still.size                   # feet stand still a good part of the walk
    treads = set()
    for f, k in zip(*np.nonzero(still)):
        # a standing foot is flat on a tread: the tread is a whole number of
        # steps up, and the ankle stands its rest height above it
        x, height, z = ankles[f, k]
        under = stairs.height_at(x, z)[0]
        step = under / (rise_of * leg)
        assert abs(step - round(step)) < 1e-4, (f, k, step)
        assert abs(height - under - rest[k]) < 1e-3 * leg, (f, k, height - under, rest[k])
        treads.add(int(round(step)))
    assert len(treads) >= 4 and max(treads) >= 4, treads    # it climbs the flight, tread by tread
    # a swinging foot clears the stairs: no ankle much below its rest height over the ground
    for f in range(0, poses.shape[0], 3):
        for k in range(2):
            x, height, z = ankles[f, k]
            assert height - stairs.height_at(x, z)[0] > rest[k] - 0.02 * leg, (f, k)


def test_walk_on_a_slope_and_a_height_field():
    # up a 10 degree slope: standing ankles at their rest height over the slope, along its normal
    skeleton, body, poses, report, inverse, slope, leg = _walk_on(lambda leg: ikit.Ground.slope(10))
    ankles, rest = _ankles(skeleton, body, poses, inverse)
    still = _standing(ankles, leg)
    assert still.sum() > 0.2 * still.size
    for f, k in zip(*np.nonzero(still)):
        x, height, z = ankles[f, k]
        under, normal = slope.height_at(x, z)
        assert abs(under - z * np.tan(np.radians(10))) < 1e-4 * leg
        assert abs((height - under) * normal[1] - rest[k]) < 1e-2 * leg, (f, k)
    hips = _in_walk(inverse, _take_positions(skeleton, poses, None, [body.roles["hips"]])[:, 0])
    climb = hips[-1, 1] - hips[0, 1]
    assert abs(climb - report["distance"] * np.tan(np.radians(10))) < 0.1 * leg, (climb, report["distance"])
    # a height field read in place: a ramp along z, as heights[iz, ix]
    heights = np.zeros((40, 9), dtype=ikit.real_dtype)
    skeleton, body, poses, report, inverse, field, leg = _walk_on(
        lambda leg: ikit.Ground.height_field(heights, 0.25 * leg, origin=[-1.0 * leg, 0, -leg]))
    heights[:] = 0   # the flat field first: the same as flat ground
    flat = ikit.walk(body, 4.0, 60)
    assert np.allclose(poses, flat, atol=1e-5 * leg)
    heights[:, :] = (np.arange(40)[:, None] * 0.25 * leg * np.tan(np.radians(5))).astype(ikit.real_dtype)
    assert abs(field.height_at(0.0, 2.0 * leg)[0] - 3.0 * leg * np.tan(np.radians(5))) < 1e-4 * leg
    ramp = ikit.walk(body, 4.0, 60, ground=field)
    ankles, rest = _ankles(skeleton, body, ramp, inverse)
    still = _standing(ankles, leg)
    for f, k in zip(*np.nonzero(still)):
        x, height, z = ankles[f, k]
        assert abs(height - field.height_at(x, z)[0] - rest[k]) < 1e-2 * leg, (f, k)
    with pytest.raises(ikit.IkitError):
        ikit.Ground.stairs([0, 0, 0], [0, 0, 1], 0.1, 0.0, 3)
    with pytest.raises(ikit.IkitError):
        ikit.Ground.height_field(np.full((3, 3), np.nan, dtype=ikit.real_dtype), 0.5)
    with pytest.raises(TypeError):
        ikit.Ground.height_field(np.zeros((3, 3), dtype=np.float16), 0.5)
    with pytest.raises(TypeError):
        ikit.walk(body, 1.0, 30, ground=([0, 0, 0], [0, 1, 0]))
