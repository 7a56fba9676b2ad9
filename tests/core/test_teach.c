/* The classroom view's quantities (core/analysis/mt_teach.c):
 * - the free-body diagram: for every rigid body of eight example projects
 *   (revolute chains, a driven four-bar, a slider-crank, springs, a tyre, a
 *   shock strut, contact and friction), the forces drawn plus −m·a of the
 *   centre of mass sum to zero (d'Alembert) at every frame, to 1e-9 of the
 *   largest force on the body;
 * - the instantaneous centre of the four-bar's coupler is where the crank's
 *   and the rocker's lines meet (the closed form), to 1e-9 m, at every frame;
 * - a body that does not turn has no centre; the centre of a rolling wheel is
 *   its contact point;
 * - the momentum (mt_teach_momentum): the pendulum's bob (1 kg, 1 m, from 60°)
 *   has |p| = m L |ω| with ω from its angle alone by the conservation of
 *   energy, ω² = 2 m g L (cos θ − cos θ0) / I_O, to 1e-9 of its largest; two
 *   bodies given a velocity, a spin and a turned pose sum to the hand-worked
 *   Σ m (v + ω × R c) to 1e-15; a missing velocity column gives none. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "motus/results.h"
#include "motus/teach.h"
#include "mt_test.h"

typedef struct {
    const MtModel *m;
    MtCsv *csv;
    double *val, *pose;
    int ncol;
    double worst_fbd, worst_icr, worst_mom, most_mom;
    int frames, arrows, missing_bodies, no_momentum;
} Ctx;

static double value(void *user, const char *column)
{
    Ctx *c = user;
    for (int k = 0; k < c->ncol; k++)
        if (!strcmp(mt_csv_colname(c->csv, k), column)) return c->val[k];
    return NAN;
}

static void body_pt(Ctx *c, int body, const double pb[3], double x[3])
{
    const double *o = c->pose + 7 * body, *q = o + 3;
    double w = q[0], a = q[1], b = q[2], d = q[3];
    double R[9] = {1 - 2 * (b * b + d * d), 2 * (a * b - w * d), 2 * (a * d + w * b),
                   2 * (a * b + w * d),     1 - 2 * (a * a + d * d), 2 * (b * d - w * a),
                   2 * (a * d - w * b),     2 * (b * d + w * a),     1 - 2 * (a * a + b * b)};
    for (int k = 0; k < 3; k++) x[k] = o[k] + R[3 * k] * pb[0] + R[3 * k + 1] * pb[1] + R[3 * k + 2] * pb[2];
}

static void cross(double r[3], const double a[3], const double b[3])
{
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}

static int marker(const MtModel *m, const char *body, const char *name)
{
    for (int k = 0; k < m->nmarker; k++) {
        int b = m->marker[k].body;
        if (!strcmp(m->marker[k].name, name) && !strcmp(b < 0 ? "ground" : m->body[b].name, body)) return k;
    }
    return -1;
}

/* The coupler's centre from the closed form: lines A-B and D-C meet (x-y plane). */
static void fourbar_icr(Ctx *c)
{
    const MtModel *m = c->m;
    int cb = -1;
    for (int b = 0; b < m->nbody; b++)
        if (!strcmp(m->body[b].name, "coupler")) cb = b;
    int kb = marker(m, "crank", "b"), kc = marker(m, "rocker", "c");
    if (cb < 0 || kb < 0 || kc < 0) return;
    double A[2] = {0, 0}, D[2] = {0.4, 0}, B[3], C[3];
    body_pt(c, m->marker[kb].body, m->marker[kb].pos, B);
    body_pt(c, m->marker[kc].body, m->marker[kc].pos, C);
    /* A + s (B − A) = D + u (C − D) */
    double e1[2] = {B[0] - A[0], B[1] - A[1]}, e2[2] = {C[0] - D[0], C[1] - D[1]};
    double det = e1[0] * -e2[1] - e1[1] * -e2[0];
    if (fabs(det) < 1e-2) return; /* crank and rocker nearly parallel: the centre is far away */
    double s = ((D[0] - A[0]) * -e2[1] - (D[1] - A[1]) * -e2[0]) / det;
    double P[2] = {A[0] + s * e1[0], A[1] + s * e1[1]};
    static const char *const sx[3] = {"x", "y", "z"}, *const sv[3] = {"vx", "vy", "vz"}, *const sw[3] = {"wx", "wy", "wz"};
    double x[3], v[3], w[3], p[3];
    char name[MT_NAME_MAX + 16];
    for (int k = 0; k < 3; k++) {
        snprintf(name, sizeof name, "coupler.%s", sx[k]), x[k] = value(c, name);
        snprintf(name, sizeof name, "coupler.%s", sv[k]), v[k] = value(c, name);
        snprintf(name, sizeof name, "coupler.%s", sw[k]), w[k] = value(c, name);
    }
    if (!mt_teach_icr(x, v, w, p)) return;
    double e = hypot(p[0] - P[0], p[1] - P[1]);
    if (e > c->worst_icr) c->worst_icr = e;
}

