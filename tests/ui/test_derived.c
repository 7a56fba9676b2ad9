/* Derived curves, statistics over a chosen window and saved plot layouts,
 * driven for real under Xvfb (ctest gui_derived): the plots' f(x) popover is
 * opened, its operation, curves, factor and name chosen and its "Add to
 * plot" clicked through XTest (xinput.h), then the curves are checked
 * against closed forms:
 *   pendulum (projects/pendulum.motus.txt: a 1 kg point-like bob on 1 m,
 *   released from θ0 = 60°): the pin's reaction |F| of Fx, Fy, Fz is the
 *   rod's tension m g (3 cos θ − 2 cos θ0); the derivative of pin.angle is
 *   bob.wz; the integral of bob.wz is pin.angle − θ0;
 *   shaker (a slider driven at 20 Hz, 10 mm, frames every 1 ms): the
 *   zero-phase Butterworth low-pass at 20 Hz halves the amplitude, at 10 Hz
 *   it passes 1 / (1 + (tan(π 20 dt) / tan(π 10 dt))⁴) of it; the RMS
 *   button's peak between the pinned cursor and the time cursor is 5 mm.
 * The plots and derived curves made in the window are saved with a project
 * and a text model and come back the same when they are opened again.
 * The inspector beside them shows a body's fields in sections and a CoM of
 * −4.0312345678e-08 m as −40.3123 nm; clicked, the entry holds the exact
 * value; a number typed there is in the unit shown.
 * Screenshots: build/tests/ui/derived-*.png, inspector-sections.png. */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "motus-inspector.h"
#include "motus-plot.h"
#include "motus/derived.h"
#include "ui-app.h"

static char *tmpdir;

/* The plot and curve index showing a curve called name; FALSE when none does. */
static gboolean find_curve(const char *name, MotusPlot **plot, int *curve)
{
    for (guint p = 0; p < motus_window_n_plots(win); p++) {
        MotusPlot *pl = MOTUS_PLOT(motus_window_get_plot_n(win, p));
        for (int c = 0; c < motus_plot_n_curves(pl); c++)
            if (!strcmp(motus_plot_curve_name(pl, c), name)) {
                if (plot) *plot = pl;
                if (curve) *curve = c;
                return TRUE;
            }
    }
    return FALSE;
}
static const char *want_curve;
static gboolean curve_shown(void)
{
    MotusPlot *p;
    int c;
    return find_curve(want_curve, &p, &c) && motus_plot_n_points(p, c) > 0;
}

/* ---- the f(x) popover, by real clicks and keys ------------------------------------------------ */

static GtkWidget *fx_button(void) { return xin_find(GTK_WIDGET(win), xin_has_tooltip_prefix, "Derived curve:"); }
static GtkWidget *fx_popover(void) { return GTK_WIDGET(gtk_menu_button_get_popover(GTK_MENU_BUTTON(fx_button()))); }
static gboolean fx_open(void) { return gtk_widget_get_mapped(fx_popover()); }
static gboolean fx_closed(void) { return !fx_open(); }
static GtkWidget *in_fx(const char *tip)
{
    GtkWidget *w = xin_find(fx_popover(), xin_has_tooltip_prefix, tip);
    g_assert_nonnull(w);
    return w;
}

static gboolean is_search_entry(GtkWidget *w, gconstpointer d)
{
    (void)d;
    return GTK_IS_SEARCH_ENTRY(w) && gtk_widget_get_mapped(w);
}
static GtkWidget *search_of;
static gboolean search_open(void) { return xin_find(search_of, is_search_entry, NULL) != NULL; }
static const char *want_pick;
static gboolean picked(void)
{
    GObject *o = gtk_drop_down_get_selected_item(GTK_DROP_DOWN(search_of));
    return o && !strcmp(gtk_string_object_get_string(GTK_STRING_OBJECT(o)), want_pick);
}

/* A curve chosen in one of the popover's drop-downs: opened by a click, the name typed into its search, Enter. */
static void pick(const char *tip, const char *column)
{
    search_of = in_fx(tip);
    xin_click(search_of);
    g_assert_true(wait_for(search_open, 5));
    settle();
    xin_type(column);
    settle();
    xin_press("Return");
    want_pick = column;
    g_assert_true(wait_for(picked, 5));
    settle();
}

