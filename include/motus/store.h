/* motus/store.h — Motus projects: one SQLite file (suggested extension .motus)
 * holding the model, its parameters and display units, solver settings,
 * saved plot layouts, flexible-body data and the runs with their frames.
 * docs/project-format.md describes the tables; this is the C interface.
 *
 * Safety: every change is one transaction in WAL mode, so a crash or SIGKILL
 * leaves the last committed state; a run that was being written when its
 * process died is marked 'interrupted' (with the frames it had committed) the
 * next time the project is opened for writing. Opening a file that is not a
 * Motus project, or is damaged, truncated, newer or read-only, fails with a
 * one-line message and leaves the file as it was.
 *
 * A store handle is used by one thread at a time. */
#ifndef MT_STORE_H
#define MT_STORE_H

#include <stdio.h>

#include "motus/error.h"
#include "motus/analysis.h"
#include "motus/model.h"
#include "motus/run.h"
#include "motus/study.h"

/* PRAGMA application_id of every Motus project: "MOTU" in ASCII. */
#define MT_STORE_APPLICATION_ID 0x4D4F5455
/* PRAGMA user_version: the layout of the tables. Older projects are migrated
 * forward when opened for writing; newer ones are refused. */
#define MT_STORE_SCHEMA_VERSION 20
/* Frames per BLOB row of run_frames in new runs (mt_store_set_chunk_frames);
 * fewer when that many frames would take more than 1 MiB. */
#define MT_STORE_CHUNK_FRAMES 256

typedef struct MtStore MtStore;

enum {
    MT_STORE_READONLY = 1, /* never writes (no recovery, no migration) */
    MT_STORE_CREATE = 2    /* create the project when the file is absent or empty */
};

/* True when the file starts with the SQLite header "SQLite format 3\0"
 * (a project, or some other SQLite database); false for text models. */
int mt_store_is_sqlite_file(const char *path);

/* Opens (or creates) a project. NULL with a one-line message naming the file
 * when it cannot be used; the file is then unchanged. */
MtStore *mt_store_open(const char *path, int flags, MtError *err);
void mt_store_close(MtStore *s);
const char *mt_store_path(const MtStore *s);
int mt_store_readonly(const MtStore *s);
/* Runs found 'running' with a dead writer and marked 'interrupted' at open. */
int mt_store_recovered_runs(const MtStore *s);
/* Full PRAGMA integrity_check (reads every page); MT_OK or a message. */
MtStatus mt_store_check(MtStore *s, MtError *err);
/* Rewrites the file without free pages (VACUUM) and truncates the WAL. */
MtStatus mt_store_compact(MtStore *s, MtError *err);

/* ---- the model -------------------------------------------------------- */

/* Saves the model in one transaction (replacing the previous one); the model
 * must pass mt_model_validate. The project's model version is incremented and
 * returned in *version (may be NULL). */
MtStatus mt_store_save_model(MtStore *s, const MtModel *m, long *version, MtError *err);
/* Loads and validates the model; *version (may be NULL) receives its version.
 * Messages name the entity at fault. */
MtModel *mt_store_load_model(MtStore *s, long *version, MtError *err);
/* Current model version (0 before the first save), or -1 on error. */
long mt_store_model_version(MtStore *s, MtError *err);

/* ---- saved plot layouts (name → text, e.g. JSON of curves) ------------ */

MtStatus mt_store_save_plot(MtStore *s, const char *name, const char *layout, MtError *err);
/* The layout (malloc'd, free it), or NULL with err set (MT_ERR_ARG when absent). */
char *mt_store_load_plot(MtStore *s, const char *name, MtError *err);
MtStatus mt_store_delete_plot(MtStore *s, const char *name, MtError *err);

/* ---- studies (motus/study.h, docs/studies.md) ----------------------------- */

/* A finished case: ok, or failed with the message; its variables' values
 * and responses (NAN: not computed). */
