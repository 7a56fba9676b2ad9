/* motus/results.h — a run's results: columns named by entity and quantity
 * (crank.x, pin.Fy, system.energy; docs/model-format.md, "Result columns"),
 * their values computed frame by frame from a run's state, and the CSV writer. */
#ifndef MOTUS_RESULTS_H
#define MOTUS_RESULTS_H

#include <stdio.h>

#include "motus/run.h"
#include "motus/units.h"

typedef struct MtCsv MtCsv;

/* Result columns of a system; with f, writes the header line. The writer
 * remembers per-joint angle unwrapping, so feed it the frames in order. */
MtCsv *mt_csv_new(const MtSystem *s, FILE *f, MtError *err);
void mt_csv_free(MtCsv *c);
/* Number of columns and the name of column k ("time" first). */
int mt_csv_ncols(const MtCsv *c);
const char *mt_csv_colname(const MtCsv *c, int k);
/* Computes every column of the frame in st; values has mt_csv_ncols entries. */
void mt_frame_values(MtCsv *c, const MtState *st, double *values);
/* Frame callback (MtFrameFn signature) that appends one CSV row. */
int mt_csv_frame(void *csv, MtState *st);

/* The columns a run of m writes, "time" first, in the order and spelling of
 * mt_csv_new, worked out from the model alone (nothing is compiled, so it is
 * cheap enough for every edit): *n names in one malloc'ed block (the array,
 * NULL-terminated, then the strings), freed with free(). A flexible body not
 * yet reduced lists no modal coordinates. NULL with err set when out of memory. */
char **mt_output_columns(const MtModel *m, int *n, MtError *err);
/* What result column `name` of m holds (core/engine/mt_columns.c): its
 * quantity (*dim; MT_DIM_NONE for a ratio, a quaternion, a modal coordinate
 * or a deflection whose unit depends on the element) and a description in
 * words, translated ("body crank: angular velocity about z (project axes)").
 * 0, "" and MT_DIM_NONE when name is no column of m. */
int mt_column_info(const MtModel *m, const char *name, MtDim *dim, char *words, size_t n);

#endif
