/* mt_store_schema.c — the tables of a Motus project (docs/project-format.md),
 * opening a project safely (recognising foreign, damaged, truncated, newer
 * and read-only files before anything is written), forward migrations of
 * older layouts, recovery of runs whose writer died, check and compaction. Declared in motus/store.h. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "mt_file.h"
#include "mt_i18n.h"
#include "mt_store_internal.h"

/* ---- schema -------------------------------------------------------------
 * Comments inside CREATE statements are kept by SQLite, so `.schema` in the
 * sqlite3 shell shows them. Numeric columns have no declared type on purpose:
 * SQLite then keeps every IEEE double bit for bit (a REAL column stores -0.0
 * as the integer 0, and the text form would change on a round trip). */

#define COORDS "('angle','disp','x','y')"
#define ROT9 "  r11 NOT NULL, r12 NOT NULL, r13 NOT NULL,\n  r21 NOT NULL, r22 NOT NULL, r23 NOT NULL,\n  r31 NOT NULL, r32 NOT NULL, r33 NOT NULL,"

/* Vocabularies that grow with Motus (joint types, solver methods, kinds of
 * shapes, force elements and sensors, entities that bindings refer to) are
 * small tables filled from the program at every opening for writing; the
 * entity tables refer to them, so a name is checked without a CHECK list
 * that would need a migration for every new joint type. */
static const char sql_joint_types[] =
    "CREATE TABLE joint_types ( -- the joint types this program knows (filled when it opens the project)\n"
    "  name      TEXT PRIMARY KEY,\n"
    "  equations INTEGER NOT NULL -- constraint equations a joint of this type adds\n"
    ") WITHOUT ROWID";
static const char sql_solver_methods[] =
    "CREATE TABLE solver_methods ( -- the integration methods this program knows\n"
    "  name TEXT PRIMARY KEY\n"
    ") WITHOUT ROWID";
static const char sql_entity_kinds[] =
    "CREATE TABLE entity_kinds ( -- kinds of entity whose numeric fields may be bound to expressions\n"
    "  name TEXT PRIMARY KEY\n"
    ") WITHOUT ROWID";
static const char sql_shape_kinds[] =
    "CREATE TABLE shape_kinds ( -- the body shapes this program knows\n"
    "  name TEXT PRIMARY KEY\n"
    ") WITHOUT ROWID";
static const char sql_force_kinds[] =
    "CREATE TABLE force_kinds ( -- the force elements this program knows\n"
    "  name       TEXT PRIMARY KEY,\n"
    "  parameters TEXT NOT NULL -- names of its settings (rows of force_parameters)\n"
    ") WITHOUT ROWID";
static const char sql_contact_geometries[] =
    "CREATE TABLE contact_geometries ( -- shapes of contact force elements\n"
    "  name TEXT PRIMARY KEY\n"
    ") WITHOUT ROWID";
static const char sql_sensor_kinds[] =
    "CREATE TABLE sensor_kinds ( -- the sensors this program knows\n"
    "  name TEXT PRIMARY KEY\n"
    ") WITHOUT ROWID";

static const char sql_project[] =
    "CREATE TABLE project ( -- the project as a whole: exactly one row (id = 1). All quantities are SI\n"
    "  -- (m, kg, s, rad, N); numbers are IEEE doubles, columns without a type keep them bit for bit\n"
    "  id            INTEGER PRIMARY KEY CHECK (id = 1),\n"
    "  title         TEXT NOT NULL DEFAULT '',\n"
    "  gravity_x     NOT NULL DEFAULT 0, -- gravitational acceleration in project axes, m/s²\n"
    "  gravity_y     NOT NULL DEFAULT 0,\n"
    "  gravity_z     NOT NULL DEFAULT 0,\n"
    "  model_version INTEGER NOT NULL DEFAULT 0 CHECK (model_version >= 0), -- +1 at every save of the model\n"
    "  created       TEXT NOT NULL,      -- UTC, ISO 8601\n"
    "  saved         TEXT,               -- UTC of the last save of the model\n"
    "  saved_by      TEXT                -- program that saved it last\n"
    ")";

/* Solver settings. Versions 1 and 2 end with rho; version 3 adds loops and nu
 * (new tables have them last, as ALTER TABLE … ADD COLUMN puts them). */
#define SOLVER_COLUMNS_V2                                                                                                \
    "CREATE TABLE solver ( -- solver settings of the model: exactly one row (id = 1); names as in the text format\n"     \
    "  id      INTEGER PRIMARY KEY CHECK (id = 1),\n"                                                                    \
    "  method  TEXT NOT NULL REFERENCES solver_methods(name),\n"                                                         \
    "  step    NOT NULL CHECK (step > 0),      -- s: the step of fixed-step methods, the output interval of adaptive ones\n" \
    "  until   NOT NULL CHECK (until >= 0),    -- end time, s\n"                                                         \
    "  every   INTEGER NOT NULL CHECK (every >= 1), -- output every N-th step or interval\n"                             \
    "  rtol    NOT NULL CHECK (rtol > 0 AND rtol < 1), -- relative tolerance of adaptive methods\n"                      \
    "  atol    NOT NULL CHECK (atol > 0),      -- absolute tolerance\n"                                                  \
    "  ts      NOT NULL,                       -- Baumgarte stabilisation period, s (<= 0: off)\n"                       \
    "  xi      NOT NULL CHECK (xi >= 0),       -- Baumgarte damping ratio\n"                                             \
    "  correct TEXT NOT NULL CHECK (correct IN ('none','positions','velocities','both')), -- projection after each step\n" \
    "  alpha   NOT NULL CHECK (alpha >= -0.33333333334 AND alpha <= 0), -- HHT-alpha\n"
#define SOLVER_RHO "  rho     NOT NULL CHECK (rho >= 0 AND rho <= 1)"
#define SOLVER_LOOPS "TEXT NOT NULL DEFAULT 'baumgarte' CHECK (loops IN ('baumgarte','lagrange','penalty','mlf'))"
#define SOLVER_NU "NOT NULL DEFAULT 0 CHECK (nu >= 0)"
static const char sql_solver_v2[] = SOLVER_COLUMNS_V2 SOLVER_RHO " -- generalised-alpha: spectral radius at infinite frequency\n)";
static const char sql_solver[] = SOLVER_COLUMNS_V2 SOLVER_RHO ", -- generalised-alpha: spectral radius at infinite frequency\n"
    "  loops   " SOLVER_LOOPS ", -- how closed loops are kept closed:\n"
    "          -- Lagrange multipliers with Baumgarte stabilisation or without, stiff penalty spring-dampers,\n"
    "          -- or the modified Lagrange function (an augmented Lagrangian with integral feedback)\n"
    "  nu      " SOLVER_NU " -- penalty and mlf: controller circular frequency, rad/s (0: the program's default)\n"
    ")";

#define BODIES_HEAD                                                                                                      \
    "CREATE TABLE bodies ( -- rigid bodies; row 0 is the ground (name 'ground', mass 0, at the project origin)\n" \
    "  id      INTEGER PRIMARY KEY CHECK (id >= 0),\n" \
    "  name    TEXT NOT NULL UNIQUE CHECK ((id = 0) = (name = 'ground')),\n" \
    "  mass    NOT NULL CHECK (id = 0 OR mass > 0), -- kg\n" \
    "  density NOT NULL DEFAULT 0 CHECK (density >= 0), -- kg/m³; > 0: mass, com and inertia follow from the solid shapes\n" \
    "  com_x NOT NULL, com_y NOT NULL, com_z NOT NULL, -- centre of mass in body axes, m\n" \
    "  ixx NOT NULL CHECK (id = 0 OR ixx > 0), iyy NOT NULL CHECK (id = 0 OR iyy > 0), izz NOT NULL CHECK (id = 0 OR izz > 0),\n" \
    "  ixy NOT NULL, ixz NOT NULL, iyz NOT NULL, -- inertia about the centre of mass in body axes, kg·m²\n" \
    "  x NOT NULL, y NOT NULL, z NOT NULL, -- body frame origin in project axes, m\n" \
    "  -- body axes in project axes: the columns of this rotation matrix (r<row><column>)\n" ROT9 "\n" \
    "  vx NOT NULL, vy NOT NULL, vz NOT NULL, -- initial velocity of the frame origin, project axes, m/s\n"
/* Version 7: bodies, markers and shapes keep an orientation typed with expressions. */
#define SQL_ORIENT                                                                                                      \
    "orientation TEXT /* the orientation as typed when expressions of parameters give it: its form and words, "     \
    "bound words at their last values ('axis 0 0 1 0.5'; their expressions are bindings orient.0 …); NULL: the "    \
    "rotation alone */"
static const char sql_bodies_v6[] = BODIES_HEAD "  wx NOT NULL, wy NOT NULL, wz NOT NULL  -- initial angular velocity, project axes, rad/s\n)";
static const char sql_bodies[] =
    BODIES_HEAD "  wx NOT NULL, wy NOT NULL, wz NOT NULL, -- initial angular velocity, project axes, rad/s\n  " SQL_ORIENT "\n)";

#define MARKERS_HEAD                                                                                           \
    "CREATE TABLE markers ( -- frames fixed on a body or on the ground; joints, drivers and springs attach to them\n" \
    "  id      INTEGER PRIMARY KEY,\n"                                                                             \
    "  body_id INTEGER NOT NULL REFERENCES bodies(id),\n"                                                          \
    "  name    TEXT NOT NULL, -- unique on its body; referred to as body.marker\n"                                 \
    "  x NOT NULL, y NOT NULL, z NOT NULL, -- origin in body axes, m\n"                                           \
    "  -- marker axes in body axes: the columns of this rotation matrix\n" ROT9 "\n"
static const char sql_markers_v3[] = MARKERS_HEAD "  UNIQUE (body_id, name)\n)";
#define MARKERS_V6 MARKERS_HEAD \
    "  node    INTEGER NOT NULL DEFAULT 0 CHECK (node >= 0), -- flexible body: the node it rides on (0: the node at its origin)\n" \
    "  spider  NOT NULL DEFAULT 0 CHECK (spider >= 0),       -- flexible body: radius of a rigid spider to the nodes around it, m\n"
#define MARKERS_V6_END "  UNIQUE (body_id, name)\n)"
static const char sql_markers_v6[] = MARKERS_V6 MARKERS_V6_END;
static const char sql_markers[] = MARKERS_V6 "  " SQL_ORIENT ",\n" MARKERS_V6_END;

#define SHAPES_HEAD \
    "CREATE TABLE shapes ( -- visual geometry of bodies; solid shapes also give mass properties to bodies with a density\n" \
    "  id      INTEGER PRIMARY KEY,\n" \
    "  body_id INTEGER NOT NULL REFERENCES bodies(id),\n" \
    "  kind    TEXT NOT NULL REFERENCES shape_kinds(name),\n" \
    "  size_1 NOT NULL, size_2 NOT NULL, size_3 NOT NULL, -- box: lx ly lz; cylinder, capsule: radius, length;\n" \
    "                                                   -- sphere, bar: radius; mesh: scale (m)\n" \
    "  x NOT NULL, y NOT NULL, z NOT NULL, -- shape frame origin in body axes (bar: first end), m\n" \
    "  -- shape axes in body axes\n" ROT9 "\n" \
    "  end_x NOT NULL, end_y NOT NULL, end_z NOT NULL, -- bar: second end in body axes, m\n" \
    "  red NOT NULL, green NOT NULL, blue NOT NULL, -- colour, 0..1 each (all 0: automatic)\n" \
    "  mesh    TEXT NOT NULL DEFAULT ''"
