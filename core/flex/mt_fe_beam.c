/* mt_fe_beam.c — the 3D two-node beam: axial, torsion and bending in the two
 * principal planes of the section (area A, second moments Iy and Iz about
 * the local y and z axes, torsion constant J).
 *
 * Local axes: x from node 1 to node 2; y the part of the orientation vector
 * v normal to x; z = x × y. Euler–Bernoulli when the shear coefficients are
 * zero; Timoshenko otherwise, with the shear parameters
 * Φy = 12 E Iz / (ky G A L²) (bending in x–y) and Φz = 12 E Iy / (kz G A L²)
 * (bending in x–z), exact stiffness of the Timoshenko beam and the consistent
 * mass of the interdependent interpolation (Friedman & Kosmatka 1993),
 * translational and rotary parts; the Euler–Bernoulli beam takes Φ = 0 and the
 * rotary part only if the property asks for it (prop->rotary). Torsional
 * inertia uses the polar moment Iy + Iz. Declared in mt_fe_elem.h. */
#include <math.h>
#include <string.h>

#include "mt_fe_elem.h"
#include "mt_i18n.h"

int mt_fe_beam_frame(const MtFeModel *m, int e, double R[9], double *L, MtError *err)
{
    const MtFeElem *el = &m->elem[e];
    const MtFeProp *p = &m->prop[el->prop];
    const double *x1 = m->x + 3 * m->conn[el->conn], *x2 = m->x + 3 * m->conn[el->conn + 1];
    double ex[3] = {x2[0] - x1[0], x2[1] - x1[1], x2[2] - x1[2]};
    double l = sqrt(ex[0] * ex[0] + ex[1] * ex[1] + ex[2] * ex[2]);
    if (!(l > 0) || !isfinite(l)) {
        mt_error_set(err, MT_ERR_MODEL, "", MT_("beam element %d has zero length"), el->id);
        return -1;
    }
    for (int k = 0; k < 3; k++) ex[k] /= l;
    double v[3];
    if (el->vidx >= 0) memcpy(v, m->vec + 3 * el->vidx, sizeof v);
    else if (p->has_v) memcpy(v, p->v, sizeof v);
    else { /* no orientation given: global z, or global y for a beam along z */
        v[0] = 0, v[1] = 0, v[2] = 1;
        if (fabs(ex[2]) > 0.99) v[1] = 1, v[2] = 0;
    }
    double d = v[0] * ex[0] + v[1] * ex[1] + v[2] * ex[2];
    double ey[3] = {v[0] - d * ex[0], v[1] - d * ex[1], v[2] - d * ex[2]};
    double ny = sqrt(ey[0] * ey[0] + ey[1] * ey[1] + ey[2] * ey[2]);
    double nv = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (!(ny > 1e-8 * nv) || !isfinite(ny)) {
        mt_error_set(err, MT_ERR_MODEL, "",
                     MT_("beam element %d: the orientation vector (%g, %g, %g) is parallel to the beam"), el->id, v[0],
                     v[1], v[2]);
        return -1;
    }
    for (int k = 0; k < 3; k++) ey[k] /= ny;
    double ez[3] = {ex[1] * ey[2] - ex[2] * ey[1], ex[2] * ey[0] - ex[0] * ey[2], ex[0] * ey[1] - ex[1] * ey[0]};
    for (int k = 0; k < 3; k++) R[k] = ex[k], R[3 + k] = ey[k], R[6 + k] = ez[k];
    *L = l;
    return 0;
}

void mt_fe_rotate6(double *A, int nn, const double R[9])
{
    int nd = 6 * nn;
    double tmp[3][3];
    /* A ← Tᵀ A T: block (I,J) of 3×3 becomes Rᵀ A_IJ R */
    for (int I = 0; I < 2 * nn; I++)
        for (int J = 0; J < 2 * nn; J++) {
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) {
                    double s = 0;
                    for (int k = 0; k < 3; k++) s += A[(3 * I + i) * nd + 3 * J + k] * R[3 * k + j];
                    tmp[i][j] = s;
                }
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) {
                    double s = 0;
                    for (int k = 0; k < 3; k++) s += R[3 * k + i] * tmp[k][j];
                    A[(3 * I + i) * nd + 3 * J + j] = s;
                }
        }
}

