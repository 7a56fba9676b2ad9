/* motus-window-analysis.c — statics, kinematics and modes from the window:
 * the header bar's "Analysis" menu and the actions win.statics (F7),
 * win.statics-relax (settling downhill first, towards a stable rest, as
 * motus-cli statics --relax), win.kinematics (F8) and win.modes (F9) start
 * them on the run bridge's worker (motus-analysis-job.c) as a run starts,
 * with its progress and Stop.
 * Their frames come back as a run's do: kinematics is a run to plot and
 * play; statics is one frame, the equilibrium, which the view shows
 * (flexible bodies deformed and coloured as in a run); modes show their
 * equilibrium too. What a frame does not hold is shown in a window of its
 * own: the statics' stability, reactions, efforts, springs and elastic
 * maxima; the modes' table (frequency, damping ratio, kind), where a
 * selected mode is animated in the 3D view, rigid and flexible bodies
 * together. Kinematics and statics are stored in the project as runs (their
 * run log says which analysis made them); modes are kept in the project as
 * modes (motus/store.h), and "Stored Modes" shows the last of the model as
 * saved again, animated, without linearising.
 * A private part of MotusWindow (motus-window-private.h). */
#include <math.h>
#include <string.h>

#include "motus-dialog.h"
#include "motus-i18n.h"
#include "motus-window-analysis.h"
#include "motus-window-private.h"
#include "motus/store.h"
#include "motus/units.h"

typedef struct AnalysisUi {
    MotusAnalysis *pending; /* on the worker */
    MotusAnalysis *shown;   /* the last one finished: its window and animation */
    GtkWidget *button, *dialog, *mode_list;
    int animated;           /* mode animated (-1: none) */
    guint tick_id, timer_id;
    gint64 tick_start, started;
    gboolean restoring;     /* the window's own frame is being shown again */
} AnalysisUi;

/* One period of an animated mode on screen, s (whatever its frequency). */
#define MODE_PERIOD 1.6

/* What the window says of an analysis, whole sentences per kind (their words agree in every language). */
enum { SAY_FAILED, SAY_FAILED_TITLE, SAY_STOPPED, SAY_CANNOT, SAY_BUSY, SAY_N };
static const char *say(MotusAnalysisKind k, int what)
{
    static const char *const text[3][SAY_N] = {
        {N_("Statics failed: %s"), N_("Statics failed"), N_("Statics stopped"), N_("Statics cannot start: %s"),
         N_("Finding the static equilibrium…")},
        {N_("Kinematics failed: %s"), N_("Kinematics failed"), N_("Kinematics stopped"),
         N_("Kinematics cannot start: %s"), N_("Kinematic analysis…")},
        {N_("Modes failed: %s"), N_("Modes failed"), N_("Modes stopped"), N_("Modes cannot start: %s"),
         N_("Finding the equilibrium and linearising about it…")},
    };
    return _(text[k][what]);
}

/* ---- the mode animated in the 3D view --------------------------------------------------- */

static void stop_animation(MotusWindow *self);

static gboolean anim_tick(GtkWidget *w, GdkFrameClock *clock, gpointer data)
{
    (void)w;
    MotusWindow *self = data;
    AnalysisUi *ui = self->analysis;
    const MotusAnalysis *a = ui->shown;
    const MtModel *m = motus_window_model(self);
    gint64 now = gdk_frame_clock_get_frame_time(clock);
    if (!ui->tick_start) ui->tick_start = now;
    double t = (double)(now - ui->tick_start) * 1e-6;
    int p = (int)fmod(t / MODE_PERIOD * MOTUS_MODE_PHASES, MOTUS_MODE_PHASES);
    const double *f = motus_analysis_mode_frame(a, ui->animated, p);
    if (motus_viewport_preview_body(self->viewport) >= 0) { /* a flexible body's own mode took the view */
        ui->tick_id = 0;
        stop_animation(self);
        return G_SOURCE_REMOVE;
    }
    if (!f || !m || m->nbody != a->nbody) return G_SOURCE_CONTINUE;
    motus_viewport_set_poses(self->viewport, f);
    if (a->nview && a->nview == motus_viewport_n_modal(self->viewport))
        motus_viewport_set_modal(self->viewport, f + 7 * a->nbody, a->nview);
    return G_SOURCE_CONTINUE;
}

/* Stops the animation; the view shows the session's frame again. */
static void stop_animation(MotusWindow *self)
{
    AnalysisUi *ui = self->analysis;
    if (!ui || ui->animated < 0) return;
    if (ui->tick_id) gtk_widget_remove_tick_callback(GTK_WIDGET(self), ui->tick_id);
    ui->tick_id = 0;
    ui->animated = -1;
    if (!self->session) return; /* the window is going */
    motus_viewport_set_run_max(self->viewport, self->flex_max[0], self->flex_max[1]); /* the frames' colour range */
    ui->restoring = TRUE;
    motus_session_show_time(self->session, motus_session_get_time(self->session));
    ui->restoring = FALSE;
}

