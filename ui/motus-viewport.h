/* motus-viewport.h — the 3D view: a GtkGLArea (OpenGL 3.3 core, shaders
 * from the GResource) inside an overlay with the view buttons and a cairo
 * layer for axis labels and hints.
 *
 * Draws the bodies from their shapes at the poses it is given, joint glyphs,
 * marker triads, coil springs, a ground grid and an axis triad. Mouse: left
 * drag orbits, middle or Shift+left drag pans, the wheel zooms, a click picks
 * a body ("body-picked"); a Ctrl+click emits "body-toggled" (the body, nothing selected). Keys (when focused): arrows
 * orbit, +/- zoom. */
#ifndef MOTUS_VIEWPORT_H
#define MOTUS_VIEWPORT_H

#include <gtk/gtk.h>

#include "motus-camera.h"
#include "motus-gizmo.h"
#include "motus/model.h"

G_BEGIN_DECLS

#define MOTUS_TYPE_VIEWPORT (motus_viewport_get_type())
G_DECLARE_FINAL_TYPE(MotusViewport, motus_viewport, MOTUS, VIEWPORT, GtkWidget)

GtkWidget *motus_viewport_new(void);

/* Chooses how GTK draws the windows, before the first one is shown (after
 * gtk_init). On a software OpenGL (Mesa's llvmpipe or softpipe, no GPU)
 * GTK's GL renderer composes the whole window on the CPU at every frame,
 * while its cairo renderer redraws only what changed; in the main window at
 * 1280x800 with llvmpipe that is 50-60 against 7-10 ms of CPU per frame
 * during a run and 21 against 60 frames/s when orbiting a small model
 * (measured 2026-11-24, commit 19c80ce of bench/RESULTS.md). So with a software OpenGL GSK_RENDERER is set to
 * "cairo" (the 3D view still renders with OpenGL). A GSK_RENDERER set by the
 * user is kept. Returns the renderer chosen or kept, NULL when GTK's default
 * stays. */
const char *motus_ui_choose_renderer(void);

/* Shows a model (copied) at its initial positions and fits the view; mesh
 * files are found relative to model_dir; drawing problems go to warnings.
 * NULL clears the view. */
void motus_viewport_set_model(MotusViewport *self, const MtModel *m, const char *model_dir, GString *warnings);
/* The model changed (an edit): redraws it at its initial positions, keeping
 * the camera (fitting only when the user has not moved it) and the selection. */
void motus_viewport_update_model(MotusViewport *self, const MtModel *m, const char *model_dir, GString *warnings);
/* Shows the bodies at their initial positions. */
void motus_viewport_show_initial(MotusViewport *self);
/* A point of body `body` (-1: the ground) in project axes at the poses shown. */
gboolean motus_viewport_body_to_world(MotusViewport *self, int body, const double p[3], double out[3]);
/* Widget coordinates of a point (project axes); FALSE when it is not in view. */
gboolean motus_viewport_project_point(MotusViewport *self, const double p[3], double *x, double *y);
/* Body under a widget point without selecting it (nbody: the ground, -1: none). */
int motus_viewport_body_at(MotusViewport *self, double x, double y);
/* While picking, a click emits "point-clicked" (x, y) instead of picking a body. */
void motus_viewport_set_picking(MotusViewport *self, gboolean picking);
gboolean motus_viewport_get_picking(MotusViewport *self);
/* Overlay drawn over the view in project axes (picked points, trajectory
 * traces, velocity/acceleration/force arrows), colour 0..1, optional label. */
void motus_viewport_clear_overlay(MotusViewport *self);
void motus_viewport_add_overlay_point(MotusViewport *self, const double p[3], const float rgb[3], const char *label);
void motus_viewport_add_overlay_line(MotusViewport *self, const double *pts, guint n, const float rgb[3]);
void motus_viewport_add_overlay_arrow(MotusViewport *self, const double from[3], const double vec[3], const float rgb[3],
                                      const char *label);
/* An arrow standing for a quantity value (SI, project axes) drawn scale × value long: the value is
 * kept with the item (motus_viewport_overlay_item), so what an arrow means can be read back exactly. */
void motus_viewport_add_overlay_vector(MotusViewport *self, const double from[3], const double value[3], double scale,
                                       const float rgb[3], const char *label);
