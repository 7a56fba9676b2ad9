/* mt_measure.c — quantities derived from a state for output: body frame
 * origins, joint reactions and coordinates, driver efforts, spring states,
 * energies. Declared in mt_system.h, motus/run.h. */
#include <string.h>

#include "mt_flex.h"
#include "mt_forces.h"
#include "mt_kin.h"

void mt_body_origin(const MtState *st, const double *q, const double *u, int b, double pos[3], double vel[3])
{
    const MtSystem *s = st->sys;
    double p[4] = {q[7 * b + 3], q[7 * b + 4], q[7 * b + 5], q[7 * b + 6]}, R[9], rc[3], wr[3];
    mt_quat_normalize(p);
    mt_quat_to_m3(R, p);
    mt_m3_mulv(rc, R, s->com + 3 * b);
    mt_v3_sub(pos, q + 7 * b, rc);
    if (vel) {
        mt_v3_cross(wr, u + 6 * b + 3, rc);
        mt_v3_sub(vel, u + 6 * b, wr);
    }
}

void mt_joint_reaction(const MtState *st, int joint, double F[3], double T[3], double Fm[3], double Tm[3])
{
    const MtSystem *s = st->sys;
    const MtCBlock *b = &s->block[joint];
    const double *Gi = mt_state_G(st, joint, 0), *lam = st->lambda + b->row0;
    double Tc[3] = {0, 0, 0};
    mt_v3_set(F, 0, 0, 0);
    for (int r = 0; r < b->nrow; r++) {
        mt_v3_axpy(F, lam[r], Gi + 6 * r);
        mt_v3_axpy(Tc, lam[r], Gi + 6 * r + 3);
    }
    MtMk I;
    mt_marker_eval(st, st->q, st->u, b->mi, &I);
    double rf[3];
    mt_v3_cross(rf, I.r, F);
    mt_v3_sub(T, Tc, rf); /* moment about the marker origin */
    for (int k = 0; k < 3; k++) {
        Fm[k] = mt_v3_dot(I.ax[k], F);
        Tm[k] = mt_v3_dot(I.ax[k], T);
    }
}

double mt_joint_coord(const MtState *st, const double *q, int joint, MtCoordKind c)
{
    MtTerm t;
    if (mt_joint_term(st->sys->model, joint, c, &t)) return NAN;
    return mt_term_value(st, q, &t);
}

double mt_joint_coordinate(const MtState *st, const double *q, int joint)
{
    static const MtCoordKind order[] = {MT_COORD_ANGLE, MT_COORD_DISP, MT_COORD_X};
    for (int k = 0; k < 3; k++) {
        double v = mt_joint_coord(st, q, joint, order[k]);
        if (!isnan(v)) return v;
    }
    return NAN;
}

double mt_driver_effort(const MtState *st, int driver)
{
    const MtSystem *s = st->sys;
    return st->lambda[s->block[s->model->njoint + driver].row0];
}

void mt_spring_state(const MtState *st, const double *q, const double *u, int spring, double *len, double *rate, double *tension)
{
    const MtSpringSpec *sp = &st->sys->model->spring[spring];
    MtMk I, J;
    mt_marker_eval(st, q, u, sp->mi, &I);
    mt_marker_eval(st, q, u, sp->mj, &J);
    double d[3], dv[3];
    mt_v3_sub(d, J.p, I.p);
    mt_v3_sub(dv, J.vp, I.vp);
    double L = mt_v3_norm(d);
    double Ld = L > 0 ? mt_v3_dot(d, dv) / L : 0;
    *len = L;
    *rate = Ld;
    *tension = sp->curve[0] ? mt_spring_curve((MtState *)st, spring, L - sp->length, Ld) /* chan is scratch */
                            : sp->k * (L - sp->length) + sp->c * Ld + sp->preload;
}

void mt_energy(const MtState *st, const double *q, const double *u, double *kinetic, double *potential)
{
    const MtSystem *s = st->sys;
    double T = 0, V = 0;
    for (int b = 0; b < s->nbody; b++) {
        if (s->nflex && s->bflex[b] >= 0) {
            double tk, vp;
            mt_flex_energy(st, b, q, u, &tk, &vp);
            T += tk;
            V += vp;
            continue;
        }
        const double *v = u + 6 * b, *w = v + 3;
        double Jw[3], R[9], p[4] = {q[7 * b + 3], q[7 * b + 4], q[7 * b + 5], q[7 * b + 6]};
        mt_quat_normalize(p);
        mt_quat_to_m3(R, p);
        mt_m3_tmulv(Jw, R, w);
        mt_m3_mulv(Jw, s->Jc + 9 * b, Jw);
        mt_m3_mulv(Jw, R, Jw);
        T += 0.5 * s->mass[b] * mt_v3_dot(v, v) + 0.5 * mt_v3_dot(w, Jw);
        V -= s->mass[b] * mt_v3_dot(s->gravity, q + 7 * b);
    }
    for (int k = 0; k < s->nspring; k++) {
        double L, Ld, ten;
        mt_spring_state(st, q, u, k, &L, &Ld, &ten);
        const MtSpringSpec *sp = &s->model->spring[k];
        V += 0.5 * sp->k * (L - sp->length) * (L - sp->length) + sp->preload * L;
    }
    *kinetic = T;
    *potential = V + mt_forces_potential(st);
}
