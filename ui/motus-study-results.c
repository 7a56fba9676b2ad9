/* motus-study-results.c — a study's results in the Study panel (see
 * motus-study-results.h): the table is a GtkColumnView over the cases'
 * indices (strings), sorted by custom sorters that read the results; the
 * heat map averages a response over the cases at each pair of values of
 * two variables (the other variables' values averaged out); the plot joins a
 * response's values along one variable, a curve per value of the others;
 * the parallel coordinates put every variable and response on an axis. */
#include "motus-study-results.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "motus-dialog.h"
#include "motus-i18n.h"
#include "motus/study_run.h"

struct MotusStudyResults {
    MtStudy *study;
    int ncase;
    MtStudyCaseResult *res; /* per case */
    unsigned char *has;     /* per case: a result */
    int n;
    GtkWidget *notebook;
    GtkStringList *rows;    /* the cases with a result, their indices as text */
    GtkSortListModel *sorted;
    GtkColumnView *table;
    MotusHeatmap *heatmap;
    MotusPlot *plot;
    MotusParcoords *parcoords;
    MotusPlot *path; /* an optimisation's: the objective against the case, and the best so far */
    GtkDropDown *colour_dd;
    GtkDropDown *resp_dd, *x_dd, *y_dd, *presp_dd, *px_dd;
    gboolean quiet;
    MotusStudyCaseFn activate;
    gpointer user;
};

/* Table columns: the case, its status, the variables, the responses, its wall time. */
enum { COL_CASE = -2, COL_STATUS = -1 };
typedef struct {
    MotusStudyResults *r;
    int col; /* COL_…, a variable (0 …), a response (nvar …), the time (nvar + nresp) */
} Column;

static int item_case(gpointer item)
{
    return item ? atoi(gtk_string_object_get_string(GTK_STRING_OBJECT(item))) : -1;
}

/* A column's number for case c (NAN: none). */
static double col_value(const MotusStudyResults *r, int col, int c)
{
    const MtStudyCaseResult *x = &r->res[c];
    int nv = r->study->nvar, nr = r->study->nresp;
    if (col == COL_CASE) return c;
    if (col == COL_STATUS) return x->failed;
    if (col < nv) return x->values[col];
    if (col < nv + nr) return x->failed ? NAN : x->resp[col - nv];
    return x->seconds;
}

static void col_text(const MotusStudyResults *r, int col, int c, char *buf, size_t n)
{
    if (col == COL_STATUS) {
        g_strlcpy(buf, r->res[c].failed ? _("failed") : _("ok"), n);
        return;
    }
    double v = col_value(r, col, c);
    if (col == COL_CASE) g_snprintf(buf, n, "%d", c);
    else if (col == r->study->nvar + r->study->nresp) g_snprintf(buf, n, "%.3f", v); /* wall time: ms are enough */
    else if (isnan(v)) g_strlcpy(buf, "—", n);
    else g_snprintf(buf, n, "%.6g", v);
}

static int compare(gconstpointer a, gconstpointer b, gpointer data)
{
    const Column *k = data;
    int ca = item_case((gpointer)a), cb = item_case((gpointer)b);
    double va = col_value(k->r, k->col, ca), vb = col_value(k->r, k->col, cb);
    if (isnan(va) != isnan(vb)) return isnan(va) ? 1 : -1; /* nothing computed: last */
    if (va != vb && !isnan(va)) return va < vb ? -1 : 1;
    return ca < cb ? -1 : ca > cb;
}

static void setup_cell(GtkSignalListItemFactory *f, GtkListItem *li, gpointer data)
{
    (void)f;
    const Column *k = data;
    GtkWidget *l = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(l), k->col == COL_STATUS ? 0 : 1);
    if (k->col != COL_STATUS) gtk_widget_add_css_class(l, "numeric");
    gtk_list_item_set_child(li, l);
}

