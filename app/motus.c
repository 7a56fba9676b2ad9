/* motus.c — the desktop application (GtkApplication org.motus.Motus).
 *
 *   motus [PROJECT.motus | MODEL.motus.txt]
 *
 * Headless test hooks (used by tests/ui under Xvfb): --run starts the run
 * once the model is open; --screenshot FILE saves the whole window after the
 * run (or after the first frame without --run); --shot-info FILE writes where
 * the 3D view, the plot and the bodies are in it; --quit-after-run quits when
 * done with exit status 0, or 1 when the model, the run, GL or the screenshot
 * failed (the message goes to stderr). --time, --view, --plot,
 * --deformation-scale, --colour and --range set up what the screenshot shows.
 * --analysis statics|statics-relax|kinematics|modes runs that analysis
 * instead of a run (as the Analysis menu does); --mode N then animates mode
 * N of the modes for the screenshot. --study cases|heatmap|plot|parallel|path
 * runs the model's study in its panel and saves the panel showing that page
 * (--screenshot) instead of the window. --export-video FILE writes the
 * animation of the run (MP4, WebM or GIF by the name) with --fps, --size
 * WxH, --from and --to, as the window's Export Animation does: the headless
 * export (under xvfb-run; motus-cli has no GL). */
#include <gtk/gtk.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app_common.h"
#include "motus-app.h"
#include "motus-i18n.h"
#include "motus-viewport.h"
#include "motus-window-analysis.h"
#include "motus-window-export.h"
#include "motus-window-study.h"
#include "motus-window.h"

#ifndef MOTUS_INSTALL_LOCALEDIR
#define MOTUS_INSTALL_LOCALEDIR "/usr/local/share/locale"
#endif
#ifndef MOTUS_VERSION
#define MOTUS_VERSION "0.1.0"
#endif

/* Command-line options (filled in by GApplication in this process). */
static gboolean opt_run, opt_quit, opt_version, opt_export_plots;
static char *opt_shot, *opt_info, *opt_view, *opt_plot, *opt_colour, *opt_range, *opt_focus, *opt_analysis, *opt_select;
static char *opt_study;
static char *opt_export, *opt_size;
static int opt_mode, opt_fps = 25;
static double opt_time = NAN, opt_deform = NAN, opt_until = NAN, opt_from = NAN, opt_to = NAN;

static const GOptionEntry options[] = {
    {"run", 0, 0, G_OPTION_ARG_NONE, &opt_run, N_("Run the model as soon as it is open"), NULL},
    {"screenshot", 0, 0, G_OPTION_ARG_FILENAME, &opt_shot, N_("Save a PNG of the window after the run"), N_("FILE")},
    {"shot-info", 0, 0, G_OPTION_ARG_FILENAME, &opt_info, N_("Write where the view, the plot and the bodies are"),
     N_("FILE")},
    {"quit-after-run", 0, 0, G_OPTION_ARG_NONE, &opt_quit, N_("Quit when the run (and the screenshot) is done"), NULL},
    {"until", 0, 0, G_OPTION_ARG_DOUBLE, &opt_until, N_("End time of the run, s (instead of the model's)"), N_("T")},
    {"time", 0, 0, G_OPTION_ARG_DOUBLE, &opt_time, N_("Show the frame at this time after the run, s"), N_("T")},
    {"view", 0, 0, G_OPTION_ARG_STRING, &opt_view, N_("View preset: front, right, top or iso"), N_("VIEW")},
    {"plot", 0, 0, G_OPTION_ARG_STRING, &opt_plot, N_("Result columns to plot, separated by commas"), N_("COLUMNS")},
    {"deformation-scale", 0, 0, G_OPTION_ARG_DOUBLE, &opt_deform,
     N_("Scale factor of the deformation of flexible bodies"), N_("S")},
    {"focus", 0, 0, G_OPTION_ARG_STRING, &opt_focus, N_("Frame this body in the 3D view for the screenshot"),
     N_("BODY")},
    {"select", 0, 0, G_OPTION_ARG_STRING, &opt_select, N_("Select this body (as a click in the view does) for the screenshot"),
     N_("BODY")},
    {"colour", 0, 0, G_OPTION_ARG_STRING, &opt_colour,
     N_("Colour flexible bodies by a field: none, displacement or stress"), N_("FIELD")},
    {"range", 0, 0, G_OPTION_ARG_STRING, &opt_range,
     N_("Colour scale: run (the run's maximum), frame, or LO:HI in SI units (m, Pa)"), N_("RANGE")},
    {"analysis", 0, 0, G_OPTION_ARG_STRING, &opt_analysis,
     N_("Run an analysis instead: statics, statics-relax, kinematics or modes"), N_("ANALYSIS")},
    {"mode", 0, 0, G_OPTION_ARG_INT, &opt_mode, N_("After --analysis modes, animate this mode (1: the first)"), N_("N")},
    {"study", 0, 0, G_OPTION_ARG_STRING, &opt_study,
     N_("Run the model's study and show this page of its panel (cases, heatmap, plot, parallel, or path for an optimisation); "
        "--screenshot saves the panel"),
     N_("PAGE")},
    {"export-video", 0, 0, G_OPTION_ARG_FILENAME, &opt_export,
     N_("Export the run's animation to a video (.mp4, .webm, .mkv) or an animated GIF"), N_("FILE")},
    {"fps", 0, 0, G_OPTION_ARG_INT, &opt_fps, N_("Frames a second of the exported video (default 25)"), N_("N")},
    {"size", 0, 0, G_OPTION_ARG_STRING, &opt_size, N_("Size of the exported video in pixels (default 1280x720)"),
     N_("WxH")},
    {"export-plots", 0, 0, G_OPTION_ARG_NONE, &opt_export_plots,
     N_("Draw the plots beside the view in the exported video"), NULL},
    {"from", 0, 0, G_OPTION_ARG_DOUBLE, &opt_from, N_("Time of the exported video's first frame, s"), N_("T")},
    {"to", 0, 0, G_OPTION_ARG_DOUBLE, &opt_to, N_("Time of the exported video's last frame, s"), N_("T")},
    {"version", 0, 0, G_OPTION_ARG_NONE, &opt_version, N_("Print the version and exit"), NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL},
};

