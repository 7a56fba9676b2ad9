/* Flexible bodies in the main window, in-process under Xvfb (ctest
 * gui_flex_window): the flexible slider-crank's rod is drawn from its surface
 * and picked like any body; the modes dialog lists its modes with their
 * frequencies and animates the one selected (the drawn surface moves between
 * frames, and stops when the dialog closes); after a run the colour scale's
 * "run maximum" equals the largest displacement over every frame computed
 * independently from the result columns; the deformation scale moves the
 * drawn vertices in proportion; a mesh imported through the dialog is
 * reduced on a worker thread and placed as one undoable edit, a cancelled
 * import leaves the model as it was, and markers placed on its nodes (by
 * the pick tool too) join it after a new reduction. */
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "motus-inspector.h"
#include "motus-viewport.h"
#include "motus-window.h"
#include "ui-test.h"
#include "ui-wait.h"
#include "xinput.h"
#include <glib/gstdio.h>
#include <unistd.h>
#include "motus/flexedit.h"
#include "motus/flex.h"
#include "motus/flexview.h"

static int finished_calls;

static gboolean finished(void) { return finished_calls > 0; }
/* What the test reads of the model's first flexible body (zeros while it is not reduced). */
static MtFlexInfo flex0(void)
{
    MtFlexInfo fi = {0};
    const MtFlexBody *b = mt_model_flex_body(model(), 0);
    if (b) mt_flex_body_info(b, &fi);
    return fi;
}

static void on_finished(MotusWindow *w, gboolean ok, const char *msg, gpointer data)
{
    (void)w, (void)data;
    if (!ok) g_printerr("run failed: %s\n", msg);
    g_assert_true(ok);
    finished_calls++;
}


static int rod_body(void)
{
    for (int b = 0; b < model()->nbody; b++)
        if (!strcmp(model()->body[b].name, "rod")) return b;
    g_assert_not_reached();
}

static void test_open_and_pick(void)
{
    g_autofree char *path = g_build_filename(MOTUS_PROJECTS_DIR, "slider-crank-flex.motus.txt", NULL);
    open_model(path);
    wait_drawn();
    int rod = rod_body();
    MtFlexInfo fi = flex0(), *fb = &fi;
    g_assert_cmpint(motus_viewport_n_modal(viewport()), ==, fb->nmode);
    g_assert_cmpint(motus_viewport_flex_n_vertices(viewport(), rod), ==, fb->nsv);
    g_assert_true(g_action_group_get_action_enabled(G_ACTION_GROUP(win), "flex-modes"));
    /* the rod is picked where it is drawn (the flexible pick pass) */
    double x, y;
    g_assert_true(motus_viewport_project_body(viewport(), rod, &x, &y));
    g_assert_cmpint(motus_viewport_pick_at(viewport(), x, y), ==, rod);
}

