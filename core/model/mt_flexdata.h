/* mt_flexdata.h — the reduced data of a flexible body held by the model
 * (internal to core): the reduced body (its layout is core/flex's,
 * mt_fe_reduce.h) and which node each of the body's markers rides on.
 * Shared by copies of a model, hence refcounted; the reduction that made it
 * (mt_flexmodel.h) gives the function that frees its body, so the model
 * needs nothing of core/flex. */
#ifndef MT_FLEXDATA_H
#define MT_FLEXDATA_H

#include "motus/model.h"

typedef struct MtFlexBody MtFlexBody;

typedef struct MtFlexData {
    int refs;
    MtFlexBody *body;             /* reduced body: modes, invariants, interface, surface */
    void (*free_body)(MtFlexBody *body);
    int nmarker;                  /* markers of the body when it was reduced */
    char (*mname)[MT_NAME_MAX];   /* their names */
    int *mnode;                   /* the node label each rides on */
} MtFlexData;

MtFlexData *mt_flex_data_ref(MtFlexData *d);
void mt_flex_data_unref(MtFlexData *d);
/* Node label of a marker of the body (by name), 0 when it was not there at the reduction. */
int mt_flex_data_marker_node(const MtFlexData *d, const char *marker);
#endif