#define SHAPES_MESH_COMMENT " -- mesh: STL or OBJ file, relative to the project file\n"
static const char sql_shapes_v6[] = SHAPES_HEAD SHAPES_MESH_COMMENT ")";
static const char sql_shapes[] = SHAPES_HEAD "," SHAPES_MESH_COMMENT "  " SQL_ORIENT "\n)";

static const char sql_joints[] =
    "CREATE TABLE joints ( -- joints between marker i (on the moving body) and marker j (on the base body)\n"
    "  id       INTEGER PRIMARY KEY,\n"
    "  name     TEXT NOT NULL UNIQUE, -- joints, drivers, springs and couplings share one namespace\n"
    "  type     TEXT NOT NULL REFERENCES joint_types(name),\n"
    "  marker_i INTEGER NOT NULL REFERENCES markers(id),\n"
    "  marker_j INTEGER NOT NULL REFERENCES markers(id),\n"
    "  param    NOT NULL DEFAULT 0, -- screw: pitch, m per turn; distance: length, m; rolling: radius, m; else 0\n"
    "  CHECK (marker_i <> marker_j)\n"
    ")";

/* Version 9 had no drivers given by an expression (law 'expr', column expr). */
#define DRIVER_EXPR "  expr      TEXT NOT NULL DEFAULT '' CHECK ((law = 'expr') = (expr <> '')), -- expr: f(t) of time t and parameters\n"
#define SQL_DRIVERS(table, laws, expr_column) \
    "CREATE TABLE " table " ( -- prescribed motion of a joint coordinate, or of marker i relative to marker j\n" \
    "  id        INTEGER PRIMARY KEY,\n" \
    "  name      TEXT NOT NULL UNIQUE,\n" \
    "  joint_id  INTEGER REFERENCES joints(id),  -- joint driver: the joint and its coordinate\n" \
    "  coord     TEXT CHECK (coord IN " COORDS "),\n" \
    "  marker_i  INTEGER REFERENCES markers(id), -- marker driver: the markers and the component of i relative to j\n" \
    "  marker_j  INTEGER REFERENCES markers(id),\n" \
    "  component TEXT CHECK (component IN ('x','y','z','ax','ay','az')),\n" \
    "  level     TEXT NOT NULL CHECK (level IN ('disp','vel','acc')), -- the law gives the coordinate, its rate or its 2nd derivative\n" \
    "  law       TEXT NOT NULL CHECK (law IN " laws "),\n" \
    "  ncoef     INTEGER NOT NULL CHECK (ncoef BETWEEN 1 AND 8), -- coefficients c0 … c(ncoef-1) in use\n" \
    "  -- poly: sum of c_k t^k; rate: c0 + c1 t; harmonic: c0 sin(c1 t + c2) + c3;\n" \
    "  -- step: from c1 at t = c0 to c3 at t = c2; table: the points in driver_points; expr: the column expr\n" \
    expr_column \
    "  c0, c1, c2, c3, c4, c5, c6, c7,\n" \
    "  CHECK ((joint_id IS NOT NULL AND coord IS NOT NULL AND marker_i IS NULL AND marker_j IS NULL AND component IS NULL) OR\n" \
    "         (joint_id IS NULL AND coord IS NULL AND marker_i IS NOT NULL AND marker_j IS NOT NULL AND component IS NOT NULL))\n" \
    ")"
#define LAWS_V9 "('poly','rate','harmonic','step','table')"
static const char sql_drivers_v9[] = SQL_DRIVERS("drivers", LAWS_V9, "");
static const char sql_drivers[] = SQL_DRIVERS("drivers", "('poly','rate','harmonic','step','table','expr')", DRIVER_EXPR);

static const char sql_driver_points[] =
    "CREATE TABLE driver_points ( -- points (t, value) of table drivers; a natural cubic spline passes through them\n"
    "  driver_id INTEGER NOT NULL REFERENCES drivers(id) ON DELETE CASCADE,\n"
    "  k         INTEGER NOT NULL CHECK (k >= 0), -- 0, 1, 2 … in order of increasing t\n"
    "  t         NOT NULL, -- s\n"
    "  value     NOT NULL, -- rad or m (or their rates)\n"
    "  PRIMARY KEY (driver_id, k)\n"
    ")";

static const char sql_couplings[] =
    "CREATE TABLE couplings ( -- gears, racks and couplers: coef_1 x_1 + coef_2 x_2 [+ coef_3 x_3] = const\n"
    "  id      INTEGER PRIMARY KEY,\n"
    "  name    TEXT NOT NULL UNIQUE,\n"
    "  kind    TEXT NOT NULL CHECK (kind IN ('gear','rack','coupler')), -- gear: coef = pitch radii, m (coef_2 < 0: internal);\n"
    "                                                                -- rack: coef_1 = pinion radius, coef_2 = -1\n"
    "  joint_1 INTEGER NOT NULL REFERENCES joints(id), coord_1 TEXT NOT NULL CHECK (coord_1 IN " COORDS "), coef_1 NOT NULL,\n"
    "  joint_2 INTEGER NOT NULL REFERENCES joints(id), coord_2 TEXT NOT NULL CHECK (coord_2 IN " COORDS "), coef_2 NOT NULL,\n"
    "  joint_3 INTEGER REFERENCES joints(id), coord_3 TEXT CHECK (coord_3 IN " COORDS "), coef_3, -- couplers of three joints\n"
    "  CHECK ((joint_3 IS NULL) = (coord_3 IS NULL) AND (joint_3 IS NULL) = (coef_3 IS NULL))\n"
    ")";

static const char sql_springs[] =
    "CREATE TABLE springs ( -- spring-dampers between marker origins: tension = k (L - length) + c dL/dt + preload\n"
    "  id       INTEGER PRIMARY KEY,\n"
    "  name     TEXT NOT NULL UNIQUE,\n"
    "  marker_i INTEGER NOT NULL REFERENCES markers(id),\n"
    "  marker_j INTEGER NOT NULL REFERENCES markers(id),\n"
    "  k        NOT NULL CHECK (k >= 0),      -- N/m\n"
    "  c        NOT NULL CHECK (c >= 0),      -- N·s/m\n"
    "  length   NOT NULL CHECK (length >= 0), -- free length, m\n"
    "  preload  NOT NULL,                     -- N\n"
    "  curve    TEXT NOT NULL DEFAULT ''      -- tension as an expression of extension x and rate v ('' = the linear law)\n"
    ")";

/* Version 1 had springs without curves. */
static const char sql_springs_v1[] =
    "CREATE TABLE springs ( -- spring-dampers between marker origins: tension = k (L - length) + c dL/dt + preload\n"
    "  id       INTEGER PRIMARY KEY,\n"
    "  name     TEXT NOT NULL UNIQUE,\n"
    "  marker_i INTEGER NOT NULL REFERENCES markers(id),\n"
    "  marker_j INTEGER NOT NULL REFERENCES markers(id),\n"
    "  k        NOT NULL CHECK (k >= 0),      -- N/m\n"
    "  c        NOT NULL CHECK (c >= 0),      -- N·s/m\n"
    "  length   NOT NULL CHECK (length >= 0), -- free length, m\n"
    "  preload  NOT NULL                      -- N\n"
    ")";

static const char sql_forces[] =
    "CREATE TABLE forces ( -- force elements between marker i (whose body receives the reported force) and marker j, or in a joint\n"
    "  id       INTEGER PRIMARY KEY,\n"
    "  name     TEXT NOT NULL UNIQUE,\n"
    "  kind     TEXT NOT NULL REFERENCES force_kinds(name),\n"
    "  marker_i INTEGER REFERENCES markers(id),\n"
    "  marker_j INTEGER REFERENCES markers(id), -- NULL for drag and for the joint elements\n"
    "  joint_id INTEGER REFERENCES joints(id),  -- torsion and friction act in a joint\n"
    "  geometry TEXT NOT NULL REFERENCES contact_geometries(name),\n"
    "                                           -- contact: shape of marker i against marker j\n"
    "  fx TEXT NOT NULL DEFAULT '', fy TEXT NOT NULL DEFAULT '', fz TEXT NOT NULL DEFAULT '', -- actuator: force and torque\n"
    "  tx TEXT NOT NULL DEFAULT '', ty TEXT NOT NULL DEFAULT '', tz TEXT NOT NULL DEFAULT ''  -- expressions, marker j axes ('' = 0)\n"
    ")";

static const char sql_force_params[] =
    "CREATE TABLE force_parameters ( -- numeric settings of force elements, named as in the text format\n"
    "  force_id INTEGER NOT NULL REFERENCES forces(id) ON DELETE CASCADE,\n"
    "  name     TEXT NOT NULL, -- 'k', 'c', 'mu', 'radius', 'stroke' … (which ones depends on the kind)\n"
    "  value,                  -- SI; NULL: the kind's default\n"
    "  PRIMARY KEY (force_id, name)\n"
    ")";

/* Sensors up to version 3 (no load sensors, no elastic energy). */
static const char sql_sensors_v3[] =
    "CREATE TABLE sensors ( -- named result channels computed from a solved state; a sensor added after a run is\n"
    "  -- computed from the run's stored frames\n"
    "  id           INTEGER PRIMARY KEY,\n"
    "  name         TEXT NOT NULL UNIQUE,\n"
    "  kind         TEXT NOT NULL REFERENCES sensor_kinds(name),\n"
    "  marker_i     INTEGER REFERENCES markers(id), -- the point (or body) measured\n"
    "  marker_j     INTEGER REFERENCES markers(id), -- relative to this marker (NULL: the project frame)\n"
    "  frame_marker INTEGER REFERENCES markers(id), -- axes the vector is given in (NULL: project axes)\n"
    "  component    INTEGER NOT NULL CHECK (component BETWEEN 0 AND 7), -- 0 x, 1 y, 2 z, 3 magnitude;\n"
    "                                               -- reaction: 0..5 fx fy fz tx ty tz, 6 |F|, 7 |T|\n"
    "  joint_id     INTEGER REFERENCES joints(id),  -- reaction: the joint\n"
    "  part         TEXT NOT NULL CHECK (part IN ('total','constraint','friction','driver')), -- reaction\n"
    "  body_id      INTEGER REFERENCES bodies(id),  -- energy: the body (NULL: the whole system)\n"
    "  energy       TEXT NOT NULL CHECK (energy IN ('kinetic','potential','total')), -- energy\n"
    "  unit         TEXT NOT NULL DEFAULT '',       -- display unit ('' = SI)\n"
    "  expr         TEXT NOT NULL DEFAULT ''        -- expr: an expression of parameters, time and other channels\n"
    ")";

/* Sensors since version 4: load sensors of force elements and springs, and
 * elastic energies, angles and joint coordinates. Version 4 rebuilds the
 * table (its CHECKs changed). */
