/* Analyses besides time integration (core/analysis/mt_analysis.c) against closed form:
 *   kinematics  slider-crank driven at constant speed: slider position,
 *               velocity and acceleration; the crank-pin reaction against a
 *               Newton–Euler calculation and the motor torque against the
 *               power balance and a dynamic run; refusal of a free pendulum;
 *   statics     a body hanging from a vertical spring (deflection m·g/k), a
 *               pendulum held sideways by a horizontal spring (tan θ = T/(m·g))
 *               and its pivot reaction, the same found by dynamic relaxation,
 *               a horizontal bar held by its motor, an inverted pendulum
 *               (an unstable equilibrium);
 *   modes       physical pendulum ω² = m·g·L/(I + m·L²), mass–spring–damper on a
 *               prismatic joint (ω_n = √(k/m), ζ = c/(2√(km)), overdamped too),
 *               double pendulum of two point-like masses (frequencies and
 *               mode-shape ratios of the linearised equations), inverted
 *               pendulum (divergent root √(m·g·L/I_p)). */
#include <string.h>

#include "motus/analysis.h"
#include "mt_math.h"
#include "mt_test.h"

static const double g = 9.81;

/* ---- kinematics: slider-crank ------------------------------------------------- */

static const double r = 0.1, l = 0.3, w = 10, mr = 2, ms = 0.5, Ir = 0.015;

static const char *slider_crank =
    "gravity 0 -9.81 0\n"
    "solver method rk4 step 1e-3 until 1.2 ts 0.02 correct both\n"
    "ground\n marker o\n marker rail z 1 0 0\nend\n"
    "body crank\n mass 1\n com 0.05 0 0\n inertia 1e-4 8.4e-4 8.4e-4\n marker o\n marker pin at 0.1 0 0\nend\n"
    "body rod\n mass 2\n com 0.15 0 0\n inertia 1e-4 0.015 0.015\n position 0.1 0 0\n marker a\n marker b at 0.3 0 0\nend\n"
    "body slider\n mass 0.5\n inertia 1e-4 1e-4 1e-4\n position 0.4 0 0\n marker b\n marker s z 1 0 0\nend\n"
    "joint pivot revolute crank.o ground.o\n"
    "joint crank_pin revolute rod.a crank.pin\n"
    "joint wrist revolute slider.b rod.b\n"
    "joint slide prismatic slider.s ground.rail\n"
    "driver spin pivot rate 10\n";

#define NREC 200
typedef struct {
    double xerr, verr, aerr, ferr, fmax, perr, pmax;
    int n;
    double t[NREC], tau[NREC];
} Kin;

