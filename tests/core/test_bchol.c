/* Block sparse Cholesky against a dense solve: chain, tree and loop block
 * patterns with random blocks of 1..6 rows; detection and skipping of
 * dependent rows; lattices of 3-row blocks (block LDLᵀ columns, dense panel
 * updates of the fill-in) with mt_bchol_factor_solve, also with a row taken
 * out of the solve beforehand (as the solver does with redundant rows), and
 * chains and trees of 3-row blocks (chain-column kernel, leaf order) in one sweep;
 * conjugate gradients preconditioned by the factor of a perturbed matrix
 * (mt_bchol_pcg, the solver's stale factor) against the dense solve; the
 * pivots read back from a factor (mt_bchol_pivot_ratios) against the dense
 * determinant. All of it twice: with the block kernels and with the
 * supernodal panels (mt_bchol_super.c). */
#include <string.h>

#include "mt_bchol.h"
#include "mt_test.h"

static unsigned long long rng = 88172645463325252ULL;
static double urand(void)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2 - 1;
}

/* 1: every factor is made by the supernodal panels (mt_bchol_super.c), which
 * the structure of these small patterns would not choose; the checks below
 * run once with the block kernels and once with the panels. */
static int force_panels;

static MtBchol *new_bchol(int nb, const int *size, int ne, const int *edge, MtError *err)
{
    MtBchol *b = mt_bchol_new(nb, size, ne, edge, err);
    if (b) {
        CHECK(mt_bchol_use_panels(b, force_panels) == 0, "panels: out of memory");
        CHECK(mt_bchol_has_panels(b) == force_panels, "panels %s as asked", force_panels ? "on" : "off");
    }
    return b;
}

/* Dense Gaussian elimination with partial pivoting on an n x n copy. */
static void dense_solve(int n, const double *A0, const double *b0, double *x)
{
    double *A = malloc(sizeof(double) * (size_t)(n * n));
    memcpy(A, A0, sizeof(double) * (size_t)(n * n));
    memcpy(x, b0, sizeof(double) * (size_t)n);
    for (int k = 0; k < n; k++) {
        int p = k;
        for (int i = k + 1; i < n; i++) if (fabs(A[i * n + k]) > fabs(A[p * n + k])) p = i;
        for (int j = 0; j < n; j++) { double t = A[k * n + j]; A[k * n + j] = A[p * n + j]; A[p * n + j] = t; }
        double t = x[k]; x[k] = x[p]; x[p] = t;
        for (int i = k + 1; i < n; i++) {
            double f = A[i * n + k] / A[k * n + k];
            for (int j = k; j < n; j++) A[i * n + j] -= f * A[k * n + j];
            x[i] -= f * x[k];
        }
    }
    for (int k = n - 1; k >= 0; k--) {
        for (int j = k + 1; j < n; j++) x[k] -= A[k * n + j] * x[j];
        x[k] /= A[k * n + k];
    }
    free(A);
}

/* Builds A = J Jᵀ + shift·I where J has, per edge and block, random rows so that
 * the pattern matches the block graph; fills bchol and returns the dense copy. */
static double check_pattern_mode(const char *name, int nb, const int *size, int ne, const int *edge, int dep_row, int mode);
static double check_pattern(const char *name, int nb, const int *size, int ne, const int *edge, int dep_row)
{
    return check_pattern_mode(name, nb, size, ne, edge, dep_row, 0);
}

/* A = J Jᵀ (dense, n × n, returned) stored into b's blocks: each
 * off-diagonal pair once, in its stored orientation. */
static double *load_gram(MtBchol *b, const double *J, int n, int nc, int nb, const int *size)
{
    double *A = calloc((size_t)(n * n), sizeof(double));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int c = 0; c < nc; c++) s += J[(size_t)i * nc + c] * J[(size_t)j * nc + c];
            A[i * n + j] = s;
        }
    mt_bchol_zero(b);
    for (int k = 0; k < nb; k++)
        for (int l = 0; l < nb; l++) {
            int sw;
            double *blk = mt_bchol_block(b, k, l, &sw);
            if (!blk || (k != l && sw)) continue;
            int ok = mt_bchol_offset(b, k), ol = mt_bchol_offset(b, l);
            for (int i = 0; i < size[k]; i++)
                for (int j = 0; j < size[l]; j++) blk[i * size[l] + j] = A[(ok + i) * n + (ol + j)];
        }
    return A;
}