#define SQL_SENSORS(table)                                                                                              \
    "CREATE TABLE " table " ( -- named result channels computed from a solved state; a sensor added after a run is\n"   \
    "  -- computed from the run's stored frames\n"                                                                       \
    "  id           INTEGER PRIMARY KEY,\n"                                                                               \
    "  name         TEXT NOT NULL UNIQUE,\n"                                                                              \
    "  kind         TEXT NOT NULL REFERENCES sensor_kinds(name),\n"                                                       \
    "  marker_i     INTEGER REFERENCES markers(id), -- the point (or body) measured\n"                                   \
    "  marker_j     INTEGER REFERENCES markers(id), -- relative to this marker (NULL: the project frame)\n"              \
    "  frame_marker INTEGER REFERENCES markers(id), -- axes the vector is given in (NULL: project axes)\n"                \
    "  component    INTEGER NOT NULL CHECK (component BETWEEN 0 AND 10), -- 0 x, 1 y, 2 z, 3 magnitude;\n"              \
    "                                               -- reaction and force: 0..5 fx fy fz tx ty tz, 6 |F|, 7 |T|;\n"        \
    "                                               -- force: 8 deflection, 9 power, 10 elastic energy;\n"               \
    "                                               -- angle: about x, y, z of marker_j, 3 the whole angle;\n"           \
    "                                               -- joint: 0 the coordinate, 1 its rate\n"                            \
    "  joint_id     INTEGER REFERENCES joints(id),  -- reaction, joint: the joint\n"                                     \
    "  part         TEXT NOT NULL CHECK (part IN ('total','constraint','friction','driver')), -- reaction\n"             \
    "  body_id      INTEGER REFERENCES bodies(id),  -- energy: the body (NULL: the whole system)\n"                      \
    "  energy       TEXT NOT NULL CHECK (energy IN ('kinetic','potential','total','elastic')), -- energy\n"              \
    "  unit         TEXT NOT NULL DEFAULT '',       -- display unit ('' = SI)\n"                                         \
    "  expr         TEXT NOT NULL DEFAULT '',       -- expr: an expression of parameters, time and other channels\n"     \
    "  force_id     INTEGER REFERENCES forces(id),  -- force: the force element, or\n"                                  \
    "  spring_id    INTEGER REFERENCES springs(id), -- the spring\n"                                                     \
    "  coord        TEXT CHECK (coord IN " COORDS "), -- joint: the coordinate\n"                                        \
    "  CHECK ((kind = 'force') = ((force_id IS NOT NULL) + (spring_id IS NOT NULL) = 1)),\n"                            \
    "  CHECK ((kind = 'joint') = (coord IS NOT NULL AND joint_id IS NOT NULL))\n"                                       \
    ")"
static const char sql_sensors[] = SQL_SENSORS("sensors");

/* Named tables of expressions (version 4). */
static const char sql_lookup_tables[] =
    "CREATE TABLE lookup_tables ( -- named tables of points (x, y) that expressions read: table(x, NAME)\n"
    "  -- interpolates linearly, spline(x, NAME) along the natural cubic spline (docs/expressions.md)\n"
    "  id   INTEGER PRIMARY KEY,\n"
    "  name TEXT NOT NULL UNIQUE\n"
    ")";
static const char sql_lookup_points[] =
    "CREATE TABLE lookup_table_points ( -- the points of the named tables\n"
    "  table_id INTEGER NOT NULL REFERENCES lookup_tables(id) ON DELETE CASCADE,\n"
    "  k        INTEGER NOT NULL CHECK (k >= 0), -- 0, 1, 2 … in order of increasing x\n"
    "  x        NOT NULL,\n"
    "  y        NOT NULL,\n"
    "  PRIMARY KEY (table_id, k)\n"
    ")";

/* Control channels (version 3). The settings are columns named as in the text
 * format; those of the other kinds are NULL (a CHECK says which are set). */
static const char sql_controls[] =
    "CREATE TABLE controls ( -- control channels: blocks whose states are integrated with the mechanics; the output is a\n"
    "  -- channel named like the control that expressions (actuator forces, sensors, events, later controls) read\n"
    "  id       INTEGER PRIMARY KEY,\n"
    "  name     TEXT NOT NULL UNIQUE, -- also different from every parameter and sensor (checked when loaded)\n"
    "  kind     TEXT NOT NULL CHECK (kind IN ('pid','lag','second')),\n"
    "           -- pid:    u = kp e + ki (integral of e) + kd (derivative of e, filtered with time constant tf),\n"
    "           --         e = setpoint - input\n"
    "           -- lag:    tau dy/dt + y = k input\n"
    "           -- second: d2y/dt2 + 2 zeta wn dy/dt + wn^2 y = k wn^2 input\n"
    "  input    TEXT NOT NULL,            -- expression of parameters, time, kinematic channels and earlier controls\n"
    "  setpoint TEXT NOT NULL DEFAULT '', -- pid: expression the input should follow ('' = 0)\n"
    "  kp,                       -- pid: proportional gain (output per unit of error)\n"
    "  ki,                       -- pid: integral gain, per s\n"
    "  kd,                       -- pid: derivative gain, s\n"
    "  tf   CHECK (tf > 0),      -- pid: time constant of the derivative filter, s\n"
    "  k,                        -- lag, second: static gain\n"
    "  tau  CHECK (tau > 0),     -- lag: time constant, s\n"
    "  wn   CHECK (wn > 0),      -- second: natural circular frequency, rad/s\n"
    "  zeta CHECK (zeta >= 0),   -- second: damping ratio\n"
    "  lo,                       -- lower limit of the output (pid: with anti-windup); NULL: none\n"
    "  hi,                       -- upper limit of the output; NULL: none\n"
    "  disabled INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)), -- 1: output held at 0 (an event may enable it)\n"
    "  CHECK (lo < hi),\n"
    "  CHECK (CASE kind\n"
    "         WHEN 'pid' THEN kp IS NOT NULL AND ki IS NOT NULL AND kd IS NOT NULL AND tf IS NOT NULL\n"
    "                         AND k IS NULL AND tau IS NULL AND wn IS NULL AND zeta IS NULL\n"
    "         WHEN 'lag' THEN k IS NOT NULL AND tau IS NOT NULL\n"
    "                         AND kp IS NULL AND ki IS NULL AND kd IS NULL AND tf IS NULL AND wn IS NULL AND zeta IS NULL\n"
    "         ELSE k IS NOT NULL AND wn IS NOT NULL AND zeta IS NOT NULL\n"
    "              AND kp IS NULL AND ki IS NULL AND kd IS NULL AND tf IS NULL AND tau IS NULL END)\n"
    ")";

/* Events (version 3): the target is one of five references, by kind. */
static const char sql_events[] =
    "CREATE TABLE events ( -- events: at a time, or when an expression crosses a value (located to 1e-9 s), an action\n"
    "  -- on the run or on one element of the model\n"
    "  id         INTEGER PRIMARY KEY,\n"
    "  name       TEXT NOT NULL UNIQUE,\n"
    "  kind       TEXT NOT NULL CHECK (kind IN ('at','crosses')), -- at a time, or when expr crosses value\n"
    "  time       CHECK (time >= 0), -- at: simulated time, s; NULL for crosses\n"
    "  expr       TEXT,              -- crosses: expression of parameters, time, kinematic channels and controls\n"
    "  value,                        -- crosses: the value expr crosses\n"
    "  direction  TEXT CHECK (direction IN ('rising','falling','either')), -- crosses: upwards, downwards or both\n"
    "  action     TEXT NOT NULL CHECK (action IN ('stop','break','lock','enable','disable')),\n"
    "             -- stop the run; break a joint (release it) or lock it (hold its coordinate);\n"
    "             -- enable or disable a force element, spring, driver or control channel\n"
    "  joint_id   INTEGER REFERENCES joints(id),   -- the target: break and lock take a joint, enable and disable\n"
    "  force_id   INTEGER REFERENCES forces(id),   -- one of the others, stop none\n"
    "  spring_id  INTEGER REFERENCES springs(id),\n"
    "  driver_id  INTEGER REFERENCES drivers(id),\n"
    "  control_id INTEGER REFERENCES controls(id),\n"
    "  CHECK (CASE kind WHEN 'at' THEN time IS NOT NULL AND expr IS NULL AND value IS NULL AND direction IS NULL\n"
    "                   ELSE time IS NULL AND expr IS NOT NULL AND value IS NOT NULL AND direction IS NOT NULL END),\n"
    "  CHECK ((joint_id IS NOT NULL) + (force_id IS NOT NULL) + (spring_id IS NOT NULL) + (driver_id IS NOT NULL)\n"
    "         + (control_id IS NOT NULL) = (action <> 'stop')),\n"
    "  CHECK ((action IN ('break','lock')) = (joint_id IS NOT NULL))\n"
    ")";

static const char sql_initial[] =
    "CREATE TABLE initial_conditions ( -- joint coordinates held during the initial assembly\n"
    "  id       INTEGER PRIMARY KEY,\n"
    "  joint_id INTEGER NOT NULL REFERENCES joints(id),\n"
    "  coord    TEXT NOT NULL CHECK (coord IN " COORDS "),\n"
    "  value,   -- rad or m; NULL: the value is not held\n"
    "  rate,    -- rad/s or m/s; NULL: the rate is not held\n"
    "  UNIQUE (joint_id, coord)\n"
    ")";

static const char sql_flexible_initial[] =
    "CREATE TABLE flexible_initial_conditions ( -- modal coordinates of flexible bodies held during the initial assembly\n"
    "  id      INTEGER PRIMARY KEY, -- numbered together with initial_conditions (bindings of kind 'initial' name either)\n"
    "  body_id INTEGER NOT NULL REFERENCES bodies(id) ON DELETE CASCADE,\n"
    "  mode    INTEGER NOT NULL CHECK (mode >= 1), -- K of BODY.wK\n"
    "  value,  -- the modal coordinate; NULL: the value is not held\n"
    "  rate,   -- its rate, 1/s; NULL: the rate is not held\n"
    "  UNIQUE (body_id, mode)\n"
    ")";

static const char sql_parameters[] =
    "CREATE TABLE parameters ( -- named design variables; numeric fields may be bound to expressions of them (bindings)\n"
    "  id    INTEGER PRIMARY KEY,\n"
    "  name  TEXT NOT NULL UNIQUE,\n"
    "  expr  TEXT NOT NULL,          -- as typed: a number or an expression of other parameters (docs/expressions.md)\n"
    "  value,                        -- SI value at the last save (recomputed from expr when loaded)\n"
    "  unit  TEXT NOT NULL DEFAULT '' -- unit the value is typed in ('' = SI)\n"
    ")";

static const char sql_bindings[] =
    "CREATE TABLE bindings ( -- numeric fields whose value is an expression of parameters\n"
    "  id          INTEGER PRIMARY KEY,\n"
    "  entity_kind TEXT NOT NULL REFERENCES entity_kinds(name),\n"
    "  entity_id   INTEGER NOT NULL, -- id in bodies, markers, joints, drivers, springs, couplings,\n"
    "                                -- initial_conditions or forces; 0 for gravity and solver\n"
    "  field       TEXT NOT NULL,    -- 'mass', 'com.0', 'at.2', 'coef.1', 'k', 'step' … (docs/expressions.md)\n"
    "  expr        TEXT NOT NULL,\n"
    "  UNIQUE (entity_kind, entity_id, field)\n"
    ")";

static const char sql_display_units[] =
    "CREATE TABLE display_units ( -- the unit each quantity is shown and typed in (values are stored in SI)\n"
    "  id       INTEGER PRIMARY KEY,\n"
    "  quantity TEXT NOT NULL UNIQUE, -- 'length', 'angle', 'force' … (include/motus/units.h)\n"
    "  unit     TEXT NOT NULL         -- 'mm', 'deg', 'kN' …\n"
    ")";

