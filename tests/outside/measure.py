"""Outside measures of a motion file (issue 25): limb directions against a
source take in each body's own frame, and skating, sinking, knee flips and
joint speeds found on the output itself. Input: reader.Take objects."""
import numpy as np

# ---------------------------------------------------------------- segment mapping

# Candidate joint names per role, first present wins; {Side} is Left/Right, {s} is L/R.
# A name "A@B" counts only when joint B exists too (CMU 131_0N: LeftShoulder is the
# upper arm where a LeftCollar is the clavicle; in 01_01 LeftShoulder is the clavicle).
# Names are compared after dropping any prefix ending in ':' (mixamorig:Hips).
ROLES = {
    "thigh": ["{Side}UpLeg", "{Side}Hip", "thigh.{s}", "UpperLeg.{s}", "leg_joint_{s}_1", "{Side}Thigh"],
    "knee": ["{Side}Leg", "{Side}Knee", "shin.{s}", "LowerLeg.{s}", "leg_joint_{s}_2", "{Side}Shin"],
    "ankle": ["{Side}Foot", "{Side}Ankle", "foot.{s}", "Foot.{s}", "leg_joint_{s}_3"],
    "toe": ["{Side}ToeBase", "{Side}Toe", "toe.{s}", "leg_joint_{s}_5"],
    "upperarm": ["{Side}Arm", "{Side}Shoulder@{Side}Collar", "upper_arm.{s}", "UpperArm.{s}", "arm_joint_{s}_1"],
    "elbow": ["{Side}ForeArm", "{Side}Elbow", "forearm.{s}", "LowerArm.{s}", "arm_joint_{s}_2"],
    "wrist": ["{Side}Hand", "{Side}Wrist", "hand.{s}", "Palm.{s}", "Palm2.{s}", "arm_joint_{s}_3"],
    "neck": ["Neck", "neck", "spine.004", "neck_joint_1"],
    "head": ["Head", "head", "spine.006", "spine.005", "neck_joint_2"],
}

SIDES = (("L", "Left", "L"), ("R", "Right", "R"))


def short(name):
    return name.rsplit(":", 1)[-1]


def map_roles(take):
    """role name ('thigh_L', 'neck', 'hips', ...) -> joint index in take."""
    by_short = {}
    for n, i in take.index.items():
        by_short.setdefault(short(n), i)
    prefer_skin = set(take.skin or [])
    for n, i in take.index.items():
        if i in prefer_skin:
            by_short[short(n)] = i

    def pick(cands, side=None, s=None):
        for c in cands:
            need = None
            if "@" in c:
                c, need = c.split("@")
            if side is not None:
                c = c.format(Side=side, s=s)
                need = need.format(Side=side, s=s) if need else None
            if c in by_short and (need is None or need in by_short):
                return by_short[c]
        return None

    roles = {}
    for role, cands in ROLES.items():
        if role in ("neck", "head"):
            roles[role] = pick(cands)
        else:
            for key, side, s in SIDES:
                roles[role + "_" + key] = pick(cands, side, s)
    # hips = the pelvis: the nearest common ancestor of both thigh joints
    a, b = roles["thigh_L"], roles["thigh_R"]
    if a is not None and b is not None:
        up_a = []
        p = take.parents[a]
        while p >= 0:
            up_a.append(p)
            p = take.parents[p]
        p = take.parents[b]
        while p >= 0 and p not in up_a:
            p = take.parents[p]
        roles["hips"] = p if p >= 0 else None
    else:
        roles["hips"] = None
    if roles["neck"] is None:
        roles["neck"] = roles["head"]
    missing = [k for k in ("hips", "neck", "thigh_L", "thigh_R", "knee_L", "knee_R", "ankle_L", "ankle_R",
                           "upperarm_L", "upperarm_R", "elbow_L", "elbow_R", "wrist_L", "wrist_R")
               if roles[k] is None]
    if missing:
        raise KeyError("no joint for %s among %s" % (missing, sorted(by_short)))
    return roles


# Segments: (group, upper joint role, lower joint role)
SEGMENTS = [("trunk", "hips", "neck")] + [
    (g, a + "_" + k, b + "_" + k)
    for k in ("L", "R")
    for g, a, b in (("upper_arm", "upperarm", "elbow"), ("forearm", "elbow", "wrist"),
                    ("thigh", "thigh", "knee"), ("shin", "knee", "ankle"))]
GROUPS = ("trunk", "upper_arm", "forearm", "thigh", "shin")
GOALS = {"trunk": (10, 20), "upper_arm": (10, 20), "forearm": (10, 20), "thigh": (20, 40), "shin": (20, 40)}


# ---------------------------------------------------------------- body frame

def unit(v):
    return v / np.maximum(np.linalg.norm(v, axis=-1, keepdims=True), 1e-12)


