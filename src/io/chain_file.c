/* Reading chain description files (docs/chain-format.md). */
#include <ikit/chain_file.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_read.h"
#include "rest_check.h"
#include "text_scan.h"

/* Joint names are found through an open-addressing table of this many
 * slots (a power of two, twice the most joints), so a file of n joints
 * that names parents and targets reads in O(n), not O(n^2) (4,096 joints:
 * 91 ms before, bench_chain_file). */
#define NAME_SLOTS (2 * IK_CHAIN_MAX_JOINTS)

/* Returned by the key readers for a word that is not one of their keys. */
#define NOT_A_KEY IK_RESULT_COUNT

/* What the text said explicitly, so defaults can be filled in afterwards. */
typedef struct joint_given {
    int direction, axis, limit, comfort, comfort_cone;
    ik_text_token at; /* the joint's name, for messages about the whole joint */
} joint_given;

typedef struct chain_parser {
    ik_text_scan scan;
    ik_error *error;
    ik_chain_file *chain;
    joint_given *given; /* [joint capacity] */
    int joint_capacity, target_capacity;
    int target_has_position;
    ik_text_token target_at;
    int *name_slots; /* [NAME_SLOTS]: joint index + 1 by name hash, 0 empty */
} chain_parser;

static ik_result fail(chain_parser *p, ik_result code, const ik_text_token *at, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    ik_error_setv(p->error, at->line, at->column, at->offset, fmt, args);
    va_end(args);
    return code;
}

#define TOKEN_SHOWN(t) (int)((t)->length < 40 ? (t)->length : 40), (t)->text

static ik_result read_word(chain_parser *p, const char *what, ik_text_token *t) {
    if (!ik_text_next(&p->scan, t, 1)) return fail(p, IK_ERR_PARSE, t, "unexpected end of file: missing %s", what);
    return IK_OK;
}

static ik_result read_name(chain_parser *p, const char *what, char *name, ik_text_token *t) {
    ik_result r = read_word(p, what, t);
    if (r != IK_OK) return r;
    if (t->length > IK_CHAIN_MAX_NAME)
        return fail(p, IK_ERR_RANGE, t, "%s longer than %d bytes", what, IK_CHAIN_MAX_NAME);
    if (t->text[0] == '{' || t->text[0] == '}' || memchr(t->text, '\0', t->length))
        return fail(p, IK_ERR_PARSE, t, "bad %s '%.*s'", what, TOKEN_SHOWN(t));
    if (name) {
        memcpy(name, t->text, t->length);
        name[t->length] = '\0';
    }
    return IK_OK;
}

/* A finite number in [lo, hi]. */
static ik_result read_real(chain_parser *p, const char *what, double lo, double hi, ik_real *out) {
    ik_text_token t;
    double value;
    ik_text_number status;
    ik_result r = read_word(p, what, &t);
    if (r != IK_OK) return r;
    status = ik_text_number_parse(&t, &value);
    if (status == IK_TEXT_NUMBER_NONFINITE)
        return fail(p, IK_ERR_NONFINITE, &t, "%s is not finite: '%.*s'", what, TOKEN_SHOWN(&t));
    if (status != IK_TEXT_NUMBER_OK)
        return fail(p, IK_ERR_PARSE, &t, "%s is not a number: '%.*s'", what, TOKEN_SHOWN(&t));
    if (value < lo || value > hi) return fail(p, IK_ERR_RANGE, &t, "%s %g is outside [%g, %g]", what, value, lo, hi);
    *out = (ik_real)value;
    return IK_OK;
}

static ik_result read_vec3(chain_parser *p, const char *what, ik_vec3 *out, ik_text_token *at) {
    ik_result r;
    ik_text_skip_blank(&p->scan, 1);
    *at = ik_text_here(&p->scan);
    r = read_real(p, what, -IK_TEXT_REAL_MAX, IK_TEXT_REAL_MAX, &out->x);
    if (r == IK_OK) r = read_real(p, what, -IK_TEXT_REAL_MAX, IK_TEXT_REAL_MAX, &out->y);
    if (r == IK_OK) r = read_real(p, what, -IK_TEXT_REAL_MAX, IK_TEXT_REAL_MAX, &out->z);
    return r;
}

