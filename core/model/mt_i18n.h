/* mt_i18n.h — marking the core's user-visible messages for translation.
 *
 * Every message the core hands to a user (the MtError text in particular) is
 * looked up in the gettext text domain "motus" with MT_("..."), at the point
 * where it is formatted: mt_error_set(err, code, entity, MT_("body '%s': ..."), ...).
 * MT_ calls dgettext with the domain spelled out, so the core needs nothing
 * but glibc's libintl (no GTK/GLib) and works whatever text domain the
 * program has chosen. Until the program calls setlocale() (the core tests
 * never do) dgettext returns the English text unchanged.
 *
 * MT_N_("...") only marks a string for extraction (static tables); translate
 * it where it is used with MT_(table[i]).
 *
 * The program binds the domain to its catalogue directory
 * (bindtextdomain("motus", dir)); po/ holds the catalogues and po/po-tool.sh
 * (target update-po) lists the xgettext keywords: MT_, MT_N_, MT_NC_, _ and N_. */
#ifndef MT_I18N_H
#define MT_I18N_H

#include <libintl.h>

#define MT_TEXT_DOMAIN "motus"
#define MT_(s) dgettext("motus", s)
#define MT_N_(s) (s)
/* A word that needs a context to translate (the kind of entity it names):
 * marked with MT_NC_("context", "word") in a table, looked up with
 * mt_pgettext("context", table[i]) (core/model/mt_labels.c). */
#define MT_NC_(c, s) (s)
const char *mt_pgettext(const char *context, const char *msgid);

#endif
