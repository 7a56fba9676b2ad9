/* motus/schema.h — the schema of the model: every setting of the entities it
 * covers, written once. Each row names a field's member, its type and number
 * of components, its keyword (the text format's word, the binding's field
 * name, the editor's field and, unless cols says otherwise, the project
 * column), its quantity, default, limits, flags, keywords of its values and
 * the label the interface shows. From these rows come the structs of
 * motus/model.h, the text reader and writer (mt_parse.c), bindings and defaults
 * (mt_params.c, mt_schema.c), validation (mt_schema_check), the project's
 * load and save (core/store) and the inspector (core/edit). Adding a
 * setting to an entity is one row here plus the physics that uses it.
 *
 * What is not a setting stays with its entity's own code: names, kinds and
 * references to other entities (the "head" of a text line), orientations,
 * lists (driver tables, force parameters by kind). */
#ifndef MT_SCHEMA_H
#define MT_SCHEMA_H

#include <stddef.h>

/* Row: X(member, TYPE, n, "key", "columns", DIM, default, lo, hi, flags, values, label)
 *  TYPE   REAL (double), VEC (double[n]), INT (int), ENUM (int: index in
 *         values), FLAG (int 0/1, a bare keyword in the text), TEXT (char[n])
 *  columns NULL: the key (scalars) — else the project's columns, space-separated
 *  DIM    the quantity (MT_DIM_*, without the prefix)
 *  lo, hi the accepted closed interval (flags LO_OPEN, HI_OPEN make it open)
 *  values ENUM: the keywords, NULL-terminated, aliases after it as pairs
 *         "alias", "keyword" up to a second NULL; VEC: the components' names
 *  label  for the inspector, marked for translation */
enum {
    MT_SF_EXPR = 1,     /* may be bound to an expression of parameters */
    MT_SF_LO_OPEN = 2,  /* lo itself is refused */
    MT_SF_HI_OPEN = 4,  /* hi itself is refused */
    MT_SF_OPT = 8,      /* the writer leaves it out at its default */
    MT_SF_NAN = 16,     /* NaN accepted (a value computed later) */
    MT_SF_SHORT = 32,   /* VEC: the first half may be given alone (the rest 0) */
    MT_SF_OWN = 64,     /* read and written by the entity's own text code */
    MT_SF_DERIVED = 128, /* given by a body's density or FE model when it has one (then not written, read-only) */
    MT_SF_ROT = 256      /* rotational inertia: a point mass has none (then not written, read-only) */
};

#define MT_SCHEMA_INF 1e308

