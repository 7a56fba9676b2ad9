/* mt_compile.c — model → numeric system: per-body mass data at the centre of
 * mass, marker offsets, constraint blocks and their coupling graph, initial
 * state; plus allocation of the per-run state. Nothing here evaluates the
 * system: the references, redundancy detection and degree-of-freedom counts
 * at the initial configuration are mt_system_assemble's (mt_assembly.c). Declared in mt_system.h, motus/run.h. */
#include <stdlib.h>
#include <string.h>

#include "mt_expr.h"
#include "mt_i18n.h"
#include "mt_math.h"
#include "motus/study.h"
#include "mt_flex.h"
#include "mt_flexmodel.h"
#include "mt_forces.h"
#include "mt_kin.h"
#include "mt_system.h"

void mt_state_init_coords(MtState *st);
int mt_row_level(const MtCBlock *b, int r);

MtModel *mt_model_copy(const MtModel *m)
{
    MtModel *c = mt_model_new();
    if (!c) return NULL;
    *c = *m;
    c->flex = NULL;
    c->study = NULL;
    if (m->study && !(c->study = mt_study_copy(m->study))) { mt_model_free(c); return NULL; }
    c->body = NULL; c->marker = NULL; c->joint = NULL; c->driver = NULL; c->spring = NULL; c->couple = NULL; c->initial = NULL; c->param = NULL; c->binding = NULL; c->unit = NULL; c->shape = NULL; c->force = NULL; c->sensor = NULL; c->control = NULL; c->event = NULL;
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
    DUP(couple, m->ncouple)
    DUP(initial, m->ninitial)
    DUP(param, m->nparam)
    DUP(binding, m->nbinding)
    DUP(unit, m->nunit)
    DUP(shape, m->nshape)
    DUP(force, m->nforce)
    DUP(sensor, m->nsensor)
    DUP(control, m->ncontrol)
    DUP(event, m->nevent)
    DUP(flex, m->nflex)
#undef DUP
    c->cap_flex = m->nflex;
    for (int i = 0; i < c->nflex; i++) mt_flex_data_ref(c->flex[i].data);
    c->cap_control = m->ncontrol;
    c->cap_event = m->nevent;
    c->cap_sensor = m->nsensor;
    c->cap_force = m->nforce;
    c->cap_shape = m->nshape;
    c->cap_param = m->nparam;
    c->cap_binding = m->nbinding;
    c->cap_unit = m->nunit;
    c->cap_couple = m->ncouple;
    c->cap_initial = m->ninitial;
    for (int d = 0; d < c->ndriver; d++) c->driver[d].tab = NULL;
    for (int d = 0; d < c->ndriver; d++)
        if (m->driver[d].ntab > 0 && m->driver[d].tab) {
            size_t n = sizeof(double) * 2 * (size_t)m->driver[d].ntab;
            c->driver[d].tab = malloc(n);
            if (!c->driver[d].tab) { mt_model_free(c); return NULL; }
            memcpy(c->driver[d].tab, m->driver[d].tab, n);
        }
    if (mt_model_copy_tables(c, m)) { mt_model_free(c); return NULL; }
    return c;
}

void mt_system_free(MtSystem *s)
{
    if (!s) return;
    mt_forces_free(s);
    mt_flex_free(s);
    free(s->mass); free(s->imass); free(s->Jc); free(s->Jcinv); free(s->bodyc); free(s->com); free(s->mbody); free(s->mpos); free(s->mrot);
    for (int d = 0; s->lawx && d < s->model->ndriver; d++) mt_expr_free(s->lawx[d]);
    free(s->lawx); free(s->lawvars);
    mt_model_free(s->model);
    free(s->block); free(s->edge); free(s->edge_body); free(s->spline); free(s->level); free(s->lockrow); free(s->zoff_control); free(s->dep); free(s->free_body); free(s->q0); free(s->u0);
    free(s);
}

