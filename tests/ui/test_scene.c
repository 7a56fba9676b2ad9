/* Scene building (ui/motus-scene.c): every shape kind gives triangles whose
 * winding agrees with their normals (so nothing is lit from inside), bodies
 * without shapes still get geometry, glyphs and triads are there, poses and
 * springs land where they should, STL and OBJ files load; the levels of
 * detail of round shapes and the choice among them. */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "motus-scene.h"

static MtModel *parse(const char *text)
{
    MtError err = {0};
    MtModel *m = mt_model_parse(text, "<scene test>", &err);
    if (!m) g_error("model does not parse: %s", err.msg);
    return m;
}

/* Each triangle's face normal (from its winding) points the way of its vertex normals. */
static void assert_outward(GArray *tri, const char *what)
{
    g_assert_cmpuint(tri->len % 3, ==, 0);
    guint bad = 0, n = tri->len / 3;
    for (guint k = 0; k < n; k++) {
        const MotusVertex *v = &g_array_index(tri, MotusVertex, 3 * k);
        vec3 a, b, fn, vn = {0, 0, 0};
        glm_vec3_sub((float *)v[1].p, (float *)v[0].p, a);
        glm_vec3_sub((float *)v[2].p, (float *)v[0].p, b);
        glm_vec3_cross(a, b, fn);
        if (glm_vec3_norm(fn) < 1e-12f) continue; /* degenerate (a pole of a sphere) */
        for (int i = 0; i < 3; i++) glm_vec3_add(vn, (float *)v[i].n, vn);
        if (glm_vec3_dot(fn, vn) <= 0) bad++;
    }
    if (bad) g_error("%s: %u of %u triangles wound against their normals", what, bad, n);
}

static const char *shapes_model =
    "motus-model 1\n"
    "gravity 0 0 -9.81\n"
    "ground\n marker o\n shape box 1 1 0.02 at 0 0 -0.3\nend\n"
    "body boxy\n shape box 0.2 0.1 0.05 color 1 0 0\n marker m at 0.1 0 0\nend\n"
    "body cyl\n position 0.5 0 0\n shape cylinder 0.05 0.2 z 1 0 0\n marker m\nend\n"
    "body ball\n position 1 0 0\n shape sphere 0.07\n marker m\nend\n"
    "body pill\n position 1.5 0 0\n shape capsule 0.04 0.2 z 0 1 0\n marker m\nend\n"
    "body rod\n position 2 0 0\n shape bar 0.02 from 0 0 0 to 0.3 0.1 0\n marker m\nend\n"
    "body bare\n position 0 1 0\n com 0.1 0 0\n marker a at 0 0 0\n marker b at 0.4 0 0\nend\n"
    "joint j1 revolute boxy.m ground.o\n"
    "joint j2 prismatic cyl.m ground.o\n"
    "joint j3 spherical ball.m ground.o\n"
    "joint j4 fixed pill.m ground.o\n"
    "spring s rod.m bare.b k 10\n";

static void test_shapes(void)
{
    MtModel *m = parse(shapes_model);
    MotusScene *s = motus_scene_new(m, NULL, NULL);
    g_assert_cmpint(s->nbody, ==, 6);
    for (int b = 0; b <= s->nbody; b++) g_assert_true(s->body[b].closed); /* primitives: back faces culled */
    g_assert_cmpint(s->up_axis, ==, 2);
    g_assert_cmpfloat(s->scale, >, 1);
    for (int b = 0; b <= s->nbody; b++) {
        MotusBodyMesh *bm = &s->body[b];
        g_assert_cmpuint(bm->tri->len, >, 0);
        assert_outward(bm->tri, b < s->nbody ? m->body[b].name : "ground");
        assert_outward(bm->glyph, "glyphs");
        g_assert_cmpfloat(bm->lo[0], <=, bm->hi[0]);
    }
    /* the explicit colour is kept, the automatic one is the palette's */
    const MotusVertex *v = &g_array_index(s->body[0].tri, MotusVertex, 0);
    g_assert_cmpfloat(v->c[0], ==, 1.0f);
    g_assert_cmpfloat(v->c[1], ==, 0.0f);
    float pal[3];
    motus_scene_body_colour(1, pal);
    v = &g_array_index(s->body[1].tri, MotusVertex, 0);
    g_assert_cmpfloat(v->c[2], ==, pal[2]);
    /* box bounds are its half sizes */
    g_assert_cmpfloat_with_epsilon(s->body[0].lo[0], -0.1f, 1e-6f);
    g_assert_cmpfloat_with_epsilon(s->body[0].hi[1], 0.05f, 1e-6f);
    /* cylinder turned to lie along x: 0.2 long in x, 0.1 across */
    g_assert_cmpfloat_with_epsilon(s->body[1].hi[0] - s->body[1].lo[0], 0.2f, 1e-5f);
    /* the bar runs from (0,0,0) to (0.3,0.1,0) */
    g_assert_cmpfloat(s->body[4].hi[0], >=, 0.3f);
    g_assert_cmpfloat(s->body[4].hi[1], >=, 0.1f);
    /* joints get glyphs on the ground (the base body of all four) */
    g_assert_cmpuint(s->body[s->nbody].glyph->len, >, 0);
    /* marker triads: three segments per marker */
    guint axes = 0;
    for (int b = 0; b <= s->nbody; b++) axes += s->body[b].axes->len;
    g_assert_cmpuint(axes, ==, 6u * (guint)m->nmarker);
    /* edges of boxes and cylinders */
    g_assert_cmpuint(s->body[0].edges->len, ==, 24);
    motus_scene_free(s);
    mt_model_free(m);
}

