/* mt_expr.c — the expression language (docs/expressions.md): a recursive
 * descent parser builds a syntax tree, folding constant subtrees as it goes
 * (with the evaluator itself, so folded and run-time values agree to the
 * bit); code generation turns the tree into a program for a stack machine
 * whose top of stack lives in a register, with immediate forms of + − × ÷
 * for constant and variable right operands and jumps for conditionals. */
#include "mt_expr.h"
#include "mt_i18n.h"

#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#ifndef M_E
#define M_E 2.7182818284590452354
#endif

/* ---------------------------------------------------------------- machine */

enum {
    OP_END, OP_K, OP_V, OP_JF, OP_JMP,
    /* one operand */
    OP_NEG, OP_NOT, OP_SQR, OP_SIN, OP_COS, OP_TAN, OP_ASIN, OP_ACOS, OP_ATAN, OP_SINH, OP_COSH, OP_TANH,
    OP_EXP, OP_LOG, OP_LOG10, OP_SQRT, OP_ABS, OP_SIGN, OP_FLOOR, OP_CEIL,
    /* two operands */
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_POW, OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE, OP_AND, OP_OR,
    OP_ATAN2, OP_HYPOT, OP_MOD, OP_MIN, OP_MAX,
    /* two operands, the right one (constant or variable) in the instruction */
    OP_ADDK, OP_SUBK, OP_MULK, OP_DIVK, OP_ADDV, OP_SUBV, OP_MULV, OP_DIVV,
    /* five operands */
    OP_STEP, OP_STEP5, OP_HAVSIN,
    /* one operand and a table in the pool */
    OP_TABLE, OP_SPLINE,
    /* syntax tree only: if(c, a, b), compiled to jumps */
    OP_IF
};

static int is_binary(int op) { return op >= OP_ADD && op <= OP_MAX; }
static int is_smooth(int op) { return op >= OP_STEP && op <= OP_HAVSIN; }

/* One instruction: K pushes k; V pushes vars[a]; JF/JMP jump by a;
 * TABLE/SPLINE read n points at pool + a. */
typedef struct {
    int32_t op, a;
    union {
        double k;
        int32_t n;
    } u;
} Ins;

struct MtExpr {
    const Ins *code;
    const double *pool;
    const int *deps;
    int ncode, npool, ndeps, nvars;
};

/* Conditions: a NaN operand gives NaN, otherwise 1 or 0. */
#define NAN2(a, b, r) (((a) != (a) || (b) != (b)) ? NAN : ((r) ? 1.0 : 0.0))

static double fsign(double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : x; }

/* Floored modulo: the result has the sign of b (mod(-1, 360) = 359). */
static double fmodulo(double a, double b)
{
    double r = fmod(a, b);
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}

/* step, step5, haversine: h0 for x ≤ x0, h1 for x ≥ x1, smooth in between
 * (a sudden step at x0 when x1 ≤ x0). */
static double smooth(int op, double x, double x0, double h0, double x1, double h1)
{
    if (x != x || x0 != x0 || x1 != x1) return NAN;
    if (x <= x0) return h0;
    if (x >= x1) return h1;
    double d = (x - x0) / (x1 - x0), a = h1 - h0;
    if (op == OP_STEP) return h0 + a * d * d * (3 - 2 * d);
    if (op == OP_STEP5) return h0 + a * d * d * d * (10 + d * (6 * d - 15));
    return 0.5 * (h0 + h1) + 0.5 * a * sin(M_PI * (d - 0.5));
}

/* Table of n points at p: x[n] then y[n] (linear), or x[n] then per interval
 * y, b, c, d of y + b t + c t² + d t³ and finally y[n−1] (spline). Constant
 * beyond the ends. */
static double lookup(const double *p, int n, double x, int spline)
{
    const double *c = p + n;
    if (!(x > p[0])) return x <= p[0] ? c[0] : NAN;
    if (x >= p[n - 1]) return spline ? c[4 * (n - 1)] : c[n - 1];
    int lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        int mid = (lo + hi) >> 1;
        if (x < p[mid]) hi = mid;
        else lo = mid;
    }
    double t = x - p[lo];
    if (spline) {
        const double *q = c + 4 * lo;
        return q[0] + t * (q[1] + t * (q[2] + t * q[3]));
    }
    return c[lo] + (c[lo + 1] - c[lo]) * (t / (p[lo + 1] - p[lo]));
}

/* The stack machine; the top of the stack is kept in t. */
static double run(const Ins *pc, const double *pool, const double *v)
{
    double st[MT_EXPR_MAX_STACK];
    double *sp = st, t = 0, l;
    for (;; pc++) {
        switch (pc->op) {
        case OP_END: return t;
        case OP_K: *sp++ = t; t = pc->u.k; break;
        case OP_V: *sp++ = t; t = v[pc->a]; break;
        case OP_JF:
            l = t;
            t = *--sp;
            if (l == 0) pc += pc->a - 1;
            else if (l != l) { /* NaN condition: NaN result, via the JMP that ends the 'then' branch */
                *sp++ = t;
                t = NAN;
                pc += pc->a - 2;
            }
            break;
        case OP_JMP: pc += pc->a - 1; break;
        case OP_NEG: t = -t; break;
        case OP_NOT: t = t != t ? NAN : (t == 0 ? 1.0 : 0.0); break;
        case OP_SQR: t = t * t; break;
        case OP_SIN: t = sin(t); break;
        case OP_COS: t = cos(t); break;
        case OP_TAN: t = tan(t); break;
        case OP_ASIN: t = asin(t); break;
        case OP_ACOS: t = acos(t); break;
        case OP_ATAN: t = atan(t); break;
        case OP_SINH: t = sinh(t); break;
        case OP_COSH: t = cosh(t); break;
        case OP_TANH: t = tanh(t); break;
        case OP_EXP: t = exp(t); break;
        case OP_LOG: t = log(t); break;
        case OP_LOG10: t = log10(t); break;
        case OP_SQRT: t = sqrt(t); break;
        case OP_ABS: t = fabs(t); break;
        case OP_SIGN: t = fsign(t); break;
        case OP_FLOOR: t = floor(t); break;
        case OP_CEIL: t = ceil(t); break;
        case OP_ADD: t = *--sp + t; break;
        case OP_SUB: t = *--sp - t; break;
        case OP_MUL: t = *--sp * t; break;
        case OP_DIV: t = *--sp / t; break;
        case OP_POW: l = *--sp; t = pow(l, t); break;
        case OP_LT: l = *--sp; t = NAN2(l, t, l < t); break;
        case OP_LE: l = *--sp; t = NAN2(l, t, l <= t); break;
        case OP_GT: l = *--sp; t = NAN2(l, t, l > t); break;
        case OP_GE: l = *--sp; t = NAN2(l, t, l >= t); break;
        case OP_EQ: l = *--sp; t = NAN2(l, t, l == t); break;
        case OP_NE: l = *--sp; t = NAN2(l, t, l != t); break;
        case OP_AND: l = *--sp; t = NAN2(l, t, l != 0 && t != 0); break;
        case OP_OR: l = *--sp; t = NAN2(l, t, l != 0 || t != 0); break;
        case OP_ATAN2: l = *--sp; t = atan2(l, t); break;
        case OP_HYPOT: l = *--sp; t = hypot(l, t); break;
        case OP_MOD: l = *--sp; t = fmodulo(l, t); break;
        case OP_MIN: l = *--sp; t = (l != l || t != t) ? NAN : (l < t ? l : t); break;
        case OP_MAX: l = *--sp; t = (l != l || t != t) ? NAN : (l > t ? l : t); break;
        case OP_ADDK: t += pc->u.k; break;
        case OP_SUBK: t -= pc->u.k; break;
        case OP_MULK: t *= pc->u.k; break;
        case OP_DIVK: t /= pc->u.k; break;
        case OP_ADDV: t += v[pc->a]; break;
        case OP_SUBV: t -= v[pc->a]; break;
        case OP_MULV: t *= v[pc->a]; break;
        case OP_DIVV: t /= v[pc->a]; break;
        case OP_STEP:
        case OP_STEP5:
        case OP_HAVSIN:
            sp -= 4;
            t = smooth(pc->op, sp[0], sp[1], sp[2], sp[3], t);
            break;
        case OP_TABLE: t = lookup(pool + pc->a, pc->u.n, t, 0); break;
        case OP_SPLINE: t = lookup(pool + pc->a, pc->u.n, t, 1); break;
        default: return NAN;
        }
    }
}

