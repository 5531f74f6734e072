"""The same file gives the same skeleton, clips and errors in Python as in ikc
(and so as in the browser playground, whose test compares the page with ikc
on the same files, tests/js/playground.mjs): each humanoid of the corpus
read by ikit.load has the joint names, parents and clips (names, durations)
`ikc info FILE --json` prints, and a bad URDF file is refused with the words
`ikc info` prints after "not a readable URDF file: "."""
import json
import subprocess

import pytest

import ikit
from ikit.urdf import read_urdf

from conftest import asset_path

FILES = ["gltf/girl.glb", "gltf/male_base_mesh.glb", "gltf/rigged_figure.glb", "gltf/robot.glb",
         "gltf/SimpleSkin.gltf", "bvh/131_01.bvh"]

BAD_URDF = {
    "broken.urdf": '<robot name="r"><link name="a"/><joint name="j" type="revolute">',
    "nolimit.urdf": '<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="revolute">'
                    '<parent link="a"/><child link="b"/></joint></robot>',
    "mismatch.urdf": '<robot name="r">\n<link name="a">\n</robot>',
    "entity.urdf": '<!DOCTYPE robot [<!ENTITY x SYSTEM "file:///etc/passwd">]><robot name="&x;"/>',
    "dropped.urdf": '<robot name="x"><link name="a"/></robot',
}


def ikc_info(ikc, path):
    done = subprocess.run([str(ikc), "info", str(path), "--json"], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


@pytest.mark.parametrize("relative", FILES)
def test_asset_as_ikc_reads_it(data, ikc, relative):
    path = asset_path(data, relative)
    asset = ikit.load(path)
    cli = ikc_info(ikc, path)
    assert asset.skeleton.names == [j["name"] for j in cli["joints"]]
    assert list(asset.skeleton.parents) == [j["parent"] for j in cli["joints"]]
    assert asset.clip_count == len(cli["clips"])
    for clip, (name, theirs) in enumerate(zip(asset.clip_names, cli["clips"])):
        # ikc names a clip without a name "clip N" (a BVH's "motion")
        assert name == theirs["name"] or (name == "" and theirs["name"] in ("clip %d" % clip, "motion"))
        assert asset.clip_duration(clip) == pytest.approx(theirs["duration"], rel=1e-6, abs=1e-9)


@pytest.mark.parametrize("name", sorted(BAD_URDF))
def test_bad_urdf_as_ikc_says(tmp_path, ikc, name):
    path = tmp_path / name
    path.write_text(BAD_URDF[name])
    done = subprocess.run([str(ikc), "info", str(path)], capture_output=True, text=True)
    said = done.stderr.splitlines()[0]
    marker = "not a readable URDF file: "
    assert done.returncode != 0 and marker in said
    with pytest.raises(ikit.IkitError) as refused:
        read_urdf(path)
    assert refused.value.library_message == said.split(marker, 1)[1]
