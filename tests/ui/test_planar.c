/* Planar mode in the real window, driven by real keys and clicks under Xvfb (ctest gui_planar):
 * - the key 2 and the view's "2D" button turn it on and off; on, the camera is orthographic and looks
 *   along −z (x right, y up), a left drag pans instead of orbiting, the arrows and the Top preset (7)
 *   leave it facing the plane;
 * - points placed by clicks a few pixels off grid nodes snap to them exactly (0.1 m spacing: 0.3, 0.2),
 *   the mark shows where before the click, and a point typed as "0.25, 0.1" is placed there;
 * - a pendulum built from the palette (a disc at (0.3, 0) m, a pin at the origin) swings in the plane
 *   with the period of a compound pendulum released from 90°: T = 4 √(I_O / (m g d)) K(sin 45°), with
 *   I_O the built disc's inertia about the pin (K from the arithmetic-geometric mean), and so does a bar
 *   drawn by its ends and pinned at one, released 143° from the bottom;
 * - a gear pair, a slider and a disc rolling on a typed slope, and Atwood's machine (a rope over a pulley
 *   between two sliders), run against their closed forms. */
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "ui-app.h"


static GtkWidget *area(void) { return motus_viewport_get_gl_area(viewport()); }
static gboolean is_planar(void) { return motus_viewport_get_planar(viewport()); }
static gboolean not_planar(void) { return !motus_viewport_get_planar(viewport()); }

/* A PNG of the window as drawn (for a person to look at), in MOTUS_OUT_DIR. */
static void save_shot(const char *name)
{
    g_autofree char *path = g_build_filename(MOTUS_OUT_DIR, name, NULL);
    for (int k = 0; k < 50; k++) { /* a frame drawn with nothing queued since */
        g_autoptr(GError) error = NULL;
        if (motus_window_save_screenshot(win, path, &error)) return;
        settle_for(0.05);
        if (k == 49) g_print("no screenshot %s: %s\n", name, error->message);
    }
}

static void camera(MotusCamera *c) { motus_viewport_get_camera(viewport(), c); }

/* The camera faces the x–y plane: x to the right, y up, orthographic. */
static void assert_facing_plane(void)
{
    MotusCamera c;
    camera(&c);
    float r[3], u[3], f[3];
    motus_camera_basis(&c, r, u, f);
    g_assert_true(c.ortho);
    g_assert_cmpfloat(fabsf(r[0] - 1), <, 1e-6);
    g_assert_cmpfloat(fabsf(u[1] - 1), <, 1e-6);
    g_assert_cmpfloat(fabsf(f[2] + 1), <, 1e-6);
}

/* Widget coordinates of a point of the plane. */
static void screen_of(double x, double y, double *sx, double *sy)
{
    double p[3] = {x, y, 0};
    g_assert_true(motus_viewport_project_point(viewport(), p, sx, sy));
}

/* A click a few pixels off the grid point (x, y). */
static void click_near(double x, double y)
{
    double sx, sy;
    screen_of(x, y, &sx, &sy);
    xin_click_at(area(), sx + 3, sy - 2, FALSE);
    settle();
}

static GtkWidget *button(const char *label) { return xin_find(GTK_WIDGET(win), xin_has_label, label); }

/* Zooms by keys (+/- on the focused view) until the grid's spacing is 0.1 m. */
static void zoom_to_decimetre(void)
{
    double sx, sy;
    screen_of(0, 0, &sx, &sy);
    xin_click_at(area(), 20, gtk_widget_get_height(area()) - 120.0, FALSE); /* focus: an empty click */
    for (int k = 0; k < 40 && fabs(motus_viewport_grid_step(viewport()) - 0.1) > 1e-12; k++) {
        xin_press(motus_viewport_grid_step(viewport()) > 0.1 ? "plus" : "minus");
        settle_for(0.05);
    }
    g_assert_cmpfloat(motus_viewport_grid_step(viewport()), ==, 0.1);
}

/* A new project in planar mode (turned on by its key when a test runs alone), the grid at 0.1 m. */
static void new_planar_project(void)
{
    motus_window_new_project(win);
    settle();
    focus_main();
    if (!is_planar()) xin_press("2");
    g_assert_true(wait_for(is_planar, 5));
    zoom_to_decimetre();
    focus_main();
}