/* mode 1: mt_bchol_factor_solve; dep_row (if ≥ 0) is marked out before the
 * factor instead of being made dependent, and the other rows must be solved. */
static double check_pattern_mode(const char *name, int nb, const int *size, int ne, const int *edge, int dep_row, int mode)
{
    MtError err = {0};
    MtBchol *b = new_bchol(nb, size, ne, edge, &err);
    CHECK(b != NULL, "%s: %s", name, err.msg);
    int n = mt_bchol_rows(b);
    /* a "body" per edge plus one per block: J has 6 columns per body */
    int nbody = ne + nb, nc = 6 * nbody;
    double *J = calloc((size_t)n * (size_t)nc, sizeof(double));
    for (int k = 0; k < nb; k++) {
        int o = mt_bchol_offset(b, k);
        for (int r = 0; r < size[k]; r++) {
            for (int c = 0; c < 6; c++) J[(size_t)(o + r) * nc + 6 * (ne + k) + c] = urand();
            for (int e = 0; e < ne; e++)
                if (edge[2 * e] == k || edge[2 * e + 1] == k)
                    for (int c = 0; c < 6; c++) J[(size_t)(o + r) * nc + 6 * e + c] = urand();
        }
    }
    if (dep_row >= 0 && mode == 0) { /* make row dep_row the sum of rows 0 and 1 */
        for (int c = 0; c < nc; c++) J[(size_t)dep_row * nc + c] = J[c] + J[nc + c];
    }
    double *A = load_gram(b, J, n, nc, nb, size);
    int bad = -1;
    double *x = malloc(sizeof(double) * (size_t)n), *xr = malloc(sizeof(double) * (size_t)n), *rhs = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++) rhs[i] = urand();
    double err_max = 0;
    if (mode == 1) {
        if (dep_row >= 0) {
            mt_bchol_set_dependent(b, dep_row, 1);
            rhs[dep_row] = 0; /* as mt_eval does for rows out of the solve */
        }
        memcpy(x, rhs, sizeof(double) * (size_t)n);
        int rc = mt_bchol_factor_solve(b, 1e-13, &bad, x);
        CHECK(rc == 0, "%s: factor failed at block %d", name, bad);
        if (dep_row >= 0) CHECK(x[dep_row] == 0, "%s: the unknown of the row out of the solve is zero", name);
        for (int i = 0; i < n; i++) {
            if (i == dep_row) continue;
            double s = 0;
            for (int j = 0; j < n; j++) s += A[i * n + j] * x[j];
            err_max = fmax(err_max, fabs(s - rhs[i]) / (1 + fabs(rhs[i])));
        }
        /* a second right-hand side with the kept factor (mt_bchol_solve reads what the
         * one-sweep factor stored, chain columns included) */
        for (int i = 0; i < n; i++) x[i] = rhs[i] = i == dep_row ? 0 : urand();
        mt_bchol_solve(b, x);
        for (int i = 0; i < n; i++) {
            if (i == dep_row) continue;
            double s = 0;
            for (int j = 0; j < n; j++) s += A[i * n + j] * x[j];
            err_max = fmax(err_max, fabs(s - rhs[i]) / (1 + fabs(rhs[i])));
        }
        free(J); free(A); free(x); free(xr); free(rhs);
        mt_bchol_free(b);
        return err_max;
    }
    int rc = mt_bchol_factor(b, dep_row >= 0, 1e-10, &bad);
    CHECK(rc == 0, "%s: factor failed at block %d", name, bad);
    if (dep_row < 0) {
        memcpy(x, rhs, sizeof(double) * (size_t)n);
        mt_bchol_solve(b, x);
        dense_solve(n, A, rhs, xr);
        for (int i = 0; i < n; i++) err_max = fmax(err_max, fabs(x[i] - xr[i]) / (1 + fabs(xr[i])));
    } else {
        int ndep = 0;
        for (int i = 0; i < n; i++) ndep += mt_bchol_row_dependent(b, i);
        CHECK(ndep == 1 && mt_bchol_row_dependent(b, dep_row), "%s: exactly row %d found dependent (found %d rows)", name,
              dep_row, ndep);
        /* with the row removed, the residual of the other rows must vanish */
        memcpy(x, rhs, sizeof(double) * (size_t)n);
        mt_bchol_solve(b, x);
        CHECK(x[dep_row] == 0, "%s: dependent unknown is zero", name);
        for (int i = 0; i < n; i++) {
            if (i == dep_row) continue;
            double s = 0;
            for (int j = 0; j < n; j++) s += A[i * n + j] * x[j];
            err_max = fmax(err_max, fabs(s - rhs[i]));
        }
    }
    free(J); free(A); free(x); free(xr); free(rhs);
    mt_bchol_free(b);
    return err_max;
}
/* Random J with the block pattern (a "body" per edge and per block), and
 * A = J Jᵀ (dense, n x n) stored into b's blocks. */
