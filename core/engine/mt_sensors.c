/* mt_sensors.c — sensors (measures): named scalar channels computed from a
 * solved state — marker positions, velocities and accelerations (relative,
 * in any marker's axes), angular velocities and accelerations, distances,
 * joint reactions split into constraint, friction and driver parts, body and
 * system energies. Expression sensors are evaluated by the output stage,
 * which knows every result column (mt_output.c). */
#include <stdlib.h>
#include <string.h>

#include "mt_flex.h"
#include "mt_forces.h"
#include "mt_i18n.h"
#include "mt_kin.h"
#include "mt_sensors.h"
#include "motus/units.h"

static void block_load(const MtState *st, int k, double F[3], double T[3])
{
    const MtCBlock *b = &st->sys->block[k];
    const double *G = mt_state_G(st, k, 0), *lam = st->lambda + b->row0;
    double Tc[3] = {0, 0, 0}, rf[3];
    mt_v3_set(F, 0, 0, 0);
    for (int r = 0; r < b->nrow; r++) {
        mt_v3_axpy(F, lam[r], G + 6 * r);
        mt_v3_axpy(Tc, lam[r], G + 6 * r + 3);
    }
    MtMk I;
    mt_marker_eval(st, st->q, st->u, b->mi, &I);
    mt_v3_cross(rf, I.r, F);
    mt_v3_sub(T, Tc, rf);
}

/* Vector v (project axes) in the axes of marker mframe, then the component. */
static double component(const MtState *st, const double *v, int mframe, int comp)
{
    double w[3];
    if (mframe >= 0) {
        MtMk F;
        mt_marker_eval(st, st->q, st->u, mframe, &F);
        for (int a = 0; a < 3; a++) w[a] = mt_v3_dot(F.ax[a], v);
    } else mt_v3_copy(w, v);
    return comp >= 0 && comp < 3 ? w[comp] : mt_v3_norm(w);
}

/* Acceleration of marker mk's origin from the solved body accelerations. */
static void marker_acc(const MtState *st, int mk, double a[3], double eps[3])
{
    const MtSystem *s = st->sys;
    int b = s->mbody[mk];
    mt_v3_set(a, 0, 0, 0);
    mt_v3_set(eps, 0, 0, 0);
    if (b < 0) return;
    if (s->mflex && s->mflex[mk] >= 0) {
        mt_flex_marker_acc(st, mk, a, eps);
        return;
    }
    MtMk I;
    mt_marker_eval(st, st->q, st->u, mk, &I);
    const double *ac = st->acc + 6 * b;
    double t1[3];
    mt_v3_copy(eps, ac + 3);
    mt_v3_cross(t1, eps, I.r);
    mt_v3_add(a, ac, t1);
    mt_v3_cross(t1, I.w, I.r);
    mt_v3_cross(t1, I.w, t1);
    mt_v3_add(a, a, t1);
}

/* Elastic energy of the springs and force elements acting on body b (b < 0: all of them). */
static double elastic(const MtState *st, int b)
{
    const MtSystem *s = st->sys;
    const MtModel *m = s->model;
    double E = 0;
    for (int k = 0; k < m->nspring; k++) {
        const MtSpringSpec *sp = &m->spring[k];
        if (b >= 0 && s->mbody[sp->mi] != b && s->mbody[sp->mj] != b) continue;
        double L, Ld, ten;
        mt_spring_state(st, st->q, st->u, k, &L, &Ld, &ten);
        E += 0.5 * sp->k * (L - sp->length) * (L - sp->length) + sp->preload * L;
    }
    for (int k = 0; k < m->nforce; k++) {
        const MtForceSpec *f = &m->force[k];
        int mi = f->joint >= 0 ? m->joint[f->joint].mi : f->mi, mj = f->joint >= 0 ? m->joint[f->joint].mj : f->mj;
        if (b >= 0 && s->mbody[mi] != b && (mj < 0 || s->mbody[mj] != b)) continue;
        E += st->fout[MT_FOUT * k + 8];
    }
    return E;
}

