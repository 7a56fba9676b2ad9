/* mt_shapes.c — body geometry: the shape list of the model and the mass
 * properties of solid shapes (box, cylinder, sphere, capsule, bar) at a
 * density, combined with the parallel-axis theorem. Declared in motus/model.h. */
#include <ctype.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mt_file.h"
#include "mt_i18n.h"
#include "mt_math.h"
#include "motus/model.h"

static const char *const names[MT_SHAPE_NKINDS] = {"box", "cylinder", "sphere", "capsule", "bar", "mesh"};

const char *mt_shape_kind_name(MtShapeKind k) { return (k >= 0 && k < MT_SHAPE_NKINDS) ? names[k] : "?"; }

int mt_shape_nsize(MtShapeKind k)
{
    static const int n[MT_SHAPE_NKINDS] = {3, 2, 1, 2, 1, 1};
    return (k >= 0 && k < MT_SHAPE_NKINDS) ? n[k] : 0;
}

int mt_shape_kind_from_name(const char *s, MtShapeKind *k)
{
    for (int i = 0; i < MT_SHAPE_NKINDS; i++)
        if (!strcmp(s, names[i])) { *k = (MtShapeKind)i; return 0; }
    return -1;
}

int mt_model_add_shape(MtModel *m, const MtShapeSpec *shape, MtError *err)
{
    if (shape->body < MT_GROUND || shape->body >= m->nbody) {
        mt_error_set(err, MT_ERR_ARG, "", "%s", MT_("shape: bad body"));
        return -1;
    }
    if (m->nshape == m->cap_shape) {
        int nc = m->cap_shape ? 2 * m->cap_shape : 8;
        MtShapeSpec *p = realloc(m->shape, sizeof *p * (size_t)nc);
        if (!p) {
            mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
            return -1;
        }
        m->shape = p;
        m->cap_shape = nc;
    }
    m->shape[m->nshape] = *shape;
    return m->nshape++;
}

/* Mass, centre (shape frame origin → body axes) and inertia about the centre
 * in the shape frame, for one solid shape. */
static int solid(const MtShapeSpec *s, double rho, double *mass, double c[3], double Jl[9], double R[9])
{
    const double *d = s->size;
    memset(Jl, 0, sizeof(double) * 9);
    mt_v3_copy(c, s->pos);
    memcpy(R, s->rot, sizeof(double) * 9);
    double m = 0, a, b, h, r;
    switch (s->kind) {
    case MT_SHAPE_BOX:
        m = rho * d[0] * d[1] * d[2];
        Jl[0] = m * (d[1] * d[1] + d[2] * d[2]) / 12;
        Jl[4] = m * (d[0] * d[0] + d[2] * d[2]) / 12;
        Jl[8] = m * (d[0] * d[0] + d[1] * d[1]) / 12;
        break;
    case MT_SHAPE_SPHERE:
        r = d[0];
        m = rho * 4.0 / 3 * M_PI * r * r * r;
        Jl[0] = Jl[4] = Jl[8] = 0.4 * m * r * r;
        break;
    case MT_SHAPE_CYLINDER:
    case MT_SHAPE_BAR:
        r = d[0];
        if (s->kind == MT_SHAPE_BAR) { /* along the segment pos → end */
            double ax[3];
            mt_v3_sub(ax, s->end, s->pos);
            h = mt_v3_norm(ax);
            if (!(h > 0)) return -1;
            double z[3];
            mt_v3_scale(z, ax, 1 / h);
            double t[3] = {1, 0, 0};
            if (fabs(z[0]) > 0.9) mt_v3_set(t, 0, 1, 0);
            double x[3], y[3];
            mt_v3_cross(x, t, z);
            mt_v3_scale(x, x, 1 / mt_v3_norm(x));
            mt_v3_cross(y, z, x);
            for (int k = 0; k < 3; k++) { R[3 * k] = x[k]; R[3 * k + 1] = y[k]; R[3 * k + 2] = z[k]; }
            for (int k = 0; k < 3; k++) c[k] = 0.5 * (s->pos[k] + s->end[k]);
        } else h = d[1];
        m = rho * M_PI * r * r * h;
        Jl[0] = Jl[4] = m * (3 * r * r + h * h) / 12;
        Jl[8] = 0.5 * m * r * r;
        break;
    case MT_SHAPE_CAPSULE: { /* cylinder of length h plus two hemispheres */
        r = d[0];
        h = d[1];
        double mc = rho * M_PI * r * r * h, mh = rho * 2.0 / 3 * M_PI * r * r * r;
        m = mc + 2 * mh;
        a = mc * (3 * r * r + h * h) / 12;
        /* hemisphere about its own centroid (3r/8 from the flat face), moved to the capsule centre */
        double Ih = 0.4 * mh * r * r - mh * (3 * r / 8) * (3 * r / 8), dist = h / 2 + 3 * r / 8;
        b = 2 * (Ih + mh * dist * dist);
        Jl[0] = Jl[4] = a + b;
        Jl[8] = 0.5 * mc * r * r + 2 * 0.4 * mh * r * r;
        break;
    }
    default: return -1;
    }
    *mass = m;
    return 0;
}

