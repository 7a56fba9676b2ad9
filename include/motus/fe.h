/* motus/fe.h — finite-element models of flexible bodies (docs/design.md §4.5,
 * docs/flexible-bodies.md): nodes, elements, materials, properties, named
 * sets, lumped masses, rigid elements (RBE2 spider, RBE3 interpolation) and
 * fixed degrees of freedom. A model is built by the mesh importers
 * (motus/mesh.h) or by hand with the mt_fe_add_* calls, and reduced by
 * mt_flex_reduce (motus/reduce.h).
 *
 * Units are whatever consistent set the mesh uses (SI, or mm–t–s): time is
 * always in seconds, so frequencies come out in Hz either way.
 *
 * Nodes and elements carry the labels of the file (id) and are addressed by
 * their index (0..n-1) everywhere else; mt_fe_node_index maps a label to an
 * index. Degree-of-freedom components are numbered 0..5 = ux uy uz rx ry rz;
 * a component mask has bit c set for component c (MT_FE_ALL = 0x3f). */
#ifndef MOTUS_FE_H
#define MOTUS_FE_H

#include <stddef.h>

#include "motus/error.h"

#define MT_FE_TRANS 0x07 /* components 0, 1, 2 */
#define MT_FE_ALL 0x3f   /* components 0..5 */
#define MT_FE_NAME 64

typedef enum {
    MT_FE_BEAM2,  /* 3D beam, 2 nodes, 6 DOF per node (Euler–Bernoulli or Timoshenko) */
    MT_FE_TRIA3,  /* flat shell triangle: DKT bending + CST membrane */
    MT_FE_QUAD4,  /* flat shell quadrilateral: MITC4 (bending, shear) + bilinear membrane */
    MT_FE_TET4,   /* linear tetrahedron */
    MT_FE_TET10,  /* quadratic tetrahedron, Abaqus/Nastran node order */
    MT_FE_HEX8,   /* trilinear hexahedron, 2×2×2 Gauss */
    MT_FE_HEX20,  /* quadratic (serendipity) hexahedron, Abaqus node order, 3×3×3 Gauss */
    MT_FE_MEM4,   /* plane-stress membrane quadrilateral (in its own plane; translations only), 2×2 Gauss */
    MT_FE_MEM8,   /* 8-node plane-stress membrane quadrilateral (corners, then mid-sides 0-1 1-2 2-3 3-0), 3×3 Gauss */
    MT_FE_QUAD8,  /* 8-node flat shell: mem8 membrane + Mindlin plate, shear on 2×2 points (mem8 node order) */
    MT_FE_NTYPES
} MtFeType;

typedef struct {
    char name[MT_FE_NAME];
    double E, nu, rho; /* Young's modulus, Poisson's ratio, density */
} MtFeMaterial;

typedef enum { MT_FE_PROP_SOLID, MT_FE_PROP_SHELL, MT_FE_PROP_BEAM } MtFePropKind;

typedef struct {
    char name[MT_FE_NAME];
    MtFePropKind kind;
    int mat;             /* index into model->mat */
    double t;            /* shell thickness */
    double A, Iy, Iz, J; /* beam: area, second moments about the local y and z axes, torsion constant */
    double ky, kz;       /* beam shear coefficients (Timoshenko); 0 = no shear deformation (Euler–Bernoulli) */
    int rotary;          /* beam consistent mass: 1 adds the rotary inertia of the section (Timoshenko always does) */
    double v[3];         /* beam: default orientation vector (in the local x–y plane), used when the element has none */
    int has_v;
} MtFeProp;

typedef struct {
    int id;      /* label */
    int type;    /* MtFeType */
    int prop;    /* index into model->prop, -1 while unassigned */
    int conn;    /* first node in model->conn; the count follows from the type */
    int vidx;    /* beam orientation vector index in model->vec (-1: the property's) */
} MtFeElem;

/* A rigid-body mass at a node (Nastran CONM2): mass m at offset c from the
 * node, inertia tensor J (xx yy zz xy yz xz) about its own centre of mass. */
typedef struct {
    int id;
    int node;
    double m, c[3], J[6];
} MtFeMass;

typedef enum {
    MT_FE_RBE2, /* ref node independent (6 DOF); listed nodes follow it rigidly in components cm */
    MT_FE_RBE3  /* ref node moves with the weighted least-squares rigid fit of the listed nodes' translations */
} MtFeRigidType;

typedef struct {
    int id;
    int type;   /* MtFeRigidType */
    int ref;    /* the reference (master) node */
    int cm;     /* RBE2: dependent components of the listed nodes; RBE3: components of the ref node (MT_FE_ALL) */
    int first;  /* first listed node in model->rnode (and weight in model->rw) */
    int n;      /* number of listed nodes */
} MtFeRigid;

typedef enum { MT_FE_SET_NODE, MT_FE_SET_ELEM } MtFeSetKind;

typedef struct {
    char name[MT_FE_NAME];
    int kind;   /* MtFeSetKind */
    int first;  /* first item (node or element index) in model->setitem */
    int n;
} MtFeSet;

typedef struct {
    int node;
    int mask;   /* fixed components */
} MtFeSpc;

typedef struct MtFeHash MtFeHash;

