/* mt_model.c — building, looking up and validating the editable model. Declared in motus/model.h. */
#include "motus/model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mt_expr.h"
#include "mt_flexdata.h"
#include "mt_i18n.h"
#include "mt_math.h"
#include "motus/study.h"

static const char *const joint_names[MT_JOINT_NTYPES] = {
    "spherical", "revolute", "prismatic", "cylindrical", "universal", "fixed",
    "planar", "screw", "inline", "inplane", "distance", "rolling", "ball"};
static const int joint_rows[MT_JOINT_NTYPES] = {3, 5, 5, 4, 4, 6, 3, 5, 2, 1, 1, 3, 3};
static const char *const coord_names[MT_COORD_NONE] = {"angle", "disp", "x", "y"};
static const char *const comp_names[6] = {"x", "y", "z", "ax", "ay", "az"};

const char *mt_coord_name(MtCoordKind c) { return (c >= 0 && c < MT_COORD_NONE) ? coord_names[c] : "?"; }
int mt_coord_from_name(const char *s, MtCoordKind *c)
{
    for (int i = 0; i < MT_COORD_NONE; i++)
        if (!strcmp(s, coord_names[i])) { *c = (MtCoordKind)i; return 0; }
    return -1;
}
const char *mt_comp_name(MtComp c) { return (c >= 0 && c < 6) ? comp_names[c] : "?"; }
int mt_comp_from_name(const char *s, MtComp *c)
{
    for (int i = 0; i < 6; i++)
        if (!strcmp(s, comp_names[i])) { *c = (MtComp)i; return 0; }
    return -1;
}

int mt_joint_has_coord(MtJointType t, MtCoordKind c)
{
    switch (c) {
    case MT_COORD_ANGLE:
        return t == MT_JOINT_REVOLUTE || t == MT_JOINT_CYLINDRICAL || t == MT_JOINT_SCREW || t == MT_JOINT_PLANAR;
    case MT_COORD_DISP:
        return t == MT_JOINT_PRISMATIC || t == MT_JOINT_CYLINDRICAL || t == MT_JOINT_SCREW || t == MT_JOINT_INLINE;
    case MT_COORD_X:
    case MT_COORD_Y: return t == MT_JOINT_PLANAR || t == MT_JOINT_INPLANE;
    default: return 0;
    }
}

MtCoordKind mt_joint_default_coord(MtJointType t)
{
    for (int c = 0; c < MT_COORD_NONE; c++)
        if (mt_joint_has_coord(t, (MtCoordKind)c)) return (MtCoordKind)c;
    return MT_COORD_NONE;
}

int mt_joint_rows(MtJointType t) { return (t >= 0 && t < MT_JOINT_NTYPES) ? joint_rows[t] : 0; }
const char *mt_joint_type_name(MtJointType t) { return (t >= 0 && t < MT_JOINT_NTYPES) ? joint_names[t] : "?"; }
const char *mt_method_name(MtMethod m) { return (m >= 0 && m < MT_METHOD_NMETHODS) ? mt_method_names[m] : "?"; }

int mt_joint_type_from_name(const char *s, MtJointType *t)
{
    for (int i = 0; i < MT_JOINT_NTYPES; i++)
        if (!strcmp(s, joint_names[i])) { *t = (MtJointType)i; return 0; }
    return -1;
}

int mt_method_from_name(const char *s, MtMethod *m)
{
    int c, v = mt_schema_enum_find(mt_schema_find(MT_ENT_SOLVER, "method", &c), s);
    if (v < 0) return -1;
    *m = (MtMethod)v;
    return 0;
}

void mt_solver_defaults(MtSolverSpec *s)
{
    memset(s, 0, sizeof *s);
    mt_schema_defaults(MT_ENT_SOLVER, s);
}

MtModel *mt_model_new(void)
{
    MtModel *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    mt_solver_defaults(&m->solver);
    return m;
}

void mt_model_free(MtModel *m)
{
    if (!m) return;
    free(m->body);
    free(m->marker);
    for (int d = 0; d < m->ndriver; d++) free(m->driver[d].tab);
    free(m->couple);
    free(m->initial);
    free(m->param);
    free(m->binding);
    free(m->unit);
    free(m->shape);
    free(m->force);
    free(m->sensor);
    free(m->control);
    free(m->event);
    mt_model_free_tables(m);
    mt_study_free(m->study);
    free(m->joint);
    free(m->driver);
    free(m->spring);
    for (int i = 0; i < m->nflex; i++) mt_flex_data_unref(m->flex[i].data);
    free(m->flex);
    free(m);
}

/* Grows an array of n items to hold one more. */
static int grow(void **arr, int *cap, int n, size_t size)
{
    if (n < *cap) return 0;
    int nc = *cap ? 2 * *cap : 8;
    void *p = realloc(*arr, (size_t)nc * size);
    if (!p) return -1;
    *arr = p;
    *cap = nc;
    return 0;
}

/* The kinds of named entity; each message is written out whole for every kind
 * so that translators never have to assemble "body"/"joint" into a sentence. */
typedef enum { KIND_BODY, KIND_MARKER, KIND_JOINT, KIND_DRIVER, KIND_SPRING, KIND_COUPLE } Kind;

static const char *const msg_empty_name[] = {
    MT_N_("a body has an empty name: give every body a name"),
    MT_N_("a marker has an empty name: give every marker a name"),
    MT_N_("a joint has an empty name: give every joint a name"),
    MT_N_("a driver has an empty name: give every driver a name"),
    MT_N_("a spring has an empty name: give every spring a name"),
    MT_N_("a gear, rack or coupler has an empty name: give it a name")};
static const char *const msg_long_name[] = {
    MT_N_("body '%s': name longer than %d characters"),
    MT_N_("marker '%s': name longer than %d characters"),
    MT_N_("joint '%s': name longer than %d characters"),
    MT_N_("driver '%s': name longer than %d characters"),
    MT_N_("spring '%s': name longer than %d characters"),
    MT_N_("coupling '%s': name longer than %d characters")};
static const char *const msg_bad_char[] = {
    MT_N_("body '%s': names may not contain '.', '#', quotes or spaces"),
    MT_N_("marker '%s': names may not contain '.', '#', quotes or spaces"),
    MT_N_("joint '%s': names may not contain '.', '#', quotes or spaces"),
    MT_N_("driver '%s': names may not contain '.', '#', quotes or spaces"),
    MT_N_("spring '%s': names may not contain '.', '#', quotes or spaces"),
    MT_N_("coupling '%s': names may not contain '.', '#', quotes or spaces")};
