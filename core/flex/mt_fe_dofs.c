/* mt_fe_dofs.c — which node components are free, fixed or dependent, and
 * their numbering (mt_fe_asm.h).
 *
 * RBE2: the reference node keeps 6 DOFs; a listed node s follows it rigidly,
 *   u_s = u_r + θ_r × (x_s − x_r), θ_s = θ_r, in the components cm it has.
 * RBE3: the reference node r moves with the weighted least-squares rigid fit
 *   of the listed nodes' translations: with S_i = [1, −[x_i − x_r]×],
 *   [u_r; θ_r] = (Σ w_i S_iᵀS_i)⁻¹ Σ w_i S_iᵀ u_i = A·u. So that the reference
 *   node can be an interface node (it is where a joint attaches), it is kept
 *   independent and six of the listed translations are eliminated instead
 *   (Nastran's UM option, chosen automatically by complete pivoting on A):
 *   u_J = A_J⁻¹ (u_r − A_R u_R). The constrained subspace is the same.
 * Dependencies through chains of rigid elements are resolved by substitution. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lapacke.h>

#include "mt_fe_asm.h"
#include "mt_fe_elem.h"
#include "mt_i18n.h"

static const char *const comp_name[6] = {"ux", "uy", "uz", "rx", "ry", "rz"};

void mt_fe_dofs_free(MtFeDofs *d)
{
    if (!d) return;
    free(d->state);
    free(d->dof);
    free(d->xp);
    free(d->xi);
    free(d->xc);
    free(d->dnode);
    free(d->dnode_of);
    free(d->d0);
    free(d->dofnode);
    free(d->dofcomp);
    free(d->bnode);
    free(d);
}

void mt_fe_dof_name(const MtFeModel *m, const MtFeDofs *d, int g, char *buf, size_t n)
{
    if (g < 0 || g >= d->ndof) {
        snprintf(buf, n, "?");
        return;
    }
    snprintf(buf, n, MT_("node %d component %s"), m->nid[d->dnode[d->dofnode[g]]], comp_name[d->dofcomp[g]]);
}

/* Raw (unresolved) expansions of dependent keys: a pool of terms. */
typedef struct {
    int *start, *count; /* per key */
    int *key;
    double *coef;
    int n, cap;
} Raw;

static int raw_add(Raw *r, int key, double c)
{
    if (r->n == r->cap) {
        int cap = r->cap ? 2 * r->cap : 1024;
        int *k = realloc(r->key, sizeof(int) * (size_t)cap);
        if (!k) return -1;
        r->key = k;
        double *cc = realloc(r->coef, sizeof(double) * (size_t)cap);
        if (!cc) return -1;
        r->coef = cc;
        r->cap = cap;
    }
    r->key[r->n] = key;
    r->coef[r->n] = c;
    r->n++;
    return 0;
}

static int nomem(MtError *err)
{
    mt_error_set(err, MT_ERR_NOMEM, "", MT_("out of memory while numbering the degrees of freedom"));
    return -1;
}

/* Marks key dependent; its terms follow (caller adds them right after). */
static int make_dependent(const MtFeModel *m, signed char *state, Raw *raw, int key, int rid, MtError *err)
{
    int n = key / 6, c = key % 6;
    if (state[key] == MT_FE_FIXED) {
        mt_error_set(err, MT_ERR_MODEL, "",
                     MT_("node %d component %s is fixed and also follows rigid element %d: remove one of the two"),
                     m->nid[n], comp_name[c], rid);
        return -1;
    }
    if (state[key] == MT_FE_DEPENDENT) {
        mt_error_set(err, MT_ERR_MODEL, "",
                     MT_("node %d component %s follows two rigid elements (the second is %d): a node can depend on "
                         "only one"),
                     m->nid[n], comp_name[c], rid);
        return -1;
    }
    state[key] = MT_FE_DEPENDENT;
    raw->start[key] = raw->n;
    return 0;
}

/* Resolution of chains: the expansion of key in terms of active keys, added
 * with factor f into the accumulator (acc over keys, list of touched keys). */