int mt_shapes_mass_props(const MtModel *m, int body, double rho, double *mass, double com[3], double inertia[6])
{
    double M = 0, mc[3] = {0, 0, 0}, J[9] = {0};
    double ms[64], cs[64][3], Js[64][9];
    int n = 0;
    for (int i = 0; i < m->nshape && n < 64; i++) {
        if (m->shape[i].body != body) continue;
        double R[9], Jl[9], t[9];
        if (solid(&m->shape[i], rho, &ms[n], cs[n], Jl, R)) continue;
        mt_m3_rotate_sym(t, R, Jl); /* into body axes */
        memcpy(Js[n], t, sizeof t);
        M += ms[n];
        mt_v3_axpy(mc, ms[n], cs[n]);
        n++;
    }
    if (n == 0 || !(M > 0)) return -1;
    mt_v3_scale(mc, mc, 1 / M);
    for (int k = 0; k < n; k++) { /* parallel axes to the common centre */
        double d[3];
        mt_v3_sub(d, cs[k], mc);
        double dd = mt_v3_dot(d, d);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) J[3 * i + j] += Js[k][3 * i + j] + ms[k] * ((i == j) * dd - d[i] * d[j]);
    }
    *mass = M;
    mt_v3_copy(com, mc);
    inertia[0] = J[0]; inertia[1] = J[4]; inertia[2] = J[8];
    inertia[3] = J[1]; inertia[4] = J[2]; inertia[5] = J[5];
    return 0;
}

int mt_model_update_mass_props(MtModel *m, MtError *err)
{
    for (int b = 0; b < m->nbody; b++) {
        MtBodySpec *bd = &m->body[b];
        if (bd->density < 0 || isnan(bd->density)) /* a parameter made it so */
            return mt_error_set(err, MT_ERR_MODEL, bd->name, MT_("body '%s': density must be positive"), bd->name), -1;
        if (!(bd->density > 0)) continue;
        if (mt_shapes_mass_props(m, b, bd->density, &bd->mass, bd->com, bd->inertia)) {
            mt_error_set(err, MT_ERR_MODEL, bd->name,
                         MT_("body '%s': a density is given but the body has no solid shape to compute its mass from"), bd->name);
            return -1;
        }
    }
    return 0;
}

/* ---- mesh shape files (STL, OBJ) ----------------------------------------- */


typedef struct {
    double *v;
    size_t n, cap; /* doubles */
} Dbl;

static int dbl_push(Dbl *d, const double *x, size_t k)
{
    if (d->n + k > d->cap) {
        size_t nc = d->cap ? 2 * d->cap : 1024;
        while (nc < d->n + k) nc *= 2;
        double *p = realloc(d->v, sizeof *p * nc);
        if (!p) return -1;
        d->v = p, d->cap = nc;
    }
    memcpy(d->v + d->n, x, sizeof *x * k);
    d->n += k;
    return 0;
}

