/* mt_fe_eig.h — lowest eigenpairs of K φ = λ M φ for sparse K and M (core/flex
 * internal): shift-invert Lanczos on a sparse factor (mt_fe_chol) of K − σM — our own
 * block Lanczos with full reorthogonalisation (8 right-hand sides per solve)
 * for six modes or more, ARPACK dsaupd/dseupd (mode 3, the generalised
 * problem with the M inner product) otherwise or as its fallback; small
 * problems go dense (LAPACK), as do the reduced eigenproblems. */
#ifndef MT_FE_EIG_H
#define MT_FE_EIG_H

#include "mt_fe_chol.h"

/* Problems up to this size are solved densely (LAPACK) when all or most
 * eigenpairs are wanted; larger ones always by Lanczos. */
#define MT_FE_DENSE_MAX 600

typedef struct {
    int iterations;    /* Lanczos restarts (ARPACK iparam[2]) */
    int nop;           /* applications of (K − σM)⁻¹M */
    int ncv;           /* Lanczos basis size */
    double residual;   /* largest ‖Kφ − λMφ‖ / ‖Kφ‖ (‖λMφ‖ if larger) over the pairs returned */
    int dense;         /* 1 if solved densely */
    int block;         /* 1 if by the block Lanczos (else ARPACK) */
} MtFeEigInfo;

/* Lowest nev eigenpairs on the leading n×n block of A (K and M values).
 * fac is a factor of that block of K − sigma·M (made here when NULL, and then
 * freed). lambda (nev) ascending; *Phi (n×nev, column-major, malloc'ed
 * here, NULL on failure) M-orthonormal.
 * With a factor given, only M's values are used (K's may have been dropped;
 * the residual is then left to mt_fe_eig_residual). */
int mt_fe_eigs(MtFeCsc *A, int n, int nev, double sigma, MtFeChol *fac, const MtFeModel *m,
               const MtFeDofs *d, double *lambda, double **Phi, const MtFeProgress *pr, MtFeEigInfo *info,
               MtError *err);

/* Largest relative residual ‖Kφ − λMφ‖ / max(‖Kφ‖, ‖λMφ‖) of nev pairs on
 * the leading n×n block (mt_fe_eigs computes it itself when A->k is there). */
double mt_fe_eig_residual(const MtFeCsc *A, int n, int nev, const double *lambda, const double *Phi);

/* Dense symmetric-definite problem K x = λ M x (n×n column-major, M
 * positive definite): all eigenpairs, ascending, X M-orthonormal (may alias
 * K). K and M are overwritten. Returns 0 or -1. */
int mt_fe_dense_sygv(int n, double *K, double *M, double *lambda, double *X, MtError *err);

/* Dense problem with a possibly singular M, by the Cholesky factor of
 * K − σM (positive definite): the nev lowest finite eigenpairs. */
int mt_fe_dense_shifted(int n, const double *K, const double *M, double sigma, int nev, double *lambda, double *X,
                        MtError *err);

#endif
