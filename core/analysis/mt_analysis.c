/* mt_analysis.c — kinematic analysis, static equilibrium and linearisation
 * (motus/analysis.h; docs/analyses.md).
 *
 * Tangent coordinates: per body 6 entries, a displacement of the centre of
 * mass and a small rotation vector θ in project axes, applied as
 * q ⊕ δ = (x + δx, exp(θ) ⊗ p), then the modal coordinates of flexible bodies
 * (w + δw) — the same space as the velocities u, so the constraint Jacobian
 * G is also ∂g/∂δ and Fᵀδ is the virtual work. A point mass's rotation is
 * frozen: no unknown, no mode.
 * Dense matrices are column-major (LAPACK); every work array is allocated
 * before the iterations start. */
#include "motus/analysis.h"

#include "motus/flexview.h"

#include <lapacke.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_flex.h"
#include "mt_i18n.h"
#include "mt_integrate.h"
#include "mt_kin.h"

#define IDX(i, j, ld) ((size_t)(i) + (size_t)(j) * (size_t)(ld))

/* ---- small helpers --------------------------------------------------------------- */

static int block_of_row(const MtSystem *s, int row)
{
    int k = 0;
    while (k + 1 < s->nblock && s->block[k + 1].row0 <= row) k++;
    return k;
}

/* Index in the u layout of the first modal coordinate of body bd (its modal
 * columns follow all the rigid ones). */
static int modal_index(const MtSystem *s, int bd)
{
    return 6 * s->nbody + s->flex[s->bflex[bd]].moff;
}

/* qo = qi ⊕ a·dx (qo may be qi); modal coordinates add. */
static void retract(const MtSystem *s, double *qo, const double *qi, const double *dx, double a)
{
    for (int b = 0; b < s->nbody; b++) {
        const double *d = dx + 6 * b;
        double v[3], dr[4], p[4];
        for (int k = 0; k < 3; k++) qo[7 * b + k] = qi[7 * b + k] + a * d[k];
        mt_v3_scale(v, d + 3, a);
        mt_quat_from_rotvec(dr, v);
        memcpy(p, qi + 7 * b + 3, sizeof p);
        mt_quat_mul(qo + 7 * b + 3, dr, p);
        mt_quat_normalize(qo + 7 * b + 3);
    }
    for (int i = 0; i < s->nmodal; i++) qo[7 * s->nbody + i] = qi[7 * s->nbody + i] + a * dx[6 * s->nbody + i];
}

/* out += Xᵀ λ over the independent rows for X = G (W = 0) or X = M⁻¹Gᵀ
 * (W = 1) as staged in st, modal columns included. */
static void add_xl(const MtState *st, const double *lam, double *out, int W)
{
    const MtSystem *s = st->sys;
    for (int k = 0; k < s->nblock; k++) {
        const MtCBlock *b = &s->block[k];
        for (int sd = 0; sd < b->nside; sd++) {
            int bd = b->body[sd];
            if (bd < 0) continue;
            const double *G = W ? mt_state_W(st, k, sd) : mt_state_G(st, k, sd);
            int N = mt_body_modes(s, bd);
            const double *Gw = b->gwoff[sd] >= 0 ? (W ? st->Ww : st->Gw) + b->gwoff[sd] : NULL;
            for (int r = 0; r < b->nrow; r++) {
                int row = b->row0 + r;
                if (s->dep[row]) continue;
                for (int c = 0; c < 6; c++) out[6 * bd + c] += G[6 * r + c] * lam[row];
                if (!Gw) continue;
                double *ow = out + modal_index(s, bd);
                for (int c = 0; c < N; c++) ow[c] += Gw[r * N + c] * lam[row];
            }
        }
    }
}

/* out += Gᵀ λ over the independent rows, with the Jacobians staged in st. */
static void add_gt(const MtState *st, const double *lam, double *out) { add_xl(st, lam, out, 0); }

/* out += M⁻¹ Gᵀ λ (W = M⁻¹Gᵀ staged in st). */
static void add_wl(const MtState *st, const double *lam, double *out) { add_xl(st, lam, out, 1); }

/* G_row · v over the sides of the row's block, modal columns included. */
static double g_dot(const MtState *st, int k, int r, const double *v)
{
    const MtSystem *s = st->sys;
    const MtCBlock *b = &s->block[k];
    double x = 0;
    for (int sd = 0; sd < b->nside; sd++) {
        int bd = b->body[sd];
        if (bd < 0) continue;
        const double *G = mt_state_G(st, k, sd) + 6 * r;
        for (int c = 0; c < 6; c++) x += G[c] * v[6 * bd + c];
        if (b->gwoff[sd] < 0) continue;
        int N = mt_body_modes(s, bd);
        const double *Gw = st->Gw + b->gwoff[sd] + r * N, *vw = v + modal_index(s, bd);
        for (int c = 0; c < N; c++) x += Gw[c] * vw[c];
    }
    return x;
}

static MtStatus singular_at(const MtState *st, int blk, const char *what, MtError *err)
{
    const MtSystem *s = st->sys;
    const char *name = mt_block_name(s, blk);
    const MtCBlock *b = &s->block[blk];
    const char *fmt = b->kind == MT_BLOCK_JOINT
        ? MT_("joint '%s': constraint equations are singular at t = %.6g s during the %s (the mechanism is at a "
              "locked or branching position); check its geometry")
        : b->kind == MT_BLOCK_DRIVER
        ? MT_("driver '%s': constraint equations are singular at t = %.6g s during the %s (the mechanism is at a "
              "locked or branching position); check its geometry")
        : MT_("coupling '%s': constraint equations are singular at t = %.6g s during the %s (the mechanism is at a "
              "locked or branching position); check its geometry");
    return mt_error_set(err, MT_ERR_SOLVE, name, fmt, name, st->t, what);
}

/* Characteristic length: marker offsets from the centres of mass and spring lengths. */
static double length_scale(const MtSystem *s)
{
    double L = 0;
    for (int k = 0; k < s->nmarker; k++)
        if (s->mbody[k] >= 0) L = fmax(L, mt_v3_norm(s->mpos + 3 * k));
    for (int k = 0; k < s->nspring; k++) L = fmax(L, s->model->spring[k].length);
    return L > 1e-9 ? L : 1.0;
}

/* ---- dense workspace for statics and linearisation ----------------------------- */

typedef struct {
    const MtSystem *s;
    MtState *st;
    int nb, nx, nr, n; /* nx = nu (6 per body, then the modal coordinates); n = nx + nr unknowns */
    int nq;            /* 7 per body, then the modal coordinates */
    double t, L, F;
    /* per tangent coordinate: its unit (L for translations, 1 rad, the static
     * deflection under F·L for a modal coordinate) and kind */
    double *ux;
    unsigned char *kind;             /* TAN_TRANS, TAN_ROT, TAN_MODAL, TAN_FROZEN */
    int na, *act;                    /* the coordinates that are not frozen */
    double *Mf;                      /* nx²: the mass matrix at the last mass_dense */
    double *q, *qp, *u0, *up, *dx;   /* nq, nq, nx (zero), nx, nx */
    double *lam, *lamt;              /* nr */
    double *qs, *lams;               /* start of the search: nq, nr */
    double *rq, *ru, *qr;            /* relaxation: last accepted state, nq, nx; its end state, nq */
    double *R, *R1, *z, *rs, *cs;    /* n */
    double *fp, *fm, *rho, *dir;     /* nx, nx, nr, nx */
    double *K, *C, *Gd, *J, *sv, *work; /* nx², nx², nr·nx, n², n, lwork */
    lapack_int *iwork, *ipiv;
    int lwork;
    /* null space and reduced matrices (dof ≤ nx): N, Mr, Kr, tmp, eigenvalues,
     * SVD input, Vᵀ, singular values, SVD and eigensolver workspaces */
    double *N, *Mr, *Kr, *tmp, *ev, *svdA, *VT, *ssv, *swork, *ework;
    int lswork, lework;
    const volatile int *cancel; /* MtStaticsOptions.cancel: non-zero stops Newton and relaxation */
} Lin;

#define CANCELLED(L) ((L)->cancel && *(L)->cancel)

/* Kinds of tangent coordinates. A point mass's rotation is frozen: it has no
 * inertia and nothing turns it (its frame keeps its orientation), so it is no
 * unknown of the equilibrium and no coordinate of the vibration. */
enum { TAN_TRANS, TAN_ROT, TAN_MODAL, TAN_FROZEN };

static void lin_free(Lin *L)
{
    if (!L) return;
    free(L->ux); free(L->kind); free(L->act); free(L->Mf);
    free(L->q); free(L->qp); free(L->u0); free(L->up); free(L->dx);
    free(L->lam); free(L->lamt); free(L->qs); free(L->lams); free(L->rq); free(L->ru); free(L->qr);
    free(L->R); free(L->R1); free(L->z); free(L->rs); free(L->cs);
    free(L->fp); free(L->fm); free(L->rho); free(L->dir);
    free(L->K); free(L->C); free(L->Gd); free(L->J); free(L->sv); free(L->work); free(L->iwork); free(L->ipiv);
    free(L->N); free(L->Mr); free(L->Kr); free(L->tmp); free(L->ev); free(L->svdA); free(L->VT); free(L->ssv);
    free(L->swork); free(L->ework);
    free(L);
}

