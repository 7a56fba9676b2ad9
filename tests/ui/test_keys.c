/* Every key the README and the shortcuts window list, and the main menu's
 * Quit, pressed or clicked for real under Xvfb (XTest through the X server,
 * ctest gui_keys): the application is set up as the program sets it up
 * (motus_app_setup), and each key is checked by what it does to the window,
 * the model or the files. Quitting with unsaved changes asks; "Cancel" keeps
 * the window and the edit. Save As of a new project names the window after
 * the file and stores the run made before saving. */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "motus-plot.h"
#include "motus/store.h"
#include "ui-app.h"

static char *tmpdir, *model_path;

/* A toplevel other than the main window of the given type, shown. */
static GtkWindow *dialog_of(GType type)
{
    GListModel *tops = gtk_window_get_toplevels();
    for (guint i = 0; i < g_list_model_get_n_items(tops); i++) {
        GtkWindow *w = g_list_model_get_item(tops, i);
        g_object_unref(w);
        if ((gpointer)w != (gpointer)win && G_TYPE_CHECK_INSTANCE_TYPE(w, type) && gtk_widget_get_visible(GTK_WIDGET(w)))
            return w;
    }
    return NULL;
}
static gboolean message_shown(void) { return dialog_of(GTK_TYPE_MESSAGE_DIALOG) != NULL; }
static gboolean message_gone(void) { return dialog_of(GTK_TYPE_MESSAGE_DIALOG) == NULL; }
static gboolean chooser_shown(void) { return dialog_of(GTK_TYPE_FILE_CHOOSER_DIALOG) != NULL; }
static gboolean chooser_gone(void) { return dialog_of(GTK_TYPE_FILE_CHOOSER_DIALOG) == NULL; }

/* A key pressed in the main window opens a toplevel of this type; Escape in it closes it. */
static GType escaped_type;
static gboolean escaped_shown(void) { return dialog_of(escaped_type) != NULL; }
static gboolean escaped_gone(void) { return dialog_of(escaped_type) == NULL; }
static void key_opens_escape_closes(const char *key, GType type)
{
    escaped_type = type;
    focus_main();
    xin_press(key);
    g_assert_true(wait_for(escaped_shown, 5));
    xin_focus(GTK_WIDGET(dialog_of(type)));
    xin_press("Escape");
    g_assert_true(wait_for(escaped_gone, 5));
}

/* The keyboard focus back where a test found it: a row of the model tree that was made anew since is gone
 * (the tree gives the keys to the window then), so the window keeps them. */
static void restore_focus(GtkWidget *focus0)
{
    if (gtk_widget_get_root(focus0)) g_assert_true(gtk_widget_grab_focus(focus0));
}

static int nbody0, nparam0;
static double t0;
static gboolean more_bodies(void) { return model()->nbody > nbody0; }
static gboolean fewer_bodies(void) { return model()->nbody < nbody0; }
static gboolean more_params(void) { return model()->nparam > nparam0; }
static gboolean running(void) { return motus_window_is_running(win); }
static gboolean playing(void) { return motus_window_is_playing(win); }
static gboolean not_playing(void) { return !motus_window_is_playing(win); }
static gboolean later(void) { return motus_window_get_time(win) > t0; }
static gboolean earlier(void) { return motus_window_get_time(win) < t0; }
static gboolean picking(void) { return motus_window_is_picking(win); }
static gboolean not_picking(void) { return !motus_window_is_picking(win); }
static gboolean clean(void) { return !motus_window_is_dirty(win); }
static gboolean dirty(void) { return motus_window_is_dirty(win); }
static MotusGizmoMode gizmo_want;
static gboolean gizmo_is(void) { return motus_viewport_get_gizmo(viewport()) == gizmo_want; }
static double px0, py0;
static gboolean moved(void)
{
    double x, y;
    return motus_viewport_project_body(viewport(), 0, &x, &y) && (fabs(x - px0) > 1 || fabs(y - py0) > 1);
}
static void mark_body(void) { g_assert_true(motus_viewport_project_body(viewport(), 0, &px0, &py0)); }

static void open_copy(void)
{
    g_autofree char *src = g_build_filename(MOTUS_PROJECTS_DIR, "slider-crank.motus.txt", NULL);
    g_autofree char *text = NULL;
    g_assert_true(g_file_get_contents(src, &text, NULL, NULL));
    model_path = g_build_filename(tmpdir, "slider-crank.motus.txt", NULL);
    g_assert_true(g_file_set_contents(model_path, text, -1, NULL));
    open_model(model_path);
    /* the counts in the status bar in the singular and the plural */
    const char *status = motus_window_get_status(win);
    g_test_message("status: %s", status);
    g_assert_nonnull(strstr(status, "3 bodies, 4 joints, 1 driver, 0 springs"));
}

