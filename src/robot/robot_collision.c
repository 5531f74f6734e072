/* ikit robot collision: capsules on links, obstacles, clearances (see
 * robot_collision.h). Geometry runs in double in both builds. */
#include <ikit/robot_collision.h>

#include <math.h>
#include <string.h>

#define FAR_AWAY 1e30

typedef struct d3 {
    double x, y, z;
} d3;

/* A rigid frame in double: rotation matrix rows r[3][3] and translation t. */
typedef struct frame_d {
    double r[3][3];
    d3 t;
} frame_d;

static d3 d3_make(double x, double y, double z) {
    d3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}
static d3 d3_of(ik_vec3 v) { return d3_make((double)v.x, (double)v.y, (double)v.z); }
static d3 d3_sub(d3 a, d3 b) { return d3_make(a.x - b.x, a.y - b.y, a.z - b.z); }
static d3 d3_add(d3 a, d3 b) { return d3_make(a.x + b.x, a.y + b.y, a.z + b.z); }
static d3 d3_scale(d3 a, double s) { return d3_make(a.x * s, a.y * s, a.z * s); }
static double d3_dot(d3 a, d3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static double d3_len(d3 a) { return sqrt(d3_dot(a, a)); }
static double clamp01(double t) { return t < 0 ? 0 : (t > 1 ? 1 : t); }

/* The frame of a transform (its rotation normalised; its scale ignored: chain
 * and obstacle frames have unit scale). */
static frame_d frame_of(ik_transform t) {
    frame_d f;
    double x = (double)t.rotation.x, y = (double)t.rotation.y, z = (double)t.rotation.z, w = (double)t.rotation.w;
    double n = sqrt(x * x + y * y + z * z + w * w);
    if (n > 0) {
        x /= n;
        y /= n;
        z /= n;
        w /= n;
    } else {
        w = 1;
    }
    f.r[0][0] = 1 - 2 * (y * y + z * z);
    f.r[0][1] = 2 * (x * y - z * w);
    f.r[0][2] = 2 * (x * z + y * w);
    f.r[1][0] = 2 * (x * y + z * w);
    f.r[1][1] = 1 - 2 * (x * x + z * z);
    f.r[1][2] = 2 * (y * z - x * w);
    f.r[2][0] = 2 * (x * z - y * w);
    f.r[2][1] = 2 * (y * z + x * w);
    f.r[2][2] = 1 - 2 * (x * x + y * y);
    f.t = d3_of(t.translation);
    return f;
}

static d3 frame_apply(const frame_d *f, d3 p) {
    return d3_make(f->r[0][0] * p.x + f->r[0][1] * p.y + f->r[0][2] * p.z + f->t.x,
                   f->r[1][0] * p.x + f->r[1][1] * p.y + f->r[1][2] * p.z + f->t.y,
                   f->r[2][0] * p.x + f->r[2][1] * p.y + f->r[2][2] * p.z + f->t.z);
}

/* The frame a b (b's local coordinates into a's parent). */
static frame_d frame_mul(const frame_d *a, const frame_d *b) {
    frame_d c;
    int i, j;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) c.r[i][j] = a->r[i][0] * b->r[0][j] + a->r[i][1] * b->r[1][j] + a->r[i][2] * b->r[2][j];
    c.t = frame_apply(a, b->t);
    return c;
}

/* p in frame f's local coordinates: R^T (p - t). */
static d3 frame_local(const frame_d *f, d3 p) {
    d3 d = d3_sub(p, f->t);
    return d3_make(f->r[0][0] * d.x + f->r[1][0] * d.y + f->r[2][0] * d.z,
                   f->r[0][1] * d.x + f->r[1][1] * d.y + f->r[2][1] * d.z,
                   f->r[0][2] * d.x + f->r[1][2] * d.y + f->r[2][2] * d.z);
}

/* Closest points of segments p1-q1 and p2-q2: the squared distance
 * (Ericson 2005, 5.1.9: minimise |p1 + s d1 - p2 - t d2|^2 over the unit
 * square, clamping s, then t, then s again). */
static double segment_segment_sq(d3 p1, d3 q1, d3 p2, d3 q2) {
    d3 d1 = d3_sub(q1, p1), d2 = d3_sub(q2, p2), r = d3_sub(p1, p2), c1, c2;
    double a = d3_dot(d1, d1), e = d3_dot(d2, d2), f = d3_dot(d2, r), s, t;
    const double tiny = 1e-300;
    if (a <= tiny && e <= tiny) return d3_dot(r, r);
    if (a <= tiny) {
        s = 0;
        t = clamp01(f / e);
    } else {
        double c = d3_dot(d1, r);
        if (e <= tiny) {
            t = 0;
            s = clamp01(-c / a);
        } else {
            double b = d3_dot(d1, d2), denom = a * e - b * b;
            s = denom > 1e-18 * a * e ? clamp01((b * f - c * e) / denom) : 0;
            t = (b * s + f) / e;
            if (t < 0) {
                t = 0;
                s = clamp01(-c / a);
            } else if (t > 1) {
                t = 1;
                s = clamp01((b - c) / a);
            }
        }
    }
    c1 = d3_add(p1, d3_scale(d1, s));
    c2 = d3_add(p2, d3_scale(d2, t));
    r = d3_sub(c1, c2);
    return d3_dot(r, r);
}

static double point_segment_sq(d3 p, d3 a, d3 b) {
    d3 ab = d3_sub(b, a), ap = d3_sub(p, a), c;
    double l = d3_dot(ab, ab), t = l > 0 ? clamp01(d3_dot(ap, ab) / l) : 0;
    c = d3_sub(ap, d3_scale(ab, t));
    return d3_dot(c, c);
}

/* The offset from a local point to the box [-h, h] (zero inside). */
static d3 box_offset(d3 p, d3 h) {
    d3 o;
    o.x = p.x > h.x ? p.x - h.x : (p.x < -h.x ? p.x + h.x : 0);
    o.y = p.y > h.y ? p.y - h.y : (p.y < -h.y ? p.y + h.y : 0);
    o.z = p.z > h.z ? p.z - h.z : (p.z < -h.z ? p.z + h.z : 0);
    return o;
}

