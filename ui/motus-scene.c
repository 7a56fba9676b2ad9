/* motus-scene.c — triangle meshes and glyphs of a model (see motus-scene.h).
 * Built in double from the model, stored in float for GL. */
#include "motus-scene.h"

#include <math.h>
#include <string.h>

#include "motus-i18n.h"
#include "motus/flex.h"
#include "motus/flexview.h"
#include "motus/teach.h"

#define SEG MOTUS_LOD_SEGMENTS(0) /* segments around the triad's rods and cones (always the finest) */

/* A rigid transform: v' = R v + t, R row-major. */
typedef struct {
    double R[9], t[3];
} Xf;

static void xf_identity(Xf *x)
{
    memset(x, 0, sizeof *x);
    x->R[0] = x->R[4] = x->R[8] = 1.0;
}

static void xf_point(const Xf *x, const double v[3], double out[3])
{
    for (int r = 0; r < 3; r++) out[r] = x->R[3 * r] * v[0] + x->R[3 * r + 1] * v[1] + x->R[3 * r + 2] * v[2] + x->t[r];
}

static void xf_dir(const Xf *x, const double v[3], double out[3])
{
    for (int r = 0; r < 3; r++) out[r] = x->R[3 * r] * v[0] + x->R[3 * r + 1] * v[1] + x->R[3 * r + 2] * v[2];
}

/* Composes a: out = a ∘ b (b applied first). */
static void xf_mul(const Xf *a, const Xf *b, Xf *out)
{
    Xf o;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            o.R[3 * r + c] = a->R[3 * r] * b->R[c] + a->R[3 * r + 1] * b->R[3 + c] + a->R[3 * r + 2] * b->R[6 + c];
    xf_point(a, b->t, o.t);
    *out = o;
}

/* Frame whose z axis runs along d (unit), origin o. */
static void xf_along(Xf *x, const double o[3], const double d[3])
{
    double t[3] = {1, 0, 0};
    if (fabs(d[0]) > 0.9) t[0] = 0, t[1] = 1;
    double X[3] = {t[1] * d[2] - t[2] * d[1], t[2] * d[0] - t[0] * d[2], t[0] * d[1] - t[1] * d[0]};
    double n = sqrt(X[0] * X[0] + X[1] * X[1] + X[2] * X[2]);
    for (int i = 0; i < 3; i++) X[i] /= n;
    double Y[3] = {d[1] * X[2] - d[2] * X[1], d[2] * X[0] - d[0] * X[2], d[0] * X[1] - d[1] * X[0]};
    for (int r = 0; r < 3; r++) {
        x->R[3 * r] = X[r];
        x->R[3 * r + 1] = Y[r];
        x->R[3 * r + 2] = d[r];
        x->t[r] = o[r];
    }
}

static void put(GArray *a, const Xf *x, const double p[3], const double n[3], const float c[3])
{
    double P[3], N[3];
    xf_point(x, p, P);
    xf_dir(x, n, N);
    double l = sqrt(N[0] * N[0] + N[1] * N[1] + N[2] * N[2]);
    MotusVertex v;
    for (int i = 0; i < 3; i++) {
        v.p[i] = (float)P[i];
        v.n[i] = (float)(l > 0 ? N[i] / l : 0.0);
        v.c[i] = c[i];
    }
    g_array_append_val(a, v);
}

static void line(GArray *a, const Xf *x, const double p[3], const double q[3], const float c[3])
{
    double P[3], Q[3];
    xf_point(x, p, P);
    xf_point(x, q, Q);
    MotusLineVertex v[2];
    for (int i = 0; i < 3; i++) {
        v[0].p[i] = (float)P[i];
        v[1].p[i] = (float)Q[i];
        v[0].c[i] = v[1].c[i] = c[i];
    }
    g_array_append_vals(a, v, 2);
}

static void edge_colour(const float c[3], float e[3])
{
    for (int i = 0; i < 3; i++) e[i] = 0.35f * c[i];
}

/* Box of half sizes h, centred; CCW faces seen from outside. */
static void add_box(GArray *tri, GArray *edges, const Xf *x, const double h[3], const float c[3])
{
    for (int k = 0; k < 3; k++) {
        int u = (k + 1) % 3, v = (k + 2) % 3;
        for (int s = -1; s <= 1; s += 2) {
            double n[3] = {0, 0, 0}, q[4][3];
            n[k] = s;
            static const int su[4] = {-1, 1, 1, -1}, sv[4] = {-1, -1, 1, 1};
            for (int i = 0; i < 4; i++) {
                int j = s > 0 ? i : 3 - i;
                q[i][k] = s * h[k];
                q[i][u] = su[j] * h[u];
                q[i][v] = sv[j] * h[v];
            }
            put(tri, x, q[0], n, c), put(tri, x, q[1], n, c), put(tri, x, q[2], n, c);
            put(tri, x, q[0], n, c), put(tri, x, q[2], n, c), put(tri, x, q[3], n, c);
        }
    }
    if (!edges) return;
    float e[3];
    edge_colour(c, e);
    for (int k = 0; k < 3; k++) {
        int u = (k + 1) % 3, v = (k + 2) % 3;
        for (int a = -1; a <= 1; a += 2)
            for (int b = -1; b <= 1; b += 2) {
                double p[3], q[3];
                p[k] = -h[k], q[k] = h[k];
                p[u] = q[u] = a * h[u];
                p[v] = q[v] = b * h[v];
                line(edges, x, p, q, e);
            }
    }
}

/* How far out the vertices of a round shape of seg segments lie, in radii.
 * The finest level is inscribed (it is what picking and bounds use); coarser
 * ones straddle the circle, vertices out by as much as their sides' middles
 * are in, which halves the gap and keeps the area (motus_lod_level). */
static double seg_radius(int seg)
{
    return seg >= MOTUS_LOD_SEGMENTS(0) ? 1.0 : 2.0 / (1.0 + cos(G_PI / seg));
}

/* Cylinder of radius r and length h along z, centred, seg segments around; caps optional. */
static void add_cylinder(GArray *tri, GArray *edges, const Xf *x, double r, double h, int caps, int seg,
                         const float c[3])
{
    double z0 = -0.5 * h, z1 = 0.5 * h;
    r *= seg_radius(seg);
    for (int i = 0; i < seg; i++) {
        double a0 = 2 * G_PI * i / seg, a1 = 2 * G_PI * (i + 1) / seg;
        double c0 = cos(a0), s0 = sin(a0), c1 = cos(a1), s1 = sin(a1);
        double n0[3] = {c0, s0, 0}, n1[3] = {c1, s1, 0};
        double p00[3] = {r * c0, r * s0, z0}, p10[3] = {r * c1, r * s1, z0};
        double p11[3] = {r * c1, r * s1, z1}, p01[3] = {r * c0, r * s0, z1};
        put(tri, x, p00, n0, c), put(tri, x, p10, n1, c), put(tri, x, p11, n1, c);
        put(tri, x, p00, n0, c), put(tri, x, p11, n1, c), put(tri, x, p01, n0, c);
        if (caps) {
            double up[3] = {0, 0, 1}, dn[3] = {0, 0, -1}, ct[3] = {0, 0, z1}, cb[3] = {0, 0, z0};
            put(tri, x, ct, up, c), put(tri, x, p01, up, c), put(tri, x, p11, up, c);
            put(tri, x, cb, dn, c), put(tri, x, p10, dn, c), put(tri, x, p00, dn, c);
        }
        if (edges) {
            float e[3];
            edge_colour(c, e);
            line(edges, x, p00, p10, e);
            line(edges, x, p01, p11, e);
        }
    }
}