static Lin *lin_new(MtState *st, MtError *err)
{
    const MtSystem *s = st->sys;
    Lin *L = calloc(1, sizeof *L);
    if (!L) goto nomem;
    L->s = s;
    L->st = st;
    L->nb = s->nbody;
    L->nx = s->nu;
    L->nq = s->nq;
    L->nr = s->nrow;
    L->n = L->nx + L->nr;
    L->t = st->t;
    L->L = length_scale(s);
    L->F = 1;
    size_t nq = (size_t)L->nq + 1, nx = (size_t)L->nx + 1, nr = (size_t)L->nr + 1, n = (size_t)L->n + 1;
#define ALLOC(f, cnt) if (!(L->f = calloc((cnt), sizeof *L->f))) goto nomem
    ALLOC(q, nq); ALLOC(qp, nq); ALLOC(u0, nx); ALLOC(up, nx); ALLOC(dx, nx);
    ALLOC(lam, nr); ALLOC(lamt, nr); ALLOC(qs, nq); ALLOC(lams, nr); ALLOC(rq, nq); ALLOC(ru, nx); ALLOC(qr, nq);
    ALLOC(ux, nx); ALLOC(kind, nx); ALLOC(act, nx); ALLOC(Mf, nx * nx);
    ALLOC(R, n); ALLOC(R1, n); ALLOC(z, n); ALLOC(rs, n); ALLOC(cs, n);
    ALLOC(fp, nx); ALLOC(fm, nx); ALLOC(rho, nr); ALLOC(dir, nx);
    ALLOC(K, nx * nx); ALLOC(C, nx * nx); ALLOC(Gd, nr * nx); ALLOC(J, n * n); ALLOC(sv, n);
    ALLOC(N, nx * nx); ALLOC(Mr, nx * nx); ALLOC(Kr, nx * nx); ALLOC(tmp, 2 * nx * nx); ALLOC(ev, nx);
    ALLOC(svdA, nr * nx); ALLOC(VT, nx * nx); ALLOC(ssv, nx + nr);
#undef ALLOC
    /* least-squares solver workspace, queried once */
    double wq = 0;
    lapack_int iwq = 0, rank = 0, nn = L->n > 0 ? L->n : 1;
    lapack_int info = LAPACKE_dgelsd_work(LAPACK_COL_MAJOR, nn, nn, 1, L->J, nn, L->z, nn, L->sv, 1e-12, &rank, &wq,
                                          -1, &iwq);
    if (info != 0) goto nomem;
    L->lwork = (int)wq + 1;
    L->work = malloc(sizeof(double) * (size_t)L->lwork);
    /* SVD (Vᵀ only) and symmetric eigensolver workspaces, queried once */
    int nxq = L->nx > 0 ? L->nx : 1, nrq = L->nr > 0 ? L->nr : 1;
    wq = 0;
    if (LAPACKE_dgesvd_work(LAPACK_COL_MAJOR, 'N', 'A', nrq, nxq, L->svdA, nrq, L->ssv, NULL, 1, L->VT, nxq, &wq, -1))
        goto nomem;
    L->lswork = (int)wq + 1;
    wq = 0;
    if (LAPACKE_dsyev_work(LAPACK_COL_MAJOR, 'V', 'U', nxq, L->Kr, nxq, L->ev, &wq, -1)) goto nomem;
    L->lework = (int)wq + 1;
    L->swork = malloc(sizeof(double) * (size_t)L->lswork);
    L->ework = malloc(sizeof(double) * (size_t)L->lework);
    if (!L->swork || !L->ework) goto nomem;
    L->iwork = malloc(sizeof(lapack_int) * (size_t)(iwq > 1 ? iwq + 1 : 2));
    L->ipiv = malloc(sizeof(lapack_int) * n);
    if (!L->work || !L->iwork || !L->ipiv) goto nomem;
    memcpy(L->q, st->q, sizeof(double) * (size_t)L->nq);
    for (int i = 0; i < L->nx; i++) {
        int b = i < 6 * L->nb ? i / 6 : -1;
        L->kind[i] = b < 0 ? TAN_MODAL : i % 6 < 3 ? TAN_TRANS : s->model->body[b].point_mass ? TAN_FROZEN : TAN_ROT;
        L->ux[i] = L->kind[i] == TAN_TRANS ? L->L : 1.0; /* modal units once the force scale is known (lin_scales) */
        if (L->kind[i] != TAN_FROZEN) L->act[L->na++] = i;
    }
    return L;
nomem:
    mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory for the analysis"));
    lin_free(L);
    return NULL;
}

/* out = F(q, u) + G(q)ᵀλ (lam may be NULL): forces from the engine's own
 * evaluation (mt_eval stages bodies, forces and constraints at q). */
static void gen_force(Lin *L, const double *q, const double *u, const double *lam, double *out)
{
    MtState *st = L->st;
    mt_eval(st, L->t, q, u, NULL); /* only the staged forces and Jacobians are used */
    memcpy(out, st->f, sizeof(double) * (size_t)L->nx);
    if (lam) add_gt(st, lam, out);
    for (int i = 0; i < L->nx; i++)
        if (L->kind[i] == TAN_FROZEN) out[i] = 0; /* a moment on a point mass does nothing */
}

/* L->Mf = M(q), dense nx × nx: per rigid body m·1 and the inertia in project
 * axes, per flexible body its (6 + N)² block — rebuilt from the factor the
 * engine stages (M = L·Lᵀ), so the analysis uses the very matrix of the
 * dynamics. Stages the bodies at q. */
static void mass_dense(Lin *L, const double *q)
{
    const MtSystem *s = L->s;
    MtState *st = L->st;
    int nx = L->nx;
    double *M = L->Mf;
    mt_stage_bodies(st, q);
    memset(M, 0, sizeof(double) * (size_t)nx * (size_t)nx);
    for (int b = 0; b < L->nb; b++) {
        if (mt_body_modes(s, b)) continue;
        double Jw[9];
        mt_m3_rotate_sym(Jw, st->R + 9 * b, s->Jc + 9 * b);
        for (int c = 0; c < 3; c++) {
            M[IDX(6 * b + c, 6 * b + c, nx)] = s->mass[b];
            for (int e = 0; e < 3; e++) M[IDX(6 * b + 3 + c, 6 * b + 3 + e, nx)] = Jw[3 * c + e];
        }
    }
    for (int k = 0; k < s->nflex; k++) {
        const MtFlexSys *f = &s->flex[k];
        const double *Lf = st->fmat + f->moffm; /* lower Cholesky factor, d × d column-major */
        int d = f->d;
        for (int i = 0; i < d; i++)
            for (int j = 0; j <= i; j++) {
                double v = 0;
                for (int p = 0; p <= j; p++) v += Lf[i + (size_t)d * p] * Lf[j + (size_t)d * p];
                int gi = i < 6 ? 6 * f->body + i : 6 * L->nb + f->moff + i - 6;
                int gj = j < 6 ? 6 * f->body + j : 6 * L->nb + f->moff + j - 6;
                M[IDX(gi, gj, nx)] = M[IDX(gj, gi, nx)] = v;
            }
    }
}

/* Dense G (nr × nx) of the independent rows as staged in st. */
static void fill_gd(Lin *L)
{
    const MtSystem *s = L->s;
    memset(L->Gd, 0, sizeof(double) * (size_t)L->nr * (size_t)L->nx);
    for (int k = 0; k < s->nblock; k++) {
        const MtCBlock *b = &s->block[k];
        for (int sd = 0; sd < b->nside; sd++) {
            int bd = b->body[sd];
            if (bd < 0) continue;
            const double *G = mt_state_G(L->st, k, sd);
            int N = mt_body_modes(s, bd), w0 = N ? modal_index(s, bd) : 0;
            for (int r = 0; r < b->nrow; r++) {
                int row = b->row0 + r;
                if (s->dep[row]) continue;
                for (int c = 0; c < 6; c++) L->Gd[IDX(row, 6 * bd + c, L->nr)] += G[6 * r + c];
                for (int c = 0; c < N; c++) L->Gd[IDX(row, w0 + c, L->nr)] += L->st->Gw[b->gwoff[sd] + r * N + c];
            }
        }
    }
}

/* Scales of unknowns (cs) and equations (rs) so that the Newton matrix has
 * entries of order one: δx in units of L, δθ in rad, λ_r in F·L/ρ_r; forces by
 * F, moments by F·L, equation r by ρ_r (its largest Jacobian entry in those
 * units). Needs fill_gd at the start configuration and L->F. */
static void lin_scales(Lin *L)
{
    const MtSystem *s = L->s;
    for (int k = 0; k < s->nflex; k++) { /* modal unit: the deflection the force scale gives at lever L */
        const MtFlexSys *f = &s->flex[k];
        for (int j = 0; j < f->N; j++) {
            double kjj = f->K[j + (size_t)f->N * j];
            L->ux[6 * L->nb + f->moff + j] = kjj > 0 ? sqrt(L->F * L->L / kjj) : 1.0;
        }
    }
    for (int r = 0; r < L->nr; r++) {
        double m = 0;
        for (int c = 0; c < L->nx; c++) m = fmax(m, fabs(L->Gd[IDX(r, c, L->nr)]) * L->ux[c]);
        L->rho[r] = m > 0 ? m : 1.0;
    }
    for (int i = 0; i < L->nx; i++) { /* generalised forces: per unit of virtual work F·L over the coordinate's unit */
        L->cs[i] = L->ux[i];
        L->rs[i] = L->ux[i] / (L->F * L->L);
    }
    for (int r = 0; r < L->nr; r++) {
        L->cs[L->nx + r] = L->F * L->L / L->rho[r];
        L->rs[L->nx + r] = L->s->dep[r] ? 1 / L->cs[L->nx + r] : 1 / L->rho[r];
    }
}

/* Residual of the equilibrium equations at (q, λ), u = 0: F + Gᵀλ, then g for
 * independent rows and λ for dependent ones. Returns the scaled 2-norm; *inf
 * the scaled largest entry. Leaves the Jacobians staged at q. */
static double residual(Lin *L, const double *q, const double *lam, double *R, double *inf)
{
    gen_force(L, q, L->u0, lam, R);
    for (int r = 0; r < L->nr; r++) R[L->nx + r] = L->s->dep[r] ? lam[r] : L->st->g[r];
    double s2 = 0, m = 0;
    for (int i = 0; i < L->n; i++) {
        double v = L->rs[i] * R[i];
        s2 += v * v;
        m = fmax(m, fabs(v));
    }
    if (inf) *inf = m;
    return sqrt(s2);
}

/* K = sign · ∂(F + Gᵀλ)/∂δ at (q, u = 0) by the fourth-order central
 * difference (f(−2h) − 8f(−h) + 8f(h) − f(2h))/12h: truncation ~h⁴/30 and
 * rounding ~ε/h, both near 1e-13 relative with h = 5e-4 (in units of L and rad). */
static void fd_stiffness(Lin *L, const double *q, const double *lam, double *K, double sign)
{
    int nx = L->nx;
    static const double off[4] = {-2, -1, 1, 2}, wt[4] = {1, -8, 8, -1};
    memset(L->dx, 0, sizeof(double) * (size_t)nx);
    for (int j = 0; j < nx; j++) {
        double h = 5e-4 * L->ux[j];
        for (int i = 0; i < nx; i++) K[IDX(i, j, nx)] = 0;
        if (L->kind[j] == TAN_FROZEN) continue;
        for (int p = 0; p < 4; p++) {
            L->dx[j] = h * off[p];
            retract(L->s, L->qp, q, L->dx, 1);
            gen_force(L, L->qp, L->u0, lam, L->fp);
            for (int i = 0; i < nx; i++) K[IDX(i, j, nx)] += wt[p] * L->fp[i];
        }
        L->dx[j] = 0;
        for (int i = 0; i < nx; i++) K[IDX(i, j, nx)] *= sign / (12 * h);
    }
}

/* C = −∂F/∂u at (q, u = 0) by central differences (exact for forces linear or
 * quadratic in u — dampers, gyroscopic terms — whatever the step, so the step
 * is chosen for rounding: 1e-2 L/s and 1e-2 rad/s). */
static void fd_damping(Lin *L, const double *q, double *C)
{
    int nx = L->nx;
    memset(L->up, 0, sizeof(double) * (size_t)nx);
    for (int j = 0; j < nx; j++) {
        double h = 1e-2 * L->ux[j];
        if (L->kind[j] == TAN_FROZEN) {
            for (int i = 0; i < nx; i++) C[IDX(i, j, nx)] = 0;
            continue;
        }
        L->up[j] = h;
        gen_force(L, q, L->up, NULL, L->fp);
        L->up[j] = -h;
        gen_force(L, q, L->up, NULL, L->fm);
        L->up[j] = 0;
        for (int i = 0; i < nx; i++) C[IDX(i, j, nx)] = -(L->fp[i] - L->fm[i]) / (2 * h);
    }
}

/* ---- null space of the constraints ------------------------------------------ */

/* Basis N (nx × dof, column-major, in L->N) of the motions the independent
 * rows of G (fill_gd) allow, from an SVD of G scaled to consistent units.
 * *dof its dimension. No allocation. */
