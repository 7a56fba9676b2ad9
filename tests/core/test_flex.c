/* test_flex.c — flexible bodies in the dynamics (core/engine/mt_flex.c, issue 8):
 * conservation of energy and momentum by a free tumbling flexible beam, the
 * static sag of a cantilever under gravity against beam theory, a very stiff
 * flexible connecting rod against the rigid slider-crank, convergence of the
 * flexible rod's deflection with the number of modes, and the first bending
 * frequency of a hinged flexible beam; geometric stiffening: a spinning
 * cantilever's flapwise frequency against the rotating-beam solution, and the
 * blade spin-up example. */
#include <string.h>

#include "mt_flex.h"
#include "mt_math.h"
#include "motus/results.h"
#include "mt_sensors.h"
#include "mt_test.h"

/* ---- a free flexible body: T + V, p and H conserved ----------------------------------- */

typedef struct {
    double E0, p0[3], H0[3], dE, dp, dH, Escale, pscale, Hscale, wmax;
    int n;
} Cons;

static int cons_cb(void *user, MtState *st)
{
    Cons *c = user;
    double T, V, p[3], H[3];
    mt_energy(st, st->q, st->u, &T, &V);
    mt_flex_momentum(st, 0, st->q, st->u, p, H);
    for (int i = 0; i < st->sys->nmodal; i++) c->wmax = fmax(c->wmax, fabs(st->q[7 * st->sys->nbody + i]));
    if (c->n++ == 0) {
        c->E0 = T + V;
        mt_v3_copy(c->p0, p);
        mt_v3_copy(c->H0, H);
        c->Escale = fabs(T) + fabs(V);
        c->pscale = mt_v3_norm(p);
        c->Hscale = mt_v3_norm(H);
        return 0;
    }
    double dp[3], dH[3];
    mt_v3_sub(dp, p, c->p0);
    mt_v3_sub(dH, H, c->H0);
    c->dE = fmax(c->dE, fabs(T + V - c->E0) / c->Escale);
    c->dp = fmax(c->dp, mt_v3_norm(dp) / c->pscale);
    c->dH = fmax(c->dH, mt_v3_norm(dH) / c->Hscale);
    return 0;
}

static void free_body(void)
{
    printf("-- free tumbling flexible beam, no damping: energy and momentum over 10 s\n");
    MtSystem *s = mt_test_system(
        "gravity 0 0 0\n"
        "solver method dp54 step 0.01 until 10 rtol 1e-12 atol 1e-15\n"
        "body beam\n"
        " flexible beam length 1 elements 12 section rect 0.03 0.01 E 5e7 nu 0.3 rho 7850 method free modes 6 zeta 0\n"
        " velocity 0.2 -0.1 0.05\n"
        " omega 1.5 0.8 8\n"
        "end\n");
    CHECK(s->nflex == 1 && s->nmodal == 6, "one flexible body with 6 modal coordinates (got %d, %d)", s->nflex, s->nmodal);
    Cons c = {0};
    MtRunStats stats;
    MtState *st = mt_test_run(s, cons_cb, &c, &stats);
    printf("     %d frames; largest modal coordinate %.3g (the spin deforms the beam)\n", c.n, c.wmax);
    CHECK(c.wmax > 1e-7, "the spin excites the elastic modes (max |w| = %.3g)", c.wmax);
    CHECK_ABS(c.dE, 0, 1e-8, "total energy T + V, largest relative change");
    CHECK_ABS(c.dp, 0, 1e-8, "linear momentum, largest relative change");
    CHECK_ABS(c.dH, 0, 1e-8, "angular momentum about the origin, largest relative change");
    mt_state_free(st);
    mt_system_free(s);
}

/* ---- a cantilever under gravity sags to q L⁴ / (8 E I) ----------------------------------- */

typedef struct { double tip; int mk; } Tip;

static int tip_cb(void *user, MtState *st)
{
    Tip *t = user;
    MtMk M;
    mt_marker_eval(st, st->q, st->u, t->mk, &M);
    t->tip = M.p[1];
    return 0;
}

