/* cli_project.c — motus-cli with projects (one SQLite file, include/motus/store.h,
 * docs/project-format.md): import and export of the text form, runs stored
 * in the project, the list of runs, CSV export of a stored run (any result
 * column, computed from the frames), deleting runs and compacting. */
#include "cli_project.h"

#include <errno.h>
#include <libintl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "motus/run.h"
#include "motus/results.h"
#include "motus/store.h"

#include "app_common.h"

#define _(s) gettext(s)


static int fail(const MtError *e) { return cli_fail(e); }

void cli_project_usage(FILE *f)
{
    fputs(_("projects (one SQLite file, docs/project-format.md); MODEL above may be a project too:\n"
            "  import MODEL.motus.txt PROJECT.motus\n"
            "                 save a text model into a project (created if absent)\n"
            "  export PROJECT.motus\n"
            "                 write the project's model in canonical text form to standard output\n"
            "  run PROJECT.motus [run options]\n"
            "                 integrate and store the run (frames) in the project; --out still writes a CSV\n"
            "  runs PROJECT.motus\n"
            "                 list the stored runs\n"
            "  export-csv PROJECT.motus [--run N] [--columns A,B,…] [--every K] [--out FILE.csv]\n"
            "                 result columns of a stored run (default: the last run, every column)\n"
            "  delete-run PROJECT.motus --run N\n"
            "                 delete a run and its frames\n"
            "  compact PROJECT.motus\n"
            "                 give the space of deleted runs back to the file system\n"),
          f);
}

int cli_project_handles(const char *cmd)
{
    return !strcmp(cmd, "import") || !strcmp(cmd, "runs") || !strcmp(cmd, "export-csv") || !strcmp(cmd, "delete-run") ||
           !strcmp(cmd, "compact");
}

/* Opens a project for a command that reads it: for writing when the file
 * allows (so that interrupted runs are marked and old formats upgraded),
 * else read-only. */
static MtStore *open_for_reading(const char *path, MtError *err)
{
    struct stat sb;
    int writable = stat(path, &sb) == 0 && (sb.st_mode & 0222) && access(path, W_OK) == 0;
    return mt_store_open(path, writable ? 0 : MT_STORE_READONLY, err);
}

/* ---- the hooks of run, check and export --------------------------------------- */

static MtStore *g_store; /* the project a 'run' goes to */
static char *g_store_path;

static void close_store(void)
{
    mt_store_close(g_store);
    g_store = NULL;
    free(g_store_path);
    g_store_path = NULL;
}

MtModel *cli_load_model(const char *cmd, const char *path, MtError *err)
{
    /* a file named as a project is read as one, so an empty or damaged .motus is refused as a project */
    size_t n = strlen(path);
    int named_project = n > 6 && !strcmp(path + n - 6, ".motus");
    if (!named_project && !mt_store_is_sqlite_file(path)) return mt_model_load(path, err);
    int run = !strcmp(cmd, "run");
    MtStore *s = run ? mt_store_open(path, 0, err) : open_for_reading(path, err);
    if (!s) return NULL;
    if (!strcmp(cmd, "check")) {
        if (mt_store_check(s, err)) {
            mt_store_close(s);
            return NULL;
        }
        MtRunInfo *runs;
        int n = mt_store_list_runs(s, &runs, err);
        free(runs);
        long v = mt_store_model_version(s, err);
        if (n < 0 || v < 0) {
            mt_store_close(s);
            return NULL;
        }
        printf(_("project: %s, model version %ld, %d runs stored, file intact\n"), path, v, n);
        if (mt_store_recovered_runs(s))
            printf(_("project: %d runs whose program had stopped were marked interrupted\n"), mt_store_recovered_runs(s));
    }
    MtModel *m = mt_store_load_model(s, NULL, err);
    if (m && run) {
        g_store = s;
        g_store_path = strdup(path);
        atexit(close_store);
    } else mt_store_close(s);
    return m;
}

struct CliStoreRun {
    MtRun *run;
};

