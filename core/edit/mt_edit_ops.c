/* mt_edit_ops.c — structural edits (see motus/edit.h): rename with the
 * expressions that use the name rewritten, duplicate, delete with the
 * closure of dependents and every index renumbered, creating bodies, markers,
 * joints, springs, force elements, sensors and parameters, and snap points.
 * Each works on a copy of the model and commits it through the editor. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "motus/edit.h"
#include "mt_flexmodel.h"
#include "mt_edit_internal.h"
#include "mt_i18n.h"
#include "mt_math.h"

/* ---- names ------------------------------------------------------------------------ */

static const MtEditKind named_kinds[] = {MT_EDIT_BODY,  MT_EDIT_JOINT,  MT_EDIT_DRIVER,  MT_EDIT_SPRING,
                                         MT_EDIT_COUPLE, MT_EDIT_FORCE, MT_EDIT_SENSOR, MT_EDIT_PARAM,
                                         MT_EDIT_CONTROL, MT_EDIT_EVENT};
#define NNAMED ((int)(sizeof named_kinds / sizeof named_kinds[0]))

/* 1 when some entity other than (kind, index) is called name (markers:
 * only the markers of the same body count). */
static int name_used(const MtModel *m, const char *name, MtEditKind kind, int index, int marker_body)
{
    if (kind == MT_EDIT_MARKER) {
        for (int i = 0; i < m->nmarker; i++)
            if (i != index && m->marker[i].body == marker_body && !strcmp(m->marker[i].name, name)) return 1;
        return 0;
    }
    if (!strcmp(name, "ground") || !strcmp(name, "system") || !strcmp(name, "time")) return 1;
    for (int k = 0; k < NNAMED; k++) {
        int n = mt_edit_count(m, named_kinds[k]);
        for (int i = 0; i < n; i++)
            if (!(named_kinds[k] == kind && i == index) && !strcmp(mt_edit_name(m, named_kinds[k], i), name)) return 1;
    }
    return 0;
}

/* The end of every "add": commits the copy c holding the new entity k under
 * the undo label fmt, and tells the caller its index. */