static void start_animation(MotusWindow *self, int k)
{
    AnalysisUi *ui = self->analysis;
    stop_animation(self);
    if (!motus_analysis_mode_frame(ui->shown, k, 0)) return;
    motus_window_stop_playback(self);
    motus_viewport_preview_mode(self->viewport, -1, -1); /* a flexible body's own mode would hide it */
    ui->animated = k;
    ui->tick_start = 0;
    /* the view takes in the bodies' motion (as after a run; it fits it unless the camera was moved) */
    const MtModel *m = motus_window_model(self);
    for (int p = 0; m && m->nbody == ui->shown->nbody && p < MOTUS_MODE_PHASES; p += MOTUS_MODE_PHASES / 8)
        motus_viewport_include_poses(self->viewport, motus_analysis_mode_frame(ui->shown, k, p));
    motus_viewport_motion_done(self->viewport);
    if (ui->shown->anim_max) /* the colours span the mode's deformation, not the equilibrium's */
        motus_viewport_set_run_max(self->viewport, ui->shown->anim_max[2 * k], ui->shown->anim_max[2 * k + 1]);
    ui->tick_id = gtk_widget_add_tick_callback(GTK_WIDGET(self), anim_tick, self, NULL);
}

/* Something else chose the time shown (playback, the slider, a run): the animation gives way. */
static void time_changed(MotusSession *s, double t, gpointer data)
{
    (void)s, (void)t;
    MotusWindow *self = data;
    if (!self->analysis->restoring) stop_animation(self);
}

/* ---- the results' window ------------------------------------------------------------------ */

static void dialog_destroyed(GtkWidget *w, gpointer data)
{
    (void)w;
    MotusWindow *self = data;
    if (!self->analysis) return;
    self->analysis->dialog = self->analysis->mode_list = NULL;
    stop_animation(self);
}

static void close_dialog(MotusWindow *self)
{
    AnalysisUi *ui = self->analysis;
    stop_animation(self);
    if (ui->dialog) gtk_window_destroy(GTK_WINDOW(ui->dialog)); /* "destroy" clears the pointers */
}

/* A new window for the results (the previous one goes), its content box returned. */
static GtkWidget *new_dialog(MotusWindow *self, const char *title, int width, int height)
{
    AnalysisUi *ui = self->analysis;
    close_dialog(self);
    GtkWidget *d = motus_dialog_new(GTK_WINDOW(self), title, width, height);
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8);
    motus_set_margins(box, 12, 12);
    gtk_window_set_child(GTK_WINDOW(d), box);
    g_signal_connect(d, "destroy", G_CALLBACK(dialog_destroyed), self);
    ui->dialog = d;
    return box;
}

/* Shows a results window with the focus on Close: no selectable value is shown selected, and no mode
 * starts animating before one is chosen. */
static void present_dialog(GtkWidget *d)
{
    GtkWidget *close = g_object_get_data(G_OBJECT(d), "close");
    if (close) gtk_window_set_focus(GTK_WINDOW(d), close);
    gtk_window_present(GTK_WINDOW(d));
}

static GtkWidget *wrapped_label(const char *text, gboolean dim)
{
    GtkWidget *l = gtk_label_new(text);
    gtk_label_set_wrap(GTK_LABEL(l), TRUE);
    gtk_label_set_xalign(GTK_LABEL(l), 0);
    if (dim) gtk_widget_add_css_class(l, "dim-label");
    return l;
}

/* A table of results: one grid per section (so that one section's long titles do not widen another's
 * columns), and the same as tab-separated text for the clipboard. */
typedef struct {
    GtkBox *box;
    GtkGrid *g;
    int row, col;
    GString *text;
} Table;

/* A cell of the current row: numbers right-aligned in tabular figures and selectable (to copy one). */
static void cell(Table *t, const char *text, gboolean number)
{
    GtkWidget *l = gtk_label_new(text);
    gtk_label_set_xalign(GTK_LABEL(l), number ? 1 : 0);
    gtk_label_set_selectable(GTK_LABEL(l), TRUE);
    if (number) gtk_widget_add_css_class(l, "numeric");
    gtk_grid_attach(t->g, l, t->col, t->row, 1, 1);
    g_string_append_printf(t->text, "%s%s", t->col ? "\t" : "", text);
    t->col++;
}

