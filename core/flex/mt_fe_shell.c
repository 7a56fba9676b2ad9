/* mt_fe_shell.c — flat shell elements (membrane + plate bending), 6 DOF per
 * node, isotropic, thickness h:
 *
 *   QUAD4  MITC4 (Dvorkin & Bathe 1984): bilinear membrane, Mindlin bending
 *          with the transverse shear strains interpolated from the covariant
 *          strains at the edge mid-points (no shear locking), 2×2 Gauss;
 *          consistent mass with rotary inertia ρh³/12.
 *   TRIA3  DKT bending (Batoz, Bathe & Ho 1980: rotations quadratic, the
 *          Kirchhoff condition at the corners and along the edges at the
 *          mid-points, normal rotation linear along each edge) and the
 *          constant-strain membrane; mass: consistent linear translations,
 *          lumped rotary inertia.
 *
 * The normal ("drilling") rotation has no stiffness of its own in a flat
 * element: it is tied to the in-plane rotation of the membrane,
 * ½(∂v/∂x − ∂u/∂y), by a penalty γ = 10⁻³·G·h per unit area (Hughes–Brezzi),
 * at the membrane's integration points. Warped quadrilaterals are projected
 * on their mean plane (warping is ignored). Declared in mt_fe_elem.h. */
#include <math.h>
#include <string.h>

#include "mt_fe_elem.h"
#include "mt_i18n.h"

#define DRILL 1e-3

static int bad(const MtFeModel *m, int e, MtError *err)
{
    mt_error_set(err, MT_ERR_MODEL, "", MT_("shell element %d (%s) is degenerate: zero area or collinear nodes"),
                 m->elem[e].id, mt_fe_type_name(m->elem[e].type));
    return -1;
}

