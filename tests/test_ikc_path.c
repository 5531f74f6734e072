/* `ikc path` end to end (issue 29): the UR5, the Panda and the IRB 2400 of
 * $IKIT_DATA/urdf, each written path read back by the test's own CSV reader
 * and checked by the test's own kinematics, with nothing of ikit: its own
 * scan of the URDF's <joint> elements (origin xyz rpy, axis, limits,
 * parent and child), its own forward kinematics in double (4 x 4 matrices,
 * R = Rz(yaw) Ry(pitch) Rx(roll), Rodrigues for a joint's turn) and its own
 * line (linear position, slerped quaternion, N segments from --step and
 * --rotation-step). The check walks the rows from the first: a row counts
 * while its tip lies on the line at s = i / N within 1e-5 per axis, every
 * joint is inside the URDF's limits and no joint moved more than --joint-step
 * from the row before; the fraction this finds, (rows - 1) / N, must be the
 * one ikc printed, and every row written must count. A line beyond the
 * arm's reach stops short (fraction < 1, exit 0, a warning); the JSON output
 * holds the same waypoints; bad input is refused with its exit code, and
 * an output that cannot be written (a folder) with exit 6; a joint held at
 * 0 by a <limit> without lower and upper is warned about. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>

#include "support/ikc_run.h"

#define MAX_JOINTS 16
#define MAX_ROWS 4000
#define TOL 1e-5
/* A float build writes %.9g of float values: the tip moves by rounding. */
#define SLACK 3e-6

/* ---- the test's own URDF chain ------------------------------------------- */

typedef struct joint {
    char name[64], parent[64], child[64];
    int moving, prismatic;
    double xyz[3], rpy[3], axis[3], lower, upper;
} joint;

typedef struct chain {
    joint joints[MAX_JOINTS]; /* root first */
    int count, variables;
} chain;

static char urdf_text[1 << 20];

/* The value of attribute `name` inside the tag text [tag, end) into out; 0 when absent. */
static int attribute(const char *tag, const char *end, const char *name, char *out, size_t size) {
    char key[40];
    const char *p = tag;
    size_t n = 0;
    snprintf(key, sizeof key, " %s=\"", name);
    while ((p = strstr(p, key)) && p < end) {
        p += strlen(key);
        while (p[n] && p[n] != '"' && n + 1 < size) {
            out[n] = p[n];
            ++n;
        }
        out[n] = '\0';
        return 1;
    }
    return 0;
}

static void numbers(const char *text, double *out, int count) {
    char *next;
    int i;
    for (i = 0; i < count; ++i) {
        out[i] = strtod(text, &next);
        text = next;
    }
}

/* The element <NAME .../> inside [from, to): its tag text start, or NULL. */
static const char *child_tag(const char *from, const char *to, const char *name, const char **end) {
    char open[40];
    const char *p;
    snprintf(open, sizeof open, "<%s ", name);
    p = strstr(from, open);
    if (!p || p >= to) return NULL;
    *end = strchr(p, '>');
    return p;
}

/* Every <joint name type> element (with a type: not a transmission's), in file order. */
static int read_joints(const char *path, joint *all, int max) {
    const char *p = urdf_text;
    int count = 0;
    read_text(path, urdf_text, sizeof urdf_text);
    while ((p = strstr(p, "<joint ")) && count < max) {
        const char *tag_end = strchr(p, '>'), *body_end = strstr(p, "</joint>"), *t, *e;
        char type[32], value[200];
        joint *j = &all[count];
        memset(j, 0, sizeof *j);
        j->axis[0] = 1;
        if (!tag_end || !body_end) break;
        if (!attribute(p, tag_end, "type", type, sizeof type)) {
            p = tag_end;
            continue;
        }
        attribute(p, tag_end, "name", j->name, sizeof j->name);
        j->moving = strcmp(type, "fixed") != 0;
        j->prismatic = strcmp(type, "prismatic") == 0;
        j->lower = -1e300;
        j->upper = 1e300;
        if ((t = child_tag(tag_end, body_end, "parent", &e))) attribute(t, e, "link", j->parent, sizeof j->parent);
        if ((t = child_tag(tag_end, body_end, "child", &e))) attribute(t, e, "link", j->child, sizeof j->child);
        if ((t = child_tag(tag_end, body_end, "origin", &e))) {
            if (attribute(t, e, "xyz", value, sizeof value)) numbers(value, j->xyz, 3);
            if (attribute(t, e, "rpy", value, sizeof value)) numbers(value, j->rpy, 3);
        }
        if ((t = child_tag(tag_end, body_end, "axis", &e)) && attribute(t, e, "xyz", value, sizeof value)) {
            double n;
            numbers(value, j->axis, 3);
            n = sqrt(j->axis[0] * j->axis[0] + j->axis[1] * j->axis[1] + j->axis[2] * j->axis[2]);
            j->axis[0] /= n, j->axis[1] /= n, j->axis[2] /= n;
        }
        if (strcmp(type, "continuous") != 0 && (t = child_tag(tag_end, body_end, "limit", &e))) {
            if (attribute(t, e, "lower", value, sizeof value)) j->lower = strtod(value, NULL);
            if (attribute(t, e, "upper", value, sizeof value)) j->upper = strtod(value, NULL);
        }
        ++count;
        p = body_end;
    }
    return count;
}

