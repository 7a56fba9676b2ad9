/* motus/model.h — the editable description of a mechanism (what a user builds and
 * saves): ground, bodies, markers, joints, motion drivers, springs, gravity and
 * solver settings. Plain data, SI units; validated by mt_model_validate and
 * turned into a numeric system by mt_system_compile (mt_system.h). */
#ifndef MT_MODEL_H
#define MT_MODEL_H

#include <stdio.h>

#include "motus/error.h"
#include "motus/schema.h"

#define MT_NAME_MAX 64
#define MT_EXPR_MAX 1024 /* longest expression in a field or parameter (+1); longer ones are refused, never cut */
#define MT_GROUND (-1) /* body index of the ground */

typedef enum {
    MT_JOINT_SPHERICAL,
    MT_JOINT_REVOLUTE,
    MT_JOINT_PRISMATIC,
    MT_JOINT_CYLINDRICAL,
    MT_JOINT_UNIVERSAL,
    MT_JOINT_FIXED,
    MT_JOINT_PLANAR,   /* i moves in the x-y plane of j, turning about z_j */
    MT_JOINT_SCREW,    /* cylindrical with advance = pitch · turns */
    MT_JOINT_INLINE,   /* origin of i on the z axis of j (point on line) */
    MT_JOINT_INPLANE,  /* origin of i in the x-y plane of j (point on plane) */
    MT_JOINT_DISTANCE, /* |p_i − p_j| = length (massless rod) */
    MT_JOINT_ROLLING,  /* disk (centre i, axis z_i, radius) rolls without slip on the x-y plane of j */
    MT_JOINT_BALL,     /* sphere (centre i, radius) rolls without slip on the x-y plane of j */
    MT_JOINT_NTYPES
} MtJointType;

/* Law of a motion driver: POLY Σ c_k t^k; RATE c0 + c1 t; HARMONIC
 * c0 sin(c1 t + c2) + c3; STEP smooth cubic step from c1 at t = c0 to c3 at
 * t = c2; TABLE natural cubic spline through (t, value) points; EXPR an
 * expression of time t and parameters (its derivatives exact, by forward
 * differentiation). */
typedef enum { MT_DRIVER_POLY, MT_DRIVER_RATE, MT_DRIVER_HARMONIC, MT_DRIVER_STEP, MT_DRIVER_TABLE, MT_DRIVER_EXPR } MtDriverKind;
/* What the law prescribes: the coordinate, its rate, or its second derivative. */
typedef enum { MT_LEVEL_DISP, MT_LEVEL_VEL, MT_LEVEL_ACC } MtDriverLevel;

/* Coordinates a joint offers to drivers, couplers and output. */
typedef enum { MT_COORD_ANGLE, MT_COORD_DISP, MT_COORD_X, MT_COORD_Y, MT_COORD_NONE } MtCoordKind;

/* Components of the pose of marker i relative to marker j (in j axes) for
 * marker drivers: displacements x y z and rotations ax ay az. */
typedef enum { MT_COMP_X, MT_COMP_Y, MT_COMP_Z, MT_COMP_AX, MT_COMP_AY, MT_COMP_AZ } MtComp;

/* Integrators: explicit RK4 (fixed step) and Dormand–Prince 5(4) (adaptive);
 * variable-order Adams–Bashforth–Moulton; implicit Euler, Park's stiffly stable
 * method, HHT-α and generalised-α (fixed step, Newton with a finite-difference
 * Jacobian) for stiff models. */
typedef enum {
    MT_METHOD_RK4,
    MT_METHOD_DP54,
    MT_METHOD_ADAMS,
    MT_METHOD_EULER_IMPLICIT,
    MT_METHOD_PARK,
    MT_METHOD_HHT,
    MT_METHOD_GALPHA,
    MT_METHOD_NMETHODS
} MtMethod;

/* An orientation typed with expressions of parameters (docs/model-format.md):
 * its form and words, kept so that rot follows the parameters. A word bound to
 * an expression is the binding "orient.K" of its body, marker or shape;
 * mt_model_eval_params recomputes rot from the words (mt_orient_rot). Words are
 * SI (angles in rad). MT_ORIENT_NONE: rot alone holds the orientation (one
 * typed with numbers only). */
typedef enum {
    MT_ORIENT_NONE,
    MT_ORIENT_Z,      /* z ax ay az */
    MT_ORIENT_ZX,     /* z ax ay az x bx by bz */
    MT_ORIENT_QUAT,   /* quat w x y z */
    MT_ORIENT_AXIS,   /* axis ax ay az ANGLE */
    MT_ORIENT_MATRIX, /* matrix r11 r12 … r33 (row-major, columns the axes) */
    MT_ORIENT_ANGLES, /* angles AX AY AZ: R = Rz(AZ)·Ry(AY)·Rx(AX) */
    MT_ORIENT_NFORMS
} MtOrientForm;
typedef struct {
    MtOrientForm form;
    double w[9];
} MtOrient;

/* A rigid body: its settings are MT_BODY_SCHEMA's (mass, com, inertia about
 * the centre of mass in body axes Ixx Iyy Izz Ixy Ixz Iyz, position of the
 * frame origin, velocity and angular velocity in project axes, density). */
typedef struct {
    char name[MT_NAME_MAX];
    MT_BODY_SCHEMA(MT_SCHEMA_MEMBER)
    double rot[9];     /* body axes in project axes (columns), row-major */
    MtOrient ori;      /* rot as typed with expressions, or MT_ORIENT_NONE */
} MtBodySpec;

typedef struct {
    char name[MT_NAME_MAX]; /* unique within its body; referred to as body.marker */
    int body;               /* MT_GROUND or body index */
    double pos[3];          /* origin in body axes, m */
    double rot[9];          /* marker axes in body axes (columns), row-major */
    /* on a flexible body: the finite-element node the marker rides on (label;
     * 0 = the node at pos), or, with spider > 0, a new node at pos tied
     * rigidly (RBE2) to every node within that radius (MT_MARKER_SCHEMA) */
    MT_MARKER_SCHEMA(MT_SCHEMA_MEMBER)
    MtOrient ori;           /* rot as typed with expressions, or MT_ORIENT_NONE */
} MtMarkerSpec;

/* Joint between marker i (on the moving body) and marker j (on the base body),
 * as in Adams: coordinates and reactions are those of i relative to j. */
typedef struct {
    char name[MT_NAME_MAX];
    MtJointType type;
    int mi, mj;   /* marker indices */
    MT_JOINT_SCHEMA(MT_SCHEMA_MEMBER) /* param: screw pitch, m per turn; distance length, m; rolling radius, m */
} MtJointSpec;

