/* mt_derived.c — the values and units of derived curves (motus/derived.h):
 * magnitudes, sums, differences and scaled curves point by point; the
 * derivative by three-point differences (second order, also on uneven
 * steps), the integral by trapezoids, and the low-pass filter as a
 * 2nd-order Butterworth biquad run forward and backward (zero phase). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mt_i18n.h"
#include "motus/derived.h"
#include "motus/units.h"

static MtStatus increasing(const MtDerivedSpec *d, const double *t, int n, MtError *err)
{
    for (int i = 1; i < n; i++)
        if (!(t[i] > t[i - 1]))
            return mt_error_set(err, MT_ERR_ARG, d->name,
                                MT_("derived curve '%s': the frames' times do not increase at t = %g s"), d->name, t[i]);
    return MT_OK;
}

/* Three-point differences: the slope at t_i of the parabola through the
 * samples i-1, i, i+1 (at the ends, through the first or last three). */
static void derivative(const double *t, const double *x, int n, double *out)
{
    for (int i = 1; i + 1 < n; i++) {
        double h1 = t[i] - t[i - 1], h2 = t[i + 1] - t[i];
        out[i] = (h1 * h1 * x[i + 1] - h2 * h2 * x[i - 1] + (h2 * h2 - h1 * h1) * x[i]) / (h1 * h2 * (h1 + h2));
    }
    double h1 = t[1] - t[0], h2 = t[2] - t[1];
    out[0] = -(2 * h1 + h2) / (h1 * (h1 + h2)) * x[0] + (h1 + h2) / (h1 * h2) * x[1] - h1 / (h2 * (h1 + h2)) * x[2];
    h1 = t[n - 2] - t[n - 3], h2 = t[n - 1] - t[n - 2];
    out[n - 1] = h2 / (h1 * (h1 + h2)) * x[n - 3] - (h1 + h2) / (h1 * h2) * x[n - 2] +
                 (h1 + 2 * h2) / (h2 * (h1 + h2)) * x[n - 1];
}

/* One pass of the biquad (transposed direct form II) over y in place, from
 * the first sample to the last (dir 1) or back (dir -1), its state started
 * as if the first value had always been there (no start-up transient). */
static void biquad(const double b[3], const double a[3], double *y, int n, int dir)
{
    int i = dir > 0 ? 0 : n - 1;
    double y0 = y[i], z2 = (b[2] - a[2]) * y0, z1 = (b[1] - a[1]) * y0 + z2;
    for (int k = 0; k < n; k++, i += dir) {
        double in = y[i], o = b[0] * in + z1;
        z1 = b[1] * in - a[1] * o + z2;
        z2 = b[2] * in - a[2] * o;
        y[i] = o;
    }
}

static MtStatus lowpass(const MtDerivedSpec *d, const double *t, const double *x, int n, double *out, MtError *err)
{
    if (n < 2)
        return mt_error_set(err, MT_ERR_ARG, d->name, MT_("derived curve '%s': a filter needs 2 frames at least"), d->name);
    double dt = (t[n - 1] - t[0]) / (n - 1);
    for (int i = 1; i < n; i++)
        if (fabs(t[i] - t[i - 1] - dt) > 0.01 * dt)
            return mt_error_set(err, MT_ERR_ARG, d->name,
                                MT_("derived curve '%s': the filter needs evenly spaced frames (a fixed output "
                                    "step); the step changes at t = %g s"),
                                d->name, t[i]);
    if (!(d->param * dt < 0.5))
        return mt_error_set(err, MT_ERR_ARG, d->name,
                            MT_("derived curve '%s': the cut-off %g Hz is not below half the frame rate (%g Hz): "
                                "lower it or write frames more often"),
                            d->name, d->param, 0.5 / dt);
    /* bilinear transform of 1 / (s² + √2 s + 1) with the cut-off pre-warped: K = tan(π fc dt) */
    double K = tan(M_PI * d->param * dt), norm = 1 / (1 + M_SQRT2 * K + K * K);
    double b[3] = {K * K * norm, 2 * K * K * norm, K * K * norm};
    double a[3] = {1, 2 * (K * K - 1) * norm, (1 - M_SQRT2 * K + K * K) * norm};
    memcpy(out, x, sizeof *out * (size_t)n);
    biquad(b, a, out, n, 1);
    biquad(b, a, out, n, -1);
    return MT_OK;
}

double mt_lowpass_gain(double fc, double f, double dt)
{
    double r = tan(M_PI * f * dt) / tan(M_PI * fc * dt);
    return 1 / (1 + r * r * r * r);
}