static const char *const msg_name_taken[] = {
    NULL, NULL, /* bodies and markers have namespaces of their own */
    MT_N_("joint '%s': a joint, driver or spring of that name already exists"),
    MT_N_("driver '%s': a joint, driver or spring of that name already exists"),
    MT_N_("spring '%s': a joint, driver or spring of that name already exists"),
    MT_N_("coupling '%s': a joint, driver, spring or coupling of that name already exists")};

static int check_name(const char *name, Kind kind, MtError *err)
{
    if (!name || !name[0]) {
        mt_error_set(err, MT_ERR_MODEL, "", "%s", MT_(msg_empty_name[kind]));
        return -1;
    }
    if (strlen(name) >= MT_NAME_MAX) { /* its first 40 bytes in the message, so the reason fits */
        char shown[64];
        snprintf(shown, sizeof shown, "%.*s…", (int)mt_utf8_prefix(name, 40), name);
        mt_error_set(err, MT_ERR_MODEL, shown, MT_(msg_long_name[kind]), shown, MT_NAME_MAX - 1);
        return -1;
    }
    for (const char *c = name; *c; c++)
        if (*c == '.' || *c == ' ' || *c == '\t' || *c == '#' || *c == '"') {
            mt_error_set(err, MT_ERR_MODEL, name, MT_(msg_bad_char[kind]), name);
            return -1;
        }
    return 0;
}

int mt_model_find_body(const MtModel *m, const char *name)
{
    for (int i = 0; i < m->nbody; i++)
        if (!strcmp(m->body[i].name, name)) return i;
    return -1;
}

int mt_model_body_ref(const MtModel *m, const char *name, int *idx)
{
    if (!strcmp(name, "ground")) { *idx = MT_GROUND; return 0; }
    int i = mt_model_find_body(m, name);
    if (i < 0) return -1;
    *idx = i;
    return 0;
}

const char *mt_model_body_name(const MtModel *m, int body)
{
    return body == MT_GROUND ? "ground" : (body >= 0 && body < m->nbody ? m->body[body].name : "?");
}

const char *mt_model_marker_ref(const MtModel *m, int marker, char *buf, int len)
{
    if (marker < 0 || marker >= m->nmarker) snprintf(buf, (size_t)len, "?");
    else snprintf(buf, (size_t)len, "%s.%s", mt_model_body_name(m, m->marker[marker].body), m->marker[marker].name);
    return buf;
}

int mt_model_find_marker(const MtModel *m, const char *ref)
{
    const char *dot = strchr(ref, '.');
    if (!dot) return -1;
    char bname[MT_NAME_MAX];
    size_t n = (size_t)(dot - ref);
    if (n >= sizeof bname) return -1;
    memcpy(bname, ref, n);
    bname[n] = 0;
    int b;
    if (mt_model_body_ref(m, bname, &b)) return -1;
    for (int i = 0; i < m->nmarker; i++)
        if (m->marker[i].body == b && !strcmp(m->marker[i].name, dot + 1)) return i;
    return -1;
}

int mt_model_find_joint(const MtModel *m, const char *name)
{
    for (int i = 0; i < m->njoint; i++)
        if (!strcmp(m->joint[i].name, name)) return i;
    return -1;
}

/* Joints, drivers and springs share one namespace (they all become result
 * columns); bodies have their own, and "ground" is reserved. */
static int name_taken(const MtModel *m, const char *name)
{
    if (mt_model_find_joint(m, name) >= 0) return 1;
    for (int i = 0; i < m->ndriver; i++)
        if (!strcmp(m->driver[i].name, name)) return 1;
    for (int i = 0; i < m->nspring; i++)
        if (!strcmp(m->spring[i].name, name)) return 1;
    for (int i = 0; i < m->ncouple; i++)
        if (!strcmp(m->couple[i].name, name)) return 1;
    return 0;
}

int mt_model_add_body(MtModel *m, const char *name, MtError *err)
{
    if (check_name(name, KIND_BODY, err)) return -1;
    if (!strcmp(name, "ground") || mt_model_find_body(m, name) >= 0) {
        mt_error_set(err, MT_ERR_MODEL, name, MT_("body '%s': a body of that name already exists; choose another name"), name);
        return -1;
    }
    if (grow((void **)&m->body, &m->cap_body, m->nbody, sizeof *m->body)) {
        mt_error_set(err, MT_ERR_NOMEM, name, MT_("body '%s': out of memory"), name);
        return -1;
    }
    MtBodySpec *b = &m->body[m->nbody];
    memset(b, 0, sizeof *b);
    snprintf(b->name, sizeof b->name, "%s", name);
    b->mass = 1.0;
    b->inertia[0] = b->inertia[1] = b->inertia[2] = 1.0;
    mt_m3_identity(b->rot);
    return m->nbody++;
}

int mt_model_add_marker(MtModel *m, int body, const char *name, const double pos[3], const double rot[9],
                        MtError *err)
{
    if (check_name(name, KIND_MARKER, err)) return -1;
    if (body < MT_GROUND || body >= m->nbody) {
        mt_error_set(err, MT_ERR_ARG, name, MT_("marker '%s': no body number %d"), name, body);
        return -1;
    }
    for (int i = 0; i < m->nmarker; i++)
        if (m->marker[i].body == body && !strcmp(m->marker[i].name, name)) {
            mt_error_set(err, MT_ERR_MODEL, name, MT_("marker '%s.%s' is defined twice"), mt_model_body_name(m, body), name);
            return -1;
        }
    if (grow((void **)&m->marker, &m->cap_marker, m->nmarker, sizeof *m->marker)) {
        mt_error_set(err, MT_ERR_NOMEM, name, MT_("marker '%s': out of memory"), name);
        return -1;
    }
    MtMarkerSpec *k = &m->marker[m->nmarker];
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", name);
    k->body = body;
    if (pos) mt_v3_copy(k->pos, pos);
    if (rot) memcpy(k->rot, rot, sizeof k->rot);
    else mt_m3_identity(k->rot);
    return m->nmarker++;
}

static int entity_check(MtModel *m, const char *name, Kind kind, MtError *err)
{
    if (check_name(name, kind, err)) return -1;
    if (name_taken(m, name)) {
        mt_error_set(err, MT_ERR_MODEL, name, MT_(msg_name_taken[kind]), name);
        return -1;
    }
    return 0;
}

