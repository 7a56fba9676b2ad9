/* mt_columns.c — what a result column holds, in words and as a quantity:
 * "crank.wz" is "crank: angular velocity about z (project axes)", an angular
 * velocity. The plots' units and the column lists' descriptions come from
 * here (one place that knows the columns' suffixes besides mt_output.c,
 * which writes them). Declared in motus/results.h. */
#include <stdio.h>
#include <string.h>

#include "motus/results.h"
#include "mt_i18n.h"
#include "mt_rail.h"

/* The entity part of a column name, and what follows the last '.'. */
static int split(const char *name, char *ent, size_t n, const char **q)
{
    const char *dot = strrchr(name, '.');
    if (!dot || (size_t)(dot - name) >= n) return 0;
    memcpy(ent, name, (size_t)(dot - name));
    ent[dot - name] = 0;
    *q = dot + 1;
    return 1;
}

static int axis(const char *s) { return (s[0] == 'x' || s[0] == 'y' || s[0] == 'z') && !s[1] ? s[0] : 0; }

/* A body's columns: position, quaternion, velocities and accelerations of its frame origin (mt_output.c). */
static int body_column(const char *b, const char *q, MtDim *dim, char *w, size_t n)
{
    int a;
    if ((a = axis(q))) {
        *dim = MT_DIM_LENGTH;
        snprintf(w, n, MT_("body %s: position of the frame origin along %c (project axes)"), b, a);
    } else if (q[0] == 'q' && q[1] >= '0' && q[1] <= '3' && !q[2]) {
        *dim = MT_DIM_NONE;
        snprintf(w, n, MT_("body %s: orientation, quaternion component %c"), b, "wxyz"[q[1] - '0']);
    } else if (q[0] == 'v' && (a = axis(q + 1))) {
        *dim = MT_DIM_VELOCITY;
        snprintf(w, n, MT_("body %s: velocity of the frame origin along %c (project axes)"), b, a);
    } else if (q[0] == 'w' && (a = axis(q + 1))) {
        *dim = MT_DIM_ANGVEL;
        snprintf(w, n, MT_("body %s: angular velocity about %c (project axes)"), b, a);
    } else if (q[0] == 'a' && (a = axis(q + 1))) {
        *dim = MT_DIM_ACCEL;
        snprintf(w, n, MT_("body %s: acceleration of the frame origin along %c (project axes)"), b, a);
    } else if (q[0] == 'e' && (a = axis(q + 1))) {
        *dim = MT_DIM_ANGACC;
        snprintf(w, n, MT_("body %s: angular acceleration about %c (project axes)"), b, a);
    } else
        return 0;
    return 1;
}

/* A joint's reaction (on the body of marker i, project or marker-i axes) and coordinates. */
static int joint_column(const char *j, const char *q, MtDim *dim, char *w, size_t n)
{
    int a = (q[0] == 'F' || q[0] == 'T') && q[1] >= 'x' && q[1] <= 'z' ? q[1] : 0;
    int local = a && !strcmp(q + 2, "_m");
    if (a && (!q[2] || local)) {
        *dim = q[0] == 'F' ? MT_DIM_FORCE : MT_DIM_TORQUE;
        if (q[0] == 'F')
            snprintf(w, n, local ? MT_("joint %s: reaction force on the body of marker i along %c of marker i")
                                 : MT_("joint %s: reaction force on the body of marker i along %c (project axes)"), j, a);
        else
            snprintf(w, n, local ? MT_("joint %s: reaction torque on the body of marker i about %c of marker i")
                                 : MT_("joint %s: reaction torque on the body of marker i about %c (project axes)"), j, a);
    } else if (!strcmp(q, "angle")) {
        *dim = MT_DIM_ANGLE;
        snprintf(w, n, MT_("joint %s: angle of marker i about z of marker j"), j);
    } else if (!strcmp(q, "disp")) {
        *dim = MT_DIM_LENGTH;
        snprintf(w, n, MT_("joint %s: displacement of marker i along z of marker j"), j);
    } else if (!strcmp(q, "x") || !strcmp(q, "y")) {
        *dim = MT_DIM_LENGTH;
        snprintf(w, n, MT_("joint %s: displacement of marker i along %c of marker j"), j, q[0]);
    } else
        return 0;
    return 1;
}

