/* mt_fe_elem.h — element matrices of the finite-element library (internal to
 * core/flex): 3D beams (mt_fe_beam.c), solids (mt_fe_solid.c), flat shells
 * (mt_fe_shell.c) and plane-stress membranes (mt_fe_membrane.c). Every routine works in global coordinates and without
 * allocation: the caller passes buffers of MT_FE_MAXDOF² doubles.
 *
 * Element DOF order: node by node, MT_FE_NC(type) components per node
 * (3: ux uy uz for solids and membranes, 6: ux uy uz rx ry rz for beams and
 * shells). */
#ifndef MT_FE_ELEM_H
#define MT_FE_ELEM_H

#include "motus/fe.h"

#define MT_FE_MAXNODE 20 /* hex20 */
#define MT_FE_MAXDOF 60

/* Components per node of an element type (3 or 6). */
int mt_fe_type_ncomp(int type);
/* The property kind (MtFePropKind) an element type needs: membranes take a
 * shell property (their thickness). */
int mt_fe_type_prop_kind(int type);
/* 1 for the membranes (mem4, mem8). */
int mt_fe_type_membrane(int type);

/* Material constants of element e (checked by mt_fe_validate). */
const MtFeMaterial *mt_fe_elem_mat(const MtFeModel *m, int e);

/* Stiffness K and consistent mass M (nd×nd, row-major, symmetric), nd =
 * nodes·ncomp. Returns 0, or -1 with err set (degenerate element, bad
 * orientation). With lumped != 0, M is not computed here (the assembly lumps
 * the element's rigid-body shares, mt_fe_elem_inertia). K may be NULL: the
 * mass alone. */
int mt_fe_elem_km(const MtFeModel *m, int e, int lumped, double *K, double *M, MtError *err);

/* Rigid-body mass properties of element e: mass, centre of mass c, inertia
 * tensor about c (3×3 row-major) and the share w[a] (Σ w = 1) of each node
 * (diagonal scaling of the consistent mass, HRZ). The node shares are the
 * "small rigid bodies" of docs/design.md §4.2: node a carries mass w[a]·mass, centre at
 * c, inertia w[a]·Ic, so the shares sum to the element's exact properties. */
int mt_fe_elem_inertia(const MtFeModel *m, int e, double *mass, double c[3], double Ic[9], double *w, MtError *err);

/* Stress (xx yy zz xy yz zx, global axes) at each node of element e for the
 * nodal displacements ue (element DOF order). Solids: at the node; shells:
 * on the top face (local +z); beams: zero (not computed). Returns the number
 * of nodes written, 0 if the type has no stress recovery. */
int mt_fe_elem_stress(const MtFeModel *m, int e, const double *ue, double *sig);

/* Element kinds by family (implementations). */
int mt_fe_solid_km(const MtFeModel *m, int e, double *K, double *M, int want_m, MtError *err);
int mt_fe_solid_inertia(const MtFeModel *m, int e, double *mass, double c[3], double S[9], double *w, MtError *err);
int mt_fe_solid_stress(const MtFeModel *m, int e, const double *ue, double *sig);
int mt_fe_beam_km(const MtFeModel *m, int e, double *K, double *M, int want_m, MtError *err);
int mt_fe_beam_inertia(const MtFeModel *m, int e, double *mass, double c[3], double S[9], double *w, MtError *err);
/* Geometric stiffness under the initial stress of the displacement ue (element
 * layout): beams 12×12 (axial force), solids the nn×nn scalar S of Kg = S ⊗ 1₃
 * (hex20 included). */
int mt_fe_beam_kg(const MtFeModel *m, int e, const double *ue, double *K, MtError *err);
int mt_fe_solid_kg(const MtFeModel *m, int e, const double *ue, double *S, MtError *err);
/* Membranes (mem4, mem8) and the shells' membranes (tria3, quad4, quad8): the
 * nn×nn scalar S of Kg = S ⊗ 1₃ on the translations, ue three translations per node. */
int mt_fe_membrane_kg(const MtFeModel *m, int e, const double *ue, double *S, MtError *err);
int mt_fe_shell_km(const MtFeModel *m, int e, double *K, double *M, int want_m, MtError *err);
int mt_fe_shell_inertia(const MtFeModel *m, int e, double *mass, double c[3], double S[9], double *w, MtError *err);
int mt_fe_shell_stress(const MtFeModel *m, int e, const double *ue, double *sig);
int mt_fe_membrane_km(const MtFeModel *m, int e, double *K, double *M, int want_m, MtError *err);
int mt_fe_membrane_inertia(const MtFeModel *m, int e, double *mass, double c[3], double S[9], double *w, MtError *err);
int mt_fe_membrane_stress(const MtFeModel *m, int e, const double *ue, double *sig);
int mt_fe_shell8_km(const MtFeModel *m, int e, double *K, double *M, int want_m, MtError *err);
int mt_fe_shell8_stress(const MtFeModel *m, int e, const double *ue, double *sig);

/* Beam local axes (rows of R: x along the beam, y from the orientation
 * vector, z = x × y) and length. Returns 0 or -1 with err set. */
int mt_fe_beam_frame(const MtFeModel *m, int e, double R[9], double *L, MtError *err);

/* Rotates an element matrix given in local axes (6 components per node) to
 * global ones: A ← Tᵀ A T with T = diag(R, R, ...), nn nodes. */
void mt_fe_rotate6(double *A, int nn, const double R[9]);

/* Inertia tensor about the centre from the second moment S = ∫ρ(x−c)(x−c)ᵀ:
 * I = tr(S)·1 − S (in place). */
void mt_fe_inertia_from_second_moment(double S[9]);

/* Isotropic elasticity matrix (6×6, engineering shear strains). */
void mt_fe_elastic_D(double E, double nu, double D[36]);

#endif
