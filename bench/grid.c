/* grid.c — benchmark: R × C lattice of thin square plates joined by spherical
 * joints (closed loops), the same problem as the Simbody peer program of bench/run_grid.py.
 *
 *   plate (i, j), i = row 0..R-1 (along +y), j = column 0..C-1 (along +x):
 *   uniform box 1.25 kg, side a = 1/7 m, thickness 0.01 m; body frame origin
 *   at its centre, initially at ((j+½)a, (i+½)a, 0), flat in x–y, at rest.
 *   Gravity 9.81 m/s² along −z. Plate (0,0) is ball-jointed to ground at its
 *   corner (0,0,0); neighbours are ball-jointed at the mid-point of their
 *   common side. Every plate–plate joint also carries an isotropic torsional
 *   spring–damper on the relative rotation (c = 100 N·m/rad, d = 0.01
 *   N·m·s/rad): a BUSHING force element with rotational terms only, between
 *   the two markers of the joint (identical axes, so neutral when flat).
 *   All 1 + R(C−1) + C(R−1) joints are MT_JOINT_SPHERICAL: the flat lattice
 *   has (R−2)(C−2) redundant equations, which mt_system_compile removes.
 *   Classical RK4, fixed step h (default 1e-3 s) to tfinal (default 1 s),
 *   Baumgarte stabilisation Ts = 0.01 s, ξ = 1 (as bench/chain), no projection.
 *
 * Usage: grid R C [h] [tfinal] [reps] [Ts] [check] [linear]
 *        grid --kernels R [t0] [panels]
 *   Ts: Baumgarte period (default 0.01 s; 0 = off).
 *   linear: auto (default), direct or iterative: the solver's linear solves
 *   (docs/performance.md, "Stale factor"); the line reports which one ran
 *   (linear_used), the factorisations (all of them, the re-detection's
 *   included), the solves with a factor made at the same positions (reused),
 *   the re-detections that left the next step's first stage to the step's
 *   last factor (next_step), and the PCG solves and iterations.
 *   check (0/1, default 0): after the timed runs, one more untimed run that
 *   samples the constraint violation every 10 steps (gmax_run, gdmax_run).
 *
 * grid --kernels R [t0]: the cost of the linear-solve kernels on the R × R
 * lattice, at the state reached after t0 s (default 0.3, direct solves):
 * assembly of A, its factorisation, a solve with the factor, a product with
 * A (µs each, averaged over repeated calls), their ratio, and the ratio
 * mt_lin_configure estimates from the structure (mt_bchol_costs). Where the
 * structure chose supernodal panels (or panels = 1 forces them), the factor
 * and solve are timed with them and with the block kernels, alternately
 * (block_factor_us, block_solve_us).
 *
 * Only mt_run is timed (it includes the initial assembly). With reps > 1 the
 * state is rebuilt and the run repeated; wall_s is the median, wall_min_s the
 * fastest; cpu_s is the process CPU time of mt_run (median), which other jobs
 * on a shared machine disturb less than wall time. Prints one line of
 * key=value pairs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__) || defined(__SSE2__)
#include <pmmintrin.h>
#include <xmmintrin.h>
#define HAVE_MXCSR 1
#endif

#include "mt_bchol.h"
#include "mt_integrate.h"
#include "mt_kin.h"
#include "motus/model.h"
#include "mt_system.h"
#include "grid_model.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time of this process: less sensitive than wall time to other jobs on the machine. */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct {
    double gmax, gdmax, gall;
} Track;

static int track_frame(void *user, MtState *st)
{
    Track *tr = user;
    double g, gd;
    mt_constraint_error(st, &g, &gd);
    tr->gmax = fmax(tr->gmax, g);
    tr->gdmax = fmax(tr->gdmax, gd);
    for (int r = 0; r < st->sys->nrow; r++) tr->gall = fmax(tr->gall, fabs(st->g[r]));
    return 0;
}

