/* mt_flex.c — flexible bodies in the dynamics (mt_flex.h; docs/design.md §4.3).
 *
 * Floating frame at the undeformed centre of mass, axes of the FE model;
 * rotation A (body → project), body-axis angular velocity Ω = Aᵀω; nodal
 * rigid bodies k at ρ_k + Φ_k·w, turned by Ψ_k·w. With the inertia
 * invariants of the reduction, S(w) = S1·w (first moment; S(0) = 0 here),
 * I(w) = I0 + Σ w_j I1_j + Σ w_i w_j I2_ij and M_Ωw(w) = Ir + Σ w_j Sw_j, the
 * kinetic energy is T = ½ m v² + v·A(Ω×S + S1ẇ) + ½ ΩᵀIΩ + ΩᵀM_Ωw ẇ + ½ ẇᵀMww ẇ.
 * The Boltzmann–Hamel equations of T (quasi-velocities v, Ω) give, in the
 * velocities u = (v, ω, ẇ) of the solver (project axes),
 *
 *   M = [ m·1        −[AS]×        A·S1     ]
 *       [ [AS]×      A·I·Aᵀ         A·M_Ωw   ]
 *       [ S1ᵀAᵀ      M_ΩwᵀAᵀ       Mww      ]
 *
 * and the quadratic velocity forces (moved to the right-hand side)
 *   translation  A·(Ω×(Ω×S) + 2 Ω×S1ẇ)
 *   rotation     A·(İΩ + Ω×(IΩ + M_Ωw ẇ))          (Σ ẇ_j Sw_j ẇ = 0)
 *   mode j       2 Σ_i ẇ_i Ω·C_ij − ½ Ωᵀ(∂I/∂w_j)Ω,  C_ij = Σ m φ_i×φ_j,
 * plus the elastic and damping forces K·w + D·ẇ and gravity (m·g, AS×g,
 * S1ᵀAᵀg). The rotary inertia of the nodes enters through T only, so the
 * equations conserve T + V exactly (tests/core/test_flex.c).
 *
 * Geometric stiffening (optional): the pre-stress of the body forces per
 * unit mass g_B + C x (gravity in body axes; centrifugal field
 * C = |Ω|²1 − ΩΩᵀ about the FE model's origin, i.e. the body's origin, which
 * the user puts on the axis of rotation) adds Σ p_c Kg_c to K, p = (g_B,
 * C00, C11, C22, C01, C12, C02) (mt_fe_reduce.h), the interface held. The
 * uniform part of the frame's own acceleration field stiffens like gravity;
 * its part in the (unknown) accelerations goes into the mass matrix
 * (accel_coupling). The pre-stress of interface loads (joint reactions,
 * force elements) comes from the modal coordinates themselves: Σ w_k Kw_k,
 * the geometric stiffness of the constraint modes' static field
 * (core/flex/mt_fe_geom.c), as a force (Σ w_k Kw_k)·w: a stiffness that follows
 * the stress, not a potential (see interface_stiffening). */
#include <lapacke.h>
#include <stdlib.h>
#include <string.h>

#include "mt_flex.h"
#include "mt_flexmodel.h"
#include "mt_i18n.h"
#include "mt_math.h"

static void skew_mul(double *r, const double *a, const double *b) { mt_v3_cross(r, a, b); }

static MtStatus check_sensors(MtSystem *s, MtError *err);


/* The coordinates and rates of flexible body i (spec i, N modes) that the
 * initial assembly holds: all with `initial rest`, and those `initial
 * BODY.wK` gives a value or a rate; a K beyond N is refused naming the body. */
static int hold_flags(MtSystem *s, int i, MtFlexSys *f, int N, MtError *err)
{
    const MtModel *m = s->model;
    int rest = m->flex[i].initial == MT_FLEX_INIT_REST, any = rest;
    for (int k = 0; k < m->ninitial; k++) {
        const MtInitialSpec *in = &m->initial[k];
        if (!in->mode || in->body != f->body) continue;
        if (in->mode > N) {
            const char *bn = m->body[f->body].name;
            return mt_error_set(err, MT_ERR_MODEL, bn,
                                MT_("initial condition of '%s.w%d': the body has %d modal coordinates (w1 to w%d)"), bn,
                                in->mode, N, N), -1;
        }
        any = 1;
    }
    if (!any) return 0;
    if (!(f->hold = calloc(2 * (size_t)N + 1, 1))) return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory")), -1;
    memset(f->hold, rest, 2 * (size_t)N);
    for (int k = 0; k < m->ninitial; k++) {
        const MtInitialSpec *in = &m->initial[k];
        if (!in->mode || in->body != f->body) continue;
        f->hold[in->mode - 1] |= (unsigned char)(in->has_value != 0);
        f->hold[N + in->mode - 1] |= (unsigned char)(in->has_rate != 0);
    }
    return 0;
}