static gboolean checked(void) { return motus_window_check_report(win) != NULL; }
static gboolean check_open(void) { return gtk_widget_get_mapped(motus_window_check_list(win)); }
static gboolean check_closed(void) { return !gtk_widget_get_mapped(motus_window_check_list(win)); }
static gboolean big_end_selected(void)
{
    int i;
    return motus_window_get_selection(win, &i) == MT_EDIT_JOINT && !strcmp(model()->joint[i].name, "big_end");
}

/* The model check: its badge in the header bar says the degrees of freedom
 * and that something needs attention; a click opens the panel, whose finding
 * about the redundant equations names the joint, and a click on it selects
 * the joint. The same numbers as motus-cli check (0 by rank with the crank's
 * driver, Grübler -3, 21 equations, 3 redundant at big_end). */
static void test_model_check(void)
{
    focus_main();
    GtkWidget *focus0 = g_object_ref(gtk_root_get_focus(GTK_ROOT(win)));
    g_assert_true(wait_for(checked, 10));
    const MtCheckReport *r = motus_window_check_report(win);
    g_assert_true(r->compiled);
    g_assert_cmpint(r->info.dof_rank, ==, 0);
    g_assert_cmpint(r->info.dof_grubler, ==, -3);
    g_assert_cmpint(r->info.nrow, ==, 21);
    g_assert_cmpint(r->info.ndep, ==, 3);
    g_assert_cmpint(mt_check_count(r, MT_CHECK_WARNING), ==, 1);
    GtkWidget *button = motus_window_check_button(win);
    g_assert_true(gtk_widget_get_mapped(button));
    g_assert_true(gtk_widget_has_css_class(button, "warning"));
    GtkWidget *badge = xin_find(button, xin_has_label, "0 DOF · 1");
    g_assert_nonnull(badge);
    xin_click(button);
    g_assert_true(wait_for(check_open, 5));
    settle();
    shot(gtk_widget_get_ancestor(motus_window_check_list(win), GTK_TYPE_POPOVER), "model-check.png");
    GtkListBoxRow *row = gtk_list_box_get_row_at_index(GTK_LIST_BOX(motus_window_check_list(win)), 0);
    g_assert_nonnull(row);
    g_assert_true(gtk_list_box_row_get_activatable(row));
    motus_window_select_entity(win, MT_EDIT_NKINDS, -1);
    xin_click(GTK_WIDGET(row));
    g_assert_true(wait_for(big_end_selected, 5));
    g_assert_true(wait_for(check_closed, 5));
    /* the selection took the keys to the tree's row (Space there is the row's): give them back for the next tests */
    restore_focus(focus0);
    g_object_unref(focus0);
}

static GtkWidget *add_popover(void)
{
    GtkWidget *b = xin_find(GTK_WIDGET(win), xin_has_tooltip_prefix, "Add a body");
    return b ? GTK_WIDGET(gtk_menu_button_get_popover(GTK_MENU_BUTTON(b))) : NULL;
}
static gboolean add_open(void) { return add_popover() && gtk_widget_get_mapped(add_popover()); }
static gboolean add_closed(void) { return !add_open(); }

/* The "+" menu fits a 768-pixel screen: its kinds are submenus (it was 900 px tall as one list); a box
 * is added through it by real clicks: +, Body, Box. */
static void test_add_menu(void)
{
    focus_main();
    GtkWidget *focus0 = g_object_ref(gtk_root_get_focus(GTK_ROOT(win)));
    GtkWidget *button = xin_find(GTK_WIDGET(win), xin_has_tooltip_prefix, "Add a body");
    g_assert_nonnull(button);
    xin_click(button);
    g_assert_true(wait_for(add_open, 5));
    settle();
    int h = gtk_widget_get_height(add_popover());
    g_test_message("the + menu is %d px tall", h);
    g_assert_cmpint(h, >, 100);
    g_assert_cmpint(h, <, 500);
    GtkWidget *body = xin_find(add_popover(), xin_has_label, "Body");
    g_assert_nonnull(body);
    xin_click(body);
    settle();
    GtkWidget *box = NULL;
    for (int i = 0; i < 50 && !box; i++, settle()) box = xin_find(add_popover(), xin_has_label, "Box");
    g_assert_nonnull(box);
    nbody0 = model()->nbody;
    xin_click(box);
    g_assert_true(wait_for(more_bodies, 5));
    g_assert_true(wait_for(add_closed, 5));
    nbody0 = model()->nbody;
    focus_main(); /* the X focus back from the menu's popup window (a window manager does this) */
    xin_press("<Control>z"); /* the box goes again */
    g_assert_true(wait_for(fewer_bodies, 5));
    restore_focus(focus0); /* the new box's selection took the keys to the tree */
    g_object_unref(focus0);
}

static gboolean focus_in_inspector(void)
{
    GtkWidget *f = gtk_root_get_focus(GTK_ROOT(win));
    return f && gtk_widget_is_ancestor(f, motus_window_get_inspector(win));
}