static void cell_num(Table *t, double v)
{
    char buf[48];
    if (isnan(v))
        g_strlcpy(buf, "—", sizeof buf);
    else
        g_snprintf(buf, sizeof buf, "%.6g", fabs(v) < 1e-300 ? 0.0 : v);
    cell(t, buf, TRUE);
}

static void end_row(Table *t)
{
    g_string_append_c(t->text, '\n');
    t->row++, t->col = 0;
}

/* A heading, then a grid with the column titles (NULL-terminated) that the rows go into. */
static void section(Table *t, const char *title, const char *const *cols)
{
    GtkWidget *l = gtk_label_new(title);
    gtk_label_set_xalign(GTK_LABEL(l), 0);
    gtk_label_set_wrap(GTK_LABEL(l), TRUE);
    gtk_widget_add_css_class(l, "heading");
    gtk_widget_set_margin_top(l, t->g ? 10 : 0);
    gtk_box_append(t->box, l);
    t->g = GTK_GRID(gtk_grid_new());
    gtk_grid_set_column_spacing(t->g, 18);
    gtk_grid_set_row_spacing(t->g, 2);
    gtk_box_append(t->box, GTK_WIDGET(t->g));
    g_string_append_printf(t->text, "%s%s\n", t->text->len ? "\n" : "", title);
    t->row = t->col = 0;
    for (int c = 0; cols[c]; c++) {
        GtkWidget *h = gtk_label_new(cols[c]);
        gtk_label_set_xalign(GTK_LABEL(h), c > 0);
        gtk_widget_add_css_class(h, "dim-label");
        gtk_grid_attach(t->g, h, c, 0, 1, 1);
        g_string_append_printf(t->text, "%s%s", c ? "\t" : "", cols[c]);
    }
    end_row(t);
}

/* The statics' summary: how it was found, how stable it is, how well it balances. */
static char *statics_summary(const MtStaticsInfo *in)
{
    GString *s = g_string_new(NULL);
    if (in->relax_steps)
        g_string_append_printf(s, _("Static equilibrium found: %d Newton iterations after %ld dynamic-relaxation steps."),
                               in->iterations, in->relax_steps);
    else
        g_string_append_printf(s, _("Static equilibrium found: %d Newton iterations."), in->iterations);
    g_string_append_c(s, '\n');
    if (in->negative)
        g_string_append_printf(s, _("UNSTABLE: %d direction(s) with negative stiffness (lowest eigenvalue of M⁻¹K: %.6g 1/s²)."),
                               in->negative, in->lowest);
    else if (in->dof)
        g_string_append_printf(s, _("Stable (lowest eigenvalue of M⁻¹K: %.6g 1/s²)."), in->lowest);
    else
        g_string_append(s, _("No degree of freedom is left: the constraints alone hold the mechanism."));
    if (in->neutral) g_string_append_printf(s, _(" %d neutral direction(s) (free motions)."), in->neutral);
    g_string_append_c(s, '\n');
    g_string_append_printf(s, _("Residual: force %.3g N, moment %.3g N·m, constraints %.3g."), in->force_residual,
                           in->moment_residual, in->constraint_residual);
    return g_string_free(s, FALSE);
}