/* The joints from the root down to `tip` (walking up through each link's parent joint). */
static int load_chain(const char *path, const char *tip, chain *c) {
    joint all[64], up[MAX_JOINTS];
    const char *link = tip;
    int count = read_joints(path, all, 64), n = 0, i, k;
    for (;;) {
        for (k = 0; k < count && strcmp(all[k].child, link) != 0; ++k) continue;
        if (k == count || n == MAX_JOINTS) break;
        up[n++] = all[k];
        link = all[k].parent;
    }
    c->count = n;
    c->variables = 0;
    for (i = 0; i < n; ++i) {
        c->joints[i] = up[n - 1 - i];
        c->variables += c->joints[i].moving;
    }
    return n > 0;
}

/* ---- the test's own kinematics (row-major 4 x 4) --------------------------- */

static void mat_mul(const double a[16], const double b[16], double out[16]) {
    double r[16];
    int i, j, k;
    for (i = 0; i < 4; ++i)
        for (j = 0; j < 4; ++j) {
            r[4 * i + j] = 0;
            for (k = 0; k < 4; ++k) r[4 * i + j] += a[4 * i + k] * b[4 * k + j];
        }
    memcpy(out, r, sizeof r);
}

/* Rodrigues: R = cos t I + sin t [k]x + (1 - cos t) k k^T, into the top-left of m. */
static void rotation_about(const double k[3], double t, double m[16]) {
    const double c = cos(t), s = sin(t), v = 1 - c;
    memset(m, 0, 16 * sizeof(double));
    m[0] = c + k[0] * k[0] * v, m[1] = k[0] * k[1] * v - k[2] * s, m[2] = k[0] * k[2] * v + k[1] * s;
    m[4] = k[1] * k[0] * v + k[2] * s, m[5] = c + k[1] * k[1] * v, m[6] = k[1] * k[2] * v - k[0] * s;
    m[8] = k[2] * k[0] * v - k[1] * s, m[9] = k[2] * k[1] * v + k[0] * s, m[10] = c + k[2] * k[2] * v;
    m[15] = 1;
}

/* origin: translation xyz, rotation Rz(yaw) Ry(pitch) Rx(roll). */
static void origin_matrix(const joint *j, double m[16]) {
    static const double x[3] = {1, 0, 0}, y[3] = {0, 1, 0}, z[3] = {0, 0, 1};
    double rx[16], ry[16], rz[16];
    rotation_about(x, j->rpy[0], rx);
    rotation_about(y, j->rpy[1], ry);
    rotation_about(z, j->rpy[2], rz);
    mat_mul(rz, ry, m);
    mat_mul(m, rx, m);
    m[3] = j->xyz[0], m[7] = j->xyz[1], m[11] = j->xyz[2];
}