static void bind_cell(GtkSignalListItemFactory *f, GtkListItem *li, gpointer data)
{
    (void)f;
    const Column *k = data;
    int c = item_case(gtk_list_item_get_item(li));
    char buf[64] = "";
    if (c >= 0 && c < k->r->ncase) col_text(k->r, k->col, c, buf, sizeof buf);
    gtk_label_set_text(GTK_LABEL(gtk_list_item_get_child(li)), buf);
    if (c >= 0 && c < k->r->ncase && k->col == COL_STATUS && k->r->res[c].failed)
        gtk_widget_set_tooltip_text(gtk_list_item_get_child(li), k->r->res[c].message);
}

static void add_column(MotusStudyResults *r, int col, const char *title)
{
    Column *k = g_new0(Column, 1);
    k->r = r, k->col = col;
    GtkListItemFactory *f = gtk_signal_list_item_factory_new();
    g_signal_connect(f, "setup", G_CALLBACK(setup_cell), k);
    g_signal_connect(f, "bind", G_CALLBACK(bind_cell), k);
    GtkColumnViewColumn *c = gtk_column_view_column_new(title, f);
    g_object_set_data_full(G_OBJECT(c), "motus-column", k, g_free);
    gtk_column_view_column_set_sorter(c, GTK_SORTER(gtk_custom_sorter_new(compare, k, NULL)));
    gtk_column_view_column_set_resizable(c, TRUE);
    gtk_column_view_append_column(r->table, c);
    g_object_unref(c);
}

static void row_activated(GtkColumnView *cv, guint pos, gpointer data)
{
    (void)cv;
    MotusStudyResults *r = data;
    int c = motus_study_results_row_case(r, pos);
    if (c >= 0 && r->activate) r->activate(r->user, c);
}

static GtkWidget *build_table(MotusStudyResults *r)
{
    r->rows = gtk_string_list_new(NULL);
    r->table = GTK_COLUMN_VIEW(gtk_column_view_new(NULL));
    r->sorted = gtk_sort_list_model_new(G_LIST_MODEL(g_object_ref(r->rows)),
                                        g_object_ref(gtk_column_view_get_sorter(r->table)));
    GtkSingleSelection *sel = gtk_single_selection_new(G_LIST_MODEL(g_object_ref(r->sorted)));
    gtk_column_view_set_model(r->table, GTK_SELECTION_MODEL(sel));
    g_object_unref(sel);
    gtk_column_view_set_show_column_separators(r->table, TRUE);
    add_column(r, COL_CASE, _("Case"));
    add_column(r, COL_STATUS, _("Status"));
    const MtStudy *s = r->study;
    for (int i = 0; i < s->nvar; i++) {
        g_autofree char *t = s->var[i].unit[0] ? g_strdup_printf("%s, %s", s->var[i].name, s->var[i].unit)
                                               : g_strdup(s->var[i].name);
        add_column(r, i, t);
    }
    for (int i = 0; i < s->nresp; i++) add_column(r, s->nvar + i, s->resp[i].name);
    add_column(r, s->nvar + s->nresp, _("Time, s"));
    g_signal_connect(r->table, "activate", G_CALLBACK(row_activated), r);
    GtkWidget *sw = gtk_scrolled_window_new();
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(sw), GTK_WIDGET(r->table));
    gtk_widget_set_vexpand(sw, TRUE);
    return sw;
}

/* ---- the heat map and the plot ------------------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The distinct values variable v takes in the cases with a result (sorted; malloc'd); how many. */
static int distinct(const MotusStudyResults *r, int v, double **out)
{
    double *x = g_new(double, (gsize)r->ncase + 1);
    int n = 0;
    for (int c = 0; c < r->ncase; c++)
        if (r->has[c]) x[n++] = r->res[c].values[v];
    qsort(x, (size_t)n, sizeof *x, cmp_double);
    int m = 0;
    for (int i = 0; i < n; i++)
        if (!m || x[i] != x[m - 1]) x[m++] = x[i];
    *out = x;
    return m;
}

static int find(const double *x, int n, double v)
{
    for (int i = 0; i < n; i++)
        if (x[i] == v) return i;
    return -1;
}

