/* mt_plots.c — the plots a model is shown with: their names checked, and
 * written and read in the form the project's plots table holds (a small
 * JSON object; column names never need escaping, as they are checked). Declared in motus/model.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "motus/model.h"

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

char *mt_plots_to_json(const MtPlotSpec *plot, int nplot, int active)
{
    size_t size = 64 + (size_t)nplot * (48 + (MT_PLOT_CURVES + 1) * (MT_PLOT_NAME + 4));
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
    snprintf(s + o, size - o, "]}");
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

int mt_plots_from_json(const char *json, MtPlotSpec *plot, int *nplot, int *active)
{
    const char *plots = json ? strstr(json, "\"plots\"") : NULL;
    if (!plots || !(plots = strchr(plots, '['))) return -1;
    *nplot = 0;
    const char *a = strstr(json, "\"active\"");
    *active = a && (a = strchr(a, ':')) ? atoi(a + 1) : 0;
    for (const char *o = strchr(plots, '{'); o && *nplot < MT_PLOT_MAX; o = strchr(o + 1, '{')) {
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
    return 0;
}
