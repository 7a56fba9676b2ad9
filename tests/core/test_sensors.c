/* Sensors on a slider-crank driven at constant speed, against closed-form
 * kinematics: slider velocity, crank-pin acceleration (r ω², in the crank's
 * axes), rod angular velocity, a constant distance, reactions split into
 * constraint and driver parts, energies, an expression sensor, and a force
 * expression that reads a kinematic sensor. Load sensors of springs and
 * force elements (force, deflection, power, elastic energy) and elastic
 * energies per body and of the system against the closed forms of the
 * state; an event reading a reaction sensor. */
#include <string.h>

#include "motus/results.h"
#include "mt_test.h"
#include "motus/units.h"

static const double r = 0.1, l = 0.3, w = 10;

static const char *model =
    "gravity 0 -9.81 0\n"
    "solver method rk4 step 1e-3 until 0.6 correct both\n"
    "ground\n marker o\n marker rail z 1 0 0\nend\n"
    "body crank\n mass 1\n com 0.05 0 0\n inertia 1e-4 8.4e-4 8.4e-4\n marker o\n marker pin at 0.1 0 0\nend\n"
    "body rod\n mass 2\n com 0.15 0 0\n inertia 1e-4 0.015 0.015\n position 0.1 0 0\n marker a\n marker b at 0.3 0 0\nend\n"
    "body slider\n mass 0.5\n inertia 1e-4 1e-4 1e-4\n position 0.4 0 0\n marker b\n marker s z 1 0 0\nend\n"
    "joint pivot revolute crank.o ground.o\njoint crank_pin revolute rod.a crank.pin\n"
    "joint wrist revolute slider.b rod.b\njoint slide prismatic slider.s ground.rail\n"
    "driver spin pivot rate 10\n"
    "sensor vslider velocity slider.s component x\n"
    "sensor apin acceleration crank.pin frame crank.o component x\n"
    "sensor apin_mag acceleration crank.pin\n"
    "sensor wrod angvel rod.a component z\n"
    "sensor span distance crank.pin slider.b\n"
    "sensor pin_fx reaction crank_pin part constraint component fx\n"
    "sensor motor reaction pivot part driver component tz\n"
    "sensor motor_all reaction pivot part total component tz\n"
    "sensor e_all energy system total\n"
    "sensor e_crank energy crank kinetic\n"
    "sensor twice expr {2 * crank.wz + 0 * e_all}\n"
    "sensor rod_az angle rod.a component z\n"
    "sensor rod_rel angle rod.a rel crank.pin component mag\n"
    "sensor wrist_rate joint wrist.angle component rate\n"
    "sensor slide_x joint slide\n";

typedef struct { MtCsv *csv; double *v; int idx[20]; double err[20]; int n; } Acc;

static const char *const names[] = {"vslider", "apin", "apin_mag", "wrod", "span", "pin_fx", "crank_pin.Fx", "motor",
                                    "spin.effort", "motor_all", "e_all", "system.energy", "e_crank", "twice", "rod_az", "rod_rel",
                                    "wrist_rate", "slide_x", NULL};

