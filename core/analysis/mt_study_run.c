/* mt_study_run.c — one case of a study (motus/study.h): the model with the
 * case's parameter values, run in this process, and its responses computed
 * from the result columns they name (motus/signal.h). Processes, resuming and
 * the project are the caller's (app/cli_study.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_expr.h"
#include "mt_i18n.h"
#include "mt_study_expr.h"
#include "motus/analysis.h"
#include "motus/results.h"
#include "motus/run.h"
#include "motus/signal.h"
#include "motus/study_run.h"

/* One response from its column's samples. */
static MtStatus column_response(const MtStudyResponse *r, const double *t, int n, const double *x, double *out,
                                MtError *err)
{
    double t0 = r->from, t1 = r->to;
    *out = NAN;
    switch (r->kind) {
    case MT_RESP_VALUE:
        if (n < 1 || r->at < t[0] - 1e-12 || r->at > t[n - 1] + 1e-12)
            return mt_error_set(err, MT_ERR_MODEL, r->name, MT_("study response '%s': t = %g s is outside the run"), r->name, r->at);
        *out = mt_signal_at(t, x, n, r->at);
        return MT_OK;
    case MT_RESP_MIN:
    case MT_RESP_MAX: {
        int any = 0;
        for (int i = 0; i < n; i++) {
            if (t[i] < t0 || t[i] > t1) continue;
            if (!any || (r->kind == MT_RESP_MIN ? x[i] < *out : x[i] > *out)) *out = x[i];
            any = 1;
        }
        if (!any) return mt_error_set(err, MT_ERR_MODEL, r->name, MT_("study response '%s': no frame in its time window"), r->name);
        return MT_OK;
    }
    case MT_RESP_MEAN:
    case MT_RESP_RMS:
        *out = r->kind == MT_RESP_MEAN ? mt_signal_mean(t, x, n, t0, t1) : mt_signal_rms(t, x, n, t0, t1);
        if (isnan(*out)) return mt_error_set(err, MT_ERR_MODEL, r->name, MT_("study response '%s': no frame in its time window"), r->name);
        return MT_OK;
    case MT_RESP_PSD_PEAK:
    case MT_RESP_PSD_FREQ: {
        MtPsd p;
        MtWelchSpec spec = {MT_WINDOW_HANN, 0, 0.5};
        if (r->resolution > 0 && n > 1) { /* segments of 1/resolution seconds at the frames' mean step */
            double tb = fmax(t0, t[0]), te = fmin(t1, t[n - 1]);
            int in = 0;
            for (int i = 0; i < n; i++) in += t[i] >= t0 && t[i] <= t1;
            if (in > 1 && te > tb) spec.segment = (int)lround((in - 1) / (te - tb) / r->resolution);
            if (spec.segment < 4) spec.segment = 4;
        }
        if (mt_signal_psd(t, x, n, t0, t1, &spec, r->name, &p, err)) return err->code;
        double v, f;
        int rc = mt_psd_peak(&p, r->f0, r->f1, 0, &v, &f);
        mt_psd_free(&p);
        if (rc) return mt_error_set(err, MT_ERR_MODEL, r->name, MT_("study response '%s': no frequency of the spectrum lies in its band"), r->name);
        *out = r->kind == MT_RESP_PSD_PEAK ? v : f;
        return MT_OK;
    }
    case MT_RESP_SETTLE:
        *out = mt_signal_settling(t, x, n, t0, t1, r->tol);
        if (isnan(*out)) return mt_error_set(err, MT_ERR_MODEL, r->name, MT_("study response '%s': no frame in its time window"), r->name);
        return MT_OK;
    case MT_RESP_EXPR: break;
    }
    return MT_OK;
}

MtStatus mt_study_responses(const MtStudy *s, const double *values, const double *t, int n, double *const *col,
                            double *resp, MtError *err)
{
    double *vars = malloc(sizeof(double) * (size_t)(s->nvar + s->nresp));
    if (!vars) return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
    memcpy(vars, values, sizeof(double) * (size_t)s->nvar);
    MtStatus rc = MT_OK;
    for (int r = 0; r < s->nresp && !rc; r++) {
        if (s->resp[r].kind == MT_RESP_EXPR) {
            MtExpr *e = mt_study_expr_compile(s, r, err);
            if (!e) rc = err->code;
            else resp[r] = mt_expr_eval(e, vars);
            mt_expr_free(e);
        } else rc = column_response(&s->resp[r], t, n, col[r], &resp[r], err);
        vars[s->nvar + r] = resp[r];
    }
    free(vars);
    return rc;
}

/* The samples a case's responses need, gathered frame by frame. */
typedef struct {
    MtCsv *csv;
    const MtStudy *s;
    int *colix;      /* per response: its column in csv (-1: expression) */
    double *row;     /* one frame's columns */
    double *t, **col;
    int n, cap;
    const MtStudyRunHooks *hooks;
} Gather;

static int gather_frame(void *user, MtState *st)
{
    Gather *g = user;
    if (g->n == g->cap) {
        int nc = g->cap ? 2 * g->cap : 1024;
        double *t = realloc(g->t, sizeof(double) * (size_t)nc);
        if (!t) return 1;
        g->t = t;
        for (int r = 0; r < g->s->nresp; r++) {
            if (g->colix[r] < 0) continue;
            double *c = realloc(g->col[r], sizeof(double) * (size_t)nc);
            if (!c) return 1;
            g->col[r] = c;
        }
        g->cap = nc;
    }
    mt_frame_values(g->csv, st, g->row);
    g->t[g->n] = g->row[0];
    for (int r = 0; r < g->s->nresp; r++)
        if (g->colix[r] >= 0) g->col[r][g->n] = g->row[g->colix[r]];
    g->n++;
    return g->hooks && g->hooks->frame ? g->hooks->frame(g->hooks->user, st) : 0;
}

