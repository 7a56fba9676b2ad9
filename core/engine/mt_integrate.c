/* mt_integrate.c — RK4 and Dormand–Prince 5(4) (dense output after Hairer,
 * Nørsett & Wanner, "Solving ODEs I", §II.6) on y = (q, u); quaternions are
 * renormalised after each step, optional position/velocity projection. The
 * other methods live in mt_implicit.c and mt_adams.c; mt_run dispatches. */
#include "mt_integrate.h"
#include "mt_controls.h"
#include "mt_events.h"
#include "mt_implicit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_i18n.h"
#include "mt_math.h"

#if defined(__SSE2__)
#include <xmmintrin.h>
#define MT_HAVE_MXCSR 1
#endif

typedef MtOde Ode;

static MtStatus deriv(Ode *o, double t, const double *y, double *dy, MtError *err)
{
    return mt_deriv(o->st, t, y, dy, err);
}

/* One evaluation into dy; the body pass writes q̇ (MtState.dq). stage: an
 * inner stage of a step, whose side results in st (acc, R, f, g, …) nobody
 * reads before the next full evaluation: with only gravity acting, the
 * accelerations go straight into dy, not through st->acc (MtState.lean.stage). */
static inline __attribute__((always_inline)) MtStatus deriv_into(MtState *st, double t, const double *y, double *dy,
                                                                 int stage, MtError *err)
{
    const MtSystem *s = st->sys;
    int nq = s->nq, nu = s->nu;
    const double *q = y, *u = y + nq;
    if (s->naux) st->zcur = y + nq + nu; /* control and loop states follow q and u */
    double *acc = st->acc;
    stage = stage && mt_gravity_only(s);
    if (stage) {
        st->acc = dy + nq;
        st->lean.stage = 1;
    }
    st->dq = dy;
    MtStatus rc = mt_eval(st, t, q, u, err);
    st->dq = NULL;
    st->acc = acc;
    st->lean.stage = 0;
    st->zcur = st->z;
    if (rc) return rc;
    for (int i = 0; i < s->nmodal; i++) dy[7 * s->nbody + i] = u[6 * s->nbody + i]; /* ẇ */
    if (!stage) memcpy(dy + nq, st->acc, sizeof(double) * (size_t)nu);
    if (s->naux) memcpy(dy + nq + nu, st->dz, sizeof(double) * (size_t)s->naux);
    return MT_OK;
}

MT_HOT MtStatus mt_deriv(MtState *st, double t, const double *y, double *dy, MtError *err)
{
    return deriv_into(st, t, y, dy, 0, err);
}

/* mt_deriv for an inner stage of a step: st's side results are left stale. */
MT_HOT static MtStatus deriv_stage(Ode *o, double t, const double *y, double *dy, MtError *err)
{
    return deriv_into(o->st, t, y, dy, 1, err);
}

static void normalize_quats(const Ode *o, double *y)
{
    for (int b = 0; b < o->st->sys->nbody; b++) mt_quat_normalize(y + 7 * b + 3);
}

/* mt_ode_settle's checks and normalisation of y, st untouched. */
MT_HOT static MtStatus settle_y(Ode *o, double t, double *y, MtError *err)
{
    MtState *st = o->st;
    if (!mt_all_finite(y, o->nq + o->nu)) /* one test per step, then the culprit */
    for (int i = 0; i < o->nq + o->nu; i++)
        if (!isfinite(y[i])) {
            const MtSystem *sy = st->sys;
            int q7 = 7 * sy->nbody, iu = i < o->nq ? (i < q7 ? 6 * (i / 7) : 6 * sy->nbody + i - q7) : i - o->nq;
            const char *name = sy->model->body[mt_u_body(sy, iu)].name;
            return mt_error_set(err, MT_ERR_SOLVE, name,
                                MT_("body '%s': its motion is not finite at t = %.6g s; the run diverged (reduce the step "
                                    "or check masses and forces)"), name, t);
        }
    normalize_quats(o, y);
    return MT_OK;
}

