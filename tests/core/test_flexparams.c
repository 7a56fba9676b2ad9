/* A flexible body's settings as expressions of parameters (the `flexible`
 * line's rows of the schema): a free-free steel beam whose Young's modulus is
 * the parameter E0. Its first bending frequency follows (4.730)²/(2π L²)·
 * √(EI/ρA) (Euler–Bernoulli, free-free); doubling E0 in the editor reduces
 * the body again and multiplies every frequency by √2 exactly; the model and
 * a project written and read back keep the expressions. */
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

int main(void)
{
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