static MtStatus commit_added(MtEditor *e, MtModel *c, int k, int *index, MtError *err, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static MtStatus commit_added(MtEditor *e, MtModel *c, int k, int *index, MtError *err, const char *fmt, ...)
{
    char label[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(label, sizeof label, fmt, ap);
    va_end(ap);
    MtStatus rc = mt_editor_commit(e, c, label, err);
    if (rc == MT_OK && index) *index = k;
    return rc;
}

static MtStatus check_new_name(const MtModel *m, const char *name, MtEditKind kind, int index, int marker_body,
                               const char *what, MtError *err)
{
    if (!name || !name[0]) return mt_error_set(err, MT_ERR_MODEL, "", MT_("%s: give it a name"), what);
    if (strlen(name) >= MT_NAME_MAX)
        return mt_error_set(err, MT_ERR_MODEL, name, MT_("%s: the name '%s' is longer than %d characters"), what, name,
                            MT_NAME_MAX - 1);
    if ((name[0] >= '0' && name[0] <= '9') || strpbrk(name, ".#\" \t{}()+-*/^,;=<>!?:'"))
        return mt_error_set(err, MT_ERR_MODEL, name,
                            MT_("%s: '%s' is not a usable name (start with a letter; no spaces, dots, quotes, braces "
                                "or operators)"),
                            what, name);
    if (name_used(m, name, kind, index, marker_body))
        return mt_error_set(err, MT_ERR_MODEL, name, MT_("%s: the name '%s' is already used; choose another"), what, name);
    return MT_OK;
}

/* A free name "base", "base_2", "base_3" … (or "base1", "base2" … when numbered). */
static void unique_name(const MtModel *m, const char *base, int numbered, MtEditKind kind, int marker_body, char *out)
{
    char b[MT_NAME_MAX - 12]; /* room for "_NNNNNNNNNN" */
    snprintf(b, sizeof b, "%.*s", (int)mt_utf8_prefix(base, sizeof b - 1), base); /* a whole character last */
    if (!numbered && !name_used(m, b, kind, -1, marker_body)) {
        snprintf(out, MT_NAME_MAX, "%s", b);
        return;
    }
    for (int i = numbered ? 1 : 2;; i++) {
        snprintf(out, MT_NAME_MAX, numbered ? "%s%d" : "%s_%d", b, i);
        if (!name_used(m, out, kind, -1, marker_body)) return;
    }
}

/* ---- names inside expressions ----------------------------------------------------- */

static int name_start(unsigned char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80; }
static int name_cont(unsigned char c) { return name_start(c) || (c >= '0' && c <= '9'); }

/* Calls fn for every name token of src ("crank.wz" is one token) with its
 * start and length; numbers ("1e-3") are skipped whole. */
typedef int (*TokenFn)(void *user, const char *src, size_t start, size_t len);
static int each_name(const char *src, TokenFn fn, void *user)
{
    size_t i = 0, n = strlen(src);
    while (i < n) {
        unsigned char c = (unsigned char)src[i];
        if ((c >= '0' && c <= '9') || (c == '.' && i + 1 < n && src[i + 1] >= '0' && src[i + 1] <= '9')) {
            while (i < n && ((src[i] >= '0' && src[i] <= '9') || src[i] == '.')) i++;
            if (i < n && (src[i] == 'e' || src[i] == 'E')) {
                size_t j = i + 1;
                if (j < n && (src[j] == '+' || src[j] == '-')) j++;
                if (j < n && src[j] >= '0' && src[j] <= '9') {
                    i = j;
                    while (i < n && src[i] >= '0' && src[i] <= '9') i++;
                }
            }
            continue;
        }
        if (name_start(c)) {
            size_t s = i;
            while (i < n && (name_cont((unsigned char)src[i]) || (src[i] == '.' && i + 1 < n && name_cont((unsigned char)src[i + 1]))))
                i++;
            if (fn(user, src, s, i - s)) return 1;
            continue;
        }
        i++;
    }
    return 0;
}

/* Does the token name the entity: "arm" or "arm.something"? */
static int token_is(const char *src, size_t start, size_t len, const char *name)
{
    size_t l = strlen(name);
    return len >= l && !strncmp(src + start, name, l) && (len == l || src[start + l] == '.');
}

typedef struct {
    const char *old, *new_;
    char out[MT_EXPR_MAX];
    size_t o, done;
    int overflow, count;
} Rewrite;

static int rewrite_tok(void *user, const char *src, size_t s, size_t len)
{
    Rewrite *r = user;
    if (!token_is(src, s, len, r->old)) return 0;
    size_t ol = strlen(r->old), nl = strlen(r->new_), pre = s - r->done;
    if (r->o + pre + nl >= sizeof r->out) {
        r->overflow = 1;
        return 1;
    }
    memcpy(r->out + r->o, src + r->done, pre);
    r->o += pre;
    memcpy(r->out + r->o, r->new_, nl);
    r->o += nl;
    r->done = s + ol;
    r->count++;
    return 0;
}

/* Rewrites old → new in one expression buffer of capacity cap; -1 when it
 * would no longer fit. */
static int rewrite(char *expr, size_t cap, const char *old, const char *new_)
{
    Rewrite r = {old, new_, "", 0, 0, 0, 0};
    each_name(expr, rewrite_tok, &r);
    if (r.overflow) return -1;
    if (!r.count) return 0;
    size_t rest = strlen(expr + r.done);
    if (r.o + rest >= cap || r.o + rest >= sizeof r.out) return -1;
    memcpy(r.out + r.o, expr + r.done, rest + 1);
    memcpy(expr, r.out, r.o + rest + 1);
    return r.count;
}

/* Every expression of the model, with its owner, visited in turn. */
typedef struct {
    char *text;
    size_t cap;
    MtEditKind owner;
    int index;
    int binding; /* index into m->binding, or -1 */
} ExprRef;

static int list_exprs(MtModel *m, ExprRef *out, int max)
{
    int n = 0;
#define PUT(t, c, k, i, b)                                                                \
    do {                                                                                  \
        if ((t)[0] && n < max) out[n++] = (ExprRef){(t), (c), (k), (i), (b)};             \
    } while (0)
    for (int i = 0; i < m->nparam; i++) PUT(m->param[i].expr, MT_EXPR_MAX, MT_EDIT_PARAM, i, -1);
    for (int i = 0; i < m->nspring; i++) PUT(m->spring[i].curve, MT_EXPR_MAX, MT_EDIT_SPRING, i, -1);
    for (int i = 0; i < m->nforce; i++)
        for (int q = 0; q < 6; q++) PUT(m->force[i].expr[q], MT_EXPR_MAX, MT_EDIT_FORCE, i, -1);
    for (int i = 0; i < m->nsensor; i++) PUT(m->sensor[i].expr, MT_EXPR_MAX, MT_EDIT_SENSOR, i, -1);
    for (int i = 0; i < m->ncontrol; i++) {
        PUT(m->control[i].input, MT_EXPR_MAX, MT_EDIT_CONTROL, i, -1);
        PUT(m->control[i].setpoint, MT_EXPR_MAX, MT_EDIT_CONTROL, i, -1);
    }
    for (int i = 0; i < m->nevent; i++) PUT(m->event[i].expr, MT_EXPR_MAX, MT_EDIT_EVENT, i, -1);
    for (int i = 0; i < m->nbinding; i++) PUT(m->binding[i].expr, MT_EXPR_MAX, MT_EDIT_NKINDS, -1, i);
#undef PUT
    return n;
}

static int n_exprs(const MtModel *m)
{
    return m->nparam + m->nspring + 6 * m->nforce + m->nsensor + 2 * m->ncontrol + m->nevent + m->nbinding + 1;
}

/* ---- rename --------------------------------------------------------------------- */

MtStatus mt_edit_rename(MtEditor *e, MtEditKind kind, int index, const char *name, MtError *err)
{
    const MtModel *m = mt_editor_model(e);
    char what[160];
    mt_edit_describe(m, kind, index, what, sizeof what);
    if (!mt_edit_valid(m, kind, index)) return mt_error_set(err, MT_ERR_ARG, "", MT_("%s does not exist"), what);
    if (!mt_edit_name_ptr((MtModel *)m, kind, index))
        return mt_error_set(err, MT_ERR_ARG, mt_edit_name(m, kind, index), MT_("%s cannot be renamed"), what);
    const char *old = mt_edit_name(m, kind, index);
    if (name && !strcmp(name, old)) return MT_OK;
    int mbody = kind == MT_EDIT_MARKER ? m->marker[index].body : 0;
    MtStatus rc = check_new_name(m, name, kind, index, mbody, what, err);
    if (rc) return rc;
    MtModel *c = mt_model_copy(m);
    if (!c) return mt_error_set(err, MT_ERR_NOMEM, old, "%s", MT_("out of memory"));
    char oldname[MT_NAME_MAX];
    snprintf(oldname, sizeof oldname, "%s", old);
    snprintf(mt_edit_name_ptr(c, kind, index), MT_NAME_MAX, "%s", name);
    if (kind != MT_EDIT_MARKER) { /* expressions read entities by name: "arm.wz", "L" */
        int cap = n_exprs(c);
        ExprRef *ex = malloc((size_t)cap * sizeof *ex);
        if (!ex) {
            mt_model_free(c);
            return mt_error_set(err, MT_ERR_NOMEM, old, "%s", MT_("out of memory"));
        }
        int nx = list_exprs(c, ex, cap);
        for (int i = 0; i < nx; i++)
            if (rewrite(ex[i].text, ex[i].cap, oldname, name) < 0) {
                free(ex);
                mt_model_free(c);
                return mt_error_set(err, MT_ERR_MODEL, oldname,
                                    MT_("%s: an expression using the name would grow longer than %d characters"), what,
                                    MT_EXPR_MAX - 1);
            }
        free(ex);
    }
    char label[256];
    mt_utf8_fmt(label, sizeof label, MT_("rename %s to '%s'"), what, name);
    return mt_editor_commit(e, c, label, err);
}

/* ---- dependents and delete ------------------------------------------------------------ */

/* Entities marked for removal, one flag array per kind (body index MT_GROUND never). */
typedef struct {
    char *rm[MT_EDIT_NKINDS];
    char *rm_initial, *rm_binding;
} Marks;

static void marks_free(Marks *k)
{
    for (int i = 0; i < MT_EDIT_NKINDS; i++) free(k->rm[i]);
    free(k->rm_initial);
    free(k->rm_binding);
}

static int marks_init(Marks *k, const MtModel *m)
{
    memset(k, 0, sizeof *k);
    int bad = 0;
    for (int i = 0; i < MT_EDIT_NKINDS; i++) bad |= !(k->rm[i] = calloc((size_t)mt_edit_count(m, (MtEditKind)i) + 1, 1));
    bad |= !(k->rm_initial = calloc((size_t)m->ninitial + 1, 1));
    bad |= !(k->rm_binding = calloc((size_t)m->nbinding + 1, 1));
    if (bad) marks_free(k);
    return bad ? -1 : 0;
}

#define RM(kind, i) (k->rm[kind][i])
static int rm_marker(const Marks *k, int mk) { return mk >= 0 && k->rm[MT_EDIT_MARKER][mk]; }

/* Marks everything that cannot stay without a marked entity, until nothing changes. */
static void close_marks(const MtModel *m, Marks *k)
{
    for (int changed = 1; changed;) {
        changed = 0;
#define SET(kind, i)                                                                                                   \
    do {                                                                                                               \
        if (!RM(kind, i)) { RM(kind, i) = 1; changed = 1; }                                                            \
    } while (0)
        for (int i = 0; i < m->nmarker; i++)
            if (m->marker[i].body >= 0 && RM(MT_EDIT_BODY, m->marker[i].body)) SET(MT_EDIT_MARKER, i);
        for (int i = 0; i < m->nshape; i++)
            if (m->shape[i].body >= 0 && RM(MT_EDIT_BODY, m->shape[i].body)) SET(MT_EDIT_SHAPE, i);
        for (int i = 0; i < m->njoint; i++)
            if (rm_marker(k, m->joint[i].mi) || rm_marker(k, m->joint[i].mj)) SET(MT_EDIT_JOINT, i);
        for (int i = 0; i < m->ndriver; i++) {
            const MtDriverSpec *d = &m->driver[i];
            if (d->joint >= 0 ? RM(MT_EDIT_JOINT, d->joint) : (rm_marker(k, d->mi) || rm_marker(k, d->mj)))
                SET(MT_EDIT_DRIVER, i);
        }
        for (int i = 0; i < m->nspring; i++)
            if (rm_marker(k, m->spring[i].mi) || rm_marker(k, m->spring[i].mj)) SET(MT_EDIT_SPRING, i);
        for (int i = 0; i < m->ncouple; i++)
            for (int q = 0; q < m->couple[i].n; q++)
                if (RM(MT_EDIT_JOINT, m->couple[i].joint[q])) SET(MT_EDIT_COUPLE, i);
        for (int i = 0; i < m->nforce; i++) {
            const MtForceSpec *f = &m->force[i];
            if (rm_marker(k, f->mi) || rm_marker(k, f->mj) || (f->joint >= 0 && RM(MT_EDIT_JOINT, f->joint)))
                SET(MT_EDIT_FORCE, i);
        }
        for (int i = 0; i < m->nsensor; i++) {
            const MtSensorSpec *s = &m->sensor[i];
            int gone = rm_marker(k, s->mframe);
            switch (s->kind) {
            case MT_SENSOR_REACTION: gone |= s->joint >= 0 && RM(MT_EDIT_JOINT, s->joint); break;
            case MT_SENSOR_ENERGY: gone |= s->body >= 0 && RM(MT_EDIT_BODY, s->body); break;
            case MT_SENSOR_EXPR: break;
            default: gone |= rm_marker(k, s->mi) || rm_marker(k, s->mj); break;
            }
            if (gone) SET(MT_EDIT_SENSOR, i);
        }
        for (int i = 0; i < m->nevent; i++) {
            const MtEventSpec *ev = &m->event[i];
            int t = ev->target;
            int gone = (ev->target_kind == MT_TARGET_JOINT && RM(MT_EDIT_JOINT, t)) ||
                       (ev->target_kind == MT_TARGET_FORCE && RM(MT_EDIT_FORCE, t)) ||
                       (ev->target_kind == MT_TARGET_SPRING && RM(MT_EDIT_SPRING, t)) ||
                       (ev->target_kind == MT_TARGET_DRIVER && RM(MT_EDIT_DRIVER, t)) ||
                       (ev->target_kind == MT_TARGET_CONTROL && RM(MT_EDIT_CONTROL, t));
            if (gone) SET(MT_EDIT_EVENT, i);
        }
#undef SET
    }
    for (int i = 0; i < m->ninitial; i++) /* a modal coordinate goes with its body */
        k->rm_initial[i] = m->initial[i].mode ? RM(MT_EDIT_BODY, m->initial[i].body) : RM(MT_EDIT_JOINT, m->initial[i].joint);
    for (int i = 0; i < m->nbinding; i++) {
        const MtBinding *b = &m->binding[i];
        int g = 0;
        switch (b->kind) {
        case MT_ENT_BODY:
        case MT_ENT_FLEX: g = RM(MT_EDIT_BODY, b->index); break;
        case MT_ENT_MARKER: g = RM(MT_EDIT_MARKER, b->index); break;
        case MT_ENT_JOINT: g = RM(MT_EDIT_JOINT, b->index); break;
        case MT_ENT_DRIVER: g = RM(MT_EDIT_DRIVER, b->index); break;
        case MT_ENT_SPRING: g = RM(MT_EDIT_SPRING, b->index); break;
        case MT_ENT_COUPLE: g = RM(MT_EDIT_COUPLE, b->index); break;
        case MT_ENT_FORCE: g = RM(MT_EDIT_FORCE, b->index); break;
        case MT_ENT_SHAPE: g = RM(MT_EDIT_SHAPE, b->index); break;
        case MT_ENT_CONTROL: g = RM(MT_EDIT_CONTROL, b->index); break;
        case MT_ENT_EVENT: g = RM(MT_EDIT_EVENT, b->index); break;
        case MT_ENT_INITIAL: g = k->rm_initial[b->index]; break;
        default: break;
        }
        k->rm_binding[i] = (char)g;
    }
}

typedef struct {
    const char *name;
    int hit;
    size_t s, len;
} Find;

static int find_tok(void *user, const char *src, size_t s, size_t len)
{
    Find *f = user;
    if (!token_is(src, s, len, f->name)) return 0;
    f->hit = 1;
    f->s = s;
    f->len = len;
    return 1;
}

/* An expression of a surviving entity that reads a marked entity by name:
 * deleting then would leave it dangling. Returns 1 and the message. */
static int used_by_expression(MtModel *m, const Marks *k, MtError *err)
{
    int cap = n_exprs(m);
    ExprRef *ex = malloc((size_t)cap * sizeof *ex);
    if (!ex) return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory")), 1;
    int nx = list_exprs(m, ex, cap);
    static const MtEditKind readable[] = {MT_EDIT_BODY,  MT_EDIT_JOINT,  MT_EDIT_DRIVER, MT_EDIT_SPRING,
                                          MT_EDIT_COUPLE, MT_EDIT_FORCE, MT_EDIT_SENSOR, MT_EDIT_PARAM, MT_EDIT_CONTROL};
    for (size_t r = 0; r < sizeof readable / sizeof readable[0]; r++) {
        MtEditKind kind = readable[r];
        int n = mt_edit_count(m, kind);
        for (int i = 0; i < n; i++) {
            if (!k->rm[kind][i]) continue;
            const char *name = mt_edit_name(m, kind, i);
            for (int x = 0; x < nx; x++) {
                int owner_gone = ex[x].binding >= 0 ? k->rm_binding[ex[x].binding] : k->rm[ex[x].owner][ex[x].index];
                if (owner_gone) continue;
                Find f = {name, 0, 0, 0};
                each_name(ex[x].text, find_tok, &f);
                if (!f.hit) continue;
                char what[160], owner[160], tok[MT_EXPR_MAX];
                mt_edit_describe(m, kind, i, what, sizeof what);
                if (ex[x].binding >= 0) {
                    const MtBinding *b = &m->binding[ex[x].binding];
                    static const MtEditKind of[] = {MT_EDIT_BODY,   MT_EDIT_MARKER, MT_EDIT_JOINT,   MT_EDIT_DRIVER,
                                                    MT_EDIT_SPRING, MT_EDIT_COUPLE, MT_EDIT_NKINDS,  MT_EDIT_GRAVITY,
                                                    MT_EDIT_SOLVER, MT_EDIT_FORCE,  MT_EDIT_SHAPE,   MT_EDIT_CONTROL,
                                                    MT_EDIT_EVENT};
                    MtEditKind ok = (int)b->kind < (int)(sizeof of / sizeof of[0]) ? of[b->kind] : MT_EDIT_NKINDS;
                    char ent[160];
                    if (ok == MT_EDIT_NKINDS) mt_utf8_fmt(ent, sizeof ent, "%s", MT_("an initial condition"));
                    else mt_edit_describe(m, ok, b->index, ent, sizeof ent);
                    mt_utf8_fmt(owner, sizeof owner, MT_("field %s of %s"), b->field, ent);
                } else {
                    mt_edit_describe(m, ex[x].owner, ex[x].index, owner, sizeof owner);
                }
                snprintf(tok, sizeof tok, "%.*s", (int)f.len, ex[x].text + f.s);
                mt_error_set(err, MT_ERR_MODEL, name,
                             MT_("%s cannot be deleted: the expression of %s uses it ('%s'); change that expression "
                                 "first"),
                             what, owner, tok);
                free(ex);
                return 1;
            }
        }
    }
    free(ex);
    return 0;
}

static MtStatus mark_target(const MtModel *m, MtEditKind kind, int index, Marks *k, MtError *err)
{
    char what[160];
    mt_edit_describe(m, kind, index, what, sizeof what);
    if (!mt_edit_valid(m, kind, index) || kind == MT_EDIT_GRAVITY || kind == MT_EDIT_SOLVER ||
        (kind == MT_EDIT_BODY && index == MT_GROUND))
        return mt_error_set(err, MT_ERR_ARG, mt_edit_name(m, kind, index), MT_("%s cannot be deleted"), what);
    if (marks_init(k, m)) return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
    k->rm[kind][index] = 1;
    close_marks(m, k);
    if (used_by_expression((MtModel *)m, k, err)) {
        marks_free(k);
        return err && err->code ? err->code : MT_ERR_MODEL;
    }
    return MT_OK;
}

int mt_edit_dependents(const MtModel *m, MtEditKind kind, int index, char *buf, size_t n, MtError *err)
{
    Marks k;
    if (mark_target(m, kind, index, &k, err)) return -1;
    int count = 0;
    size_t len = 0;
    if (n) buf[0] = 0;
    for (int kk = 0; kk < MT_EDIT_NKINDS; kk++) {
        int cnt = mt_edit_count(m, (MtEditKind)kk);
        for (int i = 0; i < cnt; i++) {
            if (!k.rm[kk][i] || (kk == (int)kind && i == index)) continue;
            char what[160];
            mt_edit_describe(m, (MtEditKind)kk, i, what, sizeof what);
            if (len < n) len += (size_t)snprintf(buf + len, n - len, "%s%s", count ? ", " : "", what);
            count++;
        }
    }
    if (len >= n && n > 4) memcpy(buf + n - 4, "...", 4);
    marks_free(&k);
    return count;
}

/* Compacts an array of n items of size sz, dropping marked ones; fills map
 * (old index → new index or -1). Returns the new count. */
static int compact(void *arr, int n, size_t sz, const char *rm, int *map)
{
    int w = 0;
    char *a = arr;
    for (int i = 0; i < n; i++) {
        if (rm[i]) {
            map[i] = -1;
            continue;
        }
        if (w != i) memcpy(a + (size_t)w * sz, a + (size_t)i * sz, sz);
        map[i] = w++;
    }
    return w;
}

static int remap(const int *map, int i) { return i >= 0 ? map[i] : i; }

MtStatus mt_edit_delete(MtEditor *e, MtEditKind kind, int index, MtError *err)
{
    const MtModel *m = mt_editor_model(e);
    Marks k;
    MtStatus rc = mark_target(m, kind, index, &k, err);
    if (rc) return rc;
    char what[160], label[256];
    mt_edit_describe(m, kind, index, what, sizeof what);
    mt_utf8_fmt(label, sizeof label, MT_("delete %s"), what);
    MtModel *c = mt_model_copy(m);
    int total = 2 + m->nbody + m->nmarker + m->njoint + m->ndriver + m->nspring + m->ncouple + m->nforce + m->nsensor +
                m->nshape + m->nparam + m->ncontrol + m->nevent + m->ninitial + m->nbinding;
    int *buf = malloc((size_t)total * sizeof *buf);
    if (!c || !buf) {
        mt_model_free(c);
        free(buf);
        marks_free(&k);
        return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
    }
    int *p = buf;
    int *mb = p; p += m->nbody + 1;
    int *mm = p; p += m->nmarker;
    int *mjn = p; p += m->njoint;
    int *md = p; p += m->ndriver;
    int *ms = p; p += m->nspring;
    int *mc = p; p += m->ncouple;
    int *mf = p; p += m->nforce;
    int *mse = p; p += m->nsensor;
    int *msh = p; p += m->nshape;
    int *mp = p; p += m->nparam;
    int *mco = p; p += m->ncontrol;
    int *mev = p; p += m->nevent;
    int *mi = p; p += m->ninitial;
    int *mbi = p;
    /* tables of removed drivers are freed before their slots are overwritten */
    for (int i = 0; i < c->ndriver; i++)
        if (k.rm[MT_EDIT_DRIVER][i]) {
            free(c->driver[i].tab);
            c->driver[i].tab = NULL;
        }
    c->nbody = compact(c->body, c->nbody, sizeof *c->body, k.rm[MT_EDIT_BODY], mb);
    c->nmarker = compact(c->marker, c->nmarker, sizeof *c->marker, k.rm[MT_EDIT_MARKER], mm);
    c->njoint = compact(c->joint, c->njoint, sizeof *c->joint, k.rm[MT_EDIT_JOINT], mjn);
    c->ndriver = compact(c->driver, c->ndriver, sizeof *c->driver, k.rm[MT_EDIT_DRIVER], md);
    c->nspring = compact(c->spring, c->nspring, sizeof *c->spring, k.rm[MT_EDIT_SPRING], ms);
    c->ncouple = compact(c->couple, c->ncouple, sizeof *c->couple, k.rm[MT_EDIT_COUPLE], mc);
    c->nforce = compact(c->force, c->nforce, sizeof *c->force, k.rm[MT_EDIT_FORCE], mf);
    c->nsensor = compact(c->sensor, c->nsensor, sizeof *c->sensor, k.rm[MT_EDIT_SENSOR], mse);
    c->nshape = compact(c->shape, c->nshape, sizeof *c->shape, k.rm[MT_EDIT_SHAPE], msh);
    c->nparam = compact(c->param, c->nparam, sizeof *c->param, k.rm[MT_EDIT_PARAM], mp);
    c->ncontrol = compact(c->control, c->ncontrol, sizeof *c->control, k.rm[MT_EDIT_CONTROL], mco);
    c->nevent = compact(c->event, c->nevent, sizeof *c->event, k.rm[MT_EDIT_EVENT], mev);
    c->ninitial = compact(c->initial, c->ninitial, sizeof *c->initial, k.rm_initial, mi);
    c->nbinding = compact(c->binding, c->nbinding, sizeof *c->binding, k.rm_binding, mbi);
    /* flexible bodies go with their body */
    int nf = 0;
    for (int i = 0; i < c->nflex; i++) {
        if (k.rm[MT_EDIT_BODY][c->flex[i].body]) {
            mt_model_flex_invalidate(c, i);
            continue;
        }
        c->flex[nf] = c->flex[i];
        c->flex[nf++].body = mb[c->flex[i].body];
    }
    c->nflex = nf;
    /* every reference follows its entity to its new index */
    for (int i = 0; i < c->nmarker; i++) c->marker[i].body = remap(mb, c->marker[i].body);
    for (int i = 0; i < c->nshape; i++) c->shape[i].body = remap(mb, c->shape[i].body);
    for (int i = 0; i < c->njoint; i++) {
        c->joint[i].mi = mm[c->joint[i].mi];
        c->joint[i].mj = mm[c->joint[i].mj];
    }
    for (int i = 0; i < c->ndriver; i++) {
        MtDriverSpec *d = &c->driver[i];
        if (d->joint >= 0) d->joint = mjn[d->joint];
        d->mi = d->joint < 0 ? remap(mm, d->mi) : d->mi;
        d->mj = d->joint < 0 ? remap(mm, d->mj) : d->mj;
    }
    for (int i = 0; i < c->nspring; i++) {
        c->spring[i].mi = mm[c->spring[i].mi];
        c->spring[i].mj = mm[c->spring[i].mj];
    }
    for (int i = 0; i < c->ncouple; i++)
        for (int q = 0; q < c->couple[i].n; q++) c->couple[i].joint[q] = mjn[c->couple[i].joint[q]];
    for (int i = 0; i < c->nforce; i++) {
        MtForceSpec *f = &c->force[i];
        f->mi = remap(mm, f->mi);
        f->mj = remap(mm, f->mj);
        f->joint = remap(mjn, f->joint);
    }
    for (int i = 0; i < c->nsensor; i++) {
        MtSensorSpec *s = &c->sensor[i];
        s->mframe = remap(mm, s->mframe);
        if (s->kind == MT_SENSOR_REACTION) s->joint = remap(mjn, s->joint);
        else if (s->kind == MT_SENSOR_ENERGY) s->body = remap(mb, s->body);
        else if (s->kind != MT_SENSOR_EXPR) {
            s->mi = remap(mm, s->mi);
            s->mj = remap(mm, s->mj);
        }
    }
    for (int i = 0; i < c->nevent; i++) {
        MtEventSpec *ev = &c->event[i];
        switch (ev->target_kind) {
        case MT_TARGET_JOINT: ev->target = mjn[ev->target]; break;
        case MT_TARGET_FORCE: ev->target = mf[ev->target]; break;
        case MT_TARGET_SPRING: ev->target = ms[ev->target]; break;
        case MT_TARGET_DRIVER: ev->target = md[ev->target]; break;
        case MT_TARGET_CONTROL: ev->target = mco[ev->target]; break;
        default: break;
        }
    }
    for (int i = 0; i < c->ninitial; i++)
        if (c->initial[i].mode) c->initial[i].body = mb[c->initial[i].body];
        else c->initial[i].joint = mjn[c->initial[i].joint];
    for (int i = 0; i < c->nbinding; i++) {
        MtBinding *b = &c->binding[i];
        switch (b->kind) {
        case MT_ENT_BODY:
        case MT_ENT_FLEX: b->index = mb[b->index]; break;
        case MT_ENT_MARKER: b->index = mm[b->index]; break;
        case MT_ENT_JOINT: b->index = mjn[b->index]; break;
        case MT_ENT_DRIVER: b->index = md[b->index]; break;
        case MT_ENT_SPRING: b->index = ms[b->index]; break;
        case MT_ENT_COUPLE: b->index = mc[b->index]; break;
        case MT_ENT_FORCE: b->index = mf[b->index]; break;
        case MT_ENT_SHAPE: b->index = msh[b->index]; break;
        case MT_ENT_CONTROL: b->index = mco[b->index]; break;
        case MT_ENT_EVENT: b->index = mev[b->index]; break;
        case MT_ENT_INITIAL: b->index = mi[b->index]; break;
        default: break;
        }
    }
    free(buf);
    marks_free(&k);
    return mt_editor_commit(e, c, label, err);
}
#undef RM

/* ---- duplicate ---------------------------------------------------------------------- */

/* Copies the bindings of (ek, from) to (ek, to). */
static MtStatus copy_bindings(MtModel *c, MtEntityKind ek, int from, int to, MtError *err)
{
    int n = c->nbinding;
    for (int i = 0; i < n; i++)
        if (c->binding[i].kind == ek && c->binding[i].index == from) {
            MtBinding b = c->binding[i];
            if (mt_model_bind(c, ek, to, b.field, b.expr, err) < 0) return err && err->code ? err->code : MT_ERR_MODEL;
        }
    return MT_OK;
}

static int grow_one(void **arr, int *cap, int n, size_t sz)
{
    if (n < *cap) return 0;
    int nc = *cap ? 2 * *cap : 8;
    void *p = realloc(*arr, (size_t)nc * sz);
    if (!p) return -1;
    *arr = p;
    *cap = nc;
    return 0;
}

/* Appends a copy of item i of an array (same capacity discipline as the model's adders). */
#define DUP_ITEM(c, arr, n, cap, i, out)                                                               \
    do {                                                                                               \
        if (grow_one((void **)&(c)->arr, &(c)->cap, (c)->n, sizeof *(c)->arr)) { out = -1; break; }     \
        (c)->arr[(c)->n] = (c)->arr[i];                                                                \
        out = (c)->n++;                                                                                \
    } while (0)

MtStatus mt_edit_duplicate(MtEditor *e, MtEditKind kind, int index, int *new_index, MtError *err)
{
    const MtModel *m = mt_editor_model(e);
    char what[160];
    mt_edit_describe(m, kind, index, what, sizeof what);
    if (!mt_edit_valid(m, kind, index) || kind == MT_EDIT_GRAVITY || kind == MT_EDIT_SOLVER ||
        (kind == MT_EDIT_BODY && index == MT_GROUND))
        return mt_error_set(err, MT_ERR_ARG, mt_edit_name(m, kind, index), MT_("%s cannot be duplicated"), what);
    MtModel *c = mt_model_copy(m);
    if (!c) return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
    int ni = -1;
    char name[MT_NAME_MAX];
    int mbody = kind == MT_EDIT_MARKER ? m->marker[index].body : 0;
    if (kind != MT_EDIT_SHAPE) unique_name(c, mt_edit_name(c, kind, index), 0, kind, mbody, name);
    MtStatus rc = MT_OK;
    switch (kind) {
    case MT_EDIT_BODY: {
        DUP_ITEM(c, body, nbody, cap_body, index, ni);
        if (ni < 0) break;
        snprintf(c->body[ni].name, MT_NAME_MAX, "%s", name);
        rc = copy_bindings(c, MT_ENT_BODY, index, ni, err);
        int nm = c->nmarker;
        for (int i = 0; i < nm && rc == MT_OK; i++)
            if (c->marker[i].body == index) {
                int k;
                DUP_ITEM(c, marker, nmarker, cap_marker, i, k);
                if (k < 0) { ni = -1; break; }
                c->marker[k].body = ni;
                rc = copy_bindings(c, MT_ENT_MARKER, i, k, err);
            }
        int ns = c->nshape;
        for (int i = 0; i < ns && ni >= 0; i++)
            if (c->shape[i].body == index) {
                int k;
                DUP_ITEM(c, shape, nshape, cap_shape, i, k);
                if (k < 0) { ni = -1; break; }
                c->shape[k].body = ni;
                if (rc == MT_OK) rc = copy_bindings(c, MT_ENT_SHAPE, i, k, err);
            }
        int fi = mt_model_body_flex(c, index);
        if (fi >= 0 && ni >= 0) { /* the copy shares the reduction (same mesh, same marker names) */
            MtFlexSpec spec = c->flex[fi];
            int nfi = mt_model_add_flex(c, ni, spec.source, err);
            if (nfi < 0) { ni = -1; break; }
            spec.body = ni;
            spec.data = NULL;
            c->flex[nfi] = spec;
            if (c->flex[fi].data) mt_model_flex_attach(c, nfi, mt_flex_data_ref(c->flex[fi].data));
        }
        break;
    }
    case MT_EDIT_MARKER: DUP_ITEM(c, marker, nmarker, cap_marker, index, ni); if (ni >= 0) rc = copy_bindings(c, MT_ENT_MARKER, index, ni, err); break;
    case MT_EDIT_JOINT: DUP_ITEM(c, joint, njoint, cap_joint, index, ni); if (ni >= 0) rc = copy_bindings(c, MT_ENT_JOINT, index, ni, err); break;
    case MT_EDIT_DRIVER:
        DUP_ITEM(c, driver, ndriver, cap_driver, index, ni);
        if (ni >= 0 && c->driver[ni].tab) { /* the table is owned per driver */
            size_t sz = 2 * sizeof(double) * (size_t)c->driver[ni].ntab;
            double *t = malloc(sz);
            if (t) memcpy(t, c->driver[index].tab, sz);
            c->driver[ni].tab = t;
            if (!t) ni = -1;
        }
        if (ni >= 0) rc = copy_bindings(c, MT_ENT_DRIVER, index, ni, err);
        break;
    case MT_EDIT_SPRING: DUP_ITEM(c, spring, nspring, cap_spring, index, ni); if (ni >= 0) rc = copy_bindings(c, MT_ENT_SPRING, index, ni, err); break;
    case MT_EDIT_COUPLE: DUP_ITEM(c, couple, ncouple, cap_couple, index, ni); if (ni >= 0) rc = copy_bindings(c, MT_ENT_COUPLE, index, ni, err); break;
    case MT_EDIT_FORCE: DUP_ITEM(c, force, nforce, cap_force, index, ni); if (ni >= 0) rc = copy_bindings(c, MT_ENT_FORCE, index, ni, err); break;
    case MT_EDIT_SENSOR: DUP_ITEM(c, sensor, nsensor, cap_sensor, index, ni); break;
    case MT_EDIT_SHAPE: DUP_ITEM(c, shape, nshape, cap_shape, index, ni); if (ni >= 0) rc = copy_bindings(c, MT_ENT_SHAPE, index, ni, err); break;
    case MT_EDIT_PARAM: DUP_ITEM(c, param, nparam, cap_param, index, ni); break;
    case MT_EDIT_CONTROL: DUP_ITEM(c, control, ncontrol, cap_control, index, ni); if (ni >= 0) rc = copy_bindings(c, MT_ENT_CONTROL, index, ni, err); break;
    case MT_EDIT_EVENT: DUP_ITEM(c, event, nevent, cap_event, index, ni); if (ni >= 0) rc = copy_bindings(c, MT_ENT_EVENT, index, ni, err); break;
    default: break;
    }
    if (ni < 0 || rc) {
        mt_model_free(c);
        return rc ? rc : mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
    }
    if (kind != MT_EDIT_SHAPE) snprintf(mt_edit_name_ptr(c, kind, ni), MT_NAME_MAX, "%s", name);
    char label[256];
    mt_utf8_fmt(label, sizeof label, MT_("duplicate %s"), what);
    rc = mt_editor_commit(e, c, label, err);
    if (rc == MT_OK && new_index) *new_index = ni;
    return rc;
}

/* ---- creating ------------------------------------------------------------------------- */

void mt_body_def_default(MtBodyDef *d)
{
    memset(d, 0, sizeof *d);
    d->shape = MT_SHAPE_BOX;
    d->size[0] = d->size[1] = d->size[2] = 0.1;
    d->density = 7850;
}

MtStatus mt_edit_add_body(MtEditor *e, const MtBodyDef *def, int *index, MtError *err)
{
    const MtModel *m = mt_editor_model(e);
    char name[MT_NAME_MAX];
    if (def->name[0]) {
        char what[160];
        mt_utf8_fmt(what, sizeof what, MT_("body '%s'"), def->name);
        MtStatus rc = check_new_name(m, def->name, MT_EDIT_BODY, -1, 0, what, err);
        if (rc) return rc;
        snprintf(name, sizeof name, "%s", def->name);
    } else {
        unique_name(m, "body", 1, MT_EDIT_BODY, 0, name);
    }
    if (def->shape != MT_SHAPE_BOX && def->shape != MT_SHAPE_CYLINDER && def->shape != MT_SHAPE_SPHERE &&
        def->shape != MT_SHAPE_CAPSULE)
        return mt_error_set(err, MT_ERR_ARG, name, MT_("body '%s': make it from a box, cylinder, sphere or capsule"), name);
    int nsz = def->shape == MT_SHAPE_BOX ? 3 : def->shape == MT_SHAPE_SPHERE ? 1 : 2;
    for (int k = 0; k < nsz; k++)
        if (!(def->size[k] > 0) || !isfinite(def->size[k]))
            return mt_error_set(err, MT_ERR_MODEL, name, MT_("body '%s': the shape's sizes must be positive lengths"), name);
    if (!isfinite(def->pos[0]) || !isfinite(def->pos[1]) || !isfinite(def->pos[2]) || !isfinite(def->turn_z))
        return mt_error_set(err, MT_ERR_MODEL, name, MT_("body '%s': the position must be finite"), name);
    if (!(def->density > 0) && !(def->mass > 0))
        return mt_error_set(err, MT_ERR_MODEL, name, MT_("body '%s': give a positive density or a positive mass"), name);
    MtModel *c = mt_model_copy(m);
    if (!c) return mt_error_set(err, MT_ERR_NOMEM, name, "%s", MT_("out of memory"));
    int b = mt_model_add_body(c, name, err);
    MtShapeSpec s;
    memset(&s, 0, sizeof s);
    s.body = b;
    s.kind = def->shape;
    memcpy(s.size, def->size, sizeof s.size);
    mt_m3_identity(s.rot);
    if (b < 0 || mt_model_add_shape(c, &s, err) < 0) {
        mt_model_free(c);
        return err && err->code ? err->code : MT_ERR_MODEL;
    }
    MtBodySpec *bd = &c->body[b];
    mt_v3_copy(bd->pos, def->pos);
    if (def->turn_z != 0) { /* about z: x along (cos, sin) */
        double ct = cos(def->turn_z), st = sin(def->turn_z);
        const double R[9] = {ct, -st, 0, st, ct, 0, 0, 0, 1};
        memcpy(bd->rot, R, sizeof R);
    }
    if (def->density > 0) {
        bd->density = def->density;
    } else { /* typed mass: the inertia of the shape with that mass spread evenly */
        double m1, com[3], J[6];
        if (mt_shapes_mass_props(c, b, 1.0, &m1, com, J) == 0 && m1 > 0) {
            bd->mass = def->mass;
            mt_v3_copy(bd->com, com);
            for (int k = 0; k < 6; k++) bd->inertia[k] = J[k] * def->mass / m1;
        }
    }
    return commit_added(e, c, b, index, err, MT_("add body '%s'"), name);
}

/* Point and axis of the project frame → body axes, by the body's initial pose. */
static void to_body(const MtModel *m, int body, const double p[3], const double axis[3], double lp[3], double la[3])
{
    if (body == MT_GROUND) {
        mt_v3_copy(lp, p);
        if (axis) mt_v3_copy(la, axis);
        return;
    }
    const MtBodySpec *b = &m->body[body];
    double d[3];
    mt_v3_sub(d, p, b->pos);
    mt_m3_tmulv(lp, b->rot, d);
    if (axis) mt_m3_tmulv(la, b->rot, axis);
}

/* A marker at a point of the project frame with its z along axis (NULL:
 * the project's axes). The frame is built in project axes first, so that
 * the markers of one joint on two bodies coincide exactly (joint angle 0 as built). */
static int add_marker_at(MtModel *c, int body, const char *base, const double p[3], const double axis[3], MtError *err)
{
    char name[MT_NAME_MAX];
    unique_name(c, base, 0, MT_EDIT_MARKER, body, name);
    double lp[3], W[9], R[9];
    to_body(c, body, p, NULL, lp, NULL);
    if (axis) {
        if (mt_orient_rot(MT_ORIENT_Z, axis, W)) { /* the text format's rule for 'z …' */
            mt_error_set(err, MT_ERR_MODEL, name, MT_("marker '%s': the axis must be a non-zero direction"), name);
            return -1;
        }
    } else {
        mt_m3_identity(W);
    }
    if (body == MT_GROUND) memcpy(R, W, sizeof R);
    else mt_m3_mul_at(R, c->body[body].rot, W); /* body axes: Rbᵀ·W */
    return mt_model_add_marker(c, body, name, lp, R, err);
}

static MtStatus check_body(const MtModel *m, int b, MtError *err)
{
    if (b == MT_GROUND || (b >= 0 && b < m->nbody)) return MT_OK;
    return mt_error_set(err, MT_ERR_ARG, "", MT_("there is no body number %d"), b);
}

MtStatus mt_edit_add_marker(MtEditor *e, int body, const char *name, const double point[3], const double axis[3],
                            int *index, MtError *err)
{
    const MtModel *m = mt_editor_model(e);
    if (check_body(m, body, err)) return err->code;
    MtModel *c = mt_model_copy(m);
    if (!c) return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
    if (name && name[0]) {
        char what[160];
        mt_utf8_fmt(what, sizeof what, MT_("marker '%s.%s'"), mt_model_body_name(m, body), name);
        MtStatus rc = check_new_name(m, name, MT_EDIT_MARKER, -1, body, what, err);
        if (rc) {
            mt_model_free(c);
            return rc;
        }
    }
    int k = add_marker_at(c, body, name && name[0] ? name : "m", point, axis, err);
    if (k < 0) {
        mt_model_free(c);
        return err->code;
    }
    char ref[2 * MT_NAME_MAX + 2];
    return commit_added(e, c, k, index, err, MT_("add marker '%s'"), mt_model_marker_ref(c, k, ref, sizeof ref));
}

static MtStatus new_name(const MtModel *m, const char *name, const char *base, MtEditKind kind, char *out, MtError *err)
{
    if (name && name[0]) {
        char what[160];
        mt_utf8_fmt(what, sizeof what, "'%s'", name);
        MtStatus rc = check_new_name(m, name, kind, -1, 0, what, err);
        if (rc) return rc;
        snprintf(out, MT_NAME_MAX, "%s", name);
    } else {
        unique_name(m, base, 1, kind, 0, out);
    }
    return MT_OK;
}

MtStatus mt_edit_add_joint(MtEditor *e, const char *name, MtJointType t, int bi, int bj, const double point[3],
                           const double axis[3], int *index, MtError *err)
{
    return mt_edit_add_joint_at(e, name, t, bi, point, axis, bj, point, axis, 0, index, err);
}

MtStatus mt_edit_add_joint_at(MtEditor *e, const char *name, MtJointType t, int bi, const double pi[3],
                              const double ai[3], int bj, const double pj[3], const double aj[3], double param,
                              int *index, MtError *err)
{
    const MtModel *m = mt_editor_model(e);
    char jn[MT_NAME_MAX];
    if (new_name(m, name, "joint", MT_EDIT_JOINT, jn, err) || check_body(m, bi, err) || check_body(m, bj, err))
        return err->code;
    if (bi == bj)
        return mt_error_set(err, MT_ERR_MODEL, jn, MT_("joint '%s': choose two different bodies (both are '%s')"), jn,
                            mt_model_body_name(m, bi));
    if (t < 0 || t >= MT_JOINT_NTYPES) return mt_error_set(err, MT_ERR_ARG, jn, MT_("joint '%s': unknown type"), jn);
    MtModel *c = mt_model_copy(m);
    if (!c) return mt_error_set(err, MT_ERR_NOMEM, jn, "%s", MT_("out of memory"));
    char base_i[MT_NAME_MAX], base_j[MT_NAME_MAX];
    snprintf(base_i, sizeof base_i, "%.*s_i", (int)mt_utf8_prefix(jn, 58), jn);
    snprintf(base_j, sizeof base_j, "%.*s_j", (int)mt_utf8_prefix(jn, 58), jn);
    int mi = add_marker_at(c, bi, base_i, pi, ai, err);
    int mj = mi < 0 ? -1 : add_marker_at(c, bj, base_j, pj, aj, err);
    int j = mj < 0 ? -1 : mt_model_add_joint(c, jn, t, mi, mj, err);
    if (j < 0) {
        mt_model_free(c);
        return err->code ? err->code : MT_ERR_MODEL;
    }
    if (t == MT_JOINT_SCREW) c->joint[j].param = 0.01;
    if (t == MT_JOINT_ROLLING || t == MT_JOINT_BALL) c->joint[j].param = 0.1;
    if (t == MT_JOINT_DISTANCE) {
        double a[3] = {0, 0, 0}, b[3] = {0, 0, 0};
        if (bi >= 0) mt_v3_copy(a, c->body[bi].pos);
        if (bj >= 0) mt_v3_copy(b, c->body[bj].pos);
        double d[3];
        mt_v3_sub(d, a, b);
        c->joint[j].param = mt_v3_norm(d) > 0 ? mt_v3_norm(d) : 0.1;
    }
    if (param > 0) c->joint[j].param = param;
    /* TRANSLATORS: an undo label; %s: the joint type as the interface calls it, then the joint's name. */
    return commit_added(e, c, j, index, err, MT_("add %s joint '%s'"), mt_joint_type_label(t), jn);
}

/* A coupling of two joints' first coordinates: a gear (coef: pitch radii) or a linear coupler. */
static MtStatus add_couple(MtEditor *e, const char *name, MtCoupleKind kind, int ja, int jb, double ca, double cb,
                           int *index, MtError *err)
{
    const MtModel *m = mt_editor_model(e);
    char gn[MT_NAME_MAX];
    int gear = kind == MT_COUPLE_GEAR;
    if (new_name(m, name, gear ? "gear" : "rope", MT_EDIT_COUPLE, gn, err)) return err->code;
    if (ja < 0 || ja >= m->njoint || jb < 0 || jb >= m->njoint || ja == jb)
        return mt_error_set(err, MT_ERR_ARG, gn,
                            gear ? MT_("gear '%s': choose two different revolute joints")
                                 : MT_("coupler '%s': choose two different joints"), gn);
    if (gear && (!(ca > 0) || !(cb > 0) || !isfinite(ca) || !isfinite(cb)))
        return mt_error_set(err, MT_ERR_MODEL, gn, MT_("gear '%s': the pitch radii must be positive lengths"), gn);
    if (!isfinite(ca) || !isfinite(cb) || (ca == 0 && cb == 0))
        return mt_error_set(err, MT_ERR_MODEL, gn, MT_("coupler '%s': the coefficients must be finite, not both 0"), gn);
    MtModel *c = mt_model_copy(m);
    if (!c) return mt_error_set(err, MT_ERR_NOMEM, gn, "%s", MT_("out of memory"));
    const int joints[2] = {ja, jb};
    const double coef[2] = {ca, cb};
    int k = mt_model_add_couple(c, gn, kind, 2, joints, NULL, coef, err);
    if (k < 0) {
        mt_model_free(c);
        return err->code ? err->code : MT_ERR_MODEL;
    }
    /* the commit's checks refuse joints of the wrong type, naming them */
    return commit_added(e, c, k, index, err, gear ? MT_("add gear '%s'") : MT_("add coupler '%s'"), gn);
}

MtStatus mt_edit_add_gear(MtEditor *e, const char *name, int ja, int jb, double ra, double rb, int *index, MtError *err)
{
    return add_couple(e, name, MT_COUPLE_GEAR, ja, jb, ra, rb, index, err);
}

MtStatus mt_edit_add_coupler(MtEditor *e, const char *name, int ja, int jb, double ca, double cb, int *index,
                             MtError *err)
{
    return add_couple(e, name, MT_COUPLE_LINEAR, ja, jb, ca, cb, index, err);
}

MtStatus mt_edit_add_spring(MtEditor *e, const char *name, int bi, const double pi[3], int bj, const double pj[3],
                            double k, double c_, int *index, MtError *err)
{
    const MtModel *m = mt_editor_model(e);
    char sn[MT_NAME_MAX];
    if (new_name(m, name, "spring", MT_EDIT_SPRING, sn, err) || check_body(m, bi, err) || check_body(m, bj, err))
        return err->code;
    MtModel *c = mt_model_copy(m);
    if (!c) return mt_error_set(err, MT_ERR_NOMEM, sn, "%s", MT_("out of memory"));
    char base_i[MT_NAME_MAX], base_j[MT_NAME_MAX];
    snprintf(base_i, sizeof base_i, "%.*s_i", (int)mt_utf8_prefix(sn, 58), sn);
    snprintf(base_j, sizeof base_j, "%.*s_j", (int)mt_utf8_prefix(sn, 58), sn);
    int mi = add_marker_at(c, bi, base_i, pi, NULL, err);
    int mj = mi < 0 ? -1 : add_marker_at(c, bj, base_j, pj, NULL, err);
    double d[3];
    mt_v3_sub(d, pi, pj);
    int s = mj < 0 ? -1 : mt_model_add_spring(c, sn, mi, mj, k, c_, mt_v3_norm(d), 0, err);
    if (s < 0) {
        mt_model_free(c);
        return err->code ? err->code : MT_ERR_MODEL;
    }
    return commit_added(e, c, s, index, err, MT_("add spring '%s'"), sn);
}

MtStatus mt_edit_add_driver(MtEditor *e, const char *name, int j, int *index, MtError *err)
{
    const MtModel *m = mt_editor_model(e);
    if (j < 0 || j >= m->njoint) return mt_error_set(err, MT_ERR_ARG, "", "%s", MT_("choose a joint to drive"));
    const MtJointSpec *js = &m->joint[j];
    MtCoordKind coord = mt_joint_default_coord(js->type);
    if (coord == MT_COORD_NONE)
        return mt_error_set(err, MT_ERR_ARG, js->name,
                            MT_("joint '%s' (%s) has no coordinate to drive; drive a marker's motion in the model text "
                                "('driver NAME markers …')"),
                            js->name, mt_joint_type_label(js->type));
    for (int d = 0; d < m->ndriver; d++)
        if (m->driver[d].joint == j && m->driver[d].coord == coord)
            return mt_error_set(err, MT_ERR_ARG, js->name, MT_("joint '%s' is driven already, by '%s'"), js->name,
                                m->driver[d].name);
    char dn[MT_NAME_MAX];
    if (new_name(m, name, "driver", MT_EDIT_DRIVER, dn, err)) return err->code;
    MtModel *c = mt_model_copy(m);
    if (!c) return mt_error_set(err, MT_ERR_NOMEM, dn, "%s", MT_("out of memory"));
    const double coef[2] = {0, coord == MT_COORD_ANGLE ? 1 : 0.1};
    int d = mt_model_add_driver(c, dn, j, MT_DRIVER_RATE, 2, coef, err);
    if (d < 0) {
        mt_model_free(c);
        return err->code ? err->code : MT_ERR_MODEL;
    }
    c->driver[d].coord = coord;
    c->driver[d].level = MT_LEVEL_DISP;
    /* TRANSLATORS: an undo label: the driver's name, then the joint's. */
    return commit_added(e, c, d, index, err, MT_("add driver '%s' on joint '%s'"), dn, js->name);
}

MtStatus mt_edit_add_joint_force(MtEditor *e, const char *name, MtForceKind kind, int j, int *index, MtError *err)
{
    const MtModel *m = mt_editor_model(e);
    if (j < 0 || j >= m->njoint) return mt_error_set(err, MT_ERR_ARG, "", "%s", MT_("choose a joint"));
    if (kind != MT_FORCE_TORSION && kind != MT_FORCE_FRICTION)
        return mt_error_set(err, MT_ERR_ARG, "", MT_("a %s acts between two points, not in a joint"), mt_force_kind_label(kind));
    char fn[MT_NAME_MAX];
    if (new_name(m, name, mt_force_kind_name(kind), MT_EDIT_FORCE, fn, err)) return err->code;
    MtModel *c = mt_model_copy(m);
    if (!c) return mt_error_set(err, MT_ERR_NOMEM, fn, "%s", MT_("out of memory"));
    int f = mt_model_add_force(c, fn, kind, -1, -1, j, err);
    if (f >= 0 && kind == MT_FORCE_TORSION) c->force[f].p[0] = 1;                              /* k, N·m/rad */
    if (f >= 0 && kind == MT_FORCE_FRICTION) c->force[f].p[0] = 0.1, c->force[f].p[5] = 0.01; /* mu, pin radius */
    if (f < 0) {
        mt_model_free(c);
        return err->code ? err->code : MT_ERR_MODEL;
    }
    /* the commit's checks refuse a joint of the wrong type, naming it */
    return commit_added(e, c, f, index, err, MT_("add %s '%s'"), mt_force_kind_label(kind), fn);
}

MtStatus mt_edit_add_force(MtEditor *e, const char *name, MtForceKind kind, int bi, const double pi[3], int bj,
                           const double pj[3], int *index, MtError *err)
{
    const MtModel *m = mt_editor_model(e);
    char fn[MT_NAME_MAX];
    if (new_name(m, name, mt_force_kind_name(kind), MT_EDIT_FORCE, fn, err) || check_body(m, bi, err) ||
        check_body(m, bj, err))
        return err->code;
    if (kind == MT_FORCE_TORSION || kind == MT_FORCE_FRICTION || kind < 0 || kind >= MT_FORCE_NKINDS)
        return mt_error_set(err, MT_ERR_ARG, fn, MT_("force element '%s': a %s acts in a joint, not between two points"),
                            fn, mt_force_kind_label(kind));
    MtModel *c = mt_model_copy(m);
    if (!c) return mt_error_set(err, MT_ERR_NOMEM, fn, "%s", MT_("out of memory"));
    char base_i[MT_NAME_MAX], base_j[MT_NAME_MAX];
    snprintf(base_i, sizeof base_i, "%.*s_i", (int)mt_utf8_prefix(fn, 58), fn);
    snprintf(base_j, sizeof base_j, "%.*s_j", (int)mt_utf8_prefix(fn, 58), fn);
    int mi = add_marker_at(c, bi, base_i, pi, NULL, err);
    int mj = mi < 0 || kind == MT_FORCE_DRAG ? -1 : add_marker_at(c, bj, base_j, pj, NULL, err);
    int f = (mi < 0 || (mj < 0 && kind != MT_FORCE_DRAG)) ? -1 : mt_model_add_force(c, fn, kind, mi, mj, -1, err);
    if (f < 0) {
        mt_model_free(c);
        return err->code ? err->code : MT_ERR_MODEL;
    }
    /* TRANSLATORS: an undo label; %s: the kind of force element ("torsion spring"), then its name. */
    return commit_added(e, c, f, index, err, MT_("add %s '%s'"), mt_force_kind_label(kind), fn);
}

MtStatus mt_edit_add_sensor(MtEditor *e, const char *name, MtSensorKind kind, MtEditKind on, int target, int comp,
                            int *index, MtError *err)
{
    const MtModel *m = mt_editor_model(e);
    if (!mt_edit_valid(m, on, target) || (on == MT_EDIT_BODY && target == MT_GROUND))
        return mt_error_set(err, MT_ERR_ARG, "", "%s", MT_("choose a marker, joint, spring or force element to measure"));
    char base[MT_NAME_MAX];
    const char *const *comp_names = mt_vector_comp_names;
    static const char *const fcols[] = {"Fx", "Fy", "Fz", "Tx", "Ty", "Tz", "defl", "power"};
    static const char *const rcomp[] = {"fx", "fy", "fz", "tx", "ty", "tz", "f", "t"};
    if (on == MT_EDIT_MARKER)
        snprintf(base, sizeof base, "%.*s_%.20s_%s", (int)mt_utf8_prefix(m->marker[target].name, 20), m->marker[target].name, mt_sensor_kind_name(kind),
                 comp_names[comp >= 0 && comp < 4 ? comp : 0]);
    else if (on == MT_EDIT_JOINT)
        snprintf(base, sizeof base, "%.*s_%s", (int)mt_utf8_prefix(m->joint[target].name, 40), m->joint[target].name, rcomp[comp >= 0 && comp < 8 ? comp : 0]);
    else if (on == MT_EDIT_FORCE)
        snprintf(base, sizeof base, "%.40s_%s", m->force[target].name, fcols[comp >= 0 && comp < 8 ? comp : 0]);
    else if (on == MT_EDIT_SPRING)
        snprintf(base, sizeof base, "%.40s_force", m->spring[target].name);
    else
        return mt_error_set(err, MT_ERR_ARG, "", "%s", MT_("sensors measure markers, joints, springs and force elements"));
    char sn[MT_NAME_MAX];
    if (name && name[0]) {
        if (new_name(m, name, base, MT_EDIT_SENSOR, sn, err)) return err->code;
    } else {
        unique_name(m, base, 0, MT_EDIT_SENSOR, 0, sn);
    }
    MtSensorKind k = kind;
    if (on == MT_EDIT_JOINT) k = MT_SENSOR_REACTION;
    if (on == MT_EDIT_FORCE || on == MT_EDIT_SPRING) k = MT_SENSOR_EXPR;
    if (on == MT_EDIT_MARKER && !(k == MT_SENSOR_POSITION || k == MT_SENSOR_VELOCITY || k == MT_SENSOR_ACCELERATION ||
                                  k == MT_SENSOR_ANGVEL || k == MT_SENSOR_ANGACC))
        return mt_error_set(err, MT_ERR_ARG, sn, MT_("sensor '%s': a marker gives position, velocity or acceleration"), sn);
    MtModel *c = mt_model_copy(m);
    if (!c) return mt_error_set(err, MT_ERR_NOMEM, sn, "%s", MT_("out of memory"));
    int s = mt_model_add_sensor(c, sn, k, err);
    if (s < 0) {
        mt_model_free(c);
        return err->code ? err->code : MT_ERR_MODEL;
    }
    MtSensorSpec *ss = &c->sensor[s];
    ss->mi = ss->mj = ss->mframe = -1;
    ss->joint = ss->body = -1;
    if (on == MT_EDIT_MARKER) {
        ss->mi = target;
        ss->comp = comp >= 0 && comp < 4 ? comp : 0;
    } else if (on == MT_EDIT_JOINT) {
        ss->joint = target;
        ss->part = MT_PART_TOTAL;
        ss->comp = comp >= 0 && comp < 8 ? comp : 0;
    } else if (on == MT_EDIT_FORCE) {
        snprintf(ss->expr, sizeof ss->expr, "%s.%s", m->force[target].name, fcols[comp >= 0 && comp < 8 ? comp : 0]);
    } else {
        snprintf(ss->expr, sizeof ss->expr, "%s.force", m->spring[target].name);
    }
    return commit_added(e, c, s, index, err, MT_("add sensor '%s'"), sn);
}

MtStatus mt_edit_add_param(MtEditor *e, const char *name, const char *expr, const char *unit, int *index, MtError *err)
{
    const MtModel *m = mt_editor_model(e);
    char pn[MT_NAME_MAX];
    if (new_name(m, name, "p", MT_EDIT_PARAM, pn, err)) return err->code;
    MtModel *c = mt_model_copy(m);
    if (!c) return mt_error_set(err, MT_ERR_NOMEM, pn, "%s", MT_("out of memory"));
    int p = mt_model_add_param(c, pn, expr && expr[0] ? expr : "0", unit, err);
    if (p < 0) {
        mt_model_free(c);
        return err->code ? err->code : MT_ERR_MODEL;
    }
    return commit_added(e, c, p, index, err, MT_("add parameter '%s'"), pn);
}

/* ---- snap points ---------------------------------------------------------------------- */

const char *mt_snap_kind_name(MtSnapKind k)
{
    static const char *const n[] = {MT_N_("centre of mass"), MT_N_("marker"), MT_N_("face centre"),
                                    MT_N_("centre"), MT_N_("corner"), MT_N_("edge midpoint")};
    return (k >= 0 && k <= MT_SNAP_EDGE) ? MT_(n[k]) : "?";
}

int mt_edit_snap_points(const MtModel *m, int body, MtSnapPoint *out, int max)
{
    int n = 0;
#define PUT(kd, x, y, z)                                                                                             \
    do {                                                                                                             \
        if (n < max) { out[n].kind = (kd); out[n].body = body; out[n].p[0] = (x); out[n].p[1] = (y); out[n].p[2] = (z); n++; } \
    } while (0)
    if (body >= 0 && body < m->nbody) PUT(MT_SNAP_COM, m->body[body].com[0], m->body[body].com[1], m->body[body].com[2]);
    for (int i = 0; i < m->nmarker; i++)
        if (m->marker[i].body == body) PUT(MT_SNAP_MARKER, m->marker[i].pos[0], m->marker[i].pos[1], m->marker[i].pos[2]);
    for (int i = 0; i < m->nshape; i++) {
        const MtShapeSpec *s = &m->shape[i];
        if (s->body != body) continue;
        double loc[32][3];
        MtSnapKind kinds[32];
        int nl = 0;
        loc[nl][0] = loc[nl][1] = loc[nl][2] = 0;
        kinds[nl++] = MT_SNAP_CENTRE;
        if (s->kind == MT_SHAPE_BOX) {
            for (int a = 0; a < 3; a++)
                for (int sg = -1; sg <= 1; sg += 2) {
                    loc[nl][0] = loc[nl][1] = loc[nl][2] = 0;
                    loc[nl][a] = sg * s->size[a] / 2;
                    kinds[nl++] = MT_SNAP_FACE;
                }
            for (int c = 0; c < 8; c++) {
                for (int a = 0; a < 3; a++) loc[nl][a] = ((c >> a) & 1 ? 0.5 : -0.5) * s->size[a];
                kinds[nl++] = MT_SNAP_VERTEX;
            }
        } else if (s->kind == MT_SHAPE_CYLINDER || s->kind == MT_SHAPE_CAPSULE) {
            for (int sg = -1; sg <= 1; sg += 2) {
                loc[nl][0] = loc[nl][1] = 0;
                loc[nl][2] = sg * (s->size[1] / 2 + (s->kind == MT_SHAPE_CAPSULE ? s->size[0] : 0));
                kinds[nl++] = MT_SNAP_FACE;
            }
        }
        for (int q = 0; q < nl; q++) {
            double w[3];
            mt_m3_mulv(w, s->rot, loc[q]);
            PUT(kinds[q], s->pos[0] + w[0], s->pos[1] + w[1], s->pos[2] + w[2]);
        }
        if (s->kind == MT_SHAPE_BAR) {
            PUT(MT_SNAP_FACE, s->end[0], s->end[1], s->end[2]);
            PUT(MT_SNAP_EDGE, (s->pos[0] + s->end[0]) / 2, (s->pos[1] + s->end[1]) / 2, (s->pos[2] + s->end[2]) / 2);
        }
    }
#undef PUT
    return n;
}

MtStatus mt_edit_set_display_unit(MtEditor *e, MtDim dim, const char *unit, MtError *err)
{
    const MtModel *m = mt_editor_model(e);
    const char *q = mt_dim_name(dim);
    if (dim <= MT_DIM_NONE || dim >= MT_DIM_COUNT || !q)
        return mt_error_set(err, MT_ERR_ARG, "", "%s", MT_("display unit: no such quantity"));
    const MtUnit *u = unit && unit[0] ? mt_unit_lookup(unit, dim) : NULL;
    if (unit && unit[0] && !u)
        return mt_error_set(err, MT_ERR_ARG, q, MT_("display unit: '%s' is not a unit of %s"), unit, q);
    int at = -1;
    for (int k = 0; k < m->nunit; k++)
        if (!strcmp(m->unit[k].quantity, q)) at = k;
    if (at < 0 && !u) return MT_OK; /* already the readable default */
    if (at >= 0 && u && !strcmp(m->unit[at].unit, u->name)) return MT_OK;
    MtModel *c = mt_model_copy(m);
    if (!c) return mt_error_set(err, MT_ERR_NOMEM, q, "%s", MT_("out of memory"));
    char label[160];
    if (u) {
        if (mt_model_set_unit(c, q, u->name, err) < 0) {
            mt_model_free(c);
            return err ? err->code : MT_ERR_MODEL;
        }
        /* TRANSLATORS: undo label: a quantity, then the unit it is now shown in */
        snprintf(label, sizeof label, MT_("display unit of %s: %s"), q, u->name);
    } else {
        memmove(&c->unit[at], &c->unit[at + 1], sizeof c->unit[0] * (size_t)(c->nunit - at - 1));
        c->nunit--;
        /* TRANSLATORS: undo label: a quantity shown again in readable units (mm, kN, MPa chosen by size) */
        snprintf(label, sizeof label, MT_("display unit of %s: readable"), q);
    }
    return mt_editor_commit(e, c, label, err);
}
