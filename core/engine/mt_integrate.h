/* mt_integrate.h — time integration of a compiled system: classical RK4 with a
 * fixed step, Dormand–Prince 5(4) with error control and dense output at the
 * output times, variable-order Adams (SUNDIALS CVODE, mt_cvode.c), and the
 * fixed-step implicit methods implicit Euler, Park, HHT-α and generalised-α
 * (mt_implicit.c; docs/integrators.md). Frames are handed to a callback as
 * they are produced. */
#ifndef MT_INTEGRATE_H
#define MT_INTEGRATE_H

#include "mt_system.h"

/* Called for each output frame with st->t, st->q, st->u, st->acc and
 * st->lambda consistent. Return non-zero to stop the run early. */
typedef int (*MtFrameFn)(void *user, MtState *st);

typedef struct {
    long steps, rejected, evals, frames;
    double gmax, gdmax; /* largest constraint violation seen at output frames */
    long regularised;   /* evaluations near a singular configuration (see MT_PIVOT_REG) */
    /* implicit methods: finite-difference Jacobians computed (each costs
     * 1 + 12·(bodies in the largest coupled group) evaluations, included in
     * evals), LU factorisations of the Newton matrix, Newton iterations;
     * adams: fixed-point iterations in newton */
    long jacobians, factorizations, newton;
} MtRunStats;

/* Right-hand side of the first-order system y = (q, u), length 13·nbody:
 * dy = (v, ½(0,ω)⊗p, u̇); leaves acc and lambda of (t, y) in st. */
MtStatus mt_deriv(MtState *st, double t, const double *y, double *dy, MtError *err);

/* Consistent initial state: positions by Newton projection while the
 * `initial` coordinates of the model are held, then velocities (mt_assembly.c). */
MtStatus mt_assemble_initial(MtState *st, MtError *err);

/* Most steps (or output intervals of the adaptive methods) a run may ask for:
 * 1e9 takes from a quarter of an hour (the smallest model) to days, and keeps
 * t + step > t for any end time (a step below the rounding of t, as with
 * 'until 1e300', would never end). */
#define MT_RUN_MAX_STEPS 1e9
/* MT_OK when (until − t0) / step ≤ MT_RUN_MAX_STEPS, else MT_ERR_MODEL with a
 * message saying what to change; what names the analysis ("solver", …). */
MtStatus mt_run_check_length(double t0, double until, double step, const char *what, MtError *err);

/* Assembles the initial state (Newton on positions, then velocities), then
 * integrates from st->t to sv->until. cancel (may be NULL) is polled between
 * steps. */
MtStatus mt_run(MtState *st, const MtSolverSpec *sv, MtFrameFn fn, void *user, const volatile int *cancel,
                MtRunStats *stats, MtError *err);

#endif
