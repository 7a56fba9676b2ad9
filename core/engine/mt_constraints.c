/* mt_constraints.c — constraint rows of every block at one state: Jacobian
 * rows G per side (linear then angular, project axes, for the velocity of the
 * centre of mass and the angular velocity), violation g, its rate
 * ġ = G u − ḟ, the velocity terms h (g̈ = G u̇ + h) and W = M⁻¹Gᵀ.
 * Primitives (i: marker on the moving body, j: on the base):
 *   SPH    p_i − p_j = 0                                  3 rows
 *   DOT    a_j · b_i = 0                                  axes perpendicular
 *   TRANS  a_j · (p_i − p_j) = 0
 *   DIST   |p_i − p_j| = L
 *   COORD  Σ c_k (x_k − ref_k) = f(t)                     joint coordinates: angle
 *          about or displacement along an axis of j; drivers, gears, couplers
 *   ROLL   disk of radius R (centre p_i, axis z_i) touches the plane (p_j, z_j)
 *          and its contact point does not slip (2 velocity-level rows).
 * Lean blocks (a lone SPH) have their own compact rows (lean_block_rows, the
 * reference of the row kernel in mt_kernels.c). Declared in mt_system.h. */
#include <string.h>

#include "mt_expr.h"
#include "mt_flex.h"
#include "mt_forces.h"
#include "mt_kin.h"
#include "mt_kernels.h"

/* ---- driver laws ---------------------------------------------------------- */

static void law(const MtCBlock *b, double t, double *f, double *fd, double *fdd)
{
    const double *c = b->coef;
    switch (b->law) {
    case MT_DRIVER_HARMONIC: {
        double ph = c[1] * t + c[2];
        *f = c[0] * sin(ph) + c[3];
        *fd = c[0] * c[1] * cos(ph);
        *fdd = -c[0] * c[1] * c[1] * sin(ph);
        return;
    }
    case MT_DRIVER_STEP: { /* cubic smooth step c1 → c3 over [c0, c2] */
        if (t <= c[0] || t >= c[2]) {
            *f = t <= c[0] ? c[1] : c[3];
            *fd = *fdd = 0;
            return;
        }
        double T = c[2] - c[0], x = (t - c[0]) / T, dh = c[3] - c[1];
        *f = c[1] + dh * x * x * (3 - 2 * x);
        *fd = dh * 6 * x * (1 - x) / T;
        *fdd = dh * 6 * (1 - 2 * x) / (T * T);
        return;
    }
    case MT_DRIVER_TABLE: { /* natural cubic spline; held constant outside the table, its own slopes at the end points */
        const double *p = b->tab, *M = b->spl;
        int n = b->ntab;
        if (t < p[0] || t > p[2 * n - 2]) {
            *f = t <= p[0] ? p[1] : p[2 * n - 1];
            *fd = *fdd = 0;
            return;
        }
        int lo = 0, hi = n - 1;
        while (hi - lo > 1) { /* the interval [lo, hi] holding t; the last one at t = its end */
            int mid = (lo + hi) / 2;
            if (p[2 * mid] <= t) lo = mid; else hi = mid;
        }
        double h = p[2 * hi] - p[2 * lo], A = (p[2 * hi] - t) / h, B = (t - p[2 * lo]) / h;
        double y0 = p[2 * lo + 1], y1 = p[2 * hi + 1], M0 = M[lo], M1 = M[hi];
        *f = A * y0 + B * y1 + ((A * A * A - A) * M0 + (B * B * B - B) * M1) * h * h / 6;
        *fd = (y1 - y0) / h - (3 * A * A - 1) / 6 * h * M0 + (3 * B * B - 1) / 6 * h * M1;
        *fdd = A * M0 + B * M1;
        return;
    }
    case MT_DRIVER_EXPR: { /* exact derivatives along time (slot 0) */
        double j[3];
        mt_expr_eval_jet(b->lawx, b->lawv, 0, t, j);
        *f = j[0]; *fd = j[1]; *fdd = j[2];
        return;
    }
    default: { /* POLY and RATE: Σ c_k t^k */
        double v = 0, d = 0, dd = 0;
        for (int k = b->ncoef - 1; k >= 0; k--) {
            dd = dd * t + 2 * d;
            d = d * t + v;
            v = v * t + c[k];
        }
        *f = v; *fd = d; *fdd = dd;
    }
    }
}

static double wrap(double a) { return a - 2 * M_PI * floor((a + M_PI) / (2 * M_PI)); }

/* ---- joint coordinates ---------------------------------------------------- */

/* Value (angle in (−π, π] or displacement), Jacobian rows for the i and j
 * sides and velocity term h of one coordinate. */
