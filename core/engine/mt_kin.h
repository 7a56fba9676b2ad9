/* mt_kin.h — marker kinematics shared by the constraint, force and measure
 * stages (internal to core): world pose and velocity of a marker from the
 * body rotations already computed for the current evaluation. */
#ifndef MT_KIN_H
#define MT_KIN_H

#include "mt_math.h"
#include "mt_system.h"

typedef struct {
    double p[3];     /* origin, project axes */
    double r[3];     /* origin minus the body's centre of mass (ground: minus the project origin) */
    double ax[3][3]; /* ax[k] = k-th marker axis in project axes */
    double v[3], w[3]; /* body centre-of-mass velocity and angular velocity of the marker's axes */
    double vp[3];    /* velocity of the marker origin */
    double wb[3];    /* angular velocity of the body (= w except on a flexible body, whose nodes also turn elastically) */
} MtMk;

void mt_flex_marker(const MtState *st, const double *q, const double *u, int mk, MtMk *o, int axes);

/* Needs st->R filled for the body (mt_stage_bodies). With axes == 0 the
 * marker axes are not computed (spherical rows do not need them). */
static inline void mt_marker_eval_ax(const MtState *st, const double *q, const double *u, int mk, MtMk *o, int axes)
{
    const MtSystem *s = st->sys;
    int b = s->mbody[mk];
    const double *pos = s->mpos + 3 * mk, *rot = s->mrot + 9 * mk;
    if (s->mflex && s->mflex[mk] >= 0) {
        mt_flex_marker(st, q, u, mk, o, axes);
        return;
    }
    if (b < 0) {
        mt_v3_copy(o->r, pos);
        mt_v3_copy(o->p, pos);
        for (int k = 0; k < 3; k++) mt_v3_set(o->ax[k], rot[k], rot[3 + k], rot[6 + k]);
        mt_v3_set(o->v, 0, 0, 0);
        mt_v3_set(o->w, 0, 0, 0);
        mt_v3_set(o->vp, 0, 0, 0);
        mt_v3_set(o->wb, 0, 0, 0);
        return;
    }
    const double *R = st->R + 9 * b;
    mt_m3_mulv(o->r, R, pos);
    mt_v3_add(o->p, q + 7 * b, o->r);
    if (axes) {
        double A[9];
        mt_m3_mul(A, R, rot);
        for (int k = 0; k < 3; k++) mt_v3_set(o->ax[k], A[k], A[3 + k], A[6 + k]);
    }
    mt_v3_copy(o->v, u + 6 * b);
    mt_v3_copy(o->w, u + 6 * b + 3);
    mt_v3_copy(o->wb, o->w);
    mt_v3_cross(o->vp, o->w, o->r);
    mt_v3_add(o->vp, o->vp, o->v);
}

static inline void mt_marker_eval(const MtState *st, const double *q, const double *u, int mk, MtMk *o)
{
    mt_marker_eval_ax(st, q, u, mk, o, 1);
}

/* Stages (mt_dynamics.c, mt_constraints.c). */
void mt_stage_bodies(MtState *st, const double *q);
void mt_stage_constraints(MtState *st, double t, const double *q, const double *u);
/* The same, and the lean blocks' rows of the Lagrange right-hand side in rhs
 * (Baumgarte gains c0, c1; free accelerations st->a0), in the same pass. */
void mt_stage_constraints_rhs(MtState *st, double t, const double *q, const double *u, double c0, double c1, double *rhs);
void mt_assemble(MtState *st);

#endif
