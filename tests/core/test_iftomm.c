/* test_iftomm.c — the IFToMM multibody benchmarks A01–A04 (library of
 * computational benchmark problems of the IFToMM Technical Committee for
 * Multibody Dynamics, lim.ii.udc.es/mbsbenchmark), each modelled here from
 * its public specification, against references with stated tolerances;
 * every case prints the significant digits it reached.
 *
 * References: A01 (pendulum) the closed form by Jacobi's sn; A02 (N-four-bar)
 * the exact one-degree-of-freedom equation of the mechanism integrated here
 * at a tight step (all cranks stay parallel, so the chain is one rotating
 * crank system); A03 (Andrews' squeezer) the published reference angles at
 * t = 0.03 s of the test set for IVP solvers (Hairer & Wanner's problem,
 * computed there with RADAU5 at 1e-14); A04 (Bricard) the mobility found
 * and the energy, which no force changes. */
#include <string.h>

#include "mt_test.h"

/* ---- helpers ---- */

/* Significant digits of got against want at the scale of the quantity. */
static double digits(double err, double scale) { return err > 0 ? -log10(err / scale) : 17; }

typedef struct {
    int joint;      /* joint whose angle is unwrapped at every frame (−1: none) */
    double first, prev, turns; /* its value at the first frame, at the last, whole turns since */
    double e0, emax;           /* energy at the first frame, largest |E − E0| */
    int n;
    double *ang;               /* if set: the unwrapped angle at each frame, up to cap frames */
    int cap;
} Watch;

static int watch_cb(void *user, MtState *st)
{
    Watch *w = user;
    double T, V;
    mt_energy(st, st->q, st->u, &T, &V);
    if (w->n == 0) w->e0 = T + V;
    w->emax = fmax(w->emax, fabs(T + V - w->e0));
    if (w->joint >= 0) {
        double a = mt_joint_coordinate(st, st->q, w->joint);
        if (w->n > 0) {
            if (a - w->prev > M_PI) w->turns -= 2 * M_PI;
            if (a - w->prev < -M_PI) w->turns += 2 * M_PI;
        } else w->first = a;
        w->prev = a;
        if (w->ang && w->n < w->cap) w->ang[w->n] = a + w->turns;
    }
    w->n++;
    return 0;
}

/* How far the watched joint turned since the first frame. */
static double turned(const Watch *w) { return w->prev + w->turns - w->first; }

/* Text of a model grown with printf-style pieces. */
typedef struct {
    char *buf;
    size_t len;
    FILE *f;
} Text;

static void text_open(Text *t) { t->buf = NULL, t->len = 0, t->f = open_memstream(&t->buf, &t->len); }
static char *text_close(Text *t)
{
    fclose(t->f);
    return t->buf;
}

/* ---- A01: simple pendulum ---- */

/* Jacobi sn(u, k) by the descending Landen (AGM) sequence. */
static double jacobi_sn(double u, double k)
{
    double a[16], c[16], b = sqrt(1 - k * k);
    int n = 0;
    a[0] = 1;
    c[0] = k;
    while (n < 15 && fabs(c[n]) > 1e-17) {
        a[n + 1] = 0.5 * (a[n] + b);
        c[n + 1] = 0.5 * (a[n] - b);
        b = sqrt(a[n] * b);
        n++;
    }
    double phi = ldexp(a[n] * u, n);
    for (int i = n; i > 0; i--) phi = 0.5 * (phi + asin(c[i] / a[i] * sin(phi)));
    return sin(phi);
}

/* Point mass 1 kg on a massless 1 m bar, released at rest with the bar
 * horizontal (x = +1 m), gravity 9.81 along −y. θ from the downward vertical:
 * θ(t) = 2 asin(k sn(K − ω0 t, k)), k = sin(θ0/2) = 1/√2, ω0 = √(g/L). */
static void a01(const char *method, double rtol, double until, double want_digits)
{
    char text[1024];
    snprintf(text, sizeof text,
             "gravity 0 -9.81 0\n"
             "solver method %s step 0.01 until %g rtol %g atol %g\n"
             "ground\n marker o\nend\n"
             "body bob\n mass 1\n point_mass\n position 1 0 0\n marker p\nend\n"
             "joint bar distance bob.p ground.o length 1\n",
             method, until, rtol, rtol * 1e-2);
    MtSystem *s = mt_test_system(text);
    Watch w = {-1, 0, 0, 0, 0, 0, 0, NULL, 0};
    MtRunStats stats;
    MtState *st = mt_test_run(s, watch_cb, &w, &stats);
    const double g = 9.81, k = sqrt(0.5), w0 = sqrt(g);
    const double K = M_PI / (2 * mt_test_agm(1, sqrt(1 - k * k)));
    double th = 2 * asin(k * jacobi_sn(K - w0 * until, k));
    double x = sin(th), y = -cos(th);
    double err = hypot(st->q[0] - x, st->q[1] - y);
    printf("A01 pendulum, %s rtol %g, %g s: %ld evaluations, bob at (%.12f, %.12f), closed form (%.12f, %.12f): "
           "%.1f digits; energy drift %.2g J\n",
           method, rtol, until, stats.evals, st->q[0], st->q[1], x, y, digits(err, 1), w.emax);
    CHECK_ABS(err, 0, pow(10, -want_digits), "A01: distance of the bob from the closed form [m]");
    CHECK_ABS(w.emax / 9.81, 0, pow(10, -want_digits), "A01: energy drift relative to m g L");
    mt_state_free(st);
    mt_system_free(s);
}