int mt_model_add_joint(MtModel *m, const char *name, MtJointType type, int mi, int mj, MtError *err)
{
    if (entity_check(m, name, KIND_JOINT, err)) return -1;
    if (type < 0 || type >= MT_JOINT_NTYPES || mi < 0 || mi >= m->nmarker || mj < 0 || mj >= m->nmarker) {
        mt_error_set(err, MT_ERR_ARG, name, MT_("joint '%s': bad type or marker"), name);
        return -1;
    }
    if (grow((void **)&m->joint, &m->cap_joint, m->njoint, sizeof *m->joint)) {
        mt_error_set(err, MT_ERR_NOMEM, name, MT_("joint '%s': out of memory"), name);
        return -1;
    }
    MtJointSpec *j = &m->joint[m->njoint];
    memset(j, 0, sizeof *j);
    snprintf(j->name, sizeof j->name, "%s", name);
    j->type = type;
    j->mi = mi;
    j->mj = mj;
    return m->njoint++;
}

int mt_model_add_driver(MtModel *m, const char *name, int joint, MtDriverKind kind, int ncoef, const double *coef,
                        MtError *err)
{
    if (entity_check(m, name, KIND_DRIVER, err)) return -1;
    if (joint < -1 || joint >= m->njoint || ncoef < 1 || ncoef > MT_POLY_MAX || (kind == MT_DRIVER_RATE && ncoef != 2)) {
        mt_error_set(err, MT_ERR_ARG, name, MT_("driver '%s': bad joint or between 1 and %d coefficients needed"), name,
                     MT_POLY_MAX);
        return -1;
    }
    if (grow((void **)&m->driver, &m->cap_driver, m->ndriver, sizeof *m->driver)) {
        mt_error_set(err, MT_ERR_NOMEM, name, MT_("driver '%s': out of memory"), name);
        return -1;
    }
    MtDriverSpec *d = &m->driver[m->ndriver];
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", name);
    d->joint = joint;
    d->coord = joint >= 0 ? mt_joint_default_coord(m->joint[joint].type) : MT_COORD_NONE;
    d->mi = d->mj = -1;
    d->level = MT_LEVEL_DISP;
    d->kind = kind;
    d->ncoef = ncoef;
    memcpy(d->coef, coef, (size_t)ncoef * sizeof *coef);
    return m->ndriver++;
}

MtStatus mt_model_driver_set_expr(MtModel *m, int driver, const char *src, MtError *err)
{
    MtDriverSpec *d = &m->driver[driver];
    const char *s = src;
    while (*s == ' ' || *s == '\t') s++;
    if (!*s) return mt_error_set(err, MT_ERR_ARG, d->name, MT_("driver '%s': the law's expression is empty"), d->name);
    if (strlen(src) >= sizeof d->expr)
        return mt_error_set(err, MT_ERR_ARG, d->name, MT_("driver '%s': the law's expression is longer than %d characters"),
                            d->name, (int)sizeof d->expr - 1);
    free(d->tab);
    d->tab = NULL;
    d->ntab = 0;
    memset(d->coef, 0, sizeof d->coef);
    d->ncoef = 1;
    snprintf(d->expr, sizeof d->expr, "%s", src);
    d->kind = MT_DRIVER_EXPR;
    return MT_OK;
}

int mt_model_driver_set_table(MtModel *m, int driver, int n, const double *pts, MtError *err)
{
    MtDriverSpec *d = &m->driver[driver];
    double *t = n > 0 ? malloc(sizeof(double) * 2 * (size_t)n) : NULL;
    if (n > 0 && !t) return mt_error_set(err, MT_ERR_NOMEM, d->name, MT_("driver '%s': out of memory"), d->name);
    if (n > 0) memcpy(t, pts, sizeof(double) * 2 * (size_t)n);
    free(d->tab);
    d->tab = t;
    d->ntab = n;
    d->kind = MT_DRIVER_TABLE;
    return MT_OK;
}

int mt_model_add_initial(MtModel *m, int joint, MtCoordKind coord, int has_value, double value, int has_rate,
                         double rate, MtError *err)
{
    if (joint < 0 || joint >= m->njoint) {
        mt_error_set(err, MT_ERR_ARG, "", "%s", MT_("initial condition: bad joint"));
        return -1;
    }
    if (grow((void **)&m->initial, &m->cap_initial, m->ninitial, sizeof *m->initial)) {
        mt_error_set(err, MT_ERR_NOMEM, m->joint[joint].name, "%s", MT_("out of memory"));
        return -1;
    }
    m->initial[m->ninitial] = (MtInitialSpec){joint, coord, value, has_value, has_rate, rate, -1, 0};
    return m->ninitial++;
}

int mt_model_add_initial_mode(MtModel *m, int body, int mode, int has_value, double value, int has_rate, double rate,
                              MtError *err)
{
    if (body < 0 || body >= m->nbody || mode < 1) {
        mt_error_set(err, MT_ERR_ARG, "", "%s", MT_("initial condition: bad body or modal coordinate"));
        return -1;
    }
    if (grow((void **)&m->initial, &m->cap_initial, m->ninitial, sizeof *m->initial)) {
        mt_error_set(err, MT_ERR_NOMEM, m->body[body].name, "%s", MT_("out of memory"));
        return -1;
    }
    m->initial[m->ninitial] = (MtInitialSpec){-1, MT_COORD_NONE, value, has_value, has_rate, rate, body, mode};
    return m->ninitial++;
}

int mt_model_add_couple(MtModel *m, const char *name, MtCoupleKind kind, int n, const int *joint, const MtCoordKind *coord,
                        const double *coef, MtError *err)
{
    if (entity_check(m, name, KIND_COUPLE, err)) return -1;
    if (n < 2 || n > 3) {
        mt_error_set(err, MT_ERR_ARG, name, MT_("coupling '%s': it needs two or three joints"), name);
        return -1;
    }
    for (int k = 0; k < n; k++)
        if (joint[k] < 0 || joint[k] >= m->njoint) {
            mt_error_set(err, MT_ERR_ARG, name, MT_("coupling '%s': bad joint"), name);
            return -1;
        }
    if (grow((void **)&m->couple, &m->cap_couple, m->ncouple, sizeof *m->couple)) {
        mt_error_set(err, MT_ERR_NOMEM, name, MT_("coupling '%s': out of memory"), name);
        return -1;
    }
    MtCoupleSpec *c = &m->couple[m->ncouple];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->kind = kind;
    c->n = n;
    for (int k = 0; k < n; k++) {
        c->joint[k] = joint[k];
        c->coord[k] = coord ? coord[k] : mt_joint_default_coord(m->joint[joint[k]].type);
        c->coef[k] = coef[k];
    }
    if (kind == MT_COUPLE_GEAR) c->coord[0] = c->coord[1] = MT_COORD_ANGLE;
    if (kind == MT_COUPLE_RACK) { c->coord[0] = MT_COORD_ANGLE; c->coord[1] = MT_COORD_DISP; }
    return m->ncouple++;
}

