/* motus-window.c — the main window (see motus-window.h): widgets, the views
 * of its document (MotusDocument: model, file, undo; motus-document.h) and
 * of its session (MotusSession: the run bridge with the worker and frames,
 * the time shown, playback; motus-session.h), run status, plots and
 * screenshots. The GTK thread owns the model, the widgets and GL; the run
 * bridge owns the worker. The window shows the stored frame at the
 * session's time whenever it changes ("time-changed"). Project actions are
 * in motus-window-project.c, editing in motus-window-edit.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "motus-dialog.h"
#include "motus-i18n.h"
#include "motus-scene.h"
#include "motus-window-private.h"
#include "motus-window-export.h"
#include "motus-window-study.h"
#include "motus-paint-warm.h"
#include "motus/units.h"

G_DEFINE_TYPE(MotusWindow, motus_window, GTK_TYPE_APPLICATION_WINDOW)

enum { SIG_RUN_FINISHED, N_SIGNALS };
static guint signals[N_SIGNALS];

#define set_status motus_window_set_status
#define error_dialog motus_window_error_dialog
#define update_actions motus_window_update_actions
static void show_time(MotusWindow *self, double t);

/* ---- helpers ---------------------------------------------------------------- */

void motus_window_set_status(MotusWindow *self, const char *text)
{
    /* a new text lays the window out again (on X11 with round trips to the server) */
    if (!g_strcmp0(gtk_label_get_text(self->status_label), text)) return;
    gtk_label_set_text(self->status_label, text);
    gtk_widget_set_tooltip_text(GTK_WIDGET(self->status_label), text);
}

