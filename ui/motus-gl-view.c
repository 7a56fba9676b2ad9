/* motus-gl-view.c — the 3D view's GL area (see motus-gl-view.h).
 *
 * Under GTK's cairo renderer (software GL: motus_ui_choose_renderer)
 * GTK 4.8 downloads the area's GL texture every frame and converts it to
 * cairo's pixel format through floats, pixel by pixel: a quarter of the
 * instructions of a frame of the main window during a run (commit 94deecb of bench/RESULTS.md).
 * There the area draws into a framebuffer of its own and reads its picture
 * back itself, in cairo's format (glReadPixels as BGRA), shown as a cairo
 * image; under GTK's GL renderer it shows its GL texture as GtkGLArea does.
 *
 * Reading back one frame later: the software rasteriser's threads finish a
 * picture after the draw calls return, so a frame that read it back at once
 * waited for them, 3-4 of its 10-11 ms (bench/RESULTS.md, GUI: the
 * measurement before and after commit f2dc26b). A render only queues the picture and flushes; the next
 * frame's update phase reads it back and shows it, while the rasteriser
 * worked between the two frames. The first picture, one of a new size and
 * one whose render asks for it (motus_gl_view_show_at_once: the viewport
 * does when arrows, labels, the gizmo or the triad's letters are drawn over
 * it, or the camera moved) are read back at once. A frame of the view
 * (motus_viewport_get_frames_drawn) is then a picture shown, not a render:
 * the window's picture holds it once the count has grown. */
#include "motus-gl-view.h"

#include <epoxy/gl.h>
#include <string.h>

struct _MotusGlView {
    GtkGLArea parent_instance;
    gboolean read_back; /* the window draws with cairo: the view renders into fbo and reads it back */
    cairo_surface_t *frame; /* the picture of the last render read back (read_back only) */
    cairo_surface_t *spare; /* the one before, written again once GTK no longer shows it */
    MotusFbo fb;        /* read_back only: where render draws, device pixels */
    int fb_sf;          /* the scale it was drawn at */
    gboolean dirty;   /* a render was asked for (motus_gl_view_queue_render) */
    gboolean pending; /* rendered into fbo, not read back yet */
    gboolean fresh;   /* frame was read back and not shown yet */
    gboolean at_once; /* the render asked for its picture in its own frame */
    guint shown;      /* pictures shown */
    guint tick;       /* the tick callback that reads it back */
};

G_DEFINE_FINAL_TYPE(MotusGlView, motus_gl_view, GTK_TYPE_GL_AREA)

static void gl_view_read_back(MotusGlView *v);

/* Asks for a new picture: under GTK's GL renderer GtkGLArea renders in its snapshot; with read-back
 * the view's own snapshot renders when dirty. */
void motus_gl_view_queue_render(MotusGlView *v)
{
    v->dirty = TRUE;
    gtk_gl_area_queue_render(GTK_GL_AREA(v));
}

/* Reads back a picture still waiting; redraw: show it (not needed from the snapshot itself). */
static void gl_view_collect(MotusGlView *v, gboolean redraw)
{
    if (!v->pending) return;
    v->pending = FALSE;
    gtk_gl_area_make_current(GTK_GL_AREA(v));
    if (gtk_gl_area_get_error(GTK_GL_AREA(v)) || !v->fb.fbo) return;
    glBindFramebuffer(GL_READ_FRAMEBUFFER, v->fb.fbo);
    gl_view_read_back(v);
    v->fresh = TRUE;
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    if (redraw) gtk_widget_queue_draw(GTK_WIDGET(v));
}

static gboolean gl_view_tick(GtkWidget *w, GdkFrameClock *clock, gpointer data)
{
    (void)clock, (void)data;
    MotusGlView *v = MOTUS_GL_VIEW(w);
    v->tick = 0;
    gl_view_collect(v, TRUE);
    return G_SOURCE_REMOVE;
}

