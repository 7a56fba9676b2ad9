/* mt_linsolve.c — how an evaluation solves A λ = b (A = G·M⁻¹·Gᵀ): a new
 * block factor every time, or an older factor ("stale factor",
 * docs/performance.md) — reused as is at the same positions, or as the
 * preconditioner of conjugate gradients close to them. The choice per run,
 * the rule for when to iterate, and the hand-over of the factor. Declared in mt_system.h. */
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "mt_system.h"
#include "mt_i18n.h"
#include "mt_math.h"

/* Relative A-norm error at which the iterations stop. ‖δλ‖_A is the M-norm
 * of the resulting error in the accelerations. */
#define LIN_TOL 1e-10
/* AUTO: PCG when a factor costs at least this many iterations
 * (mt_bchol_costs). RK4's third stage takes a few iterations with the second
 * stage's factor, so cheaper factors gain nothing; the measured costs per
 * model are in docs/performance.md, "Stale factor". */
#define LIN_MIN_RATIO 6.0

static const char *const linear_names[MT_LINEAR_NKINDS] = {"auto", "direct", "iterative"};

const char *mt_linear_name(int linear) { return linear >= 0 && linear < MT_LINEAR_NKINDS ? linear_names[linear] : "?"; }

int mt_linear_from_name(const char *s, int *linear)
{
    for (int k = 0; k < MT_LINEAR_NKINDS; k++)
        if (!strcmp(s, linear_names[k])) { *linear = k; return 0; }
    return -1;
}

MtStatus mt_lin_configure(MtState *st, const MtSolverSpec *sv, MtError *err)
{
    const MtSystem *s = st->sys;
    st->pivot_reg = sv->method == MT_METHOD_RK4 ? MT_PIVOT_REG : MT_PIVOT_REG_STEP;
    mt_bchol_free(st->pre);
    free(st->pre_q);
    st->pre = NULL;
    st->pre_q = NULL;
    st->pre_piv = NULL;
    st->pre_ok = 0;
    st->pre_fresh = 0;
    st->pre_dlim = HUGE_VAL;
    if (s->nrow == 0 || st->linear == MT_LINEAR_DIRECT) return MT_OK;
    double f, it;
    mt_bchol_costs(st->chol, &f, &it);
    st->pre_ratio = f / it;
    /* implicit methods difference their Jacobians: they need evaluations smooth to the last bits */
    int explicit_method = sv->method == MT_METHOD_RK4 || sv->method == MT_METHOD_DP54;
    int iterate = st->linear == MT_LINEAR_ITERATIVE || (explicit_method && st->pre_ratio >= LIN_MIN_RATIO);
    /* the factor of each step's re-detection serves the next evaluation, at the same positions */
    int reuse = st->linear == MT_LINEAR_ITERATIVE || (explicit_method && s->nspecial);
    if (!iterate && !reuse) return MT_OK;
    /* past about 3/4 of a factor's worth of iterations a new factor is cheaper */
    st->pre_maxit = !iterate ? 0 : st->pre_ratio < 6 ? 4 : st->pre_ratio > 300 ? 200 : (int)(0.75 * st->pre_ratio);
    int *size = malloc(sizeof(int) * (size_t)(s->nblock + 1));
    st->pre_q = malloc(sizeof(double) * (size_t)(s->nq + s->nrow + 1)); /* and pre_piv */
    if (!size || !st->pre_q) {
        free(size);
        return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory for the integrator"));
    }
    st->pre_piv = st->pre_q + s->nq;
    for (int k = 0; k < s->nblock; k++) size[k] = s->block[k].nrow;
    st->pre = mt_bchol_new(s->nblock, size, s->nedge, s->edge, err); /* same arguments: the same structure */
    free(size);
    return st->pre ? MT_OK : MT_ERR_NOMEM;
}

