/* mt_compile.c — model → numeric system: per-body mass data at the centre of
 * mass, marker offsets, constraint blocks and their coupling graph, initial
 * state, redundancy detection and degree-of-freedom counts; plus allocation of
 * the per-run state. */
#include <stdlib.h>
#include <string.h>

#include "mt_math.h"
#include "mt_system.h"

static MtModel *model_copy(const MtModel *m)
{
    MtModel *c = mt_model_new();
    if (!c) return NULL;
    *c = *m;
    c->body = NULL; c->marker = NULL; c->joint = NULL; c->driver = NULL; c->spring = NULL;
    c->cap_body = m->nbody; c->cap_marker = m->nmarker; c->cap_joint = m->njoint;
    c->cap_driver = m->ndriver; c->cap_spring = m->nspring;
#define DUP(field, n)                                                                   \
    if ((n) > 0) {                                                                      \
        c->field = malloc(sizeof *m->field * (size_t)(n));                              \
        if (!c->field) { mt_model_free(c); return NULL; }                               \
        memcpy(c->field, m->field, sizeof *m->field * (size_t)(n));                     \
    }
    DUP(body, m->nbody)
    DUP(marker, m->nmarker)
    DUP(joint, m->njoint)
    DUP(driver, m->ndriver)
    DUP(spring, m->nspring)
#undef DUP
    return c;
}

void mt_system_free(MtSystem *s)
{
    if (!s) return;
    mt_model_free(s->model);
    free(s->mass); free(s->Jc); free(s->Jcinv); free(s->com); free(s->mbody); free(s->mpos); free(s->mrot);
    free(s->block); free(s->edge); free(s->edge_body); free(s->dep); free(s->free_body); free(s->q0); free(s->u0);
    free(s);
}

static void set_prims(MtCBlock *b, MtJointType t)
{
    MtPrim *p = b->prim;
    int n = 0;
    const MtPrim sph = {MT_PRIM_SPH, 0, 0};
    switch (t) {
    case MT_JOINT_SPHERICAL: p[n++] = sph; break;
    case MT_JOINT_REVOLUTE:
        p[n++] = sph;
        p[n++] = (MtPrim){MT_PRIM_DOT, 2, 0};
        p[n++] = (MtPrim){MT_PRIM_DOT, 2, 1};
        break;
    case MT_JOINT_UNIVERSAL:
        p[n++] = sph;
        p[n++] = (MtPrim){MT_PRIM_DOT, 2, 2};
        break;
    case MT_JOINT_FIXED:
        p[n++] = sph;
        p[n++] = (MtPrim){MT_PRIM_DOT, 2, 0};
        p[n++] = (MtPrim){MT_PRIM_DOT, 2, 1};
        p[n++] = (MtPrim){MT_PRIM_DOT, 0, 1};
        break;
    case MT_JOINT_PRISMATIC:
        p[n++] = (MtPrim){MT_PRIM_TRANS, 0, 0};
        p[n++] = (MtPrim){MT_PRIM_TRANS, 1, 0};
        p[n++] = (MtPrim){MT_PRIM_DOT, 2, 0};
        p[n++] = (MtPrim){MT_PRIM_DOT, 2, 1};
        p[n++] = (MtPrim){MT_PRIM_DOT, 0, 1};
        break;
    case MT_JOINT_CYLINDRICAL:
        p[n++] = (MtPrim){MT_PRIM_TRANS, 0, 0};
        p[n++] = (MtPrim){MT_PRIM_TRANS, 1, 0};
        p[n++] = (MtPrim){MT_PRIM_DOT, 2, 0};
        p[n++] = (MtPrim){MT_PRIM_DOT, 2, 1};
        break;
    default: break;
    }
    b->nprim = n;
}

static int uf_find(int *p, int x)
{
    while (p[x] != x) x = p[x] = p[p[x]];
    return x;
}

