/* test_analysis_flex.c — statics and modes (core/analysis/mt_analysis.c) with
 * flexible bodies and point masses, against closed forms:
 *   a clamped steel cantilever of beam elements: the static tip sag under
 *   gravity against Euler–Bernoulli q L⁴ / 8EI, the first three bending
 *   frequencies in both planes against β L = 1.8751, 4.6941, 7.8548;
 *   with a point mass on a spherical joint at its tip: the sag adds
 *   m g L³ / 3EI, the first frequencies follow the tip-mass equation
 *   1 + cos βL cosh βL + μ βL (cos βL sinh βL − sin βL cosh βL) = 0;
 *   without gravity and with Rayleigh damping D = αK, every mode's damping
 *   ratio α ω / 2;
 *   the same beam on a revolute joint (no gravity): one free rotation, the
 *   in-plane bending of the pinned-free beam (β L = 3.9266, 7.0686) and the
 *   out-of-plane bending of the clamped-free one;
 *   on its hinge under gravity, built horizontal: it hangs down and swings
 *   just below the rigid bar's frequency (an upper bound);
 *   floating free: six free motions, each reported once, and free-free
 *   bending (β L = 4.7300, 7.8532);
 *   a tet10 block cantilever: the von Mises stress at the static position
 *   against M c / I at mid-span (where the moment is statically determined);
 *   point masses: a bob on a distance joint hangs straight down and swings
 *   at √(g/L) in both directions; an arm with a point-mass bob at √(M g l / I);
 *   mt_modes_configuration displaces a configuration along a mode. */
#include <string.h>

#include "motus/analysis.h"
#include "motus/flex.h"
#include "motus/flexview.h"
#include "motus/reduce.h"
#include "mt_flex.h"
#include "mt_kin.h"
#include "mt_test.h"

static const double g = 9.81;

/* steel beam: length, section (B along body y, H along body z), material */
static const double bL = 1.0, bB = 0.006, bH = 0.004, bE = 2.1e11, brho = 7850;
#define BEAM_ELEMENTS 150
#define BEAM_MODES 16

static MtState *state_of(const char *text, MtSystem **sp)
{
    MtSystem *s = mt_test_system(text);
    MtError err = {0};
    MtState *st = mt_state_new(s, &err);
    if (!st) {
        printf("FAIL state: %s\n", err.msg);
        exit(1);
    }
    *sp = s;
    return st;
}

static MtModes *modes_or_die(MtState *st, int at_eq)
{
    MtError err = {0};
    MtModes *md = NULL;
    if (mt_modes(st, at_eq, &md, &err)) {
        printf("FAIL modes: %s\n", err.msg);
        exit(1);
    }
    return md;
}

/* Euler–Bernoulli frequency f = (βL)² √(EI/ρA) / (2π L²), Hz. */
static double eb_freq(double betaL, double I)
{
    return betaL * betaL * sqrt(bE * I / (brho * bB * bH)) / (2 * M_PI * bL * bL);
}

/* The oscillatory mode nearest f (relative), or -1. */
static int nearest_mode(const MtModes *md, double f)
{
    int best = -1;
    for (int i = 0; i < md->nmode; i++)
        if (md->mode[i].kind == MT_MODE_OSCILLATORY &&
            (best < 0 || fabs(md->mode[i].freq / f - 1) < fabs(md->mode[best].freq / f - 1)))
            best = i;
    return best;
}

static void check_freq(const MtModes *md, double betaL, double I, const char *what)
{
    double f = eb_freq(betaL, I);
    int k = nearest_mode(md, f);
    char msg[160];
    snprintf(msg, sizeof msg, "%s, beta L = %.4f: frequency vs Euler-Bernoulli [Hz]", what, betaL);
    CHECK(k >= 0, "a mode near %.6g Hz", f);
    if (k >= 0) CHECK_REL(md->mode[k].freq, f, 1e-3, msg);
}

static void beam_model(char *text, size_t n, const char *joint, int gravity)
{
    snprintf(text, n,
             "gravity 0 %s 0\n"
             "ground\n marker base\nend\n"
             "body beam\n"
             " flexible beam length %g elements %d section rect %g %g E %g nu 0.3 rho %g method cb modes %d zeta 0\n"
             " marker root node 1\n marker tip node %d\n"
             "end\n"
             "joint hold %s beam.root ground.base\n",
             gravity ? "-9.81" : "0", bL, BEAM_ELEMENTS, bB, bH, bE, brho, BEAM_MODES, BEAM_ELEMENTS + 1,
             joint);
}