MtStatus mt_flex_compile(MtSystem *s, MtError *err)
{
    const MtModel *m = s->model;
    int nb = s->nbody;
    s->bflex = malloc(sizeof(int) * ((size_t)nb + 1));
    s->mflex = malloc(sizeof(int) * ((size_t)s->nmarker + 1));
    s->mvert = malloc(sizeof(int) * ((size_t)s->nmarker + 1));
    if (!s->bflex || !s->mflex || !s->mvert) goto nomem;
    for (int b = 0; b < nb; b++) s->bflex[b] = -1;
    for (int k = 0; k < s->nmarker; k++) s->mflex[k] = s->mvert[k] = -1;
    s->nflex = m->nflex;
    if (!m->nflex) return check_sensors(s, err);
    s->flex = calloc((size_t)m->nflex, sizeof *s->flex);
    if (!s->flex) goto nomem;
    size_t nmm = 0;
    for (int i = 0; i < m->nflex; i++) {
        const MtFlexSpec *fs = &m->flex[i];
        const char *name = m->body[fs->body].name;
        if (!fs->data)
            return mt_error_set(err, MT_ERR_MODEL, name,
                                MT_("body '%s': its flexible model is not reduced (read the model again)"), name);
        const MtFlexBody *fb = fs->data->body;
        MtFlexSys *f = &s->flex[i];
        int N = fb->nmode;
        f->body = fs->body;
        f->fb = fb;
        f->N = N;
        f->d = 6 + N;
        if (hold_flags(s, i, f, N, err)) return err->code;
        f->moff = s->nmodal;
        f->moffm = s->nfmat;
        f->coff = s->nfcache;
        s->nmodal += N;
        s->nfmat += (size_t)f->d * (size_t)f->d;
        s->nfcache += 12 + 3 * (size_t)N + (size_t)N * N + (size_t)N; /* + the interface stiffening's forces */
        if (f->d > s->dmax) s->dmax = f->d;
        s->bflex[fs->body] = i;
        f->mass = fb->mass;
        size_t nn = (size_t)N * N;
        f->work = calloc(3 * N + 3 * N + 9 * N + 9 * nn + 3 * nn + nn + 2 * nn + 1, sizeof(double));
        if (!f->work) goto nomem;
        f->S1 = f->work;
        f->Ir = f->S1 + 3 * N;
        f->I1 = f->Ir + 3 * N;
        f->I2 = f->I1 + 9 * N;
        f->Sw = f->I2 + 9 * nn;
        f->Mww = f->Sw + 3 * nn;
        f->K = f->Mww + nn;
        f->D = f->K + nn;
        /* invariants about the centre of mass c: ρ' = ρ − c (mt_flexmodel.c put the body's com there) */
        const double *c = s->com + 3 * fs->body;
        memcpy(f->S1, fb->S1, sizeof(double) * 3 * N);
        memcpy(f->I2, fb->I2, sizeof(double) * 9 * nn);
        memcpy(f->Sw, fb->Sw, sizeof(double) * 3 * nn);
        memcpy(f->Mww, fb->Mww, sizeof(double) * nn);
        double cc = mt_v3_dot(c, c);
        for (int a = 0; a < 3; a++)
            for (int b2 = 0; b2 < 3; b2++) f->I0[3 * a + b2] = fb->I0[3 * a + b2] - fb->mass * ((a == b2) * cc - c[a] * c[b2]);
        for (int j = 0; j < N; j++) {
            const double *s1 = fb->S1 + 3 * j;
            double cs[3];
            skew_mul(cs, c, s1); /* Ir' = Ir − [c]× S1 */
            for (int a = 0; a < 3; a++) f->Ir[3 * j + a] = fb->Ir[3 * j + a] - cs[a];
            /* I1' = I1 − ([c]×ᵀ[s]× + [s]×ᵀ[c]×);  [a]×ᵀ[b]× = (a·b) 1 − b aᵀ */
            double cs_dot = mt_v3_dot(c, s1);
            for (int a = 0; a < 3; a++)
                for (int b2 = 0; b2 < 3; b2++)
                    f->I1[9 * j + 3 * a + b2] =
                        fb->I1[9 * j + 3 * a + b2] - (2 * (a == b2) * cs_dot - s1[a] * c[b2] - c[a] * s1[b2]);
        }
        /* stiffness and damping (the model's settings, not those of the reduction) */
        int rayleigh = fs->alpha > 0 || fs->beta > 0;
        for (int a = 0; a < N; a++)
            for (int b2 = 0; b2 < N; b2++) {
                double k = fb->Kr[a + (size_t)N * b2], mm = fb->Mr[a + (size_t)N * b2];
                f->K[a + (size_t)N * b2] = k;
                f->D[a + (size_t)N * b2] = rayleigh ? fs->alpha * k + fs->beta * mm : 0;
            }
        if (fs->stiffening && !fb->Kg)
            return mt_error_set(err, MT_ERR_MODEL, name,
                                MT_("body '%s': geometric stiffening is on but its reduction has none (read the model again)"),
                                name);
        f->Kg = fs->stiffening ? fb->Kg : NULL;
        f->Kw = fs->stiffening ? fb->Kw : NULL;
        mt_v3_copy(f->com, c);
        if (!rayleigh)
            for (int a = 0; a < N; a++) {
                double om = 2 * M_PI * fb->freq[a];
                f->D[a + (size_t)N * a] = 2 * fs->zeta * om * fb->Mr[a + (size_t)N * a];
            }
        f->work2 = malloc(sizeof(double) * (3 * (size_t)N * (N + 1) + 1));
        if (!f->work2) goto nomem;
        f->I2s = f->work2;
        for (int j = 0; j < N; j++) /* the symmetric parts of the pairs, packed */
            for (int i = 0; i <= j; i++) {
                const double *A = f->I2 + 9 * ((size_t)i + (size_t)N * j), *B = f->I2 + 9 * ((size_t)j + (size_t)N * i);
                double T[9], *P = f->I2s + 6 * ((size_t)j * (j + 1) / 2 + i);
                for (int a = 0; a < 9; a++) T[a] = i == j ? A[a] : A[a] + B[a];
                P[0] = T[0]; P[1] = T[4]; P[2] = T[8];
                P[3] = 0.5 * (T[1] + T[3]); P[4] = 0.5 * (T[2] + T[6]); P[5] = 0.5 * (T[5] + T[7]);
            }
        for (int k = 0; k < s->nmarker; k++)
            if (m->marker[k].body == fs->body) nmm += 6 * (size_t)N;
    }
    s->mmodal = malloc(sizeof(double) * (nmm + 1));
    if (!s->mmodal) goto nomem;
    size_t off = 0;
    for (int k = 0; k < s->nmarker; k++) {
        const MtMarkerSpec *mk = &m->marker[k];
        if (mk->body < 0 || s->bflex[mk->body] < 0) continue;
        const MtFlexSpec *fs = &m->flex[s->bflex[mk->body]];
        const MtFlexBody *fb = fs->data->body;
        const char *bname = m->body[mk->body].name;
        int label = mt_flex_data_marker_node(fs->data, mk->name);
        int row = label > 0 ? mt_flex_data_if_row(fs->data, label) : -1, vert = -1;
        for (int v = 0; v < fb->nsv && label > 0; v++)
            if (fb->sv_id[v] == label) { vert = v; break; }
        if (label <= 0)
            return mt_error_set(err, MT_ERR_MODEL, mk->name,
                                MT_("marker '%s.%s': it was added after the flexible body was reduced; reduce the body "
                                    "again so that its node joins the interface"),
                                bname, mk->name);
        int N = fb->nmode, nr = 6 * fb->nif;
        double *Phi = s->mmodal + off, *Psi = Phi + 3 * N;
        s->mvert[k] = vert;
        if (row < 0) { /* a marker only sensors read: its node's translation from the surface data */
            if (vert < 0 || !fb->sv_H)
                return mt_error_set(err, MT_ERR_MODEL, mk->name,
                                    MT_("marker '%s.%s': node %d is neither an interface node nor on the surface of the "
                                        "flexible body, so its motion is not kept; attach the marker to a surface node"),
                                    bname, mk->name, label);
            if (mt_model_marker_loaded(m, k))
                return mt_error_set(err, MT_ERR_MODEL, mk->name,
                                    MT_("marker '%s.%s': a load or a constraint acts on it, but its node is not in the "
                                        "interface of the reduction; reduce the body again"), bname, mk->name);
            for (int j = 0; j < N; j++)
                for (int a = 0; a < 3; a++) {
                    Phi[a * N + j] = (double)fb->sv_H[3 * ((size_t)j * fb->nsv + (size_t)vert) + a];
                    Psi[a * N + j] = 0;
                }
            s->mflex[k] = (int)off;
            off += 6 * (size_t)N;
            continue;
        }
        /* marker offset d from its node, rigidly carried by the node's rotation: Φ_m = Φ_k − [d]× Ψ_k */
        double d[3];
        mt_v3_sub(d, mk->pos, fb->if_x + 3 * row);
        for (int j = 0; j < N; j++) {
            const double *H = fb->if_H + (size_t)j * nr + 6 * row;
            double dx[3];
            mt_v3_cross(dx, d, H + 3);
            for (int a = 0; a < 3; a++) {
                Phi[a * N + j] = H[a] - dx[a];
                Psi[a * N + j] = H[3 + a];
            }
        }
        s->mflex[k] = (int)off;
        off += 6 * (size_t)N;
    }
    return check_sensors(s, err);
nomem:
    return mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory compiling the flexible bodies"));
}

