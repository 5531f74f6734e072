"""Rig and take variants for the outside measure (issue 25). Files are written
into a folder the caller gives (never into the repository); the shared assets
are read from $IKIT_DATA or /work/shared/data.

    /usr/bin/python3 tests/outside/variants.py OUT_DIR     # writes every variant, checks them
"""
import copy
import json
import os
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reader  # noqa: E402
import measure  # noqa: E402


def data_dir():
    return os.environ.get("IKIT_DATA", "/work/shared/data")


# ---------------------------------------------------------------- Mixamo names

MIXAMO_SIDE = {
    # Rigify (male_base_mesh.glb)
    "thigh": "UpLeg", "shin": "Leg", "foot": "Foot", "toe": "ToeBase", "shoulder": "Shoulder",
    "upper_arm": "Arm", "forearm": "ForeArm", "hand": "Hand",
    "thumb.01": "HandThumb1", "thumb.02": "HandThumb2", "thumb.03": "HandThumb3",
    "f_index.01": "HandIndex1", "f_index.02": "HandIndex2", "f_index.03": "HandIndex3",
    "f_middle.01": "HandMiddle1", "f_middle.02": "HandMiddle2", "f_middle.03": "HandMiddle3",
    "f_ring.01": "HandRing1", "f_ring.02": "HandRing2", "f_ring.03": "HandRing3",
    "f_pinky.01": "HandPinky1", "f_pinky.02": "HandPinky2", "f_pinky.03": "HandPinky3",
    # girl.glb
    "UpperLeg": "UpLeg", "LowerLeg": "Leg", "Foot": "Foot", "Shoulder": "Shoulder", "UpperArm": "Arm",
    "LowerArm": "ForeArm", "Palm": "Hand",
}
MIXAMO_CENTRE = {"spine": "Hips", "spine.001": "Spine", "spine.002": "Spine1", "spine.003": "Spine2",
                 "spine.004": "Neck", "spine.005": "Head",
                 "Root": "Hips", "LowerSpine": "Spine", "UpperSpine": "Spine1", "Neck": "Neck", "Head": "Head"}


def mixamo_name(name, prefix="mixamorig:"):
    """Mixamo name of a Rigify or girl.glb joint; others keep their name, prefixed."""
    if name in MIXAMO_CENTRE:
        return prefix + MIXAMO_CENTRE[name]
    for suffix, side in ((".L", "Left"), (".R", "Right")):
        if name.endswith(suffix) and name[:-2] in MIXAMO_SIDE:
            return prefix + side + MIXAMO_SIDE[name[:-2]]
    return prefix + name


# ---------------------------------------------------------------- GLB editing

class GlbEdit:
    """A glTF held as JSON plus one binary buffer; new data is appended."""

    def __init__(self, path):
        self.src = reader.Gltf(path)
        self.json = copy.deepcopy(self.src.json)
        if len(self.src.buffers) != 1:
            raise ValueError("one buffer expected")
        self.bin = bytearray(self.src.buffers[0])
        self.json["buffers"] = [{"byteLength": len(self.bin)}]

    def accessor(self, i):
        return self.src.accessor(i)

    def add_accessor(self, arr, kind, minmax=False):
        arr = np.ascontiguousarray(arr, dtype=np.float32)
        while len(self.bin) % 4:
            self.bin.append(0)
        off = len(self.bin)
        self.bin.extend(arr.tobytes())
        self.json["bufferViews"].append({"buffer": 0, "byteOffset": off, "byteLength": arr.nbytes})
        acc = {"bufferView": len(self.json["bufferViews"]) - 1, "componentType": 5126,
               "count": int(arr.shape[0]), "type": kind}
        if minmax:
            acc["min"] = arr.min(axis=0).tolist()
            acc["max"] = arr.max(axis=0).tolist()
        self.json["accessors"].append(acc)
        return len(self.json["accessors"]) - 1

    def save(self, path):
        while len(self.bin) % 4:
            self.bin.append(0)
        self.json["buffers"] = [{"byteLength": len(self.bin)}]
        js = json.dumps(self.json, separators=(",", ":")).encode("utf-8")
        js += b" " * ((4 - len(js) % 4) % 4)
        total = 12 + 8 + len(js) + 8 + len(self.bin)
        with open(path, "wb") as f:
            f.write(struct.pack("<4sII", b"glTF", 2, total))
            f.write(struct.pack("<II", len(js), 0x4E4F534A) + js)
            f.write(struct.pack("<II", len(self.bin), 0x004E4942) + bytes(self.bin))


