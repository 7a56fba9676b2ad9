/* mt_dynamics.c — one evaluation of the equations of motion (docs/design.md §2):
 * body stage (rotations, world inertia), applied and inertia forces, free
 * accelerations, constraint rows, A = G·M⁻¹·Gᵀ assembled from blocks and
 * factored, multipliers with Baumgarte stabilisation, accelerations. The
 * scalar reference paths are here; their vector kernels are in mt_kernels.c. Declared in mt_system.h. */
#include <stdio.h>
#include <string.h>

#include "mt_i18n.h"
#include "mt_controls.h"
#include "mt_flex.h"
#include "mt_forces.h"
#include "mt_kin.h"
#include "mt_kernels.h"

/* 1/|p| of a stored quaternion p (w, x, y, z). */
static inline double quat_inorm(const double *p)
{
    return 1 / sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]);
}

/* Body b's rotation R of its quaternion p normalised (p·st->qn[b]: the
 * implicit methods' Newton needs R to the last bit) and its world inverse
 * inertia S = R·Jc⁻¹·Rᵀ (§2.1), into st->R and st->Jwinv and R, S. */
static inline __attribute__((always_inline)) void body_rotation(MtState *st, const double *q, int b, double R[9],
                                                                double S[9])
{
    const MtSystem *s = st->sys;
    double w = q[7 * b + 3], x = q[7 * b + 4], y = q[7 * b + 5], z = q[7 * b + 6];
    double nn = st->qn[b];
    w *= nn; x *= nn; y *= nn; z *= nn;
    MT_QUAT_ROT(R, w, x, y, z);
    double *Rb = st->R + 9 * b;
    for (int i = 0; i < 9; i++) Rb[i] = R[i];
    const double *Ji = s->Jcinv + 9 * b;
    if (Ji[1] == 0 && Ji[2] == 0 && Ji[5] == 0) MT_ROT_DIAG(S, R, Ji[0], Ji[4], Ji[8]); /* principal axes */
    else mt_m3_rotate_sym(S, R, Ji);
    double *Sb = st->Jwinv + 9 * b;
    for (int i = 0; i < 9; i++) Sb[i] = S[i];
}

void mt_stage_bodies(MtState *st, const double *q)
{
    const MtSystem *s = st->sys;
    for (int b = 0; b < s->nbody; b++) {
        double R[9], S[9];
        st->qn[b] = quat_inorm(q + 7 * b + 3);
        body_rotation(st, q, b, R, S);
    }
    if (s->nflex) mt_flex_stage_mass(st, q);
}

/* The body pass's reference (mt_kernels.h), §2.1: Newton–Euler about the
 * centre of mass, m·a = m·g and J·ε = −ω × (J·ω) with J = R·Jc·Rᵀ. */
void mt_body_eval(MtState *st, const double *restrict q, const double *restrict u, int done, int b)
{
    const MtSystem *s = st->sys;
    if (st->dq) { /* mt_deriv's q̇ while the body is at hand: ẋ = v, ṗ = ½ (0, ω) ⊗ p */
        const double *p = q + 7 * b + 3, *om = u + 6 * b + 3;
        double *d = st->dq + 7 * b, *dp = d + 3;
        mt_v3_copy(d, u + 6 * b);
        MT_QDOT(dp, om[0], om[1], om[2], p[0], p[1], p[2], p[3]);
    }
    double R[9], S[9];
    body_rotation(st, q, b, R, S);
    if (s->nflex && s->bflex[b] >= 0) return; /* mt_flex_forces */
    const double *om = u + 6 * b + 3, *Jc = s->Jc + 9 * b;
    double o[3] = {om[0], om[1], om[2]}, wb[3], Jw[3], f[6], m = s->mass[b];
    f[0] = s->gravity[0] * m; f[1] = s->gravity[1] * m; f[2] = s->gravity[2] * m;
    mt_m3_tmulv(wb, R, o); /* J ω = R Jc Rᵀ ω */
    if (Jc[1] == 0 && Jc[2] == 0 && Jc[5] == 0) {
        wb[0] *= Jc[0]; wb[1] *= Jc[4]; wb[2] *= Jc[8];
    } else mt_m3_mulv(wb, Jc, wb);
    mt_m3_mulv(Jw, R, wb);
    mt_v3_cross(f + 3, Jw, o); /* −ω × Jω */
    double *fb = st->f + 6 * b;
    for (int i = 0; i < 6; i++) fb[i] = f[i];
    if (done) {
        double a[6], im = s->imass[b];
        a[0] = f[0] * im; a[1] = f[1] * im; a[2] = f[2] * im;
        mt_m3_mulv(a + 3, S, f + 3);
        for (int i = 0; i < 6; i++) { st->a0[6 * b + i] = a[i]; st->acc[6 * b + i] = a[i]; }
    }
}

