/* mt_fe_geom.c — geometric stiffening of a reduced flexible body: the
 * stiffness that the pre-stress of inertial loads adds (a spinning blade
 * stiffens, DESIGN §4). The loads are body forces per unit mass, linear in
 * the position, b(x) = g + C x (gravity and frame acceleration g, the
 * centrifugal field C = ω²1 − ωωᵀ); each of the nine unit cases of
 * mt_fe_reduce.h is applied to the nodal masses with the interface held (the
 * joints carry the reaction, as in Craig–Bampton), its static displacement
 * gives the element stresses, and the element geometric stiffness under them
 * is projected onto the reduced basis. The dynamics then adds Σ p_c Kg_c to
 * the modal stiffness. Beams and solids; shells are refused. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mt_fe_elem.h"
#include "mt_fe_geom.h"
#include "mt_i18n.h"

static const int pair_j[3] = {0, 1, 0}, pair_k[3] = {1, 2, 2};

double *mt_fe_geom_loads(const MtFeModel *m, const MtFeDofs *d, MtFeChol *F, MtError *err)
{
    size_t n = (size_t)d->ndof, nn = (size_t)m->nnode;
    double *X = calloc(n * MT_FLEX_NKG + 1, sizeof(double));
    double *mass = malloc(sizeof(double) * (nn + 1)), *first = malloc(sizeof(double) * 3 * (nn + 1));
    double *inert = malloc(sizeof(double) * 9 * (nn + 1));
    if (!X || !mass || !first || !inert) {
        mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
        goto fail;
    }
    if (mt_fe_node_shares(m, mass, first, inert, err)) goto fail;
    for (size_t a = 0; a < nn; a++) {
        if (mass[a] == 0 && !first[3 * a] && !first[3 * a + 1] && !first[3 * a + 2]) continue;
        /* the node's rigid body: ∫ b dm = m b_a + C (m x + Σ m c) for b = b_a + C x */
        double mx[3];
        for (int k = 0; k < 3; k++) mx[k] = mass[a] * m->x[3 * a + k] + first[3 * a + k];
        double f[MT_FLEX_NKG][3] = {{0}};
        for (int j = 0; j < 3; j++) f[j][j] = mass[a], f[3 + j][j] = mx[j];
        for (int p = 0; p < 3; p++) f[6 + p][pair_j[p]] = mx[pair_k[p]], f[6 + p][pair_k[p]] = mx[pair_j[p]];
        for (int r = 0; r < 3; r++) {
            int key = 6 * (int)a + r;
            for (int x = d->xp[key]; x < d->xp[key + 1]; x++)
                for (int c = 0; c < MT_FLEX_NKG; c++) X[(size_t)c * n + d->xi[x]] += d->xc[x] * f[c][r];
        }
    }
    /* interior displacements with the interface held; the interface's rows are zero */
    if (F && d->ni > 0 && mt_fe_chol_solve(F, MT_FLEX_NKG, X, (int)n, err)) goto fail;
    for (int c = 0; c < MT_FLEX_NKG; c++)
        for (size_t i = (size_t)(F ? d->ni : 0); i < n; i++) X[(size_t)c * n + i] = 0;
    free(mass), free(first), free(inert);
    return X;
fail:
    free(X), free(mass), free(first), free(inert);
    return NULL;
}

/* Rows of node a (6 components × 6) of the rigid motions about the origin:
 * translation e_k, rotation θ_k (u = θ × x); components the node lacks are 0. */
static void rigid_rows(const MtFeModel *m, const MtFeDofs *d, int a, double *out)
{
    const double *x = m->x + 3 * a;
    memset(out, 0, sizeof(double) * 36);
    for (int k = 0; k < 3; k++) {
        out[k + 6 * k] = 1;
        out[3 + k + 6 * (3 + k)] = 1;
    }
    /* θ × x for θ = e_3+k: column 3 + k of the translation rows */
    out[1 + 6 * 3] = -x[2], out[2 + 6 * 3] = x[1];
    out[0 + 6 * 4] = x[2], out[2 + 6 * 4] = -x[0];
    out[0 + 6 * 5] = -x[1], out[1 + 6 * 5] = x[0];
    for (int r = 0; r < 6; r++)
        if (d->state[6 * a + r] == MT_FE_ABSENT)
            for (int k = 0; k < 6; k++) out[r + 6 * k] = 0;
}

