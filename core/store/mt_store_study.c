/* mt_store_study.c — a project's study (motus/store.h, "studies"): the
 * model's `study …` statements saved with the model and read back, and the
 * cases' results (values, responses, failures) written by the one process
 * that collects them. docs/project-format.md describes the tables. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_i18n.h"
#include "mt_store_internal.h"
#include "motus/study.h"

static MtStatus prep(MtStore *s, const char *sql, sqlite3_stmt **st, MtError *err)
{
    int rc = sqlite3_prepare_v2(s->db, sql, -1, st, NULL);
    return rc ? mt_store_sqlerr(s, rc, err) : MT_OK;
}

/* Within the save's transaction: the study's statements, one row a line. */
MtStatus mt_store_study_save_lines(MtStore *s, const MtModel *m, MtError *err)
{
    if (mt_store_exec(s, "DELETE FROM study_lines", err)) return err->code;
    if (!m->study) return MT_OK;
    char *text = mt_study_text(m->study);
    if (!text) return mt_error_set(err, MT_ERR_NOMEM, "study", "%s", MT_("out of memory"));
    sqlite3_stmt *st;
    MtStatus rc = prep(s, "INSERT INTO study_lines(line) VALUES (?1)", &st, err);
    for (char *line = text, *next; !rc && line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        sqlite3_bind_text(st, 1, line, -1, SQLITE_STATIC);
        int r = sqlite3_step(st);
        if (r != SQLITE_DONE) rc = mt_store_sqlerr(s, r, err);
        sqlite3_reset(st);
    }
    if (st) sqlite3_finalize(st);
    free(text);
    return rc;
}

/* The study read back into m (none when the project has no study lines). */
MtStatus mt_store_study_load_lines(MtStore *s, MtModel *m, MtError *err)
{
    sqlite3_stmt *st;
    if (prep(s, "SELECT line FROM study_lines ORDER BY seq", &st, err)) return err->code;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    int r, n = 0;
    while (f && (r = sqlite3_step(st)) == SQLITE_ROW) {
        fprintf(f, "%s\n", (const char *)sqlite3_column_text(st, 0));
        n++;
    }
    sqlite3_finalize(st);
    if (!f || fclose(f)) return mt_error_set(err, MT_ERR_NOMEM, "study", "%s", MT_("out of memory"));
    MtStatus rc = MT_OK;
    if (n) {
        if (!(m->study = mt_study_new())) rc = mt_error_set(err, MT_ERR_NOMEM, "study", "%s", MT_("out of memory"));
        else if (mt_study_read_text(m->study, text, err)) {
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            rc = mt_error_set(err, MT_ERR_IO, "study", MT_("%s: its study does not read: %s"), s->path, msg);
        }
    }
    free(text);
    return rc;
}

MtStatus mt_store_study_begin(MtStore *s, const MtStudy *study, long model_version, int clear_stale, int *kept, MtError *err)
{
    *kept = 0;
    if (clear_stale && mt_store_need_write(s, err)) return err->code;
    char *def = mt_study_text(study);
    if (!def) return mt_error_set(err, MT_ERR_NOMEM, "study", "%s", MT_("out of memory"));
    sqlite3_stmt *st = NULL;
    MtStatus rc = clear_stale ? mt_store_begin(s, err) : MT_OK;
    int same = 0;
    if (!rc && !(rc = prep(s, "SELECT definition = ?1 AND model_version = ?2 FROM study_results WHERE id = 1", &st, err))) {
        sqlite3_bind_text(st, 1, def, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 2, model_version);
        same = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0);
        sqlite3_finalize(st);
        st = NULL;
    }
    if (!rc && !same && clear_stale) { /* a new study, or one whose results belong to another study or model: they go */
        char now[32];
        mt_store_now(now);
        rc = mt_store_exec(s, "DELETE FROM study_responses; DELETE FROM study_values; DELETE FROM study_cases; DELETE FROM study_results", err);
        if (!rc && !(rc = prep(s, "INSERT INTO study_results(id, definition, model_version, started) VALUES (1, ?1, ?2, ?3)", &st, err))) {
            sqlite3_bind_text(st, 1, def, -1, SQLITE_STATIC);
            sqlite3_bind_int64(st, 2, model_version);
            sqlite3_bind_text(st, 3, now, -1, SQLITE_STATIC);
            int r = sqlite3_step(st);
            if (r != SQLITE_DONE) rc = mt_store_sqlerr(s, r, err);
            sqlite3_finalize(st);
        }
    }
    if (!rc && same && !(rc = prep(s, "SELECT count(*) FROM study_cases", &st, err))) {
        if (sqlite3_step(st) == SQLITE_ROW) *kept = sqlite3_column_int(st, 0);
        sqlite3_finalize(st);
    }
    free(def);
    if (!clear_stale) return rc;
    if (rc) {
        mt_store_rollback(s);
        return rc;
    }
    return mt_store_commit(s, err);
}

/* Runs one statement with its parameters bound by the caller's values. */
static MtStatus step_done(MtStore *s, sqlite3_stmt *st, MtError *err)
{
    int r = sqlite3_step(st);
    sqlite3_reset(st);
    return r == SQLITE_DONE ? MT_OK : mt_store_sqlerr(s, r, err);
}

