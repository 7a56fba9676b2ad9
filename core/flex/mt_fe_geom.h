/* mt_fe_geom.h — geometric stiffening of a reduced body (core/flex internal,
 * mt_fe_geom.c): the static displacements of the unit inertial loads and the
 * projection of their geometric stiffness onto the reduced basis. */
#ifndef MT_FE_GEOM_H
#define MT_FE_GEOM_H

#include "mt_fe_chol.h"
#include "mt_fe_out.h"

/* Displacements (ndof × MT_FLEX_NKG, column-major) of the unit body-force cases
 * of mt_fe_reduce.h on the nodal masses, interior solved with the factor F of
 * K_ii, interface DOFs (rows ≥ ni) held at zero. F NULL: no interior (zeros).
 * Returns a malloc'ed array or NULL with err set. */
double *mt_fe_geom_loads(const MtFeModel *m, const MtFeDofs *d, MtFeChol *F, MtError *err);
/* Kg (ncase blocks of N×N) = Hᵀ Kg_e(X_c) H summed over the elements, for the
 * displacement fields X (ndof × ncase). */
int mt_fe_geom_project(const MtFeModel *m, const MtFeDofs *d, const double *X, int ncase, const double *H, int N,
                       double *Kg, MtError *err);
/* Kw (N blocks of N×N): block k the geometric stiffness, projected on HR
 * (ndof × N), of the static field of modal coordinate k's interface
 * displacement, [Ψ; 1]·(interface rows of HR column k); H holds the
 * constraint modes [Ψ; 1] in its first nb columns (Craig–Bampton, Guyan). */
int mt_fe_geom_interface(const MtFeModel *m, const MtFeDofs *d, const double *H, const double *HR, int N, double *Kw,
                         MtError *err);

#endif
