/* cli_study_case.c — one case of a study run by a worker process (local
 * runner or Slurm array task): the project read only, the case run in this
 * process (core/analysis/mt_study_run.c), its values, responses or failure
 * written to its own result file (written aside and renamed, so a reader
 * never sees half of one), its frames optionally to a project of its own.
 * Workers never write the study's project: its one writer collects the files. */
#include <errno.h>
#include <fcntl.h>
#include <libintl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "app_common.h"
#include "cli_study.h"
#include "motus/results.h"
#include "motus/study_run.h"

#define _(s) gettext(s)

void study_dir(const char *project, char *buf, size_t n) { snprintf(buf, n, "%s.study", project); }

void study_case_path(const char *dir, int c, const char *ext, char *buf, size_t n)
{
    snprintf(buf, n, "%s/case-%06d.%s", dir, c, ext);
}

void study_self_exe(const char *argv0, char *buf, size_t n)
{
    char tmp[PATH_MAX];
    if (argv0 && strchr(argv0, '/') && realpath(argv0, tmp)) {
        snprintf(buf, n, "%s", tmp);
        return;
    }
    ssize_t len = readlink("/proc/self/exe", tmp, sizeof tmp - 1);
    tmp[len > 0 ? len : 0] = 0;
    snprintf(buf, n, "%s", tmp);
}

unsigned long long study_key(const MtStudy *s, long model_version)
{
    char *text = mt_study_text(s);
    unsigned long long h = 1469598103934665603ull; /* FNV-1a */
    for (const char *c = text ? text : ""; *c; c++) h = (h ^ (unsigned char)*c) * 1099511628211ull;
    free(text);
    return (h ^ (unsigned long long)model_version) * 1099511628211ull;
}

/* src into dst, cut on a whole UTF-8 character when it does not fit. */
static void put(char *dst, size_t n, const char *src)
{
    size_t k = mt_utf8_prefix(src, n - 1);
    memcpy(dst, src, k);
    dst[k] = 0;
}

static double read_num(const char *s)
{
    if (!strncmp(s, "nan", 3)) return NAN;
    return strtod(s, NULL);
}

int study_read_result(const char *path, const MtStudy *s, unsigned long long key, MtStudyCaseResult *r)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    memset(r, 0, sizeof *r);
    r->index = -1;
    for (int i = 0; i < MT_STUDY_RESPONSES; i++) r->resp[i] = NAN;
    char line[2048];
    int keyed = 0, head = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        int i;
        if (!strcmp(line, "motus-study-case 1")) head = 1;
        else if (!strncmp(line, "key ", 4)) keyed = strtoull(line + 4, NULL, 16) == key;
        else if (!strncmp(line, "case ", 5)) r->index = atoi(line + 5);
        else if (!strncmp(line, "status ", 7)) r->failed = strcmp(line + 7, "ok") != 0;
        else if (!strncmp(line, "seconds ", 8)) r->seconds = strtod(line + 8, NULL);
        else if (!strncmp(line, "job ", 4)) put(r->job, sizeof r->job, line + 4);
        else if (!strncmp(line, "frames ", 7)) put(r->frames, sizeof r->frames, line + 7);
        else if (!strncmp(line, "message ", 8)) put(r->message, sizeof r->message, line + 8);
        else if (sscanf(line, "value %d", &i) == 1 && i >= 0 && i < s->nvar) r->values[i] = read_num(strchr(line + 6, ' ') + 1);
        else if (sscanf(line, "response %d", &i) == 1 && i >= 0 && i < s->nresp) r->resp[i] = read_num(strchr(line + 9, ' ') + 1);
    }
    fclose(f);
    return head && keyed && r->index >= 0;
}

static int write_result(const char *dir, const MtStudy *s, unsigned long long key, const MtStudyCaseResult *r)
{
    char path[4200], tmp[4300];
    study_case_path(dir, r->index, "result", path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        cli_err(_("cannot write '%s': %s"), tmp, strerror(errno));
        return 1;
    }
    fprintf(f, "motus-study-case 1\nkey %016llx\ncase %d\nstatus %s\nseconds %.6f\njob %s\nframes %s\n", key, r->index,
            r->failed ? "failed" : "ok", r->seconds, r->job, r->frames);
    for (int i = 0; i < s->nvar; i++) fprintf(f, "value %d %.17g\n", i, r->values[i]);
    for (int i = 0; i < s->nresp; i++) fprintf(f, "response %d %.17g\n", i, r->resp[i]);
    char msg[sizeof r->message];
    snprintf(msg, sizeof msg, "%s", r->message);
    for (char *c = msg; *c; c++)
        if (*c == '\n' || *c == '\r') *c = ' ';
    fprintf(f, "message %s\n", msg);
    if (fflush(f) || fsync(fileno(f)) || fclose(f) || rename(tmp, path)) {
        cli_err(_("cannot write '%s': %s"), path, strerror(errno));
        unlink(tmp);
        return 1;
    }
    return 0;
}

