/* Reading BVH motion files into a skeleton, raw frame values and a clip. */
#include <ikit/bvh.h>

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_read.h"
#include "rest_check.h"
#include "text_scan.h"

typedef struct bvh_parser {
    ik_text_scan scan;
    ik_error *error;
    ik_bvh *bvh;
    int joint_capacity;
    long *joint_line; /* [joint_capacity]: where each joint was declared */
    long *joint_column;
} bvh_parser;

static ik_result fail(bvh_parser *p, ik_result code, const ik_text_token *at, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    ik_error_setv(p->error, at->line, at->column, at->offset, fmt, args);
    va_end(args);
    return code;
}

/* A token quoted in messages, at most 40 bytes of it. */
#define TOKEN_SHOWN(t) (int)((t)->length < 40 ? (t)->length : 40), (t)->text

static ik_result expect_word(bvh_parser *p, const char *word, const char *where) {
    ik_text_token t;
    if (!ik_text_next(&p->scan, &t, 1))
        return fail(p, IK_ERR_PARSE, &t, "unexpected end of file: expected '%s' %s", word, where);
    if (!ik_text_is(&t, word))
        return fail(p, IK_ERR_PARSE, &t, "expected '%s' %s, found '%.*s'", word, where, TOKEN_SHOWN(&t));
    return IK_OK;
}

static ik_result read_number(bvh_parser *p, int cross_lines, const char *what, double *out) {
    ik_text_token t;
    ik_text_number status;
    if (!ik_text_next(&p->scan, &t, cross_lines)) return fail(p, IK_ERR_PARSE, &t, "missing %s", what);
    status = ik_text_number_parse(&t, out);
    if (status == IK_TEXT_NUMBER_NONFINITE)
        return fail(p, IK_ERR_NONFINITE, &t, "%s is not finite: '%.*s'", what, TOKEN_SHOWN(&t));
    if (status != IK_TEXT_NUMBER_OK)
        return fail(p, IK_ERR_PARSE, &t, "%s is not a number: '%.*s'", what, TOKEN_SHOWN(&t));
    return IK_OK;
}

/* A whole number in [0, max]; `at` receives its token for later messages. */
static ik_result read_count(bvh_parser *p, const char *what, double max, long *out, ik_text_token *at) {
    double value;
    ik_result r;
    ik_text_skip_blank(&p->scan, 1);
    *at = ik_text_here(&p->scan);
    r = read_number(p, 1, what, &value);
    if (r != IK_OK) return r;
    if (value > max)
        return fail(p, IK_ERR_RANGE, at, "%s %.0f is more than this input can hold (%.0f)", what, value, max);
    if (value < 0 || value != (double)(long)value)
        return fail(p, IK_ERR_RANGE, at, "%s must be a whole number >= 0", what);
    *out = (long)value;
    return IK_OK;
}

static ik_result add_joint(bvh_parser *p, const ik_text_token *at, int parent, const char *name, size_t name_length,
                           int end_site, int *index) {
    ik_bvh *bvh = p->bvh;
    ik_bvh_joint *j;
    if (bvh->joint_count == IK_BVH_MAX_JOINTS)
        return fail(p, IK_ERR_RANGE, at, "more than %d joints", IK_BVH_MAX_JOINTS);
    if (bvh->joint_count == p->joint_capacity) {
        int capacity = p->joint_capacity ? p->joint_capacity * 2 : 64;
        ik_bvh_joint *joints = (ik_bvh_joint *)realloc(bvh->joints, (size_t)capacity * sizeof *joints);
        long *lines, *columns;
        if (!joints) return fail(p, IK_ERR_NO_MEMORY, at, "out of memory");
        bvh->joints = joints;
        lines = (long *)realloc(p->joint_line, (size_t)capacity * sizeof *lines);
        if (!lines) return fail(p, IK_ERR_NO_MEMORY, at, "out of memory");
        p->joint_line = lines;
        columns = (long *)realloc(p->joint_column, (size_t)capacity * sizeof *columns);
        if (!columns) return fail(p, IK_ERR_NO_MEMORY, at, "out of memory");
        p->joint_column = columns;
        p->joint_capacity = capacity;
    }
    j = &bvh->joints[bvh->joint_count];
    memset(j, 0, sizeof *j);
    j->parent = parent;
    j->end_site = end_site;
    j->first_value = bvh->values_per_frame;
    j->name = (char *)malloc(name_length + 1);
    if (!j->name) return fail(p, IK_ERR_NO_MEMORY, at, "out of memory");
    memcpy(j->name, name, name_length);
    j->name[name_length] = '\0';
    p->joint_line[bvh->joint_count] = at->line;
    p->joint_column[bvh->joint_count] = at->column;
    *index = bvh->joint_count++;
    return IK_OK;
}

