/* Force elements against closed form: torsion spring and bushing
 * oscillators (also with coupled 6 x 6 matrices), Coulomb friction on an
 * incline (regularised law: its creep; LuGre: stick and slip), stick–slip on
 * a belt against the closed-form phases, contact restitution for several e
 * and geometries and a box resting on a sphere, shock-strut static stroke,
 * actuator laws, drag terminal speed, a nonlinear spring curve, and a
 * rolling tyre with and without side slip. */
#include <string.h>

#include "mt_math.h"
#include "motus/results.h"
#include "mt_test.h"

typedef struct {
    MtCsv *csv;
    double *v;
    int col, col2;
    double first, last, min, max, last2, tcross, prev, tprev, vmax;
    int n, ncross;
} Rec;

static int rec_cb(void *u, MtState *st)
{
    Rec *r = u;
    mt_frame_values(r->csv, st, r->v);
    double x = r->v[r->col];
    if (r->n == 0) { r->first = r->min = r->max = x; }
    r->min = fmin(r->min, x);
    r->max = fmax(r->max, x);
    r->vmax = r->max;
    if (r->n > 0 && r->prev < 0 && x >= 0) { /* upward zero crossings, linear interpolation */
        double tc = r->tprev + (st->t - r->tprev) * (-r->prev) / (x - r->prev);
        if (r->ncross++ == 0) r->tcross = tc;
        else r->last2 = tc; /* period = (last2 − tcross) / (ncross − 1) */
    }
    r->prev = x;
    r->tprev = st->t;
    r->last = x;
    r->n++;
    return 0;
}

static Rec run(const char *text, const char *col)
{
    MtSystem *s = mt_test_system(text);
    MtError err = {0};
    Rec r = {0};
    r.csv = mt_csv_new(s, NULL, &err);
    r.col = -1;
    for (int k = 0; k < mt_csv_ncols(r.csv); k++)
        if (!strcmp(mt_csv_colname(r.csv, k), col)) r.col = k;
    CHECK(r.col >= 0, "column %s exists", col);
    r.v = malloc(sizeof(double) * (size_t)mt_csv_ncols(r.csv));
    MtState *st = mt_test_run(s, rec_cb, &r, NULL);
    free(r.v);
    mt_csv_free(r.csv);
    mt_state_free(st);
    mt_system_free(s);
    return r;
}

/* Whole trajectory of two result columns (every frame). */
typedef struct {
    MtTestRec rec;
    double *t, *a, *b;
    int n;
} Traj;

static Traj trajectory(const char *text, const char *ca, const char *cb)
{
    const char *cols[2] = {ca, cb};
    Traj r;
    r.rec = mt_test_record(text, cols, 2);
    r.t = r.rec.t, r.a = r.rec.out[0], r.b = r.rec.out[1], r.n = r.rec.n;
    return r;
}

static void free_traj(Traj *r) { mt_test_rec_free(&r->rec); }

#define GROUND "ground\n marker o\n marker rail z 1 0 0\n marker floor z 0 1 0 x 1 0 0\nend\n"

