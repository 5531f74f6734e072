"""Blender armatures and actions as ikit skeletons and takes, and back.

Only conventions live here, no solving: the C library (through the ikit
Python package) does that.

Blender's side, as this file reads and writes it:
  - A bone's rest is its `matrix_local` (armature space, the bone's Y axis
    along the bone, its roll about Y), an edit-bone matrix that pose bones
    never change. An ikit joint is a bone's head; its local rest is
    parent.matrix_local^-1 @ bone.matrix_local (a root bone's is its own).
  - A pose bone's channels (location, rotation, scale: its `matrix_basis`)
    are relative to that rest: local = rest_local @ basis, which is how
    Blender builds pose_bone.matrix for bones that inherit rotation and
    scale (the default, and what the glTF, BVH and FBX importers make).
  - Model space is the armature's own space (under its object transform):
    ik_retarget and the other jobs work in each skeleton's root space, so
    a Z-up scene, an FBX armature at 0.01 scale or a rotated object change
    nothing but the units, which the operators pass in metres
    (`metres_per_unit`: the object's scale times the scene's unit scale).
  - An action's F-curves are read directly (no frame_set per frame, no NLA
    evaluation); channels an action does not key keep the pose bone's
    current value, as Blender's own evaluation does.

Quaternions in ikit's poses are x, y, z, w; Blender's rotation_quaternion is
w, x, y, z."""
import numpy as np
from mathutils import Quaternion, Vector

import ikit


class Refusal(Exception):
    """Input the operators refuse, with a message for the user."""


# ---------------------------------------------------------------- quaternions (x, y, z, w), numpy


def qmul(a, b):
    """Hamilton product a b of (..., 4) arrays, x y z w."""
    ax, ay, az, aw = np.moveaxis(a, -1, 0)
    bx, by, bz, bw = np.moveaxis(b, -1, 0)
    return np.stack([aw * bx + ax * bw + ay * bz - az * by,
                     aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw,
                     aw * bw - ax * bx - ay * by - az * bz], axis=-1)


def qconj(q):
    return q * np.array([-1.0, -1.0, -1.0, 1.0])


def qrot(q, v):
    """v turned by unit q: v + 2 w (u x v) + 2 u x (u x v), u = q.xyz."""
    u, w = q[..., :3], q[..., 3:4]
    c = np.cross(u, v)
    return v + 2.0 * w * c + 2.0 * np.cross(u, c)


def continuous(q):
    """Flip signs along axis 0 so each quaternion is in the hemisphere of the one before."""
    q = q.copy()
    for f in range(1, q.shape[0]):
        flip = np.sum(q[f] * q[f - 1], axis=-1) < 0
        q[f][flip] *= -1
    return q


def _axis_quat(axis, angle):
    q = np.zeros(angle.shape + (4,))
    q[..., "XYZ".index(axis)] = np.sin(0.5 * angle)
    q[..., 3] = np.cos(0.5 * angle)
    return q


def euler_to_quat(angles, order):
    """Blender's Euler (radians, (..., 3) in X, Y, Z) of rotation order
    `order` ('XYZ': X applied first, so R = Rz Ry Rx) as quaternions."""
    q = None
    for axis in order:  # the first axis is applied first: it multiplies rightmost
        step = _axis_quat(axis, angles[..., "XYZ".index(axis)])
        q = step if q is None else qmul(step, q)
    return q


# ---------------------------------------------------------------- objects


def armature_object(context, name, what="armature"):
    """The armature object named `name` (the active object when empty)."""
    import bpy

    if name:
        obj = bpy.data.objects.get(name)
        if obj is None:
            raise Refusal("no object named %r" % name)
    else:
        obj = context.active_object
        if obj is None:
            raise Refusal("no %s given and no active object" % what)
    if obj.type != "ARMATURE":
        raise Refusal("%s %r is a %s, not an armature (select the armature, not its mesh)"
                      % (what, obj.name, obj.type.lower()))
    return obj


def active_action(obj, name=""):
    """The action to read: `name` when given, else the object's active
    action. NLA tracks are not mixed: Blender's importers put each clip in
    an action, and one of them is the take."""
    import bpy

    if name:
        action = bpy.data.actions.get(name)
        if action is None:
            raise Refusal("no action named %r" % name)
        return action
    data = obj.animation_data
    if data is None or data.action is None:
        tracks = [t.name for t in data.nla_tracks] if data is not None else []
        hint = (" (its NLA tracks: %s; make one the active action, or pass action=)" % ", ".join(tracks[:6])
                if tracks else "")
        raise Refusal("armature %r has no active action%s" % (obj.name, hint))
    return data.action