static double *null_space(Lin *L, int *dof, MtError *err)
{
    int nx = L->nx, nr = L->nr, na = L->na;
    double *N = L->N;
    memset(N, 0, sizeof(double) * (size_t)nx * (size_t)nx); /* frozen coordinates stay 0 */
    if (nr == 0) {
        for (int k = 0; k < na; k++) N[IDX(L->act[k], k, nx)] = L->ux[L->act[k]];
        *dof = na;
        return N;
    }
    /* the SVD over the coordinates that are not frozen, columns in their units */
    double *A = L->svdA, *VT = L->VT, *sv = L->ssv;
    int mn = nr < na ? nr : na;
    for (int r = 0; r < nr; r++)
        for (int c = 0; c < na; c++) A[IDX(r, c, nr)] = L->Gd[IDX(r, L->act[c], nr)] * L->ux[L->act[c]];
    lapack_int info = LAPACKE_dgesvd_work(LAPACK_COL_MAJOR, 'N', 'A', nr, na, A, nr, sv, NULL, 1, VT, na, L->swork,
                                          L->lswork);
    if (info != 0) {
        mt_error_set(err, MT_ERR_SOLVE, "", "%s", MT_("the singular value decomposition of the constraint Jacobian failed"));
        return NULL;
    }
    int rank = 0;
    for (int i = 0; i < mn; i++)
        if (sv[i] > 1e-9 * sv[0]) rank++;
    *dof = na - rank;
    for (int k = 0; k < *dof; k++)
        for (int c = 0; c < na; c++) N[IDX(L->act[c], k, nx)] = VT[IDX(rank + k, c, na)] * L->ux[L->act[c]];
    return N;
}

/* The first coordinate a joint has (angle, else displacement, else x); -1 if none. */
static int joint_first_term(const MtModel *m, int j, MtTerm *t, MtCoordKind *kind)
{
    static const MtCoordKind order[] = {MT_COORD_ANGLE, MT_COORD_DISP, MT_COORD_X};
    for (int k = 0; k < 3; k++)
        if (mt_joint_term(m, j, order[k], t) == 0) {
            if (kind) *kind = order[k];
            return 0;
        }
    return -1;
}

/* Change of a joint coordinate along the tangent direction v at q (central
 * difference of the coordinate's own formula; angles compared modulo 2π). */
static double coord_rate(Lin *L, const double *q, const MtTerm *t, const double *v, double scale)
{
    double e = 1e-5 / scale;
    retract(L->s, L->qp, q, v, e);
    mt_stage_bodies(L->st, L->qp);
    double a = mt_term_value(L->st, L->qp, t);
    retract(L->s, L->qp, q, v, -e);
    mt_stage_bodies(L->st, L->qp);
    double b = mt_term_value(L->st, L->qp, t);
    double d = a - b;
    if (t->angle) d -= 2 * M_PI * floor((d + M_PI) / (2 * M_PI));
    return d / (2 * e);
}

/* Lists the coordinates (else the bodies) that move in the null space of G. */
static void describe_free(Lin *L, const double *N, int dof, char *buf, size_t len, const char **first)
{
    const MtModel *m = L->s->model;
    buf[0] = 0;
    *first = "";
    int count = 0;
    for (int j = 0; j < m->njoint; j++)
        for (int c = 0; c < MT_COORD_NONE; c++) {
            MtTerm t;
            if (mt_joint_term(m, j, (MtCoordKind)c, &t)) continue;
            double mx = 0;
            for (int k = 0; k < dof; k++) {
                double nrm = 0;
                for (int i = 0; i < L->nx; i++) nrm = fmax(nrm, fabs(N[IDX(i, k, L->nx)]) / L->cs[i]);
                mx = fmax(mx, fabs(coord_rate(L, L->q, &t, N + IDX(0, k, L->nx), nrm)) / nrm / (t.angle ? 1.0 : L->L));
            }
            if (mx < 1e-6) continue;
            size_t n = strlen(buf);
            if (!count) *first = m->joint[j].name;
            if (n + 80 < len) snprintf(buf + n, len - n, "%s'%s' %s", count ? ", " : "", m->joint[j].name, mt_coord_name((MtCoordKind)c));
            count++;
        }
    if (count) return;
    for (int b = 0; b < L->nb; b++) {
        double mx = 0;
        for (int k = 0; k < dof; k++)
            for (int c = 0; c < 6; c++) mx = fmax(mx, fabs(N[IDX(6 * b + c, k, L->nx)]) / L->cs[6 * b + c]);
        if (mx < 1e-6) continue;
        size_t n = strlen(buf);
        if (!count) *first = m->body[b].name;
        if (n + 80 < len) snprintf(buf + n, len - n, "%s%s '%s'", count ? ", " : "", MT_("body"), m->body[b].name);
        count++;
    }
}

/* ---- kinematic analysis ------------------------------------------------------- */

/* Accelerations from the constraints alone: G u̇ = −h, u̇ = M⁻¹Gᵀμ. */
static MtStatus kin_acc(MtState *st, double *acc, MtError *err)
{
    const MtSystem *s = st->sys;
    mt_stage_bodies(st, st->q);
    mt_stage_constraints(st, st->t, st->q, st->u);
    mt_assemble(st);
    int bad = 0;
    if (mt_bchol_factor(st->chol, 0, 0, &bad)) return singular_at(st, bad, MT_("kinematic analysis"), err);
    for (int r = 0; r < s->nrow; r++) st->rhs[r] = s->dep[r] ? 0 : -st->h[r];
    mt_bchol_solve(st->chol, st->rhs);
    memset(acc, 0, sizeof(double) * (size_t)s->nu);
    add_wl(st, st->rhs, acc);
    return MT_OK;
}

/* Multipliers of the inverse dynamics at (t, q, u): G M⁻¹(F + Gᵀλ) = −h, with
 * no stabilisation terms; acc gets M⁻¹(F + Gᵀλ). */
static MtStatus inverse_dynamics(MtState *st, double *acc, MtError *err)
{
    const MtSystem *s = st->sys;
    MtStatus rc = mt_eval(st, st->t, st->q, st->u, err); /* stages F, G, W, h and factors A at q */
    if (rc) return rc;
    for (int k = 0; k < s->nblock; k++) {
        const MtCBlock *b = &s->block[k];
        for (int r = 0; r < b->nrow; r++) {
            int row = b->row0 + r;
            st->lambda[row] = s->dep[row] ? 0 : -st->h[row] - g_dot(st, k, r, st->a0);
        }
    }
    mt_bchol_solve(st->chol, st->lambda);
    memcpy(acc, st->a0, sizeof(double) * (size_t)s->nu);
    add_wl(st, st->lambda, acc);
    return MT_OK;
}

/* Refusal when degrees of freedom are left: names the free coordinates. */
static MtStatus refuse_free(MtState *st, MtError *err)
{
    const MtSystem *s = st->sys;
    Lin *L = lin_new(st, err);
    if (!L) return err ? err->code : MT_ERR_NOMEM;
    mt_stage_bodies(st, st->q);
    mt_stage_constraints(st, st->t, st->q, st->u);
    fill_gd(L);
    lin_scales(L);
    int dof = 0;
    double *N = null_space(L, &dof, err);
    if (!N) { lin_free(L); return err ? err->code : MT_ERR_NOMEM; }
    char list[400];
    const char *first = "";
    describe_free(L, N, dof, list, sizeof list, &first);
    mt_error_set(err, MT_ERR_MODEL, first,
                 MT_("kinematic analysis needs a fully driven mechanism, but it has %d degree(s) of freedom left "
                     "(free: %s); add drivers for them or use 'run'"),
                 s->dof_rank, list[0] ? list : "?");
    lin_free(L);
    return MT_ERR_MODEL;
}

MtStatus mt_kinematics(MtState *st, double until, double step, int every, MtFrameFn fn, void *user,
                       const volatile int *cancel, MtKinStats *stats, MtError *err)
{
    const MtSystem *s = st->sys;
    if (stats) memset(stats, 0, sizeof *stats);
    if (!(step > 0) || !(until >= st->t) || every < 1)
        return mt_error_set(err, MT_ERR_ARG, "solver",
                            MT_("kinematic analysis: need step > 0, end time ≥ start time and every ≥ 1"));
    MtStatus lrc = mt_run_check_length(st->t, until, step, MT_("kinematic analysis"), err);
    if (lrc) return lrc;
    if (s->nbody == 0)
        return mt_error_set(err, MT_ERR_MODEL, "", "%s", MT_("kinematic analysis: the model has no bodies"));
    for (int r = 0; r < s->nrow; r++)
        if (s->level[r] != 0 && !s->dep[r]) {
            int k = block_of_row(s, r);
            const char *name = mt_block_name(s, k);
            return mt_error_set(err, MT_ERR_MODEL, name,
                                s->block[k].kind == MT_BLOCK_DRIVER
                                    ? MT_("driver '%s' prescribes a velocity or an acceleration; kinematic analysis "
                                          "needs drivers at displacement level (use 'run')")
                                    : MT_("joint '%s' has velocity-level (non-holonomic) equations; kinematic analysis "
                                          "needs position constraints only (use 'run')"),
                                name);
        }
    if (s->dof_rank > 0) return refuse_free(st, err);
    int nu = s->nu;
    double *acc = malloc(sizeof(double) * (size_t)nu), *dq = malloc(sizeof(double) * (size_t)nu);
    if (!acc || !dq) {
        free(acc); free(dq);
        return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory for the analysis"));
    }
    double t0 = st->t;
    long nsteps = (long)ceil((until - t0) / step - 1e-9);
    if (nsteps < 0) nsteps = 0;
    MtStatus rc = MT_OK;
    for (long i = 0; i <= nsteps; i++) {
        double t = i == nsteps ? until : t0 + (double)i * step;
        if (i > 0) { /* second-order prediction from the last point, then Newton */
            double h = t - st->t;
            for (int k = 0; k < nu; k++) dq[k] = h * st->u[k] + 0.5 * h * h * acc[k];
            retract(s, st->q, st->q, dq, 1);
        }
        st->t = t;
        if ((rc = mt_project_positions(st, 1e-12, 50, err))) break;
        memset(st->u, 0, sizeof(double) * (size_t)nu); /* the unique solution of G u = ḟ */
        if ((rc = mt_project_velocities(st, err))) break;
        if ((rc = kin_acc(st, acc, err))) break;
        if ((rc = inverse_dynamics(st, st->acc, err))) break;
        double gm, gdm, ad = 0;
        for (int k = 0; k < nu; k++) ad = fmax(ad, fabs(st->acc[k] - acc[k]));
        memcpy(st->acc, acc, sizeof(double) * (size_t)nu);
        mt_constraint_error(st, &gm, &gdm); /* restages the Jacobians at (q, u): reactions stay consistent */
        mt_state_commit(st);
        if (stats) {
            stats->steps++;
            stats->gmax = fmax(stats->gmax, gm);
            stats->gdmax = fmax(stats->gdmax, gdm);
            stats->accdiff = fmax(stats->accdiff, ad);
        }
        if (i % every == 0 || i == nsteps) {
            if (stats) stats->frames++;
            if (fn && fn(user, st)) break;
        }
        if (cancel && *cancel) break;
    }
    free(acc);
    free(dq);
    return rc;
}