/* The joint name is the rest of the line after ROOT/JOINT (names with spaces
 * exist in the wild), up to a line break or a brace, without
 * surrounding blanks. */
static ik_result read_name(bvh_parser *p, const ik_text_token *keyword, const char **name, size_t *length) {
    ik_text_scan *s = &p->scan;
    ik_text_token at;
    size_t end;
    ik_text_skip_blank(s, 0);
    at = ik_text_here(s);
    while (s->pos < s->size && s->data[s->pos] != '\n' && s->data[s->pos] != '\r' && s->data[s->pos] != '{' &&
           s->data[s->pos] != '}') {
        if (s->data[s->pos] == '\0') return fail(p, IK_ERR_PARSE, &at, "joint name holds a NUL byte");
        ++s->pos;
    }
    end = s->pos;
    while (end > (size_t)at.offset && ik_text_is_blank(s->data[end - 1])) --end;
    *name = at.text;
    *length = end - (size_t)at.offset;
    if (*length == 0) return fail(p, IK_ERR_PARSE, &at, "missing joint name after '%.*s'", TOKEN_SHOWN(keyword));
    if (*length > IK_BVH_MAX_NAME)
        return fail(p, IK_ERR_RANGE, &at, "joint name longer than %d bytes", IK_BVH_MAX_NAME);
    return IK_OK;
}

static ik_result read_offset(bvh_parser *p, ik_bvh_joint *j) {
    static const char *const what[3] = {"OFFSET x", "OFFSET y", "OFFSET z"};
    int i;
    ik_result r = expect_word(p, "OFFSET", "at the start of a joint block");
    for (i = 0; i < 3 && r == IK_OK; ++i) r = read_number(p, 0, what[i], &j->offset[i]);
    return r;
}

static int channel_from_token(const ik_text_token *t) {
    static const char *const names[6] = {"Xposition", "Yposition", "Zposition", "Xrotation", "Yrotation", "Zrotation"};
    int c;
    for (c = 0; c < 6; ++c)
        if (ik_text_is(t, names[c])) return c;
    return -1;
}

static ik_result read_channels(bvh_parser *p, ik_bvh_joint *j) {
    ik_text_token count_at, t;
    long count;
    int i, k, seen = 0;
    ik_result r = read_count(p, "channel count", 6, &count, &count_at);
    if (r != IK_OK) return r;
    for (i = 0; i < (int)count; ++i) {
        int c;
        if (!ik_text_next(&p->scan, &t, 1))
            return fail(p, IK_ERR_PARSE, &t, "unexpected end of file: %ld channels announced, %d given", count, i);
        c = channel_from_token(&t);
        if (c < 0)
            return fail(p, IK_ERR_PARSE, &t, "unknown channel '%.*s' (%ld channels announced, %d given)",
                        TOKEN_SHOWN(&t), count, i);
        for (k = 0; k < i; ++k)
            if (j->channels[k] == c) seen = 1;
        if (seen) return fail(p, IK_ERR_PARSE, &t, "channel '%.*s' listed twice", TOKEN_SHOWN(&t));
        j->channels[i] = (unsigned char)c;
    }
    j->channel_count = (int)count;
    p->bvh->values_per_frame += (int)count;
    return IK_OK;
}

/* OFFSET, then an optional CHANNELS list. */
static ik_result read_joint_header(bvh_parser *p, int joint) {
    ik_text_scan saved;
    ik_text_token t;
    ik_result r = expect_word(p, "{", "after the joint name");
    if (r == IK_OK) r = read_offset(p, &p->bvh->joints[joint]);
    if (r != IK_OK) return r;
    saved = p->scan;
    if (ik_text_next(&p->scan, &t, 1) && ik_text_is(&t, "CHANNELS")) return read_channels(p, &p->bvh->joints[joint]);
    p->scan = saved;
    return IK_OK;
}

