"""URDF robots (urdf.h, robot.h): a chain between two links as a skeleton
(UrdfChain), or as a robot arm of 1-DOF joints (Robot) with its forward
kinematics, over many configurations in one call, its geometric Jacobian,
and straight-line tool paths (robot_path.h)."""
import os

import numpy as np

from . import arrays
from ._ikit import ffi, lib
from .errors import check, check_io, check_job
from .skeleton import Skeleton


def read_urdf(path):
    """The parsed URDF document (ik_urdf_read_file), freed with its last reference."""
    error = ffi.new("ik_error *")
    document = ffi.new("ik_urdf **")
    check_io(lib.ik_urdf_read_file(os.fsencode(os.fspath(path)), document, error), "load %s" % path, error)
    return ffi.gc(document[0], lib.ik_urdf_free)


class Robot:
    """The chain of a URDF robot from `base_link` to `tip_link`
    (ik_urdf_robot_chain): `variable_count` joint values, named
    `variable_names` (their URDF joints), with limits `lower`, `upper`."""

    def __init__(self, path, base_link, tip_link):
        self.path = os.fspath(path)
        urdf = read_urdf(self.path)
        error = ffi.new("ik_error *")
        self._chain = ffi.new("ik_robot_chain *")
        variable_joints = ffi.new("int[]", int(lib.IK_ROBOT_MAX_JOINTS))
        check_io(lib.ik_urdf_robot_chain(urdf, str(base_link).encode(), str(tip_link).encode(), self._chain,
                                         variable_joints, error), "chain %s to %s" % (base_link, tip_link), error)
        self.variable_count = int(self._chain.variable_count)
        self.variable_names = [ffi.string(urdf.joints[variable_joints[v]].name).decode()
                               for v in range(self.variable_count)]
        self.lower = np.zeros(self.variable_count)
        self.upper = np.zeros(self.variable_count)
        for k in range(self._chain.joint_count):
            joint = self._chain.joints[k]
            if joint.variable >= 0:
                self.lower[joint.variable], self.upper[joint.variable] = joint.lower, joint.upper

    def fk(self, q, out=None):
        """The tip's frame in the base frame as a transform (10,) for one
        configuration q (variable_count,), or (n, 10) for q (n,
        variable_count), in one C loop; into `out` when given."""
        q = np.ascontiguousarray(q, dtype=arrays.real_dtype)
        if q.ndim not in (1, 2) or q.shape[-1] != self.variable_count:
            raise ValueError("q must have shape (%d,) or (n, %d), not %s" % (self.variable_count,
                                                                             self.variable_count, q.shape))
        count = 1 if q.ndim == 1 else q.shape[0]
        shape = (arrays.REALS_PER_TRANSFORM,) if q.ndim == 1 else (count, arrays.REALS_PER_TRANSFORM)
        if out is None:
            out = arrays.new_pose(count).reshape(shape)
        if not isinstance(out, np.ndarray) or out.shape != shape or not out.flags.c_contiguous:
            raise ValueError("out must be a C-contiguous array of shape %s" % (shape,))
        tips = arrays.pose_pointer(out.reshape(count, arrays.REALS_PER_TRANSFORM), count, "out")
        failed = ffi.new("int *")
        r = lib.ik_robot_fk_many(self._chain, count, ffi.from_buffer("ik_real[]", q), tips, failed)
        check(r, "robot fk, configuration %d" % failed[0])
        return out

    def jacobian(self, q):
        """The geometric Jacobian (6, variable_count) at q: rows 0-2 the tip's
        linear velocity, 3-5 its angular velocity, per unit of each value."""
        q = np.ascontiguousarray(q, dtype=arrays.real_dtype)
        if q.shape != (self.variable_count,):
            raise ValueError("q must have shape (%d,), not %s" % (self.variable_count, q.shape))
        storage = np.zeros((self.variable_count, 6), dtype=arrays.real_dtype)   # jac[v * 6 + r]
        check(lib.ik_robot_jacobian(self._chain, ffi.from_buffer("ik_real[]", q),
                                    ffi.from_buffer("ik_real[]", storage, require_writable=True)), "robot jacobian")
        return storage.T


    def cartesian_path(self, q_start, position, rotation=None, *, step=0.001, rotation_step=0.01, joint_step=0.0,
                       joint_step_ratio=10.0, keep_branch=True, config_ok=None):
        """The tip moved along the straight line from its pose at q_start
        to `position` (3,) and `rotation` (a unit quaternion x, y, z, w;
        None keeps the start's orientation), in segments of at most `step`
        metres and `rotation_step` radians (ik_robot_path_run; the rules a
        waypoint must pass, and the joint-step bound, are robot_path.h's and
        docs/robot.md's). `config_ok(q)` (optional) is asked for q_start and
        each waypoint and may refuse it (False), e.g. a collision check; a
        (C function pointer, argument) pair is called from C instead, as
        Cell.cartesian_path gives the cell's collision check.
        Returns a RobotPath: the waypoints (count, variable_count), the
        fraction of the line achieved, the segment count and why it
        stopped."""
        q0 = np.ascontiguousarray(q_start, dtype=arrays.real_dtype)
        if q0.shape != (self.variable_count,):
            raise ValueError("q_start must have shape (%d,), not %s" % (self.variable_count, q0.shape))
        if rotation is None:
            start = self.fk(q0)
            rotation = start[arrays.POSE_ROTATION]
        n = self.variable_count
        job = ffi.new("ik_robot_path *", lib.ik_robot_path_def())
        field_error = ffi.new("ik_error *")
        keep = [ffi.from_buffer("ik_real[]", q0)]
        job.chain = self._chain
        job.q_start = keep[0]
        job.goal_position_bs = arrays.vec3(position, "position")
        job.goal_rotation_bs = arrays.quat(rotation, "rotation")
        job.max_step = step
        job.max_rotation_step = rotation_step
        job.max_joint_step = joint_step
        job.joint_step_ratio = joint_step_ratio
        job.keep_branch = 1 if keep_branch else 0
        job.error_field = field_error
        needed = ffi.new("int *")
        check_job(lib.ik_robot_path_waypoint_count(job, needed), "robot path", field_error)
        waypoints = np.zeros((needed[0], n), dtype=arrays.real_dtype)
        scratch_bytes = lib.ik_robot_path_scratch_size(n)
        scratch = ffi.new("char[]", max(int(scratch_bytes), 1))
        count, fraction, segments = ffi.new("int *"), ffi.new("ik_real *"), ffi.new("int *")
        stop = ffi.new("ik_robot_path_stop *")
        raised = []
        if isinstance(config_ok, tuple):  # a C check and its argument (Cell.cartesian_path)
            job.config_ok, job.config_user = config_ok
        elif config_ok is not None:
            def ask(_user, q, variables):
                if raised:
                    return 0
                try:
                    values = np.frombuffer(ffi.buffer(q, variables * arrays.real_dtype.itemsize),
                                           dtype=arrays.real_dtype).copy()
                    return 1 if config_ok(values) else 0
                except BaseException as error:  # handed back to the caller after the run
                    raised.append(error)
                    return 0
            callback = ffi.callback("int(void *, const ik_real *, int)", ask)
            keep.append(callback)
            job.config_ok = callback
        job.scratch = scratch
        job.scratch_bytes = scratch_bytes
        job.q_path = ffi.from_buffer("ik_real[]", waypoints, require_writable=True)
        job.max_waypoints = needed[0]
        job.waypoint_count = count
        job.fraction = fraction
        job.segments = segments
        job.stop = stop
        check_job(lib.ik_robot_path_run(job), "robot path", field_error)
        if raised:
            raise raised[0]
        return RobotPath(waypoints[:count[0]].copy(), float(fraction[0]), int(segments[0]),
                         ffi.string(lib.ik_robot_path_stop_str(stop[0])).decode())


