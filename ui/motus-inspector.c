/* motus-inspector.c — the property inspector (see motus-inspector.h): a
 * scrolled grid of rows label | editor | unit in sections (core's
 * MtFieldInfo.section: General, Inertia, Placement …), with a message row
 * under a field whose value was refused. A number is shown readably — to 6
 * significant digits, in a readable multiple of its unit when it would
 * read badly in its display unit (−40.3 nm, not −4.03e-08 m; shown_unit) —
 * and exactly, in that unit, while its entry has the focus. */
#include "motus-inspector.h"

#include <math.h>
#include <string.h>

#include "motus-i18n.h"
#include "motus/units.h"

typedef struct {
    MtFieldInfo info;
    GtkWidget *label, *editor, *unit, *message;
    GtkStringList *choices; /* drop-downs */
    char *shown;            /* the model's text of the field when last read, as the entry shows it */
    const MtUnit *in;       /* the unit a number is shown and typed in (NULL: as the model writes it) */
    char *exact;            /* a number, exactly in that unit (the entry's text while it has the focus) */
} Row;

struct _MotusInspector {
    GtkWidget parent_instance;
    GtkWidget *box, *title, *scroller, *grid, *hint;
    MtEditor *editor; /* borrowed */
    MtEditKind kind;
    int index;
    Row *rows;
    int nrows;
    gboolean quiet; /* widgets being filled in: no commits */
};

G_DEFINE_TYPE(MotusInspector, motus_inspector, GTK_TYPE_WIDGET)

