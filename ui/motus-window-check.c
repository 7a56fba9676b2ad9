/* motus-window-check.c — the model-check badge in the header bar and its
 * panel (as Adams' Verify): degrees of freedom by rank and by Grübler's
 * count, the equations and the redundant ones, and every finding of the
 * model check (motus/check.h) in words; a finding that names an entity
 * selects it when clicked. Checked when a model is opened and after every
 * edit (a quarter of a second after the last one, on the main thread:
 * compiling and assembling takes milliseconds for the models people build
 * by hand). */
#include "motus-i18n.h"
#include "motus-window-private.h"
#include "motus/check.h"

typedef struct {
    GtkWidget *button, *icon, *label, *popover, *summary, *list;
    MtCheckReport report;
    guint timeout;
    gboolean done; /* the report is for the model shown */
} Check;

static Check *check_of(MotusWindow *self) { return g_object_get_data(G_OBJECT(self), "motus-check"); }

static void check_free(gpointer data)
{
    Check *c = data;
    if (c->timeout) g_source_remove(c->timeout);
    mt_check_free(&c->report);
    g_free(c);
}

/* The inspector's kind for a finding's entity (MT_EDIT_NKINDS: none). */
static MtEditKind edit_kind(MtEntityKind k)
{
    switch (k) {
    case MT_ENT_BODY: return MT_EDIT_BODY;
    case MT_ENT_MARKER: return MT_EDIT_MARKER;
    case MT_ENT_JOINT: return MT_EDIT_JOINT;
    case MT_ENT_DRIVER: return MT_EDIT_DRIVER;
    case MT_ENT_SPRING: return MT_EDIT_SPRING;
    case MT_ENT_COUPLE: return MT_EDIT_COUPLE;
    case MT_ENT_FORCE: return MT_EDIT_FORCE;
    case MT_ENT_EVENT: return MT_EDIT_EVENT;
    default: return MT_EDIT_NKINDS;
    }
}

static void row_activated(GtkListBox *box, GtkListBoxRow *row, gpointer data)
{
    (void)box;
    MotusWindow *self = data;
    Check *c = check_of(self);
    int i = gtk_list_box_row_get_index(row);
    if (i < 0 || i >= c->report.nitem) return;
    const MtCheckItem *it = &c->report.item[i];
    MtEditKind k = edit_kind(it->kind);
    if (it->index < 0 || k == MT_EDIT_NKINDS) return;
    gtk_popover_popdown(GTK_POPOVER(c->popover));
    motus_window_select_entity(self, k, it->index);
}

static const char *level_icon(MtCheckLevel l)
{
    return l == MT_CHECK_ERROR ? "dialog-error-symbolic" : l == MT_CHECK_WARNING ? "dialog-warning-symbolic"
                                                                                : "dialog-information-symbolic";
}

/* The badge and the panel show the report. */
static void show_report(MotusWindow *self, Check *c)
{
    const MtCheckReport *r = &c->report;
    int ne = mt_check_count(r, MT_CHECK_ERROR), nw = mt_check_count(r, MT_CHECK_WARNING);
    const MtModel *m = motus_window_model(self);
    gtk_widget_set_visible(c->button, m != NULL);
    gtk_image_set_from_icon_name(GTK_IMAGE(c->icon), ne ? level_icon(MT_CHECK_ERROR) : nw ? level_icon(MT_CHECK_WARNING)
                                                                                          : "emblem-ok-symbolic");
    g_autofree char *badge = NULL;
    if (!r->compiled)
        badge = g_strdup(_("Cannot run"));
    else if (ne + nw)
        /* TRANSLATORS: the model-check badge: degrees of freedom, then how many findings need attention. */
        badge = g_strdup_printf(_("%d DOF · %d"), r->info.dof_rank, ne + nw);
    else
        /* TRANSLATORS: the model-check badge when nothing needs attention: degrees of freedom. */
        badge = g_strdup_printf(_("%d DOF"), r->info.dof_rank);
    gtk_label_set_text(GTK_LABEL(c->label), badge);
    gtk_widget_remove_css_class(c->button, "error");
    gtk_widget_remove_css_class(c->button, "warning");
    if (ne || nw) gtk_widget_add_css_class(c->button, ne ? "error" : "warning");
    g_autofree char *summary =
        r->compiled ? g_strdup_printf(_("Degrees of freedom: %d (by the rank of the constraint equations; Grübler's count: "
                                        "%d)\nConstraint equations: %d, of them redundant and removed: %d"),
                                      r->info.dof_rank, r->info.dof_grubler, r->info.nrow, r->info.ndep)
                    : g_strdup(_("The model cannot be compiled or assembled: it cannot run."));
    gtk_label_set_text(GTK_LABEL(c->summary), summary);
    for (GtkListBoxRow *row; (row = gtk_list_box_get_row_at_index(GTK_LIST_BOX(c->list), 0));) /* GTK 4.8: no remove_all */
        gtk_list_box_remove(GTK_LIST_BOX(c->list), GTK_WIDGET(row));
    for (int i = 0; i < r->nitem; i++) {
        GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
        GtkWidget *icon = gtk_image_new_from_icon_name(level_icon(r->item[i].level));
        gtk_widget_set_valign(icon, GTK_ALIGN_START);
        GtkWidget *text = gtk_label_new(r->item[i].text);
        gtk_label_set_wrap(GTK_LABEL(text), TRUE);
        gtk_label_set_xalign(GTK_LABEL(text), 0);
        gtk_label_set_max_width_chars(GTK_LABEL(text), 60);
        gtk_label_set_width_chars(GTK_LABEL(text), 40);
        gtk_box_append(GTK_BOX(box), icon);
        gtk_box_append(GTK_BOX(box), text);
        gtk_widget_set_margin_top(box, 4);
        gtk_widget_set_margin_bottom(box, 4);
        gtk_list_box_append(GTK_LIST_BOX(c->list), box);
        if (r->item[i].index < 0 || edit_kind(r->item[i].kind) == MT_EDIT_NKINDS)
            gtk_list_box_row_set_activatable(gtk_list_box_get_row_at_index(GTK_LIST_BOX(c->list), i), FALSE);
    }
    gtk_widget_set_visible(c->list, r->nitem > 0);
    gtk_widget_set_tooltip_text(c->button, ne + nw ? _("Model check: something needs attention (click for the details)")
                                                   : _("Model check: degrees of freedom, redundant equations (click for the details)"));
}

