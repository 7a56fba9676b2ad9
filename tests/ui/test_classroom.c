/* The classroom view in the real window, driven by clicks under Xvfb (ctest gui_classroom), on the
 * four-bar example (crank 0.1 m turned at one revolution a second):
 * - the coupler's instantaneous centre is where the crank's line AB and the rocker's line DC cross
 *   (the closed form), to 1e-6 m (3.4e-8 at t = 0.2 s, where it is 0.7 m away; rk4 at 1 ms lets the
 *   pins drift by ~1e-9 m, which the crossing of nearly parallel lines magnifies: 1.3e-6 at 0.35 s,
 *   3.6 m away), with its fixed and moving centrodes drawn;
 * - the coupler's free-body diagram: weight, the two pin reactions and −m·a sum to zero, to 1e-9 of
 *   the largest;
 * - several points at once: the crank pin B pinned from the eye popover, the coupler point P
 *   selected, and the rocker added by a Ctrl+click in the view; |v_B| = 0.1 m × 2π/s, and
 *   |v_P| = ω_coupler · |P − centre| (the velocity of a point of a body in plane motion). */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "ui-app.h"

static const char *want_action;
static gboolean want_state;
static gboolean action_is(void) { return action_on(want_action) == want_state; }

/* Clicks the eye popover's check button with this label and waits for its action to follow. */
static void click_check(const char *label, const char *action)
{
    open_eye();
    want_action = action, want_state = !action_on(action);
    xin_click(xin_find(eye_popover(), xin_has_label, label));
    g_assert_true(wait_for(action_is, 5));
    settle();
}

static int index_of_body(const char *name)
{
    for (int b = 0; b < model()->nbody; b++)
        if (!strcmp(model()->body[b].name, name)) return b;
    g_assert_not_reached();
}

static int index_of_marker(const char *body, const char *name)
{
    int b = index_of_body(body);
    for (int k = 0; k < model()->nmarker; k++)
        if (model()->marker[k].body == b && !strcmp(model()->marker[k].name, name)) return k;
    g_assert_not_reached();
}

static void marker_world(const char *body, const char *name, double x[3])
{
    int k = index_of_marker(body, name);
    g_assert_true(motus_viewport_body_to_world(viewport(), model()->marker[k].body, model()->marker[k].pos, x));
}

/* The overlay item whose label starts with prefix; -1 when there is none. */
static int item(const char *prefix)
{
    for (guint i = 0; i < motus_viewport_overlay_size(viewport()); i++) {
        const char *l = motus_viewport_overlay_label(viewport(), i);
        if (l && g_str_has_prefix(l, prefix)) return (int)i;
    }
    return -1;
}

static double norm3(const double v[3]) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

