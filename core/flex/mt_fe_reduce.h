/* mt_fe_reduce.h — reduction of a finite-element model to a flexible body
 * for the dynamics (docs/design.md §4.1, docs/flexible-bodies.md).
 *
 * Methods (nodal displacements x = H·w in the floating frame):
 *   MODES   normal modes of the model as given: free-free when nothing is
 *           fixed (the rigid-body modes, normally six, are found and dropped),
 *           or with the model's fixed supports;
 *   CB      Craig–Bampton: static constraint modes Ψ = −K_ii⁻¹K_ib from one
 *           factorisation of K_ii with the interface DOFs as right-hand sides,
 *           fixed-interface modes of (K_ii, M_ii) on the same factor,
 *           H = [Ψ Φ; 1 0], reduced K̄ = HᵀKH, M̄ = HᵀMH, orthonormalised by
 *           the small eigenproblem (K̄, M̄) whose rigid-body vectors are
 *           dropped (the floating frame carries them);
 *   GUYAN   static condensation: CB without fixed-interface modes;
 *   ATTACH  free-free normal modes plus residual attachment modes (response
 *           to a unit load at each interface DOF, (K − σM)⁻¹f, made
 *           M-orthogonal to the modes), orthonormalised like CB.
 * The result is a modal basis of N columns with K̄ = diag(ω²), M̄ = 1, the
 * basis at the interface nodes, the inertia invariants and the display data. */
#ifndef MT_FE_REDUCE_H
#define MT_FE_REDUCE_H

#include <stddef.h>

#include "mt_fe.h"
#include "mt_model.h" /* MtReduceMethod */

/* MtReduceMethod: the model chooses it (mt_model.h) */

typedef struct {
    int method;          /* MtReduceMethod */
    int nmodes;          /* MODES, ATTACH: elastic modes; CB: fixed-interface modes; GUYAN: unused */
    int nif;             /* interface nodes (model indices) */
    const int *ifnodes;
    double sigma;        /* shift for problems with rigid-body modes, (rad/s)²; 0: −(2π·1 Hz)² */
    int keep_rigid;      /* 1: keep the rigid-body vectors in the basis (N includes them) */
    int surface;         /* 1: outer surface and modal displacements per surface vertex */
    int stress;          /* 1: also modal stresses at the surface vertices (solids, shells) */
    double zeta;         /* modal damping ratio stored for every mode */
    int stiffening;      /* 1: geometric stiffness of the inertial loads (CB, GUYAN; MtFlexBody.Kg) */
    int lean;            /* peak memory: 0 auto (above 50 000 DOFs), 1 always, -1 never: keep next to the
                          * factor only the matrix the next step needs, and assemble the other again */
    MtFeProgress progress;
} MtReduceOptions;

/* Defaults: CB, 10 modes, surface and stress on, ζ = 0.01. */
void mt_reduce_options_init(MtReduceOptions *o);

typedef struct {
    int ndof, ni, nb;        /* free DOFs: all, interior, boundary */
    size_t nnz;              /* nonzeros of the upper triangle of K */
    double nnz_L, flops;     /* of the (first) factorisation */
    char ordering[24];
    double t_assemble, t_factor, t_eigen, t_reduce, t_output; /* wall seconds */
    double eig_residual;     /* largest relative residual of the sparse eigenpairs */
    int lanczos_ops;         /* operator applications in Lanczos */
} MtReduceStats;

/* Everything the dynamics and the display need from a flexible body; the
 * FE matrices are not needed afterwards. Matrices column-major. Nodal
 * quantities in the body frame (the FE model's axes and origin). */
