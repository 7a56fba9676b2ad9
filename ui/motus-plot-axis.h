/* motus-plot-axis.h — axis ticks of the plot: "nice" steps (1, 2 or 5 times a
 * power of ten) and tick labels. Pure functions, tested in tests/ui. */
#ifndef MOTUS_PLOT_AXIS_H
#define MOTUS_PLOT_AXIS_H

#include <stddef.h>

typedef struct {
    double lo, hi; /* axis range (expanded to whole steps when asked) */
    double first;  /* first tick, >= lo */
    double step;   /* > 0 */
    int n;         /* ticks first, first + step, … within [lo, hi] */
} MotusTicks;

/* 1, 2, 5 or 10 times a power of ten near x > 0 (the nearest one). */
double motus_nice_step(double x);
/* Ticks for the data range [lo, hi] with about `target` intervals. expand:
 * widen the range to whole steps (autoscaled axes); otherwise the range is
 * kept and the ticks are the multiples of the step inside it. An empty or
 * degenerate range is widened around its value; non-finite input gives [0, 1]. */
void motus_ticks_compute(double lo, double hi, int target, int expand, MotusTicks *t);
/* Value of tick i (multiples of the step, with rounding noise removed). */
double motus_ticks_value(const MotusTicks *t, int i);
/* The top tick of an axis expanded to nice steps over [0, maxabs] (about
 * four intervals): 0.99 → 1, 0.7 → 0.8, 400 → 400; 0 and non-finite stay. */
double motus_ticks_top(double maxabs);
/* Label of a tick value with as many decimals as the step needs ("0.25",
 * "-15", "1e+06"); never "-0". */
void motus_ticks_format(double v, double step, char *buf, size_t len);

#endif
