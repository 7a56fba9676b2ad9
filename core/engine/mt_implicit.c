/* mt_implicit.c — fixed-step implicit integrators (docs/integrators.md):
 *
 *   euler   implicit (backward) Euler, order 1, L-stable;
 *   park    Park's stiffly stable 3-step method, order 2,
 *           ẏ_{n+1} ≈ (10 y_{n+1} − 15 y_n + 6 y_{n−1} − y_{n−2}) / (6h),
 *           started with BDF1 and BDF2 steps;
 *   hht     Hilber–Hughes–Taylor α on the second-order form, Newmark updates
 *           with β = (1−α)²/4, γ = 1/2 − α;
 *   galpha  generalised-α (Chung & Hulbert 1993) in the form of Arnold &
 *           Brüls (2007) for ODE-form dynamics, α_m, α_f, β, γ from ρ∞.
 *
 * The equations of motion are the ODE u̇ = f(t, q, u) (multipliers
 * eliminated, mt_eval), q̇ = (v, ½(0,ω)⊗p). Every method reduces its step to
 * 6·nbody unknowns z that determine q and u of the new step exactly:
 *
 *   euler, park  z = u_{n+1}. The formula on y = (q, u) reads
 *                y_{n+1} = ŷ + c·ẏ_{n+1} (ŷ from the history, c = β_k·h);
 *                its position part is solved for q in closed form given u
 *                (translation x = x̂ + c·v; quaternion (I − c/2·L(ω))·p = p̂,
 *                L(ω) = left multiplication by (0, ω), L² = −|ω|², so
 *                p = (p̂ + c/2·(0,ω)⊗p̂) / (1 + c²|ω|²/4)), then the quaternion
 *                is renormalised after the step like in the explicit methods.
 *   hht, galpha  z = v̇_{n+1}, the true acceleration f at the new step. The
 *                pseudo-acceleration a obeys
 *                (1−α_m)·a_{n+1} + α_m·a_n = (1−α_f)·v̇_{n+1} + α_f·v̇_n,
 *                HHT-α being α_m = 0, α_f = −α. Newmark gives the increments
 *                Δ = h·u_n + h²·((½−β)·a_n + β·a_{n+1}) and
 *                u_{n+1} = u_n + h·((1−γ)·a_n + γ·a_{n+1}); the rotation part of
 *                Δ is a rotation vector in project axes applied by the
 *                exponential map, p_{n+1} = exp(Δ_ω) ⊗ p_n (Lie-group Newmark,
 *                Brüls & Cardona 2010, with the spatial angular velocity), so
 *                quaternions stay unit and are never added component-wise.
 *
 * Newton on the residual r(z) (euler/park: z − û − c·f; hht/galpha: z − f)
 * with the matrix S = I − c_u·J_u − c_q·J_q, where J_u = ∂f/∂u and
 * J_q = ∂f/∂q (with respect to a translation and a rotation vector applied on
 * the left, like the updates) come from forward differences at the predicted
 * end of the step. After the multipliers are eliminated the acceleration of a
 * body depends on every body it is coupled to through constraints or force
 * elements, so the columns are grouped by coupled group: one evaluation
 * perturbs the same local coordinate of one body in every group at once, and
 * a Jacobian costs 1 + 12·(bodies of the largest group) evaluations; each
 * group's block of S is factored by LAPACK (dgetrf).
 *
 * J_u, J_q and the factorisation are reused across steps (modified Newton),
 * co-rotated with the bodies (solve): most of the change of J is the bodies
 * turning, and the Baumgarte terms make that part large. J is refreshed
 * before a step when the iterations wasted since the last refresh add up to
 * its cost, and within a step (at the current iterate: full Newton) when the
 * iteration diverges or converges too slowly; the factorisation is also
 * redone when c_u, c_q change (start-up of park, a shortened last step). The
 * iterate accepted is the last one evaluated, once its Newton correction is
 * below the tolerances (rtol·|v| + atol per body and kind of velocity), so
 * st->acc and st->lambda belong to the accepted state and frames need no
 * extra evaluation. Predictors: euler/park extrapolate the velocities,
 * hht/galpha the positions (predict_dx: stiff forces depend on positions).
 *
 * Integrated states besides q and u (control channels, the integrals of the
 * modified Lagrange loops, LuGre bristles: w, with ẇ = g(t, q, u, w)) join
 * the unknowns, and their bodies form one group: euler/park take w_{n+1}
 * itself (the same formula as y); hht/galpha take ẇ_{n+1} with w_{n+1} from
 * BDF2 (second order and L-stable like their numerical damping; BDF1 at the
 * start), so the Newton matrix keeps the form S = I − cu·J_u − cq·J_q −
 * cw·J_w over all rows, J_w = ∂(v̇, ẇ)/∂w.
 *
 * Events: after each step the crossing functions are compared at its two
 * ends; an event found in between is located on the step's cubic Hermite
 * interpolant (mt_ode_step_events), carried out, and the method restarts
 * from there (first-order start, fresh Jacobian) for what is left of the step.
 *
 * All work arrays are allocated once before the step loop. */
#include <lapacke.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "mt_events.h"
#include "mt_flex.h"
#include "mt_i18n.h"
#include "mt_implicit.h"
#include "mt_math.h"

enum { MAXIT = 10,  /* Newton iterations per Jacobian within a step */
       MAXREF = 3,  /* Jacobian refreshes within a step */
       SLOWIT = 6,   /* a step needing more iterations marks the Jacobian stale */
       MAXHALVE = 6 }; /* a grid step whose Newton iteration fails is split into up to 2^6 parts */

typedef struct {
    MtOde *o;
    const MtSolverSpec *sv;
    MtRunStats *stats;
    MtMethod method;
    int nb, nq, nu, n;
    int na, nz;          /* integrated states besides q and u (controls, loops, LuGre); unknowns nu + na */
    /* coupled groups of bodies; with na > 0 one group, whose unknowns end with the na states */
    int ncomp, maxm, maxd;
    int *cstart, *cbody; /* bodies of group c: cbody[cstart[c] .. cstart[c+1]) */
    int *gstart, *gdof;  /* velocity coordinates of group c (6 per body, then a flexible body's modes):
                          * gdof[gstart[c] .. gstart[c+1]), indices into u */
    size_t *moff, *soff; /* offsets of group c's blocks in Jq, Ju (gdim x nd) and in S (gdim x gdim) */
    double *Jq, *Ju, *Jw, *S; /* Jw: gdim x na, ∂(v̇, ż)/∂z of the states */
    lapack_int *piv;     /* gdim per group, in group order */
    double cu, cq, cw;   /* S = I − cu·Ju − cq·Jq − cw·Jw as factored; cu < 0: not factored */
    int have_jac, fresh, stale;
    int base, waste;     /* iterations of the first step reusing J; excess since */
    /* step data */
    double *z, *zp, *dz, *dzp, *w, *qs, *us, *qp, *up, *f0, *dl, *rhs;
    double *ws, *wp, *fw; /* states at the stage, perturbed, and their rate at step n (hht/galpha) */
    double *what, cb;     /* hht/galpha: the states by BDF2, w_{n+1} = what + cb·ẇ_{n+1} */
    double c;            /* euler/park: c = β_k·h of the current step; hht/galpha: its length */
    double *yh[4];       /* y_n, y_{n−1}, y_{n−2}, y_{n−3} */
    double *yhat;
    int nh;              /* history points held */
    double am, af, beta, gamma; /* hht/galpha */
    double *an, *fn, *anew, *du;
    double *R0, *dR;     /* nbody x 9: rotations at the Jacobian's configuration, turn since */
} Impl;

