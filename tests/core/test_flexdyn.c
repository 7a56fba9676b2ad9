/* test_flexdyn.c — flexible bodies in the dynamics, issue 19: the damping
 * ratio `zeta` on the modes the joints hold (core/engine/mt_flex_damp.c),
 * measured by the logarithmic decrement of a clamped cantilever's tip, and
 * Rayleigh damping on the same model; `initial rest` (core/engine/mt_assembly.c,
 * mt_flex.c): no elastic velocity from the initial assembly, on the flexible
 * slider-crank benchmark; geometric stiffness of joint loads (core/flex/mt_fe_geom.c
 * mt_fe_geom_interface, mt_flex.c) and of the frame's acceleration: a
 * cantilever on an accelerated base against the same cantilever under gravity,
 * a column under an axial tip force against
 * the beam-column solution, and the slider-crank benchmark's rod against a
 * chain of rigid segments. */
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
static double cantilever_zeta(const char *damping, int both, int from, double until, double *freq)
{
    char text[2048];
    snprintf(text, sizeof text,
             "gravity 0 -9.81 0\n"
             "solver method dp54 step %g until %g rtol 1e-10 atol 1e-14\n"
             "ground\n marker clamp\n marker far at 1 0 0\nend\n"
             "body beam\n"
             " flexible beam length 1 elements 20 section rect 0.02 0.01 E 2.1e11 nu 0.3 rho 7850 method cb modes 4 %s\n"
             " marker root node 1\n marker mid node 11\n marker tip node 21\n"
             "end\n"
             "joint clamp fixed beam.root ground.clamp\n%s",
             both ? 5e-5 : 2e-4, until, damping, both ? "joint clamp2 fixed beam.tip ground.far\n" : "");
    MtSystem *s = mt_test_system(text);
    Decay d = {.mk = mt_model_find_marker(s->model, both ? "beam.mid" : "beam.tip")};
    MtRunStats stats;
    MtState *st = mt_test_run(s, decay_cb, &d, &stats);
    mt_state_free(st);
    mt_system_free(s);
    /* cut about the static sag q L⁴ / 8EI, or q L⁴ / 384EI at the middle of a beam clamped at both ends
     * (only to find the half cycles: the ranges below do not depend on it) */
    const double E = 2.1e11, rho = 7850, b = 0.02, h = 0.01, g = 9.81;
    double ext[256], te[256], yref = -rho * b * h * g / ((both ? 384 : 8) * E * h * b * b * b / 12);
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
    double f, z02 = cantilever_zeta("zeta 0.02", 0, 2, 0.8, &f);
    CHECK_REL(z02, 0.02, 0.01, "damping ratio from the log decrement, zeta 0.02 asked");
    double f2, z20 = cantilever_zeta("zeta 0.2", 0, 1, 0.4, &f2);
    CHECK_REL(z20, 0.2, 0.01, "damping ratio from the log decrement, zeta 0.2 asked");
    /* first clamped-free frequency of the beam: (1.8751)² √(EI/ρA) / (2π L²) */
    const double E = 2.1e11, rho = 7850, b = 0.02, h = 0.01, I = h * b * b * b / 12, A = b * h;
    double f1 = 1.875104 * 1.875104 * sqrt(E * I / (rho * A)) / (2 * M_PI);
    CHECK_REL(f, f1 * sqrt(1 - 0.02 * 0.02), 0.005, "ringing frequency, zeta 0.02, against the damped first clamped mode [Hz]");
    /* Rayleigh on K alone damps every held mode by α ω / 2 */
    double alpha = 2 * 0.05 / (2 * M_PI * f1), fr;
    char ray[64];
    snprintf(ray, sizeof ray, "rayleigh %.10g 0", alpha);
    double zr = cantilever_zeta(ray, 0, 1, 0.6, &fr);
    CHECK_REL(zr, 0.05, 0.01, "damping ratio with Rayleigh alpha = 2 x 0.05 / omega1 (stiffness-proportional)");
    /* held at two nodes: fewer held elastic modes than modal coordinates, the rest damped on their own modes */
    printf("-- the same beam clamped at both ends by fixed joints: log decrement of the middle\n");
    double fc, zc = cantilever_zeta("zeta 0.05", 1, 1, 0.15, &fc);
    CHECK_REL(zc, 0.05, 0.01, "damping ratio from the log decrement at the middle, zeta 0.05, clamped at both ends");
    double fcc = 4.730041 * 4.730041 * sqrt(E * I / (rho * A)) / (2 * M_PI);
    /* 0.5 % low: the inertia's nodal rigid bodies (flexible-dynamics.md) at 20 elements */
    CHECK_REL(fc, fcc * sqrt(1 - 0.05 * 0.05), 0.01, "ringing frequency against the damped first clamped-clamped mode [Hz]");
}

