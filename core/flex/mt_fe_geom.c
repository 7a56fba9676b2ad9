/* mt_fe_geom.c — geometric stiffening of a reduced flexible body: the
 * stiffness that the pre-stress of inertial loads adds (a spinning blade
 * stiffens, docs/design.md §4.4). The loads are body forces per unit mass, linear in
 * the position, b(x) = g + C x (gravity and frame acceleration g, the
 * centrifugal field C = ω²1 − ωωᵀ); each of the nine unit cases of
 * mt_fe_reduce.h is applied to the nodal masses with the interface held (the
 * joints carry the reaction, as in Craig–Bampton), its static displacement
 * gives the element stresses, and the element geometric stiffness under them
 * is projected onto the reduced basis: the elastic displacement relative to
 * the floating frame (the frame's own rigid rotation gets its share from
 * the exact rigid-body terms of the equations of motion). The dynamics then
 * adds Σ p_c Kg_c to the modal stiffness. Every element kind: beams, solids
 * (tet4, tet10, hex8, hex20), membranes (mem4, mem8) and shells (tria3, quad4,
 * quad8: the stress of their membrane on their translations).
 *
 * Loads at the interface (joint reactions, force elements) leave no stress
 * in those cases: the held interface takes them. Their stress is that of the
 * interface's own displacement, the constraint modes' static field
 * [Ψ; 1]·u_b, and u_b = H_b·w is known from the modal coordinates: so
 * mt_fe_geom_interface projects, for each modal coordinate k, the geometric
 * stiffness of the field of its interface displacement, Kw_k, and the
 * dynamics adds Σ w_k Kw_k (the pre-stress of the joint loads, updated as the
 * run goes). The two parts add up to the static stress of the interface
 * displacement plus the body forces with the interface held, Craig–Bampton's
 * own split, so nothing is counted twice. */
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

int mt_fe_geom_project(const MtFeModel *m, const MtFeDofs *d, const double *X, int ncase, const double *H, int N,
                       double *Kg, MtError *err)
{
    enum { NE = 6 * MT_FE_MAXNODE };
    size_t NN = (size_t)N * N;
    memset(Kg, 0, sizeof(double) * NN * (size_t)ncase);
    double *He = malloc(sizeof(double) * NE * ((size_t)N + 1)), *T = malloc(sizeof(double) * NE * ((size_t)N + 1));
    double *rows = malloc(sizeof(double) * 6 * ((size_t)N + 1)), *uxs = malloc(sizeof(double) * NE * ((size_t)ncase + 1));
    double *rx = malloc(sizeof(double) * 6 * ((size_t)ncase + 1));
    if (!He || !T || !rows || !uxs || !rx) {
        free(He), free(T), free(rows), free(uxs), free(rx);
        mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
        return -1;
    }
    int rc = 0;
    for (int e = 0; e < m->nelem && !rc; e++) {
        const MtFeElem *el = &m->elem[e];
        int beam = el->type == MT_FE_BEAM2, sheet = mt_fe_type_prop_kind(el->type) == MT_FE_PROP_SHELL;
        if (!beam && !sheet && el->type != MT_FE_TET4 && el->type != MT_FE_TET10 && el->type != MT_FE_HEX8 &&
            el->type != MT_FE_HEX20)
            continue;
        /* beams: their 12×12 on all six components; the others S ⊗ 1₃ on the translations */
        int nn = mt_fe_type_nodes(el->type), nc = beam ? 6 : 3, ne = nn * nc;
        for (int a = 0; a < nn; a++) {
            int node = m->conn[el->conn + a];
            mt_fe_node_rows(d, node, H, N, rows);
            for (int q = 0; q < nc; q++)
                for (int j = 0; j < N; j++) He[(size_t)(a * nc + q) * N + j] = rows[q + 6 * j];
            mt_fe_node_rows(d, node, X, ncase, rx);
            for (int c = 0; c < ncase; c++)
                for (int q = 0; q < nc; q++) uxs[(size_t)c * NE + a * nc + q] = rx[q + 6 * c];
        }
        for (int c = 0; c < ncase && !rc; c++) {
            double Ke[NE * NE], S[MT_FE_MAXNODE * MT_FE_MAXNODE], *ux = uxs + (size_t)c * NE;
            if (beam) rc = mt_fe_beam_kg(m, e, ux, Ke, err);
            else {
                rc = sheet ? mt_fe_membrane_kg(m, e, ux, S, err) : mt_fe_solid_kg(m, e, ux, S, err);
                memset(Ke, 0, sizeof(double) * (size_t)(ne * ne));
                for (int a = 0; a < nn; a++)
                    for (int b = 0; b < nn; b++)
                        for (int i = 0; i < 3; i++) Ke[(3 * a + i) * ne + 3 * b + i] = S[a * nn + b];
            }
            if (rc) break;
            /* T = Ke He (ne×N), Kg_c += Heᵀ T (upper triangle; mirrored below) */
            for (int r = 0; r < ne; r++)
                for (int j = 0; j < N; j++) {
                    double s = 0;
                    for (int k = 0; k < ne; k++) s += Ke[r * ne + k] * He[(size_t)k * N + j];
                    T[(size_t)r * N + j] = s;
                }
            double *K = Kg + (size_t)c * NN;
            for (int j = 0; j < N; j++)
                for (int i = 0; i <= j; i++) {
                    double s = 0;
                    for (int r = 0; r < ne; r++) s += He[(size_t)r * N + i] * T[(size_t)r * N + j];
                    K[(size_t)j * N + i] += s;
                }
        }
    }
    for (int c = 0; c < ncase; c++)
        for (int j = 0; j < N; j++)
            for (int i = 0; i < j; i++) Kg[(size_t)c * NN + (size_t)i * N + j] = Kg[(size_t)c * NN + (size_t)j * N + i];
    free(He), free(T), free(rows), free(uxs), free(rx);
    return rc;
}

int mt_fe_geom_interface(const MtFeModel *m, const MtFeDofs *d, const double *H, const double *HR, int N, double *Kw,
                         MtError *err)
{
    size_t n = (size_t)d->ndof, ni = (size_t)d->ni, nb = (size_t)d->nb;
    /* X_k = [Ψ; 1] u_b(k): the static field of modal coordinate k's interface displacement (interface rows of HR) */
    double *X = calloc(n * (size_t)N + 1, sizeof(double));
    if (!X) return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory")), -1;
    for (int k = 0; k < N; k++)
        for (size_t j = 0; j < nb; j++) {
            double u = HR[(size_t)k * n + ni + j];
            if (u == 0) continue;
            const double *psi = H + j * n;
            for (size_t i = 0; i < n; i++) X[(size_t)k * n + i] += u * psi[i];
        }
    int rc = mt_fe_geom_project(m, d, X, N, HR, N, Kw, err);
    free(X);
    return rc;
}
