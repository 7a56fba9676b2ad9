/* A flexible body's settings as expressions of parameters (the `flexible`
 * line's rows of the schema): a free-free steel beam whose Young's modulus is
 * the parameter E0. Its first bending frequency follows (4.730)²/(2π L²)·
 * √(EI/ρA) (Euler–Bernoulli, free-free); doubling E0 in the editor reduces
 * the body again and multiplies every frequency by √2 exactly; the model and
 * a project written and read back keep the expressions. The number of modes
 * is an expression too (`modes {nm}`): changing nm reduces the body again to
 * that many modes with the same frequencies, a fraction is refused, and
 * `method free modes 0` leaves the body rigid: a pendulum of it swings as a
 * rigid body with the FE model's mass, centre and inertia (to 1e-12). */
#include <string.h>
#include <unistd.h>

#include "motus/edit.h"
#include "motus/flex.h"
#include "motus/store.h"
#include "mt_test.h"

static const char *text = "parameter E0 2.1e11\n"
                          "parameter d 0.02\n"
                          "body beam\n"
                          " flexible beam length 1 elements 40 section circle {d} E {E0} nu 0.3 rho 7800 method free modes 4\n"
                          "end\n";

static double first_freq(const MtModel *m)
{
    const MtFlexBody *fb = mt_model_flex_body(m, 0);
    if (!fb) return NAN;
    MtFlexInfo fi;
    mt_flex_body_info(fb, &fi);
    return fi.nmode > 0 ? fi.freq[0] : NAN;
}

static const char *pend = "parameter nm 4\n"
                          "gravity 0 0 -9.81\nsolver method rk4 step 1e-3 until 1 every 10\n"
                          "ground\n marker pivot z 0 1 0\nend\n"
                          "body beam\n"
                          " flexible beam length 1 elements 20 section rect 0.04 0.02 E 2.1e11 nu 0.3 rho 7800 method free modes {nm}\n"
                          " marker pivot at 0 0 0 z 0 1 0\n"
                          "end\n"
                          "joint pin revolute beam.pivot ground.pivot\n";

/* The number of modes as a parameter; 0 modes against a rigid body of the same mass properties. */
static void modes_parameter(void)
{
    MtError err = {0};
    MtModel *m = mt_model_parse(pend, "pend.motus.txt", &err);
    CHECK(m != NULL, "modes {nm} reads: %s", err.msg);
    if (!m) return;
    MtFlexInfo fi;
    mt_flex_body_info(mt_model_flex_body(m, 0), &fi);
    CHECK(fi.nmode == 4, "nm = 4: %d modal coordinates", fi.nmode);
    double f4 = fi.freq[0];
    char *out = mt_test_model_text(m);
    CHECK(out && strstr(out, "modes {nm}"), "export keeps modes {nm}:\n%s", out ? out : "");
    free(out);
    MtEditor *e = mt_editor_new(m);
    int p = mt_model_find_param(mt_editor_model(e), "nm");
    CHECK(mt_edit_set_field(e, MT_EDIT_PARAM, p, "expr", "9", &err) == MT_OK, "nm = 9: %s", err.msg);
    mt_flex_body_info(mt_model_flex_body(mt_editor_model(e), 0), &fi);
    CHECK(fi.nmode == 9, "nm = 9: the body is reduced again to %d modal coordinates", fi.nmode);
    CHECK_REL(fi.freq[0], f4, 1e-9, "nm = 9: the first frequency is that of nm = 4 [Hz]");
    MtError e3 = {0};
    CHECK(mt_edit_set_field(e, MT_EDIT_PARAM, p, "expr", "2.5", &e3) != MT_OK && strstr(e3.msg, "whole number"),
          "nm = 2.5 is refused: %s", e3.msg);
    mt_editor_free(e);

    /* modes 0: a rigid body with the FE model's mass properties */
    MtModel *m0 = mt_model_parse(pend, "pend.motus.txt", &err);
    int p0 = m0 ? mt_model_find_param(m0, "nm") : -1;
    MtEditor *e0 = m0 ? mt_editor_new(m0) : NULL;
    CHECK(e0 && mt_edit_set_field(e0, MT_EDIT_PARAM, p0, "expr", "0", &err) == MT_OK, "nm = 0: %s", err.msg);
    if (!e0) return;
    mt_flex_body_info(mt_model_flex_body(mt_editor_model(e0), 0), &fi);
    CHECK(fi.nmode == 0, "nm = 0: %d modal coordinates", fi.nmode);
    double c[3], I[9];
    for (int k = 0; k < 3; k++) c[k] = fi.s0[k] / fi.mass;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) /* about the centre of mass */
            I[3 * a + b] = fi.I0[3 * a + b] - fi.mass * ((a == b ? c[0] * c[0] + c[1] * c[1] + c[2] * c[2] : 0) - c[a] * c[b]);
    printf("  modes 0: mass %.6f kg, centre %.6f m, Iyy %.6g kg m^2 (rho A L = %.6f kg)\n", fi.mass, c[0], I[4],
           7800 * 0.04 * 0.02);
    CHECK_REL(fi.mass, 7800 * 0.04 * 0.02, 1e-12, "modes 0: the mass is rho A L [kg]");
    char rigid[1024];
    snprintf(rigid, sizeof rigid,
             "gravity 0 0 -9.81\nsolver method rk4 step 1e-3 until 1 every 10\nground\n marker pivot z 0 1 0\nend\n"
             "body beam\n mass %.17g\n com %.17g %.17g %.17g\n inertia %.17g %.17g %.17g %.17g %.17g %.17g\n"
             " marker pivot at 0 0 0 z 0 1 0\nend\njoint pin revolute beam.pivot ground.pivot\n",
             fi.mass, c[0], c[1], c[2], I[0], I[4], I[8], I[1], I[2], I[5]);
    char *t0 = mt_test_model_text(mt_editor_model(e0));
    MtSystem *sf = mt_test_system(t0), *sr = mt_test_system(rigid);
    free(t0);
    MtState *qf = mt_test_run(sf, NULL, NULL, NULL), *qr = mt_test_run(sr, NULL, NULL, NULL);
    double pf[3], of[4], pr[3], orr[4], dmax = 0;
    mt_state_body(qf, 0, pf, of, NULL);
    mt_state_body(qr, 0, pr, orr, NULL);
    for (int k = 0; k < 4; k++) dmax = fmax(dmax, fabs(of[k] - orr[k]) + (k < 3 ? fabs(pf[k] - pr[k]) : 0));
    double angle = 2 * atan2(orr[2], orr[0]); /* about y */
    printf("  pendulum after 1 s: angle %.9f rad (rigid body %.9f rad), largest difference of position and quaternion %.2e\n",
           2 * atan2(of[2], of[0]), angle, dmax);
    CHECK(dmax < 1e-12 && fabs(angle) > 0.1, "modes 0 swings as the rigid body (difference %.2e)", dmax);
    mt_state_free(qf), mt_state_free(qr);
    mt_system_free(sf), mt_system_free(sr);
    mt_editor_free(e0);
}

