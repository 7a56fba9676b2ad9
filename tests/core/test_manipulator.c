/* test_manipulator.c — the spatial manipulator with three flexible links
 * (projects/manipulator-flex.motus.txt, issue 24) against closed forms:
 *   each link alone, clamped at its root: the first three bending frequencies
 *   (in both planes) of the Euler–Bernoulli cantilever, within 0.1 %;
 *   the whole arm held still by its drivers, straight and horizontal: the tip
 *   sags as the chain of three cantilevers with the payload (unit-load
 *   integral ∫ M m̄ / EI over the three sections), within 0.5 %;
 *   with E × 10⁶ the tip follows the rigid arm's forward kinematics of the
 *   driver laws to 1e-6 m through the move;
 *   the peak tip deflection converges as modes and elements rise.
 * And the rigid model (rigid links of the links' mass properties) against E × 10⁶:
 *   the same tip path, the joint torques within 0.1 % of their peaks.
 * Run with --table to print the whole convergence table of docs/examples.md
 * (1, 2, 4, 8 modes × 2, 4, 8, 16 elements; about 10 s). */
#include <string.h>

#include "motus/analysis.h"
#include "mt_fe_reduce.h"
#include "mt_flexdata.h"
#include "mt_kin.h"
#include "mt_test.h"

static char example[16384];

/* The example's parameter NAME (SI), read from the parsed model. */
static double param(const MtModel *m, const char *name)
{
    int i = mt_model_find_param(m, name);
    if (i < 0) {
        printf("FAIL: the example has no parameter '%s'\n", name);
        exit(1);
    }
    return m->param[i].value;
}

/* text with every occurrence of each from[k] replaced by to[k] (n pairs), into out. */
static void variant(char *out, size_t cap, const char *text, int n, const char *const *from, const char *const *to)
{
    size_t o = 0;
    for (const char *c = text; *c;) {
        int k = 0;
        while (k < n && strncmp(c, from[k], strlen(from[k]))) k++;
        const char *put = k < n ? to[k] : NULL;
        size_t len = put ? strlen(put) : 1;
        if (o + len + 1 >= cap) {
            printf("FAIL: variant too long\n");
            exit(1);
        }
        if (put) memcpy(out + o, put, len), c += strlen(from[k]);
        else out[o] = *c++;
        o += len;
    }
    out[o] = 0;
}

static void read_example(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/manipulator-flex.motus.txt", MOTUS_PROJECTS_DIR);
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(example, 1, sizeof example - 1, f) : 0;
    if (f) fclose(f);
    example[n] = 0;
    if (!n || !strstr(example, " elements 8 ") || !strstr(example, " modes 4 ") || !strstr(example, "parameter stiff 1\n") ||
        !strstr(example, "parameter sh0 90 deg\n") || !strstr(example, "until 2 ")) {
        printf("FAIL: %s does not read as this test expects\n", path);
        exit(1);
    }
}

typedef struct {
    double L, D, d;
} Link;

static const double E_AL = 7e10, RHO_AL = 2700;

static double area(const Link *k) { return M_PI / 4 * (k->D * k->D - k->d * k->d); }
static double second_moment(const Link *k) { return M_PI / 64 * (pow(k->D, 4) - pow(k->d, 4)); }

/* ---- each link clamped: Euler–Bernoulli cantilever frequencies ------------------------ */

/* Elements of a link in the frequency checks. The reduction's (consistent,
 * Euler–Bernoulli) mass converges as 1/elements⁴; the dynamics carries the
 * body's inertia as nodal rigid bodies with the element's whole inertia, the
 * section's rotary inertia ρI included (flexible-bodies.md, "inertia
 * invariants"), so a link in the dynamics is a Rayleigh beam: its frequencies
 * lie below Euler–Bernoulli's by the rotary inertia, and converge as
 * 1/elements² to the Rayleigh beam's. */
#define LINK_ELEMENTS 16
#define LINK_ELEMENTS_DYN 100

static const double beta_eb[3] = {1.875104069, 4.694091133, 7.854757438};

/* Clamped-free Rayleigh beam (bending stiffness EI, mass ρA and rotary
 * inertia ρI per length): with a = ρIω²/EI, b = ρAω²/EI the deflection is
 * C1 cosh αx + C2 sinh αx + C3 cos βx + C4 sin βx, α² = (√(a² + 4b) − a)/2,
 * β² = (√(a² + 4b) + a)/2; w = w' = 0 at the root, w'' = 0 and the shear
 * w''' + a w' = 0 at the tip. The determinant of the two tip conditions
 * (C3 = −C1, C4 = −αC2/β), which is 2k⁵(1 + cos kL cosh kL) for a = 0. */
