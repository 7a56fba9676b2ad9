/* mt_store.c — the model of a project: saving an MtModel into the entity
 * tables in one transaction and loading it back with validation; saved plot
 * layouts. The tables are described in docs/project-format.md and created by
 * mt_store_schema.c. Both go table by table, a static step for each table or
 * group of tables, in an order where every reference is to a row already
 * written (or read). Declared in motus/store.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mt_flexmodel.h"
#include "mt_i18n.h"
#include "mt_store_internal.h"

#define MOTUS_SAVED_BY "motus 0.1.0"

/* Every field of the model's entities is written and read here: the settings
 * of the schema (motus/schema.h: solver, bodies, markers, joints, springs, flexible bodies)
 * through mt_store_rows.c, the rest by hand. When a spec that has no schema
 * yet grows, this file and the tables must follow: the sizes below (x86-64)
 * remind whoever changes them. */
#if defined(__x86_64__) && defined(__linux__)
#define SPEC_SIZE(T, n) _Static_assert(sizeof(T) == (n), #T " changed: update its table in mt_store*.c and docs/project-format.md")
SPEC_SIZE(MtModel, 16760); /* a new kind of entity needs a table of its own (plots, derived curves and the view: the plots table; the study: study_lines) */
SPEC_SIZE(MtDerivedSpec, 336);
SPEC_SIZE(MtDriverSpec, 1200);
SPEC_SIZE(MtCoupleSpec, 120);
SPEC_SIZE(MtInitialSpec, 40);
SPEC_SIZE(MtShapeSpec, 504);
SPEC_SIZE(MtForceSpec, 6808);
SPEC_SIZE(MtSensorSpec, 1152);
SPEC_SIZE(MtControlSpec, 2176);
SPEC_SIZE(MtEventSpec, 1128);
SPEC_SIZE(MtParamSpec, 1136); /* its slider: the plots table, row "sliders" */
SPEC_SIZE(MtBinding, 1056);
SPEC_SIZE(MtDisplayUnit, 40);
#endif

#define kind_names mt_store_entity_kinds
#define NKIND MT_STORE_NENTITY_KINDS
/* Fixed vocabularies of controls, events and loops: CHECK lists in mt_store_schema.c. */
static const char *const trigger_names[] = {"at", "crosses"};
static const char *const direction_names[] = {"falling", "either", "rising"}; /* direction −1, 0, +1 */
#define ENUM_SIZE(last, n) _Static_assert((last) == (n) - 1, #last " changed: update the CHECK list in mt_store_schema.c (a migration) and mt_store.c")
ENUM_SIZE(MT_CONTROL_NKINDS - 1, 3);
ENUM_SIZE(MT_EVENT_CROSSES, 2);
ENUM_SIZE(MT_ACTION_DISABLE, 5);
ENUM_SIZE(MT_TARGET_CONTROL, 6);
ENUM_SIZE(MT_LOOPS_MLF, 4);
/* Columns kp ki kd tf k tau wn zeta of table controls: the index in
 * MtControlSpec.p of each kind (-1: NULL); the limits lo, hi follow in p. */
static const signed char control_setting[3][8] = {{0, 1, 2, 3, -1, -1, -1, -1}, {-1, -1, -1, -1, 0, 1, -1, -1},
                                                  {-1, -1, -1, -1, 0, -1, 1, 2}};
static const int control_limit[3] = {4, 2, 3};

/* ---- binding parameters ------------------------------------------------------ */

typedef struct {
    sqlite3_stmt *st;
    int i;
} Row;

static void bd(Row *r, double v) { sqlite3_bind_double(r->st, ++r->i, v); }
static void bdv(Row *r, const double *v, int n)
{
    for (int k = 0; k < n; k++) bd(r, v[k]);
}
static void bi(Row *r, sqlite3_int64 v) { sqlite3_bind_int64(r->st, ++r->i, v); }
static void bt(Row *r, const char *t)
{
    if (t) sqlite3_bind_text(r->st, ++r->i, t, -1, SQLITE_TRANSIENT);
    else sqlite3_bind_null(r->st, ++r->i);
}
static void bn(Row *r) { sqlite3_bind_null(r->st, ++r->i); }
/* An orientation as typed (its expressions go into bindings), NULL without one. */
static void bo(Row *r, const MtOrient *o)
{
    char t[512];
    bt(r, o->form != MT_ORIENT_NONE && mt_orient_to_text(o, t, sizeof t) == 0 ? t : NULL);
}
/* Steps an INSERT/UPDATE and makes it ready for the next row; SQLite code. */
static int done(Row *r)
{
    int rc = sqlite3_step(r->st);
    sqlite3_reset(r->st);
    sqlite3_clear_bindings(r->st);
    r->i = 0;
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* "INSERT INTO table(head, the settings' columns) VALUES (?, …)" into sql:
 * the columns in head (comma-separated), then those of kind's schema rows. */
static void insert_rows(char *sql, size_t n, const char *table, const char *head, MtEntityKind kind)
{
    char cols[1024], qs[512];
    mt_store_rows_columns(kind, ", %s", cols, sizeof cols);
    mt_store_rows_columns(kind, ", ?", qs, sizeof qs);
    int len = snprintf(sql, n, "INSERT INTO %s(%s%s) VALUES (?", table, head, cols);
    for (const char *c = head; *c && len > 0 && (size_t)len + 3 < n; c++)
        if (*c == ',') len += snprintf(sql + len, n - (size_t)len, ", ?");
    if (len > 0 && (size_t)len < n) snprintf(sql + len, n - (size_t)len, "%s)", qs);
}
static int name_index(const char *const *names, int n, const char *s)
{
    if (!s) return -1;
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], s)) return i;
    return -1;
}

/* ---- saving ---------------------------------------------------------------------- */

/* An insert that failed: constraint violations name the entity. */
static MtStatus row_error(MtStore *s, int rc, const char *entity, MtError *err)
{
    if ((rc & 0xff) == SQLITE_CONSTRAINT)
        return mt_error_set(err, MT_ERR_MODEL, entity, MT_("'%s': '%s' cannot be saved: %s"), s->path, entity, sqlite3_errmsg(s->db));
    return mt_store_sqlerr(s, rc, err);
}

/* What the steps of a save share. A step returns 0, or 1 when it failed: err
 * says why (the entity named) and the save stops there and is rolled back. */
typedef struct {
    MtStore *s;
    const MtModel *m;
    MtError *err;
    Row r;        /* the statement of the table being written (the next PREP finalizes it) */
    char now[32]; /* when the save began */
    long version; /* the model version the save gives the project */
} Save;

/* Prepares the statement of the next table (finalizing the last one): SQLite code, reported. */
static int save_prep(Save *sv, const char *sql)
{
    Row *r = &sv->r;
    if (r->st) sqlite3_finalize(r->st);
    r->st = NULL;
    r->i = 0;
    int rc = sqlite3_prepare_v2(sv->s->db, sql, -1, &r->st, NULL);
    if (rc) mt_store_sqlerr(sv->s, rc, sv->err);
    return rc;
}

/* In a step: the statement of the next table, and a row written (entity names it when it fails). */
#define PREP(sql)                                                  \
    do {                                                           \
        if (save_prep(sv, sql)) return 1;                          \
    } while (0)
#define STEP(entity)                                               \
    do {                                                           \
        int rc_ = done(&sv->r);                                    \
        if (rc_) {                                                 \
            row_error(sv->s, rc_, entity, sv->err);                \
            return 1;                                              \
        }                                                          \
    } while (0)

/* Empties the entity tables (the ground, body 0, stays). */
static int save_clear(Save *sv)
{
    return mt_store_exec(sv->s,
                         "DELETE FROM bindings; DELETE FROM display_units; DELETE FROM parameters; DELETE FROM initial_conditions;"
                         "DELETE FROM flexible_initial_conditions;"
                         "DELETE FROM lookup_table_points; DELETE FROM lookup_tables;"
                         "DELETE FROM events; DELETE FROM controls; DELETE FROM sensors; DELETE FROM force_parameters; DELETE FROM forces; DELETE FROM springs; DELETE FROM couplings; DELETE FROM driver_points; DELETE FROM drivers;"
                         "DELETE FROM joints; DELETE FROM shapes; DELETE FROM flexible_bodies; DELETE FROM markers; DELETE FROM bodies WHERE id <> 0",
                         sv->err) != MT_OK;
}

static int save_project(Save *sv)
{
    MtStore *s = sv->s;
    const MtModel *m = sv->m;
    MtError *err = sv->err;
    Row *r = &sv->r;
    PREP("UPDATE project SET title = ?1, gravity_x = ?2, gravity_y = ?3, gravity_z = ?4,"
         " model_version = model_version + 1, saved = ?5, saved_by = ?6 WHERE id = 1");
    bt(r, m->title);
    bdv(r, m->gravity, 3);
    bt(r, sv->now);
    bt(r, MOTUS_SAVED_BY);
    STEP("project");
    if (sqlite3_changes(s->db) != 1) {
        mt_error_set(err, MT_ERR_IO, s->path, MT_("'%s' is damaged: its project row is missing"), s->path);
        return 1;
    }
    return 0;
}

static int save_solver(Save *sv)
{
    MtStore *s = sv->s;
    const MtModel *m = sv->m;
    MtError *err = sv->err;
    Row *r = &sv->r;
    char cols[1024], sql[2048];
    mt_store_rows_columns(MT_ENT_SOLVER, ", %s = ?%d", cols, sizeof cols);
    snprintf(sql, sizeof sql, "UPDATE solver SET %s WHERE id = 1", cols + 2);
    PREP(sql);
    r->i = mt_store_rows_bind(r->st, 0, MT_ENT_SOLVER, &m->solver);
    STEP("solver");
    if (sqlite3_changes(s->db) != 1) {
        mt_error_set(err, MT_ERR_IO, s->path, MT_("'%s' is damaged: its solver row is missing"), s->path);
        return 1;
    }
    return 0;
}

static int save_bodies(Save *sv)
{
    const MtModel *m = sv->m;
    Row *r = &sv->r;
    char sql[2048];
    insert_rows(sql, sizeof sql, "bodies",
                "id, name, r11, r12, r13, r21, r22, r23, r31, r32, r33, orientation", MT_ENT_BODY);
    PREP(sql);
    for (int i = 0; i < m->nbody; i++) {
        const MtBodySpec *b = &m->body[i];
        bi(r, i + 1);
        bt(r, b->name);
        bdv(r, b->rot, 9);
        bo(r, &b->ori);
        r->i = mt_store_rows_bind(r->st, r->i, MT_ENT_BODY, b);
        STEP(b->name);
    }
    return 0;
}