/* Types text into one of the popover's entries (what was there replaced). */
static void fill(const char *tip, const char *text)
{
    xin_click(in_fx(tip));
    settle();
    xin_press("<Control>a");
    xin_type(text);
    settle();
}

/* Defines a derived curve in the popover: the operation's button, up to three curves, a factor or cut-off, a
 * name; "Add to plot" clicked; waits for the curve in a plot. */
static void define(const char *op_tip, const char *a, const char *b, const char *c, const char *param, const char *name,
                   const char *shot_name)
{
    focus_main();
    xin_click(fx_button());
    g_assert_true(wait_for(fx_open, 5));
    settle();
    xin_click(in_fx(op_tip));
    settle();
    pick("Curve a", a);
    if (b) pick("Curve b", b);
    if (c) pick("Curve c", c);
    if (param) fill("The factor k", param);
    fill("Name of the derived curve", name);
    if (shot_name) shot(fx_popover(), shot_name);
    xin_click(xin_find(fx_popover(), xin_has_label, "Add to plot"));
    want_curve = name;
    g_assert_true(wait_for(curve_shown, 10));
    g_assert_true(wait_for(fx_closed, 5));
    g_test_message("%s: %s", name, motus_window_get_status(win));
}

/* Largest |a(t) − f(b(t))| over the points of two curves of the same frames. */
static double max_diff(const char *a, const char *b, double (*f)(double), double *at)
{
    MotusPlot *pa, *pb;
    int ca, cb;
    g_assert_true(find_curve(a, &pa, &ca) && find_curve(b, &pb, &cb));
    guint n = motus_plot_n_points(pa, ca);
    g_assert_cmpuint(n, ==, motus_plot_n_points(pb, cb));
    g_assert_cmpuint(n, >, 100);
    double worst = 0;
    for (guint i = 0; i < n; i++) {
        double ta, ya, tb, yb;
        g_assert_true(motus_plot_get_point(pa, ca, i, &ta, &ya) && motus_plot_get_point(pb, cb, i, &tb, &yb));
        g_assert_cmpfloat(ta, ==, tb);
        if (fabs(ya - f(yb)) > worst) worst = fabs(ya - f(yb)), *at = ta;
    }
    return worst;
}

static double tension(double theta) { return 1 * 9.81 * (3 * cos(theta) - 2 * cos(G_PI / 3)); }
static double same(double x) { return x; }
static double from_start(double theta) { return theta - G_PI / 3; }

/* Layout: plots, their curves in order, and the derived curves' values, to compare after reopening. */
static char *layout_now(void)
{
    GString *s = g_string_new(NULL);
    for (guint p = 0; p < motus_window_n_plots(win); p++) {
        MotusPlot *pl = MOTUS_PLOT(motus_window_get_plot_n(win, p));
        g_string_append_printf(s, "plot %u [%s]:", p, motus_plot_y_unit(pl) ? motus_plot_y_unit(pl) : "");
        for (int c = 0; c < motus_plot_n_curves(pl); c++) {
            double t, y;
            guint n = motus_plot_n_points(pl, c);
            gboolean ok = n && motus_plot_get_point(pl, c, n / 2, &t, &y);
            g_string_append_printf(s, " %s(%u: %.12g)", motus_plot_curve_name(pl, c), n, ok ? y : NAN);
        }
        g_string_append_c(s, '\n');
    }
    return g_string_free(s, FALSE);
}