static double term_eval(const MtTerm *t, const MtMk *I, const MtMk *J, double *gi, double *gj, double *h, double *rate)
{
    const double *a = J->ax[t->axis];
    if (t->angle) {
        int u = (t->axis + 1) % 3, v = (t->axis + 2) % 3;
        double th = atan2(mt_v3_dot(J->ax[v], I->ax[u]), mt_v3_dot(J->ax[u], I->ax[u]));
        double wd[3], ad[3];
        mt_v3_sub(wd, I->w, J->w);
        mt_v3_cross(ad, J->w, a);
        for (int k = 0; k < 3; k++) { gi[k] = 0; gj[k] = 0; gi[3 + k] = a[k]; gj[3 + k] = -a[k]; }
        *h = mt_v3_dot(ad, wd);
        *rate = mt_v3_dot(a, wd);
        return th;
    }
    double d[3], dj[3], ad[3], add[3], dd[3], t1[3], t2[3], ddd[3];
    mt_v3_sub(d, I->p, J->p);
    mt_v3_add(dj, d, J->r);
    mt_v3_cross(gj + 3, a, dj);
    mt_v3_cross(gi + 3, I->r, a);
    for (int k = 0; k < 3; k++) { gi[k] = a[k]; gj[k] = -a[k]; }
    mt_v3_cross(ad, J->w, a);
    mt_v3_cross(add, J->w, ad);
    mt_v3_sub(dd, I->vp, J->vp);
    mt_v3_cross(t1, I->wb, I->r); mt_v3_cross(t1, I->wb, t1);
    mt_v3_cross(t2, J->wb, J->r); mt_v3_cross(t2, J->wb, t2);
    mt_v3_sub(ddd, t1, t2);
    *h = mt_v3_dot(add, d) + 2 * mt_v3_dot(ad, dd) + mt_v3_dot(a, ddd);
    *rate = mt_v3_dot(ad, d) + mt_v3_dot(a, dd);
    return mt_v3_dot(a, d);
}

void mt_state_init_coords(MtState *st);

double mt_term_value(const MtState *st, const double *q, const MtTerm *t)
{
    MtMk I, J;
    double gi[6], gj[6], h, rate;
    mt_marker_eval(st, q, st->u, t->mi, &I);
    mt_marker_eval(st, q, st->u, t->mj, &J);
    return term_eval(t, &I, &J, gi, gj, &h, &rate);
}

/* Continuous value from the last committed one (angles count turns). */
static double continuous(const MtTerm *t, double raw, double prev)
{
    return t->angle ? prev + wrap(raw - prev) : raw;
}

static void eval_coords(MtState *st, const double *q, const double *u, int commit)
{
    const MtSystem *s = st->sys;
    for (int k = 0; k < s->nblock; k++) {
        const MtCBlock *b = &s->block[k];
        int r = b->row0;
        for (int p = 0; p < b->nprim; p++) {
            const MtPrim *pr = &b->prim[p];
            if (pr->kind != MT_PRIM_COORD) {
                r += (pr->kind == MT_PRIM_SPH || pr->kind == MT_PRIM_ROLL) ? 3 : 1;
                continue;
            }
            for (int t = 0; t < pr->nterm; t++) {
                MtMk I, J;
                double gi[6], gj[6], h, rate;
                mt_marker_eval(st, q, u, pr->term[t].mi, &I);
                mt_marker_eval(st, q, u, pr->term[t].mj, &J);
                double raw = term_eval(&pr->term[t], &I, &J, gi, gj, &h, &rate);
                st->cont[3 * r + t] = commit ? continuous(&pr->term[t], raw, st->cont[3 * r + t]) : raw;
            }
            r++;
        }
    }
}

void mt_state_init_coords(MtState *st)
{
    mt_stage_bodies(st, st->q);
    eval_coords(st, st->q, st->u, 0);
    memset(st->fdisc, 0, sizeof(double) * 2 * (size_t)st->sys->model->nforce);
    mt_forces_commit(st);
}

void mt_state_commit(MtState *st)
{
    if (!st->sys->commit_kin) return; /* nothing counts turns: spare a body pass per step */
    mt_stage_bodies(st, st->q);
    eval_coords(st, st->q, st->u, 1);
    mt_forces_commit(st);
}

/* ---- rows ----------------------------------------------------------------- */

static void set_row(double *Gi, double *Gj, const double *li, const double *ai, const double *lj, const double *aj)
{
    for (int k = 0; k < 3; k++) {
        Gi[k] = li ? li[k] : 0; Gi[3 + k] = ai ? ai[k] : 0;
        Gj[k] = lj ? lj[k] : 0; Gj[3 + k] = aj ? aj[k] : 0;
    }
}

