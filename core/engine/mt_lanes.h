/* mt_lanes.h — four values side by side in one vector (GCC vector extensions),
 * for the kernels that run the same arithmetic over bodies or blocks
 * (mt_kernels.c). Each lane does exactly the scalar
 * operations in the same order, so with -ffp-contract=off the results are the
 * scalar code's to the last bit, whatever the instruction set of the clone. */
#ifndef MT_LANES_H
#define MT_LANES_H

#include <string.h>

#define MT_LW 4 /* lanes; MT_LANES and mt_lanes_put4 are written for four */
typedef double MtLanes __attribute__((vector_size(8 * MT_LW)));
typedef long long MtMask __attribute__((vector_size(8 * MT_LW)));

#if defined(__clang__)
/* clang has no __builtin_shuffle with a mask vector (only the fuzz build,
 * tests/fuzz, uses clang): the same selection lane by lane, exact. */
static inline MtLanes mt_lanes_shuffle2(MtLanes a, MtLanes b, MtMask m)
{
    MtLanes r;
    for (int i = 0; i < MT_LW; i++) {
        long long k = m[i] & (2 * MT_LW - 1);
        r[i] = k < MT_LW ? a[k] : b[k - MT_LW];
    }
    return r;
}
#define __builtin_shuffle(a, b, ...) mt_lanes_shuffle2((a), (b), (__VA_ARGS__))
#endif

/* element i of each lane's array P[l] */
#define MT_LANES(P, i) ((MtLanes){(P)[0][i], (P)[1][i], (P)[2][i], (P)[3][i]})
/* a where m is set, +0 elsewhere; a where m is set, b elsewhere */
#define MT_AND(m, a) ((MtLanes)((MtMask)(a) & (m)))
#define MT_SEL(m, a, b) ((MtLanes)(((MtMask)(a) & (m)) | ((MtMask)(b) & ~(m))))

/* Fields f..f+3 of the lanes (v[0..3], one field each) into each lane's own
 * array row[l]: a 4 x 4 transposition, four vector stores. */
static inline __attribute__((always_inline)) void mt_lanes_put4(double *const *row, int f, const MtLanes *v)
{
    const MtMask lo = {0, 4, 2, 6}, hi = {1, 5, 3, 7}, l2 = {0, 1, 4, 5}, h2 = {2, 3, 6, 7};
    MtLanes t0 = __builtin_shuffle(v[0], v[1], lo), t1 = __builtin_shuffle(v[0], v[1], hi);
    MtLanes t2 = __builtin_shuffle(v[2], v[3], lo), t3 = __builtin_shuffle(v[2], v[3], hi);
    MtLanes o0 = __builtin_shuffle(t0, t2, l2), o1 = __builtin_shuffle(t1, t3, l2);
    MtLanes o2 = __builtin_shuffle(t0, t2, h2), o3 = __builtin_shuffle(t1, t3, h2);
    memcpy(row[0] + f, &o0, sizeof o0); /* no array of results: GCC's v3 code went through the stack */
    memcpy(row[1] + f, &o1, sizeof o1);
    memcpy(row[2] + f, &o2, sizeof o2);
    memcpy(row[3] + f, &o3, sizeof o3);
}

/* All n fields of the lanes into row[l][0..n-1]. */
static inline __attribute__((always_inline)) void mt_lanes_put(double *const *row, int n, const MtLanes *v)
{
    int f = 0;
    for (; f + 4 <= n; f += 4) mt_lanes_put4(row, f, v + f);
    for (; f < n; f++)
        for (int l = 0; l < MT_LW; l++) row[l][f] = v[f][l];
}

/* Three fields of the lanes (v[0..2]) into one array of four consecutive
 * rows of three, dst[3 l + a] = v[a][l]: 3 × 4 transposition, three vector
 * stores (the four rows of consecutive blocks, as in a chain). */
static inline __attribute__((always_inline)) void mt_lanes_put3(double *dst, const MtLanes *v)
{
    const MtMask m01 = {0, 4, 1, 5}, m23 = {2, 6, 3, 7}, m12 = {1, 5, 2, 6};
    MtLanes t = __builtin_shuffle(v[0], v[1], m01); /* v0[0] v1[0] v0[1] v1[1] */
    MtLanes u = __builtin_shuffle(v[0], v[1], m23); /* v0[2] v1[2] v0[3] v1[3] */
    MtLanes w = __builtin_shuffle(v[1], v[2], m12); /* v1[1] v2[1] v1[2] v2[2] */
    const MtMask k0 = {0, 1, 4, 2}, k1 = {0, 1, 6, 2}, k2 = {6, 2, 3, 7};
    MtLanes o0 = __builtin_shuffle(t, v[2], k0), o1 = __builtin_shuffle(w, v[0], k1), o2 = __builtin_shuffle(u, v[2], k2);
    memcpy(dst, &o0, sizeof o0);
    memcpy(dst + 4, &o1, sizeof o1);
    memcpy(dst + 8, &o2, sizeof o2);
}

#endif
