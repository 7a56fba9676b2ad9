/* motus-viewport.c — the 3D view (see motus-viewport.h): the widget, its
 * input (orbit, pan, zoom, picking, gizmo drags) and the model, pose, camera
 * and selection API. The GL, flexible-body and cairo-layer parts are in
 * motus-viewport-gl.c, -flex.c and -hud.c (motus-viewport-private.h). */
#include "motus-viewport-private.h"

#include <epoxy/gl.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "motus-gl-driver.h"
#include "motus-gl-view.h"
#include "motus-i18n.h"
#include "motus-plot-axis.h"
#include "motus-gizmo.h"
#include "motus-scene.h"
#include "motus/edit.h"
#include "motus/flex.h"
#include "motus/flexview.h"
#include "motus/units.h"

static void overlay_item_clear(gpointer p) { g_free(((OverlayItem *)p)->label); }

G_DEFINE_TYPE(MotusViewport, motus_viewport, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_ORTHOGRAPHIC, N_PROPS };
static GParamSpec *props[N_PROPS];
enum { SIG_BODY_PICKED, SIG_BODY_TOGGLED, SIG_POINT_CLICKED, SIG_GIZMO_DRAGGED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* Fits points in the part of the view that the controls over it leave free:
 * the toolbar on top, the flexible-body bar at the bottom, the legend on the
 * right (each as a band across the whole view, which keeps the framing simple). */
static void fit_points(MotusViewport *self, const float *pts, int n)
{
    float w = (float)gtk_widget_get_width(self->area), h = (float)gtk_widget_get_height(self->area);
    float in[4] = {0, 0, 0, 0};
    graphene_rect_t b;
    if (gtk_widget_get_visible(self->toolbar) && gtk_widget_compute_bounds(self->toolbar, self->area, &b))
        in[1] = fmaxf(0, b.origin.y + b.size.height);
    if (self->flexbar && gtk_widget_get_visible(self->flexbar) && gtk_widget_compute_bounds(self->flexbar, self->area, &b))
        in[3] = fmaxf(0, h - b.origin.y);
    if (self->legend && gtk_widget_get_visible(self->legend) && gtk_widget_compute_bounds(self->legend, self->area, &b))
        in[2] = fmaxf(0, w - b.origin.x);
    if (w > 0 && h > 0)
        motus_camera_fit_points_in(&self->cam, pts, n, w, h, in);
    else
        motus_camera_fit_points(&self->cam, pts, n, motus_viewport_aspect(self));
}

/* Fits the bodies at their current poses and, after a run, the whole motion. */
void motus_viewport_fit_now(MotusViewport *self)
{
    if (!self->scene) return;
    g_autoptr(GArray) pts = g_array_new(FALSE, FALSE, sizeof(float));
    motus_scene_corners(self->scene, self->poses, pts);
    g_array_append_vals(pts, self->env->data, self->env->len);
    fit_points(self, (const float *)pts->data, (int)(pts->len / 3));
    self->need_fit = FALSE;
    self->touched = FALSE;
}

/* Body under widget point (x, y): 0..nbody-1, nbody for the ground, -1 for none. */
static int pick(MotusViewport *self, double x, double y)
{
    if (!self->gl_ok || !self->scene) return -1;
    GtkGLArea *area = GTK_GL_AREA(self->area);
    gtk_gl_area_make_current(area);
    if (gtk_gl_area_get_error(area)) return -1;
    if (self->scene_dirty) motus_viewport_upload_scene(self);
    int sf = gtk_widget_get_scale_factor(self->area);
    int W = gtk_widget_get_width(self->area) * sf, H = gtk_widget_get_height(self->area) * sf;
    if (W <= 0 || H <= 0) return -1;
    int result = -1;
    if (motus_fbo_bind(&self->pick_fb, W, H)) {
        glViewport(0, 0, W, H);
        glClearColor(0, 0, 0, 0);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glEnable(GL_DEPTH_TEST);
        glDisable(GL_BLEND);
        mat4 V, P, M;
        motus_camera_view(&self->cam, V);
        motus_camera_proj(&self->cam, (float)W / (float)H, P);
        glUseProgram(self->prog_pick);
        motus_viewport_gl_camera(self->prog_pick, V, P);
        static const float none[4] = {0, 0, 0, 0};
        for (int i = 0; i < self->nbuf; i++) {
            motus_viewport_body_matrix(self, i, M);
            glUniform1i(glGetUniformLocation(self->prog_pick, "uId"), i + 1);
            motus_viewport_gl_draw_solid(self->prog_pick, &self->lod[0][i].tri, V, M, none); /* at full detail: what a click hits */
        }
        glUseProgram(self->prog_flex_pick);
        motus_viewport_gl_camera(self->prog_flex_pick, V, P);
        for (int i = 0; i < self->nbuf; i++) {
            if (!self->flexgl[i].count) continue;
            motus_viewport_body_matrix(self, i, M);
            glUniform1i(glGetUniformLocation(self->prog_flex_pick, "uId"), i + 1);
            motus_viewport_draw_flex(self, self->prog_flex_pick, i, V, M, none, FALSE);
        }
        /* the nearest hit within a few pixels, so that thin parts can be clicked */
        const int R = 4 * sf;
        int px = (int)(x * sf), py = H - 1 - (int)(y * sf);
        int x0 = MAX(0, px - R), y0 = MAX(0, py - R), x1 = MIN(W - 1, px + R), y1 = MIN(H - 1, py + R);
        if (x1 >= x0 && y1 >= y0) {
            int w = x1 - x0 + 1, h = y1 - y0 + 1, best = INT_MAX;
            guint8 *pix = g_malloc((gsize)w * (gsize)h * 4);
            glPixelStorei(GL_PACK_ALIGNMENT, 1);
            glReadPixels(x0, y0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pix);
            for (int j = 0; j < h; j++)
                for (int i = 0; i < w; i++) {
                    const guint8 *p = pix + 4 * (j * w + i);
                    int id = p[0] | (p[1] << 8);
                    int d = (x0 + i - px) * (x0 + i - px) + (y0 + j - py) * (y0 + j - py);
                    if (id && d < best) best = d, result = id - 1;
                }
            g_free(pix);
        }
        glBindVertexArray(0);
        glUseProgram(0);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return result;
}

/* ---- input ------------------------------------------------------------------------ */

static void drag_begin(GtkGestureDrag *g, double x, double y, gpointer data)
{
    MotusViewport *self = data;
    self->drag_button = (int)gtk_gesture_single_get_current_button(GTK_GESTURE_SINGLE(g));
    GdkModifierType mods = gtk_event_controller_get_current_event_state(GTK_EVENT_CONTROLLER(g));
    self->drag_mode = (self->drag_button == 2 || self->drag_button == 3 || (mods & GDK_SHIFT_MASK) || self->planar)
                          ? DRAG_PAN /* planar mode: no orbit, a left drag pans as in a drawing program */
                          : DRAG_ORBIT;
    if (self->drag_button == 1 && !(mods & GDK_SHIFT_MASK) && motus_viewport_gizmo_begin(self, x, y))
        self->drag_mode = DRAG_GIZMO;
    self->drag_x = x, self->drag_y = y;
    self->drag_dx = self->drag_dy = 0;
    self->drag_ctrl = (mods & GDK_CONTROL_MASK) != 0;
    gtk_widget_grab_focus(self->area);
}

static void drag_update(GtkGestureDrag *g, double ox, double oy, gpointer data)
{
    MotusViewport *self = data;
    if (self->drag_mode == DRAG_GIZMO) {
        GdkModifierType mods = gtk_event_controller_get_current_event_state(GTK_EVENT_CONTROLLER(g));
        motus_viewport_gizmo_update(self, self->drag_x + ox, self->drag_y + oy, (mods & GDK_CONTROL_MASK) != 0);
        return;
    }
    double dx = ox - self->drag_dx, dy = oy - self->drag_dy;
    self->drag_dx = ox, self->drag_dy = oy;
    if (dx != 0 || dy != 0) self->touched = TRUE;
    if (self->drag_mode == DRAG_ORBIT)
        motus_camera_orbit(&self->cam, (float)(-dx * 0.008), (float)(dy * 0.008));
    else if (self->drag_mode == DRAG_PAN)
        motus_camera_pan(&self->cam, (float)dx, (float)dy, (float)gtk_widget_get_height(self->area));
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
}

static void drag_end(GtkGestureDrag *g, double ox, double oy, gpointer data)
{
    (void)g;
    MotusViewport *self = data;
    if (self->drag_mode == DRAG_GIZMO) {
        self->drag_mode = DRAG_NONE;
        motus_viewport_gizmo_end(self);
        return;
    }
    if (self->drag_button == 1 && fabs(ox) < 3 && fabs(oy) < 3) {
        if (self->picking)
            g_signal_emit(self, signals[SIG_POINT_CLICKED], 0, self->drag_x + ox, self->drag_y + oy);
        else if (self->drag_ctrl) /* Ctrl+click: one more body for the classroom view, the selection stays */
            g_signal_emit(self, signals[SIG_BODY_TOGGLED], 0, pick(self, self->drag_x + ox, self->drag_y + oy));
        else
            motus_viewport_pick_at(self, self->drag_x + ox, self->drag_y + oy);
    }
    self->drag_mode = DRAG_NONE;
}

/* The gizmo's handle under the pointer lights up. */
static void pointer_moved(GtkEventControllerMotion *c, double x, double y, gpointer data)
{
    (void)c;
    MotusViewport *self = data;
    if (self->gizmo.mode == MOTUS_GIZMO_OFF || self->gizmo_handle >= 0) return;
    int h = motus_gizmo_hit(&self->gizmo, &self->cam, gtk_widget_get_width(self->area), gtk_widget_get_height(self->area), x,
                            y, 8);
    if (h != self->gizmo_hover) {
        self->gizmo_hover = h;
        gtk_widget_queue_draw(self->hud);
    }
}

static gboolean scrolled(GtkEventControllerScroll *c, double dx, double dy, gpointer data)
{
    (void)c, (void)dx;
    MotusViewport *self = data;
    motus_camera_zoom(&self->cam, powf(1.15f, (float)dy));
    self->touched = TRUE;
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
    return TRUE;
}

static gboolean key_pressed(GtkEventControllerKey *c, guint key, guint code, GdkModifierType mods, gpointer data)
{
    (void)c, (void)code;
    MotusViewport *self = data;
    const float a = 5.0f * (float)G_PI / 180.0f;
    if (mods & (GDK_CONTROL_MASK | GDK_ALT_MASK)) return FALSE;
    if (self->planar && (key == GDK_KEY_Left || key == GDK_KEY_Right || key == GDK_KEY_Up || key == GDK_KEY_Down))
        return FALSE; /* the plane stays facing the eye */
    switch (key) {
    case GDK_KEY_Left: motus_camera_orbit(&self->cam, a, 0); break;
    case GDK_KEY_Right: motus_camera_orbit(&self->cam, -a, 0); break;
    case GDK_KEY_Up: motus_camera_orbit(&self->cam, 0, a); break;
    case GDK_KEY_Down: motus_camera_orbit(&self->cam, 0, -a); break;
    case GDK_KEY_plus:
    case GDK_KEY_equal:
    case GDK_KEY_KP_Add: motus_camera_zoom(&self->cam, 1 / 1.2f); break;
    case GDK_KEY_minus:
    case GDK_KEY_KP_Subtract: motus_camera_zoom(&self->cam, 1.2f); break;
    default: return FALSE;
    }
    self->touched = TRUE;
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
    return TRUE;
}

/* ---- GObject ------------------------------------------------------------------------ */

static void motus_viewport_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
    MotusViewport *self = MOTUS_VIEWPORT(object);
    if (id == PROP_ORTHOGRAPHIC)
        g_value_set_boolean(value, self->cam.ortho);
    else
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
}

static void motus_viewport_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
    MotusViewport *self = MOTUS_VIEWPORT(object);
    if (id == PROP_ORTHOGRAPHIC)
        motus_viewport_set_orthographic(self, g_value_get_boolean(value));
    else
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
}