static int kin_cb(void *user, MtState *st)
{
    Kin *a = user;
    const MtSystem *s = st->sys;
    double t = st->t, ph = w * t;
    double sb = r * sin(ph) / l, cb_ = sqrt(1 - sb * sb);
    double xB = r * cos(ph) + l * cb_;
    double bd = r * w * cos(ph) / (l * cb_);
    double bdd = (-r * w * w * sin(ph) + l * bd * bd * sb) / (l * cb_);
    double xBd = -r * w * sin(ph) - l * sb * bd;
    double xBdd = -r * w * w * cos(ph) - l * (bdd * sb + bd * bd * cb_);
    /* crank-pin force on the rod from Newton–Euler of the rod and the slider */
    double A[2] = {r * cos(ph), r * sin(ph)}, B[2] = {xB, 0}, G[2] = {0.5 * (A[0] + B[0]), 0.5 * (A[1] + B[1])};
    double aA[2] = {-r * w * w * cos(ph), -r * w * w * sin(ph)}, aG[2] = {0.5 * (aA[0] + xBdd), 0.5 * aA[1]};
    double alpha = -bdd, FBx = -ms * xBdd, FAx = mr * aG[0] - FBx, c1 = mr * aG[1] + mr * g;
    double dA[2] = {A[0] - G[0], A[1] - G[1]}, dB[2] = {B[0] - G[0], B[1] - G[1]};
    double FBy = (dA[0] * c1 - dA[1] * FAx - dB[1] * FBx - Ir * alpha) / (dA[0] - dB[0]), FAy = c1 - FBy;
    double F[3], T[3], Fm[3], Tm[3];
    mt_joint_reaction(st, 1, F, T, Fm, Tm);
    a->xerr = fmax(a->xerr, fabs(st->q[14] - xB));
    a->verr = fmax(a->verr, fabs(st->u[12] - xBd));
    a->aerr = fmax(a->aerr, fabs(st->acc[12] - xBdd));
    a->ferr = fmax(a->ferr, fmax(fabs(F[0] - FAx), fabs(F[1] - FAy)));
    a->fmax = fmax(a->fmax, hypot(FAx, FAy));
    /* power balance: τ·ω = Σ (m a·v + ω·(J ε + ω × J ω)) − Σ m g·v */
    double P = 0;
    for (int b = 0; b < s->nbody; b++) {
        const double *v = st->u + 6 * b, *om = v + 3, *ac = st->acc + 6 * b, *ep = ac + 3;
        double R[9], p[4] = {st->q[7 * b + 3], st->q[7 * b + 4], st->q[7 * b + 5], st->q[7 * b + 6]}, J[9], Je[3], Jw[3], wx[3];
        mt_quat_to_m3(R, p);
        mt_m3_rotate_sym(J, R, s->Jc + 9 * b);
        mt_m3_mulv(Je, J, ep);
        mt_m3_mulv(Jw, J, om);
        mt_v3_cross(wx, om, Jw);
        P += s->mass[b] * (mt_v3_dot(ac, v) - mt_v3_dot(s->gravity, v)) + mt_v3_dot(om, Je) + mt_v3_dot(om, wx);
    }
    double tau = mt_driver_effort(st, 0);
    a->perr = fmax(a->perr, fabs(tau * w - P));
    a->pmax = fmax(a->pmax, fabs(P));
    if (a->n < NREC) { a->t[a->n] = t; a->tau[a->n] = tau; }
    a->n++;
    return 0;
}

typedef struct { const Kin *k; double err, max; int n; } Dyn;

static int dyn_cb(void *user, MtState *st)
{
    Dyn *d = user;
    for (int i = 0; i < d->k->n && i < NREC; i++)
        if (fabs(d->k->t[i] - st->t) < 1e-9) {
            d->err = fmax(d->err, fabs(mt_driver_effort(st, 0) - d->k->tau[i]));
            d->max = fmax(d->max, fabs(d->k->tau[i]));
            d->n++;
        }
    return 0;
}

