/* Control channels, events and loop-closure methods against closed form:
 * first- and second-order lag step responses (also with the implicit
 * methods), a PID holding a pendulum at 30 deg with zero steady error (with
 * dp54 and hht; PD alone leaves the closed-form error) and its output limit,
 * a joint locked at a time, events with every integrator (a crossing of
 * time, a time inside a step, a free fall's crossing and a pendulum's
 * quarter period from the elliptic integral), a joint that breaks into free
 * fall, a spring switched off, and a four-bar kept closed by penalty and by
 * the modified Lagrange function; an event that changes nothing costs no
 * accuracy (dp54 restarts from a step ending at the event, not from the
 * interpolant). */
#include <string.h>

#include "motus/results.h"
#include "mt_test.h"

typedef struct { MtCsv *csv; double *v; int col; double last, vmax, vmin, t; int n; } Rec;
/* The torque-free runs' frames on their 0.1 s grid: stored (the reference) or
 * compared (the largest error over the frames; an event's own frame is off the grid). */
static struct { double *ref; int store; double err; } grid;
static int rec_cb(void *u, MtState *st)
{
    Rec *r = u;
    mt_frame_values(r->csv, st, r->v);
    r->last = r->v[r->col];
    double k = st->t / 0.1;
    long i = lround(k);
    if (grid.ref && fabs(k - (double)i) < 1e-9 && i >= 0 && i <= 50) {
        if (grid.store) grid.ref[i] = r->last;
        else grid.err = fmax(grid.err, fabs(r->last - grid.ref[i]));
    }
    if (r->n++ == 0) r->vmax = r->vmin = r->last;
    r->vmax = fmax(r->vmax, r->last);
    r->vmin = fmin(r->vmin, r->last);
    r->t = st->t;
    return 0;
}

static Rec run(const char *text, const char *col, MtRunStats *stats, MtState **keep)
{
    MtSystem *s = mt_test_system(text);
    MtError err = {0};
    Rec r = {0};
    r.csv = mt_csv_new(s, NULL, &err);
    CHECK(r.csv != NULL, "columns: %s", err.msg);
    r.col = -1;
    for (int k = 0; r.csv && k < mt_csv_ncols(r.csv); k++)
        if (!strcmp(mt_csv_colname(r.csv, k), col)) r.col = k;
    CHECK(r.col >= 0, "column %s", col);
    r.v = malloc(sizeof(double) * (size_t)(r.csv ? mt_csv_ncols(r.csv) : 1));
    MtRunStats st0;
    MtState *st = mt_test_run(s, r.col >= 0 ? rec_cb : NULL, &r, stats ? stats : &st0);
    free(r.v);
    mt_csv_free(r.csv);
    if (keep) *keep = st;
    else {
        mt_state_free(st);
        mt_system_free(s);
    }
    return r;
}

#define G0 "ground\n marker o\n marker rail z 1 0 0\nend\n"

