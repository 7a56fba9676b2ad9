/* The Study panel driven for real under Xvfb (ctest gui_study): Ctrl+T
 * pressed and Run Cases clicked through XTest (xinput.h) on the 3 × 3
 * spring–mass study of tests/study/spring-mass.motus.txt, imported into a
 * project; then:
 *   every case's x(0.7 s) within 1e-8 of 1 + 0.1 cos(sqrt(k/m) 0.7), in the
 *   table, the heat map's nine cells (m across, k up) and the CSV export;
 *   the nine cases recorded in the project as motus-cli study records them
 *   (`motus-cli study --table` writes the window's CSV byte for byte),
 *   their runs kept ("Keep Frames"); a double click on a case's row, or on
 *   its heat-map cell, opens its run in a new window, whose x at 0.7 s is
 *   the case's response;
 *   a click on the x07 column's header sorts the table by it;
 *   a bigger study (600 cases) stopped with Esc: some cases done, not all (the
 *   window answers keys while both cores run cases);
 *   cases of an invalid model (m = -1 kg) failed with the message, the others done;
 *   the study's lines edited in the panel and applied (6 cases), Ctrl+Z undoing it;
 *   the optimisation of tests/study/spring-opt.motus.txt: the least k with x(0.7 s) <= 1 within 1e-6
 *   of m (pi/1.4)^2, its path page opened by a click on its tab, the same optimum read by motus-cli
 *   from the project, and run again nothing runs;
 *   the constraint's bound typed in its field (-0.05) and applied: the least k with x(0.7 s) <= 0.95,
 *   m (2 pi/2.1)^2, within 1e-6;
 *   the fields beside the lines edited by clicks and keys (k's count, a response added, typed, removed).
 * The parallel coordinates have an axis per variable and response and a
 * line per case. Screenshots of the table, the heat map, the response plot
 * and the parallel coordinates stay in build/tests/ui (study-*.png). */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "motus-heatmap.h"
#include "motus-window-study.h"
#include "motus/edit.h"
#include "motus/store.h"
#include "motus/study_run.h"
#include "ui-app.h"


/* The model text into a project of its own (as motus-cli import does). */
static char *import(const char *text, const char *name)
{
    MtError err = {0};
    MtModel *m = mt_model_parse_text(text, name, &err);
    g_assert_nonnull(m);
    char *path = g_build_filename(MOTUS_OUT_DIR, name, NULL);
    g_unlink(path);
    MtStore *st = mt_store_open(path, MT_STORE_CREATE, &err);
    g_assert_nonnull(st);
    g_assert_cmpint(mt_store_save_model(st, m, NULL, &err), ==, MT_OK);
    mt_store_close(st);
    mt_model_free(m);
    return path;
}

static double closed_form(double m, double k) { return 1 + 0.1 * cos(sqrt(k / m) * 0.7); }
static const double mass[3] = {0.5, 1, 2};

static gboolean panel_mapped(void)
{
    GtkWidget *p = motus_window_study_panel(win);
    return p && gtk_widget_get_mapped(p);
}
static gboolean not_running(void) { return !motus_window_study_running(win); }
static gboolean some_done(void)
{
    MotusStudyResults *r = motus_window_study_results(win);
    return r && motus_study_results_n(r) >= 2;
}

static void open_panel(void)
{
    xin_focus(GTK_WIDGET(win));
    settle();
    xin_press("<Control>t");
    g_assert_true(wait_for(panel_mapped, 10));
    settle_for(0.2);
}

/* tests/study/FILE imported into the project MOTUS_OUT_DIR/name, opened, the panel shown (Ctrl+T); the
 * project's path (g_free it). */
static char *open_study(const char *file, const char *name)
{
    g_autofree char *src = g_build_filename(MOTUS_STUDY_DIR, file, NULL), *text = NULL;
    g_assert_true(g_file_get_contents(src, &text, NULL, NULL));
    char *project = import(text, name);
    open_model(project);
    open_panel();
    return project;
}