static const char sql_plots[] =
    "CREATE TABLE plots ( -- saved plot layouts\n"
    "  id     INTEGER PRIMARY KEY,\n"
    "  name   TEXT NOT NULL UNIQUE CHECK (name <> ''),\n"
    "  layout TEXT NOT NULL, -- curves, axes and ranges as JSON text (written and read by the application)\n"
    "  saved  TEXT NOT NULL  -- UTC\n"
    ")";

static const char sql_flexible_v1[] =
    "CREATE TABLE flexible_bodies ( -- flexible bodies (floating frame of reference, docs/design.md §4); reserved: the\n"
    "  -- flexible-body import fills it. Matrices are little-endian doubles, column after column\n"
    "  id               INTEGER PRIMARY KEY,\n"
    "  name             TEXT NOT NULL UNIQUE,\n"
    "  body_name        TEXT NOT NULL,            -- the body whose frame it moves with\n"
    "  source           TEXT NOT NULL DEFAULT '', -- file the mesh came from\n"
    "  nnode            INTEGER NOT NULL DEFAULT 0 CHECK (nnode >= 0),\n"
    "  nmode            INTEGER NOT NULL DEFAULT 0 CHECK (nmode >= 0),\n"
    "  mesh             BLOB, -- nodes and elements\n"
    "  mode_shapes      BLOB, -- reduced basis: 6·nnode × nmode\n"
    "  mass_matrix      BLOB, -- reduced mass matrix: nmode × nmode\n"
    "  stiffness_matrix BLOB, -- reduced stiffness matrix: nmode × nmode\n"
    "  damping          BLOB  -- modal damping ratios: nmode\n"
    ")";

/* Version 4: a flexible body is a body with this row (docs/flexible-bodies.md);
 * version 5 added the last column (ALTER TABLE puts it last as well). */
#define SQL_FLEXIBLE_V4_COLUMNS \
    "CREATE TABLE flexible_bodies ( -- flexible bodies (floating frame of reference, docs/design.md §4): the body's\n" \
    "  -- finite-element model and its reduction; the body's mass properties follow from it\n" \
    "  body_id   INTEGER PRIMARY KEY REFERENCES bodies(id) ON DELETE CASCADE CHECK (body_id > 0),\n" \
    "  source    TEXT NOT NULL CHECK (source IN ('beam','mesh')),\n" \
    "  file      TEXT NOT NULL DEFAULT '', -- mesh: .msh, .inp or .bdf file, relative to the project file\n" \
    "  length    NOT NULL DEFAULT 0,       -- beam along the body's x axis from its origin: length, m\n" \
    "  elements  INTEGER NOT NULL DEFAULT 0 CHECK (elements >= 0), -- beam: number of elements\n" \
    "  section   TEXT NOT NULL DEFAULT 'rect' CHECK (section IN ('rect','circle','tube')),\n" \
    "  section_1 NOT NULL DEFAULT 0, section_2 NOT NULL DEFAULT 0, -- beam section: rect b h, circle d, tube D d (m)\n" \
    "  e NOT NULL DEFAULT 0, nu NOT NULL DEFAULT 0.3, rho NOT NULL DEFAULT 0, -- material: Pa, -, kg/m³\n" \
    "  thickness NOT NULL DEFAULT 0,       -- mesh: shell thickness where the mesh has none, m\n" \
    "  method    TEXT NOT NULL CHECK (method IN ('free','cb','guyan','attach')), -- reduction\n" \
    "  modes     INTEGER NOT NULL CHECK (modes >= 0), -- modes kept (cb: fixed-interface modes)\n" \
    "  zeta      NOT NULL CHECK (zeta >= 0), -- modal damping ratio\n" \
    "  alpha NOT NULL DEFAULT 0, beta NOT NULL DEFAULT 0, -- Rayleigh damping (used when either is > 0)\n" \
    "  reduced   BLOB, -- the reduced body (modes at the interface, reduced matrices, inertia invariants,\n" \
    "                  -- outer surface with modal displacements and stresses): core/flex's binary form\n" \
    "                  -- ('MTFLEX', little-endian); NULL: reduce again when the project is opened\n" \
    "  marker_nodes TEXT NOT NULL DEFAULT '' /* node label each marker of the body rode on: 'name=label …' */"
#define SQL_STIFFENING "stiffening INTEGER NOT NULL DEFAULT 0 CHECK (stiffening IN (0, 1)) /* 1: geometric stiffening (centrifugal and gravity pre-stress) */"
static const char sql_flexible_v4[] = SQL_FLEXIBLE_V4_COLUMNS "\n)";
static const char sql_flexible[] = SQL_FLEXIBLE_V4_COLUMNS ",\n  " SQL_STIFFENING "\n)";

/* The run's solver settings repeat the columns of the solver table. */
#define RUN_HEAD(table)                                                                                         \
    "CREATE TABLE " table " ( -- simulation runs; frames in run_frames, messages in run_log\n"                 \
    "  id            INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: run 3 stays run 3\n"                 \
    "  status        TEXT NOT NULL CHECK (status IN ('running','finished','failed','interrupted')),\n"       \
    "  message       TEXT NOT NULL DEFAULT '',        -- why it failed or was interrupted\n"                  \
    "  model_version INTEGER NOT NULL,                -- project.model_version it was computed from\n"         \
    "  model_text    TEXT NOT NULL,                   -- that model in canonical text form, solver as used\n"  \
    "  method  TEXT NOT NULL REFERENCES solver_methods(name),\n"                                              \
    "  step NOT NULL, until NOT NULL, every INTEGER NOT NULL, rtol NOT NULL, atol NOT NULL, -- solver settings\n" \
    "  ts NOT NULL, xi NOT NULL, correct TEXT NOT NULL, alpha NOT NULL, rho NOT NULL,     -- (as in solver)\n" \
    "  started       TEXT NOT NULL,                   -- UTC, ISO 8601\n"                                     \
    "  ended         TEXT,                            -- UTC; NULL while running or when interrupted\n"       \
    "  nbody         INTEGER NOT NULL CHECK (nbody >= 0),\n"                                                \
    "  nrow          INTEGER NOT NULL CHECK (nrow >= 0), -- constraint equations (length of lambda)\n"       \
    RUN_FRAME_DOUBLES                                                                                           \
    "  chunk_frames  INTEGER NOT NULL CHECK (chunk_frames > 0), -- frames per run_frames row\n"              \
    "  frames        INTEGER NOT NULL DEFAULT 0 CHECK (frames >= 0), -- frames committed so far\n"            \
    "  t_first,                                       -- simulated time of the first committed frame, s\n"

#define RUN_FRAME_DOUBLES "  frame_doubles INTEGER NOT NULL CHECK (frame_doubles = 1 + 19 * nbody + nrow), -- doubles per frame\n"
static const char sql_runs_v1[] = RUN_HEAD("runs") "  t_last                                         -- and of the last\n)";
#define RUN_WRITER "  writer        TEXT -- 'host boot-id pid start-time' of the process writing it (a dead writer: interrupted)\n"
static const char sql_runs_v3[] = RUN_HEAD("runs") "  t_last,                                        -- and of the last\n" RUN_WRITER ")";
#undef RUN_FRAME_DOUBLES
/* Version 4: frames also hold the modal coordinates of flexible bodies. */
#define RUN_FRAME_DOUBLES                                                                                         \
    "  nmodal        INTEGER NOT NULL DEFAULT 0 CHECK (nmodal >= 0), -- modal coordinates of flexible bodies\n"     \
    "  frame_doubles INTEGER NOT NULL CHECK (frame_doubles = 1 + 19 * nbody + nrow + 3 * nmodal), -- doubles per frame\n"
#define SQL_RUNS(table) RUN_HEAD(table) "  t_last,                                        -- and of the last\n" RUN_WRITER ")"
static const char sql_runs[] = SQL_RUNS("runs");

static const char sql_run_frames[] =
    "CREATE TABLE run_frames ( -- output frames of runs, chunk_frames frames per row; frame n is in chunk\n"
    "  -- n / chunk_frames at position n % chunk_frames\n"
    "  run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  chunk   INTEGER NOT NULL CHECK (chunk >= 0),\n"
    "  nframes INTEGER NOT NULL CHECK (nframes > 0), -- = runs.chunk_frames except in the last chunk\n"
    "  t_first NOT NULL, -- simulated time of its first frame, s\n"
    "  t_last  NOT NULL, -- and of its last\n"
    "  data    BLOB NOT NULL, -- nframes × frame_doubles little-endian IEEE doubles, frame after frame:\n"
    "                         -- t, q (7 per body: centre of mass x y z, quaternion w x y z),\n"
    "                         -- u (6 per body: velocity, angular velocity), acc (6 per body), lambda (nrow),\n"
    "                         -- modal coordinates of flexible bodies w, their rates, their accelerations (nmodal each)\n"
    "  PRIMARY KEY (run_id, chunk)\n"
    ")";

static const char sql_run_log[] =
    "CREATE TABLE run_log ( -- messages of runs\n"
    "  id      INTEGER PRIMARY KEY,\n"
    "  run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  logged  TEXT NOT NULL, -- UTC\n"
    "  level   TEXT NOT NULL CHECK (level IN ('info','warning','error')),\n"
    "  t,                     -- simulated time it concerns, s (NULL: none)\n"
    "  message TEXT NOT NULL\n"
    ")";
static const char sql_run_log_index[] = "CREATE INDEX run_log_by_run ON run_log(run_id)";

/* Studies (version 12; docs/studies.md): the model's study as its statements
 * in the text format, and the results of its cases with what they were run
 * from (a case is kept only while the study and the model are unchanged). */
static const char sql_study_lines[] =
    "CREATE TABLE study_lines ( -- the model's study: its `study …` statements (docs/model-format.md), in order\n"
    "  seq  INTEGER PRIMARY KEY,\n"
    "  line TEXT NOT NULL CHECK (line LIKE 'study %')\n"
    ")";
static const char sql_study_results[] =
    "CREATE TABLE study_results ( -- what the cases in study_cases were run from (one row, or none)\n"
    "  id            INTEGER PRIMARY KEY CHECK (id = 1),\n"
    "  definition    TEXT NOT NULL,    -- the study's statements in canonical form\n"
    "  model_version INTEGER NOT NULL, -- project.model_version of the model run\n"
    "  started       TEXT NOT NULL     -- UTC\n"
    ")";
static const char sql_study_cases[] =
    "CREATE TABLE study_cases ( -- finished cases of the study, ok or failed\n"
    "  idx      INTEGER PRIMARY KEY CHECK (idx >= 0), -- the case's number in the design, 0 first\n"
    "  status   TEXT NOT NULL CHECK (status IN ('ok','failed')),\n"
    "  message  TEXT NOT NULL,  -- why it failed ('' when ok), naming its values\n"
    "  seconds  NOT NULL,       -- wall time of its run\n"
    "  job      TEXT NOT NULL,  -- where it ran: 'local', or 'slurm JOBID_TASK'\n"
    "  frames   TEXT NOT NULL,  -- the project file holding its run's frames ('' when not kept)\n"
    "  finished TEXT NOT NULL   -- UTC\n"
    ")";
static const char sql_study_values[] =
    "CREATE TABLE study_values ( -- the design variables' values of each case, in the variable's unit\n"
    "  case_idx INTEGER NOT NULL REFERENCES study_cases(idx) ON DELETE CASCADE,\n"
    "  variable TEXT NOT NULL,\n"
    "  value    NOT NULL,\n"
    "  PRIMARY KEY (case_idx, variable)\n"
    ")";
