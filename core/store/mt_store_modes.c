/* mt_store_modes.c — linearised modes kept in a project (tables modes and
 * mode_values, docs/project-format.md): saved whole after an analysis, so
 * the window can list them, show their table and animate their shapes again
 * without linearising. Declared in motus/store.h. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mt_i18n.h"
#include "mt_store_internal.h"

static const char *const kind_names[] = {"oscillatory", "overdamped", "decaying", "divergent", "rigid"};

/* Doubles as little-endian bytes, whatever the machine (as run frames are kept). */
static void le_doubles(double *dst, const double *src, size_t n)
{
    memcpy(dst, src, n * sizeof(double));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    for (size_t i = 0; i < n; i++) {
        uint64_t x;
        memcpy(&x, &dst[i], 8);
        x = __builtin_bswap64(x);
        memcpy(&dst[i], &x, 8);
    }
#endif
}

#define NSTATICS 12
static void statics_pack(const MtStaticsInfo *in, double v[NSTATICS])
{
    double w[NSTATICS] = {in->iterations,       (double)in->relax_steps, in->force_residual, in->moment_residual,
                          in->constraint_residual, in->elastic_residual, in->dof,            in->negative,
                          in->neutral,          in->lowest,              in->highest,        0};
    le_doubles(v, w, NSTATICS);
}

static void statics_unpack(const double *b, MtStaticsInfo *in)
{
    double v[NSTATICS];
    le_doubles(v, b, NSTATICS);
    in->iterations = (int)v[0], in->relax_steps = (long)v[1], in->force_residual = v[2], in->moment_residual = v[3];
    in->constraint_residual = v[4], in->elastic_residual = v[5], in->dof = (int)v[6], in->negative = (int)v[7];
    in->neutral = (int)v[8], in->lowest = v[9], in->highest = v[10];
}

static MtStatus nomem(MtError *err) { return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory for the modes")); }

static MtStatus save_values(MtStore *s, const MtModes *md, long id, MtError *err)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db,
                                "INSERT INTO mode_values(modes_id, k, kind, s_re, s_im, s2_re, freq, damped_freq, zeta, shape)"
                                " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                                -1, &st, NULL);
    if (rc) return mt_store_sqlerr(s, rc, err);
    size_t per = 2 * (size_t)md->nu + 2 * (size_t)md->njoint;
    double *buf = malloc(sizeof(double) * (per + 1));
    if (!buf) {
        sqlite3_finalize(st);
        return nomem(err);
    }
    for (int k = 0; k < md->nmode && !rc; k++) {
        const MtMode *m = &md->mode[k];
        le_doubles(buf, m->shape_re, (size_t)md->nu);
        le_doubles(buf + md->nu, m->shape_im, (size_t)md->nu);
        le_doubles(buf + 2 * md->nu, m->coord_re, (size_t)md->njoint);
        le_doubles(buf + 2 * md->nu + md->njoint, m->coord_im, (size_t)md->njoint);
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_int(st, 2, k);
        sqlite3_bind_text(st, 3, kind_names[m->kind], -1, SQLITE_STATIC);
        sqlite3_bind_double(st, 4, m->s_re);
        sqlite3_bind_double(st, 5, m->s_im);
        sqlite3_bind_double(st, 6, m->s2_re);
        sqlite3_bind_double(st, 7, m->freq);
        sqlite3_bind_double(st, 8, m->damped_freq);
        if (isnan(m->zeta)) sqlite3_bind_null(st, 9);
        else sqlite3_bind_double(st, 9, m->zeta);
        sqlite3_bind_blob64(st, 10, buf, per * sizeof(double), SQLITE_STATIC);
        rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(s->db);
        sqlite3_reset(st);
    }
    free(buf);
    sqlite3_finalize(st);
    return rc ? mt_store_sqlerr(s, rc, err) : MT_OK;
}