static void test_icr_and_fbd(void)
{
    run_f5();
    motus_window_select_entity(win, MT_EDIT_BODY, index_of_body("coupler"));
    motus_window_set_time(win, 0.2);
    click_check("Instantaneous centre of velocity", "show-icr");
    click_check("Fixed and moving centrodes", "show-centrodes");
    /* the closed form: A + s (B − A) = D + u (C − D) in the x-y plane */
    double B[3], C[3], A[2] = {0, 0}, D[2] = {0.4, 0};
    marker_world("crank", "b", B);
    marker_world("rocker", "c", C);
    double e1[2] = {B[0] - A[0], B[1] - A[1]}, e2[2] = {C[0] - D[0], C[1] - D[1]};
    double det = -e1[0] * e2[1] + e1[1] * e2[0];
    double s = (-(D[0] - A[0]) * e2[1] + (D[1] - A[1]) * e2[0]) / det;
    double P[2] = {A[0] + s * e1[0], A[1] + s * e1[1]}, p[3];
    int i = item("P of coupler");
    g_assert_cmpint(i, >=, 0);
    g_assert_true(motus_viewport_overlay_item(viewport(), (guint)i, p, NULL));
    g_print("coupler's instantaneous centre at t = 0.2 s: (%.9f, %.9f) m, closed form (%.9f, %.9f): %.2e m\n", p[0], p[1],
            P[0], P[1], hypot(p[0] - P[0], p[1] - P[1]));
    g_assert_cmpfloat(hypot(p[0] - P[0], p[1] - P[1]), <, 1e-6);
    /* two centrodes drawn: at least two lines besides the point */
    g_assert_cmpuint(motus_viewport_overlay_size(viewport()), >=, 3);
    gtk_popover_popdown(GTK_POPOVER(eye_popover()));
    focus_main();
    xin_click(xin_find(GTK_WIDGET(win), xin_has_label, "Front")); /* the plane of the mechanism */
    motus_window_set_time(win, 0.1);
    settle_for(0.5);
    shot(GTK_WIDGET(win), "classroom-icr.png");
    motus_window_set_time(win, 0.2);

    /* the free-body diagram balances (d'Alembert) */
    click_check("Free-body diagram (with −m·a)", "show-fbd");
    double sum[3] = {0, 0, 0}, big = 0, v[3];
    int nforce = 0;
    for (guint k = 0; k < motus_viewport_overlay_size(viewport()); k++) {
        const char *l = motus_viewport_overlay_label(viewport(), k);
        if (!l || !(strstr(l, ": F = ") || g_str_has_prefix(l, "−m·a"))) continue;
        g_assert_true(motus_viewport_overlay_item(viewport(), k, NULL, v));
        for (int c = 0; c < 3; c++) sum[c] += v[c];
        big = fmax(big, norm3(v));
        nforce++;
    }
    g_print("coupler's free-body diagram: %d arrows, |sum| %.2e N of %.4g N\n", nforce, norm3(sum), big);
    g_assert_cmpint(nforce, ==, 4); /* weight, coupler_b, coupler_c, −m·a */
    g_assert_cmpint(item("weight: F = "), >=, 0);
    g_assert_cmpint(item("coupler_b: F = "), >=, 0);
    g_assert_cmpint(item("coupler_c: F = "), >=, 0);
    g_assert_cmpfloat(norm3(sum), <, 1e-9 * big);
    gtk_popover_popdown(GTK_POPOVER(eye_popover()));
    focus_main();
    settle_for(0.5);
    shot(GTK_WIDGET(win), "classroom-fbd.png");
    click_check("Free-body diagram (with −m·a)", "show-fbd");
    click_check("Fixed and moving centrodes", "show-centrodes");
}

static guint want_pins;
static gboolean pins_are(void) { return motus_window_teach_n_pinned(win) == want_pins; }

