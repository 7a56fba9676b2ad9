/* The wheel–rail contact against closed form: Klingel's kinematic hunting
 * wavelength (λ = 0.01 against 2π√(r0·b/λ); λ = 0.05 against the same with
 * the roll terms of a cone on a round rail head), a conical wheelset held in
 * a curve keeps the rolling-radius difference pure rolling needs, a
 * wheelset pushed sideways stops on its flange at the geometric play, and
 * the generated track irregularity has the German spectrum's variance and
 * is the same for the same seed, and a wheelset suspended in yaw and
 * lateral to a carrier loses its stability at the speed the linear theory
 * gives; bad settings are refused in words. */
#include <lapacke.h>
#include <string.h>

#include "motus/results.h"
#include "mt_rail.h"
#include "mt_test.h"

typedef MtTestRec Rec;

/* Runs a model and keeps the named columns of every frame. */
static Rec run(const char *text, const char *const *cols, int ncol) { return mt_test_record(text, cols, ncol); }

static void rec_free(Rec *r) { mt_test_rec_free(r); }

/* A free wheelset (1500 kg, 50 kN on the axle) rolling at 5 m/s on straight track, started 2 mm off centre. */
static double hunting_wavelength(double cone)
{
    char text[2048];
    double V = 5, L = 2 * M_PI * sqrt(0.45 * 0.75 / cone);
    snprintf(text, sizeof text,
             "gravity 0 0 -9.81\n"
             "ground\n  marker track\nend\n"
             "body ws\n  mass 1500\n  inertia 800 100 800\n  position 0 0.002 0.45\n  velocity %g 0 0\n  omega 0 %.17g 0\n  marker c\nend\n"
             "force load actuator ws.c ground.track fz -50000\n"
             "force wr wheelrail ws.c ground.track radius 0.45 conicity %g flange %.17g saturation 0\n"
             "solver method rk4 step 2e-4 until %g every 5\n",
             V, V / 0.45, cone, 0.025 + 0.3 * (sin(atan(0.05)) - sin(atan(cone))), 2.2 * L / V); /* the same flange play as the 1:20 default */
    static const char *const cols[] = {"ws.x", "wr.y"};
    Rec r = run(text, cols, 2);
    double first = NAN, last = NAN;
    int n = 0;
    for (int i = 1; i < r.n; i++) /* upward zero crossings of the lateral offset against the distance run */
        if (r.out[1][i - 1] < 0 && r.out[1][i] >= 0) {
            double x = r.out[0][i - 1] + (r.out[0][i] - r.out[0][i - 1]) * -r.out[1][i - 1] / (r.out[1][i] - r.out[1][i - 1]);
            if (n++ == 0) first = x;
            last = x;
        }
    rec_free(&r);
    CHECK(n >= 2, "two hunting cycles seen (%d crossings)", n);
    return (last - first) / (n - 1);
}

static void test_klingel(void)
{
    double r0 = 0.45, b = 0.75, Rc = 0.3;
    double L1 = hunting_wavelength(0.01);
    CHECK_REL(L1, 2 * M_PI * sqrt(r0 * b / 0.01), 0.01, "hunting wavelength, conicity 0.01, against Klingel's 2π√(r0·b/λ) [m]");
    /* A cone on a round head: the roll φ = λe·y/b moves the contact on the wheel by (r0 + Rc)·φ, so the
     * rolling radii differ by 2·λe·y with λe = λ/(1 − λ(r0 + Rc)/b); the roll rate adds r0·φ̇ to the
     * lateral creepage, so the wheelset's path obeys y'' = −λe/(r0·(b + r0·λe))·y. */
    double lam = 0.05, le = lam / (1 - lam * (r0 + Rc) / b), L5 = hunting_wavelength(lam);
    CHECK_REL(L5, 2 * M_PI * sqrt(r0 * (b + r0 * le) / le), 0.005, "hunting wavelength, conicity 0.05, against Klingel's with the roll terms [m]");
    printf("     (conicity 0.05: Klingel's 2π√(r0·b/λ) = %.4f m, %.2f %% from the run)\n", 2 * M_PI * sqrt(r0 * b / lam),
           100 * (L5 / (2 * M_PI * sqrt(r0 * b / lam)) - 1));
}

