/* mt_fe_chol.h — sparse Cholesky factorisation of a stiffness matrix (or of
 * K − σM): symbolic analysis by SuiteSparse CHOLMOD on the DOFs as
 * mt_fe_order numbered them, our own supernodal numeric factor through BLAS
 * (compact storage, progress and cancellation), solves in place with many
 * right-hand sides. core/flex internal. */
#ifndef MT_FE_CHOL_H
#define MT_FE_CHOL_H

#include <stddef.h>

#include "mt_fe_asm.h"

typedef struct MtFeChol MtFeChol;

/* Factors the leading n×n block (n ≤ A->n) of the symmetric matrix
 * K − sigma·M (lower triangle in A's pattern; sigma = 0 factors K alone) in
 * the order of its rows and columns, which mt_fe_order has made
 * fill-reducing. With sigma ≠ 0 the shifted values are formed in A->k in
 * place (no copy) and A->k is restored afterwards (to round-off). Reports
 * the stage "factorisation" to pr and stops when it cancels. On a matrix
 * that is not positive definite, the error names the DOF where the
 * factorisation broke down (d and m may be NULL: then it names the column). */
MtFeChol *mt_fe_chol_new(MtFeCsc *A, int n, double sigma, const MtFeModel *m, const MtFeDofs *d,
                         const MtFeProgress *pr, MtError *err);
void mt_fe_chol_free(MtFeChol *f);
/* Solves in place for nrhs columns of length n (column-major, leading
 * dimension ldb ≥ n; rows beyond n are left alone). Returns 0. */
int mt_fe_chol_solve(MtFeChol *f, int nrhs, double *B, int ldb, MtError *err);
/* Nonzeros of the factor L, and the flop count of the factorisation. */
double mt_fe_chol_nnz(const MtFeChol *f);
double mt_fe_chol_flops(const MtFeChol *f);
/* Columns of the widest supernode (the top separator of the ordering). */
int mt_fe_chol_widest(const MtFeChol *f);
/* The ordering used: "nodes" (mt_fe_order's numbering of the DOF nodes). */
const char *mt_fe_chol_ordering(const MtFeChol *f);

#endif
