/* The plot widget while a run feeds it (ctest gui_plot_live, under Xvfb): it
 * keeps its picture and draws only the points appended since the last frame
 * (motus-plot.c, draw_func), so after points arrive in many small batches —
 * with the y range growing on the way, which redraws it whole — the window
 * must show the same picture as the plot drawn at once from all the points
 * (motus_plot_render, the export's path). Two curves: one with fewer points
 * than pixel columns (drawn as a polyline), one with many per column (drawn
 * as each column's smallest-to-largest segment). Leaves plot_live.png in the
 * build directory: the plot drawn at once, the live one, their difference.
 * Also where the legend goes in a short plot and a tall one (plot_legend.png). */
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "motus-plot.h"

enum { W = 640, H = 320, BATCHES = 60, N_SPARSE = 240, N_DENSE = 12000 };

static guint paints;

static void after_paint(GdkFrameClock *clock, gpointer data)
{
    (void)clock, (void)data;
    paints++;
}

static gboolean wake(gpointer data)
{
    (void)data;
    return G_SOURCE_CONTINUE;
}

/* Runs the main loop until the window has painted once more. */
static void wait_paint(GtkWidget *w)
{
    guint mark = paints, id = g_timeout_add(10, wake, NULL);
    gint64 end = g_get_monotonic_time() + 20 * G_USEC_PER_SEC;
    gtk_widget_queue_draw(w);
    while (paints == mark && g_get_monotonic_time() < end) g_main_context_iteration(NULL, TRUE);
    g_source_remove(id);
    g_assert_cmpuint(paints, >, mark);
}

/* Oscillations growing during the first half of the "run", so the automatic y
 * range widens (the plot is drawn whole again), then dying out, so the legend
 * stays in the corner it took (top right, empty until the end). */
static double amp(double t) { return t < 5 ? 0.2 + t : 5.2 * exp(-(t - 5)); }
static double f_sparse(double t) { return amp(t) * sin(2.1 * t); }
static double f_dense(double t) { return 0.5 * amp(t) * cos(9.0 * t) + 0.1 * sin(300.0 * t); }

static void append_range(MotusPlot *p, int curve, double (*f)(double), guint n, guint from, guint to)
{
    double x[N_DENSE], y[N_DENSE];
    guint k = 0;
    for (guint i = from; i < to; i++, k++) {
        x[k] = 10.0 * i / (n - 1);
        y[k] = f(x[k]);
    }
    motus_plot_append(p, curve, x, y, k);
}

/* The widget as the window renders it (its paintable, through the window's renderer). */
static guchar *widget_pixels(GtkWidget *win, GtkWidget *w)
{
    g_autoptr(GdkPaintable) pt = gtk_widget_paintable_new(w);
    GtkSnapshot *snap = gtk_snapshot_new();
    gdk_paintable_snapshot(pt, GDK_SNAPSHOT(snap), W, H);
    GskRenderNode *node = gtk_snapshot_free_to_node(snap);
    g_assert_nonnull(node);
    GdkTexture *tex =
        gsk_renderer_render_texture(gtk_native_get_renderer(GTK_NATIVE(win)), node, &GRAPHENE_RECT_INIT(0, 0, W, H));
    gsk_render_node_unref(node);
    g_assert_cmpint(gdk_texture_get_width(tex), ==, W);
    guchar *px = g_malloc((gsize)W * H * 4);
    gdk_texture_download(tex, px, W * 4); /* B, G, R, A in memory, like cairo's RGB24 */
    g_object_unref(tex);
    return px;
}