/* Tab leaves the model tree for the inspector (it walked the tree's rows and never got there). */
static void test_tab_order(void)
{
    focus_main();
    GtkWidget *focus0 = g_object_ref(gtk_root_get_focus(GTK_ROOT(win)));
    motus_window_select_entity(win, MT_EDIT_BODY, 0);
    GtkWidget *tree = motus_window_get_model_tree(win);
    settle();
    if (!gtk_widget_is_ancestor(gtk_root_get_focus(GTK_ROOT(win)), tree)) gtk_widget_child_focus(tree, GTK_DIR_TAB_FORWARD);
    settle();
    GtkWidget *f = gtk_root_get_focus(GTK_ROOT(win));
    g_test_message("focus in the tree: %s", f ? G_OBJECT_TYPE_NAME(f) : "-");
    g_assert_true(f && gtk_widget_is_ancestor(f, tree));
    xin_press("Tab");
    g_assert_true(wait_for(focus_in_inspector, 5));
    restore_focus(focus0);
    g_object_unref(focus0);
}

static gboolean plotted_wz(void)
{
    for (guint p = 0; p < motus_window_n_plots(win); p++) {
        MotusPlot *pl = MOTUS_PLOT(motus_window_get_plot_n(win, p));
        for (int c = 0; c < motus_plot_n_curves(pl); c++)
            if (!strcmp(motus_plot_curve_name(pl, c), "crank.wz")) return TRUE;
    }
    return FALSE;
}
static gboolean is_search_entry(GtkWidget *w, gconstpointer d)
{
    (void)d;
    return GTK_IS_SEARCH_ENTRY(w) && gtk_widget_get_mapped(w);
}
static GtkWidget *column_search(void)
{
    GtkWidget *dd = xin_find(GTK_WIDGET(win), xin_has_tooltip_prefix, "Add a result column");
    return dd ? xin_find(dd, is_search_entry, NULL) : NULL;
}
static gboolean search_shown(void) { return column_search() != NULL; }

/* The curve list's search: typing part of a name and Enter adds that column (Enter picked nothing). */
static void test_curve_search(void)
{
    focus_main();
    GtkWidget *focus0 = g_object_ref(gtk_root_get_focus(GTK_ROOT(win)));
    GtkWidget *dd = xin_find(GTK_WIDGET(win), xin_has_tooltip_prefix, "Add a result column");
    g_assert_nonnull(dd);
    g_assert_false(plotted_wz());
    xin_click(dd);
    g_assert_true(wait_for(search_shown, 5));
    settle();
    xin_type("crank.wz");
    settle();
    xin_press("Return");
    g_assert_true(wait_for(plotted_wz, 5));
    focus_main();
    restore_focus(focus0);
    g_object_unref(focus0);
}

static gboolean pinned(void) { return isfinite(motus_plot_get_pin(MOTUS_PLOT(motus_window_get_plot(win)))); }
static gboolean unpinned(void) { return !pinned(); }

/* Two cursors: a click in the plot (after a run) pins a reference cursor; the read-out then gives Δt and
 * each curve's difference from it; a click on it takes it away. */
static void test_plot_cursors(void)
{
    focus_main();
    MotusPlot *plot = MOTUS_PLOT(motus_window_get_plot(win));
    g_assert_cmpint(motus_plot_n_curves(plot), >, 0);
    g_assert_false(pinned());
    xin_click(GTK_WIDGET(plot));
    g_assert_true(wait_for(pinned, 5));
    double pin = motus_plot_get_pin(plot);
    g_test_message("reference cursor at t = %g s", pin);
    g_assert_cmpfloat(pin, >, 0);
    g_autofree char *r = motus_plot_readout(plot, pin + 0.25);
    g_test_message("%s", r);
    g_assert_nonnull(strstr(r, "(Δt = 0.25 s)")); /* the run's span: t from 0 to where Esc stopped it */
    g_assert_nonnull(strstr(r, "(Δ = "));
    gint64 until = g_get_monotonic_time() + 700000; /* not a double click (that resets the view) */
    while (g_get_monotonic_time() < until) g_main_context_iteration(NULL, FALSE);
    xin_click(GTK_WIDGET(plot)); /* on it again: gone */
    g_assert_true(wait_for(unpinned, 5));
}

static gboolean velocity_on(void) { return action_on("show-velocity"); }
static gboolean acceleration_on(void) { return action_on("show-acceleration"); }

/* The eye button's settings stay open while several are toggled by real clicks (a menu closed after each). */
static void test_eye_settings(void)
{
    focus_main();
    GtkWidget *focus0 = g_object_ref(gtk_root_get_focus(GTK_ROOT(win)));
    g_assert_false(velocity_on() || acceleration_on());
    open_eye();
    xin_click(xin_find(eye_popover(), xin_has_label, "Velocity vector"));
    g_assert_true(wait_for(velocity_on, 5));
    settle();
    g_assert_true(eye_open()); /* still open */
    xin_click(xin_find(eye_popover(), xin_has_label, "Acceleration vector"));
    g_assert_true(wait_for(acceleration_on, 5));
    xin_click(xin_find(eye_popover(), xin_has_label, "Velocity vector")); /* and off again */
    g_assert_true(wait_for(acceleration_on, 5));
    for (int i = 0; i < 50 && velocity_on(); i++) settle();
    g_assert_false(velocity_on());
    gtk_popover_popdown(GTK_POPOVER(eye_popover()));
    g_action_group_activate_action(G_ACTION_GROUP(win), "show-acceleration", NULL); /* as the next tests expect */
    focus_main();
    restore_focus(focus0);
    g_object_unref(focus0);
}

