/* chain.c — benchmark: chain of N rigid boxes joined end to end by spherical
 * joints, the same problem as the Simbody peer program of bench/run_chain.py.
 *
 *   body i (i = 0..N-1): uniform box, 1 kg, 0.1 m along x, 0.01 x 0.01 m
 *   cross-section; body frame origin at its inboard joint point (x = 0.1 i at
 *   t = 0), centre of mass at (0.05, 0, 0) in body axes. Body 0 is joined to
 *   ground at the origin, body i to body i-1 at the tip of body i-1. Gravity
 *   9.81 m/s² along -y; horizontal along +x, at rest.
 *   Classical RK4, fixed step h (default 1e-3 s) to tfinal (default 1 s),
 *   Baumgarte stabilisation at the default Ts = 0.01 s, ξ = 1, no projection.
 *
 * Usage: chain N [h] [tfinal] [reps] [Ts]   (Ts: Baumgarte period, default 0.01 s; 0 = off)
 * Only mt_run is timed (it includes the initial assembly, a Newton projection
 * that converges at once here). With reps > 1 the state is rebuilt and the run
 * repeated; wall_s is the median, wall_min_s the fastest; cpu_s and
 * cpu_min_s the same for the CPU time of the thread that runs mt_run, which
 * other jobs on a shared machine disturb less than wall time.
 * Prints one line of key=value pairs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__) || defined(__SSE2__)
#include <pmmintrin.h>
#include <xmmintrin.h>
#define HAVE_MXCSR 1
#endif

#include "mt_integrate.h"
#include "motus/model.h"
#include "mt_system.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time of the calling thread (not of OpenBLAS's idle workers). */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static MtModel *build_chain(int n, double h, double tfinal, double ts, MtError *err)
{
    const double L = 0.1, w = 0.01, mass = 1.0;
    MtModel *m = mt_model_new();
    if (!m) return NULL;
    snprintf(m->title, sizeof m->title, "chain of %d boxes", n);
    m->gravity[0] = 0;
    m->gravity[1] = -9.81;
    m->gravity[2] = 0;
    m->solver.method = MT_METHOD_RK4;
    m->solver.step = h;
    m->solver.until = tfinal;
    m->solver.every = 1 << 30; /* output only at t = 0 and at the end */
    m->solver.stab_period = ts; /* Baumgarte Ts (default 0.01 s); <= 0: off */
    m->solver.stab_damping = 1.0;
    m->solver.correct = 0;

    const double origin[3] = {0, 0, 0}, tip[3] = {L, 0, 0};
    int base = mt_model_add_marker(m, MT_GROUND, "o", origin, NULL, err);
    if (base < 0) goto fail;
    for (int i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "b%d", i);
        int b = mt_model_add_body(m, name, err);
        if (b < 0) goto fail;
        MtBodySpec *s = &m->body[b];
        s->mass = mass;
        s->com[0] = L / 2;
        s->com[1] = s->com[2] = 0;
        s->inertia[0] = mass * (w * w + w * w) / 12; /* Ixx */
        s->inertia[1] = mass * (L * L + w * w) / 12; /* Iyy */
        s->inertia[2] = mass * (L * L + w * w) / 12; /* Izz */
        s->inertia[3] = s->inertia[4] = s->inertia[5] = 0;
        s->pos[0] = L * i;
        s->pos[1] = s->pos[2] = 0;
        /* rot identity (set by mt_model_add_body), vel = omega = 0 */
        int mi = mt_model_add_marker(m, b, "o", origin, NULL, err);
        if (mi < 0) goto fail;
        snprintf(name, sizeof name, "j%d", i);
        if (mt_model_add_joint(m, name, MT_JOINT_SPHERICAL, mi, base, err) < 0) goto fail;
        base = mt_model_add_marker(m, b, "tip", tip, NULL, err);
        if (base < 0) goto fail;
    }
    return m;