static void motus_viewport_dispose(GObject *object)
{
    MotusViewport *self = MOTUS_VIEWPORT(object);
    g_clear_handle_id(&self->grid_label_idle, g_source_remove);
    g_clear_pointer(&self->overlay, gtk_widget_unparent);
    G_OBJECT_CLASS(motus_viewport_parent_class)->dispose(object);
}

static void motus_viewport_finalize(GObject *object)
{
    MotusViewport *self = MOTUS_VIEWPORT(object);
    g_clear_pointer(&self->scene, motus_scene_free);
    g_clear_pointer(&self->model, mt_model_free);
    g_clear_pointer(&self->poses, g_free);
    g_clear_pointer(&self->spring_verts, g_array_unref);
    g_clear_pointer(&self->env, g_array_unref);
    g_clear_pointer(&self->ov, g_array_unref);
    g_clear_pointer(&self->ov_pts, g_array_unref);
    g_clear_pointer(&self->ov_rects, g_array_unref);
    g_clear_pointer(&self->w, g_free);
    g_clear_pointer(&self->wp, g_free);
    g_clear_pointer(&self->rig, g_free);
    g_clear_error(&self->gl_error);
    for (int l = 0; l < MOTUS_LOD_LEVELS; l++) g_free(self->lod[l]);
    g_free(self->level);
    g_free(self->axes);
    g_free(self->flexgl);
    G_OBJECT_CLASS(motus_viewport_parent_class)->finalize(object);
}

