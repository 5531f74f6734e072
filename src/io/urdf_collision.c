/* ikit io: URDF collision geometry as a robot collision model, mesh paths,
 * and SRDF <disable_collisions> (see urdf_collision.h). */
#include <ikit/stl.h>
#include <ikit/urdf_collision.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "file_read.h"
#include "xml_read.h"

static int file_exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* out = dir + "/" + rest (dir may be empty or NULL: rest alone). */
static ik_result join_path(const char *dir, size_t dir_length, const char *rest, char *out, size_t out_size,
                           ik_error *error) {
    int n;
    if (dir && dir_length > 0)
        n = snprintf(out, out_size, "%.*s%s%s", (int)dir_length, dir, dir[dir_length - 1] == '/' ? "" : "/", rest);
    else
        n = snprintf(out, out_size, "%s", rest);
    if (n < 0 || (size_t)n >= out_size) {
        ik_error_set(error, 0, 0, -1, "mesh path '%.80s' too long", rest);
        return IK_ERR_CAPACITY;
    }
    return IK_OK;
}

ik_result ik_urdf_mesh_path(const char *filename, const char *urdf_dir, const char *const *packages, int package_count,
                            char *out, size_t out_size, ik_error *error) {
    ik_error_clear(error);
    if (!filename || !out || (package_count > 0 && !packages)) return IK_ERR_NULL;
    if (strncmp(filename, "package://", 10) == 0) {
        const char *name = filename + 10, *slash = strchr(name, '/'), *env;
        size_t name_length = slash ? (size_t)(slash - name) : strlen(name);
        const char *rest = slash ? slash + 1 : "";
        int k;
        for (k = 0; k < package_count; ++k) {
            const char *entry = packages[k], *eq = entry ? strchr(entry, '=') : NULL;
            if (eq && (size_t)(eq - entry) == name_length && strncmp(entry, name, name_length) == 0)
                return join_path(eq + 1, strlen(eq + 1), rest, out, out_size, error);
        }
        env = getenv("ROS_PACKAGE_PATH");
        while (env && *env) {
            const char *end = strchr(env, ':');
            size_t length = end ? (size_t)(end - env) : strlen(env), base;
            while (length > 1 && env[length - 1] == '/') --length;
            base = length;
            while (base > 0 && env[base - 1] != '/') --base;
            if (length > 0) {
                if (length - base == name_length && strncmp(env + base, name, name_length) == 0 &&
                    join_path(env, length, rest, out, out_size, NULL) == IK_OK && file_exists(out))
                    return IK_OK;
                if (length + 2 + name_length + strlen(rest) < out_size) {
                    snprintf(out, out_size, "%.*s/%.*s/%s", (int)length, env, (int)name_length, name, rest);
                    if (file_exists(out)) return IK_OK;
                }
            }
            env = end ? end + 1 : NULL;
        }
        ik_error_set(error, 0, 0, -1,
                     "unknown package '%.*s' in '%.100s': give --package-path %.*s=DIR or set ROS_PACKAGE_PATH",
                     (int)(name_length > 60 ? 60 : name_length), name, filename,
                     (int)(name_length > 60 ? 60 : name_length), name);
        return IK_ERR_NOT_FOUND;
    }
    if (strncmp(filename, "file://", 7) == 0) return join_path(NULL, 0, filename + 7, out, out_size, error);
    if (strstr(filename, "://")) {
        ik_error_set(error, 0, 0, -1, "mesh '%.100s': only package:// and file:// addresses are read", filename);
        return IK_ERR_UNSUPPORTED;
    }
    if (filename[0] == '/') return join_path(NULL, 0, filename, out, out_size, error);
    return join_path(urdf_dir, urdf_dir ? strlen(urdf_dir) : 0, filename, out, out_size, error);
}

