"""Independent reader of glTF 2.0 (.glb/.gltf) and BVH files: world joint
positions per frame, with numpy only (no ikit code, no library FK).

Conventions: quaternions are (x, y, z, w) as glTF stores them; matrices act on
column vectors (p_parent = M p_child); a world matrix is the product of the
local matrices from the scene root down to the node.
"""
import base64
import json
import os
import struct

import numpy as np


# ---------------------------------------------------------------- rotations

# R(q) for a unit q = (x, y, z, w):
# [[1-2(yy+zz), 2(xy-zw), 2(xz+yw)], [2(xy+zw), 1-2(xx+zz), 2(yz-xw)], [2(xz-yw), 2(yz+xw), 1-2(xx+yy)]]
def quat_to_mat(q):
    q = np.asarray(q, dtype=np.float64)
    q = q / np.linalg.norm(q, axis=-1, keepdims=True)
    x, y, z, w = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
    m = np.empty(q.shape[:-1] + (3, 3))
    m[..., 0, 0] = 1 - 2 * (y * y + z * z)
    m[..., 0, 1] = 2 * (x * y - z * w)
    m[..., 0, 2] = 2 * (x * z + y * w)
    m[..., 1, 0] = 2 * (x * y + z * w)
    m[..., 1, 1] = 1 - 2 * (x * x + z * z)
    m[..., 1, 2] = 2 * (y * z - x * w)
    m[..., 2, 0] = 2 * (x * z - y * w)
    m[..., 2, 1] = 2 * (y * z + x * w)
    m[..., 2, 2] = 1 - 2 * (x * x + y * y)
    return m


