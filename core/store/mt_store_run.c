/* mt_store_run.c — runs in a project: recording a run while it computes
 * (frames buffered one chunk at a time and committed per chunk, and at least
 * once a second), listing and deleting runs, reading any frame back with one
 * indexed lookup, and putting a stored frame back into a state so that result
 * columns can be computed from it. Declared in motus/store.h. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mt_flexmodel.h"
#include "mt_i18n.h"
#include "mt_store_internal.h"
#include "mt_system.h"

static const char *const status_names[] = {"running", "finished", "failed", "interrupted"};

const char *mt_run_status_name(MtRunStatus st) { return (st >= 0 && st <= MT_RUN_INTERRUPTED) ? status_names[st] : "?"; }

/* Frames are stored as little-endian doubles. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
static void swap_doubles(double *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t x;
        memcpy(&x, &v[i], 8);
        x = __builtin_bswap64(x);
        memcpy(&v[i], &x, 8);
    }
}
#define TO_LE(v, n) swap_doubles(v, n)
#define FROM_LE(v, n) swap_doubles(v, n)
#else
#define TO_LE(v, n) ((void)0)
#define FROM_LE(v, n) ((void)0)
#endif

struct MtRun {
    MtStore *s;
    long id;
    int nbody, nrow, nmodal, flen, chunk_frames;
    double *buf;      /* one chunk: chunk_frames × flen */
    int nbuf;         /* frames in buf */
    long chunk;       /* index of the chunk in buf */
    long frames;      /* frames added */
    int have_first;
    double flush_interval;
    struct timespec last_flush;
    MtError err;
    int failed;
    sqlite3_stmt *put, *upd;
};

void mt_store_set_chunk_frames(MtStore *s, int frames) { s->chunk_frames = frames > 0 ? frames : MT_STORE_CHUNK_FRAMES; }

static double elapsed(const struct timespec *since)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - since->tv_sec) + 1e-9 * (double)(now.tv_nsec - since->tv_nsec);
}

static void run_free(MtRun *r)
{
    if (!r) return;
    sqlite3_finalize(r->put);
    sqlite3_finalize(r->upd);
    free(r->buf);
    free(r);
}