/* Part of a sphere of radius r centred at (0, 0, zc), polar angle th0..th1 from +z,
 * seg segments around. */
static void add_sphere_part(GArray *tri, const Xf *x, double r, double zc, double th0, double th1, int rings,
                            int seg, const float c[3])
{
    for (int j = 0; j < rings; j++) {
        double t0 = th0 + (th1 - th0) * j / rings, t1 = th0 + (th1 - th0) * (j + 1) / rings;
        for (int i = 0; i < seg; i++) {
            double f0 = 2 * G_PI * i / seg, f1 = 2 * G_PI * (i + 1) / seg;
            double n[4][3] = {{sin(t0) * cos(f0), sin(t0) * sin(f0), cos(t0)},
                              {sin(t1) * cos(f0), sin(t1) * sin(f0), cos(t1)},
                              {sin(t1) * cos(f1), sin(t1) * sin(f1), cos(t1)},
                              {sin(t0) * cos(f1), sin(t0) * sin(f1), cos(t0)}};
            double p[4][3];
            for (int k = 0; k < 4; k++) {
                p[k][0] = r * seg_radius(seg) * n[k][0];
                p[k][1] = r * seg_radius(seg) * n[k][1];
                p[k][2] = r * seg_radius(seg) * n[k][2] + zc;
            }
            put(tri, x, p[0], n[0], c), put(tri, x, p[1], n[1], c), put(tri, x, p[2], n[2], c);
            put(tri, x, p[0], n[0], c), put(tri, x, p[2], n[2], c), put(tri, x, p[3], n[3], c);
        }
    }
}

static void add_sphere(GArray *tri, const Xf *x, double r, int seg, const float c[3])
{
    add_sphere_part(tri, x, r, 0, 0, G_PI, seg / 2, seg, c);
}

/* Cylinder between two points (a bar, a stick, a rail). */
static void add_rod(GArray *tri, GArray *edges, const Xf *x, const double a[3], const double b[3], double r,
                    int seg, const float c[3])
{
    double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double L = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(L > 0)) return;
    for (int i = 0; i < 3; i++) d[i] /= L;
    double m[3] = {0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1]), 0.5 * (a[2] + b[2])};
    Xf loc, full;
    xf_along(&loc, m, d);
    xf_mul(x, &loc, &full);
    add_cylinder(tri, edges, &full, r, L, 1, seg, c);
}

/* Cone along z from base radius r at z = 0 to a tip at z = h, with a base disk. */
static void add_cone(GArray *tri, const Xf *x, double r, double h, const float c[3])
{
    double sl = sqrt(r * r + h * h);
    for (int i = 0; i < SEG; i++) {
        double a0 = 2 * G_PI * i / SEG, a1 = 2 * G_PI * (i + 1) / SEG, am = 0.5 * (a0 + a1);
        double p0[3] = {r * cos(a0), r * sin(a0), 0}, p1[3] = {r * cos(a1), r * sin(a1), 0};
        double tip[3] = {0, 0, h}, ctr[3] = {0, 0, 0}, dn[3] = {0, 0, -1};
        double n0[3] = {h / sl * cos(a0), h / sl * sin(a0), r / sl},
               n1[3] = {h / sl * cos(a1), h / sl * sin(a1), r / sl};
        double nm[3] = {h / sl * cos(am), h / sl * sin(am), r / sl};
        put(tri, x, p0, n0, c), put(tri, x, p1, n1, c), put(tri, x, tip, nm, c);
        put(tri, x, ctr, dn, c), put(tri, x, p1, dn, c), put(tri, x, p0, dn, c);
    }
}

void motus_scene_add_triad(GArray *tri, double length)
{
    static const float col[3][3] = {{0.86f, 0.20f, 0.20f}, {0.20f, 0.70f, 0.25f}, {0.20f, 0.38f, 0.92f}};
    for (int a = 0; a < 3; a++) {
        double o[3] = {0, 0, 0}, d[3] = {0, 0, 0}, e[3] = {0, 0, 0};
        d[a] = 1;
        e[a] = 0.72 * length;
        Xf id, x;
        xf_identity(&id);
        add_rod(tri, NULL, &id, o, e, 0.045 * length, SEG, col[a]);
        xf_along(&x, e, d);
        add_cone(tri, &x, 0.11 * length, 0.28 * length, col[a]);
    }
    double h = 0.06 * length, hh[3] = {h, h, h};
    static const float grey[3] = {0.8f, 0.8f, 0.8f};
    Xf id;
    xf_identity(&id);
    add_box(tri, NULL, &id, hh, grey);
}

double motus_lod_radius_px(double radius, double distance, double fovy, double viewport_h)
{
    if (!(distance > radius) || !(radius >= 0)) return INFINITY;
    return radius / sqrt(distance * distance - radius * radius) / tan(0.5 * fovy) * 0.5 * viewport_h;
}

int motus_lod_level(double radius_px)
{
    int level = 0;
    while (level + 1 < MOTUS_LOD_LEVELS) {
        double c = cos(G_PI / MOTUS_LOD_SEGMENTS(level + 1));
        if (!(radius_px * (1 - c) / (1 + c) <= MOTUS_LOD_TOLERANCE_PX)) break;
        level++;
    }
    return level;
}

void motus_colormap(double t, float rgb[3])
{
    static const float stop[][4] = {
        {0.00f, 0.10f, 0.15f, 0.65f}, {0.15f, 0.10f, 0.45f, 0.95f}, {0.30f, 0.10f, 0.80f, 0.95f},
        {0.45f, 0.20f, 0.85f, 0.45f}, {0.60f, 0.75f, 0.90f, 0.15f}, {0.72f, 0.98f, 0.82f, 0.10f},
        {0.86f, 0.98f, 0.45f, 0.08f}, {1.00f, 0.80f, 0.08f, 0.08f},
    };
    const int n = (int)G_N_ELEMENTS(stop);
    if (!(t > 0)) t = 0; /* NaN too */
    if (t > 1) t = 1;
    int i = 1;
    while (i < n - 1 && t > stop[i][0]) i++;
    double f = (t - stop[i - 1][0]) / (stop[i][0] - stop[i - 1][0]);
    for (int c = 0; c < 3; c++) rgb[c] = (float)(stop[i - 1][c + 1] + f * (stop[i][c + 1] - stop[i - 1][c + 1]));
}

