/* motus-window-lesson.c — the lesson mode: a course problem (a model of
 * projects/course/ with its comment layout, motus/lesson.h) opens with a
 * panel (a page beside the properties in the left pane) holding its statement in the interface's language,
 * a field per asked quantity where a student types an answer with its unit
 * and is told whether it is right (the tolerance is stated), and "Show the
 * solution": the answer, the run or analysis that gives it, the frame it is
 * about, the columns that show it plotted, and the vectors, instantaneous
 * centre or free-body diagram that explain it. The panel's state lives on
 * the window (g_object_set_data), like the model check's.
 * A private part of MotusWindow (motus-window-private.h). */
#include <string.h>

#include "motus-i18n.h"
#include "motus-window-private.h"
#include "motus/lesson.h"

typedef struct {
    GtkWidget *revealer, *stack, *title, *topic, *statement, *answers, *answer_text, *show_button; /* revealer: the pages' switcher */
    MtLesson lesson;
    gboolean have, pending_show; /* a lesson is shown; its solution waits for a run */
} Lesson;

static Lesson *lesson_of(MotusWindow *self) { return g_object_get_data(G_OBJECT(self), "motus-lesson"); }

static void lesson_free(gpointer p)
{
    Lesson *l = p;
    mt_lesson_free(&l->lesson);
    g_free(l);
}

/* Russian statements and answers when the interface speaks Russian. */
static gboolean russian(void)
{
    const char *const *langs = g_get_language_names();
    return langs[0] && g_str_has_prefix(langs[0], "ru");
}

static GtkWidget *wrapped(const char *text, const char *css)
{
    GtkWidget *l = gtk_label_new(text);
    gtk_label_set_wrap(GTK_LABEL(l), TRUE);
    gtk_label_set_wrap_mode(GTK_LABEL(l), PANGO_WRAP_WORD_CHAR);
    gtk_label_set_max_width_chars(GTK_LABEL(l), 30); /* the pane's width, not the statement's length */
    gtk_label_set_xalign(GTK_LABEL(l), 0);
    gtk_label_set_selectable(GTK_LABEL(l), TRUE);
    if (css) gtk_widget_add_css_class(l, css);
    return l;
}

/* What the student is told of an answer. */
static void judged(GtkEntry *entry, gpointer data)
{
    MotusWindow *self = data;
    Lesson *ls = lesson_of(self);
    int k = GPOINTER_TO_INT(g_object_get_data(G_OBJECT(entry), "check"));
    GtkWidget *verdict = g_object_get_data(G_OBJECT(entry), "verdict");
    if (!ls || !ls->have || k < 0 || k >= ls->lesson.ncheck) return;
    const MtLessonCheck *c = &ls->lesson.check[k];
    MtDim dim;
    mt_lesson_answer_si(c, &dim);
    const char *unit = dim == MT_DIM_NONE ? "" : mt_unit_label_of(c->unit, dim);
    g_autofree char *text = NULL;
    gboolean right = FALSE;
    switch (mt_lesson_judge(c, gtk_editable_get_text(GTK_EDITABLE(entry)), NULL)) {
    case MT_LESSON_RIGHT: text = g_strdup(_("Right.")), right = TRUE; break;
    case MT_LESSON_WRONG: text = g_strdup(_("Not right: try again.")); break;
    case MT_LESSON_NO_UNIT: text = g_strdup_printf(_("Give the unit too (for instance %s)."), unit); break;
    case MT_LESSON_OTHER_UNIT:
        text = dim == MT_DIM_NONE ? g_strdup(_("The answer is a pure number: no unit."))
                                  : g_strdup_printf(_("That is not a unit of this quantity (for instance %s)."), unit);
        break;
    case MT_LESSON_UNREADABLE: text = g_strdup(_("Type a number and its unit.")); break;
    }
    gtk_label_set_text(GTK_LABEL(verdict), text);
    gtk_widget_remove_css_class(verdict, right ? "error" : "success");
    gtk_widget_add_css_class(verdict, right ? "success" : "error");
}