/* Distance from segment a-b (box-local) to the box [-h, h]: g(t) =
 * |offset(a + t d)|^2 is convex, its derivative 2 offset . d grows with t;
 * bisection on that sign finds the minimiser to 2^-48 of the segment, and
 * the distance is lowered by |d| 2^-47 (what the last interval can hide). */
static double segment_box_distance(d3 a, d3 b, d3 h) {
    d3 d = d3_sub(b, a);
    double lo = 0, hi = 1, t, length = d3_len(d);
    int k;
    if (d3_dot(box_offset(a, h), d) >= 0) {
        t = 0;
    } else if (d3_dot(box_offset(b, h), d) <= 0) {
        t = 1;
    } else {
        for (k = 0; k < 48; ++k) {
            double mid = 0.5 * (lo + hi);
            if (d3_dot(box_offset(d3_add(a, d3_scale(d, mid)), h), d) < 0)
                lo = mid;
            else
                hi = mid;
        }
        t = 0.5 * (lo + hi);
    }
    {
        double dist = d3_len(box_offset(d3_add(a, d3_scale(d, t)), h)) - length * 7.2e-15;
        return dist > 0 ? dist : 0;
    }
}

const char *ik_collision_pair_state_str(ik_collision_pair_state state) {
    switch (state) {
        case IK_PAIR_CHECKED:
            return "checked";
        case IK_PAIR_ADJACENT:
            return "adjacent";
        case IK_PAIR_AT_REST:
            return "at rest";
        case IK_PAIR_NEVER:
            return "never";
        case IK_PAIR_DISABLED:
            return "disabled";
        case IK_PAIR_EMPTY:
            return "empty";
    }
    return "unknown";
}

void ik_robot_collision_model_init(ik_robot_collision_model *model) {
    if (model) memset(model, 0, sizeof *model);
}

ik_result ik_robot_collision_add_link(ik_robot_collision_model *model, const char *name, int frame, int parent,
                                      int *index) {
    int k, n;
    if (!model) return IK_ERR_NULL;
    n = model->link_count;
    if (n >= IK_COLLISION_MAX_LINKS) return IK_ERR_CAPACITY;
    if (frame < -1 || frame >= IK_ROBOT_MAX_JOINTS || parent < -1 || parent >= n) return IK_ERR_RANGE;
    model->link_names[n] = name;
    model->link_frame[n] = frame;
    model->link_parent[n] = parent;
    for (k = 0; k <= n; ++k) model->pair_state[n][k] = model->pair_state[k][n] = IK_PAIR_CHECKED;
    model->pair_state[n][n] = IK_PAIR_EMPTY;
    model->link_count = n + 1;
    if (index) *index = n;
    return IK_OK;
}

ik_result ik_robot_collision_add_capsule(ik_robot_collision_model *model, int link, ik_capsule capsule) {
    return ik_robot_collision_add_bounds(model, link, capsule, NULL);
}

ik_result ik_robot_collision_add_bounds(ik_robot_collision_model *model, int link, ik_capsule capsule,
                                        const ik_obb *box) {
    if (!model) return IK_ERR_NULL;
    if (box && (!ik_transform_finite(box->frame) || !ik_vec3_finite(box->half_extents))) return IK_ERR_NONFINITE;
    if (box && !(box->half_extents.x >= 0 && box->half_extents.y >= 0 && box->half_extents.z >= 0)) return IK_ERR_RANGE;
    if (link < 0 || link >= model->link_count) return IK_ERR_RANGE;
    if (model->capsule_count >= IK_COLLISION_MAX_CAPSULES) return IK_ERR_CAPACITY;
    if (!ik_vec3_finite(capsule.a) || !ik_vec3_finite(capsule.b) || !isfinite((double)capsule.radius))
        return IK_ERR_NONFINITE;
    if (capsule.radius < 0) return IK_ERR_RANGE;
    model->capsules[model->capsule_count] = capsule;
    model->has_box[model->capsule_count] = box != NULL;
    if (box) {
        model->boxes[model->capsule_count] = *box;
        model->boxes[model->capsule_count].frame.scale = ik_v3(1, 1, 1);
    } else {
        memset(&model->boxes[model->capsule_count], 0, sizeof model->boxes[0]);
        model->boxes[model->capsule_count].frame = ik_transform_identity();
    }
    model->capsule_link[model->capsule_count++] = link;
    return IK_OK;
}

int ik_robot_collision_find_link(const ik_robot_collision_model *model, const char *name) {
    int k;
    if (!model || !name) return -1;
    for (k = 0; k < model->link_count; ++k)
        if (model->link_names[k] && strcmp(model->link_names[k], name) == 0) return k;
    return -1;
}

ik_result ik_robot_collision_disable(ik_robot_collision_model *model, const char *a, const char *b) {
    int i = ik_robot_collision_find_link(model, a), j = ik_robot_collision_find_link(model, b);
    if (!model || !a || !b) return IK_ERR_NULL;
    if (i < 0 || j < 0) return IK_ERR_NOT_FOUND;
    if (i != j) model->pair_state[i][j] = model->pair_state[j][i] = IK_PAIR_DISABLED;
    return IK_OK;
}

/* ---- Fitting ---------------------------------------------------------- */

/* The points as the fit sees them: scaled, then moved into the frame. */
static d3 fit_point(const float *xyz, size_t i, d3 scale, const frame_d *f) {
    return frame_apply(
        f, d3_make((double)xyz[3 * i] * scale.x, (double)xyz[3 * i + 1] * scale.y, (double)xyz[3 * i + 2] * scale.z));
}

/* The capsule along unit axis u holding every point: the axis line passes
 * through the centre of the points' bounding rectangle across u (axes v,
 * w), the radius R is the farthest point from that line, and the segment's
 * ends are as short as the points allow: a point at axial s with radial
 * distance r lies inside when the segment reaches to within sqrt(R^2 - r^2)
 * of s. Returns the volume, pi R^2 L + 4/3 pi R^3. */