void motus_window_error_dialog(MotusWindow *self, const char *title, const char *message)
{
    if (self->batch) {
        g_printerr("motus: %s: %s\n", title, message);
        return;
    }
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    GtkWidget *d = gtk_message_dialog_new(GTK_WINDOW(self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                          GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s", title);
    gtk_message_dialog_format_secondary_text(GTK_MESSAGE_DIALOG(d), "%s", message);
    g_signal_connect(d, "response", G_CALLBACK(gtk_window_destroy), NULL);
    G_GNUC_END_IGNORE_DEPRECATIONS
    gtk_window_present(GTK_WINDOW(d));
}

static double speed_factor(MotusWindow *self)
{
    static const double f[] = {0.05, 0.1, 0.25, 0.5, 1, 2, 4};
    guint i = gtk_drop_down_get_selected(self->speed_dropdown);
    return i < G_N_ELEMENTS(f) ? f[i] : 1.0;
}

/* Playback speed and looping are the session's; the controls set them. */
static void speed_changed(GObject *dd, GParamSpec *pspec, gpointer data)
{
    (void)dd, (void)pspec;
    MotusWindow *self = data;
    motus_session_set_speed(self->session, speed_factor(self));
}

static void loop_toggled(GtkToggleButton *b, gpointer data)
{
    motus_session_set_loop(((MotusWindow *)data)->session, gtk_toggle_button_get_active(b));
}

static guint n_frames(MotusWindow *self) { return motus_run_bridge_n_frames(motus_window_bridge(self)); }

/* ---- playback ------------------------------------------------------------------ */

static void set_time_label(MotusWindow *self)
{
    const MtModel *m = motus_window_model(self);
    double end = n_frames(self) ? motus_run_bridge_until(motus_window_bridge(self)) : (m ? m->solver.until : 0);
    char buf[64];
    const char *s = mt_unit_label(mt_unit_si(MT_DIM_TIME));
    g_snprintf(buf, sizeof buf, "%.3f %s / %.3f %s", motus_session_get_time(self->session), s, end, s);
    motus_ticker_set_text(self->time_label, buf);
}

static void show_time(MotusWindow *self, double t) { motus_session_show_time(self->session, t); }

/* The session's time changed (a tick, the slider, a live frame): the view, plots and slider follow. */
static void time_changed(MotusSession *session, double t, gpointer data)
{
    (void)session;
    MotusWindow *self = data;
    MotusRunBridge *b = motus_window_bridge(self);
    const MtModel *m = motus_window_model(self);
    if (n_frames(self) && m && motus_run_bridge_n_bodies(b) == m->nbody) {
        guint i = motus_run_bridge_frame_at(b, t);
        double tf;
        if (motus_run_bridge_get_frame(b, i, &tf, self->poses))
            motus_viewport_set_poses(self->viewport, self->poses);
        motus_window_flex_show_frame(self, TRUE, i);
        motus_window_plots_cursor(self, t);
        self->frame_shown = TRUE;
    } else {
        motus_window_flex_show_frame(self, FALSE, 0);
        motus_window_plots_cursor(self, NAN);
    }
    /* Moving the slider lays the window out again: while it follows a live
     * run (many frames a second) it moves four times a second. */
    gint64 now = g_get_monotonic_time();
    if (!(motus_session_get_follow_live(self->session) && motus_run_bridge_is_running(b)) ||
        now - self->slider_moved > 250000) {
        self->slider_moved = now;
        self->quiet = TRUE;
        gtk_adjustment_set_value(self->time_adjustment, t);
        self->quiet = FALSE;
    }
    set_time_label(self);
    motus_window_teach_update(self);
    motus_window_meters_update(self);
}

static void set_playing(MotusWindow *self, gboolean play) { motus_session_set_playing(self->session, play); }

static void scale_moved(GtkAdjustment *adj, gpointer data)
{
    MotusWindow *self = data;
    if (self->quiet) return;
    motus_session_set_follow_live(self->session, FALSE);
    set_playing(self, FALSE);
    show_time(self, gtk_adjustment_get_value(adj));
}

void motus_window_set_time(MotusWindow *self, double t)
{
    motus_session_set_follow_live(self->session, FALSE);
    set_playing(self, FALSE);
    show_time(self, t);
}

/* ---- runs ------------------------------------------------------------------------ */

/* The run's progress in the status bar (left < 0: no estimate). */
static char *run_info(double t, guint frames, double elapsed, double left)
{
    if (left >= 0)
        return g_strdup_printf(_("t = %.3f s · %u frames · %.1f s elapsed · about %.1f s left"), t, frames, elapsed, left);
    return g_strdup_printf(_("t = %.3f s · %u frames · %.1f s elapsed"), t, frames, elapsed);
}

static void run_frames(MotusRunBridge *b, guint n, gpointer data)
{
    MotusWindow *self = data;
    double last = motus_run_bridge_last_time(b), until = motus_run_bridge_until(b);
    double elapsed = motus_run_bridge_elapsed(b);
    motus_ticker_set_fraction(self->progress, until > 0 ? CLAMP(last / until, 0, 1) : 1);
    /* the estimate assumes the rest of the run goes as fast as what was done */
    gboolean going = motus_run_bridge_is_running(b) && last > 0 && until > last;
    g_autofree char *info = run_info(last, n, elapsed, going ? elapsed * (until - last) / last : -1);
    motus_ticker_set_text(self->run_label, info);
    motus_window_extend_plots(self);
    motus_window_flex_extend(self);
    if (motus_session_get_follow_live(self->session)) show_time(self, last);
    if (n > 0 && !motus_session_get_run_frames_seen(self->session)) { /* the run's first frames: what needs frames */
        motus_session_set_run_frames_seen(self->session, TRUE);
        update_actions(self);
    }
}

/* The view and its floor take in the whole motion (frames sampled: at most
 * about 300, and about 20 000 body positions). */
static void include_motion(MotusWindow *self)
{
    MotusRunBridge *b = motus_window_bridge(self);
    guint n = n_frames(self);
    if (!n || !motus_window_model(self) || motus_run_bridge_n_bodies(b) != motus_window_model(self)->nbody) return;
    guint want = MAX(2u, MIN(300u, 20000u / (guint)(motus_window_model(self)->nbody + 1)));
    guint stride = MAX(1u, n / want);
    double *poses = g_new(double, 7 * (motus_window_model(self)->nbody + 1));
    for (guint i = 0; i < n; i += stride)
        if (motus_run_bridge_get_frame(b, i, NULL, poses)) motus_viewport_include_poses(self->viewport, poses);
    if (motus_run_bridge_get_frame(b, n - 1, NULL, poses)) motus_viewport_include_poses(self->viewport, poses);
    g_free(poses);
    motus_viewport_motion_done(self->viewport);
}

void motus_window_frames_loaded(MotusWindow *self)
{
    motus_session_set_plotted(self->session, 0);
    motus_window_refill_plots(self);
    motus_window_flex_reset(self);
    double until = motus_run_bridge_until(motus_window_bridge(self));
    gtk_adjustment_set_upper(self->time_adjustment, fmax(until, 1e-9));
    include_motion(self);
    motus_session_set_follow_live(self->session, FALSE);
    show_time(self, 0);
    update_actions(self);
}

static void run_finished(MotusRunBridge *b, gboolean ok, gboolean cancelled, const char *message, gpointer data)
{
    MotusWindow *self = data;
    guint n = n_frames(self);
    double last = motus_run_bridge_last_time(b);
    g_autofree char *text = NULL;
    gboolean analysis = motus_window_analysis_pending(self); /* it says its own outcome */
    if (analysis)
        ;
    else if (ok && !cancelled) {
        char note[512];
        motus_run_bridge_singular_note(b, note, sizeof note);
        text = g_strdup_printf(_("Run finished: %u frames to t = %.3f s in %.2f s"), n, last, motus_run_bridge_elapsed(b));
        if (note[0]) { /* what happened at singular positions, and what keeps the accuracy there */
            char *t = g_strdup_printf("%s. %s", text, note);
            g_free(text);
            text = t;
        }
    }
    else if (ok)
        text = g_strdup_printf(_("Run stopped at t = %.3f s (%u frames kept)"), last, n);
    else
        text = g_strdup_printf(_("Run failed at t = %.3f s: %s"), last, message);
    if (text) set_status(self, text);
    if (!ok) gtk_widget_add_css_class(GTK_WIDGET(self->status_label), "error");
    include_motion(self);
    motus_window_extend_plots(self);
    motus_window_plots_settle(self);
    motus_window_flex_extend(self);
    if (ok && !cancelled && !analysis) motus_window_flex_propose(self); /* an analysis proposes its own */
    if (motus_session_get_follow_live(self->session)) show_time(self, last);
    update_actions(self);
    if (analysis)
        motus_window_analysis_finished(self, ok, cancelled, message);
    else if (!ok)
        error_dialog(self, _("The run failed"), message);
    g_signal_emit(self, signals[SIG_RUN_FINISHED], 0, ok && !cancelled, ok ? "" : message);
}

gboolean motus_window_run(MotusWindow *self, GError **error) { return motus_window_start_job(self, NULL, error); }

gboolean motus_window_start_job(MotusWindow *self, const MotusRunJob *job, GError **error)
{
    if (!motus_window_model(self)) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", _("no model is open"));
        return FALSE;
    }
    motus_window_pick_cancel(self);
    set_playing(self, FALSE);
    /* a run of a project is stored in it, with the model it belongs to: unsaved edits are saved first */
    MtStore *store = motus_document_get_store(self->doc);
    const char *project = store && !motus_document_get_readonly(self->doc) ? motus_document_get_path(self->doc) : NULL;
    gboolean kept = !job || job->what; /* a job that makes no run to keep (modes) is stored nowhere */
    /* (modes are kept in the project as modes, of the model as saved) */
    if (project && mt_editor_dirty(motus_window_editor(self)) && !motus_window_save(self, error)) return FALSE;
    if (!kept) project = NULL, store = NULL;
    /* a document without a project keeps its runs in a scratch one until it is saved as a project */
    const char *store_in = project ? project : store || !kept ? NULL : motus_window_scratch_project(self, error);
    if (kept && !project && !motus_document_get_store(self->doc) && !store_in) return FALSE;
    if (!motus_run_bridge_start_job(motus_window_bridge(self), motus_window_model(self), store_in, job, error))
        return FALSE;
    gtk_widget_remove_css_class(GTK_WIDGET(self->status_label), "error");
    motus_session_set_follow_live(self->session, TRUE);
    motus_session_restart_readers(self->session);
    motus_window_flex_reset(self);
    motus_window_plots_default_curve(self); /* an empty plot area gets the curve a user most likely wants first */
    motus_window_refill_plots(self);
    gtk_adjustment_set_upper(self->time_adjustment, fmax(motus_run_bridge_until(motus_window_bridge(self)), 1e-9));
    motus_ticker_set_fraction(self->progress, 0);
    if (job) {
        /* the analysis says what it does (motus-window-analysis.c) */
    } else if (project) {
        g_autofree char *msg = g_strdup_printf(_("Running… (stored as run %ld of the project)"),
                                               motus_run_bridge_run_id(motus_window_bridge(self)));
        set_status(self, msg);
    } else {
        set_status(self, motus_document_get_path(self->doc) ? _("Running… (a text model keeps its runs in memory only: save as a project to "
                                        "store them)")
                                    : _("Running… (save the project to store its runs)"));
    }
    update_actions(self);
    return TRUE;
}

gboolean motus_window_is_running(MotusWindow *self) { return motus_run_bridge_is_running(motus_window_bridge(self)); }

/* ---- opening -------------------------------------------------------------------- */

void motus_window_refresh_title(MotusWindow *self)
{
    /* the model's title, else the file's name: a new project saved as my-pendulum.motus is "my-pendulum.motus" */
    const char *path = motus_document_get_path(self->doc);
    const MtModel *m = motus_window_model(self);
    g_autofree char *base = path ? g_path_get_basename(path) : g_strdup(_("New project"));
    const char *title = m && m->title[0] ? m->title : base;
    gboolean dirty = motus_document_get_dirty(self->doc);
    gboolean ro = motus_document_get_readonly(self->doc);
    g_autofree char *t = g_strdup_printf("%s%s%s", dirty ? "• " : "", title, ro ? _(" (read-only)") : "");
    gtk_window_set_title(GTK_WINDOW(self), t);
}

void motus_window_stop_playback(MotusWindow *self) { set_playing(self, FALSE); }

void motus_window_model_changed(MotusWindow *self) { motus_document_changed(self->doc); /* "changed" below */ }

/* The views show the document's model as it is now; fit: also frame the view (a new document). */
static void show_model(MotusWindow *self, gboolean fit)
{
    const MtModel *m = motus_window_model(self);
    self->view_state = motus_window_editor(self) ? mt_editor_state(motus_window_editor(self)) : 0;
    g_autoptr(GString) problems = g_string_new(NULL);
    const char *path = motus_document_get_path(self->doc);
    g_autofree char *dir = path ? g_path_get_dirname(path) : NULL;
    if (fit)
        motus_viewport_set_model(self->viewport, m, dir, problems);
    else
        motus_viewport_update_model(self->viewport, m, dir, problems);
    self->frame_shown = FALSE; /* both show the model as built */
    if (m && m->nbody != self->nbody_shown) {
        g_free(self->poses);
        self->poses = g_new0(double, 7 * (m->nbody + 1));
    }
    self->nbody_shown = m ? m->nbody : -1;
    motus_model_tree_set_model(self->tree, m);
    motus_window_list_columns(self);
    motus_window_plots_model_changed(self, fit && m);
    motus_window_refill_plots(self);
    motus_window_flex_reset(self);
    if (m && !n_frames(self)) gtk_adjustment_set_upper(self->time_adjustment, fmax(m->solver.until, 1e-9));
    /* frames of a run of another model no longer fit the bodies: show the model as built */
    if (m && motus_run_bridge_n_bodies(motus_window_bridge(self)) != m->nbody)
        motus_viewport_show_initial(self->viewport);
    motus_window_select(self, self->sel_kind, self->sel_index);
    if (problems->len) {
        g_strchomp(problems->str);
        set_status(self, problems->str);
    }
    motus_window_refresh_title(self);
    motus_window_check_schedule(self);
    update_actions(self);
}

void motus_window_set_document(MotusWindow *self, MtEditor *editor, const char *path, MtStore *store)
{
    motus_document_replace(self->doc, editor, path, store); /* "closing", then "replaced" below */
}

/* An edit, undo or redo changed the model: the views follow. */
static void document_changed(MotusDocument *doc, gpointer data)
{
    (void)doc;
    show_model(data, FALSE);
}

/* The old document goes: its run stops (it writes into its file or scratch project), playback and picking too. */
static void document_closing(MotusDocument *doc, gpointer data)
{
    (void)doc;
    MotusWindow *self = data;
    MotusRunBridge *b = motus_window_bridge(self);
    if (motus_run_bridge_is_running(b)) motus_run_bridge_stop_and_wait(b);
    motus_window_pick_cancel(self);
    set_playing(self, FALSE);
}

/* A new model or file: nothing selected, no frames, the views show it framed. */
static void document_replaced(MotusDocument *doc, gpointer data)
{
    (void)doc;
    MotusWindow *self = data;
    self->sel_kind = MT_EDIT_NKINDS;
    self->sel_index = -1;
    motus_window_teach_forget(self);
    motus_run_bridge_clear(motus_window_bridge(self));
    self->nbody_shown = -1; /* a new frame buffer even with as many bodies */
    /* the document's model pointer follows the new editor; the views are framed once, here */
    g_signal_handlers_block_by_func(self->doc, document_changed, self);
    motus_document_changed(self->doc);
    g_signal_handlers_unblock_by_func(self->doc, document_changed, self);
    show_model(self, TRUE);
    motus_window_view_apply(self);
    show_time(self, 0);
    motus_ticker_set_fraction(self->progress, 0);
    motus_ticker_set_text(self->run_label, "");
    gtk_widget_remove_css_class(GTK_WIDGET(self->status_label), "error");
}

/* Saved, saved as, read-only, undo back to the saved state: the title and Save follow. */
static void document_state(GObject *doc, GParamSpec *pspec, gpointer data)
{
    (void)doc, (void)pspec;
    motus_window_refresh_title(data);
    update_actions(data);
}

/* ---- selection -------------------------------------------------------------------- */

static void tree_selected(MotusModelTree *tree, int kind, int index, gpointer data)
{
    (void)tree;
    MotusWindow *self = data;
    if (!motus_window_model(self)) return;
    MtEditKind k = motus_edit_kind_of((MotusEntityKind)kind);
    motus_window_select(self, k, kind == MOTUS_ENTITY_GROUND ? MT_GROUND : index);
}

static void body_picked(MotusViewport *vp, int body, gpointer data)
{
    (void)vp;
    MotusWindow *self = data;
    if (!motus_window_model(self)) return;
    if (body < 0)
        motus_model_tree_select(self->tree, MOTUS_ENTITY_NONE, -1);
    else if (body >= motus_window_model(self)->nbody)
        motus_model_tree_select(self->tree, MOTUS_ENTITY_GROUND, -1);
    else
        motus_model_tree_select(self->tree, MOTUS_ENTITY_BODY, body);
}

static void point_clicked(MotusViewport *vp, double x, double y, gpointer data)
{
    (void)vp;
    motus_window_pick_click(data, x, y);
}

/* ---- actions ---------------------------------------------------------------------- */

static void set_enabled(MotusWindow *self, const char *name, gboolean on)
{
    GAction *a = g_action_map_lookup_action(G_ACTION_MAP(self), name);
    if (a) g_simple_action_set_enabled(G_SIMPLE_ACTION(a), on);
}

/* The one place where the enabled state of the window's actions is decided. */
void motus_window_update_actions(MotusWindow *self)
{
    gboolean running = motus_run_bridge_is_running(motus_window_bridge(self));
    gboolean frames = n_frames(self) > 0;
    /* the playback controls a run's frames will need are enabled when it starts, with Run, Pause and Stop:
     * the widgets change state (and the window repaints them) in that frame, not with the first frames
     * drawn; with no frames yet they do nothing */
    gboolean coming = frames || running;
    gboolean doc = motus_window_editor(self) != NULL;
    gboolean sel = doc && self->sel_kind < MT_EDIT_NKINDS && !(self->sel_kind == MT_EDIT_BODY && self->sel_index == MT_GROUND);
    gboolean named = sel && self->sel_kind != MT_EDIT_SHAPE;
    set_enabled(self, "run", doc && !running && !self->flex_job && !motus_window_export_busy(self));
    set_enabled(self, "pause", running);
    set_enabled(self, "stop", running || self->pick != PICK_NONE || motus_window_export_busy(self));
    set_enabled(self, "play-pause", coming);
    set_enabled(self, "step", coming);
    guint curves = self->plots ? motus_window_n_curves(self) : 0;
    set_enabled(self, "export-png", curves > 0);
    set_enabled(self, "export-svg", curves > 0);
    set_enabled(self, "export-csv", curves > 0 && frames);
    set_enabled(self, "clear-plot", curves > 0);
    set_enabled(self, "pin-curves", curves > 0 && coming);
    set_enabled(self, "remove-plot", self->plots && self->plots->len > 1);
    set_enabled(self, "add-plot", self->plots && self->plots->len < MT_PLOT_MAX);
    set_enabled(self, "save", doc && !motus_document_get_readonly(self->doc));
    set_enabled(self, "save-as", doc);
    set_enabled(self, "undo", doc && mt_editor_can_undo(motus_window_editor(self)));
    set_enabled(self, "redo", doc && mt_editor_can_redo(motus_window_editor(self)));
    set_enabled(self, "delete", sel);
    set_enabled(self, "duplicate", sel);
    set_enabled(self, "rename", named);
    set_enabled(self, "add-body", doc);
    set_enabled(self, "add-joint", doc);
    set_enabled(self, "add-force", doc);
    set_enabled(self, "add-sensor", doc);
    set_enabled(self, "add-driver", doc);
    set_enabled(self, "add-joint-force", doc);
    set_enabled(self, "add-parameter", doc);
    set_enabled(self, "solver-settings", doc);
    set_enabled(self, "flex-modes", doc && motus_viewport_n_modal(self->viewport) > 0);
    set_enabled(self, "import-mesh", doc && !running && !self->flex_job);
    set_enabled(self, "add-flex-marker", doc && !running && !self->flex_job && motus_viewport_n_modal(self->viewport) > 0);
    gtk_widget_set_sensitive(GTK_WIDGET(self->time_scale), coming);
    gtk_widget_set_sensitive(GTK_WIDGET(self->column_dropdown), motus_window_model(self) != NULL);
    /* setting an icon, even the same one, lays the window out again */
    gboolean playing = motus_session_get_playing(self->session);
    const char *icon = playing ? "media-playback-pause-symbolic" : "media-playback-start-symbolic";
    if (g_strcmp0(gtk_button_get_icon_name(self->play_button), icon)) gtk_button_set_icon_name(self->play_button, icon);
    if (!running) {
        GAction *p = g_action_map_lookup_action(G_ACTION_MAP(self), "pause");
        if (p) g_simple_action_set_state(G_SIMPLE_ACTION(p), g_variant_new_boolean(FALSE));
    }
    if (g_action_map_lookup_action(G_ACTION_MAP(self), "gizmo")) motus_window_gizmo_refresh(self);
    if (self->analysis) motus_window_analysis_update_actions(self);
    if (self->export_ui) motus_window_export_update_actions(self);
}

static void act_run(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    MotusWindow *self = data;
    g_autoptr(GError) error = NULL;
    if (!motus_window_run(self, &error)) {
        g_autofree char *msg = g_strdup_printf(_("Cannot run: %s"), error->message);
        set_status(self, msg);
        gtk_widget_add_css_class(GTK_WIDGET(self->status_label), "error");
        error_dialog(self, _("The model cannot be run"), error->message);
    }
}

static void act_pause(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)p;
    MotusWindow *self = data;
    g_autoptr(GVariant) state = g_action_get_state(G_ACTION(a));
    gboolean paused = !g_variant_get_boolean(state);
    g_simple_action_set_state(a, g_variant_new_boolean(paused));
    motus_run_bridge_set_paused(motus_window_bridge(self), paused);
    set_status(self, paused ? _("Run paused") : _("Running…"));
}