static const double SQEPS = 1.4901161193847656e-08; /* √(machine ε) */

/* Velocity coordinates of group c (6 per body, and the modes of flexible bodies). */
static int gnd(const Impl *im, int c) { return im->gstart[c + 1] - im->gstart[c]; }

/* Unknowns of group c: its velocity coordinates, then (group 0 only) the integrated states. */
static int gdim(const Impl *im, int c) { return gnd(im, c) + (c == 0 ? im->na : 0); }

/* First pivot of group c (group 0 holds the states' too). */
static int gpiv(const Impl *im, int c) { return im->gstart[c] + (c > 0 ? im->na : 0); }

/* ---- coupled groups --------------------------------------------------------- */

static int root(int *par, int b)
{
    while (par[b] != b) b = par[b] = par[par[b]];
    return b;
}

static void join(int *par, int a, int b)
{
    if (a < 0 || b < 0) return; /* the ground couples nothing */
    a = root(par, a);
    b = root(par, b);
    if (a != b) par[a > b ? a : b] = a < b ? a : b;
}

/* Moves body b of q by δ along local coordinate d: translation d < 3, else a
 * rotation about project axis d − 3 applied on the left (like the updates). */
static void perturb_q(double *q, int b, int d, double delta)
{
    double *qb = q + 7 * b;
    if (d < 3) { qb[d] += delta; return; }
    if (d >= 6) { q[d] += delta; return; } /* d ≥ 6: a modal coordinate, by its index in q */
    double v[3] = {0, 0, 0}, dr[4];
    v[d - 3] = delta;
    mt_quat_from_rotvec(dr, v);
    mt_quat_mul(qb + 3, dr, qb + 3);
}

/* Body and local coordinate of velocity coordinate k: (b, 0..5) for the rigid
 * ones, (b, index in q) for a modal one (perturb_q takes either). */
static int dof_local(const Impl *im, int k, int *d)
{
    if (k < 6 * im->nb) { *d = k % 6; return k / 6; }
    *d = 7 * im->nb + (k - 6 * im->nb);
    return mt_u_body(im->o->st->sys, k);
}

/* Restores what perturb_q changed for (b, d). */
static void restore_q(double *qp, const double *q, int b, int d)
{
    if (d >= 6) qp[d] = q[d];
    else memcpy(qp + 7 * b, q + 7 * b, sizeof(double) * 7);
}

/* Bodies joined by constraint blocks or springs form one group (par: union-
 * find over bodies). Couplings this does not know of (a force element
 * between two bodies, a force law reading another body's motion) are found
 * by check_groups before the run. */
static void join_structural(Impl *im, int *par)
{
    const MtSystem *s = im->o->st->sys;
    for (int b = 0; b < im->nb; b++) par[b] = b;
    for (int k = 0; k < s->nblock; k++) {
        const MtCBlock *bl = &s->block[k];
        int first = -1;
        for (int i = 0; i < bl->nside; i++)
            if (bl->body[i] >= 0) {
                if (first < 0) first = bl->body[i];
                else join(par, first, bl->body[i]);
            }
    }
    for (int k = 0; k < s->nspring; k++)
        join(par, s->mbody[s->model->spring[k].mi], s->mbody[s->model->spring[k].mj]);
    const MtModel *m = s->model;
    for (int k = 0; k < m->nforce; k++) { /* force elements couple their two bodies, even before they touch */
        const MtForceSpec *f = &m->force[k];
        int mi = f->joint >= 0 ? m->joint[f->joint].mi : f->mi, mj = f->joint >= 0 ? m->joint[f->joint].mj : f->mj;
        if (mi >= 0 && mj >= 0) join(par, s->mbody[mi], s->mbody[mj]);
    }
    if (s->nchan > 3 || im->na) /* expressions read channels of any body, states couple anything: one group */
        for (int b = 1; b < im->nb; b++) join(par, 0, b);
}

/* Lists the groups of par: cstart, cbody, moff, soff, maxm. gid: nbody ints
 * scratch. Returns the number of doubles enough for each of Jq, Ju and S. */
static size_t layout(Impl *im, int *par, int *gid)
{
    /* a group's root is its smallest body: number groups in that order */
    im->ncomp = 0;
    for (int b = 0; b < im->nb; b++) gid[b] = root(par, b) == b ? im->ncomp++ : gid[root(par, b)];
    if (im->na && im->ncomp == 0) im->ncomp = 1; /* no bodies: one group of the states alone */
    for (int c = 0; c <= im->ncomp; c++) im->cstart[c] = 0;
    for (int b = 0; b < im->nb; b++) im->cstart[gid[b] + 1]++;
    for (int c = 0; c < im->ncomp; c++) im->cstart[c + 1] += im->cstart[c];
    int *cur = im->cbody + im->nb; /* nb + 1 more ints of scratch after cbody */
    for (int c = 0; c < im->ncomp; c++) cur[c] = im->cstart[c];
    for (int b = 0; b < im->nb; b++) im->cbody[cur[gid[b]]++] = b;
    im->maxm = im->maxd = 0;
    const MtSystem *s = im->o->st->sys;
    int nd = 0;
    for (int c = 0; c < im->ncomp; c++) { /* the velocity coordinates of each group */
        im->gstart[c] = nd;
        for (int i = im->cstart[c]; i < im->cstart[c + 1]; i++) {
            int b = im->cbody[i];
            for (int k = 0; k < 6; k++) im->gdof[nd++] = 6 * b + k;
            int N = mt_body_modes(s, b);
            if (N) {
                int mo = 6 * im->nb + s->flex[s->bflex[b]].moff;
                for (int k = 0; k < N; k++) im->gdof[nd++] = mo + k;
            }
        }
    }
    im->gstart[im->ncomp] = nd;
    size_t off = 0, soff = 0;
    for (int c = 0; c < im->ncomp; c++) {
        int m = im->cstart[c + 1] - im->cstart[c];
        size_t g = (size_t)gdim(im, c);
        if (m > im->maxm) im->maxm = m;
        if (gnd(im, c) > im->maxd) im->maxd = gnd(im, c);
        im->moff[c] = off;
        im->soff[c] = soff;
        off += g * (size_t)gnd(im, c);
        soff += g * g;
    }
    return off > soff ? off : soff;
}