static double fit_along(const float *xyz, size_t count, d3 scale, const frame_d *f, d3 u, d3 *a_out, d3 *b_out,
                        double *radius_out) {
    d3 v, w, center;
    double vmin = HUGE_VAL, vmax = -HUGE_VAL, wmin = HUGE_VAL, wmax = -HUGE_VAL, r2max = 0, lo = -HUGE_VAL,
           hi = HUGE_VAL, cv, cw, s0, s1;
    size_t i;
    /* Any two unit vectors across u. */
    v = fabs(u.x) < 0.9 ? d3_make(0, -u.z, u.y) : d3_make(-u.z, 0, u.x);
    v = d3_scale(v, 1 / d3_len(v));
    w = d3_make(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x);
    for (i = 0; i < count; ++i) {
        d3 p = fit_point(xyz, i, scale, f);
        double pv = d3_dot(p, v), pw = d3_dot(p, w);
        if (pv < vmin) vmin = pv;
        if (pv > vmax) vmax = pv;
        if (pw < wmin) wmin = pw;
        if (pw > wmax) wmax = pw;
    }
    cv = 0.5 * (vmin + vmax);
    cw = 0.5 * (wmin + wmax);
    for (i = 0; i < count; ++i) {
        d3 p = fit_point(xyz, i, scale, f);
        double dv = d3_dot(p, v) - cv, dw = d3_dot(p, w) - cw, r2 = dv * dv + dw * dw;
        if (r2 > r2max) r2max = r2;
    }
    for (i = 0; i < count; ++i) {
        d3 p = fit_point(xyz, i, scale, f);
        double dv = d3_dot(p, v) - cv, dw = d3_dot(p, w) - cw, s = d3_dot(p, u);
        double reach = sqrt(r2max - (dv * dv + dw * dw) > 0 ? r2max - (dv * dv + dw * dw) : 0);
        if (s - reach > lo) lo = s - reach; /* the segment must reach at least here at its top */
        if (s + reach < hi) hi = s + reach; /* and start at most here */
    }
    if (hi <= lo) {
        s0 = hi;
        s1 = lo;
    } else {
        s0 = s1 = 0.5 * (lo + hi);
    }
    center = d3_add(d3_scale(v, cv), d3_scale(w, cw));
    *a_out = d3_add(center, d3_scale(u, s0));
    *b_out = d3_add(center, d3_scale(u, s1));
    *radius_out = sqrt(r2max);
    return 3.14159265358979 * r2max * (s1 - s0) + 4.18879020478639 * r2max * sqrt(r2max);
}

/* The eigenvectors of a symmetric 3x3 matrix by Jacobi rotations (columns of v). */
static void symmetric_eigenvectors(double m[3][3], double v[3][3]) {
    int sweep, p, q, k;
    for (p = 0; p < 3; ++p)
        for (q = 0; q < 3; ++q) v[p][q] = p == q;
    for (sweep = 0; sweep < 30; ++sweep) {
        double off = m[0][1] * m[0][1] + m[0][2] * m[0][2] + m[1][2] * m[1][2];
        if (off < 1e-30) break;
        for (p = 0; p < 2; ++p)
            for (q = p + 1; q < 3; ++q) {
                double theta, t, c, s;
                if (fabs(m[p][q]) < 1e-300) continue;
                theta = (m[q][q] - m[p][p]) / (2 * m[p][q]);
                t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
                c = 1 / sqrt(t * t + 1);
                s = t * c;
                for (k = 0; k < 3; ++k) { /* m = J^T m J */
                    double mkp = m[k][p], mkq = m[k][q];
                    m[k][p] = c * mkp - s * mkq;
                    m[k][q] = s * mkp + c * mkq;
                }
                for (k = 0; k < 3; ++k) {
                    double mpk = m[p][k], mqk = m[q][k];
                    m[p][k] = c * mpk - s * mqk;
                    m[q][k] = s * mpk + c * mqk;
                }
                for (k = 0; k < 3; ++k) {
                    double vkp = v[k][p], vkq = v[k][q];
                    v[k][p] = c * vkp - s * vkq;
                    v[k][q] = s * vkp + c * vkq;
                }
            }
    }
}

/* What both fits start from: the points checked, then their principal
 * axes, the eigenvectors of the covariance sum_i (p_i - m)(p_i - m)^T of the
 * vertices p_i scaled and carried into the frame (m their mean). */
static ik_result principal_axes(const float *xyz, size_t count, ik_vec3 scale, ik_transform to_frame, frame_d *f, d3 *s,
                                d3 axes[3]) {
    d3 mean = d3_make(0, 0, 0);
    double cov[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}, vec[3][3];
    size_t i;
    int k;
    if (count == 0) return IK_ERR_RANGE;
    if (!ik_vec3_finite(scale) || !ik_transform_finite(to_frame)) return IK_ERR_NONFINITE;
    for (i = 0; i < 3 * count; ++i)
        if (!isfinite(xyz[i])) return IK_ERR_NONFINITE;
    *f = frame_of(to_frame);
    *s = d3_of(scale);
    for (i = 0; i < count; ++i) mean = d3_add(mean, fit_point(xyz, i, *s, f));
    mean = d3_scale(mean, 1.0 / (double)count);
    for (i = 0; i < count; ++i) {
        d3 p = d3_sub(fit_point(xyz, i, *s, f), mean);
        double c[3];
        int a, b;
        c[0] = p.x;
        c[1] = p.y;
        c[2] = p.z;
        for (a = 0; a < 3; ++a)
            for (b = 0; b < 3; ++b) cov[a][b] += c[a] * c[b];
    }
    symmetric_eigenvectors(cov, vec);
    for (k = 0; k < 3; ++k) axes[k] = d3_make(vec[0][k], vec[1][k], vec[2][k]);
    return IK_OK;
}

