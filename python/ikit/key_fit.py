"""Key fitting (ik_key_fit_run): a take turned into a clip of few keys
with cubic Hermite tangents (glTF CUBICSPLINE) that stays within a distance
of the take at every joint and at points along each joint's axes; and the
comparison, per-curve greedy key removal (ik_key_decimate_run), which
reports its statistics only, as the C job does. The fitted keys live in
numpy arrays that C wrote in place; the channels' times and values are
views of them."""
import numpy as np

from . import arrays
from ._ikit import ffi, lib
from .errors import IkitError, check
from .motion import take_over

SHARING = {"auto": lib.IK_KEY_SHARE_AUTO, "joint": lib.IK_KEY_SHARE_JOINT, "skeleton": lib.IK_KEY_SHARE_SKELETON}
_SHARING_NAMES = {value: name for name, value in SHARING.items()}
CHANNEL_PATHS = ("translation", "rotation", "scale")      # ik_channel_path
INTERPOLATIONS = ("linear", "step", "cubicspline")       # ik_interpolation


class _FitJob:
    """An ik_key_fit over a take, with its scratch, forced frames and root
    kept alive for as long as the job is."""

    def __init__(self, asset_or_skeleton, poses, frame_time, max_error, root, point_offset, sharing, forced_frames,
                 clip_name, scratch_size):
        skeleton = getattr(asset_or_skeleton, "skeleton", asset_or_skeleton)
        if root is None and skeleton is not asset_or_skeleton:
            root = asset_or_skeleton.root
        if sharing not in SHARING:
            raise ValueError("sharing must be one of %s, not %r" % (", ".join(SHARING), sharing))
        self.skeleton = skeleton
        self.take, self.poses = take_over(poses, skeleton.joint_count, frame_time)
        frames = self.poses.shape[0]
        self.root = arrays.root_pointer(root)
        forced = np.ascontiguousarray([] if forced_frames is None else forced_frames, dtype=np.intc)
        if forced.ndim != 1:
            raise ValueError("forced_frames must be a list of frame numbers")
        self.forced = ffi.from_buffer("int[]", forced) if forced.size else ffi.NULL
        self._keep = [forced]
        self.job = ffi.new("ik_key_fit *", lib.ik_key_fit_def())
        job = self.job
        job.take, job.skeleton, job.root_ms = self.take, skeleton._ptr, self.root
        job.forced_frames, job.forced_count = self.forced, forced.size
        job.max_error = max_error
        if point_offset is not None:
            job.point_offset = point_offset
        job.sharing = SHARING[sharing]
        if clip_name is not None:
            self.name = ffi.new("char[]", clip_name.encode())
            job.clip_name = self.name
        size = scratch_size(max(frames, 0), skeleton.joint_count)
        self.scratch = ffi.new("char[]", max(size, 1))
        job.scratch, job.scratch_bytes = self.scratch, size
        self.stats = ffi.new("ik_key_fit_stats *")
        job.stats = self.stats

    def stats_dict(self):
        s = self.stats
        out = {name: int(getattr(s, name)) for name in ("frame_count", "channel_count", "curve_count", "key_count",
                                                         "curve_key_count", "stored_numbers", "worst_frame")}
        out.update({name: float(getattr(s, name)) for name in ("max_error", "mean_error", "tolerance")})
        out["sharing"] = _SHARING_NAMES.get(int(s.sharing), int(s.sharing))
        return out


class Channel:
    """One fitted channel: `joint`, `path` ("translation", "rotation",
    "scale"), `interpolation` and, as views of the clip's own arrays (no
    copies), `times` (keys,) and `values`: (keys, 3, width) for
    CUBICSPLINE (in-tangent, value, out-tangent per key), else (keys,
    width)."""

    def __init__(self, channel, clip):
        self.joint = int(channel.joint)
        self.path = CHANNEL_PATHS[channel.path]
        self.interpolation = INTERPOLATIONS[channel.interpolation]
        keys, width = int(channel.key_count), int(lib.ik_channel_width(channel.path))
        shape = (keys, 3, width) if self.interpolation == "cubicspline" else (keys, width)
        self.times = clip._view(channel.times, (keys,))
        self.values = clip._view(channel.values, shape)

    def __repr__(self):
        return "<ikit.Channel joint %d %s, %d %s keys>" % (self.joint, self.path, len(self.times), self.interpolation)


