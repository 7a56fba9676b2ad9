/* The application's projects and editing in-process under Xvfb (ctest
 * gui_edit): a pendulum is built in a new project through the window's
 * actions (add a body, set its fields in the inspector, pick a joint in the
 * view, solver settings), run, and its period checked against the exact
 * formula; undo/redo; bad input refused beside the field; force elements and
 * sensors by picking; projects saved, reopened with their runs, saved as;
 * a run stopped midway leaves a consistent project. Screenshots stay in
 * build/tests/ui as artifacts. */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "motus-inspector.h"
#include "motus-plot.h"
#include "motus-model-tree.h"
#include "motus-viewport.h"
#include "motus-window.h"
#include "ui-test.h"
#include "motus/store.h"

static char *project_dir, *out_dir, *tmp_dir;
static int finished_calls;
static gboolean finished_ok;

static MotusInspector *inspector(void) { return MOTUS_INSPECTOR(motus_window_get_inspector(win)); }
static gboolean finished(void) { return finished_calls > 0; }
static gboolean some_frames(void) { return motus_window_get_n_frames(win) >= 300; }

static void on_finished(MotusWindow *w, gboolean ok, const char *msg, gpointer data)
{
    (void)w, (void)data;
    finished_calls++;
    finished_ok = ok;
    if (!ok) g_printerr("run: %s\n", msg);
}

static void activate(const char *action, GVariant *param)
{
    g_action_group_activate_action(G_ACTION_GROUP(win), action, param);
}

static void enter(const char *field, const char *text)
{
    if (!motus_inspector_enter(inspector(), field, text))
        g_error("field %s = '%s' refused: %s", field, text, motus_inspector_get_message(inspector(), field));
}

static void run_to_end(void)
{
    finished_calls = 0;
    activate("run", NULL);
    g_assert_true(wait_for(finished, 60));
    g_assert_true(finished_ok);
}

static void shoot(const char *name)
{
    wait_drawn();
    g_autofree char *png = g_build_filename(out_dir, name, NULL);
    g_autoptr(GError) error = NULL;
    g_assert_true(motus_window_save_screenshot(win, png, &error));
    g_print("screenshot: %s\n", png);
}

/* Widget point of a point of the project frame in the 3D view. */
static void screen_of(const double p[3], double *x, double *y)
{
    wait_drawn();
    g_assert_true(motus_viewport_project_point(viewport(), p, x, y));
}

/* Period from the downward crossings of the middle of the swing (linear
 * interpolation), and the amplitude from the sampled extremes. */
static double period_of(const double *t, const double *v, guint n, double *amp)
{
    double first = NAN, last = NAN, lo = INFINITY, hi = -INFINITY;
    int count = 0;
    for (guint i = 0; i < n; i++) lo = fmin(lo, v[i]), hi = fmax(hi, v[i]);
    *amp = (hi - lo) / 2;
    double mean = (hi + lo) / 2;
    for (guint i = 1; i < n; i++)
        if (v[i - 1] > mean && v[i] <= mean) {
            double tc = t[i - 1] + (t[i] - t[i - 1]) * (v[i - 1] - mean) / (v[i - 1] - v[i]);
            if (!count) first = tc;
            last = tc;
            count++;
        }
    return count > 1 ? (last - first) / (count - 1) : NAN;
}

static double agm(double a, double b)
{
    for (int i = 0; i < 60 && fabs(a - b) > 1e-17 * a; i++) {
        double an = 0.5 * (a + b);
        b = sqrt(a * b);
        a = an;
    }
    return a;
}

/* ---- a pendulum from nothing ------------------------------------------------------- */

