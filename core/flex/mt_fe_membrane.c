/* mt_fe_membrane.c — plane-stress membrane quadrilaterals, 4 nodes (bilinear)
 * and 8 nodes (serendipity), isotropic linear elastic, thickness t from a
 * shell property (Abaqus CPS4/CPS8 and M3D4/M3D8, Nastran CQUAD4/CQUAD8
 * with a membrane-only PSHELL).
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
