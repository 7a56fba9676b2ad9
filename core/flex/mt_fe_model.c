/* mt_fe_model.c — building, checking and querying finite-element models
 * (motus/fe.h). Arrays grow geometrically; labels map to indices through small
 * open-addressing hash tables. */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "motus/fe.h"
#include "mt_fe_elem.h"
#include "mt_i18n.h"

/* ---- label hash ---------------------------------------------------------------- */

struct MtFeHash {
    size_t cap, n;
    int *key, *val;
};

static size_t hslot(int key, size_t cap)
{
    unsigned h = (unsigned)key; /* murmur3 finaliser */
    h ^= h >> 16, h *= 0x85ebca6bu, h ^= h >> 13, h *= 0xc2b2ae35u, h ^= h >> 16;
    return h & (cap - 1);
}

static void hash_free(MtFeHash *h)
{
    if (!h) return;
    free(h->key);
    free(h->val);
    free(h);
}

static int hash_grow(MtFeHash *h)
{
    size_t cap = h->cap ? 2 * h->cap : 1024;
    int *key = malloc(sizeof(int) * cap), *val = malloc(sizeof(int) * cap);
    if (!key || !val) {
        free(key);
        free(val);
        return -1;
    }
    for (size_t i = 0; i < cap; i++) key[i] = INT_MIN;
    for (size_t i = 0; i < h->cap; i++)
        if (h->key[i] != INT_MIN) {
            size_t s = hslot(h->key[i], cap);
            while (key[s] != INT_MIN) s = (s + 1) & (cap - 1);
            key[s] = h->key[i];
            val[s] = h->val[i];
        }
    free(h->key);
    free(h->val);
    h->key = key, h->val = val, h->cap = cap;
    return 0;
}

static int hash_get(const MtFeHash *h, int key)
{
    if (!h || !h->cap || key == INT_MIN) return -1;
    size_t s = hslot(key, h->cap);
    while (h->key[s] != INT_MIN) {
        if (h->key[s] == key) return h->val[s];
        s = (s + 1) & (h->cap - 1);
    }
    return -1;
}

/* Inserts key → val; returns 1 if the key was present already, -1 on no memory. */
static int hash_put(MtFeHash *h, int key, int val)
{
    if (4 * (h->n + 1) > 3 * h->cap && hash_grow(h)) return -1;
    size_t s = hslot(key, h->cap);
    while (h->key[s] != INT_MIN) {
        if (h->key[s] == key) return 1;
        s = (s + 1) & (h->cap - 1);
    }
    h->key[s] = key;
    h->val[s] = val;
    h->n++;
    return 0;
}

/* ---- growth ------------------------------------------------------------------- */

static int grow(void **p, int *cap, int need, size_t size)
{
    if (need <= *cap) return 0;
    int c = *cap ? *cap : 16;
    while (c < need) {
        if (c > INT_MAX / 2) return -1;
        c *= 2;
    }
    void *q = realloc(*p, size * (size_t)c);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}
#define GROW(m, arr, cap, need) grow((void **)&(m)->arr, &(m)->cap, (need), sizeof(*(m)->arr))

static int nomem(MtError *err)
{
    mt_error_set(err, MT_ERR_NOMEM, "", MT_("out of memory while building the finite-element model"));
    return -1;
}

static const int type_nodes[MT_FE_NTYPES] = {2, 3, 4, 4, 10, 8, 20, 4, 8, 8};
static const char *const type_names[MT_FE_NTYPES] = {"beam2", "tria3", "quad4", "tet4", "tet10",
                                                     "hex8",  "hex20", "mem4",  "mem8", "quad8"};

int mt_fe_type_nodes(int type) { return type >= 0 && type < MT_FE_NTYPES ? type_nodes[type] : 0; }
const char *mt_fe_type_name(int type) { return type >= 0 && type < MT_FE_NTYPES ? type_names[type] : "?"; }

