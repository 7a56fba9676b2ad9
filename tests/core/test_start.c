/* A run that starts from the static equilibrium (solver `start statics`,
 * mt_run_start): a mass hanging on a spring stays where m g / k puts it, and
 * with an initial velocity moves as y_eq + (v0/ω) sin ωt; a pendulum whose
 * `initial` angle is 0.5 rad starts hanging; a clamped flexible beam under
 * gravity keeps its static sag (the modal coordinate of `statics`)
 * instead of ringing about it; without the setting each of them moves. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "motus/analysis.h"
#include "mt_flex.h"
#include "mt_system.h"
#include "mt_test.h"

typedef struct {
    int n;
    double tmax, ymin, ymax, err; /* err: largest deviation from the closed form */
    double y0, v0, om;            /* closed form y0 + (v0/ω) sin ωt */
    int idx;                      /* q index followed */
} Watch;

static int watch_cb(void *user, MtState *st)
{
    Watch *w = user;
    double y = st->q[w->idx];
    if (!w->n) w->ymin = w->ymax = y;
    w->ymin = fmin(w->ymin, y), w->ymax = fmax(w->ymax, y);
    if (isfinite(w->om)) w->err = fmax(w->err, fabs(y - (w->y0 + w->v0 / w->om * sin(w->om * st->t))));
    w->n++;
    return 0;
}

static MtStatus run_started(const char *text, Watch *w, MtError *err)
{
    MtSystem *s = mt_test_system(text);
    MtState *st = mt_state_new(s, err);
    MtStatus rc = st ? mt_run_start(st, &s->solver, err) : MT_ERR_NOMEM;
    if (!rc) rc = mt_run(st, &s->solver, watch_cb, w, NULL, NULL, err);
    mt_state_free(st);
    mt_system_free(s);
    return rc;
}

#define SPRING(START, VEL)                                                                                   \
    "gravity 0 -9.81 0\nsolver method rk4 step 1e-3 until 1 " START "\n"                                   \
    "ground\n marker top z 0 1 0\nend\n"                                                                   \
    "body bob\n mass 2\n inertia 0.01 0.01 0.01\n position 0 -0.5 0\n velocity " VEL "\n marker m z 0 1 0\nend\n"                       \
    "joint slide prismatic bob.m ground.top\n"                                                              \
    "spring s bob.m ground.top k 400 length 0.5\n"

static void spring_mass(void)
{
    const double m = 2, k = 400, g = 9.81, om = sqrt(k / m), yeq = -0.5 - m * g / k;
    MtError err = {0};
    Watch w = {0, 0, 0, 0, 0, yeq, 0, om, 1};
    /* the bob starts 0.5 m below the anchor, at the spring's free length: assembled, it falls and swings */
    MtStatus rc = run_started(SPRING("start statics", "0 0 0"), &w, &err);
    CHECK(rc == MT_OK, "spring-mass from statics runs: %s", err.msg);
    printf("spring-mass from statics: y in [%.15g, %.15g], m g / k below the free length %.15g\n", w.ymin, w.ymax, yeq);
    CHECK_ABS(w.err, 0, 1e-12, "spring-mass from statics: largest distance from y_eq over 1 s [m]");
    Watch a = {0, 0, 0, 0, 0, 0, 0, NAN, 1};
    rc = run_started(SPRING("", "0 0 0"), &a, &err);
    CHECK(rc == MT_OK && a.ymax - a.ymin > 1.5 * m * g / k,
          "spring-mass assembled: it swings through 2 m g / k (%.4g m)", a.ymax - a.ymin);
    /* an initial velocity is kept: y = y_eq + (v0/ω) sin ωt */
    Watch v = {0, 0, 0, 0, 0, yeq, 0.1, om, 1};
    rc = run_started(SPRING("start statics", "0 0.1 0"), &v, &err);
    CHECK(rc == MT_OK, "spring-mass from statics with v0: %s", err.msg);
    CHECK_ABS(v.err, 0, 1e-9, "spring-mass from statics, v0 = 0.1 m/s: largest distance from y_eq + (v0/w) sin wt [m]");
}