/* Writes y into the state (t, q, u, z). */
static void put_state(Ode *o, double t, const double *y)
{
    MtState *st = o->st;
    memcpy(st->q, y, sizeof(double) * (size_t)o->nq);
    memcpy(st->u, y + o->nq, sizeof(double) * (size_t)o->nu);
    if (st->sys->naux) memcpy(st->z, y + o->nq + o->nu, sizeof(double) * (size_t)st->sys->naux);
    st->t = t;
}

/* Writes y into the state, applies the optional projections. */
MT_HOT MtStatus mt_ode_settle(Ode *o, double t, double *y, const MtSolverSpec *sv, MtError *err)
{
    MtState *st = o->st;
    MtStatus rc = settle_y(o, t, y, err);
    if (rc) return rc;
    put_state(o, t, y);
    st->proj_dep = st->pivot_reg; /* rows the dynamics holds only compliantly are not projected either */
    if ((sv->correct & MT_CORRECT_POS)) rc = mt_project_positions(st, 1e-12, 5, err);
    if (!rc && (sv->correct & MT_CORRECT_VEL)) rc = mt_project_velocities(st, err);
    st->proj_dep = 0;
    if (sv->correct) {
        memcpy(y, st->q, sizeof(double) * (size_t)o->nq);
        memcpy(y + o->nq, st->u, sizeof(double) * (size_t)o->nu);
    }
    mt_state_commit(st); /* joint angles keep counting turns */
    mt_state_redetect(st);
    return rc;
}

/* Output of the frame at (t, y): evaluates so that acc and lambda match. */
MtStatus mt_ode_emit(Ode *o, double t, const double *y, MtFrameFn fn, void *user, MtRunStats *stats, int *stop,
                     int need_eval, MtError *err)
{
    MtState *st = o->st;
    put_state(o, t, y);
    normalize_quats(o, st->q);
    if (need_eval) {
        MtStatus rc = mt_eval(st, t, st->q, st->u, err);
        if (rc) return rc;
    }
    if (stats) {
        double a = 0, b = 0;
        for (int r = 0; r < st->sys->nrow; r++)
            if (!st->rowoff[r]) { a = fmax(a, fabs(st->g[r])); b = fmax(b, fabs(st->gd[r])); }
        stats->gmax = fmax(stats->gmax, a);
        stats->gdmax = fmax(stats->gdmax, b);
        stats->frames++;
    }
    if (fn && fn(user, st)) *stop = 1;
    return MT_OK;
}

int mt_ode_step_events(Ode *o, double ta, const double *ya, const double *da, double *tb, double *y, double *db,
                       const MtSolverSpec *sv, MtFrameFn fn, void *user, MtRunStats *stats, int *stop, MtError *err,
                       double *ye, double *scratch, MtStatus *rc)
{
    double te;
    int e = mt_events_locate(o->st, o->n, ta, ya, da, *tb, y, db, &te, ye, scratch);
    if (e < 0) return 0;
    memcpy(y, ye, sizeof(double) * (size_t)o->n);
    if ((*rc = mt_ode_settle(o, te, y, sv, err))) return 1;
    if ((*rc = mt_event_apply(o->st, e, stop, err))) return 1;
    memcpy(y, o->st->q, sizeof(double) * (size_t)o->nq); /* the action may have changed the velocities */
    memcpy(y + o->nq, o->st->u, sizeof(double) * (size_t)o->nu);
    if ((*rc = mt_deriv(o->st, te, y, db, err))) return 1;
    mt_events_sample(o->st);
    if ((*rc = mt_ode_emit(o, te, y, fn, user, stats, stop, 0, err))) return 1;
    *tb = te;
    return 1;
}