int mt_model_add_spring(MtModel *m, const char *name, int mi, int mj, double k, double c, double length,
                        double preload, MtError *err)
{
    if (entity_check(m, name, KIND_SPRING, err)) return -1;
    if (mi < 0 || mi >= m->nmarker || mj < 0 || mj >= m->nmarker) {
        mt_error_set(err, MT_ERR_ARG, name, MT_("spring '%s': bad marker"), name);
        return -1;
    }
    if (grow((void **)&m->spring, &m->cap_spring, m->nspring, sizeof *m->spring)) {
        mt_error_set(err, MT_ERR_NOMEM, name, MT_("spring '%s': out of memory"), name);
        return -1;
    }
    MtSpringSpec *s = &m->spring[m->nspring];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    s->mi = mi;
    s->mj = mj;
    s->k = k;
    s->c = c;
    s->length = length;
    s->preload = preload;
    return m->nspring++;
}

static int finite_all(const double *v, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i])) return 0;
    return 1;
}

/* Columns of R orthonormal and right-handed to 1e-9. */
static int is_rotation(const double *R)
{
    double RtR[9];
    mt_m3_mul_at(RtR, R, R);
    for (int i = 0; i < 9; i++)
        if (fabs(RtR[i] - ((i % 4 == 0) ? 1.0 : 0.0)) > 1e-9) return 0;
    double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) + R[2] * (R[3] * R[7] - R[4] * R[6]);
    return det > 0;
}

/* Principal moments of a symmetric 3x3 by Jacobi rotations (small, exact enough). */
static void sym3_eig(const double *A, double ev[3])
{
    double a[9];
    memcpy(a, A, sizeof a);
    for (int sweep = 0; sweep < 50; sweep++) {
        double off = a[1] * a[1] + a[2] * a[2] + a[5] * a[5];
        if (off < 1e-300) break;
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                double apq = a[3 * p + q];
                if (fabs(apq) < 1e-300) continue;
                double theta = (a[3 * q + q] - a[3 * p + p]) / (2 * apq);
                double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
                double c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < 3; k++) { /* columns */
                    double akp = a[3 * k + p], akq = a[3 * k + q];
                    a[3 * k + p] = c * akp - s * akq;
                    a[3 * k + q] = s * akp + c * akq;
                }
                for (int k = 0; k < 3; k++) { /* rows */
                    double apk = a[3 * p + k], aqk = a[3 * q + k];
                    a[3 * p + k] = c * apk - s * aqk;
                    a[3 * q + k] = s * apk + c * aqk;
                }
            }
    }
    ev[0] = a[0]; ev[1] = a[4]; ev[2] = a[8];
}

MtStatus mt_model_check_shapes(const MtModel *m, MtError *err)
{
    for (int i = 0; i < m->nshape; i++) { /* sizes may come from expressions of parameters */
        const MtShapeSpec *s = &m->shape[i];
        const char *owner = mt_model_body_name(m, s->body);
        for (int q = 0; q < mt_shape_nsize(s->kind); q++)
            if (!(s->size[q] > 0) || !isfinite(s->size[q]))
                return mt_error_set(err, MT_ERR_MODEL, owner, MT_("body '%s': the shape's sizes must be positive lengths"), owner);
        if (!finite_all(s->pos, 3) || !finite_all(s->end, 3))
            return mt_error_set(err, MT_ERR_MODEL, owner, MT_("body '%s': the position must be finite"), owner);
    }
    return MT_OK;
}


/* mt_model_validate's checks of named tables, gravity and shapes. */
static MtStatus check_world(const MtModel *m, MtError *err)
{
    if (mt_tables_validate(m, err)) return err->code;
    if (!finite_all(m->gravity, 3)) return mt_error_set(err, MT_ERR_MODEL, "gravity", MT_("gravity: components must be finite numbers"));
    if (mt_model_check_shapes(m, err)) return err->code;
    return MT_OK;
}

/* mt_model_validate's checks of bodies. */
static MtStatus check_bodies(const MtModel *m, MtError *err)
{
    for (int i = 0; i < m->nbody; i++) {
        const MtBodySpec *b = &m->body[i];
        if (mt_schema_check(m, MT_ENT_BODY, i, MT_N_("body '%s'"), b->name, err)) return err->code;
        if (!finite_all(b->rot, 9))
            return mt_error_set(err, MT_ERR_MODEL, b->name, MT_("body '%s': orientation is not a proper rotation"), b->name);
        if (b->point_mass) { /* no rotational inertia to check; nothing may turn it */
            if (b->omega[0] || b->omega[1] || b->omega[2] || mt_model_body_flex(m, i) >= 0)
                return mt_error_set(err, MT_ERR_MODEL, b->name,
                                    MT_("body '%s': a point mass does not turn and is rigid: give it omega 0 0 0 and no 'flexible' line"),
                                    b->name);
            if (!is_rotation(b->rot))
                return mt_error_set(err, MT_ERR_MODEL, b->name, MT_("body '%s': orientation is not a proper rotation"), b->name);
            continue;
        }
        double J[9] = {b->inertia[0], b->inertia[3], b->inertia[4], b->inertia[3], b->inertia[1],
                       b->inertia[5], b->inertia[4], b->inertia[5], b->inertia[2]};
        double ev[3];
        sym3_eig(J, ev);
        double emax = fmax(ev[0], fmax(ev[1], ev[2]));
        for (int k = 0; k < 3; k++)
            if (!(ev[k] > 1e-12 * emax) || !(emax > 0))
                return mt_error_set(err, MT_ERR_MODEL, b->name,
                                    MT_("body '%s': inertia tensor is not positive definite (principal moments %g, %g, %g kg·m²)"),
                                    b->name, ev[0], ev[1], ev[2]);
        for (int k = 0; k < 3; k++) {
            double s = ev[(k + 1) % 3] + ev[(k + 2) % 3];
            if (ev[k] > s * (1 + 1e-9))
                return mt_error_set(err, MT_ERR_MODEL, b->name,
                                    MT_("body '%s': principal moments %g, %g, %g kg·m² violate the triangle inequality; no real body has them"),
                                    b->name, ev[0], ev[1], ev[2]);
        }
        if (!is_rotation(b->rot))
            return mt_error_set(err, MT_ERR_MODEL, b->name, MT_("body '%s': orientation is not a proper rotation"), b->name);
    }
    return MT_OK;
}

