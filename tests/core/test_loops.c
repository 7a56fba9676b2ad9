/* Solver fast paths and loop-closure laws:
 *  - lean spherical rows (compact storage, written out on demand) and the block
 *    LDLᵀ factor: on a closed loop of spinning bodies the rows read back through
 *    mt_state_G give ġ = G u, and the accelerations satisfy
 *    G u̇ + h = −2ξΩ ġ − Ω² g for every row (the Baumgarte law the solve enforces);
 *  - penalty and modified Lagrange with the full gain matrices: a point mass
 *    hanging on a rod settles with the stretch g = (G a0)/ν² = 9.81/ν² under the
 *    penalty, and with none under the modified Lagrange function (integral action). */
#include <string.h>

#include "mt_test.h"

/* Four bodies in a loop closed at both ends on the ground, turned and spinning. */
static const char *loop4 =
    "gravity 0 -9.81 0\nsolver ts 0.01 xi 1\nground\n marker o\n marker e at 0.9 -0.2 0.1\nend\n"
    "body a\n mass 1.5\n com 0.1 0 0\n inertia 0.01 0.02 0.025\n orientation axis 0.3 0.5 0.8 0.7\n omega 1 -2 0.5\n"
    " velocity 0.2 0 -0.1\n marker o\n marker t at 0.3 0 0\nend\n"
    "body b\n mass 0.7\n com 0.1 0.02 0\n inertia 0.004 0.006 0.008\n position 0.3 0 0\n orientation axis 1 0 0.2 -0.4\n"
    " omega 0 3 1\n marker o\n marker t at 0.3 0 0\nend\n"
    "body c\n mass 2\n com 0.15 0 0.01\n inertia 0.02 0.03 0.01\n position 0.6 -0.1 0\n omega -1 0 2\n marker o\n"
    " marker t at 0.3 -0.1 0.1\nend\n"
    "joint j0 spherical a.o ground.o\njoint j1 spherical b.o a.t\njoint j2 spherical c.o b.t\n"
    "joint j3 spherical c.t ground.e\n";

static void lean_rows(void)
{
    MtSystem *s = mt_test_system(loop4);
    MtError err = {0};
    MtState *st = mt_state_new(s, &err);
    CHECK(st != NULL, "state");
    int lean = 0;
    for (int k = 0; k < s->nblock; k++) lean += s->block[k].lean;
    CHECK(lean == 4, "the four spherical joints take the lean path (%d)", lean);
    /* velocities violate the loop a little: ġ ≠ 0 exercises the stabilisation terms */
    CHECK(mt_eval(st, 0, st->q, st->u, &err) == MT_OK, "evaluation: %s", err.msg);
    double Om = 2 * M_PI / 0.01, c1 = 2 * Om, c0 = Om * Om, worst_gd = 0, worst_acc = 0, scale = 0;
    for (int k = 0; k < s->nblock; k++) {
        const MtCBlock *b = &s->block[k];
        for (int r = 0; r < b->nrow; r++) {
            int row = b->row0 + r;
            double gu = 0, ga = 0;
            for (int sd = 0; sd < b->nside; sd++) {
                int bd = b->body[sd];
                if (bd < 0) continue;
                const double *G = mt_state_G(st, k, sd) + 6 * r;
                for (int c = 0; c < 6; c++) {
                    gu += G[c] * st->u[6 * bd + c];
                    ga += G[c] * st->acc[6 * bd + c];
                }
            }
            double want = -c1 * st->gd[row] - c0 * st->g[row];
            worst_gd = fmax(worst_gd, fabs(gu - st->gd[row]));
            worst_acc = fmax(worst_acc, fabs(ga + st->h[row] - want));
            scale = fmax(scale, fabs(st->h[row]) + fabs(want) + 1);
        }
    }
    CHECK(worst_gd < 1e-13, "G u = ġ through the written-out rows (worst %.3g m/s)", worst_gd);
    CHECK(worst_acc < 1e-11 * scale, "G u̇ + h = −2ξΩġ − Ω²g on every row (worst %.3g of %.3g)", worst_acc, scale);
    /* W = M⁻¹Gᵀ written out as well: the reactions it gives agree with Gᵀλ/M */
    double worst_w = 0;
    for (int k = 0; k < s->nblock; k++) {
        const MtCBlock *b = &s->block[k];
        for (int sd = 0; sd < b->nside; sd++) {
            int bd = b->body[sd];
            if (bd < 0) continue;
            const double *G = mt_state_G(st, k, sd), *W = mt_state_W(st, k, sd), *S = st->Jwinv + 9 * bd;
            for (int r = 0; r < b->nrow; r++)
                for (int i = 0; i < 3; i++) {
                    double wa = 0;
                    for (int j = 0; j < 3; j++) wa += S[3 * i + j] * G[6 * r + 3 + j];
                    worst_w = fmax(worst_w, fabs(W[6 * r + i] - G[6 * r + i] / s->mass[bd]));
                    worst_w = fmax(worst_w, fabs(W[6 * r + 3 + i] - wa));
                }
        }
    }
    CHECK(worst_w < 1e-12, "W = M⁻¹Gᵀ for the lean rows (worst %.3g)", worst_w);
    mt_state_free(st);
    mt_system_free(s);
}

/* Stretch of a rod holding a 1 kg point mass after 0.5 s (settled). */
static double hanging(const char *method, double nu)
{
    char text[1024];
    snprintf(text, sizeof text,
             "gravity 0 -9.81 0\nsolver method rk4 step 1e-4 until 0.5 xi 1 loops %s nu %g\n"
             "ground\n marker o\nend\nbody bob\n mass 1\n inertia 1e-3 1e-3 1e-3\n position 0 -1 0\n marker c\nend\n"
             "joint rod distance bob.c ground.o\n",
             method, nu);
    MtSystem *s = mt_test_system(text);
    MtState *st = mt_test_run(s, NULL, NULL, NULL);
    double len = sqrt(st->q[0] * st->q[0] + st->q[1] * st->q[1] + st->q[2] * st->q[2]);
    mt_state_free(st);
    mt_system_free(s);
    return len - 1;
}

int main(void)
{
    lean_rows();
    /* penalty: g̈ + 2ξνġ + ν²g = G a0 = g_grav, so the rod settles stretched by g_grav/ν² */
    CHECK_REL(hanging("penalty", 100), 9.81 / 1e4, 1e-6, "penalty nu 100: rod stretch g/nu^2 [m]");
    CHECK_REL(hanging("penalty", 300), 9.81 / 9e4, 1e-6, "penalty nu 300: rod stretch g/nu^2 [m]");
    /* modified Lagrange: the integral of the violation removes the offset */
    double e = hanging("mlf", 100);
    CHECK(fabs(e) < 1e-12, "mlf nu 100: no stretch left after 0.5 s (%.3g m)", e);
    return mt_test_done();
}