static void fk(const chain *c, const double *q, double tip[16]) {
    double m[16], motion[16];
    int k, v = 0;
    memset(tip, 0, 16 * sizeof(double));
    tip[0] = tip[5] = tip[10] = tip[15] = 1;
    for (k = 0; k < c->count; ++k) {
        const joint *j = &c->joints[k];
        origin_matrix(j, m);
        mat_mul(tip, m, tip);
        if (!j->moving) continue;
        if (j->prismatic) {
            memset(motion, 0, sizeof motion);
            motion[0] = motion[5] = motion[10] = motion[15] = 1;
            motion[3] = j->axis[0] * q[v], motion[7] = j->axis[1] * q[v], motion[11] = j->axis[2] * q[v];
        } else {
            rotation_about(j->axis, q[v], motion);
        }
        mat_mul(tip, motion, tip);
        ++v;
    }
}

/* The unit quaternion (x, y, z, w) of a rotation matrix (Shepperd's method). */
static void quat_of(const double m[16], double q[4]) {
    const double t = m[0] + m[5] + m[10];
    if (t > 0) {
        const double s = 2 * sqrt(1 + t);
        q[3] = s / 4, q[0] = (m[9] - m[6]) / s, q[1] = (m[2] - m[8]) / s, q[2] = (m[4] - m[1]) / s;
    } else if (m[0] > m[5] && m[0] > m[10]) {
        const double s = 2 * sqrt(1 + m[0] - m[5] - m[10]);
        q[3] = (m[9] - m[6]) / s, q[0] = s / 4, q[1] = (m[1] + m[4]) / s, q[2] = (m[2] + m[8]) / s;
    } else if (m[5] > m[10]) {
        const double s = 2 * sqrt(1 + m[5] - m[0] - m[10]);
        q[3] = (m[2] - m[8]) / s, q[0] = (m[1] + m[4]) / s, q[1] = s / 4, q[2] = (m[6] + m[9]) / s;
    } else {
        const double s = 2 * sqrt(1 + m[10] - m[0] - m[5]);
        q[3] = (m[4] - m[1]) / s, q[0] = (m[2] + m[8]) / s, q[1] = (m[6] + m[9]) / s, q[2] = s / 4;
    }
}

/* The rotation vector of a b^-1 (unit quaternions x, y, z, w). */
static void rotation_error(const double a[4], const double b[4], double v[3]) {
    double w = a[3] * b[3] + a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    double x = -a[3] * b[0] + a[0] * b[3] - a[1] * b[2] + a[2] * b[1];
    double y = -a[3] * b[1] + a[0] * b[2] + a[1] * b[3] - a[2] * b[0];
    double z = -a[3] * b[2] - a[0] * b[1] + a[1] * b[0] + a[2] * b[3];
    double s, angle;
    if (w < 0) w = -w, x = -x, y = -y, z = -z;
    s = sqrt(x * x + y * y + z * z);
    angle = 2 * atan2(s, w);
    v[0] = s > 0 ? x / s * angle : 0, v[1] = s > 0 ? y / s * angle : 0, v[2] = s > 0 ? z / s * angle : 0;
}

static void slerp(const double a[4], const double b_in[4], double s, double out[4]) {
    double b[4], c = a[0] * b_in[0] + a[1] * b_in[1] + a[2] * b_in[2] + a[3] * b_in[3], wa = 1 - s, wb = s, n;
    int i;
    for (i = 0; i < 4; ++i) b[i] = c < 0 ? -b_in[i] : b_in[i];
    c = fabs(c);
    if (c < 1 - 1e-12) {
        const double th = acos(c);
        wa = sin((1 - s) * th) / sin(th);
        wb = sin(s * th) / sin(th);
    }
    for (i = 0; i < 4; ++i) out[i] = wa * a[i] + wb * b[i];
    n = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
    for (i = 0; i < 4; ++i) out[i] /= n;
}

/* ---- the test's own CSV reader --------------------------------------------- */

static char csv_names[MAX_JOINTS][64];
static double rows[MAX_ROWS][MAX_JOINTS];

/* A header of names (no quoting needed for these arms) and rows of numbers;
 * the row count, or -1 when a row does not have `columns` numbers. */
