/* ikit io: scenes of obstacles from JSON (see urdf_collision.h), on cJSON. */
#include <ikit/stl.h>
#include <ikit/urdf_collision.h>

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_read.h"
#include "text_scan.h"

static ik_result fail_path(ik_error *error, ik_result r, const char *path, const char *fmt, const char *detail) {
    ik_error_set(error, 0, 0, -1, "%.80s: %s%.160s", path, fmt, detail ? detail : "");
    if (error) snprintf(error->path, sizeof error->path, "%s", path);
    return r;
}

/* `count` finite numbers of array `item` into out. */
static ik_result read_numbers(const cJSON *item, double *out, int count, const char *path, ik_error *error) {
    int k = 0;
    const cJSON *n;
    char message[64];
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != count) {
        snprintf(message, sizeof message, "expected an array of %d numbers", count);
        return fail_path(error, IK_ERR_PARSE, path, message, NULL);
    }
    cJSON_ArrayForEach(n, item) {
        if (!cJSON_IsNumber(n)) return fail_path(error, IK_ERR_PARSE, path, "expected numbers only", NULL);
        out[k] = n->valuedouble;
        if (!isfinite(out[k]) || fabs(out[k]) > 1e30) {
            snprintf(message, sizeof message, "number %d is not finite", k + 1);
            return fail_path(error, IK_ERR_NONFINITE, path, message, NULL);
        }
        ++k;
    }
    return IK_OK;
}

/* The transform from `frame` to the base: both must hang from the root
 * through fixed joints only (or be the same link). */
static ik_result frame_to_base(const ik_urdf *u, const char *frame, const char *base_link, ik_transform *out,
                               ik_error *error) {
    int f, b, k;
    ik_transform to_root[2];
    ik_result r;
    *out = ik_transform_identity();
    if (!frame || (base_link && strcmp(frame, base_link) == 0)) return IK_OK;
    if (!u || !base_link) {
        ik_error_set(error, 0, 0, -1, "/frame: '%.60s' is not the base (no robot given)", frame);
        return IK_ERR_NOT_FOUND;
    }
    r = ik_urdf_find_link(u, frame, &f, error);
    if (r == IK_OK) r = ik_urdf_find_link(u, base_link, &b, error);
    if (r != IK_OK) {
        char message[sizeof error->message];
        if (error) {
            snprintf(message, sizeof message, "%s", error->message);
            ik_error_set(error, 0, 0, -1, "/frame: %.200s", message);
        }
        return r;
    }
    for (k = 0; k < 2; ++k) {
        int link = k == 0 ? f : b, steps = 0;
        ik_transform t = ik_transform_identity();
        while (u->links[link].parent_joint >= 0 && steps++ <= u->link_count) {
            const ik_urdf_joint *j = &u->joints[u->links[link].parent_joint];
            if (j->type != IK_ROBOT_FIXED) {
                ik_error_set(error, 0, 0, -1,
                             "/frame: link '%.60s' moves against the base '%.60s' (joint '%.60s' is not fixed); "
                             "obstacles need a frame fixed to the base",
                             frame, base_link, j->name);
                return IK_ERR_HIERARCHY;
            }
            t = ik_transform_mul(j->origin, t);
            link = j->parent_link;
        }
        to_root[k] = t;
    }
    *out = ik_transform_mul(ik_transform_inverse(to_root[1]), to_root[0]);
    return IK_OK;
}