static double *pattern_matrix(MtBchol *b, int nb, const int *size, int ne, const int *edge, const double *J0, double eps,
                              double *J)
{
    int n = mt_bchol_rows(b), nc = 6 * (ne + nb);
    for (int k = 0; k < nb; k++) {
        int o = mt_bchol_offset(b, k);
        for (int r = 0; r < size[k]; r++) {
            double *row = J + (size_t)(o + r) * nc;
            for (int c = 0; c < 6; c++) row[6 * (ne + k) + c] = J0 ? J0[(size_t)(o + r) * nc + 6 * (ne + k) + c] * (1 + eps * urand()) : urand();
            for (int e = 0; e < ne; e++)
                if (edge[2 * e] == k || edge[2 * e + 1] == k)
                    for (int c = 0; c < 6; c++)
                        row[6 * e + c] = J0 ? J0[(size_t)(o + r) * nc + 6 * e + c] * (1 + eps * urand()) : urand();
        }
    }
    double *A = load_gram(b, J, n, nc, nb, size);
    return A;
}

/* A assembled in one object, the factor of A' (every entry of J changed by up
 * to eps relative) in another (made in a third and handed over by
 * mt_bchol_swap_factor, as the solver does): mt_bchol_mulv against the dense
 * product, then PCG to 1e-12 against the dense solve (largest error relative
 * to the largest unknown). dep_row ≥ 0 is out of the solve in both. *iters:
 * the iterations taken. */
static double check_pcg(const char *name, int nb, const int *size, int ne, const int *edge, double eps, int dep_row,
                        int *iters)
{
    MtError err = {0};
    MtBchol *a = new_bchol(nb, size, ne, edge, &err), *p = new_bchol(nb, size, ne, edge, &err);
    MtBchol *f = new_bchol(nb, size, ne, edge, &err);
    CHECK(a && p && f, "%s: %s", name, err.msg);
    int n = mt_bchol_rows(a), nc = 6 * (ne + nb);
    double *J = calloc((size_t)n * (size_t)nc, sizeof(double)), *J2 = calloc((size_t)n * (size_t)nc, sizeof(double));
    double *A = pattern_matrix(a, nb, size, ne, edge, NULL, 0, J);
    double *A2 = pattern_matrix(f, nb, size, ne, edge, J, eps, J2);
    if (dep_row >= 0) {
        mt_bchol_set_dependent(a, dep_row, 1);
        mt_bchol_set_dependent(f, dep_row, 1);
    }
    int bad = -1;
    CHECK(mt_bchol_factor(f, 0, 1e-13, &bad) == 0, "%s: factor of the perturbed matrix", name);
    mt_bchol_swap_factor(f, p);
    CHECK(mt_bchol_same_dependent(a, p), "%s: the preconditioner keeps the rows out of the solve", name);
    double *x = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * (size_t)n);
    double *xr = malloc(sizeof(double) * (size_t)n), *rhs = malloc(sizeof(double) * (size_t)n);
    /* product with A (rows out: zero in and out) */
    for (int i = 0; i < n; i++) x[i] = i == dep_row ? 0 : urand();
    mt_bchol_mulv(a, x, y);
    double emul = 0, ymax = 0;
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[i * n + j] * x[j];
        if (i == dep_row) s = 0;
        emul = fmax(emul, fabs(y[i] - s));
        ymax = fmax(ymax, fabs(s));
    }
    CHECK(emul <= 1e-12 * ymax, "%s: A x from the stored blocks: error %.3g of %.3g", name, emul, ymax);
    /* the dense reference on the kept rows */
    int m = 0, *keep = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        if (i != dep_row) keep[m++] = i;
    double *Ak = malloc(sizeof(double) * (size_t)(m * m)), *bk = malloc(sizeof(double) * (size_t)m), *xk = malloc(sizeof(double) * (size_t)m);
    for (int i = 0; i < n; i++) rhs[i] = i == dep_row ? 0 : urand();
    for (int i = 0; i < m; i++) {
        bk[i] = rhs[keep[i]];
        for (int j = 0; j < m; j++) Ak[i * m + j] = A[keep[i] * n + keep[j]];
    }
    dense_solve(m, Ak, bk, xk);
    for (int i = 0; i < n; i++) xr[i] = 0;
    for (int i = 0; i < m; i++) xr[keep[i]] = xk[i];
    memcpy(x, rhs, sizeof(double) * (size_t)n);
    *iters = mt_bchol_pcg(a, p, x, 1e-12, 100);
    CHECK(*iters > 0, "%s: PCG converged (%d)", name, *iters);
    double e = 0, xm = 0;
    for (int i = 0; i < n; i++) {
        e = fmax(e, fabs(x[i] - xr[i]));
        xm = fmax(xm, fabs(xr[i]));
    }
    if (dep_row >= 0) CHECK(x[dep_row] == 0, "%s: the unknown of the row out of the solve is zero", name);
    /* A itself is left for the next solve: a second solve gives the same answer */
    memcpy(y, rhs, sizeof(double) * (size_t)n);
    CHECK(mt_bchol_pcg(a, p, y, 1e-12, 100) == *iters, "%s: A unchanged by a solve", name);
    /* too few iterations allowed: -1 and the right-hand side back */
    if (*iters > 1) {
        memcpy(y, rhs, sizeof(double) * (size_t)n);
        CHECK(mt_bchol_pcg(a, p, y, 1e-12, 1) == -1 && !memcmp(y, rhs, sizeof(double) * (size_t)n),
              "%s: no convergence in 1 iteration gives -1 and b back", name);
    }
    free(J); free(J2); free(A); free(A2); free(x); free(y); free(xr); free(rhs); free(keep); free(Ak); free(bk); free(xk);
    mt_bchol_free(a); mt_bchol_free(p); mt_bchol_free(f);
    return e / xm;
}

