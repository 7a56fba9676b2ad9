/* mt_constraints.c — constraint rows of every block at one state: Jacobian
 * rows G (per side: linear then angular, project axes, for velocities of the
 * centre of mass and angular velocity), violation g, its rate ġ = G u − ḟ, the
 * velocity terms h (g̈ = G u̇ + h) and W = M⁻¹Gᵀ. Primitives:
 *   SPH    p_i − p_j = 0                      (3 rows)
 *   DOT    a_j · b_i = 0                      (axes perpendicular)
 *   TRANS  a_j · (p_i − p_j) = f(t)           (f = 0 except for drivers)
 *   ANGLE  atan2(y_j·x_i, x_j·x_i) = f(t)     (revolute driver, wrapped) */
#include <string.h>

#include "mt_kin.h"

/* Driver law and its first two derivatives. */
static void law(const MtCBlock *b, double t, double *f, double *fd, double *fdd)
{
    double v = 0, d = 0, dd = 0;
    for (int k = b->ncoef - 1; k >= 0; k--) {
        dd = dd * t + 2 * d;
        d = d * t + v;
        v = v * t + b->coef[k];
    }
    *f = v; *fd = d; *fdd = dd;
}

static void set_row(double *Gi, double *Gj, const double *li, const double *ai, const double *lj, const double *aj)
{
    for (int k = 0; k < 3; k++) {
        Gi[k] = li ? li[k] : 0; Gi[3 + k] = ai ? ai[k] : 0;
        Gj[k] = lj ? lj[k] : 0; Gj[3 + k] = aj ? aj[k] : 0;
    }
}

