/* Finite elements against theory (issue 7): Euler–Bernoulli and Timoshenko
 * beams (clamped, free-free and simply supported; the first five modes
 * within 0.1 %), solid tetrahedra and hexahedra (patch tests, mass, a
 * clamped block against beam theory, a slender tet10 beam's first five
 * modes free-free and clamped within 0.1 % of Euler–Bernoulli), flat shells
 * (patch tests, simply supported and clamped square plates against Leissa's
 * solutions), lumped next to consistent mass for every element type, and the
 * geometric stiffness of inertial pre-stress: a cantilever column buckling
 * under its own weight at Greenhill's load, beams and tet10 solids; and for
 * beams, hex20, mem4, mem8, quad8, quad4 and tria3 Greenhill's load and the
 * spinning blade's flapwise frequency. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <lapacke.h>
#undef I /* complex.h's, from lapacke.h: the tests name indices I */

#include "motus/fe.h"
#include "mt_fe_asm.h"
#include "mt_fe_elem.h"
#include "mt_fe_reduce.h"
#include "mt_test.h"

#define PI 3.141592653589793
static const double E = 210e9, NU = 0.3, RHO = 7850;

static MtFeModel *must(MtFeModel *m)
{
    if (!m) {
        printf("FAIL: no model\n");
        exit(1);
    }
    return m;
}

static void ok(int r, const MtError *err)
{
    if (r < 0) {
        printf("FAIL: %s\n", err->msg);
        exit(1);
    }
}

/* Lowest n frequencies (Hz) of the model as given (MODES, rigid modes kept). */
static double *freqs(MtFeModel *m, int n, int lumped)
{
    MtReduceOptions o;
    mt_reduce_options_init(&o);
    o.method = MT_REDUCE_MODES;
    o.nmodes = n;
    o.keep_rigid = 1;
    o.surface = 0;
    m->lumped = lumped;
    MtError err = {0};
    MtFlexBody *b = mt_flex_reduce(m, &o, NULL, &err);
    if (!b) {
        printf("FAIL reduce: %s\n", err.msg);
        exit(1);
    }
    double *f = malloc(sizeof(double) * (size_t)n);
    memcpy(f, b->freq, sizeof(double) * (size_t)n);
    mt_flex_body_free(b);
    return f;
}

/* Relative distance from want to the nearest of f[0..n). */
static double nearest(const double *f, int n, double want)
{
    double best = INFINITY;
    for (int i = 0; i < n; i++) best = fmin(best, fabs(f[i] - want) / want);
    return best;
}

/* Straight beam along x of length L with ne elements, b (along y) × h (along z). */
static MtFeModel *beam_model(double L, int ne, double b, double h, double kshear, int rotary)
{
    MtError err = {0};
    MtFeModel *m = must(mt_fe_model_new());
    int mat = mt_fe_add_material(m, "steel", E, NU, RHO, &err);
    MtFeProp p = {0};
    p.kind = MT_FE_PROP_BEAM, p.mat = mat;
    p.A = b * h, p.Iy = b * h * h * h / 12, p.Iz = h * b * b * b / 12;
    double a = fmax(b, h), c = fmin(b, h); /* Saint-Venant torsion of a rectangle */
    p.J = a * c * c * c * (1.0 / 3 - 0.21 * c / a * (1 - pow(c / a, 4) / 12));
    p.ky = p.kz = kshear, p.rotary = rotary;
    p.v[1] = 1, p.has_v = 1;
    int pr = mt_fe_add_prop(m, &p, &err);
    for (int i = 0; i <= ne; i++) ok(mt_fe_add_node(m, i + 1, L * i / ne, 0, 0, &err), &err);
    for (int i = 0; i < ne; i++) {
        int nodes[2] = {i, i + 1};
        ok(mt_fe_add_elem(m, i + 1, MT_FE_BEAM2, pr, nodes, &err), &err);
    }
    return m;
}

static void test_beam_clamped(void)
{
    printf("-- clamped-free Euler-Bernoulli beam, 20 elements, 1 x 0.02 x 0.01 m\n");
    const double L = 1, b = 0.02, h = 0.01;
    MtFeModel *m = beam_model(L, 20, b, h, 0, 0);
    MtError err = {0};
    ok(mt_fe_add_spc(m, 0, MT_FE_ALL, &err), &err);
    double *f = freqs(m, 16, 0);
    static const double bl[5] = {1.875104069, 4.694091133, 7.854757438, 10.99554073, 14.13716839};
    double A = b * h, Iw = b * h * h * h / 12, Is = h * b * b * b / 12;
    for (int k = 0; k < 5; k++) {
        double fw = bl[k] * bl[k] / (2 * PI * L * L) * sqrt(E * Iw / (RHO * A));
        double fs = bl[k] * bl[k] / (2 * PI * L * L) * sqrt(E * Is / (RHO * A));
        char what[96];
        snprintf(what, sizeof what, "clamped mode %d, weak axis (%.4f Hz)", k + 1, fw);
        CHECK_ABS(nearest(f, 16, fw), 0, 1e-3, what);
        snprintf(what, sizeof what, "clamped mode %d, strong axis (%.4f Hz)", k + 1, fs);
        CHECK_ABS(nearest(f, 16, fs), 0, 1e-3, what);
    }
    free(f);
    mt_fe_model_free(m);
    m = beam_model(L, 10, b, h, 0, 0); /* 10 elements: the first three modes within 0.1 % */
    ok(mt_fe_add_spc(m, 0, MT_FE_ALL, &err), &err);
    f = freqs(m, 16, 0);
    for (int k = 0; k < 3; k++) {
        double fw = bl[k] * bl[k] / (2 * PI * L * L) * sqrt(E * Iw / (RHO * A));
        char what[96];
        snprintf(what, sizeof what, "10 elements: clamped mode %d, weak axis", k + 1);
        CHECK_ABS(nearest(f, 16, fw), 0, 1e-3, what);
    }
    free(f);
    /* lumped mass with rotary inertia converges too (coarser) */
    mt_fe_model_free(m);
    m = beam_model(L, 40, b, h, 0, 0);
    ok(mt_fe_add_spc(m, 0, MT_FE_ALL, &err), &err);
    f = freqs(m, 6, 1);
    double f1 = bl[0] * bl[0] / (2 * PI * L * L) * sqrt(E * Iw / (RHO * A));
    CHECK_REL(f[0], f1, 2e-3, "lumped mass (40 elements): first frequency");
    free(f);
    mt_fe_model_free(m);
}