/* Bodies, joint reactions, driver efforts, springs and flexible bodies' maxima, a section each. */
static void statics_tables(Table *t, const MtModel *m, const MotusAnalysis *a)
{
    /* unit symbols as the interface writes them (м, Н in Russian) */
    const char *m_ = mt_unit_label(mt_unit_si(MT_DIM_LENGTH)), *n_ = mt_unit_label(mt_unit_si(MT_DIM_FORCE)),
               *nm_ = mt_unit_label(mt_unit_si(MT_DIM_TORQUE));
    g_autofree char *x = g_strdup_printf("x [%s]", m_), *y = g_strdup_printf("y [%s]", m_), *z = g_strdup_printf("z [%s]", m_);
    g_autofree char *fx = g_strdup_printf("Fx [%s]", n_), *fy = g_strdup_printf("Fy [%s]", n_),
                    *fz = g_strdup_printf("Fz [%s]", n_);
    g_autofree char *tx = g_strdup_printf("Tx [%s]", nm_), *ty = g_strdup_printf("Ty [%s]", nm_),
                    *tz = g_strdup_printf("Tz [%s]", nm_);
    const char *const bodies[] = {_("Body"), x, y, z, NULL};
    section(t, _("Positions of the bodies (origin, project axes)"), bodies);
    for (int b = 0; b < m->nbody; b++, end_row(t)) {
        cell(t, m->body[b].name, FALSE);
        for (int i = 0; i < 3; i++) cell_num(t, a->body_pos[3 * b + i]);
    }
    if (m->njoint) {
        const char *const cols[] = {_("Joint"), fx, fy, fz, tx, ty, tz, NULL};
        section(t, _("Joint reactions on the body of marker i (project axes, moments about marker i)"), cols);
        for (int j = 0; j < m->njoint; j++, end_row(t)) {
            cell(t, m->joint[j].name, FALSE);
            for (int i = 0; i < 6; i++) cell_num(t, a->reaction[6 * j + i]);
        }
    }
    if (m->ndriver) {
        const char *const cols[] = {_("Driver"), _("holding effort [N or N·m]"), NULL};
        section(t, _("Drivers (they hold their coordinates)"), cols);
        for (int d = 0; d < m->ndriver; d++, end_row(t)) {
            cell(t, m->driver[d].name, FALSE);
            cell_num(t, a->effort[d]);
        }
    }
    if (m->nspring) {
        const char *const cols[] = {_("Spring"), _("length [m]"), _("tension [N]"), NULL};
        section(t, _("Springs"), cols);
        for (int s = 0; s < m->nspring; s++, end_row(t)) {
            cell(t, m->spring[s].name, FALSE);
            cell_num(t, a->spring[2 * s]);
            cell_num(t, a->spring[2 * s + 1]);
        }
    }
    gboolean flex = FALSE;
    for (int b = 0; b < m->nbody; b++) flex |= !isnan(a->flex_max[2 * b]);
    if (!flex) return;
    const char *const cols[] = {_("Flexible body"), _("largest displacement [mm]"), _("largest von Mises stress [MPa]"), NULL};
    section(t, _("Static deformation (relative to the supports)"), cols);
    for (int b = 0; b < m->nbody; b++) {
        if (isnan(a->flex_max[2 * b])) continue;
        cell(t, m->body[b].name, FALSE);
        cell_num(t, a->flex_max[2 * b] * 1e3);
        cell_num(t, a->flex_max[2 * b + 1] * 1e-6);
        end_row(t);
    }
}

static void copy_clicked(GtkButton *b, gpointer text)
{
    gdk_clipboard_set_text(gtk_widget_get_clipboard(GTK_WIDGET(b)), text);
}

/* Copy (the text) and Close at the bottom of a results window (present_dialog gives Close the focus). */
static GtkWidget *dialog_buttons(GtkWidget *d, char *text)
{
    GtkWidget *row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
    gtk_widget_set_halign(row, GTK_ALIGN_END);
    GtkWidget *copy = gtk_button_new_with_mnemonic(_("_Copy as Text")), *close = gtk_button_new_with_mnemonic(_("_Close"));
    gtk_widget_set_tooltip_text(copy, _("Copy the tables to the clipboard, tab-separated (for a spreadsheet)"));
    g_object_set_data_full(G_OBJECT(copy), "text", text, g_free);
    g_signal_connect(copy, "clicked", G_CALLBACK(copy_clicked), text);
    g_signal_connect_swapped(close, "clicked", G_CALLBACK(gtk_window_destroy), d);
    gtk_box_append(GTK_BOX(row), copy);
    gtk_box_append(GTK_BOX(row), close);
    g_object_set_data(G_OBJECT(d), "close", close);
    return row;
}

static GtkWidget *scrolled(GtkWidget *child)
{
    GtkWidget *sc = gtk_scrolled_window_new();
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(sc), child);
    gtk_widget_set_vexpand(sc, TRUE);
    return sc;
}

static void show_statics(MotusWindow *self, const MotusAnalysis *a)
{
    const MtModel *m = motus_window_model(self);
    GtkWidget *box = new_dialog(self, _("Static Equilibrium"), 720, 460);
    g_autofree char *sum = statics_summary(&a->statics);
    gtk_box_append(GTK_BOX(box), wrapped_label(sum, FALSE));
    Table t = {GTK_BOX(gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)), NULL, 0, 0, g_string_new(sum)};
    g_string_append_c(t.text, '\n');
    statics_tables(&t, m, a);
    gtk_box_append(GTK_BOX(box), scrolled(GTK_WIDGET(t.box)));
    gtk_box_append(GTK_BOX(box), wrapped_label(_("The 3D view shows the equilibrium, flexible bodies deformed and coloured "
                                                 "(scale and map in their bar); the plots show it as one frame."), TRUE));
    GtkWidget *d = self->analysis->dialog;
    gtk_box_append(GTK_BOX(box), dialog_buttons(d, g_string_free(t.text, FALSE)));
    present_dialog(d);
}

/* ---- the modes' table ------------------------------------------------------------------------- */

