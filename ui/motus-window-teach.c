/* motus-window-teach.c — what playback shows for teaching, drawn over the 3D
 * view at the frame shown: the trajectory of the selected point (a body's
 * centre of mass or a marker), its velocity and acceleration vectors, the
 * reaction forces of every joint (on the body of marker i, at marker i), to
 * a chosen scale; and a camera that follows the selected body. Vectors come
 * from the stored result columns: v_P = v_O + ω × r, a_P = a_O + ε × r + ω × (ω × r)
 * with r from the body origin O to the point P.
 * A private part of MotusWindow (motus-window-private.h). */
#include <math.h>
#include <string.h>

#include "motus-i18n.h"
#include "motus-window-private.h"
#include "motus/teach.h"

static const float trace_rgb[3] = {0.55f, 0.10f, 0.65f}, vel_rgb[3] = {0.05f, 0.45f, 0.15f},
                   acc_rgb[3] = {0.85f, 0.35f, 0.0f}, force_rgb[3] = {0.80f, 0.05f, 0.10f},
                   accn_rgb[3] = {0.70f, 0.55f, 0.0f}, omega_rgb[3] = {0.10f, 0.30f, 0.85f}, eps_rgb[3] = {0.35f, 0.15f, 0.70f},
                   icr_rgb[3] = {0.0f, 0.0f, 0.0f}, icr_fixed_rgb[3] = {0.45f, 0.45f, 0.45f},
                   icr_moving_rgb[3] = {0.0f, 0.55f, 0.60f}, fbd_rgb[3] = {0.75f, 0.10f, 0.10f},
                   inertial_rgb[3] = {0.40f, 0.40f, 0.40f};

static gboolean flag(MotusWindow *self, const char *name)
{
    g_autoptr(GVariant) v = g_action_group_get_action_state(G_ACTION_GROUP(self), name);
    return v && g_variant_get_boolean(v);
}

static double user_scale(MotusWindow *self)
{
    g_autoptr(GVariant) v = g_action_group_get_action_state(G_ACTION_GROUP(self), "vector-scale");
    double f = v ? g_ascii_strtod(g_variant_get_string(v, NULL), NULL) : 1;
    return f > 0 ? f : 1;
}

/* The points shown: the pinned bodies and markers (the eye popover's button, Ctrl+click in the view) and
 * the selection. A point is a body's centre of mass or a marker; name is what labels say when several are shown. */
typedef struct {
    MtEditKind kind;
    int index;
} TeachPin;

typedef struct {
    int body;
    double p[3];
    char name[MT_NAME_MAX + 1];
} Tracked;

static gboolean point_of(const MtModel *m, MtEditKind kind, int index, Tracked *t)
{
    if (kind == MT_EDIT_BODY && index >= 0 && index < m->nbody) {
        t->body = index;
        memcpy(t->p, m->body[index].com, sizeof t->p);
        g_strlcpy(t->name, m->body[index].name, sizeof t->name);
        return TRUE;
    }
    if (kind == MT_EDIT_MARKER && index >= 0 && index < m->nmarker && m->marker[index].body >= 0) {
        t->body = m->marker[index].body;
        memcpy(t->p, m->marker[index].pos, sizeof t->p);
        g_snprintf(t->name, sizeof t->name, "%s.%s", m->body[t->body].name, m->marker[index].name);
        return TRUE;
    }
    return FALSE;
}

/* The pinned points, then the selection when it is not pinned; returns how many (at most max). */
static int tracked_points(MotusWindow *self, Tracked *out, int max)
{
    const MtModel *m = motus_window_model(self);
    int n = 0;
    if (!m) return 0;
    gboolean sel_pinned = FALSE;
    for (guint i = 0; self->teach_pins && i < self->teach_pins->len && n < max; i++) {
        const TeachPin *pin = &g_array_index(self->teach_pins, TeachPin, i);
        if (pin->kind == self->sel_kind && pin->index == self->sel_index) sel_pinned = TRUE;
        if (point_of(m, pin->kind, pin->index, &out[n])) n++;
    }
    if (!sel_pinned && n < max && point_of(m, self->sel_kind, self->sel_index, &out[n])) n++;
    return n;
}

