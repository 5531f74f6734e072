/* libFuzzer entry point for the target-track reader (src/io/
 * target_track_file.c): any bytes give IK_OK or a reader's error code with
 * a message, never a crash, a hang or unbounded memory; what loads has at
 * least one track, every track at least one key with finite, non-negative,
 * non-decreasing times and finite points, and samples finitely before,
 * between and after its keys; what fails holds nothing. */
#include <ikit/target_track_file.h>

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_loaded(const ik_target_track_file *f) {
    int t, k;
    if (f->count < 1 || f->count > 8 || !f->tracks) abort();
    for (t = 0; t < f->count; ++t) {
        const ik_target_track *track = &f->tracks[t];
        if (track->key_count < 1 || !track->keys) abort();
        for (k = 0; k < track->key_count; ++k) {
            if (!(track->keys[k].time >= 0) || !ik_finite(track->keys[k].time) ||
                !ik_vec3_finite(track->keys[k].point_ms))
                abort();
            if (k > 0 && track->keys[k].time < track->keys[k - 1].time) abort();
            if (!ik_vec3_finite(ik_target_track_at(track, track->keys[k].time * (ik_real)1.5 + (ik_real)0.1))) abort();
        }
        if (!ik_vec3_finite(ik_target_track_at(track, -1))) abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ik_target_track_file f;
    ik_error err;
    ik_result r = ik_target_track_file_read_memory((const char *)data, size, 8, 4096, &f, &err);
    if (r == IK_OK) {
        check_loaded(&f);
        ik_target_track_file_free(&f);
    } else if (r != IK_ERR_PARSE && r != IK_ERR_NONFINITE && r != IK_ERR_RANGE && r != IK_ERR_NO_MEMORY) {
        abort();
    } else if (f.tracks || f.storage || !err.message[0]) {
        abort(); /* a failed read frees what it had and says why */
    }
    return 0;
}