static void check_table(MotusStudyResults *r)
{
    g_assert_cmpint(motus_study_results_n(r), ==, 9);
    double worst = 0;
    for (int c = 0; c < 9; c++) {
        const MtStudyCaseResult *x = motus_study_results_case(r, c);
        g_assert_nonnull(x);
        g_assert_false(x->failed);
        /* grid order: m (0.5 1 2) slowest, k (100 250 400) */
        g_assert_cmpfloat(x->values[0], ==, mass[c / 3]);
        g_assert_cmpfloat(x->values[1], ==, 100 + 150 * (c % 3));
        worst = fmax(worst, fabs(x->resp[0] - closed_form(x->values[0], x->values[1])));
    }
    g_test_message("largest |x(0.7) - closed form| in the table %.3g", worst);
    g_assert_cmpfloat(worst, <, 1e-8);
}

static void check_heatmap(MotusStudyResults *r)
{
    motus_study_results_choose(r, 0, 0, 1);
    MotusHeatmap *h = motus_study_results_heatmap(r);
    g_assert_cmpint(motus_heatmap_nx(h), ==, 3);
    g_assert_cmpint(motus_heatmap_ny(h), ==, 3);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double want = closed_form(mass[i], 100 + 150 * j);
            g_assert_cmpfloat(fabs(motus_heatmap_cell(h, i, j) - want), <, 1e-8);
        }
    double lo, hi;
    g_assert_true(motus_heatmap_range(h, &lo, &hi));
    g_assert_cmpfloat(lo, <, hi);
}

static void check_csv(const char *path)
{
    g_autofree char *text = NULL;
    g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
    g_auto(GStrv) line = g_strsplit(text, "\n", -1);
    g_assert_true(g_str_has_prefix(line[0], "case,status,m,k,x07,xmax,xrms,fpeak,amp,seconds,job,frames,message"));
    g_assert_cmpuint(g_strv_length(line), ==, 11); /* a header, nine cases, the empty rest */
    for (int c = 0; c < 9; c++) {
        g_auto(GStrv) f = g_strsplit(line[c + 1], ",", -1);
        g_assert_cmpint(atoi(f[0]), ==, c);
        g_assert_cmpstr(f[1], ==, "ok");
        g_assert_cmpfloat(fabs(g_ascii_strtod(f[4], NULL) - closed_form(g_ascii_strtod(f[2], NULL),
                                                                         g_ascii_strtod(f[3], NULL))), <, 1e-8);
    }
}

static void check_stored(const char *project)
{
    MtError err = {0};
    MtStore *st = mt_store_open(project, MT_STORE_READONLY, &err);
    g_assert_nonnull(st);
    long version;
    MtModel *m = mt_store_load_model(st, &version, &err);
    g_assert_nonnull(m);
    MtStudyCaseResult *c = NULL;
    int n = mt_store_study_cases(st, m->study, &c, &err);
    g_assert_cmpint(n, ==, 9);
    for (int i = 0; i < n; i++)
        g_assert_cmpfloat(fabs(c[i].resp[0] - closed_form(c[i].values[0], c[i].values[1])), <, 1e-8);
    free(c);
    mt_model_free(m);
    mt_store_close(st);
}

/* A double click at widget point (x, y) through XTest (xin_click clicks a widget's centre). */
static void double_click_at(GtkWidget *w, double x, double y)
{
    xin_pointer_to(w, x, y, 100000);
    Display *d = xin_display();
    for (int k = 0; k < 2; k++) {
        XTestFakeButtonEvent(d, 1, True, CurrentTime);
        XTestFakeButtonEvent(d, 1, False, CurrentTime);
    }
    XSync(d, False);
}

static MotusWindow *other;
static gboolean new_window(void)
{
    for (GList *l = gtk_application_get_windows(app); l; l = l->next)
        if (MOTUS_IS_WINDOW(l->data) && l->data != (gpointer)win) other = l->data;
    return other && motus_window_get_n_frames(other) > 0;
}

/* The run opened in a new window is case 4's: its x at 0.7 s (a frame: the output step is 0.01 s) is the
 * case's x07. The window is closed. */
