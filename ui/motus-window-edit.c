/* motus-window-edit.c — editing in the window: the selection and the
 * inspector, undo and redo, rename, duplicate, delete (with the dependents
 * explained first), creating bodies from primitives, joints and force
 * elements by picking points in the view (snapped to centres of mass,
 * markers, face centres, centres and corners), sensors on the selection,
 * parameters, and the solver settings dialog. Every change goes through the
 * document's MtEditor (include/motus/edit.h), so it is checked and undoable.
 * A private part of MotusWindow (motus-window-private.h). */
#include <math.h>
#include <string.h>

#include "motus-dialog.h"
#include "motus-i18n.h"
#include "motus-window-private.h"
#include "motus/units.h"

/* ---- kinds ------------------------------------------------------------------------ */

MtEditKind motus_edit_kind_of(MotusEntityKind k)
{
    switch (k) {
    case MOTUS_ENTITY_GROUND:
    case MOTUS_ENTITY_BODY: return MT_EDIT_BODY;
    case MOTUS_ENTITY_MARKER: return MT_EDIT_MARKER;
    case MOTUS_ENTITY_JOINT: return MT_EDIT_JOINT;
    case MOTUS_ENTITY_DRIVER: return MT_EDIT_DRIVER;
    case MOTUS_ENTITY_SPRING: return MT_EDIT_SPRING;
    case MOTUS_ENTITY_COUPLING: return MT_EDIT_COUPLE;
    case MOTUS_ENTITY_FORCE: return MT_EDIT_FORCE;
    case MOTUS_ENTITY_SENSOR: return MT_EDIT_SENSOR;
    case MOTUS_ENTITY_SHAPE: return MT_EDIT_SHAPE;
    case MOTUS_ENTITY_PARAM: return MT_EDIT_PARAM;
    default: return MT_EDIT_NKINDS;
    }
}

MotusEntityKind motus_entity_kind_of(MtEditKind k, int index)
{
    switch (k) {
    case MT_EDIT_BODY: return index == MT_GROUND ? MOTUS_ENTITY_GROUND : MOTUS_ENTITY_BODY;
    case MT_EDIT_MARKER: return MOTUS_ENTITY_MARKER;
    case MT_EDIT_JOINT: return MOTUS_ENTITY_JOINT;
    case MT_EDIT_DRIVER: return MOTUS_ENTITY_DRIVER;
    case MT_EDIT_SPRING: return MOTUS_ENTITY_SPRING;
    case MT_EDIT_COUPLE: return MOTUS_ENTITY_COUPLING;
    case MT_EDIT_FORCE: return MOTUS_ENTITY_FORCE;
    case MT_EDIT_SENSOR: return MOTUS_ENTITY_SENSOR;
    case MT_EDIT_SHAPE: return MOTUS_ENTITY_SHAPE;
    case MT_EDIT_PARAM: return MOTUS_ENTITY_PARAM;
    default: return MOTUS_ENTITY_NONE;
    }
}

/* ---- selection ---------------------------------------------------------------------- */

/* The body drawn highlighted for a selected entity (-1 none, nbody the ground). */
static int body_of(const MtModel *m, MtEditKind kind, int index)
{
    int b = -2;
    switch (kind) {
    case MT_EDIT_BODY: b = index; break;
    case MT_EDIT_MARKER: b = m->marker[index].body; break;
    case MT_EDIT_SHAPE: b = m->shape[index].body; break;
    case MT_EDIT_JOINT: b = m->marker[m->joint[index].mi].body; break;
    case MT_EDIT_SPRING: b = m->marker[m->spring[index].mi].body; break;
    case MT_EDIT_FORCE: {
        const MtForceSpec *f = &m->force[index];
        int mk = f->mi >= 0 ? f->mi : f->joint >= 0 ? m->joint[f->joint].mi : -1;
        if (mk >= 0) b = m->marker[mk].body;
        break;
    }
    case MT_EDIT_SENSOR:
        if (m->sensor[index].mi >= 0 && m->sensor[index].kind != MT_SENSOR_EXPR) b = m->marker[m->sensor[index].mi].body;
        break;
    default: break;
    }
    return b == -2 ? -1 : b == MT_GROUND ? m->nbody : b;
}