/* mt_model_validate's checks of markers and joints. */
static MtStatus check_markers_joints(const MtModel *m, MtError *err)
{
    char ref[2 * MT_NAME_MAX + 2];
    for (int i = 0; i < m->nmarker; i++) {
        const MtMarkerSpec *k = &m->marker[i];
        mt_model_marker_ref(m, i, ref, sizeof ref);
        if (!finite_all(k->pos, 3) || !finite_all(k->rot, 9))
            return mt_error_set(err, MT_ERR_MODEL, ref, MT_("marker '%s': position or axes not finite"), ref);
        if (!is_rotation(k->rot))
            return mt_error_set(err, MT_ERR_MODEL, ref, MT_("marker '%s': axes are not orthonormal and right-handed"), ref);
    }
    for (int i = 0; i < m->njoint; i++) {
        const MtJointSpec *j = &m->joint[i];
        if (mt_schema_check(m, MT_ENT_JOINT, i, MT_N_("joint '%s'"), j->name, err)) return err->code;
        for (int e = 0; e < 2; e++) { /* a point mass has no rotation for a joint to hold */
            int bd = m->marker[e ? j->mj : j->mi].body;
            int ok = j->type == MT_JOINT_SPHERICAL || j->type == MT_JOINT_INLINE || j->type == MT_JOINT_INPLANE ||
                     j->type == MT_JOINT_DISTANCE;
            if (bd >= 0 && m->body[bd].point_mass && !ok)
                return mt_error_set(err, MT_ERR_MODEL, j->name,
                                    MT_("joint '%s': body '%s' is a point mass, which has no rotation to hold; join it with a "
                                        "spherical, inline, inplane or distance joint"),
                                    j->name, m->body[bd].name);
        }
        if (m->marker[j->mi].body == m->marker[j->mj].body)
            return mt_error_set(err, MT_ERR_MODEL, j->name, MT_("joint '%s': both markers are on body '%s'; a joint connects two different bodies"),
                                j->name, mt_model_body_name(m, m->marker[j->mi].body));
        if (j->type == MT_JOINT_SCREW && !(isfinite(j->param) && j->param != 0))
            return mt_error_set(err, MT_ERR_MODEL, j->name, MT_("joint '%s': a screw needs a finite, non-zero pitch (m per turn)"), j->name);
        if (j->type == MT_JOINT_DISTANCE && !(isfinite(j->param) && j->param > 0))
            return mt_error_set(err, MT_ERR_MODEL, j->name, MT_("joint '%s': the distance must be a positive length"), j->name);
        if (j->type == MT_JOINT_ROLLING || j->type == MT_JOINT_BALL) {
            if (!(isfinite(j->param) && j->param > 0))
                return mt_error_set(err, MT_ERR_MODEL, j->name, MT_("joint '%s': the rolling radius must be positive"), j->name);
        }
    }
    return MT_OK;
}

/* mt_model_validate's checks of drivers. */
static MtStatus check_drivers(const MtModel *m, MtError *err)
{
    for (int i = 0; i < m->ndriver; i++) {
        const MtDriverSpec *d = &m->driver[i];
        if (d->joint >= 0) {
            MtJointType t = m->joint[d->joint].type;
            if (!mt_joint_has_coord(t, d->coord))
                return mt_error_set(err, MT_ERR_MODEL, d->name,
                                    MT_("driver '%s': joint '%s' (%s) has no coordinate '%s' to drive"), d->name,
                                    m->joint[d->joint].name, mt_joint_type_name(t), mt_coord_name(d->coord));
            for (int k = 0; k < i; k++)
                if (m->driver[k].joint == d->joint && m->driver[k].coord == d->coord)
                    return mt_error_set(err, MT_ERR_MODEL, d->name, MT_("driver '%s': joint '%s' is already driven by '%s'"), d->name,
                                        m->joint[d->joint].name, m->driver[k].name);
        } else if (d->mi < 0 || d->mi >= m->nmarker || d->mj < 0 || d->mj >= m->nmarker ||
                   m->marker[d->mi].body == m->marker[d->mj].body)
            return mt_error_set(err, MT_ERR_MODEL, d->name, MT_("driver '%s': needs two markers on different bodies"), d->name);
        if (!finite_all(d->coef, d->ncoef))
            return mt_error_set(err, MT_ERR_MODEL, d->name, MT_("driver '%s': coefficients must be finite numbers"), d->name);
        if (d->kind == MT_DRIVER_STEP && !(d->coef[2] > d->coef[0]))
            return mt_error_set(err, MT_ERR_MODEL, d->name, MT_("driver '%s': the step must end after it starts"), d->name);
        if (d->kind == MT_DRIVER_EXPR) {
            struct MtExpr *x = mt_model_driver_law(m, i, err);
            if (!x) return err->code;
            mt_expr_free(x);
        }
        if (d->kind == MT_DRIVER_TABLE) {
            if (d->ntab < 2 || !d->tab)
                return mt_error_set(err, MT_ERR_MODEL, d->name, MT_("driver '%s': a table needs at least two points"), d->name);
            for (int k = 0; k < d->ntab; k++) {
                if (!isfinite(d->tab[2 * k]) || !isfinite(d->tab[2 * k + 1]))
                    return mt_error_set(err, MT_ERR_MODEL, d->name, MT_("driver '%s': table point %d is not finite"), d->name, k + 1);
                if (k > 0 && !(d->tab[2 * k] > d->tab[2 * k - 2]))
                    return mt_error_set(err, MT_ERR_MODEL, d->name,
                                        MT_("driver '%s': table times must increase (point %d)"), d->name, k + 1);
            }
        }
    }
    return MT_OK;
}

