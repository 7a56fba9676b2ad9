/* mt_sensors.h — evaluating sensors on a solved state (the model side of
 * sensors is in motus/model.h). */
#ifndef MT_SENSORS_H
#define MT_SENSORS_H

#include "mt_system.h"

/* Value of sensor k at the state of the last mt_eval (st->q, st->u, acc,
 * lambda); NAN for expression sensors (evaluated by the output stage). */
double mt_sensor_value(const MtState *st, int k);
/* Whether a sensor kind depends only on positions and velocities (and so may
 * be read by force expressions during an evaluation). */
int mt_sensor_is_kinematic(MtSensorKind k);

#endif
