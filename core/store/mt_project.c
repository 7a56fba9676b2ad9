/* mt_project.c — see motus/project.h. Uses the store's handle through
 * mt_store_internal.h; the tables are those of docs/project-format.md. */
#include "motus/project.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mt_i18n.h"
#include "mt_store_internal.h"

MtStatus mt_project_save_copy(MtStore *s, const char *path, MtError *err)
{
    if (!s || !path || !path[0]) return mt_error_set(err, MT_ERR_ARG, "", "%s", MT_("no project or no file name"));
    if (!strcmp(path, mt_store_path(s)))
        return mt_error_set(err, MT_ERR_ARG, path, MT_("'%s' is the project itself; choose another file"), path);
    /* VACUUM INTO refuses an existing non-empty file: the caller asked to replace it */
    if (unlink(path) && errno != ENOENT)
        return mt_error_set(err, MT_ERR_IO, path, MT_("cannot replace '%s': %s"), path, strerror(errno));
    char wal[4096];
    snprintf(wal, sizeof wal, "%s-wal", path);
    unlink(wal);
    snprintf(wal, sizeof wal, "%s-shm", path);
    unlink(wal);
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db, "VACUUM INTO ?1", -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(st, 1, path, -1, SQLITE_TRANSIENT);
        rc = sqlite3_step(st);
        if (rc == SQLITE_DONE) rc = SQLITE_OK;
        sqlite3_finalize(st);
    }
    if (rc != SQLITE_OK) {
        MtError e = {0};
        mt_store_sqlerr(s, rc, &e);
        unlink(path);
        return mt_error_set(err, MT_ERR_IO, path, MT_("cannot save a copy as '%s': %s"), path, e.msg);
    }
    return MT_OK;
}

MtStatus mt_project_run_stopped(MtStore *s, long run, double t, MtError *err)
{
    char msg[160];
    snprintf(msg, sizeof msg, MT_("stopped by the user at t = %g s"), t);
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db, "UPDATE runs SET status = 'interrupted', message = ?2 WHERE id = ?1", -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, run);
        sqlite3_bind_text(st, 2, msg, -1, SQLITE_TRANSIENT);
        rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(s->db);
        sqlite3_finalize(st);
    }
    return rc == SQLITE_OK ? MT_OK : mt_store_sqlerr(s, rc, err);
}

long mt_project_last_run(MtStore *s, MtError *err)
{
    sqlite3_stmt *st;
    long id = 0;
    int rc = sqlite3_prepare_v2(s->db, "SELECT max(id) FROM runs WHERE frames > 0", -1, &st, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            id = sqlite3_column_type(st, 0) == SQLITE_NULL ? 0 : (long)sqlite3_column_int64(st, 0);
            rc = SQLITE_OK;
        }
        sqlite3_finalize(st);
    }
    if (rc != SQLITE_OK) {
        mt_store_sqlerr(s, rc, err);
        return -1;
    }
    return id;
}