/* mt_eval's body pass: the reference body by body, or the kernel (which
 * with rows also does the lean chain's rows, mt_kernels.h). */
static inline void stage_bodies_eval(MtState *st, const double *restrict q, const double *restrict u, int done, int rows,
                                     double c0, double c1, double *rhs)
{
    const MtSystem *s = st->sys;
    if (s->nflex || st->lean.reference)
        for (int b = 0; b < s->nbody; b++) {
            st->qn[b] = quat_inorm(q + 7 * b + 3);
            mt_body_eval(st, q, u, done, b);
        }
    else mt_kernel_bodies(st, q, u, done, rows, c0, c1, rhs);
    if (s->nflex) mt_flex_stage_mass(st, q);
}


/* Applied forces at the centre of mass besides the rigid bodies' gravity and
 * gyroscopic terms (the body pass's): flexible bodies, force elements, springs. */
static void stage_forces(MtState *st, double t, const double *q, const double *u)
{
    const MtSystem *s = st->sys;
    if (s->nmodal) memset(st->f + 6 * s->nbody, 0, sizeof(double) * (size_t)s->nmodal);
    if (s->nflex)
        for (int b = 0; b < s->nbody; b++)
            if (s->bflex[b] >= 0) mt_flex_forces(st, b, q, u);
    if (s->nchan > 3) mt_stage_channels(st, t, q, u);
    else st->chan[2] = t;
    if (s->model->ncontrol) mt_stage_controls(st, st->zcur, st->dz);
    mt_stage_force_elements(st, t, q, u);
    for (int k = 0; k < s->nspring; k++) {
        const MtSpringSpec *sp = &s->model->spring[k];
        if (st->sdisabled[k]) continue;
        double len, rate, ten;
        mt_spring_state(st, q, u, k, &len, &rate, &ten);
        if (!(len > 0)) continue; /* coincident ends: no direction */
        MtMk I, J;
        mt_marker_eval(st, q, u, sp->mi, &I);
        mt_marker_eval(st, q, u, sp->mj, &J);
        double n[3], fi[3];
        mt_v3_sub(n, J.p, I.p);
        mt_v3_scale(n, n, 1 / len);
        mt_v3_scale(fi, n, ten); /* tension pulls i towards j */
        mt_apply_load(st, q, sp->mi, I.p, fi, NULL, 1);
        mt_apply_load(st, q, sp->mj, J.p, fi, NULL, -1);
    }
}

static double dot6(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}

/* A block (rows of Ga) x (rows of Wb): out[i*nb + j] += Ga_i · Wb_j; the
 * inner size is a compile-time constant in each instance so it unrolls. */
static inline __attribute__((always_inline)) void gwt_n(double *out, const double *Ga, int na, const double *Wb, const int nb)
{
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++) out[i * nb + j] += dot6(Ga + 6 * i, Wb + 6 * j);
}

/* Rows 0..2 of a block that starts with a spherical primitive are
 * σ[e_a, r × e_a]: then G_a·W_c = σ (W_c,lin + W_c,ang × r)_a, a third of the work. */
static inline __attribute__((always_inline)) void gwt_sph(double *restrict out, const double *restrict Ga, int na, const double *restrict Wb, int nb)
{
    double sg = Ga[0], r[3] = {sg * Ga[11], -sg * Ga[5], sg * Ga[4]};
    for (int c = 0; c < nb; c++) {
        const double *w = Wb + 6 * c;
        double u0 = w[4] * r[2] - w[5] * r[1], u1 = w[5] * r[0] - w[3] * r[2], u2 = w[3] * r[1] - w[4] * r[0];
        out[0 * nb + c] += sg * (w[0] + u0);
        out[1 * nb + c] += sg * (w[1] + u1);
        out[2 * nb + c] += sg * (w[2] + u2);
    }
    for (int i = 3; i < na; i++)
        for (int c = 0; c < nb; c++) out[i * nb + c] += dot6(Ga + 6 * i, Wb + 6 * c);
}

/* A(r,c) = G_r W_cᵀ of two lean blocks through their shared body, written:
 * σ_r (W_lin + W_ang × r_r) with W_lin = σ_c/m e_c. */
static inline void sph_pair(double *restrict out, const double *restrict La, int sa, const double *restrict Lb, int sb)
{
    const double *r = La + 3 * sa, *y = Lb + 6 + 9 * sb;
    double sg = (sa ? -1 : 1) * (sb ? -1 : 1), im = (sa ? -1 : 1) * Lb[30 + sb];
    for (int c = 0; c < 3; c++) { /* σ_a σ_b (y_c × r)_a */
        const double *w = y + 3 * c;
        out[0 * 3 + c] = sg * (w[1] * r[2] - w[2] * r[1]);
        out[1 * 3 + c] = sg * (w[2] * r[0] - w[0] * r[2]);
        out[2 * 3 + c] = sg * (w[0] * r[1] - w[1] * r[0]);
    }
    out[0] += im; out[4] += im; out[8] += im;
}