def frame_range(action):
    """The whole frames inside the action's range, first and last inclusive
    (a hundredth of a frame of slack: the FBX importer keys a 120 fps take
    at frames like 1.99999)."""
    start, end = action.frame_range
    first, last = int(np.ceil(start - 0.01)), int(np.floor(end + 0.01))
    if last <= first:
        raise Refusal("action %r has fewer than 2 frames (%g to %g)" % (action.name, start, end))
    return first, last


def frame_time(scene):
    fps = scene.render.fps / scene.render.fps_base
    return 1.0 / fps


# ---------------------------------------------------------------- the skeleton


class Rig:
    """An armature object as an ikit Skeleton: bones parents-first, each
    bone's head a joint, its rest in its parent's frame."""

    def __init__(self, obj, scene):
        self.obj = obj
        order = []

        def visit(bone):
            order.append(bone)
            for child in bone.children:
                visit(child)

        for bone in obj.data.bones:
            if bone.parent is None:
                visit(bone)
        if not order:
            raise Refusal("armature %r has no bones" % obj.name)
        self.bones = order
        self.names = [b.name for b in order]
        self.pose_bones = [obj.pose.bones[b.name] for b in order]
        index = {name: i for i, name in enumerate(self.names)}
        self.parents = np.array([index[b.parent.name] if b.parent else -1 for b in order], dtype=np.intc)
        rest = np.zeros((len(order), 10))
        for i, bone in enumerate(order):
            m = bone.matrix_local if bone.parent is None else bone.parent.matrix_local.inverted_safe() @ bone.matrix_local
            t, q, s = m.decompose()
            rest[i] = (t.x, t.y, t.z, q.x, q.y, q.z, q.w, s.x, s.y, s.z)
        self.rest_t, self.rest_q = rest[:, 0:3], rest[:, 3:7]
        self.skeleton = ikit.Skeleton.from_arrays(self.parents, rest, self.names)
        scale = obj.matrix_world.to_scale()
        self.metres_per_unit = float(abs(scale.x * scale.y * scale.z) ** (1.0 / 3.0)) * scene.unit_settings.scale_length
        if not self.metres_per_unit > 0:
            raise Refusal("armature %r has a zero scale" % obj.name)

    @property
    def joint_count(self):
        return len(self.names)

    def humanoid(self):
        """The library's humanoid map (by joint names)."""
        try:
            return ikit.Humanoid(self.skeleton)
        except ikit.IkitError as e:
            missing = [line.strip() for line in str(e).splitlines()
                       if "missing" in line.lower() and "optional" not in line.lower()]
            detail = "; ".join(missing[:6]) if missing else str(e).splitlines()[0]
            raise Refusal("armature %r is not a humanoid ikit can map: %s" % (self.obj.name, detail)) from None

    # ---- poses from channels, channels from poses -----------------------------------

    def locals_from_basis(self, loc, rot, scale):
        """ikit local poses (frames, joints, 10) from pose-bone channels:
        local = rest_local @ basis (t = t_r + q_r t_b, q = q_r q_b, s = s_b;
        a bone's rest has no scale)."""
        poses = np.zeros(loc.shape[:2] + (10,))
        poses[..., 0:3] = self.rest_t + qrot(self.rest_q, loc)
        q = qmul(self.rest_q, rot)
        poses[..., 3:7] = q / np.linalg.norm(q, axis=-1, keepdims=True)
        poses[..., 7:10] = scale
        return poses

    def basis_from_locals(self, poses):
        """Pose-bone channels (loc, rot xyzw continuous in time, scale) from ikit local poses."""
        inverse = qconj(self.rest_q)
        loc = qrot(inverse, poses[..., 0:3] - self.rest_t)
        rot = qmul(inverse, poses[..., 3:7])
        return loc, continuous(rot), poses[..., 7:10].copy()

    def read_action(self, action, first, last):
        """The take of `action` over frames first..last: (frames, joints, 10)."""
        frames = np.arange(first, last + 1, dtype=np.float64)
        count, joints = len(frames), self.joint_count
        curves = {}
        for fc in action.fcurves:
            curves[(fc.data_path, fc.array_index)] = fc
        loc = np.zeros((count, joints, 3))
        rot = np.zeros((count, joints, 4))
        scale = np.ones((count, joints, 3))
        for j, pb in enumerate(self.pose_bones):
            path = 'pose.bones["%s"].' % _escape(pb.name)

            def channel(prop, width, current):
                out = np.empty((count, width))
                for k in range(width):
                    fc = curves.get((path + prop, k))
                    out[:, k] = current[k] if fc is None or fc.mute else _evaluate(fc, frames)
                return out

            loc[:, j] = channel("location", 3, pb.location)
            scale[:, j] = channel("scale", 3, pb.scale)
            mode = pb.rotation_mode
            if mode == "QUATERNION":
                wxyz = channel("rotation_quaternion", 4, pb.rotation_quaternion)
                q = wxyz[:, [1, 2, 3, 0]]
            elif mode == "AXIS_ANGLE":
                angle_axis = channel("rotation_axis_angle", 4, pb.rotation_axis_angle)
                axis = angle_axis[:, 1:4] / np.maximum(np.linalg.norm(angle_axis[:, 1:4], axis=1, keepdims=True), 1e-12)
                half = 0.5 * angle_axis[:, 0:1]
                q = np.concatenate([axis * np.sin(half), np.cos(half)], axis=1)
            else:
                q = euler_to_quat(channel("rotation_euler", 3, pb.rotation_euler), mode)
            norm = np.linalg.norm(q, axis=1, keepdims=True)
            if not np.all(norm > 1e-9):
                raise Refusal("bone %r has a zero rotation quaternion in action %r" % (pb.name, action.name))
            rot[:, j] = q / norm
        poses = self.locals_from_basis(loc, rot, scale)
        if not np.isfinite(poses).all():
            raise Refusal("action %r has non-finite values" % action.name)
        return poses

    def write_action(self, name, poses, first, rotation="bone"):
        """A new action `name` keying every bone at every frame from
        `first` (LINEAR keys), from local poses (frames, joints, 10).
        rotation="bone": each bone's own rotation mode (Euler kept
        continuous), "QUATERNION": quaternions for every bone."""
        import bpy

        loc, rot, scale = self.basis_from_locals(np.asarray(poses, dtype=np.float64))
        frames = np.arange(first, first + poses.shape[0], dtype=np.float64)
        action = bpy.data.actions.new(name)
        try:
            for j, pb in enumerate(self.pose_bones):
                path = 'pose.bones["%s"].' % _escape(pb.name)
                group = pb.name
                mode = "QUATERNION" if rotation == "QUATERNION" else pb.rotation_mode
                _add_curves(action, path + "location", frames, loc[:, j], group)
                if mode == "QUATERNION":
                    _add_curves(action, path + "rotation_quaternion", frames, rot[:, j][:, [3, 0, 1, 2]], group)
                elif mode == "AXIS_ANGLE":
                    raise Refusal("bone %r uses axis-angle rotation: set it to quaternion or Euler" % pb.name)
                else:
                    _add_curves(action, path + "rotation_euler", frames, _eulers(rot[:, j], mode), group)
                _add_curves(action, path + "scale", frames, scale[:, j], group)
        except BaseException:
            bpy.data.actions.remove(action)
            raise
        return action

    def write_fitted(self, name, fitted, first, frame_time):
        """A new action `name` from an ikit.FittedClip (cubic Hermite
        channels in ikit's local space) as Bezier F-curves in the bones'
        channels, exactly: basis = rest_local^-1 @ local is affine in a
        translation and linear in a quaternion (left product by q_r^-1), so
        values and tangents map the same way. A Hermite segment p0, m0 ->
        p1, m1 over dt seconds is the Bezier p0, p0 + m0 dt/3, p1 - m1 dt/3,
        p1 with handles a third of the way in time (which makes Blender's
        x(u) linear). Every bone's rotation is written as a quaternion."""
        import bpy

        action = bpy.data.actions.new(name)
        inverse = qconj(self.rest_q)
        done = set()
        try:
            for channel in fitted.channels:
                j = channel.joint
                pb = self.pose_bones[j]
                path = 'pose.bones["%s"].' % _escape(pb.name)
                times = np.asarray(channel.times, dtype=np.float64)
                values = np.asarray(channel.values, dtype=np.float64)
                if channel.interpolation == "cubicspline":
                    tin, val, tout = values[:, 0], values[:, 1], values[:, 2]
                else:
                    tin = tout = None
                    val = values
                if channel.path == "translation":
                    val = qrot(inverse[j], val - self.rest_t[j])
                    tin, tout = (None if x is None else qrot(inverse[j], x) for x in (tin, tout))
                    prop, order = "location", [0, 1, 2]
                elif channel.path == "rotation":
                    val = qmul(inverse[j], val)  # as the fit has them: a sign flipped alone would bend the curve
                    tin, tout = (None if x is None else qmul(inverse[j], x) for x in (tin, tout))
                    prop, order = "rotation_quaternion", [3, 0, 1, 2]
                else:
                    prop, order = "scale", [0, 1, 2]
                frames = first + times / frame_time
                _add_bezier(action, path + prop, frames, times, frame_time, val[:, order],
                            None if tin is None else tin[:, order], None if tout is None else tout[:, order],
                            pb.name, channel.interpolation)
                done.add((j, channel.path))
            # channels the fit left at rest: one key at the identity basis
            for j, pb in enumerate(self.pose_bones):
                path = 'pose.bones["%s"].' % _escape(pb.name)
                for kind, prop, value in (("translation", "location", (0, 0, 0)),
                                          ("rotation", "rotation_quaternion", (1, 0, 0, 0)),
                                          ("scale", "scale", (1, 1, 1))):
                    if (j, kind) not in done:
                        _add_curves(action, path + prop, np.array([float(first)]), np.array([value], dtype=float),
                                    pb.name)
        except BaseException:
            bpy.data.actions.remove(action)
            raise
        return action