static gboolean is_primary_menu(GtkWidget *w, gconstpointer data);
static gboolean units_shown(void) { return motus_window_units_window(win) && gtk_widget_get_mapped(motus_window_units_window(win)); }
static gboolean is_named(GtkWidget *w, gconstpointer name) { return !g_strcmp0(gtk_widget_get_name(w), name); }
static gboolean force_in_kn(void)
{
    return model()->nunit == 1 && !strcmp(model()->unit[0].quantity, "force") && !strcmp(model()->unit[0].unit, "kN");
}
static GtkWidget *kn_item;
static gboolean kn_shown(void)
{
    GListModel *tops = gtk_window_get_toplevels();
    kn_item = NULL;
    for (guint i = 0; i < g_list_model_get_n_items(tops) && !kn_item; i++) {
        GtkWidget *w = g_list_model_get_item(tops, i);
        g_object_unref(w);
        GtkWidget *l = xin_find(w, xin_has_label, "kN");
        if (l && gtk_widget_get_mapped(l) && gtk_widget_get_ancestor(l, GTK_TYPE_POPOVER)) kn_item = l;
    }
    return kn_item != NULL;
}
static GtkWidget *units_item(void)
{
    GtkWidget *mb = xin_find(GTK_WIDGET(win), is_primary_menu, NULL);
    GtkPopover *pop = gtk_menu_button_get_popover(GTK_MENU_BUTTON(mb));
    GtkWidget *it = pop ? xin_find(GTK_WIDGET(pop), xin_has_label, "Display Units…") : NULL;
    return it && gtk_widget_get_mapped(it) ? it : NULL;
}
static gboolean units_item_shown(void) { return units_item() != NULL; }

/* Display units from the main menu, by clicks: forces in kN; the plot of the slide's reaction shows kN;
 * Ctrl+Z takes it back to readable. */
static void test_display_units(void)
{
    focus_main();
    xin_click(xin_find(GTK_WIDGET(win), is_primary_menu, NULL));
    g_assert_true(wait_for(units_item_shown, 5));
    xin_click(units_item());
    g_assert_true(wait_for(units_shown, 5));
    GtkWidget *uw = motus_window_units_window(win);
    xin_focus(uw);
    settle();
    GtkWidget *dd = xin_find(uw, is_named, "force");
    g_assert_nonnull(dd);
    xin_click(dd);
    g_assert_true(wait_for(kn_shown, 5));
    xin_click(kn_item);
    g_assert_true(wait_for(force_in_kn, 5));
    gtk_window_destroy(GTK_WINDOW(uw));
    focus_main();
    const char *cols[] = {"sl.Fx", NULL}; /* the shaker of the spectrum test: its slide's reaction */
    g_autoptr(GError) error = NULL;
    g_assert_true(motus_window_set_plot_columns(win, cols, &error));
    settle_for(0.3);
    MotusPlot *p = MOTUS_PLOT(motus_window_get_plot_n(win, 0));
    g_test_message("force plot's unit: %s", motus_plot_y_unit(p));
    g_assert_cmpstr(motus_plot_y_unit(p), ==, "kN");
    xin_press("<Control>z");
    for (int i = 0; i < 50 && model()->nunit; i++) settle();
    g_assert_cmpint(model()->nunit, ==, 0);
}

static guint nplots0;
static gboolean stats_shown_(void) { return strstr(motus_window_curve_stats(win), "RMS ") != NULL; }
static gboolean more_plots(void) { return motus_window_n_plots(win) > nplots0; }

/* Spectrum: a slider driven at 20 Hz (0.01 m), run for 2 s; the plot's PSD button, clicked for real, adds a
 * plot of its power spectral density whose peak is within one frequency bin of 20 Hz. */
static GtkWidget *spectrum_item(const char *label)
{
    GtkWidget *b = xin_find(GTK_WIDGET(win), xin_has_tooltip_prefix, "Spectrum:");
    GtkPopover *pop = b ? gtk_menu_button_get_popover(GTK_MENU_BUTTON(b)) : NULL;
    GtkWidget *it = pop ? xin_find(GTK_WIDGET(pop), xin_has_label, label) : NULL;
    return it && gtk_widget_get_mapped(it) ? it : NULL;
}
static const char *spectrum_wanted;
static gboolean spectrum_item_shown(void) { return spectrum_item(spectrum_wanted) != NULL; }