static double rayleigh_det(double w, double EI, double rA, double rI, double L)
{
    double a = rI * w * w / EI, b = rA * w * w / EI, r = sqrt(a * a + 4 * b);
    double al = sqrt(0.5 * (r - a)), be = sqrt(0.5 * (r + a));
    double ch = cosh(al * L), sh = sinh(al * L), c = cos(be * L), s = sin(be * L);
    double p = al * al * al + a * al;
    return (al * al * ch + be * be * c) * (p * ch + (be * be - a) * al * c) -
           (al * al * sh + al * be * s) * (p * sh - (be * be * be - a * be) * s);
}

/* The Rayleigh beam's frequency (Hz) just below the Euler–Bernoulli one f_eb. */
static double rayleigh_freq(double f_eb, double EI, double rA, double rI, double L)
{
    double hi = 2 * M_PI * f_eb * 1.0001, lo = hi;
    double dhi = rayleigh_det(hi, EI, rA, rI, L);
    for (int i = 0; i < 2000; i++) { /* step down to the sign change */
        lo = hi * (1 - 1e-4);
        double dlo = rayleigh_det(lo, EI, rA, rI, L);
        if ((dlo > 0) != (dhi > 0)) break;
        hi = lo, dhi = dlo;
    }
    for (int it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi), dm = rayleigh_det(mid, EI, rA, rI, L);
        if ((dm > 0) == (dhi > 0)) hi = mid, dhi = dm;
        else lo = mid;
    }
    return 0.5 * (lo + hi) / (2 * M_PI);
}

/* The two of n frequencies nearest f (the round tube bends alike in two planes). */
static int nearest_two(const double *freq, const int *ok, int n, double f, int *k1, int *k2)
{
    *k1 = *k2 = -1;
    for (int k = 0; k < n; k++) {
        if (ok && !ok[k]) continue;
        double e = fabs(freq[k] / f - 1);
        if (*k1 < 0 || e < fabs(freq[*k1] / f - 1)) *k2 = *k1, *k1 = k;
        else if (*k2 < 0 || e < fabs(freq[*k2] / f - 1)) *k2 = k;
    }
    return *k2 >= 0;
}

static void check_two(const double *freq, const int *ok, int n, double f, const char *what)
{
    int k1, k2;
    CHECK(nearest_two(freq, ok, n, f, &k1, &k2), "two modes for %s", what);
    if (k2 < 0) return;
    CHECK_REL(freq[k1], f, 1e-3, what);
    CHECK_REL(freq[k2], f, 1e-3, what);
}

static void link_frequencies(const Link *lk, int which)
{
    const double EI = E_AL * second_moment(lk), rA = RHO_AL * area(lk), rI = RHO_AL * second_moment(lk);
    const double c = sqrt(EI / rA) / (2 * M_PI * lk->L * lk->L);
    printf("-- link%d alone (%.2f m, tube %g x %g mm), clamped at its root\n", which, lk->L, lk->D * 1e3, lk->d * 1e3);
    char text[1024], what[128];
    for (int pass = 0; pass < 2; pass++) {
        int ne = pass ? LINK_ELEMENTS_DYN : LINK_ELEMENTS;
        snprintf(text, sizeof text,
                 "ground\n marker base\nend\n"
                 "body link\n"
                 " flexible beam length %.17g elements %d section tube %.17g %.17g E %g nu 0.33 rho %g method cb modes 12 zeta 0\n"
                 " marker root node 1\n"
                 "end\n"
                 "joint hold fixed link.root ground.base\n",
                 lk->L, ne, lk->D, lk->d, E_AL, RHO_AL);
        MtSystem *s = mt_test_system(text);
        if (!pass) {
            /* the reduction: the fixed-interface modes of a CB body held at its root
             * are the clamped cantilever's, with the consistent mass */
            const MtFlexBody *fb = s->model->flex[0].data->body;
            printf("   the reduced link (%d elements, consistent mass): its clamped modes\n", ne);
            for (int b = 0; b < 3; b++) {
                snprintf(what, sizeof what, "link%d reduced, beta L = %.4f, vs Euler-Bernoulli [Hz]", which, beta_eb[b]);
                check_two(fb->fix_freq, NULL, fb->nfix, beta_eb[b] * beta_eb[b] * c, what);
            }
            mt_system_free(s);
            continue;
        }
        MtError err = {0};
        MtState *st = mt_state_new(s, &err);
        MtModes *md = NULL;
        if (!st || mt_modes(st, 0, &md, &err)) {
            printf("FAIL modes: %s\n", err.msg);
            exit(1);
        }
        printf("   in the dynamics (%d elements, a fixed joint, mt_modes): a Rayleigh beam\n", ne);
        double fr[64];
        int ok[64], n = md->nmode < 64 ? md->nmode : 64;
        for (int k = 0; k < n; k++) fr[k] = md->mode[k].freq, ok[k] = md->mode[k].kind == MT_MODE_OSCILLATORY;
        for (int b = 0; b < 3; b++) {
            double feb = beta_eb[b] * beta_eb[b] * c, f = rayleigh_freq(feb, EI, rA, rI, lk->L);
            snprintf(what, sizeof what, "link%d, mode %d, vs the Rayleigh beam (Euler-Bernoulli %+.3f %%) [Hz]", which, b + 1,
                     100 * (feb / f - 1));
            check_two(fr, ok, n, f, what);
        }
        mt_modes_free(md);
        mt_state_free(st);
        mt_system_free(s);
    }
}

