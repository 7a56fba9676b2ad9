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

static const float trace_rgb[3] = {0.55f, 0.10f, 0.65f}, vel_rgb[3] = {0.05f, 0.45f, 0.15f},
                   acc_rgb[3] = {0.85f, 0.35f, 0.0f}, force_rgb[3] = {0.80f, 0.05f, 0.10f},
                   accn_rgb[3] = {0.70f, 0.55f, 0.0f}, omega_rgb[3] = {0.10f, 0.30f, 0.85f}, eps_rgb[3] = {0.35f, 0.15f, 0.70f};

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

/* The point followed: body and point in body axes, from the selection. */
static gboolean tracked_point(MotusWindow *self, int *body, double p[3])
{
    const MtModel *m = motus_window_model(self);
    if (!m) return FALSE;
    if (self->sel_kind == MT_EDIT_BODY && self->sel_index >= 0) {
        *body = self->sel_index;
        memcpy(p, m->body[*body].com, 3 * sizeof(double));
        return TRUE;
    }
    if (self->sel_kind == MT_EDIT_MARKER && m->marker[self->sel_index].body >= 0) {
        *body = m->marker[self->sel_index].body;
        memcpy(p, m->marker[self->sel_index].pos, 3 * sizeof(double));
        return TRUE;
    }
    return FALSE;
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

static void rot_of(const double *q, double R[9])
{
    double w = q[0], a = q[1], b = q[2], c = q[3];
    double n = w * w + a * a + b * b + c * c;
    if (n > 0) w /= sqrt(n), a /= sqrt(n), b /= sqrt(n), c /= sqrt(n);
    R[0] = 1 - 2 * (b * b + c * c), R[1] = 2 * (a * b - w * c), R[2] = 2 * (a * c + w * b);
    R[3] = 2 * (a * b + w * c), R[4] = 1 - 2 * (a * a + c * c), R[5] = 2 * (b * c - w * a);
    R[6] = 2 * (a * c - w * b), R[7] = 2 * (b * c + w * a), R[8] = 1 - 2 * (a * a + b * b);
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
    rot_of(o + 3, R);
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

void motus_window_teach_update(MotusWindow *self)
{
    if (self->pick != PICK_NONE) return; /* the overlay shows the picked points */
    motus_viewport_clear_overlay(self->viewport);
    guint n = motus_run_bridge_n_frames(motus_window_bridge(self));
    const MtModel *m = motus_window_model(self);
    if (!n || !m || motus_run_bridge_n_bodies(motus_window_bridge(self)) != m->nbody) return;
    gboolean trace = flag(self, "show-trace"), vel = flag(self, "show-velocity"), acc = flag(self, "show-acceleration");
    gboolean reac = flag(self, "show-reactions"), follow = flag(self, "follow"), split = flag(self, "split-acceleration");
    gboolean omega = flag(self, "show-omega");
    if (!trace && !vel && !acc && !reac && !follow && !omega) return;
    guint cur = motus_run_bridge_frame_at(motus_window_bridge(self), motus_session_get_time(self->session));
    double L = motus_viewport_get_scale(self->viewport), f = user_scale(self);
    guint stride = MAX(1u, n / 400u); /* scales and traces from about 400 frames */
    double *pose = g_new(double, 7 * (m->nbody + 1));
    int body;
    double p[3];
    if (tracked_point(self, &body, p)) {
        static const char *const vs[] = {"vx", "vy", "vz"}, *const ws[] = {"wx", "wy", "wz"},
                                 *const as[] = {"ax", "ay", "az"}, *const es[] = {"ex", "ey", "ez"};
        BodyCols bc;
        const char *bn = m->body[body].name;
        cols3(self, bn, vs, bc.v);
        cols3(self, bn, ws, bc.w);
        cols3(self, bn, as, bc.a);
        cols3(self, bn, es, bc.e);
        double x[3], v[3], a[3], vmax = 0, amax = 0, wmax = 0, emax = 0;
        GArray *pts = g_array_new(FALSE, FALSE, sizeof(double));
        for (guint i = 0; i < n; i += stride)
            if (point_state(self, &bc, body, p, i, pose, x, v, a)) {
                double w[3], e[3];
                body_rates(self, &bc, i, w, e);
                vmax = fmax(vmax, norm3(v));
                amax = fmax(amax, norm3(a));
                wmax = fmax(wmax, norm3(w));
                emax = fmax(emax, norm3(e));
                if (i <= cur) g_array_append_vals(pts, x, 3);
            }
        if (point_state(self, &bc, body, p, cur, pose, x, v, a)) {
            g_array_append_vals(pts, x, 3);
            if (trace) motus_viewport_add_overlay_line(self->viewport, (double *)pts->data, pts->len / 3, trace_rgb);
            char label[64], q[48];
            if (vel && vmax > 0) {
                double s = 0.3 * L * f / vmax, d[3] = {v[0] * s, v[1] * s, v[2] * s};
                quantity_text(self, MT_DIM_VELOCITY, norm3(v), q, sizeof q);
                g_snprintf(label, sizeof label, "v = %s", q);
                motus_viewport_add_overlay_arrow(self->viewport, x, d, vel_rgb, label);
            }
            if (acc && amax > 0 && split && norm3(v) > 1e-12 * vmax) { /* tangential and normal parts */
                double vn = norm3(v), at = (a[0] * v[0] + a[1] * v[1] + a[2] * v[2]) / vn, s = 0.3 * L * f / amax;
                double dt[3], dn[3];
                for (int k = 0; k < 3; k++) dt[k] = at * v[k] / vn * s, dn[k] = (a[k] - at * v[k] / vn) * s;
                quantity_text(self, MT_DIM_ACCEL, at, q, sizeof q);
                g_snprintf(label, sizeof label, "aτ = %s", q);
                motus_viewport_add_overlay_arrow(self->viewport, x, dt, acc_rgb, label);
                quantity_text(self, MT_DIM_ACCEL, norm3(dn) / s, q, sizeof q);
                g_snprintf(label, sizeof label, "an = %s", q);
                motus_viewport_add_overlay_arrow(self->viewport, x, dn, accn_rgb, label);
            } else if (acc && amax > 0) {
                double s = 0.3 * L * f / amax, d[3] = {a[0] * s, a[1] * s, a[2] * s};
                quantity_text(self, MT_DIM_ACCEL, norm3(a), q, sizeof q);
                g_snprintf(label, sizeof label, "a = %s", q);
                motus_viewport_add_overlay_arrow(self->viewport, x, d, acc_rgb, label);
            }
            if (omega) { /* ω and ε as axial arrows at the point (right-hand rule) */
                double w[3], e[3];
                body_rates(self, &bc, cur, w, e);
                if (wmax > 0) {
                    double s = 0.3 * L * f / wmax, d[3] = {w[0] * s, w[1] * s, w[2] * s};
                    quantity_text(self, MT_DIM_ANGVEL, norm3(w), q, sizeof q);
                    g_snprintf(label, sizeof label, "ω = %s", q);
                    motus_viewport_add_overlay_arrow(self->viewport, x, d, omega_rgb, label);
                }
                if (emax > 0) {
                    double s = 0.3 * L * f / emax, d[3] = {e[0] * s, e[1] * s, e[2] * s};
                    quantity_text(self, MT_DIM_ANGACC, norm3(e), q, sizeof q);
                    g_snprintf(label, sizeof label, "ε = %s", q);
                    motus_viewport_add_overlay_arrow(self->viewport, x, d, eps_rgb, label);
                }
            }
            if (follow) motus_viewport_look_at(self->viewport, x);
        }
        g_array_unref(pts);
    }
    if (reac && m->njoint) {
        static const char *const fs[] = {"Fx", "Fy", "Fz"};
        int(*fc)[3] = g_malloc_n((gsize)m->njoint, sizeof *fc);
        double fmax_ = 0;
        for (int j = 0; j < m->njoint; j++) cols3(self, m->joint[j].name, fs, fc[j]);
        for (guint i = 0; i < n; i += stride)
            for (int j = 0; j < m->njoint; j++) {
                double F[3];
                for (int k = 0; k < 3; k++) F[k] = motus_run_bridge_value(motus_window_bridge(self), fc[j][k], i);
                if (isfinite(norm3(F))) fmax_ = fmax(fmax_, norm3(F));
            }
        if (fmax_ > 0 && motus_run_bridge_get_frame(motus_window_bridge(self), cur, NULL, pose)) {
            motus_viewport_set_poses(self->viewport, pose);
            for (int j = 0; j < m->njoint; j++) {
                const MtMarkerSpec *mk = &m->marker[m->joint[j].mi];
                double x[3], F[3];
                for (int k = 0; k < 3; k++) F[k] = motus_run_bridge_value(motus_window_bridge(self), fc[j][k], cur);
                if (!isfinite(norm3(F)) || !motus_viewport_body_to_world(self->viewport, mk->body, mk->pos, x)) continue;
                double s = 0.3 * L * f / fmax_, d[3] = {F[0] * s, F[1] * s, F[2] * s};
                char q[48];
                quantity_text(self, MT_DIM_FORCE, norm3(F), q, sizeof q);
                g_autofree char *label = g_strdup_printf("%s: F = %s", m->joint[j].name, q);
                motus_viewport_add_overlay_arrow(self->viewport, x, d, force_rgb, label);
            }
        }
        g_free(fc);
    }
    g_free(pose);
}

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
                  {"win.show-reactions", N_("Joint _reaction forces")}};
    static const char *const scales[] = {"0.25", "0.5", "1", "2", "4"};
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2);
    gtk_box_append(GTK_BOX(box), heading(_("Selected body or marker")));
    for (guint i = 0; i < G_N_ELEMENTS(checks); i++) {
        if (i == 6) gtk_box_append(GTK_BOX(box), heading(_("Joints")));
        GtkWidget *c = gtk_check_button_new_with_mnemonic(_(checks[i].label));
        gtk_actionable_set_action_name(GTK_ACTIONABLE(c), checks[i].action);
        gtk_box_append(GTK_BOX(box), c);
    }
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
        {"vector-scale", set_scale, "s", "'1'", NULL, {0}},
    };
    g_action_map_add_action_entries(G_ACTION_MAP(self), entries, G_N_ELEMENTS(entries), self);
    settings_popover(self);
}
