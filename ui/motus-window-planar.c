/* motus-window-planar.c — planar mode, a 2-D editor for mechanisms in the
 * project's x–y plane (a private part of MotusWindow, motus-window-private.h):
 * the "planar" action (key 2, the view's "2D" button) that turns the view
 * into an orthographic view of the plane with its grid (motus-viewport.h),
 * the palette of planar tools (disc, bar, rectangle, pin, slider, rolling, gear, rope),
 * and placing their points by clicks that snap to the points of the bodies
 * and to the grid, or by coordinates typed in the pick bar ("0.25, 0.1").
 * Points of the plane have z = 0; joint axes are the project's z (a slider's
 * in the plane). What is built is an ordinary model; the mode itself is not
 * saved (docs/user-guide.md). */
#include <math.h>
#include <string.h>

#include "motus-dialog.h"
#include "motus-i18n.h"
#include "motus-window-private.h"
#include "motus/units.h"

#define SNAP_PX 10 /* a point of a body this near on screen wins over the grid */

static const float pick_rgb[3] = {0.95f, 0.45f, 0.05f};

static gboolean planar(MotusWindow *self) { return motus_viewport_get_planar(self->viewport); }

/* Points the current planar step needs in all (-1: this pick takes no planar points). */
static int points_needed(MotusWindow *self)
{
    if (self->pick == PICK_PLANAR) return !strcmp(self->pick_type, "gear") || !strcmp(self->pick_type, "rope") ? 3 : 2;
    if (self->pick != PICK_JOINT || !planar(self)) return -1;
    return !strcmp(self->pick_type, "prismatic") || !strcmp(self->pick_type, "rolling") ? 2 : 1;
}

/* Index of the planar point the next click gives (-1: the step wants a body). */
static int point_index(MotusWindow *self)
{
    if (self->pick == PICK_PLANAR) return self->pick_step;
    if (points_needed(self) < 0 || self->pick_step < 2) return -1;
    return self->pick_step - 2;
}

const char *motus_window_planar_prompt(MotusWindow *self)
{
    int k = point_index(self);
    if (k < 0) return NULL;
    const char *t = self->pick_type;
    if (!strcmp(t, "disc"))
        return k == 0 ? _("New disc: click its centre (snaps to points and to the grid) or type x, y and Enter")
                      : _("New disc: click a point of its rim");
    if (!strcmp(t, "bar"))
        return k == 0 ? _("New bar: click one end (snaps to points and to the grid) or type x, y and Enter")
                      : _("New bar: click the other end");
    if (!strcmp(t, "rect"))
        return k == 0 ? _("New rectangle: click a corner (snaps to points and to the grid) or type x, y and Enter")
                      : _("New rectangle: click the opposite corner");
    if (!strcmp(t, "gear"))
        return k == 0   ? _("New gear contact: click the first gear's pin")
               : k == 1 ? _("New gear contact: click the second gear's pin")
                        : _("New gear contact: click the contact point between the pins (it sets the two pitch radii)");
    if (!strcmp(t, "rope"))
        return k == 0   ? _("New rope over a pulley: click the first slider's point")
               : k == 1 ? _("New rope over a pulley: click the second slider's point")
                        : _("New rope over a pulley: click the pulley");
    if (!strcmp(t, "prismatic"))
        return k == 0 ? _("New slider: click a point of its line (snaps to points and to the grid) or type x, y")
                      : _("New slider: click a second point: the direction it slides along");
    if (!strcmp(t, "rolling"))
        return k == 0 ? _("Rolling without slipping: click the disc's centre")
                      : _("Rolling without slipping: click the contact point on the surface it rolls on (the "
                          "distance is the radius)");
    return _("New joint: click the joint point (snaps to points of the bodies and to the grid) or type x, y and "
             "Enter; the axis is the project's z");
}

/* Where a click at (x, y) places its point: the nearest point of a body (centres, markers, faces, corners)
 * within SNAP_PX on screen, else the nearest grid node; in the plane z = 0. kind says which. */
