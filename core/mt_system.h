/* mt_system.h — the compiled, immutable numeric system built from a model, and
 * the per-run state (coordinates plus all scratch memory, allocated once).
 *
 * Coordinates (DESIGN §2, with the body frame moved to the centre of mass so
 * that M is block diagonal with a scalar mass block):
 *   q  (nbody x 7)  centre of mass x y z in project axes, quaternion w x y z
 *   u  (nbody x 6)  centre-of-mass velocity, angular velocity (project axes)
 * Constraints are blocks of ≤ 6 rows (one per joint, one per driver). */
#ifndef MT_SYSTEM_H
#define MT_SYSTEM_H

#include "mt_bchol.h"
#include "mt_model.h"

typedef enum { MT_PRIM_SPH, MT_PRIM_DOT, MT_PRIM_TRANS, MT_PRIM_ANGLE } MtPrimKind;

/* One constraint primitive: SPH takes 3 rows, the others 1. Axis indices
 * (0 = x, 1 = y, 2 = z) refer to marker j (a) and marker i (b). */
typedef struct {
    unsigned char kind, a, b;
} MtPrim;

typedef enum { MT_BLOCK_JOINT, MT_BLOCK_DRIVER } MtBlockKind;

typedef struct {
    MtBlockKind kind;
    int src;          /* model joint or driver index */
    int mi, mj;       /* markers: i on the moving body, j on the base */
    int bi, bj;       /* their bodies (MT_GROUND = -1) */
    int nrow, row0;   /* rows and global offset */
    int nprim;
    MtPrim prim[6];
    int ncoef;        /* driver law f(t) = Σ coef[k] t^k */
    double coef[MT_POLY_MAX];
} MtCBlock;

typedef struct MtSystem {
    MtModel *model;        /* owned copy: names and specs for output */
    int nbody, nmarker, nblock, nrow, nspring;
    double gravity[3];
    MtSolverSpec solver;
    double *mass;          /* nbody */
    double *Jc, *Jcinv;    /* nbody x 9: inertia about the centre of mass, body axes */
    double *com;           /* nbody x 3: centre of mass in body axes */
    int *mbody;            /* nmarker */
    double *mpos;          /* nmarker x 3: marker origin relative to the centre of mass, body axes */
    double *mrot;          /* nmarker x 9: marker axes in body axes */
    MtCBlock *block;       /* nblock */
    int nedge, *edge;      /* pairs of blocks sharing a body (2 ints each) */
    int *edge_body;        /* nedge: the body they share */
    unsigned char *dep;    /* nrow: equation found redundant at compile time */
    int ndep;
    int dof_grubler, dof_rank;
    int nfree;             /* bodies not connected to ground through joints or springs */
    int *free_body;
    double *q0, *u0;       /* initial state from the model */
} MtSystem;

/* Pair of constraint blocks r, c coupled through a body; A(r,c) += G_r W_cᵀ. */
typedef struct {
    int r, sr, c, sc; /* block, side (0 = i, 1 = j) */
    double *slot;     /* storage of A(r,c), size[r] x size[c] */
} MtPair;

typedef struct MtState {
    const MtSystem *sys;
    double t;
    double *q, *u;         /* current state */
    double *acc;           /* nbody x 6: last computed accelerations */
    double *lambda;        /* nrow: last multipliers */
    /* scratch, per evaluation */
    double *R;             /* nbody x 9 */
    double *Jwinv;         /* nbody x 9: inverse inertia in project axes */
    double *f;             /* nbody x 6: applied + inertia forces at the centre of mass */
    double *a0;            /* nbody x 6 */
    double *G, *W;         /* nrow x 2 x 6: per block, side i then side j, nrow rows of 6 (mt_state_G) */
    double *g, *gd, *h;    /* nrow: violation, its rate, velocity terms */
    double *rhs;           /* nrow */
    MtBchol *chol;
    int npair;
    MtPair *pair;
    long nevals;
} MtState;

/* Jacobian rows of block k on side (0 = marker i, 1 = marker j): nrow x 6,
 * linear then angular; W the same layout for M⁻¹Gᵀ. */
static inline double *mt_state_G(const MtState *st, int k, int side)
{
    const MtCBlock *b = &st->sys->block[k];
    return st->G + 12 * b->row0 + 6 * b->nrow * side;
}
static inline double *mt_state_W(const MtState *st, int k, int side)
{
    const MtCBlock *b = &st->sys->block[k];
    return st->W + 12 * b->row0 + 6 * b->nrow * side;
}

/* Compiles a validated model (copied, so the model may be edited afterwards);
 * detects redundant equations at the initial configuration. */
MtSystem *mt_system_compile(const MtModel *m, MtError *err);
void mt_system_free(MtSystem *s);

/* New state at the model's initial conditions (not yet assembled). */
MtState *mt_state_new(const MtSystem *s, MtError *err);
void mt_state_free(MtState *st);

/* Accelerations and multipliers at (t, q, u): fills st->acc and st->lambda.
 * q and u may be st->q/st->u or integrator stage vectors. */
MtStatus mt_eval(MtState *st, double t, const double *q, const double *u, MtError *err);

/* Newton projection of st->q onto the position constraints at st->t
 * (M-orthogonal, quaternions updated by rotation); max |g| below tol. */
MtStatus mt_project_positions(MtState *st, double tol, int maxit, MtError *err);
/* Velocity projection of st->u onto G u = driver rates (one linear solve). */
MtStatus mt_project_velocities(MtState *st, MtError *err);
/* Largest constraint violation |g| and |ġ| at the current state (non-dependent rows). */
void mt_constraint_error(MtState *st, double *gmax, double *gdmax);

/* Body frame origin pose and velocity from the state (project axes). */
void mt_body_origin(const MtState *st, const double *q, const double *u, int b, double pos[3], double vel[3]);
/* Reaction of a joint on the body of its marker i, at the origin of marker i,
 * in project axes (F, T) and in marker-i axes (Fm, Tm); uses st->lambda and the
 * Jacobians of the last mt_eval. */
void mt_joint_reaction(const MtState *st, int joint, double F[3], double T[3], double Fm[3], double Tm[3]);
/* Joint coordinate: revolute angle (rad, in (-π, π]) or prismatic displacement (m); 0 otherwise. */
double mt_joint_coordinate(const MtState *st, const double *q, int joint);
/* Kinetic and potential (gravity + springs) energy. */
void mt_energy(const MtState *st, const double *q, const double *u, double *kinetic, double *potential);
/* Driver effort (torque or force on the moving body along z_j) of the last evaluation. */
double mt_driver_effort(const MtState *st, int driver);
/* Spring length, rate and tension at (q, u). */
void mt_spring_state(const MtState *st, const double *q, const double *u, int spring, double *len, double *rate, double *tension);

#endif
