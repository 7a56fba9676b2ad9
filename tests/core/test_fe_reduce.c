/* Reductions of finite-element models (issue 7): Craig–Bampton with all
 * interior modes reproduces the full model; free-free gives exactly six
 * near-zero frequencies; Guyan with every DOF on the boundary is exact; a
 * rigid spider (RBE2) and an interpolation element (RBE3) transmit rigid
 * motion; the inertia invariants equal the FE model's mass properties;
 * attachment modes; errors; cancellation from the progress callback at
 * every call of every method; and the binary form. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "motus/fe.h"
#include "mt_fe_asm.h"
#include "mt_fe_eig.h"
#include "mt_fe_reduce.h"
#include "mt_test.h"

static const double E = 210e9, NU = 0.3, RHO = 7850;

static void ok(int r, const MtError *err)
{
    if (r < 0) {
        printf("FAIL: %s\n", err->msg);
        exit(1);
    }
}

/* Box [0,L]×[0,B]×[0,H], nx×ny×nz cells of six tet4 (or hex8 when hex). */
static MtFeModel *box(double L, double B, double H, int nx, int ny, int nz, int hex)
{
    MtError err = {0};
    MtFeModel *m = mt_fe_model_new();
    int mat = mt_fe_add_material(m, "steel", E, NU, RHO, &err);
    MtFeProp p = {0};
    p.kind = MT_FE_PROP_SOLID, p.mat = mat;
    int pr = mt_fe_add_prop(m, &p, &err);
    int gx = nx + 1, gy = ny + 1;
    for (int k = 0; k <= nz; k++)
        for (int j = 0; j <= ny; j++)
            for (int i = 0; i <= nx; i++)
                ok(mt_fe_add_node(m, 1 + i + gx * (j + gy * k), L * i / nx, B * j / ny, H * k / nz, &err), &err);
#define G(i, j, k) ((i) + gx * ((j) + gy * (k)))
    int id = 1;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                int c[8] = {G(i, j, k),     G(i + 1, j, k),     G(i + 1, j + 1, k),     G(i, j + 1, k),
                            G(i, j, k + 1), G(i + 1, j, k + 1), G(i + 1, j + 1, k + 1), G(i, j + 1, k + 1)};
                if (hex) {
                    ok(mt_fe_add_elem(m, id++, MT_FE_HEX8, pr, c, &err), &err);
                    continue;
                }
                static const int kt[6][4] = {{0, 1, 2, 6}, {0, 2, 3, 6}, {0, 3, 7, 6}, {0, 7, 4, 6}, {0, 4, 5, 6}, {0, 5, 1, 6}};
                for (int t = 0; t < 6; t++) {
                    int v[4] = {c[kt[t][0]], c[kt[t][1]], c[kt[t][2]], c[kt[t][3]]};
                    ok(mt_fe_add_elem(m, id++, MT_FE_TET4, pr, v, &err), &err);
                }
            }
#undef G
    return m;
}

/* Nodes with x == x0. */
static int face_nodes(const MtFeModel *m, double x0, int *out)
{
    int n = 0;
    for (int i = 0; i < m->nnode; i++)
        if (fabs(m->x[3 * i] - x0) < 1e-12) out[n++] = i;
    return n;
}

static MtFlexBody *reduce(MtFeModel *m, int method, int nmodes, int nif, const int *ifn, int keep_rigid)
{
    MtReduceOptions o;
    mt_reduce_options_init(&o);
    o.method = method, o.nmodes = nmodes, o.nif = nif, o.ifnodes = ifn, o.keep_rigid = keep_rigid;
    MtError err = {0};
    MtFlexBody *b = mt_flex_reduce(m, &o, NULL, &err);
    if (!b) {
        printf("FAIL reduce: %s\n", err.msg);
        exit(1);
    }
    return b;
}

