/* mt_math.h — small double-precision vec3 / mat3 / quaternion helpers for the
 * dynamics (cglm is float and is for rendering only). Matrices are row-major
 * double[9]; quaternions are (w, x, y, z). */
#ifndef MT_MATH_H
#define MT_MATH_H

#include <math.h>

/* The solver's hot passes (one call per evaluation, loops over bodies or
 * blocks) get x86-64-v4 (AVX-512: 32 vector registers, fewer spills) and
 * x86-64-v3 (AVX2, FMA) clones, chosen by the loader on CPUs that have them;
 * the default clone stays baseline x86-64 (SSE2). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define MT_HOT __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define MT_HOT
#endif

/* 1 if x[0..n-1] are all finite: x·0 is 0 for finite x, NaN otherwise, summed
 * in eight independent chains (a single running sum is a chain of n dependent
 * additions, which the compiler may not reorder; it cost 5 % of an evaluation). */
static inline int mt_all_finite(const double *x, int n)
{
    double s8[8] = {0, 0, 0, 0, 0, 0, 0, 0}, s = 0;
    int i = 0;
    for (; i + 8 <= n; i += 8)
        for (int j = 0; j < 8; j++) s8[j] += x[i + j] * 0;
    for (; i < n; i++) s += x[i] * 0;
    for (int j = 0; j < 8; j++) s += s8[j];
    return s == 0;
}

