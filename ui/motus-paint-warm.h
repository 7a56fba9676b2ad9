/* motus-paint-warm.h — keeps GTK's paint memory warm on X11's software path
 * (see motus-paint-warm.c for why). */
#pragma once

#include <gtk/gtk.h>

#include "motus-viewport.h"

/* Once the window is mapped (and whenever it has grown), holds a window-sized
 * image from cairo's X shared-memory pool and repaints the whole window and
 * viewport (may be NULL) once. Does nothing unless GTK paints with its cairo
 * renderer on X11. Also keeps freed heap blocks up to 32 MiB in the process. */
void motus_paint_warm_attach(GtkWindow *window, MotusViewport *viewport);

/* TRUE when an image is held; its size in device pixels. */
gboolean motus_paint_warm_held(GtkWindow *window, int *width, int *height);