/* A free box 1 × 0.2 × 0.1 with spiders at both ends (interface nodes). */
static MtFeModel *spider_box(int *ifn, int type)
{
    MtFeModel *m = box(1, 0.2, 0.1, 6, 2, 1, 0);
    MtError err = {0};
    int face[64], nf = face_nodes(m, 0, face);
    ifn[0] = mt_fe_add_spider(m, type, nf, face, NULL, &err);
    ok(ifn[0], &err);
    nf = face_nodes(m, 1, face);
    double p[3] = {1.05, 0.1, 0.05};
    ifn[1] = mt_fe_add_spider(m, type, nf, face, p, &err);
    ok(ifn[1], &err);
    return m;
}

static void test_cb_all_modes(void)
{
    printf("-- Craig-Bampton with every interior mode = the full model\n");
    int ifn[2];
    MtFeModel *m = spider_box(ifn, MT_FE_RBE2);
    MtFlexBody *full = reduce(m, MT_REDUCE_MODES, 60, 0, NULL, 1);
    MtFeDofs *d = mt_fe_dofs_new(m, 2, ifn, NULL);
    int ni = d->ni;
    mt_fe_dofs_free(d);
    MtFlexBody *cb = reduce(m, MT_REDUCE_CB, ni, 2, ifn, 1);
    CHECK(cb->nmode == full->nmode + 0 || cb->nmode >= 66, "CB basis of %d vectors", cb->nmode);
    double worst = 0;
    for (int k = 6; k < 66; k++) worst = fmax(worst, fabs(cb->freq[k] - full->freq[k]) / full->freq[k]);
    CHECK_ABS(worst, 0, 1e-7, "largest relative difference of frequencies 7..66");
    mt_flex_body_free(cb);
    /* fewer fixed-interface modes: upper bounds, the first modes close */
    MtFlexBody *cb10 = reduce(m, MT_REDUCE_CB, 10, 2, ifn, 0);
    CHECK(cb10->nmode == 12 + 10 - 6, "CB with 10 modes and two interface nodes has 16 vectors, got %d", cb10->nmode);
    int above = 1;
    for (int k = 0; k < 5; k++) above &= cb10->freq[k] >= full->freq[6 + k] * (1 - 1e-10);
    CHECK(above, "CB frequencies are upper bounds of the full model's");
    CHECK_REL(cb10->freq[0], full->freq[6], 1e-3, "CB (10 modes): first elastic frequency");
    CHECK(cb10->nrigid == 6, "six rigid-body vectors dropped, got %d", cb10->nrigid);
    double rmax = 0;
    for (int k = 0; k < cb10->nrigid; k++) rmax = fmax(rmax, cb10->rigid_freq[k]);
    CHECK(rmax < 1e-3 * cb10->freq[0], "dropped vectors are rigid: largest %.3g Hz", rmax);
    /* reduced matrices: K̄ = diag(ω²), M̄ = 1 */
    int N = cb10->nmode;
    double offk = 0, offm = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            offk = fmax(offk, fabs(cb10->Kr[i + N * j] - (i == j ? pow(2 * M_PI * cb10->freq[i], 2) : 0)));
            offm = fmax(offm, fabs(cb10->Mr[i + N * j] - (i == j)));
        }
    CHECK(offk < 1e-6 * pow(2 * M_PI * cb10->freq[N - 1], 2) && offm < 1e-12, "K = diag(w^2), M = 1");
    mt_flex_body_free(cb10);
    /* Guyan with every node on the boundary is the full model */
    printf("-- Guyan with every DOF on the boundary is exact\n");
    int *all = malloc(sizeof(int) * (size_t)m->nnode), na = 0;
    d = mt_fe_dofs_new(m, 0, NULL, NULL);
    for (int i = 0; i < m->nnode; i++)
        if (d->dnode_of[i] >= 0) all[na++] = i; /* nodes with a free DOF (spider legs follow their centre) */
    mt_fe_dofs_free(d);
    MtFlexBody *gy = reduce(m, MT_REDUCE_GUYAN, 0, na, all, 1);
    worst = 0;
    for (int k = 6; k < 66; k++) worst = fmax(worst, fabs(gy->freq[k] - full->freq[k]) / full->freq[k]);
    CHECK_ABS(worst, 0, 1e-7, "Guyan (all DOF): largest relative difference of frequencies 7..66");
    free(all);
    mt_flex_body_free(gy);
    /* attachment modes */
    printf("-- normal modes plus attachment modes\n");
    MtFlexBody *at = reduce(m, MT_REDUCE_ATTACH, 8, 2, ifn, 0);
    CHECK(at->nmode == 8 + 12, "8 modes + 12 attachment vectors, got %d", at->nmode);
    above = 1;
    for (int k = 0; k < 8; k++) above &= fabs(at->freq[k] - full->freq[6 + k]) <= 1e-6 * full->freq[6 + k];
    CHECK(above, "attachment basis keeps the 8 normal modes exactly");
    CHECK(at->freq[8] >= full->freq[14] * (1 - 1e-9), "and the rest are upper bounds");
    mt_flex_body_free(at);
    mt_flex_body_free(full);
    mt_fe_model_free(m);
}

