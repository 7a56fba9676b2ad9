/* mt_forces.c — force elements (torsion spring, bushing, joint friction,
 * contact, shock strut, tyre, actuator, drag, nonlinear spring curves), the
 * kinematic channels their expressions may read, and their discrete state
 * (contact impact speed) kept between steps. Called from the force stage of
 * mt_eval; every element adds a wrench to the two bodies and records what it
 * did (force and moment on the body of marker i, deflection, power). */
#include <stdlib.h>
#include <string.h>

#include "mt_expr.h"
#include "mt_flex.h"
#include "mt_forces.h"
#include "mt_i18n.h"
#include "mt_kin.h"
#include "mt_rail.h"
#include "mt_sensors.h"

enum { FR_SIGMA0 = 7, FR_SIGMA1 = 8 }; /* LuGre bristle stiffness and damping (sigma0 = 0: regularised law) */

/* ---- channels ------------------------------------------------------------- */

/* Channel slots 0 and 1 are the local variables x and v of spring curves, 2 is time. */

static int add_chan(MtSystem *s, int kind, int a, int b, int c)
{
    for (int k = 0; k < s->nchan; k++)
        if (s->chan[4 * k] == kind && s->chan[4 * k + 1] == a && s->chan[4 * k + 2] == b && s->chan[4 * k + 3] == c) return k;
    int *p = realloc(s->chan, sizeof(int) * 4 * (size_t)(s->nchan + 1));
    if (!p) return -1;
    s->chan = p;
    p[4 * s->nchan] = kind;
    p[4 * s->nchan + 1] = a;
    p[4 * s->nchan + 2] = b;
    p[4 * s->nchan + 3] = c;
    return s->nchan++;
}

static int resolve(void *user, const char *name, int *slot)
{
    MtSystem *s = user;
    const MtModel *m = s->model;
    if (!strcmp(name, "x")) { *slot = 0; return 1; }
    if (!strcmp(name, "v")) { *slot = 1; return 1; }
    if (!strcmp(name, "t") || !strcmp(name, "time")) { *slot = 2; return 1; }
    int i = mt_model_find_param(m, name);
    if (i >= 0) return (*slot = add_chan(s, MT_CH_PARAM, i, 0, 0)) >= 0;
    i = mt_model_find_control(m, name);
    if (i >= 0) return i < s->ctrl_limit && (*slot = add_chan(s, MT_CH_CONTROL, i, 0, 0)) >= 0;
    i = mt_model_find_sensor(m, name);
    if (i >= 0 && mt_sensor_is_kinematic(m->sensor[i].kind)) return (*slot = add_chan(s, MT_CH_SENSOR, i, 0, 0)) >= 0;
    if (i >= 0 && s->post_ok && m->sensor[i].kind != MT_SENSOR_EXPR) return (*slot = add_chan(s, MT_CH_POST, i, 0, 0)) >= 0;
    const char *dot = strrchr(name, '.');
    if (!dot) return 0;
    char ent[MT_NAME_MAX];
    size_t n = (size_t)(dot - name);
    if (n >= sizeof ent) return 0;
    memcpy(ent, name, n);
    ent[n] = 0;
    const char *q = dot + 1;
    static const char *const bq[] = {"x", "y", "z", "vx", "vy", "vz", "wx", "wy", "wz", NULL};
    if ((i = mt_model_find_body(m, ent)) >= 0) {
        for (int k = 0; bq[k]; k++)
            if (!strcmp(q, bq[k])) return (*slot = add_chan(s, MT_CH_BODY, i, k, 0)) >= 0;
        return 0;
    }
    if ((i = mt_model_find_joint(m, ent)) >= 0) {
        char c[24];
        snprintf(c, sizeof c, "%s", q);
        int rate = 0;
        size_t l = strlen(c);
        if (l > 5 && !strcmp(c + l - 5, "_rate")) { c[l - 5] = 0; rate = 1; }
        MtCoordKind ck;
        if (mt_coord_from_name(c, &ck) || !mt_joint_has_coord(m->joint[i].type, ck)) return 0;
        return (*slot = add_chan(s, MT_CH_JOINT, i, ck, rate)) >= 0;
    }
    for (i = 0; i < m->nspring; i++)
        if (!strcmp(m->spring[i].name, ent)) {
            if (!strcmp(q, "length")) return (*slot = add_chan(s, MT_CH_SPRING, i, 0, 0)) >= 0;
            if (!strcmp(q, "rate")) return (*slot = add_chan(s, MT_CH_SPRING, i, 1, 0)) >= 0;
            return 0;
        }
    return 0;
}

/* What holds an expression, for messages (each written out whole for the translators). */
enum { IN_FORCE, IN_SPRING, IN_CONTROL, IN_EVENT };
static const char *const expr_msg[] = {
    MT_N_("force '%s', %s: %s (it may read parameters, time, body.x … body.wz, joint.angle, joint.angle_rate, "
          "spring.length, kinematic sensors, controls, and tables with table(x, NAME) or spline(x, NAME))"),
    MT_N_("spring '%s', %s: %s (it may read x, v, parameters, time, body.x … body.wz, joint.angle, joint.angle_rate, "
          "kinematic sensors, controls, and tables with table(x, NAME) or spline(x, NAME))"),
    MT_N_("control '%s', %s: %s (it may read parameters, time, body.x … body.wz, joint.angle, joint.angle_rate, "
          "kinematic sensors, earlier controls, and tables with table(x, NAME) or spline(x, NAME))"),
    MT_N_("event '%s', %s: %s (it may read parameters, time, body.x … body.wz, joint.angle, joint.angle_rate, any "
          "sensor but expression sensors, controls, and tables with table(x, NAME) or spline(x, NAME))")};