/* The pendulum: |F|, a derivative and an integral against their closed forms; the layout saved and reopened. */
static void test_pendulum(void)
{
    g_autofree char *src = g_build_filename(MOTUS_PROJECTS_DIR, "pendulum.motus.txt", NULL);
    open_model(src);
    run_f5();
    g_assert_true(find_curve("pin.angle", NULL, NULL)); /* the likely curve the window shows first */
    define("Magnitude of a vector", "pin.Fx", "pin.Fy", "pin.Fz", NULL, "F_pin", "derived-popover.png");
    double at = 0, e = max_diff("F_pin", "pin.angle", tension, &at);
    g_test_message("|F| of the pin against m g (3 cos θ − 2 cos θ0): largest difference %.3g N at t = %g s", e, at);
    g_assert_cmpfloat(e, <, 1e-4); /* the bob's 1e-6 kg m² of inertia and the solver's rtol 1e-10 */
    MotusPlot *p;
    g_assert_true(find_curve("F_pin", &p, NULL));
    settle(); /* drawn: the axis says its unit */
    g_assert_cmpstr(motus_plot_y_unit(p), ==, "N"); /* a plot of its own: one unit per axis */
    define("Derivative over time", "pin.angle", NULL, NULL, NULL, "omega", NULL);
    g_assert_true(find_curve("omega", &p, NULL));
    settle();
    g_assert_cmpstr(motus_plot_y_unit(p), ==, "rad/s");
    /* bob.wz beside it, from the plot's curve list (its search, Enter) */
    focus_main();
    GtkWidget *dd = xin_find(GTK_WIDGET(win), xin_has_tooltip_prefix, "Add a result column");
    search_of = dd;
    xin_click(dd);
    g_assert_true(wait_for(search_open, 5));
    settle();
    xin_type("bob.wz");
    settle();
    xin_press("Return");
    want_curve = "bob.wz";
    g_assert_true(wait_for(curve_shown, 5));
    /* three-point differences of frames 10 ms apart: h² ω''' / 6 inside, twice that at the ends (ω''' < 40 rad/s⁴) */
    e = max_diff("omega", "bob.wz", same, &at);
    g_test_message("d(pin.angle)/dt against bob.wz: largest difference %.3g rad/s at t = %g s", e, at);
    g_assert_cmpfloat(e, <, 2 * 0.01 * 0.01 * 40 / 6);
    define("Integral over time", "bob.wz", NULL, NULL, NULL, "theta", NULL);
    /* trapezoids over 2 s of frames 10 ms apart: T h² max|ω''| / 12 (ω'' < 20 rad/s³) */
    e = max_diff("theta", "pin.angle", from_start, &at);
    g_test_message("∫ bob.wz dt against pin.angle − θ0: largest difference %.3g rad at t = %g s", e, at);
    g_assert_cmpfloat(e, <, 2 * 0.01 * 0.01 * 20 / 12);
    g_assert_true(find_curve("theta", &p, NULL));
    settle();
    g_assert_cmpstr(motus_plot_y_unit(p), ==, "rad");
    settle();
    shot(GTK_WIDGET(win), "derived-pendulum.png");

    /* the arrangement made in the window goes with a project, and comes back when it is opened again */
    g_autofree char *before = layout_now();
    g_test_message("layout before saving:\n%s", before);
    g_autofree char *proj = g_build_filename(tmpdir, "pendulum.motus", NULL);
    g_autoptr(GError) error = NULL;
    g_assert_true(motus_window_save_as(win, proj, &error));
    g_action_group_activate_action(G_ACTION_GROUP(win), "new", NULL);
    settle();
    g_assert_false(find_curve("F_pin", NULL, NULL));
    open_model(proj);
    settle();
    g_autofree char *after = layout_now();
    g_test_message("layout after reopening:\n%s", after);
    g_assert_cmpstr(after, ==, before);
    /* and with a text model, as `derived` and `plot` lines */
    g_autofree char *txt = g_build_filename(tmpdir, "pendulum.motus.txt", NULL);
    g_assert_true(motus_window_save_as(win, txt, &error));
    g_autofree char *text = NULL;
    g_assert_true(g_file_get_contents(txt, &text, NULL, NULL));
    g_assert_nonnull(strstr(text, "\nderived F_pin magnitude pin.Fx pin.Fy pin.Fz\nderived omega derivative pin.angle\n"
                                  "derived theta integral bob.wz\n"));
    g_action_group_activate_action(G_ACTION_GROUP(win), "new", NULL);
    open_model(txt);
    run_f5();
    g_autofree char *again = layout_now();
    g_assert_cmpstr(again, ==, before);
}