/* End Site names: "<Parent>_End", then "<Parent>_End2", ... while taken. */
static ik_result add_end_site(bvh_parser *p, const ik_text_token *at, int parent, int *index) {
    char name[IK_BVH_MAX_NAME + 16];
    int suffix, i, taken;
    for (suffix = 1;; ++suffix) {
        if (suffix == 1)
            snprintf(name, sizeof name, "%s_End", p->bvh->joints[parent].name);
        else
            snprintf(name, sizeof name, "%s_End%d", p->bvh->joints[parent].name, suffix);
        for (taken = 0, i = 0; i < p->bvh->joint_count && !taken; ++i)
            taken = strcmp(p->bvh->joints[i].name, name) == 0;
        if (!taken) break;
    }
    return add_joint(p, at, parent, name, strlen(name), 1, index);
}

static ik_result read_end_site(bvh_parser *p, const ik_text_token *at, int parent) {
    int joint = parent;
    ik_result r = expect_word(p, "Site", "after 'End'");
    if (r == IK_OK) r = add_end_site(p, at, parent, &joint);
    if (r == IK_OK) r = expect_word(p, "{", "after 'End Site'");
    if (r == IK_OK) r = read_offset(p, &p->bvh->joints[joint]);
    if (r == IK_OK) r = expect_word(p, "}", "to close the End Site");
    return r;
}

/* One ROOT block and everything inside it, without recursion: `current` is
 * the joint whose block is open; '}' closes it and returns to its parent. */
static ik_result read_root(bvh_parser *p, const ik_text_token *keyword) {
    const char *name;
    size_t length;
    int current = -1;
    ik_text_token t;
    ik_result r = read_name(p, keyword, &name, &length);
    if (r == IK_OK) r = add_joint(p, keyword, -1, name, length, 0, &current);
    if (r == IK_OK) r = read_joint_header(p, current);
    while (r == IK_OK && current >= 0) {
        if (!ik_text_next(&p->scan, &t, 1))
            return fail(p, IK_ERR_PARSE, &t, "unexpected end of file inside joint '%s' (missing '}')",
                        p->bvh->joints[current].name);
        if (ik_text_is(&t, "JOINT")) {
            int joint = current;
            r = read_name(p, &t, &name, &length);
            if (r == IK_OK) r = add_joint(p, &t, current, name, length, 0, &joint);
            if (r == IK_OK) r = read_joint_header(p, joint);
            current = joint;
        } else if (ik_text_is(&t, "End")) {
            r = read_end_site(p, &t, current);
        } else if (ik_text_is(&t, "}")) {
            current = p->bvh->joints[current].parent;
        } else {
            return fail(p, IK_ERR_PARSE, &t, "expected JOINT, End Site or '}' in joint '%s', found '%.*s'",
                        p->bvh->joints[current].name, TOKEN_SHOWN(&t));
        }
    }
    return r;
}

static ik_result read_hierarchy(bvh_parser *p) {
    ik_text_token t;
    ik_result r;
    ik_text_next(&p->scan, &t, 1);
    if (!ik_text_is(&t, "HIERARCHY")) {
        return fail(p, IK_ERR_PARSE, &t, "not a BVH file: it must start with HIERARCHY");
    }
    for (;;) {
        if (!ik_text_next(&p->scan, &t, 1))
            return fail(p, IK_ERR_PARSE, &t, "unexpected end of file: expected ROOT or MOTION");
        if (ik_text_is(&t, "MOTION")) break;
        if (!ik_text_is(&t, "ROOT"))
            return fail(p, IK_ERR_PARSE, &t, "expected ROOT or MOTION, found '%.*s'", TOKEN_SHOWN(&t));
        r = read_root(p, &t);
        if (r != IK_OK) return r;
    }
    if (p->bvh->joint_count == 0) return fail(p, IK_ERR_PARSE, &t, "MOTION before any ROOT");
    return IK_OK;
}

/* Each frame is one line of exactly values_per_frame numbers (blank lines
 * between frames are allowed). Before allocating, the frame count is capped
 * by the bytes left: every value needs at least a digit and a separator, and
 * every frame a line feed. */
