/* Parameters and fields bound to expressions: evaluation with units,
 * propagation of a changed parameter, cycles and unknown names reported with
 * the field and column, and an exact text round trip of the expressions.
 * Orientations typed with expressions (every form, bodies, markers, shapes):
 * their rotation against the closed form, following a changed parameter,
 * written back as typed, and a clause a parameter makes meaningless refused
 * naming the entity. */
#include <string.h>

#include "mt_test.h"

static const char *model =
    "motus-model 1\n"
    "units length mm angle deg\n"
    "parameter L 300 mm\n"
    "parameter r {L / 3}\n"
    "parameter rho 7850\n"
    "parameter m_rod {rho * L * 0.01 * 0.01}\n"
    "gravity 0 {-9.81} 0\n"
    "solver method rk4 step {1e-3} until {2 * 0.5}\n"
    "ground\n marker o\n marker b at {L + r} 0 0\nend\n"
    "body rod\n mass {m_rod}\n com {L/2} 0 0\n inertia 1e-5 {m_rod*L^2/12} {m_rod*L^2/12}\n marker o\n marker tip at {L} 0 0\nend\n"
    "body w\n mass 1\n inertia 0.01 0.01 0.01\n position {L + r} 0 0\n marker c\nend\n"
    "joint pin revolute rod.o ground.o\njoint jw revolute w.c ground.b\n"
    "gear g pin jw radius {r} {2*r} internal\n"
    "spring s rod.tip ground.b k {1000 * m_rod} c 2 length {r}\n"
    "driver d pin rate {2*pi} start 0\n";

static void expect_error(const char *what, const char *text, const char *frag1, const char *frag2)
{
    MtError err = {0};
    MtModel *m = mt_model_parse(text, "p.motus.txt", &err);
    int ok = !m && strstr(err.msg, frag1) && (!frag2 || strstr(err.msg, frag2));
    CHECK(ok, "%s: expected an error with '%s' and '%s', got: %s", what, frag1, frag2 ? frag2 : "", m ? "(no error)" : err.msg);
    if (ok) printf("ok   %s -> %s\n", what, err.msg);
    mt_model_free(m);
}

/* Rotations about project x, y, z (row-major, columns the axes). */
static void rot_x(double t, double R[9]) { double c = cos(t), s = sin(t), A[9] = {1, 0, 0, 0, c, -s, 0, s, c}; memcpy(R, A, sizeof A); }
static void rot_y(double t, double R[9]) { double c = cos(t), s = sin(t), A[9] = {c, 0, s, 0, 1, 0, -s, 0, c}; memcpy(R, A, sizeof A); }
static void rot_z(double t, double R[9]) { double c = cos(t), s = sin(t), A[9] = {c, -s, 0, s, c, 0, 0, 0, 1}; memcpy(R, A, sizeof A); }
static void mul3(const double A[9], const double B[9], double C[9])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}
/* Largest |R − W| over the nine entries. */
static double rot_diff(const double R[9], const double W[9])
{
    double d = 0;
    for (int k = 0; k < 9; k++) d = fmax(d, fabs(R[k] - W[k]));
    return d;
}

/* Each entity's rotation for parameters theta (deg), a and t (rad), in closed form. */
static void orient_closed(double theta, double a, double t, double W[6][9])
{
    double A[9], B[9], C[9];
    rot_z(theta, W[0]);                          /* body axis: axis 0 0 1 {theta} */
    double c = cos(a), s = sin(a);
    double zx[9] = {0, s, c, 0, -c, s, 1, 0, 0}; /* marker: z (cos a, sin a, 0), x (0, 0, 1), y = z × x */
    memcpy(W[1], zx, sizeof zx);
    double g = s < 0 ? -1 : 1; /* marker: z (cos a, 0, sin a), x from project x: ±(sin a, 0, −cos a) */
    double zn[9] = {g * s, 0, c, 0, g, 0, -g * c, 0, s};
    memcpy(W[2], zn, sizeof zn);
    rot_y(theta, W[3]);                          /* shape: quat {cos(theta/2)} 0 {sin(theta/2)} 0 */
    rot_z(t, W[4]);                              /* shape: matrix of a turn by t about z */
    rot_x(a, A);                                 /* body: angles {a} {t} {theta}: Rz(theta)·Ry(t)·Rx(a) */
    rot_y(t, B);
    mul3(B, A, C);
    rot_z(theta, A);
    mul3(A, C, W[5]);
}

