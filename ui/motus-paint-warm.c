/* motus-paint-warm.c — keeps the memory GTK paints through warm, so that the
 * first frame of a run does not stall on fresh pages.
 *
 * On X11 with GTK's cairo renderer (software GL, Xvfb, remote desktops) each
 * frame is painted into a heap surface the size of the damaged region and
 * uploaded through a MIT-SHM pool of cairo's, which frees the pool whenever it
 * runs empty; the GL view is read back into heap memory. A frame that repaints
 * more than the frames before it (the first frame of a run: view, plot and
 * playback bar at once) then touches thousands of fresh pages: 3000 in
 * 60–80 ms on our 2-core VM, where a page fault costs about 20 µs
 * (bench/RESULTS.md, "Run start"). Three things keep that
 * memory, and each is needed (without any one of them the first frame of a
 * run faults 370–930 pages again): one window-sized image from cairo's pool is
 * held for the window's life (the pool is never empty, so it is never freed);
 * once the window is mapped or has grown, one frame repaints the whole window
 * and the view; after it, four window sizes of heap are touched and freed,
 * and the heap keeps freed blocks up to 32 MiB and 128 MiB of free top
 * instead of returning them to the system. All of it happens while nothing
 * else is going on. Buffers over 32 MiB (a 4K window) are still mapped afresh
 * by glibc. */
#include "motus-paint-warm.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#ifdef GDK_WINDOWING_X11
#include <cairo-xlib.h>
#include <gdk/x11/gdkx.h>
#endif

typedef struct {
    GtkWidget *window;
    MotusViewport *viewport;
    cairo_surface_t *held;
    int held_w, held_h;
    guint source;
    size_t slack; /* bytes of heap touched after the repaint */
    gulong layout_id;
    GdkSurface *surface;
} Warm;

static const char warm_key[] = "motus-paint-warm";

static void warm_free(gpointer data)
{
    Warm *w = data;
    if (w->source) g_source_remove(w->source);
    if (w->surface && w->layout_id) g_signal_handler_disconnect(w->surface, w->layout_id);
    g_clear_object(&w->surface);
    if (w->held) cairo_surface_destroy(w->held);
    g_free(w);
}

#ifdef GDK_WINDOWING_X11
/* Only GTK's cairo renderer on X11 paints through cairo's MIT-SHM upload. */
static gboolean uses_cairo_x11(Warm *w)
{
    GdkSurface *s = gtk_native_get_surface(GTK_NATIVE(w->window));
    GskRenderer *r = gtk_native_get_renderer(GTK_NATIVE(w->window));
    return s && GDK_IS_X11_SURFACE(s) && r && !strcmp(G_OBJECT_TYPE_NAME(r), "GskCairoRenderer");
}
#endif

/* Touched heap at the top for the next frames' paint surface and the view's read-back, once the repaint
 * has settled: freed, it stays in the heap. One volatile store per page: the compiler drops a memset of
 * memory that is freed next. */
static gboolean warm_heap(gpointer data)
{
    Warm *w = data;
    w->source = 0;
    volatile char *p = malloc(w->slack);
    for (size_t i = 0; p && i < w->slack; i += 4096) p[i] = 0;
    free((void *)p);
    return G_SOURCE_REMOVE;
}

static gboolean warm_now(gpointer data)
{
    Warm *w = data;
    w->source = 0;
#ifdef GDK_WINDOWING_X11
    if (!uses_cairo_x11(w)) return G_SOURCE_REMOVE;
    GdkSurface *s = gtk_native_get_surface(GTK_NATIVE(w->window));
    Display *dpy = gdk_x11_display_get_xdisplay(gdk_surface_get_display(s));
    Window xid = gdk_x11_surface_get_xid(s);
    XWindowAttributes wa;
    if (!XGetWindowAttributes(dpy, xid, &wa) || wa.width <= 0 || wa.height <= 0) return G_SOURCE_REMOVE;
    if (wa.width * wa.height > w->held_w * w->held_h) {
        cairo_surface_t *xs = cairo_xlib_surface_create(dpy, xid, wa.visual, wa.width, wa.height);
        cairo_surface_t *img = cairo_surface_create_similar_image(xs, CAIRO_FORMAT_ARGB32, wa.width, wa.height);
        if (cairo_surface_status(img) == CAIRO_STATUS_SUCCESS) {
            if (w->held) cairo_surface_destroy(w->held);
            w->held = img, w->held_w = wa.width, w->held_h = wa.height;
        } else
            cairo_surface_destroy(img);
        cairo_surface_destroy(xs);
    }
    /* one frame that repaints everything, the GL view included; then heap */
    if (w->viewport) motus_viewport_queue_render(w->viewport);
    XClearArea(dpy, xid, 0, 0, 0, 0, True);
    w->slack = MIN((size_t)4 * 4 * (size_t)wa.width * (size_t)wa.height, (size_t)30 << 20);
    w->source = g_timeout_add(250, warm_heap, w);
#endif
    return G_SOURCE_REMOVE;
}

static void warm_later(Warm *w, guint ms)
{
    if (w->source) g_source_remove(w->source);
    w->source = g_timeout_add(ms, warm_now, w);
}

/* A window that grows needs larger buffers: warm again once the resize has settled. */
static void surface_layout(GdkSurface *s, int width, int height, gpointer data)
{
    Warm *w = data;
    int k = gdk_surface_get_scale_factor(s);
    if (width * k * height * k > w->held_w * w->held_h) warm_later(w, 500);
}

static void window_mapped(GtkWidget *window, gpointer data)
{
    Warm *w = data;
    GdkSurface *s = gtk_native_get_surface(GTK_NATIVE(window));
    if (s && s != w->surface) {
        if (w->surface && w->layout_id) g_signal_handler_disconnect(w->surface, w->layout_id);
        g_set_object(&w->surface, s);
        w->layout_id = g_signal_connect(s, "layout", G_CALLBACK(surface_layout), w);
        w->held_w = w->held_h = 0;
    }
    warm_later(w, 300); /* after the first frames */
}

void motus_paint_warm_attach(GtkWindow *window, MotusViewport *viewport)
{
    static gsize once;
    if (g_once_init_enter(&once)) {
        /* freed paint buffers stay in the heap (glibc would map and unmap each) */
        mallopt(M_MMAP_THRESHOLD, 32 << 20);
        mallopt(M_TRIM_THRESHOLD, 128 << 20);
        g_once_init_leave(&once, 1);
    }
    Warm *w = g_new0(Warm, 1);
    w->window = GTK_WIDGET(window);
    w->viewport = viewport;
    g_object_set_data_full(G_OBJECT(window), warm_key, w, warm_free);
    g_signal_connect(window, "map", G_CALLBACK(window_mapped), w);
}

gboolean motus_paint_warm_held(GtkWindow *window, int *width, int *height)
{
    Warm *w = g_object_get_data(G_OBJECT(window), warm_key);
    if (width) *width = w && w->held ? w->held_w : 0;
    if (height) *height = w && w->held ? w->held_h : 0;
    return w && w->held;
}
