/* mt_store_rows.c — the project's columns of the schema's settings
 * (include/motus/schema.h): their names, binding them on save, reading them
 * back with the checks of the schema, and adding the columns of settings
 * newer than a project (so a new setting needs no statement of its own). Declared in mt_store_internal.h. */
#include <stdio.h>
#include <string.h>

#include "mt_store_internal.h"

/* The tables holding an entity kind's settings (a solver's also the runs'). */
static const struct {
    MtEntityKind kind;
    const char *table;
} tables[] = {{MT_ENT_SOLVER, "solver"}, {MT_ENT_SOLVER, "runs"},     {MT_ENT_BODY, "bodies"},
              {MT_ENT_MARKER, "markers"}, {MT_ENT_JOINT, "joints"}, {MT_ENT_SPRING, "springs"},
              {MT_ENT_FLEX, "flexible_bodies"}};

int mt_store_rows_columns(MtEntityKind kind, const char *fmt, char *buf, size_t n)
{
    int nr, count = 0;
    const MtField *rows = mt_schema_fields(kind, &nr);
    buf[0] = 0;
    for (int r = 0; r < nr; r++)
        for (int k = 0; k < mt_schema_ncols(&rows[r]); k++) {
            char col[32];
            mt_schema_column(&rows[r], k, col, sizeof col);
            size_t l = strlen(buf);
            count++;
            snprintf(buf + l, n - l, fmt, col, count);
        }
    return count;
}

int mt_store_rows_bind(sqlite3_stmt *st, int i, MtEntityKind kind, const void *obj)
{
    int nr;
    const MtField *rows = mt_schema_fields(kind, &nr);
    for (int r = 0; r < nr; r++) {
        const MtField *f = &rows[r];
        const void *at = MT_SCHEMA_AT(obj, f);
        switch (f->type) {
        case MT_ST_REAL: sqlite3_bind_double(st, ++i, *(const double *)at); break;
        case MT_ST_VEC:
            for (int k = 0; k < f->n; k++) sqlite3_bind_double(st, ++i, ((const double *)at)[k]);
            break;
        case MT_ST_ENUM: sqlite3_bind_text(st, ++i, mt_schema_enum_name(f, *(const int *)at), -1, SQLITE_STATIC); break;
        case MT_ST_TEXT: sqlite3_bind_text(st, ++i, (const char *)at, -1, SQLITE_TRANSIENT); break;
        default: sqlite3_bind_int(st, ++i, *(const int *)at); break;
        }
    }
    return i;
}

int mt_store_rows_read(sqlite3_stmt *st, int c, MtEntityKind kind, void *obj, int *bad_col)
{
    int nr;
    const MtField *rows = mt_schema_fields(kind, &nr);
    for (int r = 0; r < nr; r++) {
        const MtField *f = &rows[r];
        void *at = MT_SCHEMA_AT(obj, f);
        for (int k = 0; k < mt_schema_ncols(f); k++, c++) {
            int t = sqlite3_column_type(st, c);
            const char *s = (const char *)sqlite3_column_text(st, c);
            *bad_col = c;
            switch (f->type) {
            case MT_ST_REAL:
            case MT_ST_VEC:
                if (t != SQLITE_FLOAT && t != SQLITE_INTEGER) return MT_STORE_BAD_NUMBER;
                ((double *)at)[k] = sqlite3_column_double(st, c);
                break;
            case MT_ST_ENUM: {
                if (!s) return MT_STORE_BAD_TEXT;
                int v = mt_schema_enum_find(f, s);
                if (v < 0) return MT_STORE_BAD_NAME;
                *(int *)at = v;
                break;
            }
            case MT_ST_TEXT:
                if (!s) return MT_STORE_BAD_TEXT;
                if (strlen(s) >= (size_t)f->n) return MT_STORE_BAD_LONG;
                memcpy(at, s, strlen(s) + 1);
                break;
            default: {
                if (t != SQLITE_INTEGER) return MT_STORE_BAD_NUMBER;
                sqlite3_int64 v = sqlite3_column_int64(st, c);
                if (v < f->lo || v > f->hi) return MT_STORE_BAD_RANGE;
                *(int *)at = (int)v;
            }
            }
        }
    }
    return 0;
}

/* Whether table has a column named col. */
static int has_column(MtStore *s, const char *table, const char *col)
{
    sqlite3_stmt *st;
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM pragma_table_info('%s') WHERE name = ?1", table);
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL)) return 1; /* the statement that needs it will say */
    sqlite3_bind_text(st, 1, col, -1, SQLITE_STATIC);
    int n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 1;
    sqlite3_finalize(st);
    return n > 0;
}

MtStatus mt_store_rows_ensure(MtStore *s, MtError *err)
{
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        int nr;
        const MtField *rows = mt_schema_fields(tables[t].kind, &nr);
        for (int r = 0; r < nr; r++) {
            const MtField *f = &rows[r];
            for (int k = 0; k < mt_schema_ncols(f); k++) {
                char col[32], sql[512];
                mt_schema_column(f, k, col, sizeof col);
                if (has_column(s, tables[t].table, col)) continue;
                if (f->type == MT_ST_ENUM || f->type == MT_ST_TEXT)
                    snprintf(sql, sizeof sql, "ALTER TABLE %s ADD COLUMN %s TEXT NOT NULL DEFAULT '%s' /* %s */", tables[t].table,
                             col, f->type == MT_ST_ENUM ? mt_schema_enum_name(f, (int)f->def) : "", f->label);
                else if (f->type == MT_ST_REAL || f->type == MT_ST_VEC)
                    snprintf(sql, sizeof sql, "ALTER TABLE %s ADD COLUMN %s NOT NULL DEFAULT %.17g /* %s */", tables[t].table, col,
                             f->def, f->label);
                else
                    snprintf(sql, sizeof sql, "ALTER TABLE %s ADD COLUMN %s INTEGER NOT NULL DEFAULT %d /* %s */", tables[t].table,
                             col, (int)f->def, f->label);
                if (mt_store_exec(s, sql, err)) return err->code;
            }
        }
    }
    return MT_OK;
}
