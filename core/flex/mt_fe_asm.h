/* mt_fe_asm.h — degrees of freedom and sparse assembly of a finite-element
 * model (core/flex internal; used by the reduction and the tests).
 *
 * DOF map (mt_fe_dofs.c): every node component (node n, component c; key
 * 6n + c) is absent (no element uses it), active (a free DOF), fixed (an
 * SPC) or dependent (a rigid element expresses it through active ones:
 * master–slave elimination). Active components are numbered node by node,
 * interior nodes first, then the boundary (interface) nodes in the order
 * given, so K = [K_ii K_ib; K_bi K_bb] and K_ii is the leading block.
 * Each key expands into a short list of (DOF, coefficient): one entry for an
 * active component, none for a fixed or absent one, the rigid-element
 * relation (resolved through chains of rigid elements) for a dependent one.
 *
 * Assembly (mt_fe_asm.c): K and M share one pattern, the lower triangle in
 * compressed columns (CSC, int indices, rows sorted) as the factorisation reads it
 * without a copy; interior DOFs come first, so K_ii is each column's leading
 * rows (rows < ni) of the first ni columns; the element
 * matrices are added through the expansions, so that the assembled matrices
 * are Tᵀ K T and Tᵀ M T of the constrained system. Never dense. */
#ifndef MT_FE_ASM_H
#define MT_FE_ASM_H

#include <stddef.h>

#include "motus/fe.h"

enum { MT_FE_ABSENT = 0, MT_FE_ACTIVE = 1, MT_FE_FIXED = 2, MT_FE_DEPENDENT = 3 };

typedef struct {
    int nnode;
    signed char *state; /* 6·nnode: MT_FE_ABSENT ... */
    int *dof;           /* 6·nnode: DOF of an active component, -1 otherwise */
    int *xp;            /* 6·nnode + 1: expansion of key k is xi/xc[xp[k] .. xp[k+1]) */
    int *xi;
    double *xc;
    int ndof, ni, nb;   /* free DOFs: all, interior, boundary */
    int nd;             /* DOF nodes (nodes with an active component), in DOF order */
    int *dnode;         /* nd: model node of each DOF node */
    int *dnode_of;      /* nnode: DOF node of a model node, -1 if none */
    int *d0;            /* nd + 1: first DOF of each DOF node */
    int *dofnode;       /* ndof: DOF node of each DOF */
    int *dofcomp;       /* ndof: component (0..5) of each DOF */
    int nbnode;
    int *bnode;         /* boundary nodes (model indices), in DOF order */
    int nrigid;         /* rigid-body motions left free by the fixed components (0..6) */
} MtFeDofs;

/* Builds the DOF map; boundary nodes bnodes (model indices, may be NULL).
 * Errors: conflicting constraints, a rigid element that cannot be
 * eliminated, a boundary node without a free component. */
MtFeDofs *mt_fe_dofs_new(const MtFeModel *m, int nbnode, const int *bnodes, MtError *err);
void mt_fe_dofs_free(MtFeDofs *d);
/* Renumbers the interior DOF nodes: order[k] is the old index of the DOF
 * node that becomes number k (a permutation of 0..interior−1); the boundary
 * nodes stay last. Expansions follow. */
int mt_fe_dofs_renumber(MtFeDofs *d, const int *order, MtError *err);
/* Numbers the interior DOF nodes in a fill-reducing order for the Cholesky
 * factorisation (AMD on the graph of DOF nodes for small models, nested
 * dissection for large ones, then an elimination-tree postorder), so that
 * the factorisation takes the assembled matrix as it is: no permuted copy. */
int mt_fe_order(const MtFeModel *m, MtFeDofs *d, const MtFeProgress *pr, MtError *err);

/* "node 12 component uy" for DOF g. */
void mt_fe_dof_name(const MtFeModel *m, const MtFeDofs *d, int g, char *buf, size_t n);

typedef struct MtFeAsmSym MtFeAsmSym;

typedef struct {
    int n;          /* columns (= ndof) */
    int *p;         /* n + 1 column pointers */
    int *i;         /* row indices, sorted within each column, lower triangle with the diagonal first */
    double *k, *m;  /* values of K and M */
    size_t nnz;
    MtFeAsmSym *sym; /* assembly pattern, for refilling the values */
} MtFeCsc;

/* Assembles K and M. Returns 0, or -1 with err set. */
int mt_fe_assemble(const MtFeModel *m, const MtFeDofs *d, MtFeCsc *A, const MtFeProgress *pr, MtError *err);
void mt_fe_csc_free(MtFeCsc *A);
/* Recomputes K (want & 1) and/or M (want & 2) into A's pattern, allocating
 * a value array that was dropped. Lets a large reduction keep only the
 * values it needs next to the factor (peak memory). */
int mt_fe_assemble_values(const MtFeModel *m, const MtFeDofs *d, MtFeCsc *A, int want, const MtFeProgress *pr,
                          MtError *err);
/* Frees the K (which & 1) and/or M (which & 2) values. */
void mt_fe_csc_drop(MtFeCsc *A, int which);

/* y = S x for the symmetric matrix S whose lower triangle has values v in
 * A's pattern, restricted to the leading n×n block (n ≤ A->n). */
void mt_fe_symv(const MtFeCsc *A, const double *v, int n, const double *x, double *y);
/* Y = S X for nrhs columns of length A->n (column-major, leading dimension A->n). */
void mt_fe_symm(const MtFeCsc *A, const double *v, int nrhs, const double *X, double *Y);
/* The same on the leading n×n block, with leading dimensions ldx and ldy. */
void mt_fe_symm_block(const MtFeCsc *A, const double *v, int n, int nrhs, const double *X, int ldx, double *Y, int ldy);

/* The nodal rigid-body shares of docs/design.md §4.2 ("small rigid bodies at the
 * nodes"): per model node, mass, first moment about the node (Σ m·c) and
 * inertia about the node (3×3), summed over the elements' shares
 * (mt_fe_elem_inertia) and the lumped masses. Arrays of nnode, 3·nnode and
 * 9·nnode doubles. Their sums are the model's exact mass properties. */
int mt_fe_node_shares(const MtFeModel *m, double *mass, double *first, double *inertia, MtError *err);

#endif
