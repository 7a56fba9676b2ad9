/* grid_model.h — the R × C plate lattice of bench/grid as an MtModel, shared
 * by the benchmark and tests/core/test_linsolve.c (see bench/grid.c for the
 * problem). */
#ifndef MT_GRID_MODEL_H
#define MT_GRID_MODEL_H

#include <stdio.h>
#include <stdlib.h>

#include "motus/model.h"

/* Rotational-only bushing between markers mi (moving side) and mj. */
static int add_spring(MtModel *m, const char *name, int mi, int mj, MtError *err)
{
    const double c = 100.0, d = 0.01;
    int f = mt_model_add_force(m, name, MT_FORCE_BUSHING, mi, mj, -1, err);
    if (f < 0) return -1;
    double *p = m->force[f].p;
    for (int k = 0; k < 12; k++) p[k] = 0;
    p[3] = p[4] = p[5] = c;  /* ktx kty ktz */
    p[9] = p[10] = p[11] = d; /* ctx cty ctz */
    return f;
}

static MtModel *build_grid(int R, int C, double h, double tfinal, double ts, int *plates, MtError *err)
{
    const double a = 1.0 / 7.0, th = 0.01, mass = 1.25;
    MtModel *m = mt_model_new();
    if (!m) return NULL;
    snprintf(m->title, sizeof m->title, "%d x %d lattice of plates", R, C);
    m->gravity[0] = m->gravity[1] = 0;
    m->gravity[2] = -9.81;
    m->solver.method = MT_METHOD_RK4;
    m->solver.step = h;
    m->solver.until = tfinal;
    m->solver.every = 1 << 30; /* output only at t = 0 and at the end */
    m->solver.stab_period = ts; /* Baumgarte Ts (0.01 s here; the model default is 0.1 s); <= 0: off */
    m->solver.stab_damping = 1.0;
    m->solver.correct = 0;

    const double corner[3] = {-a / 2, -a / 2, 0}, left[3] = {-a / 2, 0, 0}, right[3] = {a / 2, 0, 0},
                 bottom[3] = {0, -a / 2, 0}, top[3] = {0, a / 2, 0}, origin[3] = {0, 0, 0};
    int g0 = mt_model_add_marker(m, MT_GROUND, "o", origin, NULL, err);
    if (g0 < 0) goto fail;
    /* markers per plate: L R B T (mid-sides) and, on (0,0), the corner */
    int *mk = malloc(sizeof(int) * 4 * (size_t)(R * C));
    if (!mk) goto fail;
    char name[48];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            snprintf(name, sizeof name, "p%d_%d", i, j);
            int b = mt_model_add_body(m, name, err);
            if (b < 0) goto fail_mk;
            plates[i * C + j] = b;
            MtBodySpec *s = &m->body[b];
            s->mass = mass;
            s->com[0] = s->com[1] = s->com[2] = 0;
            s->inertia[0] = mass * (a * a + th * th) / 12; /* Ixx */
            s->inertia[1] = mass * (a * a + th * th) / 12; /* Iyy */
            s->inertia[2] = mass * (a * a + a * a) / 12;   /* Izz */
            s->inertia[3] = s->inertia[4] = s->inertia[5] = 0;
            s->pos[0] = (j + 0.5) * a;
            s->pos[1] = (i + 0.5) * a;
            s->pos[2] = 0;
            int *k = mk + 4 * (i * C + j);
            if ((k[0] = mt_model_add_marker(m, b, "L", left, NULL, err)) < 0) goto fail_mk;
            if ((k[1] = mt_model_add_marker(m, b, "R", right, NULL, err)) < 0) goto fail_mk;
            if ((k[2] = mt_model_add_marker(m, b, "B", bottom, NULL, err)) < 0) goto fail_mk;
            if ((k[3] = mt_model_add_marker(m, b, "T", top, NULL, err)) < 0) goto fail_mk;
            if (i == 0 && j == 0) {
                int mc = mt_model_add_marker(m, b, "corner", corner, NULL, err);
                if (mc < 0 || mt_model_add_joint(m, "ground", MT_JOINT_SPHERICAL, mc, g0, err) < 0) goto fail_mk;
            }
        }
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            const int *k = mk + 4 * (i * C + j);
            if (j > 0) { /* left side of (i,j) to right side of (i,j-1) */
                int mj = mk[4 * (i * C + j - 1) + 1];
                snprintf(name, sizeof name, "h%d_%d", i, j);
                if (mt_model_add_joint(m, name, MT_JOINT_SPHERICAL, k[0], mj, err) < 0) goto fail_mk;
                snprintf(name, sizeof name, "sh%d_%d", i, j);
                if (add_spring(m, name, k[0], mj, err) < 0) goto fail_mk;
            }
            if (i > 0) { /* bottom side of (i,j) to top side of (i-1,j) */
                int mj = mk[4 * ((i - 1) * C + j) + 3];
                snprintf(name, sizeof name, "v%d_%d", i, j);
                if (mt_model_add_joint(m, name, MT_JOINT_SPHERICAL, k[2], mj, err) < 0) goto fail_mk;
                snprintf(name, sizeof name, "sv%d_%d", i, j);
                if (add_spring(m, name, k[2], mj, err) < 0) goto fail_mk;
            }
        }
    free(mk);
    return m;
fail_mk:
    free(mk);
fail:
    mt_model_free(m);
    return NULL;
}

/* Untimed check run: largest violation over the run, sampled at the frames. */

#endif