/* ---- A02: N-four-bar ---- */

/* Crank angle φ (from +x) of the one-degree-of-freedom equation: with every
 * crank parallel, the N couplers translate with the crank tips, so
 * (I + N m L²) φ̈ = −g cos φ ((N+1) m L/2 + N m L), I = (N+1) m L²/3.
 * Classical RK4 at h = 1e-5 s: its error (≈ h⁴) is below 1e-14 here. */
static void a02_reference(int N, double until, double phi0, double w0, double *phi, double *w)
{
    const double k = 9.81 * ((N + 1) / 2.0 + N) / ((N + 1) / 3.0 + N);
    long n = (long)ceil(until / 1e-5);
    double h = until / (double)n, p = phi0, v = w0;
    for (long i = 0; i < n; i++) {
        double k1p = v, k1w = -k * cos(p);
        double k2p = v + 0.5 * h * k1w, k2w = -k * cos(p + 0.5 * h * k1p);
        double k3p = v + 0.5 * h * k2w, k3w = -k * cos(p + 0.5 * h * k2p);
        double k4p = v + h * k3w, k4w = -k * cos(p + h * k3p);
        p += h / 6 * (k1p + 2 * k2p + 2 * k3p + k4p);
        v += h / 6 * (k1w + 2 * k2w + 2 * k3w + k4w);
    }
    *phi = p;
    *w = v;
}

/* The largest distance of B0 from the reference over frames every dt
 * (angles ang[0..n), unwrapped, ang[0] at t = 0), the reference marched as
 * in a02_reference. */
static double a02_max_error(int N, double phi0, double w0, const double *ang, int n, double dt)
{
    const double k = 9.81 * ((N + 1) / 2.0 + N) / ((N + 1) / 3.0 + N);
    long m = (long)ceil(dt / 1e-5);
    double h = dt / (double)m, p = phi0, v = w0, worst = 0;
    for (int f = 1; f < n; f++) {
        for (long i = 0; i < m; i++) {
            double k1p = v, k1w = -k * cos(p);
            double k2p = v + 0.5 * h * k1w, k2w = -k * cos(p + 0.5 * h * k1p);
            double k3p = v + 0.5 * h * k2w, k3w = -k * cos(p + 0.5 * h * k2p);
            double k4p = v + h * k3w, k4w = -k * cos(p + h * k3p);
            p += h / 6 * (k1p + 2 * k2p + 2 * k3p + k4p);
            v += h / 6 * (k1w + 2 * k2w + 2 * k3w + k4w);
        }
        double a = phi0 + ang[f] - ang[0];
        worst = fmax(worst, hypot(cos(a) - cos(p), sin(a) - sin(p)));
    }
    return worst;
}

/* The same one-degree-of-freedom equation integrated by HHT-α itself (Motus's
 * form: α_m = 0, α_f = −α, Newmark β = (1−α)²/4, γ = 1/2 − α) at step h: the
 * method's own error on the exact trajectory, in the minimal coordinate,
 * where no position is singular. Returns B0's largest distance from the
 * reference over frames every 0.01 s (h divides 0.01). */
static double a02_hht_minimal(int N, double until, double phi0, double w0, double h, double alpha)
{
    const double k = 9.81 * ((N + 1) / 2.0 + N) / ((N + 1) / 3.0 + N);
    const double af = -alpha, gam = 0.5 - alpha, beta = 0.25 * (1 - alpha) * (1 - alpha);
    long n = (long)floor(until / h + 0.5), every = (long)floor(0.01 / h + 0.5);
    int nf = (int)(n / every) + 1, f0 = 1;
    double *ang = malloc(sizeof(double) * (size_t)nf);
    double p = phi0, v = w0, f = -k * cos(p), a = f;
    ang[0] = p;
    for (long i = 0; i < n; i++) {
        double z = f; /* Newton on z = f(φ(z)) */
        for (int it = 0; it < 50; it++) {
            double an = ((1 - af) * z + af * f), pn = p + h * v + h * h * ((0.5 - beta) * a + beta * an);
            double r = z + k * cos(pn), dr = 1 - k * sin(pn) * h * h * beta * (1 - af);
            z -= r / dr;
            if (fabs(r) < 1e-15 * k) break;
        }
        double an = (1 - af) * z + af * f;
        p += h * v + h * h * ((0.5 - beta) * a + beta * an);
        v += h * ((1 - gam) * a + gam * an);
        a = an, f = z;
        if ((i + 1) % every == 0 && f0 < nf) ang[f0++] = p;
    }
    double worst = a02_max_error(N, phi0, w0, ang, f0, 0.01);
    free(ang);
    return worst;
}

