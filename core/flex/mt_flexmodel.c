/* mt_flexmodel.c — flexible bodies in the editable model (motus/model.h): the
 * spec of each flexible body, the finite-element model built from a mesh file
 * or a generated beam, the reduction with the marker nodes as the interface
 * (core/flex), and the reduced data shared by copies of the model. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_flexmodel.h"
#include "mt_i18n.h"
#include "mt_math.h"
#include "motus/mesh.h"

MtFlexData *mt_flex_data_new(MtFlexBody *body)
{
    MtFlexData *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->refs = 1;
    d->body = body;
    d->free_body = mt_flex_body_free;
    return d;
}

int mt_flex_data_if_row(const MtFlexData *d, int label)
{
    for (int i = 0; i < d->body->nif; i++)
        if (d->body->if_id[i] == label) return i;
    return -1;
}

/* Second moments and torsion constant of a beam section (y, z local axes = body y, z). */
static int section_props(const MtFlexSpec *f, MtFeProp *p)
{
    double a = f->sec[0], b = f->sec[1];
    switch (f->section) {
    case MT_SECTION_RECT: { /* a along y, b along z */
        if (!(a > 0 && b > 0)) return -1;
        p->A = a * b;
        p->Iz = b * a * a * a / 12; /* bending in the x–y plane */
        p->Iy = a * b * b * b / 12;
        double lo = fmin(a, b), hi = fmax(a, b), r = lo / hi; /* St Venant, thin-side correction */
        p->J = hi * lo * lo * lo * (1.0 / 3 - 0.21 * r * (1 - r * r * r * r / 12));
        return 0;
    }
    case MT_SECTION_CIRCLE:
        if (!(a > 0)) return -1;
        p->A = M_PI * a * a / 4;
        p->Iy = p->Iz = M_PI * a * a * a * a / 64;
        p->J = 2 * p->Iy;
        return 0;
    case MT_SECTION_TUBE:
        if (!(a > 0 && b >= 0 && b < a)) return -1;
        p->A = M_PI * (a * a - b * b) / 4;
        p->Iy = p->Iz = M_PI * (a * a * a * a - b * b * b * b) / 64;
        p->J = 2 * p->Iy;
        return 0;
    }
    return -1;
}

static MtFeModel *beam_model(const MtFlexSpec *f, const char *name, MtError *err)
{
    if (!(f->length > 0) || f->elements < 1 || f->elements > 100000 || !(f->E > 0) || !(f->rho >= 0) ||
        !(f->nu > -1 && f->nu < 0.5)) {
        mt_error_set(err, MT_ERR_MODEL, name,
                     MT_("body '%s': a flexible beam needs length > 0, elements ≥ 1, E > 0, −1 < nu < 0.5 and rho ≥ 0"), name);
        return NULL;
    }
    MtFeModel *fe = mt_fe_model_new();
    if (!fe) goto nomem;
    MtFeProp p;
    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "beam");
    p.kind = MT_FE_PROP_BEAM;
    p.v[1] = 1;
    p.has_v = 1;
    if (section_props(f, &p)) {
        mt_fe_model_free(fe);
        mt_error_set(err, MT_ERR_MODEL, name, MT_("body '%s': the beam section sizes must be positive (tube: D > d)"), name);
        return NULL;
    }
    if ((p.mat = mt_fe_add_material(fe, "material", f->E, f->nu, f->rho, err)) < 0) goto fail;
    int prop = mt_fe_add_prop(fe, &p, err);
    if (prop < 0) goto fail;
    int n = f->elements;
    for (int i = 0; i <= n; i++)
        if (mt_fe_add_node(fe, i + 1, f->length * i / n, 0, 0, err) < 0) goto fail;
    for (int e = 0; e < n; e++) {
        int nodes[2] = {e, e + 1};
        if (mt_fe_add_elem(fe, e + 1, MT_FE_BEAM2, prop, nodes, err) < 0) goto fail;
    }
    return fe;