/* Prescribes a joint coordinate (joint ≥ 0, coord) or a component of the pose
 * of marker mi relative to mj (joint = -1, comp) as a function of time, at
 * displacement, velocity or acceleration level. Tables are owned by the model. */
#define MT_POLY_MAX 8
typedef struct {
    char name[MT_NAME_MAX];
    int joint;
    MtCoordKind coord;
    int mi, mj;
    MtComp comp;
    MtDriverLevel level;
    MtDriverKind kind;
    int ncoef;
    double coef[MT_POLY_MAX];
    int ntab;     /* TABLE: points */
    double *tab;  /* TABLE: t0 v0 t1 v1 …, t increasing */
    char expr[MT_EXPR_MAX]; /* EXPR: f(t), reading time (t) and parameters */
} MtDriverSpec;

/* Constraints among joint coordinates of two or three joints:
 * GEAR   r_a θ_a + r_b θ_b = const (external; radii coef[0], coef[1]; an
 *        internal gear has a negative coef[1]); the multiplier is the contact force
 * RACK   r θ_pinion − s_rack = const (coef[0] = pitch radius)
 * LINEAR Σ coef[k] x_k = const over 2 or 3 joint coordinates. */
typedef enum { MT_COUPLE_GEAR, MT_COUPLE_RACK, MT_COUPLE_LINEAR } MtCoupleKind;
typedef struct {
    char name[MT_NAME_MAX];
    MtCoupleKind kind;
    int n;
    int joint[3];
    MtCoordKind coord[3];
    double coef[3];
} MtCoupleSpec;

/* Point-to-point spring–damper between the origins of two markers:
 * tension F = k (L − L0) + c dL/dt + preload, or, with a curve, the
 * expression curve(x, v) of the extension x = L − L0 and its rate v (plus
 * any parameter, time and kinematic channel) in place of the linear law. */
typedef struct {
    char name[MT_NAME_MAX];
    int mi, mj;
    MT_SPRING_SCHEMA(MT_SCHEMA_MEMBER) /* curve "" = linear */
} MtSpringSpec;

/* Solver settings (MT_SOLVER_SCHEMA): method (MtMethod), step (RK4 step;
 * output interval of adaptive methods), end time, output every N-th step,
 * tolerances, Baumgarte Ts (<= 0: off) and ξs, HHT-α in [−1/3, 0],
 * generalised-α ρ∞, the loop method (MtLoopMethod) and its frequency ν, and
 * the projection after each step (MT_CORRECT_* bits), and where the run
 * starts (MT_START_*: the assembled initial state, or the static equilibrium
 * found from it, with the model's initial velocities). */
enum { MT_CORRECT_POS = 1, MT_CORRECT_VEL = 2 };
enum { MT_START_ASSEMBLED = 0, MT_START_STATICS = 1 };
typedef struct {
    MT_SOLVER_SCHEMA(MT_SCHEMA_MEMBER)
} MtSolverSpec;

/* A coordinate the analyses at rest hold where it starts (solver `hold`): the
 * project axis `axis` (0 x, 1 y, 2 z) of marker `marker`'s origin, or of the
 * centre of mass of rigid body `body` (marker −1). A vehicle free to roll
 * along its track keeps its place in statics this way; runs ignore it. */
typedef struct {
    int body, marker, axis;
} MtHold;
#define MT_HOLD_MAX 16

/* Initial condition to hold during assembly: joint coordinate = value and,
 * if has_rate, its rate = rate; the other coordinates adjust. With mode ≥ 1
 * it is modal coordinate w<mode> of flexible body `body` instead (joint −1,
 * coord MT_COORD_NONE): `initial BODY.wK VALUE rate R`. */
typedef struct {
    int joint;
    MtCoordKind coord;
    double value;
    int has_value, has_rate;
    double rate;
    int body, mode; /* a modal coordinate: body index, 1-based mode; mode 0 for a joint's */
} MtInitialSpec;

/* Force elements (mt_forces.c). Each acts between marker i (on the body that
 * receives the reported force) and marker j, or on one joint:
 * TORSION   spring–damper about a revolute joint's axis
 * BUSHING   6-component linear spring–damper between two markers (j axes),
 *           full 6 x 6 stiffness and damping matrices
 * FRICTION  Coulomb + viscous friction in a revolute or prismatic joint,
 *           Stribeck law, regularised (creeps below breakaway) or LuGre
 *           (sigma0 > 0: bristle state integrated with the mechanics; sticks)
 * CONTACT   unilateral Hunt–Crossley contact with Coulomb friction
 * STRUT     oleo-pneumatic shock strut (polytropic gas, quadratic orifice
 *           damping, seal friction, stroke limits) along the line j → i
 * TYRE      radial spring–damper rolling on the x-y plane of j, with
 *           longitudinal and lateral slip forces
 * ACTUATOR  force and torque given by expressions, in the axes of marker j
 * DRAG      aerodynamic drag ½ρ·cd·A·|v|v on marker i
 * WHEELRAIL a wheelset (marker i: axle along y) on a track that starts at
 *           marker j (x along the track, z up): profiles, contact search,
 *           Hertz normal and Kalker creep forces (mt_rail.c; expr[0..3]
 *           hold the names of its profile and irregularity tables) */
typedef enum {
    MT_FORCE_TORSION, MT_FORCE_BUSHING, MT_FORCE_FRICTION, MT_FORCE_CONTACT, MT_FORCE_STRUT,
    MT_FORCE_TYRE, MT_FORCE_ACTUATOR, MT_FORCE_DRAG, MT_FORCE_WHEELRAIL, MT_FORCE_NKINDS
} MtForceKind;
/* Contact geometries (marker i's shape against marker j's). */
typedef enum {
    MT_CONTACT_SPHERE_PLANE, MT_CONTACT_POINT_PLANE, MT_CONTACT_BOX_PLANE, MT_CONTACT_SPHERE_SPHERE,
    MT_CONTACT_POINT_SPHERE, MT_CONTACT_BOX_SPHERE, MT_CONTACT_NGEOM
} MtContactGeom;
#define MT_FORCE_NPAR 72 /* a bushing: 6 + 6 diagonals and 30 + 30 off-diagonal entries */
typedef struct {
    char name[MT_NAME_MAX];
    MtForceKind kind;
    int mi, mj;           /* markers (mj may be -1 for DRAG) */
    int joint;            /* TORSION, FRICTION */
    int geom;             /* CONTACT: MtContactGeom */
    double p[MT_FORCE_NPAR]; /* parameters, named per kind (mt_force_param_names) */
    char expr[6][MT_EXPR_MAX]; /* ACTUATOR: fx fy fz tx ty tz ("" = 0) */
} MtForceSpec;

