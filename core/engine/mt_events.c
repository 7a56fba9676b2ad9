/* mt_events.c — events during a run: at a time, or when an expression
 * crosses a value (located to 1e-10 s by bisection on the cubic Hermite
 * interpolant of the step), then an action: stop, break or lock a joint,
 * enable or disable a force element, spring, driver or control channel.
 * Breaking, locking and switching drivers change which constraint rows take
 * part in the solve (MtState.rowoff), so the equations are re-formed at once. */
#include <string.h>

#include "mt_events.h"
#include "mt_expr.h"
#include "mt_forces.h"
#include "mt_i18n.h"
#include "mt_integrate.h"
#include "mt_kin.h"

/* f = expression − value after an evaluation at the state (q, u) (channels
 * filled; those that need the solved state are computed here). */
static double efun(MtState *st, int e, const double *q, const double *u)
{
    const MtSystem *s = st->sys;
    const MtEventSpec *ev = &s->model->event[e];
    mt_post_channels(st, q, u);
    return mt_expr_eval(s->cexpr[2 * s->model->ncontrol + e], st->chan) - ev->value;
}

double mt_event_function(MtState *st, int e, double t, const double *q, const double *u)
{
    const MtEventSpec *ev = &st->sys->model->event[e];
    return ev->trigger == MT_EVENT_AT ? t - ev->time : efun(st, e, q, u);
}

static int crosses(const MtEventSpec *ev, double f0, double f1)
{
    if (!isfinite(f0) || !isfinite(f1)) return 0;
    if (ev->direction >= 0 && f0 < 0 && f1 >= 0) return 1;
    if (ev->direction <= 0 && f0 > 0 && f1 <= 0) return 1;
    return 0;
}

void mt_events_sample(MtState *st)
{
    const MtModel *m = st->sys->model;
    for (int e = 0; e < m->nevent; e++)
        if (m->event[e].trigger == MT_EVENT_CROSSES) st->eprev[e] = efun(st, e, st->q, st->u);
}

int mt_events_need_eval(const MtSystem *s)
{
    for (int e = 0; e < s->model->nevent; e++)
        if (s->model->event[e].trigger == MT_EVENT_CROSSES) return 1;
    return 0;
}

static void hermite(int n, double th, double dt, const double *y0, const double *d0, const double *y1, const double *d1,
                    double *y)
{
    double t2 = th * th, t3 = t2 * th;
    double h00 = 2 * t3 - 3 * t2 + 1, h10 = t3 - 2 * t2 + th, h01 = -2 * t3 + 3 * t2, h11 = t3 - t2;
    for (int i = 0; i < n; i++) y[i] = h00 * y0[i] + h10 * dt * d0[i] + h01 * y1[i] + h11 * dt * d1[i];
}

int mt_events_locate(MtState *st, int n, double t0, const double *y0, const double *d0, double t1, const double *y1,
                     const double *d1, double *te, double *ye, double *scratch)
{
    const MtSystem *s = st->sys;
    const MtModel *m = s->model;
    int nq = s->nq, nu = s->nu, best = -1;
    double tbest = t1 + 1;
    /* values at t1: the caller evaluated the state at y1 last (channels hold it) */
    for (int e = 0; e < m->nevent; e++) {
        if (st->efired[e]) continue;
        const MtEventSpec *ev = &m->event[e];
        if (ev->trigger == MT_EVENT_AT) {
            if (ev->time > t0 && ev->time <= t1 + 1e-12 && ev->time < tbest) { tbest = ev->time; best = e; }
            continue;
        }
        st->enext[e] = efun(st, e, y1, y1 + nq);
    }
    for (int e = 0; e < m->nevent; e++) {
        const MtEventSpec *ev = &m->event[e];
        if (st->efired[e] || ev->trigger != MT_EVENT_CROSSES || !crosses(ev, st->eprev[e], st->enext[e])) continue;
        /* bisection on the interpolated motion */
        double a = 0, b = 1, fa = st->eprev[e];
        for (int it = 0; it < 60 && (b - a) * (t1 - t0) > 1e-10; it++) {
            double c = 0.5 * (a + b);
            hermite(n, c, t1 - t0, y0, d0, y1, d1, scratch);
            if (s->naux) st->zcur = scratch + nq + nu;
            mt_eval(st, t0 + c * (t1 - t0), scratch, scratch + nq, NULL);
            st->zcur = st->z;
            double fc = efun(st, e, scratch, scratch + nq);
            if (crosses(ev, fa, fc)) b = c;
            else { a = c; fa = fc; }
        }
        double tc = t0 + b * (t1 - t0);
        if (tc < tbest) { tbest = tc; best = e; }
    }
    if (best < 0) return -1;
    *te = tbest;
    hermite(n, (tbest - t0) / (t1 - t0), t1 - t0, y0, d0, y1, d1, ye);
    return best;
}

MtStatus mt_event_apply(MtState *st, int e, int *stop, MtError *err)
{
    const MtSystem *s = st->sys;
    const MtModel *m = s->model;
    const MtEventSpec *ev = &m->event[e];
    st->efired[e] = 1;
    st->etime[e] = st->t;
    int topology = 0;
    switch (ev->action) {
    case MT_ACTION_STOP: *stop = 1; return MT_OK;
    case MT_ACTION_BREAK: {
        const MtCBlock *b = &s->block[ev->target];
        for (int r = 0; r < b->nrow; r++) st->rowoff[b->row0 + r] = 1;
        topology = 1;
        break;
    }
    case MT_ACTION_LOCK: {
        for (int k = 0; k < s->nblock; k++) {
            const MtCBlock *b = &s->block[k];
            if (b->kind != MT_BLOCK_LOCK || b->src != e) continue;
            /* hold every coordinate at its present (continuous) value */
            mt_stage_bodies(st, st->q);
            mt_state_commit(st);
            for (int r = 0; r < b->nrow; r++) {
                MtTerm tm = b->prim[r].term[0];
                double raw = mt_term_value(st, st->q, &tm);
                st->lockref[b->row0 + r] = raw;
                st->rowoff[b->row0 + r] = 0;
                st->cont[3 * (b->row0 + r)] = raw;
            }
        }
        topology = 1;
        break;
    }
    case MT_ACTION_ENABLE:
    case MT_ACTION_DISABLE: {
        unsigned char off = ev->action == MT_ACTION_DISABLE;
        switch (ev->target_kind) {
        case MT_TARGET_FORCE: st->fdisabled[ev->target] = off; break;
        case MT_TARGET_SPRING: st->sdisabled[ev->target] = off; break;
        case MT_TARGET_CONTROL: st->cdisabled[ev->target] = off; break;
        case MT_TARGET_DRIVER: {
            const MtCBlock *b = &s->block[m->njoint + ev->target];
            st->rowoff[b->row0] = off || s->dep[b->row0];
            topology = 1;
            break;
        }
        default: break;
        }
        break;
    }
    }
    if (topology) {
        for (int r = 0; r < s->nrow; r++) mt_bchol_set_dependent(st->chol, r, st->rowoff[r]);
        /* the new equations hold at once: a plastic impact removes the velocities they forbid */
        MtStatus rc = mt_project_velocities(st, err);
        if (rc) return rc;
    }
    return MT_OK;
}
