/* cli_analysis.c — the analyses of motus-cli besides 'run' (include/motus/analysis.h,
 * docs/analyses.md):
 *   kinematics MODEL [--until T] [--step H] [--every N] [--out F.csv] [--quiet]
 *   statics MODEL [--relax] [--out F.csv] [--quiet]
 *   modes MODEL [--at equilibrium|initial]
 * Exit status: 0 done, 1 the model or the analysis failed, 2 bad usage. */
#include <errno.h>
#include <libintl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "motus/analysis.h"
#include "motus/store.h"
#include "motus/results.h"
#include "motus/model.h"

#include "app_common.h"
#include "cli_project.h"

#define _(s) gettext(s)

int cli_kinematics(int argc, char **argv);
int cli_statics(int argc, char **argv);
int cli_modes(int argc, char **argv);


static int fail(const MtError *e) { return cli_fail(e); }

typedef struct {
    const char *out;
    int quiet, at_initial, relax;
    int has_until, has_step, has_every;
    double until, step;
    int every;
} Opts;

/* Options after MODEL; `allowed` lists the ones the command takes. Returns 0,
 * or the exit status 2 after a message. */
static int parse_opts(int argc, char **argv, const char *allowed, Opts *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 3; i < argc; i++) {
        const char *a = argv[i];
        char key[32];
        snprintf(key, sizeof key, " %s ", a);
        if (strncmp(a, "--", 2) || !strstr(allowed, key)) {
            cli_err(_("unknown option '%s'"), a);
            return 2;
        }
        if (!strcmp(a, "--quiet")) { o->quiet = 1; continue; }
        if (!strcmp(a, "--relax")) { o->relax = 1; continue; }
        if (i + 1 >= argc) {
            cli_err(_("option %s needs a value"), a);
            return 2;
        }
        const char *v = argv[++i];
        if (!strcmp(a, "--out")) { o->out = v; continue; }
        if (!strcmp(a, "--at")) {
            if (!strcmp(v, "equilibrium")) o->at_initial = 0;
            else if (!strcmp(v, "initial")) o->at_initial = 1;
            else {
                cli_err(_("--at takes equilibrium or initial, got '%s'"), v);
                return 2;
            }
            continue;
        }
        char *end;
        errno = 0;
        double x = strtod(v, &end);
        if (end == v || *end || !isfinite(x) || errno) {
            cli_err(_("option %s expects a number, got '%s'"), a, v);
            return 2;
        }
        if (!strcmp(a, "--until")) { o->until = x; o->has_until = 1; }
        else if (!strcmp(a, "--step")) {
            if (!(x > 0)) { cli_err("%s", _("step must be a positive number")); return 2; }
            o->step = x;
            o->has_step = 1;
        } else if (!strcmp(a, "--every")) {
            if (x != floor(x) || x < 1 || x > 1e9) { cli_err("%s", _("--every needs a whole number >= 1")); return 2; }
            o->every = (int)x;
            o->has_every = 1;
        }
    }
    return 0;
}

/* Loads and compiles MODEL (a text model or a project); NULL after printing the error. */
static MtSystem *load(const char *path, const Opts *o)
{
    MtError err = {0};
    MtModel *m = cli_load_model("analysis", path, &err);
    if (!m) { fail(&err); return NULL; }
    if (o) {
        if (o->has_until) m->solver.until = o->until;
        if (o->has_step) m->solver.step = o->step;
        if (o->has_every) m->solver.every = o->every;
    }
    MtSystem *s = mt_system_compile(m, &err);
    if (s && mt_system_assemble(s, &err)) { mt_system_free(s); s = NULL; }
    mt_model_free(m);
    if (!s) fail(&err);
    return s;
}

static FILE *open_out(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        int e = errno;
        cli_err(_("cannot write '%s': %s"), path, strerror(e));
    }
    return f;
}

/* ---- kinematics ---------------------------------------------------------------- */

typedef struct {
    MtCsv *csv;
    double *lo, *hi; /* per driver effort range */
    int nd;
} KinCtx;

static int kin_frame(void *user, MtState *st)
{
    KinCtx *k = user;
    for (int d = 0; d < k->nd; d++) {
        double e = mt_driver_effort(st, d);
        k->lo[d] = fmin(k->lo[d], e);
        k->hi[d] = fmax(k->hi[d], e);
    }
    return k->csv ? mt_csv_frame(k->csv, st) : 0;
}

