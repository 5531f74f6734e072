/* `ikc render` as a user waits for it (issue 17): the wall time of whole
 * runs (process start, reading, skinning, projecting, sorting, filling,
 * PNG encoding) of one frame at 1000x800 and of a 60-frame filmstrip, for
 * robot.glb (3,238 triangles) and for a generated skinned tube of 10,100
 * triangles (no real rig of 10,000 is in the corpus). Medians over
 * repeats; bench_render.csv. */
#include "bench_ikc_run.h"

#include <math.h>

#define RUNS 9
#define RINGS 102
#define SEGMENTS 50
#define VERTICES (RINGS * SEGMENTS)
#define TRIANGLES (2 * SEGMENTS * (RINGS - 1))

static void base64_write(FILE *f, const unsigned char *data, size_t size) {
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t i;
    for (i = 0; i < size; i += 3) {
        unsigned long g = (unsigned long)data[i] << 16 | (i + 1 < size ? (unsigned long)data[i + 1] << 8 : 0) |
                          (i + 2 < size ? data[i + 2] : 0);
        fputc(digits[(g >> 18) & 63], f);
        fputc(digits[(g >> 12) & 63], f);
        fputc(i + 1 < size ? digits[(g >> 6) & 63] : '=', f);
        fputc(i + 2 < size ? digits[g & 63] : '=', f);
    }
}

/* A tube of radius 0.2 and height 1.4 round three joints up the y axis
 * (0, 0.7, 1.4), each ring weighted between its two nearest joints, and a
 * one-second clip bending the middle joint 60 degrees about z. Outward
 * faces counter-clockwise. Returns 0 when it cannot be written. */
static int write_tube(const char *path) {
    static float positions[VERTICES * 3], weights[VERTICES * 4];
    static unsigned short joints[VERTICES * 4];
    static unsigned indices[TRIANGLES * 3];
    static float ibm[3 * 16], times[2] = {0, 1}, turns[8];
    static unsigned char buffer[sizeof positions + sizeof joints + sizeof weights + sizeof indices + sizeof ibm +
                                sizeof times + sizeof turns];
    size_t offsets[8] = {0}, k = 0;
    int i, j, n = 0;
    FILE *f;
    for (i = 0; i < RINGS; ++i)
        for (j = 0; j < SEGMENTS; ++j, ++n) {
            double a = 6.283185307179586 * j / SEGMENTS, y = 1.4 * i / (RINGS - 1), s = y / 0.7;
            int low = s >= 1 ? 1 : 0;
            positions[n * 3] = (float)(0.2 * cos(a));
            positions[n * 3 + 1] = (float)y;
            positions[n * 3 + 2] = (float)(0.2 * sin(a));
            joints[n * 4] = (unsigned short)low;
            joints[n * 4 + 1] = (unsigned short)(low + 1);
            weights[n * 4] = (float)(1 - (s - low));
            weights[n * 4 + 1] = (float)(s - low);
        }
    for (i = 0, n = 0; i + 1 < RINGS; ++i)
        for (j = 0; j < SEGMENTS; ++j) {
            unsigned a = (unsigned)(i * SEGMENTS + j), b = (unsigned)(i * SEGMENTS + (j + 1) % SEGMENTS);
            unsigned c = a + SEGMENTS, d = b + SEGMENTS;
            indices[n++] = a, indices[n++] = c, indices[n++] = b;
            indices[n++] = b, indices[n++] = c, indices[n++] = d;
        }
    for (j = 0; j < 3; ++j) {
        ibm[j * 16] = ibm[j * 16 + 5] = ibm[j * 16 + 10] = ibm[j * 16 + 15] = 1;
        ibm[j * 16 + 13] = (float)(-0.7 * j);
    }
    turns[3] = 1;
    turns[6] = (float)sin(0.5235987755982988);
    turns[7] = (float)cos(0.5235987755982988);
    {
        const void *parts[7] = {positions, joints, weights, indices, ibm, times, turns};
        size_t sizes[7] = {sizeof positions, sizeof joints, sizeof weights, sizeof indices,
                           sizeof ibm,       sizeof times,  sizeof turns};
        for (k = 0; k < 7; ++k) {
            memcpy(buffer + offsets[k], parts[k], sizes[k]);
            offsets[k + 1] = offsets[k] + sizes[k];
        }
    }
    f = fopen(path, "w");
    if (!f) return 0;
    fprintf(f,
            "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0,1]}],"
            "\"nodes\":[{\"mesh\":0,\"skin\":0},{\"name\":\"base\",\"children\":[2]},"
            "{\"name\":\"middle\",\"translation\":[0,0.7,0],\"children\":[3]},"
            "{\"name\":\"top\",\"translation\":[0,0.7,0]}],"
            "\"skins\":[{\"joints\":[1,2,3],\"inverseBindMatrices\":4}],"
            "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.3,0.5,0.8,1]}}],"
            "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":1,\"WEIGHTS_0\":2},"
            "\"indices\":3,\"material\":0}]}],"
            "\"animations\":[{\"name\":\"bend\",\"samplers\":[{\"input\":5,\"output\":6}],"
            "\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,\"path\":\"rotation\"}}]}],"
            "\"accessors\":["
            "{\"bufferView\":0,\"componentType\":5126,\"count\":%d,\"type\":\"VEC3\",\"min\":[-0.2,0,-0.2],"
            "\"max\":[0.2,1.4,0.2]},"
            "{\"bufferView\":1,\"componentType\":5123,\"count\":%d,\"type\":\"VEC4\"},"
            "{\"bufferView\":2,\"componentType\":5126,\"count\":%d,\"type\":\"VEC4\"},"
            "{\"bufferView\":3,\"componentType\":5125,\"count\":%d,\"type\":\"SCALAR\"},"
            "{\"bufferView\":4,\"componentType\":5126,\"count\":3,\"type\":\"MAT4\"},"
            "{\"bufferView\":5,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],\"max\":[1]},"
            "{\"bufferView\":6,\"componentType\":5126,\"count\":2,\"type\":\"VEC4\"}],"
            "\"bufferViews\":[",
            VERTICES, VERTICES, VERTICES, TRIANGLES * 3);
    for (k = 0; k < 7; ++k)
        fprintf(f, "%s{\"buffer\":0,\"byteOffset\":%lu,\"byteLength\":%lu}", k ? "," : "", (unsigned long)offsets[k],
                (unsigned long)(offsets[k + 1] - offsets[k]));
    fprintf(f, "],\"buffers\":[{\"byteLength\":%lu,\"uri\":\"data:application/octet-stream;base64,",
            (unsigned long)offsets[7]);
    base64_write(f, buffer, offsets[7]);
    fprintf(f, "\"}]}\n");
    return fclose(f) == 0;
}