static void cantilever(void)
{
    printf("-- steel cantilever 1 m, 20 x 10 mm, under gravity: tip sag against Euler-Bernoulli\n");
    const double L = 1, b = 0.02, h = 0.01, E = 2.1e11, rho = 7850, g = 9.81;
    double q = rho * b * h * g, I = h * b * b * b / 12 /* sag along y: b is the depth */, want = -q * L * L * L * L / (8 * E * I);
    /* damped modes so it settles; 8 fixed-interface modes */
    MtSystem *s = mt_test_system(
        "gravity 0 -9.81 0\n"
        "solver method dp54 step 0.01 until 3 rtol 1e-10 atol 1e-12\n"
        "ground\n marker clamp\nend\n"
        "body beam\n"
        " flexible beam length 1 elements 20 section rect 0.02 0.01 E 2.1e11 nu 0.3 rho 7850 method cb modes 8 zeta 0.6\n"
        " marker root node 1\n"
        " marker tip node 21\n"
        "end\n"
        "joint clamp fixed beam.root ground.clamp\n");
    Tip t = {0, mt_model_find_marker(s->model, "beam.tip")};
    MtRunStats stats;
    MtState *st = mt_test_run(s, tip_cb, &t, &stats);
    printf("     %d modal coordinates; constraint error %.3g m\n", s->nmodal, stats.gmax);
    CHECK_REL(t.tip, want, 5e-3, "tip deflection after settling [m] (theory q L^4 / 8EI, lumped nodal loads)");
    mt_state_free(st);
    mt_system_free(s);

    /* a force element at the tip: the static deflection F L³ / (3 E I) is exact
     * for Euler-Bernoulli elements, and the tip is an interface node, so its
     * constraint mode holds it exactly */
    printf("-- the same cantilever without gravity, 1 N down at the tip by an actuator (0.24 mm: linear range)\n");
    s = mt_test_system(
        "solver method hht step 2e-3 until 3 rtol 1e-10 atol 1e-14\n"
        "ground\n marker clamp\nend\n"
        "body beam\n"
        " flexible beam length 1 elements 20 section rect 0.02 0.01 E 2.1e11 nu 0.3 rho 7850 method cb modes 4 zeta 0.7\n"
        " marker root node 1\n marker tip node 21\n"
        "end\n"
        "joint clamp fixed beam.root ground.clamp\n"
        "force push actuator beam.tip ground.clamp fy {-1}\n");
    t.mk = mt_model_find_marker(s->model, "beam.tip");
    st = mt_test_run(s, tip_cb, &t, &stats);
    want = -1 * L * L * L / (3 * E * h * b * b * b / 12);
    CHECK_REL(t.tip, want, 1e-6, "tip deflection under a tip force element [m] (theory F L^3 / 3EI)");
    mt_state_free(st);
    mt_system_free(s);
}

/* ---- slider-crank with a flexible connecting rod ----------------------------------------- */

/* crank r = 0.15 m run up smoothly to w = 50 rad/s in 0.1 s; rod 0.3 m, aluminium, d = 8 mm; slider 10 g; no gravity.
 * The rod's axial load stays below 1 % of its buckling load, so that the
 * linear elastic modes (no geometric stiffness) and the chain of rigid
 * segments (which has it) describe the same bending. */
static const double SC_R = 0.15, SC_L = 0.3;

typedef struct {
    int slider, a, mid, b;   /* body slider; rod markers at the big end, the middle and the small end */
    double xerr, tfrom, dmax, dmin;
} Sc;

static int sc_cb(void *user, MtState *st)
{
    Sc *c = user;
    double t = st->t, ph = mt_joint_coord(st, st->q, 0, MT_COORD_ANGLE), sb = SC_R * sin(ph) / SC_L;
    double xB = SC_R * cos(ph) + SC_L * sqrt(1 - sb * sb), pos[3];
    mt_body_origin(st, st->q, st->u, c->slider, pos, NULL);
    c->xerr = fmax(c->xerr, fabs(pos[0] - xB));
    if (t >= c->tfrom) { /* deflection of the middle from the chord, in the plane */
        MtMk A, M, B;
        mt_marker_eval(st, st->q, st->u, c->a, &A);
        mt_marker_eval(st, st->q, st->u, c->mid, &M);
        mt_marker_eval(st, st->q, st->u, c->b, &B);
        double ch[3], am[3];
        mt_v3_sub(ch, B.p, A.p);
        mt_v3_sub(am, M.p, A.p);
        double d = (ch[0] * am[1] - ch[1] * am[0]) / hypot(ch[0], ch[1]);
        c->dmax = fmax(c->dmax, d);
        c->dmin = fmin(c->dmin, d);
    }
    return 0;
}

