/* Sensors on a slider-crank driven at constant speed, against closed-form
 * kinematics: slider velocity, crank-pin acceleration (r ω², in the crank's
 * axes), rod angular velocity, a constant distance, reactions split into
 * constraint and driver parts, energies, an expression sensor, and a force
 * expression that reads a kinematic sensor. */
#include <string.h>

#include "mt_output.h"
#include "mt_test.h"

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
    "sensor twice expr {2 * crank.wz + 0 * e_all}\n";

typedef struct { MtCsv *csv; double *v; int idx[16]; double err[16]; int n; } Acc;

static const char *const names[] = {"vslider", "apin", "apin_mag", "wrod", "span", "pin_fx", "crank_pin.Fx", "motor",
                                    "spin.effort", "motor_all", "e_all", "system.energy", "e_crank", "twice", NULL};

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
    a->n++;
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
