/* motus-study-form.c — the Study panel's fields (see motus-study-form.h).
 * The fields are filled from the study's canonical lines (mt_study_text) and
 * make lines again on every change, read back by core's reader
 * (mt_study_read_text): the lines stay the one description of a study, the
 * fields a way of writing them. */
#include "motus-study-form.h"

#include <stdlib.h>
#include <string.h>

#include "motus-i18n.h"

static const char *const designs[] = {"grid", "lhs", "table", "oat", NULL};
static const char *const var_kinds[] = {"levels", "range", NULL};
static const char *const resp_kinds[] = {"value", "min", "max", "mean", "rms", "psd_peak", "psd_freq", "expr", "settle", NULL};

typedef struct {
    GtkWidget *param, *kind, *values, *count, *unit, *remove;
} VarRow;

typedef struct {
    GtkWidget *name, *kind, *column, *options, *remove;
} RespRow;

typedef struct {
    GtkWidget *resp, *op, *bound, *remove;
} ConsRow;

static const char *const goals[] = {"none", "minimize", "maximize", NULL};
static const char *const ops[] = {"<=", ">=", NULL};

struct MotusStudyForm {
    GtkWidget *root, *design, *samples, *seed, *vars, *resps, *message, *add_var, *add_resp;
    GtkWidget *goal, *objective, *maxeval, *xtol, *cons, *add_cons; /* the optimisation */
    GPtrArray *var_rows, *resp_rows, *cons_rows;
    GtkStringList *params;
    GString *cases, *tail; /* the lines the fields do not show: table cases; any other */
    gboolean filling;
    MotusStudyFormFn changed;
    gpointer user;
};

static const char *text_of(GtkWidget *e) { return gtk_editable_get_text(GTK_EDITABLE(e)); }

static int index_of(const char *const *list, const char *s)
{
    for (int i = 0; list[i]; i++)
        if (!g_strcmp0(list[i], s)) return i;
    return 0;
}

/* ---- fields to lines ------------------------------------------------------------------------------------ */

static char *compose(MotusStudyForm *f)
{
    GString *t = g_string_new(NULL);
    guint d = gtk_drop_down_get_selected(GTK_DROP_DOWN(f->design));
    if (d == 1) g_string_append_printf(t, "study design lhs %s seed %s\n", text_of(f->samples), text_of(f->seed));
    else g_string_append_printf(t, "study design %s\n", designs[d < 4 ? d : 0]);
    for (guint i = 0; i < f->var_rows->len; i++) {
        VarRow *v = g_ptr_array_index(f->var_rows, i);
        GtkStringObject *p = gtk_drop_down_get_selected_item(GTK_DROP_DOWN(v->param));
        gboolean range = gtk_drop_down_get_selected(GTK_DROP_DOWN(v->kind)) == 1;
        g_string_append_printf(t, "study variable %s %s %s", p ? gtk_string_object_get_string(p) : "?", range ? "range" : "levels",
                               text_of(v->values));
        if (range && *text_of(v->count)) g_string_append_printf(t, " count %s", text_of(v->count));
        if (*text_of(v->unit)) g_string_append_printf(t, " unit %s", text_of(v->unit));
        g_string_append_c(t, '\n');
    }
    g_string_append(t, f->cases->str);
    for (guint i = 0; i < f->resp_rows->len; i++) {
        RespRow *r = g_ptr_array_index(f->resp_rows, i);
        guint k = gtk_drop_down_get_selected(GTK_DROP_DOWN(r->kind));
        if (!g_strcmp0(resp_kinds[k], "expr")) { /* the column field holds the expression, braces or not */
            g_autofree char *e = g_strdup(text_of(r->column));
            g_strstrip(e);
            gboolean braced = e[0] == '{';
            g_string_append_printf(t, "study response %s expr %s%s%s\n", text_of(r->name), braced ? "" : "{", e, braced ? "" : "}");
        } else
            g_string_append_printf(t, "study response %s %s %s %s\n", text_of(r->name), resp_kinds[k], text_of(r->column),
                                   text_of(r->options));
    }
    guint goal = gtk_drop_down_get_selected(GTK_DROP_DOWN(f->goal));
    if (goal == 1 || goal == 2) {
        g_string_append_printf(t, "study objective %s %s\n", goals[goal], text_of(f->objective));
        for (guint i = 0; i < f->cons_rows->len; i++) {
            ConsRow *c = g_ptr_array_index(f->cons_rows, i);
            g_string_append_printf(t, "study constraint %s %s %s\n", text_of(c->resp), ops[gtk_drop_down_get_selected(GTK_DROP_DOWN(c->op)) == 1],
                                   text_of(c->bound));
        }
        g_string_append_printf(t, "study optimizer cobyla maxeval %s xtol %s\n", text_of(f->maxeval), text_of(f->xtol));
    }
    g_string_append(t, f->tail->str);
    return g_string_free(t, FALSE);
}