/* One number starting at *p (leading blanks skipped, not past end or a line
 * end); 0, or -1 when there is none or it is not finite. */
static int shape_num(const char **p, const char *end, double *out)
{
    const char *s = *p;
    while (s < end && (*s == ' ' || *s == '\t' || *s == '\r')) s++;
    char buf[64];
    size_t n = 0;
    while (s + n < end && n < sizeof buf - 1 && !isspace((unsigned char)s[n]) && s[n] != '/') n++;
    if (!n || n == sizeof buf - 1) return -1;
    memcpy(buf, s, n);
    buf[n] = 0;
    char *e;
    double v = strtod(buf, &e);
    if (*e || !isfinite(v)) return -1;
    *out = v;
    *p = s + n;
    return 0;
}

static long shape_fail(MtError *err, Dbl *d, const char *name, int line, const char *msg)
{
    free(d->v);
    d->v = NULL;
    if (line > 0) mt_error_set(err, MT_ERR_SYNTAX, name, "%s:%d: %s", name, line, msg);
    else mt_error_set(err, MT_ERR_SYNTAX, name, "%s: %s", name, msg);
    return -1;
}

static long parse_stl(const char *data, size_t len, const char *name, double **xyz, MtError *err)
{
    Dbl d = {0};
    if (len >= 84) {
        uint32_t n;
        const unsigned char *b = (const unsigned char *)data + 80;
        n = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        if ((uint64_t)84 + (uint64_t)n * 50 == len) {
            if (!n) return shape_fail(err, &d, name, 0, MT_("binary STL with no triangles"));
            d.v = malloc(sizeof(double) * 9 * (size_t)n);
            if (!d.v) return shape_fail(err, &d, name, 0, MT_("out of memory"));
            for (uint32_t i = 0; i < n; i++) {
                const unsigned char *r = (const unsigned char *)data + 84 + (size_t)i * 50 + 12;
                for (int k = 0; k < 9; k++) {
                    uint32_t u = (uint32_t)r[4 * k] | (uint32_t)r[4 * k + 1] << 8 | (uint32_t)r[4 * k + 2] << 16 |
                                 (uint32_t)r[4 * k + 3] << 24;
                    float f;
                    memcpy(&f, &u, 4);
                    if (!isfinite(f)) {
                        char msg[160];
                        snprintf(msg, sizeof msg, MT_("triangle %lu: a coordinate is not a finite number"),
                                 (unsigned long)i + 1);
                        return shape_fail(err, &d, name, 0, msg);
                    }
                    d.v[9 * (size_t)i + (size_t)k] = f;
                }
            }
            *xyz = d.v;
            return (long)n;
        }
        size_t k = 0;
        while (k < len && k < 80 && isspace((unsigned char)data[k])) k++;
        if (len - k < 5 || strncmp(data + k, "solid", 5)) {
            char msg[200];
            snprintf(msg, sizeof msg, MT_("binary STL declares %lu triangles but its size is %lu bytes (expected %llu)"),
                     (unsigned long)n, (unsigned long)len, (unsigned long long)(84 + (uint64_t)n * 50));
            return shape_fail(err, &d, name, 0, msg);
        }
    }
    /* ASCII: every "vertex x y z", three per facet */
    const char *p = data, *end = data + len;
    int line = 1, nv = 0;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *le = eol ? eol : end;
        const char *s = p;
        while (s < le && isspace((unsigned char)*s)) s++;
        if (le - s >= 6 && !strncmp(s, "vertex", 6) && (le - s == 6 || isspace((unsigned char)s[6]))) {
            double v[3];
            s += 6;
            for (int k = 0; k < 3; k++)
                if (shape_num(&s, le, &v[k]))
                    return shape_fail(err, &d, name, line, MT_("'vertex' needs three finite numbers"));
            if (dbl_push(&d, v, 3)) return shape_fail(err, &d, name, 0, MT_("out of memory"));
            nv++;
        } else if (memchr(s, 0, (size_t)(le - s)))
            return shape_fail(err, &d, name, line, MT_("binary data in an ASCII STL file"));
        p = eol ? eol + 1 : end;
        line++;
    }
    if (nv % 3) return shape_fail(err, &d, name, 0, MT_("the number of vertices is not a multiple of three"));
    if (!nv) return shape_fail(err, &d, name, 0, MT_("no triangles"));
    *xyz = d.v;
    return nv / 3;
}

