/* test_derived.c — derived curves (core/analysis/mt_derived.c) against
 * closed forms: a vector's magnitude, the derivative and integral of sines,
 * the zero-phase Butterworth low-pass's gain at and above its cut-off, and
 * the units the operations give. */
#include <string.h>

#include "mt_test.h"
#include "motus/derived.h"

#define N 10001 /* 10 s at 1 ms */

static double t[N], a[N], b[N], c[N], out[N];

static MtDerivedSpec spec(MtDerivedOp op, int narg, double param)
{
    MtDerivedSpec d = {.op = op, .narg = narg, .param = param};
    snprintf(d.name, sizeof d.name, "d");
    for (int k = 0; k < narg; k++) snprintf(d.arg[k], sizeof d.arg[k], "c%d.x", k);
    return d;
}

/* The largest |out − f(t)| over samples i0 .. i1. */
static double max_err(const double *want, int i0, int i1)
{
    double e = 0;
    for (int i = i0; i <= i1; i++) e = fmax(e, fabs(out[i] - want[i]));
    return e;
}

/* Amplitude of a filtered sine over the middle of the run (whole periods of frequency f). */
static double amplitude(double f)
{
    const double dt = 1e-3, fc = 5;
    for (int i = 0; i < N; i++) a[i] = sin(2 * M_PI * f * t[i]);
    MtDerivedSpec d = spec(MT_DERIVED_LOWPASS, 1, fc);
    MtError err = {0};
    const double *x[] = {a};
    CHECK(mt_derived_eval(&d, t, x, N, out, &err) == MT_OK, "low-pass at %g Hz: %s", f, err.msg);
    double s = 0; /* RMS over t = 3 … 7 s: 4 s holds whole periods of every f here */
    int i0 = (int)(3 / dt), i1 = (int)(7 / dt);
    for (int i = i0; i < i1; i++) s += out[i] * out[i];
    return sqrt(2 * s / (i1 - i0));
}

