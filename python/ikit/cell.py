"""Robots in a cell (robot_collision.h, robot_free_ik.h, urdf_collision.h):
a URDF arm's collision geometry (capsules holding its <collision> meshes and
shapes), a scene of obstacles from a JSON file, the contacts and clearances
of a configuration, and pose IK whose answer keeps every link at least the
margin from the obstacles and from the other links."""
import os

import numpy as np

from . import arrays
from ._ikit import ffi, lib
from .errors import check, check_io
from .urdf import Robot, read_urdf


class CellReport:
    """A configuration's collision check: `free` (every tested pair at least
    the margin apart), `clearance` (the smallest distance, metres; negative
    when bounding capsules overlap), `closest` (the pair giving it), `contacts`
    [(link, other, distance)] closer than the margin (other is a link name or
    "obstacle 'NAME'"), `link_clearance` {link: distance}."""

    def __init__(self, cell, report):
        self.free = bool(report.free)
        self.clearance = float(report.clearance)
        self.closest = cell._pair(report.closest)[:2] if report.closest.link >= 0 else None
        self.contacts = [cell._pair(report.contacts[k])
                         for k in range(min(report.contact_count, lib.IK_COLLISION_MAX_CONTACTS))]
        self.contact_count = int(report.contact_count)
        self.link_clearance = {cell.link_names[k]: float(report.link_clearance[k])
                               for k in range(cell._model.link_count) if report.link_clearance[k] < 1e29}

    def __repr__(self):
        return "CellReport(free=%s, clearance=%.4f, contacts=%r)" % (self.free, self.clearance, self.contacts)