static const char *orient_model =
    "motus-model 1\n"
    "parameter theta 30 deg\n"
    "parameter a 0.3\n"
    "parameter t {2*a}\n"
    "body arm\n mass 1\n inertia 1 1 1\n orientation axis 0 0 1 {theta}\n"
    " marker m at {a} 0 0 z {cos(a)} {sin(a)} 0 x 0 0 1\n marker n z {cos(a)} 0 {sin(a)}\n"
    " shape box 0.1 0.2 0.3 quat {cos(theta/2)} 0 {sin(theta/2)} 0\n"
    " shape cylinder 0.1 0.2 at 0 0 0 matrix {cos(t)} {-sin(t)} 0 {sin(t)} {cos(t)} 0 0 0 1\n"
    " shape bar 0.01 from 0 0 0 to 1 0 0 axis 0 0 1 {theta}\nend\n"
    "body fly\n mass 1\n inertia 1 1 1\n orientation angles {a} {t} {theta}\nend\n";

static void check_orients(const MtModel *m, double theta, double a, const char *when)
{
    double W[6][9];
    orient_closed(theta, a, 2 * a, W);
    const double *got[6] = {m->body[0].rot, m->marker[0].rot, m->marker[1].rot, m->shape[0].rot, m->shape[1].rot, m->body[1].rot};
    static const char *const what[6] = {"body axis", "marker z x", "marker z", "shape quat", "shape matrix", "body angles"};
    for (int k = 0; k < 6; k++) {
        char msg[128];
        snprintf(msg, sizeof msg, "%s, %s: max |R - closed form|", when, what[k]);
        CHECK_ABS(rot_diff(got[k], W[k]), 0, 1e-15, msg);
    }
}