/* "18.65 kN": a quantity in the project's display unit, else a readable one (labels in the 3D view). */
static void quantity_text(MotusWindow *self, MtDim dim, double si, char *buf, size_t n)
{
    const MtModel *m = motus_window_model(self);
    const MtUnit *u = NULL;
    for (int k = 0; m && k < m->nunit; k++)
        if (!strcmp(m->unit[k].quantity, mt_dim_name(dim))) u = mt_unit_lookup(m->unit[k].unit, dim);
    if (!u) u = mt_unit_readable(dim, fabs(si));
    char num[48];
    mt_units_format(si, u, 4, num, sizeof num);
    const char *sp = strchr(num, ' '); /* the symbol in the user's language */
    if (sp) g_snprintf(buf, n, "%.*s %s", (int)(sp - num), num, mt_unit_label(u));
    else g_snprintf(buf, n, "%s", num);
}

static void cross(double r[3], const double a[3], const double b[3])
{
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}

/* Columns "BODY.SUFFIX" for three suffixes (-1 when absent). */
static void cols3(MotusWindow *self, const char *name, const char *const suf[3], int col[3])
{
    for (int k = 0; k < 3; k++) {
        g_autofree char *c = g_strdup_printf("%s.%s", name, suf[k]);
        col[k] = motus_run_bridge_find_column(motus_window_bridge(self), c);
    }
}

typedef struct {
    int v[3], w[3], a[3], e[3];
} BodyCols;

/* World position, velocity and acceleration of a point of a body at frame i. */
static gboolean point_state(MotusWindow *self, const BodyCols *bc, int body, const double p[3], guint i, double *pose,
                            double x[3], double v[3], double a[3])
{
    double t;
    if (!motus_run_bridge_get_frame(motus_window_bridge(self), i, &t, pose)) return FALSE;
    const double *o = pose + 7 * body;
    double R[9], r[3];
    mt_teach_rotation(o + 3, R);
    for (int k = 0; k < 3; k++) r[k] = R[3 * k] * p[0] + R[3 * k + 1] * p[1] + R[3 * k + 2] * p[2];
    for (int k = 0; k < 3; k++) x[k] = o[k] + r[k];
    double w[3], e[3], vo[3], ao[3], wr[3], wwr[3], er[3];
    for (int k = 0; k < 3; k++) {
        vo[k] = motus_run_bridge_value(motus_window_bridge(self), bc->v[k], i);
        w[k] = motus_run_bridge_value(motus_window_bridge(self), bc->w[k], i);
        ao[k] = motus_run_bridge_value(motus_window_bridge(self), bc->a[k], i);
        e[k] = motus_run_bridge_value(motus_window_bridge(self), bc->e[k], i);
    }
    cross(wr, w, r);
    cross(wwr, w, wr);
    cross(er, e, r);
    for (int k = 0; k < 3; k++) {
        v[k] = vo[k] + wr[k];
        a[k] = ao[k] + er[k] + wwr[k];
    }
    return TRUE;
}

static double norm3(const double v[3]) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

/* The body's angular velocity and acceleration at frame i (project axes). */
static void body_rates(MotusWindow *self, const BodyCols *bc, guint i, double w[3], double e[3])
{
    for (int k = 0; k < 3; k++) {
        w[k] = motus_run_bridge_value(motus_window_bridge(self), bc->w[k], i);
        e[k] = motus_run_bridge_value(motus_window_bridge(self), bc->e[k], i);
    }
}

/* What one update draws from: the frame shown, the scales, a pose buffer. */
typedef struct {
    MotusWindow *self;
    const MtModel *m;
    MotusRunBridge *br;
    guint n, cur, stride;
    double L, f;    /* the model's size and the user's vector scale */
    double *pose;   /* 7 per body (+1) */
    gboolean several; /* labels say whose vector it is */
} Draw;

static void body_cols(Draw *d, int body, BodyCols *bc)
{
    static const char *const vs[] = {"vx", "vy", "vz"}, *const ws[] = {"wx", "wy", "wz"}, *const as[] = {"ax", "ay", "az"},
                             *const es[] = {"ex", "ey", "ez"};
    const char *bn = d->m->body[body].name;
    cols3(d->self, bn, vs, bc->v);
    cols3(d->self, bn, ws, bc->w);
    cols3(d->self, bn, as, bc->a);
    cols3(d->self, bn, es, bc->e);
}

/* "crank.b: v = 628.3 mm/s" when several points are shown, else "v = 628.3 mm/s". */
static void label_for(Draw *d, const Tracked *t, const char *sym, MtDim dim, double value, char *buf, size_t n)
{
    char q[48];
    quantity_text(d->self, dim, value, q, sizeof q);
    if (d->several) g_snprintf(buf, n, "%s: %s = %s", t->name, sym, q);
    else g_snprintf(buf, n, "%s = %s", sym, q);
}

