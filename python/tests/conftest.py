"""Shared fixtures: the real-asset corpus, seeded random geometry, and the
tolerances of the build's scalar type."""
import os
from pathlib import Path

import numpy as np
import pytest

import ikit

# The project root is two folders up; the corpus sits beside it.
DATA = Path(os.environ.get("IKIT_DATA", Path(__file__).resolve().parents[2] / ".." / "shared" / "data"))
SKIP_NO_DATA = "skipped: real-asset corpus not found (set IKIT_DATA or put it in ../shared/data)"

# Distances as the C tests allow them, per scalar type (tests/test_two_bone.c).
REACH_TOL = 1e-9 if ikit.built_double else 1e-4
LEN_TOL = 1e-9 if ikit.built_double else 2e-5


@pytest.fixture
def data():
    if not DATA.is_dir():
        pytest.skip(SKIP_NO_DATA)
    return DATA


def asset_path(data, relative):
    path = data / relative
    if not path.is_file():
        pytest.skip(SKIP_NO_DATA + ": %s missing" % relative)
    return path


@pytest.fixture
def ikc():
    """The built ikc for tests that compare with it: $IKC or ikc on PATH
    (ikit.batch.find_ikc), else the dev build's; skipped when there is none."""
    from ikit import batch
    try:
        return batch.find_ikc()
    except batch.BatchError:
        dev = Path(__file__).resolve().parents[2] / "build" / "dev" / "ikc"
        if dev.is_file():
            return str(dev)
        pytest.skip("skipped: no built ikc (set $IKC or build build/dev/ikc)")


@pytest.fixture
def rng():
    return np.random.default_rng(20261125)


def random_rotation(rng, count=None):
    """Uniform unit quaternions (xyzw): normalised Gaussian 4-vectors."""
    q = rng.normal(size=(count or 1, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    return q if count else q[0]


def positions(model):
    """Joint positions (n, 3) from model matrices (n, 4, 4) [row, col]."""
    return np.asarray(model[:, :3, 3], dtype=np.float64)


def bone_lengths(skeleton, model):
    p = positions(model)
    return np.array([np.linalg.norm(p[j] - p[skeleton.parents[j]]) if skeleton.parents[j] >= 0 else 0.0
                     for j in range(skeleton.joint_count)])


def chain_skeleton(links, rng, length=1.0):
    """A chain of `links` joints with random bone directions: root first."""
    rest = ikit.new_pose(links)
    for j in range(1, links):
        direction = rng.normal(size=3)
        rest[j, ikit.POSE_TRANSLATION] = length * direction / np.linalg.norm(direction)
    return ikit.Skeleton.from_arrays(np.arange(links) - 1, rest, ["j%d" % j for j in range(links)])