static ik_result read_obstacle(const cJSON *item, int index, ik_transform frame_bs, const ik_mesh_paths *paths,
                               ik_scene *scene, ik_error *error) {
    char path[64], field[96];
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(item, "name");
    const cJSON *box = cJSON_GetObjectItemCaseSensitive(item, "box");
    const cJSON *cylinder = cJSON_GetObjectItemCaseSensitive(item, "cylinder");
    const cJSON *sphere = cJSON_GetObjectItemCaseSensitive(item, "sphere");
    const cJSON *mesh = cJSON_GetObjectItemCaseSensitive(item, "mesh");
    const cJSON *pose = cJSON_GetObjectItemCaseSensitive(item, "pose");
    ik_obstacle *o = &scene->obstacles[index];
    double p[7] = {0, 0, 0, 0, 0, 0, 1}, v[3];
    ik_transform local;
    ik_result r;
    size_t length;
    int shapes = (box != NULL) + (cylinder != NULL) + (sphere != NULL) + (mesh != NULL);
    snprintf(path, sizeof path, "/obstacles/%d", index);
    if (!cJSON_IsObject(item)) return fail_path(error, IK_ERR_PARSE, path, "expected an object", NULL);
    if (shapes != 1)
        return fail_path(error, IK_ERR_PARSE, path, "expected exactly one of box, cylinder, sphere, mesh", NULL);
    if (name && !cJSON_IsString(name)) return fail_path(error, IK_ERR_PARSE, path, "/name: expected a string", NULL);
    {
        char fallback[32];
        const char *text = name ? name->valuestring : fallback;
        snprintf(fallback, sizeof fallback, "obstacle %d", index);
        length = strlen(text);
        scene->names[index] = (char *)malloc(length + 1);
        if (!scene->names[index]) return IK_ERR_NO_MEMORY;
        memcpy(scene->names[index], text, length + 1);
        o->name = scene->names[index];
    }
    if (pose) {
        snprintf(field, sizeof field, "%s/pose", path);
        if (!cJSON_IsArray(pose) || (cJSON_GetArraySize(pose) != 3 && cJSON_GetArraySize(pose) != 7))
            return fail_path(error, IK_ERR_PARSE, field, "expected [x, y, z] or [x, y, z, qx, qy, qz, qw]", NULL);
        r = read_numbers(pose, p, cJSON_GetArraySize(pose), field, error);
        if (r != IK_OK) return r;
        {
            double n = sqrt(p[3] * p[3] + p[4] * p[4] + p[5] * p[5] + p[6] * p[6]);
            if (fabs(n - 1) > 1e-3)
                return fail_path(error, IK_ERR_RANGE, field, "the quaternion is not of unit length", NULL);
            for (r = 3; r < 7; ++r) p[r] /= n;
            r = IK_OK;
        }
    }
    local = ik_transform_make(ik_v3((ik_real)p[0], (ik_real)p[1], (ik_real)p[2]),
                              ik_q((ik_real)p[3], (ik_real)p[4], (ik_real)p[5], (ik_real)p[6]), ik_v3(1, 1, 1));
    {
        const cJSON *touches = cJSON_GetObjectItemCaseSensitive(item, "touches"), *link;
        size_t total = 1;
        snprintf(field, sizeof field, "%s/touches", path);
        if (touches && !cJSON_IsArray(touches))
            return fail_path(error, IK_ERR_PARSE, field, "expected an array of link names", NULL);
        cJSON_ArrayForEach(link, touches) {
            if (!cJSON_IsString(link) || !link->valuestring[0])
                return fail_path(error, IK_ERR_PARSE, field, "expected link names", NULL);
            total += strlen(link->valuestring) + 1;
        }
        if (touches && cJSON_GetArraySize(touches) > 0) {
            char *list = (char *)malloc(total), *at;
            if (!list) return IK_ERR_NO_MEMORY;
            at = list;
            cJSON_ArrayForEach(link, touches) {
                size_t bytes = strlen(link->valuestring) + 1;
                memcpy(at, link->valuestring, bytes);
                at += bytes;
            }
            *at = 0;
            scene->touches[index] = list;
        }
    }
    if (box) {
        snprintf(field, sizeof field, "%s/box", path);
        r = read_numbers(box, v, 3, field, error);
        if (r != IK_OK) return r;
        if (!(v[0] > 0 && v[1] > 0 && v[2] > 0))
            return fail_path(error, IK_ERR_RANGE, field, "sizes must be > 0", NULL);
        o->shape = IK_OBSTACLE_BOX;
        o->half_extents = ik_v3((ik_real)(v[0] / 2), (ik_real)(v[1] / 2), (ik_real)(v[2] / 2));
    } else if (cylinder) {
        snprintf(field, sizeof field, "%s/cylinder", path);
        r = read_numbers(cylinder, v, 2, field, error);
        if (r != IK_OK) return r;
        if (!(v[0] > 0 && v[1] > 0))
            return fail_path(error, IK_ERR_RANGE, field, "radius and length must be > 0", NULL);
        o->shape = IK_OBSTACLE_CYLINDER;
        o->radius = (ik_real)v[0];
        o->half_length = (ik_real)(v[1] / 2);
    } else if (sphere) {
        snprintf(field, sizeof field, "%s/sphere", path);
        if (!cJSON_IsNumber(sphere)) return fail_path(error, IK_ERR_PARSE, field, "expected a radius", NULL);
        if (!isfinite(sphere->valuedouble) || fabs(sphere->valuedouble) > 1e30)
            return fail_path(error, IK_ERR_NONFINITE, field, "not finite", NULL);
        if (!(sphere->valuedouble > 0)) return fail_path(error, IK_ERR_RANGE, field, "radius must be > 0", NULL);
        o->shape = IK_OBSTACLE_SPHERE;
        o->radius = (ik_real)sphere->valuedouble;
    } else {
        const cJSON *scale_item = cJSON_GetObjectItemCaseSensitive(item, "scale");
        double scale[3] = {1, 1, 1}, lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
        char file[1024];
        ik_mesh *m = NULL;
        ik_error inner;
        size_t i;
        int k;
        snprintf(field, sizeof field, "%s/mesh", path);
        if (!cJSON_IsString(mesh)) return fail_path(error, IK_ERR_PARSE, field, "expected a file name", NULL);
        if (scale_item) {
            snprintf(field, sizeof field, "%s/scale", path);
            r = read_numbers(scale_item, scale, 3, field, error);
            if (r != IK_OK) return r;
            snprintf(field, sizeof field, "%s/mesh", path);
        }
        r = ik_urdf_mesh_path(mesh->valuestring, paths ? paths->urdf_dir : NULL, paths ? paths->packages : NULL,
                              paths ? paths->package_count : 0, file, sizeof file, &inner);
        if (r == IK_OK) r = ik_stl_read_file(file, &m, &inner);
        if (r != IK_OK) return fail_path(error, r, field, "", inner.message);
        for (i = 0; i < 3 * m->triangle_count; ++i)
            for (k = 0; k < 3; ++k) {
                double x = (double)m->vertices[3 * i + k] * scale[k];
                if (x < lo[k]) lo[k] = x;
                if (x > hi[k]) hi[k] = x;
            }
        ik_mesh_free(m);
        o->shape = IK_OBSTACLE_BOX;
        /* The bounding box, widened by a part in a million for rounding
         * (a flat mesh gets a sliver of thickness). */
        for (k = 0; k < 3; ++k) {
            double widen = 1e-6 * (fabs(lo[k]) + fabs(hi[k])) + 1e-7;
            v[k] = 0.5 * (hi[k] - lo[k]) + widen;
            lo[k] = 0.5 * (lo[k] + hi[k]);
        }
        o->half_extents = ik_v3((ik_real)v[0], (ik_real)v[1], (ik_real)v[2]);
        local = ik_transform_mul(local, ik_transform_make(ik_v3((ik_real)lo[0], (ik_real)lo[1], (ik_real)lo[2]),
                                                          ik_quat_identity(), ik_v3(1, 1, 1)));
        scene->from_mesh[index] = 1;
    }
    o->pose_bs = ik_transform_mul(frame_bs, local);
    if (!ik_transform_finite(o->pose_bs))
        return fail_path(error, IK_ERR_NONFINITE, path, "the pose is out of range", NULL);
    return IK_OK;
}

