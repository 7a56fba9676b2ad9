/* motus-document.c — the document: model, file, undo/redo, saved state and
 * the scratch project (see motus-document.h). Writing is atomic for text
 * models (a temporary file renamed over the old one); a project saved under a
 * new name is a copy of the open one (mt_project_save_copy), so its runs
 * come along. */
#include "motus-document.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "motus-i18n.h"
#include "motus/project.h"

struct _MotusDocument {
    GObject parent_instance;
    MtEditor *editor;     /* the model being edited; NULL when nothing is open */
    const MtModel *model; /* = mt_editor_model(editor) as of the last motus_document_changed */
    char *path;           /* the project (.motus) or text model (.motus.txt); NULL for a new project */
    MtStore *store;       /* the open project (this thread's handle); NULL for text models and new projects */
    gboolean readonly;    /* the project file cannot be written */
    gboolean dirty;       /* as last notified */
    char *scratch;        /* a project in a temporary folder holding the runs of a document without one (a new
                           * project, a text model) until it is saved as a project; NULL before its first run */
};

G_DEFINE_FINAL_TYPE(MotusDocument, motus_document, G_TYPE_OBJECT)

enum { PROP_0, PROP_PATH, PROP_READONLY, PROP_DIRTY, N_PROPS };
static GParamSpec *props[N_PROPS];
enum { SIG_CLOSING, SIG_CHANGED, SIG_REPLACED, SIG_SAVED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
    MotusDocument *self = MOTUS_DOCUMENT(object);
    switch (id) {
    case PROP_PATH: g_value_set_string(value, self->path); break;
    case PROP_READONLY: g_value_set_boolean(value, self->readonly); break;
    case PROP_DIRTY: g_value_set_boolean(value, motus_document_get_dirty(self)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void finalize(GObject *object)
{
    MotusDocument *self = MOTUS_DOCUMENT(object);
    motus_document_drop_scratch(self);
    g_clear_pointer(&self->editor, mt_editor_free);
    g_clear_pointer(&self->store, mt_store_close);
    g_free(self->path);
    G_OBJECT_CLASS(motus_document_parent_class)->finalize(object);
}

static void motus_document_class_init(MotusDocumentClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    oc->get_property = get_property;
    oc->finalize = finalize;
    props[PROP_PATH] = g_param_spec_string("path", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
    props[PROP_READONLY] =
        g_param_spec_boolean("readonly", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
    props[PROP_DIRTY] = g_param_spec_boolean("dirty", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
    g_object_class_install_properties(oc, N_PROPS, props);
    signals[SIG_CLOSING] =
        g_signal_new("closing", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
    signals[SIG_CHANGED] =
        g_signal_new("changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
    signals[SIG_REPLACED] =
        g_signal_new("replaced", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
    signals[SIG_SAVED] = g_signal_new("saved", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                      G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void motus_document_init(MotusDocument *self) { (void)self; }

MotusDocument *motus_document_new(void) { return g_object_new(MOTUS_TYPE_DOCUMENT, NULL); }

/* notify::dirty when the editor's saved state moved since the last time. */
static void sync_dirty(MotusDocument *self)
{
    gboolean d = motus_document_get_dirty(self);
    if (d == self->dirty) return;
    self->dirty = d;
    g_object_notify_by_pspec(G_OBJECT(self), props[PROP_DIRTY]);
}

static void set_path(MotusDocument *self, const char *path)
{
    if (g_strcmp0(path, self->path) == 0) return;
    g_free(self->path);
    self->path = g_strdup(path);
    g_object_notify_by_pspec(G_OBJECT(self), props[PROP_PATH]);
}

static void set_readonly(MotusDocument *self, gboolean readonly)
{
    if (readonly == self->readonly) return;
    self->readonly = readonly;
    g_object_notify_by_pspec(G_OBJECT(self), props[PROP_READONLY]);
}

void motus_document_replace(MotusDocument *self, MtEditor *editor, const char *path, MtStore *store)
{
    g_signal_emit(self, signals[SIG_CLOSING], 0); /* runs writing into the old file or scratch project stop */
    g_clear_pointer(&self->editor, mt_editor_free);
    g_clear_pointer(&self->store, mt_store_close);
    motus_document_drop_scratch(self);
    self->editor = editor;
    self->store = store;
    self->model = NULL;
    g_object_freeze_notify(G_OBJECT(self));
    set_path(self, path);
    set_readonly(self, store && mt_store_readonly(store));
    sync_dirty(self);
    g_object_thaw_notify(G_OBJECT(self));
    g_signal_emit(self, signals[SIG_REPLACED], 0);
}

void motus_document_new_project(MotusDocument *self)
{
    motus_document_replace(self, mt_editor_new(mt_edit_new_model()), NULL, NULL);
}

gboolean motus_document_open(MotusDocument *self, const char *path, int *recovered, GError **error)
{
    MtError err = {0};
    MtStore *store = NULL;
    MtModel *m = NULL;
    if (mt_store_is_sqlite_file(path) || g_str_has_suffix(path, ".motus")) { /* an empty or damaged .motus is refused as a project */
        /* a project; opened read-only when the file cannot be written */
        store = mt_store_open(path, 0, &err);
        if (!store && g_access(path, W_OK) != 0) {
            MtError e2 = {0};
            store = mt_store_open(path, MT_STORE_READONLY, &e2);
        }
        m = store ? mt_store_load_model(store, NULL, &err) : NULL;
    } else {
        m = mt_model_load(path, &err);
    }
    if (!m) {
        mt_store_close(store);
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s", err.msg);
        return FALSE;
    }
    if (recovered) *recovered = store ? mt_store_recovered_runs(store) : 0;
    motus_document_replace(self, mt_editor_new(m), path, store);
    return TRUE;
}

void motus_document_changed(MotusDocument *self)
{
    self->model = self->editor ? mt_editor_model(self->editor) : NULL;
    g_signal_emit(self, signals[SIG_CHANGED], 0);
    sync_dirty(self);
}

/* ---- saving ---------------------------------------------------------------------- */

/* Writes a text model atomically (a temporary file renamed over it). */
static gboolean write_model(const MtModel *m, const char *path, GError **error)
{
    g_autofree char *tmp = g_strdup_printf("%s.XXXXXX", path);
    int fd = g_mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    MtError err = {0};
    if (!f) {
        g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno), _("cannot write '%s': %s"), path, g_strerror(errno));
        if (fd >= 0) close(fd);
        return FALSE;
    }
    MtStatus rc = mt_model_write(m, f, &err);
    if (fclose(f) != 0 && rc == MT_OK) rc = mt_error_set(&err, MT_ERR_IO, path, "%s", g_strerror(errno));
    if (rc != MT_OK || g_rename(tmp, path) != 0) {
        g_unlink(tmp);
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, _("cannot write '%s': %s"), path,
                    rc ? err.msg : g_strerror(errno));
        return FALSE;
    }
    return TRUE;
}

/* The model in its text form with the plots as its `plot` lines. */
static gboolean write_text(MotusDocument *self, const char *path, const MtPlotSpec *plot, int nplot,
                           const MtDerivedSpec *derived, int nderived, GError **error)
{
    MtModel *m = mt_model_copy(self->model);
    if (!m) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", _("out of memory"));
        return FALSE;
    }
    m->nplot = MIN(nplot, MT_PLOT_MAX);
    if (m->nplot > 0) memcpy(m->plot, plot, sizeof *plot * (size_t)m->nplot);
    m->nderived = MIN(nderived, MT_DERIVED_MAX);
    if (m->nderived > 0) memcpy(m->derived, derived, sizeof *derived * (size_t)m->nderived);
    gboolean ok = write_model(m, path, error);
    mt_model_free(m);
    return ok;
}

static void saved(MotusDocument *self)
{
    mt_editor_mark_saved(self->editor);
    sync_dirty(self);
    g_signal_emit(self, signals[SIG_SAVED], 0, self->path);
}

gboolean motus_document_save(MotusDocument *self, const char *layout, const MtPlotSpec *plot, int nplot,
                             const MtDerivedSpec *derived, int nderived, GError **error)
{
    if (!self->editor) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", _("nothing to save"));
        return FALSE;
    }
    if (!self->path) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", _("the new project has no file yet: use Save As"));
        return FALSE;
    }
    if (self->readonly) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_READ_ONLY, _("'%s' is read-only: use Save As"), self->path);
        return FALSE;
    }
    if (self->store) {
        MtError err = {0};
        if (mt_store_save_model(self->store, self->model, NULL, &err) != MT_OK ||
            mt_store_save_plot(self->store, "layout", layout, &err) != MT_OK) {
            g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", err.msg);
            return FALSE;
        }
    } else if (!write_text(self, self->path, plot, nplot, derived, nderived, error)) {
        return FALSE;
    }
    saved(self);
    return TRUE;
}

/* A project at path: a copy of the open one or of the scratch project (the
 * runs made before saving come along) or a new file, then the model saved in
 * it. Returns the open store, or NULL with error. */
static MtStore *write_project(MotusDocument *self, const char *path, const char *layout, GError **error)
{
    MtError err = {0};
    MtStore *scratch = !self->store && self->scratch ? mt_store_open(self->scratch, 0, &err) : NULL;
    MtStore *from = self->store ? self->store : scratch;
    if (from && (!self->path || strcmp(path, self->path))) {
        MtStatus rc = mt_project_save_copy(from, path, &err);
        mt_store_close(scratch);
        if (rc != MT_OK) {
            g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", err.msg);
            return NULL;
        }
    } else {
        mt_store_close(scratch);
        if (!self->store && g_file_test(path, G_FILE_TEST_EXISTS) && g_unlink(path) != 0) {
            g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno), _("cannot replace '%s': %s"), path,
                        g_strerror(errno));
            return NULL;
        }
    }
    MtStore *s = mt_store_open(path, MT_STORE_CREATE, &err);
    if (!s || mt_store_save_model(s, self->model, NULL, &err) != MT_OK ||
        mt_store_save_plot(s, "layout", layout, &err) != MT_OK) {
        mt_store_close(s);
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", err.msg);
        return NULL;
    }
    return s;
}

gboolean motus_document_save_as(MotusDocument *self, const char *path, const char *layout, const MtPlotSpec *plot,
                                int nplot, const MtDerivedSpec *derived, int nderived, GError **error)
{
    if (!self->editor) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", _("nothing to save"));
        return FALSE;
    }
    g_object_freeze_notify(G_OBJECT(self));
    if (motus_document_is_text_path(path)) { /* the text form: the model only */
        if (!write_text(self, path, plot, nplot, derived, nderived, error)) goto fail;
        g_clear_pointer(&self->store, mt_store_close);
    } else {
        MtStore *s = write_project(self, path, layout, error);
        if (!s) goto fail;
        g_clear_pointer(&self->store, mt_store_close);
        self->store = s;
        motus_document_drop_scratch(self); /* its runs are in the project now */
    }
    set_readonly(self, FALSE);
    set_path(self, path);
    saved(self);
    g_object_thaw_notify(G_OBJECT(self));
    return TRUE;
fail:
    g_object_thaw_notify(G_OBJECT(self));
    return FALSE;
}

