/* mt_events.h — events inside a run (model side: MtEventSpec in motus/model.h). */
#ifndef MT_EVENTS_H
#define MT_EVENTS_H

#include "mt_system.h"

/* Whether any event needs the state evaluated at each step end (crossings). */
int mt_events_need_eval(const MtSystem *s);
/* The root function of event e at time t: t − time for a time event, the
 * expression − value for a crossing (after an evaluation at the state q, u). */
double mt_event_function(MtState *st, int e, double t, const double *q, const double *u);
/* Records each crossing function at the current, evaluated state. */
void mt_events_sample(MtState *st);
/* The earliest unfired event in (t0, t1] of a step from y0 to y1 (with
 * derivatives d0, d1; the state was evaluated at y1 last); returns its index
 * and its time te and state ye (n values), or −1. scratch: n doubles. */
int mt_events_locate(MtState *st, int n, double t0, const double *y0, const double *d0, double t1, const double *y1,
                     const double *d1, double *te, double *ye, double *scratch);
/* Carries out event e at the state st (st->t, q, u set): may set *stop. */
MtStatus mt_event_apply(MtState *st, int e, int *stop, MtError *err);

#endif
