"""Run by tests/install/readme_python.py in the shell that has just run the
README's Python block, as `python3 readme_python_check.py`: that python3
must be the virtual environment the block made inside the fresh copy, and
ikit must come from it (not from the source tree or another install). Then
one real solve: the built humanoid's left leg by two-bone IK, checked by
forward kinematics (the foot on a reachable target, both bones their rest
lengths, the knee bent forward toward the pole), and a target past the
leg's reach (not reached, the leg straight toward it)."""
import os
import sys
from pathlib import Path

import numpy as np

import ikit

venv = Path(os.environ.get("VIRTUAL_ENV", "")).resolve()
root = Path(os.environ["IKIT_README_VENV_ROOT"]).resolve()
if not os.environ.get("VIRTUAL_ENV"):
    sys.exit("FAIL: no virtual environment is active in the block's shell")
if root not in venv.parents:
    sys.exit("FAIL: the active environment %s is not inside the fresh copy %s" % (venv, root))
if Path(sys.prefix).resolve() != venv:
    sys.exit("FAIL: python3 is %s, not the environment's (%s)" % (sys.executable, venv))
if venv not in Path(ikit.__file__).resolve().parents:
    sys.exit("FAIL: ikit was imported from %s, not from %s" % (ikit.__file__, venv))

skeleton = ikit.Skeleton.humanoid(1.8)
hip, knee, ankle = (skeleton.index(n) for n in ("LeftUpLeg", "LeftLeg", "LeftFoot"))


def joints(pose):
    p = np.asarray(skeleton.fk(pose)[:, :3, 3], dtype=np.float64)
    return p[hip], p[knee], p[ankle]


h, k, a = joints(skeleton.rest_pose())
upper, lower = np.linalg.norm(k - h), np.linalg.norm(a - k)
leg = upper + lower
tol = 1e-4 * leg

# Reachable: the foot forward and up; the pole in front of the knee.
target = h + np.array([0.0, -0.75 * leg, 0.3 * leg])
pose = skeleton.rest_pose()
reached, residual = ikit.two_bone(skeleton, pose, hip, knee, ankle, target, pole=k + np.array([0.0, 0.0, 1.0]))
h2, k2, a2 = joints(pose)
failures = []
if not reached or np.linalg.norm(a2 - target) > tol:
    failures.append("the foot is %.3g m from the target (reached %s)" % (np.linalg.norm(a2 - target), reached))
if abs(np.linalg.norm(k2 - h2) - upper) > tol or abs(np.linalg.norm(a2 - k2) - lower) > tol:
    failures.append("the leg's bones changed length")
line = (a2 - h2) / np.linalg.norm(a2 - h2)
off = (k2 - h2) - line * np.dot(k2 - h2, line)
if off[2] < 0.05 * leg:
    failures.append("the knee is %.3g m in front of the hip-ankle line, not bent toward the pole" % off[2])

# Past the leg's reach: not reached, the leg straight along hip -> target.
far = h + np.array([0.0, -1.5 * leg, 0.5 * leg])
pose = skeleton.rest_pose()
reached, residual = ikit.two_bone(skeleton, pose, hip, knee, ankle, far)
h3, k3, a3 = joints(pose)
toward = (far - h3) / np.linalg.norm(far - h3)
if reached or abs(residual - (np.linalg.norm(far - h3) - leg)) > tol:
    failures.append("a target past reach: reached %s, residual %.4g" % (reached, residual))
if np.linalg.norm(a3 - (h3 + leg * toward)) > tol:
    failures.append("a target past reach: the leg is not straight toward it")

if failures:
    sys.exit("FAIL: " + "; ".join(failures))
print("ikit %s from %s: the leg solved, checked by forward kinematics" % (ikit.__version__, Path(ikit.__file__).parent))