static void test_kinematics(void)
{
    printf("-- kinematics: slider-crank, crank at 10 rad/s\n");
    MtSystem *s = mt_test_system(slider_crank);
    MtError err = {0};
    MtState *st = mt_state_new(s, &err);
    Kin k = {0};
    MtKinStats ks;
    MtStatus rc = mt_kinematics(st, 1.2, 0.01, 1, kin_cb, &k, NULL, &ks, &err);
    CHECK(rc == MT_OK, "kinematics ran: %s", err.msg);
    CHECK(k.n == 121, "121 frames, got %d", k.n);
    printf("  %ld points, constraint violation %.2g, velocity violation %.2g, |kinematic - dynamic acceleration| %.2g\n",
           ks.steps, ks.gmax, ks.gdmax, ks.accdiff);
    CHECK_ABS(k.xerr, 0, 1e-10, "slider position vs r cos wt + sqrt(l^2 - r^2 sin^2 wt), max [m]");
    CHECK_ABS(k.verr, 0, 1e-10, "slider velocity vs closed form, max [m/s]");
    CHECK_ABS(k.aerr, 0, 1e-10, "slider acceleration vs closed form, max [m/s^2]");
    CHECK_ABS(k.ferr / k.fmax, 0, 1e-10, "crank-pin reaction vs Newton-Euler of rod and slider, relative to max");
    CHECK_ABS(k.perr / k.pmax, 0, 1e-10, "motor torque x omega vs rate of kinetic + potential energy, relative");
    CHECK_ABS(ks.accdiff, 0, 1e-8, "inverse dynamics reproduces the kinematic accelerations [m/s^2]");
    mt_state_free(st);
    /* the same motion integrated: efforts agree at the common times */
    Dyn d = {&k, 0, 0, 0};
    MtRunStats rs;
    st = mt_test_run(s, dyn_cb, &d, &rs);
    CHECK(d.n >= 100, "compared %d common frames", d.n);
    CHECK_ABS(d.err / d.max, 0, 1e-6, "motor torque, kinematics vs dynamic run (RK4 h = 1 ms), relative to max");
    mt_state_free(st);
    mt_system_free(s);

    /* a pendulum has a free angle: refused, naming it */
    s = mt_test_system("gravity 0 -9.81 0\nground\n marker o\nend\nbody bob\n com 0 -1 0\n marker h\nend\n"
                       "joint pin revolute bob.h ground.o\n");
    st = mt_state_new(s, &err);
    memset(&err, 0, sizeof err);
    rc = mt_kinematics(st, 1, 0.1, 1, NULL, NULL, NULL, NULL, &err);
    printf("  refusal: %s\n", err.msg);
    CHECK(rc == MT_ERR_MODEL && strstr(err.msg, "1 degree(s) of freedom") && strstr(err.msg, "'pin' angle") &&
              !strcmp(err.entity, "pin"),
          "free pendulum refused naming 'pin' angle: %s", err.msg);
    mt_state_free(st);
    mt_system_free(s);
}

/* ---- statics ------------------------------------------------------------------ */

/* The static equilibrium of a model text (checked to be found); the caller frees the state and *sys. */
static MtState *at_rest(const char *text, MtSystem **sys, MtStaticsInfo *info)
{
    MtSystem *s = *sys = mt_test_system(text);
    MtError err = {0};
    MtState *st = mt_state_new(s, &err);
    MtStatus rc = mt_statics(st, NULL, info, &err);
    CHECK(rc == MT_OK, "statics: %s", err.msg);
    return st;
}

static void test_hanging_spring(void)
{
    printf("-- statics: body hanging from a vertical spring\n");
    const double m = 2, k = 500, L0 = 0.5, a = 0.1;
    char text[1024];
    snprintf(text, sizeof text,
             "gravity 0 -9.81 0\nground\n marker anchor\nend\n"
             "body box\n mass %g\n inertia 0.01 0.02 0.03\n position 0.05 -0.62 0.02\n orientation axis 1 0 1 10deg\n"
             " marker top at 0 %g 0\nend\n"
             "spring s box.top ground.anchor k %g length %g\n",
             m, a, k, L0);
    MtStaticsInfo info;
    MtSystem *s;
    MtState *st = at_rest(text, &s, &info);
    printf("  %d Newton iterations, residual %.2g N, %.2g N m; dof %d, negative %d, neutral %d\n", info.iterations,
           info.force_residual, info.moment_residual, info.dof, info.negative, info.neutral);
    double len, rate, ten;
    mt_spring_state(st, st->q, st->u, 0, &len, &rate, &ten);
    CHECK_REL(len - L0, m * g / k, 1e-10, "spring deflection vs m g / k [m]");
    CHECK_REL(ten, m * g, 1e-10, "spring tension vs m g [N]");
    CHECK_ABS(hypot(st->q[0], st->q[2]), 0, 1e-12, "centre of mass straight below the anchor [m]");
    CHECK_REL(st->q[1], -(L0 + m * g / k) - a, 1e-12, "centre of mass height [m]");
    double R[9];
    mt_quat_to_m3(R, st->q + 3);
    CHECK_ABS(R[4], 1, 1e-12, "body y axis vertical (attachment above the centre of mass)");
    CHECK(info.negative == 0 && info.neutral == 1 && info.dof == 6,
          "stable, one neutral direction (turning about the spring): negative %d neutral %d", info.negative, info.neutral);
    mt_state_free(st);
    mt_system_free(s);
}

