"""The Blender add-on's operators timed inside Blender: retargeting a
1,000-frame take (goal, issue 28: under 2 s including reading and writing
the actions), then the footskate clean-up and the key fit of its result.

Protocol: a headless Blender (factory settings) with the add-on installed
from its zip; girl.glb through Blender's glTF importer, CMU 131_02 (1,247
frames at 120 fps) through its BVH importer, its action's manual frame
range set to frames 1..1000. Each repeat runs the operator as a script
does (bpy.ops.ikit.retarget(source=, target=)), wall time of the whole
call (armatures and action read, the library's job, the new action
written and assigned), then removes the new action (untimed). The same
steps are also timed one by one outside the operator: reading the action
into poses, ikit.retarget, writing the new action. Medians over REPEATS
(default 7). Prints them and writes bench_blender.csv in the current folder.

    blender -b --factory-startup --python bench/bench_blender.py [-- REPEATS]

The add-on zip: $IKIT_BLENDER_ZIP (default build/ikit_blender.zip, from
`make blender-addon`); the assets: $IKIT_DATA (default ../shared/data)."""
import csv
import os
import statistics
import sys
import time

import bpy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "blender"))
import blender_util as U  # noqa: E402

FRAMES = 1000


def timed(function, repeats, after=None):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
        if after is not None:
            after(result)
    return statistics.median(times), min(times), max(times)


def main():
    args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    repeats = int(args[0]) if args else 7
    U.skip_without_data()
    ikit, armature = U.install_addon()
    U.empty_scene()
    girl = U.import_gltf(os.path.join(U.data_dir(), "gltf", "girl.glb"))
    take = U.import_bvh(os.path.join(U.data_dir(), "bvh", "131_02.bvh"))
    action = take.animation_data.action
    action.use_frame_range = True
    action.frame_start, action.frame_end = 1, FRAMES
    scene = bpy.context.scene
    frame_time = armature.frame_time(scene)

    def drop_new(_result):
        new = girl.animation_data.action
        girl.animation_data.action = None
        bpy.data.actions.remove(new)

    rows = []
    print("ikit %s in Blender %s: %d-frame take (CMU 131_02) onto girl.glb, median of %d repeats"
          % (ikit.__version__, bpy.app.version_string, FRAMES, repeats))

    def operator(name, **kwargs):
        result = getattr(bpy.ops.ikit, name)(**kwargs)
        if result != {"FINISHED"}:
            raise RuntimeError(bpy.context.window_manager.ikit_report)
        return result

    whole = timed(lambda: operator("retarget", source=take.name, target=girl.name), repeats, drop_new)
    rows.append(("retarget operator (whole call)", whole))

    source, target = armature.Rig(take, scene), armature.Rig(girl, scene)
    first, last = armature.frame_range(action)
    assert last - first + 1 == FRAMES
    rows.append(("  read the source action", timed(lambda: source.read_action(action, first, last), repeats)))
    poses = source.read_action(action, first, last).astype(ikit.real_dtype)
    body, target_body = source.humanoid(), target.humanoid()
    job = (lambda: ikit.retarget(source.skeleton, poses, frame_time, target.skeleton, source_humanoid=body,
                                 target_humanoid=target_body, metre=1.0 / target.metres_per_unit))
    rows.append(("  ikit.retarget (the C job)", timed(job, repeats)))
    out = job()
    rows.append(("  write the new action", timed(lambda: target.write_action("bench", out, first), repeats,
                                                  lambda a: bpy.data.actions.remove(a))))

    operator("retarget", source=take.name, target=girl.name)
    retargeted = girl.animation_data.action
    for name in ("clean_footskate", "fit_keys"):
        def run(name=name):
            girl.animation_data.action = retargeted
            return operator(name, armature=girl.name)
        rows.append(("%s operator" % name, timed(run, repeats, drop_new)))

    for label, (median, low, high) in rows:
        print("%-34s %8.3f s  (min %.3f, max %.3f)" % (label, median, low, high))
    ok = rows[0][1][0] < 2.0
    print("goal: retargeting %d frames under 2 s in Blender: %s" % (FRAMES, "met" if ok else "NOT met"))
    with open("bench_blender.csv", "w", newline="") as f:
        out_csv = csv.writer(f)
        out_csv.writerow(["step", "frames", "median_s", "min_s", "max_s", "repeats"])
        for label, (median, low, high) in rows:
            out_csv.writerow([label.strip(), FRAMES, "%.4f" % median, "%.4f" % low, "%.4f" % high, repeats])


main()