static void check_other(const MtStudyCaseResult *x)
{
    g_assert_true(wait_for(new_window, 20));
    double *t = NULL, *v = NULL;
    guint n = motus_window_get_column(other, "mass.x", &t, &v);
    g_assert_cmpuint(n, >, 70);
    guint i = 0;
    while (i < n && fabs(t[i] - 0.7) > 1e-9) i++;
    g_assert_cmpuint(i, <, n);
    g_test_message("case 4's run: %u frames, x(0.7) %.12g, x07 %.12g", n, v[i], x->resp[0]);
    g_assert_cmpfloat(fabs(v[i] - x->resp[0]), <, 1e-9);
    g_free(t), g_free(v);
    gtk_window_destroy(GTK_WINDOW(other));
    other = NULL;
    settle_for(0.2);
}

/* A double click on case 4's row (m = 1 kg, k = 250 N/m), then on its heat-map cell (the middle one), opens
 * its kept run in a new window. */
static void check_case_run(MotusStudyResults *r, const char *project)
{
    gtk_notebook_set_current_page(motus_study_results_notebook(r), 0);
    settle_for(0.3);
    const MtStudyCaseResult *x = motus_study_results_case(r, 4);
    g_assert_cmpstr(x->frames, ==, "case-000004.motus");
    g_autofree char *kept = g_strdup_printf("%s.study/case-000004.motus", project);
    g_assert_true(g_file_test(kept, G_FILE_TEST_IS_REGULAR));
    GtkWidget *cell = xin_find(GTK_WIDGET(motus_study_results_table(r)), xin_has_label, "4");
    g_assert_nonnull(cell);
    xin_click(cell);
    xin_click(cell); /* the second click within the double-click time: the row is activated */
    check_other(x);
    gtk_notebook_set_current_page(motus_study_results_notebook(r), 1);
    motus_study_results_choose(r, 0, 0, 1);
    settle_for(0.3);
    MotusHeatmap *h = motus_study_results_heatmap(r);
    double px, py;
    int i, j;
    g_assert_true(motus_heatmap_cell_center(h, 1, 1, &px, &py));
    g_assert_true(motus_heatmap_cell_at(h, px, py, &i, &j));
    g_assert_cmpint(i, ==, 1);
    g_assert_cmpint(j, ==, 1);
    double_click_at(GTK_WIDGET(h), px, py);
    check_other(x);
    for (int c = 0; c < 9; c++) {
        g_autofree char *f = g_strdup_printf("%s.study/case-%06d.motus", project, c);
        g_unlink(f);
    }
    g_autofree char *dir = g_strdup_printf("%s.study", project);
    g_rmdir(dir);
}