/* Deformation and stress sensors need a marker on a flexible body (and a surface node for stress). */
static MtStatus check_sensors(MtSystem *s, MtError *err)
{
    const MtModel *m = s->model;
    for (int i = 0; i < m->nsensor; i++) {
        const MtSensorSpec *sn = &m->sensor[i];
        if (sn->kind < MT_SENSOR_DEFORM || sn->kind > MT_SENSOR_STRESS) continue;
        char ref[2 * MT_NAME_MAX + 2];
        if (sn->mi < 0 || s->mflex[sn->mi] < 0)
            return mt_error_set(err, MT_ERR_MODEL, sn->name,
                                MT_("sensor '%s': marker '%s' is not on a flexible body; deformation and stress sensors "
                                    "measure flexible bodies"), sn->name, sn->mi >= 0 ? mt_model_marker_ref(m, sn->mi, ref, sizeof ref) : "");
        if (sn->kind == MT_SENSOR_STRESS && (s->mvert[sn->mi] < 0 || !s->flex[s->bflex[s->mbody[sn->mi]]].fb->sv_sig))
            return mt_error_set(err, MT_ERR_MODEL, sn->name,
                                MT_("sensor '%s': the node of marker '%s' has no modal stresses (stresses are kept at the "
                                    "surface nodes of solid and shell meshes)"), sn->name, mt_model_marker_ref(m, sn->mi, ref, sizeof ref));
    }
    return MT_OK;
}

void mt_flex_free(MtSystem *s)
{
    if (s->flex)
        for (int i = 0; i < s->nflex; i++) free(s->flex[i].work), free(s->flex[i].work2), free(s->flex[i].hold);
    free(s->flex);
    free(s->bflex);
    free(s->mflex);
    free(s->mvert);
    free(s->mmodal);
}

/* Body-axis quantities of flexible body f at w: S = S1 w, I(w), M_Ωw(w) (3×N column-major). */
static void inertia_at(const MtFlexSys *f, const double *w, double *S, double *Iw, double *Mow)
{
    int N = f->N;
    mt_v3_set(S, 0, 0, 0);
    memcpy(Iw, f->I0, sizeof(double) * 9);
    memcpy(Mow, f->Ir, sizeof(double) * 3 * N);
    for (int j = 0; j < N; j++) {
        double wj = w[j];
        if (wj == 0) continue;
        mt_v3_axpy(S, wj, f->S1 + 3 * j);
        for (int a = 0; a < 9; a++) Iw[a] += wj * f->I1[9 * j + a];
        const double *Swj = f->Sw + (size_t)3 * N * j;
        for (int i = 0; i < 3 * N; i++) Mow[i] += wj * Swj[i];
    }
    double P[6] = {0, 0, 0, 0, 0, 0}; /* Σ_{i≤j} w_i w_j I2s_ij */
    for (int j = 0; j < N; j++) {
        const double *B = f->I2s + 6 * ((size_t)j * (j + 1) / 2);
        double wj = w[j];
        for (int i = 0; i <= j; i++, B += 6) {
            double c = w[i] * wj;
            P[0] += c * B[0]; P[1] += c * B[1]; P[2] += c * B[2]; P[3] += c * B[3]; P[4] += c * B[4]; P[5] += c * B[5];
        }
    }
    Iw[0] += P[0]; Iw[4] += P[1]; Iw[8] += P[2];
    Iw[1] += P[3]; Iw[3] += P[3]; Iw[2] += P[4]; Iw[6] += P[4]; Iw[5] += P[5]; Iw[7] += P[5];
}

