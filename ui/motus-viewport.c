/* motus-viewport.c — the 3D view (see motus-viewport.h). GL objects are made
 * in realize (after checking gtk_gl_area_get_error), deleted in unrealize;
 * scene buffers are (re)uploaded in render when the model changes. */
#include "motus-viewport.h"

#include <epoxy/gl.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "motus-gl-driver.h"
#include "motus-gl-view.h"
#include "motus-i18n.h"
#include "motus-plot-axis.h"
#include "motus-gizmo.h"
#include "motus-scene.h"
#include "mt_edit.h"
#include "mt_flexmodel.h"
#include "mt_flexview.h"
#include "mt_units.h"

#define RES "/org/motus/Motus/shaders/"
#define TRIAD_PX 96 /* size of the corner axis triad, logical pixels */

/* Background gradient, top and bottom (also reported to screenshot checks). */
static const float bg_top[3] = {0.86f, 0.89f, 0.93f}, bg_bottom[3] = {0.62f, 0.67f, 0.74f};

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
    GLuint bg_fbo, bg_tex; /* the background gradient, drawn once per size and copied into each frame */
    int bg_w, bg_h;
    guint frames;
    mat4 drawn_V, drawn_P;  /* the camera of the last render */

    /* overlay over the GL view (picking marks, traces, vectors), project axes */
    GArray *ov;       /* OverlayItem */
    GArray *ov_pts;   /* doubles: points of the overlay items, 3 each */
    gboolean picking; /* clicks go to "point-clicked" instead of picking a body */

    /* flexible bodies */
    GLuint prog_flex, prog_flex_pick, map_tex;
    GLint max_tbo;        /* GL_MAX_TEXTURE_BUFFER_SIZE, texels */
    FlexGl *flexgl;       /* nbuf entries, used where the scene body has a flexible surface */
    double *w;            /* scene->nmodal modal coordinates shown */
    double *wp;           /* the same during a mode preview */
    double *rig;          /* 6 per body: rigid motion fitted to a flexible body's supports (mt_flexview.h) */
    double deform;        /* deformation scale */
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
} OverlayItem;

static void overlay_item_clear(gpointer p) { g_free(((OverlayItem *)p)->label); }

G_DEFINE_TYPE(MotusViewport, motus_viewport, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_ORTHOGRAPHIC, N_PROPS };
static GParamSpec *props[N_PROPS];
enum { SIG_BODY_PICKED, SIG_POINT_CLICKED, SIG_GIZMO_DRAGGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void hud_refresh(MotusViewport *self);
static void flex_model_changed(MotusViewport *self);
static void flex_controls_init(MotusViewport *self);

/* ---- GL helpers -------------------------------------------------------------- */

/* Compiles a shader from the resources; defines (or NULL) go right after its #version line. */
static GLuint compile_shader(GLenum type, const char *res, const char *defines, GError **error)
{
    g_autoptr(GBytes) src = g_resources_lookup_data(res, G_RESOURCE_LOOKUP_FLAGS_NONE, error);
    if (!src) return 0;
    gsize len;
    const char *text = g_bytes_get_data(src, &len);
    const char *eol = memchr(text, '\n', len);
    gsize head = eol ? (gsize)(eol + 1 - text) : len;
    const char *parts[3] = {text, defines ? defines : "", text + head};
    GLint lens[3] = {(GLint)head, -1, (GLint)(len - head)};
    GLuint s = glCreateShader(type);
    glShaderSource(s, 3, parts, lens);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048] = "";
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, _("shader %s does not compile: %s"), res, log);
        glDeleteShader(s);
        return 0;
    }
    return s;
}

static GLuint link_program(const char *vert, const char *frag, const char *defines, GError **error)
{
    GLuint v = compile_shader(GL_VERTEX_SHADER, vert, defines, error);
    if (!v) return 0;
    GLuint f = compile_shader(GL_FRAGMENT_SHADER, frag, defines, error);
    if (!f) {
        glDeleteShader(v);
        return 0;
    }
    GLuint p = glCreateProgram();
    glAttachShader(p, v);
    glAttachShader(p, f);
    glLinkProgram(p);
    glDeleteShader(v);
    glDeleteShader(f);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048] = "";
        glGetProgramInfoLog(p, sizeof log, NULL, log);
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, _("shaders %s and %s do not link: %s"), vert, frag, log);
        glDeleteProgram(p);
        return 0;
    }
    return p;
}

static guint vertex_hash(gconstpointer v) { return (guint)g_bytes_hash(v); }
static gboolean vertex_equal(gconstpointer a, gconstpointer b) { return g_bytes_equal(a, b); }

/* Triangle soup → distinct vertices and indices: a smooth sphere's vertices
 * are shared by six triangles, and the software rasteriser's cost grows with
 * the vertices it transforms (measured 2026-11-24, commit 4dd8b96 of bench/RESULTS.md). */
static GArray *share_vertices(GArray *verts, GArray *out)
{
    GArray *idx = g_array_sized_new(FALSE, FALSE, sizeof(guint32), verts->len);
    GHashTable *seen = g_hash_table_new_full(vertex_hash, vertex_equal, (GDestroyNotify)g_bytes_unref, NULL);
    const MotusVertex *v = (const MotusVertex *)verts->data;
    for (guint i = 0; i < verts->len; i++) {
        GBytes *key = g_bytes_new_static(&v[i], sizeof v[i]);
        gpointer found;
        guint32 k;
        if (g_hash_table_lookup_extended(seen, key, NULL, &found)) {
            k = GPOINTER_TO_UINT(found) - 1;
            g_bytes_unref(key);
        } else {
            k = out->len;
            g_array_append_val(out, v[i]);
            g_hash_table_insert(seen, key, GUINT_TO_POINTER(k + 1));
        }
        g_array_append_val(idx, k);
    }
    g_hash_table_unref(seen);
    return idx;
}

/* Uploads solid (MotusVertex) or line (MotusLineVertex) vertices; static
 * solids are uploaded indexed, with shared vertices. */
static void buf_upload(GlBuf *b, GArray *verts, gboolean lines, GLenum usage)
{
    if (!b->vao) {
        glGenVertexArrays(1, &b->vao);
        glGenBuffers(1, &b->vbo);
    }
    glBindVertexArray(b->vao);
    glBindBuffer(GL_ARRAY_BUFFER, b->vbo);
    gsize sz = lines ? sizeof(MotusLineVertex) : sizeof(MotusVertex);
    g_autoptr(GArray) idx = NULL, shared = NULL;
    if (!lines && usage == GL_STATIC_DRAW && verts->len) {
        shared = g_array_new(FALSE, FALSE, sizeof(MotusVertex));
        idx = share_vertices(verts, shared);
        verts = shared;
        if (!b->ebo) glGenBuffers(1, &b->ebo);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, b->ebo); /* recorded in the VAO */
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(idx->len * sizeof(guint32)), idx->data, GL_STATIC_DRAW);
    } else if (b->ebo) {
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
        glDeleteBuffers(1, &b->ebo);
        b->ebo = 0;
    }
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(verts->len * sz), verts->len ? verts->data : NULL, usage);
    if (lines) {
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, (GLsizei)sz, (void *)G_STRUCT_OFFSET(MotusLineVertex, p));
        glEnableVertexAttribArray(2);
        glVertexAttribPointer(2, 3, GL_FLOAT, GL_FALSE, (GLsizei)sz, (void *)G_STRUCT_OFFSET(MotusLineVertex, c));
    } else {
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, (GLsizei)sz, (void *)G_STRUCT_OFFSET(MotusVertex, p));
        glEnableVertexAttribArray(1);
        glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, (GLsizei)sz, (void *)G_STRUCT_OFFSET(MotusVertex, n));
        glEnableVertexAttribArray(2);
        glVertexAttribPointer(2, 3, GL_FLOAT, GL_FALSE, (GLsizei)sz, (void *)G_STRUCT_OFFSET(MotusVertex, c));
    }
    glBindVertexArray(0);
    b->count = (GLsizei)(idx ? idx->len : verts->len);
}

static void buf_delete(GlBuf *b)
{
    if (b->vao) glDeleteVertexArrays(1, &b->vao);
    if (b->vbo) glDeleteBuffers(1, &b->vbo);
    if (b->ebo) glDeleteBuffers(1, &b->ebo);
    memset(b, 0, sizeof *b);
}

static void flex_delete(FlexGl *f)
{
    if (f->vao) glDeleteVertexArrays(1, &f->vao);
    GLuint bufs[] = {f->vbo, f->ebo, f->hbuf, f->sbuf}, tex[] = {f->htex, f->stex};
    for (guint i = 0; i < G_N_ELEMENTS(bufs); i++)
        if (bufs[i]) glDeleteBuffers(1, &bufs[i]);
    for (guint i = 0; i < G_N_ELEMENTS(tex); i++)
        if (tex[i]) glDeleteTextures(1, &tex[i]);
    memset(f, 0, sizeof *f);
}

/* A buffer texture of n RGBA32F texels. */
static void tbo_make(GLuint *buf, GLuint *tex, const float *data, gsize n)
{
    glGenBuffers(1, buf);
    glBindBuffer(GL_TEXTURE_BUFFER, *buf);
    glBufferData(GL_TEXTURE_BUFFER, (GLsizeiptr)(n * 4 * sizeof(float)), data, GL_STATIC_DRAW);
    glGenTextures(1, tex);
    glBindTexture(GL_TEXTURE_BUFFER, *tex);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, *buf);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
}

/* Uploads a flexible body's surface and its modal data (padded to RGBA). */
static void flex_upload(MotusViewport *self, FlexGl *f, const MotusFlexMesh *fm)
{
    const MtFlexBody *fb = fm->fb;
    glGenVertexArrays(1, &f->vao);
    glGenBuffers(1, &f->vbo);
    glGenBuffers(1, &f->ebo);
    glBindVertexArray(f->vao);
    glBindBuffer(GL_ARRAY_BUFFER, f->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(fm->verts->len * sizeof(MotusFlexVertex)), fm->verts->data,
                 GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, f->ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(fm->index->len * sizeof(guint32)), fm->index->data,
                 GL_STATIC_DRAW);
    GLsizei sz = sizeof(MotusFlexVertex);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sz, (void *)G_STRUCT_OFFSET(MotusFlexVertex, p));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sz, (void *)G_STRUCT_OFFSET(MotusFlexVertex, n));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 3, GL_FLOAT, GL_FALSE, sz, (void *)G_STRUCT_OFFSET(MotusFlexVertex, c));
    glEnableVertexAttribArray(3);
    glVertexAttribIPointer(3, 1, GL_INT, sz, (void *)G_STRUCT_OFFSET(MotusFlexVertex, ref));
    glBindVertexArray(0);
    f->count = (GLsizei)fm->index->len;
    /* the shader sums at most MAX_SHADER_MODES modes; the buffer textures must fit the GL's limit */
    gsize nsv = (gsize)fb->nsv, N = (gsize)MIN(fb->nmode, MAX_SHADER_MODES);
    f->nmodes = 0;
    if (!N || !fb->sv_H || nsv * N * 2 > (gsize)self->max_tbo) return;
    /* two texels per vertex and mode: the displacement, and the rate of the unit normal (shading follows) */
    float *h = g_new0(float, 8 * nsv * N), *dn = g_new(float, 3 * nsv * (gsize)fb->nmode);
    if (mt_flexview_normal_modes(fb, dn)) memset(dn, 0, sizeof(float) * 3 * nsv * (gsize)fb->nmode);
    for (gsize t = 0; t < nsv * N; t++) {
        memcpy(h + 8 * t, fb->sv_H + 3 * t, 3 * sizeof(float));
        memcpy(h + 8 * t + 4, dn + 3 * t, 3 * sizeof(float));
    }
    tbo_make(&f->hbuf, &f->htex, h, 2 * nsv * N);
    g_free(h);
    g_free(dn);
    f->stress = mt_flexview_has_field(fb, MT_FLEXFIELD_VONMISES);
    if (f->stress) {
        float *sg = g_new0(float, 8 * nsv * N);
        for (gsize t = 0; t < nsv * N; t++) {
            memcpy(sg + 8 * t, fb->sv_sig + 6 * t, 3 * sizeof(float));
            memcpy(sg + 8 * t + 4, fb->sv_sig + 6 * t + 3, 3 * sizeof(float));
        }
        tbo_make(&f->sbuf, &f->stex, sg, 2 * nsv * N);
        g_free(sg);
    }
    f->nmodes = (int)N;
}

static void delete_scene_buffers(MotusViewport *self)
{
    for (int i = 0; i < self->nbuf; i++) {
        if (self->flexgl) flex_delete(&self->flexgl[i]);
        for (int l = 0; l < MOTUS_LOD_LEVELS; l++) {
            buf_delete(&self->lod[l][i].tri);
            buf_delete(&self->lod[l][i].glyph);
            buf_delete(&self->lod[l][i].edges);
        }
        buf_delete(&self->axes[i]);
    }
    for (int l = 0; l < MOTUS_LOD_LEVELS; l++) g_clear_pointer(&self->lod[l], g_free);
    g_clear_pointer(&self->level, g_free);
    g_clear_pointer(&self->order, g_free);
    g_clear_pointer(&self->near, g_free);
    g_clear_pointer(&self->axes, g_free);
    g_clear_pointer(&self->flexgl, g_free);
    self->nbuf = 0;
    buf_delete(&self->grid);
    buf_delete(&self->spring);
}

