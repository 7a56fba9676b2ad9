/* motus-window-private.h — the main window's struct and the functions its
 * files share: motus-window.c (widgets, the views of the document and of
 * the session with its runs and playback (motus-session.h), screenshots),
 * motus-window-project.c (the actions and dialogs of new, open, save, save
 * as, recent projects, around the MotusDocument of motus-document.h) and
 * motus-window-edit.c (undo/redo, the inspector, rename/duplicate/delete,
 * creating bodies, joints, force elements and sensors by picking). */
#ifndef MOTUS_WINDOW_PRIVATE_H
#define MOTUS_WINDOW_PRIVATE_H

#include "motus-document.h"
#include "motus-inspector.h"
#include "motus-model-tree.h"
#include "motus-plot.h"
#include "motus-run-bridge.h"
#include "motus-session.h"
#include "motus-ticker.h"
#include "motus-viewport.h"
#include "motus-window.h"
#include "motus/edit.h"
#include "motus/store.h"

/* What a click in the view does while creating something. */
typedef enum {
    PICK_NONE,
    PICK_JOINT,  /* body i, body j, point */
    PICK_FORCE,  /* point on body i, point on body j */
    PICK_SENSOR, /* a marker (point) */
    PICK_FLEX_MARKER, /* a node of a flexible body (motus-window-flex.c) */
    PICK_PLANAR  /* points of the plane: a disc, a rectangle, a gear contact (motus-window-planar.c) */
} PickMode;

struct _MotusWindow {
    GtkApplicationWindow parent_instance;

    /* template widgets */
    MotusModelTree *tree;
    MotusInspector *inspector;
    MotusViewport *viewport;
    MotusPlot *plot;
    GtkDropDown *column_dropdown;
    GtkDropDown *x_dropdown;
    GtkBox *plots_box;
    GtkButton *play_button;
    GtkScale *time_scale;
    GtkAdjustment *time_adjustment;
    MotusTicker *time_label;
    GtkDropDown *speed_dropdown;
    GtkToggleButton *loop_button;
    GtkLabel *status_label;
    MotusTicker *run_label;
    MotusTicker *progress;
    GtkRevealer *pick_revealer;
    GtkLabel *pick_label;
    GtkDropDown *pick_axis;
    GMenu *recent_menu;
    GtkMenuButton *show_button; /* the teaching vectors' settings (motus-window-teach.c) */
    GtkMenuButton *stats_button; /* statistics of the chosen plot's curves (motus-window-plots.c) */
    GtkMenuButton *derived_button; /* defines a derived curve (motus-window-derived.c) */

    /* owned: the document (model, file, undo/redo, scratch project; motus-document.h) */
    MotusDocument *doc;
    unsigned long view_state; /* editor state the views show */
    MtEditKind sel_kind;    /* selected entity (MT_EDIT_NKINDS: none) */
    int sel_index;
    GArray *teach_pins;     /* bodies and markers whose vectors stay shown (motus-window-teach.c) */

    /* owned: runs and playback (the worker, frames, time, playing; motus-session.h) */
    MotusSession *session;
    /* owned: plots */
    GtkStringList *columns;  /* item 0 is the "add a curve" placeholder */
    GtkStringList *xcolumns; /* item 0 is "against time" */
    GPtrArray *plots;        /* MotusPlotSpec*, in layout order; plots[0].w is `plot` */
    guint active_plot;       /* the plot that takes new curves */
    MtDerivedSpec derived[MT_DERIVED_MAX]; /* derived curves, usable as columns (saved with the plots) */
    int nderived;
    struct DerivedUi *derived_ui; /* the popover that defines one (motus-window-derived.c) */

    /* how the run and the time are shown */
    double *poses;          /* (nbody_shown + 1) x 7: the frame shown */
    int nbody_shown;        /* bodies of the model the views show (-1: none yet) */
    gboolean batch;         /* --quit-after-run and tests: no dialogs */
    gboolean quiet; /* programmatic changes of widgets */
    gint64 slider_moved; /* when the time slider was last moved to follow a live run */
    gboolean frame_shown; /* the view shows a frame of a run, not the model as built */
    MotusGizmoMode gizmo_mode; /* asked for (motus-window-gizmo.c); shown only with the model as built */

