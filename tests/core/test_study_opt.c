/* test_study_opt.c — optimisation of studies (core/analysis/mt_study_opt.c,
 * NLopt's COBYLA): the `study objective|constraint|optimizer` lines read,
 * written back and checked; a constrained quadratic whose optimum lies on its
 * constraint; the spring–mass x(t) = 1 + 0.1 cos(√(k/m) t) optimised over k
 * against closed forms, unconstrained (the lowest x(0.7 s): √(k/m)·0.7 = π)
 * and with an active constraint (the least k with x(0.7 s) ≤ 1:
 * √(k/m)·0.7 = π/2); the same path twice (what resuming relies on); a failed
 * evaluation stopping the optimiser with its message. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_test.h"
#include "study_model.h"
#include "motus/study.h"
#include "motus/study_run.h"

static const char model_text[] = STUDY_SPRING_MODEL("1");

static MtModel *with_study(const char *study, MtError *err) { return study_model_parse(model_text, study, "opt.motus.txt", err); }

static void test_lines(void)
{
    MtError err = {0};
    MtModel *m = with_study("study variable k range 10 40 unit N/m\n"
                            "study variable m levels 1 unit kg\n"
                            "study response x07 value mass.x at 0.7\n"
                            "study response kk expr {k}\n"
                            "study objective maximize x07\n"
                            "study constraint kk >= 12.5\n"
                            "study constraint x07 <= 1.05\n",
                            &err);
    CHECK(m && m->study && m->study->optimize, "an optimisation reads: %s", err.msg);
    if (!m) return;
    char *a = mt_study_text(m->study);
    printf("%s", a);
    CHECK(a && !strstr(a, "study design") && strstr(a, "study objective maximize x07\n") &&
              strstr(a, "study constraint kk >= 12.5\nstudy constraint x07 <= 1.05\n") &&
              strstr(a, "study optimizer cobyla maxeval 50 xtol 1e-06\n"),
          "written without a design, with the optimiser's defaults");
    MtStudy *s2 = mt_study_new();
    CHECK(mt_study_read_text(s2, a, &err) == MT_OK, "its text reads back: %s", err.msg);
    char *b = mt_study_text(s2);
    CHECK(a && b && !strcmp(a, b), "written, read and written again it is the same");
    CHECK(mt_study_ncases(s2, &err) == 50, "an optimisation's cases: at most maxeval");
    double v[MT_STUDY_VARS];
    CHECK(mt_study_case(s2, 0, v, &err) != MT_OK && strstr(err.msg, "chosen by the optimiser"), "no design case: %s", err.msg);
    free(a);
    free(b);
    mt_study_free(s2);
    mt_model_free(m);
    static const struct {
        const char *study, *msg;
    } bad[] = {
        {"study variable k levels 10 20\nstudy response x max mass.x\nstudy objective minimize x\n", "one level (held there)"},
        {"study variable k range 10 20 count 3\nstudy response x max mass.x\nstudy objective minimize x\n", "range without count"},
        {"study variable k range 10 20\nstudy response x max mass.x\nstudy objective minimize y\n", "no response 'y'"},
        {"study variable k range 10 20\nstudy response x max mass.x\nstudy objective minimize x\nstudy constraint z <= 1\n",
         "no response 'z'"},
        {"study variable k levels 10 20\nstudy response x max mass.x\nstudy constraint x <= 1\n", "need an objective"},
        {"study design lhs 4\nstudy variable k range 10 20\nstudy response x max mass.x\nstudy objective minimize x\n",
         "has no design"},
        {"study variable k levels 10\nstudy response x max mass.x\nstudy objective minimize x\n", "a variable with a range"},
        {"study variable k range 10 20\nstudy response x max mass.x\nstudy objective lower x\n", "study objective: write"},
        {"study variable k range 10 20\nstudy response x max mass.x\nstudy constraint x < 1\n", "study constraint: write"},
        {"study variable k range 10 20\nstudy response x max mass.x\nstudy optimizer cobyla xtol 0.7\n", "study optimizer: write"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        m = with_study(bad[i].study, &err);
        CHECK(!m && strstr(err.msg, bad[i].msg), "refused (%s): %s", bad[i].msg, err.msg);
        mt_model_free(m);
    }
}

/* f = (x - 3)² + (y - 1)², g = x + y, evaluated without a model; every point kept. */
typedef struct {
    int n;
    double v[512][2];
} Points;

static MtStatus quadratic(void *user, int k, const double *v, double *resp, MtError *err)
{
    (void)err;
    Points *p = user;
    if (k < 512) p->v[k][0] = v[0], p->v[k][1] = v[1];
    p->n = k + 1;
    resp[0] = (v[0] - 3) * (v[0] - 3) + (v[1] - 1) * (v[1] - 1);
    resp[1] = v[0] + v[1];
    return MT_OK;
}