# q from a rotation matrix (Shepperd: pick the largest of w, x, y, z to divide by)
def mat_to_quat(m):
    m = np.asarray(m, dtype=np.float64)
    t = np.trace(m)
    if t > 0:
        s = 2.0 * np.sqrt(1.0 + t)
        q = [(m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s, 0.25 * s]
    elif m[0, 0] > m[1, 1] and m[0, 0] > m[2, 2]:
        s = 2.0 * np.sqrt(1.0 + m[0, 0] - m[1, 1] - m[2, 2])
        q = [0.25 * s, (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s, (m[2, 1] - m[1, 2]) / s]
    elif m[1, 1] > m[2, 2]:
        s = 2.0 * np.sqrt(1.0 + m[1, 1] - m[0, 0] - m[2, 2])
        q = [(m[0, 1] + m[1, 0]) / s, 0.25 * s, (m[1, 2] + m[2, 1]) / s, (m[0, 2] - m[2, 0]) / s]
    else:
        s = 2.0 * np.sqrt(1.0 + m[2, 2] - m[0, 0] - m[1, 1])
        q = [(m[0, 2] + m[2, 0]) / s, (m[1, 2] + m[2, 1]) / s, 0.25 * s, (m[1, 0] - m[0, 1]) / s]
    q = np.array(q)
    return q / np.linalg.norm(q)


# Rotation about a unit axis a by angle t (Rodrigues): I + sin t [a]x + (1 - cos t) [a]x^2
def axis_angle(axis, angle):
    a = np.asarray(axis, dtype=np.float64)
    a = a / np.linalg.norm(a)
    k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * (k @ k)


# slerp(q0, q1, u) = q0 sin((1-u)W)/sin W + q1 sin(uW)/sin W, cos W = |q0.q1| (q1 negated when q0.q1 < 0)
def slerp(q0, q1, u):
    q0 = np.asarray(q0, dtype=np.float64)
    q1 = np.array(q1, dtype=np.float64)
    u = np.asarray(u, dtype=np.float64)[..., None]
    d = np.sum(q0 * q1, axis=-1, keepdims=True)
    q1 = np.where(d < 0, -q1, q1)
    d = np.abs(d)
    w = np.arccos(np.clip(d, -1.0, 1.0))
    s = np.sin(w)
    small = s < 1e-9
    s_safe = np.where(small, 1.0, s)
    a = np.where(small, 1 - u, np.sin((1 - u) * w) / s_safe)
    b = np.where(small, u, np.sin(u * w) / s_safe)
    q = a * q0 + b * q1
    return q / np.linalg.norm(q, axis=-1, keepdims=True)


# M = T(t) R(q) S(s)
def trs_matrix(t, q, s):
    t = np.asarray(t, dtype=np.float64)
    m = np.zeros(t.shape[:-1] + (4, 4))
    m[..., :3, :3] = quat_to_mat(q) * np.asarray(s, dtype=np.float64)[..., None, :]
    m[..., :3, 3] = t
    m[..., 3, 3] = 1.0
    return m


class Take:
    """What both readers give: joint names, parents, times and world
    positions per frame (F, J, 3) in the file's units and world axes, plus the
    rest pose's world positions (J, 3)."""

    def __init__(self, names, parents, times, positions, rest, prefer=(), frames=None, rest_frames=None):
        self.names = list(names)
        self.parents = list(parents)
        self.times = np.asarray(times, dtype=np.float64)
        self.positions = np.asarray(positions, dtype=np.float64)
        self.rest = np.asarray(rest, dtype=np.float64)
        # world matrices (F, J, 4, 4) at the times and at rest (J, 4, 4), for points fixed to a joint
        self.frames = frames
        self.rest_frames = rest_frames
        # a name used twice (robot.glb: mesh nodes named as joints) means the preferred (skin joint) one
        self.index = {}
        for i, n in enumerate(self.names):
            self.index.setdefault(n, i)
        for i in prefer:
            self.index[self.names[i]] = i
        self.skin = list(prefer) or None

    def joint(self, name):
        return self.positions[:, self.index[name], :]

    def attached(self, j, rest_point):
        """The path (F, 3) of a point carried by joint j that stands at
        rest_point at rest: p = W_j(t) W_j,rest^-1 [rest_point, 1]."""
        local = np.linalg.solve(self.rest_frames[j], np.append(np.asarray(rest_point, dtype=np.float64), 1.0))
        return (self.frames[:, j] @ local)[:, :3]


# ---------------------------------------------------------------- glTF

_COMPONENT = {5120: np.int8, 5121: np.uint8, 5122: np.int16, 5123: np.uint16, 5125: np.uint32, 5126: np.float32}
_NCOMP = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}


class Gltf:
    def __init__(self, path):
        self.path = path
        raw = open(path, "rb").read()
        self.bin = None
        if raw[:4] == b"glTF":
            # GLB: 12-byte header, then chunks (length, type, data); JSON first, BIN optional
            offset = 12
            total = struct.unpack_from("<I", raw, 8)[0]
            while offset < total:
                length, kind = struct.unpack_from("<II", raw, offset)
                chunk = raw[offset + 8: offset + 8 + length]
                if kind == 0x4E4F534A:
                    self.json = json.loads(chunk.decode("utf-8"))
                elif kind == 0x004E4942 and self.bin is None:
                    self.bin = chunk
                offset += 8 + length
        else:
            self.json = json.loads(raw.decode("utf-8"))
        self.buffers = []
        for i, b in enumerate(self.json.get("buffers", [])):
            uri = b.get("uri")
            if uri is None:
                self.buffers.append(self.bin)
            elif uri.startswith("data:"):
                self.buffers.append(base64.b64decode(uri.split(",", 1)[1]))
            else:
                with open(os.path.join(os.path.dirname(path), uri), "rb") as f:
                    self.buffers.append(f.read())
        self.nodes = self.json.get("nodes", [])
        self.names = [n.get("name", "node%d" % i) for i, n in enumerate(self.nodes)]
        self.parents = [-1] * len(self.nodes)
        for i, n in enumerate(self.nodes):
            for c in n.get("children", []):
                self.parents[c] = i
        # parents before children: order by depth
        depth = []
        for i in range(len(self.nodes)):
            d, p = 0, self.parents[i]
            while p >= 0:
                d, p = d + 1, self.parents[p]
            depth.append(d)
        self.order = sorted(range(len(self.nodes)), key=lambda i: depth[i])

    def accessor(self, index):
        """Accessor as float64 (count, components); byteStride honoured,
        sparse not supported, normalized integers scaled to [0,1]/[-1,1]."""
        acc = self.json["accessors"][index]
        dtype = np.dtype(_COMPONENT[acc["componentType"]]).newbyteorder("<")
        ncomp = _NCOMP[acc["type"]]
        count = acc["count"]
        if "bufferView" not in acc:
            return np.zeros((count, ncomp))
        view = self.json["bufferViews"][acc["bufferView"]]
        data = self.buffers[view["buffer"]]
        start = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
        elem = dtype.itemsize * ncomp
        stride = view.get("byteStride", elem) or elem
        if stride == elem:
            arr = np.frombuffer(data, dtype=dtype, count=count * ncomp, offset=start).reshape(count, ncomp)
        else:
            # strided: gather each element's bytes
            rows = [np.frombuffer(data, dtype=dtype, count=ncomp, offset=start + i * stride) for i in range(count)]
            arr = np.array(rows).reshape(count, ncomp)
        out = arr.astype(np.float64)
        if acc.get("normalized"):
            # normalized ints: unsigned c / max, signed max(c / max, -1)
            info = np.iinfo(dtype)
            out = np.maximum(out / info.max, -1.0)
        return out

    def rest_local(self):
        """Rest TRS (N,3), (N,4), (N,3) and matrix nodes (dict index -> 4x4)."""
        n = len(self.nodes)
        t = np.zeros((n, 3))
        r = np.tile([0.0, 0.0, 0.0, 1.0], (n, 1))
        s = np.ones((n, 3))
        mats = {}
        for i, nd in enumerate(self.nodes):
            if "matrix" in nd:
                # glTF matrices are column-major
                mats[i] = np.array(nd["matrix"], dtype=np.float64).reshape(4, 4).T
            t[i] = nd.get("translation", t[i])
            r[i] = nd.get("rotation", r[i])
            s[i] = nd.get("scale", s[i])
        return t, r, s, mats

    def animation_index(self, name):
        anims = self.json.get("animations", [])
        if isinstance(name, int):
            return name
        for i, a in enumerate(anims):
            if a.get("name") == name:
                return i
        raise KeyError("no animation %r in %s (has %s)" % (name, self.path, [a.get("name") for a in anims]))

    def duration(self, anim):
        a = self.json["animations"][self.animation_index(anim)]
        return max(self.accessor(s["input"]).max() for s in a["samplers"])

    def world(self, times=None, anim=None):
        """World matrices (F, N, 4, 4) of every node at the times (rest pose
        when anim is None or times is None: F = 1)."""
        t0, r0, s0, mats = self.rest_local()
        if times is None or anim is None:
            times = np.zeros(1)
            anim = None
        times = np.asarray(times, dtype=np.float64)
        f = len(times)
        t = np.repeat(t0[None], f, 0)
        r = np.repeat(r0[None], f, 0)
        s = np.repeat(s0[None], f, 0)
        if anim is not None:
            a = self.json["animations"][self.animation_index(anim)]
            for ch in a["channels"]:
                target = ch["target"]
                if "node" not in target or target["path"] not in ("translation", "rotation", "scale"):
                    continue
                smp = a["samplers"][ch["sampler"]]
                value = sample_channel(self.accessor(smp["input"])[:, 0], self.accessor(smp["output"]),
                                       smp.get("interpolation", "LINEAR"), target["path"] == "rotation", times)
                {"translation": t, "rotation": r, "scale": s}[target["path"]][:, target["node"]] = value
        local = trs_matrix(t, r, s)
        for i, m in mats.items():
            local[:, i] = m
        world = np.empty_like(local)
        for i in self.order:
            p = self.parents[i]
            world[:, i] = local[:, i] if p < 0 else world[:, p] @ local[:, i]
        return world

    def skin_joints(self, skin=0):
        return list(self.json["skins"][skin]["joints"])

    def take(self, anim=None, rate=60.0, times=None):
        """Every node's world position at `rate` Hz over the animation (or at `times`)."""
        if anim is not None and times is None:
            n = int(np.floor(self.duration(anim) * rate + 1e-6)) + 1
            times = np.arange(n) / rate
        world = self.world(times, anim)
        rest = self.world()[0]
        skin = self.skin_joints() if self.json.get("skins") else ()
        return Take(self.names, self.parents, times if times is not None else [0.0],
                    world[:, :, :3, 3], rest[:, :3, 3], prefer=skin, frames=world, rest_frames=rest)


# Keyframe sampling at times; u = (t - t_k) / (t_k+1 - t_k), clamped outside the keys.
def sample_channel(keys, values, interp, rotation, times):
    keys = np.asarray(keys, dtype=np.float64)
    times = np.clip(times, keys[0], keys[-1])
    n = len(keys)
    if interp == "CUBICSPLINE":
        # values hold (in-tangent a_k, value v_k, out-tangent b_k) per key
        a, v, b = values[0::3], values[1::3], values[2::3]
    else:
        v = values
    if n == 1:
        return np.repeat(v[:1], len(times), 0)
    k = np.clip(np.searchsorted(keys, times, side="right") - 1, 0, n - 2)
    dt = keys[k + 1] - keys[k]
    u = np.where(dt > 0, (times - keys[k]) / np.where(dt > 0, dt, 1.0), 0.0)
    if interp == "STEP":
        # STEP: the value of the key at or before t (the last key at its own time)
        out = v[k].copy()
        out[times >= keys[-1]] = v[-1]
        return out
    if interp == "CUBICSPLINE":
        # Hermite: (2u^3-3u^2+1) v_k + (u^3-2u^2+u) dt b_k + (-2u^3+3u^2) v_k+1 + (u^3-u^2) dt a_k+1
        u2, u3 = u * u, u * u * u
        h00 = (2 * u3 - 3 * u2 + 1)[:, None]
        h10 = ((u3 - 2 * u2 + u) * dt)[:, None]
        h01 = (-2 * u3 + 3 * u2)[:, None]
        h11 = ((u3 - u2) * dt)[:, None]
        out = h00 * v[k] + h10 * b[k] + h01 * v[k + 1] + h11 * a[k + 1]
        if rotation:
            out = out / np.linalg.norm(out, axis=1, keepdims=True)
        return out
    if rotation:
        return slerp(v[k], v[k + 1], u)
    # LINEAR: (1-u) v_k + u v_k+1
    return (1 - u)[:, None] * v[k] + u[:, None] * v[k + 1]


# ---------------------------------------------------------------- BVH

# Elementary rotations about x, y, z by angle t (radians), acting on column vectors.
def elementary(axis, t):
    c, s = np.cos(t), np.sin(t)
    one, zero = np.ones_like(t), np.zeros_like(t)
    if axis == 0:
        rows = [[one, zero, zero], [zero, c, -s], [zero, s, c]]
    elif axis == 1:
        rows = [[c, zero, s], [zero, one, zero], [-s, zero, c]]
    else:
        rows = [[c, -s, zero], [s, c, zero], [zero, zero, one]]
    return np.moveaxis(np.array(rows), [0, 1], [-2, -1])


# BVH Euler channels "A B C": R = R_A(a) R_B(b) R_C(c), the order in the file (intrinsic, first channel outermost)
def euler_to_mat(order, angles_deg):
    angles = np.radians(np.asarray(angles_deg, dtype=np.float64))
    m = None
    for i, ax in enumerate(order):
        e = elementary(ax, angles[..., i])
        m = e if m is None else m @ e
    return m


# Inverse of euler_to_mat for three distinct axes (i, j, k), parity s = +1 for xyz/yzx/zxy, -1 otherwise:
# b = asin(s R[i,k]); a = atan2(-s R[j,k], R[k,k]); c = atan2(-s R[i,j], R[i,i])
def mat_to_euler(order, m):
    i, j, k = order
    s = 1.0 if (i, j, k) in ((0, 1, 2), (1, 2, 0), (2, 0, 1)) else -1.0
    m = np.asarray(m, dtype=np.float64)
    b = np.arcsin(np.clip(s * m[..., i, k], -1.0, 1.0))
    a = np.arctan2(-s * m[..., j, k], m[..., k, k])
    c = np.arctan2(-s * m[..., i, j], m[..., i, i])
    return np.degrees(np.stack([a, b, c], axis=-1))


class Bvh:
    def __init__(self, path):
        self.path = path
        text = open(path).read()
        head, motion = text.split("MOTION", 1)
        self.header = head
        tokens = head.split()
        self.names, self.parents, self.offsets, self.channels, self.end_site = [], [], [], [], []
        stack = []
        pos = 1  # after HIERARCHY
        while pos < len(tokens):
            tok = tokens[pos]
            if tok in ("ROOT", "JOINT"):
                self.names.append(tokens[pos + 1])
                self.parents.append(stack[-1] if stack else -1)
                self.channels.append([])
                self.offsets.append(np.zeros(3))
                self.end_site.append(False)
                pos += 2
            elif tok == "End":
                self.names.append(self.names[stack[-1]] + "_End")
                self.parents.append(stack[-1])
                self.channels.append([])
                self.offsets.append(np.zeros(3))
                self.end_site.append(True)
                pos += 2
            elif tok == "{":
                stack.append(len(self.names) - 1)
                pos += 1
            elif tok == "}":
                stack.pop()
                pos += 1
            elif tok == "OFFSET":
                self.offsets[stack[-1]] = np.array([float(x) for x in tokens[pos + 1: pos + 4]])
                pos += 4
            elif tok == "CHANNELS":
                n = int(tokens[pos + 1])
                self.channels[stack[-1]] = tokens[pos + 2: pos + 2 + n]
                pos += 2 + n
            else:
                raise ValueError("%s: unexpected token %r in HIERARCHY" % (path, tok))
        lines = motion.strip().splitlines()
        self.frame_count = int(lines[0].split(":")[1])
        self.frame_time = float(lines[1].split(":")[1])
        self.frames = np.array([[float(x) for x in ln.split()] for ln in lines[2: 2 + self.frame_count]])
        self.offsets = np.array(self.offsets)
        # column of each channel in a frame line: channels in hierarchy order
        self.columns = []
        col = 0
        for ch in self.channels:
            self.columns.append(list(range(col, col + len(ch))))
            col += len(ch)
        if self.frames.shape[1] != col:
            raise ValueError("%s: %d values per frame, %d channels" % (path, self.frames.shape[1], col))

    def rotation_order(self, j):
        return [ "XYZ".index(c[0].upper()) for c in self.channels[j] if c.lower().endswith("rotation")]

    def local(self, frames=None):
        """Local rotation (F, J, 3, 3) and translation (F, J, 3) per frame."""
        fr = self.frames if frames is None else frames
        f, nj = len(fr), len(self.names)
        rot = np.tile(np.eye(3), (f, nj, 1, 1))
        trans = np.repeat(self.offsets[None], f, 0).copy()
        for j, chans in enumerate(self.channels):
            order, angles = [], []
            for c, col in zip(chans, self.columns[j]):
                axis = "XYZ".index(c[0].upper())
                if c.lower().endswith("position"):
                    # translation channels add to the joint's OFFSET
                    trans[:, j, axis] += fr[:, col]
                else:
                    order.append(axis)
                    angles.append(fr[:, col])
            if order:
                rot[:, j] = euler_to_mat(order, np.stack(angles, axis=-1))
        return rot, trans

    def world(self, frames=None):
        """World rotation (F, J, 3, 3) and position (F, J, 3):
        R_w = R_w,parent R_local, p_w = p_w,parent + R_w,parent t_local."""
        rot, trans = self.local(frames)
        wr = np.empty_like(rot)
        wp = np.empty_like(trans)
        for j, p in enumerate(self.parents):
            if p < 0:
                wr[:, j], wp[:, j] = rot[:, j], trans[:, j]
            else:
                wr[:, j] = wr[:, p] @ rot[:, j]
                wp[:, j] = wp[:, p] + np.einsum("fab,fb->fa", wr[:, p], trans[:, j])
        return wr, wp

    def take(self, rate=None, times=None):
        """World matrices and positions; at `rate` Hz or `times` they are
        linearly interpolated between the file's frames (M = (1-u) M_k + u
        M_k+1, so a point fixed to a joint moves as a joint would)."""
        wm = self.matrices(*self.world())
        if rate is None and times is None:
            times = np.arange(self.frame_count) * self.frame_time
        else:
            if times is None:
                n = int(np.floor((self.frame_count - 1) * self.frame_time * rate + 1e-6)) + 1
                times = np.arange(n) / rate
            x = np.clip(np.asarray(times) / self.frame_time, 0, self.frame_count - 1)
            k = np.minimum(np.floor(x + 1e-9).astype(int), self.frame_count - 1)
            k1 = np.minimum(k + 1, self.frame_count - 1)
            u = (x - k)[:, None, None, None]
            wm = (1 - u) * wm[k] + u * wm[k1]
        # rest: every channel zero (OFFSETs only)
        rest = self.matrices(*self.world(np.zeros((1, self.frames.shape[1]))))[0]
        return Take(self.names, self.parents, times, wm[:, :, :3, 3], rest[:, :3, 3], frames=wm, rest_frames=rest)

    @staticmethod
    def matrices(rot, pos):
        """World 4x4 matrices (F, J, 4, 4) from rotations and positions."""
        m = np.zeros(rot.shape[:2] + (4, 4))
        m[..., :3, :3] = rot
        m[..., :3, 3] = pos
        m[..., 3, 3] = 1.0
        return m

    def write(self, path, frames, frame_time=None):
        """Write this hierarchy with new frames (F, channels)."""
        with open(path, "w") as f:
            f.write(self.header.rstrip() + "\nMOTION\n")
            f.write("Frames: %d\n" % len(frames))
            f.write("Frame Time: %.7f\n" % (frame_time or self.frame_time))
            for row in frames:
                f.write(" ".join("%.6f" % v for v in row) + "\n")


def read(path, anim=None, rate=60.0, times=None):
    """Take of any supported file: BVH (at `rate` Hz, or its own frames when
    rate is None) or glTF (animation `anim`, the first when None; rest if none)."""
    if path.lower().endswith(".bvh"):
        return Bvh(path).take(rate=rate, times=times)
    g = Gltf(path)
    anims = g.json.get("animations", [])
    if anim is None and anims:
        anim = 0
    return g.take(anim=anim, rate=rate or 60.0, times=times)