static int resolve(const MtFeModel *m, const signed char *state, const Raw *raw, int key, double f, double *acc,
                   int *touched, int *nt, int depth, MtError *err)
{
    if (state[key] == MT_FE_ACTIVE) {
        if (acc[key] == 0) touched[(*nt)++] = key;
        acc[key] += f;
        if (acc[key] == 0) acc[key] = 1e-300; /* keep it listed */
        return 0;
    }
    if (state[key] != MT_FE_DEPENDENT) return 0; /* fixed or absent: zero */
    if (depth > 32) {
        mt_error_set(err, MT_ERR_MODEL, "",
                     MT_("rigid elements at node %d depend on each other in a cycle (or a chain deeper than 32)"),
                     m->nid[key / 6]);
        return -1;
    }
    for (int t = raw->start[key]; t < raw->start[key] + raw->count[key]; t++)
        if (resolve(m, state, raw, raw->key[t], f * raw->coef[t], acc, touched, nt, depth + 1, err)) return -1;
    return 0;
}

/* RBE3 elimination (see the top of the file). */
static int rbe3(const MtFeModel *m, const MtFeRigid *r, signed char *state, Raw *raw, MtError *err)
{
    const double *xr = m->x + 3 * r->ref;
    /* least-squares normal matrix N = Σ w SᵀS (6×6) and the listed columns */
    double N[36] = {0};
    int n = r->n, q = 3 * n;
    double *A = calloc((size_t)6 * (size_t)q, sizeof(double));
    int *colkey = malloc(sizeof(int) * (size_t)q), *cand = malloc(sizeof(int) * (size_t)q);
    if (!A || !colkey || !cand) {
        free(A), free(colkey), free(cand);
        return nomem(err);
    }
    double L2 = 0; /* length scale for rotations (conditioning only) */
    for (int i = 0; i < n; i++) {
        const double *xi = m->x + 3 * m->rnode[r->first + i];
        double d = 0;
        for (int k = 0; k < 3; k++) d += (xi[k] - xr[k]) * (xi[k] - xr[k]);
        L2 += d / n;
    }
    double L = L2 > 0 ? sqrt(L2) : 1;
    for (int i = 0; i < n; i++) {
        int node = m->rnode[r->first + i];
        const double *xi = m->x + 3 * node;
        double w = m->rw[r->first + i];
        double rx = (xi[0] - xr[0]) / L, ry = (xi[1] - xr[1]) / L, rz = (xi[2] - xr[2]) / L;
        /* S = [1, −[r]×] in scaled rotations θ·L */
        double S[3][6] = {{1, 0, 0, 0, rz, -ry}, {0, 1, 0, -rz, 0, rx}, {0, 0, 1, ry, -rx, 0}};
        for (int a = 0; a < 6; a++)
            for (int b = 0; b < 6; b++)
                for (int k = 0; k < 3; k++) N[6 * a + b] += w * S[k][a] * S[k][b];
        for (int k = 0; k < 3; k++) {
            int key = 6 * node + k, col = 3 * i + k;
            colkey[col] = key;
            cand[col] = state[key] == MT_FE_ACTIVE;
            for (int a = 0; a < 6; a++) A[a * q + col] = state[key] == MT_FE_ABSENT ? 0 : w * S[k][a];
        }
    }
    /* A ← N⁻¹ A */
    double Nf[36];
    memcpy(Nf, N, sizeof N);
    int ipiv[6];
    double nmax = 0;
    for (int i = 0; i < 6; i++) nmax = fmax(nmax, fabs(N[7 * i]));
    int bad = LAPACKE_dgetrf(LAPACK_ROW_MAJOR, 6, 6, Nf, 6, ipiv) != 0;
    for (int i = 0; i < 6 && !bad; i++) bad = fabs(Nf[7 * i]) < 1e-10 * nmax;
    if (!bad) bad = LAPACKE_dgetrs(LAPACK_ROW_MAJOR, 'N', 6, q, Nf, 6, ipiv, A, q) != 0;
    if (bad) {
        free(A), free(colkey), free(cand);
        mt_error_set(err, MT_ERR_MODEL, "",
                     MT_("interpolation element %d: its nodes do not determine the motion of node %d (fewer than three "
                         "nodes, or all on one line)"),
                     r->id, m->nid[r->ref]);
        return -1;
    }
    /* rows: the reference components in cm (rotations scaled by L) */
    int rows[6], nr = 0;
    for (int c = 0; c < 6; c++)
        if (r->cm & (1 << c)) rows[nr++] = c;
    /* complete pivoting on the nr × q block: choose nr eliminated columns */
    double *B = malloc(sizeof(double) * (size_t)nr * (size_t)q);
    int *piv = malloc(sizeof(int) * (size_t)q);
    if (!B || !piv) {
        free(A), free(colkey), free(cand), free(B), free(piv);
        return nomem(err);
    }
    for (int a = 0; a < nr; a++) memcpy(B + (size_t)a * q, A + (size_t)rows[a] * q, sizeof(double) * (size_t)q);
    double amax = 0;
    for (int i = 0; i < nr * q; i++) amax = fmax(amax, fabs(B[i]));
    int used[6] = {0};
    for (int k = 0; k < nr; k++) {
        int br = -1, bc = -1;
        double best = 0;
        for (int a = 0; a < nr; a++) {
            if (used[a]) continue;
            for (int j = 0; j < q; j++)
                if (cand[j] && fabs(B[a * q + j]) > best) best = fabs(B[a * q + j]), br = a, bc = j;
        }
        if (br < 0 || best < 1e-9 * amax) {
            free(A), free(colkey), free(cand), free(B), free(piv);
            mt_error_set(err, MT_ERR_MODEL, "",
                         MT_("interpolation element %d: its nodes do not determine the motion of node %d (fewer than "
                             "three free nodes, or all on one line)"),
                         r->id, m->nid[r->ref]);
            return -1;
        }
        used[br] = 1;
        piv[k] = bc;
        cand[bc] = 0;
        for (int a = 0; a < nr; a++) { /* eliminate column bc from the other rows (Gauss–Jordan) */
            if (a == br) continue;
            double f = B[a * q + bc] / B[br * q + bc];
            if (f == 0) continue;
            for (int j = 0; j < q; j++) B[a * q + j] -= f * B[br * q + j];
            /* the reference side: row a − f·row br, kept in the coefficient table below */
        }
    }
    /* Solve A_J u_J = u_ref − A_R u_R directly on the original rows: build the
     * nr×nr matrix A_J and invert it (small). */
    double AJ[36], ARinv[36];
    for (int a = 0; a < nr; a++)
        for (int k = 0; k < nr; k++) AJ[a * nr + k] = A[(size_t)rows[a] * q + piv[k]];
    memset(ARinv, 0, sizeof ARinv);
    for (int a = 0; a < nr; a++) ARinv[a * nr + a] = 1;
    int ip2[6];
    if (LAPACKE_dgesv(LAPACK_ROW_MAJOR, nr, nr, AJ, nr, ip2, ARinv, nr)) {
        free(A), free(colkey), free(cand), free(B), free(piv);
        mt_error_set(err, MT_ERR_MODEL, "", MT_("interpolation element %d cannot be eliminated"), r->id);
        return -1;
    }
    /* u_J[k] = Σ_a Ainv[k][a] (u_ref[a]·s_a − Σ_{j∉J} A[a][j] u_j), s_a = L for rotations (scaled θ·L) */
    for (int k = 0; k < nr; k++) {
        int key = colkey[piv[k]];
        if (make_dependent(m, state, raw, key, r->id, err)) {
            free(A), free(colkey), free(cand), free(B), free(piv);
            return -1;
        }
        for (int a = 0; a < nr; a++) {
            double f = ARinv[k * nr + a];
            if (f == 0) continue;
            double s = rows[a] >= 3 ? L : 1;
            if (raw_add(raw, 6 * r->ref + rows[a], f * s)) goto oom;
        }
        for (int j = 0; j < q; j++) {
            int inJ = 0;
            for (int kk = 0; kk < nr; kk++) inJ |= piv[kk] == j;
            if (inJ) continue;
            double s = 0;
            for (int a = 0; a < nr; a++) s += ARinv[k * nr + a] * A[(size_t)rows[a] * q + j];
            if (s != 0 && state[colkey[j]] != MT_FE_ABSENT && state[colkey[j]] != MT_FE_FIXED)
                if (raw_add(raw, colkey[j], -s)) goto oom;
        }
        raw->count[key] = raw->n - raw->start[key];
    }
    free(A), free(colkey), free(cand), free(B), free(piv);
    return 0;
oom:
    free(A), free(colkey), free(cand), free(B), free(piv);
    return nomem(err);
}