MtRun *mt_store_run_begin(MtStore *s, const MtSystem *sys, const MtSolverSpec *sv, MtError *err)
{
    MtError local;
    if (!err) err = &local;
    if (mt_store_need_write(s, err)) return NULL;
    if (!sv) sv = &sys->solver;
    /* the model as run: the system's own copy with the settings actually used */
    MtModel tmp = *sys->model;
    tmp.solver = *sv;
    char *text = NULL;
    size_t len = 0;
    FILE *mf = open_memstream(&text, &len);
    if (!mf) {
        mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
        return NULL;
    }
    MtStatus wrc = mt_model_write(&tmp, mf, err);
    if (fclose(mf) || wrc) {
        free(text);
        if (!wrc) mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
        return NULL;
    }
    MtRun *r = calloc(1, sizeof *r);
    if (!r) {
        free(text);
        mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
        return NULL;
    }
    r->s = s;
    r->nbody = sys->nbody;
    r->nrow = sys->nrow;
    r->nmodal = sys->nmodal;
    r->flen = MT_FRAME_LEN_FLEX(sys->nbody, sys->nrow, sys->nmodal);
    /* a chunk is chunk_frames frames or 1 MiB, whichever is smaller */
    long max_frames = (1L << 20) / (8L * r->flen);
    r->chunk_frames = s->chunk_frames < max_frames ? s->chunk_frames : (max_frames > 0 ? (int)max_frames : 1);
    r->flush_interval = 1.0;
    clock_gettime(CLOCK_MONOTONIC, &r->last_flush);
    r->buf = malloc(sizeof(double) * (size_t)r->flen * (size_t)r->chunk_frames);
    if (!r->buf) {
        free(text);
        run_free(r);
        mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory for the frame buffer"));
        return NULL;
    }
    long version = mt_store_model_version(s, err);
    if (version < 0) {
        free(text);
        run_free(r);
        return NULL;
    }
    sqlite3_stmt *st;
    char cols[1024], qs[512], sql[2048];
    mt_store_rows_columns(MT_ENT_SOLVER, ", %s", cols, sizeof cols);
    mt_store_rows_columns(MT_ENT_SOLVER, ", ?", qs, sizeof qs); /* a bare ? numbers on from ?9 */
    snprintf(sql, sizeof sql,
             "INSERT INTO runs(status, message, model_version, model_text, started, nbody, nrow, frame_doubles, chunk_frames,"
             " frames, writer, nmodal%s) VALUES ('running', '', ?1, ?2, ?3, ?4, ?5, ?6, ?7, 0, ?8, ?9%s)",
             cols, qs);
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
    if (rc) {
        free(text);
        run_free(r);
        mt_store_sqlerr(s, rc, err);
        return NULL;
    }
    char now[32];
    mt_store_now(now);
    sqlite3_bind_int64(st, 1, version);
    sqlite3_bind_text(st, 2, text, (int)len, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, now, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 4, r->nbody);
    sqlite3_bind_int(st, 5, r->nrow);
    sqlite3_bind_int(st, 6, r->flen);
    sqlite3_bind_int(st, 7, r->chunk_frames);
    sqlite3_bind_text(st, 8, mt_store_writer_self(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 9, r->nmodal);
    mt_store_rows_bind(st, 9, MT_ENT_SOLVER, sv);
    rc = sqlite3_step(st); /* autocommit: the run exists as soon as it starts */
    sqlite3_finalize(st);
    free(text);
    if (rc != SQLITE_DONE) {
        run_free(r);
        mt_store_sqlerr(s, rc, err);
        return NULL;
    }
    r->id = (long)sqlite3_last_insert_rowid(s->db);
    rc = sqlite3_prepare_v2(s->db,
                            "INSERT INTO run_frames(run_id, chunk, nframes, t_first, t_last, data) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
                            " ON CONFLICT(run_id, chunk) DO UPDATE SET nframes = excluded.nframes, t_first = excluded.t_first,"
                            " t_last = excluded.t_last, data = excluded.data",
                            -1, &r->put, NULL);
    if (!rc)
        rc = sqlite3_prepare_v2(s->db, "UPDATE runs SET frames = ?2, t_first = coalesce(t_first, ?3), t_last = ?4 WHERE id = ?1", -1,
                                &r->upd, NULL);
    if (rc) {
        mt_store_sqlerr(s, rc, err);
        run_free(r);
        return NULL;
    }
    return r;
}

/* Commits the frames in buf as chunk r->chunk (rewriting a partial one). */
static MtStatus flush(MtRun *r)
{
    MtStore *s = r->s;
    if (r->nbuf == 0) return MT_OK;
    if (mt_store_begin(s, &r->err)) return r->err.code;
    double t0 = r->buf[0], t1 = r->buf[(size_t)(r->nbuf - 1) * (size_t)r->flen];
    size_t nd = (size_t)r->nbuf * (size_t)r->flen;
    TO_LE(r->buf, nd);
    sqlite3_bind_int64(r->put, 1, r->id);
    sqlite3_bind_int64(r->put, 2, r->chunk);
    sqlite3_bind_int(r->put, 3, r->nbuf);
    sqlite3_bind_double(r->put, 4, t0);
    sqlite3_bind_double(r->put, 5, t1);
    sqlite3_bind_blob64(r->put, 6, r->buf, nd * sizeof(double), SQLITE_STATIC);
    int rc = sqlite3_step(r->put);
    sqlite3_reset(r->put);
    sqlite3_clear_bindings(r->put);
    FROM_LE(r->buf, nd);
    if (rc == SQLITE_DONE) {
        sqlite3_bind_int64(r->upd, 1, r->id);
        sqlite3_bind_int64(r->upd, 2, r->chunk * r->chunk_frames + r->nbuf);
        sqlite3_bind_double(r->upd, 3, t0);
        sqlite3_bind_double(r->upd, 4, t1);
        rc = sqlite3_step(r->upd);
        sqlite3_reset(r->upd);
    }
    if (rc != SQLITE_DONE) {
        mt_store_sqlerr(s, rc, &r->err);
        mt_store_rollback(s);
        return r->err.code;
    }
    if (mt_store_commit(s, &r->err)) return r->err.code;
    clock_gettime(CLOCK_MONOTONIC, &r->last_flush);
    return MT_OK;
}

MtStatus mt_store_run_add(MtRun *r, double t, const double *q, const double *u, const double *acc, const double *lambda,
                          MtError *err)
{
    if (r->failed) {
        if (err) *err = r->err;
        return r->err.code;
    }
    double *f = r->buf + (size_t)r->nbuf * (size_t)r->flen;
    int nb = r->nbody;
    f[0] = t;
    memcpy(f + MT_FRAME_Q(nb), q, sizeof(double) * 7 * (size_t)nb);
    memcpy(f + MT_FRAME_U(nb), u, sizeof(double) * 6 * (size_t)nb);
    memcpy(f + MT_FRAME_ACC(nb), acc, sizeof(double) * 6 * (size_t)nb);
    if (r->nrow) memcpy(f + MT_FRAME_LAMBDA(nb), lambda, sizeof(double) * (size_t)r->nrow);
    if (r->nmodal) { /* w after the rigid q, ẇ and ẅ after the rigid u and acc */
        double *fm = f + MT_FRAME_MODAL(nb, r->nrow);
        size_t nm = (size_t)r->nmodal;
        memcpy(fm, q + 7 * nb, sizeof(double) * nm);
        memcpy(fm + nm, u + 6 * nb, sizeof(double) * nm);
        memcpy(fm + 2 * nm, acc + 6 * nb, sizeof(double) * nm);
    }
    r->nbuf++;
    r->frames++;
    MtStatus rc = MT_OK;
    if (r->nbuf == r->chunk_frames) {
        rc = flush(r);
        r->chunk++;
        r->nbuf = 0;
    } else if (r->flush_interval > 0 && elapsed(&r->last_flush) >= r->flush_interval)
        rc = flush(r);
    if (rc) {
        r->failed = 1;
        if (err) *err = r->err;
    }
    return rc;
}

int mt_store_run_frame(void *run, MtState *st)
{
    MtRun *r = run;
    return mt_store_run_add(r, st->t, st->q, st->u, st->acc, st->lambda, NULL) != MT_OK;
}

MtStatus mt_store_run_log(MtRun *r, const char *level, double t, const char *message, MtError *err)
{
    MtError local;
    if (!err) err = &local;
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(r->s->db, "INSERT INTO run_log(run_id, logged, level, t, message) VALUES (?1, ?2, ?3, ?4, ?5)", -1,
                                &st, NULL);
    if (rc) return mt_store_sqlerr(r->s, rc, err);
    char now[32];
    mt_store_now(now);
    sqlite3_bind_int64(st, 1, r->id);
    sqlite3_bind_text(st, 2, now, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, level, -1, SQLITE_TRANSIENT);
    if (isfinite(t)) sqlite3_bind_double(st, 4, t);
    sqlite3_bind_text(st, 5, message ? message : "", -1, SQLITE_TRANSIENT);
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? MT_OK : mt_store_sqlerr(r->s, rc, err);
}

MtStatus mt_store_run_end(MtRun *r, MtStatus result, const char *message, MtError *err)
{
    MtError local;
    if (!err) err = &local;
    if (!r) return MT_OK;
    MtStore *s = r->s;
    if (!r->failed && r->nbuf && flush(r)) r->failed = 1;
    MtStatus rc = MT_OK;
    const char *msg = message ? message : "";
    if (r->failed) {
        *err = r->err;
        rc = r->err.code;
        msg = r->err.msg; /* the storage failure is why the run stopped */
        result = MT_ERR_IO;
    }
    char now[32];
    mt_store_now(now);
    sqlite3_stmt *st;
    int src = sqlite3_prepare_v2(s->db, "UPDATE runs SET status = ?2, message = ?3, ended = ?4 WHERE id = ?1", -1, &st, NULL);
    if (!src) {
        sqlite3_bind_int64(st, 1, r->id);
        sqlite3_bind_text(st, 2, result == MT_OK ? "finished" : "failed", -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, msg, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 4, now, -1, SQLITE_TRANSIENT);
        src = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(s->db);
        sqlite3_finalize(st);
    }
    if (src && rc == MT_OK) rc = mt_store_sqlerr(s, src, err);
    if (result != MT_OK && msg[0] && !src) mt_store_run_log(r, "error", NAN, msg, NULL);
    run_free(r);
    return rc;
}

long mt_store_run_id(const MtRun *r) { return r->id; }
long mt_store_run_frames(const MtRun *r) { return r->frames; }
int mt_store_run_buffered(const MtRun *r) { return r->nbuf; }
const MtError *mt_store_run_error(const MtRun *r) { return &r->err; }
void mt_store_run_set_flush_interval(MtRun *r, double seconds) { r->flush_interval = seconds; }

/* ---- listing and deleting ----------------------------------------------------------- */

/* The runs' columns: 0 id … 20 nmodal, then the solver's settings. */
static const char *run_select(char *sql, size_t n, const char *tail)
{
    char cols[1024];
    mt_store_rows_columns(MT_ENT_SOLVER, ", %s", cols, sizeof cols);
    snprintf(sql, n, "SELECT id, status, message, model_version, started, ended, nbody, nrow, frame_doubles, chunk_frames,"
             " frames, t_first, t_last, writer, nmodal%s FROM runs %s", cols, tail);
    return sql;
}

static void text_to(char *dst, size_t n, sqlite3_stmt *st, int c)
{
    const char *t = (const char *)sqlite3_column_text(st, c);
    snprintf(dst, n, "%s", t ? t : "");
}

static double num_or_nan(sqlite3_stmt *st, int c)
{
    return sqlite3_column_type(st, c) == SQLITE_NULL ? NAN : sqlite3_column_double(st, c);
}

static void run_row(sqlite3_stmt *st, MtRunInfo *ri)
{
    memset(ri, 0, sizeof *ri);
    ri->id = (long)sqlite3_column_int64(st, 0);
    char buf[32];
    text_to(buf, sizeof buf, st, 1);
    ri->status = MT_RUN_FAILED;
    for (int k = 0; k <= MT_RUN_INTERRUPTED; k++)
        if (!strcmp(buf, status_names[k])) ri->status = (MtRunStatus)k;
    text_to(ri->message, sizeof ri->message, st, 2);
    ri->model_version = (long)sqlite3_column_int64(st, 3);
    text_to(ri->started, sizeof ri->started, st, 4);
    text_to(ri->ended, sizeof ri->ended, st, 5);
    ri->nbody = sqlite3_column_int(st, 6);
    ri->nrow = sqlite3_column_int(st, 7);
    ri->frame_len = sqlite3_column_int(st, 8);
    ri->chunk_frames = sqlite3_column_int(st, 9);
    ri->frames = (long)sqlite3_column_int64(st, 10);
    ri->t_first = num_or_nan(st, 11);
    ri->t_last = num_or_nan(st, 12);
    ri->writer_alive = 0;
    if (ri->status == MT_RUN_RUNNING) ri->writer_alive = mt_store_writer_alive((const char *)sqlite3_column_text(st, 13));
    ri->nmodal = sqlite3_column_int(st, 14);
    MtSolverSpec *sv = &ri->solver;
    mt_solver_defaults(sv);
    int bad;
    mt_store_rows_read(st, 15, MT_ENT_SOLVER, sv, &bad); /* what a run was made with, shown as far as it reads */
}

int mt_store_list_runs(MtStore *s, MtRunInfo **runs, MtError *err)
{
    *runs = NULL;
    sqlite3_stmt *st;
    char sql[2048];
    int rc = sqlite3_prepare_v2(s->db, run_select(sql, sizeof sql, "ORDER BY id"), -1, &st, NULL);
    if (rc) {
        mt_store_sqlerr(s, rc, err);
        return -1;
    }
    int n = 0, cap = 0;
    MtRunInfo *out = NULL;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            MtRunInfo *p = realloc(out, sizeof *p * (size_t)cap);
            if (!p) {
                free(out);
                sqlite3_finalize(st);
                mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
                return -1;
            }
            out = p;
        }
        run_row(st, &out[n++]);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        free(out);
        mt_store_sqlerr(s, rc, err);
        return -1;
    }
    *runs = out;
    return n;
}

