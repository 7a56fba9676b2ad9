/* Joint library beyond the basic pairs, motion drivers and couplings, each
 * against a closed-form answer: gear pair (ratio and contact force), rack and
 * pinion, screw (several turns), distance rod (pendulum period), point on
 * line and on plane (sliding under gravity), planar joint, disk rolling down
 * an incline (a = 2/3 g sin α), rolling on moving planes (a disk on an
 * accelerating platform, a ball on a turntable circling at 2/7 of its speed,
 * a disk on a rocking plate), driver laws at displacement, velocity and
 * acceleration level, marker driver, linear coupler, and Bricard's
 * overconstrained 6R linkage (Grübler 0, mobility 1). */
#include <string.h>

#include "mt_math.h"
#include "motus/results.h"
#include "mt_test.h"

/* Value of result column `col` at the end of a run of `text` (via the CSV machinery). */
typedef struct { MtCsv *csv; int col; double *vals; double last, tmax_err; double (*exact)(double); int n; } Probe;

static int probe_cb(void *user, MtState *st)
{
    Probe *p = user;
    mt_frame_values(p->csv, st, p->vals);
    p->last = p->vals[p->col];
    if (p->exact) p->tmax_err = fmax(p->tmax_err, fabs(p->last - p->exact(st->t)));
    p->n++;
    return 0;
}

static double run_probe(const char *text, const char *column, double (*exact)(double), double *maxerr)
{
    MtSystem *s = mt_test_system(text);
    MtError err = {0};
    Probe p = {mt_csv_new(s, NULL, &err), -1, NULL, NAN, 0, exact, 0};
    for (int k = 0; k < mt_csv_ncols(p.csv); k++)
        if (!strcmp(mt_csv_colname(p.csv, k), column)) p.col = k;
    CHECK(p.col >= 0, "result column '%s' exists", column);
    p.vals = malloc(sizeof(double) * (size_t)mt_csv_ncols(p.csv));
    MtState *st = mt_test_run(s, p.col >= 0 ? probe_cb : NULL, &p, NULL);
    if (maxerr) *maxerr = p.tmax_err;
    free(p.vals);
    mt_csv_free(p.csv);
    mt_state_free(st);
    mt_system_free(s);
    return p.last;
}

#define GROUND2 "ground\n marker a\n marker b at 0.3 0 0\n marker o\n marker xrail z 1 0 0\nend\n"
#define WHEEL(name, pos, izz) "body " name "\n mass 1\n inertia 0.03 0.03 " izz "\n position " pos "\n marker c\nend\n"

static void gears(void)
{
    /* θA = t² drives gear A; external mesh rA θA + rB θB = 0, so θB = −t²/2 and
     * gear B needs torque I_B α_B = rB λ: λ = 0.04 · (−1) / 0.2 = −0.2 N */
    const char *text = "solver method rk4 step 1e-3 until 1 correct both\n" GROUND2
        WHEEL("ga", "0 0 0", "0.01") WHEEL("gb", "0.3 0 0", "0.04")
        "joint ja revolute ga.c ground.a\njoint jb revolute gb.c ground.b\n"
        "gear mesh ja jb radius 0.1 0.2\ndriver spin ja poly 0 0 1\n";
    CHECK_ABS(run_probe(text, "jb.angle", NULL, NULL), -0.5, 1e-9, "gear pair: angle of gear B after 1 s [rad]");
    CHECK_ABS(run_probe(text, "mesh.force", NULL, NULL), -0.2, 1e-8, "gear pair: tangential contact force [N]");
    /* internal mesh turns B the same way */
    const char *inner = "solver method rk4 step 1e-3 until 1 correct both\n" GROUND2
        WHEEL("ga", "0 0 0", "0.01") WHEEL("gb", "0.3 0 0", "0.04")
        "joint ja revolute ga.c ground.a\njoint jb revolute gb.c ground.b\n"
        "gear mesh ja jb radius 0.1 0.2 internal\ndriver spin ja rate 3\n";
    CHECK_ABS(run_probe(inner, "jb.angle", NULL, NULL), 1.5, 1e-9, "internal gear: angle of gear B after 1 s [rad]");
}

static void rack_and_screw(void)
{
    const char *rack = "solver method rk4 step 1e-3 until 1 correct both\n" GROUND2
        WHEEL("pinion", "0 0 0", "0.01")
        "body bar\n mass 2\n inertia 0.001 0.01 0.01\n position 0 -0.05 0\n marker s z 1 0 0\nend\n"
        "joint jp revolute pinion.c ground.a\njoint jr prismatic bar.s ground.xrail\n"
        "rack rp jp jr radius 0.05\ndriver spin jp rate 3\n";
    CHECK_ABS(run_probe(rack, "jr.disp", NULL, NULL), 0.15, 1e-9, "rack and pinion: rack travel r*theta after 1 s [m]");
    /* screw: 2.5 turns at one turn per second, pitch 10 mm — the angle passes ±π five times */
    const char *screw = "solver method rk4 step 1e-3 until 2.5 correct both\n" GROUND2
        "body nut\n mass 1\n inertia 0.001 0.001 0.002\n marker c\nend\n"
        "joint js screw nut.c ground.o pitch 0.01\ndriver turn js.angle rate 6.283185307179586\n";
    CHECK_ABS(run_probe(screw, "js.disp", NULL, NULL), 0.025, 1e-10, "screw: advance after 2.5 turns of pitch 10 mm [m]");
}

