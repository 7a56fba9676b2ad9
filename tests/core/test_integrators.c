/* Every integrator against closed forms and against each other
 * (docs/integrators.md):
 *  - large-amplitude pendulum period (120°) against 2π / (ω0 AGM(1, cos θ0/2)),
 *    with the order of convergence of the fixed-step methods;
 *  - double pendulum: energy drift (explicit methods) or dissipation
 *    (implicit ones) over 10 s;
 *  - a stiff case: a 10 g slider on a stiff spring–damper (period 50 µs)
 *    riding on a slow pendulum (period 1.7 s), with a step 100 times the
 *    stiff period: RK4 fails, the implicit methods run and get the slow
 *    period right; HHT-α and generalised-α damp the unresolved oscillation,
 *    their trapezoidal settings (α = 0, ρ∞ = 1) do not;
 *  - grouped finite differences: two uncoupled pendulums cost the Jacobian
 *    of one, and give the results of separate runs;
 *  - a clear error when Newton fails, Adams with projection. */
#include <string.h>

#include "mt_test.h"

#if defined(__SSE2__)
#include <xmmintrin.h>

/* The run's frames see subnormals flushed: a tiny number halved reads as 0. */
static int flush_seen(void *user, MtState *st)
{
    (void)st;
    volatile double tiny = 1e-308;
    int *seen = user;
    *seen += (tiny * 1e-10 == 0) && (_mm_getcsr() & 0x8040u) == 0x8040u;
    return 0;
}

/* mt_run flushes subnormals on its thread while it runs and gives the caller's mode back. */
static void flush_to_zero(void)
{
    MtSystem *s = mt_test_system("gravity 0 -9.81 0\nsolver method rk4 step 0.01 until 0.05\n"
                                 "ground\n marker o\nend\nbody b\n mass 1\n inertia 1 1 1\n marker o\nend\n"
                                 "joint j revolute b.o ground.o\n");
    MtError err = {0};
    MtState *st = mt_state_new(s, &err);
    unsigned int before = _mm_getcsr();
    int seen = 0;
    CHECK(mt_run(st, &s->solver, flush_seen, &seen, NULL, NULL, &err) == MT_OK, "run: %s", err.msg);
    volatile double tiny = 1e-308;
    CHECK(seen == 6, "every frame of the run saw subnormals flushed to zero (%d of 6)", seen);
    CHECK(_mm_getcsr() == before && tiny * 1e-10 != 0, "the caller's floating-point mode is back after the run");
    mt_state_free(st);
    mt_system_free(s);
}
#else
static void flush_to_zero(void) {}
#endif

/* ---- helpers ----------------------------------------------------------------- */

typedef struct {
    int n, cap, joint, body; /* joint whose coordinate is recorded; body whose ω_z is its rate */
    double *t, *th, *thd;
    double e0, emax, elast;  /* energy */
} Trace;

static int record(void *user, MtState *st)
{
    Trace *tr = user;
    if (tr->n == tr->cap) return 1;
    double T, V;
    mt_energy(st, st->q, st->u, &T, &V);
    if (tr->n == 0) tr->e0 = T + V;
    tr->emax = fmax(tr->emax, fabs(T + V - tr->e0));
    tr->elast = T + V;
    tr->t[tr->n] = st->t;
    tr->th[tr->n] = mt_joint_coordinate(st, st->q, tr->joint);
    tr->thd[tr->n] = st->u[6 * tr->body + 5];
    tr->n++;
    return 0;
}

static Trace *trace_new(int cap)
{
    Trace *tr = calloc(1, sizeof *tr);
    tr->cap = cap;
    tr->t = malloc(sizeof(double) * (size_t)cap);
    tr->th = malloc(sizeof(double) * (size_t)cap);
    tr->thd = malloc(sizeof(double) * (size_t)cap);
    return tr;
}

static void trace_free(Trace *tr)
{
    free(tr->t);
    free(tr->th);
    free(tr->thd);
    free(tr);
}

static void trace_reset(Trace *tr, int joint, int body)
{
    tr->n = 0;
    tr->joint = joint;
    tr->body = body;
    tr->e0 = tr->emax = tr->elast = 0;
}