static void test_free_free(void)
{
    printf("-- free-free reduction: exactly six near-zero frequencies\n");
    MtFeModel *m = box(1, 0.1, 0.05, 10, 2, 1, 0);
    MtFlexBody *b = reduce(m, MT_REDUCE_MODES, 6, 0, NULL, 1);
    int nz = 0;
    for (int k = 0; k < b->nmode; k++) nz += b->freq[k] < 1e-4 * b->freq[b->nmode - 1];
    CHECK(nz == 6, "six near-zero frequencies among 12, got %d (7th %.3f Hz)", nz, b->freq[6]);
    mt_flex_body_free(b);
    b = reduce(m, MT_REDUCE_MODES, 6, 0, NULL, 0);
    CHECK(b->nmode == 6 && b->nrigid == 6, "rigid modes dropped: %d kept, %d dropped", b->nmode, b->nrigid);
    CHECK(b->freq[0] > 10, "first elastic mode kept (%.3f Hz)", b->freq[0]);
    mt_flex_body_free(b);
    /* clamped: no rigid mode */
    MtError err = {0};
    int face[64], nf = face_nodes(m, 0, face);
    for (int i = 0; i < nf; i++) ok(mt_fe_add_spc(m, face[i], MT_FE_TRANS, &err), &err);
    b = reduce(m, MT_REDUCE_MODES, 20, 0, NULL, 0);
    CHECK(b->nrigid == 0, "clamped block: no rigid-body mode (%d)", b->nrigid);
    double sz = 0;
    for (int k = 0; k < b->nfix; k++) sz += b->fix_meff[6 * k + 2];
    double mtot = RHO * 1 * 0.1 * 0.05;
    CHECK(sz < mtot && sz > 0.6 * mtot, "effective mass in z of 20 modes: %.3f of %.3f kg", sz, mtot);
    mt_flex_body_free(b);
    mt_fe_model_free(m);
}

/* Every column of the basis moves the surface rigidly with the reference node. */
static double rigid_error(const MtFlexBody *b, int ifk)
{
    double worst = 0, scale = 0;
    for (int j = 0; j < b->nmode; j++) {
        const double *u = b->if_H + (size_t)j * 6 * b->nif + 6 * ifk, *xr = b->if_x + 3 * ifk;
        for (int v = 0; v < b->nsv; v++) {
            const float *x = b->sv_x + 3 * v, *h = b->sv_H + 3 * ((size_t)j * b->nsv + v);
            double r[3] = {x[0] - xr[0], x[1] - xr[1], x[2] - xr[2]};
            double w[3] = {u[0] + u[4] * r[2] - u[5] * r[1], u[1] + u[5] * r[0] - u[3] * r[2],
                           u[2] + u[3] * r[1] - u[4] * r[0]};
            for (int c = 0; c < 3; c++) worst = fmax(worst, fabs(h[c] - w[c])), scale = fmax(scale, fabs(w[c]));
        }
    }
    return worst / scale;
}

