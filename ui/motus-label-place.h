/* motus-label-place.h — where the 3D view's labels go: each next to its
 * anchor (an arrow's tip, a point), in the first of eight places around it
 * that overlaps no label placed before and stays in the view, else where it
 * overlaps least. Pure: tested in tests/ui (ui_label_place). */
#ifndef MOTUS_LABEL_PLACE_H
#define MOTUS_LABEL_PLACE_H

/* n labels: anchors ax, ay (pixels), sizes w, h; the view is width × height.
 * Writes each label's top-left corner to x, y; returns how many overlap
 * another (0 when all found room). */
int motus_label_place(int n, const double *ax, const double *ay, const double *w, const double *h, double width,
                      double height, double *x, double *y);

#endif