static gboolean run_check(gpointer data)
{
    MotusWindow *self = data;
    Check *c = check_of(self);
    c->timeout = 0;
    mt_check_free(&c->report);
    const MtModel *m = motus_window_model(self);
    MtError err = {0};
    if (m && mt_check_model(m, &c->report, &err))
        motus_window_set_status(self, err.msg); /* out of memory: the badge keeps no stale findings */
    c->done = TRUE;
    show_report(self, c);
    return G_SOURCE_REMOVE;
}

void motus_window_check_schedule(MotusWindow *self)
{
    Check *c = check_of(self);
    if (!c) return;
    c->done = FALSE;
    if (c->timeout) g_source_remove(c->timeout);
    c->timeout = g_timeout_add(250, run_check, self);
}

const MtCheckReport *motus_window_check_report(MotusWindow *self)
{
    Check *c = check_of(self);
    return c && c->done ? &c->report : NULL;
}

GtkWidget *motus_window_check_button(MotusWindow *self) { return check_of(self)->button; }
GtkWidget *motus_window_check_list(MotusWindow *self) { return check_of(self)->list; }

void motus_window_check_init(MotusWindow *self)
{
    Check *c = g_new0(Check, 1);
    g_object_set_data_full(G_OBJECT(self), "motus-check", c, check_free);
    c->button = gtk_menu_button_new();
    gtk_widget_set_focus_on_click(c->button, FALSE); /* Space and the keys stay the view's, as with Run */
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    c->icon = gtk_image_new_from_icon_name("emblem-ok-symbolic");
    c->label = gtk_label_new("");
    gtk_box_append(GTK_BOX(box), c->icon);
    gtk_box_append(GTK_BOX(box), c->label);
    gtk_menu_button_set_child(GTK_MENU_BUTTON(c->button), box);
    c->popover = gtk_popover_new();
    GtkWidget *pane = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8);
    GtkWidget *title = gtk_label_new(_("Model check"));
    gtk_widget_add_css_class(title, "heading");
    gtk_label_set_xalign(GTK_LABEL(title), 0);
    c->summary = gtk_label_new("");
    gtk_label_set_xalign(GTK_LABEL(c->summary), 0);
    gtk_label_set_wrap(GTK_LABEL(c->summary), TRUE);
    c->list = gtk_list_box_new();
    gtk_list_box_set_selection_mode(GTK_LIST_BOX(c->list), GTK_SELECTION_NONE);
    gtk_widget_add_css_class(c->list, "boxed-list");
    g_signal_connect(c->list, "row-activated", G_CALLBACK(row_activated), self);
    GtkWidget *scroll = gtk_scrolled_window_new();
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroll), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_propagate_natural_height(GTK_SCROLLED_WINDOW(scroll), TRUE);
    gtk_scrolled_window_set_max_content_height(GTK_SCROLLED_WINDOW(scroll), 420); /* fits a 768 px screen */
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroll), c->list);
    gtk_box_append(GTK_BOX(pane), title);
    gtk_box_append(GTK_BOX(pane), c->summary);
    gtk_box_append(GTK_BOX(pane), scroll);
    gtk_popover_set_child(GTK_POPOVER(c->popover), pane);
    gtk_menu_button_set_popover(GTK_MENU_BUTTON(c->button), c->popover);
    motus_window_popover_gives_back_keys(self, GTK_POPOVER(c->popover));
    gtk_widget_set_visible(c->button, FALSE); /* until a model is shown */
    gtk_header_bar_pack_end(GTK_HEADER_BAR(gtk_window_get_titlebar(GTK_WINDOW(self))), c->button);
}
