/* mt_edit.c — the editor: model snapshots for undo and redo, the check every
 * edit passes, and the field table of every entity kind with reading and
 * setting fields from text (see motus/edit.h). Structural edits (rename,
 * duplicate, delete, creating) are in mt_edit_ops.c. Declared in motus/edit.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* open_memstream */
#endif
#include "motus/edit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_edit_internal.h"
#include "mt_expr.h"
#include "mt_i18n.h"
#include "mt_math.h"

/* ---- the editor ---------------------------------------------------------------- */

typedef struct {
    MtModel *m;
    unsigned long state;
    char label[160];
} Snap;

struct MtEditor {
    MtModel *model;
    unsigned long state, saved, next_state;
    Snap *undo, *redo;
    int nundo, nredo, cap_undo, cap_redo, limit;
    char cur_label[160]; /* label of the edit that made the current state */
};

MtModel *mt_edit_new_model(void)
{
    MtModel *m = mt_model_new();
    if (!m) return NULL;
    m->gravity[1] = -9.81;
    return m;
}

MtEditor *mt_editor_new(MtModel *m)
{
    if (!m) return NULL;
    MtEditor *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->model = m;
    e->state = e->saved = 1;
    e->next_state = 2;
    e->limit = 200;
    return e;
}

static void snaps_free(Snap *s, int n)
{
    for (int i = 0; i < n; i++) mt_model_free(s[i].m);
}

void mt_editor_free(MtEditor *e)
{
    if (!e) return;
    mt_model_free(e->model);
    snaps_free(e->undo, e->nundo);
    snaps_free(e->redo, e->nredo);
    free(e->undo);
    free(e->redo);
    free(e);
}

MtModel *mt_editor_steal(MtEditor *e)
{
    if (!e) return NULL;
    MtModel *m = e->model;
    e->model = NULL;
    mt_editor_free(e);
    return m;
}

const MtModel *mt_editor_model(const MtEditor *e) { return e->model; }
void mt_editor_set_view(MtEditor *e, const MtViewSpec *v)
{
    if (e && e->model && v) memcpy(&e->model->view, v, sizeof *v);
}
unsigned long mt_editor_state(const MtEditor *e) { return e->state; }
void mt_editor_mark_saved(MtEditor *e) { e->saved = e->state; }
int mt_editor_dirty(const MtEditor *e) { return e->state != e->saved; }
int mt_editor_can_undo(const MtEditor *e) { return e->nundo > 0; }
int mt_editor_can_redo(const MtEditor *e) { return e->nredo > 0; }
const char *mt_editor_undo_label(const MtEditor *e) { return e->nundo ? e->cur_label : NULL; }
const char *mt_editor_redo_label(const MtEditor *e) { return e->nredo ? e->redo[e->nredo - 1].label : NULL; }

/* Forgets the oldest edits beyond the limit. */
static void trim(MtEditor *e)
{
    int drop = e->nundo - e->limit;
    if (drop <= 0) return;
    snaps_free(e->undo, drop);
    memmove(e->undo, e->undo + drop, (size_t)(e->nundo - drop) * sizeof *e->undo);
    e->nundo -= drop;
}

void mt_editor_set_limit(MtEditor *e, int n)
{
    e->limit = n < 1 ? 1 : n;
    trim(e);
}

static int push(Snap **arr, int *n, int *cap, MtModel *m, unsigned long state, const char *label)
{
    if (*n == *cap) {
        int nc = *cap ? 2 * *cap : 16;
        Snap *p = realloc(*arr, (size_t)nc * sizeof *p);
        if (!p) return -1;
        *arr = p;
        *cap = nc;
    }
    Snap *s = &(*arr)[(*n)++];
    s->m = m;
    s->state = state;
    mt_utf8_fmt(s->label, sizeof s->label, "%s", label ? label : "");
    return 0;
}

/* The undo stack stores (model before the edit, its state, the label of the
 * edit that made that model current); cur_label is the label of the edit
 * that made the current model. */
MtStatus mt_editor_commit(MtEditor *e, MtModel *changed, const char *label, MtError *err)
{
    if (!changed) return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
    MtStatus rc = mt_edit_check(changed, err);
    if (rc) {
        mt_model_free(changed);
        return rc;
    }
    if (push(&e->undo, &e->nundo, &e->cap_undo, e->model, e->state, e->cur_label)) {
        mt_model_free(changed);
        return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
    }
    trim(e);
    snaps_free(e->redo, e->nredo);
    e->nredo = 0;
    e->model = changed;
    e->state = e->next_state++;
    mt_utf8_fmt(e->cur_label, sizeof e->cur_label, "%s", label ? label : "");
    return MT_OK;
}

MtStatus mt_editor_undo(MtEditor *e, MtError *err)
{
    if (!e->nundo) return mt_error_set(err, MT_ERR_ARG, "", "%s", MT_("nothing to undo"));
    Snap prev = e->undo[--e->nundo];
    if (push(&e->redo, &e->nredo, &e->cap_redo, e->model, e->state, e->cur_label)) {
        e->nundo++;
        return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
    }
    e->model = prev.m;
    e->state = prev.state;
    mt_utf8_fmt(e->cur_label, sizeof e->cur_label, "%s", prev.label);
    return MT_OK;
}

MtStatus mt_editor_redo(MtEditor *e, MtError *err)
{
    if (!e->nredo) return mt_error_set(err, MT_ERR_ARG, "", "%s", MT_("nothing to redo"));
    Snap next = e->redo[--e->nredo];
    if (push(&e->undo, &e->nundo, &e->cap_undo, e->model, e->state, e->cur_label)) {
        e->nredo++;
        return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
    }
    e->model = next.m;
    e->state = next.state;
    mt_utf8_fmt(e->cur_label, sizeof e->cur_label, "%s", next.label);
    return MT_OK;
}

/* Writes the model as text and parses it again: whatever an edit produced
 * must be a model the text format (and so a project) can hold. */
static MtStatus reads_back(const MtModel *m, MtError *err)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
    MtStatus rc = mt_model_write(m, f, err);
    fclose(f);
    if (rc == MT_OK) {
        MtModel *back = mt_model_parse_ex(text, "edit", 0, err); /* flexible bodies keep their reductions */
        if (!back) rc = err && err->code ? err->code : MT_ERR_MODEL;
        mt_model_free(back);
    }
    free(text);
    return rc;
}

MtStatus mt_edit_check(MtModel *m, MtError *err)
{
    MtStatus rc = mt_model_eval_params(m, err);
    if (rc == MT_OK) rc = mt_model_flex_refresh(m, err); /* a marker added to a flexible body needs its node */
    if (rc == MT_OK) rc = mt_model_validate(m, err);
    if (rc == MT_OK) rc = reads_back(m, err);
    return rc;
}

/* ---- describing entities ------------------------------------------------------- */

int mt_edit_count(const MtModel *m, MtEditKind kind)
{
    switch (kind) {
    case MT_EDIT_BODY: return m->nbody;
    case MT_EDIT_MARKER: return m->nmarker;
    case MT_EDIT_JOINT: return m->njoint;
    case MT_EDIT_DRIVER: return m->ndriver;
    case MT_EDIT_SPRING: return m->nspring;
    case MT_EDIT_COUPLE: return m->ncouple;
    case MT_EDIT_FORCE: return m->nforce;
    case MT_EDIT_SENSOR: return m->nsensor;
    case MT_EDIT_SHAPE: return m->nshape;
    case MT_EDIT_PARAM: return m->nparam;
    case MT_EDIT_CONTROL: return m->ncontrol;
    case MT_EDIT_EVENT: return m->nevent;
    case MT_EDIT_GRAVITY:
    case MT_EDIT_SOLVER: return 1;
    default: return 0;
    }
}

int mt_edit_valid(const MtModel *m, MtEditKind kind, int index)
{
    if (kind == MT_EDIT_GRAVITY || kind == MT_EDIT_SOLVER) return 1;
    if (kind == MT_EDIT_BODY && index == MT_GROUND) return 1;
    return kind >= 0 && kind < MT_EDIT_NKINDS && index >= 0 && index < mt_edit_count(m, kind);
}