/* One line about the selected entity for the status bar. */
static char *describe(const MtModel *m, MtEditKind kind, int index)
{
    char ref_i[2 * MT_NAME_MAX + 2], ref_j[2 * MT_NAME_MAX + 2];
    switch (kind) {
    case MT_EDIT_BODY:
        if (index == MT_GROUND) return g_strdup(_("the ground: fixed, carries the project frame"));
        return g_strdup_printf(_("body '%s': mass %g kg, centre of mass (%g, %g, %g) m"), m->body[index].name,
                               m->body[index].mass, m->body[index].com[0], m->body[index].com[1], m->body[index].com[2]);
    case MT_EDIT_JOINT: {
        const MtJointSpec *j = &m->joint[index];
        return g_strdup_printf(_("joint '%s': %s, %s on %s"), j->name, mt_joint_type_label(j->type),
                               mt_model_marker_ref(m, j->mi, ref_i, sizeof ref_i),
                               mt_model_marker_ref(m, j->mj, ref_j, sizeof ref_j));
    }
    case MT_EDIT_SPRING: {
        const MtSpringSpec *s = &m->spring[index];
        return g_strdup_printf(_("spring '%s': k = %g N/m, c = %g N·s/m, between %s and %s"), s->name, s->k, s->c,
                               mt_model_marker_ref(m, s->mi, ref_i, sizeof ref_i),
                               mt_model_marker_ref(m, s->mj, ref_j, sizeof ref_j));
    }
    case MT_EDIT_FORCE:
        return g_strdup_printf(_("force element '%s': %s"), m->force[index].name, mt_force_kind_label(m->force[index].kind));
    default: {
        char what[200];
        return g_strdup(mt_edit_describe(m, kind, index, what, sizeof what));
    }
    }
}

void motus_window_select(MotusWindow *self, MtEditKind kind, int index)
{
    const MtModel *m = motus_window_model(self);
    if (!m || kind >= MT_EDIT_NKINDS ||
        (!(kind == MT_EDIT_BODY && index == MT_GROUND) && (index < 0 || index >= mt_edit_count(m, kind))))
        kind = MT_EDIT_NKINDS, index = -1;
    self->sel_kind = kind;
    self->sel_index = index;
    /* the tree follows (it emits "selected" only on a change, which lands here again with the same values) */
    motus_model_tree_select(self->tree, motus_entity_kind_of(kind, index), index);
    motus_viewport_set_selected_body(self->viewport, kind < MT_EDIT_NKINDS ? body_of(m, kind, index) : -1);
    motus_inspector_show(self->inspector, motus_window_editor(self), kind, index);
    motus_window_teach_update(self); /* traces and vectors follow the selection */
    if (kind < MT_EDIT_NKINDS) {
        g_autofree char *text = describe(m, kind, index);
        motus_window_set_status(self, text);
    }
    motus_window_update_actions(self);
}

void motus_window_select_entity(MotusWindow *self, MtEditKind kind, int index) { motus_window_select(self, kind, index); }

MtEditKind motus_window_get_selection(MotusWindow *self, int *index)
{
    *index = self->sel_index;
    return self->sel_kind;
}

static void inspector_edited(MotusInspector *insp, gpointer data)
{
    (void)insp;
    MotusWindow *self = data;
    motus_window_model_changed(self);
    if (self->solver_dialog) {
        MotusInspector *si = g_object_get_data(G_OBJECT(self->solver_dialog), "inspector");
        if (si) motus_inspector_show(si, motus_window_editor(self), MT_EDIT_SOLVER, 0);
    }
    motus_window_set_status(self, mt_editor_undo_label(motus_window_editor(self)));
}

/* ---- undo, redo ---------------------------------------------------------------------- */

static void after_edit(MotusWindow *self, const char *what)
{
    motus_window_model_changed(self);
    if (self->solver_dialog) {
        MotusInspector *si = g_object_get_data(G_OBJECT(self->solver_dialog), "inspector");
        if (si) motus_inspector_show(si, motus_window_editor(self), MT_EDIT_SOLVER, 0);
    }
    if (what) motus_window_set_status(self, what);
}

gboolean motus_window_set_field(MotusWindow *self, MtEditKind kind, int index, const char *field, const char *text,
                                GError **error)
{
    MtError err = {0};
    g_autofree char *typed = motus_delocalise(text);
    MtEditor *ed = motus_window_editor(self);
    if (!ed || mt_edit_set_field(ed, kind, index, field, typed, &err) != MT_OK) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", ed ? err.msg : _("no model is open"));
        return FALSE;
    }
    after_edit(self, mt_editor_undo_label(motus_window_editor(self)));
    return TRUE;
}