typedef struct {
    double v, a, w, e;
} Maxima;

/* An angular rate r at x: seen along its axis (a planar view of plane motion) a curved arrow of three
 * quarters of a turn in the sense of rotation, radius `radius` × the model's size, its head carrying the
 * label; otherwise an axial arrow scale × r long. */
static void rate_arrow(Draw *d, const double x[3], const double r[3], double scale, double radius, const float rgb[3],
                       const char *label)
{
    MotusViewport *vp = d->self->viewport;
    double fwd[3], n = norm3(r);
    motus_viewport_view_direction(vp, fwd);
    if (!(n > 0) || fabs(fwd[0] * r[0] + fwd[1] * r[1] + fwd[2] * r[2]) < 0.95 * n) {
        motus_viewport_add_overlay_vector(vp, x, r, scale, rgb, label);
        return;
    }
    double a[3] = {r[0] / n, r[1] / n, r[2] / n}, e1[3], e2[3], h[3] = {1, 0, 0};
    if (fabs(a[0]) > 0.9) h[0] = 0, h[1] = 1;
    cross(e1, h, a);
    double l1 = norm3(e1);
    for (int k = 0; k < 3; k++) e1[k] /= l1;
    cross(e2, a, e1); /* e1 × e2 = a: increasing θ turns the right way about the rate */
    double rho = radius * d->L * d->f, pts[3 * 25];
    for (int i = 0; i <= 24; i++) {
        double th = 1.5 * G_PI * i / 24;
        for (int k = 0; k < 3; k++) pts[3 * i + k] = x[k] + rho * (cos(th) * e1[k] + sin(th) * e2[k]);
    }
    motus_viewport_add_overlay_line(vp, pts, 24, rgb); /* the arc up to the head */
    double th = 1.5 * G_PI * 23 / 24, tip[3];
    for (int k = 0; k < 3; k++) tip[k] = rho * (cos(1.5 * G_PI) * e1[k] + sin(1.5 * G_PI) * e2[k]) - rho * (cos(th) * e1[k] + sin(th) * e2[k]);
    motus_viewport_add_overlay_arrow(vp, pts + 3 * 23, tip, rgb, label);
}

/* The largest |v|, |a|, |ω|, |ε| of a point over the run (from about 400 frames): one length per quantity. */
static void point_maxima(Draw *d, const Tracked *t, Maxima *mx)
{
    BodyCols bc;
    body_cols(d, t->body, &bc);
    double x[3], v[3], a[3], w[3], e[3];
    for (guint i = 0; i < d->n; i += d->stride)
        if (point_state(d->self, &bc, t->body, t->p, i, d->pose, x, v, a)) {
            body_rates(d->self, &bc, i, w, e);
            mx->v = fmax(mx->v, norm3(v));
            mx->a = fmax(mx->a, norm3(a));
            mx->w = fmax(mx->w, norm3(w));
            mx->e = fmax(mx->e, norm3(e));
        }
}

