/* motus/edit_turn.h — turning a body's initial orientation about an axis of the
 * project frame as one edit (what the 3D view's rotate gizmo does).
 *
 * The orientation fields of motus/edit.h are the angles of R = Rz·Ry·Rx; a turn
 * about project x or y changes all three at once, which as three field edits
 * would take three undos and pass through orientations the user never chose. */
#ifndef MOTUS_EDIT_TURN_H
#define MOTUS_EDIT_TURN_H

#include "motus/edit.h"

/* Turns body `body` about the project axis `axis` (0 x, 1 y, 2 z) through its
 * origin by `angle` rad (right-handed): R ← Raxis(angle)·R, its position, its
 * markers and shapes (in body axes) following; an orientation typed with
 * expressions becomes the turned numbers. MT_ERR_ARG for the ground, a
 * bad index or axis, or an angle that is not finite. */
MtStatus mt_edit_turn_body(MtEditor *e, int body, int axis, double angle, MtError *err);

#endif