/* With more than one group: perturbs every coordinate and velocity of every
 * body once at (t, y) and joins the groups of any two bodies whose
 * accelerations respond to each other. Independent groups give bit-identical
 * accelerations (A = G·M⁻¹·Gᵀ is block diagonal over them), so any change is
 * a coupling. Costs 1 + 12·nbody evaluations, once per run. qp, up, f0: work. */
static MtStatus check_groups(Impl *im, int *par, double t, const double *y, MtError *err)
{
    MtState *st = im->o->st;
    const double *q = y, *u = y + im->nq;
    MtStatus rc = mt_eval(st, t, q, u, err);
    if (rc) return rc;
    memcpy(im->f0, st->acc, sizeof(double) * (size_t)im->nu);
    memcpy(im->qp, q, sizeof(double) * (size_t)im->nq);
    memcpy(im->up, u, sizeof(double) * (size_t)im->nu);
    const MtSystem *s = st->sys;
    for (int dof = 0; dof < im->nu; dof++)
        for (int pass = 0; pass < 2; pass++) {
            int d, b = dof_local(im, dof, &d);
            if (pass) im->up[dof] += 1e-6 * fmax(1.0, fabs(u[dof]));
            else perturb_q(im->qp, b, d, 1e-6 * ((d < 3 || d >= 6) ? fmax(1.0, fabs(q[d < 6 ? 7 * b + d : d])) : 1));
            if ((rc = mt_eval(st, t, im->qp, im->up, err))) return rc;
            for (int k = 0; k < im->nu; k++) {
                int bk = mt_u_body(s, k);
                if (st->acc[k] != im->f0[k] && root(par, bk) != root(par, b)) join(par, bk, b);
            }
            restore_q(im->qp, q, b, d);
            im->up[dof] = u[dof];
        }
    return MT_OK;
}

/* ---- Jacobian and Newton matrix ----------------------------------------------- */

/* Row r of a group's column: the acceleration of its velocity coordinates
 * gd, then (group 0) the rates of the integrated states; and its value f0 at
 * the Jacobian's point. */
static double group_row(const MtState *st, const int *gd, int nd, int r)
{
    return r < nd ? st->acc[gd[r]] : st->dz[r - nd];
}
static double group_f0(const Impl *im, const int *gd, int nd, int r)
{
    return r < nd ? im->f0[gd[r]] : im->f0[im->nu + r - nd];
}

/* J_q, J_u (and J_w of the integrated states) at (t, q, u, w) by grouped
 * forward differences. */
static MtStatus jacobian(Impl *im, double t, const double *q, const double *u, const double *w, MtError *err)
{
    MtState *st = im->o->st;
    st->zcur = w;
    MtStatus rc = mt_eval(st, t, q, u, err);
    if (rc) return rc;
    memcpy(im->f0, st->acc, sizeof(double) * (size_t)im->nu);
    if (im->na) memcpy(im->f0 + im->nu, st->dz, sizeof(double) * (size_t)im->na);
    memcpy(im->qp, q, sizeof(double) * (size_t)im->nq);
    memcpy(im->up, u, sizeof(double) * (size_t)im->nu);
    for (int pass = 0; pass < 2; pass++) { /* 0: positions, 1: velocities */
        double *J = pass ? im->Ju : im->Jq;
        for (int j = 0; j < im->maxd; j++) {
            for (int c = 0; c < im->ncomp; c++) {
                if (j >= gnd(im, c)) continue;
                int dof = im->gdof[im->gstart[c] + j], d, b = dof_local(im, dof, &d);
                if (pass) {
                    double x = u[dof], xp = x + SQEPS * fmax(1.0, fabs(x));
                    im->up[dof] = xp;
                    im->dl[c] = xp - x;
                } else {
                    int qi = d < 6 ? 7 * b + d : d;
                    double delta = (d < 3 || d >= 6) ? SQEPS * fmax(1.0, fabs(q[qi])) : SQEPS;
                    if (d < 3 || d >= 6) delta = (q[qi] + delta) - q[qi];
                    perturb_q(im->qp, b, d, delta);
                    im->dl[c] = delta;
                }
            }
            if ((rc = mt_eval(st, t, im->qp, im->up, err))) return rc;
            for (int c = 0; c < im->ncomp; c++) {
                int nd = gnd(im, c), g = gdim(im, c);
                if (j >= nd) continue;
                const int *gd = im->gdof + im->gstart[c];
                double *col = J + im->moff[c] + (size_t)j * (size_t)g, inv = 1 / im->dl[c];
                for (int r = 0; r < g; r++) col[r] = (group_row(st, gd, nd, r) - group_f0(im, gd, nd, r)) * inv;
                int dof = gd[j], d, b = dof_local(im, dof, &d);
                if (pass) im->up[dof] = u[dof];
                else restore_q(im->qp, q, b, d);
            }
        }
    }
    if (im->na) { /* the integrated states, one at a time (one group) */
        int nd = gnd(im, 0), g = gdim(im, 0);
        const int *gd = im->gdof + im->gstart[0];
        memcpy(im->wp, w, sizeof(double) * (size_t)im->na);
        st->zcur = im->wp;
        for (int k = 0; k < im->na; k++) {
            double x = w[k], xp = x + SQEPS * fmax(1.0, fabs(x)), inv = 1 / (xp - x);
            im->wp[k] = xp;
            if ((rc = mt_eval(st, t, q, u, err))) return rc;
            double *col = im->Jw + (size_t)k * (size_t)g;
            for (int r = 0; r < g; r++) col[r] = (group_row(st, gd, nd, r) - group_f0(im, gd, nd, r)) * inv;
            im->wp[k] = x;
        }
        st->zcur = w;
    }
    for (int b = 0; b < im->nb; b++) { /* the configuration of J, for co-rotation (solve) */
        double p[4] = {q[7 * b + 3], q[7 * b + 4], q[7 * b + 5], q[7 * b + 6]};
        mt_quat_normalize(p);
        mt_quat_to_m3(im->R0 + 9 * b, p);
    }
    im->stats->jacobians++;
    im->have_jac = 1;
    im->cu = -1; /* the factorisation is out of date */
    return MT_OK;
}

