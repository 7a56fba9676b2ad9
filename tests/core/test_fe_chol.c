/* The supernodal Cholesky factorisation of core/flex/mt_fe_chol.c: solves of
 * K − σM and of the leading block K_ii of a solid block large enough for
 * supernodes of several panels (more than 128 columns), with more right-
 * hand sides than one pass takes; a singular stiffness named at a DOF;
 * progress that rises to 1, and cancellation from the progress callback in
 * the middle of the factorisation (a clean error; ASan checks for leaks). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "motus/fe.h"
#include "mt_fe_asm.h"
#include "mt_fe_chol.h"
#include "mt_test.h"

static void ok(int r, const MtError *err)
{
    if (r < 0) {
        printf("FAIL: %s\n", err->msg);
        exit(1);
    }
}

/* Box of n×n×n hex8 cells, side 1 m, steel. */
static MtFeModel *cube(int n)
{
    MtError err = {0};
    MtFeModel *m = mt_fe_model_new();
    int mat = mt_fe_add_material(m, "steel", 210e9, 0.3, 7850, &err);
    MtFeProp p = {0};
    p.kind = MT_FE_PROP_SOLID, p.mat = mat;
    int pr = mt_fe_add_prop(m, &p, &err);
    int g = n + 1;
    for (int k = 0; k <= n; k++)
        for (int j = 0; j <= n; j++)
            for (int i = 0; i <= n; i++)
                ok(mt_fe_add_node(m, 1 + i + g * (j + g * k), (double)i / n, (double)j / n, (double)k / n, &err), &err);
#define G(i, j, k) ((i) + g * ((j) + g * (k)))
    int id = 1;
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                int c[8] = {G(i, j, k),     G(i + 1, j, k),     G(i + 1, j + 1, k),     G(i, j + 1, k),
                            G(i, j, k + 1), G(i + 1, j, k + 1), G(i + 1, j + 1, k + 1), G(i, j + 1, k + 1)};
                ok(mt_fe_add_elem(m, id++, MT_FE_HEX8, pr, c, &err), &err);
            }
#undef G
    return m;
}

/* Largest relative residual ‖(K − σM)x − b‖ / ‖b‖ over nrhs columns, on the leading n×n block. */
static double residual(const MtFeCsc *A, int n, double sigma, int nrhs, const double *X, const double *B)
{
    double *y = malloc(sizeof(double) * (size_t)n), *z = malloc(sizeof(double) * (size_t)n), worst = 0;
    for (int r = 0; r < nrhs; r++) {
        const double *x = X + (size_t)r * A->n, *b = B + (size_t)r * A->n;
        mt_fe_symv(A, A->k, n, x, y);
        mt_fe_symv(A, A->m, n, x, z);
        double e = 0, s = 0;
        for (int i = 0; i < n; i++) e += pow(y[i] - sigma * z[i] - b[i], 2), s += b[i] * b[i];
        worst = fmax(worst, sqrt(e / s));
    }
    free(y), free(z);
    return worst;
}

typedef struct {
    int calls, cancel_at, monotone;
    double last;
} Watch;

static int watch(void *user, const char *stage, double f)
{
    Watch *w = user;
    if (strcmp(stage, "factorisation")) return 0;
    w->monotone &= f >= w->last;
    w->last = f;
    return ++w->calls == w->cancel_at;
}

int main(void)
{
    MtError err = {0};
    MtFeModel *m = cube(10);
    int face[121], nf = 0;
    for (int i = 0; i < m->nnode; i++)
        if (m->x[3 * i] == 0) face[nf++] = i;
    MtFeDofs *d = mt_fe_dofs_new(m, nf, face, &err); /* the x = 0 face on the boundary: K_ii is K clamped there */
    MtFeCsc A;
    if (!d || mt_fe_order(m, d, NULL, &err) || mt_fe_assemble(m, d, &A, NULL, &err)) {
        printf("FAIL: %s\n", err.msg);
        return 1;
    }
    int n = A.n, ni = d->ni, nrhs = 21; /* two passes of 16 and 5 */
    double *B = malloc(sizeof(double) * (size_t)n * nrhs), *X = malloc(sizeof(double) * (size_t)n * nrhs);
    unsigned long long s = 99;
    for (size_t i = 0; i < (size_t)n * nrhs; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        B[i] = (double)(s >> 11) / 9007199254740992.0 - 0.5;
    }
    printf("-- %d DOFs, %d interior\n", n, ni);
    /* the free cube: K − σM with σ < 0 is positive definite */
    Watch w = {0, 0, 1, 0};
    MtFeProgress pr = {watch, &w, NULL};
    double sigma = -4e4;
    MtFeChol *F = mt_fe_chol_new(&A, n, sigma, m, d, &pr, &err);
    CHECK(F != NULL, "factor of K - sigma M: %s", F ? "ok" : err.msg);
    CHECK(w.monotone && w.last == 1 && w.calls > 10, "progress rises to 1 in %d calls", w.calls);
    memcpy(X, B, sizeof(double) * (size_t)n * nrhs);
    ok(mt_fe_chol_solve(F, nrhs, X, n, &err), &err);
    CHECK_ABS(residual(&A, n, sigma, nrhs, X, B), 0, 1e-10, "K - sigma M: relative residual of 21 solves");
    CHECK(mt_fe_chol_widest(F) > 2 * 128, "a supernode of three panels or more (%d columns)", mt_fe_chol_widest(F));
    int ncalls = w.calls;
    mt_fe_chol_free(F);
    /* K_ii, the leading block (boundary columns of the right-hand sides left alone) */
    F = mt_fe_chol_new(&A, ni, 0, m, d, NULL, &err);
    CHECK(F != NULL, "factor of K_ii: %s", F ? "ok" : err.msg);
    memcpy(X, B, sizeof(double) * (size_t)n * nrhs);
    ok(mt_fe_chol_solve(F, nrhs, X, n, &err), &err);
    CHECK_ABS(residual(&A, ni, 0, nrhs, X, B), 0, 1e-10, "K_ii: relative residual of 21 solves");
    int same = 1;
    for (int r = 0; r < nrhs; r++) same &= !memcmp(X + (size_t)r * n + ni, B + (size_t)r * n + ni, sizeof(double) * (size_t)(n - ni));
    CHECK(same, "rows beyond the block untouched");
    mt_fe_chol_free(F);
    /* the free cube's K alone is singular (rigid-body motions) */
    F = mt_fe_chol_new(&A, n, 0, m, d, NULL, &err);
    CHECK(!F && strstr(err.msg, "singular at node"), "free K: %s", err.msg);
    mt_fe_chol_free(F);
    /* cancelled half-way through the factorisation: an error, the matrix as it was */
    double k0 = A.k[A.p[n / 2]];
    for (int at = 2; at < ncalls; at += ncalls / 2 - 1) {
        Watch c = {0, at, 1, 0};
        MtFeProgress pc = {watch, &c, NULL};
        F = mt_fe_chol_new(&A, n, sigma, m, d, &pc, &err);
        CHECK(!F && !strcmp(err.msg, "cancelled") && c.last > 0 && c.last < 1,
              "cancelled at call %d (fraction %.2f): '%s'", at, c.last, err.msg);
        mt_fe_chol_free(F);
    }
    CHECK_REL(A.k[A.p[n / 2]], k0, 1e-14, "K restored after the cancelled shifted factorisation");
    free(B), free(X);
    mt_fe_csc_free(&A);
    mt_fe_dofs_free(d);
    mt_fe_model_free(m);
    return mt_test_done();
}