static void test_grid(void)
{
    g_autofree char *project = open_study("spring-mass.motus.txt", "study-spring-mass.motus");
    MotusStudyResults *r = motus_window_study_results(win);
    g_assert_nonnull(r);
    g_assert_cmpint(motus_study_results_n(r), ==, 0);
    xin_click(motus_window_study_button(win, "keep"));
    settle_for(0.1);
    g_assert_true(gtk_check_button_get_active(GTK_CHECK_BUTTON(motus_window_study_button(win, "keep"))));
    xin_click(motus_window_study_button(win, "run"));
    g_assert_true(wait_for(some_done, 30));
    g_assert_true(wait_for(not_running, 60));
    g_test_message("progress: %s", motus_window_study_progress(win));
    check_table(r);
    check_stored(project);
    /* a click on the x07 header sorts by it, ascending */
    GtkWidget *head = xin_find(GTK_WIDGET(motus_study_results_table(r)), xin_has_label, "x07");
    g_assert_nonnull(head);
    xin_click(head);
    settle_for(0.3);
    double prev = -INFINITY;
    for (guint i = 0; i < 9; i++) {
        const MtStudyCaseResult *x = motus_study_results_case(r, motus_study_results_row_case(r, i));
        g_assert_nonnull(x);
        g_assert_cmpfloat(x->resp[0], >=, prev);
        prev = x->resp[0];
    }
    GtkWidget *panel = motus_window_study_panel(win);
    shot(panel, "study-table.png");
    check_heatmap(r);
    gtk_notebook_set_current_page(motus_study_results_notebook(r), 1);
    settle_for(0.5);
    shot(panel, "study-heatmap.png");
    gtk_notebook_set_current_page(motus_study_results_notebook(r), 2);
    settle_for(0.5);
    shot(panel, "study-plot.png");
    /* parallel coordinates: m, k and the five responses, a line per case; x07's axis spans the heat map's range */
    MotusParcoords *pc = motus_study_results_parcoords(r);
    g_assert_cmpint(motus_parcoords_n_axes(pc), ==, 7);
    g_assert_cmpint(motus_parcoords_n_lines(pc), ==, 9);
    double plo, phi, hlo, hhi;
    g_assert_true(motus_parcoords_range(pc, 2, &plo, &phi));
    g_assert_true(motus_heatmap_range(motus_study_results_heatmap(r), &hlo, &hhi));
    g_assert_cmpfloat(plo, ==, hlo);
    g_assert_cmpfloat(phi, ==, hhi);
    gtk_notebook_set_current_page(motus_study_results_notebook(r), 3);
    settle_for(0.5);
    shot(panel, "study-parallel.png");
    g_autofree char *csv = g_build_filename(MOTUS_OUT_DIR, "study-cases.csv", NULL);
    g_autoptr(GError) error = NULL;
    g_assert_true(motus_window_study_export(win, csv, &error));
    check_csv(csv);
    /* the project holds what motus-cli reads: its table is the window's export, byte for byte */
    g_autofree char *cli_csv = g_build_filename(MOTUS_OUT_DIR, "study-cases-cli.csv", NULL);
    const char *argv[] = {MOTUS_CLI, "study", project, "--table", "--out", cli_csv, NULL};
    int status = -1;
    g_assert_true(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, NULL));
    g_assert_true(g_spawn_check_wait_status(status, NULL));
    g_autofree char *a = NULL, *b = NULL;
    g_assert_true(g_file_get_contents(csv, &a, NULL, NULL));
    g_assert_true(g_file_get_contents(cli_csv, &b, NULL, NULL));
    g_assert_cmpstr(a, ==, b);
    check_case_run(r, project);
    gtk_window_destroy(GTK_WINDOW(panel));
    settle_for(0.2);
    g_unlink(project);
}

/* tests/study/spring-mass.motus.txt with `from` changed to `to`, written to MOTUS_OUT_DIR/name and opened,
 * its study started from the panel and run until some cases are done; the file's path (g_free it). */
static char *run_changed(const char *from, const char *to, const char *name)
{
    g_autofree char *text = NULL;
    g_assert_true(g_file_get_contents(MOTUS_STUDY_DIR "/spring-mass.motus.txt", &text, NULL, NULL));
    g_auto(GStrv) parts = g_strsplit(text, from, 2);
    g_autofree char *changed = g_strjoinv(to, parts);
    char *path = g_build_filename(MOTUS_OUT_DIR, name, NULL);
    g_assert_true(g_file_set_contents(path, changed, -1, NULL));
    open_model(path);
    open_panel();
    xin_click(motus_window_study_button(win, "run"));
    g_assert_true(wait_for(some_done, 30));
    return path;
}

/* 3 × 200 cases stopped with Esc after the first few: some done, not all, the panel says so. */
static void test_stop(void)
{
    g_autofree char *path = run_changed("count 3", "count 200", "study-big.motus.txt");
    g_assert_true(gtk_widget_get_sensitive(motus_window_study_button(win, "stop")));
    g_assert_false(gtk_widget_get_sensitive(motus_window_study_button(win, "run")));
    xin_focus(motus_window_study_panel(win));
    settle();
    xin_press("Escape");
    g_assert_true(wait_for(not_running, 30));
    int n = motus_study_results_n(motus_window_study_results(win));
    g_test_message("stopped after %d of 600 cases: %s", n, motus_window_study_progress(win));
    g_assert_cmpint(n, >=, 2);
    g_assert_cmpint(n, <, 600);
    g_assert_true(g_str_has_prefix(motus_window_study_progress(win), "Stopped"));
    gtk_window_destroy(GTK_WINDOW(motus_window_study_panel(win)));
    settle_for(0.2);
    g_unlink(path);
}

