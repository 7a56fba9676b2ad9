/* The main window in-process, under Xvfb (ctest gui_window): picking selects
 * in the tree and the tree highlights in the view; a run fills the frame
 * store and the plot; playback advances and steps; pause holds the worker;
 * stopping and reopening while a run goes are safe; the plot exports; the
 * paint memory is held at the window's size and follows it when it grows; starting a
 * run does not draw the 3D view again before its frames arrive. */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "motus-model-tree.h"
#include "motus-paint-warm.h"
#include "motus-plot.h"
#include "motus-viewport.h"
#include "motus-window.h"
#include "ui-test.h"

static char *project_dir;
static int finished_calls;
static gboolean finished_ok;

static gboolean not_running(void) { return !motus_window_is_running(win); }
static gboolean some_frames(void) { return motus_window_get_n_frames(win) >= 20; }
static gboolean finished(void) { return finished_calls > 0; }

static void on_finished(MotusWindow *w, gboolean ok, const char *msg, gpointer data)
{
    (void)w, (void)msg, (void)data;
    finished_calls++;
    finished_ok = ok;
}

static void activate(const char *action, GVariant *param)
{
    g_action_group_activate_action(G_ACTION_GROUP(win), action, param);
}

static gboolean action_enabled(const char *action)
{
    return g_action_group_get_action_enabled(G_ACTION_GROUP(win), action);
}

static gboolean csv_enabled(void) { return action_enabled("export-csv"); }

/* A copy of the slider-crank that runs for a long time (to be stopped). */
static char *long_model(void)
{
    g_autofree char *src = g_build_filename(project_dir, "slider-crank.motus.txt", NULL);
    g_autofree char *text = NULL;
    g_assert_true(g_file_get_contents(src, &text, NULL, NULL));
    char *path = g_build_filename(g_get_tmp_dir(), "motus-test-long.motus.txt", NULL);
    /* every 100th step written: 10^5 frames if it ran to the end, which the window has memory for */
    g_autofree char *longer = g_strconcat(text, "\nsolver step 1e-4 until 1000 every 100\n", NULL);
    g_assert_true(g_file_set_contents(path, longer, -1, NULL));
    return path;
}

static void test_open_and_pick(void)
{
    g_autofree char *path = g_build_filename(project_dir, "slider-crank.motus.txt", NULL);
    open_model(path);
    wait_drawn();
    g_assert_null(motus_viewport_get_error(viewport()));
    MotusModelTree *tree = MOTUS_MODEL_TREE(motus_window_get_model_tree(win));
    /* 8 categories + ground + 3 bodies + 4 joints + 1 driver */
    g_assert_cmpuint(motus_model_tree_n_rows(tree), ==, 17);
    g_assert_true(action_enabled("run"));
    g_assert_false(action_enabled("stop"));
    g_assert_false(action_enabled("play-pause"));
    /* click on each body: it is picked, highlighted and selected in the tree */
    for (int b = 0; b < 3; b++) {
        double x, y;
        g_assert_true(motus_viewport_project_body(viewport(), b, &x, &y));
        int picked = motus_viewport_pick_at(viewport(), x, y);
        g_assert_cmpint(picked, ==, b);
        g_assert_cmpint(motus_viewport_get_selected_body(viewport()), ==, b);
        int index;
        g_assert_cmpint(motus_model_tree_get_selected(tree, &index), ==, MOTUS_ENTITY_BODY);
        g_assert_cmpint(index, ==, b);
    }
    /* a click on empty space clears both */
    g_assert_cmpint(motus_viewport_pick_at(viewport(), 3, 3), ==, -1);
    g_assert_cmpint(motus_model_tree_get_selected(tree, NULL), ==, MOTUS_ENTITY_NONE);
    /* selecting a joint in the tree highlights the body of its marker i */
    motus_model_tree_select(tree, MOTUS_ENTITY_JOINT, 3); /* slide: slider.guide on ground.guide */
    g_assert_cmpint(motus_viewport_get_selected_body(viewport()), ==, 2);
    g_assert_nonnull(strstr(motus_window_get_status(win), "slide"));
    /* the view presets and fit keep the bodies in view */
    const char *views[] = {"view-front",   "view-right", "view-top",    "view-iso",
                           "orthographic", "fit-all",    "orthographic"};
    for (guint i = 0; i < G_N_ELEMENTS(views); i++) {
        activate(views[i], NULL);
        wait_drawn();
    }
    double x, y;
    g_assert_true(motus_viewport_project_body(viewport(), 1, &x, &y));
}

