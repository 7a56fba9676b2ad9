/* mt_store_internal.h — shared by mt_store*.c only: the store handle and
 * helpers that turn SQLite results into Motus messages. */
#ifndef MT_STORE_INTERNAL_H
#define MT_STORE_INTERNAL_H

#include <sqlite3.h>

#include "motus/store.h"

struct MtStore {
    sqlite3 *db;
    char *path;
    int readonly;
    int recovered;    /* runs marked interrupted at open */
    int chunk_frames; /* for new runs */
};

/* Names of MtEntityKind in bindings.entity_kind. */
#define MT_STORE_NENTITY_KINDS 14
extern const char *const mt_store_entity_kinds[MT_STORE_NENTITY_KINDS];

/* Records an SQLite failure of s->db (rc) as a one-line message naming the
 * project file. */
MtStatus mt_store_sqlerr(MtStore *s, int rc, MtError *err);
/* Runs SQL without results; MT_OK or the error. */
MtStatus mt_store_exec(MtStore *s, const char *sql, MtError *err);
/* BEGIN IMMEDIATE (waits for other writers up to the busy timeout), COMMIT, ROLLBACK. */
MtStatus mt_store_begin(MtStore *s, MtError *err);
MtStatus mt_store_commit(MtStore *s, MtError *err);
void mt_store_rollback(MtStore *s);
/* Current UTC time, ISO 8601 with milliseconds: 2026-11-22T13:58:38.123Z. */
void mt_store_now(char buf[32]);
/* Identity of this process ("host boot-id pid start-time") and whether the
 * process named by such a string is alive (1), dead (0) or unknown (-1, other host). */
const char *mt_store_writer_self(void);
int mt_store_writer_alive(const char *writer);

/* The columns of the schema's settings (mt_store_rows.c). Their names in
 * schema order, each printed with fmt (its %s the column, its %d the count
 * so far: ", %s" or ", %s = ?%d") into buf; returns how many. Binding them
 * after parameter i (returns the last parameter), reading them from result
 * column c (0, or an MT_STORE_BAD_* with *bad_col), and adding to an older
 * project the columns of settings it does not have (at their defaults). */
enum { MT_STORE_BAD_NUMBER = 1, MT_STORE_BAD_TEXT, MT_STORE_BAD_NAME, MT_STORE_BAD_RANGE, MT_STORE_BAD_LONG };
int mt_store_rows_columns(MtEntityKind kind, const char *fmt, char *buf, size_t n);
int mt_store_rows_bind(sqlite3_stmt *st, int i, MtEntityKind kind, const void *obj);
int mt_store_rows_read(sqlite3_stmt *st, int c, MtEntityKind kind, void *obj, int *bad_col);
MtStatus mt_store_rows_ensure(MtStore *s, MtError *err);

/* The model's study statements saved (within the model's transaction) and read back (mt_store_study.c). */
MtStatus mt_store_study_save_lines(MtStore *s, const MtModel *m, MtError *err);
MtStatus mt_store_study_load_lines(MtStore *s, MtModel *m, MtError *err);

/* Error if the store was opened read-only. */
MtStatus mt_store_need_write(MtStore *s, MtError *err);

#endif