void mt_stage_constraints(MtState *st, double t, const double *q, const double *u)
{
    const MtSystem *s = st->sys;
    for (int k = 0; k < s->nblock; k++) {
        const MtCBlock *b = &s->block[k];
        MtMk I, J;
        int axes = !(b->nprim == 1 && b->prim[0].kind == MT_PRIM_SPH);
        mt_marker_eval_ax(st, q, u, b->mi, &I, axes);
        mt_marker_eval_ax(st, q, u, b->mj, &J, axes);
        double *Gi = mt_state_G(st, k, 0), *Gj = mt_state_G(st, k, 1);
        double *g = st->g + b->row0, *gd = st->gd + b->row0, *h = st->h + b->row0;
        double f = 0, fd = 0, fdd = 0;
        if (b->kind == MT_BLOCK_DRIVER) law(b, t, &f, &fd, &fdd);
        int r = 0;
        for (int p = 0; p < b->nprim; p++) {
            const MtPrim *pr = &b->prim[p];
            switch (pr->kind) {
            case MT_PRIM_SPH: {
                /* rows e_a: G_i = [e_a, r_i × e_a], G_j = −[e_a, r_j × e_a] */
                double ci[3], cj[3];
                mt_v3_cross(ci, I.w, I.r); mt_v3_cross(ci, I.w, ci);
                mt_v3_cross(cj, J.w, J.r); mt_v3_cross(cj, J.w, cj);
                const double *ri = I.r, *rj = J.r;
                double *A = Gi + 6 * r, *B = Gj + 6 * r;
                for (int x = 0; x < 3; x++)
                    for (int y = 0; y < 3; y++) { A[6 * x + y] = x == y; B[6 * x + y] = -(x == y); }
                A[3] = A[10] = A[17] = B[3] = B[10] = B[17] = 0;
                /* r × e_x = (0, r_z, −r_y), r × e_y = (−r_z, 0, r_x), r × e_z = (r_y, −r_x, 0) */
                A[4] = ri[2]; A[5] = -ri[1]; A[9] = -ri[2]; A[11] = ri[0]; A[15] = ri[1]; A[16] = -ri[0];
                B[4] = -rj[2]; B[5] = rj[1]; B[9] = rj[2]; B[11] = -rj[0]; B[15] = -rj[1]; B[16] = rj[0];
                for (int a = 0; a < 3; a++) {
                    g[r + a] = I.p[a] - J.p[a];
                    gd[r + a] = I.vp[a] - J.vp[a];
                    h[r + a] = ci[a] - cj[a];
                }
                r += 3;
                break;
            }
            case MT_PRIM_DOT: {
                const double *a = J.ax[pr->a], *bb = I.ax[pr->b];
                double c[3], mc[3], wd[3], t1[3], t2[3], cd[3];
                mt_v3_cross(c, a, bb);
                mt_v3_scale(mc, c, -1);
                set_row(Gi + 6 * r, Gj + 6 * r, NULL, mc, NULL, c);
                mt_v3_sub(wd, J.w, I.w);
                g[r] = mt_v3_dot(a, bb);
                gd[r] = mt_v3_dot(wd, c);
                mt_v3_cross(t1, J.w, a); mt_v3_cross(t1, t1, bb);
                mt_v3_cross(t2, I.w, bb); mt_v3_cross(t2, a, t2);
                mt_v3_add(cd, t1, t2);
                h[r] = mt_v3_dot(wd, cd);
                r++;
                break;
            }
            case MT_PRIM_TRANS: {
                const double *a = J.ax[pr->a];
                double d[3], dj[3], gj_ang[3], gi_ang[3], ma[3], ad[3], dd[3], add[3], t1[3], t2[3];
                mt_v3_sub(d, I.p, J.p);
                mt_v3_add(dj, d, J.r);
                mt_v3_cross(gj_ang, a, dj);
                mt_v3_cross(gi_ang, I.r, a);
                mt_v3_scale(ma, a, -1);
                set_row(Gi + 6 * r, Gj + 6 * r, a, gi_ang, ma, gj_ang);
                mt_v3_cross(ad, J.w, a);            /* ȧ */
                mt_v3_cross(add, J.w, ad);          /* ä (at zero ε) */
                mt_v3_sub(dd, I.vp, J.vp);          /* ḋ */
                mt_v3_cross(t1, I.w, I.r); mt_v3_cross(t1, I.w, t1);
                mt_v3_cross(t2, J.w, J.r); mt_v3_cross(t2, J.w, t2);
                double ddd[3];
                mt_v3_sub(ddd, t1, t2);             /* d̈ (at zero accelerations) */
                g[r] = mt_v3_dot(a, d) - f;
                gd[r] = mt_v3_dot(ad, d) + mt_v3_dot(a, dd) - fd;
                h[r] = mt_v3_dot(add, d) + 2 * mt_v3_dot(ad, dd) + mt_v3_dot(a, ddd) - fdd;
                r++;
                break;
            }
            case MT_PRIM_ANGLE: {
                const double *z = J.ax[2];
                double mz[3], wd[3], zd[3];
                mt_v3_scale(mz, z, -1);
                set_row(Gi + 6 * r, Gj + 6 * r, NULL, z, NULL, mz);
                double th = atan2(mt_v3_dot(J.ax[1], I.ax[0]), mt_v3_dot(J.ax[0], I.ax[0]));
                double e = th - f;
                e -= 2 * M_PI * floor((e + M_PI) / (2 * M_PI)); /* wrap: drivers may turn many revolutions */
                mt_v3_sub(wd, I.w, J.w);
                mt_v3_cross(zd, J.w, z);
                g[r] = e;
                gd[r] = mt_v3_dot(z, wd) - fd;
                h[r] = mt_v3_dot(zd, wd) - fdd;
                r++;
                break;
            }
            }
        }
        /* W = M⁻¹ Gᵀ per side (zero for ground) */
        int bodies[2] = {b->bi, b->bj};
        for (int side = 0; side < 2; side++) {
            double *Gs = mt_state_G(st, k, side), *Ws = mt_state_W(st, k, side);
            int bd = bodies[side];
            if (bd < 0) continue; /* ground: W is never read */
            double im = 1.0 / s->mass[bd];
            const double *Ji = st->Jwinv + 9 * bd;
            for (int rr = 0; rr < b->nrow; rr++) {
                mt_v3_scale(Ws + 6 * rr, Gs + 6 * rr, im);
                mt_m3_mulv(Ws + 6 * rr + 3, Ji, Gs + 6 * rr + 3);
            }
        }
    }
}
