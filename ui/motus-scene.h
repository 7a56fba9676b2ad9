/* motus-scene.h — what the 3D view draws, built from a model without GL:
 * triangle meshes of every body's shapes (in body axes), joint glyphs, marker
 * triads and edges as lines, and coil springs rebuilt per frame between their
 * markers. The viewport uploads these arrays; tests can inspect them.
 *
 * Poses: a body pose is 7 doubles, the body frame origin in project axes and
 * the unit quaternion (w, x, y, z) of its axes, as the result columns BODY.x …
 * BODY.q3 give them. Index nbody in per-body arrays is the ground. */
#ifndef MOTUS_SCENE_H
#define MOTUS_SCENE_H

#include <cglm/cglm.h>
#include <glib.h>

#include "motus/reduce.h"
#include "motus/model.h"

typedef struct {
    float p[3], n[3], c[3];
} MotusVertex; /* solid: position, normal, colour */

typedef struct {
    float p[3], c[3];
} MotusLineVertex; /* lines: position, colour; two per segment */

typedef struct {
    float p[3], n[3], c[3];
    guint32 ref; /* surface vertex of the reduced body whose modal displacement moves this vertex */
} MotusFlexVertex;   /* flexible bodies: undeformed position and normal (body axes), colour */

/* The deformable surface of a flexible body: its outer triangles (solids,
 * shells) and tubes around its beam lines, each vertex tied to a surface
 * vertex of the reduction (MtFlexInfo.sv_*), whose modal displacements the
 * view adds (Σ w_k H_k, scaled) in its vertex shader. */
typedef struct {
    int spec;               /* index among the model's flexible specs */
    const MtFlexBody *fb;   /* borrowed from the model's reduced data */
    MtFlexInfo info;        /* what the view reads of it (mt_flex_body_info; arrays borrowed too) */
    int moff;               /* first of its modal coordinates among all flexible bodies' (spec order) */
    int centre_vertex;      /* surface vertex nearest to the middle of its box (where the body is shown to be) */
    GArray *verts;          /* MotusFlexVertex */
    GArray *index;          /* guint32, three per triangle, counter-clockwise from outside */
} MotusFlexMesh;

/* Levels of detail, as a CAD viewer has them: round shapes (spheres,
 * cylinders, capsules, bars, joint glyphs) are built with 32, 16 and 8
 * segments around, and the view draws each body at the coarsest level whose
 * outline still departs from the true one by less than MOTUS_LOD_TOLERANCE_PX
 * at the body's size on screen (motus_lod_level). */
#define MOTUS_LOD_LEVELS 3
#define MOTUS_LOD_SEGMENTS(level) (32 >> (level)) /* segments around a round shape at a level (0: finest) */
#define MOTUS_LOD_TOLERANCE_PX 0.5                 /* largest gap between a polygon's edge and its circle, pixels */

typedef struct {
    GArray *tri, *glyph, *edges; /* as in MotusBodyMesh, round shapes with fewer segments */
} MotusBodyDetail;

typedef struct {
    GArray *tri;        /* MotusVertex, three per triangle, body axes */
    GArray *glyph;      /* MotusVertex: joint glyphs fixed to this body (not picked, not highlighted) */
    GArray *edges;      /* MotusLineVertex: feature edges of the shapes */
    GArray *axes;       /* MotusLineVertex: marker triads */
    float lo[3], hi[3]; /* bounds of tri and glyph, body axes (lo > hi when empty) */
    float centre[3];    /* visual centre (middle of the bounds), body axes */
    MotusFlexMesh *flex; /* a flexible body's surface (NULL for rigid bodies and unreduced ones) */
    gboolean closed;    /* tri holds closed, outward-wound primitives only (no mesh file): back faces may be culled */
    float radius;       /* of the sphere about centre holding tri and glyph (and a flexible surface), m */
    /* levels 1 … MOTUS_LOD_LEVELS-1 of tri, glyph and edges (level 0 is the
     * arrays above); all NULL when the body keeps one level: nothing round,
     * a mesh file (copies would only cost memory) or a flexible body (it
     * deforms vertex by vertex) */
    MotusBodyDetail coarse[MOTUS_LOD_LEVELS - 1];
} MotusBodyMesh;

