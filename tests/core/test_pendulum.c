/* Simple (physical) pendulum against closed form: small-amplitude period
 * 2π√(I/mgL) and large-amplitude period 4√(I/mgL)·K(sin θ0/2) via the AGM. */
#include <string.h>

#include "mt_test.h"

typedef struct {
    int n, cap;
    double *t, *th, *thd;
} Trace;

static int record(void *user, MtState *st)
{
    Trace *tr = user;
    if (tr->n == tr->cap) return 1;
    tr->t[tr->n] = st->t;
    tr->th[tr->n] = mt_joint_coordinate(st, st->q, 0);
    tr->thd[tr->n] = st->u[5];
    tr->n++;
    return 0;
}

static double period(double theta0, const char *method, double step, double rtol, Trace *tr)
{
    char text[2048];
    snprintf(text, sizeof text,
             "gravity 0 -9.81 0\n"
             "solver method %s step %g until 6 rtol %g atol %g ts 0.05 xi 1\n"
             "ground\n marker pivot\nend\n"
             "body bob\n mass 2\n com 0 -0.8 0\n inertia 1e-4 1e-4 1e-4\n"
             " orientation axis 0 0 1 %.17g\n marker hinge\nend\n"
             "joint pin revolute bob.hinge ground.pivot\n",
             method, step, rtol, rtol * 1e-2, theta0);
    MtSystem *s = mt_test_system(text);
    tr->n = 0;
    MtRunStats stats;
    MtState *st = mt_test_run(s, record, tr, &stats);
    printf("  %s: %ld steps, %ld evaluations, constraint violation %.2g\n", method, stats.steps, stats.evals, stats.gmax);
    double c[4];
    int n = mt_test_down_crossings(tr->t, tr->th, tr->thd, tr->n, c, 4);
    mt_state_free(st);
    mt_system_free(s);
    CHECK(n >= 3, "expected 3 downward zero crossings, found %d", n);
    return n >= 3 ? 0.5 * (c[2] - c[0]) : NAN;
}

int main(void)
{
    Trace tr = {0, 10000, malloc(sizeof(double) * 10000), malloc(sizeof(double) * 10000), malloc(sizeof(double) * 10000)};
    const double m = 2, L = 0.8, g = 9.81, Izz = 1e-4;
    const double w0 = sqrt(m * g * L / (Izz + m * L * L));

    /* small amplitude: T = 2π/ω0 (1 + θ0²/16 + …); θ0 = 1e-3 rad keeps the correction at 6e-8 */
    double T = period(1e-3, "rk4", 1e-3, 1e-10, &tr);
    CHECK_REL(T, 2 * M_PI / w0, 5e-7, "small-amplitude period, RK4 h = 1 ms [s]");

    /* large amplitude, 120°: T = 2π / (ω0 AGM(1, cos θ0/2)) */
    double th0 = 2 * M_PI / 3;
    double Tex = 2 * M_PI / (w0 * mt_test_agm(1, cos(th0 / 2)));
    T = period(th0, "dp54", 1e-3, 1e-11, &tr);
    CHECK_REL(T, Tex, 1e-8, "large-amplitude period (120 deg), DP54 rtol 1e-11 [s]");
    T = period(th0, "rk4", 1e-3, 1e-10, &tr);
    CHECK_REL(T, Tex, 1e-8, "large-amplitude period (120 deg), RK4 h = 1 ms [s]");
    free(tr.t);
    free(tr.th);
    free(tr.thd);
    return mt_test_done();
}
