/* mt_study_opt.c — the optimisation of a study (motus/study_run.h,
 * docs/studies.md): NLopt's COBYLA over the study's range variables (each
 * mapped onto [0, 1]), the objective and the constraints read from the
 * responses of each evaluation, which the caller makes (a case run in this
 * process, a worker process, a stored case read back when resuming). Which
 * optimum is best and whether it is feasible are decided here too, so the
 * command line, the window and the tests judge a stored path alike. */
#include <math.h>
#include <nlopt.h>
#include <stdlib.h>
#include <string.h>

#include "mt_i18n.h"
#include "motus/study_run.h"

#define FEAS_TOL 1e-6 /* a constraint holds to this fraction of its bound's size */

static double cons_scale(const MtStudyConstraint *c) { return c->bound != 0 ? fabs(c->bound) : 1.0; }

/* A constraint's value as the optimiser sees it: <= 0 when it holds, in units of its scale. */
static double cons_value(const MtStudyConstraint *c, double r)
{
    return (c->ge ? c->bound - r : r - c->bound) / cons_scale(c);
}

double mt_study_opt_violation(const MtStudy *s, const double *resp)
{
    int o = mt_study_find_response(s, s->objective);
    if (o < 0 || !isfinite(resp[o])) return INFINITY;
    double worst = 0;
    for (int i = 0; i < s->ncons; i++) {
        int r = mt_study_find_response(s, s->cons[i].resp);
        if (r < 0 || !isfinite(resp[r])) return INFINITY;
        double v = cons_value(&s->cons[i], resp[r]);
        if (v > worst) worst = v;
    }
    return worst;
}

int mt_study_opt_feasible(const MtStudy *s, const double *resp) { return mt_study_opt_violation(s, resp) <= FEAS_TOL; }

int mt_study_opt_holds(const MtStudy *s, int i, const double *resp)
{
    int r = mt_study_find_response(s, s->cons[i].resp);
    return r >= 0 && isfinite(resp[r]) && cons_value(&s->cons[i], resp[r]) <= FEAS_TOL;
}

/* 0: every constraint holds exactly, 1: to the tolerance, 2: not. */
static int feasibility_class(double v) { return v <= 0 ? 0 : v <= FEAS_TOL ? 1 : 2; }

int mt_study_opt_better(const MtStudy *s, const double *a, const double *b)
{
    double va = mt_study_opt_violation(s, a), vb = mt_study_opt_violation(s, b);
    int ca = feasibility_class(va), cb = feasibility_class(vb);
    if (ca != cb) return ca < cb;
    if (ca == 2) return va < vb;
    int o = mt_study_find_response(s, s->objective);
    return s->maximize ? a[o] > b[o] : a[o] < b[o];
}

const char *mt_study_opt_stop_text(MtOptStop stop)
{
    switch (stop) {
    case MT_OPT_CONVERGED: return MT_("converged (the step fell below xtol)");
    case MT_OPT_MAXEVAL: return MT_("stopped at maxeval evaluations");
    case MT_OPT_ROUNDOFF: return MT_("stopped by rounding errors");
    case MT_OPT_FAILED: return MT_("stopped by a failed evaluation");
    }
    return "?";
}

/* The optimiser's state: the evaluations so far (values and responses), the scales. */
typedef struct {
    const MtStudy *s;
    MtStudyEvalFn eval;
    void *user;
    MtError *err;
    MtStatus rc;
    nlopt_opt opt;
    int nfree, free_var[MT_STUDY_VARS]; /* the optimised variables */
    int n, cap;
    double *values, *resp; /* n × nvar, n × nresp */
    int obj, cons_resp[MT_STUDY_CONSTRAINTS];
    double fscale;
    double x[MT_STUDY_VARS]; /* the point being evaluated, in the variables' units */
} Opt;

