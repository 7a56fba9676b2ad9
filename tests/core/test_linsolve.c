/* Linear solves of the equations of motion (core/engine/mt_linsolve.c): runs with
 * the stale factor (PCG preconditioned by an older factor, and the factor of
 * a step's re-detection reused at the same positions) against runs that
 * refactor at every evaluation. The 5 × 5 plate lattice of bench/grid (closed
 * loops, 9 equations dependent while flat and re-detected every step), the
 * 12 × 12 one, and a chain of boxes on spherical joints; the automatic choice
 * per model. The supernodal panels of the block factor against the block
 * kernels on the 12 × 12 lattice's A. */
#include <string.h>

#include "mt_bchol.h"
#include "mt_integrate.h"
#include "mt_kin.h"
#include "mt_system.h"
#include "mt_test.h"
#include "../../bench/grid_model.h"

/* Runs s with the given linear solves; returns the state (caller frees). */
static MtState *run_with(MtSystem *s, int linear, double until, MtRunStats *stats)
{
    MtError err = {0};
    MtSolverSpec sv = s->solver;
    sv.until = until;
    MtState *st = mt_state_new(s, &err);
    CHECK(st != NULL, "state: %s", err.msg);
    st->linear = linear;
    MtStatus rc = mt_run(st, &sv, NULL, NULL, NULL, stats, &err);
    CHECK(rc == MT_OK, "run (%s): %s", mt_linear_name(linear), err.msg);
    return st;
}

static double max_diff(const double *a, const double *b, int n)
{
    double d = 0;
    for (int i = 0; i < n; i++) d = fmax(d, fabs(a[i] - b[i]));
    return d;
}

static MtSystem *compile(MtModel *m)
{
    MtError err = {0};
    MtSystem *s = m ? mt_system_compile(m, &err) : NULL;
    if (s && mt_system_assemble(s, &err)) { mt_system_free(s); s = NULL; }
    CHECK(s != NULL, "compile: %s", err.msg);
    if (!s) exit(1);
    return s;
}

/* Chain of n boxes (0.2 m, 1 kg) on spherical joints, the first on ground, horizontal at rest. */
static MtModel *chain_model(int n)
{
    MtError err = {0};
    MtModel *m = mt_model_new();
    m->gravity[0] = m->gravity[2] = 0;
    m->gravity[1] = -9.81;
    m->solver.method = MT_METHOD_RK4;
    m->solver.step = 1e-3;
    m->solver.stab_period = 0.01;
    m->solver.every = 1 << 30;
    const double o[3] = {0, 0, 0}, tip[3] = {0.2, 0, 0};
    int base = mt_model_add_marker(m, MT_GROUND, "o", o, NULL, &err);
    for (int i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "b%d", i);
        int b = mt_model_add_body(m, name, &err);
        MtBodySpec *s = &m->body[b];
        s->mass = 1;
        s->com[0] = 0.1;
        s->inertia[0] = 0.001;
        s->inertia[1] = s->inertia[2] = 0.004;
        s->pos[0] = 0.2 * i;
        int mi = mt_model_add_marker(m, b, "o", o, NULL, &err);
        snprintf(name, sizeof name, "j%d", i);
        mt_model_add_joint(m, name, MT_JOINT_SPHERICAL, mi, base, &err);
        base = mt_model_add_marker(m, b, "tip", tip, NULL, &err);
    }
    CHECK(!err.msg[0], "chain model: %s", err.msg);
    return m;
}

/* Rows near dependence are compliant (MT_NEAR_TOL): the 12 × 12 lattice with
 * Ts changed by 3e-11 and 7e-11 relative diverged at t = 0.66 and 0.69 s
 * before (its multipliers grew without bound near rows turning dependent);
 * now both runs reach 0.75 s and end where the nominal run ends. */
