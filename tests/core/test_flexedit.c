/* test_flexedit.c — flexible bodies made the way the application makes them
 * (core/edit/mt_flexedit.c, and the progress variants of the reduction in
 * mt_flexmodel.c): the strut mesh of the landing-gear example described;
 * a body made from a mesh file, reduced with progress reported, weighs what
 * its steel tube weighs; a cancelled reduction leaves the body unreduced and
 * says so; markers on a node and on a spider join the interface after a
 * refresh; the nearest surface vertex is found. */
#include <string.h>
#include <unistd.h>

#include "mt_flexmodel.h"
#include "motus/flexedit.h"
#include "mt_test.h"

#ifndef MOTUS_PROJECTS_DIR
#define MOTUS_PROJECTS_DIR "projects"
#endif

static void mesh_info(void)
{
    printf("-- the strut mesh of the landing gear\n");
    MtMeshInfo info;
    MtError err = {0};
    CHECK(mt_flexedit_mesh_info(MOTUS_PROJECTS_DIR "/meshes/strut.msh", &info, &err) == MT_OK, "reads (%s)", err.msg);
    CHECK(info.nelem > 1000 && info.count[MT_FE_TET10] == info.nelem, "%d elements, all tet10 (%d)", info.nelem,
          info.count[MT_FE_TET10]);
    CHECK(info.nomat == info.nelem, "a Gmsh file has no materials (%d of %d without)", info.nomat, info.nelem);
    CHECK_ABS(info.hi[0] - info.lo[0], 0.14, 1e-6, "outside diameter along x, m");
    CHECK_ABS(info.hi[1] - info.lo[1], 0.75, 1e-9, "length along y, m");
    MtError e2 = {0};
    CHECK(mt_flexedit_mesh_info("/nonexistent/part.msh", &info, &e2) != MT_OK && strstr(e2.msg, "part.msh"),
          "a missing file is named (%s)", e2.msg);
}

typedef struct {
    int calls, cancel_after;
    char last[32];
    double last_fraction;
} Progress;

static int progress_cb(void *user, const char *stage, double fraction)
{
    Progress *p = user;
    p->calls++;
    snprintf(p->last, sizeof p->last, "%s", stage);
    p->last_fraction = fraction;
    return p->cancel_after > 0 && p->calls >= p->cancel_after;
}