/* The frame's acceleration in the stiffening. With the interface held, the
 * d'Alembert load of the frame's rigid acceleration has the uniform part
 * −a_o (a_o the acceleration of the FE origin, body axes) and stiffens like
 * gravity: the modal force Σ_j a_o,j Kg_j w. a_o = Aᵀa_c + [c]× Aᵀα −
 * Ω×(Ω×c) (c the centre of mass, the frame's origin, in FE coordinates)
 * holds the accelerations, which are not known before the solve; so the
 * part in them moves into the mass matrix, with G = [Kg_0 w, Kg_1 w, Kg_2 w]
 * (N×3): M_wv −= G Aᵀ, M_wω −= G [c]× Aᵀ, and their transposes, which keep
 * M symmetric (they are the momentum of the second-order displacement field
 * whose potential under gravity is the gravity stiffening; its quadratic
 * velocity terms are left out). The known part −Ω×(Ω×c) is a force
 * (mt_flex_forces). Taken one step late instead, the frame's acceleration
 * carried the body's vibration into the stiffness and made explicit runs
 * take 8 times the steps. */
static void accel_coupling(const MtFlexSys *f, const double *R, const double *w, double *M)
{
    int N = f->N, d = f->d;
    size_t NN = (size_t)N * N;
    const double *c = f->com;
    double X[9] = {0, -c[2], c[1], c[2], 0, -c[0], -c[1], c[0], 0}; /* [c]× */
    for (int i = 0; i < N; i++) {
        double g[3], gc[3];
        for (int j = 0; j < 3; j++) {
            const double *K = f->Kg + (size_t)j * NN + i; /* row i of Kg_j (symmetric) */
            double s = 0;
            for (int k = 0; k < N; k++) s += K[(size_t)N * k] * w[k];
            g[j] = s;
        }
        for (int b = 0; b < 3; b++) gc[b] = g[0] * X[b] + g[1] * X[3 + b] + g[2] * X[6 + b]; /* g [c]× */
        for (int a = 0; a < 3; a++) {
            double mv = -(g[0] * R[3 * a] + g[1] * R[3 * a + 1] + g[2] * R[3 * a + 2]);  /* −(G Aᵀ)_ia */
            double mo = -(gc[0] * R[3 * a] + gc[1] * R[3 * a + 1] + gc[2] * R[3 * a + 2]); /* −(G [c]× Aᵀ)_ia */
            M[(size_t)(6 + i) + (size_t)d * a] += mv;
            M[(size_t)a + (size_t)d * (6 + i)] += mv;
            M[(size_t)(6 + i) + (size_t)d * (3 + a)] += mo;
            M[(size_t)(3 + a) + (size_t)d * (6 + i)] += mo;
        }
    }
}

/* The (6+N)² mass matrix of flexible body f at rotation R and modal
 * coordinates w, plus c·K in the modal block (the projections' metric), into
 * M (column-major, unfactored); S, I(w), M_Ωw(w) into S, Iw, Mow. */
static void mass_matrix(const MtFlexSys *f, const double *R, const double *w, double c, double *M, double *S,
                        double *Iw, double *Mow)
{
    int N = f->N, d = f->d;
    double Sp[3], T[9];
    inertia_at(f, w, S, Iw, Mow);
    mt_m3_mulv(Sp, R, S);
    memset(M, 0, sizeof(double) * (size_t)d * (size_t)d);
#define E(r, c) M[(size_t)(r) + (size_t)d * (size_t)(c)]
    for (int a = 0; a < 3; a++) E(a, a) = f->mass;
    /* −[Sp]× in (v, ω), [Sp]× in (ω, v) */
    double X[9] = {0, -Sp[2], Sp[1], Sp[2], 0, -Sp[0], -Sp[1], Sp[0], 0};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            E(a, 3 + b) = -X[3 * a + b];
            E(3 + a, b) = X[3 * a + b];
        }
    mt_m3_rotate_sym(T, R, Iw);
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) E(3 + a, 3 + b) = T[3 * a + b];
    for (int j = 0; j < N; j++) {
        double t[3], r[3];
        mt_m3_mulv(t, R, f->S1 + 3 * j);
        mt_m3_mulv(r, R, Mow + 3 * j);
        for (int a = 0; a < 3; a++) {
            E(a, 6 + j) = E(6 + j, a) = t[a];
            E(3 + a, 6 + j) = E(6 + j, 3 + a) = r[a];
        }
        for (int i2 = 0; i2 < N; i2++) E(6 + i2, 6 + j) = f->Mww[i2 + (size_t)N * j] + c * f->K[i2 + (size_t)N * j];
    }
#undef E
    if (f->Kg) accel_coupling(f, R, w, M);
}

int mt_flex_mass_matrix(const MtState *st, int i, const double *q, double *M)
{
    const MtSystem *s = st->sys;
    const MtFlexSys *f = &s->flex[i];
    double S[3], Iw[9], *Mow = malloc(sizeof(double) * (3 * (size_t)f->N + 1));
    if (!Mow) return -1;
    mass_matrix(f, st->R + 9 * f->body, q + 7 * s->nbody + f->moff, 0, M, S, Iw, Mow);
    free(Mow);
    return 0;
}

void mt_flex_stage_mass(MtState *st, const double *q)
{
    const MtSystem *s = st->sys;
    for (int i = 0; i < s->nflex; i++) {
        const MtFlexSys *f = &s->flex[i];
        int d = f->d;
        const double *w = q + 7 * s->nbody + f->moff, *R = st->R + 9 * f->body;
        /* S, I(w), M_Ωw(w) stay in the cache for mt_flex_forces of the same evaluation */
        double *M = st->fmat + f->moffm, *S = st->fcache + f->coff, *Iw = S + 3, *Mow = S + 12;
        mass_matrix(f, R, w, st->proj_c, M, S, Iw, Mow);
        if (st->flex_hold && f->hold) { /* held coordinates apart (unit rows), so that M⁻¹ does not move them */
            const unsigned char *h = f->hold + (st->flex_hold == 2 ? f->N : 0);
            for (int j = 6; j < d; j++)
                if (h[j - 6])
                    for (int r = 0; r < d; r++) M[(size_t)r + (size_t)d * j] = M[(size_t)j + (size_t)d * r] = r == j;
        }
        LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', d, M, d);
    }
}