/* The plot toolbar's Spectrum menu, an item clicked. */
static void spectrum_menu(const char *label)
{
    GtkWidget *b = xin_find(GTK_WIDGET(win), xin_has_tooltip_prefix, "Spectrum:");
    g_assert_nonnull(b);
    xin_click(b);
    spectrum_wanted = label;
    g_assert_true(wait_for(spectrum_item_shown, 5));
    settle();
    xin_click(spectrum_item(label));
    focus_main();
}

static void test_spectrum(void)
{
    run_shaker(tmpdir);
    nplots0 = motus_window_n_plots(win);
    spectrum_menu("Power Spectral Density (Welch)");
    g_assert_true(wait_for(more_plots, 5));
    MotusPlot *sp = MOTUS_PLOT(motus_window_get_plot_n(win, nplots0));
    double f0, f1, y, peak;
    g_assert_true(motus_plot_get_point(sp, 0, 0, &f0, &y) && motus_plot_get_point(sp, 0, 1, &f1, &y));
    g_assert_true(motus_window_spectrum_peak(win, nplots0, &peak));
    g_test_message("PSD peak at %g Hz, bins of %g Hz (%s)", peak, f1 - f0, motus_window_get_status(win));
    g_assert_cmpfloat(fabs(peak - 20), <=, f1 - f0);
    g_assert_cmpstr(motus_plot_x_label(sp), ==, "frequency, Hz");
    settle();
    shot(GTK_WIDGET(win), "spectrum.png");
    /* the amplitude spectrum (one FFT over the 2001 frames, bins of 1/2.001 s): the 10 mm at 20 Hz read back
     * within a bin and 0.1 % (20 Hz lies 0.01 Hz off the bin: the Hann window's scalloping there is 3e-4) */
    motus_window_set_active_plot(win, 0);
    nplots0 = motus_window_n_plots(win);
    spectrum_menu("Amplitude Spectrum (FFT)");
    g_assert_true(wait_for(more_plots, 5));
    MotusPlot *ap = MOTUS_PLOT(motus_window_get_plot_n(win, nplots0));
    double fa = 0, amax = 0, fx, ay;
    for (guint i = 0; motus_plot_get_point(ap, 0, i, &fx, &ay); i++)
        if (ay > amax) amax = ay, fa = fx;
    g_test_message("amplitude spectrum: %.9g m at %g Hz", amax, fa);
    g_assert_cmpfloat(fabs(fa - 20), <, 1 / 2.001);
    g_assert_cmpfloat(fabs(amax - 0.01), <, 1e-3 * 0.01);
    motus_window_set_active_plot(win, 0);
    /* the RMS button on the time plot: 0.01 m amplitude over 40 whole periods, RMS 0.01/sqrt(2) m, mean 0 */
    motus_window_set_active_plot(win, 0);
    GtkWidget *rms = xin_find(GTK_WIDGET(win), xin_has_tooltip_prefix, "Statistics:");
    g_assert_nonnull(rms);
    xin_click(rms);
    g_assert_true(wait_for(stats_shown_, 5));
    const char *text = motus_window_curve_stats(win), *at = strstr(text, "RMS ");
    g_test_message("%s", text);
    g_assert_nonnull(at);
    double r = g_ascii_strtod(at + 4, NULL);
    g_assert_nonnull(strstr(text, "mm"));
    g_assert_cmpfloat(fabs(r / (10 / sqrt(2)) - 1), <, 1e-4);
    xin_press("Escape"); /* closes the popover; the keys go back to the window */
    for (int i = 0; i < 100 && gtk_widget_get_mapped(GTK_WIDGET(gtk_menu_button_get_popover(GTK_MENU_BUTTON(rms)))); i++) settle();
    g_assert_false(gtk_widget_get_mapped(GTK_WIDGET(gtk_menu_button_get_popover(GTK_MENU_BUTTON(rms)))));
    focus_main();
    gtk_widget_grab_focus(motus_viewport_get_gl_area(viewport())); /* the keys in the view, as the next test expects */
}

/* F5 runs, Space plays and pauses, comma and period step, Escape stops a run. */
static void test_run_and_playback(void)
{
    focus_main();
    xin_press("F5");
    g_assert_true(wait_for(running, 10));
    g_assert_true(wait_for(run_done, 60));
    motus_window_set_time(win, 0.5);
    xin_press("space");
    g_assert_true(wait_for(playing, 5));
    xin_press("space");
    g_assert_true(wait_for(not_playing, 5));
    t0 = motus_window_get_time(win);
    xin_press("period");
    g_assert_true(wait_for(later, 5));
    t0 = motus_window_get_time(win);
    xin_press("comma");
    g_assert_true(wait_for(earlier, 5));
    /* a long run stopped by Escape keeps its frames */
    g_assert_true(motus_window_set_field(win, MT_EDIT_SOLVER, 0, "until", "1000", NULL));
    xin_press("F5");
    g_assert_true(wait_for(running, 10));
    xin_press("Escape");
    g_assert_true(wait_for(run_done, 20));
    g_assert_true(motus_window_undo(win));
}