static int read_csv(const char *path, int columns) {
    static char buf[1 << 20];
    char *line, *save = NULL;
    int row = -1;
    read_text(path, buf, sizeof buf);
    for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *p = line, *next;
        int col = 0;
        if (row < 0) {
            char *field, *fsave = NULL;
            for (field = strtok_r(line, ",", &fsave); field && col < MAX_JOINTS; field = strtok_r(NULL, ",", &fsave))
                snprintf(csv_names[col++], sizeof csv_names[0], "%s", field);
            if (col != columns) return -1;
            row = 0;
            continue;
        }
        if (row >= MAX_ROWS) return -1;
        for (col = 0; col < columns; ++col) {
            rows[row][col] = strtod(p, &next);
            if (next == p || (*next != ',' && *next != '\0') || !isfinite(rows[row][col])) return -1;
            p = *next ? next + 1 : next;
        }
        if (*p) return -1;
        ++row;
    }
    return row;
}

/* ---- the independent check --------------------------------------------------- */

typedef struct line_spec {
    const char *file, *tip;
    double from[MAX_JOINTS];
    double to[7];
    int to_count;
    double step, rotation_step, joint_step;
    const char *extra; /* more options for ikc path (NULL: none) */
} line_spec;

/* The fraction of the line the rows follow (module comment); *all_count
 * says whether every row counted. */
static double check_rows(const line_spec *ls, const chain *c, int row_count, int *all_count, int *segments) {
    double start[16], q0[4], q1[4], p0[3], p1[3], dist = 0, ev[3], angle;
    int i, v, good = 0;
    fk(c, ls->from, start);
    quat_of(start, q0);
    p0[0] = start[3], p0[1] = start[7], p0[2] = start[11];
    for (i = 0; i < 3; ++i) {
        p1[i] = ls->to[i];
        dist += (p1[i] - p0[i]) * (p1[i] - p0[i]);
    }
    dist = sqrt(dist);
    if (ls->to_count == 7)
        memcpy(q1, ls->to + 3, sizeof q1);
    else
        memcpy(q1, q0, sizeof q1);
    rotation_error(q1, q0, ev);
    angle = sqrt(ev[0] * ev[0] + ev[1] * ev[1] + ev[2] * ev[2]);
    *segments = (int)ceil(fmax(dist / ls->step, angle / ls->rotation_step) * (1 - 1e-5));
    if (*segments < 1) *segments = 1;
    for (i = 0; i < row_count; ++i) {
        const double s = (double)i / *segments;
        double tip[16], want[4], have[4], e[3];
        int ok = 1;
        fk(c, rows[i], tip);
        quat_of(tip, have);
        slerp(q0, q1, s, want);
        rotation_error(want, have, e);
        for (v = 0; v < 3; ++v) {
            const double p = p0[v] + s * (p1[v] - p0[v]);
            ok &= fabs(tip[3 + 4 * v] - p) <= TOL + SLACK && fabs(e[v]) <= TOL + SLACK;
        }
        for (v = 0; v < c->variables; ++v) {
            const joint *j = NULL;
            int k, m = -1;
            for (k = 0; k < c->count; ++k)
                if (c->joints[k].moving && ++m == v) j = &c->joints[k];
            ok &= rows[i][v] >= j->lower && rows[i][v] <= j->upper;
            if (i > 0) ok &= fabs(rows[i][v] - rows[i - 1][v]) <= ls->joint_step;
        }
        if (i == 0) {
            for (v = 0; v < c->variables; ++v) ok &= fabs(rows[0][v] - ls->from[v]) < 1e-6;
        }
        if (!ok) break;
        ++good;
    }
    *all_count = good == row_count;
    return good > 0 ? (double)(good - 1) / *segments : 0;
}

static void join(char *out, size_t size, const double *values, int count) {
    size_t used = 0;
    int i;
    out[0] = '\0';
    for (i = 0; i < count && used < size; ++i)
        used += (size_t)snprintf(out + used, size - used, "%s%.17g", i ? "," : "", values[i]);
}

/* ikc path on the spec, written to CSV; the printed fraction against the
 * independent one; returns the printed fraction (-1 on failure). */