int cli_kinematics(int argc, char **argv)
{
    Opts o;
    int rc = parse_opts(argc, argv, " --until --step --every --out --quiet ", &o);
    if (rc) return rc;
    MtSystem *s = load(argv[2], &o);
    if (!s) return 1;
    MtError err = {0};
    MtState *st = mt_state_new(s, &err);
    if (!st) { mt_system_free(s); return fail(&err); }
    FILE *out = NULL;
    if (o.out && !(out = open_out(o.out))) { mt_state_free(st); mt_system_free(s); return 1; }
    const MtModel *m = mt_system_model(s);
    const MtSolverSpec *sv = mt_system_solver(s);
    int nd = m->ndriver;
    KinCtx k = {NULL, calloc((size_t)nd + 1, sizeof(double)), calloc((size_t)nd + 1, sizeof(double)), nd};
    if (!k.lo || !k.hi) {
        cli_err("%s", _("out of memory"));
        rc = 1;
        goto done;
    }
    for (int d = 0; d < nd; d++) { k.lo[d] = INFINITY; k.hi[d] = -INFINITY; }
    if (out && !(k.csv = mt_csv_new(s, out, &err))) { rc = fail(&err); goto done; }
    MtKinStats ks;
    MtStatus r = mt_kinematics(st, sv->until, sv->step, sv->every, kin_frame, &k, NULL, &ks, &err);
    if (out) {
        if (fclose(out)) { cli_err(_("error writing '%s'"), o.out); rc = 1; }
        out = NULL;
    }
    if (r) { rc = fail(&err); goto done; }
    if (!o.quiet) {
        printf(_("kinematics: %ld frames to t = %.6g s (%ld time points)\n"), ks.frames, mt_state_time(st), ks.steps);
        printf(_("largest constraint violation: position %.3g, velocity %.3g\n"), ks.gmax, ks.gdmax);
        for (int d = 0; d < nd; d++)
            /* TRANSLATORS: effort is a torque (N·m) or a force (N), depending on the driven joint. */
            printf(_("  driver %-16s effort from %.6g to %.6g (N·m or N)\n"), m->driver[d].name, k.lo[d], k.hi[d]);
        if (o.out) printf(_("results: %s (%d columns)\n"), o.out, mt_csv_ncols(k.csv));
    }
done:
    if (out) fclose(out);
    mt_csv_free(k.csv);
    free(k.lo);
    free(k.hi);
    mt_state_free(st);
    mt_system_free(s);
    return rc;
}

/* ---- statics ------------------------------------------------------------------- */

static void print_stability(const MtStaticsInfo *in)
{
    if (in->negative > 0)
        printf(_("stability: UNSTABLE equilibrium: %d direction(s) with negative stiffness (lowest eigenvalue of M^-1 K: "
                 "%.6g 1/s^2)\n"),
               in->negative, in->lowest);
    else if (in->neutral > 0)
        printf(_("stability: neutral in %d direction(s) (free motions with no restoring force), stable in the others\n"),
               in->neutral);
    else if (in->dof > 0)
        printf(_("stability: stable (lowest eigenvalue of M^-1 K: %.6g 1/s^2)\n"), in->lowest);
    else printf("%s", _("stability: no degree of freedom left (the drivers and joints hold everything)\n"));
}