static void test_mode(void)
{
    focus_main();
    MotusCamera before;
    camera(&before);
    xin_press("2");
    g_assert_true(wait_for(is_planar, 5));
    assert_facing_plane();
    /* a left drag pans: the direction stays, the target moves */
    MotusCamera c0, c1;
    camera(&c0);
    int W = gtk_widget_get_width(area()), H = gtk_widget_get_height(area());
    xin_drag(area(), W * 0.5, H * 0.5, W * 0.5 + 80, H * 0.5 + 40, 8);
    settle();
    camera(&c1);
    g_print("after a left drag in planar mode: yaw %g pitch %g (were %g %g), target moved %.3g m\n", c1.yaw, c1.pitch,
            c0.yaw, c0.pitch, hypotf(c1.target[0] - c0.target[0], c1.target[1] - c0.target[1]));
    g_assert_cmpfloat(c1.yaw, ==, c0.yaw);
    g_assert_cmpfloat(c1.pitch, ==, c0.pitch);
    g_assert_cmpfloat(hypotf(c1.target[0] - c0.target[0], c1.target[1] - c0.target[1]), >, 0);
    xin_drag(area(), W * 0.5 + 80, H * 0.5 + 40, W * 0.5, H * 0.5, 8); /* back */
    /* arrows and the Top preset do not turn it */
    xin_press("Left");
    xin_press("Up");
    xin_press("7");
    settle();
    assert_facing_plane();
    /* 2 again: the 3-D view as it was; the 2D button: planar again */
    xin_press("2");
    g_assert_true(wait_for(not_planar, 5));
    camera(&c1);
    g_assert_cmpfloat(c1.yaw, ==, before.yaw);
    g_assert_cmpint(c1.ortho, ==, before.ortho);
    settle_for(0.5);
    xin_click(button("2D"));
    g_assert_true(wait_for(is_planar, 5));
    assert_facing_plane();
}

static int want_bodies;
static gboolean bodies_are(void) { return model()->nbody == want_bodies; }
static int want_joints;
static gboolean joints_are(void) { return model()->njoint == want_joints; }

static void test_snap_and_type(void)
{
    zoom_to_decimetre();
    focus_main();
    /* a rectangle: the first corner typed, the second clicked near (0.5, 0.3) */
    xin_click(button("Rectangle"));
    settle();
    GtkWidget *entry = xin_find(GTK_WIDGET(win), xin_has_tooltip_prefix, "Type the point's coordinates");
    g_assert_nonnull(entry);
    xin_click(entry);
    xin_type("0.25, 0.1");
    xin_press("Return");
    settle();
    double p[3];
    g_assert_cmpuint(motus_viewport_overlay_size(viewport()), ==, 1);
    g_assert_true(motus_viewport_overlay_item(viewport(), 0, p, NULL));
    g_print("typed 0.25, 0.1: point (%.17g, %.17g, %g)\n", p[0], p[1], p[2]);
    g_assert_cmpfloat(p[0], ==, 0.25);
    g_assert_cmpfloat(p[1], ==, 0.1);
    g_assert_cmpfloat(p[2], ==, 0);
    /* the pointer near (0.5, 0.3): the mark shows the grid node before the click */
    double sx, sy, m[3];
    screen_of(0.5, 0.3, &sx, &sy);
    xin_move_at(area(), sx + 3, sy - 2);
    g_assert_true(motus_viewport_get_snap_mark(viewport(), m));
    g_print("pointer 3 px off (0.5, 0.3): the mark at (%.17g, %.17g)\n", m[0], m[1]);
    g_assert_cmpfloat(m[0], ==, 0.5);
    g_assert_cmpfloat(m[1], ==, 0.3);
    save_shot("planar-snap.png");
    want_bodies = model()->nbody + 1;
    click_near(0.5, 0.3);
    g_assert_true(wait_for(bodies_are, 5));
    const MtBodySpec *b = &model()->body[model()->nbody - 1];
    g_print("rectangle from (0.25, 0.1) to (0.5, 0.3): centre (%.17g, %.17g), shape %.17g x %.17g m\n", b->pos[0], b->pos[1],
            model()->shape[model()->nshape - 1].size[0], model()->shape[model()->nshape - 1].size[1]);
    g_assert_cmpfloat(fabs(b->pos[0] - 0.375), <, 1e-15);
    g_assert_cmpfloat(fabs(b->pos[1] - 0.2), <, 1e-15);
    g_assert_cmpfloat(fabs(model()->shape[model()->nshape - 1].size[0] - 0.25), <, 1e-15);
    g_assert_cmpfloat(fabs(model()->shape[model()->nshape - 1].size[1] - 0.2), <, 1e-15);
    /* the same by its points clicked: (0.3, 0.2) from 3 px away is 0.3, 0.2 exactly */
    xin_click(button("Disc"));
    settle();
    click_near(0.3, -0.2);
    g_assert_true(motus_viewport_overlay_item(viewport(), 0, p, NULL));
    g_print("clicked 3 px off (0.3, -0.2): point (%.17g, %.17g)\n", p[0], p[1]);
    g_assert_cmpfloat(p[0], ==, 0.3);
    g_assert_cmpfloat(p[1], ==, -0.2);
    xin_click(button("Cancel"));
    settle();
    g_assert_false(motus_window_is_picking(win));
}