class Cell:
    """The arm of URDF `path` from `base_link` to `tip_link` in a scene
    (`scene`: a JSON file, or None for self-collision only), meshes found
    through `packages` {NAME: DIR} and ROS_PACKAGE_PATH, link pairs pruned as
    ikc does (adjacent, touching at rest, never within max(2 cm, margin) over
    5000 samples), an SRDF's <disable_collisions> left out."""

    def __init__(self, path, base_link, tip_link, scene=None, srdf=None, packages=None, margin=0.01):
        path = os.fspath(path)
        self.robot = Robot(path, base_link, tip_link)
        self.margin = float(margin)
        self._urdf = read_urdf(path)  # the model's link names point into it
        error = ffi.new("ik_error *")
        self._keep = [ffi.new("char[]", os.fsencode(os.path.dirname(os.path.abspath(path))))]
        entries = ["%s=%s" % (name, os.fspath(directory)) for name, directory in (packages or {}).items()]
        self._keep += [ffi.new("char[]", entry.encode()) for entry in entries]
        package_array = ffi.new("const char *[]", self._keep[1:] or [ffi.NULL])
        self._keep.append(package_array)
        self._paths = ffi.new("ik_mesh_paths *")
        self._paths.urdf_dir = self._keep[0]
        self._paths.packages = package_array
        self._paths.package_count = len(entries)
        self._model = ffi.new("ik_robot_collision_model *")
        skipped = ffi.new("int *")
        base, tip = str(base_link).encode(), str(tip_link).encode()
        check_io(lib.ik_urdf_collision_model(self._urdf, base, tip, self._paths, self._model, skipped, error),
                 "collision model of %s" % path, error)
        check(lib.ik_robot_collision_prune(self._model, self.robot._chain, ffi.NULL, 5000, 29,
                                           max(0.02, self.margin)), "collision pairs")
        if srdf is not None:
            disabled = ffi.new("int *")
            check_io(lib.ik_srdf_disable_collisions(os.fsencode(os.fspath(srdf)), self._model, disabled, error),
                     "SRDF %s" % srdf, error)
        self._scene = ffi.NULL
        self.obstacle_names = []
        if scene is not None:
            out = ffi.new("ik_scene **")
            check_io(lib.ik_scene_read_file(os.fsencode(os.fspath(scene)), self._urdf, base, self._paths, out, error),
                     "scene %s" % scene, error)
            self._scene = ffi.gc(out[0], lib.ik_scene_free)
            check_io(lib.ik_scene_allow_touching(self._scene, self._model, error), "scene %s" % scene, error)
            self.obstacle_names = [ffi.string(self._scene.names[k]).decode("utf-8", "replace")
                                   for k in range(self._scene.obstacle_count)]
        self.link_names = [ffi.string(self._model.link_names[k]).decode("utf-8", "replace")
                           for k in range(self._model.link_count)]

    def _obstacles(self):
        if self._scene == ffi.NULL:
            return ffi.NULL, 0
        return self._scene.obstacles, self._scene.obstacle_count

    def _pair(self, pair):
        other = (self.link_names[pair.other] if pair.other >= 0
                 else "obstacle '%s'" % self.obstacle_names[-1 - pair.other])
        return (self.link_names[pair.link], other, float(pair.distance))

    def _q(self, q):
        q = np.ascontiguousarray(q, dtype=arrays.real_dtype)
        if q.shape != (self.robot.variable_count,):
            raise ValueError("q must have shape (%d,), not %s" % (self.robot.variable_count, q.shape))
        return q

    def check(self, q, margin=None):
        """The CellReport of configuration q (variable_count,)."""
        q = self._q(q)
        report = ffi.new("ik_robot_collision_report *")
        obstacles, count = self._obstacles()
        check(lib.ik_robot_collision_check(self._model, self.robot._chain, ffi.from_buffer("ik_real[]", q), obstacles,
                                           count, self.margin if margin is None else float(margin), report),
              "collision check")
        return CellReport(self, report)

    def solve(self, position, rotation=None, seed=None, margin=None, max_candidates=64):
        """Joint values putting the tip at `position` (and unit quaternion
        `rotation` x, y, z, w when given) with every tested pair at least the
        margin apart: returns (q, reached, free, report); free False means no
        collision-free solution was found, and q is the reached candidate with
        the most clearance (report names its contacts)."""
        n = self.robot.variable_count
        seed = self._q((self.robot.lower + self.robot.upper) / 2 if seed is None else seed)
        q = np.zeros(n, dtype=arrays.real_dtype)
        scratch = ffi.new("char[]", int(lib.ik_robot_ik_scratch_size(n)) + 64)
        job = ffi.new("ik_robot_free_ik *", lib.ik_robot_free_ik_def())
        job.ik.chain = self.robot._chain
        job.ik.goal_position_bs = [float(v) for v in position]
        if rotation is None:
            job.ik.orientation_importance = 0
        else:
            job.ik.goal_rotation_bs = [float(v) for v in rotation]
        job.ik.q_seed = ffi.from_buffer("ik_real[]", seed)
        job.ik.scratch = scratch
        job.ik.scratch_bytes = len(scratch)
        job.model = self._model
        job.obstacles, job.obstacle_count = self._obstacles()
        job.margin = self.margin if margin is None else float(margin)
        job.max_candidates = int(max_candidates)
        job.q_out = ffi.from_buffer("ik_real[]", q, require_writable=True)
        reached, free = ffi.new("ik_bool *"), ffi.new("ik_bool *")
        report = ffi.new("ik_robot_collision_report *")
        job.reached, job.free, job.report = reached, free, report
        check(lib.ik_robot_free_ik_run(job), "collision-free IK")
        return q, bool(reached[0]), bool(free[0]), CellReport(self, report)


    def cartesian_path(self, q_start, position, rotation=None, margin=None, **options):
        """Robot.cartesian_path (the same options) with every waypoint
        checked in C against the cell (ik_robot_collision_query_free as the
        job's config_ok): the path stops where a link would come within the
        margin of an obstacle or of another link (stop "refused by
        config_ok"; "start refused by config_ok" when q_start is not free)."""
        query = ffi.new("ik_robot_collision_query *")
        query.model = self._model
        query.chain = self.robot._chain
        query.obstacles, query.obstacle_count = self._obstacles()
        query.margin = self.margin if margin is None else float(margin)
        return self.robot.cartesian_path(q_start, position, rotation,
                                         config_ok=(ffi.addressof(lib, "ik_robot_collision_query_free"), query), **options)


def load_cell(path, base_link, tip_link, scene=None, srdf=None, packages=None, margin=0.01):
    return Cell(path, base_link, tip_link, scene=scene, srdf=srdf, packages=packages, margin=margin)