typedef struct MtFeModel {
    char title[128];
    int nnode, cnode;
    int *nid;    /* node labels */
    double *x;   /* 3·nnode coordinates */
    int nelem, celem;
    MtFeElem *elem;
    int nconn, cconn;
    int *conn;   /* element node indices */
    int nvec, cvec;
    double *vec; /* 3·nvec beam orientation vectors */
    int nmat, cmat;
    MtFeMaterial *mat;
    int nprop, cprop;
    MtFeProp *prop;
    int nmass, cmass;
    MtFeMass *mass;
    int nrigid, crigid;
    MtFeRigid *rigid;
    int nrnode, crnode;
    int *rnode;     /* listed nodes of rigid elements */
    double *rw;     /* RBE3 weights (1 for RBE2) */
    int nset, cset;
    MtFeSet *set;
    int nsetitem, csetitem;
    int *setitem;
    int nspc, cspc;
    MtFeSpc *spc;
    int lumped;     /* 1: lumped mass matrices (nodal rigid bodies), 0: consistent */
    int nskip;      /* keywords or cards a mesh reader skipped */
    char skipped[160]; /* their names, comma-separated (as many as fit) */
    MtFeHash *nhash, *ehash; /* label → index */
} MtFeModel;

/* Progress and cancellation of long computations (assembly, factorisation,
 * eigensolution, reduction): fn (may be NULL) gets a stage name and the
 * fraction done (0..1) and returns nonzero to cancel; *cancel (may be NULL)
 * set nonzero by another thread cancels too. A cancelled call fails with
 * MT_ERR_ARG and the message "cancelled". */
typedef struct {
    int (*fn)(void *user, const char *stage, double fraction);
    void *user;
    const volatile int *cancel;
} MtFeProgress;

/* Calls the progress callback; returns nonzero (and sets err) when cancelled.
 * pr may be NULL. */
int mt_fe_progress(const MtFeProgress *pr, const char *stage, double fraction, MtError *err);

/* Number of nodes of an element type; its name ("beam2", "tet10", ...). */
int mt_fe_type_nodes(int type);
const char *mt_fe_type_name(int type);

MtFeModel *mt_fe_model_new(void);
void mt_fe_model_free(MtFeModel *m);

/* Adders return the new index, or -1 with err set (duplicate label, unknown
 * node, out of memory). Element nodes are node indices. */
int mt_fe_add_node(MtFeModel *m, int id, double x, double y, double z, MtError *err);
int mt_fe_add_elem(MtFeModel *m, int id, int type, int prop, const int *nodes, MtError *err);
int mt_fe_add_material(MtFeModel *m, const char *name, double E, double nu, double rho, MtError *err);
int mt_fe_add_prop(MtFeModel *m, const MtFeProp *p, MtError *err);
int mt_fe_add_mass(MtFeModel *m, int id, int node, double mass, const double c[3], const double J[6], MtError *err);
/* RBE2: nodes follow ref rigidly in components cm (0 → all they have).
 * RBE3: ref follows the listed nodes' translations with weights w (NULL → 1). */
int mt_fe_add_rigid(MtFeModel *m, int id, int type, int ref, int cm, int n, const int *nodes, const double *w,
                    MtError *err);
int mt_fe_add_spc(MtFeModel *m, int node, int mask, MtError *err);
/* Supports from a specification "NODES[:DIGITS][;NODES[:DIGITS]…]": NODES a
 * comma-separated list of node labels and node-set names (ALL or NALL: every
 * node, unless the mesh has a set of that name), DIGITS the held components
 * as in Nastran's SPC (1 2 3 = ux uy uz, 4 5 6 = rx ry rz; none: all six;
 * "1-3": a range, as Abaqus's first and last DOF).
 * Returns the number of nodes given supports, or -1 with err set. */
int mt_fe_fix_spec(MtFeModel *m, const char *spec, MtError *err);
/* A named set of node or element indices (duplicates removed). A set with the
 * same name and kind is extended. */
int mt_fe_add_set(MtFeModel *m, const char *name, int kind, int n, const int *items, MtError *err);
/* Beam orientation vector of element e (local x–y plane). */
int mt_fe_set_orientation(MtFeModel *m, int e, const double v[3], MtError *err);

/* Label → index, -1 if absent. */
int mt_fe_node_index(const MtFeModel *m, int id);
int mt_fe_elem_index(const MtFeModel *m, int id);
/* Set by name (case-insensitive) and kind (-1: any), -1 if absent. */
int mt_fe_find_set(const MtFeModel *m, const char *name, int kind);
int mt_fe_find_material(const MtFeModel *m, const char *name);
int mt_fe_find_prop(const MtFeModel *m, const char *name);

/* Checks that every element has a property of the right kind with a valid
 * material (E > 0, −1 < ν < 0.5, ρ ≥ 0; thickness, area, inertias > 0), that
 * rigid elements and masses are sound, and that no element is degenerate. */
MtStatus mt_fe_validate(const MtFeModel *m, MtError *err);

/* Gives every element without a property one made from the material
 * (E, ν, ρ) — solids only; shells need thickness t > 0, beams get nothing
 * (an error names the first one). Used for meshes without materials (.msh). */
MtStatus mt_fe_default_props(MtFeModel *m, double E, double nu, double rho, double t, MtError *err);

/* Adds a node at the centroid of the given nodes (or at p if p != NULL) with
 * an RBE2 spider to them; returns the new node's index or -1. The new node
 * gets label max(label)+1. */
int mt_fe_add_spider(MtFeModel *m, int type, int n, const int *nodes, const double *p, MtError *err);

/* Exact rigid-body mass properties of the model (consistent mass): mass,
 * first moment Σ m·x (3) and inertia tensor about the origin (3×3
 * row-major), integrating every element and lumped mass. */
MtStatus mt_fe_mass_properties(const MtFeModel *m, double *mass, double s[3], double inertia[9], MtError *err);

#endif