MtSystem *mt_system_compile(const MtModel *m, MtError *err)
{
    if (mt_model_validate(m, err) != MT_OK) return NULL;
    MtSystem *s = calloc(1, sizeof *s);
    if (!s) goto nomem;
    s->model = model_copy(m);
    if (!s->model) goto nomem;
    int nb = s->nbody = m->nbody;
    s->nmarker = m->nmarker;
    s->nspring = m->nspring;
    s->nblock = m->njoint + m->ndriver;
    mt_v3_copy(s->gravity, m->gravity);
    s->solver = m->solver;
    s->mass = malloc(sizeof(double) * (size_t)(nb + 1));
    s->Jc = malloc(sizeof(double) * 9 * (size_t)(nb + 1));
    s->Jcinv = malloc(sizeof(double) * 9 * (size_t)(nb + 1));
    s->com = malloc(sizeof(double) * 3 * (size_t)(nb + 1));
    s->mbody = malloc(sizeof(int) * (size_t)(m->nmarker + 1));
    s->mpos = malloc(sizeof(double) * 3 * (size_t)(m->nmarker + 1));
    s->mrot = malloc(sizeof(double) * 9 * (size_t)(m->nmarker + 1));
    s->block = calloc((size_t)s->nblock + 1, sizeof *s->block);
    s->q0 = malloc(sizeof(double) * 7 * (size_t)(nb + 1));
    s->u0 = malloc(sizeof(double) * 6 * (size_t)(nb + 1));
    s->free_body = malloc(sizeof(int) * (size_t)(nb + 1));
    if (!s->mass || !s->Jc || !s->Jcinv || !s->com || !s->mbody || !s->mpos || !s->mrot || !s->block || !s->q0 ||
        !s->u0 || !s->free_body)
        goto nomem;
    for (int i = 0; i < nb; i++) {
        const MtBodySpec *b = &m->body[i];
        s->mass[i] = b->mass;
        const double *I = b->inertia;
        double J[9] = {I[0], I[3], I[4], I[3], I[1], I[5], I[4], I[5], I[2]};
        memcpy(s->Jc + 9 * i, J, sizeof J);
        mt_m3_inv(s->Jcinv + 9 * i, J);
        mt_v3_copy(s->com + 3 * i, b->com);
        /* initial state at the centre of mass */
        double rc[3], *q = s->q0 + 7 * i, *u = s->u0 + 6 * i;
        mt_m3_mulv(rc, b->rot, b->com);
        mt_v3_add(q, b->pos, rc);
        mt_m3_to_quat(q + 3, b->rot);
        double wr[3];
        mt_v3_cross(wr, b->omega, rc);
        mt_v3_add(u, b->vel, wr);
        mt_v3_copy(u + 3, b->omega);
    }
    for (int k = 0; k < m->nmarker; k++) {
        const MtMarkerSpec *mk = &m->marker[k];
        s->mbody[k] = mk->body;
        if (mk->body >= 0) mt_v3_sub(s->mpos + 3 * k, mk->pos, m->body[mk->body].com);
        else mt_v3_copy(s->mpos + 3 * k, mk->pos);
        memcpy(s->mrot + 9 * k, mk->rot, sizeof mk->rot);
    }
    int row = 0;
    for (int j = 0; j < m->njoint; j++) {
        MtCBlock *b = &s->block[j];
        b->kind = MT_BLOCK_JOINT;
        b->src = j;
        b->mi = m->joint[j].mi;
        b->mj = m->joint[j].mj;
        set_prims(b, m->joint[j].type);
        b->nrow = mt_joint_rows(m->joint[j].type);
        b->row0 = row;
        row += b->nrow;
    }
    for (int d = 0; d < m->ndriver; d++) {
        MtCBlock *b = &s->block[m->njoint + d];
        const MtDriverSpec *ds = &m->driver[d];
        const MtJointSpec *js = &m->joint[ds->joint];
        b->kind = MT_BLOCK_DRIVER;
        b->src = d;
        b->mi = js->mi;
        b->mj = js->mj;
        b->nprim = 1;
        b->prim[0] = js->type == MT_JOINT_REVOLUTE ? (MtPrim){MT_PRIM_ANGLE, 2, 0} : (MtPrim){MT_PRIM_TRANS, 2, 0};
        b->nrow = 1;
        b->row0 = row;
        b->ncoef = ds->ncoef;
        memcpy(b->coef, ds->coef, sizeof b->coef);
        row++;
    }
    s->nrow = row;
    for (int k = 0; k < s->nblock; k++) {
        s->block[k].bi = m->marker[s->block[k].mi].body;
        s->block[k].bj = m->marker[s->block[k].mj].body;
    }
    /* coupling graph: blocks that share a moving body */
    {
        int *cnt = calloc((size_t)nb + 1, sizeof(int)), *start = calloc((size_t)nb + 2, sizeof(int));
        int *list = malloc(sizeof(int) * (size_t)(2 * s->nblock + 1));
        if (!cnt || !start || !list) { free(cnt); free(start); free(list); goto nomem; }
        for (int k = 0; k < s->nblock; k++) {
            if (s->block[k].bi >= 0) cnt[s->block[k].bi]++;
            if (s->block[k].bj >= 0) cnt[s->block[k].bj]++;
        }
        long ne = 0;
        for (int b = 0; b < nb; b++) { start[b + 1] = start[b] + cnt[b]; ne += (long)cnt[b] * (cnt[b] - 1) / 2; cnt[b] = 0; }
        for (int k = 0; k < s->nblock; k++) {
            int bi = s->block[k].bi, bj = s->block[k].bj;
            if (bi >= 0) list[start[bi] + cnt[bi]++] = k;
            if (bj >= 0) list[start[bj] + cnt[bj]++] = k;
        }
        s->edge = malloc(sizeof(int) * (size_t)(2 * ne + 2));
        s->edge_body = malloc(sizeof(int) * (size_t)(ne + 1));
        if (!s->edge || !s->edge_body) { free(cnt); free(start); free(list); goto nomem; }
        for (int b = 0; b < nb; b++)
            for (int x = start[b]; x < start[b + 1]; x++)
                for (int y = start[b]; y < x; y++) {
                    s->edge[2 * s->nedge] = list[x];
                    s->edge[2 * s->nedge + 1] = list[y];
                    s->edge_body[s->nedge] = b;
                    s->nedge++;
                }
        free(cnt); free(start); free(list);
    }
    /* bodies not tied to ground through joints or springs */
    {
        int *p = malloc(sizeof(int) * (size_t)(nb + 2));
        if (!p) goto nomem;
        for (int i = 0; i <= nb; i++) p[i] = i; /* index nb = ground */
        for (int j = 0; j < m->njoint + m->nspring; j++) {
            int a = j < m->njoint ? m->joint[j].mi : m->spring[j - m->njoint].mi;
            int b = j < m->njoint ? m->joint[j].mj : m->spring[j - m->njoint].mj;
            int ba = m->marker[a].body, bb = m->marker[b].body;
            ba = ba < 0 ? nb : ba;
            bb = bb < 0 ? nb : bb;
            p[uf_find(p, ba)] = uf_find(p, bb);
        }
        for (int i = 0; i < nb; i++)
            if (uf_find(p, i) != uf_find(p, nb)) s->free_body[s->nfree++] = i;
        free(p);
    }
    s->dep = calloc((size_t)s->nrow + 1, 1);
    if (!s->dep) goto nomem;
    /* Redundant equations: rank-revealing factor of A = G M⁻¹ Gᵀ at t = 0. */
    {
        MtState *st = mt_state_new(s, err);
        if (!st) { mt_system_free(s); return NULL; }
        if (mt_eval(st, 0.0, st->q, st->u, NULL) != MT_OK) { /* fills G, W; factor may fail: detect below */ }
        extern void mt_assemble(MtState * st);
        mt_assemble(st);
        int bad = -1;
        mt_bchol_factor(st->chol, 1, 1e-10, &bad);
        for (int r = 0; r < s->nrow; r++) {
            s->dep[r] = (unsigned char)mt_bchol_row_dependent(st->chol, r);
            s->ndep += s->dep[r];
        }
        mt_state_free(st);
    }
    s->dof_grubler = 6 * nb - s->nrow;
    s->dof_rank = 6 * nb - (s->nrow - s->ndep);
    return s;
nomem:
    mt_error_set(err, MT_ERR_NOMEM, "", "out of memory compiling the model");
    mt_system_free(s);
    return NULL;
}