/* Grid lines on the floor plane, centred under the scene. */
static void build_grid(MotusViewport *self, GArray *out)
{
    const int N = 12;
    float s = self->grid_step;
    int up = self->scene ? self->scene->up_axis : 1;
    /* the two horizontal world axes: (x, z) when y is up, (x, y) when z is up */
    int a0 = 0, a1 = up == 2 ? 1 : 2;
    float c0 = roundf(self->grid_centre[a0] / s) * s, c1 = roundf(self->grid_centre[a1] / s) * s;
    int i0 = (int)lroundf(c0 / s), i1 = (int)lroundf(c1 / s);
    for (int dir = 0; dir < 2; dir++)
        for (int i = -N; i <= N; i++) {
            MotusLineVertex v[2];
            memset(v, 0, sizeof v);
            int idx = (dir == 0 ? i1 : i0) + i;
            float along = (float)idx * s;
            for (int k = 0; k < 2; k++) {
                v[k].p[up] = self->grid_y;
                if (dir == 0) { /* lines along a0 at a1 = along */
                    v[k].p[a0] = c0 + (k ? N : -N) * s;
                    v[k].p[a1] = along;
                } else {
                    v[k].p[a1] = c1 + (k ? N : -N) * s;
                    v[k].p[a0] = along;
                }
            }
            float col[3] = {0.56f, 0.60f, 0.66f};
            if (idx % 5 == 0) col[0] = col[1] = 0.44f, col[2] = 0.50f;
            if (idx == 0) {
                /* the line through the origin along a0 is the x axis (red); along a1 z or y */
                if (dir == 0)
                    col[0] = 0.78f, col[1] = 0.32f, col[2] = 0.32f;
                else if (up == 2)
                    col[0] = 0.30f, col[1] = 0.62f, col[2] = 0.32f;
                else
                    col[0] = 0.30f, col[1] = 0.42f, col[2] = 0.85f;
            }
            memcpy(v[0].c, col, sizeof col);
            memcpy(v[1].c, col, sizeof col);
            g_array_append_vals(out, v, 2);
        }
}

static void upload_scene(MotusViewport *self)
{
    delete_scene_buffers(self);
    self->scene_dirty = FALSE;
    if (!self->scene) return;
    self->nbuf = self->scene->nbody + 1;
    for (int l = 0; l < MOTUS_LOD_LEVELS; l++) self->lod[l] = g_new0(DetailGl, self->nbuf);
    self->level = g_new(int, self->nbuf);
    self->order = g_new(int, self->nbuf);
    self->near = g_new0(float, self->nbuf);
    for (int i = 0; i < self->nbuf; i++) self->level[i] = -1, self->order[i] = i;
    self->axes = g_new0(GlBuf, self->nbuf);
    self->flexgl = g_new0(FlexGl, self->nbuf);
    for (int i = 0; i < self->nbuf; i++) {
        MotusBodyMesh *bm = &self->scene->body[i];
        if (bm->flex) flex_upload(self, &self->flexgl[i], bm->flex);
        /* every level once: the view only chooses which to draw */
        for (int l = 0; l < MOTUS_LOD_LEVELS; l++) {
            MotusBodyDetail d = l ? bm->coarse[l - 1] : (MotusBodyDetail){bm->tri, bm->glyph, bm->edges};
            if (!d.tri) continue;
            buf_upload(&self->lod[l][i].tri, d.tri, FALSE, GL_STATIC_DRAW);
            buf_upload(&self->lod[l][i].glyph, d.glyph, FALSE, GL_STATIC_DRAW);
            buf_upload(&self->lod[l][i].edges, d.edges, TRUE, GL_STATIC_DRAW);
        }
        buf_upload(&self->axes[i], bm->axes, TRUE, GL_STATIC_DRAW);
    }
    g_autoptr(GArray) grid = g_array_new(FALSE, FALSE, sizeof(MotusLineVertex));
    build_grid(self, grid);
    buf_upload(&self->grid, grid, TRUE, GL_STATIC_DRAW);
}

/* ---- realize / render ------------------------------------------------------------ */

static void area_realize(GtkGLArea *area, gpointer data)
{
    MotusViewport *self = data;
    gtk_gl_area_make_current(area);
    g_clear_error(&self->gl_error);
    if (gtk_gl_area_get_error(area)) {
        self->gl_error = g_error_copy(gtk_gl_area_get_error(area));
        self->gl_ok = FALSE;
        hud_refresh(self);
        return;
    }
    motus_gl_driver_keep_loaded(); /* sanitizer builds: its leaks named at exit (motus-gl-driver.h) */
    GError *error = NULL;
    self->prog_mesh = link_program(RES "mesh.vert", RES "mesh.frag", NULL, &error);
    if (self->prog_mesh) self->prog_pick = link_program(RES "mesh.vert", RES "pick.frag", NULL, &error);
    if (self->prog_pick) self->prog_line = link_program(RES "line.vert", RES "line.frag", NULL, &error);
    if (self->prog_line) self->prog_bg = link_program(RES "background.vert", RES "background.frag", NULL, &error);
    if (self->prog_bg) self->prog_flex = link_program(RES "flex.vert", RES "mesh.frag", "#define COLOUR_MAP 1\n", &error);
    if (self->prog_flex) self->prog_flex_pick = link_program(RES "flex.vert", RES "pick.frag", NULL, &error);
    if (!self->prog_flex_pick) {
        self->gl_error = error;
        self->gl_ok = FALSE;
        gtk_gl_area_set_error(area, error);
        hud_refresh(self);
        return;
    }
    glGenVertexArrays(1, &self->vao_empty);
    glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &self->max_tbo);
    guint8 map[3 * MAP_SIZE];
    for (int i = 0; i < MAP_SIZE; i++) {
        float c[3];
        motus_colormap((double)i / (MAP_SIZE - 1), c);
        for (int k = 0; k < 3; k++) map[3 * i + k] = (guint8)lroundf(255 * c[k]);
    }
    glGenTextures(1, &self->map_tex);
    glBindTexture(GL_TEXTURE_1D, self->map_tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage1D(GL_TEXTURE_1D, 0, GL_RGB8, MAP_SIZE, 0, GL_RGB, GL_UNSIGNED_BYTE, map);
    glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_1D, 0);
    g_autoptr(GArray) triad = g_array_new(FALSE, FALSE, sizeof(MotusVertex));
    motus_scene_add_triad(triad, 1.0);
    buf_upload(&self->triad, triad, FALSE, GL_STATIC_DRAW);
    g_snprintf(self->gl_info, sizeof self->gl_info, "%s, %s", (const char *)glGetString(GL_RENDERER),
               (const char *)glGetString(GL_VERSION));
    self->gl_ok = TRUE;
    self->scene_dirty = TRUE;
}

static void area_unrealize(GtkGLArea *area, gpointer data)
{
    MotusViewport *self = data;
    gtk_gl_area_make_current(area);
    if (gtk_gl_area_get_error(area) == NULL && self->gl_ok) {
        delete_scene_buffers(self);
        buf_delete(&self->triad);
        if (self->vao_empty) glDeleteVertexArrays(1, &self->vao_empty);
        if (self->map_tex) glDeleteTextures(1, &self->map_tex);
        GLuint progs[] = {self->prog_mesh, self->prog_pick, self->prog_line, self->prog_bg, self->prog_flex,
                          self->prog_flex_pick};
        for (guint i = 0; i < G_N_ELEMENTS(progs); i++)
            if (progs[i]) glDeleteProgram(progs[i]);
        motus_fbo_delete(&self->pick_fb);
        if (self->bg_fbo) glDeleteFramebuffers(1, &self->bg_fbo);
        if (self->bg_tex) glDeleteTextures(1, &self->bg_tex);
    }
    self->bg_fbo = self->bg_tex = 0;
    self->bg_w = self->bg_h = 0;
    self->vao_empty = self->prog_mesh = self->prog_pick = self->prog_line = self->prog_bg = 0;
    self->prog_flex = self->prog_flex_pick = self->map_tex = 0;
    self->pick_fb = (MotusFbo){0};
    self->gl_ok = FALSE;
}

static float aspect_of(MotusViewport *self)
{
    int w = gtk_widget_get_width(self->area), h = gtk_widget_get_height(self->area);
    return (w > 0 && h > 0) ? (float)w / (float)h : 1.5f;
}

static void body_matrix(MotusViewport *self, int i, mat4 M)
{
    if (i >= self->scene->nbody)
        glm_mat4_identity(M);
    else
        motus_scene_pose_matrix(self->poses + 7 * i, M);
}

/* mesh.vert has no uView (draw_solid sets uModelView): GL ignores location -1. */
static void set_camera_uniforms(GLuint prog, mat4 V, mat4 P)
{
    glUniformMatrix4fv(glGetUniformLocation(prog, "uView"), 1, GL_FALSE, (const float *)V);
    glUniformMatrix4fv(glGetUniformLocation(prog, "uProj"), 1, GL_FALSE, (const float *)P);
}

static void draw_solid(GLuint prog, const GlBuf *b, mat4 V, mat4 M, const float hl[4])
{
    if (!b->count) return;
    mat4 VM;
    mat3 N;
    glm_mat4_mul(V, M, VM);
    glm_mat4_pick3(VM, N); /* rigid: the inverse transpose is the rotation itself */
    glUniformMatrix4fv(glGetUniformLocation(prog, "uModelView"), 1, GL_FALSE, (const float *)VM);
    glUniformMatrix3fv(glGetUniformLocation(prog, "uNormal"), 1, GL_FALSE, (const float *)N);
    glUniform4fv(glGetUniformLocation(prog, "uHighlight"), 1, hl);
    glBindVertexArray(b->vao);
    if (b->ebo)
        glDrawElements(GL_TRIANGLES, b->count, GL_UNSIGNED_INT, NULL);
    else
        glDrawArrays(GL_TRIANGLES, 0, b->count);
}

/* The level of detail of body i in this frame: from the size on screen of
 * its bounding sphere (centre at pose M, viewport H device pixels high).
 * Also sets near[i], the eye distance of the sphere's nearest point. */
static int body_level(MotusViewport *self, int i, mat4 V, mat4 M, float H)
{
    const MotusBodyMesh *bm = &self->scene->body[i];
    vec4 c = {bm->centre[0], bm->centre[1], bm->centre[2], 1.0f}, w, e;
    glm_mat4_mulv(M, c, w);
    glm_mat4_mulv(V, w, e);
    self->near[i] = -e[2] - bm->radius; /* the eye looks along −z */
    if (self->full_detail || !bm->coarse[0].tri) return 0;
    double dist = self->cam.ortho ? self->cam.distance : -e[2];
    return motus_lod_level(motus_lod_radius_px(bm->radius, dist, self->cam.fovy, H));
}

/* Bodies nearest first: the rasteriser's depth test then rejects hidden
 * fragments before their shading, where drawn far first every covered
 * fragment would be shaded (a chain seen end-on: 100 spheres over one
 * another). Insertion sort from the last frame's order, which a moving
 * camera changes little. */
static void sort_near_first(MotusViewport *self)
{
    int *o = self->order;
    for (int k = 1; k < self->nbuf; k++) {
        int b = o[k], j = k;
        for (; j > 0 && self->near[o[j - 1]] > self->near[b]; j--) o[j] = o[j - 1];
        o[j] = b;
    }
}

static void draw_lines(GLuint prog, const GlBuf *b, mat4 M, float alpha)
{
    if (!b->count) return;
    glUniformMatrix4fv(glGetUniformLocation(prog, "uModel"), 1, GL_FALSE, (const float *)M);
    glUniform1f(glGetUniformLocation(prog, "uAlpha"), alpha);
    glBindVertexArray(b->vao);
    glDrawArrays(GL_LINES, 0, b->count);
}

/* ---- flexible bodies ------------------------------------------------------------ */

/* The modal coordinates drawn: the preview's while a mode animates. */
static const double *shown_w(MotusViewport *self) { return self->prev_body >= 0 ? self->wp : self->w; }

/* The field the colours show: an animated mode shape is coloured by its displacement at least. */
static MotusField shown_field(MotusViewport *self)
{
    return self->prev_body >= 0 && self->field == MOTUS_FIELD_NONE ? MOTUS_FIELD_DISPLACEMENT : self->field;
}

static void current_range(MotusViewport *self, double *lo, double *hi)
{
    int f = shown_field(self) == MOTUS_FIELD_VONMISES ? 1 : 0;
    *lo = 0;
    if (self->prev_body >= 0)
        *hi = self->prev_peak[f];
    else if (self->range_mode == MOTUS_RANGE_FIXED)
        *lo = self->fixed_lo, *hi = self->fixed_hi;
    else if (self->range_mode == MOTUS_RANGE_RUN && self->run_max[f] > 0)
        *hi = self->run_max[f];
    else /* the current frame (also before a run has given its maximum) */
        *hi = self->frame_max[f];
    if (!(*hi > *lo)) *hi = *lo + fmax(fabs(*lo) * 1e-6, 1e-12);
}

/* The rigid motion of each flexible body's supports at the modal coordinates shown. */
static void update_rig(MotusViewport *self)
{
    const double *w = shown_w(self);
    for (int b = 0; self->rig && b < self->scene->nbody; b++) {
        const MotusFlexMesh *fm = self->scene->body[b].flex;
        if (fm && w)
            mt_flexview_support_motion(fm->fb, w + fm->moff, self->rig + 6 * b);
        else
            memset(self->rig + 6 * b, 0, 6 * sizeof(double));
    }
}

/* Largest value of the field shown over every flexible body at the modal coordinates shown. */
static void update_frame_max(MotusViewport *self)
{
    if (!self->scene) return;
    update_rig(self);
    if (self->field == MOTUS_FIELD_NONE) return;
    int f = self->field == MOTUS_FIELD_VONMISES ? 1 : 0;
    /* the frame's maximum costs a pass over every vertex and mode: only when the range uses it */
    if (self->range_mode == MOTUS_RANGE_FIXED || (self->range_mode == MOTUS_RANGE_RUN && self->run_max[f] > 0)) return;
    const double *w = shown_w(self);
    double mx = 0;
    for (int b = 0; w && b < self->scene->nbody; b++) {
        const MotusFlexMesh *fm = self->scene->body[b].flex;
        if (fm) mx = fmax(mx, mt_flexview_field(fm->fb, w + fm->moff, self->rig + 6 * b, (MtFlexField)f, NULL));
    }
    self->frame_max[f] = mx;
}