static void test_spiders(void)
{
    for (int type = MT_FE_RBE2; type <= MT_FE_RBE3; type++) {
        printf("-- %s spider: Guyan reduction to its reference node is the rigid motion\n", type == MT_FE_RBE2 ? "RBE2" : "RBE3");
        int ifn[2];
        MtFeModel *m = spider_box(ifn, type);
        MtFlexBody *b = reduce(m, MT_REDUCE_GUYAN, 0, 1, ifn, 1);
        CHECK(b->nmode == 6, "six vectors, got %d", b->nmode);
        double fmax_ = 0;
        for (int k = 0; k < 6; k++) fmax_ = fmax(fmax_, b->freq[k]);
        CHECK(fmax_ < 1e-3, "all six frequencies vanish (largest %.3g Hz)", fmax_);
        char what[80];
        snprintf(what, sizeof what, "%s: surface moves rigidly with the reference node", type == MT_FE_RBE2 ? "RBE2" : "RBE3");
        CHECK_ABS(rigid_error(b, 0), 0, 1e-6, what); /* display data are floats */
        mt_flex_body_free(b);
        /* clamped at the reference node, an RBE3 holds the body (statically
         * determinate, softer than an RBE2): CB works, lower frequencies */
        MtFlexBody *cb = reduce(m, MT_REDUCE_CB, 4, 1, ifn, 0);
        static double f_rbe2;
        if (type == MT_FE_RBE2) f_rbe2 = cb->fix_freq[0];
        else CHECK(cb->fix_freq[0] < f_rbe2, "clamped through RBE3 (%.2f Hz) softer than through RBE2 (%.2f Hz)",
                   cb->fix_freq[0], f_rbe2);
        mt_flex_body_free(cb);
        mt_fe_model_free(m);
    }
}

static void test_invariants(void)
{
    printf("-- inertia invariants equal the FE model's mass properties\n");
    int ifn[2];
    MtFeModel *m = spider_box(ifn, MT_FE_RBE2);
    MtError err = {0};
    double c[3] = {0.01, -0.02, 0.03}, J[6] = {0.5, 0.6, 0.7, 0.01, -0.02, 0.03};
    ok(mt_fe_add_mass(m, 1, ifn[1], 3.5, c, J, &err), &err);
    for (int lumped = 0; lumped < 2; lumped++) {
        m->lumped = lumped;
        MtFlexBody *b = reduce(m, MT_REDUCE_CB, 8, 2, ifn, 0);
        double mass, s[3], I[9];
        ok(mt_fe_mass_properties(m, &mass, s, I, &err), &err);
        double want = RHO * 1 * 0.2 * 0.1 + 3.5;
        CHECK_REL(mass, want, 1e-12, "FE model mass = box + lumped mass");
        CHECK_REL(b->mass, mass, 1e-12, "invariant: mass");
        double ds = 0, dI = 0, Is = 0;
        for (int k = 0; k < 3; k++) ds = fmax(ds, fabs(b->s0[k] - s[k]));
        for (int k = 0; k < 9; k++) dI = fmax(dI, fabs(b->I0[k] - I[k])), Is = fmax(Is, fabs(I[k]));
        CHECK_ABS(ds / (mass * 1), 0, 1e-12, "invariant: first moment");
        CHECK_ABS(dI / Is, 0, 1e-12, "invariant: inertia tensor");
        /* box inertia about the origin, xx: m (B² + H²)/3 for the box part */
        double mb = RHO * 0.02;
        double Ixx = mb * (0.2 * 0.2 + 0.1 * 0.1) / 3;
        const double *xm = m->x + 3 * ifn[1];
        double cx = xm[0] + c[0], cy = xm[1] + c[1], cz = xm[2] + c[2];
        Ixx += J[0] + 3.5 * (cy * cy + cz * cz);
        CHECK_REL(I[0], Ixx, 1e-12, "FE model Ixx against the analytic value");
        (void)cx;
        if (lumped) { /* Mww is the reduced lumped mass matrix: M̄ = 1 */
            int N = b->nmode;
            double d = 0;
            for (int i = 0; i < N; i++)
                for (int j = 0; j < N; j++) d = fmax(d, fabs(b->Mww[i + N * j] - (i == j)));
            CHECK_ABS(d, 0, 1e-9, "lumped mass: invariant Mww = reduced M = 1");
            /* S1 and Ir vanish: the elastic modes are M-orthogonal to the rigid motions */
            double s1 = 0;
            for (int k = 0; k < 3 * N; k++) s1 = fmax(s1, fabs(b->S1[k]));
            CHECK_ABS(s1 / sqrt(mass), 0, 1e-9, "lumped mass: S1 = sum m Phi vanishes for elastic modes");
        }
        mt_flex_body_free(b);
    }
    mt_fe_model_free(m);
}