/* ---- the flexible slider-crank benchmark (Song & Haug 1980, Jonker 1990): crank 0.152 m
 * at a constant 150 rad/s from t = 0, steel rod 0.304 m of 6 mm diameter, slider of half
 * the rod's mass, no gravity; the deflection of the rod's middle from its chord ---------- */

static const double BM_R = 0.152, BM_L = 0.304, BM_D = 0.006, BM_E = 2e11, BM_RHO = 7800;
static const double BM_W = 150;
static int BM_NEL = 10; /* beam elements of the flexible rod */

typedef struct {
    int a, mid, b;            /* rod markers: big end, middle, small end */
    double w0max, wd0max;     /* largest |w|, |ẇ| of the first frame (after the initial assembly) */
    double tsplit, peak1, peak2; /* largest |deflection| before tsplit and after */
    int n;
} Bm;

static int bm_cb(void *user, MtState *st)
{
    Bm *c = user;
    const MtSystem *s = st->sys;
    if (c->n++ == 0)
        for (int i = 0; i < s->nmodal; i++) {
            c->w0max = fmax(c->w0max, fabs(st->q[7 * s->nbody + i]));
            c->wd0max = fmax(c->wd0max, fabs(st->u[6 * s->nbody + i]));
        }
    MtMk A, M, B;
    mt_marker_eval(st, st->q, st->u, c->a, &A);
    mt_marker_eval(st, st->q, st->u, c->mid, &M);
    mt_marker_eval(st, st->q, st->u, c->b, &B);
    double ch[3], am[3];
    mt_v3_sub(ch, B.p, A.p);
    mt_v3_sub(am, M.p, A.p);
    double d = fabs(ch[0] * am[1] - ch[1] * am[0]) / hypot(ch[0], ch[1]);
    if (st->t <= c->tsplit) c->peak1 = fmax(c->peak1, d);
    else c->peak2 = fmax(c->peak2, d);
    return 0;
}

/* Runs the benchmark for two crank revolutions with a flexible rod (ROD: the
 * settings after the section, e.g. "method cb modes 4 zeta 0 initial rest")
 * or, with segments > 0, a chain of rigid segments with torsion springs EI/l
 * whose hinges start straight and still. */