/* "v_B at t = 0 s (m/s)": what a check asks. */
static char *question(const MtLessonCheck *c)
{
    MtDim dim;
    mt_lesson_answer_si(c, &dim);
    const char *unit = dim == MT_DIM_NONE ? "" : mt_unit_label_of(c->unit, dim);
    if (!strcmp(c->analysis, "modes")) /* TRANSLATORS: a course problem asks for the frequency of mode N */
        return g_strdup_printf(_("Frequency of mode %s (%s)"), c->column, unit);
    if (c->at_end) /* TRANSLATORS: a quantity at the end of the motion, then its unit */
        return dim == MT_DIM_NONE ? g_strdup_printf(_("%s at the end"), c->column)
                                  : g_strdup_printf(_("%s at the end (%s)"), c->column, unit);
    return dim == MT_DIM_NONE ? g_strdup_printf(_("%s at t = %g s"), c->column, c->t)
                              : g_strdup_printf(_("%s at t = %g s (%s)"), c->column, c->t, unit);
}

static void fill(MotusWindow *self, Lesson *ls)
{
    const MtLesson *l = &ls->lesson;
    gboolean ru = russian();
    gtk_label_set_text(GTK_LABEL(ls->title), l->problem);
    gtk_label_set_text(GTK_LABEL(ls->topic), l->topic);
    gtk_label_set_text(GTK_LABEL(ls->statement), ru && l->ru[0] ? l->ru : l->en);
    GtkWidget *child;
    while ((child = gtk_widget_get_first_child(ls->answers))) gtk_box_remove(GTK_BOX(ls->answers), child);
    for (int k = 0; k < l->ncheck; k++) {
        g_autofree char *q = question(&l->check[k]);
        gtk_box_append(GTK_BOX(ls->answers), wrapped(q, NULL));
        GtkWidget *entry = gtk_entry_new(), *verdict = wrapped("", NULL);
        /* TRANSLATORS: placeholder of a course problem's answer field */
        gtk_entry_set_placeholder_text(GTK_ENTRY(entry), _("value and unit, then Enter"));
        g_object_set_data(G_OBJECT(entry), "check", GINT_TO_POINTER(k));
        g_object_set_data(G_OBJECT(entry), "verdict", verdict);
        g_signal_connect(entry, "activate", G_CALLBACK(judged), self);
        gtk_box_append(GTK_BOX(ls->answers), entry);
        gtk_box_append(GTK_BOX(ls->answers), verdict);
    }
    gtk_label_set_text(GTK_LABEL(ls->answer_text), "");
    gtk_widget_set_visible(ls->answer_text, FALSE);
}

/* The first body named in the `show` line ("coupler.wz" → coupler), -1 when none. */
static int shown_body(const MtModel *m, const char *show)
{
    g_auto(GStrv) words = g_strsplit_set(show, " ,;()", -1);
    for (int i = 0; words[i]; i++) {
        char *dot = strchr(words[i], '.');
        if (!dot) continue;
        *dot = 0;
        int b = mt_model_find_body(m, words[i]);
        if (b >= 0) return b;
    }
    return -1;
}

static void set_flag(MotusWindow *self, const char *action, gboolean on)
{
    g_autoptr(GVariant) v = g_action_group_get_action_state(G_ACTION_GROUP(self), action);
    if (v && g_variant_get_boolean(v) != on) g_action_group_activate_action(G_ACTION_GROUP(self), action, NULL);
}

