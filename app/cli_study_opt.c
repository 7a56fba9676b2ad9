/* cli_study_opt.c — `motus-cli study PROJECT` for a study with an objective
 * (docs/studies.md, "Optimisation"): core's COBYLA (mt_study_optimize)
 * chooses each case from the ones before, so the cases run one after
 * another, each in a worker process (motus-cli study-case --values) whose
 * result this process records in the project like any case. Resuming: the
 * optimiser is deterministic, so run again it asks for the same points, and
 * a stored case (or an uncollected result file) with the values asked for is
 * read back instead of being run. Also the optimum's report (--status). */
#include <errno.h>
#include <libintl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app_common.h"
#include "cli_study.h"
#include "motus/study_run.h"

#define _(s) gettext(s)

typedef struct {
    const char *project, *dir;
    char exe[PATH_MAX];
    MtStore *store;
    const MtStudy *s;
    unsigned long long key;
    int keep, quiet, retry, interrupted, ran;
    MtStudyCaseResult *stored; /* the cases in the project when it began, by index */
    int nstored;
} OptRun;

static int same_values(const MtStudy *s, const double *a, const double *b)
{
    return !memcmp(a, b, sizeof(double) * (size_t)s->nvar);
}

/* "Ao = 0.0001 m^2, sink = 10 ft/s" */
static void values_words(const MtStudy *s, const double *v, char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; i < s->nvar && o < n; i++)
        o += (size_t)snprintf(buf + o, n - o, "%s%s = %.10g%s%s", i ? ", " : "", s->var[i].name, v[i], s->var[i].unit[0] ? " " : "",
                              s->var[i].unit);
}

/* A case's record: stored with these values, or a result file of them not yet collected. 1 when found. */
static int recorded(OptRun *R, int k, const double *values, MtStudyCaseResult *r, MtError *err)
{
    for (int i = 0; i < R->nstored; i++)
        if (R->stored[i].index == k) {
            if (same_values(R->s, R->stored[i].values, values) && !(R->stored[i].failed && R->retry)) {
                *r = R->stored[i];
                return 1;
            }
            /* another point (or a failure to retry): the path goes another way from here; what follows is stale */
            R->nstored = i;
            if (mt_store_study_drop_from(R->store, k, err)) return -1;
            break;
        }
    char path[4200];
    study_case_path(R->dir, k, "result", path, sizeof path);
    if (study_read_result(path, R->s, R->key, r) && r->index == k && same_values(R->s, r->values, values) && !(r->failed && R->retry))
        return mt_store_study_put(R->store, R->s, r, err) ? -1 : 1;
    return 0;
}

/* Runs case k at values in a worker process and waits for it; 1 when interrupted. */
static int run_worker(OptRun *R, int k, const double *values, MtStudyCaseResult *r, MtError *err)
{
    char arg[MT_STUDY_VARS * 26 + 1];
    size_t o = 0;
    for (int i = 0; i < R->s->nvar; i++) o += (size_t)snprintf(arg + o, sizeof arg - o, "%s%.17g", i ? "," : "", values[i]);
    pid_t p = study_start_worker(R->exe, R->project, R->dir, k, R->keep, arg);
    if (p < 0) return mt_error_set(err, MT_ERR_IO, "", _("cannot start a worker process: %s"), strerror(errno)), -1;
    int status;
    for (;;) {
        if (study_stop) {
            kill(p, SIGKILL);
            while (waitpid(p, &status, 0) < 0 && errno == EINTR) {}
            return 1;
        }
        pid_t w = waitpid(p, &status, 0);
        if (w == p) break;
        if (w < 0 && errno != EINTR) return mt_error_set(err, MT_ERR_IO, "", _("waiting for the worker: %s"), strerror(errno)), -1;
    }
    char path[4200];
    study_case_path(R->dir, k, "result", path, sizeof path);
    if (!study_read_result(path, R->s, R->key, r) || r->index != k || !same_values(R->s, r->values, values))
        study_worker_failed(R->s, R->dir, k, values, status, r);
    R->ran++;
    return mt_store_study_put(R->store, R->s, r, err) ? -1 : 0;
}