/* The Latin hypercube's fields only with that design. */
static void show_design_fields(MotusStudyForm *f)
{
    gboolean lhs = gtk_drop_down_get_selected(GTK_DROP_DOWN(f->design)) == 1;
    for (GtkWidget *w = gtk_widget_get_next_sibling(f->design); w; w = gtk_widget_get_next_sibling(w)) gtk_widget_set_visible(w, lhs);
    gboolean opt = gtk_drop_down_get_selected(GTK_DROP_DOWN(f->goal)) != 0; /* an optimisation: no design, its settings */
    gtk_widget_set_sensitive(gtk_widget_get_parent(f->design), !opt);
    for (GtkWidget *w = gtk_widget_get_next_sibling(f->goal); w; w = gtk_widget_get_next_sibling(w)) gtk_widget_set_visible(w, opt);
    gtk_widget_set_visible(f->cons, opt);
}

static void fields_changed(MotusStudyForm *f)
{
    show_design_fields(f);
    if (f->filling) return;
    g_autofree char *text = compose(f);
    MtStudy *s = mt_study_new();
    MtError err = {0};
    if (!s || mt_study_read_text(s, text, &err)) {
        gtk_label_set_text(GTK_LABEL(f->message), err.msg[0] ? err.msg : _("out of memory"));
        gtk_widget_set_visible(f->message, TRUE);
    } else {
        gtk_label_set_text(GTK_LABEL(f->message), "");
        gtk_widget_set_visible(f->message, FALSE);
        char *canon = mt_study_text(s);
        if (canon && f->changed) f->changed(f->user, canon);
        free(canon);
    }
    mt_study_free(s);
}

static void on_edit(GtkEditable *e, gpointer data)
{
    (void)e;
    fields_changed(data);
}

static void on_select(GObject *o, GParamSpec *p, gpointer data)
{
    (void)o, (void)p;
    fields_changed(data);
}

/* ---- rows ------------------------------------------------------------------------------------------------ */

static GtkWidget *entry(MotusStudyForm *f, const char *text, int width, const char *tip)
{
    GtkWidget *e = gtk_entry_new();
    gtk_editable_set_text(GTK_EDITABLE(e), text ? text : "");
    gtk_editable_set_width_chars(GTK_EDITABLE(e), width);
    gtk_editable_set_max_width_chars(GTK_EDITABLE(e), width);
    gtk_widget_set_tooltip_text(e, tip);
    g_signal_connect(e, "changed", G_CALLBACK(on_edit), f);
    return e;
}

static GtkWidget *choice(MotusStudyForm *f, GListModel *model, guint selected, const char *tip)
{
    GtkWidget *d = gtk_drop_down_new(model, NULL);
    gtk_drop_down_set_selected(GTK_DROP_DOWN(d), selected);
    gtk_widget_set_tooltip_text(d, tip);
    g_signal_connect(d, "notify::selected", G_CALLBACK(on_select), f);
    return d;
}