/* Upward zero crossings of the bob's x, linearly interpolated between 1 ms frames. */
static double cb_prev_t = -1, cb_prev_x, cb_first = -1, pend_T = NAN;
static int cb_count;
static int crossing_cb(void *u, MtState *S)
{
    (void)u;
    double x = S->q[0];
    if (cb_prev_t >= 0 && cb_prev_x < 0 && x >= 0) {
        double tc = cb_prev_t + (S->t - cb_prev_t) * (-cb_prev_x) / (x - cb_prev_x);
        if (cb_first < 0) cb_first = tc;
        else if (++cb_count == 1) pend_T = tc - cb_first;
    }
    cb_prev_t = S->t;
    cb_prev_x = x;
    return 0;
}

static void distance_rod(void)
{
    /* a point mass on a massless rod of 0.5 m swinging 1e-3 rad: T = 2π √(L/g) (1 + θ²/16) */
    const double L = 0.5, g = 9.81, th = 1e-3;
    char text[1024];
    snprintf(text, sizeof text,
             "gravity 0 -9.81 0\nsolver method dp54 step 1e-4 until 3.2 rtol 1e-11 atol 1e-13\n" GROUND2
             "body bob\n mass 1\n inertia 1e-6 1e-6 1e-6\n position %.17g %.17g 0\n marker c\nend\n"
             "joint rod distance bob.c ground.o\n",
             L * sin(th), -L * cos(th));
    MtSystem *s = mt_test_system(text);
    CHECK_ABS(s->model->joint[0].param, L, 1e-15, "distance joint: length defaults to the initial distance [m]");
    MtState *st = mt_test_run(s, crossing_cb, NULL, NULL);
    mt_state_free(st);
    mt_system_free(s);
    CHECK_REL(pend_T, 2 * M_PI * sqrt(L / g) * (1 + th * th / 16), 1e-7, "distance-rod pendulum: period [s]");
}

static double incline_exact(double t) { return 0.5 * 9.81 * sin(0.4) * t * t; }
static double rolling_exact(double t) { return 0.5 * (2.0 / 3.0) * 9.81 * sin(0.3) * t * t; }

static void sliding_and_rolling(void)
{
    char text[2048];
    double e;
    /* bead on a line inclined 0.4 rad below the horizontal */
    snprintf(text, sizeof text,
             "gravity 0 -9.81 0\nsolver method rk4 step 1e-3 until 1\n"
             "ground\n marker line z %.17g %.17g 0\nend\n"
             "body bead\n mass 0.2\n inertia 1e-5 1e-5 1e-5\n marker c\nend\njoint slide inline bead.c ground.line\n",
             cos(0.4), -sin(0.4));
    run_probe(text, "slide.disp", incline_exact, &e);
    CHECK_ABS(e, 0, 1e-9, "point on line: travel ½ g sin(a) t² along an incline, max error [m]");
    /* block on a plane with normal tilted 0.4 rad: its in-plane coordinate follows the same law */
    snprintf(text, sizeof text,
             "gravity 0 -9.81 0\nsolver method rk4 step 1e-3 until 1\n"
             "ground\n marker pl z %.17g %.17g 0 x %.17g %.17g 0\nend\n"
             "body block\n mass 0.2\n inertia 1e-5 1e-5 1e-5\n marker c\nend\njoint onplane inplane block.c ground.pl\n",
             sin(0.4), cos(0.4), cos(0.4), -sin(0.4));
    run_probe(text, "onplane.x", incline_exact, &e);
    CHECK_ABS(e, 0, 1e-9, "point on plane: down-slope travel ½ g sin(a) t², max error [m]");
    /* planar joint in the x-y plane, spinning at 3 rad/s while falling */
    const char *planar = "gravity 0 -9.81 0\nsolver method rk4 step 1e-3 until 1\n"
                         "ground\n marker o\nend\n"
                         "body plate\n mass 1\n inertia 0.01 0.02 0.03\n omega 0 0 3\n marker c\nend\n"
                         "joint pl planar plate.c ground.o\n";
    CHECK_ABS(run_probe(planar, "pl.y", NULL, NULL), -0.5 * 9.81, 1e-9, "planar joint: free fall in the plane [m]");
    CHECK_ABS(run_probe(planar, "pl.angle", NULL, NULL), 3, 1e-9, "planar joint: rotation about the normal [rad]");
    /* uniform disk rolling without slip: tilted gravity makes the incline (0.3 rad) */
    const double R = 0.2, m = 2;
    snprintf(text, sizeof text,
             "gravity %.17g %.17g 0\nsolver method dp54 step 1e-2 until 1 rtol 1e-11 atol 1e-13\n"
             "ground\n marker floor z 0 1 0 x 1 0 0\nend\n"
             "body disk\n mass %g\n inertia %.17g %.17g %.17g\n position 0 %g 0\n marker c\nend\n"
             "joint roll rolling disk.c ground.floor radius %g\n",
             9.81 * sin(0.3), -9.81 * cos(0.3), m, m * R * R / 4, m * R * R / 4, m * R * R / 2, R, R);
    run_probe(text, "disk.x", rolling_exact, &e);
    CHECK_ABS(e, 0, 1e-8, "rolling disk: centre travel ½ (2/3) g sin(a) t², max error [m]");
}