static char *var_label(const MtStudyVar *v)
{
    return v->unit[0] ? g_strdup_printf("%s, %s", v->name, v->unit) : g_strdup(v->name);
}

static void refresh_heatmap(MotusStudyResults *r)
{
    const MtStudy *s = r->study;
    int resp = (int)gtk_drop_down_get_selected(r->resp_dd), xv = (int)gtk_drop_down_get_selected(r->x_dd),
        yv = (int)gtk_drop_down_get_selected(r->y_dd);
    if (s->nvar < 2 || resp >= s->nresp || xv >= s->nvar || yv >= s->nvar || xv == yv) {
        motus_heatmap_set_data(r->heatmap, 0, NULL, 0, NULL, NULL, NULL, NULL, NULL);
        motus_heatmap_set_placeholder(r->heatmap, s->nvar < 2 ? _("A heat map needs two variables")
                                                              : _("Choose two different variables"));
        return;
    }
    double *x, *y;
    int nx = distinct(r, xv, &x), ny = distinct(r, yv, &y);
    double *z = g_new0(double, (gsize)nx * (gsize)ny + 1);
    int *cnt = g_new0(int, (gsize)nx * (gsize)ny + 1);
    for (int c = 0; c < r->ncase; c++) {
        if (!r->has[c] || r->res[c].failed || isnan(r->res[c].resp[resp])) continue;
        int i = find(x, nx, r->res[c].values[xv]), j = find(y, ny, r->res[c].values[yv]);
        z[i * ny + j] += r->res[c].resp[resp];
        cnt[i * ny + j]++;
    }
    for (int k = 0; k < nx * ny; k++) z[k] = cnt[k] ? z[k] / cnt[k] : NAN;
    g_autofree char *xl = var_label(&s->var[xv]), *yl = var_label(&s->var[yv]);
    motus_heatmap_set_placeholder(r->heatmap, _("No finished cases yet"));
    motus_heatmap_set_data(r->heatmap, nx, x, ny, y, z, xl, yl, s->resp[resp].name);
    g_free(x), g_free(y), g_free(z), g_free(cnt);
}

/* Whether cases a and b have the same values of every variable but v. */
static gboolean same_others(const MotusStudyResults *r, int a, int b, int v)
{
    for (int i = 0; i < r->study->nvar; i++)
        if (i != v && r->res[a].values[i] != r->res[b].values[i]) return FALSE;
    return TRUE;
}

/* The curve's name: the other variables' values ("k = 100 N/m"). */
static char *curve_name(const MotusStudyResults *r, int c, int v)
{
    GString *s = g_string_new(NULL);
    for (int i = 0; i < r->study->nvar; i++) {
        if (i == v) continue;
        const MtStudyVar *var = &r->study->var[i];
        g_string_append_printf(s, "%s%s = %.4g%s%s", s->len ? ", " : "", var->name, r->res[c].values[i],
                               var->unit[0] ? " " : "", var->unit);
    }
    if (!s->len) g_string_append(s, r->study->resp[0].name);
    return g_string_free(s, FALSE);
}

static void refresh_plot(MotusStudyResults *r)
{
    const MtStudy *s = r->study;
    int resp = (int)gtk_drop_down_get_selected(r->presp_dd), v = (int)gtk_drop_down_get_selected(r->px_dd);
    motus_plot_clear(r->plot);
    if (resp >= s->nresp || v >= s->nvar) return;
    g_autofree char *xl = var_label(&s->var[v]);
    motus_plot_set_x_axis(r->plot, xl, "");
    unsigned char *used = g_new0(unsigned char, (gsize)r->ncase + 1);
    double *x = g_new(double, (gsize)r->ncase + 1), *y = g_new(double, (gsize)r->ncase + 1);
    for (int c = 0; c < r->ncase; c++) {
        if (!r->has[c] || used[c] || r->res[c].failed) continue;
        guint n = 0;
        for (int d = c; d < r->ncase; d++) /* the cases along v with the others as in c */
            if (r->has[d] && !used[d] && !r->res[d].failed && same_others(r, c, d, v)) {
                used[d] = 1;
                x[n] = r->res[d].values[v], y[n] = r->res[d].resp[resp], n++;
            }
        for (guint i = 1; i < n; i++) /* along x: points are joined in order */
            for (guint k = i; k > 0 && x[k - 1] > x[k]; k--) {
                double tx = x[k], ty = y[k];
                x[k] = x[k - 1], y[k] = y[k - 1], x[k - 1] = tx, y[k - 1] = ty;
            }
        g_autofree char *name = curve_name(r, c, v);
        g_autofree char *title = g_strdup_printf("%s (%s)", s->resp[resp].name, name);
        int k = motus_plot_add_curve(r->plot, title, "");
        motus_plot_set_data(r->plot, k, x, y, n);
    }
    g_free(used), g_free(x), g_free(y);
}