/* ---- MoveIt's planning-scene text export (.scene) ---------------------
 * As MoveIt's PlanningScene::saveGeometryToStream writes it: a line with the
 * scene's name; for each object "* NAME", in MoveIt 1.1 and later the
 * object's pose (a line "x y z", a line "qx qy qz qw"), the shape count, and
 * for each shape its kind ("box", "cylinder", "sphere", "cone", "mesh",
 * "plane"), its dimensions ("sx sy sz"; "radius length"; "radius"; a mesh's
 * "vertices triangles" then a line per vertex and per triangle), its pose
 * (two lines, within the object's), and a colour line "r g b a"; then (1.1
 * and later) the count of subframes, each a name and a pose; a line "."
 * ends the file. Poses are in the planning frame (the URDF's root). A cone is
 * bounded by the cylinder holding it, a mesh by its box; planes (infinite)
 * are refused. */

typedef struct text_lines {
    const char *data;
    size_t size, pos;
    long line;
    const char *text; /* the current line (not NUL-terminated) */
    size_t length;
} text_lines;

/* The next line that is not blank, trimmed; 0 at the end. */
static int next_line(text_lines *t) {
    while (t->pos < t->size) {
        size_t start = t->pos, end;
        while (t->pos < t->size && t->data[t->pos] != '\n') ++t->pos;
        end = t->pos;
        if (t->pos < t->size) ++t->pos;
        ++t->line;
        while (start < end && (t->data[start] == ' ' || t->data[start] == '\t' || t->data[start] == '\r')) ++start;
        while (end > start && (t->data[end - 1] == ' ' || t->data[end - 1] == '\t' || t->data[end - 1] == '\r')) --end;
        if (end > start) {
            t->text = t->data + start;
            t->length = end - start;
            return 1;
        }
    }
    t->text = "";
    t->length = 0;
    return 0;
}

