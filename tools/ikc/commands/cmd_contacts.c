/* `ikc contacts TAKE`: the frames each foot is planted (ikit/foot_contacts.h),
 * as a table or JSON, and a picture of each foot's height and speed over
 * time with its contacts shaded. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "ikc.h"
#include "motion_take.h"

#define COLOR_HEEL 0x3b5b92u
#define COLOR_TOE 0xe07a1fu

static void usage(FILE *out) {
    fprintf(out,
            "usage: ikc contacts TAKE [--clip NAME] [--map MAPPING] [--json] [-o PICTURE]\n"
            "\n"
            "Finds the frames each foot of TAKE (a BVH, or a glTF clip baked at 60 fps)\n"
            "stands on the floor: per heel (the ankle joint) and toe joint, intervals of\n"
            "frames where it is near the floor and slow, with where it stands. The floor is\n"
            "found from the take (a low percentile of the feet's heights along the body's\n"
            "up), and the thresholds are fractions of the leg length, so any unit works.\n"
            "A cycle made in place (the hips stay put while each stance foot slides\n"
            "backward, as game clips and \"in place\" exports are) is reported as such, with\n"
            "its slide speed, and its stances are listed as contacts marked \"in place\"\n"
            "(`ikc clean --root-motion` makes it walk).\n"
            "\n"
            "  --clip NAME     the clip (name or number; default the first)\n"
            "  --map MAPPING   'role = joint name' lines for joints not found by name\n"
            "  --json          print JSON instead of a table\n"
            "  -o PICTURE      .png, .svg or .pdf: each foot's height and speed over time,\n"
            "                  heel (blue) and toe (orange) contacts shaded\n"
            "\n"
            "examples:\n"
            "  ikc contacts 131_01.bvh -o contacts.png\n"
            "  ikc contacts robot.glb --clip Robot_Walking --json\n"
            "\n"
            "exit codes: 0 ok, 2 bad usage, 3 file missing, 4 file malformed or not a\n"
            "usable take (one frame, NaN values, no humanoid, upside down), 5 unknown clip,\n"
            "6 picture not written.\n");
}

/* An in-place stance's slide (model units), or -1 for a contact. */
static cJSON *contact_json(const ikc_motion *m, const ik_foot_contact *c, double slide) {
    cJSON *o = cJSON_CreateObject(), *at = cJSON_CreateArray();
    cJSON_AddNumberToObject(o, "start", c->start);
    cJSON_AddNumberToObject(o, "end", c->end);
    cJSON_AddNumberToObject(o, "start_time", (double)(c->start * m->take.frame_time));
    cJSON_AddNumberToObject(o, "end_time", (double)(c->end * m->take.frame_time));
    cJSON_AddItemToArray(at, cJSON_CreateNumber((double)c->planted_ms.x));
    cJSON_AddItemToArray(at, cJSON_CreateNumber((double)c->planted_ms.y));
    cJSON_AddItemToArray(at, cJSON_CreateNumber((double)c->planted_ms.z));
    cJSON_AddItemToObject(o, "planted", at);
    if (slide >= 0) {
        cJSON_AddTrueToObject(o, "in_place");
        cJSON_AddNumberToObject(o, "slide", slide);
    }
    return o;
}

static int print_json(const ikc_motion *m, const char *path) {
    static const char *const keys[IK_FOOT_CONTACT_POINTS] = {"left_heel", "left_toe", "right_heel", "right_toe"};
    cJSON *root = cJSON_CreateObject(), *points = cJSON_CreateObject(), *up = cJSON_CreateArray();
    int p, i;
    cJSON_AddItemToObject(root, "file", ikc_json_text(path));
    cJSON_AddItemToObject(root, "clip", ikc_json_text(m->clip_name));
    cJSON_AddNumberToObject(root, "frames", m->take.frame_count);
    cJSON_AddNumberToObject(root, "frame_time", (double)m->take.frame_time);
    cJSON_AddNumberToObject(root, "leg_length", (double)m->leg_length);
    cJSON_AddItemToArray(up, cJSON_CreateNumber((double)m->up_ms.x));
    cJSON_AddItemToArray(up, cJSON_CreateNumber((double)m->up_ms.y));
    cJSON_AddItemToArray(up, cJSON_CreateNumber((double)m->up_ms.z));
    cJSON_AddItemToObject(root, "up", up);
    for (p = 0; p < IK_FOOT_CONTACT_POINTS; ++p) {
        cJSON *o = cJSON_CreateObject(), *list = cJSON_CreateArray();
        cJSON_AddItemToObject(
            o, "joint",
            m->joints[p] >= 0 ? ikc_json_text(ik_skeleton_name(m->asset.skeleton, m->joints[p])) : cJSON_CreateNull());
        cJSON_AddItemToObject(o, "point", m->present[p] ? ikc_json_text(m->point_label[p]) : cJSON_CreateNull());
        cJSON_AddNumberToObject(o, "floor_level", (double)m->levels[p]);
        for (i = 0; i < m->contact_count; ++i)
            if (m->contacts[i].point == p) cJSON_AddItemToArray(list, contact_json(m, &m->contacts[i], -1));
        for (i = 0; i < m->stance_count; ++i)
            if (m->stances[i].point == p)
                cJSON_AddItemToArray(list, contact_json(m, &m->stances[i], (double)m->slides[i]));
        cJSON_AddNumberToObject(o, "count", cJSON_GetArraySize(list));
        cJSON_AddItemToObject(o, "contacts", list);
        cJSON_AddItemToObject(points, keys[p], o);
    }
    cJSON_AddItemToObject(root, "points", points);
    cJSON_AddItemToObject(root, "in_place", ikc_motion_in_place_json(m));
    return ikc_json_print(root) ? IKC_EXIT_OK : IKC_EXIT_FAILURE;
}

