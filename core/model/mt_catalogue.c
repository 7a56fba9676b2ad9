/* mt_catalogue.c — the model's vocabularies of kinds: the keywords of force
 * elements, contact geometries, sensors, controls, event actions and loop
 * methods, the parameter names of each kind, and adding and finding such
 * entities in a model with the defaults a user would expect. The model's
 * reader, writer, store and editor name kinds through these; the engine
 * (mt_forces.c, mt_sensors.c, mt_controls.c) computes what they do. Declared in motus/model.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mt_flexdata.h"
#include "mt_i18n.h"
#include "motus/model.h"
#include "motus/units.h"

/* ---- force elements ------------------------------------------------------- */

static const char *const force_kinds[MT_FORCE_NKINDS] = {"torsion", "bushing", "friction", "contact",
                                                        "strut", "tyre", "actuator", "drag", "wheelrail"};
static const char *const torsion_p[] = {"k", "c", "angle0", "preload", NULL};
/* bushing: the diagonals of K and C, then their off-diagonal entries kij, cij
 * (row i = load component, column j = deflection component, 1..6 = x y z
 * and rotations about x y z), unset (NaN) meaning 0 */
static const char *const bushing_p[] = {"kx", "ky", "kz", "ktx", "kty", "ktz", "cx", "cy", "cz", "ctx", "cty", "ctz",
    "k12", "k13", "k14", "k15", "k16", "k21", "k23", "k24", "k25", "k26", "k31", "k32", "k34", "k35", "k36", "k41",
    "k42", "k43", "k45", "k46", "k51", "k52", "k53", "k54", "k56", "k61", "k62", "k63", "k64", "k65", "c12", "c13",
    "c14", "c15", "c16", "c21", "c23", "c24", "c25", "c26", "c31", "c32", "c34", "c35", "c36", "c41", "c42", "c43",
    "c45", "c46", "c51", "c52", "c53", "c54", "c56", "c61", "c62", "c63", "c64", "c65", NULL};
static const char *const friction_p[] = {"mu", "mus", "vs", "eps", "viscous", "radius", "preload", "sigma0", "sigma1", NULL};
static const char *const contact_p[] = {"radius", "radius2", "lx", "ly", "lz", "k", "exp", "e", "mu", "eps", "vmin", NULL};
static const char *const strut_p[] = {"area", "pressure", "volume", "n", "patm", "orifice", "cd", "rho", "harea",
                                      "stroke", "friction", "kstop", "length", NULL};
static const char *const tyre_p[] = {"radius", "kr", "cr", "cslip", "calpha", "mu", "eps", NULL};
static const char *const actuator_p[] = {NULL};
static const char *const drag_p[] = {"rho", "cd", "area", "windx", "windy", "windz", NULL};
/* wheelrail: in the order of mt_rail.h's WR_ slots */
static const char *const wheelrail_p[] = {"radius", "b", "conicity", "flange", "flange_angle", "flange_height", "crown",
    "corner", "head", "kn", "cn", "mu", "f11", "f22", "f23", "f33", "n0", "saturation", "vmin", "straight", "transition",
    "curve_radius", "curve_length", "cant", "length", "psd", "seed", "lmin", "lmax", "fade", NULL};
static const char *const *const force_params[MT_FORCE_NKINDS] = {torsion_p, bushing_p, friction_p, contact_p,
                                                                strut_p, tyre_p, actuator_p, drag_p, wheelrail_p};
static const char *const geom_kinds[MT_CONTACT_NGEOM] = {"sphere-plane",  "point-plane",  "box-plane",
                                                         "sphere-sphere", "point-sphere", "box-sphere"};

/* Index in p of bushing matrix entry (i, j) of K (c = 0) or C (c = 1), 0-based. */
const char *const mt_wheelrail_table_keys[4] = {"wheel", "rail", "vertical", "lateral"};
static const char *const psd_names[3] = {"none", "low", "high"};
const char *mt_wheelrail_psd_name(int w) { return w >= 0 && w < 3 ? psd_names[w] : "?"; }
int mt_wheelrail_psd_from_name(const char *s)
{
    for (int i = 0; i < 3; i++)
        if (!strcmp(s, psd_names[i])) return i;
    return -1;
}