static MtStatus singular(const Impl *im, double t, double h, MtError *err)
{
    return mt_error_set(err, MT_ERR_SOLVE, "solver",
                        MT_("solver: %s: the Newton matrix is singular in the step from t = %.6g s (step %g s); "
                            "reduce the step"),
                        mt_method_name(im->method), t, h);
}

/* Factors S = I − cu·J_u − cq·J_q − cw·J_w, group by group. */
static MtStatus factor(Impl *im, double cu, double cq, double cw, double t, double h, MtError *err)
{
    for (int c = 0; c < im->ncomp; c++) {
        int n6 = gnd(im, c), g = gdim(im, c);
        double *S = im->S + im->soff[c];
        const double *Ju = im->Ju + im->moff[c], *Jq = im->Jq + im->moff[c];
        size_t nn = (size_t)n6 * (size_t)g;
        for (size_t k = 0; k < nn; k++) S[k] = -cu * Ju[k] - cq * Jq[k];
        for (size_t k = nn; k < (size_t)g * (size_t)g; k++) S[k] = -cw * im->Jw[k - nn]; /* group 0's state columns */
        for (int k = 0; k < g; k++) S[(size_t)k * (size_t)g + (size_t)k] += 1;
        lapack_int info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, g, g, S, g, im->piv + gpiv(im, c));
        if (info != 0) {
            im->cu = -1;
            return singular(im, t, h, err);
        }
    }
    im->cu = cu;
    im->cq = cq;
    im->cw = cw;
    im->stats->factorizations++;
    return MT_OK;
}

/* x ← S⁻¹ x (x: 6 per body, in body order, then the states) at the configuration q.
 * Co-rotation: most of the change of J between refreshes is the turning of
 * the bodies — the constraint directions, the lever arms of markers and the
 * inertia tensors turn with them (and the Baumgarte terms make those parts of
 * J large: Ωs² and 2ξsΩs). With ΔR_b = R_b(q)·R_b(q_J)ᵀ the turn of body b
 * since the Jacobian's configuration q_J, J(q) ≈ T·J(q_J)·Tᵀ where T applies
 * ΔR_b to both 3-vectors of body b; T is orthogonal, so
 * S(q)⁻¹ ≈ T·S(q_J)⁻¹·Tᵀ: the factorisation stays valid while the mechanism
 * turns, at O(nbody) cost per solve. (Gravity and other fixed-direction
 * terms do not turn, but they are the small part of J.) */
static void solve(Impl *im, double *x, const double *q)
{
    for (int b = 0; b < im->nb; b++) {
        double p[4] = {q[7 * b + 3], q[7 * b + 4], q[7 * b + 5], q[7 * b + 6]}, R[9], t[3];
        double *dR = im->dR + 9 * b;
        mt_quat_normalize(p);
        mt_quat_to_m3(R, p);
        mt_m3_mul_bt(dR, R, im->R0 + 9 * b);
        for (int k = 0; k < 2; k++) {
            mt_m3_tmulv(t, dR, x + 6 * b + 3 * k);
            mt_v3_copy(x + 6 * b + 3 * k, t);
        }
    }
    for (int c = 0; c < im->ncomp; c++) {
        int nd = gnd(im, c), g = gdim(im, c);
        const int *gd = im->gdof + im->gstart[c];
        for (int r = 0; r < g; r++) im->rhs[r] = r < nd ? x[gd[r]] : x[im->nu + r - nd];
        LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', g, 1, im->S + im->soff[c], g, im->piv + gpiv(im, c), im->rhs, g);
        for (int r = 0; r < g; r++) {
            if (r < nd) x[gd[r]] = im->rhs[r];
            else x[im->nu + r - nd] = im->rhs[r];
        }
    }
    for (int b = 0; b < im->nb; b++)
        for (int k = 0; k < 2; k++) {
            double t[3];
            mt_m3_mulv(t, im->dR + 9 * b, x + 6 * b + 3 * k);
            mt_v3_copy(x + 6 * b + 3 * k, t);
        }
}

/* ---- the methods' stage maps ---------------------------------------------------- */

static int is_lmm(const Impl *im) { return im->method == MT_METHOD_EULER_IMPLICIT || im->method == MT_METHOD_PARK; }

/* (qs, us) of the new step from the unknowns z. y = (q_n, u_n). */
static void stage(Impl *im, const double *y, const double *z)
{
    int nb = im->nb;
    if (is_lmm(im)) {
        const double *qh = im->yhat, c = im->c, k = 0.5 * c;
        for (int b = 0; b < nb; b++) {
            const double *v = z + 6 * b, *w = v + 3, *ph = qh + 7 * b + 3;
            double *qb = im->qs + 7 * b, wq[4] = {0, w[0], w[1], w[2]}, lp[4];
            for (int i = 0; i < 3; i++) qb[i] = qh[7 * b + i] + c * v[i];
            mt_quat_mul(lp, wq, ph);
            double den = 1 / (1 + k * k * mt_v3_dot(w, w));
            for (int i = 0; i < 4; i++) qb[3 + i] = (ph[i] + k * lp[i]) * den;
        }
        for (int i = 7 * nb, j = 6 * nb; i < im->nq; i++, j++) im->qs[i] = qh[i] + c * z[j]; /* modal */
        memcpy(im->us, z, sizeof(double) * (size_t)im->nu);
        if (im->na) memcpy(im->ws, z + im->nu, sizeof(double) * (size_t)im->na); /* the states are unknowns */
        return;
    }
    const double *q = y, *u = y + im->nq, h = im->c; /* hht/galpha keep the step in c */
    /* the states by BDF2 (the unknowns are their new rates) */
    const double *wd = z + im->nu;
    for (int k = 0; k < im->na; k++) im->ws[k] = im->what[k] + im->cb * wd[k];
    const double ka = (1 - im->af) / (1 - im->am);
    for (int j = 0; j < im->nu; j++) {
        double a1 = ka * z[j] + (im->af * im->fn[j] - im->am * im->an[j]) / (1 - im->am);
        im->anew[j] = a1;
        im->du[j] = h * u[j] + h * h * ((0.5 - im->beta) * im->an[j] + im->beta * a1);
        im->us[j] = u[j] + h * ((1 - im->gamma) * im->an[j] + im->gamma * a1);
    }
    for (int b = 0; b < nb; b++) {
        const double *d = im->du + 6 * b;
        double *qb = im->qs + 7 * b, dr[4];
        for (int i = 0; i < 3; i++) qb[i] = q[7 * b + i] + d[i];
        mt_quat_from_rotvec(dr, d + 3);
        mt_quat_mul(qb + 3, dr, q + 7 * b + 3);
    }
    for (int i = 7 * nb, j = 6 * nb; i < im->nq; i++, j++) im->qs[i] = q[i] + im->du[j]; /* modal */
}