typedef struct {
    int index;
    int failed;
    double seconds;             /* wall time of its run */
    char message[512];
    char job[64];               /* "local", or "slurm JOBID_TASK" */
    char frames[256];           /* project file holding its frames ("" when not kept) */
    double values[MT_STUDY_VARS];
    double resp[MT_STUDY_RESPONSES];
} MtStudyCaseResult;

/* Before running a study: the stored results are kept when they come from
 * the same study (canonical text) and model version, else cleared (with
 * clear_stale; without, nothing is written and *kept is 0); *kept is how
 * many finished cases there are (not to run again). */
MtStatus mt_store_study_begin(MtStore *s, const MtStudy *study, long model_version, int clear_stale, int *kept,
                              MtError *err);
/* Records a finished case (replacing an earlier record of it), in one transaction. */
MtStatus mt_store_study_put(MtStore *s, const MtStudy *study, const MtStudyCaseResult *c, MtError *err);
/* Forgets the cases from first on (an optimisation's path that went another way). */
MtStatus mt_store_study_drop_from(MtStore *s, int first, MtError *err);
/* The finished cases in case order: *out malloc'd (free it); the count or -1. */
int mt_store_study_cases(MtStore *s, const MtStudy *study, MtStudyCaseResult **out, MtError *err);

/* ---- runs -------------------------------------------------------------- */

typedef enum { MT_RUN_RUNNING, MT_RUN_FINISHED, MT_RUN_FAILED, MT_RUN_INTERRUPTED } MtRunStatus;
const char *mt_run_status_name(MtRunStatus st);

/* One frame is frame_len = 1 + 19·nbody + nrow + 3·nmodal doubles:
 * t, q (7·nbody), u (6·nbody), acc (6·nbody), lambda (nrow), then the modal
 * coordinates of flexible bodies w, ẇ, ẅ (nmodal each). */
#define MT_FRAME_LEN(nbody, nrow) (1 + 19 * (nbody) + (nrow))
#define MT_FRAME_LEN_FLEX(nbody, nrow, nmodal) (MT_FRAME_LEN(nbody, nrow) + 3 * (nmodal))
#define MT_FRAME_MODAL(nbody, nrow) MT_FRAME_LEN(nbody, nrow)
#define MT_FRAME_Q(nbody) 1
#define MT_FRAME_U(nbody) (1 + 7 * (nbody))
#define MT_FRAME_ACC(nbody) (1 + 13 * (nbody))
#define MT_FRAME_LAMBDA(nbody) (1 + 19 * (nbody))

typedef struct {
    long id;
    MtRunStatus status;
    char message[512];
    long model_version;
    MtSolverSpec solver;
    char started[32], ended[32]; /* UTC, ISO 8601; ended "" while running */
    int nbody, nrow, frame_len, chunk_frames;
    int nmodal;                  /* modal coordinates of flexible bodies */
    long frames;                 /* committed */
    double t_first, t_last;      /* simulated time of the first and last committed frame (NAN if none) */
    int writer_alive;            /* status running: 1 writer alive, 0 dead, -1 unknown (other host) */
} MtRunInfo;

typedef struct MtRun MtRun;

/* Starts a run of the compiled system s with solver settings sv: records the
 * settings, the model version, the model itself (canonical text), the start
 * time and status 'running'. */
MtRun *mt_store_run_begin(MtStore *s, const MtSystem *sys, const MtSolverSpec *sv, MtError *err);
/* Frame callback (MtFrameFn): appends st's frame. Frames are kept in memory
 * one chunk at a time and committed per chunk, and at least once a second
 * (the partly filled chunk row is rewritten). Non-zero stops the run; the
 * error is then in mt_store_run_error. */
int mt_store_run_frame(void *run, MtState *st);
/* The same from raw arrays (q 7·nbody, u and acc 6·nbody, lambda nrow). */
MtStatus mt_store_run_add(MtRun *r, double t, const double *q, const double *u, const double *acc, const double *lambda,
                          MtError *err);
