/* motus-plot.h — the plot widget: curves y(x) (result columns against time)
 * drawn with cairo, with axes, nice ticks, labels, a legend, the playback
 * cursor and a read-out of the values under the pointer. Data are copied in
 * by the caller (motus-window.c feeds it from the run's frame store, also
 * while the run goes). Exports to PNG, SVG and CSV. */
#ifndef MOTUS_PLOT_H
#define MOTUS_PLOT_H

#include <gtk/gtk.h>

#include "motus/units.h"

G_BEGIN_DECLS

#define MOTUS_TYPE_PLOT (motus_plot_get_type())
G_DECLARE_FINAL_TYPE(MotusPlot, motus_plot, MOTUS, PLOT, GtkDrawingArea)

GtkWidget *motus_plot_new(void);

/* Removes every curve. */
void motus_plot_clear(MotusPlot *self);
/* Adds an empty curve named name with a unit ("" when none); returns its index. */
int motus_plot_add_curve(MotusPlot *self, const char *name, const char *unit);
void motus_plot_remove_curve(MotusPlot *self, int curve);
int motus_plot_n_curves(MotusPlot *self);
const char *motus_plot_curve_name(MotusPlot *self, int curve);
/* Replaces the points of a curve / appends points to it. */
void motus_plot_set_data(MotusPlot *self, int curve, const double *x, const double *y, guint n);
void motus_plot_append(MotusPlot *self, int curve, const double *x, const double *y, guint n);
guint motus_plot_n_points(MotusPlot *self, int curve);
/* Fixed x range (lo < hi), e.g. [0, end time] during a run; lo >= hi: automatic. */
void motus_plot_set_x_range(MotusPlot *self, double lo, double hi);
/* Playback cursor at x (NAN: none). */
void motus_plot_set_cursor(MotusPlot *self, double x);
/* Where the pointer is (widget coordinates): the read-out shows the values
 * at its time (what the motion controller calls; tests call it too). */
void motus_plot_set_pointer(MotusPlot *self, gboolean inside, double x, double y);
/* Colour (palette index) and dashing of a curve (dashed: kept from an earlier run). */
void motus_plot_set_curve_style(MotusPlot *self, int curve, int colour, gboolean dashed);
/* The horizontal axis: time (column NULL), or a result column with its unit
 * (an X–Y plot: points joined in data order, no playback cursor or read-out). */
void motus_plot_set_x_axis(MotusPlot *self, const char *column, const char *unit);
/* The unit curves of quantity dim are shown in ("kN"; NULL or "": a readable
 * multiple of the SI unit chosen from the values, as kN for 18 650 N). The
 * data stay SI; the axis, legend and read-out follow. */
void motus_plot_set_unit(MotusPlot *self, MtDim dim, const char *unit);
/* The y axis's unit as the last render showed it ("mm"; NULL when the curves have none in common), and the x axis's title. */
const char *motus_plot_y_unit(MotusPlot *self);
/* The reference cursor a click pins (x in data units; NAN: none): the read-out gives differences from it. */
void motus_plot_set_pin(MotusPlot *self, double x);
double motus_plot_get_pin(MotusPlot *self);
/* The read-out the pointer at x would show (lines joined by newlines; free it), as last drawn. */
char *motus_plot_readout(MotusPlot *self, double x);
const char *motus_plot_x_label(MotusPlot *self);
/* Point i of a curve; FALSE when absent. */
gboolean motus_plot_get_point(MotusPlot *self, int curve, guint i, double *x, double *y);
/* Text shown when there is no curve. */
void motus_plot_set_placeholder(MotusPlot *self, const char *text);

/* The view: a zoomed or panned range replaces the automatic one until reset.
 * Mouse: drag a box to zoom into it, Shift+drag or middle-drag to pan, the
 * wheel zooms about the pointer, a double click goes back to automatic. */
void motus_plot_set_view(MotusPlot *self, double x0, double x1, double y0, double y1);
void motus_plot_reset_view(MotusPlot *self);
/* TRUE and the range when zoomed or panned. */
gboolean motus_plot_get_view(MotusPlot *self, double *x0, double *x1, double *y0, double *y1);
/* Zoom into the box between two points, widget coordinates (what a box drag does). */
void motus_plot_zoom_box(MotusPlot *self, double x0, double y0, double x1, double y1);
/* Zoom by factor (> 1: out) about a point, widget coordinates (what the wheel does). */
void motus_plot_zoom_at(MotusPlot *self, double x, double y, double factor);
/* Signal "column-dropped" (const char *column): a result column's name was
 * dropped on the plot (dragged from the model tree). */

/* Draws the plot whole at the next frame (at the end of a run: the legend
 * moves to the corner that hides the fewest points). */
void motus_plot_redraw_whole(MotusPlot *self);
/* How many of the widget's frames drew the plot whole (the others drew only
 * the points appended since the frame before); for tests and benchmarks. */
guint motus_plot_get_full_draws(MotusPlot *self);
/* The plot rectangle of the last picture drawn whole (x, y, width, height in
 * widget coordinates) and its ranges (x from, to, y from, to). */
void motus_plot_get_area(MotusPlot *self, double rect[4], double range[4]);
/* Its legend box (FALSE: no legend); *outside: right of the plot rectangle (a
 * short plot, where a legend inside would hide curves), else in the corner
 * over the plot that hides the fewest points. */
gboolean motus_plot_get_legend(MotusPlot *self, double *x, double *y, double *w, double *h, gboolean *outside);

/* Draws the plot into cr over width x height (used by the widget and the export). */
void motus_plot_render(MotusPlot *self, cairo_t *cr, int width, int height);
gboolean motus_plot_export_png(MotusPlot *self, const char *path, int width, int height, GError **error);
/* The same picture as vector graphics (SVG, width x height points). */
gboolean motus_plot_export_svg(MotusPlot *self, const char *path, int width, int height, GError **error);
/* Writes "time,CURVE1,CURVE2,…" then one row per point of the first curve
 * (other curves interpolated at its times). */
gboolean motus_plot_export_csv(MotusPlot *self, const char *path, GError **error);

G_END_DECLS

#endif
