"""Issue 25's outside measure: ikc's retargeting and clean-up measured by an
independent reader of the written files (tests/outside: numpy only, no ikit
code), on the shared rigs, Mixamo-like copies and synthetic takes.

The reader is checked first against tiny files with known answers; then every
(take x rig) pair is run through `ikc retarget` and `ikc clean` once, and each
goal of the issue has its own test function below (test_goal_*). Those are the
issue's goals as stated, not today's numbers: the ones not met yet are marked
as strict expected failures, each saying what fails, so that meeting one turns
its test red until the mark goes."""
import base64
import json
import os
import struct
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import asset_path

OUTSIDE = Path(__file__).resolve().parents[2] / "tests" / "outside"
sys.path.insert(0, str(OUTSIDE))
import measure  # noqa: E402
import reader  # noqa: E402
import run_matrix  # noqa: E402
import variants  # noqa: E402

H = np.sqrt(0.5)


# ---------------------------------------------------------------- reader, known answers

def _gltf(tmp_path, nodes, arrays, animations, name="t.gltf"):
    """A .gltf with one data-URI buffer; arrays: list of (float32 array, type, byteStride or None)."""
    blob, views, accs = b"", [], []
    for arr, kind, stride in arrays:
        arr = np.asarray(arr, dtype=np.float32)
        rows = arr.reshape(arr.shape[0], -1)
        if stride:
            pad = np.zeros((rows.shape[0], stride // 4 - rows.shape[1]), dtype=np.float32)
            data = np.hstack([rows, pad]).tobytes()
        else:
            data = rows.tobytes()
        view = {"buffer": 0, "byteOffset": len(blob), "byteLength": len(data)}
        if stride:
            view["byteStride"] = stride
        views.append(view)
        accs.append({"bufferView": len(views) - 1, "componentType": 5126, "count": rows.shape[0], "type": kind})
        blob += data
    doc = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": nodes,
           "buffers": [{"byteLength": len(blob),
                        "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}],
           "bufferViews": views, "accessors": accs, "animations": animations}
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


def _chain(tmp_path, armature):
    times = [[0.0], [1.0]]
    quats = [[0, 0, 0, 1], [0, 0, H, H]]
    # CUBICSPLINE: (in-tangent, value, out-tangent) per key; out-tangent of key 0 is (100, 0, 0)
    cubic = [[0, 0, 0], [0, 100, 0], [100, 0, 0], [0, 0, 0], [0, 200, 0], [0, 0, 0]]
    nodes = [dict(armature, name="Armature", children=[1]),
             {"name": "root", "translation": [0, 100, 0], "children": [2]},
             {"name": "tip", "translation": [0, 100, 0]}]
    anims = [{"name": "lin", "samplers": [{"input": 0, "output": 1, "interpolation": "LINEAR"}],
              "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}]},
             {"name": "step", "samplers": [{"input": 0, "output": 1, "interpolation": "STEP"}],
              "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}]},
             {"name": "cubic", "samplers": [{"input": 0, "output": 2, "interpolation": "CUBICSPLINE"}],
              "channels": [{"sampler": 0, "target": {"node": 2, "path": "translation"}}]}]
    return _gltf(tmp_path, nodes, [(times, "SCALAR", None), (quats, "VEC4", None), (cubic, "VEC3", 16)], anims)


def test_reader_gltf_chain_armature_slerp(tmp_path):
    # a 2-joint chain of 100 units each under a 0.01 armature: tip at 2 m at rest
    path = _chain(tmp_path, {"scale": [0.01, 0.01, 0.01]})
    g = reader.Gltf(path)
    rest = g.take()
    assert np.allclose(rest.rest[rest.index["tip"]], [0, 2, 0], atol=1e-6)
    # LINEAR rotation keys 0 and 90 deg about Z: slerp midpoint is 45 deg, tip = 0.01 (root + Rz45 (0, 100, 0))
    t = g.take("lin", times=[0.0, 0.5, 1.0])
    tip = t.joint("tip")
    assert np.allclose(tip[1], [-H, 1 + H, 0], atol=1e-6)
    assert np.allclose(tip[2], [-1, 1, 0], atol=1e-6)
    # STEP keeps key 0 until t = 1
    s = g.take("step", times=[0.5, 1.0]).joint("tip")
    assert np.allclose(s, [[0, 2, 0], [-1, 1, 0]], atol=1e-6)
    # CUBICSPLINE (byteStride 16): Hermite at u = 0.5: 0.5 v0 + 0.125 b0 + 0.5 v1 - 0.125 a1 = (12.5, 150, 0)
    c = g.take("cubic", times=[0.5]).joint("tip")
    assert np.allclose(c[0], [0.125, 2.5, 0], atol=1e-6)


def test_reader_gltf_zup_armature(tmp_path):
    # armature turned -90 deg about X (Blender's FBX import), the chain stored along +Z: the tip stands up +Y
    path = _chain(tmp_path, {"rotation": [-H, 0, 0, H], "scale": [0.01, 0.01, 0.01]})
    doc = json.loads(Path(path).read_text())
    doc["nodes"][1]["translation"] = [0, 0, 100]
    doc["nodes"][2]["translation"] = [0, 0, 100]
    Path(path).write_text(json.dumps(doc))
    t = reader.Gltf(path).take()
    assert np.allclose(t.rest[t.index["tip"]], [0, 2, 0], atol=1e-6)
    # also as a matrix node (column-major)
    doc["nodes"][0] = {"name": "Armature", "children": [1],
                       "matrix": [0.01, 0, 0, 0, 0, 0, -0.01, 0, 0, 0.01, 0, 0, 0, 0, 0, 1]}
    Path(path).write_text(json.dumps(doc))
    t = reader.Gltf(path).take()
    assert np.allclose(t.rest[t.index["tip"]], [0, 2, 0], atol=1e-6)


BVH = """HIERARCHY
ROOT Hips
{
  OFFSET 0 0 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT Knee
  {
    OFFSET 0 1 0
    CHANNELS 3 Xrotation Yrotation Zrotation
    End Site
    {
      OFFSET 0 0 2
    }
  }
}
MOTION
Frames: 2
Frame Time: 0.5
1 2 3 90 0 0 0 0 0
1 2 3 90 90 0 0 90 0
"""


def test_reader_bvh_fk(tmp_path):
    path = tmp_path / "t.bvh"
    path.write_text(BVH)
    t = reader.Bvh(str(path)).take()
    knee, end = t.joint("Knee"), t.joint("Knee_End")
    # frame 0: Rz(90) (0, 1, 0) = (-1, 0, 0); the end site (0, 0, 2) stays along Z
    assert np.allclose(knee[0], [0, 2, 3], atol=1e-9)
    assert np.allclose(end[0], [0, 2, 5], atol=1e-9)
    # frame 1: root R = Rz(90) Rx(90) in the file's order: (0, 1, 0) -> (0, 0, 1); knee Ry(90) then
    # (0, 0, 2) -> Ry(90) (0, 0, 2) = (2, 0, 0), then the root turn: Rz(90) Rx(90) (2, 0, 0) = (0, 2, 0)
    assert np.allclose(knee[1], [1, 2, 4], atol=1e-9)
    assert np.allclose(end[1], [1, 4, 4], atol=1e-9)
    # resampled at 4 Hz: halfway between the two frames
    half = reader.Bvh(str(path)).take(rate=4.0)
    assert np.allclose(half.joint("Knee")[1], [0.5, 2, 3.5], atol=1e-9)


def test_reader_euler_round_trip():
    rng = np.random.default_rng(25)
    for order in ([0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]):
        a = rng.uniform(-85, 85, (200, 3))
        assert np.allclose(reader.mat_to_euler(order, reader.euler_to_mat(order, a)), a, atol=1e-9)


def test_measure_body_frame_and_skating(tmp_path):
    # a figure stored Z-up: the up axis is +Z; a foot sliding 1 cm while down is one contact of 1 cm
    names = ["Hips", "LeftUpLeg", "LeftLeg", "LeftFoot", "RightUpLeg", "RightLeg", "RightFoot", "Neck", "Head",
             "LeftArm", "LeftForeArm", "LeftHand", "RightArm", "RightForeArm", "RightHand"]
    parents = [-1, 0, 1, 2, 0, 4, 5, 0, 7, 7, 9, 10, 7, 12, 13]
    rest = np.array([[0, 0, 1], [.1, 0, 1], [.1, 0, .5], [.1, 0, 0], [-.1, 0, 1], [-.1, 0, .5], [-.1, 0, 0],
                     [0, 0, 1.5], [0, 0, 1.7], [.2, 0, 1.5], [.5, 0, 1.5], [.8, 0, 1.5], [-.2, 0, 1.5],
                     [-.5, 0, 1.5], [-.8, 0, 1.5]], dtype=float)
    times = np.arange(30) / 60.0
    pos = np.repeat(rest[None], 30, 0)
    pos[:, 3, 0] += np.linspace(0, 0.01, 30)  # left foot slides 1 cm along X (0.6 cm/s)
    pos[:, 6, 2] += 0.2  # right foot in the air
    # joints that translate without turning: the balls of these toe-less feet move as the ankles do
    frames = np.repeat(np.eye(4)[None, None], 30, 0).repeat(len(names), 1)
    frames[:, :, :3, 3] = pos
    rest_frames = frames[0].copy()
    rest_frames[:, :3, 3] = rest
    t = reader.Take(names, parents, times, pos, rest, frames=frames, rest_frames=rest_frames)
    roles = measure.map_roles(t)
    assert np.allclose(measure.up_axis(t, roles), [0, 0, 1])
    f = measure.body_frame(t, roles)
    assert np.allclose(f[0], [[1, 0, 0], [0, 0, 1], [0, -1, 0]])
    sk = measure.skating(t)
    assert sk["count"] == 1 and abs(sk["max_slide"] - 0.01) < 1e-9
    assert measure.knee_flips(t)["L"].size == 0


# ---------------------------------------------------------------- variant writers

def test_variants_mixamo_like_same_world(data, tmp_path):
    male = str(asset_path(data, "gltf/male_base_mesh.glb"))
    girl = str(asset_path(data, "gltf/girl.glb"))
    for src, kw in ((male, {}), (male, {"zup": True}), (girl, {})):
        out = variants.mixamo_like(src, str(tmp_path / "v.glb"), **kw)
        assert variants.joint_match(src, out) < 1e-5, (src, kw)
        # the skin still fits: rest skinned vertices where the original's are
        for a, b in zip(variants.skinned_rest(src), variants.skinned_rest(out)):
            assert np.abs(a - b).max() < 1e-5, (src, kw)
        t = reader.Gltf(out).take()
        assert "mixamorig:Hips" in t.index and "mixamorig:LeftUpLeg" in t.index
        measure.map_roles(t)
    # girl's clips still play the same (translations x100 under the 0.01 armature)
    out = variants.mixamo_like(girl, str(tmp_path / "g.glb"))
    a, b = reader.Gltf(girl).take("RunTrack"), reader.Gltf(out).take("RunTrack")
    ja = reader.Gltf(girl).skin_joints()
    jb = [b.index[variants.mixamo_name(a.names[j])] for j in ja]
    assert np.abs(a.positions[:, ja] - b.positions[:, jb]).max() < 1e-5


def test_variants_apose(data, tmp_path):
    male = str(asset_path(data, "gltf/male_base_mesh.glb"))
    out = variants.mixamo_like(male, str(tmp_path / "a.glb"), apose=40.0)
    for path in (male, out):
        t = reader.Gltf(path).take()
        r = measure.map_roles(t)
        d = measure.unit(t.rest[r["elbow_L"]] - t.rest[r["upperarm_L"]])
        if path == male:
            before = d
    assert abs(np.degrees(np.arccos(np.clip(before @ d, -1, 1))) - 40.0) < 1e-4


def test_variants_synthetic_takes(data, tmp_path):
    src = str(asset_path(data, "bvh/131_01.bvh"))
    side = variants.sideways(src, str(tmp_path / "s.bvh"))
    back = variants.backwards(src, str(tmp_path / "b.bvh"))
    cross = variants.crossover(str(asset_path(data, "bvh/131_02.bvh")), str(tmp_path / "c.bvh"))
    for p in (side, back, cross):
        assert variants.euler_roundtrip(p) < 1e-4
    a, s = reader.read(src, rate=None), reader.read(side, rate=None)
    ang = measure.limb_angles(a, s)
    thighs = [i for i, seg in enumerate(measure.SEGMENTS) if seg[0] == "thigh"]
    assert 20 <= np.median(ang[:, thighs]) <= 35
    assert np.abs(ang[:, 0]).max() < 1e-6  # the trunk is untouched
    # sideways: the left foot goes out to the left, the right to the right
    r = measure.map_roles(a)
    fa, fs = measure.body_frame(a, r), measure.body_frame(s, r)
    gap_a = np.einsum("fi,fi->f", a.joint("LeftAnkle") - a.joint("RightAnkle"), fa[:, 0])
    gap_s = np.einsum("fi,fi->f", s.joint("LeftAnkle") - s.joint("RightAnkle"), fs[:, 0])
    assert np.median(gap_s - gap_a) > 0
    b = reader.read(back, rate=None)
    assert np.allclose(b.positions, a.positions[::-1], atol=1e-5)


# ---------------------------------------------------------------- the matrix and the goals

_MATRIX = {}


@pytest.fixture
def matrix(ikc, data, tmp_path_factory):
    """Every (take x rig) row, run once per session."""
    if ikc not in _MATRIX:
        os.environ.setdefault("IKIT_DATA", str(data))
        out = tmp_path_factory.mktemp("outside_matrix")
        _MATRIX[ikc] = run_matrix.main(["--ikc", ikc, "--out", str(out)])
    return _MATRIX[ikc]


def _stages(row):
    return [s for s in ("r", "c") if (s + "_contacts") in row]


def _limb_goal(matrix, group):
    med_goal, p95_goal = measure.GOALS[group]
    bad = []
    for row in matrix:
        for s in _stages(row):
            med, p95 = row["%s_%s_med" % (s, group)], row["%s_%s_p95" % (s, group)]
            if med > med_goal or p95 > p95_goal:
                bad.append("%s on %s (%s): median %.1f, 95th %.1f, worst %s" % (
                    row["take"], row["rig"], {"r": "retarget", "c": "clean"}[s], med, p95,
                    row["%s_%s_worst" % (s, group)]))
    assert not bad, "%s direction beyond median %d / 95th %d deg:\n" % (group, med_goal, p95_goal) + "\n".join(bad)


def test_goal_ikc_runs(matrix):
    bad = ["%s on %s: retarget %s, clean %s" % (r["take"], r["rig"], r["rc_retarget"], r["rc_clean"])
           for r in matrix if r["rc_retarget"] != 0 or r["rc_clean"] != 0]
    assert not bad, "\n".join(bad)


def test_ikc_slides_agree_with_outside(matrix):
    """ikc retarget's table (contacts found on its result, ik_ground_slide)
    and this reader of the written file find the same worst slide, within
    2 mm (the issue's agreement)."""
    bad = ["%s on %s: ikc %s mm, outside %.1f mm" % (r["take"], r["rig"], r["r_ikc_slide_mm"], r["r_max_slide_mm"])
           for r in matrix if "r_max_slide_mm" in r and
           (r["r_ikc_slide_mm"] is None or abs(r["r_ikc_slide_mm"] - r["r_max_slide_mm"]) > 2.0)]
    assert not bad, "\n".join(bad)


def test_goal_limbs_trunk(matrix):
    _limb_goal(matrix, "trunk")


def test_goal_limbs_upper_arms(matrix):
    _limb_goal(matrix, "upper_arm")


def test_goal_limbs_forearms(matrix):
    _limb_goal(matrix, "forearm")


def test_goal_limbs_thighs(matrix):
    _limb_goal(matrix, "thigh")


def test_goal_limbs_shins(matrix):
    _limb_goal(matrix, "shin")


def test_goal_planted_slide(matrix):
    bad = ["%s on %s (%s): %d contacts over 5 mm, worst %.1f mm" % (
        r["take"], r["rig"], {"r": "retarget", "c": "clean"}[s], r[s + "_over_5mm"], r[s + "_max_slide_mm"])
        for r in matrix for s in _stages(r) if r[s + "_max_slide_mm"] > 5.0]
    assert not bad, "planted contacts sliding over 5 mm:\n" + "\n".join(bad)


def test_goal_sink(matrix):
    bad = ["%s on %s (%s): %.1f mm below the floor" % (
        r["take"], r["rig"], {"r": "retarget", "c": "clean"}[s], r[s + "_sink_mm"])
        for r in matrix for s in _stages(r) if r[s + "_sink_mm"] > 5.0]
    assert not bad, "grounded feet sinking over 5 mm:\n" + "\n".join(bad)


def test_goal_no_knee_flips(matrix):
    bad = ["%s on %s (%s): %d frames" % (r["take"], r["rig"], {"r": "retarget", "c": "clean"}[s],
                                          r[s + "_knee_flips"])
           for r in matrix for s in _stages(r) if r[s + "_knee_flips"] > 0]
    assert not bad, "knees bent backwards:\n" + "\n".join(bad)


# ---------------------------------------------------------------- ikc clean of the captures themselves

@pytest.mark.parametrize("take", ["131_01", "131_02", "01_01"])
def test_clean_of_a_capture_measured_outside(ikc, data, tmp_path, take):
    """`ikc clean` of a raw CMU capture, its written BVH read back by this
    reader: every contact found on it slides 5 mm or less (metres: 0.85 m
    of the take's own legs, thigh to ankle, both legs' mean, as ikc takes
    them), and ikc's table says the same within 2 mm."""
    import subprocess
    src = str(asset_path(data, "bvh/%s.bvh" % take))
    out = str(tmp_path / ("%s_clean.bvh" % take))
    run = subprocess.run([ikc, "clean", src, "-o", out, "--json"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    ikc_slide = json.loads(run.stdout)["after"]["outside"]["worst_slide_mm"]
    t = reader.read(out, rate=60.0)
    roles = measure.map_roles(t)
    legs = [np.linalg.norm(t.rest[roles["knee_" + k]] - t.rest[roles["thigh_" + k]]) +
            np.linalg.norm(t.rest[roles["ankle_" + k]] - t.rest[roles["knee_" + k]]) for k in "LR"]
    sk = measure.skating(t, metres_per_unit=0.85 / np.mean(legs))
    assert sk["count"] >= 10, "%s: only %d contacts found on the clean-up" % (take, sk["count"])
    assert sk["max_slide"] <= 0.005, "%s: a contact slides %.1f mm" % (take, 1000 * sk["max_slide"])
    assert abs(1000 * sk["max_slide"] - ikc_slide) <= 2.0, (take, 1000 * sk["max_slide"], ikc_slide)
