/* motus-document.h — the document a window shows: the model being edited
 * (an MtEditor with its undo/redo and saved state), the file it came from
 * (a project, .motus, through MtStore, or a text model, .motus.txt), whether
 * that file can be written, and the scratch project that keeps the runs of a
 * document without a project until it is saved as one.
 *
 * It knows nothing of widgets: the window listens to its signals.
 *   "closing"        the document is about to be replaced: whatever
 *                    writes into its file or scratch project stops
 *   "changed"        the model changed (an edit, undo, redo, a new document)
 *   "replaced"       a new model or file replaced the old one (new, open)
 *   "saved"          written to its file (path as argument)
 *   notify::dirty, notify::path, notify::readonly
 * Plots belong to the window; saving takes them as arguments (the project's
 * layout JSON, the text model's `plot` lines). */
#ifndef MOTUS_DOCUMENT_H
#define MOTUS_DOCUMENT_H

#include <gio/gio.h>

#include "motus/edit.h"
#include "motus/store.h"

G_BEGIN_DECLS

#define MOTUS_TYPE_DOCUMENT (motus_document_get_type())
G_DECLARE_FINAL_TYPE(MotusDocument, motus_document, MOTUS, DOCUMENT, GObject)

MotusDocument *motus_document_new(void);

/* Replaces the model and file (takes ownership of editor and store; NULL
 * editor: nothing open). The scratch project goes with the old document. The
 * model pointer is NULL until motus_document_changed. Emits "closing",
 * then "replaced". */
void motus_document_replace(MotusDocument *self, MtEditor *editor, const char *path, MtStore *store);
/* A new project: the ground and gravity. */
void motus_document_new_project(MotusDocument *self);
/* Opens a project or a text model; recovered: runs of it marked interrupted. */
gboolean motus_document_open(MotusDocument *self, const char *path, int *recovered, GError **error);
/* After the editor changed the model: the model pointer refreshed, "changed"
 * and, when it changed, notify::dirty emitted. */
void motus_document_changed(MotusDocument *self);

/* Writes the document to its file; layout: the plots (JSON, for a project),
 * plot/nplot and derived/nderived: the same as `plot` and `derived` lines
 * (for a text model). */
gboolean motus_document_save(MotusDocument *self, const char *layout, const MtPlotSpec *plot, int nplot,
                             const MtDerivedSpec *derived, int nderived,
                             GError **error);
/* Writes it to path (a text model for *.txt, else a project that keeps the
 * runs of the open one or of the scratch project) and makes that its file. */
gboolean motus_document_save_as(MotusDocument *self, const char *path, const char *layout, const MtPlotSpec *plot,
                                int nplot, const MtDerivedSpec *derived, int nderived, GError **error);
/* The user chose to drop the changes: not dirty any more. */
void motus_document_forget_changes(MotusDocument *self);

gboolean motus_document_undo(MotusDocument *self, GError **error);
gboolean motus_document_redo(MotusDocument *self, GError **error);

/* The scratch project with the model as it is now, for a run of a document
 * without a project; NULL with error when it cannot be written. */
const char *motus_document_scratch_project(MotusDocument *self, GError **error);
/* Deletes the scratch project and its folder (no run of it may be going). */
void motus_document_drop_scratch(MotusDocument *self);

MtEditor *motus_document_get_editor(MotusDocument *self);
const MtModel *motus_document_get_model(MotusDocument *self);
const char *motus_document_get_path(MotusDocument *self);
MtStore *motus_document_get_store(MotusDocument *self);
gboolean motus_document_get_readonly(MotusDocument *self);
gboolean motus_document_get_dirty(MotusDocument *self);
/* Whether path names a text model (.txt, .motus.txt) rather than a project. */
gboolean motus_document_is_text_path(const char *path);

G_END_DECLS

#endif