double mt_expr_eval(const MtExpr *e, const double *vars)
{
    if (!e) return NAN;
    return run(e->code, e->pool, vars);
}

/* ------------------------------------------------- derivatives (jets) */

/* A value with its first two derivatives along one variable. */
typedef struct {
    double v, d, dd;
} Jet;

static Jet jk(double v) { return (Jet){v, 0, 0}; }

/* g(u) from g, g', g'' at u.v: chain rule to second order. */
static Jet jchain(Jet u, double g, double g1, double g2) { return (Jet){g, g1 * u.d, g2 * u.d * u.d + g1 * u.dd}; }

static Jet jadd(Jet a, Jet b) { return (Jet){a.v + b.v, a.d + b.d, a.dd + b.dd}; }
static Jet jsub(Jet a, Jet b) { return (Jet){a.v - b.v, a.d - b.d, a.dd - b.dd}; }
static Jet jmul(Jet a, Jet b) { return (Jet){a.v * b.v, a.d * b.v + a.v * b.d, a.dd * b.v + 2 * a.d * b.d + a.v * b.dd}; }

static Jet jdiv(Jet a, Jet b)
{
    Jet w;
    w.v = a.v / b.v;
    w.d = (a.d - w.v * b.d) / b.v;
    w.dd = (a.dd - 2 * w.d * b.d - w.v * b.dd) / b.v;
    return w;
}

static Jet jsqrt(Jet u)
{
    double s = sqrt(u.v);
    return jchain(u, s, 0.5 / s, -0.25 / (s * u.v));
}

static Jet jexp(Jet u)
{
    double e = exp(u.v);
    return jchain(u, e, e, e);
}

static Jet jlog(Jet u) { return jchain(u, log(u.v), 1 / u.v, -1 / (u.v * u.v)); }

static Jet jpow(Jet a, Jet b)
{
    if (b.d == 0 && b.dd == 0) { /* a constant exponent: defined for negative bases too */
        double p = b.v;
        if (p == 0) return jk(1);
        return jchain(a, pow(a.v, p), p * pow(a.v, p - 1), p * (p - 1) * pow(a.v, p - 2));
    }
    return jexp(jmul(b, jlog(a)));
}

static Jet jsel(int first, Jet a, Jet b) { return first ? a : b; }

/* Unary functions of the machine on a jet. */
static Jet junary(int op, Jet u)
{
    double x = u.v, s, c, t;
    switch (op) {
    case OP_NEG: return (Jet){-u.v, -u.d, -u.dd};
    case OP_SQR: return jmul(u, u);
    case OP_SIN: s = sin(x), c = cos(x); return jchain(u, s, c, -s);
    case OP_COS: s = sin(x), c = cos(x); return jchain(u, c, -s, -c);
    case OP_TAN: t = tan(x); return jchain(u, t, 1 + t * t, 2 * t * (1 + t * t));
    case OP_ASIN: c = 1 - x * x; return jchain(u, asin(x), 1 / sqrt(c), x / (c * sqrt(c)));
    case OP_ACOS: c = 1 - x * x; return jchain(u, acos(x), -1 / sqrt(c), -x / (c * sqrt(c)));
    case OP_ATAN: c = 1 + x * x; return jchain(u, atan(x), 1 / c, -2 * x / (c * c));
    case OP_SINH: s = sinh(x), c = cosh(x); return jchain(u, s, c, s);
    case OP_COSH: s = sinh(x), c = cosh(x); return jchain(u, c, s, c);
    case OP_TANH: t = tanh(x); return jchain(u, t, 1 - t * t, -2 * t * (1 - t * t));
    case OP_EXP: return jexp(u);
    case OP_LOG: return jlog(u);
    case OP_LOG10: return jchain(u, log10(x), 1 / (x * M_LN10), -1 / (x * x * M_LN10));
    case OP_SQRT: return jsqrt(u);
    case OP_ABS: return x < 0 ? (Jet){-u.v, -u.d, -u.dd} : u;
    case OP_NOT: return jk(x != x ? NAN : (x == 0 ? 1.0 : 0.0));
    case OP_SIGN: return jk(fsign(x));
    case OP_FLOOR: return jk(floor(x));
    case OP_CEIL: return jk(ceil(x));
    default: return jk(NAN);
    }
}

/* Binary operations of the machine on jets. */
static Jet jbinary(int op, Jet l, Jet t)
{
    double a = l.v, b = t.v;
    switch (op) {
    case OP_ADD: return jadd(l, t);
    case OP_SUB: return jsub(l, t);
    case OP_MUL: return jmul(l, t);
    case OP_DIV: return jdiv(l, t);
    case OP_POW: return jpow(l, t);
    case OP_LT: return jk(NAN2(a, b, a < b));
    case OP_LE: return jk(NAN2(a, b, a <= b));
    case OP_GT: return jk(NAN2(a, b, a > b));
    case OP_GE: return jk(NAN2(a, b, a >= b));
    case OP_EQ: return jk(NAN2(a, b, a == b));
    case OP_NE: return jk(NAN2(a, b, a != b));
    case OP_AND: return jk(NAN2(a, b, a != 0 && b != 0));
    case OP_OR: return jk(NAN2(a, b, a != 0 || b != 0));
    case OP_ATAN2: { /* θ = atan2(y, x): θ' = (x y' − y x') / r², r² = x² + y² */
        Jet n = jsub(jmul(t, (Jet){l.d, l.dd, 0}), jmul(l, (Jet){t.d, t.dd, 0})), r = jadd(jmul(l, l), jmul(t, t));
        Jet q = jdiv(n, r);
        return (Jet){atan2(a, b), q.v, q.d};
    }
    case OP_HYPOT: {
        Jet h = jsqrt(jadd(jmul(l, l), jmul(t, t)));
        h.v = hypot(a, b);
        return h;
    }
    case OP_MOD: { /* a − k b with k = floor(a / b) held */
        double r = fmodulo(a, b), k = b != 0 ? round((a - r) / b) : 0;
        return (Jet){r, l.d - k * t.d, l.dd - k * t.dd};
    }
    case OP_MIN: return (a != a || b != b) ? jk(NAN) : jsel(a < b, l, t);
    case OP_MAX: return (a != a || b != b) ? jk(NAN) : jsel(a > b, l, t);
    default: return jk(NAN);
    }
}