static double path_case(const char *name, const line_spec *ls) {
    char urdf[600], out[400], from[800], to[300], args[3000];
    chain c;
    double printed = -1, found;
    int code, rows_read, all_count = 0, segments = 0;
    if (!real_asset(ls->file, urdf, sizeof urdf)) return -1;
    if (!load_chain(urdf, ls->tip, &c)) {
        CHECK(0, "%s: the test's reader found no chain to %s", name, ls->tip);
        return -1;
    }
    path_in(out, sizeof out, "path.csv");
    join(from, sizeof from, ls->from, c.variables);
    join(to, sizeof to, ls->to, ls->to_count);
    snprintf(args, sizeof args,
             "path '%s' --tip %s --from %s --to %s --step %.17g --rotation-step %.17g "
             "--joint-step %.17g -o '%s' %s",
             urdf, ls->tip, from, to, ls->step, ls->rotation_step, ls->joint_step, out, ls->extra ? ls->extra : "");
    remove(out);
    code = run(args);
    CHECK(code == 0 && sscanf(out_text, "fraction %lf", &printed) == 1, "%s: exit %d: %s%s", name, code, out_text,
          err_text);
    rows_read = read_csv(out, c.variables);
    CHECK(rows_read >= 1, "%s: CSV read back: %d rows", name, rows_read);
    if (rows_read < 1) return -1;
    found = check_rows(ls, &c, rows_read, &all_count, &segments);
    printf("%s: ikc printed fraction %.4f, the independent check finds %.4f (%d rows, %d segments)\n", name, printed,
           found, rows_read, segments);
    CHECK(fabs(printed - found) <= 5e-5, "%s: printed %g, found %g", name, printed, found);
    CHECK(all_count, "%s: a row written does not hold", name);
    CHECK((printed == 1) == (strstr(err_text, "warning") == NULL), "%s: warning iff short: %s", name, err_text);
    return printed;
}

/* Lines within reach on each arm: complete (fraction 1). */
static void test_lines(void) {
    const line_spec specs[3] = {{"urdf/ur5_joint_limited_robot.urdf",
                                 "ee_link",
                                 {0.3, -1.2, 1.4, -1.8, -1.4, 0.2},
                                 {0.35, 0.35, 0.25, 0.1, 0.7, 0.1, 0.7},
                                 7,
                                 0.001,
                                 0.01,
                                 0.1,
                                 NULL},
                                {"urdf/panda.urdf",
                                 "panda_link8",
                                 {0.2, 0.1, 0.1, -2.0, 0.1, 1.9, 0.6},
                                 {0.3, 0.25, 0.45},
                                 3,
                                 0.001,
                                 0.01,
                                 0.1,
                                 NULL},
                                {"urdf/abb_irb2400.urdf",
                                 "tool0",
                                 {0.3, 0.2, 0.2, 0.3, 0.8, 0.1},
                                 {1.0, 0.45, 1.0},
                                 3,
                                 0.002,
                                 0.01,
                                 0.1,
                                 NULL}};
    static const char *const names[3] = {"UR5", "Panda", "IRB 2400"};
    int a;
    double n;
    for (a = 0; a < 3; ++a) CHECK((n = path_case(names[a], &specs[a])) == 1 || n < 0, "%s: fraction %g", names[a], n);
}

/* The UR5 straight out of reach: the path stops short, and what was written still holds. */
static void test_out_of_reach(void) {
    const line_spec spec = {"urdf/ur5_joint_limited_robot.urdf",
                            "ee_link",
                            {0.3, -1.2, 1.4, -1.8, -1.4, 0.2},
                            {1.6, 0.6, 0.3},
                            3,
                            0.001,
                            0.01,
                            0.1,
                            NULL};
    const double f = path_case("UR5 out of reach", &spec);
    CHECK(f < 0 || (f > 0 && f < 1), "out of reach: fraction %g", f);
}

/* --scene: the UR5 sent down through the table of examples/ur5_cell.scene.json
 * (its top at z = -0.09 m in the base frame, margin 1 cm). The path stops
 * short of the table: every written row's tool point (the test's own FK) is
 * at least the margin above the top, the fraction is below where the line
 * crosses top + margin, and the same line without the scene goes further. */