void motus_scene_body_colour(int b, float c[3])
{
    static const float pal[][3] = {
        {0.27f, 0.51f, 0.82f}, /* blue */
        {0.92f, 0.55f, 0.18f}, /* orange */
        {0.30f, 0.69f, 0.40f}, /* green */
        {0.82f, 0.29f, 0.32f}, /* red */
        {0.58f, 0.42f, 0.78f}, /* violet */
        {0.18f, 0.66f, 0.70f}, /* teal */
        {0.85f, 0.72f, 0.20f}, /* yellow */
        {0.80f, 0.42f, 0.62f}, /* pink */
    };
    if (b < 0) {
        c[0] = c[1] = c[2] = 0.62f;
        return;
    }
    const float *p = pal[b % (int)G_N_ELEMENTS(pal)];
    c[0] = p[0], c[1] = p[1], c[2] = p[2];
}

static void quat_from_rot(const double R[9], double q[4])
{
    double tr = R[0] + R[4] + R[8];
    if (tr > 0) {
        double s = sqrt(tr + 1.0) * 2;
        q[0] = 0.25 * s;
        q[1] = (R[7] - R[5]) / s;
        q[2] = (R[2] - R[6]) / s;
        q[3] = (R[3] - R[1]) / s;
    } else if (R[0] > R[4] && R[0] > R[8]) {
        double s = sqrt(1.0 + R[0] - R[4] - R[8]) * 2;
        q[0] = (R[7] - R[5]) / s;
        q[1] = 0.25 * s;
        q[2] = (R[1] + R[3]) / s;
        q[3] = (R[2] + R[6]) / s;
    } else if (R[4] > R[8]) {
        double s = sqrt(1.0 + R[4] - R[0] - R[8]) * 2;
        q[0] = (R[2] - R[6]) / s;
        q[1] = (R[1] + R[3]) / s;
        q[2] = 0.25 * s;
        q[3] = (R[5] + R[7]) / s;
    } else {
        double s = sqrt(1.0 + R[8] - R[0] - R[4]) * 2;
        q[0] = (R[3] - R[1]) / s;
        q[1] = (R[2] + R[6]) / s;
        q[2] = (R[5] + R[7]) / s;
        q[3] = 0.25 * s;
    }
}

static void pose_xf(const double *pose, Xf *x)
{
    mt_teach_rotation(pose + 3, x->R);
    x->t[0] = pose[0], x->t[1] = pose[1], x->t[2] = pose[2];
}

void motus_scene_model_poses(const MtModel *m, double *poses)
{
    for (int b = 0; b < m->nbody; b++) {
        double *p = poses + 7 * b;
        memcpy(p, m->body[b].pos, 3 * sizeof(double));
        quat_from_rot(m->body[b].rot, p + 3);
    }
}

void motus_scene_pose_matrix(const double pose[7], mat4 out)
{
    double R[9];
    mt_teach_rotation(pose + 3, R);
    glm_mat4_identity(out);
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) out[c][r] = (float)R[3 * r + c];
        out[3][r] = (float)pose[r];
    }
}

/* Transform from body axes to project axes (identity for the ground). */
static void body_xf(const double *poses, int b, Xf *x)
{
    if (b < 0)
        xf_identity(x);
    else
        pose_xf(poses + 7 * b, x);
}

void motus_scene_marker_world(const MtModel *m, int k, const double *poses, double out[3])
{
    Xf x;
    body_xf(poses, m->marker[k].body, &x);
    xf_point(&x, m->marker[k].pos, out);
}

/* Marker k's frame in its body's axes. */
static void marker_xf(const MtModel *m, int k, Xf *x)
{
    memcpy(x->R, m->marker[k].rot, sizeof x->R);
    memcpy(x->t, m->marker[k].pos, sizeof x->t);
}

void motus_scene_add_spring(GArray *tri, double scale, const double a[3], const double b[3])
{
    static const float col[3] = {0.86f, 0.66f, 0.22f};
    double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double L = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(L > 1e-12)) return;
    for (int i = 0; i < 3; i++) d[i] /= L;
    Xf x;
    xf_along(&x, a, d);
    const int turns = 10, per = 24, tube = 8;
    double R = 0.035 * scale, r = 0.005 * scale;
    if (R > 0.25 * L) R = fmax(0.25 * L, 4 * r); /* short springs stay coils */
    int n = turns * per;
    for (int i = 0; i < n; i++) {
        double s[2] = {(double)i / n, (double)(i + 1) / n};
        double C[2][3], N[2][3], B[2][3];
        for (int k = 0; k < 2; k++) {
            double th = 2 * G_PI * turns * s[k];
            double ct = cos(th), st = sin(th);
            C[k][0] = R * ct, C[k][1] = R * st, C[k][2] = L * s[k];
            /* tangent (−R sin, R cos, L / (2π turns)) normalised; N radial; B = T × N */
            double T[3] = {-R * st, R * ct, L / (2 * G_PI * turns)};
            double tl = sqrt(T[0] * T[0] + T[1] * T[1] + T[2] * T[2]);
            for (int q = 0; q < 3; q++) T[q] /= tl;
            N[k][0] = ct, N[k][1] = st, N[k][2] = 0;
            B[k][0] = T[1] * N[k][2] - T[2] * N[k][1];
            B[k][1] = T[2] * N[k][0] - T[0] * N[k][2];
            B[k][2] = T[0] * N[k][1] - T[1] * N[k][0];
        }
        for (int j = 0; j < tube; j++) {
            double f[2] = {2 * G_PI * j / tube, 2 * G_PI * (j + 1) / tube};
            double P[2][2][3], Nn[2][2][3];
            for (int k = 0; k < 2; k++)
                for (int l = 0; l < 2; l++)
                    for (int q = 0; q < 3; q++) {
                        Nn[k][l][q] = cos(f[l]) * N[k][q] + sin(f[l]) * B[k][q];
                        P[k][l][q] = C[k][q] + r * Nn[k][l][q];
                    }
            /* counter-clockwise seen from outside the wire */
            put(tri, &x, P[0][0], Nn[0][0], col), put(tri, &x, P[1][1], Nn[1][1], col);
            put(tri, &x, P[1][0], Nn[1][0], col);
            put(tri, &x, P[0][0], Nn[0][0], col), put(tri, &x, P[0][1], Nn[0][1], col);
            put(tri, &x, P[1][1], Nn[1][1], col);
        }
    }
}

/* Characteristic length: size of the box around markers, body origins,
 * centres of mass and shapes at the initial configuration. */