/* The headless sequence: open → (run) → wait for a fresh frame → screenshot → (quit). */
typedef struct {
    GtkApplication *app;
    MotusWindow *win;
    int status;
    guint frames_mark;
    guint poll_id;
    int shot_tries; /* redraws waited for because the window had no picture yet */
} Batch;

static Batch batch;

static gboolean batch_mode(void)
{
    return opt_run || opt_quit || opt_shot || opt_info || opt_analysis || opt_export || opt_study;
}

static void batch_fail(const char *what, const char *msg)
{
    g_printerr("motus: %s%s%s\n", what, msg ? ": " : "", msg ? msg : "");
    batch.status = 1;
    if (opt_quit) g_application_quit(G_APPLICATION(batch.app));
}

static void export_done(MotusWindow *win, gboolean ok, const char *message, gpointer data)
{
    (void)win, (void)data;
    if (ok) g_print("motus: %s\n", message);
    else batch.status = 1; /* the window has printed the message */
    if (opt_quit) g_application_quit(G_APPLICATION(batch.app));
}

/* --export-video: once the view has drawn, the window's export with --fps, --size, --from, --to. */
static void start_export(void)
{
    int w = 1280, h = 720;
    char *end = NULL;
    if (opt_size) {
        w = (int)g_ascii_strtoll(opt_size, &end, 10);
        if (end != opt_size && (*end == 'x' || *end == 'X'))
            h = (int)g_ascii_strtoll(end + 1, &end, 10);
        else
            end = NULL;
        if (!end || *end) {
            batch_fail(_("--size: WIDTHxHEIGHT in pixels, e.g. 1280x720"), opt_size);
            return;
        }
    }
    g_autoptr(GError) error = NULL;
    if (!motus_window_export_video(batch.win, opt_export, opt_fps, w, h, opt_from, opt_to, opt_export_plots,
                                   export_done, NULL, &error))
        batch_fail(_("cannot export the animation"), error->message);
}