ik_result ik_capsule_fit(const float *xyz, size_t count, ik_vec3 scale, ik_transform to_frame, ik_capsule *out) {
    frame_d f;
    d3 s, axes[6], best_a = d3_make(0, 0, 0), best_b = best_a;
    double best = HUGE_VAL, best_r = 0;
    ik_result checked;
    int k;
    if (!xyz || !out) return IK_ERR_NULL;
    checked = principal_axes(xyz, count, scale, to_frame, &f, &s, axes);
    if (checked != IK_OK) return checked;
    for (k = 0; k < 3; ++k) axes[3 + k] = d3_make(k == 0, k == 1, k == 2);
    for (k = 0; k < 6; ++k) {
        d3 a, b;
        double r, volume, n = d3_len(axes[k]);
        if (!(n > 0.5)) continue;
        volume = fit_along(xyz, count, s, &f, d3_scale(axes[k], 1 / n), &a, &b, &r);
        if (volume < best || (k == 0 && !(volume < best))) {
            best = volume;
            best_a = a;
            best_b = b;
            best_r = r;
        }
    }
    best_r = best_r * (1 + 1e-6) + 1e-7;
    out->a = ik_v3((ik_real)best_a.x, (ik_real)best_a.y, (ik_real)best_a.z);
    out->b = ik_v3((ik_real)best_b.x, (ik_real)best_b.y, (ik_real)best_b.z);
    /* Rounding the ends to ik_real moves them by up to a relative 2^-24:
     * the radius grows by that much of their distance from the origin. */
    best_r += (sizeof(ik_real) == sizeof(float) ? 1.2e-7 : 2.3e-16) * 2 * (d3_len(best_a) + d3_len(best_b));
    out->radius = (ik_real)(best_r * (1 + 1e-6));
    if (!ik_vec3_finite(out->a) || !ik_vec3_finite(out->b) || !ik_finite(out->radius)) return IK_ERR_NONFINITE;
    return IK_OK;
}

/* A rotation matrix (columns u, v, w) as a quaternion (Shepperd's method:
 * the largest of the four squared components first). */
static ik_quat quat_of_columns(d3 u, d3 v, d3 w) {
    double m[3][3], t, x, y, z, q0;
    m[0][0] = u.x;
    m[1][0] = u.y;
    m[2][0] = u.z;
    m[0][1] = v.x;
    m[1][1] = v.y;
    m[2][1] = v.z;
    m[0][2] = w.x;
    m[1][2] = w.y;
    m[2][2] = w.z;
    t = m[0][0] + m[1][1] + m[2][2];
    if (t > 0) {
        double r = sqrt(1 + t) * 2;
        q0 = 0.25 * r;
        x = (m[2][1] - m[1][2]) / r;
        y = (m[0][2] - m[2][0]) / r;
        z = (m[1][0] - m[0][1]) / r;
    } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
        double r = sqrt(1 + m[0][0] - m[1][1] - m[2][2]) * 2;
        q0 = (m[2][1] - m[1][2]) / r;
        x = 0.25 * r;
        y = (m[0][1] + m[1][0]) / r;
        z = (m[0][2] + m[2][0]) / r;
    } else if (m[1][1] > m[2][2]) {
        double r = sqrt(1 + m[1][1] - m[0][0] - m[2][2]) * 2;
        q0 = (m[0][2] - m[2][0]) / r;
        x = (m[0][1] + m[1][0]) / r;
        y = 0.25 * r;
        z = (m[1][2] + m[2][1]) / r;
    } else {
        double r = sqrt(1 + m[2][2] - m[0][0] - m[1][1]) * 2;
        q0 = (m[1][0] - m[0][1]) / r;
        x = (m[0][2] + m[2][0]) / r;
        y = (m[1][2] + m[2][1]) / r;
        z = 0.25 * r;
    }
    t = sqrt(x * x + y * y + z * z + q0 * q0);
    return ik_q((ik_real)(x / t), (ik_real)(y / t), (ik_real)(z / t), (ik_real)(q0 / t));
}

ik_result ik_obb_fit(const float *xyz, size_t count, ik_vec3 scale, ik_transform to_frame, ik_obb *out) {
    frame_d f;
    d3 s, axes[2][3];
    double best = HUGE_VAL;
    ik_result r;
    size_t i;
    int set, k;
    if (!xyz || !out) return IK_ERR_NULL;
    r = principal_axes(xyz, count, scale, to_frame, &f, &s, axes[0]);
    if (r != IK_OK) return r;
    for (k = 0; k < 3; ++k) axes[1][k] = d3_make(k == 0, k == 1, k == 2);
    /* A right-handed frame: the third axis is the cross product of the first two. */
    {
        d3 u = axes[0][0], v = axes[0][1];
        double nu = d3_len(u), nv;
        u = d3_scale(u, 1 / nu);
        v = d3_sub(v, d3_scale(u, d3_dot(u, v)));
        nv = d3_len(v);
        if (!(nu > 0.5) || !(nv > 0.5)) {
            axes[0][0] = axes[1][0];
            axes[0][1] = axes[1][1];
            axes[0][2] = axes[1][2];
        } else {
            v = d3_scale(v, 1 / nv);
            axes[0][0] = u;
            axes[0][1] = v;
            axes[0][2] = d3_make(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x);
        }
    }
    for (set = 0; set < 2; ++set) {
        double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL}, volume;
        ik_quat rotation = quat_of_columns(axes[set][0], axes[set][1], axes[set][2]);
        frame_d rounded;
        d3 u[3], center;
        /* The extents along the axes as the rounded quaternion gives them,
         * so the box holds the points in the frame it is stored with. */
        rounded = frame_of(ik_transform_make(ik_v3(0, 0, 0), rotation, ik_v3(1, 1, 1)));
        for (k = 0; k < 3; ++k) u[k] = d3_make(rounded.r[0][k], rounded.r[1][k], rounded.r[2][k]);
        for (i = 0; i < count; ++i) {
            d3 p = fit_point(xyz, i, s, &f);
            for (k = 0; k < 3; ++k) {
                double c = d3_dot(p, u[k]);
                if (c < lo[k]) lo[k] = c;
                if (c > hi[k]) hi[k] = c;
            }
        }
        volume = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
        if (set == 0 || volume < best) {
            double reach = 0, widen;
            best = volume;
            center = d3_make(0, 0, 0);
            for (k = 0; k < 3; ++k) {
                center = d3_add(center, d3_scale(u[k], 0.5 * (lo[k] + hi[k])));
                if (fabs(lo[k]) > reach) reach = fabs(lo[k]);
                if (fabs(hi[k]) > reach) reach = fabs(hi[k]);
            }
            /* Widened for the rounding of the centre and of the points' products. */
            widen = (1e-6 + (sizeof(ik_real) == sizeof(float) ? 4e-7 : 1e-15)) * 2 * reach + 1e-7;
            out->frame = ik_transform_make(ik_v3((ik_real)center.x, (ik_real)center.y, (ik_real)center.z), rotation,
                                           ik_v3(1, 1, 1));
            out->half_extents =
                ik_v3((ik_real)(0.5 * (hi[0] - lo[0]) + widen), (ik_real)(0.5 * (hi[1] - lo[1]) + widen),
                      (ik_real)(0.5 * (hi[2] - lo[2]) + widen));
        }
    }
    if (!ik_transform_finite(out->frame) || !ik_vec3_finite(out->half_extents)) return IK_ERR_NONFINITE;
    return IK_OK;
}