/* Mean period from downward zero crossings 0 and 2, located on the cubic
 * Hermite interpolant of (θ, θ̇) between frames. */
static double period_of(const Trace *tr)
{
    double c[3];
    int k = mt_test_down_crossings(tr->t, tr->th, tr->thd, tr->n, c, 3);
    return k == 3 ? 0.5 * (c[2] - c[0]) : NAN;
}

/* Runs the model; returns the status (the error message is printed). */
static MtStatus run(const char *text, Trace *tr, MtRunStats *stats, MtError *err)
{
    MtSystem *s = mt_test_system(text);
    MtState *st = mt_state_new(s, err);
    MtStatus rc = st ? mt_run(st, &s->solver, record, tr, NULL, stats, err) : MT_ERR_NOMEM;
    if (rc) printf("  run stopped: %s\n", err->msg);
    mt_state_free(st);
    mt_system_free(s);
    return rc;
}

static void show(const char *what, const MtRunStats *s)
{
    printf("  %s: %ld steps, %ld rejected, %ld evaluations, %ld Jacobians, %ld factorisations, %ld iterations\n", what,
           s->steps, s->rejected, s->evals, s->jacobians, s->factorizations, s->newton);
}

/* ---- large-amplitude pendulum -------------------------------------------------- */

static const double PM = 2, PL = 0.8, PG = 9.81, PI_ = 1e-4;

static double pendulum_error(Trace *tr, const char *method, double step, double rtol, const char *extra)
{
    char text[2048];
    snprintf(text, sizeof text,
             "gravity 0 -9.81 0\n"
             "solver method %s step %g every %d until 6 rtol %g atol %g ts 0.05 xi 1 %s\n"
             "ground\n marker pivot\nend\n"
             "body bob\n mass 2\n com 0 -0.8 0\n inertia 1e-4 1e-4 1e-4\n orientation axis 0 0 1 120deg\n"
             " marker hinge\nend\n"
             "joint pin revolute bob.hinge ground.pivot\n",
             method, step, step < 1e-3 ? (int)lround(1e-3 / step) : 1, rtol, rtol * 1e-2, extra ? extra : "");
    trace_reset(tr, 0, 0);
    MtRunStats stats;
    MtError err = {0};
    if (run(text, tr, &stats, &err)) return NAN;
    char what[128];
    snprintf(what, sizeof what, "pendulum, %s, step %g, rtol %g %s", method, step, rtol, extra ? extra : "");
    show(what, &stats);
    const double w0 = sqrt(PM * PG * PL / (PI_ + PM * PL * PL)), th0 = 2 * M_PI / 3;
    double Tex = 2 * M_PI / (w0 * mt_test_agm(1, cos(th0 / 2)));
    return fabs(period_of(tr) - Tex) / Tex;
}