/* A force element's load on marker i, its deflection and power. */
static int force_column(const char *f, const char *q, MtDim *dim, char *w, size_t n)
{
    int a = (q[0] == 'F' || q[0] == 'T') && q[1] >= 'x' && q[1] <= 'z' && !q[2] ? q[1] : 0;
    if (a) {
        *dim = q[0] == 'F' ? MT_DIM_FORCE : MT_DIM_TORQUE;
        snprintf(w, n, q[0] == 'F' ? MT_("force element %s: force on marker i along %c (project axes)")
                                   : MT_("force element %s: torque on marker i about %c (project axes)"), f, a);
    } else if (!strcmp(q, "defl")) {
        *dim = MT_DIM_NONE; /* m or rad, by kind */
        snprintf(w, n, MT_("force element %s: deflection"), f);
    } else if (!strcmp(q, "power")) {
        *dim = MT_DIM_POWER;
        snprintf(w, n, MT_("force element %s: power it takes from the motion"), f);
    } else
        return 0;
    return 1;
}

/* A wheel–rail contact's own columns: per wheel (suffix L or R) and on the track. */
static int wheelrail_column(const char *f, const char *q, MtDim *dim, char *w, size_t n)
{
    static const char *const what[] = {
        MT_N_("wheel–rail contact %s, wheel %c (L left, R right): normal force"),
        MT_N_("wheel–rail contact %s, wheel %c (L left, R right): longitudinal creep force"),
        MT_N_("wheel–rail contact %s, wheel %c (L left, R right): lateral creep force in the contact plane"),
        MT_N_("wheel–rail contact %s, wheel %c (L left, R right): contact point on the wheel, from the tape circle toward the flange"),
        MT_N_("wheel–rail contact %s, wheel %c (L left, R right): contact point on the rail, toward the track centre"),
        MT_N_("wheel–rail contact %s, wheel %c (L left, R right): longitudinal creepage"),
        MT_N_("wheel–rail contact %s, wheel %c (L left, R right): lateral creepage"),
        MT_N_("wheel–rail contact %s, wheel %c (L left, R right): spin creepage, 1/m"),
        MT_N_("wheel–rail contact %s, wheel %c (L left, R right): rolling radius"),
        MT_N_("wheel–rail contact %s, wheel %c (L left, R right): contact angle"),
        MT_N_("wheel–rail contact %s, wheel %c (L left, R right): number of contact patches (0, 1 or 2)")};
    static const MtDim dims[] = {MT_DIM_FORCE, MT_DIM_FORCE, MT_DIM_FORCE, MT_DIM_LENGTH, MT_DIM_LENGTH, MT_DIM_NONE,
                                 MT_DIM_NONE, MT_DIM_NONE, MT_DIM_LENGTH, MT_DIM_ANGLE, MT_DIM_NONE};
    size_t l = strlen(q);
    for (int c = 0; l > 1 && c < MT_RAIL_WHEEL; c++)
        if ((q[l - 1] == 'L' || q[l - 1] == 'R') && strlen(mt_rail_wheel_cols[c]) == l - 1 && !strncmp(q, mt_rail_wheel_cols[c], l - 1)) {
            *dim = dims[c];
            snprintf(w, n, MT_(what[c]), f, q[l - 1]);
            return 1;
        }
    if (!strcmp(q, "s")) *dim = MT_DIM_LENGTH, snprintf(w, n, MT_("wheel–rail contact %s: distance of the wheelset along the track"), f);
    else if (!strcmp(q, "y")) *dim = MT_DIM_LENGTH, snprintf(w, n, MT_("wheel–rail contact %s: lateral offset of the wheelset from the track centre line"), f);
    else if (!strcmp(q, "yaw")) *dim = MT_DIM_ANGLE, snprintf(w, n, MT_("wheel–rail contact %s: yaw angle of the wheelset to the track"), f);
    else return 0;
    return 1;
}