static void test_scene(void) {
    const double top = -0.09, margin = 0.01;
    char extra[1600], data[600];
    line_spec spec = {"urdf/ur5_joint_limited_robot.urdf",
                      "ee_link",
                      {0.3, -1.2, 1.4, -1.8, -1.4, 0.2},
                      {0.6, 0.2, -0.3},
                      3,
                      0.001,
                      0.01,
                      0.1,
                      NULL};
    chain c;
    double start[16], bare, in_cell, lowest = 1e30, crossing;
    int i, rows_read;
    if (!real_asset("urdf/example-robot-data", data, sizeof data) || !real_asset(spec.file, extra, sizeof extra) ||
        !load_chain(extra, spec.tip, &c))
        return;
    fk(&c, spec.from, start);
    crossing = (start[11] - (top + margin)) / (start[11] - spec.to[2]);
    bare = path_case("UR5 down through the table, no scene", &spec);
    snprintf(extra, sizeof extra, "--scene '%s/examples/ur5_cell.scene.json' --package-path example-robot-data='%s'",
             IKIT_SOURCE_DIR, data);
    spec.extra = extra;
    in_cell = path_case("UR5 down through the table, in the cell", &spec);
    path_in(extra, sizeof extra, "path.csv");
    rows_read = read_csv(extra, c.variables);
    for (i = 0; i < rows_read; ++i) {
        double tip[16];
        fk(&c, rows[i], tip);
        if (tip[11] < lowest) lowest = tip[11];
    }
    printf(
        "UR5 in the cell: fraction %.4f (%.4f without the scene; the line crosses the table's top + margin at %.4f), "
        "lowest tool point z = %.4f m\n",
        in_cell, bare, crossing, lowest);
    CHECK(in_cell > 0 && in_cell < crossing && in_cell < bare, "in the cell: fraction %g, crossing at %g, bare %g",
          in_cell, crossing, bare);
    CHECK(rows_read > 1 && lowest >= top + margin, "in the cell: the tool stays %g m above the top (lowest z %g)",
          margin, lowest);
}

/* -o PATH.json: the report with the same waypoints as the CSV. */
static void test_json(void) {
    char urdf[600], csv[400], json[400], args[2000];
    static char buf[1 << 20];
    cJSON *root, *waypoints, *joints;
    int rows_read, w, v, same = 1;
    if (!real_asset("urdf/ur5_joint_limited_robot.urdf", urdf, sizeof urdf)) return;
    path_in(csv, sizeof csv, "same.csv");
    path_in(json, sizeof json, "same.json");
    snprintf(args, sizeof args, "path '%s' --tip ee_link --from 0.3,-1.2,1.4,-1.8,-1.4,0.2 --to 0.4,0.3,0.3 -o '%s'",
             urdf, csv);
    CHECK(run(args) == 0, "csv: %s", err_text);
    snprintf(args, sizeof args,
             "path '%s' --tip ee_link --from 0.3,-1.2,1.4,-1.8,-1.4,0.2 --to 0.4,0.3,0.3 -o '%s' --json", urdf, json);
    CHECK(run(args) == 0, "json: %s", err_text);
    rows_read = read_csv(csv, 6);
    read_text(json, buf, sizeof buf);
    root = cJSON_Parse(buf);
    waypoints = cJSON_GetObjectItem(root, "waypoints");
    joints = cJSON_GetObjectItem(root, "joints");
    CHECK(root && cJSON_GetArraySize(waypoints) == rows_read && rows_read > 1 && cJSON_GetArraySize(joints) == 6 &&
              strcmp(cJSON_GetStringValue(cJSON_GetArrayItem(joints, 0)), csv_names[0]) == 0 &&
              cJSON_GetObjectItem(root, "fraction") &&
              cJSON_GetObjectItem(root, "waypoint_count")->valueint == rows_read,
          "JSON report: %.300s", buf);
    for (w = 0; root && w < rows_read; ++w)
        for (v = 0; v < 6; ++v)
            same &= fabs(cJSON_GetArrayItem(cJSON_GetArrayItem(waypoints, w), v)->valuedouble - rows[w][v]) < 1e-7;
    CHECK(same, "the JSON waypoints are the CSV's");
    root = root ? (cJSON_Delete(root), cJSON_Parse(out_text)) : NULL;
    CHECK(root && cJSON_GetObjectItem(root, "stop") && !cJSON_GetObjectItem(root, "waypoints"),
          "--json report on stdout: %s", out_text);
    cJSON_Delete(root);
}

