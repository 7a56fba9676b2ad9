/* mt_tables.c — named tables of the model: points (x, y) that every
 * expression of the model reads with table(x, NAME) (linear interpolation)
 * and spline(x, NAME) (natural cubic spline); adding, finding, checking them
 * and handing them to the expression compiler (docs/expressions.md). Declared in motus/model.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mt_expr.h"
#include "mt_i18n.h"
#include "motus/model.h"

int mt_model_find_table(const MtModel *m, const char *name)
{
    for (int i = 0; i < m->ntable; i++)
        if (!strcmp(m->table[i].name, name)) return i;
    return -1;
}

int mt_model_add_table(MtModel *m, const char *name, int n, const double *xy, MtError *err)
{
    if (!name || !name[0] || strlen(name) >= MT_NAME_MAX || strpbrk(name, ".#\" \t{}")) {
        mt_error_set(err, MT_ERR_MODEL, name ? name : "", MT_("table '%s': give it a name without spaces, dots or braces"),
                     name ? name : "");
        return -1;
    }
    if (mt_model_find_table(m, name) >= 0) {
        mt_error_set(err, MT_ERR_MODEL, name, MT_("table '%s' is defined twice"), name);
        return -1;
    }
    if (n < 0 || (n > 0 && !xy)) {
        mt_error_set(err, MT_ERR_ARG, name, MT_("table '%s': bad number of points"), name);
        return -1;
    }
    if (m->ntable == m->cap_table) {
        int nc = m->cap_table ? 2 * m->cap_table : 4;
        MtTableSpec *p = realloc(m->table, sizeof *p * (size_t)nc);
        if (!p) {
            mt_error_set(err, MT_ERR_NOMEM, name, "%s", MT_("out of memory"));
            return -1;
        }
        m->table = p;
        m->cap_table = nc;
    }
    double *x = malloc(sizeof(double) * (2 * (size_t)n + 1));
    if (!x) {
        mt_error_set(err, MT_ERR_NOMEM, name, "%s", MT_("out of memory"));
        return -1;
    }
    MtTableSpec *t = &m->table[m->ntable];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    t->n = n;
    t->x = x;
    t->y = x + n;
    for (int k = 0; k < n; k++) {
        t->x[k] = xy[2 * k];
        t->y[k] = xy[2 * k + 1];
    }
    return m->ntable++;
}

void mt_model_free_tables(MtModel *m)
{
    for (int i = 0; i < m->ntable; i++) free(m->table[i].x);
    free(m->table);
    m->table = NULL;
    m->ntable = m->cap_table = 0;
}

int mt_model_copy_tables(MtModel *dst, const MtModel *src)
{
    dst->table = NULL;
    dst->ntable = dst->cap_table = 0;
    for (int i = 0; i < src->ntable; i++) {
        const MtTableSpec *t = &src->table[i];
        double *xy = malloc(sizeof(double) * (2 * (size_t)t->n + 1));
        if (!xy) return -1;
        for (int k = 0; k < t->n; k++) {
            xy[2 * k] = t->x[k];
            xy[2 * k + 1] = t->y[k];
        }
        int r = mt_model_add_table(dst, t->name, t->n, xy, NULL);
        free(xy);
        if (r < 0) return -1;
    }
    return 0;
}

MtStatus mt_tables_validate(const MtModel *m, MtError *err)
{
    for (int i = 0; i < m->ntable; i++) {
        const MtTableSpec *t = &m->table[i];
        if (t->n < 2)
            return mt_error_set(err, MT_ERR_MODEL, t->name, MT_("table '%s': give at least two points (x, y)"), t->name);
        for (int k = 0; k < t->n; k++) {
            if (!isfinite(t->x[k]) || !isfinite(t->y[k]))
                return mt_error_set(err, MT_ERR_MODEL, t->name, MT_("table '%s': point %d is not finite"), t->name, k + 1);
            if (k > 0 && !(t->x[k] > t->x[k - 1]))
                return mt_error_set(err, MT_ERR_MODEL, t->name,
                                    MT_("table '%s': x must increase from point to point (point %d: %.17g after %.17g)"),
                                    t->name, k + 1, t->x[k], t->x[k - 1]);
        }
    }
    return MT_OK;
}

MtExprTable *mt_model_expr_tables(const MtModel *m)
{
    MtExprTable *t = calloc((size_t)m->ntable + 1, sizeof *t);
    if (!t) return NULL;
    for (int i = 0; i < m->ntable; i++) {
        t[i].name = m->table[i].name;
        t[i].x = m->table[i].x;
        t[i].y = m->table[i].y;
        t[i].n = m->table[i].n;
    }
    return t;
}
