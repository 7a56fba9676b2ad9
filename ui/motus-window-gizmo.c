/* motus-window-gizmo.c — the move/rotate gizmo of the main window (the
 * drawing and the drag are the view's, motus-viewport.h):
 * - the action "gizmo" ("move", "turn" or "off"; G and R in the view, the
 *   Move and Turn buttons over it; the same again hides it);
 * - where it goes: the selected body at its initial position, arrows and
 *   rings along the project axes (position and orientation are set in project
 *   axes); the selected marker at its place, arrows along its body's axes (its
 *   position is set in body axes); a marker has no rings;
 * - when it shows: only while the view shows the model as built — not while
 *   a run goes, during playback, or while a frame of a run is shown (asking
 *   for the gizmo then stops playback and shows the model as built);
 * - what a drag does: one edit that undo takes back, through mt_edit: a
 *   coordinate of the body's position or of the marker's set in SI ("0.125 m",
 *   written with every digit), or a turn about a project axis (motus/edit_turn.h).
 * A private part of MotusWindow (motus-window-private.h). */
#include <math.h>
#include <stdio.h>

#include "motus-i18n.h"
#include "motus-window-private.h"
#include "motus/edit_turn.h"

static MotusGizmoMode mode_of(const char *s)
{
    return !g_strcmp0(s, "move") ? MOTUS_GIZMO_MOVE : !g_strcmp0(s, "turn") ? MOTUS_GIZMO_TURN : MOTUS_GIZMO_OFF;
}