/* 1 3 7 0 give four different views, 5 switches the projection, f fits; in
 * the view the arrows orbit and plus/minus zoom. */
static void test_view_keys(void)
{
    focus_main();
    const char *presets[] = {"1", "3", "7", "0"};
    double xs[4], ys[4];
    for (int i = 0; i < 4; i++) {
        mark_body();
        xin_press(presets[i]);
        settle();
        g_assert_true(motus_viewport_project_body(viewport(), 0, &xs[i], &ys[i]));
    }
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++) g_assert_true(fabs(xs[i] - xs[j]) + fabs(ys[i] - ys[j]) > 1);
    /* the keypad's keys give the same views (NumLock off: KP_End …; on: KP_1 …) in the view (the tree, when it
     * has the focus, moves its cursor with KP_End and KP_Home) */
    gtk_widget_grab_focus(motus_viewport_get_gl_area(viewport()));
    const char *keypad[] = {"KP_1", "KP_3", "KP_7", "KP_0"};
    for (int i = 0; i < 4; i++) {
        xin_press(presets[(i + 3) % 4]);
        settle();
        xin_press(keypad[i]);
        settle();
        double x, y;
        g_assert_true(motus_viewport_project_body(viewport(), 0, &x, &y));
        g_assert_cmpfloat(fabs(x - xs[i]) + fabs(y - ys[i]), <, 0.5);
    }
    gboolean ortho = motus_viewport_get_orthographic(viewport());
    xin_press("5");
    settle();
    g_assert_true(motus_viewport_get_orthographic(viewport()) != ortho);
    xin_press("5");
    settle();
    g_assert_true(motus_viewport_get_orthographic(viewport()) == ortho);
    xin_press("2"); /* planar mode, and back */
    settle();
    g_assert_true(motus_viewport_get_planar(viewport()) && motus_viewport_get_orthographic(viewport()));
    xin_press("2");
    settle();
    g_assert_true(!motus_viewport_get_planar(viewport()) && motus_viewport_get_orthographic(viewport()) == ortho);
    /* keys of the view itself: it has the focus */
    gtk_widget_grab_focus(motus_viewport_get_gl_area(viewport()));
    const char *view_keys[] = {"Left", "Right", "Up", "Down", "plus", "minus"};
    for (guint i = 0; i < G_N_ELEMENTS(view_keys); i++) {
        mark_body();
        xin_press(view_keys[i]);
        g_assert_true(wait_for(moved, 5));
    }
    for (int i = 0; i < 6; i++) xin_press("minus");
    settle();
    const char *fit[] = {"f", "Home"};
    for (int i = 0; i < 2; i++) {
        mark_body();
        xin_press(fit[i]);
        g_assert_true(wait_for(moved, 5));
        for (int k = 0; k < 6; k++) xin_press("minus");
        settle();
    }
}

/* G and R show the move arrows and the turn rings on the selected body; again hides them. */
static void test_gizmo_keys(void)
{
    focus_main();
    motus_window_select_entity(win, MT_EDIT_BODY, 0);
    const char *keys[] = {"g", "g", "r", "r"};
    MotusGizmoMode want[] = {MOTUS_GIZMO_MOVE, MOTUS_GIZMO_OFF, MOTUS_GIZMO_TURN, MOTUS_GIZMO_OFF};
    for (int i = 0; i < 4; i++) {
        gizmo_want = want[i];
        xin_press(keys[i]);
        g_assert_true(wait_for(gizmo_is, 5));
    }
}

static void click_dialog_button(const char *label)
{
    GtkWidget *d = GTK_WIDGET(dialog_of(GTK_TYPE_MESSAGE_DIALOG));
    g_assert_nonnull(d);
    GtkWidget *b = xin_find(d, xin_has_label, label);
    g_assert_nonnull(b);
    xin_click(b);
}

/* Ctrl+B adds a box, Ctrl+Z takes it back, Ctrl+Shift+Z and Ctrl+Y redo it;
 * Ctrl+D duplicates the selection and Delete deletes it; F2 puts the cursor
 * in the name; Ctrl+Shift+P adds a parameter; Ctrl+J and Ctrl+K start
 * picking and Escape ends it; F6, Ctrl+O open their dialogs and Escape
 * closes them; Ctrl+S saves. */