/* grid --kernels R [t0] (see the header). */
static int kernels(int R, double t0, int force)
{
    MtError err;
    mt_error_clear(&err);
    int *plates = malloc(sizeof(int) * (size_t)(R * R));
    MtModel *m = plates ? build_grid(R, R, 1e-3, t0, 0.01, plates, &err) : NULL;
    MtSystem *s = m && !mt_model_validate(m, &err) ? mt_system_compile(m, &err) : NULL;
    if (s && mt_system_assemble(s, &err)) { mt_system_free(s); s = NULL; }
    MtState *st = s ? mt_state_new(s, &err) : NULL;
    MtRunStats rs;
    if (st) st->linear = MT_LINEAR_DIRECT;
    if (!st || mt_run(st, &s->solver, NULL, NULL, NULL, &rs, &err)) {
        fprintf(stderr, "grid: %s\n", err.msg);
        return 1;
    }
    int n = mt_bchol_rows(st->chol), K = 300, bad = 0;
    double *x = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * (size_t)n), fc, ic;
    if (!x || !y) return 1;
    mt_bchol_costs(st->chol, &fc, &ic);
    mt_stage_bodies(st, st->q);
    mt_stage_constraints(st, st->t, st->q, st->u);
    double t = now_s();
    for (int k = 0; k < K; k++) mt_assemble(st);
    double ta = (now_s() - t) / K;
    /* the supernodal panels (if the structure chose them) and the block
     * kernels alternately, 5 rounds, minimum of each: the same moment of a
     * shared machine for both */
    double tf = HUGE_VAL, ts = HUGE_VAL, tfb = HUGE_VAL, tsb = HUGE_VAL;
    if (force) mt_bchol_use_panels(st->chol, 1);
    int panels = mt_bchol_has_panels(st->chol);
    for (int round = 0; round < 5; round++)
        for (int path = panels ? 0 : 1; path < 2; path++) {
            if (path == 1 && panels) mt_bchol_use_panels(st->chol, 0);
            if (path == 0 && round > 0) mt_bchol_use_panels(st->chol, 1);
            t = now_s();
            for (int k = 0; k < K / 5; k++) {
                mt_assemble(st);
                mt_bchol_factor(st->chol, 0, MT_PIVOT_REG, &bad);
            }
            double f = (now_s() - t) / (K / 5) - ta;
            for (int i = 0; i < n; i++) x[i] = 1.0 / (i + 1);
            t = now_s();
            for (int k = 0; k < K; k++) mt_bchol_solve(st->chol, x);
            double sv = (now_s() - t) / K;
            if (path == 0) { tf = fmin(tf, f); ts = fmin(ts, sv); }
            else { tfb = fmin(tfb, f); tsb = fmin(tsb, sv); }
        }
    if (!panels) { tf = tfb; ts = tsb; }
    else mt_bchol_use_panels(st->chol, 1);
    mt_assemble(st);
    t = now_s();
    for (int k = 0; k < 5 * K; k++) mt_bchol_mulv(st->chol, x, y);
    double tm = (now_s() - t) / (5 * K);
    printf("code=motus model=grid kernels R=%d rows=%d t0=%g blocks_L=%d factor_ma=%.4g assemble_us=%.2f factor_us=%.2f "
           "solve_us=%.2f mulv_us=%.2f factor_per_iteration=%.2f costs_ratio=%.2f panels=%d block_factor_us=%.2f block_solve_us=%.2f\n",
           R, n, t0, mt_bchol_nnz_blocks(st->chol), fc, 1e6 * ta, 1e6 * tf, 1e6 * ts, 1e6 * tm, tf / (ts + tm), fc / ic,
           panels, 1e6 * tfb, 1e6 * tsb);
    free(x);
    free(y);
    free(plates);
    mt_state_free(st);
    mt_system_free(s);
    mt_model_free(m);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 2 && !strcmp(argv[1], "--kernels")) return kernels(atoi(argv[2]), argc > 3 ? atof(argv[3]) : 0.3, argc > 4 && atoi(argv[4]));
    int R = argc > 1 ? atoi(argv[1]) : 3;
    int C = argc > 2 ? atoi(argv[2]) : R;
    double h = argc > 3 ? atof(argv[3]) : 1e-3;
    double tfinal = argc > 4 ? atof(argv[4]) : 1.0;
    int reps = argc > 5 ? atoi(argv[5]) : 1;
    double ts = argc > 6 ? atof(argv[6]) : 0.01;
    int check = argc > 7 ? atoi(argv[7]) : 0;
    int linear = MT_LINEAR_AUTO;
    if (R < 1 || C < 1 || !(h > 0) || !(tfinal > 0) || reps < 1 || (argc > 8 && mt_linear_from_name(argv[8], &linear))) {
        fprintf(stderr, "usage: %s R C [h] [tfinal] [reps] [Ts] [check] [auto|direct|iterative]\n", argv[0]);
        return 2;
    }
#ifdef HAVE_MXCSR
    /* as bench/chain: tiny rotations early on must not turn into subnormals */
    _MM_SET_FLUSH_ZERO_MODE(_MM_FLUSH_ZERO_ON);
    _MM_SET_DENORMALS_ZERO_MODE(_MM_DENORMALS_ZERO_ON);
