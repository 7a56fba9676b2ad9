/* loops.c — benchmark: the loop-closure methods of Motus (solver loops
 * lagrange | baumgarte | penalty | mlf) on the two models of Ivanov & Poloskov,
 * "Method of the modified Lagrange functions..." (docs/loops.md):
 *
 *   pendulum  two planar pendulums of n = 6 point masses (m = 10 kg, links
 *             l = 1.8 m as massless rods) hanging from pivots h = 4 m apart,
 *             gravity −y. Cross links: rungs A2k–B2k (length h) and diagonals
 *             A2k–B(2k−1) (length √(l²+h²)) as massless rods (distance joints),
 *             the other diagonals A(2k−1)–B2k as linear spring–dampers
 *             c = 5·10⁴ N/m, d = 100 N·s/m, free at the initial length. Starts
 *             hanging straight, every mass moving sideways as if both chains
 *             turned rigidly about their pivots at 0.5 rad/s. 20 s.
 *   lattice   40 thin square plates (side a = 1/7 m, 0.01 m thick, 1.25 kg):
 *             a 7 × 7 lattice without the plates (odd, odd), i.e. the centre of
 *             every 3 × 3 group, neighbours ball-jointed at mid-sides with
 *             torsional spring–dampers 100 N·m/rad, 0.01 N·m·s/rad (bushings,
 *             rotational terms). The point (−a/2, −a/20, 0) of plate (0,0), in
 *             its own axes, is ball-jointed to ground at the origin; gravity −z;
 *             flat at rest. 4 s.
 *
 * Usage: loops MODEL METHOD [INTEGRATOR] [CSV] [NU] [TS] [STEP]
 *   MODEL pendulum|lattice; METHOD lagrange|baumgarte|penalty|mlf;
 *   INTEGRATOR dp54 (default: adaptive, rtol 1e-6, atol 1e-8, output every
 *   0.01 s) or rk4 (fixed step STEP, default 1e-3 s); CSV: file for the
 *   history t, max |g| and max |ġ| over the position rows at every output
 *   ("-": none); NU: penalty/mlf controller frequency (default 1000 rad/s);
 *   TS: Baumgarte period (default 0.01 s, ξ = 1).
 * Prints one line of key=value pairs: CPU and wall time of mt_run, steps,
 * evaluations, largest and final violation. */
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

#include "mt_integrate.h"
#include "motus/model.h"
#include "mt_system.h"