static MtExpr *compile_expr(MtSystem *s, const MtExprTable *tabs, int in, const char *src, const char *entity,
                            const char *field, MtError *err)
{
    MtExprEnv env = {resolve, s, tabs, s->model->ntable};
    int col = 0;
    MtError e = {0};
    MtExpr *x = mt_expr_compile(src, &env, &col, &e);
    if (!x) mt_error_set(err, MT_ERR_MODEL, entity, MT_(expr_msg[in]), entity, field, e.msg);
    return x;
}

/* Rebound speed of the Hunt–Crossley law F = k δ^n (1 + χ δ̇/v0) after an
 * impact at v0. In the units δ ~ (m v0²/k)^(1/(n+1)) and t ~ δ/v0 the
 * contact obeys x'' = −x^n (1 + χ x'), x(0) = 0, x'(0) = 1, whatever the
 * mass, stiffness and speed, so the restitution −x'(exit) depends on χ and n
 * only. RK4 with step 4e-3 (contacts last about 3): the rebound to ~1e-8. */
static double hc_rebound(double chi, double n)
{
    double x = 0, v = 1, h = 4e-3;
    for (int i = 0; i < 2000000; i++) {
        if (v < 0 && 1 + chi * v <= 0) return -v; /* the force has vanished: it leaves at this speed */
        double xs[4], vs[4], ax = x, av = v;
        for (int st = 0; st < 4; st++) {
            xs[st] = av;
            double xp = fmax(ax, 0);
            vs[st] = -(n == 1.5 ? xp * sqrt(xp) : pow(xp, n)) * fmax(1 + chi * av, 0); /* Hertz's 3/2 the usual case */
            double c = st < 2 ? 0.5 * h : h;
            if (st < 3) { ax = x + c * xs[st]; av = v + c * vs[st]; }
        }
        double xn = x + h / 6 * (xs[0] + 2 * xs[1] + 2 * xs[2] + xs[3]), vn = v + h / 6 * (vs[0] + 2 * vs[1] + 2 * vs[2] + vs[3]);
        if (xn <= 0 && vn < 0) return -(v + (vn - v) * x / (x - xn)); /* out of contact within the step */
        x = xn;
        v = vn;
    }
    return 0;
}

/* The damping factor χ whose rebound is e (Illinois regula falsi on the
 * decreasing e(χ), from the estimate 8(1 − e)/(5e) of Flores et al. 2011). */
static double hc_damping(double e, double n)
{
    if (!(e < 1)) return 0;
    double a = 0, fa = 1 - e, b = 8 * (1 - e) / (5 * e), fb = hc_rebound(b, n) - e;
    while (fb > 0 && b < 1e12) { /* bracket the root */
        a = b;
        fa = fb;
        b *= 4;
        fb = hc_rebound(b, n) - e;
    }
    int side = 0;
    for (int it = 0; it < 60 && fabs(fb) > 1e-8 && fabs(b - a) > 1e-12 * b; it++) {
        double c = (a * fb - b * fa) / (fb - fa), fc = hc_rebound(c, n) - e;
        if ((fc > 0) == (fb > 0)) {
            b = c;
            fb = fc;
            if (side == -1) fa *= 0.5;
            side = -1;
        } else {
            a = b;
            fa = fb;
            b = c;
            fb = fc;
            if (side == 1) fa *= 0.5;
            side = 1;
        }
    }
    return b;
}

