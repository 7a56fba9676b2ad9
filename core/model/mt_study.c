/* mt_study.c — a study's description (motus/study.h, docs/studies.md): the
 * `study …` statements read and written back, checked against the model, and
 * the design turned into cases (grid, Latin hypercube, table, one at a time).
 * Running cases and computing responses is core/analysis/mt_study_run.c. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_expr.h"
#include "mt_i18n.h"
#include "mt_study_expr.h"
#include "motus/study.h"
#include "motus/units.h"

#define NKIND 9
static const char *const resp_kinds[NKIND] = {"value", "min", "max", "mean", "rms", "psd_peak", "psd_freq", "expr", "settle"};
static const char *const designs[] = {"grid", "lhs", "table", "oat"};

const char *mt_study_resp_kind_name(MtRespKind k) { return (unsigned)k < NKIND ? resp_kinds[k] : "?"; }
const char *mt_study_design_name(MtDesignKind d) { return (unsigned)d < 4 ? designs[d] : "?"; }

int mt_study_resp_kind_from_name(const char *s)
{
    for (int i = 0; i < NKIND; i++)
        if (!strcmp(s, resp_kinds[i])) return i;
    return -1;
}

MtStudy *mt_study_new(void) { return calloc(1, sizeof(MtStudy)); }

void mt_study_free(MtStudy *s)
{
    if (!s) return;
    for (int i = 0; i < s->nvar; i++) free(s->var[i].level);
    free(s->row);
    free(s);
}

MtStudy *mt_study_copy(const MtStudy *s)
{
    if (!s) return NULL;
    MtStudy *c = malloc(sizeof *c);
    if (!c) return NULL;
    *c = *s;
    c->row = NULL;
    for (int i = 0; i < c->nvar; i++) c->var[i].level = NULL;
    int bad = 0;
    for (int i = 0; i < c->nvar && !bad; i++)
        if (s->var[i].nlevel) {
            c->var[i].level = malloc(sizeof(double) * (size_t)s->var[i].nlevel);
            if (c->var[i].level) memcpy(c->var[i].level, s->var[i].level, sizeof(double) * (size_t)s->var[i].nlevel);
            else bad = 1;
        }
    if (!bad && s->nrow) {
        size_t n = sizeof(double) * (size_t)s->nrow * (size_t)s->nvar;
        c->row = malloc(n ? n : 1);
        if (c->row) memcpy(c->row, s->row, n);
        else bad = 1;
    }
    if (bad) {
        for (int i = 0; i < c->nvar; i++)
            if (!s->var[i].nlevel) c->var[i].level = NULL;
        mt_study_free(c);
        return NULL;
    }
    return c;
}

/* ---- reading ------------------------------------------------------------------ */

/* A finite number written in C notation (the text format's). */
static int number(const char *t, double *v)
{
    char *end;
    *v = strtod(t, &end);
    return end != t && !*end && isfinite(*v);
}

static MtStatus usage(MtError *err, const char *entity, const char *what)
{
    return mt_error_set(err, MT_ERR_SYNTAX, entity, "%s", what);
}

int mt_study_find_response(const MtStudy *s, const char *name)
{
    for (int i = 0; i < s->nresp; i++)
        if (!strcmp(s->resp[i].name, name)) return i;
    return -1;
}

static int find_var(const MtStudy *s, const char *name)
{
    for (int i = 0; i < s->nvar; i++)
        if (!strcmp(s->var[i].name, name)) return i;
    return -1;
}

/* study design grid|table|oat | lhs N [seed S] */
static MtStatus read_design(MtStudy *s, int n, char *const *t, MtError *err)
{
    const char *use = MT_("study design: write 'study design grid', 'study design lhs N [seed S]', 'study design table' or 'study design oat'");
    if (n < 3) return usage(err, "study", use);
    int d = -1;
    for (int i = 0; i < 4; i++)
        if (!strcmp(t[2], designs[i])) d = i;
    if (d < 0) return usage(err, "study", use);
    s->design = (MtDesignKind)d;
    if (d != MT_DESIGN_LHS) return n == 3 ? MT_OK : usage(err, "study", use);
    double v, seed = 1;
    if ((n != 4 && n != 6) || !number(t[3], &v) || v < 1 || v > MT_STUDY_LEVELS || v != floor(v)) return usage(err, "study", use);
    if (n == 6 && (strcmp(t[4], "seed") || !number(t[5], &seed) || seed < 0 || seed != floor(seed) || seed > 4e9))
        return usage(err, "study", use);
    s->samples = (int)v;
    s->seed = (unsigned long)seed;
    return MT_OK;
}

