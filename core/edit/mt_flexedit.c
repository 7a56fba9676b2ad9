/* mt_flexedit.c — flexible bodies made from meshes, markers on their nodes
 * (see include/motus/flexedit.h). */
#include "motus/flexedit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mt_flexmodel.h"
#include "mt_i18n.h"
#include "motus/mesh.h"

MtStatus mt_flexedit_mesh_info(const char *path, MtMeshInfo *info, MtError *err)
{
    memset(info, 0, sizeof *info);
    MtFeModel *fe = mt_mesh_read(path, err);
    if (!fe) return err && err->code ? err->code : MT_ERR_IO;
    info->nnode = fe->nnode;
    info->nelem = fe->nelem;
    for (int e = 0; e < fe->nelem; e++) {
        if (fe->elem[e].type >= 0 && fe->elem[e].type < MT_FE_NTYPES) info->count[fe->elem[e].type]++;
        info->nomat += fe->elem[e].prop < 0;
    }
    for (int c = 0; c < 3; c++) info->lo[c] = INFINITY, info->hi[c] = -INFINITY;
    for (int i = 0; i < fe->nnode; i++)
        for (int c = 0; c < 3; c++) {
            info->lo[c] = fmin(info->lo[c], fe->x[3 * i + c]);
            info->hi[c] = fmax(info->hi[c], fe->x[3 * i + c]);
        }
    info->nskip = fe->nskip;
    snprintf(info->skipped, sizeof info->skipped, "%s", fe->skipped);
    mt_fe_model_free(fe);
    if (!info->nelem)
        return mt_error_set(err, MT_ERR_MODEL, path, MT_("'%s' holds no element a flexible body can be made of"), path);
    return MT_OK;
}

void mt_flex_mesh_def_default(MtFlexMeshDef *d)
{
    memset(d, 0, sizeof *d);
    d->E = 2.1e11;
    d->nu = 0.3;
    d->rho = 7850;
    d->method = MT_REDUCE_CB;
    d->modes = 10;
    d->zeta = 0.02;
}

/* A body name from a file name: its base without extension, other characters than letters, digits and '_'
 * replaced, made unique with _2, _3 … */
static void name_from_file(const MtModel *m, const char *file, char *out, size_t n)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    char stem[MT_NAME_MAX - 4];
    size_t k = 0;
    for (const char *c = base; *c && *c != '.' && k + 1 < sizeof stem; c++)
        stem[k++] = ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')) ? *c : '_';
    stem[k] = 0;
    if (!k) snprintf(stem, sizeof stem, "flexible");
    snprintf(out, n, "%s", stem);
    for (int i = 2; mt_model_find_body(m, out) >= 0 || !strcmp(out, "ground"); i++) snprintf(out, n, "%s_%d", stem, i);
}

int mt_flexedit_add_mesh_body(MtModel *m, const MtFlexMeshDef *d, MtError *err)
{
    const char *what = d->name[0] ? d->name : d->file;
    if (!d->file[0]) {
        mt_error_set(err, MT_ERR_ARG, what, "%s", MT_("a flexible body needs a mesh file"));
        return -1;
    }
    if (!(d->E > 0) || !(d->nu > -1 && d->nu < 0.5) || !(d->rho > 0) || !(d->thickness >= 0) || d->modes < 0 ||
        d->modes > 500 || !(d->zeta >= 0) || d->method < MT_REDUCE_MODES || d->method > MT_REDUCE_ATTACH) {
        mt_error_set(err, MT_ERR_ARG, what,
                     MT_("'%s': out of range (E > 0, -1 < nu < 0.5, rho > 0, 0 ≤ modes ≤ 500, damping ≥ 0)"), what);
        return -1;
    }
    char name[MT_NAME_MAX];
    if (d->name[0])
        snprintf(name, sizeof name, "%s", d->name);
    else
        name_from_file(m, d->file, name, sizeof name);
    int b = mt_model_add_body(m, name, err);
    if (b < 0) return -1;
    int f = mt_model_add_flex(m, b, MT_FLEX_MESH, err);
    if (f < 0) {
        m->nbody--; /* the body just added is the last one and nothing refers to it yet */
        return -1;
    }
    MtFlexSpec *fs = &m->flex[f];
    snprintf(fs->file, sizeof fs->file, "%s", d->file);
    fs->E = d->E, fs->nu = d->nu, fs->rho = d->rho, fs->thickness = d->thickness;
    fs->method = d->method, fs->modes = d->modes, fs->zeta = d->zeta, fs->stiffening = d->stiffening != 0;
    for (int c = 0; c < 3; c++) m->body[b].pos[c] = d->pos[c];
    return b;
}

int mt_flexedit_add_marker(MtModel *m, int b, const char *name, int label, const double p[3], double spider,
                           MtError *err)
{
    int f = mt_model_body_flex(m, b);
    if (f < 0) {
        mt_error_set(err, MT_ERR_ARG, mt_model_body_name(m, b), MT_("body '%s' is not flexible"),
                     mt_model_body_name(m, b));
        return -1;
    }
    if (spider > 0 ? !p : label <= 0) {
        mt_error_set(err, MT_ERR_ARG, m->body[b].name, MT_("body '%s': a marker needs a node, or a point and a radius"),
                     m->body[b].name);
        return -1;
    }
    char auto_name[MT_NAME_MAX];
    if (!name || !name[0]) {
        if (spider > 0) {
            int i = 1;
            for (;; i++) {
                snprintf(auto_name, sizeof auto_name, "spider%d", i);
                int taken = 0;
                for (int k = 0; k < m->nmarker; k++) taken |= m->marker[k].body == b && !strcmp(m->marker[k].name, auto_name);
                if (!taken) break;
            }
        } else {
            snprintf(auto_name, sizeof auto_name, "n%d", label);
        }
        name = auto_name;
    }
    /* a node's marker takes the node's position when the model is reduced; start from the surface vertex's */
    double pos[3] = {0, 0, 0};
    const MtFlexData *d = m->flex[f].data;
    if (p)
        memcpy(pos, p, sizeof pos);
    else if (d && d->body)
        for (int v = 0; v < d->body->nsv; v++)
            if (d->body->sv_id[v] == label)
                for (int c = 0; c < 3; c++) pos[c] = d->body->sv_x[3 * v + c];
    int k = mt_model_add_marker(m, b, name, pos, NULL, err);
    if (k < 0) return -1;
    if (spider > 0)
        m->marker[k].spider = spider;
    else
        m->marker[k].node = label;
    return k;
}

int mt_flexedit_nearest_vertex(const MtFlexBody *fb, const double p[3])
{
    int best = -1;
    double bd = INFINITY;
    for (int v = 0; fb && v < fb->nsv; v++) {
        const float *x = fb->sv_x + 3 * v;
        double d = (x[0] - p[0]) * (x[0] - p[0]) + (x[1] - p[1]) * (x[1] - p[1]) + (x[2] - p[2]) * (x[2] - p[2]);
        if (d < bd) bd = d, best = v;
    }
    return best;
}