static void test_several_points(void)
{
    click_check("Velocity vector", "show-velocity");
    motus_window_select_entity(win, MT_EDIT_MARKER, index_of_marker("crank", "b"));
    open_eye();
    want_pins = 1;
    xin_click(xin_find(eye_popover(), xin_has_label, "Pin the selection"));
    g_assert_true(wait_for(pins_are, 5));
    gtk_popover_popdown(GTK_POPOVER(eye_popover()));
    focus_main();
    motus_window_select_entity(win, MT_EDIT_MARKER, index_of_marker("coupler", "p"));
    motus_window_set_time(win, 0.2);
    int ib = item("crank.b: v = "), ip = item("coupler.p: v = ");
    g_assert_cmpint(ib, >=, 0);
    g_assert_cmpint(ip, >=, 0);
    double vb[3], vpp[3], p[3], c[3];
    g_assert_true(motus_viewport_overlay_item(viewport(), (guint)ib, NULL, vb));
    g_assert_true(motus_viewport_overlay_item(viewport(), (guint)ip, p, vpp));
    g_assert_true(motus_viewport_overlay_item(viewport(), (guint)item("P of coupler"), c, NULL));
    double *t, *wz;
    guint n = motus_window_get_column(win, "coupler.wz", &t, &wz), i = 0;
    while (i + 1 < n && t[i + 1] <= 0.2 + 1e-12) i++;
    double w = fabs(wz[i]), r = hypot(p[0] - c[0], p[1] - c[1]);
    g_print("|v_B| %.12g m/s (0.2 pi = %.12g); |v_P| %.9g m/s, omega_coupler |P - centre| = %.9g\n", norm3(vb), 0.2 * G_PI,
            norm3(vpp), w * r);
    g_assert_cmpfloat(fabs(norm3(vb) - 0.2 * G_PI), <, 1e-8); /* rk4 at 1 ms: the pin drifts off its circle by ~1e-9 */
    g_assert_cmpfloat(fabs(norm3(vpp) - w * r), <, 1e-6 * norm3(vpp));
    g_free(t);
    g_free(wz);
    /* the velocity arrows' scale bar: a round value drawn to the same scale as the arrows */
    int isb = item("scale: ");
    g_assert_cmpint(isb, >=, 0);
    double s0[3], s1[3], sv[3], b0[3], b1[3];
    g_assert_true(motus_viewport_overlay_point(viewport(), (guint)isb, 0, s0));
    g_assert_true(motus_viewport_overlay_point(viewport(), (guint)isb, 1, s1));
    g_assert_true(motus_viewport_overlay_item(viewport(), (guint)isb, NULL, sv));
    g_assert_true(motus_viewport_overlay_point(viewport(), (guint)ib, 0, b0));
    g_assert_true(motus_viewport_overlay_point(viewport(), (guint)ib, 1, b1));
    double len_s = sqrt((s1[0] - s0[0]) * (s1[0] - s0[0]) + (s1[1] - s0[1]) * (s1[1] - s0[1]) + (s1[2] - s0[2]) * (s1[2] - s0[2]));
    double len_b = sqrt((b1[0] - b0[0]) * (b1[0] - b0[0]) + (b1[1] - b0[1]) * (b1[1] - b0[1]) + (b1[2] - b0[2]) * (b1[2] - b0[2]));
    g_print("%s: %.6g m drawn for %.6g m/s; v_B %.6g m drawn for %.6g m/s\n", motus_viewport_overlay_label(viewport(), isb),
            len_s, norm3(sv), len_b, norm3(vb));
    g_assert_cmpfloat(fabs(len_s / norm3(sv) - len_b / norm3(vb)), <, 1e-9 * len_b / norm3(vb));
    click_check("Acceleration vector", "show-acceleration");
    settle_for(0.3);
    shot(GTK_WIDGET(win), "classroom-points.png");
    click_check("Acceleration vector", "show-acceleration");
    gtk_popover_popdown(GTK_POPOVER(eye_popover()));
    focus_main();
    /* ω seen along its axis (the front view of a planar mechanism): a curved arrow around the point, its head
     * at the arc's radius (0.07 of the model's size); in the iso view an axial arrow along z */
    click_check("Angular velocity and acceleration (ω, ε)", "show-omega");
    gtk_popover_popdown(GTK_POPOVER(eye_popover()));
    focus_main();
    double head[3], L = motus_viewport_get_scale(viewport());
    int iw = item("coupler.p: ω = ");
    g_assert_cmpint(iw, >=, 0);
    g_assert_true(motus_viewport_overlay_item(viewport(), (guint)iw, head, NULL));
    double rr = sqrt((head[0] - p[0]) * (head[0] - p[0]) + (head[1] - p[1]) * (head[1] - p[1]) + (head[2] - p[2]) * (head[2] - p[2]));
    g_print("front view: the curved omega arrow's head %.9g m from P (0.07 L = %.9g)\n", rr, 0.07 * L);
    g_assert_cmpfloat(fabs(rr - 0.07 * L), <, 1e-9 * L);
    settle_for(0.3);
    shot(GTK_WIDGET(win), "classroom-omega-curved.png");
    xin_click(xin_find(GTK_WIDGET(win), xin_has_label, "Iso"));
    settle_for(0.2);
    motus_window_set_time(win, 0.2);
    double wv[3];
    iw = item("coupler.p: ω = ");
    g_assert_true(motus_viewport_overlay_item(viewport(), (guint)iw, NULL, wv));
    g_assert_cmpfloat(fabs(wv[0]) + fabs(wv[1]), <, 1e-9 * fabs(wv[2]));
    g_assert_cmpfloat(fabs(fabs(wv[2]) - w), <, 1e-9 * w);
    click_check("Angular velocity and acceleration (ω, ε)", "show-omega");
    gtk_popover_popdown(GTK_POPOVER(eye_popover()));
    focus_main();
    /* a Ctrl+click on the rocker pins it too: a third velocity arrow, the selection unchanged */
    double x, y;
    g_assert_true(motus_viewport_project_body(viewport(), index_of_body("rocker"), &x, &y));
    want_pins = 2;
    xin_click_at(motus_viewport_get_gl_area(viewport()), x, y, TRUE);
    g_assert_true(wait_for(pins_are, 5));
    int sel;
    g_assert_cmpint(motus_window_get_selection(win, &sel), ==, MT_EDIT_MARKER);
    g_assert_cmpint(sel, ==, index_of_marker("coupler", "p"));
    g_assert_cmpint(item("rocker: v = "), >=, 0);
    settle_for(0.5);
    shot(GTK_WIDGET(win), "classroom-several.png");
    /* Ctrl+click again: unpinned */
    want_pins = 1;
    xin_click_at(motus_viewport_get_gl_area(viewport()), x, y, TRUE);
    g_assert_true(wait_for(pins_are, 5));
    g_assert_cmpint(item("rocker: v = "), <, 0);
}