/* Pendulum (point-like bob on a light rod, L) held at θ* by a horizontal
 * spring to a wall point: T = k (d − L0) and tan θ* = T / (m g). */
static const double pL = 0.8, pm = 1.5, pd = 0.4, pL0 = 0.25, pth = M_PI / 6;

static MtSystem *held_pendulum(void)
{
    double k = pm * g * tan(pth) / (pd - pL0);
    char text[1024];
    snprintf(text, sizeof text,
             "gravity 0 -9.81 0\nsolver ts 0.05\nground\n marker o\n marker wall at %.17g %.17g 0\nend\n"
             "body bob\n mass %g\n com 0 %g 0\n inertia 1e-6 1e-6 1e-6\n marker h\n marker b at 0 %g 0\nend\n"
             "joint pin revolute bob.h ground.o\n"
             "spring s bob.b ground.wall k %.17g length %g\n",
             pL * sin(pth) + pd, -pL * cos(pth), pm, -pL, -pL, k, pL0);
    return mt_test_system(text);
}

static void test_held_pendulum(int relax_first)
{
    printf("-- statics: pendulum held sideways by a horizontal spring%s\n", relax_first ? " (dynamic relaxation first)" : "");
    MtSystem *s = held_pendulum();
    MtError err = {0};
    MtState *st = mt_state_new(s, &err);
    MtStaticsInfo info;
    MtStaticsOptions opt = {0};
    opt.relax_first = relax_first;
    MtStatus rc = mt_statics(st, &opt, &info, &err);
    CHECK(rc == MT_OK, "statics: %s", err.msg);
    printf("  %d Newton iterations, %ld relaxation steps, residual %.2g N, %.2g N m, %.2g\n", info.iterations,
           info.relax_steps, info.force_residual, info.moment_residual, info.constraint_residual);
    double T = pm * g * tan(pth);
    CHECK_ABS(mt_joint_coordinate(st, st->q, 0), pth, 1e-10, "equilibrium angle vs atan(k (d - L0) / (m g)) [rad]");
    double len, rate, ten;
    mt_spring_state(st, st->q, st->u, 0, &len, &rate, &ten);
    CHECK_REL(ten, T, 1e-9, "spring tension vs m g tan(theta) [N]");
    double F[3], Tq[3], Fm[3], Tm[3];
    mt_joint_reaction(st, 0, F, Tq, Fm, Tm);
    CHECK_REL(F[0], -T, 1e-9, "pivot reaction on the pendulum, x [N]");
    CHECK_REL(F[1], pm * g, 1e-9, "pivot reaction on the pendulum, y [N]");
    CHECK_ABS(hypot(F[2], mt_v3_norm(Tq)), 0, 1e-9, "pivot reaction: no out-of-plane force, no moment");
    CHECK(info.negative == 0 && info.neutral == 0 && info.dof == 1, "stable, 1 dof: negative %d neutral %d dof %d",
          info.negative, info.neutral, info.dof);
    mt_state_free(st);
    mt_system_free(s);
}

static void test_motor_holds(void)
{
    printf("-- statics: horizontal bar held by its motor (driver rate 5 held at f(0))\n");
    MtSystem *s = mt_test_system("gravity 0 -9.81 0\nground\n marker o\nend\n"
                                 "body bar\n mass 3\n com 0.5 0 0\n inertia 0.001 0.25 0.25\n marker h\nend\n"
                                 "joint pin revolute bar.h ground.o\ndriver motor pin rate 5\n");
    MtError err = {0};
    MtState *st = mt_state_new(s, &err);
    MtStaticsInfo info;
    MtStatus rc = mt_statics(st, NULL, &info, &err);
    CHECK(rc == MT_OK, "statics: %s", err.msg);
    CHECK_ABS(mt_joint_coordinate(st, st->q, 0), 0, 1e-12, "bar stays at the driver's f(0) = 0 [rad]");
    CHECK_REL(mt_driver_effort(st, 0), 0.5 * 3 * g, 1e-10, "motor holding torque vs m g L/2 [N m]");
    CHECK(info.dof == 0, "driven: no dof left (%d)", info.dof);
    mt_state_free(st);
    mt_system_free(s);
}

