/* motus-model-tree.c — the model tree (see motus-model-tree.h): a GtkListView
 * over a GtkTreeListModel of MotusTreeNode items. */
#include "motus-model-tree.h"

#include "motus-i18n.h"
#include "motus/units.h"

/* ---- tree node ------------------------------------------------------------ */

#define MOTUS_TYPE_TREE_NODE (motus_tree_node_get_type())
G_DECLARE_FINAL_TYPE(MotusTreeNode, motus_tree_node, MOTUS, TREE_NODE, GObject)

struct _MotusTreeNode {
    GObject parent_instance;
    MotusEntityKind kind; /* NONE for a category row */
    int index;
    char *label, *detail;
    char *column;         /* result column a drag onto a plot gives (NULL: none) */
    GListStore *children; /* NULL for a leaf */
};

G_DEFINE_TYPE(MotusTreeNode, motus_tree_node, G_TYPE_OBJECT)

static void motus_tree_node_finalize(GObject *object)
{
    MotusTreeNode *n = MOTUS_TREE_NODE(object);
    g_free(n->label);
    g_free(n->detail);
    g_free(n->column);
    g_clear_object(&n->children);
    G_OBJECT_CLASS(motus_tree_node_parent_class)->finalize(object);
}

static void motus_tree_node_class_init(MotusTreeNodeClass *klass)
{
    G_OBJECT_CLASS(klass)->finalize = motus_tree_node_finalize;
}

static void motus_tree_node_init(MotusTreeNode *n) { (void)n; }

static MotusTreeNode *node_new(MotusEntityKind kind, int index, const char *label, const char *detail)
{
    MotusTreeNode *n = g_object_new(MOTUS_TYPE_TREE_NODE, NULL);
    n->kind = kind;
    n->index = index;
    n->label = g_strdup(label);
    n->detail = g_strdup(detail ? detail : "");
    return n;
}

/* Appends a child to parent (creating its child list) and returns it (borrowed). */
static MotusTreeNode *add_child(MotusTreeNode *parent, MotusTreeNode *child)
{
    if (!parent->children) parent->children = g_list_store_new(MOTUS_TYPE_TREE_NODE);
    g_list_store_append(parent->children, child);
    g_object_unref(child);
    return child;
}

/* ---- the widget ------------------------------------------------------------ */

struct _MotusModelTree {
    GtkWidget parent_instance;
    GtkWidget *scroller;
    GtkListView *list;
    GListStore *root;
    GtkTreeListModel *tree;
    GtkSingleSelection *selection;
    gboolean quiet; /* no "selected" while the tree is rebuilt */
};

G_DEFINE_TYPE(MotusModelTree, motus_model_tree, GTK_TYPE_WIDGET)

enum { SIG_SELECTED, N_SIGNALS };
static guint signals[N_SIGNALS];

static GListModel *create_children(gpointer item, gpointer data)
{
    (void)data;
    MotusTreeNode *n = item;
    return n->children ? g_object_ref(G_LIST_MODEL(n->children)) : NULL;
}

/* A row dragged onto a plot gives the result column of its entity. */
static GdkContentProvider *drag_prepare(GtkDragSource *src, double x, double y, gpointer data)
{
    (void)x, (void)y, (void)data;
    const char *column = g_object_get_data(G_OBJECT(gtk_event_controller_get_widget(GTK_EVENT_CONTROLLER(src))), "column");
    return column ? gdk_content_provider_new_typed(G_TYPE_STRING, column) : NULL;
}

static void setup_row(GtkSignalListItemFactory *f, GtkListItem *li, gpointer data)
{
    (void)f, (void)data;
    GtkWidget *exp = gtk_tree_expander_new();
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
    GtkWidget *name = gtk_label_new(NULL);
    GtkWidget *detail = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(name), 0);
    gtk_label_set_ellipsize(GTK_LABEL(name), PANGO_ELLIPSIZE_END);
    gtk_label_set_xalign(GTK_LABEL(detail), 0);
    gtk_label_set_ellipsize(GTK_LABEL(detail), PANGO_ELLIPSIZE_END);
    gtk_widget_add_css_class(detail, "dim-label");
    gtk_box_append(GTK_BOX(box), name);
    gtk_box_append(GTK_BOX(box), detail);
    gtk_tree_expander_set_child(GTK_TREE_EXPANDER(exp), box);
    gtk_list_item_set_child(li, exp);
    GtkDragSource *src = gtk_drag_source_new();
    gtk_drag_source_set_actions(src, GDK_ACTION_COPY);
    g_signal_connect(src, "prepare", G_CALLBACK(drag_prepare), NULL);
    gtk_widget_add_controller(exp, GTK_EVENT_CONTROLLER(src));
}

