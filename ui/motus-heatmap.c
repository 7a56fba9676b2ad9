/* motus-heatmap.c — a heat map of a value over two variables (see
 * motus-heatmap.h), drawn with cairo: the cells, their axes' values, and a
 * colour bar with the least, middle and largest value. */
#include "motus-heatmap.h"

#include <math.h>

#include "motus-i18n.h"
#include "motus-scene.h"

struct _MotusHeatmap {
    GtkDrawingArea parent_instance;
    int nx, ny;
    double *x, *y, *z;
    char *xlabel, *ylabel, *zlabel, *placeholder;
};

G_DEFINE_FINAL_TYPE(MotusHeatmap, motus_heatmap, GTK_TYPE_DRAWING_AREA)

/* Margins around the cells: left for the y values and label, bottom for the x ones, right for the legend. */
#define M_LEFT 78.0
#define M_BOTTOM 50.0
#define M_TOP 28.0
#define M_RIGHT 110.0

static void cells_rect(MotusHeatmap *self, double *x0, double *y0, double *w, double *h)
{
    GtkWidget *wd = GTK_WIDGET(self);
    *x0 = M_LEFT, *y0 = M_TOP;
    *w = fmax(10, gtk_widget_get_width(wd) - M_LEFT - M_RIGHT);
    *h = fmax(10, gtk_widget_get_height(wd) - M_TOP - M_BOTTOM);
}

gboolean motus_heatmap_range(MotusHeatmap *self, double *lo, double *hi)
{
    *lo = INFINITY, *hi = -INFINITY;
    for (int k = 0; k < self->nx * self->ny; k++)
        if (isfinite(self->z[k])) *lo = fmin(*lo, self->z[k]), *hi = fmax(*hi, self->z[k]);
    return *lo <= *hi;
}

static void text_at(cairo_t *cr, PangoLayout *pl, const char *s, double x, double y, double ax, double ay)
{
    int w, h;
    pango_layout_set_text(pl, s, -1);
    pango_layout_get_pixel_size(pl, &w, &h);
    cairo_move_to(cr, x - ax * w, y - ay * h);
    pango_cairo_show_layout(cr, pl);
}

static void draw_legend(MotusHeatmap *self, cairo_t *cr, PangoLayout *pl, double x, double y, double h, double lo,
                        double hi)
{
    const int steps = 64;
    for (int s = 0; s < steps; s++) {
        float rgb[3];
        motus_colormap((s + 0.5) / steps, rgb);
        cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
        cairo_rectangle(cr, x, y + h - (s + 1) * h / steps, 18, h / steps + 0.5);
        cairo_fill(cr);
    }
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, x + 0.5, y + 0.5, 18, h);
    cairo_stroke(cr);
    char buf[64];
    for (int k = 0; k <= 2; k++) {
        double v = lo + (hi - lo) * k / 2.0;
        g_snprintf(buf, sizeof buf, "%.4g", v);
        text_at(cr, pl, buf, x + 22, y + h - h * k / 2.0, 0, 0.5);
    }
    if (self->zlabel) text_at(cr, pl, self->zlabel, x, y - 12, 0, 1); /* above the largest value's label */
}

static void draw(GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
    (void)data, (void)width, (void)height;
    MotusHeatmap *self = MOTUS_HEATMAP(area);
    PangoLayout *pl = gtk_widget_create_pango_layout(GTK_WIDGET(area), NULL);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    double lo, hi;
    if (!self->nx || !self->ny || !motus_heatmap_range(self, &lo, &hi)) {
        cairo_set_source_rgb(cr, 0.4, 0.4, 0.4);
        text_at(cr, pl, self->placeholder ? self->placeholder : "", width / 2.0, height / 2.0, 0.5, 0.5);
        g_object_unref(pl);
        return;
    }
    double x0, y0, w, h, cw, ch;
    cells_rect(self, &x0, &y0, &w, &h);
    cw = w / self->nx, ch = h / self->ny;
    for (int i = 0; i < self->nx; i++)
        for (int j = 0; j < self->ny; j++) {
            double v = self->z[i * self->ny + j];
            float rgb[3] = {0.8f, 0.8f, 0.8f};
            if (isfinite(v)) motus_colormap(hi > lo ? (v - lo) / (hi - lo) : 0.5, rgb);
            cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
            cairo_rectangle(cr, x0 + i * cw, y0 + h - (j + 1) * ch, cw + 0.5, ch + 0.5); /* no seams between cells */
            cairo_fill(cr);
        }
    char buf[64];
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    /* every value when they fit, else every k-th: labels never overlap */
    int kx = MAX(1, (int)ceil(self->nx * 60.0 / w)), ky = MAX(1, (int)ceil(self->ny * 20.0 / h));
    for (int i = 0; i < self->nx; i += kx) {
        g_snprintf(buf, sizeof buf, "%.4g", self->x[i]);
        text_at(cr, pl, buf, x0 + (i + 0.5) * cw, y0 + h + 4, 0.5, 0);
    }
    for (int j = 0; j < self->ny; j += ky) {
        g_snprintf(buf, sizeof buf, "%.4g", self->y[j]);
        text_at(cr, pl, buf, x0 - 6, y0 + h - (j + 0.5) * ch, 1, 0.5);
    }
    if (self->xlabel) text_at(cr, pl, self->xlabel, x0 + w / 2, y0 + h + 26, 0.5, 0);
    if (self->ylabel) {
        cairo_save(cr);
        cairo_translate(cr, 14, y0 + h / 2);
        cairo_rotate(cr, -G_PI / 2);
        text_at(cr, pl, self->ylabel, 0, 0, 0.5, 0.5);
        cairo_restore(cr);
    }
    draw_legend(self, cr, pl, x0 + w + 16, y0, h, lo, hi);
    g_object_unref(pl);
}