MtStatus mt_store_run_info(MtStore *s, long run, MtRunInfo *info, MtError *err)
{
    MtError local;
    if (!err) err = &local;
    sqlite3_stmt *st;
    char sql[2048];
    int rc = sqlite3_prepare_v2(s->db, run_select(sql, sizeof sql, "WHERE id = ?1"), -1, &st, NULL);
    if (rc) return mt_store_sqlerr(s, rc, err);
    sqlite3_bind_int64(st, 1, run);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) run_row(st, info);
    sqlite3_finalize(st);
    if (rc == SQLITE_DONE) return mt_error_set(err, MT_ERR_ARG, "", MT_("%s: there is no run %ld"), s->path, run);
    return rc == SQLITE_ROW ? MT_OK : mt_store_sqlerr(s, rc, err);
}

MtStatus mt_store_delete_run(MtStore *s, long run, MtError *err)
{
    MtError local;
    if (!err) err = &local;
    if (mt_store_need_write(s, err)) return err->code;
    MtRunInfo ri;
    if (mt_store_run_info(s, run, &ri, err)) return err->code;
    if (ri.status == MT_RUN_RUNNING && ri.writer_alive != 0)
        return mt_error_set(err, MT_ERR_ARG, "", MT_("%s: run %ld is still being computed; stop it first"), s->path, run);
    if (mt_store_begin(s, err)) return err->code;
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db, "DELETE FROM runs WHERE id = ?1", -1, &st, NULL);
    if (!rc) {
        sqlite3_bind_int64(st, 1, run);
        rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(s->db);
        sqlite3_finalize(st);
    }
    if (rc) {
        mt_store_sqlerr(s, rc, err);
        mt_store_rollback(s);
        return err->code;
    }
    return mt_store_commit(s, err);
}