void mt_flex_solve(const MtState *st, int b, double *x6, double *xw)
{
    const MtSystem *s = st->sys;
    const MtFlexSys *f = &s->flex[s->bflex[b]];
    double *x = st->fwork + 3 * (size_t)s->dmax;
    memcpy(x, x6, sizeof(double) * 6);
    memcpy(x + 6, xw, sizeof(double) * (size_t)f->N);
    LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'L', f->d, 1, st->fmat + f->moffm, f->d, x, f->d);
    memcpy(x6, x, sizeof(double) * 6);
    if (st->flex_hold && f->hold)
        for (int j = 0; j < f->N; j++)
            if (f->hold[j + (st->flex_hold == 2 ? f->N : 0)]) x[6 + j] = 0;
    memcpy(xw, x + 6, sizeof(double) * (size_t)f->N);
}

/* The force of the interface loads' pre-stress: out = (Σ_k w_k Kw_k) w, the
 * geometric stiffness of the stress the interface displacement carries now.
 * The other term of the cubic potential ½ Σ_k w_k wᵀKw_k w, ½ wᵀKw_j w on
 * coordinate j (bending shortening the chord between the interface nodes), is
 * left out: without the quartic term of the strain energy, which linear modes
 * do not have, it makes the energy unbounded below, and a connecting rod bent
 * by 2 mm felt 600 N of spurious compression and snapped; without it the
 * interface's axial stretch, and so the axial force, are the ones the loads
 * set. t: N scratch. */
static void interface_stiffening(const MtFlexSys *f, const double *w, double *out, double *t)
{
    int N = f->N;
    memset(out, 0, sizeof(double) * (size_t)N);
    for (int k = 0; k < N; k++) {
        if (w[k] == 0) continue;
        const double *K = f->Kw + (size_t)k * N * N;
        for (int i = 0; i < N; i++) {
            double s = 0;
            for (int l = 0; l < N; l++) s += K[i + (size_t)N * l] * w[l];
            t[i] = s;
        }
        for (int i = 0; i < N; i++) out[i] += w[k] * t[i];
    }
}

void mt_flex_forces(MtState *st, int b, const double *q, const double *u)
{
    const MtSystem *s = st->sys;
    const MtFlexSys *f = &s->flex[s->bflex[b]];
    int N = f->N, nb = s->nbody;
    const double *w = q + 7 * nb + f->moff, *wd = u + 6 * nb + f->moff, *R = st->R + 9 * b, *om = u + 6 * b + 3;
    double *F = st->f + 6 * b, *Fw = st->f + 6 * nb + f->moff;
    /* S, I(w), M_Ωw(w) of this q: mt_flex_stage_mass ran first in this evaluation */
    const double *S = st->fcache + f->coff, *Iw = S + 3, *Mow = S + 12;
    double *e = st->fcache + f->coff + 12 + 3 * (size_t)N, Om[3], Sd[3] = {0, 0, 0}, Id[9] = {0};
    mt_m3_tmulv(Om, R, om);
    for (int j = 0; j < N; j++) mt_v3_axpy(Sd, wd[j], f->S1 + 3 * j);
    /* İ = Σ ẇ_j I1_j + Σ (ẇ_i w_j + w_i ẇ_j) I2_ij, the pairs i ≤ j packed */
    double P[6] = {0, 0, 0, 0, 0, 0};
    for (int j = 0; j < N; j++) {
        for (int a = 0; a < 9; a++) Id[a] += wd[j] * f->I1[9 * j + a];
        const double *B = f->I2s + 6 * ((size_t)j * (j + 1) / 2);
        for (int i = 0; i <= j; i++, B += 6) {
            double c = wd[i] * w[j] + w[i] * wd[j];
            P[0] += c * B[0]; P[1] += c * B[1]; P[2] += c * B[2]; P[3] += c * B[3]; P[4] += c * B[4]; P[5] += c * B[5];
        }
    }
    Id[0] += P[0]; Id[4] += P[1]; Id[8] += P[2];
    Id[1] += P[3]; Id[3] += P[3]; Id[2] += P[4]; Id[6] += P[4]; Id[5] += P[5]; Id[7] += P[5];
    /* translation: m g − A(Ω×(Ω×S) + 2Ω×Sd) */
    double t1[3], t2[3], qt[3];
    mt_v3_cross(t1, Om, S);
    mt_v3_cross(t1, Om, t1);
    mt_v3_cross(t2, Om, Sd);
    mt_v3_axpy(t1, 2, t2);
    mt_m3_mulv(qt, R, t1);
    mt_v3_scale(F, s->gravity, f->mass);
    mt_v3_sub(F, F, qt);
    /* rotation: AS × g − A(İΩ + Ω×(IΩ + M_Ωw ẇ)) */
    double h[3], a1[3], qr[3], Sp[3], tg[3];
    mt_m3_mulv(h, Iw, Om);
    for (int j = 0; j < N; j++) mt_v3_axpy(h, wd[j], Mow + 3 * j);
    mt_m3_mulv(a1, Id, Om);
    mt_v3_cross(t1, Om, h);
    mt_v3_add(a1, a1, t1);
    mt_m3_mulv(qr, R, a1);
    mt_m3_mulv(Sp, R, S);
    mt_v3_cross(tg, Sp, s->gravity);
    mt_v3_sub(F + 3, tg, qr);
    /* modes: S1ᵀAᵀg − K w − D ẇ − (2 Σ_i ẇ_i Ω·C_ij − ½ Ωᵀ ∂I/∂w_j Ω), with
     * Ωᵀ ∂I/∂w_j Ω = ΩᵀI1_jΩ + Σ_i w_i (e_ij + e_ji), e_ij = ΩᵀI2_ijΩ computed once */
    double gb[3], OO[9];
    mt_m3_tmulv(gb, R, s->gravity);
    for (int a = 0; a < 3; a++)
        for (int b2 = 0; b2 < 3; b2++) OO[3 * a + b2] = Om[a] * Om[b2];
    double o2 = OO[0] + OO[4] + OO[8]; /* the pre-stress factors of the stiffening cases */
    /* the uniform load case g − a_o: gravity and the known part of −a_o, Ω×(Ω×c) (the part of a_o in
     * the accelerations is in the mass matrix, accel_coupling) */
    double oc[3];
    mt_v3_cross(oc, Om, f->com);
    mt_v3_cross(oc, Om, oc);
    const double pg[MT_FLEX_NKG] = {gb[0] + oc[0], gb[1] + oc[1], gb[2] + oc[2], o2 - OO[0], o2 - OO[4], o2 - OO[8],
                                    -OO[1], -OO[5], -OO[2]};
    for (int j = 0; j < N; j++) { /* e_ij + e_ji = OO : I2s_ij (i < j), 2 OO : I2s_jj — kept in e[i + N·j] and e[j + N·i] */
        const double *B = f->I2s + 6 * ((size_t)j * (j + 1) / 2);
        for (int i = 0; i <= j; i++, B += 6) {
            double v = B[0] * OO[0] + B[1] * OO[4] + B[2] * OO[8] + 2 * (B[3] * OO[1] + B[4] * OO[2] + B[5] * OO[5]);
            e[i + (size_t)N * j] = e[j + (size_t)N * i] = i == j ? v : 0.5 * v;
        }
    }
    if (f->Kw) interface_stiffening(f, w, e + (size_t)N * N, st->fwork + 8 * (size_t)s->dmax);
    for (int j = 0; j < N; j++) {
        double v = f->mass ? mt_v3_dot(f->S1 + 3 * j, gb) : 0;
        const double *I1 = f->I1 + 9 * j;
        for (int i = 0; i < N; i++) v -= f->K[j + (size_t)N * i] * w[i] + f->D[j + (size_t)N * i] * wd[i];
        if (f->Kg) {
            const double *G = f->Kg + j;
            size_t NN = (size_t)N * N;
            for (int i = 0; i < N; i++, G += N) {
                double k = pg[0] * G[0] + pg[1] * G[NN] + pg[2] * G[2 * NN] + pg[3] * G[3 * NN] + pg[4] * G[4 * NN] +
                           pg[5] * G[5 * NN] + pg[6] * G[6 * NN] + pg[7] * G[7 * NN] + pg[8] * G[8 * NN];
                v -= k * w[i];
            }
        }
        if (f->Kw) v -= e[(size_t)N * N + j]; /* the interface loads' pre-stress (interface_stiffening) */
        double cor = 0, quad = I1[0] * OO[0] + I1[1] * OO[1] + I1[2] * OO[2] + I1[3] * OO[3] + I1[4] * OO[4] +
                               I1[5] * OO[5] + I1[6] * OO[6] + I1[7] * OO[7] + I1[8] * OO[8];
        for (int i = 0; i < N; i++) {
            cor += wd[i] * mt_v3_dot(Om, f->Sw + (size_t)3 * N * i + 3 * j);
            quad += w[i] * (e[i + (size_t)N * j] + e[j + (size_t)N * i]); /* e_ij at i + N·j, like I2 */
        }
        v -= 2 * cor - 0.5 * quad;
        Fw[j] += v;
    }
}

