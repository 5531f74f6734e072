/* Loading any supported file as one skeleton with its clips and limits. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ikit/asset.h>
#include <ikit/chain_file_solve.h>

/* A glTF document may hold several skins; the one with the most joints is
 * the character. */
static int largest_skin(const ik_gltf *gltf) {
    int best = 0, best_count = -1, i;
    for (i = 0; i < ik_gltf_skin_count(gltf); ++i) {
        const ik_gltf_skin *s = ik_gltf_skeleton(gltf, i);
        if (s && s->skeleton.joint_count > best_count) {
            best = i;
            best_count = s->skeleton.joint_count;
        }
    }
    return best;
}

/* 1 when `path` ends in "." followed by `ext` (any case). */
static int has_extension(const char *path, const char *ext) {
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    size_t i;
    if (!dot || (slash && slash > dot) || strlen(dot + 1) != strlen(ext)) return 0;
    for (i = 0; ext[i]; ++i)
        if (tolower((unsigned char)dot[1 + i]) != ext[i]) return 0;
    return 1;
}

/* The format by the first bytes of `head` [n] (NUL-terminated), else by the
 * extension of `path`. */
static ik_asset_format format_of(const char *path, const char *head, size_t n, int *binary) {
    size_t i = 0;
    *binary = n >= 4 && memcmp(head, "glTF", 4) == 0;
    if (*binary) return IK_ASSET_GLTF;
    for (;;) {
        while (i < n && isspace((unsigned char)head[i])) ++i;
        if (i >= n || head[i] != '#') break;
        while (i < n && head[i] != '\n') ++i;
    }
    if (i < n && head[i] == '{') return IK_ASSET_GLTF;
    if (n - i >= 9 && strncmp(head + i, "HIERARCHY", 9) == 0) return IK_ASSET_BVH;
    if (n - i >= 5 && strncmp(head + i, "chain", 5) == 0) return IK_ASSET_CHAIN;
    if (has_extension(path, "bvh")) return IK_ASSET_BVH;
    if (has_extension(path, "chain")) return IK_ASSET_CHAIN;
    return IK_ASSET_GLTF;
}

/* The format of the file at `path`; IK_ASSET_UNKNOWN (errno set) when it
 * cannot be opened. O_NONBLOCK: opening a FIFO must not wait for a writer;
 * only a regular file is looked into (the readers refuse the rest with a
 * message). */
static ik_asset_format sniff(const char *path, int *binary) {
    char head[512];
    size_t n = 0;
    struct stat st;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return IK_ASSET_UNKNOWN;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        ssize_t got = read(fd, head, sizeof head - 1);
        n = got > 0 ? (size_t)got : 0;
    }
    close(fd);
    head[n] = '\0';
    return format_of(path, head, n, binary);
}

/* The character of a glTF document just read: its largest skin. */
static ik_result take_skin(ik_asset *asset, ik_error *error) {
    const ik_gltf_skin *skin;
    if (ik_gltf_skin_count(asset->gltf) == 0) {
        ik_error_set(error, 0, 0, -1, "the glTF file has no skin, so no skeleton to work on");
        return IK_ERR_NOT_FOUND;
    }
    asset->skin = largest_skin(asset->gltf);
    skin = ik_gltf_skeleton(asset->gltf, asset->skin);
    asset->skeleton = &skin->skeleton;
    asset->root_ms = skin->root_ms;
    return IK_OK;
}

/* The skeleton and limits of a chain file just read. */
static ik_result take_chain(ik_asset *asset, ik_error *error) {
    asset->skeleton = &asset->chain_file->skeleton;
    asset->constraints = (ik_constraint *)calloc((size_t)asset->skeleton->joint_count, sizeof(ik_constraint));
    if (!asset->constraints) {
        ik_error_set(error, 0, 0, -1, "out of memory for %d joint limits", asset->skeleton->joint_count);
        return IK_ERR_NO_MEMORY;
    }
    ik_chain_file_constraints(asset->chain_file, asset->constraints);
    return IK_OK;
}

