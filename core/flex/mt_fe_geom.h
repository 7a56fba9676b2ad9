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
/* Kg (MT_FLEX_NKG blocks of N×N) = Hᵀ Kg_e(X_c) H summed over the elements. */
int mt_fe_geom_project(const MtFeModel *m, const MtFeDofs *d, const double *X, const double *H, int N, double *Kg,
                       MtError *err);

#endif
