/* The move/rotate gizmo in the main window, in-process under Xvfb (ctest
 * gui_gizmo), on the slider-crank seen from the front (x right, y up, z at
 * the viewer):
 * - a drag of 60 px along the x arrow of the selected body moves its initial
 *   position by 60 px over the pixels per metre of the x axis on screen
 *   (projected independently here), as one edit; the inspector follows; one
 *   undo restores the exact text of the model;
 * - with Ctrl (snap) the move is a whole number of millimetres;
 * - a drag of 30° about the centre of the z ring turns the body by 30° about
 *   project z (32° with Ctrl gives 30°), one undo each;
 * - a marker moves along its body's axes (its position in the body);
 * - the gizmo hides while a run goes and while a frame of the run is shown;
 *   asking for it again shows the model as built with the gizmo.
 * Screenshots gizmo_move.png and gizmo_turn.png stay in build/tests/ui; the
 * x arrow is checked to be drawn in its colour where it should be. */
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "motus-inspector.h"
#include "motus-viewport.h"
#include "motus-window.h"
#include "ui-test.h"

static int finished_calls;

static gboolean finished(void) { return finished_calls > 0; }
static gboolean running_with_frames(void) { return motus_window_get_n_frames(win) >= 50; }

static void on_finished(MotusWindow *w, gboolean ok, const char *msg, gpointer data)
{
    (void)w, (void)ok, (void)msg, (void)data;
    finished_calls++;
}

static void activate(const char *action, GVariant *param)
{
    g_action_group_activate_action(G_ACTION_GROUP(win), action, param);
}

static int body_index(const char *name)
{
    for (int b = 0; b < model()->nbody; b++)
        if (!strcmp(model()->body[b].name, name)) return b;
    g_error("no body %s", name);
    return -1;
}

/* A drag on the gizmo from (x0, y0) to (x1, y1), as the view's gesture does it. */
static void drag(double x0, double y0, double x1, double y1, gboolean snap)
{
    wait_drawn();
    g_assert_true(motus_viewport_gizmo_begin(viewport(), x0, y0));
    motus_viewport_gizmo_update(viewport(), (x0 + x1) / 2, (y0 + y1) / 2, snap); /* on the way */
    motus_viewport_gizmo_update(viewport(), x1, y1, snap);
    motus_viewport_gizmo_end(viewport());
}

/* Pixels per metre along a project axis at point p, and its direction on screen. */
static double axis_on_screen(const double p[3], const double axis[3], double *sx, double *sy)
{
    double q[3], x0, y0, x1, y1, h = 0.01;
    for (int i = 0; i < 3; i++) q[i] = p[i] + h * axis[i];
    g_assert_true(motus_viewport_project_point(viewport(), p, &x0, &y0));
    g_assert_true(motus_viewport_project_point(viewport(), q, &x1, &y1));
    double len = hypot(x1 - x0, y1 - y0);
    *sx = (x1 - x0) / len, *sy = (y1 - y0) / len;
    return len / h;
}

/* The turn about project z from R0 to R (R·R0ᵀ), rad. */
static double turn_about_z(const double R0[9], const double R[9])
{
    double T[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) T[3 * i + j] = R[3 * i] * R0[3 * j] + R[3 * i + 1] * R0[3 * j + 1] + R[3 * i + 2] * R0[3 * j + 2];
    g_assert_cmpfloat(fabs(T[8] - 1), <, 1e-9); /* about z only */
    return atan2(T[3], T[0]);
}