static void mesh_body(void)
{
    printf("-- a body from a mesh, reduced with progress\n");
    /* a tube of the strut's section: mass = rho pi/4 (D^2 - d^2) L */
    MtError err = {0};
    MtModel *m = mt_model_new();
    m->gravity[1] = -9.81;
    MtFlexMeshDef d;
    mt_flex_mesh_def_default(&d);
    snprintf(d.file, sizeof d.file, "%s/meshes/strut.msh", MOTUS_PROJECTS_DIR);
    d.modes = 4;
    d.pos[1] = 1;
    int b = mt_flexedit_add_mesh_body(m, &d, &err);
    CHECK(b == 0 && !strcmp(m->body[0].name, "strut"), "body 'strut' from the file name (%d, %s)", b, err.msg);
    int b2 = mt_flexedit_add_mesh_body(m, &d, &err);
    CHECK(b2 == 1 && !strcmp(m->body[1].name, "strut_2"), "a second one is 'strut_2' (%s)", b2 >= 0 ? m->body[b2].name : err.msg);
    m->nflex = 1, m->nbody = 1; /* keep one */
    CHECK(m->flex[0].data == NULL, "not reduced yet");
    MtFlexMeshDef bad = d;
    bad.modes = 501;
    MtError e3 = {0};
    CHECK(mt_flexedit_add_mesh_body(m, &bad, &e3) < 0 && strstr(e3.msg, "modes"), "501 modes refused (%s)", e3.msg);

    /* cancelled after a few progress reports */
    Progress pc = {0, 3, "", 0};
    MtFeProgress pr = {progress_cb, &pc, NULL};
    MtError ec = {0};
    CHECK(mt_model_reduce_flex_progress(m, NULL, &pr, &ec) == MT_ERR_ARG && strstr(ec.msg, "cancel"),
          "cancelled: %s", ec.msg);
    CHECK(m->flex[0].data == NULL, "a cancelled reduction leaves the body unreduced");
    /* the cancel flag another thread sets */
    volatile int flag = 1;
    MtFeProgress pf = {NULL, NULL, &flag};
    CHECK(mt_model_reduce_flex_progress(m, NULL, &pf, &ec) == MT_ERR_ARG, "the cancel flag stops it too");

    Progress p = {0, 0, "", 0};
    pr.user = &p;
    CHECK(mt_model_reduce_flex_progress(m, NULL, &pr, &err) == MT_OK, "reduces (%s)", err.msg);
    CHECK(p.calls >= 3, "progress reported %d times, last '%s' at %.2f", p.calls, p.last, p.last_fraction);
    const MtFlexBody *fb = m->flex[0].data->body;
    double mass = 7850 * M_PI * 0.25 * (0.14 * 0.14 - 0.11 * 0.11) * 0.75;
    CHECK_REL(m->body[0].mass, mass, 5e-3, "mass of the steel tube, kg");
    CHECK(fb->nmode == 4 && fb->nif == 0, "free modes without markers (%d modes, %d interface nodes)", fb->nmode,
          fb->nif);

    /* markers: one on a surface node, one spider at the bottom ring's centre */
    double bottom[3] = {0, 0, 0}, top_edge[3] = {0.07, 0.75, 0};
    int v = mt_flexedit_nearest_vertex(fb, top_edge);
    CHECK(v >= 0, "a surface vertex near the top edge");
    double dv = 0;
    for (int c = 0; c < 3; c++) dv += (fb->sv_x[3 * v + c] - top_edge[c]) * (fb->sv_x[3 * v + c] - top_edge[c]);
    CHECK(sqrt(dv) < 0.01, "within 10 mm of it (%.4g m)", sqrt(dv));
    int label = fb->sv_id[v];
    int k1 = mt_flexedit_add_marker(m, 0, "", label, NULL, 0, &err);
    int k2 = mt_flexedit_add_marker(m, 0, "", 0, bottom, 0.072, &err);
    CHECK(k1 >= 0 && k2 >= 0, "markers added (%s)", err.msg);
    char want[32];
    snprintf(want, sizeof want, "n%d", label);
    CHECK(!strcmp(m->marker[k1].name, want) && m->marker[k1].node == label, "node marker '%s'", m->marker[k1].name);
    CHECK(!strcmp(m->marker[k2].name, "spider1") && m->marker[k2].spider == 0.072, "spider marker '%s'",
          m->marker[k2].name);
    CHECK_ABS(m->marker[k1].pos[0], fb->sv_x[3 * v], 1e-7, "the node marker starts at its vertex");
    MtError e4 = {0};
    CHECK(mt_flexedit_add_marker(m, 0, "", 0, NULL, 0, &e4) < 0, "a marker without node or spider is refused (%s)",
          e4.msg);
    /* the refresh reduces again: the spider is an interface node (loads act on a spider), the node marker is not */
    p.calls = 0;
    CHECK(mt_model_flex_refresh_progress(m, &pr, &err) == MT_OK, "refresh (%s)", err.msg);
    fb = m->flex[0].data->body;
    CHECK(fb->nif == 1 && p.calls > 0, "one interface node after the refresh (%d), progress %d", fb->nif, p.calls);
    CHECK(mt_flex_data_marker_node(m->flex[0].data, want) == label, "the node marker rides on node %d", label);
    /* geometric stiffening turned on: the refresh reduces again, with the stiffening matrices */
    m->flex[0].stiffening = 1;
    CHECK(mt_model_flex_refresh(m, &err) == MT_OK && m->flex[0].data && m->flex[0].data->body->Kg,
          "stiffening on: reduced again with its matrices (%s)", err.msg);
    m->flex[0].stiffening = 0;
    CHECK(mt_model_flex_refresh(m, &err) == MT_OK && m->flex[0].data && !m->flex[0].data->body->Kg,
          "and off again (%s)", err.msg);
    MtFlexMeshDef ds = d;
    ds.stiffening = 1;
    int b3 = mt_flexedit_add_mesh_body(m, &ds, &err);
    CHECK(b3 >= 0 && m->flex[m->nflex - 1].stiffening == 1, "a mesh body made with stiffening keeps the setting");
    mt_model_free(m);
}

int main(void)
{
    mesh_info();
    mesh_body();
    return mt_test_done();
}