static void pendulum(void)
{
    /* `initial` holds the angle at assembly; statics lets it hang: the bob at (0, -1) */
    const char *text = "gravity 0 -9.81 0\nsolver method rk4 step 1e-3 until 0.5 start statics\n"
                       "ground\n marker o\nend\n"
                       "body bob\n mass 1\n inertia 0.01 0.01 0.01\n position 1 0 0\n marker o at -1 0 0\nend\n"
                       "joint pin revolute bob.o ground.o\ninitial pin 0.5\n";
    MtError err = {0};
    Watch w = {0, 0, 0, 0, 0, -1, 0, INFINITY, 1};
    w.om = NAN;
    MtStatus rc = run_started(text, &w, &err);
    CHECK(rc == MT_OK, "pendulum from statics runs: %s", err.msg);
    CHECK_ABS(w.ymin, -1, 1e-10, "pendulum from statics: the bob's lowest y [m]");
    CHECK_ABS(w.ymax, -1, 1e-10, "pendulum from statics: the bob's highest y [m]");
}

static void flexible_beam(void)
{
    char text[1024];
    const char *fmt = "gravity 0 -9.81 0\nsolver method hht step 1e-3 until 0.2 %s\n"
                      "ground\n marker base\nend\n"
                      "body beam\n"
                      " flexible beam length 1 elements 20 section rect 0.02 0.01 E 2.1e11 nu 0.3 rho 7850 "
                      "method cb modes 4 zeta 0\n"
                      " marker root node 1\n marker tip node 21\nend\n"
                      "joint hold fixed beam.root ground.base\n";
    /* the equilibrium's first modal coordinate, by statics */
    snprintf(text, sizeof text, fmt, "");
    MtSystem *s = mt_test_system(text);
    MtError err = {0};
    MtState *st = mt_state_new(s, &err);
    CHECK(st && mt_statics(st, NULL, NULL, &err) == MT_OK, "beam statics: %s", err.msg);
    int iw = 7 * s->nbody + s->flex[0].moff; /* the mode that carries the sag most */
    for (int k = 1; st && k < s->flex[0].N; k++)
        if (fabs(st->q[7 * s->nbody + s->flex[0].moff + k]) > fabs(st->q[iw])) iw = 7 * s->nbody + s->flex[0].moff + k;
    double w1 = st ? st->q[iw] : NAN;
    int mode = iw - 7 * s->nbody - s->flex[0].moff + 1;
    mt_state_free(st);
    mt_system_free(s);
    snprintf(text, sizeof text, fmt, "start statics");
    Watch w = {0, 0, 0, 0, 0, w1, 0, NAN, iw};
    MtStatus rc = run_started(text, &w, &err);
    CHECK(rc == MT_OK, "beam from statics runs: %s", err.msg);
    printf("clamped beam: statics w%d = %.12g; from statics in [%.12g, %.12g]\n", mode, w1, w.ymin, w.ymax);
    CHECK(fabs(w1) > 1e-6, "the sag is not nothing (w1 = %.3g)", w1);
    CHECK_ABS(fmax(fabs(w.ymax - w1), fabs(w.ymin - w1)) / fabs(w1), 0, 1e-6,
              "beam from statics: the sagging mode stays at its static value, relative");
    snprintf(text, sizeof text, fmt, "");
    Watch a = {0, 0, 0, 0, 0, 0, 0, NAN, iw};
    rc = run_started(text, &a, &err);
    CHECK(rc == MT_OK && a.ymax - a.ymin > 0.5 * fabs(w1),
          "beam assembled: it rings through more than half its sag (%.3g of %.3g)", a.ymax - a.ymin, fabs(w1));
}

int main(void)
{
    spring_mass();
    pendulum();
    flexible_beam();
    return mt_test_done();
}
