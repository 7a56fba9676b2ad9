/* motus/project.h — project operations the application needs on top of
 * motus/store.h: saving a whole project (model, plots and runs) under another
 * name, and closing a run that the user stopped. Plain C over the store's
 * SQLite handle; each call is one transaction or one statement. */
#ifndef MT_PROJECT_H
#define MT_PROJECT_H

#include "motus/error.h"
#include "motus/store.h"

/* Writes a compact copy of the whole project to path (SQLite VACUUM INTO:
 * one consistent snapshot, committed frames of a running run included). An
 * existing file at path is replaced. The copy is then a project of its own. */
MtStatus mt_project_save_copy(MtStore *s, const char *path, MtError *err);
/* Marks a run the user stopped: status 'interrupted' and the message
 * "stopped by the user at t = T s" (its committed frames stay readable). */
MtStatus mt_project_run_stopped(MtStore *s, long run, double t, MtError *err);
/* The newest run with at least one frame (0 when there is none, -1 on error). */
long mt_project_last_run(MtStore *s, MtError *err);

#endif