static double now_s(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int point_mass(MtModel *m, const char *name, double x, double y, double vx, double vy, MtError *err)
{
    int b = mt_model_add_body(m, name, err);
    if (b < 0) return -1;
    MtBodySpec *s = &m->body[b];
    s->mass = 10;
    s->com[0] = s->com[1] = s->com[2] = 0;
    s->inertia[0] = s->inertia[1] = s->inertia[2] = 1e-3; /* a small sphere: the rods act at its centre */
    s->inertia[3] = s->inertia[4] = s->inertia[5] = 0;
    s->pos[0] = x;
    s->pos[1] = y;
    s->pos[2] = 0;
    s->vel[0] = vx;
    s->vel[1] = vy;
    s->vel[2] = 0;
    const double o[3] = {0, 0, 0};
    return mt_model_add_marker(m, b, "c", o, NULL, err);
}

static int rod(MtModel *m, const char *name, int mi, int mj, double len, MtError *err)
{
    int j = mt_model_add_joint(m, name, MT_JOINT_DISTANCE, mi, mj, err);
    if (j >= 0) m->joint[j].param = len;
    return j;
}

static MtModel *build_pendulum(MtError *err)
{
    const int n = 6;
    const double l = 1.8, h = 4, w = 0.5;
    MtModel *m = mt_model_new();
    if (!m) return NULL;
    snprintf(m->title, sizeof m->title, "double multi-link pendulum (Ivanov & Poloskov)");
    m->gravity[0] = 0;
    m->gravity[1] = -9.81;
    m->gravity[2] = 0;
    const double pa[3] = {0, 0, 0}, pb[3] = {h, 0, 0};
    int A[7], B[7];
    if ((A[0] = mt_model_add_marker(m, MT_GROUND, "pa", pa, NULL, err)) < 0) goto fail;
    if ((B[0] = mt_model_add_marker(m, MT_GROUND, "pb", pb, NULL, err)) < 0) goto fail;
    char name[32];
    for (int i = 1; i <= n; i++) { /* rigid turn about the pivots: v = ω × r, r = (0, −i l) */
        snprintf(name, sizeof name, "a%d", i);
        if ((A[i] = point_mass(m, name, 0, -i * l, w * i * l, 0, err)) < 0) goto fail;
        snprintf(name, sizeof name, "b%d", i);
        if ((B[i] = point_mass(m, name, h, -i * l, w * i * l, 0, err)) < 0) goto fail;
    }
    for (int i = 1; i <= n; i++) { /* the two chains first: later joints close the loops */
        snprintf(name, sizeof name, "la%d", i);
        if (rod(m, name, A[i], A[i - 1], l, err) < 0) goto fail;
        snprintf(name, sizeof name, "lb%d", i);
        if (rod(m, name, B[i], B[i - 1], l, err) < 0) goto fail;
    }
    double dg = sqrt(l * l + h * h);
    for (int k = 1; k <= n / 2; k++) {
        snprintf(name, sizeof name, "rung%d", k);
        if (rod(m, name, A[2 * k], B[2 * k], h, err) < 0) goto fail;
        snprintf(name, sizeof name, "diag%d", k);
        if (rod(m, name, A[2 * k], B[2 * k - 1], dg, err) < 0) goto fail;
        snprintf(name, sizeof name, "spring%d", k);
        if (mt_model_add_spring(m, name, A[2 * k - 1], B[2 * k], 5e4, 100, dg, 0, err) < 0) goto fail;
    }
    return m;
fail:
    mt_model_free(m);
    return NULL;
}

static int bushing(MtModel *m, const char *name, int mi, int mj, MtError *err)
{
    int f = mt_model_add_force(m, name, MT_FORCE_BUSHING, mi, mj, -1, err);
    if (f < 0) return -1;
    double *p = m->force[f].p;
    for (int k = 0; k < 12; k++) p[k] = 0;
    p[3] = p[4] = p[5] = 100;   /* torsional stiffness, N·m/rad */
    p[9] = p[10] = p[11] = 0.01; /* torsional damping, N·m·s/rad */
    return f;
}

static MtModel *build_lattice(MtError *err)
{
    const int N = 7;
    const double a = 1.0 / 7.0, th = 0.01, mass = 1.25;
    MtModel *m = mt_model_new();
    if (!m) return NULL;
    snprintf(m->title, sizeof m->title, "lattice of 40 plates (Ivanov & Poloskov)");
    m->gravity[0] = m->gravity[1] = 0;
    m->gravity[2] = -9.81;
    const double pin[3] = {-a / 2, -a / 20, 0}, left[3] = {-a / 2, 0, 0}, right[3] = {a / 2, 0, 0},
                 bottom[3] = {0, -a / 2, 0}, top[3] = {0, a / 2, 0}, origin[3] = {0, 0, 0};
    int g0 = mt_model_add_marker(m, MT_GROUND, "o", origin, NULL, err);
    if (g0 < 0) goto fail;
    int mk[7 * 7][4];
    char name[48];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            mk[i * N + j][0] = -1;
            if (i % 2 && j % 2) continue; /* centre of a 3 × 3 group */
            snprintf(name, sizeof name, "p%d_%d", i, j);
            int b = mt_model_add_body(m, name, err);
            if (b < 0) goto fail;
            MtBodySpec *s = &m->body[b];
            s->mass = mass;
            s->com[0] = s->com[1] = s->com[2] = 0;
            s->inertia[0] = s->inertia[1] = mass * (a * a + th * th) / 12;
            s->inertia[2] = mass * (a * a + a * a) / 12;
            s->inertia[3] = s->inertia[4] = s->inertia[5] = 0;
            s->pos[0] = (j + 0.5) * a; /* plate (0,0) centred at (a/2, a/20): its pin point at the origin */
            s->pos[1] = i * a + a / 20;
            s->pos[2] = 0;
            int *k = mk[i * N + j];
            if ((k[0] = mt_model_add_marker(m, b, "L", left, NULL, err)) < 0) goto fail;
            if ((k[1] = mt_model_add_marker(m, b, "R", right, NULL, err)) < 0) goto fail;
            if ((k[2] = mt_model_add_marker(m, b, "B", bottom, NULL, err)) < 0) goto fail;
            if ((k[3] = mt_model_add_marker(m, b, "T", top, NULL, err)) < 0) goto fail;
            if (i == 0 && j == 0) {
                int mp = mt_model_add_marker(m, b, "pin", pin, NULL, err);
                if (mp < 0 || mt_model_add_joint(m, "ground", MT_JOINT_SPHERICAL, mp, g0, err) < 0) goto fail;
            }
        }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            const int *k = mk[i * N + j];
            if (k[0] < 0) continue;
            if (j > 0 && mk[i * N + j - 1][0] >= 0) {
                snprintf(name, sizeof name, "h%d_%d", i, j);
                if (mt_model_add_joint(m, name, MT_JOINT_SPHERICAL, k[0], mk[i * N + j - 1][1], err) < 0) goto fail;
                snprintf(name, sizeof name, "sh%d_%d", i, j);
                if (bushing(m, name, k[0], mk[i * N + j - 1][1], err) < 0) goto fail;
            }
            if (i > 0 && mk[(i - 1) * N + j][0] >= 0) {
                snprintf(name, sizeof name, "v%d_%d", i, j);
                if (mt_model_add_joint(m, name, MT_JOINT_SPHERICAL, k[2], mk[(i - 1) * N + j][3], err) < 0) goto fail;
                snprintf(name, sizeof name, "sv%d_%d", i, j);
                if (bushing(m, name, k[2], mk[(i - 1) * N + j][3], err) < 0) goto fail;
            }
        }
    return m;