static void action_preset(GtkWidget *w, const char *name, GVariant *param)
{
    (void)param;
    MotusViewport *self = MOTUS_VIEWPORT(w);
    if (!strcmp(name, "view.front"))
        motus_viewport_view_preset(self, MOTUS_VIEW_FRONT);
    else if (!strcmp(name, "view.right"))
        motus_viewport_view_preset(self, MOTUS_VIEW_RIGHT);
    else if (!strcmp(name, "view.top"))
        motus_viewport_view_preset(self, MOTUS_VIEW_TOP);
    else if (!strcmp(name, "view.iso"))
        motus_viewport_view_preset(self, MOTUS_VIEW_ISO);
    else if (!strcmp(name, "view.fit"))
        motus_viewport_fit_all(self);
}

static void motus_viewport_class_init(MotusViewportClass *klass)
{
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
    object_class->dispose = motus_viewport_dispose;
    object_class->finalize = motus_viewport_finalize;
    object_class->get_property = motus_viewport_get_property;
    object_class->set_property = motus_viewport_set_property;
    props[PROP_ORTHOGRAPHIC] = g_param_spec_boolean(
        "orthographic", NULL, NULL, FALSE, G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
    g_object_class_install_properties(object_class, N_PROPS, props);
    /* A click picked a body: index, nbody for the ground, -1 for empty space. */
    signals[SIG_BODY_PICKED] = g_signal_new("body-picked", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                            NULL, G_TYPE_NONE, 1, G_TYPE_INT);
    /* A Ctrl+click on a body: index, nbody for the ground, -1 for empty space (the selection is kept). */
    signals[SIG_BODY_TOGGLED] = g_signal_new("body-toggled", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                             NULL, G_TYPE_NONE, 1, G_TYPE_INT);
    /* A click while picking (motus_viewport_set_picking): widget coordinates. */
    signals[SIG_POINT_CLICKED] = g_signal_new("point-clicked", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                              NULL, NULL, G_TYPE_NONE, 2, G_TYPE_DOUBLE, G_TYPE_DOUBLE);
    /* A gizmo drag ended (motus_viewport_set_gizmo): mode (MotusGizmoMode), axis 0..2, amount (m or rad). */
    signals[SIG_GIZMO_DRAGGED] = g_signal_new("gizmo-dragged", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                              NULL, NULL, G_TYPE_NONE, 3, G_TYPE_INT, G_TYPE_INT, G_TYPE_DOUBLE);
    gtk_widget_class_install_action(widget_class, "view.front", NULL, action_preset);
    gtk_widget_class_install_action(widget_class, "view.right", NULL, action_preset);
    gtk_widget_class_install_action(widget_class, "view.top", NULL, action_preset);
    gtk_widget_class_install_action(widget_class, "view.iso", NULL, action_preset);
    gtk_widget_class_install_action(widget_class, "view.fit", NULL, action_preset);
    gtk_widget_class_install_property_action(widget_class, "view.orthographic", "orthographic");
    gtk_widget_class_set_layout_manager_type(widget_class, GTK_TYPE_BIN_LAYOUT);
    gtk_widget_class_set_css_name(widget_class, "motus-viewport");
}

static GtkWidget *tool_button(const char *label, const char *action, const char *tooltip)
{
    GtkWidget *b = gtk_button_new_with_label(label);
    gtk_actionable_set_action_name(GTK_ACTIONABLE(b), action);
    gtk_widget_set_tooltip_text(b, tooltip);
    gtk_widget_set_focus_on_click(b, FALSE);
    return b;
}

/* The Follow button shows whether the camera follows a body. */
static void follow_sync(MotusViewport *self)
{
    if (!self->follow_button) return;
    self->follow_syncing = TRUE;
    gtk_toggle_button_set_active(GTK_TOGGLE_BUTTON(self->follow_button), self->follow >= 0);
    self->follow_syncing = FALSE;
}

/* On: the camera follows the selected body (nothing selected: the button goes off again). Off: it stays. */
static void follow_toggled(GtkToggleButton *b, gpointer data)
{
    MotusViewport *self = data;
    if (self->follow_syncing) return;
    int n = self->model ? self->model->nbody : 0;
    self->follow = gtk_toggle_button_get_active(b) && self->selected >= 0 && self->selected < n ? self->selected : -1;
    follow_sync(self);
}

int motus_viewport_get_follow(MotusViewport *self) { return self->follow; }

static void motus_viewport_init(MotusViewport *self)
{
    self->selected = -1;
    self->follow = -1;
    self->gizmo_body = self->gizmo_handle = self->gizmo_hover = -1;
    self->spring_verts = g_array_new(FALSE, FALSE, sizeof(MotusVertex));
    self->env = g_array_new(FALSE, FALSE, sizeof(float));
    self->ov = g_array_new(FALSE, FALSE, sizeof(OverlayItem));
    g_array_set_clear_func(self->ov, overlay_item_clear);
    self->ov_pts = g_array_new(FALSE, FALSE, sizeof(double));
    self->ov_rects = g_array_new(FALSE, FALSE, sizeof(double));
    motus_camera_init(&self->cam, 1);
    self->grid_step = 0.1f;

    self->overlay = gtk_overlay_new();
    gtk_widget_set_parent(self->overlay, GTK_WIDGET(self));
    self->area = motus_gl_view_new();
    GtkGLArea *area = GTK_GL_AREA(self->area);
    gtk_gl_area_set_required_version(area, 3, 3);
#if GTK_CHECK_VERSION(4, 12, 0)
    gtk_gl_area_set_allowed_apis(area, GDK_GL_API_GL);
#endif
    gtk_gl_area_set_has_depth_buffer(area, TRUE);
    gtk_gl_area_set_auto_render(area, TRUE);
    gtk_widget_set_hexpand(self->area, TRUE);
    gtk_widget_set_vexpand(self->area, TRUE);
    gtk_widget_set_focusable(self->area, TRUE);
    gtk_widget_set_size_request(self->area, 200, 150);
    g_signal_connect(area, "realize", G_CALLBACK(motus_viewport_gl_realize), self);
    g_signal_connect(area, "unrealize", G_CALLBACK(motus_viewport_gl_unrealize), self);
    g_signal_connect(area, "render", G_CALLBACK(motus_viewport_gl_render), self);
    gtk_overlay_set_child(GTK_OVERLAY(self->overlay), self->area);

    self->hud = gtk_drawing_area_new();
    gtk_widget_set_can_target(self->hud, FALSE);
    gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(self->hud), motus_viewport_hud_draw, self, NULL);
    gtk_overlay_add_overlay(GTK_OVERLAY(self->overlay), self->hud);
    self->axes_hud = gtk_drawing_area_new();
    gtk_widget_set_can_target(self->axes_hud, FALSE);
    gtk_widget_set_halign(self->axes_hud, GTK_ALIGN_START);
    gtk_widget_set_valign(self->axes_hud, GTK_ALIGN_END);
    gtk_widget_set_size_request(self->axes_hud, TRIAD_PX, TRIAD_PX);
    gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(self->axes_hud), motus_viewport_axes_draw, self, NULL);
    gtk_overlay_add_overlay(GTK_OVERLAY(self->overlay), self->axes_hud);

    self->toolbar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
    gtk_widget_add_css_class(self->toolbar, "linked");
    gtk_widget_set_halign(self->toolbar, GTK_ALIGN_END);
    gtk_widget_set_valign(self->toolbar, GTK_ALIGN_START);
    gtk_widget_set_margin_top(self->toolbar, 8);
    gtk_widget_set_margin_end(self->toolbar, 8);
    /* TRANSLATORS: view preset buttons of the 3D view; the keys are in brackets in the tooltips. */
    gtk_box_append(GTK_BOX(self->toolbar), tool_button(_("Front"), "view.front", _("Front view (1)")));
    gtk_box_append(GTK_BOX(self->toolbar), tool_button(_("Right"), "view.right", _("Right view (3)")));
    gtk_box_append(GTK_BOX(self->toolbar), tool_button(_("Top"), "view.top", _("Top view (7)")));
    gtk_box_append(GTK_BOX(self->toolbar), tool_button(_("Iso"), "view.iso", _("Isometric view (0)")));
    gtk_box_append(GTK_BOX(self->toolbar), tool_button(_("Fit"), "view.fit", _("Fit everything in view (F)")));
    GtkWidget *ortho = gtk_toggle_button_new_with_label(_("Ortho"));
    gtk_actionable_set_action_name(GTK_ACTIONABLE(ortho), "view.orthographic");
    gtk_widget_set_tooltip_text(ortho, _("Orthographic projection (5)"));
    gtk_widget_set_focus_on_click(ortho, FALSE);
    gtk_box_append(GTK_BOX(self->toolbar), ortho);
    /* TRANSLATORS: toggle button of the 3D view: the camera moves with the selected body */
    self->follow_button = gtk_toggle_button_new_with_label(_("Follow"));
    gtk_widget_set_tooltip_text(self->follow_button, _("Keep the selected body in view as it moves: the camera moves with it"));
    gtk_widget_set_focus_on_click(self->follow_button, FALSE);
    g_signal_connect(self->follow_button, "toggled", G_CALLBACK(follow_toggled), self);
    gtk_box_append(GTK_BOX(self->toolbar), self->follow_button);
    gtk_overlay_add_overlay(GTK_OVERLAY(self->overlay), self->toolbar);
    self->grid_label = gtk_label_new("");
    gtk_widget_set_can_target(self->grid_label, FALSE);
    gtk_widget_set_halign(self->grid_label, GTK_ALIGN_START);
    gtk_widget_set_valign(self->grid_label, GTK_ALIGN_END);
    gtk_widget_set_margin_start(self->grid_label, TRIAD_PX + 4);
    gtk_widget_set_margin_bottom(self->grid_label, 8);
    gtk_widget_add_css_class(self->grid_label, "dim-label");
    gtk_widget_set_visible(self->grid_label, FALSE);
    gtk_overlay_add_overlay(GTK_OVERLAY(self->overlay), self->grid_label);

    GtkGesture *drag = gtk_gesture_drag_new();
    gtk_gesture_single_set_button(GTK_GESTURE_SINGLE(drag), 0);
    g_signal_connect(drag, "drag-begin", G_CALLBACK(drag_begin), self);
    g_signal_connect(drag, "drag-update", G_CALLBACK(drag_update), self);
    g_signal_connect(drag, "drag-end", G_CALLBACK(drag_end), self);
    gtk_widget_add_controller(self->area, GTK_EVENT_CONTROLLER(drag));
    GtkEventController *scroll = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
    g_signal_connect(scroll, "scroll", G_CALLBACK(scrolled), self);
    gtk_widget_add_controller(self->area, scroll);
    GtkEventController *motion = gtk_event_controller_motion_new();
    g_signal_connect(motion, "motion", G_CALLBACK(pointer_moved), self);
    gtk_widget_add_controller(self->area, motion);
    GtkEventController *keys = gtk_event_controller_key_new();
    g_signal_connect(keys, "key-pressed", G_CALLBACK(key_pressed), self);
    gtk_widget_add_controller(self->area, keys);
    motus_viewport_flex_controls_init(self);
}

