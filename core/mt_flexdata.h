/* mt_flexdata.h — the reduced data of a flexible body held by the model
 * (internal to core): the reduced body (core/flex) and which node each of the
 * body's markers rides on. Shared by copies of a model, hence refcounted. */
#ifndef MT_FLEXDATA_H
#define MT_FLEXDATA_H

#include "mt_fe_reduce.h"
#include "mt_model.h"

typedef struct MtFlexData {
    int refs;
    MtFlexBody *body;             /* reduced body: modes, invariants, interface, surface */
    int nmarker;                  /* markers of the body when it was reduced */
    char (*mname)[MT_NAME_MAX];   /* their names */
    int *mnode;                   /* the node label each rides on */
} MtFlexData;

MtFlexData *mt_flex_data_ref(MtFlexData *d);
void mt_flex_data_unref(MtFlexData *d);
/* Node label of a marker of the body (by name), 0 when it was not there at the reduction. */
int mt_flex_data_marker_node(const MtFlexData *d, const char *marker);
/* Gives spec its reduced data (the model takes the reference) and the body
 * the mass properties of the FE model. */
void mt_model_flex_attach(MtModel *m, int spec, MtFlexData *d);
/* A joint, marker driver, spring or force element acts on marker k. */
int mt_model_marker_loaded(const MtModel *m, int k);
/* Row of a node label among the interface nodes, -1 when it is not one. */
int mt_flex_data_if_row(const MtFlexData *d, int label);
/* mt_model_reduce_flex and mt_model_flex_refresh with progress and
 * cancellation (pr may be NULL; a cancelled reduction fails with MT_ERR_ARG
 * "cancelled" and leaves that body unreduced). */
MtStatus mt_model_reduce_flex_progress(MtModel *m, const char *basedir, const MtFeProgress *pr, MtError *err);
MtStatus mt_model_flex_refresh_progress(MtModel *m, const MtFeProgress *pr, MtError *err);

#endif
