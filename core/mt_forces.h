/* mt_forces.h — force elements inside core (called by the dynamics and
 * measure stages; the model side is in mt_model.h). */
#ifndef MT_FORCES_H
#define MT_FORCES_H

#include "mt_controls.h"
#include "mt_system.h"

/* Channel kinds (MtSystem.chan: kind, a, b, c). */
enum { MT_CH_LOCAL, MT_CH_TIME, MT_CH_PARAM, MT_CH_BODY, MT_CH_JOINT, MT_CH_SPRING, MT_CH_SENSOR, MT_CH_CONTROL };

/* Computes the channel values at (t, q, u) (needs st->R). */
void mt_stage_channels(MtState *st, double t, const double *q, const double *u);

/* Compiles force and spring-curve expressions and the channels they read. */
int mt_forces_compile(MtSystem *s, MtError *err);
void mt_forces_free(MtSystem *s);
/* Adds every force element's wrench to st->f; records st->fout. Needs st->R. */
void mt_stage_force_elements(MtState *st, double t, const double *q, const double *u);
/* Tension of a spring with a curve at extension x and rate v; NAN without a curve. */
double mt_spring_curve(MtState *st, int spring, double x, double v);
/* After an accepted step (st->R at st->q): turn counts, contact impact speeds. */
void mt_forces_commit(MtState *st);
/* Potential energy stored in conservative force elements (from st->fout). */
double mt_forces_potential(const MtState *st);

#endif