/* ---- a clamped cantilever: static sag and bending frequencies ------------------------- */

static void test_cantilever(void)
{
    printf("-- steel cantilever %g m, %g x %g mm, %d beam elements, Craig-Bampton %d modes: statics and modes\n", bL,
           bB * 1e3, bH * 1e3, BEAM_ELEMENTS, BEAM_MODES);
    char text[1024];
    beam_model(text, sizeof text, "fixed", 1);
    MtSystem *s;
    MtState *st = state_of(text, &s);
    MtStaticsInfo in;
    MtError err = {0};
    MtStatus rc = mt_statics(st, NULL, &in, &err);
    CHECK(rc == MT_OK, "statics: %s", rc ? err.msg : "ok");
    printf("   %d Newton iterations, residual force %.3g N, elastic %.3g\n", in.iterations, in.force_residual,
           in.elastic_residual);
    /* sag along y: B (along y) is the depth */
    const double q = brho * bB * bH * g, Iz = bH * bB * bB * bB / 12, Iy = bB * bH * bH * bH / 12;
    double want = -q * pow(bL, 4) / (8 * bE * Iz);
    MtMk tip, root;
    int mt = mt_model_find_marker(s->model, "beam.tip"), mr = mt_model_find_marker(s->model, "beam.root");
    mt_stage_bodies(st, st->q);
    mt_marker_eval(st, st->q, st->u, mt, &tip);
    mt_marker_eval(st, st->q, st->u, mr, &root);
    CHECK_REL(tip.p[1] - root.p[1], want, 1e-3, "static tip sag under gravity vs q L^4 / 8EI [m]");
    CHECK_ABS(root.p[1], 0, 1e-12, "the clamped root stays [m]");

    MtModes *md = modes_or_die(st, 1);
    CHECK(md->dof == BEAM_MODES, "degrees of freedom: the %d modal coordinates (got %d)", BEAM_MODES, md->dof);
    static const double betas[3] = {1.875104069, 4.694091133, 7.854757438};
    for (int k = 0; k < 3; k++) check_freq(md, betas[k], Iy, "bending across the thin side (z)");
    for (int k = 0; k < 3; k++) check_freq(md, betas[k], Iz, "bending across the deep side (y)");
    /* the mode's shape is the body's: modal coordinates, and its configuration bends the beam in z */
    int k1 = nearest_mode(md, eb_freq(betas[0], Iy));
    CHECK(md->nw[0] == BEAM_MODES && md->woff[0] == 6, "modal coordinates of the beam at 6 … (woff %d, nw %d)", md->woff[0],
          md->nw[0]);
    double *qm = malloc(sizeof(double) * (size_t)md->nq);
    mt_modes_configuration(md, k1, 1e-3, 0, qm);
    memcpy(st->q, qm, sizeof(double) * (size_t)md->nq);
    mt_stage_bodies(st, st->q);
    MtMk tip1, root1;
    mt_marker_eval(st, st->q, st->u, mt, &tip1);
    mt_marker_eval(st, st->q, st->u, mr, &root1);
    printf("   first mode at amplitude 1e-3: tip moves (%.3g, %.3g, %.3g) m, root (%.3g, %.3g, %.3g) m\n", tip1.p[0] - tip.p[0],
           tip1.p[1] - tip.p[1], tip1.p[2] - tip.p[2], root1.p[0] - root.p[0], root1.p[1] - root.p[1], root1.p[2] - root.p[2]);
    CHECK(fabs(tip1.p[2] - tip.p[2]) > 100 * fabs(root1.p[2] - root.p[2]) && fabs(tip1.p[2] - tip.p[2]) > 1e-4,
          "mt_modes_configuration: the first mode moves the tip across the thin side, the clamped root stays");
    free(qm);
    mt_modes_free(md);
    mt_state_free(st);
    mt_system_free(s);
}

/* ---- a cantilever with a point mass at its tip ----------------------------------------- */

/* Lowest root x = βL of the clamped beam with a tip mass μ·ρAL (no rotary
 * inertia): 1 + cos x cosh x + μ x (cos x sinh x − sin x cosh x) = 0, by
 * bisection on (0.5, 1.8752]. */