/* Every variable and response an axis, every case a line, coloured by the response chosen. */
static void refresh_parcoords(MotusStudyResults *r)
{
    const MtStudy *s = r->study;
    int na = s->nvar + s->nresp, nl = 0;
    const char **name = g_new0(const char *, (gsize)na + 1);
    for (int i = 0; i < s->nvar; i++) name[i] = s->var[i].name;
    for (int i = 0; i < s->nresp; i++) name[s->nvar + i] = s->resp[i].name;
    double *v = g_new(double, (gsize)na * (gsize)r->n + 1);
    for (int c = 0; c < r->ncase; c++) {
        if (!r->has[c]) continue;
        for (int i = 0; i < s->nvar; i++) v[nl * na + i] = r->res[c].values[i];
        for (int i = 0; i < s->nresp; i++) v[nl * na + s->nvar + i] = r->res[c].failed ? NAN : r->res[c].resp[i];
        nl++;
    }
    int colour = (int)gtk_drop_down_get_selected(r->colour_dd);
    motus_parcoords_set_data(r->parcoords, na, name, nl, v, colour < s->nresp ? s->nvar + colour : -1);
    g_free(name);
    g_free(v);
}

/* An optimisation's path: the objective of every finished case in the order the optimiser asked for
 * them, and the best so far (by the optimum's rule: constraints holding first, motus/study_run.h). */
static void refresh_path(MotusStudyResults *r)
{
    const MtStudy *s = r->study;
    int o = mt_study_find_response(s, s->objective);
    motus_plot_clear(r->path);
    if (o < 0) return;
    motus_plot_set_x_axis(r->path, _("case"), "");
    double *x = g_new(double, (gsize)r->ncase + 1), *y = g_new(double, (gsize)r->ncase + 1), *by = g_new(double, (gsize)r->ncase + 1);
    guint n = 0;
    int best = -1;
    for (int c = 0; c < r->ncase; c++) {
        if (!r->has[c] || r->res[c].failed) continue;
        if (best < 0 || mt_study_opt_better(s, r->res[c].resp, r->res[best].resp)) best = c;
        x[n] = c, y[n] = r->res[c].resp[o], by[n] = r->res[best].resp[o], n++;
    }
    int k = motus_plot_add_curve(r->path, s->objective, "");
    motus_plot_set_data(r->path, k, x, y, n);
    g_autofree char *bn = g_strdup_printf(_("%s, best so far"), s->objective);
    k = motus_plot_add_curve(r->path, bn, "");
    motus_plot_set_data(r->path, k, x, by, n);
    g_free(x), g_free(y), g_free(by);
}

/* The page shown is drawn again (the others when they are shown: a study's cases arrive many times a second). */
static void refresh_views(MotusStudyResults *r)
{
    if (r->quiet || !r->notebook) return;
    int page = gtk_notebook_get_current_page(GTK_NOTEBOOK(r->notebook));
    if (page == 1) refresh_heatmap(r);
    if (page == 2) refresh_plot(r);
    if (page == 3) refresh_parcoords(r);
    if (page == 4) refresh_path(r);
}

static void page_switched(GtkNotebook *nb, GtkWidget *child, guint page, gpointer data)
{
    (void)nb, (void)child;
    MotusStudyResults *r = data;
    if (r->quiet) return;
    if (page == 1) refresh_heatmap(r);
    if (page == 2) refresh_plot(r);
    if (page == 3) refresh_parcoords(r);
    if (page == 4) refresh_path(r);
}