static int model_cases(void)
{
    const MtModel *m = mt_editor_model(motus_window_get_editor(win));
    MtError err = {0};
    return m && m->study ? mt_study_ncases(m->study, &err) : -1;
}
static gboolean nine_cases(void) { return model_cases() == 9; }

/* The lines edited in the panel (m's bad level dropped) and applied by a click: the model's study has 6 cases,
 * the panel's results are gone; Ctrl+Z in the main window brings the 9 cases back. */
static void check_edit(void)
{
    GtkTextBuffer *buf = gtk_text_view_get_buffer(motus_window_study_text(win));
    GtkTextIter a, z;
    gtk_text_buffer_get_bounds(buf, &a, &z);
    g_autofree char *text = gtk_text_buffer_get_text(buf, &a, &z, FALSE);
    g_auto(GStrv) parts = g_strsplit(text, "levels -1 1 2", 2);
    g_autofree char *fixed = g_strjoinv("levels 1 2", parts);
    gtk_text_buffer_set_text(buf, fixed, -1);
    xin_click(motus_window_study_button(win, "apply"));
    settle_for(0.3);
    g_assert_cmpint(model_cases(), ==, 6);
    g_assert_cmpint(motus_study_results_n(motus_window_study_results(win)), ==, 0);
    xin_focus(GTK_WIDGET(win));
    settle();
    xin_press("<Control>z");
    g_assert_true(wait_for(nine_cases, 5));
}

/* m = -1 kg makes the model invalid: those three cases fail with the message naming the body, the others
 * go on; the heat map has no value (grey) where they are. */
static void test_failed(void)
{
    g_autofree char *path = run_changed("levels 0.5 1 2", "levels -1 1 2", "study-failed.motus.txt");
    g_assert_true(wait_for(not_running, 30));
    MotusStudyResults *r = motus_window_study_results(win);
    g_test_message("%s", motus_window_study_progress(win));
    g_assert_nonnull(strstr(motus_window_study_progress(win), "9 cases done, 3 failed"));
    for (int c = 0; c < 9; c++) {
        const MtStudyCaseResult *x = motus_study_results_case(r, c);
        g_assert_nonnull(x);
        g_assert_cmpint(x->failed, ==, c < 3);
        if (c < 3) g_assert_nonnull(strstr(x->message, "mass"));
        else g_assert_cmpfloat(fabs(x->resp[0] - closed_form(x->values[0], x->values[1])), <, 1e-8);
    }
    motus_study_results_choose(r, 0, 0, 1);
    MotusHeatmap *h = motus_study_results_heatmap(r);
    g_assert_true(isnan(motus_heatmap_cell(h, 0, 0)));
    g_assert_cmpfloat(fabs(motus_heatmap_cell(h, 1, 0) - closed_form(1, 100)), <, 1e-8);
    check_edit();
    gtk_window_destroy(GTK_WINDOW(motus_window_study_panel(win)));
    settle_for(0.2);
    g_unlink(path);
}

/* The spring-mass optimisation of tests/study/spring-opt.motus.txt run from the panel: the least k with
 * x(0.7 s) <= 1 within 1e-6 of m (pi/1.4)^2, every evaluation a case in the table and the project, the
 * path page (opened by a click on its tab) with a point per case; Run Cases again reads them all back. */
static char *panel_lines(void)
{
    GtkTextBuffer *buf = gtk_text_view_get_buffer(motus_window_study_text(win));
    GtkTextIter a, z;
    gtk_text_buffer_get_bounds(buf, &a, &z);
    return gtk_text_buffer_get_text(buf, &a, &z, FALSE);
}

