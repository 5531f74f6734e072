/* Writing BVH motion files from an ik_bvh. */
#include <ikit/bvh.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_scan.h"

typedef struct text_out {
    char *data;
    size_t size, capacity;
    int failed;
} text_out;

static void put(text_out *o, const char *s, size_t n) {
    if (o->failed) return;
    if (o->size + n + 1 > o->capacity) {
        size_t capacity = o->capacity ? o->capacity : 1 << 16;
        char *grown;
        while (capacity < o->size + n + 1) capacity *= 2;
        grown = (char *)realloc(o->data, capacity);
        if (!grown) {
            o->failed = 1;
            return;
        }
        o->data = grown;
        o->capacity = capacity;
    }
    memcpy(o->data + o->size, s, n);
    o->size += n;
    o->data[o->size] = '\0';
}

static void put_str(text_out *o, const char *s) { put(o, s, strlen(s)); }

static void put_tabs(text_out *o, int depth) {
    int i;
    for (i = 0; i < depth; ++i) put(o, "\t", 1);
}

/* The shortest of %.15g, %.16g, %.17g that reads back as the same double
 * (17 significant digits always do: IEEE 754-2008, 5.12.2). */
static void put_number(text_out *o, double value) {
    char text[40];
    int digits;
    for (digits = 15; digits < 17; ++digits) {
        snprintf(text, sizeof text, "%.*g", digits, value);
        if (strtod(text, NULL) == value) break;
    }
    if (digits == 17) snprintf(text, sizeof text, "%.17g", value);
    put_str(o, text);
}

static ik_result fail(ik_error *error, ik_result code, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    ik_error_setv(error, 0, 0, -1, fmt, args);
    va_end(args);
    return code;
}

static int finite_double(double x) { return x - x == 0; }

/* A name must read back unchanged: non-empty, no line breaks or braces, no
 * blanks at either end (the reader trims them). */
static int name_writable(const char *name) {
    size_t n;
    if (!name || !name[0]) return 0;
    n = strlen(name);
    if (n > IK_BVH_MAX_NAME || strpbrk(name, "\r\n{}") != NULL) return 0;
    return !ik_text_is_blank(name[0]) && !ik_text_is_blank(name[n - 1]);
}

static ik_result check_bvh(const ik_bvh *bvh, ik_error *error) {
    int i, c, k;
    size_t v, total;
    if (bvh->joint_count < 1 || !bvh->joints) return fail(error, IK_ERR_RANGE, "no joints to write");
    if (bvh->frame_count < 0 || bvh->values_per_frame < 0) return fail(error, IK_ERR_RANGE, "negative counts");
    if (!finite_double(bvh->frame_time) || !(bvh->frame_time > 0))
        return fail(error, IK_ERR_RANGE, "frame time must be finite and > 0");
    for (i = 0; i < bvh->joint_count; ++i) {
        const ik_bvh_joint *j = &bvh->joints[i];
        if (j->parent < -1 || j->parent >= i)
            return fail(error, IK_ERR_HIERARCHY, "joint %d: parent %d does not come before it", i, j->parent);
        if (j->end_site && (j->parent < 0 || j->channel_count != 0))
            return fail(error, IK_ERR_HIERARCHY, "joint %d: an End Site needs a parent and no channels", i);
        if (j->parent >= 0 && bvh->joints[j->parent].end_site)
            return fail(error, IK_ERR_HIERARCHY, "joint %d: its parent is an End Site", i);
        if (!j->end_site && !name_writable(j->name))
            return fail(error, IK_ERR_RANGE, "joint %d: name is empty, too long, or holds line breaks or braces", i);
        if (!finite_double(j->offset[0]) || !finite_double(j->offset[1]) || !finite_double(j->offset[2]))
            return fail(error, IK_ERR_NONFINITE, "joint %d: OFFSET is not finite", i);
        if (j->channel_count < 0 || j->channel_count > 6 || j->first_value < 0 ||
            j->first_value > bvh->values_per_frame - j->channel_count)
            return fail(error, IK_ERR_RANGE, "joint %d: channels do not fit the frame layout", i);
        for (c = 0; c < j->channel_count; ++c) {
            if (j->channels[c] > IK_BVH_ZROTATION) return fail(error, IK_ERR_RANGE, "joint %d: unknown channel", i);
            for (k = 0; k < c; ++k)
                if (j->channels[k] == j->channels[c])
                    return fail(error, IK_ERR_RANGE, "joint %d: channel listed twice", i);
        }
    }
    total = (size_t)bvh->frame_count * (size_t)bvh->values_per_frame;
    if (total > 0 && !bvh->values) return fail(error, IK_ERR_NULL, "no frame values");
    for (v = 0; v < total; ++v)
        if (!finite_double(bvh->values[v]))
            return fail(error, IK_ERR_NONFINITE, "frame %lu value %lu is not finite",
                        (unsigned long)(v / (size_t)bvh->values_per_frame),
                        (unsigned long)(v % (size_t)bvh->values_per_frame));
    return IK_OK;
}

