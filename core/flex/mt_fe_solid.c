/* mt_fe_solid.c — isoparametric solid elements, isotropic linear elastic:
 * 4-node and 10-node tetrahedra, the 8-node and the 20-node (serendipity)
 * hexahedra.
 *
 * Stiffness: K_ab = Σ_q w|J| [λ g_a g_bᵀ + μ (g_b g_aᵀ + (g_a·g_b) 1)],
 * g = ∇N, with the 1-point (tet4), 4-point degree-2 (tet10) and 2×2×2 Gauss
 * (hex8) and 3×3×3 Gauss (hex20: full integration, no spurious zero-energy
 * modes) rules, exact for straight-sided elements. Consistent mass
 * M_ab = ρ ∫ N_a N_b 1: a conical-product Gauss rule of degree 7 on
 * tetrahedra (64 points, exact for the quadratic tetrahedron's degree-4
 * products even with a mildly curved Jacobian), 2×2×2 on hex8, 3×3×3 on
 * hex20. Tet10 node order is Abaqus/Nastran: corners 0–3, then edges 0-1,
 * 1-2, 2-0, 0-3, 1-3, 2-3; hex20 is Abaqus's: corners 0–7 (as hex8), then
 * edges 0-1, 1-2, 2-3, 3-0, 4-5, 5-6, 6-7, 7-4, 0-4, 1-5, 2-6, 3-7.
 * Declared in mt_fe_elem.h. */
#include <math.h>
#include <string.h>

#include "mt_fe_elem.h"
#include "mt_i18n.h"

/* ---- quadrature -------------------------------------------------------------- */

typedef struct {
    int n;
    double p[64][3], w[64];
} Rule;

static Rule tet_mass_rule, tet1_rule, tet4_rule, hex_rule, hex27_rule;
static int rules_ready;
/* shape functions and their derivatives at the mass rule's points, by type
 * (0 tet4, 1 tet10, 2 hex8, 3 hex20): the mass loop then needs only det J */
static double mass_N[4][64][MT_FE_MAXNODE], mass_dN[4][64][MT_FE_MAXNODE][3];
static int shape(int type, const double *xi, double *N, double (*dN)[3]);
static int type_slot(int type)
{
    return type == MT_FE_TET4 ? 0 : type == MT_FE_TET10 ? 1 : type == MT_FE_HEX8 ? 2 : 3;
}
static int is_hex(int type) { return type == MT_FE_HEX8 || type == MT_FE_HEX20; }
/* The stiffness rule and the mass rule of a type. */
static const Rule *stiff_rule(int type)
{
    return type == MT_FE_TET4 ? &tet1_rule : type == MT_FE_TET10 ? &tet4_rule : type == MT_FE_HEX8 ? &hex_rule : &hex27_rule;
}
static const Rule *mass_rule(int type)
{
    return type == MT_FE_HEX8 ? &hex_rule : type == MT_FE_HEX20 ? &hex27_rule : &tet_mass_rule;
}