MtFeModel *mt_fe_model_new(void)
{
    MtFeModel *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->nhash = calloc(1, sizeof(MtFeHash));
    m->ehash = calloc(1, sizeof(MtFeHash));
    if (!m->nhash || !m->ehash) {
        mt_fe_model_free(m);
        return NULL;
    }
    return m;
}

void mt_fe_model_free(MtFeModel *m)
{
    if (!m) return;
    free(m->nid);
    free(m->x);
    free(m->elem);
    free(m->conn);
    free(m->vec);
    free(m->mat);
    free(m->prop);
    free(m->mass);
    free(m->rigid);
    free(m->rnode);
    free(m->rw);
    free(m->set);
    free(m->setitem);
    free(m->spc);
    hash_free(m->nhash);
    hash_free(m->ehash);
    free(m);
}

int mt_fe_add_node(MtFeModel *m, int id, double x, double y, double z, MtError *err)
{
    if (!isfinite(x) || !isfinite(y) || !isfinite(z)) {
        mt_error_set(err, MT_ERR_SYNTAX, "", MT_("node %d: coordinates are not finite numbers"), id);
        return -1;
    }
    if (id == INT_MIN) {
        mt_error_set(err, MT_ERR_SYNTAX, "", MT_("node label %d is out of range"), id);
        return -1;
    }
    if (m->nnode + 1 > m->cnode) {
        if (m->cnode > INT_MAX / 8) return nomem(err);
        int c = m->cnode ? 2 * m->cnode : 256;
        int *nid = realloc(m->nid, sizeof(int) * (size_t)c);
        if (!nid) return nomem(err);
        m->nid = nid;
        double *x = realloc(m->x, sizeof(double) * 3 * (size_t)c);
        if (!x) return nomem(err);
        m->x = x;
        m->cnode = c;
    }
    int r = hash_put(m->nhash, id, m->nnode);
    if (r < 0) return nomem(err);
    if (r > 0) {
        mt_error_set(err, MT_ERR_MODEL, "", MT_("node %d is defined twice"), id);
        return -1;
    }
    m->nid[m->nnode] = id;
    m->x[3 * m->nnode] = x, m->x[3 * m->nnode + 1] = y, m->x[3 * m->nnode + 2] = z;
    return m->nnode++;
}

int mt_fe_add_elem(MtFeModel *m, int id, int type, int prop, const int *nodes, MtError *err)
{
    if (type < 0 || type >= MT_FE_NTYPES) {
        mt_error_set(err, MT_ERR_ARG, "", MT_("element %d: unknown element type"), id);
        return -1;
    }
    int nn = type_nodes[type];
    for (int a = 0; a < nn; a++) {
        if (nodes[a] < 0 || nodes[a] >= m->nnode) {
            mt_error_set(err, MT_ERR_MODEL, "", MT_("element %d refers to a node that does not exist"), id);
            return -1;
        }
        for (int b = 0; b < a; b++)
            if (nodes[b] == nodes[a]) {
                mt_error_set(err, MT_ERR_MODEL, "", MT_("element %d uses node %d twice"), id, m->nid[nodes[a]]);
                return -1;
            }
    }
    if (id == INT_MIN || m->nconn > INT_MAX - nn) {
        mt_error_set(err, MT_ERR_SYNTAX, "", MT_("element label %d is out of range"), id);
        return -1;
    }
    if (GROW(m, elem, celem, m->nelem + 1) || GROW(m, conn, cconn, m->nconn + nn)) return nomem(err);
    int r = hash_put(m->ehash, id, m->nelem);
    if (r < 0) return nomem(err);
    if (r > 0) {
        mt_error_set(err, MT_ERR_MODEL, "", MT_("element %d is defined twice"), id);
        return -1;
    }
    MtFeElem *el = &m->elem[m->nelem];
    el->id = id, el->type = type, el->prop = prop, el->conn = m->nconn, el->vidx = -1;
    memcpy(m->conn + m->nconn, nodes, sizeof(int) * (size_t)nn);
    m->nconn += nn;
    return m->nelem++;
}