    /* picking (creating joints, force elements, sensors) */
    PickMode pick;
    char pick_type[32]; /* joint type or force kind */
    int pick_step;
    int pick_body[2];
    double pick_point[3][3];
    GtkWidget *solver_dialog;

    /* planar mode (motus-window-planar.c) */
    GtkWidget *planar_bar;  /* the palette of planar tools */
    GtkWidget *coord_entry; /* in the pick bar: a point typed as x, y */

    /* flexible bodies (motus-window-flex.c) */
    double flex_max[2];    /* the run's largest displacement (m) and von Mises stress (Pa) */
    GtkWidget *modes_dialog; /* the list of modes (animated shapes), or NULL */
    GtkWidget *spider_entry; /* in the pick bar: spider radius of a new marker on a flexible body */
    struct FlexJob *flex_job; /* a reduction running on a worker thread, or NULL */

    /* statics, kinematics, modes (motus-window-analysis.c) */
    struct AnalysisUi *analysis;

    /* the animation export (motus-window-export.c) */
    struct ExportUi *export_ui;
};

/* What most of the window's code reads: the document's editor and model, the session's run bridge. */
static inline MtEditor *motus_window_editor(MotusWindow *self) { return motus_document_get_editor(self->doc); }
static inline const MtModel *motus_window_model(MotusWindow *self) { return motus_document_get_model(self->doc); }
static inline MotusRunBridge *motus_window_bridge(MotusWindow *self) { return motus_session_get_bridge(self->session); }

/* motus-window.c */
void motus_window_set_status(MotusWindow *self, const char *text);
void motus_window_error_dialog(MotusWindow *self, const char *title, const char *message);
void motus_window_update_actions(MotusWindow *self);
/* After the editor changed the model (an edit, undo, redo): the document
 * says so ("changed") and the views, tree, inspector, result columns and
 * title follow. */
void motus_window_model_changed(MotusWindow *self);
/* Replaces the document (takes ownership of editor and store). */
void motus_window_set_document(MotusWindow *self, MtEditor *editor, const char *path, MtStore *store);
void motus_window_refresh_title(MotusWindow *self);
void motus_window_stop_playback(MotusWindow *self);
/* The bridge holds frames of a stored run: plots, view and playback follow. */
void motus_window_frames_loaded(MotusWindow *self);

/* motus-window-export.c: the win.export-video action, its enabled state, the export's end with the window */
void motus_window_export_init(MotusWindow *self);
void motus_window_export_update_actions(MotusWindow *self);
void motus_window_export_dispose(MotusWindow *self);

/* motus-window-derived.c: derived curves (core's mt_derived_eval) as columns of the plots */
void motus_window_derived_init(MotusWindow *self);
void motus_window_derived_finalize(MotusWindow *self);
/* The derived curve called name, or NULL. */
const MtDerivedSpec *motus_window_find_derived(MotusWindow *self, const char *name);
/* Frames from .. from + n - 1 of a result column or derived curve: times into t (may be NULL) and values into
 * v; returns how many (0: no such column, or a derived curve that cannot be computed, said in the status bar). */
guint motus_window_series(MotusWindow *self, const char *name, guint from, guint n, double *t, double *v);
/* The SI unit of a derived curve (its operands' units through core's mt_derived_unit) into buf; NULL if not one. */
const char *motus_window_derived_unit(MotusWindow *self, const char *name, char *buf, size_t size);
/* Replaces the derived curves (a document opened); the column lists follow. */
void motus_window_set_derived(MotusWindow *self, const MtDerivedSpec *d, int n);
/* Adds the column list's names of the derived curves (after the model's columns). */
void motus_window_list_derived(MotusWindow *self);
/* A new derived curve (checked: its name new, its curves there, their units compatible, its values computable from
 * the frames shown) on the active plot; FALSE with the reason. */
