/* motus/run.h — running a model, as ui/, app/ and tests see it: a model
 * compiled into a system (MtSystem), a run's state (MtState) stepped by
 * mt_run, frames handed to a callback, and what a frame says about bodies,
 * joints, drivers, springs and events.
 *
 * Both types are opaque here: their layout (coordinates, constraint blocks,
 * scratch) is private to core/engine/ (mt_system.h), so the solver can change
 * it without touching the interface. Everything below reads the state as it
 * is after the last evaluation (in a frame callback, after mt_run, after
 * mt_state_from_frame or an analysis). */
#ifndef MOTUS_RUN_H
#define MOTUS_RUN_H

#include <stddef.h>

#include "motus/model.h"

typedef struct MtSystem MtSystem;
typedef struct MtState MtState;

/* Compiles a validated model (copied, so the model may be edited afterwards)
 * into the numeric system; evaluates nothing. Enough to list result columns
 * (mt_csv_new); a run or an analysis needs mt_system_assemble first. */
MtSystem *mt_system_compile(const MtModel *m, MtError *err);
/* The compiled system at its initial configuration (core/engine/mt_assembly.c):
 * the references of couplers and screws, the redundant equations and the
 * degrees of freedom. Call once after mt_system_compile, before mt_state_new
 * (which refuses a system not assembled) and before changing the solver
 * settings. On failure the caller frees the system. */
MtStatus mt_system_assemble(MtSystem *s, MtError *err);
void mt_system_free(MtSystem *s);

/* New state at the model's initial conditions of an assembled system (its
 * initial assembly is mt_run's). */
MtState *mt_state_new(const MtSystem *s, MtError *err);
void mt_state_free(MtState *st);

/* Called for each output frame with the state consistent (time, positions,
 * velocities, accelerations, reactions). Return non-zero to stop the run early. */
typedef int (*MtFrameFn)(void *user, MtState *st);

/* What a run did. */
typedef struct {
    long steps, rejected, evals, frames;
    double gmax, gdmax; /* largest constraint violation seen at output frames */
    long regularised;   /* evaluations near a singular configuration (the factor raised a pivot) */
    /* implicit methods: finite-difference Jacobians computed (each costs
     * 1 + 12·(bodies in the largest coupled group) evaluations, included in
     * evals), LU factorisations of the Newton matrix, Newton iterations */
    long jacobians, factorizations, newton;
} MtRunStats;

/* Most steps (or output intervals of the adaptive methods) a run may ask for:
 * 1e9 takes from a quarter of an hour (the smallest model) to days, and keeps
 * t + step > t for any end time (a step below the rounding of t, as with
 * 'until 1e300', would never end). */
#define MT_RUN_MAX_STEPS 1e9
/* MT_OK when (until − t0) / step ≤ MT_RUN_MAX_STEPS, else MT_ERR_MODEL with a
 * message saying what to change; what names the analysis ("solver", …). */
MtStatus mt_run_check_length(double t0, double until, double step, const char *what, MtError *err);

/* Assembles the initial state (Newton on positions, then velocities), then
 * integrates to sv->until, handing every output frame to fn. cancel (may be
 * NULL) is polled between steps; stats may be NULL. */
MtStatus mt_run(MtState *st, const MtSolverSpec *sv, MtFrameFn fn, void *user, const volatile int *cancel,
                MtRunStats *stats, MtError *err);

/* What to tell the user after a run that passed singular positions
 * (stats->regularised > 0), translated, into buf: how many evaluations, and
 * for a method that loses accuracy there, the setting that keeps it; "" when
 * there were none. The window's status and motus-cli say the same. */
void mt_run_singular_note(const MtRunStats *stats, const MtSolverSpec *sv, char *buf, size_t n);

/* ---- the compiled system ---------------------------------------------------- */

/* The system's own copy of the model (names, specs), valid while it lives. */
const MtModel *mt_system_model(const MtSystem *s);
/* The solver settings the system was compiled with (the model's). */
const MtSolverSpec *mt_system_solver(const MtSystem *s);
int mt_system_nbody(const MtSystem *s);

/* What compiling found about the constraints, for reports (motus-cli check). */
typedef struct {
    int nrow;        /* constraint equations */
    int ndep;        /* of them redundant, removed (mt_system_row_redundant) */
    int nspecial;    /* further equations dependent only in the initial configuration (kept) */
    int dof_grubler; /* degrees of freedom by Grübler's count */
    int dof_rank;    /* by the rank of the constraint Jacobian (< 0: overconstrained) */
    int nblock;      /* constraint blocks: joints, drivers, couplings (mt_block_name) */
    int nfree;       /* bodies connected to ground by no joint or spring (mt_system_free_body) */
} MtSystemInfo;
void mt_system_info(const MtSystem *s, MtSystemInfo *info);
/* 1 when equation `row` was found redundant and removed. */
int mt_system_row_redundant(const MtSystem *s, int row);
/* Redundant equations removed from block k. */
int mt_block_ndep(const MtSystem *s, int k);
/* Constraint rows of block k: their number, the first in *row0. */
int mt_block_rows(const MtSystem *s, int k, int *row0);
/* The entity behind block k: a joint, driver, coupling, or the event whose lock it is. */
int mt_block_source(const MtSystem *s, int k, MtEntityKind *kind);
/* Name of the joint, driver or coupling behind constraint block k. */
const char *mt_block_name(const MtSystem *s, int k);
/* Body index of the i-th body connected to nothing (i < MtSystemInfo.nfree). */
int mt_system_free_body(const MtSystem *s, int i);
/* Equation `row` in words, translated ("joint 'pin' (revolute), equation 2 of
 * 5: no offset along y_j"), for redundancy reports. */
void mt_system_row_words(const MtSystem *s, int row, char *buf, size_t n);

/* ---- the state of a run ----------------------------------------------------- */

const MtSystem *mt_state_system(const MtState *st);
double mt_state_time(const MtState *st);
/* Body b's frame: origin in project axes (pos), its orientation as a unit
 * quaternion w x y z (quat) and the origin's velocity (vel); any may be NULL.
 * pos and quat are what the 3D view draws. */
void mt_state_body(const MtState *st, int b, double pos[3], double quat[4], double vel[3]);
/* First body whose position or velocity is no longer finite (a diverged run), -1 if none. */
int mt_state_nonfinite_body(const MtState *st);
/* Reaction of a joint on the body of its marker i, at the origin of marker i,
 * in project axes (F, T) and in marker-i axes (Fm, Tm). */
void mt_joint_reaction(const MtState *st, int joint, double F[3], double T[3], double Fm[3], double Tm[3]);
/* The joint's first coordinate (angle in (−π, π] rad, else displacement m); NAN if it has none. */
double mt_state_joint_coordinate(const MtState *st, int joint);
/* Driver effort (torque or force on the moving body along z_j). */
double mt_driver_effort(const MtState *st, int driver);
/* Spring length, rate and tension. */
void mt_state_spring(const MtState *st, int spring, double *len, double *rate, double *tension);
/* Kinetic and potential (gravity + springs) energy. */
void mt_state_energy(const MtState *st, double *kinetic, double *potential);
/* 1 when event e has fired, with the time it fired in *t (may be NULL). */
int mt_state_event_fired(const MtState *st, int e, double *t);

#endif
