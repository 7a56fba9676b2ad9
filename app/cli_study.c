/* cli_study.c — `motus-cli study PROJECT`: runs a study's cases in parallel
 * worker processes (motus-cli study-case, one per core by default), resumes
 * after an interruption (cases finished are not run again), shows progress on
 * standard error and records every case, failed ones with their values and
 * the solver's message. This process is the project's one writer: workers
 * write result files that it collects. Also --status and --table. */
#include <errno.h>
#include <libintl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app_common.h"
#include "cli_study.h"

#define _(s) gettext(s)

void cli_study_usage(FILE *f)
{
    fputs(_("studies (docs/studies.md):\n"
            "  study PROJECT.motus [--jobs N] [--keep-frames] [--retry-failed] [--quiet]\n"
            "                 run the study's cases in N worker processes (default: one per core); finished\n"
            "                 cases are kept, so an interrupted study goes on where it stopped; a study with an\n"
            "                 objective is optimised (COBYLA), its cases one after another\n"
            "  study PROJECT.motus --status | --table [--out FILE.csv]\n"
            "                 how many cases are done and failed; every finished case with its values and responses\n"
            "  study PROJECT.motus --slurm [--partition P] [--time T] [--account A] [--max-parallel K]\n"
            "                 [--cases-per-task C] [--keep-frames] [--dry-run]\n"
            "                 submit the unfinished cases as one Slurm job array, C cases a task (--dry-run: print the script)\n"
            "  study PROJECT.motus --collect\n"
            "                 gather the cases the cluster finished; list the missing and failed ones\n"),
          f);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int study_collect_files(MtStore *store, const MtModel *m, const char *dir, unsigned long long key, unsigned char *done,
                        int ncase, int *failed, MtError *err)
{
    int n = 0;
    for (int c = 0; c < ncase; c++) {
        if (done[c]) continue;
        char path[4200];
        study_case_path(dir, c, "result", path, sizeof path);
        MtStudyCaseResult r;
        if (!study_read_result(path, m->study, key, &r) || r.index != c) continue;
        if (mt_store_study_put(store, m->study, &r, err)) return -1;
        done[c] = r.failed ? 2 : 1;
        if (r.failed && failed) (*failed)++;
        n++;
    }
    return n;
}

/* ---- the local runner ------------------------------------------------------------- */

volatile sig_atomic_t study_stop;
static void on_signal(int sig) { study_stop = sig; }

void study_catch_signals(void)
{
    struct sigaction sa = {0};
    sa.sa_handler = on_signal; /* no SA_RESTART: waitpid returns to look at study_stop */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

typedef struct {
    const char *project, *dir;
    char exe[PATH_MAX];
    MtStore *store;
    const MtModel *m;
    unsigned long long key;
    int ncase, jobs, keep, quiet;
    unsigned char *done; /* 0 to run, 1 ok, 2 failed */
    pid_t *pid;          /* per job slot: its worker, 0 idle */
    int *slot_case;
    int ndone, nfail, nrun, started_here, finished_here;
    double seconds_here, t0;
} Runner;

pid_t study_start_worker(const char *exe, const char *project, const char *dir, int c, int keep, const char *values)
{
    char cs[32];
    snprintf(cs, sizeof cs, "%d", c);
    char *argv[12] = {"motus-cli", "study-case", (char *)project, "--case", cs, "--dir", (char *)dir}, **a = argv + 7;
    if (keep) *a++ = "--keep-frames";
    if (values) *a++ = "--values", *a++ = (char *)values;
    char logp[4200];
    study_case_path(dir, c, "log", logp, sizeof logp);
    pid_t ppid = getpid();
    fflush(NULL);
    pid_t p = fork();
    if (p == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* a runner killed takes its workers along: no orphan writes late */
        if (getppid() != ppid) _exit(127);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        if (!freopen(logp, "w", stdout) || dup2(fileno(stdout), 2) < 0) _exit(126);
        execv(exe, argv);
        _exit(127);
    }
    return p;
}

/* The case a worker ran: its result file, or a failure saying how the worker ended. */
static int collect_one(Runner *R, int c, int status, MtError *err)
{
    char path[4200];
    study_case_path(R->dir, c, "result", path, sizeof path);
    MtStudyCaseResult r;
    if (!study_read_result(path, R->m->study, R->key, &r) || r.index != c) {
        double v[MT_STUDY_VARS];
        mt_study_case(R->m->study, c, v, err);
        study_worker_failed(R->m->study, R->dir, c, v, status, &r);
    }
    if (mt_store_study_put(R->store, R->m->study, &r, err)) return -1;
    R->done[c] = r.failed ? 2 : 1;
    R->ndone++;
    R->finished_here++;
    R->seconds_here += r.seconds;
    if (r.failed) {
        R->nfail++;
        cli_err(_("failed: %s"), r.message);
    }
    return 0;
}

static void progress(const Runner *R)
{
    if (R->quiet) return;
    int left = R->ncase - R->ndone;
    double el = now_s() - R->t0, eta = R->finished_here ? el / R->finished_here * left : NAN;
    if (isfinite(eta))
        fprintf(stderr, _("study: %d of %d cases done, %d failed, %d running, about %.0f s left\n"), R->ndone, R->ncase,
                R->nfail, R->nrun, eta);
    else fprintf(stderr, _("study: %d of %d cases done, %d failed, %d running\n"), R->ndone, R->ncase, R->nfail, R->nrun);
}

void study_worker_failed(const MtStudy *s, const char *dir, int c, const double *values, int status, MtStudyCaseResult *r)
{
    memset(r, 0, sizeof *r);
    r->index = c;
    r->failed = 1;
    snprintf(r->job, sizeof r->job, "local");
    for (int i = 0; i < s->nresp; i++) r->resp[i] = NAN;
    memcpy(r->values, values, sizeof(double) * (size_t)s->nvar);
    char logp[4200];
    study_case_path(dir, c, "log", logp, sizeof logp);
    if (WIFSIGNALED(status))
        snprintf(r->message, sizeof r->message, _("case %d: its worker was killed by signal %d (see %s)"), c, WTERMSIG(status), logp);
    else snprintf(r->message, sizeof r->message, _("case %d: its worker ended with status %d and no result (see %s)"), c,
                  WIFEXITED(status) ? WEXITSTATUS(status) : -1, logp);
}

/* Ends the workers of an interrupted study (their cases are not finished: they run again next time). */
static void stop_workers(Runner *R)
{
    int status;
    for (int j = 0; j < R->jobs; j++)
        if (R->pid[j]) kill(R->pid[j], SIGKILL);
    while (waitpid(-1, &status, 0) > 0 || errno == EINTR) {}
}

/* Starts workers on idle slots while cases remain; waits for one to end. 1 when interrupted. */
static int run_loop(Runner *R, MtError *err)
{
    int next = 0;
    for (;;) {
        if (study_stop) { /* a signal that came while this process was not waiting */
            stop_workers(R);
            return 1;
        }
        for (int j = 0; j < R->jobs && !study_stop; j++) {
            if (R->pid[j]) continue;
            while (next < R->ncase && R->done[next]) next++;
            if (next >= R->ncase) break;
            pid_t p = study_start_worker(R->exe, R->project, R->dir, next, R->keep, NULL);
            if (p < 0) return mt_error_set(err, MT_ERR_IO, "", _("cannot start a worker process: %s"), strerror(errno)), -1;
            R->pid[j] = p;
            R->slot_case[j] = next++;
            R->nrun++;
        }
        if (!R->nrun) return 0;
        int status;
        pid_t p = waitpid(-1, &status, 0);
        if (p < 0 && errno == EINTR) continue; /* study_stop is looked at above */
        if (p < 0) return mt_error_set(err, MT_ERR_IO, "", _("waiting for the workers: %s"), strerror(errno)), -1;
        for (int j = 0; j < R->jobs; j++)
            if (R->pid[j] == p) {
                R->pid[j] = 0;
                R->nrun--;
                if (collect_one(R, R->slot_case[j], status, err)) return -1;
                progress(R);
            }
    }
}

static int jobs_default(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* The study's cases as CSV: case, status, the variables, the responses, seconds, job, the file of its
 * frames (in the study's directory; empty when not kept), message. */
static int print_table(MtStore *store, const MtModel *m, const char *out, const unsigned char *done, int ncase, MtError *err)
{
    MtStudyCaseResult *c = NULL;
    int any = 0;
    for (int k = 0; k < ncase; k++) any |= done[k];
    int n = any ? mt_store_study_cases(store, m->study, &c, err) : 0; /* results of another study or model: none */
    if (n < 0) return cli_fail(err);
    FILE *f = out ? fopen(out, "w") : stdout;
    if (!f) {
        cli_err(_("cannot write '%s': %s"), out, strerror(errno));
        free(c);
        return 1;
    }
    const MtStudy *s = m->study;
    fprintf(f, "case,status");
    for (int i = 0; i < s->nvar; i++) fprintf(f, ",%s", s->var[i].name);
    for (int i = 0; i < s->nresp; i++) fprintf(f, ",%s", s->resp[i].name);
    fprintf(f, ",seconds,job,frames,message\n");
    for (int k = 0; k < n; k++) {
        fprintf(f, "%d,%s", c[k].index, c[k].failed ? "failed" : "ok");
        for (int i = 0; i < s->nvar; i++) fprintf(f, ",%.17g", c[k].values[i]);
        for (int i = 0; i < s->nresp; i++) fprintf(f, isfinite(c[k].resp[i]) ? ",%.17g" : ",", c[k].resp[i]);
        fprintf(f, ",%.3f,%s,%s,\"", c[k].seconds, c[k].job, c[k].frames);
        for (const char *q = c[k].message; *q; q++) fprintf(f, *q == '"' ? "\"\"" : "%c", *q);
        fprintf(f, "\"\n");
    }
    free(c);
    if (out && fclose(f)) {
        cli_err(_("error writing '%s'"), out);
        return 1;
    }
    return 0;
}

/* Opens the project, its model and study, and the stored cases: done[c] 1 ok, 2 failed. */
static int open_study(const char *project, int write, MtStore **store, MtModel **m, long *version, int *ncase,
                      unsigned char **done, MtError *err)
{
    *m = NULL;
    *done = NULL;
    struct stat sb;
    if (stat(project, &sb) == 0 && S_ISREG(sb.st_mode) && !mt_store_is_sqlite_file(project)) {
        cli_err(_("'%s' is not a project file (a .motus SQLite file); import a text model with 'motus-cli import MODEL.motus.txt PROJECT.motus'"),
                project);
        return -2;
    }
    if (!(*store = mt_store_open(project, 0, err))) return -1;
    if (!(*m = mt_store_load_model(*store, version, err))) return -1;
    if (!(*m)->study)
        return mt_error_set(err, MT_ERR_MODEL, "study", _("%s: the model has no study (add 'study …' lines, docs/studies.md)"),
                            project), -1;
    if ((*ncase = mt_study_ncases((*m)->study, err)) < 0) return -1;
    int kept;
    if (mt_store_study_begin(*store, (*m)->study, *version, write, &kept, err)) return -1;
    if (!(*done = calloc((size_t)*ncase, 1))) return mt_error_set(err, MT_ERR_NOMEM, "", "%s", _("out of memory")), -1;
    MtStudyCaseResult *c = NULL;
    int n = write || kept ? mt_store_study_cases(*store, (*m)->study, &c, err) : 0; /* stale results are none */
    if (n < 0) return -1;
    for (int k = 0; k < n; k++)
        if (c[k].index >= 0 && c[k].index < *ncase) (*done)[c[k].index] = c[k].failed ? 2 : 1;
    free(c);
    return 0;
}

/* --status of an optimisation: the cases stored and the optimum among them. */
static int opt_status(MtStore *store, const MtModel *m, const unsigned char *done, int ncase, MtError *err)
{
    MtStudyCaseResult *c = NULL;
    int any = 0;
    for (int k = 0; k < ncase; k++) any |= done[k];
    int n = any ? mt_store_study_cases(store, m->study, &c, err) : 0; /* results of another study or model: none */
    if (n < 0) return cli_fail(err);
    int failed = 0;
    for (int k = 0; k < n; k++) failed += c[k].failed;
    printf(_("study: optimisation, %d cases (at most %d), %d failed\n"), n, m->study->maxeval, failed);
    int bad = n ? study_opt_report(m->study, c, n) : 0;
    free(c);
    return bad;
}

static int run_local(Runner *R, int retry, MtError *err)
{
    for (int c = 0; c < R->ncase; c++) {
        if (R->done[c] == 2 && retry) R->done[c] = 0;
        if (R->done[c]) R->ndone++;
        if (R->done[c] == 2) R->nfail++;
    }
    int got = study_collect_files(R->store, R->m, R->dir, R->key, R->done, R->ncase, &R->nfail, err);
    if (got < 0) return -1;
    R->ndone += got;
    if (!R->quiet && R->ndone)
        fprintf(stderr, _("study: %d of %d cases already done (%d collected from result files); running the other %d\n"),
                R->ndone, R->ncase, got, R->ncase - R->ndone);
    R->pid = calloc((size_t)R->jobs, sizeof *R->pid);
    R->slot_case = calloc((size_t)R->jobs, sizeof *R->slot_case);
    if (!R->pid || !R->slot_case) return mt_error_set(err, MT_ERR_NOMEM, "", "%s", _("out of memory")), -1;
    study_catch_signals();
    R->t0 = now_s();
    int rc = run_loop(R, err);
    free(R->pid);
    free(R->slot_case);
    if (rc > 0) {
        cli_err(_("study interrupted: %d of %d cases done; run the same command again to go on"), R->ndone, R->ncase);
        return 130;
    }
    if (rc < 0) return -1;
    if (!R->quiet)
        printf(_("study: %d cases, %d ok, %d failed, %.1f s wall (%d run now)\n"), R->ncase, R->ndone - R->nfail, R->nfail,
               now_s() - R->t0, R->finished_here);
    return R->nfail ? 1 : 0;
}

int cli_study(int argc, char **argv)
{
    const char *project = argc > 2 ? argv[2] : NULL, *out = NULL;
    int jobs = 0, keep = 0, retry = 0, quiet = 0, status = 0, table = 0, slurm = 0;
    for (int i = 3; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--jobs") && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 1 || v > 4096) {
                cli_err(_("--jobs expects a number of processes, got '%s'"), argv[i]);
                return 2;
            }
            jobs = (int)v;
        } else if (!strcmp(o, "--keep-frames")) keep = 1;
        else if (!strcmp(o, "--retry-failed")) retry = 1;
        else if (!strcmp(o, "--quiet")) quiet = 1;
        else if (!strcmp(o, "--status")) status = 1;
        else if (!strcmp(o, "--table")) table = 1;
        else if (!strcmp(o, "--out") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(o, "--slurm") || !strcmp(o, "--collect")) slurm = 1;
        else if (!strcmp(o, "--partition") || !strcmp(o, "--time") || !strcmp(o, "--account") || !strcmp(o, "--max-parallel") ||
                 !strcmp(o, "--cases-per-task") || !strcmp(o, "--dry-run"))
            i += strcmp(o, "--dry-run") != 0; /* Slurm's, read by cli_slurm */
        else {
            cli_err(_("unknown option '%s'"), o);
            return 2;
        }
    }
    if (!project) {
        cli_study_usage(stderr);
        return 2;
    }
    MtError err = {0};
    MtStore *store = NULL;
    MtModel *m = NULL;
    unsigned char *done = NULL;
    long version = 0;
    int ncase = 0, code = 0;
    char dir[4200];
    study_dir(project, dir, sizeof dir);
    int orc = open_study(project, !status && !table, &store, &m, &version, &ncase, &done, &err);
    if (orc == -2) code = 2; /* said already */
    else if (orc) code = cli_fail(&err);
    else if (table) code = print_table(store, m, out, done, ncase, &err);
    else if (slurm && m->study->optimize) {
        cli_err("%s", _("an optimisation runs its cases one after another, each chosen from those before: run it with 'motus-cli study PROJECT' on one machine, not as a Slurm job array"));
        code = 2;
    } else if (slurm) code = cli_slurm(project, store, m, version, done, ncase, argc, argv);
    else if (status && m->study->optimize) code = opt_status(store, m, done, ncase, &err);
    else if (status) {
        int ok = 0, bad = 0;
        for (int c = 0; c < ncase; c++) ok += done[c] == 1, bad += done[c] == 2;
        printf(_("study: %d cases, %d ok, %d failed, %d to run\n"), ncase, ok, bad, ncase - ok - bad);
    } else if (mkdir(dir, 0777) && errno != EEXIST) {
        cli_err(_("cannot create the study's directory '%s': %s"), dir, strerror(errno));
        code = 1;
    } else if (m->study->optimize) code = cli_study_optimize(project, dir, argv[0], store, m, version, keep, retry, quiet);
    else {
        Runner R = {.project = project, .dir = dir, .store = store, .m = m, .key = study_key(m->study, version),
                    .ncase = ncase, .jobs = jobs ? jobs : jobs_default(), .keep = keep, .quiet = quiet, .done = done};
        study_self_exe(argv[0], R.exe, sizeof R.exe);
        code = run_local(&R, retry, &err);
        if (code < 0) code = cli_fail(&err);
    }
    free(done);
    mt_model_free(m);
    mt_store_close(store);
    return code;
}