static gboolean planar_snap(MotusWindow *self, double x, double y, double p[3], const char **kind)
{
    const MtModel *m = motus_window_model(self);
    double q[3];
    if (!m || !motus_viewport_plane_point(self->viewport, x, y, q)) return FALSE;
    double best = SNAP_PX * SNAP_PX;
    gboolean found = FALSE;
    MtSnapPoint pts[512];
    for (int b = -1; b < m->nbody; b++) {
        int n = mt_edit_snap_points(m, b, pts, G_N_ELEMENTS(pts));
        for (int i = 0; i < n; i++) {
            double w[3], sx, sy;
            if (!motus_viewport_body_to_world(self->viewport, b, pts[i].p, w)) continue;
            w[2] = 0; /* the point of the plane in front of it */
            if (!motus_viewport_project_point(self->viewport, w, &sx, &sy)) continue;
            double d = (sx - x) * (sx - x) + (sy - y) * (sy - y);
            if (d < best) {
                best = d, found = TRUE;
                memcpy(p, w, sizeof w);
                *kind = mt_snap_kind_name(pts[i].kind);
            }
        }
    }
    if (!found) {
        motus_viewport_snap_grid(self->viewport, q, p);
        /* TRANSLATORS: what a placed point snapped to in planar mode */
        *kind = _("grid");
    }
    return TRUE;
}

static char *point_label(MotusWindow *self, const double p[3], const char *kind)
{
    char a[48], b[48];
    const MtUnit *u = mt_edit_display_unit(motus_window_model(self), MT_DIM_LENGTH);
    mt_units_format(mt_unit_from_si(u, p[1]), NULL, 0, b, sizeof b);
    mt_units_format(mt_unit_from_si(u, p[0]), NULL, 0, a, sizeof a);
    return g_strdup_printf("(%s, %s) %s%s%s", a, b, mt_unit_label(u), kind ? " · " : "", kind ? kind : "");
}

/* The joint of a type whose point is nearest to p (the pins of gears, the sliders of a rope), or -1;
 * its point and axis (z of its marker j) in project axes. */
static int joint_near(MotusWindow *self, MtJointType type, const double p[3], double at[3], double axis[3])
{
    const MtModel *m = motus_window_model(self);
    int best = -1;
    double bd = INFINITY;
    for (int j = 0; j < m->njoint; j++) {
        if (m->joint[j].type != type) continue;
        const MtMarkerSpec *mk = &m->marker[m->joint[j].mj];
        double w[3];
        if (!motus_viewport_body_to_world(self->viewport, mk->body, mk->pos, w)) continue;
        double d = hypot(w[0] - p[0], w[1] - p[1]);
        if (d < bd) {
            bd = d, best = j;
            memcpy(at, w, sizeof w);
            const double z[3] = {mk->rot[2], mk->rot[5], mk->rot[8]}, o[3] = {0, 0, 0};
            double tip[3], base[3];
            motus_viewport_body_to_world(self->viewport, mk->body, z, tip);
            motus_viewport_body_to_world(self->viewport, mk->body, o, base);
            for (int k = 0; k < 3; k++) axis[k] = tip[k] - base[k];
        }
    }
    return best;
}

static void refused(MotusWindow *self, const char *title, const char *msg)
{
    motus_window_set_status(self, msg);
    gtk_widget_add_css_class(GTK_WIDGET(self->status_label), "error");
    motus_window_error_dialog(self, title, msg);
}

static void added(MotusWindow *self, MtEditKind kind, int index)
{
    gtk_widget_remove_css_class(GTK_WIDGET(self->status_label), "error");
    self->sel_kind = kind;
    self->sel_index = index;
    motus_window_model_changed(self);
    motus_window_set_status(self, mt_editor_undo_label(motus_window_editor(self)));
}

/* A body from the two points of a disc (centre, rim), a rectangle (corners) or a bar (ends: a tenth of
 * its length wide, its x along it): steel, 10 mm thick or thinner for small ones. */