gboolean motus_window_add_derived(MotusWindow *self, const MtDerivedSpec *d, GError **error);
/* Removes a derived curve (refused while another is computed from it) and its curves from the plots. */
gboolean motus_window_remove_derived(MotusWindow *self, const char *name, GError **error);
/* The SI unit of a result column of the model ("" for none; motus-window-plots.c). */
const char *motus_window_result_unit(MotusWindow *self, const char *name);
/* Enter in a drop-down's search picks the first name holding the text (motus-window-plots.c). */
void motus_window_dropdown_search(GtkDropDown *dd);

/* motus-window-plots.c */
/* Adds a column or derived curve to plot i (or to another when its unit differs; motus-window-plots.c). */
void motus_window_add_curve(MotusWindow *self, guint i, const char *name);
typedef struct MotusPlotSpec MotusPlotSpec;
void motus_window_plots_init(MotusWindow *self);
void motus_window_plots_finalize(MotusWindow *self);
/* Every curve refilled from the frames / the frames that arrived since appended. */
void motus_window_refill_plots(MotusWindow *self);
void motus_window_extend_plots(MotusWindow *self);
void motus_window_plots_cursor(MotusWindow *self, double t);
/* At the end of a run: the plots drawn whole once (their legends move where they hide least). */
void motus_window_plots_settle(MotusWindow *self);
guint motus_window_n_curves(MotusWindow *self);
/* The result columns of the model (for the drop-downs), from the model alone (mt_output_columns). */
void motus_window_list_columns(MotusWindow *self);
gboolean motus_window_has_column(MotusWindow *self, const char *name);
const char *motus_window_default_column(MotusWindow *self);
/* After the model changed: curves of vanished columns dropped; fresh: one plot with the likely curve. */
void motus_window_plots_model_changed(MotusWindow *self, gboolean fresh);
/* An empty plot area gets the likely curve (at the start of a run). */
void motus_window_plots_default_curve(MotusWindow *self);
MotusPlot *motus_window_active_plot(MotusWindow *self);
/* Keeps the curves of every plot as they are now, dashed and named "column (label)", in place of those kept
 * the last time (the run before a parameter's slider moved); returns how many. */
guint motus_window_plots_keep_previous(MotusWindow *self, const char *label);
/* The layout as JSON text (plots table of the project), and back. */
char *motus_window_plots_layout(MotusWindow *self);
/* The window's plots as the model keeps them (returns how many); shows plots (columns it lacks left out, said in the status bar). */
int motus_window_plots_specs(MotusWindow *self, MtPlotSpec *out, int *active);
void motus_window_plots_apply(MotusWindow *self, const MtPlotSpec *plot, int n, int active);
gboolean motus_window_plots_apply_layout(MotusWindow *self, const char *json);

/* motus-window-teach.c: traces, velocity, acceleration and reaction vectors, camera follow */
void motus_window_teach_init(MotusWindow *self);

/* motus-window.c: a popover (a menu, a panel) gives the keys back to what had them when it closes. */
void motus_window_popover_gives_back_keys(MotusWindow *self, GtkPopover *popover);

/* motus-window-check.c: the model-check badge and panel */
void motus_window_check_init(MotusWindow *self);
/* Checks the model shown a moment after the last call (an edit, an opening). */
void motus_window_check_schedule(MotusWindow *self);
void motus_window_teach_update(MotusWindow *self);
/* motus-window-units.c: the Display Units window (main menu) */
void motus_window_units_init(MotusWindow *self);
/* motus-window-meters.c: live meters over the view (result columns, momentum) at the time shown */
void motus_window_meters_init(MotusWindow *self);
void motus_window_meters_update(MotusWindow *self);
/* The eye popover's controls that add meters. */
GtkWidget *motus_window_meters_controls(MotusWindow *self);
/* The meters shown, into a view spec (kept with the model on saving). */
void motus_window_meters_keep(MotusWindow *self, MtViewSpec *v);
/* motus-window-sliders.c: parameters' sliders over the 3D view; moving one sets the parameter and runs again */
void motus_window_sliders_init(MotusWindow *self);
/* motus-window-lesson.c: a course problem's statement, answer fields and solution beside the view */
void motus_window_lesson_init(MotusWindow *self);
/* Unpins every body and marker (a new model). */
void motus_window_teach_forget(MotusWindow *self);

