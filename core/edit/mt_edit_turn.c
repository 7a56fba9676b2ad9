/* mt_edit_turn.c — a body's initial orientation turned about a project axis (see include/motus/edit_turn.h). */
#include "motus/edit_turn.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mt_i18n.h"

MtStatus mt_edit_turn_body(MtEditor *e, int body, int axis, double angle, MtError *err)
{
    const MtModel *m = mt_editor_model(e);
    if (body < 0 || body >= m->nbody)
        return mt_error_set(err, MT_ERR_ARG, "", "%s", MT_("only a body (not the ground) can be turned"));
    if (axis < 0 || axis > 2 || !isfinite(angle))
        return mt_error_set(err, MT_ERR_ARG, m->body[body].name,
                            MT_("body '%s': a turn needs an axis x, y or z and a finite angle"), m->body[body].name);
    MtModel *c = mt_model_copy(m);
    if (!c) return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
    /* T: rotation about the axis; rows i, columns j, row-major as MtBodySpec.rot */
    double T[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, co = cos(angle), si = sin(angle);
    int a = (axis + 1) % 3, b = (axis + 2) % 3; /* the plane turned: a → b */
    T[3 * a + a] = co, T[3 * a + b] = -si;
    T[3 * b + a] = si, T[3 * b + b] = co;
    const double *R = m->body[body].rot;
    double *Rn = c->body[body].rot;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) Rn[3 * i + j] = T[3 * i] * R[j] + T[3 * i + 1] * R[3 + j] + T[3 * i + 2] * R[6 + j];
    /* the turned orientation is numbers now, as a number typed over an expression */
    mt_model_orient_clear(c, MT_ENT_BODY, body);
    char what[160], label[256];
    mt_edit_describe(m, MT_EDIT_BODY, body, what, sizeof what);
    mt_utf8_fmt(label, sizeof label, MT_("turn %s"), what);
    return mt_editor_commit(e, c, label, err);
}