/* The memory-lean sequence (matrices dropped and assembled again around the
 * factorisation, used above 50 000 DOFs) gives the same bodies. */
static void test_lean(void)
{
    printf("-- memory-lean reduction = the plain one\n");
    int ifn[2];
    MtFeModel *m = spider_box(ifn, MT_FE_RBE2);
    for (int method = MT_REDUCE_MODES; method <= MT_REDUCE_ATTACH; method++) {
        MtFlexBody *b[2];
        for (int lean = 0; lean < 2; lean++) {
            MtReduceOptions o;
            mt_reduce_options_init(&o);
            o.method = method, o.nmodes = 5, o.nif = method == MT_REDUCE_MODES ? 0 : 2, o.ifnodes = ifn;
            o.lean = lean ? 1 : -1;
            MtError err = {0};
            b[lean] = mt_flex_reduce(m, &o, NULL, &err);
            if (!b[lean]) printf("FAIL: %s\n", err.msg);
        }
        if (!b[0] || !b[1]) exit(1);
        double d = 0;
        for (int k = 0; k < b[0]->nmode; k++) d = fmax(d, fabs(b[0]->freq[k] - b[1]->freq[k]) / b[0]->freq[k]);
        CHECK(b[0]->nmode == b[1]->nmode && d < 1e-7, "method %d: same %d frequencies (largest difference %.2g)", method,
              b[0]->nmode, d);
        mt_flex_body_free(b[0]), mt_flex_body_free(b[1]);
    }
    mt_fe_model_free(m);
}

/* The sparse eigensolvers (block Lanczos, ARPACK) against LAPACK on the
 * dense matrices of a free block: rigid modes and elastic ones. */