static double model_scale(const MtModel *m, const double *poses)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
#define GROW(p)                                                                                                        \
    for (int q_ = 0; q_ < 3; q_++) lo[q_] = fmin(lo[q_], (p)[q_]), hi[q_] = fmax(hi[q_], (p)[q_])
    for (int k = 0; k < m->nmarker; k++) {
        double w[3];
        motus_scene_marker_world(m, k, poses, w);
        GROW(w);
    }
    for (int b = 0; b < m->nbody; b++) {
        Xf x;
        double w[3];
        body_xf(poses, b, &x);
        xf_point(&x, m->body[b].com, w);
        GROW(w);
        GROW(poses + 7 * b);
    }
    double shape_size = 0;
    for (int i = 0; i < m->nshape; i++) {
        const MtShapeSpec *sh = &m->shape[i];
        Xf x;
        double w[3];
        body_xf(poses, sh->body, &x);
        xf_point(&x, sh->pos, w);
        if (sh->body >= 0) GROW(w); /* large ground plates do not set the scale */
        double sz = sh->kind == MT_SHAPE_BOX    ? fmax(sh->size[0], fmax(sh->size[1], sh->size[2]))
                    : sh->kind == MT_SHAPE_MESH ? 0
                                                : 2 * sh->size[0];
        if (sh->kind == MT_SHAPE_CYLINDER || sh->kind == MT_SHAPE_CAPSULE) sz = fmax(sz, sh->size[1]);
        if (sh->kind == MT_SHAPE_BAR) {
            xf_point(&x, sh->end, w);
            GROW(w);
        }
        if (sh->body >= 0) shape_size = fmax(shape_size, sz);
    }
    for (int i = 0; i < m->nflex; i++)
        if (mt_model_flex_body(m, i)) shape_size = fmax(shape_size, mt_flexview_size(mt_model_flex_body(m, i)));
#undef GROW
    double d = 0;
    if (isfinite(lo[0]))
        d = sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                 (hi[2] - lo[2]) * (hi[2] - lo[2]));
    d = fmax(d, shape_size);
    return d > 1e-9 ? d : 1.0;
}

/* One shape into the arrays of one level of detail, round parts at seg segments. */
static void add_shape(const MotusBodyDetail *d, const MtShapeSpec *sh, const float c[3], int seg, const char *model_dir,
                      GString *warnings, const char *owner)
{
    Xf x;
    memcpy(x.R, sh->rot, sizeof x.R);
    memcpy(x.t, sh->pos, sizeof x.t);
    switch (sh->kind) {
    case MT_SHAPE_BOX: {
        double h[3] = {0.5 * sh->size[0], 0.5 * sh->size[1], 0.5 * sh->size[2]};
        add_box(d->tri, d->edges, &x, h, c);
        break;
    }
    case MT_SHAPE_CYLINDER: add_cylinder(d->tri, d->edges, &x, sh->size[0], sh->size[1], 1, seg, c); break;
    case MT_SHAPE_SPHERE: add_sphere(d->tri, &x, sh->size[0], seg, c); break;
    case MT_SHAPE_CAPSULE:
        add_cylinder(d->tri, NULL, &x, sh->size[0], sh->size[1], 0, seg, c);
        add_sphere_part(d->tri, &x, sh->size[0], 0.5 * sh->size[1], 0, 0.5 * G_PI, seg / 4, seg, c);
        add_sphere_part(d->tri, &x, sh->size[0], -0.5 * sh->size[1], 0.5 * G_PI, G_PI, seg / 4, seg, c);
        break;
    case MT_SHAPE_BAR: {
        Xf id;
        xf_identity(&id);
        add_rod(d->tri, d->edges, &id, sh->pos, sh->end, sh->size[0], seg, c);
        break;
    }
    case MT_SHAPE_MESH: {
        g_autofree char *path = g_path_is_absolute(sh->mesh) || !model_dir
                                    ? g_strdup(sh->mesh)
                                    : g_build_filename(model_dir, sh->mesh, NULL);
        g_autoptr(GError) error = NULL;
        if (!motus_mesh_load(path, sh->size[0], sh->pos, sh->rot, c, d->tri, &error)) {
            if (warnings) /* TRANSLATORS: %s are the body name and the reason (file not found, ...). */
                g_string_append_printf(warnings, _("body '%s': mesh not shown (%s)\n"), owner, error->message);
            double h[3] = {0.02, 0.02, 0.02};
            add_box(d->tri, d->edges, &x, h, c);
        }
        break;
    }
    default: break;
    }
}

/* The glyph of joint j on the body of its marker j, into the arrays of one level of detail. */
static void add_joint_glyph(const MtModel *m, int j, const double *poses, double scale, int seg,
                            const MotusBodyDetail *detail)
{
    static const float col[3] = {0.78f, 0.78f, 0.80f};
    const MtJointSpec *js = &m->joint[j];
    int bj = m->marker[js->mj].body;
    const MotusBodyDetail *bm = &detail[bj < 0 ? m->nbody : bj];
    if (!bm->glyph) return;
    Xf x;
    marker_xf(m, js->mj, &x);
    double s = scale;
    switch (js->type) {
    case MT_JOINT_REVOLUTE: add_cylinder(bm->glyph, NULL, &x, 0.022 * s, 0.09 * s, 1, seg, col); break;
    case MT_JOINT_CYLINDRICAL:
    case MT_JOINT_SCREW: add_cylinder(bm->glyph, NULL, &x, 0.012 * s, 0.25 * s, 1, seg, col); break;
    case MT_JOINT_PRISMATIC:
    case MT_JOINT_INLINE: {
        /* a rail along z_j covering marker j and the initial position of marker i */
        double pi[3], pj[3], zj[3], zl[3] = {0, 0, 1};
        Xf bx, full;
        motus_scene_marker_world(m, js->mi, poses, pi);
        motus_scene_marker_world(m, js->mj, poses, pj);
        body_xf(poses, bj, &bx);
        xf_mul(&bx, &x, &full);
        xf_dir(&full, zl, zj);
        double d0 = zj[0] * (pi[0] - pj[0]) + zj[1] * (pi[1] - pj[1]) + zj[2] * (pi[2] - pj[2]);
        double a = fmin(0, d0) - 0.2 * s, b = fmax(0, d0) + 0.2 * s;
        Xf rail = x;
        for (int r = 0; r < 3; r++) rail.t[r] = x.t[r] + x.R[3 * r + 2] * 0.5 * (a + b);
        double h[3] = {0.008 * s, 0.008 * s, 0.5 * (b - a)};
        add_box(bm->glyph, NULL, &rail, h, col);
        break;
    }
    case MT_JOINT_FIXED: {
        double h[3] = {0.018 * s, 0.018 * s, 0.018 * s};
        add_box(bm->glyph, NULL, &x, h, col);
        break;
    }
    case MT_JOINT_PLANAR:
    case MT_JOINT_INPLANE: add_cylinder(bm->glyph, NULL, &x, 0.06 * s, 0.004 * s, 1, seg, col); break;
    case MT_JOINT_SPHERICAL:
    case MT_JOINT_UNIVERSAL:
    default: add_sphere(bm->glyph, &x, 0.03 * s, seg, col); break;
    }
}

/* ---- flexible bodies ------------------------------------------------------ */

/* Appends a vertex of surface vertex `ref` with normal n, or reuses the one
 * already made for that vertex with the same normal (smooth regions share,
 * creases split); head/next chain the vertices made per surface vertex. */