guint motus_viewport_overlay_size(MotusViewport *self);
/* The direction the camera looks in (unit, project axes), and the screen's right and up too (any may be NULL). */
void motus_viewport_view_direction(MotusViewport *self, double fwd[3]);
void motus_viewport_view_basis(MotusViewport *self, double right[3], double up[3], double fwd[3]);
/* A widget over the view (placed by its own halign, valign and margins): the window's meters. */
void motus_viewport_add_overlay_widget(MotusViewport *self, GtkWidget *w);
/* Item i's first point (a point, a line's start, an arrow's tail) and its quantity (NAN unless added as a
 * vector); FALSE when there is no item i. */
gboolean motus_viewport_overlay_item(MotusViewport *self, guint i, double p[3], double value[3]);
/* Point k of item i (an arrow: 0 the tail, 1 the tip); FALSE when there is none. */
gboolean motus_viewport_overlay_point(MotusViewport *self, guint i, guint k, double p[3]);
/* Label of overlay item i ("v = 1.23 m/s"), or NULL. */
const char *motus_viewport_overlay_label(MotusViewport *self, guint i);
/* Where the last draw put item i's label (x, y, w, h in the view's pixels); FALSE when it was not drawn. */
gboolean motus_viewport_overlay_label_rect(MotusViewport *self, guint i, double rect[4]);
/* Centres the view on a point (the camera keeps its distance and direction). */
void motus_viewport_look_at(MotusViewport *self, const double p[3]);
/* Characteristic length of the model shown, m. */
double motus_viewport_get_scale(MotusViewport *self);
/* Body poses, nbody x 7 (origin, quaternion w x y z), as stored by the run. */
void motus_viewport_set_poses(MotusViewport *self, const double *poses);
/* After a run: extends the box around the motion with the bodies at these
 * poses (call for some or all frames), then motus_viewport_motion_done lowers
 * the floor grid below the whole motion and, unless the user moved the
 * camera since the last fit, fits the view to it. Fit-all includes it too. */
void motus_viewport_include_poses(MotusViewport *self, const double *poses);
void motus_viewport_motion_done(MotusViewport *self);
/* Highlights a body (-1: none; nbody: the ground). */
void motus_viewport_set_selected_body(MotusViewport *self, int body);
int motus_viewport_get_selected_body(MotusViewport *self);
void motus_viewport_view_preset(MotusViewport *self, MotusViewPreset p);
/* Frames everything at the current poses and the motion of the last run. */
void motus_viewport_fit_all(MotusViewport *self);
/* The body the camera moves with (0 … nbody-1; -1: none): the model's `view … follow` when a model is
 * set, the Follow button (the selected body) after; shown on the button. */
int motus_viewport_get_follow(MotusViewport *self);
/* Frames one body (0 … nbody-1) at its current pose, keeping the view direction. */
void motus_viewport_fit_body(MotusViewport *self, int body);
/* Fits the bodies and the overlay's points (an instantaneous centre far from the mechanism). */
void motus_viewport_fit_with_points(MotusViewport *self);
void motus_viewport_set_orthographic(MotusViewport *self, gboolean ortho);
gboolean motus_viewport_get_orthographic(MotusViewport *self);
/* ---- planar mode ----
 * A 2-D view of the project's x–y plane: orthographic, looking along −z with
 * x to the right and y up (the front view when gravity is along −y, the top
 * view when it is along −z); orbiting is refused (a left drag pans, the
 * arrows and the view presets do nothing), panning and zooming stay. A grid
 * in the plane z = 0 covers the view with a 1-2-5 spacing of about a
 * sixteenth of its height (shown in a label), with the x and y axes drawn
 * as arrows from the origin. Off, the camera comes back as it was. */
void motus_viewport_set_planar(MotusViewport *self, gboolean planar);
gboolean motus_viewport_get_planar(MotusViewport *self);
/* The grid spacing shown in planar mode, m. */
double motus_viewport_grid_step(MotusViewport *self);
/* The grid node nearest to p (x and y; z 0), written as exact decimals (3 × 0.1 m is 0.3). */
void motus_viewport_snap_grid(MotusViewport *self, const double p[3], double out[3]);
/* The point of the plane z = 0 under widget point (x, y); FALSE outside planar mode. */
gboolean motus_viewport_plane_point(MotusViewport *self, double x, double y, double p[3]);
/* A mark where a click would place its point (project axes) with a label; NULL hides it. */
void motus_viewport_set_snap_mark(MotusViewport *self, const double p[3], const char *label);
gboolean motus_viewport_get_snap_mark(MotusViewport *self, double p[3]);
/* The camera as it is now. */
void motus_viewport_get_camera(MotusViewport *self, MotusCamera *out);