gboolean motus_window_undo(MotusWindow *self)
{
    MtEditor *ed = motus_window_editor(self);
    if (!ed || !mt_editor_can_undo(ed)) return FALSE;
    g_autofree char *label = g_strdup(mt_editor_undo_label(ed));
    if (!motus_document_undo(self->doc, NULL)) return FALSE;
    g_autofree char *msg = g_strdup_printf(_("Undone: %s"), label);
    after_edit(self, msg);
    return TRUE;
}

gboolean motus_window_redo(MotusWindow *self)
{
    MtEditor *ed = motus_window_editor(self);
    if (!ed || !mt_editor_can_redo(ed)) return FALSE;
    g_autofree char *label = g_strdup(mt_editor_redo_label(ed));
    if (!motus_document_redo(self->doc, NULL)) return FALSE;
    g_autofree char *msg = g_strdup_printf(_("Redone: %s"), label);
    after_edit(self, msg);
    return TRUE;
}

static void act_undo(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    motus_window_undo(data);
}

static void act_redo(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    motus_window_redo(data);
}

/* An edit that failed: the message in the status bar (and a dialog unless batch). */
static void refused(MotusWindow *self, const char *title, const char *msg)
{
    motus_window_set_status(self, msg);
    gtk_widget_add_css_class(GTK_WIDGET(self->status_label), "error");
    motus_window_error_dialog(self, title, msg);
}

static void done(MotusWindow *self, MtEditKind kind, int index)
{
    gtk_widget_remove_css_class(GTK_WIDGET(self->status_label), "error");
    self->sel_kind = kind;
    self->sel_index = index;
    after_edit(self, mt_editor_undo_label(motus_window_editor(self)));
}

/* ---- delete, duplicate, rename --------------------------------------------------------- */

static void delete_now(MotusWindow *self, MtEditKind kind, int index)
{
    MtError err = {0};
    if (mt_edit_delete(motus_window_editor(self), kind, index, &err) != MT_OK) {
        refused(self, _("Cannot delete"), err.msg);
        return;
    }
    done(self, MT_EDIT_NKINDS, -1);
}

static void delete_response(GtkDialog *d, int response, gpointer data)
{
    MotusWindow *self = data;
    int kind = GPOINTER_TO_INT(g_object_get_data(G_OBJECT(d), "kind"));
    int index = GPOINTER_TO_INT(g_object_get_data(G_OBJECT(d), "index"));
    gtk_window_destroy(GTK_WINDOW(d));
    if (response == GTK_RESPONSE_ACCEPT && motus_window_editor(self)) delete_now(self, (MtEditKind)kind, index);
}

gboolean motus_window_delete_selected(MotusWindow *self, gboolean ask)
{
    if (!motus_window_editor(self) || self->sel_kind >= MT_EDIT_NKINDS) return FALSE;
    MtError err = {0};
    char deps[1024], what[200];
    int n = mt_edit_dependents(motus_window_model(self), self->sel_kind, self->sel_index, deps, sizeof deps, &err);
    if (n < 0) {
        refused(self, _("Cannot delete"), err.msg);
        return FALSE;
    }
    if (n == 0 || !ask || self->batch) {
        delete_now(self, self->sel_kind, self->sel_index);
        return TRUE;
    }
    /* what else goes is said before anything is deleted */
    mt_edit_describe(motus_window_model(self), self->sel_kind, self->sel_index, what, sizeof what);
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    GtkWidget *d = gtk_message_dialog_new(GTK_WINDOW(self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                          GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE, _("Delete %s?"), what);
    gtk_message_dialog_format_secondary_text(GTK_MESSAGE_DIALOG(d), _("This also deletes what depends on it: %s. Undo (Ctrl+Z) brings everything back."), deps);
    gtk_dialog_add_buttons(GTK_DIALOG(d), _("_Cancel"), GTK_RESPONSE_CANCEL, _("_Delete"), GTK_RESPONSE_ACCEPT, NULL);
    G_GNUC_END_IGNORE_DEPRECATIONS
    g_object_set_data(G_OBJECT(d), "kind", GINT_TO_POINTER(self->sel_kind));
    g_object_set_data(G_OBJECT(d), "index", GINT_TO_POINTER(self->sel_index));
    g_signal_connect(d, "response", G_CALLBACK(delete_response), self);
    gtk_window_present(GTK_WINDOW(d));
    return TRUE;
}

static void act_delete(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    motus_window_delete_selected(data, TRUE);
}

static void act_duplicate(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    MotusWindow *self = data;
    if (!motus_window_editor(self) || self->sel_kind >= MT_EDIT_NKINDS) return;
    MtError err = {0};
    int ni = -1;
    if (mt_edit_duplicate(motus_window_editor(self), self->sel_kind, self->sel_index, &ni, &err) != MT_OK) {
        refused(self, _("Cannot duplicate"), err.msg);
        return;
    }
    done(self, self->sel_kind, ni);
}

static void act_rename(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    MotusWindow *self = data;
    motus_inspector_focus(self->inspector, "name");
}

/* ---- creating -------------------------------------------------------------------------- */

gboolean motus_window_add_body(MotusWindow *self, const MtBodyDef *def, int *index, GError **error)
{
    if (!motus_window_editor(self)) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", _("no model is open"));
        return FALSE;
    }
    MtError err = {0};
    int b = -1;
    if (mt_edit_add_body(motus_window_editor(self), def, &b, &err) != MT_OK) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s", err.msg);
        return FALSE;
    }
    done(self, MT_EDIT_BODY, b);
    if (index) *index = b;
    return TRUE;
}