typedef struct MtFlexBody {
    int method;          /* MtReduceMethod */
    int nmode;           /* N: modal coordinates */
    double *freq;        /* N: natural frequencies of the reduced body, Hz (free floating, rigid motion dropped) */
    double *Kr, *Mr;     /* N×N reduced stiffness C̄ (diag ω²) and mass M̄ (identity) */
    double *zeta;        /* N: modal damping ratios (d_k = 2ζ_kω_k) */
    double alpha, beta;  /* Rayleigh damping D̄ = αC̄ + βM̄ (alternative to zeta; 0 by default) */
    int nrigid;          /* rigid-body vectors dropped */
    double *rigid_freq;  /* nrigid: their computed frequencies, Hz (≈ 0) */
    int nfix;            /* CB: fixed-interface modes; MODES/ATTACH: the normal modes computed */
    double *fix_freq;    /* nfix, Hz */
    double *fix_meff;    /* 6·nfix: effective mass of each of those modes in x, y, z (kg) and about the
                          * centre of mass x, y, z (kg·m²), for a base motion of the interface (CB) or of
                          * the supports (MODES); zero for free-free elastic modes */
    /* interface nodes */
    int nif;
    int *if_id;          /* labels */
    double *if_x;        /* 3·nif positions */
    double *if_H;        /* (6·nif)×N: rows ux uy uz rx ry rz of each interface node */
    /* inertia invariants (nodal rigid bodies, docs/design.md §4.2; docs/flexible-bodies.md):
     * node k: mass m, centre ρ = x + c, inertia J about it, translation Φ (3×N)
     * of its centre and rotation Ψ (3×N); φ_j = column j of Φ. */
    double mass;         /* Σ m */
    double s0[3];        /* Σ m ρ */
    double I0[9];        /* Σ (m [ρ]×ᵀ[ρ]× + J), about the origin */
    double *S1;          /* 3×N: Σ m Φ */
    double *Ir;          /* 3×N: Σ (m [ρ]× Φ + J Ψ) */
    double *Mww;         /* N×N: Σ (m ΦᵀΦ + ΨᵀJΨ) */
    double *I1;          /* 9·N: per j, Σ m ([ρ]×ᵀ[φ_j]× + [φ_j]×ᵀ[ρ]×) (3×3 row-major) */
    double *I2;          /* 9·N·N: per (i, j) (index i + N·j), Σ m [φ_i]×ᵀ[φ_j]× */
    double *Sw;          /* 3·N·N: per j, Σ m [φ_j]× Φ (3×N, column-major, block j) */
    /* display: outer surface */
    int nsv, nst, nseg;
    int *sv_id;          /* nsv: node label of each surface vertex */
    float *sv_x;         /* 3·nsv */
    int *st;             /* 3·nst: triangles (vertex indices, counter-clockwise seen from outside) */
    int *seg;            /* 2·nseg: beam lines */
    float *sv_H;         /* 3·nsv·N: displacement of vertex v in mode k at [3·(k·nsv + v)] */
    float *sv_vm;        /* nsv·N: von Mises stress of mode k at vertex v, [k·nsv + v] (Pa per unit w_k) */
    float *sv_sig;       /* 6·nsv·N: stress tensor xx yy zz xy yz zx of mode k at [6·(k·nsv + v)] */
    /* geometric stiffening (NULL when not asked for): MT_FLEX_NKG blocks N×N (column-major,
     * block c at c·N·N), the reduced geometric stiffness of the pre-stress of unit body forces
     * per unit mass b(x) held at the interface: c = 0..2 b = e_c; 3..5 b_j = x_j (j = c − 3);
     * 6, 7, 8 b_j = x_k and b_k = x_j for (j, k) = (0, 1), (1, 2), (0, 2). A body force field
     * g + C x (C symmetric) stiffens by Σ p_c Kg_c with p = (g, C00, C11, C22, C01, C12, C02). */
    double *Kg;
} MtFlexBody;

#define MT_FLEX_NKG 9

/* Reduces the model. Returns the body, or NULL with err set. stats may be NULL. */
MtFlexBody *mt_flex_reduce(MtFeModel *m, const MtReduceOptions *opt, MtReduceStats *stats, MtError *err);
void mt_flex_body_free(MtFlexBody *b);

/* Binary form (a BLOB for the project store): little-endian, tagged
 * sections, versioned ("MTFLEX" magic). mt_flex_body_serialize returns a
 * malloc'ed buffer and its size; mt_flex_body_deserialize checks every size
 * and fails with an error on a damaged or truncated buffer. */
void *mt_flex_body_serialize(const MtFlexBody *b, size_t *size, MtError *err);
MtFlexBody *mt_flex_body_deserialize(const void *buf, size_t size, MtError *err);
MtStatus mt_flex_body_save(const MtFlexBody *b, const char *path, MtError *err);
MtFlexBody *mt_flex_body_load(const char *path, MtError *err);

#endif