static const char *sc_common =
    "gravity 0 0 0\n"
    "ground\n marker o\n marker rail z 1 0 0\nend\n"
    "body crank\n mass 1\n com 0.075 0 0\n inertia 1e-4 2e-3 2e-3\n marker o\n marker pin at 0.15 0 0\nend\n"
    "body slider\n mass 0.01\n inertia 1e-6 1e-6 1e-6\n position 0.45 0 0\n marker b\n marker s z 1 0 0\nend\n"
    "joint pivot revolute crank.o ground.o\n"
    "joint slide prismatic slider.s ground.rail\n"
    "driver spin pivot vel step 0 0 0.1 50\n"; /* a smooth start: no impulse excites the rod */

/* Runs the slider-crank with a flexible rod (E, fixed-interface modes) or, with
 * segments > 0, with a rod of rigid segments joined by revolute joints with
 * torsion springs EI/l. Returns the slider's largest error against the rigid
 * kinematics and the range of the middle's deflection over a revolution at full speed. */
static Sc slider_crank(double E, int modes, int segments, const char *solver)
{
    char text[16384];
    int n = snprintf(text, sizeof text, "%s%s\n", sc_common, solver);
    const double d = 0.008, rho = 2700, A = M_PI * d * d / 4, I = M_PI * d * d * d * d / 64;
    if (segments == 0) {
        n += snprintf(text + n, sizeof text - (size_t)n,
                      "body rod\n position 0.15 0 0\n"
                      " flexible beam length 0.3 elements 10 section circle 0.008 E %.17g nu 0.33 rho 2700 method cb modes %d zeta 0.01\n"
                      " marker a node 1\n marker mid node 6\n marker b node 11 z 0 0 1\nend\n"
                      "joint big_end revolute rod.a crank.pin\n"
                      "joint small_end revolute slider.b rod.b\n", E, modes);
    } else {
        double l = SC_L / segments, m = rho * A * l;
        for (int k = 0; k < segments; k++)
            n += snprintf(text + n, sizeof text - (size_t)n,
                          "body seg%d\n mass %.17g\n com %.17g 0 0\n inertia %.17g %.17g %.17g\n position %.17g 0 0\n"
                          " marker a\n marker b at %.17g 0 0\n%s"
                          "end\n", k, m, l / 2, m * d * d / 8, m * l * l / 12, m * l * l / 12, 0.15 + k * l, l,
                          2 * k == segments ? " marker mid\n" : "");
        n += snprintf(text + n, sizeof text - (size_t)n, "joint big_end revolute seg0.a crank.pin\n"
                                                         "joint small_end revolute slider.b seg%d.b\n", segments - 1);
        for (int k = 1; k < segments; k++)
            n += snprintf(text + n, sizeof text - (size_t)n,
                          "joint h%d revolute seg%d.a seg%d.b\nforce k%d torsion h%d k %.17g\n", k, k, k - 1, k, k, E * I / l);
    }
    MtSystem *s = mt_test_system(text);
    Sc c = {.tfrom = 0.1, .dmax = -1, .dmin = 1};
    const MtModel *m = s->model;
    c.slider = mt_model_find_body(m, "slider");
    char ref[64];
    c.a = mt_model_find_marker(m, segments ? "seg0.a" : "rod.a");
    snprintf(ref, sizeof ref, "seg%d.b", segments - 1);
    c.b = mt_model_find_marker(m, segments ? ref : "rod.b");
    snprintf(ref, sizeof ref, "seg%d.a", segments / 2);
    c.mid = mt_model_find_marker(m, segments ? ref : "rod.mid");
    MtRunStats stats;
    MtState *st = mt_test_run(s, sc_cb, &c, &stats);
    printf("     %s: %d modal coordinates, %ld steps, %ld evaluations; constraint error %.2g\n",
           segments ? "rigid segments" : "flexible rod", s->nmodal, stats.steps, stats.evals, stats.gmax);
    mt_state_free(st);
    mt_system_free(s);
    return c;
}