static void test_edit_keys(void)
{
    focus_main();
    g_autofree char *before = model_text();
    nbody0 = model()->nbody;
    xin_press("<Control>b");
    g_assert_true(wait_for(more_bodies, 5));
    g_autofree char *added = model_text();
    xin_press("<Control>z");
    g_assert_true(wait_for(fewer_bodies, 5) || model()->nbody == nbody0);
    g_autofree char *undone = model_text();
    g_assert_cmpstr(undone, ==, before);
    const char *redo[] = {"<Control><Shift>z", "<Control>y"};
    for (int i = 0; i < 2; i++) {
        xin_press(redo[i]);
        g_assert_true(wait_for(more_bodies, 5));
        g_autofree char *redone = model_text();
        g_assert_cmpstr(redone, ==, added);
        if (i == 0) {
            xin_press("<Control>z");
            settle();
            g_assert_cmpint(model()->nbody, ==, nbody0);
        }
    }
    /* the new box: duplicate it, then delete the copy (selected after duplicating) */
    nbody0 = model()->nbody;
    motus_window_select_entity(win, MT_EDIT_BODY, nbody0 - 1);
    xin_press("<Control>d");
    g_assert_true(wait_for(more_bodies, 5));
    nbody0 = model()->nbody;
    focus_main();
    xin_press("Delete"); /* it says what goes with the body (its shape) first */
    g_assert_true(wait_for(message_shown, 5));
    settle();
    click_dialog_button("Delete");
    g_assert_true(wait_for(fewer_bodies, 5));

    motus_window_select_entity(win, MT_EDIT_BODY, 0);
    focus_main();
    xin_press("F2");
    settle();
    GtkWidget *focus = gtk_root_get_focus(GTK_ROOT(win));
    g_assert_nonnull(focus);
    g_assert_true(gtk_widget_is_ancestor(focus, motus_window_get_inspector(win)));
    GtkWidget *entry = gtk_widget_get_ancestor(focus, GTK_TYPE_ENTRY);
    g_assert_nonnull(entry);
    g_assert_cmpstr(gtk_editable_get_text(GTK_EDITABLE(entry)), ==, model()->body[0].name);

    focus_main();
    gtk_widget_grab_focus(motus_viewport_get_gl_area(viewport()));
    nparam0 = model()->nparam;
    xin_press("<Control><Shift>p");
    g_assert_true(wait_for(more_params, 5));

    const char *pickers[] = {"<Control>j", "<Control>k"};
    for (int i = 0; i < 2; i++) {
        focus_main();
        gtk_widget_grab_focus(motus_viewport_get_gl_area(viewport()));
        xin_press(pickers[i]);
        g_assert_true(wait_for(picking, 5));
        xin_press("Escape");
        g_assert_true(wait_for(not_picking, 5));
    }

    key_opens_escape_closes("F6", GTK_TYPE_WINDOW);

    /* Ctrl+? (Ctrl+Shift+/) lists the shortcuts; GTK 4.8's shortcuts window warns that a label of its own
     * "reported min width -4": warnings are not fatal while it is up (criticals still are) */
    GLogLevelFlags fatal = g_log_set_always_fatal(G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
    key_opens_escape_closes("<Control>question", GTK_TYPE_SHORTCUTS_WINDOW);
    settle();
    g_log_set_always_fatal(fatal);

    key_opens_escape_closes("<Control>o", GTK_TYPE_FILE_CHOOSER_DIALOG);

    focus_main();
    g_assert_true(motus_window_is_dirty(win));
    xin_press("<Control>s");
    g_assert_true(wait_for(clean, 5));
    g_autofree char *saved = NULL;
    g_assert_true(g_file_get_contents(model_path, &saved, NULL, NULL));
    g_assert_nonnull(strstr(saved, model()->body[model()->nbody - 1].name));
}

/* A new project (Ctrl+N) run before it is saved, then Save As
 * (Ctrl+Shift+S, the name typed in the file chooser, Enter): the window is
 * named after the file and the file holds the run with all its frames. */
static void test_new_run_save_as(void)
{
    focus_main();
    xin_press("<Control>n");
    g_assert_true(wait_for(clean, 5));
    settle();
    g_assert_null(motus_window_get_path(win));
    nbody0 = model()->nbody;
    xin_press("<Control>b");
    g_assert_true(wait_for(more_bodies, 5));
    g_assert_true(motus_window_set_field(win, MT_EDIT_SOLVER, 0, "until", "0.2", NULL));
    focus_main();
    xin_press("F5");
    g_assert_true(wait_for(running, 10));
    g_assert_true(wait_for(run_done, 60));
    guint frames = motus_window_get_n_frames(win);
    g_assert_cmpuint(frames, >, 10);

    g_autofree char *path = g_build_filename(tmpdir, "my-pendulum.motus", NULL);
    xin_press("<Control><Shift>s");
    g_assert_true(wait_for(chooser_shown, 5));
    GtkWidget *chooser = GTK_WIDGET(dialog_of(GTK_TYPE_FILE_CHOOSER_DIALOG));
    xin_focus(chooser);
    settle();
    xin_press("<Control>a");
    xin_type(path);
    settle();
    xin_press("Return");
    settle();
    shot(chooser, "keys-save-as.png");
    /* GTK's chooser may take the first Enter for its completion of the typed path */
    if (chooser_shown()) {
        GtkWidget *save = xin_find(chooser, xin_has_label, "Save");
        g_assert_nonnull(save);
        xin_click(save);
    }
    g_assert_true(wait_for(chooser_gone, 10));
    g_assert_true(wait_for(clean, 5));
    g_assert_cmpstr(motus_window_get_path(win), ==, path);
    const char *title = gtk_window_get_title(GTK_WINDOW(win));
    g_test_message("title after Save As: %s", title);
    g_assert_nonnull(strstr(title, "my-pendulum"));

    MtError err = {0};
    MtStore *s = mt_store_open(path, MT_STORE_READONLY, &err);
    g_assert_nonnull(s);
    MtRunInfo *runs = NULL;
    int n = mt_store_list_runs(s, &runs, &err);
    g_assert_cmpint(n, ==, 1);
    g_assert_cmpint(runs[0].status, ==, MT_RUN_FINISHED);
    g_assert_cmpint(runs[0].frames, ==, (long)frames);
    g_assert_cmpfloat_with_epsilon(runs[0].t_last, 0.2, 1e-9);
    free(runs);
    mt_store_close(s);
}

static gboolean is_primary_menu(GtkWidget *w, gconstpointer data)
{
    (void)data;
    return GTK_IS_MENU_BUTTON(w) && !g_strcmp0(gtk_menu_button_get_icon_name(GTK_MENU_BUTTON(w)), "open-menu-symbolic");
}

static GtkWidget *quit_item(void)
{
    GtkWidget *mb = xin_find(GTK_WIDGET(win), is_primary_menu, NULL);
    GtkPopover *pop = gtk_menu_button_get_popover(GTK_MENU_BUTTON(mb));
    return pop ? xin_find(GTK_WIDGET(pop), xin_has_label, "Quit") : NULL;
}
static gboolean quit_item_shown(void)
{
    GtkWidget *q = quit_item();
    return q && gtk_widget_get_mapped(q);
}

static gboolean win_gone;
static gboolean window_gone(void) { return win_gone; }
static void on_destroy(GtkWidget *w, gpointer data)
{
    (void)w, (void)data;
    win_gone = TRUE;
}

/* Quitting asked about the unsaved edit: Cancel clicked keeps the window and the model (`edited`, its text). */
static void cancel_quit(const char *edited)
{
    g_assert_true(wait_for(message_shown, 5));
    settle();
    click_dialog_button("Cancel");
    g_assert_true(wait_for(message_gone, 5));
    settle();
    g_assert_false(win_gone);
    g_autofree char *kept = model_text();
    g_assert_cmpstr(kept, ==, edited);
}

/* Ctrl+Q and the main menu's Quit with an unsaved edit ask; Cancel keeps
 * the window and the edit; Discard closes the window. */
static void test_quit_asks(void)
{
    focus_main();
    nbody0 = model()->nbody;
    xin_press("<Control>b");
    g_assert_true(wait_for(more_bodies, 5));
    g_assert_true(dirty());
    g_autofree char *edited = model_text();

    xin_press("<Control>q");
    cancel_quit(edited);
    g_assert_true(dirty());

    /* the main menu's Quit, clicked */
    focus_main();
    GtkWidget *mb = xin_find(GTK_WIDGET(win), is_primary_menu, NULL);
    g_assert_nonnull(mb);
    xin_click(mb);
    g_assert_true(wait_for(quit_item_shown, 5));
    settle();
    xin_click(quit_item());
    cancel_quit(edited);

    focus_main();
    xin_press("<Control>q");
    g_assert_true(wait_for(message_shown, 5));
    settle();
    click_dialog_button("Discard");
    g_assert_true(wait_for(window_gone, 5));
}

int main(int argc, char **argv)
{
    ui_app_init(&argc, &argv, "org.motus.MotusKeysTest");
    g_signal_connect(win, "destroy", G_CALLBACK(on_destroy), NULL);
    tmpdir = g_dir_make_tmp("motus-keys-XXXXXX", NULL);
    open_copy();
    g_test_add_func("/keys/model-check", test_model_check);
    g_test_add_func("/keys/add-menu", test_add_menu);
    g_test_add_func("/keys/tab-order", test_tab_order);
    g_test_add_func("/keys/curve-search", test_curve_search);
    g_test_add_func("/keys/run-playback", test_run_and_playback);
    g_test_add_func("/keys/plot-cursors", test_plot_cursors);
    g_test_add_func("/keys/view", test_view_keys);
    g_test_add_func("/keys/gizmo", test_gizmo_keys);
    g_test_add_func("/keys/edit", test_edit_keys);
    g_test_add_func("/keys/new-run-save-as", test_new_run_save_as);
    g_test_add_func("/keys/eye-settings", test_eye_settings);
    g_test_add_func("/keys/spectrum", test_spectrum);
    g_test_add_func("/keys/display-units", test_display_units);
    g_test_add_func("/keys/quit-asks", test_quit_asks);
    int rc = g_test_run();
    g_free(model_path);
    g_free(tmpdir);
    return ui_app_finish(rc);
}