/* N + 1 cranks and N couplers, rods of 1 m and 1 kg (thin: inertia m L²/12
 * about their centre), ground pivots A_i at x = i; cranks start vertical and
 * B0 moves at 1 m/s along +x. Every half turn the mechanism is flat and has
 * N + 1 degrees of freedom for an instant. phi0 ≠ 90°: started hanging at
 * phi0 with crank speed w0 (a swing that never reaches the flat position,
 * the regular counterpart for the evaluation count). */
static char *a02_text(int N, const char *solver, double phi0, double w0)
{
    Text t;
    text_open(&t);
    fprintf(t.f, "gravity 0 -9.81 0\nsolver %s\nground\n", solver);
    for (int i = 0; i <= N; i++) fprintf(t.f, " marker a%d at %d 0 0\n", i, i);
    fprintf(t.f, "end\n");
    double c = cos(phi0), sn = sin(phi0), a = phi0 - M_PI / 2;
    for (int i = 0; i <= N; i++)
        fprintf(t.f,
                "body crank%d\n mass 1\n com 0 0.5 0\n inertia %.17g 1e-6 %.17g\n position %d 0 0\n"
                " orientation axis 0 0 1 %.17g\n omega 0 0 %.17g\n marker a\n marker b at 0 1 0\nend\n",
                i, 1.0 / 12, 1.0 / 12, i, a, w0);
    for (int i = 1; i <= N; i++)
        fprintf(t.f,
                "body coupler%d\n mass 1\n com 0.5 0 0\n inertia 1e-6 %.17g %.17g\n position %.17g %.17g 0\n"
                " velocity %.17g %.17g 0\n marker l\n marker r at 1 0 0\nend\n",
                i, 1.0 / 12, 1.0 / 12, i - 1 + c, sn, -w0 * sn, w0 * c);
    for (int i = 0; i <= N; i++) fprintf(t.f, "joint ja%d revolute crank%d.a ground.a%d\n", i, i, i);
    for (int i = 1; i <= N; i++)
        fprintf(t.f, "joint jl%d revolute coupler%d.l crank%d.b\njoint jr%d revolute coupler%d.r crank%d.b\n", i, i,
                i - 1, i, i, i);
    return text_close(&t);
}

typedef struct {
    double err;     /* distance of B0 from the reference, m */
    double errmax;  /* the largest over the frames (every 0.01 s), m */
    double energy;  /* largest |E − E0| over the frames, J */
    long evals;
    double gmax;    /* largest constraint violation at the frames, m */
} A02Result;

static A02Result a02_run(int N, const char *solver, double until, double phi0, double w0, int quiet)
{
    char *text = a02_text(N, solver, phi0, w0);
    MtSystem *s = mt_test_system(text);
    free(text);
    Watch w = {0, 0, 0, 0, 0, 0, 0, NULL, 0}; /* ja0: the crank angle from its start */
    w.cap = (int)(until / 0.01 + 1.5);
    w.ang = calloc((size_t)w.cap, sizeof(double));
    MtRunStats stats;
    MtState *st = mt_test_run(s, watch_cb, &w, &stats);
    A02Result r = {NAN, NAN, w.emax, stats.evals, stats.gmax};
    if (w.n == w.cap) r.errmax = a02_max_error(N, phi0, w0, w.ang, w.n, 0.01);
    free(w.ang);
    double phi = phi0 + turned(&w);
    {
        double pref, wref;
        a02_reference(N, until, phi0, w0, &pref, &wref);
        double bx = cos(phi), by = sin(phi);
        r.err = hypot(bx - cos(pref), by - sin(pref));
        if (!quiet)
            printf("A02 N = %d, %s, %g s: %ld evaluations, crank at %.12f rad, reference %.12f rad; B0 %.3g m off: "
                   "%.1f digits; energy drift %.2g J of %.4g\n",
                   N, solver, until, stats.evals, phi, pref, r.err, digits(r.err, 1), w.emax, w.e0);
    }
    mt_state_free(st);
    mt_system_free(s);
    return r;
}

/* A02 from the specification's start, against the reference; with
 * max_ratio > 0 also its evaluation count against the regular counterpart
 * (the same chain swinging ±80° below its pivots, never flat) over the same
 * time with the same settings. */