/* Keeping a case's frames: a project of its own beside the result file. */
typedef struct {
    const char *path;
    MtStore *store;
    MtRun *run;
} Frames;

static int frames_begin(void *user, const MtSystem *sys, MtError *err)
{
    Frames *fr = user;
    unlink(fr->path); /* a rerun starts afresh */
    if (!(fr->store = mt_store_open(fr->path, MT_STORE_CREATE, err))) return 1;
    if (mt_store_save_model(fr->store, mt_system_model(sys), NULL, err)) return 1;
    return !(fr->run = mt_store_run_begin(fr->store, sys, mt_system_solver(sys), err));
}

static int frames_frame(void *user, MtState *st) { return mt_store_run_frame(((Frames *)user)->run, st); }

/* Appends "case I started (pid P)" to the study's log: what ran, and how often. */
static void log_start(const char *dir, int c)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/study.log", dir);
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd < 0) return;
    char line[128];
    int n = snprintf(line, sizeof line, "case %d started (pid %ld)\n", c, (long)getpid());
    if (write(fd, line, (size_t)n) < 0) { /* a log line lost is no reason to fail the case */ }
    close(fd);
}

/* "V1,V2,…": one number per variable. 0 when read. */
static int read_values(const char *text, const MtStudy *s, double *v)
{
    const char *p = text;
    for (int i = 0; i < s->nvar; i++) {
        char *end;
        v[i] = strtod(p, &end);
        if (end == p || !isfinite(v[i]) || *end != (i + 1 < s->nvar ? ',' : '\0')) return 1;
        p = end + 1;
    }
    return 0;
}

int cli_study_case(int argc, char **argv)
{
    const char *project = argc > 2 ? argv[2] : NULL, *dir = NULL, *values = NULL;
    int c = -1, keep = 0;
    for (int i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "--keep-frames")) keep = 1;
        else if (!strcmp(argv[i], "--values") && i + 1 < argc) values = argv[++i];
        else if (!strcmp(argv[i], "--case") && i + 1 < argc) c = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--dir") && i + 1 < argc) dir = argv[++i];
        else {
            cli_err(_("unknown option '%s'"), argv[i]);
            return 2;
        }
    }
    if (!project || !dir || c < 0) {
        cli_err("%s", _("study-case needs a project, --case I and --dir DIR"));
        return 2;
    }
    MtError err = {0};
    MtStore *store = mt_store_open(project, MT_STORE_READONLY, &err);
    long version;
    MtModel *m = store ? mt_store_load_model(store, &version, &err) : NULL;
    mt_store_close(store);
    if (!m) return cli_fail(&err);
    if (!m->study) {
        mt_model_free(m);
        cli_err(_("%s: the model has no study"), project);
        return 1;
    }
    double given[MT_STUDY_VARS];
    if (values && read_values(values, m->study, given)) {
        cli_err(_("--values expects %d numbers separated by commas (the study's variables), got '%s'"), m->study->nvar, values);
        mt_model_free(m);
        return 2;
    }
    log_start(dir, c);
    MtStudyCaseResult r = {.index = c};
    const char *task = getenv("SLURM_ARRAY_TASK_ID"), *job = getenv("SLURM_ARRAY_JOB_ID");
    if (task && job) snprintf(r.job, sizeof r.job, "slurm %s_%s", job, task);
    else snprintf(r.job, sizeof r.job, "local");
    char fpath[4200];
    study_case_path(dir, c, "motus", fpath, sizeof fpath);
    Frames fr = {fpath, NULL, NULL};
    MtStudyRunHooks hooks = {keep ? frames_begin : NULL, keep ? frames_frame : NULL, &fr, NULL};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    MtStatus rc;
    if (values) { /* an optimisation's case: the point its optimiser chose */
        memcpy(r.values, given, sizeof given);
        rc = mt_study_run_values(m, c, given, &hooks, r.resp, &err);
    } else rc = mt_study_run_case(m, c, &hooks, r.values, r.resp, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    r.seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (fr.run) {
        MtError e2 = {0};
        if (mt_store_run_end(fr.run, rc, rc ? err.msg : "", &e2) && !rc) rc = mt_error_set(&err, e2.code, "", "%s", e2.msg);
    }
    mt_store_close(fr.store);
    if (keep && fr.store) {
        const char *slash = strrchr(fpath, '/');
        put(r.frames, sizeof r.frames, slash ? slash + 1 : fpath);
    }
    r.failed = rc != MT_OK;
    if (rc) snprintf(r.message, sizeof r.message, "%s", err.msg);
    int bad = write_result(dir, m->study, study_key(m->study, version), &r);
    mt_model_free(m);
    return bad;
}
