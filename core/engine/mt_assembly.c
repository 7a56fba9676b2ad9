/* mt_assembly.c — the initial configuration. mt_system_assemble: a compiled
 * system evaluated there once (references of couplers and screws, redundant
 * equations, degrees of freedom). mt_assemble_initial: consistent initial
 * positions and velocities of a run, by Newton projection onto the
 * constraints (M-orthogonal, i.e. the smallest change in the kinetic-energy
 * metric) while the coordinates the user fixed with `initial` statements are
 * held by temporary drivers. Declared in mt_system.h, motus/run.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_i18n.h"
#include "mt_flex.h"
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
        if (in->mode || (rates ? !in->has_rate : !in->has_value)) continue; /* modal ones: set and held, hold_modes */
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
    if (mt_system_assemble(a, err)) { mt_system_free(a); return NULL; }
    /* held coordinates that add no rank over-determine the mechanism */
    if (a->ndep > s->ndep) {
        char list[256] = "";
        const char *last = "";
        for (int i = 0; i < s->model->ninitial; i++) {
            const MtInitialSpec *in = &s->model->initial[i];
            if (in->mode || (rates ? !in->has_rate : !in->has_value)) continue;
            size_t n = strlen(list);
            last = s->model->joint[in->joint].name;
            snprintf(list + n, sizeof list - n, "%s'%s'", n ? ", " : "", last);
        }
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
    as->flex_hold = st->flex_hold;
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

/* Flexible bodies with `initial rest` start undeformed and without elastic
 * velocity; `initial BODY.wK VALUE rate R` gives single modal coordinates
 * and rates. What is set is held through the projections (MtFlexSys.hold,
 * MtState.flex_hold), so the velocity projection gives those modes no
 * impulse. Returns 1 if anything is held. */
static int hold_modes(MtState *st)
{
    const MtSystem *s = st->sys;
    const MtModel *m = s->model;
    int n = 0;
    for (int i = 0; i < s->nflex; i++) {
        const MtFlexSys *f = &s->flex[i];
        if (!f->hold) continue;
        double *w = st->q + 7 * s->nbody + f->moff, *wd = st->u + 6 * s->nbody + f->moff;
        int keep = st->from_statics; /* the equilibrium's deformation stays */
        if (m->flex[i].initial == MT_FLEX_INIT_REST) {
            if (!keep) memset(w, 0, sizeof(double) * (size_t)f->N);
            memset(wd, 0, sizeof(double) * (size_t)f->N);
        }
        for (int k = 0; k < m->ninitial; k++) {
            const MtInitialSpec *in = &m->initial[k];
            if (!in->mode || in->body != f->body) continue;
            if (in->has_value && !keep) w[in->mode - 1] = in->value;
            if (in->has_rate) wd[in->mode - 1] = in->rate;
        }
        n++;
    }
    return n > 0;
}

static MtStatus assemble_initial(MtState *st, MtError *err);

MtStatus mt_assemble_initial(MtState *st, MtError *err)
{
    st->flex_hold = hold_modes(st); /* 1: positions first (assemble_initial turns it to 2 for the velocities) */
    MtStatus rc = assemble_initial(st, err);
    st->flex_hold = 0;
    return rc;
}

static MtStatus assemble_initial(MtState *st, MtError *err)
{
    mt_state_redetect(st);
    const MtSystem *s = st->sys;
    int nval = 0, nrate = 0;
    for (int i = 0; i < s->model->ninitial; i++) {
        nval += s->model->initial[i].has_value && !s->model->initial[i].mode && !st->from_statics;
        nrate += s->model->initial[i].has_rate && !s->model->initial[i].mode;
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
    if (st->flex_hold) st->flex_hold = 2; /* the held rates from here on */
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

/* ---- the system at its initial configuration (mt_system_assemble) ---- */

/* Couplers' and screws' references: their coordinates at the initial configuration. */
static void set_references(MtSystem *s, const MtState *st)
{
    for (int k = 0; k < s->nblock; k++) {
        MtCBlock *b = &s->block[k];
        for (int p = 0; p < b->nprim; p++)
            if (b->prim[p].kind == MT_PRIM_COORD && b->kind != MT_BLOCK_DRIVER)
                for (int t = 0; t < b->prim[p].nterm; t++) b->prim[p].term[t].ref = st->cont[3 * b->row0 + t];
    }
}

/* Rank-revealing factor of A = G M⁻¹ Gᵀ at st->q (lock rows left out): its
 * dependent rows are those of mt_bchol_row_dependent. */
static void factor_rank(MtState *st)
{
    const MtSystem *s = st->sys;
    if (mt_eval(st, 0.0, st->q, st->u, NULL) != MT_OK) { /* fills G, W; the factor may fail: that is what we detect */ }
    mt_assemble(st);
    int bad = -1;
    for (int r = 0; r < s->nrow; r++) mt_bchol_set_dependent(st->chol, r, s->lockrow[r]);
    mt_bchol_factor(st->chol, 1, 1e-10, &bad);
}

/* Moves st about a thousandth of the model's size along a random admissible
 * motion, positions projected back onto the constraints; 0 when there is no
 * such motion or the projection fails. */
static int move_admissibly(MtState *st)
{
    const MtSystem *s = st->sys;
    int nb = s->nbody;
    MtError e2 = {0};
    unsigned long long seed = 0x9E3779B97F4A7C15ULL;
    double umax = 0, lscale = 1e-3;
    if (!mt_project_positions(st, 1e-12, 50, &e2)) {
        for (int i = 0; i < s->nu; i++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            st->u[i] = (double)(seed >> 11) / 9007199254740992.0 * 2 - 1;
        }
        st->t = 0;
        if (!mt_project_velocities(st, &e2)) {
            for (int i = 0; i < s->nu; i++) umax = fmax(umax, fabs(st->u[i]));
            for (int b = 0; b < nb; b++) lscale = fmax(lscale, mt_v3_norm(st->q + 7 * b));
        }
    }
    if (!(umax > 1e-12)) return 0;
    double dt = 1e-3 * fmin(lscale, 1.0) / umax; /* about a thousandth of the model's size */
    for (int b = 0; b < nb; b++) {
        double *qb = st->q + 7 * b, dr[4], rv[3];
        mt_v3_axpy(qb, dt, st->u + 6 * b);
        mt_v3_scale(rv, st->u + 6 * b + 3, dt);
        mt_quat_from_rotvec(dr, rv);
        mt_quat_mul(qb + 3, dr, qb + 3);
        mt_quat_normalize(qb + 3);
    }
    for (int i = 0; i < s->nmodal; i++) st->q[7 * nb + i] += dt * st->u[6 * nb + i];
    memset(st->u, 0, sizeof(double) * (size_t)s->nu);
    return !mt_project_positions(st, 1e-12, 50, &e2);
}

MtStatus mt_system_assemble(MtSystem *s, MtError *err)
{
    if (s->assembled) return MT_OK;
    /* redundant equations: rows dependent at the initial configuration */
    MtState *st = mt_state_new_unassembled(s, err);
    if (!st) return err && err->code ? err->code : MT_ERR_NOMEM;
    set_references(s, st);
    factor_rank(st);
    for (int r = 0; r < s->nrow; r++) {
        s->dep[r] = (unsigned char)mt_bchol_row_dependent(st->chol, r);
        s->ndep += s->dep[r];
    }
    /* flexible bodies' damping on the modes their joints hold (the rows are staged now) */
    MtStatus drc = s->nflex ? mt_flex_damping(s, st, err) : MT_OK;
    mt_state_free(st);
    if (drc) return drc;
    /* A dependency may hold only in the initial configuration (a flat lattice of
     * plates, a mechanism drawn at a dead centre): move a little along an
     * admissible motion and detect again. Rows dependent there as well are
     * structurally redundant and stay removed; the others are kept, and the
     * regularised factor carries the run through the singular start. */
    if (s->ndep > 0) {
        st = mt_state_new_unassembled(s, err);
        if (!st) return err && err->code ? err->code : MT_ERR_NOMEM;
        if (move_admissibly(st)) {
            factor_rank(st);
            int n2 = 0;
            for (int r = 0; r < s->nrow; r++) n2 += mt_bchol_row_dependent(st->chol, r);
            if (n2 < s->ndep) { /* fewer dependencies away from the start: keep only those */
                s->nspecial = s->ndep - n2;
                s->ndep = n2;
                for (int r = 0; r < s->nrow; r++) s->dep[r] = (unsigned char)mt_bchol_row_dependent(st->chol, r);
            }
        }
        mt_state_free(st);
    }
    int nlockrows = 0;
    for (int r = 0; r < s->nrow; r++)
        if (s->lockrow[r]) { /* not part of the mechanism until an event locks the joint */
            nlockrows++;
            if (s->dep[r]) { s->dep[r] = 0; s->ndep--; }
        }
    s->dof_grubler = s->nu - (s->nrow - nlockrows);
    s->dof_rank = s->nu - (s->nrow - nlockrows - s->ndep);
    s->assembled = 1;
    return MT_OK;
}