/* Turns the mouse wheel (button 5: down, 4: up) over w's scrolled window until w is inside its view. */
static void wheel_to(GtkWidget *w)
{
    GtkWidget *sw = gtk_widget_get_ancestor(w, GTK_TYPE_SCROLLED_WINDOW);
    g_assert_nonnull(sw);
    GtkNative *native = gtk_widget_get_native(sw);
    Display *d = xin_display();
    for (int i = 0; i < 60; i++) {
        graphene_rect_t r, a;
        g_assert_true(gtk_widget_compute_bounds(w, sw, &r));
        if (r.origin.y >= 0 && r.origin.y + r.size.height <= gtk_widget_get_height(sw)) return;
        g_assert_true(gtk_widget_compute_bounds(sw, GTK_WIDGET(native), &a));
        double sx = 0, sy = 0;
        gtk_native_get_surface_transform(native, &sx, &sy);
        int rx, ry;
        Window child;
        XTranslateCoordinates(d, xin_window(sw), DefaultRootWindow(d), (int)(sx + a.origin.x + a.size.width / 2),
                              (int)(sy + a.origin.y + a.size.height / 2), &rx, &ry, &child);
        XTestFakeMotionEvent(d, -1, rx, ry, CurrentTime);
        unsigned int button = r.origin.y < 0 ? 4 : 5;
        XTestFakeButtonEvent(d, button, True, CurrentTime);
        XTestFakeButtonEvent(d, button, False, CurrentTime);
        XSync(d, False);
        settle_for(0.1);
    }
    g_assert_not_reached();
}

/* Clicks into a form field, selects what it holds and types text over it. */
static void type_into(GtkWidget *field, const char *text)
{
    g_assert_nonnull(field);
    xin_click(field);
    settle();
    xin_press("<Control>a");
    xin_type(text);
    settle_for(0.3);
}

static gboolean bound_applied(void)
{
    const MtModel *m = mt_editor_model(motus_window_get_editor(win));
    return m && m->study && m->study->ncons == 1 && m->study->cons[0].bound == -0.05;
}
static gboolean optimum_shown(void)
{
    return not_running() && g_str_has_prefix(motus_window_study_progress(win), "Optimum: case ");
}

static gboolean none_run(void) { return strstr(motus_window_study_progress(win), "(0 run now)") != NULL; }