static int frame(void *user, MtState *st)
{
    Ctx *c = user;
    const MtModel *m = c->m;
    mt_frame_values(c->csv, st, c->val);
    for (int b = 0; b < m->nbody; b++) mt_state_body(st, b, c->pose + 7 * b, c->pose + 7 * b + 3, NULL);
    MtFbdArrow arr[64];
    for (int b = 0; b < m->nbody; b++) {
        int missing;
        int n = mt_teach_fbd(m, b, c->pose, value, c, arr, 64, &missing);
        if (missing || n > 64) {
            c->missing_bodies++;
            continue;
        }
        double sum[3] = {0, 0, 0}, big = 0, a[3], ao[3], w[3], e[3], xc[3], rc[3], t1[3], t2[3];
        static const char *const sa[3] = {"ax", "ay", "az"}, *const sw[3] = {"wx", "wy", "wz"},
                                 *const se[3] = {"ex", "ey", "ez"};
        char name[MT_NAME_MAX + 16];
        for (int k = 0; k < 3; k++) {
            snprintf(name, sizeof name, "%s.%s", m->body[b].name, sa[k]), ao[k] = value(c, name);
            snprintf(name, sizeof name, "%s.%s", m->body[b].name, sw[k]), w[k] = value(c, name);
            snprintf(name, sizeof name, "%s.%s", m->body[b].name, se[k]), e[k] = value(c, name);
        }
        /* the columns give the frame origin's acceleration: a_c = a_o + ε × r + ω × (ω × r) */
        body_pt(c, b, m->body[b].com, xc);
        for (int k = 0; k < 3; k++) rc[k] = xc[k] - c->pose[7 * b + k];
        cross(t1, e, rc);
        cross(t2, w, rc);
        cross(rc, w, t2);
        for (int k = 0; k < 3; k++) {
            a[k] = ao[k] + t1[k] + rc[k];
            sum[k] = -m->body[b].mass * a[k];
            big = fmax(big, fabs(sum[k]));
        }
        for (int i = 0; i < n; i++)
            for (int k = 0; k < 3; k++) sum[k] += arr[i].force[k], big = fmax(big, fabs(arr[i].force[k]));
        double r = sqrt(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]) / fmax(big, 1e-300);
        if (r > c->worst_fbd) c->worst_fbd = r;
        c->arrows += n;
    }
    fourbar_icr(c);
    double p[3];
    if (!mt_teach_momentum(m, c->pose, value, c, p)) c->no_momentum++;
    else if (m->nbody == 1 && !strcmp(m->body[0].name, "bob")) { /* the pendulum: |p| from the angle alone */
        const MtBodySpec *bob = &m->body[0];
        double xc[3], L = sqrt(bob->com[0] * bob->com[0] + bob->com[1] * bob->com[1] + bob->com[2] * bob->com[2]);
        body_pt(c, 0, bob->com, xc);
        double Io = bob->inertia[2] + bob->mass * L * L, g = 9.81, cos0 = cos(60 * M_PI / 180);
        double w2 = 2 * bob->mass * g * L * fmax(-xc[1] / L - cos0, 0) / Io;
        double want = bob->mass * L * sqrt(w2), got = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        c->worst_mom = fmax(c->worst_mom, fabs(got - want));
        c->most_mom = fmax(c->most_mom, want);
    }
    c->frames++;
    return 0;
}

