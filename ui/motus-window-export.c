/* motus-window-export.c — the animation export of the main window (see
 * motus-window-export.h): the dialog, and the export itself, one frame per
 * main-loop turn (an idle source) so that the window stays live, shows the
 * progress and takes Esc. Each frame sets the session's time (the view, the
 * flexible bodies and the plots follow as in playback), draws the view
 * offscreen at the size asked (motus_viewport_render_rgba) and hands the
 * picture to the encoder (motus-video.h). */
#include <math.h>
#include <string.h>

#include "motus-dialog.h"
#include "motus-i18n.h"
#include "motus-plot.h"
#include "motus-video.h"
#include "motus-window-export.h"
#include "motus-window-private.h"

typedef struct ExportUi {
    GtkWidget *dialog;  /* the export dialog, or NULL */
    MotusVideo *video;  /* the file being written, NULL when no export goes */
    guint idle;         /* the source that draws the next frame */
    int k, n, fps, w, h;
    int view_w;          /* the 3D view's part of the width (the rest: the plots, stacked) */
    guint8 *view_rgba;   /* the view's picture, view_w x h */
    cairo_surface_t *plots; /* the plots' picture, (w - view_w) x h, or NULL */
    double t0, t_before; /* first frame; the time shown before the export (shown again after) */
    guint8 *rgba;
    char *path;
    gboolean cancel;
    MotusExportDone done;
    gpointer done_data;
} ExportUi;

static GQuark export_quark(void) { return g_quark_from_static_string("motus-export"); }

/* Ends the export: the file finished (ok) or removed, the status bar says what became of it. */
static void export_finish(MotusWindow *self, gboolean ok, const char *why)
{
    ExportUi *ui = self->export_ui;
    g_clear_handle_id(&ui->idle, g_source_remove);
    g_autoptr(GError) error = NULL;
    g_autofree char *msg = NULL;
    int frames = motus_video_frames(ui->video), w, h;
    motus_video_size(ui->video, &w, &h);
    g_autofree char *codec = g_strdup(motus_video_codec(ui->video));
    if (ok && motus_video_close(ui->video, &error))
        msg = g_strdup_printf(_("Animation saved to %s: %d frames, %d × %d pixels, %d frames/s (%s)"), ui->path, frames,
                              w, h, ui->fps, codec);
    else {
        if (ok) {
            ok = FALSE;
            why = error->message; /* closed and freed; the file is what could be written */
        } else
            motus_video_abort(ui->video);
        msg = g_strdup_printf(_("Animation not saved: %s"), why);
    }
    ui->video = NULL;
    g_clear_pointer(&ui->rgba, g_free);
    g_clear_pointer(&ui->view_rgba, g_free);
    g_clear_pointer(&ui->plots, cairo_surface_destroy);
    motus_ticker_set_fraction(self->progress, 0);
    motus_window_set_status(self, msg);
    if (ok)
        gtk_widget_remove_css_class(GTK_WIDGET(self->status_label), "error");
    else
        gtk_widget_add_css_class(GTK_WIDGET(self->status_label), "error");
    if (self->batch && !ok) g_printerr("motus: %s\n", msg);
    motus_window_set_time(self, ui->t_before);
    g_clear_pointer(&ui->path, g_free);
    motus_window_update_actions(self);
    MotusExportDone done = ui->done;
    ui->done = NULL;
    if (done) done(self, ok, msg, ui->done_data);
}