nomem:
    mt_error_set(err, MT_ERR_NOMEM, name, MT_("body '%s': out of memory"), name);
    return NULL;
fail: {
    char msg[sizeof err->msg];
    snprintf(msg, sizeof msg, "%s", err->msg);
    mt_error_set(err, MT_ERR_MODEL, name, MT_("body '%s': cannot build its beam: %s"), name, msg);
    mt_fe_model_free(fe);
    return NULL;
}
}

static MtFeModel *mesh_model(const MtFlexSpec *f, const char *name, const char *basedir, MtError *err)
{
    /* the whole path, however long (a fixed buffer cut it) */
    int rel = f->file[0] != '/' && basedir && basedir[0];
    size_t n = (rel ? strlen(basedir) + 1 : 0) + strlen(f->file) + 1;
    char *path = malloc(n);
    if (!path) {
        mt_error_set(err, MT_ERR_NOMEM, name, "%s", MT_("out of memory"));
        return NULL;
    }
    snprintf(path, n, "%s%s%s", rel ? basedir : "", rel ? "/" : "", f->file);
    MtError e2 = {0};
    MtFeModel *fe = mt_mesh_read(path, &e2);
    free(path);
    if (!fe) {
        mt_error_set(err, e2.code ? e2.code : MT_ERR_IO, name, MT_("body '%s': its mesh cannot be read: %s"), name, e2.msg);
        return NULL;
    }
    int missing = 0;
    for (int e = 0; e < fe->nelem; e++) missing |= fe->elem[e].prop < 0;
    if (missing) {
        if (!(f->E > 0)) {
            mt_fe_model_free(fe);
            mt_error_set(err, MT_ERR_MODEL, name,
                         MT_("body '%s': the mesh has elements without a material; give 'E', 'nu' and 'rho' on the "
                             "'flexible' line"), name);
            return NULL;
        }
        if (mt_fe_default_props(fe, f->E, f->nu, f->rho, f->thickness, &e2)) {
            mt_fe_model_free(fe);
            mt_error_set(err, MT_ERR_MODEL, name, MT_("body '%s': %s"), name, e2.msg);
            return NULL;
        }
    }
    return fe;
}

/* Nearest node to p, and its distance. */
static int nearest_node(const MtFeModel *fe, const double *p, double *dist)
{
    int best = -1;
    double bd = INFINITY;
    for (int i = 0; i < fe->nnode; i++) {
        double d[3];
        mt_v3_sub(d, fe->x + 3 * i, p);
        double dd = mt_v3_dot(d, d);
        if (dd < bd) { bd = dd; best = i; }
    }
    *dist = sqrt(bd);
    return best;
}

static double model_size(const MtFeModel *fe)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < fe->nnode; i++)
        for (int c = 0; c < 3; c++) {
            lo[c] = fmin(lo[c], fe->x[3 * i + c]);
            hi[c] = fmax(hi[c], fe->x[3 * i + c]);
        }
    double d[3] = {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
    return fe->nnode ? mt_v3_norm(d) : 1;
}

/* Markers that loads or constraints act on; the others (read by sensors
 * only) need no interface node: they take their node's motion from the
 * surface data of the reduction. */
int mt_model_marker_loaded(const MtModel *m, int k)
{
    for (int j = 0; j < m->njoint; j++)
        if (m->joint[j].mi == k || m->joint[j].mj == k) return 1;
    for (int j = 0; j < m->ndriver; j++)
        if (m->driver[j].joint < 0 && (m->driver[j].mi == k || m->driver[j].mj == k)) return 1;
    for (int j = 0; j < m->nspring; j++)
        if (m->spring[j].mi == k || m->spring[j].mj == k) return 1;
    for (int j = 0; j < m->nforce; j++)
        if (m->force[j].mi == k || m->force[j].mj == k) return 1;
    return 0;
}

