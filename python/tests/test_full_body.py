"""The full-body solve (ik_full_body_run) from Python: a hand far ahead is
reached by leaning while the pinned feet stay and the centre of mass stays
over them; four effectors at once; bad input refused."""
import numpy as np
import pytest

import ikit
from conftest import positions


def _standing():
    skeleton = ikit.Skeleton.humanoid(1.8)
    return skeleton, ikit.Humanoid(skeleton)


def test_a_hand_past_the_arm_is_reached_by_the_body_with_the_feet_pinned():
    skeleton, body = _standing()
    pose = skeleton.rest_pose()
    rest = positions(skeleton.fk(pose))
    shoulder, hand = skeleton.index("LeftArm"), skeleton.index("LeftHand")
    feet = [skeleton.index("LeftFoot"), skeleton.index("RightFoot")]
    arm = np.linalg.norm(rest[skeleton.index("LeftForeArm")] - rest[shoulder]) + \
        np.linalg.norm(rest[hand] - rest[skeleton.index("LeftForeArm")])
    target = rest[shoulder] + np.array([0.0, 0.0, 1.2 * arm])   # ahead: the figure faces +Z
    model, report = body.solve_full_body(pose, reach={"left_hand": target}, pin=("left_foot", "right_foot"),
                                         balance=True)
    p = positions(model)
    assert report["reached"]["left_hand"]
    assert np.linalg.norm(p[hand] - target) < 1e-3
    for f in feet:
        assert np.linalg.norm(p[f] - rest[f]) < 1e-3
    assert report["balance"] == "kept" and report["support_distance"] >= 0
    assert len(report["support"]) >= 4
    assert "balanced" in report["summary"]
    assert np.allclose(positions(skeleton.fk(pose)), p, atol=1e-5)   # model is the new pose's FK


def test_four_effectors_and_a_warm_start():
    skeleton, body = _standing()
    pose = skeleton.rest_pose()
    rest = positions(skeleton.fk(pose))
    goals = {"left_hand": rest[skeleton.index("LeftHand")] + [0.1, 0.3, 0.25],
             "right_hand": rest[skeleton.index("RightHand")] + [-0.05, 0.2, 0.2],
             "head": rest[skeleton.index("Head")] + [0.0, -0.03, 0.06],
             "left_foot": rest[skeleton.index("LeftFoot")] + [0.0, 0.1, 0.15]}
    reference = pose.copy()
    model, report = body.solve_full_body(pose, reach=goals, pin=("right_foot",), reference=reference)
    p = positions(model)
    for name, joint in (("left_hand", "LeftHand"), ("right_hand", "RightHand"), ("head", "Head"),
                        ("left_foot", "LeftFoot")):
        assert report["reached"][name], (name, report)
        assert np.linalg.norm(p[skeleton.index(joint)] - goals[name]) < 1e-3
    # warm: the result as the start, the same targets: the same pose, in few iterations
    again, second = body.solve_full_body(pose, reach=goals, pin=("right_foot",), reference=reference)
    assert np.allclose(positions(again), p, atol=1e-3)
    assert second["iterations"] <= report["iterations"]


def test_unknown_effectors_and_nan_are_refused():
    skeleton, body = _standing()
    pose = skeleton.rest_pose()
    with pytest.raises(ikit.IkitError, match="left_hand"):
        body.solve_full_body(pose, reach={"left_elbow": [0, 1, 0]})
    with pytest.raises(ikit.IkitError):
        body.solve_full_body(pose, reach={"left_hand": [np.nan, 1, 0]})
    with pytest.raises(ikit.IkitError, match="pelvis"):
        body.solve_full_body(pose, stiffness={"knee": 1.0})
    before = pose.copy()
    with pytest.raises(ikit.IkitError):
        body.solve_full_body(pose, reach={"left_hand": {"position": [0, 1, 0], "pull": 2.0}})
    assert np.array_equal(pose, before)


def test_no_support_is_said():
    skeleton, body = _standing()
    pose = skeleton.rest_pose()
    _, report = body.solve_full_body(pose, balance=True)
    assert report["balance"] == "no support" and "no foot is pinned" in report["summary"]


def test_tiptoe_lifts_the_heels_for_a_high_reach_and_holds_the_toes():
    skeleton, body = _standing()
    rest_pose = skeleton.rest_pose()
    rest = positions(skeleton.fk(rest_pose))
    shoulder, hand = skeleton.index("LeftArm"), skeleton.index("LeftHand")
    up = rest[shoulder] + np.array([0.0, 3.0, 0.0])
    model, report = body.solve_full_body(rest_pose.copy(), reach={"left_hand": up}, pin=("left_foot", "right_foot"),
                                         balance=True)
    flat = positions(model)[hand]
    model, report = body.solve_full_body(rest_pose.copy(), reach={"left_hand": up},
                                         tiptoe=("left_foot", "right_foot"), balance=True)
    high = positions(model)[hand]
    assert high[1] > flat[1] + 0.02
    target = np.array([flat[0], 0.5 * (flat[1] + high[1]), flat[2]])
    pose = rest_pose.copy()
    model, report = body.solve_full_body(pose, reach={"left_hand": target}, tiptoe=("left_foot", "right_foot"),
                                         balance=True)
    p = positions(model)
    assert np.linalg.norm(p[hand] - target) < 1e-3
    assert report["heel_lift"]["left_foot"] > 0.05 and report["heel_lift"]["right_foot"] > 0.05
    assert report["balance"] == "kept"
    for toe in ("LeftToeBase", "RightToeBase"):
        if toe in skeleton.names:
            assert np.linalg.norm(p[skeleton.index(toe)] - rest[skeleton.index(toe)]) < 1e-3
    with pytest.raises(ikit.IkitError):
        body.solve_full_body(rest_pose.copy(), tiptoe=("left_hand",))