/* study variable NAME levels V … [unit U] | range LO HI [count N] [unit U] */
static MtStatus read_variable(MtStudy *s, int n, char *const *t, MtError *err)
{
    const char *use = MT_("study variable: write 'study variable PARAMETER levels V1 V2 … [unit U]' or 'study variable PARAMETER range LO HI [count N] [unit U]'");
    if (n < 5) return usage(err, n > 2 ? t[2] : "study", use);
    const char *name = t[2];
    if (strlen(name) >= MT_NAME_MAX) return mt_error_set(err, MT_ERR_SYNTAX, name, MT_("study variable '%s': the name is too long"), name);
    if (find_var(s, name) >= 0) return mt_error_set(err, MT_ERR_SYNTAX, name, MT_("study variable '%s' is defined twice"), name);
    if (s->nvar >= MT_STUDY_VARS) return mt_error_set(err, MT_ERR_SYNTAX, name, MT_("study: at most %d variables"), MT_STUDY_VARS);
    MtStudyVar v = {0};
    snprintf(v.name, sizeof v.name, "%s", name);
    int end = n;
    if (n >= 6 && !strcmp(t[n - 2], "unit")) {
        if (strlen(t[n - 1]) >= MT_STUDY_UNIT) return usage(err, name, use);
        snprintf(v.unit, sizeof v.unit, "%s", t[n - 1]);
        end = n - 2;
    }
    if (!strcmp(t[3], "levels")) {
        v.nlevel = end - 4;
        if (v.nlevel < 1 || v.nlevel > MT_STUDY_LEVELS) return usage(err, name, use);
        v.level = malloc(sizeof(double) * (size_t)v.nlevel);
        if (!v.level) return mt_error_set(err, MT_ERR_NOMEM, name, "%s", MT_("out of memory"));
        for (int i = 0; i < v.nlevel; i++)
            if (!number(t[4 + i], &v.level[i])) {
                free(v.level);
                return mt_error_set(err, MT_ERR_SYNTAX, name, MT_("study variable '%s': '%s' is not a number"), name, t[4 + i]);
            }
    } else if (!strcmp(t[3], "range")) {
        double c = 0;
        v.is_range = 1;
        if ((end != 6 && end != 8) || !number(t[4], &v.lo) || !number(t[5], &v.hi)) return usage(err, name, use);
        if (end == 8 && (strcmp(t[6], "count") || !number(t[7], &c) || c < 1 || c > MT_STUDY_LEVELS || c != floor(c)))
            return usage(err, name, use);
        if (!(v.hi >= v.lo)) return mt_error_set(err, MT_ERR_SYNTAX, name, MT_("study variable '%s': the range's end is below its start"), name);
        v.count = (int)c;
    } else return usage(err, name, use);
    s->var[s->nvar++] = v;
    return MT_OK;
}

/* study case V1 V2 … (one value per variable, in the order of the variables) */
static MtStatus read_case(MtStudy *s, int n, char *const *t, MtError *err)
{
    if (s->nvar == 0 || n - 2 != s->nvar)
        return mt_error_set(err, MT_ERR_SYNTAX, "study", MT_("study case: write one value per variable (%d), after the 'study variable' lines"), s->nvar);
    if (s->nrow >= MT_STUDY_LEVELS) return mt_error_set(err, MT_ERR_SYNTAX, "study", MT_("study: at most %d cases in a table"), MT_STUDY_LEVELS);
    double *r = realloc(s->row, sizeof(double) * (size_t)(s->nrow + 1) * (size_t)s->nvar);
    if (!r) return mt_error_set(err, MT_ERR_NOMEM, "study", "%s", MT_("out of memory"));
    s->row = r;
    for (int i = 0; i < s->nvar; i++)
        if (!number(t[2 + i], &r[(size_t)s->nrow * (size_t)s->nvar + (size_t)i]))
            return mt_error_set(err, MT_ERR_SYNTAX, "study", MT_("study case %d: '%s' is not a number"), s->nrow + 1, t[2 + i]);
    s->nrow++;
    return MT_OK;
}