static void test_pendulum_by_actions(void)
{
    activate("new", NULL);
    g_assert_null(motus_window_get_path(win));
    g_assert_cmpint(model()->nbody, ==, 0);
    g_assert_cmpfloat(model()->gravity[1], ==, -9.81);
    g_assert_false(motus_window_is_dirty(win));
    wait_drawn();

    /* a steel bar 20 x 500 x 20 mm hanging from the origin, turned out by 30 degrees */
    const double th = 30 * G_PI / 180, L = 0.5, a = 0.02;
    activate("add-body", g_variant_new_string("box"));
    g_assert_cmpint(model()->nbody, ==, 1);
    g_assert_true(motus_window_is_dirty(win));
    g_assert_cmpstr(motus_inspector_get_text(inspector(), "name"), ==, "body1");
    g_assert_cmpstr(motus_inspector_get_unit(inspector(), "density"), ==, "kg/m³");
    /* bad input: refused with the message beside the field, the model unchanged */
    g_autofree char *before = model_text();
    g_assert_false(motus_inspector_enter(inspector(), "position.0", "abc"));
    const char *msg = motus_inspector_get_message(inspector(), "position.0");
    g_print("refused: %s\n", msg);
    g_assert_nonnull(strstr(msg, "body1"));
    g_assert_nonnull(strstr(msg, "Position x"));
    g_assert_false(motus_inspector_enter(inspector(), "density", "-7850"));
    g_assert_nonnull(strstr(motus_inspector_get_message(inspector(), "density"), "body1"));
    g_assert_false(motus_inspector_enter(inspector(), "mass", "3")); /* computed from the density */
    g_autofree char *after = model_text();
    g_assert_cmpstr(before, ==, after);
    shoot("edit-refused.png");
    /* good input, with units */
    enter("name", "bar");
    char buf[64];
    g_snprintf(buf, sizeof buf, "%.17g", L / 2 * sin(th));
    enter("position.0", buf);
    g_snprintf(buf, sizeof buf, "%.17g mm", -1000 * L / 2 * cos(th));
    enter("position.1", buf);
    enter("orientation.2", "30 deg");
    g_assert_cmpstr(motus_inspector_get_message(inspector(), "position.0"), ==, "");
    /* the shape: 20 x 500 x 20 mm */
    motus_window_select_entity(win, MT_EDIT_SHAPE, 0);
    enter("size.0", "20 mm");
    enter("size.1", "0.5");
    enter("size.2", "20 mm");
    const MtBodySpec *b = &model()->body[0];
    double mass = 7850 * a * L * a;
    g_assert_cmpfloat(fabs(b->mass - mass), <, 1e-12 * mass);
    g_assert_cmpfloat(fabs(b->pos[1] + L / 2 * cos(th)), <, 1e-15);

    /* a revolute joint picked in the view: the bar, the ground (empty space), then a point near the pivot */
    activate("add-joint", g_variant_new_string("revolute"));
    g_assert_true(motus_window_is_picking(win));
    double x, y, bx, by;
    wait_drawn();
    g_assert_true(motus_viewport_project_body(viewport(), 0, &bx, &by));
    g_assert_true(motus_window_pick_click(win, bx, by));
    g_assert_true(motus_window_pick_click(win, 4, 4)); /* empty space: the ground */
    double origin[3] = {0, 0, 0};
    screen_of(origin, &x, &y);
    g_assert_true(motus_window_pick_click(win, x + 2, y - 2)); /* snaps to the top face centre / ground origin */
    g_assert_false(motus_window_is_picking(win));
    g_assert_cmpint(model()->njoint, ==, 1);
    const MtJointSpec *j = &model()->joint[0];
    g_assert_cmpint(j->type, ==, MT_JOINT_REVOLUTE);
    g_assert_cmpint(model()->marker[j->mi].body, ==, 0);
    g_assert_cmpint(model()->marker[j->mj].body, ==, MT_GROUND);
    /* the marker on the bar is at the centre of its top face: (0, L/2, 0) in the bar's axes */
    const double *mp = model()->marker[j->mi].pos;
    g_assert_cmpfloat(fabs(mp[0]) + fabs(mp[1] - L / 2) + fabs(mp[2]), <, 1e-12);
    g_assert_cmpfloat(fabs(model()->marker[j->mj].rot[8] - 1), <, 1e-15); /* axis z */
    shoot("edit-pendulum.png");

    /* solver settings in their dialog */
    GtkWidget *d = motus_window_show_solver_settings(win);
    MotusInspector *si = g_object_get_data(G_OBJECT(d), "inspector");
    g_assert_true(motus_inspector_enter(si, "method", "dp54"));
    g_assert_true(motus_inspector_enter(si, "rtol", "1e-10"));
    g_assert_true(motus_inspector_enter(si, "atol", "1e-12"));
    g_assert_true(motus_inspector_enter(si, "step", "5 ms"));
    g_assert_true(motus_inspector_enter(si, "until", "3"));
    g_assert_false(motus_inspector_enter(si, "step", "-1"));
    g_assert_nonnull(strstr(motus_inspector_get_message(si, "step"), "solver"));
    g_assert_cmpint(model()->solver.method, ==, MT_METHOD_DP54);
    gtk_window_destroy(GTK_WINDOW(d));

    run_to_end();
    double *t, *v;
    guint n = motus_window_get_column(win, "joint1.angle", &t, &v);
    g_assert_cmpuint(n, ==, 601);
    double amp, T = period_of(t, v, n, &amp);
    /* compound pendulum: I_O = m (a² + L²)/12 + m (L/2)², T0 = 2π √(I_O / (m g L/2)), exact amplitude factor */
    double IO = mass * (a * a + L * L) / 12 + mass * L * L / 4;
    double Tx = 2 * G_PI * sqrt(IO / (mass * 9.81 * L / 2)) / agm(1, cos(th / 2));
    g_print("period %.10f s, exact %.10f s, relative %.2e; amplitude %.6f rad (%.6f)\n", T, Tx, fabs(T / Tx - 1), amp, th);
    g_assert_cmpfloat(fabs(T / Tx - 1), <, 1e-6);
    g_assert_cmpfloat(fabs(amp - th), <, 1e-4); /* extremes fall between output frames 5 ms apart */
    g_free(t);
    g_free(v);
    motus_window_set_time(win, 0.4);
    shoot("edit-pendulum-run.png");

    /* undo the solver settings and the joint, then redo them: the same model, text for text */
    g_autofree char *full = model_text();
    int undos = 0;
    while (model()->njoint == 1) {
        g_assert_true(motus_window_undo(win));
        undos++;
    }
    g_assert_cmpint(undos, ==, 6); /* until, step, atol, rtol, method, then the joint */
    g_assert_cmpint(model()->nmarker, ==, 0);
    for (int i = 0; i < undos; i++) g_assert_true(motus_window_redo(win));
    g_assert_false(motus_window_redo(win));
    g_autofree char *again = model_text();
    g_assert_cmpstr(full, ==, again);
    activate("undo", NULL);
    g_assert_cmpfloat(model()->solver.until, !=, 3);
    activate("redo", NULL);
    g_assert_cmpfloat(model()->solver.until, ==, 3);

    /* a spring picked between a corner of the bar and the ground's origin, a sensor on the joint */
    activate("add-force", g_variant_new_string("spring"));
    double corner[3], cb[3] = {a / 2, -L / 2, a / 2};
    g_assert_true(motus_viewport_body_to_world(viewport(), 0, cb, corner));
    screen_of(corner, &x, &y);
    g_assert_true(motus_window_pick_click(win, x, y)); /* right on the corner (corners yield to face centres nearby) */
    double gp[3] = {0.3, 0, 0}; /* no ground point there: refused, still picking */
    screen_of(gp, &x, &y);
    g_assert_true(motus_window_pick_click(win, x, y));
    g_assert_true(motus_window_is_picking(win));
    screen_of(origin, &x, &y);
    g_assert_true(motus_window_pick_click(win, x + 5, y));
    g_assert_cmpint(model()->nspring, ==, 1);
    const MtSpringSpec *sp = &model()->spring[0];
    g_assert_cmpfloat(fabs(sp->length - sqrt(a * a / 2 + L * L)), <, 1e-12); /* corner to pivot */
    motus_window_select_entity(win, MT_EDIT_JOINT, 0);
    g_autoptr(GError) error = NULL;
    g_assert_true(motus_window_add_sensor(win, "position", &error));
    g_assert_cmpint(model()->nsensor, ==, 1);
    g_assert_cmpint(model()->sensor[0].kind, ==, MT_SENSOR_REACTION);
    /* delete the bar: its joint, spring and sensor go too; undo brings them back */
    motus_window_select_entity(win, MT_EDIT_BODY, 0);
    g_assert_true(motus_window_delete_selected(win, FALSE));
    g_assert_cmpint(model()->nbody + model()->njoint + model()->nspring + model()->nsensor, ==, 0);
    g_assert_true(motus_window_undo(win));
    g_assert_cmpint(model()->nbody + model()->njoint + model()->nspring + model()->nsensor, ==, 4);
    shoot("edit-spring.png");
}

