/* motus/analysis.h — analyses besides time integration (docs/design.md §2.8;
 * docs/analyses.md):
 *
 *   kinematics  fully driven mechanisms (no degree of freedom left): positions
 *               by Newton, velocities and accelerations from the constraints
 *               alone at each output time, then the reactions and driver
 *               efforts that keep the prescribed motion (inverse dynamics);
 *   statics     equilibrium F(q) + G(q)ᵀλ = 0, g(q) = 0 at rest, by Newton on
 *               (q, λ) with a finite-difference tangent stiffness, a line
 *               search and dynamic relaxation as a fallback; the stability of
 *               the equilibrium from the reduced stiffness;
 *   modes       linearisation about the equilibrium (or the initial
 *               configuration) in minimal coordinates: eigenfrequencies,
 *               damping ratios and mode shapes.
 *
 * In statics and modes every driver holds its coordinate where it is at the
 * start time (a driver at velocity or acceleration level holds the coordinate
 * at its initial value): a driven joint is locked. Flexible bodies take part with
 * their modal coordinates (elastic forces, modal damping, the modal columns
 * of the constraints, the mass matrix of the dynamics); a point mass's
 * rotation is no unknown and no coordinate (docs/analyses.md, "Flexible
 * bodies and point masses"). Dense linear algebra
 * (LAPACK); the cost grows with the cube of 6·bodies + equations, meant for
 * mechanisms of up to a few hundred bodies. */
#ifndef MOTUS_ANALYSIS_H
#define MOTUS_ANALYSIS_H

#include "motus/run.h"

/* ---- kinematic analysis ----------------------------------------------------- */

typedef struct {
    long frames;  /* frames handed to the callback */
    long steps;   /* solved time points (frames and the points skipped by `every`) */
    double gmax;  /* largest position violation |g| at the solved points */
    double gdmax; /* largest velocity violation |ġ| */
    double accdiff; /* largest |u̇_kinematic − u̇_dynamic| (consistency of the inverse dynamics) */
} MtKinStats;

/* Kinematic analysis of a fully driven mechanism (MtSystemInfo.dof_rank == 0,
 * drivers at displacement level) from the state's time to `until` every `step` seconds; frame i goes
 * to fn when i % every == 0 and at the end (like mt_run). At each time:
 * positions by Newton from a second-order prediction (mt_project_positions),
 * velocities from G u = ḟ, accelerations from G u̇ = −h (u̇ = M⁻¹Gᵀμ, A μ = −h,
 * no forces involved), then the multipliers of the inverse dynamics
 * (G u̇ = −h with u̇ = M⁻¹(F + Gᵀλ), no stabilisation terms). In the frame the
 * positions, velocities, accelerations (the kinematic ones) and multipliers
 * (reactions, driver efforts) are consistent, so mt_joint_reaction,
 * mt_driver_effort and mt_frame_values report them.
 * Refuses, naming the coordinates that are still free, when the mechanism has
 * degrees of freedom left. stats and cancel may be NULL. */
MtStatus mt_kinematics(MtState *st, double until, double step, int every, MtFrameFn fn, void *user,
                       const volatile int *cancel, MtKinStats *stats, MtError *err);

/* ---- static equilibrium ------------------------------------------------------ */

typedef struct {
    int maxit;        /* Newton iterations per attempt (0: 50) */
    long relax_steps; /* dynamic-relaxation steps at most (0: 200000) */
    double tol;       /* scaled residual at which Newton stops (0: 1e-12) */
    int relax_first;  /* 1: settle by dynamic relaxation first (downhill, towards a stable rest), and
                       * step off an unstable equilibrium along its most negative stiffness
                       * direction and settle again (up to 4 times); then Newton */
    const volatile int *cancel; /* polled between Newton iterations and relaxation steps (NULL: none):
                                 * non-zero stops the search with MT_ERR_ARG "stopped by the user" */
} MtStaticsOptions;