static void a02(int N, const char *method, double rtol, const char *extra, double until, double want_digits,
                long max_evals, double max_ratio, double max_energy)
{
    char solver[256];
    snprintf(solver, sizeof solver, "method %s step 0.01 until %g rtol %g atol %g %s", method, until, rtol, rtol * 1e-2,
             extra);
    A02Result r = a02_run(N, solver, until, M_PI / 2, -1, 0);
    char what[160];
    snprintf(what, sizeof what, "A02 N = %d, %s rtol %g %s, %g s: B0 off the reference [m]", N, method, rtol, extra, until);
    CHECK_ABS(r.err, 0, pow(10, -want_digits), what);
    if (max_energy > 0) {
        const double e0 = 9.81 * ((N + 1) / 2.0 + N) + 0.5 * ((N + 1) / 3.0 + N); /* at the start */
        snprintf(what, sizeof what, "A02 N = %d, %s rtol %g %s: energy drift relative to the energy", N, method, rtol, extra);
        CHECK_ABS(r.energy / e0, 0, max_energy, what);
    }
    if (max_evals > 0) CHECK(r.evals <= max_evals, "A02 N = %d: %ld evaluations, at most %ld expected", N, r.evals, max_evals);
    if (max_ratio > 0) {
        A02Result g = a02_run(N, solver, until, -M_PI / 2 + 80 * M_PI / 180, 0, 1);
        printf("A02 N = %d: %ld evaluations through the singular positions, %ld for the regular swing: ratio %.2f\n", N,
               r.evals, g.evals, (double)r.evals / (double)g.evals);
        CHECK(r.evals <= max_ratio * g.evals, "A02 N = %d: evaluations %ld within %g times the regular swing's %ld", N,
              r.evals, max_ratio, g.evals);
    }
}

/* A fixed-step implicit method cannot be asked for a tolerance; its own
 * accuracy is its order-limited error. On A02 that is compared with the
 * regular swing at the same step (and both with HHT-α run on the exact
 * one-degree-of-freedom equation, where nothing is singular), each by its
 * largest error over the frames (the error at one instant of an oscillation
 * depends on its phase): the ratios A02 / swing, plain and with `correct
 * both`, must stay within the bounds. */
static void a02_implicit(int N, const char *method, double h, double until, double max_plain, double max_corrected)
{
    const double swing0 = -M_PI / 2 + 80 * M_PI / 180;
    char solver[256];
    A02Result r[2] = {{0}}, g[2] = {{0}};
    for (int k = max_plain > 0 ? 0 : 1; k < 2; k++) { /* max_plain 0: `correct both` only */
        snprintf(solver, sizeof solver, "method %s step %g until %g every %d rtol 1e-10 atol 1e-12 %s", method, h, until,
                 (int)(0.01 / h + 0.5), k ? "correct both" : "");
        r[k] = a02_run(N, solver, until, M_PI / 2, -1, 1);
        g[k] = a02_run(N, solver, until, swing0, 0, 1);
    }
    double own = a02_hht_minimal(N, until, swing0, 0, h, -0.05);
    printf("A02 N = %d, %s h = %g, %g s, largest error over the frames: %.3g m (%ld evaluations), regular swing "
           "%.3g m (%ld), HHT on the 1-DOF equation of the swing %.3g m; `correct both`: %.3g m (%ld), swing %.3g m "
           "(%ld); ratios A02/swing %.1f plain, %.2f corrected\n",
           N, method, h, until, r[0].errmax, r[0].evals, g[0].errmax, g[0].evals, own, r[1].errmax, r[1].evals,
           g[1].errmax, g[1].evals, r[0].errmax / g[0].errmax, r[1].errmax / g[1].errmax);
    char what[160];
    int k0 = max_plain > 0 ? 0 : 1;
    snprintf(what, sizeof what, "A02 N = %d %s h = %g: regular swing's error against HHT's own on its 1-DOF equation", N,
             method, h);
    CHECK_ABS(g[k0].errmax / own, 0, 4, what);
    if (max_plain > 0) {
        snprintf(what, sizeof what, "A02 %s h = %g: error through the flat positions / the swing's (the open gap)",
                 method, h);
        CHECK_ABS(r[0].errmax / g[0].errmax, 0, max_plain, what);
    }
    snprintf(what, sizeof what, "A02 N = %d %s h = %g, correct both: error / the swing's with the same settings", N,
             method, h);
    CHECK_ABS(r[1].errmax / g[1].errmax, 0, max_corrected, what);
    CHECK(r[1].evals <= 3 * g[1].evals, "A02 N = %d %s h = %g: %ld evaluations within 3x the swing's %ld", N, method, h,
          r[1].evals, g[1].evals);
}

/* ---- A03: Andrews' squeezer ---- */

/* Seven bodies, ten revolute joints, a spring from C to the triangle's D and
 * a torque on the crank OF; no gravity. Geometry, masses and initial angles
 * of the test set (Hairer & Wanner's coordinates β Θ γ Φ δ Ω ε: each is the
 * angle of one revolute joint below, measured from the body frames chosen so
 * that the joint coordinate is that angle). */