static double harm(double t) { return 0.1 * sin(5 * t + 0.3) + 0.2; }
static double harm_rate(double t) { return 0.5 * cos(5 * t + 0.3); }
static double velx(double t) { return 0.3 * t; }
static double accx(double t) { return 0.05 * t + t * t; }
static double tabx(double t)
{
    /* natural cubic spline through (0,0) (1,1) (2,0) (3,1): second derivatives from
     * 4 M1 + M2 = −12, M1 + 4 M2 = 12: M1 = −4, M2 = 4 */
    const double M[4] = {0, -4, 4, 0}, y[4] = {0, 1, 0, 1};
    if (t >= 3) return 1;
    int i = (int)floor(t);
    double A = i + 1 - t, B = t - i;
    return A * y[i] + B * y[i + 1] + ((A * A * A - A) * M[i] + (B * B * B - B) * M[i + 1]) / 6;
}
static double unit_rate(double t)
{
    (void)t;
    return 1;
}
static double stepx(double t)
{
    if (t <= 0.2) return 0;
    if (t >= 0.8) return 0.5;
    double x = (t - 0.2) / 0.6;
    return 0.5 * x * x * (3 - 2 * x);
}

static void drivers(void)
{
    static const char *head = "solver method rk4 step 1e-3 until %g correct both\n"
                              "ground\n marker rail z 1 0 0\nend\n"
                              "body slider\n mass 1\n inertia 1e-3 1e-3 1e-3\n velocity %g 0 0\n marker s z 1 0 0\nend\n"
                              "joint sl prismatic slider.s ground.rail\n%s\n";
    char text[1024];
    double e;
    snprintf(text, sizeof text, head, 2.0, 0.0, "driver d sl harmonic 0.1 5 phase 0.3 offset 0.2");
    run_probe(text, "sl.disp", harm, &e);
    CHECK_ABS(e, 0, 1e-10, "harmonic driver: 0.1 sin(5t + 0.3) + 0.2, max error [m]");
    /* the same law as an expression of time and parameters: its rate and acceleration are exact (the
     * program differentiated), so position and velocity follow as closely as the harmonic law's */
    snprintf(text, sizeof text, head, 2.0, 0.0,
             "parameter A 100 mm\nparameter w 5\ndriver d sl expr {A*sin(w*t + 0.3) + 0.2}");
    run_probe(text, "sl.disp", harm, &e);
    CHECK_ABS(e, 0, 1e-10, "expression driver: A sin(w t + 0.3) + 0.2, max error [m]");
    run_probe(text, "slider.vx", harm_rate, &e);
    CHECK_ABS(e, 0, 1e-9, "expression driver: its rate 0.5 cos(5t + 0.3), max error [m/s]");
    snprintf(text, sizeof text, head, 1.0, 0.05, "driver d sl acc expr {if(t < 2, 2, 0)}");
    run_probe(text, "sl.disp", accx, &e);
    CHECK_ABS(e, 0, 1e-10, "acceleration driver by expression: x = v0 t + t^2, max error [m]");
    snprintf(text, sizeof text, head, 1.0, 0.0, "driver d sl step 0.2 0 0.8 0.5");
    run_probe(text, "sl.disp", stepx, &e);
    CHECK_ABS(e, 0, 1e-10, "smooth step driver, max error [m]");
    snprintf(text, sizeof text, head, 3.5, 0.0, "driver d sl.disp table 0 0 1 1 2 0 3 1");
    run_probe(text, "sl.disp", tabx, &e);
    CHECK_ABS(e, 0, 1e-10, "tabulated driver: natural cubic spline through 4 points, max error [m]");
    /* a table along a line moves at its slope from the first frame to the last: the end points take the
     * spline's slopes (they were taken as held, 0, so the slider started at rest and the last frame stopped) */
    snprintf(text, sizeof text, head, 2.0, 0.0, "driver d sl.disp table 0 0 1 1 2 2");
    run_probe(text, "slider.vx", unit_rate, &e);
    CHECK_ABS(e, 0, 1e-9, "table 0 0 1 1 2 2: velocity 1 m/s in every frame, t = 0 and t = 2 included, max error [m/s]");
    snprintf(text, sizeof text, head, 1.0, 0.0, "driver d sl vel const 0.3");
    run_probe(text, "sl.disp", velx, &e);
    CHECK_ABS(e, 0, 1e-10, "velocity driver: x = 0.3 t, max error [m]");
    snprintf(text, sizeof text, head, 1.0, 0.05, "driver d sl acc const 2");
    run_probe(text, "sl.disp", accx, &e);
    CHECK_ABS(e, 0, 1e-10, "acceleration driver: x = v0 t + t^2, max error [m]");
    /* marker driver: x of the slider's marker relative to the rail, along the rail's x axis (= −z of project) */
    snprintf(text, sizeof text, head, 1.0, 0.0, "driver d markers slider.s ground.rail z rate 0.3");
    run_probe(text, "sl.disp", velx, &e);
    CHECK_ABS(e, 0, 1e-10, "marker driver on the relative z displacement, max error [m]");
}

static void coupler(void)
{
    const char *text = "solver method rk4 step 1e-3 until 1 correct both\n" GROUND2
        WHEEL("w1", "0 0 0", "0.01") WHEEL("w2", "0.3 0 0", "0.02")
        "joint j1 revolute w1.c ground.a\njoint j2 revolute w2.c ground.b\n"
        "coupler half j1.angle 1 j2.angle -2\ndriver spin j1 rate 4\n";
    CHECK_ABS(run_probe(text, "j2.angle", NULL, NULL), 2.0, 1e-9, "coupler theta1 - 2 theta2 = const: theta2 after 1 s [rad]");
}