static void act_stop(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    MotusWindow *self = data;
    if (motus_run_bridge_is_running(motus_window_bridge(self))) {
        set_status(self, _("Stopping…"));
        motus_run_bridge_cancel(motus_window_bridge(self));
    } else if (motus_window_is_picking(self)) {
        motus_window_pick_cancel(self);
        set_status(self, _("Cancelled"));
    } else if (motus_window_export_busy(self)) {
        motus_window_export_cancel(self);
    }
}

static void act_play_pause(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    MotusWindow *self = data;
    if (!n_frames(self)) return;
    if (motus_session_get_playing(self->session)) {
        set_playing(self, FALSE);
        return;
    }
    motus_session_set_follow_live(self->session, FALSE);
    MotusRunBridge *b = motus_window_bridge(self);
    if (!motus_run_bridge_is_running(b) && motus_session_get_time(self->session) >= motus_run_bridge_last_time(b))
        show_time(self, 0);
    set_playing(self, TRUE);
}

static void act_step(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a;
    MotusWindow *self = data;
    guint n = n_frames(self);
    if (!n) return;
    int d = g_variant_get_int32(p);
    long i = (long)motus_run_bridge_frame_at(motus_window_bridge(self), motus_session_get_time(self->session)) + d;
    i = CLAMP(i, 0, (long)n - 1);
    double t;
    if (motus_run_bridge_get_frame(motus_window_bridge(self), (guint)i, &t, NULL)) motus_window_set_time(self, t);
}