static guint32 flex_vertex(GArray *verts, guint base, int *head, GArray *next, int ref, const float p[3],
                           const float n[3], const float c[3])
{
    for (int k = head[ref]; k >= 0; k = g_array_index(next, int, k)) {
        const MotusFlexVertex *v = &g_array_index(verts, MotusFlexVertex, base + (guint)k);
        if (!memcmp(v->n, n, sizeof v->n) && !memcmp(v->p, p, sizeof v->p)) return base + (guint)k;
    }
    MotusFlexVertex v;
    memcpy(v.p, p, sizeof v.p);
    memcpy(v.n, n, sizeof v.n);
    memcpy(v.c, c, sizeof v.c);
    v.ref = (guint32)ref;
    int k = (int)(verts->len - base);
    g_array_append_val(verts, v);
    g_array_append_val(next, head[ref]);
    head[ref] = k;
    return base + (guint)k;
}

/* Triangles of the reduced surface; a corner's normal averages the faces
 * around its vertex that lie within 40 degrees of its own face, so the
 * edges of a part stay sharp and curved faces smooth. */
static void flex_triangles(const MtFlexInfo *fb, const float c[3], GArray *verts, GArray *index)
{
    int nsv = fb->nsv, nst = fb->nst;
    double *fn = g_new(double, 3 * (size_t)nst), *un = g_new(double, 3 * (size_t)nst);
    int *start = g_new0(int, (size_t)nsv + 1), *inc = g_new(int, 3 * (size_t)nst), *fill = g_new0(int, (size_t)nsv);
    for (int t = 0; t < nst; t++) {
        const int *v = fb->st + 3 * t;
        const float *a = fb->sv_x + 3 * v[0], *b = fb->sv_x + 3 * v[1], *d = fb->sv_x + 3 * v[2];
        double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, e2[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
        double *n = fn + 3 * t;
        n[0] = e1[1] * e2[2] - e1[2] * e2[1], n[1] = e1[2] * e2[0] - e1[0] * e2[2], n[2] = e1[0] * e2[1] - e1[1] * e2[0];
        double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        for (int i = 0; i < 3; i++) un[3 * t + i] = l > 0 ? n[i] / l : 0;
        for (int i = 0; i < 3; i++) start[v[i] + 1]++;
    }
    for (int v = 0; v < nsv; v++) start[v + 1] += start[v];
    for (int t = 0; t < nst; t++)
        for (int i = 0; i < 3; i++) {
            int v = fb->st[3 * t + i];
            inc[start[v] + fill[v]++] = t;
        }
    guint base = verts->len;
    int *head = g_new(int, (size_t)nsv);
    for (int v = 0; v < nsv; v++) head[v] = -1;
    GArray *next = g_array_new(FALSE, FALSE, sizeof(int));
    const double crease = cos(40 * G_PI / 180);
    for (int t = 0; t < nst; t++)
        for (int i = 0; i < 3; i++) {
            int v = fb->st[3 * t + i];
            double n[3] = {0, 0, 0};
            for (int k = start[v]; k < start[v + 1]; k++) {
                int f = inc[k];
                if (un[3 * f] * un[3 * t] + un[3 * f + 1] * un[3 * t + 1] + un[3 * f + 2] * un[3 * t + 2] < crease)
                    continue;
                for (int q = 0; q < 3; q++) n[q] += fn[3 * f + q]; /* area-weighted */
            }
            double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            float nf[3], pf[3];
            for (int q = 0; q < 3; q++) nf[q] = (float)(l > 0 ? n[q] / l : un[3 * t + q]), pf[q] = fb->sv_x[3 * v + q];
            guint32 k = flex_vertex(verts, base, head, next, v, pf, nf, c);
            g_array_append_val(index, k);
        }
    g_array_unref(next);
    g_free(head), g_free(fn), g_free(un), g_free(start), g_free(inc), g_free(fill);
}

/* A tube (or a box, for a rectangular section) around each beam line, its
 * rings tied to the line's end vertices; ends used by one line get caps. */
static void flex_tubes(const MtFlexInfo *fb, double r, double bw, double bh, const float c[3], GArray *verts,
                       GArray *index)
{
    /* the section outline in its plane (e2, e3): points with normals, a quad per pair */
    enum { K = 16 };
    double op[2 * K][2], onrm[2 * K][2];
    int npair = 0;
    if (bw > 0 && bh > 0) {
        static const double cs[4][2] = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}}, ns[4][2] = {{0, 1}, {-1, 0}, {0, -1}, {1, 0}};
        for (int i = 0; i < 4; i++, npair++)
            for (int e = 0; e < 2; e++) {
                const double *q = cs[(i + e) % 4];
                op[2 * i + e][0] = 0.5 * bw * q[0], op[2 * i + e][1] = 0.5 * bh * q[1];
                onrm[2 * i + e][0] = ns[i][0], onrm[2 * i + e][1] = ns[i][1];
            }
    } else {
        for (int i = 0; i < K; i++, npair++)
            for (int e = 0; e < 2; e++) {
                double a = 2 * G_PI * (i + e) / K;
                op[2 * i + e][0] = r * cos(a), op[2 * i + e][1] = r * sin(a);
                onrm[2 * i + e][0] = cos(a), onrm[2 * i + e][1] = sin(a);
            }
    }
    int *deg = g_new0(int, (size_t)fb->nsv);
    for (int s = 0; s < 2 * fb->nseg; s++) deg[fb->seg[s]]++;
    for (int s = 0; s < fb->nseg; s++) {
        int ends[2] = {fb->seg[2 * s], fb->seg[2 * s + 1]};
        const float *p0 = fb->sv_x + 3 * ends[0], *p1 = fb->sv_x + 3 * ends[1];
        double d[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
        double L = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (!(L > 0)) continue;
        for (int i = 0; i < 3; i++) d[i] /= L;
        /* e2: body y made normal to the line (body z when the line runs along y), e3 = d × e2 */
        double e2[3] = {0, 1, 0};
        if (fabs(d[1]) > 0.9) e2[1] = 0, e2[2] = 1;
        double dot = e2[0] * d[0] + e2[1] * d[1] + e2[2] * d[2];
        for (int i = 0; i < 3; i++) e2[i] -= dot * d[i];
        double l2 = sqrt(e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2]);
        for (int i = 0; i < 3; i++) e2[i] /= l2;
        double e3[3] = {d[1] * e2[2] - d[2] * e2[1], d[2] * e2[0] - d[0] * e2[2], d[0] * e2[1] - d[1] * e2[0]};
        for (int q = 0; q < npair; q++) {
            guint32 k[4]; /* a0 a1 b1 b0 */
            for (int j = 0; j < 4; j++) {
                int end = j >= 2, o = 2 * q + (j == 1 || j == 2);
                const float *p = end ? p1 : p0;
                MotusFlexVertex v;
                for (int i = 0; i < 3; i++) {
                    v.p[i] = (float)(p[i] + op[o][0] * e2[i] + op[o][1] * e3[i]);
                    v.n[i] = (float)(onrm[o][0] * e2[i] + onrm[o][1] * e3[i]);
                    v.c[i] = c[i];
                }
                v.ref = (guint32)ends[end];
                k[j] = verts->len;
                g_array_append_val(verts, v);
            }
            guint32 tri[6] = {k[0], k[1], k[2], k[0], k[2], k[3]};
            g_array_append_vals(index, tri, 6);
        }
        for (int end = 0; end < 2; end++) {
            if (deg[ends[end]] != 1) continue;
            const float *p = end ? p1 : p0;
            double sgn = end ? 1 : -1;
            MotusFlexVertex v;
            for (int i = 0; i < 3; i++) v.p[i] = p[i], v.n[i] = (float)(sgn * d[i]), v.c[i] = c[i];
            v.ref = (guint32)ends[end];
            guint32 ctr = verts->len;
            g_array_append_val(verts, v);
            for (int q = 0; q < npair; q++) {
                guint32 k[2];
                for (int e = 0; e < 2; e++) {
                    for (int i = 0; i < 3; i++) v.p[i] = (float)(p[i] + op[2 * q + e][0] * e2[i] + op[2 * q + e][1] * e3[i]);
                    k[e] = verts->len;
                    g_array_append_val(verts, v);
                }
                guint32 tri[3] = {ctr, end ? k[0] : k[1], end ? k[1] : k[0]};
                g_array_append_vals(index, tri, 3);
            }
        }
    }
    g_free(deg);
}