/* ---- static equilibrium ----------------------------------------------------- */

/* The solver's `hold` coordinates as joints of the copy m: an `inplane` joint
 * from the held point (a marker, or a new one at a rigid body's centre of
 * mass) to a ground marker where the point is in st (staged), its z along the
 * held axis. They follow the model's joints, so the drivers' blocks move on by
 * their number (ctx_store). Returns that number, or −1. */
static int add_holds(const MtState *st, MtModel *m, MtError *err)
{
    MtHold h[MT_HOLD_MAX];
    int n = mt_model_holds(m, h, err);
    /* the ground marker's axes (columns x, y, z in project axes) with z along the held axis; ax[2], the
     * identity, is also the axes of a marker added at a centre of mass */
    static const double ax[3][9] = {{0, 0, 1, 1, 0, 0, 0, 1, 0}, {0, 1, 0, 0, 0, 1, 1, 0, 0}, {1, 0, 0, 0, 1, 0, 0, 0, 1}};
    for (int k = 0; k < n; k++) {
        char name[32];
        double p[3];
        int mi = h[k].marker;
        snprintf(name, sizeof name, "statics_hold_%d", k + 1);
        if (mi >= 0) {
            MtMk o;
            mt_marker_eval(st, st->q, st->u, mi, &o);
            mt_v3_copy(p, o.p);
        } else {
            mt_v3_copy(p, st->q + 7 * h[k].body);
            if ((mi = mt_model_add_marker(m, h[k].body, name, m->body[h[k].body].com, ax[2], err)) < 0) return -1;
        }
        int mj = mt_model_add_marker(m, MT_GROUND, name, p, ax[h[k].axis], err);
        if (mj < 0 || mt_model_add_joint(m, name, MT_JOINT_INPLANE, mi, mj, err) < 0) return -1;
    }
    return n;
}

/* Copy of the model in which every driver holds its coordinate where it is in
 * st (time st->t): a constant law at displacement level; and the solver's
 * `hold` coordinates held where they are (add_holds). */