static int compile_all(MtSystem *s, const MtExprTable *tabs, MtError *err)
{
    const MtModel *m = s->model;
    s->nchan = 0;
    add_chan(s, MT_CH_LOCAL, 0, 0, 0);
    add_chan(s, MT_CH_LOCAL, 1, 0, 0);
    add_chan(s, MT_CH_TIME, 0, 0, 0);
    s->ctrl_limit = m->ncontrol; /* forces and springs may read every control */
    s->fexpr = calloc(6 * (size_t)m->nforce + (size_t)m->nspring + 1, sizeof *s->fexpr);
    if (!s->fexpr) return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
    static const char *const comp[6] = {"fx", "fy", "fz", "tx", "ty", "tz"};
    for (int k = 0; k < m->nforce; k++)
        for (int c = 0; c < 6 && m->force[k].kind != MT_FORCE_WHEELRAIL; c++) /* a wheelrail's are table names */
            if (m->force[k].expr[c][0]) {
                s->fexpr[6 * k + c] = compile_expr(s, tabs, IN_FORCE, m->force[k].expr[c], m->force[k].name, comp[c], err);
                if (!s->fexpr[6 * k + c]) return err->code;
            }
    s->ctrl_limit = m->ncontrol; /* forces and springs may read every control */
    s->cexpr = calloc(2 * (size_t)m->ncontrol + (size_t)m->nevent + 1, sizeof *s->cexpr);
    if (!s->cexpr) return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
    for (int k = 0; k < m->ncontrol; k++) {
        s->ctrl_limit = k; /* a control's input may read earlier controls only */
        if (m->control[k].input[0] && !(s->cexpr[2 * k] = compile_expr(s, tabs, IN_CONTROL, m->control[k].input, m->control[k].name, "input", err)))
            return err->code;
        if (m->control[k].setpoint[0] &&
            !(s->cexpr[2 * k + 1] = compile_expr(s, tabs, IN_CONTROL, m->control[k].setpoint, m->control[k].name, "setpoint", err)))
            return err->code;
    }
    s->ctrl_limit = m->ncontrol;
    s->post_ok = 1; /* events are evaluated after the solve: they may read every sensor */
    for (int e = 0; e < m->nevent; e++)
        if (m->event[e].trigger == MT_EVENT_CROSSES &&
            !(s->cexpr[2 * m->ncontrol + e] = compile_expr(s, tabs, IN_EVENT, m->event[e].expr, m->event[e].name, "when", err)))
            return err->code;
    s->post_ok = 0;
    for (int k = 0; k < m->nspring; k++)
        if (m->spring[k].curve[0]) {
            s->fexpr[6 * m->nforce + k] = compile_expr(s, tabs, IN_SPRING, m->spring[k].curve, m->spring[k].name, "curve", err);
            if (!s->fexpr[6 * m->nforce + k]) return err->code;
        }
    /* integrated states of force elements after those of controls and loops */
    s->zoff_force = malloc(sizeof(int) * ((size_t)m->nforce + 1));
    s->hc_chi = calloc((size_t)m->nforce + 1, sizeof(double));
    s->rail = calloc((size_t)m->nforce + 1, sizeof *s->rail);
    if (!s->zoff_force || !s->hc_chi || !s->rail) return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
    for (int k = 0; k < m->nforce; k++) {
        s->zoff_force[k] = -1;
        if (m->force[k].kind == MT_FORCE_WHEELRAIL && mt_rail_compile(s, k, err)) return err->code;
        if (m->force[k].kind == MT_FORCE_FRICTION && m->force[k].p[FR_SIGMA0] > 0) s->zoff_force[k] = s->naux++;
        if (m->force[k].kind != MT_FORCE_CONTACT) continue;
        const double *p = m->force[k].p;
        s->hc_chi[k] = NAN;
        for (int j = 0; j < k; j++) /* contacts of the same restitution and exponent share it (~1 ms each) */
            if (m->force[j].kind == MT_FORCE_CONTACT && m->force[j].p[7] == p[7] && m->force[j].p[6] == p[6]) s->hc_chi[k] = s->hc_chi[j];
        if (isnan(s->hc_chi[k])) s->hc_chi[k] = hc_damping(p[7], p[6]);
    }
    return MT_OK;
}

int mt_forces_compile(MtSystem *s, MtError *err)
{
    MtExprTable *tabs = mt_model_expr_tables(s->model);
    if (!tabs) return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory"));
    int rc = compile_all(s, tabs, err);
    free(tabs);
    return rc;
}

void mt_forces_free(MtSystem *s)
{
    if (!s->fexpr || !s->model) return;
    for (int k = 0; k < 6 * s->model->nforce + s->model->nspring; k++) mt_expr_free(s->fexpr[k]);
    free(s->fexpr);
    s->fexpr = NULL;
    if (s->cexpr)
        for (int k = 0; k < 2 * s->model->ncontrol + s->model->nevent; k++) mt_expr_free(s->cexpr[k]);
    free(s->cexpr);
    s->cexpr = NULL;
    free(s->chan);
    s->chan = NULL;
    free(s->zoff_force);
    s->zoff_force = NULL;
    free(s->hc_chi);
    s->hc_chi = NULL;
    if (s->rail)
        for (int k = 0; k < s->model->nforce; k++) mt_rail_free(s->rail[k]);
    free(s->rail);
    s->rail = NULL;
}

double mt_joint_channel(const MtState *st, const double *q, const double *u, int joint, MtCoordKind coord, int rate)
{
    MtTerm tm;
    if (mt_joint_term(st->sys->model, joint, coord, &tm) < 0) return NAN;
    MtMk I, J;
    mt_marker_eval(st, q, u, tm.mi, &I);
    mt_marker_eval(st, q, u, tm.mj, &J);
    const double *a = J.ax[tm.axis];
    if (tm.angle) {
        int uu = (tm.axis + 1) % 3, vv = (tm.axis + 2) % 3;
        double wd[3];
        mt_v3_sub(wd, I.w, J.w);
        return rate ? mt_v3_dot(a, wd) : atan2(mt_v3_dot(J.ax[vv], I.ax[uu]), mt_v3_dot(J.ax[uu], I.ax[uu]));
    }
    double d[3], dd[3], ad[3];
    mt_v3_sub(d, I.p, J.p);
    mt_v3_sub(dd, I.vp, J.vp);
    mt_v3_cross(ad, J.w, a);
    return rate ? mt_v3_dot(ad, d) + mt_v3_dot(a, dd) : mt_v3_dot(a, d);
}

/* Channel values at (t, q, u); needs st->R. */
void mt_stage_channels(MtState *st, double t, const double *q, const double *u)
{
    const MtSystem *s = st->sys;
    const MtModel *m = s->model;
    double *v = st->chan;
    v[2] = t;
    for (int k = 3; k < s->nchan; k++) {
        const int *c = s->chan + 4 * k;
        switch (c[0]) {
        case MT_CH_PARAM: v[k] = m->param[c[1]].value; break;
        case MT_CH_BODY: {
            double pos[3], vel[3];
            mt_body_origin(st, q, u, c[1], pos, vel);
            v[k] = c[2] < 3 ? pos[c[2]] : c[2] < 6 ? vel[c[2] - 3] : u[6 * c[1] + 3 + c[2] - 6];
            break;
        }
        case MT_CH_JOINT: v[k] = mt_joint_channel(st, q, u, c[1], (MtCoordKind)c[2], c[3]); break;
        case MT_CH_CONTROL: break; /* written by the control stage */
        case MT_CH_SENSOR: {
            /* kinematic sensors read st->q/u: evaluate them at the stage state */
            const double *q0 = st->q, *u0 = st->u;
            MtState *w = st;
            w->q = (double *)q;
            w->u = (double *)u;
            v[k] = mt_sensor_value(st, c[1]);
            w->q = (double *)q0;
            w->u = (double *)u0;
            break;
        }
        case MT_CH_SPRING: {
            const MtSpringSpec *sp = &m->spring[c[1]];
            MtMk I, J;
            mt_marker_eval(st, q, u, sp->mi, &I);
            mt_marker_eval(st, q, u, sp->mj, &J);
            double d[3], dv[3];
            mt_v3_sub(d, J.p, I.p);
            mt_v3_sub(dv, J.vp, I.vp);
            double L = mt_v3_norm(d);
            v[k] = c[2] == 0 ? L : (L > 0 ? mt_v3_dot(d, dv) / L : 0);
            break;
        }
        default: break;
        }
    }
}