char *mt_edit_name_ptr(MtModel *m, MtEditKind kind, int index)
{
    if (!mt_edit_valid(m, kind, index) || (kind == MT_EDIT_BODY && index == MT_GROUND)) return NULL;
    switch (kind) {
    case MT_EDIT_BODY: return m->body[index].name;
    case MT_EDIT_MARKER: return m->marker[index].name;
    case MT_EDIT_JOINT: return m->joint[index].name;
    case MT_EDIT_DRIVER: return m->driver[index].name;
    case MT_EDIT_SPRING: return m->spring[index].name;
    case MT_EDIT_COUPLE: return m->couple[index].name;
    case MT_EDIT_FORCE: return m->force[index].name;
    case MT_EDIT_SENSOR: return m->sensor[index].name;
    case MT_EDIT_PARAM: return m->param[index].name;
    case MT_EDIT_CONTROL: return m->control[index].name;
    case MT_EDIT_EVENT: return m->event[index].name;
    default: return NULL;
    }
}

const char *mt_edit_name(const MtModel *m, MtEditKind kind, int index)
{
    if (kind == MT_EDIT_BODY && index == MT_GROUND) return "ground";
    const char *s = mt_edit_name_ptr((MtModel *)m, kind, index);
    return s ? s : "";
}

const char *mt_edit_describe(const MtModel *m, MtEditKind kind, int index, char *buf, size_t n)
{
    char ref[2 * MT_NAME_MAX + 2];
    const char *name = mt_edit_name(m, kind, index);
    switch (kind) {
    case MT_EDIT_BODY: mt_utf8_fmt(buf, n, MT_("body '%s'"), name); break;
    case MT_EDIT_MARKER:
        mt_utf8_fmt(buf, n, MT_("marker '%s'"), mt_edit_valid(m, kind, index) ? mt_model_marker_ref(m, index, ref, sizeof ref) : "?");
        break;
    case MT_EDIT_JOINT: mt_utf8_fmt(buf, n, MT_("joint '%s'"), name); break;
    case MT_EDIT_DRIVER: mt_utf8_fmt(buf, n, MT_("driver '%s'"), name); break;
    case MT_EDIT_SPRING: mt_utf8_fmt(buf, n, MT_("spring '%s'"), name); break;
    case MT_EDIT_COUPLE: mt_utf8_fmt(buf, n, MT_("coupling '%s'"), name); break;
    case MT_EDIT_FORCE: mt_utf8_fmt(buf, n, MT_("force element '%s'"), name); break;
    case MT_EDIT_SENSOR: mt_utf8_fmt(buf, n, MT_("sensor '%s'"), name); break;
    case MT_EDIT_SHAPE:
        if (mt_edit_valid(m, kind, index))
            mt_utf8_fmt(buf, n, MT_("shape %d (%s) of body '%s'"), index + 1, mt_shape_kind_label(m->shape[index].kind),
                     mt_model_body_name(m, m->shape[index].body));
        else
            mt_utf8_fmt(buf, n, MT_("shape %d"), index + 1);
        break;
    case MT_EDIT_PARAM: mt_utf8_fmt(buf, n, MT_("parameter '%s'"), name); break;
    case MT_EDIT_CONTROL: mt_utf8_fmt(buf, n, MT_("control '%s'"), name); break;
    case MT_EDIT_EVENT: mt_utf8_fmt(buf, n, MT_("event '%s'"), name); break;
    case MT_EDIT_GRAVITY: mt_utf8_fmt(buf, n, "%s", MT_("gravity")); break;
    case MT_EDIT_SOLVER: mt_utf8_fmt(buf, n, "%s", MT_("solver")); break;
    default: snprintf(buf, n, "?"); break;
    }
    return buf;
}

/* ---- the field table ----------------------------------------------------------- */

static const char *const xyz[] = {"x", "y", "z"};

static const char *const joint_type_choices[] = {"spherical", "revolute", "prismatic", "cylindrical", "universal",
                                                 "fixed", "planar", "screw", "inline", "inplane", "distance",
                                                 "rolling", "ball", NULL};
static const char *const onoff_choices[] = {"off", "on", NULL};
/* in the order of MtDriverLevel and MtDriverKind */

/* The quantity of a driver's coordinate (angle or length) differentiated
 * `order` times: 0 the value, 1 its rate, 2 its acceleration; NONE beyond. */
static MtDim driver_dim(const MtDriverSpec *d, int order)
{
    int angle = d->joint >= 0 ? d->coord == MT_COORD_ANGLE : d->comp >= MT_COMP_AX;
    static const MtDim dims[2][3] = {{MT_DIM_LENGTH, MT_DIM_VELOCITY, MT_DIM_ACCEL},
                                     {MT_DIM_ANGLE, MT_DIM_ANGVEL, MT_DIM_ANGACC}};
    return order >= 0 && order < 3 ? dims[angle][order] : MT_DIM_NONE;
}

typedef struct {
    MtFieldInfo *out;
    int n, max;
} Fields;

static void add(Fields *f, const char *name, const char *label, MtFieldType type, MtDim dim, int flags)
{
    if (f->n >= f->max) return;
    MtFieldInfo *x = &f->out[f->n++];
    memset(x, 0, sizeof *x);
    snprintf(x->name, sizeof x->name, "%s", name);
    mt_utf8_fmt(x->label, sizeof x->label, "%s", label);
    x->type = type;
    x->dim = dim;
    x->flags = flags;
}

static void add_choice(Fields *f, const char *name, const char *label, const char *const *choices)
{
    add(f, name, label, MT_FIELD_CHOICE, MT_DIM_NONE, 0);
    if (f->n && !strcmp(f->out[f->n - 1].name, name)) f->out[f->n - 1].choices = choices;
}

/* "com.0" … "com.2" labelled "Centre of mass x" …. */
static void add_vec(Fields *f, const char *name, const char *label, int n, const char *const *comp, MtDim dim, int flags)
{
    for (int k = 0; k < n; k++) {
        char nm[24], lb[128];
        snprintf(nm, sizeof nm, "%s.%d", name, k);
        mt_utf8_fmt(lb, sizeof lb, "%s %s", label, comp[k]);
        add(f, nm, lb, MT_FIELD_NUMBER, dim, flags);
    }
}

/* The schema's rows from..to-1 of an entity as fields; rows with a flag in
 * readonly (what a body's density or FE model gives, what a point mass lacks)
 * are shown, not edited. */
static void add_rows(Fields *f, MtEntityKind kind, int from, int to, unsigned readonly)
{
    int n;
    const MtField *rows = mt_schema_fields(kind, &n);
    for (int r = from; r < to && r < n; r++) {
        const MtField *sf = &rows[r];
        int flags = (sf->flags & MT_SF_EXPR) ? MT_FIELD_EXPR : 0;
        if (sf->flags & readonly) flags = MT_FIELD_READONLY;
        switch (sf->type) {
        case MT_ST_VEC: add_vec(f, sf->key, MT_(sf->label), sf->n, sf->values, (MtDim)sf->dim, flags); break;
        case MT_ST_ENUM: add_choice(f, sf->key, MT_(sf->label), sf->values); break;
        case MT_ST_FLAG: add_choice(f, sf->key, MT_(sf->label), onoff_choices); break;
        case MT_ST_INT: add(f, sf->key, MT_(sf->label), MT_FIELD_INT, MT_DIM_NONE, 0); break;
        case MT_ST_TEXT: add(f, sf->key, MT_(sf->label), MT_FIELD_TEXT, MT_DIM_NONE, 0); break;
        default: add(f, sf->key, MT_(sf->label), MT_FIELD_NUMBER, (MtDim)sf->dim, flags); break;
        }
    }
}

/* The number of the row after the row of key (all rows when absent). */
static int row_after(MtEntityKind kind, const char *key)
{
    int n, c;
    const MtField *rows = mt_schema_fields(kind, &n), *f = mt_schema_find(kind, key, &c);
    return f ? (int)(f - rows) + 1 : n;
}

