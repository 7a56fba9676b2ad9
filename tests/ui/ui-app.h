/* ui-app.h — what the GUI tests that drive the whole application by real
 * keys and clicks share (on top of ui-test.h's window and waits): the
 * GtkApplication set up as the program sets it up (motus_app_setup: its
 * actions and every key's accelerator; the program's resource path: the
 * shortcuts window), its main window shown and mapped, a model opened, a run
 * started with a real F5 and waited for, and the teardown. Included by one
 * test program each (its statics are that program's); link with Xtst. */
#ifndef MOTUS_UI_APP_H
#define MOTUS_UI_APP_H

#include "motus-app.h"
#include "ui-test.h"
#include "xinput.h"

static GtkApplication *app;

/* Lets the window handle what it was sent (keys that change nothing visible at once). */
static inline void settle(void) { settle_for(0.15); }
static inline gboolean mapped(void) { return gtk_widget_get_mapped(GTK_WIDGET(win)); }
static inline gboolean run_done(void) { return !motus_window_is_running(win) && motus_window_get_n_frames(win) > 0; }

/* The main window keeps the X focus (dialogs take it while they are up). */
static inline void focus_main(void)
{
    xin_focus(GTK_WIDGET(win));
    settle();
}

/* F5 pressed for real in the main window, then the run waited for to its end (the key handled
 * first: frames of a run before would pass for this one's) and its last frame shown. */
static inline void run_f5(void)
{
    focus_main();
    xin_press("F5");
    settle();
    g_assert_true(wait_for(run_done, 60));
    settle();
}

/* The popover of the view's eye button (what the view shows), when it has one; open_eye opens it by a click. */
static inline GtkWidget *eye_popover(void)
{
    GtkWidget *b = xin_find(GTK_WIDGET(win), xin_has_tooltip_prefix, "Show the trajectory");
    return b ? GTK_WIDGET(gtk_menu_button_get_popover(GTK_MENU_BUTTON(b))) : NULL;
}
static inline gboolean eye_open(void) { return eye_popover() && gtk_widget_get_mapped(eye_popover()); }
static inline void open_eye(void)
{
    if (eye_open()) return;
    xin_click(xin_find(GTK_WIDGET(win), xin_has_tooltip_prefix, "Show the trajectory"));
    g_assert_true(wait_for(eye_open, 5));
    settle();
}

/* The state of a boolean window action (win.NAME). */
static inline gboolean action_on(const char *name)
{
    g_autoptr(GVariant) v = g_action_group_get_action_state(G_ACTION_GROUP(win), name);
    return v && g_variant_get_boolean(v);
}

/* The shaker: a 1 kg slider driven along x at 20 Hz, 10 mm (joint sl, its sl.disp plotted), frames every
 * 1 ms for 2 s; written to dir/shaker.motus.txt, opened and run with F5. */
static inline void run_shaker(const char *dir)
{
    g_autofree char *path = g_build_filename(dir, "shaker.motus.txt", NULL);
    g_assert_true(g_file_set_contents(path,
                                      "solver method rk4 step 1e-3 until 2\nground\n marker rail z 1 0 0\nend\n"
                                      "body slider\n mass 1\n inertia 1e-3 1e-3 1e-3\n marker s z 1 0 0\nend\n"
                                      "joint sl prismatic slider.s ground.rail\ndriver d sl harmonic 0.01 {2*pi*20}\n"
                                      "plot sl.disp\n",
                                      -1, NULL));
    open_model(path);
    run_f5();
}

static void ui_app_on_startup(GApplication *a, gpointer data)
{
    (void)data;
    motus_app_setup(GTK_APPLICATION(a), "test");
}

/* GLib's test framework, GTK and the resources, the application registered under
 * its own id (tests run side by side) and its main window shown at 1200 x 760. */
static inline void ui_app_init(int *argc, char ***argv, const char *app_id)
{
    gtk_disable_setlocale();
    g_test_init(argc, argv, NULL);
    gtk_init();
    motus_ui_register_resources();
    app = gtk_application_new(app_id, G_APPLICATION_NON_UNIQUE);
    g_application_set_resource_base_path(G_APPLICATION(app), "/org/motus/Motus"); /* the program's */
    g_signal_connect(app, "startup", G_CALLBACK(ui_app_on_startup), NULL);
    g_assert_true(g_application_register(G_APPLICATION(app), NULL, NULL));
    win = motus_window_new(app);
    gtk_window_set_default_size(GTK_WINDOW(win), 1200, 760);
    gtk_window_present(GTK_WINDOW(win));
    g_assert_true(wait_for(mapped, 10));
}

/* The main window closed (unless a test closed it) and the application let go; returns rc. The
 * file choosers' folder reads finish and free what they hold before the leak check at exit (under
 * load one was still going: 128 bytes from g_realloc reported once in a few sanitizer runs). */
static inline int ui_app_finish(int rc)
{
    if (g_list_find(gtk_application_get_windows(app), win)) gtk_window_destroy(GTK_WINDOW(win));
    for (int i = 0; i < 3; i++) settle();
    g_object_unref(app);
    return rc;
}

#endif