static void draw_flex(MotusViewport *self, GLuint prog, int i, mat4 V, mat4 M, const float hl[4], gboolean colour)
{
    const FlexGl *f = &self->flexgl[i];
    const MotusFlexMesh *fm = self->scene->body[i].flex;
    if (!f->count) return;
    mat4 VM;
    mat3 N;
    glm_mat4_mul(V, M, VM);
    glm_mat4_pick3(VM, N);
    glUniformMatrix4fv(glGetUniformLocation(prog, "uModel"), 1, GL_FALSE, (const float *)M);
    glUniformMatrix3fv(glGetUniformLocation(prog, "uNormal"), 1, GL_FALSE, (const float *)N);
    glUniform4fv(glGetUniformLocation(prog, "uHighlight"), 1, hl);
    static float w4[4 * (MAX_SHADER_MODES / 4)];
    memset(w4, 0, sizeof w4);
    const double *w = shown_w(self);
    for (int k = 0; w && k < f->nmodes; k++) w4[k] = (float)w[fm->moff + k];
    glUniform4fv(glGetUniformLocation(prog, "uW"), MAX_SHADER_MODES / 4, w4);
    glUniform1i(glGetUniformLocation(prog, "uNModes"), f->nmodes);
    glUniform1i(glGetUniformLocation(prog, "uNsv"), fm->fb->nsv);
    glUniform1f(glGetUniformLocation(prog, "uScale"), (float)self->deform);
    const double *rg = self->rig + 6 * i;
    glUniform3f(glGetUniformLocation(prog, "uRigT"), (float)rg[0], (float)rg[1], (float)rg[2]);
    glUniform3f(glGetUniformLocation(prog, "uRigR"), (float)rg[3], (float)rg[4], (float)rg[5]);
    int field = colour ? (int)shown_field(self) : 0;
    if (field == MOTUS_FIELD_VONMISES && !f->stress) field = 0; /* beams: no stresses */
    if (!f->nmodes) field = 0;
    glUniform1i(glGetUniformLocation(prog, "uField"), field);
    double lo, hi;
    current_range(self, &lo, &hi);
    glUniform2f(glGetUniformLocation(prog, "uRange"), (float)lo, (float)hi);
    glUniform1i(glGetUniformLocation(prog, "uH"), 0);
    glUniform1i(glGetUniformLocation(prog, "uS"), 1);
    glUniform1i(glGetUniformLocation(prog, "uMap"), 2);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_BUFFER, f->htex);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_BUFFER, f->stex);
    glActiveTexture(GL_TEXTURE2);
    glBindTexture(GL_TEXTURE_1D, self->map_tex);
    glActiveTexture(GL_TEXTURE0);
    glBindVertexArray(f->vao);
    glDrawElements(GL_TRIANGLES, f->count, GL_UNSIGNED_INT, NULL);
}

/* Fits points in the part of the view that the controls over it leave free:
 * the toolbar on top, the flexible-body bar at the bottom, the legend on the
 * right (each as a band across the whole view, which keeps the framing simple). */
static void fit_points(MotusViewport *self, const float *pts, int n)
{
    float w = (float)gtk_widget_get_width(self->area), h = (float)gtk_widget_get_height(self->area);
    float in[4] = {0, 0, 0, 0};
    graphene_rect_t b;
    if (gtk_widget_get_visible(self->toolbar) && gtk_widget_compute_bounds(self->toolbar, self->area, &b))
        in[1] = fmaxf(0, b.origin.y + b.size.height);
    if (self->flexbar && gtk_widget_get_visible(self->flexbar) && gtk_widget_compute_bounds(self->flexbar, self->area, &b))
        in[3] = fmaxf(0, h - b.origin.y);
    if (self->legend && gtk_widget_get_visible(self->legend) && gtk_widget_compute_bounds(self->legend, self->area, &b))
        in[2] = fmaxf(0, w - b.origin.x);
    if (w > 0 && h > 0)
        motus_camera_fit_points_in(&self->cam, pts, n, w, h, in);
    else
        motus_camera_fit_points(&self->cam, pts, n, aspect_of(self));
}

/* Fits the bodies at their current poses and, after a run, the whole motion. */
static void fit_now(MotusViewport *self)
{
    if (!self->scene) return;
    g_autoptr(GArray) pts = g_array_new(FALSE, FALSE, sizeof(float));
    motus_scene_corners(self->scene, self->poses, pts);
    g_array_append_vals(pts, self->env->data, self->env->len);
    fit_points(self, (const float *)pts->data, (int)(pts->len / 3));
    self->need_fit = FALSE;
    self->touched = FALSE;
}

/* The background gradient, full-screen and shaded per pixel, was a tenth of
 * the software rasteriser's work in a frame of the 200k-triangle benchmark:
 * it is drawn once per size into a texture of the format of GTK's, and each
 * frame copies it (glBlitFramebuffer of the same size and format is a memory
 * copy in Mesa). Without a texture of that format the gradient is drawn. */
static void draw_background(MotusViewport *self, int W, int H)
{
    GLint target = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &target);
    glDisable(GL_DEPTH_TEST);
    if (self->bg_fbo && (self->bg_w != W || self->bg_h != H)) {
        glDeleteFramebuffers(1, &self->bg_fbo);
        glDeleteTextures(1, &self->bg_tex);
        self->bg_fbo = self->bg_tex = 0;
    }
    gboolean fresh = FALSE;
    if (!self->bg_fbo && W > 0 && H > 0) {
        GLint type = 0, name = 0, format = 0;
        glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                                              GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
        glGetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                                              GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &name);
        if (type == GL_TEXTURE && name) {
            glBindTexture(GL_TEXTURE_2D, (GLuint)name);
            glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &format);
        } else if (type == GL_RENDERBUFFER && name) {
            glBindRenderbuffer(GL_RENDERBUFFER, (GLuint)name);
            glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_INTERNAL_FORMAT, &format);
            glBindRenderbuffer(GL_RENDERBUFFER, 0);
        }
        if (format) {
            glGenTextures(1, &self->bg_tex);
            glBindTexture(GL_TEXTURE_2D, self->bg_tex);
            glTexImage2D(GL_TEXTURE_2D, 0, format, W, H, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
            glGenFramebuffers(1, &self->bg_fbo);
            glBindFramebuffer(GL_DRAW_FRAMEBUFFER, self->bg_fbo);
            glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, self->bg_tex, 0);
            if (glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE) {
                fresh = TRUE;
                self->bg_w = W, self->bg_h = H;
            } else {
                glDeleteFramebuffers(1, &self->bg_fbo);
                glDeleteTextures(1, &self->bg_tex);
                self->bg_fbo = self->bg_tex = 0;
                glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)target);
            }
        }
        glBindTexture(GL_TEXTURE_2D, 0);
    }
    if (!self->bg_fbo || fresh) {
        glUseProgram(self->prog_bg);
        glUniform3fv(glGetUniformLocation(self->prog_bg, "uTop"), 1, bg_top);
        glUniform3fv(glGetUniformLocation(self->prog_bg, "uBottom"), 1, bg_bottom);
        glBindVertexArray(self->vao_empty);
        glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    if (self->bg_fbo) {
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)target);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, self->bg_fbo);
        glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)target);
    }
}

static gboolean area_render(GtkGLArea *area, GdkGLContext *ctx, gpointer data)
{
    (void)ctx;
    MotusViewport *self = data;
    if (!self->gl_ok) return TRUE;
    if (self->scene_dirty) upload_scene(self);
    if (self->grid_dirty && self->scene) {
        g_autoptr(GArray) grid = g_array_new(FALSE, FALSE, sizeof(MotusLineVertex));
        build_grid(self, grid);
        buf_upload(&self->grid, grid, TRUE, GL_STATIC_DRAW);
    }
    self->grid_dirty = FALSE;
    if (self->need_fit) fit_now(self);
    int sf = gtk_widget_get_scale_factor(GTK_WIDGET(area));
    int W = gtk_widget_get_width(GTK_WIDGET(area)) * sf, H = gtk_widget_get_height(GTK_WIDGET(area)) * sf;
    glViewport(0, 0, W, H);
    draw_background(self, W, H);
    glClear(GL_DEPTH_BUFFER_BIT);

    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    mat4 V, P, M;
    motus_camera_view(&self->cam, V);
    motus_camera_proj(&self->cam, W > 0 && H > 0 ? (float)W / (float)H : 1.0f, P);
    /* read back later only when nothing drawn over the view must match the picture: the overlay's
     * arrows and labels, the gizmo and the triad's letters (a moved camera) are drawn at once */
    if (self->ov->len || self->gizmo.mode != MOTUS_GIZMO_OFF || memcmp(V, self->drawn_V, sizeof(mat4)) ||
        memcmp(P, self->drawn_P, sizeof(mat4)))
        motus_gl_view_show_at_once(MOTUS_GL_VIEW(area));
    glm_mat4_copy(V, self->drawn_V), glm_mat4_copy(P, self->drawn_P);

    if (self->scene) {
        /* solids, pushed back a little so that edges drawn over them win */
        glEnable(GL_POLYGON_OFFSET_FILL);
        glPolygonOffset(1.0f, 1.0f);
        glUseProgram(self->prog_mesh);
        set_camera_uniforms(self->prog_mesh, V, P);
        glUniform1i(glGetUniformLocation(self->prog_mesh, "uOrtho"), self->cam.ortho);
        glUniform1f(glGetUniformLocation(self->prog_mesh, "uAlpha"), 1.0f);
        static const float no_hl[4] = {0, 0, 0, 0}, hl[4] = {1.0f, 0.78f, 0.15f, 0.45f};
        /* closed primitives and glyphs lose their back faces before the software rasteriser sets them up */
        glEnable(GL_CULL_FACE);
        glCullFace(GL_BACK);
        self->tris_drawn = 0;
        for (int i = 0; i < self->nbuf; i++) {
            body_matrix(self, i, M);
            self->level[i] = body_level(self, i, V, M, (float)H);
        }
        sort_near_first(self);
        for (int k = 0; k < self->nbuf; k++) {
            int i = self->order[k];
            body_matrix(self, i, M);
            const DetailGl *d = &self->lod[self->level[i]][i];
            if (self->scene->body[i].closed)
                glEnable(GL_CULL_FACE);
            else
                glDisable(GL_CULL_FACE);
            draw_solid(self->prog_mesh, &d->tri, V, M, i == self->selected ? hl : no_hl);
            glEnable(GL_CULL_FACE);
            draw_solid(self->prog_mesh, &d->glyph, V, M, no_hl);
            self->tris_drawn += (d->tri.count + d->glyph.count) / 3;
        }
        glDisable(GL_CULL_FACE);
        if (self->flexgl) {
            glUseProgram(self->prog_flex);
            set_camera_uniforms(self->prog_flex, V, P);
            glUniform1i(glGetUniformLocation(self->prog_flex, "uOrtho"), self->cam.ortho);
            glUniform1f(glGetUniformLocation(self->prog_flex, "uAlpha"), 1.0f);
            for (int i = 0; i < self->nbuf; i++) {
                if (!self->flexgl[i].count) continue;
                body_matrix(self, i, M);
                draw_flex(self, self->prog_flex, i, V, M, i == self->selected ? hl : no_hl, TRUE);
                self->tris_drawn += self->flexgl[i].count / 3;
            }
            glUseProgram(self->prog_mesh);
        }
        if (self->model->nspring) {
            g_array_set_size(self->spring_verts, 0);
            for (int s = 0; s < self->model->nspring; s++) {
                double a[3], b[3];
                motus_scene_marker_world(self->model, self->model->spring[s].mi, self->poses, a);
                motus_scene_marker_world(self->model, self->model->spring[s].mj, self->poses, b);
                motus_scene_add_spring(self->spring_verts, self->scene->scale, a, b);
            }
            buf_upload(&self->spring, self->spring_verts, FALSE, GL_DYNAMIC_DRAW);
            glm_mat4_identity(M);
            draw_solid(self->prog_mesh, &self->spring, V, M, no_hl);
            self->tris_drawn += self->spring.count / 3;
        }
        glDisable(GL_POLYGON_OFFSET_FILL);

        /* lines: edges, marker triads, then the grid blended over the floor */
        glUseProgram(self->prog_line);
        set_camera_uniforms(self->prog_line, V, P);
        for (int i = 0; i < self->nbuf; i++) {
            body_matrix(self, i, M);
            draw_lines(self->prog_line, &self->lod[self->level[i]][i].edges, M, 1.0f);
            draw_lines(self->prog_line, &self->axes[i], M, 1.0f);
        }
        glEnable(GL_BLEND);
        /* keep the framebuffer opaque: GTK composites it as premultiplied RGBA */
        glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
        glDepthMask(GL_FALSE);
        glm_mat4_identity(M);
        draw_lines(self->prog_line, &self->grid, M, 0.7f);
        glDepthMask(GL_TRUE);
        glDisable(GL_BLEND);
    }

    /* corner axis triad: the view's rotation only, orthographic */
    int S = TRIAD_PX * sf;
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, S, S);
    glClear(GL_DEPTH_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    glViewport(0, 0, S, S);
    mat4 Vr, Pr;
    glm_mat4_copy(V, Vr);
    Vr[3][0] = 0, Vr[3][1] = 0, Vr[3][2] = -3.0f;
    glm_ortho(-1.35f, 1.35f, -1.35f, 1.35f, 0.1f, 10.0f, Pr);
    glUseProgram(self->prog_mesh);
    set_camera_uniforms(self->prog_mesh, Vr, Pr);
    glUniform1i(glGetUniformLocation(self->prog_mesh, "uOrtho"), 1);
    glUniform1f(glGetUniformLocation(self->prog_mesh, "uAlpha"), 1.0f); /* GTK composites premultiplied */
    glm_mat4_identity(M);
    static const float none[4] = {0, 0, 0, 0};
    draw_solid(self->prog_mesh, &self->triad, Vr, M, none);
    glViewport(0, 0, W, H);

    glBindVertexArray(0);
    glUseProgram(0);
    if (!motus_gl_view_reading_back(MOTUS_GL_VIEW(area))) self->frames++; /* else counted when shown */
    hud_refresh(self);
    return TRUE;
}

/* ---- picking -------------------------------------------------------------------- */