static void test_bare_body(void)
{
    MtModel *m = parse(shapes_model);
    MotusScene *s = motus_scene_new(m, NULL, NULL);
    MotusBodyMesh *bm = &s->body[5]; /* "bare": a box at the centre of mass and sticks to its markers */
    g_assert_cmpuint(bm->tri->len, >, 36);
    g_assert_cmpfloat(bm->lo[0], <, 0.0f + 0.01f);
    g_assert_cmpfloat(bm->hi[0], >, 0.39f);
    g_assert_cmpfloat_with_epsilon(bm->centre[0], 0.2f, 0.05f);
    motus_scene_free(s);
    mt_model_free(m);
}

static void test_poses(void)
{
    MtModel *m = parse("body b\n position 1 2 3\n orientation axis 0 0 1 90deg\n marker p at 1 0 0\nend\n");
    double pose[7];
    motus_scene_model_poses(m, pose);
    mat4 M;
    motus_scene_pose_matrix(pose, M);
    vec4 x = {1, 0, 0, 1}, w;
    glm_mat4_mulv(M, x, w);
    g_assert_cmpfloat_with_epsilon(w[0], 1, 1e-6f);
    g_assert_cmpfloat_with_epsilon(w[1], 3, 1e-6f);
    g_assert_cmpfloat_with_epsilon(w[2], 3, 1e-6f);
    double mw[3];
    motus_scene_marker_world(m, 0, pose, mw);
    g_assert_cmpfloat_with_epsilon(mw[0], 1, 1e-12);
    g_assert_cmpfloat_with_epsilon(mw[1], 3, 1e-12);
    /* rotation matrices of every kind convert to quaternions and back */
    static const double rots[][9] = {
        {1, 0, 0, 0, 1, 0, 0, 0, 1},   {-1, 0, 0, 0, -1, 0, 0, 0, 1}, {1, 0, 0, 0, -1, 0, 0, 0, -1},
        {-1, 0, 0, 0, 1, 0, 0, 0, -1}, {0, -1, 0, 1, 0, 0, 0, 0, 1},  {0, 0, 1, 1, 0, 0, 0, 1, 0},
    };
    for (guint k = 0; k < G_N_ELEMENTS(rots); k++) {
        memcpy(m->body[0].rot, rots[k], sizeof rots[k]);
        motus_scene_model_poses(m, pose);
        motus_scene_pose_matrix(pose, M);
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) g_assert_cmpfloat_with_epsilon(M[c][r], rots[k][3 * r + c], 1e-6f);
    }
    mt_model_free(m);
}

static void test_spring(void)
{
    GArray *tri = g_array_new(FALSE, FALSE, sizeof(MotusVertex));
    double a[3] = {0, 0, 0}, b[3] = {0, 0.5, 0};
    motus_scene_add_spring(tri, 1.0, a, b);
    g_assert_cmpuint(tri->len, >, 1000);
    assert_outward(tri, "spring");
    float lo = INFINITY, hi = -INFINITY, rad = 0;
    for (guint i = 0; i < tri->len; i++) {
        const MotusVertex *v = &g_array_index(tri, MotusVertex, i);
        lo = fminf(lo, v->p[1]), hi = fmaxf(hi, v->p[1]);
        rad = fmaxf(rad, hypotf(v->p[0], v->p[2]));
    }
    g_assert_cmpfloat(lo, <, 0.01f);
    g_assert_cmpfloat(hi, >, 0.49f);
    g_assert_cmpfloat(rad, <, 0.1f);
    g_array_set_size(tri, 0);
    motus_scene_add_spring(tri, 1.0, a, a); /* zero length: nothing */
    g_assert_cmpuint(tri->len, ==, 0);
    g_array_unref(tri);
}

