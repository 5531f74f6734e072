"""URDF robot arms: forward kinematics of one and of many configurations,
the geometric Jacobian against finite differences, limits, bad input."""
import numpy as np
import pytest

import ikit
from conftest import asset_path


@pytest.fixture
def panda(data):
    return ikit.load_robot(asset_path(data, "urdf/panda.urdf"), "panda_link0", "panda_link8")


def test_panda_zero_configuration_and_limits(panda):
    assert panda.variable_count == 7 and panda.variable_names[0] == "panda_joint1"
    assert np.all(panda.lower < panda.upper)
    tip = panda.fk(np.zeros(7))
    # Franka's documented zero pose: flange at x = 0.088, z = 0.333 + 0.316 + 0.384 - 0.107 = 0.926
    assert np.allclose(tip[ikit.POSE_TRANSLATION], [0.088, 0, 0.926], atol=1e-4)


def test_many_configurations_in_one_call_equal_single_calls(panda, rng):
    q = rng.uniform(panda.lower, panda.upper, size=(500, 7)).astype(ikit.real_dtype)
    tips = panda.fk(q)
    assert tips.shape == (500, 10) and np.isfinite(tips).all()
    for i in (0, 137, 499):
        assert np.array_equal(panda.fk(q[i]), tips[i])
    # every tip stays within the arm's reach of the shoulder (0.333 up): links summed ~1.2 m
    assert np.all(np.linalg.norm(tips[:, :3] - [0, 0, 0.333], axis=1) < 1.2)


def test_jacobian_matches_finite_differences(panda, rng):
    q = rng.uniform(panda.lower, panda.upper).astype(np.float64)
    jac = panda.jacobian(q)
    assert jac.shape == (6, 7)
    step = 1e-3 if not ikit.built_double else 1e-6
    for v in range(7):
        dq = np.zeros(7)
        dq[v] = step
        moved = (panda.fk(q + dq)[:3].astype(np.float64) - panda.fk(q - dq)[:3]) / (2 * step)
        assert np.allclose(jac[:3, v], moved, atol=5e-3 if not ikit.built_double else 1e-6), v


def test_bad_configurations_raise(panda):
    q = np.zeros((3, 7))
    q[2, 4] = np.nan
    with pytest.raises(ikit.IkitError, match="configuration 2: an input holds NaN"):
        panda.fk(q)
    with pytest.raises(ValueError, match="shape"):
        panda.fk(np.zeros(6))
    with pytest.raises(ikit.IkitIoError, match="panda_link8"):
        ikit.load_robot(panda.path, "panda_link0", "panda_link88")