/* Body under widget point (x, y): 0..nbody-1, nbody for the ground, -1 for none. */
static int pick(MotusViewport *self, double x, double y)
{
    if (!self->gl_ok || !self->scene) return -1;
    GtkGLArea *area = GTK_GL_AREA(self->area);
    gtk_gl_area_make_current(area);
    if (gtk_gl_area_get_error(area)) return -1;
    if (self->scene_dirty) upload_scene(self);
    int sf = gtk_widget_get_scale_factor(self->area);
    int W = gtk_widget_get_width(self->area) * sf, H = gtk_widget_get_height(self->area) * sf;
    if (W <= 0 || H <= 0) return -1;
    int result = -1;
    if (motus_fbo_bind(&self->pick_fb, W, H)) {
        glViewport(0, 0, W, H);
        glClearColor(0, 0, 0, 0);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glEnable(GL_DEPTH_TEST);
        glDisable(GL_BLEND);
        mat4 V, P, M;
        motus_camera_view(&self->cam, V);
        motus_camera_proj(&self->cam, (float)W / (float)H, P);
        glUseProgram(self->prog_pick);
        set_camera_uniforms(self->prog_pick, V, P);
        static const float none[4] = {0, 0, 0, 0};
        for (int i = 0; i < self->nbuf; i++) {
            body_matrix(self, i, M);
            glUniform1i(glGetUniformLocation(self->prog_pick, "uId"), i + 1);
            draw_solid(self->prog_pick, &self->lod[0][i].tri, V, M, none); /* at full detail: what a click hits */
        }
        glUseProgram(self->prog_flex_pick);
        set_camera_uniforms(self->prog_flex_pick, V, P);
        for (int i = 0; i < self->nbuf; i++) {
            if (!self->flexgl[i].count) continue;
            body_matrix(self, i, M);
            glUniform1i(glGetUniformLocation(self->prog_flex_pick, "uId"), i + 1);
            draw_flex(self, self->prog_flex_pick, i, V, M, none, FALSE);
        }
        /* the nearest hit within a few pixels, so that thin parts can be clicked */
        const int R = 4 * sf;
        int px = (int)(x * sf), py = H - 1 - (int)(y * sf);
        int x0 = MAX(0, px - R), y0 = MAX(0, py - R), x1 = MIN(W - 1, px + R), y1 = MIN(H - 1, py + R);
        if (x1 >= x0 && y1 >= y0) {
            int w = x1 - x0 + 1, h = y1 - y0 + 1, best = INT_MAX;
            guint8 *pix = g_malloc((gsize)w * (gsize)h * 4);
            glPixelStorei(GL_PACK_ALIGNMENT, 1);
            glReadPixels(x0, y0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pix);
            for (int j = 0; j < h; j++)
                for (int i = 0; i < w; i++) {
                    const guint8 *p = pix + 4 * (j * w + i);
                    int id = p[0] | (p[1] << 8);
                    int d = (x0 + i - px) * (x0 + i - px) + (y0 + j - py) * (y0 + j - py);
                    if (id && d < best) best = d, result = id - 1;
                }
            g_free(pix);
        }
        glBindVertexArray(0);
        glUseProgram(0);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return result;
}

/* ---- input ------------------------------------------------------------------------ */

static void drag_begin(GtkGestureDrag *g, double x, double y, gpointer data)
{
    MotusViewport *self = data;
    self->drag_button = (int)gtk_gesture_single_get_current_button(GTK_GESTURE_SINGLE(g));
    GdkModifierType mods = gtk_event_controller_get_current_event_state(GTK_EVENT_CONTROLLER(g));
    self->drag_mode =
        (self->drag_button == 2 || self->drag_button == 3 || (mods & GDK_SHIFT_MASK)) ? DRAG_PAN : DRAG_ORBIT;
    if (self->drag_button == 1 && !(mods & GDK_SHIFT_MASK) && motus_viewport_gizmo_begin(self, x, y))
        self->drag_mode = DRAG_GIZMO;
    self->drag_x = x, self->drag_y = y;
    self->drag_dx = self->drag_dy = 0;
    gtk_widget_grab_focus(self->area);
}

static void drag_update(GtkGestureDrag *g, double ox, double oy, gpointer data)
{
    MotusViewport *self = data;
    if (self->drag_mode == DRAG_GIZMO) {
        GdkModifierType mods = gtk_event_controller_get_current_event_state(GTK_EVENT_CONTROLLER(g));
        motus_viewport_gizmo_update(self, self->drag_x + ox, self->drag_y + oy, (mods & GDK_CONTROL_MASK) != 0);
        return;
    }
    double dx = ox - self->drag_dx, dy = oy - self->drag_dy;
    self->drag_dx = ox, self->drag_dy = oy;
    if (dx != 0 || dy != 0) self->touched = TRUE;
    if (self->drag_mode == DRAG_ORBIT)
        motus_camera_orbit(&self->cam, (float)(-dx * 0.008), (float)(dy * 0.008));
    else if (self->drag_mode == DRAG_PAN)
        motus_camera_pan(&self->cam, (float)dx, (float)dy, (float)gtk_widget_get_height(self->area));
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
}

static void drag_end(GtkGestureDrag *g, double ox, double oy, gpointer data)
{
    (void)g;
    MotusViewport *self = data;
    if (self->drag_mode == DRAG_GIZMO) {
        self->drag_mode = DRAG_NONE;
        motus_viewport_gizmo_end(self);
        return;
    }
    if (self->drag_button == 1 && fabs(ox) < 3 && fabs(oy) < 3) {
        if (self->picking)
            g_signal_emit(self, signals[SIG_POINT_CLICKED], 0, self->drag_x + ox, self->drag_y + oy);
        else
            motus_viewport_pick_at(self, self->drag_x + ox, self->drag_y + oy);
    }
    self->drag_mode = DRAG_NONE;
}

/* The gizmo's handle under the pointer lights up. */
static void pointer_moved(GtkEventControllerMotion *c, double x, double y, gpointer data)
{
    (void)c;
    MotusViewport *self = data;
    if (self->gizmo.mode == MOTUS_GIZMO_OFF || self->gizmo_handle >= 0) return;
    int h = motus_gizmo_hit(&self->gizmo, &self->cam, gtk_widget_get_width(self->area), gtk_widget_get_height(self->area), x,
                            y, 8);
    if (h != self->gizmo_hover) {
        self->gizmo_hover = h;
        gtk_widget_queue_draw(self->hud);
    }
}

static gboolean scrolled(GtkEventControllerScroll *c, double dx, double dy, gpointer data)
{
    (void)c, (void)dx;
    MotusViewport *self = data;
    motus_camera_zoom(&self->cam, powf(1.15f, (float)dy));
    self->touched = TRUE;
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
    return TRUE;
}

static gboolean key_pressed(GtkEventControllerKey *c, guint key, guint code, GdkModifierType mods, gpointer data)
{
    (void)c, (void)code;
    MotusViewport *self = data;
    const float a = 5.0f * (float)G_PI / 180.0f;
    if (mods & (GDK_CONTROL_MASK | GDK_ALT_MASK)) return FALSE;
    switch (key) {
    case GDK_KEY_Left: motus_camera_orbit(&self->cam, a, 0); break;
    case GDK_KEY_Right: motus_camera_orbit(&self->cam, -a, 0); break;
    case GDK_KEY_Up: motus_camera_orbit(&self->cam, 0, a); break;
    case GDK_KEY_Down: motus_camera_orbit(&self->cam, 0, -a); break;
    case GDK_KEY_plus:
    case GDK_KEY_equal:
    case GDK_KEY_KP_Add: motus_camera_zoom(&self->cam, 1 / 1.2f); break;
    case GDK_KEY_minus:
    case GDK_KEY_KP_Subtract: motus_camera_zoom(&self->cam, 1.2f); break;
    default: return FALSE;
    }
    self->touched = TRUE;
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
    return TRUE;
}

/* ---- HUD: axis letters and messages over the GL view ---------------------------- */

static gboolean to_screen(MotusViewport *self, const double *p, int width, int height, double *x, double *y)
{
    float w[3] = {(float)p[0], (float)p[1], (float)p[2]}, out[2];
    if (!motus_camera_project(&self->cam, w, (float)width, (float)height, out)) return FALSE;
    *x = out[0];
    *y = out[1];
    return TRUE;
}

/* Points, traces and arrows of the overlay, drawn with cairo in 2D over the GL picture. */
static void draw_overlay(MotusViewport *self, cairo_t *cr, int width, int height, PangoLayout *l)
{
    const double *P = (const double *)self->ov_pts->data;
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    for (guint i = 0; i < self->ov->len; i++) {
        const OverlayItem *it = &g_array_index(self->ov, OverlayItem, i);
        double x = 0, y = 0, x1, y1;
        cairo_set_source_rgb(cr, it->rgb[0], it->rgb[1], it->rgb[2]);
        if (it->kind == OV_POINT) {
            if (!to_screen(self, P + 3 * it->first, width, height, &x, &y)) continue;
            cairo_set_line_width(cr, 2);
            cairo_arc(cr, x, y, 7, 0, 2 * G_PI);
            cairo_stroke(cr);
            cairo_move_to(cr, x - 11, y);
            cairo_line_to(cr, x + 11, y);
            cairo_move_to(cr, x, y - 11);
            cairo_line_to(cr, x, y + 11);
            cairo_stroke(cr);
        } else if (it->kind == OV_LINE) {
            cairo_set_line_width(cr, 2);
            gboolean pen = FALSE;
            for (guint k = 0; k < it->n; k++) {
                if (!to_screen(self, P + 3 * (it->first + k), width, height, &x, &y)) {
                    pen = FALSE;
                    continue;
                }
                if (pen) cairo_line_to(cr, x, y);
                else cairo_move_to(cr, x, y);
                pen = TRUE;
            }
            cairo_stroke(cr);
        } else {
            if (!to_screen(self, P + 3 * it->first, width, height, &x, &y) ||
                !to_screen(self, P + 3 * it->first + 3, width, height, &x1, &y1))
                continue;
            double dx = x1 - x, dy = y1 - y, len = hypot(dx, dy);
            cairo_set_line_width(cr, 2.5);
            cairo_move_to(cr, x, y);
            cairo_line_to(cr, x1, y1);
            cairo_stroke(cr);
            if (len > 1) { /* head: 10 px, 25 degrees */
                double ux = dx / len, uy = dy / len, hl = MIN(10, len);
                cairo_move_to(cr, x1, y1);
                cairo_line_to(cr, x1 - hl * (ux * 0.906 - uy * 0.423), y1 - hl * (uy * 0.906 + ux * 0.423));
                cairo_line_to(cr, x1 - hl * (ux * 0.906 + uy * 0.423), y1 - hl * (uy * 0.906 - ux * 0.423));
                cairo_close_path(cr);
                cairo_fill(cr);
            }
            x = x1, y = y1;
        }
        if (it->label[0]) {
            pango_layout_set_width(l, -1);
            pango_layout_set_text(l, it->label, -1);
            cairo_move_to(cr, x + 9, y - 18);
            pango_cairo_show_layout(cr, l);
        }
    }
}

/* The gizmo: arrows or rings in the axes' colours, the one under the pointer
 * or being dragged in yellow; while moving, it follows the drag. */
static void draw_gizmo(MotusViewport *self, cairo_t *cr, int width, int height)
{
    static const double col[3][3] = {{0.85, 0.15, 0.12}, {0.15, 0.65, 0.15}, {0.15, 0.35, 0.90}};
    MotusGizmo g = self->gizmo;
    if (g.mode == MOTUS_GIZMO_MOVE && self->gizmo_handle >= 0)
        for (int i = 0; i < 3; i++) g.origin[i] += self->gizmo_amount * g.axes[3 * i + self->gizmo_handle];
    float xy[2 * (MOTUS_GIZMO_RING + 1)];
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    for (int k = 0; k < 3; k++) {
        int n = motus_gizmo_path(&g, &self->cam, width, height, k, xy);
        gboolean hot = k == (self->gizmo_handle >= 0 ? self->gizmo_handle : self->gizmo_hover);
        gboolean pen = FALSE;
        for (int j = 0; j < n; j++) {
            if (isnan(xy[2 * j])) {
                pen = FALSE;
                continue;
            }
            if (pen) cairo_line_to(cr, xy[2 * j], xy[2 * j + 1]);
            else cairo_move_to(cr, xy[2 * j], xy[2 * j + 1]);
            pen = TRUE;
        }
        cairo_set_source_rgba(cr, 1, 1, 1, 0.7); /* a light edge: visible over bodies of its own colour */
        cairo_set_line_width(cr, hot ? 6.5 : 5.5);
        cairo_stroke_preserve(cr);
        if (hot) cairo_set_source_rgb(cr, 0.98, 0.80, 0.10);
        else cairo_set_source_rgb(cr, col[k][0], col[k][1], col[k][2]);
        cairo_set_line_width(cr, hot ? 4 : 3);
        cairo_stroke(cr);
        if (g.mode == MOTUS_GIZMO_MOVE && n == 2 && !isnan(xy[0]) && !isnan(xy[2])) { /* the head, 12 px */
            double dx = xy[2] - xy[0], dy = xy[3] - xy[1], len = hypot(dx, dy);
            if (len > 1) {
                double ux = dx / len, uy = dy / len, hl = 12;
                cairo_move_to(cr, xy[2] + ux * hl, xy[3] + uy * hl);
                cairo_line_to(cr, xy[2] - hl * 0.5 * uy, xy[3] + hl * 0.5 * ux);
                cairo_line_to(cr, xy[2] + hl * 0.5 * uy, xy[3] - hl * 0.5 * ux);
                cairo_close_path(cr);
                cairo_fill(cr);
            }
        }
    }
}

static void hud_draw(GtkDrawingArea *da, cairo_t *cr, int width, int height, gpointer data)
{
    (void)da, (void)width;
    MotusViewport *self = data;
    PangoLayout *l = gtk_widget_create_pango_layout(GTK_WIDGET(self->hud), NULL);
    int tw, th;
    if (self->gl_error || !self->scene) {
        const char *msg = self->gl_error ? self->gl_error->message : _("No model — open one with Ctrl+O");
        g_autofree char *text = self->gl_error ? g_strdup_printf(_("3D view unavailable: %s"), msg) : g_strdup(msg);
        pango_layout_set_text(l, text, -1);
        pango_layout_set_width(l, (width - 40) * PANGO_SCALE);
        pango_layout_set_alignment(l, PANGO_ALIGN_CENTER);
        pango_layout_get_pixel_size(l, &tw, &th);
        cairo_set_source_rgb(cr, 0.25, 0.27, 0.32);
        cairo_move_to(cr, 20, (height - th) / 2.0); /* the layout is width - 40 wide, centred */
        pango_cairo_show_layout(cr, l);
    }
    if (self->gl_ok && self->ov->len) draw_overlay(self, cr, width, height, l);
    if (self->gl_ok && self->gizmo.mode != MOTUS_GIZMO_OFF) draw_gizmo(self, cr, width, height);
    g_object_unref(l);
}

/* The letters of the corner triad, in a small area of their own: a cairo
 * layer over the whole view would be uploaded with every frame, which costs a
 * software renderer more than the bodies (measured 2026-11-24, commit 4dd8b96 of bench/RESULTS.md). */
static void axes_draw(GtkDrawingArea *da, cairo_t *cr, int width, int height, gpointer data)
{
    (void)da, (void)width;
    MotusViewport *self = data;
    PangoLayout *l = gtk_widget_create_pango_layout(GTK_WIDGET(self->axes_hud), NULL);
    int tw, th;
    if (self->gl_ok) {
        float r[3], u[3], f[3];
        motus_camera_basis(&self->cam, r, u, f);
        static const char *const names[3] = {"X", "Y", "Z"};
        static const double col[3][3] = {{0.75, 0.12, 0.12}, {0.10, 0.50, 0.15}, {0.12, 0.25, 0.80}};
        for (int a = 0; a < 3; a++) {
            /* the tip of axis a in the triad's orthographic view (half size 1.35) */
            double ex = r[a] * 1.22, ey = u[a] * 1.22;
            double x = TRIAD_PX * (ex / 1.35 + 1) / 2, y = height - TRIAD_PX * (ey / 1.35 + 1) / 2;
            pango_layout_set_width(l, -1);
            pango_layout_set_text(l, names[a], -1);
            pango_layout_get_pixel_size(l, &tw, &th);
            cairo_set_source_rgb(cr, col[a][0], col[a][1], col[a][2]);
            cairo_move_to(cr, x - tw / 2.0, y - th / 2.0);
            pango_cairo_show_layout(cr, l);
        }
    }
    g_object_unref(l);
}

/* ---- GObject ------------------------------------------------------------------------ */

static void motus_viewport_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
    MotusViewport *self = MOTUS_VIEWPORT(object);
    if (id == PROP_ORTHOGRAPHIC)
        g_value_set_boolean(value, self->cam.ortho);
    else
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
}

