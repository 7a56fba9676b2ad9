/* A parameter's slider in the real window, driven by the mouse under Xvfb
 * (ctest gui_sliders), on the four-bar example (crank driven at n_crank =
 * 60 rpm): n_crank is given a slider from 30 to 120 rpm in its inspector
 * (the "Slider in the view" drop-down clicked on, the end typed), the model runs,
 * the slider is dragged past its right end and released. Then n_crank is
 * 120 rpm (one undoable edit), a second run was made, the crank turned
 * through 2π in 0.5 s where it had turned through π (the closed form: the
 * crank is driven at n_crank, Δθ = 2π n t, to 1e-6 rad), the time shown is
 * the one shown before the drag, and the plot of the crank angle holds the
 * first run's curve as a dashed reference named
 * "crank_pin.angle (n_crank = 60 rpm)" with the first run's values. 90
 * typed in the slider's entry makes a third run, after which only the
 * 120 rpm run is kept; 45 typed while a 60 s run goes stops that run and
 * runs 45 rpm (two runs ended, one whole, the crank turned 0.75π). */
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "motus-inspector.h"
#include "motus-plot.h"
#include "ui-test.h"
#include "xinput.h"

static int finished, ended; /* runs finished whole; runs ended in any way (stopped too) */
static void count_runs(MotusWindow *w, gboolean ok, const char *message, gpointer data)
{
    (void)w, (void)message, (void)data;
    if (ok) finished++;
    ended++;
}
static gboolean run_done(void) { return !motus_window_is_running(win) && motus_window_get_n_frames(win) > 0; }
static gboolean two_runs_ended(void) { return ended >= 2 && !motus_window_is_running(win); }
static gboolean two_runs(void) { return finished >= 2 && !motus_window_is_running(win); }

static MotusInspector *inspector(void) { return MOTUS_INSPECTOR(motus_window_get_inspector(win)); }
static int want_p;
static gboolean on_shown(void) { return xin_find(GTK_WIDGET(win), xin_has_label, "on") != NULL; }
static gboolean slider_on(void) { return model()->param[want_p].slider; }
static gboolean slider_to_120(void) { return fabs(model()->param[want_p].slider_hi - 4 * M_PI) < 1e-12; }
static gboolean named(GtkWidget *w, gconstpointer name) { return !g_strcmp0(gtk_widget_get_name(w), name); }

/* The crank's angle turned from t = 0 to t = 0.5 s in the run shown (the frame at 0.5 s). */
static double turned_at_half(void)
{
    double *t = NULL, *v = NULL;
    guint n = motus_window_get_column(win, "crank_pin.angle", &t, &v), k = 0;
    g_assert_cmpuint(n, >, 0);
    while (k + 1 < n && fabs(t[k] - 0.5) > 1e-9) k++;
    g_assert_cmpfloat(fabs(t[k] - 0.5), <, 1e-9);
    double d = v[k] - v[0];
    g_free(t);
    g_free(v);
    return d;
}

/* The window as drawn, into path. */
static void screenshot(const char *path)
{
    wait_drawn();
    g_autoptr(GError) shot_error = NULL;
    for (int i = 0; i < 20 && !motus_window_save_screenshot(win, path, &shot_error); i++) {
        g_clear_error(&shot_error); /* (no picture until the next frame: see motus_window_save_screenshot) */
        gtk_widget_queue_draw(GTK_WIDGET(win));
        settle_for(0.1);
    }
}