typedef struct {
    int iterations;           /* Newton iterations, all attempts */
    long relax_steps;         /* dynamic-relaxation steps (0 when Newton converged at once) */
    double force_residual;    /* largest force component of F + Gᵀλ, N */
    double moment_residual;   /* largest moment component of F + Gᵀλ about a centre of mass, N·m */
    double constraint_residual; /* largest |g| of the position equations */
    double elastic_residual;  /* largest unbalanced modal force of a flexible body, relative to the model's
                               * load scale (the virtual work of F·L over the coordinate's unit); 0 without */
    int dof;                  /* independent motions the constraints leave at the equilibrium */
    int negative;             /* reduced-stiffness eigenvalues below zero: unstable directions */
    int neutral;              /* eigenvalues at zero: neutral directions (free motions with no restoring force) */
    double lowest, highest;   /* lowest and highest eigenvalue of M⁻¹K in minimal coordinates, 1/s² */
    int nhold;                /* the solver's `hold` coordinates (mt_model_holds' order) */
    double hold_force[MT_HOLD_MAX]; /* the force on each held point along its axis that holds it there, N */
} MtStaticsInfo;

/* Static equilibrium with zero velocities, starting from st's initial
 * configuration (assembled first, as for a run). On success the state is the
 * equilibrium at rest (velocities and accelerations zero) with its
 * multipliers (reactions; driver efforts are the loads that hold the driven
 * coordinates), so mt_state_body, mt_joint_reaction, mt_frame_values and
 * mt_csv_frame report the equilibrium. Unstable equilibria are equilibria
 * too: info->negative tells. opt may be NULL (defaults). */
MtStatus mt_statics(MtState *st, const MtStaticsOptions *opt, MtStaticsInfo *info, MtError *err);

/* Before mt_run: with the solver's `start statics` (MT_START_STATICS) the
 * state is moved to the static equilibrium found from the assembled initial
 * configuration (mt_statics), keeping the model's initial velocities (made
 * consistent there by mt_run's assembly) — a run that starts without the
 * ringing of a structure released from its unloaded shape. Nothing happens
 * with `start assembled`. */
MtStatus mt_run_start(MtState *st, const MtSolverSpec *sv, MtError *err);

/* The elastic state of body b at st's configuration (after mt_statics: the
 * static deformation): returns its number of modal coordinates (0 for a rigid
 * body, and then nothing is written). *umax is the largest elastic
 * displacement of its surface relative to its supports (m; as the view shows
 * it, motus/flexview.h), *smax the largest von Mises stress over its surface
 * (Pa; NAN when its reduction has no modal stresses — beams). Either pointer
 * may be NULL. Per-vertex fields: mt_flexview_field with the modal
 * coordinates st->q holds after the rigid ones. */
int mt_state_flex_elastic(const MtState *st, int b, double *umax, double *smax);

/* ---- linearisation: eigenfrequencies and mode shapes --------------------------- */

typedef enum {
    MT_MODE_OSCILLATORY, /* complex pair s = −ζω ± iω√(1−ζ²) (ζ < 0: growing oscillation, flutter) */
    MT_MODE_OVERDAMPED,  /* two real negative roots with the same shape: ζ > 1 */
    MT_MODE_DECAYING,    /* one real negative root: a motion that creeps back without oscillating */
    MT_MODE_DIVERGENT,   /* a real positive root (with its partner −a when undamped): unstable in this shape */
    MT_MODE_RIGID        /* s = 0: a free (neutral) motion, no restoring force */
} MtModeKind;

