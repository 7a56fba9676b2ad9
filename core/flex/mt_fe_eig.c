/* mt_fe_eig.c — sparse and dense symmetric generalised eigensolvers
 * (mt_fe_eig.h).
 *
 * Shift-invert Lanczos, ARPACK mode 3: the operator OP = (K − σM)⁻¹M is
 * self-adjoint in the M inner product; its largest eigenvalues ν give the
 * eigenvalues λ = σ + 1/ν nearest σ, i.e. the lowest ones for σ below the
 * spectrum. One sparse factorisation (mt_fe_chol), then two triangular solves and one
 * sparse product with M per Lanczos step. ARPACK's implicit restarts keep the
 * basis at ncv vectors (n·ncv doubles). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpack.h>
#include <cblas.h>
#include <lapacke.h>

#include "mt_fe_eig.h"
#include "mt_i18n.h"

static double residual(const MtFeCsc *A, int n, double lambda, double lref, const double *phi, double *t1, double *t2);

static int nomem(MtError *err)
{
    mt_error_set(err, MT_ERR_NOMEM, "", MT_("out of memory in the eigensolver"));
    return -1;
}

int mt_fe_dense_sygv(int n, double *K, double *M, double *lambda, double *X, MtError *err)
{
    if (n == 0) return 0;
    int info = LAPACKE_dsygvd(LAPACK_COL_MAJOR, 1, 'V', 'U', n, K, n, M, n, lambda);
    if (info) {
        mt_error_set(err, MT_ERR_SOLVE, "",
                     MT_("reduced eigenproblem failed (LAPACK dsygvd info %d): the reduced mass matrix is not positive "
                         "definite"),
                     info);
        return -1;
    }
    if (X != K) memcpy(X, K, sizeof(double) * (size_t)n * (size_t)n);
    return 0;
}

int mt_fe_dense_shifted(int n, const double *K, const double *M, double sigma, int nev, double *lambda, double *X,
                        MtError *err)
{
    size_t nn = (size_t)n * (size_t)n;
    double *L = malloc(sizeof(double) * nn), *C = malloc(sizeof(double) * nn), *nu = malloc(sizeof(double) * (size_t)n);
    if (!L || !C || !nu) {
        free(L), free(C), free(nu);
        return nomem(err);
    }
    for (size_t k = 0; k < nn; k++) L[k] = K[k] - sigma * M[k];
    if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, L, n)) {
        free(L), free(C), free(nu);
        mt_error_set(err, MT_ERR_SOLVE, "",
                     MT_("K - sigma*M is not positive definite (sigma = %g): a mechanism or a negative stiffness"), sigma);
        return -1;
    }
    /* C = L⁻¹ M L⁻ᵀ */
    memcpy(C, M, sizeof(double) * nn);
    LAPACKE_dtrtrs(LAPACK_COL_MAJOR, 'L', 'N', 'N', n, n, L, n, C, n);                   /* L⁻¹ M */
    for (int i = 0; i < n; i++)                                                             /* transpose */
        for (int j = i + 1; j < n; j++) {
            double t = C[(size_t)i * n + j];
            C[(size_t)i * n + j] = C[(size_t)j * n + i];
            C[(size_t)j * n + i] = t;
        }
    LAPACKE_dtrtrs(LAPACK_COL_MAJOR, 'L', 'N', 'N', n, n, L, n, C, n); /* L⁻¹ (L⁻¹ M)ᵀ */
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double a = 0.5 * (C[(size_t)i * n + j] + C[(size_t)j * n + i]);
            C[(size_t)i * n + j] = C[(size_t)j * n + i] = a;
        }
    if (LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'U', n, C, n, nu)) {
        free(L), free(C), free(nu);
        mt_error_set(err, MT_ERR_SOLVE, "", MT_("dense eigenproblem failed to converge"));
        return -1;
    }
    /* largest ν first; λ = σ + 1/ν; φ = L⁻ᵀ y / √ν */
    double numax = nu[n - 1];
    int k = 0;
    for (int j = n - 1; j >= 0 && k < nev; j--) {
        if (!(nu[j] > 1e-13 * numax)) break; /* massless directions: infinite λ */
        lambda[k] = sigma + 1 / nu[j];
        double *x = X + (size_t)k * n;
        memcpy(x, C + (size_t)j * n, sizeof(double) * (size_t)n);
        LAPACKE_dtrtrs(LAPACK_COL_MAJOR, 'L', 'T', 'N', n, 1, L, n, x, n);
        double s = 1 / sqrt(nu[j]);
        for (int i = 0; i < n; i++) x[i] *= s;
        k++;
    }
    free(L), free(C), free(nu);
    if (k < nev) {
        mt_error_set(err, MT_ERR_SOLVE, "", MT_("only %d finite eigenvalues exist (%d asked for): the model has massless "
                                                "degrees of freedom"),
                     k, nev);
        return -1;
    }
    return 0;
}

