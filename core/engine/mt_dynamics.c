/* mt_dynamics.c — one evaluation of the equations of motion (docs/design.md §2):
 * body stage (rotations, world inertia), applied and inertia forces, free
 * accelerations, constraint rows, A = G·M⁻¹·Gᵀ assembled from blocks and
 * factored, multipliers with Baumgarte stabilisation, accelerations. */
#include <stdio.h>
#include <string.h>

#include "mt_i18n.h"
#include "mt_controls.h"
#include "mt_flex.h"
#include "mt_forces.h"
#include "mt_kin.h"
#include "mt_lanes.h"

/* The body pass's arithmetic, written once for one body (double) and for four
 * (MtLanes): the rotation R of a unit quaternion (w, x, y, z), and the world
 * inverse inertia S = R·diag(d0, d1, d2)·Rᵀ of principal axes. The same
 * expressions in both types keep the lanes bit-identical to the scalar path. */
#define MT_QUAT_ROT(R, w, x, y, z)                                                                                  \
    do {                                                                                                            \
        __typeof__(w) xx_ = 2 * (x) * (x), yy_ = 2 * (y) * (y), zz_ = 2 * (z) * (z), xy_ = 2 * (x) * (y),           \
                      xz_ = 2 * (x) * (z), yz_ = 2 * (y) * (z), wx_ = 2 * (w) * (x), wy_ = 2 * (w) * (y),           \
                      wz_ = 2 * (w) * (z);                                                                          \
        R[0] = 1 - (yy_ + zz_), R[1] = xy_ - wz_, R[2] = xz_ + wy_;                                                 \
        R[3] = xy_ + wz_, R[4] = 1 - (xx_ + zz_), R[5] = yz_ - wx_;                                                 \
        R[6] = xz_ - wy_, R[7] = yz_ + wx_, R[8] = 1 - (xx_ + yy_);                                                 \
    } while (0)
#define MT_ROT_DIAG(S, R, d0, d1, d2)                                                                               \
    do {                                                                                                            \
        S[0] = R[0] * d0 * R[0] + R[1] * d1 * R[1] + R[2] * d2 * R[2];                                              \
        S[1] = S[3] = R[0] * d0 * R[3] + R[1] * d1 * R[4] + R[2] * d2 * R[5];                                       \
        S[2] = S[6] = R[0] * d0 * R[6] + R[1] * d1 * R[7] + R[2] * d2 * R[8];                                       \
        S[4] = R[3] * d0 * R[3] + R[4] * d1 * R[4] + R[5] * d2 * R[5];                                              \
        S[5] = S[7] = R[3] * d0 * R[6] + R[4] * d1 * R[7] + R[5] * d2 * R[8];                                       \
        S[8] = R[6] * d0 * R[6] + R[7] * d1 * R[7] + R[8] * d2 * R[8];                                              \
    } while (0)
/* ṗ = ½ (0, ω) ⊗ p of the stored quaternion p (not normalised), ω in project axes */
#define MT_QDOT(d, w0, w1, w2, p0, p1, p2, p3)                                                                      \
    do {                                                                                                            \
        d[0] = 0.5 * (-w0 * p1 - w1 * p2 - w2 * p3);                                                                \
        d[1] = 0.5 * (w0 * p0 + w1 * p3 - w2 * p2);                                                                 \
        d[2] = 0.5 * (w1 * p0 + w2 * p1 - w0 * p3);                                                                 \
        d[3] = 0.5 * (w2 * p0 + w0 * p2 - w1 * p1);                                                                 \
    } while (0)

void mt_stage_bodies(MtState *st, const double *q)
{
    const MtSystem *s = st->sys;
    double *restrict Rall = st->R, *restrict Sall = st->Jwinv;
    const double *restrict Jiall = s->Jcinv;
    for (int b = 0; b < s->nbody; b++) {
        /* R of the normalised quaternion without normalising it: 2/|p|² scales the products */
        double w = q[7 * b + 3], x = q[7 * b + 4], y = q[7 * b + 5], z = q[7 * b + 6];
        double nn = 1 / sqrt(w * w + x * x + y * y + z * z); /* normalised first: implicit methods' Newton needs it to the last bit */
        w *= nn; x *= nn; y *= nn; z *= nn;
        double R[9];
        MT_QUAT_ROT(R, w, x, y, z);
        double *Rb = Rall + 9 * b;
        for (int i = 0; i < 9; i++) Rb[i] = R[i];
        const double *Ji = Jiall + 9 * b;
        double S[9];
        if (Ji[1] == 0 && Ji[2] == 0 && Ji[5] == 0) MT_ROT_DIAG(S, R, Ji[0], Ji[4], Ji[8]); /* principal axes */
        else mt_m3_rotate_sym(S, R, Ji);
        double *Sb = Sall + 9 * b;
        for (int i = 0; i < 9; i++) Sb[i] = S[i];
    }
    if (s->nflex) mt_flex_stage_mass(st, q);
}

