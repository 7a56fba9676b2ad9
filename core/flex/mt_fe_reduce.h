/* mt_fe_reduce.h — the reduced flexible body as core/ lays it out
 * (the dynamics, the views and the store read it); the reduction itself and
 * what readers outside core/ see of a body are in motus/reduce.h. */
#ifndef MT_FE_REDUCE_H
#define MT_FE_REDUCE_H

#include "motus/reduce.h"

/* Everything the dynamics and the display need from a flexible body; the
 * FE matrices are not needed afterwards. Matrices column-major. Nodal
 * quantities in the body frame (the FE model's axes and origin). */
struct MtFlexBody {
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
    /* with Kg: N blocks N×N, block k at k·N·N, the reduced geometric stiffness of the stress of
     * the static field of modal coordinate k's interface displacement (the constraint modes):
     * interface loads (joint reactions, force elements) stiffen by Σ w_k Kw_k (mt_fe_geom.c) */
    double *Kw;
};

#define MT_FLEX_NKG 9

#endif