/* The options of a response after its column: at T, from T0, to T1, band F0 F1, resolution DF, tol E. */
static MtStatus read_resp_options(MtStudyResponse *r, int i, int n, char *const *t, const char *use, MtError *err)
{
    int has_at = 0, has_band = 0, has_res = 0, has_tol = 0;
    int psd = r->kind == MT_RESP_PSD_PEAK || r->kind == MT_RESP_PSD_FREQ;
    for (; i < n; i++) {
        double *dst = NULL, *dst2 = NULL;
        if (!strcmp(t[i], "at")) dst = &r->at, has_at = 1;
        else if (!strcmp(t[i], "from")) dst = &r->from;
        else if (!strcmp(t[i], "to")) dst = &r->to;
        else if (!strcmp(t[i], "band")) dst = &r->f0, dst2 = &r->f1, has_band = 1;
        else if (!strcmp(t[i], "resolution") && psd) dst = &r->resolution, has_res = 1;
        else if (!strcmp(t[i], "tol") && r->kind == MT_RESP_SETTLE) dst = &r->tol, has_tol = 1;
        else return usage(err, r->name, use);
        if (i + 1 >= n || !number(t[++i], dst)) return usage(err, r->name, use);
        if (dst2 && (i + 1 >= n || !number(t[++i], dst2))) return usage(err, r->name, use);
    }
    if ((r->kind == MT_RESP_VALUE) != has_at) return usage(err, r->name, use);
    if (psd != has_band || (r->kind == MT_RESP_SETTLE) != has_tol) return usage(err, r->name, use);
    if ((has_res && !(r->resolution > 0)) || (has_tol && !(r->tol > 0)))
        return mt_error_set(err, MT_ERR_SYNTAX, r->name, MT_("study response '%s': the resolution and the tolerance must be positive"), r->name);
    if (!(r->to > r->from)) return mt_error_set(err, MT_ERR_SYNTAX, r->name, MT_("study response '%s': the time window is empty"), r->name);
    if (has_band && !(r->f1 > r->f0 && r->f0 >= 0)) return mt_error_set(err, MT_ERR_SYNTAX, r->name, MT_("study response '%s': the band is empty"), r->name);
    return MT_OK;
}

/* study response NAME KIND COLUMN [options] | NAME expr {EXPRESSION} */
static MtStatus read_response(MtStudy *s, int n, char *const *t, MtError *err)
{
    const char *use = MT_("study response: write 'study response NAME value COLUMN at T', 'NAME min|max|mean|rms COLUMN [from T0] [to T1]', 'NAME psd_peak|psd_freq COLUMN band F0 F1 [resolution DF] [from T0] [to T1]', 'NAME settle COLUMN tol E [from T0] [to T1]' or 'NAME expr {EXPRESSION}'");
    if (n < 5) return usage(err, n > 2 ? t[2] : "study", use);
    const char *name = t[2];
    if (strlen(name) >= MT_NAME_MAX || !mt_plot_name_ok(name))
        return mt_error_set(err, MT_ERR_SYNTAX, name, MT_("study response '%s': a name of letters, digits, '_', '.' or '-'"), name);
    for (int i = 0; i < s->nresp; i++)
        if (!strcmp(s->resp[i].name, name)) return mt_error_set(err, MT_ERR_SYNTAX, name, MT_("study response '%s' is defined twice"), name);
    if (s->nresp >= MT_STUDY_RESPONSES) return mt_error_set(err, MT_ERR_SYNTAX, name, MT_("study: at most %d responses"), MT_STUDY_RESPONSES);
    int k = mt_study_resp_kind_from_name(t[3]);
    if (k < 0) return usage(err, name, use);
    MtStudyResponse r = {.kind = (MtRespKind)k, .to = INFINITY};
    snprintf(r.name, sizeof r.name, "%s", name);
    if (k == MT_RESP_EXPR) {
        size_t len = strlen(t[4]);
        if (n != 5 || t[4][0] != '{' || len < 3 || len - 2 >= MT_EXPR_MAX) return usage(err, name, use);
        memcpy(r.expr, t[4] + 1, len - 2);
        r.expr[len - 2] = 0;
    } else {
        if (!mt_plot_name_ok(t[4]))
            return mt_error_set(err, MT_ERR_SYNTAX, name, MT_("study response '%s': '%s' is not a result column"), name, t[4]);
        snprintf(r.column, sizeof r.column, "%s", t[4]);
        if (read_resp_options(&r, 5, n, t, use, err)) return err->code;
    }
    s->resp[s->nresp++] = r;
    return MT_OK;
}