/* Quantity of a force element's setting, from its name in the text format. */
static MtDim force_param_dim(MtForceKind kind, const char *p)
{
    static const struct {
        const char *name;
        MtDim dim;
    } map[] = {
        {"kx", MT_DIM_STIFFNESS}, {"ky", MT_DIM_STIFFNESS}, {"kz", MT_DIM_STIFFNESS}, {"ktx", MT_DIM_ROTSTIFF},
        {"kty", MT_DIM_ROTSTIFF}, {"ktz", MT_DIM_ROTSTIFF},  {"cx", MT_DIM_DAMPING},  {"cy", MT_DIM_DAMPING},
        {"cz", MT_DIM_DAMPING},   {"ctx", MT_DIM_ROTDAMP},   {"cty", MT_DIM_ROTDAMP}, {"ctz", MT_DIM_ROTDAMP},
        {"radius", MT_DIM_LENGTH}, {"radius2", MT_DIM_LENGTH}, {"lx", MT_DIM_LENGTH}, {"ly", MT_DIM_LENGTH},
        {"lz", MT_DIM_LENGTH},    {"vs", MT_DIM_VELOCITY},   {"eps", MT_DIM_VELOCITY}, {"vmin", MT_DIM_VELOCITY},
        {"pressure", MT_DIM_PRESSURE}, {"patm", MT_DIM_PRESSURE}, {"stroke", MT_DIM_LENGTH}, {"friction", MT_DIM_FORCE},
        {"kstop", MT_DIM_STIFFNESS}, {"length", MT_DIM_LENGTH}, {"rho", MT_DIM_DENSITY}, {"kr", MT_DIM_STIFFNESS},
        {"cr", MT_DIM_DAMPING},   {"windx", MT_DIM_VELOCITY}, {"windy", MT_DIM_VELOCITY}, {"windz", MT_DIM_VELOCITY},
    };
    if (kind == MT_FORCE_TORSION) {
        if (!strcmp(p, "k")) return MT_DIM_ROTSTIFF;
        if (!strcmp(p, "c")) return MT_DIM_ROTDAMP;
        if (!strcmp(p, "angle0")) return MT_DIM_ANGLE;
        if (!strcmp(p, "preload")) return MT_DIM_TORQUE;
    }
    if (kind == MT_FORCE_CONTACT && !strcmp(p, "k")) return MT_DIM_NONE; /* N/m^exp: no fixed quantity */
    if (kind == MT_FORCE_FRICTION && !strcmp(p, "preload")) return MT_DIM_FORCE;
    if (kind == MT_FORCE_WHEELRAIL) { /* the rest (conicity, kn, mu, f23, f33, the switches) have no single quantity */
        static const char *const len[] = {"b", "flange", "flange_height", "crown", "corner", "head", "straight", "transition",
                                          "curve_radius", "curve_length", "cant", "lmin", "lmax", "fade", NULL};
        for (int i = 0; len[i]; i++)
            if (!strcmp(p, len[i])) return MT_DIM_LENGTH;
        if (!strcmp(p, "flange_angle")) return MT_DIM_ANGLE;
        if (!strcmp(p, "cn")) return MT_DIM_DAMPING;
        if (!strcmp(p, "f11") || !strcmp(p, "f22") || !strcmp(p, "n0")) return MT_DIM_FORCE;
    }
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(map[i].name, p)) return map[i].dim;
    return MT_DIM_NONE;
}

static int edit_fields(const MtModel *m, MtEditKind kind, int index, MtFieldInfo *out, int max);

static int is_one_of(const char *key, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(key, *list)) return 1;
    return 0;
}

/* The section a field of an entity kind belongs to (untranslated), from its name: the settings' keywords the
 * schema rows give (motus/schema.h) and the fields named above. */
static const char *field_section(MtEditKind kind, const char *field)
{
    char key[24];
    snprintf(key, sizeof key, "%.*s", (int)strcspn(field, "."), field);
#define IS(...) is_one_of(key, (const char *const[]){__VA_ARGS__, NULL})
    if (IS("name", "type", "disabled")) return MT_N_("General");
    if (IS("mi", "mj", "input", "setpoint")) return kind == MT_EDIT_CONTROL ? MT_N_("Signals") : MT_N_("Connection");
    switch (kind) {
    case MT_EDIT_BODY:
        if (IS("position", "orientation")) return MT_N_("Placement");
        if (IS("velocity", "omega")) return MT_N_("Initial state");
        return MT_N_("Inertia");
    case MT_EDIT_MARKER:
    case MT_EDIT_JOINT: return MT_N_("Geometry");
    case MT_EDIT_DRIVER: return MT_N_("Motion law");
    case MT_EDIT_SHAPE: return IS("size") ? MT_N_("Size") : MT_N_("Placement");
    case MT_EDIT_SENSOR: return IS("unit") ? MT_N_("Display") : MT_N_("Measure");
    case MT_EDIT_CONTROL: return MT_N_("Gains");
    case MT_EDIT_EVENT: return MT_N_("Trigger");
    case MT_EDIT_PARAM: return IS("slider") ? MT_N_("Slider in the view") : MT_N_("Value");
    case MT_EDIT_COUPLE: return MT_N_("Ratios");
    case MT_EDIT_GRAVITY: return MT_N_("Gravity");
    case MT_EDIT_SOLVER:
        if (IS("rtol", "atol")) return MT_N_("Tolerances");
        if (IS("ts", "xi", "loops", "nu", "correct")) return MT_N_("Constraints");
        return MT_N_("Integration");
    default: return MT_N_("Force law"); /* springs and force elements */
    }
#undef IS
}

int mt_edit_fields(const MtModel *m, MtEditKind kind, int index, MtFieldInfo *out, int max)
{
    int n = edit_fields(m, kind, index, out, max);
    /* each field's section; the fields of a section brought together, in the order the sections first appear */
    for (int i = 0; i < n; i++) out[i].section = field_section(kind, out[i].name);
    for (int i = 1; i < n; i++) {
        int j = i - 1; /* the last earlier field of its section */
        while (j >= 0 && strcmp(out[j].section, out[i].section)) j--;
        if (j < 0 || j == i - 1) continue; /* the first of its section, or already after its kin */
        MtFieldInfo f = out[i];
        memmove(&out[j + 2], &out[j + 1], sizeof *out * (size_t)(i - j - 1));
        out[j + 1] = f;
    }
    for (int i = 0; i < n; i++) out[i].section = MT_(out[i].section);
    return n;
}

