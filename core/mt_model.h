/* mt_model.h — the editable description of a mechanism (what a user builds and
 * saves): ground, bodies, markers, joints, motion drivers, springs, gravity and
 * solver settings. Plain data, SI units; validated by mt_model_validate and
 * turned into a numeric system by mt_system_compile (mt_system.h). */
#ifndef MT_MODEL_H
#define MT_MODEL_H

#include <stdio.h>

#include "mt_error.h"

#define MT_NAME_MAX 64
#define MT_GROUND (-1) /* body index of the ground */

typedef enum {
    MT_JOINT_SPHERICAL,
    MT_JOINT_REVOLUTE,
    MT_JOINT_PRISMATIC,
    MT_JOINT_CYLINDRICAL,
    MT_JOINT_UNIVERSAL,
    MT_JOINT_FIXED,
    MT_JOINT_NTYPES
} MtJointType;

typedef enum { MT_DRIVER_POLY, MT_DRIVER_RATE } MtDriverKind;

typedef enum { MT_METHOD_RK4, MT_METHOD_DP54, MT_METHOD_NMETHODS } MtMethod;

typedef struct {
    char name[MT_NAME_MAX];
    double mass;       /* kg */
    double com[3];     /* centre of mass in body axes, m */
    double inertia[6]; /* Ixx Iyy Izz Ixy Ixz Iyz about the centre of mass, body axes, kg·m² */
    double pos[3];     /* body frame origin in project axes, m */
    double rot[9];     /* body axes in project axes (columns), row-major */
    double vel[3];     /* velocity of the body frame origin, project axes, m/s */
    double omega[3];   /* angular velocity, project axes, rad/s */
} MtBodySpec;

typedef struct {
    char name[MT_NAME_MAX]; /* unique within its body; referred to as body.marker */
    int body;               /* MT_GROUND or body index */
    double pos[3];          /* origin in body axes, m */
    double rot[9];          /* marker axes in body axes (columns), row-major */
} MtMarkerSpec;

/* Joint between marker i (on the moving body) and marker j (on the base body),
 * as in Adams: coordinates and reactions are those of i relative to j. */
typedef struct {
    char name[MT_NAME_MAX];
    MtJointType type;
    int mi, mj; /* marker indices */
} MtJointSpec;

/* Prescribes the joint coordinate (revolute angle about z_j, rad, or prismatic
 * displacement along z_j, m) as f(t) = Σ c_k t^k. A RATE driver is stored as a
 * polynomial of degree one and written back as "rate". */
#define MT_POLY_MAX 8
typedef struct {
    char name[MT_NAME_MAX];
    int joint;
    MtDriverKind kind;
    int ncoef;
    double coef[MT_POLY_MAX];
} MtDriverSpec;

/* Linear point-to-point spring–damper between the origins of two markers:
 * tension F = k (L − L0) + c dL/dt + preload. */
typedef struct {
    char name[MT_NAME_MAX];
    int mi, mj;
    double k, c, length, preload;
} MtSpringSpec;

typedef struct {
    MtMethod method;
    double step;      /* RK4 step; output interval for adaptive methods, s */
    double until;     /* end time, s */
    int every;        /* write every N-th step/interval */
    double rtol, atol;
    double stab_period; /* Baumgarte Ts, s (<= 0 switches stabilisation off) */
    double stab_damping; /* Baumgarte ξs */
    int correct_pos, correct_vel; /* projection after each step */
} MtSolverSpec;

typedef struct MtModel {
    char title[128];
    double gravity[3];
    MtSolverSpec solver;
    int nbody, nmarker, njoint, ndriver, nspring;
    int cap_body, cap_marker, cap_joint, cap_driver, cap_spring;
    MtBodySpec *body;
    MtMarkerSpec *marker;
    MtJointSpec *joint;
    MtDriverSpec *driver;
    MtSpringSpec *spring;
} MtModel;

/* New empty model: ground only, gravity 0, default solver settings. */
MtModel *mt_model_new(void);
void mt_model_free(MtModel *m);
/* Default solver settings (RK4, h = 1e-3, 1 s, Ts = 0.1 s, ξ = 1). */
void mt_solver_defaults(MtSolverSpec *s);

/* Adders return the new index, or -1 with err set (duplicate name, bad index). */
int mt_model_add_body(MtModel *m, const char *name, MtError *err);
int mt_model_add_marker(MtModel *m, int body, const char *name, const double pos[3],
                        const double rot[9], MtError *err);
int mt_model_add_joint(MtModel *m, const char *name, MtJointType type, int mi, int mj, MtError *err);
int mt_model_add_driver(MtModel *m, const char *name, int joint, MtDriverKind kind, int ncoef,
                        const double *coef, MtError *err);
int mt_model_add_spring(MtModel *m, const char *name, int mi, int mj, double k, double c,
                        double length, double preload, MtError *err);

/* Lookups by name; -1 when absent (bodies: also -1 for "ground", check with
 * mt_model_body_ref). Marker reference "body.marker". */
int mt_model_find_body(const MtModel *m, const char *name);
int mt_model_find_marker(const MtModel *m, const char *ref);
int mt_model_find_joint(const MtModel *m, const char *name);
/* Body index for a body name accepting "ground"; returns 0 and sets *idx, or -1. */
int mt_model_body_ref(const MtModel *m, const char *name, int *idx);
/* Name of a body index ("ground" for MT_GROUND). */
const char *mt_model_body_name(const MtModel *m, int body);
/* Writes "body.marker" into buf. */
const char *mt_model_marker_ref(const MtModel *m, int marker, char *buf, int len);

/* Checks every entity for physical sense (positive mass, positive-definite
 * inertia satisfying the triangle inequality, unit axes, finite numbers,
 * drivers on drivable joints); first problem goes to err, naming the entity. */
MtStatus mt_model_validate(const MtModel *m, MtError *err);

/* Rows a joint type removes (revolute 5, spherical 3 …). */
int mt_joint_rows(MtJointType t);
const char *mt_joint_type_name(MtJointType t);
int mt_joint_type_from_name(const char *s, MtJointType *t);
const char *mt_method_name(MtMethod m);
int mt_method_from_name(const char *s, MtMethod *m);

/* Text model format (docs/model-format.md). */
MtModel *mt_model_parse(const char *text, const char *source_name, MtError *err);
MtModel *mt_model_load(const char *path, MtError *err);
/* Writes the model in canonical text form. */
MtStatus mt_model_write(const MtModel *m, FILE *f, MtError *err);

#endif