/* A line in run_log (level "info", "warning" or "error"; t = simulated time or NAN). */
MtStatus mt_store_run_log(MtRun *r, const char *level, double t, const char *message, MtError *err);
/* Flushes the last frames and sets status 'finished' (result MT_OK) or
 * 'failed' with message, and the end time; frees r. Returns the first error
 * of the run's storage (then status 'failed' is attempted). */
MtStatus mt_store_run_end(MtRun *r, MtStatus result, const char *message, MtError *err);
long mt_store_run_id(const MtRun *r);
long mt_store_run_frames(const MtRun *r);   /* frames added so far */
int mt_store_run_buffered(const MtRun *r);  /* frames held in memory (≤ chunk) */
const MtError *mt_store_run_error(const MtRun *r);
/* Minimum seconds between commits of a partly filled chunk (default 1; ≤ 0: only full chunks). */
void mt_store_run_set_flush_interval(MtRun *r, double seconds);
/* Chunk size of runs begun afterwards (default MT_STORE_CHUNK_FRAMES; at most 1 MiB of frames). */
void mt_store_set_chunk_frames(MtStore *s, int frames);

/* All runs, oldest first: *runs is malloc'd (free it); returns the count or -1. */
int mt_store_list_runs(MtStore *s, MtRunInfo **runs, MtError *err);
MtStatus mt_store_run_info(MtStore *s, long run, MtRunInfo *info, MtError *err);
MtStatus mt_store_delete_run(MtStore *s, long run, MtError *err);
/* The run's model as stored with it (canonical text, malloc'd). */
char *mt_store_run_model_text(MtStore *s, long run, MtError *err);
/* The run's own model, compiled: the system its frames belong to. */
MtSystem *mt_store_run_system(MtStore *s, long run, MtError *err);

/* ---- modes ------------------------------------------------------------- */

/* Linearised modes kept in the project (docs/analyses.md "Stored modes"):
 * what mt_modes found, with the model version it was about. Shapes are kept
 * whole (every body and modal coordinate), so a view can animate them again
 * without linearising. */
typedef struct {
    long id;
    long model_version;
    char created[32]; /* UTC */
    int at_equilibrium, nmode, dof;
    double lowest_freq; /* Hz of the first oscillatory mode (0: none) */
} MtModesInfo;

/* Stores md as about the project's current model version; *id (may be NULL) its id. */
MtStatus mt_store_save_modes(MtStore *s, const MtModes *md, long *id, MtError *err);
/* Every stored analysis, oldest first: *out malloc'd (free it); the count, or -1. */
int mt_store_list_modes(MtStore *s, MtModesInfo **out, MtError *err);
/* The stored modes id, whole (free with mt_modes_free). */
MtStatus mt_store_load_modes(MtStore *s, long id, MtModes **out, MtError *err);
MtStatus mt_store_delete_modes(MtStore *s, long id, MtError *err);

/* ---- reading frames ------------------------------------------------------ */

typedef struct MtFrameReader MtFrameReader;

MtFrameReader *mt_frames_open(MtStore *s, long run, MtError *err);
void mt_frames_close(MtFrameReader *r);
long mt_frames_count(MtFrameReader *r); /* committed frames (re-read while the run is going) */
int mt_frames_len(const MtFrameReader *r);
int mt_frames_nbody(const MtFrameReader *r);
int mt_frames_nrow(const MtFrameReader *r);
int mt_frames_nmodal(const MtFrameReader *r); /* modal coordinates (flexible bodies) after lambda */
/* Frame i (0-based): a pointer to frame_len doubles, valid until the next
 * call. One chunk (the one holding i) is read and kept, so reading frames in
 * order reads each chunk once. NULL with err set when i is out of range. */
const double *mt_frames_get(MtFrameReader *r, long i, MtError *err);

/* Puts a stored frame into st (t, q, u), evaluates the system there (Jacobians
 * for reactions) and restores the stored acc and lambda, so that every result
 * column (mt_frame_values) can be computed from the frame. st's system must
 * have the run's nbody and nrow. Frames fed in order keep joint angles
 * counting turns. */
MtStatus mt_state_from_frame(MtState *st, const double *frame, int nbody, int nrow, MtError *err);

#endif