static double peak_pos[3][3];
static void test_modes_dialog(void)
{
    int rod = rod_body();
    MtFlexInfo fi = flex0(), *fb = &fi;
    GtkWidget *d = motus_window_show_flex_modes(win, rod);
    g_assert_nonnull(d);
    GtkListBox *list = g_object_get_data(G_OBJECT(d), "list");
    int rows = 0;
    while (gtk_list_box_get_row_at_index(list, rows)) rows++;
    g_assert_cmpint(rows, ==, fb->nmode);
    /* the frequencies rise (the reduced body's eigenvalues, sorted) */
    for (int k = 1; k < fb->nmode; k++) g_assert_cmpfloat(fb->freq[k], >=, fb->freq[k - 1]);
    gtk_list_box_select_row(list, gtk_list_box_get_row_at_index(list, 1));
    g_assert_cmpint(motus_viewport_preview_body(viewport()), ==, rod);
    g_assert_cmpint(motus_viewport_preview_index(viewport()), ==, 1);
    /* animated: the most displaced vertex is drawn at different places a moment apart (three samples
     * a sixth of the period apart cannot all coincide) */
    double scale = motus_viewport_get_deformation_scale(viewport());
    wait_drawn();
    g_usleep(400000);
    wait_drawn();
    int v = motus_viewport_flex_peak_vertex(viewport(), rod);
    g_assert_cmpint(v, >=, 0);
    double moved = 0;
    for (int i = 0; i < 3; i++) {
        wait_drawn();
        g_assert_true(motus_viewport_flex_vertex(viewport(), rod, v, scale, peak_pos[i]));
        for (int j = 0; j < i; j++)
            moved = fmax(moved, sqrt(pow(peak_pos[i][0] - peak_pos[j][0], 2) + pow(peak_pos[i][1] - peak_pos[j][1], 2) +
                                     pow(peak_pos[i][2] - peak_pos[j][2], 2)));
        g_usleep(270000);
    }
    g_test_message("mode 2: vertex %d moved %.4g m between frames", v, moved);
    g_assert_cmpfloat(moved, >, 1e-3); /* of a full swing of 2 x 0.03 m */
    /* the shape is shown at a tenth of the rod's size whatever the scale */
    double lo, hi;
    motus_viewport_set_colour_field(viewport(), MOTUS_FIELD_DISPLACEMENT);
    g_assert_true(motus_viewport_get_colour_range(viewport(), &lo, &hi));
    g_assert_cmpfloat(hi, >, 0.01 * 0.3);
    g_assert_cmpfloat(hi, <, 0.2 * 0.3);
    gtk_window_destroy(GTK_WINDOW(d));
    g_assert_cmpint(motus_viewport_preview_body(viewport()), ==, -1);
}

static void test_run_range(void)
{
    int rod = rod_body();
    g_autoptr(GError) error = NULL;
    g_assert_true(motus_window_set_field(win, MT_EDIT_SOLVER, 0, "until", "0.25", &error));
    motus_viewport_set_colour_field(viewport(), MOTUS_FIELD_DISPLACEMENT);
    motus_viewport_set_colour_range(viewport(), MOTUS_RANGE_RUN, 0, 0);
    finished_calls = 0;
    g_assert_true(motus_window_run(win, &error));
    g_assert_true(wait_for(finished, 60));
    /* the largest displacement over the frames, from the result columns rod.w1 … rod.wN */
    MtFlexInfo fi = flex0(), *fb = &fi;
    int N = fb->nmode;
    double *t = NULL, **w = g_new0(double *, N);
    guint n = 0;
    for (int k = 0; k < N; k++) {
        char name[32];
        g_snprintf(name, sizeof name, "rod.w%d", k + 1);
        g_free(t);
        n = motus_window_get_column(win, name, &t, &w[k]);
        g_assert_cmpuint(n, >, 100);
    }
    double mx = 0, wk[64], rig[6];
    for (guint i = 0; i < n; i++) {
        for (int k = 0; k < N; k++) wk[k] = w[k][i];
        mt_flexview_support_motion(mt_model_flex_body(model(), 0), wk, rig);
        mx = fmax(mx, mt_flexview_field(mt_model_flex_body(model(), 0), wk, rig, MT_FLEXFIELD_DISPLACEMENT, NULL));
    }
    double lo, hi;
    g_assert_true(motus_viewport_get_colour_range(viewport(), &lo, &hi));
    g_test_message("run maximum of the rod's displacement: %.6g m (view %.6g m)", mx, hi);
    g_assert_cmpfloat(mx, >, 1e-5); /* the rod bends (0.1 mm and more) */
    g_assert_cmpfloat(fabs(hi - mx), <=, 1e-9 * mx);
    g_assert_cmpfloat(lo, ==, 0);
    g_assert_cmpstr(motus_viewport_legend_unit(viewport()), ==, "mm");
    /* the run proposed a deformation scale that shows the largest deformation as a twentieth of the rod
     * (1, 2 or 5 x 10^k below 0.05 size / max), since none was chosen; the field was chosen (displacement) */
    double want = 0.05 * mt_flexview_size(mt_model_flex_body(model(), 0)) / mx, p10 = pow(10, floor(log10(want)));
    want = p10 * (want / p10 >= 5 ? 5 : want / p10 >= 2 ? 2 : 1);
    g_test_message("proposed deformation scale x%g (largest %.3g m)", motus_viewport_get_deformation_scale(viewport()), mx);
    g_assert_cmpfloat(want, >, 1);
    g_assert_cmpfloat(fabs(motus_viewport_get_deformation_scale(viewport()) - want), <=, 1e-12 * want);
    g_assert_nonnull(strstr(motus_window_get_status(win), "deformation shown"));
    g_assert_null(motus_viewport_legend_note(viewport()));
    /* a beam has no surface stress: the legend says so instead of a bar from 0 to 0 */
    motus_viewport_set_colour_field(viewport(), MOTUS_FIELD_VONMISES);
    g_assert_nonnull(strstr(motus_viewport_legend_note(viewport()), "beam"));
    motus_viewport_set_colour_field(viewport(), MOTUS_FIELD_DISPLACEMENT);
    g_assert_null(motus_viewport_legend_note(viewport()));
    /* the frame shown: its range is no more than the run's; a fixed range is kept */
    motus_window_set_time(win, 0.2);
    motus_viewport_set_colour_range(viewport(), MOTUS_RANGE_FRAME, 0, 0);
    double flo, fhi;
    g_assert_true(motus_viewport_get_colour_range(viewport(), &flo, &fhi));
    g_assert_cmpfloat(fhi, <=, hi * (1 + 1e-12));
    g_assert_cmpfloat(fhi, >, 0);
    motus_viewport_set_colour_range(viewport(), MOTUS_RANGE_FIXED, 0, 2e-3);
    g_assert_true(motus_viewport_get_colour_range(viewport(), &flo, &fhi));
    g_assert_cmpfloat(fhi, ==, 2e-3);
    /* the deformation scale moves the drawn vertices in proportion */
    int v = motus_viewport_flex_peak_vertex(viewport(), rod);
    double p0[3], p1[3], p100[3];
    g_assert_true(motus_viewport_flex_vertex(viewport(), rod, v, 0, p0));
    g_assert_true(motus_viewport_flex_vertex(viewport(), rod, v, 1, p1));
    g_assert_true(motus_viewport_flex_vertex(viewport(), rod, v, 100, p100));
    for (int c = 0; c < 3; c++) g_assert_cmpfloat(fabs((p100[c] - p0[c]) - 100 * (p1[c] - p0[c])), <, 1e-9);
    motus_viewport_set_deformation_scale(viewport(), 100);
    wait_drawn();
    for (int k = 0; k < N; k++) g_free(w[k]);
    g_free(w);
    g_free(t);
}

