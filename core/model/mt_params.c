/* mt_params.c — named parameters (design variables) and numeric fields bound
 * to expressions of them: storage, field addressing, and evaluation in
 * dependency order with cycles and unknown names reported where they are. Declared in motus/model.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_expr.h"
#include "mt_i18n.h"
#include "motus/model.h"
#include "motus/units.h"

static int grow(void **arr, int *cap, int n, size_t size)
{
    if (n < *cap) return 0;
    int nc = *cap ? 2 * *cap : 8;
    void *p = realloc(*arr, (size_t)nc * size);
    if (!p) return -1;
    *arr = p;
    *cap = nc;
    return 0;
}

int mt_model_find_param(const MtModel *m, const char *name)
{
    for (int i = 0; i < m->nparam; i++)
        if (!strcmp(m->param[i].name, name)) return i;
    return -1;
}

static size_t name_hash(const char *s)
{
    size_t h = 1469598103934665603u; /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

int mt_param_index_find(const MtParamIndex *ix, const MtModel *m, const char *name)
{
    if (!ix->slot) return -1;
    for (size_t h = name_hash(name) & ix->mask;; h = (h + 1) & ix->mask) {
        int v = ix->slot[h];
        if (!v) return -1;
        if (!strcmp(m->param[v - 1].name, name)) return v - 1;
    }
}

static void index_put(MtParamIndex *ix, const MtModel *m, int i)
{
    size_t h = name_hash(m->param[i].name) & ix->mask;
    while (ix->slot[h]) h = (h + 1) & ix->mask;
    ix->slot[h] = i + 1;
    ix->n++;
}

int mt_param_index_add(MtParamIndex *ix, const MtModel *m, int i)
{
    if (!ix->slot || 2 * (size_t)(ix->n + 1) > ix->mask + 1) { /* at most half full */
        size_t size = ix->slot ? 2 * (ix->mask + 1) : 64;
        while (size < 4 * (size_t)(ix->n + 1)) size *= 2;
        int *slot = calloc(size, sizeof *slot);
        if (!slot) return -1;
        MtParamIndex nx = {slot, size - 1, 0};
        if (ix->slot)
            for (size_t k = 0; k <= ix->mask; k++)
                if (ix->slot[k]) index_put(&nx, m, ix->slot[k] - 1);
        free(ix->slot);
        *ix = nx;
    }
    index_put(ix, m, i);
    return 0;
}

int mt_param_index_build(MtParamIndex *ix, const MtModel *m)
{
    *ix = (MtParamIndex){0};
    for (int i = 0; i < m->nparam; i++)
        if (mt_param_index_add(ix, m, i)) return -1;
    return 0;
}

void mt_param_index_free(MtParamIndex *ix)
{
    free(ix->slot);
    *ix = (MtParamIndex){0};
}

static int set_param(MtModel *m, int i, const char *name, const char *expr, const char *unit, MtError *err);

int mt_model_add_param(MtModel *m, const char *name, const char *expr, const char *unit, MtError *err)
{
    return set_param(m, name ? mt_model_find_param(m, name) : -1, name, expr, unit, err);
}

int mt_model_append_param(MtModel *m, const char *name, const char *expr, const char *unit, MtError *err)
{
    return set_param(m, -1, name, expr, unit, err);
}

/* Parameter i (-1: a new one) set to NAME = EXPR [UNIT]. */
static int set_param(MtModel *m, int i, const char *name, const char *expr, const char *unit, MtError *err)
{
    if (!name || !name[0] || strlen(name) >= MT_NAME_MAX || strpbrk(name, ".#\" \t{}")) {
        mt_error_set(err, MT_ERR_MODEL, name ? name : "", MT_("parameter '%s': give it a name without spaces, dots or braces"),
                     name ? name : "");
        return -1;
    }
    if (!expr || strlen(expr) >= MT_EXPR_MAX) {
        mt_error_set(err, MT_ERR_MODEL, name, MT_("parameter '%s': expression missing or longer than %d characters"), name,
                     MT_EXPR_MAX - 1);
        return -1;
    }
    if (unit && unit[0] && !mt_unit_find(unit, NULL, NULL)) {
        mt_error_set(err, MT_ERR_MODEL, name, MT_("parameter '%s': unknown unit '%s'"), name, unit);
        return -1;
    }
    if (i < 0) {
        if (grow((void **)&m->param, &m->cap_param, m->nparam, sizeof *m->param)) {
            mt_error_set(err, MT_ERR_NOMEM, name, "%s", MT_("out of memory"));
            return -1;
        }
        i = m->nparam++;
        memset(&m->param[i], 0, sizeof m->param[i]);
        snprintf(m->param[i].name, sizeof m->param[i].name, "%s", name);
    }
    snprintf(m->param[i].expr, sizeof m->param[i].expr, "%s", expr);
    snprintf(m->param[i].unit, sizeof m->param[i].unit, "%s", unit ? unit : "");
    m->param[i].value = NAN;
    return i;
}