static void finish_body(MotusWindow *self)
{
    const double *a = self->pick_point[0], *b = self->pick_point[1];
    MtBodyDef d;
    mt_body_def_default(&d);
    gboolean disc = !strcmp(self->pick_type, "disc"), bar = !strcmp(self->pick_type, "bar");
    double dx = fabs(b[0] - a[0]), dy = fabs(b[1] - a[1]), r = hypot(b[0] - a[0], b[1] - a[1]);
    motus_window_pick_cancel(self);
    if ((disc || bar) && !(r > 0)) {
        refused(self, _("Cannot add the body"), _("the two points are the same: click two different points"));
        return;
    }
    if (bar) {
        d.size[0] = r, d.size[1] = r / 10, d.size[2] = fmin(0.01, r / 20);
        d.turn_z = atan2(b[1] - a[1], b[0] - a[0]);
        d.pos[0] = (a[0] + b[0]) / 2, d.pos[1] = (a[1] + b[1]) / 2;
    } else if (disc) {
        d.shape = MT_SHAPE_CYLINDER; /* its axis along z: a disc in the plane */
        d.size[0] = r;
        d.size[1] = fmin(0.01, r / 2);
        memcpy(d.pos, a, sizeof d.pos);
    } else {
        d.size[0] = dx, d.size[1] = dy, d.size[2] = fmin(0.01, fmin(dx, dy) / 2);
        d.pos[0] = (a[0] + b[0]) / 2, d.pos[1] = (a[1] + b[1]) / 2;
    }
    d.pos[2] = 0;
    MtError err = {0};
    int idx = -1;
    if (mt_edit_add_body(motus_window_editor(self), &d, &idx, &err) != MT_OK) {
        refused(self, _("Cannot add the body"), err.msg);
        return;
    }
    added(self, MT_EDIT_BODY, idx);
}

/* A taut rope over a pulley between two sliders: each side shortens by the slide towards the pulley, so
 * ±xa ± xb = const (+ where the slider's axis points towards the pulley). */
static void finish_rope(MotusWindow *self)
{
    double A[3], B[3], a[3], b[3];
    int ja = joint_near(self, MT_JOINT_PRISMATIC, self->pick_point[0], A, a);
    int jb = joint_near(self, MT_JOINT_PRISMATIC, self->pick_point[1], B, b);
    const double *P = self->pick_point[2];
    motus_window_pick_cancel(self);
    if (ja < 0 || jb < 0 || ja == jb) {
        refused(self, _("Cannot add the rope"), _("a rope over a pulley joins two sliders: place the two sliders first"));
        return;
    }
    double da = a[0] * (P[0] - A[0]) + a[1] * (P[1] - A[1]), db = b[0] * (P[0] - B[0]) + b[1] * (P[1] - B[1]);
    if (da == 0 || db == 0) {
        refused(self, _("Cannot add the rope"), _("a slider runs across the line to the pulley: the rope would not pull along it"));
        return;
    }
    MtError err = {0};
    int idx = -1;
    if (mt_edit_add_coupler(motus_window_editor(self), "", ja, jb, da > 0 ? 1 : -1, db > 0 ? 1 : -1, &idx, &err) != MT_OK) {
        refused(self, _("Cannot add the rope"), err.msg);
        return;
    }
    added(self, MT_EDIT_COUPLE, idx);
}

static void finish_gear(MotusWindow *self)
{
    double A[3], B[3], ax[3];
    int ja = joint_near(self, MT_JOINT_REVOLUTE, self->pick_point[0], A, ax);
    int jb = joint_near(self, MT_JOINT_REVOLUTE, self->pick_point[1], B, ax);
    motus_window_pick_cancel(self);
    if (ja < 0 || jb < 0 || ja == jb) {
        refused(self, _("Cannot add the gear contact"),
                _("a gear contact joins two pins (revolute joints): place the two pins first"));
        return;
    }
    const double *c = self->pick_point[2];
    MtError err = {0};
    int idx = -1;
    if (mt_edit_add_gear(motus_window_editor(self), "", ja, jb, hypot(c[0] - A[0], c[1] - A[1]),
                         hypot(c[0] - B[0], c[1] - B[1]), &idx, &err) != MT_OK) {
        refused(self, _("Cannot add the gear contact"), err.msg);
        return;
    }
    added(self, MT_EDIT_COUPLE, idx);
}

/* Pin (revolute about z), slider (prismatic along the line of its two points) or rolling (disc centre,
 * contact point: the radius is their distance, the surface's normal points from the contact to the centre). */
