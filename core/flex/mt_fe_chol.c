/* mt_fe_chol.c — CHOLMOD factorisation and solves (mt_fe_chol.h).
 *
 * The DOFs are already numbered in a fill-reducing order (mt_fe_order), and
 * the matrix is the lower triangle: CHOLMOD factors it in its natural order
 * as it is, without the permuted copy it makes otherwise (for the 300k-DOF
 * benchmark that copy alone was 140 MB of peak memory). The leading block
 * K_ii is passed as an "unpacked" matrix whose column counts stop before the
 * boundary rows, so it is not copied either; K − σM is formed in place. The
 * factor is supernodal LLᵀ (BLAS-3 kernels). A stiffness matrix with a
 * mechanism has a pivot that is zero up to round-off: with sigma = 0 a pivot
 * below 10⁻¹³ of the original diagonal is reported as singular, naming the
 * node. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <suitesparse/cholmod.h>

#include "mt_fe_chol.h"
#include "mt_i18n.h"

struct MtFeChol {
    cholmod_common c;
    cholmod_factor *L;
    cholmod_dense *X, *Y, *E;
    int n;
    double lnz, fl;
    int ordering;
};

#define CHUNK 16

static int chol_progress(const MtFeProgress *pr, double f, MtError *err)
{
    return mt_fe_progress(pr, "factorisation", f, err);
}

static void singular(const MtFeModel *m, const MtFeDofs *d, int col, double sigma, MtError *err)
{
    char what[160];
    if (m && d) mt_fe_dof_name(m, d, col, what, sizeof what);
    else snprintf(what, sizeof what, MT_("column %d"), col);
    if (sigma == 0)
        mt_error_set(err, MT_ERR_SOLVE, "",
                     MT_("the stiffness matrix is singular at %s: a mechanism, i.e. a part or a direction that nothing "
                         "holds (unconnected parts, a rotation of solid elements about a single fixed node, a free "
                         "rotation of a beam or shell node)"),
                     what);
    else
        mt_error_set(err, MT_ERR_SOLVE, "",
                     MT_("K - sigma*M is not positive definite at %s (sigma = %g): a negative stiffness, or a "
                         "massless mechanism"),
                     what, sigma);
}

/* Pivot relative to the original diagonal of column col. */
static void pivot_ratio(const MtFeCsc *A, const double *vals, int col, double piv, double *worst, int *wcol)
{
    double a = A->p[col] < A->p[col + 1] && A->i[A->p[col]] == col ? vals[A->p[col]] : 0; /* diagonal first */
    if (a > 0 && piv / a < *worst) *worst = piv / a, *wcol = col;
}