/* mt_model_validate's checks of springs, couplings and initial conditions. */
static MtStatus check_springs_couplings(const MtModel *m, MtError *err)
{
    for (int i = 0; i < m->nspring; i++) {
        const MtSpringSpec *s = &m->spring[i];
        if (mt_schema_check(m, MT_ENT_SPRING, i, MT_N_("spring '%s'"), s->name, err)) return err->code;
        if (m->marker[s->mi].body == m->marker[s->mj].body)
            return mt_error_set(err, MT_ERR_MODEL, s->name, MT_("spring '%s': both ends are on the same body"), s->name);
    }
    for (int i = 0; i < m->ncouple; i++) {
        const MtCoupleSpec *c = &m->couple[i];
        for (int k = 0; k < c->n; k++) {
            const MtJointSpec *j = &m->joint[c->joint[k]];
            if (!mt_joint_has_coord(j->type, c->coord[k]))
                return mt_error_set(err, MT_ERR_MODEL, c->name, MT_("coupling '%s': joint '%s' (%s) has no coordinate '%s'"),
                                    c->name, j->name, mt_joint_type_name(j->type), mt_coord_name(c->coord[k]));
            if (!isfinite(c->coef[k]) || (c->kind != MT_COUPLE_RACK && c->coef[k] == 0) || (c->kind == MT_COUPLE_RACK && k == 0 && c->coef[0] == 0))
                return mt_error_set(err, MT_ERR_MODEL, c->name, MT_("coupling '%s': radii and coefficients must be finite and non-zero"), c->name);
        }
    }
    for (int i = 0; i < m->ninitial; i++) {
        const MtInitialSpec *in = &m->initial[i];
        if (in->mode > 0) { /* a modal coordinate: its count is known once the body is reduced (mt_flex_compile) */
            const char *bn = m->body[in->body].name;
            if (mt_model_body_flex(m, in->body) < 0)
                return mt_error_set(err, MT_ERR_MODEL, bn,
                                    MT_("initial condition of '%s.w%d': body '%s' is not flexible (give it a 'flexible' "
                                        "line or remove the condition)"), bn, in->mode, bn);
            if (!isfinite(in->value) || !isfinite(in->rate))
                return mt_error_set(err, MT_ERR_MODEL, bn, MT_("initial condition of '%s.w%d': values must be finite"), bn,
                                    in->mode);
            for (int k = 0; k < i; k++)
                if (m->initial[k].mode == in->mode && m->initial[k].body == in->body)
                    return mt_error_set(err, MT_ERR_MODEL, bn, MT_("initial condition of '%s.w%d' is given twice"), bn,
                                        in->mode);
            continue;
        }
        const MtJointSpec *j = &m->joint[in->joint];
        if (!mt_joint_has_coord(j->type, in->coord))
            return mt_error_set(err, MT_ERR_MODEL, j->name, MT_("initial condition: joint '%s' (%s) has no coordinate '%s'"),
                                j->name, mt_joint_type_name(j->type), mt_coord_name(in->coord));
        if (!isfinite(in->value) || !isfinite(in->rate))
            return mt_error_set(err, MT_ERR_MODEL, j->name, MT_("initial condition of joint '%s': values must be finite"), j->name);
        for (int k = 0; k < i; k++)
            if (!m->initial[k].mode && m->initial[k].joint == in->joint && m->initial[k].coord == in->coord)
                return mt_error_set(err, MT_ERR_MODEL, j->name, MT_("initial condition of joint '%s' is given twice"), j->name);
    }
    return MT_OK;
}

/* A wheelrail element's settings, each refused in words. */
static MtStatus check_wheelrail(const MtModel *m, const MtForceSpec *fs, MtError *err)
{
    const double *p = fs->p;
    const char *n = fs->name;
#define WR_BAD(cond, ...)                                                          \
    do {                                                                           \
        if (cond) return mt_error_set(err, MT_ERR_MODEL, n, __VA_ARGS__);          \
    } while (0)
    WR_BAD(!(p[0] > 0), MT_("force '%s': the wheel radius must be positive (got %g m)"), n, p[0]);
    WR_BAD(!(p[1] > 0), MT_("force '%s': b, half the distance between the contact points, must be positive (got %g m; 0.75 for standard gauge)"), n, p[1]);
    WR_BAD(!(p[2] >= 0 && p[2] < 1), MT_("force '%s': conicity must be in [0, 1) (got %g; 0.05 is a 1:20 cone)"), n, p[2]);
    WR_BAD(!(p[4] > 0 && p[4] < M_PI / 2) || !(p[5] > 0), MT_("force '%s': flange_angle must be between 0 and 90deg and flange_height positive"), n);
    WR_BAD(!(p[6] > p[8]) || !(p[7] > 0 && p[7] < p[8]),
           MT_("force '%s': the rail head needs crown > head > corner > 0 (crown radius, half head width, gauge-corner radius; got %g, %g, %g m)"),
           n, p[6], p[8], p[7]);
    WR_BAD(!(p[9] > 0) || p[10] < 0, MT_("force '%s': kn must be positive and cn not negative"), n);
    WR_BAD(p[11] < 0 || p[12] < 0 || p[13] < 0 || p[14] < 0 || p[15] < 0 || p[16] < 0,
           MT_("force '%s': mu, the creep coefficients f11 … f33 and n0 must not be negative"), n);
    WR_BAD(!(p[18] > 0), MT_("force '%s': vmin, the speed below which creepages are no longer divided by the speed, must be positive"), n);
    WR_BAD(p[19] < 0 || p[20] < 0 || p[22] < 0 || !(p[24] > 0) || p[19] + p[20] > p[24],
           MT_("force '%s': track lengths must not be negative, and straight plus transition must fit in its length (%g m)"), n, p[24]);
    WR_BAD(p[21] != 0 && fabs(p[21]) < 2 * p[1], MT_("force '%s': curve_radius must be 0 (straight track) or at least the track's width (got %g m)"), n, p[21]);
    WR_BAD(fabs(p[23]) >= 2 * p[1], MT_("force '%s': cant must be smaller than the distance between the rails (got %g m)"), n, p[23]);
    WR_BAD(p[24] > 1e6, MT_("force '%s': the track may be at most 1000 km long (got %g m)"), n, p[24]);
    WR_BAD(p[29] < 0, MT_("force '%s': fade, the distance over which the generated irregularity grows, must not be negative"), n);
    WR_BAD(p[25] != 0 && !(p[27] > 0 && p[28] > p[27] && p[24] / p[27] <= 4e6),
           MT_("force '%s': the spectrum's wavelengths need 0 < lmin < lmax, and length / lmin at most 4e6 (got %g, %g m)"), n, p[27], p[28]);
    for (int t = 0; t < 4; t++) {
        if (!fs->expr[t][0]) continue;
        int i = mt_model_find_table(m, fs->expr[t]);
        WR_BAD(i < 0, MT_("force '%s': no table '%s' (define it with 'table NAME' … 'end')"), n, fs->expr[t]);
        WR_BAD(t < 2 && m->table[i].n < 3, MT_("force '%s': the profile table '%s' needs at least 3 points"), n, fs->expr[t]);
    }
#undef WR_BAD
    return MT_OK;
}