static int edit_fields(const MtModel *m, MtEditKind kind, int index, MtFieldInfo *out, int max)
{
    if (!mt_edit_valid(m, kind, index)) return 0;
    Fields f = {out, 0, max};
    const int X = MT_FIELD_EXPR;
    switch (kind) {
    case MT_EDIT_BODY: {
        if (index == MT_GROUND) return 0;
        const MtBodySpec *b = &m->body[index];
        unsigned derived = (b->density > 0 || mt_model_body_flex(m, index) >= 0 ? MT_SF_DERIVED : 0) |
                           (b->point_mass ? MT_SF_ROT : 0);
        int pos = row_after(MT_ENT_BODY, "position");
        add(&f, "name", MT_("Name"), MT_FIELD_NAME, MT_DIM_NONE, 0);
        add_rows(&f, MT_ENT_BODY, 0, pos, derived);
        add_vec(&f, "orientation", MT_("Rotation"), 3, xyz, MT_DIM_ANGLE, X);
        add_rows(&f, MT_ENT_BODY, pos, MT_FIELD_MAX, derived);
        break;
    }
    case MT_EDIT_MARKER:
        add(&f, "name", MT_("Name"), MT_FIELD_NAME, MT_DIM_NONE, 0);
        add_vec(&f, "at", MT_("At"), 3, xyz, MT_DIM_LENGTH, X);
        add_vec(&f, "zaxis", MT_("Axis z"), 3, xyz, MT_DIM_NONE, X);
        break;
    case MT_EDIT_JOINT: {
        const MtJointSpec *j = &m->joint[index];
        add(&f, "name", MT_("Name"), MT_FIELD_NAME, MT_DIM_NONE, 0);
        add_choice(&f, "type", MT_("Type"), joint_type_choices);
        add(&f, "mi", MT_("Marker i (moving body)"), MT_FIELD_MARKER, MT_DIM_NONE, 0);
        add(&f, "mj", MT_("Marker j (base body)"), MT_FIELD_MARKER, MT_DIM_NONE, 0);
        if (j->type == MT_JOINT_SCREW) add(&f, "param", MT_("Pitch (per turn)"), MT_FIELD_NUMBER, MT_DIM_LENGTH, X);
        if (j->type == MT_JOINT_DISTANCE) add(&f, "param", MT_("Distance"), MT_FIELD_NUMBER, MT_DIM_LENGTH, X);
        if (j->type == MT_JOINT_ROLLING || j->type == MT_JOINT_BALL)
            add(&f, "param", MT_("Rolling radius"), MT_FIELD_NUMBER, MT_DIM_LENGTH, X);
        break;
    }
    case MT_EDIT_DRIVER: {
        const MtDriverSpec *d = &m->driver[index];
        add(&f, "name", MT_("Name"), MT_FIELD_NAME, MT_DIM_NONE, 0);
        add_choice(&f, "level", MT_("Prescribes"), mt_level_names);
        add_choice(&f, "law", MT_("Law"), mt_law_names);
        /* what the law gives: the coordinate, its rate or its acceleration (level), and its derivative */
        MtDim q = driver_dim(d, (int)d->level), dq = driver_dim(d, (int)d->level + 1);
        const char *lb[4] = {NULL};
        MtDim dm[4] = {q, dq, MT_DIM_NONE, MT_DIM_NONE};
        switch (d->kind) {
        case MT_DRIVER_RATE: lb[0] = MT_("Start value"), lb[1] = MT_("Rate"); break;
        case MT_DRIVER_HARMONIC:
            lb[0] = MT_("Amplitude"), lb[1] = MT_("Circular frequency"), lb[2] = MT_("Phase"), lb[3] = MT_("Offset");
            dm[1] = MT_DIM_ANGVEL, dm[2] = MT_DIM_ANGLE, dm[3] = q;
            break;
        case MT_DRIVER_STEP:
            lb[0] = MT_("Start time"), lb[1] = MT_("Value before"), lb[2] = MT_("End time"), lb[3] = MT_("Value after");
            dm[0] = MT_DIM_TIME, dm[1] = q, dm[2] = MT_DIM_TIME, dm[3] = q;
            break;
        default: /* a polynomial: c0 has the law's quantity, c1 its rate, c2 (of a position) an acceleration */
            dm[2] = d->level == MT_LEVEL_DISP ? driver_dim(d, 2) : MT_DIM_NONE;
            break;
        }
        if (d->kind == MT_DRIVER_EXPR) add(&f, "expr", MT_("Law f(t)"), MT_FIELD_TEXT, MT_DIM_NONE, 0);
        if (d->kind != MT_DRIVER_TABLE && d->kind != MT_DRIVER_EXPR)
            for (int k = 0; k < d->ncoef; k++) {
                char nm[24], text[128];
                snprintf(nm, sizeof nm, "coef.%d", k);
                mt_utf8_fmt(text, sizeof text, MT_("Coefficient c%d"), k);
                add(&f, nm, k < 4 && lb[k] ? lb[k] : text, MT_FIELD_NUMBER, k < 4 ? dm[k] : MT_DIM_NONE, X);
            }
        break;
    }
    case MT_EDIT_SPRING:
        add(&f, "name", MT_("Name"), MT_FIELD_NAME, MT_DIM_NONE, 0);
        add(&f, "mi", MT_("End i"), MT_FIELD_MARKER, MT_DIM_NONE, 0);
        add(&f, "mj", MT_("End j"), MT_FIELD_MARKER, MT_DIM_NONE, 0);
        add_rows(&f, MT_ENT_SPRING, 0, MT_FIELD_MAX, 0);
        break;
    case MT_EDIT_COUPLE:
        add(&f, "name", MT_("Name"), MT_FIELD_NAME, MT_DIM_NONE, 0);
        for (int k = 0; k < m->couple[index].n; k++) {
            char nm[24], lb[128];
            snprintf(nm, sizeof nm, "coef.%d", k);
            mt_utf8_fmt(lb, sizeof lb, MT_("Coefficient %d (joint '%s')"), k + 1, m->joint[m->couple[index].joint[k]].name);
            add(&f, nm, lb, MT_FIELD_NUMBER, MT_DIM_NONE, X);
        }
        break;
    case MT_EDIT_FORCE: {
        const MtForceSpec *fs = &m->force[index];
        add(&f, "name", MT_("Name"), MT_FIELD_NAME, MT_DIM_NONE, 0);
        if (fs->joint < 0) {
            add(&f, "mi", MT_("Marker i"), MT_FIELD_MARKER, MT_DIM_NONE, 0);
            if (fs->kind != MT_FORCE_DRAG) add(&f, "mj", MT_("Marker j"), MT_FIELD_MARKER, MT_DIM_NONE, 0);
        }
        const char *const *pn = mt_force_param_names(fs->kind);
        for (int q = 0; pn[q]; q++) add(&f, pn[q], pn[q], MT_FIELD_NUMBER, force_param_dim(fs->kind, pn[q]), X);
        if (fs->kind == MT_FORCE_ACTUATOR) {
            const char *const *ax = mt_load_comp_names; /* fx … tz */
            for (int q = 0; q < 6; q++) {
                char nm[24];
                snprintf(nm, sizeof nm, "expr.%s", ax[q]);
                add(&f, nm, ax[q], MT_FIELD_TEXT, MT_DIM_NONE, 0);
            }
        }
        break;
    }
    case MT_EDIT_SENSOR: {
        const MtSensorSpec *s = &m->sensor[index];
        add(&f, "name", MT_("Name"), MT_FIELD_NAME, MT_DIM_NONE, 0);
        if (s->kind == MT_SENSOR_EXPR) add(&f, "expr", MT_("Expression"), MT_FIELD_TEXT, MT_DIM_NONE, 0);
        add(&f, "unit", MT_("Display unit"), MT_FIELD_TEXT, MT_DIM_NONE, 0);
        break;
    }
    case MT_EDIT_SHAPE: {
        const MtShapeSpec *s = &m->shape[index];
        switch (s->kind) {
        case MT_SHAPE_BOX: add_vec(&f, "size", MT_("Size"), 3, xyz, MT_DIM_LENGTH, X); break;
        case MT_SHAPE_CYLINDER:
        case MT_SHAPE_CAPSULE:
            add(&f, "size.0", MT_("Radius"), MT_FIELD_NUMBER, MT_DIM_LENGTH, X);
            add(&f, "size.1", MT_("Length"), MT_FIELD_NUMBER, MT_DIM_LENGTH, X);
            break;
        case MT_SHAPE_SPHERE:
        case MT_SHAPE_BAR: add(&f, "size.0", MT_("Radius"), MT_FIELD_NUMBER, MT_DIM_LENGTH, X); break;
        case MT_SHAPE_MESH: add(&f, "size.0", MT_("Scale"), MT_FIELD_NUMBER, MT_DIM_NONE, X); break;
        default: break;
        }
        add_vec(&f, "pos", MT_("At"), 3, xyz, MT_DIM_LENGTH, X);
        if (s->kind == MT_SHAPE_BAR) add_vec(&f, "end", MT_("End point"), 3, xyz, MT_DIM_LENGTH, X);
        else add_vec(&f, "orientation", MT_("Rotation"), 3, xyz, MT_DIM_ANGLE, X); /* a bar's frame is its ends */
        break;
    }
    case MT_EDIT_PARAM:
        add(&f, "name", MT_("Name"), MT_FIELD_NAME, MT_DIM_NONE, 0);
        add(&f, "expr", MT_("Value or expression"), MT_FIELD_TEXT, MT_DIM_NONE, 0);
        add(&f, "unit", MT_("Unit"), MT_FIELD_TEXT, MT_DIM_NONE, 0);
        add_choice(&f, "slider", MT_("Slider"), onoff_choices);
        if (m->param[index].slider) { /* its range, in the parameter's unit */
            add(&f, "slider.min", MT_("Slider from"), MT_FIELD_TEXT, MT_DIM_NONE, 0);
            add(&f, "slider.max", MT_("Slider to"), MT_FIELD_TEXT, MT_DIM_NONE, 0);
        }
        break;
    case MT_EDIT_CONTROL: {
        const MtControlSpec *c = &m->control[index];
        const char *const *pn = mt_control_param_names(c->kind);
        add(&f, "name", MT_("Name"), MT_FIELD_NAME, MT_DIM_NONE, 0);
        add(&f, "input", MT_("Input"), MT_FIELD_TEXT, MT_DIM_NONE, 0);
        if (c->kind == MT_CONTROL_PID) add(&f, "setpoint", MT_("Set point"), MT_FIELD_TEXT, MT_DIM_NONE, 0);
        for (int q = 0; pn[q]; q++) {
            MtDim d = !strcmp(pn[q], "tf") || !strcmp(pn[q], "tau") ? MT_DIM_TIME
                      : !strcmp(pn[q], "wn")                          ? MT_DIM_ANGVEL
                                                                      : MT_DIM_NONE;
            add(&f, pn[q], pn[q], MT_FIELD_NUMBER, d, X);
        }
        add_choice(&f, "disabled", MT_("Disabled"), onoff_choices);
        break;
    }
    case MT_EDIT_EVENT: {
        const MtEventSpec *ev = &m->event[index];
        add(&f, "name", MT_("Name"), MT_FIELD_NAME, MT_DIM_NONE, 0);
        if (ev->trigger == MT_EVENT_AT) add(&f, "time", MT_("Time"), MT_FIELD_NUMBER, MT_DIM_TIME, X);
        else {
            add(&f, "expr", MT_("Expression"), MT_FIELD_TEXT, MT_DIM_NONE, 0);
            add(&f, "value", MT_("Crossing value"), MT_FIELD_NUMBER, MT_DIM_NONE, X);
        }
        break;
    }
    case MT_EDIT_GRAVITY: add_vec(&f, "gravity", MT_("Gravity"), 3, xyz, MT_DIM_ACCEL, X); break;
    case MT_EDIT_SOLVER:
        add_rows(&f, MT_ENT_SOLVER, 0, MT_FIELD_MAX, 0);
        break;
    default: break;
    }
    return f.n;
}

