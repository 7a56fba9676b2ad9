/* motus-cli.c — the command-line program: runs, checks and exports models
 * without a display (same core as the application). */
#include <errno.h>
#include <libintl.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli_project.h"
#include "cli_study.h"
#include "motus/check.h"
#include "motus/flex.h"
#include "motus/results.h"
#include "motus/run.h"
#include "motus/model.h"
#include "motus/study.h"

#define MOTUS_VERSION "0.1.0"

/* Where the message catalogues are installed (CMAKE_INSTALL_FULL_LOCALEDIR). */
#ifndef MOTUS_INSTALL_LOCALEDIR
#define MOTUS_INSTALL_LOCALEDIR "/usr/local/share/locale"
#endif

#include "app_common.h"

#define _(s) gettext(s)

/* check: every mesh shape's STL/OBJ file reads (path relative to the model's
 * directory). 0, or 1 with err naming the file and the body. */
static int check_mesh_shapes(const MtModel *m, MtError *err)
{
    for (int i = 0; i < m->nshape; i++) {
        const MtShapeSpec *sh = &m->shape[i];
        if (sh->kind != MT_SHAPE_MESH) continue;
        int rel = sh->mesh[0] != '/' && m->basedir[0];
        size_t len = strlen(m->basedir) + strlen(sh->mesh) + 2;
        char *path = malloc(len);
        if (!path) return 1;
        snprintf(path, len, "%s%s%s", rel ? m->basedir : "", rel ? "/" : "", sh->mesh);
        double *xyz = NULL;
        MtError e = {0};
        long n = mt_shape_mesh_read(path, &xyz, &e);
        free(xyz);
        free(path);
        if (n < 0) {
            const char *body = sh->body >= 0 && sh->body < m->nbody ? m->body[sh->body].name : "ground";
            /* TRANSLATORS: %s are a body's name and the reader's message (naming the file). */
            mt_error_set(err, e.code, body, _("body '%s': mesh shape: %s"), body, e.msg);
            return 1;
        }
    }
    return 0;
}

/* The parts of the usage text; `motus-cli COMMAND --help` prints its command's. */
static void usage_model(FILE *f)
{
    fputs(_("usage: motus-cli COMMAND MODEL [options]\n"
            "commands:\n"
            "  run MODEL      integrate the model and write results\n"
            "  check MODEL    validate and print diagnostics (degrees of freedom, redundant equations)\n"
            "  export MODEL   write the model in canonical text form to standard output\n"),
          f);
}

static void usage_run(FILE *f)
{
    fputs(_("run options:\n"
            "  --until T      end time, s\n"
            "  --step H       step of the fixed-step methods / output interval, s\n"
            "  --method M     rk4 | dp54 (also rk45, dopri5) | adams | euler | park | hht | galpha\n"
            "  --every N      write every N-th frame\n"
            "  --rtol R       relative tolerance of dp54\n"
            "  --atol A       absolute tolerance of dp54\n"
            "  --ts T         Baumgarte stabilisation period, s\n"
            "  --xi X         Baumgarte stabilisation damping\n"
            "  --correct none|positions|velocities|both\n"
            "                 projection after each step\n"
            "  --KEY VALUE    any other setting of the solver line (alpha, rho, loops, nu)\n"
            "  --out FILE.csv results (default: none, prints a summary)\n"
            "  --quiet        no summary\n"),
          f);
    fputs(_("options follow MODEL; settings given here override the model's solver line\n"), f);
}

static void usage_analyses(FILE *f)
{
    fputs(_("analyses (docs/analyses.md):\n"
            "  kinematics MODEL [--until T --step H --every N --out F.csv]\n"
            "                 fully driven mechanism: motion from the drivers, reactions by inverse dynamics\n"
            "  statics MODEL [--relax] [--out F.csv]\n"
            "                 static equilibrium, reactions and stability (--relax: settle by dynamic\n"
            "                 relaxation first, towards a stable rest, then Newton)\n"
            "  modes MODEL [--at equilibrium|initial]\n"
            "                 eigenfrequencies, damping ratios and mode shapes of the linearised system\n"),
          f);
}

static void usage_reduce(FILE *f)
{
    fputs(_("flexible bodies (docs/flexible-bodies.md):\n"
            "  reduce MESH [--method cb|free|guyan|attach] [--modes N] [--interface NODES|auto]\n"
            "              [--spider NSET] [--fix NSET] [--material E,NU,RHO] [--out FILE]\n"
            "                 a Gmsh, Abaqus/CalculiX or Nastran mesh to a reduced flexible body: frequencies,\n"
            "                 effective masses, time and memory (more options in the documentation)\n"),
          f);
}

