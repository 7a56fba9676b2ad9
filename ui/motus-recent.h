/* motus-recent.h — the list of recently opened projects and models: at most
 * ten absolute paths, newest first, kept in $XDG_CONFIG_HOME/motus/recent
 * (one path a line; files that are gone are left out when read). */
#ifndef MOTUS_RECENT_H
#define MOTUS_RECENT_H

#include <glib.h>

/* Puts path first in the list (and saves the list). */
void motus_recent_add(const char *path);
/* The list, newest first (free with g_strfreev); never NULL. */
char **motus_recent_list(void);
/* What the menu shows for path: the file's name and its folder, the home
 * folder written ~ ("four-bar.motus — ~/work/mechanisms"), so that two
 * projects of the same name are told apart. */
char *motus_recent_label(const char *path);

#endif