static void cross(const double *a, const double *b, double *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static double norm3(const double *a) { return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

/* Local axes R (rows e1, e2, n), 2D node coordinates xy (nn×2), origin o. */
static int frame(const MtFeModel *m, int e, double R[9], double xy[][2], double o[3], MtError *err)
{
    const MtFeElem *el = &m->elem[e];
    int nn = mt_fe_type_nodes(el->type);
    const double *X[4];
    for (int a = 0; a < nn; a++) X[a] = m->x + 3 * m->conn[el->conn + a];
    double n[3], e1[3];
    if (nn == 3) {
        double d1[3], d2[3];
        for (int k = 0; k < 3; k++) d1[k] = X[1][k] - X[0][k], d2[k] = X[2][k] - X[0][k];
        cross(d1, d2, n);
        for (int k = 0; k < 3; k++) e1[k] = d1[k], o[k] = X[0][k];
    } else {
        double d13[3], d24[3];
        for (int k = 0; k < 3; k++) {
            d13[k] = X[2][k] - X[0][k], d24[k] = X[3][k] - X[1][k];
            e1[k] = 0.5 * (X[1][k] + X[2][k] - X[0][k] - X[3][k]);
            o[k] = 0.25 * (X[0][k] + X[1][k] + X[2][k] + X[3][k]);
        }
        cross(d13, d24, n);
    }
    double nn_ = norm3(n), ne = norm3(e1);
    if (!(nn_ > 1e-12 * ne * ne) || !isfinite(nn_)) return bad(m, e, err);
    for (int k = 0; k < 3; k++) n[k] /= nn_;
    double d = e1[0] * n[0] + e1[1] * n[1] + e1[2] * n[2];
    for (int k = 0; k < 3; k++) e1[k] -= d * n[k];
    ne = norm3(e1);
    if (!(ne > 0)) return bad(m, e, err);
    for (int k = 0; k < 3; k++) e1[k] /= ne;
    double e2[3];
    cross(n, e1, e2);
    for (int k = 0; k < 3; k++) R[k] = e1[k], R[3 + k] = e2[k], R[6 + k] = n[k];
    for (int a = 0; a < nn; a++) {
        double r[3] = {X[a][0] - o[0], X[a][1] - o[1], X[a][2] - o[2]};
        xy[a][0] = r[0] * e1[0] + r[1] * e1[1] + r[2] * e1[2];
        xy[a][1] = r[0] * e2[0] + r[1] * e2[1] + r[2] * e2[2];
    }
    return 0;
}

/* Plane-stress matrix scaled by s: s·E/(1−ν²)[1 ν 0; ν 1 0; 0 0 (1−ν)/2]. */
static void dplane(double E, double nu, double s, double D[3][3])
{
    double c = s * E / (1 - nu * nu);
    memset(D, 0, sizeof(double) * 9);
    D[0][0] = D[1][1] = c;
    D[0][1] = D[1][0] = c * nu;
    D[2][2] = c * (1 - nu) / 2;
}

/* K += w·Bᵀ D B for B (r×nd), D (r×r). */
static void add_btdb(double *K, int nd, int r, const double *B, const double *D, double w)
{
    double DB[3 * 24];
    for (int i = 0; i < r; i++)
        for (int j = 0; j < nd; j++) {
            double s = 0;
            for (int k = 0; k < r; k++) s += D[i * r + k] * B[k * nd + j];
            DB[i * nd + j] = s;
        }
    for (int i = 0; i < nd; i++) {
        double bi[3];
        int nz = 0;
        for (int k = 0; k < r; k++) nz |= (bi[k] = B[k * nd + i]) != 0;
        if (!nz) continue;
        for (int j = 0; j < nd; j++) {
            double s = 0;
            for (int k = 0; k < r; k++) s += bi[k] * DB[k * nd + j];
            K[i * nd + j] += w * s;
        }
    }
}

/* ---- MITC4 ----------------------------------------------------------------- */

static const double q_xi[4] = {-1, 1, 1, -1}, q_eta[4] = {-1, -1, 1, 1};

static void q4_shape(double xi, double eta, double N[4], double dN[4][2])
{
    for (int a = 0; a < 4; a++) {
        N[a] = 0.25 * (1 + q_xi[a] * xi) * (1 + q_eta[a] * eta);
        dN[a][0] = 0.25 * q_xi[a] * (1 + q_eta[a] * eta);
        dN[a][1] = 0.25 * q_eta[a] * (1 + q_xi[a] * xi);
    }
}

/* J = [x,ξ y,ξ; x,η y,η]; returns det, fills g = ∇N (Cartesian). */
static double q4_jac(const double xy[4][2], const double dN[4][2], double J[2][2], double g[4][2])
{
    J[0][0] = J[0][1] = J[1][0] = J[1][1] = 0;
    for (int a = 0; a < 4; a++)
        for (int i = 0; i < 2; i++)
            for (int k = 0; k < 2; k++) J[i][k] += dN[a][i] * xy[a][k];
    double det = J[0][0] * J[1][1] - J[0][1] * J[1][0];
    if (g && det != 0)
        for (int a = 0; a < 4; a++) {
            g[a][0] = (J[1][1] * dN[a][0] - J[0][1] * dN[a][1]) / det;
            g[a][1] = (-J[1][0] * dN[a][0] + J[0][0] * dN[a][1]) / det;
        }
    return det;
}

/* Covariant transverse shear strains γ_ξ, γ_η (rows of Bc, 2×24) at (ξ, η):
 * γ_ξ = ∂w/∂ξ + β·x,ξ with βx = θy, βy = −θx. */
static void q4_cov_shear(const double xy[4][2], double xi, double eta, double Bc[2][24])
{
    double N[4], dN[4][2], J[2][2];
    q4_shape(xi, eta, N, dN);
    q4_jac(xy, dN, J, NULL);
    memset(Bc, 0, sizeof(double) * 48);
    for (int r = 0; r < 2; r++)
        for (int a = 0; a < 4; a++) {
            Bc[r][6 * a + 2] = dN[a][r];
            Bc[r][6 * a + 4] = N[a] * J[r][0];  /* βx = θy */
            Bc[r][6 * a + 3] = -N[a] * J[r][1]; /* βy = −θx */
        }
}

static int quad_km(const MtFeModel *m, int e, double *K, double *M, int want_m, MtError *err)
{
    const MtFeMaterial *mat = mt_fe_elem_mat(m, e);
    double h = m->prop[m->elem[e].prop].t, E = mat->E, nu = mat->nu, G = E / (2 * (1 + nu));
    double R[9], xy[4][2], o[3];
    if (frame(m, e, R, xy, o, err)) return -1;
    double Dm[3][3], Db[3][3], Ds[2][2] = {{5.0 / 6 * G * h, 0}, {0, 5.0 / 6 * G * h}};
    dplane(E, nu, h, Dm);
    dplane(E, nu, h * h * h / 12, Db);
    const int nd = 24;
    memset(K, 0, sizeof(double) * nd * nd);
    if (want_m) memset(M, 0, sizeof(double) * nd * nd);
    double BA[2][24], BC[2][24], BB[2][24], BD[2][24];
    q4_cov_shear(xy, 0, 1, BA);  /* γ_ξ tied at η = ±1 */
    q4_cov_shear(xy, 0, -1, BC);
    q4_cov_shear(xy, 1, 0, BB);  /* γ_η tied at ξ = ±1 */
    q4_cov_shear(xy, -1, 0, BD);
    const double gp = 1 / sqrt(3.0);
    double gd = DRILL * G * h;
    for (int q = 0; q < 4; q++) {
        double xi = q_xi[q] * gp, eta = q_eta[q] * gp, N[4], dN[4][2], J[2][2], g[4][2];
        q4_shape(xi, eta, N, dN);
        double det = q4_jac(xy, dN, J, g);
        if (!(det > 0)) return bad(m, e, err);
        double Bm[3 * 24] = {0}, Bb[3 * 24] = {0}, Bs[2 * 24], Bd[24] = {0};
        for (int a = 0; a < 4; a++) {
            int c = 6 * a;
            Bm[0 * nd + c + 0] = g[a][0];
            Bm[1 * nd + c + 1] = g[a][1];
            Bm[2 * nd + c + 0] = g[a][1];
            Bm[2 * nd + c + 1] = g[a][0];
            Bb[0 * nd + c + 4] = g[a][0];
            Bb[1 * nd + c + 3] = -g[a][1];
            Bb[2 * nd + c + 4] = g[a][1];
            Bb[2 * nd + c + 3] = -g[a][0];
            Bd[c + 5] = N[a];
            Bd[c + 1] += -0.5 * g[a][0];
            Bd[c + 0] += 0.5 * g[a][1];
        }
        /* assumed covariant shear, then Cartesian: [γxz γyz] = J⁻¹ [γ_ξ γ_η] */
        double inv[2][2] = {{J[1][1] / det, -J[0][1] / det}, {-J[1][0] / det, J[0][0] / det}};
        for (int j = 0; j < nd; j++) {
            double gx = 0.5 * (1 + eta) * BA[0][j] + 0.5 * (1 - eta) * BC[0][j];
            double ge = 0.5 * (1 + xi) * BB[1][j] + 0.5 * (1 - xi) * BD[1][j];
            Bs[0 * nd + j] = inv[0][0] * gx + inv[0][1] * ge;
            Bs[1 * nd + j] = inv[1][0] * gx + inv[1][1] * ge;
        }
        add_btdb(K, nd, 3, Bm, &Dm[0][0], det);
        add_btdb(K, nd, 3, Bb, &Db[0][0], det);
        add_btdb(K, nd, 2, Bs, &Ds[0][0], det);
        add_btdb(K, nd, 1, Bd, &gd, det);
        if (want_m) {
            double rho = mat->rho, mt = rho * h * det, mr = rho * h * h * h / 12 * det;
            for (int a = 0; a < 4; a++)
                for (int b = 0; b < 4; b++) {
                    double nn = N[a] * N[b];
                    for (int k = 0; k < 3; k++) M[(6 * a + k) * nd + 6 * b + k] += mt * nn;
                    for (int k = 3; k < 6; k++) M[(6 * a + k) * nd + 6 * b + k] += mr * nn;
                }
        }
    }
    mt_fe_rotate6(K, 4, R);
    if (want_m) mt_fe_rotate6(M, 4, R);
    return 0;
}

/* ---- DKT + CST ----------------------------------------------------------------- */

/* Quadratic 6-node triangle: corners 0..2, mid-points 3 (edge 1-2), 4 (edge
 * 2-0), 5 (edge 0-1); derivatives with respect to ξ, η. */
static void t6_dshape(double xi, double eta, double dN[6][2])
{
    double L0 = 1 - xi - eta;
    dN[0][0] = -(4 * L0 - 1), dN[0][1] = -(4 * L0 - 1);
    dN[1][0] = 4 * xi - 1, dN[1][1] = 0;
    dN[2][0] = 0, dN[2][1] = 4 * eta - 1;
    dN[3][0] = 4 * eta, dN[3][1] = 4 * xi;
    dN[4][0] = -4 * eta, dN[4][1] = 4 * (L0 - eta);
    dN[5][0] = 4 * (L0 - xi), dN[5][1] = -4 * xi;
}

/* T (12×9): β at the 6 points (βx0 βy0 βx1 ...) from the DOFs (w θx θy per corner). */
static void dkt_beta(const double xy[3][2], double T[12][9])
{
    memset(T, 0, sizeof(double) * 12 * 9);
    for (int i = 0; i < 3; i++) {
        T[2 * i][3 * i + 2] = 1;      /* βx = θy */
        T[2 * i + 1][3 * i + 1] = -1; /* βy = −θx */
    }
    static const int edge[3][2] = {{1, 2}, {2, 0}, {0, 1}};
    for (int k = 0; k < 3; k++) {
        int i = edge[k][0], j = edge[k][1];
        double dx = xy[j][0] - xy[i][0], dy = xy[j][1] - xy[i][1], l = sqrt(dx * dx + dy * dy);
        double s[2] = {dx / l, dy / l}, n[2] = {s[1], -s[0]};
        /* β_s(mid) = −3(w_j − w_i)/(2l) − ¼(β_i + β_j)·s;  β_n(mid) = ½(β_i + β_j)·n */
        double bs[9] = {0}, bn[9] = {0};
        bs[3 * j] += -1.5 / l;
        bs[3 * i] += 1.5 / l;
        for (int c = 0; c < 9; c++) {
            double bi = T[2 * i][c] * s[0] + T[2 * i + 1][c] * s[1], bj = T[2 * j][c] * s[0] + T[2 * j + 1][c] * s[1];
            double ni = T[2 * i][c] * n[0] + T[2 * i + 1][c] * n[1], nj = T[2 * j][c] * n[0] + T[2 * j + 1][c] * n[1];
            bs[c] += -0.25 * (bi + bj);
            bn[c] += 0.5 * (ni + nj);
        }
        for (int c = 0; c < 9; c++) {
            T[2 * (3 + k)][c] = bs[c] * s[0] + bn[c] * n[0];
            T[2 * (3 + k) + 1][c] = bs[c] * s[1] + bn[c] * n[1];
        }
    }
}

/* Curvatures (3×9) of the DKT at (ξ, η). */
static void dkt_B(const double xy[3][2], const double T[12][9], double xi, double eta, double B[3][9])
{
    double dN[6][2];
    t6_dshape(xi, eta, dN);
    double x12 = xy[0][0] - xy[1][0], y12 = xy[0][1] - xy[1][1], x31 = xy[2][0] - xy[0][0], y31 = xy[2][1] - xy[0][1];
    double A2 = x31 * y12 - x12 * y31;
    /* ∂/∂x = (y31 ∂ξ + y12 ∂η)/2A, ∂/∂y = (−x31 ∂ξ − x12 ∂η)/2A */
    for (int c = 0; c < 9; c++) {
        double bx_x = 0, bx_y = 0, by_x = 0, by_y = 0;
        for (int p = 0; p < 6; p++) {
            double dx = (y31 * dN[p][0] + y12 * dN[p][1]) / A2, dy = (-x31 * dN[p][0] - x12 * dN[p][1]) / A2;
            bx_x += dx * T[2 * p][c];
            bx_y += dy * T[2 * p][c];
            by_x += dx * T[2 * p + 1][c];
            by_y += dy * T[2 * p + 1][c];
        }
        B[0][c] = bx_x;
        B[1][c] = by_y;
        B[2][c] = bx_y + by_x;
    }
}

static int tri_km(const MtFeModel *m, int e, double *K, double *M, int want_m, MtError *err)
{
    const MtFeMaterial *mat = mt_fe_elem_mat(m, e);
    double h = m->prop[m->elem[e].prop].t, E = mat->E, nu = mat->nu, G = E / (2 * (1 + nu));
    double R[9], xy[3][2], o[3];
    if (frame(m, e, R, xy, o, err)) return -1;
    double A = 0.5 * ((xy[1][0] - xy[0][0]) * (xy[2][1] - xy[0][1]) - (xy[2][0] - xy[0][0]) * (xy[1][1] - xy[0][1]));
    if (!(A > 0)) return bad(m, e, err);
    const int nd = 18;
    memset(K, 0, sizeof(double) * nd * nd);
    double Dm[3][3], Db[3][3];
    dplane(E, nu, h, Dm);
    dplane(E, nu, h * h * h / 12, Db);
    /* membrane (CST) */
    double b[3], c[3];
    for (int a = 0; a < 3; a++) {
        int j = (a + 1) % 3, k = (a + 2) % 3;
        b[a] = (xy[j][1] - xy[k][1]) / (2 * A);
        c[a] = (xy[k][0] - xy[j][0]) / (2 * A);
    }
    double Bm[3 * 18] = {0};
    for (int a = 0; a < 3; a++) {
        Bm[0 * nd + 6 * a] = b[a];
        Bm[1 * nd + 6 * a + 1] = c[a];
        Bm[2 * nd + 6 * a] = c[a];
        Bm[2 * nd + 6 * a + 1] = b[a];
    }
    add_btdb(K, nd, 3, Bm, &Dm[0][0], A);
    /* drilling penalty at 3 points */
    double gd = DRILL * G * h;
    static const double tp[3][2] = {{0.5, 0}, {0.5, 0.5}, {0, 0.5}};
    for (int q = 0; q < 3; q++) {
        double L[3] = {1 - tp[q][0] - tp[q][1], tp[q][0], tp[q][1]}, Bd[18] = {0};
        for (int a = 0; a < 3; a++) {
            Bd[6 * a + 5] = L[a];
            Bd[6 * a + 1] += -0.5 * b[a];
            Bd[6 * a + 0] += 0.5 * c[a];
        }
        add_btdb(K, nd, 1, Bd, &gd, A / 3);
    }
    /* bending (DKT), 3-point rule: local DOFs w θx θy = components 2 3 4 */
    double T[12][9], Bk[3][9], Kb[9][9] = {{0}};
    dkt_beta(xy, T);
    for (int q = 0; q < 3; q++) {
        dkt_B(xy, T, tp[q][0], tp[q][1], Bk);
        for (int i = 0; i < 9; i++)
            for (int j = 0; j < 9; j++) {
                double s = 0;
                for (int k = 0; k < 3; k++)
                    for (int l = 0; l < 3; l++) s += Bk[k][i] * Db[k][l] * Bk[l][j];
                Kb[i][j] += s * A / 3;
            }
    }
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 9; j++) K[(6 * (i / 3) + 2 + i % 3) * nd + 6 * (j / 3) + 2 + j % 3] += Kb[i][j];
    mt_fe_rotate6(K, 3, R);
    if (!want_m) return 0;
    memset(M, 0, sizeof(double) * nd * nd);
    double rho = mat->rho, mt = rho * h * A, mr = rho * h * h * h / 12 * A / 3;
    for (int a = 0; a < 3; a++) {
        for (int bb = 0; bb < 3; bb++)
            for (int k = 0; k < 3; k++) M[(6 * a + k) * nd + 6 * bb + k] = mt * (a == bb ? 2.0 : 1.0) / 12;
        for (int k = 3; k < 6; k++) M[(6 * a + k) * nd + 6 * a + k] = mr;
    }
    mt_fe_rotate6(M, 3, R);
    return 0;
}

int mt_fe_shell_km(const MtFeModel *m, int e, double *K, double *M, int want_m, MtError *err)
{
    return m->elem[e].type == MT_FE_QUAD4 ? quad_km(m, e, K, M, want_m, err) : tri_km(m, e, K, M, want_m, err);
}

int mt_fe_shell_inertia(const MtFeModel *m, int e, double *mass, double c[3], double S[9], double *w, MtError *err)
{
    const MtFeMaterial *mat = mt_fe_elem_mat(m, e);
    int quad = m->elem[e].type == MT_FE_QUAD4, nn = quad ? 4 : 3;
    double h = m->prop[m->elem[e].prop].t, R[9], xy[4][2], o[3];
    if (frame(m, e, R, xy, o, err)) return -1;
    double m0 = 0, m1[2] = {0}, m2[3] = {0}, diag[4] = {0}, rh = mat->rho * h;
    if (quad) {
        const double gp = 1 / sqrt(3.0);
        for (int q = 0; q < 4; q++) {
            double N[4], dN[4][2], J[2][2];
            q4_shape(q_xi[q] * gp, q_eta[q] * gp, N, dN);
            double det = q4_jac(xy, dN, J, NULL);
            if (!(det > 0)) return bad(m, e, err);
            double x = 0, y = 0;
            for (int a = 0; a < 4; a++) x += N[a] * xy[a][0], y += N[a] * xy[a][1], diag[a] += rh * det * N[a] * N[a];
            double wq = rh * det;
            m0 += wq, m1[0] += wq * x, m1[1] += wq * y;
            m2[0] += wq * x * x, m2[1] += wq * y * y, m2[2] += wq * x * y;
        }
    } else { /* exact for the linear triangle: 3 mid-edge points */
        double A = 0.5 * ((xy[1][0] - xy[0][0]) * (xy[2][1] - xy[0][1]) - (xy[2][0] - xy[0][0]) * (xy[1][1] - xy[0][1]));
        if (!(A > 0)) return bad(m, e, err);
        for (int q = 0; q < 3; q++) {
            int a = q, b = (q + 1) % 3;
            double x = 0.5 * (xy[a][0] + xy[b][0]), y = 0.5 * (xy[a][1] + xy[b][1]), wq = rh * A / 3;
            m0 += wq, m1[0] += wq * x, m1[1] += wq * y;
            m2[0] += wq * x * x, m2[1] += wq * y * y, m2[2] += wq * x * y;
        }
        diag[0] = diag[1] = diag[2] = 1;
    }
    *mass = m0;
    double cx = m0 > 0 ? m1[0] / m0 : 0, cy = m0 > 0 ? m1[1] / m0 : 0;
    double Sl[3][3] = {{m2[0] - m0 * cx * cx, m2[2] - m0 * cx * cy, 0},
                       {m2[2] - m0 * cx * cy, m2[1] - m0 * cy * cy, 0},
                       {0, 0, m0 * h * h / 12}};
    for (int k = 0; k < 3; k++) c[k] = o[k] + cx * R[k] + cy * R[3 + k];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0;
            for (int k = 0; k < 3; k++)
                for (int l = 0; l < 3; l++) s += R[3 * k + i] * Sl[k][l] * R[3 * l + j];
            S[3 * i + j] = s;
        }
    double ds = 0;
    for (int a = 0; a < nn; a++) ds += diag[a];
    for (int a = 0; a < nn; a++) w[a] = diag[a] / ds;
    return 0;
}