static GtkWidget *mode_row(const char *no, const char *freq, const char *zeta, const char *kind, gboolean heading)
{
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12);
    const char *text[4] = {no, freq, zeta, kind};
    static const int chars[4] = {4, 14, 10, 16};
    for (int i = 0; i < 4; i++) {
        GtkWidget *l = gtk_label_new(text[i]);
        gtk_label_set_width_chars(GTK_LABEL(l), chars[i]);
        gtk_label_set_xalign(GTK_LABEL(l), i == 1 || i == 2 ? 1 : 0);
        if (i == 3) gtk_widget_set_hexpand(l, TRUE);
        gtk_widget_add_css_class(l, heading ? "dim-label" : "numeric");
        gtk_box_append(GTK_BOX(box), l);
    }
    motus_set_margins(box, 8, 3);
    return box;
}

static void mode_selected(GtkListBox *list, GtkListBoxRow *row, gpointer data)
{
    (void)list;
    MotusWindow *self = data;
    if (!self->analysis || !self->analysis->dialog) return; /* torn down */
    if (row)
        start_animation(self, gtk_list_box_row_get_index(row));
    else
        stop_animation(self);
}

static char *modes_summary(const MotusAnalysis *a)
{
    const MtModes *md = a->modes;
    GString *s = g_string_new(NULL);
    g_string_append_printf(s, _("Linearised about the static equilibrium: %d degree(s) of freedom, %d mode(s)."), md->dof,
                           md->nmode);
    g_string_append_c(s, ' ');
    if (md->statics.negative)
        g_string_append_printf(s, _("The equilibrium is UNSTABLE in %d direction(s)."), md->statics.negative);
    else
        g_string_append(s, _("The equilibrium is stable."));
    g_string_append_c(s, '\n');
    if (a->nanim)
        g_string_append(s, _("Select a mode to see it animated in the 3D view, rigid and flexible bodies together "
                             "(a twentieth of the model's size)."));
    if (a->nanim && a->nanim < md->nmode)
        g_string_append_printf(s, _(" The first %d can be animated."), a->nanim);
    return g_string_free(s, FALSE);
}

static void show_modes(MotusWindow *self, const MotusAnalysis *a)
{
    AnalysisUi *ui = self->analysis;
    const MtModes *md = a->modes;
    GtkWidget *box = new_dialog(self, _("Modes"), 560, 480);
    g_autofree char *sum = modes_summary(a);
    gtk_box_append(GTK_BOX(box), wrapped_label(sum, FALSE));
    gtk_box_append(GTK_BOX(box), mode_row(_("Mode"), _("Frequency [Hz]"), _("Damping ratio"), _("Kind"), TRUE));
    GString *text = g_string_new(sum);
    g_string_append_printf(text, "\n%s\t%s\t%s\t%s\n", _("Mode"), _("Frequency [Hz]"), _("Damping ratio"), _("Kind"));
    GtkWidget *list = gtk_list_box_new();
    gtk_list_box_set_selection_mode(GTK_LIST_BOX(list), GTK_SELECTION_SINGLE);
    gtk_widget_add_css_class(list, "boxed-list");
    for (int k = 0; k < md->nmode; k++) {
        const MtMode *mo = &md->mode[k];
        char no[16], f[48], z[48];
        g_snprintf(no, sizeof no, "%d", k + 1);
        if (mo->kind == MT_MODE_OSCILLATORY || mo->kind == MT_MODE_OVERDAMPED)
            g_snprintf(f, sizeof f, "%.7g", mo->freq);
        else if (mo->kind == MT_MODE_RIGID)
            g_strlcpy(f, "0", sizeof f);
        else /* TRANSLATORS: a real root of a mode that grows or decays without oscillating, s = … 1/s */
            g_snprintf(f, sizeof f, _("s = %.4g 1/s"), mo->s_re);
        if (isnan(mo->zeta))
            g_strlcpy(z, "—", sizeof z);
        else /* an undamped mode's ratio is rounding (1e-16): 0 */
            g_snprintf(z, sizeof z, "%.4g", fabs(mo->zeta) < 1e-9 ? 0.0 : mo->zeta);
        gtk_list_box_append(GTK_LIST_BOX(list), mode_row(no, f, z, mt_mode_kind_name(mo->kind), FALSE));
        g_string_append_printf(text, "%s\t%s\t%s\t%s\n", no, f, z, mt_mode_kind_name(mo->kind));
    }
    gtk_box_append(GTK_BOX(box), scrolled(list));
    ui->mode_list = list;
    g_signal_connect(list, "row-selected", G_CALLBACK(mode_selected), self);
    gtk_box_append(GTK_BOX(box), dialog_buttons(ui->dialog, g_string_free(text, FALSE)));
    present_dialog(ui->dialog);
}

/* ---- starting and ending ------------------------------------------------------------------------ */