static void motus_viewport_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
    MotusViewport *self = MOTUS_VIEWPORT(object);
    if (id == PROP_ORTHOGRAPHIC)
        motus_viewport_set_orthographic(self, g_value_get_boolean(value));
    else
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
}

static void motus_viewport_dispose(GObject *object)
{
    MotusViewport *self = MOTUS_VIEWPORT(object);
    g_clear_pointer(&self->overlay, gtk_widget_unparent);
    G_OBJECT_CLASS(motus_viewport_parent_class)->dispose(object);
}

static void motus_viewport_finalize(GObject *object)
{
    MotusViewport *self = MOTUS_VIEWPORT(object);
    g_clear_pointer(&self->scene, motus_scene_free);
    g_clear_pointer(&self->model, mt_model_free);
    g_clear_pointer(&self->poses, g_free);
    g_clear_pointer(&self->spring_verts, g_array_unref);
    g_clear_pointer(&self->env, g_array_unref);
    g_clear_pointer(&self->ov, g_array_unref);
    g_clear_pointer(&self->ov_pts, g_array_unref);
    g_clear_pointer(&self->w, g_free);
    g_clear_pointer(&self->wp, g_free);
    g_clear_pointer(&self->rig, g_free);
    g_clear_error(&self->gl_error);
    for (int l = 0; l < MOTUS_LOD_LEVELS; l++) g_free(self->lod[l]);
    g_free(self->level);
    g_free(self->axes);
    g_free(self->flexgl);
    G_OBJECT_CLASS(motus_viewport_parent_class)->finalize(object);
}

static void action_preset(GtkWidget *w, const char *name, GVariant *param)
{
    (void)param;
    MotusViewport *self = MOTUS_VIEWPORT(w);
    if (!strcmp(name, "view.front"))
        motus_viewport_view_preset(self, MOTUS_VIEW_FRONT);
    else if (!strcmp(name, "view.right"))
        motus_viewport_view_preset(self, MOTUS_VIEW_RIGHT);
    else if (!strcmp(name, "view.top"))
        motus_viewport_view_preset(self, MOTUS_VIEW_TOP);
    else if (!strcmp(name, "view.iso"))
        motus_viewport_view_preset(self, MOTUS_VIEW_ISO);
    else if (!strcmp(name, "view.fit"))
        motus_viewport_fit_all(self);
}

static void motus_viewport_class_init(MotusViewportClass *klass)
{
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
    object_class->dispose = motus_viewport_dispose;
    object_class->finalize = motus_viewport_finalize;
    object_class->get_property = motus_viewport_get_property;
    object_class->set_property = motus_viewport_set_property;
    props[PROP_ORTHOGRAPHIC] = g_param_spec_boolean(
        "orthographic", NULL, NULL, FALSE, G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
    g_object_class_install_properties(object_class, N_PROPS, props);
    /* A click picked a body: index, nbody for the ground, -1 for empty space. */
    signals[SIG_BODY_PICKED] = g_signal_new("body-picked", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                            NULL, G_TYPE_NONE, 1, G_TYPE_INT);
    /* A click while picking (motus_viewport_set_picking): widget coordinates. */
    signals[SIG_POINT_CLICKED] = g_signal_new("point-clicked", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                              NULL, NULL, G_TYPE_NONE, 2, G_TYPE_DOUBLE, G_TYPE_DOUBLE);
    /* A gizmo drag ended (motus_viewport_set_gizmo): mode (MotusGizmoMode), axis 0..2, amount (m or rad). */
    signals[SIG_GIZMO_DRAGGED] = g_signal_new("gizmo-dragged", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                              NULL, NULL, G_TYPE_NONE, 3, G_TYPE_INT, G_TYPE_INT, G_TYPE_DOUBLE);
    gtk_widget_class_install_action(widget_class, "view.front", NULL, action_preset);
    gtk_widget_class_install_action(widget_class, "view.right", NULL, action_preset);
    gtk_widget_class_install_action(widget_class, "view.top", NULL, action_preset);
    gtk_widget_class_install_action(widget_class, "view.iso", NULL, action_preset);
    gtk_widget_class_install_action(widget_class, "view.fit", NULL, action_preset);
    gtk_widget_class_install_property_action(widget_class, "view.orthographic", "orthographic");
    gtk_widget_class_set_layout_manager_type(widget_class, GTK_TYPE_BIN_LAYOUT);
    gtk_widget_class_set_css_name(widget_class, "motus-viewport");
}

static GtkWidget *tool_button(const char *label, const char *action, const char *tooltip)
{
    GtkWidget *b = gtk_button_new_with_label(label);
    gtk_actionable_set_action_name(GTK_ACTIONABLE(b), action);
    gtk_widget_set_tooltip_text(b, tooltip);
    gtk_widget_set_focus_on_click(b, FALSE);
    return b;
}

static void motus_viewport_init(MotusViewport *self)
{
    self->selected = -1;
    self->gizmo_body = self->gizmo_handle = self->gizmo_hover = -1;
    self->spring_verts = g_array_new(FALSE, FALSE, sizeof(MotusVertex));
    self->env = g_array_new(FALSE, FALSE, sizeof(float));
    self->ov = g_array_new(FALSE, FALSE, sizeof(OverlayItem));
    g_array_set_clear_func(self->ov, overlay_item_clear);
    self->ov_pts = g_array_new(FALSE, FALSE, sizeof(double));
    motus_camera_init(&self->cam, 1);
    self->grid_step = 0.1f;

    self->overlay = gtk_overlay_new();
    gtk_widget_set_parent(self->overlay, GTK_WIDGET(self));
    self->area = motus_gl_view_new();
    GtkGLArea *area = GTK_GL_AREA(self->area);
    gtk_gl_area_set_required_version(area, 3, 3);
#if GTK_CHECK_VERSION(4, 12, 0)
    gtk_gl_area_set_allowed_apis(area, GDK_GL_API_GL);
#endif
    gtk_gl_area_set_has_depth_buffer(area, TRUE);
    gtk_gl_area_set_auto_render(area, TRUE);
    gtk_widget_set_hexpand(self->area, TRUE);
    gtk_widget_set_vexpand(self->area, TRUE);
    gtk_widget_set_focusable(self->area, TRUE);
    gtk_widget_set_size_request(self->area, 200, 150);
    g_signal_connect(area, "realize", G_CALLBACK(area_realize), self);
    g_signal_connect(area, "unrealize", G_CALLBACK(area_unrealize), self);
    g_signal_connect(area, "render", G_CALLBACK(area_render), self);
    gtk_overlay_set_child(GTK_OVERLAY(self->overlay), self->area);

    self->hud = gtk_drawing_area_new();
    gtk_widget_set_can_target(self->hud, FALSE);
    gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(self->hud), hud_draw, self, NULL);
    gtk_overlay_add_overlay(GTK_OVERLAY(self->overlay), self->hud);
    self->axes_hud = gtk_drawing_area_new();
    gtk_widget_set_can_target(self->axes_hud, FALSE);
    gtk_widget_set_halign(self->axes_hud, GTK_ALIGN_START);
    gtk_widget_set_valign(self->axes_hud, GTK_ALIGN_END);
    gtk_widget_set_size_request(self->axes_hud, TRIAD_PX, TRIAD_PX);
    gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(self->axes_hud), axes_draw, self, NULL);
    gtk_overlay_add_overlay(GTK_OVERLAY(self->overlay), self->axes_hud);

    self->toolbar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
    gtk_widget_add_css_class(self->toolbar, "linked");
    gtk_widget_set_halign(self->toolbar, GTK_ALIGN_END);
    gtk_widget_set_valign(self->toolbar, GTK_ALIGN_START);
    gtk_widget_set_margin_top(self->toolbar, 8);
    gtk_widget_set_margin_end(self->toolbar, 8);
    /* TRANSLATORS: view preset buttons of the 3D view; the keys are in brackets in the tooltips. */
    gtk_box_append(GTK_BOX(self->toolbar), tool_button(_("Front"), "view.front", _("Front view (1)")));
    gtk_box_append(GTK_BOX(self->toolbar), tool_button(_("Right"), "view.right", _("Right view (3)")));
    gtk_box_append(GTK_BOX(self->toolbar), tool_button(_("Top"), "view.top", _("Top view (7)")));
    gtk_box_append(GTK_BOX(self->toolbar), tool_button(_("Iso"), "view.iso", _("Isometric view (0)")));
    gtk_box_append(GTK_BOX(self->toolbar), tool_button(_("Fit"), "view.fit", _("Fit everything in view (F)")));
    GtkWidget *ortho = gtk_toggle_button_new_with_label(_("Ortho"));
    gtk_actionable_set_action_name(GTK_ACTIONABLE(ortho), "view.orthographic");
    gtk_widget_set_tooltip_text(ortho, _("Orthographic projection (5)"));
    gtk_widget_set_focus_on_click(ortho, FALSE);
    gtk_box_append(GTK_BOX(self->toolbar), ortho);
    gtk_overlay_add_overlay(GTK_OVERLAY(self->overlay), self->toolbar);

    GtkGesture *drag = gtk_gesture_drag_new();
    gtk_gesture_single_set_button(GTK_GESTURE_SINGLE(drag), 0);
    g_signal_connect(drag, "drag-begin", G_CALLBACK(drag_begin), self);
    g_signal_connect(drag, "drag-update", G_CALLBACK(drag_update), self);
    g_signal_connect(drag, "drag-end", G_CALLBACK(drag_end), self);
    gtk_widget_add_controller(self->area, GTK_EVENT_CONTROLLER(drag));
    GtkEventController *scroll = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
    g_signal_connect(scroll, "scroll", G_CALLBACK(scrolled), self);
    gtk_widget_add_controller(self->area, scroll);
    GtkEventController *motion = gtk_event_controller_motion_new();
    g_signal_connect(motion, "motion", G_CALLBACK(pointer_moved), self);
    gtk_widget_add_controller(self->area, motion);
    GtkEventController *keys = gtk_event_controller_key_new();
    g_signal_connect(keys, "key-pressed", G_CALLBACK(key_pressed), self);
    gtk_widget_add_controller(self->area, keys);
    flex_controls_init(self);
}

const char *motus_ui_choose_renderer(void)
{
    const char *env = g_getenv("GSK_RENDERER");
    if (env && env[0]) return env;
    GdkDisplay *display = gdk_display_get_default();
    if (!display) return NULL;
    GdkGLContext *ctx = gdk_display_create_gl_context(display, NULL);
    if (!ctx || !gdk_gl_context_realize(ctx, NULL)) {
        g_clear_object(&ctx);
        return NULL; /* no OpenGL: GTK picks its own fallback */
    }
    gdk_gl_context_make_current(ctx);
    const char *r = (const char *)glGetString(GL_RENDERER);
    static const char *const software[] = {"llvmpipe", "softpipe", "swrast", "Software Rasterizer", "SwiftShader"};
    gboolean soft = FALSE;
    for (guint i = 0; r && i < G_N_ELEMENTS(software); i++) soft |= strstr(r, software[i]) != NULL;
    g_debug("OpenGL renderer '%s': %s", r ? r : "?", soft ? "software, windows drawn with cairo" : "kept");
    gdk_gl_context_clear_current();
    g_object_unref(ctx);
    if (!soft) return NULL;
    /* read by GTK when it makes the first window's renderer; no other thread reads the environment yet */
    g_setenv("GSK_RENDERER", "cairo", FALSE);
    return "cairo";
}

GtkWidget *motus_viewport_new(void) { return g_object_new(MOTUS_TYPE_VIEWPORT, NULL); }

/* The full-size layer is shown only when it has something to draw (a
 * message, picked points, traces, vectors); the triad letters always redraw. */
