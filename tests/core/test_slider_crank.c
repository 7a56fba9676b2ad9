/* Slider-crank driven at constant crank speed: slider position against the
 * closed-form kinematics, and the crank-pin reaction against an independent
 * Newton–Euler calculation of the connecting rod and slider. The planar
 * mechanism built from revolute joints in 3D has redundant equations; they
 * must be found and removed with finite reactions. */
#include <string.h>

#include "mt_math.h"
#include "mt_test.h"

static const double r = 0.1, l = 0.3, w = 10, mr = 2, ms = 0.5, g = 9.81, Ir = 2 * 0.3 * 0.3 / 12;

static const char *model =
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

typedef struct { double xerr, ferr, fmax, xd_err; int n; } Acc;

static int cb(void *user, MtState *st)
{
    Acc *a = user;
    double t = st->t, ph = w * t;
    double sb = r * sin(ph) / l, cb_ = sqrt(1 - sb * sb);
    double xB = r * cos(ph) + l * cb_;
    double bd = r * w * cos(ph) / (l * cb_);
    double bdd = (-r * w * w * sin(ph) + l * bd * bd * sb) / (l * cb_);
    double xBd = -r * w * sin(ph) - l * sb * bd;
    double xBdd = -r * w * w * cos(ph) - l * (bdd * sb + bd * bd * cb_);
    double A[2] = {r * cos(ph), r * sin(ph)}, B[2] = {xB, 0}, G[2] = {0.5 * (A[0] + B[0]), 0.5 * (A[1] + B[1])};
    double aA[2] = {-r * w * w * cos(ph), -r * w * w * sin(ph)}, aG[2] = {0.5 * (aA[0] + xBdd), 0.5 * aA[1]};
    double alpha = -bdd;
    /* slider: ms xB'' = −F_Bx (force of slider on rod is F_B, guide has no x force) */
    double FBx = -ms * xBdd;
    double FAx = mr * aG[0] - FBx;
    double c1 = mr * aG[1] + mr * g; /* = F_Ay + F_By */
    double dA[2] = {A[0] - G[0], A[1] - G[1]}, dB[2] = {B[0] - G[0], B[1] - G[1]};
    /* Ir α = dA × F_A + dB × F_B with F_Ay = c1 − F_By */
    double FBy = (dA[0] * c1 - dA[1] * FAx + dB[0] * 0 - dB[1] * FBx - Ir * alpha) / (dA[0] - dB[0]);
    double FAy = c1 - FBy;
    double pos[3], vel[3];
    mt_body_origin(st, st->q, st->u, 2, pos, vel);
    double F[3], T[3], Fm[3], Tm[3];
    mt_joint_reaction(st, 1, F, T, Fm, Tm); /* crank_pin: force on the rod (marker i) */
    a->xerr = fmax(a->xerr, fabs(pos[0] - xB));
    a->xd_err = fmax(a->xd_err, fabs(vel[0] - xBd));
    a->ferr = fmax(a->ferr, fmax(fabs(F[0] - FAx), fabs(F[1] - FAy)));
    a->fmax = fmax(a->fmax, hypot(FAx, FAy));
    for (int k = 0; k < 3; k++)
        if (!isfinite(F[k]) || !isfinite(T[k])) a->n = -1000000;
    a->n++;
    return 0;
}

int main(void)
{
    MtSystem *s = mt_test_system(model);
    printf("  constraint equations %d, redundant %d, dof by rank %d\n", s->nrow, s->ndep, s->dof_rank);
    CHECK(s->ndep == 3 && s->dof_rank == 0, "planar slider-crank of 4 revolute-type joints + driver: expected 3 "
          "redundant equations and 0 dof, got %d and %d", s->ndep, s->dof_rank);
    Acc a = {0};
    MtRunStats stats;
    MtState *st = mt_test_run(s, cb, &a, &stats);
    CHECK(a.n > 1000, "all %d frames have finite reactions", a.n);
    CHECK_ABS(a.xerr, 0, 1e-9, "slider position against r cos(wt) + sqrt(l^2 - r^2 sin^2(wt)), max over 1.2 s [m]");
    CHECK_ABS(a.xd_err, 0, 1e-8, "slider velocity against the closed form, max [m/s]");
    CHECK_ABS(a.ferr / a.fmax, 0, 1e-6, "crank-pin reaction (in plane) against Newton-Euler of rod and slider, relative");
    mt_state_free(st);
    mt_system_free(s);
    return mt_test_done();
}