void motus_scene_flex_surface(const MtFlexBody *fb, double r, double b, double h, const float c[3], GArray *verts,
                              GArray *index)
{
    if (!fb) return;
    MtFlexInfo fi;
    mt_flex_body_info(fb, &fi);
    if (fi.nsv <= 0 || !fi.sv_x) return;
    if (fi.nst > 0) flex_triangles(&fi, c, verts, index);
    if (fi.nseg > 0) flex_tubes(&fi, r, b, h, c, verts, index);
}

/* Every reduced flexible body gets its deformable surface; beam sections
 * come from the model (beams read from a mesh file: a tube 1/100 of the
 * body's size). */
static void add_flex_bodies(const MtModel *m, MotusScene *s)
{
    for (int i = 0; i < m->nflex; i++) {
        const MtFlexSpec *f = &m->flex[i];
        const MtFlexBody *fb = mt_model_flex_body(m, i);
        if (!fb) continue;
        MtFlexInfo fi;
        mt_flex_body_info(fb, &fi);
        int moff = s->nmodal;
        s->nmodal += fi.nmode;
        if (fi.nsv <= 0 || f->body < 0 || f->body >= m->nbody) continue;
        double r = 0.01 * mt_flexview_size(fb), bw = 0, bh = 0;
        if (f->source == MT_FLEX_BEAM) {
            if (f->section == MT_SECTION_RECT)
                bw = f->sec[0], bh = f->sec[1];
            else
                r = 0.5 * f->sec[0];
        }
        r = fmax(r, 0.002 * s->scale); /* thin wires stay visible */
        MotusFlexMesh *fm = g_new0(MotusFlexMesh, 1);
        fm->spec = i;
        fm->fb = fb;
        fm->info = fi;
        fm->moff = moff;
        fm->centre_vertex = -1;
        fm->verts = g_array_new(FALSE, FALSE, sizeof(MotusFlexVertex));
        fm->index = g_array_new(FALSE, FALSE, sizeof(guint32));
        float c[3];
        motus_scene_body_colour(f->body, c);
        motus_scene_flex_surface(fb, r, bw, bh, c, fm->verts, fm->index);
        s->body[f->body].flex = fm;
    }
}

static float dist2(const float a[3], const float b[3])
{
    return (a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]);
}

static void bounds_of(MotusBodyMesh *bm)
{
    for (int i = 0; i < 3; i++) bm->lo[i] = INFINITY, bm->hi[i] = -INFINITY;
    GArray *arr[2] = {bm->tri, bm->glyph};
    for (int a = 0; a < 2; a++)
        for (guint k = 0; k < arr[a]->len; k++) {
            const MotusVertex *v = &g_array_index(arr[a], MotusVertex, k);
            for (int i = 0; i < 3; i++) bm->lo[i] = fminf(bm->lo[i], v->p[i]), bm->hi[i] = fmaxf(bm->hi[i], v->p[i]);
        }
    for (guint k = 0; bm->flex && k < bm->flex->verts->len; k++) {
        const MotusFlexVertex *v = &g_array_index(bm->flex->verts, MotusFlexVertex, k);
        for (int i = 0; i < 3; i++) bm->lo[i] = fminf(bm->lo[i], v->p[i]), bm->hi[i] = fmaxf(bm->hi[i], v->p[i]);
    }
    for (int i = 0; i < 3; i++) bm->centre[i] = bm->lo[i] <= bm->hi[i] ? 0.5f * (bm->lo[i] + bm->hi[i]) : 0.0f;
    /* the farthest vertex, not the box's corner: a ball's sphere is the ball (the corner is √3 times as far) */
    float r2 = 0;
    for (int a = 0; a < 2; a++)
        for (guint k = 0; k < arr[a]->len; k++)
            r2 = fmaxf(r2, dist2(g_array_index(arr[a], MotusVertex, k).p, bm->centre));
    for (guint k = 0; bm->flex && k < bm->flex->verts->len; k++)
        r2 = fmaxf(r2, dist2(g_array_index(bm->flex->verts, MotusFlexVertex, k).p, bm->centre));
    bm->radius = sqrtf(r2);
}

/* The solids of every body at one level of detail (round parts at
 * MOTUS_LOD_SEGMENTS(level) segments) into detail[b] (nbody + 1; a NULL tri
 * skips the body): its shapes, a stand-in for a body without shapes, and the
 * joint glyphs fixed to it. */
static void add_solids(const MtModel *m, const MotusScene *s, const double *poses, int level,
                       const MotusBodyDetail *detail, const char *model_dir, GString *warnings)
{
    int seg = MOTUS_LOD_SEGMENTS(level);
    for (int i = 0; i < m->nshape; i++) {
        const MtShapeSpec *sh = &m->shape[i];
        const MotusBodyDetail *d = &detail[sh->body < 0 ? m->nbody : sh->body];
        if (!d->tri) continue;
        float c[3];
        if (sh->color[0] || sh->color[1] || sh->color[2])
            memcpy(c, sh->color, sizeof c);
        else
            motus_scene_body_colour(sh->body, c);
        add_shape(d, sh, c, seg, model_dir, warnings, mt_model_body_name(m, sh->body));
    }
    /* A body without shapes: a small box at its centre of mass and sticks to its markers. */
    for (int b = 0; b < m->nbody; b++) {
        const MotusBodyDetail *d = &detail[b];
        if (!d->tri || d->tri->len || s->body[b].flex) continue;
        float c[3];
        motus_scene_body_colour(b, c);
        Xf x;
        xf_identity(&x);
        memcpy(x.t, m->body[b].com, sizeof x.t);
        double hb = 0.04 * s->scale, h[3] = {hb, hb, hb};
        add_box(d->tri, d->edges, &x, h, c);
        Xf id;
        xf_identity(&id);
        for (int k = 0; k < m->nmarker; k++) {
            if (m->marker[k].body != b) continue;
            const double *p = m->marker[k].pos, *q = m->body[b].com;
            double dd =
                sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2]));
            if (dd > hb) add_rod(d->tri, NULL, &id, q, p, 0.014 * s->scale, seg, c);
        }
    }
    for (int j = 0; j < m->njoint; j++) add_joint_glyph(m, j, poses, s->scale, seg, detail);
}