ik_capsule ik_capsule_of_box(ik_transform frame, ik_vec3 size) {
    float corners[24];
    ik_capsule c;
    int k;
    for (k = 0; k < 8; ++k) {
        corners[3 * k] = (float)(size.x * ((k & 1) ? 0.5f : -0.5f));
        corners[3 * k + 1] = (float)(size.y * ((k & 2) ? 0.5f : -0.5f));
        corners[3 * k + 2] = (float)(size.z * ((k & 4) ? 0.5f : -0.5f));
    }
    memset(&c, 0, sizeof c);
    frame.scale = ik_v3(1, 1, 1);
    ik_capsule_fit(corners, 8, ik_v3(1, 1, 1), frame, &c);
    c.radius += (ik_real)(1e-6 * (fabs((double)size.x) + fabs((double)size.y) + fabs((double)size.z)));
    return c;
}

ik_capsule ik_capsule_of_cylinder(ik_transform frame, ik_real radius, ik_real length) {
    ik_capsule c;
    frame.scale = ik_v3(1, 1, 1);
    c.a = ik_transform_point(frame, ik_v3(0, 0, -length / 2));
    c.b = ik_transform_point(frame, ik_v3(0, 0, length / 2));
    c.radius = radius * (ik_real)(1 + 1e-6);
    return c;
}

ik_capsule ik_capsule_of_sphere(ik_transform frame, ik_real radius) {
    ik_capsule c;
    c.a = c.b = frame.translation;
    c.radius = radius * (ik_real)(1 + 1e-6);
    return c;
}

/* ---- Queries ---------------------------------------------------------- */

/* Capsules and link bounds in the base frame, in double. */
typedef struct posed {
    d3 a[IK_COLLISION_MAX_CAPSULES], b[IK_COLLISION_MAX_CAPSULES];
    double radius[IK_COLLISION_MAX_CAPSULES];
    d3 center[IK_COLLISION_MAX_LINKS]; /* a sphere holding each link's capsules */
    double reach[IK_COLLISION_MAX_LINKS];
    int first[IK_COLLISION_MAX_LINKS + 1]; /* capsules sorted by link: link k's are order[first[k] .. first[k+1]) */
    int order[IK_COLLISION_MAX_CAPSULES];
    frame_d box[IK_COLLISION_MAX_CAPSULES]; /* each element's box in the base frame, where has_box */
    d3 box_half[IK_COLLISION_MAX_CAPSULES];
    ik_bool has_box[IK_COLLISION_MAX_CAPSULES];
} posed;

typedef struct obstacle_d {
    frame_d f;
    d3 half; /* box half extents (cylinder: its bounding box) */
    d3 a, b; /* sphere, cylinder: the segment of the bounding capsule, base frame */
    double radius;
    d3 center;
    double reach;
    ik_obstacle_shape shape;
} obstacle_d;

static ik_result check_inputs(const ik_robot_collision_model *model, const ik_robot_chain *chain, const ik_real *q,
                              const ik_obstacle *obstacles, int obstacle_count, ik_real margin) {
    int k;
    if (!model || !chain || !q || (obstacle_count > 0 && !obstacles)) return IK_ERR_NULL;
    if (obstacle_count < 0 || model->link_count < 0 || model->link_count > IK_COLLISION_MAX_LINKS ||
        model->capsule_count < 0 || model->capsule_count > IK_COLLISION_MAX_CAPSULES)
        return IK_ERR_RANGE;
    if (obstacle_count > IK_COLLISION_MAX_OBSTACLES) return IK_ERR_CAPACITY;
    if (!isfinite((double)margin)) return IK_ERR_NONFINITE;
    if (margin < 0) return IK_ERR_RANGE;
    for (k = 0; k < model->link_count; ++k)
        if (model->link_frame[k] < -1 || model->link_frame[k] >= chain->joint_count) return IK_ERR_RANGE;
    for (k = 0; k < model->capsule_count; ++k)
        if (model->capsule_link[k] < 0 || model->capsule_link[k] >= model->link_count) return IK_ERR_RANGE;
    for (k = 0; k < obstacle_count; ++k) {
        const ik_obstacle *o = &obstacles[k];
        if (!ik_transform_finite(o->pose_bs) || !ik_vec3_finite(o->half_extents) || !isfinite((double)o->radius) ||
            !isfinite((double)o->half_length))
            return IK_ERR_NONFINITE;
        if (o->shape == IK_OBSTACLE_BOX && !(o->half_extents.x > 0 && o->half_extents.y > 0 && o->half_extents.z > 0))
            return IK_ERR_RANGE;
        if ((o->shape == IK_OBSTACLE_SPHERE || o->shape == IK_OBSTACLE_CYLINDER) && !(o->radius > 0))
            return IK_ERR_RANGE;
        if (o->shape == IK_OBSTACLE_CYLINDER && !(o->half_length > 0)) return IK_ERR_RANGE;
        if (o->shape != IK_OBSTACLE_BOX && o->shape != IK_OBSTACLE_SPHERE && o->shape != IK_OBSTACLE_CYLINDER)
            return IK_ERR_RANGE;
    }
    return IK_OK;
}