/* The factor just made in chol (of A at q) becomes the preconditioner;
 * A's next assembly goes to pre's old storage, so the pointers to A's blocks
 * move there (no copy of the factor). */
static void keep_factor(MtState *st, const double *q)
{
    double *base = mt_bchol_values(st->chol), *nw = mt_bchol_swap_factor(st->chol, st->pre);
    for (int k = 0; k < st->sys->nblock; k++) st->dslot[k] = nw + (st->dslot[k] - base);
    for (int p = 0; p < st->npair; p++) st->pair[p].slot = nw + (st->pair[p].slot - base);
    st->pre_ok = 1;
    st->pre_fresh = 1;
    memcpy(st->pre_q, q, sizeof(double) * (size_t)st->sys->nq);
}

/* max |q − pre_q|: how far the positions moved since the factor (metres and
 * quaternion components, a measure of how much A changed). */
static double q_dist(const MtState *st, const double *q)
{
    double d = 0;
    for (int i = 0; i < st->sys->nq; i++) d = fmax(d, fabs(q[i] - st->pre_q[i]));
    return d;
}

MT_HOT int mt_lin_solve(MtState *st, const double *q, double *x, int *bad)
{
    /* The stale factor serves while A is close to the one it factored. On the
     * plate lattice, whose A is ill-conditioned (rows near dependence), that is
     * O(h²) away, not O(h): with RK4 the second stage at t + h/2 needs 10–30
     * iterations with the factor of the first, the third (positions O(h²) from
     * the second's) 4–6 with the second's. The distance limit learns where the
     * iterations stop paying: half the distance of a failure, widened by 2 % at
     * each evaluation that skips the attempt so that it is re-probed. */
    if (st->pre && st->pre_ok && mt_bchol_same_dependent(st->chol, st->pre)) {
        double d = q_dist(st, q);
        if (d == 0) { /* A is the matrix factored (RK4's first stage after the step's re-detection): a direct solve */
            mt_bchol_solve(st->pre, x);
            st->stats.nreuse++;
            return 0;
        }
        if (st->pre_maxit > 0 && d <= st->pre_dlim) {
            int it = mt_bchol_pcg(st->chol, st->pre, x, LIN_TOL, st->pre_maxit);
            if (it >= 0) {
                st->stats.npcg++;
                st->stats.npcg_iter += it;
                return 0;
            }
            st->pre_dlim = 0.5 * d; /* did not converge (x is b again): solve directly */
        } else if (st->pre_maxit > 0) st->pre_dlim *= 1.02;
    }
    if (mt_bchol_factor_solve(st->chol, st->pivot_reg, bad, x)) return -1;
    st->stats.nfactor++;
    if (mt_bchol_regularised(st->chol)) st->stats.nregularised++;
    if (st->pre) keep_factor(st, q);
    return 0;
}

void mt_lin_detected(MtState *st)
{
    if (st->pre) {
        keep_factor(st, st->q);
        st->pre_fresh = 0;
    }
}

int mt_lin_serves_next_step(MtState *st)
{
    /* The step's last evaluation factored A with the same compliant rows at
     * positions O(h²) from st->q (RK4's fourth stage; dp54's last stage is at
     * st->q itself): PCG with that factor solves the next step's first stage
     * in a few iterations, so the re-detection need not factor A again. Its
     * second factor is also the safety net (rows whose compliant pivot is
     * still below MT_SPECIAL_TOL go out), which this factor's pivots stand in
     * for. */
    const MtSystem *s = st->sys;
    if (!st->pre || !st->pre_fresh || !st->pre_ok || st->pre_maxit <= 0) return 0;
    double *ratio = st->pre_piv;
    mt_bchol_pivot_ratios(st->pre, ratio);
    for (int r = 0; r < s->nrow; r++)
        if (!st->rowoff[r] && !(ratio[r] >= MT_SPECIAL_TOL)) return 0;
    st->pre_fresh = 0;
    st->stats.nnext++;
    return 1;
}