MotusScene *motus_scene_new(const MtModel *m, const char *model_dir, GString *warnings)
{
    MotusScene *s = g_new0(MotusScene, 1);
    s->nbody = m->nbody;
    s->body = g_new0(MotusBodyMesh, m->nbody + 1);
    s->up_axis =
        m->gravity[2] < 0 && fabs(m->gravity[2]) > fabs(m->gravity[1]) && fabs(m->gravity[2]) > fabs(m->gravity[0]) ? 2
                                                                                                                    : 1;
    double *poses = g_new0(double, 7 * (m->nbody + 1));
    motus_scene_model_poses(m, poses);
    s->scale = model_scale(m, poses);
    for (int b = 0; b <= m->nbody; b++) {
        MotusBodyMesh *bm = &s->body[b];
        bm->tri = g_array_new(FALSE, FALSE, sizeof(MotusVertex));
        bm->glyph = g_array_new(FALSE, FALSE, sizeof(MotusVertex));
        bm->edges = g_array_new(FALSE, FALSE, sizeof(MotusLineVertex));
        bm->axes = g_array_new(FALSE, FALSE, sizeof(MotusLineVertex));
    }
    for (int b = 0; b <= m->nbody; b++) s->body[b].closed = TRUE;
    for (int i = 0; i < m->nshape; i++)
        if (m->shape[i].kind == MT_SHAPE_MESH) /* a file's winding is unknown */
            s->body[m->shape[i].body < 0 ? m->nbody : m->shape[i].body].closed = FALSE;
    add_flex_bodies(m, s);
    /* Coarser levels for rigid bodies made of primitives only: a mesh file is
     * not made coarser (its copy would only cost memory), and a flexible body
     * deforms vertex by vertex, so it keeps its one surface. */
    for (int b = 0; b <= m->nbody; b++) {
        MotusBodyMesh *bm = &s->body[b];
        if (!bm->closed || bm->flex) continue;
        for (int l = 0; l < MOTUS_LOD_LEVELS - 1; l++) {
            bm->coarse[l].tri = g_array_new(FALSE, FALSE, sizeof(MotusVertex));
            bm->coarse[l].glyph = g_array_new(FALSE, FALSE, sizeof(MotusVertex));
            bm->coarse[l].edges = g_array_new(FALSE, FALSE, sizeof(MotusLineVertex));
        }
    }
    MotusBodyDetail *detail = g_new0(MotusBodyDetail, m->nbody + 1);
    for (int level = 0; level < MOTUS_LOD_LEVELS; level++) {
        for (int b = 0; b <= m->nbody; b++) {
            MotusBodyMesh *bm = &s->body[b];
            detail[b] = level ? bm->coarse[level - 1] : (MotusBodyDetail){bm->tri, bm->glyph, bm->edges};
        }
        add_solids(m, s, poses, level, detail, model_dir, level ? NULL : warnings);
    }
    g_free(detail);
    /* a body with nothing round keeps one level */
    for (int b = 0; b <= m->nbody; b++) {
        MotusBodyMesh *bm = &s->body[b];
        if (bm->coarse[0].tri && bm->coarse[0].tri->len + bm->coarse[0].glyph->len == bm->tri->len + bm->glyph->len)
            for (int l = 0; l < MOTUS_LOD_LEVELS - 1; l++) {
                g_clear_pointer(&bm->coarse[l].tri, g_array_unref);
                g_clear_pointer(&bm->coarse[l].glyph, g_array_unref);
                g_clear_pointer(&bm->coarse[l].edges, g_array_unref);
            }
    }
    /* marker triads: x red, y green, z blue */
    static const float axc[3][3] = {{0.85f, 0.2f, 0.2f}, {0.2f, 0.7f, 0.25f}, {0.2f, 0.35f, 0.9f}};
    double L = 0.06 * s->scale;
    for (int k = 0; k < m->nmarker; k++) {
        int b = m->marker[k].body;
        Xf x;
        marker_xf(m, k, &x);
        for (int a = 0; a < 3; a++) {
            double o[3] = {0, 0, 0}, e[3] = {0, 0, 0};
            e[a] = L;
            line(s->body[b < 0 ? m->nbody : b].axes, &x, o, e, axc[a]);
        }
    }
    for (int b = 0; b <= m->nbody; b++) bounds_of(&s->body[b]);
    for (int b = 0; b < m->nbody; b++) {
        MotusFlexMesh *fm = s->body[b].flex;
        if (!fm) continue;
        double bd = INFINITY;
        for (int v = 0; v < fm->info.nsv; v++) {
            const float *x = fm->info.sv_x + 3 * v, *c = s->body[b].centre;
            double d = (x[0] - c[0]) * (x[0] - c[0]) + (x[1] - c[1]) * (x[1] - c[1]) + (x[2] - c[2]) * (x[2] - c[2]);
            if (d < bd) bd = d, fm->centre_vertex = v;
        }
    }
    g_free(poses);
    return s;
}

void motus_scene_free(MotusScene *s)
{
    if (!s) return;
    for (int b = 0; b <= s->nbody; b++) {
        MotusBodyMesh *bm = &s->body[b];
        g_array_unref(bm->tri);
        g_array_unref(bm->glyph);
        g_array_unref(bm->edges);
        g_array_unref(bm->axes);
        for (int l = 0; l < MOTUS_LOD_LEVELS - 1; l++) {
            if (bm->coarse[l].tri) g_array_unref(bm->coarse[l].tri);
            if (bm->coarse[l].glyph) g_array_unref(bm->coarse[l].glyph);
            if (bm->coarse[l].edges) g_array_unref(bm->coarse[l].edges);
        }
        if (bm->flex) {
            g_array_unref(bm->flex->verts);
            g_array_unref(bm->flex->index);
            g_free(bm->flex);
        }
    }
    g_free(s->body);
    g_free(s);
}