static MtSystem *static_system(const MtState *st, MtError *err)
{
    const MtSystem *s = st->sys;
    MtModel *m = mt_model_copy(s->model);
    if (!m) { mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory")); return NULL; }
    if (add_holds(st, m, err) < 0) {
        mt_model_free(m);
        return NULL;
    }
    for (int d = 0; d < m->ndriver; d++) {
        const MtCBlock *b = &s->block[m->njoint + d];
        const MtTerm *t = &b->prim[0].term[0];
        double v = mt_term_value(st, st->q, t); /* st->R staged at st->q by the caller */
        if (m->driver[d].level == MT_LEVEL_DISP) v -= st->g[b->row0]; /* = f(t) up to turns */
        MtDriverSpec *ds = &m->driver[d];
        ds->kind = MT_DRIVER_POLY;
        ds->level = MT_LEVEL_DISP;
        ds->ncoef = 1;
        memset(ds->coef, 0, sizeof ds->coef);
        ds->coef[0] = v;
    }
    MtSystem *ss = mt_system_compile(m, err);
    if (ss && mt_system_assemble(ss, err)) { mt_system_free(ss); ss = NULL; }
    mt_model_free(m);
    return ss;
}

/* Refuses models whose equations are not all holonomic (rolling contacts). */
static MtStatus need_holonomic(const MtSystem *s, const char *what, MtError *err)
{
    for (int r = 0; r < s->nrow; r++)
        if (s->level[r] != 0 && !s->dep[r] && s->block[block_of_row(s, r)].kind != MT_BLOCK_DRIVER) {
            const char *name = mt_block_name(s, block_of_row(s, r));
            return mt_error_set(err, MT_ERR_MODEL, name,
                                MT_("joint '%s' has velocity-level (non-holonomic) equations; the %s handles position "
                                    "constraints only"),
                                name, what);
        }
    return MT_OK;
}

/* Largest unbalanced load at rest relative to the force scale: m·a and J·ε
 * per body after an evaluation at (q, 0)... or at (q, u) (then it includes
 * the inertia of the motion; it is only a stopping test). */
static double unbalance(Lin *L)
{
    const MtSystem *s = L->s;
    MtState *st = L->st;
    int nx = L->nx;
    double big = 0, *f = L->fm; /* M·u̇ per body (the evaluation staged R and the flexible factors) */
    for (int b = 0; b < L->nb; b++) {
        double Jw[9];
        mt_v3_scale(f + 6 * b, st->acc + 6 * b, s->mass[b]);
        mt_m3_rotate_sym(Jw, st->R + 9 * b, s->Jc + 9 * b);
        mt_m3_mulv(f + 6 * b + 3, Jw, st->acc + 6 * b + 3);
    }
    for (int k = 0; k < s->nflex; k++) { /* M x = L (Lᵀ x) with the body's factor */
        const MtFlexSys *fl = &s->flex[k];
        const double *Lf = st->fmat + fl->moffm;
        int d = fl->d;
        double *y = st->fwork; /* dmax × 12 scratch of the engine, free between evaluations */
#define GI(i) ((i) < 6 ? 6 * fl->body + (i) : 6 * L->nb + fl->moff + (i) - 6)
        for (int j = 0; j < d; j++) {
            double v = 0;
            for (int i = j; i < d; i++) v += Lf[i + (size_t)d * j] * st->acc[GI(i)];
            y[j] = v;
        }
        for (int i = 0; i < d; i++) {
            double v = 0;
            for (int j = 0; j <= i; j++) v += Lf[i + (size_t)d * j] * y[j];
            f[GI(i)] = v;
        }
#undef GI
    }
    for (int b = 0; b < L->nb; b++)
        big = fmax(big, fmax(mt_v3_norm(f + 6 * b) / L->F, mt_v3_norm(f + 6 * b + 3) / (L->F * L->L)));
    for (int i = 6 * L->nb; i < nx; i++) big = fmax(big, fabs(f[i]) * L->rs[i]);
    return big;
}

/* Dynamic relaxation with kinetic damping: explicit motion from L->q
 * (symplectic Euler, positions and velocities projected onto the constraints)
 * with all velocities zeroed at every peak of kinetic energy, until the loads
 * at rest are nearly balanced. The step starts from a Gershgorin bound of the
 * highest frequency, is limited so that nothing moves more than L/20 or turns
 * more than 0.05 rad, and is halved (the step undone) when a projection fails
 * or the total energy grows. Stops when the scaled unbalance at rest is below
 * tol (or after maxsteps). Leaves L->q and the multipliers at rest in L->lam. */
static int relax(Lin *L, long maxsteps, double tol, long *steps)
{
    MtState *st = L->st;
    const MtSystem *s = L->s;
    int nx = L->nx;
    size_t nq = sizeof(double) * (size_t)L->nq, nu = sizeof(double) * (size_t)nx;
    if (CANCELLED(L)) return -1; /* before the stiffness, which takes a while */
    memcpy(st->q, L->q, nq);
    memset(st->u, 0, nu);
    st->t = L->t;
    if (mt_project_positions(st, 1e-12, 50, NULL)) return -1;
    fd_stiffness(L, st->q, L->lam, L->K, -1);
    mass_dense(L, st->q);
    double w2 = 0;
    for (int i = 0; i < nx; i++) {
        double mii = L->Mf[IDX(i, i, nx)];
        if (L->kind[i] == TAN_FROZEN || !(mii > 0)) continue;
        double row = 0;
        for (int j = 0; j < nx; j++) row += fabs(L->K[IDX(i, j, nx)]) * L->cs[j];
        w2 = fmax(w2, row / (L->cs[i] * mii));
    }
    double gn = mt_v3_norm(s->gravity);
    double h = w2 > 0 ? 0.5 / sqrt(w2) : gn > 0 ? 0.05 * sqrt(L->L / gn) : 1e-3, h0 = h;
    double Tprev = 0, T, V, E0;
    mt_energy(st, st->q, st->u, &T, &V);
    E0 = T + V; /* energy available: kinetic damping only removes energy */
    long k = 0;
    for (; k < maxsteps; k++) {
        if (CANCELLED(L) || mt_eval(st, L->t, st->q, st->u, NULL)) return -1;
        if (k % 10 == 0) {
            double v = 0;
            for (int i = 0; i < nx; i++) v = fmax(v, fabs(st->u[i]) / L->cs[i]);
            if (v * h < 1e-9 && unbalance(L) < tol) break;
        }
        memcpy(L->rq, st->q, nq);
        memcpy(L->ru, st->u, nu);
        double hs = h, dmax = 0;
        for (int i = 0; i < 6 * L->nb; i++) dmax = fmax(dmax, fabs(st->u[i] + h * st->acc[i]) / L->cs[i]);
        if (dmax * h > 0.05) hs = 0.05 / dmax;
        for (int i = 0; i < nx; i++) st->u[i] += hs * st->acc[i];
        retract(s, st->q, st->q, st->u, hs);
        if (mt_project_positions(st, 1e-12, 20, NULL) || mt_project_velocities(st, NULL)) {
            memcpy(st->q, L->rq, nq); /* undo the step, take half */
            memcpy(st->u, L->ru, nu);
            h *= 0.5;
            if (h < 1e-9 * h0) return -1;
            continue;
        }
        mt_energy(st, st->q, st->u, &T, &V);
        if (T + V - E0 > 0.5 * T + 0.01 * L->F * L->L) {
            /* energy from nowhere, comparable to the motion: the explicit steps are
             * too long for the stiffest motion; stop, halve, start afresh */
            memset(st->u, 0, nu);
            T = 0;
            E0 = V;
            h *= 0.5;
            if (h < 1e-9 * h0) return -1;
        }
        if (T < Tprev) { /* past a peak of kinetic energy: stop everything */
            memset(st->u, 0, nu);
            T = 0;
        }
        Tprev = T;
        mt_state_commit(st);
    }
    *steps += k;
    memset(st->u, 0, nu);
    mt_eval(st, L->t, st->q, st->u, NULL); /* multipliers at rest: a starting λ for Newton */
    memcpy(L->q, st->q, nq);
    for (int r = 0; r < L->nr; r++) L->lam[r] = s->dep[r] ? 0 : st->lambda[r];
    return 0;
}

/* Gershgorin bound of the largest ω² of the scaled force block of L->J (before
 * the mass term), at least |gravity|/L. Needs mass_dense at L->q. */
static double omega2_bound(const Lin *L)
{
    int nx = L->nx, n = L->n;
    double w2 = mt_v3_norm(L->s->gravity) / L->L;
    for (int i = 0; i < nx; i++) {
        double mii = L->Mf[IDX(i, i, nx)] * L->rs[i] * L->cs[i], row = 0;
        if (L->kind[i] == TAN_FROZEN || !(mii > 0)) continue;
        for (int j = 0; j < nx; j++) row += fabs(L->J[IDX(i, j, n)]);
        w2 = fmax(w2, row / mii);
    }
    return w2 > 0 ? w2 : 1.0;
}

/* L->J (force block) −= μ M, scaled (M from mass_dense at L->q). */
static void sub_mass(Lin *L, double mu)
{
    int n = L->n, nx = L->nx;
    for (int j = 0; j < nx; j++)
        for (int i = 0; i < nx; i++) {
            double m = L->Mf[IDX(i, j, nx)];
            if (m != 0) L->J[IDX(i, j, n)] -= mu * m * L->rs[i] * L->cs[j];
        }
}

/* Newton on (δ, λ) with the scaled solve of [[∂(F+Gᵀλ)/∂δ − μM, Gᵀ], [G, 0]]
 * (rank-revealing least squares for μ = 0, LU for μ > 0).
 * cont = 0: Newton with a backtracking line search on the scaled residual;
 *   it converges to the equilibrium nearest the start, stable or not.
 * cont = 1: damped Newton (pseudo-transient continuation with a trust-region
 *   test) — μ = 1/Δτ² makes each step an implicit step of the motion from
 *   rest, robust far from equilibrium and drawn to stable equilibria. It
 *   starts at Δτ ≈ 1/ω_max. Gravity and springs are conservative, so the
 *   step is judged by the Lagrangian V − λᵀg: the ratio ρ of its actual
 *   change to the change the quadratic model predicts, −R·δ − ½δᵀ(∂R/∂δ)δ.
 *   ρ > 0.1 takes the step. The step cap (L/2, 0.5 rad) is the trust radius:
 *   μ doubles after a capped step, grows fourfold after a poor (ρ < 0.25) or
 *   refused one and shrinks to 0.3× after a good full one (ρ > 0.75). Where
 *   the model predicts no decrease (near equilibrium, or at a saddle) the
 *   residual judges instead. Once μ is negligible it is Newton's method.
 * Returns 0 when converged. */
static int newton(Lin *L, int maxit, double tol, int cont, int *its, double *final_inf)
{
    const MtSystem *s = L->s;
    int nx = L->nx, nr = L->nr, n = L->n;
    double inf, phi = residual(L, L->q, L->lam, L->R, &inf);
    double mu = 0, mu0 = 0, T, V, V1;
    mt_energy(L->st, L->q, L->u0, &T, &V);
    for (int it = 0;; it++) {
        *final_inf = inf;
        if (inf <= tol) return 0;
        if (it >= maxit || CANCELLED(L)) return -1;
        (*its)++;
        fill_gd(L); /* Jacobians staged at q by the last residual */
        /* scaled Newton matrix */
        memset(L->J, 0, sizeof(double) * (size_t)n * (size_t)n);
        memset(L->dx, 0, sizeof(double) * (size_t)nx);
        for (int j = 0; j < nx; j++) {
            if (CANCELLED(L)) return -1; /* a large mechanism's columns take a while */
            double h = 1e-5 * L->cs[j];
            L->dx[j] = h;
            retract(s, L->qp, L->q, L->dx, 1);
            gen_force(L, L->qp, L->u0, L->lam, L->fp);
            retract(s, L->qp, L->q, L->dx, -1);
            gen_force(L, L->qp, L->u0, L->lam, L->fm);
            L->dx[j] = 0;
            for (int i = 0; i < nx; i++) {
                double d = (L->fp[i] - L->fm[i]) / (2 * h);
                L->K[IDX(i, j, nx)] = d; /* ∂R/∂δ, for the predicted energy change */
                L->J[IDX(i, j, n)] = L->rs[i] * d * L->cs[j];
            }
            for (int r = 0; r < nr; r++) L->J[IDX(nx + r, j, n)] = L->rs[nx + r] * L->Gd[IDX(r, j, nr)] * L->cs[j];
        }
        for (int r = 0; r < nr; r++) {
            int j = nx + r;
            if (s->dep[r]) { L->J[IDX(j, j, n)] = 1; continue; }
            for (int i = 0; i < nx; i++) L->J[IDX(i, j, n)] = L->rs[i] * L->Gd[IDX(r, i, nr)] * L->cs[j];
        }
        for (int i = 0; i < nx; i++) /* a frozen rotation (point mass) stays: its row and column are the identity's */
            if (L->kind[i] == TAN_FROZEN) {
                for (int j = 0; j < n; j++) L->J[IDX(i, j, n)] = L->J[IDX(j, i, n)] = 0;
                L->J[IDX(i, i, n)] = 1;
            }
        if (cont) mass_dense(L, L->q);
        if (cont && mu0 == 0) mu = mu0 = omega2_bound(L); /* start at Δτ ≈ 1/ω_max */
        if (mu > 0) sub_mass(L, mu);
        for (int i = 0; i < n; i++) L->z[i] = -L->rs[i] * L->R[i];
        lapack_int rank = 0, info;
        if (mu > 0) /* the mass term regularises the matrix: LU */
            info = LAPACKE_dgesv_work(LAPACK_COL_MAJOR, n, 1, L->J, n, L->ipiv, L->z, n);
        else
            info = LAPACKE_dgelsd_work(LAPACK_COL_MAJOR, n, n, 1, L->J, n, L->z, n, L->sv, 1e-12, &rank, L->work,
                                       L->lwork, L->iwork);
        if (info > 0 && mu > 0) { /* singular all the same: more damping */
            mu *= 4;
            residual(L, L->q, L->lam, L->R, &inf);
            continue;
        }
        if (info != 0) return -1;
        double zmax = 0, tmax = 0, rmax = 0;
        for (int i = 0; i < n; i++) {
            zmax = fmax(zmax, fabs(L->z[i]));
            L->z[i] *= L->cs[i];
        }
        for (int i = 0; i < nx; i++) {
            if (L->kind[i] == TAN_TRANS) tmax = fmax(tmax, fabs(L->z[i]));
            else if (L->kind[i] == TAN_ROT) rmax = fmax(rmax, fabs(L->z[i]));
        }
        if (!isfinite(zmax)) return -1;
        if (zmax <= 1e-14 && inf <= 1e-6) return 0; /* at the rounding floor */
        double a = 1;
        if (tmax > 0.5 * L->L) a = fmin(a, 0.5 * L->L / tmax); /* no jumps across the mechanism */
        if (rmax > 0.5) a = fmin(a, 0.5 / rmax);
        if (mu > 0) { /* damped step, judged by the energy (else the residual) */
            double pred = 0;
            for (int i = 0; i < nx; i++) {
                double kd = 0;
                for (int j = 0; j < nx; j++) kd += L->K[IDX(i, j, nx)] * L->z[j];
                pred -= a * L->R[i] * L->z[i] + 0.5 * a * a * L->z[i] * kd;
            }
            retract(s, L->qp, L->q, L->z, a);
            for (int r = 0; r < nr; r++) L->lamt[r] = L->lam[r] + a * L->z[nx + r];
            double inf1, phi1 = residual(L, L->qp, L->lamt, L->R1, &inf1);
            mt_energy(L->st, L->qp, L->u0, &T, &V1);
            /* the model is that of the Lagrangian V − λᵀg (λ of this step) */
            double act = V1 - V;
            for (int r = 0; r < nr; r++)
                if (!s->dep[r]) act -= L->lam[r] * (L->R1[nx + r] - L->R[nx + r]);
            int take;
            double grow = 1;
            if (pred < -1e-10 * (fabs(V) + L->F * L->L)) {
                double rho = act / pred;
                take = isfinite(phi1) && rho > 0.1 && phi1 < 10 * phi;
                /* the cap is the trust radius: a capped step asks for more damping */
                grow = !take || rho < 0.25 ? 4.0 : a < 1 ? 2.0 : rho > 0.75 ? 0.3 : 1.0;
            } else {
                take = isfinite(phi1) && phi1 < phi;
                grow = take ? 0.5 : 4.0;
            }
            mu *= grow;
            if (!take) {
                residual(L, L->q, L->lam, L->R, &inf); /* restage at q */
                continue;
            }
            if (mu < 1e-12 * mu0) mu = 0;
            V = V1;
            memcpy(L->q, L->qp, sizeof(double) * (size_t)L->nq);
            memcpy(L->lam, L->lamt, sizeof(double) * (size_t)nr);
            memcpy(L->R, L->R1, sizeof(double) * (size_t)n);
            phi = phi1;
            inf = inf1;
            memcpy(L->st->q, L->q, sizeof(double) * (size_t)L->nq);
            mt_state_commit(L->st);
            continue;
        }
        for (;;) {
            retract(s, L->qp, L->q, L->z, a);
            for (int r = 0; r < nr; r++) L->lamt[r] = L->lam[r] + a * L->z[nx + r];
            double inf1, phi1 = residual(L, L->qp, L->lamt, L->R1, &inf1);
            if (isfinite(phi1) && phi1 <= (1 - 1e-4 * a) * phi) {
                memcpy(L->q, L->qp, sizeof(double) * (size_t)L->nq);
                memcpy(L->lam, L->lamt, sizeof(double) * (size_t)nr);
                memcpy(L->R, L->R1, sizeof(double) * (size_t)n);
                phi = phi1;
                inf = inf1;
                break;
            }
            a *= 0.5;
            if (a < 1e-8) { /* no descent: converged to rounding, or lost */
                residual(L, L->q, L->lam, L->R, &inf); /* restage at q */
                *final_inf = inf;
                if (inf <= 1e-6) return 0;
                if (!cont) return -1;
                mu = 1e-4 * mu0; /* continuation: back to smaller steps */
                break;
            }
        }
        if (mu > 0) continue;
        mt_energy(L->st, L->q, L->u0, &T, &V);
        memcpy(L->st->q, L->q, sizeof(double) * (size_t)L->nq);
        mt_state_commit(L->st); /* joint angles keep counting turns */
    }
}

/* Physical residuals and the body with the largest force residual. */
static int residual_report(Lin *L, MtStaticsInfo *info)
{
    int worst = 0;
    double wv = -1;
    info->force_residual = info->moment_residual = info->constraint_residual = 0;
    for (int b = 0; b < L->nb; b++) {
        double f = mt_v3_norm(L->R + 6 * b), m = mt_v3_norm(L->R + 6 * b + 3);
        info->force_residual = fmax(info->force_residual, f);
        info->moment_residual = fmax(info->moment_residual, m);
        double v = f / L->F + m / (L->F * L->L);
        if (v > wv) { wv = v; worst = b; }
    }
    for (int r = 0; r < L->nr; r++)
        if (!L->s->dep[r]) info->constraint_residual = fmax(info->constraint_residual, fabs(L->R[L->nx + r]));
    info->elastic_residual = 0;
    for (int i = 6 * L->nb; i < L->nx; i++) info->elastic_residual = fmax(info->elastic_residual, fabs(L->R[i]) * L->rs[i]);
    return worst;
}

/* Force scale: weights, forces at the start and multipliers at rest. */
static void force_scale(Lin *L)
{
    const MtSystem *s = L->s;
    MtState *st = L->st;
    double F = 0, gn = mt_v3_norm(s->gravity);
    for (int b = 0; b < L->nb; b++) {
        F = fmax(F, s->mass[b] * gn);
        F = fmax(F, mt_v3_norm(st->f + 6 * b));
        F = fmax(F, mt_v3_norm(st->f + 6 * b + 3) / L->L);
    }
    L->F = F > 0 ? F : 1.0;
}

/* Reduced mass, stiffness and damping at (L->q, L->lam) in the minimal
 * coordinates N (nx × dof); Mr, Kr, Cr are dof × dof (Cr may be NULL). K and C
 * of L receive the full matrices. */
static void reduce(Lin *L, const double *N, int dof, double *Mr, double *Kr, double *Cr, double *tmp)
{
    int nx = L->nx;
    fd_stiffness(L, L->q, L->lam, L->K, -1);
    if (Cr) fd_damping(L, L->q, L->C);
    mass_dense(L, L->q);
    /* tmp = M N */
    for (int k = 0; k < dof; k++)
        for (int a = 0; a < nx; a++) {
            double v = 0;
            for (int c = 0; c < nx; c++) v += L->Mf[IDX(a, c, nx)] * N[IDX(c, k, nx)];
            tmp[IDX(a, k, nx)] = v;
        }
    for (int i = 0; i < dof; i++)
        for (int j = 0; j < dof; j++) {
            double v = 0;
            for (int a = 0; a < nx; a++) v += N[IDX(a, i, nx)] * tmp[IDX(a, j, nx)];
            Mr[IDX(i, j, dof)] = v;
        }
    for (int pass = 0; pass < (Cr ? 2 : 1); pass++) {
        const double *X = pass ? L->C : L->K;
        double *out = pass ? Cr : Kr;
        for (int k = 0; k < dof; k++)
            for (int a = 0; a < nx; a++) {
                double v = 0;
                for (int c = 0; c < nx; c++) v += X[IDX(a, c, nx)] * N[IDX(c, k, nx)];
                tmp[IDX(a, k, nx)] = v;
            }
        for (int i = 0; i < dof; i++)
            for (int j = 0; j < dof; j++) {
                double v = 0;
                for (int a = 0; a < nx; a++) v += N[IDX(a, i, nx)] * tmp[IDX(a, j, nx)];
                out[IDX(i, j, dof)] = v;
            }
    }
}

/* X ← L⁻¹ X L⁻ᵀ for the lower Cholesky factor Lm (n × n, column-major). */
static void congruence(const double *Lm, double *X, double *tmp, int n)
{
    LAPACKE_dtrtrs(LAPACK_COL_MAJOR, 'L', 'N', 'N', n, n, Lm, n, X, n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) tmp[IDX(j, i, n)] = X[IDX(i, j, n)];
    LAPACKE_dtrtrs(LAPACK_COL_MAJOR, 'L', 'N', 'N', n, n, Lm, n, tmp, n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) X[IDX(j, i, n)] = tmp[IDX(i, j, n)];
}

/* Stability at (L->q, L->lam): eigenvalues of the symmetric part of M⁻¹K in
 * minimal coordinates (their signs are those of the reduced stiffness). Fills
 * info->dof, negative, neutral, lowest, highest, and L->dir with the motion of
 * the lowest eigenvalue (largest entry 1 in units of L and rad). */
static MtStatus stability(Lin *L, MtStaticsInfo *info, MtError *err)
{
    gen_force(L, L->q, L->u0, NULL, L->fp); /* stage the Jacobians at q (finite differences leave them elsewhere) */
    fill_gd(L);
    int dof = 0;
    double *N = null_space(L, &dof, err);
    if (!N) return err ? err->code : MT_ERR_NOMEM;
    info->dof = dof;
    info->negative = info->neutral = 0;
    info->lowest = info->highest = 0;
    if (dof == 0) return MT_OK;
    double *Mr = L->Mr, *Kr = L->Kr, *w = L->ev, *tmp = L->tmp;
    reduce(L, N, dof, Mr, Kr, NULL, tmp);
    for (int i = 0; i < dof; i++)
        for (int j = 0; j < i; j++) Kr[IDX(i, j, dof)] = Kr[IDX(j, i, dof)] = 0.5 * (Kr[IDX(i, j, dof)] + Kr[IDX(j, i, dof)]);
    MtStatus rc = MT_OK;
    if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', dof, Mr, dof) != 0) {
        rc = mt_error_set(err, MT_ERR_SOLVE, "", "%s", MT_("the reduced mass matrix is not positive definite"));
    } else {
        congruence(Mr, Kr, tmp, dof);
        for (int i = 0; i < dof; i++)
            for (int j = 0; j < i; j++) Kr[IDX(i, j, dof)] = Kr[IDX(j, i, dof)] = 0.5 * (Kr[IDX(i, j, dof)] + Kr[IDX(j, i, dof)]);
        if (LAPACKE_dsyev_work(LAPACK_COL_MAJOR, 'V', 'U', dof, Kr, dof, w, L->ework, L->lework) != 0) {
            rc = mt_error_set(err, MT_ERR_SOLVE, "", "%s", MT_("the eigenvalues of the reduced stiffness did not converge"));
        } else {
            double big = fmax(fabs(w[0]), fabs(w[dof - 1]));
            double gn = mt_v3_norm(L->s->gravity);
            double ztol = 1e-8 * fmax(big, gn / L->L);
            if (!(ztol > 0)) ztol = 1e-300;
            for (int i = 0; i < dof; i++) {
                if (w[i] < -ztol) info->negative++;
                else if (w[i] <= ztol) info->neutral++;
            }
            info->lowest = w[0];
            info->highest = w[dof - 1];
            /* direction of the lowest: y = L⁻ᵀ v (first column), δ = N y */
            LAPACKE_dtrtrs(LAPACK_COL_MAJOR, 'L', 'T', 'N', dof, 1, Mr, dof, Kr, dof);
            double dm = 0;
            for (int a = 0; a < L->nx; a++) {
                double v = 0;
                for (int k = 0; k < dof; k++) v += N[IDX(a, k, L->nx)] * Kr[k];
                L->dir[a] = v;
                dm = fmax(dm, fabs(v) / L->cs[a]);
            }
            for (int a = 0; a < L->nx && dm > 0; a++) L->dir[a] /= dm;
        }
    }
    return rc;
}