static void make_rules(void)
{
    if (rules_ready) return;
    /* Gauss–Legendre on [0,1], 4 points */
    static const double gx[4] = {0.0694318442029737, 0.3300094782075719, 0.6699905217924281, 0.9305681557970263};
    static const double gw[4] = {0.1739274225687269, 0.3260725774312731, 0.3260725774312731, 0.1739274225687269};
    Rule *r = &tet_mass_rule;
    r->n = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            for (int k = 0; k < 4; k++) {
                double u = gx[i], v = gx[j], t = gx[k];
                /* ζ = t, η = v(1−t), ξ = u(1−v)(1−t); |J| = (1−v)(1−t)² */
                r->p[r->n][0] = u * (1 - v) * (1 - t);
                r->p[r->n][1] = v * (1 - t);
                r->p[r->n][2] = t;
                r->w[r->n] = gw[i] * gw[j] * gw[k] * (1 - v) * (1 - t) * (1 - t);
                r->n++;
            }
    tet1_rule.n = 1;
    tet1_rule.p[0][0] = tet1_rule.p[0][1] = tet1_rule.p[0][2] = 0.25;
    tet1_rule.w[0] = 1.0 / 6;
    const double a = 0.5854101966249685, b = 0.1381966011250105;
    tet4_rule.n = 4;
    for (int q = 0; q < 4; q++) {
        double L[4] = {b, b, b, b};
        L[q] = a;
        tet4_rule.p[q][0] = L[1];
        tet4_rule.p[q][1] = L[2];
        tet4_rule.p[q][2] = L[3];
        tet4_rule.w[q] = 1.0 / 24;
    }
    const double g = 1 / sqrt(3.0);
    hex_rule.n = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 2; k++) {
                hex_rule.p[hex_rule.n][0] = i ? g : -g;
                hex_rule.p[hex_rule.n][1] = j ? g : -g;
                hex_rule.p[hex_rule.n][2] = k ? g : -g;
                hex_rule.w[hex_rule.n] = 1;
                hex_rule.n++;
            }
    /* 3×3×3 Gauss–Legendre on [-1,1] */
    static const double g3[3] = {-0.7745966692414834, 0, 0.7745966692414834}, w3[3] = {5.0 / 9, 8.0 / 9, 5.0 / 9};
    hex27_rule.n = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++) {
                hex27_rule.p[hex27_rule.n][0] = g3[i];
                hex27_rule.p[hex27_rule.n][1] = g3[j];
                hex27_rule.p[hex27_rule.n][2] = g3[k];
                hex27_rule.w[hex27_rule.n++] = w3[i] * w3[j] * w3[k];
            }
    static const int types[4] = {MT_FE_TET4, MT_FE_TET10, MT_FE_HEX8, MT_FE_HEX20};
    for (int t = 0; t < 4; t++) {
        const Rule *rm = mass_rule(types[t]);
        for (int q = 0; q < rm->n; q++) shape(types[t], rm->p[q], mass_N[t][q], mass_dN[t][q]);
    }
    rules_ready = 1;
}

/* ---- shape functions --------------------------------------------------------- */