int cli_store_run_begin(const char *path, const MtSystem *s, CliStoreRun **out, MtError *err)
{
    *out = NULL;
    if (!g_store || !g_store_path || strcmp(path, g_store_path)) return 0; /* a text model */
    CliStoreRun *r = calloc(1, sizeof *r);
    if (!r) {
        mt_error_set(err, MT_ERR_NOMEM, "", "%s", _("out of memory"));
        return 1;
    }
    r->run = mt_store_run_begin(g_store, s, mt_system_solver(s), err);
    if (!r->run) {
        free(r);
        return 1;
    }
    *out = r;
    return 0;
}

int cli_store_run_frame(CliStoreRun *r, MtState *st) { return mt_store_run_frame(r->run, st); }

void cli_store_run_events(CliStoreRun *r, const MtState *st)
{
    if (!r) return;
    const MtModel *m = mt_system_model(mt_state_system(st));
    double te;
    for (int e = 0; e < m->nevent; e++) {
        if (!mt_state_event_fired(st, e, &te)) continue;
        char line[256];
        snprintf(line, sizeof line, _("event %s: %s"), m->event[e].name, mt_event_action_name(m->event[e].action));
        MtError err = {0};
        mt_store_run_log(r->run, "info", te, line, &err);
    }
}

int cli_store_run_end(CliStoreRun *r, MtStatus result, const MtError *run_err, int quiet)
{
    if (!r) return 0;
    long id = mt_store_run_id(r->run), frames = mt_store_run_frames(r->run);
    MtError err = {0};
    MtStatus rc = mt_store_run_end(r->run, result, result ? run_err->msg : "", &err);
    free(r);
    if (rc) {
        cli_err(_("the run could not be stored completely: %s"), err.msg);
        close_store();
        return 1;
    }
    if (!quiet)
        printf(_("run %ld stored in %s: %ld frames, %s\n"), id, g_store_path, frames,
               /* TRANSLATORS: status of a stored run */
               result == MT_OK ? _("finished") : _("failed"));
    close_store();
    return 0;
}

/* ---- commands ---------------------------------------------------------------------- */

static int need_project(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && !mt_store_is_sqlite_file(path)) {
        cli_err(_("'%s' is not a project file (a .motus SQLite file); import a text model with 'motus-cli import MODEL.motus.txt PROJECT.motus'"),
             path);
        return 1;
    }
    return 0;
}

static int parse_run_id(const char *s, long *id)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < 1) {
        cli_err(_("--run expects a run number, got '%s'"), s);
        return -1;
    }
    *id = v;
    return 0;
}

static int cmd_import(int argc, char **argv)
{
    if (argc < 4) {
        cli_err("%s", _("import needs a text model and a project: import MODEL.motus.txt PROJECT.motus"));
        return 2;
    }
    const char *src = argv[2], *dst = argv[3];
    int quiet = 0;
    for (int i = 4; i < argc; i++) {
        if (!strcmp(argv[i], "--quiet")) quiet = 1;
        else {
            cli_err(_("unknown option '%s'"), argv[i]);
            return 2;
        }
    }
    MtError err = {0};
    if (mt_store_is_sqlite_file(src)) {
        cli_err(_("'%s' is already a project; import reads text models"), src);
        return 1;
    }
    MtModel *m = mt_model_load(src, &err);
    if (!m) return fail(&err);
    MtStore *s = mt_store_open(dst, MT_STORE_CREATE, &err);
    if (!s) {
        mt_model_free(m);
        return fail(&err);
    }
    long version = 0;
    MtStatus rc = mt_store_save_model(s, m, &version, &err);
    mt_model_free(m);
    mt_store_close(s);
    if (rc) return fail(&err);
    if (!quiet) printf(_("%s: model version %ld saved from %s\n"), dst, version, src);
    return 0;
}

static void fmt_time(char *buf, size_t n, double t)
{
    if (isnan(t)) snprintf(buf, n, "-");
    else snprintf(buf, n, "%.6g", t);
}

