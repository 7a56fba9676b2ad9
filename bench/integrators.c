/* integrators.c — accuracy against cost of every integrator (docs/integrators.md).
 *
 *   pendulum         bob 2 kg at 0.8 m on a revolute joint, released at 120°;
 *                    6 s; error = relative error of the period (mean of two
 *                    periods from downward zero crossings, located on the cubic
 *                    Hermite interpolant of the frames) against the closed form
 *                    2π / (ω0 · AGM(1, cos 60°)).
 *   double pendulum  the model of tests/core/test_closed_form.c (two links
 *                    released horizontal, chaotic); 10 s; error = largest
 *                    |E(t) − E(0)| over the frames divided by the energy
 *                    released falling from horizontal to hanging.
 *
 * Frames are written every 1 ms (fixed-step methods: every step when the step
 * is larger). Baumgarte Ts = 0.05 s, ξ = 1. evals counts every evaluation of
 * the equations of motion, including finite-difference Jacobians; wall is the
 * smallest of `reps` runs (default 3) of mt_run alone.
 *
 * Usage: integrators [reps] [--quick]      prints a Markdown table
 * --quick runs one configuration per method (the smoke test). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mt_integrate.h"
#include "motus/model.h"
#include "mt_system.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double agm(double a, double b)
{
    for (int i = 0; i < 60 && fabs(a - b) > 1e-17 * a; i++) {
        double an = 0.5 * (a + b);
        b = sqrt(a * b);
        a = an;
    }
    return a;
}

typedef struct {
    int pendulum; /* 1: pendulum (crossings), 0: double pendulum (energy) */
    double tprev, thprev, thdprev;
    int ncross, n;
    double cross[8];
    double e0, emax;
} Rec;

static int record(void *user, MtState *st)
{
    Rec *r = user;
    if (r->pendulum) {
        double th = mt_joint_coordinate(st, st->q, 0), thd = st->u[5], t = st->t;
        if (r->n > 0 && r->thprev > 0 && th <= 0 && r->ncross < 8) {
            /* Newton on the Hermite cubic of (θ, θ̇) between the frames */
            double h = t - r->tprev, s = r->thprev / (r->thprev - th);
            for (int it = 0; it < 50; it++) {
                double s2 = s * s, s3 = s2 * s;
                double f = (2 * s3 - 3 * s2 + 1) * r->thprev + (s3 - 2 * s2 + s) * h * r->thdprev + (-2 * s3 + 3 * s2) * th +
                           (s3 - s2) * h * thd;
                double df = (6 * s2 - 6 * s) * r->thprev + (3 * s2 - 4 * s + 1) * h * r->thdprev + (-6 * s2 + 6 * s) * th +
                            (3 * s2 - 2 * s) * h * thd;
                double ds = f / df;
                s -= ds;
                if (fabs(ds) < 1e-16) break;
            }
            r->cross[r->ncross++] = r->tprev + s * h;
        }
        r->tprev = t;
        r->thprev = th;
        r->thdprev = thd;
    } else {
        double T, V;
        mt_energy(st, st->q, st->u, &T, &V);
        if (r->n == 0) r->e0 = T + V;
        r->emax = fmax(r->emax, fabs(T + V - r->e0));
    }
    r->n++;
    return 0;
}

static const char *PENDULUM =
    "gravity 0 -9.81 0\n"
    "solver method %s step %g every %d until 6 rtol %g atol %g ts 0.05 xi 1 hmax 1\n"
    "ground\n marker pivot\nend\n"
    "body bob\n mass 2\n com 0 -0.8 0\n inertia 1e-4 1e-4 1e-4\n orientation axis 0 0 1 120deg\n marker hinge\nend\n"
    "joint pin revolute bob.hinge ground.pivot\n";

static const char *DOUBLE =
    "gravity 0 -9.81 0\n"
    "solver method %s step %g every %d until 10 rtol %g atol %g ts 0.05 xi 1 hmax 1\n"
    "ground\n marker o\nend\n"
    "body upper\n mass 1\n com 0.5 0 0\n inertia 1e-3 0.0838 0.0838\n marker o\n marker tip at 1 0 0\nend\n"
    "body lower\n mass 0.7\n com 0.35 0 0\n inertia 1e-3 0.03 0.03\n position 1 0 0\n marker o\nend\n"
    "joint shoulder revolute upper.o ground.o\njoint elbow revolute lower.o upper.tip\n";

typedef struct {
    const char *method;
    double step, rtol; /* step: fixed step, or output interval of dp54/adams */
} Config;