/* The 8 corners of mesh b's box (b = nbody: the ground's) in project axes; FALSE when it has no mesh. */
static gboolean box_corners(const MotusScene *s, const double *poses, int b, double w[8][3])
{
    const MotusBodyMesh *bm = &s->body[b];
    if (!(bm->lo[0] <= bm->hi[0])) return FALSE;
    Xf x;
    body_xf(poses, b == s->nbody ? -1 : b, &x);
    for (int k = 0; k < 8; k++) {
        double p[3] = {k & 1 ? bm->hi[0] : bm->lo[0], k & 2 ? bm->hi[1] : bm->lo[1], k & 4 ? bm->hi[2] : bm->lo[2]};
        xf_point(&x, p, w[k]);
    }
    return TRUE;
}

gboolean motus_scene_box(const MotusScene *s, const double *poses, double lo[3], double hi[3])
{
    double w[8][3];
    for (int i = 0; i < 3; i++) lo[i] = INFINITY, hi[i] = -INFINITY;
    for (int b = 0; b <= s->nbody; b++)
        if (box_corners(s, poses, b, w))
            for (int k = 0; k < 8; k++)
                for (int i = 0; i < 3; i++) lo[i] = fmin(lo[i], w[k][i]), hi[i] = fmax(hi[i], w[k][i]);
    return lo[0] <= hi[0];
}

void motus_scene_corners(const MotusScene *s, const double *poses, GArray *pts)
{
    double w[8][3];
    for (int b = 0; b <= s->nbody; b++)
        if (box_corners(s, poses, b, w))
            for (int k = 0; k < 8; k++) {
                float f[3] = {(float)w[k][0], (float)w[k][1], (float)w[k][2]};
                g_array_append_vals(pts, f, 3);
            }
}

void motus_scene_bounds(const MotusScene *s, const double *poses, float centre[3], float *radius)
{
    double lo[3], hi[3];
    if (!motus_scene_box(s, poses, lo, hi)) {
        centre[0] = centre[1] = centre[2] = 0;
        *radius = 1;
        return;
    }
    double r2 = 0;
    for (int i = 0; i < 3; i++) {
        centre[i] = (float)(0.5 * (lo[i] + hi[i]));
        r2 += 0.25 * (hi[i] - lo[i]) * (hi[i] - lo[i]);
    }
    *radius = (float)fmax(sqrt(r2), 1e-3 * s->scale);
}

float motus_scene_floor(const MotusScene *s, const double *poses)
{
    double lo[3], hi[3];
    if (!motus_scene_box(s, poses, lo, hi)) return 0;
    return (float)(lo[s->up_axis] - 0.05 * s->scale);
}

/* ---- mesh files ---------------------------------------------------------- */

static void mesh_tri(GArray *tri, const Xf *x, double scale, const double a[3], const double b[3], const double c[3],
                     const float col[3])
{
    double p[3][3];
    for (int i = 0; i < 3; i++) p[0][i] = a[i] * scale, p[1][i] = b[i] * scale, p[2][i] = c[i] * scale;
    double u[3] = {p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]};
    double v[3] = {p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]};
    double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    put(tri, x, p[0], n, col), put(tri, x, p[1], n, col), put(tri, x, p[2], n, col);
}

static gboolean load_stl(const char *data, gsize len, const Xf *x, double scale, const float c[3], GArray *tri)
{
    if (len >= 84) {
        guint32 n;
        memcpy(&n, data + 80, 4);
        n = GUINT32_FROM_LE(n);
        if ((guint64)84 + (guint64)n * 50 == len) {
            for (guint32 i = 0; i < n; i++) {
                const char *r = data + 84 + (gsize)i * 50 + 12;
                double v[3][3];
                for (int k = 0; k < 9; k++) {
                    float f;
                    memcpy(&f, r + 4 * k, 4);
                    v[k / 3][k % 3] = f;
                }
                mesh_tri(tri, x, scale, v[0], v[1], v[2], c);
            }
            return n > 0;
        }
    }
    /* ASCII: every "vertex x y z", three per facet */
    g_autofree char *text = g_strndup(data, len);
    double v[3][3];
    int nv = 0;
    guint before = tri->len;
    for (char *p = strstr(text, "vertex"); p; p = strstr(p, "vertex")) {
        p += 6;
        char *end;
        for (int k = 0; k < 3; k++) {
            v[nv][k] = g_ascii_strtod(p, &end);
            p = end;
        }
        if (++nv == 3) {
            mesh_tri(tri, x, scale, v[0], v[1], v[2], c);
            nv = 0;
        }
    }
    return tri->len > before;
}

static gboolean load_obj(const char *data, gsize len, const Xf *x, double scale, const float c[3], GArray *tri)
{
    g_autofree char *text = g_strndup(data, len);
    g_autoptr(GArray) verts = g_array_new(FALSE, FALSE, sizeof(double) * 3);
    guint before = tri->len;
    char *save = NULL;
    for (char *ln = strtok_r(text, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save)) {
        while (*ln == ' ' || *ln == '\t') ln++;
        if (ln[0] == 'v' && (ln[1] == ' ' || ln[1] == '\t')) {
            double v[3];
            char *p = ln + 2, *end;
            for (int k = 0; k < 3; k++) {
                v[k] = g_ascii_strtod(p, &end);
                p = end;
            }
            g_array_append_val(verts, v);
        } else if (ln[0] == 'f' && (ln[1] == ' ' || ln[1] == '\t')) {
            long idx[64];
            int n = 0;
            char *p = ln + 2;
            while (*p && n < 64) {
                char *end;
                long k = strtol(p, &end, 10);
                if (end == p) break;
                if (k < 0) k = (long)verts->len + k + 1;
                idx[n++] = k;
                p = end;
                while (*p && *p != ' ' && *p != '\t' && *p != '\r') p++; /* skip /vt/vn */
                while (*p == ' ' || *p == '\t' || *p == '\r') p++;
            }
            for (int i = 1; i + 1 < n; i++) {
                long a = idx[0], b = idx[i], d = idx[i + 1];
                if (a < 1 || b < 1 || d < 1 || a > (long)verts->len || b > (long)verts->len || d > (long)verts->len)
                    continue;
                const double *va = (const double *)verts->data + 3 * (a - 1);
                const double *vb = (const double *)verts->data + 3 * (b - 1);
                const double *vd = (const double *)verts->data + 3 * (d - 1);
                mesh_tri(tri, x, scale, va, vb, vd, c);
            }
        }
    }
    return tri->len > before;
}

gboolean motus_mesh_load(const char *path, double scale, const double pos[3], const double rot[9], const float c[3],
                         GArray *tri, GError **error)
{
    g_autofree char *data = NULL;
    gsize len = 0;
    if (!g_file_get_contents(path, &data, &len, error)) return FALSE;
    Xf x;
    memcpy(x.R, rot, sizeof x.R);
    memcpy(x.t, pos, sizeof x.t);
    g_autofree char *lower = g_ascii_strdown(path, -1);
    gboolean ok = g_str_has_suffix(lower, ".obj") ? load_obj(data, len, &x, scale, c, tri)
                                                  : load_stl(data, len, &x, scale, c, tri);
    if (!ok) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("no triangles in '%s'"), path);
        return FALSE;
    }
    return TRUE;
}