/* Adds the 4×4 bending matrix b (dofs d[0..3] = translation 1, rotation 1,
 * translation 2, rotation 2) into the 12×12 matrix A, with sign s for the
 * coupling between a translation and a rotation (−1 in the x–z plane). */
static void put4(double *A, const int d[4], const double b[4][4], double s)
{
    static const int isrot[4] = {0, 1, 0, 1};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) A[d[i] * 12 + d[j]] += b[i][j] * (isrot[i] != isrot[j] ? s : 1);
}

static void bend_k(double EI, double L, double phi, double b[4][4])
{
    double c = EI / ((1 + phi) * L * L * L);
    double k[4][4] = {{12, 6 * L, -12, 6 * L},
                      {6 * L, (4 + phi) * L * L, -6 * L, (2 - phi) * L * L},
                      {-12, -6 * L, 12, -6 * L},
                      {6 * L, (2 - phi) * L * L, -6 * L, (4 + phi) * L * L}};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) b[i][j] = c * k[i][j];
}

/* Consistent mass of bending: translational (ρA) and rotary (ρI) parts. */
static void bend_m(double rhoA, double rhoI, double L, double f, int rotary, double b[4][4])
{
    double d = (1 + f) * (1 + f);
    double t = rhoA * L / (210 * d);
    double m11 = 70 * f * f + 147 * f + 78, m12 = (35 * f * f + 77 * f + 44) * L / 4;
    double m13 = 35 * f * f + 63 * f + 27, m14 = -(35 * f * f + 63 * f + 26) * L / 4;
    double m22 = (7 * f * f + 14 * f + 8) * L * L / 4, m24 = -(7 * f * f + 14 * f + 6) * L * L / 4;
    double mt[4][4] = {{m11, m12, m13, m14}, {m12, m22, -m14, m24}, {m13, -m14, m11, -m12}, {m14, m24, -m12, m22}};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) b[i][j] = t * mt[i][j];
    if (!rotary) return;
    double r = rhoI / (30 * d * L);
    double r12 = (3 - 15 * f) * L, r22 = (10 * f * f + 5 * f + 4) * L * L, r24 = (5 * f * f - 5 * f - 1) * L * L;
    double mr[4][4] = {{36, r12, -36, r12}, {r12, r22, -r12, r24}, {-36, -r12, 36, -r12}, {r12, r24, -r12, r22}};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) b[i][j] += r * mr[i][j];
}

int mt_fe_beam_km(const MtFeModel *m, int e, double *K, double *M, int want_m, MtError *err)
{
    const MtFeElem *el = &m->elem[e];
    const MtFeProp *p = &m->prop[el->prop];
    const MtFeMaterial *mat = mt_fe_elem_mat(m, e);
    double R[9], L;
    if (mt_fe_beam_frame(m, e, R, &L, err)) return -1;
    double E = mat->E, G = E / (2 * (1 + mat->nu)), rho = mat->rho;
    double phy = p->ky > 0 ? 12 * E * p->Iz / (p->ky * G * p->A * L * L) : 0;
    double phz = p->kz > 0 ? 12 * E * p->Iy / (p->kz * G * p->A * L * L) : 0;
    int timo = p->ky > 0 || p->kz > 0, rotary = timo || p->rotary;
    memset(K, 0, sizeof(double) * 144);
    double ka = E * p->A / L, kt = G * p->J / L;
    K[0 * 12 + 0] = K[6 * 12 + 6] = ka;
    K[0 * 12 + 6] = K[6 * 12 + 0] = -ka;
    K[3 * 12 + 3] = K[9 * 12 + 9] = kt;
    K[3 * 12 + 9] = K[9 * 12 + 3] = -kt;
    double b[4][4];
    static const int dxy[4] = {1, 5, 7, 11}, dxz[4] = {2, 4, 8, 10};
    bend_k(E * p->Iz, L, phy, b);
    put4(K, dxy, b, 1);
    bend_k(E * p->Iy, L, phz, b);
    put4(K, dxz, b, -1);
    mt_fe_rotate6(K, 2, R);
    if (!want_m) return 0;
    memset(M, 0, sizeof(double) * 144);
    double ma = rho * p->A * L / 6, mtor = rho * (p->Iy + p->Iz) * L / 6;
    M[0 * 12 + 0] = M[6 * 12 + 6] = 2 * ma;
    M[0 * 12 + 6] = M[6 * 12 + 0] = ma;
    M[3 * 12 + 3] = M[9 * 12 + 9] = 2 * mtor;
    M[3 * 12 + 9] = M[9 * 12 + 3] = mtor;
    bend_m(rho * p->A, rho * p->Iz, L, phy, rotary, b);
    put4(M, dxy, b, 1);
    bend_m(rho * p->A, rho * p->Iy, L, phz, rotary, b);
    put4(M, dxz, b, -1);
    mt_fe_rotate6(M, 2, R);
    return 0;
}

