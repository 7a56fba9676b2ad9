/* Orbit camera math (ui/motus-camera.c): presets look along the expected
 * axes for y-up and z-up worlds, the basis stays orthonormal, orbit, pan,
 * zoom and fit-all behave, projection matches the view matrix. */
#include <glib.h>
#include <math.h>

#include "motus-camera.h"

#define EPS 1e-5f

static void assert_vec(const float *v, float x, float y, float z)
{
    g_assert_cmpfloat_with_epsilon(v[0], x, EPS);
    g_assert_cmpfloat_with_epsilon(v[1], y, EPS);
    g_assert_cmpfloat_with_epsilon(v[2], z, EPS);
}

static void assert_orthonormal(const MotusCamera *c)
{
    float r[3], u[3], f[3], x[3];
    motus_camera_basis(c, r, u, f);
    g_assert_true(isfinite(r[0]) && isfinite(u[0]) && isfinite(f[0]));
    g_assert_cmpfloat_with_epsilon(glm_vec3_norm(r), 1, EPS);
    g_assert_cmpfloat_with_epsilon(glm_vec3_norm(u), 1, EPS);
    g_assert_cmpfloat_with_epsilon(glm_vec3_norm(f), 1, EPS);
    g_assert_cmpfloat_with_epsilon(glm_vec3_dot(r, u), 0, EPS);
    g_assert_cmpfloat_with_epsilon(glm_vec3_dot(r, f), 0, EPS);
    g_assert_cmpfloat_with_epsilon(glm_vec3_dot(u, f), 0, EPS);
    /* right-handed: right × up points back at the eye */
    glm_vec3_cross(r, u, x);
    assert_vec(x, -f[0], -f[1], -f[2]);
}

static void test_presets_y_up(void)
{
    MotusCamera c;
    float r[3], u[3], f[3];
    motus_camera_init(&c, 1);
    motus_camera_preset(&c, MOTUS_VIEW_FRONT);
    motus_camera_basis(&c, r, u, f);
    assert_vec(f, 0, 0, -1), assert_vec(r, 1, 0, 0), assert_vec(u, 0, 1, 0);
    motus_camera_preset(&c, MOTUS_VIEW_RIGHT);
    motus_camera_basis(&c, r, u, f);
    assert_vec(f, -1, 0, 0), assert_vec(u, 0, 1, 0), assert_vec(r, 0, 0, -1);
    motus_camera_preset(&c, MOTUS_VIEW_TOP);
    motus_camera_basis(&c, r, u, f);
    assert_vec(f, 0, -1, 0), assert_vec(r, 1, 0, 0), assert_vec(u, 0, 0, -1);
    assert_orthonormal(&c);
    motus_camera_preset(&c, MOTUS_VIEW_ISO);
    motus_camera_basis(&c, r, u, f);
    float s = -1.0f / sqrtf(3.0f);
    assert_vec(f, s, s, s); /* looking from (1, 1, 1) */
    assert_orthonormal(&c);
}

static void test_presets_z_up(void)
{
    MotusCamera c;
    float r[3], u[3], f[3];
    motus_camera_init(&c, 2);
    motus_camera_preset(&c, MOTUS_VIEW_FRONT);
    motus_camera_basis(&c, r, u, f);
    assert_vec(f, 0, 1, 0), assert_vec(r, 1, 0, 0), assert_vec(u, 0, 0, 1);
    motus_camera_preset(&c, MOTUS_VIEW_TOP);
    motus_camera_basis(&c, r, u, f);
    assert_vec(f, 0, 0, -1), assert_vec(r, 1, 0, 0), assert_vec(u, 0, 1, 0);
    motus_camera_preset(&c, MOTUS_VIEW_RIGHT);
    motus_camera_basis(&c, r, u, f);
    assert_vec(f, -1, 0, 0), assert_vec(u, 0, 0, 1);
    double g1[3] = {0, -9.81, 0}, g2[3] = {0, 0, -9.81}, g0[3] = {0, 0, 0}, g3[3] = {0, 0, 9.81};
    g_assert_cmpint(motus_camera_up_axis_for_gravity(g1), ==, 1);
    g_assert_cmpint(motus_camera_up_axis_for_gravity(g2), ==, 2);
    g_assert_cmpint(motus_camera_up_axis_for_gravity(g0), ==, 1);
    g_assert_cmpint(motus_camera_up_axis_for_gravity(g3), ==, 1);
    float v[3] = {0.3f, -0.2f, 0.9f}, w[3], back[3];
    motus_camera_to_world(&c, v, w);
    motus_camera_from_world(&c, w, back);
    assert_vec(back, v[0], v[1], v[2]);
}