/* ---- projects ------------------------------------------------------------------------- */

static char *tmp_path(const char *name) { return g_build_filename(tmp_dir, name, NULL); }

static void test_projects(void)
{
    /* the pendulum of the last test saved as a project: the run made before saving comes along, and the next
     * run is stored as it goes */
    g_autofree char *p1 = tmp_path("pendulum.motus");
    g_autoptr(GError) error = NULL;
    g_assert_false(motus_window_save(win, &error)); /* no file yet */
    g_clear_error(&error);
    g_assert_true(motus_window_save_as(win, p1, &error));
    g_assert_false(motus_window_is_dirty(win));
    g_assert_true(mt_store_is_sqlite_file(p1));
    run_to_end();
    MtError err = {0};
    MtStore *s = mt_store_open(p1, MT_STORE_READONLY, &err);
    g_assert_nonnull(s);
    MtRunInfo *runs;
    int nr = mt_store_list_runs(s, &runs, &err);
    g_assert_cmpint(nr, ==, 2);
    for (int i = 0; i < nr; i++) g_assert_cmpint(runs[i].status, ==, MT_RUN_FINISHED);
    g_assert_cmpint(runs[0].frames, >, 0);
    g_assert_cmpint(runs[nr - 1].frames, ==, 601);
    free(runs);
    mt_store_close(s);

    /* an edit, then the run: the model is saved first, so the run belongs to the project's model */
    motus_window_select_entity(win, MT_EDIT_SOLVER, 0);
    motus_window_select_entity(win, MT_EDIT_BODY, 0);
    enter("velocity.2", "0");
    enter("name", "link");
    g_assert_true(motus_window_is_dirty(win));
    run_to_end();
    g_assert_false(motus_window_is_dirty(win));

    /* reopened: the model and the newest run come back */
    activate("new", NULL);
    g_assert_cmpuint(motus_window_get_n_frames(win), ==, 0);
    open_model(p1);
    g_assert_cmpstr(model()->body[0].name, ==, "link");
    g_assert_cmpuint(motus_window_get_n_frames(win), ==, 601);
    double *t, *v;
    guint n = motus_window_get_column(win, "joint1.angle", &t, &v);
    g_assert_cmpuint(n, ==, 601);
    g_assert_cmpfloat(fabs(v[0]), <, 1e-12);
    g_free(t);
    g_free(v);
    motus_window_set_time(win, 1.0);
    shoot("project-reopened.png");

    /* save as: a copy with the runs; as text: the model only; text models still open */
    g_autofree char *p2 = tmp_path("copy.motus"), *p3 = tmp_path("copy.motus.txt");
    g_assert_true(motus_window_save_as(win, p2, &error));
    g_assert_cmpstr(motus_window_get_path(win), ==, p2);
    s = mt_store_open(p2, MT_STORE_READONLY, &err);
    g_assert_cmpint(mt_store_list_runs(s, &runs, &err), ==, 3); /* the run before saving, two after */
    free(runs);
    mt_store_close(s);
    g_assert_true(motus_window_save_as(win, p3, &error));
    MtModel *back = mt_model_load(p3, &err);
    g_assert_nonnull(back);
    g_assert_cmpstr(back->body[0].name, ==, "link");
    mt_model_free(back);
    open_model(p3);
    g_assert_cmpint(model()->njoint, ==, 1);
    /* a file that is not a model: refused, naming it; the open document stays */
    g_autoptr(GFile) bad = g_file_new_for_path("/nonexistent/x.motus");
    g_assert_false(motus_window_open_file(win, bad, &error));
    g_assert_nonnull(strstr(error->message, "/nonexistent/x.motus"));
    g_clear_error(&error);
    g_assert_cmpstr(motus_window_get_path(win), ==, p3);
}

