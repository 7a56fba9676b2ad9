/* motus-gl-view.h — the 3D view's GL area: a GtkGLArea that, under GTK's
 * cairo renderer, draws into a framebuffer of its own and shows its picture
 * read back one frame later (motus-gl-view.c says why). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define MOTUS_TYPE_GL_VIEW (motus_gl_view_get_type())
G_DECLARE_FINAL_TYPE(MotusGlView, motus_gl_view, MOTUS, GL_VIEW, GtkGLArea)

GtkWidget *motus_gl_view_new(void);

/* An offscreen framebuffer: RGBA8 colour and 24-bit depth renderbuffers
 * (the view's picture under the cairo renderer, the picking pass). */
typedef struct {
    guint fbo, color, depth; /* GL names, 0 before the first bind */
    int w, h;                /* device pixels */
} MotusFbo;
/* Makes it w x h (the first time, or at a new size) and binds it as the
 * framebuffer (a GL context current); FALSE when GL cannot complete it. */
gboolean motus_fbo_bind(MotusFbo *f, int w, int h);
/* Deletes its GL objects (its context current) and zeroes it. */
void motus_fbo_delete(MotusFbo *f);
/* Asks for a render ("render" is emitted with the context current and, when
 * reading back, the view's framebuffer bound). */
void motus_gl_view_queue_render(MotusGlView *v);
/* The same, dropping a picture drawn before and not shown yet: the next
 * picture shown is drawn after this call. */
void motus_gl_view_queue_fresh(MotusGlView *v);
/* From the "render" handler: show this render's picture in its own frame (what
 * is drawn over the view, in other widgets, must match it). */
void motus_gl_view_show_at_once(MotusGlView *v);
/* The window draws with cairo and the view reads its pictures back. */
gboolean motus_gl_view_reading_back(MotusGlView *v);
/* It has read a picture back (shown as a cairo image, not a GL texture). */
gboolean motus_gl_view_has_picture(MotusGlView *v);
/* Pictures read back and shown so far. */
guint motus_gl_view_pictures_shown(MotusGlView *v);

G_END_DECLS
