/* mt_controls.c — control channels (PID, first- and second-order lags) whose
 * states are integrated with the mechanics, and the model-side registry of
 * controls, events and loop-closure methods. The runtime stage reads its
 * inputs from the channels of mt_forces.c and writes its outputs back into
 * them, so actuators can use them in the same evaluation. */
#include <stdlib.h>
#include <string.h>

#include "mt_controls.h"
#include "mt_expr.h"
#include "mt_forces.h"
#include "mt_i18n.h"
#include "mt_kin.h"

static const char *const kind_names[MT_CONTROL_NKINDS] = {"pid", "lag", "second"};
static const char *const action_names[] = {"stop", "break", "lock", "enable", "disable"};
static const char *const loop_names[] = {"baumgarte", "lagrange", "penalty", "mlf"};

const char *mt_control_kind_name(MtControlKind k) { return (k >= 0 && k < MT_CONTROL_NKINDS) ? kind_names[k] : "?"; }
const char *mt_event_action_name(MtEventAction a) { return (a >= 0 && a <= MT_ACTION_DISABLE) ? action_names[a] : "?"; }
const char *mt_loop_method_name(int m) { return (m >= 0 && m <= MT_LOOPS_MLF) ? loop_names[m] : "?"; }

const char *const *mt_control_param_names(MtControlKind k)
{
    static const char *const pid[] = {"kp", "ki", "kd", "tf", NULL}, *const lag[] = {"k", "tau", NULL},
                             *const sec[] = {"k", "wn", "zeta", NULL};
    return k == MT_CONTROL_PID ? pid : k == MT_CONTROL_LAG ? lag : sec;
}

int mt_control_kind_from_name(const char *s, MtControlKind *k)
{
    for (int i = 0; i < MT_CONTROL_NKINDS; i++)
        if (!strcmp(s, kind_names[i])) { *k = (MtControlKind)i; return 0; }
    return -1;
}

int mt_loop_method_from_name(const char *s, int *m)
{
    for (int i = 0; i <= MT_LOOPS_MLF; i++)
        if (!strcmp(s, loop_names[i])) { *m = i; return 0; }
    return -1;
}

int mt_model_find_control(const MtModel *m, const char *name)
{
    for (int i = 0; i < m->ncontrol; i++)
        if (!strcmp(m->control[i].name, name)) return i;
    return -1;
}

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

static int bad_name(const char *name)
{
    return !name || !name[0] || strlen(name) >= MT_NAME_MAX || strpbrk(name, ".#\" \t{}");
}

int mt_model_add_control(MtModel *m, const char *name, MtControlKind kind, MtError *err)
{
    if (bad_name(name)) {
        mt_error_set(err, MT_ERR_MODEL, name ? name : "", MT_("control '%s': give it a name without spaces, dots or braces"),
                     name ? name : "");
        return -1;
    }
    if (mt_model_find_control(m, name) >= 0 || mt_model_find_param(m, name) >= 0 || mt_model_find_sensor(m, name) >= 0) {
        mt_error_set(err, MT_ERR_MODEL, name, MT_("control '%s': a control, parameter or sensor of that name already exists"), name);
        return -1;
    }
    if (grow((void **)&m->control, &m->cap_control, m->ncontrol, sizeof *m->control)) {
        mt_error_set(err, MT_ERR_NOMEM, name, "%s", MT_("out of memory"));
        return -1;
    }
    MtControlSpec *c = &m->control[m->ncontrol];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->kind = kind;
    if (kind == MT_CONTROL_PID) { c->p[3] = 1e-3; c->p[4] = -INFINITY; c->p[5] = INFINITY; }
    else { c->p[0] = 1; c->p[1] = kind == MT_CONTROL_LAG ? 0.1 : 10; c->p[2] = kind == MT_CONTROL_LAG ? -INFINITY : 0.7;
           c->p[3] = kind == MT_CONTROL_LAG ? INFINITY : -INFINITY; c->p[4] = INFINITY; }
    return m->ncontrol++;
}