static void choice_changed(GObject *o, GParamSpec *p, gpointer data)
{
    (void)o, (void)p;
    refresh_views(data);
}

static GtkDropDown *names_dropdown(MotusStudyResults *r, GtkWidget *box, const char *label, gboolean resp)
{
    GtkStringList *l = gtk_string_list_new(NULL);
    for (int i = 0; i < (resp ? r->study->nresp : r->study->nvar); i++)
        gtk_string_list_append(l, resp ? r->study->resp[i].name : r->study->var[i].name);
    GtkWidget *dd = gtk_drop_down_new(G_LIST_MODEL(l), NULL);
    gtk_box_append(GTK_BOX(box), gtk_label_new(label));
    gtk_box_append(GTK_BOX(box), dd);
    g_signal_connect(dd, "notify::selected", G_CALLBACK(choice_changed), r);
    return GTK_DROP_DOWN(dd);
}

/* A page's box: its choices in a bar above its view, off the notebook's edges. */
static GtkWidget *page_box(GtkWidget **bar)
{
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
    *bar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    motus_set_margins(box, 6, 6);
    return box;
}

/* The page done: the bar of choices above the view, which takes the height. */
static GtkWidget *page_done(GtkWidget *box, GtkWidget *bar, GtkWidget *view)
{
    gtk_widget_set_vexpand(view, TRUE);
    gtk_box_append(GTK_BOX(box), bar);
    gtk_box_append(GTK_BOX(box), view);
    return box;
}

/* A double click on a cell: the first finished case at its pair of values is activated (its run opened). */
static void cell_activated(MotusHeatmap *h, int i, int j, gpointer data)
{
    (void)h;
    MotusStudyResults *r = data;
    int xv = (int)gtk_drop_down_get_selected(r->x_dd), yv = (int)gtk_drop_down_get_selected(r->y_dd);
    double *x, *y;
    int nx = distinct(r, xv, &x), ny = distinct(r, yv, &y), hit = -1;
    for (int c = 0; c < r->ncase && hit < 0 && i < nx && j < ny; c++)
        if (r->has[c] && !r->res[c].failed && r->res[c].values[xv] == x[i] && r->res[c].values[yv] == y[j]) hit = c;
    g_free(x), g_free(y);
    if (hit >= 0 && r->activate) r->activate(r->user, hit);
}

static GtkWidget *build_heatmap(MotusStudyResults *r)
{
    GtkWidget *bar, *box = page_box(&bar);
    r->resp_dd = names_dropdown(r, bar, _("Response"), TRUE);
    r->x_dd = names_dropdown(r, bar, _("Across"), FALSE);
    r->y_dd = names_dropdown(r, bar, _("Up"), FALSE);
    if (r->study->nvar > 1) gtk_drop_down_set_selected(r->y_dd, 1);
    r->heatmap = MOTUS_HEATMAP(motus_heatmap_new());
    g_signal_connect(r->heatmap, "cell-activated", G_CALLBACK(cell_activated), r);
    return page_done(box, bar, GTK_WIDGET(r->heatmap));
}

static GtkWidget *build_plot(MotusStudyResults *r)
{
    GtkWidget *bar, *box = page_box(&bar);
    r->presp_dd = names_dropdown(r, bar, _("Response"), TRUE);
    r->px_dd = names_dropdown(r, bar, _("Against"), FALSE);
    r->plot = MOTUS_PLOT(motus_plot_new());
    motus_plot_set_placeholder(r->plot, _("No finished cases yet"));
    return page_done(box, bar, GTK_WIDGET(r->plot));
}

static GtkWidget *build_parcoords(MotusStudyResults *r)
{
    GtkWidget *bar, *box = page_box(&bar);
    r->colour_dd = names_dropdown(r, bar, _("Colour by"), TRUE);
    r->parcoords = MOTUS_PARCOORDS(motus_parcoords_new());
    return page_done(box, bar, GTK_WIDGET(r->parcoords));
}