/* A disk (axle z_i) or a sphere of radius R, centre p_i, rolling without slip
 * on the plane through p_j normal to n = z_j; the plane's body may move. P =
 * p_i − R k is the contact point (sphere: k = n; disk: k the unit vector of
 * the disk's plane nearest n). Rows along e = n, x_j, y_j: the relative
 * velocity of the two bodies' material points at P, e·(v_i(P) − v_j(P)).
 * The first is the rate of the height g = n·(P − p_j) (holonomic); the
 * other two are the no-slip rows (velocity level). h = (d/dt of the rows)·u:
 * ė·Δv + e·(ω_i × (Ṗ − v_i) − ω_j × (Ṗ − v_j)), Ṗ the rate of the contact point. */
static void roll_rows(const MtMk *I, const MtMk *J, double R, int sphere, double *Gi, double *Gj, double *g, double *gd,
                      double *h)
{
    const double *n = J->ax[2], *wi = I->w, *wj = J->w;
    double nd[3], k[3], kd[3];
    mt_v3_cross(nd, wj, n); /* ṅ */
    if (sphere) {
        mt_v3_copy(k, n);
        mt_v3_copy(kd, nd);
    } else {
        const double *a = I->ax[2];
        double na = mt_v3_dot(n, a), ad[3], w[3], wd[3];
        mt_v3_cross(ad, wi, a); /* ȧ */
        mt_v3_copy(w, n);
        mt_v3_axpy(w, -na, a);
        double wn2 = mt_v3_dot(w, w), wl = sqrt(wn2 > 1e-24 ? wn2 : 1e-24); /* a disk lying flat has no contact point */
        mt_v3_scale(k, w, 1 / wl);
        double nad = mt_v3_dot(nd, a) + mt_v3_dot(n, ad); /* d/dt (n·a) */
        mt_v3_copy(wd, nd);                               /* ẇ = ṅ − (n·a)˙ a − (n·a) ȧ */
        mt_v3_axpy(wd, -nad, a);
        mt_v3_axpy(wd, -na, ad);
        mt_v3_copy(kd, wd); /* k̇ = (ẇ − k (k·ẇ)) / |w| */
        mt_v3_axpy(kd, -mt_v3_dot(k, wd), k);
        mt_v3_scale(kd, kd, 1 / wl);
    }
    double ci[3], cj[3], P[3], Pd[3], vi[3], vj[3], dv[3], ai[3], aj[3], t[3];
    mt_v3_copy(P, I->p);
    mt_v3_axpy(P, -R, k);
    mt_v3_copy(ci, I->r); /* P − centre of mass of i */
    mt_v3_axpy(ci, -R, k);
    mt_v3_sub(cj, P, J->p); /* P − centre of mass of j (ground: P) */
    mt_v3_add(cj, cj, J->r);
    mt_v3_copy(Pd, I->vp);
    mt_v3_axpy(Pd, -R, kd);
    mt_v3_cross(vi, wi, ci);
    mt_v3_add(vi, vi, I->v);
    mt_v3_cross(vj, wj, cj);
    mt_v3_add(vj, vj, J->v);
    mt_v3_sub(dv, vi, vj);
    mt_v3_sub(t, Pd, I->v);
    mt_v3_cross(ai, wi, t);
    mt_v3_sub(t, Pd, J->v);
    mt_v3_cross(aj, wj, t);
    mt_v3_sub(ai, ai, aj);
    for (int r = 0; r < 3; r++) {
        const double *e = J->ax[r == 0 ? 2 : r - 1];
        double ed[3], ri[3], rj[3], me[3] = {-e[0], -e[1], -e[2]};
        mt_v3_cross(ed, wj, e);
        mt_v3_cross(ri, ci, e);
        mt_v3_cross(rj, e, cj);
        set_row(Gi + 6 * r, Gj + 6 * r, e, ri, me, rj);
        gd[r] = mt_v3_dot(e, dv);
        h[r] = mt_v3_dot(ed, dv) + mt_v3_dot(e, ai);
    }
    mt_v3_sub(t, P, J->p);
    g[0] = mt_v3_dot(n, t);
    g[1] = g[2] = 0;
}

/* Lean spherical blocks: G = σ[I, −[r]×] and W = M⁻¹Gᵀ = [σ/m I, σ J⁻¹(r × e_a)] per side
 * (σ = +1 on side 0, −1 on side 1). The identity and zero entries and W's
 * linear part never change: they are written once here, and each evaluation
 * rewrites the six r entries of G and the angular part of W only. Also puts
 * the lean blocks in lanes (groups of MT_LW) for the row kernel. */
