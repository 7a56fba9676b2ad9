/* test_flexview.c — the view fields of a flexible body (core/flex/mt_flexview.c):
 * von Mises of known stress states; on a reduced solid bar (hex8, free-free
 * modes) the surface displacement of each vertex equals the interface rows
 * of the same node, the von Mises field of a single mode equals the
 * reduction's own modal von Mises, both fields are linear / homogeneous in w
 * as they must be, and a mode shown at a given amplitude reaches exactly
 * that size; a beam has displacement but no stress field; the rigid motion
 * fitted to the supports is exact for a rigid field and, with one support,
 * makes that support's displacement zero; the rates of the surface normals
 * (shading of the deformed body) are exact for rigid tilts of a flat plate
 * and agree with the normals of a slightly deformed bar. */
#include <string.h>

#include "motus/flexview.h"
#include "mt_flexmodel.h"
#include "mt_math.h"
#include "motus/mesh.h"
#include "mt_test.h"

static void von_mises(void)
{
    printf("-- von Mises of known stress states\n");
    double uni[6] = {120e6, 0, 0, 0, 0, 0}, shear[6] = {0, 0, 0, 50e6, 0, 0}, hydro[6] = {7e6, 7e6, 7e6, 0, 0, 0};
    double plane[6] = {100e6, -100e6, 0, 0, 0, 0};
    CHECK_REL(mt_flexview_von_mises(uni), 120e6, 1e-15, "uniaxial: sigma");
    CHECK_REL(mt_flexview_von_mises(shear), sqrt(3) * 50e6, 1e-15, "pure shear: sqrt(3) tau");
    CHECK_ABS(mt_flexview_von_mises(hydro), 0, 1e-9, "hydrostatic: 0");
    CHECK_REL(mt_flexview_von_mises(plane), sqrt(3) * 100e6, 1e-15, "sigma1 = -sigma2: sqrt(3) sigma");
}

/* A steel bar 0.4 x 0.05 x 0.05 m of 8 x 2 x 2 hex8 elements as Abaqus text. */
static char *bar_inp(void)
{
    static char buf[16384];
    int n = 0, nx = 8, ny = 2, nz = 2;
    n += snprintf(buf + n, sizeof buf - n, "*NODE\n");
    for (int k = 0; k <= nz; k++)
        for (int j = 0; j <= ny; j++)
            for (int i = 0; i <= nx; i++)
                n += snprintf(buf + n, sizeof buf - n, "%d, %g, %g, %g\n", 1 + i + (nx + 1) * (j + (ny + 1) * k),
                              0.05 * i, 0.025 * j, 0.025 * k);
    n += snprintf(buf + n, sizeof buf - n, "*ELEMENT, TYPE=C3D8\n");
    int e = 1;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
#define ND(a, b, c) (1 + (i + (a)) + (nx + 1) * ((j + (b)) + (ny + 1) * (k + (c))))
                n += snprintf(buf + n, sizeof buf - n, "%d, %d, %d, %d, %d, %d, %d, %d, %d\n", e++, ND(0, 0, 0),
                              ND(1, 0, 0), ND(1, 1, 0), ND(0, 1, 0), ND(0, 0, 1), ND(1, 0, 1), ND(1, 1, 1), ND(0, 1, 1));
#undef ND
            }
    return buf;
}