/* Sensors (measures): named scalar channels computed from a solved state
 * (mt_sensors.c), written as result columns and readable by expressions.
 * POSITION, VELOCITY, ACCELERATION: of marker i's origin, relative to marker
 *   j's when mj ≥ 0 (velocity and acceleration as seen from the project frame);
 * ANGVEL, ANGACC: of marker i's body, relative to marker j's body;
 * DISTANCE: |p_i − p_j| (component ignored);
 * REACTION: force or moment of a joint on the body of its marker i, about
 *   marker i's origin, part = constraint, friction (force elements acting in
 *   the joint), driver or total (comp 0..2 force x y z, 3..5 moment, 6 |F|, 7 |M|);
 * ENERGY: kinetic, potential (gravity; the system's also elastic), elastic
 *   (springs and force elements attached to the body) or total energy of a
 *   body (body = -1: the system);
 * EXPR: an expression of parameters, time and any result column or earlier sensor;
 * FORCE: load of a force element (force ≥ 0) or spring (spring ≥ 0) on the
 *   body of its marker i about that marker's origin (comp 0..5, 6 |F|, 7 |M|),
 *   its deflection (8), power delivered (9) or elastic energy (10);
 * ANGLE: rotation of marker i relative to marker j (project axes when
 *   mj < 0) about x_j, y_j, z_j measured like a joint angle (comp 0..2,
 *   az = atan2(y_j·x_i, x_j·x_i)), or the whole rotation angle (3);
 * JOINT: coordinate coord of a joint (comp 0; an angle in (−π, π]) or its rate (1).
 * DEFORM, DEFORM_VEL, DEFORM_ACC: elastic displacement of the node marker i
 *   rides on (a flexible body's), its rate and second rate, in the body's
 *   floating-frame axes (mframe ignored);
 * STRESS: von Mises stress at that node (a surface node of a solid or shell mesh).
 * Vector sensors are expressed in the axes of marker mframe (−1: project axes)
 * and report comp = 0 x, 1 y, 2 z or 3 magnitude. */
typedef enum {
    MT_SENSOR_POSITION, MT_SENSOR_VELOCITY, MT_SENSOR_ACCELERATION, MT_SENSOR_ANGVEL, MT_SENSOR_ANGACC,
    MT_SENSOR_DISTANCE, MT_SENSOR_REACTION, MT_SENSOR_ENERGY, MT_SENSOR_EXPR, MT_SENSOR_FORCE, MT_SENSOR_ANGLE,
    MT_SENSOR_JOINT, MT_SENSOR_DEFORM, MT_SENSOR_DEFORM_VEL, MT_SENSOR_DEFORM_ACC, MT_SENSOR_STRESS, MT_SENSOR_NKINDS
} MtSensorKind;
typedef enum { MT_PART_TOTAL, MT_PART_CONSTRAINT, MT_PART_FRICTION, MT_PART_DRIVER } MtReactionPart;
typedef struct {
    char name[MT_NAME_MAX];
    MtSensorKind kind;
    int mi, mj, mframe;
    int comp;
    int joint;          /* REACTION */
    MtReactionPart part;
    int body;           /* ENERGY: body index or -1 for the system */
    int energy;         /* ENERGY: 0 kinetic, 1 potential, 2 total, 3 elastic */
    char unit[16];      /* display unit hint ("" = SI) */
    char expr[MT_EXPR_MAX];
    int force, spring;  /* FORCE: the force element or spring (the other -1) */
    int coord;          /* JOINT: MtCoordKind */
} MtSensorSpec;

/* Control channels (mt_controls.c): blocks whose states are integrated with
 * the mechanics. Each has an input expression (and a set point for PID) over
 * parameters, time, kinematic channels and earlier controls; its output is a
 * channel NAME that force expressions (actuators) read.
 * PID  u = kp e + ki ∫e + kd ė_f, e = setpoint − input, ė_f filtered with
 *      time constant tf; output limited to [lo, hi] with anti-windup
 * LAG  first-order lag: τ ẏ + y = k·input
 * SECOND second-order: ÿ + 2ζω ẏ + ω² y = k ω²·input
 * p[]: PID kp ki kd tf lo hi; LAG k tau lo hi; SECOND k wn zeta lo hi
 * (lo/hi = ∓inf when not limited). */
/* How a flexible body is reduced (core/flex does it): free-interface modes,
 * Craig–Bampton, Guyan, or the interface's attachment modes. */
typedef enum { MT_REDUCE_MODES, MT_REDUCE_CB, MT_REDUCE_GUYAN, MT_REDUCE_ATTACH } MtReduceMethod;

typedef enum { MT_CONTROL_PID, MT_CONTROL_LAG, MT_CONTROL_SECOND, MT_CONTROL_NKINDS } MtControlKind;
typedef struct {
    char name[MT_NAME_MAX];
    MtControlKind kind;
    char input[MT_EXPR_MAX];
    char setpoint[MT_EXPR_MAX]; /* PID; "" = 0 */
    double p[6];
    int disabled;               /* output held at 0 (events may switch it) */
} MtControlSpec;

/* Events (mt_events.c): at a time, or when an expression (parameters, time,
 * kinematic channels, controls) crosses a value in a direction, located to
 * 1e-9 s; then an action: stop the run, break or lock a joint, enable or
 * disable a force element, spring, driver or control channel. */
typedef enum { MT_EVENT_AT, MT_EVENT_CROSSES } MtEventTrigger;
typedef enum { MT_ACTION_STOP, MT_ACTION_BREAK, MT_ACTION_LOCK, MT_ACTION_ENABLE, MT_ACTION_DISABLE } MtEventAction;
typedef enum { MT_TARGET_NONE, MT_TARGET_JOINT, MT_TARGET_FORCE, MT_TARGET_SPRING, MT_TARGET_DRIVER, MT_TARGET_CONTROL } MtTargetKind;
typedef struct {
    char name[MT_NAME_MAX];
    MtEventTrigger trigger;
    double time;                /* AT */
    char expr[MT_EXPR_MAX];     /* CROSSES */
    double value;
    int direction;              /* +1 rising, −1 falling, 0 either */
    MtEventAction action;
    MtTargetKind target_kind;
    int target;                 /* index of the joint, force, spring, driver or control */
} MtEventSpec;

/* Visual geometry of a body (also the source of computed mass properties).
 * In the shape's own frame (pos, rot in body axes): BOX size = lx ly lz,
 * centred; CYLINDER and CAPSULE radius size[0], length size[1] along z,
 * centred; SPHERE radius size[0]; BAR radius size[0] from pos to end (body
 * axes); MESH an STL/OBJ file scaled by size[0]. */