static void test_beam_free(void)
{
    printf("-- free-free Euler-Bernoulli beam, 20 elements: six rigid modes, then theory\n");
    const double L = 1.2, b = 0.03, h = 0.01;
    MtFeModel *m = beam_model(L, 20, b, h, 0, 0);
    double *f = freqs(m, 18, 0);
    static const double bl[5] = {4.730040745, 7.853204624, 10.99560784, 14.13716549, 17.27875966};
    double A = b * h, Iw = b * h * h * h / 12;
    int nzero = 0;
    for (int k = 0; k < 18; k++) nzero += f[k] < 1e-3;
    CHECK(nzero == 6, "six rigid-body frequencies below 1 mHz, got %d", nzero);
    for (int k = 0; k < 5; k++) {
        double fw = bl[k] * bl[k] / (2 * PI * L * L) * sqrt(E * Iw / (RHO * A));
        char what[96];
        snprintf(what, sizeof what, "free-free mode %d, weak axis (%.4f Hz)", k + 1, fw);
        CHECK_ABS(nearest(f + 6, 12, fw), 0, 1e-3, what);
    }
    free(f);
    mt_fe_model_free(m);
}

/* Pinned-pinned Timoshenko beam: lowest root ω² of
 * (κGAα² − ρAω²)(EIα² + κGA − ρIω²) = (κGAα)², α = nπ/L. */
static double timoshenko_ss(int n, double L, double A, double I, double kap)
{
    double G = E / (2 * (1 + NU)), al = n * PI / L;
    double a = RHO * A * RHO * I;
    double bq = -(RHO * A * (E * I * al * al + kap * G * A) + kap * G * A * al * al * RHO * I);
    double c = kap * G * A * al * al * (E * I * al * al + kap * G * A) - kap * G * A * al * kap * G * A * al;
    double w2 = (-bq - sqrt(bq * bq - 4 * a * c)) / (2 * a);
    return sqrt(w2) / (2 * PI);
}

static void test_beam_timoshenko(void)
{
    printf("-- stubby simply supported Timoshenko beam (L/h = 5) against the exact solution\n");
    const double L = 1, h = 0.2, kap = 5.0 / 6;
    MtFeModel *m = beam_model(L, 40, h, h, kap, 1);
    MtError err = {0};
    ok(mt_fe_add_spc(m, 0, 0x0f, &err), &err);  /* ux uy uz rx */
    ok(mt_fe_add_spc(m, 40, 0x06, &err), &err); /* uy uz */
    double *f = freqs(m, 10, 0);
    double A = h * h, I = h * h * h * h / 12;
    for (int n = 1; n <= 3; n++) {
        double ft = timoshenko_ss(n, L, A, I, kap), feb = n * n * PI / (2 * L * L) * sqrt(E * I / (RHO * A));
        char what[96];
        snprintf(what, sizeof what, "Timoshenko mode %d (%.3f Hz; Euler-Bernoulli %.3f Hz)", n, ft, feb);
        CHECK_ABS(nearest(f, 10, ft), 0, 1e-3, what);
    }
    free(f);
    mt_fe_model_free(m);
}

/* ---- solids ------------------------------------------------------------------ */

/* Structured mesh of the box [0,L]×[0,B]×[0,H] with nx×ny×nz cells: hex8,
 * or six tetrahedra per cell (tet4 or tet10). */