MT_HOT static MtStatus run_rk4(Ode *o, double *y, const MtSolverSpec *sv, MtFrameFn fn, void *user, const volatile int *cancel,
                        MtRunStats *stats, MtError *err, double *work)
{
    int n = o->n;
    /* k4 goes to k3's array once k2 holds k2 + k3: one array less to keep in the caches */
    double *k1 = work, *k2 = k1 + n, *k3 = k2 + n, *yt = k3 + n;
    double *y0 = yt + n, *d1 = y0 + n, *ye = d1 + n, *sc = ye + n;
    double t0 = o->st->t, h = sv->step;
    long nsteps = (long)ceil((sv->until - t0) / h - 1e-9);
    if (nsteps < 0) nsteps = 0;
    int stop = 0, events = o->st->sys->model->nevent > 0, have_k1 = 0;
    /* st follows y only at frames and at the end when a step needs nothing of it (no
     * projections, turn counting, re-detection, events or integrated states): a copy less */
    const MtSystem *s = o->st->sys;
    int lazy = !events && !sv->correct && !s->commit_kin && !s->nspecial && !s->naux, yok = 1;
    double tset = t0; /* lazy: the time of the last settled y */
    MtStatus rc;
    for (long i = 0;; i++) {
        double t = t0 + i * h;
        int out = i % sv->every == 0 || i == nsteps, cancelled = cancel && *cancel;
        /* k1 at the step start doubles as the output evaluation, and leaves st as the run's
         * end state: an inner stage's evaluation only when neither, nor events, need st */
        if (!have_k1 && (rc = (out || cancelled || events ? deriv : deriv_stage)(o, t, y, k1, err))) goto fail;
        have_k1 = 0;
        if (i == 0 && events) mt_events_sample(o->st);
        if (out && (rc = mt_ode_emit(o, t, y, fn, user, stats, &stop, 0, err))) return rc;
        if (i == nsteps || stop || cancelled) {
            if (lazy && !out) put_state(o, tset, y);
            break;
        }
        double tend = (i == nsteps - 1) ? sv->until : t + h, ts = t;
        for (;;) { /* one grid step, cut at events */
            double hh = tend - ts;
            if (events) {
                memcpy(y0, y, sizeof(double) * (size_t)n);
                memcpy(d1, k1, sizeof(double) * (size_t)n); /* d1 holds f at the sub-step start for now */
            }
            for (int j = 0; j < n; j++) yt[j] = y[j] + 0.5 * hh * k1[j];
            if ((rc = deriv_stage(o, ts + 0.5 * hh, yt, k2, err))) goto fail;
            for (int j = 0; j < n; j++) yt[j] = y[j] + 0.5 * hh * k2[j];
            if ((rc = deriv_stage(o, ts + 0.5 * hh, yt, k3, err))) goto fail;
            for (int j = 0; j < n; j++) {
                yt[j] = y[j] + hh * k3[j];
                k2[j] += k3[j];
            }
            if ((rc = deriv_stage(o, ts + hh, yt, k3, err))) goto fail; /* k4 */
            for (int j = 0; j < n; j++) y[j] += hh / 6 * (k1[j] + 2 * k2[j] + k3[j]);
            if (!events) {
                if (!lazy && (rc = mt_ode_settle(o, tend, y, sv, err))) return rc;
                if (lazy && (rc = settle_y(o, tend, y, err))) {
                    yok = 0;
                    goto fail;
                }
                tset = tend;
                break;
            }
            /* f at the step end: the next step's k1, and the crossing functions there */
            if ((rc = mt_ode_settle(o, tend, y, sv, err))) return rc;
            if ((rc = deriv(o, tend, y, k2, err))) return rc;
            double tb = tend;
            if (!mt_ode_step_events(o, ts, y0, d1, &tb, y, k2, sv, fn, user, stats, &stop, err, ye, sc, &rc)) {
                memcpy(k1, k2, sizeof(double) * (size_t)n);
                mt_events_sample(o->st);
                have_k1 = 1;
                break;
            }
            if (rc) return rc;
            memcpy(k1, k2, sizeof(double) * (size_t)n);
            ts = tb;
            if (stop || tend - ts < 1e-14 * fmax(1.0, fabs(tend))) { have_k1 = 1; break; }
        }
        if (stats) stats->steps++;
        if (stop) break;
    }
    return MT_OK;
fail: /* st as if every step had been settled: the last settled y, or its time when y is not finite */
    if (lazy && yok) put_state(o, tset, y);
    else if (lazy) o->st->t = tset;
    return rc;
}

