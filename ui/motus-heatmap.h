/* motus-heatmap.h — a heat map of a value over two variables (the Study
 * panel's response over two design variables): a grid of nx × ny cells
 * coloured by motus_colormap between the values' least and largest, each
 * column and row labelled with its variable's value, a legend with its
 * colour bar. Cells without a value (NAN) are drawn grey. */
#ifndef MOTUS_HEATMAP_H
#define MOTUS_HEATMAP_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define MOTUS_TYPE_HEATMAP (motus_heatmap_get_type())
G_DECLARE_FINAL_TYPE(MotusHeatmap, motus_heatmap, MOTUS, HEATMAP, GtkDrawingArea)

GtkWidget *motus_heatmap_new(void);
/* x (nx values, left to right), y (ny values, bottom to top), z (nx·ny values, z[i·ny + j] at x[i], y[j]);
 * the labels name the axes and the value (with units). Copied. nx or ny 0: empty, placeholder shown. */
void motus_heatmap_set_data(MotusHeatmap *self, int nx, const double *x, int ny, const double *y, const double *z,
                            const char *xlabel, const char *ylabel, const char *zlabel);
void motus_heatmap_set_placeholder(MotusHeatmap *self, const char *text);
int motus_heatmap_nx(MotusHeatmap *self);
int motus_heatmap_ny(MotusHeatmap *self);
/* The value of cell (i, j) (NAN when none, or out of range). */
double motus_heatmap_cell(MotusHeatmap *self, int i, int j);
/* The colour range (the least and largest finite value); FALSE when there is none. */
gboolean motus_heatmap_range(MotusHeatmap *self, double *lo, double *hi);
/* The cell under widget point (px, py): FALSE when none. */
gboolean motus_heatmap_cell_at(MotusHeatmap *self, double px, double py, int *i, int *j);
/* Signal "cell-activated" (int i, int j): a double click on a cell. Its tooltip shows its values. */

/* Where cell (i, j)'s centre is drawn, in widget pixels (for tests and pointer lookups). */
gboolean motus_heatmap_cell_center(MotusHeatmap *self, int i, int j, double *px, double *py);

G_END_DECLS

#endif