/* The frame: the view's picture at the left, the plots (their time cursor at the frame's time) stacked at the right. */
static void compose(MotusWindow *self)
{
    ExportUi *ui = self->export_ui;
    gsize row = (gsize)ui->w * 4;
    for (int y = 0; y < ui->h; y++)
        memcpy(ui->rgba + y * row, ui->view_rgba + (gsize)y * ui->view_w * 4, (gsize)ui->view_w * 4);
    if (!ui->plots) return;
    int pw = ui->w - ui->view_w, n = (int)motus_window_n_plots(self);
    cairo_t *cr = cairo_create(ui->plots);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    for (int i = 0; i < n; i++) {
        int y0 = ui->h * i / n, y1 = ui->h * (i + 1) / n;
        cairo_save(cr);
        cairo_translate(cr, 0, y0);
        cairo_rectangle(cr, 0, 0, pw, y1 - y0);
        cairo_clip(cr);
        motus_plot_render(MOTUS_PLOT(motus_window_get_plot_n(self, (guint)i)), cr, pw, y1 - y0);
        cairo_restore(cr);
    }
    cairo_destroy(cr);
    cairo_surface_flush(ui->plots);
    const guint8 *src = cairo_image_surface_get_data(ui->plots);
    int stride = cairo_image_surface_get_stride(ui->plots);
    for (int y = 0; y < ui->h; y++) {
        const guint32 *s = (const guint32 *)(src + (gsize)y * stride);
        guint8 *d = ui->rgba + y * row + (gsize)ui->view_w * 4;
        for (int x = 0; x < pw; x++, d += 4) /* cairo's ARGB32 words (opaque after the white paint) */
            d[0] = (guint8)(s[x] >> 16), d[1] = (guint8)(s[x] >> 8), d[2] = (guint8)s[x], d[3] = 255;
    }
}

static gboolean export_tick(gpointer data)
{
    MotusWindow *self = data;
    ExportUi *ui = self->export_ui;
    if (ui->cancel) {
        ui->idle = 0;
        export_finish(self, FALSE, _("cancelled"));
        return G_SOURCE_REMOVE;
    }
    if (motus_run_bridge_is_running(motus_window_bridge(self))) { /* its frames are no longer the run's */
        ui->idle = 0;
        export_finish(self, FALSE, _("a run started"));
        return G_SOURCE_REMOVE;
    }
    if (!motus_run_bridge_n_frames(motus_window_bridge(self))) { /* another model was opened */
        ui->idle = 0;
        export_finish(self, FALSE, _("the run is no longer shown"));
        return G_SOURCE_REMOVE;
    }
    if (ui->k >= ui->n) {
        ui->idle = 0;
        export_finish(self, TRUE, NULL);
        return G_SOURCE_REMOVE;
    }
    motus_window_set_time(self, ui->t0 + (double)ui->k / ui->fps);
    g_autoptr(GError) error = NULL;
    if (!motus_viewport_render_rgba(self->viewport, ui->view_w, ui->h, ui->view_rgba)) {
        ui->idle = 0;
        export_finish(self, FALSE, _("the 3D view cannot be drawn (OpenGL)"));
        return G_SOURCE_REMOVE;
    }
    compose(self);
    if (!motus_video_add_frame(ui->video, ui->rgba, ui->w * 4, &error)) {
        ui->idle = 0;
        export_finish(self, FALSE, error->message);
        return G_SOURCE_REMOVE;
    }
    ui->k++;
    g_autofree char *msg = g_strdup_printf(_("Exporting the animation: frame %d of %d (Esc cancels)"), ui->k, ui->n);
    motus_window_set_status(self, msg);
    motus_ticker_set_fraction(self->progress, (double)ui->k / ui->n);
    return G_SOURCE_CONTINUE;
}