/* The reddest colour of a window screenshot within 2 px of a point of the 3D view. */
static void shot_pixel(const char *png, double vx, double vy, guchar rgb[3])
{
    GtkWidget *area = motus_viewport_get_gl_area(viewport());
    graphene_point_t p = GRAPHENE_POINT_INIT((float)vx, (float)vy), out;
    g_assert_true(gtk_widget_compute_point(area, GTK_WIDGET(win), &p, &out));
    g_autoptr(GdkTexture) tex = gdk_texture_new_from_filename(png, NULL);
    g_assert_nonnull(tex);
    int w = gdk_texture_get_width(tex), h = gdk_texture_get_height(tex);
    guchar *px = g_malloc((gsize)w * h * 4);
    gdk_texture_download(tex, px, (gsize)w * 4);
    int x = (int)lround(out.x), y = (int)lround(out.y), best = -1000;
    for (int j = MAX(0, y - 2); j <= MIN(h - 1, y + 2); j++)
        for (int i = MAX(0, x - 2); i <= MIN(w - 1, x + 2); i++) {
            const guchar *q = px + ((gsize)j * w + i) * 4; /* B G R A */
            if (q[2] - q[1] - q[0] > best) best = q[2] - q[1] - q[0], rgb[0] = q[2], rgb[1] = q[1], rgb[2] = q[0];
        }
    g_free(px);
}

static void shoot(const char *name, char **path)
{
    wait_drawn();
    *path = g_build_filename(MOTUS_OUT_DIR, name, NULL);
    g_autoptr(GError) error = NULL;
    g_assert_true(motus_window_save_screenshot(win, *path, &error));
    g_print("screenshot: %s\n", *path);
}

static void test_move(void)
{
    int b = body_index("rod");
    motus_window_select_entity(win, MT_EDIT_BODY, b);
    activate("view-front", NULL);
    activate("gizmo", g_variant_new_string("move"));
    wait_drawn();
    g_assert_cmpint(motus_viewport_get_gizmo(viewport()), ==, MOTUS_GIZMO_MOVE);

    /* the screenshot shows the x arrow in red at its grab point */
    double gx, gy;
    g_assert_true(motus_viewport_gizmo_point(viewport(), 0, &gx, &gy));
    g_autofree char *png = NULL;
    shoot("gizmo_move.png", &png);
    guchar rgb[3] = {0, 0, 0};
    shot_pixel(png, gx, gy, rgb);
    g_test_message("x arrow pixel %d %d %d", rgb[0], rgb[1], rgb[2]);
    g_assert_cmpint(rgb[0], >, 150);
    g_assert_cmpint(rgb[1], <, 100);
    g_assert_cmpint(rgb[2], <, 100);

    /* 60 px along the arrow */
    g_autofree char *before = model_text();
    const double x0 = model()->body[b].pos[0], ex[3] = {1, 0, 0};
    double sx, sy, ppm = axis_on_screen(model()->body[b].pos, ex, &sx, &sy);
    g_test_message("x axis: %.2f px/m on screen, direction (%.3f, %.3f)", ppm, sx, sy);
    drag(gx, gy, gx + 60 * sx, gy + 60 * sy, FALSE);
    double moved = model()->body[b].pos[0] - x0;
    g_test_message("moved %.6f m, expected %.6f m", moved, 60 / ppm);
    g_assert_cmpfloat(fabs(moved - 60 / ppm), <, 1e-4 * (60 / ppm));
    g_assert_cmpfloat(model()->body[b].pos[1], ==, 0); /* only x */
    /* the inspector follows: it shows the new position */
    MotusInspector *insp = MOTUS_INSPECTOR(motus_window_get_inspector(win));
    char shown[64];
    MtError err = {0};
    g_assert_cmpint(mt_edit_get_field(model(), MT_EDIT_BODY, b, "position.0", shown, sizeof shown, &err), ==, MT_OK);
    g_test_message("inspector shows '%s', the field is '%s'", motus_inspector_get_text(insp, "position.0"), shown);
    g_assert_true(g_str_has_prefix(shown, motus_inspector_get_text(insp, "position.0"))); /* "0.139131" of "0.139131 m" */
    g_assert_cmpfloat(fabs(g_ascii_strtod(motus_inspector_get_text(insp, "position.0"), NULL) - (x0 + moved)), <, 1e-5);
    /* one edit: one undo gives the model back, text for text */
    g_assert_true(motus_window_undo(win));
    g_autofree char *undone = model_text();
    g_assert_cmpstr(undone, ==, before);

    /* with Ctrl: whole millimetres */
    wait_drawn();
    g_assert_true(motus_viewport_gizmo_point(viewport(), 0, &gx, &gy));
    drag(gx, gy, gx + 37 * sx, gy + 37 * sy, TRUE);
    double snapped = model()->body[b].pos[0] - x0, mm = snapped * 1e3;
    g_test_message("snapped move %.9f m (unsnapped %.6f m)", snapped, 37 / ppm);
    g_assert_cmpfloat(fabs(mm - round(mm)), <, 1e-9);
    g_assert_cmpfloat(fabs(snapped - 37 / ppm), <=, 0.5e-3 + 1e-9);
    g_assert_true(motus_window_undo(win));
}