/* log det of a dense n x n matrix (Gaussian elimination, partial pivoting; A > 0 assumed). */
static double dense_logdet(int n, const double *A0)
{
    double *A = malloc(sizeof(double) * (size_t)(n * n)), ld = 0;
    memcpy(A, A0, sizeof(double) * (size_t)(n * n));
    for (int k = 0; k < n; k++) {
        int p = k;
        for (int i = k + 1; i < n; i++) if (fabs(A[i * n + k]) > fabs(A[p * n + k])) p = i;
        for (int j = 0; j < n; j++) { double t = A[k * n + j]; A[k * n + j] = A[p * n + j]; A[p * n + j] = t; }
        ld += log(fabs(A[k * n + k]));
        for (int i = k + 1; i < n; i++) {
            double f = A[i * n + k] / A[k * n + k];
            for (int j = k; j < n; j++) A[i * n + j] -= f * A[k * n + j];
        }
    }
    free(A);
    return ld;
}

/* Pivots read back from the factor (both storages: LDLᵀ columns of 1–3 rows
 * with their adjugates, Cholesky columns of 4–6): their product is det A
 * whatever the order, so Σ log(ratio·A_ii) must give the dense log det. Also
 * after the factor is handed over (mt_bchol_swap_factor), and with row
 * near_row of J a copy of row near_src of the same block plus 1e-5 noise: one
 * of the two then has a tiny pivot. Returns |Σ log pivot − log det|. */