static int save_markers(Save *sv)
{
    const MtModel *m = sv->m;
    Row *r = &sv->r;
    char sql[2048], ref[2 * MT_NAME_MAX + 2];
    insert_rows(sql, sizeof sql, "markers",
                "id, body_id, name, x, y, z, r11, r12, r13, r21, r22, r23, r31, r32, r33, orientation", MT_ENT_MARKER);
    PREP(sql);
    for (int i = 0; i < m->nmarker; i++) {
        const MtMarkerSpec *k = &m->marker[i];
        bi(r, i + 1);
        bi(r, k->body + 1); /* MT_GROUND = -1 → 0 */
        bt(r, k->name);
        bdv(r, k->pos, 3);
        bdv(r, k->rot, 9);
        bo(r, &k->ori);
        r->i = mt_store_rows_bind(r->st, r->i, MT_ENT_MARKER, k);
        STEP(mt_model_marker_ref(m, i, ref, sizeof ref));
    }
    return 0;
}

static int save_flexible(Save *sv)
{
    const MtModel *m = sv->m;
    MtError *err = sv->err;
    Row *r = &sv->r;
    char sql[2048];
    insert_rows(sql, sizeof sql, "flexible_bodies",
                "body_id, source, file, section, reduced, marker_nodes", MT_ENT_FLEX);
    PREP(sql);
    for (int i = 0; i < m->nflex; i++) {
        static const char *const sources[] = {"mesh", "beam"}, *const sections[] = {"rect", "circle", "tube"};
        const MtFlexSpec *f = &m->flex[i];
        const char *bname = m->body[f->body].name;
        void *blob = NULL;
        size_t nblob = 0;
        char *nodes = NULL;
        if (f->data) { /* the reduction travels with the project, so that opening it needs no mesh */
            blob = mt_flex_body_serialize(f->data->body, &nblob, err);
            size_t cap = 1 + (size_t)f->data->nmarker * (MT_NAME_MAX + 16);
            nodes = calloc(cap, 1);
            if (!blob || !nodes) {
                free(blob);
                free(nodes);
                if (!err->code) mt_error_set(err, MT_ERR_NOMEM, bname, "%s", MT_("out of memory"));
                return 1;
            }
            size_t n = 0;
            for (int k = 0; k < f->data->nmarker; k++)
                n += (size_t)snprintf(nodes + n, cap - n, "%s%s=%d", k ? " " : "", f->data->mname[k], f->data->mnode[k]);
        }
        bi(r, f->body + 1);
        bt(r, sources[f->source & 1]);
        bt(r, f->file);
        bt(r, sections[f->section % 3]);
        if (blob) sqlite3_bind_blob64(r->st, ++r->i, blob, nblob, free);
        else bn(r);
        bt(r, nodes ? nodes : "");
        free(nodes);
        r->i = mt_store_rows_bind(r->st, r->i, MT_ENT_FLEX, f);
        STEP(bname);
    }
    return 0;
}

static int save_shapes(Save *sv)
{
    const MtModel *m = sv->m;
    Row *r = &sv->r;
    PREP("INSERT INTO shapes(id, body_id, kind, size_1, size_2, size_3, x, y, z, r11, r12, r13, r21, r22, r23, r31, r32, r33,"
         " end_x, end_y, end_z, red, green, blue, mesh, orientation) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    for (int i = 0; i < m->nshape; i++) {
        const MtShapeSpec *sh = &m->shape[i];
        bi(r, i + 1);
        bi(r, sh->body + 1);
        bt(r, mt_shape_kind_name(sh->kind));
        bdv(r, sh->size, 3);
        bdv(r, sh->pos, 3);
        bdv(r, sh->rot, 9);
        bdv(r, sh->end, 3);
        for (int c = 0; c < 3; c++) bd(r, (double)sh->color[c]);
        bt(r, sh->mesh);
        bo(r, &sh->ori);
        STEP(mt_model_body_name(m, sh->body));
    }
    return 0;
}

static int save_joints(Save *sv)
{
    const MtModel *m = sv->m;
    Row *r = &sv->r;
    char sql[2048];
    insert_rows(sql, sizeof sql, "joints", "id, name, type, marker_i, marker_j", MT_ENT_JOINT);
    PREP(sql);
    for (int i = 0; i < m->njoint; i++) {
        const MtJointSpec *j = &m->joint[i];
        bi(r, i + 1);
        bt(r, j->name);
        bt(r, mt_joint_type_name(j->type));
        bi(r, j->mi + 1);
        bi(r, j->mj + 1);
        r->i = mt_store_rows_bind(r->st, r->i, MT_ENT_JOINT, j);
        STEP(j->name);
    }
    return 0;
}

/* Drivers and the points of their tables. */
static int save_drivers(Save *sv)
{
    const MtModel *m = sv->m;
    Row *r = &sv->r;
    PREP("INSERT INTO drivers(id, name, joint_id, coord, marker_i, marker_j, component, level, law, ncoef,"
         " c0, c1, c2, c3, c4, c5, c6, c7, expr) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    for (int i = 0; i < m->ndriver; i++) {
        const MtDriverSpec *d = &m->driver[i];
        bi(r, i + 1);
        bt(r, d->name);
        if (d->joint >= 0) {
            bi(r, d->joint + 1);
            bt(r, mt_coord_name(d->coord));
            bn(r);
            bn(r);
            bn(r);
        } else {
            bn(r);
            bn(r);
            bi(r, d->mi + 1);
            bi(r, d->mj + 1);
            bt(r, mt_comp_name(d->comp));
        }
        bt(r, mt_level_names[d->level]);
        bt(r, mt_law_names[d->kind]);
        bi(r, d->ncoef);
        for (int k = 0; k < MT_POLY_MAX; k++) {
            if (k < d->ncoef) bd(r, d->coef[k]);
            else bn(r);
        }
        bt(r, d->kind == MT_DRIVER_EXPR ? d->expr : "");
        STEP(d->name);
    }
    PREP("INSERT INTO driver_points(driver_id, k, t, value) VALUES (?,?,?,?)");
    for (int i = 0; i < m->ndriver; i++) {
        const MtDriverSpec *d = &m->driver[i];
        if (d->kind != MT_DRIVER_TABLE) continue;
        for (int k = 0; k < d->ntab; k++) {
            bi(r, i + 1);
            bi(r, k);
            bd(r, d->tab[2 * k]);
            bd(r, d->tab[2 * k + 1]);
            STEP(d->name);
        }
    }
    return 0;
}

static int save_couplings(Save *sv)
{
    const MtModel *m = sv->m;
    Row *r = &sv->r;
    PREP("INSERT INTO couplings(id, name, kind, joint_1, coord_1, coef_1, joint_2, coord_2, coef_2, joint_3, coord_3, coef_3)"
         " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)");
    for (int i = 0; i < m->ncouple; i++) {
        const MtCoupleSpec *c = &m->couple[i];
        bi(r, i + 1);
        bt(r, c->name);
        bt(r, mt_couple_names[c->kind]);
        for (int k = 0; k < 3; k++) {
            if (k < c->n) {
                bi(r, c->joint[k] + 1);
                bt(r, mt_coord_name(c->coord[k]));
                bd(r, c->coef[k]);
            } else {
                bn(r);
                bn(r);
                bn(r);
            }
        }
        STEP(c->name);
    }
    return 0;
}

static int save_springs(Save *sv)
{
    const MtModel *m = sv->m;
    Row *r = &sv->r;
    char sql[2048];
    insert_rows(sql, sizeof sql, "springs", "id, name, marker_i, marker_j", MT_ENT_SPRING);
    PREP(sql);
    for (int i = 0; i < m->nspring; i++) {
        const MtSpringSpec *sp = &m->spring[i];
        bi(r, i + 1);
        bt(r, sp->name);
        bi(r, sp->mi + 1);
        bi(r, sp->mj + 1);
        r->i = mt_store_rows_bind(r->st, r->i, MT_ENT_SPRING, sp);
        STEP(sp->name);
    }
    return 0;
}

/* Forces and the settings of their kinds. */
static int save_forces(Save *sv)
{
    const MtModel *m = sv->m;
    Row *r = &sv->r;
    PREP("INSERT INTO forces(id, name, kind, marker_i, marker_j, joint_id, geometry, fx, fy, fz, tx, ty, tz)"
         " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)");
    for (int i = 0; i < m->nforce; i++) {
        const MtForceSpec *fs = &m->force[i];
        bi(r, i + 1);
        bt(r, fs->name);
        bt(r, mt_force_kind_name(fs->kind));
        if (fs->mi >= 0) bi(r, fs->mi + 1);
        else bn(r);
        if (fs->mj >= 0) bi(r, fs->mj + 1);
        else bn(r);
        if (fs->joint >= 0) bi(r, fs->joint + 1);
        else bn(r);
        bt(r, mt_contact_geom_name((MtContactGeom)fs->geom));
        for (int c = 0; c < 6; c++) bt(r, fs->expr[c]);
        STEP(fs->name);
    }
    PREP("INSERT INTO force_parameters(force_id, name, value) VALUES (?,?,?)");
    for (int i = 0; i < m->nforce; i++) {
        const MtForceSpec *fs = &m->force[i];
        const char *const *pn = mt_force_param_names(fs->kind);
        for (int q = 0; pn[q] && q < MT_FORCE_NPAR; q++) {
            if (isnan(fs->p[q])) continue; /* left to the kind's default (a bushing's unset matrix entries) */
            bi(r, i + 1);
            bt(r, pn[q]);
            bd(r, fs->p[q]); /* NaN (the default) is stored as NULL */
            STEP(fs->name);
        }
    }
    return 0;
}

