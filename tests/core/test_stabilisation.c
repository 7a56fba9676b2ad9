/* Baumgarte stabilisation (g̈ + 2ξΩġ + Ω²g = 0): a perturbed constraint decays
 * when it is on and stays violated when it is off; over a long run the
 * violation drifts without it and stays bounded with it. */
#include <string.h>

#include "mt_test.h"

static const char *pendulum =
    "gravity 0 -9.81 0\nsolver ts %g xi 1\nground\n marker o\nend\n"
    "body bob\n mass 1\n com 0 -1 0\n inertia 1e-3 1e-3 1e-3\n orientation axis 0 0 1 0.5\n marker o\nend\n"
    "body bob2\n mass 1\n com 0 -0.5 0\n inertia 1e-2 1e-3 1e-2\n position 0.479425538604203 -0.877582561890373 0\n"
    " orientation axis 0 0 1 1.2\n marker o\nend\n"
    "joint pin revolute bob.o ground.o\njoint pin2 revolute bob2.o bob.o\n";

/* Fixed-step RK4 on mt_deriv, deliberately without any projection. */
static double integrate(double ts, double perturb, double vperturb, double h, double tend)
{
    char text[2048];
    snprintf(text, sizeof text, pendulum, ts);
    MtSystem *s = mt_test_system(text);
    MtError err = {0};
    MtState *st = mt_state_new(s, &err);
    mt_project_positions(st, 1e-13, 50, &err);
    mt_project_velocities(st, &err);
    st->q[0] += perturb;  /* pull the pendulum off its hinge */
    st->u[0] += vperturb; /* or give it a velocity that violates the hinge */
    int n = 13 * s->nbody, nq = 7 * s->nbody;
    double *y = malloc(sizeof(double) * 6 * (size_t)n), *k1 = y + n, *k2 = k1 + n, *k3 = k2 + n, *k4 = k3 + n, *yt = k4 + n;
    memcpy(y, st->q, sizeof(double) * (size_t)nq);
    memcpy(y + nq, st->u, sizeof(double) * (size_t)(n - nq));
    long steps = (long)(tend / h + 0.5);
    for (long i = 0; i < steps; i++) {
        double t = i * h;
        mt_deriv(st, t, y, k1, &err);
        for (int j = 0; j < n; j++) yt[j] = y[j] + 0.5 * h * k1[j];
        mt_deriv(st, t + 0.5 * h, yt, k2, &err);
        for (int j = 0; j < n; j++) yt[j] = y[j] + 0.5 * h * k2[j];
        mt_deriv(st, t + 0.5 * h, yt, k3, &err);
        for (int j = 0; j < n; j++) yt[j] = y[j] + h * k3[j];
        mt_deriv(st, t + h, yt, k4, &err);
        for (int j = 0; j < n; j++) y[j] += h / 6 * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
        for (int b = 0; b < s->nbody; b++) {
            double *p = y + 7 * b + 3, nn = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]);
            for (int k = 0; k < 4; k++) p[k] /= nn;
        }
    }
    memcpy(st->q, y, sizeof(double) * (size_t)nq);
    memcpy(st->u, y + nq, sizeof(double) * (size_t)(n - nq));
    st->t = tend;
    double g, gd;
    mt_constraint_error(st, &g, &gd);
    free(y);
    mt_state_free(st);
    mt_system_free(s);
    return g;
}

int main(void)
{
    double on = integrate(0.05, 1e-3, 0, 1e-4, 0.5);
    double off = integrate(0, 1e-3, 0, 1e-4, 0.5);
    printf("  perturbed by 1 mm: violation after 0.5 s %.3g with stabilisation, %.3g without\n", on, off);
    CHECK_ABS(on, 0, 1e-9, "perturbed constraint decays with stabilisation (Ts = 0.05 s, xi = 1) [m]");
    CHECK(off > 0.5e-3, "without stabilisation the 1 mm violation persists (got %.3g m)", off);
    /* A velocity violation of 1 um/s makes the hinge drift apart linearly in time without stabilisation. */
    double von = integrate(0.05, 0, 1e-6, 1e-3, 4);
    double voff = integrate(0, 0, 1e-6, 1e-3, 4);
    printf("  velocity perturbed by 1 um/s: violation after 4 s %.3g with stabilisation, %.3g without\n", von, voff);
    CHECK(voff > 1e-6, "without stabilisation the constraint drifts (%.3g m after 4 s, expected > 1e-6)", voff);
    CHECK_ABS(von, 0, 1e-9, "with stabilisation the violation stays at the integration-error level [m]");
    return mt_test_done();
}
