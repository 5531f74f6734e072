#!/usr/bin/python3
"""Two-bone IK from Python over numpy arrays: ns per solve for a batch of
limbs (ikit.two_bone_batch: ik_two_bone_in_place_run, on the batch job's
lanes, or with a hinge ik_two_bone_run limb by limb), and the cost
of one ikit.two_bone call from Python for comparison.

Protocol: LIMBS limbs (default 1e6), each a hip with a random rotation and
place, a knee bent 5 to 60 degrees, bones 0.3 to 0.6 long, a target drawn
between the limb's inner and outer reach (5 to 95 % of the way out); the limbs' matrices and local rotations are
built in numpy in the library's layout, so the call copies nothing. Each
repeat restores the rotations (untimed), then times the whole batch call
(thread CPU time, as bench_util.h's clock, and wall time); the median over
REPEATS is reported, per solve and in total. Goal (issue 16): a million
solves in at most 0.2 s on one core. Writes bench_python.csv.

Usage: PYTHONPATH=<folder with ikit> /usr/bin/python3 bench/bench_python.py [LIMBS] [REPEATS]
"""
import csv
import statistics
import sys
import time

import numpy as np

import ikit


def quat_to_matrix(q):
    """Rotation matrices (n, 3, 3) of unit quaternions (n, 4) xyzw."""
    x, y, z, w = q.T
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], axis=-1),
        np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], axis=-1),
        np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], axis=-1),
    ], axis=-2)


def make_limbs(count, seed=20261125):
    """Hip, knee and ankle matrices, the hip's and knee's local rotations
    (hip under an identity root, knee and ankle under their parents) and
    targets, for `count` random limbs."""
    rng = np.random.default_rng(seed)
    hip_rot = rng.normal(size=(count, 4))
    hip_rot /= np.linalg.norm(hip_rot, axis=1, keepdims=True)
    bend = np.radians(rng.uniform(5, 60, size=count))
    knee_rot = np.zeros((count, 4))
    knee_rot[:, 0] = np.sin(bend / 2)      # about the knee's local x
    knee_rot[:, 3] = np.cos(bend / 2)
    upper = rng.uniform(0.3, 0.6, size=count)
    lower = rng.uniform(0.3, 0.6, size=count)
    hip_r = quat_to_matrix(hip_rot)
    knee_r = hip_r @ quat_to_matrix(knee_rot)
    hip_p = rng.uniform(-1, 1, size=(count, 3))
    knee_p = hip_p + hip_r @ np.array([0, -1, 0]) * upper[:, None]
    ankle_p = knee_p + knee_r @ np.array([0, -1, 0]) * lower[:, None]
    direction = rng.normal(size=(count, 3))
    direction /= np.linalg.norm(direction, axis=1, keepdims=True)
    inner, outer = np.abs(upper - lower), upper + lower
    distance = inner + rng.uniform(0.05, 0.95, size=count) * (outer - inner)
    targets = hip_p + direction * distance[:, None]
    matrices = []
    for rotation, place in ((hip_r, hip_p), (knee_r, knee_p), (knee_r, ankle_p)):
        m = ikit.new_matrices(count)          # the library's layout: no copy when passed
        m[:, :3, :3] = rotation
        m[:, :3, 3] = place
        matrices.append(m)
    real = ikit.real_dtype
    return (*matrices, targets.astype(real), hip_rot.astype(real), knee_rot.astype(real),
            hip_p, outer)


def time_batch(limbs, repeats, **options):
    start, mid, end, targets, hip_rot, knee_rot, _, _ = limbs
    cpu, wall = [], []
    reached = np.zeros(len(targets), dtype=np.intc)
    residual = np.zeros(len(targets), dtype=ikit.real_dtype)
    hip, knee = hip_rot.copy(), knee_rot.copy()
    for _ in range(repeats):
        hip[:] = hip_rot
        knee[:] = knee_rot
        c0, w0 = time.thread_time(), time.perf_counter()
        ikit.two_bone_batch(start, mid, end, targets, hip, knee, reached=reached, residual=residual, **options)
        cpu.append(time.thread_time() - c0)
        wall.append(time.perf_counter() - w0)
    return statistics.median(cpu), statistics.median(wall), reached, residual


def time_single_calls(calls, repeats):
    """One ikit.two_bone call from Python on a three-joint leg (FK included)."""
    rest = ikit.new_pose(3)
    rest[1, ikit.POSE_TRANSLATION] = [0, -0.45, 0]
    rest[2, ikit.POSE_TRANSLATION] = [0, -0.42, 0]
    skeleton = ikit.Skeleton.from_arrays([-1, 0, 1], rest)
    samples = []
    for _ in range(repeats):
        pose = skeleton.rest_pose()
        c0 = time.thread_time()
        for i in range(calls):
            ikit.two_bone(skeleton, pose, 0, 1, 2, (0.1, -0.6 + 1e-5 * i, 0.2))
        samples.append(time.thread_time() - c0)
    return statistics.median(samples)


def main():
    count = int(float(sys.argv[1])) if len(sys.argv) > 1 else 1_000_000
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    limbs = make_limbs(count)
    scalar = "double" if ikit.built_double else "float"
    rows = []
    print("ikit %s (%s), %d limbs, median of %d repeats" % (ikit.__version__, scalar, count, repeats))
    for variant, options in (("no-pole", {}), ("pole", {"poles": limbs[3] + np.float32(0.5)}),
                             ("hinge", {"hinge_axis": (1, 0, 0), "min_bend": -3.0, "max_bend": 3.0})):
        cpu, wall, reached, residual = time_batch(limbs, repeats, **options)
        reach = limbs[7]
        worst = float(np.max(residual / reach))
        print("two_bone_batch %-8s %8.1f ns/solve  %.3f s total (wall %.3f s)  reached %.4f  worst residual/reach %.1e"
              % (variant, cpu / count * 1e9, cpu, wall, reached.mean(), worst))
        rows.append(["two_bone_batch", variant, scalar, count, repeats, "%.2f" % (cpu / count * 1e9), "%.4f" % cpu,
                     "%.4f" % wall, "%.5f" % reached.mean(), "%.3e" % worst])
    calls = 20000
    single = time_single_calls(calls, 3)
    print("two_bone (one Python call) %8.1f ns/solve" % (single / calls * 1e9))
    rows.append(["two_bone_single_call", "no-pole", scalar, calls, 3, "%.2f" % (single / calls * 1e9),
                 "%.4f" % single, "", "", ""])
    with open("bench_python.csv", "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["call", "variant", "scalar", "solves", "repeats", "ns_per_solve", "cpu_s_total",
                      "wall_s_total", "reached_fraction", "worst_residual_over_reach"])
        out.writerows(rows)


if __name__ == "__main__":
    main()