typedef enum { MT_SHAPE_BOX, MT_SHAPE_CYLINDER, MT_SHAPE_SPHERE, MT_SHAPE_CAPSULE, MT_SHAPE_BAR, MT_SHAPE_MESH, MT_SHAPE_NKINDS } MtShapeKind;
typedef struct {
    int body;          /* MT_GROUND or body index */
    MtShapeKind kind;
    double size[3];
    double pos[3], rot[9];
    double end[3];     /* BAR: second end point, body axes */
    float color[3];    /* 0..1; all zero = automatic */
    char mesh[256];    /* MESH: file path, relative to the model file */
    MtOrient ori;      /* rot as typed with expressions, or MT_ORIENT_NONE */
} MtShapeSpec;

/* A named design variable: value = expr evaluated over other parameters. */
typedef struct {
    char name[MT_NAME_MAX];
    char expr[MT_EXPR_MAX]; /* as typed; a plain number is an expression too */
    double value;           /* SI, after mt_model_eval_params */
    char unit[16];          /* display unit the user typed the value in ("" = SI) */
    int slider;             /* shown as a slider over the 3D view (`slider NAME MIN MAX`) */
    double slider_lo, slider_hi; /* its range, SI, lo < hi */
} MtParamSpec;

/* A flexible body (docs/design.md §4, docs/flexible-bodies.md): the finite-element
 * model of a body, reduced to N modal coordinates when the model is read
 * (mt_model_reduce_flex), moving in a floating frame. Its source is a mesh
 * file or a beam generated along the body's x axis from its origin (nodes
 * 1 … elements+1). The interface nodes of the reduction are the nodes its
 * markers ride on (MtMarkerSpec.node / spider). Mass, centre of mass and
 * inertia of the body come from the FE model. */
typedef enum { MT_FLEX_MESH, MT_FLEX_BEAM } MtFlexSource;
typedef enum { MT_SECTION_RECT, MT_SECTION_CIRCLE, MT_SECTION_TUBE } MtSection;
/* The elastic state of a flexible body at t = 0: the modal coordinates and
 * rates the initial assembly gives (its projections may move them), or held
 * at zero through the assembly (undeformed, no elastic velocity). */
typedef enum { MT_FLEX_INIT_ASSEMBLED, MT_FLEX_INIT_REST } MtFlexInitial;
struct MtFlexData;
typedef struct {
    int body;
    MtFlexSource source;
    char file[256];      /* MESH: .msh, .inp or .bdf, relative to the model file */
    MtSection section;   /* BEAM: rect b h (b along body y, h along z), circle d, tube D d: sec */
    MT_FLEX_SCHEMA(MT_SCHEMA_MEMBER) /* method: MtReduceMethod; Rayleigh D = αK + βM used when either is > 0;
                                      * stiffening by gravity and the centrifugal field (cb, guyan) */
    struct MtFlexData *data; /* the reduced body, shared by copies of the model; NULL until reduced */
} MtFlexSpec;

/* A named table of points (x, y), x strictly increasing, that every
 * expression of the model reads with table(x, NAME) (linear interpolation)
 * or spline(x, NAME) (natural cubic spline) (mt_tables.c). */
typedef struct {
    char name[MT_NAME_MAX];
    int n;        /* points, ≥ 2 */
    double *x, *y; /* one allocation owned by the model: y = x + n */
} MtTableSpec;

/* Entity kinds a numeric field binding refers to. */
typedef enum {
    MT_ENT_BODY, MT_ENT_MARKER, MT_ENT_JOINT, MT_ENT_DRIVER, MT_ENT_SPRING, MT_ENT_COUPLE, MT_ENT_INITIAL,
    MT_ENT_GRAVITY, MT_ENT_SOLVER, MT_ENT_FORCE, MT_ENT_SHAPE, MT_ENT_CONTROL, MT_ENT_EVENT,
    MT_ENT_FLEX /* a body's flexible settings: the index is the body's */
} MtEntityKind;

/* A numeric field whose value is an expression of parameters. Fields are named
 * like the text format's keywords with a component index where needed:
 * "mass", "com.0", "inertia.3", "position.2", "velocity.0", "omega.1", "at.0",
 * "param" (joint pitch/length/radius), "coef.1", "k", "c", "length", "preload",
 * "radius.0", "value", "rate", "gravity.1", "step", "until", "nu"; shapes
 * "size.0", "pos.1", "end.2"; controls their settings ("kp", "tau", …) and
 * "limit.0/1"; events "time" and "value"; the words of a body's, marker's or
 * shape's orientation "orient.0" … (MtOrient) … */
typedef struct {
    MtEntityKind kind;
    int index;              /* entity index (unused for gravity and solver) */
    char field[24];
    char expr[MT_EXPR_MAX];
} MtBinding;

/* Display unit chosen per quantity (names from motus/units.h, e.g. "length" → "mm"). */
typedef struct {
    char quantity[24];
    char unit[16];
} MtDisplayUnit;

/* A plot to show with the model: result columns ("crank.wz", "pin.Fy",
 * a sensor's name) against time, or against column x (an X–Y plot). Kept
 * with the model so that a text model and a project open with the plots
 * their author chose (`plot …` lines; the project's plots table). */
#define MT_PLOT_MAX 8        /* plots per model */
#define MT_PLOT_CURVES 8     /* curves per plot */
#define MT_PLOT_NAME 80      /* longest column name */
typedef struct {
    char x[MT_PLOT_NAME]; /* "" = against time */
    int ncurve;
    char curve[MT_PLOT_CURVES][MT_PLOT_NAME];
} MtPlotSpec;

/* How the 3D view shows the model's flexible bodies and where it looks, kept
 * with the model (`view …` line; the project's plots table, row "view") so
 * that a model opens the way its author left it (mt_view.c). */
#define MT_VIEW_METERS 8
typedef enum { MT_VIEW_FIELD_NONE, MT_VIEW_FIELD_DISPLACEMENT, MT_VIEW_FIELD_STRESS } MtViewField;
typedef enum { MT_VIEW_RANGE_RUN, MT_VIEW_RANGE_FRAME, MT_VIEW_RANGE_FIXED } MtViewRange;
typedef enum { MT_VIEW_CAMERA_KEEP, MT_VIEW_CAMERA_FRONT, MT_VIEW_CAMERA_RIGHT, MT_VIEW_CAMERA_TOP, MT_VIEW_CAMERA_ISO } MtViewCamera;
typedef struct {
    int set;           /* 0: nothing kept (the window proposes) */
    double deformation; /* deformation scale, > 0 */
    MtViewField field;
    MtViewRange range;
    double lo, hi;     /* MT_VIEW_RANGE_FIXED: SI (m or Pa), lo < hi */
    MtViewCamera camera;
    char focus[MT_NAME_MAX]; /* body framed ("" none) */
    char follow[MT_NAME_MAX]; /* body the camera moves with ("" none) */
    int nmeter;              /* live meters over the view: result columns (or "momentum") shown at the time shown */
    char meter[MT_VIEW_METERS][MT_PLOT_NAME];
} MtViewSpec;