/* Load, deflection, power and energy of a spring, laid out like a force element's record. */
static void spring_record(const MtState *st, int k, double *o)
{
    const MtSpringSpec *sp = &st->sys->model->spring[k];
    double L, Ld, ten;
    mt_spring_state(st, st->q, st->u, k, &L, &Ld, &ten);
    memset(o, 0, MT_FOUT * sizeof(double));
    if (L > 0) {
        MtMk I, J;
        mt_marker_eval(st, st->q, st->u, sp->mi, &I);
        mt_marker_eval(st, st->q, st->u, sp->mj, &J);
        double n[3];
        mt_v3_sub(n, J.p, I.p);
        mt_v3_scale(o, n, ten / L); /* tension pulls i towards j */
    }
    o[6] = L - sp->length;
    o[7] = -ten * Ld;
    o[8] = sp->curve[0] ? NAN : 0.5 * sp->k * (L - sp->length) * (L - sp->length) + sp->preload * L;
}

double mt_sensor_value(const MtState *st, int k)
{
    const MtSystem *s = st->sys;
    const MtSensorSpec *sn = &s->model->sensor[k];
    double v[3] = {0, 0, 0};
    switch (sn->kind) {
    case MT_SENSOR_POSITION:
    case MT_SENSOR_VELOCITY:
    case MT_SENSOR_ANGVEL:
    case MT_SENSOR_DISTANCE: {
        MtMk I, J;
        mt_marker_eval(st, st->q, st->u, sn->mi, &I);
        if (sn->mj >= 0) mt_marker_eval(st, st->q, st->u, sn->mj, &J);
        else memset(&J, 0, sizeof J);
        const double *a = sn->kind == MT_SENSOR_VELOCITY ? I.vp : sn->kind == MT_SENSOR_ANGVEL ? I.w : I.p;
        const double *b = sn->kind == MT_SENSOR_VELOCITY ? J.vp : sn->kind == MT_SENSOR_ANGVEL ? J.w : J.p;
        mt_v3_sub(v, a, b);
        if (sn->kind == MT_SENSOR_DISTANCE) return mt_v3_norm(v);
        return component(st, v, sn->mframe, sn->comp);
    }
    case MT_SENSOR_ACCELERATION:
    case MT_SENSOR_ANGACC: {
        double ai[3], ei[3], aj[3], ej[3];
        marker_acc(st, sn->mi, ai, ei);
        if (sn->mj >= 0) marker_acc(st, sn->mj, aj, ej);
        else { mt_v3_set(aj, 0, 0, 0); mt_v3_set(ej, 0, 0, 0); }
        if (sn->kind == MT_SENSOR_ACCELERATION) mt_v3_sub(v, ai, aj);
        else mt_v3_sub(v, ei, ej);
        return component(st, v, sn->mframe, sn->comp);
    }
    case MT_SENSOR_REACTION: {
        double F[3] = {0, 0, 0}, T[3] = {0, 0, 0}, f[3], t[3];
        const MtModel *m = s->model;
        if (sn->part == MT_PART_TOTAL || sn->part == MT_PART_CONSTRAINT) {
            block_load(st, sn->joint, f, t);
            mt_v3_add(F, F, f);
            mt_v3_add(T, T, t);
        }
        if (sn->part == MT_PART_TOTAL || sn->part == MT_PART_DRIVER)
            for (int d = 0; d < m->ndriver; d++)
                if (m->driver[d].joint == sn->joint) {
                    block_load(st, m->njoint + d, f, t);
                    mt_v3_add(F, F, f);
                    mt_v3_add(T, T, t);
                }
        if (sn->part == MT_PART_TOTAL || sn->part == MT_PART_FRICTION)
            for (int e = 0; e < m->nforce; e++)
                if (m->force[e].kind == MT_FORCE_FRICTION && m->force[e].joint == sn->joint) {
                    mt_v3_add(F, F, st->fout + MT_FOUT * e);
                    mt_v3_add(T, T, st->fout + MT_FOUT * e + 3);
                }
        const double *w = sn->comp < 3 || sn->comp == 6 ? F : T;
        int c = sn->comp < 6 ? sn->comp % 3 : 3;
        return component(st, w, sn->mframe, c);
    }
    case MT_SENSOR_ENERGY: {
        double Tk = 0, V = 0;
        if (sn->body < 0) mt_energy(st, st->q, st->u, &Tk, &V);
        else if (s->nflex && s->bflex[sn->body] >= 0) mt_flex_energy(st, sn->body, st->q, st->u, &Tk, &V);
        else {
            int b = sn->body;
            const double *u = st->u + 6 * b, *w = u + 3, *R = st->R + 9 * b;
            double wb[3], Jw[3];
            mt_m3_tmulv(wb, R, w);
            mt_m3_mulv(Jw, s->Jc + 9 * b, wb);
            Tk = 0.5 * s->mass[b] * mt_v3_dot(u, u) + 0.5 * mt_v3_dot(wb, Jw);
            V = -s->mass[b] * mt_v3_dot(s->gravity, st->q + 7 * b);
        }
        if (sn->energy == 3) return elastic(st, sn->body);
        return sn->energy == 0 ? Tk : sn->energy == 1 ? V : Tk + V;
    }
    case MT_SENSOR_ANGLE: {
        MtMk I, J;
        mt_marker_eval(st, st->q, st->u, sn->mi, &I);
        if (sn->mj >= 0) mt_marker_eval(st, st->q, st->u, sn->mj, &J);
        else
            for (int a = 0; a < 3; a++) mt_v3_set(J.ax[a], a == 0, a == 1, a == 2);
        if (sn->comp < 3) { /* about axis comp of j, like a joint angle */
            int uu = (sn->comp + 1) % 3, vv = (sn->comp + 2) % 3;
            return atan2(mt_v3_dot(J.ax[vv], I.ax[uu]), mt_v3_dot(J.ax[uu], I.ax[uu]));
        }
        double tr = mt_v3_dot(J.ax[0], I.ax[0]) + mt_v3_dot(J.ax[1], I.ax[1]) + mt_v3_dot(J.ax[2], I.ax[2]);
        return acos(fmax(-1, fmin(1, 0.5 * (tr - 1))));
    }
    case MT_SENSOR_JOINT: return mt_joint_channel(st, st->q, st->u, sn->joint, (MtCoordKind)sn->coord, sn->comp == 1);
    case MT_SENSOR_FORCE: {
        double rec[MT_FOUT];
        if (sn->force >= 0) memcpy(rec, st->fout + MT_FOUT * sn->force, sizeof rec);
        else spring_record(st, sn->spring, rec);
        if (sn->comp >= 8) return rec[sn->comp - 2];
        const double *w = sn->comp < 3 || sn->comp == 6 ? rec : rec + 3;
        return component(st, w, sn->mframe, sn->comp < 6 ? sn->comp % 3 : 3);
    }
    case MT_SENSOR_DEFORM:
    case MT_SENSOR_DEFORM_VEL:
    case MT_SENSOR_DEFORM_ACC:
        if (!s->mflex || s->mflex[sn->mi] < 0) return NAN;
        mt_flex_deformation(st, sn->mi, sn->kind - MT_SENSOR_DEFORM, v);
        return sn->comp >= 0 && sn->comp < 3 ? v[sn->comp] : mt_v3_norm(v);
    case MT_SENSOR_STRESS: return mt_flex_stress(st, sn->mi);
    default: return NAN;
    }
}

int mt_sensor_is_kinematic(MtSensorKind k)
{
    return k == MT_SENSOR_POSITION || k == MT_SENSOR_VELOCITY || k == MT_SENSOR_ANGVEL || k == MT_SENSOR_DISTANCE ||
           k == MT_SENSOR_ANGLE || k == MT_SENSOR_JOINT;
}