/* A run stopped midway: the project stays consistent, the run is marked and its frames readable. */
static void test_cancelled_run(void)
{
    g_autofree char *src = g_build_filename(project_dir, "slider-crank.motus.txt", NULL);
    open_model(src);
    g_autofree char *p = tmp_path("stopped.motus");
    g_autoptr(GError) error = NULL;
    g_assert_true(motus_window_save_as(win, p, &error));
    motus_window_select_entity(win, MT_EDIT_SOLVER, 0);
    GtkWidget *d = motus_window_show_solver_settings(win);
    MotusInspector *si = g_object_get_data(G_OBJECT(d), "inspector");
    g_assert_true(motus_inspector_enter(si, "until", "1000"));
    gtk_window_destroy(GTK_WINDOW(d));
    finished_calls = 0;
    activate("run", NULL);
    g_assert_true(wait_for(some_frames, 30));
    activate("stop", NULL);
    g_assert_true(wait_for(finished, 20));
    g_assert_false(finished_ok);
    guint shown = motus_window_get_n_frames(win);
    MtError err = {0};
    MtStore *s = mt_store_open(p, 0, &err);
    g_assert_nonnull(s);
    g_assert_cmpint(mt_store_check(s, &err), ==, MT_OK);
    MtRunInfo *runs;
    g_assert_cmpint(mt_store_list_runs(s, &runs, &err), ==, 1);
    g_print("stopped run: status %s, '%s', %ld frames (%u shown), t %g .. %g\n", mt_run_status_name(runs[0].status),
            runs[0].message, runs[0].frames, shown, runs[0].t_first, runs[0].t_last);
    g_assert_cmpint(runs[0].status, ==, MT_RUN_INTERRUPTED);
    g_assert_nonnull(strstr(runs[0].message, "stopped by the user"));
    g_assert_cmpint(runs[0].frames, ==, shown); /* every frame shown was committed */
    MtFrameReader *rd = mt_frames_open(s, runs[0].id, &err);
    const double *last = mt_frames_get(rd, runs[0].frames - 1, &err);
    g_assert_nonnull(last);
    g_assert_cmpfloat(last[0], ==, runs[0].t_last);
    mt_frames_close(rd);
    MtModel *m = mt_store_load_model(s, NULL, &err);
    g_assert_nonnull(m);
    g_assert_cmpfloat(m->solver.until, ==, 1000);
    mt_model_free(m);
    free(runs);
    mt_store_close(s);
    /* reopened, the stopped run is shown */
    activate("new", NULL);
    open_model(p);
    g_assert_cmpuint(motus_window_get_n_frames(win), ==, shown);
}