/* ---- the arm held horizontal: the static tip sag of the chain of cantilevers ---------- */

/* Bending moment at x (from the roll joint) of the loads beyond x: the links'
 * weights q_j over [a_j, b_j] and the payload P at the tip Lt. */
static double moment(double x, const double *a, const double *b, const double *q, double P, double Lt)
{
    double M = P * (Lt - x);
    for (int j = 0; j < 3; j++) {
        if (b[j] <= x) continue;
        double lo = fmax(x, a[j]);
        M += q[j] * (0.5 * (b[j] - x) * (b[j] - x) - 0.5 * (lo - x) * (lo - x));
    }
    return M;
}

static void horizontal_sag(const Link *lk, double g, double m_tip, double h)
{
    const int ne = 16;
    printf("-- the arm held straight and horizontal by its drivers (%d elements a link): static tip sag\n", ne);
    static char text[16384];
    char el[32];
    snprintf(el, sizeof el, " elements %d ", ne);
    const char *from[] = {"parameter sh0 90 deg\n", " elements 8 "}, *to[] = {"parameter sh0 0 deg\n", el};
    variant(text, sizeof text, example, 2, from, to);
    MtSystem *s = mt_test_system(text);
    MtError err = {0};
    MtState *st = mt_state_new(s, &err);
    MtStaticsInfo in;
    MtStatus rc = st ? mt_statics(st, NULL, &in, &err) : MT_ERR_MODEL;
    CHECK(rc == MT_OK, "statics: %s", rc ? err.msg : "ok");
    if (rc != MT_OK) exit(1);
    printf("   %d Newton iterations, residual force %.3g N\n", in.iterations, in.force_residual);
    MtMk tip;
    mt_stage_bodies(st, st->q);
    mt_marker_eval(st, st->q, st->u, mt_model_find_marker(s->model, "link3.tip"), &tip);
    /* unit-load method: δ = ∫ M(x) (Lt − x) / EI(x) dx; M is quadratic and
     * (Lt − x) linear on each link, so Simpson's rule is exact per link */
    double a[3], b[3], q[3], EI[3], x0 = 0;
    for (int j = 0; j < 3; j++) {
        a[j] = x0, b[j] = x0 + lk[j].L, x0 = b[j];
        q[j] = RHO_AL * area(&lk[j]) * g, EI[j] = E_AL * second_moment(&lk[j]);
    }
    double Lt = x0, P = m_tip * g, delta = 0;
    for (int j = 0; j < 3; j++) {
        double xm = 0.5 * (a[j] + b[j]);
        delta += (b[j] - a[j]) / 6 / EI[j] *
                 (moment(a[j], a, b, q, P, Lt) * (Lt - a[j]) + 4 * moment(xm, a, b, q, P, Lt) * (Lt - xm) +
                  moment(b[j], a, b, q, P, Lt) * (Lt - b[j]));
    }
    CHECK_REL(tip.p[1] - h, -delta, 5e-3, "tip sag vs the chain of cantilevers with the payload [m]");
    mt_state_free(st);
    mt_system_free(s);
}

/* ---- E × 10⁶: the rigid arm's motion ------------------------------------------------- */