/* Drivers, couplings, springs, controls, the system's energies and flexible bodies. */
static int other_column(const MtModel *m, const char *e, const char *q, MtDim *dim, char *w, size_t n)
{
    for (int d = 0; d < m->ndriver; d++)
        if (!strcmp(m->driver[d].name, e) && !strcmp(q, "effort")) {
            const MtDriverSpec *ds = &m->driver[d];
            int turn = ds->joint >= 0 ? ds->coord == MT_COORD_ANGLE : ds->comp >= MT_COMP_AX;
            *dim = turn ? MT_DIM_TORQUE : MT_DIM_FORCE;
            snprintf(w, n, MT_("driver %s: the torque or force it takes to impose its motion"), e);
            return 1;
        }
    for (int c = 0; c < m->ncouple; c++)
        if (!strcmp(m->couple[c].name, e) && !strcmp(q, "force")) {
            *dim = MT_DIM_FORCE;
            snprintf(w, n, MT_("coupling %s: its force (a gear's contact force)"), e);
            return 1;
        }
    for (int s = 0; s < m->nspring; s++)
        if (!strcmp(m->spring[s].name, e)) {
            if (!strcmp(q, "length")) *dim = MT_DIM_LENGTH, snprintf(w, n, MT_("spring %s: length"), e);
            else if (!strcmp(q, "rate")) *dim = MT_DIM_VELOCITY, snprintf(w, n, MT_("spring %s: rate of extension"), e);
            else if (!strcmp(q, "force")) *dim = MT_DIM_FORCE, snprintf(w, n, MT_("spring %s: tension"), e);
            else return 0;
            return 1;
        }
    if (mt_model_find_control(m, e) >= 0 && (!strcmp(q, "out") || !strcmp(q, "in"))) {
        *dim = MT_DIM_NONE;
        snprintf(w, n, !strcmp(q, "out") ? MT_("control %s: output") : MT_("control %s: input"), e);
        return 1;
    }
    if (!strcmp(e, "system") && (!strcmp(q, "kinetic") || !strcmp(q, "potential") || !strcmp(q, "energy"))) {
        *dim = MT_DIM_ENERGY;
        snprintf(w, n, "%s", !strcmp(q, "kinetic") ? MT_("kinetic energy of the system")
                             : !strcmp(q, "potential") ? MT_("potential energy of the system (gravity and springs)")
                                                       : MT_("total energy of the system"));
        return 1;
    }
    int b = mt_model_find_body(m, e), k;
    if (b >= 0 && !strcmp(q, "elastic")) {
        *dim = MT_DIM_ENERGY;
        snprintf(w, n, MT_("flexible body %s: elastic energy"), e);
        return 1;
    }
    if (b >= 0 && q[0] == 'w' && sscanf(q + 1, "%d", &k) == 1 && k > 0) {
        *dim = MT_DIM_NONE;
        snprintf(w, n, MT_("flexible body %s: modal coordinate %d"), e, k);
        return 1;
    }
    return 0;
}

int mt_column_info(const MtModel *m, const char *name, MtDim *dim, char *words, size_t n)
{
    MtDim d = MT_DIM_NONE;
    char w[512] = "", e[MT_NAME_MAX];
    const char *q;
    int ok = 0, i;
    if (!strcmp(name, "time")) {
        d = MT_DIM_TIME;
        snprintf(w, sizeof w, "%s", MT_("time"));
        ok = 1;
    } else if ((i = mt_model_find_sensor(m, name)) >= 0) {
        d = (MtDim)mt_sensor_dim(m, &m->sensor[i]);
        snprintf(w, sizeof w, MT_("sensor %s: %s"), name, mt_sensor_kind_label(m->sensor[i].kind));
        ok = 1;
    } else if (split(name, e, sizeof e, &q)) {
        if (mt_model_find_body(m, e) >= 0) ok = body_column(e, q, &d, w, sizeof w);
        if (!ok && mt_model_find_joint(m, e) >= 0) ok = joint_column(e, q, &d, w, sizeof w);
        if (!ok && (i = mt_model_find_force(m, e)) >= 0) ok = force_column(e, q, &d, w, sizeof w);
        if (!ok && i >= 0 && m->force[i].kind == MT_FORCE_WHEELRAIL) ok = wheelrail_column(e, q, &d, w, sizeof w);
        if (!ok) ok = other_column(m, e, q, &d, w, sizeof w);
    }
    if (dim) *dim = ok ? d : MT_DIM_NONE;
    if (words && n) snprintf(words, n, "%s", ok ? w : "");
    return ok;
}
