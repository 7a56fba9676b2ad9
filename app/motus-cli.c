/* motus-cli.c — the command-line program: runs, checks and exports models
 * without a display (same core as the application). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mt_integrate.h"
#include "mt_model.h"
#include "mt_output.h"
#include "mt_system.h"

#define MOTUS_VERSION "0.1.0"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: motus-cli COMMAND MODEL [options]\n"
            "commands:\n"
            "  run MODEL    integrate the model and write results\n"
            "  check MODEL  validate and print diagnostics (degrees of freedom, redundant equations)\n"
            "  export MODEL write the model in canonical text form to standard output\n"
            "run options:\n"
            "  --until T        end time, s               --step H     RK4 step / output interval, s\n"
            "  --method M       rk4 | dp54 (rk45, dopri5) --every N    write every N-th frame\n"
            "  --rtol R --atol A  tolerances of dp54      --ts T --xi X  Baumgarte period and damping\n"
            "  --correct none|positions|velocities|both   projection after each step\n"
            "  --out FILE.csv   results (default: none, prints a summary)\n"
            "  --quiet          no summary\n"
            "options follow MODEL; settings given here override the model's solver line\n");
}

static int fail(const MtError *e)
{
    fprintf(stderr, "motus-cli: %s\n", e->msg[0] ? e->msg : "error");
    return 1;
}

static int parse_double(const char *opt, const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || !isfinite(v) || errno) {
        fprintf(stderr, "motus-cli: option %s expects a number, got '%s'\n", opt, s);
        return -1;
    }
    *out = v;
    return 0;
}

/* Describes one constraint equation in words, for redundancy reports. */
static void row_words(const MtSystem *s, int row, char *buf, size_t n)
{
    static const char *ax = "xyz";
    int k = 0;
    while (k + 1 < s->nblock && s->block[k + 1].row0 <= row) k++;
    const MtCBlock *b = &s->block[k];
    int r = row - b->row0, acc = 0;
    const char *what = "?";
    char tmp[64];
    for (int p = 0; p < b->nprim; p++) {
        int w = b->prim[p].kind == MT_PRIM_SPH ? 3 : 1;
        if (r < acc + w) {
            const MtPrim *pr = &b->prim[p];
            switch (pr->kind) {
            case MT_PRIM_SPH: snprintf(tmp, sizeof tmp, "coincidence of origins along %c", ax[r - acc]); break;
            case MT_PRIM_DOT: snprintf(tmp, sizeof tmp, "%c_j perpendicular to %c_i", ax[pr->a], ax[pr->b]); break;
            case MT_PRIM_TRANS: snprintf(tmp, sizeof tmp, "no offset along %c_j", ax[pr->a]); break;
            case MT_PRIM_ANGLE: snprintf(tmp, sizeof tmp, "prescribed angle"); break;
            }
            what = tmp;
            break;
        }
        acc += w;
    }
    if (b->kind == MT_BLOCK_JOINT)
        snprintf(buf, n, "joint '%s' (%s), equation %d of %d: %s", s->model->joint[b->src].name,
                 mt_joint_type_name(s->model->joint[b->src].type), r + 1, b->nrow, what);
    else snprintf(buf, n, "driver '%s': %s", s->model->driver[b->src].name, what);
}

static void print_diagnostics(const MtSystem *s, FILE *f)
{
    const MtModel *m = s->model;
    fprintf(f, "model: %s\n", m->title[0] ? m->title : "(untitled)");
    fprintf(f, "bodies %d, markers %d, joints %d, drivers %d, springs %d\n", m->nbody, m->nmarker, m->njoint, m->ndriver,
            m->nspring);
    fprintf(f, "constraint equations: %d, independent: %d, redundant: %d\n", s->nrow, s->nrow - s->ndep, s->ndep);
    fprintf(f, "degrees of freedom: %d by Gruebler count, %d by Jacobian rank\n", s->dof_grubler, s->dof_rank);
    for (int r = 0; r < s->nrow; r++)
        if (s->dep[r]) {
            char w[256];
            row_words(s, r, w, sizeof w);
            fprintf(f, "redundant equation removed: %s\n", w);
        }
    for (int i = 0; i < s->nfree; i++)
        fprintf(f, "warning: body '%s' is not connected to ground by any joint or spring; it moves freely\n",
                m->body[s->free_body[i]].name);
    if (s->dof_rank < 0) fprintf(f, "warning: the mechanism is overconstrained\n");
}

typedef struct {
    MtCsv *csv;
    FILE *out;
} RunCtx;

static int frame_cb(void *user, MtState *st)
{
    RunCtx *c = user;
    return mt_csv_frame(c->csv, st);
}

