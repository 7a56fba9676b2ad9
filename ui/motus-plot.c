/* motus-plot.c — cairo plot widget (see motus-plot.h). */
#include "motus-plot.h"

#include <cairo-svg.h>

#include <errno.h>
#include <limits.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "motus-i18n.h"
#include "motus-plot-axis.h"
#include "motus/units.h"

typedef struct {
    char *name, *unit;
    char *si;          /* its SI unit as given ("N"), for the axis's readable unit */
    const char *shown; /* the unit its legend and read-out show (the axis's when common), "" for none */
    GArray *x, *y; /* doubles */
    double ylo, yhi, xlo, xhi;
    gboolean dashed; /* a curve kept from an earlier run */
    int colour;      /* palette index */
    guint drawn;     /* points drawn into the widget's cache */
    double label_w, label_th; /* width of its legend text, measured at text height label_th */
} Curve;

/* Where a render puts things: the plot rectangle, the ranges and ticks, the legend. */
typedef struct {
    int width, height;
    double px, py, pw, ph;     /* plot rectangle */
    double xlo, xhi, ylo, yhi; /* ranges */
    double th, lw;             /* height of a line of text; widest y tick label */
    const char *unit;          /* common unit of the curves as shown (the y axis title), or NULL */
    double ys;                 /* shown per SI unit on the y axis (1000 for mm; 1e-3 for kN) */
    double xs;                 /* the same on the x axis of an X–Y plot */
    MotusTicks tx, ty;
    gboolean any;              /* some curve has points */
    double bx, by, bw, bh;     /* the legend box (bw = 0: none) */
    double lcw;                /* its column width */
    int lrows;                 /* entries per column: a short plot gets them side by side */
    gboolean legend_out;       /* the legend right of the plot rectangle, not over the curves */
} Frame;

struct _MotusPlot {
    GtkDrawingArea parent_instance;
    GPtrArray *curves; /* Curve* */
    double fixed_lo, fixed_hi;
    double cursor;
    double hover_x, hover_y;
    double pin;        /* the reference cursor a click pins (x in data units), NAN: none */
    gboolean hover;
    char *placeholder;
    char *x_label;     /* "time, s" or the x column with its unit as shown */
    char *x_si;        /* the x column's SI unit ("" for time or none) */
    double x_shown;    /* the factor x_label's unit was made for (0: none yet) */
    char *x_name;      /* first column of the CSV: "time" or the x column */
    char *unit_override[MT_DIM_COUNT]; /* the unit the user chose per quantity (NULL: a readable one) */
    const char *y_unit;                /* the y axis's unit at the last render (static), or NULL */
    gboolean xy;       /* x is another column: points in data order, no cursor */
    /* plot rectangle of the last render, widget coordinates; its legend box (lw = 0: none) */
    double px, py, pw, ph;
    double lx, ly, lw, lh;
    gboolean legend_out;
    double own_left, own_right; /* margins its own last picture needed (0: none yet); see align_margins */
    guint align_tick;           /* redraws the sibling plots at the next frame */
    double xlo, xhi, ylo, yhi;
    /* the user's view: zoomed or panned range, box being dragged, pan start */
    gboolean zoomed;
    double zx0, zx1, zy0, zy1;
    int drag;            /* 0 none, 1 box, 2 pan */
    double dx0, dy0, dx1, dy1;
    double px0, px1, py0, py1;
    /* the widget's picture without the overlay (see draw_func) */
    cairo_surface_t *cache;
    Frame cache_frame;
    int cache_scale;
    gboolean cache_ok; /* FALSE: draw it whole at the next frame */
    guint full_draws;  /* times the cache was drawn whole */
};

