/* motus-gizmo.h — the move/rotate gizmo of the 3D view, as pure functions of
 * the camera (no GTK, no GL): three arrows along three axes to drag along, or
 * three rings about them to turn about, drawn in 2D over the view at a fixed
 * size on screen. The view (motus-viewport.c) draws the paths and turns a
 * drag into an amount; the window makes the edit. */
#ifndef MOTUS_GIZMO_H
#define MOTUS_GIZMO_H

#include "motus-camera.h"

typedef enum { MOTUS_GIZMO_OFF, MOTUS_GIZMO_MOVE, MOTUS_GIZMO_TURN } MotusGizmoMode;

#define MOTUS_GIZMO_PX 90.0   /* arrow length and ring radius on screen, pixels */
#define MOTUS_GIZMO_RING 64   /* segments of a ring */
#define MOTUS_GIZMO_SNAP_MOVE 1e-3             /* m: steps of a move with Ctrl */
#define MOTUS_GIZMO_SNAP_TURN (3.14159265358979323846 / 36) /* rad (5°): steps of a turn with Ctrl */

typedef struct {
    MotusGizmoMode mode;
    double origin[3]; /* project axes */
    double axes[9];   /* the three unit axes as columns, row-major, project axes */
} MotusGizmo;

/* World length of an arrow (and radius of a ring) drawn MOTUS_GIZMO_PX long
 * at the gizmo's depth in a viewport `height` pixels high. */
double motus_gizmo_size(const MotusGizmo *g, const MotusCamera *c, int height);
/* Widget coordinates of the path of handle k (0..2): an arrow from its base
 * to its tip (2 points), a ring (MOTUS_GIZMO_RING + 1 points, closed).
 * xy holds 2 x (MOTUS_GIZMO_RING + 1) floats; points that cannot be
 * projected are NAN. Returns the number of points. */
int motus_gizmo_path(const MotusGizmo *g, const MotusCamera *c, int width, int height, int k, float *xy);
/* The handle within `tol` pixels of (x, y) (the nearest), or -1. */
int motus_gizmo_hit(const MotusGizmo *g, const MotusCamera *c, int width, int height, double x, double y, double tol);
/* What a drag on handle k from (x0, y0) to (x1, y1) does: moving, the
 * distance along axis k (world units: the pointer's displacement along the
 * arrow's direction on screen over the arrow's pixels per unit; 0 for an arrow
 * shorter than a fifth of its length on screen); turning, the
 * angle about axis k (rad, right-handed: the pointer's turn about the ring's
 * centre on screen, counter-clockwise positive when the axis points at the
 * viewer; seen edge-on, the drag along the ring's tangent at the grab point
 * over its radius). snap: whole steps of MOTUS_GIZMO_SNAP_MOVE / _TURN. */
double motus_gizmo_drag(const MotusGizmo *g, const MotusCamera *c, int width, int height, int k, double x0, double y0,
                        double x1, double y1, int snap);

#endif