/* Elastic displacement Φw and rotation Ψw of marker mk (body axes), and their rates. */
static void marker_modal(const MtSystem *s, int mk, const double *w, const double *wd, double *xe, double *th,
                         double *xed, double *thd)
{
    const MtFlexSys *f = &s->flex[s->bflex[s->mbody[mk]]];
    int N = f->N;
    const double *Phi = s->mmodal + s->mflex[mk], *Psi = Phi + 3 * N;
    for (int a = 0; a < 3; a++) {
        double x = 0, t = 0, xd = 0, td = 0;
        for (int j = 0; j < N; j++) {
            x += Phi[a * N + j] * w[j];
            t += Psi[a * N + j] * w[j];
            if (wd) { xd += Phi[a * N + j] * wd[j]; td += Psi[a * N + j] * wd[j]; }
        }
        xe[a] = x; th[a] = t;
        if (xed) { xed[a] = xd; thd[a] = td; }
    }
}

void mt_flex_marker(const MtState *st, const double *q, const double *u, int mk, MtMk *o, int axes)
{
    const MtSystem *s = st->sys;
    int b = s->mbody[mk];
    const MtFlexSys *f = &s->flex[s->bflex[b]];
    const double *w = q + 7 * s->nbody + f->moff, *wd = u ? u + 6 * s->nbody + f->moff : NULL, *R = st->R + 9 * b;
    double xe[3], th[3], xed[3] = {0, 0, 0}, thd[3] = {0, 0, 0}, loc[3];
    marker_modal(s, mk, w, wd, xe, th, wd ? xed : NULL, wd ? thd : NULL);
    mt_v3_add(loc, s->mpos + 3 * mk, xe);
    mt_m3_mulv(o->r, R, loc);
    mt_v3_add(o->p, q + 7 * b, o->r);
    if (axes) { /* A · exp([θ]×) · marker axes */
        double qe[4], Re[9], T[9], Ax[9];
        mt_quat_from_rotvec(qe, th);
        mt_quat_to_m3(Re, qe);
        mt_m3_mul(T, R, Re);
        mt_m3_mul(Ax, T, s->mrot + 9 * mk);
        for (int k = 0; k < 3; k++) mt_v3_set(o->ax[k], Ax[k], Ax[3 + k], Ax[6 + k]);
    }
    if (!u) {
        memset(o->v, 0, sizeof o->v); memset(o->w, 0, sizeof o->w); memset(o->wb, 0, sizeof o->wb); memset(o->vp, 0, sizeof o->vp);
        return;
    }
    double t[3];
    mt_v3_copy(o->v, u + 6 * b);
    mt_v3_copy(o->wb, u + 6 * b + 3);
    mt_m3_mulv(t, R, thd);
    mt_v3_add(o->w, o->wb, t);
    mt_v3_cross(o->vp, o->wb, o->r);
    mt_v3_add(o->vp, o->vp, o->v);
    mt_m3_mulv(t, R, xed);
    mt_v3_add(o->vp, o->vp, t);
}