gboolean motus_fbo_bind(MotusFbo *f, int w, int h)
{
    if (!f->fbo) {
        glGenFramebuffers(1, &f->fbo);
        glGenRenderbuffers(1, &f->color);
        glGenRenderbuffers(1, &f->depth);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, f->fbo);
    if (w != f->w || h != f->h) {
        glBindRenderbuffer(GL_RENDERBUFFER, f->color);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
        glBindRenderbuffer(GL_RENDERBUFFER, f->depth);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, w, h);
        glBindRenderbuffer(GL_RENDERBUFFER, 0);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, f->color);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, f->depth);
        f->w = w, f->h = h;
    }
    return glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
}

void motus_fbo_delete(MotusFbo *f)
{
    if (f->fbo) glDeleteFramebuffers(1, &f->fbo);
    if (f->color) glDeleteRenderbuffers(1, &f->color);
    if (f->depth) glDeleteRenderbuffers(1, &f->depth);
    *f = (MotusFbo){0};
}

static void gl_view_delete_fbo(MotusGlView *v)
{
    if (v->fb.fbo && gtk_widget_get_realized(GTK_WIDGET(v))) {
        gtk_gl_area_make_current(GTK_GL_AREA(v));
        if (!gtk_gl_area_get_error(GTK_GL_AREA(v))) motus_fbo_delete(&v->fb);
    }
    v->fb = (MotusFbo){0};
    v->pending = FALSE;
}

static void gl_view_snapshot(GtkWidget *w, GtkSnapshot *snapshot)
{
    MotusGlView *v = MOTUS_GL_VIEW(w);
    GtkGLArea *area = GTK_GL_AREA(w);
    GtkNative *native = gtk_widget_get_native(w);
    GskRenderer *r = native ? gtk_native_get_renderer(native) : NULL;
    v->read_back = r && GSK_IS_CAIRO_RENDERER(r);
    int sf = gtk_widget_get_scale_factor(w), W = gtk_widget_get_width(w) * sf, H = gtk_widget_get_height(w) * sf;
    gboolean ours = v->read_back && gtk_gl_area_get_context(area) && !gtk_gl_area_get_error(area) && W > 0 && H > 0;
    if (!ours) {
        /* GTK's way: its texture, or its message when GL failed */
        g_clear_pointer(&v->frame, cairo_surface_destroy);
        g_clear_pointer(&v->spare, cairo_surface_destroy);
        if (v->fb.fbo) gl_view_delete_fbo(v);
        GTK_WIDGET_CLASS(motus_gl_view_parent_class)->snapshot(w, snapshot);
        return;
    }
    gl_view_collect(v, FALSE);
    gboolean resized = !v->frame || W != v->fb.w || H != v->fb.h || sf != v->fb_sf;
    if (v->dirty || resized) {
        v->dirty = FALSE;
        gtk_gl_area_make_current(area);
        v->fb_sf = sf;
        if (motus_fbo_bind(&v->fb, W, H)) {
            gboolean unused;
            v->at_once = FALSE;
            g_signal_emit_by_name(area, "render", gtk_gl_area_get_context(area), &unused);
            glBindFramebuffer(GL_FRAMEBUFFER, 0);
            glFlush(); /* the rasteriser starts now */
            v->pending = TRUE;
            if (resized || v->at_once) /* nothing of this size to show yet, or something drawn over it must match */
                gl_view_collect(v, FALSE);
            else if (!v->tick)
                v->tick = gtk_widget_add_tick_callback(w, gl_view_tick, NULL, NULL);
        } else
            glBindFramebuffer(GL_FRAMEBUFFER, 0);
    }
    if (!v->frame) return;
    if (v->fresh) v->shown++, v->fresh = FALSE;
    /* a cairo node: GTK 4.8 would convert a texture through floats again at every paint */
    cairo_t *cr = gtk_snapshot_append_cairo(
        snapshot, &GRAPHENE_RECT_INIT(0, 0, (float)gtk_widget_get_width(w), (float)gtk_widget_get_height(w)));
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    cairo_set_source_surface(cr, v->frame, 0, 0);
    cairo_paint(cr);
    cairo_destroy(cr);
}

