/* Levels of detail in the 3D view, in-process under Xvfb (ctest gui_lod), on
 * tests/ui/lod.motus.txt seen from the front after fit-all:
 * - each ball is drawn at the level motus_lod_level gives for its radius on
 *   screen, measured here by projecting its centre and its top: the big one
 *   at full detail, the small far one at the coarsest level, and fewer
 *   triangles are drawn than at full detail;
 * - the small ball is still drawn where it should be, in its colour, and
 *   covers as many pixels (within 15 % and 3 px) as at full detail: still round;
 * - picking (always at full detail) finds it; selecting it keeps its level.
 * - solids are drawn nearest first and the picture is the same (test_order);
 * - the background gradient, drawn once per size, follows a resize, and
 *   the view's picture is the right way up whether GTK's cairo renderer
 *   (the view reads it back itself) or GTK's GL renderer shows it (gui_lod_gl).
 * Screenshots lod.png, lod_full.png, lod_zoom.png and lod_zoom_middle.png
 * (the small and the middle ball magnified, coarse left, full detail right)
 * and order_right.png stay in build/tests/ui. */
#include <gtk/gtk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "motus-scene.h"
#include "motus-viewport.h"
#include "motus-window.h"
#include "ui-test.h"

static void shoot(const char *name, char **path)
{
    wait_drawn();
    *path = g_build_filename(MOTUS_OUT_DIR, name, NULL);
    g_autoptr(GError) error = NULL;
    g_assert_true(motus_window_save_screenshot(win, *path, &error));
    g_print("screenshot: %s\n", *path);
}

/* Centre (window pixels) and radius on screen (pixels) of ball `b`. */
static void ball_on_screen(int b, double *x, double *y, double *r)
{
    const MtModel *m = model();
    double c[3], top[3], vx, vy, tx, ty;
    memcpy(c, m->body[b].pos, sizeof c);
    memcpy(top, c, sizeof top);
    top[1] += m->shape[b].size[0]; /* seen from the front, y is up on screen */
    g_assert_true(motus_viewport_project_point(viewport(), c, &vx, &vy));
    g_assert_true(motus_viewport_project_point(viewport(), top, &tx, &ty));
    *r = hypot(tx - vx, ty - vy);
    graphene_point_t p = GRAPHENE_POINT_INIT((float)vx, (float)vy), out;
    g_assert_true(gtk_widget_compute_point(motus_viewport_get_gl_area(viewport()), GTK_WIDGET(win), &p, &out));
    *x = out.x, *y = out.y;
}

/* Pixels of a screenshot between r0 and r1 px from (x, y) in which channel c (0 blue, 1 green, 2 red) stands
 * out from the other two by 40 levels (a ball's colour). */
static int colour_pixels(const char *png, double x, double y, double r0, double r1, int c)
{
    g_autoptr(GdkTexture) tex = gdk_texture_new_from_filename(png, NULL);
    g_assert_nonnull(tex);
    int w = gdk_texture_get_width(tex), h = gdk_texture_get_height(tex), n = 0, R = (int)ceil(r1);
    guchar *px = g_malloc((gsize)w * h * 4);
    gdk_texture_download(tex, px, (gsize)w * 4);
    for (int j = MAX(0, (int)y - R); j <= MIN(h - 1, (int)y + R); j++)
        for (int i = MAX(0, (int)x - R); i <= MIN(w - 1, (int)x + R); i++) {
            const guchar *q = px + ((gsize)j * w + i) * 4; /* B G R A */
            double d = hypot(i - x, j - y);
            if (d >= r0 && d <= r1 && q[c] > q[(c + 1) % 3] + 40 && q[c] > q[(c + 2) % 3] + 40) n++;
        }
    g_free(px);
    return n;
}

/* Pixels within r + 2 px of (x, y) whose green stands out (the small ball's colour); the square around it. */
static int green_pixels(const char *png, double x, double y, double r)
{
    return colour_pixels(png, x, y, 0, (r + 2) * G_SQRT2, 1);
}