static ik_result line_fail(ik_error *error, const text_lines *t, ik_result r, const char *what) {
    ik_error_set(error, t->line, 0, -1, "MoveIt scene: %s, found '%.*s'", what, (int)(t->length > 40 ? 40 : t->length),
                 t->text);
    return r;
}

/* The numbers on the current line: their count (up to max kept), -1 for a
 * word that is not a number, -2 for a number that is not finite. */
static int line_numbers(const text_lines *t, double *out, int max) {
    ik_text_scan scan;
    ik_text_token bad;
    int n, k;
    ik_text_scan_init(&scan, t->text, t->length, 0);
    n = ik_text_line_numbers(&scan, out, max, &bad);
    for (k = 0; k < n && k < max; ++k)
        if (fabs(out[k]) > 1e30) return -2;
    return n;
}

/* Exactly `count` numbers on the next line. */
static ik_result expect_numbers(text_lines *t, double *out, int count, const char *what, ik_error *error) {
    int n;
    char message[96];
    snprintf(message, sizeof message, "the file ends early (expected %s)", what);
    if (!next_line(t)) return line_fail(error, t, IK_ERR_PARSE, message);
    n = line_numbers(t, out, count);
    snprintf(message, sizeof message, "expected %s (%d numbers)", what, count);
    if (n == -2) return line_fail(error, t, IK_ERR_NONFINITE, "a number is not finite");
    if (n != count) return line_fail(error, t, IK_ERR_PARSE, message);
    return IK_OK;
}

/* A pose: "x y z" then "qx qy qz qw" (unit within 1e-3, normalised). */
static ik_result read_pose_lines(text_lines *t, ik_transform *out, ik_error *error) {
    double p[3], q[4], n;
    ik_result r = expect_numbers(t, p, 3, "a position", error);
    if (r == IK_OK) r = expect_numbers(t, q, 4, "a quaternion", error);
    if (r != IK_OK) return r;
    n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (fabs(n - 1) > 1e-3) return line_fail(error, t, IK_ERR_RANGE, "the quaternion is not of unit length");
    *out = ik_transform_make(ik_v3((ik_real)p[0], (ik_real)p[1], (ik_real)p[2]),
                             ik_q((ik_real)(q[0] / n), (ik_real)(q[1] / n), (ik_real)(q[2] / n), (ik_real)(q[3] / n)),
                             ik_v3(1, 1, 1));
    return IK_OK;
}

static int line_is(const text_lines *t, const char *word) {
    return t->length == strlen(word) && memcmp(t->text, word, t->length) == 0;
}

/* Room for one more obstacle; its name "OBJECT" or "OBJECT/k" (k from 1 for an
 * object of several shapes). */