static void hud_refresh(MotusViewport *self)
{
    gboolean need = self->gl_error || !self->scene || (self->ov && self->ov->len) || self->gizmo.mode != MOTUS_GIZMO_OFF;
    if (gtk_widget_get_visible(self->hud) != need) gtk_widget_set_visible(self->hud, need);
    if (need) gtk_widget_queue_draw(self->hud);
    gtk_widget_queue_draw(self->axes_hud);
}


/* ---- flexible bodies: controls, legend, preview ------------------------------------ */

static MtDim field_dim(MotusField f) { return f == MOTUS_FIELD_VONMISES ? MT_DIM_PRESSURE : MT_DIM_LENGTH; }

/* The legend's unit: the project's display unit for the quantity, or when it
 * has none, mm for displacements under 0.1 m (m above) and MPa for stresses. */
static const MtUnit *field_unit(MotusViewport *self, MotusField f)
{
    if (f == MOTUS_FIELD_NONE || !self->model) return NULL;
    MtDim dim = field_dim(f);
    const MtUnit *u = mt_edit_display_unit(self->model, dim);
    if (u && u != mt_unit_si(dim)) return u;
    if (f == MOTUS_FIELD_VONMISES) return mt_unit_lookup("MPa", dim);
    double lo, hi;
    current_range(self, &lo, &hi);
    return hi < 0.1 ? mt_unit_lookup("mm", dim) : mt_unit_si(dim);
}

static void flex_refresh(MotusViewport *self)
{
    update_frame_max(self);
    gtk_widget_queue_draw(self->legend);
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
}

/* Which of the bar's widgets show: the bar with flexible bodies, the range
 * entries for a fixed range, the legend with a field. */
static void flex_widgets(MotusViewport *self)
{
    gboolean flex = self->scene && self->scene->nmodal > 0;
    gtk_widget_set_visible(self->flexbar, flex);
    gtk_widget_set_visible(self->legend, flex && (self->field != MOTUS_FIELD_NONE || self->prev_body >= 0));
    gboolean fixed = self->range_mode == MOTUS_RANGE_FIXED && self->field != MOTUS_FIELD_NONE;
    gtk_widget_set_visible(self->lo_entry, fixed);
    gtk_widget_set_visible(self->hi_entry, fixed);
    gtk_widget_set_sensitive(self->range_dd, self->field != MOTUS_FIELD_NONE);
    if (fixed) { /* the entries show the range in the legend's unit */
        const MtUnit *u = field_unit(self, self->field);
        char buf[64];
        mt_units_format(self->fixed_lo, u, 4, buf, sizeof buf);
        gtk_editable_set_text(GTK_EDITABLE(self->lo_entry), buf);
        mt_units_format(self->fixed_hi, u, 4, buf, sizeof buf);
        gtk_editable_set_text(GTK_EDITABLE(self->hi_entry), buf);
    }
}

static void flex_model_changed(MotusViewport *self)
{
    motus_viewport_preview_mode(self, -1, -1);
    int n = self->scene ? self->scene->nmodal : 0;
    g_free(self->w);
    g_free(self->wp);
    g_free(self->rig);
    self->w = n ? g_new0(double, n) : NULL;
    self->wp = n ? g_new0(double, n) : NULL;
    self->rig = self->scene ? g_new0(double, 6 * (self->scene->nbody + 1)) : NULL;
    self->run_max[0] = self->run_max[1] = self->frame_max[0] = self->frame_max[1] = 0;
    self->has_stress = FALSE;
    for (int b = 0; self->scene && b < self->scene->nbody; b++)
        if (self->scene->body[b].flex)
            self->has_stress |= mt_flexview_has_field(self->scene->body[b].flex->fb, MT_FLEXFIELD_VONMISES);
    flex_widgets(self);
}

static void scale_changed(GtkSpinButton *spin, gpointer data)
{
    MotusViewport *self = data;
    if (self->flex_quiet) return;
    motus_viewport_set_deformation_scale(self, gtk_spin_button_get_value(spin));
}

static void field_changed(GObject *dd, GParamSpec *ps, gpointer data)
{
    (void)ps;
    MotusViewport *self = data;
    if (self->flex_quiet) return;
    motus_viewport_set_colour_field(self, (MotusField)gtk_drop_down_get_selected(GTK_DROP_DOWN(dd)));
}

static void range_changed(GObject *dd, GParamSpec *ps, gpointer data)
{
    (void)ps;
    MotusViewport *self = data;
    if (self->flex_quiet) return;
    MotusRangeMode mode = (MotusRangeMode)gtk_drop_down_get_selected(GTK_DROP_DOWN(dd));
    double lo = self->fixed_lo, hi = self->fixed_hi;
    if (mode == MOTUS_RANGE_FIXED && !(hi > lo)) { /* start from what is shown */
        self->range_mode = self->range_mode == MOTUS_RANGE_FIXED ? MOTUS_RANGE_RUN : self->range_mode;
        current_range(self, &lo, &hi);
    }
    motus_viewport_set_colour_range(self, mode, lo, hi);
}

/* A bound typed in the range entries: a number in the legend's unit or with its own ("250 MPa"). */
static void bound_activated(GtkEntry *entry, gpointer data)
{
    MotusViewport *self = data;
    const MtUnit *u = field_unit(self, self->field);
    double v;
    MtError err = {0};
    g_autofree char *typed = motus_delocalise(gtk_editable_get_text(GTK_EDITABLE(entry)));
    if (!u || mt_units_parse(typed, field_dim(self->field), u->name, &v, &err)) {
        gtk_widget_add_css_class(GTK_WIDGET(entry), "error");
        gtk_widget_set_tooltip_text(GTK_WIDGET(entry), err.msg);
        return;
    }
    gtk_widget_remove_css_class(GTK_WIDGET(entry), "error");
    gtk_widget_set_tooltip_text(GTK_WIDGET(entry), NULL);
    double lo = self->fixed_lo, hi = self->fixed_hi;
    if (GTK_WIDGET(entry) == self->lo_entry)
        lo = v;
    else
        hi = v;
    motus_viewport_set_colour_range(self, MOTUS_RANGE_FIXED, lo, hi);
}

static void legend_draw(GtkDrawingArea *da, cairo_t *cr, int width, int height, gpointer data)
{
    (void)da;
    MotusViewport *self = data;
    gboolean preview = self->prev_body >= 0;
    MotusField f = shown_field(self);
    if (f == MOTUS_FIELD_NONE || !self->scene) return;
    double lo, hi;
    current_range(self, &lo, &hi);
    const MtUnit *u = field_unit(self, f);
    PangoLayout *l = gtk_widget_create_pango_layout(self->legend, NULL);
    int tw, th;
    /* panel */
    double r = 6;
    cairo_new_sub_path(cr);
    cairo_arc(cr, width - r, r, r, -G_PI / 2, 0);
    cairo_arc(cr, width - r, height - r, r, 0, G_PI / 2);
    cairo_arc(cr, r, height - r, r, G_PI / 2, G_PI);
    cairo_arc(cr, r, r, r, G_PI, 3 * G_PI / 2);
    cairo_close_path(cr);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.86);
    cairo_fill_preserve(cr);
    cairo_set_source_rgba(cr, 0.3, 0.33, 0.38, 0.5);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
    /* title: the quantity and its unit */
    g_autofree char *title = NULL;
    if (preview) {
        const MtFlexBody *fb = self->scene->body[self->prev_body].flex->fb;
        /* TRANSLATORS: legend of an animated mode shape: mode number and its frequency. */
        title = g_strdup_printf(_("Mode %d\n%.4g Hz\n(shape: no scale)"), self->prev_mode + 1,
                                fb->freq ? fb->freq[self->prev_mode] : 0.0);
    } else {
        title = g_strdup_printf("%s\n%s", f == MOTUS_FIELD_VONMISES ? _("von Mises stress") : _("Displacement"),
                                mt_unit_label(u));
    }
    pango_layout_set_text(l, title, -1);
    pango_layout_set_width(l, (width - 16) * PANGO_SCALE);
    pango_layout_get_pixel_size(l, &tw, &th);
    cairo_set_source_rgb(cr, 0.12, 0.13, 0.16);
    cairo_move_to(cr, 8, 6);
    pango_cairo_show_layout(cr, l);
    pango_layout_set_width(l, -1);
    /* the bar, top = high */
    int bx = 10, bw = 18, by = 6 + th + 10, foot = 40, bh = height - by - foot;
    if (bh < 20) {
        g_object_unref(l);
        return;
    }
    /* one gradient fill: rows of 1 px rectangles off the pixel grid would blend into the panel */
    cairo_pattern_t *grad = cairo_pattern_create_linear(0, by + bh, 0, by);
    for (int k = 0; k <= 64; k++) {
        float c[3];
        motus_colormap(k / 64.0, c);
        cairo_pattern_add_color_stop_rgb(grad, k / 64.0, c[0], c[1], c[2]);
    }
    cairo_set_source(cr, grad);
    cairo_rectangle(cr, bx, by, bw, bh);
    cairo_fill(cr);
    cairo_pattern_destroy(grad);
    cairo_set_source_rgba(cr, 0.2, 0.2, 0.25, 0.8);
    cairo_rectangle(cr, bx + 0.5, by + 0.5, bw - 1, bh - 1);
    cairo_stroke(cr);
    /* labels: the plot's nice ticks inside the range, and its top value (the maximum) when no tick is near */
    double a = u ? mt_unit_from_si(u, lo) : lo, b = u ? mt_unit_from_si(u, hi) : hi;
    MotusTicks tk;
    motus_ticks_compute(a, b, 5, FALSE, &tk);
    int nlab = preview ? 2 : tk.n + 1;
    for (int k = 0; k < nlab; k++) {
        char buf[48];
        double v;
        if (preview) {
            v = k ? b : a;
            g_strlcpy(buf, k ? _("max") : "0", sizeof buf);
        } else if (k < tk.n) {
            v = motus_ticks_value(&tk, k);
            motus_ticks_format(v, tk.step, buf, sizeof buf);
        } else {
            v = b;
            if (tk.n && b - motus_ticks_value(&tk, tk.n - 1) < 0.4 * tk.step) continue;
            motus_ticks_format(v, tk.step / 10, buf, sizeof buf);
        }
        double y = by + (1 - (v - a) / (b - a)) * (bh - 1);
        cairo_set_source_rgb(cr, 0.12, 0.13, 0.16);
        cairo_move_to(cr, bx + bw, y);
        cairo_line_to(cr, bx + bw + 4, y);
        cairo_stroke(cr);
        pango_layout_set_text(l, buf, -1);
        pango_layout_get_pixel_size(l, &tw, &th);
        cairo_move_to(cr, bx + bw + 7, y - th / 2.0);
        pango_cairo_show_layout(cr, l);
    }
    /* foot: the deformation scale and what the range is */
    const char *what = preview                                    ? ""
                       : self->range_mode == MOTUS_RANGE_FIXED   ? _("fixed range")
                       : self->range_mode == MOTUS_RANGE_RUN && self->run_max[f == MOTUS_FIELD_VONMISES] > 0
                           ? _("run maximum")
                           : _("this frame");
    /* TRANSLATORS: legend foot: deformation scale factor, then how the colour range is chosen. */
    g_autofree char *foot_text = g_strdup_printf(_("deformation ×%g\n%s"), self->deform, what);
    pango_layout_set_text(l, foot_text, -1);
    cairo_set_source_rgb(cr, 0.25, 0.27, 0.32);
    cairo_move_to(cr, 8, by + bh + 6);
    pango_cairo_show_layout(cr, l);
    g_object_unref(l);
}

static gboolean preview_tick(GtkWidget *w, GdkFrameClock *clock, gpointer data)
{
    (void)w;
    MotusViewport *self = data;
    if (self->prev_body < 0) {
        self->prev_tick = 0;
        return G_SOURCE_REMOVE;
    }
    const MotusFlexMesh *fm = self->scene->body[self->prev_body].flex;
    gint64 now = gdk_frame_clock_get_frame_time(clock);
    if (!self->prev_t0) self->prev_t0 = now;
    double t = (double)(now - self->prev_t0) * 1e-6;
    self->wp[fm->moff + self->prev_mode] = self->prev_amp * sin(2 * G_PI * t / PREVIEW_PERIOD);
    update_rig(self);
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
    return G_SOURCE_CONTINUE;
}

/* ---- public: flexible bodies ------------------------------------------------------- */

int motus_viewport_n_modal(MotusViewport *self) { return self->scene ? self->scene->nmodal : 0; }

void motus_viewport_set_modal(MotusViewport *self, const double *w, int n)
{
    if (!self->w) return;
    int nm = self->scene->nmodal;
    if (w && n == nm)
        memcpy(self->w, w, sizeof(double) * (size_t)nm);
    else
        memset(self->w, 0, sizeof(double) * (size_t)nm);
    if (self->prev_body >= 0) return; /* the preview's own coordinates are drawn */
    flex_refresh(self);
}

void motus_viewport_set_deformation_scale(MotusViewport *self, double scale)
{
    if (!(scale >= 0) || !isfinite(scale)) return;
    self->deform = scale;
    self->flex_quiet = TRUE;
    if (gtk_spin_button_get_value(GTK_SPIN_BUTTON(self->scale_spin)) != scale)
        gtk_spin_button_set_value(GTK_SPIN_BUTTON(self->scale_spin), scale);
    self->flex_quiet = FALSE;
    if (self->prev_body >= 0) motus_viewport_preview_mode(self, self->prev_body, self->prev_mode);
    flex_refresh(self);
}

double motus_viewport_get_deformation_scale(MotusViewport *self) { return self->deform; }

void motus_viewport_set_colour_field(MotusViewport *self, MotusField field)
{
    if (field > MOTUS_FIELD_VONMISES) return;
    self->field = field;
    self->flex_quiet = TRUE;
    gtk_drop_down_set_selected(GTK_DROP_DOWN(self->field_dd), field);
    self->flex_quiet = FALSE;
    update_frame_max(self);
    flex_widgets(self);
    flex_refresh(self);
}

MotusField motus_viewport_get_colour_field(MotusViewport *self) { return self->field; }