/* Dormand–Prince 5(4) tableau. */
static const double c2 = 1.0 / 5, c3 = 3.0 / 10, c4 = 4.0 / 5, c5 = 8.0 / 9;
static const double a21 = 1.0 / 5;
static const double a31 = 3.0 / 40, a32 = 9.0 / 40;
static const double a41 = 44.0 / 45, a42 = -56.0 / 15, a43 = 32.0 / 9;
static const double a51 = 19372.0 / 6561, a52 = -25360.0 / 2187, a53 = 64448.0 / 6561, a54 = -212.0 / 729;
static const double a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247, a64 = 49.0 / 176, a65 = -5103.0 / 18656;
static const double a71 = 35.0 / 384, a73 = 500.0 / 1113, a74 = 125.0 / 192, a75 = -2187.0 / 6784, a76 = 11.0 / 84;
static const double e1 = 71.0 / 57600, e3 = -71.0 / 16695, e4 = 71.0 / 1920, e5 = -17253.0 / 339200, e6 = 22.0 / 525,
                    e7 = -1.0 / 40;
static const double d1 = -12715105075.0 / 11282082432.0, d3 = 87487479700.0 / 32700410799.0,
                    d4 = -10690763975.0 / 1880347072.0, d5 = 701980252875.0 / 199316789632.0,
                    d6 = -1453857185.0 / 822651844.0, d7 = 69997945.0 / 29380423.0;