/* Both pictures of an S × S square around (x, y) side by side, magnified Z×, to look at. */
static void save_zoom(const char *coarse, const char *full, double x, double y, int S, int Z, const char *out)
{
    g_autoptr(GdkPixbuf) a = gdk_pixbuf_new_from_file(coarse, NULL), b = gdk_pixbuf_new_from_file(full, NULL);
    g_assert_nonnull(a);
    g_assert_nonnull(b);
    g_autoptr(GdkPixbuf) z = gdk_pixbuf_new(GDK_COLORSPACE_RGB, gdk_pixbuf_get_has_alpha(a), 8, 2 * S * Z + Z, S * Z);
    gdk_pixbuf_fill(z, 0xffffffff);
    int x0 = CLAMP((int)x - S / 2, 0, gdk_pixbuf_get_width(a) - S),
        y0 = CLAMP((int)y - S / 2, 0, gdk_pixbuf_get_height(a) - S);
    gdk_pixbuf_scale(a, z, 0, 0, S * Z, S * Z, -x0 * Z, -y0 * Z, Z, Z, GDK_INTERP_NEAREST);
    gdk_pixbuf_scale(b, z, S * Z + Z, 0, S * Z, S * Z, S * Z + Z - x0 * Z, -y0 * Z, Z, Z, GDK_INTERP_NEAREST);
    g_assert_true(gdk_pixbuf_save(z, out, "png", NULL, NULL));
    g_print("magnified: %s\n", out);
}

static void test_levels(void)
{
    g_action_group_activate_action(G_ACTION_GROUP(win), "view-front", NULL);
    g_action_group_activate_action(G_ACTION_GROUP(win), "fit-all", NULL);
    wait_drawn();
    wait_drawn();
    const char *names[3] = {"near", "middle", "far"};
    int level[3];
    double x[3], y[3], r[3];
    for (int b = 0; b < 3; b++) {
        ball_on_screen(b, &x[b], &y[b], &r[b]);
        level[b] = motus_viewport_get_body_detail(viewport(), b);
        g_test_message("%s ball: %.1f px in radius at (%.0f, %.0f): level %d (%d segments)", names[b], r[b], x[b], y[b],
                       level[b], MOTUS_LOD_SEGMENTS(level[b]));
        /* the ball is the body's bounding sphere: its level is the one for its radius on screen */
        int want = motus_lod_level(r[b]);
        g_assert_cmpint(want, ==, level[b]);
    }
    g_assert_cmpint(level[0], ==, 0);                    /* big: full detail */
    g_assert_cmpint(level[2], ==, MOTUS_LOD_LEVELS - 1); /* a few pixels: the coarsest */
    g_assert_cmpfloat(r[2], >, 2);                       /* and still big enough to look at */
    long tris = motus_viewport_get_triangles_drawn(viewport());
    g_autofree char *shot = NULL, *shot_full = NULL;
    shoot("lod.png", &shot);
    int n = green_pixels(shot, x[2], y[2], r[2]);

    motus_viewport_set_full_detail(viewport(), TRUE);
    shoot("lod_full.png", &shot_full);
    for (int b = 0; b < 3; b++) g_assert_cmpint(motus_viewport_get_body_detail(viewport(), b), ==, 0);
    long tris_full = motus_viewport_get_triangles_drawn(viewport());
    int n_full = green_pixels(shot_full, x[2], y[2], r[2]);
    g_test_message("triangles drawn: %ld with levels of detail, %ld at full detail; small ball: %d pixels coarse, %d "
                   "full (π r² = %.0f)",
                   tris, tris_full, n, n_full, G_PI * r[2] * r[2]);
    g_assert_cmpint(tris_full, ==, 3 * 32 * 32);
    g_assert_cmpint(tris, <, tris_full);
    g_assert_cmpfloat(n_full, >, 0.5 * G_PI * r[2] * r[2]); /* the check sees the ball */
    g_assert_cmpfloat(abs(n - n_full), <=, 0.15 * n_full + 3);
    g_autofree char *zoom = g_build_filename(MOTUS_OUT_DIR, "lod_zoom.png", NULL);
    save_zoom(shot, shot_full, x[2], y[2], 32, 8, zoom);
    g_autofree char *zoom_mid = g_build_filename(MOTUS_OUT_DIR, "lod_zoom_middle.png", NULL);
    save_zoom(shot, shot_full, x[1], y[1], 48, 6, zoom_mid);
    motus_viewport_set_full_detail(viewport(), FALSE);

    /* picking is done at full detail and finds the small ball; selected, it keeps its level */
    GtkWidget *area = motus_viewport_get_gl_area(viewport());
    graphene_point_t p = GRAPHENE_POINT_INIT((float)x[2], (float)y[2]), in;
    g_assert_true(gtk_widget_compute_point(GTK_WIDGET(win), area, &p, &in));
    g_assert_cmpint(motus_viewport_body_at(viewport(), in.x, in.y), ==, 2);
    motus_viewport_set_selected_body(viewport(), 2);
    wait_drawn();
    g_assert_cmpint(motus_viewport_get_body_detail(viewport(), 2), ==, MOTUS_LOD_LEVELS - 1);
}

