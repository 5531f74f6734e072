"""Straight-line tool paths from Python (Robot.cartesian_path, ik_robot_path_run): on
the UR5 every waypoint's tip (the package's FK) lies on the line at s = i / N
within 1e-5 per axis plus rounding, joints move little between waypoints and
stay inside the limits, the fraction is (count - 1) / N; a config_ok
callback stops the path at the first refused waypoint, an exception in it
comes back to the caller; bad input raises with the field named."""
import numpy as np
import pytest

import ikit
from conftest import asset_path

START = np.array([0.3, -1.2, 1.4, -1.8, -1.4, 0.2])
SLACK = 1e-9 if ikit.built_double else 3e-6


@pytest.fixture
def ur5(data):
    return ikit.load_robot(asset_path(data, "urdf/ur5_joint_limited_robot.urdf"), "base_link", "ee_link")


def _tip(robot, q):
    t = robot.fk(q).astype(np.float64)
    return t[ikit.POSE_TRANSLATION], t[ikit.POSE_ROTATION]


def test_line_is_followed(ur5):
    p0, r0 = _tip(ur5, START)
    goal = p0 + np.array([0.1, 0.15, -0.05])
    path = ur5.cartesian_path(START, goal, step=0.001)
    assert path.complete and path.fraction == 1.0
    assert path.segments == int(np.ceil(np.linalg.norm(goal - p0) / 0.001 * (1 - 1e-5)))
    assert path.waypoints.shape == (path.segments + 1, 6)
    assert np.array_equal(path.waypoints[0], START.astype(ikit.real_dtype))
    for i, q in enumerate(path.waypoints):
        p, r = _tip(ur5, q)
        s = i / path.segments
        assert np.all(np.abs(p - (p0 + s * (goal - p0))) <= 1e-5 + SLACK), i
        # the orientation is kept: r equals r0 up to sign, each axis within 1e-5 rad
        assert min(np.abs(r - r0).max(), np.abs(r + r0).max()) <= 1e-5 + SLACK, i
        assert np.all(q >= ur5.lower) and np.all(q <= ur5.upper)
    assert np.abs(np.diff(path.waypoints, axis=0)).max() < 0.05


def test_config_ok_stops_the_path(ur5):
    p0, _ = _tip(ur5, START)
    height = p0[2] - 0.1
    asked = []

    def above(q):
        asked.append(q)
        return _tip(ur5, q)[0][2] >= height

    path = ur5.cartesian_path(START, p0 - [0, 0, 0.3], config_ok=above)
    assert path.stop == "refused by config_ok" and not path.complete
    assert abs(path.fraction - (len(path.waypoints) - 1) / path.segments) < 1e-6
    assert abs(path.fraction - 1 / 3) < 2 / path.segments
    assert len(asked) == len(path.waypoints) + 1
    assert _tip(ur5, path.waypoints[-1])[0][2] >= height - 2e-5

    def broken(q):
        raise RuntimeError("the checker failed")

    with pytest.raises(RuntimeError, match="the checker failed"):
        ur5.cartesian_path(START, p0 - [0, 0, 0.3], config_ok=broken)


def test_bad_input_raises(ur5):
    p0, _ = _tip(ur5, START)
    with pytest.raises(ikit.IkitError, match="goal_position_bs"):
        ur5.cartesian_path(START, [np.nan, 0, 0])
    with pytest.raises(ikit.IkitError, match="max_step"):
        ur5.cartesian_path(START, p0, step=0)
    with pytest.raises(ikit.IkitError, match="q_start"):
        ur5.cartesian_path(START + [0, 0, 0, 0, 0, 9], p0)
    with pytest.raises(ikit.IkitError, match="goal_rotation_bs"):
        ur5.cartesian_path(START, p0, rotation=[0, 0, 0, 2])
    with pytest.raises(ValueError, match="shape"):
        ur5.cartesian_path(START[:5], p0)