typedef struct {
    int nbody;           /* bodies of the model; body[nbody] is the ground */
    MotusBodyMesh *body; /* nbody + 1 */
    double scale;        /* characteristic length of the model, m (glyph sizes follow it) */
    int up_axis;         /* 1: +y up, 2: +z up (from gravity) */
    int nmodal;          /* modal coordinates of all flexible bodies drawn (MotusFlexMesh.moff) */
} MotusScene;

/* Builds the scene of a model; mesh files are looked up relative to
 * model_dir (may be NULL). Problems that do not stop drawing (an unreadable
 * mesh file, drawn as a box instead) are appended to warnings (may be NULL). */
MotusScene *motus_scene_new(const MtModel *m, const char *model_dir, GString *warnings);
void motus_scene_free(MotusScene *s);

/* The colour map of flexible bodies' fields (blue, cyan, green, yellow, red)
 * at t in 0..1 (clamped): the view's lookup table and its legend use it. */
void motus_colormap(double t, float rgb[3]);

/* Radius in pixels of the picture of a sphere of radius `radius` whose centre
 * lies `distance` ahead of the eye (along the view direction), in a
 * perspective view of vertical field of view fovy (radians) and viewport_h
 * pixels high: tan of the sphere's angular radius over tan(fovy / 2), times
 * half the height. An orthographic view of half-height distance·tan(fovy/2)
 * gives nearly the same for radius ≪ distance. INFINITY when the eye is in
 * the sphere or it is not ahead of the eye (nothing to gain there). */
double motus_lod_radius_px(double radius, double distance, double fovy, double viewport_h);
/* The level of detail (0: finest … MOTUS_LOD_LEVELS-1) for a round shape
 * radius_px pixels in radius on screen: the coarsest whose polygon of
 * n = MOTUS_LOD_SEGMENTS(level) sides departs from the circle by at most
 * MOTUS_LOD_TOLERANCE_PX. Coarse polygons straddle the circle (vertices
 * 2/(1 + cos(π/n)) radii out), so the gap is ρ·(1 − cos(π/n))/(1 + cos(π/n)):
 * 8 segments up to ρ = 12.6 px, 16 up to 51.5 px, 32 beyond. Fixed
 * thresholds, no hysteresis: the same view always gives the same picture. */
int motus_lod_level(double radius_px);

/* Colour of body b in the automatic palette (b = -1: ground grey). */
void motus_scene_body_colour(int b, float c[3]);
/* Initial pose of every body from the model (nbody x 7). */
void motus_scene_model_poses(const MtModel *m, double *poses);
/* 4x4 matrix of a pose (body axes → project axes). */
void motus_scene_pose_matrix(const double pose[7], mat4 out);
/* Origin of marker k in project axes for body poses (nbody x 7). */
void motus_scene_marker_world(const MtModel *m, int k, const double *poses, double out[3]);
/* Appends the triangles of a coil spring from a to b (project axes). */
void motus_scene_add_spring(GArray *tri, double scale, const double a[3], const double b[3]);
/* Appends an axis triad (arrows along x red, y green, z blue) of the given length. */
void motus_scene_add_triad(GArray *tri, double length);
/* Box around the scene at the given poses (project axes); FALSE when nothing is drawn. */
gboolean motus_scene_box(const MotusScene *s, const double *poses, double lo[3], double hi[3]);
/* Appends the corners (3 floats each) of every body's box at the given poses,
 * the ground's included: what fitting the view needs. */
void motus_scene_corners(const MotusScene *s, const double *poses, GArray *pts);
/* Bounding sphere of the scene at the given poses (bodies, ground shapes). */
void motus_scene_bounds(const MotusScene *s, const double *poses, float centre[3], float *radius);
/* Height (along the up axis) just below the scene at the given poses, for the grid. */
float motus_scene_floor(const MotusScene *s, const double *poses);

/* Appends the deformable surface of a reduced flexible body: its triangles
 * with normals split at creases, and tubes of radius r around its beam
 * lines (rect sections b × h as boxes when b > 0). */
void motus_scene_flex_surface(const MtFlexBody *fb, double r, double b, double h, const float c[3], GArray *verts,
                              GArray *index);

/* Loads an STL (binary or ASCII) or Wavefront OBJ file as triangles scaled by
 * `scale`, transformed by (pos, rot row-major) and coloured c. Returns FALSE
 * with error set when the file cannot be read or holds no triangle. */
gboolean motus_mesh_load(const char *path, double scale, const double pos[3], const double rot[9], const float c[3],
                         GArray *tri, GError **error);

#endif
