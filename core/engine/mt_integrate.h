/* mt_integrate.h — time integration of a compiled system: classical RK4 with a
 * fixed step, Dormand–Prince 5(4) with error control and dense output at the
 * output times, variable-order Adams–Bashforth–Moulton (mt_adams.c), and the
 * fixed-step implicit methods implicit Euler, Park, HHT-α and generalised-α
 * (mt_implicit.c; docs/integrators.md). Frames are handed to a callback as
 * they are produced. The public part (mt_run, MtRunStats, MtFrameFn) is in
 * motus/run.h; this header adds what the integrators and analyses share. */
#ifndef MT_INTEGRATE_H
#define MT_INTEGRATE_H

#include "mt_system.h"

/* Right-hand side of the first-order system y = (q, u), length 13·nbody:
 * dy = (v, ½(0,ω)⊗p, u̇); leaves acc and lambda of (t, y) in st. */
MtStatus mt_deriv(MtState *st, double t, const double *y, double *dy, MtError *err);

/* Consistent initial state: positions by Newton projection while the
 * `initial` coordinates of the model are held, then velocities (mt_assembly.c). */
MtStatus mt_assemble_initial(MtState *st, MtError *err);

#endif
