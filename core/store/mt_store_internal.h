/* mt_store_internal.h — shared by mt_store*.c only: the store handle and
 * helpers that turn SQLite results into Motus messages. */
#ifndef MT_STORE_INTERNAL_H
#define MT_STORE_INTERNAL_H

#include <sqlite3.h>

#include "mt_store.h"

struct MtStore {
    sqlite3 *db;
    char *path;
    int readonly;
    int recovered;    /* runs marked interrupted at open */
    int chunk_frames; /* for new runs */
};

/* Names of MtEntityKind in bindings.entity_kind. */
#define MT_STORE_NENTITY_KINDS 13
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

/* Error if the store was opened read-only. */
MtStatus mt_store_need_write(MtStore *s, MtError *err);

#endif
