/* motus-camera.c — orbit camera math (see motus-camera.h). */
#include "motus-camera.h"

#include <math.h>

#define MOTUS_PI_F 3.14159265358979f

void motus_camera_init(MotusCamera *c, int up_axis)
{
    c->target[0] = c->target[1] = c->target[2] = 0.0f;
    c->distance = 3.0f;
    c->fovy = 30.0f * MOTUS_PI_F / 180.0f;
    c->ortho = 0;
    c->up_axis = up_axis == 2 ? 2 : 1;
    c->scene_radius = 1.0f;
    motus_camera_preset(c, MOTUS_VIEW_ISO);
}

int motus_camera_up_axis_for_gravity(const double g[3])
{
    double ax = fabs(g[0]), ay = fabs(g[1]), az = fabs(g[2]);
    return (g[2] < 0 && az > ax && az > ay) ? 2 : 1;
}

void motus_camera_to_world(const MotusCamera *c, const float v[3], float out[3])
{
    if (c->up_axis == 2) {
        float x = v[0], y = v[1], z = v[2];
        out[0] = x;
        out[1] = -z;
        out[2] = y;
    } else {
        out[0] = v[0];
        out[1] = v[1];
        out[2] = v[2];
    }
}

void motus_camera_from_world(const MotusCamera *c, const float v[3], float out[3])
{
    if (c->up_axis == 2) {
        float x = v[0], y = v[1], z = v[2];
        out[0] = x;
        out[1] = z;
        out[2] = -y;
    } else {
        out[0] = v[0];
        out[1] = v[1];
        out[2] = v[2];
    }
}

void motus_camera_basis(const MotusCamera *c, float right[3], float up[3], float forward[3])
{
    float cy = cosf(c->yaw), sy = sinf(c->yaw), cp = cosf(c->pitch), sp = sinf(c->pitch);
    /* canonical frame: the eye sits at target + distance · (cp sy, sp, cp cy) */
    float f[3] = {-cp * sy, -sp, -cp * cy};
    float r[3] = {cy, 0.0f, -sy};
    float u[3];
    glm_vec3_cross(r, f, u);
    glm_vec3_normalize(u);
    motus_camera_to_world(c, r, right);
    motus_camera_to_world(c, u, up);
    motus_camera_to_world(c, f, forward);
}

void motus_camera_eye(const MotusCamera *c, float eye[3])
{
    float r[3], u[3], f[3];
    motus_camera_basis(c, r, u, f);
    for (int i = 0; i < 3; i++) eye[i] = c->target[i] - c->distance * f[i];
}

void motus_camera_view(const MotusCamera *c, mat4 view)
{
    float r[3], u[3], f[3], eye[3];
    motus_camera_basis(c, r, u, f);
    motus_camera_eye(c, eye);
    glm_mat4_identity(view);
    /* cglm is column-major: view[col][row] */
    for (int i = 0; i < 3; i++) {
        view[i][0] = r[i];
        view[i][1] = u[i];
        view[i][2] = -f[i];
    }
    view[3][0] = -glm_vec3_dot(r, eye);
    view[3][1] = -glm_vec3_dot(u, eye);
    view[3][2] = glm_vec3_dot(f, eye);
}

void motus_camera_clip(const MotusCamera *c, float *znear, float *zfar)
{
    float R = c->scene_radius > 0 ? c->scene_radius : 1.0f;
    float far = c->distance + 12.0f * R;
    if (c->ortho) {
        *znear = -far;
        *zfar = far;
    } else {
        *znear = c->distance * 0.02f;
        *zfar = far;
    }
}

void motus_camera_proj(const MotusCamera *c, float aspect, mat4 proj)
{
    float zn, zf;
    if (!(aspect > 0)) aspect = 1.0f;
    motus_camera_clip(c, &zn, &zf);
    if (c->ortho) {
        float h = c->distance * tanf(c->fovy * 0.5f), w = h * aspect;
        glm_ortho(-w, w, -h, h, zn, zf, proj);
    } else {
        glm_perspective(c->fovy, aspect, zn, zf, proj);
    }
}

