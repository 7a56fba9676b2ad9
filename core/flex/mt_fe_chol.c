/* mt_fe_chol.c — sparse Cholesky factorisation and solves (mt_fe_chol.h).
 *
 * CHOLMOD does the symbolic part: the supernodes (columns of L with the
 * same row pattern, relaxed amalgamation) and their row indices. The numeric
 * factorisation is ours, a left-looking supernodal LLᵀ on BLAS-3 kernels as
 * in CHOLMOD, for three reasons measured on the 300k-DOF benchmark block:
 *   - storage: CHOLMOD keeps every supernode as a full rectangle, the unused
 *     upper triangle of its diagonal block included (230 M values for 196 M
 *     nonzeros). Here a supernode is a row of panels of at most MT_PANEL
 *     columns, each a rectangle from its own diagonal down, so only the
 *     panels' small triangles are wasted (204 M values): 200 MB less peak;
 *   - progress and cancellation during the factorisation, the longest step
 *     of a large reduction, which CHOLMOD's one call cannot offer;
 *   - solves in place on the caller's vectors, with no n×nrhs copies.
 * The DOFs are already numbered in a fill-reducing order (mt_fe_order), so
 * the matrix is factored as it is: no permuted copy. The leading block K_ii
 * is passed as an "unpacked" matrix whose column counts stop before the
 * boundary rows, so it is not copied either; K − σM is formed in place.
 * A stiffness matrix with a mechanism has a pivot that is zero up to
 * round-off: with sigma = 0 a pivot below 10⁻¹³ of the original diagonal is
 * reported as singular, naming the node. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <cblas.h>
#include <lapacke.h>
#include <suitesparse/cholmod.h>

#include "mt_fe_chol.h"
#include "mt_i18n.h"

#define MT_PANEL 128          /* columns per panel of a supernode */
#define MT_CWORK (1 << 21)    /* doubles of the update buffer (16 MB), filled in column chunks */
#define MT_SOLVE_CHUNK 16     /* right-hand sides per pass over the factor */

struct MtFeChol {
    int n, nsuper;
    int *super;   /* nsuper + 1: first column of each supernode */
    int *pi;      /* nsuper + 1: its row indices are ls[pi[s] .. pi[s+1]), the columns first */
    int *ls;
    size_t *px;   /* nsuper + 1: its first value in x */
    double *x;    /* panels of each supernode (see panel()) */
    size_t xsize;
    int maxrow;   /* largest supernode row count (solve workspace) */
    double *ws;   /* solve workspace: maxrow × MT_SOLVE_CHUNK */
    double lnz, fl;
};

static int nomem(MtError *err)
{
    mt_error_set(err, MT_ERR_NOMEM, "", MT_("out of memory in the sparse factorisation"));
    return -1;
}

/* Panel q of supernode s (columns c0 = q·MT_PANEL .. c0 + width): a
 * column-major rectangle of rows c0 .. nsrow−1 (local row numbers), leading
 * dimension nsrow − c0. Entry (local row r ≥ c0, local column c) is at
 * panel[(r − c0) + (c − c0)·ld]. */
static double *panel(const MtFeChol *f, int s, int q, int *ld)
{
    size_t nsrow = (size_t)(f->pi[s + 1] - f->pi[s]), c0 = (size_t)q * MT_PANEL;
    *ld = (int)(nsrow - c0);
    return f->x + f->px[s] + (size_t)q * MT_PANEL * nsrow - (size_t)MT_PANEL * MT_PANEL * (size_t)q * (q - 1) / 2;
}

static size_t supernode_size(int nscol, int nsrow)
{
    size_t t = 0;
    for (int c0 = 0; c0 < nscol; c0 += MT_PANEL) t += (size_t)(nsrow - c0) * (size_t)(nscol - c0 < MT_PANEL ? nscol - c0 : MT_PANEL);
    return t;
}

/* Large arrays on transparent huge pages where the kernel offers them on
 * request: a 1.6 GB factor is 400 000 page faults in 4 kB pages. */
