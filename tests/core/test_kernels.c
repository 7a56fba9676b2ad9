/* test_kernels.c — the vector kernels (core/engine/mt_kernels.c) against the
 * scalar reference paths (MtState.lean.reference), bit for bit: the body
 * pass, the lean blocks' rows and the lean pairs of A, on random states of
 * random chains, stars and mixed mechanisms of several body counts (multiples
 * of four and not), in full evaluations and in integrators' inner stages.
 * Also: a compiled system must be assembled before a state is made. */
#include <string.h>

#include "mt_kernels.h"
#include "mt_kin.h"
#include "mt_test.h"

static unsigned long long seed = 0x2545F4914F6CDD1DULL;

/* uniform in [−1, 1) */
static double rnd(void)
{
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(seed >> 11) / 9007199254740992.0 * 2 - 1;
}

typedef enum { CHAIN, CHAIN_SPRING, CHAIN_PENALTY, STAR, MIXED, NSHAPE } Shape;
static const char *shape_name[] = {"chain", "chain+spring", "chain, penalty", "star", "mixed"};

/* n bodies of random mass, centre of mass and inertia (one with products of
 * inertia when skew), joined by spherical joints at random offsets: in a
 * chain from the ground, each to the ground (star), or a chain with one
 * revolute joint (mixed: lean blocks that are neither a chain nor all pairs). */
static MtModel *build(int n, Shape shape, int skew)
{
    MtError err = {0};
    MtModel *m = mt_model_new();
    m->gravity[0] = 0.3;
    m->gravity[1] = -9.81;
    m->gravity[2] = 0.1;
    if (shape == CHAIN_PENALTY) m->solver.loops = MT_LOOPS_PENALTY;
    double o[3] = {0, 0, 0};
    int ground = mt_model_add_marker(m, MT_GROUND, "o", o, NULL, &err), base = ground;
    for (int i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "b%d", i);
        int b = mt_model_add_body(m, name, &err);
        MtBodySpec *s = &m->body[b];
        s->mass = 1.25 + rnd();
        for (int a = 0; a < 3; a++) {
            s->com[a] = 0.05 * rnd();
            s->inertia[a] = 0.02 + 0.004 * rnd(); /* the triangle inequality holds */
            s->pos[a] = 0.1 * i + 0.01 * rnd();
        }
        if (skew && i == n / 2) s->inertia[3] = s->inertia[4] = s->inertia[5] = 0.001;
        double pi[3] = {0.02 * rnd(), 0.02 * rnd(), 0.02 * rnd()}, pt[3] = {0.1 + 0.02 * rnd(), 0.02 * rnd(), 0.02 * rnd()};
        int mi = mt_model_add_marker(m, b, "o", pi, NULL, &err);
        snprintf(name, sizeof name, "j%d", i);
        MtJointType type = shape == MIXED && i == n / 2 && n > 1 ? MT_JOINT_REVOLUTE : MT_JOINT_SPHERICAL;
        mt_model_add_joint(m, name, type, mi, shape == STAR ? ground : base, &err);
        base = mt_model_add_marker(m, b, "tip", pt, NULL, &err);
    }
    if (shape == CHAIN_SPRING) mt_model_add_spring(m, "s", ground, base, 50, 0.5, 0.2, 0, &err);
    if (err.code) {
        printf("FAIL model: %s\n", err.msg);
        exit(1);
    }
    return m;
}

/* Index of the first difference in bits of n doubles, −1 if none. */
static long differ(const double *a, const double *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp(a + i, b + i, sizeof(double))) return (long)i;
    return -1;
}

#define SAME(a, b, n, what)                                                                                        \
    do {                                                                                                           \
        long i_ = differ((a), (b), (size_t)(n));                                                                   \
        CHECK(i_ < 0, "%s, %d bodies%s, %s: %s differs at %ld (%.17g vs %.17g)", shape_name[shape], n_, skew ? " (one skew)" : "", \
              mode, what, i_, i_ < 0 ? 0.0 : (a)[i_], i_ < 0 ? 0.0 : (b)[i_]);                                      \
    } while (0)

/* Evaluates st at y as mt_deriv does (stage: an integrator's inner stage,
 * gravity only: the accelerations straight into dy). */