static void test_orientations(void)
{
    MtError err = {0};
    MtModel *m = mt_model_parse(orient_model, "o.motus.txt", &err);
    CHECK(m != NULL, "orientations with expressions parse: %s", err.msg);
    if (!m) return;
    check_orients(m, 30 * M_PI / 180, 0.3, "parsed");
    /* a changed parameter turns every orientation that uses it */
    mt_model_add_param(m, "theta", "50", "deg", &err);
    mt_model_add_param(m, "a", "-1.1", "", &err);
    CHECK(mt_model_eval_params(m, &err) == MT_OK, "re-evaluation: %s", err.msg);
    check_orients(m, 50 * M_PI / 180, -1.1, "theta = 50 deg, a = -1.1");
    /* written back as typed; read again, the same text and the same rotations */
    char *t1 = mt_test_model_text(m);
    CHECK(t1 && strstr(t1, "orientation axis 0 0 1 {theta}\n") && strstr(t1, " z {cos(a)} {sin(a)} 0 x 0 0 1\n") &&
              strstr(t1, " z {cos(a)} 0 {sin(a)}\n") && strstr(t1, " quat {cos(theta/2)} 0 {sin(theta/2)} 0") &&
              strstr(t1, " matrix {cos(t)} {-sin(t)} 0 {sin(t)} {cos(t)} 0 0 0 1") &&
              strstr(t1, "orientation angles {a} {t} {theta}\n") && strstr(t1, " to 1 0 0 axis 0 0 1 {theta}\n"),
          "clauses written as typed:\n%s", t1 ? t1 : "(null)");
    MtModel *m2 = t1 ? mt_model_parse(t1, "o2.motus.txt", &err) : NULL;
    CHECK(m2 != NULL, "written model reads back: %s", err.msg);
    if (m2) {
        char *t2 = mt_test_model_text(m2);
        CHECK(t2 && !strcmp(t1, t2), "text -> model -> text is identical");
        CHECK(!memcmp(m->body[0].rot, m2->body[0].rot, sizeof m->body[0].rot) &&
                  !memcmp(m->marker[0].rot, m2->marker[0].rot, sizeof m->marker[0].rot) &&
                  !memcmp(m->shape[1].rot, m2->shape[1].rot, sizeof m->shape[1].rot) &&
                  !memcmp(m->body[1].rot, m2->body[1].rot, sizeof m->body[1].rot),
              "the model read back has the same rotations, bit for bit");
        free(t2);
        mt_model_free(m2);
    }
    free(t1);
    mt_model_free(m);
    /* a parameter that makes a clause meaningless is refused, naming the entity */
    m = mt_model_parse("parameter a 1\nbody b\n mass 1\n inertia 1 1 1\n marker m z {a} {2*a} 0\nend\n", "z.motus.txt", &err);
    CHECK(m != NULL, "z {a} {2*a} 0 with a = 1 parses: %s", err.msg);
    if (m) {
        mt_model_add_param(m, "a", "0", "", &err);
        CHECK(mt_model_eval_params(m, &err) == MT_ERR_MODEL && strstr(err.msg, "marker 'b.m'") && strstr(err.msg, "zero length"),
              "a = 0 gives the marker no z axis: %s", err.msg);
        mt_model_free(m);
    }

    expect_error("zero z axis from a parameter", "parameter a 0\nbody b\n mass 1\n inertia 1 1 1\n marker m z {a} 0 0\nend\n",
                 "marker 'b.m'", "the z axis has zero length");
    expect_error("x parallel to z from a parameter",
                 "parameter a 1\nbody b\n mass 1\n inertia 1 1 1\n marker m z 0 0 1 x 0 0 {a}\nend\n", "marker 'b.m'",
                 "the x axis is parallel to the z axis");
    expect_error("zero quaternion from a parameter", "parameter q 0\nbody b\n mass 1\n inertia 1 1 1\n orientation quat {q} 0 0 0\nend\n",
                 "body 'b'", "the quaternion has zero length");
    expect_error("zero rotation axis from a parameter",
                 "parameter q 0\nbody b\n mass 1\n inertia 1 1 1\n shape box 1 1 1 at 0 0 0 axis {q} 0 0 1\nend\n", "body 'b'",
                 "the rotation axis has zero length");
    expect_error("a matrix that is no rotation", "parameter s 2\nbody b\n mass 1\n inertia 1 1 1\n orientation matrix {s} 0 0 0 1 0 0 0 1\nend\n",
                 "body 'b'", "not a proper rotation");
    expect_error("angles: three words", "body b\n mass 1\n inertia 1 1 1\n orientation angles 1 2\nend\n", "'b'", "three angles");

    /* without expressions a clause is turned into the frame, as before (no form kept) */
    m = mt_model_parse("body b\n mass 1\n inertia 1 1 1\n orientation angles 10deg 20deg 30deg\nend\n", "n.motus.txt", &err);
    CHECK(m && m->body[0].ori.form == MT_ORIENT_NONE, "a clause of numbers keeps no form: %s", err.msg);
    if (m) {
        double W[9], A[9], B[9], C[9];
        rot_x(10 * M_PI / 180, A);
        rot_y(20 * M_PI / 180, B);
        mul3(B, A, C);
        rot_z(30 * M_PI / 180, A);
        mul3(A, C, W);
        CHECK_ABS(rot_diff(m->body[0].rot, W), 0, 1e-15, "angles 10deg 20deg 30deg: max |R - Rz Ry Rx|");
    }
    mt_model_free(m);
}

