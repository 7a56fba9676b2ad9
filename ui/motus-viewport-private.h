/* motus-viewport-private.h — the inside of MotusViewport, shared by the
 * files that make it up (not for use outside them):
 *   motus-viewport.c       the widget: type, properties, signals, input
 *                          (orbit, pan, zoom, picking, gizmo drags), model,
 *                          poses, camera and selection API;
 *   motus-viewport-gl.c    GL: shaders, buffers, scene upload, realize /
 *                          unrealize, the background and the render pass;
 *   motus-viewport-flex.c  flexible bodies: deformation and colour maps, the
 *                          legend and its controls, the mode preview;
 *   motus-viewport-hud.c   the cairo layers over the GL view (messages,
 *                          overlay marks, gizmo handles, axis triad) and the
 *                          overlay API.
 * The public API of all four is motus-viewport.h. */
#ifndef MOTUS_VIEWPORT_PRIVATE_H
#define MOTUS_VIEWPORT_PRIVATE_H

#include <epoxy/gl.h>

#include "motus-gl-view.h"
#include "motus-scene.h"
#include "motus-viewport.h"

G_BEGIN_DECLS

#define RES "/org/motus/Motus/shaders/"
#define TRIAD_PX 96 /* size of the corner axis triad, logical pixels */


typedef struct {
    GLuint vao, vbo, ebo; /* ebo: indices of shared vertices (static solids), else 0 */
    GLsizei count;        /* vertices to draw (indices when ebo) */
} GlBuf;

typedef struct {
    GlBuf tri, glyph, edges; /* a body's solids, joint glyphs and feature edges at one level of detail */
} DetailGl;

enum { DRAG_NONE, DRAG_ORBIT, DRAG_PAN, DRAG_GIZMO };

#define MAX_SHADER_MODES 256 /* uW[64] vec4 in flex.vert */
#define MAP_SIZE 256         /* entries of the colour-map texture */
#define PREVIEW_PERIOD 1.6   /* s, one cycle of an animated mode shape */

/* GL objects of a flexible body: its surface (indexed) and buffer textures
 * with the modal displacements (RGBA32F, one texel per vertex and mode) and
 * the modal stress tensors (two texels per vertex and mode). */
typedef struct {
    GLuint vao, vbo, ebo;
    GLsizei count;
    GLuint hbuf, htex, sbuf, stex;
    int nmodes;     /* modes the shader sums (0: drawn undeformed) */
    gboolean stress;
} FlexGl;

struct _MotusViewport {
    GtkWidget parent_instance;

    /* children */
    GtkWidget *overlay, *area, *hud, *axes_hud, *toolbar;

    /* owned model data */
    MtModel *model;
    MotusScene *scene;
    double *poses; /* nbody x 7 */
    int selected;
    int follow; /* the body the camera moves with (the model's `view … follow`, the Follow button), -1 none */
    GtkWidget *follow_button;
    gboolean follow_syncing; /* the button set to match, not by the user */
    MotusCamera cam;
    gboolean need_fit, scene_dirty, grid_dirty;
    gboolean touched; /* the user moved the camera since the last fit */
    GArray *env;      /* floats: body box corners over the motion of the last run (project axes) */
    float grid_y, grid_step;
    float grid_centre[3];

    /* GL */
    gboolean gl_ok;
    GError *gl_error;
    char gl_info[256];
    GLuint prog_mesh, prog_pick, prog_line, prog_bg, vao_empty;
    int nbuf; /* bodies with buffers (nbody + 1) */
    DetailGl *lod[MOTUS_LOD_LEVELS]; /* nbuf entries per level; coarser levels empty (count 0) where the body has none */
    GlBuf *axes;
    int *level;       /* nbuf: the level of detail each body was drawn at in the last frame (-1: not drawn) */
    int *order;       /* nbuf: bodies nearest first in the last frame (solids are drawn in this order) */
    float *near;      /* nbuf: eye distance of the nearest point of each body's bounding sphere, last frame */
    long tris_drawn;  /* solid triangles of the scene in the last frame (motus_viewport_get_triangles_drawn) */
    gboolean full_detail; /* every body at level 0 */
    GlBuf spring, grid, triad;
    GArray *spring_verts;
    MotusFbo pick_fb; /* the colour-ID picking pass */
    MotusFbo out_fb;  /* pictures of a given size (motus_viewport_render_rgba: the animation export) */
    int out_w, out_h; /* while rendering one: its size, drawn instead of the widget's (0: the widget's) */
    GLuint bg_fbo, bg_tex; /* the background gradient, drawn once per size and copied into each frame */
    int bg_w, bg_h;
    guint frames;
    mat4 drawn_V, drawn_P;  /* the camera of the last render */

    /* overlay over the GL view (picking marks, traces, vectors), project axes */
    GArray *ov;       /* OverlayItem */
    GArray *ov_pts;   /* doubles: points of the overlay items, 3 each */
    GArray *ov_rects; /* doubles: where the last draw put the labels: item, x, y, w, h */
    gboolean picking; /* clicks go to "point-clicked" instead of picking a body */

