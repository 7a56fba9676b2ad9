/* mt_signal.c — time averages, RMS and Welch's PSD of sampled signals
 * (motus/signal.h); the transforms are FFTW3's (docs/dependencies.md). */
#include <fftw3.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mt_i18n.h"
#include "motus/signal.h"

double mt_signal_at(const double *t, const double *x, int n, double tq)
{
    if (n <= 0) return NAN;
    if (tq <= t[0]) return x[0];
    if (tq >= t[n - 1]) return x[n - 1];
    int lo = 0, hi = n - 1; /* t[lo] ≤ tq < t[hi] */
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        if (t[mid] <= tq) lo = mid;
        else hi = mid;
    }
    if (t[lo] == tq) return x[lo];
    double a = (tq - t[lo]) / (t[hi] - t[lo]);
    return x[lo] + a * (x[hi] - x[lo]);
}

/* ∫ f(x(t)) dt over [t0, t1] by trapezoids (f = x or x²) and the length covered. */
static double integral(const double *t, const double *x, int n, double t0, double t1, int square, double *len)
{
    if (n < 2) {
        *len = 0;
        return 0;
    }
    if (t0 < t[0]) t0 = t[0];
    if (t1 > t[n - 1]) t1 = t[n - 1];
    *len = t1 - t0;
    if (!(t1 > t0)) return 0;
    double sum = 0, ta = t0, xa = mt_signal_at(t, x, n, t0);
    for (int i = 0; i < n && ta < t1; i++) {
        if (t[i] <= ta) continue;
        double tb = t[i] < t1 ? t[i] : t1;
        double xb = t[i] < t1 ? x[i] : mt_signal_at(t, x, n, t1);
        sum += square ? 0.5 * (xa * xa + xb * xb) * (tb - ta) : 0.5 * (xa + xb) * (tb - ta);
        ta = tb;
        xa = xb;
    }
    return sum;
}

double mt_signal_mean(const double *t, const double *x, int n, double t0, double t1)
{
    double len, s = integral(t, x, n, t0, t1, 0, &len);
    return len > 0 ? s / len : NAN;
}

double mt_signal_rms(const double *t, const double *x, int n, double t0, double t1)
{
    double len, s = integral(t, x, n, t0, t1, 1, &len);
    return len > 0 ? sqrt(s / len) : NAN;
}

double mt_signal_settling(const double *t, const double *x, int n, double t0, double t1, double tol)
{
    if (n < 2) return NAN;
    if (t0 < t[0]) t0 = t[0];
    if (t1 > t[n - 1]) t1 = t[n - 1];
    if (!(t1 > t0)) return NAN;
    double xf = mt_signal_at(t, x, n, t1), ts = t0;
    double ta = t0, da = fabs(mt_signal_at(t, x, n, t0) - xf);
    for (int i = 0; i < n && ta < t1; i++) { /* segments [ta, tb] of the piecewise linear signal in the window */
        if (t[i] <= ta) continue;
        double tb = t[i] < t1 ? t[i] : t1, db = fabs((t[i] < t1 ? x[i] : mt_signal_at(t, x, n, t1)) - xf);
        if (db > tol) ts = tb;
        else if (da > tol) ts = ta + (tb - ta) * (da - tol) / (da - db); /* it enters the band inside the segment */
        ta = tb;
        da = db;
    }
    return ts - t0;
}

void mt_psd_free(MtPsd *p)
{
    if (!p) return;
    free(p->psd);
    p->psd = NULL;
    p->n = 0;
}

/* The samples in [t0, t1], evenly spaced: copied when they are (steps equal
 * to 1e-9 relative), else interpolated linearly at their mean step. */