static gboolean idle_job(void) { return !motus_window_flex_busy(win); }

static void test_import(void)
{
    motus_window_new_project(win);
    g_assert_cmpint(model()->nbody, ==, 0);
    g_autofree char *mesh = g_build_filename(MOTUS_PROJECTS_DIR, "meshes", "strut.msh", NULL);
    GtkWidget *d = motus_window_import_mesh(win, NULL);
    g_assert_nonnull(d);
    gtk_editable_set_text(GTK_EDITABLE(g_object_get_data(G_OBJECT(d), "file")), mesh);
    const char *info = gtk_label_get_text(GTK_LABEL(g_object_get_data(G_OBJECT(d), "info")));
    g_test_message("import dialog: %s", info);
    g_assert_nonnull(strstr(info, "tet10"));
    g_assert_cmpstr(gtk_editable_get_text(GTK_EDITABLE(g_object_get_data(G_OBJECT(d), "name"))), ==, "strut");
    gtk_spin_button_set_value(GTK_SPIN_BUTTON(g_object_get_data(G_OBJECT(d), "modes")), 4);
    /* a bad density is refused in the dialog, naming it */
    GtkEditable *rho = g_object_get_data(G_OBJECT(d), "ρ");
    gtk_editable_set_text(rho, "7850 kg");
    g_signal_emit_by_name(g_object_get_data(G_OBJECT(d), "import"), "clicked");
    g_assert_false(motus_window_flex_busy(win));
    g_assert_nonnull(strstr(gtk_label_get_text(GTK_LABEL(g_object_get_data(G_OBJECT(d), "message"))), "ρ"));
    gtk_editable_set_text(rho, "7850");
    g_signal_emit_by_name(g_object_get_data(G_OBJECT(d), "import"), "clicked");
    g_assert_true(motus_window_flex_busy(win));
    g_assert_false(g_action_group_get_action_enabled(G_ACTION_GROUP(win), "run"));
    g_assert_true(wait_for(idle_job, 90));
    g_assert_cmpint(model()->nbody, ==, 1);
    g_assert_cmpstr(model()->body[0].name, ==, "strut");
    g_assert_nonnull(mt_model_flex_body(model(), 0));
    g_assert_cmpint(flex0().nmode, ==, 4);
    g_assert_cmpfloat(fabs(model()->body[0].mass - 34.68), <, 0.05); /* the steel tube */
    g_assert_cmpint(motus_viewport_n_modal(viewport()), ==, 4);
    g_assert_nonnull(strstr(motus_window_get_status(win), "strut"));
    /* one edit: undo removes the body, redo brings it back reduced */
    g_assert_true(motus_window_undo(win));
    g_assert_cmpint(model()->nbody, ==, 0);
    g_assert_true(motus_window_redo(win));
    g_assert_cmpint(model()->nbody, ==, 1);
    g_assert_nonnull(mt_model_flex_body(model(), 0));

    /* a cancelled import leaves the model as it was */
    MtFlexMeshDef def;
    mt_flex_mesh_def_default(&def);
    g_strlcpy(def.file, mesh, sizeof def.file);
    g_autoptr(GError) error = NULL;
    g_assert_true(motus_window_import_mesh_def(win, &def, &error));
    motus_window_flex_cancel(win);
    g_assert_true(wait_for(idle_job, 90));
    g_assert_cmpint(model()->nbody, ==, 1);
    g_assert_nonnull(strstr(motus_window_get_status(win), "cancelled"));

    /* a spider marker at the bottom ring's centre: an interface node after the new reduction */
    double centre[3] = {0, 0, 0};
    g_assert_true(motus_window_add_flex_marker(win, 0, 0, centre, 0.072, &error));
    g_assert_true(wait_for(idle_job, 90));
    g_assert_cmpint(model()->nmarker, ==, 1);
    g_assert_cmpstr(model()->marker[0].name, ==, "spider1");
    g_assert_cmpint(flex0().nif, ==, 1);
    /* the pick tool: a click on a surface node drawn on screen makes a marker riding on that node */
    wait_drawn();
    motus_viewport_view_preset(viewport(), MOTUS_VIEW_FRONT);
    motus_viewport_fit_all(viewport());
    wait_drawn();
    MtFlexInfo fi = flex0(), *fb = &fi;
    int v = -1;
    double x = 0, y = 0, p[3];
    for (int k = 0; k < fb->nsv && v < 0; k++) /* a vertex on the front face, half way up */
        if (fb->sv_x[3 * k + 2] > 0.069 && fabs(fb->sv_x[3 * k + 1] - 0.4) < 0.03 && fabs(fb->sv_x[3 * k]) < 0.01) v = k;
    g_assert_cmpint(v, >=, 0);
    g_assert_true(motus_viewport_flex_vertex(viewport(), 0, v, 0, p));
    g_assert_true(motus_viewport_project_point(viewport(), p, &x, &y));
    g_action_group_activate_action(G_ACTION_GROUP(win), "add-flex-marker", NULL);
    g_assert_true(motus_window_is_picking(win));
    g_assert_true(motus_window_pick_click(win, x, y));
    g_assert_true(wait_for(idle_job, 90));
    g_assert_cmpint(model()->nmarker, ==, 2);
    g_test_message("picked node %d: marker '%s'", fb->sv_id[v], model()->marker[1].name);
    g_assert_cmpint(model()->marker[1].node, ==, fb->sv_id[v]);
    g_assert_true(motus_window_undo(win));
    g_assert_cmpint(model()->nmarker, ==, 1);
}