    /* planar mode (motus_viewport_set_planar) */
    gboolean planar;
    MotusCamera cam_3d;   /* the camera before planar mode, restored after */
    int step_mant, step_exp; /* the planar grid's spacing: mant × 10^exp m (mant 1, 2 or 5) */
    GtkWidget *grid_label;
    guint grid_label_idle; /* the label's update, pending */
    gboolean snap_on;     /* the snap mark is shown */
    double snap_p[3];
    char snap_label[96];

    /* flexible bodies */
    GLuint prog_flex, prog_flex_pick, map_tex;
    GLint max_tbo;        /* GL_MAX_TEXTURE_BUFFER_SIZE, texels */
    FlexGl *flexgl;       /* nbuf entries, used where the scene body has a flexible surface */
    double *w;            /* scene->nmodal modal coordinates shown */
    double *wp;           /* the same during a mode preview */
    double *rig;          /* 6 per body: rigid motion fitted to a flexible body's supports (motus/flexview.h) */
    double deform;        /* deformation scale */
    gboolean deform_chosen, field_chosen; /* set by the user (or a caller) since the model was opened */
    MotusField field;
    MotusRangeMode range_mode;
    double fixed_lo, fixed_hi, run_max[2], frame_max[2]; /* SI; [field - 1] */
    gboolean has_stress;  /* some flexible body carries modal stresses */
    int prev_body, prev_mode; /* mode preview (-1: none) */
    double prev_peak[2];  /* field maxima of the previewed mode at its full amplitude */
    double prev_amp;      /* its modal coordinate's amplitude */
    guint prev_tick;
    gint64 prev_t0;
    GtkWidget *flexbar, *legend, *scale_spin, *field_dd, *range_dd, *lo_entry, *hi_entry;
    gboolean flex_quiet;  /* controls set from code */

    /* interaction */
    int drag_mode, drag_button;
    gboolean drag_ctrl; /* Ctrl was held when the button went down */
    double drag_x, drag_y, drag_dx, drag_dy;

    /* the move/rotate gizmo (motus-gizmo.h) */
    MotusGizmo gizmo;       /* mode OFF: none */
    int gizmo_body;         /* the body it moves (preview during a drag), or -1 */
    int gizmo_handle;       /* handle being dragged, or -1 */
    int gizmo_hover;        /* handle under the pointer, or -1 */
    double gizmo_x0, gizmo_y0, gizmo_amount;
    double gizmo_pose[7];   /* the body's pose before the drag */
};

typedef enum { OV_POINT, OV_LINE, OV_ARROW } OverlayKind;
typedef struct {
    OverlayKind kind;
    guint first, n; /* points in ov_pts (arrow: tail, tip) */
    float rgb[3];
    char *label; /* whole, however long the names in it ("" for none) */
    double value[3]; /* an arrow's quantity in SI (what it stands for, before scaling); NAN when not given */
} OverlayItem;

/* motus-viewport.c */
void motus_viewport_fit_now(MotusViewport *self);
/* Planar mode: the spacing for the view as it is now (label updated); the planar grid's lines (gl). */
void motus_viewport_planar_step(MotusViewport *self);
double motus_viewport_step_value(const MotusViewport *self, long i);

/* motus-viewport-gl.c */
void motus_viewport_gl_realize(GtkGLArea *area, gpointer data);
void motus_viewport_gl_unrealize(GtkGLArea *area, gpointer data);
gboolean motus_viewport_gl_render(GtkGLArea *area, GdkGLContext *ctx, gpointer data);
void motus_viewport_upload_scene(MotusViewport *self);
float motus_viewport_aspect(MotusViewport *self);
void motus_viewport_body_matrix(MotusViewport *self, int i, mat4 M);
void motus_viewport_gl_camera(GLuint prog, mat4 V, mat4 P);
void motus_viewport_gl_draw_solid(GLuint prog, const GlBuf *b, mat4 V, mat4 M, const float hl[4]);

/* motus-viewport-flex.c */
void motus_viewport_draw_flex(MotusViewport *self, GLuint prog, int i, mat4 V, mat4 M, const float hl[4], gboolean colour);
void motus_viewport_flex_model_changed(MotusViewport *self);
void motus_viewport_flex_controls_init(MotusViewport *self);

/* motus-viewport-hud.c */
gboolean motus_viewport_to_screen(MotusViewport *self, const double *p, int width, int height, double *x, double *y);
void motus_viewport_hud_draw(GtkDrawingArea *da, cairo_t *cr, int width, int height, gpointer data);
void motus_viewport_axes_draw(GtkDrawingArea *da, cairo_t *cr, int width, int height, gpointer data);
void motus_viewport_hud_refresh(MotusViewport *self);

G_END_DECLS

#endif
