/* test_flexinit.c — initial values of single modal coordinates of flexible
 * bodies, `initial BODY.wK VALUE rate R` (issue 19; core/engine/mt_assembly.c
 * hold_modes, mt_flex.c): a free steel beam released from its first modal
 * coordinate rings at the first free-free bending frequency with the
 * amplitude given, and from a rate with amplitude rate/ω; on a cantilever
 * clamped by a fixed joint the initial assembly keeps the values and rates
 * given while it meets the joint; the text form, a project and the editor
 * keep the lines; a coordinate the body does not have, or a rigid body, is
 * refused naming the body. */
#include <string.h>
#include <unistd.h>

#include "motus/edit.h"
#include "motus/store.h"
#include "mt_flex.h"
#include "mt_integrate.h"
#include "mt_kin.h"
#include "mt_test.h"

/* steel 1 m, 20 × 10 mm: weak-axis bending (along z) */
static const double E = 2.1e11, RHO = 7850, B = 0.02, H = 0.01;

typedef struct {
    int n, cap;
    double *t, *w, *wd; /* modal coordinate 1 and its rate */
} Trace;

static int trace_cb(void *user, MtState *st)
{
    Trace *tr = user;
    const MtSystem *s = st->sys;
    if (tr->n == tr->cap) {
        tr->cap = tr->cap ? 2 * tr->cap : 4096;
        tr->t = realloc(tr->t, sizeof(double) * (size_t)tr->cap);
        tr->w = realloc(tr->w, sizeof(double) * (size_t)tr->cap);
        tr->wd = realloc(tr->wd, sizeof(double) * (size_t)tr->cap);
        if (!tr->t || !tr->w || !tr->wd) exit(1);
    }
    tr->t[tr->n] = st->t;
    tr->w[tr->n] = st->q[7 * s->nbody + s->flex[0].moff];
    tr->wd[tr->n++] = st->u[6 * s->nbody + s->flex[0].moff];
    return 0;
}

/* A free beam, no gravity, released with INIT; w1's frequency (Hz, from its
 * downward zero crossings) and its largest |w1|. */
static void free_beam(const char *init, double *freq, double *amp, double *w0, double *wd0)
{
    char text[1024];
    snprintf(text, sizeof text,
             "gravity 0 0 0\n"
             "solver method dp54 step 1e-4 until 0.1 rtol 1e-10 atol 1e-14\n"
             "parameter A 1e-3\n"
             "body beam\n"
             " flexible beam length 1 elements 40 section rect %g %g E %g nu 0.3 rho %g method free modes 4 zeta 0\n"
             " marker tip node 41\n"
             "end\n%s",
             B, H, E, RHO, init);
    MtSystem *s = mt_test_system(text);
    Trace tr = {0};
    MtRunStats stats;
    mt_state_free(mt_test_run(s, trace_cb, &tr, &stats));
    mt_system_free(s);
    double down[64];
    int nd = mt_test_down_crossings(tr.t, tr.w, tr.wd, tr.n, down, 64);
    *freq = nd > 1 ? (nd - 1) / (down[nd - 1] - down[0]) : 0;
    *amp = 0;
    for (int i = 0; i < tr.n; i++) *amp = fmax(*amp, fabs(tr.w[i]));
    *w0 = tr.w[0], *wd0 = tr.wd[0];
    free(tr.t), free(tr.w), free(tr.wd);
}

static void free_beam_rings(void)
{
    printf("-- a free steel beam released from its first modal coordinate, or given its rate\n");
    /* first free-free bending frequency, weak axis: (4.730041)² √(EI/ρA) / (2π L²) */
    double I = B * H * H * H / 12, f1 = 4.730041 * 4.730041 * sqrt(E * I / (RHO * B * H)) / (2 * M_PI), f, a, w0, wd0;
    free_beam("initial beam.w1 {A}\n", &f, &a, &w0, &wd0);
    printf("     w1 = 1e-3: ringing at %.4f Hz (Euler-Bernoulli %.4f), largest |w1| %.9g\n", f, f1, a);
    CHECK(w0 == 1e-3 && wd0 == 0, "w1 = %g, w1' = %g at t = 0 (1e-3 and 0 asked)", w0, wd0);
    CHECK_REL(a, 1e-3, 1e-4, "largest |w1| over five periods: the amplitude given");
    /* the dynamics' inertia is that of nodal rigid bodies, the modes' that of the consistent mass: converges as
     * 1/elements² (−0.53 % at 20 elements, −0.15 % at 40) */
    CHECK_REL(f, f1, 3e-3, "w1 rings at the first free-free bending frequency [Hz]");
    double fr, ar;
    free_beam("initial beam.w1 rate 0.3\n", &fr, &ar, &w0, &wd0);
    printf("     w1' = 0.3 1/s: ringing at %.4f Hz, largest |w1| %.9g (0.3/omega %.9g)\n", fr, ar, 0.3 / (2 * M_PI * fr));
    CHECK(w0 == 0 && wd0 == 0.3, "w1 = %g, w1' = %g at t = 0 (0 and 0.3 asked)", w0, wd0);
    CHECK_REL(ar, 0.3 / (2 * M_PI * fr), 1e-4, "largest |w1| from the rate: rate / omega (omega of the ringing)");
    CHECK_REL(ar, 0.3 / (2 * M_PI * f1), 3e-3, "largest |w1| from the rate: rate / omega (Euler-Bernoulli)");
    CHECK_REL(fr, f, 1e-6, "the same frequency from a value and from a rate [Hz]");
}