static gboolean shot_poll(gpointer data)
{
    (void)data;
    MotusViewport *vp = MOTUS_VIEWPORT(motus_window_get_viewport(batch.win));
    const GError *gl = motus_viewport_get_error(vp);
    if (gl) {
        batch.poll_id = 0;
        batch_fail(_("the 3D view cannot be drawn"), gl->message);
        return G_SOURCE_REMOVE;
    }
    if (motus_viewport_get_frames_drawn(vp) <= batch.frames_mark) return G_SOURCE_CONTINUE;
    batch.poll_id = 0;
    g_autoptr(GError) error = NULL;
    if (opt_shot && !motus_window_save_screenshot(batch.win, opt_shot, &error)) {
        /* A redraw queued after the view's frame (a label, the status bar) leaves the window without a
         * picture until the next frame: wait for that one rather than fail. */
        if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_BUSY) && ++batch.shot_tries < 100) {
            gtk_widget_queue_draw(GTK_WIDGET(batch.win));
            motus_viewport_queue_render(vp);
            batch.frames_mark = motus_viewport_get_frames_drawn(vp);
            batch.poll_id = g_source_get_id(g_main_current_source());
            return G_SOURCE_CONTINUE;
        }
        batch_fail(_("cannot save the screenshot"), error->message);
        return G_SOURCE_REMOVE;
    }
    if (opt_info && !motus_window_write_shot_info(batch.win, opt_info, &error)) {
        batch_fail(_("cannot write the screenshot description"), error->message);
        return G_SOURCE_REMOVE;
    }
    if (opt_shot)
        g_print(_("motus: screenshot saved to %s (GL: %s)\n"), opt_shot, motus_viewport_get_gl_info(vp));
    else
        g_print(_("motus: frame drawn (GL: %s)\n"), motus_viewport_get_gl_info(vp));
    if (opt_export)
        start_export();
    else if (opt_quit)
        g_application_quit(G_APPLICATION(batch.app));
    return G_SOURCE_REMOVE;
}

/* Waits until the 3D view has drawn a frame after this moment, then shoots. */
static void schedule_shot(void)
{
    MotusViewport *vp = MOTUS_VIEWPORT(motus_window_get_viewport(batch.win));
    motus_viewport_queue_render(vp);
    batch.frames_mark = motus_viewport_get_frames_drawn(vp);
    if (!batch.poll_id) batch.poll_id = g_timeout_add(40, shot_poll, NULL);
}

static gboolean focus_body(void);

static void batch_run_finished(MotusWindow *win, gboolean ok, const char *message, gpointer data)
{
    (void)win, (void)data;
    if (!ok) {
        if (message && message[0]) { /* the window has printed the solver's message */
            batch.status = 1;
            if (opt_quit) g_application_quit(G_APPLICATION(batch.app));
        } else {
            batch_fail(_("the run was stopped"), NULL);
        }
        return;
    }
    g_print("motus: %s\n", motus_window_get_status(batch.win)); /* the window's account of the run */
    if (!isnan(opt_time)) motus_window_set_time(batch.win, opt_time);
    if (opt_mode > 0 && !motus_window_analysis_animate(batch.win, opt_mode - 1)) {
        batch_fail(_("--mode: no such mode to animate"), NULL);
        return;
    }
    if ((opt_focus || opt_select) && !focus_body()) return;
    if (opt_shot || opt_info || opt_export)
        schedule_shot();
    else if (opt_quit)
        g_application_quit(G_APPLICATION(batch.app));
}

/* --focus: frames the named body; --select: selects it (its highlight in the screenshot). */
static gboolean focus_body(void)
{
    const MtModel *m = mt_editor_model(motus_window_get_editor(batch.win));
    int f = opt_focus && m ? mt_model_find_body(m, opt_focus) : -1, s = opt_select && m ? mt_model_find_body(m, opt_select) : -1;
    if (opt_focus && f < 0) {
        batch_fail(_("--focus: no such body"), opt_focus);
        return FALSE;
    }
    if (opt_select && s < 0) {
        batch_fail(_("--select: no such body"), opt_select);
        return FALSE;
    }
    if (f >= 0) motus_viewport_fit_body(MOTUS_VIEWPORT(motus_window_get_viewport(batch.win)), f);
    if (s >= 0) motus_window_select_entity(batch.win, MT_EDIT_BODY, s);
    return TRUE;
}

static gboolean batch_timeout(gpointer data)
{
    (void)data;
    batch_fail(_("timed out"), NULL);
    g_application_quit(G_APPLICATION(batch.app));
    return G_SOURCE_REMOVE;
}

/* --study: the panel's outcome (motus-window-study.c saved the panel). */
static void batch_study_done(gpointer user, gboolean ok, const char *message)
{
    (void)user;
    if (!ok) {
        batch_fail(_("the study"), message);
        return;
    }
    g_print("motus: %s%s%s\n", message, opt_shot ? "; " : "", opt_shot ? opt_shot : "");
    if (opt_quit) g_application_quit(G_APPLICATION(batch.app));
}