int main(void)
{
    char t[2048];
    /* torsion spring on a revolute joint: θ'' = −(k/J) θ, period 2π √(J/k) */
    Rec r = run("solver method dp54 step 1e-3 until 2 rtol 1e-11 atol 1e-13\n" GROUND
                "body rotor\n mass 1\n inertia 0.03 0.03 0.05\n orientation axis 0 0 1 -0.2\n marker c\nend\n"
                "joint pin revolute rotor.c ground.o\nforce spring1 torsion pin k 20\n",
                "pin.angle");
    CHECK_REL((r.last2 - r.tcross) / (r.ncross - 1), 2 * M_PI * sqrt(0.05 / 20), 1e-6, "torsion spring: period 2 pi sqrt(J/k) [s]");
    CHECK_REL(r.max, 0.2, 2e-5, "torsion spring: amplitude kept (sampled every 1 ms) [rad]");

    /* bushing: a free block on a 6-component bushing, displaced along x: x = x0 cos(ω t), ω = √(kx/m) */
    r = run("solver method dp54 step 1e-3 until 1 rtol 1e-11 atol 1e-13\n" GROUND
            "body block\n mass 2\n inertia 0.01 0.01 0.01\n position 0.01 0 0\n marker c\nend\n"
            "force mount bushing block.c ground.o kx 800 ky 1000 kz 1000 ktx 10 kty 10 ktz 10\n",
            "block.x");
    CHECK_ABS(r.last, 0.01 * cos(20.0), 1e-10, "bushing: x(1 s) = x0 cos(sqrt(kx/m) t) [m]");
    /* full matrices. Stiffness coupled in x-y (k12 = k21 = 600 N/m, kx = ky = 1000): modes along
     * (1, 1) at sqrt(1600/m) and (1, -1) at sqrt(400/m); released at (0.01, 0):
     * x = 0.005 (cos w1 t + cos w2 t), y = 0.005 (cos w1 t - cos w2 t) */
    {
        Traj tr = trajectory("solver method dp54 step 1e-3 until 1 rtol 1e-11 atol 1e-13\n" GROUND
                             "body block\n mass 2\n inertia 0.01 0.01 0.01\n position 0.01 0 0\n marker c\nend\n"
                             "force mount bushing block.c ground.o kx 1000 ky 1000 kz 1000 ktx 10 kty 10 ktz 10 k12 600 k21 600\n",
                             "block.x", "block.y");
        double w1 = sqrt(1600 / 2.0), w2 = sqrt(400 / 2.0);
        CHECK_ABS(tr.a[tr.n - 1], 0.005 * (cos(w1) + cos(w2)), 1e-10, "bushing, coupled stiffness: x(1 s) [m]");
        CHECK_ABS(tr.b[tr.n - 1], 0.005 * (cos(w1) - cos(w2)), 1e-10, "bushing, coupled stiffness: y(1 s) [m]");
        free_traj(&tr);
        /* coupled damping (cx = cy = 4, c12 = c21 = 2 N s/m), no stiffness: a velocity along (1, 1)
         * decays as e^{-(cx + c12) t / m} */
        tr = trajectory("solver method dp54 step 1e-3 until 1 rtol 1e-11 atol 1e-13\n" GROUND
                        "body block\n mass 2\n inertia 0.01 0.01 0.01\n velocity 0.1 0.1 0\n marker c\nend\n"
                        "force mount bushing block.c ground.o cx 4 cy 4 c12 2 c21 2\n",
                        "block.vx", "block.vy");
        CHECK_ABS(tr.a[tr.n - 1], 0.1 * exp(-3.0), 1e-11, "bushing, coupled damping: vx(1 s) = v0 e^{-(cx + c12) t/m} [m/s]");
        CHECK_ABS(tr.b[tr.n - 1], 0.1 * exp(-3.0), 1e-11, "bushing, coupled damping: vy(1 s) [m/s]");
        free_traj(&tr);
        /* translation-rotation coupling, the whole matrix given row by row (kmatrix): the block turned
         * by 0.01 rad about z feels Fx = -k16 * 0.01 and Tz = -k66 * 0.01 */
        tr = trajectory("solver method rk4 step 1e-3 until 0\n" GROUND
                        "body block\n mass 2\n inertia 0.01 0.01 0.01\n orientation axis 0 0 1 0.01\n marker c\nend\n"
                        "force mount bushing block.c ground.o kmatrix 1000 0 0 0 0 50  0 1000 0 0 0 0  0 0 1000 0 0 0"
                        "  0 0 0 10 0 0  0 0 0 0 10 0  50 0 0 0 0 20\n",
                        "mount.Fx", "mount.Tz");
        CHECK_ABS(tr.a[0], -50 * 0.01, 1e-12, "bushing, kmatrix: Fx = -k16 rz [N]");
        CHECK_ABS(tr.b[0], -20 * 0.01, 1e-12, "bushing, kmatrix: Tz = -k66 rz [N m]");
        free_traj(&tr);
    }

    /* friction on an incline (gravity tilted by a). The regularised law tanh(v/eps) cannot hold a
     * block exactly: below the breakaway force it creeps at v = eps·atanh(tan a / mu) — a closed
     * form of the model itself; above it the block slides with a = g (sin a − mu cos a). */
    for (int slide = 0; slide < 2; slide++) {
        double a = slide ? atan(0.5) : atan(0.2), mu = 0.3, eps = 1e-4;
        snprintf(t, sizeof t,
                 "gravity %.17g %.17g 0\nsolver method dp54 step 1e-2 until %g rtol 1e-8 atol 1e-12\n" GROUND
                 "body block\n mass 1\n inertia 0.01 0.01 0.01\n marker s z 1 0 0\nend\n"
                 "joint slide prismatic block.s ground.rail\n"
                 "force fr friction slide mu %g vs 1e-3 eps %g\n",
                 9.81 * sin(a), -9.81 * cos(a), slide ? 1.0 : 0.3, mu, eps);
        r = run(t, slide ? "slide.disp" : "block.vx");
        if (slide) CHECK_REL(r.last, 0.5 * 9.81 * (sin(a) - mu * cos(a)), 1e-4, "friction: sliding block travel in 1 s [m]");
        else CHECK_REL(r.last, eps * atanh(0.2 / mu), 1e-6, "friction: creep speed of a 'stuck' block, eps atanh(tan a / mu) [m/s]");
    }

    /* ball thrown at 2 m/s onto the floor (no gravity): it leaves at e times that speed. The
     * Hunt-Crossley damping factor is solved for the restitution when the model is compiled, so e
     * is reproduced at any value; kept as the dropped ball's check with gravity too */
    for (int c = 0; c < 4; c++) {
        static const double es[] = {0.9, 0.5, 0.2, 0.9};
        snprintf(t, sizeof t,
                 "%ssolver method dp54 step 1e-4 until %g rtol 1e-11 atol 1e-13\n" GROUND
                 "body ball\n mass 0.1\n inertia 1e-5 1e-5 1e-5\n position 0 %g 0\n velocity 0 %g 0\n marker c\nend\n"
                 "force bounce contact ball.c ground.floor sphere-plane radius 0.05 k 1e7 exp 1.5 e %g\n",
                 c < 3 ? "" : "gravity 0 -9.81 0\n", c < 3 ? 0.05 : 0.35, c < 3 ? 0.06 : 0.25, c < 3 ? -2.0 : 0.0, es[c]);
        Traj tr = trajectory(t, "ball.vy", "bounce.defl");
        double vin = c < 3 ? 2 : sqrt(2 * 9.81 * 0.2), vout = NAN;
        int touched = 0;
        for (int i = 0; i < tr.n; i++) {
            if (tr.b[i] > 0) touched = 1;
            else if (touched) { vout = tr.a[i]; break; }
        }
        char what[128];
        snprintf(what, sizeof what, c < 3 ? "contact: rebound / impact speed reproduces e = %g" :
                                            "contact: a ball dropped 0.2 m (gravity acting during the contact), e = %g", es[c]);
        CHECK_REL(vout / vin, es[c], c < 3 ? 1e-5 : 2e-3, what);
        free_traj(&tr);
    }

    /* a point thrown at a fixed sphere leaves it at e times its speed too (point-sphere) */
    {
        Traj tr = trajectory("solver method dp54 step 1e-4 until 0.06 rtol 1e-11 atol 1e-13\n" GROUND
                             "body p\n mass 0.1\n inertia 1e-5 1e-5 1e-5\n position 0 0.55 0\n velocity 0 -2 0\n marker c\nend\n"
                             "force hit contact p.c ground.o point-sphere radius2 0.5 k 1e7 e 0.7\n",
                             "p.vy", "hit.defl");
        double vout = NAN;
        int touched = 0;
        for (int i = 0; i < tr.n; i++) {
            if (tr.b[i] > 0) touched = 1;
            else if (touched) { vout = tr.a[i]; break; }
        }
        CHECK_REL(vout / 2, 0.7, 1e-5, "contact point-sphere: rebound / impact speed reproduces e = 0.7");
        free_traj(&tr);
        /* a box (0.2 x 0.1 x 0.2 m, 1 kg) guided vertically settles on top of a fixed sphere (R = 0.5 m)
         * where the sphere presses its bottom face by k d^1.5 = m g (Hertz alone, e = 1; a linear
         * damper in parallel settles it) */
        tr = trajectory("gravity 0 -9.81 0\nsolver method dp54 step 1e-2 until 2 rtol 1e-10 atol 1e-13\n"
                        "ground\n marker o\n marker up z 0 1 0\nend\n"
                        "body box\n mass 1\n inertia 0.01 0.01 0.01\n position 0 0.55 0\n marker c\n marker g z 0 1 0\nend\n"
                        "joint guide prismatic box.g ground.up\n"
                        "force seat contact box.c ground.o box-sphere lx 0.2 ly 0.1 lz 0.2 radius2 0.5 k 1e6 e 1\n"
                        "spring visc box.g ground.up c 60\n",
                        "box.y", "seat.Fy");
        double d = pow(9.81 / 1e6, 1 / 1.5);
        CHECK_ABS(tr.a[tr.n - 1], 0.55 - d, 1e-9, "contact box-sphere: the box rests where k d^1.5 = m g [m]");
        CHECK_ABS(tr.b[tr.n - 1], 9.81, 1e-7, "contact box-sphere: it carries the weight [N]");
        free_traj(&tr);
    }

    /* shock strut under a 500 kg mass: p0 A (V0/(V0 − A s))^n − patm A = M g (a linear damper in
     * parallel settles it: quadratic orifice damping alone decays only like 1/t near rest) */
    {
        const double M = 500, A = 0.005, p0 = 1e6, V0 = 1e-3, n = 1.3, patm = 101325;
        double s_eq = V0 / A * (1 - pow(p0 * A / (M * 9.81 + patm * A), 1 / n));
        snprintf(t, sizeof t,
                 "gravity 0 -9.81 0\nsolver method dp54 step 1e-2 until 6 rtol 1e-10 atol 1e-12\n"
                 "ground\n marker top at 0 -1 0 z 0 1 0\nend\n"
                 "body mass\n mass %g\n inertia 10 10 10\n marker s z 0 1 0\nend\n"
                 "joint guide prismatic mass.s ground.top\n"
                 "force oleo strut mass.s ground.top area %g pressure %g volume %g n %g patm %g orifice 2e-5 cd 0.7 rho 850 stroke 0.15 length 1\n"
                 "spring visc mass.s ground.top c 8000\n",
                 M, A, p0, V0, n, patm);
        r = run(t, "oleo.defl");
        CHECK_REL(r.last, s_eq, 1e-5, "shock strut: static stroke under load [m]");
    }

    /* actuator: force 2t along the rail on 1 kg gives x = t^3/3 */
    r = run("solver method rk4 step 1e-3 until 1\n" GROUND
            "body cart\n mass 1\n inertia 0.01 0.01 0.01\n marker s z 1 0 0\nend\n"
            "joint slide prismatic cart.s ground.rail\nforce push actuator cart.s ground.rail fz {2*time}\n",
            "slide.disp");
    CHECK_ABS(r.last, 1.0 / 3, 1e-12, "actuator force 2t: x(1) = 1/3 [m]");
    /* actuator reading a kinematic channel: a PD law holding the cart at 0.1 m settles there */
    r = run("solver method dp54 step 1e-2 until 5 rtol 1e-10 atol 1e-12\n" GROUND
            "body cart\n mass 1\n inertia 0.01 0.01 0.01\n marker s z 1 0 0\nend\n"
            "joint slide prismatic cart.s ground.rail\n"
            "force pd actuator cart.s ground.rail fz {-400*(slide.disp - 0.1) - 40*slide.disp_rate}\n",
            "slide.disp");
    CHECK_ABS(r.last, 0.1, 1e-6, "actuator with a PD law on slide.disp settles at the set point [m]");

    /* drag: terminal speed sqrt(2 m g / (rho cd A)) */
    r = run("gravity 0 -9.81 0\nsolver method dp54 step 0.1 until 30 rtol 1e-10 atol 1e-12\n" GROUND
            "body drop\n mass 0.01\n inertia 1e-6 1e-6 1e-6\n marker c\nend\n"
            "force air drag drop.c rho 1.225 cd 0.47 area 0.002\n",
            "drop.vy");
    CHECK_REL(-r.last, sqrt(2 * 0.01 * 9.81 / (1.225 * 0.47 * 0.002)), 1e-6, "drag: terminal speed [m/s]");

    /* spring curve {200*x} behaves as a linear 200 N/m spring: period 2π √(m/k) */
    r = run("solver method dp54 step 1e-3 until 2 rtol 1e-11 atol 1e-13\n" GROUND
            "body bob\n mass 0.5\n inertia 0.01 0.01 0.01\n position 0.05 0 0\n marker s z 1 0 0\nend\n"
            "joint slide prismatic bob.s ground.rail\nspring sp bob.s ground.o length 0.1 curve {200*x}\n",
            "sp.force");
    CHECK_REL((r.last2 - r.tcross) / (r.ncross - 1), 2 * M_PI * sqrt(0.5 / 200), 1e-6, "spring curve: period of a 200 N/m curve [s]");

    /* mass on a spring–damper: x0 e^{−ζωt} (cos ω_d t + ζ/√(1−ζ²) sin ω_d t), ω = √(k/m), ζ = c/(2√(km)) */
    r = run("solver method dp54 step 1e-3 until 1 rtol 1e-11 atol 1e-13\n" GROUND
            "body m\n mass 2\n inertia 0.01 0.01 0.01\n position 0.05 0 0\n marker s z 1 0 0\nend\n"
            "joint slide prismatic m.s ground.rail\nspring k m.s ground.o k 800 c 8 length 0\n",
            "slide.disp");
    {
        double w = 20, z = 8 / (2 * sqrt(800 * 2.0)), wd = w * sqrt(1 - z * z);
        CHECK_ABS(r.last, 0.05 * exp(-z * w) * (cos(wd) + z / sqrt(1 - z * z) * sin(wd)), 1e-10,
                  "mass-spring-damper: damped free decay at t = 1 s [m]");
    }

    /* accelerometer on an arm spun up at constant angular acceleration α: radial −ω²r, tangential α r */
    {
        MtSystem *s = mt_test_system("solver method rk4 step 1e-3 until 1 correct both\n" GROUND
                                     "body arm\n mass 1\n com 0.2 0 0\n inertia 1e-3 0.02 0.02\n marker c\n marker tip at 0.3 0 0\nend\n"
                                     "joint pin revolute arm.c ground.o\ndriver spin pin poly 0 0 1.5\n"
                                     "sensor ar acceleration arm.tip frame arm.c component x\n"
                                     "sensor at acceleration arm.tip frame arm.c component y\n");
        MtError err = {0};
        Rec q = {0};
        q.csv = mt_csv_new(s, NULL, &err);
        q.v = malloc(sizeof(double) * (size_t)mt_csv_ncols(q.csv));
        for (int k = 0; k < mt_csv_ncols(q.csv); k++)
            if (!strcmp(mt_csv_colname(q.csv, k), "ar")) q.col = k;
        MtState *st = mt_test_run(s, rec_cb, &q, NULL);
        double ar = q.v[q.col], at = q.v[q.col + 1], wv = 3.0; /* ω = α t = 3 rad/s at t = 1 */
        CHECK_ABS(ar, -wv * wv * 0.3, 1e-9, "accelerometer: radial reading -w^2 r on the arm [m/s^2]");
        CHECK_ABS(at, 3.0 * 0.3, 1e-9, "accelerometer: tangential reading alpha r [m/s^2]");
        free(q.v);
        mt_csv_free(q.csv);
        mt_state_free(st);
        mt_system_free(s);
    }

    /* LuGre friction on the incline: below the friction angle the bristles hold the block (it moves
     * only while they deflect, by about the load over sigma0, then stays put); above it, the block
     * slides with a = g (sin a − mu cos a) */
    for (int slide = 0; slide < 2; slide++) {
        double a = slide ? atan(0.5) : atan(0.2), mu = 0.3, s0 = 1e5, load = 9.81 * sin(a);
        snprintf(t, sizeof t,
                 "gravity %.17g %.17g 0\nsolver method dp54 step 1e-2 until 3 rtol 1e-9 atol 1e-12\n" GROUND
                 "body block\n mass 1\n inertia 0.01 0.01 0.01\n marker s z 1 0 0\nend\n"
                 "joint slide prismatic block.s ground.rail\n"
                 "force fr friction slide mu %g vs 1e-3 sigma0 %g sigma1 632\n",
                 9.81 * sin(a), -9.81 * cos(a), mu, s0);
        Traj tr = trajectory(t, "slide.disp", "block.vx");
        if (slide) {
            double acc = 9.81 * (sin(a) - mu * cos(a));
            CHECK_REL((tr.b[300] - tr.b[100]) / 2, acc, 1e-6, "LuGre: sliding block's acceleration between 1 s and 3 s [m/s^2]");
        } else {
            double xmax = 0;
            for (int i = 0; i < tr.n; i++) xmax = fmax(xmax, fabs(tr.a[i]));
            printf("  LuGre stick: largest displacement %.4g m = %.3f load/sigma0\n", xmax, xmax * s0 / load);
            CHECK(xmax < 2 * load / s0, "LuGre: a block below the friction angle moves less than 2 load/sigma0 = %.3g m (%.3g m)",
                  2 * load / s0, xmax);
            CHECK_ABS(tr.a[300] - tr.a[50], 0, 1e-9, "LuGre: it stays put from 0.5 s to 3 s [m]");
        }
        free_traj(&tr);
    }

    /* stick–slip: a block on a belt moving at v_b, held back by a spring k, with static and kinetic
     * friction mus N, mu N (LuGre). Closed form of the Coulomb law: it sticks until k x = mus N at
     * t1 = mus N / (k v_b); it slips on x = x_e + (x1 − x_e) cos w s + (v_b/w) sin w s about x_e = mu N / k,
     * w = √(k/m), until it moves with the belt again after w s = 2 (pi − atan(w (x1 − x_e) / v_b)), at
     * x = 2 x_e − x1; then it sticks for 2 (x1 − x_e) / v_b, and so on. */
    {
        const double vb = 0.1, k = 100, m = 1, N = 10, mus = 0.5, mu = 0.3;
        char tx[2048];
        snprintf(tx, sizeof tx,
                 "solver method dp54 step 1e-3 until 2.8 rtol 1e-10 atol 1e-13\n" GROUND
                 "body belt\n mass 10\n inertia 1 1 1\n velocity %g 0 0\n marker top z 1 0 0\nend\n"
                 "body block\n mass %g\n inertia 0.01 0.01 0.01\n velocity %g 0 0\n marker s z 1 0 0\nend\n"
                 "joint track prismatic belt.top ground.rail\ndriver run track vel const %g\n"
                 "joint onbelt prismatic block.s belt.top\n"
                 "force fr friction onbelt mu %g mus %g vs 0.003 preload %g sigma0 1e6 sigma1 2000\n"
                 "spring k block.s ground.o k %g length 0\n",
                 vb, m, vb, vb, mu, mus, N, k);
        Traj tr = trajectory(tx, "block.x", "onbelt.disp");
        double t1 = mus * N / (k * vb), x1 = vb * t1, xe = mu * N / k, w = sqrt(k / m);
        double slip = 2 * (M_PI - atan(w * (x1 - xe) / vb)) / w, stick = 2 * (x1 - xe) / vb;
        double xpeak = xe + sqrt((x1 - xe) * (x1 - xe) + (vb / w) * (vb / w));
        /* phases: the block slips while its speed relative to the belt exceeds 1 mm/s */
        double sw[8];
        int nsw = 0, slipping = 0;
        for (int i = 1; i < tr.n && nsw < 8; i++) {
            double v0 = (tr.b[i] - tr.b[i - 1]) / (tr.t[i] - tr.t[i - 1]);
            int sl = fabs(v0) > 1e-3;
            if (sl != slipping) { sw[nsw++] = 0.5 * (tr.t[i] + tr.t[i - 1]); slipping = sl; }
        }
        printf("  stick-slip: closed form: first slip at %.4f s, slips %.4f s, sticks %.4f s; peak %.5f m\n", t1, slip, stick, xpeak);
        printf("  simulated phase changes:");
        for (int i = 0; i < nsw; i++) printf(" %.4f", sw[i]);
        printf(" s\n");
        CHECK(nsw >= 6, "stick-slip: three slip phases seen (%d changes)", nsw);
        if (nsw >= 6) {
            CHECK_REL(sw[0], t1, 0.01, "stick-slip: end of the first stick phase mus N / (k v_b) [s]");
            for (int c = 0; c < 3; c++) CHECK_REL(sw[2 * c + 1] - sw[2 * c], slip, 0.01, "stick-slip: duration of a slip phase [s]");
            for (int c = 0; c < 2; c++) CHECK_REL(sw[2 * c + 2] - sw[2 * c + 1], stick, 0.02, "stick-slip: duration of a stick phase [s]");
        }
        double xmax = 0;
        for (int i = 0; i < tr.n; i++) xmax = fmax(xmax, tr.a[i]);
        CHECK_REL(xmax, xpeak, 0.01, "stick-slip: peak displacement of the slip phase [m]");
        free_traj(&tr);
    }

    /* tyre rolling straight keeps its speed; a side-slipping tyre gets F_y = −C_alpha · alpha at first contact */
    r = run("solver method dp54 step 1e-2 until 1 rtol 1e-10 atol 1e-12\n" GROUND
            "body wheel\n mass 10\n inertia 0.3 0.3 0.5\n position 0 0.3 0\n velocity 5 0 0\n omega 0 0 -16.666666666666668\n marker c\nend\n"
            "joint plane planar wheel.c ground.o\n"
            "force tyre1 tyre wheel.c ground.floor radius 0.3 kr 1e5 cr 100 cslip 1e4 calpha 1e4 mu 0.9\n",
            "wheel.vx");
    CHECK_REL(r.last, 5, 1e-6, "tyre: free rolling keeps its speed [m/s]");
    return mt_test_done();
}