/* A derived curve (`derived` lines; docs/model-format.md, "Derived curves"):
 * a curve computed from result columns (or derived curves defined before it)
 * after a run, for plots: the magnitude of a vector, a sum, a difference, a
 * scaled curve, a derivative or integral over time, a low-pass filtered
 * curve. Its name is used like a column's in `plot` lines. The computation
 * and the unit are core's (motus/derived.h). */
#define MT_DERIVED_MAX 16 /* derived curves per model */
#define MT_DERIVED_ARGS 3 /* operands at most (a vector's components) */
typedef enum {
    MT_DERIVED_MAGNITUDE,  /* √(a² + b² [+ c²]) */
    MT_DERIVED_SUM,        /* a + b */
    MT_DERIVED_DIFFERENCE, /* a − b */
    MT_DERIVED_SCALE,      /* k·a (k: param) */
    MT_DERIVED_DERIVATIVE, /* da/dt */
    MT_DERIVED_INTEGRAL,   /* ∫ a dt from the first frame */
    MT_DERIVED_LOWPASS,    /* a through a 2nd-order Butterworth low-pass, zero-phase (cut-off param, Hz) */
    MT_DERIVED_COUNT
} MtDerivedOp;
typedef struct {
    char name[MT_PLOT_NAME];
    MtDerivedOp op;
    int narg;
    char arg[MT_DERIVED_ARGS][MT_PLOT_NAME];
    double param; /* scale: the factor; lowpass: the cut-off frequency, Hz; else 0 */
} MtDerivedSpec;

typedef struct MtModel {
    char title[128];
    double gravity[3];
    MtSolverSpec solver;
    int nbody, nmarker, njoint, ndriver, nspring, ncouple, ninitial, nparam, nbinding, nunit;
    int cap_body, cap_marker, cap_joint, cap_driver, cap_spring, cap_couple, cap_initial, cap_param, cap_binding, cap_unit;
    MtBodySpec *body;
    MtMarkerSpec *marker;
    MtJointSpec *joint;
    MtDriverSpec *driver;
    MtSpringSpec *spring;
    MtCoupleSpec *couple;
    MtInitialSpec *initial;
    MtParamSpec *param;
    MtBinding *binding;
    MtDisplayUnit *unit;
    int nshape, cap_shape;
    MtShapeSpec *shape;
    int nforce, cap_force;
    MtForceSpec *force;
    int nsensor, cap_sensor;
    MtSensorSpec *sensor;
    int ncontrol, cap_control;
    MtControlSpec *control;
    int nevent, cap_event;
    MtEventSpec *event;
    int nflex, cap_flex;
    MtFlexSpec *flex;
    char basedir[4096]; /* directory the model was read from (mesh files are relative to it); "" = current; a longer one is refused */
    int ntable, cap_table;
    MtTableSpec *table; /* named tables of expressions */
    int nplot;
    MtPlotSpec plot[MT_PLOT_MAX];
    int nderived;
    MtDerivedSpec derived[MT_DERIVED_MAX];
    struct MtStudy *study; /* the model's study (motus/study.h, `study …` lines), NULL if none; owned */
    MtViewSpec view;
} MtModel;

/* Treatments of the constraints (docs/design.md §2.6, "Loop-closure
 * methods"): Lagrange multipliers without or with Baumgarte stabilisation,
 * stiff spring–dampers instead of constraints (penalty), and the modified
 * Lagrange function (an augmented Lagrangian with integral feedback). */
typedef enum { MT_LOOPS_BAUMGARTE, MT_LOOPS_LAGRANGE, MT_LOOPS_PENALTY, MT_LOOPS_MLF } MtLoopMethod;

/* New empty model: ground only, gravity 0, default solver settings. */
MtModel *mt_model_new(void);
void mt_model_free(MtModel *m);
/* Deep copy; NULL when out of memory. */
MtModel *mt_model_copy(const MtModel *m);
/* Default solver settings (RK4, h = 1e-3, 1 s, Ts = 0.1 s, ξ = 1). */
void mt_solver_defaults(MtSolverSpec *s);

/* Adders return the new index, or -1 with err set (duplicate name, bad index). */
int mt_model_add_body(MtModel *m, const char *name, MtError *err);
int mt_model_add_marker(MtModel *m, int body, const char *name, const double pos[3],
                        const double rot[9], MtError *err);
int mt_model_add_joint(MtModel *m, const char *name, MtJointType type, int mi, int mj, MtError *err);
/* joint = -1 makes a marker driver: set mi, mj, comp afterwards. */
int mt_model_add_driver(MtModel *m, const char *name, int joint, MtDriverKind kind, int ncoef,
                        const double *coef, MtError *err);
int mt_model_add_spring(MtModel *m, const char *name, int mi, int mj, double k, double c,
                        double length, double preload, MtError *err);

/* Makes driver d tabulated: n points (t, value), copied. */
int mt_model_driver_set_table(MtModel *m, int driver, int n, const double *pts, MtError *err);
/* Gear (coef = radii), rack (coef[0] = pinion radius) or linear coupler (coef = c_k)
 * over n = 2..3 joints; coord may be NULL for each joint's first coordinate. */
int mt_model_add_couple(MtModel *m, const char *name, MtCoupleKind kind, int n, const int *joint,
                        const MtCoordKind *coord, const double *coef, MtError *err);

/* Holds a joint coordinate (value and/or rate) during the initial assembly. */
int mt_model_add_initial(MtModel *m, int joint, MtCoordKind coord, int has_value, double value, int has_rate,
                         double rate, MtError *err);
/* The initial value and/or rate of modal coordinate w<mode> (1-based) of the
 * flexible body `body`; index or -1 with err set. */
int mt_model_add_initial_mode(MtModel *m, int body, int mode, int has_value, double value, int has_rate, double rate,
                              MtError *err);

/* Parameters and bindings (mt_params.c). add_param replaces an existing
 * parameter of the same name; bind replaces an existing binding of the field. */
int mt_model_add_param(MtModel *m, const char *name, const char *expr, const char *unit, MtError *err);
int mt_model_find_param(const MtModel *m, const char *name);
/* A hash index of the parameters' names, for readers of many parameters (a
 * linear mt_model_find_param per parameter made a chain of 100 000 take
 * minutes). Valid while the parameters are only appended to. */
