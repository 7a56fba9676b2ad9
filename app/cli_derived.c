/* cli_derived.c — motus-cli run --out FILE.csv of a model with `derived`
 * lines: after the run the file is read back, the derived curves computed
 * from its columns by core (mt_derived_eval, motus/derived.h) in the order
 * of their lines, and the file written again with them as its last columns
 * (docs/model-format.md, "Derived curves"). The same values the window
 * plots, headless. */
#include <errno.h>
#include <libintl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_common.h"
#include "motus/derived.h"

#define _(s) gettext(s)

typedef struct {
    int ncol, nrow, cap;
    char **name;   /* ncol column names */
    double **col;  /* ncol columns of nrow values */
} Table;

static void table_free(Table *t)
{
    for (int k = 0; k < t->ncol; k++) free(t->name[k]), free(t->col[k]);
    free(t->name);
    free(t->col);
}

/* The CSV's header and numbers into t; -1 when it cannot be read. */
static int table_read(const char *path, Table *t, int extra)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char *line = NULL;
    size_t size = 0;
    int rc = -1;
    if (getline(&line, &size, f) > 0) {
        line[strcspn(line, "\r\n")] = 0;
        t->ncol = 1;
        for (char *c = line; *c; c++) t->ncol += *c == ',';
        t->name = calloc((size_t)(t->ncol + extra), sizeof *t->name);
        t->col = calloc((size_t)(t->ncol + extra), sizeof *t->col);
        char *save = NULL, *tok = strtok_r(line, ",", &save);
        for (int k = 0; k < t->ncol && tok; k++, tok = strtok_r(NULL, ",", &save)) t->name[k] = strdup(tok);
        rc = 0;
        while (rc == 0 && getline(&line, &size, f) > 0) {
            if (t->nrow == t->cap) {
                t->cap = t->cap ? 2 * t->cap : 1024;
                for (int k = 0; k < t->ncol + extra; k++) t->col[k] = realloc(t->col[k], sizeof(double) * (size_t)t->cap);
            }
            char *p = line;
            for (int k = 0; k < t->ncol; k++) {
                t->col[k][t->nrow] = strtod(p, &p);
                if (*p == ',') p++;
            }
            t->nrow++;
        }
    }
    free(line);
    fclose(f);
    return rc;
}

static int find(const Table *t, const char *name)
{
    for (int k = 0; k < t->ncol; k++)
        if (t->name[k] && !strcmp(t->name[k], name)) return k;
    return -1;
}

int cli_derived_append(const char *path, const MtModel *m, MtError *err)
{
    if (!m->nderived) return 0;
    Table t = {0};
    if (table_read(path, &t, m->nderived) || t.nrow == 0) {
        table_free(&t);
        mt_error_set(err, MT_ERR_IO, path, _("cannot read '%s' back to add the derived curves"), path);
        return -1;
    }
    int bad = 0;
    for (int d = 0; d < m->nderived && !bad; d++) {
        const double *x[MT_DERIVED_ARGS] = {0};
        for (int a = 0; a < m->derived[d].narg; a++) {
            int k = find(&t, m->derived[d].arg[a]);
            x[a] = k >= 0 ? t.col[k] : NULL;
        }
        double *out = t.col[t.ncol] ? t.col[t.ncol] : malloc(sizeof(double) * (size_t)t.nrow);
        t.col[t.ncol] = out;
        t.name[t.ncol] = strdup(m->derived[d].name);
        t.ncol++;
        bad = mt_derived_eval(&m->derived[d], t.col[0], x, t.nrow, out, err) != MT_OK; /* operands checked before the run */
    }
    FILE *f = bad ? NULL : fopen(path, "w");
    if (!bad && !f) {
        mt_error_set(err, MT_ERR_IO, path, _("cannot write '%s': %s"), path, strerror(errno));
        bad = 1;
    }
    for (int k = 0; f && k < t.ncol; k++) fprintf(f, "%s%s", k ? "," : "", t.name[k]);
    if (f) fputc('\n', f);
    for (int r = 0; f && r < t.nrow; r++)
        for (int k = 0; k < t.ncol; k++) fprintf(f, "%.17g%c", t.col[k][r], k + 1 < t.ncol ? ',' : '\n');
    if (f && fclose(f)) bad = mt_error_set(err, MT_ERR_IO, path, _("error writing '%s'"), path) != MT_OK;
    table_free(&t);
    return bad ? -1 : 0;
}