static void test_bad_input(void) {
    char urdf[600], args[2000], out[400];
    static const struct {
        const char *tail;
        int code;
        const char *says;
    } cases[] = {
        {"--tip ee_link --from 0,0,0,0,0,0 --to nan,0,0", 2, "--to wants"},
        {"--tip ee_link --from 0,0,0,0,0,0 --to 0.4,0,0,inf,0,0,1", 2, "--to wants"},
        {"--tip ee_link --from 0,0,0,0,0,0 --to 0.4,0,0,0,0,0,2", 2, "length 1"},
        {"--tip ee_link --from 0,0,0,0,0 --to 0.4,0,0.3", 2, "6 variables"},
        {"--tip ee_link --from 0,0,0,0,0,9 --to 0.4,0,0.3", 2, "wrist_3_joint"},
        {"--tip ee_link --from 0,0,0,0,0,0 --to 0.4,0,0.3 --step 0", 2, "--step"},
        {"--tip ee_link --from 0,0,0,0,0,0 --to 0.4,0,0.3 --step 1e-12", 2, "waypoints"},
        {"--tip ee_link --from 0,0,0,0,0,0 --to 0.4,0,0.3 --joint-step -1", 2, "--joint-step"},
        {"--tip ee_link --from 0,0,0,0,0,0 --to 0.4,0,0.3 -o x.txt", 2, ".csv or .json"},
        {"--tip ee_lnk --from 0,0,0,0,0,0 --to 0.4,0,0.3", 5, "ee_link"},
        {"--tip ee_link --to 0.4,0,0.3", 2, "--from"},
    };
    size_t i;
    if (!real_asset("urdf/ur5_joint_limited_robot.urdf", urdf, sizeof urdf)) return;
    for (i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        int code;
        snprintf(args, sizeof args, "path '%s' %s", urdf, cases[i].tail);
        code = run(args);
        CHECK(code == cases[i].code && strstr(err_text, cases[i].says), "%s: exit %d (want %d): %s", cases[i].tail,
              code, cases[i].code, err_text);
    }
    path_in(out, sizeof out, "missing.urdf");
    snprintf(args, sizeof args, "path '%s' --tip a --from 0 --to 0,0,0", out);
    CHECK(run(args) == 3, "missing file: %s", err_text);
    path_in(out, sizeof out, "folder.csv");
    mkdir(out, 0700);
    snprintf(args, sizeof args, "path '%s' --tip ee_link --from 0.3,-1.2,1.4,-1.8,-1.4,0.2 --to 0.4,0.3,0.3 -o '%s'",
             urdf, out);
    CHECK(run(args) == 6, "-o onto a folder refused: %s", err_text);
}

/* A revolute joint whose <limit> has neither lower nor upper is held at 0
 * (as urdfdom reads it): ikc says so on stderr, naming the joint and line. */
static void test_frozen_joint_warning(void) {
    char urdf[400], args[1000];
    path_in(urdf, sizeof urdf, "no_range.urdf");
    write_text(urdf,
               "<robot name='r'>\n  <link name='a'/><link name='b'/><link name='c'/>\n"
               "  <joint name='held' type='revolute'><parent link='a'/><child link='b'/><axis xyz='0 0 1'/>"
               "<limit effort='1' velocity='1'/></joint>\n"
               "  <joint name='j2' type='revolute'><parent link='b'/><child link='c'/><origin xyz='0 0 0.5'/>"
               "<axis xyz='0 1 0'/><limit lower='-1' upper='1' effort='1' velocity='1'/></joint>\n</robot>\n");
    snprintf(args, sizeof args, "path '%s' --tip c --from 0,0.1 --to 0.1,0,0.45", urdf);
    CHECK(run(args) == 0 && strstr(err_text, "line 3: joint 'held'") && strstr(err_text, "held at 0") &&
              !strstr(err_text, "'j2'"),
          "no-range warning: %s", err_text);
}

int main(void) {
    if (!ikc_run_begin("path")) return 1;
    test_lines();
    test_out_of_reach();
    test_scene();
    test_json();
    test_bad_input();
    test_frozen_joint_warning();
    ikc_run_end();
    return check_summary("test_ikc_path");
}
