/* mt_cvode.c — variable-order (1…12), variable-step Adams–Moulton by SUNDIALS
 * CVODE (CV_ADAMS, serial N_Vector, fixed-point iteration, scalar rtol/atol)
 * on y = (q, u) with the right-hand side mt_deriv.
 *
 * Quaternions: CVODE owns the state and its Nordsieck history, so the
 * quaternions are NOT renormalised inside it. Renormalising and calling
 * CVodeReInit at every output time would restart the method at order 1 with
 * a tiny step each output interval and waste most of its efficiency. Instead
 * the normalisation is left to the evaluation: mt_eval builds the rotation
 * matrices from the normalised quaternion, and ṗ = ½(0,ω)⊗p keeps |p|
 * constant along exact solutions, so |p| only drifts by the integration
 * error (within the tolerances) and the dynamics never see it. Frames and the
 * joint-coordinate bookkeeping (mt_state_commit, after every internal step)
 * get normalised copies. Only when projections are requested (solver
 * `correct`) does the run project the state at each output time and restart
 * CVODE there (CVodeReInit); that is documented as costly.
 *
 * CV_ONE_STEP with CVodeGetDky gives the same frames as CV_NORMAL to each
 * output time (interpolation at exactly t_out), and lets the run commit the
 * joint coordinates and poll cancel after every internal step.
 *
 * Events are CVODE's root functions (CVodeRootInit): t − time for a time
 * event, expression − value for a crossing, with the crossing's direction;
 * CVODE locates a root on its own interpolant to within about
 * 100·ε·max(|t|, |h|) and stops there; the run carries out the event and
 * restarts CVODE from the new state (CVodeReInit). Declared in mt_implicit.h. */
#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <stdlib.h>
#include <string.h>
#include <sundials/sundials_context.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include "mt_events.h"
#include "mt_i18n.h"
#include "mt_implicit.h"
#include "mt_math.h"

typedef struct {
    MtOde *o;
    MtError *err;
    int failed;      /* the right-hand side failed; err holds why */
    char msg[256];   /* CVODE's last error message */
} CvCtx;

static int rhs(sunrealtype t, N_Vector y, N_Vector ydot, void *user)
{
    CvCtx *c = user;
    if (mt_deriv(c->o->st, t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot), c->err)) {
        c->failed = 1;
        return -1; /* unrecoverable: the engine's message says why */
    }
    return 0;
}

/* Root functions of the crossing events; one that has fired, and every time
 * event (CVODE stops at those: cvode_stop), gives a constant 1. */
static int roots(sunrealtype t, N_Vector y, sunrealtype *g, void *user)
{
    CvCtx *c = user;
    MtOde *o = c->o;
    MtState *st = o->st;
    const MtModel *m = st->sys->model;
    int need = 0;
    for (int e = 0; e < m->nevent; e++) need |= !st->efired[e] && m->event[e].trigger == MT_EVENT_CROSSES;
    if (need) { /* the expressions read the channels of an evaluation at (t, y) */
        const double *yy = N_VGetArrayPointer(y);
        if (st->sys->naux) st->zcur = yy + o->nq + o->nu;
        MtStatus rc = mt_eval(st, t, yy, yy + o->nq, c->err);
        st->zcur = st->z;
        if (rc) {
            c->failed = 1;
            return -1;
        }
    }
    const double *yy = N_VGetArrayPointer(y);
    for (int e = 0; e < m->nevent; e++)
        g[e] = st->efired[e] || m->event[e].trigger == MT_EVENT_AT ? 1.0 : mt_event_function(st, e, t, yy, yy + o->nq);
    return 0;
}

/* Where CVODE must stop next: the run's end or the earliest time event not yet
 * carried out after t, so that its state is integrated to that time (a root
 * would give the interpolant's state, and the restart would cost digits). */
static double cvode_stop(const MtState *st, double t, double tend)
{
    const MtModel *m = st->sys->model;
    double ts = tend;
    for (int e = 0; e < m->nevent; e++)
        if (!st->efired[e] && m->event[e].trigger == MT_EVENT_AT && m->event[e].time > t && m->event[e].time < ts)
            ts = m->event[e].time;
    return ts;
}

/* The time events due at t (CVODE stopped there). */
static int time_events_due(const MtState *st, double t, int *found)
{
    const MtModel *m = st->sys->model;
    int any = 0;
    for (int e = 0; e < m->nevent; e++)
        if (!st->efired[e] && m->event[e].trigger == MT_EVENT_AT && m->event[e].time <= t + 1e-12 * fmax(1.0, fabs(t)))
            found[e] = 1, any = 1;
    return any;
}