static void point_vectors(Draw *d, const Tracked *t, const Maxima *mx, gboolean trace, gboolean vel, gboolean acc,
                          gboolean split, gboolean omega, gboolean follow)
{
    MotusViewport *vp = d->self->viewport;
    BodyCols bc;
    body_cols(d, t->body, &bc);
    double x[3], v[3], a[3], s;
    char label[MT_NAME_MAX + 96];
    if (trace) {
        GArray *pts = g_array_new(FALSE, FALSE, sizeof(double));
        for (guint i = 0; i <= d->cur; i += d->stride)
            if (point_state(d->self, &bc, t->body, t->p, i, d->pose, x, v, a)) g_array_append_vals(pts, x, 3);
        if (point_state(d->self, &bc, t->body, t->p, d->cur, d->pose, x, v, a)) g_array_append_vals(pts, x, 3);
        motus_viewport_add_overlay_line(vp, (double *)pts->data, pts->len / 3, trace_rgb);
        g_array_unref(pts);
    }
    if (!point_state(d->self, &bc, t->body, t->p, d->cur, d->pose, x, v, a)) return;
    if (vel && mx->v > 0) {
        label_for(d, t, "v", MT_DIM_VELOCITY, norm3(v), label, sizeof label);
        motus_viewport_add_overlay_vector(vp, x, v, 0.3 * d->L * d->f / mx->v, vel_rgb, label);
    }
    if (acc && mx->a > 0 && split && norm3(v) > 1e-12 * mx->v) { /* tangential and normal parts */
        double vn = norm3(v), at = (a[0] * v[0] + a[1] * v[1] + a[2] * v[2]) / vn, dt[3], dn[3];
        for (int k = 0; k < 3; k++) dt[k] = at * v[k] / vn, dn[k] = a[k] - at * v[k] / vn;
        s = 0.3 * d->L * d->f / mx->a;
        label_for(d, t, "aτ", MT_DIM_ACCEL, at, label, sizeof label);
        motus_viewport_add_overlay_vector(vp, x, dt, s, acc_rgb, label);
        label_for(d, t, "an", MT_DIM_ACCEL, norm3(dn), label, sizeof label);
        motus_viewport_add_overlay_vector(vp, x, dn, s, accn_rgb, label);
    } else if (acc && mx->a > 0) {
        label_for(d, t, "a", MT_DIM_ACCEL, norm3(a), label, sizeof label);
        motus_viewport_add_overlay_vector(vp, x, a, 0.3 * d->L * d->f / mx->a, acc_rgb, label);
    }
    if (omega) { /* ω and ε: axial arrows (right-hand rule), or curved arrows when seen along their axis */
        double w[3], e[3];
        body_rates(d->self, &bc, d->cur, w, e);
        if (mx->w > 0) {
            label_for(d, t, "ω", MT_DIM_ANGVEL, norm3(w), label, sizeof label);
            rate_arrow(d, x, w, 0.3 * d->L * d->f / mx->w, 0.07, omega_rgb, label);
        }
        if (mx->e > 0) {
            label_for(d, t, "ε", MT_DIM_ANGACC, norm3(e), label, sizeof label);
            rate_arrow(d, x, e, 0.3 * d->L * d->f / mx->e, 0.11, eps_rgb, label);
        }
    }
    if (follow) motus_viewport_look_at(vp, x);
}

/* The instantaneous centre of velocity of a body at frame i (project axes); FALSE when it does not turn. */
static gboolean icr_at(Draw *d, const BodyCols *bc, int body, guint i, double p[3])
{
    static const double origin[3] = {0, 0, 0};
    double x[3], v[3], a[3], w[3], e[3];
    if (!point_state(d->self, bc, body, origin, i, d->pose, x, v, a)) return FALSE;
    body_rates(d->self, bc, i, w, e);
    return mt_teach_icr(x, v, w, p) && norm3((double[3]){p[0] - x[0], p[1] - x[1], p[2] - x[2]}) < 4 * d->L;
}

/* Polyline pieces of a centrode: broken where the centre goes out of reach (the body stops turning). */
static void flush_line(MotusViewport *vp, GArray *pts, const float rgb[3])
{
    if (pts->len >= 6) motus_viewport_add_overlay_line(vp, (double *)pts->data, pts->len / 3, rgb);
    g_array_set_size(pts, 0);
}

/* The centre P of a body at the frame shown, the fixed centrode (P's path in the plane, to now) and the
 * moving centrode (P's path in the body, carried by the body as it is now). */
static void body_icr(Draw *d, int body, gboolean centrodes)
{
    MotusViewport *vp = d->self->viewport;
    BodyCols bc;
    body_cols(d, body, &bc);
    double p[3];
    char label[MT_NAME_MAX + 64];
    if (centrodes) {
        double *now = g_new(double, 7 * (d->m->nbody + 1)), R[9];
        if (!motus_run_bridge_get_frame(d->br, d->cur, NULL, now)) {
            g_free(now);
            return;
        }
        mt_teach_rotation(now + 7 * body + 3, R);
        GArray *fixed = g_array_new(FALSE, FALSE, sizeof(double)), *moving = g_array_new(FALSE, FALSE, sizeof(double));
        for (guint i = 0; i < d->n; i += d->stride) {
            if (!icr_at(d, &bc, body, i, p)) { /* d->pose holds frame i's poses */
                flush_line(vp, fixed, icr_fixed_rgb);
                flush_line(vp, moving, icr_moving_rgb);
                continue;
            }
            if (i <= d->cur) g_array_append_vals(fixed, p, 3);
            double Ri[9], r[3], rb[3], x[3];
            const double *o = d->pose + 7 * body;
            mt_teach_rotation(o + 3, Ri);
            for (int k = 0; k < 3; k++) r[k] = p[k] - o[k];
            for (int k = 0; k < 3; k++) rb[k] = Ri[k] * r[0] + Ri[3 + k] * r[1] + Ri[6 + k] * r[2]; /* Rᵀ r */
            for (int k = 0; k < 3; k++)
                x[k] = now[7 * body + k] + R[3 * k] * rb[0] + R[3 * k + 1] * rb[1] + R[3 * k + 2] * rb[2];
            g_array_append_vals(moving, x, 3);
        }
        flush_line(vp, fixed, icr_fixed_rgb);
        flush_line(vp, moving, icr_moving_rgb);
        g_array_unref(fixed);
        g_array_unref(moving);
        g_free(now);
    }
    if (icr_at(d, &bc, body, d->cur, p)) {
        g_snprintf(label, sizeof label, _("P of %s (instantaneous centre)"), d->m->body[body].name);
        motus_viewport_add_overlay_point(vp, p, icr_rgb, label);
    }
}