static void test_view_matrix(void)
{
    MotusCamera c;
    motus_camera_init(&c, 1);
    c.target[0] = 1, c.target[1] = 2, c.target[2] = -3;
    c.distance = 7;
    motus_camera_orbit(&c, 0.4f, -0.3f);
    mat4 V;
    motus_camera_view(&c, V);
    vec4 t = {1, 2, -3, 1}, e;
    glm_mat4_mulv(V, t, e);
    assert_vec(e, 0, 0, -7); /* the target sits straight ahead at the distance */
    float eye[3];
    motus_camera_eye(&c, eye);
    vec4 ev = {eye[0], eye[1], eye[2], 1}, o;
    glm_mat4_mulv(V, ev, o);
    assert_vec(o, 0, 0, 0);
    g_assert_cmpfloat_with_epsilon(glm_vec3_distance(eye, c.target), 7, 1e-4f);
}

static void test_orbit(void)
{
    MotusCamera c;
    motus_camera_init(&c, 1);
    float e0[3], e1[3];
    motus_camera_eye(&c, e0);
    for (int i = 0; i < 8; i++) motus_camera_orbit(&c, (float)G_PI / 4, 0);
    motus_camera_eye(&c, e1);
    assert_vec(e1, e0[0], e0[1], e0[2]);
    motus_camera_orbit(&c, 0, 10);
    g_assert_cmpfloat_with_epsilon(c.pitch, (float)G_PI / 2, EPS);
    assert_orthonormal(&c);
    motus_camera_orbit(&c, 0.3f, -20);
    g_assert_cmpfloat_with_epsilon(c.pitch, -(float)G_PI / 2, EPS);
    assert_orthonormal(&c);
}

static void test_pan_zoom(void)
{
    MotusCamera c;
    motus_camera_init(&c, 1);
    float W = 800, H = 600, p0[2], p1[2];
    float pt[3] = {0.2f, 0.1f, -0.3f};
    g_assert_true(motus_camera_project(&c, pt, W, H, p0));
    /* the target moves, so the scene follows the pointer: +30 px right, +20 px down */
    motus_camera_pan(&c, 30, 20, H);
    g_assert_true(motus_camera_project(&c, pt, W, H, p1));
    g_assert_cmpfloat_with_epsilon(p1[0] - p0[0], 30, 0.5f);
    g_assert_cmpfloat_with_epsilon(p1[1] - p0[1], 20, 0.5f);
    float d = c.distance;
    motus_camera_zoom(&c, 0.5f);
    g_assert_cmpfloat_with_epsilon(c.distance, d * 0.5f, 1e-6f);
    motus_camera_zoom(&c, 0);
    g_assert_cmpfloat_with_epsilon(c.distance, d * 0.5f, 1e-6f);
    motus_camera_zoom(&c, 1e-12f);
    g_assert_cmpfloat(c.distance, >, 0);
    /* a point behind the eye does not project */
    float eye[3], r[3], u[3], f[3], behind[3];
    motus_camera_eye(&c, eye);
    motus_camera_basis(&c, r, u, f);
    for (int i = 0; i < 3; i++) behind[i] = eye[i] - f[i];
    g_assert_false(motus_camera_project(&c, behind, W, H, p1));
}

static void check_fit(int ortho, float aspect)
{
    MotusCamera c;
    motus_camera_init(&c, 1);
    c.ortho = ortho;
    float centre[3] = {0.25f, -0.1f, 0.05f}, rad = 0.3f;
    motus_camera_fit(&c, centre, rad, aspect);
    float H = 500, W = H * aspect, p[2];
    g_assert_true(motus_camera_project(&c, centre, W, H, p));
    g_assert_cmpfloat_with_epsilon(p[0], W / 2, 0.01f);
    g_assert_cmpfloat_with_epsilon(p[1], H / 2, 0.01f);
    for (int view = 0; view < 4; view++) {
        motus_camera_preset(&c, (MotusViewPreset)view);
        for (int a = 0; a < 3; a++)
            for (int s = -1; s <= 1; s += 2) {
                float q[3] = {centre[0], centre[1], centre[2]};
                q[a] += s * rad;
                g_assert_true(motus_camera_project(&c, q, W, H, p));
                g_assert_cmpfloat(p[0], >=, 0);
                g_assert_cmpfloat(p[0], <=, W);
                g_assert_cmpfloat(p[1], >=, 0);
                g_assert_cmpfloat(p[1], <=, H);
            }
    }
}