static int cb(void *u, MtState *st)
{
    Acc *a = u;
    mt_frame_values(a->csv, st, a->v);
    double t = st->t, ph = w * t;
    double sb = r * sin(ph) / l, cb_ = sqrt(1 - sb * sb), bd = r * w * cos(ph) / (l * cb_);
    double xBd = -r * w * sin(ph) - l * sb * bd;
    double *v = a->v;
    int *ix = a->idx;
    a->err[0] = fmax(a->err[0], fabs(v[ix[0]] - xBd));
    a->err[1] = fmax(a->err[1], fabs(v[ix[1]] + r * w * w)); /* centripetal: −r ω² along the crank's x */
    a->err[2] = fmax(a->err[2], fabs(v[ix[2]] - r * w * w));
    a->err[3] = fmax(a->err[3], fabs(v[ix[3]] + bd));        /* rod angle is −β */
    a->err[4] = fmax(a->err[4], fabs(v[ix[4]] - l));
    a->err[5] = fmax(a->err[5], fabs(v[ix[5]] - v[ix[6]]));
    a->err[6] = fmax(a->err[6], fabs(v[ix[7]] - v[ix[8]]));
    a->err[7] = fmax(a->err[7], fabs(v[ix[9]] - v[ix[7]] - 0)); /* pivot transmits no moment about z: total = driver */
    a->err[8] = fmax(a->err[8], fabs(v[ix[10]] - v[ix[11]]));
    double wz = w, Ic = 8.4e-4 + 1 * 0.05 * 0.05;
    a->err[9] = fmax(a->err[9], fabs(v[ix[12]] - 0.5 * Ic * wz * wz));
    a->err[10] = fmax(a->err[10], fabs(v[ix[13]] - 2 * w));
    double beta = asin(sb), rel = fmod(ph + beta, 2 * M_PI); /* the rod turned by −β, the crank by ωt */
    if (rel > M_PI) rel = 2 * M_PI - rel;
    a->err[11] = fmax(a->err[11], fabs(v[ix[14]] + beta));
    a->err[12] = fmax(a->err[12], fabs(v[ix[15]] - rel));
    a->err[13] = fmax(a->err[13], fabs(v[ix[16]] - bd)); /* the slider relative to the rod: +β */
    a->err[14] = fmax(a->err[14], fabs(v[ix[17]] - (r * cos(ph) + l * cb_)));
    a->n++;
    return 0;
}

/* Largest differences of the load sensors from the closed forms, over the frames. */
typedef struct {
    MtCsv *csv;
    double *v;
    const int *ix;
    double emax[8], e0, drift;
} Loads;

static int loads_cb(void *u, MtState *st)
{
    Loads *L = u;
    double *v = L->v, *emax = L->emax;
    const int *ix = L->ix;
    mt_frame_values(L->csv, st, v);
    double xa = v[ix[0]], va = v[ix[1]], x1 = xa - 0.1, x2 = v[ix[2]] - xa - 0.12, th = v[ix[3]] - 0.05;
    double E1 = 0.5 * 800 * x1 * x1, E2 = 0.5 * 300 * x2 * x2, Et = 0.5 * 20 * th * th;
    emax[0] = fmax(emax[0], fabs(v[ix[4]] + 800 * x1)); /* tension pulls a back to the origin */
    emax[1] = fmax(emax[1], fabs(v[ix[5]] - x1));
    emax[2] = fmax(emax[2], fabs(v[ix[6]] + 800 * x1 * va));
    emax[3] = fmax(emax[3], fabs(v[ix[7]] - E1));
    emax[4] = fmax(emax[4], fabs(v[ix[8]] + 20 * th) + fabs(v[ix[9]] - Et));
    emax[5] = fmax(emax[5], fabs(v[ix[10]] - (E1 + E2)) + fabs(v[ix[11]] - E2) + fabs(v[ix[14]] - Et));
    emax[6] = fmax(emax[6], fabs(v[ix[12]] - (E1 + E2 + Et)));
    double E = v[ix[12]] + v[ix[13]];
    if (isnan(L->e0)) L->e0 = E;
    L->drift = fmax(L->drift, fabs(E - L->e0));
    return 0;
}