static void gwt(double *out, const double *Ga, int na, const double *Wb, int nb)
{
    switch (nb) {
    case 1: gwt_n(out, Ga, na, Wb, 1); break;
    case 3: gwt_n(out, Ga, na, Wb, 3); break;
    case 5: gwt_n(out, Ga, na, Wb, 5); break;
    case 6: gwt_n(out, Ga, na, Wb, 6); break;
    default: gwt_n(out, Ga, na, Wb, nb); break;
    }
}

/* Modal part on a flexible body: out[i*nb + j] += Gw_i · Ww_j (rows of N). */
static void gwt_modal(double *out, const double *Ga, int na, const double *Wb, int nb, int N)
{
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++) {
            double v = 0;
            for (int c = 0; c < N; c++) v += Ga[i * N + c] * Wb[j * N + c];
            out[i * nb + j] += v;
        }
}

/* v − G·x over the sides of block b's row r, modal parts included (x in u layout). */
static double row_sub(const MtState *st, int k, int r, const double *x, double v)
{
    const MtSystem *s = st->sys;
    const MtCBlock *b = &s->block[k];
    for (int sd = 0; sd < b->nside; sd++) {
        int bd = b->body[sd];
        if (bd < 0) continue;
        v -= dot6(mt_state_G(st, k, sd) + 6 * r, x + 6 * bd);
        if (b->gwoff[sd] >= 0) {
            int N = mt_body_modes(s, bd);
            const double *g = st->Gw + b->gwoff[sd] + r * N, *xw = x + 6 * s->nbody + s->flex[s->bflex[bd]].moff;
            for (int c = 0; c < N; c++) v -= g[c] * xw[c];
        }
    }
    return v;
}

MT_HOT void mt_assemble(MtState *st)
{
    const MtSystem *s = st->sys;
    mt_bchol_zero_fill(st->chol);
    /* the lean blocks through the compact lists: a pass over MtCBlock (1 kB each) touched a cache line per block */
    for (int i = st->lean.diag ? st->lean.n : 0; i < st->lean.n; i++) { /* computed by mt_stage_constraints */
        int k = st->lean.blk[i];
        double *D = st->dslot[k];
        const double *dl = st->dlean + MT_LEAN * k + 24;
        D[0] = dl[0]; D[3] = dl[1]; D[4] = dl[2]; D[6] = dl[3]; D[7] = dl[4]; D[8] = dl[5];
    }
    st->lean.diag = 0; /* a later assembly (re-detection, projections) copies them */
    for (int k = 0; k < s->nblock && st->lean.n < s->nblock; k++) {
        const MtCBlock *b = &s->block[k];
        double *D = st->dslot[k];
        if (b->lean) continue;
        memset(D, 0, sizeof(double) * (size_t)(b->nrow * b->nrow));
        int sph = b->prim[0].kind == MT_PRIM_SPH;
        for (int sd = 0; sd < b->nside; sd++) {
            if (b->body[sd] < 0) continue;
            if (sph) gwt_sph(D, mt_state_G(st, k, sd), b->nrow, mt_state_W(st, k, sd), b->nrow);
            else gwt(D, mt_state_G(st, k, sd), b->nrow, mt_state_W(st, k, sd), b->nrow);
            if (b->gwoff[sd] >= 0)
                gwt_modal(D, st->Gw + b->gwoff[sd], b->nrow, st->Ww + b->gwoff[sd], b->nrow, mt_body_modes(s, b->body[sd]));
        }
    }
    int pend[MT_LW], npend = 0; /* lean pairs waiting for a full group of lanes */
    int p0 = 0, lanes = !st->lean.reference;
    if (st->lean.pairs && lanes) p0 = mt_kernel_lean_pairs(st); /* all lean (chains, trees of spherical joints) */
    for (int p = p0; p <= st->npair; p++) {
        const MtPair *pr = &st->pair[p < st->npair ? p : 0];
        if (p < st->npair && pr->lean) {
            pend[npend++] = p;
            if (npend == MT_LW || !lanes) {
                if (lanes) mt_kernel_sph_pair4(st, pend);
                else sph_pair(pr->slot, st->dlean + MT_LEAN * pr->r, pr->sr, st->dlean + MT_LEAN * pr->c, pr->sc);
                npend = 0;
            }
            continue;
        }
        /* before any other pair (it may add to a lean pair's slot) and at the end */
        for (int i = 0; i < npend; i++) {
            const MtPair *q = &st->pair[pend[i]];
            sph_pair(q->slot, st->dlean + MT_LEAN * q->r, q->sr, st->dlean + MT_LEAN * q->c, q->sc);
        }
        npend = 0;
        if (p == st->npair) break;
        const MtCBlock *br = &s->block[pr->r], *bc = &s->block[pr->c];
        if (!pr->add) memset(pr->slot, 0, sizeof(double) * (size_t)(br->nrow * bc->nrow));
        if (br->prim[0].kind == MT_PRIM_SPH)
            gwt_sph(pr->slot, mt_state_G(st, pr->r, pr->sr), br->nrow, mt_state_W(st, pr->c, pr->sc), bc->nrow);
        else
            gwt(pr->slot, mt_state_G(st, pr->r, pr->sr), br->nrow, mt_state_W(st, pr->c, pr->sc), bc->nrow);
        int gr = br->gwoff[pr->sr];
        if (gr >= 0)
            gwt_modal(pr->slot, st->Gw + gr, br->nrow, st->Ww + bc->gwoff[pr->sc], bc->nrow,
                      mt_body_modes(s, br->body[pr->sr]));
    }
    for (int i = 0; i < st->nnear; i++) { /* rows near dependence: compliant (mt_state_redetect) */
        int k = st->near[i] >> 3, j = st->near[i] & 7, m = s->block[k].nrow;
        st->dslot[k][j * m + j] *= 1 + MT_NEAR_EPS;
    }
}

