/* mt_flexview.c — displacement and stress fields of a flexible body's
 * surface for the view (see motus/flexview.h). Plain loops over vertices and
 * modes: N·nsv multiply-adds per field, nothing allocated. */
#include "motus/flexview.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mt_fe_reduce.h"
#include "mt_math.h"

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

void mt_flexview_support_motion(const MtFlexBody *fb, const double *w, double rig[6])
{
    for (int i = 0; i < 6; i++) rig[i] = 0;
    int nif = fb ? fb->nif : 0, N = fb ? fb->nmode : 0;
    if (nif <= 0 || !fb->if_H || !fb->if_x) return;
    /* rows about the interface's centre c: u_i ≈ t' − [x_i − c]× θ, L r_i ≈ L θ; normal equations A z = b */
    double c[3] = {0, 0, 0};
    for (int i = 0; i < nif; i++)
        for (int q = 0; q < 3; q++) c[q] += fb->if_x[3 * i + q] / nif;
    double L = 0.1 * mt_flexview_size(fb), A[36] = {0}, b[6] = {0};
    if (!(L > 0)) L = 1;
    for (int i = 0; i < nif; i++) {
        double d[6] = {0, 0, 0, 0, 0, 0}; /* displacement and rotation of node i */
        for (int r = 0; r < 6; r++)
            for (int k = 0; k < N; k++) d[r] += fb->if_H[(size_t)k * 6 * nif + 6 * (size_t)i + r] * w[k];
        double x[3] = {fb->if_x[3 * i] - c[0], fb->if_x[3 * i + 1] - c[1], fb->if_x[3 * i + 2] - c[2]};
        /* translation rows G = [1, −[x]×] (3×6) */
        double G[3][6] = {{1, 0, 0, 0, x[2], -x[1]}, {0, 1, 0, -x[2], 0, x[0]}, {0, 0, 1, x[1], -x[0], 0}};
        for (int p = 0; p < 6; p++) {
            for (int q = 0; q < 6; q++) A[6 * p + q] += G[0][p] * G[0][q] + G[1][p] * G[1][q] + G[2][p] * G[2][q];
            b[p] += G[0][p] * d[0] + G[1][p] * d[1] + G[2][p] * d[2];
        }
        for (int q = 0; q < 3; q++) A[6 * (3 + q) + 3 + q] += L * L, b[3 + q] += L * L * d[3 + q];
    }
    /* Gaussian elimination with partial pivoting (A is SPD: the rotation rows make it so) */
    for (int col = 0; col < 6; col++) {
        int piv = col;
        for (int r = col + 1; r < 6; r++)
            if (fabs(A[6 * r + col]) > fabs(A[6 * piv + col])) piv = r;
        if (!(fabs(A[6 * piv + col]) > 0)) return;
        for (int q = 0; q < 6; q++) {
            double t = A[6 * col + q];
            A[6 * col + q] = A[6 * piv + q], A[6 * piv + q] = t;
        }
        double t = b[col];
        b[col] = b[piv], b[piv] = t;
        for (int r = col + 1; r < 6; r++) {
            double f = A[6 * r + col] / A[6 * col + col];
            for (int q = col; q < 6; q++) A[6 * r + q] -= f * A[6 * col + q];
            b[r] -= f * b[col];
        }
    }
    double z[6];
    for (int r = 5; r >= 0; r--) {
        double sum = b[r];
        for (int q = r + 1; q < 6; q++) sum -= A[6 * r + q] * z[q];
        z[r] = sum / A[6 * r + r];
    }
    /* t = t' − θ × c, so that the motion at x is t + θ × x */
    const double *th = z + 3;
    rig[0] = z[0] - (th[1] * c[2] - th[2] * c[1]);
    rig[1] = z[1] - (th[2] * c[0] - th[0] * c[2]);
    rig[2] = z[2] - (th[0] * c[1] - th[1] * c[0]);
    rig[3] = th[0], rig[4] = th[1], rig[5] = th[2];
}

