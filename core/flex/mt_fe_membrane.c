/* mt_fe_membrane.c — plane-stress membrane quadrilaterals, 4 nodes (bilinear)
 * and 8 nodes (serendipity), isotropic linear elastic, thickness t from a
 * shell property (Abaqus CPS4/CPS8 and M3D4/M3D8, Nastran CQUAD4/CQUAD8
 * with a membrane-only PSHELL); and, on the same geometry, the 8-node flat
 * shell (Abaqus S8R, Nastran CQUAD8, at the end of the file).
 *
 * The element lies in its own plane (the mean plane of a warped one): local
 * axes e1 along the mean of the edges 0-1 and 3-2, n the normal from the
 * diagonals, e2 = n × e1. In-plane stiffness K = ∫ t Bᵀ D B dA with the plane
 * stress D = E/(1−ν²)[1 ν 0; ν 1 0; 0 0 (1−ν)/2], on 2×2 (mem4) and 3×3
 * (mem8, full integration: no spurious modes) Gauss points, then expressed
 * in the three global translations (u_local = e·U): the normal translation
 * has no stiffness, so a flat membrane model needs its normal held (`--fix
 * ALL:3` for a model in the x–y plane) or other elements to carry it.
 * Consistent mass ρt ∫ N_a N_b dA in all three directions. Node order:
 * corners 0–3 around the element, then the mid-sides 0-1, 1-2, 2-3, 3-0.
 * Declared in mt_fe_elem.h. */
#include <math.h>
#include <string.h>

#include "mt_fe_elem.h"
#include "mt_i18n.h"

static const double corner[8][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}, {0, -1}, {1, 0}, {0, 1}, {-1, 0}};

/* N and dN/dξ at (ξ, η) for 4 or 8 nodes. */
static void shape(int nn, double x, double y, double *N, double (*dN)[2])
{
    if (nn == 4) {
        for (int a = 0; a < 4; a++) {
            double sx = corner[a][0], sy = corner[a][1];
            N[a] = 0.25 * (1 + sx * x) * (1 + sy * y);
            dN[a][0] = 0.25 * sx * (1 + sy * y);
            dN[a][1] = 0.25 * sy * (1 + sx * x);
        }
        return;
    }
    for (int a = 0; a < 4; a++) { /* ¼(1+sx ξ)(1+sy η)(sx ξ + sy η − 1) */
        double sx = corner[a][0], sy = corner[a][1], fx = 1 + sx * x, fy = 1 + sy * y, q = sx * x + sy * y - 1;
        N[a] = 0.25 * fx * fy * q;
        dN[a][0] = 0.25 * sx * fy * (q + fx);
        dN[a][1] = 0.25 * sy * fx * (q + fy);
    }
    for (int a = 4; a < 8; a++) {
        double sx = corner[a][0], sy = corner[a][1];
        if (sx == 0) { /* ½(1−ξ²)(1+sy η) */
            N[a] = 0.5 * (1 - x * x) * (1 + sy * y);
            dN[a][0] = -x * (1 + sy * y);
            dN[a][1] = 0.5 * sy * (1 - x * x);
        } else {
            N[a] = 0.5 * (1 + sx * x) * (1 - y * y);
            dN[a][0] = 0.5 * sx * (1 - y * y);
            dN[a][1] = -y * (1 + sx * x);
        }
    }
}

/* Gauss points on [-1,1]² (2×2 or 3×3). */
static int rule(int nn, double (*p)[2], double *w)
{
    static const double g2 = 0.5773502691896257, g3 = 0.7745966692414834;
    const double x2[2] = {-g2, g2}, w2[2] = {1, 1}, x3[3] = {-g3, 0, g3}, w3[3] = {5.0 / 9, 8.0 / 9, 5.0 / 9};
    int k = nn == 4 ? 2 : 3, n = 0;
    const double *x = k == 2 ? x2 : x3, *wt = k == 2 ? w2 : w3;
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++) p[n][0] = x[i], p[n][1] = x[j], w[n++] = wt[i] * wt[j];
    return n;
}

