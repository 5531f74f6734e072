"""Key fitting from Python on real capture: the fitted curves, evaluated by
the library and checked by forward kinematics, stay within the error asked
at every joint and at the points along each joint's axes; the result is
`ikc fit`'s, byte for byte once written."""
import subprocess

import numpy as np
import pytest

import ikit
from conftest import asset_path

# 131_01 is in CMU units (about 5.6 cm): E = 0.05 units is about 2.8 mm,
# the axis points r = 1 unit (5.6 cm) out, as ikc's 5 cm default.
ERROR, OFFSET = 0.05, 1.0
# What FK rounding adds to a measured distance (coordinates up to ~30 units).
SLACK = 1e-9 if ikit.built_double else 2e-5


@pytest.fixture
def capture(data):
    path = asset_path(data, "bvh/131_01.bvh")
    asset = ikit.load(path)
    poses, frame_time = ikit.bake(asset)
    return path, asset, poses, frame_time


def _points(skeleton, poses, root, offset):
    """Per frame, every joint's model-space position and the three points
    `offset` along its axes: (frames, joints, 4, 3), by the library's FK."""
    out = np.empty((poses.shape[0], skeleton.joint_count, 4, 3))
    model = ikit.new_matrices(skeleton.joint_count)
    for f in range(poses.shape[0]):
        m = np.asarray(skeleton.fk(poses[f], root, model), dtype=np.float64)
        out[f, :, 0] = m[:, :3, 3]
        out[f, :, 1:] = m[:, :3, 3][:, None, :] + offset * np.swapaxes(m[:, :3, :3], 1, 2)
    return out


def test_fitted_curves_reproduce_the_take_within_the_error(capture):
    _, asset, poses, frame_time = capture
    fitted = ikit.fit(asset, poses, frame_time, ERROR, point_offset=OFFSET)
    stats = fitted.stats
    frames, joints = poses.shape[:2]
    assert stats["frame_count"] == frames and stats["max_error"] <= ERROR
    # few keys: far fewer than one per frame and channel
    assert stats["key_count"] < 0.1 * frames * stats["channel_count"], stats
    baked = fitted.bake()
    assert baked.shape == poses.shape and baked.dtype == ikit.real_dtype and np.isfinite(baked).all()
    # the curves evaluated at every frame, by FK: every joint and axis point within E
    wanted = _points(asset.skeleton, poses, asset.root, OFFSET)
    got = _points(asset.skeleton, baked, asset.root, OFFSET)
    error = np.linalg.norm(got - wanted, axis=-1)
    assert error.max() <= ERROR + SLACK, (error.max(), np.unravel_index(error.argmax(), error.shape))
    assert abs(error.max() - stats["max_error"]) <= SLACK          # the job's own measure agrees
    assert error.max() > 0.5 * ERROR                               # and it used the room it had
    # keyed frames are exact: the first and last frames are keys of every channel
    assert np.abs(got[[0, -1]] - wanted[[0, -1]]).max() <= SLACK
    # sampling between frames stays on the curve: a frame's time gives that frame
    middle = fitted.sample(200 * frame_time)
    assert np.allclose(middle, baked[200], atol=SLACK)
    # the comparison method keeps the same error with more keys
    greedy = ikit.decimate(asset, poses, frame_time, ERROR, point_offset=OFFSET)
    assert greedy["max_error"] <= ERROR and greedy["key_count"] > stats["key_count"]


def test_channels_are_views_of_the_keys_written_by_c(capture):
    _, asset, poses, frame_time = capture
    fitted = ikit.fit(asset, poses[:200], frame_time, ERROR, point_offset=OFFSET, sharing="skeleton",
                      forced_frames=[50, 120], clip_name="fitted")
    assert fitted.name == "fitted" and fitted.stats["sharing"] == "skeleton"
    assert len(fitted.channels) == fitted.stats["channel_count"]
    assert sum(len(c.times) for c in fitted.channels) == fitted.stats["key_count"]
    for channel in fitted.channels:
        assert np.shares_memory(channel.times, fitted._times) and np.shares_memory(channel.values, fitted._values)
        assert channel.interpolation == "cubicspline" and channel.values.shape[1] == 3
        assert np.all(np.diff(channel.times) > 0)
        if len(channel.times) > 2:   # a varying channel: its forced frames are keys
            assert np.isclose(channel.times, 50 * frame_time, atol=1e-6).any()
            assert np.isclose(channel.times, 120 * frame_time, atol=1e-6).any()
    # a rotation key's value is the take's rotation at that frame (either sign)
    rotation = next(c for c in fitted.channels if c.path == "rotation" and len(c.times) > 2)
    frame = int(round(rotation.times[1] / frame_time))
    take = poses[frame, rotation.joint, ikit.POSE_ROTATION]
    key = rotation.values[1, 1]
    assert min(np.abs(key - take).max(), np.abs(key + take).max()) <= SLACK


def test_fit_equals_ikc_fit(capture, ikc, tmp_path):
    path, asset, poses, frame_time = capture
    theirs = tmp_path / "ikc.bvh"
    out = subprocess.run([ikc, "fit", str(path), "--error", str(ERROR), "--unit", "1", "--offset", str(OFFSET),
                          "--no-compare", "-o", str(theirs)], check=True, capture_output=True, text=True).stdout
    fitted = ikit.fit(asset, poses, frame_time, ERROR, point_offset=OFFSET)
    row = next(line for line in out.splitlines() if line.startswith("fitted (ours)")).split()
    assert int(row[2]) == fitted.stats["key_count"] and int(row[4]) == fitted.stats["curve_key_count"]
    # ikc writes the keys re-baked at the take's frame rate: the same bytes
    ours = tmp_path / "ours.bvh"
    asset.save_bvh(ours, fitted.bake(), frame_time=fitted.frame_time)
    assert ours.read_bytes() == theirs.read_bytes()


def test_fit_refuses_bad_input(capture):
    _, asset, poses, frame_time = capture
    bad = poses[:50].copy()
    bad[7, 3, 4] = np.nan
    with pytest.raises(ikit.IkitError) as error:
        ikit.fit(asset, bad, frame_time, ERROR)
    assert error.value.code == "IK_ERR_NONFINITE" and "frame 7" in str(error.value)
    with pytest.raises(ikit.IkitError) as error:
        ikit.fit(asset, poses[:50], frame_time, 0.0)
    assert error.value.code == "IK_ERR_RANGE"
    with pytest.raises(ikit.IkitError):
        ikit.fit(asset, poses[:50], frame_time, ERROR, forced_frames=[50])
    with pytest.raises(ikit.IkitError):
        ikit.fit(asset, poses[:1], frame_time, ERROR)
    with pytest.raises(ikit.IkitError):
        ikit.decimate(asset, poses[:50], -frame_time, ERROR)
    with pytest.raises(ValueError):
        ikit.fit(asset, poses[:50], frame_time, ERROR, sharing="bones")
    with pytest.raises(ValueError):
        ikit.fit(asset, poses[:50, :5], frame_time, ERROR)