/* Names the block that failed to factor. */
static MtStatus singular(const MtState *st, int blk, double t, MtError *err)
{
    const MtSystem *s = st->sys;
    const MtCBlock *b = &s->block[blk];
    const char *name = mt_block_name(s, blk);
    const char *fmt = b->kind == MT_BLOCK_JOINT
        ? MT_("joint '%s': constraint equations became singular at t = %.6g s (the mechanism reached a locked or "
              "branching position, or the step is too large); check its geometry or reduce the step")
        : b->kind == MT_BLOCK_DRIVER
        ? MT_("driver '%s': constraint equations became singular at t = %.6g s (the mechanism reached a locked or "
              "branching position, or the step is too large); check its geometry or reduce the step")
        : MT_("coupling '%s': constraint equations became singular at t = %.6g s (the mechanism reached a locked or "
              "branching position, or the step is too large); check its geometry or reduce the step");
    return mt_error_set(err, MT_ERR_SOLVE, name, fmt, name, t);
}

static inline __attribute__((always_inline)) void wl_n(double *o, const double *W, const double *lam, const int n)
{
    double a[6] = {0, 0, 0, 0, 0, 0};
    for (int r = 0; r < n; r++)
        for (int c = 0; c < 6; c++) a[c] += W[6 * r + c] * lam[r];
    for (int c = 0; c < 6; c++) o[c] += a[c];
}

/* acc (or du) += Σ W λ over blocks. */
MT_HOT static void add_reactions(const MtState *st, const double *lambda, double *out)
{
    const MtSystem *s = st->sys;
    if (st->lean.chain) { /* body i: side 0 of block i, then side 1 of block i + 1 (the sums of block order, below) */
        for (int i = 0; i < st->lean.n; i++) {
            const double *L0 = st->dlean + MT_LEAN * st->lean.blk[i], *lam = lambda + st->lean.row[i];
            double *o = out + 6 * i, a[6], l0 = lam[0], l1 = lam[1], l2 = lam[2], im = st->lean.im[2 * st->lean.blk[i]];
            const double *y = L0 + 6;
            a[0] = o[0] + im * l0; a[1] = o[1] + im * l1; a[2] = o[2] + im * l2;
            for (int c = 0; c < 3; c++) a[3 + c] = o[3 + c] + (y[c] * l0 + y[3 + c] * l1 + y[6 + c] * l2);
            if (i + 1 < st->lean.n) {
                const double *L1 = st->dlean + MT_LEAN * st->lean.blk[i + 1], *lb = lambda + st->lean.row[i + 1];
                double m0 = lb[0], m1 = lb[1], m2 = lb[2], jm = st->lean.im[2 * st->lean.blk[i + 1] + 1];
                y = L1 + 6 + 9;
                a[0] += jm * m0; a[1] += jm * m1; a[2] += jm * m2;
                for (int c = 0; c < 3; c++) a[3 + c] += -(y[c] * m0 + y[3 + c] * m1 + y[6 + c] * m2);
            }
            for (int c = 0; c < 6; c++) o[c] = a[c];
        }
        return;
    }
    if (st->lean.n == s->nblock) { /* all lean: the compact lists, in block order as below (same sums) */
        for (int i = 0; i < st->lean.n; i++) {
            const double *lam = lambda + st->lean.row[i], *L = st->dlean + MT_LEAN * st->lean.blk[i];
            double l0 = lam[0], l1 = lam[1], l2 = lam[2];
            for (int side = 0; side < 2; side++) {
                if (!st->lean.mask[MT_LW * (2 * (i / MT_LW) + side) + i % MT_LW]) continue; /* ground */
                const double *y = L + 6 + 9 * side;
                double *o = out + 6 * st->lean.body[2 * i + side], im = L[30 + side], sg = side ? -1 : 1;
                o[0] += im * l0; o[1] += im * l1; o[2] += im * l2;
                for (int c = 0; c < 3; c++) o[3 + c] += sg * (y[c] * l0 + y[3 + c] * l1 + y[6 + c] * l2);
            }
        }
        return;
    }
    for (int k = 0; k < s->nblock; k++) {
        const MtCBlock *b = &s->block[k];
        const double *lam = lambda + b->row0;
        if (b->lean) { /* W = [σ/m I, angular rows] */
            double l0 = lam[0], l1 = lam[1], l2 = lam[2];
            const double *L = st->dlean + MT_LEAN * k;
            for (int side = 0; side < 2; side++) {
                if (b->body[side] < 0) continue;
                const double *y = L + 6 + 9 * side;
                double *o = out + 6 * b->body[side], im = L[30 + side], sg = side ? -1 : 1;
                o[0] += im * l0; o[1] += im * l1; o[2] += im * l2;
                for (int c = 0; c < 3; c++) o[3 + c] += sg * (y[c] * l0 + y[3 + c] * l1 + y[6 + c] * l2);
            }
            continue;
        }
        for (int side = 0; side < b->nside; side++) {
            if (b->body[side] < 0) continue;
            const double *W = mt_state_W(st, k, side);
            double *o = out + 6 * b->body[side];
            switch (b->nrow) {
            case 1: wl_n(o, W, lam, 1); break;
            case 3: wl_n(o, W, lam, 3); break;
            case 5: wl_n(o, W, lam, 5); break;
            default: wl_n(o, W, lam, b->nrow); break;
            }
            if (b->gwoff[side] >= 0) {
                int N = mt_body_modes(s, b->body[side]);
                const double *Ww = st->Ww + b->gwoff[side];
                double *ow = out + 6 * s->nbody + s->flex[s->bflex[b->body[side]]].moff;
                for (int r = 0; r < b->nrow; r++)
                    for (int c = 0; c < N; c++) ow[c] += Ww[r * N + c] * lam[r];
            }
        }
    }
}