static void act_add_body(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a;
    MotusWindow *self = data;
    const char *kind = g_variant_get_string(p, NULL);
    MtBodyDef d;
    mt_body_def_default(&d); /* steel, at the origin; sizes about a model of 0.1–1 m */
    if (!strcmp(kind, "cylinder") || !strcmp(kind, "capsule")) {
        d.shape = !strcmp(kind, "cylinder") ? MT_SHAPE_CYLINDER : MT_SHAPE_CAPSULE;
        d.size[0] = 0.02;
        d.size[1] = 0.2;
    } else if (!strcmp(kind, "sphere")) {
        d.shape = MT_SHAPE_SPHERE;
        d.size[0] = 0.05;
    }
    g_autoptr(GError) error = NULL;
    if (!motus_window_add_body(self, &d, NULL, &error)) {
        refused(self, _("Cannot add the body"), error->message);
    } else {
        motus_window_set_status(self, _("Body added at the origin: set its position, shape and density in the "
                                        "properties, or its mass with density 0"));
    }
}

/* -- picking points in the view -- */

static const float pick_rgb[3] = {0.95f, 0.45f, 0.05f};

static void pick_prompt(MotusWindow *self)
{
    const char *text = motus_window_planar_prompt(self);
    switch (text ? PICK_NONE : self->pick) {
    case PICK_JOINT:
        text = self->pick_step == 0   ? _("New joint: click the moving body")
               : self->pick_step == 1 ? _("New joint: click the base body, or empty space for the ground")
                                      : _("New joint: click the joint point (snaps to centres of mass, markers, face "
                                          "centres and corners of both bodies); the axis is chosen on the right");
        break;
    case PICK_FORCE:
        text = self->pick_step == 0 ? _("New force element: click its first point on a body (snaps to centres, "
                                        "markers, faces, corners)")
                                    : _("New force element: click its second point (on another body, or empty "
                                        "space near a ground point)");
        break;
    case PICK_FLEX_MARKER:
        text = _("New marker on a flexible body: click the body (snaps to its surface nodes); with a spider radius "
                 "the marker is tied to every node within it");
        break;
    default: break;
    }
    if (!text) text = "";
    gtk_label_set_text(self->pick_label, text);
    motus_window_set_status(self, text);
}

void motus_window_pick_start(MotusWindow *self, int mode, const char *type)
{
    if (!motus_window_editor(self)) return;
    motus_window_stop_playback(self);
    self->pick = mode;
    self->pick_step = 0;
    g_strlcpy(self->pick_type, type, sizeof self->pick_type);
    motus_viewport_clear_overlay(self->viewport);
    motus_viewport_show_initial(self->viewport); /* joints are made in the configuration as built */
    self->frame_shown = FALSE;
    motus_viewport_set_picking(self->viewport, TRUE);
    gtk_widget_set_visible(GTK_WIDGET(self->pick_axis), mode == PICK_JOINT);
    if (self->spider_entry) gtk_widget_set_visible(self->spider_entry, mode == PICK_FLEX_MARKER);
    gtk_revealer_set_reveal_child(self->pick_revealer, TRUE);
    motus_window_planar_pick_changed(self);
    pick_prompt(self);
    motus_window_update_actions(self);
}