/* Starting a run redraws only what changes: resetting the run's colour maxima to what they already are
 * does not draw the 3D view again (every run start resets them), changing them does. */
static void test_run_start_redraw(void)
{
    wait_drawn();
    frames_mark = motus_viewport_get_frames_drawn(viewport());
    motus_viewport_set_run_max(viewport(), 0, 0);
    gint64 t0 = g_get_monotonic_time();
    while (g_get_monotonic_time() - t0 < 200000) g_main_context_iteration(NULL, FALSE);
    g_assert_cmpuint(motus_viewport_get_frames_drawn(viewport()), ==, frames_mark);
    motus_viewport_set_run_max(viewport(), 1e-3, 1e6);
    g_assert_true(wait_for(drawn, 5));
    motus_viewport_set_run_max(viewport(), 0, 0);
    wait_drawn();
}

static void test_run_and_playback(void)
{
    finished_calls = 0;
    activate("run", NULL);
    g_assert_true(wait_for(finished, 30));
    g_assert_true(finished_ok);
    g_assert_cmpuint(motus_window_get_n_frames(win), ==, 2001);
    MotusPlot *plot = MOTUS_PLOT(motus_window_get_plot(win));
    g_assert_cmpint(motus_plot_n_curves(plot), ==, 1);
    g_assert_cmpstr(motus_plot_curve_name(plot, 0), ==, "slide.disp");
    g_assert_cmpuint(motus_plot_n_points(plot, 0), ==, 2001);
    g_assert_cmpfloat_with_epsilon(motus_window_get_time(win), 2.0, 1e-9); /* followed the run to its end */
    /* more curves; an unknown column is refused with its name */
    const char *cols[] = {"slide.disp", "motor.effort", "crank.wz", NULL};
    g_assert_true(motus_window_set_plot_columns(win, cols, NULL));
    g_assert_cmpint(motus_plot_n_curves(plot), ==, 3);
    g_assert_cmpuint(motus_plot_n_points(plot, 2), ==, 2001);
    const char *bad[] = {"slide.nothing", NULL};
    g_autoptr(GError) error = NULL;
    g_assert_false(motus_window_set_plot_columns(win, bad, &error));
    g_assert_nonnull(strstr(error->message, "slide.nothing"));
    /* playback from the start advances with the frame clock */
    motus_window_set_time(win, 0);
    g_assert_true(action_enabled("play-pause"));
    activate("play-pause", NULL);
    g_assert_true(motus_window_is_playing(win));
    gint64 t0 = g_get_monotonic_time();
    while (g_get_monotonic_time() - t0 < 300000) g_main_context_iteration(NULL, FALSE);
    activate("play-pause", NULL);
    g_assert_false(motus_window_is_playing(win));
    g_assert_cmpfloat(motus_window_get_time(win), >, 0.0);
    g_assert_cmpfloat(motus_window_get_time(win), <, 2.0);
    /* frame steps */
    motus_window_set_time(win, 1.0);
    activate("step", g_variant_new_int32(1));
    g_assert_cmpfloat_with_epsilon(motus_window_get_time(win), 1.001, 1e-9);
    activate("step", g_variant_new_int32(-1));
    activate("step", g_variant_new_int32(-1));
    g_assert_cmpfloat_with_epsilon(motus_window_get_time(win), 0.999, 1e-9);
    /* the bodies moved: at t = 0.25 s the crank pin is up, so the crank is elsewhere than at t = 0 */
    double x0, y0, x1, y1;
    motus_window_set_time(win, 0);
    g_assert_true(motus_viewport_project_body(viewport(), 0, &x0, &y0));
    motus_window_set_time(win, 0.25);
    g_assert_true(motus_viewport_project_body(viewport(), 0, &x1, &y1));
    g_assert_cmpfloat(hypot(x1 - x0, y1 - y0), >, 5);
    /* the read-out under the pointer: a pale yellow box with the values */
    int pw = 700, ph = 260;
    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, pw, ph);
    cairo_t *cr = cairo_create(surf);
    motus_plot_set_pointer(plot, TRUE, pw / 2.0, ph / 2.0);
    motus_plot_render(plot, cr, pw, ph);
    motus_plot_set_pointer(plot, FALSE, 0, 0);
    cairo_destroy(cr);
    cairo_surface_flush(surf);
    int yellow = 0;
    const guchar *data = cairo_image_surface_get_data(surf);
    for (int yy = 0; yy < ph; yy++)
        for (int xx = 0; xx < pw; xx++) {
            const guchar *q = data + yy * cairo_image_surface_get_stride(surf) + 4 * xx; /* B G R x */
            yellow += q[2] > 240 && q[1] > 240 && q[0] > 220 && q[0] < 245;
        }
    cairo_surface_destroy(surf);
    g_assert_cmpint(yellow, >, 1000);
    /* exports */
    g_autofree char *png = g_build_filename(g_get_tmp_dir(), "motus-test-plot.png", NULL);
    g_autofree char *csv = g_build_filename(g_get_tmp_dir(), "motus-test-plot.csv", NULL);
    g_assert_true(motus_plot_export_png(plot, png, 800, 400, NULL));
    g_assert_true(motus_plot_export_csv(plot, csv, NULL));
    g_autoptr(GdkTexture) tex = gdk_texture_new_from_filename(png, NULL);
    g_assert_nonnull(tex);
    g_assert_cmpint(gdk_texture_get_width(tex), ==, 800);
    g_autofree char *text = NULL;
    g_assert_true(g_file_get_contents(csv, &text, NULL, NULL));
    g_assert_true(g_str_has_prefix(text, "time,slide.disp,motor.effort,crank.wz\n0,0.4,"));
    g_auto(GStrv) rows = g_strsplit(text, "\n", -1);
    g_assert_cmpuint(g_strv_length(rows), ==, 2001 + 2); /* header, rows, empty tail */
    g_unlink(png);
    g_unlink(csv);
    g_assert_false(motus_plot_export_png(plot, "/nonexistent/dir/p.png", 10, 10, NULL));
}