static void quiet_handler(int code, const char *module, const char *function, char *msg, void *user)
{
    (void)module;
    (void)function;
    CvCtx *c = user;
    if (code < 0) snprintf(c->msg, sizeof c->msg, "%s", msg);
}

/* Copies y into the state with normalised quaternions and commits the joint
 * coordinates (angles keep counting turns). */
static void commit(MtOde *o, double t, const double *y)
{
    MtState *st = o->st;
    memcpy(st->q, y, sizeof(double) * (size_t)o->nq);
    memcpy(st->u, y + o->nq, sizeof(double) * (size_t)o->nu);
    if (st->sys->naux) memcpy(st->z, y + o->nq + o->nu, sizeof(double) * (size_t)st->sys->naux);
    for (int b = 0; b < st->sys->nbody; b++) mt_quat_normalize(st->q + 7 * b + 3);
    st->t = t;
    mt_state_commit(st);
}

/* CVODE's counters restart with CVodeReInit: add them up before. */
static void add_counts(void *cv, MtRunStats *stats)
{
    long netf = 0, ncf = 0, nni = 0;
    CVodeGetNumErrTestFails(cv, &netf);
    CVodeGetNumNonlinSolvConvFails(cv, &ncf);
    CVodeGetNumNonlinSolvIters(cv, &nni);
    stats->rejected += netf + ncf;
    stats->newton += nni;
}