/* Newton matrix coefficients (S = I − cu·Ju − cq·Jq − cw·Jw) and the norm
 * factors: velocity change per unit z, state change per unit of its unknown. */
static void coefficients(const Impl *im, double *cu, double *cq, double *cw, double *scale, double *scale_w)
{
    if (is_lmm(im)) {
        *cu = *cw = im->c;
        *cq = im->c * im->c;
        *scale = *scale_w = 1;
    } else {
        double h = im->c, ka = (1 - im->af) / (1 - im->am);
        *cu = ka * im->gamma * h;
        *cq = ka * im->beta * h * h;
        *scale = *cu;
        *cw = *scale_w = im->cb;
    }
}

/* J at the end-of-step state of z, and S factored. */
static MtStatus refresh(Impl *im, double t, double h, const double *y, const double *z, double cu, double cq,
                        double cw, MtError *err)
{
    stage(im, y, z);
    MtStatus rc = jacobian(im, t + h, im->qs, im->us, im->ws, err);
    if (!rc) rc = factor(im, cu, cq, cw, t, h, err);
    im->fresh = 1;
    im->stale = 0;
    im->waste = 0;
    return rc;
}

/* Solves the step from (t, y) to t + h for z, starting from the predictor
 * pred. Modified Newton with the reused J; when it converges slowly or
 * diverges, J is recomputed at the last good iterate and the iteration goes
 * on from there (full Newton, up to MAXREF times a step), which is what
 * strongly nonlinear stiff terms (a pre-tensioned stiff spring turning with
 * its bodies) need. On return the last mt_eval was at the accepted (qs, us). */
static MtStatus newton(Impl *im, double t, double h, const double *y, const double *pred, MtError *err)
{
    MtState *st = im->o->st;
    const double *u = y + im->nq;
    double cu, cq, cw, scale, scale_w;
    coefficients(im, &cu, &cq, &cw, &scale, &scale_w);
    /* weights per body and per kind (velocity, angular velocity): the same
     * tolerance for the three axes, so that no component is held to atol just
     * because it passes through zero in project axes; then one per state */
    for (int j = 0; j < 6 * im->nb; j += 3)
        im->w[j] = im->w[j + 1] = im->w[j + 2] = scale / (im->sv->atol + im->sv->rtol * mt_v3_norm(u + j));
    for (int j = 6 * im->nb; j < im->nu; j++) im->w[j] = scale / (im->sv->atol + im->sv->rtol * fabs(u[j])); /* modal */
    for (int k = 0; k < im->na; k++) im->w[im->nu + k] = scale_w / (im->sv->atol + im->sv->rtol * fabs(u[im->nu + k]));
    MtError e2 = {0};
    MtStatus rc;
    if (!im->have_jac || im->stale) {
        /* at the predicted end of the step: the constraint directions (and
         * the Baumgarte terms) turn with the motion within the step */
        if ((rc = refresh(im, t, h, y, pred, cu, cq, cw, err))) return rc;
    } else if (cu != im->cu || cq != im->cq || cw != im->cw) {
        if ((rc = factor(im, cu, cq, cw, t, h, err))) return rc;
    }
    memcpy(im->z, pred, sizeof(double) * (size_t)im->nz);
    double prev = 0;
    int nref = 0, kj = 0; /* refreshes in this step; iterations since the last one */
    for (;; kj++) {
        stage(im, y, im->z);
        im->stats->newton++;
        st->zcur = im->ws;
        int bad = mt_eval(st, t + h, im->qs, im->us, &e2) != MT_OK;
        double nrm = INFINITY;
        if (!bad) {
            /* −r(z), then the correction S⁻¹(−r) */
            if (is_lmm(im)) {
                const double *uh = im->yhat + im->nq; /* u, then the states */
                for (int j = 0; j < im->nu; j++) im->dz[j] = uh[j] + im->c * st->acc[j] - im->z[j];
                for (int k = 0; k < im->na; k++) im->dz[im->nu + k] = uh[im->nu + k] + im->c * st->dz[k] - im->z[im->nu + k];
            } else {
                for (int j = 0; j < im->nu; j++) im->dz[j] = st->acc[j] - im->z[j];
                for (int k = 0; k < im->na; k++) im->dz[im->nu + k] = st->dz[k] - im->z[im->nu + k];
            }
            solve(im, im->dz, im->qs);
            nrm = 0;
            for (int j = 0; j < im->nz; j++) nrm += (im->dz[j] * im->w[j]) * (im->dz[j] * im->w[j]);
            nrm = im->nz ? sqrt(nrm / im->nz) : 0;
            if (nrm <= 1) break; /* z is accepted as evaluated */
            if (!isfinite(nrm)) bad = 1;
        }
        /* diverging, or (from the third iteration on, when the rate is
         * meaningful) too slow to converge within MAXIT (Hairer & Wanner, §IV.8) */
        double th = kj > 0 ? nrm / prev : 0;
        if (bad || th >= 1 || kj == MAXIT - 1 || (kj > 1 && nrm * pow(th, MAXIT - 1 - kj) / (1 - th) > 1)) {
            if (nref == MAXREF || (bad && kj == 0)) goto fail;
            /* J anew at the current iterate: the stiff forces may have changed
             * by orders of magnitude since the Jacobian's point (a stretched
             * stiff spring relaxes within the step, and its geometric
             * stiffness, tension / length, goes with it); back to the last
             * iterate only when this one could not be evaluated */
            if (bad)
                for (int j = 0; j < im->nz; j++) im->z[j] -= im->dzp[j];
            if ((rc = refresh(im, t, h, y, im->z, cu, cq, cw, err))) return rc;
            nref++;
            kj = -1;
            continue;
        }
        memcpy(im->dzp, im->dz, sizeof(double) * (size_t)im->nz);
        for (int j = 0; j < im->nz; j++) im->z[j] += im->dz[j];
        prev = nrm;
    }
    /* Refresh policy across steps: a Jacobian costs 1 + 2·maxd + na evaluations.
     * The iterations a step needs beyond those of the first step that reused
     * the Jacobian (the one computed for a step is exact for that step only)
     * are waste; once the waste since the refresh adds up to the Jacobian's
     * cost, or a step needed SLOWIT iterations, J is refreshed before the
     * next step. */
    int its = kj + 1;
    if (im->fresh) im->base = 0;
    else if (im->base == 0) im->base = its > 2 ? its : 2;
    else if (its > im->base) im->waste += its - im->base;
    if (!im->fresh && (its > SLOWIT || im->waste >= 1 + 2 * im->maxd + im->na)) im->stale = 1;
    im->fresh = 0;
    return MT_OK;
fail:
    if (e2.code)
        return mt_error_set(err, MT_ERR_SOLVE, "solver",
                            MT_("solver: %s: the Newton iterations failed in the step from t = %.6g s (step %g s): %s; "
                                "reduce the step"),
                            mt_method_name(im->method), t, h, e2.msg);
    return mt_error_set(err, MT_ERR_SOLVE, "solver",
                        MT_("solver: %s: the Newton iterations did not converge in the step from t = %.6g s (step %g s); "
                            "reduce the step"),
                        mt_method_name(im->method), t, h);
}