/* The MtEntityKind of bindable kinds, or -1. */
static int entity_kind(MtEditKind k)
{
    switch (k) {
    case MT_EDIT_BODY: return MT_ENT_BODY;
    case MT_EDIT_MARKER: return MT_ENT_MARKER;
    case MT_EDIT_JOINT: return MT_ENT_JOINT;
    case MT_EDIT_DRIVER: return MT_ENT_DRIVER;
    case MT_EDIT_SPRING: return MT_ENT_SPRING;
    case MT_EDIT_COUPLE: return MT_ENT_COUPLE;
    case MT_EDIT_FORCE: return MT_ENT_FORCE;
    case MT_EDIT_GRAVITY: return MT_ENT_GRAVITY;
    case MT_EDIT_SOLVER: return MT_ENT_SOLVER;
    case MT_EDIT_SHAPE: return MT_ENT_SHAPE;
    case MT_EDIT_CONTROL: return MT_ENT_CONTROL;
    case MT_EDIT_EVENT: return MT_ENT_EVENT;
    default: return -1;
    }
}

/* "name.k" → component k of a vector of n, or -1. */
static int comp_of(const char *field, const char *base, int n)
{
    size_t l = strlen(base);
    if (strncmp(field, base, l) || field[l] != '.') return -1;
    char *end;
    long k = strtol(field + l + 1, &end, 10);
    return (*end || k < 0 || k >= n) ? -1 : (int)k;
}

/* The inspector shows a body's or a shape's orientation as three angles
 * (the form 'angles') and a marker's as its z axis (the form 'z', or
 * 'z … x …'): the word a field is, or -1 for other fields. */
static int orient_word(MtEditKind kind, const char *field)
{
    if (kind == MT_EDIT_BODY || kind == MT_EDIT_SHAPE) return comp_of(field, "orientation", 3);
    if (kind == MT_EDIT_MARKER) return comp_of(field, "zaxis", 3);
    return -1;
}

/* Whether an entity's orientation is typed in the inspector's form. */
static int same_form(MtEditKind kind, const MtModel *m, int index)
{
    MtOrientForm f = mt_model_orient((MtModel *)m, (MtEntityKind)entity_kind(kind), index, NULL)->form;
    if (kind == MT_EDIT_MARKER) return f == MT_ORIENT_Z || f == MT_ORIENT_ZX;
    return f == MT_ORIENT_ANGLES;
}

/* The orientation in the inspector's form: as typed, or from the rotation
 * (the angles of R = Rz·Ry·Rx; the z axis, the third column). */
static void orient_as_shown(const MtModel *m, MtEditKind kind, int index, MtOrient *o)
{
    double *R;
    const MtOrient *typed = mt_model_orient((MtModel *)m, (MtEntityKind)entity_kind(kind), index, &R);
    if (same_form(kind, m, index)) {
        *o = *typed;
        return;
    }
    memset(o, 0, sizeof *o);
    if (kind != MT_EDIT_MARKER) {
        o->form = MT_ORIENT_ANGLES;
        mt_edit_rot_to_angles(R, o->w);
    } else {
        o->form = MT_ORIENT_Z;
        for (int k = 0; k < 3; k++) o->w[k] = R[3 * k + 2];
    }
    for (int k = 0; k < 3; k++) o->w[k] += 0.0; /* −0 written as 0 */
}

/* Address of a numeric field (every one is bindable); NULL when there is none. */
static double *field_addr(MtModel *m, MtEditKind kind, int index, const char *field)
{
    int ek = entity_kind(kind);
    if (ek < 0 || (kind == MT_EDIT_BODY && index == MT_GROUND)) return NULL;
    return mt_model_field(m, (MtEntityKind)ek, index, field);
}

/* Whether a field may hold an expression (as listed by mt_edit_fields). */
static const MtFieldInfo *find_field(const MtModel *m, MtEditKind kind, int index, const char *field, MtFieldInfo *buf)
{
    int n = mt_edit_fields(m, kind, index, buf, MT_FIELD_MAX);
    for (int i = 0; i < n; i++)
        if (!strcmp(buf[i].name, field)) return &buf[i];
    return NULL;
}

const MtUnit *mt_edit_display_unit(const MtModel *m, MtDim dim)
{
    const char *q = mt_dim_name(dim);
    for (int i = 0; q && i < m->nunit; i++)
        if (!strcmp(m->unit[i].quantity, q)) {
            const MtUnit *u = mt_unit_lookup(m->unit[i].unit, dim);
            if (u) return u;
        }
    return dim == MT_DIM_NONE ? NULL : mt_unit_si(dim);
}

static int choice_index(const char *const *choices, const char *s)
{
    for (int i = 0; choices[i]; i++)
        if (!strcmp(choices[i], s)) return i;
    return -1;
}

/* The member of a schema row that is no number (a keyword, whole number,
 * switch or text), or NULL. */
static void *schema_setting(const MtModel *m, MtEditKind kind, int index, const char *field)
{
    int ek = entity_kind(kind), comp;
    const MtField *sf = ek >= 0 ? mt_schema_find((MtEntityKind)ek, field, &comp) : NULL;
    if (!sf || sf->type == MT_ST_REAL || sf->type == MT_ST_VEC) return NULL;
    void *obj = mt_schema_object(m, (MtEntityKind)ek, index);
    return obj ? MT_SCHEMA_AT(obj, sf) : NULL;
}

static MtStatus get_field(const MtModel *cm, MtEditKind kind, int index, const char *field, char *buf, size_t n,
                          int digits, MtError *err);

static MtStatus field_text(const MtModel *cm, MtEditKind kind, int index, const char *field, char *buf, size_t n,
                           int digits, MtError *err)
{
    /* the whole text, then refused if it does not fit: a cut expression shown in
     * the inspector would be committed cut when the user edits it */
    char t[MT_FIELD_TEXT_MAX + 64];
    MtStatus rc = get_field(cm, kind, index, field, t, sizeof t, digits, err);
    if (rc) return rc;
    size_t len = strlen(t);
    if (len >= n) {
        if (n) buf[0] = 0;
        return mt_error_set(err, MT_ERR_ARG, field, MT_("the text of field '%s' is %zu bytes long, more than the %zu of the buffer"),
                            field, len, n ? n - 1 : 0);
    }
    memcpy(buf, t, len + 1);
    return MT_OK;
}

MtStatus mt_edit_get_field(const MtModel *cm, MtEditKind kind, int index, const char *field, char *buf, size_t n,
                           MtError *err)
{
    return field_text(cm, kind, index, field, buf, n, 6, err);
}

MtStatus mt_edit_get_field_exact(const MtModel *cm, MtEditKind kind, int index, const char *field, char *buf, size_t n,
                                 MtError *err)
{
    return field_text(cm, kind, index, field, buf, n, 0, err);
}