GtkWidget *motus_viewport_new(void) { return g_object_new(MOTUS_TYPE_VIEWPORT, NULL); }

static void planar_camera(MotusViewport *self);

/* A new model: no gizmo (the window shows it again for the new model), a drag dropped without an edit. */
static void gizmo_reset(MotusViewport *self)
{
    self->gizmo.mode = MOTUS_GIZMO_OFF;
    self->gizmo_body = self->gizmo_handle = self->gizmo_hover = -1;
    self->gizmo_amount = 0;
}

void motus_viewport_set_model(MotusViewport *self, const MtModel *m, const char *model_dir, GString *warnings)
{
    gizmo_reset(self);
    self->deform_chosen = self->field_chosen = FALSE; /* another model: the next run may propose a view */
    g_clear_pointer(&self->scene, motus_scene_free);
    g_clear_pointer(&self->model, mt_model_free);
    g_clear_pointer(&self->poses, g_free);
    self->selected = -1;
    /* a model opened: its view line's `follow` (an edit later keeps the button's choice: motus_viewport_update_model) */
    self->follow = m && m->view.set && m->view.follow[0] ? mt_model_find_body(m, m->view.follow) : -1;
    follow_sync(self);
    if (m) {
        self->model = mt_model_copy(m);
        self->scene = motus_scene_new(self->model, model_dir, warnings); /* borrows the copy's flexible data */
        self->poses = g_new0(double, 7 * (m->nbody + 1));
        motus_scene_model_poses(m, self->poses);
        self->cam.up_axis = self->scene->up_axis;
        motus_camera_preset(&self->cam, MOTUS_VIEW_ISO);
        if (self->planar) planar_camera(self);
        /* grid: on the floor below the initial configuration, spacing about a fifth of the model */
        float c[3], r;
        motus_scene_bounds(self->scene, self->poses, c, &r);
        memcpy(self->grid_centre, c, sizeof c);
        self->grid_y = motus_scene_floor(self->scene, self->poses);
        g_array_set_size(self->env, 0);
        self->grid_step = (float)motus_nice_step(self->scene->scale / 5);
        self->need_fit = TRUE;
    }
    motus_viewport_flex_model_changed(self);
    self->scene_dirty = TRUE;
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
    motus_viewport_hud_refresh(self);
}