/* mt_model_validate's checks of force elements. */
static MtStatus check_forces(const MtModel *m, MtError *err)
{
    for (int i = 0; i < m->nforce; i++) {
        const MtForceSpec *fs = &m->force[i];
        const double *p = fs->p;
        const char *const *pn = mt_force_param_names(fs->kind);
        for (int q = 0; pn[q]; q++)
            if (isinf(p[q]) || (isnan(p[q]) && !(fs->kind == MT_FORCE_FRICTION && q == 1) && !(fs->kind == MT_FORCE_STRUT && (q == 8 || q == 12)) &&
                                !(fs->kind == MT_FORCE_BUSHING && q >= 12)))
                return mt_error_set(err, MT_ERR_MODEL, fs->name, MT_("force '%s': parameter '%s' must be a finite number"), fs->name, pn[q]);
        if (fs->joint >= 0) {
            MtJointType t = m->joint[fs->joint].type;
            int ok = fs->kind == MT_FORCE_TORSION ? (t == MT_JOINT_REVOLUTE || t == MT_JOINT_CYLINDRICAL)
                                                  : (t == MT_JOINT_REVOLUTE || t == MT_JOINT_PRISMATIC);
            if (!ok)
                return mt_error_set(err, MT_ERR_MODEL, fs->name, MT_("force '%s': joint '%s' is %s; this force acts in revolute%s joints"),
                                    fs->name, m->joint[fs->joint].name, mt_joint_type_name(t),
                                    fs->kind == MT_FORCE_TORSION ? MT_(" or cylindrical") : MT_(" or prismatic"));
        } else if (fs->mi < 0 || (fs->mj >= 0 && m->marker[fs->mi].body == m->marker[fs->mj].body))
            return mt_error_set(err, MT_ERR_MODEL, fs->name, MT_("force '%s': its two markers must be on different bodies"), fs->name);
        int bad = 0;
        switch (fs->kind) {
        case MT_FORCE_TORSION: bad = p[0] < 0 || p[1] < 0; break;
        case MT_FORCE_BUSHING: for (int q = 0; q < 12; q++) bad |= p[q] < 0; break;
        case MT_FORCE_FRICTION:
            bad = p[0] < 0 || (!isnan(p[1]) && p[1] < 0) || !(p[2] > 0) || !(p[3] > 0) || p[4] < 0 || p[6] < 0 || p[7] < 0 || p[8] < 0 ||
                  (m->joint[fs->joint].type == MT_JOINT_REVOLUTE && !(p[5] > 0));
            break;
        case MT_FORCE_CONTACT:
            bad = !(p[5] > 0) || !(p[6] >= 1) || !(p[7] > 0 && p[7] <= 1) || p[8] < 0 || !(p[9] > 0) || !(p[10] > 0) ||
                  ((fs->geom == MT_CONTACT_SPHERE_PLANE || fs->geom == MT_CONTACT_SPHERE_SPHERE) && !(p[0] > 0)) ||
                  ((fs->geom == MT_CONTACT_SPHERE_SPHERE || fs->geom == MT_CONTACT_POINT_SPHERE || fs->geom == MT_CONTACT_BOX_SPHERE) &&
                   !(p[1] > 0)) ||
                  ((fs->geom == MT_CONTACT_BOX_PLANE || fs->geom == MT_CONTACT_BOX_SPHERE) && !(p[2] > 0 && p[3] > 0 && p[4] > 0));
            break;
        case MT_FORCE_STRUT:
            bad = !(p[0] > 0) || !(p[1] > 0) || !(p[2] > 0) || !(p[3] > 0) || p[4] < 0 || !(p[5] > 0) || !(p[6] > 0) ||
                  !(p[7] > 0) || (!isnan(p[8]) && !(p[8] > 0)) || !(p[9] > 0) || p[10] < 0 || p[11] < 0 || !(p[9] * p[0] < p[2]);
            break;
        case MT_FORCE_TYRE: bad = !(p[0] > 0) || !(p[1] > 0) || p[2] < 0 || p[3] < 0 || p[4] < 0 || p[5] < 0 || !(p[6] > 0); break;
        case MT_FORCE_DRAG: bad = p[0] < 0 || p[1] < 0 || p[2] < 0; break;
        case MT_FORCE_WHEELRAIL:
            if (check_wheelrail(m, fs, err)) return err->code;
            break;
        default: break;
        }
        if (bad)
            return mt_error_set(err, MT_ERR_MODEL, fs->name,
                                MT_("force '%s': a parameter is out of range (stiffness, damping, areas and radii must be positive, "
                                    "restitution in (0, 1]; a strut's stroke times area must stay below its gas volume)"),
                                fs->name);
    }
    return MT_OK;
}