static Bm benchmark(const char *rod, int segments, double step)
{
    const double A = M_PI * BM_D * BM_D / 4, I = M_PI * BM_D * BM_D * BM_D * BM_D / 64, mrod = BM_RHO * A * BM_L;
    char *text = malloc(1 << 16);
    if (!text) exit(1);
    int n = snprintf(text, 1 << 16,
                     "gravity 0 0 0\n"
                     "solver method hht step %g until %.17g alpha -0.05 rtol 1e-9 atol 1e-12 ts 0.01 correct both\n"
                     "ground\n marker o\n marker rail z 1 0 0\nend\n"
                     "body crank\n mass 1\n com %g 0 0\n inertia 1e-4 2e-3 2e-3\n marker o\n marker pin at %g 0 0\nend\n"
                     "body slider\n mass %.17g\n inertia 1e-7 1e-7 1e-7\n position %g 0 0\n marker b z 0 0 1\n marker s z 1 0 0\nend\n"
                     "joint pivot revolute crank.o ground.o\n"
                     "joint slide prismatic slider.s ground.rail\n"
                     "driver spin pivot rate %g\n",
                     step, 2 * 2 * M_PI / BM_W, BM_R / 2, BM_R, mrod / 2, BM_R + BM_L, BM_W);
    if (!segments) {
        n += snprintf(text + n, (1 << 16) - (size_t)n,
                      "body rod\n position %g 0 0\n"
                      " flexible beam length %g elements %d section circle %g E %g nu 0.3 rho %g %s\n"
                      " marker a node 1\n marker mid node %d\n marker b node %d z 0 0 1\nend\n"
                      "joint big_end revolute rod.a crank.pin\n"
                      "joint small_end revolute slider.b rod.b\n",
                      BM_R, BM_L, BM_NEL, BM_D, BM_E, BM_RHO, rod, BM_NEL / 2 + 1, BM_NEL + 1);
    } else {
        double l = BM_L / segments, m = mrod / segments;
        for (int k = 0; k < segments; k++)
            n += snprintf(text + n, (1 << 16) - (size_t)n,
                          "body seg%d\n mass %.17g\n com %.17g 0 0\n inertia %.17g %.17g %.17g\n position %.17g 0 0\n"
                          " marker a\n marker b at %.17g 0 0\n%s"
                          "end\n", k, m, l / 2, m * BM_D * BM_D / 8, m * l * l / 12, m * l * l / 12, BM_R + k * l, l,
                          2 * k == segments ? " marker mid\n" : "");
        n += snprintf(text + n, (1 << 16) - (size_t)n, "joint big_end revolute seg0.a crank.pin\n"
                                                       "joint small_end revolute slider.b seg%d.b\n", segments - 1);
        for (int k = 1; k < segments; k++)
            n += snprintf(text + n, (1 << 16) - (size_t)n,
                          "joint h%d revolute seg%d.a seg%d.b\nforce k%d torsion h%d k %.17g\ninitial h%d 0 rate 0\n", k, k,
                          k - 1, k, k, BM_E * I / l, k);
    }
    MtSystem *s = mt_test_system(text);
    free(text);
    const MtModel *m = s->model;
    char ref[64];
    Bm c = {.tsplit = 2 * M_PI / BM_W};
    c.a = mt_model_find_marker(m, segments ? "seg0.a" : "rod.a");
    snprintf(ref, sizeof ref, "seg%d.b", segments - 1);
    c.b = mt_model_find_marker(m, segments ? ref : "rod.b");
    snprintf(ref, sizeof ref, "seg%d.a", segments / 2);
    c.mid = mt_model_find_marker(m, segments ? ref : "rod.mid");
    MtRunStats stats;
    MtState *st = mt_test_run(s, bm_cb, &c, &stats);
    printf("     %s%s: %d modal coordinates, %ld steps; |w|, |w'| at t = 0: %.3g, %.3g; peak deflection 1st revolution "
           "%.4f mm, 2nd %.4f mm\n", segments ? "rigid segments" : "flexible rod ", segments ? "" : rod, s->nmodal,
           stats.steps, c.w0max, c.wd0max, 1e3 * c.peak1, 1e3 * c.peak2);
    mt_state_free(st);
    mt_system_free(s);
    return c;
}

static void initial_rest(void)
{
    printf("-- flexible slider-crank benchmark started at full speed: the elastic state at t = 0\n");
    Bm as = benchmark("method cb modes 4 zeta 0", 0, 1e-4);
    Bm r4 = benchmark("method cb modes 4 zeta 0 initial rest", 0, 1e-4);
    Bm r8 = benchmark("method cb modes 8 zeta 0 initial rest", 0, 1e-4);
    CHECK(as.wd0max > 1e-3, "the velocity projection alone gives the rod elastic velocity at t = 0 (%.3g)", as.wd0max);
    CHECK_ABS(r4.w0max + r4.wd0max, 0, 0, "initial rest: largest |w| + |w'| after the initial assembly");
    CHECK_REL(r4.peak1, r8.peak1, 0.01, "initial rest: first-revolution peak deflection, 4 against 8 modes [m]");
}