static void act_view(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)p;
    MotusWindow *self = data;
    const char *n = g_action_get_name(G_ACTION(a));
    if (!strcmp(n, "view-front"))
        motus_viewport_view_preset(self->viewport, MOTUS_VIEW_FRONT);
    else if (!strcmp(n, "view-right"))
        motus_viewport_view_preset(self->viewport, MOTUS_VIEW_RIGHT);
    else if (!strcmp(n, "view-top"))
        motus_viewport_view_preset(self->viewport, MOTUS_VIEW_TOP);
    else if (!strcmp(n, "view-iso"))
        motus_viewport_view_preset(self->viewport, MOTUS_VIEW_ISO);
    else if (!strcmp(n, "fit-all"))
        motus_viewport_fit_all(self->viewport);
    else if (!strcmp(n, "orthographic"))
        motus_viewport_set_orthographic(self->viewport, !motus_viewport_get_orthographic(self->viewport));
}

static void export_response(GtkNativeDialog *d, int response, gpointer data)
{
    MotusWindow *self = data;
    int fmt = GPOINTER_TO_INT(g_object_get_data(G_OBJECT(d), "format"));
    g_autofree char *path = motus_chosen_path(d, response);
    if (path) {
        g_autoptr(GError) error = NULL;
        MotusPlot *plot = motus_window_active_plot(self);
        gboolean ok = fmt == 0   ? motus_plot_export_png(plot, path, 1200, 700, &error)
                      : fmt == 1 ? motus_plot_export_svg(plot, path, 900, 520, &error)
                                 : motus_plot_export_csv(plot, path, &error);
        if (ok) {
            g_autofree char *msg = g_strdup_printf(_("Plot saved to %s"), path);
            set_status(self, msg);
        } else if (error) {
            set_status(self, error->message);
            error_dialog(self, _("Cannot save the plot"), error->message);
        }
    }
    g_object_unref(d);
}

