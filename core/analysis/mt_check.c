/* mt_check.c — the model check: compiles and assembles a model and says in
 * words what it found — redundant equations by joint, with why they repeat
 * and what that means for the reactions; bodies connected to nothing;
 * markers nothing uses; a mechanism that cannot move or is overconstrained;
 * flexible bodies reduced otherwise than asked. Declared in motus/check.h. */
#include "motus/check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_i18n.h"
#include "motus/flex.h"
#include "motus/reduce.h"

typedef struct {
    MtCheckReport *r;
    int cap, nomem;
} Out;

static void add(Out *o, MtCheckLevel level, MtEntityKind kind, int index, const char *fmt, ...)
{
    if (o->nomem) return;
    if (o->r->nitem == o->cap) {
        int cap = o->cap ? 2 * o->cap : 8;
        MtCheckItem *it = realloc(o->r->item, sizeof *it * (size_t)cap);
        if (!it) { o->nomem = 1; return; }
        o->r->item = it;
        o->cap = cap;
    }
    MtCheckItem *it = &o->r->item[o->r->nitem++];
    it->level = level;
    it->kind = kind;
    it->index = index;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(it->text, sizeof it->text, fmt, ap);
    va_end(ap);
}

/* Block k's redundant equations in one finding: which, why, what follows. */
static void redundant_block(Out *o, const MtSystem *s, int k)
{
    int row0, nrow = mt_block_rows(s, k, &row0), ndep = mt_block_ndep(s, k);
    char list[768] = "";
    for (int r = row0; r < row0 + nrow; r++) {
        if (!mt_system_row_redundant(s, r)) continue;
        char w[512];
        mt_system_row_words(s, r, w, sizeof w);
        const char *eq = strrchr(w, ':'); /* "joint 'jc' (revolute), equation 3 of 5: coincidence …" */
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s%s", len ? "; " : "", eq ? eq + 2 : w);
    }
    MtEntityKind kind;
    int src = mt_block_source(s, k, &kind);
    const MtModel *m = mt_system_model(s);
    char who[2 * MT_NAME_MAX + 32];
    if (kind == MT_ENT_JOINT)
        snprintf(who, sizeof who, MT_("joint '%s' (%s)"), m->joint[src].name, mt_joint_type_name(m->joint[src].type));
    else if (kind == MT_ENT_DRIVER) snprintf(who, sizeof who, MT_("driver '%s'"), m->driver[src].name);
    else snprintf(who, sizeof who, MT_("coupling '%s'"), mt_block_name(s, k));
    /* why: a loop of revolute, prismatic or cylindrical joints with parallel axes moves in a plane, and
     * 3-D joints repeat the plane's equations; otherwise the loop's other joints impose them already */
    int planar = kind == MT_ENT_JOINT && (m->joint[src].type == MT_JOINT_REVOLUTE || m->joint[src].type == MT_JOINT_PRISMATIC ||
                                          m->joint[src].type == MT_JOINT_CYLINDRICAL);
    add(o, MT_CHECK_WARNING, kind, src,
        planar ? MT_("%s: %d of its %d equations repeat others of its closed loop and were removed (%s). The loop's "
                     "joints act in one plane (parallel axes) but are 3-D joints, so they hold the plane more than once. "
                     "The motion is not affected, but the reactions in these directions are one admissible split of the "
                     "load, not the physical one: to get them, make the loop exactly constrained (for instance one "
                     "revolute joint of a four-bar a spherical one and another a universal one).")
               : MT_("%s: %d of its %d equations repeat others of its closed loop and were removed (%s): the loop's other "
                     "joints impose them already. The motion is not affected, but the reactions in these directions are "
                     "one admissible split of the load, not the physical one."),
        who, ndep, nrow, list);
}

/* Markers no joint, driver, spring, force element or sensor uses (a flexible body's interface and the
 * markers plots read are not known here: said as information only). */