/* Boxes of any shape fit at every preset, in both projections. */
static void test_fit_box(void)
{
    GRand *g = g_rand_new_with_seed(7);
    for (int k = 0; k < 200; k++) {
        MotusCamera c;
        motus_camera_init(&c, 1 + k % 2);
        c.ortho = k % 3 == 0;
        float lo[3], hi[3], aspect = (float)g_rand_double_range(g, 0.4, 2.5), H = 400, W = H * aspect, p[2];
        for (int i = 0; i < 3; i++) {
            lo[i] = (float)g_rand_double_range(g, -2, 1);
            hi[i] = lo[i] + (float)g_rand_double_range(g, 0.001, 3);
        }
        motus_camera_preset(&c, (MotusViewPreset)(k % 4));
        motus_camera_orbit(&c, (float)g_rand_double_range(g, -0.3, 0.3), (float)g_rand_double_range(g, -0.3, 0.3));
        motus_camera_fit_box(&c, lo, hi, aspect);
        float ext = 0;
        for (int j = 0; j < 8; j++) {
            float q[3] = {j & 1 ? hi[0] : lo[0], j & 2 ? hi[1] : lo[1], j & 4 ? hi[2] : lo[2]};
            g_assert_true(motus_camera_project(&c, q, W, H, p));
            g_assert_cmpfloat(p[0], >=, -0.01f);
            g_assert_cmpfloat(p[0], <=, W + 0.01f);
            g_assert_cmpfloat(p[1], >=, -0.01f);
            g_assert_cmpfloat(p[1], <=, H + 0.01f);
            ext = fmaxf(ext, fmaxf(fabsf(p[0] - W / 2) / W, fabsf(p[1] - H / 2) / H));
        }
        g_assert_cmpfloat(ext, >, 0.3f); /* and it fills the view, not a corner of it */
    }
    g_rand_free(g);
}

/* Boxes fit in the part of the view that controls leave free (a bar along the
 * bottom, a legend on the right, a toolbar on top): every corner inside it,
 * centred in it, and filling it; in both projections, at every depth. */
static void test_fit_inset(void)
{
    GRand *g = g_rand_new_with_seed(11);
    for (int k = 0; k < 300; k++) {
        MotusCamera c;
        motus_camera_init(&c, 1 + k % 2);
        c.ortho = k % 3 == 0;
        float W = (float)g_rand_double_range(g, 300, 1200), H = (float)g_rand_double_range(g, 250, 800);
        float in[4] = {(float)g_rand_double_range(g, 0, 0.2) * W, (float)g_rand_double_range(g, 0, 0.2) * H,
                       (float)g_rand_double_range(g, 0, 0.3) * W, (float)g_rand_double_range(g, 0, 0.3) * H};
        float lo[3], hi[3], pts[24], p[2];
        for (int i = 0; i < 3; i++) {
            lo[i] = (float)g_rand_double_range(g, -2, 1);
            hi[i] = lo[i] + (float)g_rand_double_range(g, 0.001, 3);
        }
        for (int j = 0; j < 8; j++) {
            pts[3 * j] = j & 1 ? hi[0] : lo[0];
            pts[3 * j + 1] = j & 2 ? hi[1] : lo[1];
            pts[3 * j + 2] = j & 4 ? hi[2] : lo[2];
        }
        motus_camera_preset(&c, (MotusViewPreset)(k % 4));
        motus_camera_orbit(&c, (float)g_rand_double_range(g, -0.4, 0.4), (float)g_rand_double_range(g, -0.4, 0.4));
        motus_camera_fit_points_in(&c, pts, 8, W, H, in);
        float x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY, tol = 1e-3f * (W + H);
        for (int j = 0; j < 8; j++) {
            g_assert_true(motus_camera_project(&c, pts + 3 * j, W, H, p));
            x0 = fminf(x0, p[0]), x1 = fmaxf(x1, p[0]), y0 = fminf(y0, p[1]), y1 = fmaxf(y1, p[1]);
        }
        float fw = W - in[0] - in[2], fh = H - in[1] - in[3];
        /* inside the free rectangle with the fit's margin (1/1.1 of it) */
        g_assert_cmpfloat(x0, >=, in[0] + 0.045f * fw - tol);
        g_assert_cmpfloat(x1, <=, W - in[2] - 0.045f * fw + tol);
        g_assert_cmpfloat(y0, >=, in[1] + 0.045f * fh - tol);
        g_assert_cmpfloat(y1, <=, H - in[3] - 0.045f * fh + tol);
        /* and touching the margin on one axis at both ends, centred on it */
        float ux = (x1 - x0) / (fw / 1.1f), uy = (y1 - y0) / (fh / 1.1f);
        g_assert_cmpfloat(fmaxf(ux, uy), >, 0.995f);
        if (ux > uy)
            g_assert_cmpfloat(fabsf(0.5f * (x0 + x1) - (in[0] + 0.5f * fw)), <, tol);
        else
            g_assert_cmpfloat(fabsf(0.5f * (y0 + y1) - (in[1] + 0.5f * fh)), <, tol);
    }
    g_rand_free(g);
}

static void test_fit(void)
{
    check_fit(0, 1.6f);
    check_fit(0, 0.6f);
    check_fit(1, 1.6f);
    check_fit(1, 0.6f);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/camera/presets-y-up", test_presets_y_up);
    g_test_add_func("/camera/presets-z-up", test_presets_z_up);
    g_test_add_func("/camera/view-matrix", test_view_matrix);
    g_test_add_func("/camera/orbit", test_orbit);
    g_test_add_func("/camera/pan-zoom", test_pan_zoom);
    g_test_add_func("/camera/fit", test_fit);
    g_test_add_func("/camera/fit-box", test_fit_box);
    g_test_add_func("/camera/fit-inset", test_fit_inset);
    return g_test_run();
}