static void *big_alloc(size_t bytes)
{
    void *p = NULL;
#ifdef MADV_HUGEPAGE
    if (bytes >= ((size_t)64 << 20)) {
        if (posix_memalign(&p, (size_t)2 << 20, bytes)) return NULL;
        madvise(p, bytes, MADV_HUGEPAGE);
        return p;
    }
#endif
    return malloc(bytes);
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

/* Symbolic factorisation by CHOLMOD (natural order, supernodal), copied out. */
static int symbolic(MtFeChol *f, const MtFeCsc *A, int n, int *cnt, MtError *err)
{
    cholmod_common c;
    cholmod_start(&c);
    c.print = 0;
    /* less relaxed supernode amalgamation than CHOLMOD's default (0.8, 0.1,
     * 0.05): fewer explicit zeros at the same speed */
    c.zrelax[0] = 0.2, c.zrelax[1] = 0.02, c.zrelax[2] = 0.01;
    c.nmethods = 1;
    c.method[0].ordering = CHOLMOD_NATURAL; /* the DOFs are numbered in a fill-reducing order */
    c.postorder = 0;
    c.supernodal = CHOLMOD_SUPERNODAL;
    cholmod_sparse S = {0};
    S.nrow = S.ncol = (size_t)n;
    S.nzmax = (size_t)A->p[n];
    S.p = A->p;
    S.i = A->i;
    S.stype = -1;
    S.itype = CHOLMOD_INT;
    S.xtype = CHOLMOD_PATTERN;
    S.dtype = CHOLMOD_DOUBLE;
    S.sorted = 1;
    S.packed = cnt == NULL;
    S.nz = cnt;
    cholmod_factor *L = cholmod_analyze(&S, &c);
    int rc = -1;
    if (!L || !L->is_super) {
        mt_error_set(err, MT_ERR_NOMEM, "", MT_("sparse factorisation: out of memory in the analysis (CHOLMOD status %d)"),
                     c.status);
        goto done;
    }
    const int *perm = L->Perm;
    for (int k = 0; perm && k < n; k++)
        if (perm[k] != k) { /* cannot happen with the natural order; refuse rather than solve wrongly */
            mt_error_set(err, MT_ERR_SOLVE, "", MT_("sparse factorisation: unexpected permutation"));
            goto done;
        }
    int ns = (int)L->nsuper;
    size_t nls = (size_t)((int *)L->pi)[ns];
    f->nsuper = ns;
    f->super = malloc(sizeof(int) * ((size_t)ns + 1));
    f->pi = malloc(sizeof(int) * ((size_t)ns + 1));
    f->px = malloc(sizeof(size_t) * ((size_t)ns + 1));
    f->ls = malloc(sizeof(int) * (nls + 1));
    if (!f->super || !f->pi || !f->px || !f->ls) {
        nomem(err);
        goto done;
    }
    memcpy(f->super, L->super, sizeof(int) * ((size_t)ns + 1));
    memcpy(f->pi, L->pi, sizeof(int) * ((size_t)ns + 1));
    memcpy(f->ls, L->s, sizeof(int) * nls);
    f->lnz = c.lnz, f->fl = c.fl;
    size_t x = 0;
    for (int s = 0; s < ns; s++) {
        int nscol = f->super[s + 1] - f->super[s], nsrow = f->pi[s + 1] - f->pi[s];
        f->px[s] = x;
        x += supernode_size(nscol, nsrow);
        if (nsrow > f->maxrow) f->maxrow = nsrow;
    }
    f->px[ns] = f->xsize = x;
    rc = 0;
done:
    cholmod_free_factor(&L, &c);
    cholmod_finish(&c);
    return rc;
}

/* Left-looking supernodal factorisation of the values vals (lower triangle
 * in A's pattern, leading n×n block; column counts cnt or NULL). Returns 0,
 * 1 + the column of a non-positive pivot, or -1 (err set: cancelled, out of
 * memory). */
static long numeric(MtFeChol *f, const MtFeCsc *A, const double *vals, int sigma0, const MtFeProgress *pr,
                    MtError *err)
{
    int n = f->n, ns = f->nsuper;
    int *map = malloc(sizeof(int) * (size_t)n), *smap = malloc(sizeof(int) * (size_t)n);
    int *head = malloc(sizeof(int) * (size_t)ns), *next = malloc(sizeof(int) * (size_t)ns);
    int *lpos = malloc(sizeof(int) * (size_t)ns);
    double *wgt = malloc(sizeof(double) * ((size_t)ns + 1));
    double *C = malloc(sizeof(double) * MT_CWORK);
    long rc = -1;
    if (!map || !smap || !head || !next || !lpos || !wgt || !C) {
        nomem(err);
        goto done;
    }
    double wtot = 0;
    for (int s = 0; s < ns; s++) {
        int nscol = f->super[s + 1] - f->super[s], nsrow = f->pi[s + 1] - f->pi[s];
        for (int k = f->super[s]; k < f->super[s + 1]; k++) smap[k] = s;
        head[s] = -1;
        wgt[s] = wtot;
        for (int c = 0; c < nscol; c++) wtot += (double)(nsrow - c) * (nsrow - c); /* flops of its column updates */
    }
    wgt[ns] = wtot;
    double reported = 0;
    for (int s = 0; s < ns; s++) {
        const int k1 = f->super[s], nscol = f->super[s + 1] - k1, nsrow = f->pi[s + 1] - f->pi[s];
        const int *rows = f->ls + f->pi[s];
        const int npan = (nscol + MT_PANEL - 1) / MT_PANEL;
        for (int r = 0; r < nsrow; r++) map[rows[r]] = r;
        memset(f->x + f->px[s], 0, sizeof(double) * (f->px[s + 1] - f->px[s]));
        /* A's columns k1 .. k1 + nscol − 1 (rows ≥ the column, below n) */
        for (int c = 0; c < nscol; c++) {
            int ld, q = c / MT_PANEL, c0 = q * MT_PANEL;
            double *P = panel(f, s, q, &ld) + (size_t)(c - c0) * ld;
            int j = k1 + c;
            for (int p = A->p[j]; p < A->p[j + 1]; p++) {
                int i = A->i[p];
                if (i >= n) break; /* rows sorted: the rest are boundary rows */
                P[map[i] - c0] += vals[p];
            }
        }
        /* updates from the descendants whose next rows fall in this supernode */
        for (int dd = head[s]; dd >= 0;) {
            const int dn = next[dd];
            const int dcol = f->super[dd + 1] - f->super[dd], drow = f->pi[dd + 1] - f->pi[dd], pd = lpos[dd];
            const int *drows = f->ls + f->pi[dd] + pd;
            const int nd2 = drow - pd;
            int nd1 = 0;
            while (nd1 < nd2 && drows[nd1] < k1 + nscol) nd1++;
            for (int j0 = 0; j0 < nd1;) {
                int ldc = nd2 - j0, cw = MT_CWORK / ldc;
                if (cw < 1) cw = 1; /* cannot happen: MT_CWORK exceeds any supernode's rows */
                if (cw > nd1 - j0) cw = nd1 - j0;
                /* C = L_d(rows j0.., :) · L_d(rows j0 .. j0+cw, :)ᵀ, panel by panel of d */
                for (int q = 0; q * MT_PANEL < dcol; q++) {
                    int ld, w = dcol - q * MT_PANEL < MT_PANEL ? dcol - q * MT_PANEL : MT_PANEL;
                    const double *B = panel(f, dd, q, &ld) + (pd - q * MT_PANEL) + j0;
                    double beta = q ? 1 : 0;
                    cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, cw, w, 1, B, ld, beta, C, ldc);
                    if (ldc > cw)
                        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, ldc - cw, cw, w, 1, B + cw, ld, B, ld, beta,
                                    C + cw, ldc);
                }
                /* scatter: C(i, jj) goes to (row drows[j0 + i], column drows[j0 + jj]) of s */
                for (int jj = 0; jj < cw; jj++) {
                    int c = drows[j0 + jj] - k1, ld, q = c / MT_PANEL, c0 = q * MT_PANEL;
                    double *P = panel(f, s, q, &ld) + (size_t)(c - c0) * ld;
                    const double *Cc = C + (size_t)jj * ldc;
                    const int *ri = drows + j0;
                    for (int i = jj; i < ldc; i++) P[map[ri[i]] - c0] -= Cc[i];
                }
                j0 += cw;
            }
            lpos[dd] = pd + nd1;
            if (nd1 < nd2) { /* on to the supernode of its next row */
                int t = smap[drows[nd1]];
                next[dd] = head[t], head[t] = dd;
            }
            dd = dn;
        }
        /* the supernode itself, panel by panel (right-looking inside) */
        for (int q = 0; q < npan; q++) {
            int ld, c0 = q * MT_PANEL, w = nscol - c0 < MT_PANEL ? nscol - c0 : MT_PANEL;
            double *P = panel(f, s, q, &ld);
            int info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', w, P, ld);
            if (info > 0) {
                rc = 1 + (long)k1 + c0 + info - 1;
                goto done;
            }
            if (sigma0) /* near-zero pivots: a mechanism up to round-off */
                for (int c = 0; c < w; c++) {
                    int j = k1 + c0 + c;
                    double a = A->p[j] < A->p[j + 1] && A->i[A->p[j]] == j ? vals[A->p[j]] : 0, l = P[(size_t)c * (ld + 1)];
                    if (a > 0 && l * l < 1e-13 * a) {
                        rc = 1 + (long)j;
                        goto done;
                    }
                }
            if (ld > w)
                cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, ld - w, w, 1, P, ld, P + w, ld);
            for (int q2 = q + 1; q2 < npan; q2++) { /* later panels of this supernode */
                int ld2, w2 = nscol - q2 * MT_PANEL < MT_PANEL ? nscol - q2 * MT_PANEL : MT_PANEL;
                double *P2 = panel(f, s, q2, &ld2);
                const double *B = P + (q2 - q) * MT_PANEL;
                cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, w2, w, -1, B, ld, 1, P2, ld2);
                if (ld2 > w2)
                    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, ld2 - w2, w2, w, -1, B + w2, ld, B, ld, 1, P2 + w2,
                                ld2);
            }
        }
        if (nsrow > nscol) {
            lpos[s] = nscol;
            int t = smap[rows[nscol]];
            next[s] = head[t], head[t] = s;
        }
        double fr = wgt[s + 1] / (wtot > 0 ? wtot : 1);
        if (fr - reported >= 0.005 || s == ns - 1) {
            reported = fr;
            if (mt_fe_progress(pr, "factorisation", 0.99 * fr, err)) goto done;
        }
    }
    rc = 0;