/* "m = 2, k = 400": the case's values, for messages. */
static void case_words(const MtStudy *s, const double *v, char *buf, size_t size)
{
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; i < s->nvar && o < size; i++)
        o += (size_t)snprintf(buf + o, size - o, "%s%s = %.10g%s%s", i ? ", " : "", s->var[i].name, v[i], s->var[i].unit[0] ? " " : "",
                              s->var[i].unit);
}

/* Finds each response's column; an unknown one fails naming it. */
static MtStatus find_columns(Gather *g, MtError *err)
{
    for (int r = 0; r < g->s->nresp; r++) {
        const MtStudyResponse *rs = &g->s->resp[r];
        g->colix[r] = -1;
        if (rs->kind == MT_RESP_EXPR) continue;
        for (int k = 0; k < mt_csv_ncols(g->csv) && g->colix[r] < 0; k++)
            if (!strcmp(mt_csv_colname(g->csv, k), rs->column)) g->colix[r] = k;
        if (g->colix[r] < 0)
            return mt_error_set(err, MT_ERR_MODEL, rs->name, MT_("study response '%s': the run writes no column '%s'"), rs->name, rs->column);
    }
    return MT_OK;
}

static MtStatus run_system(MtSystem *sys, Gather *g, const MtStudyRunHooks *hooks, MtError *err)
{
    if (!(g->csv = mt_csv_new(sys, NULL, err))) return err->code;
    g->colix = malloc(sizeof(int) * (size_t)g->s->nresp);
    g->col = calloc((size_t)g->s->nresp, sizeof(double *));
    g->row = malloc(sizeof(double) * (size_t)mt_csv_ncols(g->csv));
    if (!g->colix || !g->col || !g->row) return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
    if (find_columns(g, err)) return err->code;
    const MtSolverSpec *sv = mt_system_solver(sys);
    if (mt_run_check_length(0, sv->until, sv->step, MT_("solver"), err)) return err->code;
    if (hooks && hooks->begin && hooks->begin(hooks->user, sys, err)) return err->code ? err->code : MT_ERR_IO;
    MtState *st = mt_state_new(sys, err);
    if (!st) return err->code;
    MtStatus rc = mt_run_start(st, sv, err);
    if (!rc) rc = mt_run(st, sv, gather_frame, g, hooks ? hooks->cancel : NULL, NULL, err);
    mt_state_free(st);
    return rc;
}

/* A flexible body whose settings are bound to parameters is reduced again for
 * the case (a variable may change its section or material). */
static MtStatus refresh_flex(MtModel *m, MtError *err)
{
    int any = 0;
    for (int i = 0; i < m->nbinding; i++)
        if (m->binding[i].kind == MT_ENT_FLEX) {
            mt_model_flex_invalidate(m, mt_model_body_flex(m, m->binding[i].index));
            any = 1;
        }
    return any ? mt_model_reduce_flex(m, m->basedir[0] ? m->basedir : NULL, err) : MT_OK;
}

MtStatus mt_study_run_case(const MtModel *m, int c, const MtStudyRunHooks *hooks, double *values, double *resp,
                           MtError *err)
{
    const MtStudy *s = m->study;
    if (!s) return mt_error_set(err, MT_ERR_ARG, "study", "%s", MT_("the model has no study (no 'study' lines)"));
    double v[MT_STUDY_VARS];
    for (int r = 0; r < s->nresp; r++) resp[r] = NAN;
    if (mt_study_case(s, c, v, err)) return err->code;
    if (values) memcpy(values, v, sizeof(double) * (size_t)s->nvar);
    return mt_study_run_values(m, c, v, hooks, resp, err);
}

MtStatus mt_study_run_values(const MtModel *m, int c, const double *v, const MtStudyRunHooks *hooks, double *resp,
                             MtError *err)
{
    const MtStudy *s = m->study;
    if (!s) return mt_error_set(err, MT_ERR_ARG, "study", "%s", MT_("the model has no study (no 'study' lines)"));
    for (int r = 0; r < s->nresp; r++) resp[r] = NAN;
    MtModel *mc = mt_model_copy(m);
    if (!mc) return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
    Gather g = {.s = mc->study, .hooks = hooks};
    MtSystem *sys = NULL;
    MtStatus rc = mt_study_apply(mc->study, mc, v, err);
    if (!rc) rc = refresh_flex(mc, err);
    if (!rc) rc = mt_model_validate(mc, err);
    if (!rc && !(sys = mt_system_compile(mc, err))) rc = err->code;
    if (!rc) rc = mt_system_assemble(sys, err);
    if (!rc) rc = run_system(sys, &g, hooks, err);
    if (!rc) rc = mt_study_responses(s, v, g.t, g.n, g.col, resp, err);
    if (rc) { /* the message names the case: which values made it fail */
        char words[512], msg[sizeof err->msg];
        case_words(s, v, words, sizeof words);
        snprintf(msg, sizeof msg, "%s", err->msg);
        mt_error_set(err, rc, err->entity, MT_("case %d (%s): %s"), c, words, msg);
    }
    mt_csv_free(g.csv); /* it reads its system's model */
    mt_system_free(sys);
    for (int r = 0; g.col && r < s->nresp; r++) free(g.col[r]);
    free(g.col);
    free(g.colix);
    free(g.row);
    free(g.t);
    mt_model_free(mc);
    return rc;
}