static ik_result add_moveit_obstacle(ik_scene *scene, const char *object, size_t object_length, int shape, int shapes,
                                     const text_lines *t, ik_error *error, ik_obstacle **out) {
    char *name;
    if (scene->obstacle_count >= IK_COLLISION_MAX_OBSTACLES)
        return line_fail(error, t, IK_ERR_RANGE, "more shapes than IK_COLLISION_MAX_OBSTACLES");
    name = (char *)malloc(object_length + 16);
    if (!name) return IK_ERR_NO_MEMORY;
    if (shapes > 1)
        snprintf(name, object_length + 16, "%.*s/%d", (int)object_length, object, shape + 1);
    else
        snprintf(name, object_length + 16, "%.*s", (int)object_length, object);
    scene->names[scene->obstacle_count] = name;
    *out = &scene->obstacles[scene->obstacle_count];
    (*out)->name = name;
    ++scene->obstacle_count;
    return IK_OK;
}

static ik_result read_moveit_shape(text_lines *t, ik_scene *scene, const char *object, size_t object_length, int shape,
                                   int shapes, ik_transform object_pose, ik_transform frame_bs, ik_error *error) {
    ik_obstacle *o;
    ik_transform pose, center = ik_transform_identity();
    double d[3], lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
    ik_result r;
    int kind, k;
    static const char *const kinds[] = {"box", "cylinder", "sphere", "cone", "mesh"};
    if (!next_line(t)) return line_fail(error, t, IK_ERR_PARSE, "the file ends early (expected a shape)");
    for (kind = 0; kind < 5 && !line_is(t, kinds[kind]); ++kind) continue;
    if (line_is(t, "plane"))
        return line_fail(error, t, IK_ERR_UNSUPPORTED, "planes are infinite: give the floor as a thin box");
    if (kind == 5) return line_fail(error, t, IK_ERR_PARSE, "expected box, cylinder, sphere, cone or mesh");
    if (kind == 4) {
        double counts[2], v[3];
        long vertices, triangles, i;
        r = expect_numbers(t, counts, 2, "the mesh's vertex and triangle counts", error);
        if (r != IK_OK) return r;
        if (counts[0] < 1 || counts[1] < 1 || counts[0] > 1e7 || counts[1] > 1e7 || counts[0] != floor(counts[0]) ||
            counts[1] != floor(counts[1]))
            return line_fail(error, t, IK_ERR_RANGE, "vertex and triangle counts of 1 to 10 million");
        vertices = (long)counts[0];
        triangles = (long)counts[1];
        for (i = 0; i < vertices; ++i) {
            r = expect_numbers(t, v, 3, "a vertex", error);
            if (r != IK_OK) return r;
            for (k = 0; k < 3; ++k) {
                if (v[k] < lo[k]) lo[k] = v[k];
                if (v[k] > hi[k]) hi[k] = v[k];
            }
        }
        for (i = 0; i < triangles; ++i) {
            r = expect_numbers(t, v, 3, "a triangle's three vertex indices", error);
            if (r != IK_OK) return r;
            for (k = 0; k < 3; ++k)
                if (v[k] < 0 || v[k] >= (double)vertices || v[k] != floor(v[k]))
                    return line_fail(error, t, IK_ERR_RANGE, "a vertex index out of range");
        }
    } else {
        static const int dims[4] = {3, 2, 1, 2};
        static const char *const what[4] = {"a box's sizes", "a cylinder's radius and length", "a sphere's radius",
                                            "a cone's radius and length"};
        r = expect_numbers(t, d, dims[kind], what[kind], error);
        if (r != IK_OK) return r;
        for (k = 0; k < dims[kind]; ++k)
            if (!(d[k] > 0)) return line_fail(error, t, IK_ERR_RANGE, "sizes must be > 0");
    }
    r = read_pose_lines(t, &pose, error);
    if (r != IK_OK) return r;
    r = add_moveit_obstacle(scene, object, object_length, shape, shapes, t, error, &o);
    if (r != IK_OK) return r;
    switch (kind) {
        case 0:
            o->shape = IK_OBSTACLE_BOX;
            o->half_extents = ik_v3((ik_real)(d[0] / 2), (ik_real)(d[1] / 2), (ik_real)(d[2] / 2));
            break;
        case 1:
        case 3: /* a cone lies inside the cylinder of its base radius and length */
            o->shape = IK_OBSTACLE_CYLINDER;
            o->radius = (ik_real)d[0];
            o->half_length = (ik_real)(d[1] / 2);
            break;
        case 2:
            o->shape = IK_OBSTACLE_SPHERE;
            o->radius = (ik_real)d[0];
            break;
        default:
            o->shape = IK_OBSTACLE_BOX;
            for (k = 0; k < 3; ++k) {
                double widen = 1e-6 * (fabs(lo[k]) + fabs(hi[k])) + 1e-7;
                d[k] = 0.5 * (hi[k] - lo[k]) + widen;
                lo[k] = 0.5 * (lo[k] + hi[k]);
            }
            o->half_extents = ik_v3((ik_real)d[0], (ik_real)d[1], (ik_real)d[2]);
            center.translation = ik_v3((ik_real)lo[0], (ik_real)lo[1], (ik_real)lo[2]);
            scene->from_mesh[scene->obstacle_count - 1] = 1;
            break;
    }
    o->pose_bs = ik_transform_mul(frame_bs, ik_transform_mul(object_pose, ik_transform_mul(pose, center)));
    if (!ik_transform_finite(o->pose_bs)) return line_fail(error, t, IK_ERR_NONFINITE, "a pose out of range");
    /* The colour line, when there is one (four numbers). */
    {
        text_lines peek = *t;
        double colour[4];
        if (next_line(&peek) && line_numbers(&peek, colour, 4) == 4) *t = peek;
    }
    return IK_OK;
}

