/* motus-parcoords.c — a parallel-coordinates view drawn with cairo (see
 * motus-parcoords.h): axes with their names and end values, lines coloured
 * by one column, the lines drawn in the order of that column (the largest
 * on top, where they are easiest to follow). */
#include "motus-parcoords.h"

#include <math.h>
#include <stdlib.h>

#include "motus-scene.h"

struct _MotusParcoords {
    GtkDrawingArea parent_instance;
    int naxis, nline, colour;
    char **name;
    double *v, *lo, *hi;
};

G_DEFINE_FINAL_TYPE(MotusParcoords, motus_parcoords, GTK_TYPE_DRAWING_AREA)

#define M_SIDE 50.0
#define M_TOP 40.0
#define M_BOTTOM 30.0

gboolean motus_parcoords_range(MotusParcoords *self, int a, double *lo, double *hi)
{
    if (a < 0 || a >= self->naxis || !(self->lo[a] <= self->hi[a])) return FALSE;
    *lo = self->lo[a], *hi = self->hi[a];
    return TRUE;
}

/* The line's height on axis a, 0 (least) … 1 (largest); 0.5 when the axis holds one value. */
static double level(MotusParcoords *self, int l, int a)
{
    double v = self->v[l * self->naxis + a], d = self->hi[a] - self->lo[a];
    return d > 0 ? (v - self->lo[a]) / d : 0.5;
}

static void text_at(cairo_t *cr, PangoLayout *pl, const char *s, double x, double y, double ax, double ay)
{
    int w, h;
    pango_layout_set_text(pl, s, -1);
    pango_layout_get_pixel_size(pl, &w, &h);
    cairo_move_to(cr, x - ax * w, y - ay * h);
    pango_cairo_show_layout(cr, pl);
}

static MotusParcoords *sort_self; /* qsort's comparison reads it (the GTK thread only) */
static int by_colour(const void *a, const void *b)
{
    const MotusParcoords *s = sort_self;
    double x = s->v[*(const int *)a * s->naxis + s->colour], y = s->v[*(const int *)b * s->naxis + s->colour];
    if (isnan(x) || isnan(y)) return isnan(x) - isnan(y);
    return x < y ? -1 : x > y;
}

static void draw_lines(MotusParcoords *self, cairo_t *cr, double x0, double dx, double y0, double h)
{
    int *order = g_new(int, (gsize)self->nline + 1);
    for (int l = 0; l < self->nline; l++) order[l] = l;
    if (self->colour >= 0) {
        sort_self = self;
        qsort(order, (size_t)self->nline, sizeof *order, by_colour);
    }
    cairo_set_line_width(cr, 1.2);
    for (int k = 0; k < self->nline; k++) {
        int l = order[k];
        float rgb[3] = {0.2f, 0.4f, 0.8f};
        double c = self->colour >= 0 ? self->v[l * self->naxis + self->colour] : NAN;
        if (isfinite(c)) motus_colormap(level(self, l, self->colour), rgb);
        cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], 0.75);
        gboolean pen = FALSE;
        for (int a = 0; a < self->naxis; a++) {
            if (!isfinite(self->v[l * self->naxis + a])) {
                pen = FALSE;
                continue;
            }
            double x = x0 + a * dx, y = y0 + h * (1 - level(self, l, a));
            if (pen) cairo_line_to(cr, x, y);
            else cairo_move_to(cr, x, y);
            pen = TRUE;
        }
        cairo_stroke(cr);
    }
    g_free(order);
}

static void draw(GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
    (void)data;
    MotusParcoords *self = MOTUS_PARCOORDS(area);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    if (self->naxis < 2) return;
    PangoLayout *pl = gtk_widget_create_pango_layout(GTK_WIDGET(area), NULL);
    double x0 = M_SIDE, dx = (width - 2 * M_SIDE) / (self->naxis - 1), y0 = M_TOP,
           h = fmax(10, height - M_TOP - M_BOTTOM);
    draw_lines(self, cr, x0, dx, y0, h);
    char buf[64];
    for (int a = 0; a < self->naxis; a++) {
        double x = x0 + a * dx;
        cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
        cairo_set_line_width(cr, 1.5);
        cairo_move_to(cr, x, y0);
        cairo_line_to(cr, x, y0 + h);
        cairo_stroke(cr);
        text_at(cr, pl, self->name[a], x, y0 - 20, 0.5, 1);
        if (!(self->lo[a] <= self->hi[a])) continue;
        g_snprintf(buf, sizeof buf, "%.4g", self->hi[a]);
        text_at(cr, pl, buf, x, y0 - 3, 0.5, 1);
        g_snprintf(buf, sizeof buf, "%.4g", self->lo[a]);
        text_at(cr, pl, buf, x, y0 + h + 3, 0.5, 0);
    }
    g_object_unref(pl);
}

GtkWidget *motus_parcoords_new(void) { return g_object_new(MOTUS_TYPE_PARCOORDS, NULL); }

void motus_parcoords_set_data(MotusParcoords *self, int naxis, const char *const *name, int nline, const double *v,
                              int colour)
{
    g_strfreev(self->name);
    g_free(self->v), g_free(self->lo), g_free(self->hi);
    self->naxis = MAX(naxis, 0), self->nline = MAX(nline, 0);
    self->colour = colour < self->naxis ? colour : -1;
    self->name = g_new0(char *, (gsize)self->naxis + 1);
    for (int a = 0; a < self->naxis; a++) self->name[a] = g_strdup(name[a]);
    self->v = g_memdup2(v, sizeof(double) * (gsize)self->naxis * (gsize)self->nline);
    self->lo = g_new(double, (gsize)self->naxis + 1);
    self->hi = g_new(double, (gsize)self->naxis + 1);
    for (int a = 0; a < self->naxis; a++) {
        self->lo[a] = INFINITY, self->hi[a] = -INFINITY;
        for (int l = 0; l < self->nline; l++) {
            double x = self->v[l * self->naxis + a];
            if (isfinite(x)) self->lo[a] = fmin(self->lo[a], x), self->hi[a] = fmax(self->hi[a], x);
        }
    }
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

int motus_parcoords_n_axes(MotusParcoords *self) { return self->naxis; }
int motus_parcoords_n_lines(MotusParcoords *self) { return self->nline; }

static void motus_parcoords_finalize(GObject *o)
{
    MotusParcoords *self = MOTUS_PARCOORDS(o);
    g_strfreev(self->name);
    g_free(self->v), g_free(self->lo), g_free(self->hi);
    G_OBJECT_CLASS(motus_parcoords_parent_class)->finalize(o);
}

static void motus_parcoords_class_init(MotusParcoordsClass *klass)
{
    G_OBJECT_CLASS(klass)->finalize = motus_parcoords_finalize;
}

static void motus_parcoords_init(MotusParcoords *self)
{
    self->colour = -1;
    gtk_widget_set_size_request(GTK_WIDGET(self), 360, 260);
    gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(self), draw, NULL, NULL);
}
