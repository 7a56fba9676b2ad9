/* mt_fe_out.h — outputs of a reduction computed from the modal basis
 * (core/flex internal): inertia invariants (mt_fe_invariants.c) and the
 * display surface with modal displacements and stresses (mt_fe_surface.c). */
#ifndef MT_FE_OUT_H
#define MT_FE_OUT_H

#include "mt_fe_asm.h"
#include "mt_fe_reduce.h"

/* Rows of node n (6 components × N, row r at out[r + 6·j]) of the basis H
 * (ndof×N column-major), through the expansions: active components read H,
 * dependent ones combine rows, fixed and absent ones are zero. */
void mt_fe_node_rows(const MtFeDofs *d, int n, const double *H, int N, double *out);

/* Fills b->mass .. b->Sw from the nodal rigid-body shares. */
int mt_flex_invariants(const MtFeModel *m, const MtFeDofs *d, const double *H, int N, MtFlexBody *b, MtError *err);

/* Fills the surface arrays of b (and the modal stresses if stress != 0). */
int mt_flex_surface(const MtFeModel *m, const MtFeDofs *d, const double *H, int N, int stress, MtFlexBody *b,
                    const MtFeProgress *pr, MtError *err);

#endif