static int save_sensors(Save *sv)
{
    const MtModel *m = sv->m;
    Row *r = &sv->r;
    PREP("INSERT INTO sensors(id, name, kind, marker_i, marker_j, frame_marker, component, joint_id, part, body_id, energy,"
         " unit, expr, force_id, spring_id, coord) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    for (int i = 0; i < m->nsensor; i++) {
        const MtSensorSpec *ss = &m->sensor[i];
        bi(r, i + 1);
        bt(r, ss->name);
        bt(r, mt_sensor_kind_name(ss->kind));
        const int mk[3] = {ss->mi, ss->mj, ss->mframe};
        for (int k = 0; k < 3; k++) {
            if (mk[k] >= 0) bi(r, mk[k] + 1);
            else bn(r);
        }
        bi(r, ss->comp);
        if (ss->joint >= 0) bi(r, ss->joint + 1);
        else bn(r);
        bt(r, (ss->part >= 0 && ss->part <= MT_PART_DRIVER) ? mt_part_names[ss->part] : "?");
        if (ss->body >= 0) bi(r, ss->body + 1);
        else bn(r);
        bt(r, (ss->energy >= 0 && ss->energy <= 3) ? mt_energy_names[ss->energy] : "?");
        bt(r, ss->unit);
        bt(r, ss->expr);
        if (ss->kind == MT_SENSOR_FORCE && ss->force >= 0) bi(r, ss->force + 1);
        else bn(r);
        if (ss->kind == MT_SENSOR_FORCE && ss->spring >= 0) bi(r, ss->spring + 1);
        else bn(r);
        bt(r, ss->kind == MT_SENSOR_JOINT ? mt_coord_name((MtCoordKind)ss->coord) : NULL);
        STEP(ss->name);
    }
    return 0;
}

static int save_controls(Save *sv)
{
    MtStore *s = sv->s;
    const MtModel *m = sv->m;
    MtError *err = sv->err;
    Row *r = &sv->r;
    PREP("INSERT INTO controls(id, name, kind, input, setpoint, kp, ki, kd, tf, k, tau, wn, zeta, lo, hi, disabled)"
         " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    for (int i = 0; i < m->ncontrol; i++) {
        const MtControlSpec *c = &m->control[i];
        if (c->kind < 0 || c->kind >= MT_CONTROL_NKINDS) {
            mt_error_set(err, MT_ERR_ARG, c->name, MT_("%s: not saved: control '%s' has an unknown kind"), s->path, c->name);
            return 1;
        }
        bi(r, i + 1);
        bt(r, c->name);
        bt(r, mt_control_kind_names[c->kind]);
        bt(r, c->input);
        bt(r, c->setpoint);
        for (int q = 0; q < 8; q++) {
            int k = control_setting[c->kind][q];
            if (k >= 0) bd(r, c->p[k]);
            else bn(r);
        }
        const double lo = c->p[control_limit[c->kind]], hi = c->p[control_limit[c->kind] + 1];
        if (lo == -INFINITY) bn(r); /* not limited */
        else bd(r, lo);
        if (hi == INFINITY) bn(r);
        else bd(r, hi);
        bi(r, c->disabled != 0);
        STEP(c->name);
    }
    return 0;
}

static int save_events(Save *sv)
{
    MtStore *s = sv->s;
    const MtModel *m = sv->m;
    MtError *err = sv->err;
    Row *r = &sv->r;
    PREP("INSERT INTO events(id, name, kind, time, expr, value, direction, action, joint_id, force_id, spring_id, driver_id,"
         " control_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)");
    for (int i = 0; i < m->nevent; i++) {
        const MtEventSpec *ev = &m->event[i];
        if (ev->trigger < MT_EVENT_AT || ev->trigger > MT_EVENT_CROSSES || ev->action < MT_ACTION_STOP ||
            ev->action > MT_ACTION_DISABLE || ev->target_kind < MT_TARGET_NONE || ev->target_kind > MT_TARGET_CONTROL) {
            mt_error_set(err, MT_ERR_ARG, ev->name, MT_("%s: not saved: event '%s' has an unknown trigger, action or target"),
                         s->path, ev->name);
            return 1;
        }
        bi(r, i + 1);
        bt(r, ev->name);
        bt(r, trigger_names[ev->trigger]);
        if (ev->trigger == MT_EVENT_AT) {
            bd(r, ev->time);
            bn(r);
            bn(r);
            bn(r);
        } else {
            bn(r);
            bt(r, ev->expr);
            bd(r, ev->value);
            bt(r, direction_names[ev->direction > 0 ? 2 : ev->direction < 0 ? 0 : 1]);
        }
        bt(r, mt_action_names[ev->action]);
        for (int k = MT_TARGET_JOINT; k <= MT_TARGET_CONTROL; k++) { /* joint_id … control_id */
            if ((int)ev->target_kind == k) bi(r, ev->target + 1);
            else bn(r);
        }
        STEP(ev->name);
    }
    return 0;
}

/* Named tables and their points. */
static int save_tables(Save *sv)
{
    const MtModel *m = sv->m;
    Row *r = &sv->r;
    PREP("INSERT INTO lookup_tables(id, name) VALUES (?,?)");
    for (int i = 0; i < m->ntable; i++) {
        bi(r, i + 1);
        bt(r, m->table[i].name);
        STEP(m->table[i].name);
    }
    PREP("INSERT INTO lookup_table_points(table_id, k, x, y) VALUES (?,?,?,?)");
    for (int i = 0; i < m->ntable; i++)
        for (int k = 0; k < m->table[i].n; k++) {
            bi(r, i + 1);
            bi(r, k);
            bd(r, m->table[i].x[k]);
            bd(r, m->table[i].y[k]);
            STEP(m->table[i].name);
        }
    return 0;
}

static int save_initials(Save *sv)
{
    const MtModel *m = sv->m;
    Row *r = &sv->r;
    PREP("INSERT INTO initial_conditions(id, joint_id, coord, value, rate) VALUES (?,?,?,?,?)");
    for (int i = 0; i < m->ninitial; i++) {
        const MtInitialSpec *in = &m->initial[i];
        if (in->mode) continue; /* below */
        bi(r, i + 1);
        bi(r, in->joint + 1);
        bt(r, mt_coord_name(in->coord));
        if (in->has_value) bd(r, in->value);
        else bn(r);
        if (in->has_rate) bd(r, in->rate);
        else bn(r);
        STEP(m->joint[in->joint].name);
    }
    /* modal coordinates of flexible bodies: the same numbering, their own table */
    PREP("INSERT INTO flexible_initial_conditions(id, body_id, mode, value, rate) VALUES (?,?,?,?,?)");
    for (int i = 0; i < m->ninitial; i++) {
        const MtInitialSpec *in = &m->initial[i];
        if (!in->mode) continue;
        bi(r, i + 1);
        bi(r, in->body + 1);
        bi(r, in->mode);
        if (in->has_value) bd(r, in->value);
        else bn(r);
        if (in->has_rate) bd(r, in->rate);
        else bn(r);
        STEP(m->body[in->body].name);
    }
    return 0;
}

static int save_parameters(Save *sv)
{
    const MtModel *m = sv->m;
    Row *r = &sv->r;
    PREP("INSERT INTO parameters(id, name, expr, value, unit) VALUES (?,?,?,?,?)");
    for (int i = 0; i < m->nparam; i++) {
        const MtParamSpec *p = &m->param[i];
        bi(r, i + 1);
        bt(r, p->name);
        bt(r, p->expr);
        bd(r, p->value); /* NaN (never evaluated) is stored as NULL */
        bt(r, p->unit);
        STEP(p->name);
    }
    return 0;
}

static int save_bindings(Save *sv)
{
    MtStore *s = sv->s;
    const MtModel *m = sv->m;
    MtError *err = sv->err;
    Row *r = &sv->r;
    PREP("INSERT INTO bindings(id, entity_kind, entity_id, field, expr) VALUES (?,?,?,?,?)");
    for (int i = 0; i < m->nbinding; i++) {
        const MtBinding *b = &m->binding[i];
        if (b->kind < 0 || (int)b->kind >= NKIND) {
            mt_error_set(err, MT_ERR_ARG, b->field, MT_("%s: not saved: binding of field '%s' has an unknown entity kind"), s->path,
                         b->field);
            return 1;
        }
        bi(r, i + 1);
        bt(r, kind_names[b->kind]);
        bi(r, (b->kind == MT_ENT_GRAVITY || b->kind == MT_ENT_SOLVER) ? 0 : b->index + 1);
        bt(r, b->field);
        bt(r, b->expr);
        STEP(b->field);
    }
    return 0;
}

static int save_units(Save *sv)
{
    const MtModel *m = sv->m;
    Row *r = &sv->r;
    PREP("INSERT INTO display_units(id, quantity, unit) VALUES (?,?,?)");
    for (int i = 0; i < m->nunit; i++) {
        bi(r, i + 1);
        bt(r, m->unit[i].quantity);
        bt(r, m->unit[i].unit);
        STEP(m->unit[i].quantity);
    }
    return 0;
}

static int save_plots(Save *sv)
{
    MtStore *s = sv->s;
    const MtModel *m = sv->m;
    MtError *err = sv->err;
    /* the model's plots become the project's layout (the window saves its own after this) */
    if (m->nplot > 0 || m->nderived > 0) {
        char *layout = mt_plots_to_json(m->plot, m->nplot, m->derived, m->nderived, 0);
        if (!layout) {
            mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
            return 1;
        }
        MtStatus prc = mt_store_save_plot(s, "layout", layout, err);
        free(layout);
        if (prc != MT_OK) return 1;
    }
    /* the view: the row "view" holds its `view …` line; the sliders: the row "sliders" their `slider …` lines
     * (none kept: no row) */
    char view[1024], *sliders = mt_sliders_text(m); /* (meters: up to 8 column names) */
    if (!sliders) {
        mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
        return 1;
    }
    mt_view_format(&m->view, view, sizeof view);
    const char *row[2] = {"view", "sliders"}, *text[2] = {view, sliders};
    int fail = 0;
    for (int k = 0; k < 2 && !fail; k++) {
        if (text[k][0]) {
            fail = mt_store_save_plot(s, row[k], text[k], err) != MT_OK;
            continue;
        }
        MtError none = {0};
        if (mt_store_delete_plot(s, row[k], &none) != MT_OK && none.code != MT_ERR_ARG) { /* (ARG: there was none) */
            if (err) *err = none;
            fail = 1;
        }
    }
    free(sliders);
    return fail;
}