class FittedClip:
    """The clip ik_key_fit_run wrote: its `channels`, `stats` (a dict of
    ik_key_fit_stats: key_count, max_error, mean_error, sharing, ...),
    `name`, `duration`; `sample` and `bake` evaluate it."""

    def __init__(self, fit, channels, times, values, clip):
        self.skeleton = fit.skeleton
        self.stats = fit.stats_dict()
        self.frame_time = float(fit.take.frame_time)
        self.frame_count = int(fit.take.frame_count)
        self._times, self._values = times, values
        self._channel_cells, self._clip = channels, clip
        self._name_keep = getattr(fit, "name", None)
        self.name = ffi.string(clip.name).decode() if clip.name != ffi.NULL else None
        self.duration = float(clip.duration)
        self.channels = [Channel(clip.channels[c], self) for c in range(clip.channel_count)]

    def _view(self, pointer, shape):
        """A numpy view of `pointer` (inside the times or values array)."""
        address, count = int(ffi.cast("uintptr_t", pointer)), int(np.prod(shape))
        for owner in (self._times, self._values):
            offset = address - owner.ctypes.data
            if 0 <= offset and offset + count * owner.itemsize <= owner.nbytes:
                start = offset // owner.itemsize
                return owner[start:start + count].reshape(shape)
        raise IkitError("fitted clip", lib.IK_ERR_RANGE, "a channel points outside the clip's arrays")

    def __repr__(self):
        return "<ikit.FittedClip %d channels, %d keys, max error %.4g>" % (
            len(self.channels), self.stats["key_count"], self.stats["max_error"])

    def sample(self, time, pose=None):
        """The clip at `time` seconds (ik_clip_sample) onto `pose` (in place)
        or onto a new rest pose; returns the pose."""
        if pose is None:
            pose = self.skeleton.rest_pose()
        lib.ik_clip_sample(self._clip, time, arrays.pose_pointer(pose, self.skeleton.joint_count))
        return pose

    def bake(self, frame_count=None, frame_time=None):
        """The clip sampled at every frame onto the rest pose (ik_take_bake):
        (frames, joints, 10), by default the fitted take's frames."""
        frames = self.frame_count if frame_count is None else int(frame_count)
        joints = self.skeleton.joint_count
        poses = np.zeros((frames, joints, arrays.REALS_PER_TRANSFORM), dtype=arrays.real_dtype)
        take, poses = take_over(poses, joints, self.frame_time if frame_time is None else frame_time, writable=True)
        check(lib.ik_take_bake(take, self._clip, self.skeleton._ptr.rest_ls), "bake fitted keys")
        return poses


def fit(asset_or_skeleton, poses, frame_time, max_error, *, root=None, point_offset=None, sharing="auto",
        forced_frames=None, clip_name=None):
    """Fit keys to a take (ik_key_fit_run): `poses` (frames, joints, 10) at
    `frame_time` seconds a frame, on an Asset (its skeleton and root) or a
    Skeleton (with `root`, None: identity). `max_error` E and
    `point_offset` r (default 0.05) are model units: every joint and the
    points r along its axes stay within E of the take at every frame.
    `sharing`: "auto", "joint" or "skeleton" (key times shared per joint or
    by the whole skeleton). `forced_frames`: frames keyed exactly in every
    channel. Returns a FittedClip; IkitError with the library's message on
    bad input (IK_ERR_RANGE for E below what the arithmetic resolves)."""
    job = _FitJob(asset_or_skeleton, poses, frame_time, max_error, root, point_offset, sharing, forced_frames,
                  clip_name, lib.ik_key_fit_scratch_size)
    size = lib.ik_key_fit_size_of(job.take)
    channels = ffi.new("ik_channel[]", max(size.channel_count, 1))
    times = np.zeros(max(size.time_count, 1), dtype=arrays.real_dtype)
    values = np.zeros(max(size.value_count, 1), dtype=arrays.real_dtype)
    clip = ffi.new("ik_clip *")
    job.job.channels, job.job.clip = channels, clip
    job.job.times = ffi.from_buffer("ik_real[]", times, require_writable=True)
    job.job.values = ffi.from_buffer("ik_real[]", values, require_writable=True)
    _run(lib.ik_key_fit_run, job, "key fit")
    return FittedClip(job, channels, times, values, clip)


def decimate(asset_or_skeleton, poses, frame_time, max_error, *, root=None, point_offset=None, forced_frames=None):
    """The comparison method (ik_key_decimate_run): per-curve greedy key
    removal, as Blender's F-curve decimate, with its per-curve tolerance
    searched for the fewest keys within the same E. Same arguments as fit;
    returns its statistics (a dict, with the tolerance found): the C job
    writes no clip."""
    job = _FitJob(asset_or_skeleton, poses, frame_time, max_error, root, point_offset, "auto", forced_frames, None,
                  lib.ik_key_decimate_scratch_size)
    _run(lib.ik_key_decimate_run, job, "key decimate")
    return job.stats_dict()


def _run(function, job, what):
    r = function(job.job)
    if r == lib.IK_OK:
        return
    bad = ffi.new("int *", -1)
    if lib.ik_take_validate(job.take, bad) != lib.IK_OK and bad[0] >= 0:
        raise IkitError("%s (frame %d)" % (what, bad[0]), r)
    if r == lib.IK_ERR_RANGE:
        raise IkitError(what, r, "%s (E below what the arithmetic resolves, forced frames out of range, fewer than "
                        "2 frames or a frame time not above 0?)" % ffi.string(lib.ik_result_str(r)).decode())
    raise IkitError(what, r)