/* fmt: 0 PNG, 1 SVG, 2 CSV */
static void export_plot(MotusWindow *self, int fmt)
{
    const char *titles[] = {_("Export the Plot as PNG"), _("Export the Plot as SVG"), _("Export the Plot as CSV")};
    const char *names[] = {"plot.png", "plot.svg", "plot.csv"};
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    GtkFileChooserNative *d = gtk_file_chooser_native_new(titles[fmt], GTK_WINDOW(self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                                          _("_Save"), _("_Cancel"));
    gtk_file_chooser_set_current_name(GTK_FILE_CHOOSER(d), names[fmt]);
    G_GNUC_END_IGNORE_DEPRECATIONS
    g_object_set_data(G_OBJECT(d), "format", GINT_TO_POINTER(fmt));
    g_signal_connect(d, "response", G_CALLBACK(export_response), self);
    gtk_native_dialog_show(GTK_NATIVE_DIALOG(d));
}

static void act_export_png(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    export_plot(data, 0);
}

static void act_export_svg(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    export_plot(data, 1);
}

static void act_export_csv(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    export_plot(data, 2);
}

static const GActionEntry win_actions[] = {
    {"run", act_run, NULL, NULL, NULL, {0}},
    {"pause", act_pause, NULL, "false", NULL, {0}},
    {"stop", act_stop, NULL, NULL, NULL, {0}},
    {"play-pause", act_play_pause, NULL, NULL, NULL, {0}},
    {"step", act_step, "i", NULL, NULL, {0}},
    {"view-front", act_view, NULL, NULL, NULL, {0}},
    {"view-right", act_view, NULL, NULL, NULL, {0}},
    {"view-top", act_view, NULL, NULL, NULL, {0}},
    {"view-iso", act_view, NULL, NULL, NULL, {0}},
    {"fit-all", act_view, NULL, NULL, NULL, {0}},
    {"orthographic", act_view, NULL, NULL, NULL, {0}},
    {"export-png", act_export_png, NULL, NULL, NULL, {0}},
    {"export-svg", act_export_svg, NULL, NULL, NULL, {0}},
    {"export-csv", act_export_csv, NULL, NULL, NULL, {0}},
};

/* ---- screenshots (test hooks) ------------------------------------------------------------ */

gboolean motus_window_save_screenshot(MotusWindow *self, const char *path, GError **error)
{
    int w = gtk_widget_get_width(GTK_WIDGET(self)), h = gtk_widget_get_height(GTK_WIDGET(self));
    GskRenderer *r = gtk_native_get_renderer(GTK_NATIVE(self));
    if (w <= 0 || h <= 0 || !r) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_BUSY, "%s", _("the window is not shown yet"));
        return FALSE;
    }
    g_autoptr(GdkPaintable) p = gtk_widget_paintable_new(GTK_WIDGET(self));
    GtkSnapshot *snap = gtk_snapshot_new();
    gdk_paintable_snapshot(p, GDK_SNAPSHOT(snap), w, h);
    GskRenderNode *node = gtk_snapshot_free_to_node(snap);
    if (!node) { /* something queued a redraw since the last frame: GTK dropped the window's picture */
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_BUSY, "%s", _("nothing to capture"));
        return FALSE;
    }
    GdkTexture *tex = gsk_renderer_render_texture(r, node, &GRAPHENE_RECT_INIT(0, 0, (float)w, (float)h));
    gsk_render_node_unref(node);
    gboolean ok = gdk_texture_save_to_png(tex, path);
    g_object_unref(tex);
    if (!ok) g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, _("cannot write '%s'"), path);
    return ok;
}

static void widget_rect(GtkWidget *w, GtkWidget *root, GString *out, const char *name)
{
    graphene_point_t a = GRAPHENE_POINT_INIT(0, 0), b;
    if (!gtk_widget_compute_point(w, root, &a, &b)) return;
    g_string_append_printf(out, "%s %d %d %d %d\n", name, (int)lround(b.x), (int)lround(b.y), gtk_widget_get_width(w),
                           gtk_widget_get_height(w));
}

