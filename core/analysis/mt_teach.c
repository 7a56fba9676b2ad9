/* mt_teach.c — the classroom view's quantities from one output frame: the
 * instantaneous centre of velocity, and the free-body diagram of a rigid
 * body built from the frame's result columns (the reactions the solver
 * reported, gravity, springs, force elements, drivers), and the system's
 * momentum. Declared in motus/teach.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "motus/teach.h"

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void cross3(double r[3], const double a[3], const double b[3])
{
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}

int mt_teach_icr(const double c[3], const double vc[3], const double w[3], double p[3])
{
    double w2 = dot3(w, w), v = sqrt(dot3(vc, vc));
    /* |w × vc| / |w|² is the distance to the axis: beyond 1e12 × (|vc| / |w|)… the
     * test below keeps it finite and says "no centre" for a body that does not turn. */
    if (!(w2 > 0) || !isfinite(w2) || sqrt(w2) <= 1e-12 * v) return 0;
    double wv[3];
    cross3(wv, w, vc);
    for (int k = 0; k < 3; k++) p[k] = c[k] + wv[k] / w2;
    return 1;
}

void mt_teach_rotation(const double q[4], double R[9])
{
    double w = q[0], a = q[1], b = q[2], c = q[3], n = sqrt(w * w + a * a + b * b + c * c);
    if (n > 0) w /= n, a /= n, b /= n, c /= n;
    R[0] = 1 - 2 * (b * b + c * c), R[1] = 2 * (a * b - w * c), R[2] = 2 * (a * c + w * b);
    R[3] = 2 * (a * b + w * c), R[4] = 1 - 2 * (a * a + c * c), R[5] = 2 * (b * c - w * a);
    R[6] = 2 * (a * c - w * b), R[7] = 2 * (b * c + w * a), R[8] = 1 - 2 * (a * a + b * b);
}

/* A point given in body axes, in project axes (the ground's axes are the project's). */
static void to_world(const double *pose, int body, const double pb[3], double x[3])
{
    if (body == MT_GROUND) {
        memcpy(x, pb, 3 * sizeof(double));
        return;
    }
    const double *o = pose + 7 * body;
    double R[9];
    mt_teach_rotation(o + 3, R);
    for (int k = 0; k < 3; k++) x[k] = o[k] + R[3 * k] * pb[0] + R[3 * k + 1] * pb[1] + R[3 * k + 2] * pb[2];
}

/* Axis k (0 x, 1 y, 2 z) of marker mk in project axes. */
static void marker_axis(const MtModel *m, const double *pose, int mk, int k, double a[3])
{
    const MtMarkerSpec *s = &m->marker[mk];
    double ab[3] = {s->rot[k], s->rot[3 + k], s->rot[6 + k]};
    if (s->body == MT_GROUND) {
        memcpy(a, ab, sizeof ab);
        return;
    }
    double R[9];
    mt_teach_rotation(pose + 7 * s->body + 3, R);
    for (int r = 0; r < 3; r++) a[r] = R[3 * r] * ab[0] + R[3 * r + 1] * ab[1] + R[3 * r + 2] * ab[2];
}

/* Three columns ENTITY.X ENTITY.Y ENTITY.Z; 0 when any is missing. */
static int column3(MtColumnValueFn value, void *ctx, const char *ent, const char *const suf[3], double v[3])
{
    char name[MT_NAME_MAX + 16];
    for (int k = 0; k < 3; k++) {
        snprintf(name, sizeof name, "%s.%s", ent, suf[k]);
        v[k] = value(ctx, name);
        if (!isfinite(v[k])) return 0;
    }
    return 1;
}