static void gl_view_unrealize(GtkWidget *w)
{
    MotusGlView *v = MOTUS_GL_VIEW(w);
    if (v->tick) gtk_widget_remove_tick_callback(w, v->tick);
    v->tick = 0;
    gl_view_delete_fbo(v);
    g_clear_pointer(&v->frame, cairo_surface_destroy);
    g_clear_pointer(&v->spare, cairo_surface_destroy);
    v->dirty = TRUE;
    GTK_WIDGET_CLASS(motus_gl_view_parent_class)->unrealize(w);
}

static void gl_view_finalize(GObject *o)
{
    g_clear_pointer(&MOTUS_GL_VIEW(o)->frame, cairo_surface_destroy);
    g_clear_pointer(&MOTUS_GL_VIEW(o)->spare, cairo_surface_destroy);
    G_OBJECT_CLASS(motus_gl_view_parent_class)->finalize(o);
}

static void motus_gl_view_class_init(MotusGlViewClass *klass)
{
    G_OBJECT_CLASS(klass)->finalize = gl_view_finalize;
    GTK_WIDGET_CLASS(klass)->snapshot = gl_view_snapshot;
    GTK_WIDGET_CLASS(klass)->unrealize = gl_view_unrealize;
}

static void motus_gl_view_init(MotusGlView *v) { v->dirty = TRUE; }

/* The picture in the bound read framebuffer (fb.w x fb.h device pixels,
 * scale fb_sf) as a cairo image, rows top first, as the area's frame.
 * Two images take turns: the last frame's node may still show the newer one,
 * and the older is written again only when nothing else holds it (a new
 * image each frame would be fresh memory, page-faulted in, on every frame). */
static void gl_view_read_back(MotusGlView *v)
{
    int W = v->fb.w, H = v->fb.h, sf = v->fb_sf;
    if (W <= 0 || H <= 0) return;
    cairo_surface_t *img = v->spare;
    v->spare = NULL;
    if (img && (cairo_image_surface_get_width(img) != W || cairo_image_surface_get_height(img) != H ||
                cairo_surface_get_reference_count(img) != 1))
        g_clear_pointer(&img, cairo_surface_destroy);
    if (!img) img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
    int stride = cairo_image_surface_get_stride(img);
    guint8 *data = cairo_image_surface_get_data(img), *row = g_malloc((gsize)stride);
    if (!data) {
        cairo_surface_destroy(img);
        g_free(row);
        return;
    }
    cairo_surface_flush(img);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glPixelStorei(GL_PACK_ROW_LENGTH, stride / 4);
    /* bytes B G R A, opaque: cairo's ARGB32 on a little-endian machine; GL_UNSIGNED_INT_8_8_8_8_REV
     * gives the same 32-bit words on any */
    glReadPixels(0, 0, W, H, GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV, data);
    glPixelStorei(GL_PACK_ROW_LENGTH, 0);
    for (int j = 0; j < H / 2; j++) { /* GL's rows go bottom up */
        guint8 *a = data + (gsize)j * stride, *b = data + (gsize)(H - 1 - j) * stride;
        memcpy(row, a, (gsize)stride), memcpy(a, b, (gsize)stride), memcpy(b, row, (gsize)stride);
    }
    g_free(row);
    cairo_surface_mark_dirty(img);
    cairo_surface_set_device_scale(img, sf, sf);
    v->spare = v->frame;
    v->frame = img;
}

GtkWidget *motus_gl_view_new(void) { return g_object_new(MOTUS_TYPE_GL_VIEW, NULL); }

void motus_gl_view_queue_fresh(MotusGlView *v)
{
    v->pending = v->fresh = FALSE; /* drawn before the request: the next picture counted must be newer */
    motus_gl_view_queue_render(v);
}

void motus_gl_view_show_at_once(MotusGlView *v) { v->at_once = TRUE; }

gboolean motus_gl_view_reading_back(MotusGlView *v) { return v->read_back; }
gboolean motus_gl_view_has_picture(MotusGlView *v) { return v->frame != NULL; }
guint motus_gl_view_pictures_shown(MotusGlView *v) { return v->shown; }
