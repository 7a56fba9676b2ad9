/* mt_orient.c — orientations as the text format types them (z [x], quat,
 * axis, matrix, angles): the one conversion from a form and its words to a
 * rotation matrix, shared by the reader, the evaluation of parameters and
 * the editor, and the orientations of a model that follow expressions. Declared in motus/model.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_i18n.h"
#include "mt_math.h"
#include "motus/model.h"
#include "motus/units.h"

int mt_orient_nwords(MtOrientForm f)
{
    static const int n[MT_ORIENT_NFORMS] = {0, 3, 6, 4, 4, 9, 3};
    return (f >= 0 && f < MT_ORIENT_NFORMS) ? n[f] : 0;
}

const char *mt_orient_form_name(MtOrientForm f)
{
    static const char *const names[MT_ORIENT_NFORMS] = {"", "z", "z", "quat", "axis", "matrix", "angles"};
    return (f >= 0 && f < MT_ORIENT_NFORMS) ? names[f] : "";
}

/* Rotation whose z column is along z0 and x column the part of xhint normal to
 * z0 (no hint: project x, or the project axis least along z0 when x is too
 * close to it). */
static int frame_from_zx(double *R, const double *z0, const double *xhint)
{
    double z[3], x[3], y[3];
    double nz = mt_v3_norm(z0);
    if (!(nz > 1e-12)) return MT_ORIENT_ZERO_Z;
    mt_v3_scale(z, z0, 1 / nz);
    double h[3];
    if (xhint) mt_v3_copy(h, xhint);
    else mt_v3_set(h, 1, 0, 0);
    mt_v3_axpy(h, -mt_v3_dot(h, z), z);
    if (mt_v3_norm(h) < 1e-6) { /* hint along z: take the project axis least aligned with z */
        if (xhint) return MT_ORIENT_X_PARALLEL;
        int k = fabs(z[0]) <= fabs(z[1]) ? (fabs(z[0]) <= fabs(z[2]) ? 0 : 2) : (fabs(z[1]) <= fabs(z[2]) ? 1 : 2);
        mt_v3_set(h, k == 0, k == 1, k == 2);
        mt_v3_axpy(h, -mt_v3_dot(h, z), z);
    }
    mt_v3_scale(x, h, 1 / mt_v3_norm(h));
    mt_v3_cross(y, z, x);
    for (int r = 0; r < 3; r++) { R[3 * r] = x[r]; R[3 * r + 1] = y[r]; R[3 * r + 2] = z[r]; }
    return 0;
}

int mt_orient_rot(MtOrientForm form, const double *w, double R[9])
{
    for (int k = 0; k < mt_orient_nwords(form); k++)
        if (!isfinite(w[k])) return MT_ORIENT_NOT_FINITE;
    switch (form) {
    case MT_ORIENT_Z: return frame_from_zx(R, w, NULL);
    case MT_ORIENT_ZX: return frame_from_zx(R, w, w + 3);
    case MT_ORIENT_QUAT: {
        double n = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2] + w[3] * w[3]), q[4];
        if (!(n > 1e-12)) return MT_ORIENT_ZERO_QUAT;
        for (int k = 0; k < 4; k++) q[k] = w[k] / n;
        mt_quat_to_m3(R, q);
        return 0;
    }
    case MT_ORIENT_AXIS: {
        double n = mt_v3_norm(w), v[3], q[4];
        if (!(n > 1e-12)) return MT_ORIENT_ZERO_AXIS;
        mt_v3_scale(v, w, w[3] / n);
        mt_quat_from_rotvec(q, v);
        mt_quat_to_m3(R, q);
        return 0;
    }
    case MT_ORIENT_MATRIX: memcpy(R, w, 9 * sizeof *R); return 0; /* checked as a rotation by mt_model_validate */
    case MT_ORIENT_ANGLES: { /* R = Rz(w2)·Ry(w1)·Rx(w0): turns about project x, then y, then z */
        double cx = cos(w[0]), sx = sin(w[0]), cy = cos(w[1]), sy = sin(w[1]), cz = cos(w[2]), sz = sin(w[2]);
        R[0] = cz * cy, R[1] = cz * sy * sx - sz * cx, R[2] = cz * sy * cx + sz * sx;
        R[3] = sz * cy, R[4] = sz * sy * sx + cz * cx, R[5] = sz * sy * cx - cz * sx;
        R[6] = -sy, R[7] = cy * sx, R[8] = cy * cx;
        return 0;
    }
    default: return MT_ORIENT_NOT_FINITE;
    }
}

const char *mt_orient_problem(int code)
{
    switch (code) {
    case MT_ORIENT_ZERO_Z: return MT_("the z axis has zero length");
    case MT_ORIENT_X_PARALLEL: return MT_("the x axis is parallel to the z axis");
    case MT_ORIENT_ZERO_QUAT: return MT_("the quaternion has zero length");
    case MT_ORIENT_ZERO_AXIS: return MT_("the rotation axis has zero length");
    default: return MT_("a number of the orientation is not finite");
    }
}