const char *mt_force_kind_name(MtForceKind k) { return (k >= 0 && k < MT_FORCE_NKINDS) ? force_kinds[k] : "?"; }
const char *const *mt_force_param_names(MtForceKind k) { return (k >= 0 && k < MT_FORCE_NKINDS) ? force_params[k] : actuator_p; }
const char *mt_contact_geom_name(MtContactGeom g) { return (g >= 0 && g < MT_CONTACT_NGEOM) ? geom_kinds[g] : "?"; }

int mt_force_kind_from_name(const char *s, MtForceKind *k)
{
    for (int i = 0; i < MT_FORCE_NKINDS; i++)
        if (!strcmp(s, force_kinds[i])) { *k = (MtForceKind)i; return 0; }
    return -1;
}

int mt_contact_geom_from_name(const char *s, MtContactGeom *g)
{
    for (int i = 0; i < MT_CONTACT_NGEOM; i++)
        if (!strcmp(s, geom_kinds[i])) { *g = (MtContactGeom)i; return 0; }
    return -1;
}

int mt_model_find_force(const MtModel *m, const char *name)
{
    for (int i = 0; i < m->nforce; i++)
        if (!strcmp(m->force[i].name, name)) return i;
    return -1;
}

int mt_model_add_force(MtModel *m, const char *name, MtForceKind kind, int mi, int mj, int joint, MtError *err)
{
    if (!name || !name[0] || strlen(name) >= MT_NAME_MAX || strpbrk(name, ".#\" \t")) {
        mt_error_set(err, MT_ERR_MODEL, name ? name : "", MT_("force '%s': give it a name without spaces or dots"), name ? name : "");
        return -1;
    }
    if (mt_model_find_force(m, name) >= 0 || mt_model_find_joint(m, name) >= 0) {
        mt_error_set(err, MT_ERR_MODEL, name, MT_("force '%s': a joint or force of that name already exists"), name);
        return -1;
    }
    if (m->nforce == m->cap_force) {
        int nc = m->cap_force ? 2 * m->cap_force : 8;
        MtForceSpec *p = realloc(m->force, sizeof *p * (size_t)nc);
        if (!p) {
            mt_error_set(err, MT_ERR_NOMEM, name, "%s", MT_("out of memory"));
            return -1;
        }
        m->force = p;
        m->cap_force = nc;
    }
    MtForceSpec *f = &m->force[m->nforce];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    f->kind = kind;
    f->mi = mi;
    f->mj = mj;
    f->joint = joint;
    double *p = f->p;
    switch (kind) { /* defaults a user would expect */
    case MT_FORCE_FRICTION: p[1] = NAN; p[2] = 1e-2; p[3] = 1e-4; break; /* mus = mu unless given */
    case MT_FORCE_CONTACT: p[6] = 1.5; p[7] = 0.8; p[9] = 1e-4; p[10] = 1e-3; break;
    case MT_FORCE_STRUT: p[3] = 1.3; p[4] = 101325; p[6] = 0.7; p[7] = 850; p[8] = NAN; p[11] = 1e8; p[12] = NAN; break;
    case MT_FORCE_TYRE: p[5] = 0.9; p[6] = 0.1; break;
    case MT_FORCE_BUSHING: for (int q = 12; q < 72; q++) p[q] = NAN; break; /* off-diagonal entries not given */
    case MT_FORCE_DRAG: p[0] = 1.225; p[1] = 1; break;
    case MT_FORCE_WHEELRAIL: { /* a standard-gauge wheelset with a 1:20 cone on a 300 mm crown, a 13 mm gauge corner */
        static const double d[] = {0.45, 0.75, 0.05, 0.025, 70 * M_PI / 180, 0.028, 0.3, 0.013, 0.036, 1e11, 1e5, 0.3,
                                   1e7, 1e7, 0, 0, 0, 1, 0.1, 0, 0, 0, 0, 0, 2000, 0, 1, 1, 100, 20};
        memcpy(p, d, sizeof d);
        break;
    }
    default: break;
    }
    return m->nforce++;
}

/* ---- controls, events, loops --------------------------------------------- */