/* A wheelset led round a 1500 m curve by a carrier turning about the curve's centre, through dampers only
 * (no steady force): it rolls purely, so r_R − r_L = r̄·2(Y_L − Y_R)/(2R − Y_L − Y_R). */
static void test_curve(void)
{
    const char *text =
        "gravity 0 0 -9.81\n"
        "parameter V 5\nparameter R 1500\n"
        "ground\n  marker track\n  marker piv at 0 {R} 0\nend\n"
        "body carrier\n  mass 10\n  position 0 {R} 0\n  marker p\n  marker ax at 0 {-R} 0.45\n"
        "  marker al at -1 {1-R} 0.45\n  marker ar at -1 {-1-R} 0.45\nend\n"
        "body ws\n  mass 1500\n  inertia 800 100 800\n  position 0 -0.00428 0.45\n  velocity {V} 0 0\n  omega 0 {V/0.45} {V/R}\n"
        "  marker c\n  marker el at 0 1 0\n  marker er at 0 -1 0\nend\n"
        "joint turn revolute carrier.p ground.piv\n"
        "driver spin turn rate {V/R}\n"
        "force guide bushing ws.c carrier.ax kx 1e6 cx 1e4 cy 5e6\n"
        "spring yl ws.el carrier.al c 2e6 length 1\n"
        "spring yr ws.er carrier.ar c 2e6 length 1\n"
        "force load actuator ws.c ground.track fz -50000\n"
        "force wr wheelrail ws.c ground.track radius 0.45 curve_radius {R} length 5000\n"
        "solver method hht step 1e-3 until 20 every 10\n";
    static const char *const cols[] = {"wr.radL", "wr.radR", "wr.rL", "wr.rR", "wr.s"};
    Rec r = run(text, cols, 5);
    double got = 0, want = 0;
    int n = 0;
    for (int i = r.n / 4; i < r.n; i++, n++) { /* the mean over the last 15 s */
        double YL = 0.75 - r.out[2][i], YR = -(0.75 - r.out[3][i]), R = 1500;
        got += r.out[1][i] - r.out[0][i];
        want += (r.out[0][i] + r.out[1][i]) * (YL - YR) / (2 * R - YL - YR);
    }
    CHECK_REL(got / n, want / n, 0.005, "rolling-radius difference in a 1500 m curve against pure rolling [m]");
    CHECK_REL(r.out[4][r.n - 1], 100, 1e-3, "the wheelset ran 100 m along the curve [m]");
    rec_free(&r);
}

/* 40 kN pushes a wheelset at rest to the left: it stops on its flange at the geometric play. */
static void test_flange(void)
{
    const char *text = "gravity 0 0 -9.81\n"
                       "ground\n  marker track\nend\n"
                       "body ws\n  mass 1500\n  inertia 800 100 800\n  position 0 0 0.45\n  marker c\nend\n"
                       "force load actuator ws.c ground.track fz -50000 fy 40000\n"
                       "force wr wheelrail ws.c ground.track radius 0.45 vmin 2\n"
                       "solver method rk4 step 1e-4 until 1 every 100\n";
    static const char *const cols[] = {"wr.y", "wr.angleL", "wr.npL", "wr.Fy", "wr.defl", "ws.z"};
    Rec r = run(text, cols, 6);
    /* the play: the 70° flange flank touches the gauge corner where it is inclined 70° */
    double lam = 0.05, f0 = 0.025, tf = tan(70 * M_PI / 180), Rc = 0.3, Rg = 0.013, w = 0.036;
    double s1 = (w - Rg) / (Rc - Rg), zcc = -Rc + (Rc - Rg) * sqrt(1 - s1 * s1), zc = -Rc * sin(atan(lam));
    double zeta = zc + (Rc - Rg) * s1 + Rg * sin(70 * M_PI / 180), z = zcc + Rg * cos(70 * M_PI / 180) + Rc - sqrt(Rc * Rc - zc * zc);
    double play = (-z - lam * f0 + tf * (f0 - zeta)) / (tf - lam), ymax = -1;
    for (int i = 0; i < r.n; i++) ymax = fmax(ymax, r.out[0][i]);
    int e = r.n - 1;
    CHECK(ymax <= play + 2e-4, "the wheelset does not pass the flange: its largest offset %.6f m, the play %.6f m", ymax, play);
    CHECK_ABS(r.out[0][e], play, 5e-4, "lateral offset on the flange against the geometric play (roll and Hertz approach make the difference) [m]");
    CHECK_ABS(r.out[1][e], 70 * M_PI / 180, 2e-3, "contact angle of the flange [rad]");
    CHECK_ABS(r.out[2][e], 2, 0, "two contact patches on the left wheel (tread and flange)");
    CHECK_REL(r.out[3][e], -40000, 1e-3, "the rails hold the push [N]");
    CHECK(r.out[4][e] < 1e-4, "normal penetration stays that of the Hertz law (%.3g m)", r.out[4][e]);
    rec_free(&r);
}

