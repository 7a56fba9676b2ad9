/* Parameters and fields bound to expressions: evaluation with units,
 * propagation of a changed parameter, cycles and unknown names reported with
 * the field and column, and an exact text round trip of the expressions. */
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

int main(void)
{
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
    expect_error("expression where none is allowed", "body b\n orientation axis 0 0 1 {1}\nend\n", "expression is not accepted", NULL);
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
