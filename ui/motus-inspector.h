/* motus-inspector.h — the property inspector: every field of one entity of
 * the model being edited (mt_edit_fields), each with its value in the
 * project's display unit, an entry (or a drop-down for choices and markers)
 * and, when a value is refused, the message beside the field in red.
 *
 * Values are committed with Enter or when the entry loses the focus,
 * through mt_edit_set_field on the window's MtEditor, so every change is one
 * undoable edit and a refused value never reaches the model. "edited" tells
 * the window that the model changed. */
#ifndef MOTUS_INSPECTOR_H
#define MOTUS_INSPECTOR_H

#include <gtk/gtk.h>

#include "motus/edit.h"

G_BEGIN_DECLS

#define MOTUS_TYPE_INSPECTOR (motus_inspector_get_type())
G_DECLARE_FINAL_TYPE(MotusInspector, motus_inspector, MOTUS, INSPECTOR, GtkWidget)

GtkWidget *motus_inspector_new(void);
/* Shows the fields of (kind, index) of the editor's model (editor borrowed;
 * NULL or kind MT_EDIT_NKINDS: a hint instead). Values are re-read when the
 * entity is the one already shown; messages of refused values are cleared. */
void motus_inspector_show(MotusInspector *self, MtEditor *editor, MtEditKind kind, int index);
/* What Enter in a field's entry does, for tests and scripts: sets the text
 * and commits it; TRUE when the model took it. */
gboolean motus_inspector_enter(MotusInspector *self, const char *field, const char *text);
/* Text shown in a field's entry (or drop-down), and the message beside it ("" when none); NULL for no such field. */
const char *motus_inspector_get_text(MotusInspector *self, const char *field);
const char *motus_inspector_get_message(MotusInspector *self, const char *field);
/* Unit label of a field ("mm", "" for none); NULL for no such field. */
const char *motus_inspector_get_unit(MotusInspector *self, const char *field);
/* Puts the keyboard focus in a field's entry. */
void motus_inspector_focus(MotusInspector *self, const char *field);
/* Number of fields shown. */
int motus_inspector_n_fields(MotusInspector *self);

G_END_DECLS

#endif