static ik_result read_motion(bvh_parser *p) {
    ik_bvh *bvh = p->bvh;
    ik_text_token frames_at, time_at, t;
    long frames, f;
    int v;
    double left, per_frame = bvh->values_per_frame > 0 ? 2.0 * bvh->values_per_frame : 1.0;
    ik_result r = expect_word(p, "Frames:", "after MOTION");
    if (r != IK_OK) return r;
    left = (double)(p->scan.size - p->scan.pos);
    r = read_count(p, "frame count", left / per_frame + 1 < (double)INT_MAX ? left / per_frame + 1 : (double)INT_MAX,
                   &frames, &frames_at);
    if (r == IK_OK) r = expect_word(p, "Frame", "after the frame count");
    if (r == IK_OK) r = expect_word(p, "Time:", "after 'Frame'");
    if (r != IK_OK) return r;
    ik_text_skip_blank(&p->scan, 1);
    time_at = ik_text_here(&p->scan);
    r = read_number(p, 0, "frame time", &bvh->frame_time);
    if (r != IK_OK) return r;
    if (!(bvh->frame_time > 0)) return fail(p, IK_ERR_RANGE, &time_at, "frame time must be > 0");
    bvh->frame_count = (int)frames;
    if (frames > 0 && bvh->values_per_frame > 0) {
        bvh->values = (double *)malloc((size_t)frames * (size_t)bvh->values_per_frame * sizeof *bvh->values);
        if (!bvh->values) return fail(p, IK_ERR_NO_MEMORY, &frames_at, "out of memory for %ld frames", frames);
    }
    for (f = 0; f < frames && bvh->values_per_frame > 0; ++f) {
        double *row = bvh->values + (size_t)f * (size_t)bvh->values_per_frame;
        if (!ik_text_skip_blank(&p->scan, 1)) {
            t = ik_text_here(&p->scan);
            return fail(p, IK_ERR_PARSE, &t, "unexpected end of file after %ld of %ld frames", f, frames);
        }
        for (v = 0; v < bvh->values_per_frame; ++v) {
            ik_text_number status;
            if (!ik_text_next(&p->scan, &t, 0))
                return fail(p, IK_ERR_PARSE, &t, "frame %ld has %d values, %d expected", f, v, bvh->values_per_frame);
            status = ik_text_number_parse(&t, &row[v]);
            if (status == IK_TEXT_NUMBER_NONFINITE)
                return fail(p, IK_ERR_NONFINITE, &t, "frame %ld value %d is not finite: '%.*s'", f, v, TOKEN_SHOWN(&t));
            if (status != IK_TEXT_NUMBER_OK)
                return fail(p, IK_ERR_PARSE, &t, "frame %ld value %d is not a number: '%.*s'", f, v, TOKEN_SHOWN(&t));
        }
        if (ik_text_skip_blank(&p->scan, 0)) {
            t = ik_text_here(&p->scan);
            return fail(p, IK_ERR_PARSE, &t, "frame %ld has more than %d values", f, bvh->values_per_frame);
        }
    }
    if (ik_text_skip_blank(&p->scan, 1)) {
        t = ik_text_here(&p->scan);
        return fail(p, IK_ERR_PARSE, &t, "data after the last of %ld frames", frames);
    }
    return IK_OK;
}

ik_quat ik_bvh_euler_to_quat(const unsigned char *channels, const double *degrees, int count) {
    /* Computed in double whatever ik_real is: the file's values are doubles
     * and the product of three rotations should not round three times in
     * float. Each factor is (sin(a/2) e_axis, cos(a/2)). */
    double x = 0, y = 0, z = 0, w = 1;
    int i;
    for (i = 0; i < count; ++i) {
        double half, s, c, bx = 0, by = 0, bz = 0, nx, ny, nz, nw;
        if (channels[i] < IK_BVH_XROTATION || channels[i] > IK_BVH_ZROTATION) continue;
        half = degrees[i] * (3.14159265358979323846 / 360.0);
        s = sin(half);
        c = cos(half);
        if (channels[i] == IK_BVH_XROTATION)
            bx = s;
        else if (channels[i] == IK_BVH_YROTATION)
            by = s;
        else
            bz = s;
        nx = w * bx + x * c + y * bz - z * by;
        ny = w * by - x * bz + y * c + z * bx;
        nz = w * bz + x * by - y * bx + z * c;
        nw = w * c - x * bx - y * by - z * bz;
        x = nx;
        y = ny;
        z = nz;
        w = nw;
    }
    return ik_q((ik_real)x, (ik_real)y, (ik_real)z, (ik_real)w);
}

static int has_channel_kind(const ik_bvh_joint *j, int rotation) {
    int i;
    for (i = 0; i < j->channel_count; ++i)
        if ((j->channels[i] >= IK_BVH_XROTATION) == rotation) return 1;
    return 0;
}