/* The keyword lists of the model's enumerations (motus/schema.h), in the order of their values. */
const char *const mt_control_kind_names[] = {"pid", "lag", "second", NULL};
const char *const mt_action_names[] = {"stop", "break", "lock", "enable", "disable", NULL};
const char *const mt_level_names[] = {"disp", "vel", "acc", NULL};
const char *const mt_law_names[] = {"poly", "rate", "harmonic", "step", "table", "expr", NULL};
const char *const mt_part_names[] = {"total", "constraint", "friction", "driver", NULL};
const char *const mt_energy_names[] = {"kinetic", "potential", "total", "elastic", NULL};
const char *const mt_couple_names[] = {"gear", "rack", "coupler", NULL};
const char *const mt_reduce_names[] = {"free", "cb", "guyan", "attach", NULL, "modes", "free", NULL};
/* a flexible body's elastic state at t = 0: what the assembly gives, or undeformed and at rest */
const char *const mt_flex_initial_names[] = {"assembled", "rest", NULL, NULL};
const char *const mt_vector_comp_names[] = {"x", "y", "z", "mag", NULL};
/* loads: force and moment components, their magnitudes, then a force element's deflection, power and energy;
 * an actuator's expressions are the first six */
const char *const mt_load_comp_names[] = {"fx", "fy", "fz", "tx", "ty", "tz", "f", "t", "defl", "power", "energy", NULL};
const char *const mt_loop_methods[] = {"baumgarte", "lagrange", "penalty", "mlf", NULL, NULL}; /* no aliases */

const char *mt_control_kind_name(MtControlKind k) { return (k >= 0 && k < MT_CONTROL_NKINDS) ? mt_control_kind_names[k] : "?"; }
const char *mt_event_action_name(MtEventAction a) { return (a >= 0 && a <= MT_ACTION_DISABLE) ? mt_action_names[a] : "?"; }
const char *mt_loop_method_name(int m) { return (m >= 0 && m <= MT_LOOPS_MLF) ? mt_loop_methods[m] : "?"; }

const char *const *mt_control_param_names(MtControlKind k)
{
    static const char *const pid[] = {"kp", "ki", "kd", "tf", NULL}, *const lag[] = {"k", "tau", NULL},
                             *const sec[] = {"k", "wn", "zeta", NULL};
    return k == MT_CONTROL_PID ? pid : k == MT_CONTROL_LAG ? lag : sec;
}

int mt_control_kind_from_name(const char *s, MtControlKind *k)
{
    for (int i = 0; i < MT_CONTROL_NKINDS; i++)
        if (!strcmp(s, mt_control_kind_names[i])) { *k = (MtControlKind)i; return 0; }
    return -1;
}

int mt_loop_method_from_name(const char *s, int *m)
{
    for (int i = 0; i <= MT_LOOPS_MLF; i++)
        if (!strcmp(s, mt_loop_methods[i])) { *m = i; return 0; }
    return -1;
}

int mt_model_find_control(const MtModel *m, const char *name)
{
    for (int i = 0; i < m->ncontrol; i++)
        if (!strcmp(m->control[i].name, name)) return i;
    return -1;
}

static int grow(void **arr, int *cap, int n, size_t size)
{
    if (n < *cap) return 0;
    int nc = *cap ? 2 * *cap : 8;
    void *p = realloc(*arr, (size_t)nc * size);
    if (!p) return -1;
    *arr = p;
    *cap = nc;
    return 0;
}

static int bad_name(const char *name)
{
    return !name || !name[0] || strlen(name) >= MT_NAME_MAX || strpbrk(name, ".#\" \t{}");
}

int mt_model_add_control(MtModel *m, const char *name, MtControlKind kind, MtError *err)
{
    if (bad_name(name)) {
        mt_error_set(err, MT_ERR_MODEL, name ? name : "", MT_("control '%s': give it a name without spaces, dots or braces"),
                     name ? name : "");
        return -1;
    }
    if (mt_model_find_control(m, name) >= 0 || mt_model_find_param(m, name) >= 0 || mt_model_find_sensor(m, name) >= 0) {
        mt_error_set(err, MT_ERR_MODEL, name, MT_("control '%s': a control, parameter or sensor of that name already exists"), name);
        return -1;
    }
    if (grow((void **)&m->control, &m->cap_control, m->ncontrol, sizeof *m->control)) {
        mt_error_set(err, MT_ERR_NOMEM, name, "%s", MT_("out of memory"));
        return -1;
    }
    MtControlSpec *c = &m->control[m->ncontrol];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->kind = kind;
    if (kind == MT_CONTROL_PID) { c->p[3] = 1e-3; c->p[4] = -INFINITY; c->p[5] = INFINITY; }
    else { c->p[0] = 1; c->p[1] = kind == MT_CONTROL_LAG ? 0.1 : 10; c->p[2] = kind == MT_CONTROL_LAG ? -INFINITY : 0.7;
           c->p[3] = kind == MT_CONTROL_LAG ? INFINITY : -INFINITY; c->p[4] = INFINITY; }
    return m->ncontrol++;
}