/* Complete elliptic integral of the first kind, K(k) = π / (2 AGM(1, √(1 − k²))). */
static double ellip_k(double k)
{
    double a = 1, b = sqrt(1 - k * k);
    for (int i = 0; i < 40; i++) {
        double an = (a + b) / 2;
        b = sqrt(a * b);
        a = an;
    }
    return G_PI / (2 * a);
}

/* The period of a swing from rest at joint angle 0: |θ| passes the bottom (|θ| = half the swing, φ0) going
 * up at T/4 and coming back at 3T/4, where it moves fastest. */
static double period(const char *joint, double phi0)
{
    double *t = NULL, *a = NULL, t1 = NAN, t2 = NAN;
    char col[80];
    g_snprintf(col, sizeof col, "%s.angle", joint);
    guint n = motus_window_get_column(win, col, &t, &a);
    g_assert_cmpuint(n, >, 100);
    for (guint i = 1; i < n; i++) {
        double u0 = fabs(a[i - 1]) - phi0, u1 = fabs(a[i]) - phi0;
        double tc = t[i - 1] + (t[i] - t[i - 1]) * u0 / (u0 - u1);
        if (u0 < 0 && u1 >= 0 && isnan(t1)) t1 = tc;
        else if (u0 >= 0 && u1 < 0 && !isnan(t1) && isnan(t2)) t2 = tc;
    }
    g_free(t), g_free(a);
    return 2 * (t2 - t1);
}