static void near_dependence(void)
{
    static const double dts[] = {0, 3e-11, 7e-11};
    double ref[3 * 144 * 7];
    int nq = 0;
    for (int i = 0; i < 3; i++) {
        int plates[144];
        MtError err = {0};
        MtModel *m = build_grid(12, 12, 1e-3, 0.75, 0.01 * (1 + dts[i]), plates, &err);
        MtSystem *s = compile(m);
        MtRunStats st;
        MtState *a = run_with(s, MT_LINEAR_AUTO, 0.75, &st);
        CHECK(st.gmax < 1e-4, "12x12 lattice, Ts·(1 + %g): reaches 0.75 s, constraint violation %.3g m", dts[i], st.gmax);
        if (i == 0) {
            nq = s->nq;
            memcpy(ref, a->q, sizeof(double) * (size_t)nq);
            /* the stale factor, also across steps (the step's last factor preconditions the next
             * step's first stage when the re-detection finds the same rows near dependence),
             * against a new factor at every evaluation */
            CHECK(a->stats.npcg > 500 && a->stats.nnext > 100, "12x12 lattice, auto: %ld PCG solves (> 500), %ld steps begun with the "
                  "last step's factor (> 100)", a->stats.npcg, a->stats.nnext);
            MtState *d = run_with(s, MT_LINEAR_DIRECT, 0.75, &st);
            CHECK(d->stats.npcg == 0 && d->stats.nnext == 0, "12x12 lattice, direct: no iterative solves");
            CHECK_ABS(max_diff(ref, d->q, nq), 0, 1e-9, "12x12 lattice at 0.75 s: positions, auto vs direct");
            printf("12x12 lattice, auto: %ld factors, %ld PCG solves (%.2f iterations each), %ld steps begun with the last "
                   "step's factor; direct: %ld factors\n", a->stats.nfactor, a->stats.npcg, (double)a->stats.npcg_iter / (double)a->stats.npcg,
                   a->stats.nnext, d->stats.nfactor);
            mt_state_free(d);
        } else
            CHECK(max_diff(ref, a->q, nq) < 1e-9, "12x12 lattice, Ts·(1 + %g): ends where the nominal run ends (%.3g)", dts[i],
                  max_diff(ref, a->q, nq));
        mt_state_free(a);
        mt_system_free(s);
        mt_model_free(m);
    }
}

/* The supernodal panels (mt_bchol_super.c) against the block kernels on a
 * real A: the 12 × 12 lattice at t = 0.5 s (rows near dependence compliant)
 * with one row taken out of the solve as the re-detection does, one factor
 * and solve each, and the re-detection's detecting factor. */