int main(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version"))) {
        printf("motus-cli %s\n", MOTUS_VERSION);
        return 0;
    }
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help") || !strcmp(argv[1], "-h"))) {
        usage(stdout);
        return 0;
    }
    if (argc < 3) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1], *path = argv[2];
    if (strcmp(cmd, "run") && strcmp(cmd, "check") && strcmp(cmd, "export")) {
        fprintf(stderr, "motus-cli: unknown command '%s'\n", cmd);
        usage(stderr);
        return 2;
    }
    MtError err = {0};
    MtModel *m = mt_model_load(path, &err);
    if (!m) return fail(&err);
    const char *outpath = NULL;
    int quiet = 0;
    for (int i = 3; i < argc; i++) {
        const char *o = argv[i];
        int has = i + 1 < argc;
        double v;
        if (!strcmp(o, "--quiet")) { quiet = 1; continue; }
        if (!has) {
            fprintf(stderr, "motus-cli: option %s needs a value\n", o);
            mt_model_free(m);
            return 2;
        }
        const char *a = argv[++i];
        int bad = 0;
        MtSolverSpec *sv = &m->solver;
        if (!strcmp(o, "--out")) outpath = a;
        else if (!strcmp(o, "--method")) {
            if (mt_method_from_name(a, &sv->method)) {
                fprintf(stderr, "motus-cli: unknown method '%s' (rk4, dp54)\n", a);
                bad = 1;
            }
        } else if (!strcmp(o, "--correct")) {
            if (!strcmp(a, "none")) sv->correct_pos = sv->correct_vel = 0;
            else if (!strcmp(a, "positions")) { sv->correct_pos = 1; sv->correct_vel = 0; }
            else if (!strcmp(a, "velocities")) { sv->correct_pos = 0; sv->correct_vel = 1; }
            else if (!strcmp(a, "both")) sv->correct_pos = sv->correct_vel = 1;
            else { fprintf(stderr, "motus-cli: --correct takes none, positions, velocities or both\n"); bad = 1; }
        } else if (parse_double(o, a, &v)) bad = 1;
        else if (!strcmp(o, "--until")) sv->until = v;
        else if (!strcmp(o, "--step")) sv->step = v;
        else if (!strcmp(o, "--every")) {
            if (v != floor(v) || v < 1 || v > 1e9) { fprintf(stderr, "motus-cli: --every needs a whole number >= 1\n"); bad = 1; }
            else sv->every = (int)v;
        } else if (!strcmp(o, "--rtol")) sv->rtol = v;
        else if (!strcmp(o, "--atol")) sv->atol = v;
        else if (!strcmp(o, "--ts")) sv->stab_period = v;
        else if (!strcmp(o, "--xi")) sv->stab_damping = v;
        else { fprintf(stderr, "motus-cli: unknown option '%s'\n", o); bad = 1; }
        if (bad) { mt_model_free(m); return 2; }
    }
    if (!strcmp(cmd, "export")) {
        MtStatus rc = mt_model_write(m, stdout, &err);
        mt_model_free(m);
        return rc ? fail(&err) : 0;
    }
    MtSystem *s = mt_system_compile(m, &err);
    mt_model_free(m);
    if (!s) return fail(&err);
    if (!strcmp(cmd, "check")) {
        print_diagnostics(s, stdout);
        printf("check: OK\n");
        mt_system_free(s);
        return 0;
    }
    const MtSolverSpec *sv = &s->solver;
    if (!quiet && sv->stab_period > 0 && sv->method == MT_METHOD_RK4 && sv->step * 2 * M_PI / sv->stab_period > 1.0)
        fprintf(stderr, "motus-cli: warning: the step %g s is large against the stabilisation period %g s; "
                        "the run may go unstable (use ts >= %g)\n", sv->step, sv->stab_period, 2 * M_PI * sv->step);
    MtState *st = mt_state_new(s, &err);
    if (!st) { mt_system_free(s); return fail(&err); }
    FILE *out = NULL;
    if (outpath) {
        out = fopen(outpath, "w");
        if (!out) {
            fprintf(stderr, "motus-cli: cannot write '%s': %s\n", outpath, strerror(errno));
            mt_state_free(st);
            mt_system_free(s);
            return 1;
        }
    }
    RunCtx ctx = {mt_csv_new(s, out, &err), out};
    if (!ctx.csv) { if (out) fclose(out); mt_state_free(st); mt_system_free(s); return fail(&err); }
    MtRunStats stats;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    MtStatus rc = mt_run(st, sv, frame_cb, &ctx, NULL, &stats, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    int code = 0;
    if (out && fclose(out)) {
        fprintf(stderr, "motus-cli: error writing '%s'\n", outpath);
        code = 1;
    }
    if (rc) code = fail(&err);
    if (!quiet) {
        printf("%s: %s to t = %.6g s, %ld steps (%ld rejected), %ld evaluations, %ld frames, %.3f s wall\n",
               rc ? "stopped" : "done", mt_method_name(sv->method), st->t, stats.steps, stats.rejected, stats.evals,
               stats.frames, wall);
        printf("largest constraint violation at frames: position %.3g, velocity %.3g\n", stats.gmax, stats.gdmax);
        const MtModel *mm = s->model;
        for (int b = 0; b < mm->nbody; b++) {
            double pos[3], vel[3];
            mt_body_origin(st, st->q, st->u, b, pos, vel);
            printf("  %-16s at (%.6g, %.6g, %.6g) m, speed %.6g m/s\n", mm->body[b].name, pos[0], pos[1], pos[2],
                   sqrt(vel[0] * vel[0] + vel[1] * vel[1] + vel[2] * vel[2]));
        }
        if (outpath && !rc) printf("results: %s (%d columns)\n", outpath, mt_csv_ncols(ctx.csv));
    }
    mt_csv_free(ctx.csv);
    mt_state_free(st);
    mt_system_free(s);
    return code;
}