/* While statics or modes work (they report no fraction): the time they have taken. */
static gboolean elapsed_tick(gpointer data)
{
    MotusWindow *self = data;
    AnalysisUi *ui = self->analysis;
    if (!ui->pending || ui->pending->kind == MOTUS_ANALYSIS_KINEMATICS) return G_SOURCE_CONTINUE;
    g_autofree char *text =
        g_strdup_printf(_("%.1f s elapsed"), (double)(g_get_monotonic_time() - ui->started) * 1e-6);
    motus_ticker_set_text(self->run_label, text);
    return G_SOURCE_CONTINUE;
}

/* relax: statics settles downhill first (a stable rest rather than the equilibrium nearest the start);
 * stored: modes kept in the project, shown again (0: compute them) */
static void start(MotusWindow *self, MotusAnalysisKind kind, gboolean relax, long stored)
{
    AnalysisUi *ui = self->analysis;
    if (ui->pending || motus_window_is_running(self)) return;
    stop_animation(self);
    MotusAnalysis *a = motus_analysis_new(kind);
    a->size = motus_viewport_get_scale(self->viewport);
    a->relax = relax;
    if (stored) {
        a->stored_id = stored;
        a->project = g_strdup(motus_document_get_path(self->doc));
    }
    MotusRunJob job = motus_analysis_job(a);
    ui->pending = a;
    g_autoptr(GError) error = NULL;
    if (!motus_window_start_job(self, &job, &error)) {
        ui->pending = NULL;
        motus_analysis_free(a);
        g_autofree char *msg = g_strdup_printf(say(kind, SAY_CANNOT), error->message);
        motus_window_set_status(self, msg);
        gtk_widget_add_css_class(GTK_WIDGET(self->status_label), "error");
        motus_window_error_dialog(self, msg, error->message);
        motus_window_update_actions(self);
        return;
    }
    motus_window_set_status(self, say(kind, SAY_BUSY));
    ui->started = g_get_monotonic_time();
    if (kind != MOTUS_ANALYSIS_KINEMATICS) motus_ticker_set_fraction(self->progress, 0);
    if (!ui->timer_id) ui->timer_id = g_timeout_add(250, elapsed_tick, self);
    motus_window_update_actions(self);
}

gboolean motus_window_analysis_pending(MotusWindow *self) { return self->analysis && self->analysis->pending; }

/* What the status bar says when an analysis has ended well. */
static char *outcome(const MotusAnalysis *a, guint frames, double last, gboolean cancelled)
{
    if (a->kind == MOTUS_ANALYSIS_KINEMATICS && cancelled)
        return g_strdup_printf(_("Kinematics stopped at t = %.3f s (%u frames kept)"), last, frames);
    if (a->kind == MOTUS_ANALYSIS_KINEMATICS)
        return g_strdup_printf(_("Kinematics: %u frames to t = %.3f s; largest constraint violation %.3g"), frames, last,
                               a->kin.gmax);
    const MtStaticsInfo *in = &a->statics;
    if (a->kind == MOTUS_ANALYSIS_STATICS)
        return g_strdup_printf(in->negative ? _("Static equilibrium (unstable): %d Newton iterations, residual force %.3g N")
                                            : _("Static equilibrium (stable): %d Newton iterations, residual force %.3g N"),
                               in->iterations, in->force_residual);
    const MtModes *md = a->modes;
    int k = 0;
    while (k < md->nmode && md->mode[k].kind == MT_MODE_RIGID) k++;
    if (k < md->nmode && md->mode[k].freq > 0)
        return g_strdup_printf(in->negative ? _("Modes about an unstable equilibrium: %d, the lowest at %.6g Hz")
                                            : _("Modes about a stable equilibrium: %d, the lowest at %.6g Hz"),
                               md->nmode, md->mode[k].freq);
    return g_strdup_printf(in->negative ? _("Modes about an unstable equilibrium: %d") : _("Modes about a stable equilibrium: %d"),
                           md->nmode);
}

/* Modes of a project's model as saved are kept in it; FALSE when there is nowhere to keep them (a model
 * file, a read-only project, unsaved edits) or the project refused (the status bar says so). */
static gboolean keep_modes(MotusWindow *self, const MotusAnalysis *a)
{
    MtStore *store = motus_document_get_store(self->doc);
    if (!store || motus_document_get_readonly(self->doc) || mt_editor_dirty(motus_window_editor(self))) return FALSE;
    MtError err = {0};
    if (mt_store_save_modes(store, a->modes, NULL, &err)) {
        g_warning("%s", err.msg);
        return FALSE;
    }
    motus_window_update_actions(self);
    return TRUE;
}