static ik_result read_moveit(const char *data, size_t size, ik_transform frame_bs, ik_scene *scene, ik_error *error) {
    text_lines t;
    ik_result r;
    memset(&t, 0, sizeof t);
    t.data = data;
    t.size = size;
    if (!next_line(&t)) return line_fail(error, &t, IK_ERR_PARSE, "empty file");
    for (;;) {
        const char *object;
        size_t object_length;
        ik_transform object_pose = ik_transform_identity();
        double numbers[4];
        int shapes, shape, newer = 0, n;
        if (!next_line(&t) || line_is(&t, ".")) return IK_OK;
        if (t.text[0] != '*') return line_fail(error, &t, IK_ERR_PARSE, "expected '* OBJECT' or '.'");
        object = t.text + 1;
        object_length = t.length - 1;
        while (object_length > 0 && (*object == ' ' || *object == '\t')) {
            ++object;
            --object_length;
        }
        if (!next_line(&t)) return line_fail(error, &t, IK_ERR_PARSE, "the file ends early (expected a shape count)");
        n = line_numbers(&t, numbers, 4);
        if (n == 3) { /* MoveIt 1.1 and later: the object's pose first */
            newer = 1;
            {
                double q[4], norm;
                if (expect_numbers(&t, q, 4, "the object's quaternion", error) != IK_OK) return IK_ERR_PARSE;
                norm = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
                if (fabs(norm - 1) > 1e-3)
                    return line_fail(error, &t, IK_ERR_RANGE, "the quaternion is not of unit length");
                object_pose = ik_transform_make(ik_v3((ik_real)numbers[0], (ik_real)numbers[1], (ik_real)numbers[2]),
                                                ik_q((ik_real)(q[0] / norm), (ik_real)(q[1] / norm),
                                                     (ik_real)(q[2] / norm), (ik_real)(q[3] / norm)),
                                                ik_v3(1, 1, 1));
            }
            if (!next_line(&t)) return line_fail(error, &t, IK_ERR_PARSE, "the file ends early (expected a count)");
            n = line_numbers(&t, numbers, 4);
        }
        if (n != 1 || !(numbers[0] >= 1 && numbers[0] <= IK_COLLISION_MAX_OBSTACLES) || numbers[0] != floor(numbers[0]))
            return line_fail(error, &t, n == -2 ? IK_ERR_NONFINITE : IK_ERR_PARSE,
                             "expected the object's shape count (1 to IK_COLLISION_MAX_OBSTACLES)");
        shapes = (int)numbers[0];
        for (shape = 0; shape < shapes; ++shape) {
            r = read_moveit_shape(&t, scene, object, object_length, shape, shapes, object_pose, frame_bs, error);
            if (r != IK_OK) return r;
        }
        if (newer) { /* subframes: a count, then a name and a pose each */
            int subframes, k;
            ik_transform unused;
            if (!next_line(&t) || line_numbers(&t, numbers, 1) != 1 || numbers[0] < 0 || numbers[0] > 1e6)
                return line_fail(error, &t, IK_ERR_PARSE, "expected the object's subframe count");
            subframes = (int)numbers[0];
            for (k = 0; k < subframes; ++k) {
                if (!next_line(&t)) return line_fail(error, &t, IK_ERR_PARSE, "the file ends early (a subframe)");
                r = read_pose_lines(&t, &unused, error);
                if (r != IK_OK) return r;
            }
        }
    }
}