static void remove_clicked(GtkButton *b, gpointer data)
{
    MotusStudyForm *f = data;
    for (int pass = 0; pass < 3; pass++) {
        GPtrArray *rows = pass == 2 ? f->cons_rows : pass ? f->resp_rows : f->var_rows;
        GtkWidget *grid = pass == 2 ? f->cons : pass ? f->resps : f->vars;
        for (guint i = 0; i < rows->len; i++) {
            void *row = g_ptr_array_index(rows, i);
            GtkWidget *rm = pass == 2 ? ((ConsRow *)row)->remove : pass ? ((RespRow *)row)->remove : ((VarRow *)row)->remove;
            if (rm != GTK_WIDGET(b)) continue;
            gtk_grid_remove_row(GTK_GRID(grid), (int)i + 1); /* row 0: the headings */
            g_ptr_array_remove_index(rows, i);
            fields_changed(f);
            return;
        }
    }
}

static GtkWidget *remove_button(MotusStudyForm *f)
{
    GtkWidget *b = gtk_button_new_from_icon_name("list-remove-symbolic");
    gtk_widget_set_tooltip_text(b, _("Remove this line"));
    g_signal_connect(b, "clicked", G_CALLBACK(remove_clicked), f);
    return b;
}

static void add_var_row(MotusStudyForm *f, const char *param, gboolean range, const char *values, const char *count, const char *unit)
{
    VarRow *v = g_new0(VarRow, 1);
    guint n = g_list_model_get_n_items(G_LIST_MODEL(f->params)), sel = 0;
    for (guint i = 0; i < n; i++)
        if (!g_strcmp0(gtk_string_list_get_string(f->params, i), param)) sel = i;
    if (param && (!n || g_strcmp0(gtk_string_list_get_string(f->params, sel), param))) { /* not a parameter (yet): offered all the same */
        gtk_string_list_append(f->params, param);
        sel = n;
    }
    v->param = choice(f, G_LIST_MODEL(g_object_ref(f->params)), sel, _("The parameter the variable sets"));
    v->kind = choice(f, G_LIST_MODEL(gtk_string_list_new(var_kinds)), range, _("A list of values, or a range"));
    v->values = entry(f, values, 16, _("Levels: the values, separated by spaces; range: its two ends"));
    v->count = entry(f, count, 4, _("How many equally spaced values of the range (empty: sampled or optimised continuously)"));
    v->unit = entry(f, unit, 6, _("The unit of the values (empty: the parameter's own)"));
    v->remove = remove_button(f);
    int row = (int)f->var_rows->len + 1;
    GtkWidget *cells[] = {v->param, v->kind, v->values, v->count, v->unit, v->remove};
    for (int c = 0; c < 6; c++) gtk_grid_attach(GTK_GRID(f->vars), cells[c], c, row, 1, 1);
    g_ptr_array_add(f->var_rows, v);
}

static void add_resp_row(MotusStudyForm *f, const char *name, const char *kind, const char *column, const char *options)
{
    RespRow *r = g_new0(RespRow, 1);
    r->name = entry(f, name, 10, _("The response's name"));
    r->kind = choice(f, G_LIST_MODEL(gtk_string_list_new(resp_kinds)), (guint)index_of(resp_kinds, kind),
                     _("What is computed from the column"));
    r->column = entry(f, column, 14, _("The result column (for expr: the expression)"));
    r->options = entry(f, options, 14, _("at T; from T0 to T1; band F0 F1; resolution DF; tol E"));
    r->remove = remove_button(f);
    int row = (int)f->resp_rows->len + 1;
    GtkWidget *cells[] = {r->name, r->kind, r->column, r->options, r->remove};
    for (int c = 0; c < 5; c++) gtk_grid_attach(GTK_GRID(f->resps), cells[c], c, row, 1, 1);
    g_ptr_array_add(f->resp_rows, r);
}

/* Scrolls the form (in its scrolled window) so that w shows, once w has its place (the next frame). */
static gboolean reveal_tick(GtkWidget *w, GdkFrameClock *clock, gpointer data)
{
    (void)clock;
    GtkWidget *sw = gtk_widget_get_ancestor(w, GTK_TYPE_SCROLLED_WINDOW);
    graphene_rect_t r;
    if (sw && gtk_widget_get_height(w) <= 0) return G_SOURCE_CONTINUE; /* not laid out yet */
    if (!sw || !gtk_widget_compute_bounds(w, GTK_WIDGET(data), &r)) return G_SOURCE_REMOVE;
    GtkAdjustment *a = gtk_scrolled_window_get_vadjustment(GTK_SCROLLED_WINDOW(sw));
    double v = gtk_adjustment_get_value(a), page = gtk_adjustment_get_page_size(a);
    double top = r.origin.y, bottom = r.origin.y + r.size.height + 6;
    if (bottom > v + page) gtk_adjustment_set_value(a, bottom - page);
    else if (top < v) gtk_adjustment_set_value(a, top);
    return G_SOURCE_REMOVE;
}