int mt_teach_momentum(const MtModel *m, const double *pose, MtColumnValueFn value, void *ctx, double p[3])
{
    static const char *const vs[3] = {"vx", "vy", "vz"}, *const ws[3] = {"wx", "wy", "wz"};
    double sum[3] = {0, 0, 0};
    p[0] = p[1] = p[2] = 0;
    for (int b = 0; b < m->nbody; b++) {
        double v[3], w[3], R[9], rc[3], wr[3];
        if (!column3(value, ctx, m->body[b].name, vs, v) || !column3(value, ctx, m->body[b].name, ws, w)) return 0;
        mt_teach_rotation(pose + 7 * b + 3, R);
        const double *c = m->body[b].com;
        for (int k = 0; k < 3; k++) rc[k] = R[3 * k] * c[0] + R[3 * k + 1] * c[1] + R[3 * k + 2] * c[2];
        cross3(wr, w, rc);
        for (int k = 0; k < 3; k++) sum[k] += m->body[b].mass * (v[k] + wr[k]);
    }
    memcpy(p, sum, sizeof sum);
    return 1;
}

typedef struct {
    MtFbdArrow *out;
    int n, max;
} Sink;

/* sign·(F, T) acting at point, unless both are zero. */
static void add(Sink *s, MtFbdKind kind, int entity, const double p[3], const double F[3], const double T[3], double sign)
{
    double z[3] = {0, 0, 0};
    if (!T) T = z;
    if (dot3(F, F) == 0 && dot3(T, T) == 0) return;
    if (s->n < s->max) {
        MtFbdArrow *a = &s->out[s->n];
        a->kind = kind;
        a->entity = entity;
        for (int k = 0; k < 3; k++) a->point[k] = p[k], a->force[k] = sign * F[k], a->torque[k] = sign * T[k];
    }
    s->n++;
}

/* The wrench (F, T about marker i's origin) that an element between markers mi and mj reports on mi's
 * body: +1 on that body, −1 on mj's (the same line of action, so the same point and moment). */
static double side(const MtModel *m, int body, int mi, int mj)
{
    if (mi >= 0 && m->marker[mi].body == body) return 1;
    if (mj >= 0 && m->marker[mj].body == body) return -1;
    return 0;
}

static void joints(const MtModel *m, int body, const double *pose, MtColumnValueFn value, void *ctx, Sink *s)
{
    static const char *const fs[3] = {"Fx", "Fy", "Fz"}, *const ts[3] = {"Tx", "Ty", "Tz"};
    for (int j = 0; j < m->njoint; j++) {
        const MtJointSpec *js = &m->joint[j];
        double sg = side(m, body, js->mi, js->mj), F[3], T[3], p[3];
        if (sg == 0 || !column3(value, ctx, js->name, fs, F) || !column3(value, ctx, js->name, ts, T)) continue;
        to_world(pose, m->marker[js->mi].body, m->marker[js->mi].pos, p);
        add(s, MT_FBD_JOINT, j, p, F, T, sg);
    }
}

/* Drivers: the effort acts on the moving body (marker i's) along z_j for a joint's coordinate, along the
 * marker-j axis of a pose component; a rotational effort is a torque. */
static void drivers(const MtModel *m, int body, const double *pose, MtColumnValueFn value, void *ctx, Sink *s)
{
    char name[MT_NAME_MAX + 16];
    for (int d = 0; d < m->ndriver; d++) {
        const MtDriverSpec *ds = &m->driver[d];
        int mi = ds->joint >= 0 ? m->joint[ds->joint].mi : ds->mi, mj = ds->joint >= 0 ? m->joint[ds->joint].mj : ds->mj;
        double sg = side(m, body, mi, mj);
        if (sg == 0) continue;
        snprintf(name, sizeof name, "%s.effort", ds->name);
        double e = value(ctx, name), a[3], F[3] = {0, 0, 0}, T[3] = {0, 0, 0}, p[3];
        if (!isfinite(e)) continue;
        int axis = 2, rot;
        if (ds->joint >= 0) {
            rot = ds->coord == MT_COORD_ANGLE;
            if (ds->coord == MT_COORD_X) axis = 0;
            if (ds->coord == MT_COORD_Y) axis = 1;
        } else {
            rot = ds->comp >= MT_COMP_AX;
            axis = (int)ds->comp % 3;
        }
        marker_axis(m, pose, mj, axis, a);
        for (int k = 0; k < 3; k++) (rot ? T : F)[k] = e * a[k];
        to_world(pose, m->marker[mi].body, m->marker[mi].pos, p);
        add(s, MT_FBD_DRIVER, d, p, F, T, sg);
    }
}

