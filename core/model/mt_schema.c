/* mt_schema.c — the rows of motus/schema.h as data: finding a field by name,
 * reaching it in a model, defaults, keyword values and validation. The text
 * format, the project store and the editor go through these. Declared in motus/model.h, motus/schema.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_i18n.h"
#include "motus/model.h"
#include "motus/units.h"

const char *const mt_method_names[] = {"rk4", "dp54", "adams", "euler", "park", "hht", "galpha", NULL,
                                       "rk45", "dp54", "dopri5", "dp54", NULL};
const char *const mt_correct_names[] = {"none", "positions", "velocities", "both", NULL, NULL}; /* MT_CORRECT_* bits */
const char *const mt_start_names[] = {"assembled", "statics", NULL, NULL}; /* MT_START_*; no aliases */
const char *const mt_xyz_names[] = {"x", "y", "z", NULL};
const char *const mt_inertia_names[] = {"xx", "yy", "zz", "xy", "xz", "yz", NULL};

#define ROW(m, T, n, key, cols, dim, def, lo, hi, flags, values, label) \
    {key, MT_ST_##T, n, offsetof(STRUCT, m), cols, MT_DIM_##dim, def, lo, hi, flags, values, label},

#define STRUCT MtSolverSpec
static const MtField solver_rows[] = {MT_SOLVER_SCHEMA(ROW)};
#undef STRUCT
#define STRUCT MtBodySpec
static const MtField body_rows[] = {MT_BODY_SCHEMA(ROW)};
#undef STRUCT
#define STRUCT MtJointSpec
static const MtField joint_rows[] = {MT_JOINT_SCHEMA(ROW)};
#undef STRUCT
#define STRUCT MtSpringSpec
static const MtField spring_rows[] = {MT_SPRING_SCHEMA(ROW)};
#undef STRUCT
#define STRUCT MtMarkerSpec
static const MtField marker_rows[] = {MT_MARKER_SCHEMA(ROW)};
#undef STRUCT
#define STRUCT MtFlexSpec
static const MtField flex_rows[] = {MT_FLEX_SCHEMA(ROW)};
#undef STRUCT

#define N(a) ((int)(sizeof a / sizeof a[0]))

const MtField *mt_schema_fields(MtEntityKind kind, int *n)
{
    switch (kind) {
    case MT_ENT_SOLVER: *n = N(solver_rows); return solver_rows;
    case MT_ENT_BODY: *n = N(body_rows); return body_rows;
    case MT_ENT_JOINT: *n = N(joint_rows); return joint_rows;
    case MT_ENT_SPRING: *n = N(spring_rows); return spring_rows;
    case MT_ENT_MARKER: *n = N(marker_rows); return marker_rows;
    case MT_ENT_FLEX: *n = N(flex_rows); return flex_rows;
    default: *n = 0; return NULL;
    }
}

const MtField *mt_schema_find(MtEntityKind kind, const char *field, int *comp)
{
    int n;
    const MtField *rows = mt_schema_fields(kind, &n);
    const char *dot = strchr(field, '.');
    size_t len = dot ? (size_t)(dot - field) : strlen(field);
    *comp = -1;
    for (int i = 0; i < n; i++) {
        const MtField *f = &rows[i];
        if (strlen(f->key) != len || strncmp(f->key, field, len)) continue;
        if (!dot) return f; /* a vector as a whole: *comp = -1 */
        if (f->type != MT_ST_VEC) return NULL;
        char *end;
        long k = strtol(dot + 1, &end, 10);
        if (*end || end == dot + 1 || k < 0 || k >= f->n) return NULL;
        *comp = (int)k;
        return f;
    }
    return NULL;
}

void *mt_schema_object(const MtModel *cm, MtEntityKind kind, int index)
{
    MtModel *m = (MtModel *)cm; /* the caller's constness is its own */
    switch (kind) {
    case MT_ENT_SOLVER: return &m->solver;
    case MT_ENT_BODY: return index >= 0 && index < m->nbody ? &m->body[index] : NULL;
    case MT_ENT_JOINT: return index >= 0 && index < m->njoint ? &m->joint[index] : NULL;
    case MT_ENT_SPRING: return index >= 0 && index < m->nspring ? &m->spring[index] : NULL;
    case MT_ENT_MARKER: return index >= 0 && index < m->nmarker ? &m->marker[index] : NULL;
    case MT_ENT_FLEX: { /* indexed by the body */
        int f = index >= 0 && index < m->nbody ? mt_model_body_flex(m, index) : -1;
        return f >= 0 ? &m->flex[f] : NULL;
    }
    default: return NULL;
    }
}

void mt_schema_defaults(MtEntityKind kind, void *obj)
{
    int n;
    const MtField *rows = mt_schema_fields(kind, &n);
    for (int i = 0; i < n; i++) {
        const MtField *f = &rows[i];
        void *p = MT_SCHEMA_AT(obj, f);
        switch (f->type) {
        case MT_ST_REAL: *(double *)p = f->def; break;
        case MT_ST_VEC:
            for (int k = 0; k < f->n; k++) ((double *)p)[k] = f->def;
            break;
        case MT_ST_TEXT: ((char *)p)[0] = 0; break;
        default: *(int *)p = (int)f->def; break;
        }
    }
}

void mt_schema_copy(MtEntityKind kind, void *dst, const void *src)
{
    int n;
    const MtField *rows = mt_schema_fields(kind, &n);
    for (int i = 0; i < n; i++) {
        const MtField *f = &rows[i];
        size_t size = f->type == MT_ST_REAL ? sizeof(double) : f->type == MT_ST_VEC ? sizeof(double) * (size_t)f->n
                    : f->type == MT_ST_TEXT ? (size_t)f->n : sizeof(int);
        memcpy(MT_SCHEMA_AT(dst, f), MT_SCHEMA_AT(src, f), size);
    }
}

int mt_schema_enum_count(const MtField *f)
{
    int n = 0;
    while (f->values && f->values[n]) n++;
    return n;
}

int mt_schema_enum_find(const MtField *f, const char *word)
{
    int n = mt_schema_enum_count(f);
    for (int i = 0; i < n; i++)
        if (!strcmp(f->values[i], word)) return i;
    for (const char *const *a = f->values + n + 1; a[0]; a += 2) /* aliases */
        if (!strcmp(a[0], word)) return mt_schema_enum_find(f, a[1]);
    return -1;
}

const char *mt_schema_enum_name(const MtField *f, int v)
{
    return v >= 0 && v < mt_schema_enum_count(f) ? f->values[v] : "?";
}

const char *mt_schema_enum_list(const MtField *f, char *buf, size_t n)
{
    int c = mt_schema_enum_count(f);
    buf[0] = 0;
    for (int i = 0; i < c; i++)
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", i == 0 ? "" : i == c - 1 ? MT_(" or ") : ", ", f->values[i]);
    return buf;
}

int mt_schema_ncols(const MtField *f) { return f->type == MT_ST_VEC ? f->n : 1; }

const char *mt_schema_column(const MtField *f, int k, char *buf, size_t n)
{
    if (!f->cols) {
        snprintf(buf, n, "%s", f->key);
        return buf;
    }
    const char *s = f->cols;
    for (int i = 0; i < k && s; i++) {
        s = strchr(s, ' ');
        if (s) s++;
    }
    size_t len = s ? strcspn(s, " ") : 0;
    snprintf(buf, n, "%.*s", (int)len, s ? s : "");
    return buf;
}

/* "[0, 1)", "(0, ∞)" … for messages. */
static void interval(const MtField *f, char *buf, size_t n)
{
    char lo[32], hi[32];
    if (f->lo <= -MT_SCHEMA_INF) snprintf(lo, sizeof lo, "−∞");
    else snprintf(lo, sizeof lo, "%s", MT_DOUBLE_STR(f->lo));
    if (f->hi >= MT_SCHEMA_INF) snprintf(hi, sizeof hi, "∞");
    else snprintf(hi, sizeof hi, "%s", MT_DOUBLE_STR(f->hi));
    snprintf(buf, n, "%c%s, %s%c", (f->flags & MT_SF_LO_OPEN) || f->lo <= -MT_SCHEMA_INF ? '(' : '[', lo, hi,
             (f->flags & MT_SF_HI_OPEN) || f->hi >= MT_SCHEMA_INF ? ')' : ']');
}

static int inside(const MtField *f, double v)
{
    if (isnan(v)) return (f->flags & MT_SF_NAN) != 0;
    if (!isfinite(v)) return 0;
    if (f->flags & MT_SF_LO_OPEN ? !(v > f->lo) : !(v >= f->lo)) return 0;
    if (f->flags & MT_SF_HI_OPEN ? !(v < f->hi) : !(v <= f->hi)) return 0;
    return 1;
}

/* The message of row f's value (component k, or an int v) outside its
 * interval, the entity named by what_fmt (untranslated: MT_N_) and name. */
static MtStatus out_of_range(const MtField *f, int k, double x, int v, const char *what_fmt, const char *name, MtError *err)
{
    char what[MT_NAME_MAX + 64], iv[96], key[40];
    snprintf(what, sizeof what, MT_(what_fmt), name);
    interval(f, iv, sizeof iv);
    switch (f->type) {
    case MT_ST_REAL:
    case MT_ST_VEC:
        if (f->type == MT_ST_VEC) snprintf(key, sizeof key, "%s.%s", f->key, f->values ? f->values[k] : "?");
        else snprintf(key, sizeof key, "%s", f->key);
        return mt_error_set(err, MT_ERR_MODEL, what, MT_("%s: %s (%s) must lie in %s, not %s"), what, key, MT_(f->label), iv,
                            MT_DOUBLE_STR(x));
    case MT_ST_ENUM:
        return mt_error_set(err, MT_ERR_MODEL, what, MT_("%s: %s (%s) has no value number %d"), what, f->key, MT_(f->label), v);
    default:
        return mt_error_set(err, MT_ERR_MODEL, what, MT_("%s: %s (%s) must be a whole number in %s, not %d"), what, f->key,
                            MT_(f->label), iv, v);
    }
}

MtStatus mt_schema_check(const MtModel *m, MtEntityKind kind, int index, const char *what_fmt, const char *name, MtError *err)
{
    int n;
    const MtField *rows = mt_schema_fields(kind, &n);
    const void *obj = mt_schema_object(m, kind, index);
    if (!obj) return MT_OK;
    for (int i = 0; i < n; i++) {
        const MtField *f = &rows[i];
        const void *p = MT_SCHEMA_AT(obj, f);
        switch (f->type) {
        case MT_ST_REAL:
        case MT_ST_VEC:
            for (int k = 0; k < mt_schema_ncols(f); k++)
                if (!inside(f, ((const double *)p)[k])) return out_of_range(f, k, ((const double *)p)[k], 0, what_fmt, name, err);
            break;
        case MT_ST_INT:
        case MT_ST_FLAG: {
            int v = *(const int *)p;
            if (v < f->lo || v > f->hi) return out_of_range(f, 0, 0, v, what_fmt, name, err);
            break;
        }
        case MT_ST_ENUM: {
            int v = *(const int *)p;
            if (v < 0 || v >= mt_schema_enum_count(f)) return out_of_range(f, 0, 0, v, what_fmt, name, err);
            break;
        }
        case MT_ST_TEXT: break;
        }
    }
    return MT_OK;
}

MtStatus mt_schema_set_text(MtModel *m, MtEntityKind kind, int index, const char *key, const char *text, const char *what,
                            MtError *err)
{
    int comp;
    const MtField *f = mt_schema_find(kind, key, &comp);
    void *obj = mt_schema_object(m, kind, index);
    if (!f || !obj) return mt_error_set(err, MT_ERR_ARG, what, MT_("%s: unknown setting '%s'"), what, key);
    void *at = MT_SCHEMA_AT(obj, f);
    char *end;
    switch (f->type) {
    case MT_ST_ENUM: {
        int v = mt_schema_enum_find(f, text);
        if (v < 0) {
            char list[256];
            return mt_error_set(err, MT_ERR_ARG, what, MT_("%s: %s takes %s, not '%s'"), what, key,
                                mt_schema_enum_list(f, list, sizeof list), text);
        }
        *(int *)at = v;
        return MT_OK;
    }
    case MT_ST_FLAG:
        if (strcmp(text, "on") && strcmp(text, "off"))
            return mt_error_set(err, MT_ERR_ARG, what, MT_("%s: %s takes on or off, not '%s'"), what, key, text);
        *(int *)at = !strcmp(text, "on");
        return MT_OK;
    case MT_ST_INT: {
        long v = strtol(text, &end, 10);
        if (!text[0] || *end || v < f->lo || v > f->hi)
            return mt_error_set(err, MT_ERR_ARG, what, MT_("%s: %s must be a whole number from %s to %s, not '%s'"), what, key,
                                MT_DOUBLE_STR(f->lo), MT_DOUBLE_STR(f->hi), text);
        *(int *)at = (int)v;
        return MT_OK;
    }
    case MT_ST_TEXT:
        if (strlen(text) >= (size_t)f->n)
            return mt_error_set(err, MT_ERR_ARG, what, MT_("%s: %s is longer than %d bytes"), what, key, f->n - 1);
        memcpy(at, text, strlen(text) + 1);
        return MT_OK;
    default: {
        double v = strtod(text, &end);
        if (!text[0] || *end || !isfinite(v))
            return mt_error_set(err, MT_ERR_ARG, what, MT_("%s: %s needs a number, not '%s'"), what, key, text);
        ((double *)at)[comp < 0 ? 0 : comp] = v;
        return MT_OK;
    }
    }
}
