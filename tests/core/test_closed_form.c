/* Rigid-body dynamics against closed-form answers of theoretical mechanics:
 * conical pendulum, double pendulum energy, torque-free asymmetric body
 * (conservation and the intermediate-axis flip), heavy symmetric top in
 * steady precession. */
#include <string.h>

#include "mt_math.h"
#include "motus/results.h"
#include "mt_test.h"

/* ---- conical pendulum: Ω² = g / (L cos α) for isotropic inertia ---- */
typedef struct { double ymin, ymax, phi, phi_prev, t; int n; } Cone;

static int cone_cb(void *user, MtState *st)
{
    Cone *c = user;
    const double *x = st->q; /* centre of mass */
    double phi = atan2(-x[2], x[0]);
    if (c->n == 0) { c->ymin = c->ymax = x[1]; c->phi = phi; }
    else {
        double d = phi - c->phi_prev;
        d -= 2 * M_PI * floor((d + M_PI) / (2 * M_PI));
        c->phi += d;
    }
    c->phi_prev = phi;
    c->ymin = fmin(c->ymin, x[1]);
    c->ymax = fmax(c->ymax, x[1]);
    c->t = st->t;
    c->n++;
    return 0;
}

static void conical(void)
{
    const double L = 0.5, a = 0.6, g = 9.81, W = sqrt(g / (L * cos(a)));
    char text[1024];
    snprintf(text, sizeof text,
             "gravity 0 -%g 0\nsolver method dp54 step 0.01 until 5 rtol 1e-12 atol 1e-14 ts 0.05\n"
             "ground\n marker o\nend\n"
             "body bob\n mass 1.5\n com 0 -%g 0\n inertia 0.01 0.01 0.01\n orientation axis 0 0 1 %.17g\n"
             " omega 0 %.17g 0\n marker o\nend\njoint ball spherical bob.o ground.o\n",
             g, L, a, W);
    MtSystem *s = mt_test_system(text);
    Cone c = {0};
    c.n = 0;
    MtState *st = mt_test_run(s, cone_cb, &c, NULL);
    printf("  bob centre height stayed within [%.17g, %.17g] m, %d frames\n", c.ymin, c.ymax, c.n);
    CHECK_ABS(c.ymax - c.ymin, 0, 1e-9, "conical pendulum: height variation of the bob over 5 s [m]");
    CHECK_ABS(c.ymin, -L * cos(a), 1e-9, "conical pendulum: height of the bob [m]");
    CHECK_REL(c.phi / c.t, W, 1e-9, "conical pendulum: rate of revolution sqrt(g/(L cos a)) [rad/s]");
    mt_state_free(st);
    mt_system_free(s);
}

/* ---- double pendulum: total energy constant ---- */
typedef struct { double e0, emax; int n; } Energy;

static int energy_cb(void *user, MtState *st)
{
    Energy *e = user;
    double T, V;
    mt_energy(st, st->q, st->u, &T, &V);
    if (e->n++ == 0) e->e0 = T + V;
    e->emax = fmax(e->emax, fabs(T + V - e->e0));
    return 0;
}

static void double_pendulum(void)
{
    const char *text =
        "gravity 0 -9.81 0\nsolver method dp54 step 0.01 until 10 rtol 1e-12 atol 1e-14 ts 0.05\n"
        "ground\n marker o\nend\n"
        "body upper\n mass 1\n com 0.5 0 0\n inertia 1e-3 0.0838 0.0838\n marker o\n marker tip at 1 0 0\nend\n"
        "body lower\n mass 0.7\n com 0.35 0 0\n inertia 1e-3 0.03 0.03\n position 1 0 0\n marker o\nend\n"
        "joint shoulder revolute upper.o ground.o\njoint elbow revolute lower.o upper.tip\n";
    MtSystem *s = mt_test_system(text);
    Energy e = {0};
    MtRunStats stats;
    MtState *st = mt_test_run(s, energy_cb, &e, &stats);
    const double scale = (1.0 * 0.5 + 0.7 * 1.35) * 9.81; /* the energy released falling from horizontal to hanging */
    printf("  double pendulum: %ld steps, %ld evaluations\n", stats.steps, stats.evals);
    CHECK_ABS(e.emax / scale, 0, 1e-8, "double pendulum: energy drift over 10 s relative to m g L");
    mt_state_free(st);
    mt_system_free(s);
}

/* ---- torque-free asymmetric body ---- */
typedef struct { double H0[3], E0, dH, dE, wy_min, wy_max; int n; } Free;

