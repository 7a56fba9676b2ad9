/* mt_edit_internal.h — shared by mt_edit.c and mt_edit_ops.c only. */
#ifndef MT_EDIT_INTERNAL_H
#define MT_EDIT_INTERNAL_H

#include "motus/edit.h"

/* 1 when (kind, index) names an entity of m (the ground, gravity and solver included). */
int mt_edit_valid(const MtModel *m, MtEditKind kind, int index);
/* The name buffer of a named entity, or NULL. */
char *mt_edit_name_ptr(MtModel *m, MtEditKind kind, int index);

/* Body orientation as turns about project x, y, z (R = Rz·Ry·Rx; the other
 * way: mt_orient_rot with MT_ORIENT_ANGLES). */
void mt_edit_rot_to_angles(const double R[9], double a[3]);

#endif