/* ---- solver settings (docs/model-format.md, "solver") ------------------- */
#define MT_SOLVER_SCHEMA(X)                                                                                          \
    X(method, ENUM, 1, "method", NULL, NONE, 0, 0, 0, 0, mt_method_names, MT_N_("Method"))                           \
    X(step, REAL, 1, "step", NULL, TIME, 1e-3, 0, MT_SCHEMA_INF, MT_SF_EXPR | MT_SF_LO_OPEN, NULL,                   \
      MT_N_("Step (output step of adaptive methods)"))                                                               \
    X(until, REAL, 1, "until", NULL, TIME, 1.0, 0, MT_SCHEMA_INF, MT_SF_EXPR, NULL, MT_N_("End time"))               \
    X(every, INT, 1, "every", NULL, NONE, 1, 1, 2147483647.0, 0, NULL, MT_N_("Write every n-th step"))                        \
    X(rtol, REAL, 1, "rtol", NULL, NONE, 1e-8, 0, 1, MT_SF_EXPR | MT_SF_LO_OPEN | MT_SF_HI_OPEN, NULL,               \
      MT_N_("Relative tolerance"))                                                                                   \
    X(atol, REAL, 1, "atol", NULL, NONE, 1e-10, 0, MT_SCHEMA_INF, MT_SF_EXPR | MT_SF_LO_OPEN, NULL,                  \
      MT_N_("Absolute tolerance"))                                                                                   \
    X(hmax, REAL, 1, "hmax", NULL, TIME, 0, 0, MT_SCHEMA_INF, MT_SF_EXPR | MT_SF_OPT, NULL,                          \
      MT_N_("Longest step of adaptive methods (0: the output step)"))                                               \
    X(stab_period, REAL, 1, "ts", NULL, TIME, 0.1, -MT_SCHEMA_INF, MT_SCHEMA_INF, MT_SF_EXPR, NULL,                  \
      MT_N_("Stabilisation period Ts (0: off)"))                                                                     \
    X(stab_damping, REAL, 1, "xi", NULL, NONE, 1.0, 0, MT_SCHEMA_INF, MT_SF_EXPR, NULL,                              \
      MT_N_("Stabilisation damping ξs"))                                                                             \
    X(hht_alpha, REAL, 1, "alpha", NULL, NONE, -0.05, -1.0 / 3 - 1e-12, 0, MT_SF_EXPR, NULL, MT_N_("HHT α"))         \
    X(rho_inf, REAL, 1, "rho", NULL, NONE, 0.8, 0, 1, MT_SF_EXPR, NULL, MT_N_("Generalised-α ρ∞"))                   \
    X(loops, ENUM, 1, "loops", NULL, NONE, 0, 0, 0, MT_SF_OPT, mt_loop_methods, MT_N_("Closed loops"))              \
    X(loop_freq, REAL, 1, "nu", NULL, ANGVEL, 0, 0, MT_SCHEMA_INF, MT_SF_EXPR | MT_SF_OPT, NULL,                     \
      MT_N_("Loop controller frequency ν (0: default)"))                                                             \
    X(correct, ENUM, 1, "correct", NULL, NONE, 0, 0, 0, 0, mt_correct_names, MT_N_("Projection after each step")) \
    X(start, ENUM, 1, "start", NULL, NONE, 0, 0, 0, MT_SF_OPT, mt_start_names, MT_N_("Start from"))                 \
    X(hold, TEXT, 128, "hold", NULL, NONE, 0, 0, 0, MT_SF_OPT, NULL,                                                \
      MT_N_("Held at rest: BODY.x, BODY.MARKER.y"))

/* ---- rigid bodies (lines of a body block) ------------------------------- */
#define MT_BODY_SCHEMA(X)                                                                                            \
    X(density, REAL, 1, "density", NULL, DENSITY, 0, 0, MT_SCHEMA_INF, MT_SF_EXPR | MT_SF_OPT, NULL, MT_N_("Density")) \
    X(mass, REAL, 1, "mass", NULL, MASS, 1, 0, MT_SCHEMA_INF, MT_SF_EXPR | MT_SF_LO_OPEN | MT_SF_DERIVED, NULL, MT_N_("Mass"))       \
    X(com, VEC, 3, "com", "com_x com_y com_z", LENGTH, 0, -MT_SCHEMA_INF, MT_SCHEMA_INF, MT_SF_EXPR | MT_SF_DERIVED,  \
      mt_xyz_names, MT_N_("CoM"))                                                                                                  \
    X(inertia, VEC, 6, "inertia", "ixx iyy izz ixy ixz iyz", INERTIA, 0, -MT_SCHEMA_INF, MT_SCHEMA_INF,              \
      MT_SF_EXPR | MT_SF_SHORT | MT_SF_DERIVED | MT_SF_ROT, mt_inertia_names, MT_N_("Inertia"))                                                  \
    X(point_mass, FLAG, 1, "point_mass", NULL, NONE, 0, 0, 1, MT_SF_OPT, NULL,                                       \
      MT_N_("Point mass (no rotational inertia)"))                                                                   \
    X(pos, VEC, 3, "position", "x y z", LENGTH, 0, -MT_SCHEMA_INF, MT_SCHEMA_INF, MT_SF_EXPR, mt_xyz_names,          \
      MT_N_("Position"))                                                                                             \
    X(vel, VEC, 3, "velocity", "vx vy vz", VELOCITY, 0, -MT_SCHEMA_INF, MT_SCHEMA_INF, MT_SF_EXPR, mt_xyz_names,     \
      MT_N_("Velocity"))                                                                                             \
    X(omega, VEC, 3, "omega", "wx wy wz", ANGVEL, 0, -MT_SCHEMA_INF, MT_SCHEMA_INF, MT_SF_EXPR, mt_xyz_names,        \
      MT_N_("Ang. velocity"))