/* Primitives of a joint type (the i marker moves relative to the j marker). */
static int set_prims(MtCBlock *b, const MtJointSpec *js)
{
    MtPrim *p = b->prim;
    int n = 0;
#define PR(k, a_, b_) p[n++] = (MtPrim){.kind = (k), .a = (a_), .b = (b_)}
    switch (js->type) {
    case MT_JOINT_SPHERICAL: PR(MT_PRIM_SPH, 0, 0); break;
    case MT_JOINT_REVOLUTE: PR(MT_PRIM_SPH, 0, 0); PR(MT_PRIM_DOT, 2, 0); PR(MT_PRIM_DOT, 2, 1); break;
    case MT_JOINT_UNIVERSAL: PR(MT_PRIM_SPH, 0, 0); PR(MT_PRIM_DOT, 2, 2); break;
    case MT_JOINT_FIXED:
        PR(MT_PRIM_SPH, 0, 0); PR(MT_PRIM_DOT, 2, 0); PR(MT_PRIM_DOT, 2, 1); PR(MT_PRIM_DOT, 0, 1);
        break;
    case MT_JOINT_PRISMATIC:
        PR(MT_PRIM_TRANS, 0, 0); PR(MT_PRIM_TRANS, 1, 0);
        PR(MT_PRIM_DOT, 2, 0); PR(MT_PRIM_DOT, 2, 1); PR(MT_PRIM_DOT, 0, 1);
        break;
    case MT_JOINT_CYLINDRICAL:
    case MT_JOINT_SCREW:
        PR(MT_PRIM_TRANS, 0, 0); PR(MT_PRIM_TRANS, 1, 0); PR(MT_PRIM_DOT, 2, 0); PR(MT_PRIM_DOT, 2, 1);
        if (js->type == MT_JOINT_SCREW) { /* advance − pitch/2π · angle = const */
            MtPrim *c = &p[n++];
            *c = (MtPrim){.kind = MT_PRIM_COORD, .nterm = 2};
            c->term[0] = (MtTerm){.angle = 0, .axis = 2, .mi = js->mi, .mj = js->mj, .si = 0, .sj = 1, .coef = 1};
            c->term[1] = (MtTerm){.angle = 1, .axis = 2, .mi = js->mi, .mj = js->mj, .si = 0, .sj = 1,
                                  .coef = -js->param / (2 * M_PI)};
        }
        break;
    case MT_JOINT_PLANAR: PR(MT_PRIM_TRANS, 2, 0); PR(MT_PRIM_DOT, 2, 0); PR(MT_PRIM_DOT, 2, 1); break;
    case MT_JOINT_INLINE: PR(MT_PRIM_TRANS, 0, 0); PR(MT_PRIM_TRANS, 1, 0); break;
    case MT_JOINT_INPLANE: PR(MT_PRIM_TRANS, 2, 0); break;
    case MT_JOINT_DISTANCE: PR(MT_PRIM_DIST, 0, 0); p[n - 1].param = js->param; break;
    case MT_JOINT_ROLLING: PR(MT_PRIM_ROLL, 0, 0); p[n - 1].param = js->param; break;
    case MT_JOINT_BALL: PR(MT_PRIM_ROLL, 0, 1); p[n - 1].param = js->param; break; /* b = 1: a sphere */
    default: break;
    }
#undef PR
    b->nprim = n;
    int rows = 0;
    for (int k = 0; k < n; k++) rows += (p[k].kind == MT_PRIM_SPH || p[k].kind == MT_PRIM_ROLL) ? 3 : 1;
    return rows;
}

/* Fills a COORD term for coordinate `c` of joint `j`; -1 if the joint has none. */
int mt_joint_term(const MtModel *m, int j, MtCoordKind c, MtTerm *t)
{
    const MtJointSpec *js = &m->joint[j];
    *t = (MtTerm){.mi = js->mi, .mj = js->mj, .coef = 1};
    if (!mt_joint_has_coord(js->type, c)) return -1;
    t->angle = c == MT_COORD_ANGLE;
    t->axis = c == MT_COORD_X ? 0 : c == MT_COORD_Y ? 1 : 2;
    return 0;
}

/* Side of body `body` in block b, adding it when new. */
static int side_of(MtCBlock *b, int body)
{
    for (int k = 0; k < b->nside; k++)
        if (b->body[k] == body) return k;
    b->body[b->nside] = body;
    return b->nside++;
}

/* Spline second derivatives of a natural cubic through n points (t, v). */
static void spline_setup(int n, const double *tab, double *M)
{
    double *c = M + n; /* scratch: n more doubles */
    M[0] = 0;
    c[0] = 0;
    for (int i = 1; i < n - 1; i++) {
        double h0 = tab[2 * i] - tab[2 * i - 2], h1 = tab[2 * i + 2] - tab[2 * i];
        double rhs = 6 * ((tab[2 * i + 3] - tab[2 * i + 1]) / h1 - (tab[2 * i + 1] - tab[2 * i - 1]) / h0);
        double diag = 2 * (h0 + h1) - h0 * c[i - 1];
        c[i] = h1 / diag;
        M[i] = (rhs - h0 * M[i - 1]) / diag;
    }
    M[n - 1] = 0;
    for (int i = n - 2; i > 0; i--) M[i] -= c[i] * M[i + 1];
}

static int uf_find(int *p, int x)
{
    while (p[x] != x) x = p[x] = p[p[x]];
    return x;
}

/* ---- compile: the steps of mt_system_compile, each on the system built so far ---- */