double mt_flex_row(const MtState *st, const double *q, const double *u, int mk, const double *G, double coef, double *gw)
{
    const MtSystem *s = st->sys;
    int b = s->mbody[mk];
    const MtFlexSys *f = &s->flex[s->bflex[b]];
    int N = f->N;
    const double *w = q + 7 * s->nbody + f->moff, *wd = u + 6 * s->nbody + f->moff, *R = st->R + 9 * b;
    const double *om = u + 6 * b + 3, *Phi = s->mmodal + s->mflex[mk], *Psi = Phi + 3 * N;
    double xe[3], th[3], xed[3], thd[3], loc[3], r[3], a[3], bb[3], t[3];
    marker_modal(s, mk, w, wd, xe, th, xed, thd);
    mt_v3_add(loc, s->mpos + 3 * mk, xe);
    mt_m3_mulv(r, R, loc);
    /* the row on the marker's pose: a on its point velocity, b on its angular velocity */
    mt_v3_copy(a, G);
    mt_v3_cross(t, r, a);
    mt_v3_sub(bb, G + 3, t);
    double ab[3], bbb[3];
    mt_m3_tmulv(ab, R, a);
    mt_m3_tmulv(bbb, R, bb);
    for (int j = 0; j < N; j++)
        gw[j] += coef * (ab[0] * Phi[j] + ab[1] * Phi[N + j] + ab[2] * Phi[2 * N + j] + bbb[0] * Psi[j] +
                         bbb[1] * Psi[N + j] + bbb[2] * Psi[2 * N + j]);
    /* velocity terms: a·2ω×(A Φ ẇ) + b·ω×(A Ψ ẇ) */
    double ve[3], we[3], c1[3], c2[3];
    mt_m3_mulv(ve, R, xed);
    mt_m3_mulv(we, R, thd);
    mt_v3_cross(c1, om, ve);
    mt_v3_cross(c2, om, we);
    return coef * (2 * mt_v3_dot(a, c1) + mt_v3_dot(bb, c2));
}

void mt_apply_load(MtState *st, const double *q, int mk, const double *p, const double *F, const double *T, double sign)
{
    const MtSystem *s = st->sys;
    int b = s->mbody[mk];
    if (b < 0) return;
    double r[3], tq[3], *f = st->f + 6 * b;
    mt_v3_sub(r, p, q + 7 * b);
    mt_v3_cross(tq, r, F);
    if (T) mt_v3_add(tq, tq, T);
    mt_v3_axpy(f, sign, F);
    mt_v3_axpy(f + 3, sign, tq);
    if (!s->mflex || s->mflex[mk] < 0) return;
    /* modal forces: the load moved to the node (force F, couple T + (p − p_node) × F) */
    const MtFlexSys *fl = &s->flex[s->bflex[b]];
    int N = fl->N;
    const double *w = q + 7 * s->nbody + fl->moff, *R = st->R + 9 * b, *Phi = s->mmodal + s->mflex[mk], *Psi = Phi + 3 * N;
    double xe[3], th[3], loc[3], pm[3], d[3], Tn[3], Fb[3], Tb[3];
    marker_modal(s, mk, w, NULL, xe, th, NULL, NULL);
    mt_v3_add(loc, s->mpos + 3 * mk, xe);
    mt_m3_mulv(pm, R, loc);
    mt_v3_add(pm, pm, q + 7 * b);
    mt_v3_sub(d, p, pm);
    mt_v3_cross(Tn, d, F);
    if (T) mt_v3_add(Tn, Tn, T);
    mt_m3_tmulv(Fb, R, F);
    mt_m3_tmulv(Tb, R, Tn);
    double *fw = st->f + 6 * s->nbody + fl->moff;
    for (int j = 0; j < N; j++)
        fw[j] += sign * (Fb[0] * Phi[j] + Fb[1] * Phi[N + j] + Fb[2] * Phi[2 * N + j] + Tb[0] * Psi[j] + Tb[1] * Psi[N + j] +
                         Tb[2] * Psi[2 * N + j]);
}

/* The quantities of flexible body b at (q, u) that its energy and momenta
 * need, independent of any evaluation (M_Ωw in st->fwork). */
typedef struct {
    const MtFlexSys *f;
    const double *w, *wd, *v, *om;
    double R[9], S[3], Iw[9], Om[3], Sd[3], *Mow;
} FlexNow;

static void flex_now(const MtState *st, int b, const double *q, const double *u, FlexNow *x)
{
    const MtSystem *s = st->sys;
    const MtFlexSys *f = x->f = &s->flex[s->bflex[b]];
    int nb = s->nbody;
    x->w = q + 7 * nb + f->moff, x->wd = u + 6 * nb + f->moff, x->v = u + 6 * b, x->om = u + 6 * b + 3;
    double p[4] = {q[7 * b + 3], q[7 * b + 4], q[7 * b + 5], q[7 * b + 6]};
    mt_quat_normalize(p);
    mt_quat_to_m3(x->R, p);
    x->Mow = st->fwork + (size_t)s->dmax;
    inertia_at(f, x->w, x->S, x->Iw, x->Mow);
    mt_m3_tmulv(x->Om, x->R, x->om);
    mt_v3_set(x->Sd, 0, 0, 0);
    for (int j = 0; j < f->N; j++) mt_v3_axpy(x->Sd, x->wd[j], f->S1 + 3 * j);
}

