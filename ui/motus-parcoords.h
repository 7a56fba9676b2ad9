/* motus-parcoords.h — a parallel-coordinates view (the Study panel's view of
 * more than two variables): one vertical axis per column (variables, then
 * responses), each scaled from its least to its largest value, and one line
 * per case across them, coloured by one column with motus_colormap. */
#ifndef MOTUS_PARCOORDS_H
#define MOTUS_PARCOORDS_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define MOTUS_TYPE_PARCOORDS (motus_parcoords_get_type())
G_DECLARE_FINAL_TYPE(MotusParcoords, motus_parcoords, MOTUS, PARCOORDS, GtkDrawingArea)

GtkWidget *motus_parcoords_new(void);
/* naxis columns named name[], nline lines of naxis values (v[l·naxis + a]; NAN: the line is broken there),
 * coloured by column colour (-1: one colour). Copied. */
void motus_parcoords_set_data(MotusParcoords *self, int naxis, const char *const *name, int nline, const double *v,
                              int colour);
int motus_parcoords_n_axes(MotusParcoords *self);
int motus_parcoords_n_lines(MotusParcoords *self);
/* Axis a's range (FALSE when it has no finite value). */
gboolean motus_parcoords_range(MotusParcoords *self, int a, double *lo, double *hi);

G_END_DECLS

#endif