/* Mass data at the centre of mass and the initial state of every rigid body. */
static void compile_bodies(MtSystem *s, const MtModel *m)
{
    int nb = s->nbody;
    for (int i = 0; i < nb; i++) {
        const MtBodySpec *b = &m->body[i];
        s->mass[i] = b->mass;
        s->imass[i] = 1 / b->mass;
        const double *I = b->inertia;
        double J[9] = {I[0], I[3], I[4], I[3], I[1], I[5], I[4], I[5], I[2]};
        if (b->point_mass) memset(J, 0, sizeof J); /* no rotational inertia: its rotation is no degree of freedom */
        memcpy(s->Jc + 9 * i, J, sizeof J);
        if (b->point_mass) memset(s->Jcinv + 9 * i, 0, sizeof J); /* ω̇ = 0: the frame never turns */
        else mt_m3_inv(s->Jcinv + 9 * i, J);
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
    for (int i = 0; i < nb - nb % MT_LW; i++) { /* the body kernel's constants, four bodies per vector load */
        double *c = s->bodyc + 8 * MT_LW * (i / MT_LW) + i % MT_LW;
        const double *Ji = s->Jcinv + 9 * i, *Jc = s->Jc + 9 * i;
        double v[8] = {Ji[0], Ji[4], Ji[8], Jc[0], Jc[4], Jc[8], s->mass[i], s->imass[i]};
        for (int f = 0; f < 8; f++) c[MT_LW * f] = v[f];
    }
}

/* Marker offsets from their body's centre of mass, and their axes. */
static void compile_markers(MtSystem *s, const MtModel *m)
{
    for (int k = 0; k < m->nmarker; k++) {
        const MtMarkerSpec *mk = &m->marker[k];
        s->mbody[k] = mk->body;
        if (mk->body >= 0) mt_v3_sub(s->mpos + 3 * k, mk->pos, m->body[mk->body].com);
        else mt_v3_copy(s->mpos + 3 * k, mk->pos);
        memcpy(s->mrot + 9 * k, mk->rot, sizeof mk->rot);
    }
}

/* q0 and u0 grown by the modal coordinates, which start undeformed. */
static MtStatus compile_modal_state(MtSystem *s)
{
    int nb = s->nbody;
    s->nq = 7 * nb + s->nmodal;
    s->nu = 6 * nb + s->nmodal;
    if (!s->nmodal) return MT_OK;
    double *q0 = calloc((size_t)s->nq + 1, sizeof(double)), *u0 = calloc((size_t)s->nu + 1, sizeof(double));
    if (!q0 || !u0) { free(q0); free(u0); return MT_ERR_NOMEM; }
    memcpy(q0, s->q0, sizeof(double) * 7 * (size_t)nb);
    memcpy(u0, s->u0, sizeof(double) * 6 * (size_t)nb);
    free(s->q0); free(s->u0);
    s->q0 = q0; s->u0 = u0;
    return MT_OK;
}

/* Refuses rolling joints on flexible bodies. */
static MtStatus check_rolling(const MtSystem *s, const MtModel *m, MtError *err)
{
    for (int j = 0; j < m->njoint && s->nflex; j++) {
        const MtJointSpec *js = &m->joint[j];
        if ((js->type == MT_JOINT_ROLLING || js->type == MT_JOINT_BALL) && (s->mflex[js->mi] >= 0 || s->mflex[js->mj] >= 0))
            return mt_error_set(err, MT_ERR_MODEL, js->name,
                                MT_("joint '%s': rolling joints cannot attach to a flexible body; put the wheel on a rigid body"),
                                js->name);
    }
    return MT_OK;
}

/* A joint's block: its primitives between markers i and j. */
static void block_joint(MtCBlock *b, const MtModel *m, int j)
{
    const MtJointSpec *js = &m->joint[j];
    b->kind = MT_BLOCK_JOINT;
    b->src = j;
    b->mi = js->mi;
    b->mj = js->mj;
    side_of(b, m->marker[b->mi].body);
    side_of(b, m->marker[b->mj].body);
    b->nrow = set_prims(b, js);
}

/* A driver's block: one COORD row and its law (a table's spline into
 * s->spline at *ntab). */
static void block_driver(MtSystem *s, MtCBlock *b, const MtModel *m, int d, int *ntab)
{
    const MtDriverSpec *ds = &m->driver[d];
    b->kind = MT_BLOCK_DRIVER;
    b->src = d;
    MtTerm t;
    if (ds->joint >= 0) mt_joint_term(m, ds->joint, ds->coord, &t);
    else t = (MtTerm){.angle = ds->comp >= MT_COMP_AX, .axis = (unsigned char)(ds->comp % 3), .mi = ds->mi,
                      .mj = ds->mj, .coef = 1};
    b->mi = t.mi;
    b->mj = t.mj;
    side_of(b, m->marker[b->mi].body);
    side_of(b, m->marker[b->mj].body);
    t.si = 0;
    t.sj = 1;
    b->nprim = 1;
    b->prim[0] = (MtPrim){.kind = MT_PRIM_COORD, .level = (unsigned char)ds->level, .nterm = 1};
    b->prim[0].term[0] = t;
    b->nrow = 1;
    b->law = ds->kind;
    b->ncoef = ds->ncoef;
    memcpy(b->coef, ds->coef, sizeof b->coef);
    if (ds->kind == MT_DRIVER_TABLE) {
        b->ntab = ds->ntab;
        b->tab = s->model->driver[b->src].tab;
        b->spl = s->spline + *ntab;
        spline_setup(ds->ntab, ds->tab, s->spline + *ntab);
        *ntab += ds->ntab;
    }
    b->lawx = s->lawx[b->src];
    b->lawv = s->lawvars;
}

/* The nth lock: every coordinate of the joint held at its value when the event fires. */
static void block_lock(MtCBlock *b, const MtModel *m, int nth)
{
    int e = 0;
    for (int c = 0; e < m->nevent; e++)
        if (m->event[e].action == MT_ACTION_LOCK && c++ == nth) break;
    const MtJointSpec *js = &m->joint[m->event[e].target];
    b->kind = MT_BLOCK_LOCK;
    b->src = e;
    b->mi = js->mi;
    b->mj = js->mj;
    side_of(b, m->marker[b->mi].body);
    side_of(b, m->marker[b->mj].body);
    for (int c = 0; c < MT_COORD_NONE; c++) {
        MtTerm t;
        if (mt_joint_term(m, m->event[e].target, (MtCoordKind)c, &t)) continue;
        t.si = 0;
        t.sj = 1;
        b->prim[b->nprim] = (MtPrim){.kind = MT_PRIM_COORD, .nterm = 1};
        b->prim[b->nprim].term[0] = t;
        b->nprim++;
    }
    b->nrow = b->nprim;
}

/* A coupling's block: one COORD row over the coordinates of 2–3 joints. */
static void block_couple(MtCBlock *b, const MtModel *m, int c)
{
    const MtCoupleSpec *cs = &m->couple[c];
    b->kind = MT_BLOCK_COUPLE;
    b->src = c;
    MtPrim *p = &b->prim[0];
    *p = (MtPrim){.kind = MT_PRIM_COORD, .nterm = cs->n};
    for (int t = 0; t < cs->n; t++) {
        MtCoordKind ck = cs->coord[t];
        if (cs->kind == MT_COUPLE_GEAR) ck = MT_COORD_ANGLE;
        if (cs->kind == MT_COUPLE_RACK) ck = t == 0 ? MT_COORD_ANGLE : MT_COORD_DISP;
        mt_joint_term(m, cs->joint[t], ck, &p->term[t]);
        p->term[t].coef = cs->kind == MT_COUPLE_RACK ? (t == 0 ? cs->coef[0] : -1) : cs->coef[t];
        p->term[t].si = side_of(b, m->marker[p->term[t].mi].body);
        p->term[t].sj = side_of(b, m->marker[p->term[t].mj].body);
    }
    b->mi = p->term[0].mi;
    b->mj = p->term[0].mj;
    b->nprim = 1;
    b->nrow = 1;
}

/* Constraint blocks in order joints, drivers, couplings, locks; their rows,
 * Jacobian storage and modal columns. */
static MtStatus compile_blocks(MtSystem *s, const MtModel *m)
{
    int row = 0, ntab = 0;
    for (int d = 0; d < m->ndriver; d++) ntab += m->driver[d].kind == MT_DRIVER_TABLE ? m->driver[d].ntab : 0;
    s->spline = malloc(sizeof(double) * (size_t)(2 * ntab + 1));
    s->lawx = calloc((size_t)m->ndriver + 1, sizeof *s->lawx);
    s->lawvars = calloc((size_t)m->nparam + 1, sizeof *s->lawvars);
    if (!s->spline || !s->lawx || !s->lawvars) return MT_ERR_NOMEM;
    for (int i = 0; i < m->nparam; i++) s->lawvars[1 + i] = m->param[i].value;
    for (int d = 0; d < m->ndriver; d++)
        if (m->driver[d].kind == MT_DRIVER_EXPR && !(s->lawx[d] = mt_model_driver_law(m, d, NULL))) return MT_ERR_MODEL;
    ntab = 0;
    int nj = m->njoint, nd = m->ndriver, nc = m->ncouple;
    for (int k = 0; k < s->nblock; k++) {
        MtCBlock *b = &s->block[k];
        if (k < nj) block_joint(b, m, k);
        else if (k < nj + nd) block_driver(s, b, m, k - nj, &ntab);
        else if (k >= nj + nd + nc) block_lock(b, m, k - (nj + nd + nc));
        else block_couple(b, m, k - nj - nd);
        b->row0 = row;
        b->goff = s->ng;
        s->ng += 6 * b->nrow * b->nside;
        for (int sd = 0; sd < MT_SIDE_MAX; sd++) {
            int N = sd < b->nside ? mt_body_modes(s, b->body[sd]) : 0;
            b->gwoff[sd] = N ? s->ngw : -1;
            s->ngw += N * b->nrow;
        }
        row += b->nrow;
    }
    s->nrow = row;
    return MT_OK;
}

/* Rows of lock blocks, and the integrated states besides q and u: controls,
 * then the modified-Lagrange integrals. */
static MtStatus compile_aux(MtSystem *s, const MtModel *m)
{
    s->lockrow = calloc((size_t)s->nrow + 1, 1);
    s->zoff_control = calloc((size_t)m->ncontrol + 1, sizeof(int));
    if (!s->lockrow || !s->zoff_control) return MT_ERR_NOMEM;
    for (int k = 0; k < s->nblock; k++)
        if (s->block[k].kind == MT_BLOCK_LOCK)
            for (int r = 0; r < s->block[k].nrow; r++) s->lockrow[s->block[k].row0 + r] = 1;
    for (int k = 0; k < m->ncontrol; k++) {
        s->zoff_control[k] = s->naux;
        s->naux += mt_control_nstates(m->control[k].kind);
    }
    s->zoff_mlf = s->naux;
    if (m->solver.loops == MT_LOOPS_MLF) s->naux += s->nrow;
    return MT_OK;
}

/* Coupling graph: an edge per pair of blocks that share a moving body. */
static MtStatus compile_graph(MtSystem *s)
{
    int nb = s->nbody;
    int *cnt = calloc((size_t)nb + 1, sizeof(int)), *start = calloc((size_t)nb + 2, sizeof(int));
    int *list = malloc(sizeof(int) * (size_t)(MT_SIDE_MAX * s->nblock + 1));
    MtStatus rc = MT_ERR_NOMEM;
    if (!cnt || !start || !list) goto out;
    for (int k = 0; k < s->nblock; k++)
        for (int sd = 0; sd < s->block[k].nside; sd++)
            if (s->block[k].body[sd] >= 0) cnt[s->block[k].body[sd]]++;
    long ne = 0;
    for (int b = 0; b < nb; b++) { start[b + 1] = start[b] + cnt[b]; ne += (long)cnt[b] * (cnt[b] - 1) / 2; cnt[b] = 0; }
    for (int k = 0; k < s->nblock; k++)
        for (int sd = 0; sd < s->block[k].nside; sd++) {
            int bd = s->block[k].body[sd];
            if (bd >= 0) list[start[bd] + cnt[bd]++] = k;
        }
    s->edge = malloc(sizeof(int) * (size_t)(2 * ne + 2));
    s->edge_body = malloc(sizeof(int) * (size_t)(ne + 1));
    if (!s->edge || !s->edge_body) goto out;
    for (int b = 0; b < nb; b++)
        for (int x = start[b]; x < start[b + 1]; x++)
            for (int y = start[b]; y < x; y++) {
                s->edge[2 * s->nedge] = list[x];
                s->edge[2 * s->nedge + 1] = list[y];
                s->edge_body[s->nedge] = b;
                s->nedge++;
            }
    rc = MT_OK;
out:
    free(cnt); free(start); free(list);
    return rc;
}

/* Force elements that hold one body on another as a spring does (a wheel on its rail, a strut, a
 * tyre on the road); actuators, drag and friction only act along a link that is there already. */
static int holds(const MtForceSpec *f)
{
    return f->kind == MT_FORCE_BUSHING || f->kind == MT_FORCE_CONTACT || f->kind == MT_FORCE_STRUT ||
           f->kind == MT_FORCE_TYRE || f->kind == MT_FORCE_WHEELRAIL;
}

/* Bodies not tied to ground through joints, springs or holding force elements. */
static MtStatus find_free_bodies(MtSystem *s, const MtModel *m)
{
    int nb = s->nbody;
    int *p = malloc(sizeof(int) * (size_t)(nb + 2));
    if (!p) return MT_ERR_NOMEM;
    for (int i = 0; i <= nb; i++) p[i] = i; /* index nb = ground */
    for (int j = 0; j < m->njoint + m->nspring + m->nforce; j++) {
        const MtForceSpec *f = j >= m->njoint + m->nspring ? &m->force[j - m->njoint - m->nspring] : NULL;
        if (f && (!holds(f) || f->mi < 0 || f->mj < 0)) continue;
        int a = f ? f->mi : j < m->njoint ? m->joint[j].mi : m->spring[j - m->njoint].mi;
        int b = f ? f->mj : j < m->njoint ? m->joint[j].mj : m->spring[j - m->njoint].mj;
        int ba = m->marker[a].body, bb = m->marker[b].body;
        ba = ba < 0 ? nb : ba;
        bb = bb < 0 ? nb : bb;
        p[uf_find(p, ba)] = uf_find(p, bb);
    }
    for (int i = 0; i < nb; i++)
        if (uf_find(p, i) != uf_find(p, nb)) s->free_body[s->nfree++] = i;
    free(p);
    return MT_OK;
}

/* Level of every row, the lean blocks (mt_system.h) and whether a commit has
 * angles to follow. */
static MtStatus compile_rows(MtSystem *s, const MtModel *m)
{
    s->dep = calloc((size_t)s->nrow + 1, 1);
    s->level = calloc((size_t)s->nrow + 1, 1);
    if (!s->dep || !s->level) return MT_ERR_NOMEM;
    for (int k = 0; k < s->nblock; k++)
        for (int r = 0; r < s->block[k].nrow; r++) s->level[s->block[k].row0 + r] = (unsigned char)mt_row_level(&s->block[k], r);
    for (int k = 0; k < s->nblock; k++) {
        MtCBlock *b = &s->block[k];
        b->lean = b->nprim == 1 && b->prim[0].kind == MT_PRIM_SPH && b->nside == 2 && b->gwoff[0] < 0 && b->gwoff[1] < 0 &&
                  (!s->mflex || (s->mflex[b->mi] < 0 && s->mflex[b->mj] < 0)) &&
                  (b->body[0] >= 0 || b->body[1] >= 0); /* a ground side reads the other body (mt_constraints.c) */
        for (int p = 0; p < b->nprim; p++) s->commit_kin |= b->prim[p].kind == MT_PRIM_COORD;
    }
    for (int k = 0; k < m->nforce; k++) s->commit_kin |= m->force[k].kind == MT_FORCE_TORSION || m->force[k].kind == MT_FORCE_CONTACT;
    return MT_OK;
}

/* The system's arrays, sized by the model. */
static MtStatus compile_alloc(MtSystem *s, const MtModel *m)
{
    int nb = s->nbody;
    s->mass = malloc(sizeof(double) * (size_t)(nb + 1));
    s->imass = malloc(sizeof(double) * (size_t)(nb + 1));
    s->Jc = malloc(sizeof(double) * 9 * (size_t)(nb + 1));
    s->Jcinv = malloc(sizeof(double) * 9 * (size_t)(nb + 1));
    s->bodyc = malloc(sizeof(double) * 8 * (size_t)(nb + 1));
    s->com = malloc(sizeof(double) * 3 * (size_t)(nb + 1));
    s->mbody = malloc(sizeof(int) * (size_t)(m->nmarker + 1));
    s->mpos = malloc(sizeof(double) * 3 * (size_t)(m->nmarker + 1));
    s->mrot = malloc(sizeof(double) * 9 * (size_t)(m->nmarker + 1));
    s->block = calloc((size_t)s->nblock + 1, sizeof *s->block);
    s->q0 = malloc(sizeof(double) * 7 * (size_t)(nb + 1));
    s->u0 = malloc(sizeof(double) * 6 * (size_t)(nb + 1));
    s->free_body = malloc(sizeof(int) * (size_t)(nb + 1));
    if (!s->mass || !s->imass || !s->Jc || !s->Jcinv || !s->bodyc || !s->com || !s->mbody || !s->mpos || !s->mrot ||
        !s->block || !s->q0 || !s->u0 || !s->free_body)
        return MT_ERR_NOMEM;
    return MT_OK;
}

MtSystem *mt_system_compile(const MtModel *m, MtError *err)
{
    if (mt_model_validate(m, err) != MT_OK) return NULL;
    MtSystem *s = calloc(1, sizeof *s);
    if (!s) goto nomem;
    s->model = mt_model_copy(m);
    if (!s->model) goto nomem;
    s->nbody = m->nbody;
    s->nmarker = m->nmarker;
    s->nspring = m->nspring;
    int nlock = 0;
    for (int e = 0; e < m->nevent; e++) nlock += m->event[e].action == MT_ACTION_LOCK;
    s->nblock = m->njoint + m->ndriver + m->ncouple + nlock;
    mt_v3_copy(s->gravity, m->gravity);
    s->solver = m->solver;
    if (compile_alloc(s, m)) goto nomem;
    compile_bodies(s, m);
    compile_markers(s, m);
    if (mt_flex_compile(s, err) != MT_OK) goto fail;
    if (compile_modal_state(s)) goto nomem;
    if (check_rolling(s, m, err)) goto fail;
    if (compile_blocks(s, m) || compile_aux(s, m)) goto nomem;
    if (mt_forces_compile(s, err) != MT_OK) goto fail;
    if (compile_graph(s) || find_free_bodies(s, m) || compile_rows(s, m)) goto nomem;
    return s; /* the caller assembles it (mt_system_assemble) */
nomem:
    mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory compiling the model"));
fail:
    mt_system_free(s);
    return NULL;
}

int mt_u_body(const MtSystem *s, int i)
{
    if (i < 6 * s->nbody) return i / 6;
    i -= 6 * s->nbody;
    for (int k = 0; k < s->nflex; k++)
        if (i >= s->flex[k].moff && i < s->flex[k].moff + s->flex[k].N) return s->flex[k].body;
    return 0;
}

const char *mt_block_name(const MtSystem *s, int k)
{
    const MtCBlock *b = &s->block[k];
    return b->kind == MT_BLOCK_JOINT ? s->model->joint[b->src].name
         : b->kind == MT_BLOCK_DRIVER ? s->model->driver[b->src].name : s->model->couple[b->src].name;
}

void mt_state_free(MtState *st)
{
    if (!st) return;
    free(st->q); free(st->u); free(st->acc); free(st->lambda); free(st->R); free(st->Jwinv);
    free(st->f); free(st->a0); free(st->G); free(st->W); free(st->g); free(st->gd); free(st->h); free(st->rhs); free(st->cont); free(st->chan); free(st->fdisc); free(st->fout);
    free(st->z); free(st->dz); free(st->cout); free(st->rowoff); free(st->fdisabled); free(st->sdisabled);
    free(st->cdisabled); free(st->efired); free(st->etime); free(st->eprev); free(st->enext); free(st->lockref); free(st->special);
    free(st->Gw); free(st->Ww); free(st->dlean); free(st->lean.blk); free(st->lean.row); free(st->lean.body); free(st->lean.mask); free(st->lean.ground); free(st->lean.im); free(st->lean.c); free(st->qn); free(st->dslot); free(st->fmat); free(st->fwork); free(st->fcache);
    mt_bchol_free(st->chol);
    mt_bchol_free(st->pre);
    free(st->pre_q);
    free(st->near);
    free(st->pair);
    free(st);
}

MtState *mt_state_new(const MtSystem *s, MtError *err)
{
    if (!s->assembled) {
        /* a caller's mistake, not the user's: not translated */
        mt_error_set(err, MT_ERR_ARG, "", "%s", "the system is compiled but not assembled (mt_system_assemble)");
        return NULL;
    }
    return mt_state_new_unassembled(s, err);
}

MtState *mt_state_new_unassembled(const MtSystem *s, MtError *err)
{
    MtState *st = calloc(1, sizeof *st);
    if (!st) goto nomem;
    st->sys = s;
    st->pivot_reg = MT_PIVOT_REG;
    size_t nb = (size_t)s->nbody + 1, nr = (size_t)s->nrow + 1, nk = (size_t)s->nblock + 1;
    size_t nq = (size_t)s->nq + 1, nu = (size_t)s->nu + 1;
    st->q = malloc(sizeof(double) * nq);
    st->u = malloc(sizeof(double) * nu);
    st->acc = calloc(nu, sizeof(double));
    st->lambda = calloc(nr, sizeof(double));
    st->R = malloc(sizeof(double) * 9 * nb);
    st->Jwinv = malloc(sizeof(double) * 9 * nb);
    st->f = calloc(nu, sizeof(double));
    st->a0 = calloc(nu, sizeof(double));
    st->Gw = calloc((size_t)s->ngw + 1, sizeof(double));
    st->Ww = calloc((size_t)s->ngw + 1, sizeof(double));
    st->fmat = calloc(s->nfmat + 1, sizeof(double));
    st->fwork = calloc(12 * (size_t)s->dmax + 1, sizeof(double));
    st->fcache = calloc(s->nfcache + 1, sizeof(double));
    if (!st->Gw || !st->Ww || !st->fmat || !st->fwork || !st->fcache) goto nomem;
    st->dlean = calloc(MT_LEAN * nk, sizeof(double)); /* row nblock: padding lanes write there */
    st->lean.blk = malloc(sizeof(int) * (nk + MT_LW));
    st->lean.row = malloc(sizeof(int) * (nk + MT_LW));
    st->lean.body = malloc(sizeof(int) * 2 * (nk + MT_LW));
    st->lean.mask = malloc(sizeof(long long) * 2 * (nk + MT_LW));
    st->lean.ground = malloc(nk / MT_LW + 1);
    st->lean.c = calloc(8 * (nk + MT_LW), sizeof(double));
    st->lean.im = calloc(2 * nk, sizeof(double));
    st->qn = calloc((size_t)s->nbody + 1, sizeof(double));
    if (!st->dlean || !st->lean.blk || !st->lean.row || !st->lean.body || !st->lean.mask || !st->lean.ground || !st->lean.c || !st->qn || !st->lean.im)
        goto nomem;
    st->G = calloc((size_t)s->ng + 1, sizeof(double));
    st->W = calloc((size_t)s->ng + 1, sizeof(double));
    st->cont = calloc(3 * nr, sizeof(double));
    st->chan = calloc((size_t)s->nchan + 3, sizeof(double));
    st->fdisc = calloc(2 * (size_t)s->model->nforce + 1, sizeof(double));
    st->fout = calloc(MT_FOUT * (size_t)s->model->nforce + 1, sizeof(double));
    st->g = calloc(nr, sizeof(double));
    st->gd = calloc(nr, sizeof(double));
    st->h = calloc(nr, sizeof(double));
    st->rhs = calloc(nr, sizeof(double));
    if (!st->q || !st->u || !st->acc || !st->lambda || !st->R || !st->Jwinv || !st->f || !st->a0 || !st->G ||
        !st->W || !st->g || !st->gd || !st->h || !st->rhs || !st->cont || !st->chan || !st->fdisc || !st->fout)
        goto nomem;
    memcpy(st->q, s->q0, sizeof(double) * (size_t)s->nq);
    memcpy(st->u, s->u0, sizeof(double) * (size_t)s->nu);
    int *size = malloc(sizeof(int) * nk);
    if (!size) goto nomem;
    for (int k = 0; k < s->nblock; k++) size[k] = s->block[k].nrow;
    st->chol = mt_bchol_new(s->nblock, size, s->nedge, s->edge, err);
    free(size);
    if (!st->chol) { mt_state_free(st); return NULL; }
    st->z = calloc((size_t)s->naux + 1, sizeof(double));
    st->dz = calloc((size_t)s->naux + 1, sizeof(double));
    st->cout = calloc(3 * (size_t)s->model->ncontrol + 1, sizeof(double));
    st->rowoff = calloc((size_t)s->nrow + 1, 1);
    st->fdisabled = calloc((size_t)s->model->nforce + 1, 1);
    st->sdisabled = calloc((size_t)s->model->nspring + 1, 1);
    st->cdisabled = calloc((size_t)s->model->ncontrol + 1, 1);
    st->efired = calloc((size_t)s->model->nevent + 1, 1);
    st->etime = calloc((size_t)s->model->nevent + 1, sizeof(double));
    st->eprev = calloc((size_t)s->model->nevent + 1, sizeof(double));
    st->enext = calloc((size_t)s->model->nevent + 1, sizeof(double));
    st->lockref = calloc((size_t)s->nrow + 1, sizeof(double));
    st->special = calloc((size_t)s->nrow + 1, 1);
    if (s->nspecial) st->near = calloc((size_t)s->nrow + 1, sizeof(int));
    if (!st->etime || !st->eprev || !st->enext || !st->lockref || !st->special) goto nomem;
    if (!st->z || !st->dz || !st->cout || !st->rowoff || !st->fdisabled || !st->sdisabled || !st->cdisabled || !st->efired)
        goto nomem;
    st->zcur = st->z;
    for (int k = 0; k < s->model->ncontrol; k++) st->cdisabled[k] = (unsigned char)s->model->control[k].disabled;
    for (int r = 0; r < s->nrow; r++) {
        st->rowoff[r] = (unsigned char)((s->dep && s->dep[r]) || (s->lockrow && s->lockrow[r]));
        mt_bchol_set_dependent(st->chol, r, st->rowoff[r]);
    }
    mt_state_init_lean(st);
    mt_state_init_coords(st);
    st->dslot = malloc(sizeof(double *) * (size_t)(s->nblock + 1));
    if (!st->dslot) goto nomem;
    for (int k = 0; k < s->nblock; k++) {
        int swap;
        st->dslot[k] = mt_bchol_block(st->chol, k, k, &swap);
    }
    /* Pairs: every (block, side) × (block, side) on a shared body, k != l. */
    int cap = s->nedge + 1;
    st->pair = malloc(sizeof(MtPair) * (size_t)cap);
    if (!st->pair) goto nomem;
    for (int e = 0; e < s->nedge; e++) {
        int k = s->edge[2 * e], l = s->edge[2 * e + 1], body = s->edge_body[e];
        int sk = 0, sl = 0;
        while (s->block[k].body[sk] != body) sk++;
        while (s->block[l].body[sl] != body) sl++;
        int swap;
        double *slot = mt_bchol_block(st->chol, k, l, &swap);
        int add = 0;
        for (int q = 0; q < st->npair; q++) add |= st->pair[q].slot == slot;
        int lean = s->block[k].lean && s->block[l].lean && !add;
        st->pair[st->npair++] = swap ? (MtPair){l, sl, k, sk, slot, add, lean} : (MtPair){k, sk, l, sl, slot, add, lean};
    }
    st->lean.pairs = 1;
    for (int p = 0; p < st->npair; p++) st->lean.pairs &= st->pair[p].lean;
    return st;
nomem:
    mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory creating the solver state"));
    mt_state_free(st);
    return NULL;
}