static gboolean stats_shown(void) { return strstr(motus_window_curve_stats(win), "peak") != NULL; }
static gboolean pinned(void) { return isfinite(motus_plot_get_pin(MOTUS_PLOT(motus_window_get_plot_n(win, 0)))); }

/* Amplitude of a curve over t = 0.5 … 1.5 s: its largest |y| there. */
static double amplitude(const char *name)
{
    MotusPlot *p;
    int c;
    g_assert_true(find_curve(name, &p, &c));
    double peak = 0;
    for (guint i = 0; i < motus_plot_n_points(p, c); i++) {
        double t, y;
        motus_plot_get_point(p, c, i, &t, &y);
        if (t >= 0.5 && t <= 1.5) peak = fmax(peak, fabs(y));
    }
    return peak;
}

static gboolean lp10_gone(void) { return !find_curve("lp10", NULL, NULL); }

/* A 20 Hz shake through the low-pass at 20 Hz and at 10 Hz; the RMS button's peak between the two cursors. */
static void test_lowpass_and_peak(void)
{
    run_shaker(tmpdir);
    double a0 = amplitude("sl.disp");
    define("Low-pass filter", "sl.disp", NULL, NULL, "20", "lp20", NULL);
    define("Low-pass filter", "sl.disp", NULL, NULL, "10", "lp10", NULL);
    double g20 = amplitude("lp20") / a0, g10 = amplitude("lp10") / a0, want10 = mt_lowpass_gain(10, 20, 1e-3);
    g_test_message("20 Hz through the low-pass: gain %.6f at a 20 Hz cut-off (want 0.5), %.6f at 10 Hz (want %.6f)", g20,
                   g10, want10);
    /* the frames are 1 ms apart: the largest sample of a 20 Hz sine is within 1 − cos(π 20 · 1 ms) = 0.2 % of its peak */
    g_assert_cmpfloat(fabs(g20 - 0.5), <, 0.5 * 2e-3);
    g_assert_cmpfloat(fabs(g10 / want10 - 1), <, 2e-3);
    /* a reference cursor pinned by a click, the time cursor at 1.9 s: the RMS button's window lies between them */
    focus_main();
    motus_window_set_active_plot(win, 0);
    xin_click(motus_window_get_plot_n(win, 0));
    g_assert_true(wait_for(pinned, 5));
    motus_window_set_time(win, 1.9);
    settle();
    GtkWidget *rms = xin_find(GTK_WIDGET(win), xin_has_tooltip_prefix, "Statistics:");
    xin_click(rms);
    g_assert_true(wait_for(stats_shown, 5));
    const char *text = motus_window_curve_stats(win);
    g_test_message("%s", text);
    g_assert_nonnull(strstr(text, "between the cursors"));
    const char *line = strstr(text, "\nlp20:"), *pk = line ? strstr(line, "peak |y| ") : NULL;
    g_assert_nonnull(pk);
    double peak = g_ascii_strtod(pk + strlen("peak |y| "), NULL);
    g_assert_nonnull(strstr(pk, "mm at t = "));
    g_assert_cmpfloat(fabs(peak - 5), <, 5 * 2e-3);
    settle();
    shot(GTK_WIDGET(win), "derived-peak.png");
    xin_press("Escape");
    settle();
    /* the popover lists the derived curves; a click on lp10's bin removes it and its curve */
    focus_main();
    xin_click(fx_button());
    g_assert_true(wait_for(fx_open, 5));
    settle();
    shot(fx_popover(), "derived-list.png");
    xin_click(in_fx("Remove the derived curve lp10"));
    g_assert_true(wait_for(lp10_gone, 5));
    g_assert_true(find_curve("lp20", NULL, NULL));
    xin_press("Escape");
    g_assert_true(wait_for(fx_closed, 5));
}

static MotusInspector *inspector(void) { return MOTUS_INSPECTOR(motus_window_get_inspector(win)); }
static gboolean entry_with_text(GtkWidget *w, gconstpointer text)
{
    return GTK_IS_ENTRY(w) && gtk_widget_get_mapped(w) && !strcmp(gtk_editable_get_text(GTK_EDITABLE(w)), text);
}
static gboolean com_typed(void) { return fabs(model()->body[0].com[1] - 12.5e-9) < 1e-24; }