static void test_slider(void)
{
    g_autofree char *path = g_build_filename(MOTUS_PROJECTS_DIR, "four-bar.motus.txt", NULL);
    open_model(path);
    g_autoptr(GError) error = NULL;
    int p = mt_model_find_param(model(), "n_crank");
    g_assert_cmpint(p, >=, 0);
    g_assert_cmpuint(motus_window_n_sliders(win), ==, 0);
    /* the parameter's inspector, by clicks and keys: "Slider in the view" on, its end typed as 120 (rpm) */
    motus_window_select_entity(win, MT_EDIT_PARAM, p);
    xin_focus(GTK_WIDGET(win));
    settle_for(0.3);
    g_assert_cmpstr(motus_inspector_get_text(inspector(), "slider"), ==, "off");
    motus_inspector_focus(inspector(), "slider");
    GtkWidget *dd = gtk_root_get_focus(GTK_ROOT(win));
    if (dd && !GTK_IS_DROP_DOWN(dd)) dd = gtk_widget_get_ancestor(dd, GTK_TYPE_DROP_DOWN);
    g_assert_nonnull(dd);
    xin_click(dd);
    g_assert_true(wait_for(on_shown, 5));
    settle_for(0.2);
    xin_click(xin_find(GTK_WIDGET(win), xin_has_label, "on"));
    want_p = p;
    g_assert_true(wait_for(slider_on, 5));
    settle_for(0.3);
    motus_inspector_focus(inspector(), "slider.max");
    settle_for(0.1);
    xin_press("<Control>a");
    xin_type("120");
    xin_press("Return");
    g_assert_true(wait_for(slider_to_120, 5));
    settle_for(0.2);
    screenshot(MOTUS_OUT_DIR "/sliders-inspector.png");
    g_assert_cmpuint(motus_window_n_sliders(win), ==, 1);
    g_assert_cmpfloat(fabs(model()->param[p].slider_lo - M_PI), <, 1e-12); /* 30 rpm: ±50 % of 60 */
    /* a plot of the crank's angle against time */
    motus_window_add_plot(win);
    const char *cols[] = {"crank_pin.angle", NULL};
    g_assert_true(motus_window_set_plot_columns(win, cols, &error));
    guint plot = motus_window_n_plots(win) - 1;

    g_signal_connect(win, "run-finished", G_CALLBACK(count_runs), NULL);
    g_assert_true(motus_window_run(win, &error));
    g_assert_true(wait_for(run_done, 30));
    double first = turned_at_half();
    g_test_message("first run: the crank turned %.9f rad in 0.5 s (π = %.9f)", first, M_PI);
    g_assert_cmpfloat(fabs(first - M_PI), <, 1e-6);
    motus_window_set_time(win, 0.3);

    /* the slider is over the view, top left; dragged from its knob (60 rpm: a third of the way) past the right end */
    GtkWidget *scale = xin_find(GTK_WIDGET(win), named, "slider:n_crank");
    g_assert_nonnull(scale);
    g_assert_true(gtk_widget_get_mapped(scale));
    xin_focus(GTK_WIDGET(win));
    settle_for(0.2);
    double w = gtk_widget_get_width(scale), h = gtk_widget_get_height(scale);
    GtkAdjustment *adj = gtk_range_get_adjustment(GTK_RANGE(scale));
    g_assert_cmpfloat(gtk_adjustment_get_value(adj), ==, 60);
    xin_drag(scale, w / 3, h / 2, w + 40, h / 2, 12);
    g_assert_true(wait_for(two_runs, 30));
    settle_for(0.2);

    const MtParamSpec *ps = &model()->param[p];
    g_test_message("n_crank = %s %s (%.15g rad/s); %d runs", ps->expr, ps->unit, ps->value, finished);
    g_assert_cmpstr(ps->expr, ==, "120");
    g_assert_cmpfloat(fabs(ps->value - 4 * M_PI), <, 1e-12);
    g_assert_cmpint(finished, ==, 2);
    g_test_message("status: %s", motus_window_get_status(win));
    g_assert_nonnull(strstr(motus_window_get_status(win), "the run before, n_crank = 60 rpm"));
    /* one edit for the whole drag: one undo gives 60 rpm back (and the slider follows), redo 120 */
    g_assert_true(motus_window_undo(win));
    g_assert_cmpstr(model()->param[p].expr, ==, "60");
    g_assert_cmpfloat(gtk_adjustment_get_value(adj), ==, 60);
    g_assert_true(motus_window_redo(win));
    ps = &model()->param[p];
    g_assert_cmpstr(ps->expr, ==, "120");
    double second = turned_at_half();
    g_test_message("second run: the crank turned %.9f rad in 0.5 s (2π = %.9f)", second, 2 * M_PI);
    g_assert_cmpfloat(fabs(second - 2 * M_PI), <, 1e-6);
    g_assert_cmpfloat(fabs(second - 2 * first), <, 1e-6);
    g_test_message("time shown after the run: %.6f s (0.3 before the drag)", motus_window_get_time(win));
    g_assert_cmpfloat(fabs(motus_window_get_time(win) - 0.3), <, 1e-9);

    /* the first run's crank angle is on the plot, as a reference with the old value */
    MotusPlot *pw = MOTUS_PLOT(motus_window_get_plot_n(win, plot));
    int ref = -1;
    for (int c = 0; c < motus_plot_n_curves(pw); c++) {
        g_test_message("curve %d: %s", c, motus_plot_curve_name(pw, c));
        if (!strcmp(motus_plot_curve_name(pw, c), "crank_pin.angle (n_crank = 60 rpm)")) ref = c;
    }
    g_assert_cmpint(ref, >=, 0);
    double x0, y0, x, y;
    guint k = 0;
    g_assert_true(motus_plot_get_point(pw, ref, 0, &x0, &y0));
    while (motus_plot_get_point(pw, ref, k, &x, &y) && fabs(x - 0.5) > 1e-9) k++;
    g_test_message("the reference at t = %.3f s: turned %.9f rad", x, y - y0);
    g_assert_cmpfloat(fabs(x - 0.5), <, 1e-9);
    g_assert_cmpfloat(fabs(y - y0 - first), <, 1e-12);
    /* the model's own plots hold theirs too (rocker against crank) */
    MotusPlot *p0 = MOTUS_PLOT(motus_window_get_plot_n(win, 0));
    gboolean rocker = FALSE;
    for (int c = 0; c < motus_plot_n_curves(p0); c++)
        rocker |= !strcmp(motus_plot_curve_name(p0, c), "rocker_pin.angle (n_crank = 60 rpm)");
    g_assert_true(rocker);
    screenshot(MOTUS_OUT_DIR "/sliders.png");

    /* the value typed in the slider's entry: 90 rpm, a third run; the overlay is now the 120 rpm run only */
    GtkWidget *entry = xin_find(GTK_WIDGET(win), named, "slider-value:n_crank");
    g_assert_nonnull(entry);
    g_assert_cmpstr(gtk_editable_get_text(GTK_EDITABLE(entry)), ==, "120");
    xin_click_at(entry, gtk_widget_get_width(entry) / 2.0, gtk_widget_get_height(entry) / 2.0, FALSE);
    settle_for(0.1);
    xin_press("<Control>a");
    xin_type("90");
    xin_press("Return");
    finished = 1;
    g_assert_true(wait_for(two_runs, 30));
    settle_for(0.2);
    g_assert_cmpstr(model()->param[p].expr, ==, "90");
    g_assert_cmpfloat(gtk_adjustment_get_value(adj), ==, 90);
    int n60 = 0, n120 = 0;
    for (int c = 0; c < motus_plot_n_curves(pw); c++) {
        n60 += strstr(motus_plot_curve_name(pw, c), "60 rpm") != NULL;
        n120 += strstr(motus_plot_curve_name(pw, c), "120 rpm") != NULL;
    }
    g_assert_cmpint(n60, ==, 0);
    g_assert_cmpint(n120, ==, 1);
    g_assert_cmpfloat(fabs(turned_at_half() - 1.5 * M_PI), <, 1e-6);

    screenshot(MOTUS_OUT_DIR "/sliders-typed.png");

    /* a value typed while a run goes: that run stops and the newest value runs (one run at a time) */
    g_assert_true(motus_window_set_field(win, MT_EDIT_SOLVER, 0, "until", "60", &error));
    finished = ended = 0;
    g_assert_true(motus_window_run(win, &error));
    xin_click_at(entry, gtk_widget_get_width(entry) / 2.0, gtk_widget_get_height(entry) / 2.0, FALSE);
    settle_for(0.1);
    xin_press("<Control>a");
    xin_type("45");
    g_assert_true(motus_window_is_running(win)); /* (60 s of the four-bar at 1 ms: seconds of work) */
    xin_press("Return");
    g_assert_true(wait_for(two_runs_ended, 120));
    g_test_message("typed while running: %d runs ended, %d whole; n_crank = %s rpm", ended, finished, model()->param[p].expr);
    g_assert_cmpint(ended, ==, 2);
    g_assert_cmpint(finished, ==, 1);
    g_assert_cmpstr(model()->param[p].expr, ==, "45");
    g_assert_cmpfloat(fabs(turned_at_half() - 0.75 * M_PI), <, 1e-6);
}

int main(int argc, char **argv)
{
    ui_test_init(&argc, &argv);
    gtk_window_set_default_size(GTK_WINDOW(win), 1200, 760);
    gtk_window_present(GTK_WINDOW(win));
    g_test_add_func("/sliders/drag-and-compare", test_slider);
    int rc = g_test_run();
    gtk_window_destroy(GTK_WINDOW(win));
    return rc;
}