static MtFeModel *box_mesh(double L, double B, double H, int nx, int ny, int nz, int type)
{
    MtError err = {0};
    MtFeModel *m = must(mt_fe_model_new());
    int mat = mt_fe_add_material(m, "steel", E, NU, RHO, &err);
    MtFeProp p = {0};
    p.kind = MT_FE_PROP_SOLID, p.mat = mat;
    int pr = mt_fe_add_prop(m, &p, &err);
    int q = type == MT_FE_TET10 || type == MT_FE_HEX20 ? 2 : 1; /* grid refinement for mid-side nodes */
    int gx = q * nx + 1, gy = q * ny + 1, gz = q * nz + 1, *idx = malloc(sizeof(int) * (size_t)(gx * gy * gz));
    for (int k = 0; k < gz; k++)
        for (int j = 0; j < gy; j++)
            for (int i = 0; i < gx; i++) /* hex20: corners and mid-edges only (one odd index at most) */
                if (type != MT_FE_HEX20 || i % 2 + j % 2 + k % 2 <= 1)
                    ok(idx[i + gx * (j + gy * k)] = mt_fe_add_node(m, 1 + i + gx * (j + gy * k), L * i / (gx - 1),
                                                                   B * j / (gy - 1), H * k / (gz - 1), &err),
                       &err);
#define G(i, j, k) idx[(i) + gx * ((j) + gy * (k))]
    int id = 1;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                int I = q * i, J = q * j, K = q * k;
                int c[8] = {G(I, J, K),         G(I + q, J, K),         G(I + q, J + q, K),         G(I, J + q, K),
                            G(I, J, K + q),     G(I + q, J, K + q),     G(I + q, J + q, K + q),     G(I, J + q, K + q)};
                if (type == MT_FE_HEX8) {
                    ok(mt_fe_add_elem(m, id++, MT_FE_HEX8, pr, c, &err), &err);
                    continue;
                }
                if (type == MT_FE_HEX20) { /* Abaqus order: corners, edges 0-1 1-2 2-3 3-0, 4-5 … 7-4, 0-4 … 3-7 */
                    static const int ed[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
                                                  {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
                    static const int off[8][3] = {{0, 0, 0}, {2, 0, 0}, {2, 2, 0}, {0, 2, 0},
                                                  {0, 0, 2}, {2, 0, 2}, {2, 2, 2}, {0, 2, 2}};
                    int v[20];
                    memcpy(v, c, sizeof c);
                    for (int e = 0; e < 12; e++) {
                        const int *a = off[ed[e][0]], *b = off[ed[e][1]];
                        v[8 + e] = G(I + (a[0] + b[0]) / 2, J + (a[1] + b[1]) / 2, K + (a[2] + b[2]) / 2);
                    }
                    ok(mt_fe_add_elem(m, id++, MT_FE_HEX20, pr, v, &err), &err);
                    continue;
                }
                /* Kuhn: six tets around the diagonal 0–6 */
                static const int kt[6][4] = {{0, 1, 2, 6}, {0, 2, 3, 6}, {0, 3, 7, 6}, {0, 7, 4, 6}, {0, 4, 5, 6}, {0, 5, 1, 6}};
                for (int t = 0; t < 6; t++) {
                    int v[10];
                    for (int a = 0; a < 4; a++) v[a] = c[kt[t][a]];
                    if (type == MT_FE_TET10) {
                        static const int ed[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
                        for (int e = 0; e < 6; e++) {
                            int a = v[ed[e][0]], b = v[ed[e][1]]; /* every grid node is added: idx[g] = g */
                            int ai = a % gx, aj = (a / gx) % gy, ak = a / (gx * gy);
                            int bi = b % gx, bj = (b / gx) % gy, bk = b / (gx * gy);
                            v[4 + e] = G((ai + bi) / 2, (aj + bj) / 2, (ak + bk) / 2);
                        }
                    }
                    ok(mt_fe_add_elem(m, id++, type, pr, v, &err), &err);
                }
            }
#undef G
    free(idx);
    return m;
}

/* Strain energy of a linear field u = Gx on one element against ½V ε:D:ε,
 * and zero force for rigid motions. */
static void patch_solid(int type, const char *name)
{
    MtError err = {0};
    MtFeModel *m = box_mesh(1, 1, 1, 1, 1, 1, type);
    /* distort: move the nodes by a smooth field that keeps the edges straight */
    for (int n = 0; n < m->nnode; n++) {
        double *x = m->x + 3 * n;
        double X = x[0], Y = x[1], Z = x[2];
        x[0] = 1.1 * X + 0.2 * Y + 0.05 * Z;
        x[1] = 0.1 * X + 0.9 * Y - 0.1 * Z;
        x[2] = -0.05 * X + 0.15 * Y + 1.2 * Z;
    }
    double Gm[3][3] = {{1e-3, 2e-4, -3e-4}, {5e-4, -2e-3, 1e-4}, {-1e-4, 3e-4, 7e-4}};
    double eps[6] = {Gm[0][0], Gm[1][1], Gm[2][2], Gm[0][1] + Gm[1][0], Gm[1][2] + Gm[2][1], Gm[2][0] + Gm[0][2]};
    double D[36];
    mt_fe_elastic_D(E, NU, D);
    double wD = 0;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) wD += 0.5 * eps[i] * D[6 * i + j] * eps[j];
    double Wsum = 0, Vsum = 0, rigid = 0, kscale = 0;
    static double K[900], M[900];
    for (int e = 0; e < m->nelem; e++) {
        ok(mt_fe_elem_km(m, e, 0, K, M, &err), &err);
        int nn = mt_fe_type_nodes(type), nd = 3 * nn;
        double u[30], ur[30];
        for (int a = 0; a < nn; a++) {
            const double *x = m->x + 3 * m->conn[m->elem[e].conn + a];
            for (int i = 0; i < 3; i++) u[3 * a + i] = Gm[i][0] * x[0] + Gm[i][1] * x[1] + Gm[i][2] * x[2];
            /* rigid: translation + small rotation (0.1, −0.2, 0.3) */
            double w[3] = {0.1, -0.2, 0.3};
            ur[3 * a] = 1 + w[1] * x[2] - w[2] * x[1];
            ur[3 * a + 1] = 2 + w[2] * x[0] - w[0] * x[2];
            ur[3 * a + 2] = -1 + w[0] * x[1] - w[1] * x[0];
        }
        double W = 0;
        for (int i = 0; i < nd; i++) {
            double f = 0;
            for (int j = 0; j < nd; j++) f += K[i * nd + j] * ur[j], W += 0.5 * u[i] * K[i * nd + j] * u[j];
            rigid = fmax(rigid, fabs(f));
            kscale = fmax(kscale, fabs(K[i * nd + i]));
        }
        double me, c[3], Ic[9], w[10];
        ok(mt_fe_elem_inertia(m, e, &me, c, Ic, w, &err), &err);
        Wsum += W;
        Vsum += me / RHO;
        double msum = 0;
        for (int i = 0; i < nd; i += 3)
            for (int j = 0; j < nd; j += 3) msum += M[i * nd + j];
        char what[96];
        if (e == 0) {
            snprintf(what, sizeof what, "%s: consistent mass sums to the element mass", name);
            CHECK_REL(msum, me, 1e-12, what);
        }
    }
    char what[96];
    snprintf(what, sizeof what, "%s patch test: strain energy of a linear field", name);
    CHECK_REL(Wsum, wD * Vsum, 1e-10, what);
    snprintf(what, sizeof what, "%s: volume of the distorted cube", name);
    double detG = 1.1 * (0.9 * 1.2 + 0.1 * 0.15) - 0.2 * (0.1 * 1.2 - 0.1 * 0.05) + 0.05 * (0.1 * 0.15 + 0.9 * 0.05);
    CHECK_REL(Vsum, detG, 1e-12, what);
    snprintf(what, sizeof what, "%s: rigid motion gives no force (relative to diag K)", name);
    CHECK_ABS(rigid / kscale, 0, 1e-12, what);
    mt_fe_model_free(m);
}

static void test_solid_cantilever(void)
{
    printf("-- clamped block 1 x 0.05 x 0.05 m of 10-node tetrahedra against beam theory\n");
    const double L = 1, B = 0.05, H = 0.05;
    MtFeModel *m = box_mesh(L, B, H, 20, 2, 2, MT_FE_TET10);
    MtError err = {0};
    for (int n = 0; n < m->nnode; n++)
        if (m->x[3 * n] == 0) ok(mt_fe_add_spc(m, n, MT_FE_TRANS, &err), &err);
    double *f = freqs(m, 12, 0);
    static const double bl[2] = {1.875104069, 4.694091133};
    double A = B * H, I = B * H * H * H / 12;
    for (int k = 0; k < 2; k++) {
        double fe = bl[k] * bl[k] / (2 * PI * L * L) * sqrt(E * I / (RHO * A));
        char what[96];
        snprintf(what, sizeof what, "tet10 block, bending mode %d against Euler-Bernoulli (%.3f Hz)", k + 1, fe);
        CHECK_ABS(nearest(f, 12, fe), 0, 1e-2, what);
    }
    /* higher modes feel shear and rotary inertia: against Timoshenko beam
     * elements (verified above) with the square section's κ = 10(1+ν)/(12+11ν) */
    MtFeModel *tb = beam_model(L, 60, B, H, 10 * (1 + NU) / (12 + 11 * NU), 1);
    ok(mt_fe_add_spc(tb, 0, MT_FE_ALL, &err), &err);
    double *ft = freqs(tb, 12, 0);
    for (int k = 0; k < 6; k++) { /* three pairs of bending modes (torsion needs a finer section mesh) */
        char what[96];
        snprintf(what, sizeof what, "tet10 block against Timoshenko beam, mode %d (%.3f Hz)", k + 1, ft[k]);
        CHECK_ABS(nearest(f, 12, ft[k]), 0, 1e-2, what);
    }
    free(ft);
    mt_fe_model_free(tb);
    free(f);
    mt_fe_model_free(m);
    printf("-- the same block free-free: six rigid-body modes, then bending\n");
    m = box_mesh(L, B, H, 20, 2, 2, MT_FE_TET10);
    f = freqs(m, 10, 0);
    int nzero = 0;
    for (int k = 0; k < 10; k++) nzero += f[k] < 1e-3 * f[9];
    CHECK(nzero == 6, "six near-zero frequencies, got %d", nzero);
    double ff = 4.730040745 * 4.730040745 / (2 * PI * L * L) * sqrt(E * I / (RHO * A));
    CHECK_REL(f[6], ff, 1e-2, "tet10 block free-free first bending");
    free(f);
    mt_fe_model_free(m);
}

/* A slender solid beam, 1 × 0.005 × 0.0025 m (L/h = 400, where shear and
 * rotary inertia change the fifth bending frequency by less than 0.01 %),
 * 200 × 2 × 1 cells of six 10-node tetrahedra (18 045 DOFs): the first five
 * bending frequencies in the weak plane against Euler–Bernoulli, free-free
 * and clamped. Two clamps: the beam-theory one (u_x = 0 on the face, u_y and
 * u_z held on its two mid-lines, so the section may contract freely) and
 * the full one (every node of the face held), which the Poisson restraint
 * at the root makes slightly stiffer. */
static void test_solid_slender(void)
{
    printf("-- slender tet10 beam 1 x 0.005 x 0.0025 m, 18045 DOFs: first five bending modes against Euler-Bernoulli\n");
    const double L = 1, B = 0.005, H = 0.0025, A = B * H, I = B * H * H * H / 12;
    static const double blf[5] = {4.730040745, 7.853204624, 10.99560784, 14.13716549, 17.27875966};
    static const double blc[5] = {1.875104069, 4.694091133, 7.854757438, 10.99554073, 14.13716839};
    MtError err = {0};
    double fc[2][5];
    for (int support = 0; support < 3; support++) {
        MtFeModel *m = box_mesh(L, B, H, 200, 2, 1, MT_FE_TET10);
        for (int n = 0; n < m->nnode && support; n++) {
            const double *x = m->x + 3 * n;
            if (x[0] != 0) continue;
            int mask = support == 2 ? MT_FE_TRANS : 0x01 | (fabs(x[1] - B / 2) < 1e-12 ? 0x02 : 0) | (fabs(x[2] - H / 2) < 1e-12 ? 0x04 : 0);
            ok(mt_fe_add_spc(m, n, mask, &err), &err);
        }
        int nf = 16; /* 6 rigid, 5 weak-plane and 3 strong-plane bending modes below the fifth */
        double *f = freqs(m, nf, 0);
        static const char *name[3] = {"free-free", "clamped (beam-theory clamp)", "clamped (whole face held)"};
        if (!support) {
            int nzero = 0;
            for (int k = 0; k < nf; k++) nzero += f[k] < 1e-3 * f[6];
            CHECK(nzero == 6, "free-free solid beam: six rigid-body frequencies below 1e-3 of the first elastic one, got %d",
                  nzero);
        }
        for (int k = 0; k < 5; k++) {
            double bl = support ? blc[k] : blf[k], fe = bl * bl / (2 * PI * L * L) * sqrt(E * I / (RHO * A));
            char what[112];
            snprintf(what, sizeof what, "tet10 beam %s, mode %d (%.4f Hz)", name[support], k + 1, fe);
            double best = INFINITY, fb = 0;
            for (int i = support ? 0 : 6; i < nf; i++)
                if (fabs(f[i] - fe) < best) best = fabs(f[i] - fe), fb = f[i];
            CHECK_REL(fb, fe, 1e-3, what);
            if (support) fc[support - 1][k] = fb;
        }
        free(f);
        mt_fe_model_free(m);
    }
    int stiffer = 1;
    for (int k = 0; k < 5; k++) stiffer &= fc[1][k] > fc[0][k];
    CHECK(stiffer, "holding the whole face is stiffer than the beam-theory clamp");
}

/* Lumped mass (nodal rigid bodies, HRZ shares) for every element type,
 * next to the consistent mass: solids by the first axial mode of a free-free
 * bar (f = 1/(2L)·sqrt(E/ρ); the Rayleigh–Love lateral-inertia correction
 * is 2·10⁻⁴ here), beams by the clamped Euler–Bernoulli beam, shells by the
 * simply supported plate. The lumped frequency lies below the consistent
 * one (the consistent mass is an upper-bound Rayleigh–Ritz model of the
 * inertia); both are within the stated tolerance of theory; and the nodal
 * masses add up to the model's mass exactly. */
static void test_lumped(void)
{
    printf("-- lumped and consistent mass for every element type\n");
    MtError err = {0};
    static const int types[3] = {MT_FE_TET4, MT_FE_TET10, MT_FE_HEX8};
    static const char *tname[3] = {"tet4", "tet10", "hex8"};
    const double L = 1, fa = 1 / (2 * L) * sqrt(E / RHO);
    for (int t = 0; t < 3; t++) {
        MtFeModel *m = box_mesh(L, 0.05, 0.05, 40, 1, 1, types[t]);
        double f2[2];
        for (int lumped = 0; lumped < 2; lumped++) {
            double *f = freqs(m, 24, lumped);
            double best = INFINITY;
            for (int k = 6; k < 24; k++)
                if (fabs(f[k] - fa) < fabs(best - fa)) best = f[k];
            char what[96];
            snprintf(what, sizeof what, "%s bar, %s mass: first axial mode (%.2f Hz)", tname[t], lumped ? "lumped" : "consistent", fa);
            CHECK_REL(best, fa, 2e-3, what);
            f2[lumped] = best;
            free(f);
        }
        CHECK(f2[1] < f2[0], "%s: lumped mass gives the lower frequency (%.3f < %.3f Hz)", tname[t], f2[1], f2[0]);
        double *mass = malloc(sizeof(double) * (size_t)m->nnode), *first = malloc(sizeof(double) * 3 * (size_t)m->nnode);
        double *inert = malloc(sizeof(double) * 9 * (size_t)m->nnode), tot = 0, mm, s[3], In[9];
        ok(mt_fe_node_shares(m, mass, first, inert, &err), &err);
        int positive = 1;
        for (int n = 0; n < m->nnode; n++) tot += mass[n], positive &= mass[n] > 0;
        ok(mt_fe_mass_properties(m, &mm, s, In, &err), &err);
        char what[96];
        snprintf(what, sizeof what, "%s: nodal masses add up to the model's mass", tname[t]);
        CHECK_REL(tot, mm, 1e-12, what);
        CHECK(positive, "%s: every node has a positive mass", tname[t]);
        free(mass), free(first), free(inert);
        mt_fe_model_free(m);
    }
    /* beams: five clamped modes, lumped and consistent. A node's rigid body
     * carries half of each element's mass at the element's centre, so its
     * rotary inertia about the node is ρA·L_e³/3 — the exact inertia of the
     * element, which acts like a section of radius of gyration L_e/√3 and
     * lowers mode k by roughly (β_k L_e)²/6 (0.9 % for mode 5 at 60
     * elements): second order in L_e, so the error must fall about 3 to 4
     * times at 120 elements */
    static const double bl[5] = {1.875104069, 4.694091133, 7.854757438, 10.99554073, 14.13716839};
    const double b = 0.02, h = 0.01, Iw = b * h * h * h / 12;
    double e5[2];
    for (int r = 0; r < 2; r++) {
        int ne = 60 * (r + 1);
        MtFeModel *m = beam_model(L, ne, b, h, 0, 0);
        ok(mt_fe_add_spc(m, 0, MT_FE_ALL, &err), &err);
        double *fcons = freqs(m, 16, 0), *flump = freqs(m, 16, 1);
        for (int k = 0; k < 5; k++) {
            double fw = bl[k] * bl[k] / (2 * PI * L * L) * sqrt(E * Iw / (RHO * b * h));
            char what[96];
            snprintf(what, sizeof what, "beam, lumped mass, %d elements: clamped mode %d", ne, k + 1);
            CHECK_ABS(nearest(flump, 16, fw), 0, r ? 3e-3 : 1e-2, what);
            if (k == 4) e5[r] = nearest(flump, 16, fw);
            snprintf(what, sizeof what, "beam, consistent mass, %d elements: clamped mode %d", ne, k + 1);
            CHECK_ABS(nearest(fcons, 16, fw), 0, 1e-4, what);
        }
        free(fcons), free(flump);
        mt_fe_model_free(m);
    }
    CHECK(e5[1] < 0.4 * e5[0], "lumped beam: the error of mode 5 falls 3x or more when the elements are halved (%.2g, %.2g)",
          e5[0], e5[1]);
}

/* ---- shells ------------------------------------------------------------------ */

/* Square plate a×a in the x–y plane, n×n quads (or 2n² triangles). */
static MtFeModel *plate(double a, double h, int n, int tri)
{
    MtError err = {0};
    MtFeModel *m = must(mt_fe_model_new());
    int mat = mt_fe_add_material(m, "steel", E, NU, RHO, &err);
    MtFeProp p = {0};
    p.kind = MT_FE_PROP_SHELL, p.mat = mat, p.t = h;
    int pr = mt_fe_add_prop(m, &p, &err);
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) ok(mt_fe_add_node(m, 1 + i + (n + 1) * j, a * i / n, a * j / n, 0, &err), &err);
    int id = 1;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            int c[4] = {i + (n + 1) * j, i + 1 + (n + 1) * j, i + 1 + (n + 1) * (j + 1), i + (n + 1) * (j + 1)};
            if (!tri) ok(mt_fe_add_elem(m, id++, MT_FE_QUAD4, pr, c, &err), &err);
            else { /* alternate diagonals */
                int t1[3] = {c[0], c[1], c[2]}, t2[3] = {c[0], c[2], c[3]}, t3[3] = {c[0], c[1], c[3]}, t4[3] = {c[1], c[2], c[3]};
                if ((i + j) % 2) ok(mt_fe_add_elem(m, id++, MT_FE_TRIA3, pr, t1, &err), &err), ok(mt_fe_add_elem(m, id++, MT_FE_TRIA3, pr, t2, &err), &err);
                else ok(mt_fe_add_elem(m, id++, MT_FE_TRIA3, pr, t3, &err), &err), ok(mt_fe_add_elem(m, id++, MT_FE_TRIA3, pr, t4, &err), &err);
            }
        }
    return m;
}