static double fbd_value(void *ctx, const char *column)
{
    Draw *d = ctx;
    int c = motus_run_bridge_find_column(d->br, column);
    return c < 0 ? NAN : motus_run_bridge_value(d->br, c, d->cur);
}

/* What drew an arrow of the free-body diagram, in words for its label. */
static void fbd_name(const MtModel *m, const MtFbdArrow *a, char *buf, size_t n)
{
    switch (a->kind) {
    case MT_FBD_GRAVITY: g_snprintf(buf, n, "%s", _("weight")); break;
    case MT_FBD_JOINT: g_snprintf(buf, n, "%s", m->joint[a->entity].name); break;
    case MT_FBD_DRIVER: g_snprintf(buf, n, "%s", m->driver[a->entity].name); break;
    case MT_FBD_SPRING: g_snprintf(buf, n, "%s", m->spring[a->entity].name); break;
    case MT_FBD_FORCE: g_snprintf(buf, n, "%s", m->force[a->entity].name); break;
    }
}

/* The free-body diagram of a body at the frame shown: every force acting on it at its point, and the
 * inertial force −m·a at the centre of mass (d'Alembert: the arrows sum to zero), one length for all. */
static void body_fbd(Draw *d, int body)
{
    MotusViewport *vp = d->self->viewport;
    if (!motus_run_bridge_get_frame(d->br, d->cur, NULL, d->pose)) return;
    MtFbdArrow arr[64];
    int missing, n = MIN(mt_teach_fbd(d->m, body, d->pose, fbd_value, d, arr, 64, &missing), 64);
    BodyCols bc;
    body_cols(d, body, &bc);
    double x[3], v[3], a[3], big = 0;
    if (!point_state(d->self, &bc, body, d->m->body[body].com, d->cur, d->pose, x, v, a)) return;
    double inertia[3] = {-d->m->body[body].mass * a[0], -d->m->body[body].mass * a[1], -d->m->body[body].mass * a[2]};
    big = norm3(inertia);
    for (int i = 0; i < n; i++) big = fmax(big, norm3(arr[i].force));
    if (!(big > 0)) return;
    double s = 0.3 * d->L * d->f / big;
    char label[MT_NAME_MAX + 96], who[MT_NAME_MAX + 32], q[48];
    for (int i = 0; i < n; i++) {
        if (norm3(arr[i].force) == 0) continue; /* a pure torque (a motor's) has no arrow here */
        fbd_name(d->m, &arr[i], who, sizeof who);
        quantity_text(d->self, MT_DIM_FORCE, norm3(arr[i].force), q, sizeof q);
        g_snprintf(label, sizeof label, "%s: F = %s", who, q);
        motus_viewport_add_overlay_vector(vp, arr[i].point, arr[i].force, s, fbd_rgb, label);
    }
    quantity_text(d->self, MT_DIM_FORCE, norm3(inertia), q, sizeof q);
    g_snprintf(label, sizeof label, "−m·a = %s", q);
    motus_viewport_add_overlay_vector(vp, x, inertia, s, inertial_rgb, label);
}

