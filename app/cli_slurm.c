/* cli_slurm.c — a study on a Slurm cluster (docs/studies.md): the unfinished
 * cases become one job array (sbatch --array=0-(M-1)%K) whose task i runs
 * case i of the submission's list with `motus-cli study-case` into its own
 * result file; --collect gathers the result files into the project (its one
 * writer) and names the cases still missing or failed with their job ids.
 * Submitting again runs only what is neither finished nor still queued. The
 * batch script is written to PROJECT.study/submit-N.sbatch for the user to
 * read and edit (#SBATCH lines of their site). */
#include <errno.h>
#include <libintl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app_common.h"
#include "cli_study.h"

#define _(s) gettext(s)

typedef struct {
    const char *partition, *time, *account;
    int max_parallel, dry_run, collect, keep;
    int per_task; /* cases one array task runs in turn (short cases: fewer tasks, less of Slurm's start-up per case) */
    char exe[PATH_MAX]; /* this program, which the tasks run */
} SlurmOpts;

/* Runs argv, its standard output into out (n bytes, cut); the exit status, or -1 when it cannot run. */
static int capture(char *const argv[], char *out, size_t n)
{
    int fd[2];
    if (pipe(fd)) return -1;
    fflush(NULL);
    pid_t p = fork();
    if (p < 0) return -1;
    if (p == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(fd[1]);
    size_t got = 0;
    ssize_t k;
    while ((k = read(fd[0], out + got, n - 1 - got)) > 0 && got + (size_t)k < n - 1) got += (size_t)k;
    if (k > 0) got += (size_t)k;
    out[got] = 0;
    while (read(fd[0], (char[256]){0}, 256) > 0) {} /* the rest, so the child is not stopped by a full pipe */
    close(fd[0]);
    int st;
    while (waitpid(p, &st, 0) < 0 && errno == EINTR) {}
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The cases of submission N: DIR/submit-N.cases, a header line "# cases-per-task C" and one case
 * number a line; *per the cases per task, *job its job id ("" before submission). */
static int read_submission(const char *dir, int n, int **cases, int *per, char *job, size_t jn)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/submit-%d.cases", dir, n);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    *per = 1;
    if (fscanf(f, " # cases-per-task %d", per) != 1 || *per < 1) *per = 1;
    int cap = 64, k = 0, c;
    *cases = malloc(sizeof(int) * (size_t)cap);
    while (*cases && fscanf(f, "%d", &c) == 1) {
        if (k == cap) {
            int *nc = realloc(*cases, sizeof(int) * (size_t)(cap *= 2));
            if (!nc) break;
            *cases = nc;
        }
        (*cases)[k++] = c;
    }
    fclose(f);
    job[0] = 0;
    snprintf(path, sizeof path, "%s/submit-%d.job", dir, n);
    if ((f = fopen(path, "r"))) {
        if (fgets(job, (int)jn, f)) job[strcspn(job, "\n;")] = 0;
        fclose(f);
    }
    return k;
}

/* Marks queued[c] for the cases of submissions whose array tasks Slurm still holds (pending or running). */
static void mark_queued(const char *dir, unsigned char *queued, int ncase)
{
    for (int n = 1;; n++) {
        int *cases = NULL, per;
        char job[64];
        int k = read_submission(dir, n, &cases, &per, job, sizeof job);
        if (k < 0) break;
        if (job[0]) {
            char out[1 << 16];
            char *argv[] = {"squeue", "-h", "-r", "-j", job, "-o", "%K", NULL};
            if (capture(argv, out, sizeof out) == 0)
                for (char *s = strtok(out, "\n"); s; s = strtok(NULL, "\n")) {
                    int t = atoi(s); /* array task t runs lines t·per … t·per + per − 1 */
                    for (int l = t * per; t >= 0 && l < (t + 1) * per && l < k; l++)
                        if (cases[l] >= 0 && cases[l] < ncase) queued[cases[l]] = 1;
                }
        }
        free(cases);
    }
}

/* The job id of the task that ran (or runs) case c in the latest submission holding it ("" none). */
static void case_job(const char *dir, int c, char *buf, size_t n)
{
    buf[0] = 0;
    for (int s = 1;; s++) {
        int *cases = NULL, per;
        char job[64];
        int k = read_submission(dir, s, &cases, &per, job, sizeof job);
        if (k < 0) break;
        for (int l = 0; l < k; l++)
            if (cases[l] == c) snprintf(buf, n, "%s_%d", job[0] ? job : "?", l / per);
        free(cases);
    }
}

static void absolute(const char *path, char *buf, size_t n)
{
    if (!realpath(path, buf)) snprintf(buf, n, "%s", path);
}

static void write_script(FILE *f, const char *project, const char *dir, int n, int ntask, int ncase, const SlurmOpts *o)
{
    char proj[PATH_MAX], d[PATH_MAX + 16];
    const char *exe = o->exe;
    absolute(project, proj, sizeof proj);
    snprintf(d, sizeof d, "%s.study", proj); /* study_dir of the absolute path: it may not exist yet (--dry-run) */
    (void)dir;
    fprintf(f, "#!/bin/bash\n");
    int per = o->per_task, narray = (ntask + per - 1) / per;
    fprintf(f, "# Motus study of %s: %d of its %d cases, %d a task.\n", proj, ntask, ncase, per);
    fprintf(f, "# Task i runs the cases on lines %d i + 2 … %d i + %d of submit-%d.cases, each into its own result file\n", per, per,
            per + 1, n);
    fprintf(f, "# (case-NNNNNN.result); 'motus-cli study %s --collect' gathers them into the project.\n", proj);
    fprintf(f, "# Edit the #SBATCH lines for your site (partition, account, time, memory), then: sbatch %s/submit-%d.sbatch\n", d, n);
    fprintf(f, "#SBATCH --job-name=motus-study\n");
    if (o->max_parallel > 0) fprintf(f, "#SBATCH --array=0-%d%%%d\n", narray - 1, o->max_parallel);
    else fprintf(f, "#SBATCH --array=0-%d\n", narray - 1);
    fprintf(f, "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n");
    if (o->partition) fprintf(f, "#SBATCH --partition=%s\n", o->partition);
    if (o->time) fprintf(f, "#SBATCH --time=%s\n", o->time);
    if (o->account) fprintf(f, "#SBATCH --account=%s\n", o->account);
    fprintf(f, "#SBATCH --chdir=%s\n#SBATCH --output=%s/slurm-%%A_%%a.out\n", d, d);
    fprintf(f, "set -u\nstatus=0\nfirst=$((SLURM_ARRAY_TASK_ID * %d + 2))\n", per);
    fprintf(f, "for case in $(sed -n \"${first},$((first + %d))p\" '%s/submit-%d.cases'); do\n", per - 1, d, n);
    fprintf(f, "    '%s' study-case '%s' --case \"$case\" --dir '%s'%s || status=1\n", exe, proj, d, o->keep ? " --keep-frames" : "");
    fprintf(f, "done\nexit $status\n");
}

static int submit(const char *project, const char *dir, const MtModel *m, unsigned char *done, int ncase, const SlurmOpts *o)
{
    unsigned char *queued = calloc((size_t)ncase, 1);
    int *todo = malloc(sizeof(int) * (size_t)ncase), ntodo = 0, n = 1;
    if (!queued || !todo) {
        free(queued);
        free(todo);
        cli_err("%s", _("out of memory"));
        return 1;
    }
    mark_queued(dir, queued, ncase);
    for (int c = 0; c < ncase; c++)
        if (!done[c] && !queued[c]) todo[ntodo++] = c;
    free(queued);
    for (char p[4300]; snprintf(p, sizeof p, "%s/submit-%d.cases", dir, n), access(p, F_OK) == 0;) n++;
    int rc = 0;
    if (!ntodo) printf(_("study: no case to submit (finished, or still queued: see 'motus-cli study %s --collect')\n"), project);
    else if (o->dry_run) write_script(stdout, project, dir, n, ntodo, ncase, o);
    else {
        char sp[4300], cp[4300], jp[4300];
        snprintf(sp, sizeof sp, "%s/submit-%d.sbatch", dir, n);
        snprintf(cp, sizeof cp, "%s/submit-%d.cases", dir, n);
        snprintf(jp, sizeof jp, "%s/submit-%d.job", dir, n);
        FILE *fs = fopen(sp, "w"), *fc = fopen(cp, "w");
        if (fs) write_script(fs, project, dir, n, ntodo, ncase, o);
        if (fc) fprintf(fc, "# cases-per-task %d\n", o->per_task);
        for (int i = 0; fc && i < ntodo; i++) fprintf(fc, "%d\n", todo[i]);
        if (!fs || !fc || fclose(fs) | fclose(fc)) {
            cli_err(_("cannot write '%s': %s"), sp, strerror(errno));
            rc = 1;
        } else {
            char out[256];
            char *argv[] = {"sbatch", "--parsable", sp, NULL};
            int st = capture(argv, out, sizeof out);
            out[strcspn(out, "\n;")] = 0;
            FILE *fj = st == 0 && out[0] ? fopen(jp, "w") : NULL;
            if (fj) fprintf(fj, "%s\n", out), fclose(fj);
            if (st != 0 || !out[0]) {
                cli_err(_("sbatch could not submit '%s' (status %d); is Slurm installed and its controller reachable?"), sp, st);
                unlink(cp); /* not submitted: the next submission takes these cases again */
                rc = 1;
            } else
                printf(_("study: %d cases submitted as Slurm job %s (array 0-%d); script %s; gather them with 'motus-cli study %s --collect'\n"),
                       ntodo, out, (ntodo + o->per_task - 1) / o->per_task - 1, sp, project);
        }
    }
    (void)m;
    free(todo);
    return rc;
}

/* --collect: the result files into the project, then what is missing or failed. */
static int collect(const char *project, const char *dir, MtStore *store, const MtModel *m, unsigned long long key,
                   unsigned char *done, int ncase)
{
    MtError err = {0};
    int got = study_collect_files(store, m, dir, key, done, ncase, NULL, &err);
    if (got < 0) return cli_fail(&err);
    unsigned char *queued = calloc((size_t)ncase, 1);
    if (!queued) return 1;
    mark_queued(dir, queued, ncase);
    int ok = 0, bad = 0, missing = 0, inq = 0;
    MtStudyCaseResult *rows;
    int nr = mt_store_study_cases(store, m->study, &rows, &err);
    for (int k = 0; k < nr; k++)
        if (rows[k].failed) printf(_("failed: case %d (job %s): %s\n"), rows[k].index, rows[k].job, rows[k].message);
    free(nr > 0 ? rows : NULL);
    for (int c = 0; c < ncase; c++) {
        ok += done[c] == 1, bad += done[c] == 2;
        if (done[c]) continue;
        char job[96];
        case_job(dir, c, job, sizeof job);
        if (queued[c]) inq++, printf(_("queued: case %d (job %s)\n"), c, job);
        else if (job[0]) missing++, printf(_("missing: case %d (job %s)\n"), c, job);
        else missing++, printf(_("missing: case %d (never submitted)\n"), c);
    }
    free(queued);
    printf(_("study: %d collected now; %d cases, %d ok, %d failed, %d queued, %d missing\n"), got, ncase, ok, bad, inq, missing);
    if (missing) printf(_("run 'motus-cli study %s --slurm' again to submit the missing cases\n"), project);
    return bad || missing || inq ? 1 : 0;
}

int cli_slurm(const char *project, MtStore *store, const MtModel *m, long version, unsigned char *done, int ncase,
              int argc, char **argv)
{
    SlurmOpts o = {.per_task = 1};
    study_self_exe(argv[0], o.exe, sizeof o.exe);
    for (int i = 3; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--partition") && v) o.partition = v, i++;
        else if (!strcmp(a, "--time") && v) o.time = v, i++;
        else if (!strcmp(a, "--account") && v) o.account = v, i++;
        else if (!strcmp(a, "--max-parallel") && v) {
            o.max_parallel = atoi(v), i++;
            if (o.max_parallel < 1) {
                cli_err(_("--max-parallel expects a number of tasks, got '%s'"), v);
                return 2;
            }
        } else if (!strcmp(a, "--cases-per-task") && v) {
            o.per_task = atoi(v), i++;
            if (o.per_task < 1) {
                cli_err(_("--cases-per-task expects a number of cases, got '%s'"), v);
                return 2;
            }
        } else if (!strcmp(a, "--dry-run")) o.dry_run = 1;
        else if (!strcmp(a, "--collect")) o.collect = 1;
        else if (!strcmp(a, "--keep-frames")) o.keep = 1;
    }
    for (const char *const *s = (const char *const[]){o.partition, o.time, o.account, NULL}; *s; s++)
        if (strpbrk(*s, "\n'\"$`\\")) {
            cli_err(_("'%s': quotes, '$', '`', '\\' and line breaks are not accepted in Slurm settings"), *s);
            return 2;
        }
    char dir[4200];
    study_dir(project, dir, sizeof dir);
    if (strpbrk(project, "\n'%")) {
        cli_err(_("'%s': a project whose path holds a quote, '%%' or a line break cannot be put in a batch script; rename it"), project);
        return 2;
    }
    if (!o.dry_run && mkdir(dir, 0777) && errno != EEXIST) {
        cli_err(_("cannot create the study's directory '%s': %s"), dir, strerror(errno));
        return 1;
    }
    unsigned long long key = study_key(m->study, version);
    if (o.collect) return collect(project, dir, store, m, key, done, ncase);
    MtError err = {0};
    if (!o.dry_run && study_collect_files(store, m, dir, key, done, ncase, NULL, &err) < 0) return cli_fail(&err);
    return submit(project, dir, m, done, ncase, &o);
}
