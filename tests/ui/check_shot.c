/* check_shot.c — checks a screenshot of the Motus window taken with
 * `motus --screenshot PNG --shot-info INFO`:
 *   - the image has the window's size and is not blank (many colours, contrast);
 *   - around every body listed in INFO the 3D view shows the body, not the
 *     background gradient (at least a third of a 9x9 patch differs from it);
 *   - the plot area holds a curve: enough strongly coloured pixels spread
 *     over at least half of its width (axes, grid and text are grey).
 *   - with --flex-map NAME: the legend's colour bar is drawn (a bar of at
 *     least four hues), and flexible body NAME is drawn with it: each pixel
 *     in the body's box on screen whose chromaticity matches a colour of the
 *     bar gets that colour's place t (0 bottom … 1 top); at least
 *     --map-pixels pixels must lie below t = 0.2, above t = 0.8, and in six
 *     of the ten tenths (a plain body matches one colour only);
 *   - with --flex-shift NAME MIN MAX: the most displaced vertex of NAME is
 *     drawn MIN … MAX pixels from where it would be undeformed, and the view
 *     shows the body there (not the background).
 * usage: motus-check-shot PNG INFO [--min-bodies N] [--min-curve-pixels N]
 *        [--flex-map NAME] [--map-pixels N] [--flex-shift NAME MIN MAX] */
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