static char *a03_text(const char *solver)
{
    const double xa = -0.06934, ya = -0.00227, xb = -0.03635, yb = 0.03273, xc = 0.014, yc = 0.072;
    const double d = 28e-3, da = 115e-4, e = 2e-2, ea = 1421e-5, rr = 7e-3, ra = 92e-5, ss = 35e-3, sa = 1874e-5,
                 sb = 1043e-5, sc = 18e-3, sd = 2e-2, ta = 2308e-5, tb = 916e-5, u = 4e-2, ua = 1228e-5, ub = 449e-5,
                 zf = 2e-2, zt = 4e-2, fa = 1421e-5;
    const double m[7] = {.04325, .00365, .02373, .00706, .07050, .00706, .05498};
    const double I[7] = {2.194e-6, 4.410e-7, 5.255e-6, 5.667e-7, 1.169e-5, 5.667e-7, 1.912e-5};
    const double be = -0.0617138900142764496358948458001, th = 0, ga = 0.455279819163070380255912382449,
                 ph = 0.222668390165885884674473185609, de = 0.487364979543842550225598953530,
                 om = -0.222668390165885884674473185609, ep = 1.23054744454982119249735015568;
    /* body frames: origin at the pivot, rotated by the body's absolute angle */
    const double ang[7] = {be, be + th, ga, ph + de, de, om + ep, ep};
    const double org[7][2] = {
        {0, 0},
        {rr * cos(be), rr * sin(be)},
        {xb, yb},
        {xa + zt * cos(de), ya + zt * sin(de)},
        {xa, ya},
        {xa + u * sin(ep), ya - u * cos(ep)},
        {xa, ya},
    };
    /* centres of mass in body axes (the distances of the test set's mass matrix) */
    const double com[7][2] = {{ra, 0}, {-da, 0}, {sb, -sa}, {0, -(e - ea)}, {ta, tb}, {zf - fa, 0}, {ua, -ub}};
    static const char *const name[7] = {"of", "fe", "bde", "eg", "ga", "he", "ah"};
    Text t;
    text_open(&t);
    fprintf(t.f, "solver %s\n", solver);
    fprintf(t.f, "ground\n marker o\n marker a5 at %.17g %.17g 0\n marker a7 at %.17g %.17g 0\n"
                 " marker b at %.17g %.17g 0\n marker c at %.17g %.17g 0\nend\n",
            xa, ya, xa, ya, xb, yb, xc, yc);
    for (int i = 0; i < 7; i++) {
        fprintf(t.f, "body %s\n mass %.17g\n com %.17g %.17g 0\n inertia %.17g %.17g %.17g\n position %.17g %.17g 0\n"
                     " orientation axis 0 0 1 %.17g\n marker p\n",
                name[i], m[i], com[i][0], com[i][1], 0.6 * I[i], 0.6 * I[i], I[i], org[i][0], org[i][1], ang[i]);
        switch (i) { /* the far markers, in body axes */
        case 0: fprintf(t.f, " marker f at %.17g 0 0\n", rr); break;
        case 1: fprintf(t.f, " marker e at %.17g 0 0\n", -d); break;
        case 2: fprintf(t.f, " marker e at 0 %.17g 0\n marker d at %.17g %.17g 0\n", -ss, sd, -sc); break;
        case 3: fprintf(t.f, " marker e at 0 %.17g 0\n", -e); break;
        case 4: fprintf(t.f, " marker g at %.17g 0 0\n", zt); break;
        case 5: fprintf(t.f, " marker e at %.17g 0 0\n", zf); break;
        default: fprintf(t.f, " marker h at 0 %.17g 0\n", -u); break;
        }
        fprintf(t.f, "end\n");
    }
    /* joint order: β Θ γ Φ δ Ω ε first (their coordinates are read back), then the three at E */
    fprintf(t.f, "joint jbeta revolute of.p ground.o\njoint jtheta revolute fe.p of.f\njoint jgamma revolute bde.p ground.b\n"
                 "joint jphi revolute eg.p ga.g\njoint jdelta revolute ga.p ground.a5\njoint jomega revolute he.p ah.h\n"
                 "joint jeps revolute ah.p ground.a7\n"
                 "joint je2 revolute fe.e bde.e\njoint je4 revolute eg.e bde.e\njoint je6 revolute he.e bde.e\n"
                 "spring s ground.c bde.d k 4530 length 0.07785\n"
                 "force motor torsion jbeta k 0 preload 0.033\n");
    return text_close(&t);
}

typedef struct {
    double first[7], prev[7], turns[7];
    int n;
} Angles;

static int angles_cb(void *user, MtState *st)
{
    Angles *a = user;
    for (int j = 0; j < 7; j++) {
        double v = mt_joint_coordinate(st, st->q, j);
        if (a->n > 0) {
            if (v - a->prev[j] > M_PI) a->turns[j] -= 2 * M_PI;
            if (v - a->prev[j] < -M_PI) a->turns[j] += 2 * M_PI;
        } else a->first[j] = v;
        a->prev[j] = v;
    }
    a->n++;
    return 0;
}