typedef struct {
    int nn;
    double X[3 * 8]; /* global node positions */
    double xy[8][2]; /* local in-plane coordinates */
    double e1[3], e2[3], n[3], c0[3];
} Geo;

static double norm3(double *v)
{
    double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0)
        for (int i = 0; i < 3; i++) v[i] /= l;
    return l;
}

static int degenerate(const MtFeModel *m, int e, MtError *err)
{
    mt_error_set(err, MT_ERR_MODEL, "", MT_("element %d (%s) is degenerate: its area is zero or it is turned inside out"),
                 m->elem[e].id, mt_fe_type_name(m->elem[e].type));
    return -1;
}

/* Local axes and in-plane coordinates of element e; -1 if it has no plane. */
static int geometry(const MtFeModel *m, int e, Geo *g)
{
    const MtFeElem *el = &m->elem[e];
    g->nn = mt_fe_type_nodes(el->type);
    for (int a = 0; a < g->nn; a++) memcpy(g->X + 3 * a, m->x + 3 * m->conn[el->conn + a], sizeof(double) * 3);
    const double *x0 = g->X, *x1 = g->X + 3, *x2 = g->X + 6, *x3 = g->X + 9;
    double d1[3], d2[3];
    for (int i = 0; i < 3; i++) {
        d1[i] = x2[i] - x0[i], d2[i] = x3[i] - x1[i];
        g->e1[i] = (x1[i] - x0[i]) + (x2[i] - x3[i]);
        g->c0[i] = 0.25 * (x0[i] + x1[i] + x2[i] + x3[i]);
    }
    g->n[0] = d1[1] * d2[2] - d1[2] * d2[1], g->n[1] = d1[2] * d2[0] - d1[0] * d2[2], g->n[2] = d1[0] * d2[1] - d1[1] * d2[0];
    if (!(norm3(g->n) > 0)) return -1;
    double dn = g->e1[0] * g->n[0] + g->e1[1] * g->n[1] + g->e1[2] * g->n[2];
    for (int i = 0; i < 3; i++) g->e1[i] -= dn * g->n[i];
    if (!(norm3(g->e1) > 0)) return -1;
    g->e2[0] = g->n[1] * g->e1[2] - g->n[2] * g->e1[1];
    g->e2[1] = g->n[2] * g->e1[0] - g->n[0] * g->e1[2];
    g->e2[2] = g->n[0] * g->e1[1] - g->n[1] * g->e1[0];
    for (int a = 0; a < g->nn; a++) {
        double r[3] = {g->X[3 * a] - g->c0[0], g->X[3 * a + 1] - g->c0[1], g->X[3 * a + 2] - g->c0[2]};
        g->xy[a][0] = r[0] * g->e1[0] + r[1] * g->e1[1] + r[2] * g->e1[2];
        g->xy[a][1] = r[0] * g->e2[0] + r[1] * g->e2[1] + r[2] * g->e2[2];
    }
    return 0;
}

/* In-plane gradients dN/dx (local) at (ξ, η); returns det J (≤ 0: degenerate). */
static double gradients(const Geo *g, double x, double y, double *N, double (*gx)[2])
{
    double dN[8][2], J[2][2] = {{0, 0}, {0, 0}};
    shape(g->nn, x, y, N, dN);
    for (int a = 0; a < g->nn; a++)
        for (int i = 0; i < 2; i++)
            for (int k = 0; k < 2; k++) J[i][k] += dN[a][i] * g->xy[a][k];
    double det = J[0][0] * J[1][1] - J[0][1] * J[1][0];
    if (!(det > 0) || !isfinite(det)) return 0;
    for (int a = 0; a < g->nn; a++) {
        gx[a][0] = (J[1][1] * dN[a][0] - J[0][1] * dN[a][1]) / det;
        gx[a][1] = (-J[1][0] * dN[a][0] + J[0][0] * dN[a][1]) / det;
    }
    return det;
}