/* Dense path for a leading block of a sparse pair. */
static int dense_path(const MtFeCsc *A, int n, int nev, double sigma, double *lambda, double *Phi, MtError *err)
{
    size_t nn = (size_t)n * (size_t)n;
    double *K = calloc(nn, sizeof(double)), *M = calloc(nn, sizeof(double));
    if (!K || !M) {
        free(K), free(M);
        return nomem(err);
    }
    for (int j = 0; j < n; j++)
        for (int p = A->p[j]; p < A->p[j + 1]; p++) {
            int i = A->i[p];
            if (i >= n) break; /* lower triangle, rows sorted: outside the block */
            K[(size_t)j * n + i] = K[(size_t)i * n + j] = A->k[p];
            M[(size_t)j * n + i] = M[(size_t)i * n + j] = A->m[p];
        }
    int r = mt_fe_dense_shifted(n, K, M, sigma, nev, lambda, Phi, err);
    free(K), free(M);
    return r;
}

double mt_fe_eig_residual(const MtFeCsc *A, int n, int nev, const double *lambda, const double *Phi)
{
    double *t = malloc(sizeof(double) * 2 * ((size_t)n + 1)), r = 0, lref = 0, kd = 0, md = 0;
    if (!t) return NAN;
    for (int k = 0; k < nev; k++) lref = fmax(lref, fabs(lambda[k]));
    for (int j = 0; j < n; j++) /* the diagonal comes first in each column */
        kd = fmax(kd, fabs(A->k[A->p[j]])), md = fmax(md, fabs(A->m[A->p[j]]));
    /* round-off scale of K for rigid-body pairs: a fraction of max K_jj/max M_jj */
    lref = fmax(lref, md > 0 ? 1e-6 * kd / md : 0);
    for (int k = 0; k < nev; k++) r = fmax(r, residual(A, n, lambda[k], lref, Phi + (size_t)k * n, t, t + n));
    free(t);
    return r;
}

/* ‖Kφ − λMφ‖ relative to max(‖Kφ‖, λ_ref‖Mφ‖): λ_ref, the largest |λ| of
 * the pairs (at least 10⁻⁶ max K_jj / max M_jj), keeps the near-zero
 * rigid-body pairs on a meaningful scale. */
static double residual(const MtFeCsc *A, int n, double lambda, double lref, const double *phi, double *t1, double *t2)
{
    mt_fe_symv(A, A->k, n, phi, t1);
    mt_fe_symv(A, A->m, n, phi, t2);
    double r = 0, a = 0, b = 0;
    for (int i = 0; i < n; i++) {
        double d = t1[i] - lambda * t2[i];
        r += d * d, a += t1[i] * t1[i], b += lref * lref * t2[i] * t2[i];
    }
    double s = sqrt(fmax(a, b));
    return s > 0 ? sqrt(r) / s : sqrt(r);
}


/* Block shift-invert Lanczos with full reorthogonalisation (blocks of 8):
 * the Krylov basis Q of OP = (K − σM)⁻¹M is kept M-orthonormal by two passes
 * of block Gram–Schmidt against all of Q; the projection T = QᵀM·OP·Q comes
 * from the coefficients; Ritz values θ of T give λ = σ + 1/θ, converged when
 * the residual bound ‖R_j y_last‖ ≤ max(10⁻¹⁰ θ, 10⁻¹⁵ θ_max) (the Ritz value
 * error is of the order of the square of that). Each step solves with b right-
 * hand sides at once: the solve then streams the factor once for all of them
 * (BLAS-3), about 3.5 times the cost of one solve for 8 vectors. Returns 0,
 * 1 if it did not converge within its basis (the caller then runs ARPACK),
 * -1 on error. */
