/* ui-test.h — what every in-process test of the main window under Xvfb
 * shares: the window and its set-up, a model opened in it, the main loop run
 * until a condition holds, and a wait for the 3D view to draw a new frame. Included by one test program each
 * (its statics are that program's). */
#ifndef MOTUS_UI_TEST_H
#define MOTUS_UI_TEST_H

#include <gtk/gtk.h>
#include <stdio.h>

#include "motus-viewport.h"
#include "motus-window.h"
#include "ui-wait.h"

static MotusWindow *win;
static guint frames_mark;

/* GLib's test framework, GTK, the resources and the window in batch mode
 * (errors printed, no dialogs); not shown yet. */
static inline void ui_test_init(int *argc, char ***argv)
{
    gtk_disable_setlocale();
    g_test_init(argc, argv, NULL);
    gtk_init();
    motus_ui_register_resources();
    win = motus_window_new(NULL);
    motus_window_set_batch(win, TRUE);
}

/* Opens a model or project file in the window (a test's given: it must open). */
static inline void open_model(const char *path)
{
    g_autoptr(GFile) f = g_file_new_for_path(path);
    g_autoptr(GError) error = NULL;
    gboolean opened = motus_window_open_file(win, f, &error);
    g_assert_no_error(error); /* (first: says why it did not open) */
    g_assert_true(opened);
}

static inline MotusViewport *viewport(void) { return MOTUS_VIEWPORT(motus_window_get_viewport(win)); }
static inline const MtModel *model(void) { return mt_editor_model(motus_window_get_editor(win)); }

/* The open model in its text form (free() it): edits compared whole. */
static inline char *model_text(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    mt_model_write(model(), f, NULL);
    fclose(f);
    return buf;
}
static inline gboolean drawn(void) { return motus_viewport_get_frames_drawn(viewport()) > frames_mark; }

/* Asks the 3D view for a frame and waits until it is drawn. */
static inline void wait_drawn(void)
{
    frames_mark = motus_viewport_get_frames_drawn(viewport());
    motus_viewport_queue_render(viewport());
    g_assert_true(wait_for(drawn, 20));
}

#endif