/* Several plots, an X–Y plot, curves of two runs overlaid, the layout saved with the project, SVG export. */
static void test_plots(void)
{
    g_autofree char *src = g_build_filename(project_dir, "slider-crank.motus.txt", NULL);
    open_model(src);
    g_assert_cmpuint(motus_window_n_plots(win), ==, 1);
    run_to_end();
    MotusPlot *p0 = MOTUS_PLOT(motus_window_get_plot_n(win, 0));
    g_assert_cmpint(motus_plot_n_curves(p0), ==, 1); /* slide.disp */
    /* a second plot: the slider's stroke against the crank angle */
    g_assert_cmpuint(motus_window_add_plot(win), ==, 1);
    const char *cols[] = {"slide.disp", NULL};
    g_autoptr(GError) error = NULL;
    g_assert_true(motus_window_set_plot_columns(win, cols, &error));
    g_assert_true(motus_window_set_plot_x(win, "main.angle", &error));
    g_assert_false(motus_window_set_plot_x(win, "main.nothing", &error));
    g_clear_error(&error);
    const char *nine[] = {"main.angle", "main.wz", "main.Fx", "main.Fy", "main.Fz", "main.Tx", "main.Ty", "main.Tz", "slide.disp", NULL};
    g_assert_false(motus_window_set_plot_columns(win, nine, &error)); /* more than a plot keeps */
    g_assert_nonnull(strstr(error->message, "at most 8"));
    g_clear_error(&error);
    MotusPlot *p1 = MOTUS_PLOT(motus_window_get_plot_n(win, 1));
    g_assert_cmpuint(motus_plot_n_points(p1, 0), ==, 2001);
    double x, y;
    g_assert_true(motus_plot_get_point(p1, 0, 250, &x, &y)); /* t = 0.25 s: a quarter turn */
    g_assert_cmpfloat(fabs(x - G_PI / 2), <, 1e-6);
    /* crank r = 0.1, rod l = 0.3 at 90 degrees: x = sqrt(l² − r²) */
    g_assert_cmpfloat(fabs(y - sqrt(0.09 - 0.01)), <, 1e-6);
    /* the first plot keeps its curve for comparison; the motor at half speed; run again */
    motus_window_set_active_plot(win, 0);
    g_assert_cmpuint(motus_window_pin_curves(win), ==, 1);
    motus_window_select_entity(win, MT_EDIT_DRIVER, 0);
    enter("coef.1", "3.141592653589793"); /* rate law: angle = c0 + c1 t */
    run_to_end();
    g_assert_cmpint(motus_plot_n_curves(p0), ==, 2);
    /* a text model keeps its runs too (until saved as a project): the curve names its run */
    g_assert_nonnull(strstr(motus_plot_curve_name(p0, 1), "(run 1)"));
    double y0, y1, x0;
    /* every frame once: frames that arrive while a plot refills at the start of a run are not lost */
    g_assert_cmpuint(motus_plot_n_points(p0, 0), ==, 2001);
    g_assert_true(motus_plot_get_point(p0, 0, 500, &x0, &y0)); /* t = 0.5 s, now: a quarter turn */
    g_assert_true(motus_plot_get_point(p0, 1, 500, &x, &y1)); /* before: half a turn */
    g_assert_cmpfloat(fabs(x0 - 0.5), <, 1e-12);
    g_assert_cmpfloat(fabs(x - 0.5), <, 1e-12);
    g_assert_cmpfloat(fabs(y0 - sqrt(0.08)), <, 1e-6);
    g_assert_cmpfloat(fabs(y1 - 0.2), <, 1e-6);
    shoot("plots.png");
    g_autofree char *svg = tmp_path("plot.svg");
    g_assert_true(motus_plot_export_svg(p0, svg, 600, 300, &error));
    g_autofree char *text = NULL;
    g_assert_true(g_file_get_contents(svg, &text, NULL, NULL));
    g_assert_nonnull(strstr(text, "<svg"));
    /* the layout goes with the project */
    g_autofree char *proj = tmp_path("plots.motus");
    g_assert_true(motus_window_save_as(win, proj, &error));
    activate("new", NULL);
    g_assert_cmpuint(motus_window_n_plots(win), ==, 1);
    open_model(proj);
    g_assert_cmpuint(motus_window_n_plots(win), ==, 2);
    p1 = MOTUS_PLOT(motus_window_get_plot_n(win, 1));
    g_assert_cmpstr(motus_plot_curve_name(p1, 0), ==, "slide.disp");
    /* and with a text model, as its plot lines */
    g_autofree char *txt = tmp_path("plots.motus.txt");
    g_assert_true(motus_window_save_as(win, txt, &error));
    g_autofree char *saved = NULL;
    g_assert_true(g_file_get_contents(txt, &saved, NULL, NULL));
    g_assert_nonnull(strstr(saved, "\nplot slide.disp\nplot slide.disp against main.angle\n"));
    activate("new", NULL);
    open_model(txt);
    g_assert_cmpuint(motus_window_n_plots(win), ==, 2);
    p1 = MOTUS_PLOT(motus_window_get_plot_n(win, 1));
    g_assert_cmpstr(motus_plot_curve_name(p1, 0), ==, "slide.disp");
    /* a plot line naming a column the model lacks: the rest shown, the missing one said */
    g_autofree char *typo = g_strconcat(saved, "plot main.angel main.angle\n", NULL);
    g_assert_true(g_file_set_contents(txt, typo, -1, NULL));
    open_model(txt);
    g_assert_cmpuint(motus_window_n_plots(win), ==, 3);
    g_assert_nonnull(strstr(motus_window_get_status(win), "main.angel"));
    g_assert_cmpint(motus_plot_n_curves(MOTUS_PLOT(motus_window_get_plot_n(win, 2))), ==, 1);
    motus_window_set_active_plot(win, 1);
    g_assert_true(motus_window_remove_plot(win));
    g_assert_true(motus_window_remove_plot(win));
    g_assert_false(motus_window_remove_plot(win)); /* the last plot stays */
}