/* Growth rate of the lateral oscillation of a wheelset held by a lateral
 * spring (ky 5e5 N/m, on the axle centre) and a yaw spring (kψ 5e5 N·m/rad:
 * two longitudinal springs on the axle line 1 m either side) to a carrier
 * driven at speed V along straight track; linear creep. */
static double growth_rate(double V)
{
    char text[2400];
    snprintf(text, sizeof text,
             "gravity 0 0 -9.81\n"
             "ground\n  marker track\n  marker rail at 0 0 0.45 z 1 0 0\nend\n"
             "body carrier\n  mass 10\n  position 0 0 0.45\n  velocity %.17g 0 0\n  marker m z 1 0 0\n  marker ax\n"
             "  marker al at -1 1 0\n  marker ar at -1 -1 0\nend\n"
             "body ws\n  mass 1500\n  inertia 800 100 800\n  position 0 0.001 0.45\n  velocity %.17g 0 0\n  omega 0 %.17g 0\n"
             "  marker c\n  marker el at 0 1 0\n  marker er at 0 -1 0\nend\n"
             "joint slide prismatic carrier.m ground.rail\n"
             "driver run slide rate %.17g\n"
             "force guide bushing ws.c carrier.ax kx 1e7 ky 5e5 cx 1e4\n"
             "spring yl ws.el carrier.al k 2.5e5 length 1\n"
             "spring yr ws.er carrier.ar k 2.5e5 length 1\n"
             "force load actuator ws.c ground.track fz -50000\n"
             "force wr wheelrail ws.c ground.track radius 0.45 saturation 0\n"
             "solver method rk4 step 5e-4 until 1.7 every 10\n",
             V, V, V / 0.45, V);
    static const char *const cols[] = {"time", "wr.y"};
    Rec r = run(text, cols, 2);
    double t0 = NAN, y0 = NAN, t1 = NAN, y1 = NAN;
    for (int i = 1; i + 1 < r.n; i++) /* first and last positive peaks */
        if (r.out[1][i] > 0 && r.out[1][i] > r.out[1][i - 1] && r.out[1][i] >= r.out[1][i + 1]) {
            if (isnan(t0)) { t0 = r.out[0][i]; y0 = r.out[1][i]; }
            t1 = r.out[0][i];
            y1 = r.out[1][i];
        }
    rec_free(&r);
    return log(y1 / y0) / (t1 - t0);
}

/* The linear model of the same wheelset (the wheelset restrained by lateral
 * and yaw springs of A. H. Wickens, Fundamentals of Rail Vehicle Dynamics,
 * 2003, and K. Knothe, S. Stichel, Rail Vehicle Dynamics, 2017):
 *   m ÿ + (2 f22/V)(1 + κ) ẏ − 2 f22 ψ + (ky + W·λe/b) y = 0
 *   I ψ̈ + (2 f11 b²/V) ψ̇ + kψ ψ + (2 f11 b λe/r0) y = 0,
 * stable while the Hurwitz determinant a3·a2·a1 − a1²·a4 − a3²·a0 of its
 * quartic is positive; with roll (κ = r0·λe/b, λe = λ/(1 − λ(r0 + Rc)/b), the
 * gravitational stiffness W·λe/b) or without (κ = 0, λe = λ, no W term: the
 * textbook's coned wheels on knife-edge rails). Critical speed by bisection. */