/* Bricard's orthogonal 6R linkage: equal links, twists alternating ±90°, no offsets. */
typedef struct { double qmove, gmax; int n, finite; } Bri;
static int bri_cb(void *u, MtState *st)
{
    Bri *b = u;
    double F[3], T[3], Fm[3], Tm[3];
    for (int j = 0; j < 6; j++) {
        mt_joint_reaction(st, j, F, T, Fm, Tm);
        for (int k = 0; k < 3; k++) b->finite &= isfinite(F[k]) && isfinite(T[k]) && fabs(F[k]) < 1e6;
    }
    double ang = mt_joint_coordinate(st, st->q, 1);
    if (b->n++ == 0) b->qmove = ang;
    else b->gmax = fmax(b->gmax, fabs(ang - b->qmove));
    return 0;
}

static void bricard(void)
{
    const double th[6] = {-0.546306, 2.049644, -0.546306, 2.049644, -0.546306, 2.049644};
    MtModel *m = mt_model_new();
    MtError err = {0};
    double T[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    int out[6], in[6];
    m->gravity[2] = -9.81;
    m->solver.method = MT_METHOD_DP54;
    m->solver.until = 1;
    m->solver.step = 0.01;
    m->solver.rtol = 1e-9;
    m->solver.atol = 1e-11;
    for (int k = 0; k < 6; k++) {
        double c = cos(th[k]), s = sin(th[k]), al = (k % 2) ? -M_PI / 2 : M_PI / 2;
        double Rz[16] = {c, -s, 0, 0, s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, B[16];
        for (int i = 0; i < 4; i++) /* B = T Rz: frame of link k, joint k at its origin */
            for (int j = 0; j < 4; j++) {
                B[4 * i + j] = 0;
                for (int q = 0; q < 4; q++) B[4 * i + j] += T[4 * i + q] * Rz[4 * q + j];
            }
        double Rx[9] = {1, 0, 0, 0, cos(al), -sin(al), 0, sin(al), cos(al)}, pos_out[3] = {1, 0, 0};
        char name[16];
        snprintf(name, sizeof name, "link%d", k);
        int body = MT_GROUND;
        if (k > 0) {
            body = mt_model_add_body(m, name, &err);
            MtBodySpec *bs = &m->body[body];
            bs->mass = 1;
            bs->com[0] = 0.5;
            bs->inertia[0] = 1e-3; bs->inertia[1] = 1.0 / 12; bs->inertia[2] = 1.0 / 12;
            for (int i = 0; i < 3; i++) {
                bs->pos[i] = B[4 * i + 3];
                for (int j = 0; j < 3; j++) bs->rot[3 * i + j] = B[4 * i + j];
            }
            in[k] = mt_model_add_marker(m, body, "in", NULL, NULL, &err);
        } else {
            double R0[9];
            for (int i = 0; i < 3; i++) for (int j = 0; j < 3; j++) R0[3 * i + j] = B[4 * i + j];
            double p0[3] = {B[3], B[7], B[11]};
            in[0] = mt_model_add_marker(m, MT_GROUND, "in", p0, R0, &err);
            double Rg[9], pg[3], ph[3];
            mt_m3_mul(Rg, R0, Rx);
            mt_m3_mulv(ph, R0, pos_out);
            mt_v3_add(pg, p0, ph);
            out[0] = mt_model_add_marker(m, MT_GROUND, "out", pg, Rg, &err);
        }
        if (k > 0) out[k] = mt_model_add_marker(m, body, "out", pos_out, Rx, &err);
        double M[16] = {1, 0, 0, 1, 0, Rx[4], Rx[5], 0, 0, Rx[7], Rx[8], 0, 0, 0, 0, 1};
        for (int i = 0; i < 4; i++) /* T = B · Tx(1) Rx(al) */
            for (int j = 0; j < 4; j++) {
                T[4 * i + j] = 0;
                for (int q = 0; q < 4; q++) T[4 * i + j] += B[4 * i + q] * M[4 * q + j];
            }
    }
    for (int k = 0; k < 6; k++) { /* joint k+1 joins the out end of link k to the in end of link k+1 */
        char name[16];
        snprintf(name, sizeof name, "r%d", k + 1);
        mt_model_add_joint(m, name, MT_JOINT_REVOLUTE, in[(k + 1) % 6], out[k], &err);
    }
    MtSystem *s = mt_system_compile(m, &err);
    if (s && mt_system_assemble(s, &err)) { mt_system_free(s); s = NULL; }
    mt_model_free(m);
    CHECK(s != NULL, "Bricard compiles: %s", err.msg);
    if (!s) return;
    printf("  Bricard: %d equations, %d redundant, dof Gruebler %d, by rank %d\n", s->nrow, s->ndep, s->dof_grubler, s->dof_rank);
    CHECK(s->dof_grubler == 0 && s->ndep == 1 && s->dof_rank == 1, "Bricard: Gruebler 0, one redundant equation, mobility 1");
    Bri b = {0, 0, 0, 1};
    MtRunStats stats;
    MtState *st = mt_test_run(s, bri_cb, &b, &stats);
    printf("  Bricard: joint r2 moved by %.3f rad in 1 s; constraint violation %.2g\n", b.gmax, stats.gmax);
    CHECK(b.finite, "Bricard: all reactions finite and bounded");
    CHECK(b.gmax > 0.05, "Bricard moves under gravity (joint r2 moved %.3g rad)", b.gmax);
    CHECK_ABS(stats.gmax, 0, 1e-8, "Bricard: constraint violation at frames [m]");
    mt_state_free(st);
    mt_system_free(s);
}

/* Initial assembly with held coordinates: a four-bar started with its crank at
 * 100° turning at 2 rad/s; the coupler and rocker follow, and over-determining
 * initial conditions are refused with the joint named. */
typedef struct { double a0, w0; int n; } First;
static int first_cb(void *u, MtState *st)
{
    First *f = u;
    if (f->n++ == 0) {
        f->a0 = mt_joint_coordinate(st, st->q, 0);
        f->w0 = st->u[5];
    }
    return 0;
}

static void initial_conditions(void)
{
    static const char *fourbar =
        "gravity 0 -9.81 0\nsolver method rk4 step 1e-3 until 0.01\n"
        "ground\n marker a\n marker d at 0.4 0 0\nend\n"
        "body crank\n mass 1\n com 0 0.05 0\n inertia 1e-3 1e-4 1e-3\n marker a\n marker b at 0 0.1 0\nend\n"
        "body coupler\n mass 1\n com 0.2 0 0\n inertia 1e-4 4e-3 4e-3\n position 0 0.1 0\n marker b\n marker c at 0.4 0 0\nend\n"
        "body rocker\n mass 1\n com 0 0.05 0\n inertia 1e-3 1e-4 1e-3\n position 0.4 0 0\n marker d\n marker c at 0 0.1 0\nend\n"
        "joint ja revolute crank.a ground.a\njoint jb revolute coupler.b crank.b\n"
        "joint jc revolute rocker.c coupler.c\njoint jd revolute rocker.d ground.d\n%s";
    char text[2048];
    snprintf(text, sizeof text, fourbar, "initial ja.angle 10deg rate 2\n");
    MtSystem *s = mt_test_system(text);
    First f = {0};
    MtRunStats stats;
    MtState *st = mt_test_run(s, first_cb, &f, &stats);
    CHECK_ABS(f.a0, 10 * M_PI / 180, 1e-12, "initial assembly: held crank angle [rad]");
    CHECK_ABS(f.w0, 2, 1e-12, "initial assembly: held crank rate [rad/s]");
    CHECK_ABS(stats.gmax, 0, 1e-10, "initial assembly: the other bodies follow (constraint violation) [m]");
    mt_state_free(st);
    mt_system_free(s);
    snprintf(text, sizeof text, fourbar, "initial ja.angle 10deg\ninitial jd.angle 20deg\n");
    s = mt_test_system(text);
    MtError err = {0};
    st = mt_state_new(s, &err);
    MtStatus rc = mt_run(st, &s->solver, NULL, NULL, NULL, NULL, &err);
    CHECK(rc != MT_OK && strstr(err.msg, "jd") && strstr(err.msg, "degrees of freedom"),
          "two initial angles on a one-dof four-bar are refused naming the joint: %s", err.msg);
    printf("     message: %s\n", err.msg);
    mt_state_free(st);
    mt_system_free(s);
}

/* Relative motion a joint allows: project many random velocities onto its
 * constraints and count the independent relative twists left (Gram–Schmidt on
 * 6-vectors in j's axes); it must equal 6 minus the joint's equations, and the
 * forbidden components must vanish. */
static unsigned long long seed = 12345;
static double rnd(void)
{
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(seed >> 11) / 9007199254740992.0 * 2 - 1;
}

static void motion_rank(void)
{
    static const struct { const char *type, *extra; int dof; } J[] = {
        {"spherical", "", 3}, {"revolute", "", 1}, {"prismatic", "", 1}, {"cylindrical", "", 2},
        {"universal", "", 2}, {"fixed", "", 0}, {"planar", "", 3}, {"screw", " pitch 0.02", 1},
        {"inline", "", 4}, {"inplane", "", 5}, {"distance", "", 5}};
    for (size_t k = 0; k < sizeof J / sizeof J[0]; k++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "ground\n marker o at 0.1 0.2 0.3 z 0 1 1 x 1 0 0\nend\n"
                 "body b\n mass 2\n com 0.1 0.05 0\n inertia 0.02 0.03 0.04 0.001 0 0\n position %s\n"
                 " marker m at 0 0 0 %s\nend\n"
                 "joint j %s b.m ground.o%s\n",
                 strcmp(J[k].type, "distance") ? "0.1 0.2 0.3" : "0.1 0.2 0.8",
                 /* a universal joint's two pins are perpendicular */
                 strcmp(J[k].type, "universal") ? "z 0 1 1 x 1 0 0" : "z 1 0 0 x 0 1 1", J[k].type, J[k].extra);
        MtSystem *s = mt_test_system(text);
        MtError err = {0};
        MtState *st = mt_state_new(s, &err);
        double basis[6][6];
        int rank = 0;
        for (int trial = 0; trial < 24; trial++) {
            for (int c = 0; c < 6; c++) st->u[c] = rnd();
            mt_project_velocities(st, &err);
            MtTerm tm = {0};
            (void)tm;
            /* relative twist of marker m in the axes of ground.o: (v_m, ω) */
            double R[9], pm[3], vm[3], w[3];
            mt_body_origin(st, st->q, st->u, 0, pm, vm);
            mt_quat_to_m3(R, st->q + 3);
            mt_v3_copy(w, st->u + 3);
            const double *z = &s->mrot[9 * 0]; /* ground marker axes */
            double tw[6];
            for (int a = 0; a < 3; a++) {
                double ax[3] = {z[a], z[3 + a], z[6 + a]};
                tw[a] = mt_v3_dot(ax, vm);
                tw[3 + a] = mt_v3_dot(ax, w);
            }
            /* Gram–Schmidt against the basis found so far */
            for (int b = 0; b < rank; b++) {
                double d = 0;
                for (int c = 0; c < 6; c++) d += tw[c] * basis[b][c];
                for (int c = 0; c < 6; c++) tw[c] -= d * basis[b][c];
            }
            double nn = 0;
            for (int c = 0; c < 6; c++) nn += tw[c] * tw[c];
            if (sqrt(nn) > 1e-8 && rank < 6) {
                for (int c = 0; c < 6; c++) basis[rank][c] = tw[c] / sqrt(nn);
                rank++;
            }
        }
        CHECK(rank == J[k].dof, "%s joint: %d independent relative motions, expected %d", J[k].type, rank, J[k].dof);
        printf("%s %s joint allows %d relative motions (expected %d)\n", rank == J[k].dof ? "ok  " : "FAIL", J[k].type, rank,
               J[k].dof);
        mt_state_free(st);
        mt_system_free(s);
    }
}

/* A body welded to ground, centre of mass 0.3 m out along x: the fixed joint
 * holds F = m g upwards and the moment about its marker of the weight. */
static void static_reaction(void)
{
    MtSystem *s = mt_test_system("gravity 0 -9.81 0\nsolver method rk4 step 1e-3 until 0.001\n"
                                 "ground\n marker o\nend\n"
                                 "body arm\n mass 2\n com 0.3 0 0\n inertia 0.01 0.02 0.02\n marker m\nend\n"
                                 "joint weld fixed arm.m ground.o\n");
    MtState *st = mt_test_run(s, NULL, NULL, NULL);
    double F[3], T[3], Fm[3], Tm[3];
    mt_joint_reaction(st, 0, F, T, Fm, Tm);
    CHECK_ABS(F[1], 2 * 9.81, 1e-9, "fixed joint: vertical reaction m g [N]");
    CHECK_ABS(T[2], 2 * 9.81 * 0.3, 1e-9, "fixed joint: moment m g r about the weld [N m]");
    CHECK_ABS(F[0] + F[2] + T[0] + T[1], 0, 1e-9, "fixed joint: no other reaction components");
    mt_state_free(st);
    mt_system_free(s);
}

/* Atwood machine with a pulley of inertia I: a = (m1 − m2) g / (m1 + m2 + I/R²); the rope
 * on each side is a rack coupling of the pulley to a vertical slider. */
static void atwood(void)
{
    const double m1 = 3, m2 = 2, I = 0.02, R = 0.1, g = 9.81;
    char text[2048];
    snprintf(text, sizeof text,
             "gravity 0 -%g 0\nsolver method rk4 step 1e-3 until 1 correct both\n"
             "ground\n marker hub\n marker left at -0.1 0 0 z 0 1 0\n marker right at 0.1 0 0 z 0 1 0\nend\n"
             "body pulley\n mass 1\n inertia 0.015 0.015 %g\n marker c\nend\n"
             "body heavy\n mass %g\n inertia 0.01 0.01 0.01\n position -0.1 0 0\n marker s z 0 1 0\nend\n"
             "body light\n mass %g\n inertia 0.01 0.01 0.01\n position 0.1 0 0\n marker s z 0 1 0\nend\n"
             "joint axle revolute pulley.c ground.hub\njoint lslide prismatic heavy.s ground.left\njoint rslide prismatic light.s ground.right\n"
             "rack rope_l axle lslide radius %g\nrack rope_r axle rslide radius %g\n",
             g, I, m1, m2, R, -R);
    MtSystem *s = mt_test_system(text);
    MtState *st = mt_test_run(s, NULL, NULL, NULL);
    double a = (m1 - m2) * g / (m1 + m2 + I / (R * R));
    /* the heavy side goes down: its displacement along +y is −a t²/2 */
    CHECK_ABS(mt_joint_coord(st, st->q, 1, MT_COORD_DISP), -0.5 * a, 1e-9, "Atwood machine with pulley inertia: heavy mass drop in 1 s [m]");
    mt_state_free(st);
    mt_system_free(s);
}

/* A coin rolling steadily in a circle: centre path radius ρ, leaning inwards
 * by θ; from Euler's equations with the rolling constraint,
 * Ω² = g sin θ / (cos θ (3ρ/2 + a sin θ / 4)) for a thin uniform disk, spin
 * s = −Ω (ρ/a + sin θ) about its axle. */
typedef struct { double phi, prev, t, hmin, hmax; int n; } Coin;
static int coin_cb(void *u, MtState *st)
{
    Coin *c = u;
    const double *x = st->q;
    double ph = atan2(-x[2], x[0]);
    if (c->n++ == 0) { c->phi = 0; c->hmin = c->hmax = x[1]; }
    else {
        double d = ph - c->prev;
        d -= 2 * M_PI * floor((d + M_PI) / (2 * M_PI));
        c->phi += d;
    }
    c->prev = ph;
    c->hmin = fmin(c->hmin, x[1]);
    c->hmax = fmax(c->hmax, x[1]);
    c->t = st->t;
    return 0;
}

static void rolling_coin(void)
{
    const double a = 0.1, rho = 0.5, th = 0.2, g = 9.81, m = 0.2;
    const double W = sqrt(g * sin(th) / (cos(th) * (1.5 * rho + 0.25 * a * sin(th)))), sp = -W * (rho / a + sin(th));
    double e3[3] = {cos(th), sin(th), 0}, w[3];
    for (int k = 0; k < 3; k++) w[k] = (k == 1 ? W : 0) + sp * e3[k];
    char text[2048];
    snprintf(text, sizeof text,
             "gravity 0 -%g 0\nsolver method dp54 step 1e-3 until 2 rtol 1e-12 atol 1e-14\n"
             "ground\n marker floor z 0 1 0 x 1 0 0\nend\n"
             "body coin\n mass %g\n inertia %.17g %.17g %.17g\n position %.17g %.17g 0\n"
             " orientation z %.17g %.17g 0 x %.17g %.17g 0\n velocity 0 0 %.17g\n omega %.17g %.17g %.17g\n marker c\nend\n"
             "joint roll rolling coin.c ground.floor radius %g\n",
             g, m, m * a * a / 4, m * a * a / 4, m * a * a / 2, rho, a * cos(th), cos(th), sin(th), -sin(th), cos(th),
             -W * rho, w[0], w[1], w[2], a);
    MtSystem *s = mt_test_system(text);
    Coin c = {0};
    MtState *st = mt_test_run(s, coin_cb, &c, NULL);
    CHECK_REL(c.phi / c.t, W, 1e-8, "rolling coin: precession rate of the steady circle [rad/s]");
    CHECK_ABS(c.hmax - c.hmin, 0, 1e-9, "rolling coin: centre height stays a cos(theta) [m]");
    mt_state_free(st);
    mt_system_free(s);
}

/* A flat R x C lattice of plates joined by spherical joints is dependent only
 * while flat: (R-2)(C-2) equations are found special, kept, and the run
 * passes through the singular start with every joint closed. */
static void flat_lattice(int R, int C)
{
    size_t cap = 200000, n = 0;
    char *t = malloc(cap);
    const double a = 1.0 / 7;
    n += (size_t)snprintf(t + n, cap - n, "gravity 0 0 -9.81\nsolver method rk4 step 1e-3 until 0.5 ts 0.01\nground\n marker o\nend\n");
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            n += (size_t)snprintf(t + n, cap - n,
                                  "body p%d_%d\n mass 1.25\n inertia %.17g %.17g %.17g\n position %.17g %.17g 0\n"
                                  " marker w at %.17g 0 0\n marker e at %.17g 0 0\n marker s at 0 %.17g 0\n marker n at 0 %.17g 0\n"
                                  " marker c at %.17g %.17g 0\nend\n",
                                  i, j, 1.25 * (a * a + 1e-4) / 12, 1.25 * (a * a + 1e-4) / 12, 1.25 * 2 * a * a / 12,
                                  (j + 0.5) * a, (i + 0.5) * a, -a / 2, a / 2, -a / 2, a / 2, -a / 2, -a / 2);
    n += (size_t)snprintf(t + n, cap - n, "joint g spherical p0_0.c ground.o\n");
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            if (j + 1 < C) {
                n += (size_t)snprintf(t + n, cap - n, "joint h%d_%d spherical p%d_%d.w p%d_%d.e\n", i, j, i, j + 1, i, j);
                n += (size_t)snprintf(t + n, cap - n, "force th%d_%d bushing p%d_%d.w p%d_%d.e ktx 100 kty 100 ktz 100 ctx 0.01 cty 0.01 ctz 0.01\n",
                                      i, j, i, j + 1, i, j);
            }
            if (i + 1 < R) {
                n += (size_t)snprintf(t + n, cap - n, "joint v%d_%d spherical p%d_%d.s p%d_%d.n\n", i, j, i + 1, j, i, j);
                n += (size_t)snprintf(t + n, cap - n, "force tv%d_%d bushing p%d_%d.s p%d_%d.n ktx 100 kty 100 ktz 100 ctx 0.01 cty 0.01 ctz 0.01\n",
                                      i, j, i + 1, j, i, j);
            }
        }
    MtSystem *s = mt_test_system(t);
    free(t);
    printf("  %dx%d lattice: %d equations, %d removed, %d special\n", R, C, s->nrow, s->ndep, s->nspecial);
    CHECK(s->ndep == 0 && s->nspecial == (R - 2) * (C - 2), "%dx%d lattice: no structural redundancy, %d special dependencies (got %d, %d)",
          R, C, (R - 2) * (C - 2), s->ndep, s->nspecial);
    MtRunStats stats;
    MtState *st = mt_test_run(s, NULL, NULL, &stats);
    double g, gd;
    mt_constraint_error(st, &g, &gd);
    CHECK_ABS(fmax(g, stats.gmax), 0, 2e-5, "flat lattice: every joint stays closed through the singular start [m]");
    mt_state_free(st);
    mt_system_free(s);
}

