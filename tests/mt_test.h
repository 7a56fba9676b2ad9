/* mt_test.h — minimal assertion helpers for the core tests: every check
 * prints what it compared and with which tolerance; the test exits non-zero
 * when any check failed. */
#ifndef MT_TEST_H
#define MT_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_integrate.h"
#include "motus/model.h"
#include "motus/results.h"
#include "mt_system.h"

static int mt_test_fails, mt_test_checks;

#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        mt_test_checks++;                                                      \
        if (!(cond)) {                                                         \
            mt_test_fails++;                                                   \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                        \
            printf(__VA_ARGS__);                                               \
            printf("\n");                                                      \
        }                                                                      \
    } while (0)

/* |got − want| ≤ tol (absolute). */
#define CHECK_ABS(got, want, tol, what)                                                                   \
    do {                                                                                                  \
        double g_ = (got), w_ = (want), t_ = (tol);                                                       \
        mt_test_checks++;                                                                                 \
        int ok_ = fabs(g_ - w_) <= t_;                                                                    \
        if (!ok_) mt_test_fails++;                                                                        \
        printf("%s %s: got %.15g, expected %.15g, |diff| %.3g (tol %.3g)\n", ok_ ? "ok  " : "FAIL", what, \
               g_, w_, fabs(g_ - w_), t_);                                                                \
    } while (0)

/* |got − want| ≤ tol·|want| (relative). */
#define CHECK_REL(got, want, tol, what)                                                                          \
    do {                                                                                                         \
        double g_ = (got), w_ = (want), t_ = (tol);                                                              \
        mt_test_checks++;                                                                                        \
        double r_ = fabs(g_ - w_) / fabs(w_);                                                                    \
        int ok_ = r_ <= t_;                                                                                      \
        if (!ok_) mt_test_fails++;                                                                               \
        printf("%s %s: got %.15g, expected %.15g, rel. diff %.3g (tol %.3g)\n", ok_ ? "ok  " : "FAIL", what, g_, \
               w_, r_, t_);                                                                                      \
    } while (0)

static inline int mt_test_done(void)
{
    printf("%d checks, %d failed\n", mt_test_checks, mt_test_fails);
    return mt_test_fails ? 1 : 0;
}

/* The model in canonical text form (malloc'ed), to compare models exactly. */
static inline char *mt_test_model_text(const MtModel *m)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    MtError err = {0};
    mt_model_write(m, f, &err);
    fclose(f);
    return buf;
}

/* Parses and compiles a model given as text; aborts the test on error. */
static inline MtSystem *mt_test_system(const char *text)
{
    MtError err = {0};
    MtModel *m = mt_model_parse(text, "<test>", &err);
    if (!m) {
        printf("FAIL model: %s\n", err.msg);
        exit(1);
    }
    MtSystem *s = mt_system_compile(m, &err);
    if (s && mt_system_assemble(s, &err)) { mt_system_free(s); s = NULL; }
    mt_model_free(m);
    if (!s) {
        printf("FAIL compile: %s\n", err.msg);
        exit(1);
    }
    return s;
}

/* Runs s with its own solver settings and callback; aborts on error. */
static inline MtState *mt_test_run(MtSystem *s, MtFrameFn fn, void *user, MtRunStats *stats)
{
    MtError err = {0};
    MtState *st = mt_state_new(s, &err);
    if (!st || mt_run(st, &s->solver, fn, user, NULL, stats, &err)) {
        printf("FAIL run: %s\n", err.msg);
        exit(1);
    }
    return st;
}

/* The named result columns of every frame of a run (and its times): out[c][0 .. n). */
typedef struct {
    int ncol, col[8];
    double *t, *out[8];
    int n, cap;
    MtCsv *csv;
    double *v;
} MtTestRec;

static inline int mt_test_rec_cb(void *u, MtState *st)
{
    MtTestRec *r = u;
    mt_frame_values(r->csv, st, r->v);
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 4096;
        r->t = realloc(r->t, sizeof(double) * (size_t)r->cap);
        for (int c = 0; c < r->ncol; c++) r->out[c] = realloc(r->out[c], sizeof(double) * (size_t)r->cap);
        if (!r->t) exit(1);
    }
    r->t[r->n] = st->t;
    for (int c = 0; c < r->ncol; c++) r->out[c][r->n] = r->v[r->col[c]];
    r->n++;
    return 0;
}

/* Runs a model given as text with its own solver settings and keeps the
 * named columns (at most 8) of every frame; a missing column fails the test. */
static inline MtTestRec mt_test_record(const char *text, const char *const *cols, int ncol)
{
    MtSystem *s = mt_test_system(text);
    MtError err = {0};
    MtTestRec r;
    memset(&r, 0, sizeof r);
    r.csv = mt_csv_new(s, NULL, &err);
    r.ncol = ncol;
    for (int c = 0; c < ncol; c++) {
        r.col[c] = -1;
        for (int k = 0; k < mt_csv_ncols(r.csv); k++)
            if (!strcmp(mt_csv_colname(r.csv, k), cols[c])) r.col[c] = k;
        if (r.col[c] < 0) {
            printf("FAIL no result column %s\n", cols[c]);
            exit(1);
        }
    }
    r.v = malloc(sizeof(double) * (size_t)mt_csv_ncols(r.csv));
    MtState *st = mt_test_run(s, mt_test_rec_cb, &r, NULL);
    free(r.v);
    mt_csv_free(r.csv);
    r.csv = NULL;
    mt_state_free(st);
    mt_system_free(s);
    return r;
}

static inline void mt_test_rec_free(MtTestRec *r)
{
    free(r->t);
    for (int c = 0; c < r->ncol; c++) free(r->out[c]);
}

/* Arithmetic–geometric mean, for complete elliptic integrals: K(k) = π / (2 AGM(1, √(1−k²))). */
/* Times where x crosses zero downwards in frames (t, x, x')[0..n), located by
 * Newton on the cubic Hermite interpolant between frames (error ~ h^4/384 times x's fourth derivative);
 * at most max into out; returns how many. */
static inline int mt_test_down_crossings(const double *t, const double *x, const double *xd, int n, double *out, int max)
{
    int k = 0;
    for (int i = 0; i + 1 < n && k < max; i++) {
        if (!(x[i] > 0 && x[i + 1] <= 0)) continue;
        double h = t[i + 1] - t[i], s = x[i] / (x[i] - x[i + 1]);
        for (int it = 0; it < 50; it++) {
            double s2 = s * s, s3 = s2 * s;
            double f = (2 * s3 - 3 * s2 + 1) * x[i] + (s3 - 2 * s2 + s) * h * xd[i] + (-2 * s3 + 3 * s2) * x[i + 1] +
                       (s3 - s2) * h * xd[i + 1];
            double df = (6 * s2 - 6 * s) * x[i] + (3 * s2 - 4 * s + 1) * h * xd[i] + (-6 * s2 + 6 * s) * x[i + 1] +
                        (3 * s2 - 2 * s) * h * xd[i + 1];
            double ds = f / df;
            s -= ds;
            if (fabs(ds) < 1e-16) break;
        }
        out[k++] = t[i] + s * h;
    }
    return k;
}

static inline double mt_test_agm(double a, double b)
{
    for (int i = 0; i < 60 && fabs(a - b) > 1e-17 * a; i++) {
        double an = 0.5 * (a + b);
        b = sqrt(a * b);
        a = an;
    }
    return a;
}

#endif
