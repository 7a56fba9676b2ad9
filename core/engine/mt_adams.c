/* mt_adams.c — variable-order (1…12), variable-step Adams–Bashforth–Moulton
 * in PECE form with local extrapolation, after Shampine & Gordon ("Computer
 * solution of ordinary differential equations", 1975), on y = (q, u) with the
 * right-hand side mt_deriv.
 *
 * Why our own and not CVODE's Adams: a multistep method keeps a history of
 * derivatives, and a mechanism's state must be put back on its constraints
 * (quaternions renormalised, `correct` projections) after a step. CVODE keeps
 * its history as a Nordsieck array tied to its own y and refuses projection
 * for Adams methods, so every projection cost a restart at order 1. Here the
 * history is the divided differences of the derivatives f at the past step
 * points, and the state is only y_n: a step ends, y_n is settled (projected),
 * f is evaluated there and joins the history — no restart.
 *
 * One step of order k from t_n to t_n + h, nodes T[0] = t_n, T[1] = t_(n−1), …:
 *   predictor (Adams–Bashforth, k nodes):  yp = y_n + Σ_{j<k} D_j·∫ Π_{i<j} (t − T_i) dt
 *   evaluate fp = f(t_n + h, yp), its divided differences E_j with the new node first;
 *   corrector (Adams–Moulton, k + 1 nodes): yc = yp + E_k·∫ Π_{i<k} (t − T_i) dt,
 *   the local error estimate of the order-k corrector: E_k·∫ (t − t_n − h) Π_{i<k−1} (t − T_i) dt;
 *   evaluate f(t_n + h, yc) (after the settlement when it moved y).
 * The integrals are exact integrals of the Newton polynomials over the actual,
 * unequal step points, so a change of step needs no rescaling. The step is
 * accepted when the weighted RMS of the order-k estimate is at most 1 (weights
 * 1/(rtol·|y| + atol)), while the result kept is the order-(k + 1) one (local
 * extrapolation: the error of what is kept lies well below the estimate).
 * Orders k − 1 and k + 1 are estimated the same way; the next order and step
 * are the ones giving the longest step. A start doubles step and order until
 * the estimates object; no step is longer than the solver's hmax (default: the
 * output interval), since only a step's ends are seen. Events as in dp54:
 * located on the step's Hermite cubic, the step is redone up to the event,
 * and the method restarts from the state the event leaves (keeping its
 * history when the event left the state and f as they were). Frames are the
 * corrector's polynomial at the output times. Declared in mt_implicit.h;
 * docs/integrators.md "adams". */
#include <stdlib.h>
#include <string.h>

#include "mt_events.h"
#include "mt_i18n.h"
#include "mt_implicit.h"
#include "mt_math.h"

#define KMAX 12 /* highest order of the predictor */
#define NH (KMAX + 2)
/* The next step aims at an estimate of 1/BIAS: CVODE's bias of 6 keeps the
 * steps clear of the error test's edge. On A01, A02 and the regular swing it
 * gave fewer evaluations and more digits than 2 or 3 (docs/integrators.md). */
#define BIAS 6.0

typedef struct {
    int n, k, nh;            /* state size, order, history points held (T[0..nh−1]) */
    double T[NH];            /* past step points, newest first */
    double *D;               /* D[j·n…]: f[T_0, …, T_j], j < nh */
    double *E;               /* E[j·n…]: f[t_n + h, T_0, …, T_(j−1)] of the step being tried */
    double G[NH + 1], Gs[NH + 1]; /* ∫₀¹ P_j, ∫₀¹ σ·P_j, P_j(σ) = Π_{i<j} (σ + e_i), e_i = (t_n − T_i)/h */
    double P[NH + 1][NH + 1];     /* coefficients of P_j (for the frames) */
} Abm;

/* The integrals of the step's Newton polynomials, for j = 0 … jmax (≤ nh). */
static void coefficients(Abm *a, double h, int jmax)
{
    memset(a->P, 0, sizeof a->P);
    a->P[0][0] = 1;
    for (int j = 0; j <= jmax; j++) {
        if (j) {
            double e = (a->T[0] - a->T[j - 1]) / h;
            for (int m = 0; m <= j; m++) a->P[j][m] = (m ? a->P[j - 1][m - 1] : 0) + e * a->P[j - 1][m];
        }
        double g = 0, gs = 0;
        for (int m = 0; m <= j; m++) {
            g += a->P[j][m] / (m + 1);
            gs += a->P[j][m] / (m + 2);
        }
        a->G[j] = g;
        a->Gs[j] = gs;
    }
}