void mt_state_init_lean(MtState *st)
{
    const MtSystem *s = st->sys;
    int n = 0;
    for (int k = 0; k < s->nblock; k++) {
        const MtCBlock *b = &s->block[k];
        if (!b->lean) continue;
        for (int sd = 0; sd < 2; sd++) {
            double *G = mt_state_G(st, k, sd), *W = mt_state_W(st, k, sd), sg = sd ? -1 : 1;
            double im = b->body[sd] >= 0 ? sg / s->mass[b->body[sd]] : 0;
            memset(G, 0, sizeof(double) * 18);
            memset(W, 0, sizeof(double) * 18);
            for (int a = 0; a < 3; a++) { G[6 * a + a] = sg; W[6 * a + a] = im; }
            st->dlean[MT_LEAN * k + 30 + sd] = im;
            st->lean.im[2 * k + sd] = im;
        }
        st->lean.blk[n++] = k;
    }
    st->lean.n = n;
    st->lean.alldiag = !s->nflex;
    for (int b = 0; b < s->nbody; b++) st->lean.alldiag &= mt_inertia_diagonal(s, b);
    st->lean.chain = !s->nflex && n == s->nblock && n == s->nbody;
    for (int i = 0; i < n && st->lean.chain; i++) {
        const MtCBlock *b = &s->block[st->lean.blk[i]];
        st->lean.chain = b->body[0] == i && (i ? b->body[1] == i - 1 : b->body[1] < 0);
    }
    for (int i = 0; i < (n + MT_LW - 1) / MT_LW * MT_LW; i++) {
        int g = i / MT_LW, l = i % MT_LW, pad = i >= n;
        const MtCBlock *b = &s->block[st->lean.blk[pad ? i - l : i]]; /* padding repeats lane 0 */
        double *c = st->lean.c + 8 * MT_LW * g + l;
        if (pad) st->lean.blk[i] = s->nblock;
        st->lean.row[i] = pad ? -1 : b->row0;
        if (l == 0) st->lean.ground[g] = 0;
        for (int sd = 0; sd < 2; sd++) {
            const double *pos = s->mpos + 3 * (sd ? b->mj : b->mi);
            for (int a = 0; a < 3; a++) c[MT_LW * (3 * sd + a)] = pos[a];
            c[MT_LW * (6 + sd)] = st->dlean[MT_LEAN * (b - s->block) + 30 + sd];
            /* a ground side reads the other side's body, masked to zero (both are never ground: mt_compile.c) */
            int gr = b->body[sd] < 0;
            st->lean.body[2 * i + sd] = b->body[gr ? 1 - sd : sd];
            st->lean.mask[MT_LW * (2 * g + sd) + l] = gr ? 0 : -1;
            st->lean.ground[g] |= (unsigned char)gr;
        }
    }
}

/* G's r entries and W's angular part of lean block k from its compact rows. */
void mt_lean_expand(const MtState *st, int k)
{
    const MtCBlock *b = &st->sys->block[k];
    const double *L = st->dlean + MT_LEAN * k;
    for (int sd = 0; sd < 2; sd++) {
        double *G = st->G + b->goff + 18 * sd, *W = st->W + b->goff + 18 * sd, sg = sd ? -1 : 1;
        const double *r = L + 3 * sd, *y = L + 6 + 9 * sd;
        G[4] = sg * r[2]; G[5] = -sg * r[1]; G[9] = -sg * r[2]; G[11] = sg * r[0]; G[15] = sg * r[1]; G[16] = -sg * r[0];
        for (int a = 0; a < 3; a++)
            for (int i = 0; i < 3; i++) W[6 * a + 3 + i] = sg * y[3 * a + i];
    }
}

/* Rows of lean block k, the reference of the row kernel (mt_kernels.h): a
 * lone spherical joint, p_0 − p_1 = 0 with σ = +1 on side 0 and −1 on side
 * 1. Per side, with the body's R, S = J⁻¹ in project axes, origin x, v, ω and
 * free acceleration a (a0), and s the marker's offset in body axes (a ground
 * side: r = s, and S, x, v, ω, a zero):
 *   r = R·s,  p = x + r,  ṗ = v + ω × r,  c = ω × (ω × r),
 *   y_a = S·(r × e_a)                       (W = M⁻¹Gᵀ = [σ/m e_a, σ y_a]),
 *   A(k,k) += δ_ac/m + (r × e_a)·y_c        (G·W of the side, σ² = 1),
 *   t = σ (a_lin + a_ang × r)               (G·a0 of the side);
 * then g = p_0 − p_1, ġ = ṗ_0 − ṗ_1, h = c_0 − c_1 (g̈ = G·u̇ + h) and, with
 * rhs, the Baumgarte right-hand side v = −h − c1·ġ − c0·g − t_0 − t_1 (§2.5;
 * 0 for rows out of the solve). Into dlean (r, y, A(k,k), σ/m), g, gd, h. */