static void finish_joint(MotusWindow *self)
{
    MtJointType t = MT_JOINT_REVOLUTE;
    mt_joint_type_from_name(self->pick_type, &t);
    int bi = self->pick_body[0], bj = self->pick_body[1];
    double p0[3], p1[3], z[3] = {0, 0, 1}, d[3];
    memcpy(p0, self->pick_point[0], sizeof p0);
    memcpy(p1, self->pick_point[1], sizeof p1);
    for (int k = 0; k < 3; k++) d[k] = p1[k] - p0[k];
    double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    motus_window_pick_cancel(self);
    MtError err = {0};
    int j = -1;
    MtStatus rc;
    if ((t == MT_JOINT_PRISMATIC || t == MT_JOINT_ROLLING) && !(len > 0)) {
        refused(self, _("Cannot add the joint"), _("the two points are the same: click two different points"));
        return;
    }
    if (t == MT_JOINT_PRISMATIC) {
        for (int k = 0; k < 3; k++) d[k] /= len;
        rc = mt_edit_add_joint(motus_window_editor(self), "", t, bi, bj, p0, d, &j, &err);
    } else if (t == MT_JOINT_ROLLING) {
        for (int k = 0; k < 3; k++) d[k] = -d[k] / len;
        rc = mt_edit_add_joint_at(motus_window_editor(self), "", t, bi, p0, z, bj, p1, d, len, &j, &err);
    } else {
        double axis[3];
        guint i = gtk_drop_down_get_selected(self->pick_axis);
        axis[0] = axis[1] = axis[2] = 0;
        axis[i < 3 ? i : 2] = 1;
        rc = mt_edit_add_joint(motus_window_editor(self), "", t, bi, bj, p0, axis, &j, &err);
    }
    if (rc != MT_OK) {
        refused(self, _("Cannot add the joint"), err.msg);
        return;
    }
    added(self, MT_EDIT_JOINT, j);
}

gboolean motus_window_planar_place(MotusWindow *self, const double p[3])
{
    int k = point_index(self);
    if (k < 0 || k >= 3) return FALSE;
    memcpy(self->pick_point[k], p, 3 * sizeof(double));
    self->pick_point[k][2] = 0;
    g_autofree char *label = point_label(self, self->pick_point[k], NULL);
    motus_viewport_add_overlay_point(self->viewport, self->pick_point[k], pick_rgb, label);
    if (k + 1 < points_needed(self)) {
        self->pick_step++;
        const char *t = motus_window_planar_prompt(self);
        gtk_label_set_text(self->pick_label, t);
        motus_window_set_status(self, t);
        return TRUE;
    }
    if (self->pick == PICK_JOINT) finish_joint(self);
    else if (!strcmp(self->pick_type, "gear")) finish_gear(self);
    else if (!strcmp(self->pick_type, "rope")) finish_rope(self);
    else finish_body(self);
    return TRUE;
}

gboolean motus_window_planar_click(MotusWindow *self, double x, double y)
{
    if (point_index(self) < 0) return FALSE;
    double p[3];
    const char *kind = NULL;
    if (!planar_snap(self, x, y, p, &kind)) return FALSE;
    motus_viewport_set_snap_mark(self->viewport, NULL, NULL);
    return motus_window_planar_place(self, p);
}

/* "x, y" (or "x; y", "x y") in the display unit, or with units ("250 mm, 0.1 m"). */
gboolean motus_window_planar_parse(MotusWindow *self, const char *text, double p[3], GError **error)
{
    g_auto(GStrv) parts = g_strsplit_set(text, strchr(text, ';') ? ";" : strchr(text, ',') ? "," : " \t", -1);
    const char *xy[2] = {NULL, NULL};
    int n = 0;
    for (int i = 0; parts[i]; i++) {
        g_strstrip(parts[i]);
        if (!parts[i][0]) continue;
        if (n == 2) n = 3;
        else xy[n++] = parts[i];
    }
    if (n != 2) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s",
                    _("type the point as x, y (two lengths, e.g. 0.25, 0.1)"));
        return FALSE;
    }
    const MtUnit *u = mt_edit_display_unit(motus_window_model(self), MT_DIM_LENGTH);
    for (int k = 0; k < 2; k++) {
        MtError err = {0};
        g_autofree char *typed = motus_delocalise(xy[k]);
        if (mt_units_parse(typed, MT_DIM_LENGTH, u ? u->name : NULL, &p[k], &err) != MT_OK) {
            g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: %s", k ? "y" : "x", err.msg);
            return FALSE;
        }
    }
    p[2] = 0;
    return TRUE;
}