static void test_turn(void)
{
    int b = body_index("crank");
    motus_window_select_entity(win, MT_EDIT_BODY, b);
    activate("gizmo", g_variant_new_string("turn"));
    wait_drawn();
    g_assert_cmpint(motus_viewport_get_gizmo(viewport()), ==, MOTUS_GIZMO_TURN);
    g_autofree char *png = NULL;
    shoot("gizmo_turn.png", &png);
    g_autofree char *before = model_text();
    double R0[9];
    memcpy(R0, model()->body[b].rot, sizeof R0);

    /* z points at the viewer: 30° counter-clockwise about the ring's centre is +30° about z */
    double ox, oy, gx, gy;
    g_assert_true(motus_viewport_project_point(viewport(), model()->body[b].pos, &ox, &oy));
    g_assert_true(motus_viewport_gizmo_point(viewport(), 2, &gx, &gy));
    double r = hypot(gx - ox, gy - oy), a0 = atan2(-(gy - oy), gx - ox), a1 = a0 + 30 * G_PI / 180;
    drag(gx, gy, ox + r * cos(a1), oy - r * sin(a1), FALSE);
    double turned = turn_about_z(R0, model()->body[b].rot) * 180 / G_PI;
    g_test_message("turned %.6f deg, expected 30", turned);
    g_assert_cmpfloat(fabs(turned - 30), <, 0.05);
    g_assert_cmpstr(mt_editor_undo_label(motus_window_get_editor(win)), ==, "turn body 'crank'");
    g_assert_true(motus_window_undo(win));
    g_autofree char *undone = model_text();
    g_assert_cmpstr(undone, ==, before);

    /* with Ctrl: 32° gives 30° */
    wait_drawn();
    g_assert_true(motus_viewport_gizmo_point(viewport(), 2, &gx, &gy));
    a1 = a0 + 32 * G_PI / 180;
    drag(gx, gy, ox + r * cos(a1), oy - r * sin(a1), TRUE);
    turned = turn_about_z(R0, model()->body[b].rot) * 180 / G_PI;
    g_test_message("snapped turn %.9f deg", turned);
    g_assert_cmpfloat(fabs(turned - 30), <, 1e-9);
    g_assert_true(motus_window_undo(win));
}

