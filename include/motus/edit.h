/* motus/edit.h — editing a model the way the application does, without GTK:
 * every field of every entity described (name, quantity, whether it may hold
 * an expression), read as text in the project's display units and set from
 * text ("25 mm", "L/2"); rename, duplicate, delete with the dependents
 * explained; add bodies from primitives, joints at a point, force elements
 * between two points and sensors; points to snap to.
 *
 * An MtEditor owns the model. Every edit is made on a copy, which must then
 * evaluate (parameters, bindings, mass properties), pass mt_model_validate
 * and read back from its canonical text; a refused edit leaves the model as
 * it was and says why, naming the entity and the field. Every accepted edit
 * can be undone and redone: the editor keeps snapshots of the whole model,
 * which is simple and cannot get out of step with the model. */
#ifndef MT_EDIT_H
#define MT_EDIT_H

#include <stddef.h>

#include "motus/error.h"
#include "motus/model.h"
#include "motus/units.h"

/* What an edit is about. The ground is MT_EDIT_BODY with index MT_GROUND;
 * gravity and solver settings have no index. */
typedef enum {
    MT_EDIT_BODY,
    MT_EDIT_MARKER,
    MT_EDIT_JOINT,
    MT_EDIT_DRIVER,
    MT_EDIT_SPRING,
    MT_EDIT_COUPLE,
    MT_EDIT_FORCE,
    MT_EDIT_SENSOR,
    MT_EDIT_SHAPE,
    MT_EDIT_PARAM,
    MT_EDIT_CONTROL,
    MT_EDIT_EVENT,
    MT_EDIT_GRAVITY,
    MT_EDIT_SOLVER,
    MT_EDIT_NKINDS
} MtEditKind;

/* ---- fields ------------------------------------------------------------ */

typedef enum {
    MT_FIELD_NUMBER, /* a quantity: "25 mm", or an expression of parameters when MT_FIELD_EXPR */
    MT_FIELD_INT,    /* a whole number (solver 'every') */
    MT_FIELD_NAME,   /* the entity's name */
    MT_FIELD_TEXT,   /* an expression kept as text (a parameter's value, a sensor's expression) */
    MT_FIELD_CHOICE, /* one of `choices` */
    MT_FIELD_MARKER  /* a marker, "body.marker" */
} MtFieldType;

enum {
    MT_FIELD_READONLY = 1, /* shown, not editable (e.g. mass computed from density) */
    MT_FIELD_EXPR = 2      /* may hold an expression of parameters */
};

#define MT_FIELD_MAX 48 /* most fields an entity has */

typedef struct {
    char name[24];               /* "mass", "com.0", "name", "type", "mi" */
    char label[128];             /* for people, translated: "Centre of mass x" (cut, if ever, on a whole character) */
    MtFieldType type;
    MtDim dim;                   /* NUMBER: the quantity (MT_DIM_NONE: a plain number) */
    int flags;                   /* MT_FIELD_READONLY, MT_FIELD_EXPR */
    const char *const *choices;  /* CHOICE: NULL-terminated names */
    const char *section;         /* the group an inspector shows it in, translated: "Inertia", "Placement" … */
} MtFieldInfo;

/* The fields of an entity, in the order an inspector shows them (those of
 * one section together: General — name, type —, then e.g. a body's Inertia,
 * Placement and Initial state, a joint's Connection and Geometry, the
 * solver's Integration, Tolerances and Constraints); returns their number
 * (0 for a bad kind or index). */
int mt_edit_fields(const MtModel *m, MtEditKind kind, int index, MtFieldInfo *out, int max);
/* Text of a field: "{L/2}" for a field bound to an expression, else the
 * value in the display unit ("25 mm"), the name, the choice or "body.marker".
 * MT_ERR_ARG for an unknown field, or when the text does not fit in n bytes
 * (never cut: MT_FIELD_TEXT_MAX always fits). */
#define MT_FIELD_TEXT_MAX (MT_EXPR_MAX + 2) /* "{expression}" and its NUL */
MtStatus mt_edit_get_field(const MtModel *m, MtEditKind kind, int index, const char *field, char *buf, size_t n,
                           MtError *err);
/* The same with numbers written exactly (the fewest digits that read back to the same value, not 6): what an
 * inspector edits. */
MtStatus mt_edit_get_field_exact(const MtModel *m, MtEditKind kind, int index, const char *field, char *buf, size_t n,
                                 MtError *err);
/* The unit a quantity is shown and typed in: the project's display unit, or SI. */
const MtUnit *mt_edit_display_unit(const MtModel *m, MtDim dim);
/* "body 'arm'", "marker 'arm.pin'", "solver" … (translated; for messages and labels). */
const char *mt_edit_describe(const MtModel *m, MtEditKind kind, int index, char *buf, size_t n);
/* Name of an entity ("" for shapes, gravity and solver). */
const char *mt_edit_name(const MtModel *m, MtEditKind kind, int index);
/* Number of entities of a kind (1 for gravity and solver). */
int mt_edit_count(const MtModel *m, MtEditKind kind);

/* ---- the editor: the model, its edits, undo and redo -------------------- */