static void solid_bar(void)
{
    printf("-- reduced solid bar: surface fields\n");
    MtError err = {0};
    const char *text = bar_inp();
    MtFeModel *fe = mt_mesh_read_text(text, strlen(text), "bar.inp", MT_MESH_INP, &err);
    CHECK(fe != NULL, "the bar mesh reads (%s)", err.msg);
    if (!fe) return;
    CHECK(mt_fe_default_props(fe, 2.1e11, 0.3, 7850, 0, &err) == MT_OK, "material (%s)", err.msg);
    /* two interface nodes (the end centres are not nodes: two corners) so the interface rows can be compared */
    int ifn[2] = {mt_fe_node_index(fe, 1), mt_fe_node_index(fe, 9)};
    MtReduceOptions o;
    mt_reduce_options_init(&o);
    o.method = MT_REDUCE_ATTACH;
    o.nmodes = 6;
    o.nif = 2;
    o.ifnodes = ifn;
    MtFlexBody *fb = mt_flex_reduce(fe, &o, NULL, &err);
    mt_fe_model_free(fe);
    CHECK(fb != NULL, "the bar reduces (%s)", err.msg);
    if (!fb) return;
    int N = fb->nmode;
    CHECK(N >= 6 && fb->nsv > 0 && fb->nst > 0, "modes %d, surface vertices %d, triangles %d", N, fb->nsv, fb->nst);
    CHECK(mt_flexview_has_field(fb, MT_FLEXFIELD_DISPLACEMENT) && mt_flexview_has_field(fb, MT_FLEXFIELD_VONMISES),
          "a solid has both fields");
    CHECK_REL(mt_flexview_size(fb), sqrt(0.4 * 0.4 + 2 * 0.05 * 0.05), 1e-6, "size: diagonal of the bar");

    /* w: a mix of every mode */
    double w[64], w2[64], wn[64];
    for (int k = 0; k < N; k++) w[k] = 1e-3 * (k % 2 ? -1.0 : 1.0) / (1 + k), w2[k] = 2.5 * w[k], wn[k] = -w[k];

    /* surface displacement at the interface nodes = rows ux uy uz of the interface */
    for (int i = 0; i < fb->nif; i++) {
        int v = -1;
        for (int s = 0; s < fb->nsv; s++)
            if (fb->sv_id[s] == fb->if_id[i]) v = s;
        CHECK(v >= 0, "interface node %d is on the surface", fb->if_id[i]);
        if (v < 0) continue;
        double u[3], ref[3] = {0, 0, 0};
        mt_flexview_disp(fb, w, NULL, v, u);
        for (int c = 0; c < 3; c++)
            for (int k = 0; k < N; k++) ref[c] += fb->if_H[(size_t)k * 6 * fb->nif + 6 * i + c] * w[k];
        double d = sqrt((u[0] - ref[0]) * (u[0] - ref[0]) + (u[1] - ref[1]) * (u[1] - ref[1]) +
                        (u[2] - ref[2]) * (u[2] - ref[2]));
        double r = sqrt(ref[0] * ref[0] + ref[1] * ref[1] + ref[2] * ref[2]);
        char what[96];
        snprintf(what, sizeof what, "node %d: |surface u - interface u| / |u|", fb->if_id[i]);
        CHECK_ABS(d / r, 0, 1e-6, what); /* the surface data are float */
    }

    /* deformed positions = x + scale u */
    float *def = malloc(sizeof(float) * 3 * (size_t)fb->nsv), *f1 = malloc(sizeof(float) * (size_t)fb->nsv);
    float *f2 = malloc(sizeof(float) * (size_t)fb->nsv);
    mt_flexview_deformed(fb, w, NULL, 500, def);
    double u[3], worst = 0;
    for (int v = 0; v < fb->nsv; v++) {
        mt_flexview_disp(fb, w, NULL, v, u);
        for (int c = 0; c < 3; c++) worst = fmax(worst, fabs(def[3 * v + c] - (fb->sv_x[3 * v + c] + 500 * u[c])));
    }
    CHECK_ABS(worst, 0, 1e-6, "deformed = x + 500 u (float)");

    /* displacement field: |u|, homogeneous of degree 1 */
    double m1 = mt_flexview_field(fb, w, NULL, MT_FLEXFIELD_DISPLACEMENT, f1);
    double m2 = mt_flexview_field(fb, w2, NULL, MT_FLEXFIELD_DISPLACEMENT, f2);
    CHECK_REL(m2, 2.5 * m1, 1e-12, "max |u| scales with w");
    double fmx = 0;
    for (int v = 0; v < fb->nsv; v++) fmx = fmax(fmx, f1[v]);
    CHECK_REL(fmx, m1, 1e-6, "returned maximum = largest vertex value");

    /* von Mises: one mode alone gives the reduction's modal von Mises */
    double *e = calloc((size_t)N, sizeof(double));
    double worst_vm = 0, scale_vm = 0;
    for (int k = 0; k < N; k++) {
        memset(e, 0, sizeof(double) * (size_t)N);
        e[k] = 1;
        mt_flexview_field(fb, e, NULL, MT_FLEXFIELD_VONMISES, f1);
        for (int v = 0; v < fb->nsv; v++) {
            double ref = fb->sv_vm[(size_t)k * fb->nsv + v];
            worst_vm = fmax(worst_vm, fabs(f1[v] - ref));
            scale_vm = fmax(scale_vm, ref);
        }
    }
    CHECK(scale_vm > 1e6, "the modes stress the bar (largest modal von Mises %.3g Pa per unit w)", scale_vm);
    CHECK_ABS(worst_vm / scale_vm, 0, 1e-6, "unit w_k: von Mises = the reduction's sv_vm (relative)");
    /* von Mises is even and homogeneous in w */
    double s1 = mt_flexview_field(fb, w, NULL, MT_FLEXFIELD_VONMISES, f1);
    double sn = mt_flexview_field(fb, wn, NULL, MT_FLEXFIELD_VONMISES, f2);
    CHECK_REL(sn, s1, 1e-12, "von Mises(-w) = von Mises(w)");
    CHECK_REL(mt_flexview_field(fb, w2, NULL, MT_FLEXFIELD_VONMISES, NULL), 2.5 * s1, 1e-12, "von Mises(2.5 w) = 2.5 von Mises(w)");
    /* but not additive: the mix differs from the sum of the modal values */
    double sum = 0;
    for (int k = 0; k < N; k++) {
        memset(e, 0, sizeof(double) * (size_t)N);
        e[k] = w[k];
        sum += mt_flexview_field(fb, e, NULL, MT_FLEXFIELD_VONMISES, NULL);
    }
    CHECK(s1 < sum, "von Mises of the superposed tensor (%.4g) below the sum of modal maxima (%.4g)", s1, sum);

    /* a mode shown at amplitude a moves its largest vertex by exactly a */
    for (int k = 0; k < N; k += 3) {
        memset(e, 0, sizeof(double) * (size_t)N);
        e[k] = mt_flexview_mode_amplitude(fb, k, 0.04);
        char what[64];
        snprintf(what, sizeof what, "mode %d at amplitude 0.04 m: max |u|", k + 1);
        CHECK_REL(mt_flexview_field(fb, e, NULL, MT_FLEXFIELD_DISPLACEMENT, NULL), 0.04, 1e-6, what);
    }
    free(e), free(def), free(f1), free(f2);
    mt_flex_body_free(fb);
}

