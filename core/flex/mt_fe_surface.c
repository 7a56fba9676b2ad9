/* mt_fe_surface.c — the display surface of a flexible body: outer faces of
 * the solid elements (faces used by exactly one element), all shell
 * elements, beam lines; per surface vertex its modal displacements and, for
 * solids and shells, the modal stress tensor and von Mises stress (nodal
 * average of the elements that share the vertex; shells on their top face).
 * Quadratic tetrahedron faces are split into four triangles through the
 * mid-side nodes, quadrilaterals into two. Declared in mt_fe_out.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mt_fe_elem.h"
#include "mt_fe_out.h"
#include "mt_i18n.h"

typedef struct {
    int c[4];  /* sorted corner nodes (c[3] = -1 for triangles) */
    int e, f;  /* element and local face */
} Face;

static const int tet_face[4][3] = {{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {0, 3, 2}};
static const int hex_face[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};

static int cmp_face(const void *a, const void *b)
{
    const Face *x = a, *y = b;
    for (int k = 0; k < 4; k++)
        if (x->c[k] != y->c[k]) return x->c[k] < y->c[k] ? -1 : 1;
    return 0;
}

static void sort4(int *c, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && c[j] < c[j - 1]; j--) {
            int t = c[j];
            c[j] = c[j - 1], c[j - 1] = t;
        }
}

/* Mid-side node of edge (a, b) of a tet10 (local numbers). */
static int tet10_mid(int a, int b)
{
    static const int edge[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
    for (int k = 0; k < 6; k++)
        if ((edge[k][0] == a && edge[k][1] == b) || (edge[k][0] == b && edge[k][1] == a)) return 4 + k;
    return -1;
}

static int is_hex(int t) { return t == MT_FE_HEX8 || t == MT_FE_HEX20; } /* hex20: drawn by its corners */
static int is_solid(int t) { return t == MT_FE_TET4 || t == MT_FE_TET10 || is_hex(t); }
static int is_shell(int t)
{
    return t == MT_FE_TRIA3 || t == MT_FE_QUAD4 || t == MT_FE_MEM4 || t == MT_FE_MEM8 || t == MT_FE_QUAD8;
}

/* +1 if the element's corner ordering is positive (outward faces as listed), −1 if mirrored. */
static int orientation(const MtFeModel *m, int e)
{
    const MtFeElem *el = &m->elem[e];
    const int *c = m->conn + el->conn;
    int a = c[0], b = c[1], cc = is_hex(el->type) ? c[3] : c[2], d = is_hex(el->type) ? c[4] : c[3];
    const double *X = m->x;
    double u[3], v[3], w[3];
    for (int k = 0; k < 3; k++) u[k] = X[3 * b + k] - X[3 * a + k], v[k] = X[3 * cc + k] - X[3 * a + k], w[k] = X[3 * d + k] - X[3 * a + k];
    double det = u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]);
    return det < 0 ? -1 : 1;
}

static int nomem(MtError *err)
{
    mt_error_set(err, MT_ERR_NOMEM, "", MT_("out of memory building the display surface"));
    return -1;
}

