/* mt_flex_damp.c — modal damping of a flexible body on the modes its joints
 * give it (mt_flex.h; docs/flexible-dynamics.md, "Damping").
 *
 * `zeta` asks for a damping ratio. The reduced body's coordinates are the
 * modes of the free-floating body; held by a joint it vibrates in other modes
 * (a cantilever's first mode is mostly a rotation of the floating frame
 * about the clamp), and diag(2ζω_free) on the free modes gave such a mode a
 * small fraction of the ratio asked (0.012 for 0.2). So the body is held
 * here by the rows of every constraint acting on its markers, at the initial
 * configuration, as if the bodies on their other sides stood still: with J
 * the rows' columns on the body's 6 + N velocities (v, ω, ẇ) and Z a basis
 * of their null space, the held modes solve Zᵀ K Z φ = ω² Zᵀ M Z φ with
 * K = diag(0, K_w). The damping force acts on ẇ alone — an internal force,
 * so rigid motion of the body is never damped — and D is the N×N matrix
 * with w_iᵀ D w_j = 2ζω_i δ_ij for the elastic parts w_i of the held modes
 * (M-normalised, ω_i > 0): D = B⁻ᵀ diag(2ζω) B⁻¹, B = [w_1 …]. Held modes of
 * zero frequency (rigid motion the joints leave free) get nothing. When the
 * holds leave fewer than N elastic modes (a body held at two nodes in every
 * component), the remaining directions, K-orthogonal to the held ones (the
 * interface's relative motion), get 2ζω on their own modes (YᵀKY, YᵀM_wwY). */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mt_flex.h"
#include "mt_i18n.h"

/* Rows of the constraints acting on flexible body f (both sides summed when
 * a block holds two of its markers) into J (m × d, column-major, m ≤ cap). */
static int held_rows(const MtSystem *s, const MtState *st, const MtFlexSys *f, double *J, int cap)
{
    int m = 0, d = f->d, N = f->N;
    for (int k = 0; k < s->nblock; k++) {
        const MtCBlock *b = &s->block[k];
        int on = 0;
        for (int sd = 0; sd < b->nside; sd++) on |= b->body[sd] == f->body && b->gwoff[sd] >= 0;
        if (!on || b->lean) continue;
        for (int rr = 0; rr < b->nrow; rr++) {
            if (s->lockrow[b->row0 + rr]) continue; /* a lock holds nothing until its event */
            if (J && m < cap) {
                for (int c = 0; c < d; c++) J[m + (size_t)cap * c] = 0;
                for (int sd = 0; sd < b->nside; sd++) {
                    if (b->body[sd] != f->body || b->gwoff[sd] < 0) continue;
                    const double *G = mt_state_G(st, k, sd) + 6 * rr, *Gw = st->Gw + b->gwoff[sd] + (size_t)rr * N;
                    for (int c = 0; c < 6; c++) J[m + (size_t)cap * c] += G[c];
                    for (int c = 0; c < N; c++) J[m + (size_t)cap * (6 + c)] += Gw[c];
                }
            }
            m++;
        }
    }
    return m;
}

/* Null space of the m × n matrix A (column-major, destroyed): its basis into
 * Z (n × nz, orthonormal columns), nz returned; -1 on failure. */
static int null_space(double *A, int m, int n, double *Z)
{
    if (m == 0) {
        memset(Z, 0, sizeof(double) * (size_t)n * n);
        for (int i = 0; i < n; i++) Z[i + (size_t)n * i] = 1;
        return n;
    }
    int mn = m < n ? m : n;
    double *sv = malloc(sizeof(double) * ((size_t)mn + 1)), *VT = malloc(sizeof(double) * (size_t)n * n),
           *sup = malloc(sizeof(double) * ((size_t)mn + 1));
    int nz = -1;
    if (sv && VT && sup && !LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'A', m, n, A, m, sv, NULL, 1, VT, n, sup)) {
        int r = 0;
        while (r < mn && sv[r] > 1e-9 * sv[0]) r++;
        nz = n - r;
        for (int c = 0; c < nz; c++)
            for (int i = 0; i < n; i++) Z[i + (size_t)n * c] = VT[(r + c) + (size_t)n * i];
    }
    free(sv), free(VT), free(sup);
    return nz;
}

/* Generalised eigenproblem of the projections ZᵀKZ, ZᵀMZ (K, M n × n, Z
 * n × nz): eigenvalues into lam, M-normalised eigenvectors, mapped back by
 * Z, into X (n × nz). 0, or -1 on failure. */
static int projected_modes(const double *K, const double *M, const double *Z, int n, int nz, double *lam, double *X)
{
    double *T = malloc(sizeof(double) * (size_t)n * nz), *Kz = malloc(sizeof(double) * (size_t)nz * nz),
           *Mz = malloc(sizeof(double) * (size_t)nz * nz);
    int rc = -1;
    if (!T || !Kz || !Mz) goto out;
    for (int pass = 0; pass < 2; pass++) {
        const double *A = pass ? M : K;
        double *P = pass ? Mz : Kz;
        for (int c = 0; c < nz; c++)
            for (int i = 0; i < n; i++) {
                double v = 0;
                for (int j = 0; j < n; j++) v += A[i + (size_t)n * j] * Z[j + (size_t)n * c];
                T[i + (size_t)n * c] = v;
            }
        for (int c = 0; c < nz; c++)
            for (int r = 0; r < nz; r++) {
                double v = 0;
                for (int i = 0; i < n; i++) v += Z[i + (size_t)n * r] * T[i + (size_t)n * c];
                P[r + (size_t)nz * c] = v;
            }
    }
    if (nz && LAPACKE_dsygv(LAPACK_COL_MAJOR, 1, 'V', 'L', nz, Kz, nz, Mz, nz, lam)) goto out;
    for (int c = 0; c < nz; c++)
        for (int i = 0; i < n; i++) {
            double v = 0;
            for (int r = 0; r < nz; r++) v += Z[i + (size_t)n * r] * Kz[r + (size_t)nz * c];
            X[i + (size_t)n * c] = v;
        }
    rc = 0;
out:
    free(T), free(Kz), free(Mz);
    return rc;
}

