"""Robots in a cell from Python: the UR5 in the example cell solves a pose
collision-free (the answer reaches the pose by FK and its check is free), a
ball around the goal gives no collision-free solution with the ball among
the contacts, the upper arm through the table is reported, bad input raises."""
import os

import numpy as np
import pytest

import ikit
from conftest import asset_path

HERE = os.path.dirname(os.path.abspath(__file__))
SCENE = os.path.join(HERE, "..", "..", "examples", "ur5_cell.scene.json")


@pytest.fixture
def cell(data):
    urdf = asset_path(data, "urdf/ur5_joint_limited_robot.urdf")
    return ikit.load_cell(urdf, "base_link", "tool0", scene=SCENE,
                          packages={"example-robot-data": str(data / "urdf" / "example-robot-data")})


def test_solve_free_and_check_agrees(cell):
    q, reached, free, report = cell.solve([0.4, 0.2, 0.3], [1, 0, 0, 0])
    assert reached and free and report.free and report.clearance >= 0.01
    tip = cell.robot.fk(q)
    assert np.allclose(tip[ikit.POSE_TRANSLATION], [0.4, 0.2, 0.3], atol=2e-5)
    again = cell.check(q)
    assert again.free and abs(again.clearance - report.clearance) < 1e-9
    assert set(again.link_clearance) == set(cell.link_names)


def test_upper_arm_through_the_table(cell):
    report = cell.check([0, 1.2, 1.5, -1, -1.5, 0])
    assert not report.free and ("upper_arm_link", "obstacle 'table'") == report.contacts[0][:2]


def test_no_collision_free_solution(data, tmp_path):
    ball = tmp_path / "ball.json"
    ball.write_text('{"obstacles": [{"name": "ball", "sphere": 0.1, "pose": [0.4, 0.2, 0.3]}]}')
    cell = ikit.load_cell(asset_path(data, "urdf/ur5_joint_limited_robot.urdf"), "base_link", "tool0", scene=ball,
                          packages={"example-robot-data": str(data / "urdf" / "example-robot-data")})
    q, reached, free, report = cell.solve([0.4, 0.2, 0.3], [1, 0, 0, 0])
    assert reached and not free and any(c[1] == "obstacle 'ball'" for c in report.contacts)


def test_bad_input(cell, data):
    with pytest.raises(ValueError):
        cell.check([0, 0, 0])
    with pytest.raises(ikit.IkitError):
        cell.check([0, np.nan, 0, 0, 0, 0])
    with pytest.raises(ikit.IkitIoError) as failure:
        ikit.load_cell(asset_path(data, "urdf/ur5_joint_limited_robot.urdf"), "base_link", "tool0")
    assert "--package-path" in str(failure.value) and failure.value.code == "IK_ERR_NOT_FOUND"


def test_moveit_scene_and_touching_table(data, tmp_path):
    packages = {"example-robot-data": str(data / "urdf" / "example-robot-data")}
    urdf = asset_path(data, "urdf/ur5_joint_limited_robot.urdf")
    moveit = ikit.load_cell(urdf, "base_link", "tool0", packages=packages,
                            scene=os.path.join(HERE, "..", "..", "examples", "ur5_cell.moveit.scene"))
    assert moveit.obstacle_names[:2] == ["table", "post"] and moveit.obstacle_names[2] == "shelf/1"
    q = [0, -1.2, 1.5, -1, -1.5, 0]
    assert moveit.check(q).free
    table = tmp_path / "table.json"
    table.write_text('{"obstacles": [{"name": "table", "box": [2, 2, 0.1], "pose": [0, 0, -0.05], '
                     '"touches": ["base_link", "shoulder_link"]}]}')
    on_table = ikit.load_cell(urdf, "base_link", "tool0", packages=packages, scene=table)
    assert on_table.check(q).free


def test_path_stops_above_the_table(cell):
    """The tool sent down through the table: the path in the cell stops where
    a link would come within the margin, every waypoint is free by the
    cell's own check, and the same line without the cell goes further."""
    start = np.array([0.3, -1.2, 1.4, -1.8, -1.4, 0.2])
    bare = cell.robot.cartesian_path(start, [0.6, 0.2, -0.3])
    in_cell = cell.cartesian_path(start, [0.6, 0.2, -0.3])
    assert in_cell.stop == "refused by config_ok" and 0 < in_cell.fraction < bare.fraction
    assert all(cell.check(q).free for q in in_cell.waypoints)
    inside = cell.cartesian_path([0, 1.2, 1.5, -1, -1.5, 0], [0.4, 0.2, 0.3])
    assert inside.stop == "start refused by config_ok" and len(inside.waypoints) == 0