/* ---- life ------------------------------------------------------------------------------------------- */

MotusStudyResults *motus_study_results_new(const MtStudy *s, MotusStudyCaseFn activate, gpointer user)
{
    MotusStudyResults *r = g_new0(MotusStudyResults, 1);
    r->study = mt_study_copy(s);
    MtError err = {0};
    r->ncase = r->study ? mt_study_ncases(r->study, &err) : 0;
    if (r->ncase < 0) r->ncase = 0;
    r->res = g_new0(MtStudyCaseResult, (gsize)r->ncase + 1);
    r->has = g_new0(unsigned char, (gsize)r->ncase + 1);
    r->activate = activate, r->user = user;
    if (!r->study) r->study = mt_study_new(); /* out of memory: an empty study shows nothing */
    r->quiet = TRUE;
    r->notebook = gtk_notebook_new();
    g_object_ref_sink(r->notebook);
    gtk_notebook_append_page(GTK_NOTEBOOK(r->notebook), build_table(r), gtk_label_new(_("Cases")));
    gtk_notebook_append_page(GTK_NOTEBOOK(r->notebook), build_heatmap(r), gtk_label_new(_("Heat Map")));
    gtk_notebook_append_page(GTK_NOTEBOOK(r->notebook), build_plot(r), gtk_label_new(_("Response Plot")));
    gtk_notebook_append_page(GTK_NOTEBOOK(r->notebook), build_parcoords(r),
                             gtk_label_new(_("Parallel Coordinates")));
    if (r->study->optimize) {
        r->path = MOTUS_PLOT(motus_plot_new());
        motus_plot_set_placeholder(r->path, _("No finished cases yet"));
        gtk_widget_set_vexpand(GTK_WIDGET(r->path), TRUE);
        gtk_notebook_append_page(GTK_NOTEBOOK(r->notebook), GTK_WIDGET(r->path), gtk_label_new(_("Optimisation Path")));
    }
    g_signal_connect(r->notebook, "switch-page", G_CALLBACK(page_switched), r);
    r->quiet = FALSE;
    refresh_views(r);
    return r;
}

void motus_study_results_free(MotusStudyResults *r)
{
    if (!r) return;
    g_object_unref(r->notebook);
    g_clear_object(&r->sorted);
    g_clear_object(&r->rows);
    mt_study_free(r->study);
    g_free(r->res);
    g_free(r->has);
    g_free(r);
}

GtkWidget *motus_study_results_widget(MotusStudyResults *r) { return r->notebook; }

/* 1: a new case, 0: one replaced, -1: none of the study's. */
static int store_case(MotusStudyResults *r, const MtStudyCaseResult *c)
{
    if (c->index < 0 || c->index >= r->ncase) return -1;
    int fresh = !r->has[c->index];
    r->n += fresh;
    r->res[c->index] = *c;
    r->has[c->index] = 1;
    return fresh;
}

/* The table's rows again (the sorter orders them): one per case with a result. */
static void refill(MotusStudyResults *r)
{
    char **idx = g_new0(char *, (gsize)r->n + 1);
    int k = 0;
    for (int c = 0; c < r->ncase; c++)
        if (r->has[c]) idx[k++] = g_strdup_printf("%d", c);
    gtk_string_list_splice(r->rows, 0, g_list_model_get_n_items(G_LIST_MODEL(r->rows)), (const char *const *)idx);
    g_strfreev(idx);
    refresh_views(r);
}

void motus_study_results_set(MotusStudyResults *r, const MtStudyCaseResult *c, int n)
{
    memset(r->has, 0, (size_t)r->ncase);
    r->n = 0;
    for (int i = 0; i < n; i++) store_case(r, &c[i]);
    refill(r);
}