static void pendulum(Trace *tr)
{
    printf("large-amplitude pendulum (120 deg), period against the closed form\n");
    /* explicit and adaptive methods */
    CHECK_ABS(pendulum_error(tr, "rk4", 1e-3, 1e-10, NULL), 0, 1e-8, "rk4, h = 1 ms: relative period error");
    CHECK_ABS(pendulum_error(tr, "dp54", 1e-3, 1e-10, NULL), 0, 1e-9, "dp54, rtol 1e-10: relative period error");
    /* variable-order Adams: error about 1e3·rtol here */
    CHECK_ABS(pendulum_error(tr, "adams", 1e-3, 1e-11, NULL), 0, 1e-8, "adams, rtol 1e-11: relative period error");
    CHECK_ABS(pendulum_error(tr, "adams", 1e-3, 1e-7, NULL), 0, 1e-4, "adams, rtol 1e-7: relative period error");
    /* implicit Euler: first order; its numerical damping shrinks the
     * amplitude, which shortens the period of this pendulum (error ≈ 50·h) */
    double e3 = pendulum_error(tr, "euler", 1e-3, 1e-10, NULL), e4 = pendulum_error(tr, "euler", 1e-4, 1e-10, NULL);
    CHECK_ABS(e4, 0, 1e-2, "euler, h = 0.1 ms: relative period error (first order)");
    CHECK(e3 / e4 > 5 && e3 / e4 < 20, "euler: error ratio h = 1 ms / 0.1 ms is %.3g, first order wants about 10", e3 / e4);
    printf("  euler: error ratio for h 1 ms / 0.1 ms = %.3g (first order: 10)\n", e3 / e4);
    /* Park: second order, error ≈ 0.3·h²/s² */
    double p2 = pendulum_error(tr, "park", 1e-2, 1e-10, NULL), p3 = pendulum_error(tr, "park", 1e-3, 1e-10, NULL);
    CHECK_ABS(p3, 0, 1e-6, "park, h = 1 ms: relative period error (second order)");
    CHECK(p2 / p3 > 50 && p2 / p3 < 200, "park: error ratio h = 10 ms / 1 ms is %.3g, second order wants about 100", p2 / p3);
    printf("  park: error ratio for h 10 ms / 1 ms = %.3g (second order: 100)\n", p2 / p3);
    /* and on to 0.1 ms, where t0 + i·h rounds to steps 1e-11 off h: those are not shortened steps (they
     * made Park fall back to BDF2 at most steps: 1.0e-7) */
    double p4 = pendulum_error(tr, "park", 1e-4, 1e-10, NULL);
    CHECK(p3 / p4 > 50 && p3 / p4 < 200, "park: error ratio h = 1 ms / 0.1 ms is %.3g, second order wants about 100", p3 / p4);
    printf("  park: error ratio for h 1 ms / 0.1 ms = %.3g (second order: 100)\n", p3 / p4);
    /* HHT-α (α = −0.05) and generalised-α (ρ∞ = 0.8): second-order phase,
     * plus a small algorithmic damping of the resolved motion */
    CHECK_ABS(pendulum_error(tr, "hht", 1e-3, 1e-10, NULL), 0, 3e-6, "hht alpha -0.05, h = 1 ms: relative period error");
    CHECK_ABS(pendulum_error(tr, "galpha", 1e-3, 1e-10, NULL), 0, 2e-6, "galpha rho 0.8, h = 1 ms: relative period error");
    /* their trapezoidal settings: no damping, pure second order */
    double t2 = pendulum_error(tr, "hht", 1e-2, 1e-10, "alpha 0"), t3 = pendulum_error(tr, "hht", 1e-3, 1e-10, "alpha 0");
    CHECK_ABS(t3, 0, 1e-6, "hht alpha 0 (trapezoidal), h = 1 ms: relative period error");
    CHECK(t2 / t3 > 50 && t2 / t3 < 200, "hht alpha 0: error ratio h = 10 ms / 1 ms is %.3g, second order wants about 100",
          t2 / t3);
    printf("  hht alpha 0: error ratio for h 10 ms / 1 ms = %.3g (second order: 100)\n", t2 / t3);
    CHECK_ABS(pendulum_error(tr, "galpha", 1e-3, 1e-10, "rho 1"), 0, 1e-6, "galpha rho 1 (trapezoidal), h = 1 ms: relative period error");
}

/* ---- double pendulum energy ---------------------------------------------------- */

static double double_pendulum(Trace *tr, const char *method, double step, double rtol, const char *extra)
{
    char text[2048];
    snprintf(text, sizeof text,
             "gravity 0 -9.81 0\nsolver method %s step %g every %d until 10 rtol %g atol %g ts 0.05 %s\n"
             "ground\n marker o\nend\n"
             "body upper\n mass 1\n com 0.5 0 0\n inertia 1e-3 0.0838 0.0838\n marker o\n marker tip at 1 0 0\nend\n"
             "body lower\n mass 0.7\n com 0.35 0 0\n inertia 1e-3 0.03 0.03\n position 1 0 0\n marker o\nend\n"
             "joint shoulder revolute upper.o ground.o\njoint elbow revolute lower.o upper.tip\n",
             method, step, step < 1e-3 ? (int)lround(1e-3 / step) : 1, rtol, rtol * 1e-2, extra ? extra : "");
    trace_reset(tr, 0, 0);
    MtRunStats stats;
    MtError err = {0};
    if (run(text, tr, &stats, &err)) return NAN;
    char what[128];
    snprintf(what, sizeof what, "double pendulum, %s, step %g, rtol %g %s", method, step, rtol, extra ? extra : "");
    show(what, &stats);
    const double scale = (1.0 * 0.5 + 0.7 * 1.35) * 9.81; /* energy released falling from horizontal to hanging */
    return tr->emax / scale;
}