void mt_post_channels(MtState *st, const double *q, const double *u)
{
    const MtSystem *s = st->sys;
    double *q0 = st->q, *u0 = st->u;
    int swapped = 0;
    for (int k = 3; k < s->nchan; k++) {
        if (s->chan[4 * k] != MT_CH_POST) continue;
        if (!swapped) { /* sensors read st->q/u: evaluate them at the state evaluated */
            st->q = (double *)q;
            st->u = (double *)u;
            swapped = 1;
        }
        st->chan[k] = mt_sensor_value(st, s->chan[4 * k + 1]);
    }
    st->q = q0;
    st->u = u0;
}

/* ---- applying loads ------------------------------------------------------- */

/* Force F (project axes) at point p and couple T on the body of marker mk;
 * the body of marker other gets the opposite at the same point. */
/* Force F (project axes) at point p and couple T on the body of marker mi;
 * the body of marker mj (-1: none) gets the opposite at the same point. On a
 * flexible body the load reaches the modes through the marker's node. */
static void wrench(MtState *st, int mi, int mj, const double *p, const double *F, const double *T, const double *q)
{
    if (mi >= 0) mt_apply_load(st, q, mi, p, F, T, 1);
    if (mj >= 0) mt_apply_load(st, q, mj, p, F, T, -1);
}


/* Records the load on body i about marker i's origin, a deflection, a power
 * and the elastic energy stored. */
static void record(MtState *st, int k, const double *F, const double *T, const double *p, const double *pi, double defl, double power,
                   double energy)
{
    double *o = st->fout + MT_FOUT * k, r[3], tq[3];
    mt_v3_copy(o, F);
    mt_v3_sub(r, p, pi);
    mt_v3_cross(tq, r, F);
    if (T) mt_v3_add(tq, tq, T);
    mt_v3_copy(o + 3, tq);
    o[6] = defl;
    o[7] = power;
    o[8] = energy;
}

/* Smooth sign: tanh(v/eps). */
static double ssign(double v, double eps) { return tanh(v / eps); }

/* Continuous angle of a torsion spring (counts turns) from the committed one. */
static double cont_angle(double raw, double prev)
{
    double d = raw - prev;
    return prev + d - 2 * M_PI * floor((d + M_PI) / (2 * M_PI));
}

/* Relative rotation vector of marker i in marker j axes (log map of R_jᵀ R_i). */
static void rel_rotation(const MtMk *I, const MtMk *J, double th[3])
{
    double R[9]; /* R[a][b] = x_a^J · x_b^I */
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) R[3 * a + b] = mt_v3_dot(J->ax[a], I->ax[b]);
    double c = fmax(-1, fmin(1, 0.5 * (R[0] + R[4] + R[8] - 1))), ang = acos(c);
    double s = sin(ang), f = ang < 1e-6 ? 0.5 : ang / (2 * s);
    th[0] = f * (R[7] - R[5]);
    th[1] = f * (R[2] - R[6]);
    th[2] = f * (R[3] - R[1]);
}

static double *penetration_state(MtState *st, int k) { return st->fdisc + 2 * k; }

/* One point contact of body side i against a plane (normal n through p0) or sphere. */
static void contact_point(MtState *st, const MtForceSpec *fs, int k, int mi, int mj, const double *q, const double *pc,
                          const double *vc, const double *n, double delta, double *Ftot, double *pwr, double *energy)
{
    /* pc: contact point, vc: velocity of i's material point minus j's there, n: normal pushing i out */
    const double *p = fs->p;
    double ddot = -mt_v3_dot(vc, n); /* penetration rate */
    double *vin = penetration_state(st, k);
    double v0 = vin[0] > 0 ? vin[0] : fmax(fabs(ddot), p[10]);
    double dn = pow(delta, p[6]);
    *energy += p[5] * dn * delta / (p[6] + 1); /* the elastic part, k δ^(n+1) / (n+1) */
    double Fn = p[5] * dn * (1 + st->sys->hc_chi[k] * ddot / v0); /* Hunt–Crossley, χ chosen for the restitution */
    if (Fn < 0) Fn = 0;
    double F[3], vt[3];
    mt_v3_scale(F, n, Fn);
    mt_v3_copy(vt, vc);
    mt_v3_axpy(vt, -mt_v3_dot(vc, n), n);
    double vtn = mt_v3_norm(vt);
    if (p[8] > 0 && vtn > 0) mt_v3_axpy(F, -p[8] * Fn * ssign(vtn, p[9]) / vtn, vt);
    wrench(st, mi, mj, pc, F, NULL, q);
    mt_v3_add(Ftot, Ftot, F);
    *pwr += mt_v3_dot(F, vc);
}

