/* test_edit.c — core/edit/mt_edit*.c: a pendulum built from nothing by edits runs
 * with the period of the exact large-amplitude formula; fields are set from
 * numbers with units and from expressions, bad values are refused with the
 * entity and field named and the model left as it was; undo and redo walk
 * the states back and forth exactly; rename rewrites expressions; duplicate
 * and delete (with dependents explained and every index renumbered). */
#include <string.h>

#include "motus/edit.h"
#include "motus/edit_turn.h"
#include "mt_flexmodel.h"
#include "mt_test.h"

static const char *get(const MtEditor *e, MtEditKind k, int i, const char *field)
{
    static char buf[256];
    static MtError err;
    memset(&err, 0, sizeof err);
    if (mt_edit_get_field(mt_editor_model(e), k, i, field, buf, sizeof buf, &err)) return err.msg;
    return buf;
}

#define OK(call)                                                                 \
    do {                                                                         \
        MtError err_ = {0};                                                      \
        MtStatus rc_ = (call);                                                   \
        (void)err;                                                               \
        CHECK(rc_ == MT_OK, "%s failed: %s", #call, err_.msg);                   \
    } while (0)

/* x of the bob's centre of mass at every frame, to time its swings. */
typedef struct {
    double t[20000], x[20000];
    int n;
} Track;

static int track(void *user, MtState *st)
{
    Track *tr = user;
    if (tr->n < 20000) {
        tr->t[tr->n] = st->t;
        tr->x[tr->n] = st->q[0];
        tr->n++;
    }
    return 0;
}

/* Period from the first and last downward zero crossings of x (linear interpolation). */
static double period_of(const Track *tr)
{
    double first = NAN, last = NAN;
    int count = 0;
    for (int i = 1; i < tr->n; i++)
        if (tr->x[i - 1] > 0 && tr->x[i] <= 0) {
            double tc = tr->t[i - 1] + (tr->t[i] - tr->t[i - 1]) * tr->x[i - 1] / (tr->x[i - 1] - tr->x[i]);
            if (!count) first = tc;
            last = tc;
            count++;
        }
    return count > 1 ? (last - first) / (count - 1) : NAN;
}

static void test_pendulum_from_nothing(void)
{
    MtError err = {0};
    MtEditor *e = mt_editor_new(mt_edit_new_model());
    const MtModel *m = mt_editor_model(e);
    CHECK(m->nbody == 0 && m->gravity[1] == -9.81, "a new model has the ground only and gravity along -y");
    CHECK(!mt_editor_dirty(e) && !mt_editor_can_undo(e), "a new editor is clean");
    /* a steel sphere of radius 2 cm hanging 0.5 m below the pivot, swung out by 40 degrees */
    const double r = 0.02, L = 0.5, rho = 7850, th0 = 40 * M_PI / 180;
    MtBodyDef d;
    mt_body_def_default(&d);
    snprintf(d.name, sizeof d.name, "bob");
    d.shape = MT_SHAPE_SPHERE;
    d.size[0] = r;
    d.pos[0] = L * sin(th0);
    d.pos[1] = -L * cos(th0);
    d.density = rho;
    int b = -1;
    CHECK(mt_edit_add_body(e, &d, &b, &err) == MT_OK, "add body: %s", err.msg);
    m = mt_editor_model(e);
    double mass = rho * 4.0 / 3.0 * M_PI * r * r * r;
    CHECK_REL(m->body[b].mass, mass, 1e-12, "mass of the sphere from its density");
    CHECK_REL(m->body[b].inertia[0], 0.4 * mass * r * r, 1e-12, "Ixx of the sphere");
    double origin[3] = {0, 0, 0}, axis[3] = {0, 0, 1};
    int j = -1;
    CHECK(mt_edit_add_joint(e, "pin", MT_JOINT_REVOLUTE, b, MT_GROUND, origin, axis, &j, &err) == MT_OK, "add joint: %s",
          err.msg);
    m = mt_editor_model(e);
    const MtMarkerSpec *mi = &m->marker[m->joint[j].mi];
    CHECK_ABS(mi->pos[0], -L * sin(th0), 1e-15, "pivot marker x in the bob's axes");
    CHECK_ABS(mi->pos[1], L * cos(th0), 1e-15, "pivot marker y in the bob's axes");
    CHECK_ABS(mi->rot[8], 1, 1e-15, "marker z along the joint axis");
    CHECK(mt_editor_dirty(e), "edits make the model dirty");
    OK(mt_edit_set_field(e, MT_EDIT_SOLVER, 0, "method", "dp54", &err_));
    OK(mt_edit_set_field(e, MT_EDIT_SOLVER, 0, "rtol", "1e-11", &err_));
    OK(mt_edit_set_field(e, MT_EDIT_SOLVER, 0, "atol", "1e-13", &err_));
    OK(mt_edit_set_field(e, MT_EDIT_SOLVER, 0, "step", "2 ms", &err_));
    OK(mt_edit_set_field(e, MT_EDIT_SOLVER, 0, "until", "5", &err_));
    m = mt_editor_model(e);
    CHECK_ABS(m->solver.step, 0.002, 0, "step typed in ms");
    MtSystem *s = mt_system_compile(m, &err);
    if (s && mt_system_assemble(s, &err)) { mt_system_free(s); s = NULL; }
    CHECK(s != NULL, "compiles: %s", err.msg);
    if (!s) return;
    Track *tr = calloc(1, sizeof *tr);
    MtState *st = mt_test_run(s, track, tr, NULL);
    /* compound pendulum: T0 = 2π √(I_O / (m g L)), exact amplitude factor 1 / AGM(1, cos(θ0/2)) */
    double IO = 0.4 * mass * r * r + mass * L * L;
    double T = 2 * M_PI * sqrt(IO / (mass * 9.81 * L)) / mt_test_agm(1, cos(th0 / 2));
    CHECK_REL(period_of(tr), T, 1e-7, "period of the pendulum built by edits (exact formula)");
    free(tr);
    mt_state_free(st);
    mt_system_free(s);
    mt_editor_free(e);
}

/* The crank's centre of mass at the last frame. */
static int last_pos(void *user, MtState *st)
{
    double *p = user;
    p[0] = st->t, p[1] = st->q[0], p[2] = st->q[1];
    return 0;
}

/* A crank driven by a motor added by edits turns as its law says; the law's
 * settings carry the units of what they are; the law can be changed and the
 * change undone; joints that cannot take a driver or element are refused. */
static void test_drivers_and_joint_forces(void)
{
    MtError err = {0};
    MtEditor *e = mt_editor_new(mt_edit_new_model());
    MtBodyDef d;
    mt_body_def_default(&d);
    snprintf(d.name, sizeof d.name, "crank");
    d.size[0] = 0.1, d.size[1] = d.size[2] = 0.02;
    d.pos[0] = 0.05;
    int b = -1, j = -1, ball = -1, dv = -1;
    double origin[3] = {0, 0, 0}, axis[3] = {0, 0, 1}, far[3] = {0.1, 0, 0};
    OK(mt_edit_add_body(e, &d, &b, &err_));
    OK(mt_edit_add_joint(e, "pivot", MT_JOINT_REVOLUTE, b, MT_GROUND, origin, axis, &j, &err_));
    CHECK(mt_edit_add_driver(e, "", j, &dv, &err) == MT_OK, "a driver on the revolute joint: %s", err.msg);
    const MtModel *m = mt_editor_model(e);
    CHECK(dv == 0 && m->driver[0].joint == j && m->driver[0].coord == MT_COORD_ANGLE && !strcmp(m->driver[0].name, "driver1"),
          "the driver drives the joint's angle and is called driver1");
    CHECK(!strcmp(get(e, MT_EDIT_DRIVER, 0, "law"), "rate") && !strcmp(get(e, MT_EDIT_DRIVER, 0, "level"), "disp"),
          "a rate law on the position: law %s, level %s", get(e, MT_EDIT_DRIVER, 0, "law"), get(e, MT_EDIT_DRIVER, 0, "level"));
    MtFieldInfo fi[MT_FIELD_MAX];
    int nf = mt_edit_fields(m, MT_EDIT_DRIVER, 0, fi, MT_FIELD_MAX), rate = -1;
    for (int k = 0; k < nf; k++)
        if (!strcmp(fi[k].name, "coef.1")) rate = k;
    CHECK(rate >= 0 && fi[rate].dim == MT_DIM_ANGVEL && !strcmp(fi[rate].label, "Rate"), "the rate is an angular velocity");
    OK(mt_edit_set_field(e, MT_EDIT_DRIVER, 0, "coef.1", "30 deg/s", &err_));
    m = mt_editor_model(e);
    CHECK_ABS(m->driver[0].coef[1], M_PI / 6, 1e-15, "30 deg/s typed into the rate [rad/s]");
    OK(mt_edit_set_field(e, MT_EDIT_SOLVER, 0, "until", "2", &err_));
    MtSystem *s = mt_system_compile(mt_editor_model(e), &err);
    if (s && mt_system_assemble(s, &err)) { mt_system_free(s); s = NULL; }
    CHECK(s != NULL, "compiles: %s", err.msg);
    if (s) {
        double last[3] = {0};
        MtState *st = mt_test_run(s, last_pos, last, NULL);
        double th = M_PI / 6 * last[0];
        CHECK_ABS(last[0], 2, 1e-12, "ran to t = 2 s");
        CHECK_ABS(hypot(last[1] - 0.05 * cos(th), last[2] - 0.05 * sin(th)), 0, 1e-9,
                  "the crank's centre at 30 deg/s x 2 s = 60 deg [m]");
        mt_state_free(st);
        mt_system_free(s);
    }
    /* another law: started from the old one's value and rate; undone in one step */
    OK(mt_edit_set_field(e, MT_EDIT_DRIVER, 0, "law", "harmonic", &err_));
    m = mt_editor_model(e);
    CHECK(m->driver[0].kind == MT_DRIVER_HARMONIC && m->driver[0].ncoef == 4 && m->driver[0].coef[3] == 0 &&
              m->driver[0].coef[0] == 1,
          "harmonic: amplitude 1 rad about the old start value 0");
    CHECK(mt_editor_undo(e, &err) == MT_OK && mt_editor_model(e)->driver[0].kind == MT_DRIVER_RATE &&
              fabs(mt_editor_model(e)->driver[0].coef[1] - M_PI / 6) < 1e-15,
          "undo brings the rate law back with its 30 deg/s");
    CHECK(mt_edit_set_field(e, MT_EDIT_DRIVER, 0, "law", "table", &err) != MT_OK && strstr(err.msg, "model text"),
          "a table law is refused in a field: %s", err.msg);
    memset(&err, 0, sizeof err);
    /* an expression law: written out from the old law's start (0 rad, 30 deg/s), then typed */
    OK(mt_edit_set_field(e, MT_EDIT_DRIVER, 0, "law", "expr", &err_));
    char fx[MT_FIELD_TEXT_MAX];
    OK(mt_edit_get_field(mt_editor_model(e), MT_EDIT_DRIVER, 0, "expr", fx, sizeof fx, &err_));
    CHECK(mt_editor_model(e)->driver[0].kind == MT_DRIVER_EXPR && !strcmp(fx, "0 + 0.5235987755982988*t"),
          "expr: the rate law written out: '%s'", fx);
    OK(mt_edit_set_field(e, MT_EDIT_DRIVER, 0, "expr", "{pi/3*t}", &err_));
    CHECK(!strcmp(mt_editor_model(e)->driver[0].expr, "pi/3*t"), "expr typed in braces, kept bare: '%s'",
          mt_editor_model(e)->driver[0].expr);
    CHECK(mt_edit_set_field(e, MT_EDIT_DRIVER, 0, "expr", "crank.x*t", &err) != MT_OK && strstr(err.msg, "crank.x") &&
              strstr(mt_editor_model(e)->driver[0].expr, "pi/3"),
          "a law reading the state is refused, the model kept: %s", err.msg);
    memset(&err, 0, sizeof err);
    for (int k = 0; k < 3; k++) OK(mt_editor_undo(e, &err_));
    CHECK(mt_editor_model(e)->driver[0].kind == MT_DRIVER_RATE, "three undos bring the rate law back");
    CHECK(mt_edit_add_driver(e, "", j, NULL, &err) != MT_OK && strstr(err.msg, "driver1"),
          "a second driver on the joint refused, the first named: %s", err.msg);
    /* elements in joints */
    int f = -1;
    CHECK(mt_edit_add_joint_force(e, "", MT_FORCE_TORSION, j, &f, &err) == MT_OK, "a torsion spring in the pivot: %s",
          err.msg);
    m = mt_editor_model(e);
    CHECK(f >= 0 && m->force[f].joint == j && m->force[f].p[0] == 1, "the torsion spring acts in the pivot, k = 1 N·m/rad");
    OK(mt_edit_add_joint(e, "ball", MT_JOINT_SPHERICAL, b, MT_GROUND, far, axis, &ball, &err_));
    memset(&err, 0, sizeof err);
    CHECK(mt_edit_add_driver(e, "", ball, NULL, &err) != MT_OK && strstr(err.msg, "ball") && strstr(err.msg, "no coordinate"),
          "a spherical joint has no coordinate to drive: %s", err.msg);
    int before = mt_editor_model(e)->nforce;
    memset(&err, 0, sizeof err);
    CHECK(mt_edit_add_joint_force(e, "", MT_FORCE_FRICTION, ball, NULL, &err) != MT_OK && strstr(err.msg, "ball") &&
              mt_editor_model(e)->nforce == before,
          "friction refused in a spherical joint, the model unchanged: %s", err.msg);
    mt_editor_free(e);
}

static void test_fields(void)
{
    MtError err = {0};
    MtEditor *e = mt_editor_new(mt_edit_new_model());
    MtBodyDef d;
    mt_body_def_default(&d);
    snprintf(d.name, sizeof d.name, "arm");
    d.shape = MT_SHAPE_CYLINDER;
    d.size[0] = 0.05;
    d.size[1] = 0.4;
    d.density = 0;
    d.mass = 3;
    int b;
    CHECK(mt_edit_add_body(e, &d, &b, &err) == MT_OK, "add a cylinder of typed mass: %s", err.msg);
    const MtModel *m = mt_editor_model(e);
    CHECK_REL(m->body[b].inertia[2], 0.5 * 3 * 0.05 * 0.05, 1e-12, "Izz = m r^2 / 2 of the typed-mass cylinder");
    CHECK_REL(m->body[b].inertia[0], 3 * (3 * 0.05 * 0.05 + 0.4 * 0.4) / 12, 1e-12, "Ixx = m (3 r^2 + l^2) / 12");

    /* numbers with units; a bare number is in the display unit */
    OK(mt_edit_set_field(e, MT_EDIT_BODY, b, "position.1", "-500 mm", &err_));
    CHECK_ABS(mt_editor_model(e)->body[b].pos[1], -0.5, 1e-15, "position typed in mm");
    CHECK(!strcmp(get(e, MT_EDIT_BODY, b, "position.1"), "-0.5 m"), "shown in SI: '%s'", get(e, MT_EDIT_BODY, b, "position.1"));
    MtModel *u = mt_model_copy(mt_editor_model(e));
    mt_model_set_unit(u, "length", "mm", &err);
    CHECK(mt_editor_commit(e, u, "units", &err) == MT_OK, "display unit mm: %s", err.msg);
    CHECK(!strcmp(get(e, MT_EDIT_BODY, b, "position.1"), "-500 mm"), "shown in the display unit: '%s'",
          get(e, MT_EDIT_BODY, b, "position.1"));
    OK(mt_edit_set_field(e, MT_EDIT_BODY, b, "position.0", "250", &err_));
    CHECK_ABS(mt_editor_model(e)->body[b].pos[0], 0.25, 1e-15, "a bare number is in the display unit (mm)");
    OK(mt_edit_set_field(e, MT_EDIT_BODY, b, "omega.2", "60 rpm", &err_));
    CHECK_ABS(mt_editor_model(e)->body[b].omega[2], 2 * M_PI, 1e-12, "angular velocity typed in rpm");

    /* bad values: refused, the entity and field named, nothing changed */
    unsigned long state = mt_editor_state(e);
    char *before = mt_test_model_text(mt_editor_model(e));
    const char *bad[][2] = {{"mass", "-1"}, {"mass", "abc"}, {"mass", "2 mm"}, {"inertia.0", "1e9"}, {"position.2", "nan"},
                            {"mass", ""}, {"mass", "{1 +}"}, {"position.0", "L"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        MtError e2 = {0};
        MtStatus rc = mt_edit_set_field(e, MT_EDIT_BODY, b, bad[i][0], bad[i][1], &e2);
        CHECK(rc != MT_OK, "%s = '%s' refused", bad[i][0], bad[i][1]);
        printf("     message: %s\n", e2.msg);
        CHECK(strstr(e2.msg, "arm") != NULL, "the message names the body: %s", e2.msg);
        CHECK(strstr(e2.msg, bad[i][0][0] == 'm' ? "Mass" : bad[i][0][0] == 'i' ? "Inertia" : "Position") != NULL,
              "the message names the field: %s", e2.msg);
        CHECK(!strcmp(e2.entity, "arm"), "error entity is the body");
    }
    char *after = mt_test_model_text(mt_editor_model(e));
    CHECK(!strcmp(before, after) && mt_editor_state(e) == state, "refused edits leave the model as it was");
    free(before);
    free(after);

    /* expressions of parameters */
    int p;
    CHECK(mt_edit_add_param(e, "L", "1.2", "m", &p, &err) == MT_OK, "add parameter: %s", err.msg);
    OK(mt_edit_set_field(e, MT_EDIT_BODY, b, "position.1", "-L/2", &err_));
    CHECK_ABS(mt_editor_model(e)->body[b].pos[1], -0.6, 1e-15, "field bound to -L/2");
    CHECK(!strcmp(get(e, MT_EDIT_BODY, b, "position.1"), "{-L/2}"), "a bound field shows its expression: '%s'",
          get(e, MT_EDIT_BODY, b, "position.1"));
    OK(mt_edit_set_field(e, MT_EDIT_PARAM, p, "expr", "2", &err_));
    CHECK_ABS(mt_editor_model(e)->body[b].pos[1], -1.0, 1e-15, "changing the parameter moves the body");
    MtError e3 = {0};
    CHECK(mt_edit_set_field(e, MT_EDIT_PARAM, p, "expr", "L + 1", &e3) != MT_OK, "a parameter using itself is refused");
    CHECK(strstr(e3.msg, "'L'") != NULL, "names the parameter: %s", e3.msg);
    OK(mt_edit_set_field(e, MT_EDIT_BODY, b, "position.1", "-0.3", &err_));
    CHECK(mt_editor_model(e)->nbinding == 0 && !strcmp(get(e, MT_EDIT_BODY, b, "position.1"), "-0.3 mm"),
          "a number replaces the expression: '%s'", get(e, MT_EDIT_BODY, b, "position.1"));
    /* density: mass becomes computed and read-only */
    OK(mt_edit_set_field(e, MT_EDIT_BODY, b, "density", "7800", &err_));
    CHECK_REL(mt_editor_model(e)->body[b].mass, 7800 * M_PI * 0.05 * 0.05 * 0.4, 1e-12, "mass from the new density");
    MtError e4 = {0};
    CHECK(mt_edit_set_field(e, MT_EDIT_BODY, b, "mass", "2", &e4) != MT_OK && strstr(e4.msg, "density"),
          "a computed mass cannot be typed: %s", e4.msg);
    /* choices and whole numbers */
    MtError e5 = {0};
    CHECK(mt_edit_set_field(e, MT_EDIT_SOLVER, 0, "method", "verlet", &e5) != MT_OK && strstr(e5.msg, "dp54"),
          "an unknown method lists the methods: %s", e5.msg);
    CHECK(mt_edit_set_field(e, MT_EDIT_SOLVER, 0, "every", "0", &e5) != MT_OK, "every = 0 refused: %s", e5.msg);
    CHECK(mt_edit_set_field(e, MT_EDIT_SOLVER, 0, "step", "-1", &e5) != MT_OK && strstr(e5.msg, "solver"),
          "negative step refused naming the solver: %s", e5.msg);
    OK(mt_edit_set_field(e, MT_EDIT_GRAVITY, 0, "gravity.2", "-1 g", &err_));
    CHECK_ABS(mt_editor_model(e)->gravity[2], -9.80665, 1e-12, "gravity typed in g");
    MtFieldInfo f[MT_FIELD_MAX];
    int nf = mt_edit_fields(mt_editor_model(e), MT_EDIT_BODY, b, f, MT_FIELD_MAX);
    CHECK(nf == 25, "a body has 25 fields (got %d)", nf);
    /* a switch of the schema: not on/off refused naming it; on refused for a body that spins (the model unchanged) */
    MtError e6 = {0};
    CHECK(mt_edit_set_field(e, MT_EDIT_BODY, b, "point_mass", "maybe", &e6) != MT_OK && strstr(e6.msg, "point_mass"),
          "point_mass = maybe refused: %s", e6.msg);
    e6 = (MtError){0};
    CHECK(mt_edit_set_field(e, MT_EDIT_BODY, b, "point_mass", "on", &e6) != MT_OK && strstr(e6.msg, "point mass") &&
              mt_editor_model(e)->body[b].point_mass == 0 && !strcmp(get(e, MT_EDIT_BODY, b, "point_mass"), "off"),
          "point mass refused for a spinning body, model unchanged: %s", e6.msg);
    OK(mt_edit_set_field(e, MT_EDIT_BODY, b, "orientation.2", "30 deg", &err_));
    OK(mt_edit_set_field(e, MT_EDIT_BODY, b, "orientation.0", "-0.25", &err_));
    const double *R = mt_editor_model(e)->body[b].rot;
    CHECK_ABS(R[8], cos(-0.25), 1e-15, "R33 after turns about z then x");
    CHECK(!strcmp(get(e, MT_EDIT_BODY, b, "orientation.2"), "0.523599 rad"), "angle read back: %s",
          get(e, MT_EDIT_BODY, b, "orientation.2"));
    CHECK(f[2].flags & MT_FIELD_READONLY, "mass is read-only with a density");
    mt_editor_free(e);
}

/* Shape sizes, control gains and event times hold expressions like every
 * other numeric field: a parameter resizes a body of given density (its mass
 * follows), a value that makes a size negative is refused naming the body,
 * undo brings the old size back, duplicate and delete carry or drop the
 * bindings, and the text form keeps them. */
static void test_bound_shapes(void)
{
    MtError err = {0};
    const char *text = "motus-model 1\n"
                       "parameter L 0.4\n"
                       "ground\n  marker o at 0 0 0\nend\n"
                       "body link\n  density 1000\n  shape sphere 0.05 at 0 0 0\n  shape box 0.4 0.1 0.1 at 0.2 0 0\n"
                       "  marker pin at 0 0 0\nend\n"
                       "joint pin revolute link.pin ground.o\n"
                       "control c pid input {pin.angle} kp 1 ki 0 kd 0 tf 0.01\n"
                       "event stop at 1 do stop\n";
    MtModel *m0 = mt_model_parse(text, "bound", &err);
    CHECK(m0 != NULL, "model read: %s", err.msg);
    if (!m0) return;
    MtEditor *e = mt_editor_new(m0);
    OK(mt_edit_set_field(e, MT_EDIT_SHAPE, 1, "size.0", "L", &err_));
    OK(mt_edit_set_field(e, MT_EDIT_SHAPE, 1, "pos.0", "{L/2}", &err_));
    OK(mt_edit_set_field(e, MT_EDIT_CONTROL, 0, "kp", "{10*L}", &err_));
    OK(mt_edit_set_field(e, MT_EDIT_EVENT, 0, "time", "2*L", &err_));
    OK(mt_edit_set_field(e, MT_EDIT_SOLVER, 0, "nu", "{1000*L}", &err_));
    CHECK(!strcmp(get(e, MT_EDIT_SHAPE, 1, "size.0"), "{L}"), "the size shows its expression: '%s'", get(e, MT_EDIT_SHAPE, 1, "size.0"));
    CHECK(mt_editor_model(e)->nbinding == 5, "five bindings (%d)", mt_editor_model(e)->nbinding);
    OK(mt_edit_set_field(e, MT_EDIT_PARAM, 0, "expr", "0.8", &err_));
    const MtModel *m = mt_editor_model(e);
    double mbox = 1000 * 0.8 * 0.1 * 0.1, msph = 1000 * 4.0 / 3 * M_PI * 0.05 * 0.05 * 0.05;
    CHECK_ABS(m->shape[1].size[0], 0.8, 1e-15, "the box is 0.8 m long");
    CHECK_REL(m->body[0].mass, mbox + msph, 1e-12, "the body's mass follows (density 1000)");
    CHECK_REL(m->body[0].com[0], mbox * 0.4 / (mbox + msph), 1e-12, "and its centre of mass (the box at L/2)");
    CHECK_ABS(m->control[0].p[0], 8, 1e-12, "kp = 10 L");
    CHECK_ABS(m->event[0].time, 1.6, 1e-15, "event at 2 L");
    CHECK_ABS(m->solver.loop_freq, 800, 1e-12, "nu = 1000 L");
    /* text form */
    char *t = mt_test_model_text(m);
    CHECK(strstr(t, "shape box {L} 0.1 0.1 at {L/2} 0 0") && strstr(t, "kp {10*L}") &&
              strstr(t, "event stop at {2*L}") && strstr(t, "nu {1000*L}"),
          "written with the expressions:\n%s", t);
    MtModel *back = mt_model_parse(t, "back", &err);
    CHECK(back && back->nbinding == 5 && back->shape[1].size[0] == 0.8, "and read back: %s", err.msg);
    mt_model_free(back);
    free(t);
    /* a parameter value that makes the box negative is refused, naming the body */
    MtError e2 = {0};
    unsigned long state = mt_editor_state(e);
    CHECK(mt_edit_set_field(e, MT_EDIT_PARAM, 0, "expr", "-0.1", &e2) != MT_OK && strstr(e2.msg, "link"),
          "a negative size refused naming the body: %s", e2.msg);
    CHECK(mt_editor_state(e) == state && mt_editor_model(e)->shape[1].size[0] == 0.8, "and nothing changed");
    /* undo: the parameter back to 0.4 */
    CHECK(mt_editor_undo(e, &err) == MT_OK && mt_editor_model(e)->shape[1].size[0] == 0.4, "undo: the box is 0.4 m again");
    /* duplicate the body: its shape's bindings come along; delete the shape: they go */
    int nb;
    OK(mt_edit_duplicate(e, MT_EDIT_BODY, 0, &nb, &err_));
    m = mt_editor_model(e);
    CHECK(m->nshape == 4 && mt_model_binding(m, MT_ENT_SHAPE, 3, "size.0") && mt_model_binding(m, MT_ENT_SHAPE, 3, "pos.0"),
          "the copy's shape is bound too (%d shapes, %d bindings)", m->nshape, m->nbinding);
    OK(mt_edit_delete(e, MT_EDIT_SHAPE, 0, &err_));
    m = mt_editor_model(e);
    CHECK(m->nshape == 3 && m->nbinding == 7 && mt_model_binding(m, MT_ENT_SHAPE, 0, "size.0") &&
              mt_model_binding(m, MT_ENT_SHAPE, 2, "pos.0") && !mt_model_binding(m, MT_ENT_SHAPE, 3, "pos.0") &&
              m->shape[0].kind == MT_SHAPE_BOX && m->shape[2].kind == MT_SHAPE_BOX,
          "deleting the sphere renumbers the boxes' bindings (%d bindings)", m->nbinding);
    OK(mt_edit_delete(e, MT_EDIT_CONTROL, 0, &err_));
    CHECK(!mt_model_binding(mt_editor_model(e), MT_ENT_CONTROL, 0, "kp"), "a deleted control's binding goes with it");
    mt_editor_free(e);
}

/* Rz(az)·Rx(ax), row-major: a body's angles (ax, 0, az). */
static void rz_rx(double az, double ax, double W[9])
{
    double cz = cos(az), sz = sin(az), cx = cos(ax), sx = sin(ax);
    double A[9] = {cz, -sz * cx, sz * sx, sz, cz * cx, -cz * sx, 0, sx, cx};
    memcpy(W, A, sizeof A);
}
static double max_diff9(const double *a, const double *b)
{
    double d = 0;
    for (int k = 0; k < 9; k++) d = fmax(d, fabs(a[k] - b[k]));
    return d;
}

/* Orientations hold expressions in the inspector: one angle of a body typed
 * as {expr} keeps the other two, a parameter change turns the body, undo and
 * redo restore it exactly; a marker's z axis bound to expressions, a
 * parameter value that makes it zero refused naming the marker with nothing
 * changed; the bindings renamed with their parameter, protecting it from
 * deletion, carried by duplicate and dropped by delete; the gizmo's turn
 * makes the body's orientation numbers. */
static void test_bound_orientations(void)
{
    MtError err = {0};
    const char *text = "motus-model 1\nunits angle deg\nparameter th 30 deg\nparameter a 1\n"
                       "ground\n  marker o\nend\n"
                       "body arm\n  mass 1\n  inertia 1 1 1\n  marker pin\n  marker tip at 1 0 0\nend\n"
                       "joint pin revolute arm.pin ground.o\n";
    MtModel *m0 = mt_model_parse(text, "orient", &err);
    CHECK(m0 != NULL, "model read: %s", err.msg);
    if (!m0) return;
    MtEditor *e = mt_editor_new(m0);
    const double d2r = M_PI / 180;
    double W[9];
    OK(mt_edit_set_field(e, MT_EDIT_BODY, 0, "orientation.0", "10", &err_)); /* degrees: the display unit */
    CHECK(mt_editor_model(e)->body[0].ori.form == MT_ORIENT_NONE, "an angle typed as a number: the rotation holds it");
    OK(mt_edit_set_field(e, MT_EDIT_BODY, 0, "orientation.2", "{th}", &err_));
    const MtModel *m = mt_editor_model(e);
    char ang[3][520];
    for (int k = 0; k < 3; k++) {
        char f[24];
        snprintf(f, sizeof f, "orientation.%d", k);
        snprintf(ang[k], sizeof ang[k], "%s", get(e, MT_EDIT_BODY, 0, f));
    }
    CHECK(!strcmp(ang[0], "10 deg") && !strcmp(ang[1], "0 deg") && !strcmp(ang[2], "{th}"), "the angles read '%s' '%s' '%s'", ang[0],
          ang[1], ang[2]);
    rz_rx(30 * d2r, 10 * d2r, W);
    CHECK_ABS(max_diff9(m->body[0].rot, W), 0, 1e-15, "R = Rz(th)·Rx(10 deg), th = 30 deg: max |R - closed form|");
    double before[9];
    memcpy(before, m->body[0].rot, sizeof before);
    OK(mt_edit_set_field(e, MT_EDIT_PARAM, 0, "expr", "75", &err_));
    m = mt_editor_model(e);
    rz_rx(75 * d2r, 10 * d2r, W);
    CHECK_ABS(max_diff9(m->body[0].rot, W), 0, 1e-15, "th = 75 deg turns the body: max |R - Rz(75 deg)·Rx(10 deg)|");
    char *t = mt_test_model_text(m);
    CHECK(t && strstr(t, "  orientation angles 0.17453292519943295 0 {th}\n"), "written as angles with the expression:\n%s", t);
    free(t);
    CHECK(mt_editor_undo(e, &err) == MT_OK && !memcmp(mt_editor_model(e)->body[0].rot, before, sizeof before),
          "undo: th = 30 deg and the body's rotation as it was, bit for bit");
    CHECK(mt_editor_redo(e, &err) == MT_OK && max_diff9(mt_editor_model(e)->body[0].rot, W) <= 1e-15, "redo: turned again");
    /* a number over the expression: the angles are numbers again */
    OK(mt_edit_set_field(e, MT_EDIT_BODY, 0, "orientation.2", "20", &err_));
    m = mt_editor_model(e);
    rz_rx(20 * d2r, 10 * d2r, W);
    CHECK(m->body[0].ori.form == MT_ORIENT_NONE && !mt_model_orient_bound(m, MT_ENT_BODY, 0) && max_diff9(m->body[0].rot, W) <= 1e-15,
          "a number typed over {th}: no binding, R = Rz(20 deg)·Rx(10 deg)");
    CHECK(mt_editor_undo(e, &err) == MT_OK, "undo the number");

    /* the marker's z axis from expressions (marker 2 is arm.tip) */
    OK(mt_edit_set_field(e, MT_EDIT_MARKER, 2, "zaxis.0", "{a}", &err_));
    OK(mt_edit_set_field(e, MT_EDIT_MARKER, 2, "zaxis.2", "{a}", &err_));
    m = mt_editor_model(e);
    const double *Rk = m->marker[2].rot;
    CHECK_ABS(fmax(fabs(Rk[2] - M_SQRT1_2), fmax(fabs(Rk[5]), fabs(Rk[8] - M_SQRT1_2))), 0, 1e-15,
              "z {a} 0 {a}: the z axis is (1, 0, 1)/sqrt 2, max deviation");
    CHECK(!strcmp(get(e, MT_EDIT_MARKER, 2, "zaxis.0"), "{a}"), "the axis's x reads '%s'", get(e, MT_EDIT_MARKER, 2, "zaxis.0"));
    CHECK(!strcmp(get(e, MT_EDIT_MARKER, 2, "zaxis.1"), "0"), "the axis's y reads '%s'", get(e, MT_EDIT_MARKER, 2, "zaxis.1"));
    char *t0 = mt_test_model_text(mt_editor_model(e));
    unsigned long state = mt_editor_state(e);
    MtError e2 = {0};
    CHECK(mt_edit_set_field(e, MT_EDIT_PARAM, 1, "expr", "0", &e2) != MT_OK && strstr(e2.msg, "marker 'arm.tip'") &&
              strstr(e2.msg, "zero length"),
          "a = 0 leaves the marker no z axis: refused naming it: %s", e2.msg);
    char *t1 = mt_test_model_text(mt_editor_model(e));
    CHECK(mt_editor_state(e) == state && t0 && t1 && !strcmp(t0, t1), "and the model is unchanged");
    free(t0);
    free(t1);
    /* rename a parameter: the orientations follow; delete it: refused, naming the field */
    OK(mt_edit_rename(e, MT_EDIT_PARAM, 0, "phi", &err_));
    CHECK(!strcmp(get(e, MT_EDIT_BODY, 0, "orientation.2"), "{phi}"), "renamed in the angle: %s", get(e, MT_EDIT_BODY, 0, "orientation.2"));
    MtError e3 = {0};
    CHECK(mt_edit_delete(e, MT_EDIT_PARAM, 1, &e3) != MT_OK && strstr(e3.msg, "orient.0") && strstr(e3.msg, "arm.tip"),
          "a parameter an orientation uses is not deleted: %s", e3.msg);
    /* duplicate the body: its orientation and its markers' come along bound */
    int nb;
    OK(mt_edit_duplicate(e, MT_EDIT_BODY, 0, &nb, &err_));
    m = mt_editor_model(e);
    int copy_tip = m->nmarker - 1;
    CHECK(nb == 1 && m->body[1].ori.form == MT_ORIENT_ANGLES && mt_model_binding(m, MT_ENT_BODY, 1, "orient.2") &&
              m->marker[copy_tip].ori.form == MT_ORIENT_Z && mt_model_binding(m, MT_ENT_MARKER, copy_tip, "orient.0") &&
              !memcmp(m->body[1].rot, m->body[0].rot, sizeof W),
          "the copy's orientation and its marker's z axis are bound too (%d bindings)", m->nbinding);
    OK(mt_edit_set_field(e, MT_EDIT_PARAM, 0, "expr", "-40", &err_));
    m = mt_editor_model(e);
    rz_rx(-40 * d2r, 10 * d2r, W);
    CHECK(max_diff9(m->body[1].rot, W) <= 1e-15 && max_diff9(m->body[0].rot, W) <= 1e-15, "both bodies follow phi = -40 deg");
    /* delete the original's tip: its bindings go, the copy's stay */
    OK(mt_edit_delete(e, MT_EDIT_MARKER, 2, &err_));
    m = mt_editor_model(e);
    CHECK(mt_model_orient_bound(m, MT_ENT_MARKER, m->nmarker - 1) == 2 && m->marker[m->nmarker - 1].ori.form == MT_ORIENT_Z &&
              m->nbinding == 4,
          "deleting arm.tip drops its two bindings and renumbers the copy's (%d bindings)", m->nbinding);
    /* the gizmo's turn: the orientation becomes the turned numbers */
    CHECK(mt_edit_turn_body(e, 0, 2, 10 * d2r, &err) == MT_OK, "turn by the gizmo: %s", err.msg);
    m = mt_editor_model(e);
    rz_rx(-30 * d2r, 10 * d2r, W);
    CHECK(m->body[0].ori.form == MT_ORIENT_NONE && !mt_model_orient_bound(m, MT_ENT_BODY, 0) && max_diff9(m->body[0].rot, W) <= 1e-15,
          "turned 10 deg about z: numbers, R = Rz(-30 deg)·Rx(10 deg)");
    /* delete the copy: its orientation's binding and its marker's go with it */
    CHECK(mt_editor_model(e)->nbinding == 3, "three bindings before (%d)", mt_editor_model(e)->nbinding);
    OK(mt_edit_delete(e, MT_EDIT_BODY, 1, &err_));
    CHECK(mt_editor_model(e)->nbinding == 0 && mt_editor_model(e)->nbody == 1, "none after deleting the copy (%d)",
          mt_editor_model(e)->nbinding);
    mt_editor_free(e);
}

/* A shape's rotation in the inspector takes an expression too (a bar has no
 * rotation field: its ends are its frame): a 0.4 × 0.1 × 0.1 m box turned by
 * {th} = 90 deg about z gives its density body the inertia of a box along y. */
static void test_shape_rotation(void)
{
    MtError err = {0};
    const char *text = "motus-model 1\nunits angle deg\nparameter th 0 deg\nground\nend\n"
                       "body b\n  density 1000\n  shape box 0.4 0.1 0.1\n  shape bar 0.01 from 0 0 0 to 1 0 0\nend\n";
    MtModel *m0 = mt_model_parse(text, "shape-rot", &err);
    CHECK(m0 != NULL, "model read: %s", err.msg);
    if (!m0) return;
    MtEditor *e = mt_editor_new(m0);
    MtFieldInfo fi[32];
    int nf = mt_edit_fields(mt_editor_model(e), MT_EDIT_SHAPE, 1, fi, 32);
    int bar_rot = 0;
    for (int k = 0; k < nf; k++) bar_rot |= !strncmp(fi[k].name, "orientation", 11);
    CHECK(!bar_rot, "a bar has no rotation field");
    const double *I = mt_editor_model(e)->body[0].inertia;
    double m = 1000 * 0.4 * 0.1 * 0.1, ia = m * (0.1 * 0.1 + 0.1 * 0.1) / 12, ib = m * (0.4 * 0.4 + 0.1 * 0.1) / 12;
    /* the bar adds its own share; compare differences that the box alone makes */
    double ixx0 = I[0], iyy0 = I[1];
    OK(mt_edit_set_field(e, MT_EDIT_SHAPE, 0, "orientation.2", "{th}", &err_));
    OK(mt_edit_set_field(e, MT_EDIT_PARAM, 0, "expr", "90", &err_));
    const MtModel *mm = mt_editor_model(e);
    CHECK(!strcmp(get(e, MT_EDIT_SHAPE, 0, "orientation.2"), "{th}"), "the angle reads '%s'", get(e, MT_EDIT_SHAPE, 0, "orientation.2"));
    CHECK_ABS((mm->body[0].inertia[0] - ixx0) - (ib - ia), 0, 1e-12, "Ixx grows by the box's (Iyy - Ixx), kg m2");
    CHECK_ABS((mm->body[0].inertia[1] - iyy0) - (ia - ib), 0, 1e-12, "Iyy shrinks by it, kg m2");
    char *t = mt_test_model_text(mm);
    CHECK(t && strstr(t, "{th}"), "the shape's rotation is written with its expression:\n%s", t);
    free(t);
    CHECK(mt_editor_undo(e, &err) == MT_OK && fabs(mt_editor_model(e)->body[0].inertia[0] - ixx0) < 1e-15, "undo: the box along x again");
    mt_editor_free(e);
}

static void test_undo_redo(void)
{
    MtError err = {0};
    MtEditor *e = mt_editor_new(mt_edit_new_model());
    enum { N = 8 };
    char *states[N + 1];
    states[0] = mt_test_model_text(mt_editor_model(e));
    MtBodyDef d;
    mt_body_def_default(&d);
    int b;
    CHECK(mt_edit_add_body(e, &d, &b, &err) == MT_OK, "%s", err.msg);
    states[1] = mt_test_model_text(mt_editor_model(e));
    double p[3] = {0, 0.05, 0}, z[3] = {0, 0, 1};
    CHECK(mt_edit_add_joint(e, "", MT_JOINT_REVOLUTE, b, MT_GROUND, p, z, NULL, &err) == MT_OK, "%s", err.msg);
    states[2] = mt_test_model_text(mt_editor_model(e));
    CHECK(mt_edit_rename(e, MT_EDIT_BODY, b, "link", &err) == MT_OK, "%s", err.msg);
    states[3] = mt_test_model_text(mt_editor_model(e));
    CHECK(mt_edit_set_field(e, MT_EDIT_BODY, b, "velocity.0", "1", &err) == MT_OK, "%s", err.msg);
    states[4] = mt_test_model_text(mt_editor_model(e));
    CHECK(mt_edit_duplicate(e, MT_EDIT_BODY, b, NULL, &err) == MT_OK, "%s", err.msg);
    states[5] = mt_test_model_text(mt_editor_model(e));
    CHECK(mt_edit_add_sensor(e, "", MT_SENSOR_POSITION, MT_EDIT_MARKER, 0, 1, NULL, &err) == MT_OK, "%s", err.msg);
    states[6] = mt_test_model_text(mt_editor_model(e));
    CHECK(mt_edit_delete(e, MT_EDIT_BODY, 1, &err) == MT_OK, "%s", err.msg);
    states[7] = mt_test_model_text(mt_editor_model(e));
    CHECK(mt_edit_set_field(e, MT_EDIT_SOLVER, 0, "until", "3", &err) == MT_OK, "%s", err.msg);
    states[8] = mt_test_model_text(mt_editor_model(e));
    for (int i = 1; i <= N; i++) CHECK(strcmp(states[i], states[i - 1]), "edit %d changed the model", i);
    CHECK(!strcmp(mt_editor_undo_label(e), "set End time of solver"), "undo label: %s", mt_editor_undo_label(e));
    for (int i = N; i > 0; i--) {
        CHECK(mt_editor_undo(e, &err) == MT_OK, "undo %d", i);
        char *t = mt_test_model_text(mt_editor_model(e));
        CHECK(!strcmp(t, states[i - 1]), "undo %d gives state %d back exactly", i, i - 1);
        free(t);
    }
    CHECK(!mt_editor_can_undo(e) && !mt_editor_dirty(e), "back at the saved start: clean");
    CHECK(mt_editor_undo(e, &err) == MT_ERR_ARG, "nothing more to undo");
    for (int i = 1; i <= N; i++) {
        CHECK(mt_editor_redo(e, &err) == MT_OK, "redo %d", i);
        char *t = mt_test_model_text(mt_editor_model(e));
        CHECK(!strcmp(t, states[i]), "redo %d gives state %d back exactly", i, i);
        free(t);
    }
    CHECK(!mt_editor_can_redo(e), "nothing more to redo");
    /* a new edit after undo drops the redo branch */
    mt_editor_undo(e, &err);
    mt_editor_mark_saved(e);
    CHECK(!mt_editor_dirty(e), "saved");
    CHECK(mt_edit_set_field(e, MT_EDIT_SOLVER, 0, "until", "4", &err) == MT_OK, "%s", err.msg);
    CHECK(!mt_editor_can_redo(e) && mt_editor_dirty(e), "a new edit drops redo and dirties");
    mt_editor_undo(e, &err);
    CHECK(!mt_editor_dirty(e), "undo back to the saved state: clean again");
    /* the limit forgets the oldest edits */
    mt_editor_set_limit(e, 3);
    for (int i = 0; i < 6; i++) mt_edit_set_field(e, MT_EDIT_SOLVER, 0, "until", i % 2 ? "1" : "2", &err);
    int n = 0;
    while (mt_editor_can_undo(e) && mt_editor_undo(e, &err) == MT_OK) n++;
    CHECK(n == 3, "at most 3 edits kept (undid %d)", n);
    for (int i = 0; i <= N; i++) free(states[i]);
    mt_editor_free(e);
}

/* A slider-crank with a sensor reading the crank and a parameter in a field. */
static const char *crank_text = "motus-model 1\n"
                                "gravity 0 -9.81 0\n"
                                "parameter R 0.1\n"
                                "ground\n marker pivot at 0 0 0\n marker guide at 0 0 0 z 1 0 0\nend\n"
                                "body crank\n mass 1\n com 0.05 0 0\n inertia 1.7e-5 8.4e-4 8.4e-4\n"
                                " marker pivot at 0 0 0\n marker pin at {R} 0 0\nend\n"
                                "body rod\n mass 2\n com 0.15 0 0\n inertia 1.33e-4 0.01507 0.01507\n position 0.1 0 0\n"
                                " marker big_end at 0 0 0\n marker small_end at 0.3 0 0\nend\n"
                                "body slider\n mass 0.5\n inertia 1.33e-4 2.17e-4 2.17e-4\n position 0.4 0 0\n"
                                " marker pin at 0 0 0\n marker guide at 0 0 0 z 1 0 0\nend\n"
                                "joint main revolute crank.pivot ground.pivot\n"
                                "joint big_end revolute rod.big_end crank.pin\n"
                                "joint small_end revolute rod.small_end slider.pin\n"
                                "joint slide prismatic slider.guide ground.guide\n"
                                "driver motor main rate 6.283185307179586\n"
                                "sensor spin expr {crank.wz * 2}\n"
                                "sensor stroke position slider.pin component x\n";

static void test_rename_duplicate_delete(void)
{
    MtError err = {0};
    MtModel *m0 = mt_model_parse(crank_text, "crank", &err);
    CHECK(m0 != NULL, "fixture parses: %s", err.msg);
    if (!m0) return;
    MtEditor *e = mt_editor_new(m0);
    const MtModel *m;
    /* rename rewrites expressions that read the name */
    CHECK(mt_edit_rename(e, MT_EDIT_BODY, 0, "wheel", &err) == MT_OK, "rename: %s", err.msg);
    m = mt_editor_model(e);
    CHECK(!strcmp(m->sensor[0].expr, "wheel.wz * 2"), "sensor expression follows the rename: '%s'", m->sensor[0].expr);
    CHECK(mt_edit_rename(e, MT_EDIT_PARAM, 0, "radius", &err) == MT_OK, "rename parameter: %s", err.msg);
    m = mt_editor_model(e);
    CHECK(!strcmp(m->binding[0].expr, "radius"), "binding follows the parameter rename: '%s'", m->binding[0].expr);
    const char *badnames[] = {"rod", "ground", "", "two words", "a.b", "9lives", "stroke"};
    for (size_t i = 0; i < sizeof badnames / sizeof badnames[0]; i++) {
        MtError e2 = {0};
        CHECK(mt_edit_rename(e, MT_EDIT_BODY, 0, badnames[i], &e2) != MT_OK, "rename to '%s' refused: %s", badnames[i],
              e2.msg);
        CHECK(strstr(e2.msg, "wheel") != NULL, "message names the body: %s", e2.msg);
    }
    CHECK(mt_edit_rename(e, MT_EDIT_MARKER, 1, "rail", &err) == MT_OK, "rename ground.guide: %s", err.msg);
    MtError e6 = {0};
    CHECK(mt_edit_rename(e, MT_EDIT_MARKER, 2, "pin", &e6) != MT_OK && strstr(e6.msg, "wheel.pivot"),
          "wheel.pivot cannot take the name of wheel.pin: %s", e6.msg);
    CHECK(mt_edit_rename(e, MT_EDIT_MARKER, 2, "rail", &e6) == MT_OK, "marker names are per body: %s", e6.msg);

    /* duplicate a body: markers and shapes come along, a fresh name */
    int nb = -1;
    CHECK(mt_edit_duplicate(e, MT_EDIT_BODY, 1, &nb, &err) == MT_OK, "duplicate rod: %s", err.msg);
    m = mt_editor_model(e);
    CHECK(nb == 3 && !strcmp(m->body[nb].name, "rod_2"), "copy named rod_2 (%s)", nb >= 0 ? m->body[nb].name : "?");
    int on_copy = 0;
    for (int i = 0; i < m->nmarker; i++) on_copy += m->marker[i].body == nb;
    CHECK(on_copy == 2, "both markers copied (%d)", on_copy);

    /* deleting the rod explains and removes both joints on it */
    char deps[512];
    int n = mt_edit_dependents(m, MT_EDIT_BODY, 1, deps, sizeof deps, &err);
    printf("     dependents of rod: %s\n", deps);
    CHECK(n == 4, "rod: 2 markers and 2 joints depend on it (got %d)", n);
    CHECK(strstr(deps, "joint 'big_end'") && strstr(deps, "joint 'small_end'") && strstr(deps, "marker 'rod.big_end'"),
          "explained by name");
    CHECK(mt_edit_delete(e, MT_EDIT_BODY, 1, &err) == MT_OK, "delete rod: %s", err.msg);
    m = mt_editor_model(e);
    char ri[140], rj[140];
    CHECK(m->nbody == 3 && m->njoint == 2, "3 bodies and 2 joints left (%d, %d)", m->nbody, m->njoint);
    CHECK(!strcmp(m->joint[1].name, "slide") && !strcmp(mt_model_marker_ref(m, m->joint[1].mi, ri, sizeof ri), "slider.guide") &&
              !strcmp(mt_model_marker_ref(m, m->joint[1].mj, rj, sizeof rj), "ground.rail"),
          "joint 'slide' still joins slider.guide to ground.rail (%s, %s)", ri, rj);
    CHECK(!strcmp(mt_model_marker_ref(m, m->sensor[1].mi, ri, sizeof ri), "slider.pin"), "sensor still on slider.pin (%s)", ri);
    CHECK(m->ndriver == 1 && m->driver[0].joint == 0, "the motor still drives 'main'");
    /* a name used by an expression cannot go */
    MtError e7 = {0};
    CHECK(mt_edit_dependents(m, MT_EDIT_BODY, 0, deps, sizeof deps, &e7) < 0 && strstr(e7.msg, "sensor 'spin'") &&
              strstr(e7.msg, "wheel.wz"),
          "deleting 'wheel' refused, the sensor reading it named: %s", e7.msg);
    CHECK(mt_edit_delete(e, MT_EDIT_PARAM, 0, &e7) != MT_OK && strstr(e7.msg, "field at.0 of marker 'wheel.pin'"),
          "a parameter in use cannot go: %s", e7.msg);
    CHECK(mt_edit_delete(e, MT_EDIT_BODY, MT_GROUND, &e7) != MT_OK, "the ground cannot go: %s", e7.msg);
    /* deleting the joint 'main' takes its driver along */
    n = mt_edit_dependents(m, MT_EDIT_JOINT, 0, deps, sizeof deps, &err);
    CHECK(n == 1 && strstr(deps, "driver 'motor'"), "main: its driver goes with it (%s)", deps);
    CHECK(mt_edit_delete(e, MT_EDIT_SENSOR, 0, &err) == MT_OK, "delete sensor spin: %s", err.msg);
    CHECK(mt_edit_delete(e, MT_EDIT_BODY, 0, &err) == MT_OK, "now 'wheel' can go: %s", err.msg);
    m = mt_editor_model(e);
    CHECK(m->nbody == 2 && m->ndriver == 0 && m->nbinding == 0, "its joint, driver and bound marker went with it");
    MtSystem *s = mt_system_compile(m, &err);
    if (s && mt_system_assemble(s, &err)) { mt_system_free(s); s = NULL; }
    CHECK(s != NULL, "what is left compiles: %s", err.msg);
    mt_system_free(s);
    /* undo everything: the fixture again */
    while (mt_editor_can_undo(e)) mt_editor_undo(e, &err);
    MtModel *ref = mt_model_parse(crank_text, "crank", &err);
    char *a = mt_test_model_text(ref), *b = mt_test_model_text(mt_editor_model(e));
    CHECK(!strcmp(a, b), "undoing every edit gives the fixture back");
    free(a);
    free(b);
    mt_model_free(ref);
    mt_editor_free(e);
}

static void test_snap_and_create(void)
{
    MtError err = {0};
    MtEditor *e = mt_editor_new(mt_edit_new_model());
    MtBodyDef d;
    mt_body_def_default(&d);
    d.size[0] = 0.2;
    d.size[1] = 0.1;
    d.size[2] = 0.05;
    int b;
    mt_edit_add_body(e, &d, &b, &err);
    MtSnapPoint sp[64];
    int n = mt_edit_snap_points(mt_editor_model(e), b, sp, 64);
    int faces = 0, corners = 0;
    for (int i = 0; i < n; i++) {
        faces += sp[i].kind == MT_SNAP_FACE;
        corners += sp[i].kind == MT_SNAP_VERTEX;
        if (sp[i].kind == MT_SNAP_FACE && sp[i].p[0] > 0) CHECK_ABS(sp[i].p[0], 0.1, 0, "+x face centre");
    }
    CHECK(n == 1 + 1 + 6 + 8 && faces == 6 && corners == 8, "box: com, centre, 6 faces, 8 corners (%d)", n);
    double p0[3] = {0.1, 0, 0}, p1[3] = {0.5, 0, 0};
    int s, f, se;
    CHECK(mt_edit_add_spring(e, "", b, p0, MT_GROUND, p1, 100, 1, &s, &err) == MT_OK, "spring: %s", err.msg);
    CHECK_ABS(mt_editor_model(e)->spring[s].length, 0.4, 1e-15, "free length = distance of the points picked");
    CHECK(mt_edit_add_force(e, "", MT_FORCE_BUSHING, b, p0, MT_GROUND, p1, &f, &err) == MT_OK, "bushing: %s", err.msg);
    CHECK(mt_edit_add_force(e, "", MT_FORCE_TORSION, b, p0, MT_GROUND, p1, &f, &err) != MT_OK, "torsion needs a joint: %s",
          err.msg);
    CHECK(mt_edit_add_sensor(e, "", 0, MT_EDIT_SPRING, s, 0, &se, &err) == MT_OK, "sensor on the spring: %s", err.msg);
    CHECK(!strcmp(mt_editor_model(e)->sensor[se].expr, "spring1.force"), "reads spring1.force (%s)",
          mt_editor_model(e)->sensor[se].expr);
    CHECK(mt_edit_add_sensor(e, "", MT_SENSOR_VELOCITY, MT_EDIT_MARKER, 0, 3, &se, &err) == MT_OK, "velocity sensor: %s",
          err.msg);
    MtSystem *sys = mt_system_compile(mt_editor_model(e), &err);
    if (sys && mt_system_assemble(sys, &err)) { mt_system_free(sys); sys = NULL; }
    CHECK(sys != NULL, "the model with its new elements compiles: %s", err.msg);
    mt_system_free(sys);
    mt_editor_free(e);
}

/* The planar palette's edits: a rolling disc whose markers are apart (centre with the axle along z, the
 * contact with the plane's normal; the radius their distance) and a gear between two pins; both read back
 * from the model text; a gear on a joint that is not revolute, or with a zero radius, is refused. */
static void test_planar_edits(void)
{
    MtError err = {0};
    MtEditor *e = mt_editor_new(mt_edit_new_model());
    MtBodyDef d;
    mt_body_def_default(&d);
    d.shape = MT_SHAPE_CYLINDER;
    d.size[0] = 0.1, d.size[1] = 0.01;
    int a, b, c, ja, jb, jr, g;
    OK(mt_edit_add_body(e, &d, &a, &err_));
    d.pos[0] = 0.3, d.size[0] = 0.2;
    OK(mt_edit_add_body(e, &d, &b, &err_));
    d.pos[0] = -0.6, d.pos[1] = 0.4, d.size[0] = 0.1;
    OK(mt_edit_add_body(e, &d, &c, &err_));
    double z[3] = {0, 0, 1}, pa[3] = {0, 0, 0}, pb[3] = {0.3, 0, 0};
    OK(mt_edit_add_joint(e, "", MT_JOINT_REVOLUTE, a, MT_GROUND, pa, z, &ja, &err_));
    OK(mt_edit_add_joint(e, "", MT_JOINT_REVOLUTE, b, MT_GROUND, pb, z, &jb, &err_));
    double centre[3] = {-0.6, 0.4, 0}, contact[3] = {-0.54, 0.32, 0}, n[3] = {-0.6, 0.8, 0};
    OK(mt_edit_add_joint_at(e, "roll", MT_JOINT_ROLLING, c, centre, z, MT_GROUND, contact, n, 0.1, &jr, &err_));
    CHECK(mt_edit_add_gear(e, "", ja, jr, 0.1, 0.2, &g, &err) != MT_OK && strstr(err.msg, "roll"),
          "a gear on the rolling joint is refused, naming it: %s", err.msg);
    memset(&err, 0, sizeof err);
    CHECK(mt_edit_add_gear(e, "", ja, jb, 0, 0.2, &g, &err) != MT_OK, "a zero radius is refused: %s", err.msg);
    OK(mt_edit_add_gear(e, "", ja, jb, 0.1, 0.2, &g, &err_));
    int rope;
    CHECK(mt_edit_add_coupler(e, "", ja, jb, 0, 0, &rope, &err) != MT_OK, "a coupler of zeros is refused: %s", err.msg);
    OK(mt_edit_add_coupler(e, "", ja, jb, 1, -1, &rope, &err_));
    CHECK(mt_editor_model(e)->couple[rope].kind == MT_COUPLE_LINEAR && !strcmp(mt_editor_model(e)->couple[rope].name, "rope1"),
          "rope1, a linear coupler");
    const MtModel *m = mt_editor_model(e);
    CHECK(!strcmp(m->couple[g].name, "gear1") && m->couple[g].kind == MT_COUPLE_GEAR && m->couple[g].coef[1] == 0.2,
          "gear1 with radii 0.1 and 0.2 (%s, %g)", m->couple[g].name, m->couple[g].coef[1]);
    const MtJointSpec *r = &m->joint[jr];
    const MtMarkerSpec *mj = &m->marker[r->mj], *mi = &m->marker[r->mi];
    CHECK_ABS(r->param, 0.1, 0, "the rolling radius as given");
    CHECK_ABS(mj->pos[0], -0.54, 0, "the contact marker on the ground at the contact");
    CHECK_ABS(mj->rot[2], -0.6, 1e-15, "its z along the plane's normal, x");
    CHECK_ABS(mj->rot[5], 0.8, 1e-15, "its z along the plane's normal, y");
    CHECK_ABS(mi->pos[0], 0, 0, "the disc's marker at its centre");
    CHECK_ABS(mi->rot[8], 1, 0, "the disc's axle along z");
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    mt_model_write(m, f, &err);
    fclose(f);
    CHECK(text && strstr(text, "gear gear1 joint1 joint2 radius 0.1 0.2") && strstr(text, "radius 0.1"),
          "the gear and the radius are in the model text");
    free(text);
    mt_editor_free(e);
}

/* Flexible bodies under edits: a spring on a new marker of a flexible beam
 * makes its node an interface node (the body is reduced again, 6 more modal
 * coordinates); undo gives the old reduction back; a duplicate shares the
 * reduction; deleting the body removes its flexible data. */
static void test_flexible(void)
{
    printf("-- edits on a flexible body\n");
    MtError err = {0};
    MtModel *m0 = mt_model_parse("gravity 0 -9.81 0\nground\n marker o\nend\n"
                                 "body beam\n flexible beam length 1 elements 10 section circle 0.02 E 2e11 nu 0.3 rho 7800 modes 3\n"
                                 " marker root node 1\nend\njoint pin revolute beam.root ground.o\n", "flex", &err);
    CHECK(m0 != NULL, "fixture parses: %s", err.msg);
    if (!m0) return;
    MtEditor *e = mt_editor_new(m0);
    int n0 = mt_editor_model(e)->flex[0].data->body->nmode, mk = -1, sp = -1;
    double mid[3] = {0.5, 0, 0}, below[3] = {0.5, -0.5, 0};
    OK(mt_edit_add_marker(e, 0, "mid", mid, NULL, &mk, &err_));
    const MtModel *m = mt_editor_model(e);
    CHECK(m->flex[0].data && m->flex[0].data->body->nmode == n0, "a marker alone (sensors) leaves the interface: %d modes",
          m->flex[0].data ? m->flex[0].data->body->nmode : -1);
    OK(mt_edit_add_spring(e, "hold", 0, mid, MT_GROUND, below, 1000, 1, &sp, &err_));
    m = mt_editor_model(e);
    int n1 = m->flex[0].data ? m->flex[0].data->body->nmode : -1;
    CHECK(n1 == n0 + 6, "a spring on a node adds it to the interface: %d -> %d modal coordinates", n0, n1);
    MtSystem *s = mt_system_compile(m, &err);
    if (s && mt_system_assemble(s, &err)) { mt_system_free(s); s = NULL; }
    CHECK(s != NULL && s->nmodal == n1, "the edited model compiles: %s", err.msg);
    mt_system_free(s);
    OK(mt_editor_undo(e, &err_));
    m = mt_editor_model(e);
    CHECK(m->flex[0].data && m->flex[0].data->body->nmode == n0, "undo gives the reduction back (%d)", m->flex[0].data->body->nmode);
    int nb = -1;
    OK(mt_edit_duplicate(e, MT_EDIT_BODY, 0, &nb, &err_));
    m = mt_editor_model(e);
    CHECK(m->nflex == 2 && m->flex[1].body == nb && m->flex[1].data == m->flex[0].data, "the duplicate shares the reduction");
    OK(mt_edit_delete(e, MT_EDIT_BODY, 0, &err_));
    m = mt_editor_model(e);
    CHECK(m->nflex == 1 && m->flex[0].body == 0 && !strcmp(m->body[0].name, m->body[m->flex[0].body].name),
          "deleting the first body leaves the duplicate's flexible data, renumbered");
    mt_editor_free(e);
}

/* Display units: chosen for a quantity (an undoable edit the fields read in), taken back, refused for a
 * unit of another quantity. */
static void test_display_units(void)
{
    printf("-- display units\n");
    MtError err = {0};
    MtEditor *e = mt_editor_new(mt_edit_new_model());
    CHECK(mt_edit_set_display_unit(e, MT_DIM_FORCE, "kN", &err) == MT_OK, "force in kN: %s", err.msg);
    const MtModel *m = mt_editor_model(e);
    CHECK(m->nunit == 1 && !strcmp(m->unit[0].quantity, "force") && !strcmp(m->unit[0].unit, "kN") &&
              mt_edit_display_unit(m, MT_DIM_FORCE) == mt_unit_lookup("kN", MT_DIM_FORCE),
          "the model shows forces in kN");
    CHECK(mt_editor_can_undo(e) && strstr(mt_editor_undo_label(e), "force: kN"), "one undoable edit: %s",
          mt_editor_undo_label(e));
    CHECK(mt_edit_set_display_unit(e, MT_DIM_FORCE, "mm", &err) != MT_OK && strstr(err.msg, "'mm' is not a unit of force"),
          "a length refused for forces: %s", err.msg);
    CHECK(mt_edit_set_display_unit(e, MT_DIM_FORCE, NULL, &err) == MT_OK && mt_editor_model(e)->nunit == 0,
          "taken back: readable again");
    CHECK(mt_editor_undo(e, &err) == MT_OK && mt_editor_model(e)->nunit == 1, "undone: kN again");
    mt_editor_free(e);
}

int main(void)
{
    test_display_units();
    test_pendulum_from_nothing();
    test_drivers_and_joint_forces();
    test_fields();
    test_bound_shapes();
    test_bound_orientations();
    test_shape_rotation();
    test_undo_redo();
    test_rename_duplicate_delete();
    test_snap_and_create();
    test_planar_edits();
    test_flexible();
    return mt_test_done();
}
