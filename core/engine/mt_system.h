/* mt_system.h — the compiled, immutable numeric system built from a model, and
 * the per-run state (coordinates plus all scratch memory, allocated once).
 *
 * Coordinates (docs/design.md §2.1, with the body frame moved to the centre of mass so
 * that M is block diagonal with a scalar mass block):
 *   q  (nbody x 7)  centre of mass x y z in project axes, quaternion w x y z
 *   u  (nbody x 6)  centre-of-mass velocity, angular velocity (project axes)
 * Constraints are blocks of ≤ 6 rows (one per joint, one per driver).
 * Private to core/engine/ (and white-box tests); the public part is motus/run.h. */
#ifndef MT_SYSTEM_H
#define MT_SYSTEM_H

/* What ui/ and app/ may use of a system and a state is include/motus/run.h;
 * this layout is the engine's (ctest api_public keeps it so). */
#include "motus/run.h"

#include "mt_bchol.h"
#include "mt_lanes.h"
#include "motus/model.h"

typedef enum { MT_PRIM_SPH, MT_PRIM_DOT, MT_PRIM_TRANS, MT_PRIM_DIST, MT_PRIM_COORD, MT_PRIM_ROLL } MtPrimKind;

/* A joint coordinate inside a COORD row: rotation of marker i about axis
 * `axis` of marker j (angle = 1) or displacement of i along that axis, with
 * the bodies' sides in the block, a coefficient and a reference value. */
typedef struct {
    unsigned char angle, axis;
    int mi, mj, si, sj;
    double coef, ref;
} MtTerm;

/* One constraint primitive. SPH takes 3 rows, ROLL 3, the others 1. Axis
 * indices (0 = x, 1 = y, 2 = z) refer to marker j (a) and marker i (b).
 * COORD: Σ coef·(x_k − ref_k) = f(t) over its terms (drivers, gears, couplers,
 * the screw's pitch relation). level (MtDriverLevel) says whether the row
 * constrains positions (0), velocities (1, non-holonomic) or accelerations (2). */
typedef struct {
    unsigned char kind, a, b, level;
    int nterm;
    MtTerm term[3];
    double param; /* DIST length, ROLL radius */
} MtPrim;

typedef enum { MT_BLOCK_JOINT, MT_BLOCK_DRIVER, MT_BLOCK_COUPLE, MT_BLOCK_LOCK } MtBlockKind;

#define MT_SIDE_MAX 6

typedef struct {
    MtBlockKind kind;
    int src;          /* model joint, driver or coupling index */
    int mi, mj;       /* markers of two-marker primitives: i on the moving body, j on the base */
    int nside;        /* bodies the block touches; side 0 = body of mi, 1 = body of mj */
    int body[MT_SIDE_MAX]; /* MT_GROUND = -1 */
    int nrow, row0;   /* rows and global offset */
    int goff;         /* offset of the block's Jacobian rows in MtState.G/W (nside x nrow x 6) */
    int gwoff[MT_SIDE_MAX]; /* sides on a flexible body: offset of the modal columns in MtState.Gw/Ww
                             * (nrow x N, row-major); -1 on rigid sides */
    int nprim;
    MtPrim prim[6];
    unsigned char lean; /* a lone spherical primitive between rigid sides: fast path, only the
                         * entries of G and W that depend on the state are rewritten (mt_constraints.c) */
    /* driver law */
    MtDriverKind law;
    int ncoef;
    double coef[MT_POLY_MAX];
    int ntab;
    const double *tab, *spl; /* table points and spline second derivatives (owned by the system) */
    const struct MtExpr *lawx; /* EXPR: the compiled law and its variables {t, parameters} (MtSystem.lawvars) */
    const double *lawv;
} MtCBlock;

struct MtExpr;