void mt_state_free(MtState *st)
{
    if (!st) return;
    free(st->q); free(st->u); free(st->acc); free(st->lambda); free(st->R); free(st->Jwinv);
    free(st->f); free(st->a0); free(st->G); free(st->W); free(st->g); free(st->gd); free(st->h); free(st->rhs);
    mt_bchol_free(st->chol);
    free(st->pair);
    free(st);
}

MtState *mt_state_new(const MtSystem *s, MtError *err)
{
    MtState *st = calloc(1, sizeof *st);
    if (!st) goto nomem;
    st->sys = s;
    size_t nb = (size_t)s->nbody + 1, nr = (size_t)s->nrow + 1, nk = (size_t)s->nblock + 1;
    st->q = malloc(sizeof(double) * 7 * nb);
    st->u = malloc(sizeof(double) * 6 * nb);
    st->acc = calloc(6 * nb, sizeof(double));
    st->lambda = calloc(nr, sizeof(double));
    st->R = malloc(sizeof(double) * 9 * nb);
    st->Jwinv = malloc(sizeof(double) * 9 * nb);
    st->f = malloc(sizeof(double) * 6 * nb);
    st->a0 = malloc(sizeof(double) * 6 * nb);
    st->G = calloc(12 * nr, sizeof(double));
    st->W = calloc(12 * nr, sizeof(double));
    st->g = calloc(nr, sizeof(double));
    st->gd = calloc(nr, sizeof(double));
    st->h = calloc(nr, sizeof(double));
    st->rhs = calloc(nr, sizeof(double));
    if (!st->q || !st->u || !st->acc || !st->lambda || !st->R || !st->Jwinv || !st->f || !st->a0 || !st->G ||
        !st->W || !st->g || !st->gd || !st->h || !st->rhs)
        goto nomem;
    memcpy(st->q, s->q0, sizeof(double) * 7 * (size_t)s->nbody);
    memcpy(st->u, s->u0, sizeof(double) * 6 * (size_t)s->nbody);
    int *size = malloc(sizeof(int) * nk);
    if (!size) goto nomem;
    for (int k = 0; k < s->nblock; k++) size[k] = s->block[k].nrow;
    st->chol = mt_bchol_new(s->nblock, size, s->nedge, s->edge, err);
    free(size);
    if (!st->chol) { mt_state_free(st); return NULL; }
    for (int r = 0; r < s->nrow; r++) mt_bchol_set_dependent(st->chol, r, s->dep ? s->dep[r] : 0);
    /* Pairs: every (block, side) × (block, side) on a shared body, k != l. */
    int cap = s->nedge + 1;
    st->pair = malloc(sizeof(MtPair) * (size_t)cap);
    if (!st->pair) goto nomem;
    for (int e = 0; e < s->nedge; e++) {
        int k = s->edge[2 * e], l = s->edge[2 * e + 1], body = s->edge_body[e];
        int sk = s->block[k].bi == body ? 0 : 1, sl = s->block[l].bi == body ? 0 : 1;
        int swap;
        double *slot = mt_bchol_block(st->chol, k, l, &swap);
        st->pair[st->npair++] = swap ? (MtPair){l, sl, k, sk, slot} : (MtPair){k, sk, l, sl, slot};
    }
    return st;
nomem:
    mt_error_set(err, MT_ERR_NOMEM, "", "out of memory creating the solver state");
    mt_state_free(st);
    return NULL;
}