/* Hue (degrees) and saturation (0..1) of a pixel. */
static void hue_sat(const int c[3], double *h, double *sat)
{
    int mx = MAX(c[0], MAX(c[1], c[2])), mn = MIN(c[0], MIN(c[1], c[2]));
    double d = mx - mn;
    *sat = mx > 0 ? d / mx : 0;
    if (d <= 0) {
        *h = 0;
        return;
    }
    if (mx == c[0])
        *h = 60 * fmod((c[1] - c[2]) / d + 6, 6);
    else if (mx == c[1])
        *h = 60 * ((c[2] - c[0]) / d + 2);
    else
        *h = 60 * ((c[0] - c[1]) / d + 4);
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
    int min_bodies = 1, min_curve = 300, map_pixels = 20;
    const char *flex_map = NULL, *flex_shift = NULL;
    double shift_min = 0, shift_max = 0;
    for (int i = 3; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--min-bodies"))
            min_bodies = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--min-curve-pixels"))
            min_curve = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--flex-map"))
            flex_map = argv[i + 1];
        else if (!strcmp(argv[i], "--map-pixels"))
            map_pixels = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--flex-shift") && i + 3 < argc) {
            flex_shift = argv[i + 1];
            shift_min = atof(argv[i + 2]);
            shift_max = atof(argv[i + 3]);
            i += 2;
        }
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
        /* a body whose middle is this close to the view's edge may be mostly out of it */
        if (bx < vp.x + 12 || by < vp.y + 12 || bx >= vp.x + vp.w - 12 || by >= vp.y + vp.h - 12) {
            printf("body %-12s at (%d, %d): at the edge of the view, not checked\n", name, bx, by);
            continue;
        }
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
    /* flexible bodies: the colour map on the body and in the legend */
    if (flex_map) {
        Rect lg = {0};
        int bx0 = 0, by0 = 0, bx1 = -1, by1 = -1, have_field = 0;
        for (char **l = lines; *l; l++) {
            char name[128];
            int a, b, c, d;
            sscanf(*l, "legend %d %d %d %d", &lg.x, &lg.y, &lg.w, &lg.h);
            have_field |= !strncmp(*l, "field ", 6);
            if (sscanf(*l, "flexbody %127s %d %d %d %d", name, &a, &b, &c, &d) == 5 && !strcmp(name, flex_map))
                bx0 = a, by0 = b, bx1 = c, by1 = d;
        }
        /* the legend's bar: the column of the legend with the most strongly coloured pixels, its run of them
         * from the top (high end, t = 1) to the bottom (t = 0) */
        int best_x = -1, best_n = 0;
        for (int x = lg.x; x < lg.x + lg.w && x < W; x++) {
            int n = 0;
            for (int y = lg.y; y < lg.y + lg.h && y < H; y++) {
                int c[3];
                pixel(x, y, c);
                n += saturation(c) > 100;
            }
            if (n > best_n) best_n = n, best_x = x;
        }
        int y0 = -1, y1 = -1;
        for (int y = lg.y; best_x >= 0 && y < lg.y + lg.h && y < H; y++) {
            int c[3];
            pixel(best_x, y, c);
            if (saturation(c) > 100) {
                if (y0 < 0) y0 = y;
                y1 = y;
            }
        }
        int nbar = y1 - y0 + 1, hues[6] = {0};
        printf("legend %d,%d %dx%d: colour bar at x = %d, y = %d … %d\n", lg.x, lg.y, lg.w, lg.h, best_x, y0, y1);
        for (int y = y0; best_x >= 0 && y0 >= 0 && y <= y1; y++) {
            int c[3];
            double h, sat;
            pixel(best_x, y, c);
            hue_sat(c, &h, &sat);
            hues[(int)(h / 60) % 6]++;
        }
        int nhue = 0;
        for (int k = 0; k < 6; k++) nhue += hues[k] > 0;
        if (!have_field || lg.w < 40 || nbar < 80 || nhue < 4) {
            printf("FAIL: the legend with its colour bar is not drawn (bar %d px, %d hue sextants)\n", nbar, nhue);
            fails++;
        } else if (bx1 < bx0) {
            printf("FAIL: no box of flexible body '%s' in the description\n", flex_map);
            fails++;
        } else {
            /* each pixel of the body's box that has the chromaticity of a colour of the bar gets its t */
            double *chroma = g_new(double, 3 * (gsize)nbar);
            for (int i = 0; i < nbar; i++) {
                int c[3];
                pixel(best_x, y0 + i, c);
                double sum = c[0] + c[1] + c[2] + 1e-9;
                for (int k = 0; k < 3; k++) chroma[3 * i + k] = c[k] / sum;
            }
            int bins[10] = {0}, mapped = 0, other = 0;
            for (int y = MAX(by0, 0); y <= by1 && y < H; y++)
                for (int x = MAX(bx0, 0); x <= bx1 && x < W; x++) {
                    if (x >= lg.x && x < lg.x + lg.w && y >= lg.y && y < lg.y + lg.h) continue;
                    int c[3];
                    pixel(x, y, c);
                    double sum = c[0] + c[1] + c[2] + 1e-9, q[3] = {c[0] / sum, c[1] / sum, c[2] / sum}, bd = 1;
                    int bi = -1;
                    for (int i = 0; i < nbar; i++) {
                        const double *ch = chroma + 3 * i;
                        double d = hypot(hypot(q[0] - ch[0], q[1] - ch[1]), q[2] - ch[2]);
                        if (d < bd) bd = d, bi = i;
                    }
                    if (saturation(c) < 60 || bd > 0.03) {
                        other++;
                        continue;
                    }
                    double t = 1 - (double)bi / (nbar > 1 ? nbar - 1 : 1);
                    bins[MIN(9, (int)(t * 10))]++;
                    mapped++;
                }
            g_free(chroma);
            int occupied = 0;
            for (int k = 0; k < 10; k++) occupied += bins[k] >= map_pixels;
            printf("flexible body %s, box %d,%d-%d,%d: %d pixels of map colours (t by tenths: %d %d %d %d %d %d %d %d "
                   "%d %d), %d others\n",
                   flex_map, bx0, by0, bx1, by1, mapped, bins[0], bins[1], bins[2], bins[3], bins[4], bins[5], bins[6],
                   bins[7], bins[8], bins[9], other);
            if (bins[0] + bins[1] < map_pixels || bins[8] + bins[9] < map_pixels || occupied < 6) {
                printf("FAIL: the colours on '%s' do not span the map (need %d pixels below t = 0.2, above 0.8, and "
                       "in 6 of its tenths)\n", flex_map, map_pixels);
                fails++;
            }
        }
    }
    if (flex_shift) {
        int found = 0;
        for (char **l = lines; *l; l++) {
            char name[128];
            int v;
            double xd, yd, xu, yu;
            if (sscanf(*l, "flexpeak %127s %d %lf %lf %lf %lf", name, &v, &xd, &yd, &xu, &yu) != 6 ||
                strcmp(name, flex_shift))
                continue;
            found = 1;
            double d = hypot(xd - xu, yd - yu);
            int differ = 0, total = 0, px0 = (int)lround(xd), py0 = (int)lround(yd);
            for (int y = py0 - 3; y <= py0 + 3; y++)
                for (int x = px0 - 3; x <= px0 + 3; x++) {
                    if (x < vp.x || y < vp.y || x >= vp.x + vp.w || y >= vp.y + vp.h || x >= W || y >= H) continue;
                    double f = (double)(y - vp.y) / (vp.h > 1 ? vp.h - 1 : 1);
                    int c[3], dd = 0;
                    pixel(x, y, c);
                    for (int k = 0; k < 3; k++)
                        dd = MAX(dd, abs(c[k] - (int)lround(255 * ((1 - f) * top[k] + f * bot[k]))));
                    differ += dd > 40;
                    total++;
                }
            printf("flexible body %s: vertex %d drawn at (%.1f, %.1f), undeformed (%.1f, %.1f): moved %.1f px; "
                   "%d of %d pixels there differ from the background\n",
                   name, v, xd, yd, xu, yu, d, differ, total);
            if (d < shift_min || d > shift_max) {
                printf("FAIL: moved %.1f px, expected %g … %g\n", d, shift_min, shift_max);
                fails++;
            }
            if (total == 0 || differ * 3 < total) {
                printf("FAIL: the deformed body is not drawn where its vertex is\n");
                fails++;
            }
        }
        if (!found) {
            printf("FAIL: no 'flexpeak %s' line in the description\n", flex_shift);
            fails++;
        }
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