static void reveal(MotusStudyForm *f, GtkWidget *w)
{
    gtk_widget_add_tick_callback(w, reveal_tick, f->root, NULL);
    gtk_widget_grab_focus(w);
}

static void add_cons_row(MotusStudyForm *f, const char *resp, gboolean ge, const char *bound)
{
    ConsRow *c = g_new0(ConsRow, 1);
    c->resp = entry(f, resp, 10, _("The response kept within the bound"));
    c->op = choice(f, G_LIST_MODEL(gtk_string_list_new(ops)), ge, _("At or below (<=), or at or above (>=)"));
    c->bound = entry(f, bound, 10, _("The bound, in the response's unit"));
    c->remove = remove_button(f);
    int row = (int)f->cons_rows->len + 1;
    GtkWidget *cells[] = {c->resp, c->op, c->bound, c->remove};
    for (int k = 0; k < 4; k++) gtk_grid_attach(GTK_GRID(f->cons), cells[k], k, row, 1, 1);
    g_ptr_array_add(f->cons_rows, c);
}

static void add_cons_clicked(GtkButton *b, gpointer data)
{
    (void)b;
    MotusStudyForm *f = data;
    add_cons_row(f, "", FALSE, "");
    fields_changed(f);
    reveal(f, ((ConsRow *)g_ptr_array_index(f->cons_rows, f->cons_rows->len - 1))->resp);
}

static void add_var_clicked(GtkButton *b, gpointer data)
{
    (void)b;
    MotusStudyForm *f = data;
    const char *first = g_list_model_get_n_items(G_LIST_MODEL(f->params)) ? gtk_string_list_get_string(f->params, 0) : "p";
    add_var_row(f, first, TRUE, "", "3", "");
    fields_changed(f);
    reveal(f, ((VarRow *)g_ptr_array_index(f->var_rows, f->var_rows->len - 1))->values); /* in view, to type its values */
}

static void add_resp_clicked(GtkButton *b, gpointer data)
{
    (void)b;
    MotusStudyForm *f = data;
    g_autofree char *name = g_strdup_printf("r%u", f->resp_rows->len + 1);
    add_resp_row(f, name, "max", "", "");
    fields_changed(f);
    reveal(f, ((RespRow *)g_ptr_array_index(f->resp_rows, f->resp_rows->len - 1))->column);
}

/* ---- lines to fields ------------------------------------------------------------------------------------- */

static void clear_rows(MotusStudyForm *f)
{
    while (f->var_rows->len) {
        gtk_grid_remove_row(GTK_GRID(f->vars), (int)f->var_rows->len);
        g_ptr_array_set_size(f->var_rows, f->var_rows->len - 1);
    }
    while (f->resp_rows->len) {
        gtk_grid_remove_row(GTK_GRID(f->resps), (int)f->resp_rows->len);
        g_ptr_array_set_size(f->resp_rows, f->resp_rows->len - 1);
    }
    while (f->cons_rows->len) {
        gtk_grid_remove_row(GTK_GRID(f->cons), (int)f->cons_rows->len);
        g_ptr_array_set_size(f->cons_rows, f->cons_rows->len - 1);
    }
}

/* A canonical `study variable` line (tokens t, n of them) into a row. */
static void fill_variable(MotusStudyForm *f, char **t, int n)
{
    int end = n >= 6 && !strcmp(t[n - 2], "unit") ? n - 2 : n;
    const char *unit = end < n ? t[n - 1] : "";
    gboolean range = !strcmp(t[3], "range");
    const char *count = range && end == 8 ? t[7] : "";
    int last = range ? 6 : end;
    GString *v = g_string_new(NULL);
    for (int i = 4; i < last && i < end; i++) g_string_append_printf(v, "%s%s", v->len ? " " : "", t[i]);
    add_var_row(f, t[2], range, v->str, count, unit);
    g_string_free(v, TRUE);
}

