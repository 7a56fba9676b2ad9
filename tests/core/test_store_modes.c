/* Modes kept in a project (core/store/mt_store_modes.c): the modes of a
 * two-mass spring chain (closed form: ω² = (k/m)(3 ∓ √5)/2) and of a hinged
 * flexible strip (rigid, elastic and joint coordinates together) are saved,
 * the file is closed and reopened, and every number comes back bit for bit;
 * the list names their model version and lowest frequency; deleted modes are
 * gone; a damaged row is refused with a message naming the file. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "motus/store.h"
#include "mt_test.h"

static MtModes *modes_of(const char *text, MtModel **mo)
{
    MtError err = {0};
    MtModel *m = mt_model_parse(text, "modes", &err);
    CHECK(m != NULL, "parses: %s", err.msg);
    MtSystem *s = mt_system_compile(m, &err);
    CHECK(s && mt_system_assemble(s, &err) == MT_OK, "compiles: %s", err.msg);
    MtState *st = mt_state_new(s, &err);
    MtModes *md = NULL;
    CHECK(mt_modes(st, 1, &md, &err) == MT_OK, "modes: %s", err.msg);
    mt_state_free(st);
    mt_system_free(s);
    *mo = m;
    return md;
}

static int same_modes(const MtModes *a, const MtModes *b)
{
    if (a->nmode != b->nmode || a->dof != b->dof || a->nbody != b->nbody || a->nq != b->nq || a->nu != b->nu ||
        a->njoint != b->njoint || a->at_equilibrium != b->at_equilibrium ||
        memcmp(a->q, b->q, sizeof(double) * (size_t)a->nq) || memcmp(a->woff, b->woff, sizeof(int) * (size_t)a->nbody) ||
        memcmp(a->nw, b->nw, sizeof(int) * (size_t)a->nbody) ||
        a->statics.force_residual != b->statics.force_residual || a->statics.negative != b->statics.negative ||
        a->statics.lowest != b->statics.lowest)
        return 0;
    for (int k = 0; k < a->nmode; k++) {
        const MtMode *x = &a->mode[k], *y = &b->mode[k];
        if (x->kind != y->kind || x->s_re != y->s_re || x->s_im != y->s_im || x->freq != y->freq ||
            x->damped_freq != y->damped_freq || (x->zeta != y->zeta && !(isnan(x->zeta) && isnan(y->zeta))) ||
            memcmp(x->shape_re, y->shape_re, sizeof(double) * (size_t)a->nu) ||
            memcmp(x->shape_im, y->shape_im, sizeof(double) * (size_t)a->nu) ||
            memcmp(x->coord_re, y->coord_re, sizeof(double) * (size_t)a->njoint) ||
            memcmp(x->coord_im, y->coord_im, sizeof(double) * (size_t)a->njoint))
            return 0;
    }
    return 1;
}

int main(void)
{
    char path[] = "/tmp/motus-modes-XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    unlink(path);
    MtError err = {0};
    const double k = 1000, m = 2;
    char chain[1024];
    snprintf(chain, sizeof chain,
             "ground\n marker a\n marker rail z 1 0 0\nend\n"
             "body m1\n mass %g\n inertia 1 1 1\n position 1 0 0\n marker c\n marker s z 1 0 0\nend\n"
             "body m2\n mass %g\n inertia 1 1 1\n position 2 0 0\n marker c\n marker s z 1 0 0\nend\n"
             "joint s1 prismatic m1.s ground.rail\njoint s2 prismatic m2.s ground.rail\n"
             "spring k1 m1.c ground.a k %g length 1\nspring k2 m2.c m1.c k %g length 1\n",
             m, m, k, k);
    MtModel *model = NULL;
    MtModes *md = modes_of(chain, &model);
    double w1 = sqrt(k / m * (3 - sqrt(5)) / 2) / (2 * M_PI), w2 = sqrt(k / m * (3 + sqrt(5)) / 2) / (2 * M_PI);
    CHECK(md && md->nmode == 2, "the chain has two modes");
    if (md) {
        CHECK_REL(md->mode[0].freq, w1, 1e-10, "first frequency (k/m)(3 - sqrt 5)/2 [Hz]");
        CHECK_REL(md->mode[1].freq, w2, 1e-10, "second frequency [Hz]");
    }
    MtStore *s = mt_store_open(path, MT_STORE_CREATE, &err);
    CHECK(s != NULL, "project created: %s", err.msg);
    long version, id1 = 0, id2 = 0;
    CHECK(mt_store_save_model(s, model, &version, &err) == MT_OK, "model saved: %s", err.msg);
    CHECK(mt_store_save_modes(s, md, &id1, &err) == MT_OK && id1 > 0, "chain modes saved: %s", err.msg);
    /* a flexible strip on a hinge: a free rotation, bending, modal coordinates in the shapes */
    MtModel *strip = NULL;
    char flex[512];
    snprintf(flex, sizeof flex,
             "ground\n marker base\nend\nbody strip\n flexible beam length 1 elements 40 section rect 0.006 0.004 E 2.1e11"
             " nu 0.3 rho 7850 method cb modes 6 zeta 0\n marker root node 1\n marker tip node 41\nend\n"
             "joint hinge revolute strip.root ground.base\n");
    MtModes *mf = modes_of(flex, &strip);
    CHECK(mf && mf->nmode > 2 && mf->mode[0].kind == MT_MODE_RIGID && mf->nq > 7, "the strip: a free motion first, modal coordinates");
    CHECK(mt_store_save_modes(s, mf, &id2, &err) == MT_OK && id2 > id1, "strip modes saved: %s", err.msg);
    mt_store_close(s);

    s = mt_store_open(path, 0, &err);
    CHECK(s != NULL, "project reopened: %s", err.msg);
    MtModesInfo *info = NULL;
    int n = mt_store_list_modes(s, &info, &err);
    CHECK(n == 2 && info[0].id == id1 && info[0].model_version == version && info[0].nmode == 2 && info[0].at_equilibrium,
          "listed: %d analyses, the first of model version %ld", n, n > 0 ? info[0].model_version : -1L);
    if (n == 2) {
        CHECK_REL(info[0].lowest_freq, w1, 1e-10, "the list's lowest frequency [Hz]");
        printf("stored modes: %ld (%d modes, lowest %.9g Hz), %ld (%d modes, lowest %.9g Hz)\n", info[0].id, info[0].nmode,
               info[0].lowest_freq, info[1].id, info[1].nmode, info[1].lowest_freq);
    }
    free(info);
    MtModes *back = NULL;
    CHECK(mt_store_load_modes(s, id1, &back, &err) == MT_OK && back && same_modes(md, back), "chain modes back bit for bit: %s",
          err.msg);
    mt_modes_free(back);
    back = NULL;
    CHECK(mt_store_load_modes(s, id2, &back, &err) == MT_OK && back && same_modes(mf, back), "strip modes back bit for bit: %s",
          err.msg);
    /* the configuration of a mode from the stored modes is the one from the computed modes */
    if (back) {
        double *qa = calloc((size_t)mf->nq, sizeof(double)), *qb = calloc((size_t)mf->nq, sizeof(double));
        mt_modes_configuration(mf, 2, 0.01, 0.3, qa);
        mt_modes_configuration(back, 2, 0.01, 0.3, qb);
        CHECK(!memcmp(qa, qb, sizeof(double) * (size_t)mf->nq), "a mode's displaced configuration is the same");
        free(qa);
        free(qb);
    }
    mt_modes_free(back);
    CHECK(mt_store_delete_modes(s, id1, &err) == MT_OK && mt_store_list_modes(s, &info, &err) == 1, "deleted: one left");
    free(info);
    back = NULL;
    CHECK(mt_store_load_modes(s, id1, &back, &err) != MT_OK && strstr(err.msg, "holds no modes"), "deleted modes: %s", err.msg);
    mt_store_close(s);

    /* a damaged row: a shape cut short */
    sqlite3 *db;
    CHECK(sqlite3_open(path, &db) == SQLITE_OK, "opened by SQLite");
    CHECK(sqlite3_exec(db, "UPDATE mode_values SET shape = zeroblob(16) WHERE k = 1", NULL, NULL, NULL) == SQLITE_OK,
          "a shape cut short");
    sqlite3_close(db);
    s = mt_store_open(path, MT_STORE_READONLY, &err);
    memset(&err, 0, sizeof err);
    CHECK(s && mt_store_load_modes(s, id2, &back, &err) != MT_OK && strstr(err.msg, "damaged") && strstr(err.msg, path),
          "a damaged row refused: %s", err.msg);
    mt_store_close(s);
    mt_modes_free(md);
    mt_modes_free(mf);
    mt_model_free(model);
    mt_model_free(strip);
    char wal[64];
    unlink(path);
    snprintf(wal, sizeof wal, "%s-wal", path), unlink(wal);
    snprintf(wal, sizeof wal, "%s-shm", path), unlink(wal);
    return mt_test_done();
}
