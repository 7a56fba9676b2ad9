/* motus-i18n.h — user-visible strings of the application go through gettext
 * in the text domain "motus" (shared with the core and motus-cli; app/motus.c
 * binds it). _() for C strings; .ui files say translatable="yes" and
 * <interface domain="motus">. */
#ifndef MOTUS_I18N_H
#define MOTUS_I18N_H

#ifndef GETTEXT_PACKAGE
#define GETTEXT_PACKAGE "motus"
#endif
#include <glib/gi18n-lib.h>

#endif