def _ibm(edit, skin):
    # IBMs are column-major MAT4: reshape (n, 4, 4) and transpose each
    return edit.accessor(skin["inverseBindMatrices"]).reshape(-1, 4, 4).transpose(0, 2, 1)


def _skinned_prims(edit):
    """(mesh primitive, skin index) of every skinned mesh node."""
    out = []
    for nd in edit.json["nodes"]:
        if "mesh" in nd and "skin" in nd:
            for prim in edit.json["meshes"][nd["mesh"]]["primitives"]:
                out.append((prim, nd["skin"]))
    return out


def skinned_rest(path):
    """Rest-pose skinned vertex positions of every skinned primitive (linear blend skinning):
    v_w = sum_i w_i W_j_i IBM_j_i v."""
    g = reader.Gltf(path)
    world = g.world()[0]
    out = []
    for nd in g.json["nodes"]:
        if "mesh" in nd and "skin" in nd:
            skin = g.json["skins"][nd["skin"]]
            ibm = g.accessor(skin["inverseBindMatrices"]).reshape(-1, 4, 4).transpose(0, 2, 1)
            mats = world[skin["joints"]] @ ibm
            for prim in g.json["meshes"][nd["mesh"]]["primitives"]:
                a = prim["attributes"]
                v = g.accessor(a["POSITION"])
                j = g.accessor(a["JOINTS_0"]).astype(int)
                w = g.accessor(a["WEIGHTS_0"])
                m = np.einsum("vi,vijk->vjk", w, mats[j])
                out.append(np.einsum("vjk,vk->vj", m[:, :3, :3], v) + m[:, :3, 3])
    return out


def _apose(edit, skin_index, degrees):
    """Upper arms turned `degrees` down at rest (about the axis d x (-up), d the upper arm's
    world direction): R_local' = P^-1 R_w P R_local with P the parent's world rotation; then the
    mesh baked into the new rest (v' = sum_i w_i W'_j IBM_j v, normals by the rotation part) and
    IBM' = W'^-1."""
    g = edit.src
    nodes = edit.json["nodes"]
    take = g.take()
    roles = measure.map_roles(take)
    up = measure.up_axis(take, roles)
    world0 = g.world()[0]
    for k in ("L", "R"):
        j, e = roles["upperarm_" + k], roles["elbow_" + k]
        d = measure.unit(world0[e, :3, 3] - world0[j, :3, 3])
        rw = reader.axis_angle(np.cross(d, -up), np.radians(degrees))
        p = world0[g.parents[j], :3, :3]
        p = p / np.linalg.norm(p, axis=0, keepdims=True)
        rl = reader.quat_to_mat(nodes[j].get("rotation", [0, 0, 0, 1]))
        nodes[j]["rotation"] = reader.mat_to_quat(np.linalg.inv(p) @ rw @ p @ rl).tolist()
    # world rest after the change, by this edit's JSON
    tmp = reader.Gltf.__new__(reader.Gltf)
    tmp.__dict__.update(g.__dict__)
    tmp.json = edit.json
    tmp.nodes = nodes
    world1 = tmp.world()[0]
    skin = edit.json["skins"][skin_index]
    ibm = _ibm(edit, skin)
    joints = skin["joints"]
    mats = world1[joints] @ ibm
    done = {}
    for prim, s in _skinned_prims(edit):
        if s != skin_index:
            continue
        a = prim["attributes"]
        if a["POSITION"] in done:
            a["POSITION"], a["NORMAL"] = done[a["POSITION"]]
            continue
        v = edit.accessor(a["POSITION"])
        jj = edit.accessor(a["JOINTS_0"]).astype(int)
        w = edit.accessor(a["WEIGHTS_0"])
        m = np.einsum("vi,vijk->vjk", w, mats[jj])
        v2 = np.einsum("vjk,vk->vj", m[:, :3, :3], v) + m[:, :3, 3]
        key = a["POSITION"]
        a["POSITION"] = edit.add_accessor(v2, "VEC3", minmax=True)
        if "NORMAL" in a:
            n = measure.unit(np.einsum("vjk,vk->vj", m[:, :3, :3], edit.accessor(a["NORMAL"])))
            a["NORMAL"] = edit.add_accessor(n, "VEC3")
        done[key] = (a["POSITION"], a.get("NORMAL"))
    new_ibm = np.linalg.inv(world1[joints])
    skin["inverseBindMatrices"] = edit.add_accessor(new_ibm.transpose(0, 2, 1).reshape(-1, 16), "MAT4")
    # later steps read the edited arrays through a fresh reader of the saved state
    return world1