GtkWidget *motus_heatmap_new(void) { return g_object_new(MOTUS_TYPE_HEATMAP, NULL); }

void motus_heatmap_set_data(MotusHeatmap *self, int nx, const double *x, int ny, const double *y, const double *z,
                            const char *xlabel, const char *ylabel, const char *zlabel)
{
    g_free(self->x), g_free(self->y), g_free(self->z);
    self->nx = nx > 0 && ny > 0 ? nx : 0;
    self->ny = self->nx ? ny : 0;
    self->x = g_memdup2(x, sizeof(double) * (gsize)self->nx);
    self->y = g_memdup2(y, sizeof(double) * (gsize)self->ny);
    self->z = g_memdup2(z, sizeof(double) * (gsize)self->nx * (gsize)self->ny);
    g_free(self->xlabel), g_free(self->ylabel), g_free(self->zlabel);
    self->xlabel = g_strdup(xlabel), self->ylabel = g_strdup(ylabel), self->zlabel = g_strdup(zlabel);
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

void motus_heatmap_set_placeholder(MotusHeatmap *self, const char *text)
{
    g_free(self->placeholder);
    self->placeholder = g_strdup(text);
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

int motus_heatmap_nx(MotusHeatmap *self) { return self->nx; }
int motus_heatmap_ny(MotusHeatmap *self) { return self->ny; }

double motus_heatmap_cell(MotusHeatmap *self, int i, int j)
{
    if (i < 0 || j < 0 || i >= self->nx || j >= self->ny) return NAN;
    return self->z[i * self->ny + j];
}

gboolean motus_heatmap_cell_center(MotusHeatmap *self, int i, int j, double *px, double *py)
{
    if (i < 0 || j < 0 || i >= self->nx || j >= self->ny) return FALSE;
    double x0, y0, w, h;
    cells_rect(self, &x0, &y0, &w, &h);
    *px = x0 + (i + 0.5) * w / self->nx;
    *py = y0 + h - (j + 0.5) * h / self->ny;
    return TRUE;
}

gboolean motus_heatmap_cell_at(MotusHeatmap *self, double px, double py, int *i, int *j)
{
    double x0, y0, w, h;
    if (!self->nx || !self->ny) return FALSE;
    cells_rect(self, &x0, &y0, &w, &h);
    if (px < x0 || px >= x0 + w || py < y0 || py >= y0 + h) return FALSE;
    *i = MIN((int)((px - x0) / w * self->nx), self->nx - 1);
    *j = MIN((int)((y0 + h - py) / h * self->ny), self->ny - 1);
    return TRUE;
}

static guint cell_activated_signal;

static void pressed(GtkGestureClick *g, int n, double x, double y, gpointer data)
{
    (void)g;
    MotusHeatmap *self = data;
    int i, j;
    if (n == 2 && motus_heatmap_cell_at(self, x, y, &i, &j)) g_signal_emit(self, cell_activated_signal, 0, i, j);
}

static gboolean query_tooltip(GtkWidget *w, int x, int y, gboolean kb, GtkTooltip *tip, gpointer data)
{
    (void)kb, (void)data;
    MotusHeatmap *self = MOTUS_HEATMAP(w);
    int i, j;
    if (!motus_heatmap_cell_at(self, x, y, &i, &j)) return FALSE;
    double v = self->z[i * self->ny + j];
    g_autofree char *t = g_strdup_printf("%s = %.6g, %s = %.6g: %s = %.6g", self->xlabel ? self->xlabel : "x",
                                         self->x[i], self->ylabel ? self->ylabel : "y", self->y[j],
                                         self->zlabel ? self->zlabel : "z", v);
    gtk_tooltip_set_text(tip, t);
    return TRUE;
}

static void motus_heatmap_finalize(GObject *o)
{
    MotusHeatmap *self = MOTUS_HEATMAP(o);
    g_free(self->x), g_free(self->y), g_free(self->z);
    g_free(self->xlabel), g_free(self->ylabel), g_free(self->zlabel), g_free(self->placeholder);
    G_OBJECT_CLASS(motus_heatmap_parent_class)->finalize(o);
}

static void motus_heatmap_class_init(MotusHeatmapClass *klass)
{
    G_OBJECT_CLASS(klass)->finalize = motus_heatmap_finalize;
    cell_activated_signal = g_signal_new("cell-activated", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                         NULL, NULL, G_TYPE_NONE, 2, G_TYPE_INT, G_TYPE_INT);
}

static void motus_heatmap_init(MotusHeatmap *self)
{
    gtk_widget_set_size_request(GTK_WIDGET(self), 360, 260);
    gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(self), draw, NULL, NULL);
    GtkGesture *click = gtk_gesture_click_new();
    g_signal_connect(click, "pressed", G_CALLBACK(pressed), self);
    gtk_widget_add_controller(GTK_WIDGET(self), GTK_EVENT_CONTROLLER(click));
    gtk_widget_set_has_tooltip(GTK_WIDGET(self), TRUE);
    g_signal_connect(self, "query-tooltip", G_CALLBACK(query_tooltip), NULL);
}