/* Contact of marker i's shape against marker j's: with apply, adds the loads;
 * always returns the deepest penetration and its rate. */
static void contact(MtState *st, const MtForceSpec *fs, int k, int mi, int mj, int bi, int bj, const double *q, const MtMk *I, const MtMk *J,
                    int apply, double *Ftot, double *pwr, double *energy, double *dmax, double *ddmax)
{
    const double *p = fs->p;
    double zero[3] = {0, 0, 0};
    *dmax = -INFINITY;
    *ddmax = 0;
    int npt = fs->geom == MT_CONTACT_BOX_PLANE ? 8 : 1;
    for (int c = 0; c < npt; c++) {
        double pt[3], n[3], delta;
        if (fs->geom == MT_CONTACT_SPHERE_SPHERE || fs->geom == MT_CONTACT_POINT_SPHERE) {
            double d[3], ri = fs->geom == MT_CONTACT_POINT_SPHERE ? 0 : p[0];
            mt_v3_sub(d, I->p, J->p);
            double L = mt_v3_norm(d);
            if (!(L > 0)) continue;
            mt_v3_scale(n, d, 1 / L);
            delta = ri + p[1] - L;
            mt_v3_copy(pt, I->p);
            mt_v3_axpy(pt, -ri, n);
        } else if (fs->geom == MT_CONTACT_BOX_SPHERE) {
            /* the point of the box (centred on i, sides lx ly lz along its axes) nearest the sphere's centre */
            double d[3], cl[3];
            mt_v3_sub(d, J->p, I->p);
            mt_v3_copy(pt, I->p);
            for (int a = 0; a < 3; a++) {
                cl[a] = fmax(-0.5 * p[2 + a], fmin(0.5 * p[2 + a], mt_v3_dot(d, I->ax[a])));
                mt_v3_axpy(pt, cl[a], I->ax[a]);
            }
            mt_v3_sub(d, pt, J->p);
            double L = mt_v3_norm(d);
            if (!(L > 0)) continue; /* the centre inside the box: no direction */
            mt_v3_scale(n, d, 1 / L);
            delta = p[1] - L;
        } else { /* a sphere's lowest point, a point, or a box's corners against the plane of j */
            mt_v3_copy(n, J->ax[2]);
            mt_v3_copy(pt, I->p);
            if (fs->geom == MT_CONTACT_SPHERE_PLANE) mt_v3_axpy(pt, -p[0], n);
            if (fs->geom == MT_CONTACT_BOX_PLANE)
                for (int a = 0; a < 3; a++) mt_v3_axpy(pt, ((c >> a) & 1 ? 0.5 : -0.5) * p[2 + a], I->ax[a]);
            double d[3];
            mt_v3_sub(d, pt, J->p);
            delta = -mt_v3_dot(n, d);
        }
        double ri[3], rj[3], vi[3], vj[3], vc[3];
        mt_v3_sub(ri, pt, bi >= 0 ? q + 7 * bi : zero);
        mt_v3_cross(vi, I->w, ri);
        mt_v3_add(vi, vi, I->v);
        mt_v3_sub(rj, pt, bj >= 0 ? q + 7 * bj : zero);
        mt_v3_cross(vj, J->w, rj);
        mt_v3_add(vj, vj, J->v);
        mt_v3_sub(vc, vi, vj);
        if (delta > *dmax) { *dmax = delta; *ddmax = -mt_v3_dot(vc, n); }
        if (apply && delta > 0) contact_point(st, fs, k, mi, mj, q, pt, vc, n, delta, Ftot, pwr, energy);
    }
}

/* Torsion spring about the joint axis z_j: T = −k(θ − θ0) − c θ̇ + T0. */
static void force_torsion(MtState *st, int k, int mi, int mj, const double *q, const MtMk *I, const MtMk *J)
{
    const MtForceSpec *fs = &st->sys->model->force[k];
    const double *p = fs->p;
    double zero[3] = {0, 0, 0};
    const double *z = J->ax[2];
    double raw = atan2(mt_v3_dot(J->ax[1], I->ax[0]), mt_v3_dot(J->ax[0], I->ax[0]));
    double th = cont_angle(raw, st->fdisc[2 * k]), wd[3];
    mt_v3_sub(wd, I->w, J->w);
    double thd = mt_v3_dot(z, wd), Tm = -p[0] * (th - p[2]) - p[1] * thd + p[3], T[3];
    mt_v3_scale(T, z, Tm);
    wrench(st, mi, mj, I->p, zero, T, q);
    record(st, k, zero, T, I->p, I->p, th - p[2], Tm * thd, 0.5 * p[0] * (th - p[2]) * (th - p[2]) - p[3] * (th - p[2]));
}

/* 6 x 6 bushing: deflection x = (displacement of i, its rotation vector) and its
 * rate, in j axes; load −K·x − C·ẋ (full matrices, unset entries 0). */