MtFeChol *mt_fe_chol_new(MtFeCsc *A, int n, double sigma, const MtFeModel *m, const MtFeDofs *d,
                         const MtFeProgress *pr, MtError *err)
{
    if (n <= 0 || n > A->n) {
        mt_error_set(err, MT_ERR_ARG, "", MT_("nothing to factor: the matrix has no free degree of freedom"));
        return NULL;
    }
    MtFeChol *f = calloc(1, sizeof *f);
    if (!f) {
        mt_error_set(err, MT_ERR_NOMEM, "", MT_("out of memory"));
        return NULL;
    }
    f->n = n;
    cholmod_start(&f->c);
    f->c.quick_return_if_not_posdef = 1;
    f->c.print = 0;
    /* less relaxed supernode amalgamation than CHOLMOD's default (0.8, 0.1,
     * 0.05): 2.5 % less factor storage at the same speed */
    f->c.zrelax[0] = 0.2, f->c.zrelax[1] = 0.02, f->c.zrelax[2] = 0.01;
    size_t nz = (size_t)A->p[n];
    double *vals = A->k;
    if (sigma != 0)
        for (size_t k = 0; k < nz; k++) vals[k] -= sigma * A->m[k];
    int *cnt = NULL;
    cholmod_sparse S = {0};
    S.nrow = S.ncol = (size_t)n;
    S.nzmax = nz;
    S.p = A->p;
    S.i = A->i;
    S.x = vals;
    S.stype = -1;
    S.itype = CHOLMOD_INT;
    S.xtype = CHOLMOD_REAL;
    S.dtype = CHOLMOD_DOUBLE;
    S.sorted = 1;
    S.packed = 1;
    if (n < A->n) { /* leading block: each column's rows < n */
        cnt = malloc(sizeof(int) * ((size_t)n + 1));
        if (!cnt) {
            mt_error_set(err, MT_ERR_NOMEM, "", MT_("out of memory"));
            goto fail;
        }
        for (int j = 0; j < n; j++) {
            int lo = A->p[j], hi = A->p[j + 1];
            while (lo < hi) {
                int mid = (lo + hi) / 2;
                if (A->i[mid] < n) lo = mid + 1;
                else hi = mid;
            }
            cnt[j] = lo - A->p[j];
        }
        S.packed = 0;
        S.nz = cnt;
    }
    if (chol_progress(pr, 0, err)) goto fail;
    f->c.nmethods = 1;
    f->c.method[0].ordering = CHOLMOD_NATURAL; /* the DOFs are numbered in a fill-reducing order */
    f->c.postorder = 0;
    f->L = cholmod_analyze(&S, &f->c);
    if (!f->L) {
        mt_error_set(err, MT_ERR_NOMEM, "", MT_("sparse factorisation: out of memory in the analysis (CHOLMOD status %d)"),
                     f->c.status);
        goto fail;
    }
    f->lnz = f->c.lnz;
    f->fl = f->c.fl;
    f->ordering = f->L->ordering;
    if (chol_progress(pr, 0.1, err)) goto fail;
    cholmod_factorize(&S, f->L, &f->c);
    if (f->c.status == CHOLMOD_NOT_POSDEF || (f->L->minor < (size_t)n)) {
        int col = f->L->minor < (size_t)n ? (f->L->Perm ? ((int *)f->L->Perm)[f->L->minor] : (int)f->L->minor) : 0;
        singular(m, d, col, sigma, err);
        goto fail;
    }
    if (f->c.status < CHOLMOD_OK) {
        mt_error_set(err, MT_ERR_NOMEM, "", MT_("sparse factorisation failed (CHOLMOD status %d, out of memory?)"),
                     f->c.status);
        goto fail;
    }
    if (sigma == 0) { /* near-zero pivots: a mechanism up to round-off */
        const int *perm = f->L->Perm; /* identity in the natural order, kept for safety */
        const cholmod_factor *L = f->L;
        const double *x = L->x;
        double worst = INFINITY;
        int wcol = -1;
        for (int j = 0; j < n; j++) {
            double l;
            if (L->is_super) continue;
            l = x[((const int *)L->p)[j]];
            pivot_ratio(A, vals, perm ? perm[j] : j, L->is_ll ? l * l : l, &worst, &wcol);
        }
        if (L->is_super) {
            const int *super = L->super, *pi = L->pi, *px = L->px;
            for (size_t s = 0; s < L->nsuper; s++) {
                int k1 = super[s], k2 = super[s + 1], nsrow = pi[s + 1] - pi[s];
                for (int j = k1; j < k2; j++) {
                    double l = x[px[s] + (size_t)(j - k1) * nsrow + (j - k1)];
                    pivot_ratio(A, vals, perm ? perm[j] : j, l * l, &worst, &wcol);
                }
            }
        }
        if (wcol >= 0 && worst < 1e-13) {
            singular(m, d, wcol, sigma, err);
            goto fail;
        }
    }
    if (sigma != 0)
        for (size_t k = 0; k < nz; k++) vals[k] += sigma * A->m[k];
    free(cnt);
    if (chol_progress(pr, 1, err)) {
        mt_fe_chol_free(f);
        return NULL;
    }
    return f;
fail:
    free(cnt);
    if (sigma != 0)
        for (size_t k = 0; k < nz; k++) vals[k] += sigma * A->m[k];
    mt_fe_chol_free(f);
    return NULL;
}

void mt_fe_chol_free(MtFeChol *f)
{
    if (!f) return;
    cholmod_free_factor(&f->L, &f->c);
    cholmod_free_dense(&f->X, &f->c);
    cholmod_free_dense(&f->Y, &f->c);
    cholmod_free_dense(&f->E, &f->c);
    cholmod_finish(&f->c);
    free(f);
}

int mt_fe_chol_solve(MtFeChol *f, int nrhs, double *B, int ldb, MtError *err)
{
    size_t n = (size_t)f->n, ld = (size_t)ldb;
    for (int r0 = 0; r0 < nrhs; r0 += CHUNK) {
        int nb = nrhs - r0 < CHUNK ? nrhs - r0 : CHUNK;
        cholmod_dense D = {0};
        D.nrow = n;
        D.ncol = (size_t)nb;
        D.nzmax = ld * (size_t)nb;
        D.d = ld;
        D.x = B + (size_t)r0 * ld;
        D.xtype = CHOLMOD_REAL;
        D.dtype = CHOLMOD_DOUBLE;
        if (!cholmod_solve2(CHOLMOD_A, f->L, &D, NULL, &f->X, NULL, &f->Y, &f->E, &f->c)) {
            mt_error_set(err, MT_ERR_NOMEM, "", MT_("sparse solve failed (CHOLMOD status %d)"), f->c.status);
            return -1;
        }
        for (int r = 0; r < nb; r++)
            memcpy((double *)D.x + (size_t)r * ld, (double *)f->X->x + (size_t)r * f->X->d, sizeof(double) * n);
    }
    return 0;
}

double mt_fe_chol_nnz(const MtFeChol *f) { return f->lnz; }
double mt_fe_chol_flops(const MtFeChol *f) { return f->fl; }

const char *mt_fe_chol_ordering(const MtFeChol *f)
{
    switch (f->ordering) {
    case CHOLMOD_NATURAL: return "nodes";
    case CHOLMOD_GIVEN: return "given";
    case CHOLMOD_AMD: return "amd";
    case CHOLMOD_METIS: return "metis";
    case CHOLMOD_NESDIS: return "nesdis";
    case CHOLMOD_COLAMD: return "colamd";
    case CHOLMOD_POSTORDERED: return "postordered";
    default: return "?";
    }
}