/* Widget coordinates of the visual centre of a body at the current poses;
 * FALSE when it is not in view. */
gboolean motus_viewport_project_body(MotusViewport *self, int body, double *x, double *y);
/* What a click at (x, y) does: picks the body there (colour-ID pass), highlights
 * it, emits "body-picked" and returns it (nbody: the ground; -1: none). */
int motus_viewport_pick_at(MotusViewport *self, double x, double y);
/* Number of frames drawn so far (tests wait for one): renders under GTK's GL
 * renderer; pictures shown where the view reads its pictures back (the window
 * then holds the new picture). */
guint motus_viewport_get_frames_drawn(MotusViewport *self);
/* Levels of detail (motus-scene.h): each frame, every rigid body made of
 * primitives is drawn at the coarsest level that still looks round at its
 * size on screen; picking always uses full detail. full: every body at
 * full detail (benchmarks, comparisons). */
void motus_viewport_set_full_detail(MotusViewport *self, gboolean full);
/* The level body `body` (nbody: the ground) was drawn at in the last frame
 * (0: full detail), -1 before it was drawn. */
int motus_viewport_get_body_detail(MotusViewport *self, int body);
/* TRUE when the view's last frame was read back from GL into a cairo image
 * (the window drawn by GTK's cairo renderer), FALSE when GTK shows its GL texture. */
gboolean motus_viewport_reads_back(MotusViewport *self);
/* Where body `body` (nbody: the ground) came in the last frame's drawing of
 * rigid solids, which goes nearest first (0: first), -1 before a frame. */
int motus_viewport_get_draw_rank(MotusViewport *self, int body);
/* Solid triangles of the scene (bodies, glyphs, springs, flexible surfaces)
 * drawn in the last frame, before back faces are culled. */
long motus_viewport_get_triangles_drawn(MotusViewport *self);
/* Colours (0..1) of the background gradient at the top and the bottom. */
void motus_viewport_get_background(MotusViewport *self, float top[3], float bottom[3]);
/* The GL error of realize, or NULL when GL works. */
const GError *motus_viewport_get_error(MotusViewport *self);
/* Renderer and version string once realized ("" before). */
const char *motus_viewport_get_gl_info(MotusViewport *self);
/* The GL drawing area inside (for window snapshots and tests). */
GtkWidget *motus_viewport_get_gl_area(MotusViewport *self);
/* Draws the view as it is now (camera, poses, deformation) at w x h pixels
 * into a framebuffer of its own and reads it back into rgba (w * h * 4
 * bytes R G B A, rows top first): a frame of an exported animation. The
 * labels drawn over the view are not in it. FALSE when GL cannot draw. */
gboolean motus_viewport_render_rgba(MotusViewport *self, int w, int h, guint8 *rgba);
/* Asks for a redraw; a picture drawn before and not shown yet is dropped, so
 * the next frame counted by motus_viewport_get_frames_drawn is drawn after
 * this call (what a test or a screenshot waits for). */
void motus_viewport_queue_render(MotusViewport *self);

/* ---- the move/rotate gizmo ----
 * Arrows along three axes (MOTUS_GIZMO_MOVE) or rings about them
 * (MOTUS_GIZMO_TURN) at a point (project axes), a fixed size on screen. A
 * left drag on one moves the pointer's displacement along the arrow (or its
 * turn about the ring's centre); Ctrl snaps to 1 mm / 5°. During the drag
 * `body` (or none: -1) follows in the view; at its end the view takes its
 * pose back and emits "gizmo-dragged" (int mode, int axis, double amount: m
 * along or rad about the axis) for the window to make the edit. Setting the
 * gizmo anew (moved, another mode, hidden) during a drag drops the drag. */
void motus_viewport_set_gizmo(MotusViewport *self, MotusGizmoMode mode, const double origin[3], const double axes[9],
                              int body);
MotusGizmoMode motus_viewport_get_gizmo(MotusViewport *self);
/* Adds a widget (e.g. buttons) at the start of the view's tool bar. */
void motus_viewport_add_tool(MotusViewport *self, GtkWidget *tool);
/* Widget coordinates of a point to grab handle `axis` by (80 % along an
 * arrow; a ring at its angle 0, on the second axis); FALSE when not shown. */