/* Edges: simply supported (w = 0; in-plane and drilling held) or clamped. */
static void plate_support(MtFeModel *m, int n, int clamped)
{
    MtError err = {0};
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) {
            int node = i + (n + 1) * j, edge = i == 0 || j == 0 || i == n || j == n;
            int mask = 0x23; /* ux uy rz: in-plane motion plays no part */
            if (edge) mask |= clamped ? MT_FE_ALL : 0x04;
            ok(mt_fe_add_spc(m, node, mask, &err), &err);
        }
}

static void test_plates(void)
{
    printf("-- square plates a = 1 m, h = 10 mm against Leissa (1969): SSSS 2pi^2, 5pi^2, 8pi^2; CCCC 35.985\n");
    const double a = 1, h = 0.01, D = E * h * h * h / (12 * (1 - NU * NU));
    double scale = sqrt(D / (RHO * h)) / (a * a) / (2 * PI); /* f = λ·scale */
    for (int tri = 0; tri < 2; tri++) {
        int n = 32;
        MtFeModel *m = plate(a, h, n, tri);
        plate_support(m, n, 0);
        double *fl = freqs(m, 2, 1);
        char what[96];
        snprintf(what, sizeof what, "%s SSSS mode (1,1), lumped mass", tri ? "DKT" : "MITC4");
        CHECK_REL(fl[0], 2 * PI * PI * scale, 1e-2, what);
        free(fl);
        double *f = freqs(m, 6, 0);
        snprintf(what, sizeof what, "%s SSSS mode (1,1)", tri ? "DKT" : "MITC4");
        CHECK_REL(f[0], 2 * PI * PI * scale, 5e-3, what);
        snprintf(what, sizeof what, "%s SSSS modes (1,2), (2,1)", tri ? "DKT" : "MITC4");
        CHECK_REL(f[1], 5 * PI * PI * scale, 5e-3, what);
        CHECK_REL(f[2], 5 * PI * PI * scale, 5e-3, what);
        snprintf(what, sizeof what, "%s SSSS mode (2,2)", tri ? "DKT" : "MITC4");
        CHECK_REL(f[3], 8 * PI * PI * scale, 5e-3, what);
        free(f);
        mt_fe_model_free(m);
        m = plate(a, h, n, tri);
        plate_support(m, n, 1);
        f = freqs(m, 2, 0);
        snprintf(what, sizeof what, "%s CCCC fundamental", tri ? "DKT" : "MITC4");
        CHECK_REL(f[0], 35.985 * scale, 5e-3, what);
        free(f);
        mt_fe_model_free(m);
    }
}

