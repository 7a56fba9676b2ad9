/* check_shot.c — checks a screenshot of the Motus window taken with
 * `motus --screenshot PNG --shot-info INFO`:
 *   - the image has the window's size and is not blank (many colours, contrast);
 *   - around every body listed in INFO the 3D view shows the body, not the
 *     background gradient (at least a third of a 9x9 patch differs from it);
 *   - the plot area holds a curve: enough strongly coloured pixels spread
 *     over at least half of its width (axes, grid and text are grey).
 * usage: motus-check-shot PNG INFO [--min-bodies N] [--min-curve-pixels N] */
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int x, y, w, h;
} Rect;

static GdkPixbuf *img;
static int W, H, stride, nch;
static const guchar *px;

static void pixel(int x, int y, int rgb[3])
{
    const guchar *p = px + y * stride + x * nch;
    rgb[0] = p[0], rgb[1] = p[1], rgb[2] = p[2];
}

static int saturation(const int c[3])
{
    int mx = MAX(c[0], MAX(c[1], c[2])), mn = MIN(c[0], MIN(c[1], c[2]));
    return mx - mn;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s PNG INFO [--min-bodies N] [--min-curve-pixels N]\n", argv[0]);
        return 2;
    }
    int min_bodies = 1, min_curve = 300;
    for (int i = 3; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--min-bodies"))
            min_bodies = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--min-curve-pixels"))
            min_curve = atoi(argv[i + 1]);
    }
    GError *error = NULL;
    img = gdk_pixbuf_new_from_file(argv[1], &error);
    if (!img) {
        fprintf(stderr, "FAIL: cannot read %s: %s\n", argv[1], error->message);
        return 1;
    }
    W = gdk_pixbuf_get_width(img), H = gdk_pixbuf_get_height(img);
    stride = gdk_pixbuf_get_rowstride(img), nch = gdk_pixbuf_get_n_channels(img);
    px = gdk_pixbuf_get_pixels(img);
    char *info = NULL;
    if (!g_file_get_contents(argv[2], &info, NULL, &error)) {
        fprintf(stderr, "FAIL: cannot read %s: %s\n", argv[2], error->message);
        return 1;
    }
    int fails = 0, win_w = 0, win_h = 0, nbody = 0;
    Rect vp = {0}, plot = {0};
    double top[3] = {-1, -1, -1}, bot[3] = {-1, -1, -1};
    char **lines = g_strsplit(info, "\n", -1);
    /* first pass: geometry */
    for (char **l = lines; *l; l++) {
        sscanf(*l, "window %d %d", &win_w, &win_h);
        sscanf(*l, "viewport %d %d %d %d", &vp.x, &vp.y, &vp.w, &vp.h);
        sscanf(*l, "plot %d %d %d %d", &plot.x, &plot.y, &plot.w, &plot.h);
        sscanf(*l, "background %lf %lf %lf %lf %lf %lf", &top[0], &top[1], &top[2], &bot[0], &bot[1], &bot[2]);
    }
    printf("image %dx%d, window %dx%d, viewport %d,%d %dx%d, plot %d,%d %dx%d\n", W, H, win_w, win_h, vp.x, vp.y, vp.w,
           vp.h, plot.x, plot.y, plot.w, plot.h);
    if (W != win_w || H != win_h) {
        printf("FAIL: image size differs from the window\n");
        fails++;
    }
    if (vp.w < 50 || vp.h < 50 || plot.w < 50 || plot.h < 50 || top[0] < 0) {
        printf("FAIL: the description lacks the viewport, plot or background\n");
        g_strfreev(lines);
        return 1;
    }
    /* not blank: many distinct colours and some contrast */
    GHashTable *colours = g_hash_table_new(g_direct_hash, g_direct_equal);
    double sum = 0, sum2 = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int c[3];
            pixel(x, y, c);
            g_hash_table_add(colours, GINT_TO_POINTER((c[0] >> 2) << 12 | (c[1] >> 2) << 6 | (c[2] >> 2)));
            double lum = 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2];
            sum += lum, sum2 += lum * lum;
        }
    double mean = sum / ((double)W * H), sd = sqrt(fmax(0, sum2 / ((double)W * H) - mean * mean));
    guint ncol = g_hash_table_size(colours);
    printf("distinct colours %u, luminance mean %.1f sd %.1f\n", ncol, mean, sd);
    if (ncol < 64 || sd < 10) {
        printf("FAIL: the image looks blank\n");
        fails++;
    }
    g_hash_table_unref(colours);
    /* bodies: the view differs from its background gradient around each body */
    for (char **l = lines; *l; l++) {
        char name[128];
        int bx, by;
        if (sscanf(*l, "body %127s %d %d", name, &bx, &by) != 3) continue;
        nbody++;
        int differ = 0, total = 0;
        for (int y = by - 4; y <= by + 4; y++)
            for (int x = bx - 4; x <= bx + 4; x++) {
                if (x < vp.x || y < vp.y || x >= vp.x + vp.w || y >= vp.y + vp.h || x >= W || y >= H) continue;
                double f = (double)(y - vp.y) / (vp.h > 1 ? vp.h - 1 : 1); /* 0 at the top */
                int c[3], d = 0;
                pixel(x, y, c);
                for (int k = 0; k < 3; k++) d = MAX(d, abs(c[k] - (int)lround(255 * ((1 - f) * top[k] + f * bot[k]))));
                differ += d > 40;
                total++;
            }
        printf("body %-12s at (%d, %d): %d of %d pixels differ from the background\n", name, bx, by, differ, total);
        if (total == 0 || differ * 3 < total) {
            printf("FAIL: body '%s' is not visible where it should be\n", name);
            fails++;
        }
    }
    if (nbody < min_bodies) {
        printf("FAIL: %d bodies in view, expected at least %d\n", nbody, min_bodies);
        fails++;
    }
    /* the plot holds a curve */
    int coloured = 0, columns = 0;
    for (int x = plot.x; x < plot.x + plot.w && x < W; x++) {
        int in_col = 0;
        for (int y = plot.y; y < plot.y + plot.h && y < H; y++) {
            int c[3];
            pixel(x, y, c);
            if (saturation(c) > 80) coloured++, in_col = 1;
        }
        columns += in_col;
    }
    printf("plot: %d coloured pixels in %d of %d columns\n", coloured, columns, plot.w);
    if (coloured < min_curve || columns * 2 < plot.w) {
        printf("FAIL: no curve in the plot\n");
        fails++;
    }
    g_strfreev(lines);
    g_free(info);
    g_object_unref(img);
    printf(fails ? "check-shot: %d failure(s)\n" : "check-shot: OK\n", fails);
    return fails ? 1 : 0;
}