int main(void)
{
    const double dt = 1e-3, w = 2 * M_PI * 2; /* 2 Hz */
    for (int i = 0; i < N; i++) t[i] = i * dt;
    MtError err = {0};

    /* magnitude of (3, 4, 12) s: 13 s */
    for (int i = 0; i < N; i++) a[i] = 3 * t[i], b[i] = 4 * t[i], c[i] = 12 * t[i];
    MtDerivedSpec d = spec(MT_DERIVED_MAGNITUDE, 3, 0);
    const double *abc[] = {a, b, c};
    CHECK(mt_derived_eval(&d, t, abc, N, out, &err) == MT_OK, "magnitude: %s", err.msg);
    CHECK_ABS(out[N - 1], 130, 1e-12, "|(30, 40, 120)| = 130");
    d = spec(MT_DERIVED_DIFFERENCE, 2, 0);
    CHECK(mt_derived_eval(&d, t, abc, N, out, &err) == MT_OK, "difference: %s", err.msg);
    CHECK_ABS(out[1000], -1, 1e-15, "3 t − 4 t at t = 1 s");
    d = spec(MT_DERIVED_SCALE, 1, -2.5);
    CHECK(mt_derived_eval(&d, t, abc, N, out, &err) == MT_OK, "scale: %s", err.msg);
    CHECK_ABS(out[2000], -15, 1e-14, "−2.5 × 3 t at t = 2 s");

    /* derivative of sin(ω t): ω cos(ω t); three-point differences err by h² ω³ / 6 inside, h² ω³ / 3 at the ends */
    for (int i = 0; i < N; i++) a[i] = sin(w * t[i]), b[i] = w * cos(w * t[i]);
    d = spec(MT_DERIVED_DERIVATIVE, 1, 0);
    const double *x[] = {a};
    CHECK(mt_derived_eval(&d, t, x, N, out, &err) == MT_OK, "derivative: %s", err.msg);
    CHECK_ABS(max_err(b, 1, N - 2), 0, dt * dt * w * w * w / 6 * 1.01, "derivative of sin(4π t) inside: max error");
    CHECK_ABS(max_err(b, 0, N - 1), 0, dt * dt * w * w * w / 3 * 1.01, "derivative at the ends: max error");
    /* uneven steps: the parabola through three samples is exact for a quadratic */
    double tu[5] = {0, 0.1, 0.35, 0.4, 1}, q[5], qd[5];
    for (int i = 0; i < 5; i++) q[i] = 2 - 3 * tu[i] + 5 * tu[i] * tu[i], qd[i] = -3 + 10 * tu[i];
    const double *xq[] = {q};
    CHECK(mt_derived_eval(&d, tu, xq, 5, out, &err) == MT_OK, "derivative on uneven steps: %s", err.msg);
    CHECK_ABS(max_err(qd, 0, 4), 0, 1e-13, "derivative of a quadratic on uneven steps is exact");
    double back[3] = {0, 1, 0.5};
    CHECK(mt_derived_eval(&d, back, xq, 3, out, &err) != MT_OK && strstr(err.msg, "do not increase"),
          "times that go back are refused: %s", err.msg);

    /* integral of ω cos(ω t) from 0: sin(ω t); trapezoids err by at most h² ω³ T / 12 */
    d = spec(MT_DERIVED_INTEGRAL, 1, 0);
    const double *xb[] = {b};
    CHECK(mt_derived_eval(&d, t, xb, N, out, &err) == MT_OK, "integral: %s", err.msg);
    CHECK_ABS(max_err(a, 0, N - 1), 0, dt * dt * w * w * w * 10 / 12, "integral of 4π cos(4π t): max error");

    /* low-pass, 5 Hz: a constant passes unchanged; a sine's amplitude is the closed-form gain */
    for (int i = 0; i < N; i++) a[i] = 7.25;
    d = spec(MT_DERIVED_LOWPASS, 1, 5);
    CHECK(mt_derived_eval(&d, t, x, N, out, &err) == MT_OK, "low-pass of a constant: %s", err.msg);
    CHECK_ABS(max_err(a, 0, N - 1), 0, 1e-12, "a constant through the low-pass (no start-up transient)");
    CHECK_ABS(mt_lowpass_gain(5, 5, dt), 0.5, 1e-15, "gain at the cut-off: one half (−6 dB, zero phase)");
    double f[] = {1, 5, 10, 20};
    for (int k = 0; k < 4; k++) {
        double want = mt_lowpass_gain(5, f[k], dt);
        char what[64];
        snprintf(what, sizeof what, "amplitude of a %g Hz sine through the 5 Hz low-pass", f[k]);
        CHECK_ABS(amplitude(f[k]), want, 1e-6, what);
    }
    CHECK_REL(mt_lowpass_gain(5, 10, dt), 1 / 17.0, 2e-3, "at twice the cut-off: 1/(1 + 2⁴), the bilinear warp aside");
    d = spec(MT_DERIVED_LOWPASS, 1, 500);
    CHECK(mt_derived_eval(&d, t, x, N, out, &err) != MT_OK && strstr(err.msg, "half the frame rate"),
          "a cut-off at half the frame rate is refused: %s", err.msg);
    d = spec(MT_DERIVED_LOWPASS, 1, 5);
    CHECK(mt_derived_eval(&d, tu, xq, 5, out, &err) != MT_OK && strstr(err.msg, "evenly spaced"),
          "uneven frames are refused by the filter: %s", err.msg);

    /* units */
    struct {
        MtDerivedOp op;
        const char *in[2], *want;
    } u[] = {
        {MT_DERIVED_DERIVATIVE, {"m"}, "m/s"},     {MT_DERIVED_DERIVATIVE, {"m/s"}, "m/s²"},
        {MT_DERIVED_DERIVATIVE, {"rad"}, "rad/s"}, {MT_DERIVED_DERIVATIVE, {"J"}, "W"},
        {MT_DERIVED_DERIVATIVE, {"N"}, "N/s"},     {MT_DERIVED_DERIVATIVE, {""}, "1/s"},
        {MT_DERIVED_INTEGRAL, {"N"}, "N·s"},       {MT_DERIVED_INTEGRAL, {"m/s"}, "m"},
        {MT_DERIVED_INTEGRAL, {"m/s²"}, "m/s"},    {MT_DERIVED_INTEGRAL, {"W"}, "J"},
        {MT_DERIVED_INTEGRAL, {"N/s"}, "N"},       {MT_DERIVED_INTEGRAL, {"1/s"}, ""},
        {MT_DERIVED_MAGNITUDE, {"N", "N"}, "N"},   {MT_DERIVED_SUM, {"N", "m"}, NULL},
        {MT_DERIVED_LOWPASS, {"Pa"}, "Pa"},
    };
    for (size_t k = 0; k < sizeof u / sizeof u[0]; k++) {
        int lo, hi;
        mt_derived_arity(u[k].op, &lo, &hi);
        d = spec(u[k].op, lo, 1);
        char buf[32];
        const char *got = mt_derived_unit(&d, u[k].in, buf, sizeof buf);
        CHECK(u[k].want ? got && !strcmp(got, u[k].want) : !got, "%s of [%s]: [%s], expected [%s]", mt_derived_op_name(u[k].op),
              u[k].in[0], got ? got : "(none)", u[k].want ? u[k].want : "(none)");
    }
    return mt_test_done();
}