/* Weighted RMS of c·v. */
static double wnorm(const double *v, double c, const double *w, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) {
        double x = c * v[i] * w[i];
        s += x * x;
    }
    return sqrt(s / n);
}

/* The history restarted at (t, y) with f there in f: order 1. */
static void restart(Abm *a, double t, const double *f)
{
    a->k = 1;
    a->nh = 1;
    a->T[0] = t;
    memcpy(a->D, f, sizeof(double) * (size_t)a->n);
}

/* A first step for order 1 (Hairer, Nørsett & Wanner, "Solving ODEs I", §II.4):
 * one trial evaluation estimates the second derivative. */
static MtStatus first_step(MtOde *o, double t, const double *y, const double *f, const MtSolverSpec *sv,
                           double *yt, double *ft, double *h, MtError *err)
{
    int n = o->n;
    double d0 = 0, d1 = 0;
    for (int i = 0; i < n; i++) {
        double w = 1 / (sv->atol + sv->rtol * fabs(y[i]));
        d0 += (y[i] * w) * (y[i] * w);
        d1 += (f[i] * w) * (f[i] * w);
    }
    d0 = sqrt(d0 / n);
    d1 = sqrt(d1 / n);
    double h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
    h0 = fmin(h0, fmax(sv->until - t, 1e-12));
    for (int i = 0; i < n; i++) yt[i] = y[i] + h0 * f[i];
    MtStatus rc = mt_deriv(o->st, t + h0, yt, ft, err);
    if (rc) return rc;
    double d2 = 0;
    for (int i = 0; i < n; i++) {
        double w = 1 / (sv->atol + sv->rtol * fabs(y[i]));
        d2 += ((ft[i] - f[i]) * w) * ((ft[i] - f[i]) * w);
    }
    d2 = sqrt(d2 / n) / h0;
    double dm = fmax(d1, d2);
    double h1 = dm <= 1e-15 ? fmax(1e-6, h0 * 1e-3) : sqrt(0.01 / dm);
    *h = fmin(100 * h0, h1);
    return MT_OK;
}

/* The solution's polynomial of the step at t_n + θ·h (order k corrector:
 * D_0 … D_(k−1), E_k) into yo. */
static void dense(const Abm *a, const double *y, double h, double th, double *yo)
{
    int n = a->n, k = a->k;
    memcpy(yo, y, sizeof(double) * (size_t)n);
    double hp = h;
    for (int j = 0; j <= k; j++) {
        double g = 0, tp = th;
        for (int m = 0; m <= j; m++, tp *= th) g += a->P[j][m] * tp / (m + 1);
        const double *c = j < k ? a->D + (size_t)j * n : a->E + (size_t)k * n;
        double s = hp * g;
        for (int i = 0; i < n; i++) yo[i] += s * c[i];
        hp *= h;
    }
}