static void test_pendulum(void)
{
    motus_window_new_project(win);
    settle();
    g_assert_true(is_planar()); /* the mode is the window's: a new model opens in it */
    assert_facing_plane();
    zoom_to_decimetre();
    focus_main();
    /* the bob: a disc centred at (0.3, 0), its rim through (0.3, 0.1) */
    want_bodies = 1;
    xin_click(button("Disc"));
    settle();
    click_near(0.3, 0);
    click_near(0.3, 0.1);
    g_assert_true(wait_for(bodies_are, 5));
    const MtBodySpec *bob = &model()->body[0];
    g_assert_cmpfloat(bob->pos[0], ==, 0.3);
    g_assert_cmpfloat(bob->pos[1], ==, 0);
    g_assert_cmpfloat(model()->shape[0].size[0], ==, 0.1);
    /* the pin: the bob, empty space (the ground), the origin */
    want_joints = 1;
    xin_click(button("Pin"));
    settle();
    double sx, sy;
    screen_of(0.3, 0, &sx, &sy);
    xin_click_at(area(), sx, sy, FALSE);
    settle();
    screen_of(-0.4, 0.4, &sx, &sy);
    xin_click_at(area(), sx, sy, FALSE);
    settle();
    click_near(0, 0);
    g_assert_true(wait_for(joints_are, 5));
    const MtJointSpec *j = &model()->joint[0];
    g_assert_cmpint(j->type, ==, MT_JOINT_REVOLUTE);
    g_assert_cmpint(model()->marker[j->mj].body, ==, MT_GROUND);
    g_assert_cmpint(model()->marker[j->mi].body, ==, 0);
    const MtMarkerSpec *mj = &model()->marker[j->mj];
    g_print("pin at (%.17g, %.17g, %g), axis (%g, %g, %g)\n", mj->pos[0], mj->pos[1], mj->pos[2], mj->rot[2], mj->rot[5],
            mj->rot[8]);
    g_assert_cmpfloat(mj->pos[0], ==, 0);
    g_assert_cmpfloat(mj->pos[1], ==, 0);
    g_assert_cmpfloat(fabs(mj->rot[8] - 1), <, 1e-15); /* z of the marker is the project's z */
    settle_for(0.4);
    save_shot("planar-pendulum.png");

    g_autoptr(GError) error = NULL;
    g_assert_true(motus_window_set_field(win, MT_EDIT_SOLVER, 0, "until", "2.5", &error));
    run_f5();
    double *z = NULL, *tz = NULL;
    char col[80];
    double m = bob->mass, d = 0.3, g = 9.81, Io = bob->inertia[2] + m * d * d;
    double T = 4 * sqrt(Io / (m * g * d)) * ellip_k(sin(G_PI / 4)), Tm = period(model()->joint[0].name, G_PI / 2);
    g_print("pendulum: m %.6g kg, Izz %.6g kg·m², T measured %.9f s, closed form %.9f s: %.2e relative\n", m,
            bob->inertia[2], Tm, T, fabs(Tm - T) / T);
    g_assert_cmpfloat(fabs(Tm - T) / T, <, 1e-4);
    /* in the plane: the bob's z stays 0 */
    g_snprintf(col, sizeof col, "%s.z", model()->body[0].name);
    guint nz = motus_window_get_column(win, col, &tz, &z);
    double zmax = 0;
    for (guint i = 0; i < nz; i++) zmax = fmax(zmax, fabs(z[i]));
    g_print("the bob's largest |z| over the run: %.2e m (%u frames)\n", zmax, nz);
    g_assert_cmpuint(nz, >, 100);
    g_assert_cmpfloat(zmax, <, 1e-9);
    motus_window_set_time(win, T / 4);
    settle_for(0.5);
    save_shot("planar-pendulum-swing.png");
    g_free(tz), g_free(z);
}

/* A disc by its centre and a rim point, both clicked. */
static void disc(double cx, double cy, double rx, double ry)
{
    want_bodies = model()->nbody + 1;
    xin_click(button("Disc"));
    settle();
    click_near(cx, cy);
    click_near(rx, ry);
    g_assert_true(wait_for(bodies_are, 5));
}

/* Starts a joint tool and clicks the moving body (at a point of it) and the ground (empty space there). */
static void joint_bodies(const char *tool, double bx, double by, double gx, double gy)
{
    want_joints = model()->njoint + 1;
    xin_click(button(tool));
    settle();
    double sx, sy;
    screen_of(bx, by, &sx, &sy);
    xin_click_at(area(), sx, sy, FALSE);
    settle();
    screen_of(gx, gy, &sx, &sy);
    xin_click_at(area(), sx, sy, FALSE);
    settle();
}

static void type_point(const char *text)
{
    xin_click(xin_find(GTK_WIDGET(win), xin_has_tooltip_prefix, "Type the point's coordinates"));
    xin_type(text);
    xin_press("Return");
    settle();
}

static void marker_z(int k, double z[3])
{
    const MtMarkerSpec *mk = &model()->marker[k];
    double w[3] = {mk->rot[2], mk->rot[5], mk->rot[8]};
    if (mk->body >= 0) { /* body axes → project axes */
        const double *R = model()->body[mk->body].rot;
        for (int i = 0; i < 3; i++) z[i] = R[3 * i] * w[0] + R[3 * i + 1] * w[1] + R[3 * i + 2] * w[2];
    } else {
        memcpy(z, w, sizeof w);
    }
}