/* Solves the 6×6 symmetric system A x = b (Gaussian elimination, partial
 * pivoting); a singular direction (an interface that does not fix it) gets 0. */
static void solve6(double A[36], double *b, int nrhs)
{
    int piv[6];
    for (int k = 0; k < 6; k++) {
        int p = k;
        for (int i = k + 1; i < 6; i++)
            if (fabs(A[i * 6 + k]) > fabs(A[p * 6 + k])) p = i;
        piv[k] = p;
        if (p != k) {
            for (int j = 0; j < 6; j++) {
                double t = A[k * 6 + j];
                A[k * 6 + j] = A[p * 6 + j], A[p * 6 + j] = t;
            }
            for (int j = 0; j < nrhs; j++) {
                double t = b[j * 6 + k];
                b[j * 6 + k] = b[j * 6 + p], b[j * 6 + p] = t;
            }
        }
        if (fabs(A[k * 6 + k]) < 1e-300) continue;
        for (int i = k + 1; i < 6; i++) {
            double f = A[i * 6 + k] / A[k * 6 + k];
            for (int j = k; j < 6; j++) A[i * 6 + j] -= f * A[k * 6 + j];
            for (int j = 0; j < nrhs; j++) b[j * 6 + i] -= f * b[j * 6 + k];
        }
    }
    (void)piv;
    for (int j = 0; j < nrhs; j++)
        for (int k = 5; k >= 0; k--) {
            double s = b[j * 6 + k];
            for (int i = k + 1; i < 6; i++) s -= A[k * 6 + i] * b[j * 6 + i];
            b[j * 6 + k] = fabs(A[k * 6 + k]) < 1e-300 ? 0 : s / A[k * 6 + k];
        }
}

