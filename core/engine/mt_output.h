/* mt_output.h — result columns (named by entity and quantity, e.g. crank.x,
 * pin.Fy) and the CSV writer fed frame by frame from a run. */
#ifndef MT_OUTPUT_H
#define MT_OUTPUT_H

#include <stdio.h>

#include "mt_system.h"

typedef struct MtCsv MtCsv;

/* Writes the header line; the writer remembers per-joint angle unwrapping. */
MtCsv *mt_csv_new(const MtSystem *s, FILE *f, MtError *err);
void mt_csv_free(MtCsv *c);
/* Number of columns and the name of column k. */
int mt_csv_ncols(const MtCsv *c);
const char *mt_csv_colname(const MtCsv *c, int k);
/* Computes every column of the frame in st (after an evaluation at st->q/u);
 * values has mt_csv_ncols entries. */
void mt_frame_values(MtCsv *c, const MtState *st, double *values);
/* Frame callback (MtFrameFn signature) that appends one CSV row. */
int mt_csv_frame(void *csv, MtState *st);

#endif