static void usage(FILE *f)
{
    usage_model(f);
    usage_run(f);
    cli_project_usage(f);
    usage_analyses(f);
    usage_reduce(f);
    cli_study_usage(f);
    /* motus-cli links no OpenGL: the headless export is the application's (README, "The application") */
    fputs(_("animation export (a video or GIF of the 3D view): the application draws it, headless under xvfb-run:\n"
            "  motus --run --quit-after-run --export-video OUT.mp4 [--fps N] [--size WxH] [--from T0] [--to T1]\n"
            "        [--export-plots] MODEL\n"),
          f);
}

/* `motus-cli COMMAND ... --help|-h`: the usage of that command, exit 0; -1 for an unknown command. */
static int command_usage(const char *cmd, FILE *f)
{
    if (!strcmp(cmd, "run") || !strcmp(cmd, "check") || !strcmp(cmd, "export")) {
        usage_model(f);
        usage_run(f);
        if (!strcmp(cmd, "run") || !strcmp(cmd, "export")) cli_project_usage(f); /* they take projects too */
    } else if (!strcmp(cmd, "kinematics") || !strcmp(cmd, "statics") || !strcmp(cmd, "modes")) usage_analyses(f);
    else if (!strcmp(cmd, "reduce")) usage_reduce(f);
    else if (!strcmp(cmd, "study") || !strcmp(cmd, "study-case")) cli_study_usage(f);
    else if (cli_project_handles(cmd)) cli_project_usage(f);
    else return -1;
    return 0;
}

/* The analyses besides 'run' (cli_analysis.c): argv as given to main. */
int cli_kinematics(int argc, char **argv);
int cli_statics(int argc, char **argv);
int cli_modes(int argc, char **argv);
/* The model's derived curves appended to the CSV written by a run (cli_derived.c); -1 and err when they cannot be. */
int cli_derived_append(const char *path, const MtModel *m, MtError *err);

static int fail(const MtError *e) { return cli_fail(e); }

/* Every column a `plot` or `derived` line names is one the run writes (or a derived curve's); -1 and err naming
 * the first that is not. */
static int check_plots(const MtSystem *s, MtError *err)
{
    MtCsv *c = mt_csv_new(s, NULL, err);
    if (!c) return -1;
    int bad = 0;
    const MtModel *m = mt_system_model(s);
    /* a derived curve's curves: columns or derived curves on earlier lines */
    for (int d = 0; d < m->nderived && !bad; d++)
        for (int k = 0; k < mt_csv_ncols(c) && !bad; k++)
            if (!strcmp(mt_csv_colname(c, k), m->derived[d].name)) {
                mt_error_set(err, MT_ERR_MODEL, m->derived[d].name,
                             _("derived curve '%s': a result column has that name; choose another"), m->derived[d].name);
                bad = -1;
            }
    for (int d = 0; d < m->nderived && !bad; d++)
        for (int a = 0; a < m->derived[d].narg && !bad; a++) {
            const char *name = m->derived[d].arg[a];
            int found = mt_model_find_derived(m, name) >= 0 && mt_model_find_derived(m, name) < d;
            for (int k = 0; k < mt_csv_ncols(c) && !found; k++) found = !strcmp(mt_csv_colname(c, k), name);
            if (!found) {
                mt_error_set(err, MT_ERR_MODEL, m->derived[d].name,
                             _("derived curve '%s': the run writes no column '%s' and no derived curve above has "
                               "that name"),
                             m->derived[d].name, name);
                bad = -1;
            }
        }
    for (int p = 0; p < m->nplot && !bad; p++)
        for (int i = -1; i < m->plot[p].ncurve && !bad; i++) {
            const char *name = i < 0 ? m->plot[p].x : m->plot[p].curve[i];
            if (!name[0]) continue;
            int found = mt_model_find_derived(m, name) >= 0;
            for (int k = 0; k < mt_csv_ncols(c) && !found; k++) found = !strcmp(mt_csv_colname(c, k), name);
            if (!found) {
                mt_error_set(err, MT_ERR_MODEL, "plot",
                             _("plot %d: the run writes no column '%s' (see the header of 'motus-cli run MODEL --out "
                               "FILE.csv')"),
                             p + 1, name);
                bad = -1;
            }
        }
    mt_csv_free(c);
    return bad;
}

/* Every column a study response reads is one the run writes; -1 and err naming the first response that reads another. */
static int check_study(const MtSystem *s, MtError *err)
{
    const MtModel *m = mt_system_model(s);
    if (!m->study) return 0;
    MtCsv *c = mt_csv_new(s, NULL, err);
    if (!c) return -1;
    int bad = 0;
    for (int r = 0; r < m->study->nresp && !bad; r++) {
        const MtStudyResponse *rs = &m->study->resp[r];
        if (rs->kind == MT_RESP_EXPR) continue;
        int found = 0;
        for (int k = 0; k < mt_csv_ncols(c) && !found; k++) found = !strcmp(mt_csv_colname(c, k), rs->column);
        if (!found) {
            mt_error_set(err, MT_ERR_MODEL, rs->name, _("study response '%s': the run writes no column '%s'"), rs->name, rs->column);
            bad = -1;
        }
    }
    mt_csv_free(c);
    return bad;
}

