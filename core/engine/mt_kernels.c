/* mt_kernels.c — the vector kernels (mt_kernels.h): the body pass, the lean
 * blocks' rows and the lean pairs of A, four bodies or blocks per vector
 * (mt_lanes.h). Each lane does exactly the scalar reference's operations in
 * the same order (compiled with -ffp-contract=off), so the results are the
 * reference's to the last bit; tests/core/test_kernels.c checks it. */
#include <string.h>

#include "mt_bchol.h"
#include "mt_kernels.h"
#include "mt_math.h"

/* One side of four lean blocks, lane by lane (lean_rows_group): its
 * body's rotation R and world inverse inertia S (row-major), origin x,
 * velocity v, angular velocity w and free acceleration a (linear, angular). */
typedef struct {
    MtLanes R[9], S[9], x[3], v[3], w[3], a[6];
} MtLeanIn;

/* Four lean blocks side by side, one per lane (mt_lanes.h); LANES: element i of each lane's row at offset o[l] of A */
#define LANES(A, o, i) ((MtLanes){(A)[(o)[0] + (i)], (A)[(o)[1] + (i)], (A)[(o)[2] + (i)], (A)[(o)[3] + (i)]})

/* {p[3], c[0], c[1], c[2]}: lanes one body back along a chain (two shuffles with AVX2, one with AVX-512) */
#define LEAN_BACK(p, c) __builtin_shuffle(__builtin_shuffle(p, c, (MtMask){2, 3, 4, 5}), c, (MtMask){1, 4, 3, 6})

/* One group gi of the lean blocks' rows: lean_block_rows of mt_constraints.c
 * in lanes, dlean (r, y, A(k,k)), g, ġ, h and with rhs the right-hand side
 *   v = −h − c1 ġ − c0 g − Σ σ (a_lin + a_ang × r)   (a = a0, the free accelerations).
 * A ground side reads another body masked to zero: r = marker position, and
 * zero position, velocity, inverse inertia and acceleration. pre: NULL to gather the inputs from R, Jwinv,
 * q, u and a0, or those of a lean chain's group (st->lean.chain) in lanes:
 * pre[0] the group's bodies (side 0), pre[1] the previous group's, whose last
 * lane with the first three of pre[0] is side 1 (lean_group). With
 * dslot, A(k,k) also goes straight to the factor's storage (mt_assemble then
 * skips its copy: MtState.lean.diag). */
