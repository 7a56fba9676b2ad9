/* motus/derived.h — the values and unit of a derived curve (MtDerivedSpec,
 * motus/model.h: magnitude, sum, difference, scale, derivative, integral,
 * low-pass) computed from its operands' sampled values after a run. The
 * window's plots call it; so can anything headless. docs/model-format.md,
 * "Derived curves", says what each operation does at the ends. */
#ifndef MOTUS_DERIVED_H
#define MOTUS_DERIVED_H

#include <stddef.h>

#include "motus/error.h"
#include "motus/model.h"

/* out[i] for the n times t (increasing) from the operands' values
 * x[0 .. d->narg - 1] (n values each, at the same times). Refuses (naming the
 * curve) times that do not increase where a derivative, integral or filter
 * needs them, fewer than 3 samples for a derivative and 2 for a filter, a
 * filter over unevenly spaced frames (steps differing by more than 1 %) and
 * a cut-off at or above half the sampling rate. out may not alias x. */
MtStatus mt_derived_eval(const MtDerivedSpec *d, const double *t, const double *const *x, int n, double *out,
                         MtError *err);

/* The SI unit of the curve's values from its operands' units (symbols, ""
 * for none): a magnitude, sum, difference or scale keeps the unit of its
 * operands (NULL when they differ: metres and newtons do not add); a
 * derivative divides by s and an integral multiplies by s, naming the
 * quantity's own unit where there is one (m → m/s → m/s², rad → rad/s → rad/s²,
 * J → W), else written out ("N·s", "N/s", "1/s"). Written into buf. */
const char *mt_derived_unit(const MtDerivedSpec *d, const char *const *unit, char *buf, size_t size);

/* The low-pass filter's gain at frequency f (Hz) for cut-off fc and time step
 * dt: a 2nd-order Butterworth made digital by the bilinear transform with the
 * cut-off pre-warped, run forward then backward (zero phase), so the gain is
 * the square of the one-pass magnitude: 1 / (1 + (tan(π f dt) / tan(π fc dt))⁴);
 * one half (−6 dB) at the cut-off. */
double mt_lowpass_gain(double fc, double f, double dt);

#endif
