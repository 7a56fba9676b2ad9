/* motus/teach.h — what the classroom view draws, computed from one output
 * frame: the instantaneous centre of velocity of a body, and the free-body
 * diagram of a rigid body (every force acting on it, at its point), and the
 * system's linear momentum (the live meters).
 *
 * Both read a frame as the window and the tests have it: the poses of the
 * bodies (7 doubles per body: frame origin in project axes and the
 * quaternion w x y z) and the frame's result columns by name (motus/results.h).
 * Nothing here needs the solver's state, so a stored run draws the same. */
#ifndef MOTUS_TEACH_H
#define MOTUS_TEACH_H

#include "motus/model.h"

/* The point of the instantaneous screw axis nearest to the point c of a body
 * moving with velocity vc at c and angular velocity w (project axes):
 *   p = c + w × vc / |w|²
 * In plane motion (w normal to the plane, vc in it) p is the instantaneous
 * centre of velocity: its velocity is zero. Returns 0 (p untouched) when the
 * body does not turn (|w| ≤ tiny·|vc|/size: a translation has its centre at infinity). */
int mt_teach_icr(const double c[3], const double vc[3], const double w[3], double p[3]);

/* A result column's value in the frame, by name; NAN when the run has no such column. */
typedef double (*MtColumnValueFn)(void *ctx, const char *column);

/* The rotation (body to project axes, row-major) of a pose's quaternion w x y z, normalised first
 * (stored poses carry rounding); a zero quaternion gives the identity. */
void mt_teach_rotation(const double q[4], double R[9]);

/* The system's linear momentum p = Σ m v_c in the frame, v_c = v_o + ω × R c (v_o and ω the body's
 * BODY.vx … BODY.wz columns, c its centre of mass in body axes, R its pose's rotation). Returns 0
 * (p zero) when the frame lacks a body's velocity columns. */
int mt_teach_momentum(const MtModel *m, const double *pose, MtColumnValueFn value, void *ctx, double p[3]);

typedef enum {
    MT_FBD_GRAVITY, /* m·g at the centre of mass */
    MT_FBD_JOINT,   /* a joint's reaction (marker i's body: +, marker j's body: −), at marker i */
    MT_FBD_DRIVER,  /* a driver's effort along its axis (translational drivers; torque otherwise) */
    MT_FBD_SPRING,  /* a spring's tension along the line between its markers, at the body's marker */
    MT_FBD_FORCE,   /* a force element (contact, bushing, strut, tyre, …), at the body's marker */
} MtFbdKind;

typedef struct {
    MtFbdKind kind;
    int entity;       /* joint, driver, spring or force index (-1 for gravity) */
    double point[3];  /* where it acts, project axes */
    double force[3];  /* N, project axes */
    double torque[3]; /* N·m about point (joint and force-element moments, driver torques) */
} MtFbdArrow;

/* The forces acting on rigid body `body` of m in the frame (pose: 7 per body,
 * value: the frame's columns). Writes up to max arrows to out and returns how
 * many act (may exceed max); arrows of zero force and zero torque are left
 * out. Couplings (gears, racks) and flexible bodies' elastic forces are not
 * included: *missing (may be NULL) is set to the number of couplings acting on
 * the body, so a caller can say so. Their sum with −m·a of the centre of mass
 * is zero (d'Alembert) to the accuracy of the run's reactions. */
int mt_teach_fbd(const MtModel *m, int body, const double *pose, MtColumnValueFn value, void *ctx, MtFbdArrow *out,
                 int max, int *missing);

#endif