static void lean_block_rows(MtState *st, int k, const double *q, const double *u, double c0, double c1, double *rhs)
{
    const MtSystem *s = st->sys;
    const MtCBlock *b = &s->block[k];
    double *L = st->dlean + MT_LEAN * k;
    double p[2][3], vp[2][3], c[2][3], t[2][3];
    double d00 = 0, d10 = 0, d11 = 0, d20 = 0, d21 = 0, d22 = 0; /* lower triangle of A(k,k) */
    for (int sd = 0; sd < 2; sd++) {
        int bd = b->body[sd];
        const double *pos = s->mpos + 3 * (sd ? b->mj : b->mi);
        double im = bd >= 0 ? (sd ? -1.0 : 1.0) / s->mass[bd] : 0; /* σ/m */
        double r[3] = {pos[0], pos[1], pos[2]}, S[9] = {0}, x[3] = {0}, v[3] = {0}, w[3] = {0}, a[6] = {0};
        if (bd >= 0) {
            const double *R = st->R + 9 * bd;
            for (int i = 0; i < 3; i++) r[i] = R[3 * i] * pos[0] + R[3 * i + 1] * pos[1] + R[3 * i + 2] * pos[2];
            for (int i = 0; i < 9; i++) S[i] = st->Jwinv[9 * bd + i];
            for (int i = 0; i < 3; i++) {
                x[i] = q[7 * bd + i];
                v[i] = u[6 * bd + i];
                w[i] = u[6 * bd + 3 + i];
            }
            for (int i = 0; i < 6; i++) a[i] = st->a0[6 * bd + i];
        }
        /* r × e_x = (0, r2, −r1), r × e_y = (−r2, 0, r0), r × e_z = (r1, −r0, 0) */
        double y[3][3] = {{r[2] * S[1] - r[1] * S[2], r[2] * S[4] - r[1] * S[5], r[2] * S[7] - r[1] * S[8]},
                          {r[0] * S[2] - r[2] * S[0], r[0] * S[5] - r[2] * S[3], r[0] * S[8] - r[2] * S[6]},
                          {r[1] * S[0] - r[0] * S[1], r[1] * S[3] - r[0] * S[4], r[1] * S[6] - r[0] * S[7]}};
        for (int e = 0; e < 3; e++)
            for (int i = 0; i < 3; i++) L[6 + 9 * sd + 3 * e + i] = y[e][i];
        L[30 + sd] = im;
        if (sd) im = -im; /* 1/m in A */
        d00 += im + r[2] * y[0][1] - r[1] * y[0][2];
        d10 += r[0] * y[0][2] - r[2] * y[0][0];
        d11 += im - r[2] * y[1][0] + r[0] * y[1][2];
        d20 += r[1] * y[0][0] - r[0] * y[0][1];
        d21 += r[1] * y[1][0] - r[0] * y[1][1];
        d22 += im + r[1] * y[2][0] - r[0] * y[2][1];
        for (int i = 0; i < 3; i++) L[3 * sd + i] = r[i];
        double wr[3] = {w[1] * r[2] - w[2] * r[1], w[2] * r[0] - w[0] * r[2], w[0] * r[1] - w[1] * r[0]};
        for (int i = 0; i < 3; i++) {
            p[sd][i] = x[i] + r[i];
            vp[sd][i] = v[i] + wr[i];
        }
        c[sd][0] = w[1] * wr[2] - w[2] * wr[1];
        c[sd][1] = w[2] * wr[0] - w[0] * wr[2];
        c[sd][2] = w[0] * wr[1] - w[1] * wr[0];
        t[sd][0] = a[0] + a[4] * r[2] - a[5] * r[1];
        t[sd][1] = a[1] + a[5] * r[0] - a[3] * r[2];
        t[sd][2] = a[2] + a[3] * r[1] - a[4] * r[0];
        if (sd)
            for (int i = 0; i < 3; i++) t[sd][i] = -t[sd][i];
    }
    L[24] = d00; L[25] = d10; L[26] = d11; L[27] = d20; L[28] = d21; L[29] = d22;
    for (int i = 0; i < 3; i++) {
        int row = b->row0 + i;
        st->g[row] = p[0][i] - p[1][i];
        st->gd[row] = vp[0][i] - vp[1][i];
        st->h[row] = c[0][i] - c[1][i];
        if (!rhs) continue;
        double v = -st->h[row] - c1 * st->gd[row] - c0 * st->g[row];
        v -= t[0][i];
        v -= t[1][i];
        rhs[row] = st->rowoff[row] ? 0 : v;
    }
}

/* The lean blocks' rows: the reference, or the kernel. */
static void lean_rows(MtState *st, const double *q, const double *u, double c0, double c1, double *rhs)
{
    const MtSystem *s = st->sys;
    if (!st->lean.reference) mt_kernel_lean_rows(st, q, u, c0, c1, rhs);
    else
        for (int k = 0; k < s->nblock; k++)
            if (s->block[k].lean) lean_block_rows(st, k, q, u, c0, c1, rhs);
}