static double *even_samples(const double *t, const double *x, int n, double t0, double t1, int *m, double *dt)
{
    int a = 0, b = n - 1;
    while (a < n && t[a] < t0) a++;
    while (b >= 0 && t[b] > t1) b--;
    *m = b - a + 1;
    if (*m < 4) return NULL;
    *dt = (t[b] - t[a]) / (*m - 1);
    double *y = malloc(sizeof(double) * (size_t)*m);
    if (!y) return NULL;
    int even = 1;
    for (int i = a; i < b && even; i++) even = fabs(t[i + 1] - t[i] - *dt) <= 1e-9 * *dt;
    for (int i = 0; i < *m; i++) y[i] = even ? x[a + i] : mt_signal_at(t, x, n, t[a] + *dt * i);
    return y;
}

/* FFTW's planner is not thread-safe (executing a plan is): plans are made and
 * destroyed under this lock, so cases may compute their spectra on threads. */
static pthread_mutex_t planner_lock = PTHREAD_MUTEX_INITIALIZER;

/* A real-to-complex transform of len samples: fill in, fftw_execute(plan), read out. */
typedef struct {
    double *in;
    fftw_complex *out;
    fftw_plan plan;
} Fft;

static void fft_free(Fft *f)
{
    if (f->plan) {
        pthread_mutex_lock(&planner_lock);
        fftw_destroy_plan(f->plan);
        pthread_mutex_unlock(&planner_lock);
    }
    fftw_free(f->in);
    fftw_free(f->out);
}

/* The transform of len samples and the spectrum's len / 2 + 1 zeros in psd->psd; out of memory
 * (nothing held, psd cleared) otherwise. */
static MtStatus fft_new(Fft *f, int len, MtPsd *psd, MtError *err)
{
    int nf = len / 2 + 1;
    f->in = fftw_malloc(sizeof(double) * (size_t)len);
    f->out = fftw_malloc(sizeof(fftw_complex) * (size_t)nf);
    f->plan = NULL;
    psd->psd = calloc((size_t)nf, sizeof(double));
    if (f->in && f->out && psd->psd) {
        pthread_mutex_lock(&planner_lock);
        f->plan = fftw_plan_dft_r2c_1d(len, f->in, f->out, FFTW_ESTIMATE);
        pthread_mutex_unlock(&planner_lock);
    }
    if (f->plan) return MT_OK;
    fft_free(f);
    mt_psd_free(psd);
    return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
}

/* Averages the windowed periodograms of y (m samples) into out. */
static MtStatus welch(const double *y, int m, double dt, int len, double overlap, MtWindowKind wk, MtPsd *out,
                      MtError *err)
{
    int hop = (int)floor(len * (1 - overlap));
    if (hop < 1) hop = 1;
    int nf = len / 2 + 1;
    double *w = malloc(sizeof(double) * (size_t)len);
    Fft f;
    MtStatus rc = w ? fft_new(&f, len, out, err) : mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
    if (rc != MT_OK) {
        free(w);
        return rc;
    }
    double *seg = f.in;
    fftw_complex *X = f.out;
    double sw = 0;
    for (int j = 0; j < len; j++) {
        w[j] = wk == MT_WINDOW_RECT ? 1 : 0.5 - 0.5 * cos(2 * M_PI * j / len); /* periodic Hann */
        sw += w[j] * w[j];
    }
    double fs = 1 / dt;
    out->n = nf;
    out->df = fs / len;
    out->segments = 0;
    for (int s0 = 0; s0 + len <= m; s0 += hop) {
        double mean = 0;
        for (int j = 0; j < len; j++) mean += y[s0 + j];
        mean /= len;
        for (int j = 0; j < len; j++) seg[j] = (y[s0 + j] - mean) * w[j];
        fftw_execute(f.plan);
        for (int k = 0; k < nf; k++) {
            double c = (k == 0 || (len % 2 == 0 && k == len / 2)) ? 1 : 2;
            out->psd[k] += c * (X[k][0] * X[k][0] + X[k][1] * X[k][1]) / (fs * sw);
        }
        out->segments++;
    }
    for (int k = 0; k < nf; k++) out->psd[k] /= out->segments;
    fft_free(&f);
    free(w);
    return MT_OK;
}

/* The window's samples for a spectrum, resampled evenly into *y
 * (even_samples); refused when one is not finite or there are too few. */