/* ---- the step loop ------------------------------------------------------------ */

/* Sets yhat and c of a linear multistep step of length hh (h the regular
 * step) and the predictor of u_{n+1}. */
/* euler/park: u_{n+1} extrapolated from the history (Lagrange through
 * s = 0, −1, −2 at s = ω = hh/h). A velocity, not an acceleration: an
 * unresolved stiff oscillation keeps bounded velocities (and, through
 * q = q̂ + c·v, bounded position errors) but has accelerations of the order
 * ω²·amplitude. */
static void predict_u(const Impl *im, double om, double *pred)
{
    const double *u0 = im->yh[0] + im->nq, *u1 = im->yh[1] + im->nq, *u2 = im->yh[2] + im->nq;
    double l0 = 1, l1 = 0, l2 = 0;
    if (im->nh == 2) { l0 = 1 + om; l1 = -om; }
    else if (im->nh >= 3) { l0 = 0.5 * (om + 1) * (om + 2); l1 = -om * (om + 2); l2 = 0.5 * om * (om + 1); }
    for (int j = 0; j < im->nz; j++) pred[j] = l0 * u0[j] + l1 * u1[j] + l2 * u2[j]; /* u, then the states */
}

/* Rotation vector of the unit quaternion p (angle ≤ π). */
static void quat_log(double *v, const double *p)
{
    double s = mt_v3_norm(p + 1), w = p[0], sg = w < 0 ? -1 : 1;
    double a = 2 * atan2(s, fabs(w));
    double f = s > 1e-300 ? sg * a / s : 2 * sg;
    mt_v3_scale(v, p + 1, f);
}

/* Increment of a body's position (translation, rotation vector in project
 * axes) from history point a to history point b. */
static void increment(const Impl *im, int b, int from, int to, double *d)
{
    const double *qa = im->yh[from] + 7 * b, *qb = im->yh[to] + 7 * b;
    double pc[4] = {qa[3], -qa[4], -qa[5], -qa[6]}, r[4];
    for (int i = 0; i < 3; i++) d[i] = qb[i] - qa[i];
    mt_quat_mul(r, qb + 3, pc);
    quat_log(d + 3, r);
}

/* Increment of the positions from y_n to the end of the step, extrapolated
 * from the history by Newton's backward differences through s = 0, −1, −2, −3
 * (cubic: the velocity it implies is as accurate as a quadratic velocity
 * extrapolation); first step: constant velocity. */
static void predict_dx(const Impl *im, double om, double hh, const double *y, double *dx)
{
    double w1 = om, w2 = 0.5 * om * (om + 1), w3 = om * (om + 1) * (om + 2) / 6;
    for (int b = 0; b < im->nb; b++) {
        double *d = dx + 6 * b, d1[6], d2[6] = {0}, d3[6] = {0};
        if (im->nh == 1) {
            for (int i = 0; i < 6; i++) d[i] = hh * y[im->nq + 6 * b + i];
            continue;
        }
        increment(im, b, 1, 0, d1);
        if (im->nh >= 3) increment(im, b, 2, 1, d2);
        if (im->nh >= 4) increment(im, b, 3, 2, d3);
        for (int i = 0; i < 6; i++)
            d[i] = w1 * d1[i] + (im->nh >= 3 ? w2 * (d1[i] - d2[i]) : 0) +
                   (im->nh >= 4 ? w3 * (d1[i] - 2 * d2[i] + d3[i]) : 0);
    }
    for (int i = 7 * im->nb, j = 6 * im->nb; i < im->nq; i++, j++) { /* modal coordinates: plain differences */
        if (im->nh == 1) { dx[j] = hh * y[im->nq + j]; continue; }
        double e1 = im->yh[0][i] - im->yh[1][i], e2 = im->nh >= 3 ? im->yh[1][i] - im->yh[2][i] : 0,
               e3 = im->nh >= 4 ? im->yh[2][i] - im->yh[3][i] : 0;
        dx[j] = w1 * e1 + (im->nh >= 3 ? w2 * (e1 - e2) : 0) + (im->nh >= 4 ? w3 * (e1 - 2 * e2 + e3) : 0);
    }
}

static void lmm_setup(Impl *im, double h, double hh, double tend, double *pred)
{
    const double *y0 = im->yh[0], *y1 = im->yh[1], *y2 = im->yh[2];
    double om = hh / h;
    int n = im->n;
    /* a step shorter than the grid's (the last one, or cut at an event); hh = t0 + (i+1)·h − (t0 + i·h)
     * differs from h by the rounding of t (1e-11 of h at t = 6 s, h = 0.1 ms), which must not count:
     * it made Park fall back to BDF2 at most steps (period error 1.0e-7 instead of 2.8e-9) */
    int shortened = fabs(hh - h) > 1e-9 * h + 8 * DBL_EPSILON * fabs(tend);
    if (im->method == MT_METHOD_EULER_IMPLICIT || im->nh == 1) { /* BDF1 */
        memcpy(im->yhat, y0, sizeof(double) * (size_t)n);
        im->c = hh;
    } else if (im->nh == 2 || shortened) { /* BDF2, variable step (ω = hh/h) */
        double d = 1 / (1 + 2 * om), a0 = (1 + om) * (1 + om) * d, a1 = -om * om * d;
        for (int j = 0; j < n; j++) im->yhat[j] = a0 * y0[j] + a1 * y1[j];
        im->c = hh * (1 + om) * d;
    } else { /* Park: y_{n+1} = (15 y_n − 6 y_{n−1} + y_{n−2}) / 10 + (6/10) h ẏ_{n+1} */
        for (int j = 0; j < n; j++) im->yhat[j] = 1.5 * y0[j] - 0.6 * y1[j] + 0.1 * y2[j];
        im->c = 0.6 * hh;
    }
    predict_u(im, om, pred);
}