int mt_fe_set_orientation(MtFeModel *m, int e, const double v[3], MtError *err)
{
    if (e < 0 || e >= m->nelem) return -1;
    if (GROW(m, vec, cvec, 3 * (m->nvec + 1))) return nomem(err);
    memcpy(m->vec + 3 * m->nvec, v, sizeof(double) * 3);
    m->elem[e].vidx = m->nvec++;
    return 0;
}

int mt_fe_add_material(MtFeModel *m, const char *name, double E, double nu, double rho, MtError *err)
{
    if (GROW(m, mat, cmat, m->nmat + 1)) return nomem(err);
    MtFeMaterial *t = &m->mat[m->nmat];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name ? name : "");
    t->E = E, t->nu = nu, t->rho = rho;
    return m->nmat++;
}

int mt_fe_add_prop(MtFeModel *m, const MtFeProp *p, MtError *err)
{
    if (GROW(m, prop, cprop, m->nprop + 1)) return nomem(err);
    m->prop[m->nprop] = *p;
    return m->nprop++;
}

int mt_fe_add_mass(MtFeModel *m, int id, int node, double mass, const double c[3], const double J[6], MtError *err)
{
    if (node < 0 || node >= m->nnode) {
        mt_error_set(err, MT_ERR_MODEL, "", MT_("mass %d refers to a node that does not exist"), id);
        return -1;
    }
    if (GROW(m, mass, cmass, m->nmass + 1)) return nomem(err);
    MtFeMass *t = &m->mass[m->nmass];
    memset(t, 0, sizeof *t);
    t->id = id, t->node = node, t->m = mass;
    if (c) memcpy(t->c, c, sizeof t->c);
    if (J) memcpy(t->J, J, sizeof t->J);
    return m->nmass++;
}