/* A direction or axis: normalised; zero (or too large to square) is refused. */
/* v = length * unit, exact for any finite v: v is first divided by its
 * largest component m, so |v/m| is in [1, sqrt 3] and squaring it can
 * neither overflow nor fall into subnormals (a plain v / |v| of a 1e-22
 * offset in float is a direction 10 % off unit length). length = m |v/m|,
 * infinite when it overflows; a zero v gives length 0 and a zero unit. */
static ik_vec3 split_length(ik_vec3 v, ik_real *length) {
    ik_real m = IK_FABS(v.x);
    ik_vec3 scaled;
    ik_real scaled_length;
    if (IK_FABS(v.y) > m) m = IK_FABS(v.y);
    if (IK_FABS(v.z) > m) m = IK_FABS(v.z);
    if (!(m > 0)) {
        *length = 0;
        return ik_vec3_zero();
    }
    scaled = ik_v3(v.x / m, v.y / m, v.z / m); /* not v * (1 / m): 1 / 1e-39 overflows float */
    scaled_length = ik_vec3_length(scaled);
    *length = m * scaled_length;
    return ik_vec3_scale(scaled, 1 / scaled_length);
}

static ik_result read_unit(chain_parser *p, const char *what, ik_vec3 *out) {
    ik_text_token at;
    ik_vec3 v;
    ik_real length;
    ik_result r = read_vec3(p, what, &v, &at);
    if (r != IK_OK) return r;
    *out = split_length(v, &length);
    if (!(length > 0) || !ik_finite(length))
        return fail(p, IK_ERR_DEGENERATE, &at, "%s has no length (or overflows)", what);
    return IK_OK;
}

/* A pair min <= max, both in [lo, hi]. */
static ik_result read_range(chain_parser *p, const char *what, double lo, double hi, ik_real *min, ik_real *max) {
    ik_text_token at;
    ik_result r;
    ik_text_skip_blank(&p->scan, 1);
    at = ik_text_here(&p->scan);
    r = read_real(p, what, lo, hi, min);
    if (r == IK_OK) r = read_real(p, what, lo, hi, max);
    if (r == IK_OK && *min > *max)
        return fail(p, IK_ERR_RANGE, &at, "%s: min %g is above max %g", what, (double)*min, (double)*max);
    return r;
}

/* FNV-1a over the name's bytes, to the table's size. */
static size_t name_slot(const char *text, size_t length) {
    unsigned long h = 2166136261ul;
    size_t i;
    for (i = 0; i < length; ++i) h = ((h ^ (unsigned char)text[i]) * 16777619ul) & 0xfffffffful;
    return (size_t)h & (NAME_SLOTS - 1);
}

/* The joint named by `t`, by linear probing from its slot; -1 when none. */
static int find_joint(const chain_parser *p, const ik_text_token *t) {
    size_t slot = name_slot(t->text, t->length);
    while (p->name_slots[slot]) {
        int joint = p->name_slots[slot] - 1;
        if (ik_text_is(t, p->chain->joints[joint].name)) return joint;
        slot = (slot + 1) & (NAME_SLOTS - 1);
    }
    return -1;
}

static void add_joint_name(chain_parser *p, int joint) {
    const char *name = p->chain->joints[joint].name;
    size_t slot = name_slot(name, strlen(name));
    while (p->name_slots[slot]) slot = (slot + 1) & (NAME_SLOTS - 1);
    p->name_slots[slot] = joint + 1;
}