static void flexible_slider_crank(void)
{
    const char *hht = "solver method hht step 1e-4 until 0.2257 alpha -0.1 rtol 1e-9 atol 1e-12 ts 0.01 correct both";
    printf("-- slider-crank with a flexible rod of E = 10^4 x aluminium: the rigid kinematics\n");
    Sc stiff = slider_crank(7e14, 4, 0, hht);
    CHECK_ABS(stiff.xerr, 0, 1e-9, "slider position against the rigid slider-crank, max over the run [m]");
    printf("-- aluminium rod: mid-point deflection with 4 and 8 fixed-interface modes, and a chain of 10 rigid segments\n");
    Sc f4 = slider_crank(7e10, 4, 0, hht), f8 = slider_crank(7e10, 8, 0, hht);
    Sc ch = slider_crank(7e10, 0, 10, hht);
    printf("     deflection range over a revolution at 50 rad/s [mm]: 4 modes %.4f .. %.4f, 8 modes %.4f .. %.4f, chain %.4f .. %.4f\n",
           1e3 * f4.dmin, 1e3 * f4.dmax, 1e3 * f8.dmin, 1e3 * f8.dmax, 1e3 * ch.dmin, 1e3 * ch.dmax);
    CHECK(f8.dmax - f8.dmin > 1e-4, "the rod bends (range %.3g m)", f8.dmax - f8.dmin);
    CHECK_REL(f4.dmax - f4.dmin, f8.dmax - f8.dmin, 0.01, "deflection range, 4 against 8 modes");
    CHECK_REL(f8.dmax - f8.dmin, ch.dmax - ch.dmin, 0.03, "deflection range, 8 modes against 10 rigid segments");
}

/* ---- a hinged flexible beam swinging under gravity keeps its bending frequency -------------- */

typedef struct { int sensor; MtCsv *csv; double *t, *y; int n, cap; } Series;

static int series_cb(void *user, MtState *st)
{
    Series *sr = user;
    if (sr->n == sr->cap) return 1;
    sr->t[sr->n] = st->t;
    sr->y[sr->n++] = mt_sensor_value(st, sr->sensor);
    return 0;
}

/* Runs a model given as text and records its first sensor at every output
 * frame (at most cap); free with series_free. */
static void record_series(const char *text, int cap, Series *sr)
{
    memset(sr, 0, sizeof *sr);
    sr->cap = cap;
    sr->t = malloc(sizeof(double) * (size_t)cap);
    sr->y = malloc(sizeof(double) * (size_t)cap);
    MtSystem *s = mt_test_system(text);
    MtRunStats stats;
    MtState *st = mt_test_run(s, series_cb, sr, &stats);
    mt_state_free(st);
    mt_system_free(s);
}

static void series_free(Series *sr)
{
    free(sr->t);
    free(sr->y);
}

/* The strongest frequency (Hz) in lo..hi of a sampled series: Hann-windowed
 * Fourier amplitude, its slow drift removed by a quadratic fit first;
 * *amp2 the squared amplitude sum. */