typedef struct {
    int mk;
    double h, d, L[3], sh0, dq[5], T; /* dq: travel of turn, shoulder, roll, elbow, wrist */
    double err, last; /* largest and last distance from the rigid arm's tip */
    int n;
} Rigid;

/* the tip of the rigid arm at time t (forward kinematics of the driver laws) */
static void rigid_tip(const Rigid *r, double t, double p[3])
{
    double u = fmin(t / r->T, 1), s = u - sin(2 * M_PI * u) / (2 * M_PI);
    double tu = r->dq[0] * s, sh = r->sh0 + r->dq[1] * s, ro = r->dq[2] * s, el = r->dq[3] * s, wr = r->dq[4] * s;
    double a = r->d + r->L[0] + r->L[1] * cos(el) + r->L[2] * cos(el + wr), b = r->L[1] * sin(el) + r->L[2] * sin(el + wr);
    double x1 = a * cos(sh) - b * cos(ro) * sin(sh), y1 = a * sin(sh) + b * cos(ro) * cos(sh), z1 = b * sin(ro);
    p[0] = x1 * cos(tu) + z1 * sin(tu), p[1] = r->h + y1, p[2] = -x1 * sin(tu) + z1 * cos(tu);
}

static int rigid_cb(void *user, MtState *st)
{
    Rigid *r = user;
    MtMk M;
    double p[3];
    mt_marker_eval(st, st->q, st->u, r->mk, &M);
    rigid_tip(r, st->t, p);
    double e = sqrt(pow(M.p[0] - p[0], 2) + pow(M.p[1] - p[1], 2) + pow(M.p[2] - p[2], 2));
    r->err = fmax(r->err, e);
    r->last = e;
    r->n++;
    return 0;
}

static Rigid rigid_of(const MtModel *m)
{
    Rigid r = {0};
    r.h = param(m, "h"), r.d = param(m, "d"), r.sh0 = param(m, "sh0"), r.T = param(m, "T");
    r.L[0] = param(m, "L1"), r.L[1] = param(m, "L2"), r.L[2] = param(m, "L3");
    r.dq[0] = param(m, "dturn"), r.dq[1] = param(m, "dsh"), r.dq[2] = param(m, "droll"), r.dq[3] = param(m, "del");
    r.dq[4] = param(m, "dwr");
    return r;
}

/* Peak distance of the tip from the rigid arm's over a run of text (and the last, into *last). */
static double peak_deflection(const char *text, Rigid r, int *frames, double *last)
{
    MtSystem *s = mt_test_system(text);
    r.mk = mt_model_find_marker(s->model, "link3.tip");
    MtRunStats stats;
    MtState *st = mt_test_run(s, rigid_cb, &r, &stats);
    mt_state_free(st);
    mt_system_free(s);
    if (frames) *frames = r.n;
    if (last) *last = r.last;
    return r.err;
}

static void stiff_arm(const MtModel *m)
{
    printf("-- E x 1e6: the tip against the rigid arm's forward kinematics through the move (to 1.5 s)\n");
    static char text[16384];
    const char *from[] = {"parameter stiff 1\n", "until 2 "}, *to[] = {"parameter stiff 1e6\n", "until 1.5 "};
    variant(text, sizeof text, example, 2, from, to);
    int n;
    double e = peak_deflection(text, rigid_of(m), &n, NULL);
    CHECK(n == 1501, "1501 frames (got %d)", n);
    CHECK_ABS(e, 0, 1e-6, "largest distance of the tip from the rigid arm's [m]");
    /* and the example as it is bends by centimetres: the comparison measures something */
    const char *from2[] = {"until 2 "}, *to2[] = {"until 1.5 "};
    variant(text, sizeof text, example, 1, from2, to2);
    double e1 = peak_deflection(text, rigid_of(m), NULL, NULL);
    printf("     aluminium links: largest tip deflection %.4f m\n", e1);
    CHECK(e1 > 0.01 && e1 < 0.05, "aluminium links: the tip deflects by 1 to 5 cm during the move (%.4f m)", e1);
}

/* ---- the rigid model: the same bodies with the links' mass properties ----------------- */

#define MAXF 3000
typedef struct {
    int mk, n;
    double t[MAXF], p[MAXF][3], eff[MAXF][5];
} Track;