/* DKT and MITC4 reproduce constant curvature and membrane strain exactly:
 * energy of w = ½κx² on a distorted patch. */
static void test_shell_patch(void)
{
    MtError err = {0};
    for (int tri = 0; tri < 2; tri++) {
        MtFeModel *m = plate(1, 0.01, 2, tri);
        /* distort interior node */
        m->x[3 * 4] += 0.12, m->x[3 * 4 + 1] -= 0.07;
        double kx = 1e-3, ex = 2e-4, h = 0.01, Db = E * h * h * h / (12 * (1 - NU * NU)), Dm = E * h / (1 - NU * NU);
        double W = 0;
        static double K[24 * 24], M[24 * 24];
        for (int e = 0; e < m->nelem; e++) {
            ok(mt_fe_elem_km(m, e, 0, K, M, &err), &err);
            int nn = mt_fe_type_nodes(m->elem[e].type), nd = 6 * nn;
            double u[24] = {0};
            for (int a = 0; a < nn; a++) {
                const double *x = m->x + 3 * m->conn[m->elem[e].conn + a];
                u[6 * a + 0] = ex * x[0];
                u[6 * a + 2] = 0.5 * kx * x[0] * x[0];
                u[6 * a + 4] = -kx * x[0];           /* θy = −∂w/∂x */
                u[6 * a + 5] = 0;
            }
            for (int i = 0; i < nd; i++)
                for (int j = 0; j < nd; j++) W += 0.5 * u[i] * K[i * nd + j] * u[j];
        }
        double want = 0.5 * (Db * kx * kx + Dm * ex * ex) * 1.0;
        char what[96];
        snprintf(what, sizeof what, "%s patch test: constant curvature and stretch energy", tri ? "DKT" : "MITC4");
        CHECK_REL(W, want, 1e-9, what);
        mt_fe_model_free(m);
    }
}