/* The variables' values at the optimiser's point u (each in [0, 1]). */
static void point_values(Opt *o, const double *u, double *v)
{
    const MtStudy *s = o->s;
    for (int i = 0; i < s->nvar; i++) v[i] = s->var[i].is_range ? 0.5 * (s->var[i].lo + s->var[i].hi) : s->var[i].level[0];
    for (int j = 0; j < o->nfree; j++) {
        const MtStudyVar *var = &s->var[o->free_var[j]];
        double t = u[j] < 0 ? 0 : u[j] > 1 ? 1 : u[j];
        v[o->free_var[j]] = t == 1 ? var->hi : var->lo + t * (var->hi - var->lo);
    }
}

/* The responses at u: an earlier evaluation of the same values, or a new one. NULL when it failed. */
static const double *evaluate(Opt *o, const double *u)
{
    const MtStudy *s = o->s;
    if (o->rc) return NULL;
    point_values(o, u, o->x);
    for (int k = o->n - 1; k >= 0; k--)
        if (!memcmp(o->values + (size_t)k * (size_t)s->nvar, o->x, sizeof(double) * (size_t)s->nvar))
            return o->resp + (size_t)k * (size_t)s->nresp;
    if (o->n == o->cap) {
        int nc = o->cap ? 2 * o->cap : 64;
        double *v = realloc(o->values, sizeof(double) * (size_t)nc * (size_t)s->nvar);
        if (v) o->values = v;
        double *r = v ? realloc(o->resp, sizeof(double) * (size_t)nc * (size_t)s->nresp) : NULL;
        if (r) o->resp = r;
        if (!v || !r) {
            o->rc = mt_error_set(o->err, MT_ERR_NOMEM, "study", "%s", MT_("out of memory"));
            return NULL;
        }
        o->cap = nc;
    }
    double *v = o->values + (size_t)o->n * (size_t)s->nvar, *r = o->resp + (size_t)o->n * (size_t)s->nresp;
    memcpy(v, o->x, sizeof(double) * (size_t)s->nvar);
    for (int i = 0; i < s->nresp; i++) r[i] = NAN;
    int k = o->n++;
    if ((o->rc = o->eval(o->user, k, v, r, o->err))) return NULL;
    if (!isfinite(r[o->obj])) {
        o->rc = mt_error_set(o->err, MT_ERR_SOLVE, s->objective, MT_("case %d: the objective '%s' is not a number"), k, s->objective);
        return NULL;
    }
    for (int i = 0; i < s->ncons; i++)
        if (!isfinite(r[o->cons_resp[i]])) {
            o->rc = mt_error_set(o->err, MT_ERR_SOLVE, s->cons[i].resp, MT_("case %d: the constrained response '%s' is not a number"), k,
                                 s->cons[i].resp);
            return NULL;
        }
    return r;
}

static double objective(unsigned n, const double *u, double *grad, void *data)
{
    (void)n, (void)grad;
    Opt *o = data;
    const double *r = evaluate(o, u);
    if (!r) {
        nlopt_force_stop(o->opt);
        return HUGE_VAL;
    }
    return (o->s->maximize ? -r[o->obj] : r[o->obj]) / o->fscale;
}

static void constraints(unsigned m, double *result, unsigned n, const double *u, double *grad, void *data)
{
    (void)n, (void)grad;
    Opt *o = data;
    const double *r = evaluate(o, u);
    for (unsigned i = 0; i < m; i++) result[i] = r ? cons_value(&o->s->cons[i], r[o->cons_resp[i]]) : HUGE_VAL;
    if (!r) nlopt_force_stop(o->opt);
}

