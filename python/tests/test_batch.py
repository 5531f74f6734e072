"""python -m ikit.batch: a manifest run on a local Dask cluster of two
workers on loopback writes the same bytes as `ikc batch` run serially, skips
up-to-date lines on a second run, and reports a failing line while the
others finish."""
import json
import os
import subprocess
import sys

import pytest

from ikit import batch

LEG_BVH = """HIERARCHY
ROOT Hips
{
  OFFSET 0 1 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT LeftUpLeg
  {
    OFFSET 0.1 0 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    JOINT LeftLeg
    {
      OFFSET 0 -0.45 0
      CHANNELS 3 Zrotation Xrotation Yrotation
      JOINT LeftFoot
      {
        OFFSET 0 -0.45 0
        CHANNELS 3 Zrotation Xrotation Yrotation
        End Site
        {
          OFFSET 0 -0.05 0.1
        }
      }
    }
  }
}
MOTION
Frames: 3
Frame Time: 0.1
0 1 0 0 0 0 0 0 0 0 10 0 0 0 0
0 1 0 0 0 0 0 5 0 0 20 0 0 0 0
0 1 0 0 0 0 0 10 0 0 30 0 0 0 0
"""


@pytest.fixture
def dask():
    pytest.importorskip("distributed", reason="skipped: python3-distributed not installed")


def manifest(folder, out, targets):
    """Solve lines writing into folder/out, and one that fails."""
    (folder / out).mkdir(exist_ok=True)
    lines = ["# the same solves, written into %s" % out]
    for k, target in enumerate(targets):
        lines.append('solve leg.bvh --target "LeftFoot=%s" -o %s/solved_%d.bvh' % (target, out, k))
    lines.append("solve missing.bvh --target LeftFoot=0,0,0 -o %s/never.bvh" % out)
    path = folder / ("%s.txt" % out)
    path.write_text("\n".join(lines) + "\n")
    return path


def test_dask_equals_serial_and_resumes(tmp_path, ikc, dask, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "leg.bvh").write_text(LEG_BVH)
    targets = ["0.2,0.2,0.2", "0.1,0.3,0.0", "-0.1,0.2,0.3", "0.3,0.5,0.1", "0.0,0.15,0.25"]
    serial = manifest(tmp_path, "serial", targets)
    distributed = manifest(tmp_path, "dask", targets)
    done = subprocess.run([ikc, "batch", str(serial), "-j", "1", "--quiet"], capture_output=True, text=True)
    assert done.returncode == 1, done.stdout + done.stderr

    summary = batch.run(str(distributed), workers=2, ikc=ikc)
    assert (summary["done"], summary["failed"], summary["up_to_date"]) == (5, 1, 0)
    failed = [line for line in summary["lines"] if line["state"] == "failed"]
    assert failed[0]["exit_code"] == 3 and "missing.bvh" in failed[0]["message"]
    for k in range(len(targets)):
        a = (tmp_path / "serial" / ("solved_%d.bvh" % k)).read_bytes()
        b = (tmp_path / "dask" / ("solved_%d.bvh" % k)).read_bytes()
        assert a == b, "line %d: the Dask run wrote other bytes than the serial run" % k
    # the solve moved the foot: the outputs are not the input
    assert (tmp_path / "dask" / "solved_0.bvh").read_bytes() != (tmp_path / "leg.bvh").read_bytes()

    stamp = os.stat(tmp_path / "dask" / "solved_0.bvh").st_mtime_ns
    again = batch.run(str(distributed), workers=2, ikc=ikc)
    assert (again["done"], again["up_to_date"], again["failed"]) == (0, 5, 1)
    assert os.stat(tmp_path / "dask" / "solved_0.bvh").st_mtime_ns == stamp


def test_command_line(tmp_path, ikc, dask, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "leg.bvh").write_text(LEG_BVH)
    path = manifest(tmp_path, "out", ["0.2,0.2,0.2"])
    env = dict(os.environ, IKC=ikc, PYTHONPATH=os.pathsep.join(sys.path))
    done = subprocess.run([sys.executable, "-m", "ikit.batch", str(path), "--json", "--workers", "1"],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 1, done.stderr
    summary = json.loads(done.stdout)
    assert summary["done"] == 1 and summary["failed"] == 1


def test_refusals(tmp_path, ikc, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.txt").write_text('solve "unclosed -o x.bvh\n')
    with pytest.raises(batch.BatchError, match="bad.txt:1: a quote is not closed"):
        batch.run("bad.txt", ikc=ikc)
    assert batch.main(["nothing-here.txt", "--ikc", ikc]) == 2
    monkeypatch.delenv("IKC", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(batch.BatchError, match="ikc not found"):
        batch.find_ikc(str(tmp_path / "no-such-ikc"))