static void print_table(const ikc_motion *m, const char *path) {
    int i, p;
    printf("%s, clip '%s': %d frames at %g s, leg length %.4g (up %.3g %.3g %.3g)\n", ikc_shown(path),
           ikc_shown(m->clip_name), m->take.frame_count, (double)m->take.frame_time, (double)m->leg_length,
           (double)m->up_ms.x, (double)m->up_ms.y, (double)m->up_ms.z);
    for (p = 0; p < IK_FOOT_CONTACT_POINTS; ++p)
        if (m->present[p])
            printf("  %-10s %-16s %3d contacts\n", ik_foot_point_name(p), m->point_label[p],
                   ikc_motion_point_contacts(m, p) + ikc_motion_point_stances(m, p));
    printf("\n  %-10s %13s %17s  %s\n", "point", "frames", "seconds", "planted at");
    for (i = 0; i < m->contact_count; ++i) {
        const ik_foot_contact *c = &m->contacts[i];
        printf("  %-10s %6d-%-6d %8.3f-%-8.3f (%.4g, %.4g, %.4g)\n", ik_foot_point_name(c->point), c->start, c->end,
               (double)(c->start * m->take.frame_time), (double)(c->end * m->take.frame_time), (double)c->planted_ms.x,
               (double)c->planted_ms.y, (double)c->planted_ms.z);
    }
    /* a stance's planted position is in the frame moving with the slide */
    for (i = 0; i < m->stance_count; ++i) {
        const ik_foot_contact *c = &m->stances[i];
        printf("  %-10s %6d-%-6d %8.3f-%-8.3f (%.4g, %.4g, %.4g) in place, slid %.4g\n", ik_foot_point_name(c->point),
               c->start, c->end, (double)(c->start * m->take.frame_time), (double)(c->end * m->take.frame_time),
               (double)c->planted_ms.x, (double)c->planted_ms.y, (double)c->planted_ms.z, (double)m->slides[i]);
    }
    if (m->cycle.in_place) {
        printf("\n");
        ikc_motion_print_in_place(m, stdout);
    }
}

/* The picture: per foot a row of heights and a row of speeds (in leg
 * lengths and leg lengths per second, so every take reads the same), heel
 * contacts shaded in the top half of each row, toe contacts in the bottom. */
