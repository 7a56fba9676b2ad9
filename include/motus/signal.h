/* motus/signal.h — signal functions over a result column (docs/studies.md,
 * "Responses"): time averages and RMS over a window of a sampled signal,
 * and the power spectral density by Welch's method (FFTW3). Shared by
 * studies (core/analysis/mt_study_run.c) and, later, the window's
 * post-processor. Samples are (t_i, x_i) with t increasing. Every function
 * may be called from several threads at once (FFTW's planner is locked). */
#ifndef MOTUS_SIGNAL_H
#define MOTUS_SIGNAL_H

#include "motus/error.h"

/* Time average of x over [t0, t1] by trapezoids (the samples in the window,
 * the ends interpolated linearly); RMS is the root of the time average of
 * x². For samples spaced evenly over whole periods of a sine of amplitude A
 * the RMS is A/√2 to rounding. NAN when the window holds no interval. */
double mt_signal_mean(const double *t, const double *x, int n, double t0, double t1);
double mt_signal_rms(const double *t, const double *x, int n, double t0, double t1);
/* Linear interpolation of x at time tq (the end values outside [t_0, t_n-1]). */
double mt_signal_at(const double *t, const double *x, int n, double tq);

/* Settling time: the time from t0 after which x stays within tol of its
 * value at t1 (the last crossing of the band, interpolated linearly between
 * frames); 0 when it never leaves the band, NAN when the window holds no interval. */
double mt_signal_settling(const double *t, const double *x, int n, double t0, double t1, double tol);

typedef enum { MT_WINDOW_HANN, MT_WINDOW_RECT } MtWindowKind;

/* Welch's method: the signal over [t0, t1] (resampled linearly at its mean
 * step when the steps are uneven) is cut into segments of length len
 * overlapping by overlap (fraction, 0 ≤ overlap < 1); each segment's mean is
 * removed, it is multiplied by the window, transformed (FFTW r2c), and the
 * periodograms are averaged. The result is one-sided, in unit²/Hz:
 *   P_k = c_k |X_k|² / (fs Σ w_j²),  c_k = 2 except at 0 and at fs/2 (1),
 * so that Σ P_k Δf equals the mean square of the windowed, detrended
 * segments (Parseval; exact for one rectangular segment). */
typedef struct {
    MtWindowKind window; /* MT_WINDOW_HANN by default */
    int segment;         /* samples per segment; 0: the longest giving 8 segments at the overlap (at least 16) */
    double overlap;      /* 0.5 by default */
} MtWelchSpec;

typedef struct {
    int n;        /* frequencies 0, Δf, … (segment/2 + 1 of them) */
    double df;    /* Δf = fs / segment, Hz */
    double *psd;  /* n values, unit²/Hz */
    int segments; /* averaged */
} MtPsd;

/* spec may be NULL (the defaults). Refuses fewer than 4 samples in the
 * window and non-finite values (naming `what`, e.g. the column). */
MtStatus mt_signal_psd(const double *t, const double *x, int n, double t0, double t1, const MtWelchSpec *spec,
                       const char *what, MtPsd *out, MtError *err);
void mt_psd_free(MtPsd *p);
/* The amplitude spectrum of x over [t0, t1] (resampled evenly as for the PSD,
 * its mean removed): one FFT of the whole window with a Hann window, one-sided
 * and divided by the window's coherent gain, so that a sine of amplitude A
 * whose frequency falls on a bin reads A there (between bins up to 15 % less:
 * the Hann window's scalloping). Written into out->psd (unit of x), out->df =
 * 1/T. */
MtStatus mt_signal_amplitude(const double *t, const double *x, int n, double t0, double t1, const char *what, MtPsd *out,
                             MtError *err);

/* The largest PSD value with frequency in [f0, f1] and its frequency
 * (refined by a parabola through the bin and its neighbours when
 * refine is non-zero); -1 when the band holds no bin. */
int mt_psd_peak(const MtPsd *p, double f0, double f1, int refine, double *value, double *freq);

#endif