static void joint_reactions(Draw *d)
{
    static const char *const fs[] = {"Fx", "Fy", "Fz"};
    const MtModel *m = d->m;
    int(*fc)[3] = g_malloc_n((gsize)m->njoint, sizeof *fc);
    double fmax_ = 0;
    for (int j = 0; j < m->njoint; j++) cols3(d->self, m->joint[j].name, fs, fc[j]);
    for (guint i = 0; i < d->n; i += d->stride)
        for (int j = 0; j < m->njoint; j++) {
            double F[3];
            for (int k = 0; k < 3; k++) F[k] = motus_run_bridge_value(d->br, fc[j][k], i);
            if (isfinite(norm3(F))) fmax_ = fmax(fmax_, norm3(F));
        }
    if (fmax_ > 0 && motus_run_bridge_get_frame(d->br, d->cur, NULL, d->pose)) {
        motus_viewport_set_poses(d->self->viewport, d->pose);
        for (int j = 0; j < m->njoint; j++) {
            const MtMarkerSpec *mk = &m->marker[m->joint[j].mi];
            double x[3], F[3];
            for (int k = 0; k < 3; k++) F[k] = motus_run_bridge_value(d->br, fc[j][k], d->cur);
            if (!isfinite(norm3(F)) || !motus_viewport_body_to_world(d->self->viewport, mk->body, mk->pos, x)) continue;
            char q[48];
            quantity_text(d->self, MT_DIM_FORCE, norm3(F), q, sizeof q);
            g_autofree char *label = g_strdup_printf("%s: F = %s", m->joint[j].name, q);
            motus_viewport_add_overlay_vector(d->self->viewport, x, F, 0.3 * d->L * d->f / fmax_, force_rgb, label);
        }
    }
    g_free(fc);
}

/* 1, 2 or 5 times a power of ten, at most x. */
static double nice_below(double x)
{
    double p = pow(10, floor(log10(x))), m = x / p;
    return (m >= 5 ? 5 : m >= 2 ? 2 : 1) * p;
}

/* A scale bar for the arrows of one quantity: a round value drawn to the same scale, left of and below the
 * mechanism, along the screen's horizontal, labelled "scale: 0.5 m/s" (row: which bar, from the top). */
static void scale_bar(Draw *d, int row, MtDim dim, double vmax, const float rgb[3])
{
    if (!(vmax > 0)) return;
    double s = 0.3 * d->L * d->f / vmax, value = nice_below(0.67 * vmax / d->f), right[3], up[3];
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    if (!motus_run_bridge_get_frame(d->br, d->cur, NULL, d->pose)) return;
    for (int b = 0; b < d->m->nbody; b++)
        for (int k = 0; k < 3; k++) lo[k] = fmin(lo[k], d->pose[7 * b + k]), hi[k] = fmax(hi[k], d->pose[7 * b + k]);
    if (!isfinite(lo[0])) return;
    motus_viewport_view_basis(d->self->viewport, right, up, NULL);
    double c[3], at[3], bar[3];
    for (int k = 0; k < 3; k++) c[k] = 0.5 * (lo[k] + hi[k]);
    double half = 0.5 * fmax(fmax(hi[0] - lo[0], hi[1] - lo[1]), hi[2] - lo[2]) + 0.2 * d->L;
    for (int k = 0; k < 3; k++) {
        at[k] = c[k] - half * right[k] - (half + 0.12 * d->L * row) * up[k];
        bar[k] = value * right[k];
    }
    char q[48], label[96];
    quantity_text(d->self, dim, value, q, sizeof q);
    /* TRANSLATORS: the label of a scale bar beside the vectors in the 3D view: the value its length stands for */
    g_snprintf(label, sizeof label, _("scale: %s"), q);
    motus_viewport_add_overlay_vector(d->self->viewport, at, bar, s, rgb, label);
}