/* The solver's `hold`: a blob on a spring under gravity tilted by gx = 1 m/s² (left alone it hangs along g,
 * x = L gx/|g|), held at x = 0 (the spring then vertical, L = L0 + m gy/k); beside it the motor-held bar, whose
 * driver block follows the hold's joint in the static system (its effort must still be m g L/2). */
static void test_hold(void)
{
    printf("-- statics: solver hold (a coordinate held where it starts)\n");
    const double m = 2, k = 1000, L0 = 0.5, gx = 1, gy = 9.81;
    for (int held = 0; held < 2; held++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "gravity %g %g 0\nsolver %s\nground\n marker top at 0 1 0\n marker o at 3 0 0\nend\n"
                 "body blob\n mass %g\n inertia 0.1 0.1 0.1\n marker m\nend\n"
                 "spring s blob.m ground.top k %g length %g\n"
                 "body bar\n mass 3\n position 3 0 0\n com 0.5 0 0\n inertia 0.001 0.25 0.25\n marker h\nend\n"
                 "joint pin revolute bar.h ground.o\ndriver motor pin rate 5\n",
                 gx, -gy, held ? "hold blob.x" : "", m, k, L0);
        MtStaticsInfo info;
        MtSystem *s;
        MtState *st = at_rest(text, &s, &info);
        double L = L0 + m * (held ? gy : hypot(gx, gy)) / k;
        CHECK_ABS(st->q[0], held ? 0 : L * gx / hypot(gx, gy), 1e-12, held ? "held blob stays at x = 0 [m]" : "free blob hangs along g: x [m]");
        CHECK_ABS(st->q[1], 1 - L * (held ? 1 : gy / hypot(gx, gy)), 1e-12, "blob height [m]");
        CHECK_REL(mt_driver_effort(st, 0), -0.5 * 3 * (-gy), 1e-10, "motor holding torque beside the hold vs m g L/2 [N m]");
        CHECK(info.nhold == held, "holds reported: %d", info.nhold);
        if (held) CHECK_REL(info.hold_force[0], -m * gx, 1e-10, "the hold's force against the tilt of gravity, -m gx [N]");
        mt_state_free(st);
        mt_system_free(s);
    }
    /* words that name nothing are refused at the model's check, naming the word */
    static const char *const bad[][2] = {{"blob.q", "name a coordinate as BODY.x"}, {"blb.x", "'blb.x' names no moving body"},
                                         {"ground.x", "'ground.x' names no moving body"}, {"blob.n.x", "'blob.n.x' names no"}};
    for (int i = 0; i < 4; i++) {
        char text[512];
        snprintf(text, sizeof text, "solver hold %s\nground\nend\nbody blob\n marker m\nend\n", bad[i][0]);
        MtError err = {0};
        MtModel *mm = mt_model_parse(text, "hold", &err);
        int refused = !mm || mt_model_validate(mm, &err) != MT_OK;
        CHECK(refused && strstr(err.msg, bad[i][1]), "hold %s refused: %s", bad[i][0], err.msg);
        mt_model_free(mm);
    }
}

static const char *inverted =
    "gravity 0 -9.81 0\nground\n marker o\nend\n"
    "body stick\n mass 2\n com 0 0.6 0\n inertia 0.03 0.001 0.03\n orientation axis 0 0 1 5deg\n marker h\nend\n"
    "joint pin revolute stick.h ground.o\n";