int mt_model_add_event(MtModel *m, const char *name, MtError *err)
{
    if (bad_name(name)) {
        mt_error_set(err, MT_ERR_MODEL, name ? name : "", MT_("event '%s': give it a name without spaces, dots or braces"),
                     name ? name : "");
        return -1;
    }
    for (int i = 0; i < m->nevent; i++)
        if (!strcmp(m->event[i].name, name)) {
            mt_error_set(err, MT_ERR_MODEL, name, MT_("event '%s' is defined twice"), name);
            return -1;
        }
    if (grow((void **)&m->event, &m->cap_event, m->nevent, sizeof *m->event)) {
        mt_error_set(err, MT_ERR_NOMEM, name, "%s", MT_("out of memory"));
        return -1;
    }
    MtEventSpec *e = &m->event[m->nevent];
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name);
    e->target = -1;
    return m->nevent++;
}

/* Lower and upper output limits of a control (p indices by kind). */
static void limits(const MtControlSpec *c, double *lo, double *hi)
{
    if (c->kind == MT_CONTROL_PID) { *lo = c->p[4]; *hi = c->p[5]; }
    else if (c->kind == MT_CONTROL_LAG) { *lo = c->p[2]; *hi = c->p[3]; }
    else { *lo = c->p[3]; *hi = c->p[4]; }
}

int mt_control_nstates(MtControlKind k) { return k == MT_CONTROL_LAG ? 1 : 2; }

void mt_stage_controls(MtState *st, const double *z, double *dz)
{
    const MtSystem *s = st->sys;
    const MtModel *m = s->model;
    for (int k = 0; k < m->ncontrol; k++) {
        const MtControlSpec *c = &m->control[k];
        const double *zk = z + s->zoff_control[k];
        double *dk = dz + s->zoff_control[k];
        double in = s->cexpr[2 * k] ? mt_expr_eval(s->cexpr[2 * k], st->chan) : 0, out = 0, lo, hi;
        limits(c, &lo, &hi);
        switch (c->kind) {
        case MT_CONTROL_PID: {
            double sp = s->cexpr[2 * k + 1] ? mt_expr_eval(s->cexpr[2 * k + 1], st->chan) : 0;
            double e = sp - in, d = (e - zk[1]) / c->p[3];
            double raw = c->p[0] * e + c->p[1] * zk[0] + c->p[2] * d;
            out = fmin(hi, fmax(lo, raw));
            /* anti-windup: stop integrating while the output is held at a limit by the error's sign */
            dk[0] = ((raw > hi && e > 0) || (raw < lo && e < 0)) ? 0 : e;
            dk[1] = d;
            break;
        }
        case MT_CONTROL_LAG:
            out = fmin(hi, fmax(lo, zk[0]));
            dk[0] = (c->p[0] * in - zk[0]) / c->p[1];
            break;
        default: {
            double w = c->p[1];
            out = fmin(hi, fmax(lo, zk[0]));
            dk[0] = zk[1];
            dk[1] = w * w * (c->p[0] * in - zk[0]) - 2 * c->p[2] * w * zk[1];
        }
        }
        if (st->cdisabled[k]) {
            out = 0;
            for (int q = 0; q < mt_control_nstates(c->kind); q++) dk[q] = 0;
        }
        st->cout[3 * k] = out;
        st->cout[3 * k + 1] = in;
        st->cout[3 * k + 2] = c->kind == MT_CONTROL_PID ? (s->cexpr[2 * k + 1] ? mt_expr_eval(s->cexpr[2 * k + 1], st->chan) : 0) - in : in;
        for (int q = 0; q < s->nchan; q++) /* later expressions read the output */
            if (s->chan[4 * q] == MT_CH_CONTROL && s->chan[4 * q + 1] == k) st->chan[q] = out;
    }
}

void mt_controls_init(MtState *st, double *z)
{
    const MtSystem *s = st->sys;
    const MtModel *m = s->model;
    if (!m->ncontrol) return;
    /* the derivative filter starts at the error, so there is no kick at t = 0 */
    mt_eval(st, st->t, st->q, st->u, NULL);
    for (int k = 0; k < m->ncontrol; k++)
        if (m->control[k].kind == MT_CONTROL_PID) z[s->zoff_control[k] + 1] = st->cout[3 * k + 2];
}