typedef struct {
    int *slot;   /* parameter index + 1, 0 = empty */
    size_t mask; /* size − 1, a power of two */
    int n;
} MtParamIndex;
/* Indexes the parameters present; -1 when out of memory. */
int mt_param_index_build(MtParamIndex *ix, const MtModel *m);
int mt_param_index_find(const MtParamIndex *ix, const MtModel *m, const char *name);
/* Adds parameter i (already in m); -1 when out of memory. */
int mt_param_index_add(MtParamIndex *ix, const MtModel *m, int i);
void mt_param_index_free(MtParamIndex *ix);
/* mt_model_add_param for a NAME the caller knows is new (no search); -1 with err set. */
int mt_model_append_param(MtModel *m, const char *name, const char *expr, const char *unit, MtError *err);
int mt_model_bind(MtModel *m, MtEntityKind kind, int index, const char *field, const char *expr, MtError *err);
/* The binding of a field, or NULL. */
const MtBinding *mt_model_binding(const MtModel *m, MtEntityKind kind, int index, const char *field);
/* Address of a bindable numeric field, or NULL when the name is unknown. */
double *mt_model_field(MtModel *m, MtEntityKind kind, int index, const char *field);
/* Evaluates every parameter (in dependency order; cycles and unknown names are
 * reported with the parameter or field that holds them) and writes every bound
 * field. Call after changing a parameter. */
MtStatus mt_model_eval_params(MtModel *m, MtError *err);
/* Remembers the display unit of a quantity (e.g. "length", "mm"). */
int mt_model_set_unit(MtModel *m, const char *quantity, const char *unit, MtError *err);

/* Force elements: adds one with default parameters (returns index or -1);
 * parameter names of a kind (NULL-terminated list, index = position in p). */
int mt_model_add_force(MtModel *m, const char *name, MtForceKind kind, int mi, int mj, int joint, MtError *err);
const char *mt_force_kind_name(MtForceKind k);
int mt_force_kind_from_name(const char *s, MtForceKind *k);
const char *const *mt_force_param_names(MtForceKind k);
const char *mt_contact_geom_name(MtContactGeom g);
/* The words before a wheelrail element's table names (wheel, rail, vertical,
 * lateral: its expr[0..3]) and of its track spectrum (psd none|low|high = 0, 1, 2). */
extern const char *const mt_wheelrail_table_keys[4];
const char *mt_wheelrail_psd_name(int w);
int mt_wheelrail_psd_from_name(const char *s);
int mt_contact_geom_from_name(const char *s, MtContactGeom *g);
int mt_model_find_force(const MtModel *m, const char *name);

/* Sensors: adds one (fields other than name and kind set by the caller). */
int mt_model_add_sensor(MtModel *m, const char *name, MtSensorKind kind, MtError *err);
int mt_model_find_sensor(const MtModel *m, const char *name);
const char *mt_sensor_kind_name(MtSensorKind k);
/* The quantity a sensor of model m measures (an MtDim of motus/units.h, as an
 * int to keep this header apart; -1 for an expression, whose quantity is its
 * author's: see its unit hint). */
int mt_sensor_dim(const MtModel *m, const MtSensorSpec *s);
int mt_sensor_kind_from_name(const char *s, MtSensorKind *k);

/* Control channels and events: add one (kind-specific fields set by the caller). */
int mt_model_add_control(MtModel *m, const char *name, MtControlKind kind, MtError *err);
int mt_model_find_control(const MtModel *m, const char *name);
const char *mt_control_kind_name(MtControlKind k);
int mt_control_kind_from_name(const char *s, MtControlKind *k);
/* Names of a control's settings, in the order of MtControlSpec.p (NULL-terminated;
 * the two limits follow them in p). */
const char *const *mt_control_param_names(MtControlKind k);
int mt_model_add_event(MtModel *m, const char *name, MtError *err);
const char *mt_event_action_name(MtEventAction a);
const char *mt_loop_method_name(int method);
/* The loop methods' keywords in MT_LOOPS_* order, NULL-terminated (reader, writer, store, editor). */
extern const char *const mt_loop_methods[];
int mt_loop_method_from_name(const char *s, int *method);

/* Named tables (mt_tables.c): add one (n points x0 y0 x1 y1 …, copied;
 * index or -1), find one by name (-1 when absent), check them all (at least
 * two finite points, x increasing), free and deep-copy them (0 or -1 when
 * out of memory), and the list the expression compiler takes (one entry per
 * table, pointing into the model; free() it; NULL when out of memory). */
struct MtExprTable;
int mt_model_add_table(MtModel *m, const char *name, int n, const double *xy, MtError *err);
int mt_model_find_table(const MtModel *m, const char *name);
MtStatus mt_tables_validate(const MtModel *m, MtError *err);
void mt_model_free_tables(MtModel *m);
int mt_model_copy_tables(MtModel *dst, const MtModel *src);
struct MtExprTable *mt_model_expr_tables(const MtModel *m);
/* Compiles the law of driver d (kind EXPR): time in slot 0, parameter i in
 * slot 1 + i, so its variables are {t, the parameters' values}. NULL with a
 * message naming the driver when the text does not compile or reads
 * anything else. Free with mt_expr_free (core/model/mt_expr.h). */
struct MtExpr *mt_model_driver_law(const MtModel *m, int d, MtError *err);
/* Gives driver d the law f(t) = src (kind EXPR; its coefficients and table
 * go). Refuses an empty or too long text; the names are checked by
 * mt_model_validate. */
MtStatus mt_model_driver_set_expr(MtModel *m, int d, const char *src, MtError *err);

/* Plots (mt_plots.c): a column name a plot may hold (letters, digits and
 * "_.-", shorter than MT_PLOT_NAME); the plots and derived curves as the
 * project stores them, {"active": A, "plots": [{"x": null|"col", "curves":
 * ["a", …]}, …], "derived": [{"name": "n", "op": "magnitude", "args": ["a",
 * …], "param": P}, …]} (malloc'd; NULL when out of memory), and read back
 * (at most MT_PLOT_MAX plots of MT_PLOT_CURVES curves and MT_DERIVED_MAX
 * derived curves — derived may be NULL to skip them; names that are no
 * column names and derived curves that do not check dropped; -1 when the
 * text is not such a list). */
int mt_plot_name_ok(const char *name);
char *mt_plots_to_json(const MtPlotSpec *plot, int nplot, const MtDerivedSpec *derived, int nderived, int active);
int mt_plots_from_json(const char *json, MtPlotSpec *plot, int *nplot, MtDerivedSpec *derived, int *nderived,
                       int *active);
