"""What the add-on's tests share inside a headless Blender: installing the
add-on from its zip, Blender 3.4's importers made to work on Debian 12, the
assets, and checks that fail the run.

Blender 3.4's traps on Debian 12 (issue 28), and how these tests get past them:
  - The glTF importer calls np.bool, gone from numpy 1.24 (Debian's): the
    tests set numpy.bool = bool before importing (numpy's own bool is what
    the alias used to mean).
  - The BVH importer opens the file with mode 'rU', which Python 3.11
    refuses: the tests give the importer's module an `open` that drops the
    'U' (text mode already reads every newline convention).
  - The BVH importer keys one Blender frame per BVH frame at the scene's
    rate: update_scene_fps=True makes the scene run at the take's 120 fps.
    It starts at frame 1 at the earliest (frame_start=0 is raised to 1), so
    the glTF exporter writes the take's first frame at 1/120 s (output_take
    reads from there), and its update_scene_duration ends the scene a frame
    past the take, which the exporters would write: import_bvh sets the
    scene's range to the take's.
A user does the same from Blender's Python console before importing (see
docs/blender.md)."""
import builtins
import os
import shutil
import sys

import bpy
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "outside"))

import measure  # noqa: E402 (tests/outside: the project's independent reader and measures)
import reader  # noqa: E402

FAILURES = []
STEP = 2  # every other frame of a 120 fps take, as tests/outside/run_matrix.py measures at 60 Hz


def data_dir():
    return os.environ.get("IKIT_DATA") or os.path.join(ROOT, "..", "shared", "data")


def skip_without_data():
    """Exit 0 with a clear message when the real-asset corpus is absent."""
    if not os.path.isdir(os.path.join(data_dir(), "gltf")):
        print("skipped: real-asset corpus not found (set IKIT_DATA; default ../shared/data)")
        sys.exit(0)


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what, flush=True)
    if not ok:
        FAILURES.append(what)


def finish(scratch=None):
    """Exit 1 when a check failed (its files kept in `scratch` to look at), else remove `scratch`."""
    if FAILURES:
        print("%d check(s) failed:\n  %s" % (len(FAILURES), "\n  ".join(FAILURES)))
        if scratch:
            print("the files are in %s" % scratch)
        sys.exit(1)
    if scratch:
        shutil.rmtree(scratch, ignore_errors=True)
    print("all checks passed")


def install_addon():
    """The add-on from BUILD/ikit_blender.zip (IKIT_BLENDER_ZIP), installed
    and enabled the way a user's script does it."""
    zip_path = os.environ.get("IKIT_BLENDER_ZIP") or os.path.join(ROOT, "build", "ikit_blender.zip")
    if not os.path.isfile(zip_path):
        print("FAIL  no add-on zip at %s (make blender-addon)" % zip_path)
        sys.exit(1)
    bpy.ops.preferences.addon_install(filepath=zip_path, overwrite=True)
    bpy.ops.preferences.addon_enable(module="ikit_blender")
    import ikit_blender  # noqa: F401
    from ikit_blender import loader
    return loader.modules()


def patch_importers():
    """Blender 3.4's glTF and BVH importers made to run on Debian 12 (above)."""
    import numpy
    if "bool" not in numpy.__dict__:
        numpy.bool = bool
    from io_anim_bvh import import_bvh

    def open_without_u(path, mode="r", *args, **kwargs):
        return builtins.open(path, mode.replace("U", ""), *args, **kwargs)

    import_bvh.open = open_without_u


def empty_scene():
    """A new empty scene (factory settings also reset the preferences: the
    add-on is enabled again)."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.preferences.addon_enable(module="ikit_blender")
    patch_importers()


def new_objects(before):
    return [o for o in bpy.data.objects if o.name not in before]


def import_gltf(path):
    """A glTF character through Blender's importer: its armature object."""
    before = set(o.name for o in bpy.data.objects)
    bpy.ops.import_scene.gltf(filepath=path)
    arms = [o for o in new_objects(before) if o.type == "ARMATURE"]
    assert len(arms) == 1, "expected one armature from %s, got %s" % (path, arms)
    return arms[0]