static int cmd_runs(int argc, char **argv)
{
    const char *path = argv[2];
    if (argc > 3) {
        cli_err(_("unknown option '%s'"), argv[3]);
        return 2;
    }
    if (need_project(path)) return 1;
    MtError err = {0};
    MtStore *s = open_for_reading(path, &err);
    if (!s) return fail(&err);
    MtRunInfo *runs;
    int n = mt_store_list_runs(s, &runs, &err);
    mt_store_close(s);
    if (n < 0) return fail(&err);
    if (n == 0) {
        printf(_("%s: no runs stored\n"), path);
        return 0;
    }
    /* TRANSLATORS: column headings of the list of runs; keep the widths */
    printf("%s\n", _("  run  status       method    frames  t from       t to         model  started                   ended"));
    for (int i = 0; i < n; i++) {
        const MtRunInfo *r = &runs[i];
        const char *status = mt_run_status_name(r->status);
        if (r->status == MT_RUN_RUNNING && r->writer_alive == 0) status = "interrupted"; /* read-only view */
        char t0[32], t1[32];
        fmt_time(t0, sizeof t0, r->t_first);
        fmt_time(t1, sizeof t1, r->t_last);
        printf("%5ld  %-11s  %-6s  %8ld  %-11s  %-11s  v%-5ld %-24s  %s\n", r->id, status, mt_method_name(r->solver.method),
               r->frames, t0, t1, r->model_version, r->started, r->ended[0] ? r->ended : "-");
        if (r->message[0]) printf("       %s\n", r->message);
    }
    free(runs);
    return 0;
}

static int cmd_delete_run(int argc, char **argv)
{
    const char *path = argv[2];
    long id = 0;
    for (int i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "--run") && i + 1 < argc) {
            if (parse_run_id(argv[++i], &id)) return 2;
        } else {
            cli_err(_("unknown option '%s'"), argv[i]);
            return 2;
        }
    }
    if (!id) {
        cli_err("%s", _("delete-run needs --run N (see 'motus-cli runs PROJECT')"));
        return 2;
    }
    if (need_project(path)) return 1;
    MtError err = {0};
    MtStore *s = mt_store_open(path, 0, &err);
    if (!s) return fail(&err);
    MtStatus rc = mt_store_delete_run(s, id, &err);
    mt_store_close(s);
    if (rc) return fail(&err);
    printf(_("%s: run %ld deleted (run 'compact' to give its space back)\n"), path, id);
    return 0;
}

/* Bytes of a project with its write-ahead log (pending pages are part of it
 * until they are copied into the file). */
static long long file_bytes(const char *path)
{
    struct stat sb;
    char wal[PATH_MAX];
    long long n = stat(path, &sb) == 0 ? (long long)sb.st_size : 0;
    snprintf(wal, sizeof wal, "%s-wal", path);
    if (stat(wal, &sb) == 0) n += (long long)sb.st_size;
    return n;
}

static int cmd_compact(int argc, char **argv)
{
    const char *path = argv[2];
    if (argc > 3) {
        cli_err(_("unknown option '%s'"), argv[3]);
        return 2;
    }
    if (need_project(path)) return 1;
    MtError err = {0};
    MtStore *s = mt_store_open(path, 0, &err);
    if (!s) return fail(&err);
    long long before = file_bytes(path);
    MtStatus rc = mt_store_compact(s, &err);
    mt_store_close(s);
    if (rc) return fail(&err);
    long long after = file_bytes(path);
    if (after <= before) printf(_("%s: compacted from %lld to %lld bytes\n"), path, before, after);
    else
        printf(_("%s: compacted, but it is now %lld bytes, more than the %lld before: another program wrote to it "
                 "meanwhile\n"), path, after, before);
    return 0;
}

/* The system whose result columns are computed for a run: the run's own
 * model; a column it lacks is looked for in the project's current model,
 * used when it has the same bodies and constraint equations. */