void motus_viewport_update_model(MotusViewport *self, const MtModel *m, const char *model_dir, GString *warnings)
{
    gizmo_reset(self);
    if (!m || !self->model) {
        motus_viewport_set_model(self, m, model_dir, warnings);
        return;
    }
    int sel = self->selected, nbody_old = self->model->nbody;
    gboolean was_empty = !self->scene || !motus_scene_box(self->scene, self->poses, (double[3]){0}, (double[3]){0});
    g_clear_pointer(&self->scene, motus_scene_free);
    g_clear_pointer(&self->model, mt_model_free);
    g_clear_pointer(&self->poses, g_free);
    self->model = mt_model_copy(m);
    self->scene = motus_scene_new(self->model, model_dir, warnings);
    self->poses = g_new0(double, 7 * (m->nbody + 1));
    motus_scene_model_poses(m, self->poses);
    if (self->follow >= m->nbody) self->follow = -1; /* the Follow button's choice outlives an edit, as the selection does */
    follow_sync(self);
    self->cam.up_axis = self->scene->up_axis;
    motus_viewport_flex_model_changed(self);
    g_array_set_size(self->env, 0);
    float c[3], r;
    motus_scene_bounds(self->scene, self->poses, c, &r);
    memcpy(self->grid_centre, c, sizeof c);
    self->grid_y = motus_scene_floor(self->scene, self->poses);
    self->grid_step = (float)motus_nice_step(self->scene->scale / 5);
    self->grid_dirty = TRUE;
    /* the ground keeps its index nbody when bodies come and go */
    self->selected = sel == nbody_old ? m->nbody : (sel < m->nbody ? sel : -1);
    if (!self->planar && (!self->touched || was_empty)) self->need_fit = TRUE; /* planar: the drawing stays put */
    self->scene_dirty = TRUE;
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
    motus_viewport_hud_refresh(self);
}

void motus_viewport_show_initial(MotusViewport *self)
{
    if (!self->model) return;
    motus_scene_model_poses(self->model, self->poses);
    motus_viewport_set_modal(self, NULL, 0); /* and undeformed */
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
    motus_viewport_hud_refresh(self);
}

gboolean motus_viewport_body_to_world(MotusViewport *self, int body, const double p[3], double out[3])
{
    if (!self->model || body < -1 || body >= self->model->nbody) return FALSE;
    if (body < 0) {
        memcpy(out, p, 3 * sizeof(double));
        return TRUE;
    }
    /* in double (the pose matrices of drawing are float) */
    const double *q = self->poses + 7 * body + 3, *x = self->poses + 7 * body;
    double w = q[0], a = q[1], b = q[2], c = q[3];
    double R[9] = {1 - 2 * (b * b + c * c), 2 * (a * b - w * c),     2 * (a * c + w * b),
                   2 * (a * b + w * c),     1 - 2 * (a * a + c * c), 2 * (b * c - w * a),
                   2 * (a * c - w * b),     2 * (b * c + w * a),     1 - 2 * (a * a + b * b)};
    for (int i = 0; i < 3; i++) out[i] = x[i] + R[3 * i] * p[0] + R[3 * i + 1] * p[1] + R[3 * i + 2] * p[2];
    return TRUE;
}

gboolean motus_viewport_project_point(MotusViewport *self, const double p[3], double *x, double *y)
{
    if (!self->scene) return FALSE;
    if (self->need_fit) motus_viewport_fit_now(self);
    int W = gtk_widget_get_width(self->area), H = gtk_widget_get_height(self->area);
    if (!motus_viewport_to_screen(self, p, W, H, x, y)) return FALSE;
    return *x >= 0 && *y >= 0 && *x <= W && *y <= H;
}

int motus_viewport_body_at(MotusViewport *self, double x, double y) { return pick(self, x, y); }

void motus_viewport_set_picking(MotusViewport *self, gboolean picking)
{
    self->picking = picking;
    gtk_widget_set_cursor_from_name(self->area, picking ? "crosshair" : NULL);
}

const char *motus_viewport_overlay_label(MotusViewport *self, guint i)
{
    return i < self->ov->len ? g_array_index(self->ov, OverlayItem, i).label : NULL;
}

void motus_viewport_look_at(MotusViewport *self, const double p[3])
{
    if (self->need_fit) motus_viewport_fit_now(self);
    for (int k = 0; k < 3; k++) self->cam.target[k] = (float)p[k];
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
}

double motus_viewport_get_scale(MotusViewport *self) { return self->scene ? self->scene->scale : 1.0; }