/* mt_model_validate's checks of sensors, control channels and events. */
static MtStatus check_sensors_controls_events(const MtModel *m, MtError *err)
{
    for (int i = 0; i < m->nsensor; i++) { /* load sensors: one target, a component it has */
        const MtSensorSpec *sn = &m->sensor[i];
        if (sn->kind == MT_SENSOR_FORCE &&
            (!((sn->force >= 0 && sn->force < m->nforce && sn->spring < 0) || (sn->spring >= 0 && sn->spring < m->nspring && sn->force < 0)) ||
             sn->comp < 0 || sn->comp > 10))
            return mt_error_set(err, MT_ERR_MODEL, sn->name, MT_("sensor '%s': give one force element or spring and a component it has"),
                                sn->name);
        if (sn->kind == MT_SENSOR_JOINT &&
            (sn->joint < 0 || sn->joint >= m->njoint || sn->coord < 0 || sn->coord >= MT_COORD_NONE ||
             !mt_joint_has_coord(m->joint[sn->joint].type, (MtCoordKind)sn->coord) || sn->comp < 0 || sn->comp > 1))
            return mt_error_set(err, MT_ERR_MODEL, sn->name, MT_("sensor '%s': give a joint, a coordinate it has, and value or rate"),
                                sn->name);
        if (sn->kind == MT_SENSOR_ANGLE && (sn->mi < 0 || sn->comp < 0 || sn->comp > 3))
            return mt_error_set(err, MT_ERR_MODEL, sn->name, MT_("sensor '%s': give a marker and a component x, y, z or mag"), sn->name);
        if (sn->kind == MT_SENSOR_ENERGY && (sn->energy < 0 || sn->energy > 3))
            return mt_error_set(err, MT_ERR_MODEL, sn->name, MT_("sensor '%s': unknown kind of energy"), sn->name);
    }
    for (int i = 0; i < m->ncontrol; i++) {
        const MtControlSpec *c = &m->control[i];
        const double *p = c->p;
        int bad = c->kind == MT_CONTROL_PID ? !(isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]) && p[3] > 0 && isfinite(p[3]))
                : c->kind == MT_CONTROL_LAG ? !(isfinite(p[0]) && p[1] > 0 && isfinite(p[1]))
                                            : !(isfinite(p[0]) && p[1] > 0 && isfinite(p[1]) && p[2] >= 0 && isfinite(p[2]));
        if (bad)
            return mt_error_set(err, MT_ERR_MODEL, c->name,
                                MT_("control '%s': gains must be finite; tf, tau and wn positive; zeta not negative"), c->name);
    }
    for (int i = 0; i < m->ncontrol; i++) {
        const MtControlSpec *c = &m->control[i];
        int lo = c->kind == MT_CONTROL_PID ? 4 : c->kind == MT_CONTROL_LAG ? 2 : 3;
        if (!(c->p[lo] < c->p[lo + 1]))
            return mt_error_set(err, MT_ERR_MODEL, c->name, MT_("control '%s': the lower limit must be below the upper"), c->name);
    }
    for (int i = 0; i < m->nevent; i++) {
        const MtEventSpec *ev = &m->event[i];
        if (ev->trigger == MT_EVENT_AT && !(ev->time >= 0 && isfinite(ev->time)))
            return mt_error_set(err, MT_ERR_MODEL, ev->name, MT_("event '%s': the time must be a non-negative number"), ev->name);
        if (ev->trigger == MT_EVENT_CROSSES && !isfinite(ev->value))
            return mt_error_set(err, MT_ERR_MODEL, ev->name, MT_("event '%s': the crossing value must be a finite number"), ev->name);
        int n = ev->target_kind == MT_TARGET_JOINT ? m->njoint : ev->target_kind == MT_TARGET_FORCE ? m->nforce
              : ev->target_kind == MT_TARGET_SPRING ? m->nspring : ev->target_kind == MT_TARGET_DRIVER ? m->ndriver
              : ev->target_kind == MT_TARGET_CONTROL ? m->ncontrol : 0;
        int needs_joint = ev->action == MT_ACTION_BREAK || ev->action == MT_ACTION_LOCK;
        int ok = ev->action == MT_ACTION_STOP ? ev->target_kind == MT_TARGET_NONE
               : (ev->target >= 0 && ev->target < n && (needs_joint == (ev->target_kind == MT_TARGET_JOINT)));
        if (ok && ev->action == MT_ACTION_LOCK) ok = mt_joint_default_coord(m->joint[ev->target].type) != MT_COORD_NONE;
        if (!ok)
            return mt_error_set(err, MT_ERR_MODEL, ev->name, MT_("event '%s': its target does not fit its action"), ev->name);
    }
    return MT_OK;
}

int mt_model_holds(const MtModel *m, MtHold *out, MtError *err)
{
    char buf[sizeof m->solver.hold];
    snprintf(buf, sizeof buf, "%s", m->solver.hold);
    int n = 0;
    for (char *save = NULL, *w = strtok_r(buf, " ,\t", &save); w; w = strtok_r(NULL, " ,\t", &save)) {
        char *dot = strrchr(w, '.');
        const char *ax = dot && dot[1] && !dot[2] ? strchr("xyz", dot[1]) : NULL;
        if (!ax) {
            mt_error_set(err, MT_ERR_MODEL, "solver",
                         MT_("solver: hold '%s': name a coordinate as BODY.x, BODY.y or BODY.z (the centre of mass of a "
                             "rigid body) or BODY.MARKER.x (a marker's origin)"), w);
            return -1;
        }
        int axis = (int)(ax - "xyz");
        *dot = 0;
        MtHold h = {-1, -1, axis};
        if (strchr(w, '.')) {
            h.marker = mt_model_find_marker(m, w);
            if (h.marker >= 0) h.body = m->marker[h.marker].body;
        } else if (strcmp(w, "ground")) h.body = mt_model_find_body(m, w);
        if (h.body < 0 || (strchr(w, '.') && h.marker < 0)) {
            *dot = '.';
            mt_error_set(err, MT_ERR_MODEL, "solver",
                         MT_("solver: hold '%s' names no moving body or marker of the model"), w);
            return -1;
        }
        if (h.marker < 0 && mt_model_body_flex(m, h.body) >= 0) {
            mt_error_set(err, MT_ERR_MODEL, "solver",
                         MT_("solver: hold '%s.%c': body '%s' is flexible; hold one of its markers (BODY.MARKER.%c)"), w,
                         "xyz"[axis], w, "xyz"[axis]);
            return -1;
        }
        if (n == MT_HOLD_MAX) {
            mt_error_set(err, MT_ERR_MODEL, "solver", MT_("solver: hold: at most %d coordinates"), MT_HOLD_MAX);
            return -1;
        }
        if (out) out[n] = h;
        n++;
    }
    return n;
}

MtStatus mt_model_validate(const MtModel *m, MtError *err)
{
    if (mt_study_check(m->study, m, err)) return err->code;
    if (check_world(m, err) || check_bodies(m, err) || check_markers_joints(m, err) || check_drivers(m, err) ||
        check_springs_couplings(m, err) || check_forces(m, err) || check_sensors_controls_events(m, err))
        return err->code;
    if (mt_schema_check(m, MT_ENT_SOLVER, 0, "solver", NULL, err)) return err->code;
    if (mt_model_holds(m, NULL, err) < 0) return err->code;
    if (m->view.set && m->view.focus[0] && mt_model_find_body(m, m->view.focus) < 0 && strcmp(m->view.focus, "ground"))
        return mt_error_set(err, MT_ERR_MODEL, "view", MT_("view: focus '%s' names no body of the model"), m->view.focus);
    if (m->view.set && m->view.follow[0] && mt_model_find_body(m, m->view.follow) < 0)
        return mt_error_set(err, MT_ERR_MODEL, "view", MT_("view: follow '%s' names no moving body of the model"), m->view.follow);
    return MT_OK;
}