int mt_fe_add_rigid(MtFeModel *m, int id, int type, int ref, int cm, int n, const int *nodes, const double *w,
                    MtError *err)
{
    if (ref < 0 || ref >= m->nnode || n < 1) {
        mt_error_set(err, MT_ERR_MODEL, "", MT_("rigid element %d needs a reference node and at least one other node"),
                     id);
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (nodes[i] < 0 || nodes[i] >= m->nnode) {
            mt_error_set(err, MT_ERR_MODEL, "", MT_("rigid element %d refers to a node that does not exist"), id);
            return -1;
        }
    if (m->nrnode > INT_MAX - n) return nomem(err);
    if (GROW(m, rigid, crigid, m->nrigid + 1)) return nomem(err);
    if (m->nrnode + n > m->crnode) {
        int c = m->crnode ? m->crnode : 64;
        while (c < m->nrnode + n) {
            if (c > INT_MAX / 16) return nomem(err);
            c *= 2;
        }
        int *rn = realloc(m->rnode, sizeof(int) * (size_t)c);
        if (!rn) return nomem(err);
        m->rnode = rn;
        double *rw = realloc(m->rw, sizeof(double) * (size_t)c);
        if (!rw) return nomem(err);
        m->rw = rw;
        m->crnode = c;
    }
    MtFeRigid *r = &m->rigid[m->nrigid];
    r->id = id, r->type = type, r->ref = ref, r->cm = cm & MT_FE_ALL, r->first = m->nrnode, r->n = n;
    for (int i = 0; i < n; i++) {
        m->rnode[m->nrnode + i] = nodes[i];
        m->rw[m->nrnode + i] = w ? w[i] : 1.0;
    }
    m->nrnode += n;
    return m->nrigid++;
}

int mt_fe_add_spc(MtFeModel *m, int node, int mask, MtError *err)
{
    if (node < 0 || node >= m->nnode) {
        mt_error_set(err, MT_ERR_MODEL, "", MT_("a fixed support refers to a node that does not exist"));
        return -1;
    }
    if (GROW(m, spc, cspc, m->nspc + 1)) return nomem(err);
    m->spc[m->nspc].node = node;
    m->spc[m->nspc].mask = mask & MT_FE_ALL;
    return m->nspc++;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int mt_fe_add_set(MtFeModel *m, const char *name, int kind, int n, const int *items, MtError *err)
{
    int s = mt_fe_find_set(m, name, kind);
    if (s < 0) {
        if (GROW(m, set, cset, m->nset + 1)) return nomem(err);
        s = m->nset++;
        MtFeSet *t = &m->set[s];
        snprintf(t->name, sizeof t->name, "%s", name);
        t->kind = kind, t->first = m->nsetitem, t->n = 0;
    }
    MtFeSet *t = &m->set[s];
    if (n <= 0) return s;
    if (m->nsetitem > INT_MAX - n - t->n) return nomem(err);
    /* keep each set contiguous: move it to the end when it is not there */
    if (t->first + t->n != m->nsetitem) {
        if (GROW(m, setitem, csetitem, m->nsetitem + t->n + n)) return nomem(err);
        memmove(m->setitem + m->nsetitem, m->setitem + t->first, sizeof(int) * (size_t)t->n);
        t->first = m->nsetitem;
        m->nsetitem += t->n;
    }
    if (GROW(m, setitem, csetitem, m->nsetitem + n)) return nomem(err);
    memcpy(m->setitem + m->nsetitem, items, sizeof(int) * (size_t)n);
    m->nsetitem += n;
    t->n += n;
    int *it = m->setitem + t->first;
    qsort(it, (size_t)t->n, sizeof(int), cmp_int);
    int k = 0;
    for (int i = 0; i < t->n; i++)
        if (i == 0 || it[i] != it[k - 1]) it[k++] = it[i];
    m->nsetitem -= t->n - k;
    t->n = k;
    return s;
}

int mt_fe_progress(const MtFeProgress *pr, const char *stage, double fraction, MtError *err)
{
    if (!pr) return 0;
    int stop = pr->cancel && *pr->cancel;
    if (!stop && pr->fn) stop = pr->fn(pr->user, stage, fraction);
    if (stop) mt_error_set(err, MT_ERR_ARG, "", MT_("cancelled"));
    return stop;
}

int mt_fe_node_index(const MtFeModel *m, int id) { return hash_get(m->nhash, id); }
int mt_fe_elem_index(const MtFeModel *m, int id) { return hash_get(m->ehash, id); }

int mt_fe_find_set(const MtFeModel *m, const char *name, int kind)
{
    for (int i = 0; i < m->nset; i++)
        if ((kind < 0 || m->set[i].kind == kind) && !strcasecmp(m->set[i].name, name)) return i;
    return -1;
}

int mt_fe_find_material(const MtFeModel *m, const char *name)
{
    for (int i = 0; i < m->nmat; i++)
        if (!strcasecmp(m->mat[i].name, name)) return i;
    return -1;
}

int mt_fe_find_prop(const MtFeModel *m, const char *name)
{
    for (int i = 0; i < m->nprop; i++)
        if (!strcasecmp(m->prop[i].name, name)) return i;
    return -1;
}

static int pos_fin(double v) { return v > 0 && isfinite(v); }

MtStatus mt_fe_validate(const MtFeModel *m, MtError *err)
{
    for (int i = 0; i < m->nmat; i++) {
        const MtFeMaterial *t = &m->mat[i];
        if (!pos_fin(t->E) || !(t->nu > -1 && t->nu < 0.5) || !(t->rho >= 0 && isfinite(t->rho)))
            return mt_error_set(err, MT_ERR_MODEL, t->name,
                                MT_("material '%s': needs E > 0, -1 < nu < 0.5 and density >= 0 (got E = %g, nu = %g, "
                                    "density = %g)"),
                                t->name, t->E, t->nu, t->rho);
    }
    for (int i = 0; i < m->nprop; i++) {
        const MtFeProp *p = &m->prop[i];
        if (p->mat < 0 || p->mat >= m->nmat)
            return mt_error_set(err, MT_ERR_MODEL, p->name, MT_("property '%s' has no material"), p->name);
        if (p->kind == MT_FE_PROP_SHELL && !pos_fin(p->t))
            return mt_error_set(err, MT_ERR_MODEL, p->name, MT_("shell property '%s': thickness must be positive"),
                                p->name);
        if (p->kind == MT_FE_PROP_BEAM &&
            (!pos_fin(p->A) || !pos_fin(p->Iy) || !pos_fin(p->Iz) || !pos_fin(p->J) || !(p->ky >= 0) ||
             !(p->kz >= 0) || !isfinite(p->ky) || !isfinite(p->kz)))
            return mt_error_set(err, MT_ERR_MODEL, p->name,
                                MT_("beam property '%s': area, both second moments and the torsion constant must be "
                                    "positive (A = %g, Iy = %g, Iz = %g, J = %g)"),
                                p->name, p->A, p->Iy, p->Iz, p->J);
    }
    for (int e = 0; e < m->nelem; e++) {
        const MtFeElem *el = &m->elem[e];
        if (el->prop < 0 || el->prop >= m->nprop)
            return mt_error_set(err, MT_ERR_MODEL, "", MT_("element %d (%s) has no property (material, section)"),
                                el->id, mt_fe_type_name(el->type));
        int k = m->prop[el->prop].kind;
        int want = mt_fe_type_prop_kind(el->type);
        if (k != want)
            return mt_error_set(err, MT_ERR_MODEL, m->prop[el->prop].name,
                                MT_("element %d (%s): property '%s' is not a %s property"), el->id,
                                mt_fe_type_name(el->type), m->prop[el->prop].name,
                                want == MT_FE_PROP_BEAM ? "beam" : want == MT_FE_PROP_SHELL ? "shell" : "solid");
    }
    for (int i = 0; i < m->nmass; i++) {
        const MtFeMass *t = &m->mass[i];
        int ok = t->m >= 0 && isfinite(t->m);
        for (int k = 0; k < 3; k++) ok &= isfinite(t->c[k]) != 0;
        for (int k = 0; k < 6; k++) ok &= isfinite(t->J[k]) != 0;
        ok &= t->J[0] >= 0 && t->J[1] >= 0 && t->J[2] >= 0;
        if (!ok)
            return mt_error_set(err, MT_ERR_MODEL, "", MT_("lumped mass %d: mass, offset or inertia is invalid"),
                                t->id);
    }
    for (int i = 0; i < m->nrigid; i++) {
        const MtFeRigid *r = &m->rigid[i];
        double ws = 0;
        for (int k = 0; k < r->n; k++) {
            double w = m->rw[r->first + k];
            if (!(w >= 0) || !isfinite(w))
                return mt_error_set(err, MT_ERR_MODEL, "", MT_("rigid element %d: weights must be >= 0"), r->id);
            ws += w;
            if (m->rnode[r->first + k] == r->ref)
                return mt_error_set(err, MT_ERR_MODEL, "",
                                    MT_("rigid element %d lists its reference node %d among its other nodes"), r->id,
                                    m->nid[r->ref]);
        }
        if (!(ws > 0))
            return mt_error_set(err, MT_ERR_MODEL, "", MT_("rigid element %d: weights must not all be zero"), r->id);
    }
    return MT_OK;
}

MtStatus mt_fe_default_props(MtFeModel *m, double E, double nu, double rho, double t, MtError *err)
{
    int solid = -1, shell = -1;
    for (int e = 0; e < m->nelem; e++) {
        MtFeElem *el = &m->elem[e];
        if (el->prop >= 0) continue;
        int kind = mt_fe_type_prop_kind(el->type);
        if (kind == MT_FE_PROP_BEAM)
            return mt_error_set(err, MT_ERR_MODEL, "",
                                MT_("beam element %d has no section: give the section in the mesh file"), el->id);
        if (kind == MT_FE_PROP_SHELL && !(t > 0))
            return mt_error_set(err, MT_ERR_MODEL, "", MT_("shell element %d has no thickness: give one"), el->id);
        int *slot = kind == MT_FE_PROP_SOLID ? &solid : &shell;
        if (*slot < 0) {
            int mi = mt_fe_add_material(m, "default", E, nu, rho, err);
            if (mi < 0) return err ? err->code : MT_ERR_NOMEM;
            MtFeProp p = {0};
            snprintf(p.name, sizeof p.name, "%s", kind == MT_FE_PROP_SOLID ? "default-solid" : "default-shell");
            p.kind = kind, p.mat = mi, p.t = t;
            *slot = mt_fe_add_prop(m, &p, err);
            if (*slot < 0) return err ? err->code : MT_ERR_NOMEM;
        }
        el->prop = *slot;
    }
    return MT_OK;
}

int mt_fe_add_spider(MtFeModel *m, int type, int n, const int *nodes, const double *p, MtError *err)
{
    if (n < 1) {
        mt_error_set(err, MT_ERR_MODEL, "", MT_("a spider needs at least one node to hold"));
        return -1;
    }
    double c[3] = {0, 0, 0};
    if (p) memcpy(c, p, sizeof c);
    else {
        for (int i = 0; i < n; i++)
            for (int k = 0; k < 3; k++) c[k] += m->x[3 * nodes[i] + k] / n;
    }
    int id = 0;
    for (int i = 0; i < m->nnode; i++)
        if (m->nid[i] > id) id = m->nid[i];
    if (id == INT_MAX) {
        mt_error_set(err, MT_ERR_MODEL, "", MT_("no free node label left for the spider"));
        return -1;
    }
    int ref = mt_fe_add_node(m, id + 1, c[0], c[1], c[2], err);
    if (ref < 0) return -1;
    int rid = 0;
    for (int i = 0; i < m->nrigid; i++)
        if (m->rigid[i].id > rid) rid = m->rigid[i].id;
    for (int e = 0; e < m->nelem; e++)
        if (m->elem[e].id > rid) rid = m->elem[e].id;
    if (mt_fe_add_rigid(m, rid == INT_MAX ? 0 : rid + 1, type, ref, type == MT_FE_RBE3 ? MT_FE_ALL : 0, n, nodes,
                        NULL, err) < 0)
        return -1;
    return ref;
}

MtStatus mt_fe_mass_properties(const MtFeModel *m, double *mass, double s[3], double inertia[9], MtError *err)
{
    double M = 0, S[3] = {0}, J[9] = {0};
    double w[MT_FE_MAXNODE];
    for (int e = 0; e < m->nelem; e++) {
        double me, c[3], Ic[9];
        if (mt_fe_elem_inertia(m, e, &me, c, Ic, w, err)) return err ? err->code : MT_ERR_MODEL;
        M += me;
        double cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
        for (int i = 0; i < 3; i++) {
            S[i] += me * c[i];
            for (int j = 0; j < 3; j++) J[3 * i + j] += Ic[3 * i + j] + me * ((i == j) * cc - c[i] * c[j]);
        }
    }
    for (int k = 0; k < m->nmass; k++) {
        const MtFeMass *t = &m->mass[k];
        double c[3], Ic[9] = {t->J[0], t->J[3], t->J[5], t->J[3], t->J[1], t->J[4], t->J[5], t->J[4], t->J[2]};
        for (int i = 0; i < 3; i++) c[i] = m->x[3 * t->node + i] + t->c[i];
        double cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
        M += t->m;
        for (int i = 0; i < 3; i++) {
            S[i] += t->m * c[i];
            for (int j = 0; j < 3; j++) J[3 * i + j] += Ic[3 * i + j] + t->m * ((i == j) * cc - c[i] * c[j]);
        }
    }
    *mass = M;
    memcpy(s, S, sizeof S);
    memcpy(inertia, J, sizeof J);
    return MT_OK;
}