static void unused_markers(Out *o, const MtModel *m)
{
    unsigned char *used = calloc((size_t)m->nmarker + 1, 1);
    if (!used) { o->nomem = 1; return; }
#define USE(i) ((i) >= 0 && (i) < m->nmarker ? (void)(used[i] = 1) : (void)0)
    for (int i = 0; i < m->njoint; i++) USE(m->joint[i].mi), USE(m->joint[i].mj);
    for (int i = 0; i < m->ndriver; i++) USE(m->driver[i].mi), USE(m->driver[i].mj);
    for (int i = 0; i < m->nspring; i++) USE(m->spring[i].mi), USE(m->spring[i].mj);
    for (int i = 0; i < m->nforce; i++) USE(m->force[i].mi), USE(m->force[i].mj);
    for (int i = 0; i < m->nsensor; i++) USE(m->sensor[i].mi), USE(m->sensor[i].mj), USE(m->sensor[i].mframe);
#undef USE
    int n = 0;
    char list[512] = "", ref[2 * MT_NAME_MAX + 2];
    for (int i = 0; i < m->nmarker; i++) {
        if (used[i]) continue;
        if (n++ < 8) {
            size_t len = strlen(list);
            snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "", mt_model_marker_ref(m, i, ref, (int)sizeof ref));
        }
    }
    free(used);
    if (n)
        add(o, MT_CHECK_INFO, MT_ENT_MARKER, -1,
            n > 8 ? MT_("%d markers are used by no joint, driver, spring, force element or sensor (%s, …)")
                  : MT_("%d markers are used by no joint, driver, spring, force element or sensor (%s)"),
            n, list);
}

/* Findings about degrees of freedom, free bodies, redundancy and flexible bodies. */
static void findings(Out *o, const MtSystem *s)
{
    const MtModel *m = mt_system_model(s);
    MtSystemInfo *in = &o->r->info;
    if (in->dof_rank < 0)
        add(o, MT_CHECK_WARNING, MT_ENT_BODY, -1,
            MT_("the mechanism is overconstrained: its equations leave it %d degrees of freedom by rank"), in->dof_rank);
    else if (in->dof_rank == 0 && m->ndriver == 0)
        add(o, MT_CHECK_WARNING, MT_ENT_BODY, -1, "%s",
            MT_("the mechanism has no degree of freedom and no driver: nothing can move (a structure)"));
    else if (in->dof_rank == 0)
        add(o, MT_CHECK_INFO, MT_ENT_DRIVER, -1, "%s",
            MT_("the drivers prescribe every degree of freedom: the motion is kinematically determined (the "
                "kinematics analysis gives it without integrating)"));
    for (int i = 0; i < in->nfree; i++) {
        int b = mt_system_free_body(s, i);
        add(o, MT_CHECK_WARNING, MT_ENT_BODY, b,
            MT_("body '%s' is connected to ground by no joint or spring: it moves freely (falls under gravity)"),
            m->body[b].name);
    }
    for (int k = 0; k < in->nblock; k++)
        if (mt_block_ndep(s, k)) redundant_block(o, s, k);
    if (in->nspecial)
        add(o, MT_CHECK_INFO, MT_ENT_BODY, -1,
            MT_("%d further equations are dependent in the initial configuration only (a singular position): they are "
                "kept, and the run passes through it"),
            in->nspecial);
    for (int i = 0; i < m->nflex; i++) { /* a fixed-interface method needs an interface: said, not done silently */
        const MtFlexBody *fb = mt_model_flex_body(m, i);
        MtFlexInfo fi;
        if (!fb) continue;
        mt_flex_body_info(fb, &fi);
        if (fi.method != m->flex[i].method)
            add(o, MT_CHECK_WARNING, MT_ENT_BODY, m->flex[i].body,
                MT_("flexible body '%s' has no markers to make an interface of: it is reduced to free-interface modes, "
                    "not by the method its 'flexible' line asks for; put the markers its joints and forces use on it"),
                m->body[m->flex[i].body].name);
    }
    unused_markers(o, m);
}

static int by_level(const void *a, const void *b)
{
    const MtCheckItem *x = a, *y = b;
    return (int)y->level - (int)x->level;
}

