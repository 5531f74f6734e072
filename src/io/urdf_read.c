/* ikit io: reading URDF robot descriptions (see urdf.h) on the io layer's
 * strict XML reader (xml_read.h), in the native build and in WebAssembly. */
#include <ikit/urdf.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_read.h"
#include "text_scan.h"
#include "xml_read.h"

/* Records a failure at an element's line: "line L, column 0: <msg>". */
static ik_result fail_at(ik_error *error, long line, ik_result r, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static ik_result fail_at(ik_error *error, long line, ik_result r, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    ik_error_setv(error, line > 0 ? line : 0, 0, -1, fmt, args);
    va_end(args);
    return r;
}

/* Elements are indices into the XML document (xml_read.h). */
static long node_line(const ik_xml_doc *xml, int node) { return xml->elements[node].line; }

static int is_element(const ik_xml_doc *xml, int node, const char *name) {
    return strcmp(xml->elements[node].name, name) == 0;
}

/* A malloc'ed copy of attribute `name` of `node`, or NULL when it is absent
 * (*no_memory set when the copy failed). */
static char *attribute_copy(const ik_xml_doc *xml, int node, const char *name, int *no_memory) {
    const char *value = ik_xml_attribute_value(xml, node, name);
    char *copy;
    size_t length;
    if (!value) return NULL;
    length = strlen(value);
    copy = (char *)malloc(length + 1);
    if (copy)
        memcpy(copy, value, length + 1);
    else
        *no_memory = 1;
    return copy;
}

/* Exactly `count` blank-separated decimal numbers of attribute `attr` into
 * out [count] (the BVH and chain readers' exact, locale-free parser); an
 * absent attribute leaves out as it is. */
static ik_result read_numbers(const ik_xml_doc *xml, int node, const char *attr, double *out, int count,
                              const char *owner, ik_error *error) {
    const char *value = ik_xml_attribute_value(xml, node, attr);
    const char *element = xml->elements[node].name;
    ik_text_scan scan;
    ik_text_token token;
    ik_result r = IK_OK;
    int k;
    if (!value) return IK_OK;
    ik_text_scan_init(&scan, value, strlen(value), 0);
    for (k = 0; k < count && r == IK_OK; ++k) {
        ik_text_number n =
            ik_text_next(&scan, &token, 1) ? ik_text_number_parse(&token, &out[k]) : IK_TEXT_NUMBER_SYNTAX;
        if (n == IK_TEXT_NUMBER_SYNTAX)
            r = fail_at(error, node_line(xml, node), IK_ERR_PARSE, "%s <%s %s=\"%.40s\">: expected %d numbers", owner,
                        element, attr, value, count);
        else if (n == IK_TEXT_NUMBER_NONFINITE)
            r = fail_at(error, node_line(xml, node), IK_ERR_NONFINITE, "%s <%s %s=\"%.40s\">: number %d is not finite",
                        owner, element, attr, value, k + 1);
    }
    if (r == IK_OK && ik_text_next(&scan, &token, 1))
        r = fail_at(error, node_line(xml, node), IK_ERR_PARSE, "%s <%s %s=\"%.40s\">: expected %d numbers", owner,
                    element, attr, value, count);
    return r;
}

/* Names sorted for lookups in O(log n): a robot may have thousands of
 * links, and every joint names two. */
typedef struct name_entry {
    const char *name;
    int index;
} name_entry;

static int compare_entries(const void *a, const void *b) {
    const name_entry *x = (const name_entry *)a, *y = (const name_entry *)b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static int compare_key(const void *key, const void *entry) {
    return strcmp((const char *)key, ((const name_entry *)entry)->name);
}

/* Sorts entries [count] by (name, index); returns the smallest index whose
 * name an earlier item has (the first duplicate in file order), or -1. */
static int sort_names(name_entry *entries, int count) {
    int k, duplicate = -1;
    qsort(entries, (size_t)count, sizeof *entries, compare_entries);
    for (k = 1; k < count; ++k)
        if (strcmp(entries[k].name, entries[k - 1].name) == 0 && (duplicate < 0 || entries[k].index < duplicate))
            duplicate = entries[k].index;
    return duplicate;
}

static int find_sorted(const name_entry *entries, int count, const char *name) {
    const name_entry *e =
        count > 0 ? (const name_entry *)bsearch(name, entries, (size_t)count, sizeof *entries, compare_key) : NULL;
    return e ? e->index : -1;
}

typedef struct urdf_reader {
    ik_urdf *u;
    const ik_xml_doc *xml;
    ik_error *error;
    char **mimic_names;                   /* [joint_count]: the leader named by each joint's <mimic>, or NULL */
    name_entry *link_names, *joint_names; /* sorted by name */
    int collision_capacity;
} urdf_reader;

/* Finds a link or joint named by an element at `line`; the error (with
 * the closest names) is prefixed with the line and the element. */
static ik_result lookup(const urdf_reader *rd, int links, const char *name, long line, const char *owner, int *index) {
    ik_error found;
    ik_result r;
    *index = links ? find_sorted(rd->link_names, rd->u->link_count, name)
                   : find_sorted(rd->joint_names, rd->u->joint_count, name);
    if (*index >= 0) return IK_OK;
    r = links ? ik_urdf_find_link(rd->u, name, index, &found) : ik_urdf_find_joint(rd->u, name, index, &found);
    return fail_at(rd->error, line, r, "%s: %s", owner, found.message);
}

/* One <collision>: its <origin> and the first element of its one <geometry>
 * (a second <geometry> is refused, as the URDF format allows one). */
static ik_result read_collision(urdf_reader *rd, int node, int link_index, int *capacity) {
    ik_urdf *u = rd->u;
    const ik_xml_doc *xml = rd->xml;
    ik_urdf_collision *c;
    char owner[96];
    int child, g, no_memory = 0;
    ik_result r = IK_OK;
    if (u->collision_count == *capacity) {
        int grown_capacity = *capacity ? 2 * *capacity : 16;
        ik_urdf_collision *grown =
            (ik_urdf_collision *)realloc(u->collisions, (size_t)grown_capacity * sizeof *u->collisions);
        if (!grown) return IK_ERR_NO_MEMORY;
        u->collisions = grown;
        *capacity = grown_capacity;
    }
    c = &u->collisions[u->collision_count];
    memset(c, 0, sizeof *c);
    c->link = link_index;
    c->line = node_line(xml, node);
    c->origin = ik_transform_identity();
    c->geometry = IK_URDF_GEOMETRY_OTHER;
    ++u->collision_count; /* owned from here on */
    snprintf(owner, sizeof owner, "<link name=\"%.60s\"> <collision>", u->links[link_index].name);
    for (child = xml->elements[node].first_child; child >= 0 && r == IK_OK; child = xml->elements[child].next_sibling) {
        if (is_element(xml, child, "origin")) {
            double xyz[3] = {0, 0, 0}, rpy[3] = {0, 0, 0};
            r = read_numbers(xml, child, "xyz", xyz, 3, owner, rd->error);
            if (r == IK_OK) r = read_numbers(xml, child, "rpy", rpy, 3, owner, rd->error);
            if (r == IK_OK) c->origin = ik_urdf_origin(xyz, rpy);
            if (r == IK_OK && !ik_transform_finite(c->origin))
                r = fail_at(rd->error, node_line(xml, child), IK_ERR_NONFINITE, "%s <origin>: out of range", owner);
        } else if (is_element(xml, child, "geometry")) {
            if (c->mesh_filename || c->geometry != IK_URDF_GEOMETRY_OTHER)
                return fail_at(rd->error, node_line(xml, child), IK_ERR_PARSE, "%s: a second <geometry>", owner);
            g = xml->elements[child].first_child;
            if (g < 0) return fail_at(rd->error, node_line(xml, child), IK_ERR_PARSE, "%s <geometry>: empty", owner);
            c->line = node_line(xml, g);
            if (is_element(xml, g, "box")) {
                c->geometry = IK_URDF_GEOMETRY_BOX;
                if (!ik_xml_attribute_value(xml, g, "size"))
                    return fail_at(rd->error, c->line, IK_ERR_PARSE, "%s <box>: no size", owner);
                r = read_numbers(xml, g, "size", c->size, 3, owner, rd->error);
            } else if (is_element(xml, g, "cylinder")) {
                c->geometry = IK_URDF_GEOMETRY_CYLINDER;
                if (!ik_xml_attribute_value(xml, g, "radius") || !ik_xml_attribute_value(xml, g, "length"))
                    return fail_at(rd->error, c->line, IK_ERR_PARSE, "%s <cylinder>: needs radius and length", owner);
                r = read_numbers(xml, g, "radius", &c->size[0], 1, owner, rd->error);
                if (r == IK_OK) r = read_numbers(xml, g, "length", &c->size[1], 1, owner, rd->error);
            } else if (is_element(xml, g, "sphere")) {
                c->geometry = IK_URDF_GEOMETRY_SPHERE;
                if (!ik_xml_attribute_value(xml, g, "radius"))
                    return fail_at(rd->error, c->line, IK_ERR_PARSE, "%s <sphere>: no radius", owner);
                r = read_numbers(xml, g, "radius", &c->size[0], 1, owner, rd->error);
            } else if (is_element(xml, g, "mesh")) {
                c->geometry = IK_URDF_GEOMETRY_MESH;
                c->size[0] = c->size[1] = c->size[2] = 1;
                r = read_numbers(xml, g, "scale", c->size, 3, owner, rd->error);
                c->mesh_filename = attribute_copy(xml, g, "filename", &no_memory);
                if (no_memory) return IK_ERR_NO_MEMORY;
                if (r == IK_OK && (!c->mesh_filename || !c->mesh_filename[0]))
                    return fail_at(rd->error, c->line, IK_ERR_PARSE, "%s <mesh>: no filename", owner);
            } else {
                size_t length = strlen(xml->elements[g].name);
                c->mesh_filename = (char *)malloc(length + 1);
                if (!c->mesh_filename) return IK_ERR_NO_MEMORY;
                memcpy(c->mesh_filename, xml->elements[g].name, length + 1);
            }
            if (r == IK_OK && c->geometry != IK_URDF_GEOMETRY_OTHER &&
                (c->size[0] < 0 || c->size[1] < 0 || c->size[2] < 0))
                r = fail_at(rd->error, c->line, IK_ERR_RANGE, "%s <%s>: a negative size", owner, xml->elements[g].name);
        }
    }
    return r;
}

static ik_result read_link(urdf_reader *rd, int node) {
    int no_memory = 0, child;
    ik_result r = IK_OK;
    ik_urdf_link *link = &rd->u->links[rd->u->link_count];
    char *name = attribute_copy(rd->xml, node, "name", &no_memory);
    if (no_memory) return IK_ERR_NO_MEMORY;
    if (!name || !name[0]) {
        free(name);
        return fail_at(rd->error, node_line(rd->xml, node), IK_ERR_PARSE, "<link>: no name");
    }
    link->name = name;
    link->parent_joint = -1;
    link->line = node_line(rd->xml, node);
    ++rd->u->link_count;
    for (child = rd->xml->elements[node].first_child; child >= 0 && r == IK_OK;
         child = rd->xml->elements[child].next_sibling)
        if (is_element(rd->xml, child, "collision"))
            r = read_collision(rd, child, rd->u->link_count - 1, &rd->collision_capacity);
    return r;
}

/* The joint type from its name; floating and planar joints are refused. */
static ik_result joint_type(const char *type, long line, const char *owner, ik_robot_joint_type *out, ik_error *error) {
    static const char *const names[] = {"fixed", "revolute", "continuous", "prismatic"};
    int k;
    for (k = 0; k < 4; ++k)
        if (strcmp(type, names[k]) == 0) {
            *out = (ik_robot_joint_type)k;
            return IK_OK;
        }
    if (strcmp(type, "floating") == 0 || strcmp(type, "planar") == 0)
        return fail_at(error, line, IK_ERR_UNSUPPORTED,
                       "%s: %s joints are not supported (serial chains of revolute, continuous, prismatic and "
                       "fixed joints only)",
                       owner, type);
    return fail_at(error, line, IK_ERR_PARSE, "%s: unknown joint type '%.40s' (revolute, continuous, prismatic, fixed)",
                   owner, type);
}

/* <parent link="..."/> or <child link="..."/>: the link's index. */
static ik_result joint_link(urdf_reader *rd, int node, const char *owner, int *index) {
    const char *name = ik_xml_attribute_value(rd->xml, node, "link");
    if (!name)
        return fail_at(rd->error, node_line(rd->xml, node), IK_ERR_PARSE, "%s <%s>: no link attribute", owner,
                       rd->xml->elements[node].name);
    return lookup(rd, 1, name, node_line(rd->xml, node), owner, index);
}

/* <origin xyz rpy>: the joint frame in the parent link's frame. */
static ik_result joint_origin(urdf_reader *rd, int node, const char *owner, ik_urdf_joint *joint) {
    double xyz[3] = {0, 0, 0}, rpy[3] = {0, 0, 0};
    ik_result r = read_numbers(rd->xml, node, "xyz", xyz, 3, owner, rd->error);
    if (r == IK_OK) r = read_numbers(rd->xml, node, "rpy", rpy, 3, owner, rd->error);
    if (r != IK_OK) return r;
    joint->origin = ik_urdf_origin(xyz, rpy);
    if (!ik_transform_finite(joint->origin))
        return fail_at(rd->error, node_line(rd->xml, node), IK_ERR_NONFINITE, "%s <origin>: out of range", owner);
    return IK_OK;
}

/* <axis xyz>: normalised in double; a zero axis is refused. */
static ik_result joint_axis(urdf_reader *rd, int node, const char *owner, ik_urdf_joint *joint) {
    double a[3] = {1, 0, 0}, length;
    ik_result r = read_numbers(rd->xml, node, "xyz", a, 3, owner, rd->error);
    if (r != IK_OK) return r;
    length = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    if (!(length > 1e-12) || !isfinite(length))
        return fail_at(rd->error, node_line(rd->xml, node), IK_ERR_DEGENERATE, "%s <axis>: zero or unusable axis",
                       owner);
    joint->axis = ik_v3((ik_real)(a[0] / length), (ik_real)(a[1] / length), (ik_real)(a[2] / length));
    return IK_OK;
}

static ik_result joint_limit(urdf_reader *rd, int node, const char *owner, ik_urdf_joint *joint) {
    ik_result r = read_numbers(rd->xml, node, "lower", &joint->lower, 1, owner, rd->error);
    if (r == IK_OK) r = read_numbers(rd->xml, node, "upper", &joint->upper, 1, owner, rd->error);
    if (r == IK_OK) r = read_numbers(rd->xml, node, "velocity", &joint->velocity, 1, owner, rd->error);
    if (r == IK_OK) r = read_numbers(rd->xml, node, "effort", &joint->effort, 1, owner, rd->error);
    if (r != IK_OK) return r;
    if (joint->lower > joint->upper)
        return fail_at(rd->error, node_line(rd->xml, node), IK_ERR_RANGE, "%s <limit>: lower %g above upper %g", owner,
                       joint->lower, joint->upper);
    joint->has_limit = 1;
    joint->limit_no_range =
        !ik_xml_attribute_value(rd->xml, node, "lower") && !ik_xml_attribute_value(rd->xml, node, "upper");
    return IK_OK;
}

/* <mimic joint multiplier offset>: the leader's name is resolved once every
 * joint is known. */
static ik_result joint_mimic(urdf_reader *rd, int node, const char *owner, ik_urdf_joint *joint, int index) {
    int no_memory = 0;
    ik_result r = read_numbers(rd->xml, node, "multiplier", &joint->mimic_multiplier, 1, owner, rd->error);
    if (r == IK_OK) r = read_numbers(rd->xml, node, "offset", &joint->mimic_offset, 1, owner, rd->error);
    if (r != IK_OK) return r;
    free(rd->mimic_names[index]);
    rd->mimic_names[index] = attribute_copy(rd->xml, node, "joint", &no_memory);
    if (no_memory) return IK_ERR_NO_MEMORY;
    if (!rd->mimic_names[index])
        return fail_at(rd->error, node_line(rd->xml, node), IK_ERR_PARSE, "%s <mimic>: no joint attribute", owner);
    return IK_OK;
}

/* A joint's name and defaults (the first pass, so joint names can be
 * checked for duplicates and looked up by mimic joints). */
static ik_result read_joint_name(urdf_reader *rd, int node) {
    int no_memory = 0;
    ik_urdf_joint *joint = &rd->u->joints[rd->u->joint_count];
    memset(joint, 0, sizeof *joint);
    joint->name = attribute_copy(rd->xml, node, "name", &no_memory);
    if (no_memory) return IK_ERR_NO_MEMORY;
    ++rd->u->joint_count; /* owned from here on, freed with the model */
    joint->line = node_line(rd->xml, node);
    joint->origin = ik_transform_identity();
    joint->axis = ik_v3(1, 0, 0);
    joint->mimic_joint = -1;
    joint->mimic_multiplier = 1;
    if (!joint->name || !joint->name[0]) return fail_at(rd->error, joint->line, IK_ERR_PARSE, "<joint>: no name");
    return IK_OK;
}

/* The rest of joint `index`: type, origin, links, axis, limit, mimic. */
static ik_result read_joint(urdf_reader *rd, int node, int index) {
    int has_parent = 0, has_child = 0;
    ik_urdf_joint *joint = &rd->u->joints[index];
    char owner[96];
    const char *type;
    ik_result r;
    int c;
    snprintf(owner, sizeof owner, "<joint name=\"%.60s\">", joint->name);
    type = ik_xml_attribute_value(rd->xml, node, "type");
    if (!type) return fail_at(rd->error, joint->line, IK_ERR_PARSE, "%s: no type", owner);
    r = joint_type(type, joint->line, owner, &joint->type, rd->error);
    for (c = rd->xml->elements[node].first_child; c >= 0 && r == IK_OK; c = rd->xml->elements[c].next_sibling) {
        if (is_element(rd->xml, c, "origin")) {
            r = joint_origin(rd, c, owner, joint);
        } else if (is_element(rd->xml, c, "parent")) {
            r = joint_link(rd, c, owner, &joint->parent_link);
            has_parent = 1;
        } else if (is_element(rd->xml, c, "child")) {
            r = joint_link(rd, c, owner, &joint->child_link);
            has_child = 1;
        } else if (is_element(rd->xml, c, "axis")) {
            r = joint_axis(rd, c, owner, joint);
        } else if (is_element(rd->xml, c, "limit")) {
            r = joint_limit(rd, c, owner, joint);
        } else if (is_element(rd->xml, c, "mimic")) {
            r = joint_mimic(rd, c, owner, joint, index);
        }
    }
    if (r != IK_OK) return r;
    if (!has_parent || !has_child)
        return fail_at(rd->error, joint->line, IK_ERR_PARSE, "%s: no <%s link=...>", owner,
                       has_parent ? "child" : "parent");
    if (joint->parent_link == joint->child_link)
        return fail_at(rd->error, joint->line, IK_ERR_HIERARCHY, "%s: link '%.60s' is its own parent", owner,
                       rd->u->links[joint->child_link].name);
    if ((joint->type == IK_ROBOT_REVOLUTE || joint->type == IK_ROBOT_PRISMATIC) && !joint->has_limit)
        return fail_at(rd->error, joint->line, IK_ERR_PARSE, "%s: a %s joint needs <limit lower upper>", owner,
                       joint->type == IK_ROBOT_REVOLUTE ? "revolute" : "prismatic");
    if (rd->u->links[joint->child_link].parent_joint >= 0)
        return fail_at(rd->error, joint->line, IK_ERR_HIERARCHY,
                       "%s: link '%.60s' is already the child of joint '%.60s' (a link has one parent)", owner,
                       rd->u->links[joint->child_link].name,
                       rd->u->joints[rd->u->links[joint->child_link].parent_joint].name);
    rd->u->links[joint->child_link].parent_joint = index;
    return IK_OK;
}

/* One root, and every link reaches it: walking up from each link, a link
 * met twice in one walk means a loop. visit [link_count] is scratch: the
 * walk that last passed a link, or -2 once the link is known to reach the
 * root. */
static ik_result check_tree(urdf_reader *rd, int *visit) {
    ik_urdf *u = rd->u;
    int i, roots = 0;
    for (i = 0; i < u->link_count; ++i) {
        visit[i] = -1;
        if (u->links[i].parent_joint < 0) {
            if (roots++ == 0) {
                u->root_link = i;
            } else {
                return fail_at(rd->error, u->links[i].line, IK_ERR_HIERARCHY,
                               "<link name=\"%.60s\">: a second root link besides '%.60s' (no joint has it as "
                               "child; a URDF is one tree)",
                               u->links[i].name, u->links[u->root_link].name);
            }
        }
    }
    if (roots == 0)
        return fail_at(
            rd->error, u->link_count > 0 ? u->links[0].line : 0, IK_ERR_HIERARCHY, "%s",
            u->link_count > 0 ? "every link is some joint's child: the joints form a loop" : "<robot>: no links");
    visit[u->root_link] = -2;
    for (i = 0; i < u->link_count; ++i) {
        int link = i;
        while (visit[link] != -2) {
            if (visit[link] == i)
                return fail_at(rd->error, u->joints[u->links[link].parent_joint].line, IK_ERR_HIERARCHY,
                               "<joint name=\"%.60s\">: the joints above link '%.60s' form a loop",
                               u->joints[u->links[link].parent_joint].name, u->links[link].name);
            visit[link] = i;
            link = u->joints[u->links[link].parent_joint].parent_link;
        }
        for (link = i; visit[link] != -2; link = u->joints[u->links[link].parent_joint].parent_link) visit[link] = -2;
    }
    return IK_OK;
}

/* Mimic leaders by name, then no loop of mimic joints (a walk along
 * leaders longer than the joint count has looped). */
static ik_result resolve_mimics(urdf_reader *rd) {
    ik_urdf *u = rd->u;
    int i, steps, j;
    for (i = 0; i < u->joint_count; ++i) {
        char owner[96];
        ik_result r;
        if (!rd->mimic_names[i]) continue;
        snprintf(owner, sizeof owner, "<joint name=\"%.60s\"> <mimic>", u->joints[i].name);
        r = lookup(rd, 0, rd->mimic_names[i], u->joints[i].line, owner, &u->joints[i].mimic_joint);
        if (r != IK_OK) return r;
    }
    for (i = 0; i < u->joint_count; ++i) {
        for (j = u->joints[i].mimic_joint, steps = 0; j >= 0 && steps <= u->joint_count; j = u->joints[j].mimic_joint)
            ++steps;
        if (j >= 0)
            return fail_at(rd->error, u->joints[i].line, IK_ERR_HIERARCHY,
                           "<joint name=\"%.60s\"> <mimic>: the mimic joints it follows form a loop",
                           u->joints[i].name);
    }
    return IK_OK;
}

/* Counts the top-level links and joints (for one allocation each). */
static ik_result count_items(const ik_xml_doc *xml, int robot, int *links, int *joints, ik_error *error) {
    int c;
    *links = *joints = 0;
    for (c = xml->elements[robot].first_child; c >= 0; c = xml->elements[c].next_sibling) {
        if (is_element(xml, c, "link")) ++*links;
        if (is_element(xml, c, "joint")) ++*joints;
        if (*links > IK_URDF_MAX_ITEMS || *joints > IK_URDF_MAX_ITEMS)
            return fail_at(error, node_line(xml, c), IK_ERR_RANGE, "<robot>: more than %d links or joints",
                           IK_URDF_MAX_ITEMS);
    }
    return IK_OK;
}

/* Sorts the link and joint names; a name used twice is refused. */
static ik_result index_names(urdf_reader *rd) {
    const ik_urdf *u = rd->u;
    int i, duplicate;
    for (i = 0; i < u->link_count; ++i) {
        rd->link_names[i].name = u->links[i].name;
        rd->link_names[i].index = i;
    }
    for (i = 0; i < u->joint_count; ++i) {
        rd->joint_names[i].name = u->joints[i].name;
        rd->joint_names[i].index = i;
    }
    duplicate = sort_names(rd->link_names, u->link_count);
    if (duplicate >= 0)
        return fail_at(rd->error, u->links[duplicate].line, IK_ERR_HIERARCHY,
                       "<link name=\"%.60s\">: a second link of that name", u->links[duplicate].name);
    duplicate = sort_names(rd->joint_names, u->joint_count);
    if (duplicate >= 0)
        return fail_at(rd->error, u->joints[duplicate].line, IK_ERR_HIERARCHY,
                       "<joint name=\"%.60s\">: a second joint of that name", u->joints[duplicate].name);
    return IK_OK;
}

static ik_result read_robot(urdf_reader *rd, int robot) {
    ik_urdf *u = rd->u;
    int links, joints, no_memory = 0, k, *visit;
    ik_result r = count_items(rd->xml, robot, &links, &joints, rd->error);
    const ik_xml_element *elements = rd->xml->elements;
    int c;
    if (r != IK_OK) return r;
    u->name = attribute_copy(rd->xml, robot, "name", &no_memory);
    u->links = (ik_urdf_link *)calloc((size_t)links + 1, sizeof *u->links);
    u->joints = (ik_urdf_joint *)calloc((size_t)joints + 1, sizeof *u->joints);
    rd->mimic_names = (char **)calloc((size_t)joints + 1, sizeof *rd->mimic_names);
    if (no_memory || !u->links || !u->joints || !rd->mimic_names) return IK_ERR_NO_MEMORY;
    rd->link_names = (name_entry *)malloc(((size_t)links + 1) * sizeof *rd->link_names);
    rd->joint_names = (name_entry *)malloc(((size_t)joints + 1) * sizeof *rd->joint_names);
    if (!rd->link_names || !rd->joint_names) return IK_ERR_NO_MEMORY;
    for (c = elements[robot].first_child; c >= 0 && r == IK_OK; c = elements[c].next_sibling)
        if (is_element(rd->xml, c, "link")) r = read_link(rd, c);
    for (c = elements[robot].first_child; c >= 0 && r == IK_OK; c = elements[c].next_sibling)
        if (is_element(rd->xml, c, "joint")) r = read_joint_name(rd, c);
    if (r != IK_OK) return r;
    r = index_names(rd);
    for (c = elements[robot].first_child, k = 0; c >= 0 && r == IK_OK; c = elements[c].next_sibling)
        if (is_element(rd->xml, c, "joint")) r = read_joint(rd, c, k++);
    if (r != IK_OK) return r;
    visit = (int *)malloc(((size_t)links + 1) * sizeof *visit);
    if (!visit) return IK_ERR_NO_MEMORY;
    r = check_tree(rd, visit);
    free(visit);
    return r == IK_OK ? resolve_mimics(rd) : r;
}

/* The line of the first "<!DOCTYPE" or "<!ENTITY" in the bytes, or 0. */
static long declaration_line(const char *data, size_t size) {
    long line = 1;
    size_t i;
    for (i = 0; i < size; ++i) {
        if (data[i] == '\n') ++line;
        if (data[i] == '<' && i + 2 < size && data[i + 1] == '!' && (data[i + 2] == 'D' || data[i + 2] == 'E'))
            return line;
    }
    return 0;
}

ik_result ik_urdf_read_memory(const char *data, size_t size, ik_urdf **out, ik_error *error) {
    urdf_reader rd;
    ik_xml_doc xml;
    ik_result r;
    long line;
    int i;
    ik_error_clear(error);
    if (!out) return IK_ERR_NULL;
    *out = NULL;
    if (!data) return IK_ERR_NULL;
    if (size == 0) return fail_at(error, 0, IK_ERR_PARSE, "empty document");
    if (size > IK_URDF_MAX_BYTES)
        return fail_at(error, 0, IK_ERR_RANGE, "document of %lu bytes, above the %lu a URDF may have",
                       (unsigned long)size, (unsigned long)IK_URDF_MAX_BYTES);
    line = declaration_line(data, size);
    if (line > 0)
        return fail_at(error, line, IK_ERR_UNSUPPORTED,
                       "<!DOCTYPE> or <!ENTITY>: document type and entity declarations are refused (a URDF needs "
                       "none, and entities can expand without bound or read other files)");
    r = ik_xml_read(data, size, &xml, error);
    if (r != IK_OK) return r;
    if (!is_element(&xml, 0, "robot")) {
        r = fail_at(error, node_line(&xml, 0), IK_ERR_PARSE, "<%.40s>: the root element must be <robot>",
                    xml.elements[0].name);
        ik_xml_doc_free(&xml);
        return r;
    }
    memset(&rd, 0, sizeof rd);
    rd.error = error;
    rd.xml = &xml;
    rd.u = (ik_urdf *)calloc(1, sizeof *rd.u);
    r = rd.u ? read_robot(&rd, 0) : IK_ERR_NO_MEMORY;
    if (rd.mimic_names)
        for (i = 0; i < rd.u->joint_count; ++i) free(rd.mimic_names[i]);
    free(rd.mimic_names);
    free(rd.link_names);
    free(rd.joint_names);
    ik_xml_doc_free(&xml);
    if (r == IK_ERR_NO_MEMORY && (!error || !error->message[0])) fail_at(error, 0, r, "out of memory");
    if (r != IK_OK) {
        ik_urdf_free(rd.u);
        return r;
    }
    *out = rd.u;
    return IK_OK;
}

ik_result ik_urdf_read_file(const char *path, ik_urdf **out, ik_error *error) {
    char *data = NULL;
    size_t size = 0;
    ik_result r;
    ik_error_clear(error);
    if (!out) return IK_ERR_NULL;
    *out = NULL;
    if (!path) return IK_ERR_NULL;
    r = ik_io_read_file(path, &data, &size, error);
    if (r != IK_OK) return r;
    r = ik_urdf_read_memory(data, size, out, error);
    free(data);
    return r;
}

void ik_urdf_free(ik_urdf *urdf) {
    int i;
    if (!urdf) return;
    for (i = 0; i < urdf->link_count; ++i) free(urdf->links[i].name);
    for (i = 0; i < urdf->joint_count; ++i) free(urdf->joints[i].name);
    for (i = 0; i < urdf->collision_count; ++i) free(urdf->collisions[i].mesh_filename);
    free(urdf->collisions);
    free(urdf->links);
    free(urdf->joints);
    free(urdf->name);
    free(urdf);
}
