/* libFuzzer entry point for ikc's height-field reader (tools/ikc/
 * height_field.c): any bytes give IKC_EXIT_OK or IKC_EXIT_FORMAT with a
 * located message, never a crash, a hang or unbounded memory; what loads
 * has a positive cell, a size within 1..1024 each way and finite heights,
 * and the ground made of it answers finitely inside, on and beyond the
 * grid. Run with -close_fd_mask=2: every rejected input prints its
 * message. */
#include <ikit/ground.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../tools/ikc/height_field.h"
#include "../tools/ikc/ikc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_loaded(const ikc_height_field *f) {
    static const ik_real probes[5] = {-1e6f, -0.5f, 0, 0.37f, 1e6f};
    ik_ground g;
    size_t i, n;
    int a, b;
    if (!(f->cell > 0) || f->count_x < 1 || f->count_z < 1 || f->count_x > IKC_HEIGHT_FIELD_MAX_SIZE ||
        f->count_z > IKC_HEIGHT_FIELD_MAX_SIZE || !f->heights)
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
    ikc_height_field field;
    char *text = (char *)malloc(size + 1);
    int code;
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    code = ikc_height_field_parse("fuzz", "input", text, &field);
    if (code == IKC_EXIT_OK) {
        check_loaded(&field);
        ikc_height_field_free(&field);
    } else if (code != IKC_EXIT_FORMAT && code != IKC_EXIT_FAILURE) {
        abort();
    } else if (field.heights) {
        abort(); /* a failed read frees what it had */
    }
    free(text);
    return 0;
}
