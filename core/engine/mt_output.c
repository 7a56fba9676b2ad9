/* mt_output.c — result columns and CSV output (docs/model-format.md, section
 * "Result columns", lists them and their frames). */
#include "motus/results.h"

#include <stdlib.h>
#include <string.h>

#include "mt_forces.h"
#include "mt_i18n.h"
#include "mt_expr.h"
#include "mt_flex.h"
#include "mt_flexmodel.h"
#include "mt_kin.h"
#include "mt_rail.h"
#include "mt_sensors.h"

struct MtCsv {
    const MtSystem *sys;
    FILE *f;
    int ncol;
    char (*name)[MT_NAME_MAX + 16]; /* ColName */
    double *val;
    double *angle_prev, *angle_turns; /* per joint, for continuous angles */
    int first;
    int nbase;       /* columns before the sensors */
    MtExpr **sexpr;  /* per sensor: compiled expression of EXPR sensors */
    double *vars;    /* scratch: columns then parameters, read by sensor expressions */
};

typedef struct {
    const MtCsv *c;
    int limit; /* columns a sensor expression may read: those before it */
} Resolver;

static int resolve_col(void *user, const char *name, int *slot)
{
    const Resolver *r = user;
    const MtModel *m = r->c->sys->model;
    for (int k = 0; k < r->limit; k++)
        if (!strcmp(r->c->name[k], name)) { *slot = k; return 1; }
    int p = mt_model_find_param(m, name);
    if (p >= 0) { *slot = r->c->ncol + p; return 1; }
    if (!strcmp(name, "t")) { *slot = 0; return 1; }
    return 0;
}

static const char *const body_cols[] = {"x", "y", "z", "q0", "q1", "q2", "q3", "vx", "vy", "vz",
                                        "wx", "wy", "wz", "ax", "ay", "az", "ex", "ey", "ez"};
static const char *const joint_cols[] = {"Fx", "Fy", "Fz", "Tx", "Ty", "Tz", "Fx_m", "Fy_m", "Fz_m", "Tx_m", "Ty_m", "Tz_m"};
#define NBODYCOL 19
#define NJOINTCOL 12

void mt_csv_free(MtCsv *c)
{
    if (!c) return;
    free(c->name);
    free(c->val);
    free(c->angle_prev);
    free(c->angle_turns);
    if (c->sexpr)
        for (int k = 0; k < c->sys->model->nsensor; k++) mt_expr_free(c->sexpr[k]);
    free(c->sexpr);
    free(c->vars);
    free(c);
}

/* Column names of a run of m whose flexible body i has nmode[i] modal
 * coordinates, in the order mt_frame_values computes them (the sensors last,
 * from *nbase on): with name NULL only counted. The one spelling of the
 * columns, for the CSV writer and for mt_output_columns. */
typedef char ColName[MT_NAME_MAX + 16];

static int column_names(const MtModel *m, const int *nmode, ColName *name, int *nbase)
{
    int k = 0;
#define COL(...)                                                                                                       \
    do {                                                                                                               \
        if (name) snprintf(name[k], sizeof name[0], __VA_ARGS__);                                                      \
        k++;                                                                                                           \
    } while (0)
    COL("time");
    for (int b = 0; b < m->nbody; b++)
        for (int j = 0; j < NBODYCOL; j++) COL("%s.%s", m->body[b].name, body_cols[j]);
    for (int j = 0; j < m->njoint; j++) {
        for (int q = 0; q < NJOINTCOL; q++) COL("%s.%s", m->joint[j].name, joint_cols[q]);
        MtJointType t = m->joint[j].type;
        for (int q = 0; q < MT_COORD_NONE; q++)
            if (mt_joint_has_coord(t, (MtCoordKind)q)) COL("%s.%s", m->joint[j].name, mt_coord_name((MtCoordKind)q));
    }
    for (int d = 0; d < m->ndriver; d++) COL("%s.effort", m->driver[d].name);
    for (int g = 0; g < m->ncouple; g++) COL("%s.force", m->couple[g].name);
    for (int sp = 0; sp < m->nspring; sp++) {
        COL("%s.length", m->spring[sp].name);
        COL("%s.rate", m->spring[sp].name);
        COL("%s.force", m->spring[sp].name);
    }
    static const char *const fcols[8] = {"Fx", "Fy", "Fz", "Tx", "Ty", "Tz", "defl", "power"};
    for (int f = 0; f < m->nforce; f++) {
        for (int q = 0; q < 8; q++) COL("%s.%s", m->force[f].name, fcols[q]);
        if (m->force[f].kind == MT_FORCE_WHEELRAIL) {
            for (int w = 0; w < 2; w++)
                for (int q = 0; q < MT_RAIL_WHEEL; q++) COL("%s.%s%c", m->force[f].name, mt_rail_wheel_cols[q], "LR"[w]);
            for (int q = 0; q < 3; q++) COL("%s.%s", m->force[f].name, mt_rail_track_cols[q]);
        }
    }
    for (int q = 0; q < m->ncontrol; q++) {
        COL("%s.out", m->control[q].name);
        COL("%s.in", m->control[q].name);
    }
    COL("system.kinetic");
    COL("system.potential");
    COL("system.energy");
    for (int i = 0; i < m->nflex; i++) { /* flexible bodies: modal coordinates and elastic energy */
        const char *bn = m->body[m->flex[i].body].name;
        for (int j = 0; j < nmode[i]; j++) COL("%s.w%d", bn, j + 1);
        COL("%s.elastic", bn);
    }
    if (nbase) *nbase = k;
    for (int q = 0; q < m->nsensor; q++) COL("%s", m->sensor[q].name);
#undef COL
    return k;
}

