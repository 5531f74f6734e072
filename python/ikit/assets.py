"""Files: characters and motion loaded through ik_asset_load (glTF, GLB,
BVH, chain files), saved through the glTF and BVH writers."""
import os

import numpy as np

from . import arrays
from ._ikit import ffi, lib
from .errors import IkitError, check_io
from .limits import Limit
from .skeleton import Skeleton

_FORMATS = {lib.IK_ASSET_GLTF: "gltf", lib.IK_ASSET_BVH: "bvh", lib.IK_ASSET_CHAIN: "chain"}


def load(path):
    """Load a character or motion file; IkitIoError with the reader's place
    and message when it cannot."""
    return Asset(path)


class Asset:
    """One loaded file: `skeleton`, `root` (the 4x4 transform above its
    roots), `format` ("gltf", "bvh", "chain"), its clips."""

    def __init__(self, path):
        self.path = os.fspath(path)
        self._path_cell = ffi.new("char[]", os.fsencode(self.path))  # ik_asset keeps the pointer
        asset = ffi.new("ik_asset *")
        error = ffi.new("ik_error *")
        check_io(lib.ik_asset_load(self._path_cell, asset, error), "load %s" % self.path, error)
        self._asset = ffi.gc(asset, lib.ik_asset_free)
        self.format = _FORMATS[asset.format]
        self.format_name = ffi.string(lib.ik_asset_format_name(asset)).decode()
        self.skeleton = Skeleton(asset.skeleton, self)
        self.root = arrays.view("ik_mat4", ffi.addressof(asset, "root_ms"), 1, (4, 4), self,
                                writable=False).T

    def __repr__(self):
        return "<ikit.Asset %s: %s, %d joints, %d clips>" % (self.path, self.format_name,
                                                            self.skeleton.joint_count, self.clip_count)

    @property
    def limits(self):
        """The file's joint limits, a Limit per skeleton joint (chain files),
        or None for formats without limits."""
        if self._asset.constraints == ffi.NULL:
            return None
        return [Limit(self._asset.constraints[j]) for j in range(self.skeleton.joint_count)]

    @property
    def clip_count(self):
        return int(lib.ik_asset_clip_count(self._asset))

    def _clip(self, clip):
        pointer = lib.ik_asset_clip(self._asset, int(clip))
        if pointer == ffi.NULL:
            raise IkitError("clip %r" % (clip,), lib.IK_ERR_RANGE,
                            "no clip %r (the file has %d)" % (clip, self.clip_count))
        return pointer

    @property
    def clip_names(self):
        return [ffi.string(c.name).decode() if c.name != ffi.NULL else "" for c in
                (self._clip(i) for i in range(self.clip_count))]

    def clip_duration(self, clip=0):
        return float(self._clip(clip).duration)

    def sample(self, clip, time, pose=None):
        """The clip at `time` seconds (ik_clip_sample) applied onto `pose`
        (in place) or onto a new rest pose; returns the pose."""
        pointer = self._clip(clip)
        if pose is None:
            pose = self.skeleton.rest_pose()
        lib.ik_clip_sample(pointer, time, arrays.pose_pointer(pose, self.skeleton.joint_count))
        return pose

    # ---- BVH ----------------------------------------------------------------
    @property
    def frame_count(self):
        """BVH: the number of frames (0 for other formats)."""
        return int(self._asset.bvh.frame_count) if self._asset.bvh != ffi.NULL else 0

    @property
    def frame_time(self):
        """BVH: seconds per frame."""
        self._require_bvh("frame_time")
        return float(self._asset.bvh.frame_time)

    def save_bvh(self, path, poses, frame_time=None):
        """Write `poses` (frames, joints, 10) as a BVH file with this file's
        hierarchy and channels (ik_bvh_frame_from_pose, ik_bvh_write_file).
        Channels a pose cannot set keep this file's values of the same frame
        (of its last frame past its end)."""
        self._require_bvh("save_bvh")
        source = self._asset.bvh
        joints = self.skeleton.joint_count
        poses = np.asarray(poses)
        if poses.ndim != 3:
            raise ValueError("poses must have shape (frames, %d, 10), not %s" % (joints, poses.shape))
        frames = poses.shape[0]
        per_frame = int(source.values_per_frame)
        values = np.zeros((frames, per_frame), dtype=np.float64)
        fallback = np.zeros(per_frame, dtype=np.float64)
        source_values = ffi.cast("double *", source.values)
        for f in range(frames):
            if source.frame_count > 0:
                first = min(f, source.frame_count - 1) * per_frame
                fallback[:] = np.frombuffer(ffi.buffer(source_values + first, per_frame * 8), dtype=np.float64)
            pose = np.ascontiguousarray(poses[f], dtype=arrays.real_dtype)
            lib.ik_bvh_frame_from_pose(source, arrays.pose_pointer(pose, joints, "poses[%d]" % f, writable=False),
                                       ffi.from_buffer("double[]", fallback),
                                       ffi.from_buffer("double[]", values[f], require_writable=True))
        copy = ffi.new("ik_bvh *", source[0])
        copy.frame_count = frames
        copy.frame_time = source.frame_time if frame_time is None else frame_time
        value_cells = ffi.from_buffer("double[]", values)
        copy.values = value_cells
        error = ffi.new("ik_error *")
        check_io(lib.ik_bvh_write_file(copy, os.fsencode(os.fspath(path)), error), "save %s" % path, error)

    def _require_bvh(self, what):
        if self._asset.bvh == ffi.NULL:
            raise IkitError(what, lib.IK_ERR_UNSUPPORTED, "%s is not a BVH file" % self.path)

    # ---- glTF ---------------------------------------------------------------
    def save_gltf(self, path, pose=None, *, poses=None, times=None, clip_name=None):
        """Write this glTF document again (meshes, materials, animations
        kept): .glb for binary, else .gltf with embedded buffers. `pose`
        (joints, 10) is set into the skin's nodes (ik_gltf_set_pose);
        `poses` (frames, joints, 10) at `times` (frames,) seconds become a
        new animation `clip_name` with LINEAR translation, rotation and scale
        keys for every joint (ik_gltf_add_clip). The document is read afresh
        for the edit, so this asset's skeleton and clips stay valid."""
        if self.format != "gltf":
            raise IkitError("save_gltf", lib.IK_ERR_UNSUPPORTED, "%s is not a glTF file" % self.path)
        joints = self.skeleton.joint_count
        error = ffi.new("ik_error *")
        document = ffi.new("ik_gltf **")
        check_io(lib.ik_gltf_read_file(self._path_cell, document, error), "read %s" % self.path, error)
        gltf = ffi.gc(document[0], lib.ik_gltf_free)
        if pose is not None:
            pose_ptr = arrays.pose_pointer(pose, joints, writable=False)
            check_io(lib.ik_gltf_set_pose(gltf, self._asset.skin, pose_ptr, error), "set pose", error)
        if poses is not None:
            clip, keep = _clip_from_poses(poses, times, joints, clip_name)
            check_io(lib.ik_gltf_add_clip(gltf, self._asset.skin, keep[0], clip, error), "add clip", error)
        check_io(lib.ik_gltf_write_file(gltf, os.fsencode(os.fspath(path)), error), "save %s" % path, error)