char *mt_store_run_model_text(MtStore *s, long run, MtError *err)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db, "SELECT model_text FROM runs WHERE id = ?1", -1, &st, NULL);
    if (rc) {
        mt_store_sqlerr(s, rc, err);
        return NULL;
    }
    sqlite3_bind_int64(st, 1, run);
    rc = sqlite3_step(st);
    char *text = NULL;
    if (rc == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(st, 0);
        text = strdup(t ? t : "");
        if (!text) mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
    } else if (rc == SQLITE_DONE) mt_error_set(err, MT_ERR_ARG, "", MT_("%s: there is no run %ld"), s->path, run);
    else mt_store_sqlerr(s, rc, err);
    sqlite3_finalize(st);
    return text;
}

MtSystem *mt_store_run_system(MtStore *s, long run, MtError *err)
{
    MtError local;
    if (!err) err = &local;
    MtRunInfo ri;
    if (mt_store_run_info(s, run, &ri, err)) return NULL;
    char *text = mt_store_run_model_text(s, run, err);
    if (!text) return NULL;
    char src[64];
    snprintf(src, sizeof src, "run %ld", run);
    MtModel *m = mt_model_parse_ex(text, src, 0, err);
    free(text);
    if (!m) return NULL;
    if (m->nflex) { /* the reductions of the project's flexible bodies, where the settings are the run's */
        MtModel *pm = mt_store_load_model(s, NULL, NULL);
        for (int i = 0; pm && i < m->nflex; i++) {
            MtFlexSpec *f = &m->flex[i];
            int pb = mt_model_find_body(pm, m->body[f->body].name), pi = mt_model_body_flex(pm, pb);
            if (pi < 0 || !pm->flex[pi].data) continue;
            const MtFlexSpec *g = &pm->flex[pi];
            if (g->source == f->source && !strcmp(g->file, f->file) && g->length == f->length && g->elements == f->elements &&
                g->section == f->section && g->sec[0] == f->sec[0] && g->sec[1] == f->sec[1] && g->E == f->E &&
                g->nu == f->nu && g->rho == f->rho && g->thickness == f->thickness && g->method == f->method &&
                g->modes == f->modes && !strcmp(g->fix, f->fix))
                mt_model_flex_attach(m, i, mt_flex_data_ref(g->data));
        }
        mt_model_free(pm);
        /* the others from their meshes, relative to the project (the whole path: a fixed buffer cut it) */
        const char *slash = strrchr(s->path, '/');
        char *dir = slash ? strndup(s->path, (size_t)(slash - s->path)) : NULL;
        if ((slash && !dir) || mt_model_reduce_flex(m, dir, err)) {
            if (slash && !dir) mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
            free(dir);
            mt_model_free(m);
            return NULL;
        }
        free(dir);
    }
    MtSystem *sys = mt_system_compile(m, err);
    if (sys && mt_system_assemble(sys, err)) { mt_system_free(sys); sys = NULL; }
    mt_model_free(m);
    if (sys && (sys->nbody != ri.nbody || sys->nrow != ri.nrow || sys->nmodal != ri.nmodal)) {
        mt_error_set(err, MT_ERR_MODEL, "", MT_("%s: the model of run %ld no longer compiles to its frames' layout (%d bodies, %d equations)"),
                     s->path, run, ri.nbody, ri.nrow);
        mt_system_free(sys);
        return NULL;
    }
    return sys;
}