/* Plot view (box zoom, wheel zoom about a point, reset) and a result column
 * dragged from the model tree onto the plot (the drop's signal). Runs after
 * test_run_and_playback (the slider-crank's run is in the plot). */
static void test_plot_zoom_and_drop(void)
{
    MotusPlot *plot = MOTUS_PLOT(motus_window_get_plot(win));
    int pw = 700, ph = 260;
    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, pw, ph);
    cairo_t *cr = cairo_create(surf);
    motus_plot_render(plot, cr, pw, ph); /* the automatic view: the plot rectangle and ranges */
    /* the axis unit: the curves' common one, readable (the slider's travel, 0.2 … 0.4 m, in mm), or the user's */
    g_assert_null(motus_plot_y_unit(plot)); /* m, N·m and rad/s: no common unit */
    const char *one[] = {"slide.disp", NULL};
    g_assert_true(motus_window_set_plot_columns(win, one, NULL));
    motus_plot_render(plot, cr, pw, ph);
    g_assert_cmpstr(motus_plot_y_unit(plot), ==, "mm");
    motus_plot_set_unit(plot, MT_DIM_LENGTH, "m");
    motus_plot_render(plot, cr, pw, ph);
    g_assert_cmpstr(motus_plot_y_unit(plot), ==, "m");
    motus_plot_set_unit(plot, MT_DIM_LENGTH, NULL);
    const char *three[] = {"slide.disp", "motor.effort", "crank.wz", NULL};
    g_assert_true(motus_window_set_plot_columns(win, three, NULL));
    motus_plot_render(plot, cr, pw, ph);
    double x0, x1, y0, y1;
    g_assert_false(motus_plot_get_view(plot, &x0, &x1, &y0, &y1));
    motus_plot_zoom_box(plot, 300, 60, 302, 62); /* a click is not a box */
    g_assert_false(motus_plot_get_view(plot, &x0, &x1, &y0, &y1));
    motus_plot_zoom_box(plot, 250, 40, 450, 160);
    g_assert_true(motus_plot_get_view(plot, &x0, &x1, &y0, &y1));
    g_assert_cmpfloat(x0, >, 0);
    g_assert_cmpfloat(x1, <, 2.0);
    g_assert_cmpfloat(x1 - x0, <, 0.7);
    g_assert_cmpfloat(y0, <, y1);
    motus_plot_render(plot, cr, pw, ph); /* drawn with the zoomed ranges */
    g_autofree char *zpng = g_build_filename(g_get_tmp_dir(), "motus-test-plot-zoomed.png", NULL);
    g_assert_true(motus_plot_export_png(plot, zpng, 700, 300, NULL)); /* left there to look at */
    double a0 = x0, a1 = x1, b0 = y0, b1 = y1;
    motus_plot_zoom_at(plot, pw / 2.0, ph / 2.0, 2); /* the wheel: twice the span about the point */
    g_assert_true(motus_plot_get_view(plot, &x0, &x1, &y0, &y1));
    g_assert_cmpfloat_with_epsilon((x1 - x0) / (a1 - a0), 2, 1e-9);
    g_assert_cmpfloat_with_epsilon((y1 - y0) / (b1 - b0), 2, 1e-9);
    motus_plot_reset_view(plot);
    g_assert_false(motus_plot_get_view(plot, &x0, &x1, &y0, &y1));
    cairo_destroy(cr);
    cairo_surface_destroy(surf);
    /* a joint dragged from the tree gives its coordinate; dropped on the plot, a curve of it */
    MotusModelTree *tree = MOTUS_MODEL_TREE(motus_window_get_model_tree(win));
    motus_model_tree_select(tree, MOTUS_ENTITY_JOINT, 0); /* 'main', the crank's revolute */
    const char *col = motus_model_tree_selected_column(tree);
    g_assert_cmpstr(col, ==, "main.angle");
    int n = motus_plot_n_curves(plot);
    guint np = motus_window_n_plots(win);
    g_signal_emit_by_name(plot, "column-dropped", col);
    /* an angle onto a plot whose axis is in metres (slide.disp first): a plot of its own, and said so */
    g_assert_cmpint(motus_plot_n_curves(plot), ==, n);
    g_assert_cmpuint(motus_window_n_plots(win), ==, np + 1);
    MotusPlot *own = MOTUS_PLOT(motus_window_get_plot_n(win, np));
    g_assert_cmpstr(motus_plot_curve_name(own, 0), ==, "main.angle");
    g_assert_cmpuint(motus_plot_n_points(own, 0), ==, 2001);
    g_assert_nonnull(strstr(motus_window_get_status(win), "one unit per axis"));
    /* a length dropped on the first plot stays there; so does a second angle on the angle's plot */
    g_signal_emit_by_name(plot, "column-dropped", "slider.x");
    g_assert_cmpint(motus_plot_n_curves(plot), ==, n + 1);
    g_assert_cmpstr(motus_plot_curve_name(plot, n), ==, "slider.x");
    g_signal_emit_by_name(own, "column-dropped", "big_end.angle");
    g_assert_cmpint(motus_plot_n_curves(own), ==, 2);
    g_assert_cmpuint(motus_window_n_plots(win), ==, np + 1);
    g_signal_emit_by_name(plot, "column-dropped", "nothing.here"); /* refused, nothing added */
    g_assert_cmpint(motus_plot_n_curves(plot), ==, n + 1);
    while (motus_window_n_plots(win) > np) { /* the layout as it was for the next tests */
        motus_window_set_active_plot(win, motus_window_n_plots(win) - 1);
        motus_window_remove_plot(win);
    }
}