/* Derived curves: the operation's model-text name ("magnitude", "lowpass"…)
 * and back (MT_DERIVED_COUNT for none); how many operands it takes (*lo to
 * *hi) and whether it has a parameter; a curve's own check (name, operands,
 * parameter: finite factor, cut-off > 0), MT_ERR_MODEL naming it. */
const char *mt_derived_op_name(MtDerivedOp op);
MtDerivedOp mt_derived_op_from_name(const char *name);
int mt_derived_arity(MtDerivedOp op, int *lo, int *hi);
MtStatus mt_derived_check(const MtDerivedSpec *d, MtError *err);
/* The derived curve called name among the model's, or -1. */
int mt_model_find_derived(const MtModel *m, const char *name);

/* The view (mt_view.c): `view [deformation S] [colour none|displacement|stress]
 * [range run|frame|LO HI] [camera front|right|top|iso] [focus BODY] [follow BODY] [meter COLUMN]…` read from
 * the words after "view" (MT_OK, or an error naming the word and what to
 * write), and written back canonically ("view deformation 300 colour stress
 * range run", no newline; "" when nothing is kept). */
MtStatus mt_view_parse(MtViewSpec *v, char *const *word, int n, MtError *err);
void mt_view_format(const MtViewSpec *v, char *buf, size_t n);
/* The `slider NAME MIN MAX` line of parameter i (MIN, MAX in the parameter's
 * unit) into buf ("" without a slider), and the words after "slider" read
 * back onto the model's parameter (MT_OK, or an error naming the parameter
 * and what to write); mt_sliders.c. */
void mt_slider_format(const MtModel *m, int i, char *buf, size_t n);
/* The factor from a parameter's unit to SI (1 without a unit). */
double mt_param_unit_factor(const MtParamSpec *p);
MtStatus mt_slider_parse(MtModel *m, char *const *word, int n, MtError *err);
/* Every slider line of the model, one a line ("" none; free it), and such text read back (unknown
 * parameters and bad lines left out: presentation); the project's plots table, row "sliders". */
char *mt_sliders_text(const MtModel *m);
void mt_sliders_read(MtModel *m, const char *text);

/* Adds a shape to a body; returns its index or -1. */
int mt_model_add_shape(MtModel *m, const MtShapeSpec *shape, MtError *err);
const char *mt_shape_kind_name(MtShapeKind k);
/* How many of MtShapeSpec.size a shape kind uses (a mesh: its scale). */
int mt_shape_nsize(MtShapeKind k);
int mt_shape_kind_from_name(const char *s, MtShapeKind *k);
/* A mesh shape's file: an STL (binary or ASCII) or, by the extension .obj, a
 * Wavefront OBJ, as triangles: *xyz (malloc'ed) holds 9 doubles (three
 * vertices, file units) per triangle. Only regular files are read. Returns
 * the number of triangles (> 0), or -1 with err naming the file (and the
 * line): no triangles, a vertex without three finite numbers, a face naming
 * a missing vertex, a binary STL whose triangle count disagrees with its size. */
long mt_shape_mesh_read(const char *path, double **xyz, MtError *err);
/* The same for data held in memory; name gives the format and the messages. */
long mt_shape_mesh_parse(const char *data, size_t len, const char *name, double **xyz, MtError *err);
/* Mass, centre of mass and inertia about it (body axes, Ixx Iyy Izz Ixy Ixz Iyz)
 * of the body's solid shapes at density rho (meshes are not counted);
 * returns 0, or -1 when the body has no solid shape. */
int mt_shapes_mass_props(const MtModel *m, int body, double rho, double *mass, double com[3], double inertia[6]);
/* Recomputes mass properties of every body with a density; -1 and err when a
 * body with a density has no solid shape. */
int mt_model_update_mass_props(MtModel *m, MtError *err);

/* Lookups by name; -1 when absent (bodies: also -1 for "ground", check with
 * mt_model_body_ref). Marker reference "body.marker". */
int mt_model_find_body(const MtModel *m, const char *name);
int mt_model_find_marker(const MtModel *m, const char *ref);
int mt_model_find_joint(const MtModel *m, const char *name);
/* Body index for a body name accepting "ground"; returns 0 and sets *idx, or -1. */
int mt_model_body_ref(const MtModel *m, const char *name, int *idx);
/* Name of a body index ("ground" for MT_GROUND). */
const char *mt_model_body_name(const MtModel *m, int body);
/* Writes "body.marker" into buf. */
const char *mt_model_marker_ref(const MtModel *m, int marker, char *buf, int len);

/* The solver's `hold` words (BODY.x, BODY.MARKER.z; spaces or commas
 * between): up to MT_HOLD_MAX into out (may be NULL); returns their number,
 * or −1 with err naming the word that names nothing. */
int mt_model_holds(const MtModel *m, MtHold *out, MtError *err);

/* Checks every entity for physical sense (positive mass, positive-definite
 * inertia satisfying the triangle inequality, unit axes, finite numbers,
 * drivers on drivable joints); first problem goes to err, naming the entity. */
/* Every shape's sizes positive and its position finite; MT_OK or the body named. */
MtStatus mt_model_check_shapes(const MtModel *m, MtError *err);
MtStatus mt_model_validate(const MtModel *m, MtError *err);

/* Rows a joint type removes (revolute 5, spherical 3 …). */
int mt_joint_rows(MtJointType t);
const char *mt_joint_type_name(MtJointType t);
/* What the interface calls a kind of entity, translated ("revolute",
 * "angular velocity", "torsion spring"; core/model/mt_labels.c) — the *_name
 * functions give the model format's keywords. */
const char *mt_joint_type_label(MtJointType t);
const char *mt_force_kind_label(MtForceKind k);
const char *mt_sensor_kind_label(MtSensorKind k);
const char *mt_shape_kind_label(MtShapeKind k);
/* Index in MtForceSpec.p of entry (i, j) (0-based, x y z rx ry rz) of a
 * bushing's stiffness (c = 0) or damping (c = 1) matrix. */
static inline int mt_bushing_index(int c, int i, int j)
{
    return i == j ? 6 * c + i : 12 + 30 * c + 5 * i + (j < i ? j : j - 1);
}
const char *mt_couple_kind_label(MtCoupleKind k);
/* What the inspector shows for a choice of a field (the joint type
 * "revolute", a driver's law "rate" → "constant rate", an integrator "dp54" →
 * "Dormand–Prince 5(4), adaptive"), in the user's language; the value itself
 * when it has no other words. Values typed and stored stay the keywords. */