/* ---- reading frames ------------------------------------------------------------------- */

struct MtFrameReader {
    MtStore *s;
    long run;
    int nbody, nrow, nmodal, flen, chunk_frames;
    long frames;
    double *buf;
    long cchunk; /* chunk in buf (-1: none) */
    int cn;      /* its frames */
    sqlite3_stmt *sel, *cnt;
};

MtFrameReader *mt_frames_open(MtStore *s, long run, MtError *err)
{
    MtRunInfo ri;
    if (mt_store_run_info(s, run, &ri, err)) return NULL;
    if (ri.frame_len != MT_FRAME_LEN_FLEX(ri.nbody, ri.nrow, ri.nmodal) || ri.chunk_frames < 1 || ri.frames < 0) {
        mt_error_set(err, MT_ERR_IO, s->path, MT_("'%s' is damaged: run %ld has an impossible frame layout"), s->path, run);
        return NULL;
    }
    MtFrameReader *r = calloc(1, sizeof *r);
    if (!r) goto nomem;
    r->s = s;
    r->run = run;
    r->nbody = ri.nbody;
    r->nrow = ri.nrow;
    r->nmodal = ri.nmodal;
    r->flen = ri.frame_len;
    r->chunk_frames = ri.chunk_frames;
    r->frames = ri.frames;
    r->cchunk = -1;
    r->buf = malloc(sizeof(double) * (size_t)r->flen * (size_t)r->chunk_frames);
    if (!r->buf) goto nomem;
    int rc = sqlite3_prepare_v2(s->db, "SELECT nframes, data FROM run_frames WHERE run_id = ?1 AND chunk = ?2", -1, &r->sel, NULL);
    if (!rc) rc = sqlite3_prepare_v2(s->db, "SELECT frames FROM runs WHERE id = ?1", -1, &r->cnt, NULL);
    if (rc) {
        mt_store_sqlerr(s, rc, err);
        mt_frames_close(r);
        return NULL;
    }
    return r;
nomem:
    mt_frames_close(r);
    mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
    return NULL;
}