def _clip_from_poses(poses, times, joints, name):
    """An ik_clip of LINEAR keys: per joint a translation, a rotation and a
    scale channel over `times`, checked by ik_clip_validate. Returns the
    clip and the memory it points at."""
    poses = np.asarray(poses, dtype=arrays.real_dtype)
    times = np.ascontiguousarray(times, dtype=arrays.real_dtype)
    if poses.ndim != 3 or poses.shape[1:] != (joints, arrays.REALS_PER_TRANSFORM):
        raise ValueError("poses must have shape (frames, %d, 10), not %s" % (joints, poses.shape))
    if times.shape != (poses.shape[0],):
        raise ValueError("times must have shape (%d,), not %s" % (poses.shape[0], times.shape))
    parts = ((lib.IK_CHANNEL_TRANSLATION, arrays.POSE_TRANSLATION), (lib.IK_CHANNEL_ROTATION, arrays.POSE_ROTATION),
             (lib.IK_CHANNEL_SCALE, arrays.POSE_SCALE))
    channels = ffi.new("ik_channel[]", joints * len(parts))
    keep = [ffi.new("char[]", (name or "ikit").encode()), channels, times]
    times_ptr = ffi.from_buffer("ik_real[]", times)   # `times` itself is kept
    for joint in range(joints):
        for k, (path, columns) in enumerate(parts):
            values = np.ascontiguousarray(poses[:, joint, columns])
            keep.append(values)
            channel = channels[joint * len(parts) + k]
            channel.joint, channel.path, channel.interpolation = joint, path, lib.IK_INTERP_LINEAR
            channel.key_count = len(times)
            channel.times = times_ptr
            channel.values = ffi.from_buffer("ik_real[]", values)   # `values` itself is kept
    clip = ffi.new("ik_clip *")
    clip.name = keep[0]
    clip.duration = float(times[-1]) if len(times) else 0.0
    clip.channel_count = joints * len(parts)
    clip.channels = channels
    bad = ffi.new("int *")
    r = lib.ik_clip_validate(clip, joints, bad)
    if r != lib.IK_OK:
        raise IkitError("clip channel %d (joint %d)" % (bad[0], bad[0] // len(parts)), r)
    return clip, keep