void motus_viewport_set_poses(MotusViewport *self, const double *poses)
{
    if (!self->model) return;
    if (self->follow >= 0 && self->follow < self->model->nbody) { /* the camera moves with the body: orbit and zoom stay */
        int up = self->scene ? self->scene->up_axis : 1;
        float s = self->grid_step > 0 ? self->grid_step : 1;
        for (int k = 0; k < 3; k++) {
            float d = (float)(poses[7 * self->follow + k] - self->poses[7 * self->follow + k]);
            self->cam.target[k] += d;
            if (k == up) continue;
            float before = roundf(self->grid_centre[k] / s);
            self->grid_centre[k] += d; /* and the floor grid, rebuilt when it moves by a spacing */
            if (roundf(self->grid_centre[k] / s) != before) self->grid_dirty = TRUE;
        }
    }
    memcpy(self->poses, poses, 7 * (size_t)self->model->nbody * sizeof(double));
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
}

void motus_viewport_include_poses(MotusViewport *self, const double *poses)
{
    if (self->scene) motus_scene_corners(self->scene, poses, self->env);
}

void motus_viewport_motion_done(MotusViewport *self)
{
    if (!self->scene || !self->env->len) return;
    int up = self->scene->up_axis;
    float low = INFINITY;
    for (guint k = 0; k < self->env->len / 3; k++) low = fminf(low, g_array_index(self->env, float, 3 * k + up));
    float floor = low - (float)(0.05 * self->scene->scale);
    if (floor < self->grid_y) {
        self->grid_y = floor;
        self->grid_dirty = TRUE;
    }
    if (!self->touched && self->follow < 0) self->need_fit = TRUE; /* a followed body keeps the view on it */
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
}

void motus_viewport_set_selected_body(MotusViewport *self, int body)
{
    if (self->selected == body) return;
    self->selected = body;
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
}

int motus_viewport_get_selected_body(MotusViewport *self) { return self->selected; }

void motus_viewport_view_preset(MotusViewport *self, MotusViewPreset p)
{
    if (self->planar) return; /* the plane faces the eye */
    motus_camera_preset(&self->cam, p);
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
}

void motus_viewport_fit_all(MotusViewport *self)
{
    motus_viewport_fit_now(self);
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
}

void motus_viewport_fit_with_points(MotusViewport *self)
{
    if (!self->scene) return;
    g_autoptr(GArray) pts = g_array_new(FALSE, FALSE, sizeof(float));
    motus_scene_corners(self->scene, self->poses, pts);
    for (guint i = 0; i < self->ov->len; i++) {
        const OverlayItem *it = &g_array_index(self->ov, OverlayItem, i);
        if (it->kind != OV_POINT) continue;
        const double *p = (const double *)self->ov_pts->data + 3 * it->first;
        float f[3] = {(float)p[0], (float)p[1], (float)p[2]}, r[3], u[3], fw[3];
        g_array_append_vals(pts, f, 3);
        /* room for its label, drawn above it */
        motus_camera_basis(&self->cam, r, u, fw);
        float lift = 0.12f * (float)motus_viewport_get_scale(self);
        for (int k = 0; k < 3; k++) f[k] += lift * u[k];
        g_array_append_vals(pts, f, 3);
    }
    fit_points(self, (const float *)pts->data, (int)(pts->len / 3));
    self->need_fit = FALSE;
    self->touched = TRUE;
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
}

void motus_viewport_fit_body(MotusViewport *self, int body)
{
    if (!self->scene || body < 0 || body >= self->scene->nbody) return;
    const MotusBodyMesh *bm = &self->scene->body[body];
    if (!(bm->lo[0] <= bm->hi[0])) return;
    float pts[24];
    for (int k = 0; k < 8; k++) {
        double p[3] = {k & 1 ? bm->hi[0] : bm->lo[0], k & 2 ? bm->hi[1] : bm->lo[1], k & 4 ? bm->hi[2] : bm->lo[2]}, w[3];
        motus_viewport_body_to_world(self, body, p, w);
        for (int c = 0; c < 3; c++) pts[3 * k + c] = (float)w[c];
    }
    fit_points(self, pts, 8);
    self->need_fit = FALSE;
    self->touched = TRUE;
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
}

void motus_viewport_set_orthographic(MotusViewport *self, gboolean ortho)
{
    ortho = !!ortho;
    if (self->cam.ortho == ortho || self->planar) return;
    self->cam.ortho = ortho;
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
    g_object_notify_by_pspec(G_OBJECT(self), props[PROP_ORTHOGRAPHIC]);
}

gboolean motus_viewport_get_orthographic(MotusViewport *self) { return self->cam.ortho; }

void motus_viewport_view_direction(MotusViewport *self, double fwd[3]) { motus_viewport_view_basis(self, NULL, NULL, fwd); }

void motus_viewport_view_basis(MotusViewport *self, double right[3], double up[3], double fwd[3])
{
    float r[3], u[3], f[3];
    motus_camera_basis(&self->cam, r, u, f);
    for (int k = 0; k < 3; k++) {
        if (right) right[k] = r[k];
        if (up) up[k] = u[k];
        if (fwd) fwd[k] = f[k];
    }
}

void motus_viewport_add_overlay_widget(MotusViewport *self, GtkWidget *w) { gtk_overlay_add_overlay(GTK_OVERLAY(self->overlay), w); }

gboolean motus_viewport_project_body(MotusViewport *self, int body, double *x, double *y)
{
    if (!self->scene || body < 0 || body > self->scene->nbody) return FALSE;
    if (self->need_fit) motus_viewport_fit_now(self);
    const MotusBodyMesh *bm = &self->scene->body[body];
    if (!(bm->lo[0] <= bm->hi[0])) return FALSE;
    mat4 M;
    motus_viewport_body_matrix(self, body, M);
    vec4 c = {bm->centre[0], bm->centre[1], bm->centre[2], 1}, w;
    glm_mat4_mulv(M, c, w);
    if (bm->flex && bm->flex->centre_vertex >= 0) { /* a flexible body: where its middle is drawn, deformed */
        double p[3];
        motus_viewport_flex_vertex(self, body, bm->flex->centre_vertex, self->deform, p);
        for (int k = 0; k < 3; k++) w[k] = (float)p[k];
    }
    float out[2];
    float W = (float)gtk_widget_get_width(self->area), H = (float)gtk_widget_get_height(self->area);
    if (!motus_camera_project(&self->cam, w, W, H, out)) return FALSE;
    if (out[0] < 0 || out[1] < 0 || out[0] > W || out[1] > H) return FALSE;
    *x = out[0];
    *y = out[1];
    return TRUE;
}

int motus_viewport_pick_at(MotusViewport *self, double x, double y)
{
    int b = pick(self, x, y);
    self->selected = b;
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
    g_signal_emit(self, signals[SIG_BODY_PICKED], 0, b);
    return b;
}