void motus_study_results_put(MotusStudyResults *r, const MtStudyCaseResult *c, int n)
{
    char **idx = g_new0(char *, (gsize)n + 1);
    int k = 0, replaced = 0;
    for (int i = 0; i < n; i++) {
        int s = store_case(r, &c[i]);
        if (s > 0) idx[k++] = g_strdup_printf("%d", c[i].index);
        replaced |= s == 0;
    }
    if (replaced) {
        refill(r); /* a row's values changed: every row again */
    } else if (k) { /* only new rows: appended (the sorter places them), the views drawn again once */
        gtk_string_list_splice(r->rows, g_list_model_get_n_items(G_LIST_MODEL(r->rows)), 0, (const char *const *)idx);
        refresh_views(r);
    }
    g_strfreev(idx);
}

int motus_study_results_n(MotusStudyResults *r) { return r->n; }

const MtStudyCaseResult *motus_study_results_case(MotusStudyResults *r, int c)
{
    return c >= 0 && c < r->ncase && r->has[c] ? &r->res[c] : NULL;
}

/* The message field as motus-cli writes it: always quoted, its quotes doubled. */
static void csv_quoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++)
        if (*s == '"') fputs("\"\"", f);
        else fputc(*s, f);
    fputc('"', f);
}

gboolean motus_study_results_export_csv(MotusStudyResults *r, const char *path, GError **error)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno), _("Cannot write '%s': %s"), path,
                    g_strerror(errno));
        return FALSE;
    }
    const MtStudy *s = r->study;
    fputs("case,status", f);
    for (int i = 0; i < s->nvar; i++) fprintf(f, ",%s", s->var[i].name);
    for (int i = 0; i < s->nresp; i++) fprintf(f, ",%s", s->resp[i].name);
    fputs(",seconds,job,frames,message\n", f);
    for (int c = 0; c < r->ncase; c++) {
        if (!r->has[c]) continue;
        const MtStudyCaseResult *x = &r->res[c];
        fprintf(f, "%d,%s", c, x->failed ? "failed" : "ok");
        for (int i = 0; i < s->nvar; i++) fprintf(f, ",%.17g", x->values[i]);
        for (int i = 0; i < s->nresp; i++) fprintf(f, isfinite(x->resp[i]) ? ",%.17g" : ",", x->resp[i]);
        fprintf(f, ",%.3f,%s,%s,", x->seconds, x->job, x->frames);
        csv_quoted(f, x->message);
        fputc('\n', f);
    }
    if (fclose(f)) {
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno), _("Cannot write '%s': %s"), path,
                    g_strerror(errno));
        return FALSE;
    }
    return TRUE;
}

void motus_study_results_choose(MotusStudyResults *r, int resp, int xvar, int yvar)
{
    r->quiet = TRUE;
    gtk_drop_down_set_selected(r->resp_dd, (guint)resp);
    gtk_drop_down_set_selected(r->presp_dd, (guint)resp);
    gtk_drop_down_set_selected(r->colour_dd, (guint)resp);
    gtk_drop_down_set_selected(r->x_dd, (guint)xvar);
    gtk_drop_down_set_selected(r->px_dd, (guint)xvar);
    gtk_drop_down_set_selected(r->y_dd, (guint)yvar);
    r->quiet = FALSE;
    refresh_heatmap(r); /* every view, shown or not: they are read as chosen */
    refresh_plot(r);
    refresh_parcoords(r);
}

GtkColumnView *motus_study_results_table(MotusStudyResults *r) { return r->table; }
MotusHeatmap *motus_study_results_heatmap(MotusStudyResults *r) { return r->heatmap; }
MotusPlot *motus_study_results_plot(MotusStudyResults *r) { return r->plot; }
MotusParcoords *motus_study_results_parcoords(MotusStudyResults *r) { return r->parcoords; }
MotusPlot *motus_study_results_path(MotusStudyResults *r) { return r->path; }
GtkNotebook *motus_study_results_notebook(MotusStudyResults *r) { return GTK_NOTEBOOK(r->notebook); }

int motus_study_results_row_case(MotusStudyResults *r, guint i)
{
    gpointer item = g_list_model_get_item(G_LIST_MODEL(r->sorted), i);
    int c = item_case(item);
    if (item) g_object_unref(item);
    return c;
}