static void test_eigensolvers(void)
{
    printf("-- block Lanczos and ARPACK against the dense solution\n");
    MtFeModel *m = box(1, 0.2, 0.1, 16, 4, 3, 0);
    MtError err = {0};
    MtFeDofs *d = mt_fe_dofs_new(m, 0, NULL, &err);
    MtFeCsc A;
    if (!d || mt_fe_order(m, d, NULL, &err) || mt_fe_assemble(m, d, &A, NULL, &err)) {
        printf("FAIL: %s\n", err.msg);
        exit(1);
    }
    int n = A.n;
    double *K = calloc((size_t)n * n, sizeof(double)), *M = calloc((size_t)n * n, sizeof(double));
    for (int j = 0; j < n; j++)
        for (int p = A.p[j]; p < A.p[j + 1]; p++) {
            int i = A.i[p];
            K[(size_t)j * n + i] = K[(size_t)i * n + j] = A.k[p];
            M[(size_t)j * n + i] = M[(size_t)i * n + j] = A.m[p];
        }
    double sigma = -39.48, ld[20], *Xd = malloc(sizeof(double) * (size_t)n * 20);
    ok(mt_fe_dense_shifted(n, K, M, sigma, 20, ld, Xd, &err), &err);
    for (int nev = 4; nev <= 20; nev += 16) { /* 4: ARPACK, 20: block Lanczos */
        double lam[20], *Phi = NULL;
        MtFeEigInfo info;
        ok(mt_fe_eigs(&A, n, nev, sigma, NULL, m, d, lam, &Phi, NULL, &info, &err), &err);
        double dl = 0;
        for (int k = 6; k < nev; k++) dl = fmax(dl, fabs(lam[k] - ld[k]) / ld[k]);
        for (int k = 0; k < 6 && k < nev; k++) dl = fmax(dl, fabs(lam[k] - ld[k]) / ld[6]);
        if (getenv("MT_LANCZOS_DEBUG"))
            for (int k = 0; k < nev; k++) printf("  %d %.12g %.12g %.2g\n", k, lam[k], ld[k], (lam[k] - ld[k]) / ld[k > 6 ? k : 6]);
        CHECK(info.block == (nev >= 6) && !info.dense, "%d modes by %s", nev, info.block ? "block Lanczos" : "ARPACK");
        char what[80];
        snprintf(what, sizeof what, "%d eigenvalues against LAPACK (n = %d)", nev, n);
        /* free-free, σ = −(2π·1 Hz)²: θ = 1/(λ − σ) spans 7 orders of magnitude, which bounds
         * the relative accuracy of the highest of the 20 pairs to about 1e-8 */
        CHECK_ABS(dl, 0, 1e-7, what);
        snprintf(what, sizeof what, "%d eigenpairs: largest residual", nev);
        CHECK_ABS(info.residual, 0, 1e-6, what);
        free(Phi);
    }
    free(K), free(M), free(Xd);
    mt_fe_csc_free(&A);
    mt_fe_dofs_free(d);
    mt_fe_model_free(m);
}

static void test_errors(void)
{
    printf("-- errors, not aborts\n");
    MtFeModel *m = box(1, 0.1, 0.1, 4, 1, 1, 1);
    MtError err = {0};
    MtReduceOptions o;
    mt_reduce_options_init(&o);
    o.method = MT_REDUCE_CB;
    MtFlexBody *b = mt_flex_reduce(m, &o, NULL, &err);
    CHECK(!b && strstr(err.msg, "interface"), "CB without interface nodes: %s", err.msg);
    int one = 0;
    o.nif = 1, o.ifnodes = &one;
    b = mt_flex_reduce(m, &o, NULL, &err);
    CHECK(!b && strstr(err.msg, "singular"), "CB on one solid node (rotations free): %s", err.msg);
    /* cancellation */
    int face[16], nf = face_nodes(m, 0, face);
    int sp = mt_fe_add_spider(m, MT_FE_RBE2, nf, face, NULL, &err);
    volatile int cancel = 1;
    o.ifnodes = &sp;
    o.progress.cancel = &cancel;
    b = mt_flex_reduce(m, &o, NULL, &err);
    CHECK(!b && strstr(err.msg, "cancelled"), "cancel flag: %s", err.msg);
    o.progress.cancel = NULL;
    /* a node fixed and dependent */
    ok(mt_fe_add_spc(m, face[0], MT_FE_TRANS, &err), &err);
    b = mt_flex_reduce(m, &o, NULL, &err);
    CHECK(!b && strstr(err.msg, "fixed and also follows"), "fixed and dependent: %s", err.msg);
    mt_fe_model_free(m);
    /* rigid elements in a cycle */
    m = box(1, 0.1, 0.1, 2, 1, 1, 1);
    int a[1] = {1}, c1[1] = {0};
    ok(mt_fe_add_rigid(m, 100, MT_FE_RBE2, 0, 0, 1, a, NULL, &err), &err);
    ok(mt_fe_add_rigid(m, 101, MT_FE_RBE2, 1, 0, 1, c1, NULL, &err), &err);
    o.method = MT_REDUCE_MODES, o.nif = 0;
    b = mt_flex_reduce(m, &o, NULL, &err);
    CHECK(!b, "two rigid elements depending on each other: %s", err.msg);
    mt_fe_model_free(m);
    /* material without stiffness */
    m = box(1, 0.1, 0.1, 2, 1, 1, 1);
    m->mat[0].E = -1;
    b = mt_flex_reduce(m, &o, NULL, &err);
    CHECK(!b && strstr(err.msg, "E > 0"), "negative modulus: %s", err.msg);
    mt_fe_model_free(m);
}