/* A MoveIt scene: obstacles in the planning frame (the URDF's root). */
static ik_result read_moveit_scene(const char *data, size_t size, const ik_urdf *urdf, const char *base_link,
                                   ik_scene **out, ik_error *error) {
    ik_transform frame_bs;
    ik_scene *scene;
    ik_result r = frame_to_base(urdf, urdf ? urdf->links[urdf->root_link].name : NULL, base_link, &frame_bs, error);
    if (r != IK_OK) return r;
    scene = (ik_scene *)calloc(1, sizeof *scene);
    if (scene) {
        scene->obstacles = (ik_obstacle *)calloc(IK_COLLISION_MAX_OBSTACLES, sizeof *scene->obstacles);
        scene->names = (char **)calloc(IK_COLLISION_MAX_OBSTACLES, sizeof *scene->names);
        scene->from_mesh = (int *)calloc(IK_COLLISION_MAX_OBSTACLES, sizeof *scene->from_mesh);
    }
    r = scene && scene->obstacles && scene->names && scene->from_mesh ? read_moveit(data, size, frame_bs, scene, error)
                                                                      : IK_ERR_NO_MEMORY;
    if (r != IK_OK) {
        if (r == IK_ERR_NO_MEMORY && (!error || !error->message[0])) ik_error_set(error, 0, 0, -1, "out of memory");
        ik_scene_free(scene);
        return r;
    }
    *out = scene;
    return IK_OK;
}

ik_result ik_scene_read_memory(const char *data, size_t size, const ik_urdf *urdf, const char *base_link,
                               const ik_mesh_paths *paths, ik_scene **out, ik_error *error) {
    cJSON *root;
    const cJSON *frame, *obstacles, *item;
    ik_scene *scene;
    ik_transform frame_bs;
    ik_result r = IK_OK;
    int count, k = 0;
    ik_error_clear(error);
    if (!out) return IK_ERR_NULL;
    *out = NULL;
    if (!data) return IK_ERR_NULL;
    {
        size_t first = 0;
        while (first < size &&
               (data[first] == ' ' || data[first] == '\t' || data[first] == '\r' || data[first] == '\n'))
            ++first;
        if (first < size && data[first] != '{' && data[first] != '[')
            return read_moveit_scene(data, size, urdf, base_link, out, error);
    }
    root = cJSON_ParseWithLength(data, size);
    if (!root) {
        const char *at = cJSON_GetErrorPtr();
        long offset = at && at >= data && at <= data + size ? (long)(at - data) : -1;
        ik_error_set(error, 0, 0, offset, "scene: malformed JSON (near byte %ld)", offset);
        return IK_ERR_PARSE;
    }
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return fail_path(error, IK_ERR_PARSE, "/", "expected an object", NULL);
    }
    frame = cJSON_GetObjectItemCaseSensitive(root, "frame");
    obstacles = cJSON_GetObjectItemCaseSensitive(root, "obstacles");
    if (frame && !cJSON_IsString(frame)) r = fail_path(error, IK_ERR_PARSE, "/frame", "expected a link name", NULL);
    if (r == IK_OK && !cJSON_IsArray(obstacles))
        r = fail_path(error, IK_ERR_PARSE, "/obstacles", "expected an array of obstacles", NULL);
    if (r == IK_OK) r = frame_to_base(urdf, frame ? frame->valuestring : NULL, base_link, &frame_bs, error);
    count = r == IK_OK ? cJSON_GetArraySize(obstacles) : 0;
    if (r == IK_OK && count > IK_COLLISION_MAX_OBSTACLES)
        r = fail_path(error, IK_ERR_RANGE, "/obstacles", "more obstacles than IK_COLLISION_MAX_OBSTACLES", NULL);
    if (r != IK_OK) {
        cJSON_Delete(root);
        return r;
    }
    scene = (ik_scene *)calloc(1, sizeof *scene);
    if (scene) {
        scene->obstacles = (ik_obstacle *)calloc((size_t)count + 1, sizeof *scene->obstacles);
        scene->names = (char **)calloc((size_t)count + 1, sizeof *scene->names);
        scene->from_mesh = (int *)calloc((size_t)count + 1, sizeof *scene->from_mesh);
        scene->touches = (char **)calloc((size_t)count + 1, sizeof *scene->touches);
    }
    if (!scene || !scene->obstacles || !scene->names || !scene->from_mesh || !scene->touches) r = IK_ERR_NO_MEMORY;
    if (r == IK_OK) {
        scene->obstacle_count = count;
        cJSON_ArrayForEach(item, obstacles) {
            r = read_obstacle(item, k++, frame_bs, paths, scene, error);
            if (r != IK_OK) break;
        }
    }
    cJSON_Delete(root);
    if (r != IK_OK) {
        if (r == IK_ERR_NO_MEMORY && (!error || !error->message[0])) ik_error_set(error, 0, 0, -1, "out of memory");
        ik_scene_free(scene);
        return r;
    }
    *out = scene;
    return IK_OK;
}