static const char sql_study_responses[] =
    "CREATE TABLE study_responses ( -- the responses of each case (NULL: not computed)\n"
    "  case_idx INTEGER NOT NULL REFERENCES study_cases(idx) ON DELETE CASCADE,\n"
    "  response TEXT NOT NULL,\n"
    "  value,\n"
    "  PRIMARY KEY (case_idx, response)\n"
    ")";
#define SQL_STUDY sql_study_lines, sql_study_results, sql_study_cases, sql_study_values, sql_study_responses

/* Modes (version 13; docs/analyses.md "Stored modes"): what mt_modes found, kept so the window can show and
 * animate them again; a row per mode with its eigenvalue in columns and its shape as doubles. */
static const char sql_modes[] =
    "CREATE TABLE modes ( -- a modal analysis: linearised about the equilibrium or the initial configuration\n"
    "  id             INTEGER PRIMARY KEY,\n"
    "  model_version  INTEGER NOT NULL, -- project.model_version of the model analysed\n"
    "  created        TEXT NOT NULL,    -- UTC\n"
    "  at_equilibrium INTEGER NOT NULL CHECK (at_equilibrium IN (0, 1)),\n"
    "  dof            INTEGER NOT NULL CHECK (dof >= 0),\n"
    "  nbody          INTEGER NOT NULL, -- the state's layout: q = 7 per body + modal, u = 6 per body + modal\n"
    "  nq             INTEGER NOT NULL,\n"
    "  nu             INTEGER NOT NULL,\n"
    "  njoint         INTEGER NOT NULL,\n"
    "  statics        BLOB NOT NULL,    -- the equilibrium search: 12 little-endian doubles (docs/project-format.md)\n"
    "  config         BLOB NOT NULL,    -- q (nq doubles), then per body its first modal index and count (2 per body)\n"
    "  CHECK (length(config) = 8 * (nq + 2 * nbody) AND length(statics) = 96)\n"
    ")";
static const char sql_mode_values[] =
    "CREATE TABLE mode_values ( -- the modes of an analysis, by ascending natural frequency (rigid motions first)\n"
    "  modes_id    INTEGER NOT NULL REFERENCES modes(id) ON DELETE CASCADE,\n"
    "  k           INTEGER NOT NULL CHECK (k >= 0),\n"
    "  kind        TEXT NOT NULL CHECK (kind IN ('oscillatory','overdamped','decaying','divergent','rigid')),\n"
    "  s_re        NOT NULL,  -- eigenvalue, 1/s\n"
    "  s_im        NOT NULL,\n"
    "  s2_re       NOT NULL,  -- a real pair's other root (else 0)\n"
    "  freq        NOT NULL,  -- undamped natural frequency, Hz\n"
    "  damped_freq NOT NULL,  -- Hz\n"
    "  zeta,                  -- damping ratio (NULL: none)\n"
    "  shape       BLOB NOT NULL, -- shape_re, shape_im (nu each), coord_re, coord_im (njoint each): doubles\n"
    "  PRIMARY KEY (modes_id, k)\n"
    ")";
#define SQL_MODES sql_modes, sql_mode_values

/* Version 4, created in this order. */
static const char *const schema_current[] = {
    sql_joint_types, sql_solver_methods, sql_entity_kinds, sql_shape_kinds, sql_force_kinds, sql_contact_geometries,
    sql_sensor_kinds, sql_project, sql_solver, sql_bodies, sql_markers, sql_shapes, sql_joints, sql_drivers, sql_driver_points,
    sql_couplings, sql_springs, sql_forces, sql_force_params, sql_sensors, sql_controls, sql_events, sql_initial,
    sql_flexible_initial, sql_parameters, sql_bindings, sql_display_units, sql_plots, sql_flexible, sql_runs, sql_run_frames, sql_run_log,
    sql_run_log_index, sql_lookup_tables, sql_lookup_points, SQL_STUDY, SQL_MODES, NULL};

/* Tables every current project has (checked at open). */
static const char *const tables_current[] = {
    "joint_types", "solver_methods", "entity_kinds", "shape_kinds", "force_kinds", "contact_geometries", "sensor_kinds",
    "project", "solver", "bodies", "markers", "shapes", "joints", "drivers", "driver_points", "couplings", "springs",
    "forces", "force_parameters", "sensors", "controls", "events", "initial_conditions", "flexible_initial_conditions",
    "parameters", "bindings", "display_units", "plots", "flexible_bodies", "runs", "run_frames", "run_log", "lookup_tables", "lookup_table_points",
    "study_lines", "study_results", "study_cases", "study_values", "study_responses", "modes", "mode_values", NULL};

/* Forward migrations: migration[v] turns version v into v + 1. Version 1 was
 * the first development layout (no shapes, force elements, sensors, display
 * units, plots, run log, spring curves or run writer); it is kept so that the
 * migration path stays exercised. */
static const char *const migrate_1_2[] = {sql_shape_kinds, sql_force_kinds, sql_contact_geometries, sql_sensor_kinds,
                                          sql_shapes_v6, sql_forces, sql_force_params, sql_sensors, sql_display_units,
                                          sql_plots, sql_run_log, sql_run_log_index,
                                          "ALTER TABLE springs ADD COLUMN curve TEXT NOT NULL DEFAULT ''",
                                          "ALTER TABLE runs ADD COLUMN writer TEXT", NULL};
/* Version 2 had no control channels, events or treatment of closed loops.
 * (A comment in an added column must be a block comment: SQLite splices the
 * column's text into the table's CREATE statement.) */
static const char *const migrate_2_3[] = {
    "ALTER TABLE solver ADD COLUMN loops " SOLVER_LOOPS " /* how closed loops are kept closed */",
    "ALTER TABLE solver ADD COLUMN nu " SOLVER_NU " /* penalty and mlf: controller circular frequency, rad/s (0: default) */",
    sql_controls, sql_events, NULL};
/* Version 3 had no flexible bodies, named tables, load sensors or elastic
 * energies: the reserved flexible_bodies table is replaced, markers learn the
 * node they ride on, and runs (whose frames may now hold modal coordinates)
 * and sensors are rebuilt with their new columns and CHECKs (foreign keys are
 * off while a project is migrated, so frames and logs stay). */
static const char *const migrate_3_4[] = {
    "ALTER TABLE markers ADD COLUMN node INTEGER NOT NULL DEFAULT 0 CHECK (node >= 0) /* flexible body: the node it rides on (0: the node at its origin) */",
    "ALTER TABLE markers ADD COLUMN spider NOT NULL DEFAULT 0 CHECK (spider >= 0) /* flexible body: radius of a rigid spider to the nodes around it, m */",
    "DROP TABLE flexible_bodies", sql_flexible_v4,
    SQL_RUNS("runs_v4"),
    "INSERT INTO runs_v4(id, status, message, model_version, model_text, method, step, until, every, rtol, atol, ts, xi,"
    " correct, alpha, rho, started, ended, nbody, nrow, nmodal, frame_doubles, chunk_frames, frames, t_first, t_last, writer)"
    " SELECT id, status, message, model_version, model_text, method, step, until, every, rtol, atol, ts, xi, correct, alpha,"
    " rho, started, ended, nbody, nrow, 0, frame_doubles, chunk_frames, frames, t_first, t_last, writer FROM runs",
    "UPDATE sqlite_sequence SET seq = (SELECT seq FROM sqlite_sequence WHERE name = 'runs') WHERE name = 'runs_v4'",
    "DROP TABLE runs", "ALTER TABLE runs_v4 RENAME TO runs",
    sql_lookup_tables, sql_lookup_points, SQL_SENSORS("sensors_v4"),
    "INSERT INTO sensors_v4(id, name, kind, marker_i, marker_j, frame_marker, component, joint_id, part, body_id, energy, unit,"
    " expr) SELECT id, name, kind, marker_i, marker_j, frame_marker, component, joint_id, part, body_id, energy, unit, expr"
    " FROM sensors",
    "DROP TABLE sensors", "ALTER TABLE sensors_v4 RENAME TO sensors", NULL};
/* Version 4 had no geometric stiffening of flexible bodies. */
static const char *const migrate_4_5[] = {"ALTER TABLE flexible_bodies ADD COLUMN " SQL_STIFFENING, NULL};
/* Version 5 bound no shapes, controls or events to expressions: the same tables, three more entity kinds (a
 * program of version 5 must not read bindings it does not know, hence the new version). */
static const char *const migrate_5_6[] = {"INSERT OR IGNORE INTO entity_kinds(name) VALUES ('shape'), ('control'), ('event')",
                                          NULL};
/* Version 6 kept no orientation typed with expressions (only its rotation). */
static const char *const migrate_6_7[] = {"ALTER TABLE bodies ADD COLUMN " SQL_ORIENT, "ALTER TABLE markers ADD COLUMN " SQL_ORIENT,
                                          "ALTER TABLE shapes ADD COLUMN " SQL_ORIENT, NULL};
/* Version 7 had no point masses. From here on the columns of the schema's
 * settings (include/motus/schema.h) are added by mt_store_rows_ensure after
 * the migrations: a new setting raises the version and adds an empty step. */
static const char *const migrate_7_8[] = {NULL};
/* Version 8 bound no settings of flexible bodies to expressions (a program of version 8 must not read
 * bindings of the kind 'flexible', which the opening adds to entity_kinds). */
static const char *const migrate_8_9[] = {NULL};
/* Version 9 had no driver given by an expression: drivers are rebuilt with the law 'expr' and its column (foreign keys
 * are off while a project is migrated, so the points of table drivers stay). */
static const char *const migrate_9_10[] = {
    SQL_DRIVERS("drivers_v10", "('poly','rate','harmonic','step','table','expr')", DRIVER_EXPR),
    "INSERT INTO drivers_v10(id, name, joint_id, coord, marker_i, marker_j, component, level, law, ncoef, c0, c1, c2, c3, c4,"
    " c5, c6, c7) SELECT id, name, joint_id, coord, marker_i, marker_j, component, level, law, ncoef, c0, c1, c2, c3, c4, c5,"
    " c6, c7 FROM drivers",
    "DROP TABLE drivers", "ALTER TABLE drivers_v10 RENAME TO drivers", NULL};
/* Version 10 had no initial elastic state of flexible bodies (flexible_bodies.initial, a schema column added by
 * mt_store_rows_ensure); a program of version 10 would lose it. */
static const char *const migrate_10_11[] = {NULL};
/* Version 11 had no studies. */
static const char *const migrate_11_12[] = {SQL_STUDY, NULL};
/* Version 12 kept no modes. */
static const char *const migrate_12_13[] = {SQL_MODES, NULL};
/* Version 13 had no derived curves (kept in the plots table's layout text: a program of version 13 would drop them
 * and the curves that show them). */
static const char *const migrate_13_14[] = {NULL};
/* Version 14 had no optimisation: the same tables, whose study_lines may now hold 'study objective', 'study
 * constraint' and 'study optimizer' (a program of version 14 must not meet lines it cannot read). */
static const char *const migrate_14_15[] = {NULL};
/* Version 15 had no initial values of single modal coordinates (`initial BODY.wK`). */
static const char *const migrate_15_16[] = {sql_flexible_initial, NULL};
/* Version 16 had no wheel–rail contacts: the same tables, whose forces may now be of kind 'wheelrail' (filled into
 * force_kinds at every opening; a program of version 16 must not meet a kind it cannot run). */