/* A field's text, numbers to `digits` significant digits (0: the fewest that read back the same). */
static MtStatus get_field(const MtModel *cm, MtEditKind kind, int index, const char *field, char *buf, size_t n,
                          int digits, MtError *err)
{
    MtModel *m = (MtModel *)cm; /* only read */
    if (kind == MT_EDIT_GRAVITY || kind == MT_EDIT_SOLVER) index = 0; /* bindings use 0 */
    MtFieldInfo fields[MT_FIELD_MAX];
    const MtFieldInfo *fi = find_field(m, kind, index, field, fields);
    char what[160];
    if (!fi)
        return mt_error_set(err, MT_ERR_ARG, mt_edit_name(m, kind, index), MT_("%s has no field '%s'"),
                            mt_edit_describe(m, kind, index, what, sizeof what), field);
    buf[0] = 0;
    const void *at = schema_setting(m, kind, index, field);
    if (at) { /* a keyword, whole number, switch or text of the schema */
        int comp;
        const MtField *sf = mt_schema_find((MtEntityKind)entity_kind(kind), field, &comp);
        if (sf->type == MT_ST_ENUM) snprintf(buf, n, "%s", mt_schema_enum_name(sf, *(const int *)at));
        else if (sf->type == MT_ST_FLAG) snprintf(buf, n, "%s", onoff_choices[*(const int *)at != 0]);
        else if (sf->type == MT_ST_INT) snprintf(buf, n, "%d", *(const int *)at);
        else snprintf(buf, n, "%s", (const char *)at);
        return MT_OK;
    }
    switch (fi->type) {
    case MT_FIELD_NAME: snprintf(buf, n, "%s", mt_edit_name(m, kind, index)); return MT_OK;
    case MT_FIELD_MARKER: {
        int mk = !strcmp(field, "mi") ? (kind == MT_EDIT_JOINT ? m->joint[index].mi
                                         : kind == MT_EDIT_SPRING ? m->spring[index].mi
                                                                  : m->force[index].mi)
                                      : (kind == MT_EDIT_JOINT ? m->joint[index].mj
                                         : kind == MT_EDIT_SPRING ? m->spring[index].mj
                                                                  : m->force[index].mj);
        char ref[2 * MT_NAME_MAX + 2];
        snprintf(buf, n, "%s", mk >= 0 ? mt_model_marker_ref(m, mk, ref, sizeof ref) : "");
        return MT_OK;
    }
    case MT_FIELD_CHOICE: {
        int v = 0;
        if (!strcmp(field, "type")) v = m->joint[index].type;
        else if (!strcmp(field, "disabled")) v = m->control[index].disabled != 0;
        else if (!strcmp(field, "level")) v = (int)m->driver[index].level;
        else if (!strcmp(field, "law")) v = (int)m->driver[index].kind;
        else if (!strcmp(field, "slider")) v = m->param[index].slider != 0;
        snprintf(buf, n, "%s", fi->choices[v]);
        return MT_OK;
    }
    case MT_FIELD_TEXT: {
        const char *s = "";
        if (kind == MT_EDIT_PARAM && !strncmp(field, "slider.", 7)) { /* a number in the parameter's unit */
            const MtParamSpec *p = &m->param[index];
            snprintf(buf, n, "%s", MT_DOUBLE_STR((field[7] == 'm' && field[8] == 'i' ? p->slider_lo : p->slider_hi) /
                                                 mt_param_unit_factor(p)));
            return MT_OK;
        }
        if (kind == MT_EDIT_PARAM) s = !strcmp(field, "expr") ? m->param[index].expr : m->param[index].unit;
        else if (kind == MT_EDIT_SENSOR) s = !strcmp(field, "expr") ? m->sensor[index].expr : m->sensor[index].unit;
        else if (kind == MT_EDIT_CONTROL) s = !strcmp(field, "input") ? m->control[index].input : m->control[index].setpoint;
        else if (kind == MT_EDIT_EVENT) s = m->event[index].expr;
        else if (kind == MT_EDIT_DRIVER) s = m->driver[index].expr;
        else if (kind == MT_EDIT_FORCE) {
            const char *const *ax = mt_load_comp_names; /* fx … tz */
            for (int q = 0; q < 6; q++)
                if (!strcmp(field + 5, ax[q])) s = m->force[index].expr[q];
        }
        snprintf(buf, n, "%s", s);
        return MT_OK;
    }
    case MT_FIELD_INT: break; /* the schema's */
    case MT_FIELD_NUMBER: {
        int ek = entity_kind(kind);
        const MtBinding *b = ek >= 0 ? mt_model_binding(m, (MtEntityKind)ek, index, field) : NULL;
        if (b) {
            snprintf(buf, n, "{%s}", b->expr);
            return MT_OK;
        }
        int ow = orient_word(kind, field);
        if (ow >= 0) { /* the words of the inspector's form, or the present rotation as that form */
            MtOrient o;
            orient_as_shown(m, kind, index, &o);
            char bf[24];
            snprintf(bf, sizeof bf, "orient.%d", ow);
            if (same_form(kind, m, index) && (b = mt_model_binding(m, (MtEntityKind)ek, index, bf)))
                snprintf(buf, n, "{%s}", b->expr);
            else
                mt_units_format(o.w[ow], mt_edit_display_unit(m, fi->dim), digits, buf, n);
            return MT_OK;
        }
        double *x = field_addr(m, kind, index, field);
        if (!x) return mt_error_set(err, MT_ERR_ARG, field, MT_("no such field '%s'"), field);
        mt_units_format(*x, mt_edit_display_unit(m, fi->dim), digits, buf, n);
        return MT_OK;
    }
    }
    return MT_OK;
}

/* Removes the binding of a field (a number typed over an expression). */
static void unbind(MtModel *m, int ek, int index, const char *field)
{
    for (int i = 0; i < m->nbinding; i++) {
        MtBinding *b = &m->binding[i];
        if ((int)b->kind == ek && b->index == index && !strcmp(b->field, field)) {
            memmove(b, b + 1, (size_t)(m->nbinding - i - 1) * sizeof *b);
            m->nbinding--;
            return;
        }
    }
}

static int resolve_param(void *user, const char *name, int *slot)
{
    int i = mt_model_find_param(user, name);
    if (i < 0) return 0;
    *slot = i;
    return 1;
}

/* Word k of an orientation: a number, or the expression expr. The
 * orientation is first made the inspector's form from its present rotation
 * when it has another (whose expressions then go, as under a number typed
 * over an expression); with no expression left it is numbers again, its
 * rotation (a marker's x axis then comes from project x, see mt_orient_rot). */
static MtStatus set_orient_word(MtModel *c, MtEditKind kind, int index, int k, double v, const char *expr, MtError *why)
{
    MtEntityKind ek = (MtEntityKind)entity_kind(kind);
    double *rot;
    MtOrient *o = mt_model_orient(c, ek, index, &rot);
    if (!same_form(kind, c, index)) {
        MtOrient t;
        orient_as_shown(c, kind, index, &t);
        mt_model_orient_clear(c, ek, index);
        *o = t;
    }
    char field[24];
    snprintf(field, sizeof field, "orient.%d", k);
    if (expr) {
        if (mt_model_bind(c, ek, index, field, expr, why) < 0) return why->code ? why->code : MT_ERR_MODEL;
    } else {
        o->w[k] = v;
        unbind(c, ek, index, field);
    }
    if (!mt_model_orient_bound(c, ek, index)) {
        int rc = mt_orient_rot(o->form, o->w, rot);
        if (rc) return mt_error_set(why, MT_ERR_MODEL, "", "%s", mt_orient_problem(rc));
        o->form = MT_ORIENT_NONE;
    }
    return MT_OK;
}

/* Gives driver d another law, its coefficients started from the old law's
 * value at t = 0 and rate where the new law has them (a unit-sized motion
 * otherwise: 1 rad or 0.1 m); the old coefficients' expressions go, as their
 * meaning does. A table's points are typed in the model text. */