/* Applies --view and --plot, then starts the run or schedules the shot. */
static void batch_start(void)
{
    MotusViewport *vp = MOTUS_VIEWPORT(motus_window_get_viewport(batch.win));
    if (opt_view) {
        static const char *const names[] = {"front", "right", "top", "iso"};
        guint i;
        for (i = 0; i < G_N_ELEMENTS(names) && strcmp(opt_view, names[i]); i++) {}
        if (i == G_N_ELEMENTS(names)) {
            batch_fail(_("unknown view (front, right, top, iso)"), opt_view);
            return;
        }
        motus_viewport_view_preset(vp, (MotusViewPreset)i);
    }
    if (!isnan(opt_until)) { /* an edit of the solver settings (the file is not saved) */
        char buf[G_ASCII_DTOSTR_BUF_SIZE];
        g_autoptr(GError) error = NULL;
        g_ascii_dtostr(buf, sizeof buf, opt_until);
        if (!motus_window_set_field(batch.win, MT_EDIT_SOLVER, 0, "until", buf, &error)) {
            batch_fail(_("--until"), error->message);
            return;
        }
    }
    if (!isnan(opt_deform)) motus_viewport_set_deformation_scale(vp, opt_deform);
    if (opt_colour) {
        static const char *const fields[] = {"none", "displacement", "stress"};
        guint i;
        for (i = 0; i < G_N_ELEMENTS(fields) && strcmp(opt_colour, fields[i]); i++) {}
        if (i == G_N_ELEMENTS(fields)) {
            batch_fail(_("unknown field (none, displacement, stress)"), opt_colour);
            return;
        }
        motus_viewport_set_colour_field(vp, (MotusField)i);
    }
    if (opt_range) {
        double lo, hi;
        char *end = NULL;
        if (!strcmp(opt_range, "run"))
            motus_viewport_set_colour_range(vp, MOTUS_RANGE_RUN, 0, 0);
        else if (!strcmp(opt_range, "frame"))
            motus_viewport_set_colour_range(vp, MOTUS_RANGE_FRAME, 0, 0);
        else if ((lo = g_ascii_strtod(opt_range, &end), end && *end == ':') &&
                 (hi = g_ascii_strtod(end + 1, &end), end && !*end) && hi > lo)
            motus_viewport_set_colour_range(vp, MOTUS_RANGE_FIXED, lo, hi);
        else {
            batch_fail(_("--range: run, frame or LO:HI with LO < HI"), opt_range);
            return;
        }
    }
    if (opt_plot) {
        g_auto(GStrv) cols = g_strsplit(opt_plot, ",", -1);
        g_autoptr(GError) error = NULL;
        if (!motus_window_set_plot_columns(batch.win, (const char *const *)cols, &error)) {
            batch_fail(_("--plot"), error->message);
            return;
        }
    }
    if (opt_study) { /* the panel saves itself: the main window is not shot */
        g_autoptr(GError) error = NULL;
        if (!motus_window_study_shoot(batch.win, opt_study, opt_shot, batch_study_done, NULL, &error))
            batch_fail(_("--study"), error->message);
    } else if (opt_analysis) { /* the window's own action, as the Analysis menu starts it */
        static const char *const names[] = {"statics", "statics-relax", "kinematics", "modes"};
        guint i;
        for (i = 0; i < G_N_ELEMENTS(names) && strcmp(opt_analysis, names[i]); i++) {}
        if (i == G_N_ELEMENTS(names) || !g_action_group_get_action_enabled(G_ACTION_GROUP(batch.win), names[i])) {
            batch_fail(_("--analysis: statics, statics-relax, kinematics or modes, with a model open"), opt_analysis);
            return;
        }
        g_signal_connect(batch.win, "run-finished", G_CALLBACK(batch_run_finished), NULL);
        g_action_group_activate_action(G_ACTION_GROUP(batch.win), names[i], NULL);
        if (!motus_window_is_running(batch.win)) batch_fail(_("the analysis did not start"), motus_window_get_status(batch.win));
    } else if (opt_run) {
        g_autoptr(GError) error = NULL;
        g_signal_connect(batch.win, "run-finished", G_CALLBACK(batch_run_finished), NULL);
        if (!motus_window_run(batch.win, &error)) batch_fail(_("cannot run"), error->message);
    } else if (opt_shot || opt_info || opt_export) { /* --export-video: a project's stored run */
        if ((opt_focus || opt_select) && !focus_body()) return;
        schedule_shot();
    } else if (opt_quit) {
        g_application_quit(G_APPLICATION(batch.app));
    }
}