static long parse_obj(const char *data, size_t len, const char *name, double **xyz, MtError *err)
{
    Dbl v = {0}, t = {0};
    const char *p = data, *end = data + len;
    int line = 1;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *le = eol ? eol : end;
        const char *s = p;
        while (s < le && (*s == ' ' || *s == '\t')) s++;
        if (memchr(s, 0, (size_t)(le - s))) {
            free(v.v);
            return shape_fail(err, &t, name, line, MT_("binary data in an OBJ file"));
        }
        if (le - s >= 2 && s[0] == 'v' && (s[1] == ' ' || s[1] == '\t')) {
            double x[3];
            s += 2;
            for (int k = 0; k < 3; k++)
                if (shape_num(&s, le, &x[k])) {
                    free(v.v);
                    return shape_fail(err, &t, name, line, MT_("'v' needs three finite numbers"));
                }
            if (dbl_push(&v, x, 3)) {
                free(v.v);
                return shape_fail(err, &t, name, 0, MT_("out of memory"));
            }
        } else if (le - s >= 2 && s[0] == 'f' && (s[1] == ' ' || s[1] == '\t')) {
            long idx[64];
            int n = 0;
            s += 2;
            long nvert = (long)(v.n / 3);
            while (s < le && n < 64) {
                while (s < le && (*s == ' ' || *s == '\t' || *s == '\r')) s++;
                if (s >= le) break;
                char buf[24];
                size_t m = 0;
                while (s + m < le && m < sizeof buf - 1 && (isdigit((unsigned char)s[m]) || (m == 0 && s[m] == '-'))) m++;
                memcpy(buf, s, m);
                buf[m] = 0;
                char *e;
                long k = m ? strtol(buf, &e, 10) : 0;
                if (!m || *e || m >= sizeof buf - 1 || k == 0 || k > nvert || k < -nvert) {
                    free(v.v);
                    return shape_fail(err, &t, name, line, MT_("'f' refers to a vertex that is not there"));
                }
                if (k < 0) k = nvert + k + 1;
                idx[n++] = k;
                s += m;
                while (s < le && *s != ' ' && *s != '\t' && *s != '\r') s++; /* skip /vt/vn */
            }
            for (int i = 1; i + 1 < n; i++) {
                double tri[9];
                memcpy(tri, v.v + 3 * (idx[0] - 1), sizeof(double) * 3);
                memcpy(tri + 3, v.v + 3 * (idx[i] - 1), sizeof(double) * 3);
                memcpy(tri + 6, v.v + 3 * (idx[i + 1] - 1), sizeof(double) * 3);
                if (dbl_push(&t, tri, 9)) {
                    free(v.v);
                    return shape_fail(err, &t, name, 0, MT_("out of memory"));
                }
            }
        }
        p = eol ? eol + 1 : end;
        line++;
    }
    free(v.v);
    if (!t.n) return shape_fail(err, &t, name, 0, MT_("no triangles"));
    *xyz = t.v;
    return (long)(t.n / 9);
}

static int ends_with_obj(const char *name)
{
    size_t n = strlen(name);
    return n >= 4 && !strcasecmp(name + n - 4, ".obj");
}

long mt_shape_mesh_parse(const char *data, size_t len, const char *name, double **xyz, MtError *err)
{
    *xyz = NULL;
    return ends_with_obj(name) ? parse_obj(data, len, name, xyz, err) : parse_stl(data, len, name, xyz, err);
}

long mt_shape_mesh_read(const char *path, double **xyz, MtError *err)
{
    *xyz = NULL;
    size_t n = 0;
    char *buf = mt_file_read_all(path, &n, err);
    if (!buf) return -1;
    long nt = mt_shape_mesh_parse(buf, n, path, xyz, err);
    free(buf);
    return nt;
}