/* The motion of an off-chain joint at the value nearest 0 inside its limits. */
static ik_transform joint_at_rest(const ik_urdf_joint *j) {
    double v = 0;
    ik_transform motion = ik_transform_identity();
    if (j->type == IK_ROBOT_REVOLUTE || j->type == IK_ROBOT_PRISMATIC)
        v = j->lower > 0 ? j->lower : (j->upper < 0 ? j->upper : 0);
    if (j->type == IK_ROBOT_REVOLUTE || j->type == IK_ROBOT_CONTINUOUS)
        motion.rotation = ik_quat_from_axis_angle(j->axis, (ik_real)v);
    else if (j->type == IK_ROBOT_PRISMATIC)
        motion.translation = ik_vec3_scale(j->axis, (ik_real)v);
    return ik_transform_mul(j->origin, motion);
}

/* A box placed by t, of half sizes h, widened for rounding. */
static void box_bound(ik_transform t, double hx, double hy, double hz, ik_obb *box) {
    double widen = 1e-6 * (hx + hy + hz + fabs((double)t.translation.x) + fabs((double)t.translation.y) +
                           fabs((double)t.translation.z)) +
                   1e-7;
    box->frame = t;
    box->frame.scale = ik_v3(1, 1, 1);
    box->half_extents = ik_v3((ik_real)(hx + widen), (ik_real)(hy + widen), (ik_real)(hz + widen));
}

/* The capsule holding a collision element, and (*has_box) a box holding it. */
static ik_result link_capsule(const ik_urdf *u, const ik_urdf_collision *c, ik_transform link_in_frame,
                              const ik_mesh_paths *paths, ik_capsule *out, ik_obb *box, int *has_box, ik_error *error) {
    ik_transform t = ik_transform_mul(link_in_frame, c->origin);
    const char *link = u->links[c->link].name;
    ik_result r;
    *has_box = 0;
    switch (c->geometry) {
        case IK_URDF_GEOMETRY_BOX:
            *out = ik_capsule_of_box(t, ik_v3((ik_real)c->size[0], (ik_real)c->size[1], (ik_real)c->size[2]));
            box_bound(t, c->size[0] / 2, c->size[1] / 2, c->size[2] / 2, box);
            *has_box = 1;
            return IK_OK;
        case IK_URDF_GEOMETRY_CYLINDER:
            *out = ik_capsule_of_cylinder(t, (ik_real)c->size[0], (ik_real)c->size[1]);
            box_bound(t, c->size[0], c->size[0], c->size[1] / 2, box);
            *has_box = 1;
            return IK_OK;
        case IK_URDF_GEOMETRY_SPHERE:
            *out = ik_capsule_of_sphere(t, (ik_real)c->size[0]);
            return IK_OK;
        case IK_URDF_GEOMETRY_MESH: {
            char path[1024];
            ik_mesh *mesh = NULL;
            ik_error inner;
            r = ik_urdf_mesh_path(c->mesh_filename, paths ? paths->urdf_dir : NULL, paths ? paths->packages : NULL,
                                  paths ? paths->package_count : 0, path, sizeof path, &inner);
            if (r != IK_OK) {
                ik_error_set(error, c->line, 0, -1, "<link name=\"%.60s\"> <collision>: %s", link, inner.message);
                return r;
            }
            r = ik_stl_read_file(path, &mesh, &inner);
            if (r != IK_OK) {
                ik_error_set(error, c->line, 0, -1, "<link name=\"%.60s\"> <collision> mesh '%.80s': %s", link,
                             c->mesh_filename, inner.message);
                return r;
            }
            r = ik_capsule_fit(mesh->vertices, 3 * mesh->triangle_count,
                               ik_v3((ik_real)c->size[0], (ik_real)c->size[1], (ik_real)c->size[2]), t, out);
            if (r == IK_OK)
                r = ik_obb_fit(mesh->vertices, 3 * mesh->triangle_count,
                               ik_v3((ik_real)c->size[0], (ik_real)c->size[1], (ik_real)c->size[2]), t, box);
            *has_box = r == IK_OK;
            ik_mesh_free(mesh);
            if (r != IK_OK)
                ik_error_set(error, c->line, 0, -1, "<link name=\"%.60s\"> <collision> mesh '%.80s': %s", link,
                             c->mesh_filename, ik_result_str(r));
            return r;
        }
        default:
            ik_error_set(error, c->line, 0, -1, "<link name=\"%.60s\"> <collision>: geometry <%.40s> is not supported",
                         link, c->mesh_filename ? c->mesh_filename : "?");
            return IK_ERR_UNSUPPORTED;
    }
}