done:
    free(map), free(smap), free(head), free(next), free(lpos), free(wgt), free(C);
    return rc;
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
        nomem(err);
        return NULL;
    }
    f->n = n;
    size_t nz = (size_t)A->p[n];
    double *vals = A->k;
    int *cnt = NULL;
    if (sigma != 0)
        for (size_t k = 0; k < nz; k++) vals[k] -= sigma * A->m[k];
    if (n < A->n) { /* leading block: each column's rows < n */
        cnt = malloc(sizeof(int) * ((size_t)n + 1));
        if (!cnt) {
            nomem(err);
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
    }
    if (mt_fe_progress(pr, "factorisation", 0, err) || symbolic(f, A, n, cnt, err)) goto fail;
    f->x = big_alloc(sizeof(double) * (f->xsize + 1));
    f->ws = malloc(sizeof(double) * (size_t)f->maxrow * MT_SOLVE_CHUNK);
    if (!f->x || !f->ws) {
        nomem(err);
        goto fail;
    }
    long r = numeric(f, A, vals, sigma == 0, pr, err);
    if (r > 0) singular(m, d, (int)(r - 1), sigma, err);
    if (r) goto fail;
    if (sigma != 0)
        for (size_t k = 0; k < nz; k++) vals[k] += sigma * A->m[k];
    free(cnt);
    if (mt_fe_progress(pr, "factorisation", 1, err)) {
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
    free(f->super), free(f->pi), free(f->ls), free(f->px), free(f->x), free(f->ws);
    free(f);
}

/* L y = b then Lᵀ x = y for nb ≤ MT_SOLVE_CHUNK columns of B, in place. */
static void solve_chunk(const MtFeChol *f, int nb, double *B, int ldb)
{
    double *T = f->ws;
    for (int s = 0; s < f->nsuper; s++) {
        const int k1 = f->super[s], nscol = f->super[s + 1] - k1;
        const int *rows = f->ls + f->pi[s];
        for (int c0 = 0, q = 0; c0 < nscol; c0 += MT_PANEL, q++) {
            int ld, w = nscol - c0 < MT_PANEL ? nscol - c0 : MT_PANEL;
            const double *P = panel(f, s, q, &ld);
            double *X = B + k1 + c0;
            cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, w, nb, 1, P, ld, X, ldb);
            int in = nscol - c0 - w, out = ld - w - in; /* rows below: inside the supernode, then outside */
            if (in > 0)
                cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, in, nb, w, -1, P + w, ld, X, ldb, 1, X + w, ldb);
            if (out > 0) {
                cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, out, nb, w, 1, P + w + in, ld, X, ldb, 0, T, out);
                const int *ri = rows + nscol;
                for (int c = 0; c < nb; c++) {
                    double *b = B + (size_t)c * ldb;
                    const double *t = T + (size_t)c * out;
                    for (int i = 0; i < out; i++) b[ri[i]] -= t[i];
                }
            }
        }
    }
    for (int s = f->nsuper - 1; s >= 0; s--) {
        const int k1 = f->super[s], nscol = f->super[s + 1] - k1;
        const int *rows = f->ls + f->pi[s];
        for (int q = (nscol - 1) / MT_PANEL; q >= 0; q--) {
            int ld, c0 = q * MT_PANEL, w = nscol - c0 < MT_PANEL ? nscol - c0 : MT_PANEL;
            const double *P = panel(f, s, q, &ld);
            double *X = B + k1 + c0;
            int in = nscol - c0 - w, out = ld - w - in;
            if (out > 0) {
                const int *ri = rows + nscol;
                for (int c = 0; c < nb; c++) {
                    const double *b = B + (size_t)c * ldb;
                    double *t = T + (size_t)c * out;
                    for (int i = 0; i < out; i++) t[i] = b[ri[i]];
                }
                cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, w, nb, out, -1, P + w + in, ld, T, out, 1, X, ldb);
            }
            if (in > 0)
                cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, w, nb, in, -1, P + w, ld, X + w, ldb, 1, X, ldb);
            cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasTrans, CblasNonUnit, w, nb, 1, P, ld, X, ldb);
        }
    }
}

int mt_fe_chol_solve(MtFeChol *f, int nrhs, double *B, int ldb, MtError *err)
{
    (void)err;
    for (int r0 = 0; r0 < nrhs; r0 += MT_SOLVE_CHUNK)
        solve_chunk(f, nrhs - r0 < MT_SOLVE_CHUNK ? nrhs - r0 : MT_SOLVE_CHUNK, B + (size_t)r0 * ldb, ldb);
    return 0;
}

double mt_fe_chol_nnz(const MtFeChol *f) { return f->lnz; }
double mt_fe_chol_flops(const MtFeChol *f) { return f->fl; }

int mt_fe_chol_widest(const MtFeChol *f)
{
    int w = 0;
    for (int s = 0; s < f->nsuper; s++) w = f->super[s + 1] - f->super[s] > w ? f->super[s + 1] - f->super[s] : w;
    return w;
}
const char *mt_fe_chol_ordering(const MtFeChol *f)
{
    (void)f;
    return "nodes"; /* mt_fe_order's node numbering */
}
