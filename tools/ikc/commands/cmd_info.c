/* `ikc info FILE`: what a character file holds -- the joint tree, the limbs
 * found by name, the humanoid's roles, the clips and their durations. */
#include <stdlib.h>
#include <string.h>

#include "asset.h"
#include "humanoid_setup.h"
#include "ikc.h"
#include "info_json.h"
#include "robot_arm.h"

static void usage(FILE *out) {
    fprintf(out,
            "usage: ikc info FILE [--map MAPPING] [--json]\n"
            "\n"
            "Prints what FILE (glTF .gltf/.glb, BVH .bvh or chain description .chain) holds:\n"
            "the joint tree with each joint's rest position in model space, the limb chains\n"
            "found by joint names (legs end at 'foot'/'ankle', arms at 'hand'/'wrist'/'palm',\n"
            "the spine at 'head', tails at 'tail'/'tentacle'), joint limits, targets, and the\n"
            "clips with their durations. For a humanoid, the joint found for each role\n"
            "(hips, spine, chest, neck, head, clavicles, arms, legs, feet, toes), the\n"
            "roles missing, and names passed over (an IK control named like a foot):\n"
            "what `ikc solve --left-hand ...` will move. For a URDF robot (.urdf): its\n"
            "joints (type, links, axis, limits, mimics) and the chains from its root link\n"
            "to each leaf link.\n"
            "\n"
            "  --map MAPPING  'role = joint name' lines for joints not found by name\n"
            "  --json         print JSON instead of the table: file, format, skin, joints\n"
            "                 (index, name, parent, rest_ms), chains (kind, joints, reach),\n"
            "                 humanoid (usable, status, roles: role -> joint, missing),\n"
            "                 targets (chain files) and clips (name, duration, channels)\n"
            "\n"
            "examples:\n"
            "  ikc info robot.glb\n"
            "  ikc info examples/tail.chain\n"
            "  ikc info ur5.urdf\n"
            "  ikc info creature.glb --map creature.map\n"
            "  ikc info girl.glb --json\n"
            "\n"
            "exit codes: 0 ok, 2 bad usage, 3 file (or mapping) missing, 4 file (or\n"
            "mapping) malformed.\n");
}

static void print_joint(const ik_asset *asset, const ik_mat4 *model_ms, int joint, int depth) {
    const ik_skeleton *s = asset->skeleton;
    ik_vec3 p = ik_mat4_translation(&model_ms[joint]);
    int pad = depth * 2;
    if (pad > 40) pad = 40;
    printf("  %4d  %*s%-*s (%8.3f, %8.3f, %8.3f)", joint, pad, "", 36 - pad > 8 ? 36 - pad : 8,
           ik_skeleton_name(s, joint)[0] ? ikc_shown(ik_skeleton_name(s, joint)) : "(unnamed)", (double)p.x,
           (double)p.y, (double)p.z);
    if (asset->chain_file) {
        const ik_chain_joint *j = &asset->chain_file->joints[joint];
        if (j->type == IK_CHAIN_HINGE)
            printf("  hinge (%g %g %g) %g..%g deg, stiffness %g", (double)j->axis_ls.x, (double)j->axis_ls.y,
                   (double)j->axis_ls.z, (double)j->limit_min_deg, (double)j->limit_max_deg, (double)j->stiffness);
        else if (j->type == IK_CHAIN_BALL)
            printf("  ball cone %g deg, twist %g..%g, stiffness %g", (double)j->cone_deg, (double)j->limit_min_deg,
                   (double)j->limit_max_deg, (double)j->stiffness);
        else
            printf("  fixed");
    }
    printf("\n");
}

/* The joint tree depth first, each child under its parent in index order,
 * without recursion (a file can nest 100,000 joints deep): first_child and
 * next_sibling lists, built backwards so they keep index order, then a walk
 * down, across and up. O(joints). Returns 0 when out of memory. */
