/* The height-field file: a grid read back sample by sample (and through the
 * ground it makes), the origin, comments, text not NUL-terminated, and each
 * malformed input refused with its code and the line and column at fault. */
#define _POSIX_C_SOURCE 200809L
#include <ikit/ground.h>
#include <ikit/height_field_file.h>

#include <stdio.h>
#include <string.h>

#include "support/check.h"

#ifdef IKIT_DOUBLE
#define TOL 1e-9
#else
#define TOL 1e-5
#endif

static ik_result parse(const char *text, ik_height_field_file *field, ik_error *error) {
    return ik_height_field_file_read_memory(text, strlen(text), field, error);
}

/* Sample (ix, iz) comes back at x = origin.x + ix * cell, z = origin.z +
 * iz * cell with height origin.y + the file's number, also through
 * ik_ground_height_at. */
static void test_grid(void) {
    static const char text[] =
        "# bumps\ncell 0.5   # spacing\nsize 3 2\norigin -1 0.25 2\n\nheights\n"
        "0 0.1 0.2  # row 0\n0.3 -0.4 0.5\n";
    ik_height_field_file f;
    ik_error err;
    ik_result r = parse(text, &f, &err);
    int ix, iz, bad = 0;
    CHECK(r == IK_OK, "grid: %s", err.message);
    if (r != IK_OK) return;
    CHECK(f.cell == (ik_real)0.5 && f.count_x == 3 && f.count_z == 2 && f.has_origin, "header");
    CHECK(ik_vec3_distance(f.origin_ms, ik_v3(-1, 0.25f, 2)) < TOL, "origin");
    {
        static const ik_real want[6] = {0, (ik_real)0.1, (ik_real)0.2, (ik_real)0.3, (ik_real)-0.4, (ik_real)0.5};
        ik_ground g = ik_ground_height_field(f.origin_ms, f.cell, f.count_x, f.count_z, f.heights);
        for (iz = 0; iz < 2; ++iz)
            for (ix = 0; ix < 3; ++ix) {
                ik_real h = 0;
                ik_vec3 normal;
                bad += IK_FABS(f.heights[iz * 3 + ix] - want[iz * 3 + ix]) > TOL;
                bad += !ik_ground_height_at(&g, -1 + (ik_real)ix * 0.5f, 2 + (ik_real)iz * 0.5f, &h, &normal) ||
                       IK_FABS(h - (0.25f + want[iz * 3 + ix])) > 1e-4f;
            }
    }
    CHECK(bad == 0, "%d samples wrong", bad);
    ik_height_field_file_free(&f);
    CHECK(f.heights == NULL, "freed");
    /* no origin; the text cut short before a trailing row that is not part of it */
    r = ik_height_field_file_read_memory("cell 1\nsize 1 1\nheights\n7\nGARBAGE", 26, &f, &err);
    CHECK(r == IK_OK && !f.has_origin && f.heights[0] == 7, "cut text: %s", err.message);
    ik_height_field_file_free(&f);
}

static void test_errors(void) {
    static const struct {
        const char *text;
        ik_result code;
        long line, column;
        const char *words;
    } cases[] = {
        {"cell 0\nsize 3 2\nheights\n0 0 0\n0 0 0\n", IK_ERR_RANGE, 1, 1, "cell wants"},
        {"cell 0.1\nsize 3 2\nheights\n0 0 0\n0 0\n", IK_ERR_PARSE, 5, 1, "2 heights"},
        {"cell 0.1\nsize 3 2\nheights\n0 0 0\n", IK_ERR_PARSE, 5, 1, "1 rows of heights"},
        {"cell 0.1\nsize 1 1\nheights\n0\n0\n", IK_ERR_PARSE, 5, 1, "more than the 1 rows"},
        {"cell 0.1\nsize 2 1\nheights\n0 1e999\n", IK_ERR_NONFINITE, 4, 3, "finite"},
        {"cell 0.1\nsize 2 1\nheights\n0 x\n", IK_ERR_PARSE, 4, 3, "not a number"},
        {"cell 0.1\nsize 1025 1\n", IK_ERR_RANGE, 2, 1, "1..1024"},
        {"cell 0.1\nsize 2.5 1\n", IK_ERR_RANGE, 2, 1, "whole"},
        {"cell 0.1\n  origin 1 2\n", IK_ERR_PARSE, 2, 3, "three numbers"},
        {"heights\n", IK_ERR_PARSE, 1, 1, "before 'heights'"},
        {"cell 0.1\nsize 1 1\nheights 3\n", IK_ERR_PARSE, 3, 1, "stands alone"},
        {"cell 0.1\nsize 1 1\nground 3\n", IK_ERR_PARSE, 3, 1, "want 'cell'"},
        {"cell nan\n", IK_ERR_NONFINITE, 1, 6, "finite"},
        {"# nothing\n", IK_ERR_PARSE, 2, 1, "no 'size'"},
        {"", IK_ERR_PARSE, 1, 1, "no 'size'"},
    };
    int i;
    for (i = 0; i < (int)(sizeof cases / sizeof cases[0]); ++i) {
        ik_height_field_file f;
        ik_error err;
        ik_result r = parse(cases[i].text, &f, &err);
        CHECK(r == cases[i].code && err.line == cases[i].line && err.column == cases[i].column &&
                  strstr(err.message, cases[i].words) && f.heights == NULL,
              "case %d: %s at %ld:%ld: %s", i, ik_result_str(r), err.line, err.column, err.message);
    }
    CHECK(ik_height_field_file_read_memory(NULL, 1, NULL, NULL) == IK_ERR_NULL, "NULL field");
    {
        ik_height_field_file f;
        ik_error err;
        ik_result r = ik_height_field_file_read_file("/nonexistent-dir/field.txt", &f, &err);
        CHECK(r == IK_ERR_IO && strstr(err.message, "cannot open") && f.heights == NULL, "missing: %s", err.message);
    }
}

int main(void) {
    test_grid();
    test_errors();
    return check_summary("test_height_field_file");
}
