"""The add-on's operators in a real headless Blender (issue 28):

    blender -b --factory-startup --python-exit-code 1 --python tests/blender/test_operators.py

The zip from `make blender-addon` (IKIT_BLENDER_ZIP), the shared assets
(IKIT_DATA) and ikc (IKC, for the comparison; without it that part says it
skipped). One Blender run for every check, grouped to keep it short:
  1. retarget: the CMU take 131_01 (Blender's BVH importer) onto girl.glb
     (Blender's glTF importer), exported by Blender's glTF exporter and
     measured by the project's own reader (tests/outside): planted slide and
     sink within 1 mm of `ikc retarget`'s on the same files, limb directions
     within 2 degrees of ikc's;
  2. clean_footskate on that result against `ikc clean` of ikc's, the same way;
  3. fit_keys: Bezier keys that Blender itself evaluates within the error;
  4. feet_to_ground: the character lifted 10 cm stands back on the floor;
  5. walk on flat ground and up stairs: feet on the ground, moving forward;
  6. bad input (a mesh, no action, a non-humanoid armature, an unknown
     name): {'CANCELLED'}, the message, and the scene as it was."""
import math
import os
import subprocess
import sys
import tempfile

import bpy
import numpy as np
from mathutils import Matrix

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blender_util as U  # noqa: E402

U.skip_without_data()
ikit, armature = U.install_addon()
from blender_util import measure, reader  # noqa: E402 (tests/outside)

DATA = U.data_dir()
TAKE = os.path.join(DATA, "bvh", "131_01.bvh")
GIRL = os.path.join(DATA, "gltf", "girl.glb")
OUT = tempfile.mkdtemp(prefix="ikit_blender_")


def compare(name, blender_take, blender_m, ikc_take, ikc_m):
    U.report("blender " + name, blender_m)
    U.report("ikc " + name, ikc_m)
    for key in ("max_slide", "sink"):
        a, b = 1000 * blender_m["skating"][key], 1000 * ikc_m["skating"][key]
        U.check(abs(a - b) <= 1.0, "%s: %s %.2f mm in Blender, %.2f mm by ikc (within 1 mm)" % (name, key, a, b))
    U.check_limbs(name, ikc_take, blender_take)


