/* mt_flexmodel.h — flexible bodies of a model reduced by core/flex: the
 * model read and its flexible bodies reduced (mt_model_parse, mt_model_load
 * and mt_model_reduce_flex, declared with the model in motus/model.h), reduced
 * data made and attached, refreshed after edits. What ui/ and app/ use of it
 * is in motus/flex.h. */
#ifndef MT_FLEXMODEL_H
#define MT_FLEXMODEL_H

#include "motus/flex.h"
#include "mt_fe_reduce.h"
#include "mt_flexdata.h"

/* New reduced data holding body (one reference; its body freed with mt_flex_body_free). */
MtFlexData *mt_flex_data_new(MtFlexBody *body);
/* Gives spec its reduced data (the model takes the reference) and the body
 * the mass properties of the FE model. */
void mt_model_flex_attach(MtModel *m, int spec, MtFlexData *d);
/* A joint, marker driver, spring or force element acts on marker k. */
int mt_model_marker_loaded(const MtModel *m, int k);
/* Row of a node label among the interface nodes, -1 when it is not one. */
int mt_flex_data_if_row(const MtFlexData *d, int label);

#endif
