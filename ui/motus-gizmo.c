/* motus-gizmo.c — geometry of the move/rotate gizmo (see motus-gizmo.h). */
#include "motus-gizmo.h"

#include <math.h>

static int project(const MotusCamera *c, const double p[3], int width, int height, double *x, double *y)
{
    float w[3] = {(float)p[0], (float)p[1], (float)p[2]}, out[2];
    if (!motus_camera_project(c, w, (float)width, (float)height, out)) return 0;
    *x = out[0], *y = out[1];
    return 1;
}

static void axis_of(const MotusGizmo *g, int k, double a[3])
{
    for (int i = 0; i < 3; i++) a[i] = g->axes[3 * i + k];
}

double motus_gizmo_size(const MotusGizmo *g, const MotusCamera *c, int height)
{
    double px = motus_camera_pixel_size(c, (float)height); /* at the target's depth */
    if (!c->ortho) {
        float eye[3], r[3], u[3], f[3];
        motus_camera_eye(c, eye);
        motus_camera_basis(c, r, u, f);
        double depth = 0;
        for (int i = 0; i < 3; i++) depth += (g->origin[i] - eye[i]) * f[i];
        px *= fmax(depth, 1e-6 * c->distance) / c->distance; /* perspective: size grows with depth */
    }
    return MOTUS_GIZMO_PX * px;
}

/* A point of handle k's path: arrow (t = 0 base … 1 tip), ring (t = angle). */
static void handle_point(const MotusGizmo *g, double size, int k, double t, double p[3])
{
    double a[3], b[3], c[3];
    if (g->mode == MOTUS_GIZMO_MOVE) {
        axis_of(g, k, a);
        for (int i = 0; i < 3; i++) p[i] = g->origin[i] + (0.15 + 0.85 * t) * size * a[i];
        return;
    }
    axis_of(g, (k + 1) % 3, b); /* the ring lies in the plane of the other two axes */
    axis_of(g, (k + 2) % 3, c);
    for (int i = 0; i < 3; i++) p[i] = g->origin[i] + size * (cos(t) * b[i] + sin(t) * c[i]);
}

int motus_gizmo_path(const MotusGizmo *g, const MotusCamera *c, int width, int height, int k, float *xy)
{
    if (g->mode == MOTUS_GIZMO_OFF || k < 0 || k > 2) return 0;
    double size = motus_gizmo_size(g, c, height), p[3], x, y;
    int n = g->mode == MOTUS_GIZMO_MOVE ? 2 : MOTUS_GIZMO_RING + 1;
    for (int j = 0; j < n; j++) {
        double t = g->mode == MOTUS_GIZMO_MOVE ? j : 2 * M_PI * j / MOTUS_GIZMO_RING;
        handle_point(g, size, k, t, p);
        int ok = project(c, p, width, height, &x, &y);
        xy[2 * j] = ok ? (float)x : NAN;
        xy[2 * j + 1] = ok ? (float)y : NAN;
    }
    return n;
}

/* Distance from (x, y) to the segment a–b, pixels. */
static double seg_dist(double x, double y, const float *a, const float *b)
{
    double dx = b[0] - a[0], dy = b[1] - a[1], l2 = dx * dx + dy * dy;
    double t = l2 > 0 ? ((x - a[0]) * dx + (y - a[1]) * dy) / l2 : 0;
    t = fmin(1, fmax(0, t));
    return hypot(x - a[0] - t * dx, y - a[1] - t * dy);
}

int motus_gizmo_hit(const MotusGizmo *g, const MotusCamera *c, int width, int height, double x, double y, double tol)
{
    float xy[2 * (MOTUS_GIZMO_RING + 1)];
    int best = -1;
    double bd = tol;
    for (int k = 0; k < 3; k++) {
        int n = motus_gizmo_path(g, c, width, height, k, xy);
        for (int j = 0; j + 1 < n; j++) {
            if (isnan(xy[2 * j]) || isnan(xy[2 * j + 2])) continue;
            double d = seg_dist(x, y, xy + 2 * j, xy + 2 * j + 2);
            if (d <= bd) bd = d, best = k;
        }
    }
    return best;
}

double motus_gizmo_drag(const MotusGizmo *g, const MotusCamera *c, int width, int height, int k, double x0, double y0,
                        double x1, double y1, int snap)
{
    if (g->mode == MOTUS_GIZMO_OFF || k < 0 || k > 2) return 0;
    double size = motus_gizmo_size(g, c, height), a[3], tip[3], ox, oy, tx, ty, amount = 0;
    axis_of(g, k, a);
    if (!project(c, g->origin, width, height, &ox, &oy)) return 0;
    if (g->mode == MOTUS_GIZMO_MOVE) {
        for (int i = 0; i < 3; i++) tip[i] = g->origin[i] + size * a[i];
        if (!project(c, tip, width, height, &tx, &ty)) return 0;
        double sx = tx - ox, sy = ty - oy, len = hypot(sx, sy);
        /* an arrow pointing (nearly) at the viewer has no useful direction on screen,
         * and a short one would turn a few pixels into a long way */
        if (len < 0.2 * MOTUS_GIZMO_PX) return 0;
        amount = ((x1 - x0) * sx + (y1 - y0) * sy) / len / (len / size);
        if (snap) amount = round(amount / MOTUS_GIZMO_SNAP_MOVE) * MOTUS_GIZMO_SNAP_MOVE;
        return amount;
    }
    float r[3], u[3], f[3];
    motus_camera_basis(c, r, u, f);
    double facing = -(a[0] * f[0] + a[1] * f[1] + a[2] * f[2]); /* > 0: the axis points at the viewer */
    if (fabs(facing) > 0.3) {
        /* screen angles with y up, so that counter-clockwise is positive */
        double p0 = atan2(-(y0 - oy), x0 - ox), p1 = atan2(-(y1 - oy), x1 - ox), d = p1 - p0;
        d = remainder(d, 2 * M_PI);
        amount = facing > 0 ? d : -d;
    } else {
        /* edge-on: along the ring's tangent at the grabbed point, which turns forward */
        double best = INFINITY, t0 = 0, p[3], x, y;
        for (int j = 0; j < MOTUS_GIZMO_RING; j++) {
            double t = 2 * M_PI * j / MOTUS_GIZMO_RING;
            handle_point(g, size, k, t, p);
            if (project(c, p, width, height, &x, &y) && hypot(x - x0, y - y0) < best) best = hypot(x - x0, y - y0), t0 = t;
        }
        double pa[3], pb[3], xa, ya, xb, yb, h = 1e-3;
        handle_point(g, size, k, t0 - h, pa);
        handle_point(g, size, k, t0 + h, pb);
        if (!project(c, pa, width, height, &xa, &ya) || !project(c, pb, width, height, &xb, &yb)) return 0;
        double vx = (xb - xa) / (2 * h), vy = (yb - ya) / (2 * h), v2 = vx * vx + vy * vy; /* pixels per rad */
        if (v2 < 1e-9) return 0;
        amount = ((x1 - x0) * vx + (y1 - y0) * vy) / v2;
    }
    if (snap) amount = round(amount / MOTUS_GIZMO_SNAP_TURN) * MOTUS_GIZMO_SNAP_TURN;
    return amount;
}