def import_bvh(path, fps=True, **axes):
    """A BVH take through Blender's importer (the take's first frame at frame
    1, the scene at its rate; `axes`: the importer's axis_forward, axis_up):
    its armature object."""
    before = set(o.name for o in bpy.data.objects)
    bpy.ops.import_anim.bvh(filepath=path, update_scene_fps=fps, update_scene_duration=True, frame_start=1, **axes)
    arms = [o for o in new_objects(before) if o.type == "ARMATURE"]
    assert len(arms) == 1
    # update_scene_duration ends the scene one frame past the take (frame_start + frame count), and
    # the exporters write the scene's range: the take's own
    scene = bpy.context.scene
    scene.frame_start, scene.frame_end = (int(round(f)) for f in arms[0].animation_data.action.frame_range)
    return arms[0]


def export_gltf(path, obj, animations=True):
    """The armature (and what hangs from it) with its active action, as
    glTF: only the active action (not every action that fits the armature,
    nor the NLA strips: with those the exporter merges them all into one
    animation, the first action's channels winning), every frame of the
    scene's range, sampled."""
    bpy.ops.object.select_all(action="DESELECT")
    obj.select_set(True)
    for child in obj.children:
        child.select_set(True)
    bpy.context.view_layer.objects.active = obj
    bpy.ops.export_scene.gltf(filepath=path, export_format="GLB", use_selection=True, export_animations=animations,
                              export_nla_strips=False, export_force_sampling=True, export_frame_range=True,
                              export_current_frame=False, export_anim_single_armature=False)


def scene_state():
    """What an operator must leave as it was when it refuses: every object's
    active action, the actions, and the pose bones' rotation modes."""
    state = {"actions": sorted(a.name for a in bpy.data.actions)}
    for o in bpy.data.objects:
        data = o.animation_data
        state[o.name] = (data.action.name if data and data.action else None,
                         tuple(pb.rotation_mode for pb in o.pose.bones) if o.pose else None,
                         tuple(round(x, 6) for row in o.matrix_world for x in row))
    return state


def output_take(path, anim, first, frame_time, frames, take_path):
    """A written glTF's animation `anim` frame by frame (every STEP-th frame
    of `frame_time` seconds from `first`), with the source take's times:
    Blender's glTF exporter writes frame f at f / fps (the take's first
    frame, Blender frame 1, at 1/120 s), and its BVH importer set the scene
    to a whole 120 fps where the take's frame time is 0.0083333 s, so frame
    k is compared with frame k."""
    gltf = reader.Gltf(path)
    k = np.arange(0, frames, STEP)
    take = gltf.take(anim=gltf.animation_index(anim), times=first + k * frame_time)
    take.times = k * reader.Bvh(take_path).frame_time
    return take


def measured(path, anim, first, frame_time, frames, take_path):
    """(output take, measure.measure of it against the source take)."""
    out = output_take(path, anim, first, frame_time, frames, take_path)
    source = reader.read(take_path, times=out.times)
    return out, measure.measure(source, out)


def check_limbs(name, ikc_take, blender_take, within=2.0, single_frames=None):
    """Every limb direction of the add-on's output within `within` degrees
    of ikc's on the same frames (the two takes sampled at the same times).
    `single_frames` (degrees): allow the 1% of (frame, limb) samples above
    `within` up to that, where a tiny difference in the input moves a knee
    on a near-straight leg (test_fbx.py)."""
    angles = measure.limb_angles(ikc_take, blender_take)
    worst, p99 = float(angles.max()), float(np.percentile(angles, 99))
    at, seg = np.unravel_index(np.argmax(angles), angles.shape)
    if single_frames is None:
        ok, goal = worst <= within, "max within %g" % within
    else:
        ok, goal = p99 <= within and worst <= single_frames, "p99 within %g, max within %g" % (within, single_frames)
    check(ok, "%s: limb directions against ikc's: median %.2f, p95 %.2f, p99 %.2f, max %.2f deg (%s; the largest "
          "at %.3f s, %s; %d of %d samples over %g)"
          % (name, float(np.median(angles)), float(np.percentile(angles, 95)), p99, worst, goal,
             float(blender_take.times[at]), "->".join(measure.SEGMENTS[seg][1:]), int((angles > within).sum()),
             angles.size, within))
    return angles


def report(name, m):
    sk = m["skating"]
    limbs = " ".join("%s %.1f/%.1f" % (g, m["limbs"][g]["median"], m["limbs"][g]["p95"]) for g in measure.GROUPS)
    print("      %-22s contacts %2d, slide max %.1f mm (median %.1f), sink %.1f mm; limbs vs source (median/p95 deg): %s"
          % (name, sk["count"], 1000 * sk["max_slide"], 1000 * sk["median_slide"], 1000 * sk["sink"], limbs))