static int draw_picture(const ikc_motion *m, const char *path, const char *out) {
    ik_foot_contacts def = ik_foot_contacts_def();
    int frames = m->take.frame_count, leg, p, i, f, code = IKC_EXIT_OK;
    double *values = (double *)calloc((size_t)frames * IK_FOOT_CONTACT_POINTS * 2, sizeof(double));
    int listed = m->contact_count + m->stance_count;
    ikc_chart_band *bands = (ikc_chart_band *)calloc((size_t)listed + 1, sizeof(ikc_chart_band));
    ikc_chart_line lines[8];
    ikc_chart_row rows[4];
    double height_levels[2] = {(double)def.height_enter, (double)def.height_exit};
    double speed_levels[2] = {(double)def.speed_enter, (double)def.speed_exit};
    int band_start[2] = {0, 0}, band_count[2] = {0, 0};
    char title[300], error[400];
    ikc_chart chart;
    if (!values || !bands) {
        free(values);
        free(bands);
        fprintf(stderr, "ikc contacts: out of memory\n");
        return IKC_EXIT_FAILURE;
    }
    for (p = 0; p < IK_FOOT_CONTACT_POINTS; ++p)
        for (f = 0; f < frames; ++f) {
            size_t at = (size_t)f * IK_FOOT_CONTACT_POINTS + (size_t)p;
            int ok = m->present[p];
            values[(size_t)(2 * p) * frames + f] = ok ? (double)(m->heights[at] / m->leg_length) : NAN;
            values[(size_t)(2 * p + 1) * frames + f] = ok ? (double)(m->speeds[at] / m->leg_length) : NAN;
        }
    /* bands grouped by leg: left first, then right */
    for (leg = 0, i = 0; leg < 2; ++leg) {
        int k;
        band_start[leg] = i;
        for (k = 0; k < listed; ++k) {
            const ik_foot_contact *c = k < m->contact_count ? &m->contacts[k] : &m->stances[k - m->contact_count];
            if (ik_foot_point_leg(c->point) != (leg ? IK_LIMB_LEG_R : IK_LIMB_LEG_L)) continue;
            bands[i].first = c->start, bands[i].last = c->end;
            bands[i].bottom = ik_foot_point_is_toe(c->point) ? 0 : 0.5;
            bands[i].top = ik_foot_point_is_toe(c->point) ? 0.5 : 1;
            bands[i].color = ik_foot_point_is_toe(c->point) ? COLOR_TOE : COLOR_HEEL;
            ++i;
        }
        band_count[leg] = i - band_start[leg];
    }
    for (leg = 0; leg < 2; ++leg) {
        int heel = 2 * leg, toe = 2 * leg + 1, kind;
        for (kind = 0; kind < 2; ++kind) {
            ikc_chart_row *row = &rows[2 * leg + kind];
            ikc_chart_line *l = &lines[4 * leg + 2 * kind];
            l[0].name = "heel", l[0].color = COLOR_HEEL, l[0].values = values + (size_t)(2 * heel + kind) * frames;
            l[1].name = "toe", l[1].color = COLOR_TOE, l[1].values = values + (size_t)(2 * toe + kind) * frames;
            row->title =
                leg == 0
                    ? (kind ? "left foot: speed (leg lengths / s)" : "left foot: height above floor (leg lengths)")
                    : (kind ? "right foot: speed (leg lengths / s)" : "right foot: height above floor (leg lengths)");
            row->lines = l, row->line_count = m->joints[toe] >= 0 ? 2 : 1;
            row->bands = bands + band_start[leg], row->band_count = band_count[leg];
            row->levels = kind ? speed_levels : height_levels, row->level_count = 2;
            row->low = kind ? 0 : -0.02;
            row->high = kind ? 4 * (double)def.speed_exit : 6 * (double)def.height_exit;
        }
    }
    snprintf(title, sizeof title, "foot contacts: %s, clip '%s' (%d heel and %d toe contacts left, %d and %d right%s)",
             ikc_shown(path), ikc_shown(m->clip_name),
             ikc_motion_point_contacts(m, IK_FOOT_HEEL_L) + ikc_motion_point_stances(m, IK_FOOT_HEEL_L),
             ikc_motion_point_contacts(m, IK_FOOT_TOE_L) + ikc_motion_point_stances(m, IK_FOOT_TOE_L),
             ikc_motion_point_contacts(m, IK_FOOT_HEEL_R) + ikc_motion_point_stances(m, IK_FOOT_HEEL_R),
             ikc_motion_point_contacts(m, IK_FOOT_TOE_R) + ikc_motion_point_stances(m, IK_FOOT_TOE_R),
             m->cycle.in_place ? "; in place: stances sliding" : "");
    chart.title = title, chart.rows = rows, chart.row_count = 4, chart.count = frames;
    chart.step = (double)m->take.frame_time, chart.width = 1400, chart.height = 900;
    if (!ikc_chart_draw_file(&chart, out, error, sizeof error)) {
        fprintf(stderr, "ikc contacts: %s\n", error);
        code = IKC_EXIT_WRITE;
    }
    free(values);
    free(bands);
    return code;
}

int ikc_contacts(int argc, char **argv) {
    const char *path = NULL, *clip = NULL, *map = NULL, *out = NULL;
    int json = 0, i, code, p;
    ikc_motion m;
    for (i = 0; i < argc; ++i) {
        if (ikc_is_help(argv[i])) {
            usage(stdout);
            return IKC_EXIT_OK;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[i], "--clip") == 0) {
            if (!(clip = ikc_option_value("contacts", argc, argv, &i))) return IKC_EXIT_USAGE;
        } else if (strcmp(argv[i], "--map") == 0) {
            if (!(map = ikc_option_value("contacts", argc, argv, &i))) return IKC_EXIT_USAGE;
        } else if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0) {
            if (!(out = ikc_option_value("contacts", argc, argv, &i))) return IKC_EXIT_USAGE;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "ikc contacts: unknown option '%s'\n", ikc_shown(argv[i]));
            usage(stderr);
            return IKC_EXIT_USAGE;
        } else if (!path) {
            path = argv[i];
        } else {
            fprintf(stderr, "ikc contacts: one TAKE only ('%s' is extra)\n", ikc_shown(argv[i]));
            return IKC_EXIT_USAGE;
        }
    }
    if (!path) {
        usage(stderr);
        return IKC_EXIT_USAGE;
    }
    code = ikc_motion_load("contacts", path, clip, map, &m);
    if (code == IKC_EXIT_OK) {
        for (p = 0; p < IK_FOOT_CONTACT_POINTS; ++p)
            if (m.joints[p] >= 0 && ikc_motion_point_contacts(&m, p) + ikc_motion_point_stances(&m, p) == 0)
                fprintf(stderr, "ikc contacts: warning: the %s (%s) is never on the ground\n", ik_foot_point_name(p),
                        ikc_shown(ik_skeleton_name(m.asset.skeleton, m.joints[p])));
        if (out) code = draw_picture(&m, path, out);
        if (code == IKC_EXIT_OK) {
            if (json)
                code = print_json(&m, path);
            else
                print_table(&m, path);
        }
    }
    ikc_motion_free(&m);
    return code;
}