static void a03(const char *method, double rtol, double want_digits)
{
    /* the test set's reference at t = 0.03 s (RADAU5, rtol = atol = 1e-14) */
    static const double ref[7] = {0.1581077119629904e2, -0.1575637105984298e2, 0.4082224013073101e-1,
                                  -0.5347301163226948,   0.5244099658805304,  0.5347301163226948,
                                  0.1048080741042263e1};
    static const char *const sym[7] = {"beta", "Theta", "gamma", "Phi", "delta", "Omega", "epsilon"};
    char solver[256];
    snprintf(solver, sizeof solver, "method %s step 1e-4 until 0.03 rtol %g atol %g", method, rtol, rtol * 1e-2);
    char *text = a03_text(solver);
    MtSystem *s = mt_test_system(text);
    free(text);
    Angles a = {{0}, {0}, {0}, 0};
    MtRunStats stats;
    MtState *st = mt_test_run(s, angles_cb, &a, &stats);
    double worst = 0;
    for (int j = 0; j < 7; j++) {
        double v = a.prev[j] + a.turns[j], err = fabs(v - ref[j]);
        worst = fmax(worst, err);
        char what[96];
        snprintf(what, sizeof what, "A03 %s at 0.03 s, %s rtol %g [rad]", sym[j], method, rtol);
        CHECK_ABS(v, ref[j], pow(10, -want_digits) * fmax(1, fabs(ref[j])), what);
    }
    printf("A03 Andrews' squeezer, %s rtol %g: %ld evaluations, largest error %.3g rad: %.1f digits (of beta's "
           "%.1f rad)\n",
           method, rtol, stats.evals, worst, digits(worst, fabs(ref[0])), ref[0]);
    mt_state_free(st);
    mt_system_free(s);
}

/* ---- A04: Bricard's mechanism ---- */

/* Five rods of 1 m and 1 kg (square section 0.1 m) and the ground, joined in
 * a loop by six revolute joints whose consecutive axes are perpendicular to
 * each other and to the rod between them: Bricard's orthogonal linkage, here
 * in the skew hexagon of a unit cube (the ground edge from (0,0,1) to the
 * origin). Grübler's count gives 0 degrees of freedom, the linkage has 1;
 * released at rest under gravity it moves, and nothing dissipates energy. */
static void a04(const char *method, double rtol, double until, double want_digits)
{
    static const double P[6][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {1, 1, 1}, {0, 1, 1}, {0, 0, 1}};
    static const char *const zax[6] = {"0 1 0", "0 0 1", "1 0 0", "0 1 0", "0 0 1", "1 0 0"}; /* joint axis at P[i] */
    const double It = (1 + 0.01) / 12, Ia = 0.02 / 12;
    Text t;
    text_open(&t);
    fprintf(t.f, "gravity 0 -9.81 0\nsolver method %s step 0.01 until %g rtol %g atol %g\n", method, until, rtol,
            rtol * 1e-2);
    fprintf(t.f, "ground\n marker j0 at 0 0 0 z %s\n marker j5 at 0 0 1 z %s\nend\n", zax[0], zax[5]);
    for (int i = 0; i < 5; i++) { /* rod i from P[i] to P[i+1], body frame = project axes, origin at P[i] */
        double d[3] = {P[i + 1][0] - P[i][0], P[i + 1][1] - P[i][1], P[i + 1][2] - P[i][2]};
        double J[3];
        for (int c = 0; c < 3; c++) J[c] = d[c] != 0 ? Ia : It;
        fprintf(t.f, "body rod%d\n mass 1\n com %g %g %g\n inertia %.17g %.17g %.17g\n position %g %g %g\n"
                     " marker s z %s\n marker e at %g %g %g z %s\nend\n",
                i, 0.5 * d[0], 0.5 * d[1], 0.5 * d[2], J[0], J[1], J[2], P[i][0], P[i][1], P[i][2], zax[i], d[0], d[1],
                d[2], zax[i + 1]);
    }
    fprintf(t.f, "joint r0 revolute rod0.s ground.j0\n");
    for (int i = 1; i < 5; i++) fprintf(t.f, "joint r%d revolute rod%d.s rod%d.e\n", i, i, i - 1);
    fprintf(t.f, "joint r5 revolute rod4.e ground.j5\n");
    char *text = text_close(&t);
    MtSystem *s = mt_test_system(text);
    free(text);
    printf("A04 Bricard: %d degrees of freedom by Gruebler count, %d by the Jacobian's rank, %d equations redundant\n",
           s->dof_grubler, s->dof_rank, s->ndep);
    CHECK(s->dof_rank == 1, "A04: Bricard's linkage has 1 degree of freedom, found %d", s->dof_rank);
    CHECK(s->dof_grubler == 0, "A04: Gruebler's count is 0, found %d", s->dof_grubler);
    Watch w = {0, 0, 0, 0, 0, 0, 0, NULL, 0};
    MtRunStats stats;
    MtState *st = mt_test_run(s, watch_cb, &w, &stats);
    double moved = fabs(turned(&w));
    const double scale = 5 * 9.81; /* m g L of the five rods */
    printf("A04 Bricard, %s rtol %g, %g s: %ld evaluations, joint r0 moved %.3g rad, energy drift %.3g J: %.1f digits "
           "of m g L\n",
           method, rtol, until, stats.evals, moved, w.emax, digits(w.emax, scale));
    CHECK(moved > 0.1, "A04: the linkage moves under gravity (joint r0 turned %.3g rad)", moved);
    CHECK_ABS(w.emax / scale, 0, pow(10, -want_digits), "A04: energy drift relative to the rods' m g L");
    mt_state_free(st);
    mt_system_free(s);
}

