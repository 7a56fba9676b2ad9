/* motus-camera.h — the orbit camera of the 3D view: pure functions of a small
 * struct (no GTK, no GL), float view math with cglm. The dynamics stay in
 * double; only what is drawn goes through here.
 *
 * The camera orbits a target point at a distance, at a yaw about the world's
 * up axis and a pitch above the horizontal plane. Angles are measured in a
 * "canonical" frame where up is +y and the front view looks along −z; for
 * models whose gravity points along −z the canonical frame is mapped onto the
 * world so that up is +z and the front view looks along +y. */
#ifndef MOTUS_CAMERA_H
#define MOTUS_CAMERA_H

#include <cglm/cglm.h>

typedef enum {
    MOTUS_VIEW_FRONT, /* looking at the x–up plane, x to the right */
    MOTUS_VIEW_RIGHT, /* from +x */
    MOTUS_VIEW_TOP,   /* from above, looking down */
    MOTUS_VIEW_ISO    /* isometric: 45° yaw, 35.26° pitch */
} MotusViewPreset;

typedef struct {
    float target[3];    /* orbit centre, world */
    float distance;     /* eye to target, > 0 */
    float yaw, pitch;   /* radians; pitch clamped to [−π/2, π/2] */
    float fovy;         /* vertical field of view of the perspective view, radians */
    int ortho;          /* orthographic projection (half-height = distance · tan(fovy/2)) */
    int up_axis;        /* 1: world +y is up; 2: world +z is up */
    float scene_radius; /* for the near and far planes */
} MotusCamera;

/* Isometric view of a unit sphere at the origin, world up along up_axis (1 or 2). */
void motus_camera_init(MotusCamera *c, int up_axis);
/* World up axis for a gravity vector: 2 when it points mostly along −z, else 1. */
int motus_camera_up_axis_for_gravity(const double g[3]);
/* Maps a canonical-frame vector (y up) to world axes and back. */
void motus_camera_to_world(const MotusCamera *c, const float v[3], float out[3]);
void motus_camera_from_world(const MotusCamera *c, const float v[3], float out[3]);
/* Unit vectors of the eye in world axes: right, up and forward (towards the target). */
void motus_camera_basis(const MotusCamera *c, float right[3], float up[3], float forward[3]);
/* Eye position, world. */
void motus_camera_eye(const MotusCamera *c, float eye[3]);
/* World → eye matrix. */
void motus_camera_view(const MotusCamera *c, mat4 view);
/* Eye → clip matrix for a viewport of aspect width/height. */
void motus_camera_proj(const MotusCamera *c, float aspect, mat4 proj);
/* Near and far clip distances used by motus_camera_proj. */
void motus_camera_clip(const MotusCamera *c, float *znear, float *zfar);
/* Orbit by angles (radians): yaw about the world up, pitch clamped. */
void motus_camera_orbit(MotusCamera *c, float dyaw, float dpitch);
/* Moves the target so that the scene follows a drag of (dx, dy) pixels
 * (x right, y down) in a viewport height_px pixels high. */
void motus_camera_pan(MotusCamera *c, float dx, float dy, float height_px);
/* Multiplies the distance by factor (< 1 zooms in), kept within sane bounds. */
void motus_camera_zoom(MotusCamera *c, float factor);
/* Sets yaw and pitch of a preset view (target and distance kept). */
void motus_camera_preset(MotusCamera *c, MotusViewPreset p);
/* Centres the sphere (centre, radius) and sets the distance so that it fills
 * the viewport of the given aspect with a small margin. */
void motus_camera_fit(MotusCamera *c, const float centre[3], float radius, float aspect);
/* Moves the target and sets the distance so that the points (n x 3) fill the
 * viewport at the current yaw and pitch, with a small margin: their extent
 * across the view is centred, the nearest limiting point sets the distance. */
void motus_camera_fit_points(MotusCamera *c, const float *pts, int n, float aspect);
/* The same in a viewport width × height pixels of which inset (left, top,
 * right, bottom; NULL: none) is covered by controls: the points fill the
 * free rectangle, centred in it (exactly, at every depth). Insets that leave
 * less than a quarter of either side are ignored. */
void motus_camera_fit_points_in(MotusCamera *c, const float *pts, int n, float width, float height,
                                const float inset[4]);
/* The same for the eight corners of the box [lo, hi]. */
void motus_camera_fit_box(MotusCamera *c, const float lo[3], const float hi[3], float aspect);
/* World → widget pixel coordinates (x right, y down) of a viewport w × h;
 * returns 0 when the point is behind the eye or outside the depth range. */
int motus_camera_project(const MotusCamera *c, const float p[3], float w, float h, float out[2]);
/* World units per pixel at the target depth in a viewport height_px high. */
float motus_camera_pixel_size(const MotusCamera *c, float height_px);

#endif
