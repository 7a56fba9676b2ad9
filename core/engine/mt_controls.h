/* mt_controls.h — control channels inside core (model side in motus/model.h). */
#ifndef MT_CONTROLS_H
#define MT_CONTROLS_H

#include "mt_system.h"

/* Number of integrated states of a control kind. */
int mt_control_nstates(MtControlKind k);
/* Outputs of every control at aux states z (writes st->cout and the control
 * channels), and the derivatives dz. Needs the kinematic channels. */
void mt_stage_controls(MtState *st, const double *z, double *dz);
/* Initial aux values that avoid a derivative kick (after assembly). */
void mt_controls_init(MtState *st, double *z);

#endif