typedef struct depth_entry {
    int key, link;
} depth_entry;

static int compare_depth(const void *a, const void *b) {
    const depth_entry *x = (const depth_entry *)a, *y = (const depth_entry *)b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->link > y->link) - (x->link < y->link);
}

ik_result ik_urdf_collision_model(const ik_urdf *u, const char *base_link, const char *tip_link,
                                  const ik_mesh_paths *paths, ik_robot_collision_model *model, int *skipped,
                                  ik_error *error) {
    int joints[IK_ROBOT_MAX_JOINTS], count, k, l, *frame = NULL, *depth = NULL, *index = NULL, *anchor = NULL;
    int base, skipped_count = 0, order_count = 0;
    char *has = NULL;
    depth_entry *order = NULL;
    ik_transform *in_frame = NULL;
    ik_result r;
    ik_error_clear(error);
    if (!u || !base_link || !tip_link || !model) return IK_ERR_NULL;
    ik_robot_collision_model_init(model);
    r = ik_urdf_chain(u, base_link, tip_link, joints, IK_ROBOT_MAX_JOINTS, &count, error);
    if (r == IK_OK) r = ik_urdf_find_link(u, base_link, &base, error);
    if (r != IK_OK) return r;
    frame = (int *)malloc(((size_t)u->link_count + 1) * sizeof *frame);
    depth = (int *)malloc(((size_t)u->link_count + 1) * sizeof *depth);
    index = (int *)malloc(((size_t)u->link_count + 1) * sizeof *index);
    anchor = (int *)malloc(((size_t)u->link_count + 1) * sizeof *anchor);
    has = (char *)malloc((size_t)u->link_count + 1);
    order = (depth_entry *)malloc(((size_t)u->link_count + 1) * sizeof *order);
    in_frame = (ik_transform *)malloc(((size_t)u->link_count + 1) * sizeof *in_frame);
    if (!frame || !depth || !index || !in_frame || !anchor || !has || !order) {
        r = IK_ERR_NO_MEMORY;
        goto done;
    }
    /* Each link's chain frame (-2: not fixed by the chain) and its pose in
     * that frame, walking up to the first chain link; depth orders the
     * links parents-first (by chain frame, then steps below it). */
    for (l = 0; l < u->link_count; ++l) frame[l] = -2;
    frame[base] = -1;
    for (k = 0; k < count; ++k) frame[u->joints[joints[k]].child_link] = k;
    for (l = 0; l < u->link_count; ++l) {
        int link = l, steps = 0;
        ik_transform t = ik_transform_identity();
        index[l] = -1;
        while (frame[link] == -2 && u->links[link].parent_joint >= 0 && steps <= u->link_count) {
            const ik_urdf_joint *j = &u->joints[u->links[link].parent_joint];
            t = ik_transform_mul(joint_at_rest(j), t);
            link = j->parent_link;
            ++steps;
        }
        in_frame[l] = t;
        anchor[l] = frame[link] == -2 ? -2 : frame[link];
        depth[l] = anchor[l] == -2 ? -1 : steps + (anchor[l] + 1) * (u->link_count + 1);
    }
    for (l = 0; l < u->link_count; ++l) has[l] = 0;
    for (k = 0; k < u->collision_count; ++k) has[u->collisions[k].link] = 1;
    for (l = 0; l < u->link_count; ++l)
        if (has[l] && depth[l] >= 0) {
            order[order_count].key = depth[l];
            order[order_count++].link = l;
        } else if (has[l]) {
            ++skipped_count;
        }
    qsort(order, (size_t)order_count, sizeof *order, compare_depth);
    for (k = 0; k < order_count && r == IK_OK; ++k) {
        int parent = -1, link;
        l = order[k].link;
        for (link = l; u->links[link].parent_joint >= 0 && parent < 0 && link != base;) {
            link = u->joints[u->links[link].parent_joint].parent_link;
            parent = index[link];
        }
        r = ik_robot_collision_add_link(model, u->links[l].name, anchor[l], parent, &index[l]);
        if (r == IK_ERR_CAPACITY)
            ik_error_set(error, u->links[l].line, 0, -1, "more than %d links with collision geometry",
                         IK_COLLISION_MAX_LINKS);
    }
    for (k = 0; k < u->collision_count && r == IK_OK; ++k) {
        const ik_urdf_collision *c = &u->collisions[k];
        ik_capsule capsule;
        ik_obb box;
        int has_box = 0;
        if (index[c->link] < 0) continue;
        r = link_capsule(u, c, in_frame[c->link], paths, &capsule, &box, &has_box, error);
        if (r == IK_OK) r = ik_robot_collision_add_bounds(model, index[c->link], capsule, has_box ? &box : NULL);
        if (r == IK_ERR_CAPACITY)
            ik_error_set(error, c->line, 0, -1, "more than %d collision elements", IK_COLLISION_MAX_CAPSULES);
    }
    if (skipped) *skipped = skipped_count;
done:
    free(frame);
    free(depth);
    free(index);
    free(in_frame);
    free(anchor);
    free(has);
    free(order);
    if (r != IK_OK) ik_robot_collision_model_init(model);
    if (r == IK_ERR_NO_MEMORY && (!error || !error->message[0])) ik_error_set(error, 0, 0, -1, "out of memory");
    return r;
}