static double tip_mass_root(double mu)
{
    double lo = 0.5, hi = 1.8752;
    for (int it = 0; it < 200; it++) {
        double x = 0.5 * (lo + hi);
        double fx = 1 + cos(x) * cosh(x) + mu * x * (cos(x) * sinh(x) - sin(x) * cosh(x));
        if (fx > 0) lo = x;
        else hi = x;
    }
    return 0.5 * (lo + hi);
}

static void test_tip_mass(void)
{
    const double mu = 0.2, mbeam = brho * bB * bH * bL, mt = mu * mbeam;
    printf("-- the cantilever with a point mass of %.4g kg (%.2g of the beam's) on a spherical joint at its tip\n", mt, mu);
    char text[1536], beam[1024];
    beam_model(beam, sizeof beam, "fixed", 1);
    snprintf(text, sizeof text, "%sbody bob\n mass %.17g\n point_mass\n position %g 0 0\n marker c\nend\njoint carry spherical bob.c beam.tip\n",
             beam, mt, bL);
    MtSystem *s;
    MtState *st = state_of(text, &s);
    MtModes *md = modes_or_die(st, 1);
    const double q = brho * bB * bH * g, Iz = bH * bB * bB * bB / 12, Iy = bB * bH * bH * bH / 12;
    double want = -(q * pow(bL, 4) / 8 + mt * g * pow(bL, 3) / 3) / (bE * Iz);
    MtMk tip, root;
    mt_stage_bodies(st, st->q);
    mt_marker_eval(st, st->q, st->u, mt_model_find_marker(s->model, "beam.tip"), &tip);
    mt_marker_eval(st, st->q, st->u, mt_model_find_marker(s->model, "beam.root"), &root);
    CHECK_REL(tip.p[1] - root.p[1], want, 1e-3, "static tip sag vs q L^4 / 8EI + m g L^3 / 3EI [m]");
    CHECK_REL(st->q[7 + 1], tip.p[1], 1e-12, "the bob hangs at the tip [m]");
    /* the joint makes the tip an interface node: 6 more modal coordinates (its static modes) */
    CHECK(md->dof == s->nmodal, "degrees of freedom: the beam's %d modal coordinates (the bob follows the tip and does "
          "not turn; got %d)", s->nmodal, md->dof);
    double x = tip_mass_root(mu), f1 = md->nmode > 1 ? md->mode[0].freq : 0, f2 = md->nmode > 1 ? md->mode[1].freq : 0;
    mt_modes_free(md);
    mt_state_free(st);
    mt_system_free(s);
    /* the frequencies without the pre-load of gravity (which shifts them, see test_cantilever) */
    snprintf(text, sizeof text, "%sbody bob\n mass %.17g\n point_mass\n position %g 0 0\n marker c\nend\njoint carry spherical bob.c beam.tip\n",
             beam, mt, bL);
    memcpy(strstr(text, "-9.81"), "0    ", 5);
    st = state_of(text, &s);
    md = modes_or_die(st, 1);
    printf("   beta L with the tip mass: %.9f; under gravity the first two modes are at %.9g and %.9g Hz\n", x, f1, f2);
    check_freq(md, x, Iy, "first bending across the thin side, tip mass, no gravity");
    check_freq(md, x, Iz, "first bending across the deep side, tip mass, no gravity");
    mt_modes_free(md);
    mt_state_free(st);
    mt_system_free(s);
}

/* ---- stiffness-proportional damping: every mode's ζ = α ω / 2 ---------------------- */

static void test_rayleigh(void)
{
    printf("-- the cantilever without gravity, Rayleigh damping D = alpha K: damping ratio of each mode\n");
    const double alpha = 1e-4;
    char text[1024];
    beam_model(text, sizeof text, "fixed", 0);
    char *z = strstr(text, "zeta 0");
    if (!z) { CHECK(0, "model text"); return; }
    char tail[512];
    snprintf(tail, sizeof tail, "rayleigh %g 0%s", alpha, z + strlen("zeta 0"));
    strcpy(z, tail);
    MtSystem *s;
    MtState *st = state_of(text, &s);
    MtModes *md = modes_or_die(st, 1);
    /* the elastic and the damping forces both act on the modal coordinates
     * alone, so D = αK damps every mode of the linearised system at α ω / 2 */
    for (int k = 0; k < 4 && k < md->nmode; k++) {
        char msg[96];
        snprintf(msg, sizeof msg, "mode %d (%.6g Hz): damping ratio vs alpha omega / 2", k + 1, md->mode[k].freq);
        CHECK_REL(md->mode[k].zeta, alpha * 2 * M_PI * md->mode[k].freq / 2, 1e-9, msg);
    }
    mt_modes_free(md);
    mt_state_free(st);
    mt_system_free(s);
}