MtOrient *mt_model_orient(MtModel *m, MtEntityKind kind, int index, double **rot)
{
    MtOrient *o = NULL;
    double *r = NULL;
    if (kind == MT_ENT_BODY && index >= 0 && index < m->nbody) o = &m->body[index].ori, r = m->body[index].rot;
    if (kind == MT_ENT_MARKER && index >= 0 && index < m->nmarker) o = &m->marker[index].ori, r = m->marker[index].rot;
    if (kind == MT_ENT_SHAPE && index >= 0 && index < m->nshape) o = &m->shape[index].ori, r = m->shape[index].rot;
    if (rot) *rot = r;
    return o;
}

int mt_model_orient_bound(const MtModel *m, MtEntityKind kind, int index)
{
    int n = 0;
    for (int i = 0; i < m->nbinding; i++) {
        const MtBinding *b = &m->binding[i];
        n += b->kind == kind && b->index == index && !strncmp(b->field, "orient.", 7);
    }
    return n;
}

void mt_model_orient_clear(MtModel *m, MtEntityKind kind, int index)
{
    MtOrient *o = mt_model_orient(m, kind, index, NULL);
    if (o) memset(o, 0, sizeof *o);
    int n = 0;
    for (int i = 0; i < m->nbinding; i++) {
        const MtBinding *b = &m->binding[i];
        if (b->kind == kind && b->index == index && !strncmp(b->field, "orient.", 7)) continue;
        m->binding[n++] = *b;
    }
    m->nbinding = n;
}

MtStatus mt_model_update_orients(MtModel *m, MtError *err)
{
    char ref[2 * MT_NAME_MAX + 2];
    for (int i = 0; i < m->nbody; i++) {
        const MtBodySpec *b = &m->body[i];
        int rc = b->ori.form ? mt_orient_rot(b->ori.form, b->ori.w, m->body[i].rot) : 0;
        if (rc)
            return mt_error_set(err, MT_ERR_MODEL, b->name, MT_("body '%s', orientation: %s"), b->name, mt_orient_problem(rc));
    }
    for (int i = 0; i < m->nmarker; i++) {
        const MtMarkerSpec *k = &m->marker[i];
        int rc = k->ori.form ? mt_orient_rot(k->ori.form, k->ori.w, m->marker[i].rot) : 0;
        if (rc) {
            mt_model_marker_ref(m, i, ref, sizeof ref);
            return mt_error_set(err, MT_ERR_MODEL, ref, MT_("marker '%s', axes: %s"), ref, mt_orient_problem(rc));
        }
    }
    for (int i = 0; i < m->nshape; i++) {
        const MtShapeSpec *s = &m->shape[i];
        int rc = s->ori.form ? mt_orient_rot(s->ori.form, s->ori.w, m->shape[i].rot) : 0;
        if (rc) {
            const char *owner = mt_model_body_name(m, s->body);
            return mt_error_set(err, MT_ERR_MODEL, owner, MT_("body '%s', orientation of shape %d: %s"), owner, i + 1,
                                mt_orient_problem(rc));
        }
    }
    return MT_OK;
}

int mt_orient_to_text(const MtOrient *o, char *buf, size_t n)
{
    size_t used = (size_t)snprintf(buf, n, "%s", mt_orient_form_name(o->form));
    for (int k = 0; k < mt_orient_nwords(o->form) && used < n; k++)
        used += (size_t)snprintf(buf + used, n - used, "%s %s", k == 3 && o->form == MT_ORIENT_ZX ? " x" : "", MT_DOUBLE_STR(o->w[k]));
    return used < n ? 0 : -1;
}

int mt_orient_from_text(const char *s, MtOrient *o)
{
    static const MtOrientForm forms[] = {MT_ORIENT_Z, MT_ORIENT_QUAT, MT_ORIENT_AXIS, MT_ORIENT_MATRIX, MT_ORIENT_ANGLES};
    MtOrient t = {MT_ORIENT_NONE, {0}};
    size_t len = strcspn(s, " ");
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++)
        if (len == strlen(mt_orient_form_name(forms[f])) && !strncmp(s, mt_orient_form_name(forms[f]), len)) t.form = forms[f];
    if (t.form == MT_ORIENT_NONE) return -1;
    const char *c = s + len;
    int k = 0;
    for (;; k++) {
        while (*c == ' ') c++;
        if (!*c) break;
        if (k == 3 && t.form == MT_ORIENT_Z && c[0] == 'x' && c[1] == ' ') { /* "z … x …" */
            t.form = MT_ORIENT_ZX;
            c += 2;
            while (*c == ' ') c++;
        }
        char *end;
        if (k >= mt_orient_nwords(t.form)) return -1;
        t.w[k] = strtod(c, &end);
        if (end == c || (*end && *end != ' ')) return -1;
        c = end;
    }
    if (k != mt_orient_nwords(t.form)) return -1;
    *o = t;
    return 0;
}