typedef struct {
    MtSystem *sys;
    MtState *st;
    MtCsv *csv;
    double *val;
} Eval;

static void eval_free(Eval *e)
{
    mt_csv_free(e->csv);
    mt_state_free(e->st);
    mt_system_free(e->sys);
    free(e->val);
    memset(e, 0, sizeof *e);
}

static int eval_init(Eval *e, MtSystem *sys, MtError *err)
{
    memset(e, 0, sizeof *e);
    e->sys = sys;
    e->st = mt_state_new(sys, err);
    if (!e->st) return -1;
    e->csv = mt_csv_new(sys, NULL, err);
    if (!e->csv) return -1;
    e->val = calloc((size_t)mt_csv_ncols(e->csv), sizeof(double));
    if (!e->val) {
        mt_error_set(err, MT_ERR_NOMEM, "", "%s", _("out of memory"));
        return -1;
    }
    return 0;
}

static int find_col(const MtCsv *c, const char *name)
{
    for (int k = 0; k < mt_csv_ncols(c); k++)
        if (!strcmp(mt_csv_colname(c, k), name)) return k;
    return -1;
}

static int same_layout(const MtSystem *a, const MtSystem *b)
{
    MtSystemInfo ia, ib;
    mt_system_info(a, &ia);
    mt_system_info(b, &ib);
    const MtModel *ma = mt_system_model(a), *mb = mt_system_model(b);
    if (ma->nbody != mb->nbody || ia.nrow != ib.nrow) return 0;
    for (int i = 0; i < ma->nbody; i++)
        if (strcmp(ma->body[i].name, mb->body[i].name)) return 0;
    return 1;
}