/* ---- stiffness from joint loads: a column under an axial tip force, and the slider-crank ---- */

typedef struct { double tip; int mk; } Tip;

static int tip_cb(void *user, MtState *st)
{
    Tip *t = user;
    MtMk M;
    mt_marker_eval(st, st->q, st->u, t->mk, &M);
    t->tip = M.p[1];
    return 0;
}

/* Static tip deflection of a steel cantilever (1 m, 20 x 10 mm, bending in y)
 * under an axial tip force P (positive compressive) and 1 N across, settled
 * by heavy damping; STIFF "stiffening" or "". */
static double column_tip(double P, const char *stiff)
{
    char text[1024];
    snprintf(text, sizeof text,
             "solver method hht step 1e-3 until 2 rtol 1e-10 atol 1e-14\n"
             "ground\n marker clamp\nend\n"
             "body beam\n"
             " flexible beam length 1 elements 20 section rect 0.02 0.01 E 2.1e11 nu 0.3 rho 7850 method cb modes 4 zeta 0.7 %s\n"
             " marker root node 1\n marker tip node 21\n"
             "end\n"
             "joint clamp fixed beam.root ground.clamp\n"
             "force push actuator beam.tip ground.clamp fx {%.17g} fy {-1}\n",
             stiff, -P);
    MtSystem *s = mt_test_system(text);
    Tip t = {0, mt_model_find_marker(s->model, "beam.tip")};
    MtRunStats stats;
    MtState *st = mt_test_run(s, tip_cb, &t, &stats);
    mt_state_free(st);
    mt_system_free(s);
    return t.tip;
}

/* Tip deflection across (1 N) of the same cantilever pointing along x, either
 * clamped to the ground under gravity (−A, 0, 0), or (base = 1) clamped to a
 * base that a driver accelerates along x at A: the same body force. */
static double accelerated_tip(double A, int base)
{
    char text[1024];
    if (base)
        snprintf(text, sizeof text,
                 "solver method hht step 1e-3 until 2 rtol 1e-10 atol 1e-14\n"
                 "ground\n marker clamp\n marker rail z 1 0 0\nend\n"
                 "body base\n mass 1\n inertia 1e-3 1e-3 1e-3\n marker s z 1 0 0\n marker m\nend\n"
                 "body beam\n"
                 " flexible beam length 1 elements 20 section rect 0.02 0.01 E 2.1e11 nu 0.3 rho 7850 method cb modes 4 zeta 0.7 stiffening\n"
                 " marker root node 1\n marker tip node 21\n"
                 "end\n"
                 "joint slide prismatic base.s ground.rail\n"
                 "driver push slide acc const %.17g\n"
                 "joint clamp fixed beam.root base.m\n"
                 "force side actuator beam.tip ground.clamp fy {-1}\n", A);
    else
        snprintf(text, sizeof text,
                 "gravity %.17g 0 0\n"
                 "solver method hht step 1e-3 until 2 rtol 1e-10 atol 1e-14\n"
                 "ground\n marker clamp\nend\n"
                 "body beam\n"
                 " flexible beam length 1 elements 20 section rect 0.02 0.01 E 2.1e11 nu 0.3 rho 7850 method cb modes 4 zeta 0.7 stiffening\n"
                 " marker root node 1\n marker tip node 21\n"
                 "end\n"
                 "joint clamp fixed beam.root ground.clamp\n"
                 "force side actuator beam.tip ground.clamp fy {-1}\n", -A);
    MtSystem *s = mt_test_system(text);
    Tip t = {0, mt_model_find_marker(s->model, "beam.tip")};
    MtRunStats stats;
    MtState *st = mt_test_run(s, tip_cb, &t, &stats);
    mt_state_free(st);
    mt_system_free(s);
    return t.tip;
}