struct MtSystem {
    MtModel *model;        /* owned copy: names and specs for output */
    struct MtExpr **fexpr; /* 6 per force element, then one per spring: compiled expressions (NULL = none) */
    struct MtExpr **cexpr; /* input and set point per control, then one per event (NULL = none) */
    int ctrl_limit;        /* compile time: controls an expression may read */
    int post_ok;           /* compile time: the expression may read every sensor (events: after the solve) */
    int naux;              /* integrated states besides q and u: controls, then modified-Lagrange integrals */
    int *zoff_control;     /* ncontrol: offset of each control's states */
    int zoff_mlf;          /* offset of the nrow integrals of the modified Lagrange method (loops mlf) */
    int *zoff_force;       /* nforce: offset of a force element's integrated state (LuGre bristles), -1: none */
    double *hc_chi;        /* nforce: contacts' Hunt–Crossley damping factor that gives their restitution e */
    struct MtRail **rail;  /* nforce: a wheelrail element's track and profiles (mt_rail.c), NULL for others */
    unsigned char *lockrow; /* nrow: rows of lock blocks (inactive until their event) */
    int nchan, *chan;      /* kinematic channels read by expressions (4 ints each, mt_forces.c) */
    int nbody, nmarker, nblock, nrow, nspring;
    double gravity[3];
    MtSolverSpec solver;
    double *mass;          /* nbody */
    double *imass;         /* nbody: 1/mass */
    double *Jc, *Jcinv;    /* nbody x 9: inertia about the centre of mass, body axes */
    double *bodyc;         /* per group of MT_LW bodies (full groups), 8 x MT_LW field-major: the diagonals of
                            * Jcinv and Jc (3 + 3), mass, 1/mass; what the body pass reads (mt_dynamics.c) */
    double *com;           /* nbody x 3: centre of mass in body axes */
    int *mbody;            /* nmarker */
    double *mpos;          /* nmarker x 3: marker origin relative to the centre of mass, body axes */
    double *mrot;          /* nmarker x 9: marker axes in body axes */
    MtCBlock *block;       /* nblock */
    int nedge, *edge;      /* pairs of blocks sharing a body (2 ints each) */
    int *edge_body;        /* nedge: the body they share */
    int ng;                /* length of MtState.G and W */
    double *spline;        /* spline second derivatives of all driver tables */
    struct MtExpr **lawx;  /* per driver: its compiled law (EXPR) or NULL */
    double *lawvars;       /* {0, the parameters' values}: what drivers' laws read besides time */
    unsigned char *level;  /* nrow: 0 position, 1 velocity (non-holonomic), 2 acceleration constraint */
    unsigned char *dep;    /* nrow: equation found redundant at compile time */
    int ndep;
    int nspecial;          /* further equations dependent only in the initial configuration (kept) */
    int dof_grubler, dof_rank;
    int nfree;             /* bodies not connected to ground through joints or springs */
    int *free_body;
    double *q0, *u0;       /* initial state from the model (nq, nu) */
    /* flexible bodies (mt_flex.h): their modal coordinates follow the rigid
     * ones, q = [7·nbody | nmodal], u = [6·nbody | nmodal] */
    int nq, nu;            /* 7·nbody + nmodal, 6·nbody + nmodal */
    int nmodal, nflex;
    int *bflex;            /* nbody: index into flex, -1 for a rigid body */
    struct MtFlexSys *flex;
    int *mflex;            /* nmarker: offset of the marker's modal matrices in mmodal, -1 off flexible bodies */
    double *mmodal;        /* per marker on a flexible body: Φ (3×N) then Ψ (3×N), row-major, body axes */
    int *mvert;            /* nmarker: surface vertex of the marker's node (modal stresses), -1 if none */
    int ngw;               /* length of MtState.Gw and Ww */
    size_t nfmat;          /* length of MtState.fmat */
    size_t nfcache;        /* length of MtState.fcache */
    int dmax;              /* largest flexible mass matrix (6 + N), 0 without flexible bodies */
    unsigned char commit_kin; /* mt_state_commit has angles to follow (COORD rows, torsion springs, contacts) */
    unsigned char assembled;  /* mt_system_assemble has run: states may be made */
};