static MotusWindow *new_window(GtkApplication *app)
{
    MotusWindow *win = motus_window_new(app);
    if (batch_mode()) motus_window_set_batch(win, TRUE);
    return win;
}

static void on_activate(GApplication *app, gpointer data)
{
    (void)data;
    GtkWindow *w = gtk_application_get_active_window(GTK_APPLICATION(app));
    if (!w) w = GTK_WINDOW(new_window(GTK_APPLICATION(app)));
    gtk_window_present(w);
    if (batch_mode() && !batch.win) {
        batch.win = MOTUS_WINDOW(w);
        if (opt_run)
            batch_fail(_("--run needs a model file"), NULL);
        else
            batch_start();
    }
}

static void on_open(GApplication *app, GFile **files, int n, const char *hint, gpointer data)
{
    (void)hint, (void)data;
    for (int i = 0; i < n; i++) {
        MotusWindow *win = new_window(GTK_APPLICATION(app));
        gtk_window_present(GTK_WINDOW(win));
        g_autoptr(GError) error = NULL;
        gboolean ok = motus_window_open_file(win, files[i], &error);
        if (batch_mode() && !batch.win) {
            batch.win = win;
            if (!ok)
                batch_fail(_("cannot open the project"), error->message); /* the message names the file */
            else
                batch_start();
        } else if (!ok) {
            G_GNUC_BEGIN_IGNORE_DEPRECATIONS
            GtkWidget *d =
                gtk_message_dialog_new(GTK_WINDOW(win), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                       GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s", _("Cannot open the model"));
            gtk_message_dialog_format_secondary_text(GTK_MESSAGE_DIALOG(d), "%s", error->message);
            g_signal_connect(d, "response", G_CALLBACK(gtk_window_destroy), NULL);
            G_GNUC_END_IGNORE_DEPRECATIONS
            gtk_window_present(GTK_WINDOW(d));
        }
    }
}

static void on_startup(GApplication *app, gpointer data)
{
    (void)data;
    motus_ui_choose_renderer(); /* before the first window: cairo on a software OpenGL */
    motus_app_setup(GTK_APPLICATION(app), MOTUS_VERSION);
}

static int on_local_options(GApplication *app, GVariantDict *opts, gpointer data)
{
    (void)app, (void)opts, (void)data;
    if (opt_version) {
        g_print("motus %s\n", MOTUS_VERSION);
        return 0;
    }
    if (batch_mode()) g_timeout_add_seconds(opt_export ? 1800 : 120, batch_timeout, NULL); /* long clips take long */
    return -1;
}

int main(int argc, char **argv)
{
    app_init_i18n();
    app_init_blas();
    gtk_disable_setlocale(); /* done above, with LC_NUMERIC kept at "C" */
    motus_ui_register_resources();
    /* Test runs and scripted runs (any option) get their own process instead
     * of handing the file to an instance that is already open. */
    GApplicationFlags flags = G_APPLICATION_HANDLES_OPEN;
    for (int i = 1; i < argc; i++)
        if (g_str_has_prefix(argv[i], "--")) flags |= G_APPLICATION_NON_UNIQUE;
    GtkApplication *app = gtk_application_new("org.motus.Motus", flags);
    batch.app = app;
    g_application_add_main_option_entries(G_APPLICATION(app), options);
    g_application_set_option_context_parameter_string(G_APPLICATION(app), _("[PROJECT.motus | MODEL.motus.txt]"));
    g_application_set_option_context_summary(G_APPLICATION(app),
                                             _("Motus: build, run and play back mechanisms, and plot their results."));
    g_signal_connect(app, "startup", G_CALLBACK(on_startup), NULL);
    g_signal_connect(app, "activate", G_CALLBACK(on_activate), NULL);
    g_signal_connect(app, "open", G_CALLBACK(on_open), NULL);
    g_signal_connect(app, "handle-local-options", G_CALLBACK(on_local_options), NULL);
    int status = g_application_run(G_APPLICATION(app), argc, argv);
    g_object_unref(app);
    g_free(opt_shot);
    g_free(opt_info);
    g_free(opt_view);
    g_free(opt_plot);
    g_free(opt_colour);
    g_free(opt_range);
    g_free(opt_focus);
    g_free(opt_select);
    g_free(opt_export);
    g_free(opt_size);
    g_free(opt_study);
    return status ? status : batch.status;
}
