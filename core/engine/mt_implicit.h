/* mt_implicit.h — internal interface between the integrators: mt_integrate.c
 * (RK4, Dormand–Prince, the driver mt_run and the frame helpers below),
 * mt_implicit.c (implicit Euler, Park, HHT-α, generalised-α) and mt_adams.c
 * (variable-order Adams–Bashforth–Moulton). Not part of the public API. */
#ifndef MT_IMPLICIT_H
#define MT_IMPLICIT_H

#include "mt_integrate.h"

/* The first-order system y = (q, u): nq = 7·nbody, nu = 6·nbody, n = nq + nu. */
typedef struct {
    MtState *st;
    int nq, nu, n;
} MtOde;

/* Writes y into the state after an accepted step: renormalises the
 * quaternions (in y too), applies the optional projections of the solver
 * settings (y updated) and commits the joint coordinates (angles count turns). */
MtStatus mt_ode_settle(MtOde *o, double t, double *y, const MtSolverSpec *sv, MtError *err);

/* Hands the frame at (t, y) to fn. need_eval = 0 when the last mt_eval was at
 * exactly this (t, y), so that st->acc, lambda, g and gd already match. */
MtStatus mt_ode_emit(MtOde *o, double t, const double *y, MtFrameFn fn, void *user, MtRunStats *stats, int *stop,
                     int need_eval, MtError *err);

/* After an accepted step from (ta, ya, da) to (tb, y) with f(tb, y) in db (the
 * state evaluated at y last): if an event falls in between (located on the
 * cubic Hermite interpolant of the step), moves y to its time, carries it
 * out, emits a frame there and returns 1 with *tb the event time and db the
 * derivative after the event (*rc says whether that went well); else returns
 * 0. ye, scratch: n doubles each. */
int mt_ode_step_events(MtOde *o, double ta, const double *ya, const double *da, double *tb, double *y, double *db,
                       const MtSolverSpec *sv, MtFrameFn fn, void *user, MtRunStats *stats, int *stop, MtError *err,
                       double *ye, double *scratch, MtStatus *rc);

/* Fixed-step implicit methods (sv->method EULER_IMPLICIT, PARK, HHT, GALPHA)
 * from the assembled state y at o->st->t to sv->until (mt_implicit.c). */
MtStatus mt_run_implicit(MtOde *o, double *y, const MtSolverSpec *sv, MtFrameFn fn, void *user,
                         const volatile int *cancel, MtRunStats *stats, MtError *err);

/* Variable-order, variable-step Adams–Bashforth–Moulton with the state
 * settled (projected) after every step, history kept (mt_adams.c). */
MtStatus mt_run_adams(MtOde *o, double *y, const MtSolverSpec *sv, MtFrameFn fn, void *user,
                      const volatile int *cancel, MtRunStats *stats, MtError *err);

#endif
