/* mt_forces.h — force elements inside core (called by the dynamics and
 * measure stages; the model side is in motus/model.h). */
#ifndef MT_FORCES_H
#define MT_FORCES_H

#include "mt_controls.h"
#include "mt_system.h"

/* Record of a force element per evaluation (MtState.fout, MT_FOUT per
 * element): force and moment on the body of marker i about marker i's
 * origin (project axes), deflection, power delivered, elastic energy stored;
 * then what a wheel–rail contact records of its wheels (mt_rail.h). */
#define MT_FOUT 34

/* Channel kinds (MtSystem.chan: kind, a, b, c). */
enum { MT_CH_LOCAL, MT_CH_TIME, MT_CH_PARAM, MT_CH_BODY, MT_CH_JOINT, MT_CH_SPRING, MT_CH_SENSOR, MT_CH_CONTROL, MT_CH_POST };

/* Joint coordinate (angle in (−π, π], or displacement) or its rate at (q, u)
 * (needs st->R for q); NAN when the joint has no such coordinate. */
double mt_joint_channel(const MtState *st, const double *q, const double *u, int joint, MtCoordKind coord, int rate);
/* Computes the channel values at (t, q, u) (needs st->R). */
void mt_stage_channels(MtState *st, double t, const double *q, const double *u);

/* Values of the channels that need a solved state (sensors of accelerations,
 * reactions, loads, energies read by events) after an evaluation at (q, u). */
void mt_post_channels(MtState *st, const double *q, const double *u);

/* Compiles force and spring-curve expressions and the channels they read. */
int mt_forces_compile(MtSystem *s, MtError *err);
void mt_forces_free(MtSystem *s);
/* Adds every force element's wrench to st->f; records st->fout. Needs st->R. */
void mt_stage_force_elements(MtState *st, double t, const double *q, const double *u);
/* Tension of a spring with a curve at extension x and rate v; NAN without a curve. */
double mt_spring_curve(MtState *st, int spring, double x, double v);
/* After an accepted step (st->R at st->q): turn counts, contact impact speeds. */
void mt_forces_commit(MtState *st);
/* Elastic energy stored in the force elements (from st->fout). */
double mt_forces_potential(const MtState *st);

#endif