/* Sets up COBYLA: bounds [0, 1], the start in the middle with steps of a quarter range, the stopping rules. */
static MtStatus setup(Opt *o, double *u, MtError *err)
{
    const MtStudy *s = o->s;
    if (!(o->opt = nlopt_create(NLOPT_LN_COBYLA, (unsigned)o->nfree)))
        return mt_error_set(err, MT_ERR_NOMEM, "study", "%s", MT_("out of memory"));
    double tol[MT_STUDY_CONSTRAINTS];
    for (int i = 0; i < s->ncons; i++) tol[i] = FEAS_TOL;
    for (int j = 0; j < o->nfree; j++) u[j] = 0.5;
    int bad = nlopt_set_lower_bounds1(o->opt, 0) < 0 || nlopt_set_upper_bounds1(o->opt, 1) < 0 ||
              nlopt_set_min_objective(o->opt, objective, o) < 0 || nlopt_set_xtol_abs1(o->opt, s->xtol) < 0 ||
              nlopt_set_maxeval(o->opt, s->maxeval) < 0 || nlopt_set_initial_step1(o->opt, 0.25) < 0 ||
              (s->ncons && nlopt_add_inequality_mconstraint(o->opt, (unsigned)s->ncons, constraints, o, tol) < 0);
    return bad ? mt_error_set(err, MT_ERR_ARG, "study", "%s", MT_("study: the optimiser refused its settings")) : MT_OK;
}

MtStatus mt_study_optimize(const MtStudy *s, MtStudyEvalFn eval, void *user, MtStudyOpt *out, MtError *err)
{
    memset(out, 0, sizeof *out);
    out->best = -1;
    out->stop = MT_OPT_FAILED;
    if (!s->optimize) return mt_error_set(err, MT_ERR_ARG, "study", "%s", MT_("study: no objective to optimise ('study objective …')"));
    Opt o = {.s = s, .eval = eval, .user = user, .err = err, .obj = mt_study_find_response(s, s->objective)};
    for (int i = 0; i < s->nvar; i++)
        if (s->var[i].is_range) o.free_var[o.nfree++] = i;
    for (int i = 0; i < s->ncons; i++) o.cons_resp[i] = mt_study_find_response(s, s->cons[i].resp);
    if (o.obj < 0 || !o.nfree) return mt_error_set(err, MT_ERR_MODEL, "study", "%s", MT_("study: the optimisation does not check (motus-cli check)"));
    double u[MT_STUDY_VARS], f;
    MtStatus rc = setup(&o, u, err);
    /* the start first, for the objective's scale; COBYLA asks for it again and gets it from the evaluations */
    const double *r0 = rc ? NULL : evaluate(&o, u);
    if (!rc && r0) {
        o.fscale = fabs(r0[o.obj]) > 0 ? fabs(r0[o.obj]) : 1;
        nlopt_result res = nlopt_optimize(o.opt, u, &f);
        out->stop = res == NLOPT_MAXEVAL_REACHED ? MT_OPT_MAXEVAL : res == NLOPT_ROUNDOFF_LIMITED ? MT_OPT_ROUNDOFF : MT_OPT_CONVERGED;
        if (!o.rc && res < 0 && res != NLOPT_ROUNDOFF_LIMITED)
            o.rc = mt_error_set(err, res == NLOPT_OUT_OF_MEMORY ? MT_ERR_NOMEM : MT_ERR_SOLVE, "study",
                                MT_("study: the optimiser (COBYLA) failed: %s"), nlopt_get_errmsg(o.opt) ? nlopt_get_errmsg(o.opt) : "?");
    }
    if (!rc) rc = o.rc;
    if (rc) out->stop = MT_OPT_FAILED;
    out->nevals = o.n;
    for (int k = 0; k < o.n; k++) /* failed evaluations have no responses: never the optimum */
        if (isfinite(o.resp[(size_t)k * (size_t)s->nresp + (size_t)o.obj]) &&
            (out->best < 0 || mt_study_opt_better(s, o.resp + (size_t)k * (size_t)s->nresp, o.resp + (size_t)out->best * (size_t)s->nresp)))
            out->best = k;
    if (out->best >= 0) out->feasible = mt_study_opt_feasible(s, o.resp + (size_t)out->best * (size_t)s->nresp);
    nlopt_destroy(o.opt);
    free(o.values);
    free(o.resp);
    return rc;
}