typedef struct {
    MtSystem *ss;
    MtState *sst;
    Lin *L;
} Ctx;

static void ctx_free(Ctx *c)
{
    lin_free(c->L);
    mt_state_free(c->sst);
    mt_system_free(c->ss);
}

/* Assembles st, builds the static system (drivers locked) and its state at
 * st's configuration with u = 0, and the workspace; λ at rest as a start. */
static MtStatus ctx_open(MtState *st, Ctx *c, const char *what, MtError *err)
{
    memset(c, 0, sizeof *c);
    const MtSystem *s = st->sys;
    if (s->nbody == 0) return mt_error_set(err, MT_ERR_MODEL, "", MT_("%s: the model has no bodies"), what);
    MtStatus rc = need_holonomic(s, what, err);
    if (rc) return rc;
    if ((rc = mt_assemble_initial(st, err))) return rc;
    mt_stage_bodies(st, st->q);
    mt_stage_constraints(st, st->t, st->q, st->u);
    c->ss = static_system(st, err);
    if (!c->ss) return err ? err->code : MT_ERR_MODEL;
    c->sst = mt_state_new(c->ss, err);
    if (!c->sst) { ctx_free(c); return err ? err->code : MT_ERR_NOMEM; }
    MtState *t = c->sst;
    memcpy(t->q, st->q, sizeof(double) * (size_t)s->nq);
    memset(t->u, 0, sizeof(double) * (size_t)s->nu);
    t->t = st->t;
    mt_state_init_coords(t);
    if ((rc = mt_project_positions(t, 1e-12, 50, err))) { ctx_free(c); return rc; }
    c->L = lin_new(t, err);
    if (!c->L) { ctx_free(c); return err ? err->code : MT_ERR_NOMEM; }
    Lin *L = c->L;
    memcpy(L->q, t->q, sizeof(double) * (size_t)s->nq);
    mt_eval(t, L->t, L->q, L->u0, NULL); /* forces and multipliers at rest */
    for (int r = 0; r < L->nr; r++) L->lam[r] = c->ss->dep[r] ? 0 : t->lambda[r];
    memcpy(L->qs, L->q, sizeof(double) * (size_t)s->nq);
    memcpy(L->lams, L->lam, sizeof(double) * (size_t)L->nr);
    force_scale(L);
    fill_gd(L);
    lin_scales(L);
    return MT_OK;
}

/* The joints add_holds put after the model's in the static system. */
static int ctx_holds(const Ctx *c, const MtState *st)
{
    return c->ss->model->njoint - st->sys->model->njoint;
}

/* Writes the configuration of the context back into the user's state: q,
 * u = acc = 0, λ, Jacobians staged. */
static void ctx_store(Ctx *c, MtState *st)
{
    const MtSystem *s = st->sys;
    Lin *L = c->L;
    memcpy(st->q, L->q, sizeof(double) * (size_t)s->nq);
    memset(st->u, 0, sizeof(double) * (size_t)s->nu);
    memset(st->acc, 0, sizeof(double) * (size_t)s->nu);
    /* block k of the model is block k of the static system, the drivers' and those after them moved on by the
     * joints that hold the solver's `hold` coordinates (add_holds) */
    int nhold = ctx_holds(c, st);
    for (int k = 0; k < s->nblock; k++) {
        const MtCBlock *b = &s->block[k], *bs = &c->ss->block[k < s->model->njoint ? k : k + nhold];
        for (int r = 0; r < b->nrow; r++) st->lambda[b->row0 + r] = s->dep[b->row0 + r] ? 0 : L->lam[bs->row0 + r];
    }
    mt_state_commit(st);
    mt_stage_bodies(st, st->q);
    mt_stage_constraints(st, st->t, st->q, st->u);
}

static MtStatus statics_core(Ctx *c, const MtStaticsOptions *opt, MtStaticsInfo *info, MtError *err)
{
    Lin *L = c->L;
    int maxit = opt && opt->maxit > 0 ? opt->maxit : 50;
    long maxrelax = opt && opt->relax_steps > 0 ? opt->relax_steps : 200000;
    double tol = opt && opt->tol > 0 ? opt->tol : 1e-12;
    memset(info, 0, sizeof *info);
    const MtSystem *s = L->s;
    L->cancel = opt ? opt->cancel : NULL;
    if (mt_v3_norm(s->gravity) > 0 && s->nfree > 0) {
        const char *name = s->model->body[s->free_body[0]].name;
        return mt_error_set(err, MT_ERR_MODEL, name,
                            MT_("body '%s' is not connected to ground by any joint or spring: under gravity it has no "
                                "static equilibrium"),
                            name);
    }
    double inf = 0;
    int ok = -1;
    size_t nq = sizeof(double) * (size_t)L->nq;
    if (!(opt && opt->relax_first)) {
        ok = newton(L, maxit, tol, 0, &info->iterations, &inf);
        if (ok != 0) { /* damped: pseudo-transient continuation from the start */
            memcpy(L->q, L->qs, nq);
            memcpy(L->lam, L->lams, sizeof(double) * (size_t)L->nr);
            memcpy(c->sst->q, L->q, nq);
            mt_state_init_coords(c->sst);
            ok = newton(L, 10 * maxit, tol, 1, &info->iterations, &inf);
        }
    }
    /* Newton failed (or was asked to wait): relax from the assembled
     * configuration to a loose balance, let Newton finish; if it fails again,
     * relax on from where relaxation stopped, 100 times tighter */
    double rtol = 1e-2;
    for (int round = 0; ok != 0 && round < 4; round++, rtol *= 1e-2) {
        memcpy(L->q, round ? L->qr : L->qs, nq);
        if (!round) memcpy(L->lam, L->lams, sizeof(double) * (size_t)L->nr);
        memcpy(c->sst->q, L->q, nq);
        mt_state_init_coords(c->sst);
        long budget = maxrelax - info->relax_steps;
        if (budget <= 0 || relax(L, budget, rtol, &info->relax_steps)) break;
        memcpy(L->qr, L->q, nq);
        ok = newton(L, maxit, tol, 0, &info->iterations, &inf);
    }
    residual(L, L->q, L->lam, L->R, &inf);
    int worst = residual_report(L, info);
    /* asked to settle: step off an unstable equilibrium along its most
     * negative stiffness direction and settle again (a balanced start, such
     * as a symmetric mechanism standing upright, gives relaxation no push) */
    for (int attempt = 0; ok == 0 && opt && opt->relax_first && attempt < 4; attempt++) {
        MtStatus rc = stability(L, info, err);
        if (rc) return rc;
        if (info->negative == 0) break;
        retract(L->s, L->q, L->q, L->dir, 0.02);
        memcpy(c->sst->q, L->q, sizeof(double) * (size_t)L->nq);
        mt_state_commit(c->sst);
        ok = relax(L, maxrelax, 1e-2, &info->relax_steps);
        if (ok == 0) ok = newton(L, maxit, tol, 0, &info->iterations, &inf);
        residual(L, L->q, L->lam, L->R, &inf);
        worst = residual_report(L, info);
    }
    if (ok != 0 && CANCELLED(L)) return mt_error_set(err, MT_ERR_ARG, "", MT_("stopped by the user"));
    if (ok != 0) {
        const char *name = L->s->model->body[worst].name;
        return mt_error_set(err, MT_ERR_SOLVE, name,
                            MT_("static equilibrium not found: Newton's method and dynamic relaxation stopped with an "
                                "unbalanced force of %.3g N and moment of %.3g N·m, largest on body '%s' (the mechanism "
                                "may have no equilibrium, e.g. a free body under gravity)"),
                            info->force_residual, info->moment_residual, name);
    }
    return stability(L, info, err);
}