static double check_pivots(const char *name, int nb, const int *size, int ne, const int *edge, int near_row, int near_src)
{
    MtError err = {0};
    MtBchol *a = new_bchol(nb, size, ne, edge, &err), *p = new_bchol(nb, size, ne, edge, &err);
    CHECK(a && p, "%s: %s", name, err.msg);
    int n = mt_bchol_rows(a), nc = 6 * (ne + nb);
    double *J = calloc((size_t)n * (size_t)nc, sizeof(double)), *ratio = malloc(sizeof(double) * (size_t)n);
    double *A = pattern_matrix(a, nb, size, ne, edge, NULL, 0, J);
    if (near_row >= 0) { /* rows of one block: the same pattern */
        for (int c = 0; c < nc; c++) {
            double v = J[(size_t)near_src * nc + c];
            J[(size_t)near_row * nc + c] = v != 0 ? v + 1e-5 * urand() : 0;
        }
        free(A);
        A = load_gram(a, J, n, nc, nb, size);
    }
    int bad = -1;
    CHECK(mt_bchol_factor(a, 0, 1e-13, &bad) == 0, "%s: factor", name);
    mt_bchol_pivot_ratios(a, ratio);
    double ld = 0, rmin = 1;
    for (int i = 0; i < n; i++) {
        ld += log(ratio[i] * A[i * n + i]);
        rmin = fmin(rmin, ratio[i]);
    }
    double e = fabs(ld - dense_logdet(n, A));
    if (near_row >= 0)
        CHECK(fmin(ratio[near_row], ratio[near_src]) < 1e-6 && rmin == fmin(ratio[near_row], ratio[near_src]),
              "%s: rows %d and %d nearly equal: the smallest pivot ratio (%.3g) is one of theirs", name, near_row, near_src, rmin);
    mt_bchol_swap_factor(a, p);
    double *r2 = malloc(sizeof(double) * (size_t)n);
    mt_bchol_pivot_ratios(p, r2);
    CHECK(!memcmp(ratio, r2, sizeof(double) * (size_t)n), "%s: the same pivots after the factor is handed over", name);
    free(J); free(ratio); free(r2); free(A);
    mt_bchol_free(a); mt_bchol_free(p);
    return e;
}