int mt_model_add_event(MtModel *m, const char *name, MtError *err)
{
    if (bad_name(name)) {
        mt_error_set(err, MT_ERR_MODEL, name ? name : "", MT_("event '%s': give it a name without spaces, dots or braces"),
                     name ? name : "");
        return -1;
    }
    for (int i = 0; i < m->nevent; i++)
        if (!strcmp(m->event[i].name, name)) {
            mt_error_set(err, MT_ERR_MODEL, name, MT_("event '%s' is defined twice"), name);
            return -1;
        }
    if (grow((void **)&m->event, &m->cap_event, m->nevent, sizeof *m->event)) {
        mt_error_set(err, MT_ERR_NOMEM, name, "%s", MT_("out of memory"));
        return -1;
    }
    MtEventSpec *e = &m->event[m->nevent];
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name);
    e->target = -1;
    return m->nevent++;
}

/* ---- sensors ---------------------------------------------------------------- */

static const char *const sensor_kinds[MT_SENSOR_NKINDS] = {"position", "velocity", "acceleration", "angvel", "angacc",
                                                         "distance", "reaction", "energy", "expr", "force", "angle",
                                                         "joint", "deformation", "deformation_rate", "deformation_acc",
                                                         "stress"};

const char *mt_sensor_kind_name(MtSensorKind k) { return (k >= 0 && k < MT_SENSOR_NKINDS) ? sensor_kinds[k] : "?"; }

int mt_sensor_dim(const MtModel *m, const MtSensorSpec *s)
{
    /* loads: components 0..2 and 6 are forces, 3..5 and 7 moments */
    int load = s->comp == 6 || (s->comp >= 0 && s->comp < 3) ? MT_DIM_FORCE : MT_DIM_TORQUE;
    switch (s->kind) {
    case MT_SENSOR_POSITION:
    case MT_SENSOR_DISTANCE:
    case MT_SENSOR_DEFORM: return MT_DIM_LENGTH;
    case MT_SENSOR_VELOCITY:
    case MT_SENSOR_DEFORM_VEL: return MT_DIM_VELOCITY;
    case MT_SENSOR_ACCELERATION:
    case MT_SENSOR_DEFORM_ACC: return MT_DIM_ACCEL;
    case MT_SENSOR_ANGVEL: return MT_DIM_ANGVEL;
    case MT_SENSOR_ANGACC: return MT_DIM_ANGACC;
    case MT_SENSOR_ANGLE: return MT_DIM_ANGLE;
    case MT_SENSOR_ENERGY: return MT_DIM_ENERGY;
    case MT_SENSOR_STRESS: return MT_DIM_PRESSURE;
    case MT_SENSOR_REACTION: return load;
    case MT_SENSOR_FORCE:
        if (s->comp == 9) return MT_DIM_POWER;
        if (s->comp == 10) return MT_DIM_ENERGY;
        if (s->comp == 8) /* deflection: an angle for elements acting about a joint's axis */
            return s->force >= 0 && s->force < m->nforce &&
                           (m->force[s->force].kind == MT_FORCE_TORSION ||
                            (m->force[s->force].joint >= 0 && m->force[s->force].joint < m->njoint &&
                             mt_joint_default_coord(m->joint[m->force[s->force].joint].type) == MT_COORD_ANGLE &&
                             m->force[s->force].kind == MT_FORCE_FRICTION))
                       ? MT_DIM_ANGLE
                       : MT_DIM_LENGTH;
        return load;
    case MT_SENSOR_JOINT: {
        int angle = s->coord == MT_COORD_ANGLE;
        return s->comp == 1 ? (angle ? MT_DIM_ANGVEL : MT_DIM_VELOCITY) : (angle ? MT_DIM_ANGLE : MT_DIM_LENGTH);
    }
    default: return -1;
    }
}

int mt_sensor_kind_from_name(const char *s, MtSensorKind *k)
{
    for (int i = 0; i < MT_SENSOR_NKINDS; i++)
        if (!strcmp(s, sensor_kinds[i])) { *k = (MtSensorKind)i; return 0; }
    return -1;
}