static void test_live_equals_whole(void)
{
    GtkWidget *win = gtk_window_new();
    gtk_window_set_decorated(GTK_WINDOW(win), FALSE);
    GtkWidget *plot = motus_plot_new();
    gtk_widget_set_size_request(plot, W, H);
    gtk_window_set_child(GTK_WINDOW(win), plot);
    gtk_window_present(GTK_WINDOW(win));
    while (!gtk_widget_get_mapped(plot)) g_main_context_iteration(NULL, TRUE);
    g_signal_connect(gtk_widget_get_frame_clock(win), "after-paint", G_CALLBACK(after_paint), NULL);
    wait_paint(win);
    g_assert_cmpint(gtk_widget_get_width(plot), ==, W);
    g_assert_cmpint(gtk_widget_get_height(plot), ==, H);

    MotusPlot *p = MOTUS_PLOT(plot);
    int a = motus_plot_add_curve(p, "a", "m"), b = motus_plot_add_curve(p, "b", "m");
    motus_plot_set_x_range(p, 0, 10); /* as during a run: 0 … end time */
    guint whole0 = motus_plot_get_full_draws(p);
    for (guint k = 0; k < BATCHES; k++) {
        append_range(p, a, f_sparse, N_SPARSE, N_SPARSE * k / BATCHES, N_SPARSE * (k + 1) / BATCHES);
        append_range(p, b, f_dense, N_DENSE, N_DENSE * k / BATCHES, N_DENSE * (k + 1) / BATCHES);
        motus_plot_set_cursor(p, 10.0 * (k + 1) / BATCHES);
        wait_paint(win);
    }
    motus_plot_set_cursor(p, NAN);
    wait_paint(win);
    /* the range widened a few times; most batches were drawn onto the picture */
    guint redrawn = motus_plot_get_full_draws(p) - whole0;
    g_test_message("%u of %d frames drawn whole", redrawn, BATCHES + 1);
    g_assert_cmpuint(redrawn, >=, 2);
    g_assert_cmpuint(redrawn, <=, BATCHES / 3);
    g_assert_cmpuint(motus_plot_n_points(p, a), ==, N_SPARSE);
    g_assert_cmpuint(motus_plot_n_points(p, b), ==, N_DENSE);

    guchar *live = widget_pixels(win, plot);
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
    cairo_t *cr = cairo_create(s);
    motus_plot_render(p, cr, W, H);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    const guchar *whole = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);

    /* Pixels that differ clearly (not just in anti-aliasing where a batch's
     * stroke meets the previous one), and pixels of curve colour in each. */
    long differ = 0, coloured_live = 0, coloured_whole = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const guchar *l = live + (gsize)y * W * 4 + (gsize)x * 4, *w = whole + (gsize)y * stride + (gsize)x * 4;
            int d = 0;
            for (int c = 0; c < 3; c++) d = MAX(d, abs((int)l[c] - (int)w[c]));
            differ += d > 96;
            coloured_live += abs((int)l[0] - (int)l[2]) > 60; /* blue or orange, not grey */
            coloured_whole += abs((int)w[0] - (int)w[2]) > 60;
        }
    { /* artifact: the whole plot, the live one, and where they differ (white) */
        cairo_surface_t *ds = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, 3 * H);
        guchar *dd = cairo_image_surface_get_data(ds);
        int dstr = cairo_image_surface_get_stride(ds);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                for (int c = 0; c < 4; c++) {
                    guchar lv = live[(gsize)y * W * 4 + x * 4 + c], wv = whole[(gsize)y * stride + x * 4 + c];
                    dd[(gsize)y * dstr + x * 4 + c] = wv;
                    dd[(gsize)(y + H) * dstr + x * 4 + c] = lv;
                    dd[(gsize)(y + 2 * H) * dstr + x * 4 + c] = abs(lv - wv) > 96 ? 255 : 0;
                }
        cairo_surface_mark_dirty(ds);
        g_autofree char *png = g_build_filename(MOTUS_OUT_DIR, "plot_live.png", NULL);
        g_assert_cmpint(cairo_surface_write_to_png(ds, png), ==, CAIRO_STATUS_SUCCESS);
        cairo_surface_destroy(ds);
    }
    g_test_message("curve pixels: live %ld, whole %ld; differing %ld", coloured_live, coloured_whole, differ);
    g_assert_cmpint(coloured_whole, >, 3000); /* both curves are there */
    g_assert_cmpint(labs(coloured_live - coloured_whole), <, coloured_whole / 50);
    g_assert_cmpint(differ, <, W * H / 500);
    cairo_surface_destroy(s);
    g_free(live);
    gtk_window_destroy(GTK_WINDOW(win));
}