static int block_lanczos(MtFeCsc *A, int n, int nev, double sigma, MtFeChol *F, double *lambda, double **Phi_out,
                         const MtFeProgress *pr, MtFeEigInfo *info, MtError *err)
{
    const int b = 8, p = nev + b; /* kept at a restart: the wanted pairs and one block more */
    int mmax = b * ((p + b + b - 1) / b) + (getenv("MT_LB_EXTRA") ? atoi(getenv("MT_LB_EXTRA")) : 0);
    double ltol = getenv("MT_LB_TOL") ? atof(getenv("MT_LB_TOL")) : 1e-10;
    if (mmax + b > n / 2) return 1;
    int restarts = 0;
    int mt = mmax + b, rc = -1;
    double *Q = malloc(sizeof(double) * (size_t)n * (size_t)mt), *W = malloc(sizeof(double) * (size_t)n * b);
    double *MW = malloc(sizeof(double) * (size_t)n * b), *T = calloc((size_t)mt * mt, sizeof(double));
    double *C = malloc(sizeof(double) * (size_t)mt * b), *S = malloc(sizeof(double) * (size_t)mmax * mmax);
    double *th = malloc(sizeof(double) * (size_t)mmax), G[64], Gd[8];
    if (!Q || !W || !MW || !T || !C || !S || !th) {
        nomem(err);
        goto done;
    }
    /* start: random block through OP once (into the range of OP) */
    unsigned long long r = 0x2545F4914F6CDD1DULL;
    for (size_t i = 0; i < (size_t)n * b; i++) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        W[i] = (double)(r >> 11) / 4503599627370496.0 - 1;
    }
    int k = 0; /* basis size */
    /* MW = M·W is kept up to date through every step, so the operator's M·Q_j
     * is the MW of the block just added: 3 or 4 products with M per step */
    mt_fe_symm_block(A, A->m, n, b, W, n, MW, n);
    for (int step = 0;; step++) {
        /* W ← OP X = (K − σM)⁻¹ M X (step 0: the start block; then the last block of Q) */
        memcpy(W, MW, sizeof(double) * (size_t)n * b);
        if (mt_fe_chol_solve(F, b, W, n, err)) goto done;
        info->nop += b;
        if (mt_fe_progress(pr, "eigenvalues", fmin(0.95, (double)info->nop / (2.5 * mmax)), err)) goto done;
        mt_fe_symm_block(A, A->m, n, b, W, n, MW, n);
        /* block Gram–Schmidt in the M inner product; a second pass only when
         * the first removed most of a column (Daniel–Gragg–Kaufman–Stewart) */
        double nb0[8];
        for (int j = 0; j < b; j++) nb0[j] = cblas_ddot(n, W + (size_t)j * n, 1, MW + (size_t)j * n, 1);
        for (int pass = 0; pass < 2 && k > 0; pass++) {
            cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, k, b, n, 1, Q, n, MW, n, 0, C, k);
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, b, k, -1, Q, n, C, k, 1, W, n);
            if (step > 0)
                for (int j = 0; j < b; j++)
                    for (int i = 0; i < k; i++) T[(size_t)(k - b + j) * mt + i] += C[(size_t)j * k + i];
            mt_fe_symm_block(A, A->m, n, b, W, n, MW, n);
            int again = 0;
            for (int j = 0; j < b; j++)
                again |= cblas_ddot(n, W + (size_t)j * n, 1, MW + (size_t)j * n, 1) < 0.5 * nb0[j];
            if (!again) break;
        }
        /* M-orthonormalise the block: Cholesky QR, twice for accuracy; MW follows W */
        double Rt[64];
        for (int i = 0; i < 64; i++) Rt[i] = (i % 9 == 0);
        for (int pass = 0; pass < 2; pass++) {
            if (pass) mt_fe_symm_block(A, A->m, n, b, W, n, MW, n);
            cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, b, b, n, 1, W, n, MW, n, 0, G, b);
            double gmax = 0;
            for (int i = 0; i < b; i++) Gd[i] = G[i * b + i], gmax = fmax(gmax, Gd[i]);
            if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'U', b, G, b)) {
                if (getenv("MT_LANCZOS_DEBUG")) fprintf(stderr, "potrf breakdown at k %d\n", k);
                rc = 1; /* breakdown: leave it to ARPACK */
                goto done;
            }
            for (int i = 0; i < b; i++)
                if (!(G[i * b + i] * G[i * b + i] > 1e-24 * gmax)) {
                    rc = 1;
                    goto done;
                }
            for (int j = 0; j < b; j++) /* lower triangle of G is garbage: clear */
                for (int i = j + 1; i < b; i++) G[j * b + i] = 0;
            cblas_dtrsm(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, n, b, 1, G, b, W, n);
            cblas_dtrsm(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, n, b, 1, G, b, MW, n);
            /* R_total = G · R_total */
            double tmp[64];
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, b, b, b, 1, G, b, Rt, b, 0, tmp, b);
            memcpy(Rt, tmp, sizeof tmp);
        }
        memcpy(Q + (size_t)k * n, W, sizeof(double) * (size_t)n * b);
        if (step > 0)
            for (int j = 0; j < b; j++)
                for (int i = 0; i < b; i++) T[(size_t)(k - b + j) * mt + k + i] = Rt[j * b + i];
        k += b;
        if (step == 0 || k - b < nev + b) continue; /* k − b < p ≤ mmax − b: room left */
        /* Rayleigh–Ritz on the first k − b vectors (the last block is the residual direction) */
        int kk = k - b;
        for (int j = 0; j < kk; j++)
            for (int i = 0; i < kk; i++) S[(size_t)j * kk + i] = 0.5 * (T[(size_t)j * mt + i] + T[(size_t)i * mt + j]);
        if (LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'U', kk, S, kk, th)) {
            rc = 1;
            goto done;
        }
        int conv = 1;
        for (int q = kk - 1; q >= kk - nev && conv; q--) {
            /* ‖R y_last‖ with R = T[kk.., kk−b..] */
            double nr = 0;
            for (int i = 0; i < b; i++) {
                double t = 0;
                for (int j = 0; j < b; j++) t += T[(size_t)(kk - b + j) * mt + kk + i] * S[(size_t)q * kk + kk - b + j];
                nr += t * t;
            }
            /* relative to θ itself, or to round-off in OP (θ_max) when rigid-body modes make θ_max large */
            conv = th[q] > 0 && sqrt(nr) <= fmax(ltol * th[q], 1e-15 * th[kk - 1]);
            if (getenv("MT_LANCZOS_DEBUG")) fprintf(stderr, "k %d q %d theta %g res %g\n", kk, q, th[q], sqrt(nr));
        }
        if (conv) {
            double *Phi = malloc(sizeof(double) * (size_t)n * (size_t)nev), *Y = malloc(sizeof(double) * (size_t)kk * nev);
            if (!Phi || !Y) {
                free(Phi), free(Y);
                nomem(err);
                goto done;
            }
            for (int q = 0; q < nev; q++) { /* ascending λ: descending θ */
                lambda[q] = sigma + 1 / th[kk - 1 - q];
                memcpy(Y + (size_t)q * kk, S + (size_t)(kk - 1 - q) * kk, sizeof(double) * (size_t)kk);
            }
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, nev, kk, 1, Q, n, Y, kk, 0, Phi, n);
            /* purification: x ← OP x / θ = x + Q_next R y_last / θ (no solve needed), which damps the
             * high-frequency content of the Ritz vectors that the K-residual is sensitive to */
            double *Z = malloc(sizeof(double) * (size_t)b * nev);
            if (Z) {
                for (int q = 0; q < nev; q++)
                    for (int i = 0; i < b; i++) {
                        double t = 0;
                        for (int j = 0; j < b; j++) t += T[(size_t)(kk - b + j) * mt + kk + i] * Y[(size_t)q * kk + kk - b + j];
                        Z[(size_t)q * b + i] = t / th[kk - 1 - q];
                    }
                cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, nev, b, 1, Q + (size_t)kk * n, n, Z, b, 1, Phi, n);
                free(Z);
            }
            free(Y);
            info->ncv = kk;
            info->iterations = restarts;
            *Phi_out = Phi;
            rc = 0;
            goto done;
        }
        if (k + b > mt) { /* no room for another block: thick restart, keep the best p Ritz vectors and the next block */
            if (++restarts > 60) {
                rc = 1;
                break;
            }
            double *tmp = malloc(sizeof(double) * 512 * (size_t)p);
            if (!tmp) {
                nomem(err);
                goto done;
            }
            double *Y = S + (size_t)(kk - p) * kk; /* the p largest θ: the last p columns of S */
            for (int r0 = 0; r0 < n; r0 += 512) {
                int nr_ = n - r0 < 512 ? n - r0 : 512;
                cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, nr_, p, kk, 1, Q + r0, n, Y, kk, 0, tmp, nr_);
                for (int j = 0; j < p; j++) memcpy(Q + (size_t)j * n + r0, tmp + (size_t)j * nr_, sizeof(double) * (size_t)nr_);
            }
            free(tmp);
            memmove(Q + (size_t)p * n, Q + (size_t)kk * n, sizeof(double) * (size_t)n * b);
            double Rl[64];
            for (int j = 0; j < b; j++)
                for (int i = 0; i < b; i++) Rl[j * b + i] = T[(size_t)(kk - b + j) * mt + kk + i]; /* R(i, j) */
            memset(T, 0, sizeof(double) * (size_t)mt * mt);
            for (int i = 0; i < p; i++) {
                T[(size_t)i * mt + i] = th[kk - p + i];
                for (int r2 = 0; r2 < b; r2++) { /* coupling of the next block to the kept vectors: R·y_last */
                    double t = 0;
                    for (int j = 0; j < b; j++) t += Rl[j * b + r2] * Y[(size_t)i * kk + kk - b + j];
                    T[(size_t)i * mt + p + r2] = t; /* row p + r2, column i; the column comes with the next step */
                }
            }
            k = p + b;
        }
    }
    if (rc < 0) rc = 1;