gboolean motus_window_export_video(MotusWindow *self, const char *path, int fps, int w, int h, double t0, double t1,
                                   gboolean plots, MotusExportDone done, gpointer data, GError **error)
{
    ExportUi *ui = self->export_ui;
    MotusRunBridge *b = motus_window_bridge(self);
    guint nf = motus_run_bridge_n_frames(b);
    double first = 0, last = motus_run_bridge_last_time(b);
    if (ui->video || motus_run_bridge_is_running(b) || !nf) {
        g_set_error(error, export_quark(), 1, "%s",
                    ui->video ? _("an export is going already")
                    : nf && motus_run_bridge_is_running(b) ? _("wait until the run is over")
                                                           : _("there is no run to export: run the model first (F5)"));
        return FALSE;
    }
    motus_run_bridge_get_frame(b, 0, &first, NULL);
    if (isnan(t0)) t0 = first;
    if (isnan(t1)) t1 = last;
    if (!(t0 >= first - 1e-9 && t1 <= last + 1e-9 && t1 >= t0)) {
        g_set_error(error, export_quark(), 1, _("the time range %g … %g s is not within the run's %g … %g s"), t0, t1,
                    first, last);
        return FALSE;
    }
    if (!gtk_widget_get_realized(GTK_WIDGET(self->viewport))) {
        g_set_error(error, export_quark(), 1, "%s", _("the 3D view is not shown yet"));
        return FALSE;
    }
    ui->video = motus_video_open(path, w, h, fps, error);
    if (!ui->video) return FALSE;
    ui->path = g_strdup(path);
    ui->fps = fps, ui->t0 = t0, ui->k = 0;
    ui->n = (int)floor((t1 - t0) * fps + 1e-6) + 1;
    motus_video_size(ui->video, &ui->w, &ui->h); /* what the encoder takes: the view is drawn at that size */
    ui->view_w = plots ? (ui->w * 3 / 5) & ~1 : ui->w;
    ui->rgba = g_malloc((gsize)ui->w * ui->h * 4);
    ui->view_rgba = g_malloc((gsize)ui->view_w * ui->h * 4);
    ui->plots = plots ? cairo_image_surface_create(CAIRO_FORMAT_ARGB32, ui->w - ui->view_w, ui->h) : NULL;
    ui->cancel = FALSE;
    ui->done = done, ui->done_data = data;
    ui->t_before = motus_session_get_time(self->session);
    gtk_widget_remove_css_class(GTK_WIDGET(self->status_label), "error");
    ui->idle = g_idle_add(export_tick, self);
    motus_window_update_actions(self);
    return TRUE;
}

gboolean motus_window_export_busy(MotusWindow *self) { return self->export_ui && self->export_ui->video; }

void motus_window_export_cancel(MotusWindow *self)
{
    if (motus_window_export_busy(self)) self->export_ui->cancel = TRUE;
}

int motus_window_export_progress(MotusWindow *self, int *total)
{
    ExportUi *ui = self->export_ui;
    if (total) *total = ui && ui->video ? ui->n : 0;
    return ui && ui->video ? ui->k : 0;
}

GtkWidget *motus_window_export_dialog(MotusWindow *self) { return self->export_ui ? self->export_ui->dialog : NULL; }

/* ---- the dialog ---------------------------------------------------------------- */

static GtkWidget *dialog_spin(GtkGrid *grid, int row, const char *label, const char *key, double lo, double hi,
                              double step, int digits, double value, const char *tip, GtkWidget *d)
{
    GtkWidget *s = gtk_spin_button_new_with_range(lo, hi, step);
    gtk_spin_button_set_digits(GTK_SPIN_BUTTON(s), (guint)digits);
    gtk_spin_button_set_value(GTK_SPIN_BUTTON(s), value);
    gtk_widget_set_hexpand(s, TRUE);
    return motus_dialog_field(grid, row, label, s, 2, tip, d, key);
}

static double spin_value(GtkWidget *d, const char *key)
{
    return gtk_spin_button_get_value(GTK_SPIN_BUTTON(g_object_get_data(G_OBJECT(d), key)));
}

/* How many frames the settings give, under the fields. */
static void dialog_describe(GtkWidget *d)
{
    double fps = spin_value(d, "fps"), t0 = spin_value(d, "from"), t1 = spin_value(d, "to");
    int n = t1 >= t0 ? (int)floor((t1 - t0) * fps + 1e-6) + 1 : 0;
    g_autofree char *text =
        g_strdup_printf(_("%d frames, %.2f s of video. MP4 (H.264), WebM (VP9) or animated GIF, by the file name's "
                          "ending."),
                        n, n / fps);
    gtk_label_set_text(GTK_LABEL(g_object_get_data(G_OBJECT(d), "info")), text);
}