void motus_window_pick_cancel(MotusWindow *self)
{
    if (self->pick == PICK_NONE) return;
    self->pick = PICK_NONE;
    motus_viewport_set_picking(self->viewport, FALSE);
    motus_viewport_clear_overlay(self->viewport);
    gtk_revealer_set_reveal_child(self->pick_revealer, FALSE);
    motus_window_planar_pick_changed(self);
    motus_window_update_actions(self);
}

gboolean motus_window_is_picking(MotusWindow *self) { return self->pick != PICK_NONE; }

/* The snap point nearest to (x, y) on the screen among the points of the
 * given bodies (-2 = unused slot; the ground's origin always counts). */
static gboolean snap(MotusWindow *self, double x, double y, const int *bodies, int nb, double max_px, int *body,
                     double world[3], MtSnapKind *kind)
{
    const MtModel *m = motus_window_model(self);
    double best = max_px * max_px;
    gboolean found = FALSE;
    MtSnapPoint pts[512];
    for (int k = 0; k < nb; k++) {
        int b = bodies[k];
        if (b == -2) continue;
        int n = mt_edit_snap_points(m, b, pts, G_N_ELEMENTS(pts) - 1);
        if (b == MT_GROUND) pts[n++] = (MtSnapPoint){MT_SNAP_CENTRE, MT_GROUND, {0, 0, 0}};
        /* a flexible body: its surface nodes (markers of joints must sit on nodes) */
        int nv = b >= 0 ? motus_viewport_flex_n_vertices(self->viewport, b) : 0;
        for (int v = 0; v < nv; v++) {
            double w[3], sx, sy;
            if (!motus_viewport_flex_vertex(self->viewport, b, v, 0, w) ||
                !motus_viewport_project_point(self->viewport, w, &sx, &sy))
                continue;
            double d = (sx - x) * (sx - x) + (sy - y) * (sy - y);
            if (d < best) {
                best = d;
                found = TRUE;
                *body = b;
                memcpy(world, w, sizeof w);
                *kind = MT_SNAP_VERTEX;
            }
        }
        for (int i = 0; i < n; i++) {
            double w[3], sx, sy;
            if (!motus_viewport_body_to_world(self->viewport, b, pts[i].p, w) ||
                !motus_viewport_project_point(self->viewport, w, &sx, &sy))
                continue;
            double d = (sx - x) * (sx - x) + (sy - y) * (sy - y);
            /* corners crowd the face centres of small parts: they win only when clearly nearer */
            if (pts[i].kind == MT_SNAP_VERTEX || pts[i].kind == MT_SNAP_EDGE) d *= 9;
            if (d < best) {
                best = d;
                found = TRUE;
                *body = b;
                memcpy(world, w, sizeof w);
                *kind = pts[i].kind;
            }
        }
    }
    return found;
}

/* The body under the pointer: index, MT_GROUND for the ground or empty space. */
static int body_under(MotusWindow *self, double x, double y, gboolean *empty)
{
    int b = motus_viewport_body_at(self->viewport, x, y);
    *empty = b < 0;
    return (b < 0 || b >= motus_window_model(self)->nbody) ? MT_GROUND : b;
}

static void axis_of(MotusWindow *self, double axis[3])
{
    guint i = gtk_drop_down_get_selected(self->pick_axis);
    axis[0] = axis[1] = axis[2] = 0;
    axis[i < 3 ? i : 2] = 1;
}

static void finish_joint(MotusWindow *self)
{
    MtJointType t = MT_JOINT_REVOLUTE;
    mt_joint_type_from_name(self->pick_type, &t);
    double axis[3];
    axis_of(self, axis);
    MtError err = {0};
    int j = -1;
    int bi = self->pick_body[0], bj = self->pick_body[1];
    motus_window_pick_cancel(self);
    if (mt_edit_add_joint(motus_window_editor(self), "", t, bi, bj, self->pick_point[0], axis, &j, &err) != MT_OK) {
        refused(self, _("Cannot add the joint"), err.msg);
        return;
    }
    done(self, MT_EDIT_JOINT, j);
}