static void bind_row(GtkSignalListItemFactory *f, GtkListItem *li, gpointer data)
{
    (void)f, (void)data;
    GtkTreeListRow *row = gtk_list_item_get_item(li);
    GtkWidget *exp = gtk_list_item_get_child(li);
    gtk_tree_expander_set_list_row(GTK_TREE_EXPANDER(exp), row);
    MotusTreeNode *n = gtk_tree_list_row_get_item(row);
    GtkWidget *box = gtk_tree_expander_get_child(GTK_TREE_EXPANDER(exp));
    GtkWidget *name = gtk_widget_get_first_child(box);
    GtkWidget *detail = gtk_widget_get_next_sibling(name);
    gtk_label_set_text(GTK_LABEL(name), n->label);
    gtk_label_set_text(GTK_LABEL(detail), n->detail);
    g_object_set_data_full(G_OBJECT(exp), "column", g_strdup(n->column), g_free);
    if (n->kind == MOTUS_ENTITY_NONE)
        gtk_widget_add_css_class(name, "heading");
    else
        gtk_widget_remove_css_class(name, "heading");
    g_object_unref(n);
}

static MotusTreeNode *node_at(MotusModelTree *self, guint pos)
{
    GtkTreeListRow *row = g_list_model_get_item(G_LIST_MODEL(self->tree), pos);
    if (!row) return NULL;
    MotusTreeNode *n = gtk_tree_list_row_get_item(row);
    g_object_unref(row);
    return n; /* full reference */
}

static void selection_changed(GtkSingleSelection *sel, GParamSpec *pspec, gpointer data)
{
    (void)sel, (void)pspec;
    MotusModelTree *self = data;
    if (self->quiet) return;
    int index;
    MotusEntityKind kind = motus_model_tree_get_selected(self, &index);
    g_signal_emit(self, signals[SIG_SELECTED], 0, (int)kind, index);
}

static void motus_model_tree_dispose(GObject *object)
{
    MotusModelTree *self = MOTUS_MODEL_TREE(object);
    g_clear_pointer(&self->scroller, gtk_widget_unparent);
    g_clear_object(&self->root);
    G_OBJECT_CLASS(motus_model_tree_parent_class)->dispose(object);
}

static void motus_model_tree_class_init(MotusModelTreeClass *klass)
{
    G_OBJECT_CLASS(klass)->dispose = motus_model_tree_dispose;
    gtk_widget_class_set_layout_manager_type(GTK_WIDGET_CLASS(klass), GTK_TYPE_BIN_LAYOUT);
    gtk_widget_class_set_css_name(GTK_WIDGET_CLASS(klass), "motus-model-tree");
    /* A row was selected: kind (MotusEntityKind), index (-1 for none). */
    signals[SIG_SELECTED] = g_signal_new("selected", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 2, G_TYPE_INT, G_TYPE_INT);
}

static void motus_model_tree_init(MotusModelTree *self)
{
    self->root = g_list_store_new(MOTUS_TYPE_TREE_NODE);
    self->tree =
        gtk_tree_list_model_new(G_LIST_MODEL(g_object_ref(self->root)), FALSE, FALSE, create_children, NULL, NULL);
    self->selection = gtk_single_selection_new(G_LIST_MODEL(self->tree));
    gtk_single_selection_set_autoselect(self->selection, FALSE);
    gtk_single_selection_set_can_unselect(self->selection, TRUE);
    g_signal_connect(self->selection, "notify::selected", G_CALLBACK(selection_changed), self);
    GtkListItemFactory *f = gtk_signal_list_item_factory_new();
    g_signal_connect(f, "setup", G_CALLBACK(setup_row), NULL);
    g_signal_connect(f, "bind", G_CALLBACK(bind_row), NULL);
    self->list = GTK_LIST_VIEW(gtk_list_view_new(GTK_SELECTION_MODEL(self->selection), f));
    gtk_widget_add_css_class(GTK_WIDGET(self->list), "navigation-sidebar");
    self->scroller = gtk_scrolled_window_new();
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(self->scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(self->scroller), GTK_WIDGET(self->list));
    gtk_widget_set_parent(self->scroller, GTK_WIDGET(self));
}

GtkWidget *motus_model_tree_new(void) { return g_object_new(MOTUS_TYPE_MODEL_TREE, NULL); }

/* The result column a row stands for when dragged onto a plot (model-format.md, Result columns). */
static MotusTreeNode *with_column(MotusTreeNode *n, const char *fmt, const char *name)
{
    n->column = g_strdup_printf(fmt, name);
    return n;
}