void motus_viewport_set_colour_range(MotusViewport *self, MotusRangeMode mode, double lo, double hi)
{
    if (mode > MOTUS_RANGE_FIXED) return;
    self->range_mode = mode;
    if (mode == MOTUS_RANGE_FIXED && isfinite(lo) && isfinite(hi)) self->fixed_lo = lo, self->fixed_hi = hi;
    self->flex_quiet = TRUE;
    gtk_drop_down_set_selected(GTK_DROP_DOWN(self->range_dd), mode);
    self->flex_quiet = FALSE;
    flex_widgets(self);
    flex_refresh(self);
}

MotusRangeMode motus_viewport_get_range_mode(MotusViewport *self) { return self->range_mode; }

void motus_viewport_set_run_max(MotusViewport *self, double disp, double von_mises)
{
    /* every run start resets the maxima: a view with nothing new to show is not drawn again */
    if (self->run_max[0] == disp && self->run_max[1] == von_mises) return;
    self->run_max[0] = disp;
    self->run_max[1] = von_mises;
    flex_refresh(self);
}

gboolean motus_viewport_get_colour_range(MotusViewport *self, double *lo, double *hi)
{
    if (self->field == MOTUS_FIELD_NONE || !self->scene || !self->scene->nmodal) return FALSE;
    current_range(self, lo, hi);
    return TRUE;
}

GtkWidget *motus_viewport_get_legend(MotusViewport *self) { return self->legend; }

const char *motus_viewport_legend_unit(MotusViewport *self)
{
    const MtUnit *u = field_unit(self, self->field);
    return u ? u->name : NULL;
}

int motus_viewport_flex_n_vertices(MotusViewport *self, int body)
{
    if (!self->scene || body < 0 || body >= self->scene->nbody || !self->scene->body[body].flex) return 0;
    return self->scene->body[body].flex->fb->nsv;
}

int motus_viewport_flex_peak_vertex(MotusViewport *self, int body)
{
    int n = motus_viewport_flex_n_vertices(self, body), best = -1;
    const MotusFlexMesh *fm = n ? self->scene->body[body].flex : NULL;
    const double *w = shown_w(self);
    double bd = -1;
    for (int v = 0; w && v < n; v++) {
        double u[3];
        mt_flexview_disp(fm->fb, w + fm->moff, self->rig + 6 * body, v, u);
        double d = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
        if (d > bd) bd = d, best = v;
    }
    return best;
}

gboolean motus_viewport_flex_vertex(MotusViewport *self, int body, int v, double scale, double out[3])
{
    if (!self->scene || body < 0 || body >= self->scene->nbody || !self->scene->body[body].flex) return FALSE;
    const MotusFlexMesh *fm = self->scene->body[body].flex;
    if (v < 0 || v >= fm->fb->nsv) return FALSE;
    double u[3] = {0, 0, 0}, p[3];
    const double *w = shown_w(self);
    if (w) mt_flexview_disp(fm->fb, w + fm->moff, self->rig + 6 * body, v, u);
    for (int c = 0; c < 3; c++) p[c] = fm->fb->sv_x[3 * v + c] + scale * u[c];
    return motus_viewport_body_to_world(self, body, p, out);
}

void motus_viewport_preview_mode(MotusViewport *self, int body, int mode)
{
    const MotusFlexMesh *fm =
        self->scene && body >= 0 && body < self->scene->nbody ? self->scene->body[body].flex : NULL;
    if (!fm || mode < 0 || mode >= fm->fb->nmode) {
        if (self->prev_tick) gtk_widget_remove_tick_callback(self->area, self->prev_tick);
        self->prev_tick = 0;
        gboolean was = self->prev_body >= 0;
        self->prev_body = self->prev_mode = -1;
        if (was && self->legend) {
            flex_widgets(self);
            flex_refresh(self);
        }
        return;
    }
    if (self->wp) memset(self->wp, 0, sizeof(double) * (size_t)self->scene->nmodal);
    self->prev_body = body;
    self->prev_mode = mode;
    self->prev_t0 = 0;
    /* the shape moves by a tenth of the body's size on screen, whatever the deformation scale */
    double peak = 0.1 * mt_flexview_size(fm->fb) / (self->deform > 0 ? self->deform : 1);
    self->prev_amp = mt_flexview_mode_amplitude(fm->fb, mode, peak);
    self->wp[fm->moff + mode] = self->prev_amp;
    update_rig(self);
    for (int f = 0; f < MT_FLEXFIELD_COUNT; f++)
        self->prev_peak[f] = mt_flexview_field(fm->fb, self->wp + fm->moff, self->rig + 6 * body, (MtFlexField)f, NULL);
    if (!self->prev_tick) self->prev_tick = gtk_widget_add_tick_callback(self->area, preview_tick, self, NULL);
    flex_widgets(self);
    gtk_widget_queue_draw(self->legend);
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
}

int motus_viewport_preview_body(MotusViewport *self) { return self->prev_body; }
int motus_viewport_preview_index(MotusViewport *self) { return self->prev_mode; }

/* The bar of controls for flexible bodies (bottom right) and the legend (right). */
static void flex_controls_init(MotusViewport *self)
{
    self->deform = 1;
    self->prev_body = self->prev_mode = -1;
    self->flexbar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    gtk_widget_add_css_class(self->flexbar, "osd");
    gtk_widget_add_css_class(self->flexbar, "toolbar");
    gtk_widget_set_halign(self->flexbar, GTK_ALIGN_END);
    gtk_widget_set_valign(self->flexbar, GTK_ALIGN_END);
    gtk_widget_set_margin_end(self->flexbar, 8);
    gtk_widget_set_margin_bottom(self->flexbar, 8);
    /* TRANSLATORS: label before the deformation scale factor of flexible bodies. */
    gtk_box_append(GTK_BOX(self->flexbar), gtk_label_new(_("Deformation ×")));
    self->scale_spin = gtk_spin_button_new_with_range(0, 1e6, 1);
    gtk_spin_button_set_digits(GTK_SPIN_BUTTON(self->scale_spin), 0);
    gtk_spin_button_set_value(GTK_SPIN_BUTTON(self->scale_spin), 1);
    gtk_editable_set_width_chars(GTK_EDITABLE(self->scale_spin), 5);
    gtk_widget_set_tooltip_text(self->scale_spin, _("Scale factor of the elastic deformation drawn"));
    g_signal_connect(self->scale_spin, "value-changed", G_CALLBACK(scale_changed), self);
    gtk_box_append(GTK_BOX(self->flexbar), self->scale_spin);
    const char *fields[] = {_("Plain"), _("Displacement"), _("von Mises stress"), NULL};
    self->field_dd = gtk_drop_down_new_from_strings(fields);
    gtk_widget_set_tooltip_text(self->field_dd, _("Colour flexible bodies by a field"));
    g_signal_connect(self->field_dd, "notify::selected", G_CALLBACK(field_changed), self);
    gtk_box_append(GTK_BOX(self->flexbar), self->field_dd);
    const char *ranges[] = {_("Run maximum"), _("This frame"), _("Fixed range"), NULL};
    self->range_dd = gtk_drop_down_new_from_strings(ranges);
    gtk_widget_set_tooltip_text(self->range_dd, _("What the colour scale spans: the largest value of the run, of the "
                                                  "frame shown, or a range you type"));
    g_signal_connect(self->range_dd, "notify::selected", G_CALLBACK(range_changed), self);
    gtk_box_append(GTK_BOX(self->flexbar), self->range_dd);
    self->lo_entry = gtk_entry_new();
    self->hi_entry = gtk_entry_new();
    GtkWidget *ents[2] = {self->lo_entry, self->hi_entry};
    for (int i = 0; i < 2; i++) {
        gtk_editable_set_width_chars(GTK_EDITABLE(ents[i]), 8);
        gtk_widget_set_tooltip_text(ents[i], i ? _("Top of the colour scale (a unit may follow: 250 MPa)")
                                               : _("Bottom of the colour scale"));
        g_signal_connect(ents[i], "activate", G_CALLBACK(bound_activated), self);
        gtk_box_append(GTK_BOX(self->flexbar), ents[i]);
    }
    GtkWidget *modes = gtk_button_new_with_label(_("Modes…"));
    gtk_actionable_set_action_name(GTK_ACTIONABLE(modes), "win.flex-modes");
    gtk_widget_set_tooltip_text(modes, _("List the modes of a flexible body and animate their shapes"));
    gtk_widget_set_focus_on_click(modes, FALSE);
    gtk_box_append(GTK_BOX(self->flexbar), modes);
    gtk_overlay_add_overlay(GTK_OVERLAY(self->overlay), self->flexbar);
    gtk_widget_set_visible(self->flexbar, FALSE);

    self->legend = gtk_drawing_area_new();
    gtk_widget_set_can_target(self->legend, FALSE);
    gtk_widget_set_halign(self->legend, GTK_ALIGN_END);
    gtk_widget_set_valign(self->legend, GTK_ALIGN_START);
    gtk_widget_set_margin_top(self->legend, 48);
    gtk_widget_set_margin_end(self->legend, 8);
    gtk_widget_set_size_request(self->legend, 132, 290);
    gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(self->legend), legend_draw, self, NULL);
    gtk_overlay_add_overlay(GTK_OVERLAY(self->overlay), self->legend);
    gtk_widget_set_visible(self->legend, FALSE);
}

/* ---- public ---------------------------------------------------------------------- */

/* A new model: no gizmo (the window shows it again for the new model), a drag dropped without an edit. */
static void gizmo_reset(MotusViewport *self)
{
    self->gizmo.mode = MOTUS_GIZMO_OFF;
    self->gizmo_body = self->gizmo_handle = self->gizmo_hover = -1;
    self->gizmo_amount = 0;
}

void motus_viewport_set_model(MotusViewport *self, const MtModel *m, const char *model_dir, GString *warnings)
{
    gizmo_reset(self);
    g_clear_pointer(&self->scene, motus_scene_free);
    g_clear_pointer(&self->model, mt_model_free);
    g_clear_pointer(&self->poses, g_free);
    self->selected = -1;
    if (m) {
        self->model = mt_model_copy(m);
        self->scene = motus_scene_new(self->model, model_dir, warnings); /* borrows the copy's flexible data */
        self->poses = g_new0(double, 7 * (m->nbody + 1));
        motus_scene_model_poses(m, self->poses);
        self->cam.up_axis = self->scene->up_axis;
        motus_camera_preset(&self->cam, MOTUS_VIEW_ISO);
        /* grid: on the floor below the initial configuration, spacing about a fifth of the model */
        float c[3], r;
        motus_scene_bounds(self->scene, self->poses, c, &r);
        memcpy(self->grid_centre, c, sizeof c);
        self->grid_y = motus_scene_floor(self->scene, self->poses);
        g_array_set_size(self->env, 0);
        self->grid_step = (float)motus_nice_step(self->scene->scale / 5);
        self->need_fit = TRUE;
    }
    flex_model_changed(self);
    self->scene_dirty = TRUE;
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
    hud_refresh(self);
}

void motus_viewport_update_model(MotusViewport *self, const MtModel *m, const char *model_dir, GString *warnings)
{
    gizmo_reset(self);
    if (!m || !self->model) {
        motus_viewport_set_model(self, m, model_dir, warnings);
        return;
    }
    int sel = self->selected, nbody_old = self->model->nbody;
    gboolean was_empty = !self->scene || !motus_scene_box(self->scene, self->poses, (double[3]){0}, (double[3]){0});
    g_clear_pointer(&self->scene, motus_scene_free);
    g_clear_pointer(&self->model, mt_model_free);
    g_clear_pointer(&self->poses, g_free);
    self->model = mt_model_copy(m);
    self->scene = motus_scene_new(self->model, model_dir, warnings);
    self->poses = g_new0(double, 7 * (m->nbody + 1));
    motus_scene_model_poses(m, self->poses);
    self->cam.up_axis = self->scene->up_axis;
    flex_model_changed(self);
    g_array_set_size(self->env, 0);
    float c[3], r;
    motus_scene_bounds(self->scene, self->poses, c, &r);
    memcpy(self->grid_centre, c, sizeof c);
    self->grid_y = motus_scene_floor(self->scene, self->poses);
    self->grid_step = (float)motus_nice_step(self->scene->scale / 5);
    self->grid_dirty = TRUE;
    /* the ground keeps its index nbody when bodies come and go */
    self->selected = sel == nbody_old ? m->nbody : (sel < m->nbody ? sel : -1);
    if (!self->touched || was_empty) self->need_fit = TRUE;
    self->scene_dirty = TRUE;
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
    hud_refresh(self);
}

void motus_viewport_show_initial(MotusViewport *self)
{
    if (!self->model) return;
    motus_scene_model_poses(self->model, self->poses);
    motus_viewport_set_modal(self, NULL, 0); /* and undeformed */
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
    hud_refresh(self);
}

gboolean motus_viewport_body_to_world(MotusViewport *self, int body, const double p[3], double out[3])
{
    if (!self->model || body < -1 || body >= self->model->nbody) return FALSE;
    if (body < 0) {
        memcpy(out, p, 3 * sizeof(double));
        return TRUE;
    }
    /* in double (the pose matrices of drawing are float) */
    const double *q = self->poses + 7 * body + 3, *x = self->poses + 7 * body;
    double w = q[0], a = q[1], b = q[2], c = q[3];
    double R[9] = {1 - 2 * (b * b + c * c), 2 * (a * b - w * c),     2 * (a * c + w * b),
                   2 * (a * b + w * c),     1 - 2 * (a * a + c * c), 2 * (b * c - w * a),
                   2 * (a * c - w * b),     2 * (b * c + w * a),     1 - 2 * (a * a + b * b)};
    for (int i = 0; i < 3; i++) out[i] = x[i] + R[3 * i] * p[0] + R[3 * i + 1] * p[1] + R[3 * i + 2] * p[2];
    return TRUE;
}

gboolean motus_viewport_project_point(MotusViewport *self, const double p[3], double *x, double *y)
{
    if (!self->scene) return FALSE;
    if (self->need_fit) fit_now(self);
    int W = gtk_widget_get_width(self->area), H = gtk_widget_get_height(self->area);
    if (!to_screen(self, p, W, H, x, y)) return FALSE;
    return *x >= 0 && *y >= 0 && *x <= W && *y <= H;
}