/* Key values per joint and frame: translation = the position channels over
 * the OFFSET; rotation = ik_bvh_euler_to_quat, kept in the hemisphere of the
 * previous key so that consecutive keys are close as 4-vectors too. */
static void fill_clip_keys(ik_bvh *bvh, const ik_bvh_joint *j, ik_channel *translation, ik_channel *rotation,
                           ik_real *values) {
    int f, i;
    ik_real *tv = values, *rv = translation ? values + (size_t)bvh->frame_count * 3 : values;
    if (translation) translation->values = tv;
    if (rotation) rotation->values = rv;
    for (f = 0; f < bvh->frame_count; ++f) {
        const double *row = bvh->values + (size_t)f * (size_t)bvh->values_per_frame + j->first_value;
        if (translation) {
            double p[3];
            p[0] = j->offset[0];
            p[1] = j->offset[1];
            p[2] = j->offset[2];
            for (i = 0; i < j->channel_count; ++i)
                if (j->channels[i] <= IK_BVH_ZPOSITION) p[j->channels[i]] = row[i];
            for (i = 0; i < 3; ++i) tv[f * 3 + i] = (ik_real)p[i];
        }
        if (rotation) {
            ik_quat q = ik_bvh_euler_to_quat(j->channels, row, j->channel_count);
            if (f > 0 && q.x * rv[f * 4 - 4] + q.y * rv[f * 4 - 3] + q.z * rv[f * 4 - 2] + q.w * rv[f * 4 - 1] < 0)
                q = ik_quat_neg(q);
            rv[f * 4] = q.x;
            rv[f * 4 + 1] = q.y;
            rv[f * 4 + 2] = q.z;
            rv[f * 4 + 3] = q.w;
        }
    }
}

static ik_result build_clip(bvh_parser *p) {
    ik_bvh *bvh = p->bvh;
    int i, channel_count = 0, c = 0;
    size_t value_count = 0, used = 0;
    ik_text_token here = ik_text_here(&p->scan);
    bvh->clip.name = "";
    if (bvh->frame_count == 0) return IK_OK;
    for (i = 0; i < bvh->joint_count; ++i) {
        int t = has_channel_kind(&bvh->joints[i], 0), r = has_channel_kind(&bvh->joints[i], 1);
        channel_count += t + r;
        value_count += (size_t)(3 * t + 4 * r) * (size_t)bvh->frame_count;
    }
    bvh->clip_times = (ik_real *)malloc((size_t)bvh->frame_count * sizeof *bvh->clip_times);
    bvh->clip_channels =
        (ik_channel *)calloc(channel_count > 0 ? (size_t)channel_count : 1, sizeof *bvh->clip_channels);
    bvh->clip_values = (ik_real *)malloc(value_count > 0 ? value_count * sizeof *bvh->clip_values : 1);
    if (!bvh->clip_times || !bvh->clip_channels || !bvh->clip_values)
        return fail(p, IK_ERR_NO_MEMORY, &here, "out of memory for the clip");
    for (i = 0; i < bvh->frame_count; ++i) bvh->clip_times[i] = (ik_real)(i * bvh->frame_time);
    for (i = 0; i < bvh->joint_count; ++i) {
        const ik_bvh_joint *j = &bvh->joints[i];
        ik_channel *translation = NULL, *rotation = NULL;
        int t = has_channel_kind(j, 0), r = has_channel_kind(j, 1);
        if (t) translation = &bvh->clip_channels[c++];
        if (r) rotation = &bvh->clip_channels[c++];
        if (!t && !r) continue;
        if (translation) {
            translation->joint = i;
            translation->path = IK_CHANNEL_TRANSLATION;
        }
        if (rotation) {
            rotation->joint = i;
            rotation->path = IK_CHANNEL_ROTATION;
        }
        fill_clip_keys(bvh, j, translation, rotation, bvh->clip_values + used);
        used += (size_t)(3 * t + 4 * r) * (size_t)bvh->frame_count;
    }
    for (c = 0; c < channel_count; ++c) {
        bvh->clip_channels[c].interpolation = IK_INTERP_LINEAR;
        bvh->clip_channels[c].key_count = bvh->frame_count;
        bvh->clip_channels[c].times = bvh->clip_times;
    }
    bvh->clip.channels = bvh->clip_channels;
    bvh->clip.channel_count = channel_count;
    bvh->clip.duration = bvh->clip_times[bvh->frame_count - 1];
    return IK_OK;
}

