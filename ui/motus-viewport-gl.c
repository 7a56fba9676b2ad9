/* motus-viewport-gl.c — the GL part of MotusViewport, a private part of
 * motus-viewport.c (see motus-viewport-private.h). GL objects are made in
 * realize (after checking gtk_gl_area_get_error), deleted in unrealize;
 * scene buffers are (re)uploaded in render when the model changes. */
#include "motus-viewport-private.h"

#include <epoxy/gl.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "motus-gl-view.h"
#include "motus-i18n.h"
#include "motus-plot-axis.h"
#include "motus-gizmo.h"
#include "motus-scene.h"
#include "motus/edit.h"
#include "motus/flex.h"
#include "motus/flexview.h"
#include "motus/units.h"

/* Background gradient, top and bottom (also reported to screenshot checks). */
static const float bg_top[3] = {0.86f, 0.89f, 0.93f}, bg_bottom[3] = {0.62f, 0.67f, 0.74f};

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
    MtFlexInfo fi;
    mt_flex_body_info(fb, &fi);
    gsize nsv = (gsize)fi.nsv, N = (gsize)MIN(fi.nmode, MAX_SHADER_MODES);
    f->nmodes = 0;
    if (!N || !fi.sv_H || nsv * N * 2 > (gsize)self->max_tbo) return;
    /* two texels per vertex and mode: the displacement, and the rate of the unit normal (shading follows) */
    float *h = g_new0(float, 8 * nsv * N), *dn = g_new(float, 3 * nsv * (gsize)fi.nmode);
    if (mt_flexview_normal_modes(fb, dn)) memset(dn, 0, sizeof(float) * 3 * nsv * (gsize)fi.nmode);
    for (gsize t = 0; t < nsv * N; t++) {
        memcpy(h + 8 * t, fi.sv_H + 3 * t, 3 * sizeof(float));
        memcpy(h + 8 * t + 4, dn + 3 * t, 3 * sizeof(float));
    }
    tbo_make(&f->hbuf, &f->htex, h, 2 * nsv * N);
    g_free(h);
    g_free(dn);
    f->stress = mt_flexview_has_field(fb, MT_FLEXFIELD_VONMISES);
    if (f->stress) {
        float *sg = g_new0(float, 8 * nsv * N);
        for (gsize t = 0; t < nsv * N; t++) {
            memcpy(sg + 8 * t, fi.sv_sig + 6 * t, 3 * sizeof(float));
            memcpy(sg + 8 * t + 4, fi.sv_sig + 6 * t + 3, 3 * sizeof(float));
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
static void line(GArray *out, double x0, double y0, double x1, double y1, const float col[3])
{
    MotusLineVertex v[2];
    memset(v, 0, sizeof v);
    v[0].p[0] = (float)x0, v[0].p[1] = (float)y0, v[1].p[0] = (float)x1, v[1].p[1] = (float)y1;
    memcpy(v[0].c, col, 3 * sizeof(float));
    memcpy(v[1].c, col, 3 * sizeof(float));
    g_array_append_vals(out, v, 2);
}

/* Planar mode: grid lines in the plane z = 0 over the whole view (every fifth darker, the axes in their
 * colours), and the origin: a small circle with arrows along x and y two spacings long. */
static void build_plane_grid(MotusViewport *self, GArray *out)
{
    motus_viewport_planar_step(self);
    double s = motus_viewport_step_value(self, 1);
    double hh = self->cam.distance * tan(self->cam.fovy * 0.5), hw = hh * motus_viewport_aspect(self);
    double r = hypot(hw, hh) + s; /* the view's half diagonal: whatever the camera's roll */
    const float *t = self->cam.target;
    long x0 = lround(floor((t[0] - r) / s)), x1 = lround(ceil((t[0] + r) / s));
    long y0 = lround(floor((t[1] - r) / s)), y1 = lround(ceil((t[1] + r) / s));
    if (x1 - x0 > 600 || y1 - y0 > 600) return; /* never (the spacing follows the zoom) */
    static const float minor[3] = {0.66f, 0.70f, 0.76f}, major[3] = {0.46f, 0.50f, 0.57f};
    static const float red[3] = {0.80f, 0.22f, 0.20f}, green[3] = {0.20f, 0.60f, 0.22f};
    double xa = x0 * s, xb = x1 * s, ya = y0 * s, yb = y1 * s;
    for (long i = x0; i <= x1; i++)
        line(out, i * s, ya, i * s, yb, i == 0 ? green : i % 5 == 0 ? major : minor);
    for (long i = y0; i <= y1; i++)
        line(out, xa, i * s, xb, i * s, i == 0 ? red : i % 5 == 0 ? major : minor);
    double L = 2 * s, h = 0.3 * s;
    for (int k = 0; k < 2; k++) { /* the arrows twice over, one pixel apart: bolder than the grid */
        double o = k * motus_camera_pixel_size(&self->cam, (float)gtk_widget_get_height(self->area));
        line(out, 0, o, L, o, red);
        line(out, L, o, L - h, o + 0.5 * h, red);
        line(out, L, o, L - h, o - 0.5 * h, red);
        line(out, o, 0, o, L, green);
        line(out, o, L, o + 0.5 * h, L - h, green);
        line(out, o, L, o - 0.5 * h, L - h, green);
    }
    for (int k = 0; k < 24; k++) {
        double a = 2 * G_PI * k / 24, b = 2 * G_PI * (k + 1) / 24;
        line(out, 0.25 * s * cos(a), 0.25 * s * sin(a), 0.25 * s * cos(b), 0.25 * s * sin(b), major);
    }
}

static void build_grid(MotusViewport *self, GArray *out)
{
    if (self->planar) {
        build_plane_grid(self, out);
        return;
    }
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

void motus_viewport_upload_scene(MotusViewport *self)
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

void motus_viewport_gl_realize(GtkGLArea *area, gpointer data)
{
    MotusViewport *self = data;
    gtk_gl_area_make_current(area);
    g_clear_error(&self->gl_error);
    if (gtk_gl_area_get_error(area)) {
        self->gl_error = g_error_copy(gtk_gl_area_get_error(area));
        self->gl_ok = FALSE;
        motus_viewport_hud_refresh(self);
        return;
    }
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
        motus_viewport_hud_refresh(self);
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

void motus_viewport_gl_unrealize(GtkGLArea *area, gpointer data)
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
        motus_fbo_delete(&self->out_fb);
        if (self->bg_fbo) glDeleteFramebuffers(1, &self->bg_fbo);
        if (self->bg_tex) glDeleteTextures(1, &self->bg_tex);
    }
    self->bg_fbo = self->bg_tex = 0;
    self->bg_w = self->bg_h = 0;
    self->vao_empty = self->prog_mesh = self->prog_pick = self->prog_line = self->prog_bg = 0;
    self->prog_flex = self->prog_flex_pick = self->map_tex = 0;
    self->pick_fb = self->out_fb = (MotusFbo){0};
    self->gl_ok = FALSE;
}

float motus_viewport_aspect(MotusViewport *self)
{
    int w = gtk_widget_get_width(self->area), h = gtk_widget_get_height(self->area);
    return (w > 0 && h > 0) ? (float)w / (float)h : 1.5f;
}

void motus_viewport_body_matrix(MotusViewport *self, int i, mat4 M)
{
    if (i >= self->scene->nbody)
        glm_mat4_identity(M);
    else
        motus_scene_pose_matrix(self->poses + 7 * i, M);
}

/* mesh.vert has no uView (motus_viewport_gl_draw_solid sets uModelView): GL ignores location -1. */
void motus_viewport_gl_camera(GLuint prog, mat4 V, mat4 P)
{
    glUniformMatrix4fv(glGetUniformLocation(prog, "uView"), 1, GL_FALSE, (const float *)V);
    glUniformMatrix4fv(glGetUniformLocation(prog, "uProj"), 1, GL_FALSE, (const float *)P);
}

void motus_viewport_gl_draw_solid(GLuint prog, const GlBuf *b, mat4 V, mat4 M, const float hl[4])
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

gboolean motus_viewport_gl_render(GtkGLArea *area, GdkGLContext *ctx, gpointer data)
{
    (void)ctx;
    MotusViewport *self = data;
    if (!self->gl_ok) return TRUE;
    if (self->scene_dirty) motus_viewport_upload_scene(self);
    if (self->need_fit) motus_viewport_fit_now(self); /* first: the planar grid covers the view fitted */
    if ((self->grid_dirty || self->planar) && self->scene) { /* planar: the grid follows pan and zoom */
        g_autoptr(GArray) grid = g_array_new(FALSE, FALSE, sizeof(MotusLineVertex));
        build_grid(self, grid);
        buf_upload(&self->grid, grid, TRUE, GL_STATIC_DRAW);
    }
    self->grid_dirty = FALSE;
    if (self->need_fit) motus_viewport_fit_now(self);
    int sf = gtk_widget_get_scale_factor(GTK_WIDGET(area));
    int W = gtk_widget_get_width(GTK_WIDGET(area)) * sf, H = gtk_widget_get_height(GTK_WIDGET(area)) * sf;
    if (self->out_w > 0) W = self->out_w, H = self->out_h, sf = 1; /* a picture of its own size */
    glViewport(0, 0, W, H);
    draw_background(self, W, H);
    glClear(GL_DEPTH_BUFFER_BIT);

    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    mat4 V, P, M;
    motus_camera_view(&self->cam, V);
    motus_camera_proj(&self->cam, W > 0 && H > 0 ? (float)W / (float)H : 1.0f, P);
    if (self->out_w > 0 && H > 0 && (float)W / (float)H < motus_viewport_aspect(self)) {
        /* a picture narrower than the view: zoom out to keep the view's width (the camera is fitted to it) */
        float k = ((float)W / (float)H) / motus_viewport_aspect(self);
        P[0][0] *= k, P[1][1] *= k;
    }
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
        motus_viewport_gl_camera(self->prog_mesh, V, P);
        glUniform1i(glGetUniformLocation(self->prog_mesh, "uOrtho"), self->cam.ortho);
        glUniform1f(glGetUniformLocation(self->prog_mesh, "uAlpha"), 1.0f);
        static const float no_hl[4] = {0, 0, 0, 0}, hl[4] = {1.0f, 0.78f, 0.15f, 0.45f};
        /* closed primitives and glyphs lose their back faces before the software rasteriser sets them up */
        glEnable(GL_CULL_FACE);
        glCullFace(GL_BACK);
        self->tris_drawn = 0;
        for (int i = 0; i < self->nbuf; i++) {
            motus_viewport_body_matrix(self, i, M);
            self->level[i] = body_level(self, i, V, M, (float)H);
        }
        sort_near_first(self);
        for (int k = 0; k < self->nbuf; k++) {
            int i = self->order[k];
            motus_viewport_body_matrix(self, i, M);
            const DetailGl *d = &self->lod[self->level[i]][i];
            if (self->scene->body[i].closed)
                glEnable(GL_CULL_FACE);
            else
                glDisable(GL_CULL_FACE);
            motus_viewport_gl_draw_solid(self->prog_mesh, &d->tri, V, M, i == self->selected ? hl : no_hl);
            glEnable(GL_CULL_FACE);
            motus_viewport_gl_draw_solid(self->prog_mesh, &d->glyph, V, M, no_hl);
            self->tris_drawn += (d->tri.count + d->glyph.count) / 3;
        }
        glDisable(GL_CULL_FACE);
        if (self->flexgl) {
            glUseProgram(self->prog_flex);
            motus_viewport_gl_camera(self->prog_flex, V, P);
            glUniform1i(glGetUniformLocation(self->prog_flex, "uOrtho"), self->cam.ortho);
            glUniform1f(glGetUniformLocation(self->prog_flex, "uAlpha"), 1.0f);
            for (int i = 0; i < self->nbuf; i++) {
                if (!self->flexgl[i].count) continue;
                motus_viewport_body_matrix(self, i, M);
                motus_viewport_draw_flex(self, self->prog_flex, i, V, M, i == self->selected ? hl : no_hl, TRUE);
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
            motus_viewport_gl_draw_solid(self->prog_mesh, &self->spring, V, M, no_hl);
            self->tris_drawn += self->spring.count / 3;
        }
        glDisable(GL_POLYGON_OFFSET_FILL);

        /* lines: edges, marker triads, then the grid blended over the floor */
        glUseProgram(self->prog_line);
        motus_viewport_gl_camera(self->prog_line, V, P);
        for (int i = 0; i < self->nbuf; i++) {
            motus_viewport_body_matrix(self, i, M);
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
    motus_viewport_gl_camera(self->prog_mesh, Vr, Pr);
    glUniform1i(glGetUniformLocation(self->prog_mesh, "uOrtho"), 1);
    glUniform1f(glGetUniformLocation(self->prog_mesh, "uAlpha"), 1.0f); /* GTK composites premultiplied */
    glm_mat4_identity(M);
    static const float none[4] = {0, 0, 0, 0};
    motus_viewport_gl_draw_solid(self->prog_mesh, &self->triad, Vr, M, none);
    glViewport(0, 0, W, H);

    glBindVertexArray(0);
    glUseProgram(0);
    if (self->out_w > 0) return TRUE; /* not a frame of the view: nothing shown changes */
    if (!motus_gl_view_reading_back(MOTUS_GL_VIEW(area))) self->frames++; /* else counted when shown */
    motus_viewport_hud_refresh(self);
    return TRUE;
}

/* The scene drawn by the render above into a framebuffer of its own, w x h,
 * and read back at once (glReadPixels waits for the rasteriser). The overlay
 * drawn with cairo over the view (labels, the triad's letters) is not in it. */
gboolean motus_viewport_render_rgba(MotusViewport *self, int w, int h, guint8 *rgba)
{
    GtkGLArea *area = GTK_GL_AREA(self->area);
    if (!self->gl_ok || w <= 0 || h <= 0 || !gtk_widget_get_realized(self->area)) return FALSE;
    gtk_gl_area_make_current(area);
    if (gtk_gl_area_get_error(area)) return FALSE;
    gboolean ok = motus_fbo_bind(&self->out_fb, w, h);
    if (ok) {
        self->out_w = w, self->out_h = h;
        motus_viewport_gl_render(area, gtk_gl_area_get_context(area), self);
        self->out_w = self->out_h = 0;
        glBindFramebuffer(GL_READ_FRAMEBUFFER, self->out_fb.fbo);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
        gsize stride = (gsize)w * 4;
        g_autofree guint8 *row = g_malloc(stride);
        for (int j = 0; j < h / 2; j++) { /* GL's rows go bottom up */
            guint8 *a = rgba + (gsize)j * stride, *b = rgba + (gsize)(h - 1 - j) * stride;
            memcpy(row, a, stride), memcpy(a, b, stride), memcpy(b, row, stride);
        }
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return ok;
}

/* ---- picking -------------------------------------------------------------------- */

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

void motus_viewport_get_background(MotusViewport *self, float top[3], float bottom[3])
{
    (void)self;
    memcpy(top, bg_top, sizeof bg_top);
    memcpy(bottom, bg_bottom, sizeof bg_bottom);
}