/* Pair of constraint blocks r, c coupled through a body; A(r,c) += G_r W_cᵀ. */
typedef struct {
    int r, sr, c, sc; /* block and side */
    double *slot;     /* storage of A(r,c), size[r] x size[c] */
    int add;          /* the slot is shared with an earlier pair (two blocks sharing two bodies): add to it */
    int lean;         /* both blocks lean and not add: written from their compact rows (mt_assemble) */
} MtPair;

/* The lean blocks' fast path (the kernels of mt_kernels.h and the compact
 * loops of mt_dynamics.c): their lists, and their lanes in groups of MT_LW padded with
 * lanes that repeat lane 0 and are not written out. */
typedef struct {
    int n;                 /* lean blocks */
    int *blk;              /* per lane: block (nblock for padding: a spare dlean row) */
    int *row;              /* per lane: the block's first row, −1 for padding */
    int *body;             /* 2 per lane: body of side 0 and 1 (a ground side names the other body, masked) */
    long long *mask;       /* 2 x MT_LW per group: side by lane, all ones for a body, 0 for ground */
    unsigned char *ground; /* per group: one of its sides is ground */
    double *im;            /* nblock x 2: σ/m of a lean block's sides, as in dlean (the hot loops read them here:
                            * inner stages then touch three of dlean's four cache lines per block) */
    double *c;             /* 8 x MT_LW per group, field-major: markers' positions in body axes (3 + 3), σ/m (2) */
    int alldiag;           /* every body is rigid with its inertia diagonal in body axes (the body kernel takes four per vector) */
    int chain;             /* lean lane i is block i, joining body i (side 0) to body i − 1 (ground for i = 0):
                            * the body kernel hands its lanes to the row kernel */
    int diag;              /* the row kernel wrote the lean blocks' A(k,k) into the factor's storage (mt_eval):
                            * the next mt_assemble skips their copy */
    int pairs;             /* every pair of A is lean (mt_assemble takes them in straight groups) */
    int stage;             /* set by mt_deriv_stage: only the derivative is wanted (an integrator's inner
                            * stage); a lean chain's body and row kernels skip R, Jwinv, f, a0, g, ġ, h */
    int reference;         /* evaluate by the scalar reference paths, no kernels (tests/core/test_kernels.c) */
} MtLeanFast;

/* Counters of a state's work, for statistics only. */
typedef struct {
    long nevals;
    long nregularised;     /* evaluations whose factor raised a pivot (MT_PIVOT_REG) */
    long npcg, npcg_iter;  /* iterative solves and their iterations (mt_linsolve.c) */
    long nfactor, nreuse;  /* new factors, solves with a factor at the same positions */
    long nnext;            /* re-detections that left the next step to the step's last factor */
} MtStateStats;