/* Points of the plot's curves under the legend box of its last picture (render: width x height). */
static int points_under_legend(MotusPlot *p, int n, const int *curve)
{
    double r[4], v[4], lx, ly, lw, lh;
    gboolean out;
    motus_plot_get_area(p, r, v);
    double px = r[0], py = r[1], pw = r[2], ph = r[3], x0 = v[0], x1 = v[1], y0 = v[2], y1 = v[3];
    g_assert_true(motus_plot_get_legend(p, &lx, &ly, &lw, &lh, &out));
    int hidden = 0;
    for (int c = 0; c < n; c++)
        for (guint i = 0; i < motus_plot_n_points(p, curve[c]); i++) {
            double x, y;
            g_assert_true(motus_plot_get_point(p, curve[c], i, &x, &y));
            double sx = px + (x - x0) / (x1 - x0) * pw, sy = py + ph - (y - y0) / (y1 - y0) * ph;
            hidden += sx >= lx && sx <= lx + lw && sy >= ly && sy <= ly + lh;
        }
    return hidden;
}

/* Short plots (several stacked in the plot pane) with curves across their
 * whole width: a legend in any corner would hide some, so it goes right of the
 * plot rectangle, which keeps most of the width; a tall plot keeps it inside,
 * in the corner that hides the fewest points. Leaves plot_legend.png. */
static void test_legend_outside(void)
{
    GtkWidget *w = motus_plot_new();
    g_object_ref_sink(w);
    MotusPlot *p = MOTUS_PLOT(w);
    int curve[3] = {motus_plot_add_curve(p, "motor.effort", "N·m"), motus_plot_add_curve(p, "shaft.Tz", "N·m"),
                    motus_plot_add_curve(p, "out_pin.angle", "rad")};
    enum { NP = 400 };
    double x[NP], y[NP];
    for (int c = 0; c < 3; c++) {
        for (int i = 0; i < NP; i++) x[i] = 3.0 * i / (NP - 1), y[i] = sin(4 * x[i] + c) * (1 + 0.3 * c);
        motus_plot_set_data(p, curve[c], x, y, NP);
    }
    const int WS = 900, HS = 90, HT = 400;
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, WS, HS + HT);
    cairo_t *cr = cairo_create(s);
    motus_plot_render(p, cr, WS, HS);
    double r[4], v[4], lx, ly, lw, lh;
    gboolean out;
    motus_plot_get_area(p, r, v);
    double px = r[0], pw = r[2], ph = r[3];
    g_assert_true(motus_plot_get_legend(p, &lx, &ly, &lw, &lh, &out));
    g_test_message("short plot: area %.0f+%.0f x %.0f, legend at %.0f, %.0f x %.0f, outside %d", px, pw, ph, lx, lw, lh, out);
    g_assert_true(out);
    g_assert_cmpfloat(lx, >=, px + pw);     /* right of the curves */
    g_assert_cmpfloat(lx + lw, <=, WS);     /* and in the picture */
    g_assert_cmpfloat(ly + lh, <=, HS);
    g_assert_cmpfloat(pw, >=, 0.6 * WS - 60); /* the curves keep most of the width */
    g_assert_cmpfloat(lh, >, ph);             /* three entries one under another, beside the tick labels */
    g_assert_cmpint(points_under_legend(p, 3, curve), ==, 0);
    /* the legend's swatches are drawn there: pixels of the first curve's colour (blue) in the box */
    cairo_surface_flush(s);
    const guchar *d = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s), blue = 0;
    for (int yy = (int)ly; yy < (int)(ly + lh); yy++)
        for (int xx = (int)lx; xx < (int)(lx + lw); xx++) {
            const guchar *q = d + (gsize)yy * stride + 4 * xx; /* B G R */
            blue += q[0] > 150 && q[2] < 100;
        }
    g_assert_cmpint(blue, >, 20);

    cairo_save(cr);
    cairo_rectangle(cr, 0, HS, WS, HT);
    cairo_clip(cr);
    cairo_translate(cr, 0, HS);
    motus_plot_render(p, cr, WS, HT);
    cairo_restore(cr);
    motus_plot_get_area(p, r, v);
    px = r[0], pw = r[2];
    g_assert_true(motus_plot_get_legend(p, &lx, &ly, &lw, &lh, &out));
    g_test_message("tall plot: legend at %.0f, %.0f, outside %d", lx, ly, out);
    g_assert_false(out);
    g_assert_cmpfloat(lx, >=, px);
    g_assert_cmpfloat(lx + lw, <=, px + pw);
    g_assert_cmpfloat(pw, >=, WS - 120);
    cairo_destroy(cr);
    g_autofree char *png = g_build_filename(MOTUS_OUT_DIR, "plot_legend.png", NULL);
    g_assert_cmpint(cairo_surface_write_to_png(s, png), ==, CAIRO_STATUS_SUCCESS);
    cairo_surface_destroy(s);
    g_object_unref(w);
}