/* Number of rigid-body motions that the fixed components leave free. */
static int free_rigid_motions(const MtFeModel *m, const signed char *state)
{
    double c[3] = {0, 0, 0}, L = 0;
    int nf = 0;
    for (int n = 0; n < m->nnode; n++)
        for (int k = 0; k < 3; k++) c[k] += m->x[3 * n + k] / (m->nnode ? m->nnode : 1);
    for (int n = 0; n < m->nnode; n++)
        for (int k = 0; k < 3; k++) L = fmax(L, fabs(m->x[3 * n + k] - c[k]));
    if (L == 0) L = 1;
    double G[36] = {0};
    for (int n = 0; n < m->nnode; n++) {
        double r[3] = {(m->x[3 * n] - c[0]) / L, (m->x[3 * n + 1] - c[1]) / L, (m->x[3 * n + 2] - c[2]) / L};
        for (int k = 0; k < 6; k++) {
            if (state[6 * n + k] != MT_FE_FIXED) continue;
            nf++;
            double row[6] = {0};
            if (k < 3) { /* u_k of the rigid motion (t, θ): t_k + (θ × r)_k */
                row[k] = 1;
                int a = (k + 1) % 3, b = (k + 2) % 3;
                row[3 + a] = r[b];
                row[3 + b] = -r[a];
            } else row[k] = 1;
            for (int i = 0; i < 6; i++)
                for (int j = 0; j < 6; j++) G[6 * i + j] += row[i] * row[j];
        }
    }
    if (!nf) return 6;
    double ev[6];
    if (LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'N', 'U', 6, G, 6, ev)) return 0;
    int rank = 0;
    for (int i = 0; i < 6; i++) rank += ev[i] > 1e-9 * ev[5];
    return 6 - rank;
}