static double strongest_frequency(Series *sr_, double flo, double fhi, double *amp2)
{
    Series sr = *sr_;
    /* the strongest frequency of the tip's elastic deflection (Hann-windowed
     * Fourier amplitude, its slow drift with the swing removed by a quadratic fit) */
    double S[5] = {0}, B[3] = {0}, T = sr.t[sr.n - 1];
    for (int i = 0; i < sr.n; i++) { /* least squares y ≈ c0 + c1 x + c2 x², x = t/T */
        double x = sr.t[i] / T, p = 1;
        for (int k = 0; k < 5; k++, p *= x) {
            S[k] += p;
            if (k < 3) B[k] += p * sr.y[i];
        }
    }
    double A3[9] = {S[0], S[1], S[2], S[1], S[2], S[3], S[2], S[3], S[4]}, Ai[9], cq[3];
    mt_m3_inv(Ai, A3);
    mt_m3_mulv(cq, Ai, B);
    for (int i = 0; i < sr.n; i++) {
        double x = sr.t[i] / T;
        sr.y[i] -= cq[0] + cq[1] * x + cq[2] * x * x;
    }
    double fbest = 0, abest = 0;
    for (int pass = 0; pass < 2; pass++) {
        double lo = pass ? fbest - 1 : flo, hi = pass ? fbest + 1 : fhi, df = pass ? 0.001 : 0.5;
        for (double fr = lo; fr <= hi; fr += df) {
            double re = 0, im = 0;
            for (int i = 0; i < sr.n; i++) {
                double wdw = 0.5 - 0.5 * cos(2 * M_PI * sr.t[i] / T), ph = 2 * M_PI * fr * sr.t[i];
                re += wdw * sr.y[i] * cos(ph);
                im += wdw * sr.y[i] * sin(ph);
            }
            if (re * re + im * im > abest) { abest = re * re + im * im; fbest = fr; }
        }
    }
    *amp2 = abest;
    return fbest;
}

static void flexible_pendulum(void)
{
    printf("-- steel beam 1 m hinged at one end, swinging under gravity: its bending frequency\n");
    Series sr;
    record_series(
        "gravity 0 -9.81 0\n"
        "solver method dp54 step 1e-4 until 0.3 rtol 1e-9 atol 1e-12\n"
        "ground\n marker hinge\nend\n"
        "body beam\n"
        " flexible beam length 1 elements 20 section rect 0.02 0.01 E 2.1e11 nu 0.3 rho 7850 method cb modes 6 zeta 0\n"
        " marker pin node 1\n marker tip node 21\n"
        "end\n"
        "joint pin revolute beam.pin ground.hinge\n"
        "sensor tip_y deformation beam.tip component y\n",
        4000, &sr);
    double abest, fbest = strongest_frequency(&sr, 10, 500, &abest);
    const double EI = 2.1e11 * 0.01 * 0.02 * 0.02 * 0.02 / 12, rhoA = 7850 * 0.02 * 0.01, bl = 3.926602312;
    double f_theory = bl * bl * sqrt(EI / rhoA) / (2 * M_PI);
    double f = fbest;
    printf("     %d samples over %.2f s; elastic tip deflection amplitude %.3g m\n", sr.n, sr.t[sr.n - 1], sqrt(abest) * 4 / sr.n);
    CHECK(sqrt(abest) * 4 / sr.n > 1e-6, "the beam vibrates while it swings");
    CHECK_REL(f, f_theory, 0.01, "bending frequency of the swinging beam against the pinned-free beam (beta L = 3.9266) [Hz]");
    series_free(&sr);
}

/* ---- a spinning cantilever stiffens (geometric stiffening) --------------------------------- */

/* A steel beam clamped to a hub turning at Ω about z, its flapwise (z) bending
 * set ringing by gravity along −z applied at t = 0. With stiffening, the
 * flapwise frequency follows the rotating-beam solution (dimensionless
 * λ = ω·√(ρAL⁴/EI) = 3.5160, 3.6816, 4.1373 at γ = Ω·√(ρAL⁴/EI) = 0, 1, 2:
 * Yoo & Shin 1998, Table 1; Southwell's ω² = ω₀² + 1.193 Ω² gives 3.682,
 * 4.139); without it only the frame's rigid rotation stiffens, and the
 * frequency stays well below. */
static double spin_flap(double gamma, int stiffening)
{
    const double E = 2.1e11, rho = 7850, b = 0.02, h = 0.01, L = 1;
    const double scale = sqrt(E * b * h * h * h / 12 / (rho * b * h)) / (L * L); /* ω = λ·scale */
    char text[1400];
    snprintf(text, sizeof text,
             "gravity 0 0 -9.81\n"
             "solver method dp54 step 2e-4 until 1.2 rtol 1e-9 atol 1e-12\n"
             "ground\n marker hub\nend\n"
             "body blade\n"
             " flexible beam length 1 elements 20 section rect 0.02 0.01 E 2.1e11 nu 0.3 rho 7850 method cb modes 6 zeta 0%s\n"
             " marker root node 1\n marker tip node 21\n"
             "end\n"
             "joint hub revolute blade.root ground.hub\n"
             "driver spin hub rate %.17g\n"
             "sensor tip_z deformation blade.tip component z\n",
             stiffening ? " stiffening" : "", gamma * scale);
    Series sr;
    record_series(text, 8000, &sr);
    double amp, f = strongest_frequency(&sr, 2, 40, &amp);
    series_free(&sr);
    return 2 * M_PI * f / scale;
}