const MtBinding *mt_model_binding(const MtModel *m, MtEntityKind kind, int index, const char *field)
{
    for (int i = 0; i < m->nbinding; i++) {
        const MtBinding *b = &m->binding[i];
        if (b->kind == kind && b->index == index && !strcmp(b->field, field)) return b;
    }
    return NULL;
}

int mt_model_bind(MtModel *m, MtEntityKind kind, int index, const char *field, const char *expr, MtError *err)
{
    if (!mt_model_field(m, kind, index, field)) {
        mt_error_set(err, MT_ERR_ARG, field, MT_("field '%s' cannot hold an expression"), field);
        return -1;
    }
    if (strlen(expr) >= MT_EXPR_MAX) {
        mt_error_set(err, MT_ERR_MODEL, field, MT_("field '%s': expression longer than %d characters"), field, MT_EXPR_MAX - 1);
        return -1;
    }
    MtBinding *b = (MtBinding *)mt_model_binding(m, kind, index, field);
    if (!b) {
        if (grow((void **)&m->binding, &m->cap_binding, m->nbinding, sizeof *m->binding)) {
            mt_error_set(err, MT_ERR_NOMEM, field, "%s", MT_("out of memory"));
            return -1;
        }
        b = &m->binding[m->nbinding++];
        memset(b, 0, sizeof *b);
        b->kind = kind;
        b->index = index;
        snprintf(b->field, sizeof b->field, "%s", field);
    }
    snprintf(b->expr, sizeof b->expr, "%s", expr);
    return (int)(b - m->binding);
}

int mt_model_set_unit(MtModel *m, const char *quantity, const char *unit, MtError *err)
{
    MtDim d = mt_dim_from_name(quantity);
    if (d == MT_DIM_ANY || !mt_unit_lookup(unit, d)) {
        mt_error_set(err, MT_ERR_MODEL, quantity, MT_("display unit: '%s' is not a unit of %s"), unit, quantity);
        return -1;
    }
    for (int i = 0; i < m->nunit; i++)
        if (!strcmp(m->unit[i].quantity, quantity)) {
            snprintf(m->unit[i].unit, sizeof m->unit[i].unit, "%s", unit);
            return i;
        }
    if (grow((void **)&m->unit, &m->cap_unit, m->nunit, sizeof *m->unit)) {
        mt_error_set(err, MT_ERR_NOMEM, quantity, "%s", MT_("out of memory"));
        return -1;
    }
    MtDisplayUnit *u = &m->unit[m->nunit];
    snprintf(u->quantity, sizeof u->quantity, "%s", quantity);
    snprintf(u->unit, sizeof u->unit, "%s", unit);
    return m->nunit++;
}

/* "name.k" → base and component k (−1 without a component). */
static int split(const char *field, char *base, size_t n)
{
    const char *dot = strchr(field, '.');
    size_t len = dot ? (size_t)(dot - field) : strlen(field);
    if (len >= n) return -2;
    memcpy(base, field, len);
    base[len] = 0;
    if (!dot) return -1;
    char *end;
    long k = strtol(dot + 1, &end, 10);
    return (*end || k < 0 || k > 64) ? -2 : (int)k;
}