int main(void)
{
    modes_parameter();
    MtError err = {0};
    MtModel *m = mt_model_parse(text, "beam.motus.txt", &err);
    CHECK(m != NULL, "a flexible line with expressions reads: %s", err.msg);
    if (!m) return mt_test_done();
    const double L = 1, d = 0.02, E = 2.1e11, rho = 7800, A = M_PI * d * d / 4, I = M_PI * d * d * d * d / 64;
    const double beta = 4.730040744862704, f_eb = beta * beta / (2 * M_PI * L * L) * sqrt(E * I / (rho * A));
    double f1 = first_freq(m);
    printf("  first free-free bending frequency %.6f Hz, Euler-Bernoulli %.6f Hz\n", f1, f_eb);
    CHECK_REL(f1, f_eb, 1e-5, "free-free beam, E = {E0}: first bending frequency against Euler-Bernoulli [Hz]");

    /* the canonical text keeps the expressions */
    char *out = mt_test_model_text(m);
    CHECK(out && strstr(out, "E {E0}") && strstr(out, "section circle {d}"), "export keeps E {E0} and section circle {d}:\n%s",
          out ? out : "");
    free(out);

    /* the editor: E0 doubled, the body reduced again */
    MtEditor *e = mt_editor_new(m);
    CHECK(e != NULL, "editor");
    int p = mt_model_find_param(mt_editor_model(e), "E0");
    MtError e2 = {0};
    CHECK(mt_edit_set_field(e, MT_EDIT_PARAM, p, "expr", "4.2e11", &e2) == MT_OK, "E0 = 4.2e11: %s", e2.msg);
    double f2 = first_freq(mt_editor_model(e));
    CHECK_REL(f2 / f1, sqrt(2.0), 1e-9, "E0 doubled in the editor: the body is reduced again, frequency ratio sqrt(2)");
    CHECK(mt_editor_undo(e, &e2) == MT_OK, "undo");
    CHECK_REL(first_freq(mt_editor_model(e)), f1, 1e-12, "undone: the first frequency is back");

    /* a project keeps the binding (bindings of the kind 'flexible') */
    char path[] = "/tmp/motus-flexparams-XXXXXX";
    int fd = mkstemp(path);
    if (fd >= 0) close(fd);
    unlink(path);
    MtStore *s = mt_store_open(path, MT_STORE_CREATE, &e2);
    CHECK(s && mt_store_save_model(s, mt_editor_model(e), NULL, &e2) == MT_OK, "saved: %s", e2.msg);
    MtModel *back = s ? mt_store_load_model(s, NULL, &e2) : NULL;
    CHECK(back && mt_model_binding(back, MT_ENT_FLEX, 0, "E") && !strcmp(mt_model_binding(back, MT_ENT_FLEX, 0, "E")->expr, "E0"),
          "the project keeps E = {E0}: %s", e2.msg);
    if (back) CHECK_REL(first_freq(back), f1, 1e-12, "the reduction read back from the project");
    mt_model_free(back);
    mt_store_close(s);
    unlink(path);
    mt_editor_free(e);
    return mt_test_done();
}