fail:
    mt_model_free(m);
    return NULL;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10;
    double h = argc > 2 ? atof(argv[2]) : 1e-3;
    double tfinal = argc > 3 ? atof(argv[3]) : 1.0;
    int reps = argc > 4 ? atoi(argv[4]) : 1;
    double ts = argc > 5 ? atof(argv[5]) : 0.01;
    if (n < 1 || !(h > 0) || !(tfinal > 0) || reps < 1) {
        fprintf(stderr, "usage: %s N [h] [tfinal] [reps] [Ts]\n", argv[0]);
        return 2;
    }
#ifdef HAVE_MXCSR
    /* Bodies near the free end rotate by < 1e-300 rad early on: subnormals. */
    _MM_SET_FLUSH_ZERO_MODE(_MM_FLUSH_ZERO_ON);
    _MM_SET_DENORMALS_ZERO_MODE(_MM_DENORMALS_ZERO_ON);
#endif

    MtError err;
    mt_error_clear(&err);
    MtModel *m = build_chain(n, h, tfinal, ts, &err);
    if (!m) {
        fprintf(stderr, "chain: %s\n", err.msg);
        return 1;
    }
    if (mt_model_validate(m, &err)) {
        fprintf(stderr, "chain: %s\n", err.msg);
        return 1;
    }
    MtSystem *sys = mt_system_compile(m, &err);
    if (sys && mt_system_assemble(sys, &err)) { mt_system_free(sys); sys = NULL; }
    if (!sys) {
        fprintf(stderr, "chain: %s\n", err.msg);
        return 1;
    }

    double *wall = malloc(sizeof(double) * (size_t)reps), *cpu = malloc(sizeof(double) * (size_t)reps);
    double last[3] = {0, 0, 0}, gmax = 0, gdmax = 0;
    MtRunStats stats;
    memset(&stats, 0, sizeof stats);
    for (int r = 0; r < reps; r++) {
        MtState *st = mt_state_new(sys, &err);
        if (!st) {
            fprintf(stderr, "chain: %s\n", err.msg);
            return 1;
        }
        double c0 = cpu_s(), t0 = now_s();
        MtStatus rc = mt_run(st, &sys->solver, NULL, NULL, NULL, &stats, &err);
        double t1 = now_s(), c1 = cpu_s();
        if (rc) {
            fprintf(stderr, "chain: %s\n", err.msg);
            return 1;
        }
        wall[r] = t1 - t0;
        cpu[r] = c1 - c0;
        mt_body_origin(st, st->q, st->u, n - 1, last, NULL);
        mt_constraint_error(st, &gmax, &gdmax);
        mt_state_free(st);
    }
    double wmin = wall[0];
    for (int r = 1; r < reps; r++) wmin = wall[r] < wmin ? wall[r] : wmin;
    qsort(wall, (size_t)reps, sizeof *wall, cmp_double);
    double wmed = reps % 2 ? wall[reps / 2] : 0.5 * (wall[reps / 2 - 1] + wall[reps / 2]);
    qsort(cpu, (size_t)reps, sizeof *cpu, cmp_double);
    double cmed = reps % 2 ? cpu[reps / 2] : 0.5 * (cpu[reps / 2 - 1] + cpu[reps / 2]);
    double evals = (double)stats.evals;
    printf("code=motus model=chain method=rk4 N=%d h=%g t=%g Ts=%g steps=%ld evals=%ld reps=%d wall_s=%.6f wall_min_s=%.6f "
           "cpu_s=%.6f cpu_min_s=%.6f per_step_us=%.3f per_eval_us_per_body=%.5f last_origin=%.12f,%.12f,%.12f gmax=%.3e gdmax=%.3e\n",
           n, h, tfinal, ts, stats.steps, stats.evals, reps, wmed, wmin, cmed, cpu[0], 1e6 * wmed / (double)(stats.steps ? stats.steps : 1),
           evals > 0 ? 1e6 * wmed / evals / n : 0.0, last[0], last[1], last[2], gmax, gdmax);
    free(wall);
    free(cpu);
    mt_system_free(sys);
    mt_model_free(m);
    return 0;
}
