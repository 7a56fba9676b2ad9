/* Label placement of the 3D view (ui/motus-label-place.c): labels sharing an
 * anchor do not overlap, stay in the view near a corner, and a lone label
 * keeps its usual place right of and above its anchor. */
#include <glib.h>
#include <math.h>

#include "motus-label-place.h"

static gboolean apart(double x0, double y0, double w0, double h0, double x1, double y1, double w1, double h1)
{
    return x0 + w0 <= x1 || x1 + w1 <= x0 || y0 + h0 <= y1 || y1 + h1 <= y0;
}

int main(void)
{
    /* one label: right of and above the anchor, as before */
    double ax[4] = {200, 200, 200, 200}, ay[4] = {150, 150, 150, 150}, w[4] = {90, 110, 70, 120}, h[4] = {16, 16, 16, 16};
    double x[4], y[4];
    g_assert_cmpint(motus_label_place(1, ax, ay, w, h, 640, 480, x, y), ==, 0);
    g_assert_cmpfloat(x[0], ==, 209);
    g_assert_cmpfloat(y[0], ==, 150 - 9 - 16);
    /* four labels at one anchor (v, a and two reactions at one point): all apart, all in the view */
    g_assert_cmpint(motus_label_place(4, ax, ay, w, h, 640, 480, x, y), ==, 0);
    for (int i = 0; i < 4; i++) {
        g_assert_true(x[i] >= 0 && y[i] >= 0 && x[i] + w[i] <= 640 && y[i] + h[i] <= 480);
        g_assert_cmpfloat(hypot(x[i] + w[i] / 2 - ax[i], y[i] + h[i] / 2 - ay[i]), <, 120); /* near its anchor */
        for (int j = 0; j < i; j++) g_assert_true(apart(x[i], y[i], w[i], h[i], x[j], y[j], w[j], h[j]));
    }
    /* an anchor in the top right corner: the label turns inwards */
    double cx = 630, cy = 5, cw = 100, ch = 16, lx, ly;
    g_assert_cmpint(motus_label_place(1, &cx, &cy, &cw, &ch, 640, 480, &lx, &ly), ==, 0);
    g_assert_true(lx >= 0 && lx + cw <= 640 && ly >= 0 && ly + ch <= 480);
    return 0;
}