def mixamo_like(src_glb, out_glb, zup=False, apose=0.0, prefix="mixamorig:", rename=True):
    """Mixamo-style copy: joints renamed (prefix), an armature node of scale 0.01 (and
    Rx(-90) when zup) inserted above the skeleton's root, every translation under it x100,
    IBM' = S(100) IBM S(0.01) and skinned positions v' = 100 v (so W' IBM' v' = W IBM v);
    animation translations under it x100. apose: upper arms turned that many degrees down at
    rest first (baked). rename=False keeps the names (to tell a naming problem from a scale one)."""
    edit = GlbEdit(src_glb)
    if apose:
        _apose(edit, 0, apose)
        # re-read through a temporary file so later steps see the baked arrays
        tmp = out_glb + ".apose.tmp.glb"
        edit.save(tmp)
        edit = GlbEdit(tmp)
        os.remove(tmp)
    js = edit.json
    nodes = js["nodes"]
    skin = js["skins"][0]
    joints = set(skin["joints"])
    parents = [-1] * len(nodes)
    for i, nd in enumerate(nodes):
        for c in nd.get("children", []):
            parents[c] = i
    roots = [j for j in skin["joints"] if parents[j] not in joints]
    holder = parents[roots[0]]
    moved = [c for c in (nodes[holder].get("children", []) if holder >= 0 else js["scenes"][js.get("scene", 0)]["nodes"])
             if c in joints]
    arm = {"name": "Armature" if all(n.get("name") != "Armature" for n in nodes) else "mixamo_armature",
           "scale": [0.01, 0.01, 0.01], "children": moved}
    if zup:
        # Rx(-90) as a quaternion: (-sin 45, 0, 0, cos 45)
        arm["rotation"] = [-np.sqrt(0.5), 0.0, 0.0, np.sqrt(0.5)]
    nodes.append(arm)
    a_idx = len(nodes) - 1
    if holder >= 0:
        nodes[holder]["children"] = [c for c in nodes[holder]["children"] if c not in moved] + [a_idx]
    else:
        sc = js["scenes"][js.get("scene", 0)]
        sc["nodes"] = [c for c in sc["nodes"] if c not in moved] + [a_idx]
    # every node under the armature: translation x100 (matrix nodes: their translation column)
    under, stack = set(), list(moved)
    while stack:
        i = stack.pop()
        under.add(i)
        stack.extend(nodes[i].get("children", []))
    for i in under:
        nd = nodes[i]
        if "matrix" in nd:
            m = np.array(nd["matrix"], dtype=np.float64)
            m[12:15] *= 100.0
            nd["matrix"] = m.tolist()
        elif "translation" in nd:
            nd["translation"] = (np.array(nd["translation"]) * 100.0).tolist()
    if zup:
        # content stored Z-up: each child c of the armature gets L_c' = Rx(+90) L_c, so Rx(-90) S L_c' = S L_c
        rx = reader.axis_angle([1, 0, 0], np.pi / 2)
        qx = reader.mat_to_quat(rx)
        for c in moved:
            nd = nodes[c]
            nd["translation"] = (rx @ np.array(nd.get("translation", [0, 0, 0]))).tolist()
            q = np.array(nd.get("rotation", [0, 0, 0, 1.0]))
            nd["rotation"] = reader.mat_to_quat(rx @ reader.quat_to_mat(q)).tolist()
            for an in js.get("animations", []):
                for ch in an["channels"]:
                    if ch["target"].get("node") == c and ch["target"]["path"] in ("translation", "rotation"):
                        raise NotImplementedError("zup with an animated skeleton root")
    # animation translations under the armature x100 (one new output per sampler)
    for an in js.get("animations", []):
        for ch in an["channels"]:
            if ch["target"].get("node") in under and ch["target"]["path"] == "translation":
                smp = an["samplers"][ch["sampler"]]
                smp["output"] = edit.add_accessor(edit.accessor(smp["output"]) * 100.0, "VEC3")
    # IBM' = S(100) IBM S(0.01) for joints under the armature
    if "inverseBindMatrices" in skin:
        ibm = _ibm(edit, skin)
        s100, s001 = np.diag([100.0, 100, 100, 1]), np.diag([0.01, 0.01, 0.01, 1])
        for k, j in enumerate(skin["joints"]):
            if j in under:
                ibm[k] = s100 @ ibm[k] @ s001
        skin["inverseBindMatrices"] = edit.add_accessor(ibm.transpose(0, 2, 1).reshape(-1, 16), "MAT4")
    done = {}
    for prim, s in _skinned_prims(edit):
        a = prim["attributes"]
        if a["POSITION"] not in done:
            done[a["POSITION"]] = edit.add_accessor(edit.accessor(a["POSITION"]) * 100.0, "VEC3", minmax=True)
        a["POSITION"] = done[a["POSITION"]]
    for j in skin["joints"] if rename else []:
        nodes[j]["name"] = mixamo_name(nodes[j].get("name", "joint%d" % j), prefix)
    edit.save(out_glb)
    return out_glb


