/* mt_flexview.c — displacement and stress fields of a flexible body's
 * surface for the view (see mt_flexview.h). Plain loops over vertices and
 * modes: N·nsv multiply-adds per field, nothing allocated. */
#include "mt_flexview.h"

#include <math.h>
#include <stddef.h>

int mt_flexview_has_field(const MtFlexBody *fb, MtFlexField f)
{
    if (!fb || fb->nsv <= 0 || !fb->sv_x) return 0;
    if (f == MT_FLEXFIELD_DISPLACEMENT) return 1;
    if (f != MT_FLEXFIELD_VONMISES || !fb->sv_sig || !fb->sv_vm) return 0;
    /* beams get zero arrays: only solids and shells carry stresses */
    size_t n = (size_t)fb->nsv * (size_t)fb->nmode;
    for (size_t i = 0; i < n; i++)
        if (fb->sv_vm[i] != 0) return 1;
    return 0;
}

void mt_flexview_disp(const MtFlexBody *fb, const double *w, int v, double u[3])
{
    u[0] = u[1] = u[2] = 0;
    if (!fb->sv_H) return;
    size_t nsv = (size_t)fb->nsv;
    for (int k = 0; k < fb->nmode; k++) {
        const float *h = fb->sv_H + 3 * ((size_t)k * nsv + (size_t)v);
        u[0] += w[k] * h[0], u[1] += w[k] * h[1], u[2] += w[k] * h[2];
    }
}

void mt_flexview_deformed(const MtFlexBody *fb, const double *w, double scale, float *out)
{
    for (int v = 0; v < fb->nsv; v++) {
        double u[3];
        mt_flexview_disp(fb, w, v, u);
        for (int c = 0; c < 3; c++) out[3 * v + c] = (float)(fb->sv_x[3 * v + c] + scale * u[c]);
    }
}

double mt_flexview_von_mises(const double s[6])
{
    double a = s[0] - s[1], b = s[1] - s[2], c = s[2] - s[0];
    return sqrt(0.5 * (a * a + b * b + c * c) + 3 * (s[3] * s[3] + s[4] * s[4] + s[5] * s[5]));
}

double mt_flexview_field(const MtFlexBody *fb, const double *w, MtFlexField f, float *out)
{
    double mx = 0;
    int has = mt_flexview_has_field(fb, f);
    size_t nsv = has ? (size_t)fb->nsv : 0;
    for (size_t v = 0; v < nsv; v++) {
        double val;
        if (f == MT_FLEXFIELD_DISPLACEMENT) {
            double u[3];
            mt_flexview_disp(fb, w, (int)v, u);
            val = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        } else {
            double s[6] = {0, 0, 0, 0, 0, 0};
            for (int k = 0; k < fb->nmode; k++) {
                const float *sk = fb->sv_sig + 6 * ((size_t)k * nsv + v);
                for (int q = 0; q < 6; q++) s[q] += w[k] * sk[q];
            }
            val = mt_flexview_von_mises(s);
        }
        if (out) out[v] = (float)val;
        if (val > mx) mx = val;
    }
    if (out && !has && fb)
        for (int v = 0; v < fb->nsv; v++) out[v] = 0;
    return mx;
}

double mt_flexview_size(const MtFlexBody *fb)
{
    if (!fb || fb->nsv <= 0 || !fb->sv_x) return 0;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int v = 0; v < fb->nsv; v++)
        for (int c = 0; c < 3; c++) {
            lo[c] = fmin(lo[c], fb->sv_x[3 * v + c]);
            hi[c] = fmax(hi[c], fb->sv_x[3 * v + c]);
        }
    double d[3] = {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

double mt_flexview_mode_amplitude(const MtFlexBody *fb, int k, double size)
{
    if (!fb || k < 0 || k >= fb->nmode || !fb->sv_H) return 0;
    double mx = 0;
    size_t nsv = (size_t)fb->nsv;
    for (size_t v = 0; v < nsv; v++) {
        const float *h = fb->sv_H + 3 * ((size_t)k * nsv + v);
        mx = fmax(mx, sqrt((double)h[0] * h[0] + (double)h[1] * h[1] + (double)h[2] * h[2]));
    }
    return mx > 0 ? size / mx : 0;
}