/* The cantilever of test_flexdyn (cb, 4 modes, clamped by a fixed joint at
 * node 1) with INIT; the state after the initial assembly. */
static const char *cantilever(const char *flex_init, const char *init, char *text, size_t n)
{
    snprintf(text, n,
             "gravity 0 -9.81 0\n"
             "solver method dp54 step 1e-4 until 1e-4 rtol 1e-10 atol 1e-14\n"
             "ground\n marker clamp at 0 0.1 0 z 0 0 1\nend\n"
             "body beam\n"
             " position 0 0.1 0\n"
             " flexible beam length 1 elements 20 section rect %g %g E %g nu 0.3 rho %g method cb modes 4 zeta 0 %s\n"
             " marker root node 1\n marker tip node 21\n"
             "end\n"
             "joint clamp fixed beam.root ground.clamp\n%s",
             B, H, E, RHO, flex_init, init);
    return text;
}

static void clamped_assembly(void)
{
    printf("-- a cantilever clamped by a fixed joint: the initial assembly keeps the values and rates given\n");
    char text[2048];
    for (int rest = 0; rest < 2; rest++) {
        MtSystem *s = mt_test_system(cantilever(rest ? "initial rest" : "", "initial beam.w1 2e-3\ninitial beam.w2 rate 0.5\n",
                                                text, sizeof text));
        MtError err = {0};
        MtState *st = mt_state_new(s, &err);
        /* disturbed start: the assembly must move the frame, not the coordinates held */
        double *w = st->q + 7 * s->nbody + s->flex[0].moff, *wd = st->u + 6 * s->nbody + s->flex[0].moff;
        for (int k = 0; k < 4; k++) w[k] = 1e-4 * (k + 1), wd[k] = 0.01 * (k + 1);
        CHECK(mt_assemble_initial(st, &err) == MT_OK, "assembled: %s", err.msg);
        const char *what = rest ? "initial rest" : "initial assembled";
        CHECK(w[0] == 2e-3 && wd[1] == 0.5, "%s: w1 = %g (2e-3 asked), w2' = %g (0.5 asked)", what, w[0], wd[1]);
        if (rest)
            CHECK(w[1] == 0 && w[2] == 0 && w[3] == 0 && wd[0] == 0 && wd[2] == 0 && wd[3] == 0,
                  "initial rest: the other coordinates and rates are 0");
        else
            CHECK(w[1] != 2e-4 || wd[0] != 0.01, "initial assembled: the coordinates not given are left to the assembly");
        MtMk r, c;
        mt_stage_bodies(st, st->q);
        mt_marker_eval(st, st->q, st->u, mt_model_find_marker(s->model, "beam.root"), &r);
        mt_marker_eval(st, st->q, st->u, mt_model_find_marker(s->model, "ground.clamp"), &c);
        double dp = 0, dv = 0;
        for (int k = 0; k < 3; k++) dp = fmax(dp, fabs(r.p[k] - c.p[k])), dv = fmax(dv, fabs(r.vp[k]) + fabs(r.w[k]));
        char msg[96];
        snprintf(msg, sizeof msg, "%s: the clamp holds, root position [m]", what);
        CHECK_ABS(dp, 0, 1e-12, msg);
        snprintf(msg, sizeof msg, "%s: the clamp holds, root speed and angular speed", what);
        CHECK_ABS(dv, 0, 1e-10, msg);
        mt_state_free(st);
        mt_system_free(s);
    }
}