void motus_document_forget_changes(MotusDocument *self)
{
    if (self->editor) mt_editor_mark_saved(self->editor);
    sync_dirty(self);
}

gboolean motus_document_undo(MotusDocument *self, GError **error)
{
    MtError err = {0};
    if (!self->editor || !mt_editor_can_undo(self->editor)) return FALSE;
    if (mt_editor_undo(self->editor, &err) != MT_OK) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", err.msg);
        return FALSE;
    }
    return TRUE;
}

gboolean motus_document_redo(MotusDocument *self, GError **error)
{
    MtError err = {0};
    if (!self->editor || !mt_editor_can_redo(self->editor)) return FALSE;
    if (mt_editor_redo(self->editor, &err) != MT_OK) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", err.msg);
        return FALSE;
    }
    return TRUE;
}

/* ---- runs of a document without a project -------------------------------------------- */

/* A new version of the model is stored each time, so that a run belongs to
 * the model it ran; Save As keeps them. */
const char *motus_document_scratch_project(MotusDocument *self, GError **error)
{
    if (!self->scratch) {
        g_autofree char *dir = g_dir_make_tmp("motus-runs-XXXXXX", NULL);
        if (!dir) {
            g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, _("cannot make a folder for the runs in '%s'"),
                        g_get_tmp_dir());
            return NULL;
        }
        self->scratch = g_build_filename(dir, "runs.motus", NULL);
    }
    MtError err = {0};
    MtStore *s = mt_store_open(self->scratch, MT_STORE_CREATE, &err);
    if (!s || mt_store_save_model(s, self->model, NULL, &err) != MT_OK) {
        mt_store_close(s);
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", err.msg);
        return NULL;
    }
    mt_store_close(s);
    return self->scratch;
}

void motus_document_drop_scratch(MotusDocument *self)
{
    if (!self->scratch) return;
    static const char *const tails[] = {"", "-wal", "-shm", "-journal"};
    for (guint i = 0; i < G_N_ELEMENTS(tails); i++) {
        g_autofree char *f = g_strconcat(self->scratch, tails[i], NULL);
        g_unlink(f);
    }
    g_autofree char *dir = g_path_get_dirname(self->scratch);
    g_rmdir(dir);
    g_clear_pointer(&self->scratch, g_free);
}

/* ---- properties ---------------------------------------------------------------------- */

MtEditor *motus_document_get_editor(MotusDocument *self) { return self->editor; }
const MtModel *motus_document_get_model(MotusDocument *self) { return self->model; }
const char *motus_document_get_path(MotusDocument *self) { return self->path; }
MtStore *motus_document_get_store(MotusDocument *self) { return self->store; }
gboolean motus_document_get_readonly(MotusDocument *self) { return self->readonly; }
gboolean motus_document_get_dirty(MotusDocument *self) { return self->editor && mt_editor_dirty(self->editor); }

gboolean motus_document_is_text_path(const char *path)
{
    return g_str_has_suffix(path, ".txt") || g_str_has_suffix(path, ".motus.txt");
}
