/* mt_implicit.h — internal interface between the integrators: mt_integrate.c
 * (RK4, Dormand–Prince, the driver mt_run and the frame helpers below),
 * mt_implicit.c (implicit Euler, Park, HHT-α, generalised-α) and mt_cvode.c
 * (variable-order Adams by SUNDIALS CVODE). Not part of the public API. */
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

/* Fixed-step implicit methods (sv->method EULER_IMPLICIT, PARK, HHT, GALPHA)
 * from the assembled state y at o->st->t to sv->until (mt_implicit.c). */
MtStatus mt_run_implicit(MtOde *o, double *y, const MtSolverSpec *sv, MtFrameFn fn, void *user,
                         const volatile int *cancel, MtRunStats *stats, MtError *err);

/* Variable-order, variable-step Adams–Moulton by CVODE (mt_cvode.c). */
MtStatus mt_run_adams(MtOde *o, double *y, const MtSolverSpec *sv, MtFrameFn fn, void *user,
                      const volatile int *cancel, MtRunStats *stats, MtError *err);

#endif