/* ---- a beam on a revolute joint: a free rotation and pinned-free bending ------------- */

static void test_hinged(void)
{
    printf("-- the same beam on a revolute joint about z, no gravity\n");
    char text[1024];
    beam_model(text, sizeof text, "revolute", 0);
    MtSystem *s;
    MtState *st = state_of(text, &s);
    MtModes *md = modes_or_die(st, 1);
    const double Iz = bH * bB * bB * bB / 12, Iy = bB * bH * bH * bH / 12;
    CHECK(md->dof == BEAM_MODES + 1, "degrees of freedom: the hinge and %d modal coordinates (got %d)", BEAM_MODES, md->dof);
    CHECK(md->nmode > 0 && md->mode[0].kind == MT_MODE_RIGID, "the first mode is the free rotation (%s)",
          md->nmode ? mt_mode_kind_name(md->mode[0].kind) : "none");
    if (md->nmode > 0) CHECK_REL(md->mode[0].coord_re[0], 1, 1e-9, "the free mode turns the hinge (joint angle, normalised)");
    CHECK(md->statics.neutral == 1, "statics: one neutral direction (%d)", md->statics.neutral);
    check_freq(md, 3.926602312, Iz, "in-plane bending, pinned-free");
    check_freq(md, 7.068582745, Iz, "in-plane bending, pinned-free");
    check_freq(md, 1.875104069, Iy, "out-of-plane bending, clamped-free");
    check_freq(md, 4.694091133, Iy, "out-of-plane bending, clamped-free");
    mt_modes_free(md);
    mt_state_free(st);
    mt_system_free(s);

    /* under gravity, built horizontal: it hangs down and swings as a
     * pendulum; the rigid bar's √(m g L/2 / I) bounds the frequency from
     * above (elasticity only adds freedom), and the bar is stiff enough that
     * the bound is within 1e-3 (its first bending mode is 36 times faster) */
    printf("-- the same beam on its hinge under gravity, built horizontal: statics and the pendulum mode\n");
    beam_model(text, sizeof text, "revolute", 1);
    st = state_of(text, &s);
    md = modes_or_die(st, 1);
    double ang = mt_joint_coordinate(st, st->q, 0);
    CHECK_ABS(ang, -M_PI / 2, 1e-9, "statics: the beam hangs straight down (hinge angle) [rad]");
    const double m = brho * bB * bH * bL, Ip = m * (bL * bL / 3 + bB * bB / 12), fr = sqrt(m * g * bL / 2 / Ip) / (2 * M_PI);
    CHECK(md->nmode > 1 && md->mode[0].kind == MT_MODE_OSCILLATORY, "the pendulum mode comes first");
    if (md->nmode > 1) {
        printf("   pendulum %.12g Hz, rigid bar %.12g Hz: %.3g below; next mode %.6g Hz\n", md->mode[0].freq, fr,
               1 - md->mode[0].freq / fr, md->mode[1].freq);
        CHECK(md->mode[0].freq <= fr * (1 + 1e-12), "the flexible pendulum is no faster than the rigid bar");
        CHECK_REL(md->mode[0].freq, fr, 1e-3, "pendulum frequency vs the rigid bar sqrt(m g L/2 / I) [Hz]");
    }
    mt_modes_free(md);
    mt_state_free(st);

    /* downhill first (dynamic relaxation, its explicit steps below the period of the fastest mode), then Newton */
    st = mt_state_new(s, NULL);
    MtStaticsOptions opt = {0};
    opt.relax_first = 1;
    MtStaticsInfo in;
    MtError err = {0};
    MtStatus rc = mt_statics(st, &opt, &in, &err);
    CHECK(rc == MT_OK && in.relax_steps > 0, "statics --relax: %s (%ld relaxation steps, %d Newton iterations)",
          rc ? err.msg : "ok", in.relax_steps, in.iterations);
    CHECK_ABS(mt_joint_coordinate(st, st->q, 0), -M_PI / 2, 1e-9, "statics --relax: hinge angle [rad]");
    mt_state_free(st);
    mt_system_free(s);
}

/* ---- a free flexible body: six free motions, free-free bending ------------------------- */