int main(void)
{
    MtSystem *s = mt_test_system(model);
    MtError err = {0};
    Acc a = {0};
    a.csv = mt_csv_new(s, NULL, &err);
    CHECK(a.csv != NULL, "columns: %s", err.msg);
    if (!a.csv) return mt_test_done();
    for (int k = 0; names[k]; k++) {
        a.idx[k] = -1;
        for (int c = 0; c < mt_csv_ncols(a.csv); c++)
            if (!strcmp(mt_csv_colname(a.csv, c), names[k])) a.idx[k] = c;
        CHECK(a.idx[k] >= 0, "result column %s", names[k]);
    }
    a.v = malloc(sizeof(double) * (size_t)mt_csv_ncols(a.csv));
    MtState *st = mt_test_run(s, cb, &a, NULL);
    CHECK_ABS(a.err[0], 0, 1e-9, "velocity sensor: slider speed vs closed form [m/s]");
    CHECK_ABS(a.err[1], 0, 1e-8, "acceleration sensor in the crank's axes: -r w^2 [m/s^2]");
    CHECK_ABS(a.err[2], 0, 1e-8, "acceleration magnitude r w^2 [m/s^2]");
    CHECK_ABS(a.err[3], 0, 1e-9, "angular velocity of the rod vs closed form [rad/s]");
    CHECK_ABS(a.err[4], 0, 1e-12, "distance crank pin to wrist stays the rod length [m]");
    CHECK_ABS(a.err[5], 0, 1e-12, "reaction sensor (constraint part) equals the joint's result column [N]");
    CHECK_ABS(a.err[6], 0, 1e-12, "reaction sensor (driver part) equals the driver effort [N m]");
    CHECK_ABS(a.err[7], 0, 1e-9, "total moment about the pivot axis is the motor's alone [N m]");
    CHECK_ABS(a.err[8], 0, 1e-12, "system energy sensor equals system.energy [J]");
    CHECK_ABS(a.err[9], 0, 1e-9, "crank kinetic energy 1/2 I_O w^2 [J]");
    CHECK_ABS(a.err[10], 0, 1e-9, "expression sensor 2*crank.wz [rad/s]");
    CHECK_ABS(a.err[11], 0, 1e-9, "angle sensor: the rod's angle about z, -asin(r sin(wt) / l) [rad]");
    CHECK_ABS(a.err[12], 0, 1e-9, "angle sensor: whole rotation of the rod relative to the crank, wt + beta (mod 2 pi) [rad]");
    CHECK_ABS(a.err[13], 0, 1e-8, "joint sensor: rate of the wrist angle, d(beta)/dt [rad/s]");
    CHECK_ABS(a.err[14], 0, 1e-9, "joint sensor: slider displacement r cos(wt) + l cos(beta) [m]");
    /* the quantity each sensor measures (the plots' units), as the checks above state them */
    static const struct {
        const char *name;
        int dim;
    } dims[] = {{"vslider", MT_DIM_VELOCITY}, {"apin", MT_DIM_ACCEL},      {"wrod", MT_DIM_ANGVEL},
                {"span", MT_DIM_LENGTH},      {"pin_fx", MT_DIM_FORCE},    {"motor", MT_DIM_TORQUE},
                {"e_all", MT_DIM_ENERGY},     {"twice", -1},               {"rod_az", MT_DIM_ANGLE},
                {"wrist_rate", MT_DIM_ANGVEL}, {"slide_x", MT_DIM_LENGTH}};
    for (size_t i = 0; i < sizeof dims / sizeof *dims; i++) {
        int k = mt_model_find_sensor(s->model, dims[i].name);
        int d = k >= 0 ? mt_sensor_dim(s->model, &s->model->sensor[k]) : -2;
        CHECK(d == dims[i].dim, "sensor %s measures %s, not %s", dims[i].name, mt_dim_name((MtDim)dims[i].dim),
              mt_dim_name((MtDim)d));
    }
    free(a.v);
    mt_csv_free(a.csv);
    mt_state_free(st);
    mt_system_free(s);

    /* a force expression reading a kinematic sensor: a spring made by hand */
    s = mt_test_system("solver method dp54 step 1e-3 until 1 rtol 1e-11 atol 1e-13\n"
                       "ground\n marker o\n marker rail z 1 0 0\nend\n"
                       "body bob\n mass 0.5\n inertia 0.01 0.01 0.01\n position 0.05 0 0\n marker s z 1 0 0\nend\n"
                       "joint slide prismatic bob.s ground.rail\n"
                       "sensor gap position bob.s frame ground.rail component z\n"
                       "force hand actuator bob.s ground.rail fz {-200 * gap}\n");
    Acc b = {0};
    b.csv = mt_csv_new(s, NULL, &err);
    st = mt_test_run(s, NULL, NULL, NULL);
    double x = mt_joint_coordinate(st, st->q, 0);
    CHECK_ABS(x, 0.05 * cos(20.0), 1e-9, "actuator reading a position sensor behaves as a 200 N/m spring [m]");
    mt_csv_free(b.csv);
    mt_state_free(st);
    mt_system_free(s);

    /* load sensors and elastic energies: a slider on a spring to the ground (k1) and a second slider
     * hanging on it by a spring (k2), a torsion spring on a rotor. At every frame: the sensors equal
     * the closed forms of the state (1/2 k x^2, F = -k x, power -k x v), per-body elastic energy
     * counts the springs touching the body, and kinetic + elastic energy is conserved. */
    s = mt_test_system("solver method dp54 step 1e-2 until 1 rtol 1e-12 atol 1e-14\n"
                       "ground\n marker o\n marker rail z 1 0 0\nend\n"
                       "body a\n mass 2\n inertia 0.01 0.01 0.01\n position 0.15 0 0\n marker s z 1 0 0\nend\n"
                       "body b\n mass 1\n inertia 0.01 0.01 0.01\n position 0.3 0 0\n velocity 0.2 0 0\n marker s z 1 0 0\nend\n"
                       "body rotor\n mass 1\n inertia 0.03 0.03 0.05\n position 1 0 0\n orientation axis 0 0 1 0.2\n marker c\nend\n"
                       "joint ja prismatic a.s ground.rail\njoint jb prismatic b.s ground.rail\n"
                       "joint pin revolute rotor.c ground.o\n"
                       "spring k1 a.s ground.o k 800 length 0.1\nspring k2 b.s a.s k 300 length 0.12\n"
                       "force tor torsion pin k 20 angle0 0.05\n"
                       "sensor f1 force k1 component fx\nsensor d1 force k1 component defl\nsensor p1 force k1 component power\n"
                       "sensor e1 force k1 component energy\nsensor tt force tor component tz\nsensor et force tor component energy\n"
                       "sensor ea energy a elastic\nsensor eb energy b elastic\nsensor es energy system elastic\n"
                       "sensor ek energy system kinetic\nsensor er energy rotor elastic\n");
    {
        static const char *const cols[] = {"a.x", "a.vx", "b.x", "pin.angle", "f1", "d1", "p1", "e1", "tt", "et", "ea", "eb",
                                           "es", "ek", "er", NULL};
        MtCsv *c = mt_csv_new(s, NULL, &err);
        int ix[16];
        for (int k = 0; cols[k]; k++) {
            ix[k] = -1;
            for (int q = 0; q < mt_csv_ncols(c); q++)
                if (!strcmp(mt_csv_colname(c, q), cols[k])) ix[k] = q;
            CHECK(ix[k] >= 0, "result column %s", cols[k]);
        }
        Loads L = {c, malloc(sizeof(double) * (size_t)mt_csv_ncols(c)), ix, {0}, NAN, 0};
        MtState *sx = mt_test_run(s, loads_cb, &L, NULL);
        double *emax = L.emax, drift = L.drift;
        CHECK_ABS(emax[0], 0, 1e-9, "force sensor: spring force on a, -k1 x [N]");
        CHECK_ABS(emax[1], 0, 1e-12, "force sensor: spring deflection L - L0 [m]");
        CHECK_ABS(emax[2], 0, 1e-9, "force sensor: power delivered -k1 x v [W]");
        CHECK_ABS(emax[3], 0, 1e-12, "force sensor: elastic energy 1/2 k1 x^2 [J]");
        CHECK_ABS(emax[4], 0, 1e-9, "force sensor: torsion spring moment -k th and energy 1/2 k th^2");
        CHECK_ABS(emax[5], 0, 1e-12, "per-body elastic energy: a holds k1 + k2, b holds k2, rotor the torsion spring [J]");
        CHECK_ABS(emax[6], 0, 1e-12, "system elastic energy: all springs and force elements [J]");
        CHECK_ABS(drift, 0, 1e-9, "kinetic + elastic energy conserved over 1 s [J]");
        free(L.v);
        mt_state_free(sx);
        mt_csv_free(c);
    }
    mt_system_free(s);

    /* events read sensors of the solved state: a pendulum released horizontally pulls on its pin
     * with T = m g cos(th) (1 + 2 m l^2 / J_O) (th from the vertical; 3 m g cos(th) for a point
     * mass); the run stops when the reaction sensor passes 1.5 m g, near th = 60 deg */
    s = mt_test_system("gravity 0 -9.81 0\nsolver method dp54 step 1e-2 until 2 rtol 1e-12 atol 1e-14\n"
                       "ground\n marker o\nend\n"
                       "body bob\n mass 1\n com 0 -1 0\n inertia 1e-6 1e-6 1e-6\n orientation axis 0 0 1 90deg\n marker c\nend\n"
                       "joint pin revolute bob.c ground.o\n"
                       "sensor pull reaction pin part constraint component f\n"
                       "event half when {pull} crosses 14.715 rising do stop\n");
    st = mt_test_run(s, NULL, NULL, NULL);
    CHECK(st->efired[0], "the event on a reaction sensor fired (t = %.9g s)", st->etime[0]);
    /* with J_O = m l^2 + 1e-6: T = m g cos(th) (1 + 2 m l^2 / J_O) */
    CHECK_ABS(mt_joint_coordinate(st, st->q, 0), acos(1.5 / (1 + 2 / (1 + 1e-6))), 1e-9,
              "stopped where the pin's pull m g cos(th) (1 + 2 m l^2/J_O) = 1.5 m g (th about 60 deg) [rad]");
    mt_state_free(st);
    mt_system_free(s);

    /* reactions in a static structure against hand statics: a 1 m beam (2 kg) pinned to the wall at
     * A = (0, 0), propped at its end B = (1, 0) by a strut (1 kg) from C = (0, -1). Moments about A
     * give the prop's vertical pull B_y = m_b g / 2; moments of the strut about C, B_x = B_y + m_s g / 2;
     * then A = (-B_x, m_b g - B_y) on the beam, C = (B_x, B_y + m_s g) on the strut. (A planar loop in
     * 3D: three out-of-plane equations are redundant; the in-plane loads are determinate.) */
    s = mt_test_system("gravity 0 -9.81 0\nsolver method rk4 step 1e-3 until 0.1\n"
                       "ground\n marker a\n marker c at 0 -1 0\nend\n"
                       "body beam\n mass 2\n com 0.5 0 0\n inertia 0.01 0.2 0.2\n marker a\n marker b at 1 0 0\nend\n"
                       "body strut\n mass 1\n com 0.5 0.5 0\n inertia 0.1 0.1 0.2\n position 0 -1 0\n marker c\n marker b at 1 1 0\nend\n"
                       "joint ja revolute beam.a ground.a\njoint jb revolute strut.b beam.b\njoint jc revolute strut.c ground.c\n"
                       "sensor ax reaction ja part constraint component fx\nsensor ay reaction ja part constraint component fy\n"
                       "sensor bx reaction jb component fx\nsensor by reaction jb component fy\n"
                       "sensor cx reaction jc component fx\nsensor cy reaction jc component fy\n");
    {
        MtCsv *c = mt_csv_new(s, NULL, &err);
        double *v = malloc(sizeof(double) * (size_t)mt_csv_ncols(c));
        st = mt_test_run(s, NULL, NULL, NULL);
        mt_eval(st, st->t, st->q, st->u, &err);
        mt_frame_values(c, st, v);
        double g = 9.81, By = 2 * g / 2, Bx = By + 1 * g / 2;
        static const char *const nm[] = {"ax", "ay", "bx", "by", "cx", "cy"};
        const double want[] = {-Bx, 2 * g - By, -Bx, -By, Bx, By + 1 * g};
        for (int k = 0; k < 6; k++) {
            int col = -1;
            for (int q = 0; q < mt_csv_ncols(c); q++)
                if (!strcmp(mt_csv_colname(c, q), nm[k])) col = q;
            char what[96];
            snprintf(what, sizeof what, "static structure: reaction %s by hand statics (after 0.1 s at rest) [N]", nm[k]);
            CHECK_ABS(col >= 0 ? v[col] : NAN, want[k], 1e-9, what);
        }
        free(v);
        mt_csv_free(c);
        mt_state_free(st);
    }
    mt_system_free(s);

    MtModel *bad = mt_model_parse("sensor s1 expr {nosuch.x + 1}\n", "bad", &err);
    CHECK(bad != NULL, "sensor expressions are checked when results are set up, not when parsing");
    if (bad) {
        MtSystem *bs = mt_system_compile(bad, &err);
        MtCsv *c = bs ? mt_csv_new(bs, NULL, &err) : NULL;
        CHECK(!c && strstr(err.msg, "s1") && strstr(err.msg, "nosuch.x"), "unknown name in a sensor expression: %s", err.msg);
        mt_csv_free(c);
        mt_system_free(bs);
        mt_model_free(bad);
    }
    return mt_test_done();
}