static ik_result start_joint(chain_parser *p) {
    ik_chain_file *chain = p->chain;
    ik_chain_joint *j;
    ik_text_token t;
    ik_result r;
    if (chain->joint_count == IK_CHAIN_MAX_JOINTS) {
        t = ik_text_here(&p->scan);
        return fail(p, IK_ERR_RANGE, &t, "more than %d joints", IK_CHAIN_MAX_JOINTS);
    }
    if (chain->joint_count == p->joint_capacity) {
        int capacity = p->joint_capacity ? p->joint_capacity * 2 : 16;
        ik_chain_joint *joints = (ik_chain_joint *)realloc(chain->joints, (size_t)capacity * sizeof *joints);
        joint_given *given;
        t = ik_text_here(&p->scan);
        if (!joints) return fail(p, IK_ERR_NO_MEMORY, &t, "out of memory");
        chain->joints = joints;
        given = (joint_given *)realloc(p->given, (size_t)capacity * sizeof *given);
        if (!given) return fail(p, IK_ERR_NO_MEMORY, &t, "out of memory");
        p->given = given;
        p->joint_capacity = capacity;
    }
    j = &chain->joints[chain->joint_count];
    memset(j, 0, sizeof *j);
    memset(&p->given[chain->joint_count], 0, sizeof p->given[0]);
    r = read_name(p, "joint name", j->name, &t);
    if (r != IK_OK) return r;
    if (find_joint(p, &t) >= 0) return fail(p, IK_ERR_HIERARCHY, &t, "joint '%s' declared twice", j->name);
    p->given[chain->joint_count].at = t;
    j->parent = chain->joint_count - 1;
    j->type = IK_CHAIN_BALL;
    j->direction_ls = ik_v3(0, 1, 0);
    j->axis_ls = ik_v3(0, 0, 1);
    j->limit_min_deg = -180;
    j->limit_max_deg = 180;
    j->cone_deg = 180;
    j->line = t.line;
    add_joint_name(p, chain->joint_count++);
    return IK_OK;
}

/* One `key values...` of the current joint; NOT_A_KEY when `key` is not a
 * joint key. */
static ik_result read_joint_key(chain_parser *p, const ik_text_token *key) {
    ik_chain_joint *j = &p->chain->joints[p->chain->joint_count - 1];
    joint_given *given = &p->given[p->chain->joint_count - 1];
    ik_text_token t;
    ik_result r;
    if (ik_text_is(key, "parent")) {
        r = read_name(p, "parent name", NULL, &t);
        if (r != IK_OK) return r;
        if (ik_text_is(&t, "none")) {
            j->parent = -1;
            return IK_OK;
        }
        j->parent = find_joint(p, &t);
        if (j->parent == p->chain->joint_count - 1) j->parent = -1;
        if (j->parent < 0)
            return fail(p, IK_ERR_NOT_FOUND, &t, "parent '%.*s' is not a joint declared before '%s'", TOKEN_SHOWN(&t),
                        j->name);
        return IK_OK;
    }
    if (ik_text_is(key, "length")) return read_real(p, "length", 0, IK_TEXT_REAL_MAX, &j->length);
    if (ik_text_is(key, "direction")) {
        given->direction = 1;
        return read_unit(p, "direction", &j->direction_ls);
    }
    if (ik_text_is(key, "offset")) {
        ik_vec3 offset, unit;
        r = read_vec3(p, "offset", &offset, &t);
        if (r != IK_OK) return r;
        unit = split_length(offset, &j->length);
        if (!ik_finite(j->length)) return fail(p, IK_ERR_NONFINITE, &t, "offset length overflows");
        if (j->length > 0) {
            j->direction_ls = unit;
            given->direction = 1;
        }
        return IK_OK;
    }
    if (ik_text_is(key, "type")) {
        r = read_word(p, "joint type", &t);
        if (r != IK_OK) return r;
        if (ik_text_is(&t, "ball"))
            j->type = IK_CHAIN_BALL;
        else if (ik_text_is(&t, "hinge"))
            j->type = IK_CHAIN_HINGE;
        else if (ik_text_is(&t, "fixed"))
            j->type = IK_CHAIN_FIXED;
        else
            return fail(p, IK_ERR_PARSE, &t, "unknown joint type '%.*s' (ball, hinge or fixed)", TOKEN_SHOWN(&t));
        return IK_OK;
    }
    if (ik_text_is(key, "axis")) {
        given->axis = 1;
        return read_unit(p, "axis", &j->axis_ls);
    }
    if (ik_text_is(key, "limit")) {
        given->limit = 1;
        return read_range(p, "limit", -180, 180, &j->limit_min_deg, &j->limit_max_deg);
    }
    if (ik_text_is(key, "cone")) return read_real(p, "cone", 0, 180, &j->cone_deg);
    if (ik_text_is(key, "stiffness")) return read_real(p, "stiffness", 0, 1, &j->stiffness);
    if (ik_text_is(key, "comfort")) {
        given->comfort = 1;
        return read_range(p, "comfort", -180, 180, &j->comfort_min_deg, &j->comfort_max_deg);
    }
    if (ik_text_is(key, "comfort_cone")) {
        given->comfort_cone = 1;
        return read_real(p, "comfort_cone", 0, 180, &j->comfort_cone_deg);
    }
    return NOT_A_KEY;
}