static void force_bushing(MtState *st, int k, int mi, int mj, const double *q, const MtMk *I, const MtMk *J)
{
    const MtForceSpec *fs = &st->sys->model->force[k];
    const double *p = fs->p;
    double d[3], th[3], dv[3], wr[3], wd[3], x[6], xd[6], L6[6], F[3], T[3], E = 0;
    mt_v3_sub(d, I->p, J->p);
    mt_v3_cross(wr, J->w, d);
    mt_v3_sub(dv, I->vp, J->vp);
    mt_v3_sub(dv, dv, wr); /* velocity of i seen from the rotating frame j */
    rel_rotation(I, J, th);
    mt_v3_sub(wd, I->w, J->w);
    for (int a = 0; a < 3; a++) {
        x[a] = mt_v3_dot(J->ax[a], d);
        x[3 + a] = th[a];
        xd[a] = mt_v3_dot(J->ax[a], dv);
        xd[3 + a] = mt_v3_dot(J->ax[a], wd);
    }
    for (int a = 0; a < 6; a++) {
        L6[a] = 0;
        for (int b2 = 0; b2 < 6; b2++) {
            double kk = p[mt_bushing_index(0, a, b2)], cc = p[mt_bushing_index(1, a, b2)];
            if (!isnan(kk)) {
                L6[a] -= kk * x[b2];
                E += 0.5 * x[a] * kk * x[b2]; /* ½ xᵀK x: the symmetric part of K */
            }
            if (!isnan(cc)) L6[a] -= cc * xd[b2];
        }
    }
    mt_v3_set(F, 0, 0, 0);
    mt_v3_set(T, 0, 0, 0);
    for (int a = 0; a < 3; a++) {
        mt_v3_axpy(F, L6[a], J->ax[a]);
        mt_v3_axpy(T, L6[3 + a], J->ax[a]);
    }
    wrench(st, mi, mj, I->p, F, T, q);
    record(st, k, F, T, I->p, I->p, mt_v3_norm(d), mt_v3_dot(F, dv) + mt_v3_dot(T, wd), E);
}

/* Joint friction: regularised Stribeck, or LuGre with its bristle state. */
static void force_friction(MtState *st, int k, int mi, int mj, const double *q, const MtMk *I, const MtMk *J)
{
    const MtSystem *s = st->sys;
    const MtModel *m = s->model;
    const MtForceSpec *fs = &s->model->force[k];
    const double *p = fs->p;
    double zero[3] = {0, 0, 0};
    /* normal load: magnitude of the joint's reaction at the last solve (lagged), plus preload */
    const MtCBlock *b = &s->block[fs->joint];
    const double *G = mt_state_G(st, fs->joint, 0), *lam = st->lambda + b->row0;
    double R3[3] = {0, 0, 0};
    for (int r = 0; r < b->nrow; r++) mt_v3_axpy(R3, lam[r], G + 6 * r);
    const double *z = J->ax[2];
    int rot = m->joint[fs->joint].type == MT_JOINT_REVOLUTE;
    double N = p[6] + sqrt(fmax(0, mt_v3_dot(R3, R3) - (rot ? 0 : pow(mt_v3_dot(R3, z), 2))));
    double vrel, wd[3], dv[3];
    mt_v3_sub(wd, I->w, J->w);
    mt_v3_sub(dv, I->vp, J->vp);
    vrel = rot ? mt_v3_dot(z, wd) : mt_v3_dot(z, dv);
    double mus = isnan(p[1]) ? p[0] : p[1], arm = rot ? p[5] : 1;
    double strib = p[0] + (mus - p[0]) * exp(-(vrel / p[2]) * (vrel / p[2]));
    double Ff, F[3], T[3], E = 0;
    int off = s->zoff_force[k];
    if (off >= 0) {
        /* LuGre (Canudas de Wit et al. 1995): bristle deflection zb with
         * żb = v − σ0·|v|·zb / g(v), g = μ(v)·N·R the Stribeck level, and
         * F = σ0·zb + σ1·żb + c·v. At rest żb = 0 and the bristles hold
         * any load below the breakaway level g(0) = μs·N·R exactly. */
        double gs = fmax(strib * N * arm, 1e-300), zb = st->zcur[off];
        double zd = vrel - p[FR_SIGMA0] * fabs(vrel) * zb / gs;
        st->dz[off] = zd;
        Ff = -(p[FR_SIGMA0] * zb + p[FR_SIGMA1] * zd) - p[4] * vrel;
        E = 0.5 * p[FR_SIGMA0] * zb * zb; /* held in the bristles */
    } else Ff = -(strib * N * arm) * ssign(vrel, p[3]) - p[4] * vrel;
    if (rot) {
        mt_v3_scale(T, z, Ff);
        wrench(st, mi, mj, I->p, zero, T, q);
        record(st, k, zero, T, I->p, I->p, N, Ff * vrel, E);
    } else {
        mt_v3_scale(F, z, Ff);
        wrench(st, mi, mj, I->p, F, NULL, q);
        record(st, k, F, NULL, I->p, I->p, N, Ff * vrel, E);
    }
}

/* Hunt–Crossley contact with friction (the geometry in contact()). */
static void force_contact(MtState *st, int k, int mi, int mj, int bi, int bj, const double *q, const MtMk *I, const MtMk *J)
{
    const MtForceSpec *fs = &st->sys->model->force[k];
    double Ftot[3] = {0, 0, 0}, pwr = 0, E = 0, dmax, dd;
    contact(st, fs, k, mi, mj, bi, bj, q, I, J, 1, Ftot, &pwr, &E, &dmax, &dd);
    double *o = st->fout + MT_FOUT * k;
    mt_v3_copy(o, Ftot);
    mt_v3_set(o + 3, 0, 0, 0);
    o[6] = dmax > 0 ? dmax : 0;
    o[7] = pwr;
    o[8] = E;
}

