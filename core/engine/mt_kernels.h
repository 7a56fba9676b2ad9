/* mt_kernels.h — the vector kernels of the evaluation's hot passes
 * (mt_kernels.c): four bodies or lean blocks per vector (mt_lanes.h). Each is
 * bit-identical to a scalar reference path written as the equations of
 * docs/design.md §2 read, which stays the definition:
 *   body pass       mt_body_eval (mt_dynamics.c)        ← mt_kernel_bodies
 *   lean block rows lean_block_rows (mt_constraints.c)  ← mt_kernel_lean_rows
 *   lean pairs of A sph_pair (mt_dynamics.c)            ← mt_kernel_lean_pairs, mt_kernel_sph_pair4
 * MtState.lean.reference = 1 evaluates by the references only;
 * tests/core/test_kernels.c compares the two bit for bit. Engine-internal. */
#ifndef MT_KERNELS_H
#define MT_KERNELS_H

#include "mt_lanes.h"
#include "mt_system.h"

/* The body pass's arithmetic, written once for one body (double, the
 * reference) and for four (MtLanes, the kernel): the rotation R of a unit
 * quaternion (w, x, y, z), the world inverse inertia S = R·diag(d0, d1, d2)·Rᵀ
 * of principal axes, and ṗ. The same expressions in both types keep the
 * lanes bit-identical to the reference. */
#define MT_QUAT_ROT(R, w, x, y, z)                                                                                  \
    do {                                                                                                            \
        __typeof__(w) xx_ = 2 * (x) * (x), yy_ = 2 * (y) * (y), zz_ = 2 * (z) * (z), xy_ = 2 * (x) * (y),           \
                      xz_ = 2 * (x) * (z), yz_ = 2 * (y) * (z), wx_ = 2 * (w) * (x), wy_ = 2 * (w) * (y),           \
                      wz_ = 2 * (w) * (z);                                                                          \
        R[0] = 1 - (yy_ + zz_), R[1] = xy_ - wz_, R[2] = xz_ + wy_;                                                 \
        R[3] = xy_ + wz_, R[4] = 1 - (xx_ + zz_), R[5] = yz_ - wx_;                                                 \
        R[6] = xz_ - wy_, R[7] = yz_ + wx_, R[8] = 1 - (xx_ + yy_);                                                 \
    } while (0)
#define MT_ROT_DIAG(S, R, d0, d1, d2)                                                                               \
    do {                                                                                                            \
        S[0] = R[0] * d0 * R[0] + R[1] * d1 * R[1] + R[2] * d2 * R[2];                                              \
        S[1] = S[3] = R[0] * d0 * R[3] + R[1] * d1 * R[4] + R[2] * d2 * R[5];                                       \
        S[2] = S[6] = R[0] * d0 * R[6] + R[1] * d1 * R[7] + R[2] * d2 * R[8];                                       \
        S[4] = R[3] * d0 * R[3] + R[4] * d1 * R[4] + R[5] * d2 * R[5];                                              \
        S[5] = S[7] = R[3] * d0 * R[6] + R[4] * d1 * R[7] + R[5] * d2 * R[8];                                       \
        S[8] = R[6] * d0 * R[6] + R[7] * d1 * R[7] + R[8] * d2 * R[8];                                              \
    } while (0)
/* ṗ = ½ (0, ω) ⊗ p of the stored quaternion p (not normalised), ω in project axes */
#define MT_QDOT(d, w0, w1, w2, p0, p1, p2, p3)                                                                      \
    do {                                                                                                            \
        d[0] = 0.5 * (-w0 * p1 - w1 * p2 - w2 * p3);                                                                \
        d[1] = 0.5 * (w0 * p0 + w1 * p3 - w2 * p2);                                                                 \
        d[2] = 0.5 * (w1 * p0 + w2 * p1 - w0 * p3);                                                                 \
        d[3] = 0.5 * (w2 * p0 + w0 * p2 - w1 * p1);                                                                 \
    } while (0)

/* Reference: body b's rotation R, world inverse inertia Jwinv (with st->qn[b]
 * already 1/|quaternion|), gravity and gyroscopic force f = (m g, −ω × Jω) of a
 * rigid body, and with done (nothing else acts) the free accelerations
 * a0 = acc = M⁻¹ f; q̇ into st->dq when set. */
void mt_body_eval(MtState *st, const double *q, const double *u, int done, int b);

/* Kernel of the body pass over all rigid bodies (no flexible ones): st->qn,
 * then mt_body_eval's results four bodies per vector (inertia diagonal in body
 * axes; other groups and the last bodies by mt_body_eval). With rows (a lean
 * chain, done) also every lean block's rows and right-hand side (as
 * mt_kernel_lean_rows with c0, c1, rhs) and A(k,k) into the factor's storage. */
void mt_kernel_bodies(MtState *st, const double *q, const double *u, int done, int rows, double c0, double c1,
                      double *rhs);

/* Kernel of the lean blocks' rows (all of them): dlean, g, ġ, h and with rhs
 * the right-hand side of their rows, v = −h − c1 ġ − c0 g − Σ σ (a_lin + a_ang × r). */
void mt_kernel_lean_rows(MtState *st, const double *q, const double *u, double c0, double c1, double *rhs);

/* Kernels of the lean pairs of A (sph_pair four at a time): all pairs lean
 * (MtState.lean.pairs) in straight groups, returning how many were done; or
 * the four pairs st->pair[pi[0..3]]. */
int mt_kernel_lean_pairs(const MtState *st);
void mt_kernel_sph_pair4(const MtState *st, const int *pi);

#endif