static void put_joint_open(text_out *o, const ik_bvh_joint *j, int depth) {
    static const char *const channel_names[6] = {"Xposition", "Yposition", "Zposition",
                                                 "Xrotation", "Yrotation", "Zrotation"};
    char count[16];
    int c;
    put_tabs(o, depth);
    if (j->end_site) {
        put_str(o, "End Site");
    } else {
        put_str(o, j->parent < 0 ? "ROOT " : "JOINT ");
        put_str(o, j->name);
    }
    put_str(o, "\n");
    put_tabs(o, depth);
    put_str(o, "{\n");
    put_tabs(o, depth + 1);
    put_str(o, "OFFSET");
    for (c = 0; c < 3; ++c) {
        put_str(o, " ");
        put_number(o, j->offset[c]);
    }
    put_str(o, "\n");
    if (j->end_site) return;
    put_tabs(o, depth + 1);
    snprintf(count, sizeof count, "CHANNELS %d", j->channel_count);
    put_str(o, count);
    for (c = 0; c < j->channel_count; ++c) {
        put_str(o, " ");
        put_str(o, channel_names[j->channels[c]]);
    }
    put_str(o, "\n");
}

/* Depth-first from each root with children in index order, without
 * recursion: first_child / next_sibling lists, then walk down, across and up.
 * The frame layout follows the same order, recorded in `order`. */
static ik_result put_hierarchy(text_out *o, const ik_bvh *bvh, int *order, ik_error *error) {
    int n = bvh->joint_count, i, written = 0;
    int *first_child = (int *)malloc((size_t)n * 2 * sizeof(int)), *next_sibling;
    int first_root = -1, joint;
    if (!first_child) return fail(error, IK_ERR_NO_MEMORY, "out of memory");
    next_sibling = first_child + n;
    for (i = 0; i < n; ++i) first_child[i] = next_sibling[i] = -1;
    for (i = n - 1; i >= 0; --i) {
        int parent = bvh->joints[i].parent;
        if (parent < 0) {
            next_sibling[i] = first_root;
            first_root = i;
        } else {
            next_sibling[i] = first_child[parent];
            first_child[parent] = i;
        }
    }
    put_str(o, "HIERARCHY\n");
    for (joint = first_root; joint >= 0;) {
        int depth = 0, up;
        for (up = bvh->joints[joint].parent; up >= 0; up = bvh->joints[up].parent) ++depth;
        put_joint_open(o, &bvh->joints[joint], depth);
        order[written++] = joint;
        if (first_child[joint] >= 0) {
            joint = first_child[joint];
            continue;
        }
        for (;;) {
            put_tabs(o, depth);
            put_str(o, "}\n");
            if (next_sibling[joint] >= 0) {
                joint = next_sibling[joint];
                break;
            }
            joint = bvh->joints[joint].parent;
            --depth;
            if (joint < 0) break;
        }
    }
    free(first_child);
    return IK_OK;
}

static ik_result write_text(const ik_bvh *bvh, text_out *o, ik_error *error) {
    int *order, f, k, c;
    char header[64];
    ik_result r = check_bvh(bvh, error);
    if (r != IK_OK) return r;
    order = (int *)malloc((size_t)bvh->joint_count * sizeof *order);
    if (!order) return fail(error, IK_ERR_NO_MEMORY, "out of memory");
    r = put_hierarchy(o, bvh, order, error);
    if (r != IK_OK) {
        free(order);
        return r;
    }
    put_str(o, "MOTION\n");
    snprintf(header, sizeof header, "Frames: %d\nFrame Time: ", bvh->frame_count);
    put_str(o, header);
    put_number(o, bvh->frame_time);
    put_str(o, "\n");
    for (f = 0; f < bvh->frame_count; ++f) {
        const double *row = bvh->values + (size_t)f * (size_t)bvh->values_per_frame;
        int first = 1;
        for (k = 0; k < bvh->joint_count; ++k) {
            const ik_bvh_joint *j = &bvh->joints[order[k]];
            for (c = 0; c < j->channel_count; ++c) {
                if (!first) put_str(o, " ");
                first = 0;
                put_number(o, row[j->first_value + c]);
            }
        }
        put_str(o, "\n");
    }
    free(order);
    if (o->failed) return fail(error, IK_ERR_NO_MEMORY, "out of memory");
    return IK_OK;
}

ik_result ik_bvh_write_memory(const ik_bvh *bvh, char **text, size_t *size, ik_error *error) {
    text_out o;
    ik_result r;
    ik_error_clear(error);
    if (!bvh || !text) return IK_ERR_NULL;
    *text = NULL;
    if (size) *size = 0;
    memset(&o, 0, sizeof o);
    r = write_text(bvh, &o, error);
    if (r != IK_OK) {
        free(o.data);
        return r;
    }
    *text = o.data;
    if (size) *size = o.size;
    return IK_OK;
}

void ik_bvh_text_free(char *text) { free(text); }

ik_result ik_bvh_write_file(const ik_bvh *bvh, const char *path, ik_error *error) {
    char *text;
    size_t size;
    FILE *file;
    ik_result r;
    if (!path) return IK_ERR_NULL;
    r = ik_bvh_write_memory(bvh, &text, &size, error);
    if (r != IK_OK) return r;
    file = fopen(path, "wb");
    if (!file) {
        ik_bvh_text_free(text);
        return fail(error, IK_ERR_IO, "cannot open '%s' for writing", path);
    }
    if (fwrite(text, 1, size, file) != size) r = fail(error, IK_ERR_IO, "cannot write '%s'", path);
    if (fclose(file) != 0 && r == IK_OK) r = fail(error, IK_ERR_IO, "cannot finish writing '%s'", path);
    ik_bvh_text_free(text);
    return r;
}