static const double hex_sign[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                      {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
static const int tet10_edge[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
static const int hex20_edge[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
                                      {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};

/* Serendipity hexahedron: corners N = ⅛ Π(1 + sᵢξᵢ)·(s·ξ − 2); a mid-edge
 * node along direction k: N = ¼ (1 − ξₖ²) Π_{j≠k}(1 + sⱼξⱼ). */
static int shape_hex20(const double *xi, double *N, double (*dN)[3])
{
    for (int a = 0; a < 8; a++) {
        const double *s = hex_sign[a];
        double f[3] = {1 + s[0] * xi[0], 1 + s[1] * xi[1], 1 + s[2] * xi[2]};
        double q = s[0] * xi[0] + s[1] * xi[1] + s[2] * xi[2] - 2, p = f[0] * f[1] * f[2];
        N[a] = 0.125 * p * q;
        for (int i = 0; i < 3; i++) dN[a][i] = 0.125 * s[i] * (f[(i + 1) % 3] * f[(i + 2) % 3] * q + p);
    }
    for (int e = 0; e < 12; e++) {
        const double *s0 = hex_sign[hex20_edge[e][0]], *s1 = hex_sign[hex20_edge[e][1]];
        int k = s0[0] != s1[0] ? 0 : s0[1] != s1[1] ? 1 : 2, j1 = (k + 1) % 3, j2 = (k + 2) % 3;
        double b = 1 - xi[k] * xi[k], f1 = 1 + s0[j1] * xi[j1], f2 = 1 + s0[j2] * xi[j2];
        N[8 + e] = 0.25 * b * f1 * f2;
        dN[8 + e][k] = -0.5 * xi[k] * f1 * f2;
        dN[8 + e][j1] = 0.25 * b * s0[j1] * f2;
        dN[8 + e][j2] = 0.25 * b * f1 * s0[j2];
    }
    return 20;
}

/* Natural coordinates of the nodes (for stress recovery). */
static void node_natural(int type, int a, double xi[3])
{
    static const double tet[10][3] = {{0, 0, 0},     {1, 0, 0},     {0, 1, 0},   {0, 0, 1},     {.5, 0, 0},
                                      {.5, .5, 0},   {0, .5, 0},    {0, 0, .5},  {.5, 0, .5},   {0, .5, .5}};
    if (is_hex(type) && a < 8) memcpy(xi, hex_sign[a], sizeof(double) * 3);
    else if (is_hex(type)) /* hex20 mid-edge: the mean of its corners */
        for (int k = 0; k < 3; k++) xi[k] = 0.5 * (hex_sign[hex20_edge[a - 8][0]][k] + hex_sign[hex20_edge[a - 8][1]][k]);
    else memcpy(xi, tet[a], sizeof(double) * 3);
}

/* N (nn) and dN/dξ (nn×3) at ξ. */
static int shape(int type, const double *xi, double *N, double (*dN)[3])
{
    if (type == MT_FE_HEX20) return shape_hex20(xi, N, dN);
    if (type == MT_FE_HEX8) {
        for (int a = 0; a < 8; a++) {
            const double *s = hex_sign[a];
            double f0 = 1 + s[0] * xi[0], f1 = 1 + s[1] * xi[1], f2 = 1 + s[2] * xi[2];
            N[a] = 0.125 * f0 * f1 * f2;
            dN[a][0] = 0.125 * s[0] * f1 * f2;
            dN[a][1] = 0.125 * s[1] * f0 * f2;
            dN[a][2] = 0.125 * s[2] * f0 * f1;
        }
        return 8;
    }
    double L[4] = {1 - xi[0] - xi[1] - xi[2], xi[0], xi[1], xi[2]};
    static const double dL[4][3] = {{-1, -1, -1}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    if (type == MT_FE_TET4) {
        for (int a = 0; a < 4; a++) {
            N[a] = L[a];
            for (int k = 0; k < 3; k++) dN[a][k] = dL[a][k];
        }
        return 4;
    }
    for (int a = 0; a < 4; a++) {
        N[a] = L[a] * (2 * L[a] - 1);
        for (int k = 0; k < 3; k++) dN[a][k] = (4 * L[a] - 1) * dL[a][k];
    }
    for (int e = 0; e < 6; e++) {
        int i = tet10_edge[e][0], j = tet10_edge[e][1];
        N[4 + e] = 4 * L[i] * L[j];
        for (int k = 0; k < 3; k++) dN[4 + e][k] = 4 * (dL[i][k] * L[j] + L[i] * dL[j][k]);
    }
    return 10;
}

/* Jacobian at ξ: x (position), det J, g = ∇N (nn×3). Returns det J. */
static double jacobian(int nn, const double *X, const double (*dN)[3], double (*g)[3])
{
    double J[3][3] = {{0}};
    for (int a = 0; a < nn; a++)
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++) J[i][k] += dN[a][i] * X[3 * a + k]; /* J[i][k] = ∂x_k/∂ξ_i */
    double det = J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) - J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
                 J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
    if (det == 0 || !isfinite(det)) return 0;
    double inv[3][3];
    inv[0][0] = (J[1][1] * J[2][2] - J[1][2] * J[2][1]) / det;
    inv[0][1] = (J[0][2] * J[2][1] - J[0][1] * J[2][2]) / det;
    inv[0][2] = (J[0][1] * J[1][2] - J[0][2] * J[1][1]) / det;
    inv[1][0] = (J[1][2] * J[2][0] - J[1][0] * J[2][2]) / det;
    inv[1][1] = (J[0][0] * J[2][2] - J[0][2] * J[2][0]) / det;
    inv[1][2] = (J[0][2] * J[1][0] - J[0][0] * J[1][2]) / det;
    inv[2][0] = (J[1][0] * J[2][1] - J[1][1] * J[2][0]) / det;
    inv[2][1] = (J[0][1] * J[2][0] - J[0][0] * J[2][1]) / det;
    inv[2][2] = (J[0][0] * J[1][1] - J[0][1] * J[1][0]) / det;
    /* ∂N/∂x_k = Σ_i (J⁻¹)[k][i] ∂N/∂ξ_i */
    for (int a = 0; a < nn; a++)
        for (int k = 0; k < 3; k++) g[a][k] = inv[k][0] * dN[a][0] + inv[k][1] * dN[a][1] + inv[k][2] * dN[a][2];
    return det;
}

/* det J only (the mass integrals need no gradients). */
static double det_jacobian(int nn, const double *X, const double (*dN)[3])
{
    double J[3][3] = {{0}};
    for (int a = 0; a < nn; a++)
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++) J[i][k] += dN[a][i] * X[3 * a + k];
    double det = J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) - J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
                 J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
    return isfinite(det) ? det : 0;
}

static void gather(const MtFeModel *m, int e, double *X)
{
    const MtFeElem *el = &m->elem[e];
    int nn = mt_fe_type_nodes(el->type);
    for (int a = 0; a < nn; a++) memcpy(X + 3 * a, m->x + 3 * m->conn[el->conn + a], sizeof(double) * 3);
}

static int degenerate(const MtFeModel *m, int e, MtError *err)
{
    mt_error_set(err, MT_ERR_MODEL, "", MT_("element %d (%s) is degenerate: its volume is zero or it is turned inside out"),
                 m->elem[e].id, mt_fe_type_name(m->elem[e].type));
    return -1;
}

/* Reference sign of det J: the sign at the element centre (elements listed
 * in mirrored order are accepted); a sign change inside is an error. */
static double centre_sign(int type, int nn, const double *X)
{
    double xi[3] = {0.25, 0.25, 0.25}, N[MT_FE_MAXNODE], dN[MT_FE_MAXNODE][3], g[MT_FE_MAXNODE][3];
    if (is_hex(type)) xi[0] = xi[1] = xi[2] = 0;
    shape(type, xi, N, dN);
    double d = jacobian(nn, X, (const double(*)[3])dN, g);
    return d > 0 ? 1 : d < 0 ? -1 : 0;
}

int mt_fe_solid_km(const MtFeModel *m, int e, double *K, double *M, int want_m, MtError *err)
{
    make_rules();
    const MtFeElem *el = &m->elem[e];
    const MtFeMaterial *mat = mt_fe_elem_mat(m, e);
    int type = el->type, nn = mt_fe_type_nodes(type), nd = 3 * nn;
    double X[3 * MT_FE_MAXNODE], N[MT_FE_MAXNODE], dN[MT_FE_MAXNODE][3], g[MT_FE_MAXNODE][3];
    gather(m, e, X);
    double sgn = centre_sign(type, nn, X);
    if (sgn == 0) return degenerate(m, e, err);
    double lam = mat->E * mat->nu / ((1 + mat->nu) * (1 - 2 * mat->nu)), mu = mat->E / (2 * (1 + mat->nu));
    if (!K) goto mass; /* mass alone */
    memset(K, 0, sizeof(double) * (size_t)(nd * nd));
    const Rule *rk = stiff_rule(type);
    for (int q = 0; q < rk->n; q++) {
        shape(type, rk->p[q], N, dN);
        double det = jacobian(nn, X, (const double(*)[3])dN, g) * sgn;
        if (!(det > 0)) return degenerate(m, e, err);
        double w = rk->w[q] * det;
        for (int a = 0; a < nn; a++)
            for (int b = a; b < nn; b++) {
                double gg = g[a][0] * g[b][0] + g[a][1] * g[b][1] + g[a][2] * g[b][2];
                for (int i = 0; i < 3; i++)
                    for (int j = 0; j < 3; j++) {
                        double v = lam * g[a][i] * g[b][j] + mu * g[b][i] * g[a][j] + (i == j ? mu * gg : 0);
                        K[(3 * a + i) * nd + 3 * b + j] += w * v;
                    }
            }
    }
    for (int a = 0; a < nn; a++) /* mirror the upper node blocks */
        for (int b = a + 1; b < nn; b++)
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) K[(3 * b + j) * nd + 3 * a + i] = K[(3 * a + i) * nd + 3 * b + j];
mass:
    if (!want_m) return 0;
    memset(M, 0, sizeof(double) * (size_t)(nd * nd));
    const Rule *rm = mass_rule(type);
    double Ms[MT_FE_MAXNODE][MT_FE_MAXNODE] = {{0}};
    int slot = type_slot(type);
    for (int q = 0; q < rm->n; q++) {
        const double *Nq = mass_N[slot][q];
        double det = det_jacobian(nn, X, (const double(*)[3])mass_dN[slot][q]) * sgn;
        if (!(det > 0)) return degenerate(m, e, err);
        double w = rm->w[q] * det * mat->rho;
        for (int a = 0; a < nn; a++) {
            double wa = w * Nq[a];
            for (int b = a; b < nn; b++) Ms[a][b] += wa * Nq[b];
        }
    }
    for (int a = 0; a < nn; a++)
        for (int b = a; b < nn; b++)
            for (int i = 0; i < 3; i++) M[(3 * a + i) * nd + 3 * b + i] = M[(3 * b + i) * nd + 3 * a + i] = Ms[a][b];
    return 0;
}