void mt_flex_energy(const MtState *st, int b, const double *q, const double *u, double *kin, double *pot)
{
    const MtSystem *s = st->sys;
    FlexNow x;
    flex_now(st, b, q, u, &x);
    const MtFlexSys *f = x.f;
    int N = f->N;
    const double *w = x.w, *wd = x.wd, *v = x.v, *R = x.R, *S = x.S, *Iw = x.Iw, *Om = x.Om, *Sd = x.Sd, *Mow = x.Mow;
    double t[3], vb[3];
    mt_m3_tmulv(vb, R, v);
    mt_v3_cross(t, Om, S);
    mt_v3_add(t, t, Sd);
    double IO[3];
    mt_m3_mulv(IO, Iw, Om);
    double T = 0.5 * f->mass * mt_v3_dot(v, v) + mt_v3_dot(vb, t) + 0.5 * mt_v3_dot(Om, IO);
    double V = 0;
    for (int j = 0; j < N; j++) {
        T += wd[j] * mt_v3_dot(Om, Mow + 3 * j);
        for (int i = 0; i < N; i++) {
            T += 0.5 * wd[i] * f->Mww[i + (size_t)N * j] * wd[j];
            V += 0.5 * w[i] * f->K[i + (size_t)N * j] * w[j];
        }
    }
    double Sp[3];
    mt_m3_mulv(Sp, R, S);
    V -= f->mass * mt_v3_dot(s->gravity, q + 7 * b) + mt_v3_dot(s->gravity, Sp);
    *kin = T;
    *pot = V;
}

void mt_flex_momentum(const MtState *st, int b, const double *q, const double *u, double p[3], double H[3])
{
    FlexNow n;
    flex_now(st, b, q, u, &n);
    const MtFlexSys *f = n.f;
    int N = f->N;
    const double *wd = n.wd, *v = n.v, *R = n.R, *S = n.S, *Iw = n.Iw, *Om = n.Om, *Sd = n.Sd, *Mow = n.Mow;
    double t[3], h[3], Sp[3], hp[3], x[3];
    mt_v3_cross(t, Om, S);
    mt_v3_add(t, t, Sd);
    mt_m3_mulv(p, R, t);
    mt_v3_axpy(p, f->mass, v);
    mt_m3_mulv(h, Iw, Om);
    for (int j = 0; j < N; j++) mt_v3_axpy(h, wd[j], Mow + 3 * j);
    mt_m3_mulv(hp, R, h);
    mt_m3_mulv(Sp, R, S);
    mt_v3_cross(t, Sp, v);
    mt_v3_add(H, hp, t);
    mt_v3_cross(x, q + 7 * b, p);
    mt_v3_add(H, H, x);
}

void mt_flex_marker_acc(const MtState *st, int mk, double a[3], double eps[3])
{
    const MtSystem *s = st->sys;
    int b = s->mbody[mk], nb = s->nbody;
    const MtFlexSys *f = &s->flex[s->bflex[b]];
    const double *q = st->q, *u = st->u, *R = st->R + 9 * b, *ac = st->acc + 6 * b, *om = u + 6 * b + 3;
    const double *w = q + 7 * nb + f->moff, *wd = u + 6 * nb + f->moff, *wdd = st->acc + 6 * nb + f->moff;
    double xe[3], th[3], xed[3], thd[3], xedd[3], thdd[3], loc[3], r[3], t[3], t2[3];
    marker_modal(s, mk, w, wd, xe, th, xed, thd);
    marker_modal(s, mk, wdd, NULL, xedd, thdd, NULL, NULL);
    mt_v3_add(loc, s->mpos + 3 * mk, xe);
    mt_m3_mulv(r, R, loc);
    /* a = a_c + ε×r + ω×(ω×r) + 2ω×(AΦẇ) + AΦẅ */
    mt_v3_cross(t, ac + 3, r);
    mt_v3_add(a, ac, t);
    mt_v3_cross(t, om, r);
    mt_v3_cross(t, om, t);
    mt_v3_add(a, a, t);
    mt_m3_mulv(t2, R, xed);
    mt_v3_cross(t, om, t2);
    mt_v3_axpy(a, 2, t);
    mt_m3_mulv(t, R, xedd);
    mt_v3_add(a, a, t);
    /* ε_m = ε + AΨẅ + ω×(AΨẇ) */
    mt_m3_mulv(t, R, thdd);
    mt_v3_add(eps, ac + 3, t);
    mt_m3_mulv(t2, R, thd);
    mt_v3_cross(t, om, t2);
    mt_v3_add(eps, eps, t);
}

void mt_flex_deformation(const MtState *st, int mk, int order, double v[3])
{
    const MtSystem *s = st->sys;
    const MtFlexSys *f = &s->flex[s->bflex[s->mbody[mk]]];
    const double *x = order == 0 ? st->q + 7 * s->nbody : order == 1 ? st->u + 6 * s->nbody : st->acc + 6 * s->nbody;
    double th[3];
    marker_modal(s, mk, x + f->moff, NULL, v, th, NULL, NULL);
}

double mt_flex_stress(const MtState *st, int mk)
{
    const MtSystem *s = st->sys;
    if (!s->mflex || s->mflex[mk] < 0) return NAN;
    const MtFlexSys *f = &s->flex[s->bflex[s->mbody[mk]]];
    const MtFlexBody *fb = f->fb;
    int v = s->mvert ? s->mvert[mk] : -1;
    if (v < 0 || !fb->sv_sig) return NAN;
    const double *w = st->q + 7 * s->nbody + f->moff;
    double sg[6] = {0, 0, 0, 0, 0, 0};
    for (int k = 0; k < f->N; k++)
        for (int c = 0; c < 6; c++) sg[c] += w[k] * (double)fb->sv_sig[6 * ((size_t)k * fb->nsv + (size_t)v) + c];
    double a = sg[0] - sg[1], b = sg[1] - sg[2], c = sg[2] - sg[0];
    return sqrt(0.5 * (a * a + b * b + c * c) + 3 * (sg[3] * sg[3] + sg[4] * sg[4] + sg[5] * sg[5]));
}

double mt_flex_elastic_energy(const MtState *st, int b, const double *q)
{
    const MtSystem *s = st->sys;
    const MtFlexSys *f = &s->flex[s->bflex[b]];
    const double *w = q + 7 * s->nbody + f->moff;
    double V = 0;
    for (int j = 0; j < f->N; j++)
        for (int i = 0; i < f->N; i++) V += 0.5 * w[i] * f->K[i + (size_t)f->N * j] * w[j];
    return V;
}