const char *mt_edit_choice_label(const char *field, const char *value);
int mt_joint_type_from_name(const char *s, MtJointType *t);
const char *mt_method_name(MtMethod m);
/* Joint coordinates: names ("angle", "disp", "x", "y"), which a joint type has, its first. */
const char *mt_coord_name(MtCoordKind c);
int mt_coord_from_name(const char *s, MtCoordKind *c);
int mt_joint_has_coord(MtJointType t, MtCoordKind c);
MtCoordKind mt_joint_default_coord(MtJointType t);
/* Marker-driver components ("x" … "az"). */
const char *mt_comp_name(MtComp c);
int mt_comp_from_name(const char *s, MtComp *c);
int mt_method_from_name(const char *s, MtMethod *m);

/* Flexible bodies (descriptions: mt_catalogue.c; reductions: mt_flexmodel.c). mt_model_add_flex makes a body flexible
 * (defaults: cb, 6 modes, ζ = 0.01; source and material set by the caller);
 * mt_model_body_flex gives the spec index of a body or -1. */
int mt_model_add_flex(MtModel *m, int body, MtFlexSource source, MtError *err);
int mt_model_body_flex(const MtModel *m, int body);
/* Builds the FE model of every flexible body not reduced yet (mesh files
 * relative to basedir, NULL = current directory), reduces it with the nodes
 * of its markers as the interface, and sets the body's mass properties.
 * Errors name the body (a missing node, a malformed mesh, a failed reduction). */
MtStatus mt_model_reduce_flex(MtModel *m, const char *basedir, MtError *err);
/* Drops the reduced data of body b's flexible spec (after an edit). */
void mt_model_flex_invalidate(MtModel *m, int spec);
/* Reduces again every flexible body whose reduction no longer fits its
 * markers (a marker added, removed, renamed, or newly loaded), or has none. */
MtStatus mt_model_flex_refresh(MtModel *m, MtError *err);

/* Orientations as typed (mt_orient.c). Words a form takes; its keyword;
 * the rotation of a form and its words (0, or an MtOrientProblem) and what a
 * problem means (translated, for "ENTITY: problem" messages). */
typedef enum { MT_ORIENT_ZERO_Z = 1, MT_ORIENT_X_PARALLEL, MT_ORIENT_ZERO_QUAT, MT_ORIENT_ZERO_AXIS, MT_ORIENT_NOT_FINITE } MtOrientProblem;
int mt_orient_nwords(MtOrientForm f);
const char *mt_orient_form_name(MtOrientForm f);
int mt_orient_rot(MtOrientForm form, const double *w, double R[9]);
const char *mt_orient_problem(int code);
/* The orientation of a body, marker or shape (and its rot), or NULL. */
MtOrient *mt_model_orient(MtModel *m, MtEntityKind kind, int index, double **rot);
/* How many words of its orientation an entity binds to expressions. */
int mt_model_orient_bound(const MtModel *m, MtEntityKind kind, int index);
/* Forgets an entity's orientation as typed and its bindings (rot stays). */
void mt_model_orient_clear(MtModel *m, MtEntityKind kind, int index);
/* An orientation's form and words as text ("axis 0 0 1 0.5", numbers only:
 * projects keep it beside their bindings) and back; 0, or -1 when buf is too
 * short or the text is not such an orientation. */
int mt_orient_to_text(const MtOrient *o, char *buf, size_t n);
int mt_orient_from_text(const char *s, MtOrient *o);
/* rot of every entity with an orientation as typed from its words; MT_OK or
 * err naming the entity (a zero axis, x parallel to z …). */
MtStatus mt_model_update_orients(MtModel *m, MtError *err);

/* Text model format (docs/model-format.md): the model as written, its
 * flexible bodies not reduced yet (mt_parse.c). */
MtModel *mt_model_parse_text(const char *text, const char *source_name, MtError *err);
MtModel *mt_model_load_text(const char *path, MtError *err);
/* The same with the flexible bodies reduced (mt_flexmodel.c, on the floor of
 * core/flex above the model's); reduce = 0 leaves them unreduced (the caller
 * supplies their data). */
MtModel *mt_model_parse(const char *text, const char *source_name, MtError *err);
MtModel *mt_model_parse_ex(const char *text, const char *source_name, int reduce, MtError *err);
MtModel *mt_model_load(const char *path, MtError *err);
/* Writes the model in canonical text form. */
MtStatus mt_model_write(const MtModel *m, FILE *f, MtError *err);

/* ---- the schema (motus/schema.h rows; mt_schema.c) --------------------------- */
/* The rows of an entity kind (*n of them; NULL and 0 for kinds without one). */
const MtField *mt_schema_fields(MtEntityKind kind, int *n);
/* The row of a field: "xi", a vector "com" as a whole (*comp = -1), or a
 * component "com.1" (*comp = 1); NULL when the kind has no such field or component. */
const MtField *mt_schema_find(MtEntityKind kind, const char *field, int *comp);
/* The struct a kind's rows describe (&m->solver, &m->body[i] …); NULL for a bad index. */
void *mt_schema_object(const MtModel *m, MtEntityKind kind, int index);
#define MT_SCHEMA_AT(obj, f) ((void *)((char *)(obj) + (f)->offset))
/* Sets every row of an entity to its default. */
void mt_schema_defaults(MtEntityKind kind, void *obj);
/* Copies every row of an entity from src to dst (the rest of dst stays). */
void mt_schema_copy(MtEntityKind kind, void *dst, const void *src);
/* ENUM rows: number of keywords; the value of a keyword or alias (-1 if
 * none); the keyword of a value ("?" when out of range). */
int mt_schema_enum_count(const MtField *f);
int mt_schema_enum_find(const MtField *f, const char *word);
/* The keywords as "a, b or c" in buf (for messages); returns buf. */
const char *mt_schema_enum_list(const MtField *f, char *buf, size_t n);
const char *mt_schema_enum_name(const MtField *f, int v);
/* Every row of an entity finite (unless NAN), inside its interval, a known
 * keyword; else err: "WHAT: KEY (label) must lie in [lo, hi], not V", WHAT
 * being what_fmt (marked MT_N_, translated here) with name ("body '%s'"),
 * formatted only then. */
MtStatus mt_schema_check(const MtModel *m, MtEntityKind kind, int index, const char *what_fmt, const char *name, MtError *err);
/* Sets setting key ("xi", "com.1", "method") of entity (kind, index) from
 * text: a keyword, a whole number, on/off, a plain number, text. MT_OK, or
 * MT_ERR_ARG with err naming what ("solver") and the setting. */
MtStatus mt_schema_set_text(MtModel *m, MtEntityKind kind, int index, const char *key, const char *text, const char *what,
                            MtError *err);
/* Project columns of a row: how many, and the name of column k. */
int mt_schema_ncols(const MtField *f);
const char *mt_schema_column(const MtField *f, int k, char *buf, size_t n);

#endif
