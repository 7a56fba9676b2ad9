/* mt_plots.c — the plots a model is shown with and its derived curves:
 * their names checked, and written and read in the form the project's plots
 * table holds (a small JSON object; column names never need escaping, as
 * they are checked). Declared in motus/model.h; the derived curves' values
 * are computed in core/analysis/mt_derived.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_i18n.h"
#include "motus/model.h"
#include "motus/units.h"

int mt_plot_name_ok(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    if (!n || n >= MT_PLOT_NAME) return 0;
    for (const unsigned char *c = (const unsigned char *)name; *c; c++)
        if (!(*c >= 0x80 || *c == '_' || *c == '.' || *c == '-' || (*c >= '0' && *c <= '9') ||
              ((*c | 32) >= 'a' && (*c | 32) <= 'z')))
            return 0;
    return 1;
}

static const char *const op_names[MT_DERIVED_COUNT] = {"magnitude", "sum",      "difference", "scale",
                                                       "derivative", "integral", "lowpass"};

const char *mt_derived_op_name(MtDerivedOp op) { return op >= 0 && op < MT_DERIVED_COUNT ? op_names[op] : ""; }

MtDerivedOp mt_derived_op_from_name(const char *name)
{
    for (int k = 0; k < MT_DERIVED_COUNT; k++)
        if (name && !strcmp(name, op_names[k])) return (MtDerivedOp)k;
    return MT_DERIVED_COUNT;
}

int mt_derived_arity(MtDerivedOp op, int *lo, int *hi)
{
    *lo = op == MT_DERIVED_MAGNITUDE || op == MT_DERIVED_SUM || op == MT_DERIVED_DIFFERENCE ? 2 : 1;
    *hi = op == MT_DERIVED_MAGNITUDE ? 3 : *lo;
    return op == MT_DERIVED_SCALE || op == MT_DERIVED_LOWPASS;
}

MtStatus mt_derived_check(const MtDerivedSpec *d, MtError *err)
{
    if (!mt_plot_name_ok(d->name))
        return mt_error_set(err, MT_ERR_MODEL, d->name,
                            MT_("derived curve '%s': a name of letters, digits and '_.-' is needed"), d->name);
    if (d->op < 0 || d->op >= MT_DERIVED_COUNT)
        return mt_error_set(err, MT_ERR_MODEL, d->name,
                            MT_("derived curve '%s': the operation is one of magnitude, sum, difference, scale, "
                                "derivative, integral, lowpass"),
                            d->name);
    int lo, hi, param = mt_derived_arity(d->op, &lo, &hi);
    if (d->narg < lo || d->narg > hi)
        return mt_error_set(err, MT_ERR_MODEL, d->name, MT_("derived curve '%s': %s takes %d to %d curves, not %d"),
                            d->name, op_names[d->op], lo, hi, d->narg);
    for (int i = 0; i < d->narg; i++) {
        if (!mt_plot_name_ok(d->arg[i]))
            return mt_error_set(err, MT_ERR_MODEL, d->name, MT_("derived curve '%s': '%s' is not a result column"),
                                d->name, d->arg[i]);
        if (!strcmp(d->arg[i], d->name))
            return mt_error_set(err, MT_ERR_MODEL, d->name, MT_("derived curve '%s' cannot be computed from itself"),
                                d->name);
    }
    if (param && !isfinite(d->param))
        return mt_error_set(err, MT_ERR_MODEL, d->name, MT_("derived curve '%s': the factor must be a finite number"),
                            d->name);
    if (d->op == MT_DERIVED_LOWPASS && !(d->param > 0))
        return mt_error_set(err, MT_ERR_MODEL, d->name,
                            MT_("derived curve '%s': the cut-off frequency must be above 0 Hz"), d->name);
    return MT_OK;
}

int mt_model_find_derived(const MtModel *m, const char *name)
{
    for (int i = 0; m && name && i < m->nderived; i++)
        if (!strcmp(m->derived[i].name, name)) return i;
    return -1;
}

char *mt_plots_to_json(const MtPlotSpec *plot, int nplot, const MtDerivedSpec *derived, int nderived, int active)
{
    size_t size = 64 + (size_t)nplot * (48 + (MT_PLOT_CURVES + 1) * (MT_PLOT_NAME + 4)) +
                  (size_t)nderived * (96 + (MT_DERIVED_ARGS + 1) * (MT_PLOT_NAME + 4));
    char *s = malloc(size);
    if (!s) return NULL;
    size_t o = (size_t)snprintf(s, size, "{\"active\": %d, \"plots\": [", active);
    for (int p = 0; p < nplot; p++) {
        const MtPlotSpec *ps = &plot[p];
        o += (size_t)snprintf(s + o, size - o, "%s{\"x\": ", p ? ", " : "");
        o += (size_t)(ps->x[0] ? snprintf(s + o, size - o, "\"%s\"", ps->x) : snprintf(s + o, size - o, "null"));
        o += (size_t)snprintf(s + o, size - o, ", \"curves\": [");
        for (int i = 0; i < ps->ncurve; i++) o += (size_t)snprintf(s + o, size - o, "%s\"%s\"", i ? ", " : "", ps->curve[i]);
        o += (size_t)snprintf(s + o, size - o, "]}");
    }
    o += (size_t)snprintf(s + o, size - o, "]");
    if (nderived > 0) {
        o += (size_t)snprintf(s + o, size - o, ", \"derived\": [");
        for (int k = 0; k < nderived; k++) {
            const MtDerivedSpec *d = &derived[k];
            o += (size_t)snprintf(s + o, size - o, "%s{\"name\": \"%s\", \"op\": \"%s\", \"args\": [", k ? ", " : "",
                                  d->name, mt_derived_op_name(d->op));
            for (int i = 0; i < d->narg; i++) o += (size_t)snprintf(s + o, size - o, "%s\"%s\"", i ? ", " : "", d->arg[i]);
            o += (size_t)snprintf(s + o, size - o, "], \"param\": %s}", MT_DOUBLE_STR(d->param));
        }
        o += (size_t)snprintf(s + o, size - o, "]");
    }
    snprintf(s + o, size - o, "}");
    return s;
}

/* The quoted string at *p (after spaces) into out; 0 and *p past it, or -1. */
static int string_at(const char **p, char *out, size_t size)
{
    const char *s = *p + strspn(*p, " \t\r\n");
    if (*s != '"') return -1;
    const char *e = strchr(s + 1, '"');
    if (!e) return -1;
    snprintf(out, size, "%.*s", (int)(e - s - 1 < (long)size ? e - s - 1 : (long)size - 1), s + 1);
    *p = e + 1;
    return 0;
}