static void test_mesh_files(void)
{
    g_autofree char *dir = g_dir_make_tmp("motus-mesh-XXXXXX", NULL);
    g_assert_nonnull(dir);
    g_autofree char *stl = g_build_filename(dir, "t.stl", NULL);
    g_autofree char *bin = g_build_filename(dir, "b.stl", NULL);
    g_autofree char *obj = g_build_filename(dir, "q.obj", NULL);
    g_autofree char *bad = g_build_filename(dir, "empty.stl", NULL);
    const char *ascii = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\n"
                        "endfacet\nendsolid t\n";
    g_assert_true(g_file_set_contents(stl, ascii, -1, NULL));
    char b[84 + 50] = {0};
    guint32 n = GUINT32_TO_LE(1);
    memcpy(b + 80, &n, 4);
    float tri9[9] = {0, 0, 0, 2, 0, 0, 0, 2, 0};
    memcpy(b + 84 + 12, tri9, sizeof tri9);
    g_assert_true(g_file_set_contents(bin, b, sizeof b, NULL));
    g_assert_true(
        g_file_set_contents(obj, "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1/1 2/2 3/3 4/4\nf -4 -3 -2\n", -1, NULL));
    g_assert_true(g_file_set_contents(bad, "solid nothing\nendsolid\n", -1, NULL));
    double pos[3] = {0, 0, 0}, rot[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    float c[3] = {0.5f, 0.5f, 0.5f};
    GArray *tri = g_array_new(FALSE, FALSE, sizeof(MotusVertex));
    GError *error = NULL;
    g_assert_true(motus_mesh_load(stl, 2.0, pos, rot, c, tri, &error));
    g_assert_cmpuint(tri->len, ==, 3);
    g_assert_cmpfloat(g_array_index(tri, MotusVertex, 1).p[0], ==, 2.0f); /* scaled */
    g_assert_cmpfloat(g_array_index(tri, MotusVertex, 0).n[2], ==, 1.0f);
    g_assert_true(motus_mesh_load(bin, 1.0, pos, rot, c, tri, &error));
    g_assert_cmpuint(tri->len, ==, 6);
    g_assert_true(motus_mesh_load(obj, 1.0, pos, rot, c, tri, &error));
    g_assert_cmpuint(tri->len, ==, 6 + 6 + 3); /* a quad as two triangles, then one */
    g_assert_false(motus_mesh_load(bad, 1.0, pos, rot, c, tri, &error));
    g_assert_nonnull(error);
    g_clear_error(&error);
    g_assert_false(motus_mesh_load("/nonexistent/x.stl", 1.0, pos, rot, c, tri, &error));
    g_clear_error(&error);
    g_array_unref(tri);
    /* a model whose mesh file is missing is still drawn, with a warning naming the body */
    MtModel *m = parse("body wheel\n shape mesh missing.obj\nend\n");
    GString *w = g_string_new(NULL);
    MotusScene *s = motus_scene_new(m, dir, w);
    g_assert_cmpuint(s->body[0].tri->len, >, 0);
    g_assert_nonnull(strstr(w->str, "wheel"));
    g_assert_false(s->body[0].closed); /* a mesh file's winding is unknown: its back faces stay */
    motus_scene_free(s);
    mt_model_free(m);
    g_string_free(w, TRUE);
    g_unlink(stl), g_unlink(bin), g_unlink(obj), g_unlink(bad);
    g_rmdir(dir);
}

static void test_bounds(void)
{
    MtModel *m = parse(shapes_model);
    MotusScene *s = motus_scene_new(m, NULL, NULL);
    double *poses = g_new0(double, 7 * m->nbody);
    motus_scene_model_poses(m, poses);
    float c[3], r;
    motus_scene_bounds(s, poses, c, &r);
    g_assert_cmpfloat(r, >, 1.0f);
    /* the floor lies below everything along z (gravity along -z) */
    g_assert_cmpfloat(motus_scene_floor(s, poses), <, -0.31f);
    g_free(poses);
    motus_scene_free(s);
    mt_model_free(m);
}

/* A flexible body's surface: every triangle wound with its normals, every
 * vertex tied to a surface vertex of the reduction; creases split normals. */
static void assert_flex_surface(const MotusFlexMesh *fm, const char *what)
{
    g_assert_cmpuint(fm->index->len % 3, ==, 0);
    g_assert_cmpuint(fm->index->len, >, 0);
    const MotusFlexVertex *v = (const MotusFlexVertex *)fm->verts->data;
    guint bad = 0, n = fm->index->len / 3;
    for (guint k = 0; k < fm->verts->len; k++) g_assert_cmpint((int)v[k].ref, <, fm->info.nsv);
    for (guint k = 0; k < n; k++) {
        const guint32 *t = &g_array_index(fm->index, guint32, 3 * k);
        g_assert_cmpuint(t[0], <, fm->verts->len);
        vec3 a, b, fn, vn = {0, 0, 0};
        glm_vec3_sub((float *)v[t[1]].p, (float *)v[t[0]].p, a);
        glm_vec3_sub((float *)v[t[2]].p, (float *)v[t[0]].p, b);
        glm_vec3_cross(a, b, fn);
        if (glm_vec3_norm(fn) < 1e-14f) continue;
        for (int i = 0; i < 3; i++) glm_vec3_add(vn, (float *)v[t[i]].n, vn);
        if (glm_vec3_dot(fn, vn) <= 0) bad++;
    }
    if (bad) g_error("%s: %u of %u triangles wound against their normals", what, bad, n);
}

static void test_flex(void)
{
    /* a beam (tubes around its lines) and a solid block of hex8 elements read from a file */
    g_autofree char *dir = g_dir_make_tmp("motus-scene-XXXXXX", NULL);
    g_autofree char *inp = g_build_filename(dir, "block.inp", NULL);
    GString *t = g_string_new("*NODE\n");
    for (int k = 0; k <= 1; k++)
        for (int j = 0; j <= 1; j++)
            for (int i = 0; i <= 2; i++)
                g_string_append_printf(t, "%d, %g, %g, %g\n", 1 + i + 3 * (j + 2 * k), 0.1 * i, 0.05 * j, 0.05 * k);
    g_string_append(t, "*ELEMENT, TYPE=C3D8\n1, 1, 2, 5, 4, 7, 8, 11, 10\n2, 2, 3, 6, 5, 8, 9, 12, 11\n");
    g_assert_true(g_file_set_contents(inp, t->str, -1, NULL));
    g_string_free(t, TRUE);
    g_autofree char *text = g_strdup_printf(
        "ground\n marker o\nend\n"
        "body rod\n flexible beam length 0.3 elements 6 section circle 0.01 E 7e10 nu 0.33 rho 2700 method free "
        "modes 3\nend\n"
        "body bar\n flexible beam length 0.2 elements 4 section rect 0.02 0.01 E 7e10 nu 0.33 rho 2700 method free "
        "modes 2\nend\n"
        "body block\n position 0 1 0\n flexible mesh \"%s\" E 2e11 nu 0.3 rho 7850 method free modes 4\nend\n",
        inp);
    MtModel *m = parse(text);
    MotusScene *s = motus_scene_new(m, dir, NULL);
    g_assert_cmpint(s->nmodal, ==, 3 + 2 + 4);
    const char *names[3] = {"rod", "bar", "block"};
    for (int b = 0; b < 3; b++) {
        const MotusFlexMesh *fm = s->body[b].flex;
        g_assert_nonnull(fm);
        assert_flex_surface(fm, names[b]);
        g_assert_cmpint(fm->spec, ==, b);
        g_assert_cmpint(fm->centre_vertex, >=, 0);
        /* bodies without shapes get no stand-in box */
        g_assert_cmpuint(s->body[b].tri->len, ==, 0);
    }
    g_assert_cmpint(s->body[0].flex->moff, ==, 0);
    g_assert_cmpint(s->body[1].flex->moff, ==, 3);
    g_assert_cmpint(s->body[2].flex->moff, ==, 5);
    /* the tube around the rod: radius 5 mm, length 0.3 m along x */
    g_assert_cmpfloat_with_epsilon(s->body[0].lo[0], 0.0, 1e-6);
    g_assert_cmpfloat_with_epsilon(s->body[0].hi[0], 0.3, 1e-6);
    g_assert_cmpfloat_with_epsilon(s->body[0].hi[1], 0.005, 1e-6);
    /* the rectangular section: 20 mm along y, 10 mm along z */
    g_assert_cmpfloat_with_epsilon(s->body[1].hi[1], 0.01, 1e-6);
    g_assert_cmpfloat_with_epsilon(s->body[1].hi[2], 0.005, 1e-6);
    /* the block: its corners carry three normals each (sharp edges), flat faces one */
    const MotusFlexMesh *blk = s->body[2].flex;
    g_assert_cmpint(blk->info.nsv, ==, 12);
    g_assert_cmpuint(blk->verts->len, ==, 8 * 3 + 4 * 2);
    g_assert_cmpfloat_with_epsilon(s->body[2].hi[0], 0.2, 1e-6);
    motus_scene_free(s);
    mt_model_free(m);
    g_unlink(inp);
    g_rmdir(dir);
}

/* Levels of detail: round shapes at 32, 16 and 8 segments, outward, on their
 * surface; bodies with nothing round, mesh files or flexible surfaces keep one. */
static void test_lod_meshes(void)
{
    MtModel *m = parse(shapes_model);
    MotusScene *s = motus_scene_new(m, NULL, NULL);
    const MotusBodyMesh *ball = &s->body[2], *boxy = &s->body[0], *cyl = &s->body[1];
    /* a sphere of n segments around and n/2 rings: n² triangles */
    g_assert_cmpuint(ball->tri->len, ==, 3u * 32 * 32);
    g_assert_cmpuint(ball->coarse[0].tri->len, ==, 3u * 16 * 16);
    g_assert_cmpuint(ball->coarse[1].tri->len, ==, 3u * 8 * 8);
    for (int l = 0; l < MOTUS_LOD_LEVELS - 1; l++) {
        const GArray *t = ball->coarse[l].tri;
        /* every vertex 2/(1 + cos(π/n)) radii out (the ball: 0.07, centred), the polygon straddling the circle */
        double c = cos(G_PI / MOTUS_LOD_SEGMENTS(l + 1)), out = 0.07 * 2 / (1 + c);
        for (guint k = 0; k < t->len; k++)
            g_assert_cmpfloat_with_epsilon(glm_vec3_norm((float *)g_array_index(t, MotusVertex, k).p), out, 1e-6f);
        assert_outward(ball->coarse[l].tri, "coarse ball");
        assert_outward(cyl->coarse[l].tri, "coarse cylinder");
        assert_outward(s->body[3].coarse[l].tri, "coarse capsule");
        assert_outward(s->body[4].coarse[l].tri, "coarse bar");
        assert_outward(s->body[s->nbody].coarse[l].glyph, "coarse glyphs");
    }
    /* the ball's bounding sphere is the ball (its joint's glyph sits on the ground) */
    g_assert_cmpfloat_with_epsilon(ball->radius, 0.07f, 1e-6f);
    /* the cylinder's edges: two rings of n segments, two points each */
    g_assert_cmpuint(cyl->edges->len, ==, 4u * 32);
    g_assert_cmpuint(cyl->coarse[1].edges->len, ==, 4u * 8);
    /* the box body has nothing round: one level */
    g_assert_null(boxy->coarse[0].tri);
    g_assert_null(boxy->coarse[1].tri);
    motus_scene_free(s);
    mt_model_free(m);
    /* a mesh file and a flexible body keep one level, beside a ball that gets three */
    g_autofree char *dir = g_dir_make_tmp("motus-lod-XXXXXX", NULL);
    g_autofree char *obj = g_build_filename(dir, "q.obj", NULL);
    g_assert_true(g_file_set_contents(obj, "v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 3\n", -1, NULL));
    m = parse("body part\n shape mesh q.obj\n shape sphere 0.1\nend\n"
              "body rod\n flexible beam length 0.3 elements 6 section circle 0.01 E 7e10 nu 0.33 rho 2700 "
              "method free modes 3\n shape sphere 0.05\nend\n"
              "body ball\n shape sphere 0.1\nend\n");
    s = motus_scene_new(m, dir, NULL);
    g_assert_null(s->body[0].coarse[0].tri);
    g_assert_nonnull(s->body[1].flex);
    g_assert_null(s->body[1].coarse[0].tri);
    g_assert_nonnull(s->body[2].coarse[0].tri);
    motus_scene_free(s);
    mt_model_free(m);
    g_unlink(obj);
    g_rmdir(dir);
}

/* The choice of level: a circle of radius ρ px drawn as a polygon of n sides
 * whose vertices lie k = 2/(1 + cos(π/n)) radii out is off by ρ(k − 1) px at
 * its vertices and as much at the middles of its sides; the coarsest level
 * keeping that ≤ 0.5 px: 8 segments up to ρ = 0.5(1 + cos(π/8))/(1 − cos(π/8))
 * = 12.637 px, 16 up to 0.5(1 + cos(π/16))/(1 − cos(π/16)) = 51.543 px, then 32. */
static void test_lod_choice(void)
{
    const double deg = G_PI / 180;
    /* a ball of 0.1 m radius 10 m ahead, 30° field of view, 800 px high:
     * 0.1 / √(10² − 0.1²) / tan 15° · 400 = 14.929 px */
    g_assert_cmpfloat_with_epsilon(motus_lod_radius_px(0.1, 10, 30 * deg, 800), 14.929, 1e-3);
    /* twice as far: half the size; twice the pixels: twice the size */
    g_assert_cmpfloat_with_epsilon(motus_lod_radius_px(0.1, 20, 30 * deg, 800),
                                   0.5 * motus_lod_radius_px(0.1, 10, 30 * deg, 800), 1e-3);
    g_assert_cmpfloat_with_epsilon(motus_lod_radius_px(0.1, 10, 30 * deg, 1600),
                                   2 * motus_lod_radius_px(0.1, 10, 30 * deg, 800), 1e-9);
    /* the eye inside the sphere or the sphere behind it: no size to go by */
    g_assert_true(isinf(motus_lod_radius_px(0.1, 0.05, 30 * deg, 800)));
    g_assert_true(isinf(motus_lod_radius_px(0.1, -5, 30 * deg, 800)));
    /* thresholds */
    static const struct {
        double px;
        int level;
    } cases[] = {{0, 2},    {3, 2},      {10, 2} /* a ball 20 px across: 8 segments */,
                 {12.63, 2}, {12.65, 1}, {30, 1}, {51.5, 1}, {51.6, 0}, {200, 0}, {INFINITY, 0}};
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_test_message("%.2f px: level %d", cases[i].px, motus_lod_level(cases[i].px));
        g_assert_cmpint(motus_lod_level(cases[i].px), ==, cases[i].level);
    }
    g_assert_cmpint(motus_lod_level(NAN), ==, 0);
    /* the same ball at three distances: 0.5 m (300 px) → 32 segments, 5 m (29.9 px) → 16, 50 m (3 px) → 8 */
    g_assert_cmpint(motus_lod_level(motus_lod_radius_px(0.1, 0.5, 30 * deg, 800)), ==, 0);
    g_assert_cmpint(motus_lod_level(motus_lod_radius_px(0.1, 5, 30 * deg, 800)), ==, 1);
    g_assert_cmpint(motus_lod_level(motus_lod_radius_px(0.1, 50, 30 * deg, 800)), ==, 2);
    g_assert_cmpint(MOTUS_LOD_SEGMENTS(0), ==, 32);
    g_assert_cmpint(MOTUS_LOD_SEGMENTS(MOTUS_LOD_LEVELS - 1), ==, 8);
}