static ik_result build_skeleton(bvh_parser *p) {
    ik_bvh *bvh = p->bvh;
    ik_error skeleton_error;
    ik_result r;
    int i;
    ik_text_token here = ik_text_here(&p->scan);
    size_t n = (size_t)bvh->joint_count;
    bvh->names = (const char **)malloc(n * sizeof *bvh->names);
    bvh->parents = (int *)malloc(n * sizeof *bvh->parents);
    bvh->rest_ls = (ik_transform *)malloc(n * sizeof *bvh->rest_ls);
    if (!bvh->names || !bvh->parents || !bvh->rest_ls)
        return fail(p, IK_ERR_NO_MEMORY, &here, "out of memory for the skeleton");
    for (i = 0; i < bvh->joint_count; ++i) {
        const ik_bvh_joint *j = &bvh->joints[i];
        bvh->names[i] = j->name;
        bvh->parents[i] = j->parent;
        bvh->rest_ls[i] = ik_transform_make(ik_v3((ik_real)j->offset[0], (ik_real)j->offset[1], (ik_real)j->offset[2]),
                                            ik_quat_identity(), ik_v3(1, 1, 1));
    }
    r = ik_io_skeleton_init(&bvh->skeleton, bvh->joint_count, bvh->parents, (const char *const *)bvh->names,
                            bvh->rest_ls, &skeleton_error);
    if (r == IK_ERR_NO_MEMORY) return fail(p, r, &here, "out of memory for the skeleton");
    if (r != IK_OK) {
        int at = skeleton_error.index >= 0 ? skeleton_error.index : 0;
        ik_error_set(p->error, p->joint_line[at], p->joint_column[at], -1, "joint '%s': %s", bvh->joints[at].name,
                     skeleton_error.message);
        return r;
    }
    /* each OFFSET fits ik_real, their sum down a chain may not */
    i = ik_io_rest_overflow(&bvh->skeleton, NULL);
    if (i == -2) return fail(p, IK_ERR_NO_MEMORY, &here, "out of memory for the rest pose");
    if (i >= 0) {
        ik_error_set(p->error, p->joint_line[i], p->joint_column[i], -1,
                     "joint '%s': rest position overflows (its offsets summed from the root)", bvh->joints[i].name);
        return IK_ERR_NONFINITE;
    }
    return IK_OK;
}

void ik_bvh_free(ik_bvh *bvh) {
    int i;
    if (!bvh) return;
    for (i = 0; i < bvh->joint_count; ++i) free(bvh->joints[i].name);
    free(bvh->joints);
    free(bvh->values);
    free((void *)bvh->names);
    free(bvh->parents);
    free(bvh->rest_ls);
    free(bvh->clip_channels);
    free(bvh->clip_times);
    free(bvh->clip_values);
    free(bvh);
}

ik_result ik_bvh_read_memory(const char *data, size_t size, ik_bvh **out, ik_error *error) {
    bvh_parser p;
    ik_result r;
    ik_error_clear(error);
    if (!out) return IK_ERR_NULL;
    *out = NULL;
    if (!data && size > 0) return IK_ERR_NULL;
    memset(&p, 0, sizeof p);
    ik_text_scan_init(&p.scan, data, size, 0);
    p.error = error;
    p.bvh = (ik_bvh *)calloc(1, sizeof *p.bvh);
    if (!p.bvh) return IK_ERR_NO_MEMORY;
    r = read_hierarchy(&p);
    if (r == IK_OK) r = read_motion(&p);
    if (r == IK_OK) r = build_skeleton(&p);
    if (r == IK_OK) r = build_clip(&p);
    free(p.joint_line);
    free(p.joint_column);
    if (r != IK_OK) {
        ik_bvh_free(p.bvh);
        return r;
    }
    *out = p.bvh;
    return IK_OK;
}

ik_result ik_bvh_read_file(const char *path, ik_bvh **out, ik_error *error) {
    char *data;
    size_t size;
    ik_result r;
    ik_error_clear(error);
    if (!out) return IK_ERR_NULL;
    *out = NULL;
    r = ik_io_read_file(path, &data, &size, error);
    if (r != IK_OK) return r;
    r = ik_bvh_read_memory(data, size, out, error);
    free(data);
    return r;
}