static void test_inverted(void)
{
    printf("-- statics: inverted pendulum started 5 deg off the top\n");
    MtSystem *s = mt_test_system(inverted);
    MtError err = {0};
    MtState *st = mt_state_new(s, &err);
    MtStaticsInfo info;
    MtStatus rc = mt_statics(st, NULL, &info, &err);
    CHECK(rc == MT_OK, "statics: %s", err.msg);
    CHECK_ABS(mt_joint_coordinate(st, st->q, 0), 0, 1e-12, "Newton finds the upright equilibrium [rad]");
    CHECK(info.negative == 1, "the upright equilibrium is unstable: %d negative stiffness directions", info.negative);
    double Ip = 0.03 + 2 * 0.36;
    CHECK_REL(info.lowest, -2 * g * 0.6 / Ip, 1e-12, "lowest eigenvalue of M^-1 K vs -m g L / I_p [1/s^2]");
    mt_state_free(st);

    MtModes *md = NULL;
    st = mt_state_new(s, &err);
    rc = mt_modes(st, 1, &md, &err);
    CHECK(rc == MT_OK && md && md->nmode == 1, "modes of the inverted pendulum: %s", err.msg);
    if (md && md->nmode == 1) {
        CHECK(md->mode[0].kind == MT_MODE_DIVERGENT, "divergent root, kind %s", mt_mode_kind_name(md->mode[0].kind));
        CHECK_REL(md->mode[0].s_re, sqrt(2 * g * 0.6 / Ip), 1e-12, "divergent root vs sqrt(m g L / I_p) [1/s]");
    }
    mt_modes_free(md);
    mt_state_free(st);
    mt_system_free(s);
}

/* Planar four-bar (parallelogram) of revolute joints in 3D, started upright:
 * balanced there but unstable; relaxation with the escape step finds it
 * hanging. One dof θ: M = 2(I + m a²) + m_c r², stiffness ∓(2 m a + m_c r) g. */
static const char *fourbar =
    "gravity 0 -9.81 0\nground\n marker a\n marker d at 0.4 0 0\nend\n"
    "body crank\n mass 1\n com 0 0.05 0\n inertia 1e-3 1e-4 1e-3\n marker a\n marker b at 0 0.1 0\nend\n"
    "body coupler\n mass 1\n com 0.2 0 0\n inertia 1e-4 4e-3 4e-3\n position 0 0.1 0\n marker b\n marker c at 0.4 0 0\nend\n"
    "body rocker\n mass 1\n com 0 0.05 0\n inertia 1e-3 1e-4 1e-3\n position 0.4 0 0\n marker d\n marker c at 0 0.1 0\nend\n"
    "joint ja revolute crank.a ground.a\njoint jb revolute coupler.b crank.b\n"
    "joint jc revolute rocker.c coupler.c\njoint jd revolute rocker.d ground.d\n";

static void test_fourbar(void)
{
    printf("-- statics: parallelogram four-bar (3 redundant equations) upright, then settled\n");
    const double w2 = (2 * 0.05 + 0.1) * g / (2 * (1e-3 + 0.05 * 0.05) + 0.1 * 0.1);
    MtSystem *s = mt_test_system(fourbar);
    MtError err = {0};
    MtState *st = mt_state_new(s, &err);
    MtStaticsInfo info;
    MtStatus rc = mt_statics(st, NULL, &info, &err);
    CHECK(rc == MT_OK && info.negative == 1 && info.dof == 1, "upright: an unstable equilibrium (%s)", err.msg);
    CHECK_REL(info.lowest, -w2, 1e-12, "upright: eigenvalue of M^-1 K vs -(2 m a + m_c r) g / M [1/s^2]");
    mt_state_free(st);
    st = mt_state_new(s, &err);
    MtStaticsOptions opt = {0};
    opt.relax_first = 1;
    rc = mt_statics(st, &opt, &info, &err);
    printf("  settled: %d Newton iterations after %ld relaxation steps\n", info.iterations, info.relax_steps);
    CHECK(rc == MT_OK && info.negative == 0 && info.neutral == 0, "settled: a stable equilibrium (%s)", err.msg);
    CHECK_REL(info.lowest, w2, 1e-12, "hanging: eigenvalue of M^-1 K vs (2 m a + m_c r) g / M [1/s^2]");
    CHECK_ABS(fabs(mt_joint_coordinate(st, st->q, 0)), M_PI, 1e-12, "hanging: crank angle +-pi [rad]");
    double F[3], T[3], Fm[3], Tm[3], Fy = 0;
    for (int j = 0; j < 4; j++) {
        mt_joint_reaction(st, j, F, T, Fm, Tm);
        if (j == 0 || j == 3) Fy += F[1];
    }
    CHECK_REL(Fy, 3 * g, 1e-12, "hanging: ground joints carry the weight of all three links [N]");
    mt_state_free(st);
    mt_system_free(s);
}

