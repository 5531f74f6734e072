/* Writing a loaded character back in its own format, atomically: the
 * whole glTF document with its buffer files, a BVH take, or a take of poses
 * (take.h) as a new or replaced clip. Shared by the commands that write. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset.h"
#include "ikc.h"

int ikc_write_gltf(const char *command, const ik_asset *asset, const char *out, int overwrite) {
    const char *slash = strrchr(asset->path, '/');
    size_t dir = slash ? (size_t)(slash - asset->path + 1) : 0;
    int buffers = ik_gltf_buffer_count(asset->gltf), input_count = 0, count = 0, code = IKC_EXIT_FAILURE, i;
    const char **inputs = (const char **)calloc((size_t)buffers + 1, sizeof *inputs);
    char **joined = (char **)calloc((size_t)buffers + 1, sizeof *joined);
    ik_gltf_output_file *files = NULL;
    ikc_output *list = NULL;
    ik_error err;
    ik_result r;
    if (!inputs || !joined) goto done;
    inputs[input_count++] = asset->path;
    for (i = 0; i < buffers; ++i) {
        const char *name = ik_gltf_buffer_file(asset->gltf, i);
        if (!name) continue;
        if (!(joined[i] = (char *)malloc(dir + strlen(name) + 1))) goto done;
        memcpy(joined[i], asset->path, dir);
        strcpy(joined[i] + dir, name);
        inputs[input_count++] = joined[i];
    }
    r = ik_gltf_output_files(asset->gltf, out, &files, &count, &err);
    if (r != IK_OK) {
        fprintf(stderr, "ikc %s: cannot write '%s': %s\n", command, out,
                err.message[0] ? err.message : ik_result_str(r));
        code = IKC_EXIT_WRITE;
        goto done;
    }
    if (!(list = (ikc_output *)malloc((size_t)count * sizeof *list))) goto done;
    for (i = 0; i < count; ++i) {
        list[i].path = files[i].path;
        list[i].data = files[i].data;
        list[i].size = files[i].size;
    }
    code = ikc_write_outputs(command, list, count, inputs, input_count, overwrite);
done:
    if (code == IKC_EXIT_FAILURE) fprintf(stderr, "ikc %s: out of memory\n", command);
    for (i = 0; joined && i < buffers; ++i) free(joined[i]);
    free(joined);
    free(inputs);
    free(list);
    ik_gltf_output_files_free(files, count);
    return code;
}

int ikc_write_bvh(const char *command, const ik_asset *asset, const ik_bvh *take, const char *out, int overwrite) {
    char *text = NULL;
    size_t size = 0;
    ik_error err;
    ik_result r;
    ikc_output file;
    int code;
    ik_error_clear(&err);
    r = ik_bvh_write_memory(take, &text, &size, &err);
    if (r != IK_OK) {
        fprintf(stderr, "ikc %s: cannot write '%s': %s\n", command, out,
                err.message[0] ? err.message : ik_result_str(r));
        return IKC_EXIT_WRITE;
    }
    file.path = out;
    file.data = text;
    file.size = size;
    code = ikc_write_outputs(command, &file, 1, &asset->path, 1, overwrite);
    ik_bvh_text_free(text);
    return code;
}

/* A BVH of the input's hierarchy holding `take`: frame f's channel values
 * from its pose (ik_bvh_frame_from_pose), with the input's frame nearest in
 * time (or zeros) for the channels a pose cannot set; the take's frame time. */