def up_axis(take, roles):
    """The signed world axis nearest to head - hips in the rest pose
    (argmax_i |d_i|, sign of d_i)."""
    d = take.rest[roles["head"] if roles["head"] is not None else roles["neck"]] - take.rest[roles["hips"]]
    i = int(np.argmax(np.abs(d)))
    up = np.zeros(3)
    up[i] = np.sign(d[i])
    return up


def body_frame(take, roles, up=None):
    """Per frame (F, 3, 3): rows left, up, forward.
    left = normalize((thigh_L - thigh_R) - ((thigh_L - thigh_R).up) up); forward = left x up."""
    up = up_axis(take, roles) if up is None else up
    d = take.positions[:, roles["thigh_L"]] - take.positions[:, roles["thigh_R"]]
    left = unit(d - (d @ up)[:, None] * up)
    upf = np.repeat(up[None], len(d), 0)
    fwd = np.cross(left, upf)
    return np.stack([left, upf, fwd], axis=1)


def segment_dirs(take, roles, frame):
    """Unit direction of each segment in its body frame: (F, S, 3) as (left, up, forward) components."""
    out = []
    for _, a, b in SEGMENTS:
        d = unit(take.positions[:, roles[b]] - take.positions[:, roles[a]])
        out.append(np.einsum("fij,fj->fi", frame, d))
    return np.stack(out, axis=1)


def limb_angles(source, target):
    """Angle (deg) between source and target segment directions, per frame and segment,
    angle = atan2(|a x b|, a.b); both takes sampled at the same times (the shorter length)."""
    rs, rt = map_roles(source), map_roles(target)
    n = min(len(source.times), len(target.times))
    ds = segment_dirs(source, rs, body_frame(source, rs))[:n]
    dt = segment_dirs(target, rt, body_frame(target, rt))[:n]
    ang = np.degrees(np.arctan2(np.linalg.norm(np.cross(ds, dt), axis=-1), np.sum(ds * dt, axis=-1)))
    return ang


def limb_report(source, target):
    """Per group: median and 95th percentile (deg) over all frames and both sides; also the
    worst frame and segment."""
    ang = limb_angles(source, target)
    rep = {}
    for g in GROUPS:
        cols = [i for i, s in enumerate(SEGMENTS) if s[0] == g]
        a = ang[:, cols]
        worst = np.unravel_index(np.argmax(a), a.shape)
        rep[g] = {"median": float(np.median(a)), "p95": float(np.percentile(a, 95)),
                  "max": float(a.max()), "worst_frame": int(worst[0]),
                  "worst_segment": SEGMENTS[cols[worst[1]]][1] + "->" + SEGMENTS[cols[worst[1]]][2]}
    return rep, ang


# ---------------------------------------------------------------- skating on the output

def velocities(pos, times):
    """Central differences v_k = (p_k+1 - p_k-1) / (t_k+1 - t_k-1); one-sided at the ends."""
    return np.gradient(pos, times, axis=0)


def runs(mask, min_len):
    """Maximal runs of True of at least min_len frames: [(start, end_exclusive)]."""
    out, start = [], None
    for i, m in enumerate(list(mask) + [False]):
        if m and start is None:
            start = i
        elif not m and start is not None:
            if i - start >= min_len:
                out.append((start, i))
            start = None
    return out


# A foot without a toe joint stands on the ball of its foot: a point carried
# by the ankle joint, at rest on the floor under the foot and ahead of the
# ankle. Proportions of the leg L (hip to ankle, 0.530 H - 0.039 H = 0.491 H
# of stature H) from Drillis & Contini's segment lengths (as drawn in
# Winter, Biomechanics and Motor Control of Human Movement, fig. 4.1): the
# ankle stands 0.039 H = 0.079 L over the floor, and the ball lies half a
# foot length (0.152 H / 2 = 0.155 L) ahead of the ankle.
BALL_DOWN = 0.039 / 0.491
BALL_AHEAD = 0.076 / 0.491


def hangs_from(take, joint, ancestor):
    while joint >= 0 and joint != ancestor:
        joint = take.parents[joint]
    return joint == ancestor


def foot_paths(take, roles, up):
    """Per side, the path (F, 3) of the point the foot stands on: the toe
    joint; where the foot has none, the ball: at rest
    B = A - 0.079 L up + 0.155 L forward (A the ankle, L = thigh + shin at
    rest, forward = left x up of the rest hips), carried by the ankle; and
    a foot joint that does not hang from the knee (robot.glb's Foot.L, an
    IK control on the floor) is its own point."""
    out = {}
    for k in ("L", "R"):
        if roles.get("toe_" + k) is not None:
            out[k] = take.positions[:, roles["toe_" + k]]
            continue
        if not hangs_from(take, roles["ankle_" + k], roles["knee_" + k]):
            out[k] = take.positions[:, roles["ankle_" + k]]
            continue
        hip, knee, ankle = (take.rest[roles[r + "_" + k]] for r in ("thigh", "knee", "ankle"))
        length = np.linalg.norm(knee - hip) + np.linalg.norm(ankle - knee)
        d = take.rest[roles["thigh_L"]] - take.rest[roles["thigh_R"]]
        forward = np.cross(unit(d - (d @ up) * up), up)
        out[k] = take.attached(roles["ankle_" + k], ankle - BALL_DOWN * length * up + BALL_AHEAD * length * forward)
    return out