int mt_fe_geom_project(const MtFeModel *m, const MtFeDofs *d, const double *X, const double *H, int N, int nif,
                       const int *ifnodes, double *Kg, MtError *err)
{
    enum { NE = 6 * MT_FE_MAXNODE };
    /* The basis B = [H R] with the six rigid motions R: the geometric
     * stiffness is taken of the deformation relative to the interface's
     * rigid motion, u = (H − R G) w with G = the least-squares rigid fit of
     * the interface rows — a linear geometric stiffness is not invariant
     * under rotation, and the floating frame's basis moves the interface. */
    int NB = N + 6;
    size_t NN = (size_t)NB * NB;
    double *Kb = calloc(NN * MT_FLEX_NKG + 1, sizeof(double));
    double *He = malloc(sizeof(double) * NE * ((size_t)NB + 1)), *T = malloc(sizeof(double) * NE * ((size_t)NB + 1));
    double *rows = malloc(sizeof(double) * 6 * ((size_t)N + 1)), *G = calloc(6 * (size_t)N + 1, sizeof(double));
    if (!Kb || !He || !T || !rows || !G) {
        free(Kb), free(He), free(T), free(rows), free(G);
        mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
        return -1;
    }
    int rc = 0;
    for (int e = 0; e < m->nelem && !rc; e++) {
        const MtFeElem *el = &m->elem[e];
        int beam = el->type == MT_FE_BEAM2;
        if (!beam && el->type != MT_FE_TET4 && el->type != MT_FE_TET10 && el->type != MT_FE_HEX8) continue;
        int nn = mt_fe_type_nodes(el->type), nc = beam ? 6 : 3, ne = nn * nc;
        double ux[MT_FLEX_NKG][NE], rx[6 * MT_FLEX_NKG], rr[36];
        for (int a = 0; a < nn; a++) {
            int node = m->conn[el->conn + a];
            mt_fe_node_rows(d, node, H, N, rows);
            rigid_rows(m, d, node, rr);
            for (int q = 0; q < nc; q++) {
                for (int j = 0; j < N; j++) He[(size_t)(a * nc + q) * NB + j] = rows[q + 6 * j];
                for (int k = 0; k < 6; k++) He[(size_t)(a * nc + q) * NB + N + k] = rr[q + 6 * k];
            }
            mt_fe_node_rows(d, node, X, MT_FLEX_NKG, rx);
            for (int c = 0; c < MT_FLEX_NKG; c++)
                for (int q = 0; q < nc; q++) ux[c][a * nc + q] = rx[q + 6 * c];
        }
        for (int c = 0; c < MT_FLEX_NKG && !rc; c++) {
            double Ke[NE * NE], S[MT_FE_MAXNODE * MT_FE_MAXNODE];
            if (beam) rc = mt_fe_beam_kg(m, e, ux[c], Ke, err);
            else {
                rc = mt_fe_solid_kg(m, e, ux[c], S, err);
                memset(Ke, 0, sizeof(double) * (size_t)(ne * ne));
                for (int a = 0; a < nn; a++)
                    for (int b = 0; b < nn; b++)
                        for (int i = 0; i < 3; i++) Ke[(3 * a + i) * ne + 3 * b + i] = S[a * nn + b];
            }
            if (rc) break;
            /* T = Ke He (ne×NB), Kb_c += Heᵀ T */
            for (int r = 0; r < ne; r++)
                for (int j = 0; j < NB; j++) {
                    double s = 0;
                    for (int k = 0; k < ne; k++) s += Ke[r * ne + k] * He[(size_t)k * NB + j];
                    T[(size_t)r * NB + j] = s;
                }
            double *K = Kb + (size_t)c * NN;
            for (int j = 0; j < NB; j++)
                for (int i = 0; i <= j; i++) {
                    double s = 0;
                    for (int r = 0; r < ne; r++) s += He[(size_t)r * NB + i] * T[(size_t)r * NB + j];
                    K[(size_t)j * NB + i] += s;
                }
        }
    }
    if (!rc) {
        /* G = (CRᵀ CR)⁻¹ CRᵀ CH over the interface rows */
        double A[36] = {0}, rr[36];
        for (int i = 0; i < nif; i++) {
            mt_fe_node_rows(d, ifnodes[i], H, N, rows);
            rigid_rows(m, d, ifnodes[i], rr);
            for (int k = 0; k < 6; k++) {
                for (int l = 0; l < 6; l++)
                    for (int r = 0; r < 6; r++) A[k * 6 + l] += rr[r + 6 * k] * rr[r + 6 * l];
                for (int j = 0; j < N; j++)
                    for (int r = 0; r < 6; r++) G[(size_t)j * 6 + k] += rr[r + 6 * k] * rows[r + 6 * j];
            }
        }
        solve6(A, G, N);
        for (int c = 0; c < MT_FLEX_NKG; c++) {
            double *K = Kb + (size_t)c * NN, *out = Kg + (size_t)c * N * N;
#define KB(i, j) ((i) <= (j) ? K[(size_t)(j) * NB + (i)] : K[(size_t)(i) * NB + (j)])
            for (int j = 0; j < N; j++)
                for (int i = 0; i < N; i++) {
                    double s = KB(i, j);
                    for (int k = 0; k < 6; k++) {
                        s -= G[(size_t)i * 6 + k] * KB(N + k, j) + KB(i, N + k) * G[(size_t)j * 6 + k];
                        for (int l = 0; l < 6; l++) s += G[(size_t)i * 6 + k] * KB(N + k, N + l) * G[(size_t)j * 6 + l];
                    }
                    out[(size_t)j * N + i] = s;
                }
#undef KB
            for (int j = 0; j < N; j++) /* exact symmetry */
                for (int i = 0; i < j; i++) {
                    double v = 0.5 * (out[(size_t)j * N + i] + out[(size_t)i * N + j]);
                    out[(size_t)j * N + i] = out[(size_t)i * N + j] = v;
                }
        }
    }
    free(Kb), free(He), free(T), free(rows), free(G);
    return rc;
}