ik_result ik_asset_load(const char *path, ik_asset *asset, ik_error *error) {
    ik_result r;
    ik_asset_format format;
    if (!asset) return IK_ERR_NULL;
    memset(asset, 0, sizeof *asset);
    ik_error_clear(error);
    if (!path) return IK_ERR_NULL;
    asset->path = path;
    asset->root_ms = ik_mat4_identity();
    asset->format = sniff(path, &asset->binary);
    switch (asset->format) {
        case IK_ASSET_GLTF:
            r = ik_gltf_read_file(path, &asset->gltf, error);
            if (r == IK_OK) r = take_skin(asset, error);
            break;
        case IK_ASSET_BVH:
            r = ik_bvh_read_file(path, &asset->bvh, error);
            if (r == IK_OK) asset->skeleton = &asset->bvh->skeleton;
            break;
        case IK_ASSET_CHAIN:
            r = ik_chain_file_read_file(path, &asset->chain_file, error);
            if (r == IK_OK) r = take_chain(asset, error);
            break;
        default:
            ik_error_set(error, 0, 0, -1, "cannot open '%.180s': %s", path, strerror(errno));
            return IK_ERR_IO;
    }
    if (r == IK_OK) return IK_OK;
    format = asset->format;
    ik_asset_free(asset);
    asset->format = format;
    return r;
}

ik_result ik_asset_load_memory(const void *data, size_t size, const char *name, ik_asset *asset, ik_error *error) {
    char head[512];
    size_t n = size < sizeof head - 1 ? size : sizeof head - 1;
    ik_result r = IK_ERR_NULL;
    ik_asset_format format;
    if (!asset) return IK_ERR_NULL;
    memset(asset, 0, sizeof *asset);
    ik_error_clear(error);
    if (!data && size > 0) return IK_ERR_NULL;
    asset->path = name ? name : "";
    asset->root_ms = ik_mat4_identity();
    if (n) memcpy(head, data, n);
    head[n] = '\0';
    asset->format = format_of(asset->path, head, n, &asset->binary);
    switch (asset->format) {
        case IK_ASSET_GLTF:
            r = ik_gltf_read_memory(data, size, NULL, &asset->gltf, error);
            if (r == IK_OK) r = take_skin(asset, error);
            break;
        case IK_ASSET_BVH:
            r = ik_bvh_read_memory((const char *)data, size, &asset->bvh, error);
            if (r == IK_OK) asset->skeleton = &asset->bvh->skeleton;
            break;
        default:
            r = ik_chain_file_read_memory((const char *)data, size, &asset->chain_file, error);
            if (r == IK_OK) r = take_chain(asset, error);
            break;
    }
    if (r == IK_OK) return IK_OK;
    format = asset->format;
    ik_asset_free(asset);
    asset->format = format;
    return r;
}

void ik_asset_free(ik_asset *asset) {
    if (!asset) return;
    if (asset->gltf) ik_gltf_free(asset->gltf);
    if (asset->bvh) ik_bvh_free(asset->bvh);
    if (asset->chain_file) ik_chain_file_free(asset->chain_file);
    free(asset->constraints);
    memset(asset, 0, sizeof *asset);
}

const char *ik_asset_format_name(const ik_asset *asset) {
    switch (asset->format) {
        case IK_ASSET_GLTF:
            return asset->binary ? "glTF binary (GLB)" : "glTF 2.0";
        case IK_ASSET_BVH:
            return "BVH motion capture";
        case IK_ASSET_CHAIN:
            return "chain description";
        default:
            return "unknown";
    }
}

/* |R x| for x = (1, 0, 0): the root's scale (uniform in practice). */
ik_real ik_asset_metre(const ik_asset *asset) {
    ik_real scale;
    if (!asset || asset->format != IK_ASSET_GLTF) return 0;
    scale = ik_vec3_length(ik_mat4_transform_vector(&asset->root_ms, ik_v3(1, 0, 0)));
    return scale > 0 && ik_finite(1 / scale) ? 1 / scale : 0;
}

int ik_asset_clip_count(const ik_asset *asset) {
    if (asset->gltf) return ik_gltf_clip_count(asset->gltf);
    if (asset->bvh) return asset->bvh->frame_count > 0 ? 1 : 0;
    return 0;
}

const ik_clip *ik_asset_clip(const ik_asset *asset, int clip) {
    if (clip < 0 || clip >= ik_asset_clip_count(asset)) return NULL;
    if (asset->gltf) return ik_gltf_clip(asset->gltf, clip, asset->skin);
    return &asset->bvh->clip;
}