static void test_free(void)
{
    printf("-- the strip floating free (no joint, no gravity), free-free reduction\n");
    char text[1024];
    snprintf(text, sizeof text,
             "body strip\n flexible beam length %g elements %d section rect %g %g E %g nu 0.3 rho %g method free modes 8 zeta 0\nend\n",
             bL, BEAM_ELEMENTS, bB, bH, bE, brho);
    MtSystem *s;
    MtState *st = state_of(text, &s);
    MtModes *md = modes_or_die(st, 1);
    int nrigid = 0;
    for (int i = 0; i < md->nmode; i++) nrigid += md->mode[i].kind == MT_MODE_RIGID;
    /* each free direction is a double root at zero: reported once */
    CHECK(md->dof == 14 && nrigid == 6 && md->nmode == 14, "14 degrees of freedom, 6 free motions, 14 modes (got %d, %d, %d)",
          md->dof, nrigid, md->nmode);
    const double Iz = bH * bB * bB * bB / 12, Iy = bB * bH * bH * bH / 12;
    check_freq(md, 4.730040745, Iy, "free-free bending across the thin side");
    check_freq(md, 4.730040745, Iz, "free-free bending across the deep side");
    check_freq(md, 7.853204624, Iy, "free-free bending across the thin side");
    mt_modes_free(md);
    mt_state_free(st);
    mt_system_free(s);

    /* a rigid body floating free: its 12 zero roots are 6 free motions */
    st = state_of("body rock\n mass 2\n inertia 0.1 0.2 0.3\nend\n", &s);
    md = modes_or_die(st, 1);
    nrigid = 0;
    for (int i = 0; i < md->nmode; i++) nrigid += md->mode[i].kind == MT_MODE_RIGID;
    CHECK(md->nmode == 6 && nrigid == 6, "a free rigid body: 6 free motions, no more (got %d modes, %d free)", md->nmode, nrigid);
    mt_modes_free(md);
    mt_state_free(st);
    mt_system_free(s);
}

/* ---- stress at the static position: a tet10 block cantilever ------------------------- */

static void test_block_stress(void)
{
    printf("-- tet10 steel block 0.2 x 0.02 x 0.02 m clamped by a spider at x = 0, under gravity: stress at the static position\n");
    const double L = 0.2, a = 0.02, E = 2.1e11, rho = 7850;
    char text[1024];
    snprintf(text, sizeof text,
             "gravity 0 -9.81 0\n"
             "ground\n marker base at 0 0.01 0.01\nend\n"
             "body block\n"
             " flexible mesh %s/block.msh E %g nu 0.3 rho %g method cb modes 6 zeta 0\n"
             " marker root at 0 0.01 0.01 spider 0.0145\n"
             "end\n"
             "joint hold fixed block.root ground.base\n",
             MOTUS_TEST_DATA, E, rho);
    MtSystem *s;
    MtState *st = state_of(text, &s);
    MtError err = {0};
    MtStaticsInfo in;
    MtStatus rc = mt_statics(st, NULL, &in, &err);
    CHECK(rc == MT_OK, "statics: %s", rc ? err.msg : "ok");
    const MtFlexBody *fb = mt_model_flex_body(s->model, 0);
    CHECK(fb && mt_flexview_has_field(fb, MT_FLEXFIELD_VONMISES), "the block has modal stresses");
    if (!fb || rc) goto done;
    const double *w = st->q + 7 * s->nbody + s->flex[0].moff;
    MtFlexInfo fi;
    mt_flex_body_info(fb, &fi);
    float *vm = malloc(sizeof(float) * (size_t)fi.nsv);
    double smax = mt_flexview_field(fb, w, NULL, MT_FLEXFIELD_VONMISES, vm);
    /* top and bottom fibres at mid-span: σ = M c / I with M = q (L − x)² / 2, whatever the clamp does */
    const double x = 0.1, q = rho * a * a * g, I = a * a * a * a / 12, want = q * (L - x) * (L - x) / 2 * (a / 2) / I;
    double got[2] = {0, 0};
    for (int side = 0; side < 2; side++) {
        int best = -1;
        double bd = 1e30;
        for (int v = 0; v < fi.nsv; v++) {
            const float *p = fi.sv_x + 3 * v;
            double d = hypot(hypot(p[0] - x, p[1] - (side ? a : 0)), p[2] - a / 2);
            if (d < bd) { bd = d; best = v; }
        }
        got[side] = vm[best];
    }
    printf("   largest von Mises %.6g Pa (at the clamp); mid-span bottom %.6g Pa, top %.6g Pa, beam theory %.6g Pa\n", smax,
           got[0], got[1], want);
    CHECK_REL(got[0], want, 0.05, "von Mises at mid-span, bottom fibre, vs M c / I [Pa] (coarse tet10)");
    CHECK_REL(got[1], want, 0.05, "von Mises at mid-span, top fibre, vs M c / I [Pa] (coarse tet10)");
    free(vm);
done:
    mt_state_free(st);
    mt_system_free(s);
}