/* in: the search's report (its holds' forces), or NULL */
static void print_equilibrium(const MtState *st, const MtStaticsInfo *in)
{
    const MtModel *m = mt_system_model(mt_state_system(st));
    fputs(_("bodies (frame origin, rotation from the project axes):\n"), stdout);
    for (int b = 0; b < m->nbody; b++) {
        double pos[3], p[4];
        mt_state_body(st, b, pos, p, NULL);
        double sn = sqrt(p[1] * p[1] + p[2] * p[2] + p[3] * p[3]), ang = 2 * atan2(sn, p[0]);
        double ax[3] = {0, 0, 1};
        if (p[0] < 0) ang -= 2 * M_PI; /* the shorter way round */
        if (fabs(ang) < 1e-12) ang = 0;
        else for (int i = 0; i < 3; i++) ax[i] = p[1 + i] / sn;
        for (int i = 0; i < 3; i++) pos[i] += 0.0; /* no −0 */
        printf(_("  %-16s at (%.9g, %.9g, %.9g) m, rotated %.9g deg about (%.6g, %.6g, %.6g)\n"), m->body[b].name, pos[0],
               pos[1], pos[2], ang * 180 / M_PI, ax[0], ax[1], ax[2]);
    }
    if (m->njoint) fputs(_("joint reactions on the body of marker i (project axes; moment about the origin of marker i):\n"), stdout);
    for (int j = 0; j < m->njoint; j++) {
        double F[3], T[3], Fm[3], Tm[3];
        mt_joint_reaction(st, j, F, T, Fm, Tm);
        printf(_("  %-16s F = (%.9g, %.9g, %.9g) N, T = (%.9g, %.9g, %.9g) N·m"), m->joint[j].name, F[0], F[1], F[2], T[0],
               T[1], T[2]);
        double c = mt_state_joint_coordinate(st, j);
        if (!isnan(c)) printf(_(", coordinate %.9g"), c);
        fputc('\n', stdout);
    }
    for (int d = 0; d < m->ndriver; d++)
        printf(_("  driver %-16s holding effort %.9g (N·m or N)\n"), m->driver[d].name, mt_driver_effort(st, d));
    MtHold hold[MT_HOLD_MAX];
    int nhold = mt_model_holds(m, hold, NULL);
    for (int k = 0; in && k < nhold && k < in->nhold; k++) {
        char ref[2 * MT_NAME_MAX + 4];
        if (hold[k].marker >= 0) mt_model_marker_ref(m, hold[k].marker, ref, (int)sizeof ref);
        else snprintf(ref, sizeof ref, "%s", m->body[hold[k].body].name);
        size_t l = strlen(ref);
        snprintf(ref + l, sizeof ref - l, ".%c", "xyz"[hold[k].axis]);
        printf(_("  hold   %-16s holding force %.9g N along %c\n"), ref, in->hold_force[k], "xyz"[hold[k].axis]);
    }
    for (int k = 0; k < m->nspring; k++) {
        double L, Ld, F;
        mt_state_spring(st, k, &L, &Ld, &F);
        printf(_("  spring %-16s length %.9g m, tension %.9g N\n"), m->spring[k].name, L, F);
    }
    for (int b = 0; b < m->nbody; b++) { /* the static deformation of flexible bodies */
        double umax, smax;
        if (!mt_state_flex_elastic(st, b, &umax, &smax)) continue;
        if (isnan(smax)) printf(_("  flexible %-14s largest elastic displacement %.9g m\n"), m->body[b].name, umax);
        else
            printf(_("  flexible %-14s largest elastic displacement %.9g m, largest von Mises stress %.9g Pa\n"),
                   m->body[b].name, umax, smax);
    }
    double T, V;
    mt_state_energy(st, &T, &V);
    printf(_("potential energy: %.9g J\n"), V);
}

static int write_frame(const MtSystem *s, MtState *st, const char *path)
{
    FILE *f = open_out(path);
    if (!f) return 1;
    MtError err = {0};
    MtCsv *c = mt_csv_new(s, f, &err);
    int rc = 0;
    if (!c) rc = fail(&err);
    else if (mt_csv_frame(c, st)) { cli_err(_("error writing '%s'"), path); rc = 1; }
    mt_csv_free(c);
    if (fclose(f) && !rc) { cli_err(_("error writing '%s'"), path); rc = 1; }
    return rc;
}

int cli_statics(int argc, char **argv)
{
    Opts o;
    int rc = parse_opts(argc, argv, " --relax --out --quiet ", &o);
    if (rc) return rc;
    MtSystem *s = load(argv[2], NULL);
    if (!s) return 1;
    MtError err = {0};
    MtState *st = mt_state_new(s, &err);
    if (!st) { mt_system_free(s); return fail(&err); }
    MtStaticsInfo in;
    MtStaticsOptions opt = {0};
    opt.relax_first = o.relax; /* downhill first: a stable rest rather than the nearest equilibrium */
    if (mt_statics(st, &opt, &in, &err)) rc = fail(&err);
    else {
        if (!o.quiet) {
            if (in.relax_steps)
                printf(_("static equilibrium found: %d Newton iterations after %ld dynamic-relaxation steps\n"),
                       in.iterations, in.relax_steps);
            else printf(_("static equilibrium found: %d Newton iterations\n"), in.iterations);
            printf(_("residual: force %.3g N, moment %.3g N·m, constraints %.3g\n"), in.force_residual, in.moment_residual,
                   in.constraint_residual);
            print_stability(&in);
            print_equilibrium(st, &in);
        }
        if (o.out) {
            rc = write_frame(s, st, o.out);
            if (!rc && !o.quiet) printf(_("results: %s (one frame)\n"), o.out);
        }
    }
    mt_state_free(st);
    mt_system_free(s);
    return rc;
}

/* ---- modes --------------------------------------------------------------------- */

/* Modes of a project are kept in it (the window lists and animates them again). */
static int keep_modes(const char *path, const MtModes *md)
{
    MtError err = {0};
    MtStore *st = mt_store_open(path, 0, &err);
    long id = 0;
    if (!st || mt_store_save_modes(st, md, &id, &err)) {
        mt_store_close(st);
        return fail(&err);
    }
    mt_store_close(st);
    printf(_("kept in the project as modes %ld\n"), id);
    return 0;
}