void mt_frames_close(MtFrameReader *r)
{
    if (!r) return;
    sqlite3_finalize(r->sel);
    sqlite3_finalize(r->cnt);
    free(r->buf);
    free(r);
}

long mt_frames_count(MtFrameReader *r)
{
    sqlite3_bind_int64(r->cnt, 1, r->run);
    if (sqlite3_step(r->cnt) == SQLITE_ROW) r->frames = (long)sqlite3_column_int64(r->cnt, 0);
    sqlite3_reset(r->cnt);
    return r->frames;
}

int mt_frames_len(const MtFrameReader *r) { return r->flen; }
int mt_frames_nbody(const MtFrameReader *r) { return r->nbody; }
int mt_frames_nrow(const MtFrameReader *r) { return r->nrow; }
int mt_frames_nmodal(const MtFrameReader *r) { return r->nmodal; }

const double *mt_frames_get(MtFrameReader *r, long i, MtError *err)
{
    if (i < 0 || (i >= r->frames && i >= mt_frames_count(r))) {
        mt_error_set(err, MT_ERR_ARG, "", MT_("run %ld has no frame %ld (it has %ld)"), r->run, i, r->frames);
        return NULL;
    }
    long c = i / r->chunk_frames;
    int off = (int)(i % r->chunk_frames);
    if (c != r->cchunk || off >= r->cn) { /* (the last chunk may have grown) */
        r->cchunk = -1;
        sqlite3_bind_int64(r->sel, 1, r->run);
        sqlite3_bind_int64(r->sel, 2, c);
        int rc = sqlite3_step(r->sel);
        if (rc == SQLITE_ROW) {
            int n = sqlite3_column_int(r->sel, 0);
            const void *data = sqlite3_column_blob(r->sel, 1);
            size_t bytes = (size_t)sqlite3_column_bytes(r->sel, 1);
            if (n < 1 || n > r->chunk_frames || bytes != sizeof(double) * (size_t)n * (size_t)r->flen || !data) rc = SQLITE_CORRUPT;
            else {
                memcpy(r->buf, data, bytes);
                FROM_LE(r->buf, (size_t)n * (size_t)r->flen);
                r->cchunk = c;
                r->cn = n;
            }
        } else if (rc == SQLITE_DONE) rc = SQLITE_CORRUPT; /* runs.frames says it exists */
        sqlite3_reset(r->sel);
        if (rc != SQLITE_ROW) {
            if (rc == SQLITE_CORRUPT)
                mt_error_set(err, MT_ERR_IO, r->s->path, MT_("'%s' is damaged: frames %ld … of run %ld cannot be read"), r->s->path,
                             c * r->chunk_frames, r->run);
            else mt_store_sqlerr(r->s, rc, err);
            return NULL;
        }
        if (off >= r->cn) {
            mt_error_set(err, MT_ERR_IO, r->s->path, MT_("'%s' is damaged: frame %ld of run %ld is missing"), r->s->path, i, r->run);
            return NULL;
        }
    }
    return r->buf + (size_t)off * (size_t)r->flen;
}