static void energy(Trace *tr)
{
    printf("double pendulum released horizontal: largest |E - E0| over 10 s / (energy released falling)\n");
    CHECK_ABS(double_pendulum(tr, "rk4", 1e-3, 1e-10, NULL), 0, 1e-6, "rk4, h = 1 ms: energy drift");
    CHECK_ABS(double_pendulum(tr, "dp54", 1e-3, 1e-10, NULL), 0, 1e-9, "dp54, rtol 1e-10: energy drift");
    CHECK_ABS(double_pendulum(tr, "adams", 1e-3, 1e-10, NULL), 0, 1e-8, "adams, rtol 1e-10: energy drift");
    /* the implicit methods dissipate: the energy must fall, not rise */
    struct { const char *m; double h; const char *x; double tol; } im[] = {
        {"euler", 1e-4, NULL, 0.1},  {"park", 1e-3, NULL, 2e-3},        {"hht", 1e-3, NULL, 1e-3},
        {"galpha", 1e-3, NULL, 1e-3}, {"hht", 1e-3, "alpha 0", 1e-3},   {"galpha", 1e-3, "rho 1", 1e-3},
    };
    for (size_t i = 0; i < sizeof im / sizeof *im; i++) {
        char what[128];
        double e = double_pendulum(tr, im[i].m, im[i].h, 1e-10, im[i].x);
        snprintf(what, sizeof what, "%s %s, h = %g s: energy drift", im[i].m, im[i].x ? im[i].x : "", im[i].h);
        CHECK_ABS(e, 0, im[i].tol, what);
        if (!im[i].x) CHECK(tr->elast < tr->e0, "%s: the energy rose from %.9g to %.9g J", im[i].m, tr->e0, tr->elast);
    }
}

/* ---- stiff: slider on a stiff spring, and a slow pendulum ---------------------- */

/* arm: 1 kg, centre of mass 0.5 m below the pivot, turning about z, released
 * at 0.5 rad; slider: 10 g on a prismatic joint, held 1 m from its anchor by a
 * spring k = 1.6e8 N/m, c = 2.5 N·s/m (ξ = 0.001): stiff period
 * 2π·√(m/k) = 49.7 µs; started 10 µm off its rest length (a tension of
 * 1.6 kN, 16000 times its weight).
 *  riding = 1: the slider rides on the arm (rail along the arm, spring to the
 *              pivot): the stiff direction turns with the pendulum;
 *  riding = 0: the slider hangs from the ground 2 m beside the pendulum. */
static const double SK = 1.6e8, SMS = 0.01, SAMP = 1e-5, STH0 = 0.5;

static const char *stiff_model(char *text, size_t len, int riding, const char *method, double step, const char *extra)
{
    char slider[512];
    if (riding)
        snprintf(slider, sizeof slider,
                 "body slider\n mass %g\n inertia 1e-6 1e-6 1e-6\n orientation axis 0 0 1 %.17g\n"
                 " position %.17g %.17g 0\n marker o z 0 1 0 x 1 0 0\nend\n"
                 "joint rail prismatic slider.o arm.rail\n"
                 "spring holder slider.o arm.hinge k %g c 2.5 length 1\n",
                 SMS, STH0, (1 + SAMP) * sin(STH0), -(1 + SAMP) * cos(STH0), SK);
    else
        snprintf(slider, sizeof slider,
                 "ground\n marker top at 2 0 0\n marker rail at 2 -1 0 z 0 1 0 x 1 0 0\nend\n"
                 "body slider\n mass %g\n inertia 1e-6 1e-6 1e-6\n position 2 %.17g 0\n marker o z 0 1 0 x 1 0 0\nend\n"
                 "joint rail prismatic slider.o ground.rail\n"
                 "spring holder slider.o ground.top k %g c 2.5 length 1\n",
                 SMS, -(1 + SAMP), SK);
    snprintf(text, len,
             "gravity 0 -9.81 0\n"
             "solver method %s step %g until 4 rtol 1e-9 atol 1e-11 %s\n"
             "ground\n marker pivot\nend\n"
             "body arm\n mass 1\n com 0 -0.5 0\n inertia 0.0833333333333333 1e-3 0.0833333333333333\n"
             " orientation axis 0 0 1 %.17g\n marker hinge\n marker rail at 0 -1 0 z 0 1 0 x 1 0 0\nend\n"
             "joint pin revolute arm.hinge ground.pivot\n%s",
             method, step, extra ? extra : "", STH0, slider);
    return text;
}