static void check_all(void)
{
    enum { N = 40 };
    int size[N], edge[4 * N];
    for (int k = 0; k < N; k++) size[k] = 1 + k % 6;
    /* chain: k – k+1 */
    for (int k = 0; k + 1 < N; k++) { edge[2 * k] = k; edge[2 * k + 1] = k + 1; }
    CHECK_ABS(check_pattern("chain", N, size, N - 1, edge, -1), 0, 1e-9, "chain of 40 blocks vs dense solve");
    /* tree: parent (k-1)/2 */
    for (int k = 1; k < N; k++) { edge[2 * (k - 1)] = k; edge[2 * (k - 1) + 1] = (k - 1) / 2; }
    CHECK_ABS(check_pattern("tree", N, size, N - 1, edge, -1), 0, 1e-9, "binary tree of 40 blocks vs dense solve");
    /* grid 5 x 8 with loops: fill-in appears */
    int ne = 0;
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 8; j++) {
            int k = i * 8 + j;
            if (j + 1 < 8) { edge[2 * ne] = k; edge[2 * ne + 1] = k + 1; ne++; }
            if (i + 1 < 5) { edge[2 * ne] = k; edge[2 * ne + 1] = k + 8; ne++; }
        }
    CHECK_ABS(check_pattern("grid", N, size, ne, edge, -1), 0, 1e-9, "5x8 grid of blocks (with fill) vs dense solve");
    for (int k = 0; k + 1 < N; k++) { edge[2 * k] = k; edge[2 * k + 1] = k + 1; }
    for (int k = 0; k < N; k++) size[k] = 3;
    CHECK_ABS(check_pattern("chain+dependent", N, size, N - 1, edge, 2), 0, 1e-9,
              "residual of independent rows with a dependent row removed");
    /* chains and trees of 3-row blocks in one sweep: the chain-column kernel, the leaf
     * order of forests, the diagonal saved column by column (a parent of two children) */
    CHECK_ABS(check_pattern_mode("chain3 factor_solve", N, size, N - 1, edge, -1, 1), 0, 1e-9,
              "chain of 40 3-row blocks, factor and solve in one sweep: residual");
    CHECK_ABS(check_pattern_mode("chain3 row out", N, size, N - 1, edge, 3 * 10 + 1, 1), 0, 1e-9,
              "chain of 40 3-row blocks with a row out of the solve: residual of the others");
    {
        int te[2 * N];
        for (int k = 1; k < N; k++) { te[2 * (k - 1)] = k; te[2 * (k - 1) + 1] = (k - 1) / 2; }
        CHECK_ABS(check_pattern_mode("tree3 factor_solve", N, size, N - 1, te, -1, 1), 0, 1e-9,
                  "binary tree of 40 3-row blocks, factor and solve in one sweep: residual");
    }
    /* a 7 x 7 lattice of 3-row blocks (each linked to its row and column neighbours and its
     * diagonal ones, as the joints of a plate lattice are): fill-in with columns of many
     * below blocks */
    {
        enum { L = 7, NL = L * L };
        int sz[NL], ed[2 * 4 * NL], n2 = 0;
        for (int k = 0; k < NL; k++) sz[k] = 3;
        for (int i = 0; i < L; i++)
            for (int j = 0; j < L; j++) {
                int k = i * L + j;
                if (j + 1 < L) { ed[2 * n2] = k; ed[2 * n2 + 1] = k + 1; n2++; }
                if (i + 1 < L) { ed[2 * n2] = k; ed[2 * n2 + 1] = k + L; n2++; }
                if (i + 1 < L && j + 1 < L) { ed[2 * n2] = k; ed[2 * n2 + 1] = k + L + 1; n2++; }
                if (i + 1 < L && j > 0) { ed[2 * n2] = k; ed[2 * n2 + 1] = k + L - 1; n2++; }
            }
        CHECK_ABS(check_pattern("lattice3", NL, sz, n2, ed, -1), 0, 1e-9, "7x7 lattice of 3-row blocks vs dense solve");
        CHECK_ABS(check_pattern_mode("lattice3 factor_solve", NL, sz, n2, ed, -1, 1), 0, 1e-9,
                  "7x7 lattice, factor and solve in one sweep: residual");
        CHECK_ABS(check_pattern_mode("lattice3 row out", NL, sz, n2, ed, 3 * 24 + 1, 1), 0, 1e-9,
                  "7x7 lattice with a row out of the solve: residual of the others");
        /* stale factor as preconditioner: a factor of the matrix 1e-3 away takes a few
         * iterations, one of the same matrix one */
        int it = 0;
        CHECK_ABS(check_pcg("lattice3 pcg", NL, sz, n2, ed, 1e-3, -1, &it), 0, 1e-10, "7x7 lattice, PCG vs dense solve");
        CHECK(it >= 2 && it <= 10, "7x7 lattice, PCG with a factor 1e-3 away: %d iterations (2..10)", it);
        CHECK_ABS(check_pcg("lattice3 pcg row out", NL, sz, n2, ed, 1e-3, 3 * 24 + 1, &it), 0, 1e-10,
                  "7x7 lattice with a row out of the solve, PCG vs dense solve of the others");
        CHECK_ABS(check_pcg("lattice3 pcg exact", NL, sz, n2, ed, 0, -1, &it), 0, 1e-9, "7x7 lattice, PCG with its own factor");
        CHECK(it == 1, "PCG with the factor of A itself: %d iteration (1)", it);
        CHECK_ABS(check_pivots("lattice3 pivots", NL, sz, n2, ed, -1, -1), 0, 1e-9,
                  "7x7 lattice: Σ log pivot against the dense log det");
        /* the tiny pivot (ratio ~1e-10) carries a relative rounding error of ~1e-16 / 1e-10 in both computations */
        CHECK_ABS(check_pivots("lattice3 near", NL, sz, n2, ed, 3 * 24 + 2, 3 * 24), 0, 1e-4,
                  "7x7 lattice with two nearly equal rows: Σ log pivot against the dense log det");
    }
    {
        int it = 0;
        for (int k = 0; k < N; k++) size[k] = 1 + k % 6;
        CHECK_ABS(check_pcg("chain pcg", N, size, N - 1, edge, 1e-3, -1, &it), 0, 1e-10, "chain of 40 blocks, PCG vs dense solve");
        CHECK(it >= 2 && it <= 10, "chain, PCG with a factor 1e-3 away: %d iterations (2..10)", it);
        CHECK_ABS(check_pivots("chain pivots", N, size, N - 1, edge, -1, -1), 0, 1e-9,
                  "chain of 40 blocks of 1–6 rows: Σ log pivot against the dense log det");
    }
}

int main(void)
{
    {
        /* the structure's choice: a long chain keeps the block kernels (its panels would stay 3 columns
         * wide, or merge into dense ones) */
        enum { NC = 400 };
        int sz[NC], ed[2 * NC];
        for (int k = 0; k < NC; k++) {
            sz[k] = 3;
            ed[2 * k] = k;
            ed[2 * k + 1] = k + 1 < NC ? k + 1 : k;
        }
        MtError err = {0};
        MtBchol *b = mt_bchol_new(NC, sz, NC - 1, ed, &err);
        CHECK(b && !mt_bchol_has_panels(b), "chain of 400 3-row blocks: no panels");
        mt_bchol_free(b);
    }
    check_all();
    force_panels = 1;
    check_all();
    return mt_test_done();
}
