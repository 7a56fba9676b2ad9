/* Axis ticks of the plot (ui/motus-plot-axis.c): nice steps, ranges widened
 * to whole steps, ticks inside fixed ranges, labels without "-0". */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "motus-plot-axis.h"

static void test_nice_step(void)
{
    const double in[] = {0.04, 0.4, 1, 1.4, 1.6, 2.9, 3.58, 7, 0.00123, 12000};
    const double out[] = {0.05, 0.5, 1, 1, 2, 2, 5, 10, 0.001, 10000};
    for (guint i = 0; i < G_N_ELEMENTS(in); i++)
        g_assert_cmpfloat_with_epsilon(motus_nice_step(in[i]), out[i], 1e-12 * out[i]);
    g_assert_cmpfloat(motus_nice_step(0), ==, 1);
    g_assert_cmpfloat(motus_nice_step(-3), ==, 1);
    g_assert_cmpfloat(motus_nice_step(NAN), ==, 1);
}

static void test_expand(void)
{
    MotusTicks t;
    motus_ticks_compute(0, 1, 5, 1, &t);
    g_assert_cmpfloat_with_epsilon(t.step, 0.2, 1e-15);
    g_assert_cmpfloat(t.lo, ==, 0);
    g_assert_cmpfloat_with_epsilon(t.hi, 1, 1e-12);
    g_assert_cmpint(t.n, ==, 6);
    /* the slider of the slider-crank: 0.2 … 0.4 m */
    motus_ticks_compute(0.2000001, 0.3999999, 5, 1, &t);
    g_assert_cmpfloat_with_epsilon(t.step, 0.05, 1e-15);
    g_assert_cmpfloat_with_epsilon(t.lo, 0.2, 1e-12);
    g_assert_cmpfloat_with_epsilon(t.hi, 0.4, 1e-12);
    g_assert_cmpint(t.n, ==, 5);
    /* a reaction force swinging through zero */
    motus_ticks_compute(-14.7, 3.2, 5, 1, &t);
    g_assert_cmpfloat(t.step, ==, 5);
    g_assert_cmpfloat(t.lo, ==, -15);
    g_assert_cmpfloat(t.hi, ==, 5);
    g_assert_cmpint(t.n, ==, 5);
    g_assert_cmpfloat(motus_ticks_value(&t, 3), ==, 0);
    /* swapped bounds */
    motus_ticks_compute(5, -5, 10, 1, &t);
    g_assert_cmpfloat(t.lo, ==, -5);
    g_assert_cmpfloat(t.hi, ==, 5);
}

static void test_fixed(void)
{
    MotusTicks t;
    motus_ticks_compute(0, 2, 4, 0, &t);
    g_assert_cmpfloat(t.step, ==, 0.5);
    g_assert_cmpfloat(t.lo, ==, 0);
    g_assert_cmpfloat(t.hi, ==, 2);
    g_assert_cmpfloat(t.first, ==, 0);
    g_assert_cmpint(t.n, ==, 5);
    /* the range is kept; only the multiples of the step inside it are ticks */
    motus_ticks_compute(0.03, 1.97, 4, 0, &t);
    g_assert_cmpfloat(t.lo, ==, 0.03);
    g_assert_cmpfloat(t.hi, ==, 1.97);
    g_assert_cmpfloat(t.first, ==, 0.5);
    g_assert_cmpint(t.n, ==, 3);
}

static void test_degenerate(void)
{
    MotusTicks t;
    motus_ticks_compute(1, 1, 5, 1, &t);
    g_assert_cmpfloat(t.lo, <, 1);
    g_assert_cmpfloat(t.hi, >, 1);
    g_assert_cmpint(t.n, >=, 2);
    motus_ticks_compute(0, 0, 5, 1, &t);
    g_assert_cmpfloat(t.lo, <=, -1);
    g_assert_cmpfloat(t.hi, >=, 1);
    motus_ticks_compute(NAN, 3, 5, 1, &t);
    g_assert_cmpfloat(t.lo, ==, 0);
    g_assert_cmpfloat(t.hi, ==, 1);
    motus_ticks_compute(-INFINITY, INFINITY, 5, 0, &t);
    g_assert_true(isfinite(t.lo) && isfinite(t.hi) && t.n >= 2);
    /* a constant far from zero: widened by a tenth of its size */
    motus_ticks_compute(1e6, 1e6, 5, 1, &t);
    g_assert_cmpfloat(t.lo, <, 1e6);
    g_assert_cmpfloat(t.hi, >, 1e6);
    g_assert_cmpint(t.n, <=, 12);
}

/* Any range: steps are 1, 2 or 5 times a power of ten, ticks lie inside the
 * range and their number stays near the target. */