#endif

    MtError err;
    mt_error_clear(&err);
    int n = R * C;
    int *plates = malloc(sizeof(int) * (size_t)n);
    double *wall = malloc(sizeof(double) * (size_t)reps), *cpu = malloc(sizeof(double) * (size_t)reps);
    if (!plates || !wall || !cpu) {
        fprintf(stderr, "grid: out of memory\n");
        return 1;
    }
    MtModel *m = build_grid(R, C, h, tfinal, ts, plates, &err);
    if (!m) {
        fprintf(stderr, "grid: %s\n", err.msg);
        return 1;
    }
    if (mt_model_validate(m, &err)) {
        fprintf(stderr, "grid: %s\n", err.msg);
        return 1;
    }
    double tc0 = now_s();
    MtSystem *sys = mt_system_compile(m, &err);
    if (sys && mt_system_assemble(sys, &err)) { mt_system_free(sys); sys = NULL; }
    double tc1 = now_s();
    if (!sys) {
        fprintf(stderr, "grid: %s\n", err.msg);
        return 1;
    }
    int ndep_expect = R >= 2 && C >= 2 ? (R - 2) * (C - 2) : 0;
    if (sys->ndep != ndep_expect)
        fprintf(stderr, "grid: warning: %d redundant equations removed, expected (R-2)(C-2) = %d\n", sys->ndep,
                ndep_expect);

    double last[3] = {0, 0, 0}, gmax = 0, gdmax = 0, gall = 0;
    MtRunStats stats;
    memset(&stats, 0, sizeof stats);
    int blast = plates[n - 1], used_pcg = 0;
    long nfactor = 0, npcg = 0, npcg_iter = 0, nreuse = 0, nnext = 0;
    for (int r = 0; r < reps; r++) {
        MtState *st = mt_state_new(sys, &err);
        if (!st) {
            fprintf(stderr, "grid: %s\n", err.msg);
            return 1;
        }
        st->linear = linear;
        double c0 = cpu_s(), t0 = now_s();
        MtStatus rc = mt_run(st, &sys->solver, NULL, NULL, NULL, &stats, &err);
        double t1 = now_s(), c1 = cpu_s();
        if (rc) {
            fprintf(stderr, "grid: R=%d C=%d t=%g: %s\n", R, C, st->t, err.msg);
            return 1;
        }
        wall[r] = t1 - t0;
        cpu[r] = c1 - c0;
        mt_body_origin(st, st->q, st->u, blast, last, NULL);
        mt_constraint_error(st, &gmax, &gdmax);
        gall = 0;
        for (int k = 0; k < sys->nrow; k++) gall = fmax(gall, fabs(st->g[k]));
        used_pcg = st->pre != NULL;
        nfactor = st->stats.nfactor;
        npcg = st->stats.npcg;
        npcg_iter = st->stats.npcg_iter;
        nreuse = st->stats.nreuse;
        nnext = st->stats.nnext;
        mt_state_free(st);
    }
    Track tr = {0, 0, 0};
    if (check) {
        MtSolverSpec sv = sys->solver;
        sv.every = 10;
        MtState *st = mt_state_new(sys, &err);
        if (st) st->linear = linear;
        MtRunStats s2;
        if (!st || mt_run(st, &sv, track_frame, &tr, NULL, &s2, &err)) {
            fprintf(stderr, "grid: check run: %s\n", err.msg);
            return 1;
        }
        mt_state_free(st);
    }
    double wmin = wall[0];
    for (int r = 1; r < reps; r++) wmin = wall[r] < wmin ? wall[r] : wmin;
    qsort(wall, (size_t)reps, sizeof *wall, cmp_double);
    double wmed = reps % 2 ? wall[reps / 2] : 0.5 * (wall[reps / 2 - 1] + wall[reps / 2]);
    qsort(cpu, (size_t)reps, sizeof *cpu, cmp_double);
    double cmed = reps % 2 ? cpu[reps / 2] : 0.5 * (cpu[reps / 2 - 1] + cpu[reps / 2]);
    double evals = (double)stats.evals;
    int finite = isfinite(last[0]) && isfinite(last[1]) && isfinite(last[2]);
    printf("code=motus model=grid method=rk4 R=%d C=%d bodies=%d joints=%d rows=%d ndep=%d h=%g t=%g Ts=%g steps=%ld "
           "evals=%ld reps=%d wall_s=%.6f wall_min_s=%.6f cpu_s=%.6f compile_s=%.6f per_step_us=%.3f per_eval_us_per_body=%.5f "
           "last_centre=%.12f,%.12f,%.12f gmax=%.3e gdmax=%.3e gmax_all=%.3e",
           R, C, n, m->njoint, sys->nrow, sys->ndep, h, tfinal, ts, stats.steps, stats.evals, reps, wmed, wmin, cmed,
           tc1 - tc0, 1e6 * wmed / (double)(stats.steps ? stats.steps : 1), evals > 0 ? 1e6 * wmed / evals / n : 0.0,
           last[0], last[1], last[2], gmax, gdmax, gall);
    if (check) printf(" gmax_run=%.3e gdmax_run=%.3e gmax_all_run=%.3e", tr.gmax, tr.gdmax, tr.gall);
    printf(" linear=%s linear_used=%s factors=%ld reused=%ld next_step=%ld pcg_solves=%ld pcg_iters=%ld", mt_linear_name(linear),
           used_pcg ? "iterative" : "direct", nfactor, nreuse, nnext, npcg, npcg_iter);
    printf(" finite=%d\n", finite);
    free(wall);
    free(cpu);
    free(plates);
    mt_system_free(sys);
    mt_model_free(m);
    return finite ? 0 : 1;
}
