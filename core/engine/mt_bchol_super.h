/* mt_bchol_super.h — supernodal panels for the block Cholesky of mt_bchol.c
 * (internal to it): consecutive block columns of the elimination tree with
 * nested row structure are factored as one dense column-major panel, and a
 * panel's Schur update goes to its ancestors as dense products (register-
 * blocked kernels) scattered through precomputed row maps. Pays where the
 * fronts are wide (the fill-in of 2-D lattices); chains and trees keep the
 * block kernels. Same order and same per-pivot rules as the block path
 * (rows out of the solve, detection, regularised pivots); rounding differs. */
#ifndef MT_BCHOL_SUPER_H
#define MT_BCHOL_SUPER_H

typedef struct MtBsuper MtBsuper;

/* The block structure of the factor in elimination order: n positions with
 * block sizes psize and offsets poff in the original row order, below
 * entries colptr/rowpos (sorted per column). force: build it even when the
 * estimate says the block kernels are as fast. *out is NULL then (not an
 * error). Returns 0, or -1 when out of memory. */
int mt_bsuper_new(int n, int nrows, const int *psize, const int *poff, const int *colptr, const int *rowpos, int force,
                  MtBsuper **out);
void mt_bsuper_free(MtBsuper *s);

/* Factors the matrix whose blocks are in val (row-major; diagonal block of
 * position c at val + dval[c], lower triangle read; below entry e at
 * val + voff[e], entries with isfill[e] skipped), val left unchanged. dep,
 * diag0 per original row; detect and tol as mt_bchol_factor. Returns 0 or -1
 * with *bad_pos the position of a non-positive pivot. */
int mt_bsuper_factor(MtBsuper *s, const double *val, const int *dval, const int *voff, const unsigned char *isfill,
                     unsigned char *dep, double *diag0, int detect, double tol, int *nreg, int *bad_pos);
/* Solves with the last factor, x in the original row order, in place. */
void mt_bsuper_solve(MtBsuper *s, double *x);
/* Per original row: pivot / diag0 (1 for rows out). */
void mt_bsuper_pivot_ratios(const MtBsuper *s, const unsigned char *dep, const double *diag0, double *ratio);
/* Exchanges the factors (values) of two objects made from the same structure. */
void mt_bsuper_swap(MtBsuper *a, MtBsuper *b);

#endif