int mt_fe_membrane_km(const MtFeModel *m, int e, double *K, double *M, int want_m, MtError *err)
{
    const MtFeMaterial *mat = mt_fe_elem_mat(m, e);
    double t = m->prop[m->elem[e].prop].t;
    Geo g;
    if (geometry(m, e, &g)) return degenerate(m, e, err);
    int nn = g.nn, nd = 3 * nn;
    double p[9][2], w[9], N[8], gx[8][2], Kl[16][16] = {{0}}, Ms[8][8] = {{0}};
    int nq = rule(nn, p, w);
    double c = mat->E * t / (1 - mat->nu * mat->nu), D11 = c, D12 = c * mat->nu, D33 = c * 0.5 * (1 - mat->nu);
    for (int q = 0; q < nq; q++) {
        double det = gradients(&g, p[q][0], p[q][1], N, gx);
        if (!(det > 0)) return degenerate(m, e, err);
        double wq = w[q] * det;
        for (int a = 0; a < nn; a++)
            for (int b = 0; b < nn; b++) {
                double ax = gx[a][0], ay = gx[a][1], bx = gx[b][0], by = gx[b][1];
                Kl[2 * a][2 * b] += wq * (D11 * ax * bx + D33 * ay * by);
                Kl[2 * a][2 * b + 1] += wq * (D12 * ax * by + D33 * ay * bx);
                Kl[2 * a + 1][2 * b] += wq * (D12 * ay * bx + D33 * ax * by);
                Kl[2 * a + 1][2 * b + 1] += wq * (D11 * ay * by + D33 * ax * bx);
                Ms[a][b] += wq * mat->rho * t * N[a] * N[b];
            }
    }
    if (K) { /* u_local = [e1 e2]ᵀ U: K_ab = E Kl_ab Eᵀ, E = [e1 e2] (3×2) */
        const double *ev[2] = {g.e1, g.e2};
        for (int a = 0; a < nn; a++)
            for (int b = 0; b < nn; b++)
                for (int i = 0; i < 3; i++)
                    for (int j = 0; j < 3; j++) {
                        double v = 0;
                        for (int al = 0; al < 2; al++)
                            for (int be = 0; be < 2; be++) v += ev[al][i] * Kl[2 * a + al][2 * b + be] * ev[be][j];
                        K[(3 * a + i) * nd + 3 * b + j] = v;
                    }
    }
    if (!want_m) return 0;
    memset(M, 0, sizeof(double) * (size_t)(nd * nd));
    for (int a = 0; a < nn; a++)
        for (int b = 0; b < nn; b++)
            for (int i = 0; i < 3; i++) M[(3 * a + i) * nd + 3 * b + i] = Ms[a][b];
    return 0;
}

int mt_fe_membrane_inertia(const MtFeModel *m, int e, double *mass, double c[3], double S[9], double *wn, MtError *err)
{
    const MtFeMaterial *mat = mt_fe_elem_mat(m, e);
    double t = m->prop[m->elem[e].prop].t;
    Geo g;
    if (geometry(m, e, &g)) return degenerate(m, e, err);
    int nn = g.nn;
    double p[9][2], w[9], N[8], gx[8][2], m0 = 0, area = 0, m1[3] = {0}, m2[9] = {0}, diag[8] = {0};
    int nq = rule(nn, p, w);
    for (int q = 0; q < nq; q++) {
        double det = gradients(&g, p[q][0], p[q][1], N, gx);
        if (!(det > 0)) return degenerate(m, e, err);
        double wq = w[q] * det * mat->rho * t, x[3] = {0, 0, 0};
        for (int a = 0; a < nn; a++) {
            for (int k = 0; k < 3; k++) x[k] += N[a] * g.X[3 * a + k];
            diag[a] += wq * N[a] * N[a];
        }
        m0 += wq, area += w[q] * det;
        for (int i = 0; i < 3; i++) {
            m1[i] += wq * x[i];
            for (int j = 0; j < 3; j++) m2[3 * i + j] += wq * x[i] * x[j];
        }
    }
    *mass = m0;
    double dsum = 0;
    for (int a = 0; a < nn; a++) dsum += diag[a];
    for (int a = 0; a < nn; a++) wn[a] = dsum > 0 ? diag[a] / dsum : 1.0 / nn;
    for (int i = 0; i < 3; i++) c[i] = m0 > 0 ? m1[i] / m0 : g.c0[i];
    double rt = mat->rho * t * t * t / 12 * area; /* the thickness: second moment along the normal */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) S[3 * i + j] = m2[3 * i + j] - m0 * c[i] * c[j] + rt * g.n[i] * g.n[j];
    return 0;
}