int mt_fe_solid_inertia(const MtFeModel *m, int e, double *mass, double c[3], double S[9], double *w, MtError *err)
{
    make_rules();
    const MtFeElem *el = &m->elem[e];
    const MtFeMaterial *mat = mt_fe_elem_mat(m, e);
    int type = el->type, nn = mt_fe_type_nodes(type);
    double X[3 * MT_FE_MAXNODE], N[MT_FE_MAXNODE];
    gather(m, e, X);
    double sgn = centre_sign(type, nn, X);
    if (sgn == 0) return degenerate(m, e, err);
    const Rule *rm = mass_rule(type);
    double m0 = 0, m1[3] = {0}, m2[9] = {0}, diag[MT_FE_MAXNODE] = {0};
    int slot = type_slot(type);
    for (int q = 0; q < rm->n; q++) {
        memcpy(N, mass_N[slot][q], sizeof(double) * (size_t)nn);
        double det = det_jacobian(nn, X, (const double(*)[3])mass_dN[slot][q]) * sgn;
        if (!(det > 0)) return degenerate(m, e, err);
        double wq = rm->w[q] * det * mat->rho, x[3] = {0, 0, 0};
        for (int a = 0; a < nn; a++) {
            for (int k = 0; k < 3; k++) x[k] += N[a] * X[3 * a + k];
            diag[a] += wq * N[a] * N[a];
        }
        m0 += wq;
        for (int i = 0; i < 3; i++) {
            m1[i] += wq * x[i];
            for (int j = 0; j < 3; j++) m2[3 * i + j] += wq * x[i] * x[j];
        }
    }
    *mass = m0;
    double dsum = 0;
    for (int a = 0; a < nn; a++) dsum += diag[a];
    for (int a = 0; a < nn; a++) w[a] = dsum > 0 ? diag[a] / dsum : 1.0 / nn;
    for (int i = 0; i < 3; i++) c[i] = m0 > 0 ? m1[i] / m0 : 0;
    if (m0 <= 0) { /* massless: geometric centre */
        for (int i = 0; i < 3; i++) {
            c[i] = 0;
            for (int a = 0; a < nn; a++) c[i] += X[3 * a + i] / nn;
        }
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) S[3 * i + j] = m2[3 * i + j] - m0 * c[i] * c[j];
    return 0;
}