void motus_camera_orbit(MotusCamera *c, float dyaw, float dpitch)
{
    c->yaw = fmodf(c->yaw + dyaw, 2.0f * MOTUS_PI_F);
    c->pitch += dpitch;
    if (c->pitch > 0.5f * MOTUS_PI_F) c->pitch = 0.5f * MOTUS_PI_F;
    if (c->pitch < -0.5f * MOTUS_PI_F) c->pitch = -0.5f * MOTUS_PI_F;
}

float motus_camera_pixel_size(const MotusCamera *c, float height_px)
{
    if (!(height_px > 0)) height_px = 1.0f;
    return 2.0f * c->distance * tanf(c->fovy * 0.5f) / height_px;
}

void motus_camera_pan(MotusCamera *c, float dx, float dy, float height_px)
{
    float r[3], u[3], f[3];
    float s = motus_camera_pixel_size(c, height_px);
    motus_camera_basis(c, r, u, f);
    for (int i = 0; i < 3; i++) c->target[i] += (-dx * r[i] + dy * u[i]) * s;
}

void motus_camera_zoom(MotusCamera *c, float factor)
{
    if (!(factor > 0)) return;
    c->distance *= factor;
    if (c->distance < 1e-6f) c->distance = 1e-6f;
    if (c->distance > 1e6f) c->distance = 1e6f;
}

void motus_camera_preset(MotusCamera *c, MotusViewPreset p)
{
    switch (p) {
    case MOTUS_VIEW_FRONT:
        c->yaw = 0.0f;
        c->pitch = 0.0f;
        break;
    case MOTUS_VIEW_RIGHT:
        c->yaw = 0.5f * MOTUS_PI_F;
        c->pitch = 0.0f;
        break;
    case MOTUS_VIEW_TOP:
        c->yaw = 0.0f;
        c->pitch = 0.5f * MOTUS_PI_F;
        break;
    case MOTUS_VIEW_ISO:
    default:
        c->yaw = 0.25f * MOTUS_PI_F;
        c->pitch = asinf(1.0f / sqrtf(3.0f));
        break;
    }
}

void motus_camera_fit(MotusCamera *c, const float centre[3], float radius, float aspect)
{
    if (!(radius > 0)) radius = 1.0f;
    if (!(aspect > 0)) aspect = 1.0f;
    float ty = tanf(c->fovy * 0.5f);
    float half = fminf(c->fovy * 0.5f, atanf(ty * aspect));
    for (int i = 0; i < 3; i++) c->target[i] = centre[i];
    c->distance = 1.08f * radius / sinf(half);
    c->scene_radius = radius;
}

/* Coordinate of point k along the unit vector e from o. */
static float along(const float *pts, int k, const float o[3], const float e[3])
{
    return (pts[3 * k] - o[0]) * e[0] + (pts[3 * k + 1] - o[1]) * e[1] + (pts[3 * k + 2] - o[2]) * e[2];
}

/* For one screen axis e: the least distance at which every point k fits in
 * a0·D_k ≤ x_k − s ≤ a1·D_k (NDC bounds a0 < a1, x_k along e from o,
 * D_k = (d + w_k)·t with w_k the depth beyond o along f, or d·t when f is
 * NULL: orthographic); with d ≥ 0 given, *s is the lateral shift of the
 * camera that centres the points in the band at that distance. */
static float fit_axis(const float *pts, int n, const float o[3], const float e[3], const float *f, float t, float a0,
                      float a1, float d, float *s)
{
    float p = -INFINITY, q = INFINITY, lo = -INFINITY, hi = INFINITY;
    for (int k = 0; k < n; k++) {
        float x = along(pts, k, o, e), w = f ? along(pts, k, o, f) : 0.0f;
        p = fmaxf(p, x - a1 * t * w), q = fminf(q, x - a0 * t * w);
        if (d >= 0) lo = fmaxf(lo, x - a1 * t * (d + w)), hi = fminf(hi, x - a0 * t * (d + w));
    }
    if (d >= 0) *s = 0.5f * (lo + hi);
    return (p - q) / ((a1 - a0) * t);
}

