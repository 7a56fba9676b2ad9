/* mt_flex.h — flexible bodies in the dynamics (internal to core; docs/design.md §4.3,
 * docs/flexible-bodies.md "Dynamics"): the compiled data of each flexible
 * body and the stages that give its mass matrix, its quadratic velocity,
 * elastic and gravity forces, the kinematics of markers on its nodes, the
 * modal columns of constraint rows and the mapping of loads to modal forces.
 *
 * Coordinates: the floating frame sits at the undeformed centre of mass of the
 * FE model, axes those of the FE model (the body axes); its modal
 * coordinates w (N of them) follow all the rigid coordinates:
 * q = [7·nbody | w], u = [6·nbody | ẇ]. */
#ifndef MT_FLEX_H
#define MT_FLEX_H

#include "mt_kin.h"
#include "mt_system.h"

typedef struct MtFlexSys {
    int body, N, moff;   /* modal coordinates at q[7·nbody + moff], u[6·nbody + moff] */
    int d;               /* 6 + N: size of the body's mass matrix */
    unsigned char *hold; /* NULL, or 2N flags: the modal coordinates (first N) and rates (last N) the initial
                          * assembly holds (`initial rest`: all, at 0; `initial BODY.wK`: the ones given) */
    const struct MtFlexBody *fb; /* the reduced body (owned by the system's model) */
    size_t moffm;        /* offset of its (d×d) mass factor in MtState.fmat */
    size_t coff;         /* offset of its per-evaluation values in MtState.fcache: S (3), I (9), M_Ωw (3N), e (N²) */
    double mass;
    /* inertia invariants about the frame origin, body axes (mt_fe_reduce.h; shifted to the centre of mass) */
    double I0[9];
    double *S1;          /* 3×N column-major: Σ m Φ */
    double *Ir;          /* 3×N: Σ (m [ρ]× Φ + J Ψ) */
    double *I1;          /* 9·N */
    double *I2;          /* 9·N·N, block (i, j) at 9·(i + N·j) */
    double *I2s;         /* packed symmetric pairs, i ≤ j at 6·(j(j+1)/2 + i): sym(I2_ij + I2_ji), sym(I2_ii) on
                          * the diagonal (xx yy zz xy xz yz) — all that I(w), İ and Ωᵀ∂I/∂wΩ need */
    double *Sw;          /* 3·N·N, block j (3×N) at 3N·j */
    double *Mww;         /* N×N */
    double *K, *D;       /* N×N stiffness and damping */
    const double *Kg;    /* geometric stiffening: MT_FLEX_NKG blocks N×N (MtFlexBody.Kg), NULL when off */
    const double *Kw;    /* with it, the interface loads' part: N blocks N×N (MtFlexBody.Kw), NULL when off */
    double com[3];       /* the centre of mass (the frame's origin) in FE coordinates */
    double *work;        /* owner of the arrays above */
    double *work2;       /* owner of I2s */
} MtFlexSys;

/* Compiles the flexible bodies of s->model (called by mt_system_compile after
 * the rigid body data): s->nflex, s->flex, s->bflex, s->mflex, s->mmodal,
 * s->nmodal. Errors name the body or marker. */
MtStatus mt_flex_compile(MtSystem *s, MtError *err);
void mt_flex_free(MtSystem *s);

/* Stage: mass matrix M(q) of every flexible body, factored (Cholesky). */
void mt_flex_stage_mass(MtState *st, const double *q);
/* The mass matrix of flexible body i (index in s->flex) at q, unfactored,
 * (6+N)² column-major, velocities (v, ω, ẇ) in project axes (st->R staged);
 * -1 when out of memory. */
int mt_flex_mass_matrix(const MtState *st, int i, const double *q, double *M);
/* Modal damping on the modes the body has when its joints hold it
 * (mt_flex_damp.c): replaces the D of every flexible body damped by `zeta`
 * with one that gives each of those modes the ratio ζ; st is the system
 * evaluated at its initial configuration (G and its modal columns staged).
 * Called once by mt_system_assemble. */
MtStatus mt_flex_damping(MtSystem *s, const MtState *st, MtError *err);
/* Gravity, quadratic velocity, elastic and damping forces of flexible body b
 * into st->f (rigid part at 6·b, modal part at 6·nbody + moff). */
void mt_flex_forces(MtState *st, int b, const double *q, const double *u);
/* x ← M⁻¹ x for flexible body b, x = [6 rigid | N modal] given as two parts. */
void mt_flex_solve(const MtState *st, int b, double *x6, double *xw);

/* Pose and velocity of a marker on a node of a flexible body (mt_marker_eval
 * calls it for those markers). */
void mt_flex_marker(const MtState *st, const double *q, const double *u, int mk, MtMk *o, int axes);
/* For one constraint row whose rigid Jacobian on the marker's body is G (6),
 * adds coef × its modal columns to gw (N) and returns coef × the velocity
 * terms the rigid formulas leave out (Coriolis 2ω×ẋ_e and ω×θ̇_e). */
double mt_flex_row(const MtState *st, const double *q, const double *u, int mk, const double *G, double coef, double *gw);
/* Adds a load applied at point p (project axes) on the body of marker mk —
 * force F and couple T (T may be NULL), multiplied by sign — to st->f,
 * including the modal forces of a flexible body (the load moved to the
 * marker's node first). */
void mt_apply_load(MtState *st, const double *q, int mk, const double *p, const double *F, const double *T, double sign);
/* Kinetic energy ½ uᵀMu and potential energy (elastic + gravity) of flexible body b. */
void mt_flex_energy(const MtState *st, int b, const double *q, const double *u, double *kin, double *pot);

/* Absolute acceleration and angular acceleration of a marker on a flexible body (after an evaluation). */
void mt_flex_marker_acc(const MtState *st, int mk, double a[3], double eps[3]);
/* Elastic displacement (order 0), its rate (1) or second rate (2) of the
 * marker's node, in the body's axes. */
void mt_flex_deformation(const MtState *st, int mk, int order, double v[3]);
/* von Mises stress at the marker's node (a surface node with modal stresses), Pa; NAN elsewhere. */
double mt_flex_stress(const MtState *st, int mk);
/* Elastic energy ½ wᵀKw of flexible body b. */
double mt_flex_elastic_energy(const MtState *st, int b, const double *q);

/* Linear momentum and angular momentum about the project origin of flexible body b. */
void mt_flex_momentum(const MtState *st, int b, const double *q, const double *u, double p[3], double H[3]);

/* Modal coordinates of body b in q (NULL for a rigid body) and their count. */
static inline int mt_body_modes(const MtSystem *s, int b)
{
    return (s->bflex && b >= 0 && s->bflex[b] >= 0) ? s->flex[s->bflex[b]].N : 0;
}

#endif