static int print_tree(const ik_asset *asset, const ik_mat4 *model_ms) {
    const ik_skeleton *s = asset->skeleton;
    int n = s->joint_count, i, joint, depth;
    int *first_child = (int *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
    int *next_sibling = (int *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
    if (!first_child || !next_sibling) {
        free(first_child);
        free(next_sibling);
        return 0;
    }
    for (i = 0; i < n; ++i) first_child[i] = next_sibling[i] = -1;
    for (i = n - 1; i >= 0; --i) {
        if (s->parents[i] < 0) continue;
        next_sibling[i] = first_child[s->parents[i]];
        first_child[s->parents[i]] = i;
    }
    for (i = 0; i < n; ++i) {
        if (s->parents[i] >= 0) continue;
        joint = i;
        depth = 0;
        for (;;) {
            print_joint(asset, model_ms, joint, depth);
            if (first_child[joint] >= 0) {
                joint = first_child[joint];
                ++depth;
                continue;
            }
            while (depth > 0 && next_sibling[joint] < 0) {
                joint = s->parents[joint];
                --depth;
            }
            if (depth == 0) break;
            joint = next_sibling[joint];
        }
    }
    free(first_child);
    free(next_sibling);
    return 1;
}

static void print_chains(const ik_asset *asset, const ik_mat4 *model_ms) {
    ik_named_chain chains[IKC_MAX_CHAINS];
    int n = ikc_asset_chains(asset, chains, IKC_MAX_CHAINS), c, k;
    printf("\nchains found by name: %d\n", n);
    for (c = 0; c < n; ++c) {
        printf("  %-9s ", ikc_shown(chains[c].kind));
        for (k = 0; k < chains[c].count; ++k) {
            printf("%s%s", k ? " > " : "", ikc_shown(ik_skeleton_name(asset->skeleton, chains[c].joints[k])));
        }
        if (chains[c].count < 2) {
            int parent = asset->skeleton->parents[chains[c].joints[0]];
            printf("   (hangs from %s, %s; no joint of its own to turn)\n",
                   parent >= 0 ? ikc_shown(ik_skeleton_name(asset->skeleton, parent)) : "(none)",
                   ikc_hang_reason(asset->skeleton, chains, n, chains[c].joints[0]));
            continue;
        }
        printf("   (%d joints, reach %.3f)\n", chains[c].count,
               (double)ikc_chain_reach(model_ms, chains[c].joints, chains[c].count));
    }
    if (n == 0) printf("  (none: no joint named like foot, ankle, hand, wrist, palm, head, tail)\n");
}

/* The humanoid's roles, for skeletons where one is found (or a mapping
 * file was given); a chain file is never a humanoid. */
static int print_humanoid(const ik_asset *asset, const char *map_path) {
    ikc_humanoid h;
    int code, role, found = 0;
    if (asset->chain_file && !map_path) return IKC_EXIT_OK;
    code = ikc_humanoid_find("info", asset->skeleton, map_path, &h);
    if (code != IKC_EXIT_OK) {
        ikc_humanoid_free(&h);
        return code;
    }
    for (role = 0; role < IK_ROLE_COUNT; ++role) found += h.map.joint[role] >= 0;
    if (h.map_result == IK_OK && h.init_result == IK_OK) {
        printf("\nhumanoid: found (%d of %d roles)%s\n", found, IK_ROLE_COUNT,
               map_path ? ", with the mapping file" : "");
        ikc_humanoid_print_map(stdout, &h, asset->skeleton, "  ");
    } else if (map_path || h.map_result == IK_OK) {
        printf("\nhumanoid: not usable\n");
        ikc_humanoid_usable("info", &h, asset->skeleton, stdout);
    } else if (found > 0) {
        printf("\nhumanoid: not found (%d of %d roles by name; the required ones missing:", found, IK_ROLE_COUNT);
        for (role = 0; role < IK_ROLE_COUNT; ++role)
            if ((IK_HUMANOID_REQUIRED_ROLES & (1ul << role)) && h.map.joint[role] < 0)
                printf(" %s", ik_humanoid_role_name(role));
        printf("; --map FILE names them)\n");
    }
    ikc_humanoid_free(&h);
    return IKC_EXIT_OK;
}

static void print_clips(const ik_asset *asset) {
    int n = ik_asset_clip_count(asset), c;
    char buf[32];
    printf("\nclips: %d\n", n);
    for (c = 0; c < n; ++c) {
        const ik_clip *clip = ik_asset_clip(asset, c);
        printf("  %3d  %-28s %8.3f s  %4d channels", c, ikc_shown(ikc_asset_clip_name(asset, c, buf, sizeof buf)),
               (double)clip->duration, clip->channel_count);
        if (asset->bvh) printf("  %d frames at %.1f fps", asset->bvh->frame_count, 1.0 / asset->bvh->frame_time);
        printf("\n");
    }
}

static void print_targets(const ik_asset *asset) {
    int t;
    if (!asset->chain_file) return;
    printf("\ntargets: %d\n", asset->chain_file->target_count);
    for (t = 0; t < asset->chain_file->target_count; ++t) {
        const ik_chain_target *tg = &asset->chain_file->targets[t];
        printf("  %-16s joint %-16s at (%.3f, %.3f, %.3f) weight %g\n", ikc_shown(tg->name),
               ikc_shown(ik_skeleton_name(asset->skeleton, tg->joint)), (double)tg->position_ms.x,
               (double)tg->position_ms.y, (double)tg->position_ms.z, (double)tg->importance);
    }
}

int ikc_info(int argc, char **argv) {
    const char *path = NULL, *map_path = NULL;
    ik_asset asset;
    ik_transform *pose;
    ik_mat4 *model;
    int i, code, roots = 0, json = 0;
    for (i = 0; i < argc; ++i) {
        if (ikc_is_help(argv[i])) {
            usage(stdout);
            return IKC_EXIT_OK;
        }
        if (strcmp(argv[i], "--map") == 0) {
            if (!(map_path = ikc_option_value("info", argc, argv, &i))) return IKC_EXIT_USAGE;
            continue;
        }
        if (strcmp(argv[i], "--json") == 0) {
            json = 1;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "ikc info: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return IKC_EXIT_USAGE;
        }
        if (!ikc_input_path("info", argv[i], &path)) return IKC_EXIT_USAGE;
    }
    if (!path) {
        usage(stderr);
        return IKC_EXIT_USAGE;
    }
    if (ikc_is_urdf(path) && json) {
        fprintf(stderr,
                "ikc info: --json is for skeleton files (glTF, BVH, .chain); `ikc ikbench` and `ikc solve --json` "
                "report on URDF robots\n");
        return IKC_EXIT_USAGE;
    }
    if (ikc_is_urdf(path)) return ikc_robot_info(path);
    code = ikc_asset_load("info", path, &asset);
    if (code != IKC_EXIT_OK) return code;
    pose = (ik_transform *)malloc((size_t)asset.skeleton->joint_count * sizeof *pose);
    model = (ik_mat4 *)malloc((size_t)asset.skeleton->joint_count * sizeof *model);
    if (!pose || !model) {
        free(pose);
        free(model);
        ik_asset_free(&asset);
        fprintf(stderr, "ikc info: out of memory\n");
        return IKC_EXIT_FAILURE;
    }
    ik_skeleton_rest_pose(asset.skeleton, pose);
    ik_skeleton_fk(asset.skeleton, pose, &asset.root_ms, model);
    if (json) {
        code = ikc_info_json(&asset, model, path, map_path);
        free(pose);
        free(model);
        ik_asset_free(&asset);
        return code;
    }
    for (i = 0; i < asset.skeleton->joint_count; ++i) roots += asset.skeleton->parents[i] < 0;
    printf("file:   %s\n", ikc_shown(path));
    printf("format: %s", ik_asset_format_name(&asset));
    if (asset.gltf) {
        const ik_gltf_skin *skin = ik_gltf_skeleton(asset.gltf, asset.skin);
        printf(", skin %d%s%s%s of %d", asset.skin, skin->name ? " \"" : "", skin->name ? ikc_shown(skin->name) : "",
               skin->name ? "\"" : "", ik_gltf_skin_count(asset.gltf));
    }
    if (asset.chain_file) printf(", chain \"%s\"", ikc_shown(asset.chain_file->name));
    printf("\njoints: %d (%d root%s); rest positions in model space\n", asset.skeleton->joint_count, roots,
           roots == 1 ? "" : "s");
    if (!print_tree(&asset, model)) {
        free(pose);
        free(model);
        ik_asset_free(&asset);
        fprintf(stderr, "ikc info: out of memory\n");
        return IKC_EXIT_FAILURE;
    }
    print_chains(&asset, model);
    code = print_humanoid(&asset, map_path);
    print_targets(&asset);
    print_clips(&asset);
    free(pose);
    free(model);
    ik_asset_free(&asset);
    return code;
}