static MtStatus spectrum_samples(const double *t, const double *x, int n, double t0, double t1, const char *what, double **y,
                                 int *m, double *dt, MtError *err)
{
    for (int i = 0; i < n; i++)
        if (t[i] >= t0 && t[i] <= t1 && !isfinite(x[i]))
            return mt_error_set(err, MT_ERR_SOLVE, what, MT_("%s: not a finite number at t = %g s; no spectrum"), what, t[i]);
    if (!(*y = even_samples(t, x, n, t0, t1, m, dt)))
        return mt_error_set(err, *m < 4 ? MT_ERR_ARG : MT_ERR_NOMEM, what,
                            MT_("%s: fewer than 4 samples in the time window; no spectrum"), what);
    return MT_OK;
}

MtStatus mt_signal_psd(const double *t, const double *x, int n, double t0, double t1, const MtWelchSpec *spec,
                       const char *what, MtPsd *out, MtError *err)
{
    memset(out, 0, sizeof *out);
    MtWelchSpec sp = spec ? *spec : (MtWelchSpec){MT_WINDOW_HANN, 0, 0.5};
    if (!(sp.overlap >= 0 && sp.overlap < 1))
        return mt_error_set(err, MT_ERR_ARG, what, MT_("%s: the overlap of Welch's segments must be in [0, 1)"), what);
    int m;
    double dt, *y;
    MtStatus rs = spectrum_samples(t, x, n, t0, t1, what, &y, &m, &dt, err);
    if (rs) return rs;
    int len = sp.segment;
    if (len <= 0) { /* 8 segments: K = (m - len) / hop + 1 with hop = len (1 - overlap) */
        len = (int)floor(m / (1 + 7 * (1 - sp.overlap)));
        if (len < 16) len = m < 16 ? m : 16;
    }
    if (len > m) len = m;
    MtStatus rc = welch(y, m, dt, len, sp.overlap, sp.window, out, err);
    free(y);
    return rc;
}

MtStatus mt_signal_amplitude(const double *t, const double *x, int n, double t0, double t1, const char *what, MtPsd *out,
                             MtError *err)
{
    memset(out, 0, sizeof *out);
    int m;
    double dt, *y;
    MtStatus rs = spectrum_samples(t, x, n, t0, t1, what, &y, &m, &dt, err);
    if (rs) return rs;
    int nf = m / 2 + 1;
    Fft f;
    MtStatus rc = fft_new(&f, m, out, err);
    if (rc != MT_OK) {
        free(y);
        return rc;
    }
    double *seg = f.in, mean = 0, sw = 0;
    fftw_complex *X = f.out;
    for (int j = 0; j < m; j++) mean += y[j] / m;
    for (int j = 0; j < m; j++) {
        double w = 0.5 - 0.5 * cos(2 * M_PI * j / m); /* periodic Hann */
        seg[j] = (y[j] - mean) * w;
        sw += w;
    }
    fftw_execute(f.plan);
    for (int k = 0; k < nf; k++) /* one-sided, divided by the window's coherent gain */
        out->psd[k] = (k == 0 || (m % 2 == 0 && k == m / 2) ? 1 : 2) * hypot(X[k][0], X[k][1]) / sw;
    out->n = nf;
    out->df = 1 / (dt * m);
    out->segments = 1;
    fft_free(&f);
    free(y);
    return MT_OK;
}

int mt_psd_peak(const MtPsd *p, double f0, double f1, int refine, double *value, double *freq)
{
    int best = -1;
    for (int k = 0; k < p->n; k++) {
        double f = k * p->df;
        if (f < f0 || f > f1) continue;
        if (best < 0 || p->psd[k] > p->psd[best]) best = k;
    }
    if (best < 0) return -1;
    *value = p->psd[best];
    *freq = best * p->df;
    if (refine && best > 0 && best + 1 < p->n) { /* vertex of the parabola through the three bins */
        double a = p->psd[best - 1], b = p->psd[best], c = p->psd[best + 1], d = a - 2 * b + c;
        if (d < 0) *freq += 0.5 * (a - c) / d * p->df;
    }
    return 0;
}
