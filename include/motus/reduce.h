/* motus/reduce.h — reduction of a finite-element model (motus/fe.h) to a
 * flexible body for the dynamics (docs/design.md §4.1,
 * docs/flexible-bodies.md): the options and statistics of a reduction job,
 * the reduced body (opaque; what readers need of it in MtFlexInfo), and its
 * binary form for files and projects.
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
#ifndef MOTUS_REDUCE_H
#define MOTUS_REDUCE_H

#include <stddef.h>

#include "motus/fe.h"
#include "motus/model.h" /* MtReduceMethod */

/* MtReduceMethod: the model chooses it (motus/model.h) */

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

/* A reduced body: modes, inertia invariants, interface, display surface
 * (its layout is core/flex's, mt_fe_reduce.h). */
typedef struct MtFlexBody MtFlexBody;

/* What readers of a reduced body see (borrowed arrays, valid while the body
 * lives). Nodal quantities in the body frame (the FE model's axes and origin). */
typedef struct {
    int method;               /* MtReduceMethod */
    int nmode;                /* N: modal coordinates */
    const double *freq;       /* N: natural frequencies, Hz (free floating, rigid motion dropped) */
    int nrigid;               /* rigid-body vectors dropped */
    const double *rigid_freq; /* nrigid: their computed frequencies, Hz (≈ 0) */
    int nfix;                 /* CB: fixed-interface modes; MODES/ATTACH: the normal modes computed */
    const double *fix_freq;   /* nfix, Hz */
    const double *fix_meff;   /* 6·nfix: effective mass of each in x, y, z (kg) and about the centre of mass (kg·m²) */
    int nif;                  /* interface nodes */
    double mass;              /* kg */
    double s0[3];             /* first moment Σ m ρ */
    double I0[9];             /* inertia about the origin */
    /* display: outer surface */
    int nsv, nst, nseg;       /* surface vertices, triangles, beam lines */
    const int *sv_id;         /* nsv: node label of each surface vertex */
    const float *sv_x;        /* 3·nsv positions */
    const int *st;            /* 3·nst: triangles (vertex indices, counter-clockwise seen from outside) */
    const int *seg;           /* 2·nseg: beam lines */
    const float *sv_H;        /* 3·nsv·N: displacement of vertex v in mode k at [3·(k·nsv + v)] */
    const float *sv_sig;      /* 6·nsv·N: stress tensor xx yy zz xy yz zx of mode k at [6·(k·nsv + v)]; NULL without */
} MtFlexInfo;
void mt_flex_body_info(const MtFlexBody *fb, MtFlexInfo *info);

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
