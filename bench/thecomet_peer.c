/* TheComet's ik: a chain of nodes and its FABRIK solver, called as its
 * README shows (thecomet_peer.h). */
#include "thecomet_peer.h"

#include <ik/ik.h>
#include <stdlib.h>

#define MAX_NODES 1024

struct thecomet_chain {
    struct ik_solver_t *solver;
    struct ik_effector_t *effector;
    struct ik_node_t *nodes[MAX_NODES];
    int count;
    double bone_length;
};

static int initialised = 0;

/* The straight rest pose: every node unrotated, each a bone above its parent. */
static void rest(thecomet_chain *c) {
    int i;
    for (i = 0; i < c->count; ++i) {
        c->nodes[i]->rotation = IKAPI.quat.quat(0, 0, 0, 1);
        c->nodes[i]->position = IKAPI.vec3.vec3(0, i ? c->bone_length : 0, 0);
    }
}

thecomet_chain *thecomet_chain_new(int bones, double bone_length) {
    thecomet_chain *c;
    int i;
    if (bones < 1 || bones + 1 > MAX_NODES || !(c = (thecomet_chain *)calloc(1, sizeof *c))) return NULL;
    if (!initialised && IKAPI.init() != IK_OK) {
        free(c);
        return NULL;
    }
    initialised = 1;
    c->count = bones + 1;
    c->bone_length = bone_length;
    c->solver = IKAPI.solver.create(IK_FABRIK);
    if (!c->solver) {
        free(c);
        return NULL;
    }
    c->nodes[0] = c->solver->node->create(0);
    for (i = 1; i < c->count && c->nodes[i - 1]; ++i)
        c->nodes[i] = c->solver->node->create_child(c->nodes[i - 1], (uint32_t)i);
    if (!c->nodes[c->count - 1]) {
        thecomet_chain_free(c);
        return NULL;
    }
    /* the bone lengths are read from the positions when the solver builds its chains */
    rest(c);
    c->effector = c->solver->effector->create();
    c->solver->effector->attach(c->effector, c->nodes[c->count - 1]);
    IKAPI.solver.set_tree(c->solver, c->nodes[0]);
    if (IKAPI.solver.rebuild(c->solver) != IK_OK) {
        thecomet_chain_free(c);
        return NULL;
    }
    return c;
}

void thecomet_chain_free(thecomet_chain *c) {
    if (!c) return;
    if (c->solver) IKAPI.solver.destroy(c->solver);
    free(c);
}

void thecomet_chain_solve(thecomet_chain *c, double x, double y, double z) {
    rest(c);
    c->effector->target_position = IKAPI.vec3.vec3(x, y, z);
    IKAPI.solver.solve(c->solver);
}

void thecomet_chain_end(const thecomet_chain *c, double end[3]) {
    double r[4] = {0, 0, 0, 1}, p[3] = {0, 0, 0};
    int i;
    for (i = 0; i < c->count; ++i) {
        const ikreal_t *q = c->nodes[i]->rotation.f, *v = c->nodes[i]->position.f;
        /* p += r v (v + 2 w (u x v) + 2 u x (u x v), u = r's vector part), then r = r q */
        double tx = 2 * (r[1] * v[2] - r[2] * v[1]), ty = 2 * (r[2] * v[0] - r[0] * v[2]),
               tz = 2 * (r[0] * v[1] - r[1] * v[0]);
        double n[4];
        p[0] += v[0] + r[3] * tx + (r[1] * tz - r[2] * ty);
        p[1] += v[1] + r[3] * ty + (r[2] * tx - r[0] * tz);
        p[2] += v[2] + r[3] * tz + (r[0] * ty - r[1] * tx);
        n[0] = r[3] * q[0] + r[0] * q[3] + r[1] * q[2] - r[2] * q[1];
        n[1] = r[3] * q[1] - r[0] * q[2] + r[1] * q[3] + r[2] * q[0];
        n[2] = r[3] * q[2] + r[0] * q[1] - r[1] * q[0] + r[2] * q[3];
        n[3] = r[3] * q[3] - r[0] * q[0] - r[1] * q[1] - r[2] * q[2];
        r[0] = n[0], r[1] = n[1], r[2] = n[2], r[3] = n[3];
    }
    end[0] = p[0], end[1] = p[1], end[2] = p[2];
}

const char *thecomet_precision(void) { return sizeof(ikreal_t) == sizeof(float) ? "float" : "double"; }

int thecomet_max_iterations(const thecomet_chain *c) { return c->solver->max_iterations; }