static const char *const migrate_16_17[] = {NULL};
/* Version 17 had no `start statics`: the solver's and the runs' column `start` is added by mt_store_rows_ensure
 * (a program of version 17 would drop it and start the run elsewhere). */
static const char *const migrate_17_18[] = {NULL};
/* Version 18 bound no number of modes to an expression (flexible_bodies.modes was a whole number; the column keeps its
 * values, and a program of version 18 must not meet a binding 'modes' it cannot hold). */
static const char *const migrate_18_19[] = {NULL};
/* Version 19 had no `hmax` and no `hold`: the solver's and the runs' columns are added by mt_store_rows_ensure (a
 * program of version 19 would drop them: its adaptive runs would take other steps, its static starts roll elsewhere). */
static const char *const migrate_19_20[] = {NULL};
static const char *const *const migration[MT_STORE_SCHEMA_VERSION] = {NULL,        migrate_1_2, migrate_2_3, migrate_3_4,
                                                                      migrate_4_5, migrate_5_6, migrate_6_7, migrate_7_8,
                                                                      migrate_8_9, migrate_9_10, migrate_10_11,
                                                                      migrate_11_12, migrate_12_13, migrate_13_14,
                                                                      migrate_14_15, migrate_15_16, migrate_16_17,
                                                                      migrate_17_18, migrate_18_19, migrate_19_20};

/* For the test of migrations: the statements of version 1 are those of
 * version 2 without the ones migrate_1_2 adds, with sql_springs_v1 and sql_runs_v1. */
const char *mt_store_schema_v1_sql(int i);
const char *mt_store_schema_v1_sql(int i)
{
    static const char *const v1[] = {sql_joint_types, sql_solver_methods, sql_entity_kinds, sql_project, sql_solver_v2, sql_bodies_v6, sql_markers_v3, sql_joints, sql_drivers_v9,
                                     sql_driver_points, sql_couplings, sql_springs_v1, sql_initial, sql_parameters,
                                     sql_bindings, sql_flexible_v1, sql_runs_v1, sql_run_frames, NULL};
    return (i >= 0 && i < (int)(sizeof v1 / sizeof v1[0])) ? v1[i] : NULL;
}

/* For the test of migrations: the statements of version 4 are those of the
 * current layout with the flexible bodies of version 4; those of version 3
 * also lack the named tables and have the sensors of version 3; those of
 * version 2 also lack controls and events and have the solver table of
 * version 2. */
static const char *schema_old_sql(int version, int i)
{
    if (i < 0) return NULL;
    for (int k = 0, n = 0; schema_current[k]; k++) {
        const char *sql = schema_current[k];
        if (sql == sql_study_lines || sql == sql_study_results || sql == sql_study_cases || sql == sql_study_values ||
            sql == sql_study_responses || sql == sql_modes || sql == sql_mode_values || sql == sql_flexible_initial)
            continue; /* studies came with version 12, stored modes with 13, modal initial conditions with 16 */
        if (version < 4 && (sql == sql_lookup_tables || sql == sql_lookup_points)) continue;
        if (version < 3 && (sql == sql_controls || sql == sql_events)) continue;
        if (version < 7) /* bodies, markers and shapes without their orientation as typed */
            sql = sql == sql_bodies ? sql_bodies_v6 : sql == sql_markers ? sql_markers_v6 : sql == sql_shapes ? sql_shapes_v6 : sql;
        if (n++ == i && version >= 4) return version == 4 && sql == sql_flexible ? sql_flexible_v4 : sql;
        if (n - 1 == i)
            return sql == sql_sensors ? sql_sensors_v3 : (version < 3 && sql == sql_solver) ? sql_solver_v2
                 : sql == sql_markers_v6 ? sql_markers_v3 : sql == sql_flexible ? sql_flexible_v1 : sql == sql_runs ? sql_runs_v3 : sql;
    }
    return NULL;
}
const char *mt_store_schema_v2_sql(int i);
const char *mt_store_schema_v2_sql(int i) { return schema_old_sql(2, i); }
const char *mt_store_schema_v3_sql(int i);
const char *mt_store_schema_v3_sql(int i) { return schema_old_sql(3, i); }
const char *mt_store_schema_v4_sql(int i);
const char *mt_store_schema_v4_sql(int i) { return schema_old_sql(4, i); }
const char *mt_store_schema_v5_sql(int i);
const char *mt_store_schema_v5_sql(int i) { return schema_old_sql(5, i); }
const char *mt_store_schema_v6_sql(int i);
const char *mt_store_schema_v6_sql(int i) { return schema_old_sql(6, i); }

/* bindings.entity_kind, in the order of MtEntityKind */
const char *const mt_store_entity_kinds[MT_STORE_NENTITY_KINDS] = {
    "body", "marker", "joint", "driver", "spring", "coupling", "initial", "gravity", "solver", "force", "shape", "control", "event",
    "flexible"};
_Static_assert(MT_ENT_FLEX == MT_STORE_NENTITY_KINDS - 1, "MtEntityKind changed: update mt_store_entity_kinds");

/* ---- helpers --------------------------------------------------------------- */

/* SQLite's check reports span lines: keep one. */
static void one_line(char *msg)
{
    for (char *c = msg; *c; c++)
        if (*c == '\n' || *c == '\r') *c = ' ';
}

static MtStatus sqlerr(MtStore *s, int rc, MtError *err)
{
    const char *path = s->path;
    const char *detail = s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc);
    switch (rc & 0xff) {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
        return mt_error_set(err, MT_ERR_IO, path, MT_("'%s' is damaged (%s); restore it from a backup"), path, detail);
    case SQLITE_FULL: return mt_error_set(err, MT_ERR_IO, path, MT_("'%s': the disk is full"), path);
    case SQLITE_READONLY:
        return mt_error_set(err, MT_ERR_IO, path, MT_("'%s' cannot be written (%s)"), path, detail);
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return mt_error_set(err, MT_ERR_IO, path, MT_("'%s' is locked by another program; try again"), path);
    case SQLITE_NOMEM: return mt_error_set(err, MT_ERR_NOMEM, path, "%s", MT_("out of memory"));
    case SQLITE_CANTOPEN:
        return mt_error_set(err, MT_ERR_IO, path, MT_("cannot open '%s' (%s; is its directory writable?)"), path, detail);
    case SQLITE_ERROR: /* the statements are Motus's own: a table or column they name is missing or changed */
        return mt_error_set(err, MT_ERR_IO, path,
                            MT_("'%s': its tables are not as Motus writes them (%s); the file is damaged or was changed "
                                "by another program: restore it from a backup"),
                            path, detail);
    default: return mt_error_set(err, MT_ERR_IO, path, "'%s': %s", path, detail);
    }
}

MtStatus mt_store_sqlerr(MtStore *s, int rc, MtError *err)
{
    MtStatus code = sqlerr(s, rc, err);
    if (err) one_line(err->msg);
    return code;
}

MtStatus mt_store_exec(MtStore *s, const char *sql, MtError *err)
{
    int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? MT_OK : mt_store_sqlerr(s, rc, err);
}

MtStatus mt_store_begin(MtStore *s, MtError *err)
{
    return mt_store_exec(s, "BEGIN IMMEDIATE", err);
}

MtStatus mt_store_commit(MtStore *s, MtError *err)
{
    int rc = sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
    if (rc == SQLITE_OK) return MT_OK;
    mt_store_sqlerr(s, rc, err);
    mt_store_rollback(s);
    return err ? err->code : MT_ERR_IO;
}

void mt_store_rollback(MtStore *s)
{
    if (!sqlite3_get_autocommit(s->db)) sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

void mt_store_now(char buf[32])
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char d[24];
    strftime(d, sizeof d, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf, 32, "%s.%03dZ", d, (int)(ts.tv_nsec / 1000000));
}

MtStatus mt_store_need_write(MtStore *s, MtError *err)
{
    if (!s->readonly) return MT_OK;
    return mt_error_set(err, MT_ERR_ARG, s->path, MT_("'%s' was opened read-only"), s->path);
}

/* ---- writer identity ------------------------------------------------------- */

/* Field 22 of /proc/PID/stat (start time in clock ticks since boot) and the
 * state letter; 0 when the process does not exist. */
static unsigned long long proc_start(long pid, char *state)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')'); /* the command name may contain spaces and parentheses */
    if (!p) return 0;
    p++;
    char st = 0;
    unsigned long long start = 0;
    /* after ")": state(3) ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime
       cstime priority nice threads itrealvalue starttime(22) */
    if (sscanf(p, " %c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu", &st, &start) != 2)
        return 0;
    if (state) *state = st;
    return start;
}

static void read_line(const char *path, char *buf, size_t n)
{
    buf[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f) return;
    if (fgets(buf, (int)n, f)) buf[strcspn(buf, "\r\n")] = 0;
    fclose(f);
}

const char *mt_store_writer_self(void)
{
    static char id[512];
    char host[256] = "", boot[64];
    gethostname(host, sizeof host - 1);
    for (char *c = host; *c; c++)
        if (*c == ' ') *c = '_';
    read_line("/proc/sys/kernel/random/boot_id", boot, sizeof boot);
    snprintf(id, sizeof id, "%s %s %ld %llu", host[0] ? host : "-", boot[0] ? boot : "-", (long)getpid(),
             proc_start((long)getpid(), NULL));
    return id;
}

int mt_store_writer_alive(const char *writer)
{
    char host[256], boot[64], myhost[256] = "", myboot[64];
    long pid;
    unsigned long long start;
    if (!writer || sscanf(writer, "%255s %63s %ld %llu", host, boot, &pid, &start) != 4) return 0;
    gethostname(myhost, sizeof myhost - 1);
    for (char *c = myhost; *c; c++)
        if (*c == ' ') *c = '_';
    if (strcmp(host, myhost[0] ? myhost : "-")) return -1;
    read_line("/proc/sys/kernel/random/boot_id", myboot, sizeof myboot);
    if (strcmp(boot, myboot[0] ? myboot : "-")) return 0; /* the machine rebooted since */
    char state = 0;
    unsigned long long now = proc_start(pid, &state);
    if (now == 0) { /* no /proc entry: gone (or no /proc at all: ask the kernel) */
        if (access("/proc/self/stat", R_OK) == 0) return 0;
        return (kill((pid_t)pid, 0) == 0 || errno == EPERM) ? 1 : 0;
    }
    if (now != start) return 0; /* the pid was reused */
    return (state == 'Z' || state == 'X') ? 0 : 1;
}

/* ---- opening ------------------------------------------------------------------ */

int mt_store_is_sqlite_file(const char *path)
{
    char head[16];
    FILE *f = mt_file_open_regular(path, NULL); /* a FIFO would block */
    if (!f) return 0;
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    return n == 16 && !memcmp(head, "SQLite format 3", 16);
}

static unsigned be32(const unsigned char *p) { return (unsigned)p[0] << 24 | (unsigned)p[1] << 16 | (unsigned)p[2] << 8 | p[3]; }

static int has_pending_wal(const char *path)
{
    char wal[PATH_MAX];
    struct stat ws;
    snprintf(wal, sizeof wal, "%s-wal", path);
    return stat(wal, &ws) == 0 && ws.st_size > 0;
}

/* "file:PATH?immutable=1" with %, ? and # escaped. */
static char *immutable_uri(const char *path)
{
    size_t n = strlen(path);
    char *u = malloc(3 * n + 32);
    if (!u) return NULL;
    char *o = u + sprintf(u, "file:");
    for (const char *c = path; *c; c++) {
        if (*c == '%' || *c == '?' || *c == '#') o += sprintf(o, "%%%02x", (unsigned char)*c);
        else *o++ = *c;
    }
    strcpy(o, "?immutable=1");
    return u;
}