/* D = B⁻ᵀ diag(c) B⁻¹ (N × N, B destroyed); -1 when B is singular. */
static int dual_damping(double *B, const double *c, int N, double *D)
{
    lapack_int *piv = malloc(sizeof(lapack_int) * ((size_t)N + 1));
    int rc = -1;
    if (piv && !LAPACKE_dgetrf(LAPACK_COL_MAJOR, N, N, B, N, piv) && !LAPACKE_dgetri(LAPACK_COL_MAJOR, N, B, N, piv)) {
        for (int a = 0; a < N; a++)
            for (int b = 0; b <= a; b++) {
                double v = 0;
                for (int k = 0; k < N; k++) v += B[k + (size_t)N * a] * c[k] * B[k + (size_t)N * b];
                D[a + (size_t)N * b] = D[b + (size_t)N * a] = v;
            }
        rc = 0;
    }
    free(piv);
    return rc;
}

/* The damping of flexible body i from its held modes; work holds what it needs. */
static int body_damping(MtSystem *s, const MtState *st, int i, double zeta)
{
    MtFlexSys *f = &s->flex[i];
    int N = f->N, d = f->d, m = held_rows(s, st, f, NULL, 0);
    size_t dd = (size_t)d * d, NN = (size_t)N * N;
    double *J = malloc(sizeof(double) * ((size_t)m * d + 1)), *Z = malloc(sizeof(double) * dd),
           *M = malloc(sizeof(double) * dd), *K = calloc(dd, sizeof(double)), *lam = malloc(sizeof(double) * d),
           *X = malloc(sizeof(double) * dd), *B = malloc(sizeof(double) * NN), *c = malloc(sizeof(double) * N),
           *Y = malloc(sizeof(double) * NN), *KW = malloc(sizeof(double) * NN);
    int rc = -1, ne = 0;
    if (!J || !Z || !M || !K || !lam || !X || !B || !c || !Y || !KW) goto out;
    held_rows(s, st, f, J, m);
    int nz = null_space(J, m, d, Z);
    if (nz < 0 || mt_flex_mass_matrix(st, i, st->q, M)) goto out;
    for (int a = 0; a < N; a++)
        for (int b = 0; b < N; b++) K[6 + a + (size_t)d * (6 + b)] = f->K[a + (size_t)N * b];
    if (projected_modes(K, M, Z, d, nz, lam, X)) goto out;
    double lmax = nz ? lam[nz - 1] : 0;
    for (int k = 0; k < nz; k++) {
        if (!(lam[k] > 1e-10 * lmax)) continue; /* rigid motion the holds leave free: not damped */
        if (ne == N) goto out;                  /* cannot happen: elastic parts are independent */
        memcpy(B + (size_t)N * ne, X + (size_t)d * k + 6, sizeof(double) * N);
        c[ne++] = 2 * zeta * sqrt(lam[k]);
    }
    if (ne < N) { /* the directions K-orthogonal to the held modes, on their own modes */
        for (int r = 0; r < ne; r++)
            for (int a = 0; a < N; a++) {
                double v = 0;
                for (int b = 0; b < N; b++) v += f->K[a + (size_t)N * b] * B[b + (size_t)N * r];
                KW[r + (size_t)ne * a] = v; /* (K W)ᵀ, ne × N */
            }
        int ny = null_space(KW, ne, N, Y);
        if (ny != N - ne || projected_modes(f->K, f->Mww, Y, N, ny, lam, X)) goto out;
        for (int k = 0; k < ny; k++) {
            memcpy(B + (size_t)N * (ne + k), X + (size_t)N * k, sizeof(double) * N);
            c[ne + k] = 2 * zeta * sqrt(fmax(lam[k], 0));
        }
    }
    rc = dual_damping(B, c, N, f->D);
out:
    free(J), free(Z), free(M), free(K), free(lam), free(X), free(B), free(c), free(Y), free(KW);
    return rc;
}

MtStatus mt_flex_damping(MtSystem *s, const MtState *st, MtError *err)
{
    for (int i = 0; i < s->nflex; i++) {
        const MtFlexSpec *fs = &s->model->flex[i];
        if (fs->alpha > 0 || fs->beta > 0 || !(fs->zeta > 0)) continue; /* Rayleigh, or no damping */
        if (s->flex[i].N == 0) continue;                                  /* 'modes 0': rigid, nothing to damp */
        if (body_damping(s, st, i, fs->zeta)) {
            const char *name = s->model->body[s->flex[i].body].name;
            return mt_error_set(err, MT_ERR_SOLVE, name,
                                MT_("body '%s': the modes its joints hold could not be computed for its damping "
                                    "(out of memory or a singular mass matrix)"),
                                name);
        }
    }
    return MT_OK;
}