/* Slider oscillation amplitude: half the largest step-to-step change of the
 * rail coordinate over the frames in the first 0.1 s and after 3 s (an
 * unresolved oscillation alternates from step to step; the slow part changes
 * by < 1e-9 m per step). */
typedef struct {
    Trace base;
    double amp_early, amp_late, dmax, prev;
    int n;
} Stiff;

static int stiff_cb(void *user, MtState *st)
{
    Stiff *s = user;
    double d = mt_joint_coord(st, st->q, 1, MT_COORD_DISP);
    if (!isfinite(d)) return 1;
    if (s->n > 0) {
        double a = 0.5 * fabs(d - s->prev);
        if (st->t <= 0.1) s->amp_early = fmax(s->amp_early, a);
        if (st->t >= 3) s->amp_late = fmax(s->amp_late, a);
    }
    s->dmax = fmax(s->dmax, fabs(d));
    s->prev = d;
    s->n++;
    return record(&s->base, st);
}

static MtStatus stiff_run(Stiff *s, int riding, const char *method, double step, const char *extra, MtRunStats *stats,
                          MtError *err)
{
    char text[4096];
    stiff_model(text, sizeof text, riding, method, step, extra);
    MtSystem *sys = mt_test_system(text);
    MtState *st = mt_state_new(sys, err);
    trace_reset(&s->base, 0, 0);
    s->amp_early = s->amp_late = s->dmax = s->prev = 0;
    s->n = 0;
    MtStatus rc = mt_run(st, &sys->solver, stiff_cb, s, NULL, stats, err);
    mt_state_free(st);
    mt_system_free(sys);
    return rc;
}

static void stiff(Trace *tr)
{
    const double h = 5e-3, Tstiff = 2 * M_PI * sqrt(SMS / SK);
    printf("stiff: slider on a spring of period %.3g s and a pendulum; step %g s = %.0f stiff periods\n", Tstiff, h,
           h / Tstiff);
    Stiff s = {0};
    s.base = *tr;
    MtRunStats stats;
    MtError err = {0};
    for (int riding = 1; riding >= 0; riding--) {
        const char *where = riding ? "slider riding on the arm" : "slider beside the pendulum";
        /* RK4 at this step must fail (cleanly) or give a non-finite or unbounded result */
        MtStatus rc = stiff_run(&s, riding, "rk4", h, NULL, &stats, &err);
        printf("  %s, rk4: %s\n", where, rc ? err.msg : "ran");
        CHECK(rc != MT_OK || !isfinite(s.prev) || s.dmax > 1, "%s: rk4 at h = %g s ran stably (largest |rail| %.3g m)",
              where, h, s.dmax);
        /* the slow pendulum: compound pendulum, with the slider at 1 m when riding */
        const double ms = riding ? SMS : 0, Ip = 0.0833333333333333 + 1 * 0.25 + ms * (1 + 1e-4), md = 1 * 0.5 + ms;
        const double w0 = sqrt(md * 9.81 / Ip), Tex = 2 * M_PI / (w0 * mt_test_agm(1, cos(STH0 / 2)));
        /* tolerances: first order (euler) 3e-3; second order ≈ 0.1·(ω0·h)² + the
         * period change by the numerical damping of hht/galpha */
        struct { const char *m, *x; double tol; } im[] = {
            {"euler", NULL, 3e-3}, {"park", NULL, 1e-4}, {"hht", NULL, 1e-4}, {"galpha", NULL, 1e-4},
            {"hht", "alpha 0", 1e-4}, {"galpha", "rho 1", 1e-4},
        };
        /* riding: the trapezoidal settings keep the unresolved oscillation (and
         * its 1.6 kN alternating tension, whose geometric stiffness turns
         * with the arm) alive, which makes their Newton iterations fail after
         * a few seconds: not run (docs/integrators.md) */
        int nim = riding ? 4 : 6;
        for (int i = 0; i < nim; i++) {
            char what[200];
            snprintf(what, sizeof what, "%s, %s %s", where, im[i].m, im[i].x ? im[i].x : "");
            rc = stiff_run(&s, riding, im[i].m, h, im[i].x, &stats, &err);
            CHECK(rc == MT_OK, "%s: %s", what, err.msg);
            if (rc) continue;
            show(what, &stats);
            printf("  %s: slider amplitude %.3g m in the first 0.1 s, %.3g m after 3 s; largest |rail| %.3g m\n", what,
                   s.amp_early, s.amp_late, s.dmax);
            CHECK(s.dmax < 2 * SAMP, "%s: the slider left its spring: largest |rail| %.3g m", what, s.dmax);
            double T = period_of(&s.base);
            char check[300];
            snprintf(check, sizeof check, "%s, h = 5 ms: relative error of the slow period", what);
            CHECK_ABS(fabs(T - Tex) / Tex, 0, im[i].tol, check);
            if (!strcmp(im[i].m, "hht") || !strcmp(im[i].m, "galpha")) {
                if (im[i].x) /* trapezoidal: |R(∞)| = 1, the unresolved oscillation persists */
                    CHECK(s.amp_late > 0.5 * s.amp_early, "%s: the oscillation decayed from %.3g to %.3g m", what,
                          s.amp_early, s.amp_late);
                else /* ρ∞ < 1: it dies out */
                    CHECK(s.amp_late < 1e-4 * s.amp_early, "%s: the oscillation did not decay (%.3g to %.3g m)", what,
                          s.amp_early, s.amp_late);
            }
        }
    }
}