/* SPH, p_i − p_j = 0 (3 rows e_a): G_i = [e_a, r_i × e_a], G_j = −[e_a, r_j × e_a],
 * ġ = ṗ_i − ṗ_j, h = ω_i × (ω_i × r_i) − ω_j × (ω_j × r_j). */
static void rows_sph(const MtMk *I, const MtMk *J, double *A, double *B, double *g, double *gd, double *h)
{
    double ci[3], cj[3];
    mt_v3_cross(ci, I->wb, I->r); mt_v3_cross(ci, I->wb, ci);
    mt_v3_cross(cj, J->wb, J->r); mt_v3_cross(cj, J->wb, cj);
    const double *ri = I->r, *rj = J->r;
    for (int x = 0; x < 3; x++)
        for (int y = 0; y < 3; y++) { A[6 * x + y] = x == y; B[6 * x + y] = -(x == y); }
    /* r × e_x = (0, r_z, −r_y), r × e_y = (−r_z, 0, r_x), r × e_z = (r_y, −r_x, 0) */
    A[3] = A[10] = A[17] = B[3] = B[10] = B[17] = 0;
    A[4] = ri[2]; A[5] = -ri[1]; A[9] = -ri[2]; A[11] = ri[0]; A[15] = ri[1]; A[16] = -ri[0];
    B[4] = -rj[2]; B[5] = rj[1]; B[9] = rj[2]; B[11] = -rj[0]; B[15] = -rj[1]; B[16] = rj[0];
    for (int a = 0; a < 3; a++) {
        g[a] = I->p[a] - J->p[a];
        gd[a] = I->vp[a] - J->vp[a];
        h[a] = ci[a] - cj[a];
    }
}

/* DOT, a_j · b_i = 0: G = ±(a × b) on the angular part, ġ = (ω_j − ω_i)·(a × b). */
static void rows_dot(const MtPrim *pr, const MtMk *I, const MtMk *J, double *Gi, double *Gj, double *g, double *gd, double *h)
{
    const double *a = J->ax[pr->a], *bb = I->ax[pr->b];
    double c[3], mc[3], wd[3], t1[3], t2[3], cd[3];
    mt_v3_cross(c, a, bb);
    mt_v3_scale(mc, c, -1);
    set_row(Gi, Gj, NULL, mc, NULL, c);
    mt_v3_sub(wd, J->w, I->w);
    *g = mt_v3_dot(a, bb);
    *gd = mt_v3_dot(wd, c);
    mt_v3_cross(t1, J->w, a); mt_v3_cross(t1, t1, bb);
    mt_v3_cross(t2, I->w, bb); mt_v3_cross(t2, a, t2);
    mt_v3_add(cd, t1, t2);
    *h = mt_v3_dot(wd, cd);
}

/* DIST, |p_i − p_j| = L: G along n = (p_i − p_j)/|p_i − p_j|. */
static void rows_dist(const MtPrim *pr, const MtMk *I, const MtMk *J, double *Gi, double *Gj, double *g, double *gd, double *h)
{
    double d[3], n[3], dd[3], ri[3], rj[3], ci[3], cj[3];
    mt_v3_sub(d, I->p, J->p);
    double L = mt_v3_norm(d);
    if (!(L > 1e-300)) L = 1e-300;
    mt_v3_scale(n, d, 1 / L);
    mt_v3_sub(dd, I->vp, J->vp);
    mt_v3_cross(ri, I->r, n);
    mt_v3_cross(rj, J->r, n);
    double mn[3] = {-n[0], -n[1], -n[2]}, mrj[3] = {-rj[0], -rj[1], -rj[2]};
    set_row(Gi, Gj, n, ri, mn, mrj);
    mt_v3_cross(ci, I->wb, I->r); mt_v3_cross(ci, I->wb, ci);
    mt_v3_cross(cj, J->wb, J->r); mt_v3_cross(cj, J->wb, cj);
    double nd = mt_v3_dot(n, dd);
    *g = L - pr->param;
    *gd = nd;
    *h = mt_v3_dot(n, ci) - mt_v3_dot(n, cj) + (mt_v3_dot(dd, dd) - nd * nd) / L;
}

/* COORD row r of block k, Σ c_k (x_k − ref_k) = f(t) at displacement, velocity
 * or acceleration level (drivers' laws f; locks hold lockref), with the modal
 * columns of the terms' markers on flexible bodies. */