/* Checks the 100-byte header before SQLite touches the file. */
static MtStatus check_header(const char *path, const struct stat *sb, MtError *err)
{
    unsigned char h[100];
    FILE *f = mt_file_open_regular(path, err);
    if (!f) return err->code;
    size_t n = fread(h, 1, sizeof h, f);
    int ioerr = ferror(f);
    fclose(f);
    if (ioerr) return mt_error_set(err, MT_ERR_IO, path, MT_("cannot read '%s'"), path);
    if (n < 16 || memcmp(h, "SQLite format 3", 16))
        return mt_error_set(err, MT_ERR_IO, path, MT_("'%s' is not a Motus project (it is not an SQLite database)"), path);
    if (n < 100)
        return mt_error_set(err, MT_ERR_IO, path, MT_("'%s' is truncated: only %ld bytes are left"), path, (long)sb->st_size);
    unsigned ps = (unsigned)h[16] << 8 | h[17];
    if (ps == 1) ps = 65536;
    if (ps < 512 || (ps & (ps - 1)))
        return mt_error_set(err, MT_ERR_IO, path, MT_("'%s' is damaged (impossible page size %u); restore it from a backup"), path, ps);
    if (sb->st_size % ps)
        return mt_error_set(err, MT_ERR_IO, path, MT_("'%s' is truncated: %lld bytes is not a whole number of %u-byte pages"),
                            path, (long long)sb->st_size, ps);
    /* The page count in the header is exact when its version-valid-for number
     * matches the change counter; with a write-ahead log beside the file it
     * may run ahead of the file (a checkpoint was interrupted), so the log
     * decides then. */
    int has_wal = has_pending_wal(path);
    unsigned pages = be32(h + 28);
    if (!has_wal && pages && be32(h + 24) == be32(h + 92) && (long long)pages * ps > (long long)sb->st_size)
        return mt_error_set(err, MT_ERR_IO, path, MT_("'%s' is truncated: %lld of %lld bytes are left; restore it from a backup"),
                            path, (long long)sb->st_size, (long long)pages * ps);
    return MT_OK;
}

static int pragma_int(MtStore *s, const char *sql, long long *out)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK) return rc;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_int64(st, 0);
        rc = SQLITE_OK;
    } else if (rc == SQLITE_DONE) {
        *out = 0;
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc;
}

/* Write-ahead log: readers never block the writer, commits are atomic. */
static MtStatus set_wal(MtStore *s, MtError *err)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db, "PRAGMA journal_mode = WAL", -1, &st, NULL);
    if (rc) return mt_store_sqlerr(s, rc, err);
    rc = sqlite3_step(st);
    const char *mode = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
    int wal = mode && !strcmp(mode, "wal");
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW) return mt_store_sqlerr(s, rc, err);
    if (!wal)
        return mt_error_set(err, MT_ERR_IO, s->path, MT_("'%s': the file system does not allow a write-ahead log next to it"),
                            s->path);
    return MT_OK;
}

static MtStatus exec_list(MtStore *s, const char *const *sql, MtError *err)
{
    for (int i = 0; sql[i]; i++)
        if (mt_store_exec(s, sql[i], err)) return err ? err->code : MT_ERR_IO;
    return MT_OK;
}

static void force_param_list(char *buf, size_t n, MtForceKind k)
{
    const char *const *pn = mt_force_param_names(k);
    size_t len = 0;
    buf[0] = 0;
    for (int q = 0; pn[q] && len < n; q++) len += (size_t)snprintf(buf + len, n - len, "%s%s", q ? " " : "", pn[q]);
}

/* Fills the vocabulary tables with the names this program knows (inside the
 * caller's transaction). */
static MtStatus fill_vocabularies(MtStore *s, MtError *err)
{
    sqlite3_stmt *st = NULL;
    int rc = SQLITE_OK;
#define FILL(sql, n, bind)                                                   \
    if (!rc) rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);             \
    for (int i = 0; !rc && i < (n); i++) {                                  \
        bind;                                                                \
        rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(s->db); \
        sqlite3_reset(st);                                                   \
    }                                                                        \
    sqlite3_finalize(st);                                                    \
    st = NULL;
    FILL("INSERT INTO joint_types(name, equations) VALUES (?1, ?2) ON CONFLICT(name) DO UPDATE SET equations = excluded.equations",
         MT_JOINT_NTYPES, (sqlite3_bind_text(st, 1, mt_joint_type_name((MtJointType)i), -1, SQLITE_STATIC),
                           sqlite3_bind_int(st, 2, mt_joint_rows((MtJointType)i))))
    FILL("INSERT OR IGNORE INTO solver_methods(name) VALUES (?1)", MT_METHOD_NMETHODS,
         sqlite3_bind_text(st, 1, mt_method_name((MtMethod)i), -1, SQLITE_STATIC))
    FILL("INSERT OR IGNORE INTO entity_kinds(name) VALUES (?1)", MT_STORE_NENTITY_KINDS,
         sqlite3_bind_text(st, 1, mt_store_entity_kinds[i], -1, SQLITE_STATIC))
    FILL("INSERT OR IGNORE INTO shape_kinds(name) VALUES (?1)", MT_SHAPE_NKINDS,
         sqlite3_bind_text(st, 1, mt_shape_kind_name((MtShapeKind)i), -1, SQLITE_STATIC))
    FILL("INSERT OR IGNORE INTO contact_geometries(name) VALUES (?1)", MT_CONTACT_NGEOM,
         sqlite3_bind_text(st, 1, mt_contact_geom_name((MtContactGeom)i), -1, SQLITE_STATIC))
    FILL("INSERT OR IGNORE INTO sensor_kinds(name) VALUES (?1)", MT_SENSOR_NKINDS,
         sqlite3_bind_text(st, 1, mt_sensor_kind_name((MtSensorKind)i), -1, SQLITE_STATIC))
    char params[512];
    FILL("INSERT INTO force_kinds(name, parameters) VALUES (?1, ?2) ON CONFLICT(name) DO UPDATE SET parameters = excluded.parameters",
         MT_FORCE_NKINDS, (force_param_list(params, sizeof params, (MtForceKind)i),
                           sqlite3_bind_text(st, 1, mt_force_kind_name((MtForceKind)i), -1, SQLITE_STATIC),
                           sqlite3_bind_text(st, 2, params, -1, SQLITE_TRANSIENT)))
#undef FILL
    return rc ? mt_store_sqlerr(s, rc, err) : MT_OK;
}

static MtStatus create_schema(MtStore *s, MtError *err)
{
    if (mt_store_begin(s, err)) return err->code;
    char now[32], sql[256];
    mt_store_now(now);
    if (exec_list(s, schema_current, err) || mt_store_rows_ensure(s, err) || fill_vocabularies(s, err)) goto fail;
    snprintf(sql, sizeof sql, "PRAGMA application_id = %d", (int)MT_STORE_APPLICATION_ID);
    if (mt_store_exec(s, sql, err)) goto fail;
    snprintf(sql, sizeof sql, "PRAGMA user_version = %d", MT_STORE_SCHEMA_VERSION);
    if (mt_store_exec(s, sql, err)) goto fail;
    snprintf(sql, sizeof sql, "INSERT INTO project(id, title, created) VALUES (1, '', '%s')", now);
    if (mt_store_exec(s, sql, err)) goto fail;
    if (mt_store_exec(s,
                      "INSERT INTO solver(id, method, step, until, every, rtol, atol, ts, xi, correct, alpha, rho, loops, nu)"
                      " VALUES (1, 'rk4', 0.001, 1.0, 1, 1e-8, 1e-10, 0.1, 1.0, 'none', -0.05, 0.8, 'baumgarte', 0.0);"
                      "INSERT INTO bodies(id, name, mass, com_x, com_y, com_z, ixx, iyy, izz, ixy, ixz, iyz, x, y, z,"
                      " r11, r12, r13, r21, r22, r23, r31, r32, r33, vx, vy, vz, wx, wy, wz)"
                      " VALUES (0, 'ground', 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,"
                      " 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)",
                      err))
        goto fail;
    return mt_store_commit(s, err);
fail:
    mt_store_rollback(s);
    return err->code;
}

static MtStatus migrate(MtStore *s, int from, MtError *err)
{
    if (mt_store_begin(s, err)) return err->code;
    /* another process may have migrated it meanwhile */
    long long v = 0;
    int rc = pragma_int(s, "PRAGMA user_version", &v);
    if (rc) { mt_store_sqlerr(s, rc, err); goto fail; }
    for (int k = (int)v; k < MT_STORE_SCHEMA_VERSION; k++) {
        if (!migration[k]) {
            mt_error_set(err, MT_ERR_IO, s->path, MT_("'%s': no upgrade from project format %d"), s->path, k);
            goto fail;
        }
        if (exec_list(s, migration[k], err)) goto fail;
    }
    if (mt_store_rows_ensure(s, err)) goto fail;
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA user_version = %d", MT_STORE_SCHEMA_VERSION);
    if (mt_store_exec(s, sql, err)) goto fail;
    (void)from;
    return mt_store_commit(s, err);
fail:
    mt_store_rollback(s);
    return err->code;
}

/* Marks runs whose writer process died as interrupted. */
static MtStatus recover_runs(MtStore *s, MtError *err)
{
    sqlite3_stmt *st = NULL, *up = NULL, *lg = NULL;
    int rc = sqlite3_prepare_v2(s->db, "SELECT id, writer, frames FROM runs WHERE status = 'running'", -1, &st, NULL);
    if (rc) return mt_store_sqlerr(s, rc, err);
    long ids[64];
    long frames[64];
    int n = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < 64) {
        const char *w = (const char *)sqlite3_column_text(st, 1);
        if (mt_store_writer_alive(w) == 0) {
            ids[n] = (long)sqlite3_column_int64(st, 0);
            frames[n++] = (long)sqlite3_column_int64(st, 2);
        }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) return mt_store_sqlerr(s, rc, err);
    if (!n) return MT_OK;
    if (mt_store_begin(s, err)) return err->code;
    char now[32];
    mt_store_now(now);
    rc = sqlite3_prepare_v2(s->db,
                            "UPDATE runs SET status = 'interrupted', message = ?2 WHERE id = ?1 AND status = 'running'",
                            -1, &up, NULL);
    if (!rc)
        rc = sqlite3_prepare_v2(s->db, "INSERT INTO run_log(run_id, logged, level, t, message) VALUES (?1, ?2, 'error', NULL, ?3)",
                                -1, &lg, NULL);
    for (int i = 0; !rc && i < n; i++) {
        char msg[256];
        snprintf(msg, sizeof msg, MT_("the program writing the run stopped before its end (killed or crashed); %ld frames were kept"),
                 frames[i]);
        sqlite3_bind_int64(up, 1, ids[i]);
        sqlite3_bind_text(up, 2, msg, -1, SQLITE_TRANSIENT);
        rc = sqlite3_step(up) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(s->db);
        sqlite3_reset(up);
        if (rc) break;
        sqlite3_bind_int64(lg, 1, ids[i]);
        sqlite3_bind_text(lg, 2, now, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(lg, 3, msg, -1, SQLITE_TRANSIENT);
        rc = sqlite3_step(lg) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(s->db);
        sqlite3_reset(lg);
    }
    sqlite3_finalize(up);
    sqlite3_finalize(lg);
    if (rc) {
        mt_store_sqlerr(s, rc, err);
        mt_store_rollback(s);
        return err->code;
    }
    if (mt_store_commit(s, err)) return err->code;
    s->recovered = n;
    return MT_OK;
}