def joint_match(original, variant, prefix="mixamorig:"):
    """Largest distance (file units) between the rest world positions of each original skin
    joint and its renamed copy (prefix "": names kept)."""
    a = reader.Gltf(original).take()
    b = reader.Gltf(variant).take()
    worst = 0.0
    for j in a.skin:
        n = a.names[j]
        m = mixamo_name(n, prefix) if prefix else n
        worst = max(worst, float(np.linalg.norm(a.rest[j] - b.rest[b.index[m]])))
    return worst


def rig_variants(out_dir):
    """Every rig variant: name -> path."""
    g = os.path.join(data_dir(), "gltf")
    out = {}
    out["mixamo_male"] = mixamo_like(os.path.join(g, "male_base_mesh.glb"), os.path.join(out_dir, "mixamo_male.glb"))
    out["mixamo_male_zup"] = mixamo_like(os.path.join(g, "male_base_mesh.glb"),
                                         os.path.join(out_dir, "mixamo_male_zup.glb"), zup=True)
    out["mixamo_male_apose"] = mixamo_like(os.path.join(g, "male_base_mesh.glb"),
                                           os.path.join(out_dir, "mixamo_male_apose.glb"), apose=40.0)
    out["mixamo_girl"] = mixamo_like(os.path.join(g, "girl.glb"), os.path.join(out_dir, "mixamo_girl.glb"))
    # the 0.01 armature and centimetres alone, names kept: tells a scale problem from a naming one
    out["scaled_male"] = mixamo_like(os.path.join(g, "male_base_mesh.glb"), os.path.join(out_dir, "scaled_male.glb"),
                                     rename=False)
    return out


# ---------------------------------------------------------------- synthetic BVH takes