void mt_flexview_disp(const MtFlexBody *fb, const double *w, const double *rig, int v, double u[3])
{
    u[0] = u[1] = u[2] = 0;
    if (!fb->sv_H) return;
    size_t nsv = (size_t)fb->nsv;
    for (int k = 0; k < fb->nmode; k++) {
        const float *h = fb->sv_H + 3 * ((size_t)k * nsv + (size_t)v);
        u[0] += w[k] * h[0], u[1] += w[k] * h[1], u[2] += w[k] * h[2];
    }
    if (rig) {
        const float *x = fb->sv_x + 3 * v;
        u[0] -= rig[0] + rig[4] * x[2] - rig[5] * x[1];
        u[1] -= rig[1] + rig[5] * x[0] - rig[3] * x[2];
        u[2] -= rig[2] + rig[3] * x[1] - rig[4] * x[0];
    }
}

void mt_flexview_deformed(const MtFlexBody *fb, const double *w, const double *rig, double scale, float *out)
{
    for (int v = 0; v < fb->nsv; v++) {
        double u[3];
        mt_flexview_disp(fb, w, rig, v, u);
        for (int c = 0; c < 3; c++) out[3 * v + c] = (float)(fb->sv_x[3 * v + c] + scale * u[c]);
    }
}

double mt_flexview_von_mises(const double s[6])
{
    double a = s[0] - s[1], b = s[1] - s[2], c = s[2] - s[0];
    return sqrt(0.5 * (a * a + b * b + c * c) + 3 * (s[3] * s[3] + s[4] * s[4] + s[5] * s[5]));
}

double mt_flexview_field(const MtFlexBody *fb, const double *w, const double *rig, MtFlexField f, float *out)
{
    double mx = 0;
    int has = mt_flexview_has_field(fb, f);
    size_t nsv = has ? (size_t)fb->nsv : 0;
    for (size_t v = 0; v < nsv; v++) {
        double val;
        if (f == MT_FLEXFIELD_DISPLACEMENT) {
            double u[3];
            mt_flexview_disp(fb, w, rig, (int)v, u);
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

int mt_flexview_normal_modes(const MtFlexBody *fb, float *dn)
{
    size_t nsv = (size_t)fb->nsv, N = (size_t)fb->nmode;
    memset(dn, 0, sizeof(float) * 3 * nsv * N);
    if (!fb->sv_H || !fb->st || fb->nst <= 0) return 0;
    int *count = calloc(nsv + 1, sizeof(int));
    if (!count) return -1;
    for (int t = 0; t < fb->nst; t++)
        for (int c = 0; c < 3; c++) count[fb->st[3 * t + c]]++;
    for (int t = 0; t < fb->nst; t++) {
        const int *tri = fb->st + 3 * t;
        double a[3], e1[3], e2[3], n[3];
        for (int i = 0; i < 3; i++) {
            a[i] = fb->sv_x[3 * tri[0] + i];
            e1[i] = fb->sv_x[3 * tri[1] + i] - a[i];
            e2[i] = fb->sv_x[3 * tri[2] + i] - a[i];
        }
        mt_v3_cross(n, e1, e2);
        double len = sqrt(mt_v3_dot(n, n));
        if (!(len > 0)) continue;
        for (int i = 0; i < 3; i++) n[i] /= len;
        for (size_t k = 0; k < N; k++) {
            const float *H = fb->sv_H + 3 * k * nsv;
            double d1[3], d2[3], r1[3], r2[3], nd[3];
            for (int i = 0; i < 3; i++) {
                d1[i] = (double)H[3 * tri[1] + i] - H[3 * tri[0] + i];
                d2[i] = (double)H[3 * tri[2] + i] - H[3 * tri[0] + i];
            }
            /* d(e1 × e2) = d1 × e2 + e1 × d2; the unit normal's rate drops its part along n */
            mt_v3_cross(r1, d1, e2);
            mt_v3_cross(r2, e1, d2);
            for (int i = 0; i < 3; i++) nd[i] = (r1[i] + r2[i]) / len;
            double along = mt_v3_dot(n, nd);
            for (int c = 0; c < 3; c++) {
                float *out = dn + 3 * (k * nsv + (size_t)tri[c]);
                double wgt = 1.0 / count[tri[c]];
                for (int i = 0; i < 3; i++) out[i] += (float)(wgt * (nd[i] - along * n[i]));
            }
        }
    }
    free(count);
    return 0;
}