/* Oleo-pneumatic shock strut between markers i and j. */
static void force_strut(MtState *st, int k, int mi, int mj, const double *q, const MtMk *I, const MtMk *J)
{
    const MtSystem *s = st->sys;
    const MtForceSpec *fs = &s->model->force[k];
    const double *p = fs->p;
    double d[3], dv[3];
    mt_v3_sub(d, I->p, J->p);
    mt_v3_sub(dv, I->vp, J->vp);
    double L = mt_v3_norm(d);
    if (!(L > 0)) return;
    double nrm[3];
    mt_v3_scale(nrm, d, 1 / L);
    double sgo = p[12] - L, sd = -mt_v3_dot(nrm, dv); /* stroke (compression) and its rate */
    double A = p[0], Ah = isnan(p[8]) ? A : p[8];
    double vol = p[2] - A * fmin(sgo, 0.999 * p[2] / A);
    double Fg = p[1] * A * pow(p[2] / vol, p[3]) - p[4] * A;
    double Fh = p[7] * Ah * Ah * Ah / (2 * p[6] * p[6] * p[5] * p[5]) * sd * fabs(sd);
    double Ff = p[10] * ssign(sd, 1e-3);
    double Fs = sgo < 0 ? p[11] * sgo : sgo > p[9] ? p[11] * (sgo - p[9]) : 0; /* end stops */
    double Fc = Fg + Fh + Ff + Fs, F[3];
    mt_v3_scale(F, nrm, Fc); /* compression resisted: i pushed away from j */
    wrench(st, mi, mj, I->p, F, NULL, q);
    /* stored: the gas's work ∫ Fg ds from s = 0 (polytropic) and the stops' */
    double E = p[3] == 1 ? p[1] * p[2] * log(p[2] / vol) : p[1] * p[2] * (pow(p[2] / vol, p[3] - 1) - 1) / (p[3] - 1);
    E -= p[4] * (p[2] - vol);
    if (sgo < 0) E += 0.5 * p[11] * sgo * sgo;
    else if (sgo > p[9]) E += 0.5 * p[11] * (sgo - p[9]) * (sgo - p[9]);
    record(st, k, F, NULL, I->p, I->p, sgo, -Fc * sd, E);
}

/* Tyre: wheel centre i with axle z_i on the plane through p_j with normal z_j. */
static void force_tyre(MtState *st, int k, int mi, int mj, int bi, const double *q, const MtMk *I, const MtMk *J)
{
    const MtForceSpec *fs = &st->sys->model->force[k];
    const double *p = fs->p;
    double zero[3] = {0, 0, 0};
    const double *n = J->ax[2], *a = I->ax[2];
    double na = mt_v3_dot(n, a), wv[3];
    mt_v3_copy(wv, n);
    mt_v3_axpy(wv, -na, a);
    double wl = mt_v3_norm(wv);
    if (!(wl > 1e-9)) return;
    double kk[3], pc[3], d[3];
    mt_v3_scale(kk, wv, 1 / wl);
    mt_v3_copy(pc, I->p);
    mt_v3_axpy(pc, -p[0], kk);
    mt_v3_sub(d, pc, J->p);
    double delta = -mt_v3_dot(n, d);
    if (delta <= 0) { record(st, k, zero, NULL, I->p, I->p, 0, 0, 0); return; }
    double rP[3], vP[3], fwd[3], lat[3];
    mt_v3_sub(rP, pc, q + 7 * bi);
    mt_v3_cross(vP, I->w, rP);
    mt_v3_add(vP, vP, I->v); /* slip velocity of the rim at the contact */
    mt_v3_cross(fwd, a, n);  /* rolling direction */
    double fl = mt_v3_norm(fwd);
    if (!(fl > 0)) return;
    mt_v3_scale(fwd, fwd, 1 / fl);
    mt_v3_cross(lat, n, fwd);
    double vx = mt_v3_dot(I->v, fwd), vy = mt_v3_dot(I->v, lat), vn = mt_v3_dot(vP, n);
    double Fz = fmax(0, p[1] * delta - p[2] * vn);
    double den = fmax(fabs(vx), p[6]);
    double kappa = -mt_v3_dot(vP, fwd) / den, alpha = atan2(vy, den);
    double Fx = p[3] * kappa, Fy = -p[4] * alpha, Fmax = p[5] * Fz, Fxy = hypot(Fx, Fy);
    if (Fxy > Fmax && Fxy > 0) { Fx *= Fmax / Fxy; Fy *= Fmax / Fxy; } /* friction circle */
    double F[3];
    mt_v3_scale(F, n, Fz);
    mt_v3_axpy(F, Fx, fwd);
    mt_v3_axpy(F, Fy, lat);
    wrench(st, mi, mj, pc, F, NULL, q);
    record(st, k, F, NULL, pc, I->p, delta, mt_v3_dot(F, vP), 0.5 * p[1] * delta * delta);
}

/* Actuator: force and moment in j axes given by expressions. */
static void force_actuator(MtState *st, int k, int mi, int mj, const double *q, const MtMk *I, const MtMk *J)
{
    const MtSystem *s = st->sys;
    double Fl[6];
    for (int c = 0; c < 6; c++) Fl[c] = s->fexpr[6 * k + c] ? mt_expr_eval(s->fexpr[6 * k + c], st->chan) : 0;
    double F[3] = {0, 0, 0}, T[3] = {0, 0, 0};
    for (int a = 0; a < 3; a++) {
        mt_v3_axpy(F, Fl[a], J->ax[a]);
        mt_v3_axpy(T, Fl[3 + a], J->ax[a]);
    }
    double dv[3], wd[3];
    mt_v3_sub(dv, I->vp, J->vp);
    mt_v3_sub(wd, I->w, J->w);
    wrench(st, mi, mj, I->p, F, T, q);
    record(st, k, F, T, I->p, I->p, 0, mt_v3_dot(F, dv) + mt_v3_dot(T, wd), 0);
}

