"""The add-on's operators: each reads the armature and its action
(armature.py), calls one function of the ikit package, and writes a new
action. Nothing is created or changed before the library has answered,
so a refusal leaves the scene as it was.

How a caller sees the outcome: {'FINISHED'} or {'CANCELLED'}, and the
message in the window manager's `ikit_report` (also shown in the panel and
reported to Blender: INFO on success, WARNING on a refusal). WARNING, not
ERROR, because an operator that reports an ERROR raises RuntimeError in a
script instead of returning {'CANCELLED'}."""
import os
import sys
import time
import traceback

import bpy
from bpy.props import BoolProperty, FloatProperty, IntProperty, StringProperty

from . import loader


def _report(operator, context, ok, message):
    context.window_manager.ikit_report = message
    operator.report({"INFO"} if ok else {"WARNING"}, message)
    return {"FINISHED"} if ok else {"CANCELLED"}


class _IkitOperator:
    bl_options = {"REGISTER", "UNDO"}

    def execute(self, context):
        try:
            ikit, armature = loader.modules()
        except ImportError as e:
            return _report(self, context, False, "ikit: the Python package could not be loaded: %s" % e)
        started = time.perf_counter()
        try:
            message = self.run(context, ikit, armature)
        except armature.Refusal as e:
            return _report(self, context, False, "ikit: %s" % e)
        except ikit.IkitError as e:
            return _report(self, context, False, "ikit: %s" % " ".join(str(e).split()))
        except Exception as e:  # a bug of the add-on: said in one line (the traceback with IKIT_BLENDER_DEBUG=1)
            if os.environ.get("IKIT_BLENDER_DEBUG"):
                traceback.print_exc(file=sys.stderr)
            return _report(self, context, False, "ikit: internal error (%s: %s)" % (type(e).__name__, e))
        return _report(self, context, True, "ikit: %s (%.2f s)" % (message, time.perf_counter() - started))


def _take(context, armature, obj, action_name):
    """The armature's rig, its action, the action's frames and their poses."""
    rig = armature.Rig(obj, context.scene)
    action = armature.active_action(obj, action_name)
    first, last = armature.frame_range(action)
    poses = rig.read_action(action, first, last)
    return rig, action, first, poses


def _picked(context, prop):
    """The panel's choice (a scene property), or "" (then the active object)."""
    obj = getattr(context.scene, prop, None)
    return obj.name if obj is not None else ""


def _assign(obj, action):
    if obj.animation_data is None:
        obj.animation_data_create()
    obj.animation_data.action = action


class IKIT_OT_retarget(_IkitOperator, bpy.types.Operator):
    """Play the source armature's action on the target armature (ikit retarget): a new action on the target,
    same frames, feet planted on the source's contacts"""

    bl_idname = "ikit.retarget"
    bl_label = "Retarget"
    source: StringProperty(name="Source", description="Armature object whose action is played (the take)")
    target: StringProperty(name="Target", description="Armature object that plays it (the character)")
    action: StringProperty(name="Action", description="The source's action (default: its active action)")
    hold_feet: BoolProperty(name="Hold feet", default=True,
                            description="Hold the source's foot contacts on the target's legs (IK)")

    def run(self, context, ikit, armature):
        source = armature.armature_object(context, self.source or _picked(context, "ikit_source"), "source")
        target = armature.armature_object(context, self.target or _picked(context, "ikit_target"), "target")
        if source == target:
            raise armature.Refusal("source and target are the same armature %r" % source.name)
        rig, action, first, poses = _take(context, armature, source, self.action)
        target_rig = armature.Rig(target, context.scene)
        source_body, target_body = rig.humanoid(), target_rig.humanoid()
        out = ikit.retarget(rig.skeleton, poses.astype(ikit.real_dtype), armature.frame_time(context.scene),
                            target_rig.skeleton, source_humanoid=source_body, target_humanoid=target_body,
                            hold_feet=self.hold_feet, metre=1.0 / target_rig.metres_per_unit)
        name = "%s_on_%s" % (action.name, target.name)
        new = target_rig.write_action(name, out, first)
        _assign(target, new)
        return "retargeted %r (%d frames) onto %r as action %r" % (action.name, len(out), target.name, new.name)


class IKIT_OT_clean_footskate(_IkitOperator, bpy.types.Operator):
    """Hold the armature's planted feet where they stand, whole stances as `ikc clean` does
    (ikit stance_clean): a new action <name>_clean"""

    bl_idname = "ikit.clean_footskate"
    bl_label = "Clean footskate"
    armature: StringProperty(name="Armature", description="Armature object (default: the active object)")
    action: StringProperty(name="Action", description="Its action (default: the active action)")

    def run(self, context, ikit, armature):
        obj = armature.armature_object(context, self.armature)
        rig, action, first, poses = _take(context, armature, obj, self.action)
        out = ikit.stance_clean(rig.skeleton, poses.astype(ikit.real_dtype), armature.frame_time(context.scene),
                                humanoid=rig.humanoid(), metre=1.0 / rig.metres_per_unit)
        new = rig.write_action(action.name + "_clean", out, first)
        _assign(obj, new)
        return "cleaned %r into %r" % (action.name, new.name)