/* A motor and a torsion spring put on a selected joint through the window's
 * actions: the driver's rate typed with its unit in the inspector, the run
 * follows the law; nothing selected or a joint that cannot take it is refused. */
static void test_joint_driver(void)
{
    g_autofree char *src = g_build_filename(project_dir, "pendulum.motus.txt", NULL);
    open_model(src);
    motus_window_select_entity(win, MT_EDIT_BODY, 0);
    g_autoptr(GError) error = NULL;
    g_assert_false(motus_window_add_driver(win, &error));
    g_print("refused: %s\n", error->message);
    g_assert_nonnull(strstr(error->message, "select a joint"));
    g_clear_error(&error);
    motus_window_select_entity(win, MT_EDIT_JOINT, 0); /* pin */
    activate("add-driver", NULL);
    g_assert_cmpint(model()->ndriver, ==, 1);
    g_assert_cmpstr(motus_inspector_get_text(inspector(), "law"), ==, "rate");
    g_assert_cmpstr(motus_inspector_get_unit(inspector(), "coef.1"), ==, "rad/s");
    enter("coef.1", "90 deg/s");
    g_assert_cmpfloat(fabs(model()->driver[0].coef[1] - G_PI / 2), <, 1e-15);
    const char *cols[] = {"pin.angle", NULL};
    g_assert_true(motus_window_set_plot_columns(win, cols, &error));
    run_to_end();
    /* the driven angle: 0 at the start (the bob assembled onto the law), 90 deg/s × 2 s at the end */
    MotusPlot *p0 = MOTUS_PLOT(motus_window_get_plot_n(win, 0));
    guint n = motus_plot_n_points(p0, 0);
    double t, a;
    g_assert_true(motus_plot_get_point(p0, 0, 0, &t, &a));
    g_assert_cmpfloat(fabs(a), <, 1e-9);
    g_assert_true(motus_plot_get_point(p0, 0, n - 1, &t, &a));
    g_print("driven pin: %u frames, angle %.12g rad at t = %g s\n", n, a, t);
    g_assert_cmpfloat(fabs(t - 2), <, 1e-12);
    g_assert_cmpfloat(fabs(a - G_PI), <, 1e-6);
    /* a torsion spring in the same joint; a second driver there is refused, naming the first */
    motus_window_select_entity(win, MT_EDIT_JOINT, 0);
    activate("add-joint-force", g_variant_new_string("torsion"));
    g_assert_cmpint(model()->nforce, ==, 1);
    g_assert_cmpint(model()->force[0].joint, ==, 0);
    motus_window_select_entity(win, MT_EDIT_JOINT, 0);
    g_assert_false(motus_window_add_driver(win, &error));
    g_assert_nonnull(strstr(error->message, "driver1"));
    g_clear_error(&error);
    /* undone one by one */
    activate("undo", NULL);
    g_assert_cmpint(model()->nforce, ==, 0);
    activate("undo", NULL);
    activate("undo", NULL);
    g_assert_cmpint(model()->ndriver, ==, 0);
}