static Ctx run(const char *file, double until)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", MOTUS_PROJECTS_DIR, file);
    MtError err = {0};
    Ctx c = {0};
    MtModel *m = mt_model_load(path, &err);
    CHECK(m != NULL, "%s loads: %s", file, err.msg);
    if (!m) return c;
    m->solver.until = until;
    if (strstr(file, "four-bar")) { /* positions and velocities on their constraints, so the lines are exact */
        m->solver.method = MT_METHOD_DP54;
        m->solver.rtol = 1e-12;
        m->solver.atol = 1e-14;
        m->solver.correct = MT_CORRECT_POS | MT_CORRECT_VEL;
    }
    MtSystem *s = mt_system_compile(m, &err);
    CHECK(s && mt_system_assemble(s, &err) == MT_OK, "%s compiles: %s", file, err.msg);
    MtState *st = mt_state_new(s, &err);
    c.m = mt_system_model(s);
    c.csv = mt_csv_new(s, NULL, &err);
    c.ncol = mt_csv_ncols(c.csv);
    c.val = calloc((size_t)c.ncol, sizeof(double));
    c.pose = calloc(7 * (size_t)m->nbody + 1, sizeof(double));
    CHECK(mt_run(st, &m->solver, frame, &c, NULL, NULL, &err) == MT_OK, "%s runs: %s", file, err.msg);
    mt_csv_free(c.csv);
    free(c.val);
    free(c.pose);
    mt_state_free(st);
    mt_system_free(s);
    mt_model_free(m);
    c.m = NULL;
    return c;
}

/* Two bodies of a frame made up by hand: a (2 kg, centre 0.1 m along its x, turned 90° about z) moving
 * at 1 m/s along x and spinning at 3 rad/s about z; b (3 kg, centre 0.2 m along z, not turned) at 1 m/s
 * along y, spinning at 1 rad/s about x. R c is (0, 0.1, 0) and (0, 0, 0.2); ω × R c is (−0.3, 0, 0) and
 * (0, −0.2, 0): p = 2 (0.7, 0, 0) + 3 (0, 0.8, 0) = (1.4, 2.4, 0). */
static const char *missing_column;
static double made_up(void *user, const char *column)
{
    (void)user;
    static const struct {
        const char *name;
        double v;
    } cols[] = {{"a.vx", 1}, {"a.vy", 0}, {"a.vz", 0}, {"a.wx", 0}, {"a.wy", 0}, {"a.wz", 3},
                {"b.vx", 0}, {"b.vy", 1}, {"b.vz", 0}, {"b.wx", 1}, {"b.wy", 0}, {"b.wz", 0}};
    if (missing_column && !strcmp(column, missing_column)) return NAN;
    for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++)
        if (!strcmp(cols[k].name, column)) return cols[k].v;
    return NAN;
}

