/* Target tracks (target_track_file.h): a file's lines gathered into one
 * track per joint in first-appearance order, keys in file order; sampling
 * is linear between keys and holds before the first and after the last;
 * bad lines are refused at their line and column. */
#include <ikit/target_track_file.h>

#include <math.h>
#include <string.h>

#include "support/check.h"

static ik_result read_text(const char *text, int max_tracks, int max_keys, ik_target_track_file *out, ik_error *error) {
    return ik_target_track_file_read_memory(text, strlen(text), max_tracks, max_keys, out, error);
}

static int near(ik_vec3 a, ik_vec3 b) { return ik_vec3_distance(a, b) < 1e-5; }

static void test_tracks(void) {
    static const char text[] =
        "# two joints\n"
        "0 LeftAnkle 2 -15 10\n"
        "\n"
        "1.5\tLeftAnkle 4 -12 8   # a comment\n"
        "0.5 RightWrist 10 20 5\r\n"
        "3 RightWrist 8 18 6\n"
        "3 LeftAnkle 3 -14 9";
    ik_target_track_file f;
    ik_error error;
    const ik_target_track *ankle, *wrist;
    CHECK(read_text(text, 4, 10, &f, &error) == IK_OK, "read: %s", error.message);
    CHECK(f.count == 2, "two tracks, not %d", f.count);
    ankle = &f.tracks[0];
    wrist = &f.tracks[1];
    CHECK(strcmp(ankle->joint_name, "LeftAnkle") == 0 && strcmp(wrist->joint_name, "RightWrist") == 0,
          "tracks in first-appearance order");
    CHECK(ankle->key_count == 3 && wrist->key_count == 2, "keys per track");
    CHECK(ankle->keys[1].time == (ik_real)1.5 && near(ankle->keys[1].point_ms, ik_v3(4, -12, 8)), "a key as written");
    /* linear between keys: halfway from (2, -15, 10) at 0 to (4, -12, 8) at 1.5 */
    CHECK(near(ik_target_track_at(ankle, (ik_real)0.75), ik_v3(3, (ik_real)-13.5, 9)), "halfway");
    CHECK(near(ik_target_track_at(ankle, (ik_real)2.25), ik_v3((ik_real)3.5, -13, (ik_real)8.5)), "second half");
    CHECK(near(ik_target_track_at(wrist, 0), ik_v3(10, 20, 5)), "held before the first key");
    CHECK(near(ik_target_track_at(wrist, 10), ik_v3(8, 18, 6)), "held after the last key");
    CHECK(near(ik_target_track_at(ankle, (ik_real)NAN), ik_v3(2, -15, 10)), "a NaN time gives the first key");
    ik_target_track_file_free(&f);
    CHECK(f.tracks == NULL && f.count == 0, "freed");
    /* two keys at one time: the later one from then on */
    CHECK(read_text("0 a 0 0 0\n1 a 1 0 0\n1 a 5 0 0\n", 1, 10, &f, NULL) == IK_OK, "keys at one time");
    CHECK(near(ik_target_track_at(&f.tracks[0], 1), ik_v3(5, 0, 0)), "the later key at its time");
    ik_target_track_file_free(&f);
}

/* `text` is refused with `expected` at `line`, `column`, the message holding `words`. */
static void refused(const char *text, int max_tracks, int max_keys, ik_result expected, long line, long column,
                    const char *words) {
    ik_target_track_file f;
    ik_error error;
    ik_result r = read_text(text, max_tracks, max_keys, &f, &error);
    CHECK(r == expected && error.line == line && error.column == column && strstr(error.message, words) &&
              f.tracks == NULL && f.storage == NULL,
          "'%s': %s (%d), line %ld column %ld", text, error.message, (int)r, error.line, error.column);
}

static void test_bad_input(void) {
    ik_target_track_file f;
    ik_error error;
    refused("0 a 1 2\n", 4, 10, IK_ERR_PARSE, 1, 1, "TIME JOINT x y z");
    refused("0 a 1 2 3 4\n", 4, 10, IK_ERR_PARSE, 1, 1, "TIME JOINT x y z");
    refused("0\n", 4, 10, IK_ERR_PARSE, 1, 2, "TIME JOINT x y z");
    refused("0 a 1 nan 3\n", 4, 10, IK_ERR_NONFINITE, 1, 7, "not a number");
    refused("0 a 1 1e999 3\n", 4, 10, IK_ERR_NONFINITE, 1, 7, "not a number");
    refused("0 a 1 x 3\n", 4, 10, IK_ERR_PARSE, 1, 7, "not a number");
    refused("inf a 1 2 3\n", 4, 10, IK_ERR_NONFINITE, 1, 1, "time");
    refused("# c\n-1 a 1 2 3\n", 4, 10, IK_ERR_RANGE, 2, 1, "below 0");
    refused("0 a 1 2 3\n2 a 1 2 3\n1 a 1 2 3\n", 4, 10, IK_ERR_PARSE, 3, 1, "a's times go back (1 after 2)");
    refused("0 a 1 2 3\n0 b 1 2 3\n", 1, 10, IK_ERR_RANGE, 2, 3, "more than 1 joints");
    refused("0 a 1 2 3\n1 a 1 2 3\n", 4, 1, IK_ERR_RANGE, 2, 1, "more than 1 lines");
    refused("# nothing\n\n", 4, 10, IK_ERR_PARSE, 3, 1, "no target lines");
    refused(
        "0 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
        "aaaaaaaaaaaaaaaaaaaaa 1 2 3\n",
        4, 10, IK_ERR_PARSE, 1, 3, "128 bytes");
    CHECK(ik_target_track_file_read_memory(NULL, 4, 4, 10, &f, &error) == IK_ERR_NULL, "NULL data");
    CHECK(ik_target_track_file_read_memory("0 a 1 2 3", 9, 0, 10, &f, &error) == IK_ERR_RANGE, "no tracks allowed");
    CHECK(ik_target_track_file_read_file("/nonexistent/tracks.txt", 4, 10, &f, &error) == IK_ERR_IO &&
              strstr(error.message, "/nonexistent/tracks.txt"),
          "a missing file: %s", error.message);
    CHECK(ik_target_track_file_read_file("/", 4, 10, &f, &error) == IK_ERR_IO, "a directory");
}

int main(void) {
    test_tracks();
    test_bad_input();
    return check_summary("target_track_file");
}