static double last(const char *col)
{
    double *t = NULL, *v = NULL;
    guint n = motus_window_get_column(win, col, &t, &v);
    g_assert_cmpuint(n, >, 0);
    double x = v[n - 1];
    g_free(t), g_free(v);
    return x;
}

/* Gear contact, slider and rolling from the palette, then run: a disc rolling without slipping down the
 * plane whose normal is (−0.6, 0.8) accelerates at g_t / (1 + I/(m r²)) (g_t: gravity along the plane);
 * gear B (pitch radius 0.2 m) turns at −0.1/0.2 of gear A, driven at 1 rad/s. */
static void test_joints(void)
{
    new_planar_project();
    disc(0.2, 0, 0.3, 0);    /* body1: gear A */
    disc(0.5, 0, 0.5, 0.2);  /* body2: gear B */
    joint_bodies("Pin", 0.2, 0.05, -0.2, -0.5);
    click_near(0.2, 0);
    g_assert_true(wait_for(joints_are, 5));
    joint_bodies("Pin", 0.5, 0.1, -0.2, -0.5);
    click_near(0.5, 0);
    g_assert_true(wait_for(joints_are, 5));
    xin_click(button("Gear"));
    settle();
    click_near(0.2, 0);
    click_near(0.5, 0);
    click_near(0.3, 0);
    g_assert_cmpint(model()->ncouple, ==, 1);
    const MtCoupleSpec *g = &model()->couple[0];
    g_print("gear: joints %d %d, radii %.17g %.17g m\n", g->joint[0], g->joint[1], g->coef[0], g->coef[1]);
    g_assert_cmpint(g->kind, ==, MT_COUPLE_GEAR);
    g_assert_cmpint(g->joint[0], ==, 0);
    g_assert_cmpint(g->joint[1], ==, 1);
    g_assert_cmpfloat(fabs(g->coef[0] - 0.1), <, 1e-15);
    g_assert_cmpfloat(fabs(g->coef[1] - 0.2), <, 1e-15);

    /* a slider: a block on the ground, along x */
    want_bodies = model()->nbody + 1;
    xin_click(button("Rectangle"));
    settle();
    click_near(0.6, -0.5);
    click_near(0.8, -0.4);
    g_assert_true(wait_for(bodies_are, 5));
    joint_bodies("Slider", 0.7, -0.45, -0.2, -0.5);
    click_near(0.6, -0.6);
    click_near(0.8, -0.6);
    g_assert_true(wait_for(joints_are, 5));
    double z[3];
    marker_z(model()->joint[2].mj, z);
    g_print("slider: %s, axis (%g, %g, %g)\n", mt_joint_type_name(model()->joint[2].type), z[0], z[1], z[2]);
    g_assert_cmpint(model()->joint[2].type, ==, MT_JOINT_PRISMATIC);
    g_assert_cmpfloat(fabs(z[0] - 1), <, 1e-15);

    /* rolling: a disc at (−0.6, 0.4), radius 0.1, on the plane through the typed contact (−0.54, 0.32) */
    disc(-0.6, 0.4, -0.5, 0.4);
    int c = model()->nbody - 1;
    joint_bodies("Rolling", -0.6, 0.45, -0.2, -0.5);
    type_point("-0.6, 0.4");
    type_point("-0.54, 0.32");
    g_assert_true(wait_for(joints_are, 5));
    const MtJointSpec *r = &model()->joint[3];
    double zi[3], zj[3];
    marker_z(r->mi, zi);
    marker_z(r->mj, zj);
    g_print("rolling: radius %.17g m, axle (%g, %g, %g), plane's normal (%g, %g, %g)\n", r->param, zi[0], zi[1], zi[2],
            zj[0], zj[1], zj[2]);
    g_assert_cmpint(r->type, ==, MT_JOINT_ROLLING);
    g_assert_cmpfloat(fabs(r->param - 0.1), <, 1e-15);
    g_assert_cmpfloat(fabs(zi[2] - 1), <, 1e-15);
    g_assert_cmpfloat(fabs(zj[0] + 0.6), <, 1e-12);
    g_assert_cmpfloat(fabs(zj[1] - 0.8), <, 1e-12);
    settle_for(0.4);
    save_shot("planar-mechanisms.png");

    /* gear A driven at 1 rad/s; run 0.5 s */
    motus_window_select_entity(win, MT_EDIT_JOINT, 0);
    g_autoptr(GError) error = NULL;
    g_assert_true(motus_window_add_driver(win, &error));
    g_assert_true(motus_window_set_field(win, MT_EDIT_SOLVER, 0, "until", "0.5", &error));
    run_f5();
    char col[80];
    g_snprintf(col, sizeof col, "%s.angle", model()->joint[1].name);
    double thb = last(col);
    g_print("gear B after 0.5 s with A at 1 rad/s: %.12f rad (closed form -0.25)\n", thb);
    g_assert_cmpfloat(fabs(thb + 0.25), <, 1e-6);
    g_snprintf(col, sizeof col, "%s.disp", model()->joint[2].name);
    g_assert_cmpfloat(fabs(last(col)), <, 1e-9); /* the block stays: gravity is across its slide */
    const MtBodySpec *b = &model()->body[c];
    double n[2] = {-0.6, 0.8}, gv[2] = {0, -9.81}, gn = gv[0] * n[0] + gv[1] * n[1];
    double k = 1 + b->inertia[2] / (b->mass * 0.1 * 0.1), ax = (gv[0] - gn * n[0]) / k, ay = (gv[1] - gn * n[1]) / k;
    g_snprintf(col, sizeof col, "%s.x", b->name);
    double x = last(col);
    g_snprintf(col, sizeof col, "%s.y", b->name);
    double y = last(col);
    double xe = -0.6 + 0.5 * ax * 0.25, ye = 0.4 + 0.5 * ay * 0.25;
    g_print("rolling disc at 0.5 s: (%.9f, %.9f) m, closed form (%.9f, %.9f): %.2e m\n", x, y, xe, ye, hypot(x - xe, y - ye));
    g_assert_cmpfloat(hypot(x - xe, y - ye), <, 1e-6);
    g_snprintf(col, sizeof col, "%s.z", b->name);
    g_assert_cmpfloat(fabs(last(col)), <, 1e-9);
}