static void text_project_editor(void)
{
    printf("-- the text form, a project and the editor keep the modal initial conditions\n");
    char text[2048];
    MtError err = {0};
    MtModel *m = mt_model_parse(cantilever("initial rest", "parameter A 1e-3\ninitial beam.w1 {A} rate 0.25\n"
                                                           "initial beam.w3 rate -0.5\n", text, sizeof text),
                                "<test>", &err);
    CHECK(m != NULL, "parsed: %s", err.msg);
    if (!m) return;
    char *out = mt_test_model_text(m);
    CHECK(out && strstr(out, "initial beam.w1 {A} rate 0.25\n") && strstr(out, "initial beam.w3 rate -0.5\n"),
          "export writes 'initial beam.w1 {A} rate 0.25' and 'initial beam.w3 rate -0.5':\n%s", out ? out : "");
    char path[] = "/tmp/motus-flexinit-XXXXXX";
    int fd = mkstemp(path);
    if (fd >= 0) close(fd);
    unlink(path);
    MtStore *s = mt_store_open(path, MT_STORE_CREATE, &err);
    CHECK(s && mt_store_save_model(s, m, NULL, &err) == MT_OK, "saved: %s", err.msg);
    MtModel *back = s ? mt_store_load_model(s, NULL, &err) : NULL;
    char *out2 = back ? mt_test_model_text(back) : NULL;
    CHECK(out && out2 && !strcmp(out, out2), "the project gives the same text back: %s\n%s", err.msg, out2 ? out2 : "");
    if (back) {
        MtSystem *sy = mt_system_compile(back, &err);
        MtState *st = sy && !mt_system_assemble(sy, &err) ? mt_state_new(sy, &err) : NULL;
        CHECK(st && mt_assemble_initial(st, &err) == MT_OK, "the model read back assembles: %s", err.msg);
        if (st) {
            const double *w = st->q + 7 * sy->nbody + sy->flex[0].moff, *wd = st->u + 6 * sy->nbody + sy->flex[0].moff;
            CHECK(w[0] == 1e-3 && wd[0] == 0.25 && wd[2] == -0.5, "read back: w1 = %g, w1' = %g, w3' = %g", w[0], wd[0], wd[2]);
        }
        mt_state_free(st);
        mt_system_free(sy);
    }
    mt_store_close(s);
    unlink(path);
    free(out2);
    mt_model_free(back);
    /* a parameter change reaches the bound value; deleting the body deletes its conditions */
    MtEditor *e = mt_editor_new(m); /* takes m */
    int p = mt_model_find_param(mt_editor_model(e), "A");
    CHECK(mt_edit_set_field(e, MT_EDIT_PARAM, p, "expr", "3e-3", &err) == MT_OK, "A = 3e-3: %s", err.msg);
    CHECK(mt_editor_model(e)->initial[0].value == 3e-3, "the editor: w1's value follows A (%g)", mt_editor_model(e)->initial[0].value);
    CHECK(mt_edit_delete(e, MT_EDIT_BODY, mt_model_find_body(mt_editor_model(e), "beam"), &err) == MT_OK, "beam deleted: %s",
          err.msg);
    CHECK(mt_editor_model(e)->ninitial == 0, "its initial conditions went with it (%d left)", mt_editor_model(e)->ninitial);
    mt_editor_free(e); /* and m, which it took */
    free(out);
}

static void refused(void)
{
    printf("-- refused in words\n");
    char text[2048];
    MtError err = {0};
    MtModel *m = mt_model_parse(cantilever("", "initial beam.w9 1e-3\n", text, sizeof text), "<test>", &err);
    MtSystem *s = m ? mt_system_compile(m, &err) : NULL;
    CHECK(!s && strstr(err.msg, "beam.w9") && strstr(err.msg, "4 modal coordinates"), "w9 of a body with 4: %s", err.msg);
    mt_system_free(s);
    mt_model_free(m);
    m = mt_model_parse("body block\n mass 1\n inertia 1 1 1\nend\ninitial block.w1 1e-3\n", "<test>", &err);
    CHECK(!m && strstr(err.msg, "'block' is not flexible"), "a rigid body: %s", err.msg);
    mt_model_free(m);
    m = mt_model_parse(cantilever("", "initial beam.w1 1e-3\ninitial beam.w1 rate 1\n", text, sizeof text), "<test>", &err);
    CHECK(!m && strstr(err.msg, "beam.w1' is given twice"), "given twice: %s", err.msg);
    mt_model_free(m);
}

int main(void)
{
    free_beam_rings();
    clamped_assembly();
    text_project_editor();
    refused();
    return mt_test_done();
}