int mt_flex_surface(const MtFeModel *m, const MtFeDofs *d, const double *H, int N, int stress, MtFlexBody *b,
                    const MtFeProgress *pr, MtError *err)
{
    size_t nf = 0;
    for (int e = 0; e < m->nelem; e++) {
        int t = m->elem[e].type;
        nf += is_hex(t) ? 6 : (t == MT_FE_TET4 || t == MT_FE_TET10) ? 4 : 0;
    }
    Face *F = malloc(sizeof(Face) * (nf + 1));
    int *svof = malloc(sizeof(int) * ((size_t)m->nnode + 1));
    int rc = -1;
    double *rows = NULL, *ue = NULL, *sig = NULL, *acc = NULL;
    int *cnt = NULL;
    if (!F || !svof) goto oom;
    size_t k = 0;
    for (int e = 0; e < m->nelem; e++) {
        const MtFeElem *el = &m->elem[e];
        const int *c = m->conn + el->conn;
        if (is_hex(el->type))
            for (int f = 0; f < 6; f++) {
                Face *x = &F[k++];
                for (int j = 0; j < 4; j++) x->c[j] = c[hex_face[f][j]];
                sort4(x->c, 4);
                x->e = e, x->f = f;
            }
        else if (el->type == MT_FE_TET4 || el->type == MT_FE_TET10)
            for (int f = 0; f < 4; f++) {
                Face *x = &F[k++];
                for (int j = 0; j < 3; j++) x->c[j] = c[tet_face[f][j]];
                sort4(x->c, 3);
                x->c[3] = -1;
                /* keep triangles and quads apart in the order: −1 sorts first, move it */
                x->e = e, x->f = f;
            }
    }
    qsort(F, nf, sizeof(Face), cmp_face);
    /* count triangles and mark vertices */
    for (int i = 0; i < m->nnode; i++) svof[i] = -1;
    int nsv = 0, nst = 0, nseg = 0;
    for (int pass = 0; pass < 2; pass++) {
        nst = 0, nseg = 0;
        for (size_t i = 0; i < nf;) {
            size_t j = i + 1;
            while (j < nf && !cmp_face(&F[i], &F[j])) j++;
            if (j - i == 1) { /* boundary face */
                const MtFeElem *el = &m->elem[F[i].e];
                const int *c = m->conn + el->conn;
                int o = orientation(m, F[i].e), f = F[i].f;
                int tri[4][3], ntri = 0;
                if (is_hex(el->type)) {
                    const int *q = hex_face[f];
                    int t0[3] = {c[q[0]], c[q[1]], c[q[2]]}, t1[3] = {c[q[0]], c[q[2]], c[q[3]]};
                    memcpy(tri[ntri++], t0, sizeof t0);
                    memcpy(tri[ntri++], t1, sizeof t1);
                } else if (el->type == MT_FE_TET4) {
                    int t0[3] = {c[tet_face[f][0]], c[tet_face[f][1]], c[tet_face[f][2]]};
                    memcpy(tri[ntri++], t0, sizeof t0);
                } else {
                    int a = tet_face[f][0], bb = tet_face[f][1], cc = tet_face[f][2];
                    int ab = c[tet10_mid(a, bb)], bc = c[tet10_mid(bb, cc)], ca = c[tet10_mid(cc, a)];
                    int t0[3] = {c[a], ab, ca}, t1[3] = {ab, c[bb], bc}, t2[3] = {ca, bc, c[cc]}, t3[3] = {ab, bc, ca};
                    memcpy(tri[ntri++], t0, sizeof t0);
                    memcpy(tri[ntri++], t1, sizeof t1);
                    memcpy(tri[ntri++], t2, sizeof t2);
                    memcpy(tri[ntri++], t3, sizeof t3);
                }
                for (int t = 0; t < ntri; t++) {
                    if (o < 0) {
                        int s = tri[t][1];
                        tri[t][1] = tri[t][2], tri[t][2] = s;
                    }
                    for (int v = 0; v < 3; v++) {
                        int node = tri[t][v];
                        if (!pass) {
                            if (svof[node] < 0) svof[node] = nsv++;
                        } else b->st[3 * nst + v] = svof[node];
                    }
                    nst++;
                }
            }
            i = j;
        }
        for (int e = 0; e < m->nelem; e++) {
            const MtFeElem *el = &m->elem[e];
            const int *c = m->conn + el->conn;
            int tri[6][3], ntri = 0;
            if (el->type == MT_FE_TRIA3) {
                int t0[3] = {c[0], c[1], c[2]};
                memcpy(tri[ntri++], t0, sizeof t0);
            } else if (el->type == MT_FE_MEM8 || el->type == MT_FE_QUAD8) { /* four corner triangles and two in the middle, through the mid-sides */
                const int t[6][3] = {{c[0], c[4], c[7]}, {c[4], c[1], c[5]}, {c[5], c[2], c[6]},
                                     {c[6], c[3], c[7]}, {c[4], c[5], c[6]}, {c[4], c[6], c[7]}};
                memcpy(tri, t, sizeof t);
                ntri = 6;
            } else if (el->type == MT_FE_QUAD4 || el->type == MT_FE_MEM4) {
                int t0[3] = {c[0], c[1], c[2]}, t1[3] = {c[0], c[2], c[3]};
                memcpy(tri[ntri++], t0, sizeof t0);
                memcpy(tri[ntri++], t1, sizeof t1);
            } else if (el->type == MT_FE_BEAM2) {
                for (int v = 0; v < 2; v++) {
                    if (!pass) {
                        if (svof[c[v]] < 0) svof[c[v]] = nsv++;
                    } else b->seg[2 * nseg + v] = svof[c[v]];
                }
                nseg++;
            }
            for (int t = 0; t < ntri; t++) {
                for (int v = 0; v < 3; v++) {
                    if (!pass) {
                        if (svof[tri[t][v]] < 0) svof[tri[t][v]] = nsv++;
                    } else b->st[3 * nst + v] = svof[tri[t][v]];
                }
                nst++;
            }
        }
        if (!pass) {
            b->st = malloc(sizeof(int) * 3 * ((size_t)nst + 1));
            b->seg = malloc(sizeof(int) * 2 * ((size_t)nseg + 1));
            if (!b->st || !b->seg) goto oom;
        }
    }
    b->nsv = nsv, b->nst = nst, b->nseg = nseg;
    b->sv_id = malloc(sizeof(int) * ((size_t)nsv + 1));
    b->sv_x = malloc(sizeof(float) * 3 * ((size_t)nsv + 1));
    b->sv_H = calloc(3 * (size_t)nsv * (size_t)N + 1, sizeof(float));
    rows = malloc(sizeof(double) * 6 * ((size_t)N + 1) * MT_FE_MAXNODE);
    if (!b->sv_id || !b->sv_x || !b->sv_H || !rows) goto oom;
    for (int n = 0; n < m->nnode; n++) {
        int v = svof[n];
        if (v < 0) continue;
        b->sv_id[v] = m->nid[n];
        for (int c = 0; c < 3; c++) b->sv_x[3 * v + c] = (float)m->x[3 * n + c];
        mt_fe_node_rows(d, n, H, N, rows);
        for (int j = 0; j < N; j++)
            for (int c = 0; c < 3; c++) b->sv_H[3 * ((size_t)j * nsv + v) + c] = (float)rows[c + 6 * j];
    }
    if (stress && N > 0) {
        b->sv_vm = calloc((size_t)nsv * (size_t)N + 1, sizeof(float));
        b->sv_sig = calloc(6 * (size_t)nsv * (size_t)N + 1, sizeof(float));
        acc = calloc(6 * (size_t)nsv * (size_t)N + 1, sizeof(double));
        cnt = calloc((size_t)nsv + 1, sizeof(int));
        ue = malloc(sizeof(double) * MT_FE_MAXDOF);
        sig = malloc(sizeof(double) * 6 * MT_FE_MAXNODE);
        if (!b->sv_vm || !b->sv_sig || !acc || !cnt || !ue || !sig) goto oom;
        for (int e = 0; e < m->nelem; e++) {
            if ((e & 8191) == 0 && mt_fe_progress(pr, "surface stresses", (double)e / m->nelem, err)) goto done;
            const MtFeElem *el = &m->elem[e];
            if (!is_solid(el->type) && !is_shell(el->type)) continue;
            const int *c = m->conn + el->conn;
            int nn = mt_fe_type_nodes(el->type), nc = mt_fe_type_ncomp(el->type), on = 0;
            for (int a = 0; a < nn; a++) on |= svof[c[a]] >= 0;
            if (!on) continue;
            for (int a = 0; a < nn; a++) mt_fe_node_rows(d, c[a], H, N, rows + (size_t)a * 6 * N);
            for (int a = 0; a < nn; a++)
                if (svof[c[a]] >= 0) cnt[svof[c[a]]]++;
            for (int j = 0; j < N; j++) {
                for (int a = 0; a < nn; a++)
                    for (int q = 0; q < nc; q++) ue[a * nc + q] = rows[(size_t)a * 6 * N + q + 6 * j];
                int w = mt_fe_elem_stress(m, e, ue, sig);
                for (int a = 0; a < w; a++) {
                    int v = svof[c[a]];
                    if (v < 0) continue;
                    for (int q = 0; q < 6; q++) acc[6 * ((size_t)j * nsv + v) + q] += sig[6 * a + q];
                }
            }
        }
        for (int j = 0; j < N; j++)
            for (int v = 0; v < nsv; v++) {
                double *s = acc + 6 * ((size_t)j * nsv + v);
                double f = cnt[v] ? 1.0 / cnt[v] : 0;
                for (int q = 0; q < 6; q++) s[q] *= f, b->sv_sig[6 * ((size_t)j * nsv + v) + q] = (float)s[q];
                double vm = sqrt(0.5 * ((s[0] - s[1]) * (s[0] - s[1]) + (s[1] - s[2]) * (s[1] - s[2]) +
                                        (s[2] - s[0]) * (s[2] - s[0])) +
                                 3 * (s[3] * s[3] + s[4] * s[4] + s[5] * s[5]));
                b->sv_vm[(size_t)j * nsv + v] = (float)vm;
            }
    }
    rc = 0;
    goto done;
oom:
    nomem(err);
done:
    free(F), free(svof), free(rows), free(ue), free(sig), free(acc), free(cnt);
    return rc;
}