static void test_pause_stop_reopen(void)
{
    g_autofree char *path = long_model();
    open_model(path);
    /* pause holds the worker; resume lets it go on */
    finished_calls = 0;
    activate("run", NULL);
    g_assert_true(motus_window_is_running(win));
    g_assert_true(action_enabled("stop"));
    g_assert_false(action_enabled("run"));
    /* the playback controls change state with Run, Pause and Stop, not when the first frames arrive */
    g_assert_true(action_enabled("play-pause"));
    g_assert_true(action_enabled("step"));
    g_assert_true(wait_for(some_frames, 20));
    g_assert_true(wait_for(csv_enabled, 10)); /* enabled once the window has had the run's first frames */
    activate("pause", NULL);
    gint64 t0 = g_get_monotonic_time();
    while (g_get_monotonic_time() - t0 < 100000) g_main_context_iteration(NULL, FALSE);
    guint n1 = motus_window_get_n_frames(win);
    t0 = g_get_monotonic_time();
    while (g_get_monotonic_time() - t0 < 200000) g_main_context_iteration(NULL, FALSE);
    g_assert_cmpuint(motus_window_get_n_frames(win), <=, n1 + 1);
    activate("pause", NULL);
    /* stop: the worker ends between steps, the frames so far are kept */
    activate("stop", NULL);
    g_assert_true(wait_for(not_running, 10));
    g_assert_true(wait_for(finished, 10));
    g_assert_false(finished_ok); /* stopped, not finished */
    g_assert_cmpuint(motus_window_get_n_frames(win), >=, n1);
    g_assert_nonnull(strstr(motus_window_get_status(win), "stopped"));
    /* reopen while running: the run is stopped first, the new model replaces it */
    activate("run", NULL);
    g_assert_true(wait_for(some_frames, 20));
    g_autofree char *pend = g_build_filename(project_dir, "pendulum.motus.txt", NULL);
    open_model(pend);
    g_assert_false(motus_window_is_running(win));
    g_assert_cmpuint(motus_window_get_n_frames(win), ==, 0);
    g_assert_cmpstr(gtk_window_get_title(GTK_WINDOW(win)), ==, "Simple pendulum");
    wait_drawn();
    finished_calls = 0;
    activate("run", NULL);
    g_assert_true(wait_for(finished, 30));
    g_assert_true(finished_ok);
    g_assert_cmpuint(motus_window_get_n_frames(win), ==, 201);
    g_unlink(path);
}