/* A made-up body of one "mode" that is a rigid motion t + θ × x: the fit
 * must give back t and θ, and the relative displacement must vanish. */
static void rigid_fit(void)
{
    printf("-- support motion: exact for a rigid field\n");
    const double t[3] = {1e-3, -2e-3, 0.5e-3}, th[3] = {2e-3, 1e-3, -3e-3};
    float sx[3 * 5] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.3f, 0.4f, 0.5f};
    double ifx[9] = {0.2, 0.1, 0, 0.9, 0.2, 0.1, 0.1, 0.8, 0.3}, ifH[18];
    float sH[15];
    for (int i = 0; i < 3; i++) {
        const double *x = ifx + 3 * i;
        double r[3] = {t[0] + th[1] * x[2] - th[2] * x[1], t[1] + th[2] * x[0] - th[0] * x[2],
                       t[2] + th[0] * x[1] - th[1] * x[0]};
        for (int c = 0; c < 3; c++) ifH[6 * i + c] = r[c], ifH[6 * i + 3 + c] = th[c];
    }
    for (int v = 0; v < 5; v++) {
        const float *x = sx + 3 * v;
        sH[3 * v] = (float)(t[0] + th[1] * x[2] - th[2] * x[1]);
        sH[3 * v + 1] = (float)(t[1] + th[2] * x[0] - th[0] * x[2]);
        sH[3 * v + 2] = (float)(t[2] + th[0] * x[1] - th[1] * x[0]);
    }
    MtFlexBody fb;
    memset(&fb, 0, sizeof fb);
    fb.nmode = 1, fb.nif = 3, fb.if_x = ifx, fb.if_H = ifH, fb.nsv = 5, fb.sv_x = sx, fb.sv_H = sH;
    double w[1] = {1}, rig[6];
    mt_flexview_support_motion(&fb, w, rig);
    for (int c = 0; c < 3; c++) {
        CHECK_ABS(rig[c], t[c], 1e-15, "translation");
        CHECK_ABS(rig[3 + c], th[c], 1e-15, "rotation");
    }
    CHECK_ABS(mt_flexview_field(&fb, w, rig, MT_FLEXFIELD_DISPLACEMENT, NULL), 0, 1e-9,
              "largest relative displacement (float data)");
    CHECK(mt_flexview_field(&fb, w, NULL, MT_FLEXFIELD_DISPLACEMENT, NULL) > 1e-3, "without the fit it moves");
    fb.nif = 0;
    mt_flexview_support_motion(&fb, w, rig);
    CHECK(rig[0] == 0 && rig[3] == 0, "no interface: no motion removed");
}