typedef struct {
    MtModeKind kind;
    double s_re, s_im; /* eigenvalue, 1/s (s_im ≥ 0; overdamped: the root nearer zero; divergent pair: the growing root) */
    double s2_re;      /* a pair of real roots with the same shape: the other root (else 0) */
    double freq;       /* undamped natural frequency ω_n/2π, Hz (oscillatory, overdamped); else 0 */
    double damped_freq; /* s_im/2π, Hz */
    double zeta;       /* damping ratio (oscillatory, overdamped); NAN for real single roots and rigid motions */
    /* Shape in the velocity layout of the state (nu entries): per body 6
     * complex entries, displacement of the centre of mass (m) then small
     * rotation vector (rad), project axes (a point mass's rotation is 0);
     * then the modal coordinates of the flexible bodies (body b's at
     * woff[b] … woff[b] + nw[b] − 1, the units of the state's w). Normalised
     * so that the largest of the rigid entries and of the flexible bodies'
     * mass-weighted RMS elastic displacements √(wᴴ·Mww·w / m) is 1 (for rigid
     * models: the largest entry is 1), with the largest entry real. Per joint
     * its first coordinate (angle, else displacement, else x; NAN when the
     * joint has none). The motion is Re(shape · e^{st}). */
    double *shape_re, *shape_im; /* nu */
    double *coord_re, *coord_im; /* njoint */
} MtMode;

typedef struct MtModes {
    int nmode;         /* dof, or more when real roots come with different shapes (up to 2·dof) */
    int dof;           /* independent motions (size of the minimal coordinates) */
    int at_equilibrium;
    MtStaticsInfo statics; /* the equilibrium search (at_equilibrium) or the stiffness at the initial state */
    MtMode *mode;      /* sorted by |s| (natural frequency), rigid motions first */
    double *store;
    /* what a view needs to draw the modes (mt_modes_configuration) */
    int nbody, nq, nu;  /* the state's layout: q = [7·nbody | modal], u and shapes = [6·nbody | modal] */
    int njoint;         /* joints of the model (entries of coord_re, coord_im) */
    int *woff, *nw;     /* nbody: index of body b's first modal coordinate in a shape, and their count
                         * (nw[b] = 0 for a rigid body; q holds them at woff[b] + nbody) */
    double *q;          /* nq: the configuration linearised about */
} MtModes;

/* Linearises the equations of motion at rest about the static equilibrium
 * (at_equilibrium = 1, found by mt_statics) or about the assembled initial
 * configuration (0; its initial velocities are ignored and λ is the multiplier
 * at rest there): minimal coordinates from a null-space basis N of the
 * independent constraint rows, reduced mass NᵀMN, stiffness −Nᵀ∂(F + Gᵀλ)/∂q N
 * with λ held (geometric stiffness included), damping −Nᵀ∂F/∂u N, and the
 * state-space eigenproblem. st ends at the configuration linearised about
 * (u = 0, multipliers and Jacobians as after mt_statics). */
MtStatus mt_modes(MtState *st, int at_equilibrium, MtModes **out, MtError *err);
/* The same with the equilibrium searched with opt (may be NULL: defaults), e.g. its cancel flag. */
MtStatus mt_modes_opt(MtState *st, int at_equilibrium, const MtStaticsOptions *opt, MtModes **out, MtError *err);
void mt_modes_free(MtModes *m);
/* The configuration of mode k displaced by `amplitude` at phase φ (rad):
 * q = q_eq ⊕ amplitude·Re(shape_k · e^{iφ}) into q (nq values, the layout of
 * MtState.q: per body the centre of mass and a unit quaternion — the
 * rotation applied as exp(θ) ⊗ p —, then the modal coordinates). Sweeping φ
 * over 0 … 2π animates the mode; a view draws q like any frame of a run
 * (rigid bodies from their poses, flexible bodies from their frames and
 * modal coordinates), so one call per frame shows rigid and elastic motion
 * together. An amplitude of 0.1·(model size) shows a normalised shape at a
 * tenth of the model. */
void mt_modes_configuration(const MtModes *m, int k, double amplitude, double phase, double *q);
const char *mt_mode_kind_name(MtModeKind k);

#endif