def _escape(name):
    return name.replace("\\", "\\\\").replace('"', '\\"')


def _evaluate(fc, frames):
    """An F-curve at whole frames: the keys themselves where the curve has
    one key on each of those frames (an importer's baked take), else
    fcurve.evaluate per frame."""
    points = fc.keyframe_points
    n = len(points)
    if n == len(frames):
        co = np.empty(2 * n)
        points.foreach_get("co", co)
        if np.allclose(co[0::2], frames, atol=1e-4):
            return co[1::2]
    return np.array([fc.evaluate(f) for f in frames])


def _eulers(q_xyzw, order):
    """Quaternions (frames, 4) as Blender Eulers of `order`, each frame's
    the one nearest the frame before (Quaternion.to_euler's compatible)."""
    out = np.empty((q_xyzw.shape[0], 3))
    previous = None
    for f, (x, y, z, w) in enumerate(q_xyzw):
        e = Quaternion((w, x, y, z)).to_euler(order) if previous is None else \
            Quaternion((w, x, y, z)).to_euler(order, previous)
        out[f] = e
        previous = e
    return out


_LINEAR, _BEZIER = 1, 2  # Blender's keyframe interpolation enum values (CONSTANT 0, LINEAR 1, BEZIER 2)


def _add_curves(action, data_path, frames, values, group):
    """One F-curve per column of `values` (frames, width), LINEAR keys."""
    values = np.asarray(values, dtype=np.float64).reshape(len(frames), -1)
    n = len(frames)
    for k in range(values.shape[1]):
        fc = action.fcurves.new(data_path, index=k, action_group=group)
        fc.keyframe_points.add(n)
        co = np.empty(2 * n)
        co[0::2], co[1::2] = frames, values[:, k]
        fc.keyframe_points.foreach_set("co", co)
        fc.keyframe_points.foreach_set("interpolation", np.full(n, _LINEAR, dtype=np.int32))
        fc.update()