MtFeDofs *mt_fe_dofs_new(const MtFeModel *m, int nbnode, const int *bnodes, MtError *err)
{
    MtFeDofs *d = calloc(1, sizeof *d);
    Raw raw = {0};
    double *acc = NULL;
    int *touched = NULL, *isb = NULL;
    if (!d) {
        nomem(err);
        return NULL;
    }
    int nn = m->nnode;
    size_t nk = (size_t)6 * (size_t)nn;
    d->nnode = nn;
    d->state = calloc(nk + 1, 1);
    d->dof = malloc(sizeof(int) * (nk + 1));
    d->xp = calloc(nk + 1, sizeof(int));
    d->dnode_of = malloc(sizeof(int) * ((size_t)nn + 1));
    raw.start = calloc(nk + 1, sizeof(int));
    raw.count = calloc(nk + 1, sizeof(int));
    isb = calloc((size_t)nn + 1, sizeof(int));
    if (!d->state || !d->dof || !d->xp || !d->dnode_of || !raw.start || !raw.count || !isb) goto oom;
    signed char *st = d->state;
    /* components that exist */
    for (int e = 0; e < m->nelem; e++) {
        const MtFeElem *el = &m->elem[e];
        int nc = mt_fe_type_ncomp(el->type), k = mt_fe_type_nodes(el->type);
        for (int a = 0; a < k; a++)
            for (int c = 0; c < nc; c++) st[6 * m->conn[el->conn + a] + c] = MT_FE_ACTIVE;
    }
    for (int i = 0; i < m->nmass; i++)
        for (int c = 0; c < 3; c++) st[6 * m->mass[i].node + c] = MT_FE_ACTIVE;
    for (int i = 0; i < m->nrigid; i++)
        for (int c = 0; c < 6; c++) st[6 * m->rigid[i].ref + c] = MT_FE_ACTIVE;
    for (int i = 0; i < m->nspc; i++)
        for (int c = 0; c < 6; c++)
            if ((m->spc[i].mask >> c & 1) && st[6 * m->spc[i].node + c] == MT_FE_ACTIVE)
                st[6 * m->spc[i].node + c] = MT_FE_FIXED;
    /* RBE2 */
    for (int i = 0; i < m->nrigid; i++) {
        const MtFeRigid *r = &m->rigid[i];
        if (r->type != MT_FE_RBE2) continue;
        const double *xm = m->x + 3 * r->ref;
        int cm = r->cm ? r->cm : MT_FE_ALL;
        for (int j = 0; j < r->n; j++) {
            int s = m->rnode[r->first + j];
            double dx = m->x[3 * s] - xm[0], dy = m->x[3 * s + 1] - xm[1], dz = m->x[3 * s + 2] - xm[2];
            for (int c = 0; c < 6; c++) {
                int key = 6 * s + c;
                if (!(cm >> c & 1) || st[key] == MT_FE_ABSENT) continue;
                if (make_dependent(m, st, &raw, key, r->id, err)) goto fail;
                int mk = 6 * r->ref;
                int ok = raw_add(&raw, mk + c, 1) == 0;
                /* θ × r: ux += dz θy − dy θz; uy += dx θz − dz θx; uz += dy θx − dx θy */
                if (c == 0) ok = ok && !raw_add(&raw, mk + 4, dz) && !raw_add(&raw, mk + 5, -dy);
                if (c == 1) ok = ok && !raw_add(&raw, mk + 5, dx) && !raw_add(&raw, mk + 3, -dz);
                if (c == 2) ok = ok && !raw_add(&raw, mk + 3, dy) && !raw_add(&raw, mk + 4, -dx);
                if (!ok) goto oom;
                raw.count[key] = raw.n - raw.start[key];
            }
        }
    }
    /* RBE3 */
    for (int i = 0; i < m->nrigid; i++)
        if (m->rigid[i].type == MT_FE_RBE3 && rbe3(m, &m->rigid[i], st, &raw, err)) goto fail;
    /* boundary nodes */
    for (int i = 0; i < nbnode; i++) {
        int b = bnodes[i];
        if (b < 0 || b >= nn) {
            mt_error_set(err, MT_ERR_ARG, "", MT_("interface node index %d is out of range"), b);
            goto fail;
        }
        int any = 0;
        for (int c = 0; c < 6; c++) any |= st[6 * b + c] == MT_FE_ACTIVE;
        if (!any) {
            mt_error_set(err, MT_ERR_MODEL, "",
                         MT_("interface node %d has no free degree of freedom (no element uses it, or it is fixed or "
                             "follows a rigid element)"),
                         m->nid[b]);
            goto fail;
        }
        if (isb[b]) {
            mt_error_set(err, MT_ERR_ARG, "", MT_("interface node %d is listed twice"), m->nid[b]);
            goto fail;
        }
        isb[b] = 1;
    }
    /* numbering: interior DOF nodes, then the boundary nodes in the given order */
    int nd = 0, ndof = 0;
    for (int n = 0; n < nn; n++) {
        int any = 0;
        for (int c = 0; c < 6; c++) any |= st[6 * n + c] == MT_FE_ACTIVE;
        d->dnode_of[n] = any ? -2 : -1;
        nd += any;
    }
    d->nd = nd;
    d->dnode = malloc(sizeof(int) * ((size_t)nd + 1));
    d->d0 = malloc(sizeof(int) * ((size_t)nd + 1));
    d->bnode = malloc(sizeof(int) * ((size_t)nbnode + 1));
    if (!d->dnode || !d->d0 || !d->bnode) goto oom;
    int k = 0;
    for (int pass = 0; pass < 2; pass++) {
        int cnt = pass ? nbnode : nn;
        for (int j = 0; j < cnt; j++) {
            int n = pass ? bnodes[j] : j;
            if (d->dnode_of[n] == -1 || (!pass && isb[n])) continue;
            d->dnode_of[n] = k;
            d->dnode[k] = n;
            d->d0[k] = ndof;
            for (int c = 0; c < 6; c++) d->dof[6 * n + c] = st[6 * n + c] == MT_FE_ACTIVE ? ndof++ : -1;
            k++;
        }
        if (!pass) d->ni = ndof;
    }
    d->d0[nd] = ndof;
    d->ndof = ndof;
    d->nb = ndof - d->ni;
    d->nbnode = nbnode;
    if (nbnode) memcpy(d->bnode, bnodes, sizeof(int) * (size_t)nbnode);
    for (int n = 0; n < nn; n++)
        if (d->dnode_of[n] < 0)
            for (int c = 0; c < 6; c++) d->dof[6 * n + c] = -1;
    d->dofnode = malloc(sizeof(int) * ((size_t)ndof + 1));
    d->dofcomp = malloc(sizeof(int) * ((size_t)ndof + 1));
    if (!d->dofnode || !d->dofcomp) goto oom;
    for (int n = 0; n < nn; n++)
        for (int c = 0; c < 6; c++)
            if (d->dof[6 * n + c] >= 0) d->dofnode[d->dof[6 * n + c]] = d->dnode_of[n], d->dofcomp[d->dof[6 * n + c]] = c;
    /* expansions */
    acc = calloc(nk + 1, sizeof(double));
    touched = malloc(sizeof(int) * (nk + 1));
    if (!acc || !touched) goto oom;
    size_t cap = nk / 2 + 16, used = 0;
    d->xi = malloc(sizeof(int) * cap);
    d->xc = malloc(sizeof(double) * cap);
    if (!d->xi || !d->xc) goto oom;
    for (size_t key = 0; key < nk; key++) {
        d->xp[key] = (int)used;
        int nt = 0;
        if (st[key] == MT_FE_ACTIVE) touched[nt++] = (int)key, acc[key] = 1;
        else if (st[key] == MT_FE_DEPENDENT && resolve(m, st, &raw, (int)key, 1, acc, touched, &nt, 0, err)) {
            for (int t = 0; t < nt; t++) acc[touched[t]] = 0;
            goto fail;
        }
        if (used + (size_t)nt > cap) {
            while (used + (size_t)nt > cap) cap *= 2;
            int *xi = realloc(d->xi, sizeof(int) * cap);
            if (!xi) goto oom;
            d->xi = xi;
            double *xc = realloc(d->xc, sizeof(double) * cap);
            if (!xc) goto oom;
            d->xc = xc;
        }
        for (int t = 0; t < nt; t++) {
            int kk = touched[t];
            double v = acc[kk] == 1e-300 ? 0 : acc[kk];
            acc[kk] = 0;
            if (v == 0) continue;
            d->xi[used] = d->dof[kk];
            d->xc[used] = v;
            used++;
        }
        if (used > 0x7fffffff) goto oom;
    }
    d->xp[nk] = (int)used;
    d->nrigid = free_rigid_motions(m, st);
    free(raw.start), free(raw.count), free(raw.key), free(raw.coef), free(acc), free(touched), free(isb);
    return d;
oom:
    nomem(err);
fail:
    free(raw.start), free(raw.count), free(raw.key), free(raw.coef), free(acc), free(touched), free(isb);
    mt_fe_dofs_free(d);
    return NULL;
}