MtStatus mt_store_save_modes(MtStore *s, const MtModes *md, long *id, MtError *err)
{
    if (s->readonly) return mt_error_set(err, MT_ERR_IO, s->path, MT_("'%s' is open read-only: the modes cannot be kept"), s->path);
    long version = mt_store_model_version(s, err);
    if (version < 0) return err ? err->code : MT_ERR_IO;
    size_t nc = (size_t)md->nq + 2 * (size_t)md->nbody;
    double *config = malloc(sizeof(double) * (nc + 1)), stat[NSTATICS];
    if (!config) return nomem(err);
    le_doubles(config, md->q, (size_t)md->nq);
    for (int b = 0; b < md->nbody; b++) {
        double wn[2] = {md->woff[b], md->nw[b]};
        le_doubles(config + md->nq + 2 * b, wn, 2);
    }
    statics_pack(&md->statics, stat);
    char now[32];
    mt_store_now(now);
    if (mt_store_begin(s, err)) {
        free(config);
        return err->code;
    }
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db,
                                "INSERT INTO modes(model_version, created, at_equilibrium, dof, nbody, nq, nu, njoint, statics,"
                                " config) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                                -1, &st, NULL);
    if (!rc) {
        sqlite3_bind_int64(st, 1, version);
        sqlite3_bind_text(st, 2, now, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 3, md->at_equilibrium != 0);
        sqlite3_bind_int(st, 4, md->dof);
        sqlite3_bind_int(st, 5, md->nbody);
        sqlite3_bind_int(st, 6, md->nq);
        sqlite3_bind_int(st, 7, md->nu);
        sqlite3_bind_int(st, 8, md->njoint);
        sqlite3_bind_blob(st, 9, stat, (int)sizeof stat, SQLITE_STATIC);
        sqlite3_bind_blob64(st, 10, config, nc * sizeof(double), SQLITE_STATIC);
        rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(s->db);
        sqlite3_finalize(st);
    }
    free(config);
    long row = (long)sqlite3_last_insert_rowid(s->db);
    if (rc) {
        mt_store_sqlerr(s, rc, err);
        mt_store_rollback(s);
        return err ? err->code : MT_ERR_IO;
    }
    if (save_values(s, md, row, err)) {
        mt_store_rollback(s);
        return err ? err->code : MT_ERR_IO;
    }
    if (mt_store_commit(s, err)) return err->code;
    if (id) *id = row;
    return MT_OK;
}

int mt_store_list_modes(MtStore *s, MtModesInfo **out, MtError *err)
{
    *out = NULL;
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db,
                                "SELECT m.id, m.model_version, m.created, m.at_equilibrium, m.dof,"
                                " (SELECT count(*) FROM mode_values v WHERE v.modes_id = m.id),"
                                " (SELECT v.freq FROM mode_values v WHERE v.modes_id = m.id AND v.kind = 'oscillatory'"
                                "  ORDER BY v.k LIMIT 1) FROM modes m ORDER BY m.id",
                                -1, &st, NULL);
    if (rc) {
        mt_store_sqlerr(s, rc, err);
        return -1;
    }
    int n = 0, cap = 0;
    MtModesInfo *v = NULL;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == cap) {
            MtModesInfo *w = realloc(v, sizeof *v * (size_t)(cap = cap ? 2 * cap : 8));
            if (!w) {
                free(v);
                sqlite3_finalize(st);
                nomem(err);
                return -1;
            }
            v = w;
        }
        MtModesInfo *i = &v[n++];
        memset(i, 0, sizeof *i);
        i->id = (long)sqlite3_column_int64(st, 0);
        i->model_version = (long)sqlite3_column_int64(st, 1);
        const char *c = (const char *)sqlite3_column_text(st, 2);
        snprintf(i->created, sizeof i->created, "%s", c ? c : "");
        i->at_equilibrium = sqlite3_column_int(st, 3);
        i->dof = sqlite3_column_int(st, 4);
        i->nmode = sqlite3_column_int(st, 5);
        i->lowest_freq = sqlite3_column_type(st, 6) == SQLITE_NULL ? 0 : sqlite3_column_double(st, 6);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        free(v);
        mt_store_sqlerr(s, rc, err);
        return -1;
    }
    *out = v;
    return n;
}

static MtModes *modes_alloc(int nmode, int nbody, int nq, int nu, int njoint)
{
    MtModes *md = calloc(1, sizeof *md);
    if (!md) return NULL;
    md->nmode = nmode, md->nbody = nbody, md->nq = nq, md->nu = nu, md->njoint = njoint;
    size_t per = 2 * (size_t)nu + 2 * (size_t)njoint;
    md->mode = calloc((size_t)nmode + 1, sizeof *md->mode);
    md->store = calloc(per * (size_t)nmode + 1, sizeof(double));
    md->woff = calloc((size_t)nbody + 1, sizeof(int));
    md->nw = calloc((size_t)nbody + 1, sizeof(int));
    md->q = calloc((size_t)nq + 1, sizeof(double));
    if (!md->mode || !md->store || !md->woff || !md->nw || !md->q) {
        mt_modes_free(md);
        return NULL;
    }
    for (int k = 0; k < nmode; k++) {
        MtMode *m = &md->mode[k];
        m->shape_re = md->store + per * (size_t)k;
        m->shape_im = m->shape_re + nu;
        m->coord_re = m->shape_im + nu;
        m->coord_im = m->coord_re + njoint;
    }
    return md;
}

/* The damaged-file message for modes id. */
static MtStatus damaged(MtStore *s, long id, MtError *err)
{
    return mt_error_set(err, MT_ERR_IO, s->path, MT_("'%s' is damaged: stored modes %ld do not fit their layout"), s->path, id);
}