def _edit_thighs(bvh, angle_fn, flex_fn=None):
    """Each thigh turned about the body's forward axis f by +angle (left) / -angle (right), in
    the parent's frame: R_local' = P^T R(f, a) P R_local (P the parent's world rotation); flex_fn
    adds a turn about the body's left axis. Euler angles written back in the joint's channel order.
    Then the root is lowered so the lowest foot point of each frame stays at its old height."""
    take = bvh.take()
    roles = measure.map_roles(take)
    up = measure.up_axis(take, roles)
    frame = measure.body_frame(take, roles, up)
    wr, _ = bvh.world()
    rot, _ = bvh.local()
    frames = bvh.frames.copy()
    t = np.arange(bvh.frame_count) * bvh.frame_time
    for k, sign in (("L", 1.0), ("R", -1.0)):
        j = roles["thigh_" + k]
        p = wr[:, bvh.parents[j]]
        order = bvh.rotation_order(j)
        cols = [c for c, ch in zip(bvh.columns[j], bvh.channels[j]) if ch.lower().endswith("rotation")]
        ang = np.radians(angle_fn(t)) * sign
        for f in range(bvh.frame_count):
            rw = reader.axis_angle(frame[f, 2], ang[f])
            if flex_fn is not None:
                rw = reader.axis_angle(frame[f, 0], np.radians(flex_fn(t[f], k))) @ rw
            new = p[f].T @ rw @ p[f] @ rot[f, j]
            frames[f, cols] = reader.mat_to_euler(order, new)
    # root height: shift along up by the change of the lowest foot point (ankles and toes)
    feet = [roles[r] for r in ("ankle_L", "ankle_R", "toe_L", "toe_R") if roles.get(r) is not None]
    _, before = bvh.world()
    _, after = bvh.world(frames)
    drop = (after[:, feet] @ up).min(axis=1) - (before[:, feet] @ up).min(axis=1)
    root = [i for i, p in enumerate(bvh.parents) if p < 0][0]
    for c, ch in zip(bvh.columns[root], bvh.channels[root]):
        if ch.lower().endswith("position"):
            frames[:, c] -= drop * up["XYZ".index(ch[0].upper())]
    return frames


def sideways(src_bvh, out_bvh):
    """Legs out to the sides: thighs abducted by 27.5 + 7.5 sin(2 pi t / 4 s) degrees (20..35)."""
    b = reader.Bvh(src_bvh)
    b.write(out_bvh, _edit_thighs(b, lambda t: 27.5 + 7.5 * np.sin(2 * np.pi * t / 4.0)))
    return out_bvh


def crossover(src_bvh, out_bvh):
    """Legs crossing in front: thighs adducted by 15 + 3 sin(2 pi t / 3 s) degrees, the left
    thigh also flexed 8 degrees forward so it passes in front."""
    b = reader.Bvh(src_bvh)
    b.write(out_bvh, _edit_thighs(b, lambda t: -(15 + 3 * np.sin(2 * np.pi * t / 3.0)),
                                  lambda t, k: -8.0 if k == "L" else 0.0))
    return out_bvh


def backwards(src_bvh, out_bvh):
    """The take played in reverse frame order."""
    b = reader.Bvh(src_bvh)
    b.write(out_bvh, b.frames[::-1])
    return out_bvh


def take_variants(out_dir):
    b = os.path.join(data_dir(), "bvh")
    return {
        "sideways_131_01": sideways(os.path.join(b, "131_01.bvh"), os.path.join(out_dir, "sideways_131_01.bvh")),
        "backwards_131_01": backwards(os.path.join(b, "131_01.bvh"), os.path.join(out_dir, "backwards_131_01.bvh")),
        "crossover_131_02": crossover(os.path.join(b, "131_02.bvh"), os.path.join(out_dir, "crossover_131_02.bvh")),
    }


def euler_roundtrip(bvh_path):
    """Largest change (deg) of any rotation channel after matrix -> Euler -> matrix, compared
    as rotation matrices (angle of R1^T R2)."""
    b = reader.Bvh(bvh_path)
    rot, _ = b.local()
    worst = 0.0
    for j in range(len(b.names)):
        order = b.rotation_order(j)
        if len(order) != 3:
            continue
        e = reader.mat_to_euler(order, rot[:, j])
        back = reader.euler_to_mat(order, e)
        c = (np.einsum("fij,fij->f", rot[:, j], back) - 1) / 2
        worst = max(worst, float(np.degrees(np.arccos(np.clip(c, -1, 1))).max()))
    return worst


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/om/variants"
    os.makedirs(out, exist_ok=True)
    g = os.path.join(data_dir(), "gltf")
    for name, path in rig_variants(out).items():
        src = "girl.glb" if "girl" in name else "male_base_mesh.glb"
        prefix = "" if name.startswith("scaled") else "mixamorig:"
        print("%-20s %s  joints off by %.2e m" % (name, path, joint_match(os.path.join(g, src), path, prefix)))
    for name, path in take_variants(out).items():
        print("%-20s %s  Euler round trip %.2e deg" % (name, path, euler_roundtrip(path)))