static void test_optimise(void)
{
    g_autofree char *project = open_study("spring-opt.motus.txt", "study-spring-opt.motus");
    MotusStudyResults *r = motus_window_study_results(win);
    g_assert_nonnull(r);
    xin_click(motus_window_study_button(win, "run"));
    g_assert_true(wait_for(some_done, 30));
    g_assert_true(wait_for(not_running, 60));
    const char *progress = motus_window_study_progress(win);
    g_test_message("optimisation: %s", progress);
    g_assert_true(g_str_has_prefix(progress, "Optimum: case "));
    g_assert_nonnull(strstr(progress, "the constraints hold"));
    int n = motus_study_results_n(r), best = -1;
    const MtModel *m = mt_editor_model(motus_window_get_editor(win));
    for (int c = 0; c < n; c++) {
        const MtStudyCaseResult *x = motus_study_results_case(r, c);
        g_assert_nonnull(x); /* cases 0 … n-1, in the optimiser's order */
        g_assert_false(x->failed);
        if (best < 0 || mt_study_opt_better(m->study, x->resp, motus_study_results_case(r, best)->resp)) best = c;
    }
    double k = motus_study_results_case(r, best)->values[0], want = pow(M_PI / 1.4, 2);
    g_test_message("%d cases; optimum case %d: k = %.10g, closed form m (pi/1.4)^2 = %.10g, rel. diff %.3g (tol 1e-6)", n, best,
                   k, want, fabs(k - want) / want);
    g_assert_cmpfloat(fabs(k - want) / want, <, 1e-6);
    g_autofree char *head = g_strdup_printf("Optimum: case %d ", best);
    g_assert_true(g_str_has_prefix(progress, head));
    /* the path: a click on its tab; the objective at every case, the best so far ending at the optimum's */
    GtkWidget *panel = motus_window_study_panel(win);
    GtkWidget *tab = xin_find(GTK_WIDGET(motus_study_results_notebook(r)), xin_has_label, "Optimisation Path");
    g_assert_nonnull(tab);
    xin_click(tab);
    settle_for(0.5);
    g_assert_cmpint(gtk_notebook_get_current_page(motus_study_results_notebook(r)), ==, 4);
    MotusPlot *path = motus_study_results_path(r);
    g_assert_cmpuint(motus_plot_n_points(path, 0), ==, (guint)n);
    double px, py;
    g_assert_true(motus_plot_get_point(path, 1, (guint)n - 1, &px, &py));
    g_assert_cmpfloat(py, ==, motus_study_results_case(r, best)->resp[2]);
    shot(panel, "study-path.png");
    /* recorded in the project: motus-cli finds the same optimum there */
    const char *argv[] = {MOTUS_CLI, "study", project, "--status", NULL};
    g_autofree char *out = NULL;
    int status = -1;
    g_assert_true(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, NULL));
    g_test_message("motus-cli study --status:\n%s", out);
    g_autofree char *same = g_strdup_printf("optimum: case %d: k = ", best);
    g_assert_nonnull(strstr(out, same));
    /* run again: every case is read back, none runs (the click is seen once the events are read: wait for its words) */
    xin_click(motus_window_study_button(win, "run"));
    g_assert_true(wait_for(none_run, 30));
    g_test_message("again: %s", motus_window_study_progress(win));
    g_assert_true(not_running());
    g_assert_cmpint(motus_study_results_n(r), ==, n);
    /* the constraint's bound typed in its field as -0.05 and applied: the least k with x(0.7 s) <= 0.95,
     * cos(sqrt(k/m) 0.7) <= -1/2, is m (2 pi/2.1)^2 */
    GtkWidget *bound = motus_study_form_field(motus_window_study_form(win), "cons-bound", 0);
    wheel_to(bound); /* below the fields in view */
    type_into(bound, "-0.05");
    g_autofree char *lines = panel_lines();
    g_assert_nonnull(strstr(lines, "study constraint dx <= -0.05\n"));
    xin_click(motus_window_study_button(win, "apply"));
    g_assert_true(wait_for(bound_applied, 5));
    r = motus_window_study_results(win);
    xin_click(motus_window_study_button(win, "run"));
    g_assert_true(wait_for(optimum_shown, 60));
    g_test_message("bound -0.05: %s", motus_window_study_progress(win));
    n = motus_study_results_n(r);
    m = mt_editor_model(motus_window_get_editor(win));
    best = -1;
    for (int c = 0; c < n; c++)
        if (best < 0 || mt_study_opt_better(m->study, motus_study_results_case(r, c)->resp, motus_study_results_case(r, best)->resp))
            best = c;
    k = motus_study_results_case(r, best)->values[0], want = pow(2 * M_PI / 2.1, 2);
    g_test_message("%d cases; optimum case %d: k = %.10g, closed form m (2pi/2.1)^2 = %.10g, rel. diff %.3g (tol 1e-6)", n, best,
                   k, want, fabs(k - want) / want);
    g_assert_cmpfloat(fabs(k - want) / want, <, 1e-6);
    panel = motus_window_study_panel(win);
    gtk_window_destroy(GTK_WINDOW(panel));
    settle_for(0.2);
    g_unlink(project);
}

static gboolean fifteen_cases(void) { return model_cases() == 15; }

/* The fields beside the lines, edited by real clicks and keys: k's count typed as 5 writes `count 5` in the
 * lines and, applied, gives 3 x 5 cases; a response added by its button is not a line until its column is
 * typed, then it is; its remove button takes it away again; Ctrl+Z undoes the applied study. */