static void finish_force(MotusWindow *self)
{
    MtError err = {0};
    int idx = -1;
    int bi = self->pick_body[0], bj = self->pick_body[1];
    motus_window_pick_cancel(self);
    MtStatus rc;
    MtEditKind kind = MT_EDIT_SPRING;
    if (!strcmp(self->pick_type, "spring")) {
        rc = mt_edit_add_spring(motus_window_editor(self), "", bi, self->pick_point[0], bj, self->pick_point[1], 1000, 10, &idx, &err);
    } else {
        MtForceKind fk = MT_FORCE_BUSHING;
        mt_force_kind_from_name(self->pick_type, &fk);
        kind = MT_EDIT_FORCE;
        rc = mt_edit_add_force(motus_window_editor(self), "", fk, bi, self->pick_point[0], bj, self->pick_point[1], &idx, &err);
    }
    if (rc != MT_OK) {
        refused(self, _("Cannot add the force element"), err.msg);
        return;
    }
    done(self, kind, idx);
}

gboolean motus_window_pick_click(MotusWindow *self, double x, double y)
{
    if (self->pick == PICK_NONE || !motus_window_model(self)) return FALSE;
    gboolean empty;
    int under = body_under(self, x, y, &empty);
    g_autofree char *label = NULL;
    MtSnapKind sk;
    int sb;
    double w[3];
    if (motus_window_planar_click(self, x, y)) return TRUE; /* a point of the plane, snapped */
    if (self->pick == PICK_JOINT) {
        if (self->pick_step == 0) {
            if (empty || under == MT_GROUND) {
                motus_window_set_status(self, _("New joint: the moving body must be a body, not the ground"));
                return TRUE;
            }
            self->pick_body[0] = under;
        } else if (self->pick_step == 1) {
            if (under == self->pick_body[0]) {
                motus_window_set_status(self, _("New joint: choose another body than the moving one"));
                return TRUE;
            }
            self->pick_body[1] = under;
        } else {
            int bodies[2] = {self->pick_body[0], self->pick_body[1]};
            if (!snap(self, x, y, bodies, 2, 1e9, &sb, w, &sk)) {
                motus_window_set_status(self, _("New joint: no point of the two bodies is in view"));
                return TRUE;
            }
            memcpy(self->pick_point[0], w, sizeof w);
            finish_joint(self);
            return TRUE;
        }
        self->pick_step++;
        label = g_strdup(mt_model_body_name(motus_window_model(self), self->pick_body[self->pick_step - 1]));
        double c[3] = {0, 0, 0};
        int b = self->pick_body[self->pick_step - 1];
        if (b >= 0) memcpy(c, motus_window_model(self)->body[b].com, sizeof c);
        motus_viewport_body_to_world(self->viewport, b, c, w);
        motus_viewport_add_overlay_point(self->viewport, w, pick_rgb, label);
        pick_prompt(self);
        return TRUE;
    }
    if (self->pick == PICK_FORCE) {
        /* a point on the body under the pointer; on empty space, a ground point nearby */
        int bodies[1] = {under};
        double max_px = empty ? 40 : 1e9;
        if (self->pick_step == 1 && under == self->pick_body[0]) {
            /* over the first body again: a ground point right there (a pivot under the body) */
            bodies[0] = MT_GROUND;
            max_px = 40;
        }
        if (!snap(self, x, y, bodies, 1, max_px, &sb, w, &sk) || (self->pick_step == 1 && sb == self->pick_body[0])) {
            motus_window_set_status(self, _("New force element: click another body, or near a point of the ground"));
            return TRUE;
        }
        self->pick_body[self->pick_step] = sb;
        memcpy(self->pick_point[self->pick_step], w, sizeof w);
        g_free(label);
        label = g_strdup_printf("%s: %s", mt_model_body_name(motus_window_model(self), sb), mt_snap_kind_name(sk));
        motus_viewport_add_overlay_point(self->viewport, w, pick_rgb, label);
        if (++self->pick_step == 2) finish_force(self);
        else pick_prompt(self);
        return TRUE;
    }
    if (self->pick == PICK_FLEX_MARKER) {
        motus_window_flex_marker_click(self, x, y);
        return TRUE;
    }
    return FALSE;
}

static void act_add_joint(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a;
    MtJointType t;
    const char *type = g_variant_get_string(p, NULL);
    if (mt_joint_type_from_name(type, &t)) return;
    motus_window_pick_start(data, PICK_JOINT, type);
}

static void act_add_force(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a;
    motus_window_pick_start(data, PICK_FORCE, g_variant_get_string(p, NULL));
}

static void act_pick_cancel(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    MotusWindow *self = data;
    motus_window_pick_cancel(self);
    motus_window_set_status(self, _("Cancelled"));
}