/* One body of mt_eval's body pass: rotation, world inverse inertia, gravity
 * and gyroscopic force of a rigid body (R and ω stay in registers); with no
 * other applied forces (done = 1) also the free accelerations a0 and acc. */
static inline __attribute__((always_inline)) void body_eval(MtState *st, const double *restrict q, const double *restrict u,
                                                     int done, int b)
{
    const MtSystem *s = st->sys;
    double w = q[7 * b + 3], x = q[7 * b + 4], y = q[7 * b + 5], z = q[7 * b + 6];
    if (st->dq) { /* mt_deriv's q̇ while the body is at hand */
        double *d = st->dq + 7 * b, *dp = d + 3;
        const double *om = u + 6 * b + 3;
        mt_v3_copy(d, u + 6 * b);
        MT_QDOT(dp, om[0], om[1], om[2], w, x, y, z);
    }
    double nn = st->qn[b]; /* normalised as mt_stage_bodies does, to the last bit */
    w *= nn; x *= nn; y *= nn; z *= nn;
    double R[9];
    MT_QUAT_ROT(R, w, x, y, z);
    double *Rb = st->R + 9 * b;
    for (int i = 0; i < 9; i++) Rb[i] = R[i];
    const double *Ji = s->Jcinv + 9 * b, *Jc = s->Jc + 9 * b;
    double S[9];
    if (Ji[1] == 0 && Ji[2] == 0 && Ji[5] == 0) MT_ROT_DIAG(S, R, Ji[0], Ji[4], Ji[8]);
    else mt_m3_rotate_sym(S, R, Ji);
    double *Sb = st->Jwinv + 9 * b;
    for (int i = 0; i < 9; i++) Sb[i] = S[i];
    if (s->nflex && s->bflex[b] >= 0) return; /* mt_flex_forces */
    const double *om = u + 6 * b + 3;
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

/* body_eval for the four rigid bodies b..b+3, one per lane (mt_lanes.h),
 * when their inertia tensors are diagonal in body axes; with in (and done),
 * also their lanes as the row pass reads them. With lean (an inner stage of
 * a lean chain, whose row pass takes everything from in) only acc is
 * written, not R, Jwinv, f, a0: nobody reads them before the next full
 * evaluation (MtState.stage). */
static inline __attribute__((always_inline)) void body_eval4(MtState *st, const double *restrict q, const double *restrict u,
                                                      int done, int b, MtLeanIn *in, int lean)
{
    const MtSystem *s = st->sys;
    const double *qp[MT_LW], *op[MT_LW];
    double *Rr[MT_LW], *Sr[MT_LW], *fr[MT_LW], *ar[MT_LW], *cr[MT_LW];
    for (int l = 0; l < MT_LW; l++) {
        qp[l] = q + 7 * (b + l) + 3;
        op[l] = u + 6 * (b + l) + 3;
        Rr[l] = st->R + 9 * (b + l);
        Sr[l] = st->Jwinv + 9 * (b + l);
        fr[l] = st->f + 6 * (b + l);
        ar[l] = st->a0 + 6 * (b + l);
        cr[l] = st->acc + 6 * (b + l);
    }
    MtLanes nn, c[8]; /* MtSystem.bodyc: diagonals of Jcinv and Jc, m, 1/m */
    memcpy(&nn, st->qn + b, sizeof nn);
    memcpy(c, s->bodyc + 8 * b, sizeof c);
    MtLanes m = c[6], im = c[7];
    MtLanes p0 = MT_LANES(qp, 0), p1 = MT_LANES(qp, 1), p2 = MT_LANES(qp, 2), p3 = MT_LANES(qp, 3);
    MtLanes w = p0 * nn, x = p1 * nn, y = p2 * nn, z = p3 * nn;
    MtLanes R[9], S[9];
    MT_QUAT_ROT(R, w, x, y, z);
    MT_ROT_DIAG(S, R, c[0], c[1], c[2]);
    if (!lean) {
        mt_lanes_put(Rr, 9, R);
        mt_lanes_put(Sr, 9, S);
    }
    MtLanes o0 = MT_LANES(op, 0), o1 = MT_LANES(op, 1), o2 = MT_LANES(op, 2);
    if (st->dq) { /* mt_deriv's q̇ while the bodies are at hand */
        double *dl[MT_LW];
        for (int l = 0; l < MT_LW; l++) {
            dl[l] = st->dq + 7 * (b + l);
            mt_v3_copy(dl[l], u + 6 * (b + l));
        }
        MtLanes d[4];
        MT_QDOT(d, o0, o1, o2, p0, p1, p2, p3);
        mt_lanes_put4(dl, 3, d);
    }
    MtLanes wb0 = R[0] * o0 + R[3] * o1 + R[6] * o2; /* J ω = R Jc Rᵀ ω */
    MtLanes wb1 = R[1] * o0 + R[4] * o1 + R[7] * o2;
    MtLanes wb2 = R[2] * o0 + R[5] * o1 + R[8] * o2;
    wb0 *= c[3]; wb1 *= c[4]; wb2 *= c[5];
    MtLanes Jw0 = R[0] * wb0 + R[1] * wb1 + R[2] * wb2;
    MtLanes Jw1 = R[3] * wb0 + R[4] * wb1 + R[5] * wb2;
    MtLanes Jw2 = R[6] * wb0 + R[7] * wb1 + R[8] * wb2;
    MtLanes f[6] = {s->gravity[0] * m, s->gravity[1] * m, s->gravity[2] * m, /* −ω × Jω */
                    Jw1 * o2 - Jw2 * o1, Jw2 * o0 - Jw0 * o2, Jw0 * o1 - Jw1 * o0};
    if (!lean) mt_lanes_put(fr, 6, f);
    if (done) {
        MtLanes a[6] = {f[0] * im, f[1] * im, f[2] * im, S[0] * f[3] + S[1] * f[4] + S[2] * f[5],
                        S[3] * f[3] + S[4] * f[4] + S[5] * f[5], S[6] * f[3] + S[7] * f[4] + S[8] * f[5]};
        if (!lean) mt_lanes_put(ar, 6, a);
        mt_lanes_put(cr, 6, a);
        if (in) {
            const double *xp[MT_LW], *vp[MT_LW];
            for (int l = 0; l < MT_LW; l++) {
                xp[l] = q + 7 * (b + l);
                vp[l] = u + 6 * (b + l);
            }
            for (int i = 0; i < 9; i++) { in->R[i] = R[i]; in->S[i] = S[i]; }
            for (int i = 0; i < 3; i++) { in->x[i] = MT_LANES(xp, i); in->v[i] = MT_LANES(vp, i); }
            in->w[0] = o0; in->w[1] = o1; in->w[2] = o2;
            for (int i = 0; i < 6; i++) in->a[i] = a[i];
        }
    }
}

/* The row pass's inputs of body b in every lane (b < 0: ground, zeros), from the state. */
static void lean_in_body(const MtState *st, const double *q, const double *u, int b, MtLeanIn *in)
{
    memset(in, 0, sizeof *in);
    if (b < 0) return;
    for (int i = 0; i < 9; i++) {
        in->R[i] += st->R[9 * b + i];
        in->S[i] += st->Jwinv[9 * b + i];
    }
    for (int i = 0; i < 3; i++) {
        in->x[i] += q[7 * b + i];
        in->v[i] += u[6 * b + i];
        in->w[i] += u[6 * b + 3 + i];
    }
    for (int i = 0; i < 6; i++) in->a[i] += st->a0[6 * b + i];
}

/* Inverse and direct inertia of bodies b..b+3 diagonal in body axes: body_eval4 applies. */
static inline int diagonal4(const MtSystem *s, int b)
{
    int diag = 1;
    for (int l = 0; l < MT_LW; l++) diag &= mt_inertia_diagonal(s, b + l);
    return diag;
}

/* mt_eval's body pass; rigid bodies four at a time. With rows (lean chains,
 * st->lean.chain, and done) also the constraint rows and the right-hand side
 * (mt_stage_constraints_rhs with c0, c1, rhs), each group of blocks right
 * after the group of bodies it reads on side 0: its inputs go over in
 * vectors, not gathered back from R, Jwinv, q, u and a0. */
MT_HOT static void stage_bodies_eval(MtState *st, const double *restrict q, const double *restrict u, int done, int rows,
                                     double c0, double c1, double *rhs)
{
    const MtSystem *s = st->sys;
    double *restrict qn = st->qn;
    int b = 0;
    /* square root and division first, in a loop of their own, four bodies per vector (scalar
     * sqrt and division were 18 % of this pass; both are correctly rounded, so the lanes agree) */
    for (; b + MT_LW <= s->nbody; b += MT_LW) {
        const double *qp[MT_LW] = {q + 7 * b + 3, q + 7 * b + 10, q + 7 * b + 17, q + 7 * b + 24};
        MtLanes w = MT_LANES(qp, 0), x = MT_LANES(qp, 1), y = MT_LANES(qp, 2), z = MT_LANES(qp, 3);
        MtLanes n2 = w * w + x * x + y * y + z * z, n;
        for (int l = 0; l < MT_LW; l++) n[l] = sqrt(n2[l]); /* one vector square root (-fno-math-errno) */
        n = 1 / n;
        memcpy(qn + b, &n, sizeof n);
    }
    for (; b < s->nbody; b++) {
        double w = q[7 * b + 3], x = q[7 * b + 4], y = q[7 * b + 5], z = q[7 * b + 6];
        qn[b] = 1 / sqrt(w * w + x * x + y * y + z * z);
    }
    b = 0;
    MtLeanIn lin[2], *cur = lin, *prev = lin + 1;
    int have = 0; /* prev holds the previous group's side 0 */
    /* an inner stage: groups below blean write only what the rows and acc need; a part-filled
     * last group gathers its lane 0's side 1 from the state, so the group before writes it all */
    int blean = !st->lean.stage || !rows || !st->lean.alldiag ? 0 : s->nbody % MT_LW ? s->nbody - s->nbody % MT_LW - MT_LW : s->nbody;
    if (!s->nflex)
        for (; b + MT_LW <= s->nbody; b += MT_LW) {
            if (st->lean.alldiag || diagonal4(s, b)) {
                body_eval4(st, q, u, done, b, rows ? cur : NULL, b < blean);
                if (!rows) continue;
                if (!have) lean_in_body(st, q, u, b - 1, prev);
                mt_lean_group(st, b / MT_LW, cur, prev, q, u, c0, c1, rhs);
                MtLeanIn *t = prev;
                prev = cur;
                cur = t;
                have = 1;
            } else {
                for (int l = 0; l < MT_LW; l++) body_eval(st, q, u, done, b + l);
                if (rows) mt_lean_group(st, b / MT_LW, NULL, NULL, q, u, c0, c1, rhs);
                have = 0;
            }
        }
    int b1 = b;
    for (; b < s->nbody; b++) body_eval(st, q, u, done, b);
    if (rows && b1 < s->nbody) mt_lean_group(st, b1 / MT_LW, NULL, NULL, q, u, c0, c1, rhs); /* the last, part-filled group */
    if (s->nflex) mt_flex_stage_mass(st, q);
}

/* Gravity, gyroscopic terms and springs, at the centre of mass. */
/* The rigid bodies' gravity and gyroscopic forces are set by stage_bodies_eval. */
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

/* sph_pair for four lean pairs st->pair[pi[0..3]], one per lane (mt_lanes.h). */
static inline __attribute__((always_inline)) void sph_pair4(const MtState *st, const int *pi)
{
    const double *rp[MT_LW], *yp[MT_LW];
    double *slot[MT_LW], sgl[MT_LW], iml[MT_LW];
    for (int l = 0; l < MT_LW; l++) {
        const MtPair *pr = &st->pair[pi[l]];
        const double *La = st->dlean + MT_LEAN * pr->r, *Lb = st->dlean + MT_LEAN * pr->c;
        rp[l] = La + 3 * pr->sr;
        yp[l] = Lb + 6 + 9 * pr->sc;
        slot[l] = pr->slot;
        sgl[l] = (pr->sr ? -1 : 1) * (pr->sc ? -1 : 1);
        iml[l] = (pr->sr ? -1 : 1) * st->lean.im[2 * pr->c + pr->sc];
    }
    MtLanes sg = {sgl[0], sgl[1], sgl[2], sgl[3]}, im = {iml[0], iml[1], iml[2], iml[3]};
    MtLanes r0 = MT_LANES(rp, 0), r1 = MT_LANES(rp, 1), r2 = MT_LANES(rp, 2), out[9];
    for (int c = 0; c < 3; c++) { /* σ_a σ_b (y_c × r)_a */
        MtLanes w0 = MT_LANES(yp, 3 * c), w1 = MT_LANES(yp, 3 * c + 1), w2 = MT_LANES(yp, 3 * c + 2);
        out[0 * 3 + c] = sg * (w1 * r2 - w2 * r1);
        out[1 * 3 + c] = sg * (w2 * r0 - w0 * r2);
        out[2 * 3 + c] = sg * (w0 * r1 - w1 * r0);
    }
    out[0] += im; out[4] += im; out[8] += im;
    mt_lanes_put(slot, 9, out);
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
    int p0 = 0;
    if (st->lean.pairs) /* all lean (chains, trees of spherical joints): straight groups of four */
        for (; p0 + MT_LW <= st->npair; p0 += MT_LW) {
            int pi[MT_LW] = {p0, p0 + 1, p0 + 2, p0 + 3};
            sph_pair4(st, pi);
        }
    for (int p = p0; p <= st->npair; p++) {
        const MtPair *pr = &st->pair[p < st->npair ? p : 0];
        if (p < st->npair && pr->lean) {
            pend[npend++] = p;
            if (npend == MT_LW) { sph_pair4(st, pend); npend = 0; }
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
    double Om = s->model->loops == MT_LOOPS_LAGRANGE ? 0 : s->solver.stab_period > 0 ? 2 * M_PI / s->solver.stab_period : 0;
    double c1 = 2 * s->solver.stab_damping * Om, c0 = Om * Om;
    int feedback = s->model->loops == MT_LOOPS_PENALTY || s->model->loops == MT_LOOPS_MLF;
    int rows = done && st->lean.chain && !feedback && s->nrow; /* the body pass does the rows too */
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
            double nu = s->model->loop_freq > 0 ? s->model->loop_freq : 1000;
            for (int r = 0; r < b->nrow; r++)
                rhs[b->row0 + r] = loops_rhs(st, k, r, b->row0 + r, nu, s->solver.stab_damping, s->model->loops == MT_LOOPS_MLF);
        }
        for (int k = 0; k < s->nblock && !feedback && st->lean.n < s->nblock; k++) {
            const MtCBlock *b = &s->block[k];
            if (b->lean) continue; /* mt_stage_constraints_rhs did it */
            for (int r = 0; r < b->nrow; r++) {
                int row = b->row0 + r;
                double v = -st->h[row];
                switch (s->level[row]) { /* g̈ + 2ξΩġ + Ω²g = 0, ė + Ωe = 0 for velocity rows, none for accelerations */
                case 0: v -= c1 * st->gd[row] + c0 * st->g[row]; break;
                case 1: v -= Om * st->gd[row]; break;
                default: break;
                }
                v = row_sub(st, k, r, st->a0, v);
                rhs[row] = st->rowoff[row] ? 0 : v;
            }
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

static MtStatus project_positions(MtState *st, double tol, int maxit, MtError *err);

MtStatus mt_project_positions(MtState *st, double tol, int maxit, MtError *err)
{
    proj_metric(st, 1);
    MtStatus rc = project_positions(st, tol, maxit, err);
    proj_metric(st, 0);
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
        if (it == maxit) {
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
        mt_assemble(st);
        int bad = 0;
        if (mt_bchol_factor(st->chol, 0, MT_PIVOT_REG, &bad)) return singular(st, bad, st->t, err);
        for (int r = 0; r < s->nrow; r++) st->rhs[r] = st->rowoff[r] ? 0 : -st->g[r];
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
    if (mt_bchol_factor(st->chol, 0, MT_PIVOT_REG, &bad)) return singular(st, bad, st->t, err);
    for (int r = 0; r < s->nrow; r++) st->rhs[r] = st->rowoff[r] ? 0 : -st->gd[r];
    mt_bchol_solve(st->chol, st->rhs);
    add_reactions(st, st->rhs, st->u);
    return MT_OK;
}