MtStatus mt_state_from_frame(MtState *st, const double *f, int nbody, int nrow, MtError *err)
{
    const MtSystem *sys = st->sys;
    if (sys->nbody != nbody || sys->nrow != nrow)
        return mt_error_set(err, MT_ERR_ARG, "",
                            MT_("the frames belong to a model with %d bodies and %d constraint equations, not %d and %d"), nbody,
                            nrow, sys->nbody, sys->nrow);
    st->t = f[0];
    memcpy(st->q, f + MT_FRAME_Q(nbody), sizeof(double) * 7 * (size_t)nbody);
    memcpy(st->u, f + MT_FRAME_U(nbody), sizeof(double) * 6 * (size_t)nbody);
    size_t nm = (size_t)sys->nmodal; /* a frame of a flexible model holds them after lambda */
    if (nm) {
        memcpy(st->q + 7 * nbody, f + MT_FRAME_MODAL(nbody, nrow), sizeof(double) * nm);
        memcpy(st->u + 6 * nbody, f + MT_FRAME_MODAL(nbody, nrow) + nm, sizeof(double) * nm);
    }
    mt_state_commit(st); /* joint angles continue from the previous frame */
    MtStatus rc = mt_eval(st, st->t, st->q, st->u, err);
    if (rc) return rc;
    /* exactly what the run computed (the evaluation above gave the Jacobians) */
    memcpy(st->acc, f + MT_FRAME_ACC(nbody), sizeof(double) * 6 * (size_t)nbody);
    if (nrow) memcpy(st->lambda, f + MT_FRAME_LAMBDA(nbody), sizeof(double) * (size_t)nrow);
    if (nm) memcpy(st->acc + 6 * nbody, f + MT_FRAME_MODAL(nbody, nrow) + 2 * nm, sizeof(double) * nm);
    return MT_OK;
}