/* A canonical `study response` line into a row: name, kind, column (or the expression), the rest. */
static void fill_response(MotusStudyForm *f, const char *line)
{
    g_auto(GStrv) t = g_strsplit(line, " ", 5); /* study response NAME KIND REST */
    if (g_strv_length(t) < 5) return;
    if (!strcmp(t[3], "expr")) {
        g_autofree char *e = g_strdup(t[4]);
        size_t len = strlen(e);
        if (len >= 2 && e[0] == '{' && e[len - 1] == '}') e[len - 1] = 0;
        add_resp_row(f, t[2], t[3], e[0] == '{' ? e + 1 : e, "");
        return;
    }
    const char *sp = strchr(t[4], ' ');
    g_autofree char *column = sp ? g_strndup(t[4], (gsize)(sp - t[4])) : g_strdup(t[4]);
    add_resp_row(f, t[2], t[3], column, sp ? sp + 1 : "");
}

void motus_study_form_set(MotusStudyForm *f, const MtStudy *s, const MtModel *m)
{
    f->filling = TRUE;
    clear_rows(f);
    g_string_truncate(f->cases, 0);
    g_string_truncate(f->tail, 0);
    guint old = g_list_model_get_n_items(G_LIST_MODEL(f->params));
    const char **names = g_new0(const char *, (gsize)(m ? m->nparam : 0) + 1);
    for (int i = 0; m && i < m->nparam; i++) names[i] = m->param[i].name;
    gtk_string_list_splice(f->params, 0, old, names);
    g_free(names);
    gtk_drop_down_set_selected(GTK_DROP_DOWN(f->design), 0);
    gtk_drop_down_set_selected(GTK_DROP_DOWN(f->goal), 0);
    gtk_editable_set_text(GTK_EDITABLE(f->objective), "");
    gtk_editable_set_text(GTK_EDITABLE(f->maxeval), "50");
    gtk_editable_set_text(GTK_EDITABLE(f->xtol), "1e-06");
    gtk_editable_set_text(GTK_EDITABLE(f->samples), "20");
    gtk_editable_set_text(GTK_EDITABLE(f->seed), "1");
    char *text = s ? mt_study_text(s) : NULL;
    g_auto(GStrv) lines = g_strsplit(text ? text : "", "\n", -1);
    free(text);
    for (int i = 0; lines[i]; i++) {
        if (!lines[i][0]) continue;
        g_auto(GStrv) t = g_strsplit(lines[i], " ", -1);
        int n = (int)g_strv_length(t);
        if (n >= 3 && !strcmp(t[1], "design")) {
            gtk_drop_down_set_selected(GTK_DROP_DOWN(f->design), (guint)index_of(designs, t[2]));
            if (n == 6) {
                gtk_editable_set_text(GTK_EDITABLE(f->samples), t[3]);
                gtk_editable_set_text(GTK_EDITABLE(f->seed), t[5]);
            }
        } else if (n >= 5 && !strcmp(t[1], "variable")) fill_variable(f, t, n);
        else if (!strcmp(t[1], "case")) g_string_append_printf(f->cases, "%s\n", lines[i]);
        else if (!strcmp(t[1], "response")) fill_response(f, lines[i]);
        else if (n == 4 && !strcmp(t[1], "objective")) {
            gtk_drop_down_set_selected(GTK_DROP_DOWN(f->goal), (guint)index_of(goals, t[2]));
            gtk_editable_set_text(GTK_EDITABLE(f->objective), t[3]);
        } else if (n == 5 && !strcmp(t[1], "constraint")) add_cons_row(f, t[2], !strcmp(t[3], ">="), t[4]);
        else if (n == 7 && !strcmp(t[1], "optimizer")) {
            gtk_editable_set_text(GTK_EDITABLE(f->maxeval), t[4]);
            gtk_editable_set_text(GTK_EDITABLE(f->xtol), t[6]);
        }
        else g_string_append_printf(f->tail, "%s\n", lines[i]);
    }
    gtk_label_set_text(GTK_LABEL(f->message), "");
    gtk_widget_set_visible(f->message, FALSE);
    show_design_fields(f);
    f->filling = FALSE;
}