class IKIT_OT_fit_keys(_IkitOperator, bpy.types.Operator):
    """Replace the action's dense keys by few Bezier keys within an error (ikit fit): a new action <name>_fit"""

    bl_idname = "ikit.fit_keys"
    bl_label = "Fit keys"
    armature: StringProperty(name="Armature", description="Armature object (default: the active object)")
    action: StringProperty(name="Action", description="Its action (default: the active action)")
    error: FloatProperty(name="Error", default=0.001, min=1e-6, soft_max=0.05, unit="LENGTH",
                         description="Largest distance (metres) of any joint, and points 5 cm along its axes, "
                                     "from the dense take")

    def run(self, context, ikit, armature):
        obj = armature.armature_object(context, self.armature)
        rig, action, first, poses = _take(context, armature, obj, self.action)
        unit = rig.metres_per_unit
        fitted = ikit.fit(rig.skeleton, poses.astype(ikit.real_dtype), armature.frame_time(context.scene),
                          self.error / unit, point_offset=0.05 / unit)
        new = rig.write_fitted(action.name + "_fit", fitted, first, armature.frame_time(context.scene))
        for pb in rig.pose_bones:  # the fitted curves are quaternions
            pb.rotation_mode = "QUATERNION"
        _assign(obj, new)
        stats = fitted.stats
        return "fitted %r: %d keys for %d frames, largest error %.3g mm" % (
            action.name, stats["key_count"], stats["frame_count"], 1000 * stats["max_error"] * unit)


class IKIT_OT_feet_to_ground(_IkitOperator, bpy.types.Operator):
    """Stand the armature's feet on the scene's floor (world z = 0) at every frame of its action
    (ikit humanoid solve with a ground): a new action <name>_ground"""

    bl_idname = "ikit.feet_to_ground"
    bl_label = "Feet to ground"
    armature: StringProperty(name="Armature", description="Armature object (default: the active object)")
    action: StringProperty(name="Action", description="Its action (default: the active action)")

    def run(self, context, ikit, armature):
        obj = armature.armature_object(context, self.armature)
        rig, action, first, poses = _take(context, armature, obj, self.action)
        body = rig.humanoid()
        point, normal = armature.world_floor(obj)
        ground = ikit.Ground.plane(point, normal)
        out = poses.astype(ikit.real_dtype)
        for f in range(out.shape[0]):
            body.solve(out[f], ground=ground)
        new = rig.write_action(action.name + "_ground", out, first)
        _assign(obj, new)
        return "stood %r on the floor: action %r" % (action.name, new.name)


class IKIT_OT_walk(_IkitOperator, bpy.types.Operator):
    """A procedural walk for the armature (ikit walk) on flat ground, a slope or stairs: a new action"""

    bl_idname = "ikit.walk"
    bl_label = "Walk"
    armature: StringProperty(name="Armature", description="Armature object (default: the active object)")
    seconds: FloatProperty(name="Seconds", default=4.0, min=0.1, soft_max=60.0)
    speed: FloatProperty(name="Speed", default=0.0, min=0.0, soft_max=3.0,
                         description="Metres per second (0: the walk's default from the leg length)")
    slope: FloatProperty(name="Slope", default=0.0, min=-60.0, max=60.0, description="Degrees (0: flat)")
    steps: IntProperty(name="Stairs", default=0, min=0, soft_max=30, description="Number of steps (0: no stairs)")
    rise: FloatProperty(name="Rise", default=0.15, min=0.0, unit="LENGTH", description="Step height (metres)")
    run_length: FloatProperty(name="Run", default=0.3, min=0.01, unit="LENGTH", description="Tread depth (metres)")
    name: StringProperty(name="Action name", default="walk")

    def run(self, context, ikit, armature):
        obj = armature.armature_object(context, self.armature)
        rig = armature.Rig(obj, context.scene)
        body = rig.humanoid()
        unit = rig.metres_per_unit
        ground = None
        if self.steps > 0 and self.slope != 0:
            raise armature.Refusal("a walk is on a slope or on stairs, not both")
        if self.steps > 0:
            ground = ikit.Ground.stairs((0, 0, 0.6 / unit), (0, 0, 1), self.rise / unit, self.run_length / unit,
                                       self.steps)
        elif self.slope != 0:
            ground = ikit.Ground.slope(self.slope)
        options = {"speed": self.speed / unit} if self.speed > 0 else {}
        fps = 1.0 / armature.frame_time(context.scene)
        poses, found = ikit.walk(body, self.seconds, fps, ground=ground, report=True, **options)
        new = rig.write_action(self.name or "walk", poses, context.scene.frame_start)
        _assign(obj, new)
        return "walked %.2f m in %d steps: action %r" % (found["distance"] * unit, found["steps"], new.name)


CLASSES = (IKIT_OT_retarget, IKIT_OT_clean_footskate, IKIT_OT_fit_keys, IKIT_OT_feet_to_ground, IKIT_OT_walk)