static void test_quadratic(void)
{
    static const struct {
        const char *lines, *what;
        double x, y;
    } prob[] = {
        {"study objective minimize f\nstudy constraint g <= 2\n", "min f with x + y <= 2: (2, 0)", 2, 0},
        {"study objective maximize g\nstudy constraint f <= 2\n", "max x + y with f <= 2: (4, 2)", 4, 2},
        {"study objective minimize f\nstudy constraint g >= 6\n", "min f with x + y >= 6: (4, 2)", 4, 2},
    };
    for (size_t i = 0; i < sizeof prob / sizeof prob[0]; i++) {
        MtError err = {0};
        char text[1024];
        snprintf(text, sizeof text,
                 "study variable x range -5 5\nstudy variable y range -5 5\nstudy response f max a\nstudy response g max b\n"
                 "%sstudy optimizer cobyla maxeval 500 xtol 1e-9\n",
                 prob[i].lines);
        MtStudy *s = mt_study_new();
        CHECK(mt_study_read_text(s, text, &err) == MT_OK, "%s: reads: %s", prob[i].what, err.msg);
        static Points p;
        p.n = 0;
        MtStudyOpt o;
        CHECK(mt_study_optimize(s, quadratic, &p, &o, &err) == MT_OK && o.feasible && o.best >= 0 && o.best < 512 &&
                  o.stop == MT_OPT_CONVERGED,
              "%s: converged to a feasible point (%s)", prob[i].what, err.msg);
        printf("%s: %d evaluations\n", prob[i].what, o.nevals);
        if (o.best >= 0 && o.best < 512) {
            CHECK_ABS(p.v[o.best][0], prob[i].x, 1e-6, prob[i].what);
            CHECK_ABS(p.v[o.best][1], prob[i].y, 1e-6, prob[i].what);
        }
        mt_study_free(s);
    }
}

/* Keeps every evaluation of the spring–mass study, run in this process. */
typedef struct {
    const MtModel *m;
    int n, fail_at;
    double values[128][MT_STUDY_VARS], resp[128][MT_STUDY_RESPONSES];
} Path;

static MtStatus run_case(void *user, int k, const double *v, double *resp, MtError *err)
{
    Path *p = user;
    if (k == p->fail_at) return mt_error_set(err, MT_ERR_SOLVE, "mass", "case %d: the solver gave up (made to fail)", k);
    MtStatus rc = mt_study_run_values(p->m, k, v, NULL, resp, err);
    if (k < 128) {
        memcpy(p->values[k], v, sizeof(double) * (size_t)p->m->study->nvar);
        memcpy(p->resp[k], resp, sizeof(double) * (size_t)p->m->study->nresp);
    }
    p->n = k + 1;
    return rc;
}

static void optimum(const char *study, double want_k, double tol, const char *what, Path *p)
{
    MtError err = {0};
    MtModel *m = with_study(study, &err);
    CHECK(m != NULL, "%s reads: %s", what, err.msg);
    if (!m) return;
    memset(p, 0, sizeof *p);
    p->m = m;
    p->fail_at = -1;
    MtStudyOpt o;
    MtStatus rc = mt_study_optimize(m->study, run_case, p, &o, &err);
    CHECK(rc == MT_OK && o.best >= 0 && o.feasible, "%s: optimised (%s)", what, err.msg);
    if (o.best >= 0) {
        printf("%s: %d evaluations, %s; optimum case %d\n", what, o.nevals, mt_study_opt_stop_text(o.stop), o.best);
        CHECK_REL(p->values[o.best][0], want_k, tol, what);
    }
    mt_model_free(m);
}

static const char free_study[] = "study variable k range 10 40 unit N/m\n"
                                 "study response x07 value mass.x at 0.7\n"
                                 "study objective minimize x07\n"
                                 "study optimizer cobyla maxeval 80 xtol 1e-7\n";

static void test_spring(void)
{
    static Path a, b;
    /* the lowest x(0.7 s): cos(√(k/m)·0.7) = -1, k = m (π/0.7)² */
    optimum(free_study, pow(M_PI / 0.7, 2), 1e-6, "k of the lowest x(0.7 s), m (pi/0.7)^2", &a);
    /* the least k with x(0.7 s) <= 1, i.e. cos(√(k/m)·0.7) <= 0: k = m (π/1.4)², the constraint active */
    optimum("study variable k range 2 20 unit N/m\n"
            "study variable m levels 1 unit kg\n"
            "study response x07 value mass.x at 0.7\n"
            "study response dx expr {x07 - 1}\n"
            "study response kk expr {k}\n"
            "study objective minimize kk\n"
            "study constraint dx <= 0\n"
            "study optimizer cobyla maxeval 80 xtol 1e-8\n",
            pow(M_PI / 1.4, 2), 1e-6, "least k with x(0.7 s) <= 1, m (pi/1.4)^2", &b);
    /* the same study again takes the same path, bit for bit: a resumed optimisation finds its recorded cases */
    static Path c;
    optimum(free_study, pow(M_PI / 0.7, 2), 1e-6, "the unconstrained optimum again", &c);
    int same = a.n == c.n && a.n > 0;
    for (int k = 0; same && k < a.n && k < 128; k++) same = !memcmp(a.values[k], c.values[k], sizeof a.values[k]);
    CHECK(same, "run twice, the optimiser asks for the same %d points in the same order", a.n);
    /* a failed evaluation stops it with its message; the best of those before is reported */
    MtError err = {0};
    MtModel *m = with_study(free_study, &err);
    static Path f;
    f.m = m;
    f.fail_at = 5;
    MtStudyOpt o;
    MtStatus rc = m ? mt_study_optimize(m->study, run_case, &f, &o, &err) : MT_ERR_ARG;
    CHECK(rc == MT_ERR_SOLVE && strstr(err.msg, "case 5: the solver gave up") && o.stop == MT_OPT_FAILED && o.nevals == 6,
          "a failed case stops the optimisation: %s (%d evaluations)", err.msg, o.nevals);
    CHECK(o.best >= 0 && o.best < 5, "the optimum among the cases before it: case %d", o.best);
    mt_model_free(m);
}

int main(void)
{
    test_lines();
    test_quadratic();
    test_spring();
    return mt_test_done();
}