static ik_result pose_model(const ik_robot_collision_model *model, const ik_robot_chain *chain, const ik_real *q,
                            posed *p) {
    ik_transform links_bs[IK_ROBOT_MAX_JOINTS], tip;
    frame_d frames[IK_ROBOT_MAX_JOINTS + 1];
    int count[IK_COLLISION_MAX_LINKS], k, l, fill[IK_COLLISION_MAX_LINKS];
    ik_result r = ik_robot_fk(chain, q, &tip, links_bs);
    if (r != IK_OK) return r;
    frames[0] = frame_of(ik_transform_identity());
    for (k = 0; k < chain->joint_count; ++k) frames[k + 1] = frame_of(links_bs[k]);
    memset(count, 0, sizeof count);
    for (k = 0; k < model->capsule_count; ++k) ++count[model->capsule_link[k]];
    p->first[0] = 0;
    for (l = 0; l < model->link_count; ++l) {
        p->first[l + 1] = p->first[l] + count[l];
        fill[l] = p->first[l];
    }
    for (k = 0; k < model->capsule_count; ++k) {
        int link = model->capsule_link[k];
        const frame_d *f = &frames[model->link_frame[link] + 1];
        p->a[k] = frame_apply(f, d3_of(model->capsules[k].a));
        p->b[k] = frame_apply(f, d3_of(model->capsules[k].b));
        p->radius[k] = (double)model->capsules[k].radius;
        p->order[fill[link]++] = k;
        p->has_box[k] = model->has_box[k];
        if (p->has_box[k]) {
            frame_d local = frame_of(model->boxes[k].frame);
            p->box[k] = frame_mul(f, &local);
            p->box_half[k] = d3_of(model->boxes[k].half_extents);
        }
    }
    for (l = 0; l < model->link_count; ++l) {
        d3 c = d3_make(0, 0, 0);
        double reach = 0;
        int n = p->first[l + 1] - p->first[l], i;
        for (i = p->first[l]; i < p->first[l + 1]; ++i)
            c = d3_add(c, d3_scale(d3_add(p->a[p->order[i]], p->b[p->order[i]]), 0.5));
        if (n > 0) c = d3_scale(c, 1.0 / n);
        for (i = p->first[l]; i < p->first[l + 1]; ++i) {
            int j = p->order[i];
            double ra = d3_len(d3_sub(p->a[j], c)), rb = d3_len(d3_sub(p->b[j], c));
            double e = (ra > rb ? ra : rb) + p->radius[j];
            if (e > reach) reach = e;
        }
        p->center[l] = c;
        p->reach[l] = reach * (1 + 1e-12) + 1e-12;
    }
    return IK_OK;
}

static void prepare_obstacles(const ik_obstacle *obstacles, int count, obstacle_d *out) {
    int k;
    for (k = 0; k < count; ++k) {
        const ik_obstacle *o = &obstacles[k];
        obstacle_d *d = &out[k];
        d->shape = o->shape;
        d->f = frame_of(o->pose_bs);
        d->center = d->f.t;
        if (o->shape == IK_OBSTACLE_BOX) {
            d->half = d3_of(o->half_extents);
            d->reach = d3_len(d->half);
        } else if (o->shape == IK_OBSTACLE_SPHERE) {
            d->a = d->b = d->f.t;
            d->radius = (double)o->radius;
            d->reach = d->radius;
        } else {
            d->radius = (double)o->radius;
            d->half = d3_make(d->radius, d->radius, (double)o->half_length);
            d->a = frame_apply(&d->f, d3_make(0, 0, -(double)o->half_length));
            d->b = frame_apply(&d->f, d3_make(0, 0, (double)o->half_length));
            d->reach = d3_len(d->half);
        }
    }
}

/* A lower bound of the distance between boxes A (frame a, half ha) and B:
 * the largest gap between their projections on the 15 separating axes
 * (each box's 3 axes and the 9 cross products of an axis of each). */
static double box_box_gap(const frame_d *a, d3 ha, const frame_d *b, d3 hb) {
    d3 au[3], bu[3], d = d3_sub(b->t, a->t);
    double best = -HUGE_VAL, hav[3] = {ha.x, ha.y, ha.z}, hbv[3] = {hb.x, hb.y, hb.z};
    int i, j, k;
    for (k = 0; k < 3; ++k) {
        au[k] = d3_make(a->r[0][k], a->r[1][k], a->r[2][k]);
        bu[k] = d3_make(b->r[0][k], b->r[1][k], b->r[2][k]);
    }
    for (i = 0; i < 15; ++i) {
        d3 axis;
        double n, gap;
        if (i < 3) {
            axis = au[i];
        } else if (i < 6) {
            axis = bu[i - 3];
        } else {
            d3 x = au[(i - 6) / 3], y = bu[(i - 6) % 3];
            axis = d3_make(x.y * y.z - x.z * y.y, x.z * y.x - x.x * y.z, x.x * y.y - x.y * y.x);
        }
        n = d3_len(axis);
        if (!(n > 1e-9)) continue;
        axis = d3_scale(axis, 1 / n);
        gap = fabs(d3_dot(axis, d));
        for (j = 0; j < 3; ++j) gap -= hav[j] * fabs(d3_dot(axis, au[j])) + hbv[j] * fabs(d3_dot(axis, bu[j]));
        if (gap > best) best = gap;
    }
    /* The rounding of the products, at most a few ulps of the sizes involved. */
    return best - 1e-12 * (d3_len(d) + d3_len(ha) + d3_len(hb));
}

/* Element j's box (where it has one) against a segment a-b of radius r:
 * the segment's distance to the box, minus r. */
static double box_segment(const posed *p, int j, d3 a, d3 b, double r) {
    return segment_box_distance(frame_local(&p->box[j], a), frame_local(&p->box[j], b), p->box_half[j]) - r;
}

/* Capsule j of the posed model against obstacle o. */
static double capsule_obstacle(const posed *p, int j, const obstacle_d *o) {
    if (o->shape == IK_OBSTACLE_SPHERE)
        return sqrt(point_segment_sq(o->a, p->a[j], p->b[j])) - o->radius - p->radius[j];
    {
        double box =
            segment_box_distance(frame_local(&o->f, p->a[j]), frame_local(&o->f, p->b[j]), o->half) - p->radius[j];
        if (o->shape == IK_OBSTACLE_CYLINDER) {
            double cap = sqrt(segment_segment_sq(p->a[j], p->b[j], o->a, o->b)) - o->radius - p->radius[j];
            if (cap > box) box = cap;
        }
        return box;
    }
}