enum { SIG_EDITED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void clear_rows(MotusInspector *self)
{
    for (int i = 0; i < self->nrows; i++) {
        g_clear_object(&self->rows[i].choices);
        g_free(self->rows[i].shown);
        g_free(self->rows[i].exact);
    }
    g_clear_pointer(&self->rows, g_free);
    self->nrows = 0;
    GtkWidget *c;
    while ((c = gtk_widget_get_first_child(self->grid))) gtk_grid_remove(GTK_GRID(self->grid), c);
}

static void motus_inspector_dispose(GObject *object)
{
    MotusInspector *self = MOTUS_INSPECTOR(object);
    if (self->grid) clear_rows(self);
    g_clear_pointer(&self->box, gtk_widget_unparent);
    self->grid = NULL;
    G_OBJECT_CLASS(motus_inspector_parent_class)->dispose(object);
}

static void motus_inspector_class_init(MotusInspectorClass *klass)
{
    G_OBJECT_CLASS(klass)->dispose = motus_inspector_dispose;
    gtk_widget_class_set_layout_manager_type(GTK_WIDGET_CLASS(klass), GTK_TYPE_BIN_LAYOUT);
    gtk_widget_class_set_css_name(GTK_WIDGET_CLASS(klass), "motus-inspector");
    /* A value was accepted: the model changed (one undoable edit). */
    signals[SIG_EDITED] =
        g_signal_new("edited", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void motus_inspector_init(MotusInspector *self)
{
    self->kind = MT_EDIT_NKINDS;
    self->box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
    gtk_widget_set_parent(self->box, GTK_WIDGET(self));
    self->title = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(self->title), 0);
    gtk_label_set_ellipsize(GTK_LABEL(self->title), PANGO_ELLIPSIZE_END);
    gtk_widget_add_css_class(self->title, "heading");
    gtk_widget_set_margin_start(self->title, 12);
    gtk_widget_set_margin_top(self->title, 6);
    gtk_box_append(GTK_BOX(self->box), self->title);
    self->hint = gtk_label_new(_("Select an entity in the tree or the view to see and edit its properties."));
    gtk_label_set_wrap(GTK_LABEL(self->hint), TRUE);
    gtk_label_set_xalign(GTK_LABEL(self->hint), 0);
    gtk_widget_add_css_class(self->hint, "dim-label");
    gtk_widget_set_margin_start(self->hint, 12);
    gtk_widget_set_margin_end(self->hint, 12);
    gtk_box_append(GTK_BOX(self->box), self->hint);
    self->scroller = gtk_scrolled_window_new();
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(self->scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
    gtk_widget_set_vexpand(self->scroller, TRUE);
    self->grid = gtk_grid_new();
    gtk_grid_set_row_spacing(GTK_GRID(self->grid), 3);
    gtk_grid_set_column_spacing(GTK_GRID(self->grid), 6);
    gtk_widget_set_margin_start(self->grid, 12);
    gtk_widget_set_margin_end(self->grid, 8);
    gtk_widget_set_margin_bottom(self->grid, 8);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(self->scroller), self->grid);
    gtk_box_append(GTK_BOX(self->box), self->scroller);
}

GtkWidget *motus_inspector_new(void) { return g_object_new(MOTUS_TYPE_INSPECTOR, NULL); }

static Row *find_row(MotusInspector *self, const char *field)
{
    for (int i = 0; i < self->nrows; i++)
        if (!strcmp(self->rows[i].info.name, field)) return &self->rows[i];
    return NULL;
}

static void set_message(Row *r, const char *msg)
{
    gtk_label_set_text(GTK_LABEL(r->message), msg ? msg : "");
    gtk_widget_set_visible(r->message, msg && msg[0]);
    if (msg && msg[0])
        gtk_widget_add_css_class(r->editor, "error");
    else
        gtk_widget_remove_css_class(r->editor, "error");
}

/* A choice as the drop-down shows it (the list holds the keywords): its
 * words in the user's language, ellipsized in the button so that a long one
 * does not widen the inspector's pane, whole in the list. */
static void choice_setup(GtkSignalListItemFactory *f, GtkListItem *item, gpointer ellipsize)
{
    (void)f;
    GtkWidget *l = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(l), 0);
    if (ellipsize) gtk_label_set_ellipsize(GTK_LABEL(l), PANGO_ELLIPSIZE_END);
    gtk_list_item_set_child(item, l);
}

static void choice_bind(GtkSignalListItemFactory *f, GtkListItem *item, gpointer data)
{
    (void)data;
    GtkStringObject *s = gtk_list_item_get_item(item);
    const char *label = mt_edit_choice_label(g_object_get_data(G_OBJECT(f), "field"), s ? gtk_string_object_get_string(s) : NULL);
    gtk_label_set_text(GTK_LABEL(gtk_list_item_get_child(item)), label);
    gtk_widget_set_tooltip_text(gtk_list_item_get_child(item), label);
}

static GtkListItemFactory *choice_factory(const char *field, gboolean ellipsize)
{
    GtkListItemFactory *f = gtk_signal_list_item_factory_new();
    g_object_set_data_full(G_OBJECT(f), "field", g_strdup(field), g_free);
    g_signal_connect(f, "setup", G_CALLBACK(choice_setup), GINT_TO_POINTER(ellipsize));
    g_signal_connect(f, "bind", G_CALLBACK(choice_bind), NULL);
    return f;
}

static const char *row_text(Row *r)
{
    if (GTK_IS_DROP_DOWN(r->editor)) {
        guint i = gtk_drop_down_get_selected(GTK_DROP_DOWN(r->editor));
        return i == GTK_INVALID_LIST_POSITION ? "" : gtk_string_list_get_string(r->choices, i);
    }
    return gtk_editable_get_text(GTK_EDITABLE(r->editor));
}

/* Commits the text of a row; TRUE when the model took it (or nothing changed). */
static gboolean commit(MotusInspector *self, Row *r)
{
    if (self->quiet || !self->editor) return FALSE;
    const char *text = row_text(r);
    if ((r->shown && !strcmp(text, r->shown)) || (r->exact && !strcmp(text, r->exact))) {
        set_message(r, NULL);
        return TRUE;
    }
    /* a bare number is in the unit shown beside it (which may be a readable multiple of the display unit) */
    g_autofree char *with_unit = NULL;
    char *end;
    g_ascii_strtod(text, &end);
    if (r->in && end != text && !end[strspn(end, " ")]) text = with_unit = g_strdup_printf("%s %s", text, r->in->name);
    MtError err = {0};
    char field[sizeof r->info.name];
    g_strlcpy(field, r->info.name, sizeof field);
    /* units typed as the interface shows them ("25 мм") are stored as their symbols */
    g_autofree char *typed = motus_delocalise(text);
    if (mt_edit_set_field(self->editor, self->kind, self->index, field, typed, &err) != MT_OK) {
        set_message(r, err.msg);
        return FALSE;
    }
    set_message(r, NULL);
    /* the window re-reads every field (and may rebuild this inspector) */
    g_signal_emit(self, signals[SIG_EDITED], 0);
    return TRUE;
}

static void entry_activated(GtkEntry *e, gpointer data)
{
    MotusInspector *self = data;
    for (int i = 0; i < self->nrows; i++)
        if (self->rows[i].editor == GTK_WIDGET(e)) {
            commit(self, &self->rows[i]);
            return;
        }
}

/* Editing starts from the exact value (what the row shows is rounded to 6 digits). */
static void focus_entered(GtkEventControllerFocus *c, gpointer data)
{
    MotusInspector *self = data;
    GtkWidget *w = gtk_event_controller_get_widget(GTK_EVENT_CONTROLLER(c));
    for (int i = 0; i < self->nrows; i++)
        if (self->rows[i].editor == w && self->rows[i].exact &&
            !strcmp(gtk_editable_get_text(GTK_EDITABLE(w)), self->rows[i].shown)) {
            self->quiet = TRUE;
            gtk_editable_set_text(GTK_EDITABLE(w), self->rows[i].exact);
            self->quiet = FALSE;
            return;
        }
}

static void focus_left(GtkEventControllerFocus *c, gpointer data)
{
    MotusInspector *self = data;
    GtkWidget *w = gtk_event_controller_get_widget(GTK_EVENT_CONTROLLER(c));
    for (int i = 0; i < self->nrows; i++)
        if (self->rows[i].editor == w) {
            commit(self, &self->rows[i]);
            return;
        }
}

static void choice_changed(GtkDropDown *dd, GParamSpec *pspec, gpointer data)
{
    (void)pspec;
    MotusInspector *self = data;
    if (self->quiet) return;
    for (int i = 0; i < self->nrows; i++)
        if (self->rows[i].editor == GTK_WIDGET(dd)) {
            commit(self, &self->rows[i]);
            return;
        }
}

/* The entry has the focus (its text part, in fact). */
static gboolean editing(GtkWidget *entry)
{
    GtkRoot *root = gtk_widget_get_root(entry);
    GtkWidget *f = root ? gtk_root_get_focus(root) : NULL;
    return f && (f == entry || gtk_widget_is_ancestor(f, entry));
}

/* value in unit u without the unit ("−40.3"; u NULL: a plain number), to `digits` significant digits (0: exactly). */
static char *number_in(double si, const MtUnit *u, int digits)
{
    char buf[64];
    mt_units_format(si, u, digits, buf, sizeof buf);
    size_t lb = strlen(buf), lu = u ? strlen(u->name) : 0;
    if (u && lb > lu + 1 && buf[lb - lu - 1] == ' ' && !strcmp(buf + lb - lu, u->name)) buf[lb - lu - 1] = 0;
    return g_strdup(buf);
}

/* The SI value of a number field's text ("25 mm"; FALSE for an expression or no number). */
static gboolean si_of(const char *text, MtDim dim, double *si)
{
    MtError err = {0};
    return text[0] != '{' && mt_units_parse(text, dim, NULL, si, &err) == MT_OK && isfinite(*si);
}

/* The unit a number of quantity d is shown in: the display unit (the project's choice, else SI) while the
 * largest of the values shown together (a vector's components) reads well in it (0.01 to 99 999), else the
 * readable multiple of the SI unit for it (−4.03e-08 m shows as −40.3 nm, 18 650 N as 18.65 kN) — unless the
 * project chose the display unit of that quantity. */
static const MtUnit *shown_unit(const MtModel *m, MtDim d, double maxabs)
{
    if (d == MT_DIM_NONE) return NULL;
    const MtUnit *u = mt_edit_display_unit(m, d);
    const char *q = mt_dim_name(d);
    for (int k = 0; q && k < m->nunit; k++)
        if (!strcmp(m->unit[k].quantity, q)) return u;
    double v = u ? fabs(mt_unit_from_si(u, maxabs)) : 0;
    return v == 0 || (v >= 1e-2 && v < 1e5) ? u : mt_unit_readable(d, maxabs);
}

/* Reads every field's text from the model into its widget. */
static void read_values(MotusInspector *self)
{
    const MtModel *m = mt_editor_model(self->editor);
    self->quiet = TRUE;
    char (*text)[MT_FIELD_TEXT_MAX] = g_malloc(sizeof *text * (size_t)MAX(self->nrows, 1)); /* whole expressions */
    double *si = g_new(double, MAX(self->nrows, 1));
    gboolean *num = g_new0(gboolean, MAX(self->nrows, 1));
    for (int i = 0; i < self->nrows; i++) {
        Row *r = &self->rows[i];
        MtError err = {0};
        if (mt_edit_get_field_exact(m, self->kind, self->index, r->info.name, text[i], sizeof text[i], &err))
            g_strlcpy(text[i], err.msg, sizeof text[i]);
        num[i] = r->info.type == MT_FIELD_NUMBER && si_of(text[i], r->info.dim, &si[i]);
    }
    for (int i = 0; i < self->nrows; i++) {
        Row *r = &self->rows[i];
        g_clear_pointer(&r->shown, g_free);
        g_clear_pointer(&r->exact, g_free);
        r->in = NULL;
        if (GTK_IS_DROP_DOWN(r->editor)) {
            r->shown = g_strdup(text[i]);
            guint n = g_list_model_get_n_items(G_LIST_MODEL(r->choices)), sel = GTK_INVALID_LIST_POSITION;
            for (guint k = 0; k < n; k++)
                if (!strcmp(gtk_string_list_get_string(r->choices, k), text[i])) sel = k;
            gtk_drop_down_set_selected(GTK_DROP_DOWN(r->editor), sel);
        } else if (num[i]) { /* in the unit of the largest component of its vector ("com.0", "com.1" …) */
            size_t stem = strcspn(r->info.name, ".");
            double top = 0;
            for (int k = 0; k < self->nrows; k++)
                if (num[k] && !strncmp(self->rows[k].info.name, r->info.name, stem + 1) && self->rows[k].info.dim == r->info.dim)
                    top = fmax(top, fabs(si[k]));
            r->in = shown_unit(m, r->info.dim, top);
            /* a component below the vector's sixth digit is rounding (a centre of mass at −4.03e-08 m beside
             * 0.375 m, from a mesh): 0, as the six digits shown would round it; editing shows it exactly */
            r->shown = top > 0 && fabs(si[i]) < 5e-7 * top ? number_in(0.0, r->in, 6) : number_in(si[i], r->in, 6);
            r->exact = number_in(si[i], r->in, 0);
            gtk_editable_set_text(GTK_EDITABLE(r->editor), editing(r->editor) ? r->exact : r->shown);
        } else {
            /* an expression, a name or a plain number: as the model writes it, its display unit beside it */
            const MtUnit *u = r->info.type == MT_FIELD_NUMBER ? mt_edit_display_unit(m, r->info.dim) : NULL;
            size_t lb = strlen(text[i]), lu = u ? strlen(u->name) : 0;
            if (u && lb > lu + 1 && text[i][lb - lu - 1] == ' ' && !strcmp(text[i] + lb - lu, u->name)) text[i][lb - lu - 1] = 0;
            r->shown = g_strdup(text[i]);
            gtk_editable_set_text(GTK_EDITABLE(r->editor), text[i]);
        }
        const MtUnit *u = r->in ? r->in : r->info.type == MT_FIELD_NUMBER ? mt_edit_display_unit(m, r->info.dim) : NULL;
        gtk_label_set_text(GTK_LABEL(r->unit), mt_unit_label(u));
        set_message(r, NULL);
    }
    g_free(text);
    g_free(si);
    g_free(num);
    self->quiet = FALSE;
}

static gboolean same_fields(MotusInspector *self, const MtFieldInfo *f, int n)
{
    if (n != self->nrows) return FALSE;
    for (int i = 0; i < n; i++)
        if (strcmp(f[i].name, self->rows[i].info.name) || f[i].type != self->rows[i].info.type ||
            f[i].flags != self->rows[i].info.flags)
            return FALSE;
    return TRUE;
}

static void build_rows(MotusInspector *self, const MtFieldInfo *f, int n)
{
    const MtModel *m = mt_editor_model(self->editor);
    clear_rows(self);
    self->rows = g_new0(Row, MAX(n, 1));
    self->nrows = n;
    gboolean sections = FALSE; /* headings only where there are two sections or more */
    for (int i = 1; i < n; i++) sections = sections || g_strcmp0(f[i].section, f[0].section);
    int row = 0;
    for (int i = 0; i < n; i++) {
        if (sections && f[i].section && (i == 0 || g_strcmp0(f[i].section, f[i - 1].section))) {
            GtkWidget *h = gtk_label_new(f[i].section);
            gtk_label_set_xalign(GTK_LABEL(h), 0);
            gtk_widget_add_css_class(h, "heading");
            gtk_widget_set_margin_top(h, i ? 8 : 2);
            gtk_grid_attach(GTK_GRID(self->grid), h, 0, row++, 3, 1);
        }
        Row *r = &self->rows[i];
        r->info = f[i];
        r->label = gtk_label_new(f[i].label);
        gtk_label_set_xalign(GTK_LABEL(r->label), 0);
        /* shortened in the middle: the end names the component (Inertia xx, yy …), which must stay */
        gtk_label_set_ellipsize(GTK_LABEL(r->label), PANGO_ELLIPSIZE_MIDDLE);
        gtk_label_set_width_chars(GTK_LABEL(r->label), 12);
        gtk_label_set_max_width_chars(GTK_LABEL(r->label), 22);
        gtk_widget_set_tooltip_text(r->label, f[i].label);
        gtk_widget_add_css_class(r->label, "dim-label");
        if (f[i].type == MT_FIELD_CHOICE || f[i].type == MT_FIELD_MARKER) {
            r->choices = gtk_string_list_new(NULL);
            if (f[i].type == MT_FIELD_CHOICE) {
                for (int k = 0; f[i].choices[k]; k++) gtk_string_list_append(r->choices, f[i].choices[k]);
            } else {
                char ref[2 * MT_NAME_MAX + 2];
                for (int k = 0; k < m->nmarker; k++) gtk_string_list_append(r->choices, mt_model_marker_ref(m, k, ref, sizeof ref));
            }
            r->editor = gtk_drop_down_new(G_LIST_MODEL(g_object_ref(r->choices)), NULL);
            if (f[i].type == MT_FIELD_CHOICE) {
                GtkListItemFactory *button = choice_factory(f[i].name, TRUE), *list = choice_factory(f[i].name, FALSE);
                gtk_drop_down_set_factory(GTK_DROP_DOWN(r->editor), button);
                gtk_drop_down_set_list_factory(GTK_DROP_DOWN(r->editor), list);
                g_object_unref(button);
                g_object_unref(list);
            }
            g_signal_connect(r->editor, "notify::selected", G_CALLBACK(choice_changed), self);
        } else {
            r->editor = gtk_entry_new();
            gtk_editable_set_width_chars(GTK_EDITABLE(r->editor), 10);
            g_signal_connect(r->editor, "activate", G_CALLBACK(entry_activated), self);
            GtkEventController *fc = gtk_event_controller_focus_new();
            g_signal_connect(fc, "enter", G_CALLBACK(focus_entered), self);
            g_signal_connect(fc, "leave", G_CALLBACK(focus_left), self);
            gtk_widget_add_controller(r->editor, fc);
            if (f[i].flags & MT_FIELD_EXPR)
                gtk_widget_set_tooltip_text(r->editor, _("A number with or without unit (25 mm, 30 deg), or an "
                                                         "expression of parameters (L/2)"));
        }
        gtk_widget_set_hexpand(r->editor, TRUE);
        if (f[i].flags & MT_FIELD_READONLY) {
            gtk_widget_set_sensitive(r->editor, FALSE);
            gtk_widget_set_tooltip_text(r->editor, _("Computed from the shapes and the density"));
        }
        r->unit = gtk_label_new(NULL);
        gtk_label_set_xalign(GTK_LABEL(r->unit), 0);
        gtk_label_set_width_chars(GTK_LABEL(r->unit), 5);
        gtk_widget_add_css_class(r->unit, "dim-label");
        r->message = gtk_label_new(NULL);
        gtk_label_set_wrap(GTK_LABEL(r->message), TRUE);
        gtk_label_set_xalign(GTK_LABEL(r->message), 0);
        gtk_label_set_max_width_chars(GTK_LABEL(r->message), 30);
        gtk_widget_add_css_class(r->message, "error");
        gtk_widget_set_visible(r->message, FALSE);
        gtk_grid_attach(GTK_GRID(self->grid), r->label, 0, row, 1, 1);
        gtk_grid_attach(GTK_GRID(self->grid), r->editor, 1, row, 1, 1);
        gtk_grid_attach(GTK_GRID(self->grid), r->unit, 2, row++, 1, 1);
        gtk_grid_attach(GTK_GRID(self->grid), r->message, 0, row++, 3, 1);
    }
}

void motus_inspector_show(MotusInspector *self, MtEditor *editor, MtEditKind kind, int index)
{
    g_return_if_fail(MOTUS_IS_INSPECTOR(self));
    self->editor = editor;
    self->kind = kind;
    self->index = index;
    MtFieldInfo f[MT_FIELD_MAX];
    int n = editor && kind < MT_EDIT_NKINDS ? mt_edit_fields(mt_editor_model(editor), kind, index, f, MT_FIELD_MAX) : 0;
    if (editor && kind < MT_EDIT_NKINDS) {
        char what[200];
        mt_edit_describe(mt_editor_model(editor), kind, index, what, sizeof what);
        gtk_label_set_text(GTK_LABEL(self->title), what);
    } else {
        gtk_label_set_text(GTK_LABEL(self->title), _("Properties"));
    }
    gtk_widget_set_visible(self->hint, n == 0);
    if (n == 0 && editor && kind == MT_EDIT_BODY && index == MT_GROUND)
        gtk_label_set_text(GTK_LABEL(self->hint), _("The ground is fixed: select its markers or shapes to edit them."));
    else
        gtk_label_set_text(GTK_LABEL(self->hint),
                           _("Select an entity in the tree or the view to see and edit its properties."));
    /* a focused entry is about to lose its widget: nothing is committed while rebuilding */
    self->quiet = TRUE;
    if (!same_fields(self, f, n)) build_rows(self, f, n);
    self->quiet = FALSE;
    if (n) read_values(self);
}

gboolean motus_inspector_enter(MotusInspector *self, const char *field, const char *text)
{
    Row *r = find_row(self, field);
    if (!r || !gtk_widget_get_sensitive(r->editor)) return FALSE;
    if (GTK_IS_DROP_DOWN(r->editor)) {
        guint n = g_list_model_get_n_items(G_LIST_MODEL(r->choices));
        for (guint k = 0; k < n; k++)
            if (!strcmp(gtk_string_list_get_string(r->choices, k), text)) {
                self->quiet = TRUE;
                gtk_drop_down_set_selected(GTK_DROP_DOWN(r->editor), k);
                self->quiet = FALSE;
                return commit(self, r);
            }
        set_message(r, _("not one of the choices"));
        return FALSE;
    }
    self->quiet = TRUE;
    gtk_editable_set_text(GTK_EDITABLE(r->editor), text);
    self->quiet = FALSE;
    return commit(self, r);
}

const char *motus_inspector_get_text(MotusInspector *self, const char *field)
{
    Row *r = find_row(self, field);
    return r ? row_text(r) : NULL;
}

const char *motus_inspector_get_message(MotusInspector *self, const char *field)
{
    Row *r = find_row(self, field);
    return r ? gtk_label_get_text(GTK_LABEL(r->message)) : NULL;
}

const char *motus_inspector_get_unit(MotusInspector *self, const char *field)
{
    Row *r = find_row(self, field);
    return r ? gtk_label_get_text(GTK_LABEL(r->unit)) : NULL;
}

int motus_inspector_n_fields(MotusInspector *self) { return self->nrows; }

void motus_inspector_focus(MotusInspector *self, const char *field)
{
    Row *r = find_row(self, field);
    if (r) gtk_widget_grab_focus(r->editor);
}