static void test_colormap(void)
{
    float lo[3], hi[3], mid[3], below[3], above[3];
    motus_colormap(0, lo);
    motus_colormap(1, hi);
    motus_colormap(0.45, mid);
    motus_colormap(-3, below);
    motus_colormap(NAN, above); /* NaN: the bottom, never garbage */
    g_assert_cmpfloat(lo[2], >, lo[0] + 0.4f);   /* blue at the bottom */
    g_assert_cmpfloat(hi[0], >, hi[2] + 0.6f);   /* red at the top */
    g_assert_cmpfloat(mid[1], >, mid[0] + 0.5f); /* green in the middle */
    g_assert_true(!memcmp(lo, below, sizeof lo) && !memcmp(lo, above, sizeof lo));
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/scene/shapes", test_shapes);
    g_test_add_func("/scene/bare-body", test_bare_body);
    g_test_add_func("/scene/poses", test_poses);
    g_test_add_func("/scene/spring", test_spring);
    g_test_add_func("/scene/mesh-files", test_mesh_files);
    g_test_add_func("/scene/bounds", test_bounds);
    g_test_add_func("/scene/flex", test_flex);
    g_test_add_func("/scene/colormap", test_colormap);
    g_test_add_func("/scene/lod-meshes", test_lod_meshes);
    g_test_add_func("/scene/lod-choice", test_lod_choice);
    return g_test_run();
}