static int track_cb(void *user, MtState *st)
{
    Track *tr = user;
    if (tr->n >= MAXF) return 0;
    MtMk M;
    mt_marker_eval(st, st->q, st->u, tr->mk, &M);
    tr->t[tr->n] = st->t;
    for (int c = 0; c < 3; c++) tr->p[tr->n][c] = M.p[c];
    for (int k = 0; k < 5; k++) tr->eff[tr->n][k] = mt_driver_effort(st, k);
    tr->n++;
    return 0;
}

static void run_track(const char *text, Track *tr)
{
    MtSystem *s = mt_test_system(text);
    tr->mk = mt_model_find_marker(s->model, "link3.tip");
    tr->n = 0;
    MtRunStats stats;
    MtState *st = mt_test_run(s, track_cb, tr, &stats);
    mt_state_free(st);
    mt_system_free(s);
}

/* The example with each link's 'flexible' line replaced by the mass, centre
 * of mass and inertia of its reduced body (exact for the FE model: the
 * inertia invariants' mass, s0 and I0), into out. */
static void rigid_text(const MtModel *m, const char *text, char *out, size_t cap)
{
    static char lines[3][512], repl[3][512];
    const char *from[3], *to[3];
    CHECK(m->nflex == 3, "three flexible links (got %d)", m->nflex);
    for (int i = 0; i < 3 && i < m->nflex; i++) {
        const MtFlexBody *fb = m->flex[i].data->body;
        double M = fb->mass, c[3] = {fb->s0[0] / M, fb->s0[1] / M, fb->s0[2] / M}, cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
        double J[9];
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) J[3 * a + b] = fb->I0[3 * a + b] - M * ((a == b) * cc - c[a] * c[b]);
        /* the line as written: "  flexible beam length {Lk} …" up to its end */
        char key[64];
        snprintf(key, sizeof key, "  flexible beam length {L%d}", i + 1);
        const char *a = strstr(text, key), *e = a ? strchr(a, '\n') : NULL;
        CHECK(a && e && (size_t)(e - a) < sizeof lines[i], "link%d's flexible line", i + 1);
        if (!a || !e || (size_t)(e - a) >= sizeof lines[i]) exit(1);
        memcpy(lines[i], a, (size_t)(e - a)), lines[i][e - a] = 0;
        /* products of inertia: the file's IXY = J[1] (J is the tensor itself) */
        snprintf(repl[i], sizeof repl[i], "  mass %.17g\n  com %.17g %.17g %.17g\n  inertia %.17g %.17g %.17g %.17g %.17g %.17g", M,
                 c[0], c[1], c[2], J[0], J[4], J[8], J[1], J[2], J[5]);
        from[i] = lines[i], to[i] = repl[i];
    }
    variant(out, cap, text, 3, from, to);
}

static void rigid_model(const MtModel *m)
{
    printf("-- E x 1e6 against the rigid model (rigid links of the same mass properties), to 1.5 s\n");
    static char stiff[16384], rigid[16384];
    static Track a, b;
    const char *from[] = {"parameter stiff 1\n", "until 2 "}, *to[] = {"parameter stiff 1e6\n", "until 1.5 "};
    variant(stiff, sizeof stiff, example, 2, from, to);
    rigid_text(m, stiff, rigid, sizeof rigid);
    CHECK(!strstr(rigid, "  flexible beam length"), "the rigid model has no flexible body");
    run_track(stiff, &a);
    run_track(rigid, &b);
    CHECK(a.n == b.n && a.n == 1501, "both write 1501 frames (%d, %d)", a.n, b.n);
    double dp = 0, de[5] = {0}, peak[5] = {0};
    for (int f = 0; f < a.n && f < b.n; f++) {
        dp = fmax(dp, sqrt(pow(a.p[f][0] - b.p[f][0], 2) + pow(a.p[f][1] - b.p[f][1], 2) + pow(a.p[f][2] - b.p[f][2], 2)));
        for (int k = 0; k < 5; k++) de[k] = fmax(de[k], fabs(a.eff[f][k] - b.eff[f][k])), peak[k] = fmax(peak[k], fabs(b.eff[f][k]));
    }
    CHECK_ABS(dp, 0, 1e-6, "largest distance between the two tips [m]");
    /* the torques of the stiff links carry HHT's error of their quasi-static
     * deformation: 7e-4 of the peak at the example's 1 ms, 8e-5 at 0.25 ms (the
     * rigid model's are the inverse dynamics, the same at any step to 1e-8) */
    static const char *const joint[5] = {"turn", "shoulder", "roll", "elbow", "wrist"};
    for (int k = 0; k < 5; k++) {
        char what[96];
        snprintf(what, sizeof what, "%s torque: largest difference / its peak %.4g N m", joint[k], peak[k]);
        CHECK_ABS(de[k] / peak[k], 0, 1e-3, what);
    }
}