int mt_fe_shell_stress(const MtFeModel *m, int e, const double *ue, double *sig)
{
    const MtFeMaterial *mat = mt_fe_elem_mat(m, e);
    int quad = m->elem[e].type == MT_FE_QUAD4, nn = quad ? 4 : 3;
    double h = m->prop[m->elem[e].prop].t, R[9], xy[4][2], o[3];
    if (frame(m, e, R, xy, o, NULL)) return 0;
    double ul[24]; /* local displacements */
    for (int a = 0; a < 2 * nn; a++)
        for (int i = 0; i < 3; i++) ul[3 * a + i] = R[3 * i] * ue[3 * a] + R[3 * i + 1] * ue[3 * a + 1] + R[3 * i + 2] * ue[3 * a + 2];
    double D[3][3];
    dplane(mat->E, mat->nu, 1, D);
    double T[12][9], Bk[3][9];
    if (!quad) dkt_beta(xy, T);
    for (int a = 0; a < nn; a++) {
        double eps[3] = {0}, kap[3] = {0};
        if (quad) {
            double N[4], dN[4][2], J[2][2], g[4][2];
            q4_shape(q_xi[a], q_eta[a], N, dN);
            if (!(q4_jac(xy, dN, J, g) > 0)) return 0;
            for (int b = 0; b < 4; b++) {
                const double *u = ul + 6 * b;
                eps[0] += g[b][0] * u[0], eps[1] += g[b][1] * u[1], eps[2] += g[b][1] * u[0] + g[b][0] * u[1];
                kap[0] += g[b][0] * u[4], kap[1] += -g[b][1] * u[3], kap[2] += g[b][1] * u[4] - g[b][0] * u[3];
            }
        } else {
            double A2 = (xy[1][0] - xy[0][0]) * (xy[2][1] - xy[0][1]) - (xy[2][0] - xy[0][0]) * (xy[1][1] - xy[0][1]);
            for (int b = 0; b < 3; b++) {
                int j = (b + 1) % 3, k = (b + 2) % 3;
                double bb = (xy[j][1] - xy[k][1]) / A2, cc = (xy[k][0] - xy[j][0]) / A2;
                const double *u = ul + 6 * b;
                eps[0] += bb * u[0], eps[1] += cc * u[1], eps[2] += cc * u[0] + bb * u[1];
            }
            static const double cp[3][2] = {{0, 0}, {1, 0}, {0, 1}};
            dkt_B(xy, T, cp[a][0], cp[a][1], Bk);
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 9; c++) kap[r] += Bk[r][c] * ul[6 * (c / 3) + 2 + c % 3];
        }
        double st[3];
        for (int r = 0; r < 3; r++) {
            st[r] = 0;
            for (int c = 0; c < 3; c++) st[r] += D[r][c] * (eps[c] + 0.5 * h * kap[c]);
        }
        double Sl[3][3] = {{st[0], st[2], 0}, {st[2], st[1], 0}, {0, 0, 0}}, Sg[3][3];
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                double s = 0;
                for (int k = 0; k < 3; k++)
                    for (int l = 0; l < 3; l++) s += R[3 * k + i] * Sl[k][l] * R[3 * l + j];
                Sg[i][j] = s;
            }
        double *s = sig + 6 * a;
        s[0] = Sg[0][0], s[1] = Sg[1][1], s[2] = Sg[2][2], s[3] = Sg[0][1], s[4] = Sg[1][2], s[5] = Sg[2][0];
    }
    return nn;
}