static void coord_activated(GtkEntry *e, gpointer data)
{
    MotusWindow *self = data;
    if (point_index(self) < 0) {
        motus_window_set_status(self, _("Click a body first; coordinates place the points after it"));
        return;
    }
    double p[3];
    g_autoptr(GError) error = NULL;
    if (!motus_window_planar_parse(self, gtk_editable_get_text(GTK_EDITABLE(e)), p, &error)) {
        motus_window_set_status(self, error->message);
        gtk_widget_add_css_class(GTK_WIDGET(e), "error");
        return;
    }
    gtk_widget_remove_css_class(GTK_WIDGET(e), "error");
    gtk_editable_set_text(GTK_EDITABLE(e), "");
    motus_window_planar_place(self, p);
    if (self->pick != PICK_NONE) gtk_widget_grab_focus(GTK_WIDGET(e)); /* the next point typed at once */
}

/* The pointer over the view while a point is wanted: the mark where a click would put it. */
static void pointer_moved(GtkEventControllerMotion *c, double x, double y, gpointer data)
{
    (void)c;
    MotusWindow *self = data;
    double p[3];
    const char *kind = NULL;
    if (point_index(self) < 0 || !planar_snap(self, x, y, p, &kind)) {
        if (motus_viewport_get_snap_mark(self->viewport, NULL)) motus_viewport_set_snap_mark(self->viewport, NULL, NULL);
        return;
    }
    g_autofree char *label = point_label(self, p, kind);
    motus_viewport_set_snap_mark(self->viewport, p, label);
}

static void pointer_left(GtkEventControllerMotion *c, gpointer data)
{
    (void)c;
    MotusWindow *self = data;
    motus_viewport_set_snap_mark(self->viewport, NULL, NULL);
}

/* The pick bar: the coordinates entry shows where points are placed in planar mode. */
void motus_window_planar_pick_changed(MotusWindow *self)
{
    gboolean want = self->pick != PICK_NONE && points_needed(self) > 0;
    gtk_widget_set_visible(self->coord_entry, want);
    if (self->pick == PICK_JOINT && planar(self)) gtk_drop_down_set_selected(self->pick_axis, 2);
    /* a slider's direction and a rolling disc's normal come from their points */
    gtk_widget_set_visible(GTK_WIDGET(self->pick_axis), self->pick == PICK_JOINT && points_needed(self) != 2);
    if (self->pick == PICK_NONE) motus_viewport_set_snap_mark(self->viewport, NULL, NULL);
}

gboolean motus_window_set_planar(MotusWindow *self, gboolean on)
{
    if (self->pick != PICK_NONE) motus_window_pick_cancel(self);
    motus_viewport_set_planar(self->viewport, on);
    gtk_widget_set_visible(self->planar_bar, on);
    GAction *a = g_action_map_lookup_action(G_ACTION_MAP(self), "planar");
    g_simple_action_set_state(G_SIMPLE_ACTION(a), g_variant_new_boolean(on));
    motus_window_set_status(self, on ? _("Planar mode: the x–y plane from the front; drag to pan, wheel to zoom; "
                                         "points snap to the grid and to the bodies' points (2 leaves it)")
                                     : _("3D view"));
    return on;
}

static void act_planar(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)p;
    g_autoptr(GVariant) s = g_action_get_state(G_ACTION(a));
    motus_window_set_planar(data, !g_variant_get_boolean(s));
}

static void act_planar_add(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a;
    MotusWindow *self = data;
    const char *what = g_variant_get_string(p, NULL);
    if (!motus_window_editor(self)) return;
    if (!planar(self)) motus_window_set_planar(self, TRUE);
    if (!strcmp(what, "pin") || !strcmp(what, "slider") || !strcmp(what, "rolling")) {
        motus_window_pick_start(self, PICK_JOINT, !strcmp(what, "pin") ? "revolute" : !strcmp(what, "slider") ? "prismatic" : "rolling");
    } else {
        motus_window_pick_start(self, PICK_PLANAR, what);
    }
}

static GtkWidget *tool(const char *label, const char *target, const char *tip)
{
    GtkWidget *b = gtk_button_new_with_label(label);
    gtk_actionable_set_action_name(GTK_ACTIONABLE(b), "win.planar-add");
    gtk_actionable_set_action_target(GTK_ACTIONABLE(b), "s", target);
    gtk_widget_set_tooltip_text(b, tip);
    gtk_widget_set_focus_on_click(b, FALSE);
    return b;
}