static void rows_coord(MtState *st, int k, const MtPrim *pr, int r, double t, const double *q, const double *u, int flexb)
{
    const MtSystem *s = st->sys;
    const MtCBlock *b = &s->block[k];
    double *g = st->g + b->row0 + r, *gd = st->gd + b->row0 + r, *h = st->h + b->row0 + r;
    double val = 0, rate = 0, hh = 0;
    int single_angle = pr->nterm == 1 && pr->term[0].angle && b->kind == MT_BLOCK_DRIVER;
    for (int tt = 0; tt < pr->nterm; tt++) {
        const MtTerm *tm = &pr->term[tt];
        MtMk TI, TJ;
        double gi[6], gj[6], th, tr;
        mt_marker_eval(st, q, u, tm->mi, &TI);
        mt_marker_eval(st, q, u, tm->mj, &TJ);
        double raw = term_eval(tm, &TI, &TJ, gi, gj, &th, &tr);
        double x = single_angle ? raw : continuous(tm, raw, st->cont[3 * (b->row0 + r) + tt]);
        val += tm->coef * (x - (b->kind == MT_BLOCK_LOCK ? st->lockref[b->row0 + r] : tm->ref));
        rate += tm->coef * tr;
        hh += tm->coef * th;
        double *Si = mt_state_G(st, k, tm->si) + 6 * r, *Sj = mt_state_G(st, k, tm->sj) + 6 * r;
        if (b->nside <= 2 && tt == 0) { memset(Si, 0, 6 * sizeof(double)); memset(Sj, 0, 6 * sizeof(double)); }
        for (int c = 0; c < 6; c++) { Si[c] += tm->coef * gi[c]; Sj[c] += tm->coef * gj[c]; }
        if (flexb) { /* modal columns of the term's markers on flexible bodies */
            if (s->mflex[tm->mi] >= 0)
                hh += mt_flex_row(st, q, u, tm->mi, gi, tm->coef, st->Gw + b->gwoff[tm->si] + r * mt_body_modes(s, b->body[tm->si]));
            if (s->mflex[tm->mj] >= 0)
                hh += mt_flex_row(st, q, u, tm->mj, gj, tm->coef, st->Gw + b->gwoff[tm->sj] + r * mt_body_modes(s, b->body[tm->sj]));
        }
    }
    double f = 0, fd = 0, fdd = 0;
    if (b->kind == MT_BLOCK_DRIVER) law(b, t, &f, &fd, &fdd);
    switch (pr->level) {
    case MT_LEVEL_DISP:
        *g = single_angle ? wrap(val - f) : val - f; /* angle drivers may turn many revolutions */
        *gd = rate - fd;
        *h = hh - fdd;
        break;
    case MT_LEVEL_VEL:
        *g = 0;
        *gd = rate - f;
        *h = hh - fd;
        break;
    default:
        *g = *gd = 0;
        *h = hh - f;
    }
}

/* Modal columns of block k's two-marker rows on flexible bodies (COORD rows
 * do theirs), and their part of h. */
static void modal_rows(MtState *st, int k, const double *q, const double *u)
{
    const MtSystem *s = st->sys;
    const MtCBlock *b = &s->block[k];
    double *h = st->h + b->row0;
    for (int sd = 0; sd < 2 && sd < b->nside; sd++) {
        int mk = sd == 0 ? b->mi : b->mj;
        if (b->gwoff[sd] < 0 || s->mflex[mk] < 0) continue;
        int N = mt_body_modes(s, b->body[sd]), rr = 0;
        for (int pp = 0; pp < b->nprim; pp++) {
            int w = (b->prim[pp].kind == MT_PRIM_SPH || b->prim[pp].kind == MT_PRIM_ROLL) ? 3 : 1;
            if (b->prim[pp].kind != MT_PRIM_COORD)
                for (int x = rr; x < rr + w; x++)
                    h[x] += mt_flex_row(st, q, u, mk, mt_state_G(st, k, sd) + 6 * x, 1.0, st->Gw + b->gwoff[sd] + x * N);
            rr += w;
        }
    }
}

/* W = M⁻¹ Gᵀ per side of block k (ground sides are never read). */
static void block_W(MtState *st, int k)
{
    const MtSystem *s = st->sys;
    const MtCBlock *b = &s->block[k];
    int nr = b->nrow;
    for (int side = 0; side < b->nside; side++) {
        int bd = b->body[side];
        if (bd < 0) continue;
        double *Gs = mt_state_G(st, k, side), *Ws = mt_state_W(st, k, side);
        if (b->gwoff[side] >= 0) {
            int N = mt_body_modes(s, bd);
            const double *Gws = st->Gw + b->gwoff[side];
            double *Wws = st->Ww + b->gwoff[side];
            for (int rr = 0; rr < nr; rr++) {
                memcpy(Ws + 6 * rr, Gs + 6 * rr, sizeof(double) * 6);
                memcpy(Wws + rr * N, Gws + rr * N, sizeof(double) * (size_t)N);
                mt_flex_solve(st, bd, Ws + 6 * rr, Wws + rr * N);
            }
            continue;
        }
        double im = 1.0 / s->mass[bd];
        const double *Ji = st->Jwinv + 9 * bd;
        for (int rr = 0; rr < nr; rr++) {
            mt_v3_scale(Ws + 6 * rr, Gs + 6 * rr, im);
            mt_m3_mulv(Ws + 6 * rr + 3, Ji, Gs + 6 * rr + 3);
        }
    }
}