static double critical_speed_linear(int roll)
{
    double m = 1500, Iw = 800, f = 1e7, r0 = 0.45, b = 0.75, lam = 0.05, Rc = 0.3, W = 1500 * 9.81 + 50000, ky = 5e5, kp = 5e5;
    double le = roll ? lam / (1 - lam * (r0 + Rc) / b) : lam, kap = roll ? r0 * le / b : 0, Ky = ky + (roll ? W * le / b : 0);
    double lo = 1, hi = 1000;
    for (int it = 0; it < 100; it++) {
        double V = 0.5 * (lo + hi), c1 = 2 * f * (1 + kap) / V, c2 = 2 * f * b * b / V;
        double a4 = m * Iw, a3 = m * c2 + Iw * c1, a2 = m * kp + c1 * c2 + Iw * Ky, a1 = c1 * kp + c2 * Ky, a0 = Ky * kp + 4 * f * f * b * le / r0;
        if (a3 * a2 * a1 - a1 * a1 * a4 - a3 * a3 * a0 > 0) lo = V;
        else hi = V;
    }
    return lo;
}

static void test_critical_speed(void)
{
    double Vt = critical_speed_linear(0), Vr = critical_speed_linear(1);
    double V1 = 0.9 * Vt, V2 = 1.1 * Vt, s1 = growth_rate(V1), s2 = growth_rate(V2);
    CHECK(s1 < 0 && s2 > 0, "the hunting decays at 0.9 Vc (%.3f 1/s) and grows at 1.1 Vc (%.3f 1/s)", s1, s2);
    double Vc = V1 + (V2 - V1) * -s1 / (s2 - s1); /* where the growth rate crosses zero */
    CHECK_REL(Vc, Vt, 0.05, "critical speed of the suspended wheelset against the textbook linear model [m/s]");
    CHECK_REL(Vc, Vr, 0.05, "critical speed against the linear model with the roll terms [m/s]");
}

static void test_irregularity(void)
{
    enum { N = 200000 };
    double *s = malloc(sizeof(double) * N * 5), *zv = s + N, *yl = zv + N, *z2 = yl + N, *y2 = z2 + N;
    for (int i = 0; i < N; i++) s[i] = 0.05 * i; /* 10 km */
    mt_rail_irregularity_sample(1, 7, 1, 100, N, s, zv, yl);
    double vz = 0, vy = 0;
    for (int i = 0; i < N; i++) { vz += zv[i] * zv[i]; vy += yl[i] * yl[i]; }
    CHECK_REL(sqrt(vz / N), sqrt(mt_rail_psd_variance(1, 0, 1, 100)), 0.03, "RMS vertical irregularity, low disturbance, 1–100 m [m]");
    CHECK_REL(sqrt(vy / N), sqrt(mt_rail_psd_variance(1, 1, 1, 100)), 0.03, "RMS lateral irregularity, low disturbance, 1–100 m [m]");
    mt_rail_irregularity_sample(1, 7, 1, 100, 1000, s, z2, y2);
    CHECK(!memcmp(z2, zv, 1000 * sizeof(double)) && !memcmp(y2, yl, 1000 * sizeof(double)), "the same seed gives the same track");
    mt_rail_irregularity_sample(1, 8, 1, 100, 1000, s, z2, y2);
    CHECK(memcmp(z2, zv, 1000 * sizeof(double)) != 0, "another seed gives another track");
    free(s);
}

/* A bogie: a rigid frame (2.6 t, 3000 kg·m² in yaw) on two wheelsets 2.5 m
 * apart, each held by two axle-box bushings on the axle line 1 m either side
 * (longitudinal 5e6, lateral 2.5e6, vertical 1e6 N/m), the frame held to a
 * carrier driven at V by a bushing (lateral 3e5 N/m, yaw 5e5 N·m/rad), a
 * 100 kN body load on the frame. Growth rate of the leading wheelset's
 * lateral oscillation. The wheelsets' spin inertia is a light 20 kg·m²: the
 * linear model below has no gyroscopic terms, and with a real 100 kg·m² the
 * yaw–roll coupling of the spinning axle raises the run's critical speed by
 * another 2 % (102.0 m/s). */