/* Right-hand side of the penalty and modified-Lagrange treatments (Ivanov &
 * Poloskov, eq. 5–9, p = 1), with the full gain matrices: the feedback forces
 * are λ = −A⁻¹(K g + D ġ) with A = G M⁻¹ Gᵀ, so that each row obeys its own
 * linear law whatever the coupling of the rows, the pull of the applied
 * forces (G a0 + h) acting on it as a disturbance:
 *   penalty  g̈ + 2ξν ġ + ν² g = G a0 + h                (stiff spring–damper)
 *   mlf      g̈ + 3ν ġ + 4ν² u = G a0 + h, u̇ = (ν/2) g + ġ  (PID: no offset;
 *            poles −ν, −ν(1 ± i))
 * Velocity rows: ė + ν e = 0; acceleration rows as with Lagrange multipliers.
 * Gains from the diagonal of A only (an earlier version) leave strongly
 * coupled rows (a chain of rods, a revolute joint) unstable or far off. */
static double loops_rhs(MtState *st, int k, int r, int row, double nu, double xi, int mlf)
{
    const MtSystem *s = st->sys;
    if (st->rowoff[row]) {
        if (mlf) st->dz[s->zoff_mlf + row] = 0;
        return 0;
    }
    switch (s->level[row]) {
    case 0:
        if (mlf) {
            st->dz[s->zoff_mlf + row] = 0.5 * nu * st->g[row] + st->gd[row];
            return -(4 * nu * nu * st->zcur[s->zoff_mlf + row] + 3 * nu * st->gd[row]);
        }
        return -(nu * nu * st->g[row] + 2 * xi * nu * st->gd[row]);
    case 1: return -nu * st->gd[row];
    default: return row_sub(st, k, r, st->a0, -st->h[row]);
    }
}

/* Right-hand side of row r of block k under Baumgarte stabilisation (§2.5,
 * c1 = 2ξΩ, c0 = Ω²): g̈ + 2ξΩ·ġ + Ω²·g = 0 for position rows, ė + Ω·e = 0
 * for velocity rows, none for acceleration rows, with g̈ = G·u̇ + h and u̇ =
 * a0 + M⁻¹Gᵀλ; 0 for a row out of the solve. The lean blocks' rows
 * (lean_block_rows, mt_constraints.c) sum the same terms as −h − c1ġ − c0g
 * − G·a0, this one as −h − (c1ġ + c0g) − G·a0: the last bits differ, and the
 * results must not change, so each keeps its own grouping. */