guint motus_viewport_get_frames_drawn(MotusViewport *self) { return self->frames + motus_gl_view_pictures_shown(MOTUS_GL_VIEW(self->area)); }

void motus_viewport_set_full_detail(MotusViewport *self, gboolean full)
{
    self->full_detail = full;
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
}

int motus_viewport_get_body_detail(MotusViewport *self, int body)
{
    return body >= 0 && body < self->nbuf ? self->level[body] : -1;
}

gboolean motus_viewport_reads_back(MotusViewport *self) { return motus_gl_view_has_picture(MOTUS_GL_VIEW(self->area)); }

int motus_viewport_get_draw_rank(MotusViewport *self, int body)
{
    if (body < 0 || body >= self->nbuf || self->level[body] < 0) return -1;
    for (int k = 0; k < self->nbuf; k++)
        if (self->order[k] == body) return k;
    return -1;
}

long motus_viewport_get_triangles_drawn(MotusViewport *self) { return self->tris_drawn; }

const GError *motus_viewport_get_error(MotusViewport *self) { return self->gl_error; }
const char *motus_viewport_get_gl_info(MotusViewport *self) { return self->gl_info; }
GtkWidget *motus_viewport_get_gl_area(MotusViewport *self) { return self->area; }

void motus_viewport_queue_render(MotusViewport *self)
{
    motus_gl_view_queue_fresh(MOTUS_GL_VIEW(self->area));
}

/* ---- planar mode ----------------------------------------------------------------------- */

/* Looking at the x–y plane along −z, x right and y up: the front view when y is up, the top view when z is. */
static void planar_camera(MotusViewport *self)
{
    motus_camera_preset(&self->cam, self->cam.up_axis == 2 ? MOTUS_VIEW_TOP : MOTUS_VIEW_FRONT);
    self->cam.ortho = 1;
}

void motus_viewport_set_planar(MotusViewport *self, gboolean planar)
{
    planar = !!planar;
    if (self->planar == planar) return;
    if (planar) {
        self->cam_3d = self->cam;
        planar_camera(self);
    } else { /* the 3-D camera as it was, centred where the plane was looked at */
        float t[3];
        memcpy(t, self->cam.target, sizeof t);
        self->cam = self->cam_3d;
        memcpy(self->cam.target, t, sizeof t);
    }
    self->planar = planar;
    static const char *const turning[] = {"view.front", "view.right", "view.top", "view.iso", "view.orthographic"};
    for (guint i = 0; i < G_N_ELEMENTS(turning); i++) gtk_widget_action_set_enabled(GTK_WIDGET(self), turning[i], !planar);
    gtk_widget_set_visible(self->grid_label, planar);
    gtk_widget_set_visible(self->follow_button, !planar); /* drawing in the plane: the drawing tools take the room */
    self->grid_dirty = TRUE;
    g_object_notify_by_pspec(G_OBJECT(self), props[PROP_ORTHOGRAPHIC]);
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
    motus_viewport_hud_refresh(self);
}

gboolean motus_viewport_get_planar(MotusViewport *self) { return self->planar; }

/* Value of grid line i: i·mant·10^exp, divided by a power of ten when exp < 0 so that the double is the
 * decimal's nearest (3 × 0.1 gives 0.30000000000000004, 3 / 10 gives 0.3). */
double motus_viewport_step_value(const MotusViewport *self, long i)
{
    double n = (double)i * self->step_mant;
    return self->step_exp < 0 ? n / pow(10, -self->step_exp) : n * pow(10, self->step_exp);
}

/* The label says the spacing: set from the main loop, never while the view is drawn (GTK lays out). */
static gboolean grid_label_update(gpointer data)
{
    MotusViewport *self = data;
    self->grid_label_idle = 0;
    char num[32];
    g_snprintf(num, sizeof num, "%.10g", motus_viewport_step_value(self, 1));
    /* TRANSLATORS: the spacing of the grid in planar mode, e.g. "grid 0.1 m" */
    g_autofree char *text = g_strdup_printf(_("grid %s m"), num);
    gtk_label_set_text(GTK_LABEL(self->grid_label), text);
    return G_SOURCE_REMOVE;
}

/* A 1-2-5 spacing near a sixteenth of the view's height. */
void motus_viewport_planar_step(MotusViewport *self)
{
    double want = 2.0 * self->cam.distance * tan(self->cam.fovy * 0.5) / 16, e = floor(log10(want));
    double f = want / pow(10, e);
    int mant = f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10, exp = (int)e;
    if (mant == 10) mant = 1, exp++;
    if (mant == self->step_mant && exp == self->step_exp) return;
    self->step_mant = mant, self->step_exp = exp;
    if (!self->grid_label_idle) self->grid_label_idle = g_idle_add(grid_label_update, self);
}

double motus_viewport_grid_step(MotusViewport *self)
{
    motus_viewport_planar_step(self);
    return motus_viewport_step_value(self, 1);
}

void motus_viewport_snap_grid(MotusViewport *self, const double p[3], double out[3])
{
    motus_viewport_planar_step(self);
    double s = motus_viewport_step_value(self, 1);
    for (int k = 0; k < 2; k++) out[k] = motus_viewport_step_value(self, lround(p[k] / s));
    out[2] = 0;
}

gboolean motus_viewport_plane_point(MotusViewport *self, double x, double y, double p[3])
{
    if (!self->planar || !self->scene) return FALSE;
    if (self->need_fit) motus_viewport_fit_now(self);
    float r[3], u[3], f[3];
    motus_camera_basis(&self->cam, r, u, f);
    double W = gtk_widget_get_width(self->area), H = gtk_widget_get_height(self->area);
    double s = motus_camera_pixel_size(&self->cam, (float)H), q[3];
    for (int k = 0; k < 3; k++) q[k] = self->cam.target[k] + (x - W / 2) * s * r[k] - (y - H / 2) * s * u[k];
    if (fabs(f[2]) < 1e-6) return FALSE;
    double t = q[2] / f[2]; /* along the line of sight to z = 0 */
    for (int k = 0; k < 3; k++) p[k] = q[k] - t * f[k];
    p[2] = 0;
    return TRUE;
}

void motus_viewport_set_snap_mark(MotusViewport *self, const double p[3], const char *label)
{
    self->snap_on = p != NULL;
    if (p) memcpy(self->snap_p, p, sizeof self->snap_p);
    g_strlcpy(self->snap_label, label ? label : "", sizeof self->snap_label);
    motus_viewport_hud_refresh(self);
}