static void test_marker(void)
{
    /* the first marker of the rod: moved along the rod's x axis, its position in the rod changes */
    int b = body_index("rod"), mk = -1;
    for (int i = 0; i < model()->nmarker && mk < 0; i++)
        if (model()->marker[i].body == b) mk = i;
    g_assert_cmpint(mk, >=, 0);
    motus_window_select_entity(win, MT_EDIT_MARKER, mk);
    activate("gizmo", g_variant_new_string("move"));
    wait_drawn();
    g_assert_cmpint(motus_viewport_get_gizmo(viewport()), ==, MOTUS_GIZMO_MOVE);
    g_autofree char *before = model_text();
    double at0[3], gx, gy, sx, sy;
    memcpy(at0, model()->marker[mk].pos, sizeof at0);
    double p[3], ax[3];
    const double *R = model()->body[b].rot, *x = model()->body[b].pos;
    for (int i = 0; i < 3; i++) {
        p[i] = x[i] + R[3 * i] * at0[0] + R[3 * i + 1] * at0[1] + R[3 * i + 2] * at0[2];
        ax[i] = R[3 * i]; /* the rod's x axis, project axes */
    }
    double ppm = axis_on_screen(p, ax, &sx, &sy);
    g_assert_true(motus_viewport_gizmo_point(viewport(), 0, &gx, &gy));
    drag(gx, gy, gx - 40 * sx, gy - 40 * sy, FALSE);
    double moved = model()->marker[mk].pos[0] - at0[0];
    g_test_message("marker moved %.6f m in the rod, expected %.6f", moved, -40 / ppm);
    g_assert_cmpfloat(fabs(moved + 40 / ppm), <, 1e-3 * (40 / ppm));
    g_assert_cmpfloat(model()->marker[mk].pos[1], ==, at0[1]);
    g_assert_true(motus_window_undo(win));
    g_autofree char *undone = model_text();
    g_assert_cmpstr(undone, ==, before);
    /* a marker has no rings */
    activate("gizmo", g_variant_new_string("turn"));
    g_assert_cmpint(motus_viewport_get_gizmo(viewport()), ==, MOTUS_GIZMO_OFF);
}

static void test_hidden_during_motion(void)
{
    int b = body_index("rod");
    motus_window_select_entity(win, MT_EDIT_BODY, b);
    activate("gizmo", g_variant_new_string("move"));
    g_assert_cmpint(motus_viewport_get_gizmo(viewport()), ==, MOTUS_GIZMO_MOVE);
    finished_calls = 0;
    activate("run", NULL);
    g_assert_true(wait_for(running_with_frames, 30));
    g_assert_cmpint(motus_viewport_get_gizmo(viewport()), ==, MOTUS_GIZMO_OFF);
    g_assert_true(wait_for(finished, 60));
    g_assert_cmpint(motus_viewport_get_gizmo(viewport()), ==, MOTUS_GIZMO_OFF); /* the run's last frame is shown */
    /* asking again shows the model as built, with the gizmo at the initial position */
    activate("gizmo", g_variant_new_string("move"));
    g_assert_cmpint(motus_viewport_get_gizmo(viewport()), ==, MOTUS_GIZMO_MOVE);
    double want[3], x, y, gx, gy;
    memcpy(want, model()->body[b].pos, sizeof want);
    wait_drawn();
    g_assert_true(motus_viewport_body_to_world(viewport(), b, (double[3]){0, 0, 0}, want));
    for (int i = 0; i < 3; i++) g_assert_cmpfloat(fabs(want[i] - model()->body[b].pos[i]), <, 1e-12);
    g_assert_true(motus_viewport_project_point(viewport(), want, &x, &y));
    g_assert_true(motus_viewport_gizmo_point(viewport(), 0, &gx, &gy));
    g_assert_cmpfloat(fabs(gy - y), <, 2); /* the x arrow starts at the body's origin, seen from the front */
    /* and the same again hides it */
    activate("gizmo", g_variant_new_string("move"));
    g_assert_cmpint(motus_viewport_get_gizmo(viewport()), ==, MOTUS_GIZMO_OFF);
}

int main(int argc, char **argv)
{
    ui_test_init(&argc, &argv);
    g_signal_connect(win, "run-finished", G_CALLBACK(on_finished), NULL);
    gtk_window_set_default_size(GTK_WINDOW(win), 1280, 800);
    gtk_window_present(GTK_WINDOW(win));
    g_autofree char *path = g_build_filename(MOTUS_PROJECTS_DIR, "slider-crank.motus.txt", NULL);
    open_model(path);
    g_test_add_func("/gizmo/move", test_move);
    g_test_add_func("/gizmo/turn", test_turn);
    g_test_add_func("/gizmo/marker", test_marker);
    g_test_add_func("/gizmo/hidden-during-motion", test_hidden_during_motion);
    int rc = g_test_run();
    gtk_window_destroy(GTK_WINDOW(win));
    return rc;
}
