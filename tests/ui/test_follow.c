/* The 3D view's Follow button, by real clicks: a cart driven 20 m along x in
 * 2 s; a click on the cart selects it, a click on Follow makes the camera
 * move with it — from the first frame to the last the cart stays where it was
 * on the screen (within a pixel), and saving writes `follow cart` in the view
 * line. Follow clicked off, the camera stays: going back to the first frame
 * moves the cart across the view (a test that cannot pass without the
 * button doing its work), and a later edit of the model keeps it off. */
#include <glib/gstdio.h>
#include <math.h>

#include "ui-app.h"

static char *tmpdir, *path;

static gboolean selected_cart(void) { return motus_viewport_get_selected_body(viewport()) == 0; }
static gboolean following(void) { return motus_viewport_get_follow(viewport()) == 0; }
static gboolean not_following(void) { return motus_viewport_get_follow(viewport()) < 0; }

static void cart_at(double *x, double *y)
{
    settle();
    g_assert_true(motus_viewport_project_body(viewport(), 0, x, y));
}

static void test_follow(void)
{
    path = g_build_filename(tmpdir, "cart.motus.txt", NULL);
    g_assert_true(g_file_set_contents(path,
                                      "solver method rk4 step 1e-3 until 2 every 100\nground\n marker rail z 1 0 0\nend\n"
                                      "body cart\n mass 1\n inertia 1e-2 1e-2 1e-2\n shape box 0.4 0.2 0.2\n"
                                      " marker s z 1 0 0\nend\n"
                                      "joint sl prismatic cart.s ground.rail\ndriver d sl expr {10*t}\n",
                                      -1, NULL));
    open_model(path);
    run_f5();
    motus_window_set_time(win, 0); /* the first frame: the cart at the start of its track */
    double x0, y0, x1, y1;
    cart_at(&x0, &y0);
    xin_click_at(motus_viewport_get_gl_area(viewport()), x0, y0, FALSE);
    g_assert_true(wait_for(selected_cart, 5));
    GtkWidget *follow = xin_find(GTK_WIDGET(win), xin_has_tooltip_prefix, "Keep the selected body in view");
    g_assert_nonnull(follow);
    xin_click(follow);
    g_assert_true(wait_for(following, 5));
    g_assert_true(gtk_toggle_button_get_active(GTK_TOGGLE_BUTTON(follow)));
    cart_at(&x0, &y0);
    motus_window_set_time(win, 2);
    cart_at(&x1, &y1);
    g_test_message("following: the cart at (%.2f, %.2f) at 0 s and (%.2f, %.2f) at 2 s", x0, y0, x1, y1);
    g_assert_cmpfloat(hypot(x1 - x0, y1 - y0), <, 1.0);

    /* kept in the model when it is saved */
    focus_main();
    xin_press("<Control>s");
    settle();
    g_autofree char *text = NULL;
    g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
    g_assert_nonnull(strstr(text, " follow cart"));

    /* off: the camera stays where the last frame left it, and the cart's first frame is 20 m away */
    xin_click(follow);
    g_assert_true(wait_for(not_following, 5));
    g_assert_false(gtk_toggle_button_get_active(GTK_TOGGLE_BUTTON(follow)));
    motus_window_set_time(win, 0);
    settle();
    double x2 = 0, y2 = 0;
    gboolean seen = motus_viewport_project_body(viewport(), 0, &x2, &y2);
    g_test_message("not following: the cart %s (%.2f, %.2f) at 0 s", seen ? "at" : "out of view, last", x2, y2);
    g_assert_true(!seen || hypot(x2 - x1, y2 - y1) > 50);
    /* an edit of the model (whose saved view line still says `follow cart`) keeps the button's choice */
    g_assert_true(motus_window_set_field(win, MT_EDIT_SOLVER, 0, "until", "2.5", NULL));
    settle();
    g_assert_true(not_following());
    g_assert_false(gtk_toggle_button_get_active(GTK_TOGGLE_BUTTON(follow)));
}

int main(int argc, char **argv)
{
    ui_app_init(&argc, &argv, "org.motus.MotusFollowTest");
    tmpdir = g_dir_make_tmp("motus-follow-XXXXXX", NULL);
    g_test_add_func("/view/follow", test_follow);
    int rc = g_test_run();
    GDir *d = g_dir_open(tmpdir, 0, NULL); /* the model and what saving it left */
    for (const char *f; d && (f = g_dir_read_name(d));) {
        g_autofree char *p = g_build_filename(tmpdir, f, NULL);
        g_unlink(p);
    }
    if (d) g_dir_close(d);
    g_rmdir(tmpdir);
    g_free(path);
    g_free(tmpdir);
    return ui_app_finish(rc);
}
