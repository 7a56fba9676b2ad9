/* mt_labels.c — the words the interface shows for kinds of entities (a joint's
 * type, a force element's, a sensor's, a shape's, a coupling's), translated.
 *
 * The model format's keywords (mt_joint_type_name …) stay English and terse
 * ("angvel", "inline"); a person reading the model tree or an undo label in
 * Russian or Chinese gets these instead. Each table's words are looked up
 * under a gettext context naming the kind of entity, so that one English word
 * used for two kinds ("distance": a joint and a sensor) can be translated with
 * the grammatical gender each needs. Declared in motus/model.h. */
#include <stdio.h>
#include <string.h>

#include "mt_i18n.h"
#include "motus/model.h"

const char *mt_pgettext(const char *context, const char *msgid)
{
    /* gettext stores a message with a context as "context\004msgid"; when it
     * has no translation it hands back the key, and then the English word is
     * the answer (the key itself lives only in this frame). */
    char key[256];
    if (snprintf(key, sizeof key, "%s\004%s", context, msgid) >= (int)sizeof key) return msgid;
    const char *t = dgettext(MT_TEXT_DOMAIN, key);
    return t == key ? msgid : t;
}

static const char *const joint_labels[MT_JOINT_NTYPES] = {
    MT_NC_("joint type", "spherical"),      MT_NC_("joint type", "revolute"),
    MT_NC_("joint type", "prismatic"),      MT_NC_("joint type", "cylindrical"),
    MT_NC_("joint type", "universal"),      MT_NC_("joint type", "fixed"),
    MT_NC_("joint type", "planar"),         MT_NC_("joint type", "screw"),
    MT_NC_("joint type", "point on line"),  MT_NC_("joint type", "point on plane"),
    MT_NC_("joint type", "distance"),       MT_NC_("joint type", "rolling disk"),
    MT_NC_("joint type", "rolling ball")};

static const char *const force_labels[MT_FORCE_NKINDS] = {
    MT_NC_("force element", "torsion spring"), MT_NC_("force element", "bushing"),
    MT_NC_("force element", "joint friction"), MT_NC_("force element", "contact"),
    MT_NC_("force element", "shock strut"),    MT_NC_("force element", "tyre"),
    MT_NC_("force element", "actuator"),       MT_NC_("force element", "drag"),
    MT_NC_("force element", "wheel–rail contact")};

static const char *const sensor_labels[MT_SENSOR_NKINDS] = {
    MT_NC_("sensor", "position"),          MT_NC_("sensor", "velocity"),
    MT_NC_("sensor", "acceleration"),      MT_NC_("sensor", "angular velocity"),
    MT_NC_("sensor", "angular acceleration"), MT_NC_("sensor", "distance"),
    MT_NC_("sensor", "reaction"),          MT_NC_("sensor", "energy"),
    MT_NC_("sensor", "expression"),        MT_NC_("sensor", "force"),
    MT_NC_("sensor", "angle"),             MT_NC_("sensor", "joint coordinate"),
    MT_NC_("sensor", "deformation"),       MT_NC_("sensor", "deformation rate"),
    MT_NC_("sensor", "deformation acceleration"), MT_NC_("sensor", "stress")};

static const char *const shape_labels[MT_SHAPE_NKINDS] = {
    MT_NC_("shape", "box"),     MT_NC_("shape", "cylinder"), MT_NC_("shape", "sphere"),
    MT_NC_("shape", "capsule"), MT_NC_("shape", "bar"),      MT_NC_("shape", "mesh")};

static const char *const couple_labels[] = {MT_NC_("coupling", "gear"), MT_NC_("coupling", "rack"),
                                            MT_NC_("coupling", "linear coupler")};

/* Choices of the inspector's fields (field NULL: any field) and their words. */
static const struct {
    const char *field, *value, *context, *label;
} choice_labels[] = {
    {"level", "disp", "driver prescribes", MT_NC_("driver prescribes", "position")},
    {"level", "vel", "driver prescribes", MT_NC_("driver prescribes", "velocity")},
    {"level", "acc", "driver prescribes", MT_NC_("driver prescribes", "acceleration")},
    {"law", "poly", "driver law", MT_NC_("driver law", "polynomial")},
    {"law", "rate", "driver law", MT_NC_("driver law", "constant rate")},
    {"law", "harmonic", "driver law", MT_NC_("driver law", "harmonic")},
    {"law", "step", "driver law", MT_NC_("driver law", "smooth step")},
    {"law", "table", "driver law", MT_NC_("driver law", "table (spline)")},
    {"method", "rk4", "integrator", MT_NC_("integrator", "RK4, fixed step")},
    {"method", "dp54", "integrator", MT_NC_("integrator", "Dormand–Prince 5(4), adaptive")},
    {"method", "adams", "integrator", MT_NC_("integrator", "Adams–Bashforth–Moulton, variable order")},
    {"method", "euler", "integrator", MT_NC_("integrator", "implicit Euler")},
    {"method", "park", "integrator", MT_NC_("integrator", "Park, implicit")},
    {"method", "hht", "integrator", MT_NC_("integrator", "HHT-α, implicit")},
    {"method", "galpha", "integrator", MT_NC_("integrator", "generalised-α, implicit")},
    {"loops", "baumgarte", "closed loops", MT_NC_("closed loops", "Baumgarte stabilisation")},
    {"loops", "lagrange", "closed loops", MT_NC_("closed loops", "Lagrange multipliers only")},
    {"loops", "penalty", "closed loops", MT_NC_("closed loops", "penalty")},
    {"loops", "mlf", "closed loops", MT_NC_("closed loops", "modified Lagrange function")},
    {NULL, "off", "switch", MT_NC_("switch", "off")},
    {NULL, "on", "switch", MT_NC_("switch", "on")},
};

const char *mt_edit_choice_label(const char *field, const char *value)
{
    if (!value) return "";
    MtJointType t;
    if (field && !strcmp(field, "type") && !mt_joint_type_from_name(value, &t)) return mt_joint_type_label(t);
    for (size_t i = 0; i < sizeof choice_labels / sizeof *choice_labels; i++) {
        const char *f = choice_labels[i].field;
        if ((!f || (field && !strcmp(f, field))) && !strcmp(choice_labels[i].value, value))
            return mt_pgettext(choice_labels[i].context, choice_labels[i].label);
    }
    return value;
}

/* Entry k of a table of n words, looked up under its context; "?" out of range. */
static const char *word(const char *context, const char *const *table, int n, int k)
{
    return k >= 0 && k < n ? mt_pgettext(context, table[k]) : "?";
}

const char *mt_joint_type_label(MtJointType t) { return word("joint type", joint_labels, MT_JOINT_NTYPES, (int)t); }
const char *mt_force_kind_label(MtForceKind k) { return word("force element", force_labels, MT_FORCE_NKINDS, (int)k); }
const char *mt_sensor_kind_label(MtSensorKind k) { return word("sensor", sensor_labels, MT_SENSOR_NKINDS, (int)k); }
const char *mt_shape_kind_label(MtShapeKind k) { return word("shape", shape_labels, MT_SHAPE_NKINDS, (int)k); }
const char *mt_couple_kind_label(MtCoupleKind k) { return word("coupling", couple_labels, MT_COUPLE_LINEAR + 1, (int)k); }