/* Median wall time of `ikc render path ...extra -o out.png`, or negative. */
static double median_render(const char *path, const char *clip, const char *frames) {
    char *argv[16];
    double runs[RUNS];
    int i, a = 0;
    argv[a++] = (char *)"ikc";
    argv[a++] = (char *)"render";
    argv[a++] = (char *)path;
    if (clip) {
        argv[a++] = (char *)"--clip";
        argv[a++] = (char *)clip;
        argv[a++] = (char *)"--frames";
        argv[a++] = (char *)frames;
    } else {
        argv[a++] = (char *)"--size";
        argv[a++] = (char *)"1000x800";
    }
    argv[a++] = (char *)"-q";
    argv[a++] = (char *)"-o";
    argv[a++] = (char *)"bench_render.png";
    argv[a] = NULL;
    for (i = 0; i < RUNS; ++i)
        if ((runs[i] = bench_time_ikc_run(argv)) < 0) return -1;
    return bench_median(runs, RUNS);
}

int main(void) {
    char robot[1024];
    const char *tube = "bench_render_tube.gltf";
    struct {
        const char *name, *path, *clip, *frames;
    } cases[4];
    FILE *csv = fopen("bench_render.csv", "w");
    int c;
    bench_data_path(robot, sizeof robot, "gltf", "robot.glb");
    if (!write_tube(tube)) {
        printf("skipped: cannot write %s\n", tube);
        return 0;
    }
    cases[0].name = "tube 10100 tris, 1 frame 1000x800", cases[0].path = tube, cases[0].clip = NULL;
    cases[1].name = "tube 10100 tris, 60-frame filmstrip", cases[1].path = tube, cases[1].clip = "bend";
    cases[1].frames = "0:0.9833:0.016667";
    cases[2].name = "robot.glb 3238 tris, 1 frame 1000x800", cases[2].path = robot, cases[2].clip = NULL;
    cases[3].name = "robot.glb, 60-frame filmstrip", cases[3].path = robot, cases[3].clip = "Robot_Dance";
    cases[3].frames = "0:2.95:0.05";
    if (csv) fprintf(csv, "case,runs,median_ms\n");
    for (c = 0; c < 4; ++c) {
        double s = median_render(cases[c].path, cases[c].clip, cases[c].frames);
        if (s < 0) {
            printf("skipped: %s (ikc at %s, real-asset corpus present?)\n", cases[c].name, IKC_PATH);
            continue;
        }
        printf("ikc render %-40s whole run, wall clock: median %.1f ms over %d runs\n", cases[c].name, s * 1e3, RUNS);
        if (csv) fprintf(csv, "%s,%d,%.3f\n", cases[c].name, RUNS, s * 1e3);
    }
    if (csv) fclose(csv);
    return 0;
}