/* Runs one configuration; returns the error measure (NAN on failure). */
static double run(int pendulum, const Config *c, int reps, MtRunStats *stats, double *wall, char *msg, size_t len)
{
    char text[2048];
    int adaptive = !strcmp(c->method, "dp54") || !strcmp(c->method, "adams");
    double step = adaptive ? 1e-3 : c->step;
    int every = (adaptive || c->step >= 1e-3) ? 1 : (int)lround(1e-3 / c->step);
    snprintf(text, sizeof text, pendulum ? PENDULUM : DOUBLE, c->method, step, every, c->rtol, c->rtol * 1e-2);
    MtError err = {0};
    MtModel *m = mt_model_parse(text, "<bench>", &err);
    MtSystem *s = m ? mt_system_compile(m, &err) : NULL;
    if (s && mt_system_assemble(s, &err)) { mt_system_free(s); s = NULL; }
    mt_model_free(m);
    if (!s) {
        snprintf(msg, len, "%s", err.msg);
        return NAN;
    }
    double best = INFINITY, result = NAN;
    msg[0] = 0;
    for (int r = 0; r < reps; r++) {
        MtState *st = mt_state_new(s, &err);
        Rec rec = {0};
        rec.pendulum = pendulum;
        double t0 = now_s();
        MtStatus rc = mt_run(st, &s->solver, record, &rec, NULL, stats, &err);
        double dt = now_s() - t0;
        mt_state_free(st);
        if (rc) {
            snprintf(msg, len, "%s", err.msg);
            result = NAN;
            break;
        }
        best = fmin(best, dt);
        if (pendulum) {
            const double w0 = sqrt(2 * 9.81 * 0.8 / (1e-4 + 2 * 0.64));
            double Tex = 2 * M_PI / (w0 * agm(1, cos(M_PI / 3)));
            result = rec.ncross >= 3 ? fabs(0.5 * (rec.cross[2] - rec.cross[0]) - Tex) / Tex : NAN;
        } else
            result = rec.emax / ((1.0 * 0.5 + 0.7 * 1.35) * 9.81);
    }
    mt_system_free(s);
    *wall = best;
    return result;
}

int main(int argc, char **argv)
{
    int reps = 3, quick = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) quick = 1;
        else reps = atoi(argv[i]) > 0 ? atoi(argv[i]) : 1;
    }
    static const Config full[] = {
        {"rk4", 1e-2, 1e-8},    {"rk4", 1e-3, 1e-8},     {"dp54", 0, 1e-6},      {"dp54", 0, 1e-9},
        {"dp54", 0, 1e-12},     {"adams", 0, 1e-6},      {"adams", 0, 1e-9},     {"adams", 0, 1e-12},
        {"euler", 1e-3, 1e-8},  {"euler", 1e-4, 1e-8},   {"park", 1e-2, 1e-8},   {"park", 1e-3, 1e-8},
        {"park", 1e-4, 1e-10},  {"hht", 1e-2, 1e-8},     {"hht", 1e-3, 1e-8},    {"hht", 1e-4, 1e-10},
        {"galpha", 1e-2, 1e-8}, {"galpha", 1e-3, 1e-8}, {"galpha", 1e-4, 1e-10},
    };
    static const Config small[] = {
        {"rk4", 1e-2, 1e-8}, {"dp54", 0, 1e-6}, {"adams", 0, 1e-6}, {"euler", 1e-2, 1e-8},
        {"park", 1e-2, 1e-8}, {"hht", 1e-2, 1e-8}, {"galpha", 1e-2, 1e-8},
    };
    const Config *cf = quick ? small : full;
    int n = quick ? (int)(sizeof small / sizeof *small) : (int)(sizeof full / sizeof *full);
    if (quick) reps = 1;
    printf("| method | step / rtol | pendulum: period error | evals | Jacobians | wall, ms | double pendulum: energy drift | evals | Jacobians | wall, ms |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|\n");
    int failed = 0;
    for (int i = 0; i < n; i++) {
        const Config *c = &cf[i];
        char setting[64];
        int adaptive = !strcmp(c->method, "dp54") || !strcmp(c->method, "adams");
        if (adaptive) snprintf(setting, sizeof setting, "rtol %g", c->rtol);
        else if (!strcmp(c->method, "rk4")) snprintf(setting, sizeof setting, "h %g", c->step);
        else snprintf(setting, sizeof setting, "h %g (Newton rtol %g)", c->step, c->rtol);
        printf("| %s | %s", c->method, setting);
        for (int p = 1; p >= 0; p--) {
            MtRunStats stats = {0};
            double wall = 0;
            char msg[512];
            double e = run(p, c, reps, &stats, &wall, msg, sizeof msg);
            if (isnan(e)) {
                printf(" | failed | %ld | %ld | | ", stats.evals, stats.jacobians);
                fprintf(stderr, "%s %s: %s\n", c->method, setting, msg);
                failed = 1;
            } else
                printf(" | %.1e | %ld | %ld | %.1f", e, stats.evals, stats.jacobians, 1e3 * wall);
        }
        printf(" |\n");
        fflush(stdout);
    }
    return quick && failed;
}