/* A run whose frames could not fit in memory (10^12 of them) is refused before it starts, with what
 * to change; the model stays open and nothing runs. */
static void test_run_too_big(void)
{
    g_autofree char *src = g_build_filename(project_dir, "pendulum.motus.txt", NULL);
    g_autofree char *text = NULL;
    g_assert_true(g_file_get_contents(src, &text, NULL, NULL));
    g_autofree char *path = g_build_filename(g_get_tmp_dir(), "motus-test-huge.motus.txt", NULL);
    g_autofree char *huge = g_strconcat(text, "\nsolver step 1e-6 until 1e6\n", NULL);
    g_assert_true(g_file_set_contents(path, huge, -1, NULL));
    open_model(path);
    g_autoptr(GError) error = NULL;
    g_assert_false(motus_window_run(win, &error));
    g_assert_nonnull(error);
    g_test_message("%s", error->message);
    g_assert_nonnull(strstr(error->message, "in memory"));
    g_assert_nonnull(strstr(error->message, "output step"));
    g_assert_false(motus_window_is_running(win));
    g_assert_cmpuint(motus_window_get_n_frames(win), ==, 0);
    g_assert_cmpstr(gtk_window_get_title(GTK_WINDOW(win)), ==, "Simple pendulum");
    /* the same model with a sensible end time runs */
    g_autofree char *fine = g_strconcat(text, "\nsolver step 1e-3 until 0.5\n", NULL);
    g_assert_true(g_file_set_contents(path, fine, -1, NULL));
    open_model(path);
    finished_calls = 0;
    g_assert_true(motus_window_run(win, &error));
    g_assert_true(wait_for(finished, 30));
    g_assert_true(finished_ok);
    g_unlink(path);
}