def run_ikc(*args):
    ikc = os.environ.get("IKC")
    if not ikc or not os.path.isfile(ikc):
        return None
    done = subprocess.run([ikc] + list(args) + ["--quiet"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)
    if done.returncode not in (0, 7):  # 7: written, one of ikc's own checks failed
        print(done.stdout)
        raise RuntimeError("ikc %s failed (%d)" % (args[0], done.returncode))
    return args[-1]


def positions_ws(rig, poses):
    """World positions (frames, joints, 3) of local poses on the rig (ikit FK under the object's matrix)."""
    world = np.array(rig.obj.matrix_world, dtype=np.float64)
    out = np.empty(poses.shape[:2] + (3,))
    for f in range(poses.shape[0]):
        model = rig.skeleton.fk(np.ascontiguousarray(poses[f], dtype=ikit.real_dtype), root=world)
        out[f] = np.asarray(model)[:, :3, 3]
    return out


def op(name, **kwargs):
    result = getattr(bpy.ops.ikit, name)(**kwargs)
    return result, bpy.context.window_manager.ikit_report


# ---------------------------------------------------------------- 1-2. retarget and clean, against ikc

U.empty_scene()
girl = U.import_gltf(GIRL)
take = U.import_bvh(TAKE)
frames = 994
blender_time = armature.frame_time(bpy.context.scene)
result, message = op("retarget", source=take.name, target=girl.name)
print("      " + message)
U.check(result == {"FINISHED"}, "retarget 131_01 onto girl.glb: FINISHED")
retargeted = girl.animation_data.action
first, last = armature.frame_range(retargeted)
U.check((first, last) == (1, frames), "retarget: the take's frame range (%d..%d)" % (first, last))
blender_r = os.path.join(OUT, "blender_retarget.glb")
U.export_gltf(blender_r, girl)

result, message = op("clean_footskate", armature=girl.name)
print("      " + message)
U.check(result == {"FINISHED"} and girl.animation_data.action.name == retargeted.name + "_clean",
        "clean_footskate: FINISHED, a new action <name>_clean")
blender_c = os.path.join(OUT, "blender_clean.glb")
U.export_gltf(blender_c, girl)

# ikc on the same character: girl.glb as Blender holds it, written by Blender's exporter without
# animation. Its rest is the armature's (the glTF importer makes the skin's bind pose the bones'
# rest, where ikc reading girl.glb itself takes the joints' node transforms, a different pose:
# knees and arms bent), so both retarget from one rest.
girl_rest = os.path.join(OUT, "girl_blender_rest.glb")
action_now = girl.animation_data.action
girl.animation_data.action = None
for pb in girl.pose.bones:
    pb.matrix_basis = Matrix()
U.export_gltf(girl_rest, girl, animations=False)
girl.animation_data.action = action_now
ikc_r = run_ikc("retarget", TAKE, girl_rest, "-o", os.path.join(OUT, "ikc_retarget.glb"))
if ikc_r is None:
    print("skipped: the comparison with ikc (IKC not set to a built ikc)")
else:
    # ikc bakes a glTF take at 60 fps unless told its rate: told the take's own (ikc_r has a key on
    # every BVH frame), it cleans the frames Blender's action has, as the add-on does
    bvh_time = reader.Bvh(TAKE).frame_time
    ikc_c = run_ikc("clean", ikc_r, "--clip", "retarget", "--fps", "%.9g" % (1.0 / bvh_time),
                    "-o", os.path.join(OUT, "ikc_clean.glb"))
    b_take, b_m = U.measured(blender_r, 0, blender_time, blender_time, frames, TAKE)
    i_take, i_m = U.measured(ikc_r, "retarget", 0.0, bvh_time, frames, TAKE)
    compare("retarget", b_take, b_m, i_take, i_m)
    b_take, b_m = U.measured(blender_c, 0, blender_time, blender_time, frames, TAKE)
    i_take, i_m = U.measured(ikc_c, "retarget", 0.0, bvh_time, frames, TAKE)
    compare("clean", b_take, b_m, i_take, i_m)

# The same take imported with other axes (the importer's axis_forward / axis_up: the figure lies along
# Blender's Y): the rig finds its own up, so the girl's action is the same.
turned = U.import_bvh(TAKE, axis_forward="Y", axis_up="Z")
kept = girl.animation_data.action
result, message = op("retarget", source=turned.name, target=girl.name)
rig = armature.Rig(girl, bpy.context.scene)
gap = np.linalg.norm(positions_ws(rig, rig.read_action(girl.animation_data.action, 1, 200)) -
                     positions_ws(rig, rig.read_action(retargeted, 1, 200)), axis=-1).max()
U.check(result == {"FINISHED"} and gap < 1e-3,
        "retarget from the take imported with axis_up='Z' (lying along Y): the same action (joints within %.3f mm)"
        % (1000 * gap))
girl.animation_data.action = kept

# Bone roll: a copy of the girl whose every bone is rolled 30 degrees in edit mode (its bones' local
# frames turned, their heads where they were) plays the take with its joints where the girl's are.
rolled = girl.copy()
rolled.data = girl.data.copy()
rolled.animation_data_clear()
rolled.name = "Rolled"
bpy.context.scene.collection.objects.link(rolled)
bpy.ops.object.select_all(action="DESELECT")
bpy.context.view_layer.objects.active = rolled
bpy.ops.object.mode_set(mode="EDIT")
for bone in rolled.data.edit_bones:
    bone.roll += math.radians(30)
bpy.ops.object.mode_set(mode="OBJECT")
result, message = op("retarget", source=take.name, target=rolled.name)
rolled_rig, rig = armature.Rig(rolled, bpy.context.scene), armature.Rig(girl, bpy.context.scene)
turned_frames = np.abs(rolled_rig.rest_q - rig.rest_q).max()
gap = np.linalg.norm(positions_ws(rolled_rig, rolled_rig.read_action(rolled.animation_data.action, 1, 200)) -
                     positions_ws(rig, rig.read_action(retargeted, 1, 200)), axis=-1).max()
U.check(result == {"FINISHED"} and turned_frames > 0.1 and gap < 1e-3,
        "retarget onto the girl with every bone rolled 30 deg: joints where the girl's are (within %.3f mm)"
        % (1000 * gap))
bpy.data.objects.remove(rolled)

# ---------------------------------------------------------------- 3. fit_keys: Blender's own Bezier evaluation

rig = armature.Rig(girl, bpy.context.scene)
dense_action = girl.animation_data.action
dense = rig.read_action(dense_action, first, last)
error = 0.001
result, message = op("fit_keys", armature=girl.name, error=error)
print("      " + message)
fitted_action = girl.animation_data.action
U.check(result == {"FINISHED"} and fitted_action.name == dense_action.name + "_fit", "fit_keys: FINISHED, <name>_fit")
keys = sum(len(fc.keyframe_points) for fc in fitted_action.fcurves)
dense_keys = sum(len(fc.keyframe_points) for fc in dense_action.fcurves)
beziers = all(k.interpolation == "BEZIER" for fc in fitted_action.fcurves for k in fc.keyframe_points
              if len(fc.keyframe_points) > 1)
U.check(beziers and keys < dense_keys / 4, "fit_keys: Bezier keys, %d for the take's %d" % (keys, dense_keys))
# The fitted curves as Blender evaluates them (fcurve.evaluate, Bezier handles and all) against the dense take.
rig = armature.Rig(girl, bpy.context.scene)
fitted = rig.read_action(fitted_action, first, last)
skin = [rig.names.index(n) for n in rig.names if not n.startswith("IK")]
gap = np.linalg.norm(positions_ws(rig, fitted) - positions_ws(rig, dense), axis=-1)[:, skin].max()
U.check(gap <= error * 1.01, "fit_keys: every joint within %.1f mm of the dense take (largest %.3f mm)"
        % (1000 * error, 1000 * gap))

# ---------------------------------------------------------------- 4. feet_to_ground
# The idle take stood on the floor (world z = 0) as it is, then with the character lifted
# 10 cm first: the feet land on the same spots of the floor (the pelvis comes down).

U.empty_scene()
girl = U.import_gltf(GIRL)
idle = bpy.data.actions.get("IdleTrack_Armature") or girl.animation_data.action
feet_heights = []
standing = girl.location.z  # the importer puts the skeleton's root (the hips, 62 cm up) in the object
for lift in (0.0, 0.1):
    girl.animation_data.action = idle
    girl.location.z = standing + lift
    bpy.context.view_layer.update()
    rig = armature.Rig(girl, bpy.context.scene)
    first, last = armature.frame_range(idle)
    feet = [rig.names.index("Foot.L"), rig.names.index("Foot.R")]
    if lift == 0.0:
        before = positions_ws(rig, rig.read_action(idle, first, last))[:, feet]
    result, message = op("feet_to_ground", armature=girl.name)
    print("      " + message)
    U.check(result == {"FINISHED"} and girl.animation_data.action.name.startswith(idle.name + "_ground"),
            "feet_to_ground (character %.0f cm up): FINISHED, a new action <name>_ground" % (100 * lift))
    feet_heights.append(positions_ws(rig, rig.read_action(girl.animation_data.action, first, last))[:, feet])
moved = float(np.abs(feet_heights[0][..., 2].min(axis=1) - before[..., 2].min(axis=1)).max())
same = float(np.linalg.norm(feet_heights[1] - feet_heights[0], axis=-1).max())
U.check(moved < 0.03, "feet_to_ground: on the floor it stands on, the lower ankle moves %.1f mm (soles turned flat)"
        % (1000 * moved))
U.check(same < 0.002, "feet_to_ground: lifted 10 cm, both ankles back where they stand unlifted (within %.2f mm)"
        % (1000 * same))

# ---------------------------------------------------------------- 5. walk

for steps, slope in ((0, 0.0), (6, 0.0), (0, 8.0)):
    girl.location.z = standing
    girl.animation_data.action = None
    bpy.context.view_layer.update()
    rig = armature.Rig(girl, bpy.context.scene)
    rest_ankle = positions_ws(rig, rig.skeleton.rest.astype(np.float64)[None])[0, feet, 2].min()
    result, message = op("walk", armature=girl.name, seconds=4.0, steps=steps, slope=slope, rise=0.12,
                         run_length=0.3)
    print("      " + message)
    action = girl.animation_data.action
    first, last = armature.frame_range(action)
    world = positions_ws(rig, rig.read_action(action, first, last))
    hips = world[:, rig.names.index("Root")]
    lower = world[:, feet, 2].min(axis=1)
    travel = float(np.linalg.norm(hips[-1, :2] - hips[0, :2]))
    climbed = float(lower[-1] - lower[0])
    if steps:
        U.check(result == {"FINISHED"} and abs(climbed - steps * 0.12) < 0.05,
                "walk (stairs, %d steps of 12 cm): climbed %.3f m, %.2f m forward" % (steps, climbed, travel))
    elif slope:
        # the ground rises from the rest floor under the hips: by the end, by the travel's tangent
        expected = travel * math.tan(math.radians(slope))
        U.check(result == {"FINISHED"} and abs(climbed - expected) < 0.05,
                "walk (an %.0f deg slope): climbed %.3f m over %.2f m (tan: %.3f)" % (slope, climbed, travel, expected))
    else:
        worst = float(np.abs(lower - rest_ankle).max())
        U.check(result == {"FINISHED"} and travel > 1.0 and worst < 0.02,
                "walk (flat): %.2f m forward, the lower ankle within %.1f mm of its rest height" % (travel, 1000 * worst))

# ---------------------------------------------------------------- 6. bad input: CANCELLED, a message, nothing changed

U.empty_scene()
girl = U.import_gltf(GIRL)
take = U.import_bvh(TAKE)
mesh = [o for o in bpy.data.objects if o.type == "MESH"][0]
bpy.ops.object.armature_add()
stick = bpy.context.active_object
stick.name = "Stick"
still = girl.copy()
still.data = girl.data
still.animation_data_clear()
still.name = "Still"
bpy.context.scene.collection.objects.link(still)
cases = [
    ("retarget", dict(source=take.name, target=mesh.name), "mesh, not an armature"),
    ("retarget", dict(source=mesh.name, target=girl.name), "mesh, not an armature"),
    ("retarget", dict(source=take.name, target=stick.name), "not a humanoid"),
    ("retarget", dict(source=still.name, target=girl.name), "no active action"),
    ("retarget", dict(source="Nobody", target=girl.name), "no object named"),
    ("clean_footskate", dict(armature=mesh.name), "mesh, not an armature"),
    ("clean_footskate", dict(armature=still.name), "no active action"),
    ("fit_keys", dict(armature=still.name), "no active action"),
    ("fit_keys", dict(armature=girl.name, action="Nothing"), "no action named"),
    ("feet_to_ground", dict(armature=stick.name, action=girl.animation_data.action.name), "not a humanoid"),
    ("walk", dict(armature=stick.name), "not a humanoid"),
    ("walk", dict(armature=mesh.name), "mesh, not an armature"),
    ("walk", dict(armature=girl.name, steps=3, slope=10.0), "slope or on stairs"),
]
# the panel's way: no names, the scene's source and target
bpy.context.scene.ikit_source, bpy.context.scene.ikit_target = take, girl
result, message = op("retarget")
U.check(result == {"FINISHED"} and girl.animation_data.action.name.startswith(take.animation_data.action.name),
        "retarget() with the panel's source and target: FINISHED: %s" % message)
bpy.context.view_layer.objects.active = mesh
cases.append(("clean_footskate", {}, "mesh, not an armature"))
for name, kwargs, says in cases:
    state = U.scene_state()
    try:
        result, message = op(name, **kwargs)
    except Exception as e:  # what a script must never see
        result, message = {"RAISED"}, "%s: %s" % (type(e).__name__, e)
    U.check(result == {"CANCELLED"} and says in message and U.scene_state() == state,
            "%s(%s): CANCELLED, scene unchanged: %s" % (name, ", ".join("%s=%r" % kv for kv in kwargs.items()),
                                                        message))
U.finish(OUT)
