/* motus-label-place.c — greedy placement of the 3D view's labels around their
 * anchors (motus-label-place.h): labels of arrows that share a tip (velocity
 * and acceleration of one point, two reactions at one joint) no longer print
 * over each other. */
#include "motus-label-place.h"

#include <math.h>

static double overlap(double x0, double y0, double w0, double h0, double x1, double y1, double w1, double h1)
{
    double ox = fmin(x0 + w0, x1 + w1) - fmax(x0, x1), oy = fmin(y0 + h0, y1 + h1) - fmax(y0, y1);
    return ox > 0 && oy > 0 ? ox * oy : 0;
}

int motus_label_place(int n, const double *ax, const double *ay, const double *w, const double *h, double width,
                      double height, double *x, double *y)
{
    /* right-up first (where labels always went), then around the anchor, then further out */
    static const double dir[8][2] = {{1, -1}, {1, 1}, {-1, -1}, {-1, 1}, {1, 0}, {-1, 0}, {0, -1}, {0, 1}};
    const double gap = 9;
    int crowded = 0;
    for (int i = 0; i < n; i++) {
        double best = INFINITY, bx = ax[i] + gap, by = ay[i] - gap - h[i];
        for (int ring = 1; ring <= 3 && best > 0; ring++)
            for (int k = 0; k < 8 && best > 0; k++) {
                double r = gap * ring, dx = dir[k][0], dy = dir[k][1];
                double cx = dx > 0 ? ax[i] + r : dx < 0 ? ax[i] - r - w[i] : ax[i] - w[i] / 2;
                double cy = dy < 0 ? ay[i] - r - h[i] : dy > 0 ? ay[i] + r : ay[i] - h[i] / 2;
                double cost = 0;
                for (int j = 0; j < i; j++) cost += overlap(cx, cy, w[i], h[i], x[j], y[j], w[j], h[j]);
                /* outside the view counts as much as an overlap of the part outside */
                cost += w[i] * h[i] - overlap(cx, cy, w[i], h[i], 0, 0, width, height);
                if (cost < best) best = cost, bx = cx, by = cy;
            }
        x[i] = bx, y[i] = by;
        if (best > 0) crowded++;
    }
    return crowded;
}