/* Rigid solids are drawn nearest first, so that the rasteriser's depth test
 * rejects hidden fragments before they are shaded; the picture must not
 * change. Seen from the right (the eye on +x) in orthographic projection the
 * row of balls is end-on: the small green one (x = 12) is drawn first, then
 * the blue one, then the big red one (x = 0), and they show as a green disc
 * in a blue ring in a red ring. From the front the big one, whose bounding
 * sphere comes nearest, is drawn first. */
static void test_order(void)
{
    motus_viewport_set_orthographic(viewport(), TRUE);
    g_action_group_activate_action(G_ACTION_GROUP(win), "view-right", NULL);
    g_action_group_activate_action(G_ACTION_GROUP(win), "fit-all", NULL);
    wait_drawn();
    int rank[3];
    for (int b = 0; b < 3; b++) rank[b] = motus_viewport_get_draw_rank(viewport(), b);
    g_test_message("seen from the right: drawn in ranks near %d, middle %d, far %d", rank[0], rank[1], rank[2]);
    g_assert_cmpint(rank[2], >=, 0);
    g_assert_cmpint(rank[2], <, rank[1]);
    g_assert_cmpint(rank[1], <, rank[0]);
    double x[3], y[3], r[3];
    for (int b = 0; b < 3; b++) ball_on_screen(b, &x[b], &y[b], &r[b]);
    g_assert_cmpfloat(fabs(x[0] - x[2]) + fabs(y[0] - y[2]), <, 1); /* end-on */
    g_autofree char *shot = NULL;
    shoot("order_right.png", &shot);
    /* each colour where its ball is in front, 2 px clear of the outlines */
    double a[3] = {G_PI * ((r[0] - 2) * (r[0] - 2) - (r[1] + 2) * (r[1] + 2)),
                   G_PI * ((r[1] - 2) * (r[1] - 2) - (r[2] + 2) * (r[2] + 2)), G_PI * (r[2] - 2) * (r[2] - 2)};
    int n[3] = {colour_pixels(shot, x[2], y[2], r[1] + 2, r[0] - 2, 2), colour_pixels(shot, x[2], y[2], r[2] + 2, r[1] - 2, 0),
                colour_pixels(shot, x[2], y[2], 0, r[2] - 2, 1)};
    for (int b = 0; b < 3; b++) {
        g_test_message("ball %d, %.1f px in radius: %d of %.0f pixels in its colour", b, r[b], n[b], a[b]);
        g_assert_cmpfloat(n[b], >, 0.6 * a[b]); /* the lit side of the small green ball is yellowish */
    }

    motus_viewport_set_orthographic(viewport(), FALSE);
    g_action_group_activate_action(G_ACTION_GROUP(win), "view-front", NULL);
    g_action_group_activate_action(G_ACTION_GROUP(win), "fit-all", NULL);
    wait_drawn();
    g_assert_cmpint(motus_viewport_get_draw_rank(viewport(), 0), <, motus_viewport_get_draw_rank(viewport(), 1));
    g_assert_cmpint(motus_viewport_get_draw_rank(viewport(), 0), <, motus_viewport_get_draw_rank(viewport(), 2));
    g_assert_cmpint(motus_viewport_get_draw_rank(viewport(), 4), ==, -1); /* no such body */
}