gboolean motus_viewport_get_snap_mark(MotusViewport *self, double p[3])
{
    if (self->snap_on && p) memcpy(p, self->snap_p, sizeof self->snap_p);
    return self->snap_on;
}

void motus_viewport_get_camera(MotusViewport *self, MotusCamera *out) { *out = self->cam; }

/* ---- the move/rotate gizmo ------------------------------------------------------------- */

void motus_viewport_set_gizmo(MotusViewport *self, MotusGizmoMode mode, const double origin[3], const double axes[9],
                              int body)
{
    if (mode == self->gizmo.mode && mode != MOTUS_GIZMO_OFF && body == self->gizmo_body &&
        !memcmp(origin, self->gizmo.origin, sizeof self->gizmo.origin) && !memcmp(axes, self->gizmo.axes, sizeof self->gizmo.axes))
        return; /* unchanged: a drag in progress goes on */
    if (self->gizmo_handle >= 0) { /* moved or hidden during a drag: the drag is dropped, no edit */
        if (self->gizmo_body >= 0) memcpy(self->poses + 7 * self->gizmo_body, self->gizmo_pose, sizeof self->gizmo_pose);
        self->gizmo_handle = -1;
        self->gizmo_amount = 0;
        motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
    }
    self->gizmo.mode = mode;
    if (mode != MOTUS_GIZMO_OFF) {
        memcpy(self->gizmo.origin, origin, sizeof self->gizmo.origin);
        memcpy(self->gizmo.axes, axes, sizeof self->gizmo.axes);
    }
    self->gizmo_body = mode != MOTUS_GIZMO_OFF && self->model && body >= 0 && body < self->model->nbody ? body : -1;
    self->gizmo_hover = -1;
    motus_viewport_hud_refresh(self);
}

MotusGizmoMode motus_viewport_get_gizmo(MotusViewport *self) { return self->gizmo.mode; }

void motus_viewport_add_tool(MotusViewport *self, GtkWidget *tool)
{
    gtk_widget_set_margin_end(tool, 8);
    gtk_box_prepend(GTK_BOX(self->toolbar), tool);
}

gboolean motus_viewport_gizmo_point(MotusViewport *self, int axis, double *x, double *y)
{
    float xy[2 * (MOTUS_GIZMO_RING + 1)];
    int n = motus_gizmo_path(&self->gizmo, &self->cam, gtk_widget_get_width(self->area), gtk_widget_get_height(self->area),
                             axis, xy);
    if (!n) return FALSE;
    /* 80 % along an arrow; a ring at its angle 0 */
    int j = self->gizmo.mode == MOTUS_GIZMO_MOVE ? 1 : 0;
    double fx = self->gizmo.mode == MOTUS_GIZMO_MOVE ? xy[0] + 0.8 * (xy[2] - xy[0]) : xy[0];
    double fy = self->gizmo.mode == MOTUS_GIZMO_MOVE ? xy[1] + 0.8 * (xy[3] - xy[1]) : xy[1];
    if (isnan(xy[2 * j])) return FALSE;
    *x = fx, *y = fy;
    return TRUE;
}

gboolean motus_viewport_gizmo_begin(MotusViewport *self, double x, double y)
{
    if (self->gizmo.mode == MOTUS_GIZMO_OFF || !self->gl_ok) return FALSE;
    int h = motus_gizmo_hit(&self->gizmo, &self->cam, gtk_widget_get_width(self->area), gtk_widget_get_height(self->area), x,
                            y, 8);
    if (h < 0) return FALSE;
    self->gizmo_handle = h;
    self->gizmo_x0 = x, self->gizmo_y0 = y;
    self->gizmo_amount = 0;
    if (self->gizmo_body >= 0) memcpy(self->gizmo_pose, self->poses + 7 * self->gizmo_body, sizeof self->gizmo_pose);
    gtk_widget_queue_draw(self->hud);
    return TRUE;
}

void motus_viewport_gizmo_update(MotusViewport *self, double x, double y, gboolean snap)
{
    int k = self->gizmo_handle;
    if (k < 0) return;
    self->gizmo_amount = motus_gizmo_drag(&self->gizmo, &self->cam, gtk_widget_get_width(self->area),
                                          gtk_widget_get_height(self->area), k, self->gizmo_x0, self->gizmo_y0, x, y, snap);
    if (self->gizmo_body >= 0) { /* the body follows: its pose moved along or turned about the axis */
        double *p = self->poses + 7 * self->gizmo_body, a[3];
        const double *p0 = self->gizmo_pose;
        for (int i = 0; i < 3; i++) a[i] = self->gizmo.axes[3 * i + k];
        memcpy(p, p0, sizeof self->gizmo_pose);
        if (self->gizmo.mode == MOTUS_GIZMO_MOVE)
            for (int i = 0; i < 3; i++) p[i] = p0[i] + self->gizmo_amount * a[i];
        else { /* q = (cos θ/2, sin θ/2 a) ⊗ q0, about the body's origin (the gizmo's) */
            double h = 0.5 * self->gizmo_amount, w = cos(h), v[3] = {sin(h) * a[0], sin(h) * a[1], sin(h) * a[2]};
            const double *q = p0 + 3;
            p[3] = w * q[0] - v[0] * q[1] - v[1] * q[2] - v[2] * q[3];
            p[4] = w * q[1] + v[0] * q[0] + v[1] * q[3] - v[2] * q[2];
            p[5] = w * q[2] - v[0] * q[3] + v[1] * q[0] + v[2] * q[1];
            p[6] = w * q[3] + v[0] * q[2] - v[1] * q[1] + v[2] * q[0];
        }
        motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
    }
    gtk_widget_queue_draw(self->hud);
}

void motus_viewport_gizmo_end(MotusViewport *self)
{
    int k = self->gizmo_handle;
    if (k < 0) return;
    double amount = self->gizmo_amount;
    self->gizmo_handle = -1;
    self->gizmo_amount = 0;
    if (self->gizmo_body >= 0) { /* back as it was: the edit (if any) redraws the model */
        memcpy(self->poses + 7 * self->gizmo_body, self->gizmo_pose, sizeof self->gizmo_pose);
        motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
    }
    gtk_widget_queue_draw(self->hud);
    if (amount != 0) g_signal_emit(self, signals[SIG_GIZMO_DRAGGED], 0, (int)self->gizmo.mode, k, amount);
}

