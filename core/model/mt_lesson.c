/* mt_lesson.c — a course problem's comment lines read for the lesson mode,
 * and an answer typed with its unit judged against the printed one.
 * Declared in motus/lesson.h. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "motus/lesson.h"

/* Appends a continuation line to *field (a space between). */
static int append(char **field, const char *text, size_t len)
{
    size_t old = *field ? strlen(*field) : 0;
    char *n = realloc(*field, old + len + 2);
    if (!n) return -1;
    if (old) n[old++] = ' ';
    memcpy(n + old, text, len);
    n[old + len] = 0;
    *field = n;
    return 0;
}

/* Half a unit of the last digit of a number as printed ("0.566" → 0.0005, "1732" → 0.5, "2e3" → 500). */
static double half_digit(const char *w)
{
    const char *dot = strchr(w, '.'), *e = strpbrk(w, "eE");
    int dec = 0;
    if (dot) {
        const char *end = e ? e : w + strlen(w);
        dec = (int)(end - dot - 1);
    }
    int ex = e ? atoi(e + 1) : 0;
    return 0.5 * pow(10.0, ex - dec);
}

/* "ANALYSIS COLUMN at T answer VALUE UNIT [closed …]" → c; 0 when it does not read. */
static int parse_check(const char *s, MtLessonCheck *c)
{
    char at[8], t[32], ans[16], val[48];
    memset(c, 0, sizeof *c);
    if (sscanf(s, "%15s %79s %7s %31s %15s %47s %31s", c->analysis, c->column, at, t, ans, val, c->unit) != 7) return 0;
    if (strcmp(at, "at") || strcmp(ans, "answer")) return 0;
    char *end;
    c->at_end = !strcmp(t, "end");
    if (!c->at_end) {
        c->t = strtod(t, &end);
        if (*end || !isfinite(c->t)) return 0;
    }
    c->value = strtod(val, &end);
    if (*end || !isfinite(c->value)) return 0;
    c->half_digit = half_digit(val);
    return 1;
}

static char **field_of(MtLesson *l, const char *key, size_t n)
{
#define K(name, f) if (n == strlen(name) && !memcmp(key, name, n)) return &l->f
    K("problem", problem); K("topic", topic); K("source", source); K("en", en); K("ru", ru);
    K("answer", answer); K("ответ", answer_ru); K("show", show); K("note", note);
#undef K
    return NULL;
}

void mt_lesson_free(MtLesson *l)
{
    if (!l) return;
    char **f[] = {&l->problem, &l->topic, &l->source, &l->en, &l->ru, &l->answer, &l->answer_ru, &l->show, &l->note};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        free(*f[i]);
        *f[i] = NULL;
    }
    l->ncheck = 0;
}

int mt_lesson_read(const char *text, MtLesson *out)
{
    memset(out, 0, sizeof *out);
    for (const char *p = text; p && *p;) {
        const char *eol = strchr(p, '\n'), *end = eol ? eol : p + strlen(p);
        const char *s = p;
        while (s < end && (*s == ' ' || *s == '\t')) s++;
        if (s < end && *s != '#') break; /* the first statement: the comments are over */
        if (s < end) {
            s++;
            while (s < end && *s == ' ') s++;
            const char *colon = memchr(s, ':', (size_t)(end - s));
            if (colon && colon > s && !memchr(s, ' ', (size_t)(colon - s))) {
                const char *v = colon + 1;
                while (v < end && *v == ' ') v++;
                size_t vlen = (size_t)(end - v);
                while (vlen && (v[vlen - 1] == '\r' || v[vlen - 1] == ' ')) vlen--;
                char **f = field_of(out, s, (size_t)(colon - s));
                if (f && append(f, v, vlen)) goto nomem;
                if ((size_t)(colon - s) == 5 && !memcmp(s, "check", 5) && out->ncheck < MT_LESSON_CHECKS) {
                    char line[512];
                    snprintf(line, sizeof line, "%.*s", (int)vlen, v);
                    if (parse_check(line, &out->check[out->ncheck])) out->ncheck++;
                }
            }
        }
        p = eol ? eol + 1 : NULL;
    }
    if (!out->problem || !out->ncheck) {
        mt_lesson_free(out);
        return 0;
    }
    char **f[] = {&out->topic, &out->source, &out->en, &out->ru, &out->answer, &out->answer_ru, &out->show, &out->note};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (!*f[i] && !(*f[i] = calloc(1, 1))) goto nomem;
    return 1;
nomem:
    mt_lesson_free(out);
    return -1;
}

double mt_lesson_answer_si(const MtLessonCheck *c, MtDim *dim)
{
    const MtUnit *u = strcmp(c->unit, "1") ? mt_unit_lookup(c->unit, MT_DIM_ANY) : NULL;
    if (dim) *dim = u ? u->dim : MT_DIM_NONE;
    return u ? mt_unit_to_si(u, c->value) : c->value;
}

MtLessonVerdict mt_lesson_judge(const MtLessonCheck *c, const char *typed, double *si)
{
    char buf[128], clean[128];
    snprintf(buf, sizeof buf, "%s", typed);
    if (!strchr(buf, '.')) /* a decimal comma */
        for (char *p = buf; *p; p++)
            if (*p == ',') *p = '.';
    if (mt_units_delocalise(buf, clean, sizeof clean) < 0) snprintf(clean, sizeof clean, "%s", buf);
    char *end;
    double x = strtod(clean, &end);
    if (end == clean || !isfinite(x)) return MT_LESSON_UNREADABLE;
    while (*end == ' ') end++;
    MtDim dim;
    double want = mt_lesson_answer_si(c, &dim), got;
    if (dim == MT_DIM_NONE) {
        if (*end) return MT_LESSON_OTHER_UNIT;
        got = x;
    } else {
        if (!*end) return MT_LESSON_NO_UNIT;
        MtError err = {0};
        if (mt_units_parse(clean, dim, NULL, &got, &err)) return MT_LESSON_OTHER_UNIT;
    }
    if (si) *si = got;
    const MtUnit *u = dim == MT_DIM_NONE ? NULL : mt_unit_lookup(c->unit, dim);
    /* (a zero answer printed "0" says nothing of its precision: ±0.001 of its unit) */
    double hd = c->value == 0 ? 1e-3 : c->half_digit, half = u ? mt_unit_to_si(u, hd) : hd;
    double tol = fmax(MT_LESSON_TOLERANCE * fabs(want), half);
    return fabs(got - want) <= tol * (1 + 1e-12) ? MT_LESSON_RIGHT : MT_LESSON_WRONG;
}