long motus_window_analysis_stored_modes(MotusWindow *self)
{
    MtStore *store = motus_document_get_store(self->doc);
    if (!store || mt_editor_dirty(motus_window_editor(self))) return 0;
    MtError err = {0};
    long version = mt_store_model_version(store, &err), id = 0;
    MtModesInfo *info = NULL;
    int n = version < 0 ? -1 : mt_store_list_modes(store, &info, &err);
    for (int i = 0; i < n; i++)
        if (info[i].model_version == version) id = info[i].id; /* the newest of this model */
    free(info);
    return id;
}

void motus_window_analysis_finished(MotusWindow *self, gboolean ok, gboolean cancelled, const char *message)
{
    AnalysisUi *ui = self->analysis;
    MotusAnalysis *a = ui->pending;
    ui->pending = NULL;
    g_clear_handle_id(&ui->timer_id, g_source_remove);
    if (!a) return;
    MotusRunBridge *b = motus_window_bridge(self);
    motus_ticker_set_fraction(self->progress, 1);
    if (cancelled && a->kind != MOTUS_ANALYSIS_KINEMATICS) {
        /* the search was stopped (or ended as Stop came): nothing to show */
        motus_window_set_status(self, say(a->kind, SAY_STOPPED));
        gtk_widget_remove_css_class(GTK_WIDGET(self->status_label), "error");
        motus_analysis_free(a);
        return;
    }
    if (!ok) {
        g_autofree char *msg = g_strdup_printf(say(a->kind, SAY_FAILED), message); /* the core's words name the entity */
        motus_window_set_status(self, msg);
        gtk_widget_add_css_class(GTK_WIDGET(self->status_label), "error");
        motus_window_error_dialog(self, say(a->kind, SAY_FAILED_TITLE), message);
        motus_analysis_free(a);
        return;
    }
    g_autofree char *text = outcome(a, motus_run_bridge_n_frames(b), motus_run_bridge_last_time(b), cancelled);
    if (a->kind == MOTUS_ANALYSIS_MODES && !a->stored_id && keep_modes(self, a)) {
        g_autofree char *kept = g_strdup_printf(_("%s; kept in the project"), text);
        motus_window_set_status(self, kept);
    } else
        motus_window_set_status(self, text);
    /* flexible bodies: statics and kinematics get a run's proposal (a deformation scale that shows the
     * deformation, coloured by displacement) where the user chose neither; an animated mode has its own
     * amplitude, so the proposal there is ×1 */
    if (a->kind != MOTUS_ANALYSIS_MODES && !cancelled)
        motus_window_flex_propose(self);
    else if (a->kind == MOTUS_ANALYSIS_MODES && motus_viewport_n_modal(self->viewport) > 0)
        motus_viewport_propose_view(self->viewport, 1, MOTUS_FIELD_DISPLACEMENT);
    close_dialog(self);
    motus_analysis_free(ui->shown);
    ui->shown = a;
    /* kinematics: its frames are the result, plotted and played as a run's */
    if (a->kind == MOTUS_ANALYSIS_KINEMATICS || self->batch) return; /* batch: no windows */
    if (a->kind == MOTUS_ANALYSIS_STATICS)
        show_statics(self, a);
    else
        show_modes(self, a);
}

/* ---- actions, menu, life -------------------------------------------------------------------------- */

static void act_analysis(GSimpleAction *act, GVariant *p, gpointer data)
{
    (void)p;
    const char *n = g_action_get_name(G_ACTION(act));
    start(data, g_str_has_prefix(n, "statics") ? MOTUS_ANALYSIS_STATICS
                : !strcmp(n, "kinematics")     ? MOTUS_ANALYSIS_KINEMATICS
                                               : MOTUS_ANALYSIS_MODES,
          !strcmp(n, "statics-relax"), !strcmp(n, "modes-stored") ? motus_window_analysis_stored_modes(data) : 0);
}

void motus_window_analysis_update_actions(MotusWindow *self)
{
    gboolean can = motus_window_editor(self) && !motus_window_is_running(self) && !self->flex_job;
    static const char *const names[] = {"statics", "statics-relax", "kinematics", "modes"};
    for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
        GAction *a = g_action_map_lookup_action(G_ACTION_MAP(self), names[i]);
        if (a) g_simple_action_set_enabled(G_SIMPLE_ACTION(a), can);
    }
    GAction *st = g_action_map_lookup_action(G_ACTION_MAP(self), "modes-stored");
    if (st) g_simple_action_set_enabled(G_SIMPLE_ACTION(st), can && motus_window_analysis_stored_modes(self) > 0);
    if (motus_window_is_running(self)) stop_animation(self);
}

/* Another model or file: its results no longer apply. */
static void document_replaced(MotusDocument *doc, gpointer data)
{
    (void)doc;
    MotusWindow *self = data;
    close_dialog(self);
    g_clear_pointer(&self->analysis->shown, motus_analysis_free);
}