MtStatus mt_derived_eval(const MtDerivedSpec *d, const double *t, const double *const *x, int n, double *out,
                         MtError *err)
{
    MtStatus rc = mt_derived_check(d, err);
    if (rc != MT_OK || n <= 0) return rc;
    switch (d->op) {
    case MT_DERIVED_MAGNITUDE:
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int k = 0; k < d->narg; k++) s += x[k][i] * x[k][i];
            out[i] = sqrt(s);
        }
        return MT_OK;
    case MT_DERIVED_SUM:
    case MT_DERIVED_DIFFERENCE:
        for (int i = 0; i < n; i++) out[i] = d->op == MT_DERIVED_SUM ? x[0][i] + x[1][i] : x[0][i] - x[1][i];
        return MT_OK;
    case MT_DERIVED_SCALE:
        for (int i = 0; i < n; i++) out[i] = d->param * x[0][i];
        return MT_OK;
    case MT_DERIVED_DERIVATIVE:
        if (n < 3)
            return mt_error_set(err, MT_ERR_ARG, d->name, MT_("derived curve '%s': a derivative needs 3 frames at least"),
                                d->name);
        if ((rc = increasing(d, t, n, err)) != MT_OK) return rc;
        derivative(t, x[0], n, out);
        return MT_OK;
    case MT_DERIVED_INTEGRAL:
        if ((rc = increasing(d, t, n, err)) != MT_OK) return rc;
        out[0] = 0;
        for (int i = 1; i < n; i++) out[i] = out[i - 1] + 0.5 * (x[0][i] + x[0][i - 1]) * (t[i] - t[i - 1]);
        return MT_OK;
    case MT_DERIVED_LOWPASS:
        if ((rc = increasing(d, t, n, err)) != MT_OK) return rc;
        return lowpass(d, t, x[0], n, out, err);
    default: return mt_error_set(err, MT_ERR_ARG, d->name, "%s", MT_("unknown operation"));
    }
}

/* Quantities whose derivative over time is the next one's (their SI units). */
static const MtDim chains[][3] = {
    {MT_DIM_LENGTH, MT_DIM_VELOCITY, MT_DIM_ACCEL},
    {MT_DIM_ANGLE, MT_DIM_ANGVEL, MT_DIM_ANGACC},
    {MT_DIM_ENERGY, MT_DIM_POWER, MT_DIM_COUNT},
};

/* The SI unit one step along a chain from unit u (step +1: derivative, -1: integral), or NULL. */
static const char *chain_step(const char *u, int step)
{
    for (size_t c = 0; c < sizeof chains / sizeof chains[0]; c++)
        for (int k = 0; k < 3; k++) {
            const MtUnit *si = chains[c][k] < MT_DIM_COUNT ? mt_unit_si(chains[c][k]) : NULL;
            if (!si || strcmp(si->name, u)) continue;
            int to = k + step;
            const MtUnit *n = to >= 0 && to < 3 && chains[c][to] < MT_DIM_COUNT ? mt_unit_si(chains[c][to]) : NULL;
            return n ? n->name : NULL;
        }
    return NULL;
}

static int ends_with(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && !strcmp(s + a - b, tail);
}

const char *mt_derived_unit(const MtDerivedSpec *d, const char *const *unit, char *buf, size_t size)
{
    const char *u = d->narg > 0 && unit[0] ? unit[0] : "";
    if (d->op == MT_DERIVED_DERIVATIVE || d->op == MT_DERIVED_INTEGRAL) {
        int step = d->op == MT_DERIVED_DERIVATIVE ? 1 : -1;
        const char *c = chain_step(u, step);
        if (c) snprintf(buf, size, "%s", c);
        else if (!u[0]) snprintf(buf, size, "%s", step > 0 ? "1/s" : "s");
        else if (step > 0 && ends_with(u, "/s")) snprintf(buf, size, "%s²", u);
        else if (step > 0) snprintf(buf, size, "%s/s", u);
        else if (!strcmp(u, "1/s")) snprintf(buf, size, "%s", "");
        else if (ends_with(u, "/s²")) snprintf(buf, size, "%.*s", (int)(strlen(u) - strlen("²")), u);
        else if (ends_with(u, "/s")) snprintf(buf, size, "%.*s", (int)(strlen(u) - 2), u);
        else snprintf(buf, size, "%s·s", u);
        return buf;
    }
    for (int k = 1; k < d->narg && d->op != MT_DERIVED_SCALE; k++)
        if (strcmp(unit[k] ? unit[k] : "", u)) return NULL;
    snprintf(buf, size, "%s", u);
    return buf;
}