gboolean motus_window_write_shot_info(MotusWindow *self, const char *path, GError **error)
{
    GtkWidget *root = GTK_WIDGET(self);
    GtkWidget *area = motus_viewport_get_gl_area(self->viewport);
    g_autoptr(GString) s = g_string_new(NULL);
    g_string_append_printf(s, "window %d %d\n", gtk_widget_get_width(root), gtk_widget_get_height(root));
    GskRenderer *renderer = gtk_native_get_renderer(GTK_NATIVE(self));
    g_string_append_printf(s, "renderer %s\n", renderer ? G_OBJECT_TYPE_NAME(renderer) : "none");
    widget_rect(area, root, s, "viewport");
    widget_rect(GTK_WIDGET(self->plot), root, s, "plot");
    float top[3], bot[3];
    motus_viewport_get_background(self->viewport, top, bot);
    g_string_append_printf(s, "background %.4f %.4f %.4f %.4f %.4f %.4f\n", top[0], top[1], top[2], bot[0], bot[1],
                           bot[2]);
    for (int b = 0; motus_window_model(self) && b < motus_window_model(self)->nbody; b++) {
        double x, y;
        graphene_point_t a, out;
        if (!motus_viewport_project_body(self->viewport, b, &x, &y)) continue;
        a = GRAPHENE_POINT_INIT((float)x, (float)y);
        if (!gtk_widget_compute_point(area, root, &a, &out)) continue;
        g_string_append_printf(s, "body %s %d %d\n", motus_window_model(self)->body[b].name, (int)lround(out.x), (int)lround(out.y));
    }
    /* flexible bodies: the legend, the colour range, each body's box on screen (deformed as drawn) and
     * where its most displaced vertex is drawn and would be undeformed */
    GtkWidget *legend = NULL;
    double lo, hi;
    if (motus_viewport_get_colour_range(self->viewport, &lo, &hi)) {
        MotusField f = motus_viewport_get_colour_field(self->viewport);
        g_string_append_printf(s, "field %s %.6g %.6g %s\n", f == MOTUS_FIELD_VONMISES ? "stress" : "displacement", lo,
                               hi, motus_viewport_legend_unit(self->viewport));
        legend = motus_viewport_get_legend(self->viewport);
        if (gtk_widget_get_visible(legend)) widget_rect(legend, root, s, "legend");
    }
    double scale = motus_viewport_get_deformation_scale(self->viewport);
    for (int b = 0; motus_window_model(self) && b < motus_window_model(self)->nbody; b++) {
        int n = motus_viewport_flex_n_vertices(self->viewport, b);
        if (!n) continue;
        double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY, p[3], x, y;
        for (int v = 0; v < n; v++)
            if (motus_viewport_flex_vertex(self->viewport, b, v, scale, p) &&
                motus_viewport_project_point(self->viewport, p, &x, &y))
                x0 = fmin(x0, x), y0 = fmin(y0, y), x1 = fmax(x1, x), y1 = fmax(y1, y);
        graphene_point_t a = GRAPHENE_POINT_INIT(0, 0), o;
        if (!(x0 <= x1) || !gtk_widget_compute_point(area, root, &a, &o)) continue;
        g_string_append_printf(s, "flexbody %s %d %d %d %d\n", motus_window_model(self)->body[b].name, (int)lround(o.x + x0),
                               (int)lround(o.y + y0), (int)lround(o.x + x1), (int)lround(o.y + y1));
        int v = motus_viewport_flex_peak_vertex(self->viewport, b);
        double pd[3], pu[3], xd, yd, xu, yu;
        if (v >= 0 && motus_viewport_flex_vertex(self->viewport, b, v, scale, pd) &&
            motus_viewport_flex_vertex(self->viewport, b, v, 0, pu) &&
            motus_viewport_project_point(self->viewport, pd, &xd, &yd) &&
            motus_viewport_project_point(self->viewport, pu, &xu, &yu))
            g_string_append_printf(s, "flexpeak %s %d %.1f %.1f %.1f %.1f\n", motus_window_model(self)->body[b].name, v, o.x + xd,
                                   o.y + yd, o.x + xu, o.y + yu);
    }
    g_string_append_printf(s, "curves %d\nframes %u\n", motus_plot_n_curves(self->plot), n_frames(self));
    return g_file_set_contents(path, s->str, (gssize)s->len, error);
}

/* ---- GObject -------------------------------------------------------------------------- */

void motus_register_resource(void); /* generated by glib-compile-resources --manual-register */

void motus_ui_register_resources(void)
{
    static gsize once = 0;
    if (g_once_init_enter(&once)) {
        motus_register_resource();
        g_once_init_leave(&once, 1);
    }
}

void motus_window_set_batch(MotusWindow *self, gboolean batch) { self->batch = batch; }
GtkWidget *motus_window_get_viewport(MotusWindow *self) { return GTK_WIDGET(self->viewport); }
GtkWidget *motus_window_get_model_tree(MotusWindow *self) { return GTK_WIDGET(self->tree); }
GtkWidget *motus_window_get_plot(MotusWindow *self) { return GTK_WIDGET(self->plot); }
guint motus_window_get_n_frames(MotusWindow *self) { return n_frames(self); }
gsize motus_window_get_results_bytes(MotusWindow *self) { return motus_run_bridge_bytes_held(motus_window_bridge(self)); }
double motus_window_get_time(MotusWindow *self) { return motus_session_get_time(self->session); }
gboolean motus_window_is_playing(MotusWindow *self) { return motus_session_get_playing(self->session); }
const char *motus_window_get_status(MotusWindow *self) { return gtk_label_get_text(self->status_label); }

guint motus_window_get_column(MotusWindow *self, const char *name, double **t, double **v)
{
    int col = motus_run_bridge_find_column(motus_window_bridge(self), name);
    guint n = n_frames(self);
    *t = g_new(double, MAX(n, 1));
    *v = g_new(double, MAX(n, 1));
    return col >= 0 ? motus_run_bridge_copy_column(motus_window_bridge(self), col, 0, n, *t, *v) : 0;
}

static void motus_window_dispose(GObject *object)
{
    MotusWindow *self = MOTUS_WINDOW(object);
    if (self->session) {
        g_signal_handlers_disconnect_by_data(self->session, self);
        g_signal_handlers_disconnect_by_data(motus_window_bridge(self), self);
        motus_session_detach(self->session);
        g_clear_object(&self->session); /* joins a running worker */
    }
    motus_window_flex_dispose(self);
    motus_window_analysis_dispose(self);
    motus_window_export_dispose(self);
    if (self->modes_dialog) {
        g_signal_handlers_disconnect_by_data(self->modes_dialog, self);
        gtk_window_destroy(GTK_WINDOW(self->modes_dialog));
        self->modes_dialog = NULL;
    }
    if (self->doc) g_signal_handlers_disconnect_by_data(self->doc, self);
    motus_window_project_dispose(self); /* after the worker: no run of the scratch project is going */
    gtk_widget_dispose_template(GTK_WIDGET(self), MOTUS_TYPE_WINDOW);
    G_OBJECT_CLASS(motus_window_parent_class)->dispose(object);
}