/* motus-window-flex.c: modal coordinates of the frame shown, the run's field maxima */
void motus_window_flex_show_frame(MotusWindow *self, gboolean has_frame, guint i);
void motus_window_flex_extend(MotusWindow *self);
void motus_window_flex_propose(MotusWindow *self);
void motus_window_flex_reset(MotusWindow *self);
/* The model's `view` (deformation, colours, camera, focus) shown on opening, and the view shown now kept in
 * the model before it is saved (flexible models; a rigid model's view stays as written). */
void motus_window_view_apply(MotusWindow *self);
void motus_window_view_keep(MotusWindow *self);
void motus_window_flex_init(MotusWindow *self);
void motus_window_flex_dispose(MotusWindow *self);
/* A click while placing a marker on a flexible body (PICK_FLEX_MARKER). */
void motus_window_flex_marker_click(MotusWindow *self, double x, double y);

/* motus-window-analysis.c: statics, kinematics and modes from the window */
void motus_window_analysis_init(MotusWindow *self);
void motus_window_analysis_dispose(MotusWindow *self);
void motus_window_analysis_update_actions(MotusWindow *self);
/* An analysis is on the worker: its end is said by motus_window_analysis_finished, not as a run's. */
gboolean motus_window_analysis_pending(MotusWindow *self);
void motus_window_analysis_finished(MotusWindow *self, gboolean ok, gboolean cancelled, const char *message);
/* Starts a run (job NULL) or an analysis on the worker, stored as runs are when job->what is set. */
gboolean motus_window_start_job(MotusWindow *self, const MotusRunJob *job, GError **error);

/* motus-window-gizmo.c: the move/rotate gizmo (action "gizmo", its edits) */
void motus_window_gizmo_init(MotusWindow *self);
/* Shows, places or hides the gizmo after the selection, the model, a run or playback changed. */
void motus_window_gizmo_refresh(MotusWindow *self);

/* motus-window-planar.c: planar mode, its palette, snapping and typed points */
void motus_window_planar_init(MotusWindow *self);
/* The pick bar's prompt for a step that places a point in the plane, or NULL. */
const char *motus_window_planar_prompt(MotusWindow *self);
/* A click in planar mode where a point is wanted (snapped); FALSE when the step wants something else. */
gboolean motus_window_planar_click(MotusWindow *self, double x, double y);
/* After picking started or stopped: the coordinates entry and the axis follow. */
void motus_window_planar_pick_changed(MotusWindow *self);

/* motus-window-project.c */
void motus_window_project_init(MotusWindow *self);
void motus_window_project_dispose(MotusWindow *self);
const char *motus_window_scratch_project(MotusWindow *self, GError **error);
void motus_window_drop_scratch(MotusWindow *self);
/* Shows the newest stored run of the open project (no-op without one). */
void motus_window_load_last_run(MotusWindow *self);

/* motus-window-edit.c */
void motus_window_edit_init(MotusWindow *self);
/* The selection (kind, index of motus/edit.h) changed in the tree or the view. */
void motus_window_select(MotusWindow *self, MtEditKind kind, int index);
/* A click in the view while picking; TRUE when it was used. */
gboolean motus_window_pick_click(MotusWindow *self, double x, double y);
void motus_window_pick_cancel(MotusWindow *self);
/* Starts picking points in the view (a PickMode; type: joint type or force kind). */
void motus_window_pick_start(MotusWindow *self, int mode, const char *type);

/* The mt_edit kind of a tree row kind, and back. */
MtEditKind motus_edit_kind_of(MotusEntityKind k);
MotusEntityKind motus_entity_kind_of(MtEditKind k, int index);

#endif