static int marker_active(const MtModel *m, int k) { return mt_model_marker_loaded(m, k) || m->marker[k].spider > 0; }

/* The interface: the node of every marker of the body that a load or a
 * constraint acts on (spiders created); the nodes of the others are recorded. */
static MtStatus attach_markers(MtModel *m, const MtFlexSpec *f, MtFeModel *fe, MtFlexData *d, int **ifn, int *nif,
                               MtError *err)
{
    const char *name = m->body[f->body].name;
    int cnt = 0;
    for (int k = 0; k < m->nmarker; k++) cnt += m->marker[k].body == f->body;
    d->mname = calloc((size_t)cnt + 1, sizeof *d->mname);
    d->mnode = calloc((size_t)cnt + 1, sizeof *d->mnode);
    *ifn = malloc(sizeof(int) * ((size_t)cnt + 1));
    if (!d->mname || !d->mnode || !*ifn) return mt_error_set(err, MT_ERR_NOMEM, name, MT_("body '%s': out of memory"), name);
    double tol = 1e-6 * model_size(fe);
    for (int k = 0; k < m->nmarker; k++) {
        MtMarkerSpec *mk = &m->marker[k];
        if (mk->body != f->body) continue;
        int idx;
        if (mk->spider > 0) {
            int *near = malloc(sizeof(int) * ((size_t)fe->nnode + 1)), nn = 0;
            if (!near) return mt_error_set(err, MT_ERR_NOMEM, name, MT_("body '%s': out of memory"), name);
            for (int i = 0; i < fe->nnode; i++) {
                double dd[3];
                mt_v3_sub(dd, fe->x + 3 * i, mk->pos);
                if (mt_v3_norm(dd) <= mk->spider) near[nn++] = i;
            }
            MtError e2 = {0};
            idx = nn ? mt_fe_add_spider(fe, MT_FE_RBE2, nn, near, mk->pos, &e2) : -1;
            free(near);
            if (idx < 0)
                return mt_error_set(err, MT_ERR_MODEL, name,
                                    MT_("marker '%s.%s': no node of the flexible body lies within the spider radius "
                                        "%.6g m of the marker; enlarge 'spider' or move the marker"),
                                    name, mk->name, mk->spider);
        } else if (mk->node > 0) {
            idx = mt_fe_node_index(fe, mk->node);
            if (idx < 0)
                return mt_error_set(err, MT_ERR_MODEL, name,
                                    MT_("marker '%s.%s': the flexible body has no node %d"), name, mk->name, mk->node);
            mt_v3_copy(mk->pos, fe->x + 3 * idx); /* the marker rides on the node */
        } else {
            double dist;
            idx = nearest_node(fe, mk->pos, &dist);
            if (idx < 0 || dist > tol)
                return mt_error_set(err, MT_ERR_MODEL, name,
                                    MT_("marker '%s.%s': it is not at a node of the flexible body (nearest %.6g m "
                                        "away); write 'node N' or 'spider RADIUS' on the marker line"),
                                    name, mk->name, idx < 0 ? 0.0 : dist);
        }
        snprintf(d->mname[d->nmarker], sizeof d->mname[0], "%s", mk->name);
        d->mnode[d->nmarker++] = fe->nid[idx];
        if (!marker_active(m, k)) continue;
        int dup = 0;
        for (int i = 0; i < *nif; i++) dup |= (*ifn)[i] == idx;
        if (!dup) (*ifn)[(*nif)++] = idx;
    }
    return MT_OK;
}