int mt_fe_membrane_stress(const MtFeModel *m, int e, const double *ue, double *sig)
{
    const MtFeMaterial *mat = mt_fe_elem_mat(m, e);
    Geo g;
    if (geometry(m, e, &g)) return 0;
    int nn = g.nn;
    double N[8], gx[8][2], c = mat->E / (1 - mat->nu * mat->nu);
    for (int a = 0; a < nn; a++) {
        double *s = sig + 6 * a;
        memset(s, 0, sizeof(double) * 6);
        if (!(gradients(&g, corner[a][0], corner[a][1], N, gx) > 0)) continue;
        double exx = 0, eyy = 0, gxy = 0;
        for (int b = 0; b < nn; b++) {
            const double *u = ue + 3 * b;
            double ul = u[0] * g.e1[0] + u[1] * g.e1[1] + u[2] * g.e1[2], vl = u[0] * g.e2[0] + u[1] * g.e2[1] + u[2] * g.e2[2];
            exx += gx[b][0] * ul, eyy += gx[b][1] * vl, gxy += gx[b][1] * ul + gx[b][0] * vl;
        }
        double s11 = c * (exx + mat->nu * eyy), s22 = c * (eyy + mat->nu * exx), s12 = c * 0.5 * (1 - mat->nu) * gxy;
        /* σ = s11 e1e1ᵀ + s22 e2e2ᵀ + s12 (e1e2ᵀ + e2e1ᵀ), stored xx yy zz xy yz zx */
        static const int ii[6] = {0, 1, 2, 0, 1, 2}, jj[6] = {0, 1, 2, 1, 2, 0};
        for (int k = 0; k < 6; k++) {
            int i = ii[k], j = jj[k];
            s[k] = s11 * g.e1[i] * g.e1[j] + s22 * g.e2[i] * g.e2[j] + s12 * (g.e1[i] * g.e2[j] + g.e2[i] * g.e1[j]);
        }
    }
    return nn;
}

/* The constant-strain triangle's part of mt_fe_membrane_kg (the membrane of
 * the 3-node shell): local axes e1 along the edge 0-1, e2 in the plane. */
static int triangle_kg(const MtFeModel *m, int e, const double *ue, double *S, MtError *err)
{
    const MtFeMaterial *mat = mt_fe_elem_mat(m, e);
    double t = m->prop[m->elem[e].prop].t, X[3][3], e1[3], d2[3], n[3], e2[3], xy[3][2];
    for (int a = 0; a < 3; a++) memcpy(X[a], m->x + 3 * m->conn[m->elem[e].conn + a], sizeof(double) * 3);
    for (int i = 0; i < 3; i++) e1[i] = X[1][i] - X[0][i], d2[i] = X[2][i] - X[0][i];
    n[0] = e1[1] * d2[2] - e1[2] * d2[1], n[1] = e1[2] * d2[0] - e1[0] * d2[2], n[2] = e1[0] * d2[1] - e1[1] * d2[0];
    double area2 = norm3(n);
    if (!(area2 > 0) || !(norm3(e1) > 0)) return degenerate(m, e, err);
    e2[0] = n[1] * e1[2] - n[2] * e1[1], e2[1] = n[2] * e1[0] - n[0] * e1[2], e2[2] = n[0] * e1[1] - n[1] * e1[0];
    for (int a = 0; a < 3; a++)
        for (int k = 0; k < 2; k++) {
            const double *v = k ? e2 : e1;
            xy[a][k] = (X[a][0] - X[0][0]) * v[0] + (X[a][1] - X[0][1]) * v[1] + (X[a][2] - X[0][2]) * v[2];
        }
    double gx[3][2], exx = 0, eyy = 0, gxy = 0;
    for (int a = 0; a < 3; a++) { /* ∇N_a = (y_b − y_c, x_c − x_b) / 2A, (a, b, c) cyclic */
        int b = (a + 1) % 3, c = (a + 2) % 3;
        gx[a][0] = (xy[b][1] - xy[c][1]) / area2, gx[a][1] = (xy[c][0] - xy[b][0]) / area2;
        const double *u = ue + 3 * a;
        double ul = u[0] * e1[0] + u[1] * e1[1] + u[2] * e1[2], vl = u[0] * e2[0] + u[1] * e2[1] + u[2] * e2[2];
        exx += gx[a][0] * ul, eyy += gx[a][1] * vl, gxy += gx[a][1] * ul + gx[a][0] * vl;
    }
    double c = mat->E / (1 - mat->nu * mat->nu), wt = 0.5 * area2 * t;
    double s11 = c * (exx + mat->nu * eyy), s22 = c * (eyy + mat->nu * exx), s12 = c * 0.5 * (1 - mat->nu) * gxy;
    for (int a = 0; a < 3; a++) {
        double sx = s11 * gx[a][0] + s12 * gx[a][1], sy = s12 * gx[a][0] + s22 * gx[a][1];
        for (int b = 0; b < 3; b++) S[a * 3 + b] = wt * (sx * gx[b][0] + sy * gx[b][1]);
    }
    return 0;
}