/* The optimiser's settings when a study names none. */
static void opt_defaults(MtStudy *s)
{
    if (!s->maxeval) s->maxeval = 50;
    if (!(s->xtol > 0)) s->xtol = 1e-6;
}

/* study objective minimize|maximize RESPONSE */
static MtStatus read_objective(MtStudy *s, int n, char *const *t, MtError *err)
{
    const char *use = MT_("study objective: write 'study objective minimize RESPONSE' or 'study objective maximize RESPONSE'");
    if (n != 4 || (strcmp(t[2], "minimize") && strcmp(t[2], "maximize")) || strlen(t[3]) >= MT_NAME_MAX) return usage(err, "study", use);
    if (s->optimize) return mt_error_set(err, MT_ERR_SYNTAX, "study", "%s", MT_("study: the objective is given twice"));
    s->optimize = 1;
    s->maximize = !strcmp(t[2], "maximize");
    snprintf(s->objective, sizeof s->objective, "%s", t[3]);
    opt_defaults(s);
    return MT_OK;
}

/* study constraint RESPONSE <=|>= VALUE */
static MtStatus read_constraint(MtStudy *s, int n, char *const *t, MtError *err)
{
    const char *use = MT_("study constraint: write 'study constraint RESPONSE <= VALUE' or 'study constraint RESPONSE >= VALUE'");
    MtStudyConstraint c = {0};
    if (n != 5 || (strcmp(t[3], "<=") && strcmp(t[3], ">=")) || strlen(t[2]) >= MT_NAME_MAX || !number(t[4], &c.bound))
        return usage(err, "study", use);
    if (s->ncons >= MT_STUDY_CONSTRAINTS) return mt_error_set(err, MT_ERR_SYNTAX, "study", MT_("study: at most %d constraints"), MT_STUDY_CONSTRAINTS);
    snprintf(c.resp, sizeof c.resp, "%s", t[2]);
    c.ge = !strcmp(t[3], ">=");
    s->cons[s->ncons++] = c;
    return MT_OK;
}

/* study optimizer cobyla [maxeval N] [xtol E] */
static MtStatus read_optimizer(MtStudy *s, int n, char *const *t, MtError *err)
{
    const char *use = MT_("study optimizer: write 'study optimizer cobyla [maxeval N] [xtol E]' (E: a fraction of each variable's range, below 0.5)");
    if (n < 3 || strcmp(t[2], "cobyla")) return usage(err, "study", use);
    int maxeval = 0;
    double xtol = 0;
    for (int i = 3; i < n; i += 2) {
        double v;
        if (i + 1 >= n || !number(t[i + 1], &v)) return usage(err, "study", use);
        if (!strcmp(t[i], "maxeval") && v >= 1 && v <= MT_STUDY_MAXEVAL && v == floor(v)) maxeval = (int)v;
        else if (!strcmp(t[i], "xtol") && v > 0 && v < 0.5) xtol = v;
        else return usage(err, "study", use);
    }
    s->maxeval = maxeval;
    s->xtol = xtol;
    opt_defaults(s);
    return MT_OK;
}

MtStatus mt_study_read(MtStudy *s, int ntok, char *const *tok, MtError *err)
{
    if (ntok >= 2 && !strcmp(tok[1], "objective")) return read_objective(s, ntok, tok, err);
    if (ntok >= 2 && !strcmp(tok[1], "constraint")) return read_constraint(s, ntok, tok, err);
    if (ntok >= 2 && !strcmp(tok[1], "optimizer")) return read_optimizer(s, ntok, tok, err);
    if (ntok >= 2 && !strcmp(tok[1], "design")) return read_design(s, ntok, tok, err);
    if (ntok >= 2 && !strcmp(tok[1], "variable")) return read_variable(s, ntok, tok, err);
    if (ntok >= 2 && !strcmp(tok[1], "case")) return read_case(s, ntok, tok, err);
    if (ntok >= 2 && !strcmp(tok[1], "response")) return read_response(s, ntok, tok, err);
    return usage(err, "study", MT_("study: write 'study design …', 'study variable …', 'study case …', 'study response …', 'study objective …', 'study constraint …' or 'study optimizer …'"));
}

