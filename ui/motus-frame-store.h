/* motus-frame-store.h — the frames of the run a window shows, held so that
 * memory keeps only what the window uses now (docs/design.md, "Results
 * memory").
 *
 * A frame is a row: the time, the body poses (7 doubles a body: origin and
 * quaternion w, x, y, z) and every result column (mt_frame_values). Rows are
 * gathered in blocks of a fixed number of frames; a full block is written to
 * a spill file (unlinked as soon as made) and leaves memory, so memory
 * holds the block being filled, the time of every frame (the index that
 * frame_at searches) and the result columns asked for one value at a time
 * (a small cache: flexible bodies' modal coordinates, the teaching
 * overlays). Whole-column reads (plots) come from the file: a block keeps
 * each column's values contiguous, so a column of 10 000 frames is a few
 * hundred small reads. The spill file is in the user's cache folder (else
 * the temporary folder); when none can be made or written, blocks stay in
 * memory as before.
 *
 * One writer (the solver's worker, or the GTK thread loading a stored run)
 * appends rows while readers on other threads read the frames below
 * n_frames; everything a reader does takes the store's lock, the writer
 * takes it only to change the list of blocks. Values are the solver's
 * doubles, bit for bit. */
#ifndef MOTUS_FRAME_STORE_H
#define MOTUS_FRAME_STORE_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct MotusFrameStore MotusFrameStore;

MotusFrameStore *motus_frame_store_new(void);
void motus_frame_store_free(MotusFrameStore *fs);
/* Drops every frame and takes a new shape (no writer running). */
void motus_frame_store_reset(MotusFrameStore *fs, int nbody, int ncol);
/* Whether full blocks go to the spill file (FALSE: every frame stays in memory). */
gboolean motus_frame_store_spills(const MotusFrameStore *fs);
/* The folder of the spill file (NULL: none). */
const char *motus_frame_store_dir(const MotusFrameStore *fs);
/* Free bytes where the spill file is (0: unknown or no spill). */
guint64 motus_frame_store_disk_free(const MotusFrameStore *fs);

/* Writer: the row to fill for the next frame (1 + 7 nbody + ncol doubles),
 * NULL when memory for it cannot be had; append makes it frame n_frames
 * (FALSE: out of memory, the frame is not added). trim, after the last frame,
 * sends what is still in memory to the spill file and frees the writer's
 * buffers. */
double *motus_frame_store_row(MotusFrameStore *fs);
gboolean motus_frame_store_append(MotusFrameStore *fs);
void motus_frame_store_trim(MotusFrameStore *fs);

/* Readers (any thread). */
guint motus_frame_store_n_frames(MotusFrameStore *fs);
/* Time of frame i (NAN when absent). */
double motus_frame_store_time(MotusFrameStore *fs, guint i);
/* Time and (poses not NULL) body poses of frame i; FALSE when absent. */
gboolean motus_frame_store_frame(MotusFrameStore *fs, guint i, double *t, double *poses);
/* Index of the last frame at or before t (0 when none is). */
guint motus_frame_store_frame_at(MotusFrameStore *fs, double t);
/* Value of column col at frame i (NAN when absent). */
double motus_frame_store_value(MotusFrameStore *fs, int col, guint i);
/* Times and values of column col, frames from .. from + n - 1 (clipped);
 * returns how many were copied (t or v may be NULL). */
guint motus_frame_store_copy_column(MotusFrameStore *fs, int col, guint from, guint n, double *t, double *v);
/* Bytes of memory the store holds: blocks, the time index, cached columns. */
gsize motus_frame_store_bytes_held(MotusFrameStore *fs);

G_END_DECLS

#endif