static void motus_window_finalize(GObject *object)
{
    MotusWindow *self = MOTUS_WINDOW(object);
    g_clear_object(&self->doc);
    g_free(self->poses);
    g_clear_pointer(&self->teach_pins, g_array_unref);
    motus_window_derived_finalize(self);
    motus_window_plots_finalize(self);
    G_OBJECT_CLASS(motus_window_parent_class)->finalize(object);
}

static void motus_window_class_init(MotusWindowClass *klass)
{
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    object_class->dispose = motus_window_dispose;
    object_class->finalize = motus_window_finalize;

    /* A run ended: ok (finished, not stopped, no error), message. */
    signals[SIG_RUN_FINISHED] = g_signal_new("run-finished", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                             NULL, G_TYPE_NONE, 2, G_TYPE_BOOLEAN, G_TYPE_STRING);

    g_type_ensure(MOTUS_TYPE_MODEL_TREE);
    g_type_ensure(MOTUS_TYPE_VIEWPORT);
    g_type_ensure(MOTUS_TYPE_PLOT);
    g_type_ensure(MOTUS_TYPE_INSPECTOR);
    g_type_ensure(MOTUS_TYPE_TICKER);
    gtk_widget_class_set_template_from_resource(wc, "/org/motus/Motus/ui/motus-window.ui");
    gtk_widget_class_bind_template_child(wc, MotusWindow, tree);
    gtk_widget_class_bind_template_child(wc, MotusWindow, inspector);
    gtk_widget_class_bind_template_child(wc, MotusWindow, pick_revealer);
    gtk_widget_class_bind_template_child(wc, MotusWindow, pick_label);
    gtk_widget_class_bind_template_child(wc, MotusWindow, pick_axis);
    gtk_widget_class_bind_template_child(wc, MotusWindow, recent_menu);
    gtk_widget_class_bind_template_child(wc, MotusWindow, show_button);
    gtk_widget_class_bind_template_child(wc, MotusWindow, stats_button);
    gtk_widget_class_bind_template_child(wc, MotusWindow, derived_button);
    gtk_widget_class_bind_template_child(wc, MotusWindow, viewport);
    gtk_widget_class_bind_template_child(wc, MotusWindow, plot);
    gtk_widget_class_bind_template_child(wc, MotusWindow, column_dropdown);
    gtk_widget_class_bind_template_child(wc, MotusWindow, x_dropdown);
    gtk_widget_class_bind_template_child(wc, MotusWindow, plots_box);
    gtk_widget_class_bind_template_child(wc, MotusWindow, play_button);
    gtk_widget_class_bind_template_child(wc, MotusWindow, time_scale);
    gtk_widget_class_bind_template_child(wc, MotusWindow, time_adjustment);
    gtk_widget_class_bind_template_child(wc, MotusWindow, time_label);
    gtk_widget_class_bind_template_child(wc, MotusWindow, speed_dropdown);
    gtk_widget_class_bind_template_child(wc, MotusWindow, loop_button);
    gtk_widget_class_bind_template_child(wc, MotusWindow, status_label);
    gtk_widget_class_bind_template_child(wc, MotusWindow, run_label);
    gtk_widget_class_bind_template_child(wc, MotusWindow, progress);

}

/* Keys that act when the focused widget does not use them: view presets, F
 * to fit, Space to play, comma and period to step, G and R for the gizmo.
 * They are read on the window's child in the bubble phase, so they come
 * after the focused widget (an entry keeps its Space) and before GtkWindow's
 * own bindings, which would take Space to activate the focus. */
static const struct {
    guint key;
    const char *action, *arg;
} view_keys[] = {
    {GDK_KEY_space, "play-pause", NULL},   {GDK_KEY_1, "view-front", NULL},     {GDK_KEY_KP_1, "view-front", NULL},
    {GDK_KEY_KP_End, "view-front", NULL},  {GDK_KEY_3, "view-right", NULL},     {GDK_KEY_KP_3, "view-right", NULL},
    {GDK_KEY_KP_Next, "view-right", NULL}, {GDK_KEY_7, "view-top", NULL},       {GDK_KEY_KP_7, "view-top", NULL},
    {GDK_KEY_KP_Home, "view-top", NULL},   {GDK_KEY_0, "view-iso", NULL},       {GDK_KEY_KP_0, "view-iso", NULL},
    {GDK_KEY_KP_Insert, "view-iso", NULL}, {GDK_KEY_f, "fit-all", NULL},        {GDK_KEY_Home, "fit-all", NULL},
    {GDK_KEY_5, "orthographic", NULL},     {GDK_KEY_KP_5, "orthographic", NULL}, {GDK_KEY_KP_Begin, "orthographic", NULL},
    {GDK_KEY_period, "step", "1"},         {GDK_KEY_comma, "step", "-1"},       {GDK_KEY_g, "gizmo", "'move'"},
    {GDK_KEY_r, "gizmo", "'turn'"},        {GDK_KEY_2, "planar", NULL},         {GDK_KEY_KP_2, "planar", NULL},
};

static gboolean view_key_pressed(GtkEventControllerKey *c, guint key, guint code, GdkModifierType mods, gpointer data)
{
    (void)c, (void)code;
    if (mods & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SUPER_MASK)) return FALSE;
    for (guint i = 0; i < G_N_ELEMENTS(view_keys); i++) {
        if (view_keys[i].key != key) continue;
        GActionGroup *g = G_ACTION_GROUP(data);
        if (!g_action_group_get_action_enabled(g, view_keys[i].action)) return FALSE;
        GVariant *arg = view_keys[i].arg ? g_variant_parse(NULL, view_keys[i].arg, NULL, NULL, NULL) : NULL;
        g_action_group_activate_action(g, view_keys[i].action, arg);
        return TRUE;
    }
    return FALSE;
}

/* What had the keys before a popover opened (a weak pointer per popover). */
static void popover_shown(GtkWidget *popover, gpointer data)
{
    GtkWidget *f = gtk_root_get_focus(GTK_ROOT(data)), **keep = g_object_get_data(G_OBJECT(popover), "motus-focus");
    if (*keep) g_object_remove_weak_pointer(G_OBJECT(*keep), (gpointer *)keep);
    *keep = f && !gtk_widget_is_ancestor(f, popover) ? f : NULL;
    if (*keep) g_object_add_weak_pointer(G_OBJECT(*keep), (gpointer *)keep);
}