static MtStatus run_dp54(Ode *o, double *y, const MtSolverSpec *sv, MtFrameFn fn, void *user, const volatile int *cancel,
                         MtRunStats *stats, MtError *err, double *work)
{
    int n = o->n;
    double *k1 = work, *k2 = k1 + n, *k3 = k2 + n, *k4 = k3 + n, *k5 = k4 + n, *k6 = k5 + n, *k7 = k6 + n;
    double *yt = k7 + n, *yn = yt + n, *r1 = yn + n, *r2 = r1 + n, *r3 = r2 + n, *r4 = r3 + n, *r5 = r4 + n, *yo = r5 + n;
    double *ye = yo + n, *sc = ye + n;
    int events = o->st->sys->model->nevent > 0;
    double t0 = o->st->t, t = t0, tend = sv->until, dt = sv->step, hmax = sv->hmax > 0 ? sv->hmax : dt;
    int stop = 0;
    long iout = 0, nout = (long)floor((tend - t) / dt + 1e-9);
    MtStatus rc;
    if ((rc = deriv(o, t, y, k1, err))) return rc;
    if (events) mt_events_sample(o->st);
    if ((rc = mt_ode_emit(o, t, y, fn, user, stats, &stop, 0, err))) return rc;
    iout = 1;
    /* initial step (Hairer's heuristic, simplified) */
    double d0 = 0, dd = 0;
    for (int j = 0; j < n; j++) {
        double sc = sv->atol + sv->rtol * fabs(y[j]);
        d0 += (y[j] / sc) * (y[j] / sc);
        dd += (k1[j] / sc) * (k1[j] / sc);
    }
    d0 = sqrt(d0 / n);
    dd = sqrt(dd / n);
    double h = (d0 < 1e-5 || dd < 1e-5) ? 1e-6 : 0.01 * d0 / dd;
    h = fmin(h, fmin(dt, tend - t));
    int reject = 0;
    int pending = -1; /* the event this step was sized to end at (a step redone up to the located time) */
    while (!stop && t < tend - 1e-14 * fmax(1.0, fabs(tend))) {
        if (cancel && *cancel) break;
        h = fmin(h, hmax); /* a step must not jump over an input (a driver's bump, a force's pulse) */
        if (t + h > tend) h = tend - t;
        if (h < 1e-14 * fmax(1.0, fabs(t)))
            return mt_error_set(err, MT_ERR_SOLVE, "solver",
                                MT_("solver: step size fell below %.3g s at t = %.6g s; the motion is too stiff or singular for "
                                    "these tolerances"), h, t);
        for (int j = 0; j < n; j++) yt[j] = y[j] + h * a21 * k1[j];
        if ((rc = deriv_stage(o, t + c2 * h, yt, k2, err))) return rc;
        for (int j = 0; j < n; j++) yt[j] = y[j] + h * (a31 * k1[j] + a32 * k2[j]);
        if ((rc = deriv_stage(o, t + c3 * h, yt, k3, err))) return rc;
        for (int j = 0; j < n; j++) yt[j] = y[j] + h * (a41 * k1[j] + a42 * k2[j] + a43 * k3[j]);
        if ((rc = deriv_stage(o, t + c4 * h, yt, k4, err))) return rc;
        for (int j = 0; j < n; j++) yt[j] = y[j] + h * (a51 * k1[j] + a52 * k2[j] + a53 * k3[j] + a54 * k4[j]);
        if ((rc = deriv_stage(o, t + c5 * h, yt, k5, err))) return rc;
        for (int j = 0; j < n; j++) yt[j] = y[j] + h * (a61 * k1[j] + a62 * k2[j] + a63 * k3[j] + a64 * k4[j] + a65 * k5[j]);
        if ((rc = deriv_stage(o, t + h, yt, k6, err))) return rc;
        for (int j = 0; j < n; j++) yn[j] = y[j] + h * (a71 * k1[j] + a73 * k3[j] + a74 * k4[j] + a75 * k5[j] + a76 * k6[j]);
        if ((rc = deriv(o, t + h, yn, k7, err))) return rc;
        double en = 0;
        for (int j = 0; j < n; j++) {
            double e = h * (e1 * k1[j] + e3 * k3[j] + e4 * k4[j] + e5 * k5[j] + e6 * k6[j] + e7 * k7[j]);
            double sc = sv->atol + sv->rtol * fmax(fabs(y[j]), fabs(yn[j]));
            en += (e / sc) * (e / sc);
        }
        en = sqrt(en / n);
        if (!isfinite(en))
            return mt_error_set(err, MT_ERR_SOLVE, "solver", MT_("solver: the solution became non-finite at t = %.6g s"), t);
        double fac = 0.9 * pow(fmax(en, 1e-10), -0.2);
        if (en > 1.0) {
            h *= fmax(0.2, fac);
            reject = 1;
            pending = -1; /* the shorter step no longer ends at the event */
            if (stats) stats->rejected++;
            continue;
        }
        /* accepted: dense output coefficients, then frames inside (t, t + h] */
        for (int j = 0; j < n; j++) {
            double ydiff = yn[j] - y[j], bspl = h * k1[j] - ydiff;
            r1[j] = y[j];
            r2[j] = ydiff;
            r3[j] = bspl;
            r4[j] = ydiff - h * k7[j] - bspl;
            r5[j] = h * (d1 * k1[j] + d3 * k3[j] + d4 * k4[j] + d5 * k5[j] + d6 * k6[j] + d7 * k7[j]);
        }
        double tn = t + h;
        if (stats) stats->steps++;
        int fired = -1, interpolated = 0;
        double te = tn;
        if (pending >= 0) { /* this step ends at the event: its own state there, to the step's accuracy */
            fired = pending;
            pending = -1;
        } else if (events) { /* the state was evaluated at yn last (k7) */
            fired = mt_events_locate(o->st, n, t, y, k1, tn, yn, k7, &te, ye, sc);
            if (fired >= 0 && te - t > 1e-9 * h && tn - te > 1e-12 * fmax(1.0, fabs(tn))) {
                /* the interpolant is a digit or two less accurate than a step: redo the step up to te */
                pending = fired;
                h = te - t;
                continue;
            }
            if (fired >= 0) tn = te, interpolated = 1; /* frames up to the event only */
        }
        while (!stop && iout <= nout) {
            double to = t0 + iout * dt;
            if (to > tn + 1e-12 * fmax(1.0, fabs(tn))) break;
            if (iout % sv->every == 0 || iout == nout) {
                double th = (to - t) / h, th1 = 1 - th;
                for (int j = 0; j < n; j++) yo[j] = r1[j] + th * (r2[j] + th1 * (r3[j] + th * (r4[j] + th1 * r5[j])));
                if ((rc = mt_ode_emit(o, to, yo, fn, user, stats, &stop, 1, err))) return rc;
            }
            iout++;
        }
        memcpy(y, interpolated ? ye : yn, sizeof(double) * (size_t)n);
        t = tn;
        if ((rc = mt_ode_settle(o, t, y, sv, err))) return rc;
        if (fired >= 0) {
            if ((rc = mt_event_apply(o->st, fired, &stop, err))) return rc;
            memcpy(y, o->st->q, sizeof(double) * (size_t)o->nq);
            memcpy(y + o->nq, o->st->u, sizeof(double) * (size_t)o->nu);
            if ((rc = deriv(o, t, y, k1, err))) return rc;
            mt_events_sample(o->st);
            if ((rc = mt_ode_emit(o, t, y, fn, user, stats, &stop, 0, err))) return rc;
            if (stop) return MT_OK;
        } else if (sv->correct) {
            if ((rc = deriv(o, t, y, k1, err))) return rc;
        } else memcpy(k1, k7, sizeof(double) * (size_t)n); /* FSAL */
        if (events && fired < 0) {
            if (sv->correct) mt_events_sample(o->st);
            else for (int e = 0; e < o->st->sys->model->nevent; e++) o->st->eprev[e] = o->st->enext[e];
        }
        double hn = h * fmin(reject ? 1.0 : 5.0, fmax(0.2, fac));
        reject = 0;
        h = hn;
    }
    /* a final frame at tend if the output grid did not land on it */
    if (!stop && tend - (t0 + nout * dt) > 1e-12 * fmax(1.0, tend) && !(cancel && *cancel)) {
        if ((rc = mt_ode_emit(o, tend, y, fn, user, stats, &stop, 1, err))) return rc;
    }
    return MT_OK;
}

