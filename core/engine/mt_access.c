/* mt_access.c — the public face of a compiled system and of a run's state
 * (include/motus/run.h): what ui/, app/ and tests read of them, so that the
 * layout in mt_system.h stays private to core/engine/. Declared in motus/run.h. */
#include <math.h>
#include <stdio.h>

#include "mt_i18n.h"
#include "mt_system.h"

const MtModel *mt_system_model(const MtSystem *s) { return s->model; }
const MtSolverSpec *mt_system_solver(const MtSystem *s) { return &s->solver; }
int mt_system_nbody(const MtSystem *s) { return s->nbody; }

void mt_system_info(const MtSystem *s, MtSystemInfo *info)
{
    info->nrow = s->nrow;
    info->ndep = s->ndep;
    info->nspecial = s->nspecial;
    info->dof_grubler = s->dof_grubler;
    info->dof_rank = s->dof_rank;
    info->nblock = s->nblock;
    info->nfree = s->nfree;
}

int mt_system_row_redundant(const MtSystem *s, int row) { return row >= 0 && row < s->nrow && s->dep[row]; }

int mt_block_ndep(const MtSystem *s, int k)
{
    int n = 0;
    for (int r = 0; r < s->block[k].nrow; r++) n += s->dep[s->block[k].row0 + r];
    return n;
}

int mt_block_rows(const MtSystem *s, int k, int *row0)
{
    *row0 = s->block[k].row0;
    return s->block[k].nrow;
}

int mt_block_source(const MtSystem *s, int k, MtEntityKind *kind)
{
    const MtCBlock *b = &s->block[k];
    *kind = b->kind == MT_BLOCK_JOINT ? MT_ENT_JOINT : b->kind == MT_BLOCK_DRIVER ? MT_ENT_DRIVER
          : b->kind == MT_BLOCK_COUPLE ? MT_ENT_COUPLE : MT_ENT_EVENT;
    return b->src;
}

int mt_system_free_body(const MtSystem *s, int i) { return i >= 0 && i < s->nfree ? s->free_body[i] : -1; }

void mt_system_row_words(const MtSystem *s, int row, char *buf, size_t n)
{
    static const char *ax = "xyz";
    int k = 0;
    while (k + 1 < s->nblock && s->block[k + 1].row0 <= row) k++;
    const MtCBlock *b = &s->block[k];
    int r = row - b->row0, acc = 0;
    const char *what = "?";
    char tmp[128];
    for (int p = 0; p < b->nprim; p++) {
        int w = (b->prim[p].kind == MT_PRIM_SPH || b->prim[p].kind == MT_PRIM_ROLL) ? 3 : 1;
        if (r < acc + w) {
            const MtPrim *pr = &b->prim[p];
            /* TRANSLATORS: %c is an axis letter x, y or z; _i and _j name the
               joint's markers i and j (its axes x_i, z_j, ...). */
            switch (pr->kind) {
            case MT_PRIM_SPH: snprintf(tmp, sizeof tmp, MT_("coincidence of origins along %c"), ax[r - acc]); break;
            case MT_PRIM_DOT: snprintf(tmp, sizeof tmp, MT_("%c_j perpendicular to %c_i"), ax[pr->a], ax[pr->b]); break;
            case MT_PRIM_TRANS: snprintf(tmp, sizeof tmp, MT_("no offset along %c_j"), ax[pr->a]); break;
            case MT_PRIM_DIST: snprintf(tmp, sizeof tmp, "%s", MT_("distance between origins")); break;
            case MT_PRIM_COORD: snprintf(tmp, sizeof tmp, "%s", MT_("relation among joint coordinates")); break;
            case MT_PRIM_ROLL:
                snprintf(tmp, sizeof tmp, "%s",
                         r - acc == 0 ? MT_("contact with the plane") : MT_("no slip at the contact point"));
                break;
            }
            what = tmp;
            break;
        }
        acc += w;
    }
    if (b->kind == MT_BLOCK_JOINT)
        /* TRANSLATORS: the second %s is the joint type keyword (revolute, ...);
           the last %s says which equation, as in "no offset along x_j". */
        snprintf(buf, n, MT_("joint '%s' (%s), equation %d of %d: %s"), s->model->joint[b->src].name,
                 mt_joint_type_name(s->model->joint[b->src].type), r + 1, b->nrow, what);
    else if (b->kind == MT_BLOCK_DRIVER) snprintf(buf, n, MT_("driver '%s': %s"), s->model->driver[b->src].name, what);
    else snprintf(buf, n, MT_("coupling '%s': %s"), s->model->couple[b->src].name, what);
}

const MtSystem *mt_state_system(const MtState *st) { return st->sys; }
double mt_state_time(const MtState *st) { return st->t; }

void mt_state_body(const MtState *st, int b, double pos[3], double quat[4], double vel[3])
{
    double p[3];
    if (pos || vel) mt_body_origin(st, st->q, vel ? st->u : NULL, b, pos ? pos : p, vel);
    if (quat)
        for (int i = 0; i < 4; i++) quat[i] = st->q[7 * b + 3 + i];
}

int mt_state_nonfinite_body(const MtState *st)
{
    for (int b = 0; b < st->sys->nbody; b++)
        for (int k = 0; k < 7; k++)
            if (!isfinite(st->q[7 * b + k]) || (k < 6 && !isfinite(st->u[6 * b + k]))) return b;
    return -1;
}

double mt_state_joint_coordinate(const MtState *st, int joint) { return mt_joint_coordinate(st, st->q, joint); }

void mt_state_spring(const MtState *st, int spring, double *len, double *rate, double *tension)
{
    mt_spring_state(st, st->q, st->u, spring, len, rate, tension);
}

void mt_state_energy(const MtState *st, double *kinetic, double *potential)
{
    mt_energy(st, st->q, st->u, kinetic, potential);
}

int mt_state_event_fired(const MtState *st, int e, double *t)
{
    if (e < 0 || e >= st->sys->model->nevent || !st->efired[e]) return 0;
    if (t) *t = st->etime[e];
    return 1;
}