/* The model check (motus/check.h): the counts, then every finding. */
static int print_diagnostics(const MtSystem *s, FILE *f, MtError *err)
{
    const MtModel *m = mt_system_model(s);
    MtCheckReport r;
    if (mt_check_system(s, &r, err)) return -1;
    const MtSystemInfo *in = &r.info;
    fprintf(f, _("model: %s\n"), m->title[0] ? m->title : _("(untitled)"));
    fprintf(f, _("bodies %d, markers %d, joints %d, drivers %d, springs %d\n"), m->nbody, m->nmarker, m->njoint,
            m->ndriver, m->nspring);
    fprintf(f, _("constraint equations: %d, independent: %d, redundant: %d\n"), in->nrow, in->nrow - in->ndep, in->ndep);
    fprintf(f, _("degrees of freedom: %d by Gruebler count, %d by Jacobian rank\n"), in->dof_grubler, in->dof_rank);
    for (int i = 0; i < r.nitem; i++)
        fprintf(f, "%s: %s\n", r.item[i].level == MT_CHECK_WARNING ? _("warning") : r.item[i].level == MT_CHECK_ERROR ? _("error") : _("note"),
                r.item[i].text);
    int errors = mt_check_count(&r, MT_CHECK_ERROR);
    if (errors) mt_error_set(err, MT_ERR_MODEL, "", _("check: the model has %d errors (above); it cannot run"), errors);
    mt_check_free(&r);
    return errors ? -1 : 0;
}

typedef struct {
    MtCsv *csv;
    FILE *out;
    CliStoreRun *store; /* run PROJECT: the run in the project */
} RunCtx;

static int frame_cb(void *user, MtState *st)
{
    RunCtx *c = user;
    if (c->store && cli_store_run_frame(c->store, st)) return 1;
    return mt_csv_frame(c->csv, st);
}