/* The frame the problem is about, its columns plotted, and what explains it drawn. */
static void show_solution_now(MotusWindow *self, Lesson *ls)
{
    const MtLesson *l = &ls->lesson;
    const MtModel *m = motus_window_model(self);
    const MtLessonCheck *c = &l->check[0];
    motus_window_set_time(self, c->at_end ? 1e300 : c->t);
    const char *cols[MT_PLOT_CURVES + 1];
    int n = 0; /* the columns asked for, those of the first one's unit (one unit per plot) */
    for (int k = 0; k < l->ncheck && n < MT_PLOT_CURVES; k++)
        if (strcmp(l->check[k].analysis, "modes") && !strcmp(l->check[k].unit, c->unit) &&
            motus_run_bridge_find_column(motus_window_bridge(self), l->check[k].column) >= 0)
            cols[n++] = l->check[k].column;
    cols[n] = NULL;
    if (n) motus_window_set_plot_columns(self, cols, NULL);
    int b = m ? shown_body(m, l->show) : -1;
    if (b >= 0) motus_window_select(self, MT_EDIT_BODY, b);
    gboolean icr = strstr(l->topic, "instantaneous") != NULL, fbd = strstr(l->topic, "statics") || strstr(l->topic, "d'Alembert");
    gboolean kin = strstr(l->topic, "kinematics") != NULL;
    if (strstr(l->topic, "plane")) motus_viewport_view_preset(self->viewport, MOTUS_VIEW_FRONT); /* the plane of the motion */
    set_flag(self, "show-icr", icr && b >= 0);
    set_flag(self, "show-fbd", fbd && b >= 0);
    set_flag(self, "show-velocity", (kin || icr) && b >= 0);
    set_flag(self, "show-acceleration", kin && !icr && b >= 0);
    motus_window_teach_update(self);
    if (icr) motus_viewport_fit_with_points(self->viewport); /* the centre may lie off the mechanism */
}

static void show_solution(GtkButton *button, gpointer data)
{
    (void)button;
    MotusWindow *self = data;
    Lesson *ls = lesson_of(self);
    if (!ls || !ls->have) return;
    gboolean ru = russian();
    gtk_label_set_text(GTK_LABEL(ls->answer_text), ru && ls->lesson.answer_ru[0] ? ls->lesson.answer_ru : ls->lesson.answer);
    gtk_widget_set_visible(ls->answer_text, TRUE);
    if (motus_window_get_n_frames(self) > 0 && !motus_window_is_running(self)) {
        show_solution_now(self, ls);
        return;
    }
    /* the frames first: the analysis the problem names (statics, modes: their menu actions; else a run) */
    const char *an = ls->lesson.check[0].analysis;
    ls->pending_show = TRUE;
    if (!strcmp(an, "statics") || !strcmp(an, "modes") || !strcmp(an, "kinematics"))
        g_action_group_activate_action(G_ACTION_GROUP(self), an, NULL);
    else if (!motus_window_is_running(self))
        motus_window_run(self, NULL);
}

static void run_finished(MotusWindow *self, gboolean ok, const char *message, gpointer data)
{
    (void)message, (void)data;
    Lesson *ls = lesson_of(self);
    if (!ls || !ls->pending_show) return;
    ls->pending_show = FALSE;
    if (ok) show_solution_now(self, ls);
}

/* A new model or file: its lesson, if it is a course problem (a text model with the comment layout). */
static void document_replaced(MotusDocument *doc, gpointer data)
{
    MotusWindow *self = data;
    Lesson *ls = lesson_of(self);
    mt_lesson_free(&ls->lesson);
    ls->have = ls->pending_show = FALSE;
    const char *path = motus_document_get_path(doc);
    g_autofree char *text = NULL;
    if (path && !motus_document_get_store(doc) && g_file_get_contents(path, &text, NULL, NULL) &&
        mt_lesson_read(text, &ls->lesson) == 1) {
        ls->have = TRUE;
        fill(self, ls);
    }
    gtk_widget_set_visible(ls->revealer, ls->have);
    gtk_stack_set_visible_child_name(GTK_STACK(ls->stack), ls->have ? "problem" : "properties");
    if (ls->have) { /* the problem's page gets most of the pane: a course model's tree is short */
        GtkWidget *paned = gtk_widget_get_parent(gtk_widget_get_parent(ls->stack));
        if (GTK_IS_PANED(paned)) gtk_paned_set_position(GTK_PANED(paned), 180);
    }
}