done:
    free(Q), free(W), free(MW), free(T), free(C), free(S), free(th);
    return rc;
}

int mt_fe_eigs(MtFeCsc *A, int n, int nev, double sigma, MtFeChol *fac, const MtFeModel *m,
               const MtFeDofs *d, double *lambda, double **Phi_out, const MtFeProgress *pr, MtFeEigInfo *info,
               MtError *err)
{
    MtFeEigInfo dummy;
    double *Phi = NULL;
    *Phi_out = NULL;
    if (!info) info = &dummy;
    memset(info, 0, sizeof *info);
    if (nev <= 0) return 0;
    if (nev > n) {
        mt_error_set(err, MT_ERR_ARG, "", MT_("%d modes asked for, but the model has only %d degrees of freedom"), nev,
                     n);
        return -1;
    }
    int ncv = 2 * nev + 1 > nev + 20 ? 2 * nev + 1 : nev + 20;
    if (ncv > n) ncv = n;
    if (A->k && n <= MT_FE_DENSE_MAX && (ncv >= n || n <= 200)) { /* small: dense */
        info->dense = 1;
        if (mt_fe_progress(pr, "eigenvalues", 0, err)) return -1;
        Phi = malloc(sizeof(double) * (size_t)n * (size_t)nev);
        if (!Phi) return nomem(err);
        if (dense_path(A, n, nev, sigma, lambda, Phi, err)) {
            free(Phi);
            return -1;
        }
        info->residual = mt_fe_eig_residual(A, n, nev, lambda, Phi);
        *Phi_out = Phi;
        return mt_fe_progress(pr, "eigenvalues", 1, err) ? -1 : 0;
    }
    if (ncv >= n || !A->m) {
        mt_error_set(err, MT_ERR_ARG, "", MT_("eigensolver: %d modes of %d DOFs need the stiffness matrix (dense path)"),
                     nev, n);
        return -1;
    }
    MtFeChol *own = NULL;
    if (!fac) {
        own = fac = mt_fe_chol_new(A, n, sigma, m, d, pr, err);
        if (!fac) return -1;
    }
    if (nev >= 6) { /* block Lanczos first; ARPACK if it does not converge */
        int br = block_lanczos(A, n, nev, sigma, fac, lambda, &Phi, pr, info, err);
        if (br < 0) {
            mt_fe_chol_free(own);
            return -1;
        }
        if (br == 0) {
            info->block = 1;
            double *tmp = malloc(sizeof(double) * 2 * (size_t)n);
            if (!tmp) {
                free(Phi), mt_fe_chol_free(own);
                return nomem(err);
            }
            for (int k = 0; k < nev; k++) { /* M-normalise against round-off */
                double *x = Phi + (size_t)k * n, s2 = 0;
                mt_fe_symv(A, A->m, n, x, tmp);
                for (int i = 0; i < n; i++) s2 += x[i] * tmp[i];
                if (s2 > 0)
                    for (int i = 0; i < n; i++) x[i] /= sqrt(s2);
            }
            free(tmp);
            if (A->k) info->residual = mt_fe_eig_residual(A, n, nev, lambda, Phi);
            mt_fe_chol_free(own);
            *Phi_out = Phi;
            return mt_fe_progress(pr, "eigenvalues", 1, err) ? -1 : 0;
        }
    }
    int lworkl = ncv * (ncv + 8), rc = -1;
    double *resid = malloc(sizeof(double) * (size_t)n), *v = malloc(sizeof(double) * (size_t)n * (size_t)ncv);
    double *workd = malloc(sizeof(double) * 3 * (size_t)n), *workl = malloc(sizeof(double) * (size_t)lworkl);
    double *tmp = malloc(sizeof(double) * 2 * (size_t)n), *dv = malloc(sizeof(double) * (size_t)ncv);
    int *select = calloc((size_t)ncv, sizeof(int));
    if (!resid || !v || !workd || !workl || !tmp || !dv || !select) {
        nomem(err);
        goto done;
    }
    int ido = 0, iparam[11] = {0}, ipntr[14] = {0}, ainfo = 0;
    iparam[0] = 1;   /* exact shifts */
    iparam[2] = 500; /* restarts at most */
    iparam[6] = 3;   /* shift-invert, generalised */
    double tol = 1e-12;
    info->ncv = ncv;
    for (;;) {
        dsaupd_c(&ido, "G", n, "LM", nev, tol, resid, ncv, v, n, iparam, ipntr, workd, workl, lworkl, &ainfo);
        if (ido == -1 || ido == 1) {
            double *x = workd + ipntr[0] - 1, *y = workd + ipntr[1] - 1;
            if (ido == -1) mt_fe_symv(A, A->m, n, x, y);
            else memcpy(y, workd + ipntr[2] - 1, sizeof(double) * (size_t)n);
            if (mt_fe_chol_solve(fac, 1, y, n, err)) goto done;
            info->nop++;
            if ((info->nop & 7) == 0 &&
                mt_fe_progress(pr, "eigenvalues", fmin(0.95, (double)info->nop / (3.0 * ncv)), err))
                goto done;
        } else if (ido == 2) {
            mt_fe_symv(A, A->m, n, workd + ipntr[0] - 1, workd + ipntr[1] - 1);
        } else break;
    }
    info->iterations = iparam[2];
    if (ainfo < 0 || ainfo == 1 || ainfo == 3) {
        mt_error_set(err, MT_ERR_SOLVE, "",
                     MT_("the Lanczos eigensolver did not converge (ARPACK dsaupd info %d, %d of %d eigenvalues "
                         "converged)"),
                     ainfo, iparam[4], nev);
        goto done;
    }
    /* the Ritz vectors overwrite the first nev Lanczos vectors (allowed by
     * ARPACK): no second n×nev array */
    dseupd_c(1, "A", select, dv, v, n, sigma, "G", n, "LM", nev, tol, resid, ncv, v, n, iparam, ipntr, workd, workl,
             lworkl, &ainfo);
    if (ainfo != 0) {
        mt_error_set(err, MT_ERR_SOLVE, "", MT_("the Lanczos eigensolver failed (ARPACK dseupd info %d)"), ainfo);
        goto done;
    }
    free(workl), workl = NULL;
    Phi = realloc(v, sizeof(double) * (size_t)n * (size_t)nev);
    if (!Phi) Phi = v;
    v = NULL;
    /* ascending λ (dseupd returns ascending algebraic order already; sort to be sure) */
    for (int i = 1; i < nev; i++)
        for (int j = i; j > 0 && dv[j] < dv[j - 1]; j--) {
            double t = dv[j];
            dv[j] = dv[j - 1], dv[j - 1] = t;
            for (int r = 0; r < n; r++) {
                double u = Phi[(size_t)j * n + r];
                Phi[(size_t)j * n + r] = Phi[(size_t)(j - 1) * n + r];
                Phi[(size_t)(j - 1) * n + r] = u;
            }
        }
    for (int k = 0; k < nev; k++) {
        lambda[k] = dv[k];
        /* M-normalise (ARPACK returns M-orthonormal vectors; renormalise against round-off) */
        double *x = Phi + (size_t)k * n;
        mt_fe_symv(A, A->m, n, x, tmp);
        double s = 0;
        for (int i = 0; i < n; i++) s += x[i] * tmp[i];
        if (s > 0) {
            s = 1 / sqrt(s);
            for (int i = 0; i < n; i++) x[i] *= s;
        }
    }
    if (A->k) info->residual = mt_fe_eig_residual(A, n, nev, lambda, Phi);
    rc = mt_fe_progress(pr, "eigenvalues", 1, err) ? -1 : 0;
    if (!rc) *Phi_out = Phi, Phi = NULL;
done:
    free(Phi);
    free(resid), free(v), free(workd), free(workl), free(tmp), free(dv), free(select);
    mt_fe_chol_free(own);
    return rc;
}