def _add_bezier(action, data_path, frames, times, frame_time, values, tin, tout, group, interpolation):
    n = len(frames)
    kind = {"linear": _LINEAR, "step": 0, "cubicspline": _BEZIER}[interpolation]
    dt_next = np.empty(n)
    dt_prev = np.empty(n)
    if n > 1:
        gaps = np.diff(times)
        dt_next[:-1], dt_next[-1] = gaps, gaps[-1]
        dt_prev[1:], dt_prev[0] = gaps, gaps[0]
    else:
        dt_next[:] = dt_prev[:] = 1.0
    for k in range(values.shape[1]):
        fc = action.fcurves.new(data_path, index=k, action_group=group)
        points = fc.keyframe_points
        points.add(n)
        co = np.empty(2 * n)
        co[0::2], co[1::2] = frames, values[:, k]
        points.foreach_set("co", co)
        if tin is not None:
            left, right = np.empty(2 * n), np.empty(2 * n)
            left[0::2] = frames - dt_prev / 3 / frame_time
            left[1::2] = values[:, k] - tin[:, k] * dt_prev / 3
            right[0::2] = frames + dt_next / 3 / frame_time
            right[1::2] = values[:, k] + tout[:, k] * dt_next / 3
            # key by key: foreach_set ignores the handle types (a char each in Blender's BezTriple)
            for point in points:
                point.handle_left_type = point.handle_right_type = "FREE"
            points.foreach_set("handle_left", left)
            points.foreach_set("handle_right", right)
        points.foreach_set("interpolation", np.full(n, kind, dtype=np.int32))
        fc.update()


def world_floor(obj):
    """The scene's floor (world z = 0, +Z up) in the armature's space:
    (point, normal); a plane's normal maps to the armature by M^T (M the
    object's world matrix's 3x3)."""
    point = obj.matrix_world.inverted_safe() @ Vector((0.0, 0.0, 0.0))
    normal = np.array(obj.matrix_world.to_3x3().transposed() @ Vector((0.0, 0.0, 1.0)), dtype=np.float64)
    return np.array(point, dtype=np.float64), normal / np.linalg.norm(normal)