int main(void)
{
    /* first-order lag: 2 (1 − e^{−t/0.5}) */
    Rec r = run("solver method rk4 step 1e-3 until 1\n" G0 "control lag1 lag input {1} k 2 tau 0.5\n", "lag1.out", NULL, NULL);
    CHECK_ABS(r.last, 2 * (1 - exp(-2.0)), 1e-10, "first-order lag step response at t = 1 s");
    /* second-order: 1 − e^{−ζωt}(cos ω_d t + ζ/√(1−ζ²) sin ω_d t) */
    r = run("solver method rk4 step 1e-3 until 0.5\n" G0 "control sec second input {1} k 1 wn 10 zeta 0.5\n", "sec.out", NULL, NULL);
    double wd = 10 * sqrt(0.75), tt = 0.5;
    CHECK_ABS(r.last, 1 - exp(-5 * tt) * (cos(wd * tt) + 0.5 / sqrt(0.75) * sin(wd * tt)), 1e-10,
              "second-order step response at t = 0.5 s");
    /* a PID with a motor torque holds a pendulum at 0.5 rad */
    const char *pend = "gravity 0 -9.81 0\nsolver method dp54 step 1e-2 until %g rtol 1e-9 atol 1e-12\n" G0
                       "body arm\n mass 1\n com 0 -0.5 0\n inertia 0.02 0.001 0.02\n marker c\nend\n"
                       "joint pin revolute arm.c ground.o\n%s";
    char t[2048];
    const MtSystem *sy;
    /* A PID with a motor torque holds the pendulum (m = 1 kg, centre of mass 0.5 m below the pin)
     * at 30 deg with zero steady error: the integral ends up holding the gravity torque
     * m g l sin 30°. Without it (PD only) the arm settles where kp e = m g l sin(30° − e). */
    for (int k = 0; k < 3; k++) {
        snprintf(t, sizeof t, pend, 10.0,
                 k < 2 ? "control ctl pid input {pin.angle} setpoint {pi/6} kp 60 ki 150 kd 8\n"
                         "force motor actuator arm.c ground.o tz {ctl}\n"
                       : "control ctl pid input {pin.angle} setpoint {pi/6} kp 60 ki 0 kd 8\n"
                         "force motor actuator arm.c ground.o tz {ctl}\n");
        if (k == 1) memcpy(strstr(t, "dp54"), "hht ", 4); /* the implicit HHT-α carries the controller's states too */
        MtState *sp = NULL;
        r = run(t, "pin.angle", NULL, &sp);
        double out = sp->cout[0], mgl = 9.81 * 0.5;
        sy = sp->sys;
        mt_state_free(sp);
        mt_system_free((MtSystem *)sy);
        if (k < 2) {
            CHECK_ABS(r.last, M_PI / 6, 1e-9, k ? "hht: PID holds the pendulum at 30 deg after 10 s [rad]" : "PID holds the pendulum at 30 deg after 10 s [rad]");
            CHECK_ABS(out, mgl * 0.5, 1e-6, "PID output = gravity torque m g l sin 30 deg [N m]");
        } else {
            double e = 0; /* kp e = m g l sin(30° − e) by fixed point */
            for (int it = 0; it < 100; it++) e = mgl * sin(M_PI / 6 - e) / 60;
            CHECK_ABS(M_PI / 6 - r.last, e, 1e-7, "PD only: steady error kp e = m g l sin(30 deg - e) [rad]");
        }
    }
    snprintf(t, sizeof t, pend, 2.0,
             "control ctl pid input {pin.angle} setpoint {0.5} kp 60 ki 40 kd 8 limit -3 3\n"
             "force motor actuator arm.c ground.o tz {ctl}\n");
    r = run(t, "ctl.out", NULL, NULL);
    CHECK(r.vmax <= 3 + 1e-12 && r.vmin >= -3 - 1e-12 && r.vmax > 2.9, "PID output stays within its limit [%g, %g]", r.vmin, r.vmax);

    /* lock: a rotor turning at 2 rad/s is locked at t = 0.3 s and stays at 0.6 rad */
    r = run("solver method rk4 step 1e-3 until 1\n" G0
            "body rotor\n mass 1\n inertia 0.02 0.02 0.03\n omega 0 0 2\n marker c\nend\n"
            "joint pin revolute rotor.c ground.o\nevent stopit at 0.3 do lock pin\n",
            "pin.angle", NULL, NULL);
    CHECK_ABS(r.last, 0.6, 1e-9, "joint locked at t = 0.3 s keeps its angle [rad]");
    /* the same with the implicit methods and adams (euler and park turn a quaternion by 2 atan(h w/2)
     * per step instead of h w: 2e-7 rad by 0.3 s) */
    for (int k = 0; k < 5; k++) {
        static const char *const mm[] = {"hht", "galpha", "adams", "euler", "park"};
        static const double tol[] = {1e-9, 1e-9, 1e-8, 3e-7, 3e-7};
        snprintf(t, sizeof t, "solver method %s step 1e-3 until 1 rtol 1e-10 atol 1e-12\n" G0
                 "body rotor\n mass 1\n inertia 0.02 0.02 0.03\n omega 0 0 2\n marker c\nend\n"
                 "joint pin revolute rotor.c ground.o\nevent stopit at 0.3 do lock pin\n", mm[k]);
        r = run(t, "pin.angle", NULL, NULL);
        char what[96];
        snprintf(what, sizeof what, "%s: joint locked at t = 0.3 s keeps its angle [rad]", mm[k]);
        CHECK_ABS(r.last, 0.6, tol[k], what);
    }

    /* crossing: a pendulum released at 60 deg reaches the bottom after a quarter period */
    snprintf(t, sizeof t,
             "gravity 0 -9.81 0\nsolver method dp54 step 1e-2 until 2 rtol 1e-12 atol 1e-14\n" G0
             "body bob\n mass 1\n com 0 -1 0\n inertia 1e-6 1e-6 1e-6\n orientation axis 0 0 1 60deg\n marker c\nend\n"
             "joint pin revolute bob.c ground.o\nevent bottom when {pin.angle} crosses 0 falling do stop\n");
    MtState *st = NULL;
    r = run(t, "pin.angle", NULL, &st);
    double w0 = sqrt(9.81 * 1 / (1 + 1e-6)), T4 = M_PI / (2 * w0 * mt_test_agm(1, cos(M_PI / 6)));
    CHECK_ABS(st->etime[0], T4, 1e-9, "event located at the zero crossing: quarter period K(k)/w0 [s]");
    CHECK_ABS(r.t, T4, 1e-9, "the run stops at the event [s]");
    sy = st->sys;
    mt_state_free(st);
    mt_system_free((MtSystem *)sy);

    /* break: a hanging body at rest is released at t = 0.2 s and falls freely */
    r = run("gravity 0 -9.81 0\nsolver method rk4 step 1e-3 until 0.7\n" G0
            "body bob\n mass 1\n com 0 -1 0\n inertia 0.01 0.01 0.01\n marker c\nend\n"
            "joint pin revolute bob.c ground.o\nevent snap at 0.2 do break pin\n",
            "bob.y", NULL, NULL);
    CHECK_ABS(r.last, -0.5 * 9.81 * 0.25, 1e-9, "broken joint: free fall for 0.5 s [m]");

    /* disable a spring at 0.5 s: the mass keeps the speed it had then */
    r = run("solver method rk4 step 1e-3 until 1\n" G0
            "body m\n mass 1\n inertia 0.01 0.01 0.01\n position 0.1 0 0\n marker s z 1 0 0\nend\n"
            "joint slide prismatic m.s ground.rail\nspring k m.s ground.o k 100 length 0\n"
            "event cut at 0.5 do disable k\n",
            "m.vx", NULL, NULL);
    CHECK_ABS(r.last, -0.1 * 10 * sin(10 * 0.5), 1e-8, "spring disabled at 0.5 s: speed frozen at its value then [m/s]");

    /* loop-closure methods on a four-bar: the motion agrees with Baumgarte, the loop stays closed */
    const char *fb = "gravity 0 -9.81 0\nsolver method rk4 step 1e-4 until 1 %s\n"
                     "ground\n marker a\n marker d at 0.4 0 0\nend\n"
                     "body crank\n mass 1\n com 0 0.05 0\n inertia 1e-3 1e-4 1e-3\n marker a\n marker b at 0 0.1 0\nend\n"
                     "body coupler\n mass 1\n com 0.2 0 0\n inertia 1e-4 4e-3 4e-3\n position 0 0.1 0\n marker b\n marker c at 0.4 0 0\nend\n"
                     "body rocker\n mass 1\n com 0 0.05 0\n inertia 1e-3 1e-4 1e-3\n position 0.4 0 0\n marker d\n marker c at 0 0.1 0\nend\n"
                     "joint ja revolute crank.a ground.a\njoint jb revolute coupler.b crank.b\n"
                     "joint jc revolute rocker.c coupler.c\njoint jd revolute rocker.d ground.d\n"
                     "initial ja.angle -10deg\n";
    /* The feedback laws are approximations: the penalty converges as nu grows (the violation
     * falls roughly as 1/nu^2); the modified Lagrange function keeps the loop closed at moderate nu. */
    double gpen[2];
    static const char *const methods[] = {"loops penalty nu 300", "loops penalty nu 1000", "loops mlf nu 300"};
    for (int k = 0; k < 3; k++) {
        MtRunStats stats;
        snprintf(t, sizeof t, fb, methods[k]);
        run(t, "ja.angle", &stats, NULL);
        printf("  %s: largest violation %.3g m\n", methods[k], stats.gmax);
        if (k < 2) gpen[k] = stats.gmax;
        else CHECK(stats.gmax < 1e-3, "modified Lagrange (nu 300) keeps the four-bar closed (violation %.3g m)", stats.gmax);
    }
    CHECK(gpen[1] < gpen[0] / 5, "penalty: violation falls as nu grows (%.3g -> %.3g m)", gpen[0], gpen[1]);

    /* Events with every integrator. The locator is exact to 1e-9 s on each method's own solution
     * (a crossing of {time} and an 'at' event in the middle of a step show it); the time of a
     * physical crossing then carries the method's error: a free fall is integrated exactly by
     * rk4, dp54, adams, hht and galpha (constant acceleration; the step's cubic interpolant holds
     * the parabola), implicit Euler and Park's method are off by their own error, and the pendulum's
     * quarter period shows each method's accuracy at the step given. */
    static const char *const meth[] = {"rk4", "dp54", "adams", "euler", "park", "hht", "galpha"};
    const double Tq = T4;
    for (int k = 0; k < 7; k++) {
        int implicit = k >= 3;
        const char *tol = "rtol 1e-12 atol 1e-14";
        double te[4];
        for (int c = 0; c < 4; c++) {
            static const char *const ev[] = {"event mark when {time} crosses 0.123456789 rising do stop\n",
                                             "event mark at 0.3337777 do stop\n",
                                             "event mark when {bob.y} crosses -0.5 falling do stop\n", ""};
            const char *body = c < 3 ? "body bob\n mass 1\n inertia 1e-3 1e-3 1e-3\n marker c\nend\n"
                                     : "body bob\n mass 1\n com 0 -1 0\n inertia 1e-6 1e-6 1e-6\n orientation axis 0 0 1 60deg\n"
                                       " marker c\nend\njoint pin revolute bob.c ground.o\n"
                                       "event mark when {pin.angle} crosses 0 falling do stop\n";
            snprintf(t, sizeof t, "gravity 0 -9.81 0\nsolver method %s step %g until 1 %s\n" G0 "%s%s", meth[k],
                     c < 3 ? 1e-2 : (k == 0 ? 1e-3 : 1e-4), tol, body, ev[c]);
            r = run(t, "bob.y", NULL, &st);
            te[c] = st->efired[0] ? st->etime[0] : NAN;
            CHECK(st->efired[0] && fabs(r.t - te[c]) < 1e-12, "%s: the event fired and the run stopped there (t = %.12g s)", meth[k], r.t);
            sy = st->sys;
            mt_state_free(st);
            mt_system_free((MtSystem *)sy);
        }
        char what[160];
        snprintf(what, sizeof what, "%s: {time} crosses 0.123456789: located [s]", meth[k]);
        CHECK_ABS(te[0], 0.123456789, 1e-9, what);
        snprintf(what, sizeof what, "%s: event at 0.3337777 s inside a step [s]", meth[k]);
        CHECK_ABS(te[1], 0.3337777, 1e-12, what);
        double tf = sqrt(2 * 0.5 / 9.81);
        snprintf(what, sizeof what, "%s: free fall crosses y = -0.5 m at sqrt(2 h / g) [s]", meth[k]);
        /* implicit Euler (y_n = −g h² n (n+1) / 2) reaches it about h/2 early; Park's
         * method carries the error g h²/2 of its first (Euler) step */
        CHECK_ABS(te[2], tf, k == 3 ? 0.55e-2 : k == 4 ? 3e-4 : 1e-9, what);
        snprintf(what, sizeof what, "%s: pendulum quarter period K(k)/w0 (step %g s) [s]", meth[k], k == 0 ? 1e-3 : 1e-4);
        CHECK_ABS(te[3], Tq, k == 3 ? 2e-5 : implicit ? 3e-8 : k == 0 ? 1e-8 : 1e-9, what);
    }

    /* A torque-free asymmetric body (inertia 1 2 3, spinning near its unstable middle axis) for 5 s with
     * dp54 rtol 1e-8, against a reference at rtol 1e-13: an event that changes nothing (a spring of zero
     * stiffness enabled at t = 1.2345 s, or when wx crosses 0.5) must leave the end state within 2x the
     * error of the run without it (it was 5.9x when the run restarted from the interpolant). */
    {
        const char *body = "gravity 0 0 0\n" G0 "body b\n mass 1\n inertia 1 2 3\n omega 1 0.1 2\n marker m\nend\n"
                           "spring dummy b.m ground.o k 0 c 0 length 0\n";
        const char *evs[3] = {"", "event e at 1.2345 do enable dummy\n", "event e when {b.wx} crosses 0.5 do enable dummy\n"};
        const char *cols[4] = {"b.wx", "b.wy", "b.wz", "b.q1"};
        double ref[4], e0 = 0, f0 = 0, traj[4][51];
        for (int c = 0; c < 4; c++) {
            snprintf(t, sizeof t, "solver method dp54 step 0.1 until 5 rtol 1e-13 atol 1e-15\n%s", body);
            grid.ref = traj[c];
            grid.store = 1;
            ref[c] = run(t, cols[c], NULL, NULL).last;
        }
        grid.store = 0;
        /* the same with the fixed-step methods, whose steps are cut at the event, and adams; the largest
         * error over the frames too: the end state alone varies by 2-3x with the step sequence at rtol 1e-8
         * to 1e-10 (docs/integrators.md, events) */
        static const char *const how[5] = {"dp54 step 0.1 rtol 1e-8 atol 1e-10", "rk4 step 0.01", "hht step 1e-3",
                                           "adams step 0.1 rtol 1e-8 atol 1e-10", "adams step 0.1 rtol 1e-10 atol 1e-12"};
        for (int v = 0; v < 15; v++) {
            double e = 0, f = 0;
            for (int c = 0; c < 4; c++) {
                snprintf(t, sizeof t, "solver method %s until 5\n%s%s", how[v / 3], body, evs[v % 3]);
                grid.ref = traj[c];
                grid.err = 0;
                e = fmax(e, fabs(run(t, cols[c], NULL, NULL).last - ref[c]));
                f = fmax(f, grid.err);
            }
            grid.ref = NULL;
            if (v % 3 == 0) {
                e0 = e;
                f0 = f;
                printf("  torque-free body, %s, no event: end-state error %.3g, largest over the frames %.3g\n", how[v / 3],
                       e0, f0);
                continue;
            }
            char what[240];
            snprintf(what, sizeof what,
                     "an event that changes nothing (%s, %s): largest error over the frames %.3g within 2x of %.3g "
                     "without it (end state %.3g, %.3g)",
                     how[v / 3], v % 3 == 1 ? "at a time" : "a crossing", f, f0, e, e0);
            CHECK(f > 0 && f <= 2 * f0, "%s", what);
            if (f > 0 && f <= 2 * f0) printf("ok   %s\n", what);
        }
    }

    /* control channels with the implicit methods: their states join the Newton iterations */
    for (int k = 3; k < 7; k++) {
        snprintf(t, sizeof t, "solver method %s step 1e-3 until 1\n" G0 "control lag1 lag input {1} k 2 tau 0.5\n", meth[k]);
        r = run(t, "lag1.out", NULL, NULL);
        char what[128];
        snprintf(what, sizeof what, "%s: first-order lag step response at t = 1 s", meth[k]);
        /* order 1 (euler) or 2 (the others) at h = 1 ms */
        CHECK_ABS(r.last, 2 * (1 - exp(-2.0)), k == 3 ? 1e-3 : 3e-6, what);
    }
    return mt_test_done();
}