static MtStatus reduce_one(MtModel *m, int spec, const char *basedir, const MtFeProgress *pr, MtError *err)
{
    MtFlexSpec *f = &m->flex[spec];
    MtBodySpec *b = &m->body[f->body];
    const char *name = b->name;
    if (!(f->modes >= 0 && f->modes <= 500) || !(f->zeta >= 0) || !(f->alpha >= 0) || !(f->beta >= 0))
        return mt_error_set(err, MT_ERR_MODEL, name,
                            MT_("body '%s': flexible settings out of range (0 ≤ modes ≤ 500, damping ≥ 0)"), name);
    if (f->modes != floor(f->modes)) /* an expression of parameters may give any number */
        return mt_error_set(err, MT_ERR_MODEL, name, MT_("body '%s': modes must be a whole number, not %g"), name, f->modes);
    MtFeModel *fe = f->source == MT_FLEX_BEAM ? beam_model(f, name, err) : mesh_model(f, name, basedir, err);
    if (!fe) return err ? err->code : MT_ERR_MODEL;
    MtError e3 = {0};
    if (f->fix[0] && mt_fe_fix_spec(fe, f->fix, &e3) < 0) { /* supports of the line: NODES[:DIGITS]; … */
        mt_fe_model_free(fe);
        return mt_error_set(err, MT_ERR_MODEL, name, MT_("body '%s': fix {%s}: %s"), name, f->fix, e3.msg);
    }
    MtFlexData *d = mt_flex_data_new(NULL);
    int *ifn = NULL, nif = 0;
    MtStatus rc = MT_OK;
    if (!d) { rc = mt_error_set(err, MT_ERR_NOMEM, name, MT_("body '%s': out of memory"), name); goto done; }
    if ((rc = attach_markers(m, f, fe, d, &ifn, &nif, err))) goto done;
    MtReduceOptions o;
    mt_reduce_options_init(&o);
    if (pr) o.progress = *pr;
    o.method = nif == 0 && (f->method == MT_REDUCE_CB || f->method == MT_REDUCE_GUYAN) ? MT_REDUCE_MODES : f->method;
    o.nmodes = (int)f->modes;
    o.nif = nif;
    o.ifnodes = ifn;
    o.zeta = f->zeta;
    o.stiffening = f->stiffening;
    /* 'method free modes 0' is asked for: no elastic coordinate, the body moves rigidly with the FE model's mass
     * properties (the rigid end of a study over the number of modes). cb or guyan without an interface fall back to
     * free modes and keep at least one. */
    if (o.method == MT_REDUCE_MODES && o.nmodes == 0 && f->method != MT_REDUCE_MODES) o.nmodes = 1;
    MtError e2 = {0};
    d->body = mt_flex_reduce(fe, &o, NULL, &e2);
    if (!d->body) {
        rc = mt_error_set(err, e2.code ? e2.code : MT_ERR_MODEL, name, MT_("body '%s': the reduction failed: %s"), name,
                          e2.msg);
        goto done;
    }
    d->body->alpha = f->alpha;
    d->body->beta = f->beta;
    if (!(d->body->mass > 0)) {
        rc = mt_error_set(err, MT_ERR_MODEL, name, MT_("body '%s': its finite-element model has no mass (density 0?)"), name);
        goto done;
    }
    mt_model_flex_attach(m, spec, d);
    d = NULL;
done:
    mt_flex_data_unref(d);
    free(ifn);
    mt_fe_model_free(fe);
    return rc;
}

void mt_model_flex_attach(MtModel *m, int spec, MtFlexData *d)
{
    MtFlexSpec *f = &m->flex[spec];
    MtBodySpec *b = &m->body[f->body];
    mt_flex_data_unref(f->data);
    f->data = d;
    /* mass properties from the FE model (its axes are the body's) */
    const MtFlexBody *fb = d->body;
    double c[3];
    mt_v3_scale(c, fb->s0, 1 / fb->mass);
    double J[9];
    memcpy(J, fb->I0, sizeof J);
    double cc = mt_v3_dot(c, c); /* parallel axes: I_c = I_0 − m (|c|² 1 − c cᵀ) */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) J[3 * i + j] -= fb->mass * ((i == j) * cc - c[i] * c[j]);
    b->mass = fb->mass;
    mt_v3_copy(b->com, c);
    b->inertia[0] = J[0]; b->inertia[1] = J[4]; b->inertia[2] = J[8];
    b->inertia[3] = J[1]; b->inertia[4] = J[2]; b->inertia[5] = J[5];
    b->density = 0;
}