/* Two plots stacked in a box (as in the window's plot pane) with different
 * tick labels (0.05 … against 6) and legends: their plot rectangles share
 * left and right edges, so the time axes line up; alone, the first is wider. */
static void test_stacked_align(void)
{
    GtkWidget *win = gtk_window_new();
    gtk_window_set_decorated(GTK_WINDOW(win), FALSE);
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    GtkWidget *pw[2];
    const char *name[2] = {"block.x", "friction_force_of_the_belt"};
    for (int k = 0; k < 2; k++) {
        pw[k] = motus_plot_new();
        gtk_widget_set_size_request(pw[k], 900, 90);
        gtk_box_append(GTK_BOX(box), pw[k]);
        MotusPlot *p = MOTUS_PLOT(pw[k]);
        int c = motus_plot_add_curve(p, name[k], k ? "N" : "m");
        double x[200], y[200];
        for (int i = 0; i < 200; i++) x[i] = 3.0 * i / 199, y[i] = k ? 6 * fabs(sin(x[i])) : 0.05 * sin(5 * x[i]);
        motus_plot_set_data(p, c, x, y, 200);
    }
    gtk_window_set_child(GTK_WINDOW(win), box);
    gtk_window_present(GTK_WINDOW(win));
    while (!gtk_widget_get_mapped(pw[1])) g_main_context_iteration(NULL, TRUE);
    g_signal_connect(gtk_widget_get_frame_clock(win), "after-paint", G_CALLBACK(after_paint), NULL);
    for (int k = 0; k < 3; k++) wait_paint(win); /* the second lines up at the frame after the first */
    double r[2][4], v[4];
    for (int k = 0; k < 2; k++) motus_plot_get_area(MOTUS_PLOT(pw[k]), r[k], v);
    g_test_message("plot rectangles: %.1f + %.1f and %.1f + %.1f", r[0][0], r[0][2], r[1][0], r[1][2]);
    g_assert_cmpfloat(fabs(r[0][0] - r[1][0]), <, 0.5);
    g_assert_cmpfloat(fabs(r[0][2] - r[1][2]), <, 0.5);
    /* the same plot alone (the export's path) keeps its own margins: a narrower legend, wider curves */
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 900, 90);
    cairo_t *cr = cairo_create(s);
    motus_plot_render(MOTUS_PLOT(pw[0]), cr, 900, 90);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    double alone[4];
    motus_plot_get_area(MOTUS_PLOT(pw[0]), alone, v);
    g_assert_cmpfloat(alone[2], >, r[0][2] + 20);
    gtk_window_destroy(GTK_WINDOW(win));
}

int main(int argc, char **argv)
{
    gtk_disable_setlocale();
    g_test_init(&argc, &argv, NULL);
    gtk_init();
    g_test_add_func("/plot/live-equals-whole", test_live_equals_whole);
    g_test_add_func("/plot/legend-outside", test_legend_outside);
    g_test_add_func("/plot/stacked-align", test_stacked_align);
    return g_test_run();
}