/* Geometric (stress) stiffness of the membrane pre-stress of ue (three
 * global translations per node): the in-plane stress resultant t·σ of the
 * displacement at each stiffness point, S_ab = Σ_q w|J| t g_aᵀ σ g_b with the
 * in-plane gradients g, the same for every direction: Kg = S ⊗ 1₃ on the
 * three translations, the normal one included (a tensioned sheet stiffens
 * across, a compressed one buckles). For mem4, mem8 and the membranes of the
 * shells (quad4 and quad8 on the same geometry, 2×2 and 3×3 points; tria3
 * constant strain); the bending stress, odd through the thickness, leaves no
 * resultant. */
int mt_fe_membrane_kg(const MtFeModel *m, int e, const double *ue, double *S, MtError *err)
{
    if (m->elem[e].type == MT_FE_TRIA3) return triangle_kg(m, e, ue, S, err);
    const MtFeMaterial *mat = mt_fe_elem_mat(m, e);
    double t = m->prop[m->elem[e].prop].t;
    Geo g;
    if (geometry(m, e, &g)) return degenerate(m, e, err);
    int nn = g.nn;
    double p[9][2], w[9], N[8], gx[8][2], c = mat->E / (1 - mat->nu * mat->nu), ul[8], vl[8];
    for (int a = 0; a < nn; a++) {
        const double *u = ue + 3 * a;
        ul[a] = u[0] * g.e1[0] + u[1] * g.e1[1] + u[2] * g.e1[2];
        vl[a] = u[0] * g.e2[0] + u[1] * g.e2[1] + u[2] * g.e2[2];
    }
    memset(S, 0, sizeof(double) * (size_t)(nn * nn));
    int nq = rule(nn, p, w);
    for (int q = 0; q < nq; q++) {
        double det = gradients(&g, p[q][0], p[q][1], N, gx);
        if (!(det > 0)) return degenerate(m, e, err);
        double exx = 0, eyy = 0, gxy = 0;
        for (int b = 0; b < nn; b++) exx += gx[b][0] * ul[b], eyy += gx[b][1] * vl[b], gxy += gx[b][1] * ul[b] + gx[b][0] * vl[b];
        double wt = w[q] * det * t, s11 = c * (exx + mat->nu * eyy), s22 = c * (eyy + mat->nu * exx);
        double s12 = c * 0.5 * (1 - mat->nu) * gxy;
        for (int a = 0; a < nn; a++) {
            double sx = s11 * gx[a][0] + s12 * gx[a][1], sy = s12 * gx[a][0] + s22 * gx[a][1];
            for (int b = 0; b < nn; b++) S[a * nn + b] += wt * (sx * gx[b][0] + sy * gx[b][1]);
        }
    }
    return 0;
}