static ik_result start_target(chain_parser *p) {
    ik_chain_file *chain = p->chain;
    ik_chain_target *target;
    ik_text_token t;
    ik_result r;
    t = ik_text_here(&p->scan);
    if (chain->target_count == IK_CHAIN_MAX_TARGETS)
        return fail(p, IK_ERR_RANGE, &t, "more than %d targets", IK_CHAIN_MAX_TARGETS);
    if (chain->target_count == p->target_capacity) {
        int capacity = p->target_capacity ? p->target_capacity * 2 : 4;
        ik_chain_target *targets = (ik_chain_target *)realloc(chain->targets, (size_t)capacity * sizeof *targets);
        if (!targets) return fail(p, IK_ERR_NO_MEMORY, &t, "out of memory");
        chain->targets = targets;
        p->target_capacity = capacity;
    }
    target = &chain->targets[chain->target_count];
    memset(target, 0, sizeof *target);
    r = read_name(p, "target name", target->name, &t);
    if (r != IK_OK) return r;
    if (chain->joint_count == 0) return fail(p, IK_ERR_PARSE, &t, "target '%s' before any joint", target->name);
    target->joint = chain->joint_count - 1;
    target->importance = 1;
    target->line = t.line;
    p->target_at = t;
    p->target_has_position = 0;
    ++chain->target_count;
    return IK_OK;
}

static ik_result read_target_key(chain_parser *p, const ik_text_token *key) {
    ik_chain_target *target = &p->chain->targets[p->chain->target_count - 1];
    ik_text_token t;
    ik_result r;
    if (ik_text_is(key, "joint")) {
        r = read_name(p, "end-effector joint name", NULL, &t);
        if (r != IK_OK) return r;
        target->joint = find_joint(p, &t);
        if (target->joint < 0) return fail(p, IK_ERR_NOT_FOUND, &t, "no joint '%.*s'", TOKEN_SHOWN(&t));
        return IK_OK;
    }
    if (ik_text_is(key, "position")) {
        p->target_has_position = 1;
        return read_vec3(p, "target position", &target->position_ms, &t);
    }
    if (ik_text_is(key, "weight")) return read_real(p, "weight", 1e-9, IK_TEXT_REAL_MAX, &target->importance);
    return NOT_A_KEY;
}

static ik_result finish_target(chain_parser *p) {
    if (!p->target_has_position)
        return fail(p, IK_ERR_PARSE, &p->target_at, "target '%s' has no position",
                    p->chain->targets[p->chain->target_count - 1].name);
    return IK_OK;
}

/* Statements: `chain <name>` first (the magic), then `joint <name>` and
 * `target <name>` sections, each followed by its keys in any order, on the
 * same line or the lines below. Inside a target section `joint` is the
 * target's key (its end effector), so all joints come before the targets. */