static void test_form(void)
{
    g_autofree char *path = g_build_filename(MOTUS_STUDY_DIR, "spring-mass.motus.txt", NULL);
    open_model(path);
    open_panel();
    MotusStudyForm *f = motus_window_study_form(win);
    g_assert_nonnull(f);
    type_into(motus_study_form_field(f, "var-count", 1), "5");
    g_autofree char *lines = panel_lines();
    g_test_message("the lines after typing k's count:\n%s", lines);
    g_assert_nonnull(strstr(lines, "study variable k range 100 400 count 5 unit N/m\n"));
    xin_click(motus_window_study_button(win, "apply"));
    g_assert_true(wait_for(fifteen_cases, 5));
    f = motus_window_study_form(win); /* filled again from the model's new study */
    g_assert_cmpstr(gtk_editable_get_text(GTK_EDITABLE(motus_study_form_field(f, "var-count", 1))), ==, "5");
    xin_click(motus_study_form_field(f, "add-resp", 0));
    settle_for(0.3);
    g_assert_nonnull(motus_study_form_field(f, "resp-name", 5));
    g_test_message("a response without a column: %s", motus_study_form_message(f));
    g_assert_cmpstr(motus_study_form_message(f), !=, "");
    type_into(motus_study_form_field(f, "resp-column", 5), "mass.x");
    g_free(lines);
    lines = panel_lines();
    g_assert_nonnull(strstr(lines, "study response r6 max mass.x\n"));
    g_assert_cmpstr(motus_study_form_message(f), ==, "");
    xin_click(motus_study_form_field(f, "resp-remove", 5));
    settle_for(0.3);
    g_free(lines);
    lines = panel_lines();
    g_assert_null(strstr(lines, "r6"));
    g_assert_null(motus_study_form_field(f, "resp-name", 5));
    shot(motus_window_study_panel(win), "study-form.png");
    xin_focus(GTK_WIDGET(win));
    settle();
    xin_press("<Control>z");
    g_assert_true(wait_for(nine_cases, 5));
    gtk_window_destroy(GTK_WINDOW(motus_window_study_panel(win)));
    settle_for(0.2);
}

/* A study submitted to a real Slurm cluster (tests/study/slurm-gui.sh starts it and submits the 3 x 3
 * spring-mass study with motus-cli; the project in MOTUS_SLURM_PROJECT): the panel names the job and its
 * tasks' states; once squeue holds none, a click on Collect brings the nine cases in, each within 1e-8 of
 * the closed form. */
static const char *slurm_status(void)
{
    MotusStudyCluster *c = motus_window_study_cluster(win);
    return c ? motus_study_cluster_status(c) : "";
}
static gboolean job_named(void) { return g_str_has_prefix(slurm_status(), "Slurm job ") && !strstr(slurm_status(), "asking"); }
static gboolean job_ended(void) { return strstr(slurm_status(), "no task queued or running") != NULL; }
static gboolean collected(void)
{
    MotusStudyResults *r = motus_window_study_results(win);
    return strstr(slurm_status(), "Last collect: ") && r && motus_study_results_n(r) == 9;
}

static void test_slurm(void)
{
    open_model(g_getenv("MOTUS_SLURM_PROJECT"));
    open_panel();
    g_assert_true(wait_for(job_named, 20));
    g_test_message("%s", slurm_status());
    g_assert_true(wait_for(job_ended, 180));
    g_test_message("%s", slurm_status());
    g_assert_cmpint(motus_study_results_n(motus_window_study_results(win)), ==, 0); /* nothing collected yet */
    xin_click(motus_study_cluster_collect_button(motus_window_study_cluster(win)));
    g_assert_true(wait_for(collected, 60));
    g_test_message("%s", slurm_status());
    check_table(motus_window_study_results(win));
    settle_for(0.5);
    shot(motus_window_study_panel(win), "study-slurm.png");
    gtk_window_destroy(GTK_WINDOW(motus_window_study_panel(win)));
    settle_for(0.2);
}

int main(int argc, char **argv)
{
    ui_app_init(&argc, &argv, "org.motus.MotusStudyTest");
    if (g_getenv("MOTUS_SLURM_PROJECT")) g_test_add_func("/study/slurm", test_slurm); /* gui_study_slurm: that alone */
    else {
    g_test_add_func("/study/grid", test_grid);
    g_test_add_func("/study/stop", test_stop);
    g_test_add_func("/study/failed", test_failed);
    g_test_add_func("/study/optimise", test_optimise);
    g_test_add_func("/study/form", test_form);
    }
    return ui_app_finish(g_test_run());
}