static GtkWidget *panel(MotusWindow *self, Lesson *ls)
{
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
    gtk_widget_set_margin_start(box, 10), gtk_widget_set_margin_end(box, 10);
    gtk_widget_set_margin_top(box, 8), gtk_widget_set_margin_bottom(box, 8);
    ls->title = wrapped("", "heading");
    ls->topic = wrapped("", "dim-label");
    ls->statement = wrapped("", NULL);
    gtk_box_append(GTK_BOX(box), ls->title);
    gtk_box_append(GTK_BOX(box), ls->topic);
    gtk_box_append(GTK_BOX(box), ls->statement);
    ls->show_button = gtk_button_new_with_mnemonic(_("_Show the Solution"));
    gtk_widget_set_tooltip_text(ls->show_button, _("The answer, the motion at the moment asked about, and the vectors "
                                                   "or forces that explain it"));
    g_signal_connect(ls->show_button, "clicked", G_CALLBACK(show_solution), self);
    gtk_widget_set_halign(ls->show_button, GTK_ALIGN_START);
    gtk_box_append(GTK_BOX(box), ls->show_button);
    ls->answer_text = wrapped("", NULL);
    gtk_box_append(GTK_BOX(box), ls->answer_text);
    gtk_box_append(GTK_BOX(box), gtk_separator_new(GTK_ORIENTATION_HORIZONTAL));
    gtk_box_append(GTK_BOX(box), wrapped(_("Your answers"), "heading"));
    ls->answers = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
    gtk_box_append(GTK_BOX(box), ls->answers);
    gtk_box_append(GTK_BOX(box),
                   /* xgettext:no-c-format */
                   wrapped(_("An answer within 1 % of the book's (or of its last printed digit) counts as right. "
                             "Type the unit too: m/s, mm/s and km/h are all fine."),
                           "dim-label"));
    GtkWidget *scroll = gtk_scrolled_window_new();
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroll), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroll), box);
    gtk_widget_set_vexpand(scroll, TRUE);
    return scroll;
}

void motus_window_lesson_init(MotusWindow *self)
{
    Lesson *ls = g_new0(Lesson, 1);
    g_object_set_data_full(G_OBJECT(self), "motus-lesson", ls, lesson_free);
    /* the problem shares the left pane's lower half with the properties, as two pages (the view keeps its width) */
    GtkWidget *insp = GTK_WIDGET(self->inspector), *paned = gtk_widget_get_parent(insp);
    g_return_if_fail(GTK_IS_PANED(paned));
    g_object_ref(insp);
    gtk_paned_set_end_child(GTK_PANED(paned), NULL);
    GtkWidget *stack = gtk_stack_new(), *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    ls->revealer = gtk_stack_switcher_new();
    gtk_stack_switcher_set_stack(GTK_STACK_SWITCHER(ls->revealer), GTK_STACK(stack));
    gtk_widget_set_margin_top(ls->revealer, 4), gtk_widget_set_margin_bottom(ls->revealer, 4);
    gtk_widget_set_halign(ls->revealer, GTK_ALIGN_CENTER);
    gtk_stack_add_titled(GTK_STACK(stack), panel(self, ls), "problem", _("Problem"));
    gtk_stack_add_titled(GTK_STACK(stack), insp, "properties", _("Properties"));
    g_object_unref(insp);
    gtk_widget_set_vexpand(stack, TRUE);
    gtk_box_append(GTK_BOX(box), ls->revealer);
    gtk_box_append(GTK_BOX(box), stack);
    gtk_paned_set_end_child(GTK_PANED(paned), box);
    ls->stack = stack;
    gtk_widget_set_visible(ls->revealer, FALSE);
    gtk_stack_set_visible_child_name(GTK_STACK(stack), "properties");
    g_signal_connect(self->doc, "replaced", G_CALLBACK(document_replaced), self);
    g_signal_connect(self, "run-finished", G_CALLBACK(run_finished), NULL);
}

gboolean motus_window_lesson_shown(MotusWindow *self)
{
    Lesson *ls = lesson_of(self);
    return ls && ls->have;
}
