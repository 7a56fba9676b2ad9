/* mt_shapes.c — body geometry: the shape list of the model and the mass
 * properties of solid shapes (box, cylinder, sphere, capsule, bar) at a
 * density, combined with the parallel-axis theorem. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mt_i18n.h"
#include "mt_math.h"
#include "mt_model.h"

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