static MotusTreeNode *category(GListStore *root, const char *title, int count)
{
    g_autofree char *n = g_strdup_printf("%d", count);
    MotusTreeNode *c = node_new(MOTUS_ENTITY_NONE, -1, title, n);
    c->children = g_list_store_new(MOTUS_TYPE_TREE_NODE);
    g_list_store_append(root, c);
    g_object_unref(c);
    return c;
}

void motus_model_tree_set_model(MotusModelTree *self, const MtModel *m)
{
    /* The rows are made anew: a row holding the keyboard focus would leave the window with GTK still pointing
     * at it, and keys (Ctrl+Q) would no longer reach the window. The window itself takes the keys instead. */
    GtkRoot *root = gtk_widget_get_root(GTK_WIDGET(self));
    GtkWidget *focus = root ? gtk_root_get_focus(root) : NULL;
    if (focus && gtk_widget_is_ancestor(focus, GTK_WIDGET(self->list))) gtk_root_set_focus(root, NULL);
    self->quiet = TRUE;
    gtk_single_selection_set_selected(self->selection, GTK_INVALID_LIST_POSITION);
    g_list_store_remove_all(self->root);
    if (m) {
        char buf[2 * MT_NAME_MAX + 8];
        MotusTreeNode *bodies = category(self->root, _("Bodies"), m->nbody);
        MotusTreeNode *ground = add_child(bodies, node_new(MOTUS_ENTITY_GROUND, -1, "ground", _("fixed")));
        for (int b = 0; b < m->nbody; b++) {
            g_autofree char *mass = g_strdup_printf("%.4g %s", m->body[b].mass, mt_unit_label(mt_unit_si(MT_DIM_MASS)));
            add_child(bodies, with_column(node_new(MOTUS_ENTITY_BODY, b, m->body[b].name, mass), "%s.y", m->body[b].name));
        }
        for (int k = 0; k < m->nmarker; k++) {
            int b = m->marker[k].body;
            MotusTreeNode *parent = ground;
            if (b >= 0) {
                MotusTreeNode *bn = g_list_model_get_item(G_LIST_MODEL(bodies->children), (guint)b + 1);
                parent = bn;
                g_object_unref(bn); /* still owned by the list */
            }
            /* TRANSLATORS: kind of a row in the model tree. */
            add_child(parent, node_new(MOTUS_ENTITY_MARKER, k, m->marker[k].name, _("marker")));
        }
        for (int k = 0; k < m->nshape; k++) {
            int b = m->shape[k].body;
            MotusTreeNode *parent = ground;
            if (b >= 0) {
                MotusTreeNode *bn = g_list_model_get_item(G_LIST_MODEL(bodies->children), (guint)b + 1);
                parent = bn;
                g_object_unref(bn);
            }
            g_autofree char *label = g_strdup_printf(_("shape %d"), k + 1);
            add_child(parent, node_new(MOTUS_ENTITY_SHAPE, k, label, mt_shape_kind_label(m->shape[k].kind)));
        }
        MotusTreeNode *joints = category(self->root, _("Joints"), m->njoint);
        for (int j = 0; j < m->njoint; j++) {
            const MtJointSpec *js = &m->joint[j];
            g_snprintf(buf, sizeof buf, "%s", mt_joint_type_label(js->type));
            MtCoordKind ck0 = mt_joint_default_coord(js->type);
            add_child(joints, ck0 != MT_COORD_NONE ? with_column(node_new(MOTUS_ENTITY_JOINT, j, js->name, buf),
                                                                  ck0 == MT_COORD_ANGLE ? "%s.angle" : ck0 == MT_COORD_DISP ? "%s.disp" : "%s.x", js->name)
                                                   : with_column(node_new(MOTUS_ENTITY_JOINT, j, js->name, buf), "%s.Fy", js->name));
        }
        MotusTreeNode *drivers = category(self->root, _("Drivers"), m->ndriver);
        for (int d = 0; d < m->ndriver; d++) {
            const MtDriverSpec *ds = &m->driver[d];
            if (ds->joint >= 0)
                g_snprintf(buf, sizeof buf, "%s", m->joint[ds->joint].name);
            else
                g_snprintf(buf, sizeof buf, "%s", _("markers"));
            add_child(drivers, with_column(node_new(MOTUS_ENTITY_DRIVER, d, ds->name, buf), "%s.effort", ds->name));
        }
        MotusTreeNode *springs = category(self->root, _("Springs"), m->nspring);
        for (int s = 0; s < m->nspring; s++) {
            g_snprintf(buf, sizeof buf, "k = %g N/m", m->spring[s].k);
            add_child(springs, with_column(node_new(MOTUS_ENTITY_SPRING, s, m->spring[s].name, buf), "%s.force", m->spring[s].name));
        }
        MotusTreeNode *couples = category(self->root, _("Couplings"), m->ncouple);
        for (int c = 0; c < m->ncouple; c++) {
            const MtCoupleSpec *cs = &m->couple[c];
            add_child(couples,
                      node_new(MOTUS_ENTITY_COUPLING, c, cs->name, mt_couple_kind_label(cs->kind)));
        }
        MotusTreeNode *forces = category(self->root, _("Force elements"), m->nforce);
        for (int f = 0; f < m->nforce; f++)
            add_child(forces, with_column(node_new(MOTUS_ENTITY_FORCE, f, m->force[f].name, mt_force_kind_label(m->force[f].kind)),
                                          "%s.defl", m->force[f].name));
        MotusTreeNode *sensors = category(self->root, _("Sensors"), m->nsensor);
        for (int k = 0; k < m->nsensor; k++)
            add_child(sensors, with_column(node_new(MOTUS_ENTITY_SENSOR, k, m->sensor[k].name,
                                                    mt_sensor_kind_label(m->sensor[k].kind)), "%s", m->sensor[k].name));
        MotusTreeNode *params = category(self->root, _("Parameters"), m->nparam);
        for (int k = 0; k < m->nparam; k++) {
            g_autofree char *v = g_strdup_printf("%s%s%s", m->param[k].expr, m->param[k].unit[0] ? " " : "", m->param[k].unit);
            add_child(params, node_new(MOTUS_ENTITY_PARAM, k, m->param[k].name, v));
        }
        /* open the categories (not the bodies' marker lists) */
        for (guint i = 0; i < g_list_model_get_n_items(G_LIST_MODEL(self->tree)); i++) {
            GtkTreeListRow *row = g_list_model_get_item(G_LIST_MODEL(self->tree), i);
            if (gtk_tree_list_row_get_depth(row) == 0) gtk_tree_list_row_set_expanded(row, TRUE);
            g_object_unref(row);
        }
    }
    self->quiet = FALSE;

}

