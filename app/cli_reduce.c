/* cli_reduce.c — motus-cli reduce: a finite-element mesh to a reduced
 * flexible body (core/flex, docs/flexible-bodies.md).
 *
 *   reduce MESH [--interface NODES|auto] [--modes N] [--method cb|free|guyan|attach]
 *               [--out FILE] [--spider NSET] [--spider3 NSET] [--fix NODES[:123456]]…
 *               [--material E,NU,RHO] [--thickness T] [--lumped] [--shift HZ]
 *               [--zeta Z] [--no-surface] [--no-stress] [--quiet]
 *
 * Prints the frequencies, the effective masses, the mass properties, the
 * time of each stage and the peak memory. Exit status: 0 done, 1 the mesh or
 * the reduction failed, 2 bad usage. */
#include <errno.h>
#include <libintl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "app_common.h"
#include "motus/fe.h"
#include "motus/mesh.h"
#include "motus/reduce.h"

#define _(s) gettext(s)

int cli_reduce(int argc, char **argv);

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int number(const char *opt, const char *s, double *v)
{
    char *e;
    errno = 0;
    *v = strtod(s, &e);
    if (e == s || *e || errno || !isfinite(*v)) {
        cli_err(_("option %s expects a number, got '%s'"), opt, s);
        return -1;
    }
    return 0;
}

/* Nodes named by a comma-separated list of node labels and node-set names. */
static int parse_nodes(const MtFeModel *m, const char *spec, int **out, int *n)
{
    char *copy = strdup(spec), *save = NULL;
    int cap = 16;
    *out = malloc(sizeof(int) * (size_t)cap), *n = 0;
    if (!copy || !*out) {
        free(copy);
        return -1;
    }
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *e;
        long id = strtol(tok, &e, 10);
        const int *items;
        int cnt, one;
        if (!*e && e != tok) {
            one = mt_fe_node_index(m, (int)id);
            if (one < 0) {
                cli_err(_("node %ld is not in the mesh"), id);
                free(copy);
                return -1;
            }
            items = &one, cnt = 1;
        } else {
            int s = mt_fe_find_set(m, tok, MT_FE_SET_NODE);
            if (s < 0) {
                cli_err(_("'%s' is neither a node number nor a node set of the mesh"), tok);
                free(copy);
                return -1;
            }
            items = m->setitem + m->set[s].first, cnt = m->set[s].n;
        }
        for (int i = 0; i < cnt; i++) {
            if (*n == cap) {
                cap *= 2;
                int *q = realloc(*out, sizeof(int) * (size_t)cap);
                if (!q) {
                    free(copy);
                    return -1;
                }
                *out = q;
            }
            (*out)[(*n)++] = items[i];
        }
    }
    free(copy);
    return 0;
}

static int progress(void *user, const char *stage, double f)
{
    (void)user;
    static char last[32];
    static double t0;
    double t = now();
    if (strcmp(last, stage) || f >= 1 || t - t0 > 1) {
        fprintf(stderr, "\r%-20s %5.1f %%", stage, 100 * f);
        if (f >= 1) fputc('\n', stderr);
        snprintf(last, sizeof last, "%s", stage);
        t0 = t;
    }
    return 0;
}

static const char *method_name(int m)
{
    switch (m) {
    case MT_REDUCE_CB: return _("Craig-Bampton");
    case MT_REDUCE_GUYAN: return _("Guyan (static condensation)");
    case MT_REDUCE_ATTACH: return _("normal modes + attachment modes");
    default: return _("normal modes");
    }
}