/* Springs pull their two markers together with their tension. */
static void springs(const MtModel *m, int body, const double *pose, MtColumnValueFn value, void *ctx, Sink *s)
{
    char name[MT_NAME_MAX + 16];
    for (int k = 0; k < m->nspring; k++) {
        const MtSpringSpec *sp = &m->spring[k];
        int mine = m->marker[sp->mi].body == body ? sp->mi : m->marker[sp->mj].body == body ? sp->mj : -1;
        if (mine < 0 || m->marker[sp->mi].body == m->marker[sp->mj].body) continue;
        int other = mine == sp->mi ? sp->mj : sp->mi;
        snprintf(name, sizeof name, "%s.force", sp->name);
        double T = value(ctx, name), p[3], q[3], d[3], L;
        if (!isfinite(T)) continue;
        to_world(pose, m->marker[mine].body, m->marker[mine].pos, p);
        to_world(pose, m->marker[other].body, m->marker[other].pos, q);
        for (int c = 0; c < 3; c++) d[c] = q[c] - p[c];
        L = sqrt(dot3(d, d));
        if (!(L > 0)) continue; /* zero length: no direction (and no arrow to draw) */
        double F[3] = {T * d[0] / L, T * d[1] / L, T * d[2] / L};
        add(s, MT_FBD_SPRING, k, p, F, NULL, 1);
    }
}

static void force_elements(const MtModel *m, int body, const double *pose, MtColumnValueFn value, void *ctx, Sink *s)
{
    static const char *const fs[3] = {"Fx", "Fy", "Fz"}, *const ts[3] = {"Tx", "Ty", "Tz"};
    for (int k = 0; k < m->nforce; k++) {
        const MtForceSpec *fs_ = &m->force[k];
        int mi = fs_->mi, mj = fs_->mj;
        if (fs_->kind == MT_FORCE_TORSION || fs_->kind == MT_FORCE_FRICTION)
            mi = m->joint[fs_->joint].mi, mj = m->joint[fs_->joint].mj;
        double sg = side(m, body, mi, mj), F[3], T[3], p[3];
        if (sg == 0 || !column3(value, ctx, fs_->name, fs, F) || !column3(value, ctx, fs_->name, ts, T)) continue;
        to_world(pose, m->marker[mi].body, m->marker[mi].pos, p);
        add(s, MT_FBD_FORCE, k, p, F, T, sg);
    }
}

int mt_teach_fbd(const MtModel *m, int body, const double *pose, MtColumnValueFn value, void *ctx, MtFbdArrow *out,
                 int max, int *missing)
{
    Sink s = {out, 0, out ? max : 0};
    if (missing) *missing = 0;
    if (body < 0 || body >= m->nbody) return 0;
    const MtBodySpec *b = &m->body[body];
    double c[3], W[3] = {b->mass * m->gravity[0], b->mass * m->gravity[1], b->mass * m->gravity[2]};
    to_world(pose, body, b->com, c);
    add(&s, MT_FBD_GRAVITY, -1, c, W, NULL, 1);
    joints(m, body, pose, value, ctx, &s);
    drivers(m, body, pose, value, ctx, &s);
    springs(m, body, pose, value, ctx, &s);
    force_elements(m, body, pose, value, ctx, &s);
    for (int g = 0; missing && g < m->ncouple; g++)
        for (int k = 0; k < m->couple[g].n; k++) {
            const MtJointSpec *js = &m->joint[m->couple[g].joint[k]];
            if (m->marker[js->mi].body == body || m->marker[js->mj].body == body) {
                ++*missing;
                break;
            }
        }
    return s.n;
}