/* Rows of a block that is not lean, primitive by primitive (the file's
 * header lists them): G per side, g, ġ, h, then W. */
static void stage_block(MtState *st, int k, double t, const double *q, const double *u)
{
    const MtSystem *s = st->sys;
    const MtCBlock *b = &s->block[k];
    int nr = b->nrow;
    double *G0 = mt_state_G(st, k, 0);
    if (b->nside > 2) memset(G0, 0, sizeof(double) * 6 * (size_t)(nr * b->nside));
    double *Gi = G0, *Gj = mt_state_G(st, k, 1);
    double *g = st->g + b->row0, *gd = st->gd + b->row0, *h = st->h + b->row0;
    int flexb = 0;
    for (int sd = 0; sd < b->nside; sd++)
        if (b->gwoff[sd] >= 0) {
            flexb = 1;
            memset(st->Gw + b->gwoff[sd], 0, sizeof(double) * (size_t)(nr * mt_body_modes(s, b->body[sd])));
        }
    MtMk I, J;
    int axes = !(b->nprim == 1 && b->prim[0].kind == MT_PRIM_SPH);
    int two = b->prim[0].kind != MT_PRIM_COORD;
    if (two) {
        mt_marker_eval_ax(st, q, u, b->mi, &I, axes);
        mt_marker_eval_ax(st, q, u, b->mj, &J, axes);
    }
    int r = 0;
    for (int p = 0; p < b->nprim; p++) {
        const MtPrim *pr = &b->prim[p];
        switch (pr->kind) {
        case MT_PRIM_SPH:
            rows_sph(&I, &J, Gi + 6 * r, Gj + 6 * r, g + r, gd + r, h + r);
            r += 3;
            break;
        case MT_PRIM_DOT: rows_dot(pr, &I, &J, Gi + 6 * r, Gj + 6 * r, g + r, gd + r, h + r); r++; break;
        case MT_PRIM_TRANS: { /* a_j · (p_i − p_j) = 0: a displacement term */
            MtTerm tm = {.angle = 0, .axis = pr->a};
            double rate;
            g[r] = term_eval(&tm, &I, &J, Gi + 6 * r, Gj + 6 * r, &h[r], &rate);
            gd[r] = rate;
            r++;
            break;
        }
        case MT_PRIM_DIST: rows_dist(pr, &I, &J, Gi + 6 * r, Gj + 6 * r, g + r, gd + r, h + r); r++; break;
        case MT_PRIM_ROLL: /* rows 1 and 2 are velocity-level (mt_row_level) */
            roll_rows(&I, &J, pr->param, pr->b, Gi + 6 * r, Gj + 6 * r, g + r, gd + r, h + r);
            r += 3;
            break;
        case MT_PRIM_COORD: rows_coord(st, k, pr, r, t, q, u, flexb); r++; break;
        }
    }
    if (flexb && two) modal_rows(st, k, q, u);
    block_W(st, k);
}

MT_HOT void mt_stage_constraints(MtState *st, double t, const double *q, const double *u)
{
    const MtSystem *s = st->sys;
    lean_rows(st, q, u, 0, 0, NULL);
    if (st->lean.n < s->nblock)
        for (int k = 0; k < s->nblock; k++)
            if (!s->block[k].lean) stage_block(st, k, t, q, u);
}

MT_HOT void mt_stage_constraints_rhs(MtState *st, double t, const double *q, const double *u, double c0, double c1,
                                     double *rhs)
{
    const MtSystem *s = st->sys;
    lean_rows(st, q, u, c0, c1, rhs);
    if (st->lean.n < s->nblock)
        for (int k = 0; k < s->nblock; k++)
            if (!s->block[k].lean) stage_block(st, k, t, q, u);
}

/* Level of each row (0 positions, 1 velocities, 2 accelerations). */
int mt_row_level(const MtCBlock *b, int r)
{
    int acc = 0;
    for (int p = 0; p < b->nprim; p++) {
        int w = (b->prim[p].kind == MT_PRIM_SPH || b->prim[p].kind == MT_PRIM_ROLL) ? 3 : 1;
        if (r < acc + w) {
            if (b->prim[p].kind == MT_PRIM_ROLL) return r - acc > 0 ? 1 : 0;
            return b->prim[p].level;
        }
        acc += w;
    }
    return 0;
}