ik_result ik_srdf_disable_collisions_memory(const char *data, size_t size, ik_robot_collision_model *model,
                                            int *disabled, ik_error *error) {
    ik_xml_doc xml;
    ik_result r;
    int e, n = 0;
    ik_error_clear(error);
    if (!data || !model) return IK_ERR_NULL;
    if (size == 0) {
        ik_error_set(error, 0, 0, -1, "SRDF: empty document");
        return IK_ERR_PARSE;
    }
    if (memchr(data, '<', size) && size >= 9) {
        size_t i;
        for (i = 0; i + 2 < size; ++i)
            if (data[i] == '<' && data[i + 1] == '!' && (data[i + 2] == 'D' || data[i + 2] == 'E')) {
                ik_error_set(error, 0, 0, (long)i, "SRDF: <!DOCTYPE> or <!ENTITY> declarations are refused");
                return IK_ERR_UNSUPPORTED;
            }
    }
    r = ik_xml_read(data, size, &xml, error);
    if (r != IK_OK) return r;
    if (strcmp(xml.elements[0].name, "robot") != 0) {
        ik_error_set(error, xml.elements[0].line, 0, -1, "SRDF: the root element must be <robot>, not <%.40s>",
                     xml.elements[0].name);
        ik_xml_doc_free(&xml);
        return IK_ERR_PARSE;
    }
    for (e = xml.elements[0].first_child; e >= 0; e = xml.elements[e].next_sibling) {
        const char *a, *b;
        if (strcmp(xml.elements[e].name, "disable_collisions") != 0) continue;
        a = ik_xml_attribute_value(&xml, e, "link1");
        b = ik_xml_attribute_value(&xml, e, "link2");
        if (!a || !b) {
            ik_error_set(error, xml.elements[e].line, 0, -1, "SRDF <disable_collisions>: needs link1 and link2");
            ik_xml_doc_free(&xml);
            return IK_ERR_PARSE;
        }
        if (ik_robot_collision_disable(model, a, b) == IK_OK) ++n;
    }
    ik_xml_doc_free(&xml);
    if (disabled) *disabled = n;
    return IK_OK;
}

ik_result ik_srdf_disable_collisions(const char *path, ik_robot_collision_model *model, int *disabled,
                                     ik_error *error) {
    char *data = NULL;
    size_t size = 0;
    ik_result r;
    ik_error_clear(error);
    if (!path || !model) return IK_ERR_NULL;
    r = ik_io_read_file(path, &data, &size, error);
    if (r != IK_OK) return r;
    r = ik_srdf_disable_collisions_memory(data, size, model, disabled, error);
    free(data);
    return r;
}