static int write_take_bvh(const char *command, const ik_asset *asset, const ik_take *take, const char *out,
                          int overwrite) {
    const ik_bvh *source = asset->bvh;
    size_t per = (size_t)(source->values_per_frame > 0 ? source->values_per_frame : 0);
    double *values = (double *)calloc((size_t)take->frame_count * per + per + 1, sizeof *values);
    double *zeros;
    ik_bvh bvh = *source;
    int f, code;
    if (!values) {
        fprintf(stderr, "ikc %s: out of memory\n", command);
        return IKC_EXIT_FAILURE;
    }
    zeros = values + (size_t)take->frame_count * per;
    for (f = 0; f < take->frame_count; ++f) {
        const double *fallback = zeros;
        if (source->frame_count > 0) {
            double at = (double)f * (double)take->frame_time / source->frame_time + 0.5;
            int nearest = at >= (double)source->frame_count ? source->frame_count - 1 : (int)at;
            fallback = source->values + (size_t)nearest * per;
        }
        ik_bvh_frame_from_pose(source, ik_take_pose(take, f), fallback, values + (size_t)f * per);
    }
    bvh.frame_count = take->frame_count;
    bvh.frame_time = (double)take->frame_time;
    bvh.values = values;
    code = ikc_write_bvh(command, asset, &bvh, out, overwrite);
    free(values);
    return code;
}

int ikc_write_clip(const char *command, ik_asset *asset, const ik_clip *keys, int clip, const char *name,
                   const char *out, int overwrite) {
    ik_error err;
    ik_result r;
    ik_error_clear(&err);
    r = clip >= 0 ? ik_gltf_replace_clip_keys(asset->gltf, clip, asset->skin, keys, &err)
                  : ik_gltf_add_clip(asset->gltf, asset->skin, name, keys, &err);
    if (r != IK_OK) {
        fprintf(stderr, "ikc %s: cannot store the motion: %s\n", command,
                err.message[0] ? err.message : ik_result_str(r));
        return IKC_EXIT_FAILURE;
    }
    /* the edit rebuilt the document's skeletons: refresh the view */
    asset->skeleton = &ik_gltf_skeleton(asset->gltf, asset->skin)->skeleton;
    return ikc_write_gltf(command, asset, out, overwrite);
}

/* The glTF document with `take` as animation `clip`'s keys, one LINEAR key
 * per frame (ikc_write_clip). */
static int write_take_gltf(const char *command, ik_asset *asset, const ik_take *take, int clip, const char *name,
                           const char *out, int overwrite) {
    ik_take_clip_size size = ik_take_clip_size_of(take);
    ik_channel *channels = (ik_channel *)malloc((size_t)size.channel_count * sizeof *channels);
    ik_real *times = (ik_real *)malloc((size_t)size.time_count * sizeof *times);
    ik_real *values = (ik_real *)malloc(size.value_count * sizeof *values);
    ik_clip keys;
    int code = IKC_EXIT_FAILURE;
    if (channels && times && values && ik_take_to_clip(take, name, channels, times, values, &keys) == IK_OK)
        code = ikc_write_clip(command, asset, &keys, clip, name, out, overwrite);
    else
        fprintf(stderr, "ikc %s: out of memory\n", command);
    free(channels);
    free(times);
    free(values);
    return code;
}

int ikc_write_take(const char *command, ik_asset *asset, const ik_take *take, int clip, const char *name,
                   const char *out, int overwrite) {
    char ext[8];
    ik_result r = ik_take_validate(take, NULL);
    if (r != IK_OK || take->joint_count != asset->skeleton->joint_count) {
        fprintf(stderr, "ikc %s: the motion to write is not valid: %s\n", command,
                r != IK_OK ? ik_result_str(r) : "its joint count is not the character's");
        return IKC_EXIT_FAILURE;
    }
    ikc_extension(out, ext, sizeof ext);
    if (asset->gltf) {
        if (strcmp(ext, "gltf") != 0 && strcmp(ext, "glb") != 0) {
            fprintf(stderr, "ikc %s: '%s': a glTF input is written as .gltf or .glb\n", command, out);
            return IKC_EXIT_USAGE;
        }
        return write_take_gltf(command, asset, take, clip, name, out, overwrite);
    }
    if (asset->bvh) {
        if (strcmp(ext, "bvh") != 0) {
            fprintf(stderr, "ikc %s: '%s': a BVH input is written as .bvh\n", command, out);
            return IKC_EXIT_USAGE;
        }
        return write_take_bvh(command, asset, take, out, overwrite);
    }
    fprintf(stderr, "ikc %s: a chain file holds no motion to write\n", command);
    return IKC_EXIT_USAGE;
}