/* A sensor on the selected marker (kinematics), joint (reaction), spring or force element (force). */
gboolean motus_window_add_sensor(MotusWindow *self, const char *what, GError **error)
{
    MtSensorKind k = MT_SENSOR_POSITION;
    int comp = 3;
    if (!strcmp(what, "velocity")) k = MT_SENSOR_VELOCITY;
    else if (!strcmp(what, "acceleration")) k = MT_SENSOR_ACCELERATION;
    if (self->sel_kind == MT_EDIT_JOINT) comp = 6; /* |F| */
    if (self->sel_kind == MT_EDIT_FORCE) comp = 0;
    MtError err = {0};
    int idx = -1;
    MtEditor *ed = motus_window_editor(self);
    if (!ed || mt_edit_add_sensor(ed, "", k, self->sel_kind, self->sel_index, comp, &idx, &err) != MT_OK) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s",
                    motus_window_editor(self) ? err.msg : _("no model is open"));
        return FALSE;
    }
    done(self, MT_EDIT_SENSOR, idx);
    return TRUE;
}

/* The selected joint, or -1 with the reason set. */
static int selected_joint(MotusWindow *self, GError **error)
{
    if (!motus_window_editor(self)) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s", _("no model is open"));
        return -1;
    }
    if (self->sel_kind != MT_EDIT_JOINT || self->sel_index < 0) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s",
                    _("select a joint first (in the model tree or in the 3D view)"));
        return -1;
    }
    return self->sel_index;
}

gboolean motus_window_add_driver(MotusWindow *self, GError **error)
{
    int j = selected_joint(self, error), idx = -1;
    if (j < 0) return FALSE;
    MtError err = {0};
    if (mt_edit_add_driver(motus_window_editor(self), "", j, &idx, &err) != MT_OK) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s", err.msg);
        return FALSE;
    }
    done(self, MT_EDIT_DRIVER, idx);
    return TRUE;
}

gboolean motus_window_add_joint_force(MotusWindow *self, const char *kind, GError **error)
{
    int j = selected_joint(self, error), idx = -1;
    if (j < 0) return FALSE;
    MtForceKind k = MT_FORCE_TORSION;
    if (mt_force_kind_from_name(kind, &k) || (k != MT_FORCE_TORSION && k != MT_FORCE_FRICTION)) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("'%s' does not act in a joint"), kind);
        return FALSE;
    }
    MtError err = {0};
    if (mt_edit_add_joint_force(motus_window_editor(self), "", k, j, &idx, &err) != MT_OK) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s", err.msg);
        return FALSE;
    }
    done(self, MT_EDIT_FORCE, idx);
    return TRUE;
}

static void act_add_driver(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    MotusWindow *self = data;
    g_autoptr(GError) error = NULL;
    if (!motus_window_add_driver(self, &error)) {
        refused(self, _("Cannot add the driver"), error->message);
    }
}

static void act_add_joint_force(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a;
    MotusWindow *self = data;
    g_autoptr(GError) error = NULL;
    if (!motus_window_add_joint_force(self, g_variant_get_string(p, NULL), &error)) {
        refused(self, _("Cannot add the force element"), error->message);
    }
}

static void act_add_sensor(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a;
    MotusWindow *self = data;
    g_autoptr(GError) error = NULL;
    if (!motus_window_add_sensor(self, g_variant_get_string(p, NULL), &error)) {
        refused(self, _("Cannot add the sensor"), error->message);
    }
}

static void act_add_parameter(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    MotusWindow *self = data;
    MtError err = {0};
    int idx = -1;
    if (mt_edit_add_param(motus_window_editor(self), "", "1", "", &idx, &err) != MT_OK) {
        refused(self, _("Cannot add the parameter"), err.msg);
        return;
    }
    done(self, MT_EDIT_PARAM, idx);
}

/* ---- solver settings ------------------------------------------------------------------- */

static void solver_dialog_destroyed(GtkWidget *w, gpointer data)
{
    (void)w;
    MotusWindow *self = data;
    self->solver_dialog = NULL;
}