/* ---- grouped finite differences -------------------------------------------------- */

static const char *TWO =
    "gravity 0 -9.81 0\nsolver method %s step 1e-3 until 2 rtol 1e-10 atol 1e-12 ts 0.05\n"
    "ground\n marker a\n marker b at 3 0 0\nend\n"
    "body one\n mass 2\n com 0 -0.8 0\n inertia 1e-4 1e-4 1e-4\n orientation axis 0 0 1 120deg\n marker hinge\nend\n"
    "body two\n mass 1\n com 0 -0.5 0\n inertia 1e-4 1e-4 1e-4\n position 3 0 0\n orientation axis 0 0 1 60deg\n"
    " marker hinge\nend\n"
    "joint pa revolute one.hinge ground.a\njoint pb revolute two.hinge ground.b\n%s";

static void grouping(Trace *tr)
{
    printf("grouped finite differences\n");
    char text[2048];
    MtRunStats st2, st1;
    MtError err = {0};
    /* the two pendulums together, then each alone */
    snprintf(text, sizeof text, TWO, "hht", "");
    trace_reset(tr, 1, 1);
    CHECK(run(text, tr, &st2, &err) == MT_OK, "two pendulums: %s", err.msg);
    show("two uncoupled pendulums", &st2);
    double th_two = tr->th[tr->n - 1];
    /* evaluations: 1 at t = 0, 1 + 12·2 checking that the groups are uncoupled,
     * one per Newton iteration, 1 + 12·1 per Jacobian (the groups share them) */
    CHECK(st2.evals == 1 + 25 + st2.newton + 13 * st2.jacobians,
          "two uncoupled pendulums: %ld evaluations, expected 26 + %ld iterations + 13 x %ld Jacobians", st2.evals,
          st2.newton, st2.jacobians);
    snprintf(text, sizeof text,
             "gravity 0 -9.81 0\nsolver method hht step 1e-3 until 2 rtol 1e-10 atol 1e-12 ts 0.05\n"
             "ground\n marker b at 3 0 0\nend\n"
             "body two\n mass 1\n com 0 -0.5 0\n inertia 1e-4 1e-4 1e-4\n position 3 0 0\n orientation axis 0 0 1 60deg\n"
             " marker hinge\nend\njoint pb revolute two.hinge ground.b\n");
    trace_reset(tr, 0, 0);
    CHECK(run(text, tr, &st1, &err) == MT_OK, "one pendulum: %s", err.msg);
    CHECK_ABS(th_two, tr->th[tr->n - 1], 1e-8, "second pendulum's angle at 2 s, alone and next to the first [rad]");
    CHECK(st1.evals == 1 + st1.newton + 13 * st1.jacobians, "one pendulum: %ld evaluations, expected 1 + %ld + 13 x %ld",
          st1.evals, st1.newton, st1.jacobians);
    /* coupled by a spring: one group of two bodies, 1 + 12·2 per Jacobian */
    snprintf(text, sizeof text, TWO, "galpha", "spring link one.hinge two.hinge k 10 length 3\n");
    trace_reset(tr, 1, 1);
    CHECK(run(text, tr, &st2, &err) == MT_OK, "two pendulums and a spring: %s", err.msg);
    show("two pendulums coupled by a spring", &st2);
    CHECK(st2.evals == 1 + st2.newton + 25 * st2.jacobians,
          "coupled pendulums: %ld evaluations, expected 1 + %ld iterations + 25 x %ld Jacobians", st2.evals, st2.newton,
          st2.jacobians);
}