/* ---- writing ------------------------------------------------------------------ */

/* The shortest text that reads back as v. */
static void num_out(FILE *f, double v)
{
    char b[MT_DOUBLE_BUF];
    fprintf(f, " %s", mt_double_str(v, b));
}

void mt_study_write(const MtStudy *s, FILE *f)
{
    if (!s) return;
    if (!s->optimize || s->design != MT_DESIGN_GRID) { /* an optimisation has no design */
        fprintf(f, "study design %s", designs[s->design]);
        if (s->design == MT_DESIGN_LHS) fprintf(f, " %d seed %lu", s->samples, s->seed);
        fputc('\n', f);
    }
    for (int i = 0; i < s->nvar; i++) {
        const MtStudyVar *v = &s->var[i];
        fprintf(f, "study variable %s", v->name);
        if (v->is_range) {
            fprintf(f, " range");
            num_out(f, v->lo);
            num_out(f, v->hi);
            if (v->count) fprintf(f, " count %d", v->count);
        } else {
            fprintf(f, " levels");
            for (int k = 0; k < v->nlevel; k++) num_out(f, v->level[k]);
        }
        if (v->unit[0]) fprintf(f, " unit %s", v->unit);
        fputc('\n', f);
    }
    for (int c = 0; c < s->nrow; c++) {
        fprintf(f, "study case");
        for (int i = 0; i < s->nvar; i++) num_out(f, s->row[(size_t)c * (size_t)s->nvar + (size_t)i]);
        fputc('\n', f);
    }
    for (int i = 0; i < s->nresp; i++) {
        const MtStudyResponse *r = &s->resp[i];
        fprintf(f, "study response %s %s", r->name, resp_kinds[r->kind]);
        if (r->kind == MT_RESP_EXPR) {
            fprintf(f, " {%s}\n", r->expr);
            continue;
        }
        fprintf(f, " %s", r->column);
        if (r->kind == MT_RESP_VALUE) fprintf(f, " at"), num_out(f, r->at);
        if (r->kind == MT_RESP_PSD_PEAK || r->kind == MT_RESP_PSD_FREQ) fprintf(f, " band"), num_out(f, r->f0), num_out(f, r->f1);
        if (r->resolution > 0) fprintf(f, " resolution"), num_out(f, r->resolution);
        if (r->kind == MT_RESP_SETTLE) fprintf(f, " tol"), num_out(f, r->tol);
        if (r->kind != MT_RESP_VALUE) {
            if (r->from != 0) fprintf(f, " from"), num_out(f, r->from);
            if (isfinite(r->to)) fprintf(f, " to"), num_out(f, r->to);
        }
        fputc('\n', f);
    }
    if (!s->optimize) return;
    fprintf(f, "study objective %s %s\n", s->maximize ? "maximize" : "minimize", s->objective);
    for (int i = 0; i < s->ncons; i++) {
        fprintf(f, "study constraint %s %s", s->cons[i].resp, s->cons[i].ge ? ">=" : "<=");
        num_out(f, s->cons[i].bound);
        fputc('\n', f);
    }
    fprintf(f, "study optimizer cobyla maxeval %d xtol", s->maxeval);
    num_out(f, s->xtol);
    fputc('\n', f);
}

char *mt_study_text(const MtStudy *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    mt_study_write(s, f);
    if (fclose(f)) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* ---- checking ----------------------------------------------------------------- */

/* Names an expression response may read: the variables, then the responses before it. */
typedef struct {
    const MtStudy *s;
    int upto; /* responses [0, upto) */
} Names;

static int resolve_name(void *user, const char *name, int *slot)
{
    const Names *nm = user;
    int v = find_var(nm->s, name);
    if (v >= 0) {
        *slot = v;
        return 1;
    }
    for (int i = 0; i < nm->upto; i++)
        if (!strcmp(nm->s->resp[i].name, name)) {
            *slot = nm->s->nvar + i;
            return 1;
        }
    return 0;
}

/* An expression response's compiled program: its variables are the case's
 * values (slots 0 … nvar-1) and the responses (slots nvar + i). */
void *mt_study_expr_compile(const MtStudy *s, int r, MtError *err)
{
    Names nm = {s, r};
    MtExprEnv env = {.resolve = resolve_name, .user = &nm};
    int col;
    MtExpr *e = mt_expr_compile(s->resp[r].expr, &env, &col, err);
    if (!e) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        mt_error_set(err, MT_ERR_MODEL, s->resp[r].name, MT_("study response '%s': %s (it may read the variables and the responses above it)"),
                     s->resp[r].name, msg);
    }
    return e;
}