/* ---- joints: the parameter of a screw (pitch), distance (length) and
 * rolling joint (radius), written with that keyword by the joint's line --- */
#define MT_JOINT_SCHEMA(X)                                                                                           \
    X(param, REAL, 1, "param", NULL, LENGTH, 0, -MT_SCHEMA_INF, MT_SCHEMA_INF, MT_SF_EXPR | MT_SF_OWN | MT_SF_NAN,    \
      NULL, MT_N_("Parameter"))

/* ---- springs: tension k (L − length) + c dL/dt + preload, or curve(x, v) - */
#define MT_SPRING_SCHEMA(X)                                                                                          \
    X(k, REAL, 1, "k", NULL, STIFFNESS, 0, 0, MT_SCHEMA_INF, MT_SF_EXPR, NULL, MT_N_("Stiffness"))                   \
    X(c, REAL, 1, "c", NULL, DAMPING, 0, 0, MT_SCHEMA_INF, MT_SF_EXPR, NULL, MT_N_("Damping"))                       \
    X(length, REAL, 1, "length", NULL, LENGTH, NAN, 0, MT_SCHEMA_INF, MT_SF_EXPR, NULL, MT_N_("Free length"))          \
    X(preload, REAL, 1, "preload", NULL, FORCE, 0, -MT_SCHEMA_INF, MT_SCHEMA_INF, MT_SF_EXPR, NULL, MT_N_("Preload")) \
    X(curve, TEXT, MT_EXPR_MAX, "curve", NULL, NONE, 0, 0, 0, MT_SF_OPT, NULL,                                       \
      MT_N_("Force law curve(x, v) (empty: linear)"))

/* ---- markers on flexible bodies ----------------------------------------- */
#define MT_MARKER_SCHEMA(X)                                                                                          \
    X(node, INT, 1, "node", NULL, NONE, 0, 0, 2147483647.0, MT_SF_OPT, NULL, MT_N_("Node"))                          \
    X(spider, REAL, 1, "spider", NULL, LENGTH, 0, 0, MT_SCHEMA_INF, MT_SF_OPT, NULL, MT_N_("Spider radius"))

/* ---- flexible bodies (the `flexible` line; bindings index the body) -------
 * Beams: length, elements, section (its words sec.0, sec.1: written by the
 * line's own code after 'section KIND'); material E nu rho (a mesh: where it
 * has none), shell thickness; supports (fix: 'NODES[:DIGITS][; …]', Nastran SPC
 * digits, docs/flexible-bodies.md); the reduction's method and modes; damping:
 * modal zeta, or Rayleigh alpha beta (written as 'rayleigh A B'); the elastic
 * state at t = 0 (initial assembled|rest, MtFlexInitial). */