static inline __attribute__((always_inline)) void lean_rows_group(MtState *st, int gi, const MtLeanIn *const *pre, int dslot,
                                                           const double *restrict q, const double *restrict u, double c0,
                                                           double c1, double *restrict rhs)
{
    const double *restrict Rall = st->R, *restrict Sall = st->Jwinv, *restrict a0 = st->a0;
    double *restrict gall = st->g, *restrict gdall = st->gd, *restrict hall = st->h;
    const unsigned char *restrict off = st->rowoff;
/* field f[i] of this side's inputs, from pre or gathered at the offsets o of array A */
#define LEAN_IN(f, A, i) (!pre ? LANES(A, o, i) : sd ? LEAN_BACK(pre[1]->f[i], pre[0]->f[i]) : pre[0]->f[i])
    {
        const double *C = st->lean.c + 8 * MT_LW * gi;
        const int *body = st->lean.body + 2 * MT_LW * gi, *blk = st->lean.blk + MT_LW * gi, *row = st->lean.row + MT_LW * gi;
        MtMask gm[2] = {{-1, -1, -1, -1}, {-1, -1, -1, -1}};
        int ground = st->lean.ground[gi];
        if (ground) memcpy(gm, st->lean.mask + 2 * MT_LW * gi, sizeof gm);
        MtLanes p[2][3], vp[2][3], c[2][3], t[2][3], out[32]; /* out: the dlean row, field by field */
        MtLanes d00 = {0}, d10 = {0}, d11 = {0}, d20 = {0}, d21 = {0}, d22 = {0};
#pragma GCC unroll 2
        for (int sd = 0; sd < 2; sd++) { /* unrolled: pre's fields are read in place, not copied */
            /* in phases, each with its own offsets: pointers for all five arrays and four lanes at once
             * did not fit in the registers */
            int o[MT_LW];
            for (int l = 0; l < MT_LW; l++) o[l] = 9 * body[2 * l + sd];
            MtMask m = gm[sd];
            MtLanes pos0, pos1, pos2, im;
            memcpy(&pos0, C + MT_LW * (3 * sd), sizeof(MtLanes));
            memcpy(&pos1, C + MT_LW * (3 * sd + 1), sizeof(MtLanes));
            memcpy(&pos2, C + MT_LW * (3 * sd + 2), sizeof(MtLanes));
            memcpy(&im, C + MT_LW * (6 + sd), sizeof(MtLanes));
            MtLanes r0 = LEAN_IN(R, Rall, 0) * pos0 + LEAN_IN(R, Rall, 1) * pos1 + LEAN_IN(R, Rall, 2) * pos2;
            MtLanes r1 = LEAN_IN(R, Rall, 3) * pos0 + LEAN_IN(R, Rall, 4) * pos1 + LEAN_IN(R, Rall, 5) * pos2;
            MtLanes r2 = LEAN_IN(R, Rall, 6) * pos0 + LEAN_IN(R, Rall, 7) * pos1 + LEAN_IN(R, Rall, 8) * pos2;
            MtLanes S0 = LEAN_IN(S, Sall, 0), S1 = LEAN_IN(S, Sall, 1), S2 = LEAN_IN(S, Sall, 2), S3 = LEAN_IN(S, Sall, 3);
            MtLanes S4 = LEAN_IN(S, Sall, 4), S5 = LEAN_IN(S, Sall, 5), S6 = LEAN_IN(S, Sall, 6), S7 = LEAN_IN(S, Sall, 7);
            MtLanes S8 = LEAN_IN(S, Sall, 8);
            if (ground) { /* ground lanes: r is the marker position, nothing else moves (masks below too) */
                r0 = MT_SEL(m, r0, pos0); r1 = MT_SEL(m, r1, pos1); r2 = MT_SEL(m, r2, pos2);
                S0 = MT_AND(m, S0); S1 = MT_AND(m, S1); S2 = MT_AND(m, S2); S3 = MT_AND(m, S3); S4 = MT_AND(m, S4);
                S5 = MT_AND(m, S5); S6 = MT_AND(m, S6); S7 = MT_AND(m, S7); S8 = MT_AND(m, S8);
            }
            /* y[a] = J⁻¹ (r × e_a): r × e_x = (0, r2, −r1), r × e_y = (−r2, 0, r0), r × e_z = (r1, −r0, 0) */
            MtLanes y[3][3] = {{r2 * S1 - r1 * S2, r2 * S4 - r1 * S5, r2 * S7 - r1 * S8},
                               {r0 * S2 - r2 * S0, r0 * S5 - r2 * S3, r0 * S8 - r2 * S6},
                               {r1 * S0 - r0 * S1, r1 * S3 - r0 * S4, r1 * S6 - r0 * S7}};
            for (int a = 0; a < 3; a++)
                for (int i = 0; i < 3; i++) out[6 + 9 * sd + 3 * a + i] = y[a][i];
            /* this side's part of A(k,k) = G W: δ/m + (r × e_a)·y_c (σ² = 1), lower triangle */
            out[30 + sd] = im;
            if (sd) im = -im;
            d00 += im + r2 * y[0][1] - r1 * y[0][2];
            d10 += r0 * y[0][2] - r2 * y[0][0];
            d11 += im - r2 * y[1][0] + r0 * y[1][2];
            d20 += r1 * y[0][0] - r0 * y[0][1];
            d21 += r1 * y[1][0] - r0 * y[1][1];
            d22 += im + r1 * y[2][0] - r0 * y[2][1];
            out[3 * sd] = r0; out[3 * sd + 1] = r1; out[3 * sd + 2] = r2;
            for (int l = 0; l < MT_LW; l++) o[l] = 7 * body[2 * l + sd];
            MtLanes xq0 = LEAN_IN(x, q, 0), xq1 = LEAN_IN(x, q, 1), xq2 = LEAN_IN(x, q, 2);
            for (int l = 0; l < MT_LW; l++) o[l] = 6 * body[2 * l + sd];
            MtLanes v0 = LEAN_IN(v, u, 0), v1 = LEAN_IN(v, u, 1), v2 = LEAN_IN(v, u, 2);
            MtLanes w0 = LEAN_IN(w, u + 3, 0), w1 = LEAN_IN(w, u + 3, 1), w2 = LEAN_IN(w, u + 3, 2);
            if (ground) {
                xq0 = MT_AND(m, xq0); xq1 = MT_AND(m, xq1); xq2 = MT_AND(m, xq2);
                v0 = MT_AND(m, v0); v1 = MT_AND(m, v1); v2 = MT_AND(m, v2); w0 = MT_AND(m, w0); w1 = MT_AND(m, w1); w2 = MT_AND(m, w2);
            }
            MtLanes wr0 = w1 * r2 - w2 * r1, wr1 = w2 * r0 - w0 * r2, wr2 = w0 * r1 - w1 * r0;
            p[sd][0] = xq0 + r0; p[sd][1] = xq1 + r1; p[sd][2] = xq2 + r2;
            vp[sd][0] = v0 + wr0; vp[sd][1] = v1 + wr1; vp[sd][2] = v2 + wr2;
            c[sd][0] = w1 * wr2 - w2 * wr1; c[sd][1] = w2 * wr0 - w0 * wr2; c[sd][2] = w0 * wr1 - w1 * wr0;
            if (rhs) { /* this side's σ (a_lin + a_ang × r) of the right-hand side, a = a0 */
                MtLanes x0 = LEAN_IN(a, a0, 0), x1 = LEAN_IN(a, a0, 1), x2 = LEAN_IN(a, a0, 2);
                MtLanes x3 = LEAN_IN(a, a0, 3), x4 = LEAN_IN(a, a0, 4), x5 = LEAN_IN(a, a0, 5);
                if (ground) {
                    x0 = MT_AND(m, x0); x1 = MT_AND(m, x1); x2 = MT_AND(m, x2); x3 = MT_AND(m, x3); x4 = MT_AND(m, x4); x5 = MT_AND(m, x5);
                }
                t[sd][0] = x0 + x4 * r2 - x5 * r1;
                t[sd][1] = x1 + x5 * r0 - x3 * r2;
                t[sd][2] = x2 + x3 * r1 - x4 * r0;
                if (sd) { t[sd][0] = -t[sd][0]; t[sd][1] = -t[sd][1]; t[sd][2] = -t[sd][2]; }
            }
        }
        out[24] = d00; out[25] = d10; out[26] = d11; out[27] = d20; out[28] = d21; out[29] = d22;
        if (dslot) { /* and the diagonal, the factor's pivot reference (mt_bchol_diag0) */
            double *d0 = mt_bchol_diag0(st->chol);
            for (int l = 0; l < MT_LW && row[l] >= 0; l++) {
                double *D = st->dslot[blk[l]];
                D[0] = d00[l]; D[3] = d10[l]; D[4] = d11[l]; D[6] = d20[l]; D[7] = d21[l]; D[8] = d22[l];
                d0[row[l]] = d00[l]; d0[row[l] + 1] = d11[l]; d0[row[l] + 2] = d22[l];
            }
        }
        double *dl[MT_LW];
        for (int l = 0; l < MT_LW; l++) dl[l] = st->dlean + MT_LEAN * blk[l];
        /* an inner stage leaves A(k,k) to the factor's storage and σ/m as it was (a constant) */
        mt_lanes_put(dl, dslot && st->lean.stage ? 24 : MT_LEAN, out);
        MtLanes ga[3], gda[3], ha[3], v[3];
        for (int a = 0; a < 3; a++) {
            ga[a] = p[0][a] - p[1][a];
            gda[a] = vp[0][a] - vp[1][a];
            ha[a] = c[0][a] - c[1][a];
            v[a] = -ha[a] - c1 * gda[a] - c0 * ga[a];
        }
        if (rhs) /* position rows of the Lagrange right-hand side: v −= Σ σ (a_lin + a_ang × r) */
            for (int sd = 0; sd < 2; sd++) { v[0] -= t[sd][0]; v[1] -= t[sd][1]; v[2] -= t[sd][2]; }
        int r0 = row[0], keep = !dslot || !st->lean.stage; /* an inner stage wants the right-hand side only */
        if (row[1] == r0 + 3 && row[2] == r0 + 6 && row[3] == r0 + 9) { /* consecutive blocks (chains): vector stores */
            unsigned long long o8;
            unsigned o4;
            memcpy(&o8, off + r0, sizeof o8);
            memcpy(&o4, off + r0 + 8, sizeof o4);
            if (!rhs || !(o8 | o4)) { /* no row out of the solve among the twelve */
                if (keep) {
                    mt_lanes_put3(gall + r0, ga);
                    mt_lanes_put3(gdall + r0, gda);
                    mt_lanes_put3(hall + r0, ha);
                }
                if (rhs) mt_lanes_put3(rhs + r0, v);
                return;
            }
        }
        for (int l = 0; l < MT_LW; l++) {
            int r0w = row[l];
            if (r0w < 0) break; /* padding */
            for (int a = 0; a < 3; a++) {
                if (keep) {
                    gall[r0w + a] = ga[a][l];
                    gdall[r0w + a] = gda[a][l];
                    hall[r0w + a] = ha[a][l];
                }
                if (rhs) rhs[r0w + a] = off[r0w + a] ? 0 : v[a][l];
            }
        }
    }
#undef LEAN_IN
}