struct MtState {
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
    double *G, *W;         /* per block nside x nrow x 6 (mt_state_G) */
    double *cont;          /* nrow x 3: continuous value of each COORD term at the last commit */
    double *chan;          /* nchan: channel values of the current evaluation (slots 0, 1 scratch) */
    double *fdisc;         /* nforce x 2: discrete state of force elements (turns, impact speed) */
    double *fout;          /* nforce x 8: force, moment on body i about marker i, deflection, power */
    double *z;             /* naux: integrated control / loop states of this state */
    double *dz;            /* naux: their derivatives at the last evaluation */
    const double *zcur;    /* aux states the next evaluation reads (z, or an integrator stage) */
    double *cout;          /* ncontrol x 3: output, input, error of each control */
    unsigned char *rowoff; /* nrow: row out of the solve (redundant, broken joint, disabled driver, unlocked) */
    unsigned char *fdisabled, *sdisabled, *cdisabled; /* per force element, spring, control */
    unsigned char *efired; /* nevent: already fired */
    double *etime;         /* nevent: time it fired */
    double *eprev, *enext; /* nevent: crossing function at the last accepted state and at a step's end */
    double *lockref;       /* nrow: values held by lock rows */
    double *g, *gd, *h;    /* nrow: violation, its rate, velocity terms */
    double *rhs;           /* nrow */
    MtBchol *chol;
    int npair;
    MtPair *pair;
    double **dslot;        /* nblock: storage of A(k,k) in the factor */
    int *near, nnear;      /* rows near dependence at the last re-detection, as block·8 + row in block (MT_NEAR_TOL) */
    unsigned char *special; /* nrow: out for now because dependent at this configuration (mt_state_redetect) */
    double *qn;            /* nbody: scratch, 1/|quaternion| of the evaluation */
    double *dq;            /* set by mt_deriv for its evaluation: the body pass writes q̇ there (7 per body) */
    double *dlean;         /* nblock x MT_LEAN: lean blocks' compact rows from mt_stage_constraints: r on
                            * sides 0 and 1 (3 + 3), J⁻¹(r × e_a) on both (9 + 9, unsigned), the lower
                            * triangle of A(k,k) (6), σ/m of both sides (2); what the hot loops read */
    MtLeanFast lean;       /* the lean blocks' fast path */
    /* flexible bodies; acc, f and a0 hold nu values (modal parts after the rigid ones) */
    double *Gw, *Ww;       /* modal columns of constraint rows (MtCBlock.gwoff) and M⁻¹ applied */
    double *fmat;          /* factored mass matrix of each flexible body (MtFlexSys.moffm) */
    double *fwork;         /* scratch: dmax x 12 */
    double *fcache;        /* flexible bodies' S, I(w), M_Ωw(w) of the current evaluation (mt_flex_stage_mass) */
    double proj_c;         /* > 0 during projections: the metric is M + proj_c·K (mt_flex.c) */
    double proj_dep;       /* > 0 during a run: projections leave out rows whose pivot falls below it (mt_dynamics.c) */
    double pivot_reg;      /* the factor's pivot floor in evaluations: MT_PIVOT_REG, in runs but rk4's MT_PIVOT_REG_STEP */
    int flex_hold;         /* during the initial assembly, 1 while positions are projected, 2 velocities: the modal
                            * coordinates MtFlexSys.hold flags (`initial rest`, `initial BODY.wK`) do not move */
    int from_statics;      /* the positions are a static equilibrium (solver `start statics`, mt_run_start): the
                            * initial assembly keeps the elastic coordinates found, holding only their rates */
    /* iterative linear solves (mt_linsolve.c): an older factor of A as the preconditioner */
    int linear;            /* MtLinearSolve, set before mt_run (0 = MT_LINEAR_AUTO) */
    MtBchol *pre;          /* NULL: a new factor at every evaluation */
    double *pre_q;         /* nq: the positions pre was factored at */
    int pre_ok, pre_maxit; /* pre holds a factor of the current rows; iteration limit */
    int pre_fresh;         /* pre was factored by an evaluation since the last re-detection */
    double *pre_piv;       /* nrow: scratch for pre's pivot ratios (mt_lin_serves_next_step) */
    double pre_ratio, pre_dlim; /* cost of a factor in iterations; distance from pre_q up to which to iterate */
    MtStateStats stats;
};

void mt_lean_expand(const MtState *st, int k);

/* Jacobian rows of block k on a side: nrow x 6, linear then angular; W the
 * same layout for M⁻¹Gᵀ. Lean blocks keep their rows compact during an
 * evaluation (MtState.dlean); the accessors write them out on demand. */
static inline double *mt_state_G(const MtState *st, int k, int side)
{
    const MtCBlock *b = &st->sys->block[k];
    if (b->lean) mt_lean_expand(st, k);
    return st->G + b->goff + 6 * b->nrow * side;
}
static inline double *mt_state_W(const MtState *st, int k, int side)
{
    const MtCBlock *b = &st->sys->block[k];
    if (b->lean) mt_lean_expand(st, k);
    return st->W + b->goff + 6 * b->nrow * side;
}

#define MT_LEAN 32

/* Writes the constant entries of G and W of lean blocks (after allocation). */
void mt_state_init_lean(MtState *st);

/* Body of index i of a u-layout vector (rigid part, then modal parts). */
int mt_u_body(const MtSystem *s, int i);

/* A new state of a system still being assembled (mt_system_assemble only;
 * mt_state_new, motus/run.h, refuses a system not assembled). */