/* A bar from (0, −0.4) to (0.3, 0) (0.5 m long), pinned at its first end: released 143.13° from
 * the bottom, it swings with T = 4 √(I_O/(m g d)) K(sin(φ0/2)), d = 0.25 m. */
static void test_bar(void)
{
    new_planar_project();
    want_bodies = 1;
    xin_click(button("Bar"));
    settle();
    click_near(0, -0.4);
    click_near(0.3, 0); /* (clear of the view's buttons at the top) */
    g_assert_true(wait_for(bodies_are, 5));
    const MtBodySpec *b = &model()->body[0];
    g_print("bar: centre (%.17g, %.17g), x axis (%.17g, %.17g), length %.17g m\n", b->pos[0], b->pos[1], b->rot[0], b->rot[3],
            model()->shape[0].size[0]);
    g_assert_cmpfloat(fabs(b->rot[0] - 0.6), <, 1e-15);
    g_assert_cmpfloat(fabs(b->rot[3] - 0.8), <, 1e-15);
    g_assert_cmpfloat(fabs(model()->shape[0].size[0] - 0.5), <, 1e-15);
    joint_bodies("Pin", 0.15, -0.2, -0.4, -0.4);
    click_near(0, -0.4); /* the bar's end face centre, or the grid node: the same point */
    g_assert_true(wait_for(joints_are, 5));
    const MtMarkerSpec *mj = &model()->marker[model()->joint[0].mj];
    g_assert_cmpfloat(hypot(mj->pos[0], mj->pos[1] + 0.4), <, 1e-15);
    g_autoptr(GError) error = NULL;
    g_assert_true(motus_window_set_field(win, MT_EDIT_SOLVER, 0, "until", "2.5", &error));
    run_f5();
    double phi0 = acos(-0.8), m = b->mass, d = 0.25, Io = b->inertia[2] + m * d * d;
    double T = 4 * sqrt(Io / (m * 9.81 * d)) * ellip_k(sin(phi0 / 2)), Tm = period(model()->joint[0].name, phi0);
    g_print("bar pendulum from %.4f deg: T measured %.9f s, closed form %.9f s: %.2e relative\n", phi0 * 180 / G_PI, Tm, T,
            fabs(Tm - T) / T);
    g_assert_cmpfloat(fabs(Tm - T) / T, <, 1e-4);
    motus_window_set_time(win, T / 4);
    settle_for(0.5);
    save_shot("planar-bar.png");
}