/* The reduction of spec i no longer fits the body's markers. */
static int stale(const MtModel *m, int i)
{
    const MtFlexSpec *f = &m->flex[i];
    const MtFlexData *d = f->data;
    if (!d) return 1;
    if ((f->stiffening != 0) != (d->body->Kg != NULL)) return 1; /* stiffening turned on or off */
    if (f->stiffening && !d->body->Kw) return 1;                    /* reduced before interface loads stiffened */
    int n = 0;
    for (int k = 0; k < m->nmarker; k++) {
        const MtMarkerSpec *mk = &m->marker[k];
        if (mk->body != f->body) continue;
        n++;
        int label = mt_flex_data_marker_node(d, mk->name);
        if (label <= 0 || (mk->node > 0 && mk->node != label)) return 1;
        if (marker_active(m, k) && mt_flex_data_if_row(d, label) < 0) return 1;
    }
    return n != d->nmarker;
}

MtStatus mt_model_flex_refresh(MtModel *m, MtError *err) { return mt_model_flex_refresh_progress(m, NULL, err); }

MtStatus mt_model_flex_refresh_progress(MtModel *m, const MtFeProgress *pr, MtError *err)
{
    for (int i = 0; i < m->nflex; i++)
        if (m->flex[i].data && stale(m, i)) mt_model_flex_invalidate(m, i);
    return mt_model_reduce_flex_progress(m, NULL, pr, err);
}

MtStatus mt_model_reduce_flex(MtModel *m, const char *basedir, MtError *err)
{
    return mt_model_reduce_flex_progress(m, basedir, NULL, err);
}

MtStatus mt_model_reduce_flex_progress(MtModel *m, const char *basedir, const MtFeProgress *pr, MtError *err)
{
    if (!basedir && m->basedir[0]) basedir = m->basedir;
    for (int i = 0; i < m->nflex; i++) {
        if (m->flex[i].data) continue;
        MtStatus rc = reduce_one(m, i, basedir, pr, err);
        if (rc) return rc;
    }
    return MT_OK;
}

/* ---- reading a model with its flexible bodies reduced --------------------------- */

/* Reduces what m's flexible bodies need; an error is prefixed with the source, as the reader's are. */
static MtModel *reduced(MtModel *m, const char *source_name, MtError *err)
{
    if (!m || !m->nflex || mt_model_reduce_flex(m, NULL, err) == MT_OK) return m;
    char msg[512], entity[sizeof err->entity];
    snprintf(msg, sizeof msg, "%s", err->msg);
    snprintf(entity, sizeof entity, "%s", err->entity);
    mt_error_set(err, MT_ERR_MODEL, entity, "%s: %s", source_name ? source_name : "<text>", msg);
    mt_model_free(m);
    return NULL;
}

MtModel *mt_model_parse_ex(const char *text, const char *source_name, int reduce, MtError *err)
{
    MtError local;
    if (!err) err = &local;
    MtModel *m = mt_model_parse_text(text, source_name, err);
    return reduce ? reduced(m, source_name, err) : m;
}

MtModel *mt_model_parse(const char *text, const char *source_name, MtError *err)
{
    return mt_model_parse_ex(text, source_name, 1, err);
}

MtModel *mt_model_load(const char *path, MtError *err)
{
    MtError local;
    if (!err) err = &local;
    return reduced(mt_model_load_text(path, err), path, err);
}

const MtFlexBody *mt_model_flex_body(const MtModel *m, int i)
{
    return i >= 0 && i < m->nflex && m->flex[i].data ? m->flex[i].data->body : NULL;
}