/* Every table of the current layout is there; the small tables read back. */
static MtStatus check_tables(MtStore *s, MtError *err)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?1", -1, &st, NULL);
    if (rc) return mt_store_sqlerr(s, rc, err);
    for (int i = 0; tables_current[i]; i++) {
        sqlite3_bind_text(st, 1, tables_current[i], -1, SQLITE_STATIC);
        rc = sqlite3_step(st);
        int have = rc == SQLITE_ROW && sqlite3_column_int(st, 0) == 1;
        sqlite3_reset(st);
        if (rc != SQLITE_ROW) {
            sqlite3_finalize(st);
            return mt_store_sqlerr(s, rc, err);
        }
        if (!have) {
            sqlite3_finalize(st);
            return mt_error_set(err, MT_ERR_IO, s->path, MT_("'%s' is damaged: its table '%s' is missing"), s->path,
                                tables_current[i]);
        }
    }
    sqlite3_finalize(st);
    /* Structure of the model tables and the run list (run frames, the bulk,
     * are checked as they are read and by mt_store_check). */
    if (sqlite3_libversion_number() >= 3033000) {
        static const char *const small[] = {"project", "solver", "bodies", "markers", "shapes", "joints", "drivers",
                                            "driver_points", "couplings", "springs", "forces", "force_parameters", "sensors",
                                            "controls", "events", "initial_conditions", "flexible_initial_conditions",
                                            "parameters", "bindings",
                                            "display_units", "runs", "lookup_tables", "lookup_table_points", NULL};
        for (int i = 0; small[i]; i++) {
            char sql[96];
            snprintf(sql, sizeof sql, "PRAGMA quick_check(%s)", small[i]);
            rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
            if (rc) return mt_store_sqlerr(s, rc, err);
            rc = sqlite3_step(st);
            const char *res = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
            if (rc == SQLITE_ROW && res && strcmp(res, "ok")) {
                mt_error_set(err, MT_ERR_IO, s->path, MT_("'%s' is damaged (%s); restore it from a backup"), s->path, res);
                one_line(err->msg);
                sqlite3_finalize(st);
                return MT_ERR_IO;
            }
            sqlite3_finalize(st);
            if (rc != SQLITE_ROW) return mt_store_sqlerr(s, rc, err);
        }
    }
    return MT_OK;
}

static MtStore *open_fail(MtStore *s)
{
    if (s) {
        if (s->db) sqlite3_close_v2(s->db);
        free(s->path);
        free(s);
    }
    return NULL;
}

MtStore *mt_store_open(const char *path, int flags, MtError *err)
{
    MtError local;
    if (!err) err = &local;
    int ro = (flags & MT_STORE_READONLY) != 0, create = 0;
    struct stat sb = {0};
    if (stat(path, &sb) != 0) {
        int e = errno;
        if (e != ENOENT || !(flags & MT_STORE_CREATE) || ro) {
            mt_error_set(err, MT_ERR_IO, path, MT_("cannot open '%s': %s"), path, strerror(e));
            return NULL;
        }
        create = 1;
    } else {
        if (S_ISDIR(sb.st_mode)) {
            mt_error_set(err, MT_ERR_IO, path, MT_("'%s' is a directory, not a project file"), path);
            return NULL;
        }
        if (mt_file_check_regular(path, err) != MT_OK) return NULL; /* SQLite would block on a FIFO */
        if (!ro && (access(path, W_OK) != 0 || !(sb.st_mode & 0222))) {
            mt_error_set(err, MT_ERR_IO, path, MT_("'%s' is read-only: it cannot be changed (nothing was written)"), path);
            return NULL;
        }
        if (access(path, R_OK) != 0) {
            int e = errno;
            mt_error_set(err, MT_ERR_IO, path, MT_("cannot open '%s': %s"), path, strerror(e));
            return NULL;
        }
        if (sb.st_size == 0) {
            if (!(flags & MT_STORE_CREATE) || ro) {
                mt_error_set(err, MT_ERR_IO, path, MT_("'%s' is empty: it is not a Motus project"), path);
                return NULL;
            }
            create = 1;
        } else if (check_header(path, &sb, err))
            return NULL;
    }
    MtStore *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path))) {
        mt_error_set(err, MT_ERR_NOMEM, path, "%s", MT_("out of memory"));
        return open_fail(s);
    }
    s->readonly = ro;
    s->chunk_frames = MT_STORE_CHUNK_FRAMES;
    int oflags = ro ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
    /* A write-protected file without a pending log is opened as immutable:
     * SQLite then creates no -wal and -shm files beside it. */
    char *uri = NULL;
    if (ro && !(sb.st_mode & 0222) && !has_pending_wal(path)) {
        uri = immutable_uri(path);
        if (!uri) {
            mt_error_set(err, MT_ERR_NOMEM, path, "%s", MT_("out of memory"));
            return open_fail(s);
        }
        oflags |= SQLITE_OPEN_URI;
    }
    int rc = sqlite3_open_v2(uri ? uri : path, &s->db, oflags | SQLITE_OPEN_NOMUTEX, NULL);
    free(uri);
    if (rc != SQLITE_OK) {
        mt_store_sqlerr(s, rc, err);
        return open_fail(s);
    }
    sqlite3_extended_result_codes(s->db, 1);
    sqlite3_busy_timeout(s->db, 5000);
    if (!create) {
        long long app = 0, ver = 0, nobj = 0;
        if ((rc = pragma_int(s, "PRAGMA application_id", &app)) || (rc = pragma_int(s, "PRAGMA user_version", &ver)) ||
            (rc = pragma_int(s, "SELECT count(*) FROM sqlite_schema", &nobj))) {
            if ((rc & 0xff) == SQLITE_NOTADB)
                mt_error_set(err, MT_ERR_IO, path, MT_("'%s' is not a Motus project (it is not an SQLite database)"), path);
            else mt_store_sqlerr(s, rc, err);
            return open_fail(s);
        }
        if ((unsigned)app != MT_STORE_APPLICATION_ID) {
            if (app == 0 && nobj == 0 && (flags & MT_STORE_CREATE) && !ro) create = 1; /* an empty database */
            else {
                if (app == 0 && nobj == 0)
                    mt_error_set(err, MT_ERR_IO, path, MT_("'%s' is an empty SQLite database, not a Motus project"), path);
                else if (app == 0)
                    mt_error_set(err, MT_ERR_IO, path, MT_("'%s' is an SQLite database of another program, not a Motus project"), path);
                else
                    mt_error_set(err, MT_ERR_IO, path,
                                 MT_("'%s' is an SQLite database of another program (application id 0x%08x), not a Motus project"),
                                 path, (unsigned)app);
                return open_fail(s);
            }
        } else if (ver > MT_STORE_SCHEMA_VERSION) {
            mt_error_set(err, MT_ERR_IO, path,
                         MT_("'%s' was saved by a newer Motus (project format %lld; this version reads formats up to %d)"),
                         path, ver, MT_STORE_SCHEMA_VERSION);
            return open_fail(s);
        } else if (ver < 1) {
            mt_error_set(err, MT_ERR_IO, path, MT_("'%s' is damaged: it has no project format version"), path);
            return open_fail(s);
        } else if (ver < MT_STORE_SCHEMA_VERSION && ro) {
            mt_error_set(err, MT_ERR_IO, path,
                         MT_("'%s' is in the older project format %lld; open it for writing once to upgrade it"), path, ver);
            return open_fail(s);
        }
        if (!create && !ro) {
            if (set_wal(s, err)) return open_fail(s);
            if (ver < MT_STORE_SCHEMA_VERSION && migrate(s, (int)ver, err)) return open_fail(s);
        }
        if (!create && check_tables(s, err)) return open_fail(s);
    }
    if (create) {
        if (set_wal(s, err) || create_schema(s, err)) return open_fail(s);
    }
    if (mt_store_exec(s, "PRAGMA foreign_keys = ON", err)) return open_fail(s);
    if (!ro && !create) { /* names a newer program added since the file was made */
        if (mt_store_begin(s, err)) return open_fail(s);
        if (fill_vocabularies(s, err) || mt_store_commit(s, err)) {
            mt_store_rollback(s);
            return open_fail(s);
        }
    }
    if (!ro) {
        /* WAL with synchronous=NORMAL: a killed process loses nothing that was
         * committed; a power cut may lose the last transactions, never the
         * consistency of the file. */
        if (mt_store_exec(s, "PRAGMA synchronous = NORMAL", err)) return open_fail(s);
        if (recover_runs(s, err)) return open_fail(s);
    }
    return s;
}

void mt_store_close(MtStore *s)
{
    if (!s) return;
    if (s->db) sqlite3_close_v2(s->db);
    free(s->path);
    free(s);
}

const char *mt_store_path(const MtStore *s) { return s->path; }
int mt_store_readonly(const MtStore *s) { return s->readonly; }
int mt_store_recovered_runs(const MtStore *s) { return s->recovered; }

MtStatus mt_store_check(MtStore *s, MtError *err)
{
    MtError local;
    if (!err) err = &local;
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db, "PRAGMA integrity_check(1)", -1, &st, NULL);
    if (rc) return mt_store_sqlerr(s, rc, err);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        const char *res = (const char *)sqlite3_column_text(st, 0);
        if (res && strcmp(res, "ok")) {
            mt_error_set(err, MT_ERR_IO, s->path, MT_("'%s' is damaged (%s); restore it from a backup"), s->path, res);
            one_line(err->msg);
            sqlite3_finalize(st);
            return MT_ERR_IO;
        }
        sqlite3_finalize(st);
    } else {
        sqlite3_finalize(st);
        return mt_store_sqlerr(s, rc, err);
    }
    rc = sqlite3_prepare_v2(s->db, "PRAGMA foreign_key_check", -1, &st, NULL);
    if (rc) return mt_store_sqlerr(s, rc, err);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        mt_error_set(err, MT_ERR_IO, s->path, MT_("'%s' is inconsistent: a row of table '%s' refers to a missing row of '%s'"),
                     s->path, (const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 2));
        sqlite3_finalize(st);
        return MT_ERR_IO;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? MT_OK : mt_store_sqlerr(s, rc, err);
}

MtStatus mt_store_compact(MtStore *s, MtError *err)
{
    MtError local;
    if (!err) err = &local;
    if (mt_store_need_write(s, err)) return err->code;
    /* a run being written adds pages while VACUUM copies the file: the result
     * was larger than before ("compacted from 8720384 to 9768960 bytes") */
    MtRunInfo *runs = NULL;
    int n = mt_store_list_runs(s, &runs, err);
    if (n < 0) return err->code;
    long busy = 0;
    for (int i = 0; i < n && !busy; i++)
        if (runs[i].status == MT_RUN_RUNNING && runs[i].writer_alive != 0) busy = runs[i].id;
    free(runs);
    if (busy)
        return mt_error_set(err, MT_ERR_ARG, "", MT_("%s: run %ld is still being computed; compact the project when it has "
                                                     "ended (or stop it first)"), s->path, busy);
    if (mt_store_exec(s, "VACUUM", err)) return err->code;
    return mt_store_exec(s, "PRAGMA wal_checkpoint(TRUNCATE)", err);
}