/* Playback for teaching: trajectory, velocity, acceleration and reaction
 * vectors of the simple pendulum (a 1 kg point on a 1 m rod released at 60°)
 * against energy conservation: v² = 2gL(cos θ − cos θ0), rod tension
 * T = m (3v²/(2L) + g cos θ0), a² = (v²/L)² + (g sin θ)²; the camera follows the bob. */
static double label_value(guint i)
{
    const char *l = motus_viewport_overlay_label(viewport(), i);
    g_assert_nonnull(l);
    const char *eq = strstr(l, "= ");
    g_assert_nonnull(eq);
    char *end;
    double v = g_ascii_strtod(eq + 2, &end);
    g_autofree char *unit = g_strstrip(g_strdup(end));
    const MtUnit *u = mt_unit_lookup(unit, MT_DIM_ANY); /* "m/s", "mm/s²", "kN": read back to SI */
    g_assert_nonnull(u);
    return mt_unit_to_si(u, v);
}

/* The value of the label that starts with prefix ("ω = "), read back to SI; NAN when there is none. */
static double labelled(const char *prefix)
{
    for (guint i = 0; i < motus_viewport_overlay_size(viewport()); i++) {
        const char *l = motus_viewport_overlay_label(viewport(), i);
        if (l && g_str_has_prefix(l, prefix)) return label_value(i);
    }
    return NAN;
}

/* Overlay items besides the scale bars. */
static guint shown_items(void)
{
    guint n = 0;
    for (guint i = 0; i < motus_viewport_overlay_size(viewport()); i++) {
        const char *l = motus_viewport_overlay_label(viewport(), i);
        if (!l || !g_str_has_prefix(l, "scale: ")) n++;
    }
    return n;
}