/* Cancelling from the progress callback at every one of its calls, in
 * every stage of every method (plain and memory-lean sequences): each time
 * a NULL body and the error "cancelled"; a run of the sanitizer build
 * checks that nothing leaks on any of these paths. */
typedef struct {
    int calls, cancel_at;
    char stage[32], seen[256];
} Canceller;

static int cancel_cb(void *user, const char *stage, double f)
{
    Canceller *c = user;
    (void)f;
    if (!strstr(c->seen, stage) && strlen(c->seen) + strlen(stage) + 2 < sizeof c->seen)
        strcat(c->seen, stage), strcat(c->seen, ";");
    if (++c->calls != c->cancel_at) return 0;
    snprintf(c->stage, sizeof c->stage, "%s", stage);
    return 1;
}

static void test_cancel(void)
{
    printf("-- cancellation from the progress callback, at every call\n");
    int ifn[2];
    MtFeModel *m = spider_box(ifn, MT_FE_RBE2);
    static const char *mname[4] = {"modes", "cb", "guyan", "attach"};
    for (int method = MT_REDUCE_MODES; method <= MT_REDUCE_ATTACH; method++)
        for (int lean = -1; lean <= 1; lean += 2) {
            MtReduceOptions o;
            mt_reduce_options_init(&o);
            o.method = method, o.nmodes = 5, o.nif = method == MT_REDUCE_MODES ? 0 : 2, o.ifnodes = ifn, o.lean = lean;
            Canceller c = {0};
            o.progress.fn = cancel_cb, o.progress.user = &c;
            MtError err = {0};
            MtFlexBody *b = mt_flex_reduce(m, &o, NULL, &err);
            int total = c.calls, bad = 0;
            CHECK(b != NULL, "%s: runs when not cancelled (%d progress calls: %s)", mname[method], total, c.seen);
            mt_flex_body_free(b);
            char where[256] = "";
            for (int at = 1; at <= total; at++) {
                Canceller k = {0};
                k.cancel_at = at;
                o.progress.user = &k;
                b = mt_flex_reduce(m, &o, NULL, &err);
                if (b || strcmp(err.msg, "cancelled")) bad++;
                mt_flex_body_free(b);
                if (!strstr(where, k.stage) && strlen(where) + strlen(k.stage) + 2 < sizeof where)
                    strcat(where, k.stage), strcat(where, ";");
            }
            CHECK(bad == 0, "%s (lean %d): cancelled cleanly at each of %d calls (%d not), in %s", mname[method], lean, total,
                  bad, where);
            printf("  %-6s lean %2d: %2d progress calls, each cancels cleanly (%d did not); stages: %s\n", mname[method], lean,
                   total, bad, where);
            int all = strstr(where, "ordering") && strstr(where, "assembly") && strstr(where, "factorisation") &&
                      (method == MT_REDUCE_GUYAN || strstr(where, "eigenvalues")) && strstr(where, "surface stresses");
            CHECK(all, "%s: cancelled in the ordering, assembly, factorisation, eigensolver and surface stresses (%s)",
                  mname[method], where);
        }
    mt_fe_model_free(m);
}