void motus_window_teach_update(MotusWindow *self)
{
    if (self->pick != PICK_NONE) return; /* the overlay shows the picked points */
    motus_viewport_clear_overlay(self->viewport);
    Draw d = {self, motus_window_model(self), motus_window_bridge(self), 0, 0, 1, 0, 1, NULL, FALSE};
    d.n = motus_run_bridge_n_frames(d.br);
    if (!d.n || !d.m || motus_run_bridge_n_bodies(d.br) != d.m->nbody) return;
    gboolean trace = flag(self, "show-trace"), vel = flag(self, "show-velocity"), acc = flag(self, "show-acceleration");
    gboolean reac = flag(self, "show-reactions"), follow = flag(self, "follow"), split = flag(self, "split-acceleration");
    gboolean omega = flag(self, "show-omega"), icr = flag(self, "show-icr"), centrodes = flag(self, "show-centrodes");
    gboolean fbd = flag(self, "show-fbd");
    if (!trace && !vel && !acc && !reac && !follow && !omega && !icr && !centrodes && !fbd) return;
    d.cur = motus_run_bridge_frame_at(d.br, motus_session_get_time(self->session));
    d.L = motus_viewport_get_scale(self->viewport), d.f = user_scale(self);
    d.stride = MAX(1u, d.n / 400u); /* scales and traces from about 400 frames */
    d.pose = g_new(double, 7 * (d.m->nbody + 1));
    Tracked pts[16];
    int np = tracked_points(self, pts, 16);
    d.several = np > 1;
    Maxima mx = {0, 0, 0, 0};
    if (trace || vel || acc || omega || follow)
        for (int i = 0; i < np; i++) point_maxima(&d, &pts[i], &mx);
    for (int i = 0; i < np; i++)
        point_vectors(&d, &pts[i], &mx, trace, vel, acc, split, omega, follow && i == np - 1);
    for (int i = 0; i < np; i++) { /* once per body, however many of its points are shown */
        gboolean seen = FALSE;
        for (int j = 0; j < i; j++) seen |= pts[j].body == pts[i].body;
        if (seen) continue;
        if (icr || centrodes) body_icr(&d, pts[i].body, centrodes);
        if (fbd) body_fbd(&d, pts[i].body);
    }
    if (reac && d.m->njoint) joint_reactions(&d);
    if (np && vel) scale_bar(&d, 0, MT_DIM_VELOCITY, mx.v, vel_rgb); /* last: the vectors keep their places */
    if (np && acc) scale_bar(&d, 1, MT_DIM_ACCEL, mx.a, acc_rgb);
    g_free(d.pose);
}

/* Pins the selected body or marker (it keeps its vectors when another is selected), or unpins it. */
static void toggle_pin(MotusWindow *self, MtEditKind kind, int index)
{
    Tracked t;
    if (!motus_window_model(self) || !point_of(motus_window_model(self), kind, index, &t)) return;
    for (guint i = 0; i < self->teach_pins->len; i++) {
        const TeachPin *p = &g_array_index(self->teach_pins, TeachPin, i);
        if (p->kind == kind && p->index == index) {
            g_array_remove_index(self->teach_pins, i);
            motus_window_teach_update(self);
            return;
        }
    }
    TeachPin pin = {kind, index};
    g_array_append_val(self->teach_pins, pin);
    motus_window_teach_update(self);
}

static void act_pin(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    MotusWindow *self = data;
    toggle_pin(self, self->sel_kind, self->sel_index);
}

static void act_unpin_all(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    motus_window_teach_forget(data);
    motus_window_teach_update(data);
}

/* Ctrl+click on a body in the view: pin it, or unpin it (the selection stays). */
static void body_toggled(MotusViewport *vp, int body, gpointer data)
{
    (void)vp;
    MotusWindow *self = data;
    if (motus_window_model(self) && body >= 0 && body < motus_window_model(self)->nbody) toggle_pin(self, MT_EDIT_BODY, body);
}

void motus_window_teach_forget(MotusWindow *self)
{
    if (self->teach_pins) g_array_set_size(self->teach_pins, 0);
}

guint motus_window_teach_n_pinned(MotusWindow *self) { return self->teach_pins ? self->teach_pins->len : 0; }

static void toggle(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)p;
    g_autoptr(GVariant) st = g_action_get_state(G_ACTION(a));
    g_simple_action_set_state(a, g_variant_new_boolean(!g_variant_get_boolean(st)));
    motus_window_teach_update(data);
}

static void set_scale(GSimpleAction *a, GVariant *p, gpointer data)
{
    g_simple_action_set_state(a, p);
    motus_window_teach_update(data);
}

static GtkWidget *heading(const char *text)
{
    GtkWidget *l = gtk_label_new(text);
    gtk_label_set_xalign(GTK_LABEL(l), 0);
    gtk_widget_add_css_class(l, "heading");
    gtk_widget_set_margin_top(l, 6);
    return l;
}

/* The eye button's settings as check buttons in a popover that stays open while they are toggled (a menu
 * closed after every toggle: a lecturer switching on three things opened it three times). */