double *mt_model_field(MtModel *m, MtEntityKind kind, int index, const char *field)
{
    int comp;
    const MtField *sf = mt_schema_find(kind, field, &comp);
    if (sf && (sf->flags & MT_SF_EXPR) && (sf->type == MT_ST_REAL || comp >= 0)) { /* the schema's numbers */
        void *obj = mt_schema_object(m, kind, index);
        return obj ? (double *)MT_SCHEMA_AT(obj, sf) + (comp < 0 ? 0 : comp) : NULL;
    }
    char f[24];
    int k = split(field, f, sizeof f);
    if (k == -2) return NULL;
#define VEC(name, arr, n) if (!strcmp(f, name)) return (k >= 0 && k < (n)) ? &(arr)[k] : NULL
#define SCAL(name, x) if (!strcmp(f, name)) return k < 0 ? &(x) : NULL
    switch (kind) {
    case MT_ENT_BODY: {
        if (index < 0 || index >= m->nbody) return NULL;
        MtBodySpec *b = &m->body[index];
        VEC("orient", b->ori.w, mt_orient_nwords(b->ori.form));
        return NULL;
    }
    case MT_ENT_MARKER:
        if (index < 0 || index >= m->nmarker) return NULL;
        VEC("at", m->marker[index].pos, 3);
        VEC("orient", m->marker[index].ori.w, mt_orient_nwords(m->marker[index].ori.form));
        return NULL;
    case MT_ENT_DRIVER:
        if (index < 0 || index >= m->ndriver) return NULL;
        VEC("coef", m->driver[index].coef, MT_POLY_MAX);
        return NULL;
    case MT_ENT_COUPLE:
        if (index < 0 || index >= m->ncouple) return NULL;
        VEC("coef", m->couple[index].coef, 3);
        return NULL;
    case MT_ENT_INITIAL:
        if (index < 0 || index >= m->ninitial) return NULL;
        SCAL("value", m->initial[index].value);
        SCAL("rate", m->initial[index].rate);
        return NULL;
    case MT_ENT_GRAVITY: VEC("gravity", m->gravity, 3); return NULL;
    case MT_ENT_FORCE: {
        if (index < 0 || index >= m->nforce) return NULL;
        const char *const *names = mt_force_param_names(m->force[index].kind);
        for (int q = 0; names[q]; q++)
            if (!strcmp(f, names[q]) && k < 0) return &m->force[index].p[q];
        return NULL;
    }
    case MT_ENT_SHAPE: {
        if (index < 0 || index >= m->nshape) return NULL;
        MtShapeSpec *s = &m->shape[index];
        VEC("size", s->size, 3);
        VEC("pos", s->pos, 3);
        VEC("end", s->end, 3);
        VEC("orient", s->ori.w, mt_orient_nwords(s->ori.form));
        return NULL;
    }
    case MT_ENT_CONTROL: {
        if (index < 0 || index >= m->ncontrol) return NULL;
        MtControlSpec *c = &m->control[index];
        const char *const *names = mt_control_param_names(c->kind);
        int q = 0;
        for (; names[q]; q++)
            if (!strcmp(f, names[q])) return k < 0 ? &c->p[q] : NULL;
        VEC("limit", c->p + q, 2);
        return NULL;
    }
    case MT_ENT_EVENT:
        if (index < 0 || index >= m->nevent) return NULL;
        SCAL("time", m->event[index].time);
        SCAL("value", m->event[index].value);
        return NULL;
    default: return NULL; /* joints, springs, solver: the schema's rows only */
    }
#undef VEC
#undef SCAL
    return NULL;
}

/* Name of the entity a binding belongs to, for messages. */
static const char *entity_name(const MtModel *m, const MtBinding *b, char *buf, size_t n)
{
    switch (b->kind) {
    case MT_ENT_BODY: return m->body[b->index].name;
    case MT_ENT_MARKER: return mt_model_marker_ref(m, b->index, buf, (int)n);
    case MT_ENT_JOINT: return m->joint[b->index].name;
    case MT_ENT_DRIVER: return m->driver[b->index].name;
    case MT_ENT_SPRING: return m->spring[b->index].name;
    case MT_ENT_COUPLE: return m->couple[b->index].name;
    case MT_ENT_INITIAL: {
        const MtInitialSpec *in = &m->initial[b->index];
        return in->mode ? m->body[in->body].name : m->joint[in->joint].name;
    }
    case MT_ENT_GRAVITY: return "gravity";
    case MT_ENT_FORCE: return m->force[b->index].name;
    case MT_ENT_SHAPE: snprintf(buf, n, MT_("a shape of %s"), mt_model_body_name(m, m->shape[b->index].body)); return buf;
    case MT_ENT_CONTROL: return m->control[b->index].name;
    case MT_ENT_EVENT: return m->event[b->index].name;
    case MT_ENT_FLEX: return m->body[b->index].name;
    default: return "solver";
    }
}

typedef struct {
    const MtModel *m;
    MtParamIndex ix;
} Resolver;

static int resolve_param(void *user, const char *name, int *slot)
{
    const Resolver *r = user;
    int i = mt_param_index_find(&r->ix, r->m, name);
    if (i < 0) return 0;
    *slot = i;
    return 1;
}

/* A driver's law: t and time in slot 0, parameter i in slot 1 + i. */
static int resolve_law(void *user, const char *name, int *slot)
{
    const MtModel *m = user;
    if (!strcmp(name, "t") || !strcmp(name, "time")) return *slot = 0, 1;
    int i = mt_model_find_param(m, name);
    if (i < 0) return 0;
    *slot = 1 + i;
    return 1;
}

MtExpr *mt_model_driver_law(const MtModel *m, int d, MtError *err)
{
    MtExprTable *tabs = mt_model_expr_tables(m);
    if (!tabs) {
        mt_error_set(err, MT_ERR_NOMEM, m->driver[d].name, "%s", MT_("out of memory"));
        return NULL;
    }
    MtExprEnv env = {resolve_law, (void *)m, tabs, m->ntable};
    int col = 0;
    MtError e = {0};
    MtExpr *x = mt_expr_compile(m->driver[d].expr, &env, &col, &e);
    free(tabs);
    if (!x)
        mt_error_set(err, MT_ERR_MODEL, m->driver[d].name,
                     MT_("driver '%s', law: %s (a driver's law may read time t, parameters and tables with "
                         "table(x, NAME) or spline(x, NAME))"),
                     m->driver[d].name, e.msg);
    return x;
}