/* The rows of lean group gi of a lean chain (MtState.lean.chain) from the
 * inputs of its bodies (in0) and of the previous group's (in1, the last lane
 * read) already in lanes, or gathered from the state when in0 is NULL. Also
 * writes the blocks' A(k,k) into the factor's storage (MtState.lean.diag). */
MT_HOT static void lean_group(MtState *st, int gi, const MtLeanIn *in0, const MtLeanIn *in1, const double *q, const double *u,
                              double c0, double c1, double *rhs)
{
    const MtLeanIn *pre[2] = {in0, in1};
    if (in0) /* two inlined copies: with pre a constant NULL the gathering one has no tests per input */ lean_rows_group(st, gi, pre, 1, q, u, c0, c1, rhs);
    else lean_rows_group(st, gi, NULL, 1, q, u, c0, c1, rhs);
}

MT_HOT void mt_kernel_lean_rows(MtState *st, const double *restrict q, const double *restrict u, double c0, double c1,
                                double *restrict rhs)
{
    for (int gi = 0, ngroup = (st->lean.n + MT_LW - 1) / MT_LW; gi < ngroup; gi++) lean_rows_group(st, gi, NULL, 0, q, u, c0, c1, rhs);
}

/* mt_body_eval for the four rigid bodies b..b+3, one per lane (mt_lanes.h),
 * when their inertia tensors are diagonal in body axes; with in (and done),
 * also their lanes as the row pass reads them. With lean (an inner stage of
 * a lean chain, whose row pass takes everything from in) only acc is
 * written, not R, Jwinv, f, a0: nobody reads them before the next full
 * evaluation (MtState.lean.stage). */
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