static ik_result read_statements(chain_parser *p) {
    enum { NONE, JOINT, TARGET } section = NONE;
    ik_text_token t;
    ik_result r;
    ik_text_next(&p->scan, &t, 1);
    if (!ik_text_is(&t, "chain"))
        return fail(p, IK_ERR_PARSE, &t, "not a chain file: it must start with 'chain <name>'");
    r = read_name(p, "chain name", p->chain->name, &t);
    while (r == IK_OK && ik_text_next(&p->scan, &t, 1)) {
        if (section == TARGET) {
            r = read_target_key(p, &t);
            if (r != NOT_A_KEY) continue;
            r = finish_target(p);
            if (r != IK_OK) return r;
        }
        if (ik_text_is(&t, "joint")) {
            section = JOINT;
            r = start_joint(p);
        } else if (ik_text_is(&t, "target")) {
            section = TARGET;
            r = start_target(p);
        } else if (section == JOINT && (r = read_joint_key(p, &t)) != NOT_A_KEY) {
            continue;
        } else {
            return fail(p, IK_ERR_PARSE, &t, "unknown key '%.*s'%s", TOKEN_SHOWN(&t),
                        section == NONE ? " before the first joint" : "");
        }
    }
    if (r != IK_OK) return r;
    if (section == TARGET) r = finish_target(p);
    if (r == IK_OK && p->chain->joint_count == 0) {
        t = ik_text_here(&p->scan);
        return fail(p, IK_ERR_PARSE, &t, "chain '%s' has no joints", p->chain->name);
    }
    return r;
}

/* Defaults that depend on other joints, then cross-field checks:
 * direction = the parent's (straight chains by default; +Y for a root);
 * a ball's twist axis = its first child's direction (the bone it moves),
 * else its own; comfort = the limits, comfort_cone = the cone. */
static ik_result resolve(chain_parser *p) {
    ik_chain_file *chain = p->chain;
    int i, k;
    for (i = 0; i < chain->joint_count; ++i) {
        ik_chain_joint *j = &chain->joints[i];
        const joint_given *given = &p->given[i];
        if (!given->direction && j->parent >= 0) j->direction_ls = chain->joints[j->parent].direction_ls;
    }
    for (i = 0; i < chain->joint_count; ++i) {
        ik_chain_joint *j = &chain->joints[i];
        const joint_given *given = &p->given[i];
        if (j->type == IK_CHAIN_BALL && !given->axis) {
            j->axis_ls = j->direction_ls;
            for (k = i + 1; k < chain->joint_count; ++k)
                if (chain->joints[k].parent == i) {
                    j->axis_ls = chain->joints[k].direction_ls;
                    break;
                }
        }
        if (j->type == IK_CHAIN_FIXED) {
            j->limit_min_deg = j->limit_max_deg = 0;
            j->cone_deg = 0;
        }
        if (!given->comfort) {
            j->comfort_min_deg = j->limit_min_deg;
            j->comfort_max_deg = j->limit_max_deg;
        }
        if (!given->comfort_cone) j->comfort_cone_deg = j->cone_deg;
        if (j->comfort_min_deg < j->limit_min_deg || j->comfort_max_deg > j->limit_max_deg)
            return fail(p, IK_ERR_RANGE, &given->at,
                        "joint '%s': comfort range [%g, %g] is outside its limits [%g, %g]", j->name,
                        (double)j->comfort_min_deg, (double)j->comfort_max_deg, (double)j->limit_min_deg,
                        (double)j->limit_max_deg);
        if (j->comfort_cone_deg > j->cone_deg)
            return fail(p, IK_ERR_RANGE, &given->at, "joint '%s': comfort_cone %g is wider than its cone %g", j->name,
                        (double)j->comfort_cone_deg, (double)j->cone_deg);
    }
    return IK_OK;
}

/* Every bone length fits ik_real, but their sum along a chain may not: the
 * rest pose's model-space positions (forward kinematics) must be finite. */
static ik_result check_rest_positions(chain_parser *p) {
    const ik_chain_file *chain = p->chain;
    int i = ik_io_rest_overflow(&chain->skeleton, NULL);
    if (i == -2) return fail(p, IK_ERR_NO_MEMORY, &p->given[0].at, "out of memory for the rest pose");
    if (i >= 0)
        return fail(p, IK_ERR_NONFINITE, &p->given[i].at, "joint '%s': rest position overflows", chain->joints[i].name);
    return IK_OK;
}

