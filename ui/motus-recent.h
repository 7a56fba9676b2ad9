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

#endif