int cli_reduce(int argc, char **argv)
{
    const char *path = argv[2], *out = NULL, *iface = "auto", *spider = NULL;
    int fixn[64], nfix = 0; /* argv indices of the --fix values */
    int method = MT_REDUCE_CB, nmodes = 10, lumped = 0, surface = 1, stress = 1, quiet = 0, spider_type = MT_FE_RBE2;
    double E = 210e9, nu = 0.3, rho = 7850, thick = 0, shift = 0, zeta = 0.01;
    int has_material = 0, show_progress = isatty(2);
    for (int i = 3; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--lumped")) { lumped = 1; continue; }
        if (!strcmp(a, "--no-surface")) { surface = 0; continue; }
        if (!strcmp(a, "--no-stress")) { stress = 0; continue; }
        if (!strcmp(a, "--quiet")) { quiet = 1, show_progress = 0; continue; }
        if (!strcmp(a, "--progress")) { show_progress = 1; continue; }
        static const char *const valued[] = {"--interface", "--modes", "--method", "--out", "--spider", "--spider3",
                                             "--fix", "--material", "--thickness", "--shift", "--zeta", NULL};
        int known = 0;
        for (int k = 0; valued[k]; k++) known |= !strcmp(a, valued[k]);
        if (!known) {
            cli_err(_("unknown option '%s'"), a);
            return 2;
        }
        if (i + 1 >= argc) {
            cli_err(_("option %s needs a value"), a);
            return 2;
        }
        const char *v = argv[++i];
        double x;
        if (!strcmp(a, "--interface")) iface = v;
        else if (!strcmp(a, "--out")) out = v;
        else if (!strcmp(a, "--spider")) spider = v, spider_type = MT_FE_RBE2;
        else if (!strcmp(a, "--spider3")) spider = v, spider_type = MT_FE_RBE3;
        else if (!strcmp(a, "--fix")) { /* repeatable */
            if (nfix == 64) {
                cli_err("%s", _("at most 64 --fix options; join specifications with ';'"));
                return 2;
            }
            fixn[nfix++] = i;
        }
        else if (!strcmp(a, "--method")) {
            if (!strcmp(v, "cb")) method = MT_REDUCE_CB;
            else if (!strcmp(v, "free") || !strcmp(v, "modes")) method = MT_REDUCE_MODES;
            else if (!strcmp(v, "guyan")) method = MT_REDUCE_GUYAN;
            else if (!strcmp(v, "attach")) method = MT_REDUCE_ATTACH;
            else {
                cli_err(_("unknown method '%s' (cb, free, guyan, attach)"), v);
                return 2;
            }
        } else if (!strcmp(a, "--modes")) {
            if (number(a, v, &x)) return 2;
            if (x != floor(x) || x < 0 || x > 100000) {
                cli_err("%s", _("--modes needs a whole number >= 0"));
                return 2;
            }
            nmodes = (int)x;
        } else if (!strcmp(a, "--material")) {
            if (sscanf(v, "%lf,%lf,%lf", &E, &nu, &rho) != 3) {
                cli_err(_("--material expects E,NU,RHO, got '%s'"), v);
                return 2;
            }
            has_material = 1;
        } else if (!strcmp(a, "--thickness")) {
            if (number(a, v, &thick)) return 2;
        } else if (!strcmp(a, "--shift")) {
            if (number(a, v, &shift)) return 2;
        } else if (!strcmp(a, "--zeta")) {
            if (number(a, v, &zeta)) return 2;
        }
    }
    (void)has_material;
    double t0 = now();
    MtError err = {0};
    MtFeModel *m = mt_mesh_read(path, &err);
    if (!m) {
        cli_err("%s", err.msg);
        return 1;
    }
    double t_read = now() - t0;
    int rc = 1, *ifn = NULL, nif = 0, *sp = NULL, nsp = 0;
    MtFlexBody *b = NULL;
    if (mt_fe_default_props(m, E, nu, rho, thick, &err)) {
        cli_err("%s", err.msg);
        goto done;
    }
    m->lumped = lumped;
    for (int i = 0; i < nfix; i++) /* each --fix NODES[:DIGITS] */
        if (mt_fe_fix_spec(m, argv[fixn[i]], &err) < 0) {
            cli_err("%s", err.msg);
            goto done;
        }
    if (spider) {
        if (parse_nodes(m, spider, &sp, &nsp)) goto done;
        if (mt_fe_add_spider(m, spider_type, nsp, sp, NULL, &err) < 0) {
            cli_err("%s", err.msg);
            goto done;
        }
    }
    if (!strcmp(iface, "auto")) {
        ifn = malloc(sizeof(int) * (size_t)(m->nrigid + 1));
        if (!ifn) goto done;
        for (int i = 0; i < m->nrigid; i++) {
            int dup = 0;
            for (int j = 0; j < nif; j++) dup |= ifn[j] == m->rigid[i].ref;
            if (!dup) ifn[nif++] = m->rigid[i].ref;
        }
        if (!nif && method != MT_REDUCE_MODES) {
            cli_err("%s", _("no interface nodes: the mesh has no rigid element (RBE2, RBE3, coupling); give "
                            "--interface NODES or --spider NSET"));
            goto done;
        }
    } else if (parse_nodes(m, iface, &ifn, &nif))
        goto done;
    int counts[MT_FE_NTYPES] = {0};
    for (int e = 0; e < m->nelem; e++) counts[m->elem[e].type]++;
    if (!quiet) {
        printf(_("mesh: %s: %d nodes, %d elements ("), path, m->nnode, m->nelem);
        int first = 1;
        for (int t = 0; t < MT_FE_NTYPES; t++)
            if (counts[t]) printf("%s%d %s", first ? "" : ", ", counts[t], mt_fe_type_name(t)), first = 0;
        printf(_("), %d lumped masses, %d rigid elements, read in %.2f s\n"), m->nmass, m->nrigid, t_read);
        if (m->nskip) printf(_("skipped (not used by Motus): %s\n"), m->skipped);
    }
    MtReduceOptions o;
    mt_reduce_options_init(&o);
    o.method = method, o.nmodes = nmodes, o.nif = nif, o.ifnodes = ifn;
    o.surface = surface || stress, o.stress = stress, o.zeta = zeta;
    o.sigma = shift != 0 ? -pow(2 * M_PI * shift, 2) : 0;
    if (show_progress) o.progress.fn = progress;
    MtReduceStats st;
    double t1 = now();
    b = mt_flex_reduce(m, &o, &st, &err);
    double t_red = now() - t1;
    if (!b) {
        if (show_progress) fputc('\n', stderr);
        cli_err("%s", err.msg);
        goto done;
    }
    MtFlexInfo bi;
    mt_flex_body_info(b, &bi);
    if (!quiet) {
        printf(_("method: %s; %d free DOF (%d interior, %d on %d interface nodes)\n"), method_name(method), st.ndof,
               st.ni, st.nb, nif);
        printf(_("stiffness matrix: %zu nonzeros (upper triangle); factor: %.3g nonzeros, %.3g Gflop, ordering %s\n"),
               st.nnz, st.nnz_L, st.flops * 1e-9, st.ordering);
        printf(_("time: read %.2f s, assembly %.2f s, factorisation %.2f s, eigenvalues %.2f s (%d solves, residual "
                 "%.1e), reduction %.2f s, outputs %.2f s\n"),
               t_read, st.t_assemble, st.t_factor, st.t_eigen, st.lanczos_ops, st.eig_residual, st.t_reduce,
               st.t_output);
        if (bi.nfix) {
            double tot = bi.mass, s[6] = {0};
            printf(method == MT_REDUCE_CB ? _("fixed-interface modes (Hz) and effective mass (%% of %.4g kg) in x y z:\n")
                                          : _("normal modes (Hz) and effective mass (%% of %.4g kg) in x y z:\n"),
                   tot);
            for (int k = 0; k < bi.nfix; k++) {
                const double *e = bi.fix_meff + 6 * k;
                for (int c = 0; c < 6; c++) s[c] += e[c];
                printf("  %4d %14.6f   %6.2f %6.2f %6.2f\n", k + 1, bi.fix_freq[k], 100 * e[0] / tot, 100 * e[1] / tot,
                       100 * e[2] / tot);
            }
            printf(_("  sum                  %6.2f %6.2f %6.2f\n"), 100 * s[0] / tot, 100 * s[1] / tot, 100 * s[2] / tot);
        }
        if (method != MT_REDUCE_MODES) {
            printf(_("reduced body: %d modal coordinates; frequencies (Hz):\n"), bi.nmode);
            for (int k = 0; k < bi.nmode; k++) printf("  %4d %14.6f\n", k + 1, bi.freq[k]);
        }
        if (bi.nrigid) {
            printf(_("rigid-body vectors dropped: %d (computed frequencies"), bi.nrigid);
            for (int k = 0; k < bi.nrigid; k++) printf(" %.2g", bi.rigid_freq[k]);
            printf(_(" Hz)\n"));
        }
        double c[3] = {0, 0, 0};
        if (bi.mass > 0)
            for (int k = 0; k < 3; k++) c[k] = bi.s0[k] / bi.mass;
        printf(_("mass %.6g kg, centre of mass (%.6g, %.6g, %.6g), inertia about the origin: xx %.6g yy %.6g zz %.6g\n"),
               bi.mass, c[0], c[1], c[2], bi.I0[0], bi.I0[4], bi.I0[8]);
        if (surface) printf(_("display surface: %d vertices, %d triangles, %d beam lines\n"), bi.nsv, bi.nst, bi.nseg);
    }
    if (out) {
        if (mt_flex_body_save(b, out, &err)) {
            cli_err("%s", err.msg);
            goto done;
        }
        if (!quiet) printf(_("wrote %s\n"), out);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    if (!quiet)
        printf(_("total: %.2f s wall (reduction %.2f s), peak memory %.1f MB\n"), now() - t0, t_red, ru.ru_maxrss / 1024.0);
    rc = 0;
done:
    free(ifn), free(sp);
    mt_flex_body_free(b);
    mt_fe_model_free(m);
    return rc;
}