/* Eigenvalues μ (ascending, returned count) of ZᵀAZ v = μ ZᵀBZ v on the held
 * body: the body is reduced with its rigid vectors kept (so that the basis can
 * hold the clamped shapes, whose rigid part a floating frame would carry), the
 * clamp is the null space Z of the interface rows of the basis. B must be
 * positive definite on it. mu: fb->nmode entries. */
static int clamped_eig(const MtFlexBody *fb, const double *A, const double *B, double *mu)
{
    int n = fb->nmode, nc = 6 * fb->nif;
    double *C = malloc(sizeof(double) * (size_t)nc * n);
    memcpy(C, fb->if_H, sizeof(double) * (size_t)nc * n);
    double *sv = malloc(sizeof(double) * (size_t)(nc < n ? nc : n)), *VT = malloc(sizeof(double) * (size_t)n * n);
    double *U = malloc(sizeof(double) * (size_t)nc * nc);
    int info = LAPACKE_dgesdd(LAPACK_COL_MAJOR, 'A', nc, n, C, nc, sv, U, nc, VT, n) == 0 ? 0 : -1;
    int rank = 0;
    for (int k = 0; k < (nc < n ? nc : n); k++) rank += sv[k] > 1e-10 * sv[0];
    int nz = n - rank;
    double *Az = calloc((size_t)nz * nz, sizeof(double)), *Bz = calloc((size_t)nz * nz, sizeof(double));
    for (int a = 0; a < nz; a++)
        for (int b = 0; b < nz; b++) {
            const double *za = VT + rank + a, *zb = VT + rank + b; /* row rank+a of Vᵀ: za[n·i] */
            double sa = 0, sb = 0;
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) {
                    double p = za[(size_t)n * i] * zb[(size_t)n * j];
                    sa += p * A[(size_t)j * n + i];
                    sb += p * B[(size_t)j * n + i];
                }
            Az[(size_t)b * nz + a] = sa, Bz[(size_t)b * nz + a] = sb;
        }
    if (!info) info = LAPACKE_dsygv(LAPACK_COL_MAJOR, 1, 'N', 'U', nz, Az, nz, Bz, nz, mu);
    free(sv), free(U), free(VT), free(Az), free(Bz), free(C);
    return info == 0 ? nz : 0;
}

/* Smallest load factor λ that makes the held body's stiffness singular,
 * K̄ − λ Kg with the interface clamped, Kg ≥ 0 (tension case): λ = 1 / μ_max
 * of ZᵀKgZ v = μ ZᵀK̄Z v. */
static double buckling_factor(const MtFlexBody *fb, const double *Kg)
{
    double *mu = malloc(sizeof(double) * (size_t)fb->nmode);
    int nz = clamped_eig(fb, Kg, fb->Kr, mu);
    double lam = nz > 0 && mu[nz - 1] > 0 ? 1 / mu[nz - 1] : NAN;
    free(mu);
    return lam;
}

/* Greenhill: a uniform cantilever column buckles under its own weight when
 * q L³ / EI = 7.837 (q weight per length). The body force case b = e_x pulls
 * away from the held root (tension, case 0 of MtFlexBody.Kg); its reverse
 * compresses, so the critical acceleration is 1 / μ_max of (K̄, Kg_0). */
