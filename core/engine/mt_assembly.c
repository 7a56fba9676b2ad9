/* mt_assembly.c — consistent initial positions and velocities: Newton
 * projection onto the constraints (M-orthogonal, i.e. the smallest change in
 * the kinetic-energy metric) while the coordinates the user fixed with
 * `initial` statements are held by temporary drivers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_i18n.h"
#include "mt_integrate.h"
#include "mt_kin.h"

#define INIT_PREFIX "@initial"

/* A system with the model's constraints plus one driver per held coordinate
 * (level DISP for values, VEL for rates). */
static MtSystem *augmented(const MtSystem *s, int rates, MtError *err)
{
    MtModel *m = mt_model_copy(s->model);
    if (!m) { mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory")); return NULL; }
    for (int i = 0; i < m->ninitial; i++) {
        const MtInitialSpec *in = &m->initial[i];
        if (rates ? !in->has_rate : !in->has_value) continue;
        char name[32];
        snprintf(name, sizeof name, INIT_PREFIX "%d", i);
        double c = rates ? in->rate : in->value;
        /* a coordinate that a driver already prescribes is not held twice */
        int driven = 0;
        for (int d = 0; d < m->ndriver; d++)
            if (m->driver[d].joint == in->joint && m->driver[d].coord == in->coord) driven = 1;
        if (driven) continue;
        int d = mt_model_add_driver(m, name, in->joint, MT_DRIVER_POLY, 1, &c, err);
        if (d < 0) { mt_model_free(m); return NULL; }
        m->driver[d].coord = in->coord;
        m->driver[d].level = rates ? MT_LEVEL_VEL : MT_LEVEL_DISP;
    }
    MtSystem *a = mt_system_compile(m, err);
    mt_model_free(m);
    if (!a) return NULL;
    /* held coordinates that add no rank over-determine the mechanism */
    if (a->ndep > s->ndep) {
        char list[256] = "";
        for (int i = 0; i < s->model->ninitial; i++) {
            const MtInitialSpec *in = &s->model->initial[i];
            if (rates ? !in->has_rate : !in->has_value) continue;
            size_t n = strlen(list);
            snprintf(list + n, sizeof list - n, "%s'%s'", n ? ", " : "", s->model->joint[in->joint].name);
        }
        const char *last = s->model->joint[s->model->initial[s->model->ninitial - 1].joint].name;
        mt_error_set(err, MT_ERR_MODEL, last,
                     rates ? MT_("initial rates of joints %s over-determine the mechanism: it has %d degrees of freedom; "
                                 "hold fewer rates")
                           : MT_("initial values of joints %s over-determine the mechanism: it has %d degrees of freedom; "
                                 "hold fewer coordinates"),
                     list, s->dof_rank);
        mt_system_free(a);
        return NULL;
    }
    return a;
}

/* Rewrites an error about a temporary driver as one about the user's initial condition. */
static MtStatus rename_error(const MtSystem *a, MtError *err)
{
    if (strncmp(err->entity, INIT_PREFIX, strlen(INIT_PREFIX))) return err->code;
    int i = atoi(err->entity + strlen(INIT_PREFIX));
    const MtInitialSpec *in = &a->model->initial[i];
    const char *jn = a->model->joint[in->joint].name;
    return mt_error_set(err, MT_ERR_SOLVE, jn,
                        MT_("initial condition of joint '%s' cannot be met: %s = %g is out of reach of the mechanism "
                            "(check the value and the geometry)"),
                        jn, mt_coord_name(in->coord), in->value);
}

static MtStatus project_with(const MtSystem *a, MtState *st, int rates, MtError *err)
{
    MtState *as = mt_state_new(a, err);
    if (!as) return err->code ? err->code : MT_ERR_NOMEM;
    size_t nq = (size_t)a->nq, nu = (size_t)a->nu;
    memcpy(as->q, st->q, sizeof(double) * nq);
    memcpy(as->u, st->u, sizeof(double) * nu);
    as->t = st->t;
    mt_state_init_coords(as);
    MtStatus rc = rates ? mt_project_velocities(as, err) : mt_project_positions(as, 1e-12, 50, err);
    if (rc) rc = rename_error(a, err);
    else {
        memcpy(st->q, as->q, sizeof(double) * nq);
        memcpy(st->u, as->u, sizeof(double) * nu);
    }
    mt_state_free(as);
    return rc;
}

MtStatus mt_assemble_initial(MtState *st, MtError *err)
{
    mt_state_redetect(st);
    const MtSystem *s = st->sys;
    int nval = 0, nrate = 0;
    for (int i = 0; i < s->model->ninitial; i++) {
        nval += s->model->initial[i].has_value;
        nrate += s->model->initial[i].has_rate;
    }
    MtStatus rc = MT_OK;
    if (nval) {
        MtSystem *a = augmented(s, 0, err);
        if (!a) return err->code;
        rc = project_with(a, st, 0, err);
        mt_system_free(a);
    } else rc = mt_project_positions(st, 1e-12, 50, err);
    if (rc) return rc;
    mt_state_init_coords(st);
    if (nrate) {
        /* positions are consistent now: hold the rates while projecting velocities */
        MtSystem *a = augmented(s, 1, err);
        if (!a) return err->code;
        rc = project_with(a, st, 1, err);
        mt_system_free(a);
    }
    if (!rc) { /* equations removed as redundant must hold too, or the model contradicts itself */
        const MtSystem *sy = st->sys;
        mt_stage_bodies(st, st->q);
        mt_stage_constraints(st, st->t, st->q, st->u);
        for (int r = 0; r < sy->nrow && !rc; r++)
            if (sy->dep[r] && sy->level[r] == 0 && fabs(st->g[r]) > 1e-6) {
                int k = 0;
                while (k + 1 < sy->nblock && sy->block[k + 1].row0 <= r) k++;
                const char *name = mt_block_name(sy, k);
                rc = mt_error_set(err, MT_ERR_MODEL, name,
                                  MT_("'%s': its equation %d repeats others but is violated by %.3g after assembly; the "
                                      "model contradicts itself (check the positions, axes and lengths)"),
                                  name, r - sy->block[k].row0 + 1, fabs(st->g[r]));
            }
    }
    if (!rc) rc = mt_project_velocities(st, err); /* the model's own velocity constraints (drivers included) */
    if (!rc) mt_state_commit(st);
    return rc;
}