static gboolean is_spin(GtkWidget *w, gconstpointer data)
{
    (void)data;
    return GTK_IS_SPIN_BUTTON(w) && gtk_widget_get_mapped(w);
}
static gboolean scale_is_50(void) { return motus_viewport_get_deformation_scale(viewport()) == 50; }

/* The view kept with the model: the landing gear's `view` line opens it at ×300 in von Mises stress; the
 * deformation scale typed in its box (real keys) is written back by Save and read on the next opening. */
static void test_view_kept(void)
{
    g_autofree char *src = g_build_filename(MOTUS_PROJECTS_DIR, "landing-gear-flex.motus.txt", NULL);
    g_autofree char *dir = g_dir_make_tmp("motus-view-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "gear.motus.txt", NULL), *text = NULL;
    g_assert_true(g_file_get_contents(src, &text, NULL, NULL));
    g_assert_true(g_file_set_contents(path, text, -1, NULL));
    g_autofree char *meshes = g_build_filename(MOTUS_PROJECTS_DIR, "meshes", NULL), *link = g_build_filename(dir, "meshes", NULL);
    g_assert_cmpint(symlink(meshes, link), ==, 0); /* the housing's mesh, relative to the model */
    open_model(path);
    g_assert_true(wait_for(idle_job, 90)); /* the housing is reduced */
    g_assert_cmpfloat(motus_viewport_get_deformation_scale(viewport()), ==, 300);
    g_assert_cmpint(motus_viewport_get_colour_field(viewport()), ==, MOTUS_FIELD_VONMISES);
    /* the housing's centre of mass from its mesh: x is rounding beside y = 0.375 m and reads 0, not -4.03e-08 */
    int hb = mt_model_find_body(model(), "housing");
    motus_window_select_entity(win, MT_EDIT_BODY, hb);
    MotusInspector *insp = MOTUS_INSPECTOR(motus_window_get_inspector(win));
    g_test_message("housing CoM x %.6g m shown as '%s' %s", model()->body[hb].com[0], motus_inspector_get_text(insp, "com.0"),
                   motus_inspector_get_unit(insp, "com.0"));
    g_assert_cmpfloat(fabs(model()->body[hb].com[0]), <, 1e-6);
    g_assert_cmpstr(motus_inspector_get_text(insp, "com.0"), ==, "0");
    g_assert_cmpstr(motus_inspector_get_text(insp, "com.1"), ==, "0.375");
    g_assert_cmpint(motus_viewport_get_range_mode(viewport()), ==, MOTUS_RANGE_RUN);
    /* typed: 50, Enter */
    xin_focus(GTK_WIDGET(win));
    GtkWidget *spin = xin_find(GTK_WIDGET(viewport()), is_spin, NULL);
    g_assert_nonnull(spin);
    g_assert_true(gtk_widget_grab_focus(spin));
    settle_for(0.2);
    xin_press("<Control>a");
    xin_type("50");
    xin_press("Return");
    g_assert_true(wait_for(scale_is_50, 5));
    g_autoptr(GError) error = NULL;
    g_assert_true(motus_window_save(win, &error));
    g_assert_no_error(error);
    g_autofree char *saved = NULL;
    g_assert_true(g_file_get_contents(path, &saved, NULL, NULL));
    g_assert_nonnull(strstr(saved, "\nview deformation 50 colour stress range run camera right focus housing\n"));
    /* another model, then this one again: ×50 */
    g_autofree char *other = g_build_filename(MOTUS_PROJECTS_DIR, "pendulum.motus.txt", NULL);
    open_model(other);
    open_model(path);
    g_assert_true(wait_for(idle_job, 90));
    g_assert_cmpfloat(motus_viewport_get_deformation_scale(viewport()), ==, 50);
    g_assert_cmpint(motus_viewport_get_colour_field(viewport()), ==, MOTUS_FIELD_VONMISES);
    g_unlink(path);
    g_unlink(link);
    g_rmdir(dir);
}

int main(int argc, char **argv)
{
    ui_test_init(&argc, &argv);
    g_signal_connect(win, "run-finished", G_CALLBACK(on_finished), NULL);
    gtk_window_present(GTK_WINDOW(win));
    g_test_add_func("/flex/open-and-pick", test_open_and_pick);
    g_test_add_func("/flex/modes-dialog", test_modes_dialog);
    g_test_add_func("/flex/run-range", test_run_range);
    g_test_add_func("/flex/import", test_import);
    g_test_add_func("/flex/view-kept", test_view_kept);
    int rc = g_test_run();
    gtk_window_destroy(GTK_WINDOW(win));
    return rc;
}