static void spinning_beam(void)
{
    printf("-- a spinning cantilever: flapwise frequency with and without geometric stiffening\n");
    static const double gam[3] = {0, 1, 2}, lam[3] = {3.5160, 3.6816, 4.1373};
    for (int k = 0; k < 3; k++) {
        double l = spin_flap(gam[k], 1);
        char what[96];
        snprintf(what, sizeof what, "stiffened, gamma = %g: dimensionless flapwise frequency", gam[k]);
        CHECK_REL(l, lam[k], 0.01, what);
    }
    double l0 = spin_flap(2, 0);
    printf("     not stiffened, gamma = 2: %.4f (the frame's own rotation stiffens a little)\n", l0);
    CHECK(fabs(l0 / lam[2] - 1) > 0.03, "not stiffened, gamma = 2: more than 3 %% below the rotating-beam frequency");
}

/* ---- the blade spin-up example: bounded with stiffening, running away without ---------------- */

static double spin_up_peak(const char *text, double *final_lag)
{
    Series sr;
    record_series(text, 8000, &sr);
    double peak = 0;
    for (int i = 0; i < sr.n; i++) peak = fmax(peak, fabs(sr.y[i]));
    *final_lag = sr.n ? sr.y[sr.n - 1] : NAN;
    series_free(&sr);
    return peak;
}

static void blade_spin_up(void)
{
    printf("-- projects/blade-spin-up: a 10 m blade spun up to 6 rad/s, above its in-plane frequency\n");
    char path[512];
    snprintf(path, sizeof path, "%s/blade-spin-up.motus.txt", MOTUS_PROJECTS_DIR);
    FILE *f = fopen(path, "rb");
    static char text[8192], off[8192];
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f) fclose(f);
    text[n] = 0;
    CHECK(n > 0 && strstr(text, " stiffening\n") && strstr(text, "until 20"), "the example reads (%s)", path);
    if (!n) return;
    double lag_end, peak = spin_up_peak(text, &lag_end);
    /* quasi-static: a cantilever under the tangential load ρA·α·x of the largest hub
     * acceleration α = 2Ωs/T bends at its tip by 11 q₀L⁴/(120 EI), q₀ = ρA·α·L */
    double q0 = 1.2 * (2 * 6.0 / 15) * 10, quasi = 11 * q0 * 1e4 / (120 * 14000.0);
    printf("     stiffened: largest tip lag %.4f m (quasi-static %.4f m), at 20 s %.2g m\n", peak, quasi, lag_end);
    CHECK(fabs(peak / quasi - 1) < 0.15, "stiffened: the tip lags as the quasi-static cantilever under the peak tangential load, within 15 %%");
    CHECK(fabs(lag_end) < 0.01, "stiffened: and rings about the straight blade once the speed is reached");
    /* the same without stiffening, to 16 s (it diverges soon after) */
    char *o = off;
    for (const char *c = text; *c;) {
        if (!strncmp(c, " stiffening", 11)) c += 11;
        else if (!strncmp(c, "until 20", 8)) o += sprintf(o, "until 16"), c += 8;
        else *o++ = *c++;
    }
    *o = 0;
    double peak_off = spin_up_peak(off, &lag_end);
    printf("     linear modes alone: largest tip lag %.3f m by 16 s\n", peak_off);
    CHECK(peak_off > 10 * peak, "without stiffening the in-plane bending runs away (10x the stiffened lag by 16 s)");
}

int main(void)
{
    free_body();
    cantilever();
    flexible_slider_crank();
    flexible_pendulum();
    spinning_beam();
    blade_spin_up();
    return mt_test_done();
}