MtStatus mt_store_study_put(MtStore *s, const MtStudy *study, const MtStudyCaseResult *c, MtError *err)
{
    if (mt_store_need_write(s, err) || mt_store_begin(s, err)) return err->code;
    char now[32];
    mt_store_now(now);
    sqlite3_stmt *st = NULL;
    MtStatus rc = prep(s, "INSERT OR REPLACE INTO study_cases(idx, status, message, seconds, job, frames, finished)"
                          " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", &st, err);
    if (!rc) {
        sqlite3_bind_int(st, 1, c->index);
        sqlite3_bind_text(st, 2, c->failed ? "failed" : "ok", -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, c->message, -1, SQLITE_STATIC);
        sqlite3_bind_double(st, 4, c->seconds);
        sqlite3_bind_text(st, 5, c->job, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 6, c->frames, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 7, now, -1, SQLITE_STATIC);
        rc = step_done(s, st, err);
        sqlite3_finalize(st);
    }
    if (!rc && !(rc = prep(s, "INSERT OR REPLACE INTO study_values(case_idx, variable, value) VALUES (?1, ?2, ?3)", &st, err))) {
        for (int i = 0; i < study->nvar && !rc; i++) {
            sqlite3_bind_int(st, 1, c->index);
            sqlite3_bind_text(st, 2, study->var[i].name, -1, SQLITE_STATIC);
            sqlite3_bind_double(st, 3, c->values[i]);
            rc = step_done(s, st, err);
        }
        sqlite3_finalize(st);
    }
    if (!rc && !(rc = prep(s, "INSERT OR REPLACE INTO study_responses(case_idx, response, value) VALUES (?1, ?2, ?3)", &st, err))) {
        for (int i = 0; i < study->nresp && !rc; i++) {
            sqlite3_bind_int(st, 1, c->index);
            sqlite3_bind_text(st, 2, study->resp[i].name, -1, SQLITE_STATIC);
            if (isfinite(c->resp[i])) sqlite3_bind_double(st, 3, c->resp[i]);
            else sqlite3_bind_null(st, 3); /* SQLite keeps no NaN */
            rc = step_done(s, st, err);
        }
        sqlite3_finalize(st);
    }
    if (rc) {
        mt_store_rollback(s);
        return rc;
    }
    return mt_store_commit(s, err);
}

MtStatus mt_store_study_drop_from(MtStore *s, int first, MtError *err)
{
    sqlite3_stmt *st = NULL;
    if (mt_store_need_write(s, err) || prep(s, "DELETE FROM study_cases WHERE idx >= ?1", &st, err)) return err->code;
    sqlite3_bind_int(st, 1, first);
    MtStatus rc = step_done(s, st, err); /* values and responses go with their case (ON DELETE CASCADE) */
    sqlite3_finalize(st);
    return rc;
}

/* One value of a case from study_values or study_responses (NAN when absent or NULL). */
static double case_value(sqlite3_stmt *st, int c, const char *name)
{
    sqlite3_bind_int(st, 1, c);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    double v = NAN;
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) v = sqlite3_column_double(st, 0);
    sqlite3_reset(st);
    return v;
}

int mt_store_study_cases(MtStore *s, const MtStudy *study, MtStudyCaseResult **out, MtError *err)
{
    *out = NULL;
    sqlite3_stmt *st, *sv = NULL, *sr = NULL;
    if (prep(s, "SELECT idx, status, message, seconds, job, frames FROM study_cases ORDER BY idx", &st, err)) return -1;
    if (prep(s, "SELECT value FROM study_values WHERE case_idx = ?1 AND variable = ?2", &sv, err) ||
        prep(s, "SELECT value FROM study_responses WHERE case_idx = ?1 AND response = ?2", &sr, err)) {
        sqlite3_finalize(st);
        sqlite3_finalize(sv);
        return -1;
    }
    int n = 0, cap = 0, r;
    MtStudyCaseResult *v = NULL;
    while ((r = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == cap) {
            MtStudyCaseResult *nv = realloc(v, sizeof *v * (size_t)(cap = cap ? 2 * cap : 64));
            if (!nv) break;
            v = nv;
        }
        MtStudyCaseResult *c = &v[n++];
        memset(c, 0, sizeof *c);
        c->index = sqlite3_column_int(st, 0);
        c->failed = !strcmp((const char *)sqlite3_column_text(st, 1), "failed");
        snprintf(c->message, sizeof c->message, "%s", (const char *)sqlite3_column_text(st, 2));
        c->seconds = sqlite3_column_double(st, 3);
        snprintf(c->job, sizeof c->job, "%s", (const char *)sqlite3_column_text(st, 4));
        snprintf(c->frames, sizeof c->frames, "%s", (const char *)sqlite3_column_text(st, 5));
        for (int i = 0; i < study->nvar; i++) c->values[i] = case_value(sv, c->index, study->var[i].name);
        for (int i = 0; i < study->nresp; i++) c->resp[i] = case_value(sr, c->index, study->resp[i].name);
    }
    sqlite3_finalize(st);
    sqlite3_finalize(sv);
    sqlite3_finalize(sr);
    if (r != SQLITE_DONE) {
        free(v);
        if (r == SQLITE_ROW) mt_error_set(err, MT_ERR_NOMEM, "study", "%s", MT_("out of memory"));
        else mt_store_sqlerr(s, r, err);
        return -1;
    }
    *out = v;
    return n;
}