void motus_window_planar_init(MotusWindow *self)
{
    static const GActionEntry entries[] = {
        {"planar", act_planar, NULL, "false", NULL, {0}},
        {"planar-add", act_planar_add, "s", NULL, NULL, {0}},
    };
    g_action_map_add_action_entries(G_ACTION_MAP(self), entries, G_N_ELEMENTS(entries), self);

    /* TRANSLATORS: the view's button of planar mode (a 2-D editor of the x–y plane) */
    GtkWidget *b = gtk_toggle_button_new_with_label(_("2D"));
    gtk_actionable_set_action_name(GTK_ACTIONABLE(b), "win.planar");
    gtk_widget_set_tooltip_text(b, _("Planar mode: edit in the x–y plane with a grid (2)"));
    gtk_widget_set_focus_on_click(b, FALSE);
    motus_viewport_add_tool(self->viewport, b);

    /* the palette, shown in planar mode */
    GtkWidget *bar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4);
    motus_set_margins(bar, 8, 4);
    GtkWidget *title = gtk_label_new(_("Planar:"));
    gtk_widget_add_css_class(title, "dim-label");
    gtk_box_append(GTK_BOX(bar), title);
    gtk_box_append(GTK_BOX(bar), tool(_("Disc"), "disc", _("A disc: click its centre, then its rim")));
    gtk_box_append(GTK_BOX(bar), tool(_("Bar"), "bar", _("A bar: click its two ends")));
    gtk_box_append(GTK_BOX(bar), tool(_("Rectangle"), "rect", _("A rectangle: click two opposite corners")));
    gtk_box_append(GTK_BOX(bar), tool(_("Pin"), "pin", _("A pin (revolute joint about z): click the moving body, the base "
                                                          "(or empty space for the ground), then the pin's point")));
    gtk_box_append(GTK_BOX(bar), tool(_("Slider"), "slider", _("A slider (prismatic joint in the plane): click the two "
                                                                "bodies, then two points of its line")));
    gtk_box_append(GTK_BOX(bar), tool(_("Rolling"), "rolling", _("Rolling without slipping: click the disc, the surface's "
                                                                  "body, the disc's centre and the contact point")));
    gtk_box_append(GTK_BOX(bar), tool(_("Gear"), "gear", _("Gear contact between two pins: click the two pins and the "
                                                            "contact point")));
    gtk_box_append(GTK_BOX(bar), tool(_("Rope"), "rope", _("A rope over a pulley between two sliders: click the two sliders "
                                                            "and the pulley (taut and inextensible: it never goes slack)")));
    gtk_widget_set_visible(bar, FALSE);
    /* above the pick bar: its buttons stay where they are when the pick bar slides in and out */
    gtk_box_prepend(GTK_BOX(gtk_widget_get_parent(GTK_WIDGET(self->viewport))), bar);
    self->planar_bar = bar;

    /* typed coordinates, in the pick bar before the axis */
    self->coord_entry = gtk_entry_new();
    gtk_entry_set_placeholder_text(GTK_ENTRY(self->coord_entry), _("x, y"));
    gtk_widget_set_tooltip_text(self->coord_entry, _("Type the point's coordinates and press Enter (display units, or "
                                                     "with units: 250 mm, 0.1)"));
    gtk_editable_set_width_chars(GTK_EDITABLE(self->coord_entry), 14);
    gtk_widget_set_visible(self->coord_entry, FALSE);
    g_signal_connect(self->coord_entry, "activate", G_CALLBACK(coord_activated), self);
    gtk_box_insert_child_after(GTK_BOX(gtk_widget_get_parent(GTK_WIDGET(self->pick_label))), self->coord_entry,
                               GTK_WIDGET(self->pick_label));

    GtkEventController *motion = gtk_event_controller_motion_new();
    g_signal_connect(motion, "motion", G_CALLBACK(pointer_moved), self);
    g_signal_connect(motion, "leave", G_CALLBACK(pointer_left), self);
    gtk_widget_add_controller(motus_viewport_get_gl_area(self->viewport), motion);
}