static gboolean node_is(MotusTreeNode *n, MotusEntityKind kind, int index)
{
    return n && n->kind == kind && (kind == MOTUS_ENTITY_GROUND || n->index == index);
}

void motus_model_tree_select(MotusModelTree *self, MotusEntityKind kind, int index)
{
    guint pos = GTK_INVALID_LIST_POSITION;
    if (kind != MOTUS_ENTITY_NONE) {
        for (guint i = 0; i < g_list_model_get_n_items(G_LIST_MODEL(self->tree)) && pos == GTK_INVALID_LIST_POSITION;
             i++) {
            GtkTreeListRow *row = g_list_model_get_item(G_LIST_MODEL(self->tree), i);
            MotusTreeNode *n = gtk_tree_list_row_get_item(row);
            if (node_is(n, kind, index)) pos = i;
            /* markers and shapes live one level down: open their body */
            else if ((kind == MOTUS_ENTITY_MARKER || kind == MOTUS_ENTITY_SHAPE) && n->children &&
                     n->kind != MOTUS_ENTITY_NONE) {
                for (guint c = 0; c < g_list_model_get_n_items(G_LIST_MODEL(n->children)); c++) {
                    MotusTreeNode *ch = g_list_model_get_item(G_LIST_MODEL(n->children), c);
                    if (node_is(ch, kind, index)) gtk_tree_list_row_set_expanded(row, TRUE);
                    g_object_unref(ch);
                }
            }
            g_object_unref(n);
            g_object_unref(row);
        }
    }
    if (pos == gtk_single_selection_get_selected(self->selection)) return;
    gtk_single_selection_set_selected(self->selection, pos);
    if (pos != GTK_INVALID_LIST_POSITION)
        gtk_widget_activate_action(GTK_WIDGET(self->list), "list.scroll-to-item", "u", pos);
}

MotusEntityKind motus_model_tree_get_selected(MotusModelTree *self, int *index)
{
    guint pos = gtk_single_selection_get_selected(self->selection);
    MotusTreeNode *n = pos == GTK_INVALID_LIST_POSITION ? NULL : node_at(self, pos);
    MotusEntityKind kind = n ? n->kind : MOTUS_ENTITY_NONE;
    if (index) *index = n && n->kind != MOTUS_ENTITY_NONE ? n->index : -1;
    g_clear_object(&n);
    return kind;
}

const char *motus_model_tree_selected_column(MotusModelTree *self)
{
    GtkTreeListRow *row = gtk_single_selection_get_selected_item(self->selection);
    if (!row) return NULL;
    MotusTreeNode *n = gtk_tree_list_row_get_item(row);
    const char *c = n ? n->column : NULL;
    g_object_unref(n); /* the node stays in the tree */
    return c;
}

guint motus_model_tree_n_rows(MotusModelTree *self) { return g_list_model_get_n_items(G_LIST_MODEL(self->tree)); }