MtStatus mt_run_adams(MtOde *o, double *y, const MtSolverSpec *sv, MtFrameFn fn, void *user,
                      const volatile int *cancel, MtRunStats *stats, MtError *err)
{
    MtState *st = o->st;
    CvCtx ctx = {o, err, 0, ""};
    SUNContext sun = NULL;
    N_Vector yv = NULL, yo = NULL;
    SUNNonlinearSolver nls = NULL;
    void *cv = NULL;
    MtStatus rc = MT_OK;
    double t0 = st->t, t = t0, tend = sv->until, dt = sv->step;
    int stop = 0, project = sv->correct, nev = st->sys->model->nevent;
    long iout = 1, nout = (long)floor((tend - t0) / dt + 1e-9);
    /* the state array y is CVODE's vector; yo holds interpolated frames */
    double *ybuf = malloc(sizeof(double) * (size_t)(o->n + 1));
    int *dir = malloc(sizeof(int) * ((size_t)nev + 1)), *found = malloc(sizeof(int) * ((size_t)nev + 1));
    if (!ybuf || !dir || !found || SUNContext_Create(NULL, &sun) || !(yv = N_VMake_Serial(o->n, y, sun)) ||
        !(yo = N_VMake_Serial(o->n, ybuf, sun)) || !(cv = CVodeCreate(CV_ADAMS, sun)) ||
        !(nls = SUNNonlinSol_FixedPoint(yv, 0, sun))) {
        rc = mt_error_set(err, MT_ERR_NOMEM, "", MT_("out of memory for the integrator"));
        goto done;
    }
    if (CVodeSetErrHandlerFn(cv, quiet_handler, &ctx) || CVodeInit(cv, rhs, t0, yv) ||
        CVodeSStolerances(cv, sv->rtol, sv->atol) || CVodeSetUserData(cv, &ctx) || CVodeSetNonlinearSolver(cv, nls) ||
        CVodeSetStopTime(cv, cvode_stop(st, t0, tend)) || CVodeSetMaxNumSteps(cv, -1)) {
        rc = mt_error_set(err, MT_ERR_SOLVE, "solver", MT_("solver: adams: CVODE could not be set up: %s"), ctx.msg);
        goto done;
    }
    for (int e = 0; e < nev; e++) {
        const MtEventSpec *ev = &st->sys->model->event[e];
        dir[e] = ev->trigger == MT_EVENT_AT ? 1 : ev->direction;
    }
    if (nev && (CVodeRootInit(cv, nev, roots) || CVodeSetRootDirection(cv, dir) || CVodeSetNoInactiveRootWarn(cv))) {
        rc = mt_error_set(err, MT_ERR_SOLVE, "solver", MT_("solver: adams: CVODE could not be set up: %s"), ctx.msg);
        goto done;
    }
    if ((rc = mt_ode_emit(o, t0, y, fn, user, stats, &stop, 1, err))) goto done;
    while (!stop && t < tend && !(cancel && *cancel)) {
        double tprev = t;
        int flag = CVode(cv, tend, yv, &t, CV_ONE_STEP);
        if (flag < 0) {
            if (ctx.failed) rc = (err && err->code) ? err->code : MT_ERR_SOLVE;
            else
                rc = mt_error_set(err, MT_ERR_SOLVE, "solver",
                                  MT_("solver: adams: CVODE failed after t = %.6g s: %s (try other tolerances, or an "
                                      "implicit method if the model is stiff)"),
                                  tprev, ctx.msg);
            goto done;
        }
        int root = flag == CV_ROOT_RETURN;
        if (root && CVodeGetRootInfo(cv, found) < 0) {
            rc = mt_error_set(err, MT_ERR_SOLVE, "solver", MT_("solver: adams: CVODE could not be set up: %s"), ctx.msg);
            goto done;
        }
        if (!root) memset(found, 0, sizeof(int) * (size_t)nev);
        if (flag == CV_TSTOP_RETURN && t < tend && time_events_due(st, t, found)) root = 1;
        commit(o, t, y);
        if (stats && !root) stats->steps++;
        int emitted = 0;
        double tlast = t;
        while (!stop && iout <= nout) {
            double to = t0 + (double)iout * dt;
            if (to > t + 1e-12 * fmax(1.0, fabs(t))) break;
            if (to > t) to = t;
            if (iout % sv->every == 0 || iout == nout) {
                if (CVodeGetDky(cv, to, 0, yo) < 0) {
                    rc = mt_error_set(err, MT_ERR_SOLVE, "solver",
                                      MT_("solver: adams: CVODE failed after t = %.6g s: %s (try other tolerances, or "
                                          "an implicit method if the model is stiff)"),
                                      tprev, ctx.msg);
                    goto done;
                }
                if (project) { /* project the frame, then restart CVODE from it */
                    if ((rc = mt_ode_settle(o, to, ybuf, sv, err))) goto done;
                    emitted = 1;
                    tlast = to;
                }
                if ((rc = mt_ode_emit(o, to, ybuf, fn, user, stats, &stop, 1, err))) goto done;
            }
            iout++;
        }
        if (root && !stop) { /* events at t, y: carry them out, then restart from the state they leave */
            if ((rc = mt_ode_settle(o, t, y, sv, err))) goto done;
            for (int e = 0; e < nev && !stop; e++)
                if (found[e] && !st->efired[e] && (rc = mt_event_apply(st, e, &stop, err))) goto done;
            memcpy(y, st->q, sizeof(double) * (size_t)o->nq); /* the action may have changed the velocities */
            memcpy(y + o->nq, st->u, sizeof(double) * (size_t)o->nu);
            if ((rc = mt_ode_emit(o, t, y, fn, user, stats, &stop, 1, err))) goto done;
            if (stop || t >= tend) break;
            if (stats) add_counts(cv, stats);
            if (CVodeReInit(cv, t, yv) || CVodeSetStopTime(cv, cvode_stop(st, t, tend))) {
                rc = mt_error_set(err, MT_ERR_SOLVE, "solver", MT_("solver: adams: CVODE could not be set up: %s"),
                                  ctx.msg);
                goto done;
            }
            commit(o, t, y);
            continue;
        }
        if (emitted && !stop && tlast < tend) {
            memcpy(y, ybuf, sizeof(double) * (size_t)o->n);
            t = tlast;
            if (stats) add_counts(cv, stats);
            if (CVodeReInit(cv, t, yv) || CVodeSetStopTime(cv, cvode_stop(st, t, tend))) {
                rc = mt_error_set(err, MT_ERR_SOLVE, "solver", MT_("solver: adams: CVODE could not be set up: %s"),
                                  ctx.msg);
                goto done;
            }
            commit(o, t, y);
        }
    }
    /* a final frame at tend if the output grid did not land on it */
    if (!stop && !(cancel && *cancel) && tend - (t0 + (double)nout * dt) > 1e-12 * fmax(1.0, tend)) {
        if (project && (rc = mt_ode_settle(o, t, y, sv, err))) goto done;
        if ((rc = mt_ode_emit(o, t, y, fn, user, stats, &stop, 1, err))) goto done;
    }
done:
    if (cv && stats) add_counts(cv, stats);
    if (cv) CVodeFree(&cv);
    if (nls) SUNNonlinSolFree(nls);
    if (yv) N_VDestroy(yv);
    if (yo) N_VDestroy(yo);
    if (sun) SUNContext_Free(&sun);
    free(ybuf);
    free(dir);
    free(found);
    return rc;
}