ik_result ik_scene_read_file(const char *path, const ik_urdf *urdf, const char *base_link, const ik_mesh_paths *paths,
                             ik_scene **out, ik_error *error) {
    char *data = NULL, dir[1024];
    const char *slash;
    size_t size = 0;
    ik_mesh_paths own;
    ik_result r;
    ik_error_clear(error);
    if (!out) return IK_ERR_NULL;
    *out = NULL;
    if (!path) return IK_ERR_NULL;
    r = ik_io_read_file(path, &data, &size, error);
    if (r != IK_OK) return r;
    memset(&own, 0, sizeof own);
    if (paths) own = *paths;
    slash = strrchr(path, '/');
    if (slash && (size_t)(slash - path) < sizeof dir) {
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
        own.urdf_dir = slash == path ? "/" : dir;
    } else {
        own.urdf_dir = NULL;
    }
    r = ik_scene_read_memory(data, size, urdf, base_link, &own, out, error);
    free(data);
    return r;
}

void ik_scene_free(ik_scene *scene) {
    int k;
    if (!scene) return;
    if (scene->names)
        for (k = 0; k < scene->obstacle_count; ++k) free(scene->names[k]);
    if (scene->touches)
        for (k = 0; k < scene->obstacle_count; ++k) free(scene->touches[k]);
    free(scene->touches);
    free(scene->names);
    free(scene->obstacles);
    free(scene->from_mesh);
    free(scene);
}

ik_result ik_scene_allow_touching(ik_scene *scene, const ik_robot_collision_model *model, ik_error *error) {
    int k;
    ik_error_clear(error);
    if (!scene || !model) return IK_ERR_NULL;
    for (k = 0; k < scene->obstacle_count; ++k) {
        const char *name;
        scene->obstacles[k].touching = 0;
        if (!scene->touches || !scene->touches[k]) continue;
        for (name = scene->touches[k]; *name; name += strlen(name) + 1) {
            int link = ik_robot_collision_find_link(model, name);
            if (link < 0 || link >= 64) {
                ik_error_set(error, 0, 0, -1,
                             "/obstacles/%d/touches: link '%.60s' is not a link with collision geometry of the chain",
                             k, name);
                if (error) snprintf(error->path, sizeof error->path, "/obstacles/%d/touches", k);
                return IK_ERR_NOT_FOUND;
            }
            scene->obstacles[k].touching |= (uint64_t)1 << link;
        }
    }
    return IK_OK;
}