static MtStatus run(MtState *st, const MtSolverSpec *sv, MtFrameFn fn, void *user, const volatile int *cancel,
                    MtRunStats *stats, MtError *err);

/* A run flushes subnormal numbers to zero (and reads them as zero) on its
 * thread: bodies at a long chain's free end turn by less than 1e-300 rad at
 * first, and arithmetic on subnormals is slow; no result of interest lives
 * below 1e-308. The caller's mode is
 * restored when the run ends. */
MtStatus mt_run(MtState *st, const MtSolverSpec *sv, MtFrameFn fn, void *user, const volatile int *cancel,
                MtRunStats *stats, MtError *err)
{
#ifdef MT_HAVE_MXCSR
    unsigned int csr = _mm_getcsr();
    _mm_setcsr(csr | 0x8040u); /* FTZ (bit 15) and DAZ (bit 6) */
    MtStatus rc = run(st, sv, fn, user, cancel, stats, err);
    _mm_setcsr(csr);
    return rc;
#else
    return run(st, sv, fn, user, cancel, stats, err);
#endif
}

MtStatus mt_run_check_length(double t0, double until, double step, const char *what, MtError *err)
{
    double n = (until - t0) / step;
    if (n <= MT_RUN_MAX_STEPS) return MT_OK;
    /* TRANSLATORS: the first %s names the analysis ("solver", "kinematic analysis") */
    return mt_error_set(err, MT_ERR_MODEL, "solver",
                        MT_("%s: from t = %g s to the end time %g s in steps of %g s is %.3g steps, more than the %.0f a run "
                            "may take: set an earlier end time ('until') or a larger step"),
                        what, t0, until, step, n, MT_RUN_MAX_STEPS);
}