/* ---- the form -------------------------------------------------------------------------------------------- */

static GtkWidget *headed_grid(const char *const *heads)
{
    GtkWidget *g = gtk_grid_new();
    gtk_grid_set_column_spacing(GTK_GRID(g), 6);
    gtk_grid_set_row_spacing(GTK_GRID(g), 4);
    for (int c = 0; heads[c]; c++) {
        GtkWidget *l = gtk_label_new(heads[c]);
        gtk_label_set_xalign(GTK_LABEL(l), 0);
        gtk_widget_add_css_class(l, "dim-label");
        gtk_grid_attach(GTK_GRID(g), l, c, 0, 1, 1);
    }
    return g;
}

static GtkWidget *section(GtkWidget *box, const char *title)
{
    GtkWidget *bar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    GtkWidget *l = gtk_label_new(title);
    gtk_widget_add_css_class(l, "heading");
    gtk_box_append(GTK_BOX(bar), l);
    gtk_box_append(GTK_BOX(box), bar);
    return bar;
}

MotusStudyForm *motus_study_form_new(MotusStudyFormFn changed, gpointer user)
{
    MotusStudyForm *f = g_new0(MotusStudyForm, 1);
    f->changed = changed, f->user = user;
    f->var_rows = g_ptr_array_new_with_free_func(g_free);
    f->resp_rows = g_ptr_array_new_with_free_func(g_free);
    f->cons_rows = g_ptr_array_new_with_free_func(g_free);
    f->params = gtk_string_list_new(NULL);
    f->cases = g_string_new(NULL);
    f->tail = g_string_new(NULL);
    f->root = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
    g_object_ref_sink(f->root);
    GtkWidget *bar = section(f->root, _("Design"));
    f->design = choice(f, G_LIST_MODEL(gtk_string_list_new(designs)), 0,
                       _("grid: every combination; lhs: a Latin hypercube; table: the study's case lines; oat: one at a time"));
    gtk_box_append(GTK_BOX(bar), f->design);
    gtk_box_append(GTK_BOX(bar), gtk_label_new(_("Cases")));
    f->samples = entry(f, "20", 5, _("Latin hypercube: how many cases"));
    gtk_box_append(GTK_BOX(bar), f->samples);
    gtk_box_append(GTK_BOX(bar), gtk_label_new(_("Seed")));
    f->seed = entry(f, "1", 5, _("Latin hypercube: the seed of its generator (the same seed, the same cases)"));
    gtk_box_append(GTK_BOX(bar), f->seed);
    bar = section(f->root, _("Variables"));
    f->add_var = gtk_button_new_from_icon_name("list-add-symbolic");
    gtk_widget_set_tooltip_text(f->add_var, _("Add a variable"));
    g_signal_connect(f->add_var, "clicked", G_CALLBACK(add_var_clicked), f);
    gtk_box_append(GTK_BOX(bar), f->add_var);
    f->vars = headed_grid((const char *const[]){_("Parameter"), _("Kind"), _("Values"), _("Count"), _("Unit"), NULL});
    gtk_box_append(GTK_BOX(f->root), f->vars);
    bar = section(f->root, _("Responses"));
    f->add_resp = gtk_button_new_from_icon_name("list-add-symbolic");
    gtk_widget_set_tooltip_text(f->add_resp, _("Add a response"));
    g_signal_connect(f->add_resp, "clicked", G_CALLBACK(add_resp_clicked), f);
    gtk_box_append(GTK_BOX(bar), f->add_resp);
    f->resps = headed_grid((const char *const[]){_("Name"), _("Kind"), _("Column"), _("Options"), NULL});
    gtk_box_append(GTK_BOX(f->root), f->resps);
    bar = section(f->root, _("Optimisation"));
    f->goal = choice(f, G_LIST_MODEL(gtk_string_list_new(goals)), 0,
                     _("none: the design's cases; minimize or maximize: COBYLA chooses the cases, one after another"));
    gtk_box_append(GTK_BOX(bar), f->goal);
    f->objective = entry(f, "", 10, _("The response optimised"));
    gtk_box_append(GTK_BOX(bar), f->objective);
    gtk_box_append(GTK_BOX(bar), gtk_label_new(_("Evaluations")));
    f->maxeval = entry(f, "50", 4, _("At most this many cases (maxeval)"));
    gtk_box_append(GTK_BOX(bar), f->maxeval);
    gtk_box_append(GTK_BOX(bar), gtk_label_new("xtol"));
    f->xtol = entry(f, "1e-06", 6, _("Stop when the step is below this fraction of each variable's range"));
    gtk_box_append(GTK_BOX(bar), f->xtol);
    f->add_cons = gtk_button_new_from_icon_name("list-add-symbolic");
    gtk_widget_set_tooltip_text(f->add_cons, _("Add a constraint"));
    g_signal_connect(f->add_cons, "clicked", G_CALLBACK(add_cons_clicked), f);
    gtk_box_append(GTK_BOX(bar), f->add_cons);
    f->cons = headed_grid((const char *const[]){_("Response"), "", _("Bound"), NULL});
    gtk_box_append(GTK_BOX(f->root), f->cons);
    f->message = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(f->message), 0);
    gtk_label_set_wrap(GTK_LABEL(f->message), TRUE);
    gtk_widget_add_css_class(f->message, "error");
    gtk_widget_set_visible(f->message, FALSE);
    gtk_box_append(GTK_BOX(f->root), f->message);
    show_design_fields(f);
    return f;
}