char **mt_output_columns(const MtModel *m, int *n, MtError *err)
{
    int *nmode = calloc((size_t)m->nflex + 1, sizeof *nmode);
    if (!nmode) goto nomem;
    for (int i = 0; i < m->nflex; i++) nmode[i] = m->flex[i].data ? m->flex[i].data->body->nmode : 0;
    int k = column_names(m, nmode, NULL, NULL);
    ColName *tmp = calloc((size_t)k, sizeof *tmp);
    if (!tmp) { free(nmode); goto nomem; }
    column_names(m, nmode, tmp, NULL);
    free(nmode);
    size_t bytes = sizeof(char *) * ((size_t)k + 1);
    for (int i = 0; i < k; i++) bytes += strlen(tmp[i]) + 1;
    char **out = malloc(bytes);
    if (!out) { free(tmp); goto nomem; }
    char *p = (char *)(out + k + 1);
    for (int i = 0; i < k; i++) {
        size_t len = strlen(tmp[i]) + 1;
        memcpy(p, tmp[i], len);
        out[i] = p;
        p += len;
    }
    out[k] = NULL;
    free(tmp);
    if (n) *n = k;
    return out;
nomem:
    mt_error_set(err, MT_ERR_NOMEM, "", MT_("out of memory for result columns"));
    return NULL;
}

MtCsv *mt_csv_new(const MtSystem *s, FILE *f, MtError *err)
{
    const MtModel *m = s->model;
    MtCsv *c = calloc(1, sizeof *c);
    if (!c) goto nomem;
    c->sys = s;
    c->f = f;
    c->first = 1;
    int *nmode = calloc((size_t)s->nflex + 1, sizeof *nmode);
    if (!nmode) goto nomem;
    for (int i = 0; i < s->nflex; i++) nmode[i] = s->flex[i].N;
    int n = column_names(m, nmode, NULL, NULL);
    c->name = calloc((size_t)n, sizeof *c->name);
    c->val = calloc((size_t)n, sizeof *c->val);
    c->angle_prev = calloc((size_t)m->njoint + 1, sizeof(double)); /* joints have one angle at most */
    c->angle_turns = calloc((size_t)m->njoint + 1, sizeof(double));
    if (!c->name || !c->val || !c->angle_prev || !c->angle_turns) { free(nmode); goto nomem; }
    int k = column_names(m, nmode, c->name, &c->nbase);
    free(nmode);
    c->ncol = k;
    c->sexpr = calloc((size_t)m->nsensor + 1, sizeof *c->sexpr);
    c->vars = calloc((size_t)(c->ncol + m->nparam) + 1, sizeof(double));
    if (!c->sexpr || !c->vars) goto nomem;
    MtExprTable *tabs = mt_model_expr_tables(m); /* named tables of the model */
    if (!tabs) goto nomem;
    for (int q = 0; q < m->nsensor; q++) {
        if (m->sensor[q].kind != MT_SENSOR_EXPR) continue;
        Resolver r = {c, c->nbase + q};
        MtExprEnv env = {resolve_col, &r, tabs, m->ntable};
        int col = 0;
        MtError e = {0};
        c->sexpr[q] = mt_expr_compile(m->sensor[q].expr, &env, &col, &e);
        if (!c->sexpr[q]) {
            mt_error_set(err, MT_ERR_MODEL, m->sensor[q].name,
                         MT_("sensor '%s': %s (it may read parameters, time and result columns such as crank.wz, pin.Fy or earlier sensors)"),
                         m->sensor[q].name, e.msg);
            free(tabs);
            mt_csv_free(c);
            return NULL;
        }
    }
    free(tabs);
    if (f) {
        for (int i = 0; i < k; i++) fprintf(f, "%s%s", i ? "," : "", c->name[i]);
        fputc('\n', f);
        if (ferror(f)) {
            mt_error_set(err, MT_ERR_IO, "", MT_("cannot write the results file"));
            mt_csv_free(c);
            return NULL;
        }
    }
    return c;
nomem:
    mt_error_set(err, MT_ERR_NOMEM, "", MT_("out of memory for result columns"));
    mt_csv_free(c);
    return NULL;
}

int mt_csv_ncols(const MtCsv *c) { return c->ncol; }
const char *mt_csv_colname(const MtCsv *c, int k) { return (k >= 0 && k < c->ncol) ? c->name[k] : NULL; }