enum { SIG_COLUMN_DROPPED, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_TYPE(MotusPlot, motus_plot, GTK_TYPE_DRAWING_AREA)

static const double palette[][3] = {
    {0.12, 0.42, 0.80}, {0.90, 0.40, 0.05}, {0.15, 0.60, 0.20}, {0.84, 0.15, 0.16},
    {0.55, 0.35, 0.75}, {0.10, 0.62, 0.66}, {0.75, 0.55, 0.05}, {0.85, 0.30, 0.60},
};

static void curve_free(gpointer p)
{
    Curve *c = p;
    g_free(c->name);
    g_free(c->unit);
    g_free(c->si);
    g_array_unref(c->x);
    g_array_unref(c->y);
    g_free(c);
}

static void curve_extend(Curve *c, const double *x, const double *y, guint n)
{
    for (guint i = 0; i < n; i++) {
        if (isfinite(y[i])) c->ylo = fmin(c->ylo, y[i]), c->yhi = fmax(c->yhi, y[i]);
        if (isfinite(x[i])) c->xlo = fmin(c->xlo, x[i]), c->xhi = fmax(c->xhi, x[i]);
    }
    g_array_append_vals(c->x, x, n);
    g_array_append_vals(c->y, y, n);
}

static void draw_func(GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data);


/* Something other than appended points changed: the next frame draws the plot whole. */
static void invalidate(MotusPlot *self)
{
    self->cache_ok = FALSE;
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

void motus_plot_redraw_whole(MotusPlot *self) { invalidate(self); }
guint motus_plot_get_full_draws(MotusPlot *self) { return self->full_draws; }

void motus_plot_get_area(MotusPlot *self, double rect[4], double range[4])
{
    rect[0] = self->px, rect[1] = self->py, rect[2] = self->pw, rect[3] = self->ph;
    range[0] = self->xlo, range[1] = self->xhi, range[2] = self->ylo, range[3] = self->yhi;
}

gboolean motus_plot_get_legend(MotusPlot *self, double *x, double *y, double *w, double *h, gboolean *outside)
{
    *x = self->lx, *y = self->ly, *w = self->lw, *h = self->lh, *outside = self->legend_out;
    return self->lw > 0;
}

void motus_plot_set_pointer(MotusPlot *self, gboolean inside, double x, double y)
{
    self->hover = inside;
    self->hover_x = x;
    self->hover_y = y;
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

static void motion(GtkEventControllerMotion *c, double x, double y, gpointer data)
{
    (void)c;
    motus_plot_set_pointer(data, TRUE, x, y);
}

static void leave(GtkEventControllerMotion *c, gpointer data)
{
    (void)c;
    motus_plot_set_pointer(data, FALSE, 0, 0);
}

static void motus_plot_finalize(GObject *object)
{
    MotusPlot *self = MOTUS_PLOT(object);
    g_ptr_array_unref(self->curves);
    g_free(self->placeholder);
    g_free(self->x_label);
    g_free(self->x_si);
    g_free(self->x_name);
    for (int d = 0; d < MT_DIM_COUNT; d++) g_free(self->unit_override[d]);
    g_clear_pointer(&self->cache, cairo_surface_destroy);
    G_OBJECT_CLASS(motus_plot_parent_class)->finalize(object);
}

/* ---- the view: box zoom, pan, wheel, double click ---------------------------------------- */

void motus_plot_set_view(MotusPlot *self, double x0, double x1, double y0, double y1)
{
    if (!(x0 < x1) || !(y0 < y1) || !isfinite(x0 + x1 + y0 + y1)) return;
    self->zoomed = TRUE;
    self->zx0 = x0, self->zx1 = x1, self->zy0 = y0, self->zy1 = y1;
    invalidate(self);
}

void motus_plot_reset_view(MotusPlot *self)
{
    self->zoomed = FALSE;
    invalidate(self);
}

gboolean motus_plot_get_view(MotusPlot *self, double *x0, double *x1, double *y0, double *y1)
{
    if (self->zoomed) *x0 = self->zx0, *x1 = self->zx1, *y0 = self->zy0, *y1 = self->zy1;
    return self->zoomed;
}

/* Widget coordinates to data, with the ranges of the last render. */
static double data_x(const MotusPlot *self, double X) { return self->xlo + (X - self->px) / self->pw * (self->xhi - self->xlo); }
static double data_y(const MotusPlot *self, double Y) { return self->ylo + (self->py + self->ph - Y) / self->ph * (self->yhi - self->ylo); }

void motus_plot_zoom_box(MotusPlot *self, double x0, double y0, double x1, double y1)
{
    if (!(self->pw > 0) || fabs(x1 - x0) < 4 || fabs(y1 - y0) < 4) return; /* a click, not a box */
    double a = data_x(self, fmin(x0, x1)), b = data_x(self, fmax(x0, x1));
    double c = data_y(self, fmax(y0, y1)), d = data_y(self, fmin(y0, y1));
    motus_plot_set_view(self, a, b, c, d);
}

void motus_plot_zoom_at(MotusPlot *self, double x, double y, double factor)
{
    if (!(self->pw > 0) || !(factor > 0)) return;
    double cx = data_x(self, CLAMP(x, self->px, self->px + self->pw)), cy = data_y(self, CLAMP(y, self->py, self->py + self->ph));
    motus_plot_set_view(self, cx + (self->xlo - cx) * factor, cx + (self->xhi - cx) * factor, cy + (self->ylo - cy) * factor,
                        cy + (self->yhi - cy) * factor);
}

static void drag_begin(GtkGestureDrag *g, double x, double y, gpointer data)
{
    MotusPlot *self = data;
    guint button = gtk_gesture_single_get_current_button(GTK_GESTURE_SINGLE(g));
    GdkModifierType mods = gtk_event_controller_get_current_event_state(GTK_EVENT_CONTROLLER(g));
    self->drag = (button == 2 || (mods & GDK_SHIFT_MASK)) ? 2 : 1;
    self->dx0 = self->dx1 = x, self->dy0 = self->dy1 = y;
    self->px0 = self->xlo, self->px1 = self->xhi, self->py0 = self->ylo, self->py1 = self->yhi;
}

static void drag_update(GtkGestureDrag *g, double ox, double oy, gpointer data)
{
    (void)g;
    MotusPlot *self = data;
    self->dx1 = self->dx0 + ox, self->dy1 = self->dy0 + oy;
    if (self->drag == 2 && self->pw > 0 && self->ph > 0) { /* the data follow the pointer */
        double sx = ox / self->pw * (self->px1 - self->px0), sy = oy / self->ph * (self->py1 - self->py0);
        motus_plot_set_view(self, self->px0 - sx, self->px1 - sx, self->py0 + sy, self->py1 + sy);
    } else
        gtk_widget_queue_draw(GTK_WIDGET(self));
}

static void drag_end(GtkGestureDrag *g, double ox, double oy, gpointer data)
{
    (void)g;
    MotusPlot *self = data;
    if (self->drag == 1) motus_plot_zoom_box(self, self->dx0, self->dy0, self->dx0 + ox, self->dy0 + oy);
    self->drag = 0;
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

static gboolean scrolled(GtkEventControllerScroll *c, double dx, double dy, gpointer data)
{
    (void)c, (void)dx;
    MotusPlot *self = data;
    motus_plot_zoom_at(self, self->hover_x, self->hover_y, pow(1.2, dy));
    return TRUE;
}

static void pressed(GtkGestureClick *g, int n, double x, double y, gpointer data)
{
    (void)g, (void)x, (void)y;
    if (n == 2) motus_plot_reset_view(data);
}

/* A click (no drag) in the plot pins the reference cursor there, or takes it away when it is on it: the
 * read-out then gives differences from it (Δt, Δy), as two cursors do. */
static void released(GtkGestureClick *g, int n, double x, double y, gpointer data)
{
    (void)g;
    MotusPlot *self = data;
    const Frame *f = &self->cache_frame; /* the widget's picture (an export may have rendered another size since) */
    if (n != 1 || self->xy || !self->cache || !(f->pw > 0) || x < f->px || x > f->px + f->pw || y < f->py || y > f->py + f->ph)
        return;
    double at = f->xlo + (x - f->px) / f->pw * (f->xhi - f->xlo), px = (self->pin - f->xlo) / (f->xhi - f->xlo) * f->pw + f->px;
    motus_plot_set_pin(self, isfinite(self->pin) && fabs(px - x) < 5 ? NAN : at);
}

void motus_plot_set_pin(MotusPlot *self, double x)
{
    self->pin = x;
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

double motus_plot_get_pin(MotusPlot *self) { return self->pin; }

static gboolean dropped(GtkDropTarget *t, const GValue *value, double x, double y, gpointer data)
{
    (void)t, (void)x, (void)y;
    const char *column = g_value_get_string(value);
    if (!column || !column[0]) return FALSE;
    g_signal_emit(data, signals[SIG_COLUMN_DROPPED], 0, column);
    return TRUE;
}

static void motus_plot_class_init(MotusPlotClass *klass)
{
    G_OBJECT_CLASS(klass)->finalize = motus_plot_finalize;
    signals[SIG_COLUMN_DROPPED] = g_signal_new("column-dropped", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                               NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
    gtk_widget_class_set_css_name(GTK_WIDGET_CLASS(klass), "motus-plot");
}

static void motus_plot_init(MotusPlot *self)
{
    self->curves = g_ptr_array_new_with_free_func(curve_free);
    self->cursor = NAN;
    self->fixed_lo = self->fixed_hi = 0;
    self->placeholder = g_strdup(_("Choose a result column to plot it against time"));
    /* TRANSLATORS: label of the plot's horizontal axis. */
    self->x_label = g_strdup(_("time, s"));
    self->x_name = g_strdup("time");
    gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(self), draw_func, NULL, NULL);
    gtk_widget_set_size_request(GTK_WIDGET(self), 200, 120);
    GtkEventController *m = gtk_event_controller_motion_new();
    g_signal_connect(m, "motion", G_CALLBACK(motion), self);
    g_signal_connect(m, "leave", G_CALLBACK(leave), self);
    gtk_widget_add_controller(GTK_WIDGET(self), m);
    GtkGesture *drag = gtk_gesture_drag_new();
    gtk_gesture_single_set_button(GTK_GESTURE_SINGLE(drag), 0); /* left: box, middle or Shift: pan */
    g_signal_connect(drag, "drag-begin", G_CALLBACK(drag_begin), self);
    g_signal_connect(drag, "drag-update", G_CALLBACK(drag_update), self);
    g_signal_connect(drag, "drag-end", G_CALLBACK(drag_end), self);
    gtk_widget_add_controller(GTK_WIDGET(self), GTK_EVENT_CONTROLLER(drag));
    GtkEventController *sc = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
    g_signal_connect(sc, "scroll", G_CALLBACK(scrolled), self);
    gtk_widget_add_controller(GTK_WIDGET(self), sc);
    GtkGesture *click = gtk_gesture_click_new();
    g_signal_connect(click, "pressed", G_CALLBACK(pressed), self);
    g_signal_connect(click, "released", G_CALLBACK(released), self);
    self->pin = NAN;
    gtk_widget_add_controller(GTK_WIDGET(self), GTK_EVENT_CONTROLLER(click));
    GtkDropTarget *drop = gtk_drop_target_new(G_TYPE_STRING, GDK_ACTION_COPY);
    g_signal_connect(drop, "drop", G_CALLBACK(dropped), self);
    gtk_widget_add_controller(GTK_WIDGET(self), GTK_EVENT_CONTROLLER(drop));
}

GtkWidget *motus_plot_new(void) { return g_object_new(MOTUS_TYPE_PLOT, NULL); }

void motus_plot_clear(MotusPlot *self)
{
    g_ptr_array_set_size(self->curves, 0);
    invalidate(self);
}

int motus_plot_add_curve(MotusPlot *self, const char *name, const char *unit)
{
    Curve *c = g_new0(Curve, 1);
    c->name = g_strdup(name);
    c->unit = g_strdup(mt_unit_label_of(unit, MT_DIM_ANY)); /* shown in the user's language */
    c->si = g_strdup(unit ? unit : "");
    c->shown = c->unit;
    c->x = g_array_new(FALSE, FALSE, sizeof(double));
    c->y = g_array_new(FALSE, FALSE, sizeof(double));
    c->ylo = c->xlo = INFINITY;
    c->yhi = c->xhi = -INFINITY;
    c->colour = (int)self->curves->len;
    g_ptr_array_add(self->curves, c);
    invalidate(self);
    return (int)self->curves->len - 1;
}

void motus_plot_remove_curve(MotusPlot *self, int curve)
{
    if (curve < 0 || curve >= (int)self->curves->len) return;
    g_ptr_array_remove_index(self->curves, (guint)curve);
    invalidate(self);
}

int motus_plot_n_curves(MotusPlot *self) { return (int)self->curves->len; }

const char *motus_plot_curve_name(MotusPlot *self, int curve)
{
    if (curve < 0 || curve >= (int)self->curves->len) return NULL;
    return ((Curve *)g_ptr_array_index(self->curves, curve))->name;
}

guint motus_plot_n_points(MotusPlot *self, int curve)
{
    if (curve < 0 || curve >= (int)self->curves->len) return 0;
    return ((Curve *)g_ptr_array_index(self->curves, curve))->x->len;
}

void motus_plot_set_data(MotusPlot *self, int curve, const double *x, const double *y, guint n)
{
    if (curve < 0 || curve >= (int)self->curves->len) return;
    Curve *c = g_ptr_array_index(self->curves, curve);
    g_array_set_size(c->x, 0);
    g_array_set_size(c->y, 0);
    c->ylo = c->xlo = INFINITY;
    c->yhi = c->xhi = -INFINITY;
    curve_extend(c, x, y, n);
    invalidate(self);
}

void motus_plot_append(MotusPlot *self, int curve, const double *x, const double *y, guint n)
{
    if (curve < 0 || curve >= (int)self->curves->len || !n) return;
    curve_extend(g_ptr_array_index(self->curves, curve), x, y, n);
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

void motus_plot_set_x_range(MotusPlot *self, double lo, double hi)
{
    self->fixed_lo = lo;
    self->fixed_hi = hi;
    invalidate(self);
}

void motus_plot_set_cursor(MotusPlot *self, double x)
{
    if (self->cursor == x || (isnan(x) && isnan(self->cursor))) return;
    self->cursor = x;
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

void motus_plot_set_curve_style(MotusPlot *self, int curve, int colour, gboolean dashed)
{
    if (curve < 0 || curve >= (int)self->curves->len) return;
    Curve *c = g_ptr_array_index(self->curves, curve);
    c->colour = colour;
    c->dashed = dashed;
    invalidate(self);
}

void motus_plot_set_x_axis(MotusPlot *self, const char *column, const char *unit)
{
    g_free(self->x_label);
    g_free(self->x_name);
    self->xy = column != NULL;
    self->x_name = g_strdup(column ? column : "time");
    g_free(self->x_si);
    self->x_si = g_strdup(column && unit ? unit : "");
    self->x_shown = 0;
    self->x_label = column ? (unit && unit[0] ? g_strdup_printf("%s, %s", column, mt_unit_label_of(unit, MT_DIM_ANY))
                                              : g_strdup(column))
                           : g_strdup(_("time, s"));
    invalidate(self);
}

gboolean motus_plot_get_point(MotusPlot *self, int curve, guint i, double *x, double *y)
{
    if (curve < 0 || curve >= (int)self->curves->len) return FALSE;
    Curve *c = g_ptr_array_index(self->curves, curve);
    if (i >= c->x->len) return FALSE;
    *x = g_array_index(c->x, double, i);
    *y = g_array_index(c->y, double, i);
    return TRUE;
}

void motus_plot_set_placeholder(MotusPlot *self, const char *text)
{
    g_free(self->placeholder);
    self->placeholder = g_strdup(text ? text : "");
    invalidate(self);
}

/* ---- drawing ------------------------------------------------------------- */

static cairo_user_data_key_t plot_key; /* the plot drawing into a cairo context */

/* Layouts come from the widget's Pango context, so that the plot's text is
 * hinted like the rest of the interface (a layout made from the cairo context
 * drew some stems blurred). */
static PangoLayout *text_layout(cairo_t *cr, const char *text, double size_pt)
{
    PangoLayout *l = gtk_widget_create_pango_layout(GTK_WIDGET(cairo_get_user_data(cr, &plot_key)), text);
    PangoFontDescription *fd = pango_font_description_from_string("Sans");
    pango_font_description_set_size(fd, (int)(size_pt * PANGO_SCALE));
    pango_layout_set_font_description(l, fd);
    pango_font_description_free(fd);
    return l;
}

static void text_size(cairo_t *cr, const char *text, double *w, double *h)
{
    PangoLayout *l = text_layout(cr, text, 8.5);
    int iw, ih;
    pango_layout_get_pixel_size(l, &iw, &ih);
    *w = iw, *h = ih;
    g_object_unref(l);
}

/* Draws text with its anchor point at (x, y): ax, ay in [0, 1] (0 = left/top). */
static void text_at(cairo_t *cr, const char *text, double x, double y, double ax, double ay)
{
    PangoLayout *l = text_layout(cr, text, 8.5);
    int iw, ih;
    pango_layout_get_pixel_size(l, &iw, &ih);
    cairo_move_to(cr, round(x - ax * iw), round(y - ay * ih));
    pango_cairo_show_layout(cr, l);
    g_object_unref(l);
}

static double value_at(const Curve *c, double x)
{
    guint n = c->x->len;
    if (!n) return NAN;
    const double *X = (const double *)c->x->data, *Y = (const double *)c->y->data;
    if (x <= X[0]) return Y[0];
    if (x >= X[n - 1]) return Y[n - 1];
    guint lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        guint mid = (lo + hi) / 2;
        if (X[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    double d = X[hi] - X[lo];
    return d > 0 ? Y[lo] + (Y[hi] - Y[lo]) * (x - X[lo]) / d : Y[lo];
}

/* A common SI unit of all curves, or NULL. */
static const char *common_unit(MotusPlot *self)
{
    const char *u = NULL;
    for (guint i = 0; i < self->curves->len; i++) {
        const Curve *c = g_ptr_array_index(self->curves, i);
        if (!c->si[0]) return NULL;
        if (u && strcmp(u, c->si)) return NULL;
        u = c->si;
    }
    return u;
}

/* The unit values in SI unit si up to maxabs are shown in (NULL: si is no SI
 * unit of a quantity): the user's choice for the quantity, else a readable
 * multiple (kN, MPa, mm) for the axis's top tick — a curve reaching 0.99 m is
 * drawn on an axis to 1 m, not to 1000 mm. */
static const MtUnit *shown_unit(MotusPlot *self, const char *si, double maxabs)
{
    MtDim dim = MT_DIM_ANY;
    if (!si || !mt_unit_find(si, NULL, &dim) || dim <= MT_DIM_NONE || dim >= MT_DIM_COUNT || !mt_unit_si(dim) ||
        strcmp(mt_unit_si(dim)->name, si))
        return NULL;
    const MtUnit *du = self->unit_override[dim] ? mt_unit_lookup(self->unit_override[dim], dim) : NULL;
    return du ? du : mt_unit_readable(dim, motus_ticks_top(maxabs));
}

/* The y axis's unit for curves sharing SI unit si and reaching maxabs; sets
 * f->unit and f->ys, and what each curve's legend shows. */
static void axis_unit(MotusPlot *self, Frame *f, const char *si, double maxabs)
{
    f->unit = NULL;
    f->ys = 1;
    const MtUnit *du = shown_unit(self, si, maxabs);
    if (du) {
        f->unit = mt_unit_label(du);
        f->ys = du->den / du->num;
    } else if (si)
        f->unit = ((const Curve *)g_ptr_array_index(self->curves, 0))->unit;
    for (guint i = 0; i < self->curves->len; i++) {
        Curve *c = g_ptr_array_index(self->curves, i);
        const char *shown = f->unit ? f->unit : c->unit;
        if (strcmp(shown, c->shown)) c->label_th = 0; /* measured again */
        c->shown = shown;
    }
}

const char *motus_plot_y_unit(MotusPlot *self) { return self->y_unit; }
const char *motus_plot_x_label(MotusPlot *self) { return self->x_label; }

void motus_plot_set_unit(MotusPlot *self, MtDim dim, const char *unit)
{
    if (dim <= MT_DIM_NONE || dim >= MT_DIM_COUNT) return;
    if (!g_strcmp0(self->unit_override[dim], unit && unit[0] ? unit : NULL)) return;
    g_free(self->unit_override[dim]);
    self->unit_override[dim] = unit && unit[0] ? g_strdup(unit) : NULL;
    invalidate(self);
}

static gboolean ticks_equal(const MotusTicks *a, const MotusTicks *b)
{
    return a->lo == b->lo && a->hi == b->hi && a->first == b->first && a->step == b->step && a->n == b->n;
}

/* The widest legend text ("name [unit]"), each measured once per text height. */
static double legend_text_width(MotusPlot *self, cairo_t *cr, double th)
{
    double w = 0, tw, h;
    for (guint i = 0; i < self->curves->len; i++) {
        Curve *c = g_ptr_array_index(self->curves, i);
        if (c->label_th != th) {
            g_autofree char *s = c->shown[0] ? g_strdup_printf("%s [%s]", c->name, c->shown) : g_strdup(c->name);
            text_size(cr, s, &tw, &h);
            c->label_w = tw, c->label_th = th;
        }
        w = fmax(w, c->label_w);
    }
    return w;
}

/* Tick callback: the other plots in the box draw again (their margins follow this one's). */
static gboolean redraw_siblings(GtkWidget *w, GdkFrameClock *clock, gpointer data)
{
    (void)clock, (void)data;
    MOTUS_PLOT(w)->align_tick = 0;
    GtkWidget *parent = gtk_widget_get_parent(w);
    for (GtkWidget *c = parent ? gtk_widget_get_first_child(parent) : NULL; c; c = gtk_widget_get_next_sibling(c))
        if (c != w && MOTUS_IS_PLOT(c)) gtk_widget_queue_draw(c);
    return G_SOURCE_REMOVE;
}

/* Plots stacked in one box (the window's plot pane) share their plot
 * rectangles' left and right edges, so their time axes line up as in a
 * post-processor's page: each keeps the margins it needs itself and takes the
 * widest of its visible sibling plots'. A change of its own needs redraws the
 * siblings at the next frame. */
static void align_margins(MotusPlot *self, double *left, double *right)
{
    gboolean changed = fabs(*left - self->own_left) > 0.5 || fabs(*right - self->own_right) > 0.5;
    self->own_left = *left, self->own_right = *right;
    GtkWidget *parent = gtk_widget_get_parent(GTK_WIDGET(self));
    if (!parent) return;
    for (GtkWidget *c = gtk_widget_get_first_child(parent); c; c = gtk_widget_get_next_sibling(c)) {
        if (c == GTK_WIDGET(self) || !MOTUS_IS_PLOT(c) || !gtk_widget_get_visible(c)) continue;
        MotusPlot *p = MOTUS_PLOT(c);
        *left = fmax(*left, p->own_left), *right = fmax(*right, p->own_right);
    }
    /* not from here: a draw queued while the pane is being snapshot would be lost */
    if (changed && !self->align_tick)
        self->align_tick = gtk_widget_add_tick_callback(GTK_WIDGET(self), redraw_siblings, NULL, NULL);
}

/* The frame of a width x height render; measuring the y tick labels is skipped
 * when prev has the same ticks and size; widget: the widget's own picture
 * (aligned with its sibling plots), not an export. FALSE when too small to draw. */
static gboolean plot_frame(MotusPlot *self, cairo_t *cr, int width, int height, const Frame *prev, gboolean widget,
                           Frame *f)
{
    memset(f, 0, sizeof *f);
    f->width = width, f->height = height;
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    for (guint i = 0; i < self->curves->len; i++) {
        const Curve *c = g_ptr_array_index(self->curves, i);
        if (!c->x->len) continue;
        f->any = TRUE;
        xlo = fmin(xlo, c->xlo), xhi = fmax(xhi, c->xhi);
        ylo = fmin(ylo, c->ylo), yhi = fmax(yhi, c->yhi);
    }
    if (self->fixed_lo < self->fixed_hi)
        xlo = self->fixed_lo, xhi = self->fixed_hi;
    else if (!f->any)
        xlo = 0, xhi = 1;
    if (!f->any || !(ylo <= yhi)) ylo = 0, yhi = 1;

    int ny = height / 45 > 2 ? height / 45 : 2;
    axis_unit(self, f, common_unit(self), self->zoomed ? fmax(fabs(self->zy0), fabs(self->zy1)) : fmax(fabs(ylo), fabs(yhi)));
    /* ticks nice in the unit shown, kept in SI like the data */
    double ys = f->ys;
    if (self->zoomed) motus_ticks_compute(self->zy0 * ys, self->zy1 * ys, ny, FALSE, &f->ty); /* the user's view, exactly */
    else motus_ticks_compute(ylo * ys, yhi * ys, ny, TRUE, &f->ty);
    f->ty.lo /= ys, f->ty.hi /= ys, f->ty.first /= ys, f->ty.step /= ys;
    if (prev && prev->height == height && ticks_equal(&prev->ty, &f->ty))
        f->lw = prev->lw, f->th = prev->th;
    else {
        char buf[64];
        double tw, th;
        for (int i = 0; i < f->ty.n; i++) {
            motus_ticks_format(motus_ticks_value(&f->ty, i) * ys, f->ty.step * ys, buf, sizeof buf);
            text_size(cr, buf, &tw, &th);
            f->lw = fmax(f->lw, tw);
        }
        text_size(cr, "0", &tw, &f->th);
    }
    double left = f->lw + 12 + (f->unit ? f->th + 6 : 0), right = 16, top = 12, bottom = 2 * f->th + 14;
    /* A short plot (several stacked): a legend inside would cover more than a third of its height and
     * hide curves in every corner, so it goes right of the plot rectangle when that leaves the curves
     * most of the width. Decided from sizes only, so a live run's picture keeps its frame. */
    int n = (int)self->curves->len;
    double lh = f->th + 2, ph0 = height - top - bottom;
    double gap = 8;
    if (n && lh * MIN(n, MAX(1, (int)((ph0 - 24) / lh))) + 8 > ph0 / 3) {
        /* it may reach down beside the x tick labels, clear of the last one */
        int rows = MAX(1, MIN(n, (int)((height - top - 8) / lh)));
        double lcw = legend_text_width(self, cr, f->th) + 34, ow = lcw * ((n + rows - 1) / rows);
        if (lh * rows + 8 > ph0) gap = 8 + 2 * f->th;
        /* inside, the legend would have as many columns as its rows leave: when those would take more
         * than the curves' share of the width (five long names on a short plot) it would spill out of
         * the plot, so the curves may then keep less of the width */
        int rin = MAX(1, MIN(n, (int)((ph0 - 24) / lh)));
        double need = lcw * ((n + rin - 1) / rin), share = need > 0.6 * width ? 0.3 : 0.6;
        if (width - left - ow - gap - 8 >= share * width) {
            f->legend_out = TRUE, f->lrows = rows, f->lcw = lcw;
            f->bw = ow, f->bh = lh * rows + 8;
            right = ow + gap + 8;
        }
    }
    if (widget) align_margins(self, &left, &right);
    f->px = left, f->py = top, f->pw = width - left - right, f->ph = height - top - bottom;
    if (f->pw < 20 || f->ph < 20) return FALSE;
    if (f->legend_out) f->bx = f->px + f->pw + gap, f->by = f->py;
    int nx = (int)(f->pw / 90) > 2 ? (int)(f->pw / 90) : 2;
    if (self->zoomed) xlo = self->zx0, xhi = self->zx1;
    f->xs = 1;
    const MtUnit *xu = self->xy ? shown_unit(self, self->x_si, fmax(fabs(xlo), fabs(xhi))) : NULL;
    if (xu) {
        f->xs = xu->den / xu->num;
        if (f->xs != self->x_shown) { /* the axis title follows the unit */
            g_free(self->x_label);
            self->x_label = g_strdup_printf("%s, %s", self->x_name, mt_unit_label(xu));
            self->x_shown = f->xs;
        }
    }
    double xs = f->xs;
    motus_ticks_compute(xlo * xs, xhi * xs, nx, !self->zoomed && !(self->fixed_lo < self->fixed_hi) && f->any, &f->tx);
    f->tx.lo /= xs, f->tx.hi /= xs, f->tx.first /= xs, f->tx.step /= xs;
    f->xlo = f->tx.lo, f->xhi = f->tx.hi, f->ylo = f->ty.lo, f->yhi = f->ty.hi;
    self->px = f->px, self->py = f->py, self->pw = f->pw, self->ph = f->ph;
    self->xlo = f->xlo, self->xhi = f->xhi, self->ylo = f->ylo, self->yhi = f->yhi;
    return TRUE;
}

/* Same picture under the curves: size, rectangle, ranges, ticks. */
static gboolean frame_same(const Frame *a, const Frame *b)
{
    return a->width == b->width && a->height == b->height && a->px == b->px && a->pw == b->pw && a->ph == b->ph &&
           a->xlo == b->xlo && a->xhi == b->xhi && a->ylo == b->ylo && a->yhi == b->yhi && ticks_equal(&a->tx, &b->tx) &&
           ticks_equal(&a->ty, &b->ty) && a->any == b->any;
}

#define SX(v) (f->px + ((v)-f->xlo) / (f->xhi - f->xlo) * f->pw)
#define SY(v) (f->py + f->ph - ((v)-f->ylo) / (f->yhi - f->ylo) * f->ph)

/* Background, grid, tick labels, axis titles and the frame of the plot rectangle. */
static void draw_axes(MotusPlot *self, cairo_t *cr, const Frame *f)
{
    double px = f->px, py = f->py, pw = f->pw, ph = f->ph;
    char buf[64];
    cairo_set_line_width(cr, 1);
    cairo_set_source_rgb(cr, 0.90, 0.91, 0.93);
    for (int i = 0; i < f->tx.n; i++) {
        double X = round(SX(motus_ticks_value(&f->tx, i))) + 0.5;
        cairo_move_to(cr, X, py), cairo_line_to(cr, X, py + ph);
    }
    for (int i = 0; i < f->ty.n; i++) {
        double Y = round(SY(motus_ticks_value(&f->ty, i))) + 0.5;
        cairo_move_to(cr, px, Y), cairo_line_to(cr, px + pw, Y);
    }
    cairo_stroke(cr);
    if (f->ylo < 0 && f->yhi > 0) { /* the zero line */
        cairo_set_source_rgb(cr, 0.70, 0.72, 0.75);
        cairo_move_to(cr, px, round(SY(0)) + 0.5), cairo_line_to(cr, px + pw, round(SY(0)) + 0.5);
        cairo_stroke(cr);
    }
    cairo_set_source_rgb(cr, 0.25, 0.27, 0.30);
    for (int i = 0; i < f->tx.n; i++) {
        double v = motus_ticks_value(&f->tx, i);
        motus_ticks_format(v * f->xs, f->tx.step * f->xs, buf, sizeof buf);
        text_at(cr, buf, SX(v), py + ph + 4, 0.5, 0);
    }
    for (int i = 0; i < f->ty.n; i++) {
        double v = motus_ticks_value(&f->ty, i);
        motus_ticks_format(v * f->ys, f->ty.step * f->ys, buf, sizeof buf);
        text_at(cr, buf, px - 6, SY(v), 1, 0.5);
    }
    text_at(cr, self->x_label, px + pw / 2, f->height - 3, 0.5, 1);
    if (f->unit) {
        cairo_save(cr);
        cairo_translate(cr, 4, py + ph / 2);
        cairo_rotate(cr, -G_PI / 2);
        text_at(cr, f->unit, 0, 0, 0.5, 0);
        cairo_restore(cr);
    }
    cairo_set_source_rgb(cr, 0.45, 0.47, 0.50);
    cairo_rectangle(cr, px + 0.5, py + 0.5, pw - 1, ph - 1);
    cairo_stroke(cr);
    if (!self->curves->len) {
        cairo_set_source_rgb(cr, 0.45, 0.47, 0.50);
        text_at(cr, self->placeholder, px + pw / 2, py + ph / 2, 0.5, 0.5);
    }
}

/* Path of points from .. to-1 of a curve. Where there are more than four
 * points per pixel column (x in order), each column is drawn as the segment
 * between its smallest and largest value, so the cost follows the width. */
static void curve_path(MotusPlot *self, cairo_t *cr, const Frame *f, const Curve *c, guint from, guint to)
{
    const double *X = (const double *)c->x->data, *Y = (const double *)c->y->data;
    if (to <= from) return;
    double span = fabs(SX(X[to - 1]) - SX(X[from]));
    gboolean pen = FALSE;
    if (!self->xy && to - from > 4 * fmax(1, span)) {
        int colx = INT_MIN;
        double mn = 0, mx = 0;
        for (guint k = from; k <= to; k++) {
            int cx = k < to ? (int)floor(SX(X[k])) : INT_MAX;
            if (cx != colx || k == to) {
                if (colx != INT_MIN) {
                    double a = SY(mn), b = SY(mx);
                    if (!pen)
                        cairo_move_to(cr, colx + 0.5, a), pen = TRUE;
                    else
                        cairo_line_to(cr, colx + 0.5, a);
                    cairo_line_to(cr, colx + 0.5, b);
                }
                if (k == to) break;
                colx = cx;
                mn = mx = Y[k];
            }
            if (isfinite(Y[k])) mn = fmin(mn, Y[k]), mx = fmax(mx, Y[k]);
        }
        return;
    }
    for (guint k = from; k < to; k++) {
        if (!isfinite(Y[k])) {
            pen = FALSE;
            continue;
        }
        if (!pen)
            cairo_move_to(cr, SX(X[k]), SY(Y[k])), pen = TRUE;
        else
            cairo_line_to(cr, SX(X[k]), SY(Y[k]));
    }
}

/* The curves, clipped to the plot rectangle (less the legend box when
 * `grow`). grow: only the points added since the last call (continuing from
 * the last one drawn); record: remember what was drawn (the widget's cache). */
static void draw_curves(MotusPlot *self, cairo_t *cr, const Frame *f, gboolean grow, gboolean record)
{
    cairo_save(cr);
    cairo_rectangle(cr, f->px, f->py, f->pw, f->ph);
    if (grow && f->bw > 0 && !f->legend_out) {
        cairo_rectangle(cr, f->bx - 1, f->by - 1, f->bw + 2, f->bh + 2);
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD);
    }
    cairo_clip(cr);
    cairo_set_line_width(cr, 1.8);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    for (guint i = 0; i < self->curves->len; i++) {
        Curve *c = g_ptr_array_index(self->curves, i);
        guint n = c->x->len, from = grow && c->drawn ? c->drawn - 1 : 0;
        if (record) c->drawn = n;
        if (grow && from + 1 >= n) continue;
        const double *col = palette[c->colour % G_N_ELEMENTS(palette)];
        cairo_set_source_rgb(cr, col[0], col[1], col[2]);
        static const double dash[] = {6, 4};
        cairo_set_dash(cr, dash, c->dashed ? 2 : 0, 0);
        curve_path(self, cr, f, c, from, n);
        cairo_stroke(cr);
        /* a curve of one point (the frame of a statics) is a dot: a path of one point draws nothing */
        const double *X = (const double *)c->x->data, *Y = (const double *)c->y->data;
        if (n == 1 && !grow && isfinite(X[0]) && isfinite(Y[0])) {
            cairo_arc(cr, SX(X[0]), SY(Y[0]), 4, 0, 2 * G_PI);
            cairo_fill(cr);
        }
    }
    cairo_restore(cr);
}

/* Puts the legend in the corner that hides the fewest points (top right first), unless plot_frame put it
 * right of the plot. */
static void place_legend(MotusPlot *self, cairo_t *cr, Frame *f)
{
    if (!self->curves->len || f->legend_out) return;
    double lwid = legend_text_width(self, cr, f->th);
    double px = f->px, py = f->py, pw = f->pw, ph = f->ph, lh = f->th + 2;
    int n = (int)self->curves->len, fit = (int)((ph - 24) / lh);
    f->lrows = MAX(1, MIN(n, fit));
    f->lcw = lwid + 34;
    double bw = f->lcw * ((n + f->lrows - 1) / f->lrows), bh = lh * f->lrows + 8;
    double cx[4] = {px + pw - bw - 8, px + 8, px + pw - bw - 8, px + 8};
    double cy[4] = {py + 8, py + 8, py + ph - bh - 8, py + ph - bh - 8};
    long best = -1;
    f->bw = bw, f->bh = bh, f->bx = cx[0], f->by = cy[0];
    for (int k = 0; k < 4; k++) {
        long hidden = 0;
        for (guint i = 0; i < self->curves->len; i++) {
            const Curve *c = g_ptr_array_index(self->curves, i);
            const double *X = (const double *)c->x->data, *Y = (const double *)c->y->data;
            for (guint j = 0; j < c->x->len; j++) {
                double sx = SX(X[j]), sy = SY(Y[j]);
                hidden += sx >= cx[k] && sx <= cx[k] + bw && sy >= cy[k] && sy <= cy[k] + bh;
            }
        }
        if (best < 0 || hidden < best) best = hidden, f->bx = cx[k], f->by = cy[k];
    }
}

static void draw_legend(MotusPlot *self, cairo_t *cr, const Frame *f)
{
    if (!(f->bw > 0)) return;
    double bx = f->bx, by = f->by, lh = f->th + 2;
    cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
    cairo_rectangle(cr, bx, by, f->bw, f->bh);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0.80, 0.81, 0.83);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
    for (guint i = 0; i < self->curves->len; i++) {
        const Curve *c = g_ptr_array_index(self->curves, i);
        const double *col = palette[c->colour % G_N_ELEMENTS(palette)];
        double yy = by + 4 + lh * ((int)i % f->lrows) + lh / 2, x0 = bx + f->lcw * (double)((int)i / f->lrows);
        cairo_set_source_rgb(cr, col[0], col[1], col[2]);
        cairo_set_line_width(cr, 2.5);
        static const double dash[] = {5, 3};
        cairo_set_dash(cr, dash, c->dashed ? 2 : 0, 0);
        cairo_move_to(cr, x0 + 6, yy), cairo_line_to(cr, x0 + 24, yy);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        cairo_set_source_rgb(cr, 0.15, 0.16, 0.18);
        g_autofree char *s = c->shown[0] ? g_strdup_printf("%s [%s]", c->name, c->shown) : g_strdup(c->name);
        text_at(cr, s, x0 + 29, yy, 0, 0.5);
    }
}

/* The read-out at x: time and each curve's value in the unit its legend shows, and with a pinned reference
 * cursor the differences from it (Δt, Δ). */
static GPtrArray *readout_lines(MotusPlot *self, const Frame *f, double x)
{
    GPtrArray *lines = g_ptr_array_new_with_free_func(g_free);
    gboolean pinned = isfinite(self->pin);
    if (pinned)
        g_ptr_array_add(lines, g_strdup_printf("t = %.6g s  (Δt = %.6g s)", x, x - self->pin));
    else
        g_ptr_array_add(lines, g_strdup_printf("t = %.6g s", x));
    for (guint i = 0; i < self->curves->len; i++) {
        const Curve *c = g_ptr_array_index(self->curves, i);
        double s = f->unit ? f->ys : 1, v = value_at(c, x) * s; /* in the unit its legend shows */
        const char *sp = c->shown[0] ? " " : "";
        if (pinned)
            g_ptr_array_add(lines, g_strdup_printf("%s = %.6g%s%s  (Δ = %.6g%s%s)", c->name, v, sp, c->shown,
                                                   v - value_at(c, self->pin) * s, sp, c->shown));
        else
            g_ptr_array_add(lines, g_strdup_printf("%s = %.6g%s%s", c->name, v, sp, c->shown));
    }
    return lines;
}

char *motus_plot_readout(MotusPlot *self, double x)
{
    GPtrArray *lines = readout_lines(self, &self->cache_frame, x);
    g_ptr_array_add(lines, NULL);
    char *s = g_strjoinv("\n", (char **)lines->pdata);
    g_ptr_array_unref(lines);
    return s;
}

/* What changes without the data changing: the zoom box being dragged, the
 * playback cursor, the pinned reference cursor and the read-out under the pointer. */
static void draw_overlay(MotusPlot *self, cairo_t *cr, const Frame *f)
{
    double px = f->px, py = f->py, pw = f->pw, ph = f->ph;
    cairo_save(cr);
    cairo_rectangle(cr, px, py, pw, ph);
    cairo_clip(cr);
    if (self->drag == 1) { /* the zoom box being dragged */
        static const double bdash[] = {4, 3};
        cairo_set_dash(cr, bdash, 2, 0);
        cairo_set_line_width(cr, 1);
        cairo_set_source_rgb(cr, 0.2, 0.2, 0.25);
        cairo_rectangle(cr, fmin(self->dx0, self->dx1) + 0.5, fmin(self->dy0, self->dy1) + 0.5, fabs(self->dx1 - self->dx0),
                        fabs(self->dy1 - self->dy0));
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    }
    if (!self->xy && isfinite(self->cursor) && self->cursor >= f->xlo && self->cursor <= f->xhi) {
        cairo_set_source_rgba(cr, 0.80, 0.10, 0.10, 0.8);
        cairo_set_line_width(cr, 1);
        double X = CLAMP(round(SX(self->cursor)) + 0.5, px + 0.5, px + pw - 0.5);
        cairo_move_to(cr, X, py), cairo_line_to(cr, X, py + ph);
        cairo_stroke(cr);
    }
    cairo_restore(cr);

    gboolean pinned = !self->xy && isfinite(self->pin) && self->pin >= f->xlo && self->pin <= f->xhi;
    if (pinned) { /* the reference cursor: dashed, blue */
        static const double pdash[] = {5, 3};
        cairo_set_dash(cr, pdash, 2, 0);
        cairo_set_source_rgba(cr, 0.10, 0.35, 0.80, 0.9);
        cairo_set_line_width(cr, 1.5);
        double X = round(SX(self->pin)) + 0.5;
        cairo_move_to(cr, X, py), cairo_line_to(cr, X, py + ph);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    }
    if (self->hover && !self->xy && f->any && self->hover_x >= px && self->hover_x <= px + pw && self->hover_y >= py &&
        self->hover_y <= py + ph) {
        double x = f->xlo + (self->hover_x - px) / pw * (f->xhi - f->xlo), tw, th;
        cairo_set_source_rgba(cr, 0.2, 0.2, 0.2, 0.6);
        cairo_set_line_width(cr, 1);
        cairo_move_to(cr, round(self->hover_x) + 0.5, py), cairo_line_to(cr, round(self->hover_x) + 0.5, py + ph);
        cairo_stroke(cr);
        GPtrArray *lines = readout_lines(self, f, x);
        for (guint i = 0; i < self->curves->len; i++) {
            const Curve *c = g_ptr_array_index(self->curves, i);
            double v = value_at(c, x);
            cairo_arc(cr, SX(x), SY(v), 3, 0, 2 * G_PI);
            const double *col = palette[c->colour % G_N_ELEMENTS(palette)];
            cairo_set_source_rgb(cr, col[0], col[1], col[2]);
            cairo_fill(cr);
        }
        double bw = 0, lh = f->th + 2;
        for (guint i = 0; i < lines->len; i++) {
            text_size(cr, g_ptr_array_index(lines, i), &tw, &th);
            bw = fmax(bw, tw);
        }
        bw += 12;
        double bh = lh * lines->len + 8;
        double bx = self->hover_x + 12, by = self->hover_y + 12;
        if (bx + bw > px + pw) bx = self->hover_x - 12 - bw;
        if (by + bh > py + ph) by = fmax(py, self->hover_y - 12 - bh);
        cairo_set_source_rgba(cr, 1, 1, 0.94, 0.95);
        cairo_rectangle(cr, bx, by, bw, bh);
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, 0.6, 0.6, 0.55);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        for (guint i = 0; i < lines->len; i++) text_at(cr, g_ptr_array_index(lines, i), bx + 6, by + 4 + lh * i, 0, 0);
        g_ptr_array_unref(lines);
    }
}
#undef SX
#undef SY

/* Everything but the overlay (the widget keeps it in its cache). */
static void draw_base(MotusPlot *self, cairo_t *cr, Frame *f, gboolean record)
{
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    draw_axes(self, cr, f);
    draw_curves(self, cr, f, FALSE, record);
    place_legend(self, cr, f);
    draw_legend(self, cr, f);
    self->lx = f->bx, self->ly = f->by, self->lw = f->bw, self->lh = f->bh, self->legend_out = f->legend_out;
    self->y_unit = f->unit;
}

void motus_plot_render(MotusPlot *self, cairo_t *cr, int width, int height)
{
    cairo_set_user_data(cr, &plot_key, self, NULL);
    cairo_save(cr);
    Frame f;
    if (plot_frame(self, cr, width, height, NULL, FALSE, &f)) {
        draw_base(self, cr, &f, FALSE);
        draw_overlay(self, cr, &f);
    } else {
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_paint(cr);
    }
    cairo_restore(cr);
}

/* The widget draws from a cache of the plot without its overlay: the whole
 * picture is drawn again only when the frame (size, ranges, ticks) or the
 * curves' set changed; points appended during a run are drawn onto it, so a
 * frame of a live plot costs the new points, not all of them. */
static void draw_func(GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
    (void)data;
    MotusPlot *self = MOTUS_PLOT(area);
    int scale = gtk_widget_get_scale_factor(GTK_WIDGET(self));
    cairo_set_user_data(cr, &plot_key, self, NULL);
    Frame f;
    if (!plot_frame(self, cr, width, height, self->cache ? &self->cache_frame : NULL, TRUE, &f)) {
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_paint(cr);
        return;
    }
    gboolean redo = !self->cache || !self->cache_ok || self->cache_scale != scale || !frame_same(&f, &self->cache_frame);
    if (redo && (!self->cache || self->cache_scale != scale || self->cache_frame.width != width ||
                 self->cache_frame.height != height)) {
        g_clear_pointer(&self->cache, cairo_surface_destroy);
        self->cache = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width * scale, height * scale);
        cairo_surface_set_device_scale(self->cache, scale, scale);
        self->cache_scale = scale;
    }
    cairo_t *c = cairo_create(self->cache);
    cairo_set_user_data(c, &plot_key, self, NULL);
    if (redo) {
        draw_base(self, c, &f, TRUE);
        self->full_draws++;
        self->cache_frame = f;
        self->cache_ok = TRUE;
    } else
        draw_curves(self, c, &self->cache_frame, TRUE, TRUE);
    cairo_destroy(c);
    cairo_set_source_surface(cr, self->cache, 0, 0);
    cairo_paint(cr);
    draw_overlay(self, cr, &self->cache_frame);
}

/* The plot drawn on s (which it takes) and written to path: a PNG by cairo, an SVG surface by finishing it. */
static gboolean export_surface(MotusPlot *self, cairo_surface_t *s, gboolean png, const char *path, int width,
                               int height, GError **error)
{
    cairo_t *cr = cairo_create(s);
    gboolean hover = self->hover;
    self->hover = FALSE; /* no read-out box in the file */
    motus_plot_render(self, cr, width, height);
    self->hover = hover;
    cairo_destroy(cr);
    cairo_status_t st;
    if (png) st = cairo_surface_write_to_png(s, path);
    else {
        cairo_surface_finish(s); /* writes the file */
        st = cairo_surface_status(s);
    }
    cairo_surface_destroy(s);
    if (st != CAIRO_STATUS_SUCCESS) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("cannot write '%s': %s"), path,
                    cairo_status_to_string(st));
        return FALSE;
    }
    return TRUE;
}

gboolean motus_plot_export_png(MotusPlot *self, const char *path, int width, int height, GError **error)
{
    return export_surface(self, cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height), TRUE, path, width,
                          height, error);
}

gboolean motus_plot_export_svg(MotusPlot *self, const char *path, int width, int height, GError **error)
{
    return export_surface(self, cairo_svg_surface_create(path, width, height), FALSE, path, width, height, error);
}

gboolean motus_plot_export_csv(MotusPlot *self, const char *path, GError **error)
{
    FILE *f = g_fopen(path, "w");
    if (!f) {
        int e = errno;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), _("cannot write '%s': %s"), path, g_strerror(e));
        return FALSE;
    }
    fputs(self->x_name, f);
    for (guint i = 0; i < self->curves->len; i++)
        fprintf(f, ",%s", ((Curve *)g_ptr_array_index(self->curves, i))->name);
    fputc('\n', f);
    if (self->curves->len) {
        const Curve *c0 = g_ptr_array_index(self->curves, 0);
        char buf[G_ASCII_DTOSTR_BUF_SIZE];
        for (guint k = 0; k < c0->x->len; k++) {
            double x = g_array_index(c0->x, double, k);
            fputs(g_ascii_formatd(buf, sizeof buf, "%.12g", x), f);
            for (guint i = 0; i < self->curves->len; i++) {
                const Curve *c = g_ptr_array_index(self->curves, i);
                double v = (c->x->len == c0->x->len && g_array_index(c->x, double, k) == x)
                               ? g_array_index(c->y, double, k)
                               : value_at(c, x);
                fputc(',', f);
                fputs(g_ascii_formatd(buf, sizeof buf, "%.12g", v), f);
            }
            fputc('\n', f);
        }
    }
    if (fclose(f) != 0) {
        int e = errno;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), _("cannot write '%s': %s"), path, g_strerror(e));
        return FALSE;
    }
    return TRUE;
}