/* Pixels of the 3D view's left strip (20 px wide, rows 5 % … 35 % of its
 * height: no body, grid or triad there) that show the background gradient
 * within 3 levels, of how many were checked. */
static void background_pixels(const char *png, int *match, int *total)
{
    GtkWidget *area = motus_viewport_get_gl_area(viewport());
    graphene_point_t o = GRAPHENE_POINT_INIT(0, 0), vo;
    g_assert_true(gtk_widget_compute_point(area, GTK_WIDGET(win), &o, &vo));
    int vx = (int)vo.x, vy = (int)vo.y, vh = gtk_widget_get_height(area);
    float top[3], bot[3];
    motus_viewport_get_background(viewport(), top, bot);
    g_autoptr(GdkTexture) tex = gdk_texture_new_from_filename(png, NULL);
    g_assert_nonnull(tex);
    int w = gdk_texture_get_width(tex), h = gdk_texture_get_height(tex);
    guchar *px = g_malloc((gsize)w * h * 4);
    gdk_texture_download(tex, px, (gsize)w * 4);
    *match = *total = 0;
    for (int y = vy + vh / 20; y < vy + 7 * vh / 20 && y < h; y++)
        for (int x = vx + 10; x < vx + 30 && x < w; x++) {
            double f = (double)(y - vy) / (vh - 1); /* 0 at the top */
            const guchar *q = px + ((gsize)y * w + x) * 4; /* B G R A */
            int d = 0;
            for (int k = 0; k < 3; k++) d = MAX(d, abs(q[2 - k] - (int)lround(255 * ((1 - f) * top[k] + f * bot[k]))));
            *match += d <= 3;
            (*total)++;
        }
    g_free(px);
}

/* The background gradient is drawn once per size of the view and copied into
 * each frame: it must be the gradient at every size. */
static void test_background(void)
{
    g_action_group_activate_action(G_ACTION_GROUP(win), "view-front", NULL);
    g_action_group_activate_action(G_ACTION_GROUP(win), "fit-all", NULL);
    int sizes[2][2] = {{1280, 800}, {1000, 640}}, view_h[2];
    for (int k = 0; k < 2; k++) {
        gtk_window_set_default_size(GTK_WINDOW(win), sizes[k][0], sizes[k][1]);
        wait_drawn();
        wait_drawn();
        g_autofree char *shot = NULL, *name = g_strdup_printf("background_%d.png", sizes[k][0]);
        shoot(name, &shot);
        int match, total;
        background_pixels(shot, &match, &total);
        GtkWidget *area = motus_viewport_get_gl_area(viewport());
        g_test_message("window %dx%d, view %dx%d: %d of %d pixels of the strip show the gradient", sizes[k][0],
                       sizes[k][1], gtk_widget_get_width(area), gtk_widget_get_height(area), match, total);
        view_h[k] = gtk_widget_get_height(area);
        g_assert_cmpint(total, >, 1000);
        g_assert_cmpint(match, ==, total);
        /* under GTK's cairo renderer the view reads its picture back itself (rows flipped: the gradient
         * above would be upside down), under GTK's GL renderer GTK shows the GL texture (ctest gui_lod_gl) */
        GskRenderer *r = gtk_native_get_renderer(GTK_NATIVE(win));
        g_test_message("renderer %s, view read back: %d", G_OBJECT_TYPE_NAME(r), motus_viewport_reads_back(viewport()));
        g_assert_cmpint(motus_viewport_reads_back(viewport()), ==, GSK_IS_CAIRO_RENDERER(r));
    }
    g_assert_cmpint(view_h[1], <, view_h[0]); /* the view did change size */
    gtk_window_set_default_size(GTK_WINDOW(win), 1280, 800);
    wait_drawn();
}

int main(int argc, char **argv)
{
    ui_test_init(&argc, &argv);
    gtk_window_set_default_size(GTK_WINDOW(win), 1280, 800);
    gtk_window_present(GTK_WINDOW(win));
    open_model(MOTUS_LOD_MODEL);
    g_test_add_func("/lod/levels", test_levels);
    g_test_add_func("/lod/order", test_order);
    g_test_add_func("/lod/background", test_background);
    int rc = g_test_run();
    gtk_window_destroy(GTK_WINDOW(win));
    return rc;
}