void mt_fe_elastic_D(double E, double nu, double D[36])
{
    double lam = E * nu / ((1 + nu) * (1 - 2 * nu)), mu = E / (2 * (1 + nu));
    memset(D, 0, sizeof(double) * 36);
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) D[6 * i + j] = lam;
        D[6 * i + i] = lam + 2 * mu;
        D[6 * (3 + i) + 3 + i] = mu;
    }
}

/* Stress (xx yy zz xy yz zx) of the displacement ue at a point with shape
 * gradients g, isotropic Lamé constants lam, mu. */
static void point_stress(int nn, const double *ue, const double (*g)[3], double lam, double mu, double s[6])
{
    double du[3][3] = {{0}}; /* du[i][k] = ∂u_i/∂x_k */
    for (int b = 0; b < nn; b++)
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++) du[i][k] += ue[3 * b + i] * g[b][k];
    double tr = du[0][0] + du[1][1] + du[2][2];
    s[0] = lam * tr + 2 * mu * du[0][0];
    s[1] = lam * tr + 2 * mu * du[1][1];
    s[2] = lam * tr + 2 * mu * du[2][2];
    s[3] = mu * (du[0][1] + du[1][0]);
    s[4] = mu * (du[1][2] + du[2][1]);
    s[5] = mu * (du[2][0] + du[0][2]);
}