gboolean motus_viewport_gizmo_point(MotusViewport *self, int axis, double *x, double *y);
/* What the left-button drag does on the gizmo (tests call them too): begin at
 * a widget point (TRUE when a handle is there), move to a point (snap: Ctrl
 * held), end (emits "gizmo-dragged" when the amount is not 0). */
gboolean motus_viewport_gizmo_begin(MotusViewport *self, double x, double y);
void motus_viewport_gizmo_update(MotusViewport *self, double x, double y, gboolean snap);
void motus_viewport_gizmo_end(MotusViewport *self);

/* ---- flexible bodies ----
 * A reduced flexible body is drawn from its surface, moved by its pose and
 * deformed by modal superposition in the vertex shader (its modal
 * coordinates times the modal displacements of each vertex, times the
 * deformation scale). Its surface can be coloured by the displacement
 * magnitude or the von Mises stress, with a legend in the project's display
 * units (mm or m, MPa when the project sets none); the colour range is the
 * run's maximum (given by the window), the current frame's, or fixed.
 * A bar at the bottom right holds the controls; it shows only for models
 * with flexible bodies. */
typedef enum { MOTUS_FIELD_NONE, MOTUS_FIELD_DISPLACEMENT, MOTUS_FIELD_VONMISES } MotusField;
typedef enum { MOTUS_RANGE_RUN, MOTUS_RANGE_FRAME, MOTUS_RANGE_FIXED } MotusRangeMode;

/* Number of modal coordinates of the flexible bodies shown (all specs with a
 * reduction, in the model's order of flexible specs), 0 without any. */
int motus_viewport_n_modal(MotusViewport *self);
/* Modal coordinates to show (n = motus_viewport_n_modal; NULL: undeformed). */
void motus_viewport_set_modal(MotusViewport *self, const double *w, int n);
void motus_viewport_set_deformation_scale(MotusViewport *self, double scale);
/* A deformation scale and colour field proposed after a run: taken where the
 * user (or a caller) has not chosen one since the model was opened (the field
 * only while none is shown). TRUE when something changed. */
gboolean motus_viewport_propose_view(MotusViewport *self, double scale, MotusField field);
double motus_viewport_get_deformation_scale(MotusViewport *self);
void motus_viewport_set_colour_field(MotusViewport *self, MotusField field);
MotusField motus_viewport_get_colour_field(MotusViewport *self);
/* Range mode; lo and hi (SI: m or Pa) are used by MOTUS_RANGE_FIXED. */
void motus_viewport_set_colour_range(MotusViewport *self, MotusRangeMode mode, double lo, double hi);
MotusRangeMode motus_viewport_get_range_mode(MotusViewport *self);
/* The run's largest value of each field (SI), for MOTUS_RANGE_RUN. */
void motus_viewport_set_run_max(MotusViewport *self, double disp, double von_mises);
/* The range the colours span now (SI); FALSE when no field is shown. */
gboolean motus_viewport_get_colour_range(MotusViewport *self, double *lo, double *hi);
/* The legend (a drawing area over the view). */
GtkWidget *motus_viewport_get_legend(MotusViewport *self);
/* The legend's unit for the field shown ("mm", "MPa"; NULL when none). */
const char *motus_viewport_legend_unit(MotusViewport *self);
/* What the legend says instead of a colour bar (stress asked for where no
 * body has it), or NULL. */
const char *motus_viewport_legend_note(MotusViewport *self);
/* Surface vertices of flexible body `body` (0 when it has no flexible surface). */
int motus_viewport_flex_n_vertices(MotusViewport *self, int body);
/* Where surface vertex v of flexible body `body` is (project axes) with the
 * modal coordinates shown and deformation scale `scale` (the view draws it
 * at motus_viewport_get_deformation_scale); FALSE when the body has no
 * flexible surface or v is out of range. */
gboolean motus_viewport_flex_vertex(MotusViewport *self, int body, int v, double scale, double out[3]);
/* The surface vertex that moves most (relative to the supports) in the frame shown, or -1. */
int motus_viewport_flex_peak_vertex(MotusViewport *self, int body);
/* Animates mode `mode` (0-based) of flexible body `body` (a sinusoid of the
 * modal coordinate, its largest displacement a tenth of the body's size on
 * screen); mode < 0 stops and shows the frame again. */
void motus_viewport_preview_mode(MotusViewport *self, int body, int mode);
/* The body and mode animated (-1 when none). */
int motus_viewport_preview_body(MotusViewport *self);
int motus_viewport_preview_index(MotusViewport *self);

G_END_DECLS

#endif
