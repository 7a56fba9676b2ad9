/* motus-app.h — what the application installs once (motus_app_setup): its
 * own actions (app.about, app.quit) and the keyboard accelerators of every
 * window action, so the program and the tests that press real keys share
 * one table. Quitting closes each main window as its close button does
 * (asking about unsaved changes); the application ends with the last one. */
#ifndef MOTUS_APP_H
#define MOTUS_APP_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Call from the application's "startup" handler. */
void motus_app_setup(GtkApplication *app, const char *version);

/* What app.quit does: every main window is asked to close (a window with
 * unsaved changes asks first and stays if the user cancels); the
 * application quits once no main window is left. */
void motus_app_quit(GtkApplication *app);

G_END_DECLS

#endif