/* Rolling on a moving plane.
 * (a) A uniform disk standing on a platform driven along x at acceleration a:
 *     no slip gives ẍ (1 + m R²/I) = a, so its centre moves at a/3 and the
 *     platform pushes it with m a/3.
 * (b) A uniform sphere on a turntable spinning at Ω: its velocity turns at
 *     (2/7) Ω (v̇ = (2/7) Ω ẑ × v), so the centre runs on a circle of radius
 *     V / ν, ν = 2Ω/7, whatever the table's speed under it. */
static double plat_exact(double t) { return 0.5 * (3.0 / 3.0) * t * t; }
static double turn_nu, turn_V, turn_x0;
static double turn_x(double t) { return turn_x0 + turn_V * (cos(turn_nu * t) - 1) / turn_nu; }
static double turn_y(double t) { return turn_V * sin(turn_nu * t) / turn_nu; }
static void rolling_on_moving_plane(void)
{
    const char *plat = "gravity 0 0 -9.81\nsolver method dp54 step 1e-3 until 1 rtol 1e-11 atol 1e-13\n"
                       "ground\n marker rail z 1 0 0\nend\n"
                       "body plat\n mass 5\n inertia 1 1 1\n marker s z 1 0 0\n marker top at 0 0 0.05\nend\n"
                       "body disk\n mass 1\n inertia 0.0025 0.0025 0.005\n position 0 0 0.15\n"
                       " orientation z 0 1 0 x 1 0 0\n marker c\nend\n"
                       "joint slide prismatic plat.s ground.rail\ndriver push slide poly 0 0 1.5\n"
                       "joint roll rolling disk.c plat.top radius 0.1\n";
    double e;
    run_probe(plat, "disk.x", plat_exact, &e);
    CHECK_ABS(e, 0, 1e-9, "disk on a platform accelerating at 3 m/s^2: centre travel (a/3) t^2/2, max error [m]");
    CHECK_ABS(run_probe(plat, "roll.Fx", NULL, NULL), 1.0, 1e-8, "disk on an accelerating platform: friction m a/3 [N]");
    CHECK_ABS(run_probe(plat, "roll.Fz", NULL, NULL), 9.81, 1e-8, "disk on an accelerating platform: normal force m g [N]");
    /* ball at x0 moving at V along y; no slip on the table fixes its spin ω_x = (Ω x0 − V)/R */
    const double W = 2, V = 0.1, x0 = 0.3, R = 0.05;
    turn_nu = 2 * W / 7, turn_V = V, turn_x0 = x0;
    char table[1536];
    snprintf(table, sizeof table,
             "gravity 0 0 -9.81\nsolver method dp54 step 1e-3 until 5 rtol 1e-11 atol 1e-13\n"
             "ground\n marker a\nend\n"
             "body table\n mass 10\n inertia 0.5 0.5 1\n omega 0 0 %g\n marker c\n marker top at 0 0 0.05\nend\n"
             "body ball\n mass 1\n inertia %.17g %.17g %.17g\n position %g 0 %g\n velocity 0 %g 0\n omega %.17g 0 0\n"
             " marker c\nend\n"
             "joint spin revolute table.c ground.a\ndriver turn spin rate %g\n"
             "joint roll ball ball.c table.top radius %g\n",
             W, 0.4 * R * R, 0.4 * R * R, 0.4 * R * R, x0, 0.05 + R, V, (W * x0 - V) / R, W, R);
    run_probe(table, "ball.x", turn_x, &e);
    CHECK_ABS(e, 0, 1e-9, "ball on a turntable: x of the centre on its circle (nu = 2/7 Omega), max error over 5 s [m]");
    run_probe(table, "ball.y", turn_y, &e);
    CHECK_ABS(e, 0, 1e-9, "ball on a turntable: y of the centre on its circle, max error over 5 s [m]");
    /* (c) the plane's normal turning: a disk on a plate rocked ±0.3 rad about x
     * at 3 rad/s, without stabilisation. Only exact velocity terms h (those of
     * the turning normal and of the plate's spin included) keep the contact
     * closed; dropping either lets it drift by centimetres in 2 s. */
    const char *tilt = "gravity 0 0 -9.81\nsolver method dp54 step 1e-3 until 2 rtol 1e-12 atol 1e-14 loops lagrange\n"
                       "ground\n marker h z 1 0 0\nend\n"
                       "body plate\n mass 5\n inertia 1 1 1\n marker c z 1 0 0\n marker top at 0 0 0.05\nend\n"
                       "body disk\n mass 1\n inertia 0.0025 0.0025 0.005\n position 0.1 0.05 0.15\n"
                       " orientation z 0.6 0.8 0 x 0 0 1\n marker c\nend\n"
                       "joint hinge revolute plate.c ground.h\ndriver tilt hinge harmonic 0.3 3\n"
                       "joint roll rolling disk.c plate.top radius 0.1\n";
    MtSystem *s = mt_test_system(tilt);
    MtRunStats stats;
    MtState *st = mt_test_run(s, NULL, NULL, &stats);
    CHECK(st->t > 1.999, "rocking plate: the run reaches 2 s (t = %g)", st->t);
    CHECK_ABS(stats.gmax, 0, 1e-9, "disk on a rocking plate, no stabilisation: contact height stays closed [m]");
    CHECK_ABS(stats.gdmax, 0, 1e-8, "disk on a rocking plate, no stabilisation: no slip at the contact [m/s]");
    mt_state_free(st);
    mt_system_free(s);
}

