/* mt_mesh.c — mesh reading entry points and the helpers shared by the
 * format readers (motus/mesh.h, mt_mesh_text.h). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mt_file.h"
#include "mt_i18n.h"
#include "mt_mesh_text.h"

void mt_lines_init(MtLines *r, const char *text, size_t len, const char *name)
{
    r->p = text;
    r->end = text + len;
    r->name = name ? name : "<mesh>";
    r->line = 0;
}

int mt_lines_next(MtLines *r, const char **s, size_t *len)
{
    if (r->p >= r->end) return 0;
    const char *a = r->p, *b = memchr(a, '\n', (size_t)(r->end - a));
    if (!b) b = r->end;
    r->p = b < r->end ? b + 1 : r->end;
    size_t n = (size_t)(b - a);
    if (n && a[n - 1] == '\r') n--;
    *s = a;
    *len = n;
    r->line++;
    return 1;
}

int mt_mesh_err(MtError *err, const char *name, int line, const char *fmt, ...)
{
    char buf[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (line > 0) mt_error_set(err, MT_ERR_SYNTAX, name, "%s:%d: %s", name, line, buf);
    else mt_error_set(err, MT_ERR_SYNTAX, name, "%s: %s", name, buf);
    return -1;
}

static void trim(const char **s, size_t *n)
{
    while (*n && isspace((unsigned char)**s)) (*s)++, (*n)--;
    while (*n && isspace((unsigned char)(*s)[*n - 1])) (*n)--;
}

int mt_blank(const char *s, size_t n)
{
    trim(&s, &n);
    return n == 0;
}

int mt_num_int(const char *s, size_t n, int *out)
{
    trim(&s, &n);
    if (!n || n > 40) return -1;
    char buf[48];
    memcpy(buf, s, n);
    buf[n] = 0;
    char *e;
    errno = 0;
    long v = strtol(buf, &e, 10);
    if (*e || errno || v < INT_MIN + 1 || v > INT_MAX) {
        /* accept "12." and "1.2e3"-style integers written as reals */
        double d;
        if (mt_num_double(s, n, &d) || d != floor(d) || fabs(d) > INT_MAX) return -1;
        v = (long)d;
    }
    *out = (int)v;
    return 0;
}

int mt_num_double(const char *s, size_t n, double *out)
{
    trim(&s, &n);
    if (!n || n > 63) return -1;
    char buf[64];
    memcpy(buf, s, n);
    buf[n] = 0;
    for (size_t i = 0; i < n; i++)
        if (buf[i] == 'd' || buf[i] == 'D') buf[i] = 'e';
    char *e;
    double v = strtod(buf, &e);
    if (*e || e == buf || !isfinite(v)) return -1;
    /* strtod reads "nan", "inf", hex: only plain decimal numbers */
    for (size_t i = 0; i < n; i++)
        if (!strchr("0123456789+-.eE", buf[i])) return -1;
    *out = v;
    return 0;
}

int mt_num_nastran(const char *s, size_t n, double *out)
{
    trim(&s, &n);
    if (!n || n > 40) return -1;
    char buf[2 * 40]; /* every character may gain an 'e' before it ("1+++" is garbage, but must not overrun) */
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == 'd' || c == 'D') c = 'e';
        /* an exponent sign without its letter: "1.5-3" */
        if ((c == '+' || c == '-') && i > 0 && s[i - 1] != 'e' && s[i - 1] != 'E' && s[i - 1] != 'd' &&
            s[i - 1] != 'D')
            buf[k++] = 'e';
        buf[k++] = c;
    }
    return mt_num_double(buf, k, out);
}

void mt_mesh_skip(MtFeModel *m, const char *s, size_t n)
{
    trim(&s, &n);
    if (n > 24) n = 24;
    m->nskip++;
    size_t have = strlen(m->skipped);
    /* once per name */
    const char *p = m->skipped;
    while (*p) {
        const char *c = strstr(p, ", ");
        size_t l = c ? (size_t)(c - p) : strlen(p);
        if (l == n && !strncasecmp(p, s, n)) return;
        if (!c) break;
        p = c + 2;
    }
    if (have + n + 3 < sizeof m->skipped) snprintf(m->skipped + have, sizeof m->skipped - have, "%s%.*s", have ? ", " : "", (int)n, s);
}



static int ext_is(const char *name, const char *ext)
{
    size_t n = strlen(name), e = strlen(ext);
    return n > e && !strcasecmp(name + n - e, ext);
}

MtMeshFormat mt_mesh_guess(const char *name, const char *text, size_t len)
{
    if (name) {
        if (ext_is(name, ".msh")) return MT_MESH_MSH;
        if (ext_is(name, ".inp")) return MT_MESH_INP;
        if (ext_is(name, ".bdf") || ext_is(name, ".nas") || ext_is(name, ".dat") || ext_is(name, ".fem") ||
            ext_is(name, ".blk"))
            return MT_MESH_BDF;
    }
    MtLines r;
    mt_lines_init(&r, text, len, name);
    const char *s;
    size_t n;
    for (int k = 0; k < 200 && mt_lines_next(&r, &s, &n); k++) {
        while (n && isspace((unsigned char)*s)) s++, n--;
        if (!n) continue;
        if (n >= 11 && !strncmp(s, "$MeshFormat", 11)) return MT_MESH_MSH;
        if (s[0] == '*' && n > 1 && s[1] != '*') return MT_MESH_INP;
        if (s[0] == '$' || (s[0] == '*' && n > 1 && s[1] == '*')) continue;
        if ((n >= 10 && !strncasecmp(s, "BEGIN BULK", 10)) || (n >= 4 && !strncasecmp(s, "GRID", 4)) ||
            (n >= 3 && !strncasecmp(s, "SOL", 3)) || (n >= 4 && !strncasecmp(s, "CEND", 4)))
            return MT_MESH_BDF;
    }
    return MT_MESH_AUTO;
}

MtFeModel *mt_mesh_read_text(const char *text, size_t len, const char *name, MtMeshFormat fmt, MtError *err)
{
    if (fmt == MT_MESH_AUTO) fmt = mt_mesh_guess(name, text, len);
    switch (fmt) {
    case MT_MESH_MSH: return mt_mesh_read_msh(text, len, name, err);
    case MT_MESH_INP: return mt_mesh_read_inp(text, len, name, err);
    case MT_MESH_BDF: return mt_mesh_read_bdf(text, len, name, err);
    default:
        mt_error_set(err, MT_ERR_SYNTAX, name ? name : "",
                     MT_("%s: not a mesh file Motus reads (Gmsh .msh, Abaqus/CalculiX .inp, Nastran .bdf)"),
                     name ? name : "<mesh>");
        return NULL;
    }
}

MtFeModel *mt_mesh_read(const char *path, MtError *err)
{
    size_t len;
    char *text = mt_file_read_all(path, &len, err);
    if (!text) return NULL;
    if (memchr(text, 0, len) && mt_mesh_guess(path, text, len) != MT_MESH_MSH) {
        free(text);
        mt_error_set(err, MT_ERR_SYNTAX, path, MT_("%s: binary data where a text mesh was expected"), path);
        return NULL;
    }
    MtFeModel *m = mt_mesh_read_text(text, len, path, MT_MESH_AUTO, err);
    free(text);
    return m;
}