/* Aerodynamic drag: −½ ρ c_d A |v − wind| (v − wind) at marker i. */
static void force_drag(MtState *st, int k, int mi, const double *q, const MtMk *I)
{
    const MtForceSpec *fs = &st->sys->model->force[k];
    const double *p = fs->p;
    double vr[3] = {I->vp[0] - p[3], I->vp[1] - p[4], I->vp[2] - p[5]}, F[3];
    double sp = mt_v3_norm(vr);
    mt_v3_scale(F, vr, -0.5 * p[0] * p[1] * p[2] * sp);
    wrench(st, mi, -1, I->p, F, NULL, q);
    record(st, k, F, NULL, I->p, I->p, sp, mt_v3_dot(F, I->vp), 0);
}

/* Loads of every force element at (t, q, u) into st->f (and their record in st->fout). */
void mt_stage_force_elements(MtState *st, double t, const double *q, const double *u)
{
    const MtSystem *s = st->sys;
    const MtModel *m = s->model;
    (void)t; /* channels and controls were computed by the caller (mt_eval) */
    for (int k = 0; k < m->nforce; k++) {
        const MtForceSpec *fs = &m->force[k];
        int mi = fs->mi, mj = fs->mj;
        if (st->fdisabled[k]) {
            memset(st->fout + MT_FOUT * k, 0, MT_FOUT * sizeof(double));
            if (s->zoff_force[k] >= 0) st->dz[s->zoff_force[k]] = 0; /* its state rests while it is off */
            continue;
        }
        if (fs->kind == MT_FORCE_TORSION || fs->kind == MT_FORCE_FRICTION) {
            mi = m->joint[fs->joint].mi;
            mj = m->joint[fs->joint].mj;
        }
        MtMk I, J;
        mt_marker_eval(st, q, u, mi, &I);
        int bi = s->mbody[mi], bj = mj >= 0 ? s->mbody[mj] : MT_GROUND;
        if (mj >= 0) mt_marker_eval(st, q, u, mj, &J);
        else memset(&J, 0, sizeof J);
        switch (fs->kind) {
        case MT_FORCE_TORSION: force_torsion(st, k, mi, mj, q, &I, &J); break;
        case MT_FORCE_BUSHING: force_bushing(st, k, mi, mj, q, &I, &J); break;
        case MT_FORCE_FRICTION: force_friction(st, k, mi, mj, q, &I, &J); break;
        case MT_FORCE_CONTACT: force_contact(st, k, mi, mj, bi, bj, q, &I, &J); break;
        case MT_FORCE_STRUT: force_strut(st, k, mi, mj, q, &I, &J); break;
        case MT_FORCE_TYRE: force_tyre(st, k, mi, mj, bi, q, &I, &J); break;
        case MT_FORCE_ACTUATOR: force_actuator(st, k, mi, mj, q, &I, &J); break;
        case MT_FORCE_DRAG: force_drag(st, k, mi, q, &I); break;
        case MT_FORCE_WHEELRAIL: mt_rail_force(st, k, q, &I, &J); break;
        default: break;
        }
    }
}

double mt_spring_curve(MtState *st, int spring, double x, double v)
{
    const MtSystem *s = st->sys;
    const MtExpr *e = s->fexpr ? s->fexpr[6 * s->model->nforce + spring] : NULL;
    if (!e) return NAN;
    st->chan[0] = x;
    st->chan[1] = v;
    return mt_expr_eval(e, st->chan);
}

void mt_forces_commit(MtState *st)
{
    const MtSystem *s = st->sys;
    const MtModel *m = s->model;
    for (int k = 0; k < m->nforce; k++) {
        const MtForceSpec *fs = &m->force[k];
        if (fs->kind == MT_FORCE_TORSION) { /* keep counting turns */
            MtMk I, J;
            mt_marker_eval(st, st->q, st->u, m->joint[fs->joint].mi, &I);
            mt_marker_eval(st, st->q, st->u, m->joint[fs->joint].mj, &J);
            double raw = atan2(mt_v3_dot(J.ax[1], I.ax[0]), mt_v3_dot(J.ax[0], I.ax[0]));
            st->fdisc[2 * k] = cont_angle(raw, st->fdisc[2 * k]);
        } else if (fs->kind == MT_FORCE_WHEELRAIL) { /* the track distance: where the next search starts */
            st->fdisc[2 * k] = mt_rail_distance(st, k);
            st->fdisc[2 * k + 1] = 1;
        } else if (fs->kind == MT_FORCE_CONTACT) {
            /* impact speed remembered at the first committed state in contact, forgotten on separation */
            MtMk I, J;
            mt_marker_eval(st, st->q, st->u, fs->mi, &I);
            mt_marker_eval(st, st->q, st->u, fs->mj, &J);
            double dmax, dd, pwr = 0, E = 0, F[3] = {0, 0, 0};
            contact(st, fs, k, fs->mi, fs->mj, s->mbody[fs->mi], s->mbody[fs->mj], st->q, &I, &J, 0, F, &pwr, &E, &dmax, &dd);
            if (dmax <= 0) st->fdisc[2 * k] = 0;
            else if (st->fdisc[2 * k] == 0) st->fdisc[2 * k] = fmax(dd, fs->p[10]);
        }
    }
}

double mt_forces_potential(const MtState *st)
{
    const MtModel *m = st->sys->model;
    double V = 0;
    for (int k = 0; k < m->nforce; k++) V += st->fout[MT_FOUT * k + 8];
    return V;
}