int cli_modes(int argc, char **argv)
{
    Opts o;
    int rc = parse_opts(argc, argv, " --at --quiet ", &o);
    if (rc) return rc;
    MtSystem *s = load(argv[2], NULL);
    if (!s) return 1;
    MtError err = {0};
    MtState *st = mt_state_new(s, &err);
    if (!st) { mt_system_free(s); return fail(&err); }
    MtModes *md = NULL;
    if (mt_modes(st, !o.at_initial, &md, &err)) {
        rc = fail(&err);
        goto done;
    }
    const MtModel *m = mt_system_model(s);
    const MtStaticsInfo *in = &md->statics;
    if (md->at_equilibrium)
        printf(_("linearised about the static equilibrium (residual: force %.3g N, moment %.3g N·m)\n"), in->force_residual,
               in->moment_residual);
    else
        printf(_("linearised about the initial configuration at rest (unbalanced force there: %.3g N, moment %.3g N·m)\n"),
               in->force_residual, in->moment_residual);
    print_stability(in);
    printf(_("degrees of freedom: %d\n"), md->dof);
    if (md->nmode == 0) {
        fputs(_("no modes: the joints and the drivers (which hold their coordinates) leave no motion\n"), stdout);
        goto done;
    }
    fputs(_(" mode   frequency [Hz]    damping ratio   eigenvalue [1/s]                kind\n"), stdout);
    for (int i = 0; i < md->nmode; i++) {
        const MtMode *mo = &md->mode[i];
        char ev[96];
        if (mo->kind == MT_MODE_OVERDAMPED) snprintf(ev, sizeof ev, "%.6g, %.6g", mo->s_re, mo->s2_re);
        else if (mo->s_im > 0) snprintf(ev, sizeof ev, "%.6g ± %.6gi", mo->s_re, mo->s_im);
        else snprintf(ev, sizeof ev, "%.6g", mo->s_re);
        char zeta[32] = "-";
        if (!isnan(mo->zeta)) snprintf(zeta, sizeof zeta, "%.6g", mo->zeta);
        printf(" %4d   %-16.9g  %-14s  %-30s  %s\n", i + 1, mo->freq, zeta, ev, mt_mode_kind_name(mo->kind));
    }
    if (o.quiet) goto done;
    fputs(_("mode shapes (largest entry 1): centre-of-mass displacement and rotation, project axes; joint coordinates\n"),
          stdout);
    for (int i = 0; i < md->nmode; i++) {
        const MtMode *mo = &md->mode[i];
        double im = 0;
        for (int a = 0; a < md->nu; a++) im = fmax(im, fabs(mo->shape_im[a]));
        printf(_(" mode %d (%.9g Hz)%s\n"), i + 1, mo->freq, im > 1e-6 ? _(", complex: real and imaginary parts") : "");
        for (int b = 0; b < m->nbody; b++) {
            const double *x = mo->shape_re + 6 * b;
            printf("   %-16s dx %10.6f dy %10.6f dz %10.6f  rx %10.6f ry %10.6f rz %10.6f\n", m->body[b].name, x[0], x[1],
                   x[2], x[3], x[4], x[5]);
            if (im > 1e-6) {
                x = mo->shape_im + 6 * b;
                printf("   %-16s dx %10.6f dy %10.6f dz %10.6f  rx %10.6f ry %10.6f rz %10.6f\n", "", x[0], x[1], x[2],
                       x[3], x[4], x[5]);
            }
        }
        for (int b = 0; b < m->nbody; b++) { /* modal coordinates of flexible bodies */
            if (!md->nw[b]) continue;
            printf(_("   %-16s modal coordinates"), m->body[b].name);
            for (int k = 0; k < md->nw[b]; k++) printf(" %.4g", mo->shape_re[md->woff[b] + k]);
            fputc('\n', stdout);
        }
        for (int j = 0; j < m->njoint; j++) {
            if (isnan(mo->coord_re[j])) continue;
            if (im > 1e-6) printf("   %-16s %10.6f %+10.6fi\n", m->joint[j].name, mo->coord_re[j], mo->coord_im[j]);
            else printf("   %-16s %10.6f\n", m->joint[j].name, mo->coord_re[j]);
        }
    }
done:
    if (!rc && md && mt_store_is_sqlite_file(argv[2])) rc = keep_modes(argv[2], md);
    mt_modes_free(md);
    mt_state_free(st);
    mt_system_free(s);
    return rc;
}