/* ---- point masses ------------------------------------------------------------------------ */

static void test_point_pendulum(void)
{
    printf("-- point-mass bob on a distance joint, started 30 deg out: statics and modes\n");
    const double L = 0.7, th = M_PI / 6;
    char text[1024];
    snprintf(text, sizeof text,
             "gravity 0 -9.81 0\nground\n marker o\nend\n"
             "body bob\n mass 0.3\n point_mass\n position %.17g %.17g 0.1\n marker c\nend\n"
             "joint rod distance bob.c ground.o length %.17g\n",
             L * sin(th), -L * cos(th), L);
    MtSystem *s;
    MtState *st = state_of(text, &s);
    MtError err = {0};
    MtStaticsInfo in;
    MtStatus rc = mt_statics(st, NULL, &in, &err);
    CHECK(rc == MT_OK, "statics: %s", rc ? err.msg : "ok");
    CHECK_ABS(st->q[0], 0, 1e-12, "hanging position x [m]");
    CHECK_ABS(st->q[2], 0, 1e-12, "hanging position z [m]");
    CHECK_REL(st->q[1], -L, 1e-12, "hanging position y = -L [m]");
    CHECK(in.dof == 2 && in.negative == 0 && in.neutral == 0, "two stable directions (dof %d, negative %d, neutral %d)",
          in.dof, in.negative, in.neutral);
    MtModes *md = modes_or_die(st, 1);
    CHECK(md->nmode == 2, "two modes (got %d)", md->nmode);
    for (int i = 0; i < md->nmode; i++) {
        CHECK_REL(md->mode[i].freq, sqrt(g / L) / (2 * M_PI), 1e-12, "swing frequency vs sqrt(g/L) / 2pi [Hz]");
        CHECK_ABS(md->mode[i].shape_re[3] + md->mode[i].shape_re[4] + md->mode[i].shape_re[5], 0, 0,
                  "the point mass does not turn in the mode");
    }
    mt_modes_free(md);
    mt_state_free(st);
    mt_system_free(s);

    printf("-- arm on a revolute joint with a point-mass bob on a spherical joint at its tip\n");
    const double ma = 1.0, Ia = 0.05, la = 0.4, mb = 2.0, Lb = 0.8;
    snprintf(text, sizeof text,
             "gravity 0 -9.81 0\nground\n marker pivot\nend\n"
             "body arm\n mass %g\n com 0 %g 0\n inertia %g %g %g\n orientation axis 0 0 1 0.5\n"
             " marker hinge\n marker tip at 0 %g 0\nend\n"
             "body bob\n mass %g\n point_mass\n position %.17g %.17g 0\n marker c\nend\n"
             "joint pin revolute arm.hinge ground.pivot\n"
             "joint hold spherical bob.c arm.tip\n",
             ma, -la, Ia, Ia, Ia, -Lb, mb, Lb * sin(0.5), -Lb * cos(0.5));
    st = state_of(text, &s);
    md = modes_or_die(st, 1);
    const double I = Ia + ma * la * la + mb * Lb * Lb, Mgl = g * (ma * la + mb * Lb);
    CHECK(md->nmode == 1 && md->dof == 1, "one mode (got %d, dof %d)", md->nmode, md->dof);
    if (md->nmode) CHECK_REL(md->mode[0].freq, sqrt(Mgl / I) / (2 * M_PI), 1e-12, "frequency vs sqrt(M g l / I) / 2pi [Hz]");
    CHECK_ABS(st->q[7], 0, 1e-12, "statics: the bob hangs below the pivot, x [m]");
    CHECK_REL(st->q[8], -Lb, 1e-12, "statics: the bob hangs below the pivot, y [m]");
    mt_modes_free(md);
    mt_state_free(st);
    mt_system_free(s);
}

int main(void)
{
    test_cantilever();
    test_tip_mass();
    test_rayleigh();
    test_hinged();
    test_free();
    test_block_stress();
    test_point_pendulum();
    return mt_test_done();
}