static int free_cb(void *user, MtState *st)
{
    Free *f = user;
    const double *w = st->u + 3;
    double H[3], T, V, wb[3], R[9], Hb[3];
    mt_energy(st, st->q, st->u, &T, &V);
    mt_quat_to_m3(R, st->q + 3);
    mt_m3_tmulv(wb, R, w); /* body-axis angular velocity */
    mt_m3_mulv(Hb, st->sys->Jc, wb);
    mt_m3_mulv(H, R, Hb); /* angular momentum about the centre of mass, project axes */
    if (f->n++ == 0) { mt_v3_copy(f->H0, H); f->E0 = T; f->wy_min = f->wy_max = wb[1]; }
    double d[3];
    mt_v3_sub(d, H, f->H0);
    f->dH = fmax(f->dH, mt_v3_norm(d) / mt_v3_norm(f->H0));
    f->dE = fmax(f->dE, fabs(T - f->E0) / f->E0);
    f->wy_min = fmin(f->wy_min, wb[1]);
    f->wy_max = fmax(f->wy_max, wb[1]);
    return 0;
}

static void torque_free(void)
{
    const char *text = "solver method dp54 step 0.01 until 20 rtol 1e-13 atol 1e-15\n"
                       "body brick\n mass 3\n inertia 1 2 3\n orientation axis 1 1 1 0.3\n omega 0.01 2 0.01\nend\n";
    /* ω is given in project axes; rotate the intended body-axis ω (0.01, 2, 0.01) accordingly */
    MtError err = {0};
    MtModel *m = mt_model_parse(text, "<test>", &err);
    CHECK(m != NULL, "parse: %s", err.msg);
    double wb[3] = {0.01, 2, 0.01};
    mt_m3_mulv(m->body[0].omega, m->body[0].rot, wb);
    MtSystem *s = mt_system_compile(m, &err);
    if (s && mt_system_assemble(s, &err)) { mt_system_free(s); s = NULL; }
    mt_model_free(m);
    Free f = {0};
    MtState *st = mt_test_run(s, free_cb, &f, NULL);
    CHECK_ABS(f.dH, 0, 1e-10, "free body: relative change of angular momentum (project axes)");
    CHECK_ABS(f.dE, 0, 1e-10, "free body: relative change of kinetic energy");
    CHECK(f.wy_min < -1.9 && f.wy_max > 1.9, "intermediate-axis flip: body w_y ranged %g..%g, expected to reach both +-1.9",
          f.wy_min, f.wy_max);
    printf("%s intermediate-axis flip: body w_y ranged from %.4f to %.4f rad/s\n",
           (f.wy_min < -1.9 && f.wy_max > 1.9) ? "ok  " : "FAIL", f.wy_min, f.wy_max);
    mt_state_free(st);
    mt_system_free(s);
}

/* ---- heavy symmetric top in steady precession: Ω (C ω3 − A Ω cos θ) = m g l ---- */
typedef struct { double phi, phi_prev, t, tilt_min, tilt_max; int n; } Top;

static int top_cb(void *user, MtState *st)
{
    Top *tp = user;
    double R[9], e3[3];
    mt_quat_to_m3(R, st->q + 3);
    mt_v3_set(e3, R[2], R[5], R[8]);
    double phi = atan2(e3[1], e3[0]), tilt = acos(e3[2]);
    if (tp->n++ == 0) { tp->phi = 0; tp->tilt_min = tp->tilt_max = tilt; }
    else {
        double d = phi - tp->phi_prev;
        d -= 2 * M_PI * floor((d + M_PI) / (2 * M_PI));
        tp->phi += d;
    }
    tp->phi_prev = phi;
    tp->tilt_min = fmin(tp->tilt_min, tilt);
    tp->tilt_max = fmax(tp->tilt_max, tilt);
    tp->t = st->t;
    return 0;
}

static void heavy_top(void)
{
    const double m = 1, l = 0.1, g = 9.81, Ac = 0.002, C = 0.004, th = 0.5, w3 = 100;
    const double A = Ac + m * l * l;
    const double W = (C * w3 - sqrt(C * C * w3 * w3 - 4 * A * cos(th) * m * g * l)) / (2 * A * cos(th));
    double e3[3] = {0, -sin(th), cos(th)}, w[3];
    for (int k = 0; k < 3; k++) w[k] = (k == 2 ? W : 0) + (w3 - W * cos(th)) * e3[k];
    char text[1024];
    snprintf(text, sizeof text,
             "gravity 0 0 -%g\nsolver method dp54 step 0.001 until 2 rtol 1e-12 atol 1e-14 ts 0.05\n"
             "ground\n marker o\nend\n"
             "body top\n mass %g\n com 0 0 %g\n inertia %g %g %g\n orientation axis 1 0 0 %.17g\n"
             " omega %.17g %.17g %.17g\n marker tip\nend\njoint pivot spherical top.tip ground.o\n",
             g, m, l, Ac, Ac, C, th, w[0], w[1], w[2]);
    MtSystem *s = mt_test_system(text);
    Top tp = {0};
    MtState *st = mt_test_run(s, top_cb, &tp, NULL);
    CHECK_REL(tp.phi / tp.t, W, 1e-8, "heavy top: steady precession rate [rad/s]");
    CHECK_ABS(tp.tilt_max - tp.tilt_min, 0, 1e-9, "heavy top: nutation (tilt variation) [rad]");
    mt_state_free(st);
    mt_system_free(s);
}

int main(void)
{
    conical();
    double_pendulum();
    torque_free();
    heavy_top();
    return mt_test_done();
}