typedef struct MtEditor MtEditor;

/* A new project's model: the ground, gravity 9.81 m/s² along −y, default
 * solver settings, no title (the window shows the file's name). */
MtModel *mt_edit_new_model(void);
/* Takes ownership of m (which must validate); NULL when out of memory. */
MtEditor *mt_editor_new(MtModel *m);
void mt_editor_free(MtEditor *e);
const MtModel *mt_editor_model(const MtEditor *e);
/* Sets how the view shows the model (presentation: no undo step, the model
 * stays as clean or dirty as it was; saved with it). */
void mt_editor_set_view(MtEditor *e, const MtViewSpec *v);
/* Hands the model over to the caller (the editor is then freed). */
MtModel *mt_editor_steal(MtEditor *e);

/* Number of the current state: a new number after every edit, undo or redo. */
unsigned long mt_editor_state(const MtEditor *e);
/* Remembers the current state as saved; dirty when the model differs from it. */
void mt_editor_mark_saved(MtEditor *e);
int mt_editor_dirty(const MtEditor *e);
/* Undo and redo (no-ops returning MT_ERR_ARG when there is nothing to undo/redo). */
int mt_editor_can_undo(const MtEditor *e);
int mt_editor_can_redo(const MtEditor *e);
/* What undo / redo would do ("rename body 'arm'"), or NULL. */
const char *mt_editor_undo_label(const MtEditor *e);
const char *mt_editor_redo_label(const MtEditor *e);
MtStatus mt_editor_undo(MtEditor *e, MtError *err);
MtStatus mt_editor_redo(MtEditor *e, MtError *err);
/* Most edits kept for undo (default 200). */
void mt_editor_set_limit(MtEditor *e, int n);

/* An edit composed elsewhere: `changed` (a modified mt_model_copy of the
 * current model) replaces it when it checks; the editor takes ownership of
 * changed in every case. */
MtStatus mt_editor_commit(MtEditor *e, MtModel *changed, const char *label, MtError *err);
/* The check every edit passes: evaluates parameters and bindings (and mass
 * properties), validates, and reads the model back from its text. */
MtStatus mt_edit_check(MtModel *m, MtError *err);

/* Sets a field from text. Numbers may carry a unit of the field's quantity
 * ("25 mm", "30 deg"); a bare number is in the display unit. Anything else
 * (optionally in braces) is an expression of parameters, allowed in fields
 * marked MT_FIELD_EXPR; a number replaces an expression. Errors name the
 * entity and the field: "body 'arm', mass: ...". */
MtStatus mt_edit_set_field(MtEditor *e, MtEditKind kind, int index, const char *field, const char *text,
                           MtError *err);
/* Renames an entity; expressions that use the old name are rewritten. */
/* Shows quantity dim in unit (its symbol or alias) everywhere — plots, the
 * inspector, labels, legends; NULL or "" takes the choice back (readable
 * multiples chosen by size). One undoable edit; refuses a unit of another
 * quantity, naming it. */
MtStatus mt_edit_set_display_unit(MtEditor *e, MtDim dim, const char *unit, MtError *err);
MtStatus mt_edit_rename(MtEditor *e, MtEditKind kind, int index, const char *name, MtError *err);
/* Copies an entity (a body with its markers and shapes) under a new unique
 * name ("arm_2"); *new_index (may be NULL) receives the copy's index. */
MtStatus mt_edit_duplicate(MtEditor *e, MtEditKind kind, int index, int *new_index, MtError *err);
/* What else deleting an entity deletes (markers of a body, the joints on
 * them, drivers of those joints …) as one line for people, e.g. "also
 * deletes marker 'arm.pin', joint 'hinge'"; returns their number, or -1 with
 * err set when the entity cannot be deleted (the ground; a name another
 * expression uses — the message names that expression's owner). */
int mt_edit_dependents(const MtModel *m, MtEditKind kind, int index, char *buf, size_t n, MtError *err);
/* Deletes an entity and its dependents (see mt_edit_dependents). */
MtStatus mt_edit_delete(MtEditor *e, MtEditKind kind, int index, MtError *err);

/* ---- creating ------------------------------------------------------------ */

/* A body made from one primitive shape at a point of the project frame
 * (axes parallel to the project's, or turned about its z). density > 0: mass properties computed
 * from the shape (and kept up to date); otherwise mass > 0 is given and the
 * inertia is that of the shape with this mass spread evenly. */
typedef struct {
    char name[MT_NAME_MAX]; /* "" = "body1", "body2" … */
    MtShapeKind shape;      /* BOX, CYLINDER, SPHERE or CAPSULE */
    double size[3];         /* as MtShapeSpec.size (box lx ly lz; cylinder r, length along z; sphere r) */
    double pos[3];          /* body origin = shape centre, project axes, m */
    double density;         /* kg/m³, or 0 */
    double mass;            /* kg, when density is 0 */
    double turn_z;          /* rad: the body's axes turned about the project's z (a bar along its segment) */
} MtBodyDef;