/* ---- convergence of the peak tip deflection ------------------------------------------ */

/* The example with the links' modes and elements changed, run to 'until':
 * the peak tip deflection, and the last into *last. */
static double peak_of(const MtModel *m, int modes, int elements, const char *until, double *last)
{
    static char text[16384];
    char mo[32], el[32];
    snprintf(mo, sizeof mo, " modes %d ", modes);
    snprintf(el, sizeof el, " elements %d ", elements);
    const char *from[] = {" modes 4 ", " elements 8 ", "until 2 "}, *to[] = {mo, el, until};
    variant(text, sizeof text, example, 3, from, to);
    return peak_deflection(text, rigid_of(m), NULL, last);
}

static void convergence(const MtModel *m, int table)
{
    static const int modes[4] = {1, 2, 4, 8}, elements[4] = {2, 4, 8, 16};
    if (table) {
        double last[4][4];
        printf("-- peak tip deflection over the 2 s run, mm (rows: modes 1, 2, 4, 8; columns: elements 2, 4, 8, 16)\n");
        for (int i = 0; i < 4; i++) {
            printf("   %d modes:", modes[i]);
            for (int j = 0; j < 4; j++) printf(" %9.4f", 1e3 * peak_of(m, modes[i], elements[j], "until 2 ", &last[i][j])), fflush(stdout);
            printf("\n");
        }
        printf("-- tip deflection at 2 s (one second after the move), mm\n");
        for (int i = 0; i < 4; i++) {
            printf("   %d modes:", modes[i]);
            for (int j = 0; j < 4; j++) printf(" %9.4f", 1e3 * last[i][j]);
            printf("\n");
        }
        return;
    }
    /* the move alone (the peak is near 0.4 s): elements 2 … 16 with 4 modes, modes 1 … 8 with 8 elements */
    printf("-- convergence of the peak tip deflection during the move (to 1 s)\n");
    double pe[4], p1 = peak_of(m, 1, 8, "until 1 ", NULL), p8 = peak_of(m, 8, 8, "until 1 ", NULL);
    for (int j = 0; j < 4; j++) pe[j] = peak_of(m, 4, elements[j], "until 1 ", NULL);
    for (int j = 0; j < 4; j++) printf("     4 modes, %2d elements: %.5f mm\n", elements[j], 1e3 * pe[j]);
    printf("     8 elements: 1 mode %.5f mm, 4 modes %.5f mm, 8 modes %.5f mm\n", 1e3 * p1, 1e3 * pe[2], 1e3 * p8);
    CHECK(fabs(pe[3] - pe[2]) < fabs(pe[2] - pe[1]) && fabs(pe[2] - pe[1]) < fabs(pe[1] - pe[0]) &&
              fabs(pe[3] - pe[2]) < 1e-3 * pe[3],
          "elements 2, 4, 8, 16: the changes shrink, the last below 0.1 %%");
    CHECK(fabs(p8 - pe[2]) < 1e-4 * p8 && fabs(p1 - pe[2]) < 1e-3 * p8,
          "modes 1, 4, 8: the peak (quasi-static, in the interface's static modes) within 0.1 %% of each other");
}

int main(int argc, char **argv)
{
    read_example();
    MtError err = {0};
    MtModel *m = mt_model_parse(example, "manipulator-flex", &err);
    if (!m) {
        printf("FAIL example: %s\n", err.msg);
        return 1;
    }
    if (argc > 1 && !strcmp(argv[1], "--table")) {
        convergence(m, 1);
        mt_model_free(m);
        return 0;
    }
    Link lk[3] = {{param(m, "L1"), param(m, "D1"), param(m, "d1")},
                  {param(m, "L2"), param(m, "D2"), param(m, "d2")},
                  {param(m, "L3"), param(m, "D3"), param(m, "d3")}};
    CHECK(param(m, "E_al") == E_AL && param(m, "rho_al") == RHO_AL, "the example's aluminium is the test's");
    for (int k = 0; k < 3; k++) link_frequencies(&lk[k], k + 1);
    horizontal_sag(lk, param(m, "g"), param(m, "m_tip"), param(m, "h"));
    stiff_arm(m);
    rigid_model(m);
    convergence(m, 0);
    mt_model_free(m);
    return mt_test_done();
}
