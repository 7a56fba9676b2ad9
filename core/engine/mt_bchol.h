/* mt_bchol.h — sparse Cholesky of a symmetric positive (semi)definite matrix
 * made of small dense blocks (one block per constraint, at most 6 rows), as
 * A = G·M⁻¹·Gᵀ is. The fill-reducing order (AMD on the block graph) and the
 * symbolic factor are computed once per topology; each evaluation refills the
 * blocks and refactors with no allocation. Rows found dependent (a pivot that
 * vanishes) can be marked once and are then skipped: their unknowns are zero. */
#ifndef MT_BCHOL_H
#define MT_BCHOL_H

#include "motus/error.h"

#define MT_BLOCK_MAX 6

typedef struct MtBchol MtBchol;

/* n blocks of sizes size[k] (1..6); nedge unordered pairs (k,l), k != l, of
 * blocks that couple. Duplicate pairs are allowed. */
MtBchol *mt_bchol_new(int n, const int *size, int nedge, const int *edge, MtError *err);
void mt_bchol_free(MtBchol *b);

/* Storage of block A(k,l) for k == l or a coupled pair. The block is stored
 * row-major as size[r] x size[c] with (r,c) = (k,l) when *swap is 0 and
 * (r,c) = (l,k) when *swap is 1 (then store the transpose). */
double *mt_bchol_block(MtBchol *b, int k, int l, int *swap);
/* Zeroes every stored block (call before filling). */
void mt_bchol_zero(MtBchol *b);
/* Zeroes only the fill-in blocks: for callers that write (not add) every block of A. */
void mt_bchol_zero_fill(MtBchol *b);
/* Factors in place. With detect != 0, rows whose pivot falls below
 * tol·(original diagonal) are marked dependent (rows marked before stay out). Otherwise marked rows are
 * skipped, and with tol > 0 a pivot below tol·(original diagonal) is raised to
 * that value (a regularised, compliant row: near a singular configuration the
 * factor does not break down; mt_bchol_regularised counts them); with tol = 0
 * a non-positive pivot is an error. Returns 0, or -1 and sets *bad_block to
 * the block with a non-positive pivot. */
int mt_bchol_factor(MtBchol *b, int detect, double tol, int *bad_block);
/* mt_bchol_factor (detect = 0) and mt_bchol_solve in one sweep: each column's
 * forward substitution follows its factorisation (x = rhs on entry, the
 * solution on return). */
int mt_bchol_factor_solve(MtBchol *b, double tol, int *bad_block, double *x);
/* The original diagonal of A by row (original order), which a factor with
 * tol > 0 keeps as the pivots' reference: a caller that writes it while
 * assembling A calls mt_bchol_diag0_given(b, 1), and the next
 * mt_bchol_factor_solve does not save it again (0 withdraws the hand-over). */
double *mt_bchol_diag0(MtBchol *b);
void mt_bchol_diag0_given(MtBchol *b, int given);
/* Solves A x = rhs in place (x in the original block order, concatenated). */
void mt_bchol_solve(const MtBchol *b, double *x);
/* Row-offset of block k in the concatenated vector; total rows. */
int mt_bchol_offset(const MtBchol *b, int k);
int mt_bchol_rows(const MtBchol *b);
/* 1 if row r (global index) was marked dependent. */
int mt_bchol_row_dependent(const MtBchol *b, int r);
/* Pivots raised by the last factorisation (see mt_bchol_factor). */
int mt_bchol_regularised(const MtBchol *b);
/* Marks (dep = 1) or unmarks a row as dependent. */
void mt_bchol_set_dependent(MtBchol *b, int row, int dep);
/* Number of blocks stored below the diagonal in L (fill included) and in A. */
int mt_bchol_nnz_blocks(const MtBchol *b);

/* Iterative solves with an older factor (see docs/performance.md, "Stale
 * factor"). The value array (blocks of A before a factorisation, the factor
 * after). */
double *mt_bchol_values(MtBchol *b);
/* a and b made by mt_bchol_new with the same arguments: a's factor goes to b
 * (with a's dependent rows) and b's storage to a, whose value array is
 * returned. The blocks of A live
 * in that array (mt_bchol_block): pointers into the old one must be moved. */
double *mt_bchol_swap_factor(MtBchol *a, MtBchol *b);
/* Per row (original order): its pivot in the last factorisation relative to
 * its diagonal in the matrix factored (1 for rows marked dependent). Valid
 * after mt_bchol_factor with detect or tol > 0, or mt_bchol_factor_solve with
 * tol > 0 (those keep the diagonal), also in the factor handed over by
 * mt_bchol_swap_factor. */
void mt_bchol_pivot_ratios(const MtBchol *b, double *ratio);
/* 1 if a and b mark the same rows dependent. */
int mt_bchol_same_dependent(const MtBchol *a, const MtBchol *b);
/* y = A x with A assembled (not factored) in b; rows marked dependent are out
 * (y is 0 there; x must be 0 there). */
void mt_bchol_mulv(const MtBchol *b, const double *x, double *y);
/* Solves A x = rhs (x = rhs on entry) by conjugate gradients, A assembled in
 * a (left unchanged), preconditioned by the factor in p, which marks the same
 * rows dependent as a. Stops when the estimated A-norm error is below tol
 * relative. Returns the iterations, or -1 (x = rhs again) when maxit did not
 * suffice or A is not positive definite on the kept rows. */
int mt_bchol_pcg(MtBchol *a, const MtBchol *p, double *x, double tol, int maxit);
/* Supernodal panels (mt_bchol_super.c): when built, every factorisation
 * (detecting ones included) goes through them. mt_bchol_new builds them where
 * the structure says they pay (wide fronts, as the fill-in of 2-D lattices).
 * on = 1 builds them regardless, 0 drops them (the block kernels then
 * factor): for tests and benchmarks comparing the two; the two objects of
 * mt_bchol_swap_factor must agree. Returns 0, or -1 when out of memory. */
int mt_bchol_use_panels(MtBchol *b, int on);
int mt_bchol_has_panels(const MtBchol *b);
/* Multiply–adds of a factorisation and of one PCG iteration, from the structure. */
void mt_bchol_costs(const MtBchol *b, double *factor, double *iteration);

#endif