GtkWidget *motus_window_show_solver_settings(MotusWindow *self)
{
    if (!motus_window_editor(self)) return NULL;
    if (!self->solver_dialog) {
        GtkWidget *d = motus_dialog_new(GTK_WINDOW(self), _("Solver Settings"), 460, 560);
        /* Escape closes it, as it closes a dialog */
        GtkEventController *keys = gtk_shortcut_controller_new();
        gtk_shortcut_controller_add_shortcut(
            GTK_SHORTCUT_CONTROLLER(keys),
            gtk_shortcut_new(gtk_keyval_trigger_new(GDK_KEY_Escape, 0), gtk_named_action_new("window.close")));
        gtk_widget_add_controller(d, keys);
        GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
        GtkWidget *note = gtk_label_new(_("Changes apply to the next run and can be undone (Ctrl+Z). Ts is the period "
                                          "of the constraint stabilisation, ξs its damping."));
        gtk_label_set_wrap(GTK_LABEL(note), TRUE);
        gtk_label_set_xalign(GTK_LABEL(note), 0);
        gtk_widget_add_css_class(note, "dim-label");
        gtk_widget_set_margin_start(note, 12);
        gtk_widget_set_margin_end(note, 12);
        gtk_widget_set_margin_top(note, 8);
        GtkWidget *insp = motus_inspector_new();
        gtk_widget_set_vexpand(insp, TRUE);
        g_signal_connect(insp, "edited", G_CALLBACK(inspector_edited), self);
        gtk_box_append(GTK_BOX(box), note);
        gtk_box_append(GTK_BOX(box), insp);
        gtk_window_set_child(GTK_WINDOW(d), box);
        g_object_set_data(G_OBJECT(d), "inspector", insp);
        g_signal_connect(d, "destroy", G_CALLBACK(solver_dialog_destroyed), self);
        self->solver_dialog = d;
    }
    MotusInspector *si = g_object_get_data(G_OBJECT(self->solver_dialog), "inspector");
    motus_inspector_show(si, motus_window_editor(self), MT_EDIT_SOLVER, 0);
    gtk_window_present(GTK_WINDOW(self->solver_dialog));
    return self->solver_dialog;
}

static void act_solver(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    motus_window_show_solver_settings(data);
}

GtkWidget *motus_window_get_inspector(MotusWindow *self) { return GTK_WIDGET(self->inspector); }

/* Tab in the model tree goes on to the inspector (the tree's rows each took a Tab: the inspector was never
 * reached from the keyboard); the order is tree, inspector, view, plots, as the panes are laid out. */
static gboolean tree_key(GtkEventControllerKey *c, guint key, guint code, GdkModifierType mods, gpointer data)
{
    (void)c, (void)code;
    MotusWindow *self = data;
    if ((key != GDK_KEY_Tab && key != GDK_KEY_KP_Tab) || (mods & (GDK_SHIFT_MASK | GDK_CONTROL_MASK | GDK_ALT_MASK)))
        return FALSE;
    if (gtk_widget_child_focus(GTK_WIDGET(self->inspector), GTK_DIR_TAB_FORWARD)) return TRUE;
    return gtk_widget_child_focus(GTK_WIDGET(self->viewport), GTK_DIR_TAB_FORWARD); /* nothing selected: the view */
}

void motus_window_edit_init(MotusWindow *self)
{
    static const GActionEntry entries[] = {
        {"undo", act_undo, NULL, NULL, NULL, {0}},
        {"redo", act_redo, NULL, NULL, NULL, {0}},
        {"delete", act_delete, NULL, NULL, NULL, {0}},
        {"duplicate", act_duplicate, NULL, NULL, NULL, {0}},
        {"rename", act_rename, NULL, NULL, NULL, {0}},
        {"add-body", act_add_body, "s", NULL, NULL, {0}},
        {"add-joint", act_add_joint, "s", NULL, NULL, {0}},
        {"add-force", act_add_force, "s", NULL, NULL, {0}},
        {"add-sensor", act_add_sensor, "s", NULL, NULL, {0}},
        {"add-driver", act_add_driver, NULL, NULL, NULL, {0}},
        {"add-joint-force", act_add_joint_force, "s", NULL, NULL, {0}},
        {"add-parameter", act_add_parameter, NULL, NULL, NULL, {0}},
        {"pick-cancel", act_pick_cancel, NULL, NULL, NULL, {0}},
        {"solver-settings", act_solver, NULL, NULL, NULL, {0}},
    };
    g_action_map_add_action_entries(G_ACTION_MAP(self), entries, G_N_ELEMENTS(entries), self);
    g_signal_connect(self->inspector, "edited", G_CALLBACK(inspector_edited), self);
    GtkEventController *keys = gtk_event_controller_key_new();
    gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE);
    g_signal_connect(keys, "key-pressed", G_CALLBACK(tree_key), self);
    gtk_widget_add_controller(GTK_WIDGET(self->tree), keys);
    gtk_drop_down_set_selected(self->pick_axis, 2); /* z: the axis of planar mechanisms seen from the front */
}