static MtStatus load_values(MtStore *s, long id, MtModes *md, MtError *err)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db,
                                "SELECT k, kind, s_re, s_im, s2_re, freq, damped_freq, zeta, shape FROM mode_values"
                                " WHERE modes_id = ?1 ORDER BY k",
                                -1, &st, NULL);
    if (rc) return mt_store_sqlerr(s, rc, err);
    sqlite3_bind_int64(st, 1, id);
    size_t per = 2 * (size_t)md->nu + 2 * (size_t)md->njoint;
    int k = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *kind = (const char *)sqlite3_column_text(st, 1);
        int kk = -1;
        for (int i = 0; kind && i < 5; i++)
            if (!strcmp(kind, kind_names[i])) kk = i;
        if (k >= md->nmode || sqlite3_column_int(st, 0) != k || kk < 0 ||
            (size_t)sqlite3_column_bytes(st, 8) != per * sizeof(double)) {
            sqlite3_finalize(st);
            return damaged(s, id, err);
        }
        MtMode *m = &md->mode[k];
        m->kind = (MtModeKind)kk;
        m->s_re = sqlite3_column_double(st, 2);
        m->s_im = sqlite3_column_double(st, 3);
        m->s2_re = sqlite3_column_double(st, 4);
        m->freq = sqlite3_column_double(st, 5);
        m->damped_freq = sqlite3_column_double(st, 6);
        m->zeta = sqlite3_column_type(st, 7) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 7);
        le_doubles(m->shape_re, sqlite3_column_blob(st, 8), per); /* shape_re … coord_im are contiguous */
        k++;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return mt_store_sqlerr(s, rc, err);
    return k == md->nmode ? MT_OK : damaged(s, id, err);
}

MtStatus mt_store_load_modes(MtStore *s, long id, MtModes **out, MtError *err)
{
    *out = NULL;
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db,
                                "SELECT at_equilibrium, dof, nbody, nq, nu, njoint, statics, config,"
                                " (SELECT count(*) FROM mode_values v WHERE v.modes_id = m.id) FROM modes m WHERE id = ?1",
                                -1, &st, NULL);
    if (rc) return mt_store_sqlerr(s, rc, err);
    sqlite3_bind_int64(st, 1, id);
    rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        sqlite3_finalize(st);
        if (rc == SQLITE_DONE)
            return mt_error_set(err, MT_ERR_ARG, s->path, MT_("'%s' holds no modes %ld"), s->path, id);
        return mt_store_sqlerr(s, rc, err);
    }
    int nbody = sqlite3_column_int(st, 2), nq = sqlite3_column_int(st, 3), nu = sqlite3_column_int(st, 4);
    int njoint = sqlite3_column_int(st, 5), nmode = sqlite3_column_int(st, 8);
    if (nbody < 0 || nq < 7 * nbody || nu < 6 * nbody || njoint < 0 || nmode < 0 ||
        sqlite3_column_bytes(st, 6) != NSTATICS * (int)sizeof(double) ||
        (size_t)sqlite3_column_bytes(st, 7) != ((size_t)nq + 2 * (size_t)nbody) * sizeof(double)) {
        sqlite3_finalize(st);
        return damaged(s, id, err);
    }
    MtModes *md = modes_alloc(nmode, nbody, nq, nu, njoint);
    if (!md) {
        sqlite3_finalize(st);
        return nomem(err);
    }
    md->at_equilibrium = sqlite3_column_int(st, 0);
    md->dof = sqlite3_column_int(st, 1);
    statics_unpack(sqlite3_column_blob(st, 6), &md->statics);
    const double *config = sqlite3_column_blob(st, 7);
    le_doubles(md->q, config, (size_t)nq);
    for (int b = 0; b < nbody; b++) {
        double wn[2];
        le_doubles(wn, config + nq + 2 * b, 2);
        md->woff[b] = (int)wn[0], md->nw[b] = (int)wn[1];
    }
    sqlite3_finalize(st);
    if (load_values(s, id, md, err)) {
        mt_modes_free(md);
        return err ? err->code : MT_ERR_IO;
    }
    *out = md;
    return MT_OK;
}

MtStatus mt_store_delete_modes(MtStore *s, long id, MtError *err)
{
    if (mt_store_begin(s, err)) return err->code;
    char sql[96];
    snprintf(sql, sizeof sql, "DELETE FROM mode_values WHERE modes_id = %ld; DELETE FROM modes WHERE id = %ld", id, id);
    if (mt_store_exec(s, sql, err)) {
        mt_store_rollback(s);
        return err->code;
    }
    return mt_store_commit(s, err);
}
