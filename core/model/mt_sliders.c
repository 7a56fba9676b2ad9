/* mt_sliders.c — the `slider NAME MIN MAX` line: a parameter shown as a
 * slider over the 3D view, with its range in the parameter's unit, kept
 * with the model (and in a project's plots table, row "sliders") so that
 * a lecturer's sliders come back with the model. Presentation only: the
 * simulation reads the parameter's value, never its slider. Declared in
 * motus/model.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "motus/model.h"
#include "motus/units.h"
#include "mt_i18n.h"

double mt_param_unit_factor(const MtParamSpec *p)
{
    double f = 1;
    if (!p->unit[0] || !mt_unit_find(p->unit, &f, NULL) || !(f > 0)) f = 1;
    return f;
}

void mt_slider_format(const MtModel *m, int i, char *buf, size_t n)
{
    if (!n) return;
    buf[0] = 0;
    if (!m || i < 0 || i >= m->nparam || !m->param[i].slider) return;
    const MtParamSpec *p = &m->param[i];
    double f = mt_param_unit_factor(p);
    snprintf(buf, n, "slider %s %s %s", p->name, MT_DOUBLE_STR(p->slider_lo / f), MT_DOUBLE_STR(p->slider_hi / f));
}

/* A finite number, the whole word. */
static int number(const char *w, double *x)
{
    char *end;
    *x = strtod(w, &end);
    return end != w && !*end && isfinite(*x);
}

MtStatus mt_slider_parse(MtModel *m, char *const *word, int n, MtError *err)
{
    if (n != 3) return mt_error_set(err, MT_ERR_SYNTAX, "slider", "%s", MT_("slider: write 'slider PARAMETER MIN MAX' (in the parameter's unit)"));
    int i = mt_model_find_param(m, word[0]);
    if (i < 0)
        return mt_error_set(err, MT_ERR_MODEL, word[0], MT_("slider: '%s' names no parameter defined before it"), word[0]);
    double lo, hi;
    if (!number(word[1], &lo) || !number(word[2], &hi) || !(lo < hi))
        return mt_error_set(err, MT_ERR_SYNTAX, word[0], MT_("slider '%s': MIN and MAX must be numbers with MIN < MAX (not '%s' '%s')"),
                            word[0], word[1], word[2]);
    MtParamSpec *p = &m->param[i];
    double f = mt_param_unit_factor(p);
    p->slider = 1;
    p->slider_lo = lo * f;
    p->slider_hi = hi * f;
    return MT_OK;
}

char *mt_sliders_text(const MtModel *m)
{
    size_t cap = 1, len = 0;
    for (int i = 0; m && i < m->nparam; i++) cap += m->param[i].slider ? MT_NAME_MAX + 2 * MT_DOUBLE_BUF + 16 : 0;
    char *out = malloc(cap);
    if (!out) return NULL;
    out[0] = 0;
    for (int i = 0; m && i < m->nparam; i++) {
        char line[MT_NAME_MAX + 2 * MT_DOUBLE_BUF + 16];
        mt_slider_format(m, i, line, sizeof line);
        if (line[0]) len += (size_t)snprintf(out + len, cap - len, "%s\n", line);
    }
    return out;
}

void mt_sliders_read(MtModel *m, const char *text)
{
    if (!m || !text) return;
    char line[512], *word[8];
    for (const char *s = text; *s;) {
        size_t l = strcspn(s, "\n");
        snprintf(line, sizeof line, "%.*s", (int)(l < sizeof line ? l : sizeof line - 1), s);
        s += l + (s[l] == '\n');
        int n = 0; /* words split in place (no strtok: projects load on worker threads too) */
        for (char *w = line; *w && n < 8;) {
            while (*w == ' ') *w++ = 0;
            if (!*w) break;
            word[n++] = w;
            w += strcspn(w, " ");
        }
        MtError perr = {0};
        if (n >= 1 && !strcmp(word[0], "slider")) (void)mt_slider_parse(m, word + 1, n - 1, &perr);
    }
}
