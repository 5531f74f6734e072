"""The README's Python example, run as written (its block read from
README.md, so the two cannot drift) on a straight-legged T-pose rig,
male_base_mesh.glb: only the file, the starting pose (the rest pose: the
mesh has no clip), the target and the output path are put in. Checked by
forward kinematics for several targets: the foot reaches the target, the
leg's bones keep their lengths, and the knee ends in front of the
hip-to-ankle line along the figure's forward (the way the toes point);
and the same check sees the knee go backwards without the rig's hinge and
pole, as the example did before."""
import re
from pathlib import Path

import numpy as np

import ikit
from conftest import asset_path, positions

README = Path(__file__).resolve().parents[2] / "README.md"

# What the test puts in: each must appear exactly once in the block.
INPUTS = {'ikit.load("girl.glb")': "ikit.load(RIG)",
          "asset.sample(0, 0.25)": "asset.skeleton.rest_pose()",
          "[0.1, 0.2, 0.1]": "TARGET",
          '"posed.glb"': "OUT"}


def readme_example():
    """The Python block of the README's "## Python" section, inputs
    replaced."""
    text = README.read_text()
    section = text[text.index("\n## Python\n"):]
    block = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert "ikit.two_bone(" in block, "the README's Python example no longer calls ikit.two_bone"
    for written, replacement in INPUTS.items():
        assert block.count(written) == 1, "the README's Python example no longer has %s once" % written
        block = block.replace(written, replacement)
    return block


def leg_geometry(asset):
    """The left leg's joints, rest lengths, and the figure's forward: the
    left toe's direction from the ankle, with the up (hips to head) part
    taken out."""
    skeleton = asset.skeleton
    p = positions(skeleton.fk(skeleton.rest_pose(), asset.root))
    hip, knee, ankle = (skeleton.index(n) for n in ("thigh.L", "shin.L", "foot.L"))
    up = p[skeleton.index("spine.005")] - p[skeleton.index("spine")]
    up /= np.linalg.norm(up)
    toe = p[skeleton.index("toe.L")] - p[ankle]
    forward = toe - up * np.dot(toe, up)
    lengths = (np.linalg.norm(p[knee] - p[hip]), np.linalg.norm(p[ankle] - p[knee]))
    return (hip, knee, ankle), p, lengths, up, forward / np.linalg.norm(forward)


def targets(p, joints, lengths, up, forward):
    """Feet to put down: along the straight leg pulled up (0.95 to 0.6 of
    its length), swung forward, back and out to the side."""
    hip, _, ankle = (p[j] for j in joints)
    leg = sum(lengths)
    down = (ankle - hip) / np.linalg.norm(ankle - hip)
    left = np.cross(up, forward)
    out = []
    for reach in (0.95, 0.8, 0.6):
        for swing in (-0.2, 0.0, 0.25):
            for side in (0.0, 0.1):
                out.append(hip + leg * (reach * down + swing * forward + side * left))
    return out


def knee_ahead(p, joints, forward):
    """How far the knee stands in front of the hip-to-ankle line, along
    forward."""
    hip, knee, ankle = (p[j] for j in joints)
    line = (ankle - hip) / np.linalg.norm(ankle - hip)
    off = (knee - hip) - line * np.dot(knee - hip, line)
    return float(np.dot(off, forward))


def test_readme_two_bone_bends_knee_forward(data, tmp_path):
    rig_path = asset_path(data, "gltf/male_base_mesh.glb")
    asset = ikit.load(str(rig_path))
    joints, rest_p, lengths, up, forward = leg_geometry(asset)
    assert abs(knee_ahead(rest_p, joints, forward)) < 0.02 * sum(lengths), "the rest leg is not straight"
    example = readme_example()
    plain_backward = 0
    for i, target in enumerate(targets(rest_p, joints, lengths, up, forward)):
        names = {"RIG": str(rig_path), "TARGET": list(target), "OUT": str(tmp_path / ("posed%d.glb" % i))}
        exec(example, names)
        pose = names["pose"]
        p = positions(asset.skeleton.fk(pose, asset.root))
        hip, knee, ankle = joints
        # 0.01 mm on a 0.9 m leg in float and double: the file's rest
        # rotations, float numbers, are unit only to about 1e-7
        tol = 1e-5 * sum(lengths)
        assert np.linalg.norm(p[ankle] - target) < tol, "target %d not reached" % i
        assert abs(np.linalg.norm(p[knee] - p[hip]) - lengths[0]) < tol, "target %d: the thigh's length" % i
        assert abs(np.linalg.norm(p[ankle] - p[knee]) - lengths[1]) < tol, "target %d: the shin's length" % i
        assert knee_ahead(p, joints, forward) > 0.05 * sum(lengths), "target %d: the knee bends back" % i
        assert ikit.load(names["OUT"]).skeleton.joint_count == asset.skeleton.joint_count
        # the call without the rig's knowledge, as the README had it
        plain = asset.skeleton.rest_pose()
        ikit.two_bone(asset.skeleton, plain, *joints, target, root=asset.root)
        plain_backward += knee_ahead(positions(asset.skeleton.fk(plain, asset.root)), joints, forward) < 0
    assert plain_backward > 0, "two_bone without hinge and pole never bent this knee back: the check proves nothing"