static double stab_rhs(const MtState *st, int k, int r, double c0, double c1, double Om)
{
    const MtSystem *s = st->sys;
    int row = s->block[k].row0 + r;
    double v = -st->h[row];
    switch (s->level[row]) {
    case 0: v -= c1 * st->gd[row] + c0 * st->g[row]; break;
    case 1: v -= Om * st->gd[row]; break;
    default: break;
    }
    v = row_sub(st, k, r, st->a0, v);
    return st->rowoff[row] ? 0 : v;
}

/* a0 = M⁻¹ f (and acc = a0) once every applied force is in f. */
static void free_acc(MtState *st)
{
    const MtSystem *s = st->sys;
    for (int b = 0; b < s->nbody; b++) {
        double *a = st->a0 + 6 * b, *f = st->f + 6 * b;
        if (s->nflex && s->bflex[b] >= 0) {
            int mo = 6 * s->nbody + s->flex[s->bflex[b]].moff;
            memcpy(a, f, sizeof(double) * 6);
            memcpy(st->a0 + mo, st->f + mo, sizeof(double) * (size_t)mt_body_modes(s, b));
            mt_flex_solve(st, b, a, st->a0 + mo);
            continue;
        }
        mt_v3_scale(a, f, 1 / s->mass[b]);
        mt_m3_mulv(a + 3, st->Jwinv + 9 * b, f + 3);
    }
    memcpy(st->acc, st->a0, sizeof(double) * (size_t)s->nu);
}

MT_HOT MtStatus mt_eval(MtState *st, double t, const double *q, const double *u, MtError *err)
{
    const MtSystem *s = st->sys;
    st->stats.nevals++;
    /* nothing but gravity and gyroscopic forces: the body pass finishes a0 */
    int done = mt_gravity_only(s);
    double *rhs = st->lambda; /* the right-hand side first: it does not need the factor, and the solve works in place */
    double Om = s->model->solver.loops == MT_LOOPS_LAGRANGE ? 0 : s->solver.stab_period > 0 ? 2 * M_PI / s->solver.stab_period : 0;
    double c1 = 2 * s->solver.stab_damping * Om, c0 = Om * Om;
    int feedback = s->model->solver.loops == MT_LOOPS_PENALTY || s->model->solver.loops == MT_LOOPS_MLF;
    int rows = done && st->lean.chain && !feedback && s->nrow && !st->lean.reference; /* the body kernel does the rows too */
    stage_bodies_eval(st, q, u, done, rows, c0, c1, rhs);
    st->lean.diag = rows;
    if (!done) {
        stage_forces(st, t, q, u);
        free_acc(st);
    } else st->chan[2] = t;
    if (s->nrow == 0) goto check;
    {
        if (feedback) mt_stage_constraints(st, t, q, u);
        else if (!rows) mt_stage_constraints_rhs(st, t, q, u, c0, c1, rhs); /* lean rows' right-hand side while their r are at hand */
        mt_assemble(st);
        for (int k = 0; k < s->nblock && feedback; k++) {
            const MtCBlock *b = &s->block[k];
            double nu = s->model->solver.loop_freq > 0 ? s->model->solver.loop_freq : 1000;
            for (int r = 0; r < b->nrow; r++)
                rhs[b->row0 + r] = loops_rhs(st, k, r, b->row0 + r, nu, s->solver.stab_damping, s->model->solver.loops == MT_LOOPS_MLF);
        }
        for (int k = 0; k < s->nblock && !feedback && st->lean.n < s->nblock; k++) {
            const MtCBlock *b = &s->block[k];
            if (b->lean) continue; /* mt_stage_constraints_rhs did it */
            for (int r = 0; r < b->nrow; r++) rhs[b->row0 + r] = stab_rhs(st, k, r, c0, c1, Om);
        }
        int bad = 0;
        /* the row pass wrote A's diagonal (none raised: no rows near dependence) */
        mt_bchol_diag0_given(st->chol, rows && !st->nnear);
        int fail = mt_lin_solve(st, q, st->lambda, &bad);
        mt_bchol_diag0_given(st->chol, 0);
        if (fail) return singular(st, bad, t, err);
    }
    add_reactions(st, st->lambda, st->acc);
check:;
    if (!mt_all_finite(st->acc, s->nu)) /* one test per evaluation, then the culprit */
    for (int i = 0; i < s->nu; i++)
        if (!isfinite(st->acc[i])) {
            const char *name = s->model->body[mt_u_body(s, i)].name;
            return mt_error_set(err, MT_ERR_SOLVE, name,
                                MT_("body '%s': acceleration is not finite at t = %.6g s; the run diverged (reduce the step "
                                    "or check masses and forces)"), name, t);
        }
    return MT_OK;
}