/* The unit a variable's values are in, and the parameter's; NULL units are SI. */
static MtStatus var_units(const MtStudyVar *v, const MtParamSpec *p, const MtUnit **uv, const MtUnit **up, MtError *err)
{
    *up = p->unit[0] ? mt_unit_lookup(p->unit, MT_DIM_ANY) : NULL;
    *uv = v->unit[0] ? mt_unit_lookup(v->unit, MT_DIM_ANY) : *up;
    if (v->unit[0] && !*uv) return mt_error_set(err, MT_ERR_MODEL, v->name, MT_("study variable '%s': unknown unit '%s'"), v->name, v->unit);
    if (p->unit[0] && !*up) *up = NULL; /* a parameter's unit this program does not know: its number is taken as SI */
    if (*uv && *up && (*uv)->dim != (*up)->dim)
        return mt_error_set(err, MT_ERR_MODEL, v->name, MT_("study variable '%s': the unit '%s' does not measure what the parameter's unit '%s' does"),
                            v->name, v->unit, p->unit);
    return MT_OK;
}

/* The objective and constraints name responses; an optimisation has no design and optimises at least one variable. */
static MtStatus check_optimisation(const MtStudy *s, MtError *err)
{
    if (!s->optimize) {
        if (s->ncons || s->maxeval)
            return mt_error_set(err, MT_ERR_MODEL, "study", "%s",
                                MT_("study: constraints and the optimizer need an objective ('study objective minimize RESPONSE')"));
        return MT_OK;
    }
    if (s->design != MT_DESIGN_GRID || s->nrow)
        return mt_error_set(err, MT_ERR_MODEL, "study", "%s", MT_("study: an optimisation has no design: remove the 'study design' and 'study case' lines"));
    if (mt_study_find_response(s, s->objective) < 0)
        return mt_error_set(err, MT_ERR_MODEL, s->objective, MT_("study objective: there is no response '%s'"), s->objective);
    for (int i = 0; i < s->ncons; i++)
        if (mt_study_find_response(s, s->cons[i].resp) < 0)
            return mt_error_set(err, MT_ERR_MODEL, s->cons[i].resp, MT_("study constraint: there is no response '%s'"), s->cons[i].resp);
    int free_vars = 0;
    for (int i = 0; i < s->nvar; i++) free_vars += s->var[i].is_range;
    if (!free_vars)
        return mt_error_set(err, MT_ERR_MODEL, "study", "%s", MT_("study: an optimisation needs a variable with a range to optimise"));
    return MT_OK;
}

MtStatus mt_study_check(const MtStudy *s, const MtModel *m, MtError *err)
{
    if (!s) return MT_OK;
    if (s->nvar == 0) return mt_error_set(err, MT_ERR_MODEL, "study", "%s", MT_("study: no variable (write 'study variable PARAMETER …')"));
    if (s->nresp == 0) return mt_error_set(err, MT_ERR_MODEL, "study", "%s", MT_("study: no response (write 'study response NAME …')"));
    for (int i = 0; i < s->nvar; i++) {
        const MtStudyVar *v = &s->var[i];
        int p = mt_model_find_param(m, v->name);
        if (p < 0) return mt_error_set(err, MT_ERR_MODEL, v->name, MT_("study variable '%s': the model has no parameter '%s'"), v->name, v->name);
        const MtUnit *uv, *up;
        if (var_units(v, &m->param[p], &uv, &up, err)) return err->code;
        if (s->optimize && !(v->is_range ? !v->count : v->nlevel == 1))
            return mt_error_set(err, MT_ERR_MODEL, v->name,
                                MT_("study variable '%s': an optimisation takes a range without count (optimised between its ends) or one level (held there)"),
                                v->name);
        if (v->is_range && !v->count && s->design != MT_DESIGN_LHS && !s->optimize)
            return mt_error_set(err, MT_ERR_MODEL, v->name, MT_("study variable '%s': give the range a count of values (the %s design needs levels)"),
                                v->name, designs[s->design]);
    }
    if (check_optimisation(s, err)) return err->code;
    if (s->design == MT_DESIGN_TABLE && s->nrow == 0)
        return mt_error_set(err, MT_ERR_MODEL, "study", "%s", MT_("study: the table design has no 'study case' line"));
    if (s->design != MT_DESIGN_TABLE && s->nrow)
        return mt_error_set(err, MT_ERR_MODEL, "study", "%s", MT_("study: 'study case' lines need 'study design table'"));
    for (int r = 0; r < s->nresp; r++)
        if (s->resp[r].kind == MT_RESP_EXPR) {
            MtExpr *e = mt_study_expr_compile(s, r, err);
            if (!e) return err->code;
            mt_expr_free(e);
        }
    return mt_study_ncases(s, err) < 0 ? err->code : MT_OK;
}