static MtStatus set_driver_law(MtModel *c, int index, MtDriverKind kind, MtError *why)
{
    MtDriverSpec *d = &c->driver[index];
    if (kind == d->kind) return MT_OK;
    if (kind == MT_DRIVER_TABLE)
        return mt_error_set(why, MT_ERR_ARG, "", "%s", MT_("a table law is written with its points in the model text "
                                                         "('driver NAME JOINT table T0 F0 T1 F1 …')"));
    double v0 = 0, r0 = 0;
    switch (d->kind) {
    case MT_DRIVER_POLY: v0 = d->coef[0], r0 = d->ncoef > 1 ? d->coef[1] : 0; break;
    case MT_DRIVER_RATE: v0 = d->coef[0], r0 = d->coef[1]; break;
    case MT_DRIVER_HARMONIC: v0 = d->coef[0] * sin(d->coef[2]) + d->coef[3], r0 = d->coef[0] * d->coef[1] * cos(d->coef[2]); break;
    case MT_DRIVER_STEP: v0 = d->coef[1]; break;
    case MT_DRIVER_TABLE: v0 = d->ntab > 0 ? d->tab[1] : 0; break;
    case MT_DRIVER_EXPR: {
        MtExpr *x = mt_model_driver_law(c, index, NULL);
        double j[3] = {0, 0, 0};
        double *vars = calloc((size_t)c->nparam + 1, sizeof *vars);
        if (x && vars) {
            for (int i = 0; i < c->nparam; i++) vars[1 + i] = c->param[i].value;
            mt_expr_eval_jet(x, vars, 0, 0, j);
        }
        if (isfinite(j[0]) && isfinite(j[1])) v0 = j[0], r0 = j[1];
        free(vars);
        mt_expr_free(x);
        break;
    }
    }
    double unit = driver_dim(d, 0) == MT_DIM_ANGLE ? 1 : 0.1;
    if (r0 == 0) r0 = unit;
    for (int k = 0; k < d->ncoef && k < MT_POLY_MAX; k++) {
        char f[24];
        snprintf(f, sizeof f, "coef.%d", k);
        unbind(c, MT_ENT_DRIVER, index, f);
    }
    if (kind == MT_DRIVER_EXPR) { /* the same start as a rate law, written out */
        char src[2 * MT_DOUBLE_BUF + 16];
        snprintf(src, sizeof src, "%s + %s*t", MT_DOUBLE_STR(v0), MT_DOUBLE_STR(r0));
        return mt_model_driver_set_expr(c, index, src, why);
    }
    free(d->tab);
    d->tab = NULL;
    d->ntab = 0;
    memset(d->coef, 0, sizeof d->coef);
    switch (kind) {
    case MT_DRIVER_RATE:
    case MT_DRIVER_POLY: d->ncoef = 2, d->coef[0] = v0, d->coef[1] = r0; break;
    case MT_DRIVER_HARMONIC: d->ncoef = 4, d->coef[0] = unit, d->coef[1] = 2 * M_PI, d->coef[3] = v0; break;
    default: d->ncoef = 4, d->coef[1] = v0, d->coef[2] = 1, d->coef[3] = v0 + unit; break; /* step over the first second */
    }
    d->kind = kind;
    d->expr[0] = 0;
    return MT_OK;
}

/* Stops a refused edit's message from repeating the entity: when the core's
 * message starts with "<what>: ", the field goes in after <what>. */
static MtStatus field_error(MtError *err, const char *entity, const char *what, const char *label, const MtError *why)
{
    size_t l = strlen(what);
    if (!strncmp(why->msg, what, l) && why->msg[l] == ':')
        return mt_error_set(err, why->code ? why->code : MT_ERR_MODEL, entity, "%s, %s%s", what, label, why->msg + l);
    return mt_error_set(err, why->code ? why->code : MT_ERR_MODEL, entity, "%s, %s: %s", what, label, why->msg);
}

/* A parameter's slider on (its range ±50 % of the value, or −1 … 1 in its unit about 0) or off. */
static void set_slider(MtParamSpec *p, int on)
{
    if (on && !p->slider) {
        double v = p->value, h = fabs(v) > 0 ? 0.5 * fabs(v) : mt_param_unit_factor(p);
        p->slider_lo = v - h;
        p->slider_hi = v + h;
    }
    p->slider = on;
}

/* One end of a parameter's slider from a number in the parameter's unit. */
static MtStatus set_slider_end(MtParamSpec *p, int lo, const char *t, MtError *why)
{
    char clean[64], *end;
    if (mt_units_delocalise(t, clean, sizeof clean)) snprintf(clean, sizeof clean, "%s", t);
    double x = strtod(clean, &end);
    if (end == clean || *end || !isfinite(x))
        return mt_error_set(why, MT_ERR_MODEL, "", MT_("'%s' is not a number (the slider's ends are in the parameter's unit)"), t);
    x *= mt_param_unit_factor(p);
    if (lo ? !(x < p->slider_hi) : !(x > p->slider_lo))
        return mt_error_set(why, MT_ERR_MODEL, "", "%s", MT_("the slider's start must be below its end"));
    *(lo ? &p->slider_lo : &p->slider_hi) = x;
    return MT_OK;
}