static double bogie_growth_rate(double V)
{
    char text[4096];
    int k = snprintf(text, sizeof text,
                     "gravity 0 0 -9.81\n"
                     "ground\n  marker track\n  marker rail at 0 0 0.7 z 1 0 0\nend\n"
                     "body carrier\n  mass 10\n  position 0 0 0.7\n  velocity %.17g 0 0\n  marker m z 1 0 0\n  marker c\nend\n"
                     "body frame\n  mass 2600\n  inertia 1700 1600 3000\n  position 0 0.0005 0.7\n  velocity %.17g 0 0\n  marker c\n"
                     "  marker b1l at 1.25 1 -0.281369\n  marker b1r at 1.25 -1 -0.281369\n"
                     "  marker b2l at -1.25 1 -0.281369\n  marker b2r at -1.25 -1 -0.281369\nend\n"
                     "joint slide prismatic carrier.m ground.rail\n"
                     "driver run slide rate %.17g\n"
                     "force sec bushing frame.c carrier.c kx 1e7 ky 3e5 ktz 5e5 cx 1e4\n"
                     "force body actuator frame.c ground.track fz -100000\n",
                     V, V, V);
    for (int w = 1; w <= 2; w++)
        k += snprintf(text + k, sizeof text - (size_t)k,
                      "body ws%d\n  mass 1500\n  inertia 800 20 800\n  position %g %g 0.449947\n  velocity %.17g 0 0\n  omega 0 %.17g 0\n"
                      "  marker c\n  marker l at 0 1 0\n  marker r at 0 -1 0\nend\n"
                      "force p%dl bushing ws%d.l frame.b%dl kx 5e6 ky 2.5e6 kz 1e6 cz 1e4\n"
                      "force p%dr bushing ws%d.r frame.b%dr kx 5e6 ky 2.5e6 kz 1e6 cz 1e4\n"
                      "force w%d wheelrail ws%d.c ground.track radius 0.45 saturation 0\n",
                      w, w == 1 ? 1.25 : -1.25, w == 1 ? 0.001 : 0.0, V, V / 0.45, w, w, w, w, w, w, w, w);
    snprintf(text + k, sizeof text - (size_t)k, "solver method rk4 step 2e-4 until 2.5 every 20\n");
    static const char *const cols[] = {"time", "w1.y"};
    Rec r = run(text, cols, 2);
    double t0 = NAN, y0 = NAN, t1 = NAN, y1 = NAN;
    for (int i = 1; i + 1 < r.n; i++) /* positive peaks after the first 0.5 s */
        if (r.out[0][i] > 0.5 && r.out[1][i] > 0 && r.out[1][i] > r.out[1][i - 1] && r.out[1][i] >= r.out[1][i + 1]) {
            if (isnan(t0)) { t0 = r.out[0][i]; y0 = r.out[1][i]; }
            t1 = r.out[0][i];
            y1 = r.out[1][i];
        }
    rec_free(&r);
    return log(y1 / y0) / (t1 - t0);
}

/* The bogie's linear model (the two-axle bogie of Wickens 2003 and Knothe &
 * Stichel 2017: each wheelset as in critical_speed_linear, the primary
 * springs between wheelset and frame, the frame's lateral and yaw springs to
 * the carrier): the largest real part of the eigenvalues of its 12 x 12
 * first-order system at speed V. */