/* ---- cases -------------------------------------------------------------------- */

/* Values a variable takes in a grid or one-at-a-time design. */
static int var_levels(const MtStudyVar *v) { return v->is_range ? v->count : v->nlevel; }

static double var_level(const MtStudyVar *v, int k)
{
    if (!v->is_range) return v->level[k];
    if (v->count < 2) return 0.5 * (v->lo + v->hi);
    return v->lo + (v->hi - v->lo) * (double)k / (double)(v->count - 1);
}

int mt_study_ncases(const MtStudy *s, MtError *err)
{
    double n = 0;
    if (s->optimize) return s->maxeval > 0 ? s->maxeval : 1;
    switch (s->design) {
    case MT_DESIGN_GRID:
        n = s->nvar ? 1 : 0;
        for (int i = 0; i < s->nvar; i++) n *= var_levels(&s->var[i]);
        break;
    case MT_DESIGN_LHS: n = s->samples; break;
    case MT_DESIGN_TABLE: n = s->nrow; break;
    case MT_DESIGN_OAT:
        n = s->nvar ? 1 : 0;
        for (int i = 0; i < s->nvar; i++) n += var_levels(&s->var[i]) - 1;
        break;
    }
    if (n < 1) return mt_error_set(err, MT_ERR_MODEL, "study", "%s", MT_("study: the design has no case")), -1;
    if (n > 1e6) return mt_error_set(err, MT_ERR_MODEL, "study", MT_("study: the design has %.0f cases, more than 1000000"), n), -1;
    return (int)n;
}