/* step, step5, haversine on jets (the same shapes as smooth()). */
static Jet jsmooth(int op, Jet x, Jet x0, Jet h0, Jet x1, Jet h1)
{
    if (x.v != x.v || x0.v != x0.v || x1.v != x1.v) return jk(NAN);
    if (x.v <= x0.v) return h0;
    if (x.v >= x1.v) return h1;
    Jet d = jdiv(jsub(x, x0), jsub(x1, x0)), a = jsub(h1, h0), p;
    if (op == OP_STEP) p = jmul(jmul(d, d), jsub(jk(3), jmul(jk(2), d)));
    else if (op == OP_STEP5) p = jmul(jmul(jmul(d, d), d), jadd(jk(10), jmul(d, jsub(jmul(jk(6), d), jk(15)))));
    else {
        Jet ph = jmul(jk(M_PI), jsub(d, jk(0.5)));
        return jadd(jmul(jk(0.5), jadd(h0, h1)), jmul(jmul(jk(0.5), a), junary(OP_SIN, ph)));
    }
    return jadd(h0, jmul(a, p));
}

/* A table on a jet: the piece holding x differentiated (zero beyond the ends). */
static Jet jlookup(const double *p, int n, Jet x, int spline)
{
    double v = lookup(p, n, x.v, spline), s = 0, c2 = 0;
    if (x.v > p[0] && x.v < p[n - 1]) {
        int lo = 0, hi = n - 1;
        while (hi - lo > 1) {
            int mid = (lo + hi) >> 1;
            if (x.v < p[mid]) hi = mid;
            else lo = mid;
        }
        double t = x.v - p[lo];
        if (spline) {
            const double *q = p + n + 4 * lo;
            s = q[1] + t * (2 * q[2] + 3 * t * q[3]);
            c2 = 2 * q[2] + 6 * t * q[3];
        } else s = (p[n + lo + 1] - p[n + lo]) / (p[lo + 1] - p[lo]);
    }
    return jchain(x, v, s, c2);
}

/* The stack machine of run() on jets; slot `slot` is the variable. */
static Jet run_jet(const Ins *pc, const double *pool, const double *v, int slot, double x)
{
    Jet st[MT_EXPR_MAX_STACK];
    Jet *sp = st, t = jk(0), l;
#define VAR(a) ((a) == slot ? (Jet){x, 1, 0} : jk(v[a]))
    for (;; pc++) {
        int op = pc->op;
        switch (op) {
        case OP_END: return t;
        case OP_K: *sp++ = t; t = jk(pc->u.k); break;
        case OP_V: *sp++ = t; t = VAR(pc->a); break;
        case OP_JF:
            l = t;
            t = *--sp;
            if (l.v == 0) pc += pc->a - 1;
            else if (l.v != l.v) {
                *sp++ = t;
                t = jk(NAN);
                pc += pc->a - 2;
            }
            break;
        case OP_JMP: pc += pc->a - 1; break;
        case OP_ADDK: t = jadd(t, jk(pc->u.k)); break;
        case OP_SUBK: t = jsub(t, jk(pc->u.k)); break;
        case OP_MULK: t = jmul(t, jk(pc->u.k)); break;
        case OP_DIVK: t = jdiv(t, jk(pc->u.k)); break;
        case OP_ADDV: t = jadd(t, VAR(pc->a)); break;
        case OP_SUBV: t = jsub(t, VAR(pc->a)); break;
        case OP_MULV: t = jmul(t, VAR(pc->a)); break;
        case OP_DIVV: t = jdiv(t, VAR(pc->a)); break;
        case OP_STEP:
        case OP_STEP5:
        case OP_HAVSIN:
            sp -= 4;
            t = jsmooth(op, sp[0], sp[1], sp[2], sp[3], t);
            break;
        case OP_TABLE: t = jlookup(pool + pc->a, pc->u.n, t, 0); break;
        case OP_SPLINE: t = jlookup(pool + pc->a, pc->u.n, t, 1); break;
        default:
            if (is_binary(op)) {
                l = *--sp;
                t = jbinary(op, l, t);
            } else t = junary(op, t);
        }
    }
#undef VAR
}

void mt_expr_eval_jet(const MtExpr *e, const double *vars, int slot, double x, double out[3])
{
    Jet j = e ? run_jet(e->code, e->pool, vars, slot, x) : jk(NAN);
    out[0] = j.v, out[1] = j.d, out[2] = j.dd;
}

/* ----------------------------------------------------------------- numbers */

static int dig(int ch) { return ch >= '0' && ch <= '9'; }

size_t mt_expr_scan_number(const char *s, double *value)
{
    size_t i = 0, nd = 0;
    while (dig(s[i])) i++, nd++;
    if (s[i] == '.') {
        i++;
        while (dig(s[i])) i++, nd++;
    }
    if (nd == 0) return 0;
    if (s[i] == 'e' || s[i] == 'E') {
        size_t j = i + 1;
        if (s[j] == '+' || s[j] == '-') j++;
        if (dig(s[j])) {
            while (dig(s[j])) j++;
            i = j;
        }
    }
    /* strtod with the locale's decimal point on a copy of exactly these bytes */
    const char *dp = localeconv()->decimal_point;
    size_t ndp = dp && *dp ? strlen(dp) : 1;
    char small[96], *buf = small;
    size_t need = i + ndp + 1;
    if (need > sizeof small) buf = malloc(need);
    if (!buf) {
        *value = NAN;
        return i;
    }
    size_t o = 0;
    for (size_t k = 0; k < i; k++) {
        if (s[k] == '.') {
            memcpy(buf + o, dp && *dp ? dp : ".", ndp);
            o += ndp;
        } else buf[o++] = s[k];
    }
    buf[o] = 0;
    *value = strtod(buf, NULL);
    if (buf != small) free(buf);
    return i;
}

int mt_expr_is_number(const char *src, double *value)
{
    if (!src) return 0;
    const char *s = src;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
    int neg = 0;
    if (*s == '-' || *s == '+') neg = *s++ == '-';
    else if (!strncmp(s, "\xe2\x88\x92", 3)) neg = 1, s += 3; /* U+2212 minus sign */
    while (*s == ' ' || *s == '\t') s++;
    double v;
    size_t n = mt_expr_scan_number(s, &v);
    if (!n) return 0;
    s += n;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
    if (*s || !isfinite(v)) return 0;
    if (value) *value = neg ? -v : v;
    return 1;
}

/* ------------------------------------------------------------------- UTF-8 */