void motus_camera_fit_points_in(MotusCamera *c, const float *pts, int n, float width, float height,
                                const float inset[4])
{
    if (n <= 0) return;
    if (!(width > 0) || !(height > 0)) width = height = 1.0f;
    /* the free part of the view, in NDC (x right, y up), narrowed by the margin */
    float L = 0, T = 0, R = 0, B = 0;
    if (inset && width - inset[0] - inset[2] > 0.25f * width && height - inset[1] - inset[3] > 0.25f * height)
        L = inset[0], T = inset[1], R = inset[2], B = inset[3];
    const float margin = 1.0f / 1.1f;
    float ax0 = -1 + 2 * L / width, ax1 = 1 - 2 * R / width, ay0 = -1 + 2 * B / height, ay1 = 1 - 2 * T / height;
    float axc = 0.5f * (ax0 + ax1), axh = 0.5f * (ax1 - ax0) * margin;
    float ayc = 0.5f * (ay0 + ay1), ayh = 0.5f * (ay1 - ay0) * margin;
    float lo[3] = {pts[0], pts[1], pts[2]}, hi[3] = {pts[0], pts[1], pts[2]};
    for (int k = 1; k < n; k++)
        for (int i = 0; i < 3; i++) lo[i] = fminf(lo[i], pts[3 * k + i]), hi[i] = fmaxf(hi[i], pts[3 * k + i]);
    float r[3], u[3], f[3], o[3], ty = tanf(c->fovy * 0.5f), tx = ty * width / height, diag = 0;
    motus_camera_basis(c, r, u, f);
    for (int i = 0; i < 3; i++) {
        o[i] = 0.5f * (lo[i] + hi[i]);
        diag += (hi[i] - lo[i]) * (hi[i] - lo[i]);
    }
    float R0 = 0.5f * sqrtf(diag), wmin = INFINITY, sx = 0, sy = 0;
    const float *depth = c->ortho ? NULL : f;
    for (int k = 0; k < n; k++) wmin = fminf(wmin, along(pts, k, o, f));
    float d = fmaxf(fit_axis(pts, n, o, r, depth, tx, axc - axh, axc + axh, -1, &sx),
                    fit_axis(pts, n, o, u, depth, ty, ayc - ayh, ayc + ayh, -1, &sy));
    if (!c->ortho) d = fmaxf(d, 0.05f * R0 - wmin); /* every point in front of the eye */
    if (!(d > 1e-6f)) d = R0 > 0 ? 2 * R0 : 1.0f;
    fit_axis(pts, n, o, r, depth, tx, axc - axh, axc + axh, d, &sx);
    fit_axis(pts, n, o, u, depth, ty, ayc - ayh, ayc + ayh, d, &sy);
    for (int i = 0; i < 3; i++) c->target[i] = o[i] + sx * r[i] + sy * u[i];
    c->distance = d;
    c->scene_radius = R0 > 0 ? R0 : 1.0f;
}

void motus_camera_fit_points(MotusCamera *c, const float *pts, int n, float aspect)
{
    motus_camera_fit_points_in(c, pts, n, aspect > 0 ? aspect : 1.0f, 1.0f, NULL);
}

void motus_camera_fit_box(MotusCamera *c, const float lo[3], const float hi[3], float aspect)
{
    float pts[24];
    for (int k = 0; k < 8; k++) {
        pts[3 * k] = k & 1 ? hi[0] : lo[0];
        pts[3 * k + 1] = k & 2 ? hi[1] : lo[1];
        pts[3 * k + 2] = k & 4 ? hi[2] : lo[2];
    }
    motus_camera_fit_points(c, pts, 8, aspect);
}

int motus_camera_project(const MotusCamera *c, const float p[3], float w, float h, float out[2])
{
    mat4 V, P, PV;
    motus_camera_view(c, V);
    motus_camera_proj(c, w / (h > 0 ? h : 1.0f), P);
    glm_mat4_mul(P, V, PV);
    vec4 in = {p[0], p[1], p[2], 1.0f}, clip;
    glm_mat4_mulv(PV, in, clip);
    if (!(clip[3] > 0)) return 0;
    float nx = clip[0] / clip[3], ny = clip[1] / clip[3], nz = clip[2] / clip[3];
    if (nz < -1.0f || nz > 1.0f) return 0;
    out[0] = (nx + 1.0f) * 0.5f * w;
    out[1] = (1.0f - ny) * 0.5f * h;
    return 1;
}