static double capsule_capsule(const posed *p, int i, int j) {
    return sqrt(segment_segment_sq(p->a[i], p->b[i], p->a[j], p->b[j])) - p->radius[i] - p->radius[j];
}

/* Element j against obstacle o: the capsule's bound, raised by the box's
 * where the element has a box and the capsule's is below `enough`. */
static double element_obstacle(const posed *p, int j, const obstacle_d *o, double enough) {
    double d = capsule_obstacle(p, j, o), e;
    if (!p->has_box[j] || d >= enough) return d;
    if (o->shape == IK_OBSTACLE_SPHERE) {
        e = d3_len(box_offset(frame_local(&p->box[j], o->a), p->box_half[j])) - o->radius;
    } else {
        e = box_box_gap(&p->box[j], p->box_half[j], &o->f, o->half);
        if (o->shape == IK_OBSTACLE_CYLINDER) {
            double c = box_segment(p, j, o->a, o->b, o->radius);
            if (c > e) e = c;
        }
    }
    return e > d ? e : d;
}

/* Elements i and j: the capsules' bound, raised by each box against the
 * other's capsule and the two boxes' gap. */
static double element_element(const posed *p, int i, int j, double enough) {
    double d = capsule_capsule(p, i, j), e;
    if (d >= enough) return d;
    if (p->has_box[j]) {
        e = box_segment(p, j, p->a[i], p->b[i], p->radius[i]);
        if (e > d) d = e;
    }
    if (p->has_box[i]) {
        e = box_segment(p, i, p->a[j], p->b[j], p->radius[j]);
        if (e > d) d = e;
    }
    if (p->has_box[i] && p->has_box[j]) {
        e = box_box_gap(&p->box[i], p->box_half[i], &p->box[j], p->box_half[j]);
        if (e > d) d = e;
    }
    return d;
}

/* The smallest distance between link l and link m (other >= 0) or obstacle
 * -1 - other, or a lower bound of it when that bound is already at least
 * `enough` (the exact value is not needed then). */
static double link_distance(const posed *p, int l, int other, const obstacle_d *obstacles, double enough) {
    double best = FAR_AWAY, bound;
    int i, k;
    if (p->first[l + 1] == p->first[l]) return FAR_AWAY;
    if (other >= 0) {
        if (p->first[other + 1] == p->first[other]) return FAR_AWAY;
        bound = d3_len(d3_sub(p->center[l], p->center[other])) - p->reach[l] - p->reach[other];
    } else {
        const obstacle_d *o = &obstacles[-1 - other];
        bound = d3_len(d3_sub(p->center[l], o->center)) - p->reach[l] - o->reach;
    }
    if (bound >= enough) return bound;
    for (i = p->first[l]; i < p->first[l + 1]; ++i) {
        int a = p->order[i];
        if (other >= 0) {
            for (k = p->first[other]; k < p->first[other + 1]; ++k) {
                double d = element_element(p, a, p->order[k], enough < best ? enough : best);
                if (d < best) best = d;
            }
        } else {
            double d = element_obstacle(p, a, &obstacles[-1 - other], enough < best ? enough : best);
            if (d < best) best = d;
        }
    }
    return best;
}

/* Runs over every tested pair; stops early (returning 0) when `stop_below`
 * is set and a pair is closer than the margin. */
static ik_bool run_pairs(const ik_robot_collision_model *model, const posed *p, const obstacle_d *obstacles,
                         const uint64_t *touching, int obstacle_count, double margin, int stop_early,
                         ik_robot_collision_report *report) {
    int l, m, k;
    ik_bool is_free = 1;
    double enough = stop_early ? margin : FAR_AWAY;
    for (l = 0; l < model->link_count; ++l) {
        for (k = 0; k < obstacle_count; ++k) {
            double d;
            if (l < 64 && (touching[k] >> l) & 1u) continue;
            d = link_distance(p, l, -1 - k, obstacles, enough);
            if (d < margin) is_free = 0;
            if (!is_free && stop_early) return 0;
            if (report) {
                ik_collision_pair pair;
                pair.link = l;
                pair.other = -1 - k;
                pair.distance = d;
                if (d < report->link_clearance[l]) report->link_clearance[l] = d;
                if (d < report->clearance) {
                    report->clearance = d;
                    report->closest = pair;
                }
                if (d < margin) {
                    int at = report->contact_count < IK_COLLISION_MAX_CONTACTS ? report->contact_count
                                                                               : IK_COLLISION_MAX_CONTACTS - 1;
                    if (report->contact_count < IK_COLLISION_MAX_CONTACTS || d < report->contacts[at].distance) {
                        while (at > 0 && report->contacts[at - 1].distance > d) {
                            report->contacts[at] = report->contacts[at - 1];
                            --at;
                        }
                        report->contacts[at] = pair;
                    }
                    ++report->contact_count;
                }
            }
        }
        for (m = l + 1; m < model->link_count; ++m) {
            double d;
            if (model->pair_state[l][m] != IK_PAIR_CHECKED) continue;
            d = link_distance(p, l, m, obstacles, enough);
            if (d < margin) is_free = 0;
            if (!is_free && stop_early) return 0;
            if (report) {
                ik_collision_pair pair;
                pair.link = l;
                pair.other = m;
                pair.distance = d;
                if (d < report->link_clearance[l]) report->link_clearance[l] = d;
                if (d < report->link_clearance[m]) report->link_clearance[m] = d;
                if (d < report->clearance) {
                    report->clearance = d;
                    report->closest = pair;
                }
                if (d < margin) {
                    int at = report->contact_count < IK_COLLISION_MAX_CONTACTS ? report->contact_count
                                                                               : IK_COLLISION_MAX_CONTACTS - 1;
                    if (report->contact_count < IK_COLLISION_MAX_CONTACTS || d < report->contacts[at].distance) {
                        while (at > 0 && report->contacts[at - 1].distance > d) {
                            report->contacts[at] = report->contacts[at - 1];
                            --at;
                        }
                        report->contacts[at] = pair;
                    }
                    ++report->contact_count;
                }
            }
        }
    }
    return is_free;
}