/* The model version the save gave the project. */
static int save_version(Save *sv)
{
    Row *r = &sv->r;
    PREP("SELECT model_version FROM project WHERE id = 1");
    int rc = sqlite3_step(r->st);
    sv->version = rc == SQLITE_ROW ? (long)sqlite3_column_int64(r->st, 0) : -1;
    sqlite3_finalize(r->st);
    r->st = NULL;
    if (rc != SQLITE_ROW) {
        mt_store_sqlerr(sv->s, rc, sv->err);
        return 1;
    }
    return 0;
}

MtStatus mt_store_save_model(MtStore *s, const MtModel *m, long *version, MtError *err)
{
    MtError local;
    if (!err) err = &local;
    if (mt_store_need_write(s, err)) return err->code;
    if (mt_model_validate(m, err)) {
        char msg[sizeof err->msg], entity[sizeof err->entity];
        snprintf(msg, sizeof msg, "%s", err->msg);
        snprintf(entity, sizeof entity, "%s", err->entity);
        return mt_error_set(err, MT_ERR_MODEL, entity, MT_("%s: not saved: %s"), s->path, msg);
    }
    if (mt_store_begin(s, err)) return err->code;
    Save sv = {s, m, err, {0}, "", -1};
    mt_store_now(sv.now);
    if (save_clear(&sv) || save_project(&sv) || save_solver(&sv) || save_bodies(&sv) || save_markers(&sv) ||
        save_flexible(&sv) || save_shapes(&sv) || save_joints(&sv) || save_drivers(&sv) || save_couplings(&sv) ||
        save_springs(&sv) || save_forces(&sv) || save_sensors(&sv) || save_controls(&sv) || save_events(&sv) ||
        save_tables(&sv) || save_initials(&sv) || save_parameters(&sv) || save_bindings(&sv) || save_units(&sv) ||
        save_plots(&sv) || mt_store_study_save_lines(s, m, err) || save_version(&sv)) {
        if (sv.r.st) sqlite3_finalize(sv.r.st);
        mt_store_rollback(s);
        return err->code ? err->code : MT_ERR_IO;
    }
    if (mt_store_commit(s, err)) return err->code;
    if (version) *version = sv.version;
    return MT_OK;
}

/* ---- loading ----------------------------------------------------------------------- */

typedef struct {
    MtStore *s;
    MtError *err;
    sqlite3_stmt *st;
    const char *table;
    const char *name; /* entity name of the current row, for messages */
    sqlite3_int64 id;
    int fail;
} Load;

/* ids of the rows of a table in model order (ascending) → index. */
typedef struct {
    sqlite3_int64 *id;
    int n, cap;
} IdMap;

static int idmap_add(IdMap *m, sqlite3_int64 id)
{
    if (m->n == m->cap) {
        int nc = m->cap ? 2 * m->cap : 16;
        sqlite3_int64 *p = realloc(m->id, sizeof *p * (size_t)nc);
        if (!p) return -1;
        m->id = p;
        m->cap = nc;
    }
    m->id[m->n++] = id;
    return 0;
}