/* ---- modes ------------------------------------------------------------------ */

static MtModes *modes_of(const char *text, int at_eq, MtSystem **sp, MtState **stp)
{
    MtSystem *s = mt_test_system(text);
    MtError err = {0};
    MtState *st = mt_state_new(s, &err);
    MtModes *md = NULL;
    if (mt_modes(st, at_eq, &md, &err)) {
        printf("FAIL modes: %s\n", err.msg);
        exit(1);
    }
    for (int i = 0; i < md->nmode; i++)
        printf("  mode %d: %s, f = %.12g Hz, zeta = %.12g, s = %.12g %+.12gi\n", i + 1, mt_mode_kind_name(md->mode[i].kind),
               md->mode[i].freq, md->mode[i].zeta, md->mode[i].s_re, md->mode[i].s_im);
    *sp = s;
    *stp = st;
    return md;
}

static void test_pendulum_mode(int at_eq)
{
    printf("-- modes: physical pendulum (%s)\n", at_eq ? "at equilibrium" : "at the initial state");
    const double m = 2, L = 0.8, I = 0.05;
    MtSystem *s;
    MtState *st;
    MtModes *md = modes_of("gravity 0 -9.81 0\nground\n marker o\nend\n"
                           "body bob\n mass 2\n com 0 -0.8 0\n inertia 0.05 0.05 0.05\n marker h\nend\n"
                           "joint pin revolute bob.h ground.o\n",
                           at_eq, &s, &st);
    double wn = sqrt(m * g * L / (I + m * L * L));
    CHECK(md->nmode == 1 && md->dof == 1, "one mode, got %d", md->nmode);
    CHECK(md->mode[0].kind == MT_MODE_OSCILLATORY, "oscillatory");
    CHECK_REL(md->mode[0].freq, wn / (2 * M_PI), 1e-12, "frequency vs sqrt(m g L / (I + m L^2)) / 2pi [Hz]");
    CHECK_ABS(md->mode[0].zeta, 0, 1e-9, "damping ratio");
    const double *sh = md->mode[0].shape_re;
    CHECK_REL(sh[0] / sh[5], L, 1e-9, "shape: centre-of-mass sideways motion / rotation = L [m]");
    CHECK_REL(md->mode[0].coord_re[0] / sh[5], 1, 1e-8, "shape: joint angle = body rotation");
    mt_modes_free(md);
    mt_state_free(st);
    mt_system_free(s);
}

static void test_msd(double c)
{
    const double m = 2, k = 400;
    printf("-- modes: mass-spring-damper on a vertical prismatic joint, c = %g\n", c);
    char text[1024];
    snprintf(text, sizeof text,
             "gravity 0 -9.81 0\nground\n marker rail z 0 1 0\n marker top at 0 1 0\nend\n"
             "body mass\n mass %g\n inertia 0.01 0.01 0.01\n position 0 0.2 0\n marker s z 0 1 0\n marker t\nend\n"
             "joint slide prismatic mass.s ground.rail\n"
             "spring sp mass.t ground.top k %g c %g length 0.8\n",
             m, k, c);
    MtSystem *s;
    MtState *st;
    MtModes *md = modes_of(text, 1, &s, &st);
    CHECK_REL(st->q[1], 0.2 - m * g / k, 1e-10, "static deflection m g / k below the unloaded position [m]");
    double wn = sqrt(k / m), z = c / (2 * sqrt(k * m));
    CHECK(md->nmode == 1, "one mode, got %d", md->nmode);
    CHECK(md->mode[0].kind == (z < 1 ? MT_MODE_OSCILLATORY : MT_MODE_OVERDAMPED), "kind %s", mt_mode_kind_name(md->mode[0].kind));
    CHECK_REL(md->mode[0].freq, wn / (2 * M_PI), 1e-12, "natural frequency vs sqrt(k/m) / 2pi [Hz]");
    CHECK_REL(md->mode[0].zeta, z, 1e-11, "damping ratio vs c / (2 sqrt(k m))");
    if (z < 1) CHECK_REL(md->mode[0].damped_freq, wn * sqrt(1 - z * z) / (2 * M_PI), 1e-12, "damped frequency [Hz]");
    CHECK_ABS(md->mode[0].shape_re[1], 1, 1e-12, "shape: vertical motion only");
    mt_modes_free(md);
    mt_state_free(st);
    mt_system_free(s);
}