static MtStatus finish(Out *o, MtError *err)
{
    if (o->nomem) {
        mt_check_free(o->r);
        return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory checking the model"));
    }
    /* errors first, then warnings, then information; stable within a level (insertion sort, few items) */
    MtCheckItem *it = o->r->item;
    for (int i = 1; i < o->r->nitem; i++)
        for (int j = i; j > 0 && by_level(&it[j - 1], &it[j]) > 0; j--) {
            MtCheckItem t = it[j];
            it[j] = it[j - 1];
            it[j - 1] = t;
        }
    return MT_OK;
}

/* The entity a message names, by its name. */
static int find_entity(const MtModel *m, const char *name, MtEntityKind *kind)
{
    int i;
    if ((i = mt_model_find_body(m, name)) >= 0) return *kind = MT_ENT_BODY, i;
    if ((i = mt_model_find_joint(m, name)) >= 0) return *kind = MT_ENT_JOINT, i;
    if ((i = mt_model_find_force(m, name)) >= 0) return *kind = MT_ENT_FORCE, i;
    if ((i = mt_model_find_marker(m, name)) >= 0) return *kind = MT_ENT_MARKER, i;
    for (i = 0; i < m->ndriver; i++)
        if (!strcmp(m->driver[i].name, name)) return *kind = MT_ENT_DRIVER, i;
    for (i = 0; i < m->nspring; i++)
        if (!strcmp(m->spring[i].name, name)) return *kind = MT_ENT_SPRING, i;
    return -1;
}

static int no_frame(void *user, MtState *st)
{
    (void)user, (void)st;
    return 0;
}

/* The initial configuration assembled as a run would (joints closed, initial conditions held), or an error. */
static void initial_assembly(Out *o, const MtSystem *s)
{
    MtError e = {0};
    MtState *st = mt_state_new(s, &e);
    if (st) {
        MtSolverSpec sv = *mt_system_solver(s);
        sv.method = MT_METHOD_RK4; /* no step is taken: frame 0 only */
        sv.until = mt_state_time(st);
        sv.every = 1;
        if (!(sv.step > 0)) sv.step = 1e-3;
        mt_run(st, &sv, no_frame, NULL, NULL, NULL, &e);
        mt_state_free(st);
    }
    if (e.code == MT_ERR_NOMEM) o->nomem = 1;
    else if (e.code) {
        MtEntityKind kind = MT_ENT_BODY;
        int index = e.entity[0] ? find_entity(mt_system_model(s), e.entity, &kind) : -1;
        add(o, MT_CHECK_ERROR, kind, index, "%s", e.msg);
    }
}

MtStatus mt_check_system(const MtSystem *s, MtCheckReport *r, MtError *err)
{
    memset(r, 0, sizeof *r);
    Out o = {r, 0, 0};
    r->compiled = 1;
    mt_system_info(s, &r->info);
    initial_assembly(&o, s);
    findings(&o, s);
    return finish(&o, err);
}

MtStatus mt_check_model(const MtModel *m, MtCheckReport *r, MtError *err)
{
    memset(r, 0, sizeof *r);
    Out o = {r, 0, 0};
    MtError e = {0};
    MtSystem *s = mt_system_compile(m, &e);
    if (s && mt_system_assemble(s, &e)) {
        mt_system_free(s);
        s = NULL;
    }
    if (!s) {
        if (e.code == MT_ERR_NOMEM) return mt_error_set(err, MT_ERR_NOMEM, "", "%s", e.msg);
        int index = -1;
        MtEntityKind kind = MT_ENT_BODY;
        if (e.entity[0]) index = find_entity(m, e.entity, &kind); /* the entity the message names, for the panel */
        add(&o, MT_CHECK_ERROR, kind, index, "%s", e.msg);
        return finish(&o, err);
    }
    MtStatus rc = mt_check_system(s, r, err);
    mt_system_free(s);
    return rc;
}

void mt_check_free(MtCheckReport *r)
{
    free(r->item);
    memset(r, 0, sizeof *r);
}

int mt_check_count(const MtCheckReport *r, MtCheckLevel level)
{
    int n = 0;
    for (int i = 0; i < r->nitem; i++) n += r->item[i].level == level;
    return n;
}