int motus_viewport_body_at(MotusViewport *self, double x, double y) { return pick(self, x, y); }

void motus_viewport_set_picking(MotusViewport *self, gboolean picking)
{
    self->picking = picking;
    gtk_widget_set_cursor_from_name(self->area, picking ? "crosshair" : NULL);
}

gboolean motus_viewport_get_picking(MotusViewport *self) { return self->picking; }

void motus_viewport_clear_overlay(MotusViewport *self)
{
    g_array_set_size(self->ov, 0);
    g_array_set_size(self->ov_pts, 0);
    hud_refresh(self);
}

static void add_item(MotusViewport *self, OverlayKind kind, const double *pts, guint n, const float rgb[3], const char *label)
{
    OverlayItem it = {kind, self->ov_pts->len / 3, n, {rgb[0], rgb[1], rgb[2]}, g_strdup(label ? label : "")};
    g_array_append_vals(self->ov_pts, pts, 3 * n);
    g_array_append_val(self->ov, it);
    hud_refresh(self);
}

void motus_viewport_add_overlay_point(MotusViewport *self, const double p[3], const float rgb[3], const char *label)
{
    add_item(self, OV_POINT, p, 1, rgb, label);
}

void motus_viewport_add_overlay_line(MotusViewport *self, const double *pts, guint n, const float rgb[3])
{
    if (n >= 2) add_item(self, OV_LINE, pts, n, rgb, NULL);
}

void motus_viewport_add_overlay_arrow(MotusViewport *self, const double from[3], const double vec[3], const float rgb[3],
                                      const char *label)
{
    double p[6] = {from[0], from[1], from[2], from[0] + vec[0], from[1] + vec[1], from[2] + vec[2]};
    add_item(self, OV_ARROW, p, 2, rgb, label);
}

guint motus_viewport_overlay_size(MotusViewport *self) { return self->ov->len; }

const char *motus_viewport_overlay_label(MotusViewport *self, guint i)
{
    return i < self->ov->len ? g_array_index(self->ov, OverlayItem, i).label : NULL;
}

void motus_viewport_look_at(MotusViewport *self, const double p[3])
{
    if (self->need_fit) fit_now(self);
    for (int k = 0; k < 3; k++) self->cam.target[k] = (float)p[k];
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
}

double motus_viewport_get_scale(MotusViewport *self) { return self->scene ? self->scene->scale : 1.0; }

void motus_viewport_set_poses(MotusViewport *self, const double *poses)
{
    if (!self->model) return;
    memcpy(self->poses, poses, 7 * (size_t)self->model->nbody * sizeof(double));
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
}

void motus_viewport_include_poses(MotusViewport *self, const double *poses)
{
    if (self->scene) motus_scene_corners(self->scene, poses, self->env);
}

void motus_viewport_motion_done(MotusViewport *self)
{
    if (!self->scene || !self->env->len) return;
    int up = self->scene->up_axis;
    float low = INFINITY;
    for (guint k = 0; k < self->env->len / 3; k++) low = fminf(low, g_array_index(self->env, float, 3 * k + up));
    float floor = low - (float)(0.05 * self->scene->scale);
    if (floor < self->grid_y) {
        self->grid_y = floor;
        self->grid_dirty = TRUE;
    }
    if (!self->touched) self->need_fit = TRUE;
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
}

void motus_viewport_set_selected_body(MotusViewport *self, int body)
{
    if (self->selected == body) return;
    self->selected = body;
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
}

int motus_viewport_get_selected_body(MotusViewport *self) { return self->selected; }

void motus_viewport_view_preset(MotusViewport *self, MotusViewPreset p)
{
    motus_camera_preset(&self->cam, p);
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
}

void motus_viewport_fit_all(MotusViewport *self)
{
    fit_now(self);
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
}

void motus_viewport_fit_body(MotusViewport *self, int body)
{
    if (!self->scene || body < 0 || body >= self->scene->nbody) return;
    const MotusBodyMesh *bm = &self->scene->body[body];
    if (!(bm->lo[0] <= bm->hi[0])) return;
    float pts[24];
    for (int k = 0; k < 8; k++) {
        double p[3] = {k & 1 ? bm->hi[0] : bm->lo[0], k & 2 ? bm->hi[1] : bm->lo[1], k & 4 ? bm->hi[2] : bm->lo[2]}, w[3];
        motus_viewport_body_to_world(self, body, p, w);
        for (int c = 0; c < 3; c++) pts[3 * k + c] = (float)w[c];
    }
    fit_points(self, pts, 8);
    self->need_fit = FALSE;
    self->touched = TRUE;
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
}

void motus_viewport_set_orthographic(MotusViewport *self, gboolean ortho)
{
    ortho = !!ortho;
    if (self->cam.ortho == ortho) return;
    self->cam.ortho = ortho;
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
    g_object_notify_by_pspec(G_OBJECT(self), props[PROP_ORTHOGRAPHIC]);
}

gboolean motus_viewport_get_orthographic(MotusViewport *self) { return self->cam.ortho; }

gboolean motus_viewport_project_body(MotusViewport *self, int body, double *x, double *y)
{
    if (!self->scene || body < 0 || body > self->scene->nbody) return FALSE;
    if (self->need_fit) fit_now(self);
    const MotusBodyMesh *bm = &self->scene->body[body];
    if (!(bm->lo[0] <= bm->hi[0])) return FALSE;
    mat4 M;
    body_matrix(self, body, M);
    vec4 c = {bm->centre[0], bm->centre[1], bm->centre[2], 1}, w;
    glm_mat4_mulv(M, c, w);
    if (bm->flex && bm->flex->centre_vertex >= 0) { /* a flexible body: where its middle is drawn, deformed */
        double p[3];
        motus_viewport_flex_vertex(self, body, bm->flex->centre_vertex, self->deform, p);
        for (int k = 0; k < 3; k++) w[k] = (float)p[k];
    }
    float out[2];
    float W = (float)gtk_widget_get_width(self->area), H = (float)gtk_widget_get_height(self->area);
    if (!motus_camera_project(&self->cam, w, W, H, out)) return FALSE;
    if (out[0] < 0 || out[1] < 0 || out[0] > W || out[1] > H) return FALSE;
    *x = out[0];
    *y = out[1];
    return TRUE;
}

int motus_viewport_pick_at(MotusViewport *self, double x, double y)
{
    int b = pick(self, x, y);
    self->selected = b;
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
    g_signal_emit(self, signals[SIG_BODY_PICKED], 0, b);
    return b;
}

guint motus_viewport_get_frames_drawn(MotusViewport *self) { return self->frames + motus_gl_view_pictures_shown(MOTUS_GL_VIEW(self->area)); }

void motus_viewport_set_full_detail(MotusViewport *self, gboolean full)
{
    self->full_detail = full;
    motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
}

int motus_viewport_get_body_detail(MotusViewport *self, int body)
{
    return body >= 0 && body < self->nbuf ? self->level[body] : -1;
}

gboolean motus_viewport_reads_back(MotusViewport *self) { return motus_gl_view_has_picture(MOTUS_GL_VIEW(self->area)); }

int motus_viewport_get_draw_rank(MotusViewport *self, int body)
{
    if (body < 0 || body >= self->nbuf || self->level[body] < 0) return -1;
    for (int k = 0; k < self->nbuf; k++)
        if (self->order[k] == body) return k;
    return -1;
}

long motus_viewport_get_triangles_drawn(MotusViewport *self) { return self->tris_drawn; }

void motus_viewport_get_background(MotusViewport *self, float top[3], float bottom[3])
{
    (void)self;
    memcpy(top, bg_top, sizeof bg_top);
    memcpy(bottom, bg_bottom, sizeof bg_bottom);
}
const GError *motus_viewport_get_error(MotusViewport *self) { return self->gl_error; }
const char *motus_viewport_get_gl_info(MotusViewport *self) { return self->gl_info; }
GtkWidget *motus_viewport_get_gl_area(MotusViewport *self) { return self->area; }

void motus_viewport_queue_render(MotusViewport *self)
{
    motus_gl_view_queue_fresh(MOTUS_GL_VIEW(self->area));
}

/* ---- the move/rotate gizmo ------------------------------------------------------------- */

void motus_viewport_set_gizmo(MotusViewport *self, MotusGizmoMode mode, const double origin[3], const double axes[9],
                              int body)
{
    if (mode == self->gizmo.mode && mode != MOTUS_GIZMO_OFF && body == self->gizmo_body &&
        !memcmp(origin, self->gizmo.origin, sizeof self->gizmo.origin) && !memcmp(axes, self->gizmo.axes, sizeof self->gizmo.axes))
        return; /* unchanged: a drag in progress goes on */
    if (self->gizmo_handle >= 0) { /* moved or hidden during a drag: the drag is dropped, no edit */
        if (self->gizmo_body >= 0) memcpy(self->poses + 7 * self->gizmo_body, self->gizmo_pose, sizeof self->gizmo_pose);
        self->gizmo_handle = -1;
        self->gizmo_amount = 0;
        motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
    }
    self->gizmo.mode = mode;
    if (mode != MOTUS_GIZMO_OFF) {
        memcpy(self->gizmo.origin, origin, sizeof self->gizmo.origin);
        memcpy(self->gizmo.axes, axes, sizeof self->gizmo.axes);
    }
    self->gizmo_body = mode != MOTUS_GIZMO_OFF && self->model && body >= 0 && body < self->model->nbody ? body : -1;
    self->gizmo_hover = -1;
    hud_refresh(self);
}

MotusGizmoMode motus_viewport_get_gizmo(MotusViewport *self) { return self->gizmo.mode; }

void motus_viewport_add_tool(MotusViewport *self, GtkWidget *tool)
{
    gtk_widget_set_margin_end(tool, 8);
    gtk_box_prepend(GTK_BOX(self->toolbar), tool);
}

gboolean motus_viewport_gizmo_point(MotusViewport *self, int axis, double *x, double *y)
{
    float xy[2 * (MOTUS_GIZMO_RING + 1)];
    int n = motus_gizmo_path(&self->gizmo, &self->cam, gtk_widget_get_width(self->area), gtk_widget_get_height(self->area),
                             axis, xy);
    if (!n) return FALSE;
    /* 80 % along an arrow; a ring at its angle 0 */
    int j = self->gizmo.mode == MOTUS_GIZMO_MOVE ? 1 : 0;
    double fx = self->gizmo.mode == MOTUS_GIZMO_MOVE ? xy[0] + 0.8 * (xy[2] - xy[0]) : xy[0];
    double fy = self->gizmo.mode == MOTUS_GIZMO_MOVE ? xy[1] + 0.8 * (xy[3] - xy[1]) : xy[1];
    if (isnan(xy[2 * j])) return FALSE;
    *x = fx, *y = fy;
    return TRUE;
}

gboolean motus_viewport_gizmo_begin(MotusViewport *self, double x, double y)
{
    if (self->gizmo.mode == MOTUS_GIZMO_OFF || !self->gl_ok) return FALSE;
    int h = motus_gizmo_hit(&self->gizmo, &self->cam, gtk_widget_get_width(self->area), gtk_widget_get_height(self->area), x,
                            y, 8);
    if (h < 0) return FALSE;
    self->gizmo_handle = h;
    self->gizmo_x0 = x, self->gizmo_y0 = y;
    self->gizmo_amount = 0;
    if (self->gizmo_body >= 0) memcpy(self->gizmo_pose, self->poses + 7 * self->gizmo_body, sizeof self->gizmo_pose);
    gtk_widget_queue_draw(self->hud);
    return TRUE;
}

void motus_viewport_gizmo_update(MotusViewport *self, double x, double y, gboolean snap)
{
    int k = self->gizmo_handle;
    if (k < 0) return;
    self->gizmo_amount = motus_gizmo_drag(&self->gizmo, &self->cam, gtk_widget_get_width(self->area),
                                          gtk_widget_get_height(self->area), k, self->gizmo_x0, self->gizmo_y0, x, y, snap);
    if (self->gizmo_body >= 0) { /* the body follows: its pose moved along or turned about the axis */
        double *p = self->poses + 7 * self->gizmo_body, a[3];
        const double *p0 = self->gizmo_pose;
        for (int i = 0; i < 3; i++) a[i] = self->gizmo.axes[3 * i + k];
        memcpy(p, p0, sizeof self->gizmo_pose);
        if (self->gizmo.mode == MOTUS_GIZMO_MOVE)
            for (int i = 0; i < 3; i++) p[i] = p0[i] + self->gizmo_amount * a[i];
        else { /* q = (cos θ/2, sin θ/2 a) ⊗ q0, about the body's origin (the gizmo's) */
            double h = 0.5 * self->gizmo_amount, w = cos(h), v[3] = {sin(h) * a[0], sin(h) * a[1], sin(h) * a[2]};
            const double *q = p0 + 3;
            p[3] = w * q[0] - v[0] * q[1] - v[1] * q[2] - v[2] * q[3];
            p[4] = w * q[1] + v[0] * q[0] + v[1] * q[3] - v[2] * q[2];
            p[5] = w * q[2] - v[0] * q[3] + v[1] * q[0] + v[2] * q[1];
            p[6] = w * q[3] + v[0] * q[2] - v[1] * q[1] + v[2] * q[0];
        }
        motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
    }
    gtk_widget_queue_draw(self->hud);
}

void motus_viewport_gizmo_end(MotusViewport *self)
{
    int k = self->gizmo_handle;
    if (k < 0) return;
    double amount = self->gizmo_amount;
    self->gizmo_handle = -1;
    self->gizmo_amount = 0;
    if (self->gizmo_body >= 0) { /* back as it was: the edit (if any) redraws the model */
        memcpy(self->poses + 7 * self->gizmo_body, self->gizmo_pose, sizeof self->gizmo_pose);
        motus_gl_view_queue_render(MOTUS_GL_VIEW(self->area));
    }
    gtk_widget_queue_draw(self->hud);
    if (amount != 0) g_signal_emit(self, signals[SIG_GIZMO_DRAGGED], 0, (int)self->gizmo.mode, k, amount);
}
