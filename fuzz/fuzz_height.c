/* libFuzzer entry point for the height-field reader (src/io/
 * height_field_file.c): any bytes give IK_OK or a reader's error code with
 * a message, never a crash, a hang or unbounded memory; what loads has a
 * positive cell, a size within 1..1024 each way and finite heights, and the
 * ground made of it answers finitely inside, on and beyond the grid; what
 * fails holds nothing. */
#include <ikit/ground.h>
#include <ikit/height_field_file.h>

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_loaded(const ik_height_field_file *f) {
    static const ik_real probes[5] = {-1e6f, -0.5f, 0, 0.37f, 1e6f};
    ik_ground g;
    size_t i, n;
    int a, b;
    if (!(f->cell > 0) || f->count_x < 1 || f->count_z < 1 || f->count_x > IK_HEIGHT_FIELD_MAX_SIZE ||
        f->count_z > IK_HEIGHT_FIELD_MAX_SIZE || !f->heights)
        abort();
    n = (size_t)f->count_x * (size_t)f->count_z;
    for (i = 0; i < n; ++i)
        if (!ik_finite(f->heights[i])) abort();
    g = ik_ground_height_field(f->origin_ms, f->cell, f->count_x, f->count_z, f->heights);
    for (a = 0; a < 5; ++a)
        for (b = 0; b < 5; ++b) {
            ik_real x = f->origin_ms.x + probes[a] * f->cell * (ik_real)f->count_x;
            ik_real z = f->origin_ms.z + probes[b] * f->cell * (ik_real)f->count_z;
            ik_real h = 0;
            ik_vec3 normal;
            if (ik_finite(x) && ik_finite(z) && ik_ground_height_at(&g, x, z, &h, &normal) &&
                !(ik_finite(h) && ik_vec3_finite(normal)))
                abort();
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ik_height_field_file field;
    ik_error err;
    ik_result r = ik_height_field_file_read_memory((const char *)data, size, &field, &err);
    if (r == IK_OK) {
        check_loaded(&field);
        ik_height_field_file_free(&field);
    } else if (r != IK_ERR_PARSE && r != IK_ERR_NONFINITE && r != IK_ERR_RANGE && r != IK_ERR_NO_MEMORY) {
        abort();
    } else if (field.heights || !err.message[0]) {
        abort(); /* a failed read frees what it had and says why */
    }
    return 0;
}