void motus_window_gizmo_refresh(MotusWindow *self)
{
    const MtModel *m = motus_window_model(self);
    MotusGizmoMode mode = self->gizmo_mode;
    if (!m || motus_run_bridge_is_running(motus_window_bridge(self)) || motus_session_get_playing(self->session) ||
        self->frame_shown || self->pick != PICK_NONE)
        mode = MOTUS_GIZMO_OFF;
    double origin[3] = {0, 0, 0}, axes[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    int body = -1;
    if (mode != MOTUS_GIZMO_OFF && self->sel_kind == MT_EDIT_BODY && self->sel_index >= 0 && self->sel_index < m->nbody) {
        body = self->sel_index;
        for (int i = 0; i < 3; i++) origin[i] = m->body[body].pos[i];
    } else if (mode == MOTUS_GIZMO_MOVE && self->sel_kind == MT_EDIT_MARKER && self->sel_index >= 0 &&
               self->sel_index < m->nmarker) {
        const MtMarkerSpec *mk = &m->marker[self->sel_index];
        const double *R = mk->body >= 0 ? m->body[mk->body].rot : axes, *x0 = mk->body >= 0 ? m->body[mk->body].pos : origin;
        double o[3];
        for (int i = 0; i < 3; i++) o[i] = x0[i] + R[3 * i] * mk->pos[0] + R[3 * i + 1] * mk->pos[1] + R[3 * i + 2] * mk->pos[2];
        memcpy(origin, o, sizeof o);
        if (mk->body >= 0) memcpy(axes, m->body[mk->body].rot, sizeof axes);
    } else
        mode = MOTUS_GIZMO_OFF;
    motus_viewport_set_gizmo(self->viewport, mode, origin, axes, body);
}

static void set_mode(MotusWindow *self, MotusGizmoMode mode)
{
    static const char *const names[] = {"off", "move", "turn"};
    self->gizmo_mode = mode;
    GAction *a = g_action_map_lookup_action(G_ACTION_MAP(self), "gizmo");
    g_simple_action_set_state(G_SIMPLE_ACTION(a), g_variant_new_string(names[mode]));
}

static void act_gizmo(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a;
    MotusWindow *self = data;
    MotusGizmoMode want = mode_of(g_variant_get_string(p, NULL));
    /* the same again hides it (when it shows) */
    if (want == self->gizmo_mode && motus_viewport_get_gizmo(self->viewport) != MOTUS_GIZMO_OFF) want = MOTUS_GIZMO_OFF;
    set_mode(self, want);
    if (want != MOTUS_GIZMO_OFF && motus_window_model(self) && !motus_run_bridge_is_running(motus_window_bridge(self)) &&
        (motus_session_get_playing(self->session) || self->frame_shown)) { /* the gizmo edits the model as built: show that */
        motus_window_stop_playback(self);
        motus_viewport_show_initial(self->viewport);
        self->frame_shown = FALSE;
    }
    motus_window_gizmo_refresh(self);
    if (want != MOTUS_GIZMO_OFF && motus_viewport_get_gizmo(self->viewport) == MOTUS_GIZMO_OFF && motus_window_model(self))
        motus_window_set_status(self, want == MOTUS_GIZMO_MOVE ? _("Select a body or a marker to move it")
                                                               : _("Select a body to turn it"));
}

static void dragged(MotusViewport *vp, int mode, int axis, double amount, gpointer data)
{
    (void)vp;
    MotusWindow *self = data;
    const MtModel *m = motus_window_model(self);
    if (!m || !motus_window_editor(self) || axis < 0 || axis > 2) return;
    g_autoptr(GError) error = NULL;
    MtError err = {0};
    gboolean ok;
    if (mode == MOTUS_GIZMO_TURN && self->sel_kind == MT_EDIT_BODY) {
        ok = mt_edit_turn_body(motus_window_editor(self), self->sel_index, axis, amount, &err) == MT_OK;
        if (ok) {
            motus_window_model_changed(self);
            motus_window_set_status(self, mt_editor_undo_label(motus_window_editor(self)));
        } else
            g_set_error(&error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", err.msg);
    } else if (mode == MOTUS_GIZMO_MOVE && (self->sel_kind == MT_EDIT_BODY || self->sel_kind == MT_EDIT_MARKER)) {
        gboolean is_body = self->sel_kind == MT_EDIT_BODY;
        double v = (is_body ? m->body[self->sel_index].pos : m->marker[self->sel_index].pos)[axis] + amount;
        char field[16], text[64], num[G_ASCII_DTOSTR_BUF_SIZE];
        g_snprintf(field, sizeof field, "%s.%d", is_body ? "position" : "at", axis);
        g_snprintf(text, sizeof text, "%s m", g_ascii_formatd(num, sizeof num, "%.17g", v)); /* SI, every digit */
        ok = motus_window_set_field(self, self->sel_kind, self->sel_index, field, text, &error);
    } else
        return;
    if (!ok) motus_window_error_dialog(self, _("The gizmo's edit was refused"), error->message);
}

void motus_window_gizmo_init(MotusWindow *self)
{
    static const GActionEntry entries[] = {{"gizmo", act_gizmo, "s", "'off'", NULL, {0}}};
    g_action_map_add_action_entries(G_ACTION_MAP(self), entries, G_N_ELEMENTS(entries), self);
    g_signal_connect(self->viewport, "gizmo-dragged", G_CALLBACK(dragged), self);
    /* the Move and Turn buttons with the view's own */
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
    gtk_widget_add_css_class(box, "linked");
    /* TRANSLATORS: buttons over the 3D view showing the gizmo to move or turn the selected body; keys in brackets. */
    static const struct {
        const char *label, *target, *tip;
    } b[] = {{N_("Move"), "move", N_("Move the selected body or marker along an axis (G; Ctrl: 1 mm steps)")},
             {N_("Turn"), "turn", N_("Turn the selected body about an axis (R; Ctrl: 5° steps)")}};
    for (guint i = 0; i < G_N_ELEMENTS(b); i++) {
        GtkWidget *t = gtk_toggle_button_new_with_label(_(b[i].label));
        gtk_actionable_set_action_name(GTK_ACTIONABLE(t), "win.gizmo");
        gtk_actionable_set_action_target(GTK_ACTIONABLE(t), "s", b[i].target);
        gtk_widget_set_tooltip_text(t, _(b[i].tip));
        gtk_widget_set_focus_on_click(t, FALSE);
        gtk_box_append(GTK_BOX(box), t);
    }
    motus_viewport_add_tool(self->viewport, box);
}