static void deriv(MtState *st, const double *y, double *dy, int stage)
{
    const MtSystem *s = st->sys;
    MtError err = {0};
    double *acc = st->acc;
    stage = stage && mt_gravity_only(s);
    if (stage) {
        st->acc = dy + s->nq;
        st->lean.stage = 1;
    }
    st->dq = dy;
    if (mt_eval(st, 0.25, y, y + s->nq, &err)) printf("note: evaluation: %s\n", err.msg);
    st->dq = NULL;
    st->acc = acc;
    st->lean.stage = 0;
    if (!stage) memcpy(dy + s->nq, st->acc, sizeof(double) * (size_t)s->nu);
}

static void compare(int n_, Shape shape, int skew)
{
    MtModel *m = build(n_, shape, skew);
    MtError err = {0};
    MtSystem *s = mt_system_compile(m, &err);
    mt_model_free(m);
    if (!s || mt_system_assemble(s, &err)) {
        printf("FAIL compile: %s\n", err.msg);
        exit(1);
    }
    MtState *k = mt_state_new(s, &err), *r = mt_state_new(s, &err);
    r->lean.reference = 1;
    int nq = s->nq, nu = s->nu, n = nq + nu;
    double *y = malloc(sizeof(double) * (size_t)n), *dk = calloc((size_t)n, sizeof(double)), *dr = calloc((size_t)n, sizeof(double));
    for (int trial = 0; trial < 3; trial++) {
        for (int b = 0; b < s->nbody; b++) {
            double *q = y + 7 * b, sc = 1 + 0.5 * rnd(); /* quaternions not normalised */
            for (int a = 0; a < 3; a++) q[a] = rnd();
            for (int a = 3; a < 7; a++) q[a] = sc * rnd();
        }
        for (int i = 0; i < nu; i++) y[nq + i] = 3 * rnd();
        for (int stage = 0; stage < 2; stage++) {
            const char *mode = stage ? "inner stage" : "full evaluation";
            memset(dk, 0, sizeof(double) * (size_t)n);
            memset(dr, 0, sizeof(double) * (size_t)n);
            deriv(k, y, dk, stage);
            deriv(r, y, dr, stage);
            SAME(dk, dr, n, "q̇ and u̇");
            SAME(k->lambda, r->lambda, s->nrow, "multipliers");
            if (stage) continue; /* an inner stage leaves the rest stale */
            SAME(k->R, r->R, 9 * s->nbody, "rotations");
            SAME(k->Jwinv, r->Jwinv, 9 * s->nbody, "world inverse inertias");
            SAME(k->f, r->f, nu, "forces");
            SAME(k->a0, r->a0, nu, "free accelerations");
            SAME(k->g, r->g, s->nrow, "g");
            SAME(k->gd, r->gd, s->nrow, "ġ");
            SAME(k->h, r->h, s->nrow, "h");
            SAME(k->dlean, r->dlean, MT_LEAN * s->nblock, "lean rows");
            mt_assemble(k);
            mt_assemble(r);
            for (int b = 0; b < s->nblock; b++)
                SAME(k->dslot[b], r->dslot[b], s->block[b].nrow * s->block[b].nrow, "A(k,k)");
            for (int p = 0; p < k->npair; p++)
                SAME(k->pair[p].slot, r->pair[p].slot, s->block[k->pair[p].r].nrow * s->block[k->pair[p].c].nrow, "A(k,l)");
        }
    }
    free(y), free(dk), free(dr);
    mt_state_free(k);
    mt_state_free(r);
    mt_system_free(s);
}

int main(void)
{
    static const int counts[] = {1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 16, 33};
    for (int shape = 0; shape < NSHAPE; shape++)
        for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
            for (int skew = 0; skew < 2; skew++) compare(counts[c], (Shape)shape, skew);
    printf("kernels bit-identical to the reference paths unless listed above\n");

    /* compile builds, mt_system_assemble evaluates: no state of a system not assembled */
    MtModel *m = build(3, CHAIN, 0);
    MtError err = {0};
    MtSystem *s = mt_system_compile(m, &err);
    MtState *st = s ? mt_state_new(s, &err) : NULL;
    CHECK(s && !st && err.code == MT_ERR_ARG, "mt_state_new refuses a system not assembled: %s", err.msg);
    CHECK(s && !mt_system_assemble(s, &err) && s->assembled && s->dof_rank == 9, "assembled: %d degrees of freedom",
          s ? s->dof_rank : -1);
    mt_state_free(st);
    mt_system_free(s);
    mt_model_free(m);
    return mt_test_done();
}