static void momentum_by_hand(void)
{
    MtError err = {0};
    MtModel *m = mt_model_parse_text("motus-model 1\n"
                                     "body a\n  mass 2\n  com 0.1 0 0\n  inertia 1 1 1\nend\n"
                                     "body b\n  mass 3\n  com 0 0 0.2\n  inertia 1 1 1\nend\n",
                                     "momentum by hand", &err);
    CHECK(m != NULL, "the two bodies parse: %s", err.msg);
    if (!m) return;
    double h = sqrt(0.5), pose[14] = {5, 6, 7, h, 0, 0, h, -1, 2, 0, 1, 0, 0, 0}, p[3] = {9, 9, 9};
    CHECK(mt_teach_momentum(m, pose, made_up, NULL, p), "the made-up frame has every velocity column");
    CHECK_ABS(p[0], 1.4, 1e-15, "momentum x = 2 (1 - 0.3) kg m/s");
    CHECK_ABS(p[1], 2.4, 1e-15, "momentum y = 3 (1 - 0.2) kg m/s");
    CHECK_ABS(p[2], 0, 1e-15, "momentum z");
    missing_column = "b.wz";
    CHECK(!mt_teach_momentum(m, pose, made_up, NULL, p) && p[0] == 0 && p[1] == 0 && p[2] == 0,
          "without b.wz there is no momentum (%g %g %g)", p[0], p[1], p[2]);
    missing_column = NULL;
    mt_model_free(m);
}

int main(void)
{
    static const struct {
        const char *file;
        double until;
    } cases[] = {{"pendulum.motus.txt", 1},      {"double-pendulum.motus.txt", 1}, {"four-bar.motus.txt", 1},
                 {"slider-crank.motus.txt", 0.5}, {"quarter-car.motus.txt", 0.5},  {"landing-gear.motus.txt", 0.3},
                 {"stick-slip.motus.txt", 1},     {"ball-on-turntable.motus.txt", 0.5}, {"gear-train.motus.txt", 0.2}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Ctx c = run(cases[i].file, cases[i].until);
        printf("%-28s %5d frames, %6d arrows, bodies with couplings left out %d: |ΣF − m·a| / max|F| ≤ %.2e\n",
               cases[i].file, c.frames, c.arrows, c.missing_bodies, c.worst_fbd);
        CHECK(c.frames > 10 && c.worst_fbd < 1e-9, "%s: the free-body diagrams balance m·a (%.2e)", cases[i].file,
              c.worst_fbd);
        if (strstr(cases[i].file, "gear-train")) CHECK(c.missing_bodies > 0, "gear-train: the gears' bodies are said to lack the coupling");
        CHECK(c.no_momentum == 0, "%s: every frame has the momentum (%d without)", cases[i].file, c.no_momentum);
        if (strstr(cases[i].file, "pendulum.motus.txt") == cases[i].file) {
            printf("pendulum: |p| against m L |omega(theta)| from the energy: %.2e of %.6f kg m/s\n", c.worst_mom,
                   c.most_mom);
            CHECK(c.most_mom > 1 && c.worst_mom < 1e-9 * c.most_mom, "pendulum: |p| = m L |omega| (%.2e)", c.worst_mom);
        }
        if (strstr(cases[i].file, "four-bar")) {
            printf("four-bar coupler: instantaneous centre against the closed form: %.2e m\n", c.worst_icr);
            CHECK(c.worst_icr < 1e-9, "four-bar: the coupler's centre where the crank and rocker lines meet (%.2e m)",
                  c.worst_icr);
        }
    }
    /* no turning, no centre; a wheel of radius 0.3 rolling along +x at 2 m/s turns at −2/0.3 about z */
    double c0[3] = {1, 0.3, 0}, v0[3] = {2, 0, 0}, w0[3] = {0, 0, 0}, p[3] = {7, 7, 7};
    CHECK(!mt_teach_icr(c0, v0, w0, p) && p[0] == 7, "a translating body has no centre");
    w0[2] = -2 / 0.3;
    CHECK(mt_teach_icr(c0, v0, w0, p) && fabs(p[0] - 1) < 1e-15 && fabs(p[1]) < 1e-15 && p[2] == 0,
          "a rolling wheel's centre is its contact point (%g %g %g)", p[0], p[1], p[2]);
    momentum_by_hand();
    return mt_test_done();
}
