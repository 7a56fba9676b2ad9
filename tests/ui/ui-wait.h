/* ui-wait.h — what every GUI test does between its events: turn the main
 * loop until a condition holds or for a while, and save a PNG of a widget
 * as drawn (an artifact for a person to look at, in MOTUS_OUT_DIR). */
#ifndef MOTUS_UI_WAIT_H
#define MOTUS_UI_WAIT_H

#include <gtk/gtk.h>

typedef gboolean (*Cond)(void);

/* A timer that wakes the loop, so that waits notice time passing. */
static inline gboolean ui_wake(gpointer data)
{
    (void)data;
    return G_SOURCE_CONTINUE;
}

/* Runs the main loop until cond() holds; FALSE after `seconds`. */
static inline gboolean wait_for(Cond cond, double seconds)
{
    gint64 end = g_get_monotonic_time() + (gint64)(seconds * 1e6);
    guint id = g_timeout_add(10, ui_wake, NULL);
    gboolean ok = TRUE;
    while (!cond()) {
        if (g_get_monotonic_time() > end) {
            ok = FALSE;
            break;
        }
        g_main_context_iteration(NULL, TRUE);
    }
    g_source_remove(id);
    return ok;
}

/* Runs the main loop for `seconds` (lets the window handle what it was sent). */
static inline void settle_for(double seconds)
{
    gint64 end = g_get_monotonic_time() + (gint64)(seconds * 1e6);
    guint id = g_timeout_add(10, ui_wake, NULL);
    while (g_get_monotonic_time() < end) g_main_context_iteration(NULL, TRUE);
    g_source_remove(id);
}

#ifdef MOTUS_OUT_DIR
/* A PNG of a widget as drawn, MOTUS_OUT_DIR/name. */
static inline void shot(GtkWidget *w, const char *name)
{
    int width = gtk_widget_get_width(w), height = gtk_widget_get_height(w);
    GdkPaintable *p = gtk_widget_paintable_new(w);
    GtkSnapshot *snap = gtk_snapshot_new();
    gdk_paintable_snapshot(p, snap, width, height);
    GskRenderNode *node = gtk_snapshot_free_to_node(snap);
    if (node) {
        GdkTexture *t = gsk_renderer_render_texture(gtk_native_get_renderer(GTK_NATIVE(w)), node,
                                                    &GRAPHENE_RECT_INIT(0, 0, width, height));
        g_autofree char *path = g_build_filename(MOTUS_OUT_DIR, name, NULL);
        gdk_texture_save_to_png(t, path);
        g_object_unref(t);
        gsk_render_node_unref(node);
    }
    g_object_unref(p);
}
#endif

#endif