/* The inspector: a body's fields in sections; a tiny CoM offset shown in nm, exactly while edited, typed in nm. */
static void test_inspector(void)
{
    g_autofree char *path = g_build_filename(tmpdir, "probe.motus.txt", NULL);
    g_assert_true(g_file_set_contents(path,
                                      "gravity 0 -9.81 0\nground\n marker o\nend\n"
                                      "body probe\n mass 0.25\n com 0 -4.0312345678e-8 0\n inertia 1e-6 2e-6 3e-6\n"
                                      " position 0.139 0 0\n marker m\nend\njoint j revolute probe.m ground.o\n",
                                      -1, NULL));
    open_model(path);
    motus_window_select_entity(win, MT_EDIT_BODY, 0);
    settle();
    GtkWidget *insp = GTK_WIDGET(inspector());
    const char *heads[] = {"General", "Inertia", "Placement", "Initial state"};
    for (guint k = 0; k < G_N_ELEMENTS(heads); k++) g_assert_nonnull(xin_find(insp, xin_has_label, heads[k]));
    g_test_message("com y: %s %s; inertia xx: %s %s; position x: %s %s", motus_inspector_get_text(inspector(), "com.1"),
                   motus_inspector_get_unit(inspector(), "com.1"), motus_inspector_get_text(inspector(), "inertia.0"),
                   motus_inspector_get_unit(inspector(), "inertia.0"), motus_inspector_get_text(inspector(), "position.0"),
                   motus_inspector_get_unit(inspector(), "position.0"));
    g_assert_cmpstr(motus_inspector_get_text(inspector(), "com.1"), ==, "-40.3123");
    g_assert_cmpstr(motus_inspector_get_unit(inspector(), "com.1"), ==, "nm");
    g_assert_cmpstr(motus_inspector_get_unit(inspector(), "com.0"), ==, "nm"); /* the vector's components in one unit */
    g_assert_cmpstr(motus_inspector_get_text(inspector(), "inertia.2"), ==, "3");
    g_assert_cmpstr(motus_inspector_get_unit(inspector(), "inertia.2"), ==, "kg·mm²");
    g_assert_cmpstr(motus_inspector_get_text(inspector(), "position.0"), ==, "0.139"); /* reads well in m: kept */
    g_assert_cmpstr(motus_inspector_get_unit(inspector(), "position.0"), ==, "m");
    shot(GTK_WIDGET(win), "inspector-sections.png");
    /* a click in the entry: the exact value to edit; 12.5 typed and Enter: 12.5 nm */
    GtkWidget *e = xin_find(insp, entry_with_text, "-40.3123");
    g_assert_nonnull(e);
    focus_main();
    xin_click(e);
    settle();
    GtkWidget *fw = gtk_root_get_focus(GTK_ROOT(win));
    g_test_message("focus: %s in entry %d", fw ? G_OBJECT_TYPE_NAME(fw) : "none", fw && gtk_widget_is_ancestor(fw, e));
    g_assert_cmpstr(gtk_editable_get_text(GTK_EDITABLE(e)), ==, "-40.312345678");
    xin_press("<Control>a");
    xin_type("12.5");
    xin_press("Return");
    g_assert_true(wait_for(com_typed, 5));
    settle();
    g_test_message("com y typed as 12.5 (nm): %.17g m", model()->body[0].com[1]);
    g_assert_cmpstr(motus_inspector_get_unit(inspector(), "com.1"), ==, "nm");
}

int main(int argc, char **argv)
{
    ui_app_init(&argc, &argv, "org.motus.MotusDerivedTest");
    tmpdir = g_dir_make_tmp("motus-derived-XXXXXX", NULL);
    g_test_add_func("/derived/pendulum", test_pendulum);
    g_test_add_func("/derived/lowpass-peak", test_lowpass_and_peak);
    g_test_add_func("/inspector/sections-readable", test_inspector);
    int rc = g_test_run();
    g_free(tmpdir);
    return ui_app_finish(rc);
}