def skating(take, metres_per_unit=1.0, height=0.04, speed=0.25, min_frames=3, floor_pct=5.0):
    """Contacts found on the output itself and how far they slide.
    p: the toe joint, or the ball of a foot without one (foot_paths);
    h = p.up (m); floor = 5th percentile of both feet's point heights over the take;
    grounded: h - floor < 4 cm and |v| < 25 cm/s (central differences at the take's rate),
    in runs of 3+ frames. slide = max_{i,j in run} |(p_i - p_j) - ((p_i - p_j).up) up|;
    sink = max over grounded frames of (floor - h)."""
    roles = map_roles(take)
    up = up_axis(take, roles)
    pos = {k: p * metres_per_unit for k, p in foot_paths(take, roles, up).items()}
    h = {k: p @ up for k, p in pos.items()}
    floor = float(np.percentile(np.concatenate([h["L"], h["R"]]), floor_pct))
    contacts = []
    sink = 0.0
    for k, p in pos.items():
        v = np.linalg.norm(velocities(p, take.times), axis=1)
        grounded = (h[k] - floor < height) & (v < speed)
        for a, b in runs(grounded, min_frames):
            q = p[a:b]
            q = q - (q @ up)[:, None] * up
            dif = q[:, None, :] - q[None, :, :]
            slide = float(np.sqrt((dif ** 2).sum(-1)).max())
            depth = float(np.max(floor - h[k][a:b]))
            sink = max(sink, depth)
            contacts.append({"foot": k, "start": a, "end": b, "slide": slide, "sink": max(depth, 0.0)})
    slides = np.array([c["slide"] for c in contacts]) if contacts else np.zeros(0)
    return {"floor": floor, "up": up.tolist(), "contacts": contacts, "count": len(contacts),
            "max_slide": float(slides.max()) if len(slides) else 0.0,
            "median_slide": float(np.median(slides)) if len(slides) else 0.0,
            "over_5mm": int((slides > 0.005).sum()), "over_1cm": int((slides > 0.01).sum()),
            "sink": max(sink, 0.0)}


def knee_flips(take, bend_min=15.0, behind=0.25):
    """Frames where a knee bent more than 15 deg points backwards.
    bend = angle(knee - hip, ankle - knee); d = the knee's offset from the hip-ankle line,
    d = k - (k.a^) a^ with k = knee - hip, a = ankle - hip; f_perp = the body forward with its
    a^ component removed, normalised. Flipped when bend > 15 deg and d^.f_perp < -0.25 (the
    knee behind the line by more than ~15 deg from sideways), a test that needs no rest sign
    (CMU rests with straight legs) and is the same on mirrored rigs (the frame comes from the joints)."""
    roles = map_roles(take)
    frame = body_frame(take, roles)
    fwd = frame[:, 2]
    flips = {}
    for k in ("L", "R"):
        hip = take.positions[:, roles["thigh_" + k]]
        knee = take.positions[:, roles["knee_" + k]]
        ankle = take.positions[:, roles["ankle_" + k]]
        kk, a = knee - hip, unit(ankle - hip)
        bend = np.degrees(np.arccos(np.clip(np.sum(unit(kk) * unit(ankle - knee), -1), -1, 1)))
        d = unit(kk - np.sum(kk * a, -1)[:, None] * a)
        fp = unit(fwd - np.sum(fwd * a, -1)[:, None] * a)
        flips[k] = np.nonzero((bend > bend_min) & (np.sum(d * fp, -1) < -behind))[0]
    return flips


def joint_speeds(take, metres_per_unit=1.0):
    """|v| per frame and joint (m/s) for the skin joints (all joints of a BVH)."""
    idx = take.skin or list(range(len(take.names)))
    return np.linalg.norm(velocities(take.positions[:, idx] * metres_per_unit, take.times), axis=-1)


def added_speed(before, after, metres_per_unit=1.0):
    """max over joints and frames of |v_after - v_before| (same rig, same times)."""
    idx = after.skin or list(range(len(after.names)))
    n = min(len(before.times), len(after.times))
    va = velocities(after.positions[:n, idx] * metres_per_unit, after.times[:n])
    vb = velocities(before.positions[:n, idx] * metres_per_unit, before.times[:n])
    return float(np.linalg.norm(va - vb, axis=-1).max())


def measure(source, output, metres_per_unit=1.0):
    """Everything for one output file against its source take."""
    rep, _ = limb_report(source, output)
    sk = skating(output, metres_per_unit)
    fl = knee_flips(output)
    return {"limbs": rep, "skating": sk, "knee_flips": {k: v.tolist() for k, v in fl.items()},
            "flip_count": int(sum(len(v) for v in fl.values())),
            "max_speed": float(joint_speeds(output, metres_per_unit).max())}