static void panels_on_lattice(void)
{
    int plates[144], bad = 0;
    MtError err = {0};
    MtModel *m = build_grid(12, 12, 1e-3, 0.5, 0.01, plates, &err);
    MtSystem *s = compile(m);
    MtRunStats rs;
    MtState *st = run_with(s, MT_LINEAR_DIRECT, 0.5, &rs);
    MtBchol *b = st->chol;
    CHECK(mt_bchol_has_panels(b), "12x12 lattice: the structure chooses the panels");
    int n = mt_bchol_rows(b), out = 3 * 100 + 1;
    double *x1 = malloc(sizeof(double) * 6 * (size_t)n), *x2 = x1 + n, *rhs = x2 + n, *y = rhs + n, *p1 = y + n, *p2 = p1 + n;
    unsigned char *rowout = calloc((size_t)n, 1);
    for (int i = 0; i < n; i++) rowout[i] = st->rowoff[i] || i == out;
    for (int i = 0; i < n; i++) {
        rhs[i] = rowout[i] ? 0 : sin(1.0 + i);
        mt_bchol_set_dependent(b, i, rowout[i]);
    }
    mt_stage_bodies(st, st->q);
    mt_stage_constraints(st, st->t, st->q, st->u);
    mt_assemble(st);
    memcpy(x1, rhs, sizeof(double) * (size_t)n);
    CHECK(mt_bchol_factor(b, 0, MT_PIVOT_REG, &bad) == 0, "panels: factor");
    mt_bchol_solve(b, x1);
    mt_bchol_pivot_ratios(b, p1);
    mt_bchol_mulv(b, x1, y); /* the panels leave A in place */
    double res = 0, xn = 0, dx = 0, dp = 0;
    for (int i = 0; i < n; i++) res = fmax(res, fabs(y[i] - rhs[i]));
    mt_bchol_use_panels(b, 0);
    mt_assemble(st);
    memcpy(x2, rhs, sizeof(double) * (size_t)n);
    CHECK(mt_bchol_factor(b, 0, MT_PIVOT_REG, &bad) == 0, "block kernels: factor");
    mt_bchol_solve(b, x2);
    mt_bchol_pivot_ratios(b, p2);
    for (int i = 0; i < n; i++) {
        xn = fmax(xn, fabs(x2[i]));
        dx = fmax(dx, fabs(x1[i] - x2[i]));
        dp = fmax(dp, fabs(p1[i] - p2[i]) / p2[i]);
        CHECK(!rowout[i] || x1[i] == 0, "row %d out of the solve: zero", i);
    }
    printf("12x12 lattice, panels against block kernels: |x1 - x2| = %.3g of |x| = %.3g, pivots %.3g relative, "
           "residual %.3g\n", dx, xn, dp, res);
    CHECK(res < 1e-9, "panels: residual of A x = b on the kept rows %.3g (< 1e-9; |b| = 1)", res);
    CHECK(dx < 1e-9 * xn, "panels and block kernels: the same solution to 1e-9 relative (%.3g)", dx / xn);
    CHECK(dp < 1e-9, "panels and block kernels: the same pivots to 1e-9 relative (%.3g)", dp);
    /* the re-detection's rule, pivot by pivot: the same rows near dependence */
    int nnear[2] = {0, 0}, differ = 0;
    unsigned char *near = calloc((size_t)n, 1);
    for (int pass = 0; pass < 2; pass++) {
        mt_bchol_use_panels(b, pass == 1);
        for (int r = 0; r < n; r++) mt_bchol_set_dependent(b, r, rowout[r]);
        mt_assemble(st);
        mt_bchol_factor(b, 1, MT_NEAR_TOL, &bad);
        for (int r = 0; r < n; r++) {
            int d = mt_bchol_row_dependent(b, r) && !rowout[r];
            nnear[pass] += d;
            if (pass == 0) near[r] = (unsigned char)d;
            else differ += d != near[r];
        }
    }
    CHECK(nnear[0] > 0 && differ == 0, "detecting factor: %d rows near dependence with the block kernels, %d with the "
          "panels, %d differ (0)", nnear[0], nnear[1], differ);
    free(near);
    free(rowout);
    free(x1);
    mt_state_free(st);
    mt_system_free(s);
    mt_model_free(m);
}