static double ball_exact(double t) { return 0.5 * (5.0 / 7.0) * 9.81 * sin(0.3) * t * t; }

int main(void)
{
    motion_rank();
    flat_lattice(5, 5);
    rolling_coin();
    rolling_on_moving_plane();
    static_reaction();
    atwood();
    {
        /* a solid sphere rolls down a 0.3 rad incline with a = 5/7 g sin α */
        char text[1024];
        double e;
        snprintf(text, sizeof text,
                 "gravity %.17g %.17g 0\nsolver method dp54 step 1e-2 until 1 rtol 1e-11 atol 1e-13\n"
                 "ground\n marker floor z 0 1 0 x 1 0 0\nend\n"
                 "body ball\n mass 2\n inertia 0.032 0.032 0.032\n position 0 0.2 0\n marker c\nend\n"
                 "joint roll ball ball.c ground.floor radius 0.2\n",
                 9.81 * sin(0.3), -9.81 * cos(0.3));
        run_probe(text, "ball.x", ball_exact, &e);
        CHECK_ABS(e, 0, 1e-8, "rolling sphere: centre travel ½ (5/7) g sin(a) t², max error [m]");
    }
    initial_conditions();
    gears();
    rack_and_screw();
    distance_rod();
    sliding_and_rolling();
    drivers();
    coupler();
    bricard();
    return mt_test_done();
}