/* A rectangle by two corners clicked. */
static void rect(double x0, double y0, double x1, double y1)
{
    want_bodies = model()->nbody + 1;
    xin_click(button("Rectangle"));
    settle();
    click_near(x0, y0);
    click_near(x1, y1);
    g_assert_true(wait_for(bodies_are, 5));
}

/* Atwood's machine: two blocks (the second twice the first's mass) on vertical sliders, a rope over a
 * pulley between them; the lighter rises at (m2 − m1) g / (m1 + m2). */
static void test_rope(void)
{
    new_planar_project();
    rect(-0.4, -0.3, -0.2, -0.1); /* 0.2 x 0.2 */
    rect(0.2, -0.4, 0.4, 0);      /* 0.2 x 0.4 */
    joint_bodies("Slider", -0.3, -0.2, -0.1, -0.6);
    click_near(-0.3, -0.2);
    click_near(-0.3, 0);
    g_assert_true(wait_for(joints_are, 5));
    joint_bodies("Slider", 0.3, -0.2, -0.1, -0.6);
    click_near(0.3, -0.2);
    click_near(0.3, 0);
    g_assert_true(wait_for(joints_are, 5));
    xin_click(button("Rope"));
    settle();
    click_near(-0.3, -0.2);
    click_near(0.3, -0.2);
    type_point("0, 0.2"); /* the pulley, typed (clear of the view's buttons whatever the view) */
    g_assert_cmpint(model()->ncouple, ==, 1);
    const MtCoupleSpec *r = &model()->couple[0];
    g_print("rope: %s, joints %d %d, coefficients %g %g\n", r->name, r->joint[0], r->joint[1], r->coef[0], r->coef[1]);
    g_assert_cmpint(r->kind, ==, MT_COUPLE_LINEAR);
    g_assert_cmpfloat(r->coef[0], ==, 1);
    g_assert_cmpfloat(r->coef[1], ==, 1);
    settle_for(0.4);
    save_shot("planar-atwood.png");
    g_autoptr(GError) error = NULL;
    g_assert_true(motus_window_set_field(win, MT_EDIT_SOLVER, 0, "until", "0.5", &error));
    run_f5();
    double m1 = model()->body[0].mass, m2 = model()->body[1].mass, a = (m2 - m1) * 9.81 / (m1 + m2);
    char col[80];
    g_snprintf(col, sizeof col, "%s.disp", model()->joint[0].name);
    double s1 = last(col);
    g_snprintf(col, sizeof col, "%s.disp", model()->joint[1].name);
    double s2 = last(col);
    g_print("Atwood: m1 %.6g kg, m2 %.6g kg; after 0.5 s the light block rose %.9f m, the heavy one %.9f m; closed form "
            "%.9f m\n", m1, m2, s1, s2, 0.5 * a * 0.25);
    g_assert_cmpfloat(fabs(s1 - 0.5 * a * 0.25), <, 1e-9);
    g_assert_cmpfloat(fabs(s1 + s2), <, 1e-9);
}

int main(int argc, char **argv)
{
    ui_app_init(&argc, &argv, "org.motus.MotusPlanarTest");
    motus_window_new_project(win);
    settle();
    g_test_add_func("/planar/mode", test_mode);
    g_test_add_func("/planar/snap-and-type", test_snap_and_type);
    g_test_add_func("/planar/pendulum", test_pendulum);
    g_test_add_func("/planar/joints", test_joints);
    g_test_add_func("/planar/bar", test_bar);
    g_test_add_func("/planar/rope", test_rope);
    return ui_app_finish(g_test_run());
}