static void test_self_weight_buckling(void)
{
    printf("-- geometric stiffening: cantilever buckling under its own weight (Greenhill 7.837 EI/L^3)\n");
    const double L = 1, b = 0.02, h = 0.01, want_q = 7.8373;
    MtFeModel *m = beam_model(L, 20, b, h, 0, 0);
    MtReduceOptions o;
    mt_reduce_options_init(&o);
    int root = 0, cases = 0;
    o.nif = 1, o.ifnodes = &root, o.nmodes = 12, o.surface = 0, o.stiffening = 1, o.keep_rigid = 1;
    MtError err = {0};
    MtFlexBody *fb = mt_flex_reduce(m, &o, NULL, &err);
    if (!fb || !fb->Kg) {
        printf("FAIL reduce: %s\n", err.msg);
        exit(1);
    }
    double EI = E * b * h * h * h / 12; /* weak axis: bending in x–z (h along z) */
    double lam = buckling_factor(fb, fb->Kg);
    CHECK_REL(RHO * b * h * lam * L * L * L / EI, want_q, 5e-3, "beam: q L^3 / EI at buckling");
    /* a uniform body force along y bends the beam but does not pre-stress it axially */
    for (int k = 0; k < fb->nmode * fb->nmode; k++) cases += fabs(fb->Kg[(size_t)fb->nmode * fb->nmode + k]) > 1e-9 * lam;
    CHECK(cases == 0, "beam: no geometric stiffness from a load across it");
    /* spinning about z (C = ω²(1 − e_z e_zᵀ)): centrifugal tension stiffens bending out of the plane */
    mt_flex_body_free(fb);
    mt_fe_model_free(m);

    printf("-- the same column of tet10 solids, root face held\n");
    const double Ls = 0.6, Bs = 0.03, Hs = 0.03;
    m = box_mesh(Ls, Bs, Hs, 16, 1, 1, MT_FE_TET10);
    int nroot = 0, *roots = malloc(sizeof(int) * (size_t)m->nnode);
    for (int a = 0; a < m->nnode; a++)
        if (m->x[3 * a] == 0) roots[nroot++] = a;
    o.nif = nroot, o.ifnodes = roots, o.nmodes = 12;
    fb = mt_flex_reduce(m, &o, NULL, &err);
    if (!fb || !fb->Kg) {
        printf("FAIL reduce: %s\n", err.msg);
        exit(1);
    }
    lam = buckling_factor(fb, fb->Kg);
    EI = E * Bs * Hs * Hs * Hs / 12;
    CHECK_REL(RHO * Bs * Hs * lam * Ls * Ls * Ls / EI, want_q, 0.02, "tet10: q L^3 / EI at buckling");
    mt_flex_body_free(fb);
    free(roots);
    /* a free-free reduction is refused with a message (the pre-stress needs the interface held) */
    o.method = MT_REDUCE_MODES, o.nif = 0, o.ifnodes = NULL;
    fb = mt_flex_reduce(m, &o, NULL, &err);
    CHECK(!fb && strstr(err.msg, "cb or guyan"), "stiffening with a free-free reduction is refused");
    mt_fe_model_free(m);
}

/* The strip [0,L]×[0,B] in the x–y plane of nx×ny mem4, mem8, quad4 or quad8
 * elements (the 8-node ones without centre nodes), thickness t, Poisson's
 * ratio nu; root gets the nodes at x = 0 (their count in *nroot). */
static MtFeModel *sheet_strip(double L, double B, int nx, int ny, int type, double t, double nu, int *root, int *nroot)
{
    MtError err = {0};
    MtFeModel *m = must(mt_fe_model_new());
    MtFeProp p = {0};
    p.kind = MT_FE_PROP_SHELL, p.mat = mt_fe_add_material(m, "steel", E, nu, RHO, &err), p.t = t;
    int pr = mt_fe_add_prop(m, &p, &err);
    int q = type == MT_FE_MEM8 || type == MT_FE_QUAD8 ? 2 : 1, gx = q * nx + 1, gy = q * ny + 1;
    int *idx = malloc(sizeof(int) * (size_t)(gx * gy));
    *nroot = 0;
    for (int j = 0; j < gy; j++)
        for (int i = 0; i < gx; i++)
            if (q == 1 || i % 2 + j % 2 <= 1) {
                ok(idx[i + gx * j] = mt_fe_add_node(m, 1 + i + gx * j, L * i / (gx - 1), B * j / (gy - 1), 0, &err), &err);
                if (i == 0) root[(*nroot)++] = idx[i + gx * j];
            }
#define G(i, j) idx[(i) + gx * (j)]
    for (int j = 0, id = 1; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            int I = q * i, J = q * j;
            int c[8] = {G(I, J), G(I + q, J), G(I + q, J + q), G(I, J + q), 0, 0, 0, 0};
            if (q == 2) c[4] = G(I + 1, J), c[5] = G(I + 2, J + 1), c[6] = G(I + 1, J + 2), c[7] = G(I, J + 1);
            if (type == MT_FE_TRIA3) { /* two triangles per cell, across the diagonal 0-2 */
                int t2[3] = {c[0], c[2], c[3]};
                ok(mt_fe_add_elem(m, id++, type, pr, c, &err), &err);
                ok(mt_fe_add_elem(m, id++, type, pr, t2, &err), &err);
                continue;
            }
            ok(mt_fe_add_elem(m, id++, type, pr, c, &err), &err);
        }
#undef G
    free(idx);
    return m;
}

/* Geometric stiffening of the kinds added after beams and the first solids
 * (issue 19): each column, clamped at x = 0, against two closed-form
 * problems of a uniform cantilever with its own bending stiffness EI
 * (measured by its standing first frequency, ω₀² ρA L⁴/EI = 1.87510⁴, so that
 * the element's own bending error — mem4's shear locking — is taken out):
 * Greenhill's self-weight buckling q L³/EI = 7.8373, and the flapwise
 * frequency of the blade spinning at γ = Ω√(ρAL⁴/EI) = 2 about its root,
 * λ = ω√(ρAL⁴/EI) = 4.1373 (Yoo & Shin 1998; the beam elements give the
 * same through the same reduction). Flap is along y for the membranes (their
 * plane is x–y, w held everywhere: the axis of spin is y) and along z for the
 * plate strip and the solid (spin about z). */