void mt_frame_values(MtCsv *c, const MtState *st, double *v)
{
    const MtSystem *s = c->sys;
    const MtModel *m = s->model;
    int k = 0;
    v[k++] = st->t;
    for (int b = 0; b < m->nbody; b++) {
        double pos[3], vel[3], rc[3], ao[3], t1[3];
        mt_body_origin(st, st->q, st->u, b, pos, vel);
        const double *qb = st->q + 7 * b, *w = st->u + 6 * b + 3, *a = st->acc + 6 * b, *e = a + 3;
        mt_v3_sub(rc, qb, pos); /* origin → centre of mass */
        /* a_o = a_c − ε × rc − ω × (ω × rc) */
        mt_v3_cross(t1, e, rc);
        mt_v3_sub(ao, a, t1);
        mt_v3_cross(t1, w, rc);
        mt_v3_cross(t1, w, t1);
        mt_v3_sub(ao, ao, t1);
        for (int i = 0; i < 3; i++) v[k++] = pos[i];
        for (int i = 0; i < 4; i++) v[k++] = qb[3 + i];
        for (int i = 0; i < 3; i++) v[k++] = vel[i];
        for (int i = 0; i < 3; i++) v[k++] = w[i];
        for (int i = 0; i < 3; i++) v[k++] = ao[i];
        for (int i = 0; i < 3; i++) v[k++] = e[i];
    }
    for (int j = 0; j < m->njoint; j++) {
        double F[3], T[3], Fm[3], Tm[3];
        mt_joint_reaction(st, j, F, T, Fm, Tm);
        for (int i = 0; i < 3; i++) v[k++] = F[i];
        for (int i = 0; i < 3; i++) v[k++] = T[i];
        for (int i = 0; i < 3; i++) v[k++] = Fm[i];
        for (int i = 0; i < 3; i++) v[k++] = Tm[i];
        MtJointType t = m->joint[j].type;
        for (int q = 0; q < MT_COORD_NONE; q++) {
            if (!mt_joint_has_coord(t, (MtCoordKind)q)) continue;
            double x = mt_joint_coord(st, st->q, j, (MtCoordKind)q);
            if (q == MT_COORD_ANGLE) { /* continuous across ±π */
                if (!c->first) {
                    double d = x - c->angle_prev[j];
                    if (d > M_PI) c->angle_turns[j] -= 1;
                    else if (d < -M_PI) c->angle_turns[j] += 1;
                }
                c->angle_prev[j] = x;
                x += 2 * M_PI * c->angle_turns[j];
            }
            v[k++] = x;
        }
    }
    for (int d = 0; d < m->ndriver; d++) v[k++] = mt_driver_effort(st, d);
    for (int g = 0; g < m->ncouple; g++) v[k++] = st->lambda[s->block[m->njoint + m->ndriver + g].row0];
    for (int sp = 0; sp < m->nspring; sp++) {
        double L, Ld, F;
        mt_spring_state(st, st->q, st->u, sp, &L, &Ld, &F);
        v[k++] = L;
        v[k++] = Ld;
        v[k++] = F;
    }
    for (int f = 0; f < m->nforce; f++) {
        for (int q = 0; q < 8; q++) v[k++] = st->fout[MT_FOUT * f + q];
        if (m->force[f].kind == MT_FORCE_WHEELRAIL)
            for (int q = 0; q < MT_RAIL_OUT; q++) v[k++] = st->fout[MT_FOUT * f + 9 + q];
    }
    for (int q = 0; q < m->ncontrol; q++) {
        v[k++] = st->cout[3 * q];
        v[k++] = st->cout[3 * q + 1];
    }
    double T, V;
    mt_energy(st, st->q, st->u, &T, &V);
    v[k++] = T;
    v[k++] = V;
    v[k++] = T + V;
    for (int i = 0; i < s->nflex; i++) {
        const double *w = st->q + 7 * s->nbody + s->flex[i].moff;
        for (int j = 0; j < s->flex[i].N; j++) v[k++] = w[j];
        v[k++] = mt_flex_elastic_energy(st, s->flex[i].body, st->q);
    }
    if (m->nsensor) {
        memcpy(c->vars, v, sizeof(double) * (size_t)k);
        for (int p = 0; p < m->nparam; p++) c->vars[c->ncol + p] = m->param[p].value;
        for (int q = 0; q < m->nsensor; q++) {
            v[k] = c->sexpr[q] ? mt_expr_eval(c->sexpr[q], c->vars) : mt_sensor_value(st, q);
            c->vars[k] = v[k];
            k++;
        }
    }
    c->first = 0;
}

int mt_csv_frame(void *csv, MtState *st)
{
    MtCsv *c = csv;
    mt_frame_values(c, st, c->val);
    if (!c->f) return 0;
    for (int i = 0; i < c->ncol; i++) fprintf(c->f, i ? ",%.17g" : "%.17g", c->val[i]);
    fputc('\n', c->f);
    return ferror(c->f) ? 1 : 0;
}