int mt_model_find_sensor(const MtModel *m, const char *name)
{
    for (int i = 0; i < m->nsensor; i++)
        if (!strcmp(m->sensor[i].name, name)) return i;
    return -1;
}

int mt_model_add_sensor(MtModel *m, const char *name, MtSensorKind kind, MtError *err)
{
    if (!name || !name[0] || strlen(name) >= MT_NAME_MAX || strpbrk(name, ".#\" \t{}")) {
        mt_error_set(err, MT_ERR_MODEL, name ? name : "", MT_("sensor '%s': give it a name without spaces, dots or braces"),
                     name ? name : "");
        return -1;
    }
    if (mt_model_find_sensor(m, name) >= 0 || mt_model_find_body(m, name) >= 0 || mt_model_find_joint(m, name) >= 0 ||
        mt_model_find_param(m, name) >= 0) {
        mt_error_set(err, MT_ERR_MODEL, name, MT_("sensor '%s': a sensor, body, joint or parameter of that name already exists"), name);
        return -1;
    }
    if (m->nsensor == m->cap_sensor) {
        int nc = m->cap_sensor ? 2 * m->cap_sensor : 8;
        MtSensorSpec *p = realloc(m->sensor, sizeof *p * (size_t)nc);
        if (!p) {
            mt_error_set(err, MT_ERR_NOMEM, name, "%s", MT_("out of memory"));
            return -1;
        }
        m->sensor = p;
        m->cap_sensor = nc;
    }
    MtSensorSpec *s = &m->sensor[m->nsensor];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    s->kind = kind;
    s->mi = s->mj = s->mframe = s->joint = s->body = s->force = s->spring = -1;
    s->coord = MT_COORD_NONE;
    s->comp = 3;
    return m->nsensor++;
}

/* Load of constraint block k on the body of the block's marker i, about that marker's origin. */

/* ---- flexible bodies -------------------------------------------------------- */

MtFlexData *mt_flex_data_ref(MtFlexData *d)
{
    if (d) __atomic_add_fetch(&d->refs, 1, __ATOMIC_RELAXED);
    return d;
}

void mt_flex_data_unref(MtFlexData *d)
{
    if (!d || __atomic_sub_fetch(&d->refs, 1, __ATOMIC_ACQ_REL) > 0) return;
    if (d->free_body) d->free_body(d->body);
    free(d->mname);
    free(d->mnode);
    free(d);
}

int mt_flex_data_marker_node(const MtFlexData *d, const char *marker)
{
    for (int i = 0; i < d->nmarker; i++)
        if (!strcmp(d->mname[i], marker)) return d->mnode[i];
    return 0;
}

int mt_model_body_flex(const MtModel *m, int body)
{
    if (body < 0) return -1;
    for (int i = 0; i < m->nflex; i++)
        if (m->flex[i].body == body) return i;
    return -1;
}

int mt_model_add_flex(MtModel *m, int body, MtFlexSource source, MtError *err)
{
    if (body < 0 || body >= m->nbody) {
        mt_error_set(err, MT_ERR_ARG, "", MT_("a flexible body needs a body (not the ground)"));
        return -1;
    }
    const char *name = m->body[body].name;
    if (mt_model_body_flex(m, body) >= 0) {
        mt_error_set(err, MT_ERR_MODEL, name, MT_("body '%s': it is flexible already (one 'flexible' line per body)"), name);
        return -1;
    }
    if (m->nflex == m->cap_flex) {
        int nc = m->cap_flex ? 2 * m->cap_flex : 4;
        MtFlexSpec *p = realloc(m->flex, sizeof *p * (size_t)nc);
        if (!p) {
            mt_error_set(err, MT_ERR_NOMEM, name, MT_("body '%s': out of memory"), name);
            return -1;
        }
        m->flex = p;
        m->cap_flex = nc;
    }
    MtFlexSpec *f = &m->flex[m->nflex];
    memset(f, 0, sizeof *f);
    mt_schema_defaults(MT_ENT_FLEX, f); /* cb, 6 modes, ζ = 0.01, ν = 0.3 */
    f->body = body;
    f->source = source;
    return m->nflex++;
}

void mt_model_flex_invalidate(MtModel *m, int spec)
{
    if (spec < 0 || spec >= m->nflex) return;
    mt_flex_data_unref(m->flex[spec].data);
    m->flex[spec].data = NULL;
}