/* Decodes the code point at s (avail bytes): its length, or -1 if invalid. */
static int utf8(const unsigned char *s, size_t avail, unsigned *cp)
{
    unsigned c = s[0];
    int n;
    unsigned min;
    if (c < 0x80) { *cp = c; return 1; }
    if (c >= 0xC2 && c <= 0xDF) n = 2, c &= 0x1F, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF) n = 3, c &= 0x0F, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4) n = 4, c &= 0x07, min = 0x10000;
    else return -1;
    if ((size_t)n > avail) return -1;
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) return -1;
        c = (c << 6) | (s[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return -1;
    *cp = c;
    return n;
}

/* 1-based column (in code points) of byte offset pos. */
static int column(const char *src, size_t pos)
{
    int col = 1;
    for (size_t i = 0; i < pos && src[i]; i++)
        if (((unsigned char)src[i] & 0xC0) != 0x80) col++;
    return col;
}

void mt_expr_caret(const char *src, int col, char *buf, size_t size)
{
    if (!buf || !size) return;
    if (!src) src = "";
    if (col < 1) col = 1;
    /* show at most 70 characters around the column */
    int first = col > 50 ? col - 40 : 1, c = 1;
    size_t o = 0, i = 0;
    if (first > 1 && o + 3 < size) memcpy(buf + o, "...", 3), o += 3;
    for (; src[i] && o + 1 < size; i++) {
        unsigned char ch = (unsigned char)src[i];
        int lead = (ch & 0xC0) != 0x80;
        if (lead && i > 0) c++;
        if (c < first) continue;
        if (c >= first + 70) {
            if (lead && o + 4 < size) memcpy(buf + o, "...", 3), o += 3;
            break;
        }
        buf[o++] = (ch == '\t' || ch == '\n' || ch == '\r') ? ' ' : (char)ch;
    }
    /* never leave a cut UTF-8 sequence at the end */
    while (o > 0 && ((unsigned char)buf[o - 1] & 0x80)) {
        size_t k = o - 1;
        while (k > 0 && ((unsigned char)buf[k] & 0xC0) == 0x80) k--;
        unsigned cp;
        if (utf8((const unsigned char *)buf + k, o - k, &cp) == (int)(o - k)) break;
        o = k;
    }
    if (o + 1 < size) buf[o++] = '\n';
    int pad = col - first + (first > 1 ? 3 : 0);
    for (int k = 0; k < pad && o + 1 < size; k++) buf[o++] = ' ';
    if (o + 1 < size) buf[o++] = '^';
    buf[o] = 0;
}

/* ---------------------------------------------------------------- compiler */

enum {
    T_END, T_ERR, T_NUM, T_NAME, T_LP, T_RP, T_COMMA, T_Q, T_COLON, T_ADD, T_SUB, T_MUL, T_DIV, T_POW,
    T_LT, T_LE, T_GT, T_GE, T_EQ, T_NE, T_AND, T_OR, T_NOT
};

typedef struct {
    int op, nk;
    size_t pos; /* byte offset of the token, for messages */
    int kid[5];
    int a, n; /* V: slot a; TABLE/SPLINE: pool offset a, n points */
    double k;
} Node;

typedef struct {
    const char *src;
    size_t len;
    const MtExprEnv *env;
    /* lexer */
    size_t pos;
    int tok;
    size_t tpos, tlen;     /* token bytes */
    size_t npos, nlen;     /* name bytes (without backquotes) */
    double tnum;
    int depth;
    /* tree */
    Node *node;
    int nnode, capnode;
    /* tables: pool of doubles, and where each table already went */
    double *pool;
    int npool, cappool;
    int *tabat; /* 2 per table: linear, spline; -1 if not yet in the pool */
    /* code */
    Ins *code;
    int ncode, capcode, sdepth, smax;
    int *spine;
    int nspine, capspine;
    int *deps;
    int ndeps, capdeps;
    /* first error */
    int failed, nomem;
    size_t errpos;
    char msg[400];
} C;

static int fail(C *c, size_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(C *c, size_t pos, const char *fmt, ...)
{
    if (c->failed) return -1;
    c->failed = 1;
    c->errpos = pos;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof c->msg, fmt, ap);
    va_end(ap);
    return -1;
}

static int oom(C *c)
{
    if (!c->failed) c->nomem = 1;
    return fail(c, 0, MT_("out of memory"));
}

/* Grows *p (of element size sz, capacity *cap) to hold need elements. */
static int grow(C *c, void **p, int *cap, int need, size_t sz)
{
    if (need <= *cap) return 0;
    int nc = *cap ? *cap : 16;
    while (nc < need) {
        if (nc > (1 << 28)) return oom(c);
        nc *= 2;
    }
    void *q = realloc(*p, (size_t)nc * sz);
    if (!q) return oom(c);
    *p = q;
    *cap = nc;
    return 0;
}

/* Lexer ------------------------------------------------------------------ */

static int is_space_cp(unsigned cp)
{
    return cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || cp == '\v' || cp == '\f' || cp == 0xA0 ||
           cp == 0x2009 || cp == 0x202F;
}

/* Token of a non-ASCII operator character, or T_END if it is none. */
static int op_cp(unsigned cp)
{
    switch (cp) {
    case 0x2212: return T_SUB; /* − */
    case 0xD7:                 /* × */
    case 0xB7:                 /* · */
    case 0x22C5: return T_MUL; /* ⋅ */
    case 0xF7: return T_DIV;   /* ÷ */
    case 0x2264: return T_LE;  /* ≤ */
    case 0x2265: return T_GE;  /* ≥ */
    case 0x2260: return T_NE;  /* ≠ */
    default: return T_END;
    }
}

/* Length of the name character at pos (letters, digits, '_', non-ASCII
 * letters), 0 if there is none. */
static int name_char(const C *c, size_t pos)
{
    if (pos >= c->len) return 0;
    unsigned char ch = (unsigned char)c->src[pos];
    if (ch < 0x80) return (ch == '_' || dig(ch) || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')) ? 1 : 0;
    unsigned cp;
    int n = utf8((const unsigned char *)c->src + pos, c->len - pos, &cp);
    if (n < 0 || is_space_cp(cp) || op_cp(cp) != T_END) return 0;
    return n;
}

/* The character at pos, quoted for a message. */
static const char *show_char(const C *c, size_t pos, char *buf, size_t size)
{
    unsigned char ch = (unsigned char)c->src[pos];
    unsigned cp;
    int n = utf8((const unsigned char *)c->src + pos, c->len - pos, &cp);
    if (ch < 0x20 || ch == 0x7F) snprintf(buf, size, MT_("control character 0x%02X"), ch);
    else if (n < 0) snprintf(buf, size, MT_("byte 0x%02X (not valid UTF-8)"), ch);
    else snprintf(buf, size, "'%.*s'", n, c->src + pos);
    return buf;
}

/* The current token, quoted for a message. */
static const char *show_tok(const C *c, char *buf, size_t size)
{
    if (c->tok == T_END) snprintf(buf, size, "%s", MT_("the end"));
    else {
        size_t n = c->tlen > 40 ? 40 : c->tlen;
        while (n < c->tlen && n > 0 && ((unsigned char)c->src[c->tpos + n] & 0xC0) == 0x80) n--;
        snprintf(buf, size, "'%.*s%s'", (int)n, c->src + c->tpos, n < c->tlen ? "..." : "");
    }
    return buf;
}

static void next(C *c)
{
    const char *s = c->src;
    unsigned cp = 0;
    int n;
    while (c->pos < c->len && (n = utf8((const unsigned char *)s + c->pos, c->len - c->pos, &cp)) > 0 &&
           is_space_cp(cp))
        c->pos += (size_t)n;
    c->tpos = c->pos;
    c->tlen = 0;
    if (c->pos >= c->len) {
        c->tok = T_END;
        return;
    }
    size_t p = c->pos;
    char ch = s[p], buf[64];
    if (dig(ch) || (ch == '.' && dig(s[p + 1]))) {
        size_t m = mt_expr_scan_number(s + p, &c->tnum);
        size_t q = p + m;
        if (name_char(c, q) || s[q] == '.') {
            /* the rest of the word, for the message */
            size_t r = q;
            int w;
            while ((w = name_char(c, r)) > 0 || s[r] == '.') r += w > 0 ? (size_t)w : 1;
            int len = r - p > 40 ? 40 : (int)(r - p);
            c->tok = T_ERR;
            if (s[q] == '.' || s[q] == 'e' || s[q] == 'E' || dig(s[q]))
                fail(c, p, MT_("malformed number '%.*s'"), len, s + p);
            else
                fail(c, q, MT_("'%.*s': a number cannot be followed by a name (expressions take plain SI numbers, "
                     "without units)"), len, s + p);
            return;
        }
        if (!isfinite(c->tnum)) {
            c->tok = T_ERR;
            fail(c, p, MT_("number '%.*s' is too large"), (int)(m > 40 ? 40 : m), s + p);
            return;
        }
        c->tok = T_NUM;
        c->tlen = m;
        c->pos = q;
        return;
    }
    if (ch == '`') {
        size_t q = p + 1;
        while (q < c->len && s[q] != '`') q++;
        if (q >= c->len) {
            c->tok = T_ERR;
            fail(c, p, MT_("the name quoted with '`' is not closed"));
            return;
        }
        if (q == p + 1) {
            c->tok = T_ERR;
            fail(c, p, MT_("empty quoted name"));
            return;
        }
        c->tok = T_NAME;
        c->npos = p + 1;
        c->nlen = q - p - 1;
        c->pos = q + 1;
        c->tlen = c->pos - p;
        return;
    }
    if ((n = name_char(c, p)) > 0 && !dig(ch)) {
        size_t q = p;
        for (;;) {
            int w = name_char(c, q);
            if (w > 0) q += (size_t)w;
            else if (s[q] == '.' && name_char(c, q + 1)) q++;
            else break;
        }
        c->tok = T_NAME;
        c->npos = p;
        c->nlen = q - p;
        c->pos = q;
        c->tlen = q - p;
        return;
    }
    int tok = T_END, len = 1;
    switch (ch) {
    case '+': tok = T_ADD; break;
    case '-': tok = T_SUB; break;
    case '*':
        tok = T_MUL;
        if (s[p + 1] == '*') tok = T_POW, len = 2;
        break;
    case '/': tok = T_DIV; break;
    case '^': tok = T_POW; break;
    case '(': tok = T_LP; break;
    case ')': tok = T_RP; break;
    case ',': tok = T_COMMA; break;
    case '?': tok = T_Q; break;
    case ':': tok = T_COLON; break;
    case '<':
        tok = T_LT;
        if (s[p + 1] == '=') tok = T_LE, len = 2;
        break;
    case '>':
        tok = T_GT;
        if (s[p + 1] == '=') tok = T_GE, len = 2;
        break;
    case '=':
        if (s[p + 1] == '=') tok = T_EQ, len = 2;
        else {
            c->tok = T_ERR;
            fail(c, p, MT_("'=' is not an operator here: write '==' to compare"));
            return;
        }
        break;
    case '!':
        tok = T_NOT;
        if (s[p + 1] == '=') tok = T_NE, len = 2;
        break;
    case '&':
        if (s[p + 1] == '&') tok = T_AND, len = 2;
        else {
            c->tok = T_ERR;
            fail(c, p, MT_("'&' is not an operator: write '&&' for 'and'"));
            return;
        }
        break;
    case '|':
        if (s[p + 1] == '|') tok = T_OR, len = 2;
        else {
            c->tok = T_ERR;
            fail(c, p, MT_("'|' is not an operator: write '||' for 'or', abs(x) for |x|"));
            return;
        }
        break;
    default:
        n = utf8((const unsigned char *)s + p, c->len - p, &cp);
        if (n > 1 && (tok = op_cp(cp)) != T_END) {
            len = n;
            break;
        }
        c->tok = T_ERR;
        fail(c, p, MT_("unexpected %s"), show_char(c, p, buf, sizeof buf));
        return;
    }
    c->tok = tok;
    c->tlen = (size_t)len;
    c->pos = p + (size_t)len;
}

/* Tree --------------------------------------------------------------------- */

static int node_new(C *c, int op, size_t pos)
{
    if (grow(c, (void **)&c->node, &c->capnode, c->nnode + 1, sizeof(Node))) return -1;
    Node *x = &c->node[c->nnode];
    memset(x, 0, sizeof *x);
    x->op = op;
    x->pos = pos;
    return c->nnode++;
}

static int leaf_k(C *c, double k, size_t pos)
{
    int i = node_new(c, OP_K, pos);
    if (i >= 0) c->node[i].k = k;
    return i;
}

/* Node op(kids), folded to a constant when every operand is constant (by
 * running the machine on it); if(c, a, b) with constant c becomes a or b. */
static int node_op(C *c, int op, size_t pos, int nk, const int *kids)
{
    for (int i = 0; i < nk; i++)
        if (kids[i] < 0) return -1;
    if (op == OP_POW && c->node[kids[1]].op == OP_K && c->node[kids[1]].k == 2.0) {
        op = OP_SQR; /* x^2 = x·x, correctly rounded like pow */
        nk = 1;
    }
    if (op == OP_IF && c->node[kids[0]].op == OP_K) {
        double k = c->node[kids[0]].k;
        if (k != k) return leaf_k(c, NAN, pos);
        return k != 0 ? kids[1] : kids[2];
    }
    int i = node_new(c, op, pos);
    if (i < 0) return -1;
    Node *x = &c->node[i];
    x->nk = nk;
    int allk = op != OP_IF;
    for (int j = 0; j < nk; j++) {
        x->kid[j] = kids[j];
        if (c->node[kids[j]].op != OP_K) allk = 0;
    }
    if (allk) {
        Ins prog[7];
        int m = 0;
        for (int j = 0; j < nk; j++) prog[m++] = (Ins){.op = OP_K, .u.k = c->node[kids[j]].k};
        prog[m++] = (Ins){.op = op, .a = x->a, .u.n = x->n};
        prog[m++] = (Ins){.op = OP_END};
        x->k = run(prog, c->pool, NULL);
        x->op = OP_K;
        x->nk = 0;
    }
    return i;
}

static int node2(C *c, int op, size_t pos, int a, int b)
{
    int k[2] = {a, b};
    return node_op(c, op, pos, 2, k);
}

/* Parser ------------------------------------------------------------------- */

static int parse_ternary(C *c);
static int parse_unary(C *c);

static int deeper(C *c, size_t pos)
{
    if (++c->depth > MT_EXPR_MAX_NESTING)
        return fail(c, pos, MT_("too deeply nested (more than %d levels)"), MT_EXPR_MAX_NESTING);
    return 0;
}

/* Where the '(' at byte lp should have been closed. */
static int unclosed(C *c, size_t lp, const char *what)
{
    char buf[64];
    if (c->tok == T_ERR) return -1;
    if (c->tok == T_END)
        return fail(c, c->tpos, MT_("missing ')': the '(' at column %d is not closed"), column(c->src, lp));
    return fail(c, c->tpos, MT_("expected %s, found %s"), what, show_tok(c, buf, sizeof buf));
}

/* Computes the pool entry of table ti for linear (spline 0) or natural cubic
 * spline (spline 1) interpolation; returns its offset, -1 on error. */
static int table_pool(C *c, int ti, int spline, size_t pos)
{
    const MtExprTable *t = &c->env->tables[ti];
    if (c->tabat[2 * ti + spline] >= 0) return c->tabat[2 * ti + spline];
    int n = t->n;
    if (n < 1 || !t->x || !t->y) return fail(c, pos, MT_("table '%s' has no points"), t->name);
    if (n > (1 << 24)) return fail(c, pos, MT_("table '%s' has too many points"), t->name);
    for (int i = 0; i < n; i++) {
        if (!isfinite(t->x[i]) || !isfinite(t->y[i]))
            return fail(c, pos, MT_("table '%s': point %d is not a pair of finite numbers"), t->name, i + 1);
        if (i > 0 && !(t->x[i] > t->x[i - 1]))
            return fail(c, pos, MT_("table '%s': x must increase from point to point (point %d: x = %g after %g)"),
                        t->name, i + 1, t->x[i], t->x[i - 1]);
    }
    int size = spline ? 5 * n - 3 : 2 * n;
    if (grow(c, (void **)&c->pool, &c->cappool, c->npool + size, sizeof(double))) return -1;
    int off = c->npool;
    double *p = c->pool + off;
    memcpy(p, t->x, sizeof(double) * (size_t)n);
    if (!spline) memcpy(p + n, t->y, sizeof(double) * (size_t)n);
    else {
        /* second derivatives M (natural: M0 = Mn−1 = 0) by the Thomas algorithm */
        double *M = calloc((size_t)n * 2, sizeof(double));
        if (!M) return oom(c);
        double *cp = M + n;
        const double *x = t->x, *y = t->y;
        for (int i = 1; i < n - 1; i++) {
            double h0 = x[i] - x[i - 1], h1 = x[i + 1] - x[i];
            double r = 6 * ((y[i + 1] - y[i]) / h1 - (y[i] - y[i - 1]) / h0);
            double diag = 2 * (h0 + h1) - (i > 1 ? h0 * cp[i - 1] : 0);
            cp[i] = h1 / diag;
            M[i] = (r - (i > 1 ? h0 * M[i - 1] : 0)) / diag;
        }
        for (int i = n - 3; i >= 1; i--) M[i] -= cp[i] * M[i + 1];
        double *q = p + n;
        for (int i = 0; i < n - 1; i++) {
            double h = x[i + 1] - x[i];
            q[4 * i] = y[i];
            q[4 * i + 1] = (y[i + 1] - y[i]) / h - h * (2 * M[i] + M[i + 1]) / 6;
            q[4 * i + 2] = M[i] / 2;
            q[4 * i + 3] = (M[i + 1] - M[i]) / (6 * h);
        }
        q[4 * (n - 1)] = y[n - 1];
        free(M);
    }
    c->npool += size;
    c->tabat[2 * ti + spline] = off;
    return off;
}

static const struct {
    const char *name;
    int op, nargs; /* nargs −1: one or more */
} funcs[] = {
    {"sin", OP_SIN, 1},     {"cos", OP_COS, 1},     {"tan", OP_TAN, 1},       {"asin", OP_ASIN, 1},
    {"acos", OP_ACOS, 1},   {"atan", OP_ATAN, 1},   {"atan2", OP_ATAN2, 2},   {"sinh", OP_SINH, 1},
    {"cosh", OP_COSH, 1},   {"tanh", OP_TANH, 1},   {"exp", OP_EXP, 1},       {"log", OP_LOG, 1},
    {"log10", OP_LOG10, 1}, {"sqrt", OP_SQRT, 1},   {"abs", OP_ABS, 1},       {"sign", OP_SIGN, 1},
    {"min", OP_MIN, -1},    {"max", OP_MAX, -1},    {"pow", OP_POW, 2},       {"mod", OP_MOD, 2},
    {"floor", OP_FLOOR, 1}, {"ceil", OP_CEIL, 1},   {"hypot", OP_HYPOT, 2},   {"step", OP_STEP, 5},
    {"step5", OP_STEP5, 5}, {"haversine", OP_HAVSIN, 5}, {"havsin", OP_HAVSIN, 5}, {"if", OP_IF, 3},
    {"table", OP_TABLE, 2}, {"spline", OP_SPLINE, 2},
};

static int parse_call(C *c, size_t fpos, const char *name)
{
    int f = -1;
    for (size_t i = 0; i < sizeof funcs / sizeof funcs[0]; i++)
        if (!strcmp(funcs[i].name, name)) f = (int)i;
    if (f < 0) return fail(c, fpos, MT_("unknown function '%s'"), name);
    int op = funcs[f].op, want = funcs[f].nargs;
    size_t lp = c->tpos;
    next(c); /* '(' */
    char buf[64];
    int kids[5] = {-1, -1, -1, -1, -1}, nk = 0, acc = -1;
    if (op == OP_TABLE || op == OP_SPLINE) {
        kids[0] = parse_ternary(c);
        if (kids[0] < 0) return -1;
        if (c->tok != T_COMMA) {
            if (c->tok == T_RP) return fail(c, c->tpos, MT_("'%s' takes 2 arguments: x and the name of a table"), name);
            return unclosed(c, lp, MT_("',' and a table name"));
        }
        next(c);
        if (c->tok != T_NAME)
            return c->tok == T_ERR ? -1 : fail(c, c->tpos, MT_("the second argument of '%s' must be the name of a table, found %s"),
                                              name, show_tok(c, buf, sizeof buf));
        size_t tp = c->tpos;
        int ti = -1;
        if (c->env)
            for (int i = 0; i < c->env->ntables; i++) {
                const char *tn = c->env->tables[i].name;
                if (tn && strlen(tn) == c->nlen && !memcmp(tn, c->src + c->npos, c->nlen)) ti = i;
            }
        if (ti < 0) return fail(c, tp, MT_("unknown table '%.*s'"), (int)(c->nlen > 80 ? 80 : c->nlen), c->src + c->npos);
        int off = table_pool(c, ti, op == OP_SPLINE, tp);
        if (off < 0) return -1;
        next(c);
        if (c->tok != T_RP) return unclosed(c, lp, MT_("')' after the table name"));
        next(c);
        int i = node_new(c, op, fpos);
        if (i < 0) return -1;
        c->node[i].a = off;
        c->node[i].n = c->env->tables[ti].n;
        c->node[i].nk = 1;
        c->node[i].kid[0] = kids[0];
        if (c->node[kids[0]].op == OP_K) {
            Node *x = &c->node[i];
            x->k = lookup(c->pool + x->a, x->n, c->node[kids[0]].k, op == OP_SPLINE);
            x->op = OP_K;
            x->nk = 0;
        }
        return i;
    }
    if (c->tok != T_RP) {
        for (;;) {
            size_t apos = c->tpos;
            if (want >= 0 && nk == want)
                return fail(c, apos, MT_("too many arguments: '%s' takes %d"), name, want);
            int a = parse_ternary(c);
            if (a < 0) return -1;
            if (want >= 0) kids[nk] = a;
            else if ((acc = nk == 0 ? a : node2(c, op, fpos, acc, a)) < 0) return -1;
            nk++;
            if (c->tok == T_COMMA) {
                next(c);
                continue;
            }
            if (c->tok == T_RP) break;
            return unclosed(c, lp, MT_("',' or ')'"));
        }
    }
    next(c); /* ')' */
    if (want < 0) {
        if (nk == 0) return fail(c, fpos, MT_("'%s' needs at least one argument"), name);
        return acc;
    }
    if (nk != want)
        return want == 1 ? fail(c, fpos, MT_("'%s' takes 1 argument, found %d"), name, nk)
                         : fail(c, fpos, MT_("'%s' takes %d arguments, found %d"), name, want, nk);
    if (is_smooth(op)) {
        const Node *x0 = &c->node[kids[1]], *x1 = &c->node[kids[3]];
        if (x0->op == OP_K && x1->op == OP_K && !(x1->k > x0->k))
            return fail(c, fpos, MT_("'%s': x1 (%g) must be greater than x0 (%g)"), name, x1->k, x0->k);
    }
    return node_op(c, op, fpos, nk, kids);
}

static int parse_primary(C *c)
{
    char buf[64];
    size_t pos = c->tpos;
    switch (c->tok) {
    case T_ERR: return -1;
    case T_NUM: {
        int i = leaf_k(c, c->tnum, pos);
        next(c);
        return i;
    }
    case T_LP: {
        next(c);
        int e = parse_ternary(c);
        if (e < 0) return -1;
        if (c->tok != T_RP) return unclosed(c, pos, MT_("')' or an operator"));
        next(c);
        return e;
    }
    case T_NAME: {
        char name[MT_EXPR_MAX_NAME + 1];
        if (c->nlen > MT_EXPR_MAX_NAME) return fail(c, pos, MT_("name too long (more than %d bytes)"), MT_EXPR_MAX_NAME);
        memcpy(name, c->src + c->npos, c->nlen);
        name[c->nlen] = 0;
        if (memchr(name, 0, c->nlen)) return fail(c, pos, MT_("invalid name"));
        next(c);
        if (c->tok == T_LP) return parse_call(c, pos, name);
        if (c->tok == T_ERR) return -1;
        int slot = -1;
        if (c->env && c->env->resolve && c->env->resolve(c->env->user, name, &slot)) {
            if (slot < 0) return fail(c, pos, MT_("name '%s' has no value (slot %d)"), name, slot);
            int i = node_new(c, OP_V, pos);
            if (i >= 0) c->node[i].a = slot;
            return i;
        }
        if (!strcmp(name, "pi") || !strcmp(name, "\xcf\x80")) return leaf_k(c, M_PI, pos);
        if (!strcmp(name, "e")) return leaf_k(c, M_E, pos);
        for (size_t i = 0; i < sizeof funcs / sizeof funcs[0]; i++)
            if (!strcmp(funcs[i].name, name)) return fail(c, pos, MT_("'%s' is a function: write %s(...)"), name, name);
        return fail(c, pos, MT_("unknown name '%s'"), name);
    }
    case T_END:
        return fail(c, pos, MT_("expected a value at the end of the expression"));
    default: return fail(c, pos, MT_("expected a value, found %s"), show_tok(c, buf, sizeof buf));
    }
}

/* power: primary ('^' unary)?, so that 2^-1 works and a^b^c = a^(b^c) */
static int parse_power(C *c)
{
    int b = parse_primary(c);
    if (b < 0 || c->tok != T_POW) return b;
    size_t pos = c->tpos;
    next(c);
    if (deeper(c, pos)) return -1;
    int e = parse_unary(c);
    c->depth--;
    return node2(c, OP_POW, pos, b, e);
}

static int parse_unary(C *c)
{
    int t = c->tok;
    if (t != T_SUB && t != T_ADD && t != T_NOT) return parse_power(c);
    size_t pos = c->tpos;
    next(c);
    if (deeper(c, pos)) return -1;
    int k = parse_unary(c);
    c->depth--;
    if (t == T_ADD || k < 0) return k;
    return node_op(c, t == T_SUB ? OP_NEG : OP_NOT, pos, 1, &k);
}

static int parse_mul(C *c)
{
    int l = parse_unary(c);
    while (l >= 0 && (c->tok == T_MUL || c->tok == T_DIV)) {
        int op = c->tok == T_MUL ? OP_MUL : OP_DIV;
        size_t pos = c->tpos;
        next(c);
        l = node2(c, op, pos, l, parse_unary(c));
    }
    return l;
}

static int parse_add(C *c)
{
    int l = parse_mul(c);
    while (l >= 0 && (c->tok == T_ADD || c->tok == T_SUB)) {
        int op = c->tok == T_ADD ? OP_ADD : OP_SUB;
        size_t pos = c->tpos;
        next(c);
        l = node2(c, op, pos, l, parse_mul(c));
    }
    return l;
}

static int relop(int tok)
{
    switch (tok) {
    case T_LT: return OP_LT;
    case T_LE: return OP_LE;
    case T_GT: return OP_GT;
    case T_GE: return OP_GE;
    case T_EQ: return OP_EQ;
    case T_NE: return OP_NE;
    default: return -1;
    }
}

static int parse_cmp(C *c)
{
    int l = parse_add(c);
    int op = relop(c->tok);
    if (l < 0 || op < 0) return l;
    size_t pos = c->tpos;
    next(c);
    l = node2(c, op, pos, l, parse_add(c));
    if (l >= 0 && relop(c->tok) >= 0)
        return fail(c, c->tpos, MT_("comparisons cannot be chained: write 'a < b && b < c'"));
    return l;
}

static int parse_and(C *c)
{
    int l = parse_cmp(c);
    while (l >= 0 && c->tok == T_AND) {
        size_t pos = c->tpos;
        next(c);
        l = node2(c, OP_AND, pos, l, parse_cmp(c));
    }
    return l;
}

static int parse_or(C *c)
{
    int l = parse_and(c);
    while (l >= 0 && c->tok == T_OR) {
        size_t pos = c->tpos;
        next(c);
        l = node2(c, OP_OR, pos, l, parse_and(c));
    }
    return l;
}

/* ternary: or ('?' ternary ':' ternary)? */
static int parse_ternary(C *c)
{
    if (deeper(c, c->tpos)) return -1;
    int r = parse_or(c);
    if (r >= 0 && c->tok == T_Q) {
        size_t q = c->tpos;
        next(c);
        int a = parse_ternary(c);
        if (a < 0) return -1;
        if (c->tok != T_COLON) {
            char buf[64];
            if (c->tok == T_ERR) return -1;
            return fail(c, c->tpos, MT_("expected ':' for the '?' at column %d, found %s"), column(c->src, q),
                        show_tok(c, buf, sizeof buf));
        }
        next(c);
        int b = parse_ternary(c);
        int k[3] = {r, a, b};
        r = node_op(c, OP_IF, q, 3, k);
    }
    c->depth--;
    return r;
}

/* Code generation ----------------------------------------------------------- */

static int emit(C *c, int op, int a, double k, int effect, size_t pos)
{
    if (grow(c, (void **)&c->code, &c->capcode, c->ncode + 1, sizeof(Ins))) return -1;
    Ins *in = &c->code[c->ncode];
    in->op = op;
    in->a = a;
    in->u.k = k;
    c->sdepth += effect;
    if (c->sdepth > c->smax) c->smax = c->sdepth;
    if (c->sdepth > MT_EXPR_MAX_STACK)
        return fail(c, pos, MT_("too deeply nested (needs more than %d stack entries)"), MT_EXPR_MAX_STACK);
    return c->ncode++;
}

static int is_leaf(const Node *x) { return x->op == OP_K || x->op == OP_V; }

static int emit_leaf(C *c, const Node *x, int effect, int opk, int opv)
{
    if (x->op == OP_K) return emit(c, opk, 0, x->k, effect, x->pos);
    if (grow(c, (void **)&c->deps, &c->capdeps, c->ndeps + 1, sizeof(int))) return -1;
    c->deps[c->ndeps++] = x->a;
    return emit(c, opv, x->a, 0, effect, x->pos);
}

/* Immediate form of op for a constant (k = 1) or variable right operand, or -1. */
static int imm(int op, int k)
{
    switch (op) {
    case OP_ADD: return k ? OP_ADDK : OP_ADDV;
    case OP_SUB: return k ? OP_SUBK : OP_SUBV;
    case OP_MUL: return k ? OP_MULK : OP_MULV;
    case OP_DIV: return k ? OP_DIVK : OP_DIVV;
    default: return -1;
    }
}

static int gen(C *c, int n);

/* Emits the right operand of binary node m (the left one is on the stack) and m. */
static int gen_right(C *c, int m)
{
    const Node *x = &c->node[m], *r = &c->node[x->kid[1]];
    int op = x->op, io = is_leaf(r) ? imm(op, r->op == OP_K) : -1;
    if (io >= 0) return emit_leaf(c, r, 0, io, io) < 0 ? -1 : 0;
    if (gen(c, x->kid[1])) return -1;
    return emit(c, op, 0, 0, -1, x->pos) < 0 ? -1 : 0;
}

/* Emits node n: left spines of binary operators (a+b+c+…, any length) are
 * walked in a loop, so recursion only follows nesting in the source. */
static int gen(C *c, int n)
{
    int base = c->nspine;
    for (;;) {
        const Node *x = &c->node[n];
        if (!is_binary(x->op)) break;
        if ((x->op == OP_ADD || x->op == OP_MUL) && is_leaf(&c->node[x->kid[0]]) && !is_leaf(&c->node[x->kid[1]]))
            break; /* k·(…): emitted as (…)·k */
        if (grow(c, (void **)&c->spine, &c->capspine, c->nspine + 1, sizeof(int))) return -1;
        c->spine[c->nspine++] = n;
        n = x->kid[0];
    }
    const Node *x = &c->node[n];
    if (x->op == OP_K || x->op == OP_V) {
        if (emit_leaf(c, x, 1, OP_K, OP_V) < 0) return -1;
    } else if (is_binary(x->op)) { /* commuted: right operand first, then the leaf */
        if (gen(c, x->kid[1])) return -1;
        const Node *l = &c->node[x->kid[0]];
        int io = imm(x->op, l->op == OP_K);
        if (emit_leaf(c, l, 0, io, io) < 0) return -1;
    } else if (x->op == OP_IF) {
        if (gen(c, x->kid[0])) return -1;
        int jf = emit(c, OP_JF, 0, 0, -1, x->pos);
        if (jf < 0 || gen(c, x->kid[1])) return -1;
        int jmp = emit(c, OP_JMP, 0, 0, 0, x->pos);
        if (jmp < 0) return -1;
        c->sdepth--;
        c->code[jf].a = c->ncode - jf;
        if (gen(c, x->kid[2])) return -1;
        c->code[jmp].a = c->ncode - jmp;
    } else {
        for (int i = 0; i < x->nk; i++)
            if (gen(c, c->node[n].kid[i])) return -1;
        x = &c->node[n];
        int k = emit(c, x->op, x->a, 0, 1 - x->nk, x->pos);
        if (k < 0) return -1;
        if (x->op == OP_TABLE || x->op == OP_SPLINE) c->code[k].u.n = x->n;
    }
    while (c->nspine > base) {
        int m = c->spine[--c->nspine];
        if (gen_right(c, m)) return -1;
    }
    return 0;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

MtExpr *mt_expr_compile(const char *src, const MtExprEnv *env, int *errcol, MtError *err)
{
    if (errcol) *errcol = 0;
    if (!src) {
        if (errcol) *errcol = 1;
        mt_error_set(err, MT_ERR_ARG, "", "%s", MT_("column 1: no expression"));
        return NULL;
    }
    C c;
    memset(&c, 0, sizeof c);
    c.src = src;
    c.len = strlen(src);
    c.env = env;
    MtExpr *e = NULL;
    if (c.len > MT_EXPR_MAX_SOURCE) {
        fail(&c, 0, "expression too long (more than %d bytes)", MT_EXPR_MAX_SOURCE);
        goto done;
    }
    if (env && env->ntables > 0) {
        if (!env->tables) {
            fail(&c, 0, "no tables given");
            goto done;
        }
        c.tabat = malloc(sizeof(int) * 2 * (size_t)env->ntables);
        if (!c.tabat) {
            oom(&c);
            goto done;
        }
        for (int i = 0; i < 2 * env->ntables; i++) c.tabat[i] = -1;
    }
    next(&c);
    if (c.tok == T_END) {
        fail(&c, 0, "empty expression");
        goto done;
    }
    int root = parse_ternary(&c);
    if (root >= 0 && c.tok != T_END) {
        char buf[64];
        if (c.tok == T_RP) fail(&c, c.tpos, "unexpected ')' without a matching '('");
        else if (c.tok == T_COLON) fail(&c, c.tpos, "unexpected ':' without a '?' before it");
        else if (c.tok == T_COMMA) fail(&c, c.tpos, "unexpected ',' outside the arguments of a function");
        else if (c.tok != T_ERR) fail(&c, c.tpos, "expected an operator or the end, found %s", show_tok(&c, buf, sizeof buf));
    }
    if (c.failed) goto done;
    if (gen(&c, root) || emit(&c, OP_END, 0, 0, 0, 0) < 0) goto done;
    /* distinct slots, sorted */
    if (c.ndeps > 1) qsort(c.deps, (size_t)c.ndeps, sizeof(int), cmp_int);
    int nd = 0;
    for (int i = 0; i < c.ndeps; i++)
        if (nd == 0 || c.deps[i] != c.deps[nd - 1]) c.deps[nd++] = c.deps[i];
    size_t off_code = (sizeof(MtExpr) + 15) & ~(size_t)15;
    size_t off_pool = off_code + sizeof(Ins) * (size_t)c.ncode;
    size_t off_deps = off_pool + sizeof(double) * (size_t)c.npool;
    char *mem = malloc(off_deps + sizeof(int) * (size_t)nd);
    if (!mem) {
        oom(&c);
        goto done;
    }
    e = (MtExpr *)mem;
    memcpy(mem + off_code, c.code, sizeof(Ins) * (size_t)c.ncode);
    if (c.npool) memcpy(mem + off_pool, c.pool, sizeof(double) * (size_t)c.npool);
    if (nd) memcpy(mem + off_deps, c.deps, sizeof(int) * (size_t)nd);
    e->code = (const Ins *)(mem + off_code);
    e->pool = (const double *)(mem + off_pool);
    e->deps = (const int *)(mem + off_deps);
    e->ncode = c.ncode;
    e->npool = c.npool;
    e->ndeps = nd;
    e->nvars = nd ? c.deps[nd - 1] + 1 : 0;
done:
    if (!e) {
        int col = column(src, c.errpos);
        if (errcol) *errcol = col;
        if (c.nomem) mt_error_set(err, MT_ERR_NOMEM, "", "%s", MT_("out of memory while compiling an expression"));
        else mt_error_set(err, MT_ERR_SYNTAX, "", MT_("column %d: %s"), col, c.msg);
    }
    free(c.node);
    free(c.pool);
    free(c.tabat);
    free(c.code);
    free(c.spine);
    free(c.deps);
    return e;
}

void mt_expr_free(MtExpr *e) { free(e); }

int mt_expr_deps(const MtExpr *e, const int **slots)
{
    if (slots) *slots = e ? e->deps : NULL;
    return e ? e->ndeps : 0;
}

int mt_expr_nvars(const MtExpr *e) { return e ? e->nvars : 0; }
int mt_expr_is_constant(const MtExpr *e) { return e && e->ndeps == 0; }
int mt_expr_size(const MtExpr *e) { return e ? e->ncode : 0; }

MtStatus mt_expr_eval_constant(const char *src, MtExprResolve resolve, void *user, const double *vars,
                               double *value, MtError *err)
{
    MtExprEnv env = {resolve, user, NULL, 0};
    MtError local;
    MtError *er = err ? err : &local;
    MtExpr *e = mt_expr_compile(src, &env, NULL, er);
    if (!e) return er->code;
    double v = mt_expr_eval(e, vars);
    if (value) *value = v;
    mt_expr_free(e);
    return MT_OK;
}