/* GTK 4.8 leaves the focus on an item of a closed popover (a menu, the model-check panel), where no key
 * reaches the window: Ctrl+Z, Space and the view keys stopped working after a menu was used. The keys go
 * back to what had them, or to the window's content. */
static void popover_closed(GtkPopover *popover, gpointer data)
{
    GtkWidget *f = gtk_root_get_focus(GTK_ROOT(data)), **keep = g_object_get_data(G_OBJECT(popover), "motus-focus");
    if (f && !gtk_widget_is_ancestor(f, GTK_WIDGET(popover))) return; /* an item moved it on purpose (a selection) */
    if (*keep && gtk_widget_get_mapped(*keep) && gtk_widget_grab_focus(*keep)) return;
    gtk_window_set_focus(GTK_WINDOW(data), NULL);
    gtk_widget_child_focus(gtk_window_get_child(GTK_WINDOW(data)), GTK_DIR_TAB_FORWARD);
}

static void keep_free(gpointer p)
{
    GtkWidget **keep = p;
    if (*keep) g_object_remove_weak_pointer(G_OBJECT(*keep), (gpointer *)keep);
    g_free(keep);
}

void motus_window_popover_gives_back_keys(MotusWindow *self, GtkPopover *popover)
{
    g_object_set_data_full(G_OBJECT(popover), "motus-focus", g_new0(GtkWidget *, 1), keep_free);
    g_signal_connect(popover, "show", G_CALLBACK(popover_shown), self); /* before it takes the focus */
    g_signal_connect(popover, "closed", G_CALLBACK(popover_closed), self);
}

/* The header bar's menu buttons: their menus give the keys back when they close. */
static void header_menus_give_back_keys(MotusWindow *self)
{
    GtkWidget *bar = gtk_window_get_titlebar(GTK_WINDOW(self));
    GPtrArray *todo = g_ptr_array_new();
    g_ptr_array_add(todo, bar);
    while (todo->len) {
        GtkWidget *w = g_ptr_array_steal_index(todo, todo->len - 1);
        if (GTK_IS_MENU_BUTTON(w) && gtk_menu_button_get_popover(GTK_MENU_BUTTON(w)))
            motus_window_popover_gives_back_keys(self, gtk_menu_button_get_popover(GTK_MENU_BUTTON(w)));
        for (GtkWidget *c = gtk_widget_get_first_child(w); c; c = gtk_widget_get_next_sibling(c)) g_ptr_array_add(todo, c);
    }
    g_ptr_array_unref(todo);
}

static void add_view_keys(MotusWindow *self)
{
    GtkEventController *c = gtk_event_controller_key_new();
    gtk_event_controller_set_propagation_phase(c, GTK_PHASE_BUBBLE);
    g_signal_connect(c, "key-pressed", G_CALLBACK(view_key_pressed), self);
    gtk_widget_add_controller(gtk_window_get_child(GTK_WINDOW(self)), c);
}

static void motus_window_init(MotusWindow *self)
{
    gtk_widget_init_template(GTK_WIDGET(self));
    add_view_keys(self);
    g_autofree char *widest = run_info(999.999, 999999, 999.9, 999.9); /* the run label's width */
    g_object_set(self->run_label, "sample", widest, NULL);
    self->session = motus_session_new(GTK_WIDGET(self));
    g_signal_connect(self->session, "time-changed", G_CALLBACK(time_changed), self);
    g_signal_connect_swapped(self->session, "notify::playing", G_CALLBACK(motus_window_update_actions), self);
    g_signal_connect(self->speed_dropdown, "notify::selected", G_CALLBACK(speed_changed), self);
    g_signal_connect(self->loop_button, "toggled", G_CALLBACK(loop_toggled), self);
    speed_changed(NULL, NULL, self);
    loop_toggled(self->loop_button, self);
    self->doc = motus_document_new();
    g_signal_connect(self->doc, "changed", G_CALLBACK(document_changed), self);
    g_signal_connect(self->doc, "closing", G_CALLBACK(document_closing), self);
    g_signal_connect(self->doc, "replaced", G_CALLBACK(document_replaced), self);
    g_signal_connect(self->doc, "notify::dirty", G_CALLBACK(document_state), self);
    g_signal_connect(self->doc, "notify::path", G_CALLBACK(document_state), self);
    g_signal_connect(self->doc, "notify::readonly", G_CALLBACK(document_state), self);
    g_action_map_add_action_entries(G_ACTION_MAP(self), win_actions, G_N_ELEMENTS(win_actions), self);
    motus_window_plots_init(self);
    motus_window_derived_init(self);
    g_signal_connect(motus_window_bridge(self), "frames", G_CALLBACK(run_frames), self);
    g_signal_connect(motus_window_bridge(self), "finished", G_CALLBACK(run_finished), self);
    g_signal_connect(self->time_adjustment, "value-changed", G_CALLBACK(scale_moved), self);
    g_signal_connect(self->tree, "selected", G_CALLBACK(tree_selected), self);
    g_signal_connect(self->viewport, "body-picked", G_CALLBACK(body_picked), self);
    g_signal_connect(self->viewport, "point-clicked", G_CALLBACK(point_clicked), self);
    self->sel_kind = MT_EDIT_NKINDS;
    self->sel_index = -1;
    self->nbody_shown = -1;
    motus_window_project_init(self);
    motus_window_edit_init(self);
    motus_window_planar_init(self);
    motus_window_gizmo_init(self);
    motus_window_meters_init(self);
    motus_window_units_init(self);
    motus_window_teach_init(self);
    motus_window_lesson_init(self);
    motus_window_sliders_init(self);
    header_menus_give_back_keys(self); /* before the check badge, which does it for its own panel */
    motus_window_check_init(self);
    motus_window_flex_init(self);
    motus_window_analysis_init(self);
    motus_window_export_init(self);
    motus_window_study_init(self);
    motus_paint_warm_attach(GTK_WINDOW(self), self->viewport);
    set_status(self, _("Open a project or a model (Ctrl+O), or start a new project (Ctrl+N)"));
    set_time_label(self);
    update_actions(self);
}

MotusWindow *motus_window_new(GtkApplication *app) { return g_object_new(MOTUS_TYPE_WINDOW, "application", app, NULL); }