/* splitmix64: a small generator whose sequence is the same on every machine. */
static uint64_t next_random(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double uniform(uint64_t *x) { return (double)(next_random(x) >> 11) * 0x1.0p-53; }

/* Latin hypercube: for every variable a random permutation of the n strata
 * and a random point in each; a list variable takes the level its point
 * falls on. The whole plan is drawn again for each case (cheap, and the
 * cases stay independent of the order they are asked for). */
static MtStatus lhs_case(const MtStudy *s, int c, double *values, MtError *err)
{
    int n = s->samples;
    int *perm = malloc(sizeof(int) * (size_t)n);
    if (!perm) return mt_error_set(err, MT_ERR_NOMEM, "study", "%s", MT_("out of memory"));
    uint64_t x = (uint64_t)s->seed * 0x2545F4914F6CDD1Dull + 1;
    for (int i = 0; i < s->nvar; i++) {
        for (int k = 0; k < n; k++) perm[k] = k;
        for (int k = n - 1; k > 0; k--) { /* Fisher–Yates */
            int j = (int)(next_random(&x) % (uint64_t)(k + 1));
            int t = perm[k];
            perm[k] = perm[j];
            perm[j] = t;
        }
        double u = 0;
        for (int k = 0; k <= c; k++) u = uniform(&x); /* the point in case c's stratum */
        for (int k = c + 1; k < n; k++) (void)next_random(&x);
        double q = ((double)perm[c] + u) / (double)n; /* in [0, 1) */
        const MtStudyVar *v = &s->var[i];
        if (v->is_range) values[i] = v->lo + q * (v->hi - v->lo);
        else {
            int k = (int)(q * v->nlevel);
            values[i] = v->level[k < v->nlevel ? k : v->nlevel - 1];
        }
    }
    free(perm);
    return MT_OK;
}

MtStatus mt_study_case(const MtStudy *s, int c, double *values, MtError *err)
{
    int n = mt_study_ncases(s, err);
    if (n < 0) return err->code;
    if (c < 0 || c >= n) return mt_error_set(err, MT_ERR_ARG, "study", MT_("study: there is no case %d (cases 0 … %d)"), c, n - 1);
    if (s->optimize)
        return mt_error_set(err, MT_ERR_ARG, "study", MT_("study: case %d of an optimisation is chosen by the optimiser, not by a design"), c);
    switch (s->design) {
    case MT_DESIGN_GRID: /* the first variable varies slowest */
        for (int i = s->nvar - 1; i >= 0; i--) {
            int nl = var_levels(&s->var[i]);
            values[i] = var_level(&s->var[i], c % nl);
            c /= nl;
        }
        return MT_OK;
    case MT_DESIGN_LHS: return lhs_case(s, c, values, err);
    case MT_DESIGN_TABLE:
        memcpy(values, s->row + (size_t)c * (size_t)s->nvar, sizeof(double) * (size_t)s->nvar);
        return MT_OK;
    case MT_DESIGN_OAT: /* case 0: every variable at its middle level; then each variable over its other levels */
        for (int i = 0; i < s->nvar; i++) values[i] = var_level(&s->var[i], (var_levels(&s->var[i]) - 1) / 2);
        c--;
        for (int i = 0; i < s->nvar && c >= 0; i++) {
            int nl = var_levels(&s->var[i]), mid = (nl - 1) / 2;
            if (c < nl - 1) values[i] = var_level(&s->var[i], c < mid ? c : c + 1);
            c -= nl - 1;
        }
        return MT_OK;
    }
    return MT_OK;
}

MtStatus mt_study_apply(const MtStudy *s, MtModel *m, const double *values, MtError *err)
{
    for (int i = 0; i < s->nvar; i++) {
        const MtStudyVar *v = &s->var[i];
        int p = mt_model_find_param(m, v->name);
        if (p < 0) return mt_error_set(err, MT_ERR_MODEL, v->name, MT_("study variable '%s': the model has no parameter '%s'"), v->name, v->name);
        const MtUnit *uv, *up;
        if (var_units(v, &m->param[p], &uv, &up, err)) return err->code;
        double si = uv ? mt_unit_to_si(uv, values[i]) : values[i];
        double in_param = up ? mt_unit_from_si(up, si) : si;
        char expr[MT_DOUBLE_BUF], unit[sizeof m->param[p].unit];
        mt_double_str(in_param, expr);
        snprintf(unit, sizeof unit, "%s", m->param[p].unit);
        if (mt_model_add_param(m, v->name, expr, unit, err) < 0) return err->code;
    }
    return mt_model_eval_params(m, err);
}

/* ---- the text of a stored study ------------------------------------------------- */

MtStatus mt_study_read_text(MtStudy *s, const char *text, MtError *err)
{
    char *buf = strdup(text ? text : "");
    char **tok = NULL;
    if (!buf) return mt_error_set(err, MT_ERR_NOMEM, "study", "%s", MT_("out of memory"));
    MtStatus rc = MT_OK;
    int cap = 0;
    for (char *line = buf, *next; line && !rc; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        int n = 0;
        for (char *c = line; *c && !rc;) { /* words, {expressions with spaces}; # starts a comment */
            while (*c == ' ' || *c == '\t' || *c == '\r') c++;
            if (!*c || *c == '#') break;
            if (n == cap) {
                char **t = realloc(tok, sizeof(char *) * (size_t)(cap = cap ? 2 * cap : 64));
                if (!t) { rc = mt_error_set(err, MT_ERR_NOMEM, "study", "%s", MT_("out of memory")); break; }
                tok = t;
            }
            tok[n++] = c;
            char *e = *c == '{' ? strchr(c, '}') : NULL;
            c = e ? e + 1 : c + strcspn(c, " \t\r");
            if (*c) *c++ = 0;
        }
        if (!rc && n) rc = strcmp(tok[0], "study") ? mt_error_set(err, MT_ERR_SYNTAX, "study", MT_("study: '%s' is not a study statement"), tok[0])
                                                   : mt_study_read(s, n, tok, err);
    }
    free(tok);
    free(buf);
    return rc;
}