/* Measurements behind docs/integrators.md, "Singular positions" (not run by
 * ctest): test_iftomm n40 | n40-12 | n40-adams | n40t | n40t11 | dp54 | adams | a01-adams | adams-ratio | rk4 | rk4ts | hht. */
static void explore(const char *what)
{
    if (!strcmp(what, "n40")) {
        a02(40, "dp54", 1e-10, "", 10, 8, 0, 0, 0);
        a02(40, "dp54", 1e-11, "", 10, 8, 0, 0, 0);
        a02(40, "adams", 1e-11, "", 10, 8, 0, 0, 0);
        a02(40, "adams", 1e-12, "", 10, 8, 0, 0, 0);
    }
    if (!strcmp(what, "n40-12")) a02(40, "dp54", 1e-12, "", 10, 8, 0, 0, 0);
    if (!strcmp(what, "n40-adams"))
        for (double rtol = 1e-10; rtol > 1e-12 / 2; rtol /= 10) a02(40, "adams", rtol, "", 10, 8, 0, 0, 0);
    if (!strcmp(what, "adams-ratio")) { /* A02_RTOL, A02_EXTRA: other settings to compare; A02_UNTIL: N = 40's end */
        double rtol = getenv("A02_RTOL") ? atof(getenv("A02_RTOL")) : 1e-12;
        const char *extra = getenv("A02_EXTRA") ? getenv("A02_EXTRA") : "";
        a02(2, "adams", rtol, extra, 10, 8, 0, 3, 0);
        a02(40, "adams", rtol, extra, getenv("A02_UNTIL") ? atof(getenv("A02_UNTIL")) : 2, 8, 0, 3, 0);
    }
    if (!strcmp(what, "n40t"))
        for (double t = 0.5; t < 3.1; t += 0.5) a02(40, "dp54", 1e-10, "", t, 8, 0, 0, 0);
    if (!strcmp(what, "n40t11"))
        for (double t = 0.5; t < 3.1; t += 0.5) a02(40, "dp54", 1e-11, "", t, 8, 0, 0, 0);
    if (!strcmp(what, "rk4ts"))
        for (int k = 0; k < 3; k++) {
            static const char *const ts[3] = {"ts 0.02", "ts 0.1 xi 0", "ts 1"};
            for (double h = 2.5e-4; h > 5e-5; h /= 2) {
                char solver[128];
                snprintf(solver, sizeof solver, "method rk4 step %g until 10 every %d %s", h, (int)(0.01 / h + 0.5), ts[k]);
                a02_run(2, solver, 10, M_PI / 2, -1, 0);
            }
        }
    if (!strcmp(what, "a01-adams"))
        for (double rtol = 1e-8; rtol > 1e-13; rtol *= 0.01) a01("adams", rtol, 10, 0);
    if (!strcmp(what, "adams"))
        for (double rtol = 1e-8; rtol > 1e-13; rtol *= 0.01) a02(2, "adams", rtol, "", 10, 8, 0, 0, 0);
    if (!strcmp(what, "dp54"))
        for (double rtol = 1e-8; rtol > 1e-13; rtol *= 0.01) a02(2, "dp54", rtol, "", 10, 8, 0, 0, 0);
    if (!strcmp(what, "tol-swing")) /* the variable-step methods on A02 and on the regular swing */
        for (int k = 0; k < 2; k++)
            for (double rtol = 1e-8; rtol > 1e-13; rtol *= 0.01) {
                const char *m = k ? "adams" : "dp54";
                char solver[256];
                double af = getenv("A02_ATOLF") ? atof(getenv("A02_ATOLF")) : 1e-2; /* atol / rtol */
                if (getenv("A02_ONLY") && strcmp(getenv("A02_ONLY"), m)) continue;
                snprintf(solver, sizeof solver, "method %s step 0.01 until 10 rtol %g atol %g %s", m, rtol, rtol * af,
                         getenv("A02_EXTRA") ? getenv("A02_EXTRA") : "");
                A02Result r = a02_run(2, solver, 10, M_PI / 2, -1, 1);
                A02Result g = a02_run(2, solver, 10, -M_PI / 2 + 80 * M_PI / 180, 0, 1);
                printf("%s rtol %g atol %g: A02 %.3g m (largest %.3g) %ld evaluations, swing %.3g m (largest %.3g) %ld "
                       "evaluations\n",
                       m, rtol, rtol * af, r.err, r.errmax, r.evals, g.err, g.errmax, g.evals);
                fflush(stdout);
            }
    if (!strncmp(what, "ratio-", 6)) { /* ratio-METHOD[-N]: A02 against the regular swing, same step */
        char m[32];
        int N = 2;
        snprintf(m, sizeof m, "%s", what + 6);
        char *dash = strchr(m, '-');
        if (dash) *dash = 0, N = atoi(dash + 1);
        const char *extra = getenv("A02_EXTRA"); /* more solver settings to compare */
        double hmin = getenv("A02_HMIN") ? atof(getenv("A02_HMIN")) : 1e-4;
        double T = getenv("A02_UNTIL") ? atof(getenv("A02_UNTIL")) : 10;
        for (double h = getenv("A02_HMAX") ? atof(getenv("A02_HMAX")) : 1e-3; h > hmin; h /= 2) {
            char solver[256];
            snprintf(solver, sizeof solver, "method %s step %g until %g every %d rtol 1e-10 atol 1e-12 %s", m, h, T,
                     (int)(0.01 / h + 0.5), extra ? extra : "");
            A02Result r = a02_run(N, solver, T, M_PI / 2, -1, 1);
            A02Result g = {NAN, NAN, NAN, 0, NAN};
            if (!getenv("A02_NOSWING")) g = a02_run(N, solver, T, -M_PI / 2 + 80 * M_PI / 180, 0, 1);
            printf("%s N = %d h = %g: A02 %.3g m (largest %.3g) %ld evaluations, swing %.3g m (largest %.3g) %ld "
                   "evaluations: ratios %.2f (largest %.2f), %.2f; energy drift %.2g J, swing %.2g J; joints off by "
                   "%.2g m, swing %.2g m\n",
                   m, N, h, r.err, r.errmax, r.evals, g.err, g.errmax, g.evals, r.err / g.err, r.errmax / g.errmax,
                   (double)r.evals / (double)g.evals, r.energy, g.energy, r.gmax, g.gmax);
            if (!strcmp(m, "hht")) {
                double e1 = a02_hht_minimal(N, T, M_PI / 2, -1, h, -0.05);
                double e2 = a02_hht_minimal(N, T, -M_PI / 2 + 80 * M_PI / 180, 0, h, -0.05);
                printf("  HHT on the 1-DOF equation, largest: A02 %.3g m (ratio %.2f), swing %.3g m (ratio %.2f)\n",
                       e1, r.errmax / e1, e2, g.errmax / e2);
            }
            fflush(stdout);
        }
    }
    for (int k = 0; k < 2; k++) {
        const char *m = k ? "hht" : "rk4";
        if (strcmp(what, m)) continue;
        for (double h = 1e-3; h > 2e-5; h /= 2) {
            char solver[128];
            snprintf(solver, sizeof solver, "method %s step %g until 10 every %d rtol 1e-10 atol 1e-12", m, h,
                     (int)(0.01 / h + 0.5));
            a02_run(2, solver, 10, M_PI / 2, -1, 0);
        }
    }
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        for (int i = 1; i < argc; i++) explore(argv[i]);
        return mt_test_done();
    }
    a01("dp54", 1e-10, 10, 8);
    /* the recommended setting; the bound on evaluations; 3x the regular swing's */
    a02(2, "dp54", 1e-10, "", 10, 8, 100000, 3, 1e-9);
    /* projections after every step: energy kept through the 20 flat positions */
    a02(2, "dp54", 1e-10, "correct both", 10, 6, 0, 0, 2e-8);
    /* 40 four-bars: the first 2 s, two flat positions (10 s take 7 s: `test_iftomm n40`, docs/integrators.md) */
    a02(40, "dp54", 1e-10, "", 2, 8, 0, 3, 1e-9);
    /* adams at its recommended rtol: within 3x of the regular swing's evaluations too */
    a02(2, "adams", 1e-11, "", 10, 8, 0, 3, 1e-9);
    a02(40, "adams", 1e-11, "", 2, 8, 0, 3, 1e-9);
    /* HHT-α at 1 ms, 4 s (8 flat positions), largest errors: 14.5x the swing's plain (the open gap), 1.81x
     * with `correct both`; the swing 3.24x HHT's own error on its 1-DOF equation */
    a02_implicit(2, "hht", 1e-3, 4, 20, 2.5);
    /* 40 four-bars past the second flat position (t = 1.25 s), where a full step's Newton iteration fails and
     * the step is split: 2.49x the swing's largest error, 2.61x its evaluations */
    a02_implicit(40, "hht", 1e-3, 1.4, 0, 3);
    a03("dp54", 1e-10, 8);
    a04("dp54", 1e-10, 10, 8);
    return mt_test_done();
}