MtStatus mt_model_eval_params(MtModel *m, MtError *err)
{
    int n = m->nparam;
    MtExpr **ex = calloc((size_t)n + 1, sizeof *ex);
    double *val = calloc((size_t)n + 1, sizeof *val);
    int *state = calloc((size_t)n + 1, sizeof *state), *order = calloc((size_t)n + 1, sizeof *order), *stack = calloc((size_t)n + 1, sizeof *stack);
    MtStatus rc = MT_OK;
    MtExprTable *tabs = mt_model_expr_tables(m); /* parameters may read named tables too */
    Resolver res = {m, {0}};
    MtExprEnv env = {resolve_param, &res, tabs, m->ntable};
    if (!ex || !val || !state || !order || !stack || !tabs || mt_param_index_build(&res.ix, m)) { rc = mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory")); goto done; }
    for (int i = 0; i < n; i++) {
        int col = 0;
        MtError e = {0};
        ex[i] = mt_expr_compile(m->param[i].expr, &env, &col, &e);
        if (!ex[i]) {
            rc = mt_error_set(err, MT_ERR_MODEL, m->param[i].name, MT_("parameter '%s': %s"), m->param[i].name, e.msg);
            goto done;
        }
    }
    /* depth-first topological order; state 1 = on the path, 2 = done */
    int norder = 0;
    for (int root = 0; root < n; root++) {
        if (state[root]) continue;
        int sp = 0;
        stack[sp++] = root;
        state[root] = 1;
        while (sp) {
            int v = stack[sp - 1], next = -1;
            const int *deps;
            int nd = mt_expr_deps(ex[v], &deps);
            for (int d = 0; d < nd; d++) {
                if (state[deps[d]] == 1) {
                    rc = mt_error_set(err, MT_ERR_MODEL, m->param[v].name,
                                      MT_("parameter '%s': its expression depends on itself through '%s'; break the cycle"),
                                      m->param[v].name, m->param[deps[d]].name);
                    goto done;
                }
                if (!state[deps[d]]) { next = deps[d]; break; }
            }
            if (next >= 0) {
                state[next] = 1;
                stack[sp++] = next;
            } else {
                state[v] = 2;
                order[norder++] = v;
                sp--;
            }
        }
    }
    for (int k = 0; k < norder; k++) {
        int i = order[k];
        double f = 1;
        if (m->param[i].unit[0]) mt_unit_find(m->param[i].unit, &f, NULL);
        val[i] = mt_expr_eval(ex[i], val) * f;
        m->param[i].value = val[i];
        if (!isfinite(val[i])) {
            rc = mt_error_set(err, MT_ERR_MODEL, m->param[i].name, MT_("parameter '%s': its value is not a finite number"),
                              m->param[i].name);
            goto done;
        }
    }
    for (int b = 0; b < m->nbinding; b++) {
        const MtBinding *bd = &m->binding[b];
        char buf[2 * MT_NAME_MAX + 2];
        const char *ent = entity_name(m, bd, buf, sizeof buf);
        double *x = mt_model_field(m, bd->kind, bd->index, bd->field);
        int col = 0;
        MtError e = {0};
        MtExpr *x_e = x ? mt_expr_compile(bd->expr, &env, &col, &e) : NULL;
        if (!x_e) {
            rc = mt_error_set(err, MT_ERR_MODEL, ent, MT_("'%s', field %s: %s"), ent, bd->field,
                              x ? e.msg : MT_("no such field"));
            goto done;
        }
        double was = *x;
        *x = mt_expr_eval(x_e, val);
        mt_expr_free(x_e);
        if (bd->kind == MT_ENT_FLEX && *x != was) /* a flexible body's setting changed: its reduction is stale */
            mt_model_flex_invalidate(m, mt_model_body_flex(m, bd->index));
        if (!isfinite(*x)) {
            rc = mt_error_set(err, MT_ERR_MODEL, ent, MT_("'%s', field %s: the expression '%s' is not a finite number"), ent,
                              bd->field, bd->expr);
            goto done;
        }
    }
    /* orientations follow their words; then shapes and mass properties their sizes */
    if (rc == MT_OK && (mt_model_update_orients(m, err) || mt_model_check_shapes(m, err) || mt_model_update_mass_props(m, err)))
        rc = err->code;
done:
    if (ex)
        for (int i = 0; i < n; i++) mt_expr_free(ex[i]);
    free(ex); free(val); free(state); free(order); free(stack); free(tabs);
    mt_param_index_free(&res.ix);
    return rc;
}