/* Most obstacles a query takes (their double copies live on the stack). */
#define MAX_OBSTACLES IK_COLLISION_MAX_OBSTACLES

ik_result ik_robot_collision_check(const ik_robot_collision_model *model, const ik_robot_chain *chain, const ik_real *q,
                                   const ik_obstacle *obstacles, int obstacle_count, ik_real margin,
                                   ik_robot_collision_report *report) {
    posed p;
    obstacle_d od[MAX_OBSTACLES];
    uint64_t touching[MAX_OBSTACLES];
    ik_result r;
    int k;
    if (!report) return IK_ERR_NULL;
    r = check_inputs(model, chain, q, obstacles, obstacle_count, margin);
    if (r != IK_OK) return r;
    r = pose_model(model, chain, q, &p);
    if (r != IK_OK) return r;
    prepare_obstacles(obstacles, obstacle_count, od);
    memset(report, 0, sizeof *report);
    report->clearance = FAR_AWAY;
    report->closest.link = -1;
    report->closest.distance = FAR_AWAY;
    for (k = 0; k < IK_COLLISION_MAX_LINKS; ++k) report->link_clearance[k] = FAR_AWAY;
    for (k = 0; k < obstacle_count; ++k) touching[k] = obstacles[k].touching;
    report->free = run_pairs(model, &p, od, touching, obstacle_count, (double)margin, 0, report);
    return IK_OK;
}

ik_result ik_robot_collision_free(const ik_robot_collision_model *model, const ik_robot_chain *chain, const ik_real *q,
                                  const ik_obstacle *obstacles, int obstacle_count, ik_real margin, ik_bool *is_free) {
    posed p;
    obstacle_d od[MAX_OBSTACLES];
    uint64_t touching[MAX_OBSTACLES];
    ik_result r;
    int k;
    if (!is_free) return IK_ERR_NULL;
    r = check_inputs(model, chain, q, obstacles, obstacle_count, margin);
    if (r != IK_OK) return r;
    r = pose_model(model, chain, q, &p);
    if (r != IK_OK) return r;
    prepare_obstacles(obstacles, obstacle_count, od);
    for (k = 0; k < obstacle_count; ++k) touching[k] = obstacles[k].touching;
    *is_free = run_pairs(model, &p, od, touching, obstacle_count, (double)margin, 1, NULL);
    return IK_OK;
}

int ik_robot_collision_query_free(void *query, const ik_real *q, int variable_count) {
    const ik_robot_collision_query *c = (const ik_robot_collision_query *)query;
    ik_bool is_free = 0;
    ik_result r;
    if (!c || !c->chain || variable_count != c->chain->variable_count) return 0;
    r = ik_robot_collision_free(c->model, c->chain, q, c->obstacles, c->obstacle_count, c->margin, &is_free);
    return r == IK_OK && is_free;
}

ik_result ik_robot_collision_prune(ik_robot_collision_model *model, const ik_robot_chain *chain, const ik_real *q_rest,
                                   int samples, uint64_t seed, ik_real clearance) {
    ik_real lower[IK_ROBOT_MAX_JOINTS], upper[IK_ROBOT_MAX_JOINTS], q[IK_ROBOT_MAX_JOINTS];
    ik_bool limited[IK_ROBOT_MAX_JOINTS];
    float nearest[IK_COLLISION_MAX_LINKS][IK_COLLISION_MAX_LINKS]; /* 16 KB: the stack stays small for WebAssembly */
    posed p;
    ik_result r;
    int l, m, v, s;
    uint64_t state = seed;
    if (!model || !chain) return IK_ERR_NULL;
    if (samples < 0 || !(clearance >= 0)) return IK_ERR_RANGE;
    r = ik_robot_variable_limits(chain, lower, upper, limited, NULL);
    if (r != IK_OK) return r;
    for (v = 0; v < chain->variable_count; ++v)
        q[v] = q_rest ? q_rest[v] : (lower[v] > 0 ? lower[v] : (upper[v] < 0 ? upper[v] : 0));
    r = check_inputs(model, chain, q, NULL, 0, 0);
    if (r != IK_OK) return r;
    r = pose_model(model, chain, q, &p);
    if (r != IK_OK) return r;
    for (l = 0; l < model->link_count; ++l)
        for (m = 0; m < model->link_count; ++m) {
            unsigned char *state_lm = &model->pair_state[l][m];
            if (*state_lm != IK_PAIR_CHECKED) continue;
            if (l == m || p.first[l + 1] == p.first[l] || p.first[m + 1] == p.first[m])
                *state_lm = IK_PAIR_EMPTY;
            else if (model->link_parent[l] == m || model->link_parent[m] == l)
                *state_lm = IK_PAIR_ADJACENT;
            else if (link_distance(&p, l, m, NULL, FAR_AWAY) < (double)clearance)
                *state_lm = IK_PAIR_AT_REST;
            nearest[l][m] = (float)FAR_AWAY;
        }
    if (samples == 0) return IK_OK;
    for (s = 0; s < samples; ++s) {
        ik_robot_random_configuration(lower, upper, chain->variable_count, &state, q);
        r = pose_model(model, chain, q, &p);
        if (r != IK_OK) return r;
        for (l = 0; l < model->link_count; ++l)
            for (m = l + 1; m < model->link_count; ++m) {
                double d;
                if (model->pair_state[l][m] != IK_PAIR_CHECKED || (double)nearest[l][m] <= (double)clearance) continue;
                d = link_distance(&p, l, m, NULL, (double)nearest[l][m]);
                if (d < (double)nearest[l][m]) nearest[l][m] = (float)d;
            }
    }
    for (l = 0; l < model->link_count; ++l)
        for (m = l + 1; m < model->link_count; ++m)
            if (model->pair_state[l][m] == IK_PAIR_CHECKED && (double)nearest[l][m] > (double)clearance)
                model->pair_state[l][m] = model->pair_state[m][l] = IK_PAIR_NEVER;
    return IK_OK;
}