/* With rows, each group of blocks right after the group of bodies it reads
 * on side 0: its inputs go over in vectors, not gathered back from R, Jwinv,
 * q, u and a0. */
MT_HOT void mt_kernel_bodies(MtState *st, const double *restrict q, const double *restrict u, int done, int rows, double c0,
                             double c1, double *rhs)
{
    const MtSystem *s = st->sys;
    double *restrict qn = st->qn;
    int b = 0;
    /* square root and division first, in a loop of their own, four bodies per vector (both
     * are correctly rounded, so the lanes agree with the scalar 1/sqrt) */
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
    for (; b + MT_LW <= s->nbody; b += MT_LW) {
            if (st->lean.alldiag || diagonal4(s, b)) {
                body_eval4(st, q, u, done, b, rows ? cur : NULL, b < blean);
                if (!rows) continue;
                if (!have) lean_in_body(st, q, u, b - 1, prev);
                lean_group(st, b / MT_LW, cur, prev, q, u, c0, c1, rhs);
                MtLeanIn *t = prev;
                prev = cur;
                cur = t;
                have = 1;
            } else {
                for (int l = 0; l < MT_LW; l++) mt_body_eval(st, q, u, done, b + l);
                if (rows) lean_group(st, b / MT_LW, NULL, NULL, q, u, c0, c1, rhs);
                have = 0;
            }
        }
    int b1 = b;
    for (; b < s->nbody; b++) mt_body_eval(st, q, u, done, b);
    if (rows && b1 < s->nbody) lean_group(st, b1 / MT_LW, NULL, NULL, q, u, c0, c1, rhs); /* the last, part-filled group */
}

/* sph_pair (mt_dynamics.c) for four lean pairs st->pair[pi[0..3]], one per lane. */
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

MT_HOT void mt_kernel_sph_pair4(const MtState *st, const int *pi)
{
    sph_pair4(st, pi);
}

MT_HOT int mt_kernel_lean_pairs(const MtState *st)
{
    int p0 = 0;
    for (; p0 + MT_LW <= st->npair; p0 += MT_LW) {
        int pi[MT_LW] = {p0, p0 + 1, p0 + 2, p0 + 3};
        sph_pair4(st, pi);
    }
    return p0;
}