void mt_state_redetect(MtState *st)
{
    const MtSystem *s = st->sys;
    if (!s->nspecial) return;
    int same = 1; /* the same rows out and near dependence as for the last step */
    for (int r = 0; r < s->nrow; r++) { /* back in unless out for another reason */
        if (st->special[r]) {
            st->rowoff[r] = 0;
            same = 0;
        }
        st->special[r] = 0;
        mt_bchol_set_dependent(st->chol, r, st->rowoff[r]);
    }
    mt_stage_bodies(st, st->q);
    mt_stage_constraints(st, st->t, st->q, st->u);
    int nprev = st->nnear;
    st->nnear = 0;
    mt_assemble(st);
    int bad = -1;
    /* rows near dependence become compliant (MT_NEAR_TOL) */
    mt_bchol_factor(st->chol, 1, MT_NEAR_TOL, &bad);
    st->stats.nfactor++;
    for (int k = 0; k < s->nblock; k++)
        for (int j = 0; j < s->block[k].nrow; j++) {
            int r = s->block[k].row0 + j;
            if (!mt_bchol_row_dependent(st->chol, r) || st->rowoff[r]) continue;
            if (st->nnear >= nprev || st->near[st->nnear] != 8 * k + j) same = 0;
            st->near[st->nnear++] = 8 * k + j;
        }
    if (st->nnear != nprev) same = 0;
    for (int r = 0; r < s->nrow; r++) mt_bchol_set_dependent(st->chol, r, st->rowoff[r]);
    /* nothing changed: the step's last factor preconditions the next one (mt_linsolve.c) */
    if (st->nnear && same && mt_lin_serves_next_step(st)) return;
    if (st->nnear) { /* else the factor just made is one of A with nothing new out */
        mt_assemble(st);
        mt_bchol_factor(st->chol, 1, MT_SPECIAL_TOL, &bad);
        st->stats.nfactor++;
    }
    for (int r = 0; r < s->nrow; r++)
        if (mt_bchol_row_dependent(st->chol, r) && !st->rowoff[r]) {
            st->special[r] = 1;
            st->rowoff[r] = 1;
        }
    for (int r = 0; r < s->nrow; r++) mt_bchol_set_dependent(st->chol, r, st->rowoff[r]);
    mt_lin_detected(st); /* the detecting factor serves as the next preconditioner */
}

void mt_constraint_error(MtState *st, double *gmax, double *gdmax)
{
    const MtSystem *s = st->sys;
    mt_stage_bodies(st, st->q);
    mt_stage_constraints(st, st->t, st->q, st->u);
    double a = 0, b = 0;
    for (int r = 0; r < s->nrow; r++) {
        if (st->rowoff[r]) continue;
        a = fmax(a, fabs(st->g[r]));
        b = fmax(b, fabs(st->gd[r]));
    }
    *gmax = a;
    *gdmax = b;
}

/* Projections of flexible bodies move the stiff modes less: the metric is
 * M + c·K with c = 1/Ωs², so that a mode faster than the stabilisation
 * (which the integrator cannot follow anyway) takes almost none of a
 * correction and the rigid coordinates and the soft modes take it instead. */
static void proj_metric(MtState *st, int on)
{
    const MtSystem *s = st->sys;
    if (!s->nflex) return;
    double Ts = s->solver.stab_period > 0 ? s->solver.stab_period : 1e-2;
    st->proj_c = on ? (Ts / (2 * M_PI)) * (Ts / (2 * M_PI)) : 0;
}

/* The factor of a projection. After a step (st->proj_dep = st->pivot_reg,
 * mt_ode_settle) rows whose pivot falls below proj_dep of their diagonal are
 * left out of it, as redundant rows are: near a singular position (the
 * N-four-bar flat) the M-orthogonal correction of a row about to become
 * dependent is its error divided by a vanishing pivot, and a projection
 * removes the kinetic energy of its correction (a third of the energy at the
 * first passage with the old floor of 1e-13; 2e-8 of it in 10 s with a
 * floor of 1e-10 still regularising here, 4e-9 leaving those rows out, 2e-9
 * with the floor of 1e-9). Left out, the rows keep their tiny error and, in
 * the dynamics, Baumgarte's feedback and their reaction. A wider band (1e-8
 * and up) leaves the velocity error of the direction becoming free
 * uncorrected for too long: with `correct velocities` alone the four-bar then
 * stalls at the flat position.
 * Assembly (proj_dep = 0) keeps regularising: it must meet every row. */
static int proj_factor(MtState *st, int *bad)
{
    if (st->proj_dep > 0) return mt_bchol_factor(st->chol, 1, st->proj_dep, bad);
    return mt_bchol_factor(st->chol, 0, MT_PIVOT_REG, bad);
}

/* Rows left out by proj_factor back in (the dynamics' own rows out only). */
static void proj_restore(MtState *st)
{
    if (st->proj_dep <= 0) return;
    for (int r = 0; r < st->sys->nrow; r++) mt_bchol_set_dependent(st->chol, r, st->rowoff[r]);
}

static MtStatus project_positions(MtState *st, double tol, int maxit, MtError *err);