static double bogie_max_real(double V, int roll)
{
    double m = 1500, Iw = 800, mb = 2600, Ib = 3000, f = 1e7, r0 = 0.45, b = 0.75, lam = 0.05, Rc = 0.3, a = 1.25;
    double ky = 5e6, kpp = 2 * 5e6 * 1.0, ky2 = 3e5, kp2 = 5e5, W = (100000 + 2600 * 9.81) / 2 + 1500 * 9.81;
    double le = roll ? lam / (1 - lam * (r0 + Rc) / b) : lam, kap = roll ? r0 * le / b : 0, Kg = roll ? W * le / b : 0;
    double K[6][6] = {{0}}, C[6][6] = {{0}}, M[6] = {m, Iw, m, Iw, mb, Ib}, A[144] = {0}, wr[12], wi[12];
    for (int i = 0; i < 2; i++) {
        int y = 2 * i, p = 2 * i + 1, yb = 4, pb = 5;
        double x = i ? -a : a;
        C[y][y] += 2 * f * (1 + kap) / V;
        K[y][p] -= 2 * f;
        K[y][y] += Kg + ky;
        K[y][yb] -= ky;
        K[y][pb] -= ky * x;
        C[p][p] += 2 * f * b * b / V;
        K[p][y] += 2 * f * b * le / r0;
        K[p][p] += kpp;
        K[p][pb] -= kpp;
        K[yb][y] -= ky;
        K[yb][yb] += ky;
        K[yb][pb] += ky * x;
        K[pb][y] -= ky * x;
        K[pb][yb] += ky * x;
        K[pb][pb] += ky * x * x + kpp;
        K[pb][p] -= kpp;
    }
    K[4][4] += ky2;
    K[5][5] += kp2;
    for (int r = 0; r < 6; r++) { /* x' = [v; −M⁻¹(K q + C v)], row-major */
        A[12 * r + 6 + r] = 1;
        for (int c = 0; c < 6; c++) {
            A[12 * (6 + r) + c] = -K[r][c] / M[r];
            A[12 * (6 + r) + 6 + c] = -C[r][c] / M[r];
        }
    }
    if (LAPACKE_dgeev(LAPACK_ROW_MAJOR, 'N', 'N', 12, A, 12, wr, wi, NULL, 12, NULL, 12)) return NAN;
    double mx = -INFINITY;
    for (int i = 0; i < 12; i++) mx = fmax(mx, wr[i]);
    return mx;
}

static double bogie_critical_linear(int roll)
{
    double lo = 1, hi = 300;
    for (int it = 0; it < 60; it++) {
        double V = 0.5 * (lo + hi);
        if (bogie_max_real(V, roll) < 0) lo = V;
        else hi = V;
    }
    return lo;
}

static void test_bogie(void)
{
    double Vt = bogie_critical_linear(0), Vr = bogie_critical_linear(1);
    printf("     bogie: linear critical speed %.3f m/s (textbook), %.3f m/s (with the roll terms)\n", Vt, Vr);
    double V1 = 0.95 * Vt, V2 = 1.1 * Vt, s1 = bogie_growth_rate(V1), s2 = bogie_growth_rate(V2);
    printf("     bogie: growth rates %.4f 1/s at %.2f m/s, %.4f 1/s at %.2f m/s\n", s1, V1, s2, V2);
    CHECK(s1 < 0 && s2 > 0, "the bogie's hunting decays at 0.9 Vc (%.3f 1/s) and grows at 1.1 Vc (%.3f 1/s)", s1, s2);
    double Vc = V1 + (V2 - V1) * -s1 / (s2 - s1);
    CHECK_REL(Vc, Vt, 0.05, "critical speed of the bogie against its textbook linear model [m/s]");
    CHECK_REL(Vc, Vr, 0.05, "critical speed of the bogie against the linear model with the roll terms [m/s]");
}

/* Bad settings are refused in words that name the element and the setting. */
static void test_errors(void)
{
    static const struct {
        const char *tail, *want;
    } bad[] = {{"conicity 1.5", "conicity must be in [0, 1)"},
               {"radius -1", "wheel radius must be positive"},
               {"crown 0.01", "crown > head > corner"},
               {"wheel nosuch", "no table 'nosuch'"},
               {"psd medium", "psd is none, low or high"},
               {"curve_radius 1", "curve_radius must be 0"},
               {"cant 2", "cant must be smaller"},
               {"psd low lmin 5 lmax 2", "0 < lmin < lmax"},
               {"vmin 0", "vmin"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "ground\n  marker track\nend\nbody ws\n  marker c\nend\nforce wr wheelrail ws.c ground.track %s\n", bad[i].tail);
        MtError err = {0};
        MtModel *m = mt_model_parse(text, "<test>", &err);
        if (m && !mt_model_validate(m, &err)) {
            mt_model_free(m);
            m = NULL;
            snprintf(err.msg, sizeof err.msg, "accepted");
        } else if (m)
            mt_model_free(m);
        CHECK(strstr(err.msg, bad[i].want) && strstr(err.msg, "'wr'"), "'%s' refused: %s", bad[i].tail, err.msg);
        printf("     '%s': %s\n", bad[i].tail, err.msg);
    }
}

int main(void)
{
    test_errors();
    test_irregularity();
    test_flange();
    test_klingel();
    test_curve();
    test_critical_speed();
    test_bogie();
    return mt_test_done();
}