static void test_teaching(void)
{
    g_autofree char *src = g_build_filename(project_dir, "pendulum.motus.txt", NULL);
    open_model(src);
    run_to_end();
    motus_window_select_entity(win, MT_EDIT_BODY, 0);
    activate("show-trace", NULL);
    activate("show-velocity", NULL);
    activate("show-acceleration", NULL);
    activate("show-reactions", NULL);
    activate("follow", NULL);
    motus_window_set_time(win, 0.37);
    g_assert_cmpuint(shown_items(), ==, 4); /* trace, v, a, F (and the scale bars of v and a) */
    g_assert_cmpuint(motus_viewport_overlay_size(viewport()), ==, 6);
    double *t, *ke;
    guint n = motus_window_get_column(win, "system.kinetic", &t, &ke);
    guint i = 0;
    while (i + 1 < n && t[i + 1] <= 0.37 + 1e-12) i++;
    const double g = 9.81, L = 1, m = 1, c0 = 0.5;
    double v2 = 2 * ke[i] / m, cth = v2 / (2 * g * L) + c0, sth = sqrt(1 - cth * cth);
    double v = label_value(1), a = label_value(2), F = label_value(3);
    g_print("t = %.3f: v %.6g (energy %.6g), a %.6g (%.6g), F %.6g (%.6g)\n", t[i], v, sqrt(v2), a,
            hypot(v2 / L, g * sth), F, m * (1.5 * v2 / L + g * c0));
    g_assert_cmpfloat(fabs(v / sqrt(v2) - 1), <, 1e-3); /* labels carry 4 digits */
    g_assert_cmpfloat(fabs(a / hypot(v2 / L, g * sth) - 1), <, 1e-3);
    g_assert_cmpfloat(fabs(F / (m * (1.5 * v2 / L + g * c0)) - 1), <, 1e-3);
    g_free(t);
    g_free(ke);
    /* the camera is centred on the bob */
    wait_drawn();
    double bx, by, com[3];
    g_assert_true(motus_viewport_body_to_world(viewport(), 0, model()->body[0].com, com));
    g_assert_true(motus_viewport_project_point(viewport(), com, &bx, &by));
    GtkWidget *area = motus_viewport_get_gl_area(viewport());
    g_assert_cmpfloat(fabs(bx - gtk_widget_get_width(area) / 2.0), <, 2);
    g_assert_cmpfloat(fabs(by - gtk_widget_get_height(area) / 2.0), <, 2);
    activate("vector-scale", g_variant_new_string("2"));
    shoot("teaching.png");
    /* the labels of v, a and F were drawn apart from each other */
    double r[4][4];
    for (guint k = 1; k <= 3; k++) g_assert_true(motus_viewport_overlay_label_rect(viewport(), k, r[k]));
    for (guint k = 1; k <= 3; k++)
        for (guint j = 1; j < k; j++)
            g_assert_true(r[k][0] + r[k][2] <= r[j][0] || r[j][0] + r[j][2] <= r[k][0] || r[k][1] + r[k][3] <= r[j][1] ||
                          r[j][1] + r[j][3] <= r[k][1]);
    /* the acceleration split into its tangential and normal parts (g sin θ, v²/L); ω and ε of the bob */
    activate("split-acceleration", NULL);
    activate("show-omega", NULL);
    motus_window_set_time(win, 0.37);
    double an = labelled("an = "), at = labelled("aτ = "), om = labelled("ω = "), ep = labelled("ε = ");
    g_print("an %.6g (%.6g), at %.6g (%.6g), omega %.6g (%.6g), eps %.6g (%.6g)\n", an, v2 / L, at, g * sth, om,
            sqrt(v2) / L, ep, g * sth / L);
    g_assert_cmpfloat(fabs(an / (v2 / L) - 1), <, 2e-3);
    g_assert_cmpfloat(fabs(fabs(at) / (g * sth) - 1), <, 2e-3);
    g_assert_cmpfloat(fabs(om / (sqrt(v2) / L) - 1), <, 2e-3);
    g_assert_cmpfloat(fabs(ep / (g * sth / L) - 1), <, 2e-3);
    wait_drawn();
    shoot("teaching-split.png");
    activate("split-acceleration", NULL);
    activate("show-omega", NULL);
    activate("follow", NULL);
    activate("show-velocity", NULL);
    g_assert_cmpuint(shown_items(), ==, 3);
}

int main(int argc, char **argv)
{
    tmp_dir = g_dir_make_tmp("motus-test-edit-XXXXXX", NULL);
    g_setenv("XDG_CONFIG_HOME", tmp_dir, TRUE); /* the recent-projects list goes there */
    ui_test_init(&argc, &argv);
    project_dir = g_strdup(MOTUS_PROJECTS_DIR);
    out_dir = g_strdup(MOTUS_OUT_DIR);
    g_signal_connect(win, "run-finished", G_CALLBACK(on_finished), NULL);
    gtk_window_present(GTK_WINDOW(win));
    g_test_add_func("/edit/pendulum-by-actions", test_pendulum_by_actions);
    g_test_add_func("/edit/projects", test_projects);
    g_test_add_func("/edit/cancelled-run", test_cancelled_run);
    g_test_add_func("/edit/plots", test_plots);
    g_test_add_func("/edit/joint-driver", test_joint_driver);
    g_test_add_func("/edit/teaching", test_teaching);
    int rc = g_test_run();
    gtk_window_destroy(GTK_WINDOW(win));
    g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", tmp_dir);
    if (system(cmd) != 0) g_printerr("could not remove %s\n", tmp_dir);
    g_free(project_dir);
    g_free(out_dir);
    g_free(tmp_dir);
    return rc;
}