MtState *mt_state_new_unassembled(const MtSystem *s, MtError *err);

/* Pivots below this fraction of their diagonal are raised to it during a run,
 * so that rounding near a singular configuration cannot break the factor.
 * Legitimate pivots can be small (a point mass with a tiny inertia hanging
 * off a hinge gives ratios below 1e-4), so this is a last resort only;
 * dependencies of special configurations are handled by mt_state_redetect.
 * MT_PIVOT_REG serves assembly, the analyses and rk4; the other integrators
 * take MT_PIVOT_REG_STEP (MtState.pivot_reg, chosen by mt_lin_configure).
 * The value sets how a mechanism passes a singular position (the IFToMM
 * N-four-bar, docs/integrators.md "Singular positions"): the pivot of the
 * direction that becomes free falls as the square of the distance s to it,
 * and the multiplier there divides the right-hand side's error off the
 * constraints (the integrator's, O(tolerance)) by it, so below the floor the
 * acceleration error grows as 1/s; the floor drops that direction's (small,
 * O(s)) physical reaction within s² < floor instead. 1e-13 let dp54 grind to
 * steps of 1e-12 s there (1.6 M evaluations, 4e-4 m off on the 2-bar case);
 * 1e-9 costs 3e-9 m there and 72 k evaluations; 1e-10 was as good on 2
 * bars but 24 times worse on 40 (2e-8 m in 10 s) and left adams grinding
 * (17 times the evaluations of a regular run). rk4 keeps 1e-13: a fixed step
 * cannot shorten itself around the window, so a stage landing in it is paid
 * in full (with 1e-9 up to 6.6e-7 m, with 1e-10 8e-8 m at h = 125 µs, with
 * 1e-13 3e-11 m). */
#define MT_PIVOT_REG 1e-13
#define MT_PIVOT_REG_STEP 1e-9

/* Accelerations and multipliers at (t, q, u): fills st->acc and st->lambda.
 * q and u may be st->q/st->u or integrator stage vectors. */
MtStatus mt_eval(MtState *st, double t, const double *q, const double *u, MtError *err);

/* Newton projection of st->q onto the position constraints at st->t
 * (M-orthogonal, quaternions updated by rotation); max |g| below tol. */
MtStatus mt_project_positions(MtState *st, double tol, int maxit, MtError *err);
/* Velocity projection of st->u onto G u = driver rates (one linear solve). */
MtStatus mt_project_velocities(MtState *st, MtError *err);
/* COORD term for coordinate c of a joint; -1 when the joint has no such coordinate. */
int mt_joint_term(const MtModel *m, int joint, MtCoordKind c, MtTerm *t);
/* Raw value of a term (angle in (−π, π], displacement in m) at q; needs st->R for q. */
double mt_term_value(const MtState *st, const double *q, const MtTerm *t);

/* Models whose equations are dependent only in special configurations (a flat
 * lattice): makes the rows near dependence compliant (MT_NEAR_TOL below) and
 * marks rows still dependent after that (relative pivot below MT_SPECIAL_TOL,
 * a safety net: compliance keeps pivots near MT_NEAR_EPS) out of the solve,
 * returning the others to it. Called before assembly and after every
 * accepted step; a no-op otherwise. */
#define MT_SPECIAL_TOL 1e-4
/* Rows whose pivots fall below MT_NEAR_TOL of their diagonal at a step's
 * re-detection (rows about to become dependent, or dependent) are made
 * compliant for the step: their diagonal entries of A are raised by
 * MT_NEAR_EPS of themselves in every assembly, so both the direct and the
 * iterative solves see the same matrix. Without it, rows with pivots between
 * 1e-4 and 1e-12 of their diagonal amplify the Baumgarte right-hand side until
 * the run diverges: the 12 × 12 and 20 × 20 lattices of bench/grid did in 8 of
 * 20 runs whose Ts differed by 1e-11 relative (commit d0bc621 of bench/RESULTS.md). */