static void test_random_ranges(void)
{
    GRand *r = g_rand_new_with_seed(42);
    for (int k = 0; k < 2000; k++) {
        double e = g_rand_double_range(r, -8, 8);
        double lo = g_rand_double_range(r, -1, 1) * pow(10, e);
        double hi = lo + g_rand_double_range(r, 1e-3, 10) * pow(10, e + g_rand_double_range(r, -2, 1));
        int target = g_rand_int_range(r, 2, 12);
        for (int expand = 0; expand <= 1; expand++) {
            MotusTicks t;
            motus_ticks_compute(lo, hi, target, expand, &t);
            double m = t.step / pow(10, floor(log10(t.step) + 1e-12));
            g_assert_true(fabs(m - 1) < 1e-9 || fabs(m - 2) < 1e-9 || fabs(m - 5) < 1e-9 || fabs(m - 10) < 1e-9);
            g_assert_cmpint(t.n, >=, 1);
            g_assert_cmpint(t.n, <=, 2 * target + 3);
            g_assert_cmpfloat(t.lo, <=, lo);
            g_assert_cmpfloat(t.hi, >=, hi);
            for (int i = 0; i < t.n; i++) {
                double v = motus_ticks_value(&t, i);
                g_assert_cmpfloat(v, >=, t.lo - 1e-9 * t.step);
                g_assert_cmpfloat(v, <=, t.hi + 1e-9 * t.step);
            }
        }
    }
    g_rand_free(r);
}

static void test_format(void)
{
    char b[64];
    motus_ticks_format(3 * 0.2, 0.2, b, sizeof b);
    g_assert_cmpstr(b, ==, "0.6");
    motus_ticks_format(-1e-17, 0.1, b, sizeof b);
    g_assert_cmpstr(b, ==, "0.0");
    motus_ticks_format(-0.0, 1, b, sizeof b);
    g_assert_cmpstr(b, ==, "0");
    motus_ticks_format(-15, 5, b, sizeof b);
    g_assert_cmpstr(b, ==, "-15");
    motus_ticks_format(0.35, 0.05, b, sizeof b);
    g_assert_cmpstr(b, ==, "0.35");
    motus_ticks_format(2.5, 0.5, b, sizeof b);
    g_assert_cmpstr(b, ==, "2.5");
    motus_ticks_format(1500000, 500000, b, sizeof b);
    g_assert_cmpstr(b, ==, "1.5e+06");
    motus_ticks_format(0.00012, 0.00002, b, sizeof b);
    g_assert_cmpstr(b, ==, "0.00012");
    motus_ticks_format(200, 100, b, sizeof b);
    g_assert_cmpstr(b, ==, "200");
    motus_ticks_format(0, 1e-5, b, sizeof b); /* a spectrum's axis in m²/Hz: zero is "0" beside 1e-05, 2e-05 */
    g_assert_cmpstr(b, ==, "0");
    motus_ticks_format(2e-5, 1e-5, b, sizeof b);
    g_assert_cmpstr(b, ==, "2e-05");
    /* a range tiny beside its values (an energy kept to 1e-10): every label its own, each read back within
     * half a step of its tick */
    MotusTicks t;
    motus_ticks_compute(35.835 - 1.6e-9, 35.835 + 1.7e-9, 4, TRUE, &t);
    g_assert_cmpint(t.n, >=, 3);
    char prev[64] = "";
    for (int i = 0; i < t.n; i++) {
        double v = motus_ticks_value(&t, i);
        motus_ticks_format(v, t.step, b, sizeof b);
        g_test_message("tick %d: %.17g as '%s' (step %g)", i, v, b, t.step);
        g_assert_cmpstr(b, !=, prev);
        g_assert_cmpfloat(fabs(g_ascii_strtod(b, NULL) - v), <=, 0.5 * t.step);
        g_strlcpy(prev, b, sizeof prev);
    }
    motus_ticks_format(35.8350000005, 5e-10, b, sizeof b);
    g_assert_cmpstr(b, ==, "35.8350000005");
    /* the top tick a readable unit is chosen for: a curve to 0.99 m is drawn to 1 m, not to 1000 mm */
    g_assert_cmpfloat(fabs(motus_ticks_top(0.99) - 1), <, 1e-15);
    g_assert_cmpfloat(fabs(motus_ticks_top(0.7) - 0.8), <, 1e-15);
    g_assert_cmpfloat(fabs(motus_ticks_top(400) - 400), <, 1e-12);
    g_assert_cmpfloat(motus_ticks_top(0), ==, 0);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/plot-axis/nice-step", test_nice_step);
    g_test_add_func("/plot-axis/expand", test_expand);
    g_test_add_func("/plot-axis/fixed", test_fixed);
    g_test_add_func("/plot-axis/degenerate", test_degenerate);
    g_test_add_func("/plot-axis/random-ranges", test_random_ranges);
    g_test_add_func("/plot-axis/format", test_format);
    return g_test_run();
}