/* One support (a clamp): the fit takes its displacement and rotation, so the
 * support's vertex does not move relative to it. */
static void one_support(void)
{
    printf("-- support motion: one support\n");
    MtError err = {0};
    MtModel *m = mt_model_parse("ground\n marker o\nend\n"
                                "body rod\n"
                                " flexible beam length 0.5 elements 8 section rect 0.02 0.01 E 2e11 nu 0.3 rho 7850 "
                                "method cb modes 4\n"
                                " marker root node 1\n"
                                " marker tip node 9\n"
                                "end\n"
                                "force push actuator rod.root ground.o fx 1\n",
                                "clamp", &err);
    CHECK(m != NULL, "the model reads (%s)", err.msg);
    if (!m) return;
    const MtFlexBody *fb = m->flex[0].data->body;
    CHECK(fb->nif == 1, "one interface node (got %d)", fb->nif);
    double w[16], rig[6], u[3];
    for (int k = 0; k < fb->nmode && k < 16; k++) w[k] = 1e-3 * (k + 1);
    mt_flexview_support_motion(fb, w, rig);
    int root = -1, tip = -1;
    for (int v = 0; v < fb->nsv; v++) {
        if (fb->sv_id[v] == 1) root = v;
        if (fb->sv_id[v] == 9) tip = v;
    }
    mt_flexview_disp(fb, w, NULL, root, u);
    double raw = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    mt_flexview_disp(fb, w, rig, root, u);
    double rel = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    CHECK(raw > 1e-6, "the root moves relative to the floating frame (%.3g m)", raw);
    CHECK_ABS(rel / raw, 0, 1e-6, "root relative to the fitted support (float data)");
    mt_flexview_disp(fb, w, rig, tip, u);
    CHECK(sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) > 10 * rel, "the tip still deflects");
    mt_model_free(m);
}

static void beam(void)
{
    printf("-- flexible beam: displacement only\n");
    MtError err = {0};
    MtModel *m = mt_model_parse("ground\n marker o\nend\n"
                                "body rod\n"
                                " flexible beam length 0.3 elements 10 section circle 0.008 E 7e10 nu 0.33 rho 2700 "
                                "method free modes 4\n"
                                "end\n",
                                "beam", &err);
    CHECK(m != NULL, "the beam model reads (%s)", err.msg);
    if (!m) return;
    const MtFlexBody *fb = m->flex[0].data->body;
    CHECK(fb->nsv == 11 && fb->nseg == 10 && fb->nst == 0, "11 beam nodes, 10 lines, no triangles (got %d %d %d)",
          fb->nsv, fb->nseg, fb->nst);
    CHECK(mt_flexview_has_field(fb, MT_FLEXFIELD_DISPLACEMENT), "a beam has the displacement field");
    CHECK(!mt_flexview_has_field(fb, MT_FLEXFIELD_VONMISES), "a beam has no modal stresses");
    double w[4] = {1, 0, 0, 0};
    CHECK_ABS(mt_flexview_field(fb, w, NULL, MT_FLEXFIELD_VONMISES, NULL), 0, 0, "no stress field: 0");
    CHECK_REL(mt_flexview_size(fb), 0.3, 1e-6, "size: the beam's length");
    mt_model_free(m);
}

/* Mean unit normal of the triangles at each vertex of the surface pos (3·nsv). */
static void vertex_normals(const MtFlexBody *fb, const float *pos, double *vn)
{
    memset(vn, 0, sizeof(double) * 3 * (size_t)fb->nsv);
    for (int t = 0; t < fb->nst; t++) {
        const int *tri = fb->st + 3 * t;
        double e1[3], e2[3], n[3];
        for (int i = 0; i < 3; i++) e1[i] = pos[3 * tri[1] + i] - pos[3 * tri[0] + i], e2[i] = pos[3 * tri[2] + i] - pos[3 * tri[0] + i];
        mt_v3_cross(n, e1, e2);
        double l = sqrt(mt_v3_dot(n, n));
        for (int c = 0; c < 3; c++)
            for (int i = 0; i < 3; i++) vn[3 * tri[c] + i] += n[i] / l;
    }
}