#define MT_NEAR_TOL 1e-3
#define MT_NEAR_EPS 1e-3
void mt_state_redetect(MtState *st);

/* How an evaluation solves A λ = b (MtState.linear). AUTO: conjugate
 * gradients preconditioned by an older factor when a factor costs many
 * iterations (loopy 2-D structures such as the plate lattice) and the method
 * is explicit (rk4, dp54); a new factor at every evaluation otherwise. DIRECT:
 * always a new factor. ITERATIVE: the older factor whenever there are
 * constraint rows. See docs/performance.md, "Stale factor". */
typedef enum { MT_LINEAR_AUTO, MT_LINEAR_DIRECT, MT_LINEAR_ITERATIVE, MT_LINEAR_NKINDS } MtLinearSolve;
const char *mt_linear_name(int linear);
/* "auto", "direct", "iterative" → 0, or -1 for another word. */
int mt_linear_from_name(const char *s, int *linear);

/* Linear solves (mt_linsolve.c). mt_lin_configure chooses direct or
 * iterative for a run (st->linear, the method, the factor's cost against an
 * iteration's) before its first evaluation. mt_lin_solve solves A λ = b with A
 * assembled in st->chol (λ = b on entry); -1 and *bad = block when the factor
 * fails (q: the positions A was assembled at). mt_state_redetect hands its
 * detecting factor (at st->q) to mt_lin_detected. */
MtStatus mt_lin_configure(MtState *st, const MtSolverSpec *sv, MtError *err);
int mt_lin_solve(MtState *st, const double *q, double *x, int *bad);
void mt_lin_detected(MtState *st);
/* 1 when the step's last factor (kept by mt_lin_solve, of the same A as the
 * next step's but O(h²) away) may precondition the next step's first
 * evaluation, so that a re-detection which found the same rows near
 * dependence need not factor A again at st->q. */
int mt_lin_serves_next_step(MtState *st);

/* Records the continuous value of every angle in COORD rows at st->q (call
 * after each accepted step, so angles keep counting turns). */
void mt_state_commit(MtState *st);
/* Takes the continuous coordinates afresh from st->q (after st->q was replaced). */
void mt_state_init_coords(MtState *st);
/* Largest constraint violation |g| and |ġ| at the current state (non-dependent rows). */
void mt_constraint_error(MtState *st, double *gmax, double *gdmax);

/* Nothing but gravity and gyroscopic forces act: mt_eval's body pass finishes
 * the free accelerations, and nothing in an evaluation reads acc before it
 * writes it. */
static inline int mt_gravity_only(const MtSystem *s)
{
    return !s->nflex && s->nchan <= 3 && !s->model->ncontrol && !s->model->nforce && !s->nspring;
}

/* Body b's inertia and its inverse are diagonal in body axes (the body pass
 * then takes four such bodies per vector, mt_dynamics.c). */
static inline int mt_inertia_diagonal(const MtSystem *s, int b)
{
    const double *Ji = s->Jcinv + 9 * b, *Jc = s->Jc + 9 * b;
    return Ji[1] == 0 && Ji[2] == 0 && Ji[5] == 0 && Jc[1] == 0 && Jc[2] == 0 && Jc[5] == 0;
}

/* Body frame origin pose and velocity from the state (project axes). */
void mt_body_origin(const MtState *st, const double *q, const double *u, int b, double pos[3], double vel[3]);
/* Joint coordinate c (angle in (−π, π] rad, or displacement m) at q, after an
 * evaluation at q; NAN when the joint has no such coordinate. */
double mt_joint_coord(const MtState *st, const double *q, int joint, MtCoordKind c);
/* The first coordinate the joint has (angle, else displacement, else x); NAN if none. */
double mt_joint_coordinate(const MtState *st, const double *q, int joint);
/* Kinetic and potential (gravity + springs) energy. */
void mt_energy(const MtState *st, const double *q, const double *u, double *kinetic, double *potential);
/* Spring length, rate and tension at (q, u). */
void mt_spring_state(const MtState *st, const double *q, const double *u, int spring, double *len, double *rate, double *tension);

#endif