int main(void)
{
    panels_on_lattice();
    MtRunStats st1, st2;
    near_dependence();
    {
        /* 5 × 5 lattice over 1 s: the stale factor (forced) against a new factor every evaluation */
        int plates[25];
        MtError err = {0};
        MtModel *m = build_grid(5, 5, 1e-3, 1.0, 0.01, plates, &err);
        MtSystem *s = compile(m);
        CHECK(s->nspecial == 9, "5x5 lattice: %d equations dependent while flat (9)", s->nspecial);
        MtState *a = run_with(s, MT_LINEAR_DIRECT, 1.0, &st1);
        CHECK(!mt_bchol_has_panels(a->chol), "5x5 lattice: the block kernels (no panels at this size)");
        MtState *b = run_with(s, MT_LINEAR_ITERATIVE, 1.0, &st2);
        CHECK(a->stats.npcg == 0 && a->stats.nreuse == 0 && a->pre == NULL, "direct run: no iterative solves");
        /* a step begins either with the re-detection's factor (reuse) or, when the same rows are near
         * dependence as before, by PCG with the last step's factor (next) */
        CHECK(b->stats.nreuse + b->stats.nnext >= 999 && b->stats.nnext >= 500 && b->stats.npcg >= 1000,
              "iterative run: %ld steps begun with the re-detection's factor, %ld with the last step's (≥ 500; ≥ 999 "
              "together), %ld solves by PCG (≥ 1000)", b->stats.nreuse, b->stats.nnext, b->stats.npcg);
        CHECK(b->stats.nfactor < a->stats.nfactor, "iterative run: fewer factorisations (%ld) than direct (%ld)", b->stats.nfactor, a->stats.nfactor);
        /* the lattice of this size is not chaotic over 1 s: the runs agree to the PCG tolerance, amplified */
        CHECK_ABS(max_diff(a->q, b->q, s->nq), 0, 1e-10, "5x5 lattice at 1 s: positions, iterative vs direct (m, quaternion)");
        CHECK_ABS(max_diff(a->u, b->u, s->nu), 0, 1e-8, "5x5 lattice at 1 s: velocities, iterative vs direct");
        CHECK(st2.gmax < 1e-4, "iterative run: constraint violation bounded (%.3g m)", st2.gmax);
        mt_state_free(a);
        mt_state_free(b);
        /* automatic choice: the step's factor is reused (special rows); PCG not at this size */
        MtState *c = run_with(s, MT_LINEAR_AUTO, 0.05, &st1);
        CHECK(c->pre != NULL && c->stats.nreuse > 0 && c->stats.npcg == 0, "auto on 5x5: reuse %ld, PCG %ld (reuse only)", c->stats.nreuse, c->stats.npcg);
        mt_state_free(c);
        mt_system_free(s);
        mt_model_free(m);
    }
    {
        /* 12 × 12 lattice: auto iterates (a factor costs ≥ 6 PCG iterations) */
        int plates[144];
        MtError err = {0};
        MtModel *m = build_grid(12, 12, 1e-3, 0.02, 0.01, plates, &err);
        MtSystem *s = compile(m);
        MtState *c = run_with(s, MT_LINEAR_AUTO, 0.02, &st1);
        CHECK(c->pre != NULL && c->stats.npcg > 0, "auto on 12x12: PCG solves %ld (> 0)", c->stats.npcg);
        mt_state_free(c);
        mt_system_free(s);
        mt_model_free(m);
    }
    {
        /* chain of 30 boxes over 0.5 s: PCG (forced) against direct; auto keeps direct */
        MtModel *m = chain_model(30);
        MtSystem *s = compile(m);
        MtState *a = run_with(s, MT_LINEAR_DIRECT, 0.5, &st1);
        MtState *b = run_with(s, MT_LINEAR_ITERATIVE, 0.5, &st2);
        CHECK(b->stats.npcg > 1000, "chain, iterative: %ld PCG solves (> 1000), %ld factorisations, %.2f iterations each", b->stats.npcg,
              b->stats.nfactor, b->stats.npcg ? (double)b->stats.npcg_iter / (double)b->stats.npcg : 0.0);
        CHECK_ABS(max_diff(a->q, b->q, s->nq), 0, 1e-11, "chain at 0.5 s: positions, iterative vs direct");
        CHECK_ABS(max_diff(a->u, b->u, s->nu), 0, 1e-9, "chain at 0.5 s: velocities, iterative vs direct");
        mt_state_free(a);
        mt_state_free(b);
        MtState *c = run_with(s, MT_LINEAR_AUTO, 0.01, &st1);
        CHECK(c->pre == NULL && c->stats.nfactor == c->stats.nevals, "auto on a chain: a new factor every evaluation (%ld of %ld)",
              c->stats.nfactor, c->stats.nevals);
        CHECK(c->pre_ratio > 0 && c->pre_ratio < 1.5, "chain: a factor costs %.2f PCG iterations (< 1.5)", c->pre_ratio);
        printf("chain of 30: a factor costs %.3f PCG iterations\n", c->pre_ratio);
        mt_state_free(c);
        mt_system_free(s);
        mt_model_free(m);
    }
    return mt_test_done();
}