/* One evaluation for the optimiser: read back when recorded, else run. */
static MtStatus evaluate(void *user, int k, const double *values, double *resp, MtError *err)
{
    OptRun *R = user;
    MtStudyCaseResult r;
    int got = recorded(R, k, values, &r, err);
    if (got < 0) return err->code;
    if (!got) {
        int rc = run_worker(R, k, values, &r, err);
        if (rc < 0) return err->code;
        if (rc > 0) {
            R->interrupted = 1;
            return mt_error_set(err, MT_ERR_IO, "study", "%s", _("interrupted"));
        }
    }
    memcpy(resp, r.resp, sizeof(double) * (size_t)R->s->nresp);
    if (!R->quiet) {
        char words[512];
        values_words(R->s, values, words, sizeof words);
        int o = mt_study_find_response(R->s, R->s->objective);
        if (r.failed) fprintf(stderr, _("optimisation: case %d (%s) failed\n"), k, words);
        else fprintf(stderr, _("optimisation: case %d%s: %s; %s = %.10g%s\n"), k, got ? _(" (recorded)") : "", words, R->s->objective,
                     resp[o], mt_study_opt_feasible(R->s, resp) ? "" : _(", a constraint does not hold"));
    }
    if (r.failed) return mt_error_set(err, MT_ERR_SOLVE, "study", "%s", r.message);
    return MT_OK;
}

/* The optimum among the cases c[0 … n-1] (the path so far) and its constraints, on stdout. 0 when it is feasible. */
int study_opt_report(const MtStudy *s, const MtStudyCaseResult *c, int n)
{
    int best = -1, failed = 0;
    for (int k = 0; k < n; k++) {
        failed += c[k].failed;
        if (!c[k].failed && (best < 0 || mt_study_opt_better(s, c[k].resp, c[best].resp))) best = k;
    }
    if (best < 0) {
        printf(_("optimum: none (%d cases, %d failed)\n"), n, failed);
        return 1;
    }
    char words[512];
    values_words(s, c[best].values, words, sizeof words);
    int o = mt_study_find_response(s, s->objective);
    printf(_("optimum: case %d: %s; %s = %.12g (%s)\n"), c[best].index, words, s->objective, c[best].resp[o],
           s->maximize ? _("maximised") : _("minimised"));
    for (int i = 0; i < s->ncons; i++) {
        const MtStudyConstraint *q = &s->cons[i];
        double v = c[best].resp[mt_study_find_response(s, q->resp)];
        printf(_("constraint %s %s %.12g: %.12g, %s\n"), q->resp, q->ge ? ">=" : "<=", q->bound, v,
               mt_study_opt_holds(s, i, c[best].resp) ? _("holds") : _("does not hold"));
    }
    int feasible = mt_study_opt_feasible(s, c[best].resp);
    if (s->ncons) printf("%s\n", feasible ? _("every constraint holds at the optimum") : _("the constraints do not all hold at the optimum"));
    return !feasible;
}

int cli_study_optimize(const char *project, const char *dir, const char *argv0, MtStore *store, const MtModel *m, long version,
                       int keep, int retry, int quiet)
{
    MtError err = {0};
    OptRun R = {.project = project, .dir = dir, .store = store, .s = m->study, .key = study_key(m->study, version), .keep = keep,
                .quiet = quiet, .retry = retry};
    study_self_exe(argv0, R.exe, sizeof R.exe);
    if ((R.nstored = mt_store_study_cases(store, m->study, &R.stored, &err)) < 0) return cli_fail(&err);
    study_catch_signals();
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    MtStudyOpt opt;
    MtStatus rc = mt_study_optimize(m->study, evaluate, &R, &opt, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    free(R.stored);
    if (R.interrupted) {
        cli_err(_("optimisation interrupted after %d cases; run the same command again to go on (the cases done are read back)"), opt.nevals - 1);
        return 130;
    }
    if (rc && err.code != MT_ERR_SOLVE) return cli_fail(&err);
    double wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf(_("optimisation (COBYLA): %d evaluations (cases 0 … %d, %d run now, one after another), %s, %.1f s wall\n"), opt.nevals,
           opt.nevals - 1, R.ran, mt_study_opt_stop_text(opt.stop), wall);
    if (rc) cli_err(_("failed: %s"), err.msg);
    MtStudyCaseResult *c = NULL; /* cases of an earlier, longer path (another optimiser) are not this one's */
    int n = mt_store_study_drop_from(store, opt.nevals, &err) ? -1 : mt_store_study_cases(store, m->study, &c, &err);
    if (n < 0) return cli_fail(&err);
    int bad = study_opt_report(m->study, c, n);
    free(c);
    return rc || bad ? 1 : 0;
}