int mt_fe_solid_stress(const MtFeModel *m, int e, const double *ue, double *sig)
{
    const MtFeElem *el = &m->elem[e];
    const MtFeMaterial *mat = mt_fe_elem_mat(m, e);
    int type = el->type, nn = mt_fe_type_nodes(type);
    double X[3 * MT_FE_MAXNODE], N[MT_FE_MAXNODE], dN[MT_FE_MAXNODE][3], g[MT_FE_MAXNODE][3];
    gather(m, e, X);
    double lam = mat->E * mat->nu / ((1 + mat->nu) * (1 - 2 * mat->nu)), mu = mat->E / (2 * (1 + mat->nu));
    for (int a = 0; a < nn; a++) {
        double xi[3];
        node_natural(type, a, xi);
        shape(type, xi, N, dN);
        double *s = sig + 6 * a;
        if (jacobian(nn, X, (const double(*)[3])dN, g) == 0) {
            memset(s, 0, sizeof(double) * 6);
            continue;
        }
        point_stress(nn, ue, (const double(*)[3])g, lam, mu, s);
    }
    return nn;
}

/* Geometric (stress) stiffness of a pre-stressed solid: the initial stress σ
 * of the displacement ue (3·nn) at each stiffness integration point,
 * S_ab = Σ_q w|J| g_aᵀ σ g_b, the same for every direction: Kg = S ⊗ 1₃ is
 * returned as the nn×nn scalar S (row-major). */
int mt_fe_solid_kg(const MtFeModel *m, int e, const double *ue, double *S, MtError *err)
{
    make_rules();
    const MtFeElem *el = &m->elem[e];
    const MtFeMaterial *mat = mt_fe_elem_mat(m, e);
    int type = el->type, nn = mt_fe_type_nodes(type);
    double X[3 * MT_FE_MAXNODE], N[MT_FE_MAXNODE], dN[MT_FE_MAXNODE][3], g[MT_FE_MAXNODE][3];
    gather(m, e, X);
    double sgn = centre_sign(type, nn, X);
    if (sgn == 0) return degenerate(m, e, err);
    double lam = mat->E * mat->nu / ((1 + mat->nu) * (1 - 2 * mat->nu)), mu = mat->E / (2 * (1 + mat->nu));
    memset(S, 0, sizeof(double) * (size_t)(nn * nn));
    const Rule *rk = stiff_rule(type);
    for (int q = 0; q < rk->n; q++) {
        shape(type, rk->p[q], N, dN);
        double det = jacobian(nn, X, (const double(*)[3])dN, g) * sgn;
        if (!(det > 0)) return degenerate(m, e, err);
        double v[6];
        point_stress(nn, ue, (const double(*)[3])g, lam, mu, v);
        double s[3][3] = {{v[0], v[3], v[5]}, {v[3], v[1], v[4]}, {v[5], v[4], v[2]}};
        double w = rk->w[q] * det;
        for (int a = 0; a < nn; a++) {
            double sg[3];
            for (int i = 0; i < 3; i++) sg[i] = s[i][0] * g[a][0] + s[i][1] * g[a][1] + s[i][2] * g[a][2];
            for (int b = 0; b < nn; b++) S[a * nn + b] += w * (sg[0] * g[b][0] + sg[1] * g[b][1] + sg[2] * g[b][2]);
        }
    }
    return 0;
}