fail:
    mt_model_free(m);
    return NULL;
}

typedef struct {
    FILE *csv;
    double gmax, gfinal;
} Hist;

/* Largest |g| and |ġ| over the position rows in the solve (the frame's evaluation). */
static int frame(void *user, MtState *st)
{
    Hist *hs = user;
    const MtSystem *s = st->sys;
    double g = 0, gd = 0;
    for (int r = 0; r < s->nrow; r++) {
        if (s->level[r] != 0 || s->dep[r]) continue;
        g = fmax(g, fabs(st->g[r]));
        gd = fmax(gd, fabs(st->gd[r]));
    }
    hs->gmax = fmax(hs->gmax, g);
    hs->gfinal = g;
    if (hs->csv) fprintf(hs->csv, "%.6f,%.6e,%.6e\n", st->t, g, gd);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s pendulum|lattice lagrange|baumgarte|penalty|mlf [dp54|rk4] [CSV|-] [NU] [TS] [STEP]\n", argv[0]);
        return 2;
    }
    const char *model = argv[1], *method = argv[2], *integ = argc > 3 ? argv[3] : "dp54";
    const char *csvpath = argc > 4 ? argv[4] : "-";
    double nu = argc > 5 ? atof(argv[5]) : 1000, ts = argc > 6 ? atof(argv[6]) : 0.01;
    double step = argc > 7 ? atof(argv[7]) : 1e-3;
#ifdef HAVE_MXCSR
    _MM_SET_FLUSH_ZERO_MODE(_MM_FLUSH_ZERO_ON);
    _MM_SET_DENORMALS_ZERO_MODE(_MM_DENORMALS_ZERO_ON);
#endif
    MtError err;
    mt_error_clear(&err);
    int pend = !strcmp(model, "pendulum");
    if (!pend && strcmp(model, "lattice")) {
        fprintf(stderr, "loops: unknown model '%s' (pendulum or lattice)\n", model);
        return 2;
    }
    MtModel *m = pend ? build_pendulum(&err) : build_lattice(&err);
    if (!m) {
        fprintf(stderr, "loops: %s\n", err.msg);
        return 1;
    }
    if (mt_loop_method_from_name(method, &m->solver.loops)) {
        fprintf(stderr, "loops: unknown method '%s'\n", method);
        return 2;
    }
    m->solver.loop_freq = nu;
    double tfinal = pend ? 20 : 4;
    if (!strcmp(integ, "rk4")) {
        m->solver.method = MT_METHOD_RK4;
        m->solver.step = step;
        m->solver.every = (int)lround(0.01 / step) > 0 ? (int)lround(0.01 / step) : 1;
    } else {
        m->solver.method = MT_METHOD_DP54;
        m->solver.step = 0.01; /* output interval */
        m->solver.every = 1;
        m->solver.rtol = 1e-6;
        m->solver.atol = 1e-8;
    }
    m->solver.until = tfinal;
    m->solver.stab_period = ts;
    m->solver.stab_damping = 1;
    m->solver.correct = 0;
    MtSystem *sys = NULL;
    MtState *st = NULL;
    if (mt_model_validate(m, &err) || !(sys = mt_system_compile(m, &err)) || mt_system_assemble(sys, &err) ||
        !(st = mt_state_new(sys, &err))) {
        fprintf(stderr, "loops: %s\n", err.msg);
        return 1;
    }
    Hist hs = {NULL, 0, 0};
    if (strcmp(csvpath, "-")) {
        hs.csv = fopen(csvpath, "w");
        if (!hs.csv) {
            fprintf(stderr, "loops: cannot write '%s'\n", csvpath);
            return 1;
        }
        fprintf(hs.csv, "t,gmax,gdmax\n");
    }
    MtRunStats stats;
    memset(&stats, 0, sizeof stats);
    double w0 = now_s(CLOCK_MONOTONIC), c0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
    MtStatus rc = mt_run(st, &sys->solver, frame, &hs, NULL, &stats, &err);
    double c1 = now_s(CLOCK_PROCESS_CPUTIME_ID), w1 = now_s(CLOCK_MONOTONIC);
    if (hs.csv) fclose(hs.csv);
    printf("code=motus model=%s method=%s integrator=%s nu=%g Ts=%g bodies=%d rows=%d ndep=%d t=%g status=%s cpu_s=%.4f "
           "wall_s=%.4f steps=%ld rejected=%ld evals=%ld gmax=%.3e gfinal=%.3e%s%s\n",
           model, method, integ, nu, ts, sys->nbody, sys->nrow, sys->ndep, st->t, rc ? "failed" : "ok", c1 - c0, w1 - w0,
           stats.steps, stats.rejected, stats.evals, hs.gmax, hs.gfinal, rc ? " error=" : "", rc ? err.msg : "");
    mt_state_free(st);
    mt_system_free(sys);
    mt_model_free(m);
    return 0;
}