MtStatus mt_statics(MtState *st, const MtStaticsOptions *opt, MtStaticsInfo *info, MtError *err)
{
    MtStaticsInfo dummy;
    if (!info) info = &dummy;
    memset(info, 0, sizeof *info);
    Ctx c;
    MtStatus rc = ctx_open(st, &c, MT_("static analysis"), err);
    if (rc) return rc;
    rc = statics_core(&c, opt, info, err);
    if (!rc) {
        /* each hold's joint follows the model's joints (add_holds); its row's gradient is the held axis on the
         * held point, so its multiplier is the force there along the axis */
        int nj = st->sys->model->njoint;
        info->nhold = ctx_holds(&c, st);
        for (int k = 0; k < info->nhold; k++) info->hold_force[k] = c.L->lam[c.ss->block[nj + k].row0];
        ctx_store(&c, st);
    }
    ctx_free(&c);
    return rc;
}

MtStatus mt_run_start(MtState *st, const MtSolverSpec *sv, MtError *err)
{
    if (sv->start != MT_START_STATICS) return MT_OK;
    const MtSystem *s = st->sys;
    /* the velocities the model starts with, made consistent at the initial positions (rates held as asked) */
    MtStatus rc = mt_assemble_initial(st, err);
    if (rc) return rc;
    double *u = malloc(sizeof(double) * (size_t)(s->nu + 1));
    if (!u) return mt_error_set(err, MT_ERR_NOMEM, "", MT_("out of memory for the static analysis"));
    memcpy(u, st->u, sizeof(double) * (size_t)s->nu);
    MtStaticsInfo info;
    MtError e2 = {0};
    rc = mt_statics(st, NULL, &info, &e2);
    if (!rc && info.negative > 0) {
        /* Newton found the equilibrium nearest the start, an unstable one (a pendulum held above the
         * horizontal goes to the top): a run is meant to start at rest where the model would settle, so
         * downhill from the start instead */
        MtStaticsOptions o = {0};
        o.relax_first = 1;
        rc = mt_assemble_initial(st, &e2);
        if (!rc) rc = mt_statics(st, &o, &info, &e2);
    }
    if (rc) {
        free(u);
        return mt_error_set(err, rc, e2.entity,
                            MT_("solver: the run starts from the static equilibrium ('start statics'), which was not "
                                "found: %s"),
                            e2.msg);
    }
    memcpy(st->u, u, sizeof(double) * (size_t)s->nu); /* mt_run's assembly projects them at the equilibrium */
    free(u);
    st->from_statics = 1;
    return MT_OK;
}

int mt_state_flex_elastic(const MtState *st, int b, double *umax, double *smax)
{
    const MtSystem *s = st->sys;
    int N = mt_body_modes(s, b);
    if (!N) return 0;
    const MtFlexSys *f = &s->flex[s->bflex[b]];
    const double *w = st->q + 7 * s->nbody + f->moff;
    double rig[6];
    mt_flexview_support_motion(f->fb, w, rig);
    if (umax) *umax = mt_flexview_field(f->fb, w, rig, MT_FLEXFIELD_DISPLACEMENT, NULL);
    if (smax)
        *smax = mt_flexview_has_field(f->fb, MT_FLEXFIELD_VONMISES) ? mt_flexview_field(f->fb, w, rig, MT_FLEXFIELD_VONMISES, NULL)
                                                                     : NAN;
    return N;
}

/* ---- modes ------------------------------------------------------------------ */

const char *mt_mode_kind_name(MtModeKind k)
{
    switch (k) {
    case MT_MODE_OSCILLATORY: return MT_("oscillatory");
    case MT_MODE_OVERDAMPED: return MT_("overdamped");
    case MT_MODE_DECAYING: return MT_("decaying");
    case MT_MODE_DIVERGENT: return MT_("divergent (unstable)");
    case MT_MODE_RIGID: return MT_("free motion");
    }
    return "?";
}

void mt_modes_free(MtModes *m)
{
    if (!m) return;
    free(m->mode);
    free(m->store);
    free(m->woff);
    free(m->nw);
    free(m->q);
    free(m);
}

void mt_modes_configuration(const MtModes *m, int k, double amplitude, double phase, double *q)
{
    const MtMode *mo = &m->mode[k];
    double c = amplitude * cos(phase), sn = amplitude * sin(phase);
    memcpy(q, m->q, sizeof(double) * (size_t)m->nq);
    for (int b = 0; b < m->nbody; b++) { /* Re(shape·e^{iφ}) = re·cos φ − im·sin φ */
        const double *r = mo->shape_re + 6 * b, *i = mo->shape_im + 6 * b;
        double th[3], dr[4], p[4];
        for (int a = 0; a < 3; a++) {
            q[7 * b + a] += c * r[a] - sn * i[a];
            th[a] = c * r[3 + a] - sn * i[3 + a];
        }
        mt_quat_from_rotvec(dr, th);
        memcpy(p, q + 7 * b + 3, sizeof p);
        mt_quat_mul(q + 7 * b + 3, dr, p);
        mt_quat_normalize(q + 7 * b + 3);
    }
    for (int a = 6 * m->nbody; a < m->nu; a++) q[a + m->nbody] += c * mo->shape_re[a] - sn * mo->shape_im[a];
}

typedef struct {
    double re, im, mag;
    int col; /* column of VR (real part; imaginary part in col + 1 when im > 0) */
    int used;
} Eig;

/* A free motion is reported once per direction: an undamped free coordinate
 * has a double root at zero, whose two computed eigenvectors share their
 * displacement part (a Jordan block), and a free body's zero roots span its
 * free directions only all together. 1 when the displacement part of root E
 * (the first dof entries of its eigenvector, in the mass-weighted
 * coordinates) adds a direction to the nb orthonormal columns of basis
 * (dof × nb), which it then joins. */
static int new_free_direction(const double *VR, int n, int dof, const Eig *E, double *basis, int *nb)
{
    if (*nb >= dof) return 0; /* every direction taken already */
    double *v = basis + (size_t)*nb * (size_t)dof, re = 0, im = 0;
    for (int i = 0; i < dof; i++) {
        double x = VR[IDX(i, E->col, n)], y = E->im > 0 ? VR[IDX(i, E->col + 1, n)] : 0;
        re += x * x;
        im += y * y;
    }
    int c = re >= im ? E->col : E->col + 1;
    for (int i = 0; i < dof; i++) v[i] = VR[IDX(i, c, n)];
    double n0 = sqrt(fmax(re, im)), r = 0;
    for (int pass = 0; pass < 2; pass++) /* Gram–Schmidt, twice for orthogonality */
        for (int k = 0; k < *nb; k++) {
            const double *b = basis + (size_t)k * (size_t)dof;
            double d = 0;
            for (int i = 0; i < dof; i++) d += b[i] * v[i];
            for (int i = 0; i < dof; i++) v[i] -= d * b[i];
        }
    for (int i = 0; i < dof; i++) r += v[i] * v[i];
    r = sqrt(r);
    if (!(r > 1e-6 * n0)) return 0;
    for (int i = 0; i < dof; i++) v[i] /= r;
    (*nb)++;
    return 1;
}

static int cmp_mode(const void *a, const void *b)
{
    const MtMode *x = a, *y = b;
    double fx = x->kind == MT_MODE_RIGID ? -1 : hypot(x->s_re, x->s_im), fy = y->kind == MT_MODE_RIGID ? -1 : hypot(y->s_re, y->s_im);
    if (x->kind == MT_MODE_OVERDAMPED) fx = sqrt(x->s_re * x->s2_re);
    if (y->kind == MT_MODE_OVERDAMPED) fy = sqrt(y->s_re * y->s2_re);
    return (fx > fy) - (fx < fy);
}

/* Size of tangent entry a of a shape for the normalisation: rigid entries as
 * they are (m, rad), a modal coordinate by the mass-weighted RMS elastic
 * displacement it gives its body alone, √(Mww_jj/m) per unit (m). */
static double entry_weight(const Lin *L, int a)
{
    const MtSystem *s = L->s;
    if (L->kind[a] == TAN_FROZEN) return 0;
    if (a < 6 * L->nb) return 1;
    for (int k = 0; k < s->nflex; k++) {
        const MtFlexSys *f = &s->flex[k];
        int j = a - 6 * L->nb - f->moff;
        if (j >= 0 && j < f->N) return f->mass > 0 ? sqrt(fmax(f->Mww[j + (size_t)f->N * j], 0) / f->mass) : 1;
    }
    return 1;
}

/* Mode shape δ = N y (y = Y[0..dof) + i·Y[dof..2dof)) into m->shape_re/im,
 * normalised: the largest of the rigid entries and of the flexible bodies'
 * mass-weighted RMS elastic displacements √(wᴴ Mww w / m) is 1, with the
 * phase of the entry of largest weighted size real; then the joints' first
 * coordinates along it. */