static void settings_popover(MotusWindow *self)
{
    static const struct {
        const char *action, *label;
    } checks[] = {{"win.show-trace", N_("_Trajectory")},
                  {"win.show-velocity", N_("_Velocity vector")},
                  {"win.show-acceleration", N_("_Acceleration vector")},
                  {"win.split-acceleration", N_("Acceleration as _tangential and normal parts")},
                  {"win.show-omega", N_("Angular velocity and acceleration (_ω, ε)")},
                  {"win.follow", N_("Camera _follows it")},
                  {"win.show-icr", N_("_Instantaneous centre of velocity")},
                  {"win.show-centrodes", N_("Fixed and moving _centrodes")},
                  {"win.show-fbd", N_("Free-body _diagram (with −m·a)")},
                  {"win.show-reactions", N_("Joint _reaction forces")}};
    static const char *const scales[] = {"0.25", "0.5", "1", "2", "4"};
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2);
    gtk_box_append(GTK_BOX(box), heading(_("Selected and pinned bodies or markers")));
    GtkWidget *pins = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4), *b;
    b = gtk_button_new_with_mnemonic(_("_Pin the selection"));
    gtk_widget_set_tooltip_text(b, _("Keep showing the selected body or marker when another is selected (Ctrl+click a body in "
                                     "the view does the same); again to unpin"));
    gtk_actionable_set_action_name(GTK_ACTIONABLE(b), "win.teach-pin");
    gtk_box_append(GTK_BOX(pins), b);
    b = gtk_button_new_with_mnemonic(_("_Unpin all"));
    gtk_actionable_set_action_name(GTK_ACTIONABLE(b), "win.teach-unpin-all");
    gtk_box_append(GTK_BOX(pins), b);
    gtk_box_append(GTK_BOX(box), pins);
    for (guint i = 0; i < G_N_ELEMENTS(checks); i++) {
        if (i == 6) gtk_box_append(GTK_BOX(box), heading(_("Plane motion and forces on the body")));
        if (i == 9) gtk_box_append(GTK_BOX(box), heading(_("Joints")));
        GtkWidget *c = gtk_check_button_new_with_mnemonic(_(checks[i].label));
        gtk_actionable_set_action_name(GTK_ACTIONABLE(c), checks[i].action);
        gtk_box_append(GTK_BOX(box), c);
    }
    gtk_box_append(GTK_BOX(box), heading(_("Meters over the view")));
    gtk_box_append(GTK_BOX(box), motus_window_meters_controls(self));
    gtk_box_append(GTK_BOX(box), heading(_("Vector length")));
    GtkWidget *row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4), *first = NULL;
    for (guint i = 0; i < G_N_ELEMENTS(scales); i++) {
        g_autofree char *label = g_strdup_printf("×%s", scales[i]);
        GtkWidget *r = gtk_check_button_new_with_label(label);
        if (first) gtk_check_button_set_group(GTK_CHECK_BUTTON(r), GTK_CHECK_BUTTON(first));
        else first = r;
        gtk_actionable_set_action_target(GTK_ACTIONABLE(r), "s", scales[i]);
        gtk_actionable_set_action_name(GTK_ACTIONABLE(r), "win.vector-scale");
        gtk_box_append(GTK_BOX(row), r);
    }
    gtk_box_append(GTK_BOX(box), row);
    GtkWidget *pop = gtk_popover_new();
    gtk_popover_set_child(GTK_POPOVER(pop), box);
    gtk_menu_button_set_popover(self->show_button, pop);
    motus_window_popover_gives_back_keys(self, GTK_POPOVER(pop));
}

void motus_window_teach_init(MotusWindow *self)
{
    static const GActionEntry entries[] = {
        {"show-trace", toggle, NULL, "false", NULL, {0}},
        {"show-velocity", toggle, NULL, "false", NULL, {0}},
        {"show-acceleration", toggle, NULL, "false", NULL, {0}},
        {"show-reactions", toggle, NULL, "false", NULL, {0}},
        {"follow", toggle, NULL, "false", NULL, {0}},
        {"split-acceleration", toggle, NULL, "false", NULL, {0}},
        {"show-omega", toggle, NULL, "false", NULL, {0}},
        {"show-icr", toggle, NULL, "false", NULL, {0}},
        {"show-centrodes", toggle, NULL, "false", NULL, {0}},
        {"show-fbd", toggle, NULL, "false", NULL, {0}},
        {"vector-scale", set_scale, "s", "'1'", NULL, {0}},
        {"teach-pin", act_pin, NULL, NULL, NULL, {0}},
        {"teach-unpin-all", act_unpin_all, NULL, NULL, NULL, {0}},
    };
    g_action_map_add_action_entries(G_ACTION_MAP(self), entries, G_N_ELEMENTS(entries), self);
    self->teach_pins = g_array_new(FALSE, FALSE, sizeof(TeachPin));
    g_signal_connect(self->viewport, "body-toggled", G_CALLBACK(body_toggled), self);
    settings_popover(self);
}