/* Default definition: a 0.1 m steel cube at the origin. */
void mt_body_def_default(MtBodyDef *d);
MtStatus mt_edit_add_body(MtEditor *e, const MtBodyDef *def, int *index, MtError *err);
/* A marker on body b (MT_GROUND for the ground) at a point of the project
 * frame with its z axis along `axis` (project axes; NULL: the body's z),
 * placed using the body's initial pose. name "" = automatic. */
MtStatus mt_edit_add_marker(MtEditor *e, int body, const char *name, const double point[3], const double axis[3],
                            int *index, MtError *err);
/* A joint of type t between body bi (moving) and body bj (base, MT_GROUND
 * allowed) at a point with its axis (project axes): a marker is made on
 * each body there, z along the axis. name "" = automatic ("joint1" …).
 * Joints that need a parameter get a start value (distance: the distance of
 * the bodies' origins; screw pitch 0.01 m; rolling radius 0.1 m). */
MtStatus mt_edit_add_joint(MtEditor *e, const char *name, MtJointType t, int bi, int bj, const double point[3],
                           const double axis[3], int *index, MtError *err);
/* The same with the two markers apart: marker i on body bi at pi with z
 * along ai, marker j on bj at pj with z along aj (a rolling disc's centre
 * and axle, the contact point and the plane's normal); param > 0 sets the
 * type's parameter (rolling radius, screw pitch, distance), else as above. */
MtStatus mt_edit_add_joint_at(MtEditor *e, const char *name, MtJointType t, int bi, const double pi[3],
                              const double ai[3], int bj, const double pj[3], const double aj[3], double param,
                              int *index, MtError *err);
/* A gear contact between revolute joints ja and jb with pitch radii ra and
 * rb (an external mesh: ra·θa + rb·θb = const). name "" = automatic ("gear1"). */
MtStatus mt_edit_add_gear(MtEditor *e, const char *name, int ja, int jb, double ra, double rb, int *index,
                          MtError *err);
/* A linear coupler ca·xa + cb·xb = const of the first coordinates of joints ja
 * and jb (a taut rope over a pulley between two sliders: ±1 each). name "" =
 * automatic ("rope1"). */
MtStatus mt_edit_add_coupler(MtEditor *e, const char *name, int ja, int jb, double ca, double cb, int *index,
                             MtError *err);
/* A spring-damper between a point on body bi and a point on body bj
 * (project axes), free length = their present distance. */
MtStatus mt_edit_add_spring(MtEditor *e, const char *name, int bi, const double pi[3], int bj, const double pj[3],
                            double k, double c, int *index, MtError *err);
/* A force element of a kind acting between two points (bushing, contact,
 * strut, tyre, actuator), with the kind's default settings. */
MtStatus mt_edit_add_force(MtEditor *e, const char *name, MtForceKind kind, int bi, const double pi[3], int bj,
                           const double pj[3], int *index, MtError *err);
/* A motion driver on joint j's first coordinate (its angle, else its
 * displacement, else x): at position level, rate law starting from 0 (the
 * value of a joint built in the window, whose markers coincide) at 1 rad/s
 * or 0.1 m/s, to be edited in the inspector. name "" = automatic. Refused
 * for a joint without a coordinate or one already driven (naming the driver). */
MtStatus mt_edit_add_driver(MtEditor *e, const char *name, int j, int *index, MtError *err);
/* A force element acting in joint j (MT_FORCE_TORSION: a revolute or
 * cylindrical joint; MT_FORCE_FRICTION: revolute, cylindrical or prismatic)
 * with a start for the settings a user sets first (torsion k = 1 N·m/rad;
 * friction mu = 0.1, pin radius 10 mm) and the kind's defaults. */
MtStatus mt_edit_add_joint_force(MtEditor *e, const char *name, MtForceKind kind, int j, int *index, MtError *err);
/* A sensor on an entity: on a marker (POSITION, VELOCITY, ACCELERATION of
 * its origin; comp 0..3 = x y z magnitude), on a joint (REACTION force,
 * comp 0..7 as MtSensorSpec), or on a spring or force element (an EXPR
 * sensor of its force). name "" = automatic. */
MtStatus mt_edit_add_sensor(MtEditor *e, const char *name, MtSensorKind kind, MtEditKind on, int target, int comp,
                            int *index, MtError *err);
/* A parameter (name, expression, unit "" = SI). */
MtStatus mt_edit_add_param(MtEditor *e, const char *name, const char *expr, const char *unit, int *index,
                           MtError *err);

/* ---- snapping -------------------------------------------------------------- */

typedef enum { MT_SNAP_COM, MT_SNAP_MARKER, MT_SNAP_FACE, MT_SNAP_CENTRE, MT_SNAP_VERTEX, MT_SNAP_EDGE } MtSnapKind;
typedef struct {
    MtSnapKind kind;
    int body;     /* MT_GROUND or body index */
    double p[3];  /* body axes */
} MtSnapPoint;
/* Points of body b a pick may snap to: centre of mass, markers, centres and
 * face centres of its shapes, box corners and edge midpoints. Returns how many
 * were written (at most max). */
int mt_edit_snap_points(const MtModel *m, int body, MtSnapPoint *out, int max);
const char *mt_snap_kind_name(MtSnapKind k);

#endif