/* ---- 8-node flat shell ---------------------------------------------------------
 * QUAD8: the mem8 membrane plus an 8-node Mindlin plate, 6 DOF per node (local
 * u v w θx θy θz): bending κ = [∂θy/∂x, −∂θx/∂y, ∂θy/∂y − ∂θx/∂x] with
 * D = Et³/12(1−ν²) on 3×3 points, transverse shear γ = [∂w/∂x + θy,
 * ∂w/∂y − θx] with 5/6·G·t on 2×2 points (selective reduced integration: no
 * shear locking, and the full bending leaves no spurious mode), the drilling
 * rotation tied to the membrane's in-plane rotation ½(∂v/∂x − ∂u/∂y) by a
 * penalty 10⁻³·G·t per unit area, as the 4-node shell does, on 3×3 points
 * (2×2 would leave four of the eight drilling rotations free).
 * Mass: ρt in the translations, ρt³/12 in the rotations, 3×3 points. */

/* K += w·Bᵀ D B for r strain rows of B (r × nd). */
static void add_btdb(double *K, int nd, int r, const double *B, const double *D, double w)
{
    double DB[3 * 48];
    for (int i = 0; i < r; i++)
        for (int j = 0; j < nd; j++) {
            double s = 0;
            for (int k = 0; k < r; k++) s += D[i * r + k] * B[k * nd + j];
            DB[i * nd + j] = w * s;
        }
    for (int a = 0; a < nd; a++)
        for (int k = 0; k < r; k++) {
            double bk = B[k * nd + a];
            if (bk == 0) continue;
            for (int b = 0; b < nd; b++) K[a * nd + b] += bk * DB[k * nd + b];
        }
}

/* Strain rows at (ξ, η): membrane (3), bending (3), shear (2), drilling (1); returns det J. */
static double shell8_rows(const Geo *g, double x, double y, double *Bm, double *Bb, double *Bs, double *Bd, double *N)
{
    double gx[8][2];
    double det = gradients(g, x, y, N, gx);
    if (!(det > 0)) return 0;
    const int nd = 48;
    memset(Bm, 0, sizeof(double) * 3 * nd), memset(Bb, 0, sizeof(double) * 3 * nd);
    memset(Bs, 0, sizeof(double) * 2 * nd), memset(Bd, 0, sizeof(double) * nd);
    for (int a = 0; a < 8; a++) {
        int u = 6 * a, v = u + 1, w = u + 2, tx = u + 3, ty = u + 4, tz = u + 5;
        double dx = gx[a][0], dy = gx[a][1];
        Bm[u] = dx, Bm[nd + v] = dy, Bm[2 * nd + u] = dy, Bm[2 * nd + v] = dx;
        Bb[ty] = dx, Bb[nd + tx] = -dy, Bb[2 * nd + ty] = dy, Bb[2 * nd + tx] = -dx;
        Bs[w] = dx, Bs[ty] = N[a], Bs[nd + w] = dy, Bs[nd + tx] = -N[a];
        Bd[tz] = N[a], Bd[v] = -0.5 * dx, Bd[u] = 0.5 * dy;
    }
    return det;
}

static void local_axes(const Geo *g, double R[9])
{
    for (int k = 0; k < 3; k++) R[k] = g->e1[k], R[3 + k] = g->e2[k], R[6 + k] = g->n[k];
}