static GMenuModel *analysis_menu(void)
{
    GMenu *menu = g_menu_new(), *main = g_menu_new(), *flex = g_menu_new();
    g_menu_append(main, _("_Statics"), "win.statics");
    g_menu_append(main, _("Statics, Settling _Downhill"), "win.statics-relax");
    g_menu_append(main, _("_Kinematics"), "win.kinematics");
    g_menu_append(main, _("_Modes"), "win.modes");
    g_menu_append(main, _("Stored M_odes"), "win.modes-stored");
    g_menu_append(flex, _("Modes of _Flexible Bodies…"), "win.flex-modes");
    g_menu_append(flex, _("S_tudy…"), "win.study"); /* motus-window-study.c */
    g_menu_append_section(menu, NULL, G_MENU_MODEL(main));
    g_menu_append_section(menu, NULL, G_MENU_MODEL(flex));
    g_object_unref(main);
    g_object_unref(flex);
    return G_MENU_MODEL(menu);
}

void motus_window_analysis_init(MotusWindow *self)
{
    static const GActionEntry entries[] = {
        {"statics", act_analysis, NULL, NULL, NULL, {0}},
        {"statics-relax", act_analysis, NULL, NULL, NULL, {0}},
        {"kinematics", act_analysis, NULL, NULL, NULL, {0}},
        {"modes", act_analysis, NULL, NULL, NULL, {0}},
        {"modes-stored", act_analysis, NULL, NULL, NULL, {0}},
    };
    AnalysisUi *ui = g_new0(AnalysisUi, 1);
    ui->animated = -1;
    self->analysis = ui;
    g_action_map_add_action_entries(G_ACTION_MAP(self), entries, G_N_ELEMENTS(entries), self);
    /* after Run, Pause and Stop in the header bar */
    ui->button = gtk_menu_button_new();
    gtk_menu_button_set_label(GTK_MENU_BUTTON(ui->button), _("Analysis"));
    gtk_menu_button_set_always_show_arrow(GTK_MENU_BUTTON(ui->button), TRUE);
    gtk_widget_set_focus_on_click(ui->button, FALSE); /* as Run's: Space then plays, not opens the menu again */
    g_autoptr(GMenuModel) menu = analysis_menu();
    gtk_menu_button_set_menu_model(GTK_MENU_BUTTON(ui->button), menu);
    gtk_widget_set_tooltip_text(ui->button, _("Static equilibrium (F7), kinematic analysis of a driven mechanism (F8), "
                                              "linearised modes (F9)"));
    GtkWidget *bar = gtk_window_get_titlebar(GTK_WINDOW(self));
    if (GTK_IS_HEADER_BAR(bar)) gtk_header_bar_pack_start(GTK_HEADER_BAR(bar), ui->button);
    motus_window_popover_gives_back_keys(self, gtk_menu_button_get_popover(GTK_MENU_BUTTON(ui->button)));
    g_signal_connect(self->session, "time-changed", G_CALLBACK(time_changed), self);
    g_signal_connect(self->doc, "replaced", G_CALLBACK(document_replaced), self);
    motus_window_analysis_update_actions(self);
}

void motus_window_analysis_dispose(MotusWindow *self)
{
    AnalysisUi *ui = self->analysis;
    if (!ui) return;
    stop_animation(self);
    g_clear_handle_id(&ui->timer_id, g_source_remove);
    if (ui->dialog) {
        g_signal_handlers_disconnect_by_data(ui->dialog, self);
        gtk_window_destroy(GTK_WINDOW(ui->dialog));
    }
    /* the worker is joined before (the session goes first): nothing writes into pending any more */
    motus_analysis_free(ui->pending);
    motus_analysis_free(ui->shown);
    g_free(ui);
    self->analysis = NULL;
}

const MotusAnalysis *motus_window_analysis_result(MotusWindow *self) { return self->analysis ? self->analysis->shown : NULL; }
GtkWidget *motus_window_analysis_dialog(MotusWindow *self) { return self->analysis ? self->analysis->dialog : NULL; }
GtkWidget *motus_window_analysis_mode_list(MotusWindow *self) { return self->analysis ? self->analysis->mode_list : NULL; }
GtkWidget *motus_window_analysis_button(MotusWindow *self) { return self->analysis ? self->analysis->button : NULL; }
gboolean motus_window_analysis_animate(MotusWindow *self, int k)
{
    if (!self->analysis || !motus_analysis_mode_frame(self->analysis->shown, k, 0)) return FALSE;
    start_animation(self, k);
    return TRUE;
}

int motus_window_analysis_animated(MotusWindow *self) { return self->analysis ? self->analysis->animated : -1; }
