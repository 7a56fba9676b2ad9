/* test_document.c — MotusDocument without a window: the signals a window
 * listens to (dirty, path, read-only, saved, closing before replaced), save
 * as a text model and as a project, open, undo back to the saved state, and
 * the scratch project of a document without one. No display needed. */
#include <glib/gstdio.h>
#include <string.h>

#include "motus-document.h"

typedef struct {
    int closing, replaced, changed, saved, dirty, path;
    char order[8]; /* "cr": closing came before replaced */
} Seen;

static void on_closing(MotusDocument *d, Seen *s) { (void)d; s->closing++; strcat(s->order, "c"); }
static void on_replaced(MotusDocument *d, Seen *s) { (void)d; s->replaced++; strcat(s->order, "r"); }
static void on_changed(MotusDocument *d, Seen *s) { (void)d; s->changed++; }
static void on_saved(MotusDocument *d, const char *path, Seen *s) { (void)d, (void)path; s->saved++; }
static void on_dirty(GObject *o, GParamSpec *p, Seen *s) { (void)o, (void)p; s->dirty++; }
static void on_path(GObject *o, GParamSpec *p, Seen *s) { (void)o, (void)p; s->path++; }

static void add_body(MotusDocument *doc)
{
    MtBodyDef def;
    mt_body_def_default(&def);
    MtError err = {0};
    int b = -1;
    g_assert_cmpint(mt_edit_add_body(motus_document_get_editor(doc), &def, &b, &err), ==, MT_OK);
    motus_document_changed(doc);
}

int main(void)
{
    g_autofree char *dir = g_dir_make_tmp("motus-doc-XXXXXX", NULL);
    g_assert_nonnull(dir);
    MotusDocument *doc = motus_document_new();
    Seen s = {0};
    g_signal_connect(doc, "closing", G_CALLBACK(on_closing), &s);
    g_signal_connect(doc, "replaced", G_CALLBACK(on_replaced), &s);
    g_signal_connect(doc, "changed", G_CALLBACK(on_changed), &s);
    g_signal_connect(doc, "saved", G_CALLBACK(on_saved), &s);
    g_signal_connect(doc, "notify::dirty", G_CALLBACK(on_dirty), &s);
    g_signal_connect(doc, "notify::path", G_CALLBACK(on_path), &s);

    /* a new project: nothing to save yet, no file */
    motus_document_new_project(doc);
    g_assert_cmpstr(s.order, ==, "cr");
    motus_document_changed(doc);
    g_assert_nonnull(motus_document_get_model(doc));
    g_assert_false(motus_document_get_dirty(doc));
    g_assert_null(motus_document_get_path(doc));
    GError *error = NULL;
    g_assert_false(motus_document_save(doc, "[]", NULL, 0, NULL, 0, &error));
    g_clear_error(&error);

    /* an edit makes it dirty (notified once), undo makes it clean again */
    add_body(doc);
    g_assert_true(motus_document_get_dirty(doc));
    g_assert_cmpint(s.dirty, ==, 1);
    g_assert_true(motus_document_undo(doc, NULL));
    motus_document_changed(doc);
    g_assert_false(motus_document_get_dirty(doc));
    g_assert_cmpint(s.dirty, ==, 2);
    g_assert_true(motus_document_redo(doc, NULL));
    motus_document_changed(doc);
    g_assert_true(motus_document_get_dirty(doc));

    /* its runs would go to a scratch project, which Save As brings along, then drops */
    const char *scratch = motus_document_scratch_project(doc, &error);
    g_assert_no_error(error);
    g_autofree char *scratch_copy = g_strdup(scratch);
    g_assert_true(g_file_test(scratch_copy, G_FILE_TEST_EXISTS));
    g_autofree char *proj = g_build_filename(dir, "a.motus", NULL);
    g_assert_true(motus_document_save_as(doc, proj, "[]", NULL, 0, NULL, 0, &error));
    g_assert_no_error(error);
    g_assert_false(g_file_test(scratch_copy, G_FILE_TEST_EXISTS));
    g_assert_cmpstr(motus_document_get_path(doc), ==, proj);
    g_assert_nonnull(motus_document_get_store(doc));
    g_assert_false(motus_document_get_dirty(doc));
    g_assert_cmpint(s.saved, ==, 1);
    g_assert_cmpint(s.path, >=, 1);

    /* as a text model: no store; saved again in place */
    g_autofree char *text = g_build_filename(dir, "a.motus.txt", NULL);
    g_assert_true(motus_document_save_as(doc, text, "[]", NULL, 0, NULL, 0, &error));
    g_assert_no_error(error);
    g_assert_null(motus_document_get_store(doc));
    add_body(doc);
    g_assert_true(motus_document_save(doc, "[]", NULL, 0, NULL, 0, &error));
    g_assert_no_error(error);
    g_assert_cmpint(s.saved, ==, 3);

    /* opened again: two bodies (the one added, redone, and the second) */
    s.order[0] = 0;
    int recovered = -1;
    g_assert_true(motus_document_open(doc, text, &recovered, &error));
    g_assert_no_error(error);
    g_assert_cmpint(recovered, ==, 0);
    g_assert_cmpstr(s.order, ==, "cr");
    motus_document_changed(doc);
    g_assert_cmpint(motus_document_get_model(doc)->nbody, ==, 2);
    g_assert_false(motus_document_get_dirty(doc));
    g_assert_true(motus_document_open(doc, proj, NULL, &error));
    motus_document_changed(doc);
    g_assert_cmpint(motus_document_get_model(doc)->nbody, ==, 1);
    g_assert_false(motus_document_open(doc, "/nonexistent/x.motus.txt", NULL, &error));
    g_clear_error(&error);
    g_assert_cmpstr(motus_document_get_path(doc), ==, proj); /* a failed open keeps the document */
    g_assert_cmpint(s.changed, >=, 6);

    g_object_unref(doc);
    g_unlink(proj);
    g_unlink(text);
    g_rmdir(dir);
    return 0;
}