static void stiffening_case(const char *what, MtFeModel *m, const int *root, int nroot, double rhoA, double L, int flap,
                            double EI, double tol_EI)
{
    MtReduceOptions o;
    mt_reduce_options_init(&o);
    o.nif = nroot, o.ifnodes = root, o.nmodes = 12, o.surface = 0, o.stiffening = 1, o.keep_rigid = 1;
    MtError err = {0};
    MtFlexBody *fb = mt_flex_reduce(m, &o, NULL, &err);
    if (!fb || !fb->Kg) {
        printf("FAIL reduce %s: %s\n", what, err.msg);
        exit(1);
    }
    int n = fb->nmode;
    size_t NN = (size_t)n * n;
    double *mu = malloc(sizeof(double) * (size_t)n), *A = malloc(sizeof(double) * NN);
    int nz = clamped_eig(fb, fb->Kr, fb->Mr, mu);
    double w0 = sqrt(mu[0]), b1 = 1.8751040687, EIe = w0 * w0 * rhoA * L * L * L * L / (b1 * b1 * b1 * b1);
    char msg[160];
    snprintf(msg, sizeof msg, "%s: bending stiffness from the first clamped frequency against E I", what);
    CHECK_REL(EIe, EI, tol_EI, msg);
    double lam = buckling_factor(fb, fb->Kg); /* case 0: unit body force along x, away from the root */
    snprintf(msg, sizeof msg, "%s: q L^3 / EI at buckling under its own weight (Greenhill 7.8373)", what);
    CHECK_REL(rhoA * lam * L * L * L / EIe, 7.8373, 5e-3, msg);
    /* spinning about the axis across the strip that is not the flap direction: C = Ω²(1 − e_a e_aᵀ) */
    int axis = flap == 1 ? 1 : 2;
    double Om = 2 / sqrt(rhoA * L * L * L * L / EIe);
    for (size_t k = 0; k < NN; k++) {
        double c = 0;
        for (int j = 0; j < 3; j++) c += j == axis ? 0 : fb->Kg[(3 + j) * NN + k];
        A[k] = fb->Kr[k] + Om * Om * c;
    }
    nz = clamped_eig(fb, A, fb->Mr, mu);
    snprintf(msg, sizeof msg, "%s: flapwise lambda spinning at gamma = 2 (Yoo & Shin 4.1373)", what);
    CHECK(nz > 0, "%s: clamped modes", what);
    CHECK_REL(sqrt(mu[0]) * sqrt(rhoA * L * L * L * L / EIe), 4.1373, 5e-3, msg);
    free(mu), free(A);
    mt_flex_body_free(fb);
}

static void test_stiffening_elements(void)
{
    printf("-- geometric stiffening of beams, hex20, membranes and shells: Greenhill, spinning blade\n");
    const double L = 0.6, a = 0.03;
    MtFeModel *m = beam_model(L, 20, a, a, 0, 0);
    int root0 = 0, root[64], nroot = 0;
    stiffening_case("beam, 20 elements", m, &root0, 1, RHO * a * a, L, 2, E * a * a * a * a / 12, 1e-3);
    mt_fe_model_free(m);
    m = box_mesh(2 * L, a, a, 16, 1, 1, MT_FE_HEX20);
    for (int k = 0; k < m->nnode; k++)
        if (m->x[3 * k] == 0) root[nroot++] = k;
    /* the clamped face also holds the section's Poisson contraction: 1.4 % stiffer at L/h = 40 (2.7 % at 20) */
    stiffening_case("hex20 16x1x1", m, root, nroot, RHO * a * a, 2 * L, 2, E * a * a * a * a / 12, 0.02);
    mt_fe_model_free(m);
    /* membranes 1 m × 50 mm × 10 mm bending in their plane (plane stress: E I = E t B³/12), w held */
    const double Lm = 1, B = 0.05, t = 0.01;
    static const int mem[2] = {MT_FE_MEM8, MT_FE_MEM4}, mnx[2] = {20, 80}, mny[2] = {2, 4};
    for (int k = 0; k < 2; k++) {
        m = sheet_strip(Lm, B, mnx[k], mny[k], mem[k], t, NU, root, &nroot);
        MtError err = {0};
        for (int a2 = 0; a2 < m->nnode; a2++) ok(mt_fe_add_spc(m, a2, 0x4, &err), &err);
        char what[64];
        snprintf(what, sizeof what, "%s %dx%d", mem[k] == MT_FE_MEM8 ? "mem8" : "mem4", mnx[k], mny[k]);
        stiffening_case(what, m, root, nroot, RHO * B * t, Lm, 1, E * t * B * B * B / 12, mem[k] == MT_FE_MEM8 ? 5e-3 : 0.1);
        mt_fe_model_free(m);
    }
    /* the plate strip 1 m × 50 mm × 5 mm bending across (ν = 0: E I = E B t³/12 without the plate's 1/(1 − ν²)) */
    m = sheet_strip(Lm, B, 20, 1, MT_FE_QUAD8, 0.005, 0, root, &nroot);
    stiffening_case("quad8 20x1", m, root, nroot, RHO * B * 0.005, Lm, 2, E * B * 0.005 * 0.005 * 0.005 / 12, 5e-3);
    mt_fe_model_free(m);
    /* the same strip of 4-node (MITC4) and 3-node (DKT with the constant-strain membrane) shells */
    m = sheet_strip(Lm, B, 20, 1, MT_FE_QUAD4, 0.005, 0, root, &nroot);
    stiffening_case("quad4 20x1", m, root, nroot, RHO * B * 0.005, Lm, 2, E * B * 0.005 * 0.005 * 0.005 / 12, 5e-3);
    mt_fe_model_free(m);
    m = sheet_strip(Lm, B, 40, 1, MT_FE_TRIA3, 0.005, 0, root, &nroot);
    stiffening_case("tria3 40x1x2", m, root, nroot, RHO * B * 0.005, Lm, 2, E * B * 0.005 * 0.005 * 0.005 / 12, 5e-3);
    mt_fe_model_free(m);
}

int main(void)
{
    test_self_weight_buckling();
    test_stiffening_elements();
    test_beam_clamped();
    test_beam_free();
    test_beam_timoshenko();
    patch_solid(MT_FE_TET4, "tet4");
    patch_solid(MT_FE_TET10, "tet10");
    patch_solid(MT_FE_HEX8, "hex8");
    test_solid_cantilever();
    test_solid_slender();
    test_lumped();
    test_shell_patch();
    test_plates();
    return mt_test_done();
}