/* The Newmark parameters of HHT-α and generalised-α (none for the multistep methods). */
static MtStatus set_method(Impl *im, const MtSolverSpec *sv, MtError *err)
{
    switch (sv->method) {
    case MT_METHOD_HHT: /* α ∈ [−1/3, 0]: α_m = 0, α_f = −α */
        im->am = 0;
        im->af = -sv->hht_alpha;
        im->gamma = 0.5 - sv->hht_alpha;
        im->beta = 0.25 * (1 - sv->hht_alpha) * (1 - sv->hht_alpha);
        return MT_OK;
    case MT_METHOD_GALPHA: { /* Chung & Hulbert's optimal parameters for ρ∞ */
        double r = sv->rho_inf;
        im->am = (2 * r - 1) / (r + 1);
        im->af = r / (r + 1);
        im->gamma = 0.5 + im->af - im->am;
        im->beta = 0.25 * (im->gamma + 0.5) * (im->gamma + 0.5);
        return MT_OK;
    }
    case MT_METHOD_EULER_IMPLICIT:
    case MT_METHOD_PARK: return MT_OK;
    default: return mt_error_set(err, MT_ERR_ARG, "solver", MT_("solver: unknown method"));
    }
}

/* The work vectors, carved from p in one allocation; returns the rest of p. */
static double *carve_work(Impl *im, double *p)
{
    int nz = im->nz, nu = im->nu, na = im->na, nb = im->nb, nq = im->nq, n = im->n;
    im->z = p; p += nz;
    im->dz = p; p += nz;
    im->dzp = p; p += nz;
    im->w = p; p += nz;
    im->f0 = p; p += nz;
    im->rhs = p; p += nz;
    im->zp = p; p += nz;
    im->us = p; p += nu;
    im->up = p; p += nu;
    im->an = p; p += nu;
    im->fn = p; p += nu;
    im->anew = p; p += nu;
    im->du = p; p += nu;
    im->dl = p; p += nu; /* one per group */
    im->ws = p; p += na;
    im->wp = p; p += na;
    im->fw = p; p += na;
    im->what = p; p += na;
    im->R0 = p; p += 9 * nb;
    im->dR = p; p += 9 * nb;
    im->qs = p; p += nq;
    im->qp = p; p += nq;
    for (int k = 0; k < 4; k++) { im->yh[k] = p; p += n; }
    im->yhat = p; p += n;
    return p;
}

/* Predictor of HHT-α and generalised-α for a step hh (grid step h) from y. */
static void newmark_setup(Impl *im, double h, double hh, const double *y, double *zp)
{
    int nq = im->nq, nu = im->nu, na = im->na;
    im->c = hh;
    const double ka = (1 - im->af) / (1 - im->am), *un = y + nq;
    /* the v̇_{n+1} whose Newmark update gives the predicted increment
     * of the positions: stiff forces depend on the positions, and an
     * unresolved oscillation has accelerations of order ω²·amplitude,
     * so predicting the velocity (or the acceleration) instead would
     * let the huge (½−β)·h²·a_n term move the predicted positions by
     * far more than the amplitude (and, with a stiff spring under
     * tension turning with its bodies, out of Newton's reach) */
    predict_dx(im, hh / h, hh, y, zp);
    for (int j = 0; j < nu; j++) {
        double a1 = (zp[j] - hh * un[j] - hh * hh * (0.5 - im->beta) * im->an[j]) / (hh * hh * im->beta);
        zp[j] = (a1 - (im->af * im->fn[j] - im->am * im->an[j]) / (1 - im->am)) / ka;
    }
    /* the states (controls, loops, bristles) by BDF2, L-stable like the
     * numerical damping of these methods (BDF1 at the start and after
     * an event; variable step for a shortened step, ω = hh/h) */
    const double *w0 = y + nq + nu, *w1 = im->yh[1] + nq + nu;
    double om = hh / h, dd = 1 / (1 + 2 * om);
    im->cb = im->nh >= 2 ? hh * (1 + om) * dd : hh;
    for (int k = 0; k < na; k++)
        im->what[k] = im->nh >= 2 ? (1 + om) * (1 + om) * dd * w0[k] - om * om * dd * w1[k] : w0[k];
    if (na) memcpy(zp + nu, im->fw, sizeof(double) * (size_t)na); /* their rates: as at step n */
}

/* Newton's solution into y; for the Newmark methods also a_n and f_n. */
static void take_solution(Impl *im, double *y)
{
    int nq = im->nq, nu = im->nu, na = im->na;
    memcpy(y, im->qs, sizeof(double) * (size_t)nq);
    memcpy(y + nq, im->us, sizeof(double) * (size_t)nu);
    if (na) memcpy(y + nq + nu, im->ws, sizeof(double) * (size_t)na);
    if (!is_lmm(im)) {
        memcpy(im->an, im->anew, sizeof(double) * (size_t)nu);
        memcpy(im->fn, im->z, sizeof(double) * (size_t)nu);
        if (na) memcpy(im->fw, im->z + nu, sizeof(double) * (size_t)na);
    }
}

/* The accepted y into the history y_n … y_{n−3}. */
static void push_history(Impl *im, const double *y, int cut)
{
    double *tmp = im->yh[3];
    im->yh[3] = im->yh[2];
    im->yh[2] = im->yh[1];
    im->yh[1] = im->yh[0];
    im->yh[0] = tmp;
    memcpy(im->yh[0], y, sizeof(double) * (size_t)im->n);
    if (im->nh < 4) im->nh++;
    if (cut) im->nh = 1; /* the history of a cut step is not on the grid: start afresh */
    im->stats->steps++;
}

/* After an event changed the state at y: the methods start afresh there. */
static void restart(Impl *im, const double *y)
{
    MtState *st = im->o->st;
    memcpy(im->yh[0], y, sizeof(double) * (size_t)im->n);
    im->nh = 1;
    memcpy(im->an, st->acc, sizeof(double) * (size_t)im->nu); /* mt_deriv evaluated the state after the event */
    memcpy(im->fn, st->acc, sizeof(double) * (size_t)im->nu);
    if (im->na) memcpy(im->fw, st->dz, sizeof(double) * (size_t)im->na);
    im->stale = 1;
}