#define MT_FLEX_SCHEMA(X)                                                                                            \
    X(length, REAL, 1, "length", NULL, LENGTH, 0, 0, MT_SCHEMA_INF, MT_SF_EXPR | MT_SF_OPT, NULL, MT_N_("Length"))   \
    X(elements, INT, 1, "elements", NULL, NONE, 0, 0, 100000, MT_SF_OPT, NULL, MT_N_("Elements"))                   \
    X(sec, VEC, 2, "sec", "section_1 section_2", LENGTH, 0, 0, MT_SCHEMA_INF, MT_SF_EXPR | MT_SF_OWN, mt_xyz_names, \
      MT_N_("Section"))                                                                                              \
    X(E, REAL, 1, "E", "e", PRESSURE, 0, 0, MT_SCHEMA_INF, MT_SF_EXPR | MT_SF_OPT, NULL, MT_N_("Young's modulus"))    \
    X(nu, REAL, 1, "nu", NULL, NONE, 0.3, 0, 0.5, MT_SF_EXPR | MT_SF_HI_OPEN, NULL, MT_N_("Poisson's ratio"))         \
    X(rho, REAL, 1, "rho", NULL, DENSITY, 0, 0, MT_SCHEMA_INF, MT_SF_EXPR | MT_SF_OPT, NULL, MT_N_("Density"))       \
    X(thickness, REAL, 1, "thickness", NULL, LENGTH, 0, 0, MT_SCHEMA_INF, MT_SF_EXPR | MT_SF_OPT, NULL,              \
      MT_N_("Shell thickness"))                                                                                      \
    X(fix, TEXT, 256, "fix", NULL, NONE, 0, 0, 0, MT_SF_OPT, NULL, MT_N_("Supports (NODES:123456; …)"))               \
    X(method, ENUM, 1, "method", NULL, NONE, 1, 0, 0, 0, mt_reduce_names, MT_N_("Reduction"))                         \
    X(modes, REAL, 1, "modes", NULL, NONE, 6, 0, 500, MT_SF_EXPR, NULL, MT_N_("Modes kept"))                         \
    X(zeta, REAL, 1, "zeta", NULL, NONE, 0.01, 0, MT_SCHEMA_INF, MT_SF_EXPR, NULL, MT_N_("Modal damping ratio"))    \
    X(alpha, REAL, 1, "alpha", NULL, NONE, 0, 0, MT_SCHEMA_INF, MT_SF_EXPR | MT_SF_OWN, NULL,                        \
      MT_N_("Rayleigh α (stiffness)"))                                                                              \
    X(beta, REAL, 1, "beta", NULL, NONE, 0, 0, MT_SCHEMA_INF, MT_SF_EXPR | MT_SF_OWN, NULL, MT_N_("Rayleigh β (mass)")) \
    X(stiffening, FLAG, 1, "stiffening", NULL, NONE, 0, 0, 1, MT_SF_OPT, NULL, MT_N_("Geometric stiffening"))       \
    X(initial, ENUM, 1, "initial", NULL, NONE, 0, 0, 0, MT_SF_OPT, mt_flex_initial_names,                            \
      MT_N_("Initial elastic state"))

/* The members a row declares in its entity's struct. */
#define MT_SM_REAL(m, n) double m;
#define MT_SM_VEC(m, n) double m[n];
#define MT_SM_INT(m, n) int m;
#define MT_SM_ENUM(m, n) int m;
#define MT_SM_FLAG(m, n) int m;
#define MT_SM_TEXT(m, n) char m[n];
#define MT_SCHEMA_MEMBER(m, T, n, key, cols, dim, def, lo, hi, flags, values, label) MT_SM_##T(m, n)

/* ---- the rows as data ----------------------------------------------------- */

typedef enum { MT_ST_REAL, MT_ST_VEC, MT_ST_INT, MT_ST_ENUM, MT_ST_FLAG, MT_ST_TEXT } MtSchemaType;

typedef struct {
    const char *key;
    MtSchemaType type;
    int n;          /* components (VEC), bytes (TEXT), else 1 */
    size_t offset;  /* in the entity's struct */
    const char *cols;
    int dim;        /* MtDim */
    double def, lo, hi;
    unsigned flags;
    const char *const *values;
    const char *label; /* untranslated: MT_(label) */
} MtField;

/* Keyword lists rows refer to (mt_schema.c, mt_catalogue.c). */
extern const char *const mt_method_names[];
extern const char *const mt_loop_methods[];
extern const char *const mt_correct_names[];
extern const char *const mt_start_names[];
extern const char *const mt_xyz_names[];
extern const char *const mt_inertia_names[];
extern const char *const mt_reduce_names[]; /* MtReduceMethod order: free, cb, guyan, attach */
extern const char *const mt_flex_initial_names[]; /* MtFlexInitial order: assembled, rest */
/* The keywords of the model's other enumerations, in the order of their
 * values, NULL-terminated (mt_catalogue.c): control kinds, event actions,
 * driver levels and laws, reaction parts, energies, couplings, components. */
extern const char *const mt_control_kind_names[];
extern const char *const mt_action_names[];
extern const char *const mt_level_names[];
extern const char *const mt_law_names[];
extern const char *const mt_part_names[];
extern const char *const mt_energy_names[];
extern const char *const mt_couple_names[];
extern const char *const mt_vector_comp_names[]; /* sensors' components: x y z mag */
extern const char *const mt_load_comp_names[];   /* loads' components: fx … tz, f, t, defl, power, energy */

#endif