void mt_run_singular_note(const MtRunStats *stats, const MtSolverSpec *sv, char *buf, size_t n)
{
    if (!n) return;
    buf[0] = 0;
    if (!stats || stats->regularised <= 0) return;
    int implicit = sv->method == MT_METHOD_EULER_IMPLICIT || sv->method == MT_METHOD_PARK ||
                   sv->method == MT_METHOD_HHT || sv->method == MT_METHOD_GALPHA;
    /* what keeps the accuracy there (docs/integrators.md, "Singular positions") */
    const char *hint = sv->method == MT_METHOD_ADAMS && sv->rtol > 1.5e-11
        ? MT_("; adams keeps eight digits through such positions with rtol 1e-11 or tighter")
        : implicit && (sv->correct & (MT_CORRECT_POS | MT_CORRECT_VEL)) != (MT_CORRECT_POS | MT_CORRECT_VEL)
        ? MT_("; an implicit method keeps its accuracy through such positions only with 'correct both'")
        : "";
    snprintf(buf, n,
             MT_("%ld evaluations were near a singular position (the mechanism momentarily gains a degree of freedom); "
                 "the constraints there were solved as slightly compliant%s"),
             stats->regularised, hint);
}

static MtStatus run(MtState *st, const MtSolverSpec *sv, MtFrameFn fn, void *user, const volatile int *cancel,
                    MtRunStats *stats, MtError *err)
{
    const MtSystem *s = st->sys;
    if (stats) memset(stats, 0, sizeof *stats);
    if (!(sv->step > 0) || !(sv->until >= st->t) || sv->every < 1)
        return mt_error_set(err, MT_ERR_ARG, "solver", MT_("solver: need step > 0, end time ≥ start time and every ≥ 1"));
    /* before anything starts: 'until 1e300' ran for ever */
    MtStatus lrc = mt_run_check_length(st->t, sv->until, sv->step, MT_("solver"), err);
    if (lrc) return lrc;
    Ode o = {st, s->nq, s->nu, s->nq + s->nu + s->naux};
    MtStatus rc = mt_lin_configure(st, sv, err);
    if (!rc) rc = mt_assemble_initial(st, err);
    if (rc) return rc;
    mt_controls_init(st, st->z);
    if (sv->method != MT_METHOD_RK4 && sv->method != MT_METHOD_DP54) {
        /* y = (q, u) is the only array here; the methods allocate their
         * work arrays once, before their step loops */
        double *yv = malloc(sizeof(double) * (size_t)(o.n + 1));
        if (!yv) return mt_error_set(err, MT_ERR_NOMEM, "", MT_("out of memory for the integrator"));
        memcpy(yv, st->q, sizeof(double) * (size_t)o.nq);
        memcpy(yv + o.nq, st->u, sizeof(double) * (size_t)o.nu);
        if (s->naux) memcpy(yv + o.nq + o.nu, st->z, sizeof(double) * (size_t)s->naux);
        long e0 = st->stats.nevals;
        if (sv->method == MT_METHOD_ADAMS) rc = mt_run_adams(&o, yv, sv, fn, user, cancel, stats, err);
        else rc = mt_run_implicit(&o, yv, sv, fn, user, cancel, stats, err);
        if (stats) stats->evals = st->stats.nevals - e0;
    if (stats) stats->regularised = st->stats.nregularised;
        free(yv);
        return rc;
    }
    int nwork = sv->method == MT_METHOD_RK4 ? 9 : 20;
    double *work = calloc((size_t)nwork * (size_t)(o.n + 1), sizeof(double));
    if (!work) return mt_error_set(err, MT_ERR_NOMEM, "", MT_("out of memory for the integrator"));
    double *y = work + (size_t)(nwork - 1) * (size_t)(o.n + 1);
    memcpy(y, st->q, sizeof(double) * (size_t)o.nq);
    memcpy(y + o.nq, st->u, sizeof(double) * (size_t)o.nu);
    if (s->naux) memcpy(y + o.nq + o.nu, st->z, sizeof(double) * (size_t)s->naux);
    long e0 = st->stats.nevals;
    if (sv->method == MT_METHOD_RK4) rc = run_rk4(&o, y, sv, fn, user, cancel, stats, err, work);
    else rc = run_dp54(&o, y, sv, fn, user, cancel, stats, err, work);
    if (stats) stats->evals = st->stats.nevals - e0;
    if (stats) stats->regularised = st->stats.nregularised;
    free(work);
    return rc;
}
