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
#include <string.h>

#include "motus/units.h"

/* What the user typed, with a unit written in the interface's language
 * ("25 мм") given its model name ("25 mm"), whole, however long (g_free it). */
static inline char *motus_delocalise(const char *text)
{
    size_t size = strlen(text) + 32; /* a model unit name is at most a few bytes longer than its label */
    char *out = g_malloc(size);
    if (mt_units_delocalise(text, out, size)) g_strlcpy(out, text, size);
    return out;
}

#endif