static void mode_shape(Lin *L, const double *N, int dof, const double *Y, MtMode *m)
{
    const MtSystem *s = L->s;
    int nx = L->nx, nj = s->model->njoint;
    for (int a = 0; a < nx; a++) {
        double xr = 0, xi = 0;
        for (int k = 0; k < dof; k++) {
            xr += N[IDX(a, k, nx)] * Y[k];
            xi += N[IDX(a, k, nx)] * Y[dof + k];
        }
        m->shape_re[a] = xr;
        m->shape_im[a] = xi;
    }
    int big = 0;
    double bm = -1;
    for (int a = 0; a < nx; a++) {
        double v = hypot(m->shape_re[a], m->shape_im[a]) * entry_weight(L, a);
        if (v > bm * (1 + 1e-9)) { bm = v; big = a; }
    }
    double size = 0; /* the largest physical size: rigid entries, elastic RMS displacements */
    for (int a = 0; a < 6 * L->nb; a++)
        if (L->kind[a] != TAN_FROZEN) size = fmax(size, hypot(m->shape_re[a], m->shape_im[a]));
    for (int k = 0; k < s->nflex; k++) {
        const MtFlexSys *f = &s->flex[k];
        const double *wr = m->shape_re + 6 * L->nb + f->moff, *wi = m->shape_im + 6 * L->nb + f->moff;
        double e = 0;
        for (int i = 0; i < f->N; i++)
            for (int j = 0; j < f->N; j++) e += f->Mww[i + (size_t)f->N * j] * (wr[i] * wr[j] + wi[i] * wi[j]);
        if (f->mass > 0) size = fmax(size, sqrt(fmax(e, 0) / f->mass));
    }
    double pr = m->shape_re[big], pi = m->shape_im[big], pa = hypot(pr, pi);
    if (pa > 0 && size > 0) { /* divide by size·e^{iφ}, φ the phase of the reference entry */
        double cr = pr / pa * size, ci = pi / pa * size, c2 = cr * cr + ci * ci;
        for (int a = 0; a < nx; a++) {
            double xr = m->shape_re[a], xi = m->shape_im[a];
            m->shape_re[a] = (xr * cr + xi * ci) / c2;
            m->shape_im[a] = (xi * cr - xr * ci) / c2;
        }
        m->shape_im[big] = 0;
    }
    for (int j = 0; j < nj; j++) {
        MtTerm t;
        if (joint_first_term(s->model, j, &t, NULL)) {
            m->coord_re[j] = m->coord_im[j] = NAN;
            continue;
        }
        m->coord_re[j] = coord_rate(L, L->q, &t, m->shape_re, 1.0);
        m->coord_im[j] = coord_rate(L, L->q, &t, m->shape_im, 1.0);
    }
}

MtStatus mt_modes(MtState *st, int at_equilibrium, MtModes **out, MtError *err)
{
    return mt_modes_opt(st, at_equilibrium, NULL, out, err);
}

MtStatus mt_modes_opt(MtState *st, int at_equilibrium, const MtStaticsOptions *opt, MtModes **out, MtError *err)
{
    *out = NULL;
    const MtSystem *s = st->sys;
    Ctx c;
    MtStatus rc = ctx_open(st, &c, MT_("modal analysis"), err);
    if (rc) return rc;
    Lin *L = c.L;
    MtModes *res = calloc(1, sizeof *res);
    double *N = NULL, *Mr = NULL, *Kr = NULL, *Cr = NULL, *tmp = NULL, *A = NULL, *wr = NULL, *wi = NULL, *VR = NULL,
           *Y = NULL;
    Eig *eig = NULL;
    double *fbasis = NULL; /* free directions found so far (new_free_direction) */
    int nfree = 0;
    if (!res) goto nomem;
    res->at_equilibrium = at_equilibrium;
    if (at_equilibrium) {
        if ((rc = statics_core(&c, opt, &res->statics, err))) goto done;
    } else {
        double inf;
        residual(L, L->q, L->lam, L->R, &inf);
        residual_report(L, &res->statics);
        if ((rc = stability(L, &res->statics, err))) goto done;
    }
    double inf0;
    residual(L, L->q, L->lam, L->R, &inf0); /* restage the Jacobians at the configuration */
    fill_gd(L);
    int dof = 0, nx = L->nx;
    N = null_space(L, &dof, err);
    if (!N) { rc = err ? err->code : MT_ERR_NOMEM; goto done; }
    res->dof = dof;
    int nj = s->model->njoint;
    size_t d2 = (size_t)dof * (size_t)dof, n2 = 2 * (size_t)dof;
    Mr = malloc(sizeof(double) * (d2 + 1));
    Kr = malloc(sizeof(double) * (d2 + 1));
    Cr = malloc(sizeof(double) * (d2 + 1));
    tmp = malloc(sizeof(double) * ((size_t)nx * (size_t)dof + d2 + 1));
    A = calloc(n2 * n2 + 1, sizeof(double));
    VR = malloc(sizeof(double) * (n2 * n2 + 1));
    wr = malloc(sizeof(double) * (n2 + 1));
    wi = malloc(sizeof(double) * (n2 + 1));
    Y = malloc(sizeof(double) * (2 * (size_t)dof + 1));
    eig = calloc(n2 + 1, sizeof *eig);
    fbasis = malloc(sizeof(double) * (d2 + 1));
    res->mode = calloc(2 * (size_t)dof + 1, sizeof *res->mode);
    res->store = calloc((2 * (size_t)dof + 1) * (2 * (size_t)nx + 2 * (size_t)nj + 2), sizeof(double));
    res->nbody = L->nb;
    res->nq = L->nq;
    res->nu = nx;
    res->njoint = nj;
    res->woff = calloc((size_t)L->nb + 1, sizeof(int));
    res->nw = calloc((size_t)L->nb + 1, sizeof(int));
    res->q = malloc(sizeof(double) * ((size_t)L->nq + 1));
    if (!Mr || !Kr || !Cr || !tmp || !A || !VR || !wr || !wi || !Y || !eig || !fbasis || !res->mode || !res->store || !res->woff ||
        !res->nw || !res->q)
        goto nomem;
    memcpy(res->q, L->q, sizeof(double) * (size_t)L->nq);
    for (int b = 0; b < L->nb; b++) {
        res->nw[b] = mt_body_modes(s, b);
        res->woff[b] = res->nw[b] ? modal_index(s, b) : -1;
    }
    if (dof == 0) goto done;
    reduce(L, N, dof, Mr, Kr, Cr, tmp);
    if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', dof, Mr, dof) != 0) {
        rc = mt_error_set(err, MT_ERR_SOLVE, "", "%s", MT_("the reduced mass matrix is not positive definite"));
        goto done;
    }
    congruence(Mr, Kr, tmp, dof);
    congruence(Mr, Cr, tmp, dof);
    int n = 2 * dof;
    for (int i = 0; i < dof; i++) {
        A[IDX(i, dof + i, n)] = 1;
        for (int j = 0; j < dof; j++) {
            A[IDX(dof + i, j, n)] = -Kr[IDX(i, j, dof)];
            A[IDX(dof + i, dof + j, n)] = -Cr[IDX(i, j, dof)];
        }
    }
    double dummy = 0;
    if (LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'V', n, A, n, wr, wi, &dummy, 1, VR, n) != 0) {
        rc = mt_error_set(err, MT_ERR_SOLVE, "", "%s", MT_("the eigenvalue problem of the linearised system did not converge"));
        goto done;
    }
    /* classify: rigid (|s|² tiny), complex pairs, real roots (paired when their shapes coincide) */
    double s2max = 0;
    for (int i = 0; i < n; i++) s2max = fmax(s2max, wr[i] * wr[i] + wi[i] * wi[i]);
    double ztol = 1e-9 * s2max;
    int ne = 0;
    for (int i = 0; i < n; i++) {
        if (wi[i] < 0) continue;
        eig[ne++] = (Eig){wr[i], wi[i], wr[i] * wr[i] + wi[i] * wi[i], i, 0};
        if (wi[i] > 0) i++;
    }
    int nm = 0;
    for (int e = 0; e < ne; e++) {
        Eig *E = &eig[e];
        if (E->used) continue;
        E->used = 1;
        MtMode *m = &res->mode[nm];
        memset(m, 0, sizeof *m);
        m->s_re = E->re;
        m->s_im = E->im;
        m->zeta = NAN;
        int col2 = -1; /* second real root of an overdamped pair or rigid pair */
        if (E->mag <= ztol || s2max < 1e-24) {
            if (!new_free_direction(VR, n, dof, E, fbasis, &nfree)) continue; /* the same free motion again */
            m->kind = MT_MODE_RIGID;
        } else if (E->im > 0) {
            double w = sqrt(E->mag);
            m->kind = MT_MODE_OSCILLATORY;
            m->freq = w / (2 * M_PI);
            m->damped_freq = E->im / (2 * M_PI);
            m->zeta = -E->re / w + 0.0; /* no −0 */
        } else {
            /* a real root: look for a partner with the same shape (overdamped, or a saddle ±a) */
            for (int f = e + 1; f < ne && col2 < 0; f++) {
                Eig *P = &eig[f];
                if (P->used || P->im != 0 || P->mag <= ztol) continue;
                double d = 0, a = 0, b = 0;
                for (int i = 0; i < dof; i++) {
                    double x = VR[IDX(i, E->col, n)], y = VR[IDX(i, P->col, n)];
                    d += x * y; a += x * x; b += y * y;
                }
                if (a > 0 && b > 0 && fabs(d) / sqrt(a * b) > 1 - 1e-8) { col2 = f; P->used = 1; }
            }
            if (col2 >= 0) {
                double s1 = E->re, s2 = eig[col2].re;
                if (s1 < 0 && s2 < 0) { /* overdamped: s_re the root nearer zero */
                    if (fabs(s2) < fabs(s1)) { double t = s1; s1 = s2; s2 = t; }
                    double w = sqrt(s1 * s2);
                    m->kind = MT_MODE_OVERDAMPED;
                    m->freq = w / (2 * M_PI);
                    m->zeta = -(s1 + s2) / (2 * w);
                } else { /* divergent: s_re the largest (growing) root */
                    if (s2 > s1) { double t = s1; s1 = s2; s2 = t; }
                    m->kind = MT_MODE_DIVERGENT;
                }
                m->s_re = s1;
                m->s2_re = s2;
            } else m->kind = E->re < 0 ? MT_MODE_DECAYING : MT_MODE_DIVERGENT;
        }
        /* shape: y = L⁻ᵀ ỹ, motion N y */
        for (int i = 0; i < dof; i++) {
            Y[i] = VR[IDX(i, E->col, n)];
            Y[dof + i] = E->im > 0 ? VR[IDX(i, E->col + 1, n)] : 0;
        }
        LAPACKE_dtrtrs(LAPACK_COL_MAJOR, 'L', 'T', 'N', dof, 2, Mr, dof, Y, dof);
        size_t per = 2 * (size_t)nx + 2 * (size_t)nj;
        m->shape_re = res->store + per * (size_t)nm;
        m->shape_im = m->shape_re + nx;
        m->coord_re = m->shape_im + nx;
        m->coord_im = m->coord_re + nj;
        mode_shape(L, N, dof, Y, m);
        nm++;
    }
    res->nmode = nm;
    qsort(res->mode, (size_t)nm, sizeof *res->mode, cmp_mode);
    goto done;
nomem:
    rc = mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory for the analysis"));
done:
    if (!rc) ctx_store(&c, st);
    ctx_free(&c);
    free(Mr); free(Kr); free(Cr); free(tmp); free(A); free(VR); free(wr); free(wi); free(Y); free(eig); free(fbasis);
    if (rc) mt_modes_free(res);
    else *out = res;
    return rc;
}