int main(int argc, char **argv)
{
    app_init_i18n();
    app_init_blas();
    if (argc >= 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version"))) {
        printf("motus-cli %s\n", MOTUS_VERSION);
        return 0;
    }
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help") || !strcmp(argv[1], "-h"))) {
        usage(stdout);
        return 0;
    }
    if (argc == 2 && !command_usage(argv[1], stderr)) return 2; /* a command without its MODEL */
    if (argc < 3) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1], *path = argv[2];
    /* every command answers --help and -h, wherever they stand after it (not taken for a file name) */
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            if (!command_usage(cmd, stdout)) return 0;
            break;
        }
    if (!strcmp(cmd, "kinematics")) return cli_kinematics(argc, argv);
    if (!strcmp(cmd, "statics")) return cli_statics(argc, argv);
    if (!strcmp(cmd, "modes")) return cli_modes(argc, argv);
    int cli_reduce(int argc, char **argv); /* cli_reduce.c: a mesh to a flexible body */
    if (!strcmp(cmd, "reduce")) return cli_reduce(argc, argv);
    if (cli_project_handles(cmd)) return cli_project_main(argc, argv);
    if (!strcmp(cmd, "study")) return cli_study(argc, argv);
    if (!strcmp(cmd, "study-case")) return cli_study_case(argc, argv);
    if (strcmp(cmd, "run") && strcmp(cmd, "check") && strcmp(cmd, "export")) {
        cli_err(_("unknown command '%s'"), cmd);
        usage(stderr);
        return 2;
    }
    MtError err = {0};
    MtModel *m = cli_load_model(cmd, path, &err); /* a text model or a project */
    if (!m) return fail(&err);
    const char *outpath = NULL;
    int quiet = 0;
    for (int i = 3; i < argc; i++) {
        const char *o = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(o, "--quiet")) { quiet = 1; continue; }
        if (!has) {
            cli_err(_("option %s needs a value"), o);
            mt_model_free(m);
            return 2;
        }
        const char *a = argv[++i];
        int bad = 0;
        int comp;
        if (!strcmp(o, "--out")) outpath = a;
        else if (!strncmp(o, "--", 2) && mt_schema_find(MT_ENT_SOLVER, o + 2, &comp) && comp < 0) { /* any solver setting */
            if (mt_schema_set_text(m, MT_ENT_SOLVER, 0, o + 2, a, "solver", &err)) {
                cli_err("%s", err.msg);
                bad = 1;
            }
        } else { cli_err(_("unknown option '%s'"), o); bad = 1; }
        if (bad) { mt_model_free(m); return 2; }
    }
    if (!strcmp(cmd, "export")) {
        MtStatus rc = mt_model_write(m, stdout, &err);
        mt_model_free(m);
        return rc ? fail(&err) : 0;
    }
    MtSystem *s = mt_system_compile(m, &err);
    if (s && mt_system_assemble(s, &err)) { mt_system_free(s); s = NULL; }
    mt_model_free(m);
    if (!s) return fail(&err);
    if (!strcmp(cmd, "check")) {
        int bad = print_diagnostics(s, stdout, &err) || check_plots(s, &err) || check_study(s, &err) || check_mesh_shapes(mt_system_model(s), &err);
        mt_system_free(s);
        if (bad) return fail(&err);
        fputs(_("check: OK\n"), stdout);
        return 0;
    }
    const MtSolverSpec *sv = mt_system_solver(s);
    /* refused before a CSV or a stored run is begun ('until 1e300' ran for ever) */
    if (mt_run_check_length(0, sv->until, sv->step, _("solver"), &err)) { mt_system_free(s); return fail(&err); }
    if (!quiet && sv->stab_period > 0 && sv->method == MT_METHOD_RK4 && sv->step * 2 * M_PI / sv->stab_period > 1.0)
        cli_err(_("warning: the step %g s is large against the stabilisation period %g s; "
                  "the run may go unstable (use ts >= %g)"), sv->step, sv->stab_period, 2 * M_PI * sv->step);
    MtState *st = mt_state_new(s, &err);
    if (!st) { mt_system_free(s); return fail(&err); }
    FILE *out = NULL;
    if (outpath) {
        out = fopen(outpath, "w");
        if (!out) {
            int e = errno;
            cli_err(_("cannot write '%s': %s"), outpath, strerror(e));
            mt_state_free(st);
            mt_system_free(s);
            return 1;
        }
    }
    RunCtx ctx = {mt_csv_new(s, out, &err), out, NULL};
    if (!ctx.csv) { if (out) fclose(out); mt_state_free(st); mt_system_free(s); return fail(&err); }
    if (cli_store_run_begin(path, s, &ctx.store, &err)) { mt_csv_free(ctx.csv); if (out) fclose(out); mt_state_free(st); mt_system_free(s); return fail(&err); }
    MtRunStats stats;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    MtStatus rc = mt_run_start(st, sv, &err);
    if (!rc) rc = mt_run(st, sv, frame_cb, &ctx, NULL, &stats, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    int code = 0;
    if (out && fclose(out)) {
        cli_err(_("error writing '%s'"), outpath);
        code = 1;
    }
    if (rc) code = fail(&err);
    else if (out && !code && cli_derived_append(outpath, mt_system_model(s), &err)) code = fail(&err);
    if (!quiet) {
        /* TRANSLATORS: the first %s is "done" or "stopped", the second the method (rk4, dp54). */
        printf(_("%s: %s to t = %.6g s, %ld steps (%ld rejected), %ld evaluations, %ld frames, %.3f s wall\n"),
               /* TRANSLATORS: status at the start of the run summary. */
               rc ? _("stopped") : _("done"), mt_method_name(sv->method), mt_state_time(st), stats.steps,
               stats.rejected,
               stats.evals, stats.frames, wall);
        printf(_("largest constraint violation at frames: position %.3g, velocity %.3g\n"), stats.gmax, stats.gdmax);
        const MtModel *mm = mt_system_model(s);
        double te;
        for (int e = 0; e < mm->nevent; e++)
            if (mt_state_event_fired(st, e, &te))
                printf(_("event %s at t = %.9f s: %s\n"), mm->event[e].name, te,
                       mt_event_action_name(mm->event[e].action));
        char note[512];
        mt_run_singular_note(&stats, sv, note, sizeof note);
        if (note[0]) printf(_("note: %s\n"), note);
        MtSystemInfo in;
        mt_system_info(s, &in);
        if (in.nspecial)
            printf(_("note: %d further equations are dependent only in the initial configuration; they are kept\n"),
                   in.nspecial);
        for (int b = 0; b < mm->nbody; b++) {
            double pos[3], vel[3];
            mt_state_body(st, b, pos, NULL, vel);
            printf(_("  %-16s at (%.6g, %.6g, %.6g) m, speed %.6g m/s\n"), mm->body[b].name, pos[0], pos[1], pos[2],
                   sqrt(vel[0] * vel[0] + vel[1] * vel[1] + vel[2] * vel[2]));
        }
        if (outpath && !rc) printf(_("results: %s (%d columns)\n"), outpath, mt_csv_ncols(ctx.csv));
    }
    cli_store_run_events(ctx.store, st);
    if (cli_store_run_end(ctx.store, rc, &err, quiet)) code = 1;
    mt_csv_free(ctx.csv);
    mt_state_free(st);
    mt_system_free(s);
    return code;
}