static void test_serialise(void)
{
    printf("-- binary form: round trip, truncation and damage\n");
    int ifn[2];
    MtFeModel *m = spider_box(ifn, MT_FE_RBE2);
    MtFlexBody *b = reduce(m, MT_REDUCE_CB, 6, 2, ifn, 0);
    MtError err = {0};
    size_t n;
    unsigned char *buf = mt_flex_body_serialize(b, &n, &err);
    CHECK(buf != NULL, "serialised %zu bytes", n);
    MtFlexBody *c = mt_flex_body_deserialize(buf, n, &err);
    CHECK(c != NULL, "read back: %s", c ? "ok" : err.msg);
    if (c) {
        int N = b->nmode, same = c->nmode == N && c->nsv == b->nsv && c->nst == b->nst && c->nif == b->nif;
        same &= !memcmp(c->freq, b->freq, sizeof(double) * (size_t)N);
        same &= !memcmp(c->if_H, b->if_H, sizeof(double) * 6 * (size_t)(b->nif * N));
        same &= !memcmp(c->I2, b->I2, sizeof(double) * 9 * (size_t)(N * N));
        same &= !memcmp(c->sv_H, b->sv_H, sizeof(float) * 3 * (size_t)(b->nsv * N));
        same &= !memcmp(c->st, b->st, sizeof(int) * 3 * (size_t)b->nst);
        same &= c->mass == b->mass && !memcmp(c->I0, b->I0, sizeof b->I0);
        CHECK(same, "every array identical after the round trip");
        mt_flex_body_free(c);
    }
    { /* with geometric stiffening: Kg and the interface loads' Kw (N³) travel too */
        MtReduceOptions o;
        mt_reduce_options_init(&o);
        o.method = MT_REDUCE_CB, o.nmodes = 4, o.nif = 2, o.ifnodes = ifn, o.stiffening = 1;
        MtFlexBody *g = mt_flex_reduce(m, &o, NULL, &err);
        size_t ng = 0;
        unsigned char *bg = g ? mt_flex_body_serialize(g, &ng, &err) : NULL;
        MtFlexBody *h = bg ? mt_flex_body_deserialize(bg, ng, &err) : NULL;
        CHECK(g && g->Kg && g->Kw && h, "stiffened body reduced, written and read back: %s", h ? "ok" : err.msg);
        if (g && h && g->Kw && h->Kw && h->Kg) {
            size_t N = (size_t)g->nmode;
            double kmax = 0;
            for (size_t i = 0; i < N * N * N; i++) kmax = fmax(kmax, fabs(g->Kw[i]));
            CHECK(kmax > 0, "the interface displacement of two spiders stresses the box (largest |Kw| %.3g)", kmax);
            CHECK(!memcmp(h->Kw, g->Kw, sizeof(double) * N * N * N) &&
                      !memcmp(h->Kg, g->Kg, sizeof(double) * MT_FLEX_NKG * N * N),
                  "Kg and Kw identical after the round trip");
        }
        free(bg);
        mt_flex_body_free(h);
        mt_flex_body_free(g);
    }
    int crashes = 0, accepted = 0;
    for (size_t len = 0; len < n; len += 1 + len / 50) { /* truncations */
        c = mt_flex_body_deserialize(buf, len, &err);
        accepted += c != NULL;
        mt_flex_body_free(c);
    }
    CHECK(accepted == 0, "no truncated buffer accepted (%d)", accepted);
    unsigned long long s = 12345;
    unsigned char *dam = malloc(n);
    for (int t = 0; t < 2000; t++) { /* random damage: must not crash */
        memcpy(dam, buf, n);
        for (int k = 0; k < 4; k++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            dam[(s >> 8) % (n < 400 ? n : 400)] ^= (unsigned char)(1u << (s % 8));
        }
        c = mt_flex_body_deserialize(dam, n, &err);
        mt_flex_body_free(c);
    }
    CHECK(crashes == 0, "2000 damaged buffers read without a crash");
    free(dam);
    free(buf);
    mt_flex_body_free(b);
    mt_fe_model_free(m);
}

int main(void)
{
    test_cb_all_modes();
    test_free_free();
    test_spiders();
    test_invariants();
    test_lean();
    test_eigensolvers();
    test_errors();
    test_cancel();
    test_serialise();
    return mt_test_done();
}