/* ---- failures and options ------------------------------------------------------- */

static void failures(Trace *tr)
{
    printf("a step whose Newton iteration fails is split; when 64 parts fail too, the run stops with the time and "
           "the advice to reduce the step\n");
    /* a fast spinning, strongly coupled double pendulum at a step of 0.3 s, then 3 s */
    char text[2048];
    const char *fmt =
             "gravity 0 -9.81 0\nsolver method park step %s until 3 ts 0.05\n"
             "ground\n marker o\nend\n"
             "body upper\n mass 1\n com 0.5 0 0\n inertia 1e-3 0.0838 0.0838\n omega 0 0 30\n marker o\n"
             " marker tip at 1 0 0\nend\n"
             "body lower\n mass 0.7\n com 0.35 0 0\n inertia 1e-3 0.03 0.03\n position 1 0 0\n omega 0 0 -40\n"
             " marker o\nend\n"
             "joint shoulder revolute upper.o ground.o\njoint elbow revolute lower.o upper.tip\n";
    MtRunStats stats;
    MtError err = {0};
    snprintf(text, sizeof text, fmt, "0.3");
    trace_reset(tr, 0, 0);
    MtStatus rc = run(text, tr, &stats, &err);
    CHECK(rc == MT_OK, "park at h = 0.3 s on a fast double pendulum: split steps, status %d (%s)", rc, err.msg);
    CHECK(stats.rejected > 0, "park at h = 0.3 s: %ld steps split", stats.rejected);
    /* 0.3 s steps (ten times the Baumgarte time constant): the joints drift, but within 1 % of the 1 m link */
    CHECK(stats.gmax < 1e-2, "park at h = 0.3 s: the joints hold at the frames (%.3g m)", stats.gmax);
    snprintf(text, sizeof text, fmt, "3");
    trace_reset(tr, 0, 0);
    memset(&err, 0, sizeof err);
    rc = run(text, tr, &stats, &err);
    CHECK(rc == MT_ERR_SOLVE, "park at h = 3 s on a fast double pendulum: status %d", rc);
    CHECK(strstr(err.msg, "park") && strstr(err.msg, "t = ") && strstr(err.msg, "reduce the step") &&
              strstr(err.msg, "step 0.046875 s"),
          "message names the method, the time, the smallest part tried (3 s / 64) and the remedy: %s", err.msg);

    printf("adams with projection after every step keeps its history and the constraints\n");
    double e = pendulum_error(tr, "adams", 1e-2, 1e-10, "correct both");
    CHECK_ABS(e, 0, 1e-7, "adams, rtol 1e-10, correct both, frames every 10 ms: relative period error");
}

int main(void)
{
    Trace *tr = trace_new(20000);
    flush_to_zero();
    pendulum(tr);
    energy(tr);
    stiff(tr);
    grouping(tr);
    failures(tr);
    trace_free(tr);
    return mt_test_done();
}