/* The held image covers the whole window (device pixels). */
static gboolean held_window_size(void)
{
    int w, h;
    GdkSurface *s = gtk_native_get_surface(GTK_NATIVE(win));
    int k = gdk_surface_get_scale_factor(s);
    return motus_paint_warm_held(GTK_WINDOW(win), &w, &h) && w == gdk_surface_get_width(s) * k &&
           h == gdk_surface_get_height(s) * k;
}

static int warm_w0;
static gboolean surface_grown(void) { return gdk_surface_get_width(gtk_native_get_surface(GTK_NATIVE(win))) > warm_w0; }

static void test_paint_warm(void)
{
    /* Xvfb paints with GTK's cairo renderer on X11, where the memory is held */
    GskRenderer *r = gtk_native_get_renderer(GTK_NATIVE(win));
    if (strcmp(G_OBJECT_TYPE_NAME(r), "GskCairoRenderer")) {
        g_test_skip("not GTK's cairo renderer");
        return;
    }
    g_assert_true(wait_for(held_window_size, 5));
    int w0, h0;
    g_assert_true(motus_paint_warm_held(GTK_WINDOW(win), &w0, &h0));
    warm_w0 = gdk_surface_get_width(gtk_native_get_surface(GTK_NATIVE(win)));
    /* the window grows: the held image follows once the resize has settled */
    gtk_widget_set_size_request(GTK_WIDGET(win), w0 + 120, h0 + 80);
    g_assert_true(wait_for(surface_grown, 5));
    g_assert_true(wait_for(held_window_size, 5));
    int w1, h1;
    g_assert_true(motus_paint_warm_held(GTK_WINDOW(win), &w1, &h1));
    g_assert_cmpint(w1 * h1, >, w0 * h0);
    gtk_widget_set_size_request(GTK_WIDGET(win), -1, -1);
}

/* A label drawn in the view is kept whole: a long Cyrillic one was cut at 48 bytes, in the middle of a
 * character. */
static void test_overlay_label_whole(void)
{
    g_autoptr(GString) label = g_string_new("шарнир_кривошипа");
    for (int i = 0; i < 20; i++) g_string_append(label, "_звено");
    g_string_append(label, ": F = 18.65 kN");
    const double p[3] = {0, 0, 0};
    const float rgb[3] = {1, 0, 0};
    motus_viewport_clear_overlay(viewport());
    motus_viewport_add_overlay_point(viewport(), p, rgb, label->str);
    g_assert_cmpuint(motus_viewport_overlay_size(viewport()), ==, 1);
    g_assert_cmpstr(motus_viewport_overlay_label(viewport(), 0), ==, label->str);
    g_assert_true(g_utf8_validate(motus_viewport_overlay_label(viewport(), 0), -1, NULL));
    motus_viewport_clear_overlay(viewport());
}

int main(int argc, char **argv)
{
    ui_test_init(&argc, &argv);
    project_dir = g_strdup(argc > 1 && argv[argc - 1][0] != '-' ? argv[argc - 1] : MOTUS_PROJECTS_DIR);
    g_signal_connect(win, "run-finished", G_CALLBACK(on_finished), NULL);
    gtk_window_present(GTK_WINDOW(win));
    g_test_add_func("/window/overlay-label-whole", test_overlay_label_whole);
    g_test_add_func("/window/paint-warm", test_paint_warm);
    g_test_add_func("/window/open-and-pick", test_open_and_pick);
    g_test_add_func("/window/run-start-redraw", test_run_start_redraw);
    g_test_add_func("/window/run-and-playback", test_run_and_playback);
    g_test_add_func("/window/plot-zoom-and-drop", test_plot_zoom_and_drop);
    g_test_add_func("/window/pause-stop-reopen", test_pause_stop_reopen);
    g_test_add_func("/window/run-too-big", test_run_too_big);
    int rc = g_test_run();
    gtk_window_destroy(GTK_WINDOW(win));
    g_free(project_dir);
    return rc;
}