static int cmd_export_csv(int argc, char **argv)
{
    const char *path = argv[2], *outpath = NULL, *columns = NULL;
    long id = 0, every = 1;
    for (int i = 3; i < argc; i++) {
        const char *o = argv[i];
        if (i + 1 >= argc) {
            cli_err(_("option %s needs a value"), o);
            return 2;
        }
        const char *a = argv[++i];
        if (!strcmp(o, "--run")) {
            if (parse_run_id(a, &id)) return 2;
        } else if (!strcmp(o, "--columns") || !strcmp(o, "--sensors")) columns = a;
        else if (!strcmp(o, "--out")) outpath = a;
        else if (!strcmp(o, "--every")) {
            char *end;
            every = strtol(a, &end, 10);
            if (end == a || *end || every < 1) {
                cli_err("%s", _("--every needs a whole number >= 1"));
                return 2;
            }
        } else {
            cli_err(_("unknown option '%s'"), o);
            return 2;
        }
    }
    if (need_project(path)) return 1;
    MtError err = {0};
    MtStore *s = open_for_reading(path, &err);
    if (!s) return fail(&err);
    int code = 1;
    Eval run = {0}, cur = {0};
    MtFrameReader *fr = NULL;
    MtModel *m = NULL;
    FILE *out = NULL;
    int *src = NULL, *col = NULL, ncol = 0;
    if (!id) { /* the last run */
        MtRunInfo *runs;
        int n = mt_store_list_runs(s, &runs, &err);
        if (n < 0) goto done;
        if (n == 0) {
            cli_err(_("%s: no runs stored"), path);
            free(runs);
            goto done;
        }
        id = runs[n - 1].id;
        free(runs);
    }
    MtSystem *sys = mt_store_run_system(s, id, &err);
    if (!sys || eval_init(&run, sys, &err)) {
        if (!run.sys) mt_system_free(sys);
        goto done;
    }
    /* the columns: all of the run's model, or those asked for */
    int nall = mt_csv_ncols(run.csv);
    char *list = columns ? strdup(columns) : NULL;
    int want = columns ? 1 : nall;
    if (columns)
        for (const char *c = columns; *c; c++) want += *c == ',';
    src = calloc((size_t)want, sizeof *src);
    col = calloc((size_t)want, sizeof *col);
    if (!src || !col || (columns && !list)) {
        free(list);
        mt_error_set(&err, MT_ERR_NOMEM, "", "%s", _("out of memory"));
        goto done;
    }
    if (!columns)
        for (int k = 0; k < nall; k++) col[ncol++] = k;
    else {
        char *save = NULL;
        for (char *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
            while (*name == ' ') name++;
            int k = find_col(run.csv, name);
            if (k < 0) { /* maybe a sensor added to the model since */
                if (!cur.sys) {
                    m = mt_store_load_model(s, NULL, &err);
                    MtSystem *cs = m ? mt_system_compile(m, &err) : NULL;
                    if (cs && mt_system_assemble(cs, &err)) { mt_system_free(cs); cs = NULL; }
                    if (!cs || eval_init(&cur, cs, &err)) {
                        if (!cur.sys) mt_system_free(cs);
                        free(list);
                        goto done;
                    }
                }
                k = find_col(cur.csv, name);
                if (k < 0 || !same_layout(run.sys, cur.sys)) {
                    if (k < 0) cli_err(_("run %ld has no column '%s' (its columns are the header of 'export-csv' without --columns)"), id, name);
                    else
                        cli_err(_("column '%s' of the current model cannot be computed for run %ld: its bodies or joints have changed since"),
                             name, id);
                    free(list);
                    err.msg[0] = 0;
                    goto done;
                }
                src[ncol] = 1;
            }
            col[ncol++] = k;
        }
        free(list);
    }
    fr = mt_frames_open(s, id, &err);
    if (!fr) goto done;
    out = outpath ? fopen(outpath, "w") : stdout;
    if (!out) {
        int e = errno;
        cli_err(_("cannot write '%s': %s"), outpath, strerror(e));
        err.msg[0] = 0;
        goto done;
    }
    for (int i = 0; i < ncol; i++)
        fprintf(out, "%s%s", i ? "," : "", mt_csv_colname(src[i] ? cur.csv : run.csv, col[i]));
    fputc('\n', out);
    long n = mt_frames_count(fr);
    int nb = mt_frames_nbody(fr), nr = mt_frames_nrow(fr);
    for (long f = 0; f < n; f++) {
        const double *fv = mt_frames_get(fr, f, &err);
        if (!fv) goto done;
        /* every frame is evaluated (joint angles count turns in order); rows every K-th */
        if (mt_state_from_frame(run.st, fv, nb, nr, &err)) goto done;
        mt_frame_values(run.csv, run.st, run.val);
        if (cur.sys) {
            if (mt_state_from_frame(cur.st, fv, nb, nr, &err)) goto done;
            mt_frame_values(cur.csv, cur.st, cur.val);
        }
        if (f % every && f != n - 1) continue;
        for (int i = 0; i < ncol; i++) fprintf(out, i ? ",%.17g" : "%.17g", (src[i] ? cur.val : run.val)[col[i]]);
        fputc('\n', out);
    }
    if (ferror(out) || (outpath && fclose(out))) {
        if (outpath) out = NULL;
        cli_err(_("error writing '%s'"), outpath ? outpath : "stdout");
        err.msg[0] = 0;
        goto done;
    }
    if (outpath) out = NULL;
    code = 0;
done:
    if (code && err.msg[0]) fail(&err);
    if (out && out != stdout) fclose(out);
    free(src);
    free(col);
    mt_frames_close(fr);
    eval_free(&run);
    eval_free(&cur);
    mt_model_free(m);
    mt_store_close(s);
    return code;
}

int cli_project_main(int argc, char **argv)
{
    const char *cmd = argv[1];
    if (!strcmp(cmd, "import")) return cmd_import(argc, argv);
    if (!strcmp(cmd, "runs")) return cmd_runs(argc, argv);
    if (!strcmp(cmd, "export-csv")) return cmd_export_csv(argc, argv);
    if (!strcmp(cmd, "delete-run")) return cmd_delete_run(argc, argv);
    if (!strcmp(cmd, "compact")) return cmd_compact(argc, argv);
    return 2;
}