static gboolean is_meter_entry(GtkWidget *w, gconstpointer data)
{
    (void)data;
    return GTK_IS_ENTRY(w) && gtk_widget_get_mapped(w) && gtk_entry_get_placeholder_text(GTK_ENTRY(w)) &&
           g_str_has_prefix(gtk_entry_get_placeholder_text(GTK_ENTRY(w)), "Meter");
}
static guint want_meters;
static gboolean meters_are(void) { return motus_window_meters_count(win) == want_meters; }
static gboolean is_meter_close(GtkWidget *w, gconstpointer data)
{
    (void)data;
    return GTK_IS_BUTTON(w) && gtk_widget_get_mapped(w) && gtk_widget_get_tooltip_text(w) &&
           !strcmp(gtk_widget_get_tooltip_text(w), "Remove this meter");
}

/* Live meters on the simple pendulum (1 kg at 1 m, released at 60°, dp54 1e-10): a column typed in the eye
 * popover and Enter makes a meter of it; "Energy and Momentum" adds the kinetic and potential energy (their sum
 * stays, 1e-8) and the momentum (m·L·|ω| exactly); a meter's close button removes it; Save keeps them. */
static void test_meters(void)
{
    g_autofree char *path = g_build_filename(MOTUS_PROJECTS_DIR, "pendulum.motus.txt", NULL);
    open_model(path);
    run_f5();
    open_eye();
    GtkWidget *entry = xin_find(eye_popover(), is_meter_entry, NULL);
    g_assert_nonnull(entry);
    gtk_widget_grab_focus(entry);
    settle();
    want_meters = 1;
    xin_type("bob.wz");
    xin_press("Return");
    g_assert_true(wait_for(meters_are, 5));
    want_meters = 4;
    xin_click(xin_find(eye_popover(), xin_has_label, "Energy and Momentum"));
    g_assert_true(wait_for(meters_are, 5));
    gtk_popover_popdown(GTK_POPOVER(eye_popover()));
    focus_main();
    motus_window_set_time(win, 0.37);
    double w = motus_window_meter_value(win, 0), k1 = motus_window_meter_value(win, 1), p1 = motus_window_meter_value(win, 2);
    double mom = motus_window_meter_value(win, 3);
    g_print("t = 0.37: %s; %s; %s; %s\n", motus_window_meter_text(win, 0), motus_window_meter_text(win, 1),
            motus_window_meter_text(win, 2), motus_window_meter_text(win, 3));
    g_assert_nonnull(strstr(motus_window_meter_text(win, 0), "bob.wz = "));
    g_assert_cmpfloat(fabs(mom - fabs(w) * 1.0 * 1.0), <, 1e-10 * fabs(w)); /* |p| = m L |ω| (to rounding) */
    motus_window_set_time(win, 1.5);
    double k2 = motus_window_meter_value(win, 1), p2 = motus_window_meter_value(win, 2);
    g_print("energy at 0.37 s %.12g J, at 1.5 s %.12g J\n", k1 + p1, k2 + p2);
    g_assert_cmpfloat(fabs((k1 + p1) - (k2 + p2)), <, 1e-8 * fabs(k1) + 1e-12);
    g_assert_cmpfloat(fabs(k1 - k2), >, 1e-3); /* and they did change */
    settle_for(0.3);
    shot(GTK_WIDGET(win), "classroom-meters.png");
    /* the first meter's close button */
    want_meters = 3;
    xin_click(xin_find(GTK_WIDGET(viewport()), is_meter_close, NULL));
    g_assert_true(wait_for(meters_are, 5));
    /* kept with the model */
    g_autofree char *dir = g_dir_make_tmp("motus-meters-XXXXXX", NULL);
    g_autofree char *out = g_build_filename(dir, "p.motus.txt", NULL), *text = NULL;
    g_autoptr(GError) error = NULL;
    g_assert_true(motus_window_save_as(win, out, &error));
    g_assert_true(g_file_get_contents(out, &text, NULL, NULL));
    g_assert_nonnull(strstr(text, "meter system.kinetic meter system.potential meter momentum\n"));
    g_unlink(out);
    g_rmdir(dir);
}

int main(int argc, char **argv)
{
    ui_app_init(&argc, &argv, "org.motus.MotusClassroomTest");
    g_autofree char *path = g_build_filename(MOTUS_PROJECTS_DIR, "four-bar.motus.txt", NULL);
    open_model(path);
    g_test_add_func("/classroom/icr-fbd", test_icr_and_fbd);
    g_test_add_func("/classroom/several-points", test_several_points);
    g_test_add_func("/classroom/meters", test_meters);
    return ui_app_finish(g_test_run());
}