int mt_fe_dofs_renumber(MtFeDofs *d, const int *order, MtError *err)
{
    int nd = d->nd, nbn = 0;
    for (int k = 0; k < nd; k++) nbn += d->d0[k] >= d->ni;
    int nin = nd - nbn;
    int *newdn = malloc(sizeof(int) * ((size_t)nd + 1)), *oldof = malloc(sizeof(int) * ((size_t)d->ndof + 1));
    int *d0 = malloc(sizeof(int) * ((size_t)nd + 1)), *mark = calloc((size_t)nd + 1, sizeof(int));
    if (!newdn || !oldof || !d0 || !mark) {
        free(newdn), free(oldof), free(d0), free(mark);
        return nomem(err);
    }
    /* new DOF-node sequence: order[] (a permutation of the interior DOF nodes), then the boundary ones */
    int bad = 0;
    for (int k = 0; k < nin && !bad; k++) {
        int o = order[k];
        bad = o < 0 || o >= nin || mark[o];
        if (!bad) mark[o] = 1, newdn[k] = o;
    }
    if (bad) {
        free(newdn), free(oldof), free(d0), free(mark);
        mt_error_set(err, MT_ERR_ARG, "", "internal: the DOF order is not a permutation");
        return -1;
    }
    for (int k = nin; k < nd; k++) newdn[k] = k;
    /* old DOF → new DOF */
    int g = 0;
    for (int k = 0; k < nd; k++) {
        int o = newdn[k];
        d0[k] = g;
        for (int q = d->d0[o]; q < d->d0[o + 1]; q++) oldof[q] = g++;
    }
    d0[nd] = g;
    int *dnode = malloc(sizeof(int) * ((size_t)nd + 1));
    if (!dnode) {
        free(newdn), free(oldof), free(d0), free(mark);
        return nomem(err);
    }
    for (int k = 0; k < nd; k++) dnode[k] = d->dnode[newdn[k]];
    for (int k = 0; k < nd; k++) d->dnode_of[dnode[k]] = k;
    for (size_t key = 0; key < (size_t)6 * (size_t)d->nnode; key++)
        if (d->dof[key] >= 0) d->dof[key] = oldof[d->dof[key]];
    for (int x = 0; x < d->xp[6 * (size_t)d->nnode]; x++) d->xi[x] = oldof[d->xi[x]];
    for (int n = 0; n < d->nnode; n++)
        for (int c = 0; c < 6; c++) {
            int q = d->dof[6 * n + c];
            if (q >= 0) d->dofnode[q] = d->dnode_of[n], d->dofcomp[q] = c;
        }
    free(d->dnode), free(d->d0);
    d->dnode = dnode, d->d0 = d0;
    free(newdn), free(oldof), free(mark);
    return 0;
}