MtStatus mt_run_implicit(MtOde *o, double *y, const MtSolverSpec *sv, MtFrameFn fn, void *user,
                         const volatile int *cancel, MtRunStats *stats, MtError *err)
{
    MtState *st = o->st;
    MtRunStats local;
    memset(&local, 0, sizeof local);
    Impl im = {0};
    im.o = o;
    im.sv = sv;
    im.stats = stats ? stats : &local;
    im.method = sv->method;
    im.nb = st->sys->nbody;
    im.nq = o->nq;
    im.nu = o->nu;
    im.n = o->n;
    im.cu = -1;
    MtStatus rc = set_method(&im, sv, err);
    if (rc) return rc;
    /* work arrays, all allocated here */
    int nb = im.nb, nu = im.nu, nq = im.nq, n = im.n, na = st->sys->naux, nz = nu + na;
    im.na = na;
    im.nz = nz;
    int *par = calloc((size_t)(2 * nb + 2), sizeof(int));
    im.cstart = calloc((size_t)nb + 2, sizeof(int));
    im.cbody = calloc((size_t)(2 * nb + 2), sizeof(int));
    im.gstart = calloc((size_t)nb + 3, sizeof(int));
    im.gdof = calloc((size_t)nu + 1, sizeof(int));
    im.moff = calloc((size_t)nb + 2, sizeof(size_t));
    im.soff = calloc((size_t)nb + 2, sizeof(size_t));
    im.piv = calloc((size_t)nz + 1, sizeof(lapack_int));
    double *jw = NULL, *vw = calloc((size_t)10 * (size_t)nu + 7 * (size_t)nz + 4 * (size_t)na + 2 * (size_t)nq +
                                        10 * (size_t)n + 18 * (size_t)nb + 1,
                                    sizeof(double));
    if (!par || !im.cstart || !im.cbody || !im.gstart || !im.gdof || !im.moff || !im.soff || !im.piv || !vw) {
        rc = mt_error_set(err, MT_ERR_NOMEM, "", MT_("out of memory for the integrator"));
        goto done;
    }
    double *p = carve_work(&im, vw);
    /* events: the step's start (state, derivative), its end's derivative, the event state, scratch */
    double *ya = p, *d0 = ya + n, *d1 = d0 + n, *ye = d1 + n, *sc = ye + n;
    /* coupled groups for the grouped finite differences, then the Jacobians */
    join_structural(&im, par);
    size_t nj = layout(&im, par, par + nb + 1);
    if (im.ncomp > 1) {
        if ((rc = check_groups(&im, par, st->t, y, err))) goto done;
        nj = layout(&im, par, par + nb + 1);
    }
    size_t njw = na ? (size_t)gdim(&im, 0) * (size_t)na : 0;
    if (!(jw = calloc(3 * nj + njw + 1, sizeof(double)))) {
        rc = mt_error_set(err, MT_ERR_NOMEM, "", MT_("out of memory for the integrator"));
        goto done;
    }
    im.Jq = jw;
    im.Ju = jw + nj;
    im.S = jw + 2 * nj;
    im.Jw = jw + 3 * nj;
    double t0 = st->t, h = sv->step;
    long nsteps = (long)ceil((sv->until - t0) / h - 1e-9);
    if (nsteps < 0) nsteps = 0;
    int stop = 0, need_eval = sv->correct, events = st->sys->model->nevent > 0;
    /* the initial acceleration: a_0 = v̇_0 for hht/galpha, and frame 0 */
    st->zcur = y + nq + nu;
    rc = mt_eval(st, t0, y, y + nq, err);
    st->zcur = st->z;
    if (rc) goto done;
    memcpy(im.fn, st->acc, sizeof(double) * (size_t)nu);
    memcpy(im.an, st->acc, sizeof(double) * (size_t)nu);
    if (na) memcpy(im.fw, st->dz, sizeof(double) * (size_t)na);
    memcpy(im.yh[0], y, sizeof(double) * (size_t)n);
    im.nh = 1;
    if ((rc = mt_ode_emit(o, t0, y, fn, user, stats, &stop, 0, err))) goto done;
    if (events) {
        if ((rc = mt_deriv(st, t0, y, d0, err))) goto done;
        mt_events_sample(st);
    }
    for (long i = 0; i < nsteps && !stop && !(cancel && *cancel); i++) {
        double ts = t0 + (double)i * h, tend = (i == nsteps - 1) ? sv->until : t0 + (double)(i + 1) * h;
        int cut = 0;   /* an event or a failed Newton iteration cut this grid step */
        int halve = 0; /* the grid step is taken in 2^halve parts after Newton failed */
        for (;;) {     /* the grid step, or what is left of it after an event or a cut */
            double hh = tend - ts, te = tend;
            if (halve) { /* a part of the grid step: restart there like after an event */
                hh = fmin(hh, h / (double)(1 << halve));
                if (tend - ts - hh > 1e-14 * fmax(1.0, fabs(tend))) te = ts + hh;
                else hh = tend - ts;
            }
            double *zp = im.zp; /* predictor */
            if (is_lmm(&im)) lmm_setup(&im, h, hh, te, zp);
            else newmark_setup(&im, h, hh, y, zp);
            if (events) memcpy(ya, y, sizeof(double) * (size_t)n);
            rc = newton(&im, ts, hh, y, zp, err);
            st->zcur = st->z;
            if (rc == MT_ERR_SOLVE && halve < MAXHALVE) {
                /* Newton failed: the step is split (the methods restart at
                 * its start, first order, fresh Jacobian), as an engineer
                 * would shorten it by hand — near a singular position the
                 * Newton matrix of a full step may not reach the solution */
                halve++;
                im.stats->rejected++;
                cut = 1;
                st->zcur = y + nq + nu;
                rc = mt_eval(st, ts, y, y + nq, err); /* the step's start again, for a_n = v̇_n */
                st->zcur = st->z;
                if (rc) goto done;
                restart(&im, y);
                continue;
            }
            if (rc) goto done;
            take_solution(&im, y);
            if ((rc = mt_ode_settle(o, te, y, sv, err))) goto done;
            push_history(&im, y, cut);
            if (events) {
                /* the crossing functions at the part's end, and the derivative there for the interpolant */
                if ((rc = mt_deriv(st, te, y, d1, err))) goto done;
                double tb = te;
                int hit = mt_ode_step_events(o, ts, ya, d0, &tb, y, d1, sv, fn, user, stats, &stop, err, ye, sc, &rc);
                if (rc) goto done;
                memcpy(d0, d1, sizeof(double) * (size_t)n);
                if (hit) {
                    /* an event at tb changed the state (or the equations): the methods restart there */
                    restart(&im, y);
                    cut = 1;
                    ts = tb;
                    if (stop || tend - ts < 1e-14 * fmax(1.0, fabs(tend))) break;
                    continue;
                }
                mt_events_sample(st);
            }
            if (te >= tend) break;
            ts = te; /* the next part */
        }
        if (stop) break;
        if ((i + 1) % sv->every == 0 || i + 1 == nsteps)
            if ((rc = mt_ode_emit(o, tend, y, fn, user, stats, &stop, need_eval || events, err))) goto done;
    }
done:
    st->zcur = st->z;
    free(jw);
    free(vw);
    free(par);
    free(im.cstart);
    free(im.cbody);
    free(im.gstart);
    free(im.gdof);
    free(im.moff);
    free(im.soff);
    free(im.piv);
    return rc;
}