int mt_fe_shell8_km(const MtFeModel *m, int e, double *K, double *M, int want_m, MtError *err)
{
    const MtFeMaterial *mat = mt_fe_elem_mat(m, e);
    double t = m->prop[m->elem[e].prop].t, E = mat->E, nu = mat->nu, G = E / (2 * (1 + nu));
    Geo g;
    if (geometry(m, e, &g) || g.nn != 8) return degenerate(m, e, err);
    const int nd = 48;
    double Bm[3 * 48], Bb[3 * 48], Bs[2 * 48], Bd[48], N[8], p3[9][2], w3[9], p2[9][2], w2[9];
    int n3 = rule(8, p3, w3), n2 = rule(4, p2, w2);
    double cm = E * t / (1 - nu * nu), cb = cm * t * t / 12, ks = 5.0 / 6 * G * t, gd = 1e-3 * G * t;
    double Dm[9] = {cm, cm * nu, 0, cm * nu, cm, 0, 0, 0, cm * (1 - nu) / 2};
    double Db[9] = {cb, cb * nu, 0, cb * nu, cb, 0, 0, 0, cb * (1 - nu) / 2}, Ds[4] = {ks, 0, 0, ks};
    double R[9];
    local_axes(&g, R);
    if (K) {
        memset(K, 0, sizeof(double) * nd * nd);
        for (int q = 0; q < n3; q++) { /* membrane, bending and drilling: 3×3 */
            double det = shell8_rows(&g, p3[q][0], p3[q][1], Bm, Bb, Bs, Bd, N);
            if (!(det > 0)) return degenerate(m, e, err);
            add_btdb(K, nd, 3, Bm, Dm, w3[q] * det);
            add_btdb(K, nd, 3, Bb, Db, w3[q] * det);
            add_btdb(K, nd, 1, Bd, &gd, w3[q] * det);
        }
        for (int q = 0; q < n2; q++) { /* shear: 2×2 */
            double det = shell8_rows(&g, p2[q][0], p2[q][1], Bm, Bb, Bs, Bd, N);
            if (!(det > 0)) return degenerate(m, e, err);
            add_btdb(K, nd, 2, Bs, Ds, w2[q] * det);
        }
        mt_fe_rotate6(K, 8, R);
    }
    if (!want_m) return 0;
    memset(M, 0, sizeof(double) * nd * nd);
    for (int q = 0; q < n3; q++) {
        double gx[8][2], det = gradients(&g, p3[q][0], p3[q][1], N, gx);
        if (!(det > 0)) return degenerate(m, e, err);
        double mt = mat->rho * t * w3[q] * det, mr = mt * t * t / 12;
        for (int a = 0; a < 8; a++)
            for (int b = 0; b < 8; b++)
                for (int k = 0; k < 6; k++) M[(6 * a + k) * nd + 6 * b + k] += (k < 3 ? mt : mr) * N[a] * N[b];
    }
    mt_fe_rotate6(M, 8, R);
    return 0;
}

int mt_fe_shell8_stress(const MtFeModel *m, int e, const double *ue, double *sig)
{
    const MtFeMaterial *mat = mt_fe_elem_mat(m, e);
    double t = m->prop[m->elem[e].prop].t, c = mat->E / (1 - mat->nu * mat->nu);
    Geo g;
    if (geometry(m, e, &g) || g.nn != 8) return 0;
    double R[9], ul[48], Bm[3 * 48], Bb[3 * 48], Bs[2 * 48], Bd[48], N[8];
    local_axes(&g, R);
    for (int a = 0; a < 16; a++) /* global to local, translations and rotations alike */
        for (int i = 0; i < 3; i++) ul[3 * a + i] = R[3 * i] * ue[3 * a] + R[3 * i + 1] * ue[3 * a + 1] + R[3 * i + 2] * ue[3 * a + 2];
    for (int a = 0; a < 8; a++) {
        double *s = sig + 6 * a, eps[3] = {0, 0, 0};
        memset(s, 0, sizeof(double) * 6);
        if (!(shell8_rows(&g, corner[a][0], corner[a][1], Bm, Bb, Bs, Bd, N) > 0)) continue;
        for (int k = 0; k < 3; k++) /* top face z = t/2 */
            for (int j = 0; j < 48; j++) eps[k] += (Bm[k * 48 + j] + 0.5 * t * Bb[k * 48 + j]) * ul[j];
        double s11 = c * (eps[0] + mat->nu * eps[1]), s22 = c * (eps[1] + mat->nu * eps[0]), s12 = c * 0.5 * (1 - mat->nu) * eps[2];
        static const int ii[6] = {0, 1, 2, 0, 1, 2}, jj[6] = {0, 1, 2, 1, 2, 0};
        for (int k = 0; k < 6; k++) {
            int i = ii[k], j = jj[k];
            s[k] = s11 * g.e1[i] * g.e1[j] + s22 * g.e2[i] * g.e2[j] + s12 * (g.e1[i] * g.e2[j] + g.e2[i] * g.e1[j]);
        }
    }
    return 8;
}