int main(void)
{
    test_orientations();
    MtError err = {0};
    MtModel *m = mt_model_parse(model, "p.motus.txt", &err);
    CHECK(m != NULL, "model with parameters parses: %s", err.msg);
    if (!m) return mt_test_done();
    const double L = 0.3, r = 0.1, mrod = 7850 * 0.3 * 1e-4;
    CHECK_ABS(m->param[0].value, L, 1e-15, "parameter L = 300 mm in SI [m]");
    CHECK_ABS(m->param[1].value, r, 1e-15, "parameter r = L/3 [m]");
    CHECK_ABS(m->body[0].mass, mrod, 1e-12, "bound mass rho*L*A [kg]");
    CHECK_ABS(m->body[0].inertia[1], mrod * L * L / 12, 1e-15, "bound inertia m L^2/12 [kg m^2]");
    CHECK_ABS(m->marker[1].pos[0], L + r, 1e-15, "bound marker position [m]");
    CHECK_ABS(m->couple[0].coef[1], -2 * r, 1e-15, "internal gear radius keeps its sign [m]");
    CHECK_ABS(m->driver[0].coef[1], 2 * M_PI, 1e-15, "driver rate 2*pi [rad/s]");
    CHECK_ABS(m->solver.until, 1, 0, "solver end time from an expression [s]");
    CHECK(m->nunit == 2 && !strcmp(m->unit[0].unit, "mm"), "display units remembered (%d)", m->nunit);

    /* text → model → text → model → text: expressions survive exactly */
    char *t1 = mt_test_model_text(m);
    MtModel *m2 = mt_model_parse(t1, "t1", &err);
    CHECK(m2 != NULL, "canonical text parses: %s", err.msg);
    char *t2 = m2 ? mt_test_model_text(m2) : strdup("");
    CHECK(!strcmp(t1, t2), "round trip of the canonical text is identical");
    CHECK(strstr(t1, "mass {m_rod}") && strstr(t1, "radius {r} {2*r} internal") && strstr(t1, "parameter L 300 mm"),
          "expressions and units are written back as typed");
    free(t1);
    free(t2);
    mt_model_free(m2);

    /* changing a parameter changes every dependent value */
    mt_model_add_param(m, "L", "0.6", "", &err);
    CHECK(mt_model_eval_params(m, &err) == MT_OK, "re-evaluation: %s", err.msg);
    CHECK_ABS(m->body[0].mass, 2 * mrod, 1e-12, "mass follows L = 0.6 m [kg]");
    CHECK_ABS(m->marker[1].pos[0], 0.6 + 0.2, 1e-15, "marker follows L through r = L/3 [m]");
    /* a cycle is reported with a parameter on it */
    mt_model_add_param(m, "L", "r * 3", "", &err);
    CHECK(mt_model_eval_params(m, &err) != MT_OK && strstr(err.msg, "depends on itself"), "cycle reported: %s", err.msg);
    printf("     cycle -> %s\n", err.msg);
    mt_model_free(m);

    expect_error("unknown name in a field", "parameter L 1\nbody b\n mass {2*Lx}\nend\n", "'b', field mass", "column 3");
    expect_error("unknown name in a parameter", "parameter L {M + 1}\n", "parameter 'L'", "'M'");
    expect_error("cycle", "parameter a {b}\nparameter b {2*a}\n", "depends on itself", NULL);
    expect_error("expression where none is allowed", "body b\n mass 1\n inertia 1 1 1\n shape box 1 1 1 color {1} 0 0\nend\n",
                 "expression is not accepted", NULL);
    expect_error("unknown unit", "parameter L 3 furlong\n", "unknown unit 'furlong'", NULL);
    expect_error("wrong display unit", "units length kN\n", "kN", "length");
    expect_error("non-finite value", "parameter z 0\nbody b\n mass {1/z}\nend\n", "field mass", "not a finite number");
    expect_error("unterminated", "body b\n mass {2*\nend\n", "unterminated expression", NULL);
    /* density from a parameter: the mass follows it; a negative value is refused once evaluated */
    {
        const char *dm = "parameter rho 2700\nbody b\n density {rho}\n shape box 0.1 0.2 0.3\nend\n";
        MtModel *md = mt_model_parse(dm, "d.motus.txt", &err);
        CHECK(md != NULL, "density from a parameter parses: %s", err.msg);
        if (md) {
            CHECK_ABS(md->body[0].mass, 2700 * 0.1 * 0.2 * 0.3, 1e-9, "box mass from density {rho} [kg]");
            mt_model_add_param(md, "rho", "7800", "", &err);
            CHECK(mt_model_eval_params(md, &err) == MT_OK, "re-evaluation: %s", err.msg);
            CHECK_ABS(md->body[0].mass, 7800 * 0.1 * 0.2 * 0.3, 1e-9, "mass follows rho = 7800 [kg]");
            mt_model_free(md);
        }
    }
    expect_error("negative density from a parameter", "parameter rho {-1}\nbody b\n density {rho}\n shape sphere 0.1\nend\n",
                 "'b'", "density must be positive");
    return mt_test_done();
}