static void dialog_export(GtkButton *button, gpointer data)
{
    (void)button;
    GtkWidget *d = data;
    MotusWindow *self = g_object_get_data(G_OBJECT(d), "window");
    const char *path = gtk_editable_get_text(GTK_EDITABLE(g_object_get_data(G_OBJECT(d), "file")));
    g_autoptr(GError) error = NULL;
    if (!motus_window_export_video(self, path, (int)spin_value(d, "fps"), (int)spin_value(d, "width"),
                                   (int)spin_value(d, "height"), spin_value(d, "from"), spin_value(d, "to"),
                                   gtk_check_button_get_active(GTK_CHECK_BUTTON(g_object_get_data(G_OBJECT(d), "plots"))),
                                   NULL, NULL, &error)) {
        gtk_label_set_text(GTK_LABEL(g_object_get_data(G_OBJECT(d), "message")), error->message);
        return;
    }
    gtk_window_destroy(GTK_WINDOW(d));
}

static void dialog_choose(GtkButton *b, gpointer data)
{
    (void)b;
    GtkWidget *d = data;
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS /* GtkFileDialog comes with GTK 4.10 */
    GtkFileChooserNative *fc = gtk_file_chooser_native_new(_("Export the Animation"), GTK_WINDOW(d),
                                                           GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
    g_autofree char *base = g_path_get_basename(gtk_editable_get_text(GTK_EDITABLE(g_object_get_data(G_OBJECT(d), "file"))));
    gtk_file_chooser_set_current_name(GTK_FILE_CHOOSER(fc), base);
    G_GNUC_END_IGNORE_DEPRECATIONS
    g_signal_connect(fc, "response", G_CALLBACK(motus_dialog_file_chosen), d);
    gtk_native_dialog_show(GTK_NATIVE_DIALOG(fc));
}

static void dialog_destroyed(GtkWidget *d, gpointer data)
{
    (void)d;
    MotusWindow *self = data;
    if (self->export_ui) self->export_ui->dialog = NULL;
}

/* The file proposed: the model's file with .mp4 for its ending, in the working directory for a new project. */
static char *default_path(MotusWindow *self)
{
    const char *doc = motus_document_get_path(self->doc);
    if (!doc) {
        g_autofree char *cwd = g_get_current_dir();
        return g_build_filename(cwd, "animation.mp4", NULL);
    }
    g_autofree char *stem = g_strdup(doc);
    static const char *const ends[] = {".motus.txt", ".txt", ".motus"};
    for (guint i = 0; i < G_N_ELEMENTS(ends); i++)
        if (g_str_has_suffix(stem, ends[i])) {
            stem[strlen(stem) - strlen(ends[i])] = 0;
            break;
        }
    return g_strconcat(stem, ".mp4", NULL);
}

static GtkWidget *dialog_new(MotusWindow *self)
{
    MotusRunBridge *b = motus_window_bridge(self);
    double first = 0, last = motus_run_bridge_last_time(b);
    motus_run_bridge_get_frame(b, 0, &first, NULL);
    GtkWidget *d = motus_dialog_new(GTK_WINDOW(self), _("Export the Animation"), 520, -1);
    gtk_window_set_modal(GTK_WINDOW(d), TRUE);
    g_object_set_data(G_OBJECT(d), "window", self);
    GtkGrid *grid = motus_dialog_form(d);
    int r = 0;
    g_autofree char *path = default_path(self);
    motus_dialog_file_row(grid, r++, _("File"), path,
                          _("Ending in .mp4 or .mkv (H.264), .webm (VP9) or .gif (animated GIF)"),
                          G_CALLBACK(dialog_choose), d);
    int vw = gtk_widget_get_width(GTK_WIDGET(self->viewport)), vh = gtk_widget_get_height(GTK_WIDGET(self->viewport));
    GtkWidget *spins[] = {
        dialog_spin(grid, r++, _("Frame rate, frames/s"), "fps", 1, 120, 1, 0, 25, _("Frames a second of the video"), d),
        dialog_spin(grid, r++, _("Width, pixels"), "width", 16, 8192, 2, 0, vw > 16 ? vw & ~1 : 1280,
                    _("The view is drawn again at this size (the size on screen at first)"), d),
        dialog_spin(grid, r++, _("Height, pixels"), "height", 16, 8192, 2, 0, vh > 16 ? vh & ~1 : 720, NULL, d),
        dialog_spin(grid, r++, _("From, s"), "from", first, last, 0.01, 3, first, _("The time of the first frame"), d),
        dialog_spin(grid, r++, _("To, s"), "to", first, last, 0.01, 3, last, _("The time of the last frame"), d),
    };
    GtkWidget *plots = gtk_check_button_new_with_label(_("The plots beside the view"));
    gtk_widget_set_tooltip_text(plots, _("The window's plots, stacked, in the right two fifths of the picture"));
    gtk_grid_attach(grid, plots, 1, r++, 2, 1);
    g_object_set_data(G_OBJECT(d), "plots", plots);
    motus_dialog_note(grid, r++, "dim-label", 60, d, "info");
    motus_dialog_note(grid, r++, "error", -1, d, "message");
    GtkWidget *ok = motus_dialog_footer(grid, r++, _("_Export"), G_CALLBACK(dialog_export), d);
    g_object_set_data(G_OBJECT(d), "export", ok);
    gtk_window_set_default_widget(GTK_WINDOW(d), ok);
    for (guint i = 0; i < G_N_ELEMENTS(spins); i++)
        g_signal_connect_swapped(spins[i], "value-changed", G_CALLBACK(dialog_describe), d);
    dialog_describe(d);
    g_signal_connect(d, "destroy", G_CALLBACK(dialog_destroyed), self);
    return d;
}

static void act_export_video(GSimpleAction *a, GVariant *p, gpointer data)
{
    (void)a, (void)p;
    MotusWindow *self = data;
    ExportUi *ui = self->export_ui;
    if (!ui->dialog) ui->dialog = dialog_new(self);
    gtk_window_present(GTK_WINDOW(ui->dialog));
}

void motus_window_export_update_actions(MotusWindow *self)
{
    GAction *a = g_action_map_lookup_action(G_ACTION_MAP(self), "export-video");
    MotusRunBridge *b = motus_window_bridge(self);
    gboolean can = motus_run_bridge_n_frames(b) > 0 && !motus_run_bridge_is_running(b) && !motus_window_export_busy(self);
    if (a) g_simple_action_set_enabled(G_SIMPLE_ACTION(a), can);
}

void motus_window_export_init(MotusWindow *self)
{
    static const GActionEntry entries[] = {{"export-video", act_export_video, NULL, NULL, NULL, {0}}};
    self->export_ui = g_new0(ExportUi, 1);
    g_action_map_add_action_entries(G_ACTION_MAP(self), entries, G_N_ELEMENTS(entries), self);
    motus_window_export_update_actions(self);
}

void motus_window_export_dispose(MotusWindow *self)
{
    ExportUi *ui = self->export_ui;
    if (!ui) return;
    g_clear_handle_id(&ui->idle, g_source_remove);
    motus_video_abort(ui->video); /* the window closes during an export: nothing half-written stays */
    g_free(ui->rgba);
    g_free(ui->view_rgba);
    g_clear_pointer(&ui->plots, cairo_surface_destroy);
    g_free(ui->path);
    if (ui->dialog) {
        g_signal_handlers_disconnect_by_data(ui->dialog, self);
        gtk_window_destroy(GTK_WINDOW(ui->dialog));
    }
    g_free(ui);
    self->export_ui = NULL;
}
