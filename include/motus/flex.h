/* motus/flex.h — a model's flexible bodies as the application handles them:
 * the reduced body of each (NULL until reduced), and reducing them as a job
 * with progress and cancellation (on another thread when it takes long). The
 * model read and reduced at once is mt_model_parse / mt_model_load (motus/model.h). */
#ifndef MOTUS_FLEX_H
#define MOTUS_FLEX_H

#include "motus/reduce.h"
#include "motus/model.h"

/* Reduced body of flexible body i (m->flex[i]), NULL while it is not reduced. */
const MtFlexBody *mt_model_flex_body(const MtModel *m, int i);
/* Reduces every flexible body of m (mesh files relative to basedir), or only
 * those whose reduction no longer matches their settings (refresh), with
 * progress and cancellation: pr may be NULL; a cancelled reduction fails with
 * MT_ERR_ARG "cancelled" and leaves that body unreduced. */
MtStatus mt_model_reduce_flex_progress(MtModel *m, const char *basedir, const MtFeProgress *pr, MtError *err);
MtStatus mt_model_flex_refresh_progress(MtModel *m, const MtFeProgress *pr, MtError *err);

#endif