static int idmap_find(const IdMap *m, sqlite3_int64 id)
{
    int lo = 0, hi = m->n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (m->id[mid] == id) return mid;
        if (m->id[mid] < id) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

/* What is wrong with a column; each message is whole for the translators.
 * Arguments: project, table, row id, entity name, column, column text. */
enum { BAD_NUMBER, BAD_TEXT, BAD_ROWID, BAD_REF, BAD_NAME, BAD_RANGE, BAD_POINTS, BAD_LONG, BAD_SETTING, BAD_ORIENT };
static const char *const bad_msg[] = {
    MT_N_("%s: table %s, row %lld ('%s'): column '%s' must hold a number"),
    MT_N_("%s: table %s, row %lld ('%s'): column '%s' must hold text"),
    MT_N_("%s: table %s, row %lld ('%s'): column '%s' must hold a row id"),
    MT_N_("%s: table %s, row %lld ('%s'): column '%s' refers to a row that does not exist"),
    MT_N_("%s: table %s, row %lld ('%s'): column '%s' holds the unknown name '%s'"),
    MT_N_("%s: table %s, row %lld ('%s'): column '%s' is out of range"),
    MT_N_("%s: table %s, row %lld ('%s'): column '%s' must number the points 0, 1, 2 … without gaps"),
    MT_N_("%s: table %s, row %lld ('%s'): column '%s' is too long"),
    MT_N_("%s: table %s, row %lld ('%s'): column '%s' names no setting of this kind of force: '%s'"),
    MT_N_("%s: table %s, row %lld ('%s'): column '%s' is not an orientation (a form and its numbers): '%s'")};

static void bad_column(Load *L, int c, int what)
{
    if (L->fail) return;
    L->fail = 1;
    const char *val = (const char *)sqlite3_column_text(L->st, c);
    mt_error_set(L->err, MT_ERR_MODEL, L->name ? L->name : "", MT_(bad_msg[what]), L->s->path, L->table, (long long)L->id,
                 L->name ? L->name : "", sqlite3_column_name(L->st, c), val ? val : "");
}

/* A number (NULL is refused unless allow_null; then *out = 0 and 0 is returned). */
static int col_num(Load *L, int c, double *out, int allow_null)
{
    int t = sqlite3_column_type(L->st, c);
    if (t == SQLITE_FLOAT || t == SQLITE_INTEGER) {
        *out = sqlite3_column_double(L->st, c);
        return 1;
    }
    *out = 0;
    if (t == SQLITE_NULL && allow_null) return 0;
    bad_column(L, c, BAD_NUMBER);
    return 0;
}

static void col_nums(Load *L, int c, double *out, int n)
{
    for (int k = 0; k < n; k++) col_num(L, c + k, &out[k], 0);
}

static const char *col_text(Load *L, int c, int allow_null)
{
    const char *t = (const char *)sqlite3_column_text(L->st, c);
    if (!t && !allow_null) bad_column(L, c, BAD_TEXT);
    return t;
}

/* An orientation as typed, or none (NULL). */
static void col_orient(Load *L, int c, MtOrient *o)
{
    const char *t = (const char *)sqlite3_column_text(L->st, c);
    o->form = MT_ORIENT_NONE;
    if (t && mt_orient_from_text(t, o)) bad_column(L, c, BAD_ORIENT);
}

/* Index of the row an id column refers to (-1 and an error when absent). */
static int col_ref(Load *L, int c, const IdMap *map, int ground_ok)
{
    if (sqlite3_column_type(L->st, c) != SQLITE_INTEGER) {
        bad_column(L, c, BAD_ROWID);
        return -2;
    }
    sqlite3_int64 id = sqlite3_column_int64(L->st, c);
    if (ground_ok && id == 0) return MT_GROUND;
    int i = idmap_find(map, id);
    if (i < 0) bad_column(L, c, BAD_REF);
    return i < 0 ? -2 : i;
}

static int prep(Load *L, const char *table, const char *sql)
{
    if (L->st) sqlite3_finalize(L->st);
    L->st = NULL;
    L->table = table;
    L->name = NULL;
    L->id = 0;
    int rc = sqlite3_prepare_v2(L->s->db, sql, -1, &L->st, NULL);
    if (rc) {
        mt_store_sqlerr(L->s, rc, L->err);
        L->fail = 1;
    }
    return rc;
}

/* Next row: 1, 0 at the end, -1 on error. */
static int next(Load *L)
{
    if (L->fail) return -1;
    int rc = sqlite3_step(L->st);
    if (rc == SQLITE_ROW) {
        L->id = sqlite3_column_int64(L->st, 0);
        L->name = NULL;
        return 1;
    }
    if (rc == SQLITE_DONE) return 0;
    mt_store_sqlerr(L->s, rc, L->err);
    L->fail = 1;
    return -1;
}

/* An error of the model API (add_*): prefix the project path. */
static void api_error(Load *L)
{
    if (L->fail) return;
    L->fail = 1;
    char msg[sizeof L->err->msg], entity[sizeof L->err->entity];
    snprintf(msg, sizeof msg, "%s", L->err->msg);
    snprintf(entity, sizeof entity, "%s", L->err->entity);
    mt_error_set(L->err, MT_ERR_MODEL, entity, "%s: %s", L->s->path, msg);
}

/* A name the program does not know (a kind, a method, a coordinate …). */
static void bad_name(Load *L, int c) { bad_column(L, c, BAD_NAME); }

/* The schema's settings of an entity from result column c on. */
static void col_rows(Load *L, int c, MtEntityKind kind, void *obj)
{
    static const int what[] = {0, BAD_NUMBER, BAD_TEXT, BAD_NAME, BAD_RANGE, BAD_LONG};
    int bad, rc = mt_store_rows_read(L->st, c, kind, obj, &bad);
    if (rc) bad_column(L, bad, what[rc]);
}

/* "SELECT head, the settings' columns tail" into sql. */
static const char *select_rows(char *sql, size_t n, const char *head, MtEntityKind kind, const char *tail)
{
    char cols[1024];
    mt_store_rows_columns(kind, ", %s", cols, sizeof cols);
    snprintf(sql, n, "SELECT %s%s %s", head, cols, tail);
    return sql;
}

/* What the steps of a load share: the row being read, the model being built and
 * the ids of the rows read so far in model order (later tables refer to them).
 * A step reads no row once one before it failed (L.fail; err says why). */
typedef struct {
    Load L;
    MtModel *m;
    IdMap bodies, markers, joints, drivers, springs, couples, initials, forces, controls, shapes, events;
    int need_reduce; /* a flexible body saved without its reduction (or without its geometric stiffness) */
    long version;
} Loader;

/* The project row: title, gravity and the model version. */
static void load_project(Loader *ld)
{
    Load *L = &ld->L;
    MtStore *s = L->s;
    MtModel *m = ld->m;
    MtError *err = L->err;
    if (!prep(L, "project", "SELECT id, title, gravity_x, gravity_y, gravity_z, model_version FROM project WHERE id = 1")) {
        int rc = next(L);
        if (rc == 0 && !L->fail) {
            L->fail = 1;
            mt_error_set(err, MT_ERR_IO, s->path, MT_("'%s' is damaged: its project row is missing"), s->path);
        } else if (rc == 1) {
            L->name = "project";
            const char *t = col_text(L, 1, 0);
            if (t && strlen(t) >= sizeof m->title) bad_column(L, 1, BAD_LONG); /* refused, not cut */
            else if (t) snprintf(m->title, sizeof m->title, "%s", t);
            col_nums(L, 2, m->gravity, 3);
            ld->version = (long)sqlite3_column_int64(L->st, 5);
        }
    }
}

static void load_solver(Loader *ld)
{
    Load *L = &ld->L;
    MtStore *s = L->s;
    MtModel *m = ld->m;
    MtError *err = L->err;
    char sql[2048];
    if (!L->fail && !prep(L, "solver", select_rows(sql, sizeof sql, "id", MT_ENT_SOLVER, "FROM solver WHERE id = 1"))) {
        int rc = next(L);
        if (rc == 0 && !L->fail) {
            L->fail = 1;
            mt_error_set(err, MT_ERR_IO, s->path, MT_("'%s' is damaged: its solver row is missing"), s->path);
        } else if (rc == 1) {
            L->name = "solver";
            col_rows(L, 1, MT_ENT_SOLVER, &m->solver);
        }
    }
}

/* Parameters first, as in the text form (sensor names must differ from them). */
static void load_parameters(Loader *ld)
{
    Load *L = &ld->L;
    MtModel *m = ld->m;
    MtError *err = L->err;
    MtParamIndex pix = {0}; /* names looked up by hash: a linear search per row took minutes for 100 000 */
    if (!L->fail && !prep(L, "parameters", "SELECT id, name, expr, value, unit FROM parameters ORDER BY id"))
        while (next(L) == 1) {
            const char *name = col_text(L, 1, 0), *expr = col_text(L, 2, 0), *unit = col_text(L, 4, 0);
            L->name = name;
            double value;
            int hv = col_num(L, 3, &value, 1);
            if (L->fail || !name || !expr) break;
            int old = mt_param_index_find(&pix, m, name) >= 0;
            int p = old ? mt_model_add_param(m, name, expr, unit, err) : mt_model_append_param(m, name, expr, unit, err);
            if (p < 0) { api_error(L); break; }
            if (!old && mt_param_index_add(&pix, m, p)) {
                mt_error_set(err, MT_ERR_NOMEM, name, "%s", MT_("out of memory"));
                api_error(L);
                break;
            }
            m->param[p].value = hv ? value : NAN;
        }
    mt_param_index_free(&pix);
}

/* Named tables, also before the parameters are evaluated (they may read them). */
static void load_tables(Loader *ld)
{
    Load *L = &ld->L;
    MtModel *m = ld->m;
    MtError *err = L->err;
    if (!L->fail && !prep(L, "lookup_table_points",
                          "SELECT t.id, t.name, p.k, p.x, p.y FROM lookup_tables t LEFT JOIN lookup_table_points p ON p.table_id = t.id"
                          " ORDER BY t.id, p.k")) {
        double *pts = NULL;
        int npts = 0, cap = 0;
        sqlite3_int64 cur = -1;
        char name[MT_NAME_MAX] = "";
        for (;;) {
            int more = next(L);
            if (L->fail) break;
            if (cur >= 0 && (more != 1 || L->id != cur)) { /* the points of table cur are complete */
                if (mt_model_add_table(m, name, npts, pts, err) < 0) { api_error(L); break; }
                npts = 0;
            }
            if (more != 1) break;
            const char *nm = col_text(L, 1, 0);
            if (!nm) break;
            L->name = nm;
            if (strlen(nm) >= sizeof name) { bad_column(L, 1, BAD_LONG); break; }
            snprintf(name, sizeof name, "%s", nm);
            cur = L->id;
            if (sqlite3_column_type(L->st, 2) == SQLITE_NULL) continue; /* a table without points: refused by validation */
            if (sqlite3_column_int64(L->st, 2) != npts) { bad_column(L, 2, BAD_POINTS); break; }
            if (npts == cap) {
                cap = cap ? 2 * cap : 64;
                double *p = realloc(pts, sizeof(double) * 2 * (size_t)cap);
                if (!p) { mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory")); L->fail = 1; break; }
                pts = p;
            }
            col_num(L, 3, &pts[2 * npts], 0);
            col_num(L, 4, &pts[2 * npts + 1], 0);
            npts++;
        }
        free(pts);
    }
}

/* Bodies (id 0 is the ground). */
static void load_bodies(Loader *ld)
{
    Load *L = &ld->L;
    MtModel *m = ld->m;
    MtError *err = L->err;
    char sql[2048];
    if (!L->fail && !prep(L, "bodies", select_rows(sql, sizeof sql, "id, name, r11, r12, r13, r21, r22, r23, r31, r32, r33, orientation",
                                                    MT_ENT_BODY, "FROM bodies WHERE id <> 0 ORDER BY id")))
        while (next(L) == 1) {
            const char *name = col_text(L, 1, 0);
            L->name = name;
            if (!name) break;
            int b = mt_model_add_body(m, name, err);
            if (b < 0) { api_error(L); break; }
            MtBodySpec *bd = &m->body[b];
            col_nums(L, 2, bd->rot, 9);
            col_orient(L, 11, &bd->ori);
            col_rows(L, 12, MT_ENT_BODY, bd);
            if (idmap_add(&ld->bodies, L->id)) { mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory")); L->fail = 1; }
        }
}

static void load_markers(Loader *ld)
{
    Load *L = &ld->L;
    MtModel *m = ld->m;
    MtError *err = L->err;
    char sql[2048];
    if (!L->fail && !prep(L, "markers", select_rows(sql, sizeof sql, "id, body_id, name, x, y, z, r11, r12, r13, r21, r22, r23, r31,"
                                                     " r32, r33, orientation", MT_ENT_MARKER, "FROM markers ORDER BY id")))
        while (next(L) == 1) {
            const char *name = col_text(L, 2, 0);
            L->name = name;
            int b = col_ref(L, 1, &ld->bodies, 1);
            if (!name || b < MT_GROUND) break;
            double pos[3], R[9];
            col_nums(L, 3, pos, 3);
            col_nums(L, 6, R, 9);
            if (L->fail) break;
            int k = mt_model_add_marker(m, b, name, pos, R, err);
            if (k < 0) { api_error(L); break; }
            col_orient(L, 15, &m->marker[k].ori);
            col_rows(L, 16, MT_ENT_MARKER, &m->marker[k]);
            if (idmap_add(&ld->markers, L->id)) { mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory")); L->fail = 1; }
        }
}

static void load_flexible(Loader *ld)
{
    Load *L = &ld->L;
    MtStore *s = L->s;
    MtModel *m = ld->m;
    MtError *err = L->err;
    char sql[2048];
    if (!L->fail && !prep(L, "flexible_bodies", select_rows(sql, sizeof sql, "body_id, source, file, section, reduced, marker_nodes",
                                                             MT_ENT_FLEX, "FROM flexible_bodies ORDER BY body_id")))
        while (next(L) == 1) {
            int b = col_ref(L, 0, &ld->bodies, 0);
            if (b < 0) break;
            L->name = m->body[b].name;
            static const char *const sources[] = {"mesh", "beam"}, *const sections[] = {"rect", "circle", "tube"};
            int src = name_index(sources, 2, col_text(L, 1, 0));
            if (src < 0) { bad_name(L, 1); break; }
            int fi = mt_model_add_flex(m, b, (MtFlexSource)src, err);
            if (fi < 0) { api_error(L); break; }
            MtFlexSpec *f = &m->flex[fi];
            const char *file = col_text(L, 2, 0), *sec = col_text(L, 3, 0);
            if (file && strlen(file) >= sizeof f->file) { bad_column(L, 2, BAD_LONG); break; } /* refused, not cut */
            if (file) snprintf(f->file, sizeof f->file, "%s", file);
            int si = name_index(sections, 3, sec);
            if (si < 0) { bad_name(L, 3); break; }
            f->section = (MtSection)si;
            col_rows(L, 6, MT_ENT_FLEX, f);
            if (L->fail) break;
            if (sqlite3_column_type(L->st, 4) == SQLITE_NULL) { ld->need_reduce = 1; continue; }
            MtError e2 = {0};
            MtFlexData *d = mt_flex_data_new(NULL);
            const char *nodes = col_text(L, 5, 0);
            int nk = 0;
            for (const char *c = nodes ? nodes : ""; *c; c++) nk += *c == '=';
            if (d) {
                d->mname = calloc((size_t)nk + 1, sizeof *d->mname);
                d->mnode = calloc((size_t)nk + 1, sizeof *d->mnode);
                d->body = mt_flex_body_deserialize(sqlite3_column_blob(L->st, 4), (size_t)sqlite3_column_bytes(L->st, 4), &e2);
            }
            if (!d || !d->mname || !d->mnode || !d->body) {
                mt_flex_data_unref(d);
                mt_error_set(err, MT_ERR_IO, L->name, MT_("%s: the reduced flexible body '%s' cannot be read: %s"), s->path,
                             L->name, e2.code ? e2.msg : MT_("out of memory"));
                L->fail = 1;
                break;
            }
            for (const char *c = nodes; c && *c && d->nmarker < nk;) { /* name=label name=label … */
                while (*c == ' ') c++;
                const char *eq = strchr(c, '=');
                if (!eq) break;
                snprintf(d->mname[d->nmarker], sizeof d->mname[0], "%.*s", (int)(eq - c < MT_NAME_MAX - 1 ? eq - c : MT_NAME_MAX - 1), c);
                d->mnode[d->nmarker++] = atoi(eq + 1);
                c = strchr(eq, ' ');
            }
            if (f->stiffening && (!d->body->Kg || !d->body->Kw)) { /* reduced without (all of) the geometric stiffness: again */
                mt_flex_data_unref(d);
                ld->need_reduce = 1;
                continue;
            }
            d->body->alpha = f->alpha;
            d->body->beta = f->beta;
            mt_model_flex_attach(m, fi, d);
        }
}

static void load_shapes(Loader *ld)
{
    Load *L = &ld->L;
    MtModel *m = ld->m;
    MtError *err = L->err;
    if (!L->fail && !prep(L, "shapes",
                          "SELECT id, body_id, kind, size_1, size_2, size_3, x, y, z, r11, r12, r13, r21, r22, r23, r31, r32, r33,"
                          " end_x, end_y, end_z, red, green, blue, mesh, orientation FROM shapes ORDER BY id"))
        while (next(L) == 1) {
            MtShapeSpec sh;
            memset(&sh, 0, sizeof sh);
            sh.body = col_ref(L, 1, &ld->bodies, 1);
            L->name = mt_model_body_name(m, sh.body);
            const char *kind = col_text(L, 2, 0), *mesh = col_text(L, 24, 0);
            if (kind && mt_shape_kind_from_name(kind, &sh.kind)) bad_name(L, 2);
            col_nums(L, 3, sh.size, 3);
            col_nums(L, 6, sh.pos, 3);
            col_nums(L, 9, sh.rot, 9);
            col_nums(L, 18, sh.end, 3);
            col_orient(L, 25, &sh.ori);
            for (int c = 0; c < 3; c++) {
                double x;
                col_num(L, 21 + c, &x, 0);
                sh.color[c] = (float)x;
            }
            if (mesh && strlen(mesh) >= sizeof sh.mesh) bad_column(L, 24, BAD_LONG); /* refused, not cut */
            if (mesh) snprintf(sh.mesh, sizeof sh.mesh, "%s", mesh);
            if (L->fail) break;
            if (mt_model_add_shape(m, &sh, err) < 0) { api_error(L); break; }
            if (idmap_add(&ld->shapes, L->id)) { mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory")); L->fail = 1; }
        }
}

static void load_joints(Loader *ld)
{
    Load *L = &ld->L;
    MtModel *m = ld->m;
    MtError *err = L->err;
    char sql[2048];
    if (!L->fail && !prep(L, "joints", select_rows(sql, sizeof sql, "id, name, type, marker_i, marker_j", MT_ENT_JOINT,
                                                    "FROM joints ORDER BY id")))
        while (next(L) == 1) {
            const char *name = col_text(L, 1, 0), *type = col_text(L, 2, 0);
            L->name = name;
            MtJointType t = MT_JOINT_REVOLUTE;
            if (type && mt_joint_type_from_name(type, &t)) bad_name(L, 2);
            int mi = col_ref(L, 3, &ld->markers, 0), mj = col_ref(L, 4, &ld->markers, 0);
            if (L->fail || !name) break;
            int j = mt_model_add_joint(m, name, t, mi, mj, err);
            if (j < 0) { api_error(L); break; }
            col_rows(L, 5, MT_ENT_JOINT, &m->joint[j]);
            if (idmap_add(&ld->joints, L->id)) { mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory")); L->fail = 1; }
        }
}

/* Drivers and the points of their tables. */
static void load_drivers(Loader *ld)
{
    Load *L = &ld->L;
    MtStore *s = L->s;
    MtModel *m = ld->m;
    MtError *err = L->err;
    if (!L->fail && !prep(L, "drivers",
                          "SELECT id, name, joint_id, coord, marker_i, marker_j, component, level, law, ncoef,"
                          " c0, c1, c2, c3, c4, c5, c6, c7, expr FROM drivers ORDER BY id"))
        while (next(L) == 1) {
            const char *name = col_text(L, 1, 0);
            L->name = name;
            int joint = -1, mi = -1, mj = -1;
            MtCoordKind coord = MT_COORD_NONE;
            MtComp comp = MT_COMP_X;
            if (sqlite3_column_type(L->st, 2) != SQLITE_NULL) {
                joint = col_ref(L, 2, &ld->joints, 0);
                const char *c = col_text(L, 3, 0);
                if (c && mt_coord_from_name(c, &coord)) bad_name(L, 3);
            } else {
                mi = col_ref(L, 4, &ld->markers, 0);
                mj = col_ref(L, 5, &ld->markers, 0);
                const char *c = col_text(L, 6, 0);
                if (c && mt_comp_from_name(c, &comp)) bad_name(L, 6);
            }
            int level = name_index(mt_level_names, 3, col_text(L, 7, 0));
            int law = name_index(mt_law_names, 6, col_text(L, 8, 0));
            if (level < 0) bad_name(L, 7);
            if (law < 0) bad_name(L, 8);
            int ncoef = sqlite3_column_int(L->st, 9);
            double c[MT_POLY_MAX] = {0};
            if (ncoef < 1 || ncoef > MT_POLY_MAX) bad_column(L, 9, BAD_RANGE);
            else
                for (int k = 0; k < ncoef; k++) col_num(L, 10 + k, &c[k], 0);
            if (L->fail || !name) break;
            int d = mt_model_add_driver(m, name, joint, law == MT_DRIVER_TABLE ? MT_DRIVER_POLY : (MtDriverKind)law, ncoef, c, err);
            if (d < 0) { api_error(L); break; }
            MtDriverSpec *ds = &m->driver[d];
            ds->kind = (MtDriverKind)law;
            ds->coord = coord;
            ds->mi = mi;
            ds->mj = mj;
            ds->comp = comp;
            ds->level = (MtDriverLevel)level;
            if (law == MT_DRIVER_EXPR) {
                const char *x = col_text(L, 18, 0);
                if (!x || mt_model_driver_set_expr(m, d, x, err)) { api_error(L); break; }
            }
            if (idmap_add(&ld->drivers, L->id)) { mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory")); L->fail = 1; }
        }

    if (!L->fail && !prep(L, "driver_points", "SELECT driver_id, k, t, value FROM driver_points ORDER BY driver_id, k")) {
        double *pts = NULL;
        int npts = 0, cap = 0, cur = -1;
        for (;;) {
            int more = next(L);
            int d = -1;
            if (more == 1) {
                d = col_ref(L, 0, &ld->drivers, 0);
                if (d >= 0) L->name = m->driver[d].name;
            }
            if (L->fail) break;
            if (cur >= 0 && d != cur) { /* the points of driver cur are complete */
                if (m->driver[cur].kind != MT_DRIVER_TABLE) {
                    L->fail = 1;
                    mt_error_set(err, MT_ERR_MODEL, m->driver[cur].name, MT_("%s: driver '%s' has table points but its law is not 'table'"),
                                 s->path, m->driver[cur].name);
                    break;
                }
                if (mt_model_driver_set_table(m, cur, npts, pts, err)) { api_error(L); break; }
                npts = 0;
            }
            if (more != 1) break;
            cur = d;
            if (sqlite3_column_int64(L->st, 1) != npts) {
                bad_column(L, 1, BAD_POINTS);
                break;
            }
            if (npts == cap) {
                cap = cap ? 2 * cap : 64;
                double *p = realloc(pts, sizeof(double) * 2 * (size_t)cap);
                if (!p) { mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory")); L->fail = 1; break; }
                pts = p;
            }
            col_num(L, 2, &pts[2 * npts], 0);
            col_num(L, 3, &pts[2 * npts + 1], 0);
            npts++;
        }
        free(pts);
    }
}

static void load_couplings(Loader *ld)
{
    Load *L = &ld->L;
    MtModel *m = ld->m;
    MtError *err = L->err;
    if (!L->fail && !prep(L, "couplings",
                          "SELECT id, name, kind, joint_1, coord_1, coef_1, joint_2, coord_2, coef_2, joint_3, coord_3, coef_3"
                          " FROM couplings ORDER BY id"))
        while (next(L) == 1) {
            const char *name = col_text(L, 1, 0);
            L->name = name;
            int kind = name_index(mt_couple_names, 3, col_text(L, 2, 0));
            if (kind < 0) bad_name(L, 2);
            int n = sqlite3_column_type(L->st, 9) == SQLITE_NULL ? 2 : 3, joint[3];
            MtCoordKind coord[3];
            double coef[3];
            for (int k = 0; k < n; k++) {
                joint[k] = col_ref(L, 3 + 3 * k, &ld->joints, 0);
                const char *c = col_text(L, 4 + 3 * k, 0);
                if (c && mt_coord_from_name(c, &coord[k])) bad_name(L, 4 + 3 * k);
                col_num(L, 5 + 3 * k, &coef[k], 0);
            }
            if (L->fail || !name) break;
            if (mt_model_add_couple(m, name, (MtCoupleKind)kind, n, joint, coord, coef, err) < 0) { api_error(L); break; }
            if (idmap_add(&ld->couples, L->id)) { mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory")); L->fail = 1; }
        }
}

static void load_springs(Loader *ld)
{
    Load *L = &ld->L;
    MtModel *m = ld->m;
    MtError *err = L->err;
    char sql[2048];
    if (!L->fail && !prep(L, "springs", select_rows(sql, sizeof sql, "id, name, marker_i, marker_j", MT_ENT_SPRING,
                                                     "FROM springs ORDER BY id")))
        while (next(L) == 1) {
            const char *name = col_text(L, 1, 0);
            L->name = name;
            int mi = col_ref(L, 2, &ld->markers, 0), mj = col_ref(L, 3, &ld->markers, 0);
            if (L->fail || !name) break;
            int sp = mt_model_add_spring(m, name, mi, mj, 0, 0, 0, 0, err);
            if (sp < 0) { api_error(L); break; }
            col_rows(L, 4, MT_ENT_SPRING, &m->spring[sp]);
            if (idmap_add(&ld->springs, L->id)) { mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory")); L->fail = 1; }
        }
}

/* Forces and the settings of their kinds. */
static void load_forces(Loader *ld)
{
    Load *L = &ld->L;
    MtModel *m = ld->m;
    MtError *err = L->err;
    if (!L->fail && !prep(L, "forces", "SELECT id, name, kind, marker_i, marker_j, joint_id, geometry, fx, fy, fz, tx, ty, tz"
                                        " FROM forces ORDER BY id"))
        while (next(L) == 1) {
            const char *name = col_text(L, 1, 0), *kind = col_text(L, 2, 0), *geom = col_text(L, 6, 0);
            L->name = name;
            MtForceKind k = MT_FORCE_TORSION;
            MtContactGeom g = MT_CONTACT_SPHERE_PLANE;
            if (kind && mt_force_kind_from_name(kind, &k)) bad_name(L, 2);
            if (geom && mt_contact_geom_from_name(geom, &g)) bad_name(L, 6);
            int mi = -1, mj = -1, joint = -1;
            if (sqlite3_column_type(L->st, 3) != SQLITE_NULL) mi = col_ref(L, 3, &ld->markers, 0);
            if (sqlite3_column_type(L->st, 4) != SQLITE_NULL) mj = col_ref(L, 4, &ld->markers, 0);
            if (sqlite3_column_type(L->st, 5) != SQLITE_NULL) joint = col_ref(L, 5, &ld->joints, 0);
            const char *ex[6];
            for (int c = 0; c < 6; c++) {
                ex[c] = col_text(L, 7 + c, 0);
                if (ex[c] && strlen(ex[c]) >= MT_EXPR_MAX) bad_column(L, 7 + c, BAD_LONG);
            }
            if (L->fail || !name) break;
            int f = mt_model_add_force(m, name, k, mi, mj, joint, err);
            if (f < 0) { api_error(L); break; }
            m->force[f].geom = g;
            for (int c = 0; c < 6; c++) snprintf(m->force[f].expr[c], MT_EXPR_MAX, "%s", ex[c]);
            if (idmap_add(&ld->forces, L->id)) { mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory")); L->fail = 1; }
        }

    if (!L->fail && !prep(L, "force_parameters", "SELECT force_id, name, value FROM force_parameters"))
        while (next(L) == 1) {
            int f = col_ref(L, 0, &ld->forces, 0);
            const char *pname = col_text(L, 1, 0);
            if (f < 0 || !pname) break;
            L->name = m->force[f].name;
            const char *const *pn = mt_force_param_names(m->force[f].kind);
            int q = 0;
            while (pn[q] && strcmp(pn[q], pname)) q++;
            if (!pn[q] || q >= MT_FORCE_NPAR) { bad_column(L, 1, BAD_SETTING); break; }
            double v;
            if (!col_num(L, 2, &v, 1)) v = NAN;
            m->force[f].p[q] = v;
        }
}

static void load_sensors(Loader *ld)
{
    Load *L = &ld->L;
    MtModel *m = ld->m;
    MtError *err = L->err;
    if (!L->fail && !prep(L, "sensors", "SELECT id, name, kind, marker_i, marker_j, frame_marker, component, joint_id, part, body_id,"
                                         " energy, unit, expr, force_id, spring_id, coord FROM sensors ORDER BY id"))
        while (next(L) == 1) {
            const char *name = col_text(L, 1, 0), *kind = col_text(L, 2, 0), *unit = col_text(L, 11, 0),
                       *expr = col_text(L, 12, 0);
            L->name = name;
            MtSensorKind k = MT_SENSOR_POSITION;
            if (kind && mt_sensor_kind_from_name(kind, &k)) bad_name(L, 2);
            int mk[3] = {-1, -1, -1}, joint = -1, body = -1;
            for (int c = 0; c < 3; c++)
                if (sqlite3_column_type(L->st, 3 + c) != SQLITE_NULL) mk[c] = col_ref(L, 3 + c, &ld->markers, 0);
            if (sqlite3_column_type(L->st, 7) != SQLITE_NULL) joint = col_ref(L, 7, &ld->joints, 0);
            if (sqlite3_column_type(L->st, 9) != SQLITE_NULL) body = col_ref(L, 9, &ld->bodies, 0);
            int part = name_index(mt_part_names, 4, col_text(L, 8, 0)), energy = name_index(mt_energy_names, 4, col_text(L, 10, 0));
            int force = -1, spring = -1;
            if (sqlite3_column_type(L->st, 13) != SQLITE_NULL) force = col_ref(L, 13, &ld->forces, 0);
            if (sqlite3_column_type(L->st, 14) != SQLITE_NULL) spring = col_ref(L, 14, &ld->springs, 0);
            if (!L->fail && k == MT_SENSOR_FORCE && (force < 0) == (spring < 0)) bad_column(L, 13, BAD_RANGE);
            MtCoordKind coord = MT_COORD_NONE;
            const char *cn = col_text(L, 15, 1);
            if (cn && mt_coord_from_name(cn, &coord)) bad_name(L, 15);
            if (part < 0) bad_name(L, 8);
            if (energy < 0) bad_name(L, 10);
            if (unit && strlen(unit) >= sizeof m->sensor[0].unit) bad_column(L, 11, BAD_LONG);
            if (expr && strlen(expr) >= MT_EXPR_MAX) bad_column(L, 12, BAD_LONG);
            if (L->fail || !name || !unit || !expr) break;
            int sn = mt_model_add_sensor(m, name, k, err);
            if (sn < 0) { api_error(L); break; }
            MtSensorSpec *ss = &m->sensor[sn];
            ss->mi = mk[0];
            ss->mj = mk[1];
            ss->mframe = mk[2];
            ss->comp = sqlite3_column_int(L->st, 6);
            ss->joint = joint;
            ss->part = (MtReactionPart)part;
            ss->body = body;
            ss->energy = energy;
            snprintf(ss->unit, sizeof ss->unit, "%s", unit);
            snprintf(ss->expr, sizeof ss->expr, "%s", expr);
            ss->force = force;
            ss->spring = spring;
            ss->coord = coord;
        }
}

static void load_controls(Loader *ld)
{
    Load *L = &ld->L;
    MtModel *m = ld->m;
    MtError *err = L->err;
    if (!L->fail && !prep(L, "controls", "SELECT id, name, kind, input, setpoint, kp, ki, kd, tf, k, tau, wn, zeta, lo, hi, disabled"
                                          " FROM controls ORDER BY id"))
        while (next(L) == 1) {
            const char *name = col_text(L, 1, 0), *input = col_text(L, 3, 0), *setpoint = col_text(L, 4, 0);
            L->name = name;
            int kind = name_index(mt_control_kind_names, 3, col_text(L, 2, 0));
            if (kind < 0) { bad_name(L, 2); break; }
            if (input && strlen(input) >= MT_EXPR_MAX) bad_column(L, 3, BAD_LONG);
            if (setpoint && strlen(setpoint) >= MT_EXPR_MAX) bad_column(L, 4, BAD_LONG);
            double v[8] = {0}, lo = -INFINITY, hi = INFINITY;
            for (int q = 0; q < 8; q++)
                if (control_setting[kind][q] >= 0) col_num(L, 5 + q, &v[q], 0);
            if (!col_num(L, 13, &lo, 1)) lo = -INFINITY; /* NULL: not limited */
            if (!col_num(L, 14, &hi, 1)) hi = INFINITY;
            sqlite3_int64 dis = sqlite3_column_int64(L->st, 15);
            if (sqlite3_column_type(L->st, 15) != SQLITE_INTEGER || (dis != 0 && dis != 1)) bad_column(L, 15, BAD_RANGE);
            if (L->fail || !name || !input || !setpoint) break;
            int c = mt_model_add_control(m, name, (MtControlKind)kind, err);
            if (c < 0) { api_error(L); break; }
            MtControlSpec *cs = &m->control[c];
            snprintf(cs->input, sizeof cs->input, "%s", input);
            snprintf(cs->setpoint, sizeof cs->setpoint, "%s", setpoint);
            for (int q = 0; q < 8; q++)
                if (control_setting[kind][q] >= 0) cs->p[control_setting[kind][q]] = v[q];
            cs->p[control_limit[kind]] = lo;
            cs->p[control_limit[kind] + 1] = hi;
            cs->disabled = (int)dis;
            if (idmap_add(&ld->controls, L->id)) { mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory")); L->fail = 1; }
        }
}

static void load_events(Loader *ld)
{
    Load *L = &ld->L;
    MtModel *m = ld->m;
    MtError *err = L->err;
    if (!L->fail && !prep(L, "events", "SELECT id, name, kind, time, expr, value, direction, action, joint_id, force_id, spring_id,"
                                        " driver_id, control_id FROM events ORDER BY id"))
        while (next(L) == 1) {
            const char *name = col_text(L, 1, 0), *expr = NULL;
            L->name = name;
            int trigger = name_index(trigger_names, 2, col_text(L, 2, 0)), action = name_index(mt_action_names, 5, col_text(L, 7, 0));
            if (trigger < 0) bad_name(L, 2);
            if (action < 0) bad_name(L, 7);
            double time = 0, value = 0;
            int direction = 0;
            if (trigger == MT_EVENT_AT) col_num(L, 3, &time, 0);
            else if (trigger == MT_EVENT_CROSSES) {
                expr = col_text(L, 4, 0);
                if (expr && strlen(expr) >= MT_EXPR_MAX) bad_column(L, 4, BAD_LONG);
                col_num(L, 5, &value, 0);
                direction = name_index(direction_names, 3, col_text(L, 6, 0)) - 1;
                if (direction < -1) bad_name(L, 6);
            }
            /* the target: one of joint_id, force_id, spring_id, driver_id, control_id */
            const IdMap *maps[5] = {&ld->joints, &ld->forces, &ld->springs, &ld->drivers, &ld->controls};
            int tk = MT_TARGET_NONE, target = -1;
            for (int k = 0; k < 5; k++) {
                if (sqlite3_column_type(L->st, 8 + k) == SQLITE_NULL) continue;
                if (tk != MT_TARGET_NONE) bad_column(L, 8 + k, BAD_RANGE); /* a second target */
                tk = MT_TARGET_JOINT + k;
                target = col_ref(L, 8 + k, maps[k], 0);
            }
            if (!L->fail && ((action == MT_ACTION_STOP) != (tk == MT_TARGET_NONE) ||
                            (action == MT_ACTION_BREAK || action == MT_ACTION_LOCK) != (tk == MT_TARGET_JOINT)))
                bad_column(L, 7, BAD_RANGE); /* the action does not fit its target */
            if (L->fail || !name) break;
            int e = mt_model_add_event(m, name, err);
            if (e < 0) { api_error(L); break; }
            MtEventSpec *ev = &m->event[e];
            ev->trigger = (MtEventTrigger)trigger;
            if (trigger == MT_EVENT_AT) ev->time = time;
            else {
                snprintf(ev->expr, sizeof ev->expr, "%s", expr);
                ev->value = value;
                ev->direction = direction;
            }
            ev->action = (MtEventAction)action;
            ev->target_kind = (MtTargetKind)tk;
            if (tk != MT_TARGET_NONE) ev->target = target;
            if (idmap_add(&ld->events, L->id)) { mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory")); L->fail = 1; }
        }
}

static void load_initials(Loader *ld)
{
    Load *L = &ld->L;
    MtModel *m = ld->m;
    MtError *err = L->err;
    /* joint coordinates and modal coordinates in one sequence of ids (bindings name either) */
    if (!L->fail && !prep(L, "initial_conditions",
                          "SELECT id, joint_id, coord, value, rate, NULL, NULL FROM initial_conditions UNION ALL "
                          "SELECT id, NULL, NULL, value, rate, body_id, mode FROM flexible_initial_conditions ORDER BY id"))
        while (next(L) == 1) {
            int modal = sqlite3_column_type(L->st, 5) != SQLITE_NULL, j = -1, b = -1, mode = 0;
            MtCoordKind coord = MT_COORD_NONE;
            if (modal) {
                b = col_ref(L, 5, &ld->bodies, 0);
                if (b >= 0) L->name = m->body[b].name;
                mode = sqlite3_column_int(L->st, 6);
            } else {
                j = col_ref(L, 1, &ld->joints, 0);
                if (j >= 0) L->name = m->joint[j].name;
                const char *c = col_text(L, 2, 0);
                if (c && mt_coord_from_name(c, &coord)) bad_name(L, 2);
            }
            double value, rate;
            int hv = col_num(L, 3, &value, 1), hr = col_num(L, 4, &rate, 1);
            if (L->fail) break;
            if ((modal ? mt_model_add_initial_mode(m, b, mode, hv, value, hr, rate, err)
                       : mt_model_add_initial(m, j, coord, hv, value, hr, rate, err)) < 0) {
                api_error(L);
                break;
            }
            if (idmap_add(&ld->initials, L->id)) { mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory")); L->fail = 1; }
        }
}

static void load_bindings(Loader *ld)
{
    Load *L = &ld->L;
    MtModel *m = ld->m;
    MtError *err = L->err;
    if (!L->fail && !prep(L, "bindings", "SELECT id, entity_kind, entity_id, field, expr FROM bindings ORDER BY id"))
        while (next(L) == 1) {
            const char *field = col_text(L, 3, 0), *expr = col_text(L, 4, 0);
            L->name = field;
            int kind = name_index(kind_names, NKIND, col_text(L, 1, 0));
            if (kind < 0) { bad_name(L, 1); break; }
            const IdMap *maps[NKIND] = {&ld->bodies,   &ld->markers, &ld->joints, &ld->drivers, &ld->springs, &ld->couples, &ld->initials,
                                        NULL,      NULL,     &ld->forces, &ld->shapes,  &ld->controls, &ld->events,
                                        &ld->bodies}; /* MT_ENT_FLEX: a flexible body's settings, by its body */
            int index = 0;
            if (maps[kind]) index = col_ref(L, 2, maps[kind], 0);
            if (L->fail || !field || !expr) break;
            if (mt_model_bind(m, (MtEntityKind)kind, index, field, expr, err) < 0) { api_error(L); break; }
        }
}

static void load_units(Loader *ld)
{
    Load *L = &ld->L;
    MtModel *m = ld->m;
    MtError *err = L->err;
    if (!L->fail && !prep(L, "display_units", "SELECT id, quantity, unit FROM display_units ORDER BY id"))
        while (next(L) == 1) {
            const char *q = col_text(L, 1, 0), *u = col_text(L, 2, 0);
            L->name = q;
            if (L->fail || !q || !u) break;
            if (mt_model_set_unit(m, q, u, err) < 0) { api_error(L); break; }
        }
}

/* Ends the read transaction and frees the id maps. */
static void load_close(Loader *ld, int began)
{
    if (ld->L.st) sqlite3_finalize(ld->L.st);
    if (began) sqlite3_exec(ld->L.s->db, "COMMIT", NULL, NULL, NULL); /* a read transaction: nothing to write */
    free(ld->bodies.id); free(ld->markers.id); free(ld->joints.id); free(ld->drivers.id); free(ld->springs.id);
    free(ld->couples.id); free(ld->initials.id); free(ld->forces.id); free(ld->controls.id); free(ld->shapes.id);
    free(ld->events.id);
}

/* The plots the project was saved with, as the model's (presentation: a layout that does not read is none). */
static void load_plots(Loader *ld)
{
    MtModel *m = ld->m;
    if (!ld->L.fail) {
        MtError perr = {0};
        char *layout = mt_store_load_plot(ld->L.s, "layout", &perr);
        int active;
        if (!layout || mt_plots_from_json(layout, m->plot, &m->nplot, m->derived, &m->nderived, &active))
            m->nplot = m->nderived = 0;
        free(layout);
        /* the view (presentation too: a line that does not read is none) */
        char *view = mt_store_load_plot(ld->L.s, "view", &perr), *word[40];
        int n = 0;
        for (char *w = view ? strtok(view, " ") : NULL; w && n < 40; w = strtok(NULL, " ")) word[n++] = w;
        if (n < 2 || strcmp(word[0], "view") || mt_view_parse(&m->view, word + 1, n - 1, &perr)) memset(&m->view, 0, sizeof m->view);
        free(view);
        char *sliders = mt_store_load_plot(ld->L.s, "sliders", &perr); /* (a project before sliders: none) */
        mt_sliders_read(m, sliders);
        free(sliders);
    }
}

/* Parameters, computed mass properties and the model's own checks. */
static void load_finish(Loader *ld)
{
    Load *L = &ld->L;
    MtStore *s = L->s;
    MtModel *m = ld->m;
    MtError *err = L->err;
    if (!L->fail && (m->nparam || m->nbinding) && mt_model_eval_params(m, err)) api_error(L);
    if (!L->fail && mt_model_update_mass_props(m, err)) api_error(L);
    { /* meshes are relative to the project */
        const char *slash = strrchr(s->path, '/');
        size_t n = slash ? (size_t)(slash - s->path) : 0;
        if (n >= sizeof m->basedir && !L->fail) { /* cut, its meshes would be looked for elsewhere */
            mt_error_set(err, MT_ERR_IO, s->path, MT_("%s: the path of its directory is longer than %zu bytes"), s->path,
                         sizeof m->basedir - 1);
            api_error(L);
        } else snprintf(m->basedir, sizeof m->basedir, "%.*s", (int)n, s->path);
    }
    if (!L->fail && ld->need_reduce && mt_model_reduce_flex(m, NULL, err)) api_error(L); /* saved without its reduction */
    if (!L->fail && mt_model_validate(m, err)) api_error(L);
}

MtModel *mt_store_load_model(MtStore *s, long *version, MtError *err)
{
    MtError local;
    if (!err) err = &local;
    mt_error_clear(err);
    MtModel *m = mt_model_new();
    if (!m) {
        mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
        return NULL;
    }
    Loader ld = {.L = {s, err, NULL, NULL, NULL, 0, 0}, .m = m};
    int began = mt_store_exec(s, "BEGIN", err) == MT_OK;
    if (!began) ld.L.fail = 1;
    load_project(&ld);
    load_solver(&ld);
    load_parameters(&ld);
    load_tables(&ld);
    load_bodies(&ld);
    load_markers(&ld);
    load_flexible(&ld);
    load_shapes(&ld);
    load_joints(&ld);
    load_drivers(&ld);
    load_couplings(&ld);
    load_springs(&ld);
    load_forces(&ld);
    load_sensors(&ld);
    load_controls(&ld);
    load_events(&ld);
    load_initials(&ld);
    load_bindings(&ld);
    load_units(&ld);
    load_close(&ld, began);
    load_plots(&ld);
    if (!ld.L.fail && mt_store_study_load_lines(s, m, err)) ld.L.fail = 1;
    load_finish(&ld);
    if (ld.L.fail) {
        mt_model_free(m);
        return NULL;
    }
    if (version) *version = ld.version;
    return m;
}

long mt_store_model_version(MtStore *s, MtError *err)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db, "SELECT model_version FROM project WHERE id = 1", -1, &st, NULL);
    if (rc) {
        mt_store_sqlerr(s, rc, err);
        return -1;
    }
    rc = sqlite3_step(st);
    long v = rc == SQLITE_ROW ? (long)sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW) {
        if (rc == SQLITE_DONE) mt_error_set(err, MT_ERR_IO, s->path, MT_("'%s' is damaged: its project row is missing"), s->path);
        else mt_store_sqlerr(s, rc, err);
    }
    return v;
}

/* ---- plots ------------------------------------------------------------------------ */

MtStatus mt_store_save_plot(MtStore *s, const char *name, const char *layout, MtError *err)
{
    MtError local;
    if (!err) err = &local;
    if (mt_store_need_write(s, err)) return err->code;
    if (!name || !name[0]) return mt_error_set(err, MT_ERR_ARG, "", "%s", MT_("a plot layout needs a name"));
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db,
                                "INSERT INTO plots(name, layout, saved) VALUES (?1, ?2, ?3)"
                                " ON CONFLICT(name) DO UPDATE SET layout = excluded.layout, saved = excluded.saved",
                                -1, &st, NULL);
    if (rc) return mt_store_sqlerr(s, rc, err);
    char now[32];
    mt_store_now(now);
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, layout ? layout : "", -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, now, -1, SQLITE_TRANSIENT);
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? MT_OK : mt_store_sqlerr(s, rc, err);
}

char *mt_store_load_plot(MtStore *s, const char *name, MtError *err)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db, "SELECT layout FROM plots WHERE name = ?1", -1, &st, NULL);
    if (rc) {
        mt_store_sqlerr(s, rc, err);
        return NULL;
    }
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    rc = sqlite3_step(st);
    char *out = NULL;
    if (rc == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(st, 0);
        out = strdup(t ? t : "");
        if (!out) mt_error_set(err, MT_ERR_NOMEM, name, "%s", MT_("out of memory"));
    } else if (rc == SQLITE_DONE)
        mt_error_set(err, MT_ERR_ARG, name, MT_("%s: there is no plot layout '%s'"), s->path, name);
    else mt_store_sqlerr(s, rc, err);
    sqlite3_finalize(st);
    return out;
}

MtStatus mt_store_delete_plot(MtStore *s, const char *name, MtError *err)
{
    MtError local;
    if (!err) err = &local;
    if (mt_store_need_write(s, err)) return err->code;
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db, "DELETE FROM plots WHERE name = ?1", -1, &st, NULL);
    if (rc) return mt_store_sqlerr(s, rc, err);
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return mt_store_sqlerr(s, rc, err);
    if (sqlite3_changes(s->db) == 0) return mt_error_set(err, MT_ERR_ARG, name, MT_("%s: there is no plot layout '%s'"), s->path, name);
    return MT_OK;
}
