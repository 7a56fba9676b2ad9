/* mt_controls.c — control channels (PID, first- and second-order lags) whose
 * states are integrated with the mechanics (their names, parameters and
 * defaults are the model's: mt_catalogue.c). The runtime stage reads its
 * inputs from the channels of mt_forces.c and writes its outputs back into
 * them, so actuators can use them in the same evaluation. */
#include <stdlib.h>
#include <string.h>

#include "mt_controls.h"
#include "mt_expr.h"
#include "mt_forces.h"
#include "mt_i18n.h"
#include "mt_kin.h"

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