static void test_double_pendulum(void)
{
    printf("-- modes: double pendulum of two point-like masses\n");
    const double m1 = 1, m2 = 0.5, L1 = 1, L2 = 0.7, I = 1e-6;
    char text[1024];
    snprintf(text, sizeof text,
             "gravity 0 -9.81 0\nground\n marker o\nend\n"
             "body upper\n mass %g\n com 0 %g 0\n inertia %g %g %g\n orientation axis 0 0 1 20deg\n marker h\n marker e at 0 %g 0\nend\n"
             "body lower\n mass %g\n com 0 %g 0\n inertia %g %g %g\n position 0.34202014332566871 -0.93969262078590843 0\n"
             " orientation axis 0 0 1 -15deg\n marker h\nend\n"
             "joint j1 revolute upper.h ground.o\njoint j2 revolute lower.h upper.e\n",
             m1, -L1, I, I, I, -L1, m2, -L2, I, I, I);
    MtSystem *s;
    MtState *st;
    MtModes *md = modes_of(text, 1, &s, &st);
    /* M = [[I + (m1+m2) L1², m2 L1 L2], [m2 L1 L2, I + m2 L2²]], K = diag((m1+m2) g L1, m2 g L2) in absolute angles */
    double M11 = I + (m1 + m2) * L1 * L1, M12 = m2 * L1 * L2, M22 = I + m2 * L2 * L2;
    double K11 = (m1 + m2) * g * L1, K22 = m2 * g * L2;
    double a = M11 * M22 - M12 * M12, b = M11 * K22 + M22 * K11, c = K11 * K22;
    double disc = sqrt(b * b - 4 * a * c);
    double w2[2];
    w2[1] = (b + disc) / (2 * a);
    w2[0] = c / (a * w2[1]); /* the smaller root without cancellation */
    CHECK(md->nmode == 2, "two modes, got %d", md->nmode);
    for (int i = 0; i < 2 && i < md->nmode; i++) {
        const MtMode *mo = &md->mode[i];
        char what[128];
        snprintf(what, sizeof what, "mode %d frequency vs linearised double pendulum [Hz]", i + 1);
        CHECK_REL(mo->freq, sqrt(w2[i]) / (2 * M_PI), 1e-12, what);
        double ratio = (K11 - w2[i] * M11) / (w2[i] * M12);
        snprintf(what, sizeof what, "mode %d shape: lower / upper rotation", i + 1);
        CHECK_REL(mo->shape_re[11] / mo->shape_re[5], ratio, 1e-8, what);
        snprintf(what, sizeof what, "mode %d shape: joint angles j2 / j1 = ratio - 1", i + 1);
        CHECK_REL(mo->coord_re[1] / mo->coord_re[0], ratio - 1, 1e-7, what);
        CHECK_ABS(mo->zeta, 0, 1e-9, "undamped");
    }
    mt_modes_free(md);
    mt_state_free(st);
    mt_system_free(s);
}

int main(void)
{
    test_kinematics();
    test_hanging_spring();
    test_held_pendulum(0);
    test_held_pendulum(1);
    test_motor_holds();
    test_hold();
    test_inverted();
    test_fourbar();
    test_pendulum_mode(1);
    test_pendulum_mode(0);
    test_msd(6);
    test_msd(100);
    test_double_pendulum();
    return mt_test_done();
}