static void joint_load_stiffening(void)
{
    printf("-- the frame's acceleration: a cantilever on a base accelerated along its axis at 2100 m/s^2 (0.3 of Greenhill's\n"
           "   load) against the same cantilever on the ground under that gravity\n");
    double ya = accelerated_tip(2100, 1), yg = accelerated_tip(2100, 0);
    printf("     tip deflection across, 1 N: accelerated base %.6e m, gravity %.6e m, linear F L^3/3EI %.6e m\n", ya, yg,
           -1 / (3 * 2.1e11 * 0.01 * 0.02 * 0.02 * 0.02 / 12));
    CHECK_REL(ya, yg, 1e-6, "tip deflection on the accelerated base against the same body force as gravity [m]");
    printf("-- a cantilever column, axial tip force P and 1 N across: the tip deflection against the beam-column solution\n");
    const double E = 2.1e11, I = 0.01 * 0.02 * 0.02 * 0.02 / 12, L = 1;
    for (int sg = -1; sg <= 1; sg += 2) { /* P L^2 / EI = 0.714 (0.29 of the buckling load) in compression and tension */
        double P = sg * 1000, u = sqrt(fabs(P) / (E * I)) * L;
        double amp = P > 0 ? 3 * (tan(u) - u) / (u * u * u) : 3 * (u - tanh(u)) / (u * u * u);
        double want = -L * L * L / (3 * E * I) * amp, lin = column_tip(P, ""), got = column_tip(P, "stiffening");
        printf("     P = %+.0f N: linear modes %.6e m, stiffened %.6e m, beam-column %.6e m (x %.4f of F L^3/3EI)\n", P, lin,
               got, want, amp);
        CHECK_REL(got, want, 1e-3, P > 0 ? "tip deflection under axial compression, stiffening [m]"
                                         : "tip deflection under axial tension, stiffening [m]");
    }
    printf("-- the slider-crank benchmark: rod mid-point deflection with the axial load's stiffness\n");
    BM_NEL = 20; /* the nodal rigid bodies of the inertia converge as 1/elements^2: 10 elements are 1 %% high */
    Bm lin = benchmark("method cb modes 4 zeta 0 initial rest", 0, 1e-4);
    Bm s4 = benchmark("method cb modes 4 zeta 0 initial rest stiffening", 0, 1e-4);
    Bm s8 = benchmark("method cb modes 8 zeta 0 initial rest stiffening", 0, 1e-4);
    /* reference: chains of 10 and 20 rigid segments with torsion springs EI/l (their axial
     * load stiffens them exactly), extrapolated as 1/segments^2 */
    Bm c10 = benchmark("", 10, 1e-4), c20 = benchmark("", 20, 1e-4);
    double ref1 = c20.peak1 + (c20.peak1 - c10.peak1) / 3, ref2 = c20.peak2 + (c20.peak2 - c10.peak2) / 3;
    printf("     reference (chain extrapolated): first revolution %.4f mm, second %.4f mm; linear modes alone %.4f, %.4f "
           "mm (%+.1f %%, %+.1f %%)\n", 1e3 * ref1, 1e3 * ref2, 1e3 * lin.peak1, 1e3 * lin.peak2,
           100 * (lin.peak1 / ref1 - 1), 100 * (lin.peak2 / ref2 - 1));
    printf("     stiffened, 8 modes: second revolution %.4f mm (%+.1f %% from the reference)\n", 1e3 * s8.peak2,
           100 * (s8.peak2 / ref2 - 1));
    CHECK_REL(s8.peak1, ref1, 0.02, "first-revolution peak mid-point deflection, stiffened, 8 modes, against the chain [m]");
    CHECK_REL(s4.peak1, s8.peak1, 0.01, "the same, 4 against 8 modes [m]");
}

int main(void)
{
    zeta_on_held_modes();
    initial_rest();
    joint_load_stiffening();
    return mt_test_done();
}