static inline void mt_v3_set(double *r, double x, double y, double z) { r[0] = x; r[1] = y; r[2] = z; }
static inline void mt_v3_copy(double *r, const double *a) { r[0] = a[0]; r[1] = a[1]; r[2] = a[2]; }
static inline void mt_v3_add(double *r, const double *a, const double *b) { r[0] = a[0] + b[0]; r[1] = a[1] + b[1]; r[2] = a[2] + b[2]; }
static inline void mt_v3_sub(double *r, const double *a, const double *b) { r[0] = a[0] - b[0]; r[1] = a[1] - b[1]; r[2] = a[2] - b[2]; }
static inline void mt_v3_scale(double *r, const double *a, double s) { r[0] = a[0] * s; r[1] = a[1] * s; r[2] = a[2] * s; }
/* r += s*a */
static inline void mt_v3_axpy(double *r, double s, const double *a) { r[0] += s * a[0]; r[1] += s * a[1]; r[2] += s * a[2]; }
static inline double mt_v3_dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static inline double mt_v3_norm(const double *a) { return sqrt(mt_v3_dot(a, a)); }
/* r = a x b (r may alias neither a nor b) */
static inline void mt_v3_cross(double *r, const double *a, const double *b)
{
    double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
    r[0] = x; r[1] = y; r[2] = z;
}
/* r = M a */
static inline void mt_m3_mulv(double *r, const double *M, const double *a)
{
    double x = M[0] * a[0] + M[1] * a[1] + M[2] * a[2];
    double y = M[3] * a[0] + M[4] * a[1] + M[5] * a[2];
    double z = M[6] * a[0] + M[7] * a[1] + M[8] * a[2];
    r[0] = x; r[1] = y; r[2] = z;
}
/* r = Mᵀ a */
static inline void mt_m3_tmulv(double *r, const double *M, const double *a)
{
    double x = M[0] * a[0] + M[3] * a[1] + M[6] * a[2];
    double y = M[1] * a[0] + M[4] * a[1] + M[7] * a[2];
    double z = M[2] * a[0] + M[5] * a[1] + M[8] * a[2];
    r[0] = x; r[1] = y; r[2] = z;
}
/* R = A B */
static inline void mt_m3_mul(double *R, const double *A, const double *B)
{
    double t[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            t[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
    for (int k = 0; k < 9; k++) R[k] = t[k];
}
/* R = A Bᵀ */
static inline void mt_m3_mul_bt(double *R, const double *A, const double *B)
{
    double t[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            t[3 * i + j] = A[3 * i] * B[3 * j] + A[3 * i + 1] * B[3 * j + 1] + A[3 * i + 2] * B[3 * j + 2];
    for (int k = 0; k < 9; k++) R[k] = t[k];
}
/* R = Aᵀ B */
static inline void mt_m3_mul_at(double *R, const double *A, const double *B)
{
    double t[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            t[3 * i + j] = A[i] * B[j] + A[3 + i] * B[3 + j] + A[6 + i] * B[6 + j];
    for (int k = 0; k < 9; k++) R[k] = t[k];
}
static inline void mt_m3_identity(double *R)
{
    for (int k = 0; k < 9; k++) R[k] = (k % 4 == 0) ? 1.0 : 0.0;
}
/* Inverse of a 3x3; returns the determinant (0 when singular, R untouched). */
static inline double mt_m3_inv(double *R, const double *A)
{
    double c0 = A[4] * A[8] - A[5] * A[7], c1 = A[5] * A[6] - A[3] * A[8], c2 = A[3] * A[7] - A[4] * A[6];
    double det = A[0] * c0 + A[1] * c1 + A[2] * c2;
    if (det == 0.0) return 0.0;
    double id = 1.0 / det, t[9];
    t[0] = c0 * id; t[1] = (A[2] * A[7] - A[1] * A[8]) * id; t[2] = (A[1] * A[5] - A[2] * A[4]) * id;
    t[3] = c1 * id; t[4] = (A[0] * A[8] - A[2] * A[6]) * id; t[5] = (A[2] * A[3] - A[0] * A[5]) * id;
    t[6] = c2 * id; t[7] = (A[1] * A[6] - A[0] * A[7]) * id; t[8] = (A[0] * A[4] - A[1] * A[3]) * id;
    for (int k = 0; k < 9; k++) R[k] = t[k];
    return det;
}
/* Rotation matrix (body to project axes) of a unit quaternion. */
static inline void mt_quat_to_m3(double *R, const double *q)
{
    double w = q[0], x = q[1], y = q[2], z = q[3];
    R[0] = 1 - 2 * (y * y + z * z); R[1] = 2 * (x * y - w * z); R[2] = 2 * (x * z + w * y);
    R[3] = 2 * (x * y + w * z); R[4] = 1 - 2 * (x * x + z * z); R[5] = 2 * (y * z - w * x);
    R[6] = 2 * (x * z - w * y); R[7] = 2 * (y * z + w * x); R[8] = 1 - 2 * (x * x + y * y);
}
/* Unit quaternion of a rotation matrix (Shepperd's method, robust near 180°). */
static inline void mt_m3_to_quat(double *q, const double *R)
{
    double tr = R[0] + R[4] + R[8];
    if (tr > R[0] && tr > R[4] && tr > R[8]) {
        double s = 2 * sqrt(1 + tr);
        q[0] = 0.25 * s; q[1] = (R[7] - R[5]) / s; q[2] = (R[2] - R[6]) / s; q[3] = (R[3] - R[1]) / s;
    } else if (R[0] > R[4] && R[0] > R[8]) {
        double s = 2 * sqrt(1 + R[0] - R[4] - R[8]);
        q[0] = (R[7] - R[5]) / s; q[1] = 0.25 * s; q[2] = (R[1] + R[3]) / s; q[3] = (R[2] + R[6]) / s;
    } else if (R[4] > R[8]) {
        double s = 2 * sqrt(1 + R[4] - R[0] - R[8]);
        q[0] = (R[2] - R[6]) / s; q[1] = (R[1] + R[3]) / s; q[2] = 0.25 * s; q[3] = (R[5] + R[7]) / s;
    } else {
        double s = 2 * sqrt(1 + R[8] - R[0] - R[4]);
        q[0] = (R[3] - R[1]) / s; q[1] = (R[2] + R[6]) / s; q[2] = (R[5] + R[7]) / s; q[3] = 0.25 * s;
    }
    if (q[0] < 0) { q[0] = -q[0]; q[1] = -q[1]; q[2] = -q[2]; q[3] = -q[3]; }
}
static inline void mt_quat_normalize(double *q)
{
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    q[0] /= n; q[1] /= n; q[2] /= n; q[3] /= n;
}
/* r = a ⊗ b (Hamilton product; r may alias a or b) */
static inline void mt_quat_mul(double *r, const double *a, const double *b)
{
    double w = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    double x = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    double y = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    double z = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
    r[0] = w; r[1] = x; r[2] = y; r[3] = z;
}
/* Quaternion of a rotation by |v| radians about v (v = rotation vector). */
static inline void mt_quat_from_rotvec(double *q, const double *v)
{
    double a = mt_v3_norm(v);
    if (a < 1e-12) { /* series keeps second-order accuracy for tiny angles */
        q[0] = 1 - a * a / 8; q[1] = 0.5 * v[0]; q[2] = 0.5 * v[1]; q[3] = 0.5 * v[2];
        mt_quat_normalize(q);
        return;
    }
    double s = sin(0.5 * a) / a;
    q[0] = cos(0.5 * a); q[1] = s * v[0]; q[2] = s * v[1]; q[3] = s * v[2];
}
/* Symmetric 3x3 S = R D Rᵀ for body-frame D. */
static inline void mt_m3_rotate_sym(double *S, const double *R, const double *D)
{
    double t[9];
    mt_m3_mul(t, R, D);
    mt_m3_mul_bt(S, t, R);
}

#endif
