/* motus-plot-axis.c — nice ticks and labels (see motus-plot-axis.h). */
#include "motus-plot-axis.h"

#include <math.h>
#include <stdio.h>

double motus_nice_step(double x)
{
    if (!(x > 0) || !isfinite(x)) return 1.0;
    double e = floor(log10(x)), p = pow(10.0, e), f = x / p;
    double n = f < 1.5 ? 1.0 : f < 3.0 ? 2.0 : f < 7.0 ? 5.0 : 10.0;
    return n * p;
}

void motus_ticks_compute(double lo, double hi, int target, int expand, MotusTicks *t)
{
    if (!isfinite(lo) || !isfinite(hi)) lo = 0.0, hi = 1.0;
    if (hi < lo) {
        double s = lo;
        lo = hi;
        hi = s;
    }
    double mag = fmax(fabs(lo), fabs(hi));
    if (hi - lo <= 1e-12 * mag || hi == lo) {
        double pad = mag > 0 ? 0.1 * mag : 1.0;
        lo -= pad;
        hi += pad;
    }
    if (target < 1) target = 1;
    double step = motus_nice_step((hi - lo) / target);
    if (expand) {
        lo = floor(lo / step + 1e-9) * step;
        hi = ceil(hi / step - 1e-9) * step;
    }
    t->lo = lo;
    t->hi = hi;
    t->step = step;
    t->first = ceil(lo / step - 1e-9) * step;
    t->n = (int)floor((hi - t->first) / step + 1e-9) + 1;
    if (t->n < 0) t->n = 0;
}

double motus_ticks_top(double maxabs)
{
    if (!(maxabs > 0) || !isfinite(maxabs)) return maxabs;
    double step = motus_nice_step(maxabs / 4);
    return ceil(maxabs / step - 1e-9) * step;
}

double motus_ticks_value(const MotusTicks *t, int i)
{
    double k = round(t->first / t->step) + i;
    double v = k * t->step;
    return fabs(v) < 1e-9 * t->step ? 0.0 : v;
}

void motus_ticks_format(double v, double step, char *buf, size_t len)
{
    if (fabs(v) < 1e-9 * step) v = 0.0;
    double mag = fabs(v);
    if (mag >= 1e6 || step < 1e-4 || step >= 1e6) { /* (0 on such an axis is "0", not "0.00000") */
        /* as many significant digits as tell neighbouring ticks apart: an
         * energy kept to 1e-10 of 35.835 J is 35.8350000005, not 35.84 each */
        int sig = mag > 0 ? (int)floor(log10(mag)) - (int)floor(log10(step) + 1e-9) + 1 : 1;
        snprintf(buf, len, "%.*g", sig < 4 ? 4 : sig > 17 ? 17 : sig, v);
        return;
    }
    int dec = (int)ceil(-log10(step) - 1e-9);
    if (dec < 0) dec = 0;
    /* a step of 2·10^k or 5·10^k needs no more decimals than 10^k */
    snprintf(buf, len, "%.*f", dec, v);
    if (buf[0] == '-') {
        int zero = 1;
        for (const char *p = buf + 1; *p; p++)
            if (*p >= '1' && *p <= '9') zero = 0;
        if (zero) snprintf(buf, len, "%.*f", dec, 0.0);
    }
}
