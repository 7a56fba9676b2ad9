/* test_flexdyn.c — flexible bodies in the dynamics, issue 19: the damping
 * ratio `zeta` on the modes the joints hold (core/engine/mt_flex_damp.c),
 * measured by the logarithmic decrement of a clamped cantilever's tip, and
 * Rayleigh damping on the same model. */
#include <string.h>

#include "mt_flex.h"
#include "mt_math.h"
#include "mt_test.h"

/* ---- the tip of a cantilever after gravity is switched on: extrema of its deflection ---- */

typedef struct {
    int mk, n, cap;
    double *t, *y; /* the tip's deflection along y */
} Decay;

static int decay_cb(void *user, MtState *st)
{
    Decay *d = user;
    MtMk M;
    if (d->n == d->cap) {
        d->cap = d->cap ? 2 * d->cap : 4096;
        d->t = realloc(d->t, sizeof(double) * (size_t)d->cap);
        d->y = realloc(d->y, sizeof(double) * (size_t)d->cap);
        if (!d->t || !d->y) exit(1);
    }
    mt_marker_eval(st, st->q, st->u, d->mk, &M); /* the root is clamped to the ground: the tip's y is its deflection */
    d->t[d->n] = st->t;
    d->y[d->n++] = M.p[1];
    return 0;
}

/* The extrema of y about yref, one per half cycle: the samples are cut at
 * the crossings of yref and the largest |y − yref| of each piece is refined
 * by a parabola through its neighbours (a faster mode's ripple cannot add
 * extrema). Returns their number (≤ max). */
static int half_cycle_extrema(const Decay *d, double yref, double *ext, double *text, int max)
{
    int k = 0, i0 = 0;
    for (int i = 1; i < d->n && k < max; i++) {
        if ((d->y[i - 1] - yref) * (d->y[i] - yref) > 0) continue; /* pieces end at a crossing */
        int best = -1;
        for (int j = i0 + 1; j + 1 < i; j++)
            if (best < 0 || fabs(d->y[j] - yref) > fabs(d->y[best] - yref)) best = j;
        i0 = i;
        if (best < 0) continue;
        double a = d->y[best - 1], b = d->y[best], c = d->y[best + 1], den = a - 2 * b + c;
        double x = den != 0 ? 0.5 * (a - c) / den : 0;
        ext[k] = b - 0.25 * (a - c) * x;
        text[k++] = d->t[best] + x * (d->t[best + 1] - d->t[best]);
    }
    return k;
}

/* Runs the cantilever (steel 1 m, 20 x 10 mm, 20 elements, cb 4 modes) with
 * DAMPING (e.g. "zeta 0.2"), clamped at node 1 by a fixed joint, the tip
 * (node 21) an interface node; returns the damping ratio from the decay of
 * successive peak-to-peak ranges (skipping the first FROM extrema) and the
 * frequency of the ringing. */
static double cantilever_zeta(const char *damping, int from, double until, double *freq)
{
    char text[2048];
    snprintf(text, sizeof text,
             "gravity 0 -9.81 0\n"
             "solver method dp54 step 2e-4 until %g rtol 1e-10 atol 1e-14\n"
             "ground\n marker clamp\nend\n"
             "body beam\n"
             " flexible beam length 1 elements 20 section rect 0.02 0.01 E 2.1e11 nu 0.3 rho 7850 method cb modes 4 %s\n"
             " marker root node 1\n marker tip node 21\n"
             "end\n"
             "joint clamp fixed beam.root ground.clamp\n",
             until, damping);
    MtSystem *s = mt_test_system(text);
    Decay d = {.mk = mt_model_find_marker(s->model, "beam.tip")};
    MtRunStats stats;
    MtState *st = mt_test_run(s, decay_cb, &d, &stats);
    mt_state_free(st);
    mt_system_free(s);
    /* cut about the static sag q L⁴ / 8EI (only to find the half cycles: the ranges below do not depend on it) */
    const double E = 2.1e11, rho = 7850, b = 0.02, h = 0.01, g = 9.81;
    double ext[256], te[256], yref = -rho * b * h * g / (8 * E * h * b * b * b / 12);
    int next = half_cycle_extrema(&d, yref, ext, te, 256);
    free(d.t), free(d.y);
    /* ranges between successive extrema fall by exp(−ζωT/2) a half period: over
     * a whole period (two ranges) the logarithmic decrement δ, ζ = δ/√(4π² + δ²) */
    double zs = 0;
    int nz = 0;
    for (int k = from; k + 3 < next; k++) {
        double r0 = fabs(ext[k + 1] - ext[k]), r2 = fabs(ext[k + 3] - ext[k + 2]);
        if (r2 < 1e-6 * fabs(yref)) break; /* below the integration's accuracy */
        double del = log(r0 / r2);
        zs += del / sqrt(4 * M_PI * M_PI + del * del);
        nz++;
    }
    int last = from + 2 * (nz / 2 > 0 ? nz / 2 : 1);
    if (last >= next) last = next - 1;
    *freq = last > from ? 0.5 * (last - from) / (te[last] - te[from]) : 0;
    printf("     %s: %d extrema, %d decrements, ringing at %.4f Hz\n", damping, next, nz, *freq);
    return nz ? zs / nz : 0;
}

static void zeta_on_held_modes(void)
{
    printf("-- a steel cantilever clamped by a fixed joint, gravity switched on: log decrement of the tip\n");
    double f, z02 = cantilever_zeta("zeta 0.02", 2, 0.8, &f);
    CHECK_REL(z02, 0.02, 0.01, "damping ratio from the log decrement, zeta 0.02 asked");
    double f2, z20 = cantilever_zeta("zeta 0.2", 1, 0.4, &f2);
    CHECK_REL(z20, 0.2, 0.01, "damping ratio from the log decrement, zeta 0.2 asked");
    /* first clamped-free frequency of the beam: (1.8751)² √(EI/ρA) / (2π L²) */
    const double E = 2.1e11, rho = 7850, b = 0.02, h = 0.01, I = h * b * b * b / 12, A = b * h;
    double f1 = 1.875104 * 1.875104 * sqrt(E * I / (rho * A)) / (2 * M_PI);
    CHECK_REL(f, f1 * sqrt(1 - 0.02 * 0.02), 0.005, "ringing frequency, zeta 0.02, against the damped first clamped mode [Hz]");
    /* Rayleigh on K alone damps every held mode by α ω / 2 */
    double alpha = 2 * 0.05 / (2 * M_PI * f1), fr;
    char ray[64];
    snprintf(ray, sizeof ray, "rayleigh %.10g 0", alpha);
    double zr = cantilever_zeta(ray, 1, 0.6, &fr);
    CHECK_REL(zr, 0.05, 0.01, "damping ratio with Rayleigh alpha = 2 x 0.05 / omega1 (stiffness-proportional)");
}

int main(void)
{
    zeta_on_held_modes();
    return mt_test_done();
}