MtStatus mt_run_adams(MtOde *o, double *y, const MtSolverSpec *sv, MtFrameFn fn, void *user,
                      const volatile int *cancel, MtRunStats *stats, MtError *err)
{
    int n = o->n;
    MtState *st = o->st;
    Abm a = {.n = n};
    double *buf = calloc((size_t)(2 * NH + 7) * (size_t)n, sizeof(double));
    if (!buf) return mt_error_set(err, MT_ERR_NOMEM, "", MT_("out of memory for the integrator"));
    a.D = buf;
    a.E = a.D + (size_t)NH * n;
    double *yp = a.E + (size_t)NH * n, *yc = yp + n, *fc = yc + n, *w = fc + n, *yo = w + n, *ye = yo + n, *sc = ye + n;
    int events = st->sys->model->nevent > 0;
    double t0 = st->t, t = t0, tend = sv->until, dt = sv->step, h = 0, hmax = sv->hmax > 0 ? sv->hmax : dt;
    int stop = 0, nfail = 0, start = 1, nconst = 0, pending = -1;
    long iout = 1, nout = (long)floor((tend - t) / dt + 1e-9);
    MtStatus rc;
    if ((rc = mt_deriv(st, t, y, fc, err))) goto done;
    if (events) mt_events_sample(st);
    if ((rc = mt_ode_emit(o, t, y, fn, user, stats, &stop, 0, err))) goto done;
    restart(&a, t, fc);
    if ((rc = first_step(o, t, y, a.D, sv, yp, fc, &h, err))) goto done;
    while (!stop && t < tend - 1e-14 * fmax(1.0, fabs(tend))) {
        if (cancel && *cancel) break;
        h = fmin(h, hmax); /* a step must not jump over an input (a driver's bump, a force's pulse) */
        if (t + h > tend) h = tend - t;
        if (h < 1e-14 * fmax(1.0, fabs(t))) {
            rc = mt_error_set(err, MT_ERR_SOLVE, "solver",
                              MT_("solver: step size fell below %.3g s at t = %.6g s; the motion is too stiff or singular "
                                  "for these tolerances"), h, t);
            goto done;
        }
        int k = a.k;
        double tn = t + h, erm = INFINITY, erp = INFINITY;
        int jmax = a.nh < KMAX + 1 ? a.nh : KMAX + 1;
        coefficients(&a, h, jmax);
        /* predict */
        memcpy(yp, y, sizeof(double) * (size_t)n);
        double hp = h;
        for (int j = 0; j < k; j++, hp *= h) {
            const double *d = a.D + (size_t)j * n;
            double s = hp * a.G[j];
            for (int i = 0; i < n; i++) yp[i] += s * d[i];
        }
        if ((rc = mt_deriv(st, tn, yp, a.E, err))) goto done;
        /* divided differences with the new point, up to the order-(k+1) estimate when the history allows */
        int je = k + 1 < a.nh ? k + 1 : a.nh;
        for (int j = 1; j <= je; j++) {
            double *e = a.E + (size_t)j * n, r = 1 / (tn - a.T[j - 1]);
            const double *ep = e - n, *d = a.D + (size_t)(j - 1) * n;
            for (int i = 0; i < n; i++) e[i] = (ep[i] - d[i]) * r;
        }
        /* correct (order k + 1) */
        const double *ek = a.E + (size_t)k * n;
        double s = hp * a.G[k]; /* hp = h^(k+1) */
        for (int i = 0; i < n; i++) yc[i] = yp[i] + s * ek[i];
        for (int i = 0; i < n; i++) w[i] = 1 / (sv->atol + sv->rtol * fmax(fabs(y[i]), fabs(yc[i])));
        /* error estimates of the orders k − 1, k, k + 1: E_j·h^(j+1)·(∫σP_(j−1) − ∫P_(j−1)) */
        double hk = hp / h; /* h^k */
        double erk = wnorm(ek, hp * (a.Gs[k - 1] - a.G[k - 1]), w, n);
        if (k > 1) erm = wnorm(a.E + (size_t)(k - 1) * n, hk * (a.Gs[k - 2] - a.G[k - 2]), w, n);
        if (je == k + 1 && k < KMAX) erp = wnorm(a.E + (size_t)(k + 1) * n, hp * h * (a.Gs[k] - a.G[k]), w, n);
        if (!isfinite(erk)) {
            rc = mt_error_set(err, MT_ERR_SOLVE, "solver", MT_("solver: the solution became non-finite at t = %.6g s"),
                              t);
            goto done;
        }
        if (erk > 1) { /* rejected: history untouched, a shorter step (and maybe a lower order) */
            if (stats) stats->rejected++;
            nfail++;
            start = 0;
            pending = -1;
            nconst = 0;
            double r = fmin(0.5, fmax(0.1, 0.9 * pow(erk, -1.0 / (k + 1))));
            if (k > 1 && erm < erk) {
                a.k = k - 1;
                r = fmin(0.5, fmax(0.1, 0.9 * pow(erm, -1.0 / k)));
            }
            if (nfail >= 3) a.k = 1, r = 0.25;
            h *= r;
            continue;
        }
        /* f at the corrected state: the E of PECE, and the crossing functions there */
        if ((rc = mt_deriv(st, tn, yc, fc, err))) goto done;
        int fired = -1, interpolated = 0;
        double te = tn;
        if (pending >= 0) { /* this step ends at the event */
            fired = pending;
            pending = -1;
        } else if (events) {
            fired = mt_events_locate(st, n, t, y, a.D, tn, yc, fc, &te, ye, sc);
            if (fired >= 0 && te - t > 1e-9 * h && tn - te > 1e-12 * fmax(1.0, fabs(tn))) {
                pending = fired; /* redo the step up to the event */
                h = te - t;
                continue;
            }
            if (fired >= 0) tn = te, interpolated = 1;
        }
        if (stats) stats->steps++;
        nfail = 0;
        /* frames inside (t, tn] */
        while (!stop && iout <= nout) {
            double to = t0 + (double)iout * dt;
            if (to > tn + 1e-12 * fmax(1.0, fabs(tn))) break;
            if (iout % sv->every == 0 || iout == nout) {
                dense(&a, y, h, (to - t) / h, yo);
                if ((rc = mt_ode_emit(o, to, yo, fn, user, stats, &stop, 1, err))) goto done;
            }
            iout++;
        }
        memcpy(y, interpolated ? ye : yc, sizeof(double) * (size_t)n);
        t = tn;
        if ((rc = mt_ode_settle(o, t, y, sv, err))) goto done;
        if (fired >= 0) { /* the event; a fresh start unless it left the state and f as they were */
            memcpy(yo, y, sizeof(double) * (size_t)n);
            if ((rc = mt_event_apply(st, fired, &stop, err))) goto done;
            memcpy(y, st->q, sizeof(double) * (size_t)o->nq);
            memcpy(y + o->nq, st->u, sizeof(double) * (size_t)o->nu);
            if ((rc = mt_deriv(st, t, y, yp, err))) goto done;
            mt_events_sample(st);
            if ((rc = mt_ode_emit(o, t, y, fn, user, stats, &stop, 0, err))) goto done;
            if (stop) break;
            /* unchanged: the same state, and a change of f that moves y by less than 1e-3 of the
             * tolerance over the step — the history stays valid, as it does through any kink of f */
            for (int i = 0; i < n; i++) yc[i] = yp[i] - fc[i];
            int same = !interpolated && !memcmp(y, yo, sizeof(double) * (size_t)n) && wnorm(yc, h, w, n) <= 1e-3;
            memcpy(fc, yp, sizeof(double) * (size_t)n);
            if (!same) {
                restart(&a, t, fc);
                start = 1;
                nconst = 0;
                if ((rc = first_step(o, t, y, a.D, sv, yp, fc, &h, err))) goto done;
                continue;
            }
        } else {
            if (sv->correct && (rc = mt_deriv(st, t, y, fc, err))) goto done; /* f where the projection put y */
            if (events) {
                if (sv->correct) mt_events_sample(st);
                else for (int e = 0; e < st->sys->model->nevent; e++) st->eprev[e] = st->enext[e];
            }
        }
        /* the new point joins the history (E as scratch): D'_0 = f, D'_j = (D'_(j−1) − D_(j−1))/(t − T_(j−1)) */
        int nh = a.nh < NH ? a.nh + 1 : NH;
        memcpy(a.E, fc, sizeof(double) * (size_t)n);
        for (int j = 1; j < nh; j++) {
            double *dj = a.E + (size_t)j * n, r = 1 / (t - a.T[j - 1]);
            const double *dp = dj - n, *d = a.D + (size_t)(j - 1) * n;
            for (int i = 0; i < n; i++) dj[i] = (dp[i] - d[i]) * r;
        }
        memcpy(a.D, a.E, sizeof(double) * (size_t)nh * (size_t)n);
        memmove(a.T + 1, a.T, sizeof(double) * (NH - 1));
        a.T[0] = t;
        a.nh = nh;
        nconst++;
        /* the next order and step: the longest of orders k − 1, k, k + 1 */
        double rk = pow(BIAS * erk + 1e-300, -1.0 / (k + 1));
        if (start) {
            if (rk >= 2 && k < KMAX && k < a.nh) {
                a.k = k + 1;
                h *= 2;
                continue;
            }
            start = 0;
        }
        double r = rk;
        int kn = k;
        if (k > 1) {
            double rm = pow(BIAS * erm + 1e-300, -1.0 / k);
            if (rm > r) r = rm, kn = k - 1;
        }
        if (nconst > k && isfinite(erp) && k < a.nh - 1) {
            double rp = pow(BIAS * erp + 1e-300, -1.0 / (k + 2));
            if (rp > 1.1 * r) r = rp, kn = k + 1;
        }
        if (kn != k) nconst = 0;
        a.k = kn;
        r = fmin(2.0, fmax(0.5, r));
        if (r > 1 && r < 1.1) r = 1;
        h *= r;
    }
    /* a final frame at tend if the output grid did not land on it */
    if (!stop && !(cancel && *cancel) && tend - (t0 + (double)nout * dt) > 1e-12 * fmax(1.0, tend))
        rc = mt_ode_emit(o, t, y, fn, user, stats, &stop, 1, err);
done:
    free(buf);
    return rc;
}