static void normal_rates(void)
{
    printf("-- rates of the surface normals\n");
    /* a flat unit square in the x-y plane, two triangles; modes: a tilt about x
     * (u = e_x × x), a stretch along x, a tilt about y (u_z = x) */
    float x[12] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0}, H[36] = {0};
    int st[6] = {0, 1, 2, 0, 2, 3};
    for (int v = 0; v < 4; v++) {
        H[3 * v + 2] = x[3 * v + 1];            /* mode 0: (0, −z, y) with z = 0 */
        H[3 * (4 + v)] = x[3 * v];              /* mode 1: (x, 0, 0) */
        H[3 * (8 + v) + 2] = x[3 * v];          /* mode 2: (0, 0, x) */
    }
    MtFlexBody fb = {0};
    fb.nmode = 3, fb.nsv = 4, fb.nst = 2, fb.sv_x = x, fb.st = st, fb.sv_H = H;
    float dn[36];
    CHECK(mt_flexview_normal_modes(&fb, dn) == 0, "computed");
    double worst = 0;
    static const double want[3][3] = {{0, -1, 0}, {0, 0, 0}, {-1, 0, 0}};
    for (int k = 0; k < 3; k++)
        for (int v = 0; v < 4; v++)
            for (int i = 0; i < 3; i++) worst = fmax(worst, fabs(dn[3 * (4 * k + v) + i] - want[k][i]));
    CHECK_ABS(worst, 0, 1e-7, "plate: tilt about x turns the normal by e_x × n, a stretch not at all, tilt about y by e_y × n");

    /* the reduced hex8 bar: against the normals of the surface deformed by ε in each mode */
    MtError err = {0};
    const char *text = bar_inp();
    MtFeModel *fe = mt_mesh_read_text(text, strlen(text), "bar.inp", MT_MESH_INP, &err);
    if (!fe || mt_fe_default_props(fe, 2.1e11, 0.3, 7850, 0, &err) != MT_OK) {
        CHECK(0, "the bar (%s)", err.msg);
        return;
    }
    MtReduceOptions o;
    mt_reduce_options_init(&o);
    o.method = MT_REDUCE_MODES, o.nmodes = 4;
    MtFlexBody *b = mt_flex_reduce(fe, &o, NULL, &err);
    mt_fe_model_free(fe);
    CHECK(b && b->nst > 0, "reduced with a surface (%s)", err.msg);
    if (!b) return;
    size_t nsv = (size_t)b->nsv;
    float *d = malloc(sizeof(float) * 3 * nsv * (size_t)b->nmode), *pos = malloc(sizeof(float) * 3 * nsv);
    double *n0 = malloc(sizeof(double) * 3 * nsv), *n1 = malloc(sizeof(double) * 3 * nsv);
    mt_flexview_normal_modes(b, d);
    double w[4] = {0}, rel = 0;
    for (int k = 0; k < b->nmode; k++) {
        double eps = 1e-4 * mt_flexview_mode_amplitude(b, k, 0.4); /* 40 µm at the largest */
        memset(w, 0, sizeof w);
        mt_flexview_deformed(b, w, NULL, 1, pos);
        vertex_normals(b, pos, n0);
        w[k] = eps;
        mt_flexview_deformed(b, w, NULL, 1, pos);
        vertex_normals(b, pos, n1);
        double num = 0, den = 0;
        for (size_t v = 0; v < nsv; v++) {
            int cnt = 0;
            for (int t = 0; t < 3 * b->nst; t++) cnt += b->st[t] == (int)v;
            for (int i = 0; i < 3; i++) {
                double fd = (n1[3 * v + i] - n0[3 * v + i]) / (cnt * eps), an = d[3 * ((size_t)k * nsv + v) + i];
                num = fmax(num, fabs(fd - an)), den = fmax(den, fabs(an));
            }
        }
        rel = fmax(rel, num / den);
    }
    printf("     largest difference from finite differences: %.2g of the largest rate\n", rel);
    CHECK(rel < 3e-3, "bar: the normal rates agree with the normals of a slightly deformed surface (4 modes)");
    free(d), free(pos), free(n0), free(n1);
    mt_flex_body_free(b);
}

int main(void)
{
    von_mises();
    solid_bar();
    rigid_fit();
    one_support();
    beam();
    normal_rates();
    return mt_test_done();
}