int mt_fe_beam_inertia(const MtFeModel *m, int e, double *mass, double c[3], double S[9], double *w, MtError *err)
{
    const MtFeElem *el = &m->elem[e];
    const MtFeProp *p = &m->prop[el->prop];
    const MtFeMaterial *mat = mt_fe_elem_mat(m, e);
    double R[9], L;
    if (mt_fe_beam_frame(m, e, R, &L, err)) return -1;
    const double *x1 = m->x + 3 * m->conn[el->conn], *x2 = m->x + 3 * m->conn[el->conn + 1];
    double ms = mat->rho * p->A * L;
    *mass = ms;
    for (int k = 0; k < 3; k++) c[k] = 0.5 * (x1[k] + x2[k]);
    /* second moment in local axes: along x m L²/12, across ρ·I·L */
    double Sl[3] = {ms * L * L / 12, mat->rho * p->Iz * L, mat->rho * p->Iy * L};
    /* ∫ y² dA = Iz (bending about z), ∫ z² dA = Iy */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0;
            for (int k = 0; k < 3; k++) s += R[3 * k + i] * Sl[k] * R[3 * k + j];
            S[3 * i + j] = s;
        }
    w[0] = w[1] = 0.5;
    return 0;
}

/* Geometric stiffness of a beam under the axial force P of the displacement
 * ue (12, global axes): (P/30L)·[36 3L −36 3L; 3L 4L² −3L −L²; …] in each
 * bending plane, the consistent matrix of the cubic deflection (torsion and
 * shear deformation left out). K (12×12) in global axes. */
int mt_fe_beam_kg(const MtFeModel *m, int e, const double *ue, double *K, MtError *err)
{
    const MtFeElem *el = &m->elem[e];
    const MtFeProp *p = &m->prop[el->prop];
    const MtFeMaterial *mat = mt_fe_elem_mat(m, e);
    double R[9], L;
    if (mt_fe_beam_frame(m, e, R, &L, err)) return -1;
    double stretch = 0;
    for (int k = 0; k < 3; k++) stretch += R[k] * (ue[6 + k] - ue[k]);
    double P = mat->E * p->A * stretch / L, c = P / (30 * L);
    double b[4][4] = {{36, 3 * L, -36, 3 * L},
                      {3 * L, 4 * L * L, -3 * L, -L * L},
                      {-36, -3 * L, 36, -3 * L},
                      {3 * L, -L * L, -3 * L, 4 * L * L}};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) b[i][j] *= c;
    memset(K, 0, sizeof(double) * 144);
    static const int dxy[4] = {1, 5, 7, 11}, dxz[4] = {2, 4, 8, 10};
    put4(K, dxy, b, 1);
    put4(K, dxz, b, -1);
    mt_fe_rotate6(K, 2, R);
    return 0;
}