class RobotPath:
    """A straight-line tool path (Robot.cartesian_path): `waypoints` (count,
    variable_count), the first being q_start; `fraction` of the line
    achieved, (count - 1) / segments; `segments`, what the whole line is cut
    into; `stop`, why it ended ("complete", "unreached", "joint limit",
    "joint jump", "branch switch", "refused by config_ok", "start refused by
    config_ok")."""

    def __init__(self, waypoints, fraction, segments, stop):
        self.waypoints = waypoints
        self.fraction = fraction
        self.segments = segments
        self.stop = stop

    @property
    def complete(self):
        return self.stop == "complete"

    def __repr__(self):
        return "RobotPath(%d waypoints of %d, fraction %.4f, %s)" % (len(self.waypoints), self.segments + 1,
                                                                      self.fraction, self.stop)


def load_robot(path, base_link, tip_link):
    return Robot(path, base_link, tip_link)


class UrdfChain:
    """A URDF robot's chain from `base_link` to `tip_link` as a skeleton
    (ik_urdf_chain_skeleton): one joint per link, rest = zero configuration."""

    def __init__(self, path, base_link, tip_link):
        self.path = os.fspath(path)
        self._urdf = read_urdf(self.path)
        error = ffi.new("ik_error *")
        self.robot_name = ffi.string(self._urdf.name).decode() if self._urdf.name != ffi.NULL else ""
        chain = ffi.new("ik_urdf_skeleton **")
        check_io(lib.ik_urdf_chain_skeleton(self._urdf, str(base_link).encode(), str(tip_link).encode(), chain,
                                            error), "chain %s to %s" % (base_link, tip_link), error)
        self._chain = ffi.gc(chain[0], lib.ik_urdf_skeleton_free)
        self.skeleton = Skeleton(ffi.addressof(self._chain, "skeleton"), self)


def load_urdf_chain(path, base_link, tip_link):
    return UrdfChain(path, base_link, tip_link)