/* The derived curves of a layout (after "derived"); those that do not check are left out. */
static void derived_from_json(const char *json, MtDerivedSpec *derived, int *nderived)
{
    *nderived = 0;
    const char *list = strstr(json, "\"derived\"");
    if (!list || !(list = strchr(list, '['))) return;
    char word[2 * MT_PLOT_NAME];
    for (const char *o = strchr(list, '{'); o && *nderived < MT_DERIVED_MAX; o = strchr(o + 1, '{')) {
        const char *end = strchr(o, '}');
        if (!end) break;
        MtDerivedSpec d = {0};
        const char *q = strstr(o, "\"name\"");
        if (q && q < end && (q = strchr(q + 6, ':')) && !string_at(&(const char *){q + 1}, word, sizeof word))
            snprintf(d.name, sizeof d.name, "%.*s", MT_PLOT_NAME - 1, word);
        q = strstr(o, "\"op\"");
        d.op = MT_DERIVED_COUNT;
        if (q && q < end && (q = strchr(q + 4, ':')) && !string_at(&(const char *){q + 1}, word, sizeof word))
            d.op = mt_derived_op_from_name(word);
        q = strstr(o, "\"param\"");
        if (q && q < end && (q = strchr(q + 7, ':'))) d.param = strtod(q + 1, NULL);
        q = strstr(o, "\"args\"");
        q = q && q < end ? strchr(q, '[') : NULL;
        for (const char *a = q ? q + 1 : NULL; a && d.narg < MT_DERIVED_ARGS;) {
            if (string_at(&a, word, sizeof word)) break;
            snprintf(d.arg[d.narg++], MT_PLOT_NAME, "%.*s", MT_PLOT_NAME - 1, word);
            a += strspn(a, " ,");
        }
        MtError err = {0};
        if (mt_derived_check(&d, &err) == MT_OK) derived[(*nderived)++] = d;
        o = end;
    }
}

int mt_plots_from_json(const char *json, MtPlotSpec *plot, int *nplot, MtDerivedSpec *derived, int *nderived,
                       int *active)
{
    const char *plots = json ? strstr(json, "\"plots\"") : NULL;
    if (!plots || !(plots = strchr(plots, '['))) return -1;
    *nplot = 0;
    const char *a = strstr(json, "\"active\"");
    *active = a && (a = strchr(a, ':')) ? atoi(a + 1) : 0;
    const char *limit = strstr(plots, "\"derived\""); /* the list of plots ends before the derived curves */
    for (const char *o = strchr(plots, '{'); o && (!limit || o < limit) && *nplot < MT_PLOT_MAX; o = strchr(o + 1, '{')) {
        MtPlotSpec *ps = &plot[(*nplot)++];
        memset(ps, 0, sizeof *ps);
        const char *end = strchr(o, '}');
        const char *x = strstr(o, "\"x\"");
        char name[2 * MT_PLOT_NAME];
        if (x && (!end || x < end) && (x = strchr(x + 3, ':'))) {
            x++;
            if (!string_at(&x, name, sizeof name) && mt_plot_name_ok(name)) snprintf(ps->x, sizeof ps->x, "%s", name);
        }
        const char *c = strstr(o, "\"curves\"");
        c = c && (!end || c < end) ? strchr(c, '[') : NULL;
        for (const char *q = c ? c + 1 : NULL; q && ps->ncurve < MT_PLOT_CURVES;) {
            if (string_at(&q, name, sizeof name)) break;
            if (mt_plot_name_ok(name)) snprintf(ps->curve[ps->ncurve++], MT_PLOT_NAME, "%s", name);
            q += strspn(q, " ,");
        }
        if (!end) break;
        o = end;
    }
    if (*active < 0 || *active >= *nplot) *active = 0;
    if (derived && nderived) derived_from_json(json, derived, nderived);
    return 0;
}