MtStatus mt_project_positions(MtState *st, double tol, int maxit, MtError *err)
{
    proj_metric(st, 1);
    MtStatus rc = project_positions(st, tol, maxit, err);
    proj_metric(st, 0);
    proj_restore(st);
    return rc;
}

static MtStatus project_positions(MtState *st, double tol, int maxit, MtError *err)
{
    const MtSystem *s = st->sys;
    if (s->nrow == 0) return MT_OK;
    double *dq = st->a0; /* scratch: 6 per body */
    double gmax = 0;
    for (int it = 0; it <= maxit; it++) {
        mt_stage_bodies(st, st->q);
        mt_stage_constraints(st, st->t, st->q, st->u);
        gmax = 0;
        int worst = 0;
        for (int r = 0; r < s->nrow; r++)
            if (!st->rowoff[r] && fabs(st->g[r]) > gmax) { gmax = fabs(st->g[r]); worst = r; }
        if (gmax <= tol) return MT_OK;
        int bad = 0;
        if (st->proj_dep > 0) { /* the rows left out keep their error: is the rest met? */
            mt_assemble(st);
            if (proj_factor(st, &bad)) return singular(st, bad, st->t, err);
            double grest = 0;
            for (int r = 0; r < s->nrow; r++)
                if (!mt_bchol_row_dependent(st->chol, r)) grest = fmax(grest, fabs(st->g[r]));
            if (grest <= tol) return MT_OK;
        }
        if (it == maxit) {
            /* after a step (not at assembly) a correction that stalled just above its tolerance has done
             * its job: Baumgarte's feedback takes the rest, and the run goes on */
            if (st->proj_dep > 0 && gmax <= 1e3 * tol) return MT_OK;
            int k = 0;
            while (k + 1 < s->nblock && s->block[k + 1].row0 <= worst) k++;
            const MtCBlock *b = &s->block[k];
            const char *name = mt_block_name(s, k);
            const char *fmt = b->kind == MT_BLOCK_JOINT
                ? MT_("joint '%s': cannot be assembled at t = %.6g s; its equations stay violated by %.3g after %d "
                      "iterations (check the marker positions and axes)")
                : b->kind == MT_BLOCK_DRIVER
                ? MT_("driver '%s': cannot be assembled at t = %.6g s; its equations stay violated by %.3g after %d "
                      "iterations (check the marker positions and axes)")
                : MT_("coupling '%s': cannot be assembled at t = %.6g s; its equations stay violated by %.3g after %d "
                      "iterations (check the joints it couples)");
            return mt_error_set(err, MT_ERR_SOLVE, name, fmt, name, st->t, gmax, maxit);
        }
        if (st->proj_dep <= 0) {
            mt_assemble(st);
            if (proj_factor(st, &bad)) return singular(st, bad, st->t, err);
        }
        for (int r = 0; r < s->nrow; r++)
            st->rhs[r] = st->rowoff[r] || (st->proj_dep > 0 && mt_bchol_row_dependent(st->chol, r)) ? 0 : -st->g[r];
        mt_bchol_solve(st->chol, st->rhs);
        memset(dq, 0, sizeof(double) * (size_t)s->nu);
        add_reactions(st, st->rhs, dq);
        for (int i = 0; i < s->nmodal; i++) st->q[7 * s->nbody + i] += dq[6 * s->nbody + i];
        for (int b = 0; b < s->nbody; b++) {
            double *qb = st->q + 7 * b, dr[4];
            mt_v3_add(qb, qb, dq + 6 * b);
            mt_quat_from_rotvec(dr, dq + 6 * b + 3);
            mt_quat_mul(qb + 3, dr, qb + 3);
            mt_quat_normalize(qb + 3);
        }
    }
    return MT_OK;
}

static MtStatus project_velocities(MtState *st, MtError *err);

MtStatus mt_project_velocities(MtState *st, MtError *err)
{
    proj_metric(st, 1);
    MtStatus rc = project_velocities(st, err);
    proj_metric(st, 0);
    proj_restore(st);
    return rc;
}

static MtStatus project_velocities(MtState *st, MtError *err)
{
    const MtSystem *s = st->sys;
    if (s->nrow == 0) return MT_OK;
    mt_stage_bodies(st, st->q);
    mt_stage_constraints(st, st->t, st->q, st->u);
    mt_assemble(st);
    int bad = 0;
    if (proj_factor(st, &bad)) return singular(st, bad, st->t, err);
    for (int r = 0; r < s->nrow; r++)
        st->rhs[r] = st->rowoff[r] || (st->proj_dep > 0 && mt_bchol_row_dependent(st->chol, r)) ? 0 : -st->gd[r];
    mt_bchol_solve(st->chol, st->rhs);
    add_reactions(st, st->rhs, st->u);
    return MT_OK;
}