static ik_result build_skeleton(chain_parser *p) {
    ik_chain_file *chain = p->chain;
    size_t n = (size_t)chain->joint_count;
    ik_error skeleton_error;
    ik_result r;
    int i;
    chain->names = (const char **)malloc(n * sizeof *chain->names);
    chain->parents = (int *)malloc(n * sizeof *chain->parents);
    chain->rest_ls = (ik_transform *)malloc(n * sizeof *chain->rest_ls);
    if (!chain->names || !chain->parents || !chain->rest_ls)
        return fail(p, IK_ERR_NO_MEMORY, &p->given[0].at, "out of memory for the skeleton");
    for (i = 0; i < chain->joint_count; ++i) {
        const ik_chain_joint *j = &chain->joints[i];
        chain->names[i] = j->name;
        chain->parents[i] = j->parent;
        chain->rest_ls[i] =
            ik_transform_make(ik_vec3_scale(j->direction_ls, j->length), ik_quat_identity(), ik_v3(1, 1, 1));
    }
    r = ik_io_skeleton_init(&chain->skeleton, chain->joint_count, chain->parents, (const char *const *)chain->names,
                            chain->rest_ls, &skeleton_error);
    if (r == IK_ERR_NO_MEMORY) return fail(p, r, &p->given[0].at, "out of memory for the skeleton");
    if (r != IK_OK) {
        int at = skeleton_error.index >= 0 ? skeleton_error.index : 0;
        return fail(p, r, &p->given[at].at, "joint '%s': %s", chain->joints[at].name, skeleton_error.message);
    }
    return check_rest_positions(p);
}

void ik_chain_file_free(ik_chain_file *chain) {
    if (!chain) return;
    free(chain->joints);
    free(chain->targets);
    free((void *)chain->names);
    free(chain->parents);
    free(chain->rest_ls);
    free(chain);
}

ik_result ik_chain_file_read_memory(const char *data, size_t size, ik_chain_file **out, ik_error *error) {
    chain_parser p;
    ik_result r;
    ik_error_clear(error);
    if (!out) return IK_ERR_NULL;
    *out = NULL;
    if (!data && size > 0) return IK_ERR_NULL;
    memset(&p, 0, sizeof p);
    ik_text_scan_init(&p.scan, data, size, '#');
    p.error = error;
    p.chain = (ik_chain_file *)calloc(1, sizeof *p.chain);
    p.name_slots = (int *)calloc(NAME_SLOTS, sizeof *p.name_slots);
    if (!p.chain || !p.name_slots) {
        free(p.chain);
        free(p.name_slots);
        return IK_ERR_NO_MEMORY;
    }
    r = read_statements(&p);
    if (r == IK_OK) r = resolve(&p);
    if (r == IK_OK) r = build_skeleton(&p);
    free(p.given);
    free(p.name_slots);
    if (r != IK_OK) {
        ik_chain_file_free(p.chain);
        return r;
    }
    *out = p.chain;
    return IK_OK;
}

ik_result ik_chain_file_read_file(const char *path, ik_chain_file **out, ik_error *error) {
    char *data;
    size_t size;
    ik_result r;
    ik_error_clear(error);
    if (!out) return IK_ERR_NULL;
    *out = NULL;
    r = ik_io_read_file(path, &data, &size, error);
    if (r != IK_OK) return r;
    r = ik_chain_file_read_memory(data, size, out, error);
    free(data);
    return r;
}

void ik_chain_file_rest_pose(const ik_chain_file *chain, ik_transform *pose_ls) {
    if (!chain || !pose_ls) return;
    ik_skeleton_rest_pose(&chain->skeleton, pose_ls);
}

int ik_chain_file_find_joint(const ik_chain_file *chain, const char *name) {
    int i;
    if (!chain || !name) return -1;
    for (i = 0; i < chain->joint_count; ++i)
        if (strcmp(chain->joints[i].name, name) == 0) return i;
    return -1;
}

int ik_chain_file_find_target(const ik_chain_file *chain, const char *name) {
    int i;
    if (!chain || !name) return -1;
    for (i = 0; i < chain->target_count; ++i)
        if (strcmp(chain->targets[i].name, name) == 0) return i;
    return -1;
}