/* Applies text to a field of the copy c; the checks of the whole model follow. */
static MtStatus apply(MtModel *c, MtEditKind kind, int index, const MtFieldInfo *fi, const char *text, MtError *why)
{
    const char *field = fi->name;
    while (*text == ' ' || *text == '\t') text++;
    size_t tl = strlen(text);
    while (tl && (text[tl - 1] == ' ' || text[tl - 1] == '\t')) tl--;
    char t[MT_EXPR_MAX + 2];
    if (tl >= sizeof t - 1) return mt_error_set(why, MT_ERR_ARG, "", MT_("longer than %d characters"), MT_EXPR_MAX - 1);
    memcpy(t, text, tl);
    t[tl] = 0;
    if (schema_setting(c, kind, index, field)) { /* a keyword, whole number, switch or text of the schema */
        size_t l = strlen(t);
        if (fi->type == MT_FIELD_TEXT && l >= 2 && t[0] == '{' && t[l - 1] == '}') { /* the text format's braces */
            memmove(t, t + 1, l - 2);
            t[l - 2] = 0;
        }
        char what[160];
        return mt_schema_set_text(c, (MtEntityKind)entity_kind(kind), index, field, t, mt_edit_describe(c, kind, index, what, sizeof what),
                                  why);
    }
    switch (fi->type) {
    case MT_FIELD_NAME: return mt_error_set(why, MT_ERR_ARG, "", "%s", MT_("use rename to change a name"));
    case MT_FIELD_MARKER: {
        int mk = mt_model_find_marker(c, t);
        if (mk < 0) return mt_error_set(why, MT_ERR_MODEL, "", MT_("no marker '%s' (write body.marker)"), t);
        int *slot = kind == MT_EDIT_JOINT ? (!strcmp(field, "mi") ? &c->joint[index].mi : &c->joint[index].mj)
                    : kind == MT_EDIT_SPRING ? (!strcmp(field, "mi") ? &c->spring[index].mi : &c->spring[index].mj)
                                             : (!strcmp(field, "mi") ? &c->force[index].mi : &c->force[index].mj);
        *slot = mk;
        return MT_OK;
    }
    case MT_FIELD_CHOICE: {
        int v = choice_index(fi->choices, t);
        if (v < 0) {
            char list[256] = "";
            for (int i = 0; fi->choices[i]; i++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", fi->choices[i]);
            return mt_error_set(why, MT_ERR_ARG, "", MT_("'%s' is not one of: %s"), t, list);
        }
        if (!strcmp(field, "type")) {
            MtJointType old = c->joint[index].type;
            c->joint[index].type = (MtJointType)v;
            /* parameters that a new type needs get a start value */
            MtJointSpec *j = &c->joint[index];
            if (old != j->type && !(j->param > 0)) {
                if (j->type == MT_JOINT_SCREW) j->param = 0.01;
                if (j->type == MT_JOINT_ROLLING || j->type == MT_JOINT_BALL) j->param = 0.1;
                if (j->type == MT_JOINT_DISTANCE) j->param = 0.1;
            }
        }
        else if (!strcmp(field, "disabled")) c->control[index].disabled = v;
        else if (!strcmp(field, "level")) c->driver[index].level = (MtDriverLevel)v;
        else if (!strcmp(field, "law")) return set_driver_law(c, index, (MtDriverKind)v, why);
        else if (!strcmp(field, "slider")) set_slider(&c->param[index], v);
        return MT_OK;
    }
    case MT_FIELD_TEXT: {
        char *dst = NULL;
        size_t cap = MT_EXPR_MAX;
        if (kind == MT_EDIT_PARAM) {
            MtParamSpec *p = &c->param[index];
            if (!strncmp(field, "slider.", 7)) return set_slider_end(p, field[8] == 'i', t, why);
            if (!strcmp(field, "unit")) {
                if (t[0] && !mt_unit_find(t, NULL, NULL)) return mt_error_set(why, MT_ERR_MODEL, "", MT_("unknown unit '%s'"), t);
                if (strlen(t) >= sizeof p->unit) return mt_error_set(why, MT_ERR_MODEL, "", MT_("unknown unit '%s'"), t);
                memcpy(p->unit, t, strlen(t) + 1);
                return MT_OK;
            }
            if (!t[0]) return mt_error_set(why, MT_ERR_MODEL, "", "%s", MT_("give a value or an expression"));
            dst = p->expr;
        } else if (kind == MT_EDIT_SENSOR) {
            if (!strcmp(field, "unit")) {
                if (t[0] && !mt_unit_find(t, NULL, NULL)) return mt_error_set(why, MT_ERR_MODEL, "", MT_("unknown unit '%s'"), t);
                dst = c->sensor[index].unit;
                cap = sizeof c->sensor[index].unit;
            } else dst = c->sensor[index].expr;
        } else if (kind == MT_EDIT_CONTROL) dst = !strcmp(field, "input") ? c->control[index].input : c->control[index].setpoint;
        else if (kind == MT_EDIT_EVENT) dst = c->event[index].expr;
        else if (kind == MT_EDIT_DRIVER && c->driver[index].kind == MT_DRIVER_EXPR) {
            dst = c->driver[index].expr;
            cap = sizeof c->driver[index].expr;
        } else if (kind == MT_EDIT_FORCE) {
            const char *const *ax = mt_load_comp_names; /* fx … tz */
            for (int q = 0; q < 6; q++)
                if (!strcmp(field + 5, ax[q])) dst = c->force[index].expr[q];
        }
        if (!dst) return mt_error_set(why, MT_ERR_ARG, "", "%s", MT_("no such field"));
        if (strlen(t) >= cap) return mt_error_set(why, MT_ERR_ARG, "", MT_("longer than %d characters"), (int)cap - 1);
        /* a braced expression is the text format's spelling; store it bare */
        size_t l = strlen(t);
        if (l >= 2 && t[0] == '{' && t[l - 1] == '}') {
            memmove(t, t + 1, l - 2);
            t[l - 2] = 0;
        }
        memcpy(dst, t, strlen(t) + 1); /* length checked above */
        return MT_OK;
    }
    case MT_FIELD_INT: return mt_error_set(why, MT_ERR_ARG, "", "%s", MT_("no such field")); /* the schema's, above */
    case MT_FIELD_NUMBER: break;
    }
    /* a number with or without unit, or an expression of parameters */
    if (!t[0]) return mt_error_set(why, MT_ERR_MODEL, "", "%s", MT_("give a value"));
    int ek = entity_kind(kind);
    const MtUnit *du = mt_edit_display_unit(c, fi->dim);
    double v;
    MtError perr = {0};
    int braced = t[0] == '{';
    if (!braced && mt_units_parse(t, fi->dim == MT_DIM_NONE ? MT_DIM_ANY : fi->dim, du ? du->name : NULL, &v, &perr) == MT_OK) {
        if (fi->dim == MT_DIM_NONE) { /* a plain number: no unit accepted */
            double plain;
            if (!mt_expr_is_number(t, &plain)) return mt_error_set(why, MT_ERR_MODEL, "", MT_("'%s': this field takes a plain number"), t);
            v = plain;
        }
        if (orient_word(kind, field) >= 0) return set_orient_word(c, kind, index, orient_word(kind, field), v, NULL, why);
        double *x = field_addr(c, kind, index, field);
        if (!x) return mt_error_set(why, MT_ERR_ARG, "", "%s", MT_("no such field"));
        *x = v;
        if (ek >= 0) unbind(c, ek, index, field);
        return MT_OK;
    }
    /* not a number: an expression? */
    size_t l = strlen(t);
    if (braced) {
        if (l < 2 || t[l - 1] != '}') return mt_error_set(why, MT_ERR_SYNTAX, "", "%s", MT_("an expression in braces lacks its '}'"));
        memmove(t, t + 1, l - 2);
        t[l - 2] = 0;
    }
    double val;
    MtError eerr = {0};
    /* the parameters' present values (the copy carries those of the last evaluation) */
    double *vars = malloc(((size_t)c->nparam + 1) * sizeof *vars);
    if (!vars) return mt_error_set(why, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
    for (int i = 0; i < c->nparam; i++) vars[i] = c->param[i].value;
    MtStatus erc = mt_expr_eval_constant(t, resolve_param, c, vars, &val, &eerr);
    free(vars);
    if (erc != MT_OK) {
        /* looks like a number with a unit: the unit message helps more */
        double dummy;
        if (!braced && mt_expr_scan_number(t[0] == '-' || t[0] == '+' ? t + 1 : t, &dummy) > 0 && perr.msg[0])
            return mt_error_set(why, MT_ERR_SYNTAX, "", "%s", perr.msg);
        return mt_error_set(why, MT_ERR_SYNTAX, "", MT_("'%s' is neither a number nor an expression of parameters (%s)"), t,
                            eerr.msg);
    }
    if (!(fi->flags & MT_FIELD_EXPR))
        return mt_error_set(why, MT_ERR_MODEL, "", "%s", MT_("this field takes a number, not an expression"));
    if (orient_word(kind, field) >= 0) return set_orient_word(c, kind, index, orient_word(kind, field), 0, t, why);
    if (mt_model_bind(c, (MtEntityKind)ek, index, field, t, why) < 0) return why->code ? why->code : MT_ERR_MODEL;
    return MT_OK;
}

MtStatus mt_edit_set_field(MtEditor *e, MtEditKind kind, int index, const char *field, const char *text, MtError *err)
{
    const MtModel *m = e->model;
    if (kind == MT_EDIT_GRAVITY || kind == MT_EDIT_SOLVER) index = 0; /* bindings use 0 */
    char what[160];
    mt_edit_describe(m, kind, index, what, sizeof what);
    const char *entity = mt_edit_name(m, kind, index);
    if (!mt_edit_valid(m, kind, index)) return mt_error_set(err, MT_ERR_ARG, "", MT_("%s does not exist"), what);
    MtFieldInfo fields[MT_FIELD_MAX];
    const MtFieldInfo *fi = find_field(m, kind, index, field, fields);
    if (!fi) return mt_error_set(err, MT_ERR_ARG, entity, MT_("%s has no field '%s'"), what, field);
    if (fi->type == MT_FIELD_NAME) return mt_edit_rename(e, kind, index, text, err);
    if (fi->flags & MT_FIELD_READONLY)
        return mt_error_set(err, MT_ERR_MODEL, entity,
                            MT_("%s, %s: computed from the shapes and the density; set the density to 0 to type it"), what,
                            fi->label);
    MtModel *c = mt_model_copy(m);
    if (!c) return mt_error_set(err, MT_ERR_NOMEM, entity, "%s", MT_("out of memory"));
    MtError why = {0};
    MtStatus rc = apply(c, kind, index, fi, text ? text : "", &why);
    if (rc == MT_OK) rc = mt_edit_check(c, &why);
    if (rc != MT_OK) {
        mt_model_free(c);
        return field_error(err, entity, what, fi->label, &why);
    }
    char label[256];
    mt_utf8_fmt(label, sizeof label, MT_("set %s of %s"), fi->label, what);
    rc = mt_editor_commit(e, c, label, &why);
    if (rc) return field_error(err, entity, what, fi->label, &why);
    return MT_OK;
}

void mt_edit_rot_to_angles(const double R[9], double a[3])
{
    double sy = -R[6];
    if (sy > 1) sy = 1;
    if (sy < -1) sy = -1;
    a[1] = asin(sy);
    if (fabs(sy) < 1 - 1e-12) {
        a[0] = atan2(R[7], R[8]);
        a[2] = atan2(R[3], R[0]);
    } else { /* gimbal lock: the x turn is taken as 0 */
        a[0] = 0;
        a[2] = atan2(-R[1], R[4]);
    }
}