void motus_study_form_free(MotusStudyForm *f)
{
    if (!f) return;
    f->filling = TRUE; /* the widgets go: no more lines */
    g_object_unref(f->root);
    g_ptr_array_free(f->var_rows, TRUE);
    g_ptr_array_free(f->resp_rows, TRUE);
    g_ptr_array_free(f->cons_rows, TRUE);
    g_object_unref(f->params);
    g_string_free(f->cases, TRUE);
    g_string_free(f->tail, TRUE);
    g_free(f);
}

GtkWidget *motus_study_form_widget(MotusStudyForm *f) { return f->root; }

const char *motus_study_form_message(MotusStudyForm *f) { return gtk_label_get_text(GTK_LABEL(f->message)); }

GtkWidget *motus_study_form_field(MotusStudyForm *f, const char *which, int i)
{
    if (!strcmp(which, "add-var")) return f->add_var;
    if (!strcmp(which, "add-resp")) return f->add_resp;
    if (!strcmp(which, "add-cons")) return f->add_cons;
    if (!strcmp(which, "goal")) return f->goal;
    if (!strcmp(which, "objective")) return f->objective;
    if (!strcmp(which, "maxeval")) return f->maxeval;
    if (g_str_has_prefix(which, "cons-") && i >= 0 && (guint)i < f->cons_rows->len) {
        ConsRow *c = g_ptr_array_index(f->cons_rows, (guint)i);
        which += 5;
        return !strcmp(which, "resp") ? c->resp : !strcmp(which, "bound") ? c->bound : !strcmp(which, "remove") ? c->remove : c->op;
    }
    if (g_str_has_prefix(which, "var-") && i >= 0 && (guint)i < f->var_rows->len) {
        VarRow *v = g_ptr_array_index(f->var_rows, (guint)i);
        which += 4;
        return !strcmp(which, "values") ? v->values : !strcmp(which, "count") ? v->count : !strcmp(which, "unit") ? v->unit
             : !strcmp(which, "remove") ? v->remove : !strcmp(which, "param") ? v->param : v->kind;
    }
    if (g_str_has_prefix(which, "resp-") && i >= 0 && (guint)i < f->resp_rows->len) {
        RespRow *r = g_ptr_array_index(f->resp_rows, (guint)i);
        which += 5;
        return !strcmp(which, "name") ? r->name : !strcmp(which, "column") ? r->column : !strcmp(which, "options") ? r->options
             : !strcmp(which, "remove") ? r->remove : r->kind;
    }
    return NULL;
}
